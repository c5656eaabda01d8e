//! Making puzzles: a random full grid of any layout, and removing givens while
//! the solution stays unique. Deterministic for a given seed: the same seed
//! gives the same puzzle on every machine.

use super::sudoku::SudokuSolver;

/// The random order behind [`full_grid`] and [`thin`] (xorshift64*). Not
/// [`crate::rng::Rng`]: the committed sample puzzles and images and the
/// solver benchmark's thinned puzzles were generated from seeds through this
/// stream, and stay reproducible only as long as it does not change.
#[derive(Clone, Debug)]
struct Shuffler(u64);

impl Shuffler {
    fn new(seed: u64) -> Shuffler {
        Shuffler(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// A random solved grid of the solver's layout: random permutations go into
/// houses that share no house with each other (so they cannot clash), then
/// the other cells are filled one at a time, in a random order, each with
/// the first symbol of a random order that leaves the grid solvable.
///
/// Each choice asks the solver only whether a solution exists, never which
/// one it finds first, so the grid depends on the seed alone and not on the
/// order the search happens to explore: a faster solver makes the same
/// puzzles.
pub fn full_grid(solver: &mut SudokuSolver, seed: u64) -> Vec<u8> {
    let layout = solver.layout().clone();
    let n = layout.size();
    let mut rng = Shuffler::new(seed);
    let mut scratch = vec![0u8; layout.cell_count()];
    for _ in 0..1000 {
        let mut values = vec![0u8; layout.cell_count()];
        let mut touched = vec![false; layout.houses().len()];
        let mut houses: Vec<usize> = (0..layout.houses().len()).collect();
        rng.shuffle(&mut houses);
        for h in houses {
            let cells = &layout.houses()[h].cells;
            let free = cells.iter().all(|&c| {
                layout
                    .houses_of(c as usize)
                    .iter()
                    .all(|&o| !touched[o as usize])
            });
            if !free {
                continue;
            }
            let mut perm: Vec<u8> = (1..=n as u8).collect();
            rng.shuffle(&mut perm);
            for (&c, v) in cells.iter().zip(perm) {
                values[c as usize] = v;
                for &o in layout.houses_of(c as usize) {
                    touched[o as usize] = true;
                }
            }
        }
        if solver.solve_into(&values, 1, &mut scratch) != Ok(1) {
            continue;
        }
        let mut empty: Vec<usize> = (0..values.len()).filter(|&c| values[c] == 0).collect();
        rng.shuffle(&mut empty);
        let mut symbols: Vec<u8> = (1..=n as u8).collect();
        for c in empty {
            rng.shuffle(&mut symbols);
            // The grid is solvable before this cell is filled, so one of
            // the symbols keeps it solvable.
            let fits = symbols.iter().copied().find(|&v| {
                values[c] = v;
                solver.solve_into(&values, 1, &mut scratch) == Ok(1)
            });
            values[c] = fits.expect("a solvable grid has a symbol for every cell");
        }
        return values;
    }
    panic!("no full grid found for {}", layout.name())
}

/// Removes givens from `values` in a random order while the puzzle keeps
/// exactly one solution, stopping at `target` givens or when no more can go.
pub fn thin(solver: &mut SudokuSolver, values: &[u8], target: usize, seed: u64) -> Vec<u8> {
    let mut v = values.to_vec();
    let mut order: Vec<usize> = (0..v.len()).filter(|&c| v[c] != 0).collect();
    let mut rng = Shuffler::new(seed);
    rng.shuffle(&mut order);
    let mut givens = order.len();
    let mut scratch = vec![0u8; v.len()];
    for c in order {
        if givens <= target {
            break;
        }
        let keep = v[c];
        v[c] = 0;
        if solver.solve_into(&v, 2, &mut scratch) == Ok(1) {
            givens -= 1;
        } else {
            v[c] = keep;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Layout;
    use std::sync::Arc;

    #[test]
    fn thinned_puzzles_stay_unique() {
        let layout = Arc::new(Layout::classic());
        let mut s = SudokuSolver::new(layout.clone());
        let full = full_grid(&mut s, 7);
        assert!(layout.is_solved(&full));
        let p = thin(&mut s, &full, 30, 7);
        assert!(p.iter().filter(|&&v| v != 0).count() <= 40);
        let out = s.solve(&p, 2, 1).unwrap();
        assert_eq!(out.count, 1);
        assert_eq!(out.solutions[0], full);
        assert_ne!(full_grid(&mut s, 8), full, "seeds give different grids");
    }

    #[test]
    fn the_grid_depends_on_the_seed_not_on_the_search_order() {
        // Without the subset rule the search visits other nodes and finds
        // other first solutions; the puzzles made must not change.
        for name in ["classic", "samurai", "6x6"] {
            let layout = Arc::new(Layout::named(name).unwrap());
            let mut usual = SudokuSolver::new(layout.clone());
            let mut plain = SudokuSolver::new(layout.clone());
            plain.set_subset_limit(0);
            for seed in [1, 2, 3] {
                let a = full_grid(&mut usual, seed);
                assert!(layout.is_solved(&a), "{name} seed {seed}");
                assert_eq!(a, full_grid(&mut plain, seed), "{name} seed {seed}");
                assert_eq!(
                    thin(&mut usual, &a, 0, seed),
                    thin(&mut plain, &a, 0, seed),
                    "{name} seed {seed}: thinned"
                );
            }
        }
    }
}
