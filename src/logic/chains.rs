//! Alternating inference chains of bounded length: X-chains (one symbol),
//! XY-chains (bivalue cells) and chains mixing both.
//!
//! A chain runs from a candidate A assumed false, through strong links (if
//! this one is false, that one is true: the only other place of a symbol in
//! a house, or the other candidate of a bivalue cell) and weak links (if
//! this one is true, that one is false: the same symbol in a shared house,
//! or another symbol of the same cell), to a candidate B found true. So A or
//! B holds, and any candidate weakly linked to both goes; a chain that comes
//! back to A itself places it. Chains are searched breadth first from every
//! start, so the shortest one is found, and weigh SE's forcing chains: the
//! base of the kind plus [`length_bonus`] of the number of candidates.

use super::cands::{Candidate, Candidates};
use super::ctx::Ctx;
use super::step::{ChainNode, Step, Technique, length_bonus};

/// The longest chain searched, in candidates. Longer chains exist but are
/// not a hint a person can follow, and the search cost grows with length.
pub const MAX_CHAIN: usize = 20;

/// Which links a search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Links {
    /// One symbol (0-based), links through houses only.
    Digit(usize),
    /// Strong links inside bivalue cells, weak links between cells on one
    /// symbol.
    Bivalue,
    /// Every link.
    All,
}

/// A chain found: its nodes from A (false) to B (true).
struct Found {
    nodes: Vec<u32>,
    elims: Vec<u32>,
    /// B is A: the chain places A.
    places: bool,
}

/// Reusable search buffers, sized for one layout.
pub(crate) struct ChainScratch {
    epoch: u32,
    seen_on: Vec<u32>,
    seen_off: Vec<u32>,
    parent_on: Vec<u32>,
    parent_off: Vec<u32>,
    queue: Vec<(u32, bool)>,
    /// The grid's links, built once per search: strong partners of each
    /// candidate (the top bit marks a link inside a cell), and its symbol in
    /// the cells it sees.
    strong_start: Vec<u32>,
    strong_adj: Vec<u32>,
    peer_start: Vec<u32>,
    peer_adj: Vec<u32>,
    weak_buf: Vec<u32>,
    /// Bits of the candidates weakly linked to the current start.
    near: Vec<u64>,
}

/// Marks a strong link inside a cell in `strong_adj`.
const CELL_LINK: u32 = 1 << 31;

impl ChainScratch {
    pub fn new(candidates: usize) -> ChainScratch {
        ChainScratch {
            epoch: 0,
            seen_on: vec![0; candidates],
            seen_off: vec![0; candidates],
            parent_on: vec![0; candidates],
            parent_off: vec![0; candidates],
            queue: Vec::with_capacity(2 * candidates),
            strong_start: vec![0; candidates + 1],
            strong_adj: Vec::new(),
            peer_start: vec![0; candidates + 1],
            peer_adj: Vec::new(),
            weak_buf: Vec::new(),
            near: vec![0; candidates.div_ceil(64)],
        }
    }

    /// Marks (`on`) or clears the candidates weakly linked to `a`.
    fn mark_near(&mut self, g: &Candidates, a: u32, on: bool) {
        let n = g.size() as u32;
        let (c, d) = (a / n, a % n);
        let mut set = |k: u32| {
            let (w, b) = ((k / 64) as usize, k % 64);
            if on {
                self.near[w] |= 1 << b;
            } else {
                self.near[w] &= !(1 << b);
            }
        };
        for &k in &self.peer_adj
            [self.peer_start[a as usize] as usize..self.peer_start[a as usize + 1] as usize]
        {
            set(k);
        }
        for e in super::houses::bits(g.cell(c as usize) & !(1 << d)) {
            set(c * n + e as u32);
        }
    }

    #[inline]
    fn is_near(&self, k: u32) -> bool {
        self.near[(k / 64) as usize] >> (k % 64) & 1 != 0
    }

