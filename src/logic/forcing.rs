//! Forcing chains: the consequences of assuming a candidate true (or false),
//! followed with every cause recorded, so that a conclusion can be weighed
//! by the size of what proves it.
//!
//! - Nishio (SE 7.5+): assuming a candidate leads to a contradiction, with
//!   the grid updated along the way, so it is false.
//! - Cell and region forcing chains (SE 8.0+): every candidate of a cell,
//!   or every place of a symbol in a house, leads (through static links
//!   only) to the same conclusion.
//! - Dynamic forcing chains (SE 8.5+): the same with the grid updated along
//!   the way, plus contradictions and "either way" conclusions from both
//!   states of one candidate.
//! - Dynamic forcing chains (+) (SE 9.0+): the same, with locked candidates
//!   and pairs (and on a killer or a variant, the 45 rule, cage and house,
//!   and the sum rules' fillings) applied whenever the singles run out.
//!
//! A conclusion weighs its kind's base plus SE's [`length_bonus`] of the
//! number of candidates its chains involve, so deeper proofs rate higher.
//!
//! Cages and variant rules take part as they do in the solver
//! ([`Forcing::set_rules`]). What a rule makes between two cells (a dot, an
//! XV pair, a knight's move, a thermometer step, a smaller group) is a link
//! like a house's: a true candidate makes its partners false, in every
//! mode but Nishio. What a cage or a rule says over many cells (a cage's
//! combinations, an arrow's sum, a sandwich, a renban's span) is worked out
//! in the dynamic modes whenever the singles run out, from the updated
//! grid, with the removals so far in its cells as what it rests on.

use super::cands::{Candidate, Candidates};
use super::ctx::Ctx;
use super::houses::{HouseIndex, bits};
use super::killer::{self, Killer, MAX_SYMBOLS, Scratch, placed};
use super::rule_links::RuleLinks;
use super::step::{ChainNode, Step, Technique, length_bonus};
use super::sums::Sums;
use crate::grid::{Alphabet, Cage, Layout, Rule};
use crate::solve::{Budget, RuleEliminations, flatten};

/// How consequences are followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Only the grid's own strong links (bivalue cells, bilocal symbols).
    Static,
    /// One symbol at a time: a true candidate removes its symbol from its
    /// houses, a symbol left one place in a house goes there (SE's Nishio).
    Nishio,
    /// Singles on the grid as updated by the assumption.
    Dynamic,
    /// Dynamic, plus locked candidates and pairs when singles run out.
    DynamicPlus,
}

/// How far (in steps from the assumption) consequences are followed when
/// nothing else bounds them: far beyond the chains SE rates up to 11, and a
/// bound on the cost of a search on any layout.
pub const MAX_DEPTH: u32 = 64;

const ASSUMED: u32 = u32::MAX;
/// Cause codes of a true candidate above the assumption: naked single in a
/// cell (`CELL + cell`), hidden single in a house (`HOUSE + house`).
const CELL: u32 = 1 << 30;
const HOUSE: u32 = 1 << 29;
/// Cause code of a false candidate removed by a technique: `RULE + rule`.
const RULE: u32 = 1 << 31;
/// A removal by a technique over houses, not by a cage or rule's check.
const NO_CHECK: u32 = u32::MAX;
/// The sum rules' steps dynamic (+) applies, in the hints' order.
const SUM_STEPS: [Technique; 4] = [
    Technique::ArrowSum,
    Technique::LittleKillerSum,
    Technique::RegionSumLine,
    Technique::SandwichSum,
];
/// Cages and rules a chain's sentence names; more are counted.
const NAMED: usize = 3;

/// Why a propagation stopped with no solution: a candidate both true and
/// false.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Contra {
    Both(u32),
}

/// What a check over many cells says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Over {
    /// Variant rule `i`'s own narrowing.
    Rule(usize),
    /// A killer cage of this sum: the symbols its fillings use.
    Cage(u32),
}

/// The cages and variant rules as the chains follow them.
struct Variant {
    /// Each candidate's partners that a true candidate makes false, and
    /// the rule of each link.
    links: RuleLinks,
    /// How a sentence names each rule, then each cage; and the name of
    /// each check (an index into `names`).
    names: Vec<String>,
    check_name: Vec<u32>,
    /// The rules' own narrowing (see [`RuleEliminations`]).
    narrowing: RuleEliminations,
    /// The checks over many cells and their cells, and the checks of each
    /// cell (`cell_checks[check_start[c]..check_start[c + 1]]`, indices
    /// into `checks`).
    checks: Vec<(Over, Vec<usize>)>,
    cell_checks: Vec<u32>,
    check_start: Vec<u32>,
    /// Checks whose cells lost a candidate since they were last worked
    /// out, and whether each is among them.
    pending: Vec<u32>,
    dirty: Vec<bool>,
    /// Scratch: the work grid's candidates, what a check rules out, and
    /// the cages' filling search.
    cand: Vec<u32>,
    work: Vec<u32>,
    gone: Vec<(usize, u32)>,
    scratch: Scratch,
    /// The cages' techniques and the sum rules' fillings, which dynamic
    /// (+) applies when the house techniques have nothing (none without
    /// cages, or without sum rules).
    killer: Option<Killer>,
    sums: Option<Sums>,
}

impl Variant {
    /// `None` when there is nothing to follow: no cage, no rule (cages
    /// on more symbols than the filling search takes are left out).
    fn new(
        layout: &Layout,
        houses: &HouseIndex,
        cages: &[Cage],
        rules: &[Rule],
    ) -> Option<Variant> {
        let (cells, n) = (layout.cell_count(), layout.size());
        let narrowing = RuleEliminations::new(layout, rules);
        let links = RuleLinks::all(layout, &narrowing, rules);
        let mut checks = Vec::new();
        let mut names: Vec<String> = rules.iter().map(|r| r.describe(layout)).collect();
        let mut check_name = Vec::new();
        for (i, rule) in rules.iter().enumerate() {
            if narrowing.has_checks(i) {
                let cs: Vec<usize> = rule.cells(layout).iter().map(|&c| c as usize).collect();
                checks.push((Over::Rule(i), cs));
                check_name.push(i as u32);
            }
        }
        if n <= MAX_SYMBOLS {
            for cage in cages {
                let cs: Vec<usize> = cage.cells.iter().map(|&c| c as usize).collect();
                check_name.push(names.len() as u32);
                // `the cage 14 in r1c1-r1c2`, beside the rules' names.
                names.push(killer::cage_named(
                    |c| layout.cell_name(c),
                    "cage ",
                    cage.sum,
                    &cs,
                ));
                checks.push((Over::Cage(cage.sum), cs));
            }
        }
        if checks.is_empty() && links.is_empty() {
            return None;
        }
        let mut by_cell: Vec<Vec<u32>> = vec![Vec::new(); cells];
        for (j, (_, cs)) in checks.iter().enumerate() {
            for &c in cs {
                by_cell[c].push(j as u32);
            }
        }
        let (cell_checks, check_start) = flatten(by_cell);
        Some(Variant {
            links,
            names,
            check_name,
            narrowing,
            dirty: vec![false; checks.len()],
            checks,
            cell_checks,
            check_start,
            pending: Vec::new(),
            cand: Vec::with_capacity(cells),
            work: Vec::with_capacity(cells),
            gone: Vec::new(),
            scratch: Scratch::default(),
            killer: Killer::new(houses, cages),
            sums: Sums::new(layout, houses, rules),
        })
    }

