//! Techniques for cages (killer sudoku), each a step a player can follow:
//!
//! - the last empty cell of a cage takes what the sum still lacks;
//! - cage combinations: the sets of different symbols that make a cage's
//!   sum and can be laid into its cells' candidates; what no such filling
//!   puts in a cell leaves it. A cage's cells all differ, so this covers
//!   the naked subsets inside a cage and the hidden ones of the symbols
//!   every combination needs;
//! - the 45 rule: a house, a run of neighbouring rows or columns, or two
//!   neighbouring boxes hold a known total. The cells outside the cages
//!   lying wholly inside (innies), or the cells of the cages covering it
//!   that stick out (outies), then add up to a known sum: one such cell is
//!   fixed, several form a derived cage (whose symbols differ when they
//!   share a house);
//! - cage and house: a symbol every combination of a cage holds, whose
//!   places in the cage lie in one house, leaves the rest of that house;
//!   and a house whose places for a symbol all lie in one cage puts it in
//!   the cage, so it leaves the cage's other cells;
//! - cage combinations in a house: the cages wholly inside a house (and
//!   its other cells, whose sum the 45 rule gives) share out its symbols,
//!   each once, so a combination that leaves the others no disjoint choice
//!   is out.
//!
//! The search over a cage's fillings walks its cells in order with a memo
//! keyed by the set of symbols used so far (cells all different), or by
//! the partial sum (a derived cage whose cells may repeat): a few hundred
//! states on a 9x9.

use std::collections::HashMap;

use super::cands::{Candidate, Candidates, digits, full_mask};
use super::ctx::Ctx;
use super::houses::{HouseIndex, join_and};
use super::step::{Step, Technique};
use crate::grid::{Cage, HouseKind};

/// No cage.
const NONE: u32 = u32::MAX;
/// Fillings a [`Scratch`] keeps before it starts afresh: each a few
/// dozen bytes, and far more than one search of the chains meets.
const MAX_CACHED: usize = 1 << 16;

/// The most cells of a 45 rule group worth reasoning on.
const MAX_GROUP: usize = 8;
/// The most symbols the filling search takes (its memo has 2^n entries).
pub(super) const MAX_SYMBOLS: usize = 16;
/// Combinations listed in a sentence; more are counted.
pub(super) const LISTED: usize = 5;

/// A cage of the puzzle.
#[derive(Clone, Debug)]
struct Group {
    sum: u32,
    cells: Vec<usize>,
}

/// A sum the 45 rule gives.
#[derive(Clone, Debug)]
struct Derived {
    /// The houses whose union gives the total.
    houses: Vec<usize>,
    /// Innies (the region less the cages inside it) or outies (the cages
    /// covering it, less the region).
    outies: bool,
    /// The sum of the cages the rule takes off (inside) or adds (covering).
    cages_sum: u32,
    cells: Vec<usize>,
    sum: u32,
    /// The cells share a house, so their symbols differ.
    distinct: bool,
}

/// The cages of a puzzle, the 45 rule's sums, and scratch for the search.
pub(crate) struct Killer {
    cages: Vec<Group>,
    derived: Vec<Derived>,
    /// The cage of each cell, `NONE` for none.
    owner: Vec<u32>,
    scratch: Scratch,
}

/// A kept answer of the filling search: whether a filling fits (`None`:
/// a cell had no candidate), the support and the sets.
type Filled = (Option<bool>, Vec<u32>, Vec<u32>);

/// Buffers of the filling search, reused from call to call.
#[derive(Default)]
pub(super) struct Scratch {
    memo: Vec<u8>,
    support: Vec<u32>,
    combos: Vec<u32>,
    cands: Vec<u32>,
    /// For a derived cage whose symbols may repeat: for each empty cell,
    /// the earlier ones (bits) it shares a house with.
    sees: Vec<u32>,
    picks: Vec<u8>,
    /// The least and most the cells from each on can add up to.
    low: Vec<u32>,
    high: Vec<u32>,
    /// Fillings already worked out by [`Scratch::fill`]: the search's
    /// inputs (each empty cell's symbols, then the symbols used, the sum
    /// and the symbols it must hold; where symbols may repeat, the empty
    /// cells too) to its answer, the support and the sets. Chains fill the
    /// same cage from the same candidates many times over; at
    /// [`MAX_CACHED`] entries it starts afresh.
    cache: HashMap<Vec<u32>, Filled>,
    key: Vec<u32>,
    /// Steps left to the searches of [`Scratch::fill_within`] over
    /// fillings whose symbols may repeat.
    budget: u32,
    /// Such a search ran out of steps.
    gave_up: bool,
}

/// The symbols each cell can take in some filling, and the filling's sets.
pub(super) struct Fill<'a> {
    /// For each empty cell of the group, in order.
    pub support: &'a [u32],
    /// The sets of symbols (placed ones included) of the fillings; empty
    /// for a derived cage whose symbols may repeat.
    pub combos: &'a [u32],
}

impl Killer {
    /// The rules of `cages` on `houses`; `None` without cages, or with more
    /// symbols than the search takes.
    pub fn new(houses: &HouseIndex, cages: &[Cage]) -> Option<Killer> {
        let n = houses.size();
        if cages.is_empty() || n > MAX_SYMBOLS {
            return None;
        }
        let mut owner = vec![NONE; houses.cell_count()];
        let mut overlap = false;
        let mut groups = Vec::with_capacity(cages.len());
        for (i, cage) in cages.iter().enumerate() {
            let mut cells: Vec<usize> = cage.cells.iter().map(|&c| c as usize).collect();
            cells.sort_unstable();
            cells.dedup();
            if cells.is_empty() || cells.len() > n || cells.iter().any(|&c| c >= owner.len()) {
                return None;
            }
            for &c in &cells {
                overlap |= owner[c] != NONE;
                owner[c] = i as u32;
            }
            groups.push(Group {
                sum: cage.sum,
                cells,
            });
        }
        let derived = if overlap {
            // The 45 rule needs each cell in one cage at most.
            owner.fill(NONE);
            Vec::new()
        } else {
            derive(houses, &groups, &owner)
        };
        Some(Killer {
            cages: groups,
            derived,
            owner,
            scratch: Scratch::default(),
        })
    }
}

