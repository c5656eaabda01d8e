//! Cages: sets of cells whose symbols all differ and add up to a given sum
//! (killer sudoku). Any layout may carry them, as extra rules beside its
//! houses.
//!
//! A puzzle's cages may cover every cell (the usual killer) or only some
//! (a classic with a few sum cages, as f-puzzles and SudokuPad puzzles often
//! are): cells outside every cage simply have no cage rule. What
//! [`check_cages`] rejects, before any search, each with a message naming
//! the cage and cells:
//!
//! - a cage with more cells than the layout has symbols;
//! - a cell in two cages;
//! - a sum that no set of that many different symbols makes;
//! - a symbol given twice in one cage;
//! - a given that no set of symbols of its cage (with the other givens)
//!   allows;
//! - a house whose cells lie in cages entirely inside it, when those cages'
//!   sums exceed what the house holds (or, covering it exactly, differ);
//! - every cell caged, but the sums not adding up to the layout's total.

use super::layout::{HouseKind, Layout, MAX_SIZE};

/// Cells whose symbols differ from each other and add up to `sum`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    /// The sum of the cage's symbols (each symbol counts its value, 1..=size).
    pub sum: u32,
    /// Cell indices of the layout. [`Puzzle::with_cages`](super::Puzzle::with_cages)
    /// keeps them in ascending order, each once.
    pub cells: Vec<u32>,
}

impl Cage {
    pub fn new(sum: u32, cells: Vec<u32>) -> Cage {
        Cage { sum, cells }
    }

    /// The cage's first cell: the lowest cell index.
    pub fn anchor(&self) -> usize {
        self.cells.iter().copied().min().unwrap_or(0) as usize
    }
}

/// What is wrong with a puzzle's cages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CageErrorKind {
    /// A cage without cells, with a cell that is not in the layout, or with
    /// a cell listed twice.
    Malformed,
    /// More cells than there are symbols.
    TooLarge,
    /// A cell in two cages.
    Overlap,
    /// No set of that many different symbols makes the sum.
    ImpossibleSum,
    /// One symbol given twice in a cage.
    RepeatedGiven,
    /// A given that no combination of its cage allows.
    GivenNotAllowed,
    /// The cages inside a house do not fit what the house holds.
    HouseTotal,
    /// Every cell is caged, but the sums do not add up to the layout's total.
    Total,
}

/// A problem with a puzzle's cages, found before any search.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CageError {
    pub kind: CageErrorKind,
    /// The cage at fault (an index into the cages), if one is.
    pub cage: Option<usize>,
    /// The cell at fault, if one is (a given, or a cell in two cages).
    pub cell: Option<usize>,
    /// What is wrong, naming cells as `r3c7`.
    pub message: String,
}

/// The smallest and largest sums of `count` different symbols of 1..=`size`.
pub fn sum_range(size: usize, count: usize) -> (u32, u32) {
    let (n, k) = (size as u32, count as u32);
    (k * (k + 1) / 2, k * (2 * n - k + 1) / 2)
}

/// Calls `f` with every set of `count` different symbols of 1..=`size`
/// (bit `v - 1` for symbol `v`) whose values add up to `sum`, in increasing
/// order of the sets' bit patterns read from the lowest symbol.
pub fn for_each_combination(size: usize, count: usize, sum: u32, mut f: impl FnMut(u32)) {
    fn walk(next: u32, size: u32, left: u32, sum: u32, mask: u32, f: &mut dyn FnMut(u32)) {
        if left == 0 {
            if sum == 0 {
                f(mask);
            }
            return;
        }
        for v in next..=size {
            // The smallest sum still possible with `left` symbols from v on.
            let low = left * (2 * v + left - 1) / 2;
            if low > sum {
                return;
            }
            // The largest: the top `left` symbols.
            let high = left * (2 * size - left + 1) / 2;
            if high < sum {
                return;
            }
            if size - v + 1 < left {
                return;
            }
            walk(v + 1, size, left - 1, sum - v, mask | 1 << (v - 1), f);
        }
    }
    if count == 0 || count > size {
        return;
    }
    walk(1, size as u32, count as u32, sum, 0, &mut f);
}

