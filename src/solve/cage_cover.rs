//! Cages (killer sudoku) as exact cover, in the same matrix as the houses.
//!
//! For each cage `k` of a layout with `n` symbols there are `n` primary items
//! `(k, d)`, one per symbol, and one primary item "cage `k`". The option
//! "symbol `d` in cell `c`" covers `(k, d)` for every cage `k` holding `c`,
//! beside the cell and its houses. For every set `S` of `|k|` different
//! symbols adding up to the cage's sum there is one option covering "cage
//! `k`" and every `(k, d)` with `d` not in `S`. A solution covers "cage `k`"
//! once, so it takes exactly one set `S`; it then covers each `(k, d)` with
//! `d` in `S` by a cell option, so each symbol of `S` is in exactly one cell
//! of the cage. The cage's `|k|` cells then hold exactly the symbols of `S`:
//! different, and adding up to the sum. The engine needs no change.
//!
//! Why this rather than Knuth's exact cover with colours (Algorithm C),
//! where a cage's cells would carry its chosen combination as a colour: it
//! keeps the one engine the other puzzles use, with its subset rule and
//! smallest-column choice, and those act on the cage items as on any other.
//! An item `(k, d)` whose every remaining option is a cell option of the
//! cage says "`d` must go in one of these cells" (what a player sees as a
//! digit every remaining combination needs), and branching on "cage `k`"
//! tries the remaining combinations: a cage of 2 cells summing to 3 has a
//! single option, which is taken before any branching. The cost is
//! `n + 1` items per cage and one option per combination: a 9x9 killer of
//! 30 cages has a few hundred such options beside the 729 cell options.
//!
//! Sums alone are weak: a killer with no givens has few cages whose
//! combinations are forced. So the encoding adds *derived cages*, the "45
//! rule" players use, which are also exact-cover cages and change no
//! solution count (every solution satisfies them):
//!
//! - innies: in a house, the cells outside the cages that lie entirely
//!   inside it hold the house's total less those cages' sums, and (lying in
//!   one house) differ from each other;
//! - outies: when every cell of a house is caged, the cells of the cages
//!   touching the house but lying outside it hold those cages' sums less
//!   the house's total; when they share a house they differ, and form a cage.
//!
//! A derived cage of one cell fixes its symbol before the search.

use crate::grid::{Cage, HouseKind, Layout, for_each_combination, sum_range};

use super::error::SolveError;

/// A cage with more combinations than this is not encoded: a real cage
/// fails with an error, a derived one is left out. 9x9 cages have at most
/// 126 (4 or 5 cells of 9 symbols, any sum) and 16x16 ones about 750;
/// only large cages of 25x25 puzzles reach the limit.
pub const MAX_COMBINATIONS: u64 = 20_000;

/// The cages of a puzzle (its own, then derived ones) and their combinations.
#[derive(Clone, Debug, Default)]
pub(super) struct CageRules {
    /// The puzzle's cages first, then the derived ones, then the sets of
    /// [`CageRules::with_sets`] (sum 0, which only their combinations
    /// give a meaning).
    pub cages: Vec<Cage>,
    /// How many of `cages` are the puzzle's own.
    pub own: usize,
    /// The combinations of each cage, as symbol bit masks.
    pub combos: Vec<Vec<u32>>,
    /// The cages of each cell: `cell_cages[cell_start[c]..cell_start[c + 1]]`.
    cell_cages: Vec<u32>,
    cell_start: Vec<u32>,
}

impl CageRules {
    /// The rules of `cages` on `layout`, with derived cages when the
    /// puzzle's own do not overlap. Fails when a cage has a cell outside the
    /// layout, more cells than symbols, or too many combinations.
    pub fn new(layout: &Layout, cages: &[Cage]) -> Result<CageRules, SolveError> {
        CageRules::with_sets(layout, cages, &[])
    }

