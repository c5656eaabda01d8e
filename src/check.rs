//! A player's digits checked: which entries are wrong and why, how many
//! cells are still to fill, and whether the grid is solved correctly.
//!
//! [`check_entries`] takes a [`Progress`] (givens and entries) of any
//! layout. An entry is wrong when it repeats a symbol of its house (or of
//! its cage, on a killer) or, when the givens have one solution, when it
//! differs from that solution: no solution has it. A grid filled entirely
//! with givens and no entries (a solution page read as printed) is checked
//! as a solution: every house holds every symbol once, and every cage its
//! sum. [`resume`] builds the puzzle to go on from: the givens and the
//! correct entries.
//!
//! ```
//! use sudoku_lens::check::check_entries;
//! use sudoku_lens::grid::parse_progress;
//!
//! let text = "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n\
//!             7...2...6\n.6....28.\n...419..5\n....8..79\n\
//!             entries:\n..4......\n.......2.\n.........\n.........\n\
//!             .........\n.........\n.........\n.........\n.........\n";
//! let progress = parse_progress(text, "mine.txt", None).unwrap();
//! let check = check_entries(&progress);
//! assert_eq!(check.wrong.len(), 1);
//! assert_eq!(check.wrong[0].text(), "r2c8: wrote 2, breaks the puzzle");
//! assert_eq!(check.remaining, 49);
//! assert!(!check.solved);
//! ```

pub use crate::grid::Unsure;
use crate::grid::{Progress, Puzzle, rule_holds_among, rules_hold};
use crate::logic::HouseIndex;
use crate::solve;

/// Why an entry (or, on a solution page, a cell) is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// It repeats the symbol of `with` in `house` (a house index of the
    /// layout), or in a cage when `house` is `None`.
    Conflict { with: usize, house: Option<usize> },
    /// The givens have one solution, and it holds another symbol here.
    BreaksPuzzle,
    /// Its cage (an index into the puzzle's cages) is full and sums to
    /// `total`, not to the cage's sum.
    CageSum { cage: usize, total: u32 },
    /// The grid is full and breaks a variant rule (an index into the
    /// puzzle's rules) whose cells include this one.
    Rule { rule: usize },
}

/// A wrong entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wrong {
    /// The cell, an index of the layout.
    pub cell: usize,
    /// What is written there.
    pub wrote: u8,
    pub reason: Reason,
    /// The cell's name as the logic engine gives it: `r3c4`, or
    /// `top-left grid, r3c4` on a layout of several grids.
    pub name: String,
    /// What is wrong, in words: `wrote 7, breaks the puzzle`.
    pub says: String,
}

impl Wrong {
    /// The whole finding on one line: `r3c4: wrote 7, breaks the puzzle`.
    pub fn text(&self) -> String {
        format!("{}: {}", self.name, self.says)
    }
}

/// What the givens alone allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Givens {
    /// One solution: every entry was compared with it.
    Unique,
    /// Several solutions: entries were checked against their houses and
    /// cages only.
    Several,
    /// No solution (the message says why, when the givens break a rule
    /// outright): entries were checked against their houses and cages only.
    NoSolution(String),
    /// Every cell is a given and none is an entry: a solution page, checked
    /// as a solution.
    SolutionPage,
    /// The solver gave up before it knew (the message says what it had
    /// found): entries were checked against their houses and cages only.
    Unknown(String),
}

/// What [`check_entries`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryCheck {
    /// Wrong entries (on a solution page: wrong cells), in cell order.
    pub wrong: Vec<Wrong>,
    /// Cells still empty.
    pub remaining: usize,
    /// Every cell filled, nothing wrong, and the grid a solution.
    pub solved: bool,
    pub givens: Givens,
}

