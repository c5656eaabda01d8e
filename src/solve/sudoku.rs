//! The sudoku encoding of a layout as exact cover: one primary item per cell
//! and one per (house, symbol); an option places a symbol in a cell and covers
//! the cell and the item of every house that contains it. Cages, when a
//! puzzle has them, add items and options of their own ([`super::cage_cover`]);
//! variant rules add houses, secondary items and checks made during the
//! search ([`super::rules`]).

use std::sync::Arc;

use super::budget::Budget;
use super::cage_cover::CageRules;
use super::dlx::{Dlx, Matrix};
use super::error::SolveError;
use super::rules::RuleSet;
use crate::grid::{Cage, Conflict, Layout, Puzzle, Rule};

/// The subset rule's reach on puzzles with cages: items with up to this many
/// options, so that a cage symbol confined to one row or box of a cage of up
/// to 4 cells is seen (measured where it is set, in `SudokuSolver::build`).
const KILLER_SUBSET_LIMIT: usize = 4;

/// Layouts of at least this many symbols filter every house as an
/// all-different group at each search node ([`SudokuSolver::set_house_filter`]).
/// On a 25x25 whose one wrong given shows only deep down, single items
/// see the contradiction only after many choices that a house's matching
/// sees at once; on a 9x9 the search is too shallow for the filter to pay
/// for itself (figures in docs/solver.md).
const HOUSE_FILTER_MIN_SIZE: usize = 16;

/// Solutions found, counted up to the limit asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Number of solutions found; equal to the limit when there may be more.
    pub count: u64,
    /// The solutions found (values per cell), at most `keep` of them.
    pub solutions: Vec<Vec<u8>>,
}

/// A solver for one layout (and one set of cages), reusable across puzzles
/// of that layout without allocating.
#[derive(Clone, Debug)]
pub struct SudokuSolver {
    /// The layout the solver was made for.
    base: Arc<Layout>,
    /// The same with the variant rules' extra houses (the base itself
    /// without any).
    layout: Arc<Layout>,
    rules: CageRules,
    /// The variant rules, compiled.
    variant: RuleSet,
    /// The puzzle's own variant rules.
    own_rules: Vec<Rule>,
    /// The first option of each cage's combinations, and the end of the
    /// last; cell options come before them all.
    combo_start: Vec<u32>,
    dlx: Dlx,
    singles: Singles,
    /// Whether the search filters the houses, and the variant rules'
    /// smaller groups, as all-different groups.
    house_filter: bool,
    group_filter: bool,
}

impl SudokuSolver {
    pub fn new(layout: Arc<Layout>) -> SudokuSolver {
        SudokuSolver::build(
            layout.clone(),
            layout,
            CageRules::default(),
            RuleSet::default(),
            Vec::new(),
        )
    }

    /// A solver for puzzles of `layout` with `cages` and the variant
    /// `rules` (checked beforehand by [`crate::grid::check_rules`]; a rule
    /// on cells outside the layout is an error here, not a panic).
    pub fn with_rules(
        layout: Arc<Layout>,
        cages: &[Cage],
        rules: &[Rule],
    ) -> Result<SudokuSolver, SolveError> {
        if rules.is_empty() {
            return SudokuSolver::with_cages(layout, cages);
        }
        let cells = layout.cell_count();
        for rule in rules {
            if let Some(&c) = rule.cells(&layout).iter().find(|&&c| c as usize >= cells) {
                return Err(SolveError::Unsupported(format!(
                    "a {} lists cell {c}, but the layout has {cells}",
                    rule.name()
                )));
            }
        }
        let variant = RuleSet::new(&layout, rules);
        let inner = with_houses(&layout, &variant);
        let cage_rules = CageRules::with_sets(&inner, cages, &variant.sets)?;
        Ok(SudokuSolver::build(
            layout,
            inner,
            cage_rules,
            variant,
            rules.to_vec(),
        ))
    }

    /// A solver for puzzles of `layout` with `cages` as extra rules (any
    /// cages: checking them against the rules of a killer is
    /// [`Puzzle::check_cages`]'s job). Fails when a cage has a cell outside
    /// the layout or twice, more cells than symbols, or more combinations of
    /// symbols than the solver takes ([`super::cage_cover::MAX_COMBINATIONS`]).
    pub fn with_cages(layout: Arc<Layout>, cages: &[Cage]) -> Result<SudokuSolver, SolveError> {
        let rules = CageRules::new(&layout, cages)?;
        Ok(SudokuSolver::build(
            layout.clone(),
            layout,
            rules,
            RuleSet::default(),
            Vec::new(),
        ))
    }

    fn build(
        base: Arc<Layout>,
        layout: Arc<Layout>,
        rules: CageRules,
        variant: RuleSet,
        own_rules: Vec<Rule>,
    ) -> SudokuSolver {
        let (matrix, combo_start) = matrix(&layout, &rules, &variant);
        let mut dlx = Dlx::new(&matrix);
        // Where grids overlap (cells in more than three houses, as in a
        // samurai), weighing every tie keeps the search on the shared cells
        // first, which keeps the grids' search trees from multiplying. A
        // single grid gains nothing from more than a few: on hard classic
        // puzzles, weighing the first 6 ties cut instructions by 9-14%
        // against weighing all, and against taking the first.
        if (0..layout.cell_count()).all(|c| layout.houses_of(c).len() <= 3) {
            dlx.set_tie_reach(6);
        }
        if !rules.cages.is_empty() || !variant.is_empty() {
            // Cages add items that tie with the cells' (a combination item
            // with two combinations left, a symbol with two places in a
            // cage): weighing every tie, and the subset rule on items with
            // up to 4 options (a cage symbol confined to one row or box of a
            // cage of up to 4 cells), cut the search nodes on the shared
            // killers from 20,700 to 4,700 in all, and on the hardest
            // from 12,100 to 1,200.
            dlx.set_tie_reach(usize::MAX);
            dlx.set_subset_limit(KILLER_SUBSET_LIMIT);
        }
        if !variant.is_empty() {
            dlx.set_conflict_weights(true);
        }
        if !variant.checks.is_empty() || !variant.pairs.is_empty() {
            // The checks follow the cells' options between choices.
            dlx.watch(layout.cell_count());
        }
        let mut solver = SudokuSolver {
            dlx,
            singles: Singles::new(&layout, &rules, &variant),
            base,
            layout,
            rules,
            variant,
            own_rules,
            combo_start,
            house_filter: false,
            group_filter: false,
        };
        solver.house_filter = solver.layout.size() >= HOUSE_FILTER_MIN_SIZE;
        solver.group_filter = !solver.variant.groups.is_empty();
        solver.set_filters();
        solver
    }

    /// Sets when the searches from now on give up (see [`Budget`]): one
    /// that does returns [`SolveError::GaveUp`], never a count short of
    /// the truth.
    pub fn set_budget(&mut self, budget: Budget) {
        self.dlx.set_budget(budget);
    }