    /// As [`CageRules::new`], with `sets` after the cages and the derived
    /// ones: groups of cells (in the layout, each once, no more than the
    /// symbols) holding exactly the symbols of one of their masks. They
    /// are cages with listed combinations and no sum (a renban line's
    /// runs): exact cover takes one set and places each of its symbols in
    /// one of the cells, as it does a cage's combination.
    pub fn with_sets(
        layout: &Layout,
        cages: &[Cage],
        sets: &[(Vec<u32>, Vec<u32>)],
    ) -> Result<CageRules, SolveError> {
        let n = layout.size();
        let cells = layout.cell_count();
        let mut owner = vec![u32::MAX; cells];
        let mut overlap = false;
        for (i, cage) in cages.iter().enumerate() {
            if cage.cells.is_empty() || cage.cells.len() > n {
                return Err(SolveError::Unsupported(format!(
                    "a cage of {} cells in a puzzle of {n} symbols",
                    cage.cells.len()
                )));
            }
            for (j, &c) in cage.cells.iter().enumerate() {
                let Some(o) = owner.get_mut(c as usize) else {
                    return Err(SolveError::Unsupported(format!(
                        "a cage lists cell {c}, but the layout has {cells}"
                    )));
                };
                if cage.cells[..j].contains(&c) {
                    return Err(SolveError::Unsupported(format!(
                        "a cage lists {} twice",
                        layout.cell_name(c as usize)
                    )));
                }
                overlap |= *o != u32::MAX;
                *o = i as u32;
            }
        }
        let mut rules = CageRules {
            own: cages.len(),
            ..CageRules::default()
        };
        for cage in cages {
            let count = count_combinations(n, cage.cells.len(), cage.sum);
            if count > MAX_COMBINATIONS {
                return Err(SolveError::Unsupported(format!(
                    "the {}-cell cage at {} (sum {}) has {count} combinations of symbols, \
                     more than the {MAX_COMBINATIONS} the solver takes",
                    cage.cells.len(),
                    layout.cell_name(cage.anchor()),
                    cage.sum
                )));
            }
            rules.push(n, cage.clone());
        }
        if !overlap && !cages.is_empty() {
            for cage in derived_cages(layout, cages, &owner) {
                let known = rules.cages.iter().any(|c| same_cells(c, &cage));
                if !known && count_combinations(n, cage.cells.len(), cage.sum) <= MAX_COMBINATIONS {
                    rules.push(n, cage);
                }
            }
        }
        for (cells, masks) in sets {
            rules.cages.push(Cage::new(0, cells.clone()));
            rules.combos.push(masks.clone());
        }
        let mut per_cell = vec![Vec::new(); cells];
        for (k, cage) in rules.cages.iter().enumerate() {
            for &c in &cage.cells {
                per_cell[c as usize].push(k as u32);
            }
        }
        rules.cell_start.push(0);
        for ks in per_cell {
            rules.cell_cages.extend(ks);
            rules.cell_start.push(rules.cell_cages.len() as u32);
        }
        Ok(rules)
    }

    fn push(&mut self, n: usize, cage: Cage) {
        let mut combos = Vec::new();
        for_each_combination(n, cage.cells.len(), cage.sum, |m| combos.push(m));
        self.combos.push(combos);
        self.cages.push(cage);
    }

    /// The cages holding `cell`.
    pub fn cages_of(&self, cell: usize) -> &[u32] {
        if self.cell_start.is_empty() {
            return &[];
        }
        let (a, b) = (self.cell_start[cell], self.cell_start[cell + 1]);
        &self.cell_cages[a as usize..b as usize]
    }
}

fn same_cells(a: &Cage, b: &Cage) -> bool {
    a.cells.len() == b.cells.len() && a.cells.iter().all(|c| b.cells.contains(c))
}

/// How many sets of `count` different symbols of 1..=`size` add up to `sum`.
pub fn count_combinations(size: usize, count: usize, sum: u32) -> u64 {
    let (low, high) = sum_range(size, count);
    if count == 0 || count > size || sum < low || sum > high {
        return 0;
    }
    let sum = sum as usize;
    // ways[k][s]: sets of k symbols seen so far adding up to s.
    let mut ways = vec![vec![0u64; sum + 1]; count + 1];
    ways[0][0] = 1;
    for v in 1..=size {
        for k in (1..=count).rev() {
            for s in (v..=sum).rev() {
                ways[k][s] = ways[k][s].saturating_add(ways[k - 1][s - v]);
            }
        }
    }
    ways[count][sum]
}

