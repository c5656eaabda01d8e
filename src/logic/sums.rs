//! Sum rules in hints, reasoned on as cages are: the fillings of a rule's
//! cells that make its sum with the candidates left (cells that share a
//! house differing), and what no such filling puts in a cell leaves it.
//!
//! - arrows: the line adds up to the number its circle makes (one cell:
//!   its symbol); each filling of the circle is a sum for the line, whose
//!   cells that see a circle cell cannot repeat its symbol;
//! - little killers: the diagonal from the clue adds up to the clue, its
//!   symbols repeating only where the cells share no house;
//! - sandwiches: each place of the 1 and of the largest symbol in the row
//!   or column whose cells between can make the sum; the cells outside
//!   hold what some filling between leaves;
//! - region sum lines: each sum that every part of the line (one a box)
//!   can make, and each part's fillings that make it.
//!
//! The fillings are searched by the cages' machinery ([`Scratch`]): a
//! memo over the symbols used where the cells all differ, every filling
//! one by one where they may repeat. The second is bounded: all the
//! searches of one rule share [`SUM_BUDGET`] steps, and a rule that needs
//! more is passed over. So is an arrow whose circle has more than
//! [`MAX_CIRCLE_FILLINGS`] fillings.

use super::cands::{Candidate, Candidates, digits, full_mask};
use super::ctx::{Ctx, by_digit};
use super::houses::{HouseIndex, join_and};
use super::killer::{LISTED, MAX_SYMBOLS, Scratch, combo_name, join_or, keeps, placed};
use super::step::{Step, Technique};
use crate::grid::{Layout, Rule, box_parts};

/// The most fillings of an arrow's circle tried, each a sum for the
/// line: every filling of a circle of three cells (9^3). A larger circle
/// with more candidates left is passed over until it has fewer.
pub(crate) const MAX_CIRCLE_FILLINGS: usize = 729;

/// Steps all the searches of one rule may take where symbols may repeat
/// and the fillings are walked one by one (a little killer, an arrow whose
/// line leaves a house): a diagonal of 9 open cells of 2 or 3 candidates
/// each takes a few thousand. A rule that needs more is passed over.
pub(crate) const SUM_BUDGET: u32 = 50_000;

/// The most cells of a rule: the filling search marks each cell's earlier
/// neighbours in 32 bits. A longer rule is passed over.
const MAX_CELLS: usize = 32;

/// Sums or places listed in a sentence; more are counted.
const SUMS_LISTED: usize = 6;

/// One sum rule of the puzzle, its cells as the hints use them.
#[derive(Clone, Debug)]
enum Kind {
    /// The line adds up to the number the circle's cells make.
    Arrow {
        circle: Vec<usize>,
        line: Vec<usize>,
        /// The line's cells all share a house.
        distinct: bool,
    },
    /// The cells add up to `sum`.
    LittleKiller {
        cells: Vec<usize>,
        sum: u32,
        distinct: bool,
    },
    /// A whole row or column; the cells between the 1 and the largest
    /// symbol add up to `sum`.
    Sandwich { cells: Vec<usize>, sum: u32 },
    /// Each part (its cells in one box, all different) adds up alike.
    RegionSum { parts: Vec<Vec<usize>> },
}

#[derive(Clone, Debug)]
struct SumRule {
    /// Its index in the puzzle's rules.
    index: usize,
    /// `Arrow r2c2-r2c5`: the rule as a sentence opens with it.
    name: String,
    /// Every cell of the rule, once each.
    cells: Vec<usize>,
    kind: Kind,
}

impl SumRule {
    fn technique(&self) -> Technique {
        match self.kind {
            Kind::Arrow { .. } => Technique::ArrowSum,
            Kind::LittleKiller { .. } => Technique::LittleKillerSum,
            Kind::Sandwich { .. } => Technique::SandwichSum,
            Kind::RegionSum { .. } => Technique::RegionSumLine,
        }
    }
}

/// The sum rules of a puzzle, and scratch for their searches.
pub(crate) struct Sums {
    rules: Vec<SumRule>,
    work: Work,
}