    /// The layout the solver was made for (without the extra houses its
    /// variant rules add).
    #[allow(clippy::misnamed_getters)]
    pub fn layout(&self) -> &Arc<Layout> {
        &self.base
    }

    /// The layout the search runs on: the one it was made for, with the
    /// extra houses of its variant rules (a diagonal, an extra region or a
    /// disjoint group of as many cells as symbols) after its own houses.
    /// The same as [`SudokuSolver::layout`] without such rules.
    pub fn houses_layout(&self) -> &Arc<Layout> {
        &self.layout
    }

    /// The puzzle's variant rules this solver was built with.
    pub fn rules(&self) -> &[Rule] {
        &self.own_rules
    }

    /// The puzzle's own cages this solver was built with.
    pub fn cages(&self) -> &[Cage] {
        &self.rules.cages[..self.rules.own]
    }

    /// How far the engine's subset rule reaches (see
    /// [`Dlx::set_subset_limit`]); 0 searches without it.
    pub fn set_subset_limit(&mut self, max: usize) {
        self.dlx.set_subset_limit(max);
    }

    /// Whether the search filters every house as an all-different group
    /// at each node (see [`Dlx::set_all_different`]): a house's open
    /// symbols matched to its open cells, a dead end when some `k` symbols
    /// have fewer than `k` cells left, and the placements in no matching
    /// dropped.
    pub fn set_house_filter(&mut self, on: bool) {
        self.house_filter = on;
        self.set_filters();
    }

    /// Whether the search filters the variant rules' smaller groups (a
    /// renban line, a cage without a sum, an extra region of fewer cells
    /// than symbols) as all-different groups at each node: each cell
    /// matched to a symbol of its own, a dead end when some `k` cells
    /// have fewer than `k` symbols between them, and the placements in no
    /// such matching dropped. On by default.
    pub fn set_group_filter(&mut self, on: bool) {
        self.group_filter = on;
        self.set_filters();
    }

    /// Gives the engine the all-different groups the filters ask for.
    fn set_filters(&mut self) {
        let mut groups = Vec::new();
        if self.house_filter {
            groups = house_groups(&self.layout);
        }
        if self.group_filter {
            groups.extend(small_groups(&self.layout, &self.rules, &self.variant));
        }
        self.dlx.set_all_different(&groups);
    }

    /// Search tree nodes visited since the last call.
    pub fn take_node_count(&mut self) -> u64 {
        self.dlx.take_node_count()
    }

    /// Counts the solutions of `values` (one per cell, 0 = empty) up to `limit`,
    /// keeping the first `keep` of them. Conflicting givens are reported
    /// before any search.
    pub fn solve(&mut self, values: &[u8], limit: u64, keep: usize) -> Result<Outcome, SolveError> {
        let mut out = Outcome::default();
        let n = self.layout.size();
        let count = self.search(values, limit, |sol| {
            if out.solutions.len() < keep {
                out.solutions.push(decode(sol, n, values.len()));
            }
        })?;
        out.count = count;
        Ok(out)
    }

    /// Like [`SudokuSolver::solve`] with `keep` = 1, writing the first solution
    /// into `first` instead of allocating. Returns the count.
    pub fn solve_into(
        &mut self,
        values: &[u8],
        limit: u64,
        first: &mut [u8],
    ) -> Result<u64, SolveError> {
        let n = self.layout.size();
        let cell_options = self.layout.cell_count() * n;
        let mut written = false;
        self.search(values, limit, |sol| {
            if !written {
                written = true;
                for &k in sol {
                    let k = k as usize;
                    if k < cell_options {
                        first[k / n] = (k % n) as u8 + 1;
                    }
                }
            }
        })
    }

    fn search(
        &mut self,
        values: &[u8],
        limit: u64,
        found: impl FnMut(&[u32]),
    ) -> Result<u64, SolveError> {
        let count = self.search_within(values, limit, found)?;
        if self.dlx.gave_up() {
            return Err(SolveError::GaveUp {
                found: count,
                limit,
            });
        }
        Ok(count)
    }

    /// [`SudokuSolver::search`], its count short when the budget ran out.
    fn search_within(
        &mut self,
        values: &[u8],
        limit: u64,
        found: impl FnMut(&[u32]),
    ) -> Result<u64, SolveError> {
        assert_eq!(values.len(), self.layout.cell_count(), "one value per cell");
        self.dlx.reset();
        if !self.select_givens(values)? {
            return Ok(0);
        }
        if limit == 0 {
            return Ok(0);
        }
        // Symbols that the givens force are placed before the search.
        if !self
            .singles
            .place_forced(&self.layout, &self.rules, &self.variant, values)
        {
            return Ok(0);
        }
        if self.singles.complete() {
            return Ok(self.report_forced(values, found));
        }
        if !self.select_placed() {
            return Ok(0);
        }
        self.allow_candidates();
        if self.variant.checks.is_empty() && self.variant.pairs.is_empty() {
            return Ok(self.dlx.search(limit, found));
        }
        Ok(self.search_checked(limit, found))
    }

    /// Selects the option of each given. Givens that clash in a house are
    /// an error naming the clash; `Ok(false)` when they clash otherwise
    /// (a symbol repeated in a cage).
    fn select_givens(&mut self, values: &[u8]) -> Result<bool, SolveError> {
        let n = self.layout.size();
        for (cell, &v) in values.iter().enumerate() {
            if v == 0 {
                continue;
            }
            assert!(v as usize <= n, "value {v} out of range at cell {cell}");
            if self.dlx.select(cell * n + v as usize - 1).is_err() {
                // Givens clash in a house, or repeat a symbol in a cage.
                return match self.layout.first_conflict(values) {
                    Some(c) => Err(conflict_error(&self.layout, c, |cell| {
                        self.layout.cell_name(cell)
                    })),
                    None => Ok(false),
                };
            }
        }
        Ok(true)
    }

    /// The one solution when the givens force every symbol: passed to
    /// `found` if it keeps the cages' sums and the variant rules. Returns
    /// the count, 0 or 1; no search is needed.
    fn report_forced(&mut self, values: &[u8], mut found: impl FnMut(&[u32])) -> u64 {
        if !self.singles.sums_hold(&self.rules) || !self.variant.holds(&self.singles.value) {
            return 0;
        }
        let n = self.layout.size();
        let options = &mut self.singles.options;
        options.clear();
        options.extend(
            values
                .iter()
                .enumerate()
                .filter(|&(_, &v)| v != 0)
                .map(|(cell, &v)| (cell * n + v as usize - 1) as u32),
        );
        options.extend(
            self.singles
                .placed
                .iter()
                .map(|&(cell, v)| cell * n as u32 + v as u32 - 1),
        );
        found(&self.singles.options);
        1
    }

    /// Selects the symbols the pre-pass placed; false if they clash.
    fn select_placed(&mut self) -> bool {
        let n = self.layout.size();
        for &(cell, v) in &self.singles.placed {
            if self.dlx.select(cell as usize * n + v as usize - 1).is_err() {
                return false;
            }
        }
        true
    }