impl EntryCheck {
    /// One line: "solved correctly", "all correct so far, 23 to go", or how
    /// many mistakes ("2 mistakes, 23 to go"); on a solution page, whether
    /// it is a valid solution.
    pub fn summary(&self) -> String {
        let wrong = self.wrong.len();
        let go = self.remaining;
        let plural = |n: usize, word: &str| {
            if n == 1 {
                format!("{n} {word}")
            } else {
                format!("{n} {word}s")
            }
        };
        match (self.solved, wrong, &self.givens) {
            (true, ..) => "solved correctly".into(),
            (false, 0, Givens::SolutionPage) => "a valid solution".into(),
            (false, 0, _) if go == 0 => "every cell filled, nothing wrong found".into(),
            (false, 0, _) => format!("all correct so far, {go} to go"),
            (false, n, Givens::SolutionPage) => {
                format!("not a valid solution: {} wrong", plural(n, "cell"))
            }
            (false, n, _) if go == 0 => plural(n, "mistake"),
            (false, n, _) => format!("{}, {go} to go", plural(n, "mistake")),
        }
    }
}

impl EntryCheck {
    /// [`EntryCheck::summary`], and how many of the cells to go hold a
    /// digit the reader could not read for sure (`unsure`): "all correct
    /// so far, 12 to go (8 of them written but not read for sure)".
    pub fn summary_with_unsure(&self, unsure: usize) -> String {
        let summary = self.summary();
        match unsure {
            0 => summary,
            n => format!("{summary} ({n} of them written but not read for sure)"),
        }
    }
}

/// The most solutions counted: two tell one from several.
const SOLUTION_LIMIT: u64 = 2;

/// Checks the entries of `progress` (see the module's description).
pub fn check_entries(progress: &Progress) -> EntryCheck {
    check_entries_within(progress, solve::Budget::default())
}

/// [`check_entries`], its search of the givens' solutions giving up when
/// `budget` runs out (the givens are then [`Givens::Unknown`]).
pub fn check_entries_within(progress: &Progress, budget: solve::Budget) -> EntryCheck {
    let puzzle = progress.puzzle();
    let layout = puzzle.layout();
    let current = progress.current();
    let entries = progress.entries().values();
    let page = entries.iter().all(|&v| v == 0) && puzzle.values().iter().all(|&v| v != 0);
    let remaining = current.iter().filter(|&&v| v == 0).count();

    let conflicts = conflicts(puzzle, &current);
    let (givens, solution) = if page {
        (Givens::SolutionPage, None)
    } else {
        match solve::solve_within(puzzle, SOLUTION_LIMIT, 1, budget) {
            Ok(out) if out.count == 1 => (Givens::Unique, out.solutions.into_iter().next()),
            Ok(out) if out.count == 0 => (Givens::NoSolution("no solution".into()), None),
            Ok(_) => (Givens::Several, None),
            Err(e @ solve::SolveError::GaveUp { .. }) => (Givens::Unknown(e.to_string()), None),
            Err(e) => (Givens::NoSolution(e.to_string()), None),
        }
    };

    let mut judge = Judge {
        puzzle,
        houses: HouseIndex::new(layout.clone()),
        current: &current,
        entries,
        page,
        seen: vec![false; current.len()],
        wrong: Vec::new(),
    };
    judge.conflicts(conflicts, solution.as_deref());
    if let Some(solution) = &solution {
        judge.breaks(solution);
    }
    judge.cage_sums();
    if remaining == 0 {
        judge.rules();
    }
    let mut wrong = judge.wrong;
    wrong.sort_by_key(|w| w.cell);
    let solved = remaining == 0
        && wrong.is_empty()
        && !matches!(givens, Givens::NoSolution(_) if !page)
        && conflicts_free(puzzle, &current)
        && rules_hold(layout, &current, puzzle.rules());
    EntryCheck {
        wrong,
        remaining,
        solved,
        givens,
    }
}

/// The digits of a puzzle being judged, and what is found wrong with them
/// so far: each cell found wrong once, for the first reason found.
struct Judge<'a> {
    puzzle: &'a Puzzle,
    houses: HouseIndex,
    /// The givens and the entries, cell by cell.
    current: &'a [u8],
    entries: &'a [u8],
    /// A solution page: every cell is judged, not only the entries.
    page: bool,
    /// The cells found wrong.
    seen: Vec<bool>,
    wrong: Vec<Wrong>,
}

