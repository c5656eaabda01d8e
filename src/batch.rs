//! Solving many puzzles at once, in parallel, each thread reusing one solver
//! per layout.

use std::sync::Arc;

use rayon::prelude::*;

use crate::grid::{Layout, Puzzle};
use crate::solve::{Outcome, SolveError, SudokuSolver};

/// Solves every puzzle, counting solutions up to `limit` and keeping the first
/// `keep` of each; results come back in input order. `done` is called once per
/// puzzle as it finishes, from whichever thread solved it.
pub fn solve_all(
    puzzles: &[&Puzzle],
    limit: u64,
    keep: usize,
    done: impl Fn() + Sync,
) -> Vec<Result<Outcome, SolveError>> {
    puzzles
        .par_iter()
        .map_init(Vec::<SudokuSolver>::new, |solvers, p| {
            let out = if p.cages().is_empty() && p.rules().is_empty() {
                solver_for(solvers, p.layout()).solve(p.values(), limit, keep)
            } else {
                // Cages are each puzzle's own: checked, and a solver built
                // for them.
                crate::solve::solve(p, limit, keep)
            };
            done();
            out
        })
        .collect()
}

/// The thread's solver for `layout`, built on first use.
fn solver_for<'a>(
    solvers: &'a mut Vec<SudokuSolver>,
    layout: &Arc<Layout>,
) -> &'a mut SudokuSolver {
    let found = solvers
        .iter()
        .position(|s| Arc::ptr_eq(s.layout(), layout) || **s.layout() == **layout);
    let i = found.unwrap_or_else(|| {
        solvers.push(SudokuSolver::new(layout.clone()));
        solvers.len() - 1
    });
    &mut solvers[i]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Document, Entry, parse};

    #[test]
    fn results_keep_input_order_across_layouts() {
        let text = "\
..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....
1...............
.12345678\
9........\
.........\
.........\
.........\
.........\
.........\
.........\
.........
";
        let Document::Batch(entries) = parse(text, "t", None).unwrap() else {
            panic!()
        };
        let puzzles: Vec<Puzzle> = entries
            .into_iter()
            .filter_map(|e| match e {
                Entry::Puzzle { puzzle, .. } => puzzle.ok(),
                Entry::Other(_) => None,
            })
            .collect();
        let refs: Vec<&Puzzle> = puzzles.iter().collect();
        let counted = std::sync::atomic::AtomicUsize::new(0);
        let out = solve_all(&refs, 2, 1, || {
            counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
        assert_eq!(counted.into_inner(), 3);
        assert_eq!(out[0].as_ref().unwrap().count, 1);
        assert_eq!(
            out[1].as_ref().unwrap().count,
            2,
            "a 4x4 with one given has many"
        );
        assert_eq!(
            out[2].as_ref().unwrap().count,
            0,
            "r1c1 has no candidate left"
        );
    }
}