    /// Lets into the search only the candidates the pre-pass left, and the
    /// combinations of each cage it left possible.
    fn allow_candidates(&mut self) {
        let n = self.layout.size();
        let mut options = std::mem::take(&mut self.singles.options);
        options.clear();
        for (cell, &m) in self.singles.cand.iter().enumerate() {
            // The set bits of `m`, lowest first, without testing each symbol.
            let mut r = m;
            while r != 0 {
                options.push((cell * n) as u32 + r.trailing_zeros());
                r &= r - 1;
            }
        }
        for (k, combos) in self.rules.combos.iter().enumerate() {
            let start = self.combo_start[k];
            for (j, &s) in combos.iter().enumerate() {
                if self.singles.combo_fits(&self.rules, k, s) {
                    options.push(start + j as u32);
                }
            }
        }
        self.dlx.allow(options.iter().map(|&k| k as usize));
        self.singles.options = options;
    }

    /// The search with the variant rules' checks after each choice (see
    /// [`prune_by_rules`]).
    fn search_checked(&mut self, limit: u64, found: impl FnMut(&[u32])) -> u64 {
        let n = self.layout.size();
        let cell_options = self.layout.cell_count() * n;
        let value = &mut self.singles.value;
        let variant = &mut self.variant;
        self.dlx.search_with(limit, found, |dlx| {
            prune_by_rules(dlx, value, variant, n, cell_options)
        })
    }
}

/// After a choice of the search: the pairs keep the symbols with a partner
/// left and the rules over many cells narrow by bounds, from the symbols
/// each cell may still hold; what they rule out leaves the search. False
/// when the choices so far break a rule. `value` is scratch, one per cell.
#[inline]
fn prune_by_rules(
    dlx: &mut Dlx,
    value: &mut [u8],
    variant: &mut RuleSet,
    n: usize,
    cell_options: usize,
) -> bool {
    chosen_values(dlx, value, n, cell_options);
    // Only the cells whose options changed since the last call are read
    // back from the engine; the rest keep what the rule set holds.
    let changed = &mut variant.changed;
    changed.clear();
    dlx.take_changed(|c| changed.push(c as u32));
    for j in 0..variant.changed.len() {
        let c = variant.changed[j] as usize;
        let mask = match value[c] {
            0 => open_symbols(dlx, c, n),
            v => 1 << (v - 1),
        };
        variant.set_symbols(c, mask);
    }
    let ok = variant.settle() && drop_narrowed(dlx, value, variant, n);
    variant.settled(ok);
    if ok {
        // What was dropped is what the rule set narrowed.
        dlx.changes_known();
    }
    ok
}

/// Writes into `value` the symbol of each cell the search has placed, 0
/// in the others.
#[inline]
fn chosen_values(dlx: &Dlx, value: &mut [u8], n: usize, cell_options: usize) {
    value.fill(0);
    dlx.for_each_chosen(|k| {
        let k = k as usize;
        if k < cell_options {
            value[k / n] = (k % n) as u8 + 1;
        }
    });
}

/// The symbols an open cell may still hold, as bits.
#[inline]
fn open_symbols(dlx: &Dlx, cell: usize, n: usize) -> u32 {
    let mut m = 0;
    dlx.options_of(cell, |k| m |= 1 << (k as usize % n));
    m
}

/// Takes what the checks ruled out from the open cells' options; false on
/// a dead end (a placed cell ruled out, or an item left with no option).
#[inline]
fn drop_narrowed(dlx: &mut Dlx, value: &[u8], variant: &RuleSet, n: usize) -> bool {
    for &(c, gone) in variant.narrowed() {
        if value[c as usize] != 0 {
            return false;
        }
        let mut g = gone;
        while g != 0 {
            let v = g.trailing_zeros() as usize;
            g &= g - 1;
            if !dlx.drop_option(c as usize * n + v) {
                return false;
            }
        }
    }
    true
}

/// Placing the symbols that the givens force, with bit masks: a cell with a
/// single candidate (naked single), a symbol with a single place in a house
/// (hidden single), and, when those run out, a symbol whose places in one
/// house all lie in a second house, which rules it out of the rest of the
/// second (locked candidates), repeated until nothing more is forced. Every
/// solution holds these placements, so counting solutions after them is
/// exact. Naked and hidden pairs were tried here too: they cost more than
/// they saved.
///
/// With cages, the cells of a cage are peers too (their symbols differ), and
/// each cage keeps its cells to the symbols of the combinations still
/// possible (a combination must hold the cage's placed symbols, and its
/// other symbols must fit the open cells' candidates).
#[derive(Clone, Debug)]
struct Singles {
    /// A bit per symbol.
    full: u32,
    /// Candidates of each cell (0 once it holds a symbol).
    cand: Vec<u32>,
    /// Symbols placed in each house.
    used: Vec<u32>,
    filled: Vec<bool>,
    /// The symbol of each cell (0 while empty).
    value: Vec<u8>,
    /// Cells and symbols placed, in order.
    placed: Vec<(u32, u8)>,
    /// Options of a solution found without searching, or the candidates
    /// allowed into the search.
    options: Vec<u32>,
    /// Placements waiting to be made (naked singles found by `place`).
    forced: Vec<(u32, u32)>,
    /// The cells sharing a house or a cage with each cell, once each (cell
    /// `c` has `peers[peer_start[c]..peer_start[c + 1]]`).
    peers: Vec<u32>,
    peer_start: Vec<u32>,
    /// Pairs of houses sharing two or more cells (but not all).
    overlaps: Vec<Overlap>,
}

/// Two houses `a` and `b` that share some cells.
#[derive(Clone, Debug)]
struct Overlap {
    a: usize,
    b: usize,
    shared: Vec<u32>,
    /// Cells of `a` outside `b`, and of `b` outside `a`.
    a_only: Vec<u32>,
    b_only: Vec<u32>,
}

impl Singles {
    fn new(layout: &Layout, rules: &CageRules, variant: &RuleSet) -> Singles {
        let cells = layout.cell_count();
        let mut peers = Vec::new();
        let mut peer_start = vec![0u32];
        for cell in 0..cells {
            let from = peers.len();
            let houses = layout
                .houses_of(cell)
                .iter()
                .map(|&h| &layout.houses()[h as usize].cells);
            let cages = rules
                .cages_of(cell)
                .iter()
                .map(|&k| &rules.cages[k as usize].cells);
            let groups = variant
                .groups_of(cell)
                .iter()
                .map(|&g| &variant.groups[g as usize]);
            for group in houses.chain(cages).chain(groups) {
                for &c in group {
                    if c as usize != cell && !peers[from..].contains(&c) {
                        peers.push(c);
                    }
                }
            }
            peer_start.push(peers.len() as u32);
        }
        Singles {
            full: (1u32 << layout.size()) - 1,
            cand: vec![0; cells],
            used: vec![0; layout.houses().len()],
            filled: vec![false; cells],
            value: vec![0; cells],
            placed: Vec::with_capacity(cells),
            options: Vec::with_capacity(cells * layout.size()),
            forced: Vec::with_capacity(cells),
            peers,
            peer_start,
            overlaps: overlaps(layout),
        }
    }