/// Whether `count` different symbols taken from `available` (a bit per
/// symbol) can add up to `sum`.
pub fn can_make(available: u32, count: usize, sum: u32) -> bool {
    // reach[k] has bit s set when k of the symbols seen so far make s.
    let max_sum = 32 * 33 / 2;
    if count > 32 || sum > max_sum {
        return false;
    }
    let mut reach = vec![vec![false; max_sum as usize + 1]; count + 1];
    reach[0][0] = true;
    let mut bits = available;
    while bits != 0 {
        let v = bits.trailing_zeros() as usize + 1;
        bits &= bits - 1;
        for k in (1..=count).rev() {
            let (lower, upper) = reach.split_at_mut(k);
            let (from, to) = (&lower[k - 1], &mut upper[0]);
            for s in (v..=max_sum as usize).rev() {
                to[s] |= from[s - v];
            }
        }
    }
    reach[count][sum as usize]
}

/// Checks `cages` against the rules listed in the module documentation, in
/// that order; `name` names cage `i` in messages (e.g. "the cage at r1c1
/// (sum 12)"). Cells of `values` hold givens (0 = empty).
pub fn check_cages(
    layout: &Layout,
    values: &[u8],
    cages: &[Cage],
    name: &dyn Fn(usize) -> String,
) -> Result<(), CageError> {
    for (i, cage) in cages.iter().enumerate() {
        check_cells(layout, i, cage, name)?;
    }
    let owner = cage_owners(layout, cages, name)?;
    for (i, cage) in cages.iter().enumerate() {
        check_sum(layout.size(), i, cage, name)?;
    }
    for (i, cage) in cages.iter().enumerate() {
        check_givens(layout, values, i, cage, name)?;
    }
    check_house_totals(layout, cages, &owner, name)?;
    check_layout_total(layout, cages, &owner)
}

/// A [`CageError`] of `kind`, at cage `cage` and cell `cell` if any.
fn cage_error(
    kind: CageErrorKind,
    cage: Option<usize>,
    cell: Option<usize>,
    message: String,
) -> CageError {
    CageError {
        kind,
        cage,
        cell,
        message,
    }
}

/// Cage `i` has cells, all in the layout, none listed twice, and no more
/// than there are symbols.
fn check_cells(
    layout: &Layout,
    i: usize,
    cage: &Cage,
    name: &dyn Fn(usize) -> String,
) -> Result<(), CageError> {
    let n = layout.size();
    if cage.cells.is_empty() {
        return Err(cage_error(
            CageErrorKind::Malformed,
            Some(i),
            None,
            format!("{} has no cells", name(i)),
        ));
    }
    if let Some(&c) = cage
        .cells
        .iter()
        .find(|&&c| c as usize >= layout.cell_count())
    {
        return Err(cage_error(
            CageErrorKind::Malformed,
            Some(i),
            None,
            format!(
                "{} lists cell {c}, but the {} layout has {} cells",
                name(i),
                layout.name(),
                layout.cell_count()
            ),
        ));
    }
    for (j, &c) in cage.cells.iter().enumerate() {
        if cage.cells[..j].contains(&c) {
            return Err(cage_error(
                CageErrorKind::Malformed,
                Some(i),
                Some(c as usize),
                format!("{} lists {} twice", name(i), layout.cell_name(c as usize)),
            ));
        }
    }
    if cage.cells.len() > n {
        return Err(cage_error(
            CageErrorKind::TooLarge,
            Some(i),
            None,
            format!(
                "{} has {} cells, but there are only {n} different symbols",
                name(i),
                cage.cells.len()
            ),
        ));
    }
    Ok(())
}