    /// Works check `j` out on `w` into `gone`: the symbols each cell
    /// loses; a cell losing all when nothing fits. `read` says whether
    /// `cand` holds `w`'s candidates already (set once it does).
    fn work_out(&mut self, w: &Candidates, j: usize, read: &mut bool) {
        let Variant {
            narrowing,
            checks,
            cand,
            work,
            gone,
            scratch,
            ..
        } = self;
        let (over, cells) = &checks[j];
        gone.clear();
        let fits = match *over {
            Over::Rule(i) => {
                if !*read {
                    cand.clear();
                    cand.extend((0..w.values().len()).map(|c| match w.value(c) {
                        0 => w.cell(c),
                        x => 1 << (x - 1),
                    }));
                    *read = true;
                }
                narrowing.of_into(i, cand, work, gone)
            }
            Over::Cage(sum) => {
                let got = placed(w, cells);
                if got.0.count_ones() as usize == cells.len() {
                    return;
                }
                match scratch.fill(w, cells, got, (sum, 0), true) {
                    Some(f) => {
                        let empty = cells.iter().filter(|&&c| w.value(c) == 0);
                        for (&c, &s) in empty.zip(f.support) {
                            if w.cell(c) & !s != 0 {
                                gone.push((c, w.cell(c) & !s));
                            }
                        }
                        true
                    }
                    None => false,
                }
            }
        };
        if !fits {
            // Nothing fits: the first open cell loses all.
            gone.clear();
            if let Some(&c) = cells.iter().find(|&&c| w.value(c) == 0 && w.cell(c) != 0) {
                gone.push((c, w.cell(c)));
            }
        }
    }

    fn links_of(&self, k: u32) -> &[u32] {
        self.links.partners(k as usize)
    }

    /// No check to work out: on the grid a search starts from, every
    /// check has been worked out already (the cages' combinations and the
    /// rules' own steps come before any chain), so only a check whose
    /// cells lose a candidate can say more.
    fn none_pending(&mut self) {
        for &j in &self.pending {
            self.dirty[j as usize] = false;
        }
        self.pending.clear();
    }

    /// Cell `c` lost a candidate: its checks are to be worked out again.
    fn touched(&mut self, c: usize) {
        let (s, e) = (
            self.check_start[c] as usize,
            self.check_start[c + 1] as usize,
        );
        for &j in &self.cell_checks[s..e] {
            if !self.dirty[j as usize] {
                self.dirty[j as usize] = true;
                self.pending.push(j);
            }
        }
    }
}

/// Propagation state, reused across searches.
pub(crate) struct Forcing {
    n: usize,
    w: Option<Candidates>,
    epoch: u32,
    on_mark: Vec<u32>,
    off_mark: Vec<u32>,
    on_seq: Vec<u32>,
    off_seq: Vec<u32>,
    on_cause: Vec<u32>,
    off_cause: Vec<u32>,
    /// Steps from the assumption along first causes (in static mode, the
    /// number of candidates behind a node, less one).
    on_depth: Vec<u32>,
    off_depth: Vec<u32>,
    seq: u32,
    /// Nodes this many steps from the assumption are not followed further:
    /// whatever they lead to weighs more than the search's bound.
    cap: u32,
    /// Every event in order (what a branch stores).
    queue: Vec<(u32, bool)>,
    /// Pending true and false candidates; true ones are followed first, as
    /// SE does, which keeps the chains it counts short.
    pend_on: Vec<u32>,
    pend_off: Vec<u32>,
    buf: Vec<u32>,
    head_on: usize,
    head_off: usize,
    /// Each removal by a technique or a check: its parents'
    /// `rule_parents` range, and the check's index (or [`NO_CHECK`]).
    rules: Vec<(u32, u32, u32)>,
    rule_parents: Vec<(u32, bool)>,
    /// The cages and variant rules (none without).
    variant: Option<Box<Variant>>,
    /// Cells that lost a candidate in the work grid in this propagation
    /// (those holding `epoch`).
    touched: Vec<u32>,
    contra: Option<Contra>,
    // Ancestor counting.
    vepoch: u32,
    v_on: Vec<u32>,
    v_off: Vec<u32>,
    stack: Vec<(u32, bool)>,
    /// Events of stored branches: node * 2 + on, and each branch's range.
    arena: Vec<u32>,
    /// Each candidate's stored "true" branch in the current search (an
    /// arena range, `u32::MAX` for a contradiction), valid where
    /// `branch_mark` holds `bepoch`.
    branch: Vec<(u32, u32)>,
    branch_mark: Vec<u32>,
    bepoch: u32,
    /// Per-node counters for intersections, and the sums of the nodes'
    /// depths (plus one) over the branches.
    count_on: Vec<u32>,
    count_off: Vec<u32>,
    sum_on: Vec<u32>,
    sum_off: Vec<u32>,
    cepoch: u32,
    cmark_on: Vec<u32>,
    cmark_off: Vec<u32>,
    /// When a search gives up (the engine's budget, whose cancel flag a
    /// newer request sets), and whether the search under way has: then
    /// it ends without a step.
    budget: Budget,
    stopped: bool,
}

/// What the branches of a conclusion assume.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// One candidate, true or false.
    One(u32, bool),
    /// One candidate, true and false.
    Both(u32),
    /// Each candidate of a cell true.
    Cell(usize),
    /// Each place of a symbol (0-based) in a house true.
    Region(usize, usize),
}

impl Source {
    /// The assumptions, in order.
    fn branches(self, g: &Candidates) -> Vec<(u32, bool)> {
        let n = g.size();
        match self {
            Source::One(k, on) => vec![(k, on)],
            Source::Both(k) => vec![(k, true), (k, false)],
            Source::Cell(c) => bits(g.cell(c))
                .map(|d| ((c * n + d) as u32, true))
                .collect(),
            Source::Region(h, d) => g
                .houses()
                .cells_at(h, g.places(h, d as u8 + 1))
                .map(|c| ((c * n + d) as u32, true))
                .collect(),
        }
    }
}

/// A conclusion found by some branches, not yet weighed.
struct Conclusion {
    technique: Technique,
    /// The node concluded and its state (true = placed, false = removed).
    node: u32,
    on: bool,
    /// The assumptions of the branches.
    source: Source,
    /// For a contradiction: the single branch that fails.
    contradiction: bool,
    /// The house of a region forcing chain.
    house: Option<usize>,
    /// SE's complexity, once weighed.
    size: Option<usize>,
}

impl Forcing {
    pub fn new(cells: usize, n: usize) -> Forcing {
        let k = cells * n;
        Forcing {
            n,
            w: None,
            epoch: 0,
            on_mark: vec![0; k],
            off_mark: vec![0; k],
            on_seq: vec![0; k],
            off_seq: vec![0; k],
            on_cause: vec![0; k],
            off_cause: vec![0; k],
            on_depth: vec![0; k],
            off_depth: vec![0; k],
            seq: 0,
            cap: MAX_DEPTH,
            queue: Vec::with_capacity(2 * k),
            pend_on: Vec::with_capacity(k),
            pend_off: Vec::with_capacity(k),
            buf: Vec::new(),
            head_on: 0,
            head_off: 0,
            rules: Vec::new(),
            rule_parents: Vec::new(),
            variant: None,
            touched: vec![0; cells],
            contra: None,
            vepoch: 0,
            v_on: vec![0; k],
            v_off: vec![0; k],
            stack: Vec::new(),
            arena: Vec::new(),
            branch: vec![(0, 0); k],
            branch_mark: vec![0; k],
            bepoch: 0,
            count_on: vec![0; k],
            count_off: vec![0; k],
            sum_on: vec![0; k],
            sum_off: vec![0; k],
            cepoch: 0,
            cmark_on: vec![0; k],
            cmark_off: vec![0; k],
            budget: Budget::default(),
            stopped: false,
        }
    }

    /// Sets when a search gives up from now on: it looks at the clock
    /// and the cancel flag before each assumption it follows.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Whether the last search gave up on its budget.
    #[cfg(test)]
    fn gave_up(&self) -> bool {
        self.stopped
    }

    /// Makes the chains follow `cages` and `rules` (a puzzle's killer
    /// cages and variant rules on `layout`, whose houses with the rules'
    /// are `houses`) besides the houses.
    pub fn set_rules(
        &mut self,
        layout: &Layout,
        houses: &HouseIndex,
        cages: &[Cage],
        rules: &[Rule],
    ) {
        self.variant = Variant::new(layout, houses, cages, rules).map(Box::new);
    }

    /// Takes candidate `k` out of the work grid.
    fn take_out(&mut self, k: u32) {
        let (c, d) = (k as usize / self.n, k as usize % self.n);
        self.touched[c] = self.epoch;
        self.w
            .as_mut()
            .expect("a work grid")
            .eliminate(c, d as u8 + 1);
        if let Some(v) = &mut self.variant {
            v.touched(c);
        }
    }