    /// True when every cell holds a symbol.
    fn complete(&self) -> bool {
        self.filled.iter().all(|&f| f)
    }

    /// Places what `values` (givens that do not clash) force; false if they
    /// leave a cell with no candidate or a symbol with no place in a house.
    fn place_forced(
        &mut self,
        layout: &Layout,
        rules: &CageRules,
        variant: &RuleSet,
        values: &[u8],
    ) -> bool {
        self.placed.clear();
        self.used.fill(0);
        self.value.copy_from_slice(values);
        for (cell, &v) in values.iter().enumerate() {
            self.filled[cell] = v != 0;
            if v != 0 {
                for &h in layout.houses_of(cell) {
                    self.used[h as usize] |= 1 << (v - 1);
                }
            }
        }
        for (cell, &v) in values.iter().enumerate() {
            self.cand[cell] = if v != 0 {
                0
            } else {
                let used = layout
                    .houses_of(cell)
                    .iter()
                    .fold(0, |u, &h| u | self.used[h as usize]);
                self.full & !used & variant.masks.get(cell).copied().unwrap_or(self.full)
            };
            if v != 0 && !variant.masks.is_empty() && variant.masks[cell] & 1 << (v - 1) == 0 {
                // A given its cell's rule does not allow.
                return false;
            }
        }
        if self.narrow_cages(rules).is_none() || self.narrow_pairs(variant).is_none() {
            return false;
        }
        // Cells left with one candidate by the givens are placed first;
        // those that `place` leaves with one are followed there.
        if !self.place_naked(layout, variant) {
            return false;
        }
        loop {
            let before = self.placed.len();
            for (h, house) in layout.houses().iter().enumerate() {
                if self.used[h] == self.full {
                    // Every symbol is placed in this house.
                    continue;
                }
                let (mut once, mut twice) = (0u32, 0u32);
                for &c in &house.cells {
                    let m = self.cand[c as usize];
                    twice |= once & m;
                    once |= m;
                }
                if (once | self.used[h]) != self.full {
                    return false;
                }
                let mut hidden = once & !twice & !self.used[h];
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden &= hidden - 1;
                    if self.used[h] & bit != 0 {
                        // Placed here by a naked single on the way.
                        continue;
                    }
                    let Some(&c) = house
                        .cells
                        .iter()
                        .find(|&&c| self.cand[c as usize] & bit != 0)
                    else {
                        return false;
                    };
                    if !self.place(layout, variant, c as usize, bit) {
                        return false;
                    }
                }
            }
            if self.placed.len() == before {
                let locked = self.lock_candidates();
                let Some(narrowed) = self.narrow_cages(rules) else {
                    return false;
                };
                let Some(paired) = self.narrow_pairs(variant) else {
                    return false;
                };
                if !locked && !narrowed && !paired {
                    return true;
                }
                // Cells that locked candidates left with one candidate.
                if !self.place_naked(layout, variant) {
                    return false;
                }
            }
        }
    }

    /// Places every empty cell with a single candidate (and what that
    /// forces); false if an empty cell has none or a placement clashes.
    fn place_naked(&mut self, layout: &Layout, variant: &RuleSet) -> bool {
        for cell in 0..self.cand.len() {
            let m = self.cand[cell];
            if !self.filled[cell]
                && m & m.wrapping_sub(1) == 0
                && !self.place(layout, variant, cell, m)
            {
                return false;
            }
        }
        true
    }

    /// Keeps each cell of a pair to the symbols that have a partner left in
    /// the other cell. Returns whether a candidate went, or `None` when a
    /// cell has none left.
    fn narrow_pairs(&mut self, variant: &RuleSet) -> Option<bool> {
        let mut changed = false;
        let symbols = |s: &Singles, c: u32| match s.value[c as usize] {
            0 => s.cand[c as usize],
            v => 1 << (v - 1),
        };
        for p in &variant.pairs {
            for (x, y) in [(p.a, p.b), (p.b, p.a)] {
                if self.filled[x as usize] {
                    continue;
                }
                let allowed = p.partners(y, symbols(self, y));
                let m = &mut self.cand[x as usize];
                if *m & !allowed != 0 {
                    *m &= allowed;
                    changed = true;
                    if *m == 0 {
                        return None;
                    }
                }
            }
        }
        Some(changed)
    }

    /// Removes candidates by locked candidates; true if any went. Both
    /// ways for each pair of houses: the symbols that house `a` can only
    /// hold in the shared cells leave the rest of `b`, and the other way.
    fn lock_candidates(&mut self) -> bool {
        let mut changed = false;
        let cand = &mut self.cand;
        let fold = |cand: &[u32], cells: &[u32]| cells.iter().fold(0, |m, &c| m | cand[c as usize]);
        let mut remove = |cand: &mut [u32], cells: &[u32], locked: u32| {
            for &c in cells {
                let m = &mut cand[c as usize];
                changed |= *m & locked != 0;
                *m &= !locked;
            }
        };
        for o in &self.overlaps {
            let inside = fold(cand, &o.shared);
            if inside == 0 {
                continue;
            }
            // Computed before either removal: removing candidates only
            // makes `outside` smaller, so this misses some, never errs.
            let a_out = fold(cand, &o.a_only);
            let b_out = fold(cand, &o.b_only);
            let locked_a = inside & !a_out & !self.used[o.a];
            if locked_a != 0 {
                remove(cand, &o.b_only, locked_a);
            }
            let locked_b = inside & !b_out & !self.used[o.b];
            if locked_b != 0 {
                remove(cand, &o.a_only, locked_b);
            }
        }
        changed
    }

    /// Places the symbol of `bit` in `cell`; false if it has no candidate
    /// there or a house of the cell already holds it.
    /// Cells left with a single candidate on the way are placed too (naked
    /// singles, followed at once rather than found by a later scan).
    fn place(&mut self, layout: &Layout, variant: &RuleSet, cell: usize, bit: u32) -> bool {
        self.forced.clear();
        self.forced.push((cell as u32, bit));
        while let Some((cell, bit)) = self.forced.pop() {
            let cell = cell as usize;
            // A cell goes on the stack once, when one candidate is left; a
            // later removal empties it and fails at once. So a filled cell
            // (no candidates) only comes from a caller, and fails here.
            if self.cand[cell] & bit == 0 {
                return false;
            }
            self.filled[cell] = true;
            self.cand[cell] = 0;
            self.value[cell] = bit.trailing_zeros() as u8 + 1;
            self.placed
                .push((cell as u32, bit.trailing_zeros() as u8 + 1));
            for &h in layout.houses_of(cell) {
                let h = h as usize;
                if self.used[h] & bit != 0 {
                    return false;
                }
                self.used[h] |= bit;
            }
            let (a, b) = (
                self.peer_start[cell] as usize,
                self.peer_start[cell + 1] as usize,
            );
            for &c in &self.peers[a..b] {
                let m = &mut self.cand[c as usize];
                if *m & bit != 0 {
                    *m &= !bit;
                    let left = *m;
                    if left & left.wrapping_sub(1) == 0 {
                        if left == 0 {
                            return false;
                        }
                        self.forced.push((c, left));
                    }
                }
            }
            for &k in variant.pairs_of(cell) {
                let p = &variant.pairs[k as usize];
                let other = p.other(cell as u32);
                let allowed = p.partners(cell as u32, bit);
                if self.filled[other as usize] {
                    if allowed & 1 << (self.value[other as usize] - 1) == 0 {
                        return false;
                    }
                    continue;
                }
                let m = &mut self.cand[other as usize];
                if *m & !allowed != 0 {
                    *m &= allowed;
                    let left = *m;
                    if left & left.wrapping_sub(1) == 0 {
                        if left == 0 {
                            return false;
                        }
                        self.forced.push((other, left));
                    }
                }
            }
        }
        true
    }
}

