//! Checking a reading with the solver: when the givens as read conflict, or
//! the puzzle has no solution or several, the runner-up readings of the least
//! confident cells are tried, fewest changes first, until the puzzle has
//! exactly one solution.

use std::sync::Arc;

use rayon::prelude::*;

use super::cells::classify::{CellReading, UNCERTAIN_BELOW};
use crate::grid::{Layout, Rule};
use crate::solve::{Budget, SolveError, SudokuSolver};

/// How many of the least confident cells are considered for changes.
pub const CANDIDATE_CELLS: usize = 12;
/// On a reading with no solution, at most this many cells read as empty
/// over ink are considered besides the least confident ones.
pub const MISSED_CELLS: usize = 3;
/// At most this many cells are changed at once.
pub const MAX_CHANGES: usize = 3;
/// On a puzzle with several solutions, a digit is swapped for its runner-up
/// only if the runner-up was at most this much less likely.
const CLOSE_CALL: f32 = 0.1;
/// Combinations tried by one thread before it looks for more work: enough
/// to pay for the solver each job builds.
const COMBOS_PER_JOB: usize = 32;

/// A puzzle with one solution has a given in at least one cell of this
/// many: the classic's proven least is 17 of 81 (one in 4.8), 4x4's 4 of
/// 16, 6x6's 8 of 36; the multi-grid shapes need more, as their grids
/// share few cells. A reading with several solutions that even the most
/// changes tried cannot bring to one given in this many cells is left
/// unresolved without trials: a samurai read over a classic's corners,
/// 7 givens on 369 cells, took 9 s of trials to find nothing.
const FEWEST_GIVENS_PER_CELL: usize = 8;

/// Each search of a reading's check gives up after this many choices, and
/// its trial counts as no answer: a search that gives up leaves the reading
/// as it was, never passes for a count. Counting to two takes no choice at
/// all on most puzzles (the givens force every cell: the samples of every
/// shape), 20 on average on 17-clue classics and 1,700 on the hardest
/// classics known; a 25x25 read wrong from a damaged photo searched for
/// minutes. Choices, not seconds, so that a reading is the same on every
/// machine.
pub const SEARCH_NODES: u64 = 200_000;

/// The same for each trial of changed cells: there are hundreds of trials,
/// and a trial that only a long search settles is not the reading's.
pub const TRIAL_NODES: u64 = 20_000;

/// A solver for checking readings of `layout` with the variant `rules`,
/// held to `nodes` choices a search. Fails only on rules the solver
/// refuses (a cell outside the layout).
pub fn solver_within(
    layout: &Arc<Layout>,
    rules: &[Rule],
    nodes: u64,
) -> Result<SudokuSolver, SolveError> {
    let mut solver = SudokuSolver::with_rules(layout.clone(), &[], rules)?;
    solver.set_budget(Budget::nodes(nodes));
    Ok(solver)
}

/// What the solver says of a reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckOutcome {
    /// The puzzle as read has exactly one solution.
    Unique,
    /// Changing these cells (cell, new value) gives exactly one solution.
    Changed(Vec<(usize, u8)>),
    /// No change tried gave one solution; the reading stays as it was.
    Unresolved,
}

/// One alternative reading of one cell, and how much less likely it is.
#[derive(Clone, Copy, Debug)]
struct Alternative {
    cell: usize,
    value: u8,
    cost: f32,
}

/// Checks `values` (as read) against the solver and, if needed, changes up to
/// [`MAX_CHANGES`] of the [`CANDIDATE_CELLS`] least confident cells to their
/// runner-up reading (or to empty), trying the most likely changes first.
/// A digit found to be misread by emptying its cell is then set to the
/// solution's digit: the cell holds a printed given, only not the one read.
/// `values` is updated when a change is found.
pub fn check(layout: &Arc<Layout>, values: &mut [u8], cells: &[CellReading]) -> CheckOutcome {
    check_solved(layout, &[], values, cells).0
}