    /// Builds the link lists of `g`.
    fn build(&mut self, g: &Candidates) {
        let n = g.size();
        let houses = g.houses();
        self.strong_adj.clear();
        self.peer_adj.clear();
        let cells = houses.cell_count();
        for c in 0..cells {
            let m = g.cell(c);
            for d in 0..n {
                let k = c * n + d;
                self.strong_start[k] = self.strong_adj.len() as u32;
                self.peer_start[k] = self.peer_adj.len() as u32;
                if m >> d & 1 == 0 {
                    continue;
                }
                for &(h, i) in houses.houses_of(c) {
                    let p = g.places(h as usize, d as u8 + 1);
                    if p.count_ones() == 2 {
                        let o = houses.house(h as usize)[(p & !(1 << i)).trailing_zeros() as usize];
                        let o = o * n as u32 + d as u32;
                        if !self.strong_adj[self.strong_start[k] as usize..].contains(&o) {
                            self.strong_adj.push(o);
                        }
                    }
                }
                if m.count_ones() == 2 {
                    let other = (m & !(1 << d)).trailing_zeros();
                    self.strong_adj.push(((c * n) as u32 + other) | CELL_LINK);
                }
                for &p in houses.peers(c) {
                    if g.has(p as usize, d as u8 + 1) {
                        self.peer_adj.push(p * n as u32 + d as u32);
                    }
                }
            }
        }
        self.strong_start[cells * n] = self.strong_adj.len() as u32;
        self.peer_start[cells * n] = self.peer_adj.len() as u32;
    }

    fn next_epoch(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.seen_on.fill(0);
            self.seen_off.fill(0);
            self.epoch = 1;
        }
        self.epoch
    }
}

/// Breadth-first from `a` false, up to `max` candidates long: the shortest
/// chain from `a` that removes or places something. Needs [`ChainScratch::build`].
fn from_start(
    g: &Candidates,
    s: &mut ChainScratch,
    a: u32,
    links: Links,
    max: usize,
) -> Option<Found> {
    let epoch = s.next_epoch();
    s.mark_near(g, a, true);
    s.queue.clear();
    s.queue.push((a, false));
    s.seen_off[a as usize] = epoch;
    let walk = Walk {
        n: g.size() as u32,
        a,
        links,
        max,
        epoch,
    };
    let mut weak_buf = std::mem::take(&mut s.weak_buf);
    let result = walk.levels(g, s, &mut weak_buf);
    s.weak_buf = weak_buf;
    s.mark_near(g, a, false);
    result
}

/// One breadth-first walk of [`from_start`]: its start, the links it may
/// use, how long its chains may grow, and the epoch that marks what it saw.
#[derive(Clone, Copy)]
struct Walk {
    n: u32,
    a: u32,
    links: Links,
    max: usize,
    epoch: u32,
}

impl Walk {
    /// Walks the queue one chain length at a time until a node concludes.
    /// `weak_buf` is scratch for a node's weak partners.
    fn levels(
        self,
        g: &Candidates,
        s: &mut ChainScratch,
        weak_buf: &mut Vec<u32>,
    ) -> Option<Found> {
        let mut head = 0;
        let mut len = 1;
        while head < s.queue.len() && len <= self.max {
            let level_end = s.queue.len();
            while head < level_end {
                let (u, on) = s.queue[head];
                head += 1;
                if on {
                    if let Some(found) = self.reached_true(g, s, u, len, weak_buf) {
                        return Some(found);
                    }
                } else if len < self.max {
                    self.queue_strong(s, u);
                }
            }
            len += 1;
        }
        None
    }

    /// Node `u` reached true by a chain of `len` candidates: the chain
    /// places the start when `u` is the start, removes what sees both ends
    /// when that is something, and otherwise goes on through `u`'s weak
    /// partners.
    fn reached_true(
        self,
        g: &Candidates,
        s: &mut ChainScratch,
        u: u32,
        len: usize,
        weak_buf: &mut Vec<u32>,
    ) -> Option<Found> {
        if u == self.a {
            return Some(Found {
                nodes: path(s, u),
                elims: Vec::new(),
                places: true,
            });
        }
        let others = self.weak_partners(g, s, u, weak_buf);
        if len >= 2
            && let Some(found) = self.seen_by_both_ends(s, u, others, weak_buf)
        {
            return Some(found);
        }
        if len < self.max {
            for &w in weak_buf.iter() {
                if s.seen_off[w as usize] != self.epoch {
                    s.seen_off[w as usize] = self.epoch;
                    s.parent_off[w as usize] = u;
                    s.queue.push((w, false));
                }
            }
        }
        None
    }