/// Buffers of the searches, reused from rule to rule.
struct Work {
    scratch: Scratch,
    /// The symbols some filling puts in each cell (the rule's cells only).
    support: Vec<u32>,
    /// Each part's supports for one common sum (region sum lines).
    parts: Vec<u32>,
    /// An arrow's circle: each cell's symbols, and the filling tried.
    circle: Vec<u32>,
    picks: Vec<u8>,
    /// The sums some filling makes (an arrow's circle, a region sum
    /// line's parts), lowest first.
    made: Vec<u32>,
    /// The sets of symbols of the fillings, where the cells all differ.
    combos: Vec<u32>,
    /// The places of the 1 and the largest symbol that work (sandwiches).
    ends: Vec<(usize, usize)>,
}

impl Sums {
    /// The arrows, little killers, sandwiches and region sum lines of
    /// `rules` on `layout`, reasoned on over `houses`; `None` without
    /// any, or with more symbols than the searches take.
    pub fn new(layout: &Layout, houses: &HouseIndex, rules: &[Rule]) -> Option<Sums> {
        let n = houses.size();
        if n > MAX_SYMBOLS {
            return None;
        }
        let rules: Vec<SumRule> = rules
            .iter()
            .enumerate()
            .filter_map(|(i, r)| sum_rule(layout, houses, r, i))
            .collect();
        if rules.is_empty() {
            return None;
        }
        Some(Sums {
            rules,
            work: Work {
                scratch: Scratch::default(),
                support: vec![0; houses.cell_count()],
                parts: Vec::new(),
                circle: Vec::new(),
                picks: Vec::new(),
                made: Vec::new(),
                combos: Vec::new(),
                ends: Vec::new(),
            },
        })
    }

    /// The first rule of technique `t` (one of the four sum techniques)
    /// whose fillings rule out a candidate.
    pub fn find(&mut self, g: &Candidates, cx: &Ctx, t: Technique) -> Option<Step> {
        for r in &self.rules {
            if r.technique() != t || r.cells.iter().all(|&c| g.value(c) != 0) {
                continue;
            }
            if !self.work.search(g, r) {
                continue;
            }
            let (elims, places) = outcome(g, &r.cells, &self.work.support);
            if elims.is_empty() {
                continue;
            }
            let mut st = Step::new(t);
            for &c in r.cells.iter().filter(|&&c| g.value(c) == 0) {
                let kept = g.cell(c) & self.work.support[c];
                st.pattern
                    .extend(digits(kept).map(|d| Candidate::new(c, d)));
            }
            st.cells.extend(r.cells.iter().copied());
            st.rule = Some(r.index);
            st.eliminations = elims;
            st.placements = places;
            if cx.text {
                st.text = self.work.sentence(cx, g, r, &st.eliminations);
            }
            return Some(st);
        }
        None
    }
}

/// A rule of the sums' kinds as the hints reason on it; `None` for
/// another rule, and for one whose cells repeat or that asks nothing.
fn sum_rule(layout: &Layout, houses: &HouseIndex, rule: &Rule, index: usize) -> Option<SumRule> {
    let to = |cs: &[u32]| cs.iter().map(|&c| c as usize).collect::<Vec<usize>>();
    let all_differ = |cs: &[usize]| {
        cs.iter()
            .enumerate()
            .all(|(i, &a)| cs[i + 1..].iter().all(|&b| houses.sees(a, b)))
    };
    let kind = match rule {
        Rule::Arrow { circle, line } => {
            let line = to(line);
            Kind::Arrow {
                circle: to(circle),
                distinct: all_differ(&line),
                line,
            }
        }
        Rule::LittleKiller { sum, .. } => {
            let cells = to(&rule.cells(layout));
            Kind::LittleKiller {
                distinct: all_differ(&cells),
                cells,
                sum: *sum,
            }
        }
        Rule::Sandwich { sum, .. } => {
            let cells = to(&rule.cells(layout));
            if cells.len() != houses.size() || !all_differ(&cells) {
                return None;
            }
            Kind::Sandwich { cells, sum: *sum }
        }
        Rule::RegionSum(cs) => {
            let parts: Vec<Vec<usize>> = box_parts(layout, cs).iter().map(|p| to(p)).collect();
            if parts.len() < 2 || !parts.iter().all(|p| all_differ(p)) {
                return None;
            }
            Kind::RegionSum { parts }
        }
        _ => return None,
    };
    let cells = to(&rule.cells(layout));
    let mut once = cells.clone();
    once.sort_unstable();
    once.dedup();
    if cells.is_empty()
        || cells.len() > MAX_CELLS
        || once.len() != cells.len()
        || once.iter().any(|&c| c >= houses.cell_count())
    {
        return None;
    }
    let mut name = rule.describe(layout);
    if let Some(first) = name.get(..1) {
        name = first.to_uppercase() + &name[1..];
    }
    Some(SumRule {
        index,
        name,
        cells,
        kind,
    })
}

