//! Variant puzzles made from seeds, one family of rules at a time (or a mix
//! of families), for the samples, the benchmarks and the tests: a full grid
//! that keeps the family's rules, marks read off that grid (dots, signs,
//! lines and clues it keeps), then givens removed while the solution stays
//! one. Deterministic for a seed, as [`super::full_grid`] is.

use std::sync::Arc;

use super::{Shuffler, full_grid, thin};
use crate::grid::{Layout, Puzzle, Rule, check_rules, rules_hold, windoku_windows};
use crate::solve::SudokuSolver;

/// The families of rules, by the names the tools and benchmarks use.
/// The first six hold over the whole grid; the others are marks on some
/// cells; `mixed` is a whole-grid family (or none) with marks of two
/// families.
pub const FAMILIES: &[&str] = &[
    "diagonals",
    "windoku",
    "disjoint",
    "antiknight",
    "antiking",
    "nonconsecutive",
    "odd-even",
    "kropki",
    "xv",
    "comparison",
    "thermo",
    "arrow",
    "whispers",
    "renban",
    "palindrome",
    "between",
    "region-sum",
    "little-killer",
    "sandwich",
    "mixed",
];

/// The families whose rules hold over the whole grid: the first six.
const WHOLE_GRID: &[&str] = FAMILIES.split_at(6).0;

/// Cell marks of a family (odd/even cells, dots, XV, signs): enough to
/// leave the givens fewer than a classic needs, few enough that the
/// marks stay clues rather than a map of the grid.
const CELL_MARKS: usize = 12;
/// Lines of a family (thermometers, arrows, whispers...): a puzzle of
/// this kind shows a handful of them.
const LINES: usize = 5;
/// Clues outside the grid (little killers, sandwiches).
const OUTSIDE_CLUES: usize = 6;
/// Random marks tried for each one kept: a long line the grid keeps (a
/// thermometer of 6 rising cells) is rare, and a family none keeps within
/// this many tries is made with fewer marks.
const TRIES: usize = 4000;
/// The shortest and longest lines drawn.
const LINE_MIN: usize = 3;
const LINE_MAX: usize = 6;

/// A variant puzzle with its solution.
#[derive(Clone, Debug)]
pub struct Variant {
    pub puzzle: Puzzle,
    pub solution: Vec<u8>,
}

/// A classic 9x9 variant puzzle of `family` (one of [`FAMILIES`]) with one
/// solution, from `seed`, with as few givens as its rules allow. An
/// unknown family is an error naming the known.
pub fn variant(family: &str, seed: u64) -> Result<Variant, String> {
    variant_with(family, seed, 0)
}

/// [`variant`], its givens thinned down to `givens` at the fewest (a
/// gentler puzzle: the samples a person opens first).
pub fn variant_with(family: &str, seed: u64, givens: usize) -> Result<Variant, String> {
    if !FAMILIES.contains(&family) {
        return Err(format!(
            "unknown family `{family}`; the families are {}",
            FAMILIES.join(", ")
        ));
    }
    let layout = Arc::new(Layout::classic());
    // The marks' own stream, apart from the full grid's.
    let mut rng = Shuffler::new(!seed);
    let (whole, marks): (Option<&str>, Vec<&str>) = if family == "mixed" {
        let local = &FAMILIES[WHOLE_GRID.len()..FAMILIES.len() - 1];
        let first = local[rng.below(local.len())];
        let mut second = local[rng.below(local.len())];
        while second == first {
            second = local[rng.below(local.len())];
        }
        // Half of the mixes hold over the whole grid too.
        let whole = (rng.below(2) == 0).then(|| WHOLE_GRID[rng.below(WHOLE_GRID.len())]);
        (whole, vec![first, second])
    } else if WHOLE_GRID.contains(&family) {
        (Some(family), Vec::new())
    } else {
        (None, vec![family])
    };
    let mut rules = match whole {
        Some(w) => whole_grid_rules(&layout, w),
        None => Vec::new(),
    };
    let mut grid_solver = SudokuSolver::with_rules(layout.clone(), &[], &rules)
        .map_err(|e| format!("{family}: {e}"))?;
    let solution = full_grid(&mut grid_solver, seed);
    // A mix gives each family half the marks.
    let share = if marks.len() > 1 { 2 } else { 1 };
    for m in marks {
        add_marks(&layout, &solution, m, share, &mut rules, &mut rng);
    }
    let mut solver = SudokuSolver::with_rules(layout.clone(), &[], &rules)
        .map_err(|e| format!("{family}: {e}"))?;
    let givens = thin(&mut solver, &solution, givens, seed);
    let puzzle = Puzzle::empty(layout).with_values(givens).with_rules(rules);
    puzzle.check_rules().map_err(|e| format!("{family}: {e}"))?;
    Ok(Variant { puzzle, solution })
}