    /// Fills `weak_buf` with the weak partners of `u`: the symbol in the
    /// cells it sees, and (for chains that use cells) the cell's other
    /// candidates. Returns those other candidates, as symbol bits.
    fn weak_partners(
        self,
        g: &Candidates,
        s: &ChainScratch,
        u: u32,
        weak_buf: &mut Vec<u32>,
    ) -> u32 {
        let n = self.n;
        weak_buf.clear();
        weak_buf.extend_from_slice(
            &s.peer_adj[s.peer_start[u as usize] as usize..s.peer_start[u as usize + 1] as usize],
        );
        let (c, d) = (u / n, u % n);
        let others = g.cell(c as usize) & !(1 << d);
        if self.links == Links::All {
            for e in super::houses::bits(others) {
                weak_buf.push(c * n + e as u32);
            }
        }
        others
    }

    /// The chain ending at `u` (true) when some weak partner of `u`, or
    /// another candidate of its cell, is near the start: those lose.
    fn seen_by_both_ends(
        self,
        s: &ChainScratch,
        u: u32,
        others: u32,
        weak_buf: &[u32],
    ) -> Option<Found> {
        let c = u / self.n;
        let other_nodes = || super::houses::bits(others).map(move |e| c * self.n + e as u32);
        let any = weak_buf.iter().any(|&t| s.is_near(t)) || other_nodes().any(|t| s.is_near(t));
        if !any {
            return None;
        }
        let mut elims: Vec<u32> = weak_buf.iter().copied().filter(|&t| s.is_near(t)).collect();
        if self.links != Links::All {
            elims.extend(other_nodes().filter(|&t| s.is_near(t)));
        }
        elims.sort_unstable();
        elims.dedup();
        Some(Found {
            nodes: path(s, u),
            elims,
            places: false,
        })
    }

    /// Queues true, unseen, the strong partners of `u` (false) that the
    /// walk's links allow.
    fn queue_strong(self, s: &mut ChainScratch, u: u32) {
        let (from, to) = (
            s.strong_start[u as usize] as usize,
            s.strong_start[u as usize + 1] as usize,
        );
        for i in from..to {
            let x = s.strong_adj[i];
            let cell_link = x & CELL_LINK != 0;
            let v = x & !CELL_LINK;
            let allowed = match self.links {
                Links::Digit(_) => !cell_link,
                Links::Bivalue => cell_link,
                Links::All => true,
            };
            if allowed && s.seen_on[v as usize] != self.epoch {
                s.seen_on[v as usize] = self.epoch;
                s.parent_on[v as usize] = u;
                s.queue.push((v, true));
            }
        }
    }
}

/// The chain ending at `b` (true), from its start (false).
fn path(s: &ChainScratch, b: u32) -> Vec<u32> {
    let mut nodes = vec![b];
    let mut on = true;
    let mut cur = b;
    loop {
        let prev = if on {
            s.parent_on[cur as usize]
        } else {
            s.parent_off[cur as usize]
        };
        nodes.push(prev);
        on = !on;
        cur = prev;
        if !on && s.queue.first().is_some_and(|&(a, _)| a == cur) {
            break;
        }
    }
    nodes.reverse();
    nodes
}

/// The longest chain (in candidates) whose weight stays below `bound` for
/// a technique weighing `base`.
pub(crate) fn max_length(base: f32, bound: f32) -> usize {
    let mut k = 0;
    while k < MAX_CHAIN && base + length_bonus(k + 1) < bound - 1e-4 {
        k += 1;
    }
    k
}