impl Scratch {
    /// Fills the empty cells of `cells` from their candidates so that, with
    /// the symbols `used` placed there (adding up to `have`), they add up
    /// to `sum`: all different (and none of `used`) and holding every
    /// symbol of `must` when `distinct`. `None` when no filling fits.
    pub(super) fn fill(
        &mut self,
        g: &Candidates,
        cells: &[usize],
        placed: (u32, u32),
        target: (u32, u32),
        distinct: bool,
    ) -> Option<Fill<'_>> {
        self.search(g, cells, &|_| u32::MAX, placed, target, distinct, None)
    }

    /// Sets the steps the next searches of [`Scratch::fill_within`] may
    /// take between them.
    pub(super) fn set_budget(&mut self, steps: u32) {
        self.budget = steps;
        self.gave_up = false;
    }

    /// Whether a search of [`Scratch::fill_within`] ran out of steps since
    /// [`Scratch::set_budget`].
    pub(super) fn gave_up(&self) -> bool {
        self.gave_up
    }

    /// [`Scratch::fill`] with each empty cell's candidates limited to
    /// `keep(cell)`; where the symbols may repeat, the search draws on the
    /// budget ([`Scratch::set_budget`]) and, once it is spent, gives `None`
    /// and says so ([`Scratch::gave_up`]).
    pub(super) fn fill_within(
        &mut self,
        g: &Candidates,
        cells: &[usize],
        keep: &dyn Fn(usize) -> u32,
        placed: (u32, u32),
        target: (u32, u32),
        distinct: bool,
    ) -> Option<Fill<'_>> {
        if self.gave_up {
            return None;
        }
        let budget = self.budget;
        self.search(g, cells, keep, placed, target, distinct, Some(budget))
    }

    /// The search of [`Scratch::fill`] and [`Scratch::fill_within`]:
    /// `budget` for the latter, `None` for a search over repeating symbols
    /// that falls back on the sum alone after [`SEEING_BUDGET`] steps.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        g: &Candidates,
        cells: &[usize],
        keep: &dyn Fn(usize) -> u32,
        (used, have): (u32, u32),
        (sum, must): (u32, u32),
        distinct: bool,
        budget: Option<u32>,
    ) -> Option<Fill<'_>> {
        let n = g.size();
        self.cands.clear();
        self.cands.extend(
            cells
                .iter()
                .filter(|&&c| g.value(c) == 0)
                .map(|&c| g.cell(c) & keep(c)),
        );
        let k = self.cands.len();
        self.support.clear();
        self.support.resize(k, 0);
        self.combos.clear();
        // Searches within a budget are not kept: their answer depends on
        // the budget left.
        let cached = distinct || budget.is_none();
        if cached {
            self.key.clear();
            self.key.extend_from_slice(&self.cands);
            self.key.extend([used, sum, must, distinct as u32]);
            if !distinct {
                let empty = cells.iter().filter(|&&c| g.value(c) == 0);
                self.key.extend(empty.map(|&c| c as u32));
            }
            if let Some((ok, support, combos)) = self.cache.get(self.key.as_slice()) {
                self.support.copy_from_slice(support);
                self.combos.extend_from_slice(combos);
                let ok = (*ok)?;
                return ok.then_some(Fill {
                    support: &self.support,
                    combos: &self.combos,
                });
            }
        }
        let ok = if distinct {
            self.memo.clear();
            self.memo.resize(1 << n, 0);
            let mut walk = Walk {
                cands: &self.cands,
                sum,
                must,
                memo: &mut self.memo,
                support: &mut self.support,
                combos: &mut self.combos,
            };
            Some(walk.distinct(0, used))
        } else {
            sum.checked_sub(have)
                .and_then(|rest| self.repeating(g, cells, rest, budget))
        };
        if cached {
            if self.cache.len() >= MAX_CACHED {
                self.cache.clear();
            }
            let entry = (ok, self.support.clone(), self.combos.clone());
            self.cache.insert(self.key.clone(), entry);
        }
        let ok = ok?;
        ok.then_some(Fill {
            support: &self.support,
            combos: &self.combos,
        })
    }

    /// The fillings of the empty `cells` (candidates in `self.cands`) that
    /// add up to `rest`, their symbols differing where they share a house:
    /// each walked within `budget` steps (see [`Scratch::search`]). `None`
    /// when a cell has no candidate, or a budget was spent.
    fn repeating(
        &mut self,
        g: &Candidates,
        cells: &[usize],
        rest: u32,
        budget: Option<u32>,
    ) -> Option<bool> {
        let k = self.cands.len();
        let houses = g.houses();
        let empty = || cells.iter().copied().filter(|&c| g.value(c) == 0);
        self.sees.clear();
        for (i, a) in empty().enumerate() {
            let earlier = empty()
                .take(i)
                .enumerate()
                .filter(|&(_, b)| houses.sees(a, b))
                .fold(0u32, |m, (j, _)| m | 1 << j);
            self.sees.push(earlier);
        }
        self.picks.clear();
        self.picks.resize(k, 0);
        self.low.clear();
        self.low.resize(k + 1, 0);
        self.high.clear();
        self.high.resize(k + 1, 0);
        for i in (0..k).rev() {
            let m = self.cands[i];
            if m == 0 {
                return None;
            }
            self.low[i] = self.low[i + 1] + m.trailing_zeros() + 1;
            self.high[i] = self.high[i + 1] + 32 - m.leading_zeros();
        }
        let mut walk = Seeing {
            cands: &self.cands,
            sees: &self.sees,
            low: &self.low,
            high: &self.high,
            picks: &mut self.picks,
            sum: rest,
            budget: budget.unwrap_or(SEEING_BUDGET),
            support: &mut self.support,
        };
        let ok = walk.walk(0, 0);
        let spent = walk.budget == 0;
        if budget.is_some() {
            self.budget = walk.budget;
            self.gave_up = spent;
            return (!spent).then_some(ok);
        }
        if !spent {
            return Some(ok);
        }
        // Too many fillings to list: the sum alone, cells free to repeat.
        self.support.iter_mut().for_each(|s| *s = 0);
        self.memo.clear();
        self.memo.resize((k + 1) * (rest as usize + 1), 0);
        let mut walk = Walk {
            cands: &self.cands,
            sum: rest,
            must: 0,
            memo: &mut self.memo,
            support: &mut self.support,
            combos: &mut self.combos,
        };
        Some(walk.repeating(0, 0))
    }
}

/// The search over one group's fillings.
struct Walk<'a> {
    cands: &'a [u32],
    sum: u32,
    /// Symbols every filling must hold.
    must: u32,
    memo: &'a mut [u8],
    support: &'a mut [u32],
    combos: &'a mut Vec<u32>,
}

const DEAD: u8 = 1;
const ALIVE: u8 = 2;

impl Walk<'_> {
    /// Whether cells `i..` can be filled with symbols outside `used`, all
    /// different, for the whole to add up to `sum`; records every symbol
    /// of such a filling.
    fn distinct(&mut self, i: usize, used: u32) -> bool {
        let have = mask_sum(used);
        if have > self.sum {
            return false;
        }
        if i == self.cands.len() {
            let ok = have == self.sum && used & self.must == self.must;
            if ok && !self.combos.contains(&used) {
                self.combos.push(used);
            }
            return ok;
        }
        match self.memo[used as usize] {
            DEAD => return false,
            ALIVE => return true,
            _ => {}
        }
        let mut ok = false;
        let mut left = self.cands[i] & !used;
        while left != 0 {
            let b = left & left.wrapping_neg();
            left &= left - 1;
            if self.distinct(i + 1, used | b) {
                ok = true;
                self.support[i] |= b;
            }
        }
        self.memo[used as usize] = if ok { ALIVE } else { DEAD };
        ok
    }

    /// The same with symbols that may repeat: `have` is the sum so far.
    fn repeating(&mut self, i: usize, have: u32) -> bool {
        if have > self.sum {
            return false;
        }
        if i == self.cands.len() {
            return have == self.sum;
        }
        let at = i * (self.sum as usize + 1) + have as usize;
        match self.memo[at] {
            DEAD => return false,
            ALIVE => return true,
            _ => {}
        }
        let mut ok = false;
        for d in digits(self.cands[i]) {
            if self.repeating(i + 1, have + d as u32) {
                ok = true;
                self.support[i] |= 1 << (d - 1);
            }
        }
        self.memo[at] = if ok { ALIVE } else { DEAD };
        ok
    }
}

/// Steps the search over a derived cage's fillings may take before it
/// falls back on the sum alone.
const SEEING_BUDGET: u32 = 200_000;

/// The fillings of a derived cage whose cells differ only where they share
/// a house: every filling tried, within a budget.
struct Seeing<'a> {
    cands: &'a [u32],
    sees: &'a [u32],
    low: &'a [u32],
    high: &'a [u32],
    picks: &'a mut [u8],
    sum: u32,
    budget: u32,
    support: &'a mut [u32],
}

