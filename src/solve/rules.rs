//! Variant rules in the exact-cover encoding, and the checks the search
//! makes of the rules that exact cover cannot say.
//!
//! Each rule is compiled into the smallest pieces that say it:
//!
//! - **extra houses**: a group of cells whose symbols differ and which has
//!   as many cells as symbols (a diagonal, a full extra region, a disjoint
//!   group) becomes a house of the layout, with its (house, symbol)
//!   primary items; every reduction over houses then uses it;
//! - **sets**: a group that holds exactly one of a few sets of symbols (a
//!   renban line, whose sets are its runs of consecutive symbols) is, for
//!   the search, a cage whose combinations are the sets;
//! - **groups**: a smaller group (an extra region of fewer cells, a cage
//!   without a sum, a renban line) has a secondary item per symbol,
//!   covered by the cell options of its cells, so a symbol is placed in it
//!   at most once; the search also filters it as an all-different group;
//! - **cell masks**: the symbols a cell may hold (odd, even, a
//!   thermometer's cell by its place on the bulb's side);
//! - **pairs**: two cells and the pairs of symbols they may hold together
//!   (knight's and king's moves, dots, XV, comparison signs, thermometer
//!   steps, whispers, palindromes, and what the sum rules imply between two
//!   of their cells). A pair is written as secondary items, Knuth's
//!   exact cover with secondary items: for cell `a`'s symbol `x` whose
//!   partners at `b` are restricted, one item `(pair, x)` covered by the
//!   option "`x` in `a`" and by every option "`y` in `b`" with `y` not a
//!   partner of `x`. A solution covers a secondary item at most once, so
//!   the two options never stand together, and the engine drops the one
//!   when it takes the other, as it does for houses;
//! - **checks**: rules over many cells whose sums or spans no pair says
//!   (arrows, little killers, sandwiches, region sum lines, renban and
//!   between lines). The search calls [`RuleSet::settle`] after each
//!   option it takes, with the symbols of the cells that changed; it
//!   answers from bounds (the least and greatest sums the cells can
//!   make), which never cuts off a solution, and exactly once every cell
//!   is filled.
//!
//! Enumerating a sum rule's fillings as options (as cages are) was the
//! alternative: a little killer or an arrow may repeat symbols and a
//! sandwich spans a whole row, so their fillings run into the thousands or
//! millions, where a bound costs a few operations per cell.

use crate::grid::{Layout, MAX_SIZE, Mark, Rule, box_parts, diagonal_cells, disjoint_groups};

/// Rounds of narrowing the pairs and checks in [`RuleSet::feasible`]
/// (whether a filling keeps the rules: filled cells settle in one round,
/// and a false answer needs none after the first). The search narrows to
/// a fixpoint instead ([`RuleSet::settle`]).
const PROPAGATION_ROUNDS: usize = 4;

/// Two cells and the symbols they may hold together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Pair {
    pub a: u32,
    pub b: u32,
    /// `ab[x]`: the symbols (bits) `b` may hold when `a` holds `x + 1`.
    pub ab: [u32; MAX_SIZE],
    /// `ba[y]`: the symbols `a` may hold when `b` holds `y + 1`.
    pub ba: [u32; MAX_SIZE],
}

impl Pair {
    /// The symbols `other` may hold when `cell` (one of the two) holds the
    /// symbols of `mask`.
    #[inline]
    pub fn partners(&self, cell: u32, mut mask: u32) -> u32 {
        let table = if cell == self.a { &self.ab } else { &self.ba };
        let mut out = 0;
        while mask != 0 {
            out |= table[mask.trailing_zeros() as usize];
            mask &= mask - 1;
        }
        out
    }

    /// The other cell of the pair.
    #[inline]
    pub fn other(&self, cell: u32) -> u32 {
        if cell == self.a { self.b } else { self.a }
    }
}

/// A rule over many cells that the search checks by bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Check {
    /// The cells add up to `sum` (symbols may repeat unless `distinct`:
    /// the cells share a house).
    Sum {
        cells: Vec<u32>,
        sum: u32,
        distinct: bool,
    },
    /// The line adds up to the number the circle's cells make.
    Arrow {
        circle: Vec<u32>,
        line: Vec<u32>,
        distinct: bool,
    },
    /// Every part adds up to the same sum; each part's cells lie in one box
    /// and differ.
    EqualSums { parts: Vec<Vec<u32>> },
    /// Between the cells holding 1 and `n`, the cells add up to `sum`.
    Sandwich { cells: Vec<u32>, sum: u32 },
    /// The cells hold consecutive symbols.
    Renban { cells: Vec<u32> },
    /// The middle cells lie strictly between the two ends.
    Between { ends: [u32; 2], middle: Vec<u32> },
}

/// A puzzle's variant rules, compiled.
#[derive(Clone, Debug, Default)]
pub(super) struct RuleSet {
    /// Groups of as many cells as symbols: houses of the solver's layout.
    pub houses: Vec<Vec<u32>>,
    /// Smaller groups whose symbols differ.
    pub groups: Vec<Vec<u32>>,
    /// Groups of cells that hold exactly one of a few sets of symbols (a
    /// renban line's runs), for the search: cages of the exact cover
    /// whose combinations are the sets (see [`super::cage_cover`]).
    pub sets: Vec<(Vec<u32>, Vec<u32>)>,
    /// The symbols each cell may hold (all bits when no rule limits it).
    pub masks: Vec<u32>,
    pub pairs: Vec<Pair>,
    /// The pairs of each cell: `cell_pairs[pair_start[c]..pair_start[c + 1]]`.
    cell_pairs: Vec<u32>,
    pair_start: Vec<u32>,
    /// The groups of each cell, likewise.
    cell_groups: Vec<u32>,
    group_start: Vec<u32>,
    pub checks: Vec<Check>,
    /// Every cell some check names, once each.
    check_cells: Vec<u32>,
    /// Scratch for [`RuleSet::feasible`]: each cell's symbols.
    mask_scratch: Vec<u32>,
    /// What the last [`RuleSet::feasible`] or [`RuleSet::settle`] ruled
    /// out: cells and symbols.
    narrowed: Vec<(u32, u32)>,
    /// The cells of each check: `check_list[check_at[k]..check_at[k + 1]]`,
    /// and the checks of each cell, likewise.
    check_list: Vec<u32>,
    check_at: Vec<u32>,
    cell_checks: Vec<u32>,
    cell_check_at: Vec<u32>,
    /// The state [`RuleSet::settle`] keeps from search node to search
    /// node.
    live: Live,
    /// Scratch for the search: the cells whose options changed.
    pub changed: Vec<u32>,
    n: usize,
}

/// Each cell's symbols as the search stands, kept between its nodes: the
/// cells whose options changed are set anew ([`RuleSet::set_symbols`]),
/// and only the pairs and checks they touch are looked at again.
#[derive(Clone, Debug, Default)]
struct Live {
    /// The symbols of each cell (one bit once filled).
    mask: Vec<u32>,
    /// Cells whose pairs and checks are to be looked at, a flag per cell.
    queue: Vec<u32>,
    queued: Vec<bool>,
    /// Checks to narrow, a flag per check.
    checks: Vec<u32>,
    check_queued: Vec<bool>,
    /// Cells narrowed by this settling and their symbols before it, a
    /// flag per cell.
    touched: Vec<(u32, u32)>,
    is_touched: Vec<bool>,
    /// A check's cells' symbols before it narrows them.
    before: Vec<u32>,
}