/// The cage of each cell (`u32::MAX` for none), or the first cell found in
/// two cages.
fn cage_owners(
    layout: &Layout,
    cages: &[Cage],
    name: &dyn Fn(usize) -> String,
) -> Result<Vec<u32>, CageError> {
    let mut owner = vec![u32::MAX; layout.cell_count()];
    for (i, cage) in cages.iter().enumerate() {
        for &c in &cage.cells {
            let o = owner[c as usize];
            if o != u32::MAX {
                return Err(cage_error(
                    CageErrorKind::Overlap,
                    Some(i),
                    Some(c as usize),
                    format!(
                        "{} is in two cages: {} and {}",
                        layout.cell_name(c as usize),
                        name(o as usize),
                        name(i)
                    ),
                ));
            }
            owner[c as usize] = i as u32;
        }
    }
    Ok(owner)
}

/// Cage `i`'s sum is one that as many different symbols of 1..=`n` as it
/// has cells can make.
fn check_sum(
    n: usize,
    i: usize,
    cage: &Cage,
    name: &dyn Fn(usize) -> String,
) -> Result<(), CageError> {
    let (low, high) = sum_range(n, cage.cells.len());
    if cage.sum < low || cage.sum > high {
        let k = cage.cells.len();
        let range = if low == high {
            low.to_string()
        } else {
            format!("{low}-{high}")
        };
        let what = if k == 1 {
            format!("one cell holds 1-{high}")
        } else {
            format!("{k} different symbols of 1-{n} add up to {range}")
        };
        return Err(cage_error(
            CageErrorKind::ImpossibleSum,
            Some(i),
            None,
            format!(
                "{} has the sum {}, which its {} cell{} cannot make: {what}",
                name(i),
                cage.sum,
                k,
                if k == 1 { "" } else { "s" }
            ),
        ));
    }
    Ok(())
}

/// Cage `i`'s givens (in `values`) differ, and some combination of its sum
/// holds them all.
fn check_givens(
    layout: &Layout,
    values: &[u8],
    i: usize,
    cage: &Cage,
    name: &dyn Fn(usize) -> String,
) -> Result<(), CageError> {
    let n = layout.size();
    let mut seen = 0u32;
    let mut given_sum = 0;
    let mut first = [u32::MAX; MAX_SIZE + 1];
    for &c in &cage.cells {
        let v = values[c as usize];
        if v == 0 {
            continue;
        }
        let bit = 1u32 << (v - 1);
        if seen & bit != 0 {
            let a = first[v as usize];
            return Err(cage_error(
                CageErrorKind::RepeatedGiven,
                Some(i),
                Some(c as usize),
                format!(
                    "{} holds the given {v} twice, at {} and {}",
                    name(i),
                    layout.cell_name(a as usize),
                    layout.cell_name(c as usize)
                ),
            ));
        }
        seen |= bit;
        first[v as usize] = c;
        given_sum += v as u32;
    }
    if seen == 0 {
        return Ok(());
    }
    let full = (1u32 << n) - 1;
    let open = cage.cells.len() - seen.count_ones() as usize;
    let fits = given_sum <= cage.sum && can_make(full & !seen, open, cage.sum - given_sum);
    if fits {
        return Ok(());
    }
    let last = cage
        .cells
        .iter()
        .rev()
        .copied()
        .find(|&c| values[c as usize] != 0)
        .expect("a given was seen");
    let givens: Vec<String> = cage
        .cells
        .iter()
        .filter(|&&c| values[c as usize] != 0)
        .map(|&c| format!("{} at {}", values[c as usize], layout.cell_name(c as usize)))
        .collect();
    let why = if given_sum > cage.sum || (given_sum == cage.sum && open > 0) {
        format!("the givens already add up to {given_sum}")
    } else if open == 0 {
        format!("the givens fill it and add up to {given_sum}")
    } else {
        format!(
            "no {open} other different symbol{} make{} the remaining {}",
            if open == 1 { "" } else { "s" },
            if open == 1 { "s" } else { "" },
            cage.sum - given_sum
        )
    };
    Err(cage_error(
        CageErrorKind::GivenNotAllowed,
        Some(i),
        Some(last as usize),
        format!(
            "{} cannot make its sum {} with the given {}: {why}",
            name(i),
            cage.sum,
            givens.join(" and "),
        ),
    ))
}