impl Judge<'_> {
    /// On a solution page every cell is judged; otherwise only entries.
    fn judged(&self, cell: usize) -> bool {
        self.page || self.entries[cell] != 0
    }

    fn symbol(&self, v: u8) -> char {
        self.puzzle.alphabet().symbol(v)
    }

    /// Cell `cell`, holding `wrote`, is wrong for `reason`, which `says`
    /// in words.
    fn push(&mut self, cell: usize, wrote: u8, reason: Reason, says: String) {
        self.seen[cell] = true;
        self.wrong.push(Wrong {
            cell,
            wrote,
            reason,
            name: self.houses.cell_name(cell),
            says,
        });
    }

    /// Judged digits that repeat one in a house or a cage (`conflicts`:
    /// cell, the cell it repeats, the house or `None` for a cage); of two
    /// clashing entries, the one the `solution` holds is right.
    fn conflicts(
        &mut self,
        conflicts: Vec<(usize, usize, Option<usize>)>,
        solution: Option<&[u8]>,
    ) {
        for (cell, with, house) in conflicts {
            if !self.judged(cell) || self.seen[cell] {
                continue;
            }
            if solution.is_some_and(|s| s[cell] == self.current[cell]) {
                continue;
            }
            let place = match house {
                Some(h) => self.houses.house_name(h),
                None => "its cage".into(),
            };
            let says = if self.page {
                format!(
                    "{} repeats in {place}, at {}",
                    self.symbol(self.current[cell]),
                    self.houses.cell_name(with)
                )
            } else {
                format!(
                    "wrote {}, conflicts with {} in {place}",
                    self.symbol(self.current[cell]),
                    self.houses.cell_name(with)
                )
            };
            self.push(
                cell,
                self.current[cell],
                Reason::Conflict { with, house },
                says,
            );
        }
    }

    /// Entries that differ from the one `solution`.
    fn breaks(&mut self, solution: &[u8]) {
        for (cell, &v) in self.entries.iter().enumerate() {
            if v != 0 && v != solution[cell] && !self.seen[cell] {
                let says = format!("wrote {}, breaks the puzzle", self.symbol(v));
                self.push(cell, v, Reason::BreaksPuzzle, says);
            }
        }
    }

    /// Full cages whose digits do not add up to their sum, named at their
    /// first judged cell when none of theirs is wrong already.
    fn cage_sums(&mut self) {
        let puzzle = self.puzzle;
        for (k, cage) in puzzle.cages().iter().enumerate() {
            let cells = || cage.cells.iter().map(|&c| c as usize);
            if cells().any(|c| self.current[c] == 0) {
                continue;
            }
            let total: u32 = cells().map(|c| self.current[c] as u32).sum();
            // Named at the cage's first judged cell not already wrong.
            let Some(cell) = cells().find(|&c| self.judged(c) && !self.seen[c]) else {
                continue;
            };
            if total == cage.sum || cells().any(|c| self.seen[c]) {
                continue;
            }
            let says = format!(
                "wrote {}, the cage at {} sums to {total}, not {}",
                self.symbol(self.current[cell]),
                self.houses.cell_name(cage.anchor()),
                cage.sum
            );
            self.push(
                cell,
                self.current[cell],
                Reason::CageSum { cage: k, total },
                says,
            );
        }
    }

    /// On a full grid, every variant rule broken, named at its first
    /// judged cell not already wrong.
    fn rules(&mut self) {
        let puzzle = self.puzzle;
        let layout = puzzle.layout();
        for (k, rule) in puzzle.rules().iter().enumerate() {
            if rule_holds_among(layout, self.current, puzzle.rules(), k) {
                continue;
            }
            let cells = rule.cells(layout);
            let mut judged_cells = cells
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| self.judged(c));
            let cell = match judged_cells.find(|&c| !self.seen[c]) {
                Some(c) => c,
                // A rule over the whole grid names the first judged cell.
                None if cells.is_empty() => {
                    match (0..self.current.len()).find(|&c| self.judged(c) && !self.seen[c]) {
                        Some(c) => c,
                        None => continue,
                    }
                }
                None => continue,
            };
            let says = format!(
                "wrote {}, breaks the {}",
                self.symbol(self.current[cell]),
                rule.describe(layout)
            );
            self.push(cell, self.current[cell], Reason::Rule { rule: k }, says);
        }
    }
}