impl RuleSet {
    /// Compiles `rules` on `layout` (checked beforehand by
    /// [`crate::grid::check_rules`]).
    pub fn new(layout: &Layout, rules: &[Rule]) -> RuleSet {
        RuleSet::compile(layout, rules, None)
    }

    /// Compiles `rules`, or only rule `only` of them (the others still
    /// telling which neighbours carry marks).
    fn compile(layout: &Layout, rules: &[Rule], only: Option<usize>) -> RuleSet {
        let n = layout.size();
        let cells = layout.cell_count();
        let mut set = RuleSet {
            masks: vec![full_mask(n); cells],
            mask_scratch: vec![0; cells],
            changed: Vec::with_capacity(cells),
            n,
            ..RuleSet::default()
        };
        let mut pairs = Pairs {
            list: Vec::new(),
            n,
        };
        let orth = neighbours(layout, &[(0, 1), (1, 0), (0, -1), (-1, 0)]);
        for (i, rule) in rules.iter().enumerate() {
            if only.is_some_and(|o| o != i) {
                continue;
            }
            set.add_rule(layout, rules, rule, only, &orth, &mut pairs);
        }
        set.keep_pairs(layout, pairs.list);
        set.index_cells(cells);
        set
    }

    /// Adds what `rule` (one of `rules`) asks: houses and groups, the
    /// symbols a cell may hold, pairs (to `pairs`) and checks. `only` is
    /// as for [`RuleSet::compile`]; `orth` is the layout's orthogonal
    /// neighbours.
    fn add_rule(
        &mut self,
        layout: &Layout,
        rules: &[Rule],
        rule: &Rule,
        only: Option<usize>,
        orth: &[(u32, u32)],
        pairs: &mut Pairs,
    ) {
        let n = self.n;
        match rule {
            Rule::Diagonal(d) => self.add_group(diagonal_cells(layout, *d)),
            Rule::Region(c) | Rule::Distinct(c) => self.add_group(c.clone()),
            Rule::DisjointGroups => {
                for g in disjoint_groups(layout) {
                    self.add_group(g);
                }
            }
            Rule::Odd(c) => self.masks[*c as usize] &= odd_mask(n),
            Rule::Even(c) => self.masks[*c as usize] &= full_mask(n) & !odd_mask(n),
            Rule::AntiKnight => {
                let steps = [
                    (1, 2),
                    (2, 1),
                    (1, -2),
                    (2, -1),
                    (-1, 2),
                    (-2, 1),
                    (-1, -2),
                    (-2, -1),
                ];
                pairs.differ_outside_houses(layout, &neighbours(layout, &steps));
            }
            Rule::AntiKing => {
                let steps = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
                pairs.differ_outside_houses(layout, &neighbours(layout, &steps));
            }
            Rule::NonConsecutive => {
                for &(a, b) in orth {
                    pairs.add(a, b, &|x, y| x.abs_diff(y) != 1);
                }
            }
            Rule::Difference {
                cells: [a, b],
                value,
            } => {
                let v = *value;
                pairs.add(*a, *b, &|x, y| x.abs_diff(y) == v);
            }
            Rule::Ratio {
                cells: [a, b],
                value,
            } => {
                let v = *value;
                pairs.add(*a, *b, &|x, y| x * v == y || y * v == x);
            }
            Rule::Xv { cells: [a, b], sum } => {
                let s = *sum;
                pairs.add(*a, *b, &|x, y| x + y == s);
            }
            Rule::Less { cells: [a, b] } => pairs.add(*a, *b, &|x, y| x < y),
            Rule::AllGiven(mark) => pairs.unmarked(rules, *mark, orth),
            Rule::Thermometer(cs) => self.add_thermometer(cs, pairs),
            Rule::Whispers { cells: cs, gap } => {
                let g = *gap;
                for w in cs.windows(2) {
                    pairs.add(w[0], w[1], &|x, y| x.abs_diff(y) >= g);
                }
            }
            Rule::Palindrome(cs) => {
                let len = cs.len();
                for i in 0..len / 2 {
                    pairs.add(cs[i], cs[len - 1 - i], &|x, y| x == y);
                }
            }
            Rule::Renban(cs) => self.add_renban(cs, pairs, only.is_none()),
            // Checked: two different ends; guarded all the same.
            Rule::Between(cs) if cs.len() < 2 => {}
            Rule::Between(cs) => self.add_between(cs, pairs),
            Rule::Arrow { circle, line } => self.add_arrow(layout, circle, line, pairs),
            Rule::LittleKiller { sum, .. } => {
                let cells = rule.cells(layout);
                self.checks.push(Check::Sum {
                    distinct: all_share_a_house(layout, &cells),
                    cells,
                    sum: *sum,
                })
            }
            Rule::Sandwich { sum, .. } => self.checks.push(Check::Sandwich {
                cells: rule.cells(layout),
                sum: *sum,
            }),
            Rule::RegionSum(cs) => self.add_region_sum(layout, cs),
        }
    }

    /// A group of cells whose symbols differ: a house when it has as many
    /// cells as symbols; one cell alone asks nothing.
    fn add_group(&mut self, cells: Vec<u32>) {
        if cells.len() == self.n {
            self.houses.push(cells);
        } else if cells.len() > 1 {
            self.groups.push(cells);
        }
    }

    /// A thermometer: the i-th cell from the bulb is at least i + 1 and
    /// leaves room for the cells after it, and each cell is at least as many
    /// above an earlier one as it is cells away.
    fn add_thermometer(&mut self, cs: &[u32], pairs: &mut Pairs) {
        let n = self.n;
        let len = cs.len() as u32;
        for (i, &a) in cs.iter().enumerate() {
            let (lo, hi) = (i as u32 + 1, n as u32 - (len - 1 - i as u32));
            self.masks[a as usize] &= range_mask(lo, hi);
            for (j, &b) in cs.iter().enumerate().skip(i + 1) {
                let gap = (j - i) as u32;
                pairs.add(a, b, &|x, y| y >= x + gap);
            }
        }
    }

    /// A renban line: its cells differ and lie within the line's length of
    /// each other, and the whole line is a run (checked during the search).
    /// For the search (`as_group`) its cells are also a group, whatever
    /// its length, never a house: the search then matches them to
    /// symbols of their own as a whole (the all-different filter), where
    /// the pairs see two cells at a time; and a set whose masks are the
    /// runs, so that exact cover chooses a run and places each of its
    /// symbols on the line. The hints and the houses they reason on take
    /// the line from its pairs and check alone.
    fn add_renban(&mut self, cs: &[u32], pairs: &mut Pairs, as_group: bool) {
        let mut group = cs.to_vec();
        group.sort_unstable();
        group.dedup();
        if as_group && group.len() > 1 {
            // Every run of as many consecutive symbols as the line has
            // distinct cells (none when it has more cells than symbols,
            // which `check_rules` refuses).
            let len = group.len();
            let run = full_mask(len.min(self.n));
            let runs = (0..(self.n + 1).saturating_sub(len))
                .map(|lo| run << lo)
                .collect();
            self.sets.push((group.clone(), runs));
            self.groups.push(group);
        }
        let span = cs.len() as u32 - 1;
        for (i, &a) in cs.iter().enumerate() {
            for &b in &cs[i + 1..] {
                pairs.add(a, b, &|x, y| x != y && x.abs_diff(y) <= span);
            }
        }
        self.checks.push(Check::Renban { cells: cs.to_vec() });
    }