/// The symbols of cell `c`: its candidates, or its placed symbol's bit.
fn symbols(g: &Candidates, c: usize) -> u32 {
    match g.value(c) {
        0 => g.cell(c),
        v => 1 << (v - 1),
    }
}

/// The least and greatest sums of `cells` from their symbols.
fn bounds(g: &Candidates, cells: &[usize]) -> (u32, u32) {
    cells.iter().fold((0, 0), |(a, b), &c| {
        let m = symbols(g, c);
        (a + m.trailing_zeros() + 1, b + 32 - m.leading_zeros())
    })
}

impl Work {
    /// Fills [`Work::support`] for the cells of `r` (and the sums, sets and
    /// places the sentence names). False when no filling fits, or the
    /// search would take more than its bounds allow.
    fn search(&mut self, g: &Candidates, r: &SumRule) -> bool {
        for &c in &r.cells {
            self.support[c] = 0;
        }
        self.made.clear();
        self.combos.clear();
        self.ends.clear();
        self.scratch.set_budget(SUM_BUDGET);
        match &r.kind {
            Kind::Arrow {
                circle,
                line,
                distinct,
            } => self.arrow(g, circle, line, *distinct),
            Kind::LittleKiller {
                cells,
                sum,
                distinct,
            } => self
                .add_fillings(g, cells, &|_| u32::MAX, *sum, *distinct)
                .is_some(),
            Kind::Sandwich { cells, sum } => self.sandwich(g, cells, *sum),
            Kind::RegionSum { parts } => self.region_sum(g, parts),
        }
    }

    /// The fillings of `cells` (each empty one limited to `keep(cell)`)
    /// that add up to `sum`, added to the support: the symbols every one
    /// of them holds where the cells all differ (none where they may
    /// repeat), or `None` when there are none (or the search ran out of
    /// budget).
    fn add_fillings(
        &mut self,
        g: &Candidates,
        cells: &[usize],
        keep: &dyn Fn(usize) -> u32,
        sum: u32,
        distinct: bool,
    ) -> Option<u32> {
        let got = placed(g, cells);
        let fill = self
            .scratch
            .fill_within(g, cells, keep, got, (sum, 0), distinct)?;
        let empty = cells.iter().filter(|&&c| g.value(c) == 0);
        for (&c, &s) in empty.zip(fill.support) {
            self.support[c] |= s;
        }
        let mut always = if fill.combos.is_empty() { 0 } else { u32::MAX };
        for &m in fill.combos {
            always &= m;
            if !self.combos.contains(&m) {
                self.combos.push(m);
            }
        }
        if !self.made.contains(&sum) {
            self.made.push(sum);
        }
        Some(always)
    }