/// Whether no house or cage of the full grid `values` repeats a symbol and
/// every cage holds its sum.
fn conflicts_free(puzzle: &Puzzle, values: &[u8]) -> bool {
    conflicts(puzzle, values).is_empty()
        && puzzle.cages().iter().all(|cage| {
            cage.cells
                .iter()
                .map(|&c| values[c as usize] as u32)
                .sum::<u32>()
                == cage.sum
        })
}

/// Every cell that repeats a symbol of an earlier cell of one of its houses
/// or cages, both ways round: (cell, the other cell, the house or `None`
/// for a cage).
fn conflicts(puzzle: &Puzzle, values: &[u8]) -> Vec<(usize, usize, Option<usize>)> {
    let layout = puzzle.layout();
    let mut out = Vec::new();
    let mut first = vec![usize::MAX; layout.size() + 1];
    let groups = layout
        .houses()
        .iter()
        .enumerate()
        .map(|(h, house)| (Some(h), &house.cells))
        .chain(puzzle.cages().iter().map(|c| (None, &c.cells)));
    for (house, cells) in groups {
        first.fill(usize::MAX);
        for &c in cells {
            let (c, v) = (c as usize, values[c as usize] as usize);
            if v == 0 {
                continue;
            }
            match first[v] {
                usize::MAX => first[v] = c,
                f => {
                    out.push((c, f, house));
                    out.push((f, c, house));
                }
            }
        }
    }
    out
}