    /// A between line of two ends or more: with a middle, the ends differ
    /// by 2 or more and from each middle cell; the middle lies between them
    /// (checked during the search).
    fn add_between(&mut self, cs: &[u32], pairs: &mut Pairs) {
        let (e1, e2) = (cs[0], cs[cs.len() - 1]);
        let middle: Vec<u32> = cs[1..cs.len() - 1].to_vec();
        if !middle.is_empty() {
            pairs.add(e1, e2, &|x, y| x.abs_diff(y) >= 2);
            for &m in &middle {
                pairs.add(e1, m, &|x, y| x != y);
                pairs.add(e2, m, &|x, y| x != y);
            }
        }
        self.checks.push(Check::Between {
            ends: [e1, e2],
            middle,
        });
    }

    /// An arrow: a one-cell circle exceeds each line cell by at least the
    /// other line cells' ones; the sum itself is checked during the search.
    fn add_arrow(&mut self, layout: &Layout, circle: &[u32], line: &[u32], pairs: &mut Pairs) {
        if circle.len() == 1 {
            let rest = line.len() as u32 - 1;
            for &l in line {
                pairs.add(circle[0], l, &|x, y| x >= y + rest);
            }
        }
        self.checks.push(Check::Arrow {
            circle: circle.to_vec(),
            line: line.to_vec(),
            distinct: all_share_a_house(layout, line),
        });
    }

    /// A region sum line: its parts in each box add up alike (checked
    /// during the search) when there are two or more.
    fn add_region_sum(&mut self, layout: &Layout, cs: &[u32]) {
        let parts = box_parts(layout, cs);
        // A line that passes a cell twice is left to the
        // bounds that allow repeats.
        let twice = parts.iter().any(|p| !all_share_a_house(layout, p));
        if parts.len() > 1 && !twice {
            self.checks.push(Check::EqualSums { parts });
        }
    }

    /// Keeps the `pairs` that ask more than what a house or a group already
    /// does (pairs of cells sharing one that only need to differ add
    /// nothing).
    fn keep_pairs(&mut self, layout: &Layout, mut pairs: Vec<Pair>) {
        let full = full_mask(self.n);
        pairs.retain(|p| {
            let only_differ = (0..self.n).all(|x| p.ab[x] == full & !(1 << x));
            !(only_differ
                && (share_house(layout, p.a, p.b)
                    || self
                        .houses
                        .iter()
                        .chain(&self.groups)
                        .any(|g| g.contains(&p.a) && g.contains(&p.b))))
        });
        self.pairs = pairs;
    }

    /// Indexes the pairs and groups of each of the `cells`, and the cells
    /// the checks name.
    fn index_cells(&mut self, cells: usize) {
        let mut per_cell = vec![Vec::new(); cells];
        for (k, p) in self.pairs.iter().enumerate() {
            per_cell[p.a as usize].push(k as u32);
            per_cell[p.b as usize].push(k as u32);
        }
        (self.cell_pairs, self.pair_start) = flatten(per_cell);
        let mut per_cell = vec![Vec::new(); cells];
        for (g, cs) in self.groups.iter().enumerate() {
            for &c in cs {
                per_cell[c as usize].push(g as u32);
            }
        }
        (self.cell_groups, self.group_start) = flatten(per_cell);
        let mut seen = vec![false; cells];
        let mut per_cell = vec![Vec::new(); cells];
        self.check_at = vec![0];
        for (k, check) in self.checks.iter().enumerate() {
            let mut cs = check.cells();
            cs.sort_unstable();
            cs.dedup();
            for &c in &cs {
                per_cell[c as usize].push(k as u32);
                if !std::mem::replace(&mut seen[c as usize], true) {
                    self.check_cells.push(c);
                }
            }
            self.check_list.extend(&cs);
            self.check_at.push(self.check_list.len() as u32);
        }
        (self.cell_checks, self.cell_check_at) = flatten(per_cell);
        let longest = self.check_at.windows(2).map(|w| w[1] - w[0]).max();
        self.live = Live {
            mask: vec![full_mask(self.n); cells],
            queue: Vec::with_capacity(cells),
            queued: vec![false; cells],
            checks: Vec::with_capacity(self.checks.len()),
            check_queued: vec![false; self.checks.len()],
            touched: Vec::with_capacity(cells),
            is_touched: vec![false; cells],
            before: vec![0; longest.unwrap_or(0) as usize],
        };
    }

    /// Sets the symbols `cell` may hold as the search stands (one bit once
    /// filled), for the next [`RuleSet::settle`].
    #[inline]
    pub fn set_symbols(&mut self, cell: usize, mask: u32) {
        let live = &mut self.live;
        live.mask[cell] = mask;
        if !live.queued[cell] {
            live.queued[cell] = true;
            live.queue.push(cell as u32);
        }
    }

    /// Narrows the symbols set by [`RuleSet::set_symbols`] (and those kept
    /// from before) by the pairs of the cells set, and the pairs and checks
    /// of every cell that narrows, until nothing changes: arc consistency
    /// over the pairs, bounds over the checks. What goes is left in
    /// [`RuleSet::narrowed`]. [`RuleSet::settled`] must follow, saying
    /// whether the search could take it out.
    pub fn settle(&mut self) -> bool {
        let ok = self.settle_queue();
        self.narrowed.clear();
        if ok {
            let live = &self.live;
            self.narrowed.extend(
                live.touched
                    .iter()
                    .map(|&(c, was)| (c, was & !live.mask[c as usize]))
                    .filter(|&(_, gone)| gone != 0),
            );
        }
        let live = &mut self.live;
        for &c in &live.queue {
            live.queued[c as usize] = false;
        }
        live.queue.clear();
        for &k in &live.checks {
            live.check_queued[k as usize] = false;
        }
        live.checks.clear();
        ok
    }

    /// Ends a [`RuleSet::settle`]: `ok` when the search took out what it
    /// narrowed; otherwise the symbols go back to what they were before
    /// it (the search backtracks).
    pub fn settled(&mut self, ok: bool) {
        let live = &mut self.live;
        for &(c, was) in &live.touched {
            if !ok {
                live.mask[c as usize] = was;
            }
            live.is_touched[c as usize] = false;
        }
        live.touched.clear();
    }