    fn bump(epoch: &mut u32, marks: &mut [&mut Vec<u32>]) -> u32 {
        *epoch = epoch.wrapping_add(1);
        if *epoch == 0 {
            for m in marks.iter_mut() {
                m.fill(0);
            }
            *epoch = 1;
        }
        *epoch
    }

    #[inline]
    fn is_on(&self, k: u32) -> bool {
        self.on_mark[k as usize] == self.epoch
    }
    #[inline]
    fn is_off(&self, k: u32) -> bool {
        self.off_mark[k as usize] == self.epoch
    }

    fn set_on(&mut self, k: u32, cause: u32, depth: u32) {
        if self.is_on(k) || self.contra.is_some() {
            return;
        }
        let i = k as usize;
        self.on_mark[i] = self.epoch;
        self.on_depth[i] = depth;
        self.seq += 1;
        self.on_seq[i] = self.seq;
        self.on_cause[i] = cause;
        if self.is_off(k) {
            self.contra = Some(Contra::Both(k));
            return;
        }
        self.queue.push((k, true));
        self.pend_on.push(k);
    }

    fn set_off(&mut self, g0: &Candidates, k: u32, cause: u32, depth: u32) {
        if self.is_off(k) || self.contra.is_some() {
            return;
        }
        let (c, d) = (k as usize / self.n, k as usize % self.n);
        if !g0.has(c, d as u8 + 1) {
            return;
        }
        let i = k as usize;
        self.off_mark[i] = self.epoch;
        self.off_depth[i] = depth;
        self.seq += 1;
        self.off_seq[i] = self.seq;
        self.off_cause[i] = cause;
        if self.is_on(k) {
            self.contra = Some(Contra::Both(k));
            return;
        }
        self.queue.push((k, false));
        self.pend_off.push(k);
    }

    /// Follows the consequences of `start` (true or false) on `g0`; returns
    /// whether they lead to a contradiction: a candidate both true and false
    /// (SE's only kind: an emptied cell or house shows up that way soon
    /// after, through another candidate).
    fn propagate(&mut self, g0: &Candidates, start: u32, on: bool, mode: Mode) -> bool {
        // A search that has given up follows nothing more; what it found
        // is dropped ([`find`]).
        if self.stopped || self.budget.expired() {
            self.stopped = true;
            return false;
        }
        Forcing::bump(
            &mut self.epoch,
            &mut [&mut self.on_mark, &mut self.off_mark, &mut self.touched],
        );
        self.seq = 0;
        self.queue.clear();
        self.pend_on.clear();
        self.pend_off.clear();
        self.head_on = 0;
        self.head_off = 0;
        self.rules.clear();
        self.rule_parents.clear();
        self.contra = None;
        if mode != Mode::Static {
            match &mut self.w {
                Some(w) => w.copy_from(g0),
                None => self.w = Some(g0.clone()),
            }
            if let Some(v) = &mut self.variant {
                v.none_pending();
            }
        }
        if on {
            self.set_on(start, ASSUMED, 0);
        } else {
            self.set_off(g0, start, ASSUMED, 0);
        }
        let houses = g0.houses().clone();
        loop {
            while self.contra.is_none() {
                if self.head_on < self.pend_on.len() {
                    let k = self.pend_on[self.head_on];
                    self.head_on += 1;
                    self.follow_on(g0, &houses, k, mode);
                } else if self.head_off < self.pend_off.len() {
                    let k = self.pend_off[self.head_off];
                    self.head_off += 1;
                    self.follow_off(g0, &houses, k, mode);
                } else {
                    break;
                }
            }
            let dynamic = matches!(mode, Mode::Dynamic | Mode::DynamicPlus);
            if self.contra.is_some() || !dynamic {
                break;
            }
            if self.apply_check(g0) {
                continue;
            }
            if mode != Mode::DynamicPlus || !self.apply_rule(g0) {
                break;
            }
        }
        self.contra.is_some()
    }

    /// A true candidate: its cell's other candidates (except in Nishio
    /// mode) and its symbol in its houses are false.
    fn follow_on(&mut self, g0: &Candidates, houses: &HouseIndex, k: u32, mode: Mode) {
        if self.on_depth[k as usize] >= self.cap {
            return;
        }
        let n = self.n;
        let (c, d) = (k as usize / n, k as usize % n);
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        {
            let grid = match mode {
                Mode::Static => g0,
                _ => self.w.as_ref().expect("a work grid"),
            };
            if mode != Mode::Nishio {
                for e in bits(grid.cell(c) & !(1 << d)) {
                    buf.push((c * n + e) as u32);
                }
            }
            for &p in houses.peers(c) {
                if grid.has(p as usize, d as u8 + 1) {
                    buf.push(p * n as u32 + d as u32);
                }
            }
            if mode != Mode::Nishio
                && let Some(v) = &self.variant
            {
                for &j in v.links_of(k) {
                    if grid.has(j as usize / n, (j as usize % n) as u8 + 1) {
                        buf.push(j);
                    }
                }
            }
        }
        let depth = self.on_depth[k as usize] + 1;
        for &j in &buf {
            self.set_off(g0, j, k, depth);
        }
        self.buf = buf;
    }

    /// A false candidate: the single it leaves in its cell (except in
    /// Nishio mode) or in a house is true. Static mode uses only the
    /// grid's own bivalue cells and bilocal symbols.
    fn follow_off(&mut self, g0: &Candidates, houses: &HouseIndex, k: u32, mode: Mode) {
        if self.off_depth[k as usize] >= self.cap {
            if mode != Mode::Static {
                self.take_out(k);
            }
            return;
        }
        let n = self.n;
        let (c, d) = (k as usize / n, k as usize % n);
        let grid = match mode {
            Mode::Static => g0,
            _ => self.w.as_ref().expect("a work grid"),
        };
        // The grid still holds `k`: a single is what is left beside it.
        let mut singles = [(0u32, 0u32); 8];
        let mut count = 0;
        let m = grid.cell(c);
        if mode != Mode::Nishio && m.count_ones() == 2 && m >> d & 1 != 0 {
            singles[count] = (
                (c * n) as u32 + (m & !(1 << d)).trailing_zeros(),
                CELL + c as u32,
            );
            count += 1;
        }
        for &(h, i) in houses.houses_of(c) {
            let p = grid.places(h as usize, d as u8 + 1);
            if p.count_ones() == 2 && p >> i & 1 != 0 && count < singles.len() {
                let q = houses.house(h as usize)[(p & !(1 << i)).trailing_zeros() as usize];
                singles[count] = (q * n as u32 + d as u32, HOUSE + h);
                count += 1;
            }
        }
        if mode != Mode::Static {
            self.take_out(k);
        }
        let depth = self.off_depth[k as usize] + 1;
        for &(s, cause) in &singles[..count] {
            self.set_on(s, cause, depth);
        }
    }

    /// Dynamic modes: works out the first pending check (a cage, a sum, a
    /// span) that rules something out of the work grid, and removes it,
    /// resting on the removals so far in the check's cells. A check that
    /// cannot be met empties its first open cell, a contradiction. False
    /// when no check rules anything out.
    fn apply_check(&mut self, g0: &Candidates) -> bool {
        let Some(mut v) = self.variant.take() else {
            return false;
        };
        let n = self.n;
        let w = self.w.as_ref().expect("a work grid");
        let mut found = None;
        // The work grid does not change until a check removes something.
        let mut read = false;
        while let Some(j) = v.pending.pop() {
            v.dirty[j as usize] = false;
            v.work_out(w, j as usize, &mut read);
            if !v.gone.is_empty() {
                found = Some(j as usize);
                break;
            }
        }
        let Some(j) = found else {
            self.variant = Some(v);
            return false;
        };
        let start = self.rule_parents.len() as u32;
        for &c in &v.checks[j].1 {
            for d in bits(g0.cell(c)) {
                let k = (c * n + d) as u32;
                if self.is_off(k) {
                    self.rule_parents.push((k, false));
                }
            }
        }
        let rule = self.rules.len() as u32;
        self.rules
            .push((start, self.rule_parents.len() as u32 - start, j as u32));
        let depth = self.rule_parents[start as usize..]
            .iter()
            .map(|&(k, _)| self.off_depth[k as usize] + 1)
            .max()
            .unwrap_or(1);
        for &(c, mask) in &v.gone {
            for d in bits(mask) {
                self.set_off(g0, (c * n + d) as u32, RULE + rule, depth);
            }
        }
        self.variant = Some(v);
        true
    }