/// The shortest chain of technique `want` (X-chain, XY-chain or any
/// alternating chain) weighing less than `bound`.
#[inline(never)]
pub(crate) fn find(
    g: &Candidates,
    cx: &Ctx,
    s: &mut ChainScratch,
    want: Technique,
    bound: f32,
    accept: f32,
) -> Option<Step> {
    let n = g.size();
    let max = max_length(want.base(), bound);
    if max < 2 {
        return None;
    }
    let mut best: Option<Found> = None;
    let mut limit = max;
    s.build(g);
    // Any chain this short is accepted as soon as it is found.
    let enough = max_length(want.base(), accept + 2e-4);
    let cells = g.houses().cell_count();
    'starts: for c in 0..cells {
        let m = g.cell(c);
        if m == 0 || (want == Technique::XYChain && m.count_ones() != 2) {
            continue;
        }
        for d in super::houses::bits(m) {
            let links = match want {
                Technique::XChain => Links::Digit(d),
                Technique::XYChain => Links::Bivalue,
                _ => Links::All,
            };
            let a = (c * n + d) as u32;
            // A start needs a strong link of the kind the chain uses.
            let (from, to) = (
                s.strong_start[a as usize] as usize,
                s.strong_start[a as usize + 1] as usize,
            );
            let usable = s.strong_adj[from..to].iter().any(|&x| match links {
                Links::Digit(_) => x & CELL_LINK == 0,
                Links::Bivalue => x & CELL_LINK != 0,
                Links::All => true,
            });
            if !usable {
                continue;
            }
            if let Some(f) = from_start(g, s, a, links, limit)
                && best.as_ref().is_none_or(|b| f.nodes.len() < b.nodes.len())
            {
                limit = f.nodes.len() - 1;
                let done = f.nodes.len() <= enough;
                best = Some(f);
                if done {
                    break 'starts;
                }
            }
        }
    }
    let f = best?;
    let technique = classify(g, &f.nodes, want);
    Some(step(g, cx, technique, f))
}

/// What a chain found by the search for `want` is called.
fn classify(g: &Candidates, nodes: &[u32], want: Technique) -> Technique {
    let n = g.size();
    if want != Technique::AlternatingChain {
        return want;
    }
    let one_digit = nodes
        .iter()
        .all(|&k| k as usize % n == nodes[0] as usize % n);
    if one_digit {
        return Technique::XChain;
    }
    // Strong links (odd to even positions) inside cells, weak links across.
    let bivalue = nodes
        .chunks(2)
        .all(|p| p.len() < 2 || p[0] as usize / n == p[1] as usize / n)
        && nodes[1..]
            .chunks(2)
            .all(|p| p.len() < 2 || p[0] as usize / n != p[1] as usize / n);
    if bivalue {
        Technique::XYChain
    } else {
        Technique::AlternatingChain
    }
}

fn step(g: &Candidates, cx: &Ctx, technique: Technique, f: Found) -> Step {
    let n = g.size();
    let cand = |k: u32| Candidate::new(k as usize / n, (k as usize % n) as u8 + 1);
    let mut st = Step::new(technique);
    st.difficulty = technique.base() + length_bonus(f.nodes.len());
    let nodes: Vec<ChainNode> = f
        .nodes
        .iter()
        .enumerate()
        .map(|(i, &k)| ChainNode {
            candidate: cand(k),
            on: i % 2 == 1,
        })
        .collect();
    st.pattern = nodes.iter().map(|x| x.candidate).collect();
    st.cells_from_pattern();
    if f.places {
        st.placements.push(cand(f.nodes[0]));
    } else {
        st.eliminations = f.elims.iter().map(|&k| cand(k)).collect();
    }
    if cx.text {
        st.text = chain_text(cx, technique, &nodes, &st);
    }
    st.chains.push(nodes);
    st
}

/// `if r1c1 is not 4, then r1c5 is 4, so r3c5 is not 4, ...`.
pub(crate) fn implications(cx: &Ctx, nodes: &[ChainNode]) -> String {
    let mut out = String::new();
    for (i, x) in nodes.iter().enumerate() {
        let what = format!(
            "{} is {}{}",
            cx.cell(x.candidate.cell),
            if x.on { "" } else { "not " },
            cx.sym(x.candidate.digit)
        );
        out.push_str(&match i {
            0 => format!("if {what}"),
            _ if x.on => format!(", then {what}"),
            _ => format!(", so {what}"),
        });
    }
    out
}

fn chain_text(cx: &Ctx, technique: Technique, nodes: &[ChainNode], st: &Step) -> String {
    let name = super::intersect::capitalised(technique.name());
    let (a, b) = (nodes[0].candidate, nodes[nodes.len() - 1].candidate);
    if let Some(p) = st.placements.first() {
        return format!(
            "{name}: {}; so {} is {}.",
            implications(cx, nodes),
            cx.cell(p.cell),
            cx.sym(p.digit)
        );
    }
    format!(
        "{name}: {}; so {} is {} or {} is {}, and {}.",
        implications(cx, nodes),
        cx.cell(a.cell),
        cx.sym(a.digit),
        cx.cell(b.cell),
        cx.sym(b.digit),
        removal_clause(cx, &st.eliminations),
    )
}