impl Seeing<'_> {
    fn walk(&mut self, i: usize, have: u32) -> bool {
        if self.budget == 0 || have + self.low[i] > self.sum || have + self.high[i] < self.sum {
            return false;
        }
        self.budget -= 1;
        if i == self.cands.len() {
            return have == self.sum;
        }
        let mut banned = 0u32;
        let mut earlier = self.sees[i];
        while earlier != 0 {
            let j = earlier.trailing_zeros() as usize;
            earlier &= earlier - 1;
            banned |= 1 << (self.picks[j] - 1);
        }
        let mut ok = false;
        for d in digits(self.cands[i] & !banned) {
            self.picks[i] = d;
            if self.walk(i + 1, have + d as u32) {
                ok = true;
                self.support[i] |= 1 << (d - 1);
            }
        }
        ok
    }
}

/// The sum of a set of symbols.
fn mask_sum(mask: u32) -> u32 {
    digits(mask).map(u32::from).sum()
}

/// The 45 rule's sums: innies and outies of every house, of every run of
/// neighbouring rows or columns short of a whole grid, and of every two
/// boxes side by side. Each cell set once (the fewest houses first), none
/// that is a cage already, none of more than [`MAX_GROUP`] cells.
fn derive(houses: &HouseIndex, cages: &[Group], owner: &[u32]) -> Vec<Derived> {
    let n = houses.size();
    let house_total = (n * (n + 1) / 2) as u32;
    let mut out: Vec<Derived> = Vec::new();
    let mut in_region = vec![false; houses.cell_count()];
    for region_houses in regions(houses) {
        let mut region: Vec<usize> = region_houses
            .iter()
            .flat_map(|&h| houses.house(h).iter().map(|&c| c as usize))
            .collect();
        region.sort_unstable();
        let size = region.len();
        region.dedup();
        if region.len() != size {
            continue; // overlapping houses: no known total
        }
        for &c in &region {
            in_region[c] = true;
        }
        let total = region_houses.len() as u32 * house_total;
        let mut touching: Vec<u32> = Vec::new();
        let mut caged = true;
        for &c in &region {
            match owner[c] {
                NONE => caged = false,
                o if !touching.contains(&o) => touching.push(o),
                _ => {}
            }
        }
        let inside = |o: u32| cages[o as usize].cells.iter().all(|&c| in_region[c]);
        let inner: u32 = touching
            .iter()
            .filter(|&&o| inside(o))
            .map(|&o| cages[o as usize].sum)
            .sum();
        let mut push = |cells: Vec<usize>, outies: bool, cages_sum: u32, sum: i64| {
            if cells.is_empty() || cells.len() > MAX_GROUP {
                return;
            }
            let Ok(sum) = u32::try_from(sum) else {
                return;
            };
            if sum == 0
                || out.iter().any(|d| d.cells == cells)
                || cages.iter().any(|g| g.cells == cells)
            {
                return;
            }
            let distinct = shared_house(houses, &cells).is_some();
            out.push(Derived {
                houses: region_houses.clone(),
                outies,
                cages_sum,
                cells,
                sum,
                distinct,
            });
        };
        if touching.iter().any(|&o| inside(o)) {
            let rest: Vec<usize> = region
                .iter()
                .copied()
                .filter(|&c| owner[c] == NONE || !inside(owner[c]))
                .collect();
            push(rest, false, inner, total as i64 - inner as i64);
        }
        if caged && touching.iter().any(|&o| !inside(o)) {
            let all: u32 = touching.iter().map(|&o| cages[o as usize].sum).sum();
            let mut outies: Vec<usize> = touching
                .iter()
                .flat_map(|&o| cages[o as usize].cells.iter().copied())
                .filter(|&c| !in_region[c])
                .collect();
            outies.sort_unstable();
            push(outies, true, all, all as i64 - total as i64);
        }
        for &c in &region {
            in_region[c] = false;
        }
    }
    out
}

/// The house holding every cell of `cells`, if one does.
fn shared_house(houses: &HouseIndex, cells: &[usize]) -> Option<usize> {
    let first = *cells.first()?;
    houses
        .houses_of(first)
        .iter()
        .map(|&(h, _)| h as usize)
        .find(|&h| cells.iter().all(|&c| houses.index_in(c, h).is_some()))
}

/// Every house alone, then runs of neighbouring rows or columns (same span)
/// and pairs of boxes side by side, fewest houses first.
fn regions(houses: &HouseIndex) -> Vec<Vec<usize>> {
    let layout = houses.layout();
    let mut out: Vec<Vec<usize>> = (0..houses.house_count()).map(|h| vec![h]).collect();
    for kind in [HouseKind::Row, HouseKind::Column] {
        out.extend(layout.line_bands(kind));
    }
    let boxes: Vec<usize> = (0..houses.house_count())
        .filter(|&h| houses.kind(h) == HouseKind::Box)
        .collect();
    for (i, &a) in boxes.iter().enumerate() {
        for &b in &boxes[i + 1..] {
            let touch = houses.house(a).iter().any(|&x| {
                let (r, c) = layout.position(x as usize);
                houses.house(b).iter().any(|&y| {
                    let (s, d) = layout.position(y as usize);
                    r.abs_diff(s) + c.abs_diff(d) == 1
                })
            });
            if touch {
                out.push(vec![a, b]);
            }
        }
    }
    out.sort_by_key(Vec::len);
    out
}

/// `the 17 in r1c5-r2c5`, or for a large cage `the 5-cell 27 at r6c8`.
fn cage_name(cx: &Ctx, sum: u32, cells: &[usize]) -> String {
    cage_named(|c| cx.cell(c), "", sum, cells)
}

/// [`cage_name`] with `cell` naming the cells and `word` before the sum
/// (`"cage "`: `the cage 17 in r1c5-r2c5`, where other rules are named
/// beside it).
pub(super) fn cage_named(
    cell: impl Fn(usize) -> String,
    word: &str,
    sum: u32,
    cells: &[usize],
) -> String {
    if cells.len() <= 4 {
        let names: Vec<String> = cells.iter().map(|&c| cell(c)).collect();
        format!("the {word}{sum} in {}", names.join("-"))
    } else {
        format!("the {}-cell {word}{sum} at {}", cells.len(), cell(cells[0]))
    }
}

/// `8+9`.
pub(super) fn combo_name(cx: &Ctx, mask: u32) -> String {
    let v: Vec<String> = digits(mask).map(|d| cx.sym(d).to_string()).collect();
    v.join("+")
}

/// `a`, `a or b`, `a, b or c`.
pub(super) fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `3, 5 or 7`.
fn digits_or(cx: &Ctx, mask: u32) -> String {
    let v: Vec<String> = digits(mask).map(|d| cx.sym(d).to_string()).collect();
    join_or(&v)
}

/// The eliminations (and placements, where one symbol is left) a filling
/// gives the empty cells of `cells`.
fn outcome(g: &Candidates, cells: &[usize], support: &[u32]) -> (Vec<Candidate>, Vec<Candidate>) {
    let mut elims = Vec::new();
    let mut places = Vec::new();
    for (&c, &s) in cells.iter().filter(|&&c| g.value(c) == 0).zip(support) {
        let m = g.cell(c);
        for d in digits(m & !s) {
            elims.push(Candidate::new(c, d));
        }
        if m & !s != 0 && s.count_ones() == 1 {
            places.push(Candidate::new(c, s.trailing_zeros() as u8 + 1));
        }
    }
    (elims, places)
}