    /// Dynamic (+): applies the first locked candidates, pair or X-wing on
    /// the work grid, else the first step of the cages' techniques or the
    /// sum rules' fillings, removing what it removes. False when none
    /// applies.
    fn apply_rule(&mut self, g0: &Candidates) -> bool {
        let w = self.w.as_ref().expect("a work grid");
        let houses = g0.houses().clone();
        let cx = Ctx {
            houses: &houses,
            text: false,
            unique: false,
            alphabet: Alphabet::Digits,
        };
        let step = super::intersect::find(w, &cx, Technique::Pointing)
            .or_else(|| super::intersect::find(w, &cx, Technique::Claiming))
            .or_else(|| super::intersect::find(w, &cx, Technique::LockedCandidates))
            .or_else(|| super::subsets::naked(w, &cx, 2))
            .or_else(|| super::fish::find(w, &cx, 2, false))
            .or_else(|| super::subsets::hidden(w, &cx, 2, false));
        // Then the cages' own: the 45 rule, a cage's symbol in one house.
        // They take a cell as open until it is placed, and the work grid
        // places nothing: a step that removes nothing from it is passed
        // over (it would be found again and again).
        let mut by_cages = false;
        let mut step = step;
        if step.is_none()
            && let Some(k) = self.variant.as_mut().and_then(|v| v.killer.as_mut())
        {
            // Groups none of whose cells changed under the assumption say
            // what they said on the grid the search started from: nothing.
            let (touched, epoch) = (&self.touched, self.epoch);
            let fresh = |cells: &[usize]| cells.iter().any(|&c| touched[c] == epoch);
            step = removals(w, killer::innies_where(w, &cx, k, true, &fresh))
                .or_else(|| removals(w, killer::innies_where(w, &cx, k, false, &fresh)))
                .or_else(|| removals(w, killer::locked(w, &cx, k)));
            by_cages = true;
        }
        // Then the sum rules' fillings, which see more than their bounds.
        if step.is_none()
            && let Some(sums) = self.variant.as_mut().and_then(|v| v.sums.as_mut())
        {
            step = SUM_STEPS
                .iter()
                .find_map(|&t| removals(w, sums.find(w, &cx, t)));
            by_cages = true;
        }
        let Some(st) = step else { return false };
        // What the rule rests on: the removals so far among its symbols in
        // its first house (the house it reasons about); for the cages'
        // techniques, every removal so far in their cells and houses.
        let n = self.n;
        let digits = if by_cages {
            u32::MAX >> (32 - n)
        } else {
            st.pattern.iter().fold(0u32, |m, p| m | 1 << (p.digit - 1))
        };
        let start = self.rule_parents.len() as u32;
        let named: &[usize] = match st.technique {
            Technique::Pointing | Technique::Claiming | Technique::LockedCandidates => {
                &st.houses[..1]
            }
            _ => &st.houses,
        };
        let mut cells: Vec<u32> = named
            .iter()
            .flat_map(|&h| houses.house(h).iter().copied())
            .collect();
        if by_cages {
            cells.extend(st.cells.iter().map(|&c| c as u32));
            cells.sort_unstable();
            cells.dedup();
        }
        for c in cells {
            for d in bits(digits) {
                let k = c * n as u32 + d as u32;
                if self.is_off(k) {
                    self.rule_parents.push((k, false));
                }
            }
        }
        let rule = self.rules.len() as u32;
        self.rules
            .push((start, self.rule_parents.len() as u32 - start, NO_CHECK));
        let depth = self.rule_parents[start as usize..]
            .iter()
            .map(|&(k, _)| self.off_depth[k as usize] + 1)
            .max()
            .unwrap_or(1);
        for e in &st.eliminations {
            let k = (e.cell * n + e.digit as usize - 1) as u32;
            self.set_off(g0, k, RULE + rule, depth);
        }
        true
    }

    /// Calls `f` on the parents of a node of the last propagation.
    fn parents(&self, g0: &Candidates, k: u32, on: bool, mut f: impl FnMut(u32, bool)) {
        let n = self.n;
        let houses = g0.houses();
        let (c, d) = (k as usize / n, k as usize % n);
        if on {
            let cause = self.on_cause[k as usize];
            let seq = self.on_seq[k as usize];
            if cause == ASSUMED {
                return;
            }
            let earlier = |j: u32| self.is_off(j) && self.off_seq[j as usize] < seq;
            if cause & CELL != 0 && cause & RULE == 0 {
                for e in bits(g0.cell(c) & !(1 << d)) {
                    let j = (c * n + e) as u32;
                    if earlier(j) {
                        f(j, false);
                    }
                }
            } else if cause & HOUSE != 0 {
                let h = (cause - HOUSE) as usize;
                for q in houses.cells_at(h, g0.places(h, d as u8 + 1)) {
                    let j = (q * n + d) as u32;
                    if q != c && earlier(j) {
                        f(j, false);
                    }
                }
            }
        } else {
            let cause = self.off_cause[k as usize];
            if cause == ASSUMED {
            } else if cause & RULE != 0 {
                let (s, len, _) = self.rules[(cause - RULE) as usize];
                for &(j, st) in &self.rule_parents[s as usize..(s + len) as usize] {
                    f(j, st);
                }
            } else {
                f(cause, true);
            }
        }
    }