    /// An arrow: every filling of the circle (its cells that see each
    /// other differing) is a sum for the line, whose cells lose the
    /// symbols of the circle cells they see.
    fn arrow(&mut self, g: &Candidates, circle: &[usize], line: &[usize], distinct: bool) -> bool {
        self.circle.clear();
        self.circle.extend(circle.iter().map(|&c| symbols(g, c)));
        let mut count = 1usize;
        for &m in &self.circle {
            count = count.saturating_mul(m.count_ones() as usize);
        }
        if count > MAX_CIRCLE_FILLINGS {
            return false;
        }
        let (lo, hi) = bounds(g, line);
        self.picks.clear();
        self.picks.resize(circle.len(), 0);
        for k in 0..count {
            // The k-th filling, the last cell counting fastest.
            let mut rest = k;
            for i in (0..circle.len()).rev() {
                let m = self.circle[i];
                let choices = m.count_ones() as usize;
                self.picks[i] = digits(m).nth(rest % choices).unwrap_or(0);
                rest /= choices;
            }
            let clash = (0..circle.len()).any(|i| {
                (i + 1..circle.len()).any(|j| {
                    self.picks[i] == self.picks[j] && g.houses().sees(circle[i], circle[j])
                })
            });
            let number = self
                .picks
                .iter()
                .fold(0u64, |n, &d| n.saturating_mul(10).saturating_add(d as u64));
            if clash || number < lo as u64 || number > hi as u64 {
                continue;
            }
            let picks = std::mem::take(&mut self.picks);
            let houses = g.houses();
            let keep = |c: usize| {
                circle
                    .iter()
                    .zip(&picks)
                    .filter(|&(&o, _)| houses.sees(o, c))
                    .fold(u32::MAX, |m, (_, &d)| m & !(1 << (d - 1)))
            };
            let found = self
                .add_fillings(g, line, &keep, number as u32, distinct)
                .is_some();
            self.picks = picks;
            if found {
                for (&c, &d) in circle.iter().zip(&self.picks) {
                    self.support[c] |= 1 << (d - 1);
                }
            } else if self.scratch.gave_up() {
                return false;
            }
        }
        self.made.sort_unstable();
        !self.made.is_empty()
    }

    /// A sandwich: each place of the 1 (`one`) and of the largest symbol
    /// whose cells between can make the sum with the symbols in between;
    /// the cells outside keep those in between a filling leaves out.
    fn sandwich(&mut self, g: &Candidates, cells: &[usize], sum: u32) -> bool {
        let n = g.size();
        let (one, top) = (1u32, 1u32 << (n - 1));
        let inner = full_mask(n) & !one & !top;
        for i in 0..cells.len() {
            for j in 0..cells.len() {
                let (a, b) = (cells[i], cells[j]);
                if i == j || symbols(g, a) & one == 0 || symbols(g, b) & top == 0 {
                    continue;
                }
                // The others hold the symbols in between (a placed 1 or
                // largest symbol elsewhere holds none).
                let others = cells
                    .iter()
                    .all(|&c| c == a || c == b || symbols(g, c) & inner != 0);
                if !others {
                    continue;
                }
                let between = &cells[i.min(j) + 1..i.max(j)];
                // The symbols every filling between holds stay out of the rest.
                let Some(always) = self.add_fillings(g, between, &|_| inner, sum, true) else {
                    continue;
                };
                for &c in cells {
                    if c != a && c != b && !between.contains(&c) {
                        self.support[c] |= symbols(g, c) & inner & !always;
                    }
                }
                self.support[a] |= one;
                self.support[b] |= top;
                self.ends.push((a, b));
            }
        }
        !self.ends.is_empty()
    }

    /// A region sum line: each sum all its parts can make, and each part's
    /// fillings of it. (A part's cells that see another part's are not
    /// held to differ from them: fewer eliminations, each still true.)
    fn region_sum(&mut self, g: &Candidates, parts: &[Vec<usize>]) -> bool {
        let (mut lo, mut hi) = (0u32, u32::MAX);
        for p in parts {
            let (a, b) = bounds(g, p);
            lo = lo.max(a);
            hi = hi.min(b);
        }
        for s in lo.max(1)..=hi {
            self.parts.clear();
            let mut all = true;
            for p in parts {
                let got = placed(g, p);
                match self
                    .scratch
                    .fill_within(g, p, &|_| u32::MAX, got, (s, 0), true)
                {
                    Some(f) => self.parts.extend_from_slice(f.support),
                    None => {
                        all = false;
                        break;
                    }
                }
            }
            if !all {
                continue;
            }
            self.made.push(s);
            let empty = parts.iter().flatten().filter(|&&c| g.value(c) == 0);
            for (&c, &m) in empty.zip(&self.parts) {
                self.support[c] |= m;
            }
        }
        !self.made.is_empty()
    }
}

