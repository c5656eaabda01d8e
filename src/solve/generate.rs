//! Making puzzles: a random full grid of any layout, removing givens while
//! the solution stays unique, cutting a grid into killer cages, and
//! variant puzzles of each family of rules ([`variant`]).
//! Deterministic for a given seed: the same seed gives the same puzzle on
//! every machine.

use std::sync::Arc;

mod variant;
pub use variant::{FAMILIES, Variant, variant, variant_with};

use super::sudoku::SudokuSolver;
use crate::grid::{Cage, Layout};
use crate::rng::Rng;

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
    // The houses of the variant rules too (a diagonal, a window): a
    // permutation that clashes with one of them could leave a start with
    // no solution that takes the search long to refute.
    let layout = solver.houses_layout().clone();
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

/// A puzzle with no solution whose contradiction lies deep: `solution`
/// (a solved grid of `layout`) with each cell kept as a given with chance
/// `keep`, then one given changed to another symbol that no house of its
/// cell holds, so no two givens clash and only a search shows that nothing
/// fits. Such a puzzle is what a misread photo of a large grid gives the
/// solver. Successive calls on one `rng` give a reproducible set.
pub fn wrong_given(layout: &Layout, solution: &[u8], keep: f32, rng: &mut Rng) -> Vec<u8> {
    let cells = layout.cell_count() as u32;
    let mut values: Vec<u8> = solution
        .iter()
        .map(|&v| if rng.chance(keep) { v } else { 0 })
        .collect();
    loop {
        let c = rng.below(cells) as usize;
        if values[c] == 0 {
            continue;
        }
        let other = rng.below(layout.size() as u32) as u8 + 1;
        if other == values[c] {
            continue;
        }
        let kept = values[c];
        values[c] = other;
        if layout.first_conflict(&values).is_none() {
            return values;
        }
        values[c] = kept;
    }
}

/// Cuts a solved grid into cages of up to `max_size` cells, each made of
/// neighbouring cells (sharing an edge on the canvas) with no symbol twice,
/// its sum taken from `solution`. Cages are grown from cells taken in a
/// random order to a random size of 2 to `max_size`; a cell left with no
/// free neighbour is a cage of its own.
pub fn cut_cages(layout: &Layout, solution: &[u8], max_size: usize, seed: u64) -> Vec<Cage> {
    let mut rng = Rng::new(seed);
    let mut order: Vec<usize> = (0..layout.cell_count()).collect();
    rng.shuffle(&mut order);
    let mut taken = vec![false; layout.cell_count()];
    let neighbours = |cell: usize| {
        let (r, c) = layout.position(cell);
        [(0, 1), (2, 1), (1, 0), (1, 2)]
            .into_iter()
            .filter_map(move |(dr, dc)| {
                layout.cell_at((r + dr).checked_sub(1)?, (c + dc).checked_sub(1)?)
            })
    };
    let mut cages = Vec::new();
    for start in order {
        if taken[start] {
            continue;
        }
        let target = 2 + rng.below(max_size.max(2) as u32 - 1) as usize;
        let mut cells = vec![start];
        let mut symbols = 1u32 << solution[start];
        taken[start] = true;
        while cells.len() < target {
            let free: Vec<usize> = cells
                .iter()
                .flat_map(|&c| neighbours(c))
                .filter(|&n| !taken[n] && symbols & 1 << solution[n] == 0)
                .collect();
            if free.is_empty() {
                break;
            }
            let next = free[rng.below(free.len() as u32) as usize];
            taken[next] = true;
            symbols |= 1 << solution[next];
            cells.push(next);
        }
        let sum = cells.iter().map(|&c| solution[c] as u32).sum();
        cages.push(Cage::new(
            sum,
            cells.into_iter().map(|c| c as u32).collect(),
        ));
    }
    cages
}

/// A killer of `layout` with no givens and one solution: a random full
/// grid cut into cages of up to `max_size` cells ([`cut_cages`]), tried
/// from `seed` on until the cages alone leave one solution. Returns the
/// solution and the cages.
pub fn killer(layout: &Arc<Layout>, max_size: usize, seed: u64) -> (Vec<u8>, Vec<Cage>) {
    let mut plain = SudokuSolver::new(layout.clone());
    let empty = vec![0u8; layout.cell_count()];
    for attempt in 0.. {
        let s = seed.wrapping_mul(1000).wrapping_add(attempt);
        let full = full_grid(&mut plain, s);
        let cages = cut_cages(layout, &full, max_size, s);
        let mut solver =
            SudokuSolver::with_cages(layout.clone(), &cages).expect("small cages encode");
        if solver.solve(&empty, 2, 0).map(|o| o.count) == Ok(1) {
            return (full, cages);
        }
    }
    unreachable!("the attempts never end")
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

    #[test]
    fn cut_cages_cover_the_grid_with_their_sums() {
        let layout = Arc::new(Layout::classic());
        let mut s = SudokuSolver::new(layout.clone());
        let full = full_grid(&mut s, 3);
        let cages = cut_cages(&layout, &full, 4, 3);
        let mut seen = vec![0; 81];
        for cage in &cages {
            assert!((1..=4).contains(&cage.cells.len()));
            let mut symbols = 0u32;
            for &c in &cage.cells {
                seen[c as usize] += 1;
                symbols |= 1 << full[c as usize];
            }
            assert_eq!(
                symbols.count_ones() as usize,
                cage.cells.len(),
                "no symbol twice"
            );
            let sum: u32 = cage.cells.iter().map(|&c| full[c as usize] as u32).sum();
            assert_eq!(sum, cage.sum);
        }
        assert!(seen.iter().all(|&n| n == 1), "every cell in one cage");
        assert_eq!(cages.iter().map(|c| c.sum).sum::<u32>(), 405);
    }
}