    /// The cages and rules (indices into the names of [`Variant`]) that
    /// the nodes last visited by [`Forcing::ancestors`] rest on, added to
    /// `out` once each: checks that removed one, and rule links that made
    /// one false (a link that a house or cell also makes is the house's).
    fn leaned_on(&self, g0: &Candidates, out: &mut Vec<u32>) {
        let Some(v) = &self.variant else { return };
        let (n, ve) = (self.n, self.vepoch);
        let houses = g0.houses();
        for k in 0..self.v_off.len() {
            if self.v_off[k] != ve {
                continue;
            }
            let cause = self.off_cause[k];
            let name = if cause == ASSUMED {
                continue;
            } else if cause & RULE != 0 {
                match self.rules[(cause - RULE) as usize].2 {
                    NO_CHECK => continue,
                    j => v.check_name[j as usize],
                }
            } else {
                let (c, d) = (k / n, k % n);
                let (pc, pd) = (cause as usize / n, cause as usize % n);
                if c == pc || (d == pd && houses.sees(c, pc)) {
                    continue;
                }
                match v.links.rule_between(cause as usize, k) {
                    Some(rule) => rule,
                    None => continue,
                }
            };
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }

    /// `, through the cage 14 in r1c1-r1c2 and thermometer r3c3-r3c6`:
    /// what `used` (from [`Forcing::leaned_on`]) names, for a sentence.
    fn through(&self, used: &[u32]) -> String {
        let Some(v) = &self.variant else {
            return String::new();
        };
        if used.is_empty() {
            return String::new();
        }
        let mut named: Vec<String> = used
            .iter()
            .take(NAMED)
            .map(|&i| v.names[i as usize].clone())
            .collect();
        if used.len() > NAMED {
            named.push(format!("{} more", used.len() - NAMED));
        }
        format!(", through {}", super::houses::join_and(&named))
    }

    /// Number of distinct nodes behind `targets` (themselves included) in
    /// the last propagation.
    fn ancestors(&mut self, g0: &Candidates, targets: &[(u32, bool)]) -> usize {
        Forcing::bump(&mut self.vepoch, &mut [&mut self.v_on, &mut self.v_off]);
        let ve = self.vepoch;
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        let mut count = 0;
        for &t in targets {
            stack.push(t);
        }
        while let Some((k, on)) = stack.pop() {
            let mark = if on { &mut self.v_on } else { &mut self.v_off };
            if mark[k as usize] == ve {
                continue;
            }
            mark[k as usize] = ve;
            count += 1;
            self.parents(g0, k, on, |j, s| stack.push((j, s)));
        }
        self.stack = stack;
        count
    }

    /// The nodes behind `targets` in the last propagation, in the order
    /// they were found.
    fn chain_of(&mut self, g0: &Candidates, targets: &[(u32, bool)]) -> Vec<ChainNode> {
        self.ancestors(g0, targets);
        let ve = self.vepoch;
        let n = self.n;
        let mut nodes: Vec<(u32, u32, bool)> = Vec::new();
        for k in 0..self.v_on.len() {
            if self.v_on[k] == ve {
                nodes.push((self.on_seq[k], k as u32, true));
            }
            if self.v_off[k] == ve {
                nodes.push((self.off_seq[k], k as u32, false));
            }
        }
        nodes.sort_unstable();
        nodes
            .into_iter()
            .map(|(_, k, on)| ChainNode {
                candidate: Candidate::new(k as usize / n, (k as usize % n) as u8 + 1),
                on,
            })
            .collect()
    }

    /// The nodes that prove the contradiction of the last propagation.
    fn contradiction_targets(&self) -> Vec<(u32, bool)> {
        match self.contra.expect("a contradiction") {
            Contra::Both(k) => vec![(k, true), (k, false)],
        }
    }

    /// Complexity of a contradiction: SE adds the ancestors of both sides.
    fn contradiction_size(&mut self, g0: &Candidates) -> usize {
        let targets = self.contradiction_targets();
        self.ancestors(g0, &targets[..1]) + self.ancestors(g0, &targets[1..])
    }

    /// Stores the events of the last propagation in the arena; returns
    /// their range.
    fn store(&mut self) -> (usize, usize) {
        let start = self.arena.len();
        for &(k, on) in &self.queue {
            let depth = if on {
                self.on_depth[k as usize]
            } else {
                self.off_depth[k as usize]
            };
            self.arena.extend([k * 2 + on as u32, depth]);
        }
        (start, self.arena.len())
    }

    /// Starts a search: forgets the stored branches.
    fn new_search(&mut self) {
        self.stopped = false;
        self.arena.clear();
        Forcing::bump(&mut self.bepoch, &mut [&mut self.branch_mark]);
    }

    /// The events of assuming `k` true (stored once per search), or `None`
    /// when that leads to a contradiction.
    fn branch(&mut self, g: &Candidates, k: u32, mode: Mode) -> Option<(usize, usize)> {
        let i = k as usize;
        if self.branch_mark[i] != self.bepoch {
            self.branch_mark[i] = self.bepoch;
            self.branch[i] = if self.propagate(g, k, true, mode) {
                (u32::MAX, u32::MAX)
            } else {
                let (s, e) = self.store();
                (s as u32, e as u32)
            };
        }
        let (s, e) = self.branch[i];
        (s != u32::MAX).then_some((s as usize, e as usize))
    }

    /// Nodes present in every one of `ranges` (stored branches), each with
    /// the sum over the branches of its depth plus one (in static mode, the
    /// number of candidates behind it, SE's complexity).
    fn common(&mut self, ranges: &[(usize, usize)], out: &mut Vec<(u32, bool, u32)>) {
        out.clear();
        Forcing::bump(
            &mut self.cepoch,
            &mut [&mut self.cmark_on, &mut self.cmark_off],
        );
        let ce = self.cepoch;
        let m = ranges.len() as u32;
        for &(s, e) in ranges {
            for i in (s..e).step_by(2) {
                let (x, depth) = (self.arena[i], self.arena[i + 1]);
                let (k, on) = ((x / 2) as usize, x & 1 == 1);
                let (marks, counts, sums) = if on {
                    (&mut self.cmark_on, &mut self.count_on, &mut self.sum_on)
                } else {
                    (&mut self.cmark_off, &mut self.count_off, &mut self.sum_off)
                };
                if marks[k] != ce {
                    marks[k] = ce;
                    counts[k] = 0;
                    sums[k] = 0;
                }
                counts[k] += 1;
                sums[k] += depth + 1;
                if counts[k] == m {
                    out.push((k as u32, on, sums[k]));
                }
            }
        }
    }
}

/// Step `st` as removals from the work grid `w`: a placement is its
/// cell's other candidates removed, and what `w` no longer holds is left
/// out. `None` when nothing is left to remove.
fn removals(w: &Candidates, st: Option<Step>) -> Option<Step> {
    let mut st = st?;
    for p in std::mem::take(&mut st.placements) {
        for d in bits(w.cell(p.cell) & !(1 << (p.digit - 1))) {
            st.eliminations.push(Candidate::new(p.cell, d as u8 + 1));
        }
    }
    st.eliminations
        .retain(|e| w.value(e.cell) == 0 && w.has(e.cell, e.digit));
    (!st.eliminations.is_empty()).then_some(st)
}

fn cand(k: u32, n: usize) -> Candidate {
    Candidate::new(k as usize / n, (k as usize % n) as u8 + 1)
}

/// Whether a conclusion changes `g`: a candidate to place or to remove.
fn is_news(g: &Candidates, k: u32, on: bool, n: usize) -> bool {
    let c = cand(k, n);
    g.has(c.cell, c.digit) && (!on || g.cell(c.cell).count_ones() > 1)
}

/// The lightest forcing-chain step of technique `want` (Nishio, cell or
/// region forcing chains, dynamic, dynamic (+)) weighing less than `bound`.
pub(crate) fn find(
    g: &Candidates,
    cx: &Ctx,
    f: &mut Forcing,
    want: Technique,
    bound: f32,
    accept: f32,
) -> Option<Step> {
    let step = find_within(g, cx, f, want, bound, accept);
    // Once the budget ran out, assumptions went unfollowed: nothing
    // concluded from them stands.
    if f.stopped { None } else { step }
}

/// [`find`], before what it found is checked against the budget.
fn find_within(
    g: &Candidates,
    cx: &Ctx,
    f: &mut Forcing,
    want: Technique,
    bound: f32,
    accept: f32,
) -> Option<Step> {
    if want.base() >= bound {
        return None;
    }
    let mut found: Vec<Conclusion> = Vec::new();
    f.new_search();
    f.cap = chain_cap(want, bound);
    match want {
        Technique::NishioChain => {
            if let Some(st) = nishio(g, cx, f, want, accept, &mut found) {
                return Some(st);
            }
        }
        Technique::CellForcingChain | Technique::RegionForcingChain => {
            if let Some(i) = multiple(g, f, Mode::Static, want, &mut found, accept) {
                return Some(finish(g, cx, f, &found[i], Mode::Static));
            }
        }
        Technique::DynamicForcingChain | Technique::DynamicForcingChainPlus => {
            let mode = if want == Technique::DynamicForcingChain {
                Mode::Dynamic
            } else {
                Mode::DynamicPlus
            };
            if let Some(st) = dynamic(g, cx, f, want, mode, accept, &mut found) {
                return Some(st);
            }
            if found.is_empty()
                && let Some(i) = multiple(g, f, mode, want, &mut found, accept)
            {
                return Some(finish(g, cx, f, &found[i], mode));
            }
        }
        _ => return None,
    }
    lightest(g, cx, f, want, bound, &mut found)
}

/// How far a chain of `want` is followed under `bound`: a conclusion
/// weighs at least the steps to it plus one, so nothing further than the
/// bound allows needs following.
fn chain_cap(want: Technique, bound: f32) -> u32 {
    if !bound.is_finite() {
        return MAX_DEPTH;
    }
    let mut len = 0u32;
    while len < MAX_DEPTH && want.base() + length_bonus(len as usize + 1) < bound - 1e-4 {
        len += 1;
    }
    len + 2
}

/// Nishio: each candidate of an unsolved cell set and cleared in turn;
/// one that leads to a contradiction is the other way. Adds the
/// conclusions to `found`; returns a step as soon as one weighs no more
/// than `accept`.
fn nishio(
    g: &Candidates,
    cx: &Ctx,
    f: &mut Forcing,
    want: Technique,
    accept: f32,
    found: &mut Vec<Conclusion>,
) -> Option<Step> {
    let n = g.size();
    for c in 0..g.houses().cell_count() {
        if g.cell(c).count_ones() < 2 {
            continue;
        }
        for d in bits(g.cell(c)) {
            let k = (c * n + d) as u32;
            for on in [true, false] {
                if let Some(st) = accepted(g, cx, f, found, accept) {
                    return Some(st);
                }
                if f.propagate(g, k, on, Mode::Nishio) {
                    found.push(Conclusion {
                        technique: want,
                        node: k,
                        on: !on,
                        source: Source::One(k, on),
                        contradiction: true,
                        house: None,
                        size: Some(f.contradiction_size(g)),
                    });
                }
            }
        }
    }
    None
}

/// Dynamic forcing chains (`mode`): each candidate of an unsolved cell
/// followed both ways; a contradiction either way, or what both ways
/// conclude, is a conclusion added to `found`. Returns a step as soon as
/// one weighs no more than `accept`.
fn dynamic(
    g: &Candidates,
    cx: &Ctx,
    f: &mut Forcing,
    want: Technique,
    mode: Mode,
    accept: f32,
    found: &mut Vec<Conclusion>,
) -> Option<Step> {
    let n = g.size();
    for c in 0..g.houses().cell_count() {
        if g.cell(c).count_ones() < 2 {
            continue;
        }
        for d in bits(g.cell(c)) {
            if let Some(st) = accepted(g, cx, f, found, accept) {
                return Some(st);
            }
            let k = (c * n + d) as u32;
            let Some(on_range) = f.branch(g, k, mode) else {
                f.propagate(g, k, true, mode);
                found.push(Conclusion {
                    technique: want,
                    node: k,
                    on: false,
                    source: Source::One(k, true),
                    contradiction: true,
                    house: None,
                    size: Some(f.contradiction_size(g)),
                });
                continue;
            };
            let mark = f.arena.len();
            if f.propagate(g, k, false, mode) {
                found.push(Conclusion {
                    technique: want,
                    node: k,
                    on: true,
                    source: Source::One(k, false),
                    contradiction: true,
                    house: None,
                    size: Some(f.contradiction_size(g)),
                });
                continue;
            }
            let off_range = f.store();
            let mut both = Vec::new();
            f.common(&[on_range, off_range], &mut both);
            f.arena.truncate(mark);
            for (j, s, _) in both {
                if j != k && is_news(g, j, s, n) {
                    found.push(Conclusion {
                        technique: want,
                        node: j,
                        on: s,
                        source: Source::Both(k),
                        contradiction: false,
                        house: None,
                        size: None,
                    });
                }
            }
        }
    }
    None
}

/// Weighs every conclusion `found` for `want` and writes up the lightest
/// under `bound`. Conclusions of the same branches are consecutive: each
/// branch is followed once for all.
fn lightest(
    g: &Candidates,
    cx: &Ctx,
    f: &mut Forcing,
    want: Technique,
    bound: f32,
    found: &mut [Conclusion],
) -> Option<Step> {
    let mode = mode_of(want);
    let mut i = 0;
    while i < found.len() {
        let mut j = i + 1;
        while j < found.len() && found[j].source == found[i].source {
            j += 1;
        }
        weigh_group(g, f, &mut found[..j], i, mode);
        i = j;
    }
    let sizes: Vec<usize> = found.iter().map(|x| x.size.unwrap_or(0)).collect();
    let mut best: Option<(f32, usize)> = None;
    for (i, &size) in sizes.iter().enumerate() {
        let difficulty = found[i].technique.base() + length_bonus(size.saturating_sub(2));
        if difficulty < bound - 1e-4 && best.is_none_or(|b| difficulty < b.0) {
            best = Some((difficulty, i));
        }
    }
    let (difficulty, i) = best?;
    Some(step(g, cx, f, &found[i], mode, difficulty))
}

/// A weighed conclusion, written up.
fn finish(g: &Candidates, cx: &Ctx, f: &mut Forcing, con: &Conclusion, mode: Mode) -> Step {
    let difficulty = con.technique.base() + length_bonus(con.size.unwrap_or(0).saturating_sub(2));
    step(g, cx, f, con, mode, difficulty)
}

/// The last conclusion found, written up, when it weighs at most `accept`.
fn accepted(
    g: &Candidates,
    cx: &Ctx,
    f: &mut Forcing,
    found: &[Conclusion],
    accept: f32,
) -> Option<Step> {
    let con = found.last()?;
    let difficulty = con.technique.base() + length_bonus(con.size?.saturating_sub(2));
    (difficulty <= accept + 1e-4).then(|| step(g, cx, f, con, mode_of(con.technique), difficulty))
}

fn mode_of(t: Technique) -> Mode {
    match t {
        Technique::NishioChain => Mode::Nishio,
        Technique::CellForcingChain | Technique::RegionForcingChain => Mode::Static,
        Technique::DynamicForcingChainPlus => Mode::DynamicPlus,
        _ => Mode::Dynamic,
    }
}

/// Cell and region forcing chains: branches over every candidate of a cell,
/// or every place of a symbol in a house, with their common conclusions.
/// Keeps only the lightest of the common nodes that `useful` accepts.
fn keep_lightest(common: &mut Vec<(u32, bool, u32)>, useful: impl Fn(u32, bool) -> bool) {
    let best = common
        .iter()
        .filter(|&&(j, s, _)| useful(j, s))
        .min_by_key(|&&(_, _, sum)| sum)
        .copied();
    common.clear();
    common.extend(best);
}

/// Weighs the conclusions `found[from..]`, which share their branches:
/// each branch is followed once for all of them.
fn weigh_group(g: &Candidates, f: &mut Forcing, found: &mut [Conclusion], from: usize, mode: Mode) {
    if from >= found.len() || found[from].size.is_some() {
        return;
    }
    let branches = found[from].source.branches(g);
    for x in &mut found[from..] {
        x.size = Some(0);
    }
    for (k, on) in branches {
        f.propagate(g, k, on, mode);
        for x in &mut found[from..] {
            let a = f.ancestors(g, &[(x.node, x.on)]);
            x.size = Some(x.size.unwrap_or(0) + a);
        }
    }
}

/// The index of a conclusion in `found[from..]` weighing at most `accept`
/// (weighing them first), if any.
fn accept_group(
    g: &Candidates,
    f: &mut Forcing,
    found: &mut [Conclusion],
    from: usize,
    mode: Mode,
    accept: f32,
) -> Option<usize> {
    if accept <= 0.0 || from >= found.len() {
        return None;
    }
    weigh_group(g, f, found, from, mode);
    (from..found.len()).find(|&i| {
        let x = &found[i];
        x.technique.base() + length_bonus(x.size.unwrap_or(0).saturating_sub(2)) <= accept + 1e-4
    })
}

/// Cell and region forcing chains; with `accept`, stops at the first
/// conclusion weighing at most that and returns its index.
fn multiple(
    g: &Candidates,
    f: &mut Forcing,
    mode: Mode,
    want: Technique,
    found: &mut Vec<Conclusion>,
    accept: f32,
) -> Option<usize> {
    let (cell_kind, region_kind) = if mode == Mode::Static {
        (Technique::CellForcingChain, Technique::RegionForcingChain)
    } else {
        (want, want)
    };
    let mut m = Multiple {
        g,
        mode,
        accept,
        // SE leaves bivalue cells to the plain chains in static mode.
        least: if mode == Mode::Static { 3 } else { 2 },
        ranges: Vec::new(),
        common: Vec::new(),
    };
    if let Some(i) = m.cells(f, found, cell_kind) {
        return Some(i);
    }
    m.regions(f, found, region_kind)
}

/// A search for cell and region forcing chains: what it looks for, and
/// the buffers its branches share.
struct Multiple<'a> {
    g: &'a Candidates,
    mode: Mode,
    accept: f32,
    /// The fewest branches a source needs.
    least: usize,
    /// The range of each branch of the source at hand.
    ranges: Vec<(usize, usize)>,
    /// What all its branches conclude, each with its summed depth.
    common: Vec<(u32, bool, u32)>,
}