/// The rules of a whole-grid family.
fn whole_grid_rules(layout: &Layout, family: &str) -> Vec<Rule> {
    let text: Vec<String> = match family {
        "diagonals" => vec!["diagonal+".into(), "diagonal-".into()],
        "windoku" => {
            return windoku_windows(layout)
                .into_iter()
                .map(Rule::Region)
                .collect();
        }
        other => vec![other.to_string()],
    };
    text.iter()
        .flat_map(|t| Rule::parse(t, layout).expect("a well-formed rule"))
        .collect()
}

/// Adds up to the family's count (divided by `share`) of random marks that
/// `solution` keeps to `rules`.
fn add_marks(
    layout: &Layout,
    solution: &[u8],
    family: &str,
    share: usize,
    rules: &mut Vec<Rule>,
    rng: &mut Shuffler,
) {
    let count = match family {
        "odd-even" | "kropki" | "xv" | "comparison" => CELL_MARKS,
        "little-killer" | "sandwich" => OUTSIDE_CLUES,
        _ => LINES,
    }
    .div_ceil(share);
    let mut seen: Vec<(String, Vec<u32>)> = Vec::new();
    let mut added = 0;
    for _ in 0..TRIES * count {
        if added == count {
            break;
        }
        let Some(text) = candidate(layout, solution, family, rng) else {
            continue;
        };
        let Ok(new) = Rule::parse(&text, layout) else {
            continue;
        };
        // The same mark written the other way round is the same mark.
        let key = {
            let mut cells: Vec<u32> = new.iter().flat_map(|r| r.cells(layout)).collect();
            cells.sort_unstable();
            (text.split(' ').next().unwrap_or("").to_string(), cells)
        };
        if seen.contains(&key) {
            continue;
        }
        let mut all = rules.clone();
        all.extend(new.iter().cloned());
        if check_rules(layout, &[0; 81], &all).is_err() || !rules_hold(layout, solution, &all) {
            continue;
        }
        seen.push(key);
        *rules = all;
        added += 1;
    }
}

/// `r3c7` for a 0-based cell of the 9x9.
fn name(cell: usize) -> String {
    format!("r{}c{}", cell / 9 + 1, cell % 9 + 1)
}

/// A random path of `len` distinct cells, each a king's move from the last
/// (orthogonal steps only when `orthogonal`).
fn walk(rng: &mut Shuffler, len: usize, orthogonal: bool) -> Option<Vec<usize>> {
    let mut path = vec![rng.below(81)];
    while path.len() < len {
        let last = *path.last().expect("a start");
        let (r, c) = ((last / 9) as i32, (last % 9) as i32);
        let mut steps: Vec<usize> = Vec::with_capacity(8);
        for dr in -1..=1 {
            for dc in -1..=1 {
                let (r2, c2) = (r + dr, c + dc);
                let diagonal = dr != 0 && dc != 0;
                if (dr, dc) == (0, 0) || (orthogonal && diagonal) {
                    continue;
                }
                if (0..9).contains(&r2) && (0..9).contains(&c2) {
                    let next = (r2 * 9 + c2) as usize;
                    if !path.contains(&next) {
                        steps.push(next);
                    }
                }
            }
        }
        if steps.is_empty() {
            return None;
        }
        path.push(steps[rng.below(steps.len())]);
    }
    Some(path)
}