impl Singles {
    /// Keeps the open cells of each cage to the symbols of its combinations
    /// still possible. Returns whether a candidate went, or `None` when a
    /// cage has no combination left or a cell no candidate.
    fn narrow_cages(&mut self, rules: &CageRules) -> Option<bool> {
        let mut changed = false;
        for (k, cage) in rules.cages.iter().enumerate() {
            let (placed, open) = self.cage_state(&cage.cells);
            let mut allowed = 0;
            let mut any = false;
            for &s in &rules.combos[k] {
                if self.fits(&cage.cells, placed, open, s) {
                    allowed |= s & !placed;
                    any = true;
                }
            }
            if !any {
                return None;
            }
            for &c in &cage.cells {
                let m = &mut self.cand[c as usize];
                if *m & !allowed != 0 {
                    *m &= allowed;
                    changed = true;
                    if *m == 0 && !self.filled[c as usize] {
                        return None;
                    }
                }
            }
        }
        Some(changed)
    }

    /// The symbols placed in a cage, and the union of its open cells'
    /// candidates.
    fn cage_state(&self, cells: &[u32]) -> (u32, u32) {
        let (mut placed, mut open) = (0, 0);
        for &c in cells {
            match self.value[c as usize] {
                0 => open |= self.cand[c as usize],
                v => placed |= 1 << (v - 1),
            }
        }
        (placed, open)
    }

    /// Whether combination `s` can still fill a cage: it holds the placed
    /// symbols, and its other symbols are candidates of the open cells,
    /// every open cell having one of them.
    fn fits(&self, cells: &[u32], placed: u32, open: u32, s: u32) -> bool {
        let rest = s & !placed;
        s & placed == placed
            && rest & !open == 0
            && cells
                .iter()
                .all(|&c| self.value[c as usize] != 0 || self.cand[c as usize] & rest != 0)
    }

    /// Whether combination `s` of cage `k` can still fill it.
    fn combo_fits(&self, rules: &CageRules, k: usize, s: u32) -> bool {
        let cells = &rules.cages[k].cells;
        let (placed, open) = self.cage_state(cells);
        self.fits(cells, placed, open, s)
    }

    /// With every cell filled: whether every cage holds one of its
    /// combinations (different symbols with its sum, or one of its sets).
    fn sums_hold(&self, rules: &CageRules) -> bool {
        rules.cages.iter().zip(&rules.combos).all(|(cage, combos)| {
            let held = cage
                .cells
                .iter()
                .fold(0u32, |m, &c| m | 1 << (self.value[c as usize] - 1));
            held.count_ones() as usize == cage.cells.len() && combos.contains(&held)
        })
    }
}

/// Every pair of houses sharing at least two cells but not all.
fn overlaps(layout: &Layout) -> Vec<Overlap> {
    let houses = layout.houses();
    let mut out = Vec::new();
    for (a, ha) in houses.iter().enumerate() {
        for (b, hb) in houses.iter().enumerate().skip(a + 1) {
            let shared: Vec<u32> = ha
                .cells
                .iter()
                .copied()
                .filter(|c| hb.cells.contains(c))
                .collect();
            if shared.len() < 2 || shared.len() == ha.cells.len() || shared.len() == hb.cells.len()
            {
                continue;
            }
            let only = |h: &crate::grid::House| {
                h.cells
                    .iter()
                    .copied()
                    .filter(|c| !shared.contains(c))
                    .collect()
            };
            out.push(Overlap {
                a,
                b,
                a_only: only(ha),
                b_only: only(hb),
                shared,
            });
        }
    }
    out
}

/// The exact-cover matrix of a layout and its cages: option `cell * n + v`
/// places symbol `v + 1` in `cell`; the combinations of cage `k` follow, from
/// option `combo_start[k]` (returned with the matrix, with the end of the
/// last appended). Items: the cells, then (house, symbol), then for each
/// cage its `n` items (cage, symbol) and its item "cage".
fn matrix(layout: &Layout, rules: &CageRules, variant: &RuleSet) -> (Matrix, Vec<u32>) {
    let n = layout.size();
    let cells = layout.cell_count();
    let cage_base = cells + layout.houses().len() * n;
    let primary = group_base(layout, rules);
    // Secondary items: a symbol of each smaller group, then the pairs'.
    let group_base = primary;
    let full = (1u32 << n) - 1;
    let mut pair_items: Vec<[u32; crate::grid::MAX_SIZE]> = Vec::with_capacity(variant.pairs.len());
    let mut next = group_base + variant.groups.len() * n;
    for p in &variant.pairs {
        let mut ids = [u32::MAX; crate::grid::MAX_SIZE];
        for (x, id) in ids.iter_mut().enumerate().take(n) {
            if p.ab[x] != full {
                *id = next as u32;
                next += 1;
            }
        }
        pair_items.push(ids);
    }
    let mut m = Matrix::new(primary, next - primary);
    let mut items = Vec::with_capacity(8);
    for cell in 0..cells {
        for v in 0..n {
            items.clear();
            items.push(cell);
            items.extend(
                layout
                    .houses_of(cell)
                    .iter()
                    .map(|&h| cells + h as usize * n + v),
            );
            items.extend(
                rules
                    .cages_of(cell)
                    .iter()
                    .map(|&k| cage_base + k as usize * (n + 1) + v),
            );
            items.extend(
                variant
                    .groups_of(cell)
                    .iter()
                    .map(|&g| group_base + g as usize * n + v),
            );
            for &k in variant.pairs_of(cell) {
                let p = &variant.pairs[k as usize];
                let ids = &pair_items[k as usize];
                if p.a as usize == cell {
                    if ids[v] != u32::MAX {
                        items.push(ids[v] as usize);
                    }
                } else {
                    // Every symbol of `a` that does not go with `v` here.
                    for (x, &id) in ids.iter().enumerate().take(n) {
                        if id != u32::MAX && p.ab[x] & 1 << v == 0 {
                            items.push(id as usize);
                        }
                    }
                }
            }
            let k = m.add_option(&items);
            debug_assert_eq!(k, cell * n + v);
        }
    }
    let mut combo_start = Vec::with_capacity(rules.cages.len() + 1);
    for (k, combos) in rules.combos.iter().enumerate() {
        combo_start.push(m.option_count() as u32);
        let base = cage_base + k * (n + 1);
        for &s in combos {
            items.clear();
            items.push(base + n);
            items.extend((0..n).filter(|&v| s >> v & 1 == 0).map(|v| base + v));
            m.add_option(&items);
        }
    }
    combo_start.push(m.option_count() as u32);
    (m, combo_start)
}