impl Multiple<'_> {
    /// Cell forcing chains: each candidate of a cell true in turn.
    fn cells(
        &mut self,
        f: &mut Forcing,
        found: &mut Vec<Conclusion>,
        kind: Technique,
    ) -> Option<usize> {
        let (g, n) = (self.g, self.g.size());
        for c in 0..g.houses().cell_count() {
            let m = g.cell(c);
            if (m.count_ones() as usize) < self.least
                || !self.follow(f, bits(m).map(|d| (c * n + d) as u32))
            {
                continue;
            }
            let useful = |j: u32, s: bool| j as usize / n != c && is_news(g, j, s, n);
            if let Some(i) = self.conclude(f, found, (kind, Source::Cell(c), None), useful) {
                return Some(i);
            }
        }
        None
    }

    /// Region forcing chains: each place of a symbol in a house true in
    /// turn.
    fn regions(
        &mut self,
        f: &mut Forcing,
        found: &mut Vec<Conclusion>,
        kind: Technique,
    ) -> Option<usize> {
        let (g, n) = (self.g, self.g.size());
        let houses = g.houses();
        for h in 0..houses.house_count() {
            for d in 0..n {
                let p = g.places(h, d as u8 + 1);
                if (p.count_ones() as usize) < self.least
                    || !self.follow(f, houses.cells_at(h, p).map(|c| (c * n + d) as u32))
                {
                    continue;
                }
                let useful = |j: u32, s: bool| {
                    let (jc, jd) = (j as usize / n, j as usize % n);
                    let inside = jd == d && houses.index_in(jc, h).is_some();
                    !inside && is_news(g, j, s, n)
                };
                let source = (kind, Source::Region(h, d), Some(h));
                if let Some(i) = self.conclude(f, found, source, useful) {
                    return Some(i);
                }
            }
        }
        None
    }

    /// Follows the branch of each of `nodes` (true) into `ranges`; false
    /// when one is a contradiction, the simpler conclusion.
    fn follow(&mut self, f: &mut Forcing, nodes: impl Iterator<Item = u32>) -> bool {
        self.ranges.clear();
        for k in nodes {
            match f.branch(self.g, k, self.mode) {
                Some(r) => self.ranges.push(r),
                None => return false,
            }
        }
        true
    }

    /// Adds to `found` what the branches followed all conclude and
    /// `useful` keeps (in static mode, weighed already, only the lightest),
    /// as conclusions of `(technique, source, house)`; then the index of
    /// one weighing at most `accept`, if any.
    fn conclude(
        &mut self,
        f: &mut Forcing,
        found: &mut Vec<Conclusion>,
        (technique, source, house): (Technique, Source, Option<usize>),
        useful: impl Fn(u32, bool) -> bool,
    ) -> Option<usize> {
        f.common(&self.ranges, &mut self.common);
        let static_mode = self.mode == Mode::Static;
        if static_mode {
            keep_lightest(&mut self.common, &useful);
        }
        let from = found.len();
        for &(j, s, sum) in &self.common {
            if useful(j, s) {
                found.push(Conclusion {
                    technique,
                    node: j,
                    on: s,
                    source,
                    contradiction: false,
                    house,
                    size: static_mode.then_some(sum as usize),
                });
            }
        }
        accept_group(self.g, f, found, from, self.mode, self.accept)
    }
}