    fn settle_queue(&mut self) -> bool {
        let n = self.n;
        loop {
            while let Some(c) = self.live.queue.pop() {
                let c = c as usize;
                self.live.queued[c] = false;
                let (a, b) = (self.pair_start_of(c), self.pair_start_of(c + 1));
                for j in a..b {
                    let p = &self.pairs[self.cell_pairs[j] as usize];
                    let o = p.other(c as u32) as usize;
                    let m = &self.live.mask;
                    // Each side keeps the symbols with a partner left.
                    let ko = m[o] & p.partners(c as u32, m[c]);
                    if ko != m[o] && !self.live.narrow(o, ko) {
                        return false;
                    }
                    let m = &self.live.mask;
                    let kc = m[c] & p.partners(o as u32, m[o]);
                    if kc != m[c] && !self.live.narrow(c, kc) {
                        return false;
                    }
                }
                if !self.cell_checks.is_empty() {
                    let (a, b) = (
                        self.cell_check_at[c] as usize,
                        self.cell_check_at[c + 1] as usize,
                    );
                    for &k in &self.cell_checks[a..b] {
                        if !self.live.check_queued[k as usize] {
                            self.live.check_queued[k as usize] = true;
                            self.live.checks.push(k);
                        }
                    }
                }
            }
            let Some(k) = self.live.checks.pop() else {
                return true;
            };
            let k = k as usize;
            self.live.check_queued[k] = false;
            let cells = &self.check_list[self.check_at[k] as usize..self.check_at[k + 1] as usize];
            let live = &mut self.live;
            for (slot, &c) in live.before.iter_mut().zip(cells) {
                *slot = live.mask[c as usize];
            }
            let mut ok = self.checks[k].narrow(&mut live.mask, n);
            // What the check narrowed is noted as any narrowing, every cell
            // of it even when one is left with none.
            for (i, &c) in cells.iter().enumerate() {
                let (was, now) = (live.before[i], live.mask[c as usize]);
                if was != now {
                    live.mask[c as usize] = was;
                    ok &= live.narrow(c as usize, now);
                }
            }
            if !ok {
                return false;
            }
        }
    }

    /// Where the pairs of `cell` start in `cell_pairs` (`cell` may be the
    /// cell count: the end).
    #[inline]
    fn pair_start_of(&self, cell: usize) -> usize {
        self.pair_start.get(cell).map_or(0, |&s| s as usize)
    }

    /// True when the rules add nothing.
    pub fn is_empty(&self) -> bool {
        self.houses.is_empty()
            && self.groups.is_empty()
            && self.pairs.is_empty()
            && self.checks.is_empty()
            && self.masks.iter().all(|&m| m == full_mask(self.n))
    }

    /// The pairs of `cell`.
    #[inline]
    pub fn pairs_of(&self, cell: usize) -> &[u32] {
        if self.pair_start.is_empty() {
            return &[];
        }
        &self.cell_pairs[self.pair_start[cell] as usize..self.pair_start[cell + 1] as usize]
    }

    /// The smaller groups of `cell`.
    #[inline]
    pub fn groups_of(&self, cell: usize) -> &[u32] {
        if self.group_start.is_empty() {
            return &[];
        }
        &self.cell_groups[self.group_start[cell] as usize..self.group_start[cell + 1] as usize]
    }

    /// Whether the checks can still be met, with `mask(cell)` the symbols
    /// each cell may hold (one bit once filled). Bounds only: true may be
    /// wrong while cells are open, never false; exact when all are filled.
    /// The symbols the checks rule out are left in [`RuleSet::narrowed`].
    pub fn feasible(&mut self, mask: impl Fn(u32) -> u32) -> bool {
        self.narrowed.clear();
        if self.checks.is_empty() && self.pairs.is_empty() {
            return true;
        }
        let cells = self.mask_scratch.len() as u32;
        for c in 0..cells {
            self.mask_scratch[c as usize] = mask(c);
        }
        let mut m = std::mem::take(&mut self.mask_scratch);
        let ok = self.propagate(&mut m, PROPAGATION_ROUNDS);
        self.mask_scratch = m;
        if !ok {
            return false;
        }
        let m = &self.mask_scratch;
        for c in 0..cells {
            let gone = mask(c) & !m[c as usize];
            if gone != 0 {
                self.narrowed.push((c, gone));
            }
        }
        true
    }

    /// Narrows the symbols `m` of every cell by the pairs (each keeps the
    /// symbols with a partner left in its other cell: arc consistency) and
    /// the checks (bounds), for up to `rounds` rounds or until nothing
    /// changes, since narrowing one can narrow another. False when a cell
    /// is left with none.
    fn propagate(&self, m: &mut [u32], rounds: usize) -> bool {
        for _ in 0..rounds {
            let mut changed = false;
            for p in &self.pairs {
                let (a, b) = (p.a as usize, p.b as usize);
                let ka = m[a] & p.partners(p.b, m[b]);
                let kb = m[b] & p.partners(p.a, ka);
                if ka == 0 || kb == 0 {
                    return false;
                }
                changed |= ka != m[a] || kb != m[b];
                m[a] = ka;
                m[b] = kb;
            }
            let count = |m: &[u32]| -> u32 {
                self.check_cells
                    .iter()
                    .map(|&c| m[c as usize].count_ones())
                    .sum()
            };
            let before = count(m);
            if !self.checks.iter().all(|check| check.narrow(m, self.n)) {
                return false;
            }
            if !changed && count(m) == before {
                break;
            }
        }
        true
    }

    /// Cells and the symbols (bits) the last [`RuleSet::feasible`] or
    /// [`RuleSet::settle`] ruled out.
    pub fn narrowed(&self) -> &[(u32, u32)] {
        &self.narrowed
    }

    /// Whether a full filling (one symbol per cell) keeps every rule.
    pub fn holds(&mut self, values: &[u8]) -> bool {
        let bit = |c: u32| 1u32 << (values[c as usize] - 1);
        if values.contains(&0) {
            return false;
        }
        for (c, &m) in self.masks.iter().enumerate() {
            if m & bit(c as u32) == 0 {
                return false;
            }
        }
        for p in &self.pairs {
            if p.partners(p.a, bit(p.a)) & bit(p.b) == 0 {
                return false;
            }
        }
        for g in self.houses.iter().chain(&self.groups) {
            let mut seen = 0u32;
            for &c in g {
                if seen & bit(c) != 0 {
                    return false;
                }
                seen |= bit(c);
            }
        }
        self.feasible(bit)
    }
}

/// What each variant rule alone rules out of a grid of candidates, for
/// hints: every rule compiled on its own (with the puzzle's other rules
/// as context, for "all marks given"). The houses a rule makes are not
/// looked at: the hints' techniques reason on them as on any house.
#[derive(Clone, Debug)]
pub struct RuleEliminations {
    per_rule: Vec<RuleSet>,
}

impl RuleEliminations {
    /// The rules of a puzzle on `layout` (checked beforehand by
    /// [`crate::grid::check_rules`]).
    pub fn new(layout: &Layout, rules: &[Rule]) -> RuleEliminations {
        RuleEliminations {
            per_rule: (0..rules.len())
                .map(|i| RuleSet::compile(layout, rules, Some(i)))
                .collect(),
        }
    }

    /// The candidates (a bit per symbol, placed cells holding their
    /// symbol's bit alone) that rule `i` rules out: cells and bits, in cell
    /// order. `None` when the rule cannot be met with these candidates.
    pub fn of(&self, i: usize, cand: &[u32]) -> Option<Vec<(usize, u32)>> {
        let (mut work, mut gone) = (Vec::new(), Vec::new());
        self.of_into(i, cand, &mut work, &mut gone).then_some(gone)
    }

    /// How many rules there are.
    pub fn len(&self) -> usize {
        self.per_rule.len()
    }

    /// Whether there are no rules.
    pub fn is_empty(&self) -> bool {
        self.per_rule.is_empty()
    }