/// Each house as an all-different group of the matrix: its cells on one
/// side, its (house, symbol) items on the other (numbered as in [`matrix`]).
fn house_groups(layout: &Layout) -> Vec<(Vec<usize>, Vec<usize>)> {
    let n = layout.size();
    let cells = layout.cell_count();
    layout
        .houses()
        .iter()
        .enumerate()
        .map(|(h, house)| {
            let left = house.cells.iter().map(|&c| c as usize).collect();
            let right = (0..n).map(|v| cells + h * n + v).collect();
            (left, right)
        })
        .collect()
}

/// The variant rules' smaller groups as all-different groups of the
/// engine: every symbol's secondary item of the group on the left (see
/// [`matrix`]), the group's cells on the right.
fn small_groups(
    layout: &Layout,
    rules: &CageRules,
    variant: &RuleSet,
) -> Vec<(Vec<usize>, Vec<usize>)> {
    let n = layout.size();
    let group_base = group_base(layout, rules);
    variant
        .groups
        .iter()
        .enumerate()
        .map(|(g, cells)| {
            let left = (0..n).map(|v| group_base + g * n + v).collect();
            let right = cells.iter().map(|&c| c as usize).collect();
            (left, right)
        })
        .collect()
}

/// The first secondary item: the symbols of the variant rules' smaller
/// groups, `n` a group, come first.
fn group_base(layout: &Layout, rules: &CageRules) -> usize {
    let n = layout.size();
    layout.cell_count() + layout.houses().len() * n + rules.cages.len() * (n + 1)
}

/// The values of a solution's cell options (cage options are skipped).
fn decode(options: &[u32], n: usize, cells: usize) -> Vec<u8> {
    let mut v = vec![0; cells];
    for &k in options {
        let k = k as usize;
        if k < cells * n {
            v[k / n] = (k % n) as u8 + 1;
        }
    }
    v
}

fn conflict_error(layout: &Layout, c: Conflict, name: impl Fn(usize) -> String) -> SolveError {
    SolveError::Conflict {
        value: crate::grid::Alphabet::Digits.symbol(c.value),
        house: layout.house_name(c.house),
        first: name(c.first),
        second: name(c.second),
        conflict: c,
    }
}

/// Solves a puzzle: counts its solutions up to `limit` and keeps the first
/// `keep`. Conflicting givens are reported naming both cells and where they
/// were written.
pub fn solve(puzzle: &Puzzle, limit: u64, keep: usize) -> Result<Outcome, SolveError> {
    solve_within(puzzle, limit, keep, Budget::default())
}

/// [`solve`], giving up when `budget` runs out ([`SolveError::GaveUp`]).
pub fn solve_within(
    puzzle: &Puzzle,
    limit: u64,
    keep: usize,
    budget: Budget,
) -> Result<Outcome, SolveError> {
    if let Some(c) = puzzle.layout().first_conflict(puzzle.values()) {
        let mut e = conflict_error(puzzle.layout(), c, |cell| puzzle.describe_cell(cell));
        if let SolveError::Conflict { value, .. } = &mut e {
            *value = puzzle.alphabet().symbol(c.value);
        }
        return Err(e);
    }
    puzzle.check_cages().map_err(SolveError::Cages)?;
    puzzle.check_rules().map_err(SolveError::Rules)?;
    let mut solver =
        SudokuSolver::with_rules(puzzle.layout().clone(), puzzle.cages(), puzzle.rules())?;
    solver.set_budget(budget);
    solver.solve(puzzle.values(), limit, keep)
}

/// `layout` with the houses `rules` make (a diagonal, an extra region or a
/// disjoint group of as many cells as symbols) after its own: the houses
/// the solver and the hints reason on, and the candidates they leave.
pub fn houses_layout(layout: &Arc<Layout>, rules: &[Rule]) -> Arc<Layout> {
    with_houses(layout, &RuleSet::new(layout, rules))
}