/// [`check`], also handing back the one solution it found (for
/// [`CheckOutcome::Unique`] and [`CheckOutcome::Changed`]), so that a
/// caller needing it does not solve the puzzle again. The puzzle's variant
/// `rules` (read from the page, or named by the person) hold in every
/// search.
pub fn check_solved(
    layout: &Arc<Layout>,
    rules: &[Rule],
    values: &mut [u8],
    cells: &[CellReading],
) -> (CheckOutcome, Option<Vec<u8>>) {
    let Ok(mut solver) = solver_within(layout, rules, SEARCH_NODES) else {
        return (CheckOutcome::Unresolved, None);
    };
    let mut first = vec![0u8; values.len()];
    // 0, 1, or 2 meaning "several"; `first` gets the first solution.
    let count = if layout.first_conflict(values).is_some() {
        0
    } else {
        match solver.solve_into(values, 2, &mut first) {
            Ok(count) => count,
            // A search that gave up: the reading stays as read, and no
            // trial is tried on it (each would be as long).
            Err(SolveError::GaveUp { .. }) => return (CheckOutcome::Unresolved, None),
            Err(_) => 0,
        }
    };
    if count == 1 {
        return (CheckOutcome::Unique, Some(first));
    }
    // Too few givens for any change tried to leave one solution: no trials
    // (they cost seconds on a large layout with a handful of givens). A
    // variant's rules pin a solution down with far fewer givens.
    let givens = values.iter().filter(|&&v| v != 0).count();
    if count > 1
        && rules.is_empty()
        && (givens + MAX_CHANGES) * FEWEST_GIVENS_PER_CELL < values.len()
    {
        return (CheckOutcome::Unresolved, None);
    }
    let mut alternatives = alternatives(cells, count > 1);
    // On a puzzle with several solutions, a digit read clearly is not
    // swapped for another: several solutions mostly come from givens read
    // as empty; a misread digit that leaves several was a close call
    // between two digits, and a clear one swapped to pin one solution down
    // would be a wrong given made on purpose.
    if count > 1 {
        alternatives.retain(|a| values[a.cell] == 0 || a.value == 0 || a.cost <= CLOSE_CALL);
    }
    // Givens added to a puzzle with no solution (or a conflict) leave it
    // with none, and givens taken from one with several leave it with
    // several: combinations that only do that are not tried.
    let hopeless: Vec<bool> = alternatives
        .iter()
        .map(|a| match count {
            0 => values[a.cell] == 0 && a.value != 0,
            _ => values[a.cell] != 0 && a.value == 0,
        })
        .collect();
    for size in 1..=MAX_CHANGES.min(alternatives.len()) {
        let mut combos = Vec::new();
        combinations(&alternatives, size, 0, &mut Vec::new(), &mut combos);
        combos.retain(|combo| !combo.iter().all(|&i| hopeless[i]));
        combos.sort_by(|a, b| cost(&alternatives, a).total_cmp(&cost(&alternatives, b)));
        let Some((combo, first)) = first_unique(layout, rules, values, &alternatives, &combos)
        else {
            continue;
        };
        let changes = apply_changes(values, &alternatives, combo, &first);
        return (CheckOutcome::Changed(changes), Some(first));
    }
    (CheckOutcome::Unresolved, None)
}

/// The cheapest of `combos` (sorted by cost) whose alternatives, put in
/// `values`, leave one solution, with that solution. The combinations are
/// tried side by side, each thread with its own solver, and the first in
/// order that works wins, as if tried one by one.
fn first_unique<'c>(
    layout: &Arc<Layout>,
    rules: &[Rule],
    values: &[u8],
    alternatives: &[Alternative],
    combos: &'c [Vec<usize>],
) -> Option<(&'c Vec<usize>, Vec<u8>)> {
    combos
        .par_iter()
        .with_min_len(COMBOS_PER_JOB)
        .map_init(
            || {
                (
                    solver_within(layout, rules, TRIAL_NODES).ok(),
                    values.to_vec(),
                    vec![0u8; values.len()],
                )
            },
            |(solver, trial, first), combo| {
                trial.copy_from_slice(values);
                for &i in combo {
                    trial[alternatives[i].cell] = alternatives[i].value;
                }
                let unique = layout.first_conflict(trial).is_none()
                    && solver
                        .as_mut()
                        .is_some_and(|s| s.solve_into(trial, 2, first).is_ok_and(|n| n == 1));
                unique.then(|| (combo, first.clone()))
            },
        )
        .find_map_first(|found| found)
}

/// Puts `combo`'s alternatives into `values` and returns the cells that
/// changed. A digit that had to go was still printed ink: the given there
/// is the (unique) solution `first`'s digit, misread. Restoring it keeps
/// the puzzle unique and the reading complete.
fn apply_changes(
    values: &mut [u8],
    alternatives: &[Alternative],
    combo: &[usize],
    first: &[u8],
) -> Vec<(usize, u8)> {
    let mut trial = values.to_vec();
    let mut changes = Vec::with_capacity(combo.len());
    for &i in combo {
        let Alternative { cell, value, .. } = alternatives[i];
        let value = if value == 0 && values[cell] != 0 {
            first[cell]
        } else {
            value
        };
        trial[cell] = value;
        if value != values[cell] {
            changes.push((cell, value));
        }
    }
    values.copy_from_slice(&trial);
    changes
}