    /// Every "this placement rules those out" link that rule `i` makes
    /// between two cells (its pairs and its groups smaller than a house):
    /// `f(a, x, b, ys)` when cell `a` holding symbol `x` (0-based) leaves
    /// cell `b` none of the symbols `ys` (bits).
    pub fn links(&self, i: usize, mut f: impl FnMut(u32, usize, u32, u32)) {
        let set = &self.per_rule[i];
        let all = full_mask(set.n);
        for p in &set.pairs {
            for x in 0..set.n {
                let ys = all & !p.ab[x];
                if ys != 0 {
                    f(p.a, x, p.b, ys);
                }
                let xs = all & !p.ba[x];
                if xs != 0 {
                    f(p.b, x, p.a, xs);
                }
            }
        }
        for g in &set.groups {
            for &a in g {
                for &b in g {
                    if a != b {
                        for x in 0..set.n {
                            f(a, x, b, 1 << x);
                        }
                    }
                }
            }
        }
    }

    /// Whether rule `i` says more than its links (see
    /// [`RuleEliminations::links`]): a sum, span or order over many cells,
    /// which only [`RuleEliminations::of`] works out.
    pub fn has_checks(&self, i: usize) -> bool {
        !self.per_rule[i].checks.is_empty()
    }

    /// [`RuleEliminations::of`] into buffers the caller keeps: `gone`
    /// receives what rule `i` rules out, `work` is scratch. False when the
    /// rule cannot be met with these candidates.
    pub fn of_into(
        &self,
        i: usize,
        cand: &[u32],
        work: &mut Vec<u32>,
        gone: &mut Vec<(usize, u32)>,
    ) -> bool {
        let set = &self.per_rule[i];
        gone.clear();
        work.clear();
        work.extend(cand.iter().zip(&set.masks).map(|(&c, &mask)| c & mask));
        let m = work;
        // A symbol placed in a group leaves its other cells. A rule that
        // makes a house (a diagonal, a full region) is left to the
        // techniques, which take it as one more house.
        for g in &set.groups {
            for &a in g {
                let v = m[a as usize];
                if v.count_ones() == 1 {
                    for &b in g {
                        if b != a {
                            m[b as usize] &= !v;
                        }
                    }
                }
            }
        }
        // One round: a hint names what the rule shows at a glance.
        if m.contains(&0) || !set.propagate(m, 1) {
            return false;
        }
        gone.extend(
            cand.iter()
                .zip(m.iter())
                .enumerate()
                .filter(|&(_, (&c, &k))| c & !k != 0)
                .map(|(cell, (&c, &k))| (cell, c & !k)),
        );
        true
    }
}

impl Check {
    /// The cells the check names.
    fn cells(&self) -> Vec<u32> {
        match self {
            Check::Sum { cells, .. } | Check::Sandwich { cells, .. } | Check::Renban { cells } => {
                cells.clone()
            }
            Check::Arrow { circle, line, .. } => circle.iter().chain(line).copied().collect(),
            Check::EqualSums { parts } => parts.concat(),
            Check::Between { ends, middle } => ends.iter().chain(middle).copied().collect(),
        }
    }

    /// Narrows the symbols `m` of the check's cells to those that some
    /// filling within the bounds allows; false when a cell is left with
    /// none (or the check cannot be met). Bounds only: never removes a
    /// symbol of a solution.
    fn narrow(&self, m: &mut [u32], n: usize) -> bool {
        if m_empty(m, self) {
            return false;
        }
        match self {
            Check::Sum {
                cells,
                sum,
                distinct,
            } => narrow_sum(m, cells, *sum, *sum, *distinct),
            Check::Arrow {
                circle,
                line,
                distinct,
            } => {
                let (a, b) = sum_bounds(m, line, *distinct);
                if circle.len() == 1 {
                    let c = circle[0] as usize;
                    m[c] &= range_mask(a, b);
                    if m[c] == 0 {
                        return false;
                    }
                    narrow_sum(m, line, lo(m[c]), hi(m[c]), *distinct)
                } else {
                    let (mut ca, mut cb) = (0u64, 0u64);
                    for &c in circle {
                        ca = ca * 10 + lo(m[c as usize]) as u64;
                        cb = cb * 10 + hi(m[c as usize]) as u64;
                    }
                    if ca > b as u64 || (a as u64) > cb {
                        return false;
                    }
                    narrow_sum(
                        m,
                        line,
                        ca as u32,
                        cb.min(u32::MAX as u64) as u32,
                        *distinct,
                    )
                }
            }
            Check::EqualSums { parts } => {
                let (mut a, mut b) = (0u32, u32::MAX);
                for p in parts {
                    let (pa, pb) = sum_bounds(m, p, true);
                    a = a.max(pa);
                    b = b.min(pb);
                }
                a <= b && parts.iter().all(|p| narrow_sum(m, p, a, b, true))
            }
            Check::Sandwich { cells, sum } => narrow_sandwich(m, cells, *sum, n),
            Check::Renban { cells } => {
                let len = cells.len() as u32;
                let mut allowed = 0;
                for start in 1..=(n as u32 + 1).saturating_sub(len) {
                    let window = range_mask(start, start + len - 1);
                    let mut union = 0;
                    let all = cells.iter().all(|&c| {
                        union |= m[c as usize] & window;
                        m[c as usize] & window != 0
                    });
                    if all && union.count_ones() >= len {
                        allowed |= window;
                    }
                }
                cells.iter().all(|&c| {
                    m[c as usize] &= allowed;
                    m[c as usize] != 0
                })
            }
            Check::Between { ends, middle } => {
                let (m1, m2) = (m[ends[0] as usize], m[ends[1] as usize]);
                let (mut keep1, mut keep2, mut inner) = (0, 0, 0);
                for x in bits(m1) {
                    for y in bits(m2) {
                        let (low, high) = (x.min(y), x.max(y));
                        let strictly = if high > low + 1 {
                            range_mask(low + 1, high - 1)
                        } else {
                            0
                        };
                        if middle.iter().all(|&c| m[c as usize] & strictly != 0) {
                            keep1 |= 1 << (x - 1);
                            keep2 |= 1 << (y - 1);
                            inner |= strictly;
                        }
                    }
                }
                m[ends[0] as usize] &= keep1;
                m[ends[1] as usize] &= keep2;
                keep1 != 0
                    && keep2 != 0
                    && middle.iter().all(|&c| {
                        m[c as usize] &= inner;
                        m[c as usize] != 0
                    })
            }
        }
    }
}

/// The least and greatest symbol of a mask (from 1).
#[inline]
fn lo(m: u32) -> u32 {
    m.trailing_zeros() + 1
}
#[inline]
fn hi(m: u32) -> u32 {
    32 - m.leading_zeros()
}

/// The symbols of a mask, from 1, lowest first.
fn bits(mut m: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let v = m.trailing_zeros() + 1;
            m &= m - 1;
            v
        })
    })
}

/// The least and greatest sums of the cells.
fn bounds(m: &[u32], cells: &[u32]) -> (u32, u32) {
    cells.iter().fold((0, 0), |(a, b), &c| {
        (a + lo(m[c as usize]), b + hi(m[c as usize]))
    })
}

/// The least and greatest sums of the cells; with `distinct` (the cells
/// differ) also no less than the smallest symbols among them could make,
/// and no more than the largest.
fn sum_bounds(m: &[u32], cells: &[u32], distinct: bool) -> (u32, u32) {
    let (mut a, mut b) = bounds(m, cells);
    if distinct {
        let union = cells.iter().fold(0, |u, &c| u | m[c as usize]);
        let k = cells.len();
        if (union.count_ones() as usize) < k {
            return (1, 0);
        }
        let low: u32 = bits(union).take(k).sum();
        let high: u32 = bits(union).collect::<Vec<_>>().iter().rev().take(k).sum();
        a = a.max(low);
        b = b.min(high);
    }
    (a, b)
}