fn with_houses(layout: &Arc<Layout>, variant: &RuleSet) -> Arc<Layout> {
    if variant.houses.is_empty() {
        layout.clone()
    } else {
        Arc::new(layout.with_extra_houses(&variant.houses))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....";

    fn values(s: &str) -> Vec<u8> {
        s.bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    #[test]
    fn solves_a_classic_uniquely() {
        let layout = Arc::new(Layout::classic());
        let mut s = SudokuSolver::new(layout.clone());
        let v = values(PUZZLE);
        let out = s.solve(&v, 2, 2).unwrap();
        assert_eq!(out.count, 1);
        let sol = &out.solutions[0];
        assert!(layout.is_solved(sol));
        assert!(v.iter().zip(sol).all(|(&g, &s)| g == 0 || g == s));
        // Reuse gives the same answer.
        let mut first = vec![0; 81];
        assert_eq!(s.solve_into(&v, 2, &mut first).unwrap(), 1);
        assert_eq!(&first, sol);
    }

    #[test]
    fn empty_grid_has_many_solutions() {
        let mut s = SudokuSolver::new(Arc::new(Layout::classic()));
        let out = s.solve(&[0; 81], 5, 5).unwrap();
        assert_eq!(out.count, 5);
        assert_eq!(out.solutions.len(), 5);
        for (i, a) in out.solutions.iter().enumerate() {
            assert!(
                out.solutions[i + 1..].iter().all(|b| b != a),
                "solutions are distinct"
            );
        }
    }

    #[test]
    fn conflicting_givens_name_both_cells() {
        let mut v = values(PUZZLE);
        v[0] = 3; // row 1 already has a 3 at r1c3
        let mut s = SudokuSolver::new(Arc::new(Layout::classic()));
        let e = s.solve(&v, 2, 1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "givens conflict: 3 appears twice in row 1 (columns 1-9), at r1c1 and r1c3"
        );
    }

    #[test]
    fn unsolvable_without_conflict_counts_zero() {
        // r1c1 can hold nothing: row 1 has 1-8 elsewhere, column 1 has 9.
        let mut v = vec![0u8; 81];
        for (c, slot) in v.iter_mut().enumerate().take(9).skip(1) {
            *slot = c as u8;
        }
        v[9 * 4] = 9;
        let mut s = SudokuSolver::new(Arc::new(Layout::classic()));
        assert_eq!(s.solve(&v, 2, 1).unwrap().count, 0);
    }

    /// Puzzles with many solutions: the counts after the pre-pass (singles
    /// and locked candidates) agree with a plain search of the matrix
    /// with the givens alone.
    #[test]
    fn pre_pass_keeps_counts_exact() {
        use crate::rng::Rng;
        use crate::solve::generate::{full_grid, thin};
        for (name, target, seed) in [("classic", 24, 1), ("6x6", 10, 2), ("twodoku", 50, 3)] {
            let layout = Arc::new(Layout::named(name).unwrap());
            let n = layout.size();
            let mut s = SudokuSolver::new(layout.clone());
            let mut plain =
                Dlx::new(&matrix(&layout, &CageRules::default(), &RuleSet::default()).0);
            let mut rng = Rng::new(seed);
            for round in 0..6 {
                let full = full_grid(&mut s, seed * 10 + round);
                let mut v = thin(&mut s, &full, target, seed);
                for _ in 0..rng.below(6) {
                    let c = rng.below(v.len() as u32) as usize;
                    v[c] = 0;
                }
                plain.reset();
                for (cell, &x) in v.iter().enumerate().filter(|&(_, &x)| x != 0) {
                    plain.select(cell * n + x as usize - 1).unwrap();
                }
                plain.set_subset_limit(0);
                let expected = plain.search(300, |_| {});
                let got = s.solve(&v, 300, 0).unwrap().count;
                assert_eq!(got, expected, "{name}, round {round}");
            }
        }
    }

    /// Random puzzles of several layouts, some with variant rules: thinned,
    /// then loosened to many solutions or given one wrong given (most then
    /// have none). The counts with and without the house filter agree
    /// exactly, and on the puzzles with no solution the filter searches
    /// fewer nodes in all.
    #[test]
    fn house_filter_keeps_counts_exact() {
        use crate::rng::Rng;
        use crate::solve::generate::{full_grid, thin};
        let mut rng = Rng::new(17);
        let (mut nodes, mut plain_nodes) = (0, 0);
        let mut seen = [false; 3];
        for (name, rules, target) in [
            ("4x4", &[][..], 4),
            ("6x6", &[], 9),
            ("classic", &[], 26),
            ("classic", &["diagonal+", "diagonal-"], 28),
            ("classic", &["nonconsecutive"], 40),
            ("twodoku", &[], 50),
            ("12x12", &[], 70),
        ] {
            let layout = Arc::new(Layout::named(name).unwrap());
            let rules: Vec<Rule> = rules
                .iter()
                .flat_map(|r| Rule::parse(r, &layout).unwrap())
                .collect();
            let mut s = SudokuSolver::with_rules(layout.clone(), &[], &rules).unwrap();
            for round in 0..2 {
                let full = full_grid(&mut s, rng.next_u64());
                let mut v = thin(&mut s, &full, target, round);
                if round % 2 == 0 {
                    for _ in 0..1 + rng.below(8) {
                        let c = rng.below(v.len() as u32) as usize;
                        v[c] = 0;
                    }
                } else {
                    let givens: Vec<usize> = (0..v.len()).filter(|&c| v[c] != 0).collect();
                    let c = givens[round as usize % givens.len()];
                    v[c] = v[c] % layout.size() as u8 + 1;
                }
                s.set_house_filter(false);
                let without = s.solve(&v, 500, 0).map(|o| o.count);
                let plain = s.take_node_count();
                s.set_house_filter(true);
                let with = s.solve(&v, 500, 0).map(|o| o.count);
                let filtered = s.take_node_count();
                assert_eq!(with, without, "{name} {rules:?}, round {round}");
                if without == Ok(0) {
                    (nodes, plain_nodes) = (nodes + filtered, plain_nodes + plain);
                }
                if let Ok(count) = without {
                    seen[count.min(2) as usize] = true;
                }
            }
        }
        assert_eq!(seen, [true; 3], "no solution, one and several all met");
        assert!(nodes < plain_nodes, "{nodes} nodes, {plain_nodes} without");
    }

    /// Generated renban puzzles (with a sumless cage added to some), with
    /// givens taken out or changed so that they have none, one or many
    /// solutions: the counts with and without the group filter agree, and
    /// the filter searches fewer nodes in all.
    #[test]
    fn group_filter_keeps_counts_exact() {
        use crate::rng::Rng;
        use crate::solve::generate::variant;
        let mut rng = Rng::new(23);
        let mut seen = [false; 3];
        for (seed, lines_as) in (1..=4).flat_map(|s| [(s, "renban"), (s, "groups")]) {
            let made = variant("renban", seed).unwrap();
            let p = made.puzzle;
            let mut rules = p.rules().to_vec();
            if lines_as == "groups" {
                // The lines as groups whose symbols differ (cages without
                // a sum), which the search filters and nothing else
                // matches: a renban line is also a cage of its runs,
                // whose exact cover leaves the filter nothing here.
                for rule in &mut rules {
                    if let Rule::Renban(cells) = rule {
                        *rule = Rule::Distinct(cells.clone());
                    }
                }
            }
            if seed % 2 == 0 {
                // r1c1, r2c2, r3c3 and r1c5.
                rules.push(Rule::Distinct(vec![0, 10, 20, 4]));
            }
            let mut s = SudokuSolver::with_rules(p.layout().clone(), &[], &rules).unwrap();
            for round in 0..3 {
                let mut v = p.values().to_vec();
                let givens: Vec<usize> = (0..v.len()).filter(|&c| v[c] != 0).collect();
                if round == 1 {
                    let c = givens[rng.below(givens.len() as u32) as usize];
                    v[c] = v[c] % 9 + 1;
                } else {
                    for _ in 0..round * 3 {
                        v[givens[rng.below(givens.len() as u32) as usize]] = 0;
                    }
                }
                s.set_group_filter(false);
                let without = s.solve(&v, 200, 0).map(|o| o.count);
                s.set_group_filter(true);
                let with = s.solve(&v, 200, 0).map(|o| o.count);
                assert_eq!(with, without, "renban #{seed} ({lines_as}), round {round}");
                if let Ok(count) = without {
                    seen[count.min(2) as usize] = true;
                }
            }
        }
        assert_eq!(seen, [true; 3], "no solution, one and several all met");
        // Three odd cells of a group that their houses leave 1 and 3 alone
        // (r1c1, r2c4 and r3c7): no solution, which the filter sees before
        // any choice and the search alone only by trying.
        let layout = Arc::new(Layout::classic());
        let (a, b, c) = (0, 12, 24);
        let mut rules = vec![Rule::Distinct(vec![a, b, c])];
        rules.extend([a, b, c].map(Rule::Odd));
        let mut v = vec![0u8; 81];
        for (cell, value) in [(4, 5), (5, 7), (7, 9), (39, 9), (18, 5), (78, 7)] {
            v[cell] = value;
        }
        let mut s = SudokuSolver::with_rules(layout, &[], &rules).unwrap();
        s.set_group_filter(false);
        assert_eq!(s.solve(&v, 2, 0).unwrap().count, 0);
        let plain = s.take_node_count();
        s.set_group_filter(true);
        assert_eq!(s.solve(&v, 2, 0).unwrap().count, 0);
        assert_eq!(
            s.take_node_count(),
            0,
            "against {plain} nodes without the filter"
        );
        assert!(plain > 0);
    }

    /// Thinned puzzles of several layouts, then with more givens removed so
    /// that they have many solutions: the counts with and without the
    /// engine's subset rule agree exactly.
    #[test]
    fn subset_rule_keeps_counts_exact() {
        use crate::solve::generate::{full_grid, thin};
        for (name, target, extra, seed) in [
            ("classic", 24, 6, 1),
            ("6x6", 10, 4, 2),
            ("twodoku", 50, 8, 3),
            ("samurai", 110, 12, 4),
        ] {
            let layout = Arc::new(Layout::named(name).unwrap());
            let mut s = SudokuSolver::new(layout.clone());
            let full = full_grid(&mut s, seed);
            let mut v = thin(&mut s, &full, target, seed);
            let mut counts = Vec::new();
            for removed in 0..=extra {
                if removed > 0 {
                    let c = (0..v.len()).find(|&c| v[c] != 0).unwrap();
                    v[c] = 0;
                }
                s.set_subset_limit(3);
                let with = s.solve(&v, 500, 0).unwrap().count;
                s.set_subset_limit(0);
                let without = s.solve(&v, 500, 0).unwrap().count;
                assert_eq!(with, without, "{name} with {removed} more givens removed");
                counts.push(with);
            }
            assert_eq!(counts[0], 1, "{name}: thinned puzzles stay unique");
            assert!(counts.iter().any(|&c| c > 1), "{name}: {counts:?}");
        }
    }

    /// Every solution of `values` under the houses alone (a plain search),
    /// kept when it gives every cage its sum with no symbol twice.
    fn filtered_count(layout: &Arc<Layout>, values: &[u8], cages: &[Cage]) -> Option<u64> {
        let mut plain = SudokuSolver::new(layout.clone());
        let all = plain.solve(values, 50_000, 50_000).unwrap();
        if all.count >= 50_000 {
            return None;
        }
        let fits = |sol: &Vec<u8>| {
            cages.iter().all(|cage| {
                let mut symbols = 0u32;
                let mut sum = 0;
                for &c in &cage.cells {
                    symbols |= 1 << sol[c as usize];
                    sum += sol[c as usize] as u32;
                }
                sum == cage.sum && symbols.count_ones() as usize == cage.cells.len()
            })
        };
        Some(all.solutions.iter().filter(|s| fits(s)).count() as u64)
    }

    /// Small killers cut at random, some cages dropped (so that many have
    /// several solutions) and some givens added: the counts of the cage
    /// encoding (with its derived cages and the pre-pass) agree with a plain
    /// search of the houses filtered by the cages, and so do the solutions.
    #[test]
    fn cage_counts_match_a_filtered_plain_search() {
        use crate::rng::Rng;
        use crate::solve::generate::{cut_cages, full_grid};
        let mut checked = 0;
        let mut several = 0;
        for (name, rounds, givens) in [("4x4", 60, 0..3), ("6x6", 60, 8..14)] {
            let layout = Arc::new(Layout::named(name).unwrap());
            let mut plain = SudokuSolver::new(layout.clone());
            let mut rng = Rng::new(7);
            for round in 0..rounds {
                let full = full_grid(&mut plain, round);
                let mut cages = cut_cages(&layout, &full, 2 + rng.below(3) as usize, round);
                for _ in 0..rng.below(cages.len() as u32 / 2 + 1) {
                    cages.remove(rng.below(cages.len() as u32) as usize);
                }
                let mut values = vec![0u8; full.len()];
                let g = givens.start + rng.below((givens.end - givens.start) as u32) as usize;
                for _ in 0..g {
                    let c = rng.below(full.len() as u32) as usize;
                    values[c] = full[c];
                }
                let Some(expected) = filtered_count(&layout, &values, &cages) else {
                    continue;
                };
                let mut s = SudokuSolver::with_cages(layout.clone(), &cages).unwrap();
                let out = s.solve(&values, 50_000, 50_000).unwrap();
                assert_eq!(out.count, expected, "{name}, round {round}");
                assert!(expected >= 1, "the grid the cages came from solves them");
                assert!(out.solutions.contains(&full), "{name}, round {round}");
                let limited = s.solve(&values, 2, 0).unwrap().count;
                assert_eq!(
                    limited,
                    expected.min(2),
                    "{name}, round {round}: counting to 2"
                );
                checked += 1;
                several += usize::from(expected > 1);
            }
        }
        assert!(checked >= 100, "only {checked} cases checked");
        assert!(several >= 20, "only {several} cases with several solutions");
    }

    /// A 6x6 killer with no givens, made to have one solution: counted to 2,
    /// it has exactly one, the grid it was cut from; changing one sum (by
    /// moving 1 from a cage to its neighbour) leaves it with none or other
    /// solutions, never the old one.
    #[test]
    fn a_generated_killer_is_unique_and_its_sums_matter() {
        use crate::solve::generate::killer;
        let layout = Arc::new(Layout::named("6x6").unwrap());
        let (full, cages) = killer(&layout, 4, 5);
        let mut s = SudokuSolver::with_cages(layout.clone(), &cages).unwrap();
        let out = s.solve(&[0; 36], 2, 2).unwrap();
        assert_eq!(out.count, 1);
        assert_eq!(out.solutions[0], full);
        let mut changed = cages.clone();
        changed[0].sum += 1;
        changed[1].sum -= 1;
        let mut s = SudokuSolver::with_cages(layout.clone(), &changed).unwrap();
        let out = s.solve(&[0; 36], 2, 2).unwrap();
        assert!(!out.solutions.contains(&full));
    }

    #[test]
    fn a_cage_repeating_a_given_has_no_solution() {
        let layout = Arc::new(Layout::classic());
        // r1c1 and r2c2 share a box; a cage of r1c1 and r3c4 both given 5.
        let mut v = vec![0u8; 81];
        v[0] = 5;
        v[21] = 5;
        let cages = [Cage::new(10, vec![0, 21])];
        let mut s = SudokuSolver::with_cages(layout, &cages).unwrap();
        assert_eq!(s.solve(&v, 2, 0).unwrap().count, 0);
    }

    #[test]
    fn cages_the_encoding_cannot_take_are_errors_not_panics() {
        let layout = Arc::new(Layout::named("4x4").unwrap());
        for cage in [
            Cage::new(10, vec![0, 1, 2, 3, 4]),
            Cage::new(3, vec![0, 16]),
            Cage::new(3, vec![0, 0]),
        ] {
            let e = SudokuSolver::with_cages(layout.clone(), &[cage]).unwrap_err();
            assert!(matches!(e, SolveError::Unsupported(_)), "{e}");
        }
    }
}