fn step(
    g: &Candidates,
    cx: &Ctx,
    f: &mut Forcing,
    con: &Conclusion,
    mode: Mode,
    difficulty: f32,
) -> Step {
    let n = g.size();
    let mut st = Step::new(con.technique);
    st.difficulty = difficulty;
    let target = cand(con.node, n);
    if con.on {
        st.placements.push(target);
    } else {
        st.eliminations.push(target);
    }
    let mut used = Vec::new();
    for (k, on) in con.source.branches(g) {
        f.propagate(g, k, on, mode);
        let chain = if con.contradiction {
            let t = f.contradiction_targets();
            f.chain_of(g, &t)
        } else {
            f.chain_of(g, &[(con.node, con.on)])
        };
        f.leaned_on(g, &mut used);
        st.chains.push(chain);
    }
    for chain in &st.chains {
        for x in chain {
            if !st.pattern.contains(&x.candidate) {
                st.pattern.push(x.candidate);
            }
        }
    }
    st.cells_from_pattern();
    if let Some(h) = con.house {
        st.houses.push(h);
    }
    if cx.text {
        st.text = text(g, cx, con, &st, &f.through(&used));
    }
    st
}

fn state(cx: &Ctx, c: Candidate, on: bool) -> String {
    format!(
        "{} is {}{}",
        cx.cell(c.cell),
        if on { "" } else { "not " },
        cx.sym(c.digit)
    )
}