/// Whether every two of the cells share a house (so their symbols differ).
fn all_share_a_house(layout: &Layout, cells: &[u32]) -> bool {
    cells.iter().enumerate().all(|(i, &a)| {
        cells[i + 1..]
            .iter()
            .all(|&b| a != b && share_house(layout, a, b))
    })
}

/// Narrows cells whose symbols (repeats allowed) add up to between `low`
/// and `high`: each cell keeps what the others' bounds leave room for.
fn narrow_sum(m: &mut [u32], cells: &[u32], low: u32, high: u32, distinct: bool) -> bool {
    let (da, db) = sum_bounds(m, cells, distinct);
    if da > high || db < low {
        return false;
    }
    let (a, b) = bounds(m, cells);
    for &c in cells {
        let mc = m[c as usize];
        // The others add up to between a - lo(c) and b - hi(c).
        let (others_lo, others_hi) = (a - lo(mc), b - hi(mc));
        let min = low.saturating_sub(others_hi);
        let max = high.saturating_sub(others_lo);
        m[c as usize] &= range_mask(min.max(1), max);
        if m[c as usize] == 0 {
            return false;
        }
    }
    true
}

/// Narrows a sandwich's row: each place of 1 and of the largest symbol
/// that leaves the cells between able to add up to `sum` supports 1 and
/// the largest there, the middle symbols between within the sum's
/// bounds, and the middle symbols elsewhere. False when no place does.
fn narrow_sandwich(m: &mut [u32], cells: &[u32], sum: u32, n: usize) -> bool {
    let (one, top) = (1u32, 1u32 << (n - 1));
    let inner = full_mask(n) & !one & !top;
    let mut keep = [0u32; MAX_SIZE];
    let mut any = false;
    for (i, &ci) in cells.iter().enumerate() {
        if m[ci as usize] & one == 0 {
            continue;
        }
        for (j, &cj) in cells.iter().enumerate() {
            if i == j || m[cj as usize] & top == 0 {
                continue;
            }
            let (from, to) = (i.min(j) + 1, i.max(j));
            let (mut a, mut b, mut ok) = (0, 0, true);
            for &c in &cells[from..to] {
                let mm = m[c as usize] & inner;
                if mm == 0 {
                    ok = false;
                    break;
                }
                a += lo(mm);
                b += hi(mm);
            }
            if !ok || a > sum || sum > b {
                continue;
            }
            any = true;
            keep[i] |= one;
            keep[j] |= top;
            for (k, &c) in cells.iter().enumerate() {
                if k == i || k == j {
                    continue;
                }
                let mm = m[c as usize] & inner;
                keep[k] |= if (from..to).contains(&k) {
                    let (others_lo, others_hi) = (a - lo(mm), b - hi(mm));
                    let min = sum.saturating_sub(others_hi).max(1);
                    let max = sum.saturating_sub(others_lo);
                    mm & range_mask(min, max)
                } else {
                    mm
                };
            }
        }
    }
    if !any {
        return false;
    }
    cells.iter().enumerate().all(|(k, &c)| {
        m[c as usize] &= keep[k];
        m[c as usize] != 0
    })
}

/// Whether a cell of the check has no symbol left.
fn m_empty(m: &[u32], check: &Check) -> bool {
    let any0 = |cs: &[u32]| cs.iter().any(|&c| m[c as usize] == 0);
    match check {
        Check::Sum { cells, .. } | Check::Sandwich { cells, .. } | Check::Renban { cells } => {
            any0(cells)
        }
        Check::Arrow { circle, line, .. } => any0(circle) || any0(line),
        Check::EqualSums { parts } => parts.iter().any(|p| any0(p)),
        Check::Between { ends, middle } => any0(ends) || any0(middle),
    }
}

/// Whether two cells share a house of the layout.
fn share_house(layout: &Layout, a: u32, b: u32) -> bool {
    let hb = layout.houses_of(b as usize);
    layout.houses_of(a as usize).iter().any(|h| hb.contains(h))
}

impl Live {
    /// Narrows `cell` to `mask` (a subset of its symbols), noting what it
    /// held before the first narrowing and queueing it; false when it is
    /// left with none.
    #[inline]
    fn narrow(&mut self, cell: usize, mask: u32) -> bool {
        if !self.is_touched[cell] {
            self.is_touched[cell] = true;
            self.touched.push((cell as u32, self.mask[cell]));
        }
        self.mask[cell] = mask;
        if !self.queued[cell] {
            self.queued[cell] = true;
            self.queue.push(cell as u32);
        }
        mask != 0
    }
}

/// The pairs of cells being compiled, for a layout of `n` symbols.
struct Pairs {
    list: Vec<Pair>,
    n: usize,
}

impl Pairs {
    /// Adds the pair `a`, `b` whose symbols `x`, `y` may stand together
    /// when `rel(x, y)` ([`add_pair`]); a cell with itself adds nothing.
    fn add(&mut self, a: u32, b: u32, rel: &dyn Fn(u32, u32) -> bool) {
        if a != b {
            add_pair(&mut self.list, self.n, a, b, rel);
        }
    }

    /// The `cells` pairs that share no house hold different symbols.
    fn differ_outside_houses(&mut self, layout: &Layout, cells: &[(u32, u32)]) {
        for &(a, b) in cells {
            if !share_house(layout, a, b) {
                self.add(a, b, &|x, y| x != y);
            }
        }
    }

    /// Every `mark` is given: the orthogonal neighbours (`orth`) no rule
    /// of `rules` marks with one cannot be what it would mark.
    fn unmarked(&mut self, rules: &[Rule], mark: Mark, orth: &[(u32, u32)]) {
        for &(a, b) in orth {
            let marked = rules.iter().any(|r| crate::grid::marks_pair(mark, r, a, b));
            if marked {
                continue;
            }
            match mark {
                Mark::Difference => self.add(a, b, &|x, y| x.abs_diff(y) != 1),
                Mark::Ratio => self.add(a, b, &|x, y| x != 2 * y && y != 2 * x),
                Mark::Xv => self.add(a, b, &|x, y| x + y != 5 && x + y != 10),
            }
        }
    }
}