/// `So r1c5 and r2c5 can only be 8 or 9, and r3c3 only 1.`: what the
/// cells that lost candidates keep.
pub(super) fn keeps(cx: &Ctx, g: &Candidates, elims: &[Candidate]) -> String {
    let mut groups: Vec<(u32, Vec<usize>)> = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    for e in elims {
        if seen.contains(&e.cell) {
            continue;
        }
        seen.push(e.cell);
        let lost = elims
            .iter()
            .filter(|x| x.cell == e.cell)
            .fold(0u32, |m, x| m | 1 << (x.digit - 1));
        let left = g.cell(e.cell) & !lost;
        match groups.iter_mut().find(|(m, _)| *m == left) {
            Some((_, cells)) => cells.push(e.cell),
            None => groups.push((left, vec![e.cell])),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .enumerate()
        .map(|(i, (m, cells))| {
            let verb = if i == 0 { "can only be " } else { "only " };
            format!("{} {verb}{}", cx.cells(cells), digits_or(cx, *m))
        })
        .collect();
    format!("so {}", join_and(&parts))
}

/// Why a filling's eliminations hold: which combinations are left, and
/// for symbols that are in one but cannot sit in a cell, what the other
/// cells would then need.
fn reasons(
    cx: &Ctx,
    g: &Candidates,
    cells: &[usize],
    fill: &Fill,
    sum_left: u32,
    elims: &[Candidate],
    plural: bool,
) -> String {
    let empty: Vec<usize> = cells.iter().copied().filter(|&c| g.value(c) == 0).collect();
    let union = fill.combos.iter().fold(0u32, |u, &m| u | m);
    let mut text = String::new();
    if !fill.combos.is_empty() {
        if fill.combos.len() <= LISTED {
            let v: Vec<String> = fill.combos.iter().map(|&m| combo_name(cx, m)).collect();
            text.push_str(&format!("can only be {}", join_or(&v)));
        } else {
            let out = elims
                .iter()
                .filter(|e| union >> (e.digit - 1) & 1 == 0)
                .fold(0u32, |m, e| m | 1 << (e.digit - 1));
            text.push_str(&format!(
                "{} {} combinations that fit {} candidates",
                if plural { "have" } else { "has" },
                fill.combos.len(),
                if plural { "their" } else { "its" }
            ));
            if out != 0 {
                text.push_str(&format!(", none with {}", digits_or(cx, out)));
            }
        }
    }
    // Symbols of some combination that still cannot go in a cell.
    let mut inner: Vec<String> = Vec::new();
    for &c in &empty {
        let mask = elims
            .iter()
            .filter(|e| e.cell == c && (fill.combos.is_empty() || union >> (e.digit - 1) & 1 != 0))
            .fold(0u32, |m, e| m | 1 << (e.digit - 1));
        if mask == 0 {
            continue;
        }
        if let [a, b] = empty[..]
            && sum_left > 0
        {
            let other = if a == c { b } else { a };
            let need: u32 = digits(mask)
                .filter_map(|d| sum_left.checked_sub(d as u32))
                .filter(|&v| (1..=g.size() as u32).contains(&v))
                .fold(0, |m, v| m | 1 << (v - 1));
            if need != 0 {
                inner.push(format!(
                    "{} cannot be {}, which would leave {} needing {}",
                    cx.cell(c),
                    digits_or(cx, mask),
                    cx.cell(other),
                    digits_or(cx, need)
                ));
                continue;
            }
        }
        inner.push(format!(
            "{} cannot be {}, as the other cells could not then make the rest",
            cx.cell(c),
            digits_or(cx, mask)
        ));
    }
    if !inner.is_empty() {
        if !text.is_empty() {
            text.push_str("; ");
        }
        text.push_str(&join_and(&inner));
    }
    text
}

/// The symbols placed in `cells`, as bits, and their sum.
pub(super) fn placed(g: &Candidates, cells: &[usize]) -> (u32, u32) {
    cells.iter().fold((0, 0), |(m, s), &c| match g.value(c) {
        0 => (m, s),
        v => (m | 1 << (v - 1), s + v as u32),
    })
}

/// The symbols a cage must hold because a house has no place for them
/// outside it (each with that house), not counting those placed.
fn must_hold(g: &Candidates, cells: &[usize]) -> (u32, Vec<(u8, usize)>) {
    let houses = g.houses();
    let mut must = 0u32;
    let mut why = Vec::new();
    for &c in cells {
        for &(h, _) in houses.houses_of(c) {
            let h = h as usize;
            // The house's positions that lie in the cage.
            let inside = cells
                .iter()
                .filter_map(|&x| houses.index_in(x, h))
                .fold(0u32, |m, i| m | 1 << i);
            for d in digits(g.cell(c) & !must) {
                let places = g.places(h, d);
                if places != 0 && places & !inside == 0 {
                    must |= 1 << (d - 1);
                    why.push((d, h));
                }
            }
        }
    }
    why.sort_unstable();
    (must, why)
}

/// The last empty cell of a cage.
pub(crate) fn cage_full_house(g: &Candidates, cx: &Ctx, k: &Killer) -> Option<Step> {
    for cage in &k.cages {
        let mut empty = cage.cells.iter().filter(|&&c| g.value(c) == 0);
        let (Some(&cell), None) = (empty.next(), empty.next()) else {
            continue;
        };
        let (_, have) = placed(g, &cage.cells);
        let Some(d) = cage.sum.checked_sub(have) else {
            continue;
        };
        if d == 0 || d as usize > g.size() || !g.has(cell, d as u8) {
            continue;
        }
        let d = d as u8;
        let mut st = Step::new(Technique::CageFullHouse);
        st.placements.push(Candidate::new(cell, d));
        st.pattern.push(Candidate::new(cell, d));
        st.cells.extend(cage.cells.iter().copied());
        if cx.text {
            let name = cage_name(cx, cage.sum, &cage.cells);
            st.text = if cage.cells.len() == 1 {
                format!(
                    "Last cell of a cage: {name} is a single cell, so {} is {}.",
                    cx.cell(cell),
                    cx.sym(d)
                )
            } else {
                format!(
                    "Last cell of a cage: {} is the last empty cell of {name}, whose other \
                     cells add up to {have}, so it takes {} - {have} = {}.",
                    cx.cell(cell),
                    cage.sum,
                    cx.sym(d)
                )
            };
        }
        return Some(st);
    }
    None
}

/// Cage combinations: what no filling of a cage puts in a cell leaves it.
pub(crate) fn combinations(g: &Candidates, cx: &Ctx, k: &mut Killer) -> Option<Step> {
    let Killer { cages, scratch, .. } = k;
    for cage in cages.iter() {
        let (used, have) = placed(g, &cage.cells);
        if used.count_ones() as usize == cage.cells.len() || have > cage.sum {
            continue;
        }
        // Sum and candidates first; then, if that removes nothing, with the
        // symbols a house can put nowhere else.
        let mut must = (0u32, Vec::new());
        let mut fill = scratch.fill(g, &cage.cells, (used, have), (cage.sum, 0), true);
        let mut elims = fill.as_ref().map(|f| outcome(g, &cage.cells, f.support));
        if elims.as_ref().is_none_or(|(e, _)| e.is_empty()) {
            must = must_hold(g, &cage.cells);
            if must.0 == 0 {
                continue;
            }
            fill = scratch.fill(g, &cage.cells, (used, have), (cage.sum, must.0), true);
            elims = fill.as_ref().map(|f| outcome(g, &cage.cells, f.support));
        }
        let (Some(fill), Some((elims, places))) = (fill, elims) else {
            continue;
        };
        if elims.is_empty() {
            continue;
        }
        let (must, why_must) = must;
        let mut st = Step::new(Technique::CageCombination);
        st.eliminations = elims;
        st.placements = places;
        for &c in cage.cells.iter().filter(|&&c| g.value(c) == 0) {
            for d in digits(g.cell(c)) {
                let e = Candidate::new(c, d);
                if !st.eliminations.contains(&e) {
                    st.pattern.push(e);
                }
            }
        }
        st.cells.extend(cage.cells.iter().copied());
        if cx.text {
            let why = reasons(
                cx,
                g,
                &cage.cells,
                &fill,
                cage.sum - have,
                &st.eliminations,
                false,
            );
            let mut given = if used != 0 {
                format!(" (with {} placed)", cx.digits(used))
            } else {
                String::new()
            };
            if must != 0 {
                let mut by_house: Vec<(usize, u32)> = Vec::new();
                for &(d, h) in &why_must {
                    match by_house.iter_mut().find(|(x, _)| *x == h) {
                        Some((_, m)) => *m |= 1 << (d - 1),
                        None => by_house.push((h, 1 << (d - 1))),
                    }
                }
                let parts: Vec<String> = by_house
                    .iter()
                    .map(|&(h, m)| {
                        format!(
                            "{} has no place for {} outside it",
                            cx.house(h),
                            digits_or(cx, m)
                        )
                    })
                    .collect();
                given.push_str(&format!(
                    " must hold {} ({})",
                    cx.digits(must),
                    join_and(&parts)
                ));
                given.push_str(" and");
            }
            st.text = format!(
                "Cage combinations: {}{given} {why}, {}.",
                cage_name(cx, cage.sum, &cage.cells),
                keeps(cx, g, &st.eliminations)
            );
        }
        return Some(st);
    }
    None
}

/// The 45 rule: `single` looks for a group with one empty cell (fixed),
/// else for a group of several whose sum removes candidates.
pub(crate) fn innies(g: &Candidates, cx: &Ctx, k: &mut Killer, single: bool) -> Option<Step> {
    innies_where(g, cx, k, single, &|_| true)
}

/// [`innies`] over the groups whose cells `fresh` keeps (those that
/// changed since the groups were last looked at, in a chain).
pub(crate) fn innies_where(
    g: &Candidates,
    cx: &Ctx,
    k: &mut Killer,
    single: bool,
    fresh: &dyn Fn(&[usize]) -> bool,
) -> Option<Step> {
    let n = g.size() as u32;
    let Killer {
        derived, scratch, ..
    } = k;
    for dv in derived.iter().filter(|dv| fresh(&dv.cells)) {
        let empty: Vec<usize> = dv
            .cells
            .iter()
            .copied()
            .filter(|&c| g.value(c) == 0)
            .collect();
        let (used, have) = placed(g, &dv.cells);
        let Some(left) = dv.sum.checked_sub(have) else {
            continue;
        };
        if empty.is_empty() || (empty.len() == 1) != single {
            continue;
        }
        let mut st;
        if single {
            let cell = empty[0];
            if left == 0 || left > n || !g.has(cell, left as u8) {
                continue;
            }
            st = Step::new(Technique::Innies);
            st.placements.push(Candidate::new(cell, left as u8));
            st.pattern.push(Candidate::new(cell, left as u8));
        } else {
            let Some(fill) = scratch.fill(g, &dv.cells, (used, have), (dv.sum, 0), dv.distinct)
            else {
                continue;
            };
            let (elims, places) = outcome(g, &dv.cells, fill.support);
            if elims.is_empty() {
                continue;
            }
            st = Step::new(Technique::InniesSum);
            st.eliminations = elims;
            st.placements = places;
            for &c in &empty {
                for d in digits(g.cell(c)) {
                    let e = Candidate::new(c, d);
                    if !st.eliminations.contains(&e) {
                        st.pattern.push(e);
                    }
                }
            }
            if cx.text {
                let head = rule_head(cx, g, dv, &empty, left);
                let why = reasons(cx, g, &empty, &fill, left, &st.eliminations, true);
                let differ = if dv.distinct {
                    match shared_house(cx.houses, &dv.cells) {
                        Some(h) => format!("; they share {}, so they differ", cx.house(h)),
                        None => String::new(),
                    }
                } else {
                    "; they share no one house, so only those that share one differ".to_string()
                };
                let why = if why.starts_with("can") || why.starts_with("have") {
                    format!("they {why}, ")
                } else if why.is_empty() {
                    String::new()
                } else {
                    format!("{why}, ")
                };
                st.text = format!(
                    "45 rule: {head}{differ}; {why}{}.",
                    keeps(cx, g, &st.eliminations)
                );
            }
        }
        st.cells.extend(dv.cells.iter().copied());
        st.houses.extend(dv.houses.iter().copied());
        if cx.text && single {
            let head = rule_head(cx, g, dv, &empty, left);
            st.text = format!("45 rule: {head}.");
        }
        return Some(st);
    }
    None
}

/// `row 1 holds 45 and the cages wholly inside it 33, so r1c8 and r1c9
/// add up to 12`.
fn rule_head(cx: &Ctx, g: &Candidates, dv: &Derived, empty: &[usize], left: u32) -> String {
    let n = g.size() as u32;
    let total = dv.houses.len() as u32 * n * (n + 1) / 2;
    let region = cx.houses(&dv.houses);
    let mut text = if dv.outies && dv.cells.len() == 1 {
        format!(
            "the cages covering {region} add up to {}, {} more than its {total}, so the cell \
             sticking out, {}, is {}",
            dv.cages_sum,
            dv.sum,
            cx.cell(dv.cells[0]),
            dv.sum
        )
    } else if dv.outies {
        format!(
            "the cages covering {region} add up to {}, {} more than its {total}, so the cells \
             sticking out, {}, add up to {}",
            dv.cages_sum,
            dv.sum,
            cx.cells(&dv.cells),
            dv.sum
        )
    } else {
        format!(
            "{region} {} {total} and the cages wholly inside {} {}, so {} {} {}",
            if dv.houses.len() == 1 {
                "holds"
            } else {
                "hold"
            },
            if dv.houses.len() == 1 { "it" } else { "them" },
            dv.cages_sum,
            cx.cells(&dv.cells),
            if dv.cells.len() == 1 {
                "is"
            } else {
                "add up to"
            },
            dv.sum
        )
    };
    if empty.len() < dv.cells.len() {
        let full: Vec<usize> = dv
            .cells
            .iter()
            .copied()
            .filter(|&c| g.value(c) != 0)
            .collect();
        let (_, have) = placed(g, &full);
        text.push_str(&format!(
            "; {} already {} {have}, so {} {} {left}",
            cx.cells(&full),
            if full.len() == 1 { "holds" } else { "hold" },
            cx.cells(empty),
            if empty.len() == 1 {
                "takes"
            } else {
                "add up to"
            }
        ));
    }
    text
}

/// Cage and house: a symbol every filling of a cage holds, confined to one
/// house inside the cage, leaves the rest of that house; a house's symbol
/// confined to one cage leaves the rest of the cage.
pub(crate) fn locked(g: &Candidates, cx: &Ctx, k: &mut Killer) -> Option<Step> {
    house_in_one_cage(g, cx, k).or_else(|| cage_in_one_house(g, cx, k))
}

/// A house's places for a symbol all in one cage: the cage's other cells
/// lose it.
fn house_in_one_cage(g: &Candidates, cx: &Ctx, k: &Killer) -> Option<Step> {
    let houses = g.houses();
    for h in 0..houses.house_count() {
        for d in 1..=g.size() as u8 {
            let places = g.places(h, d);
            if places == 0 {
                continue;
            }
            let mut cells = houses.cells_at(h, places);
            let Some(first) = cells.next() else {
                continue;
            };
            let o = k.owner[first];
            if o == NONE || cells.any(|c| k.owner[c] != o) {
                continue;
            }
            let cage = &k.cages[o as usize];
            let elims: Vec<Candidate> = cage
                .cells
                .iter()
                .filter(|&&c| houses.index_in(c, h).is_none() && g.has(c, d))
                .map(|&c| Candidate::new(c, d))
                .collect();
            if !elims.is_empty() {
                return Some(house_in_one_cage_step(g, cx, cage, h, d, elims));
            }
        }
    }
    None
}

/// The step of [`house_in_one_cage`]: in house `h`, `d` only in `cage`.
fn house_in_one_cage_step(
    g: &Candidates,
    cx: &Ctx,
    cage: &Group,
    h: usize,
    d: u8,
    elims: Vec<Candidate>,
) -> Step {
    let inside: Vec<usize> = g.houses().cells_at(h, g.places(h, d)).collect();
    let mut st = Step::new(Technique::CageLocked);
    st.pattern
        .extend(inside.iter().map(|&c| Candidate::new(c, d)));
    st.cells.extend(cage.cells.iter().copied());
    st.houses.push(h);
    if cx.text {
        let lost: Vec<usize> = elims.iter().map(|e| e.cell).collect();
        st.text = format!(
            "Cage and house: in {}, {} can only go in {}, inside {}; the cage holds {} \
             once, so {} loses it.",
            cx.house(h),
            cx.sym(d),
            cx.cells(&inside),
            cage_name(cx, cage.sum, &cage.cells),
            cx.sym(d),
            cx.cells(&lost)
        );
    }
    st.eliminations = elims;
    st
}

/// A symbol every filling of a cage holds, its places in the cage all in
/// one house (or more): the rest of the house loses it.
fn cage_in_one_house(g: &Candidates, cx: &Ctx, k: &mut Killer) -> Option<Step> {
    let Killer { cages, scratch, .. } = k;
    for cage in cages.iter() {
        let (used, have) = placed(g, &cage.cells);
        if used.count_ones() as usize == cage.cells.len() || have > cage.sum {
            continue;
        }
        let Some(fill) = scratch.fill(g, &cage.cells, (used, have), (cage.sum, 0), true) else {
            continue;
        };
        let needed = fill.combos.iter().fold(full_mask(g.size()), |m, &c| m & c) & !used;
        if needed == 0 {
            continue;
        }
        let combos = fill.combos;
        for d in digits(needed) {
            let at: Vec<usize> = cage
                .cells
                .iter()
                .copied()
                .filter(|&c| g.has(c, d))
                .collect();
            if at.is_empty() {
                continue;
            }
            let (elims, lines) = outside_cage(g, cage, &at, d);
            if elims.is_empty() {
                continue;
            }
            let mut st = Step::new(Technique::CageLocked);
            st.pattern.extend(at.iter().map(|&c| Candidate::new(c, d)));
            st.cells.extend(cage.cells.iter().copied());
            st.houses.extend(lines.iter().copied());
            if cx.text {
                st.text = cage_in_one_house_text(cx, cage, combos, d, &at, &lines, &elims);
            }
            st.eliminations = elims;
            return Some(st);
        }
    }
    None
}

/// The candidates of `d` outside `cage` in the houses holding all of `at`
/// (its places in the cage), and those of the houses that lose one.
fn outside_cage(g: &Candidates, cage: &Group, at: &[usize], d: u8) -> (Vec<Candidate>, Vec<usize>) {
    let houses = g.houses();
    let mut elims = Vec::new();
    let mut lines = Vec::new();
    for &(h, _) in houses.houses_of(at[0]) {
        let h = h as usize;
        if !at.iter().all(|&c| houses.index_in(c, h).is_some()) {
            continue;
        }
        let before = elims.len();
        for &c in houses.house(h) {
            let c = c as usize;
            let e = Candidate::new(c, d);
            if !cage.cells.contains(&c) && g.has(c, d) && !elims.contains(&e) {
                elims.push(e);
            }
        }
        if elims.len() > before {
            lines.push(h);
        }
    }
    (elims, lines)
}

/// The sentence of [`cage_in_one_house`].
fn cage_in_one_house_text(
    cx: &Ctx,
    cage: &Group,
    combos: &[u32],
    d: u8,
    at: &[usize],
    lines: &[usize],
    elims: &[Candidate],
) -> String {
    let every = if combos.len() <= LISTED {
        let v: Vec<String> = combos.iter().map(|&m| combo_name(cx, m)).collect();
        format!("can only be {}, each with {}", join_or(&v), cx.sym(d))
    } else {
        format!("needs {} in every combination that fits", cx.sym(d))
    };
    format!(
        "Cage and house: {} {every}, and in the cage {} can only go in {} (inside \
         {}), so {} loses it in {}.",
        cage_name(cx, cage.sum, &cage.cells),
        cx.sym(d),
        cx.cells(at),
        cx.houses(lines),
        cx.houses(lines),
        cx.cells(&elims.iter().map(|e| e.cell).collect::<Vec<_>>())
    )
}

/// The most combination choices tried for one house.
const CLASH_BUDGET: u32 = 100_000;

/// One part of a house for [`clash`]: a cage wholly inside it, or the
/// house's other cells (their sum known by the 45 rule).
struct Part {
    sum: u32,
    cells: Vec<usize>,
    /// Its combinations that fit the candidates, and which of them some
    /// sharing-out of the house's symbols uses.
    combos: Vec<u32>,
    kept: Vec<bool>,
    /// The house's cells outside its cages.
    rest: bool,
}

/// Cage combinations in a house: the cages wholly inside a house (with
/// its other cells as one more part) share out its symbols, each once, so
/// a combination that leaves no disjoint choice for the others is out.
pub(crate) fn clash(g: &Candidates, cx: &Ctx, k: &mut Killer) -> Option<Step> {
    let houses = g.houses();
    let full = full_mask(g.size());
    let Killer {
        cages,
        owner,
        scratch,
        ..
    } = k;
    if owner.iter().all(|&o| o == NONE) {
        return None;
    }
    for h in 0..houses.house_count() {
        let Some(mut parts) = house_parts(g, cages, owner, h) else {
            continue;
        };
        if !fill_parts(g, scratch, &mut parts) {
            continue;
        }
        // Fewest combinations first, so the search cuts early.
        parts.sort_by_key(|p| p.combos.len());
        let mut choice = vec![0usize; parts.len()];
        let mut budget = CLASH_BUDGET;
        share(&mut parts, 0, 0, full, &mut choice, &mut budget);
        if budget == 0 {
            continue;
        }
        let (elims, narrowed) = unshared(g, &parts);
        if elims.is_empty() {
            continue;
        }
        let mut st = Step::new(Technique::CageClash);
        st.houses.push(h);
        st.cells.extend(houses.house(h).iter().map(|&c| c as usize));
        if cx.text {
            st.text = clash_sentence(cx, g, h, &parts, &narrowed, &elims);
        }
        st.eliminations = elims;
        return Some(st);
    }
    None
}

/// The parts of house `h`: the `cages` wholly inside it (`owner`: each
/// cell's cage), and its other cells as one more part. `None` when there
/// are fewer than two parts, or the cages inside add up to more than the
/// house holds.
fn house_parts(g: &Candidates, cages: &[Group], owner: &[u32], h: usize) -> Option<Vec<Part>> {
    let houses = g.houses();
    let n = g.size();
    let house_total = (n * (n + 1) / 2) as u32;
    let cells = houses.house(h);
    let mut inside: Vec<u32> = Vec::new();
    for &c in cells {
        let o = owner[c as usize];
        if o != NONE
            && !inside.contains(&o)
            && cages[o as usize]
                .cells
                .iter()
                .all(|&x| houses.index_in(x, h).is_some())
        {
            inside.push(o);
        }
    }
    if inside.is_empty() {
        return None;
    }
    let mut parts: Vec<Part> = inside
        .iter()
        .map(|&o| Part {
            sum: cages[o as usize].sum,
            cells: cages[o as usize].cells.clone(),
            combos: Vec::new(),
            kept: Vec::new(),
            rest: false,
        })
        .collect();
    let rest: Vec<usize> = cells
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| !parts.iter().any(|p| p.cells.contains(&c)))
        .collect();
    let inner: u32 = parts.iter().map(|p| p.sum).sum();
    if !rest.is_empty() {
        let sum = house_total.checked_sub(inner)?;
        parts.push(Part {
            sum,
            cells: rest,
            combos: Vec::new(),
            kept: Vec::new(),
            rest: true,
        });
    }
    (parts.len() >= 2).then_some(parts)
}

/// Each part's combinations that fit the candidates; false when a part
/// has none.
fn fill_parts(g: &Candidates, scratch: &mut Scratch, parts: &mut [Part]) -> bool {
    let mut dead = false;
    for p in parts {
        let got = placed(g, &p.cells);
        match scratch.fill(g, &p.cells, got, (p.sum, 0), true) {
            Some(f) => p.combos.extend_from_slice(f.combos),
            None => dead = true,
        }
        p.kept = vec![false; p.combos.len()];
    }
    !dead
}

/// The candidates of each part that no kept combination uses, and the
/// parts that lose some (indices into `parts`).
fn unshared(g: &Candidates, parts: &[Part]) -> (Vec<Candidate>, Vec<usize>) {
    let mut elims = Vec::new();
    let mut narrowed: Vec<usize> = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        let union = p
            .combos
            .iter()
            .zip(&p.kept)
            .filter(|&(_, &k)| k)
            .fold(0u32, |u, (&m, _)| u | m);
        let before = elims.len();
        for &c in &p.cells {
            for d in digits(g.cell(c) & !union) {
                elims.push(Candidate::new(c, d));
            }
        }
        if elims.len() > before {
            narrowed.push(i);
        }
    }
    (elims, narrowed)
}