/// The other readings of the least confident cells: the runner-up, and
/// empty for a digit read with little confidence; cost is how much less
/// likely the alternative is than the reading. On a reading with
/// `several` solutions, the cells read as empty over some ink come first,
/// however sure: a given read as empty is what mostly leaves several. On
/// one with none, [`MISSED_CELLS`] of them come after the least confident.
fn alternatives(cells: &[CellReading], several: bool) -> Vec<Alternative> {
    let mut order: Vec<usize> = (0..cells.len())
        .filter(|&c| cells[c].value != 0 || cells[c].runner_up != 0)
        .collect();
    let key = |c: usize| {
        let r = &cells[c];
        if several && r.value == 0 {
            r.confidence - 1.0
        } else {
            r.confidence
        }
    };
    order.sort_by(|&a, &b| key(a).total_cmp(&key(b)));
    // A missed given can hide behind a misread digit: emptying the misread
    // cell of a reading with no solution leaves several until the missed
    // given is back. So the cells read as empty over ink come along too,
    // however sure, beyond the least confident ones.
    let missed: Vec<usize> = order
        .iter()
        .skip(CANDIDATE_CELLS)
        .copied()
        .filter(|&c| cells[c].value == 0)
        .take(if several { 0 } else { MISSED_CELLS })
        .collect();
    let mut out = Vec::new();
    for &c in order.iter().take(CANDIDATE_CELLS).chain(&missed) {
        let r = &cells[c];
        let gap = (r.confidence - r.runner_up_confidence).max(0.0);
        if r.runner_up != r.value {
            out.push(Alternative {
                cell: c,
                value: r.runner_up,
                cost: gap,
            });
        }
        if r.value != 0 && r.runner_up != 0 && r.confidence < UNCERTAIN_BELOW {
            out.push(Alternative {
                cell: c,
                value: 0,
                cost: r.confidence,
            });
        }
    }
    out
}

fn cost(alternatives: &[Alternative], combo: &[usize]) -> f32 {
    combo.iter().map(|&i| alternatives[i].cost).sum()
}