/// In every house, the cages lying wholly inside it add up to no more than
/// the house holds, and to exactly that when they fill it; `owner` is each
/// cell's cage ([`cage_owners`]).
fn check_house_totals(
    layout: &Layout,
    cages: &[Cage],
    owner: &[u32],
    name: &dyn Fn(usize) -> String,
) -> Result<(), CageError> {
    let house_total = sum_range(layout.size(), layout.size()).0;
    for (h, house) in layout.houses().iter().enumerate() {
        let mut inside = Vec::new();
        let mut covered = 0;
        for &c in &house.cells {
            let o = owner[c as usize];
            if o == u32::MAX || inside.contains(&o) {
                continue;
            }
            let cage = &cages[o as usize];
            if cage.cells.iter().all(|c| house.cells.contains(c)) {
                inside.push(o);
                covered += cage.cells.len();
            }
        }
        let sum: u32 = inside.iter().map(|&o| cages[o as usize].sum).sum();
        let exact = covered == house.cells.len();
        if sum > house_total || (exact && sum != house_total) {
            let kind = match house.kind {
                HouseKind::Row => "row",
                HouseKind::Column => "column",
                HouseKind::Box => "box",
                HouseKind::Extra => "extra region",
            };
            let names: Vec<String> = inside.iter().map(|&o| name(o as usize)).collect();
            return Err(cage_error(
                CageErrorKind::HouseTotal,
                inside.last().map(|&o| o as usize),
                None,
                format!(
                    "the cages inside {} ({}) add up to {sum}, but a {kind} holds {house_total}{}",
                    layout.house_name(h),
                    names.join(", "),
                    if exact { "" } else { " in all" }
                ),
            ));
        }
    }
    Ok(())
}

/// When every cell is caged (`owner`, [`cage_owners`]), the sums add up to
/// the layout's total.
fn check_layout_total(layout: &Layout, cages: &[Cage], owner: &[u32]) -> Result<(), CageError> {
    if owner.iter().all(|&o| o != u32::MAX)
        && let Some(total) = layout_total(layout)
    {
        let sum: u64 = cages.iter().map(|c| c.sum as u64).sum();
        if sum != total {
            return Err(cage_error(
                CageErrorKind::Total,
                None,
                None,
                format!(
                    "every cell is in a cage, so the cage sums must add up to {total} \
                     (the sum of a solved {}), but they add up to {sum}",
                    layout.name()
                ),
            ));
        }
    }
    Ok(())
}

/// The sum of every symbol of a solved grid of `layout`, when its cells
/// split into whole houses (true of every built-in shape); `None` otherwise.
pub fn layout_total(layout: &Layout) -> Option<u64> {
    let houses = house_partition(layout)?;
    let per_house = sum_range(layout.size(), layout.size()).0 as u64;
    Some(houses.len() as u64 * per_house)
}