/// The cells of `layout` `steps` (rows, columns) apart, each pair once,
/// the lower cell first.
fn neighbours(layout: &Layout, steps: &[(i32, i32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for c in 0..layout.cell_count() {
        let (r, k) = layout.position(c);
        for &(dr, dk) in steps {
            let (r2, k2) = (r as i32 + dr, k as i32 + dk);
            if r2 < 0 || k2 < 0 {
                continue;
            }
            if let Some(o) = layout.cell_at(r2 as usize, k2 as usize)
                && o > c
            {
                out.push((c as u32, o as u32));
            }
        }
    }
    out
}

/// Adds the pair `a`, `b` whose symbols `x`, `y` (from 1) may stand
/// together when `rel(x, y)`, merged into an earlier pair of the same cells.
fn add_pair(pairs: &mut Vec<Pair>, n: usize, a: u32, b: u32, rel: &dyn Fn(u32, u32) -> bool) {
    let (a, b, flip) = if a < b { (a, b, false) } else { (b, a, true) };
    let mut ab = [0u32; MAX_SIZE];
    let mut ba = [0u32; MAX_SIZE];
    for (x, row) in ab.iter_mut().enumerate().take(n) {
        for (y, column) in ba.iter_mut().enumerate().take(n) {
            let (vx, vy) = (x as u32 + 1, y as u32 + 1);
            let ok = if flip { rel(vy, vx) } else { rel(vx, vy) };
            if ok {
                *row |= 1 << y;
                *column |= 1 << x;
            }
        }
    }
    if let Some(p) = pairs.iter_mut().find(|p| p.a == a && p.b == b) {
        for x in 0..n {
            p.ab[x] &= ab[x];
            p.ba[x] &= ba[x];
        }
    } else {
        pairs.push(Pair { a, b, ab, ba });
    }
}

/// Lists of lists as one list and where each starts: list `i` is
/// `flat[start[i]..start[i + 1]]`.
pub(crate) fn flatten(per: impl IntoIterator<Item = Vec<u32>>) -> (Vec<u32>, Vec<u32>) {
    let mut flat = Vec::new();
    let mut start = vec![0u32];
    for v in per {
        flat.extend(v);
        start.push(flat.len() as u32);
    }
    (flat, start)
}

fn full_mask(n: usize) -> u32 {
    (1u32 << n) - 1
}

fn odd_mask(n: usize) -> u32 {
    (0..n).step_by(2).fold(0, |m, x| m | 1 << x)
}

/// The symbols `lo..=hi` (from 1) as bits; empty when `lo > hi`.
fn range_mask(lo: u32, hi: u32) -> u32 {
    if lo > hi || hi == 0 {
        return 0;
    }
    let lo = lo.max(1);
    (((1u64 << hi) - 1) as u32) & !((1u32 << (lo - 1)) - 1)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::grid::{Layout, Rule, rules_hold};
    use crate::rng::Rng;
    use crate::solve::{Outcome, SolveError, SudokuSolver};

    /// A classic with a few hundred solutions: a unique puzzle with givens
    /// taken out.
    const LOOSE: &str =
        "...................98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    /// The classic layout, [`LOOSE`]'s givens and every solution of them
    /// (a few hundred).
    fn loose() -> (Arc<Layout>, Vec<u8>, Outcome) {
        let layout = Arc::new(Layout::classic());
        let givens = values(LOOSE);
        let mut plain = SudokuSolver::new(layout.clone());
        let all = plain.solve(&givens, 100_000, 100_000).unwrap();
        assert!(
            all.count > 50 && all.count < 100_000,
            "{} solutions",
            all.count
        );
        (layout, givens, all)
    }

    /// How many of `all`'s solutions keep `rules`, by the rules' own
    /// definitions: what the solver with the rules must count.
    fn kept_count(layout: &Layout, all: &Outcome, rules: &[Rule]) -> u64 {
        all.solutions
            .iter()
            .filter(|s| rules_hold(layout, s, rules))
            .count() as u64
    }

    fn values(s: &str) -> Vec<u8> {
        s.bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    /// Makes one random rule line of a family.
    type Maker<'a> = Box<dyn Fn(&mut Rng) -> Option<String> + 'a>;

    /// Random rules of every family that `solution` keeps.
    fn rules_kept_by(layout: &Layout, solution: &[u8], rng: &mut Rng) -> Vec<Vec<Rule>> {
        let cell = |rng: &mut Rng| rng.below(81);
        let name = |c: u32| layout.cell_name(c as usize);
        let mut families: Vec<Vec<Rule>> = Vec::new();
        let makers: Vec<Maker<'_>> = vec![
            Box::new(|_| Some("diagonal+".into())),
            Box::new(|_| Some("diagonal-".into())),
            Box::new(|_| Some("antiknight".into())),
            Box::new(|_| Some("antiking".into())),
            Box::new(|_| Some("nonconsecutive".into())),
            Box::new(|_| Some("disjoint".into())),
            Box::new(move |r| Some(format!("odd {}", name(cell(r))))),
            Box::new(move |r| Some(format!("even {}", name(cell(r))))),
            Box::new(move |r| {
                let a = cell(r);
                let b = if a % 9 < 8 { a + 1 } else { a - 1 };
                let kind = ["white", "black", "x", "v", "less"][r.below(5) as usize];
                Some(format!("{kind} {} {}", name(a), name(b)))
            }),
            Box::new(move |r| {
                let len = 2 + r.below(3);
                let (row, col) = (r.below(9), r.below(10 - len));
                let cells: Vec<String> = (0..len).map(|i| name(row * 9 + col + i)).collect();
                let kind = [
                    "thermo",
                    "whispers",
                    "renban",
                    "palindrome",
                    "between",
                    "regionsum",
                ][r.below(6) as usize];
                Some(format!("{kind} {}", cells.join(" ")))
            }),
            Box::new(move |r| {
                let circle = cell(r);
                let line: Vec<String> = (0..1 + r.below(3)).map(|_| name(cell(r))).collect();
                Some(format!("arrow {} : {}", name(circle), line.join(" ")))
            }),
            Box::new(move |r| {
                let sum = 5 + r.below(30);
                Some(format!("littlekiller r0c{} dr {sum}", 1 + r.below(8)))
            }),
            Box::new(move |r| Some(format!("sandwich r0c{} {}", 1 + r.below(9), r.below(36)))),
            Box::new(move |r| Some(format!("sandwich r{}c0 {}", 1 + r.below(9), r.below(36)))),
            Box::new(move |r| {
                let cells: Vec<String> = (0..3).map(|_| name(cell(r))).collect();
                Some(format!("region {}", cells.join(" ")))
            }),
        ];
        for make in &makers {
            // The first random instance the solution keeps (and the
            // checks accept); a family none keeps is left out.
            for _ in 0..400 {
                let Some(line) = make(rng) else { continue };
                let Ok(rules) = Rule::parse(&line, layout) else {
                    continue;
                };
                if crate::grid::check_rules(layout, &[0; 81], &rules).is_err() {
                    continue;
                }
                if rules_hold(layout, solution, &rules) {
                    families.push(rules);
                    break;
                }
            }
        }
        families
    }

    #[test]
    fn a_search_out_of_budget_gives_up_and_says_so() {
        let layout = Arc::new(Layout::classic());
        let rules = Rule::parse("thermo r1c1 r1c2 r1c3", &layout).unwrap();
        let mut solver = SudokuSolver::with_rules(layout.clone(), &[], &rules).unwrap();
        solver.set_budget(crate::solve::Budget::nodes(10));
        assert_eq!(
            solver.solve(&[0; 81], 2, 0),
            Err(SolveError::GaveUp { found: 0, limit: 2 })
        );
        // A search with no rules is held to its budget too.
        let mut plain = SudokuSolver::new(layout);
        // (The first solution takes 81 choices, one a cell.)
        plain.set_budget(crate::solve::Budget::nodes(50));
        let e = plain.solve(&[0; 81], 2, 0).unwrap_err();
        assert!(
            matches!(e, SolveError::GaveUp { found: 0, limit: 2 }),
            "{e:?}"
        );
        assert!(e.to_string().contains("did not finish"), "{e}");
        let one = SolveError::GaveUp { found: 1, limit: 2 }.to_string();
        assert!(one.contains("not yet known to be the only one"), "{one}");
        // A past deadline is noticed within a few choices.
        plain.set_budget(crate::solve::Budget::time(std::time::Duration::ZERO));
        assert!(plain.solve(&[0; 81], 1000, 0).is_err());
        // Without a budget, the same searches finish.
        solver.set_budget(crate::solve::Budget::default());
        assert_eq!(solver.solve(&[0; 81], 2, 0).unwrap().count, 2);
        plain.set_budget(crate::solve::Budget::default());
        assert_eq!(plain.solve(&[0; 81], 1000, 0).unwrap().count, 1000);
    }

    /// Renban lines, straight and bent, alone and with a killer cage over
    /// part of a line (the search takes each line as a cage whose
    /// combinations are its runs): the counts and solutions are the plain
    /// solutions that keep them.
    #[test]
    fn renban_counts_match_a_filtered_plain_search() {
        use crate::grid::Cage;
        let (layout, givens, all) = loose();
        let mut rng = Rng::new(45);
        let (mut checked, mut several) = (0, 0);
        for round in 0..60 {
            let pick = &all.solutions[rng.below(all.count as u32) as usize];
            let mut rules = Vec::new();
            for _ in 0..1 + rng.below(3) {
                // A walk of 2 to 5 cells; half the lines are kept by `pick`.
                for _ in 0..200 {
                    let len = 2 + rng.below(4) as usize;
                    let mut line = vec![rng.below(81)];
                    // (A walk that has boxed itself in stays shorter.)
                    for _ in 0..40 {
                        if line.len() == len {
                            break;
                        }
                        let c = *line.last().unwrap();
                        let (r, k) = (c / 9, c % 9);
                        let next = match rng.below(4) {
                            0 if r > 0 => c - 9,
                            1 if r < 8 => c + 9,
                            2 if k > 0 => c - 1,
                            3 if k < 8 => c + 1,
                            _ => continue,
                        };
                        if !line.contains(&next) {
                            line.push(next);
                        }
                    }
                    let rule = Rule::Renban(line);
                    if round % 2 == 1 || rules_hold(&layout, pick, std::slice::from_ref(&rule)) {
                        rules.push(rule);
                        break;
                    }
                }
            }
            // Every third round, a cage with `pick`'s sum over the first
            // line's first two cells.
            let mut cages = Vec::new();
            if round % 3 == 0 {
                let Rule::Renban(line) = &rules[0] else {
                    unreachable!()
                };
                let mut cells = vec![line[0], line[1]];
                cells.sort_unstable();
                let sum = cells.iter().map(|&c| pick[c as usize] as u32).sum();
                cages.push(Cage::new(sum, cells));
            }
            let keeps = |s: &Vec<u8>| {
                rules_hold(&layout, s, &rules)
                    && cages.iter().all(|k: &Cage| {
                        k.cells.iter().map(|&c| s[c as usize] as u32).sum::<u32>() == k.sum
                            && s[k.cells[0] as usize] != s[k.cells[1] as usize]
                    })
            };
            let want: Vec<&Vec<u8>> = all.solutions.iter().filter(|s| keeps(s)).collect();
            let mut solver = SudokuSolver::with_rules(layout.clone(), &cages, &rules).unwrap();
            let got = solver.solve(&givens, 100_000, 100_000).unwrap();
            let text: Vec<String> = rules.iter().map(|r| r.to_text(&layout)).collect();
            assert_eq!(
                got.count,
                want.len() as u64,
                "round {round}: {text:?} {cages:?}"
            );
            assert!(got.solutions.iter().all(keeps), "round {round}: {text:?}");
            checked += 1;
            several += usize::from(want.len() > 1);
        }
        assert_eq!(checked, 60);
        assert!(
            several >= 10,
            "only {several} rounds with several solutions"
        );
    }

    /// Renban lines on other sizes than 9 (4x4 to 12x12, where the runs
    /// are fewer or more): counts as a filtered plain search.
    #[test]
    fn renban_counts_hold_on_every_square_size() {
        use crate::solve::generate::full_grid;
        let mut rng = Rng::new(46);
        let mut checked = 0;
        for (name, givens) in [("4x4", 2), ("6x6", 12), ("8x8", 30), ("12x12", 100)] {
            let layout = Arc::new(Layout::named(name).unwrap());
            let (n, cells) = (layout.size() as u32, layout.cell_count() as u32);
            let mut plain = SudokuSolver::new(layout.clone());
            for round in 0..8 {
                let full = full_grid(&mut plain, round);
                let mut values = vec![0u8; full.len()];
                for _ in 0..givens {
                    let c = rng.below(cells) as usize;
                    values[c] = full[c];
                }
                let all = plain.solve(&values, 20_000, 20_000).unwrap();
                if all.count >= 20_000 {
                    continue;
                }
                // A line along a row from a random cell, as long as the
                // row allows, up to 5 cells; kept by `full` or not.
                let start = rng.below(cells);
                let room = n - start % n;
                let len = (2 + rng.below(4)).min(room);
                let rules = vec![Rule::Renban((start..start + len).collect())];
                let want = kept_count(&layout, &all, &rules);
                let mut solver = SudokuSolver::with_rules(layout.clone(), &[], &rules).unwrap();
                let got = solver.solve(&values, 20_000, 0).unwrap();
                assert_eq!(got.count, want, "{name}, round {round}: {rules:?}");
                checked += 1;
            }
        }
        assert!(checked >= 24, "only {checked} cases checked");
    }

    /// The solver with rules counts what the plain solver's solutions,
    /// filtered by the rules' own definitions, count: for each rule family
    /// alone and for mixes of them.
    #[test]
    fn rule_counts_match_a_filtered_plain_search() {
        let (layout, givens, all) = loose();
        let mut rng = Rng::new(41);
        let mut checked = 0;
        for round in 0..3 {
            let pick = &all.solutions[rng.below(all.count as u32) as usize];
            let families = rules_kept_by(&layout, pick, &mut rng);
            assert!(families.len() >= 8, "only {} families", families.len());
            let mut sets: Vec<Vec<Rule>> = families.clone();
            // Rules over the whole grid rarely hold for a random solution:
            // each alone, whatever it counts (none, often).
            let whole = [
                "diagonal+",
                "antiknight",
                "antiking",
                "nonconsecutive",
                "disjoint",
            ];
            let alone: Vec<Vec<Rule>> = whole
                .iter()
                .map(|w| Rule::parse(w, &layout).unwrap())
                .collect();
            // Mixes: three families at a time.
            for i in 0..families.len() {
                let mut mix = families[i].clone();
                mix.extend(families[(i + 3 + round) % families.len()].clone());
                mix.extend(families[(i + 7) % families.len()].clone());
                sets.push(mix);
            }
            let kept = sets.len();
            sets.extend(alone);
            for (k, rules) in sets.into_iter().enumerate() {
                let want = kept_count(&layout, &all, &rules);
                let mut solver = SudokuSolver::with_rules(layout.clone(), &[], &rules).unwrap();
                // Givens that clash in an extra house have no solution.
                let got = match solver.solve(&givens, 100_000, 100_000) {
                    Err(SolveError::Conflict { .. }) => Outcome::default(),
                    other => other.unwrap(),
                };
                let text: Vec<String> = rules.iter().map(|r| r.to_text(&layout)).collect();
                assert!(
                    k >= kept || want >= 1,
                    "{text:?}: the picked solution keeps them"
                );
                assert_eq!(got.count, want, "{text:?}");
                for s in &got.solutions {
                    assert!(
                        rules_hold(&layout, s, &rules),
                        "{text:?}: a solution breaks them"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked >= 50, "{checked} rule sets checked");
    }
}