/// The eliminations (and placements, where one symbol is left) that the
/// `support` gives the empty cells of `cells`.
fn outcome(g: &Candidates, cells: &[usize], support: &[u32]) -> (Vec<Candidate>, Vec<Candidate>) {
    let mut elims = Vec::new();
    let mut places = Vec::new();
    for &c in cells.iter().filter(|&&c| g.value(c) == 0) {
        let (m, s) = (g.cell(c), support[c]);
        elims.extend(digits(m & !s).map(|d| Candidate::new(c, d)));
        if m & !s != 0 && (m & s).count_ones() == 1 {
            places.push(Candidate::new(c, (m & s).trailing_zeros() as u8 + 1));
        }
    }
    (elims, places)
}

/// `7, 8 or 9`, or `one of 12 sums from 10 to 26`.
fn sums_or(made: &[u32]) -> String {
    match (made.first(), made.last()) {
        (Some(a), Some(b)) if made.len() > SUMS_LISTED => {
            format!("one of {} sums from {a} to {b}", made.len())
        }
        _ => {
            let v: Vec<String> = made.iter().map(u32::to_string).collect();
            join_or(&v)
        }
    }
}

/// `9 in r2c3 or r2c4, or 8 in r2c5`: eliminations as what no filling
/// puts, by symbol; or by cell (`1 or 2 in r8c2, or 5 in r2c2`) when that
/// takes fewer parts.
fn puts(cx: &Ctx, elims: &[Candidate]) -> String {
    let by_symbol: Vec<String> = by_digit(elims)
        .map(|(d, cells)| {
            let names: Vec<String> = cells.iter().map(|&c| cx.cell(c)).collect();
            format!("{} in {}", cx.sym(d), join_or(&names))
        })
        .collect();
    let mut cells: Vec<usize> = elims.iter().map(|e| e.cell).collect();
    cells.dedup();
    let parts = if cells.len() < by_symbol.len() {
        cells
            .iter()
            .map(|&c| {
                let v: Vec<String> = elims
                    .iter()
                    .filter(|e| e.cell == c)
                    .map(|e| cx.sym(e.digit).to_string())
                    .collect();
                format!("{} in {}", join_or(&v), cx.cell(c))
            })
            .collect()
    } else {
        by_symbol
    };
    match parts.as_slice() {
        [init @ .., last] if !init.is_empty() => format!("{}, or {last}", init.join(", ")),
        _ => parts.join(""),
    }
}

/// `r1c1-r1c2-r2c2`.
fn dashed(cx: &Ctx, cells: &[usize]) -> String {
    let v: Vec<String> = cells.iter().map(|&c| cx.cell(c)).collect();
    v.join("-")
}