/// Every set of `size` alternatives, no two for the same cell.
fn combinations(
    alts: &[Alternative],
    size: usize,
    from: usize,
    current: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    if current.len() == size {
        out.push(current.clone());
        return;
    }
    for i in from..alts.len() {
        if current.iter().any(|&j| alts[j].cell == alts[i].cell) {
            continue;
        }
        current.push(i);
        combinations(alts, size, i + 1, current, out);
        current.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....";

    /// A confident reading with no alternative.
    fn sure(value: u8) -> CellReading {
        CellReading {
            value,
            confidence: 0.99,
            runner_up: value,
            runner_up_confidence: 0.0,
        }
    }

    /// A reading of `value`, with `runner_up` next.
    fn reading(
        value: u8,
        confidence: f32,
        runner_up: u8,
        runner_up_confidence: f32,
    ) -> CellReading {
        CellReading {
            value,
            confidence,
            runner_up,
            runner_up_confidence,
        }
    }

    fn setup() -> (Arc<Layout>, Vec<u8>, Vec<CellReading>) {
        let values: Vec<u8> = PUZZLE
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        let cells = values.iter().map(|&v| sure(v)).collect();
        (Arc::new(Layout::classic()), values, cells)
    }

    #[test]
    fn a_unique_reading_is_left_alone() {
        let (layout, mut values, cells) = setup();
        let before = values.clone();
        assert_eq!(check(&layout, &mut values, &cells), CheckOutcome::Unique);
        assert_eq!(values, before);
    }

    #[test]
    fn a_misread_given_is_replaced_by_its_runner_up() {
        let (layout, mut values, mut cells) = setup();
        // r1c3 holds 3; misread as 8 (which clashes with the 8 at r3c2),
        // with 3 as the runner-up.
        values[2] = 8;
        cells[2] = reading(8, 0.55, 3, 0.45);
        // A confident cell with a plausible-looking runner-up must not be
        // preferred over the unsure one.
        cells[4].runner_up = 1;
        cells[4].runner_up_confidence = 0.3;
        let outcome = check(&layout, &mut values, &cells);
        assert_eq!(outcome, CheckOutcome::Changed(vec![(2, 3)]));
        assert_eq!(values[2], 3);
    }

    #[test]
    fn a_missed_given_is_restored_when_the_reading_has_several_solutions() {
        let (layout, mut values, mut cells) = setup();
        // Dropping r1c5 (7) leaves several solutions (checked below).
        values[4] = 0;
        let mut s = SudokuSolver::new(layout.clone());
        assert!(
            s.solve(&values, 2, 0).unwrap().count > 1,
            "the test needs a non-unique reading"
        );
        cells[4] = reading(0, 0.6, 7, 0.4);
        assert_eq!(
            check(&layout, &mut values, &cells),
            CheckOutcome::Changed(vec![(4, 7)])
        );
    }

    #[test]
    fn a_missed_given_is_tried_before_many_unsure_digits_on_several_solutions() {
        let (layout, mut values, mut cells) = setup();
        // r1c5 (7) read as empty, and fairly surely so: its ink fitted no
        // digit well.
        values[4] = 0;
        cells[4] = reading(0, 0.97, 7, 0.03);
        // More unsure digits than the check weighs, all read right.
        let givens: Vec<usize> = (0..81).filter(|&c| values[c] != 0).collect();
        assert!(givens.len() > CANDIDATE_CELLS);
        for &c in &givens[..CANDIDATE_CELLS] {
            cells[c].confidence = 0.5;
        }
        assert_eq!(
            check(&layout, &mut values, &cells),
            CheckOutcome::Changed(vec![(4, 7)])
        );
    }

    #[test]
    fn a_misread_given_without_a_right_runner_up_takes_the_solutions_digit() {
        let (layout, mut values, mut cells) = setup();
        let mut solver = SudokuSolver::new(layout.clone());
        let solution = solver.solve(&values, 1, 1).unwrap().solutions[0].clone();
        // An extra given (the puzzle stays unique without it), misread as a
        // digit that clashes with the solution, with a runner-up that
        // clashes too: only emptying the cell gives one solution.
        let cell = values.iter().position(|&v| v == 0).unwrap();
        let wrong = |skip: u8| (1..=9).find(|&d| d != solution[cell] && d != skip).unwrap();
        values[cell] = wrong(0);
        cells[cell] = reading(values[cell], 0.4, wrong(values[cell]), 0.3);
        assert_eq!(
            check(&layout, &mut values, &cells),
            CheckOutcome::Changed(vec![(cell, solution[cell])])
        );
        assert_eq!(values[cell], solution[cell]);
    }

    #[test]
    fn the_solution_found_is_handed_back_with_the_outcome() {
        let (layout, mut values, mut cells) = setup();
        let mut solver = SudokuSolver::new(layout.clone());
        let solution = solver.solve(&values, 1, 1).unwrap().solutions[0].clone();
        let (outcome, solved) = check_solved(&layout, &[], &mut values.clone(), &cells);
        assert_eq!(
            (outcome, solved.as_ref()),
            (CheckOutcome::Unique, Some(&solution))
        );
        // Changed: the solution of the reading as changed.
        let cell = values.iter().position(|&v| v == 0).unwrap();
        let wrong = |skip: u8| (1..=9).find(|&d| d != solution[cell] && d != skip).unwrap();
        values[cell] = wrong(0);
        cells[cell] = reading(values[cell], 0.4, wrong(values[cell]), 0.3);
        let (outcome, solved) = check_solved(&layout, &[], &mut values, &cells);
        assert!(matches!(outcome, CheckOutcome::Changed(_)));
        assert_eq!(solved, Some(solution));
    }

    /// A reading with several solutions (the 6 at r2c3 missed), and a given
    /// whose swap for another digit (r7c3: 1 to 8) would leave exactly one.
    fn several_and_a_pinning_swap() -> (Arc<Layout>, Vec<u8>, Vec<CellReading>, usize, u8) {
        let (layout, mut values, cells) = setup();
        let (missed, cell, digit) = (11, 56, 8);
        values[missed] = 0;
        let mut solver = SudokuSolver::new(layout.clone());
        assert!(
            solver.solve(&values, 2, 0).unwrap().count > 1,
            "the test needs several solutions"
        );
        let mut trial = values.clone();
        trial[cell] = digit;
        assert!(layout.first_conflict(&trial).is_none());
        assert_eq!(
            solver.solve(&trial, 2, 0).unwrap().count,
            1,
            "the swap must pin one solution"
        );
        (layout, values, cells, cell, digit)
    }

    #[test]
    fn several_solutions_do_not_swap_a_clearly_read_digit() {
        let (layout, mut values, mut cells, cell, digit) = several_and_a_pinning_swap();
        cells[cell] = reading(values[cell], 0.7, digit, 0.2);
        let before = values.clone();
        assert_eq!(
            check(&layout, &mut values, &cells),
            CheckOutcome::Unresolved
        );
        assert_eq!(values, before);
    }

    #[test]
    fn several_solutions_do_not_swap_a_clear_digit_alongside_a_likely_change() {
        let (layout, mut values, mut cells, cell, digit) = several_and_a_pinning_swap();
        cells[cell] = reading(values[cell], 0.7, digit, 0.2);
        // An empty cell whose likely runner-up agrees with the solution the
        // swap pins, but leaves several solutions on its own: together
        // with the swap it would give one.
        let mut solver = SudokuSolver::new(layout.clone());
        let mut pinned = values.clone();
        pinned[cell] = digit;
        let solution = solver.solve(&pinned, 1, 1).unwrap().solutions[0].clone();
        let added = (0..81)
            .find(|&c| {
                let mut v = values.clone();
                v[c] = solution[c];
                values[c] == 0 && solver.solve(&v, 2, 0).unwrap().count > 1
            })
            .expect("the test needs a given that leaves several solutions");
        cells[added] = reading(0, 0.5, solution[added], 0.45);
        let before = values[cell];
        assert_eq!(
            check(&layout, &mut values, &cells),
            CheckOutcome::Unresolved
        );
        assert_eq!(values[cell], before);
    }

    #[test]
    fn several_solutions_swap_a_close_call() {
        let (layout, mut values, mut cells, cell, digit) = several_and_a_pinning_swap();
        cells[cell] = reading(values[cell], 0.45, digit, 0.4);
        assert_eq!(
            check(&layout, &mut values, &cells),
            CheckOutcome::Changed(vec![(cell, digit)])
        );
    }

    #[test]
    fn a_missed_given_behind_a_misread_digit_is_restored() {
        let (layout, mut values, _) = setup();
        let mut solver = SudokuSolver::new(layout.clone());
        let mut count = |v: &[u8]| -> u64 {
            if layout.first_conflict(v).is_some() {
                return 0;
            }
            solver.solve(v, 2, 0).unwrap().count
        };
        let solution = {
            let mut s = SudokuSolver::new(layout.clone());
            s.solve(&values, 1, 1).unwrap().solutions[0].clone()
        };
        // A few more givens than the puzzle needs.
        let extra: Vec<usize> = (0..81).filter(|&c| values[c] == 0).step_by(7).collect();
        for c in extra {
            values[c] = solution[c];
        }
        // Given a, misread as a digit whose runner-up is wrong too, and
        // given b, read as empty: emptying a alone leaves several
        // solutions, emptying a with b back gives one.
        let givens: Vec<usize> = (0..81).filter(|&c| values[c] != 0).collect();
        let wrong = |c: usize, skip: u8| (1..=9).find(|&d| d != solution[c] && d != skip).unwrap();
        let mut pick = None;
        'search: for &a in &givens {
            for &b in &givens {
                let mut read = values.clone();
                read[a] = 0;
                if b == a || count(&read) != 1 {
                    continue;
                }
                read[b] = 0;
                if count(&read) < 2 {
                    continue;
                }
                read[a] = wrong(a, 0);
                if count(&read) == 0 {
                    pick = Some((a, b, read));
                    break 'search;
                }
            }
        }
        let (a, b, mut read) = pick.expect("the puzzle has such a pair");
        let mut cells: Vec<CellReading> = read.iter().map(|&v| sure(v)).collect();
        cells[a] = reading(read[a], 0.4, wrong(a, read[a]), 0.3);
        cells[b] = reading(0, 0.9, solution[b], 0.1);
        // More unsure digits, all read right, than the check weighs:
        // b is not among the least confident cells.
        let others: Vec<usize> = givens
            .iter()
            .copied()
            .filter(|&c| c != a && c != b)
            .collect();
        assert!(others.len() >= CANDIDATE_CELLS);
        for &c in &others[..CANDIDATE_CELLS] {
            cells[c].confidence = 0.5;
        }
        let outcome = check(&layout, &mut read, &cells);
        assert!(matches!(outcome, CheckOutcome::Changed(_)), "{outcome:?}");
        assert_eq!(read, values);
    }

    #[test]
    fn nothing_plausible_leaves_the_reading_unresolved() {
        let (layout, mut values, cells) = setup();
        values[2] = 8; // no runner-up offered anywhere
        let before = values.clone();
        assert_eq!(
            check(&layout, &mut values, &cells),
            CheckOutcome::Unresolved
        );
        assert_eq!(values, before);
    }
}