/// The step's sentence; `through` names the cages and rules its chains
/// rest on (empty for none).
fn text(g: &Candidates, cx: &Ctx, con: &Conclusion, st: &Step, through: &str) -> String {
    let n = g.size();
    let name = super::intersect::capitalised(con.technique.name());
    let target = cand(con.node, n);
    let result = state(cx, target, con.on);
    let steps: usize = st.chains.iter().map(|c| c.len()).sum();
    if con.contradiction {
        let (k, on) = con.source.branches(g)[0];
        let a = cand(k, n);
        return format!(
            "{name}: if {} were {}{}, following its consequences ({} steps{through}) would \
             leave no solution; so {result}.",
            cx.cell(a.cell),
            if on { "" } else { "anything but " },
            cx.sym(a.digit),
            steps
        );
    }
    match con.source {
        Source::Both(k) => {
            let a = cand(k, n);
            format!(
                "{name}: whether {} is {} or not, {result} follows ({} steps in all{through}); so \
                 {result}.",
                cx.cell(a.cell),
                cx.sym(a.digit),
                steps
            )
        }
        Source::Region(h, d) => {
            let cells: Vec<usize> = g.houses().cells_at(h, g.places(h, d as u8 + 1)).collect();
            format!(
                "{name}: wherever {} goes in {} ({}), {result} follows ({} steps in \
                 all{through}); so {result}.",
                cx.sym(d as u8 + 1),
                cx.house(h),
                cx.cells(&cells),
                steps
            )
        }
        Source::One(..) => unreachable!("one branch concludes by contradiction"),
        Source::Cell(c) => {
            format!(
                "{name}: whichever of {} goes in {}, {result} follows ({} steps in \
                 all{through}); so {result}.",
                cx.digits(g.cell(c)),
                cx.cell(c),
                steps
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testutil::{classic, ctx, keep_only};

    #[test]
    fn nishio_follows_one_symbol_to_a_contradiction() {
        let mut g = classic("");
        // In box 3, 5 is left only in row 1 (r1c7, r1c8, r1c9).
        for c in [15, 16, 17, 24, 25, 26] {
            g.eliminate(c, 5);
        }
        let mut f = Forcing::new(81, 9);
        // r1c1 = 5 leaves box 3 without a place for 5; r5c5 = 5 does not.
        assert!(f.propagate(&g, 4, true, Mode::Nishio));
        assert!(!f.propagate(&g, 40 * 9 + 4, true, Mode::Nishio));
        let cx = ctx(g.houses());
        let st = find(&g, &cx, &mut f, Technique::NishioChain, f32::INFINITY, 0.0).unwrap();
        assert_eq!(st.eliminations, [Candidate::new(0, 5)]);
        // r1c9 is both true (the last place in box 3, after r1c7 and r1c8)
        // and false (in row 1): 4 + 2 candidates behind the two sides.
        assert!((st.difficulty - 7.5).abs() < 1e-6, "{}", st.difficulty);
        assert_eq!(
            st.chains[0],
            [(0, true), (6, false), (7, false), (8, false), (8, true)]
                .map(|(c, on)| ChainNode {
                    candidate: Candidate::new(c, 5),
                    on
                })
                .to_vec()
        );
        assert_eq!(
            st.text,
            "Nishio forcing chain: if r1c1 were 5, following its consequences (5 steps) would \
             leave no solution; so r1c1 is not 5."
        );
    }

    #[test]
    fn a_search_whose_budget_runs_out_gives_no_step() {
        let mut g = classic("");
        for c in [15, 16, 17, 24, 25, 26] {
            g.eliminate(c, 5);
        }
        let cx = ctx(g.houses());
        let mut f = Forcing::new(81, 9);
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        f.set_budget(Budget::default().with_cancel(cancel.clone()));
        assert!(find(&g, &cx, &mut f, Technique::NishioChain, f32::INFINITY, 0.0).is_some());
        assert!(!f.gave_up());
        // A newer request cancels this one: the same search stops
        // following assumptions and says nothing.
        cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(find(&g, &cx, &mut f, Technique::NishioChain, f32::INFINITY, 0.0).is_none());
        assert!(f.gave_up());
    }

    /// Candidate `d` (from 1) of cell `c` as a node.
    fn node(c: usize, d: usize) -> u32 {
        (c * 9 + d - 1) as u32
    }

    #[test]
    fn a_rule_between_two_cells_is_followed_like_a_house() {
        let g = classic("");
        let layout = Layout::classic();
        // An X between r1c1 and r1c2: the two add up to 10.
        let rules = [Rule::Xv {
            cells: [0, 1],
            sum: 10,
        }];
        let mut f = Forcing::new(81, 9);
        for mode in [Mode::Static, Mode::Dynamic] {
            assert!(!f.propagate(&g, node(0, 3), true, mode));
            assert!(!f.is_off(node(1, 2)), "no rule yet ({mode:?})");
        }
        f.set_rules(&layout, g.houses(), &[], &rules);
        for mode in [Mode::Static, Mode::Dynamic, Mode::DynamicPlus] {
            assert!(!f.propagate(&g, node(0, 3), true, mode));
            // r1c1 = 3 leaves r1c2 only 7 (3 is out by the row as well).
            for d in [1, 2, 4, 5, 6, 8, 9] {
                assert!(f.is_off(node(1, d)), "r1c2 {d} ({mode:?})");
            }
            assert!(!f.is_off(node(1, 7)), "{mode:?}");
            assert_eq!(f.off_cause[node(1, 8) as usize], node(0, 3));
        }
        // Dynamic: r1c2 left with 7 is a naked single.
        assert!(!f.propagate(&g, node(0, 3), true, Mode::Dynamic));
        assert!(f.is_on(node(1, 7)));
        // A sentence names the rule a removal rests on, not the row.
        let mut used = Vec::new();
        f.ancestors(&g, &[(node(1, 8), false)]);
        f.leaned_on(&g, &mut used);
        assert_eq!(f.through(&used), ", through X (10) on r1c1-r1c2");
        used.clear();
        f.ancestors(&g, &[(node(1, 3), false)]);
        f.leaned_on(&g, &mut used);
        assert_eq!(f.through(&used), "");
        // Nishio follows one symbol through houses only.
        assert!(!f.propagate(&g, node(0, 3), true, Mode::Nishio));
        assert!(!f.is_off(node(1, 8)));
    }

    #[test]
    fn a_sum_over_many_cells_is_worked_out_when_singles_run_out() {
        let mut g = classic("");
        let layout = Layout::classic();
        // An arrow from a circle at r1c1 along r2c2, r2c3 and r3c3 (one
        // box: they differ), with r2c2 either 3 or 4. With r1c1 = 6 the
        // other two add up to 2 or 3, so they lose 3 and 4: a link between
        // the circle and one cell of the line cannot tell that.
        let line = [10usize, 11, 20];
        let rules = [Rule::Arrow {
            circle: vec![0],
            line: line.iter().map(|&c| c as u32).collect(),
        }];
        keep_only(&mut g, 0, &[6, 7]);
        keep_only(&mut g, 10, &[3, 4]);
        let mut f = Forcing::new(81, 9);
        f.set_rules(&layout, g.houses(), &[], &rules);
        assert!(!f.propagate(&g, node(0, 6), true, Mode::Dynamic));
        for (c, d) in [(11, 3), (11, 4), (20, 3), (20, 4)] {
            let k = node(c, d);
            assert!(f.is_off(k), "r{}c{} {d}", c / 9 + 1, c % 9 + 1);
            assert!(f.off_cause[k as usize] & RULE != 0, "by the sum");
        }
        // The sum's removal rests on what its cells lost: r1c1's 7.
        let mut parents = Vec::new();
        f.parents(&g, node(11, 3), false, |j, on| parents.push((j, on)));
        assert!(parents.contains(&(node(0, 7), false)), "{parents:?}");
        // Static chains do not work sums out.
        assert!(!f.propagate(&g, node(0, 6), true, Mode::Static));
        assert!(!f.is_off(node(11, 3)));
        // A sum no filling meets is a contradiction: with the line's cells
        // among 2 to 5, they add up to at least 9.
        for c in line {
            keep_only(&mut g, c, &[2, 3, 4, 5]);
        }
        assert!(f.propagate(&g, node(0, 6), true, Mode::Dynamic));
        assert!(!f.propagate(&g, node(0, 6), true, Mode::Static));
    }

    #[test]
    fn a_cage_s_fillings_are_worked_out_when_singles_run_out() {
        let mut g = classic("");
        let layout = Layout::classic();
        // A cage of 4 in r1c1-r1c2: 1 + 3.
        let cages = [Cage {
            sum: 4,
            cells: vec![0, 1],
        }];
        let mut f = Forcing::new(81, 9);
        f.set_rules(&layout, g.houses(), &cages, &[]);
        assert!(!f.propagate(&g, node(0, 1), true, Mode::Dynamic));
        assert!(f.is_on(node(1, 3)), "r1c2 is 3");
        assert!(f.off_cause[node(1, 5) as usize] & RULE != 0, "by the cage");
        let mut used = Vec::new();
        f.ancestors(&g, &[(node(1, 5), false)]);
        f.leaned_on(&g, &mut used);
        assert_eq!(f.through(&used), ", through the cage 4 in r1c1-r1c2");
        assert!(!f.propagate(&g, node(0, 1), true, Mode::Static));
        assert!(!f.is_off(node(1, 5)), "static chains do not fill cages");
        // With r1c2 either 5 or 6, nothing adds up to 4 beside a 1.
        keep_only(&mut g, 1, &[5, 6]);
        assert!(f.propagate(&g, node(0, 1), true, Mode::Dynamic));
    }

    #[test]
    fn dynamic_plus_applies_the_45_rule() {
        let g = classic("");
        let layout = Layout::classic();
        // Two cages of 20 in r1c1-r1c4 and r1c5-r1c8: r1c9 holds 5.
        let cages = [
            Cage {
                sum: 20,
                cells: vec![0, 1, 2, 3],
            },
            Cage {
                sum: 20,
                cells: vec![4, 5, 6, 7],
            },
        ];
        let mut f = Forcing::new(81, 9);
        f.set_rules(&layout, g.houses(), &cages, &[]);
        assert!(!f.propagate(&g, node(80, 1), true, Mode::Dynamic));
        assert!(!f.is_on(node(8, 5)), "dynamic chains do not apply it");
        assert!(!f.propagate(&g, node(80, 1), true, Mode::DynamicPlus));
        assert!(f.is_on(node(8, 5)), "r1c9 is 5");
    }

    #[test]
    fn cell_forcing_chains_agree_on_a_removal() {
        let mut g = classic("");
        keep_only(&mut g, 40, &[1, 2, 3]); // r5c5
        keep_only(&mut g, 36, &[1, 4]); // r5c1
        keep_only(&mut g, 4, &[2, 4]); // r1c5
        keep_only(&mut g, 30, &[3, 5]); // r4c4
        keep_only(&mut g, 27, &[4, 5]); // r4c1
        let mut f = Forcing::new(81, 9);
        let cx = ctx(g.houses());
        let st = find(
            &g,
            &cx,
            &mut f,
            Technique::CellForcingChain,
            f32::INFINITY,
            0.0,
        )
        .unwrap();
        assert_eq!(st.technique, Technique::CellForcingChain);
        // 1 makes r5c1 4, 2 makes r1c5 4, 3 makes r4c4 5 and r4c1 4: each
        // leaves r1c1 without 4. Candidates behind it: 4 + 4 + 6.
        assert_eq!(st.eliminations, [Candidate::new(0, 4)]);
        assert_eq!(st.chains.len(), 3);
        assert_eq!(st.chains[2].len(), 6);
        assert!((st.difficulty - 8.3).abs() < 1e-6, "{}", st.difficulty);
        assert_eq!(
            st.text,
            "Cell forcing chains: whichever of 1, 2 and 3 goes in r5c5, r1c1 is not 4 follows \
             (14 steps in all); so r1c1 is not 4."
        );
    }
}