impl Work {
    /// The step's sentence for rule `r`: what the rule asks, what its
    /// fillings can be, and what the cells keep.
    fn sentence(&self, cx: &Ctx, g: &Candidates, r: &SumRule, elims: &[Candidate]) -> String {
        let listed = !self.combos.is_empty() && self.combos.len() <= LISTED;
        let sets = || {
            let v: Vec<String> = self.combos.iter().map(|&m| combo_name(cx, m)).collect();
            join_or(&v)
        };
        let body = match &r.kind {
            Kind::Arrow { circle, line, .. } => {
                let head = match (line.as_slice(), circle.as_slice()) {
                    ([one], [c]) => format!("{} equals {}", cx.cell(*one), cx.cell(*c)),
                    (_, [c]) => {
                        format!("the line's {} cells add up to {}", line.len(), cx.cell(*c))
                    }
                    _ => format!(
                        "the line's {} cells add up to the {}-digit number in {}",
                        line.len(),
                        circle.len(),
                        dashed(cx, circle)
                    ),
                };
                let sets = if listed {
                    format!(" (as {})", sets())
                } else {
                    String::new()
                };
                format!(
                    "{head}, which their candidates can only make {}{sets}",
                    sums_or(&self.made)
                )
            }
            Kind::LittleKiller {
                cells,
                sum,
                distinct,
            } => {
                let differ = if *distinct {
                    "and all differ"
                } else {
                    "(a symbol may repeat where they share no house)"
                };
                let sets = if listed {
                    format!(", so they can only be {}", sets())
                } else {
                    String::new()
                };
                format!("its {} cells add up to {sum} {differ}{sets}", cells.len())
            }
            Kind::Sandwich { sum, .. } => {
                let (one, top) = (cx.sym(1), cx.sym(g.size() as u8));
                let places = if self.ends.len() <= SUMS_LISTED {
                    let v: Vec<String> = self
                        .ends
                        .iter()
                        .map(|&(a, b)| {
                            format!("{one} in {} with {top} in {}", cx.cell(a), cx.cell(b))
                        })
                        .collect();
                    join_or(&v)
                } else {
                    format!("in {} pairs of places", self.ends.len())
                };
                format!(
                    "the cells between the {one} and the {top} add up to {sum}, which leaves \
                     room only for {places}"
                )
            }
            Kind::RegionSum { parts } => {
                let names: Vec<String> = parts.iter().map(|p| dashed(cx, p)).collect();
                format!(
                    "its parts in each box, {}, add up alike, which their candidates allow \
                     only for {}",
                    join_and(&names),
                    sums_or(&self.made)
                )
            }
        };
        format!(
            "{}: {body}; no such filling puts {}, {}.",
            r.name,
            puts(cx, elims),
            keeps(cx, g, elims)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testutil::{classic, ctx, keep_only};

    /// The rule of one line of the text form, on the classic layout.
    fn rule(g: &Candidates, line: &str) -> Rule {
        let mut rules = Rule::parse(line, g.houses().layout()).unwrap();
        assert_eq!(rules.len(), 1, "{line}");
        rules.remove(0)
    }

    /// Every filling of the rule's cells from their candidates (cells that
    /// share a house differing) that the rule's own definition keeps: the
    /// symbols each cell takes in one, by cell.
    fn brute(g: &Candidates, rule: &Rule) -> Vec<u32> {
        fn walk(
            g: &Candidates,
            rule: &Rule,
            cells: &[usize],
            i: usize,
            v: &mut [u8],
            out: &mut [u32],
        ) {
            let layout = g.houses().layout();
            if i == cells.len() {
                if rule.holds(layout, v) {
                    for &c in cells {
                        out[c] |= 1 << (v[c] - 1);
                    }
                }
                return;
            }
            let c = cells[i];
            if g.value(c) != 0 {
                return walk(g, rule, cells, i + 1, v, out);
            }
            for d in digits(g.cell(c)) {
                let clash = cells[..i]
                    .iter()
                    .any(|&o| v[o] == d && g.houses().sees(o, c));
                if !clash {
                    v[c] = d;
                    walk(g, rule, cells, i + 1, v, out);
                    v[c] = 0;
                }
            }
        }
        let cells: Vec<usize> = rule
            .cells(g.houses().layout())
            .iter()
            .map(|&c| c as usize)
            .collect();
        let mut v = g.values().to_vec();
        let mut out = vec![0u32; v.len()];
        walk(g, rule, &cells, 0, &mut v, &mut out);
        out
    }

    /// The candidates of the rule's empty cells that no filling the rule
    /// keeps uses, sorted.
    fn impossible(g: &Candidates, rule: &Rule) -> Vec<Candidate> {
        let support = brute(g, rule);
        let mut out: Vec<Candidate> = rule
            .cells(g.houses().layout())
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| g.value(c) == 0)
            .flat_map(|c| digits(g.cell(c) & !support[c]).map(move |d| Candidate::new(c, d)))
            .collect();
        out.sort_by_key(|e| (e.cell, e.digit));
        out
    }

    /// The step of technique `t` for `rule` alone, with its eliminations
    /// sorted; checked to remove only what no filling uses (all of it
    /// when `exact`).
    fn step(g: &Candidates, rule: &Rule, t: Technique, exact: bool) -> Step {
        let houses = g.houses().clone();
        let mut sums = Sums::new(houses.layout(), &houses, std::slice::from_ref(rule)).unwrap();
        let mut st = sums.find(g, &ctx(&houses), t).expect("a step");
        st.eliminations.sort_by_key(|e| (e.cell, e.digit));
        let truth = impossible(g, rule);
        for e in &st.eliminations {
            assert!(
                truth.contains(e),
                "{} loses {}, which a filling uses: {}",
                houses.cell_name(e.cell),
                e.digit,
                st.text
            );
        }
        if exact {
            assert_eq!(st.eliminations, truth, "{}", st.text);
        }
        for p in &st.placements {
            let left = g.cell(p.cell)
                & !st
                    .eliminations
                    .iter()
                    .filter(|e| e.cell == p.cell)
                    .fold(0, |m, e| m | 1 << (e.digit - 1));
            assert_eq!(left, 1 << (p.digit - 1), "{}", st.text);
        }
        st
    }

    fn has(st: &Step, cell: usize, d: u8) -> bool {
        st.eliminations.contains(&Candidate::new(cell, d))
    }

    #[test]
    fn an_arrow_line_makes_only_what_its_circle_can_hold() {
        // r1c1 is 5; r2c2 and r3c3 share its box, so neither is 5 and they
        // differ; r4c4 sees neither. The line's fillings of 5 are 1+2+2,
        // 2+1+2, 1+3+1 and 3+1+1: r4c4 cannot be 3, which the bounds
        // (each at most 5 - 1 - 1) allow.
        let mut g = classic("");
        keep_only(&mut g, 0, &[5]);
        let r = rule(&g, "arrow r1c1 : r2c2 r3c3 r4c4");
        let st = step(&g, &r, Technique::ArrowSum, true);
        assert!(has(&st, 30, 3) && !has(&st, 30, 2), "{}", st.text);
        assert!(has(&st, 10, 4) && !has(&st, 10, 3), "{}", st.text);
        assert!(st.text.starts_with("Arrow r1c1-r4c4: "), "{}", st.text);
        assert!(st.text.contains("can only make 5"), "{}", st.text);

        // A circle of 7 or 8 with a line of three in its row: the line is
        // 1+2+4, 1+2+5 or 1+3+4: nothing above 5.
        let mut g = classic("");
        keep_only(&mut g, 0, &[7, 8]);
        let r = rule(&g, "arrow r1c1 : r1c2 r1c3 r1c4");
        let st = step(&g, &r, Technique::ArrowSum, true);
        assert!(!has(&st, 1, 5) && has(&st, 1, 6), "{}", st.text);
        assert!(st.text.contains("1+2+4"), "{}", st.text);
    }

    #[test]
    fn an_arrow_with_a_circle_of_two_cells_reads_them_as_a_number() {
        // Two line cells in the circle's box add up to at most 9 + 8 = 17,
        // and none of them repeats a circle symbol: the circle is 1x.
        let mut g = classic("");
        keep_only(&mut g, 0, &[1, 2]);
        let r = rule(&g, "arrow r1c1 r1c2 : r2c2 r2c3");
        let st = step(&g, &r, Technique::ArrowSum, true);
        assert!(has(&st, 0, 2), "{}", st.text);
        assert!(st.placements.contains(&Candidate::new(0, 1)), "{}", st.text);
        assert!(
            has(&st, 1, 9),
            "19 is more than the line can make: {}",
            st.text
        );
        assert!(
            st.text.contains("2-digit number in r1c1-r1c2"),
            "{}",
            st.text
        );
    }

    #[test]
    fn a_little_killer_repeats_only_where_its_cells_share_no_house() {
        // r1c4, r2c3, r3c2, r4c1 add up to 6; r2c3 and r3c2 share box 1.
        let mut g = classic("");
        keep_only(&mut g, 3, &[1, 2, 3, 4]);
        let r = rule(&g, "littlekiller r0c5 dl 6");
        let st = step(&g, &r, Technique::LittleKillerSum, true);
        // The pair in box 1 makes 3 or 4 (1+2, 1+3), leaving 3 or 2 for
        // r1c4 and r4c1: r1c4 keeps 1 and 2, r3c2 1 to 3, and r4c1 loses
        // the 3 that the bounds (6 less three 1s) would leave it.
        assert!(has(&st, 3, 3) && !has(&st, 3, 2), "{}", st.text);
        assert!(has(&st, 19, 4) && !has(&st, 19, 3), "{}", st.text);
        assert!(has(&st, 27, 3) && !has(&st, 27, 2), "{}", st.text);
        assert!(
            st.text.starts_with("Little killer 6 on r1c4-r4c1: "),
            "{}",
            st.text
        );
        assert!(st.text.contains("may repeat"), "{}", st.text);
        // Grouped by cell, the fewer parts: r1c4 loses 3 and 4 at once.
        assert!(st.text.contains("3 or 4 in r1c4"), "{}", st.text);
    }

    #[test]
    fn a_sandwich_finds_where_its_ends_can_stand() {
        // Row 1 sandwiches 3: the 1 and the 9 stand two apart with the 3
        // between, so neither end of the row holds the 3; with the 1 kept
        // to r1c5 or r1c6 and the 9 out of r1c4 and r1c7, the 9 stands
        // in r1c3 or r1c8 and the 3 beside it.
        let mut g = classic("");
        for c in (0..9).filter(|&c| c != 4 && c != 5) {
            g.eliminate(c, 1);
        }
        g.eliminate(3, 9);
        g.eliminate(6, 9);
        let r = rule(&g, "sandwich r1c0 3");
        let st = step(&g, &r, Technique::SandwichSum, false);
        for c in [0, 1, 4, 5, 8] {
            assert!(has(&st, c, 9), "r1c{} loses 9: {}", c + 1, st.text);
        }
        assert!(!has(&st, 2, 9) && !has(&st, 7, 9), "{}", st.text);
        for c in [0, 1, 2, 4, 5, 7, 8] {
            assert!(has(&st, c, 3), "r1c{} loses 3: {}", c + 1, st.text);
        }
        assert!(st.text.starts_with("Sandwich 3 in row 1: "), "{}", st.text);
        assert!(st.text.contains("1 in r1c5 with 9 in r1c3"), "{}", st.text);
    }

    #[test]
    fn a_region_sum_line_keeps_the_sums_every_part_can_make() {
        // r1c2 + r1c3 (box 1) make 3, 4 or 5; r2c4 + r3c4 (box 2) must too.
        let mut g = classic("");
        keep_only(&mut g, 1, &[1, 2]);
        keep_only(&mut g, 2, &[1, 2, 3]);
        let r = rule(&g, "regionsum r1c2 r1c3 r2c4 r3c4");
        let st = step(&g, &r, Technique::RegionSumLine, true);
        assert!(has(&st, 12, 5) && !has(&st, 12, 4), "{}", st.text);
        assert!(st.text.contains("only for 3, 4 or 5"), "{}", st.text);
    }

    #[test]
    fn a_rule_whose_fillings_outrun_the_budget_is_passed_over() {
        // A full diagonal of open cells whose sum is near the middle has
        // far more fillings than the budget walks.
        let g = classic("");
        let r = rule(&g, "littlekiller r0c0 dr 45");
        let houses = g.houses().clone();
        let mut sums = Sums::new(houses.layout(), &houses, std::slice::from_ref(&r)).unwrap();
        assert!(
            sums.find(&g, &ctx(&houses), Technique::LittleKillerSum)
                .is_none()
        );
        assert!(sums.work.scratch.gave_up());
    }
}