/// The cage clash's sentence: what the `narrowed` parts of house `h` may
/// still hold, and what that removes (`elims`).
fn clash_sentence(
    cx: &Ctx,
    g: &Candidates,
    h: usize,
    parts: &[Part],
    narrowed: &[usize],
    elims: &[Candidate],
) -> String {
    let said: Vec<String> = narrowed
        .iter()
        .map(|&i| {
            let p = &parts[i];
            let v: Vec<String> = p
                .combos
                .iter()
                .zip(&p.kept)
                .filter(|&(_, &k)| k)
                .map(|(&m, _)| combo_name(cx, m))
                .collect();
            let name = if p.rest {
                format!(
                    "its other cells ({}, adding up to {})",
                    cx.cells(&p.cells),
                    p.sum
                )
            } else {
                cage_name(cx, p.sum, &p.cells)
            };
            let v = if v.len() <= LISTED {
                join_or(&v)
            } else {
                format!("one of {} combinations", v.len())
            };
            format!("{name} only {v}")
        })
        .collect();
    format!(
        "Cage combinations in {}: its cages hold each symbol once between them, which \
         leaves {}; {}.",
        cx.house(h),
        join_and(&said),
        keeps(cx, g, elims)
    )
}

/// Chooses for parts `i..` disjoint combinations outside `used` that fill
/// `left`; marks every combination of a full sharing-out as kept.
fn share(
    parts: &mut [Part],
    i: usize,
    used: u32,
    left: u32,
    choice: &mut [usize],
    budget: &mut u32,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if i == parts.len() {
        if left != 0 {
            return false;
        }
        for (p, &c) in parts.iter_mut().zip(choice.iter()) {
            p.kept[c] = true;
        }
        return true;
    }
    let mut ok = false;
    let mut c = 0;
    while c < parts[i].combos.len() {
        let m = parts[i].combos[c];
        if m & used == 0 {
            choice[i] = c;
            ok |= share(parts, i + 1, used | m, left & !m, choice, budget);
        }
        c += 1;
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Layout;
    use crate::logic::testutil::{classic, ctx, keep_only};
    use std::sync::Arc;

    fn houses() -> Arc<HouseIndex> {
        Arc::new(HouseIndex::new(Arc::new(Layout::classic())))
    }

    /// Every symbol some filling of `cells` puts in each, by trying every
    /// filling: symbols adding up to `sum`, different where cells share a
    /// house.
    fn brute(g: &Candidates, cells: &[usize], sum: u32) -> Vec<u32> {
        let sh = g.houses();
        let mut support = vec![0u32; cells.len()];
        let mut pick = vec![0u8; cells.len()];
        let mut stack = vec![0usize];
        // An odometer over every choice of candidates.
        let choices: Vec<Vec<u8>> = cells.iter().map(|&c| digits(g.cell(c)).collect()).collect();
        if choices.iter().any(Vec::is_empty) {
            return support;
        }
        stack.resize(cells.len(), 0);
        loop {
            for (p, (ch, &i)) in pick.iter_mut().zip(choices.iter().zip(&stack)) {
                *p = ch[i];
            }
            let total: u32 = pick.iter().map(|&v| v as u32).sum();
            let differ = (0..cells.len())
                .all(|i| (0..i).all(|j| pick[i] != pick[j] || !sh.sees(cells[i], cells[j])));
            if total == sum && differ {
                for (o, &v) in support.iter_mut().zip(&pick) {
                    *o |= 1 << (v - 1);
                }
            }
            let mut i = 0;
            loop {
                if i == cells.len() {
                    return support;
                }
                stack[i] += 1;
                if stack[i] < choices[i].len() {
                    break;
                }
                stack[i] = 0;
                i += 1;
            }
        }
    }

    #[test]
    fn the_filling_search_finds_what_trying_every_filling_finds() {
        let mut rng = crate::rng::Rng::new(7);
        let sh = houses();
        let mut s = Scratch::default();
        // Cells of one row (all different), and r1c1, r1c2, r2c4, r4c2 and
        // r3c7 (only some share a house).
        let lines: [&[usize]; 2] = [&[0, 1, 2, 3], &[0, 1, 12, 28, 24]];
        for _ in 0..300 {
            for (distinct, all) in [(true, lines[0]), (false, lines[1])] {
                let k = 1 + rng.below(all.len() as u32) as usize;
                let cells = &all[..k];
                let mut g = Candidates::new(sh.clone(), &[0u8; 81]);
                for &c in cells {
                    for d in 1..=9 {
                        if rng.below(2) == 0 {
                            g.eliminate(c, d);
                        }
                    }
                }
                let sum = k as u32 + rng.below(8 * k as u32 + 1);
                let want = brute(&g, cells, sum);
                let got = s.fill(&g, cells, (0, 0), (sum, 0), distinct);
                let found = want.iter().all(|&m| m != 0);
                let cands: Vec<u32> = cells.iter().map(|&c| g.cell(c)).collect();
                assert_eq!(got.is_some(), found, "{cands:?} sum {sum} {distinct}");
                if let Some(f) = got {
                    assert_eq!(f.support, &want[..], "{cands:?} sum {sum} {distinct}");
                    if distinct {
                        assert!(f.combos.iter().all(|&m| mask_sum(m) == sum));
                    }
                }
            }
        }
    }

    fn killer(cages: &[(u32, &[u32])]) -> Killer {
        let cages: Vec<Cage> = cages
            .iter()
            .map(|&(s, c)| Cage::new(s, c.to_vec()))
            .collect();
        Killer::new(&houses(), &cages).unwrap()
    }

    #[test]
    fn a_17_in_two_cells_can_only_be_8_and_9() {
        let mut k = killer(&[(17, &[4, 13])]);
        let g = classic("");
        let sh = g.houses().clone();
        let st = combinations(&g, &ctx(&sh), &mut k).unwrap();
        assert_eq!(st.eliminations.len(), 14);
        assert!(st.eliminations.iter().all(|e| e.digit < 8));
        assert_eq!(
            st.text,
            "Cage combinations: the 17 in r1c5-r2c5 can only be 8+9, so r1c5 and r2c5 can \
             only be 8 or 9."
        );
    }

    #[test]
    fn a_cell_that_would_leave_its_partner_no_symbol_is_named() {
        // 10 in r1c1-r1c2: r1c1 holds 1, 2 or 9, r1c2 8 or 9: 9 in r1c1
        // would need 1 in r1c2.
        let mut k = killer(&[(10, &[0, 1])]);
        let mut g = classic("");
        keep_only(&mut g, 0, &[1, 2, 9]);
        keep_only(&mut g, 1, &[8, 9]);
        let sh = g.houses().clone();
        let st = combinations(&g, &ctx(&sh), &mut k).unwrap();
        assert_eq!(st.eliminations, [Candidate::new(0, 9)]);
        assert!(
            st.text
                .contains("r1c1 cannot be 9, which would leave r1c2 needing 1"),
            "{}",
            st.text
        );
    }

    #[test]
    fn the_last_cell_of_a_cage_takes_what_the_sum_lacks() {
        let k = killer(&[(12, &[0, 1, 2])]);
        let g = classic("35");
        let sh = g.houses().clone();
        let st = cage_full_house(&g, &ctx(&sh), &k).unwrap();
        assert_eq!(st.placements, [Candidate::new(2, 4)]);
        assert_eq!(
            st.text,
            "Last cell of a cage: r1c3 is the last empty cell of the 12 in r1c1-r1c2-r1c3, \
             whose other cells add up to 8, so it takes 12 - 8 = 4."
        );
    }

    #[test]
    fn innies_of_a_row_fix_its_last_cell() {
        // Row 1: r1c1-r1c4 make 10 and r1c5-r1c8 make 30; r1c9 sits in a
        // cage with r2c9, so it is the innie: 45 - 40 = 5.
        let mut k = killer(&[(10, &[0, 1, 2, 3]), (30, &[4, 5, 6, 7]), (9, &[8, 17])]);
        let g = classic("");
        let sh = g.houses().clone();
        let st = innies(&g, &ctx(&sh), &mut k, true).unwrap();
        assert_eq!(st.placements, [Candidate::new(8, 5)]);
        assert_eq!(
            st.text,
            "45 rule: row 1 holds 45 and the cages wholly inside it 40, so r1c9 is 5."
        );
    }

    #[test]
    fn outies_of_a_row_with_a_sum_remove_candidates() {
        // Row 1 all caged; the 15 and the 12 stick out into row 2 with
        // r2c1 and r2c9: 10 + 15 + 17 + 12 - 45 = 9 for two cells that
        // share row 2, so neither can be 9.
        let mut k = killer(&[
            (10, &[1, 2, 3]),
            (15, &[0, 9]),
            (17, &[4, 5, 6]),
            (12, &[7, 8, 17]),
        ]);
        let g = classic("");
        let sh = g.houses().clone();
        let st = innies(&g, &ctx(&sh), &mut k, false).unwrap();
        assert_eq!(
            st.eliminations,
            [Candidate::new(9, 9), Candidate::new(17, 9)]
        );
        assert!(
            st.text.starts_with(
                "45 rule: the cages covering row 1 add up to 54, 9 more than its 45, so the \
                 cells sticking out, r2c1 and r2c9, add up to 9; they share row 2, so they \
                 differ; they can only be 1+8, 2+7, 3+6 or 4+5, so"
            ),
            "{}",
            st.text
        );
    }

    #[test]
    fn a_symbol_every_combination_needs_leaves_the_house_it_is_locked_in() {
        // The 3 in r1c1-r1c2 is 1+2: it holds 1 inside row 1 and box 1,
        // so the rest of both lose it (1 first).
        let mut k = killer(&[(3, &[0, 1])]);
        let g = classic("");
        let sh = g.houses().clone();
        let st = locked(&g, &ctx(&sh), &mut k).unwrap();
        assert!(st.eliminations.iter().all(|e| e.digit == 1));
        assert!(st.eliminations.contains(&Candidate::new(8, 1)));
        assert!(st.eliminations.contains(&Candidate::new(20, 1)));
        assert!(!st.eliminations.iter().any(|e| e.cell == 0 || e.cell == 1));
    }

    #[test]
    fn a_house_symbol_locked_in_a_cage_leaves_the_rest_of_the_cage() {
        // In row 1, 7 can only go in r1c1 and r1c2, both in a cage that
        // goes on to r2c1: r2c1 loses 7.
        let mut k = killer(&[(20, &[0, 1, 9])]);
        let mut g = classic("");
        for c in 2..9 {
            g.eliminate(c, 7);
        }
        let sh = g.houses().clone();
        let st = locked(&g, &ctx(&sh), &mut k).unwrap();
        assert_eq!(st.eliminations, [Candidate::new(9, 7)]);
        assert!(
            st.text
                .starts_with("Cage and house: in row 1, 7 can only go in r1c1 and r1c2")
        );
    }

    #[test]
    fn overlapping_cages_keep_combinations_but_no_45_rule() {
        let k = killer(&[(3, &[0, 1]), (10, &[1, 2])]);
        assert!(k.derived.is_empty());
        assert!(k.owner.iter().all(|&o| o == NONE));
    }

    #[test]
    fn the_cages_of_a_row_share_out_its_symbols() {
        // Row 1: the 3 is 1+2, the 17 is 8+9, so the 10 can only be 3+7 or
        // 4+6, and the other cells (adding up to 15) 3+5+7 or 4+5+6.
        let mut k = killer(&[(10, &[0, 1]), (3, &[2, 3]), (17, &[4, 5])]);
        let g = classic("");
        let sh = g.houses().clone();
        let st = clash(&g, &ctx(&sh), &mut k).unwrap();
        let lost = |cell: usize| {
            st.eliminations
                .iter()
                .filter(|e| e.cell == cell)
                .fold(0u32, |m, e| m | 1 << (e.digit - 1))
        };
        let mask = |ds: &[u8]| ds.iter().fold(0u32, |m, &d| m | 1 << (d - 1));
        for cell in [0, 1] {
            assert_eq!(lost(cell), mask(&[1, 2, 5, 8, 9]));
        }
        for cell in [6, 7, 8] {
            assert_eq!(lost(cell), mask(&[1, 2, 8, 9]));
        }
        assert!(
            st.text.starts_with(
                "Cage combinations in row 1: its cages hold each symbol once between them, \
                 which leaves "
            ),
            "{}",
            st.text
        );
        assert!(
            st.text.contains("the 10 in r1c1-r1c2 only 3+7 or 4+6"),
            "{}",
            st.text
        );
    }
}