/// Houses that together hold every cell exactly once, if there are such.
/// Rows of every grid first, then whatever else fills the gaps.
pub fn house_partition(layout: &Layout) -> Option<Vec<usize>> {
    use crate::solve::dlx::{Dlx, Matrix};
    let mut m = Matrix::new(layout.cell_count(), 0);
    let mut order: Vec<usize> = (0..layout.houses().len()).collect();
    // Rows first: on a single grid the rows alone are a partition.
    order.sort_by_key(|&h| layout.houses()[h].kind != HouseKind::Row);
    for &h in &order {
        let items: Vec<usize> = layout.houses()[h]
            .cells
            .iter()
            .map(|&c| c as usize)
            .collect();
        m.add_option(&items);
    }
    let mut dlx = Dlx::new(&m);
    let mut found = None;
    dlx.search(1, |options| {
        found = Some(options.iter().map(|&k| order[k as usize]).collect());
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn combos(size: usize, count: usize, sum: u32) -> Vec<u32> {
        let mut v = Vec::new();
        for_each_combination(size, count, sum, |m| v.push(m));
        v
    }

    #[test]
    fn combinations_are_every_set_with_the_sum() {
        for size in [4usize, 6, 9] {
            for count in 1..=size {
                let (low, high) = sum_range(size, count);
                for sum in 0..=high + 2 {
                    let mut expected: Vec<u32> = (0u32..1 << size)
                        .filter(|m| m.count_ones() as usize == count)
                        .filter(|m| {
                            (0..size)
                                .filter(|b| m >> b & 1 == 1)
                                .map(|b| b as u32 + 1)
                                .sum::<u32>()
                                == sum
                        })
                        .collect();
                    expected.sort_unstable();
                    let mut got = combos(size, count, sum);
                    got.sort_unstable();
                    assert_eq!(got, expected, "size {size}, {count} cells, sum {sum}");
                    assert_eq!(!got.is_empty(), (low..=high).contains(&sum));
                    let full = (1u32 << size) - 1;
                    assert_eq!(can_make(full, count, sum), !got.is_empty());
                }
            }
        }
        assert_eq!(combos(9, 2, 3), vec![0b11]);
        assert_eq!(combos(9, 3, 24), vec![0b1_1100_0000]);
        assert_eq!(combos(9, 9, 45).len(), 1);
    }

    #[test]
    fn can_make_respects_the_symbols_left() {
        // 1, 2 and 4 available: 3 is 1+2, 5 is 1+4, 4 alone is not two symbols.
        let avail = 0b1011;
        assert!(can_make(avail, 2, 3));
        assert!(can_make(avail, 2, 5));
        assert!(!can_make(avail, 2, 4));
        assert!(can_make(avail, 0, 0));
        assert!(!can_make(avail, 0, 1));
    }

    #[test]
    fn every_built_in_shape_splits_into_houses() {
        for name in Layout::names() {
            let l = Layout::named(name).unwrap();
            let houses = house_partition(&l).unwrap_or_else(|| panic!("{name}"));
            let mut seen = vec![0; l.cell_count()];
            for h in houses {
                for &c in &l.houses()[h].cells {
                    seen[c as usize] += 1;
                }
            }
            assert!(seen.iter().all(|&s| s == 1), "{name}");
        }
        assert_eq!(layout_total(&Layout::classic()), Some(405));
        assert_eq!(layout_total(&Layout::samurai()), Some(5 * 405 - 4 * 45));
    }

    use crate::grid::{Cage as C, Puzzle};
    use std::sync::Arc;

    /// A classic with `givens` (cell, value) and `cages`, checked.
    fn check(givens: &[(usize, u8)], cages: Vec<C>) -> Result<(), CageError> {
        let mut p = Puzzle::empty(Arc::new(Layout::classic()));
        for &(c, v) in givens {
            p.set(c, v);
        }
        p.with_cages(cages)?.check_cages()
    }

    fn fails(givens: &[(usize, u8)], cages: Vec<C>, kind: CageErrorKind, text: &str) {
        let e = check(givens, cages).unwrap_err();
        assert_eq!(e.kind, kind, "{e}");
        assert_eq!(e.message, text);
    }

    #[test]
    fn each_rule_has_its_own_message() {
        fails(
            &[],
            vec![C::new(18, vec![0, 1])],
            CageErrorKind::ImpossibleSum,
            "the cage at r1c1 has the sum 18, which its 2 cells cannot make: \
             2 different symbols of 1-9 add up to 3-17",
        );
        fails(
            &[],
            vec![C::new(2, vec![0, 1])],
            CageErrorKind::ImpossibleSum,
            "the cage at r1c1 has the sum 2, which its 2 cells cannot make: \
             2 different symbols of 1-9 add up to 3-17",
        );
        fails(
            &[],
            vec![C::new(10, vec![0]), C::new(45, (1..11).collect())],
            CageErrorKind::TooLarge,
            "the cage at r1c2 has 10 cells, but there are only 9 different symbols",
        );
        fails(
            &[],
            vec![C::new(10, vec![0, 1]), C::new(10, vec![1, 2])],
            CageErrorKind::Overlap,
            "r1c2 is in two cages: the cage at r1c1 and the cage at r1c2",
        );
        fails(
            &[(0, 4), (10, 4)],
            vec![C::new(12, vec![0, 10, 20])],
            CageErrorKind::RepeatedGiven,
            "the cage at r1c1 holds the given 4 twice, at r1c1 and r2c2",
        );
        fails(
            &[(1, 9)],
            vec![C::new(10, vec![0, 1, 2])],
            CageErrorKind::GivenNotAllowed,
            "the cage at r1c1 cannot make its sum 10 with the given 9 at r1c2: \
             no 2 other different symbols make the remaining 1",
        );
        fails(
            &[(1, 9), (2, 3)],
            vec![C::new(11, vec![0, 1, 2])],
            CageErrorKind::GivenNotAllowed,
            "the cage at r1c1 cannot make its sum 11 with the given 9 at r1c2 and 3 at r1c3: \
             the givens already add up to 12",
        );
        fails(
            &[(1, 1)],
            vec![C::new(24, vec![0, 1, 2])],
            CageErrorKind::GivenNotAllowed,
            "the cage at r1c1 cannot make its sum 24 with the given 1 at r1c2: \
             no 2 other different symbols make the remaining 23",
        );
        fails(
            &[],
            vec![
                C::new(17, vec![0, 1]),
                C::new(17, vec![2, 3]),
                C::new(17, vec![4, 5]),
            ],
            CageErrorKind::HouseTotal,
            "the cages inside row 1 (columns 1-9) (the cage at r1c1, the cage at r1c3, \
             the cage at r1c5) add up to 51, but a row holds 45 in all",
        );
        let row: Vec<C> = (0..9).map(|c| C::new(c + 1, vec![c])).collect();
        let mut off = row.clone();
        off[8].sum = 8;
        fails(
            &[],
            off,
            CageErrorKind::HouseTotal,
            "the cages inside row 1 (columns 1-9) (the cage at r1c1, the cage at r1c2, \
             the cage at r1c3, the cage at r1c4, the cage at r1c5, the cage at r1c6, \
             the cage at r1c7, the cage at r1c8, the cage at r1c9) add up to 44, but a row \
             holds 45",
        );
    }

    #[test]
    fn sums_of_a_fully_caged_grid_must_make_the_total() {
        // A 4x4 whose cages each cross a house boundary, so that no house
        // check applies: aabb / cdbb / cdee / ffee.
        let cages = |a| {
            vec![
                C::new(a, vec![0, 1]),
                C::new(10, vec![2, 3, 6, 7]),
                C::new(7, vec![4, 8]),
                C::new(4, vec![5, 9]),
                C::new(10, vec![10, 11, 14, 15]),
                C::new(6, vec![12, 13]),
            ]
        };
        let p = Puzzle::empty(Arc::new(Layout::named("4x4").unwrap()));
        assert!(
            p.clone()
                .with_cages(cages(3))
                .unwrap()
                .check_cages()
                .is_ok()
        );
        let e = p.with_cages(cages(4)).unwrap().check_cages().unwrap_err();
        assert_eq!(e.kind, CageErrorKind::Total);
        assert_eq!(
            e.message,
            "every cell is in a cage, so the cage sums must add up to 40 (the sum of a \
             solved 4x4), but they add up to 41"
        );
    }

    #[test]
    fn partial_cages_are_fine_and_malformed_ones_fail_early() {
        assert!(check(&[(0, 1)], vec![C::new(3, vec![0, 1])]).is_ok());
        let p = Puzzle::empty(Arc::new(Layout::classic()));
        let e = p
            .clone()
            .with_cages(vec![C::new(3, vec![0, 81])])
            .unwrap_err();
        assert_eq!(e.kind, CageErrorKind::Malformed);
        assert_eq!(
            e.message,
            "cage 1 (sum 3) lists cell 81, but the classic layout has 81 cells"
        );
        let e = p
            .clone()
            .with_cages(vec![C::new(3, vec![5, 5])])
            .unwrap_err();
        assert_eq!(e.message, "cage 1 (sum 3) lists r1c6 twice");
        let e = p.with_cages(vec![C::new(3, vec![])]).unwrap_err();
        assert_eq!(e.message, "cage 1 (sum 3) has no cells");
    }
}