/// The puzzle to go on from: the givens with the correct entries written
/// in as givens (the wrong ones left out), in the puzzle's layout, cages
/// and format, e.g. for a hint from where the player is.
pub fn resume(progress: &Progress, check: &EntryCheck) -> Puzzle {
    let mut values = progress.current();
    for w in &check.wrong {
        if progress.entries().values()[w.cell] != 0 {
            values[w.cell] = 0;
        }
    }
    progress.puzzle().with_values(values)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::grid::{Cage, Entries, Layout, parse_progress};

    #[test]
    fn the_summary_counts_the_cells_written_but_not_read_for_sure() {
        let check = EntryCheck {
            wrong: Vec::new(),
            remaining: 12,
            solved: false,
            givens: Givens::Unique,
        };
        assert_eq!(check.summary_with_unsure(0), "all correct so far, 12 to go");
        assert_eq!(
            check.summary_with_unsure(8),
            "all correct so far, 12 to go (8 of them written but not read for sure)"
        );
        assert_eq!(
            check.summary_with_unsure(1),
            "all correct so far, 12 to go (1 of them written but not read for sure)"
        );
        let u = Unsure {
            cell: 4,
            looks_like: 8,
            runner_up: 3,
            confidence: 0.5,
        };
        assert_eq!(
            u.text("r1c5"),
            "r1c5: a digit is written here that could not be read for sure (an 8, or a 3?)"
        );
    }

    const GIVENS: &str = "\
53..7....
6..195...
.98....6.
8...6...3
4..8.3..1
7...2...6
.6....28.
...419..5
....8..79
";
    const SOLUTION: &str = "\
534678912
672195348
198342567
859761423
426853791
713924856
961537284
287419635
345286179
";

    fn rows(text: &str) -> Vec<u8> {
        text.chars()
            .filter(|c| c.is_ascii_digit() || *c == '.')
            .map(|c| c.to_digit(10).unwrap_or(0) as u8)
            .collect()
    }

    /// The classic puzzle with `entries`: (row, col, value) from 0.
    fn with(entries: &[(usize, usize, u8)]) -> Progress {
        let puzzle = parse_progress(GIVENS, "t", None).unwrap().puzzle().clone();
        let mut v = vec![0u8; 81];
        for &(r, c, d) in entries {
            v[r * 9 + c] = d;
        }
        Progress::new(puzzle, Entries::from_values(v)).unwrap()
    }

    #[test]
    fn an_entry_the_solution_does_not_hold_breaks_the_puzzle() {
        // r1c3 is 4 in the solution; r2c8 is 4, not 2 (which no house of
        // r2c8 holds yet).
        let check = check_entries(&with(&[(0, 2, 4), (1, 7, 2)]));
        assert_eq!(check.givens, Givens::Unique);
        assert_eq!(check.wrong.len(), 1);
        let w = &check.wrong[0];
        assert_eq!((w.cell, w.wrote, &w.reason), (16, 2, &Reason::BreaksPuzzle));
        assert_eq!(w.text(), "r2c8: wrote 2, breaks the puzzle");
        assert_eq!(check.remaining, 81 - 30 - 2);
        assert!(!check.solved);
    }

    #[test]
    fn an_entry_repeating_a_house_names_the_other_cell() {
        // 5 in r1c3 repeats the given 5 at r1c1 (row 1 and box 1).
        let check = check_entries(&with(&[(0, 2, 5)]));
        assert_eq!(check.wrong.len(), 1);
        let w = &check.wrong[0];
        assert_eq!(
            w.reason,
            Reason::Conflict {
                with: 0,
                house: Some(0)
            }
        );
        assert_eq!(w.text(), "r1c3: wrote 5, conflicts with r1c1 in row 1");
    }

    #[test]
    fn of_two_clashing_entries_the_one_off_the_solution_is_wrong() {
        // r1c3 = 4 is right; r1c4 = 4 clashes with it and is wrong.
        let check = check_entries(&with(&[(0, 2, 4), (0, 3, 4)]));
        assert_eq!(check.wrong.len(), 1, "{:?}", check.wrong);
        assert_eq!(check.wrong[0].cell, 3);
        assert!(check.wrong[0].text().contains("conflicts with r1c3"));
    }

    #[test]
    fn all_correct_so_far_and_solved() {
        let check = check_entries(&with(&[(0, 2, 4), (1, 1, 7)]));
        assert!(check.wrong.is_empty());
        assert_eq!(check.remaining, 49);
        assert!(!check.solved);

        let full = rows(SOLUTION);
        let givens = rows(GIVENS);
        let entries: Vec<(usize, usize, u8)> = (0..81)
            .filter(|&c| givens[c] == 0)
            .map(|c| (c / 9, c % 9, full[c]))
            .collect();
        let check = check_entries(&with(&entries));
        assert!(check.wrong.is_empty());
        assert_eq!(check.remaining, 0);
        assert!(check.solved);
    }

    #[test]
    fn a_solution_page_is_checked_as_a_solution() {
        let good = parse_progress(SOLUTION, "t", None).unwrap();
        let check = check_entries(&good);
        assert_eq!(check.givens, Givens::SolutionPage);
        assert!(check.wrong.is_empty() && check.solved && check.remaining == 0);

        // Swap two digits within row 1: columns 1 and 2 break.
        let mut bad = SOLUTION.to_string();
        bad.replace_range(0..2, "35");
        let bad = parse_progress(&bad, "t", None).unwrap();
        let check = check_entries(&bad);
        assert!(!check.solved);
        assert!(!check.wrong.is_empty());
        assert!(
            check
                .wrong
                .iter()
                .any(|w| w.text().contains("repeats in column")),
            "{:?}",
            check.wrong
        );
    }

    #[test]
    fn givens_with_several_solutions_judge_houses_only() {
        // Remove givens until the puzzle has several solutions.
        let few = "53..7....\n6..195...\n.98......\n.........\n.........\n.........\n.........\n.........\n.........\n";
        let puzzle = parse_progress(few, "t", None).unwrap().puzzle().clone();
        let mut v = vec![0u8; 81];
        v[2] = 5; // repeats r1c1
        v[80] = 1; // no house holds 1 yet: cannot be judged
        let p = Progress::new(puzzle, Entries::from_values(v)).unwrap();
        let check = check_entries(&p);
        assert_eq!(check.givens, Givens::Several);
        assert_eq!(check.wrong.len(), 1);
        assert_eq!(check.wrong[0].cell, 2);
    }

    #[test]
    fn a_check_whose_search_gives_up_says_the_givens_are_unknown() {
        // Givens with many solutions: only a search tells.
        let few = "53..7....\n6..195...\n.98......\n.........\n.........\n.........\n.........\n.........\n.........\n";
        let puzzle = parse_progress(few, "t", None).unwrap().puzzle().clone();
        let mut v = vec![0u8; 81];
        v[2] = 5; // repeats r1c1: judged by its houses all the same
        let p = Progress::new(puzzle, Entries::from_values(v)).unwrap();
        let flag = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let check = check_entries_within(&p, solve::Budget::default().with_cancel(flag));
        assert!(
            matches!(&check.givens, Givens::Unknown(why) if why.contains("did not finish")),
            "{:?}",
            check.givens
        );
        assert_eq!(check.wrong.len(), 1);
        assert_eq!(check.wrong[0].cell, 2);
    }

    #[test]
    fn givens_without_a_solution_are_said() {
        let broken = GIVENS.replacen("53", "55", 1);
        let p = parse_progress(&broken, "t", None).unwrap();
        let check = check_entries(&p);
        assert!(
            matches!(check.givens, Givens::NoSolution(_)),
            "{:?}",
            check.givens
        );
        assert!(check.wrong.is_empty());
    }

    #[test]
    fn a_full_cage_with_another_sum_is_wrong() {
        let layout = Arc::new(Layout::classic());
        let full = rows(SOLUTION);
        // A cage over r1c1 and r1c2 (5 + 3 = 8), its sum written as 9.
        let mut givens = full.clone();
        givens[0] = 0;
        givens[1] = 0;
        let puzzle = Puzzle::empty(layout)
            .with_values(givens)
            .with_cages(vec![Cage::new(9, vec![0, 1])])
            .unwrap();
        let mut e = vec![0u8; 81];
        e[0] = 5;
        e[1] = 3;
        let check = check_entries(&Progress::new(puzzle, Entries::from_values(e)).unwrap());
        assert!(!check.solved);
        assert_eq!(check.wrong.len(), 1, "{:?}", check.wrong);
        assert!(matches!(
            check.wrong[0].reason,
            Reason::CageSum { total: 8, .. }
        ));
    }

    #[test]
    fn resume_keeps_the_correct_entries_only() {
        let p = with(&[(0, 2, 4), (1, 7, 2)]);
        let check = check_entries(&p);
        let start = resume(&p, &check);
        assert_eq!(start.values()[2], 4);
        assert_eq!(start.values()[16], 0);
        assert_eq!(start.given_count(), 31);
    }

    #[test]
    fn samurai_cells_are_named_by_their_grid() {
        let layout = Arc::new(Layout::named("samurai").unwrap());
        let mut puzzle = Puzzle::empty(layout.clone());
        let a = layout.cell_at(0, 0).unwrap();
        let b = layout.cell_at(0, 1).unwrap();
        puzzle.set(a, 1);
        let mut e = vec![0u8; layout.cell_count()];
        e[b] = 1;
        let check = check_entries(&Progress::new(puzzle, Entries::from_values(e)).unwrap());
        assert_eq!(check.givens, Givens::Several);
        assert_eq!(check.wrong.len(), 1);
        assert!(
            check.wrong[0]
                .text()
                .starts_with("top-left grid, r1c2: wrote 1, conflicts with top-left grid, r1c1"),
            "{}",
            check.wrong[0].text()
        );
    }
}