/// One random mark of `family` written as a rule line, shaped so that the
/// solution can keep it (the caller checks that it does).
fn candidate(layout: &Layout, solution: &[u8], family: &str, rng: &mut Shuffler) -> Option<String> {
    let v = |c: usize| solution[c] as i32;
    let names = |cells: &[usize]| cells.iter().map(|&c| name(c)).collect::<Vec<_>>().join(" ");
    let len = LINE_MIN + rng.below(LINE_MAX - LINE_MIN + 1);
    Some(match family {
        "odd-even" => {
            let c = rng.below(81);
            let word = if v(c) % 2 == 1 { "odd" } else { "even" };
            format!("{word} {}", name(c))
        }
        "kropki" | "xv" | "comparison" => {
            let pair = walk(rng, 2, true)?;
            let (a, b) = (pair[0], pair[1]);
            let (x, y) = (v(a), v(b));
            let word = match family {
                "kropki" if (x - y).abs() == 1 => "white",
                "kropki" if x == 2 * y || y == 2 * x => "black",
                "xv" if x + y == 10 => "x",
                "xv" if x + y == 5 => "v",
                "comparison" if x < y => "less",
                "comparison" => return Some(format!("less {} {}", name(b), name(a))),
                _ => return None,
            };
            format!("{word} {} {}", name(a), name(b))
        }
        "thermo" => {
            let mut path = walk(rng, len, false)?;
            if v(path[0]) > v(path[1]) {
                path.reverse();
            }
            format!("thermo {}", names(&path))
        }
        "arrow" => {
            let path = walk(rng, 1 + len.min(4), false)?;
            format!("arrow {} : {}", name(path[0]), names(&path[1..]))
        }
        "whispers" | "renban" | "palindrome" | "between" => {
            format!("{family} {}", names(&walk(rng, len, false)?))
        }
        "region-sum" => {
            // A line inside one box has one part: no rule at all.
            let path = walk(rng, len, false)?;
            let boxes = |c: &usize| (c / 27) * 3 + (c % 9) / 3;
            if path.iter().all(|c| boxes(c) == boxes(&path[0])) {
                return None;
            }
            format!("regionsum {}", names(&path))
        }
        "little-killer" => {
            // From above the grid, down and to the right or the left; the
            // sum is what the solution adds up along the rule's own cells.
            // Above column 0 to 7 running right, or 3 to 10 running left:
            // every diagonal of 2 cells or more.
            let (dir, col) = if rng.below(2) == 0 {
                ("dr", rng.below(8))
            } else {
                ("dl", 3 + rng.below(8))
            };
            let rule = Rule::parse(&format!("littlekiller r0c{col} {dir} 1"), layout).ok()?;
            let cells = rule.first()?.cells(layout);
            if cells.len() < 2 {
                return None;
            }
            let sum: i32 = cells.iter().map(|&c| v(c as usize)).sum();
            format!("littlekiller r0c{col} {dir} {sum}")
        }
        "sandwich" => {
            let k = rng.below(9);
            let by_row = rng.below(2) == 0;
            let line: Vec<i32> = (0..9)
                .map(|i| if by_row { v(k * 9 + i) } else { v(i * 9 + k) })
                .collect();
            let a = line.iter().position(|&x| x == 1)?;
            let b = line.iter().position(|&x| x == 9)?;
            let sum: i32 = line[a.min(b) + 1..a.max(b)].iter().sum();
            if by_row {
                format!("sandwich r{}c0 {sum}", k + 1)
            } else {
                format!("sandwich r0c{} {sum}", k + 1)
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Document, parse};

    fn check(family: &str, v: &Variant) {
        let p = &v.puzzle;
        assert!(!p.rules().is_empty(), "{family}: no rules");
        assert!(
            rules_hold(p.layout(), &v.solution, p.rules()),
            "{family}: the solution breaks its rules"
        );
        let mut solver = SudokuSolver::with_rules(p.layout().clone(), &[], p.rules()).unwrap();
        let out = solver.solve(p.values(), 2, 1).unwrap();
        assert_eq!(out.count, 1, "{family}");
        assert_eq!(out.solutions[0], v.solution, "{family}");
    }

    /// Making every family takes minutes in a debug build; two quick ones
    /// here, and every family through the committed samples below (which
    /// CI rebuilds byte for byte from their seeds).
    #[test]
    fn a_family_makes_a_unique_puzzle_its_solution_keeps_the_same_for_a_seed() {
        for family in ["diagonals", "odd-even"] {
            let v = variant(family, 2).unwrap();
            check(family, &v);
            assert_eq!(
                variant(family, 2).unwrap().puzzle.to_text(),
                v.puzzle.to_text()
            );
            assert_ne!(
                variant(family, 3).unwrap().puzzle.to_text(),
                v.puzzle.to_text()
            );
        }
        assert!(variant("nonsense", 1).unwrap_err().contains("thermo"));
    }

    #[test]
    fn every_family_has_a_sample_with_one_solution_that_keeps_its_rules() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/puzzles/variants");
        let read = |file: &str| {
            let text = std::fs::read_to_string(dir.join(file)).unwrap();
            match parse(&text, file, None).unwrap() {
                Document::Single(p) => p,
                Document::Batch(_) => panic!("{file} holds one puzzle"),
            }
        };
        for &family in FAMILIES {
            let puzzle = read(&format!("{family}.txt"));
            let solution = read(&format!("{family}.solution.txt"));
            assert_eq!(solution.rules(), puzzle.rules(), "{family}");
            let v = Variant {
                solution: solution.values().to_vec(),
                puzzle,
            };
            check(family, &v);
        }
    }
}