/// `r1c9 cannot be 4`, `r1c9 cannot be 4 and r2c2 cannot be 7`.
pub(crate) fn removal_clause(cx: &Ctx, elims: &[Candidate]) -> String {
    let parts: Vec<String> = super::ctx::by_digit(elims)
        .map(|(d, cells)| format!("{} cannot be {}", cx.cells(&cells), cx.sym(d)))
        .collect();
    super::houses::join_and(&parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testutil::{classic, ctx, keep_only, only};

    #[test]
    fn max_length_follows_the_bonus_ladder() {
        assert_eq!(max_length(6.6, 6.65), 4);
        assert_eq!(max_length(6.6, 6.75), 6);
        assert_eq!(max_length(7.0, 7.0), 0);
        assert_eq!(max_length(6.6, f32::INFINITY), MAX_CHAIN);
    }

    #[test]
    fn x_chain_of_three_strong_links() {
        let mut g = classic("");
        // 5: row 1 r1c1-r1c6, column 6 r1c6... use r1c1=r1c6, r4c6? Build
        // r1c1=r1c6 (row 1), r1c6 - r5c6 (column 6, weak), r5c6=r5c8 (row 5),
        // r5c8 - r8c8 (column 8, weak), r8c8=r8c2 (row 8).
        only(&mut g, 5, &[0, 5], 0..9);
        only(&mut g, 5, &[41, 43], 36..45);
        only(&mut g, 5, &[70, 64], 63..72);
        let cx = ctx(g.houses());
        let mut s = ChainScratch::new(81 * 9);
        let st = find(&g, &cx, &mut s, Technique::XChain, f32::INFINITY, 0.0).unwrap();
        assert_eq!(st.technique, Technique::XChain);
        // Three strong links with two weak links between: six candidates.
        assert_eq!(st.chains[0].len(), 6);
        assert!((st.difficulty - 6.7).abs() < 1e-6, "{}", st.difficulty);
        // Either r1c1 or r8c2 is 5: cells seeing both lose it.
        let ends = (
            st.chains[0][0].candidate.cell,
            st.chains[0][5].candidate.cell,
        );
        assert!(ends == (0, 64) || ends == (64, 0), "{ends:?}");
        assert!(st.eliminations.iter().all(|e| e.digit == 5));
        let mut cells: Vec<usize> = st.eliminations.iter().map(|e| e.cell).collect();
        cells.sort();
        // Box 1 meets column 2 (r2c2, r3c2); column 1 meets box 7 (r7c1, r9c1).
        assert_eq!(cells, [10, 19, 54, 72]);
    }

    #[test]
    fn xy_chain_through_bivalue_cells() {
        let mut g = classic("");
        keep_only(&mut g, 0, &[1, 2]); // r1c1
        keep_only(&mut g, 4, &[2, 3]); // r1c5
        keep_only(&mut g, 40, &[3, 4]); // r5c5
        keep_only(&mut g, 44, &[4, 1]); // r5c9
        let cx = ctx(g.houses());
        let mut s = ChainScratch::new(81 * 9);
        let st = find(&g, &cx, &mut s, Technique::XYChain, f32::INFINITY, 0.0).unwrap();
        assert_eq!(st.technique, Technique::XYChain);
        assert_eq!(st.chains[0].len(), 8);
        assert!((st.difficulty - 7.2).abs() < 1e-6, "{}", st.difficulty);
        // r1c1 or r5c9 is 1: r1c9 and r5c1 lose 1.
        let mut got: Vec<Candidate> = st.eliminations.clone();
        got.sort();
        assert_eq!(got, [Candidate::new(8, 1), Candidate::new(36, 1)]);
        assert!(
            st.text.starts_with(
                "XY-chain: if r1c1 is not 1, then r1c1 is 2, so r1c5 is not 2, then r1c5 is 3,"
            ) || st.text.starts_with("XY-chain: if r5c9 is not 1"),
            "{}",
            st.text
        );
    }
}