/// The cages the 45 rule derives from `cages` (which do not overlap;
/// `owner` is the cage of each cell or `u32::MAX`): innies and outies of
/// every house, and of every run of neighbouring parallel rows or columns,
/// when they lie in one house (see the module documentation). A derived
/// cage may repeat another; an impossible one (its sum out of reach) gets
/// sum 0, which no cells make, so the puzzle has no solution, as it should.
fn derived_cages(layout: &Layout, cages: &[Cage], owner: &[u32]) -> Vec<Cage> {
    let n = layout.size();
    let house_total = sum_range(n, n).0 as i64;
    let mut out = Vec::new();
    let mut push = |cells: Vec<u32>, sum: i64| {
        if cells.is_empty() {
            return;
        }
        let sum = u32::try_from(sum).unwrap_or(0);
        out.push(Cage::new(sum, cells));
    };
    let one_house = |cells: &[u32]| {
        let first = cells[0] as usize;
        layout.houses_of(first).iter().any(|&h| {
            cells
                .iter()
                .all(|c| layout.houses()[h as usize].cells.contains(c))
        })
    };
    let mut in_region = vec![false; layout.cell_count()];
    for (region, houses) in regions(layout) {
        for &c in &region {
            in_region[c as usize] = true;
        }
        let total = houses as i64 * house_total;
        let mut touching: Vec<u32> = Vec::new();
        let mut caged = true;
        for &c in &region {
            let o = owner[c as usize];
            if o == u32::MAX {
                caged = false;
            } else if !touching.contains(&o) {
                touching.push(o);
            }
        }
        let (inside, poking): (Vec<u32>, Vec<u32>) = touching.iter().partition(|&&o| {
            cages[o as usize]
                .cells
                .iter()
                .all(|&c| in_region[c as usize])
        });
        // Innies: the region's cells not in a cage lying inside it.
        if !inside.is_empty() {
            let rest: Vec<u32> = region
                .iter()
                .copied()
                .filter(|&c| {
                    let o = owner[c as usize];
                    o == u32::MAX || !inside.contains(&o)
                })
                .collect();
            if !rest.is_empty() && one_house(&rest) {
                let inner: i64 = inside.iter().map(|&o| cages[o as usize].sum as i64).sum();
                push(rest, total - inner);
            }
        }
        // Outies: cells of the poking cages outside the region.
        if caged && !poking.is_empty() {
            let mut outies: Vec<u32> = poking
                .iter()
                .flat_map(|&o| cages[o as usize].cells.iter().copied())
                .filter(|&c| !in_region[c as usize])
                .collect();
            outies.sort_unstable();
            if one_house(&outies) {
                let all: i64 = touching.iter().map(|&o| cages[o as usize].sum as i64).sum();
                push(outies, all - total);
            }
        }
        for &c in &region {
            in_region[c as usize] = false;
        }
    }
    out
}

/// The regions whose symbols have a known total: every house, and every
/// run of two or more neighbouring rows (or columns) that span the same
/// columns (rows), each with the number of houses it is made of.
fn regions(layout: &Layout) -> Vec<(Vec<u32>, usize)> {
    let mut out: Vec<(Vec<u32>, usize)> = layout
        .houses()
        .iter()
        .map(|h| (h.cells.clone(), 1))
        .collect();
    for kind in [HouseKind::Row, HouseKind::Column] {
        for band in layout.line_bands(kind) {
            let mut cells: Vec<u32> = band
                .iter()
                .flat_map(|&h| layout.houses()[h].cells.iter().copied())
                .collect();
            cells.sort_unstable();
            out.push((cells, band.len()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combination_counts_match_enumeration() {
        for size in [4usize, 9, 16] {
            for count in 1..=size.min(9) {
                let (low, high) = sum_range(size, count);
                for sum in low.saturating_sub(1)..=high + 1 {
                    let mut listed = 0u64;
                    for_each_combination(size, count, sum, |_| listed += 1);
                    assert_eq!(count_combinations(size, count, sum), listed);
                }
            }
        }
        assert_eq!(count_combinations(9, 9, 45), 1);
    }

    #[test]
    fn innies_and_outies_of_a_caged_row() {
        // Row 1 of a classic: cells 0-5 in two cages inside it, cells 6-8
        // in one cage with r2c9 (cell 17).
        let layout = Layout::classic();
        let cages = vec![
            Cage::new(10, vec![0, 1, 2]),
            Cage::new(20, vec![3, 4, 5]),
            Cage::new(18, vec![6, 7, 8, 17]),
        ];
        let rules = CageRules::new(&layout, &cages).unwrap();
        let derived = &rules.cages[rules.own..];
        assert!(
            derived.contains(&Cage::new(15, vec![6, 7, 8])),
            "innies: 45 - 10 - 20"
        );
        assert!(
            derived.contains(&Cage::new(3, vec![17])),
            "outie: 10 + 20 + 18 - 45"
        );
    }
}
