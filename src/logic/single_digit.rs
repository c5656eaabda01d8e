//! Patterns on one symbol's strong links (houses where it has two places):
//! skyscraper, two-string kite and turbot fish (two strong links whose ends
//! meet), and simple colouring.

use super::cands::{Candidate, Candidates};
use super::ctx::Ctx;
use super::step::{ChainNode, Step, Technique, length_bonus};
use crate::grid::HouseKind;

/// The strong links of `d`: (house, first cell, second cell).
fn strong_links(g: &Candidates, d: u8, out: &mut Vec<(usize, usize, usize)>) {
    let houses = g.houses();
    out.clear();
    for h in 0..houses.house_count() {
        let p = g.places(h, d);
        if p.count_ones() == 2 {
            let mut it = houses.cells_at(h, p);
            let (a, b) = (it.next().expect("two"), it.next().expect("two"));
            // Two houses sharing both cells give the same link.
            if !out.iter().any(|&(_, x, y)| (x, y) == (a, b)) {
                out.push((h, a, b));
            }
        }
    }
}

fn kind_of(g: &Candidates, h1: usize, h2: usize, a2: usize, b2: usize) -> Technique {
    let houses = g.houses();
    let (k1, k2) = (houses.kind(h1), houses.kind(h2));
    let shared: Vec<HouseKind> = houses
        .houses_of(a2)
        .iter()
        .filter(|&&(h, _)| houses.index_in(b2, h as usize).is_some())
        .map(|&(h, _)| houses.kind(h as usize))
        .collect();
    match (k1, k2) {
        (HouseKind::Row, HouseKind::Row) if shared.contains(&HouseKind::Column) => {
            Technique::Skyscraper
        }
        (HouseKind::Column, HouseKind::Column) if shared.contains(&HouseKind::Row) => {
            Technique::Skyscraper
        }
        (HouseKind::Row, HouseKind::Column) | (HouseKind::Column, HouseKind::Row)
            if shared.contains(&HouseKind::Box) =>
        {
            Technique::TwoStringKite
        }
        _ => Technique::TurbotFish,
    }
}

/// Two strong links on one symbol whose ends `a2`, `b2` share a house: one
/// of the far ends `a1`, `b1` holds the symbol, so it leaves every cell that
/// sees both. `want` picks skyscraper, two-string kite or turbot fish; with
/// `None`, the first skyscraper, else the first kite, else the first turbot
/// fish, in one pass.
#[inline(never)]
pub(crate) fn turbot(g: &Candidates, cx: &Ctx, want: Option<Technique>) -> Option<Step> {
    let mut later: [Option<Step>; 2] = [None, None];
    let found = turbot_pass(g, cx, want, &mut later);
    found
        .or_else(|| later[0].take())
        .or_else(|| later[1].take())
}

fn turbot_pass(
    g: &Candidates,
    cx: &Ctx,
    want: Option<Technique>,
    later: &mut [Option<Step>; 2],
) -> Option<Step> {
    let houses = g.houses();
    let mut links = Vec::new();
    for d in 1..=houses.size() as u8 {
        strong_links(g, d, &mut links);
        for (i, &(h1, x1, x2)) in links.iter().enumerate() {
            for &(h2, y1, y2) in &links[i + 1..] {
                for (a1, a2) in [(x1, x2), (x2, x1)] {
                    for (b1, b2) in [(y1, y2), (y2, y1)] {
                        let cells = [a1, a2, b1, b2];
                        if (1..4).any(|k| cells[..k].contains(&cells[k])) || !houses.sees(a2, b2) {
                            continue;
                        }
                        let kind = kind_of(g, h1, h2, a2, b2);
                        let slot = match kind {
                            Technique::TwoStringKite => 0,
                            _ => 1,
                        };
                        if want.is_some_and(|w| w != kind)
                            || (kind != Technique::Skyscraper && later[slot].is_some())
                        {
                            continue;
                        }
                        let elims: Vec<Candidate> = houses
                            .peers(a1)
                            .iter()
                            .map(|&c| c as usize)
                            .filter(|&c| g.has(c, d) && !cells.contains(&c) && houses.sees(c, b1))
                            .map(|c| Candidate::new(c, d))
                            .collect();
                        if elims.is_empty() {
                            continue;
                        }
                        let mut st = Step::new(kind);
                        let node = |c: usize, on: bool| ChainNode {
                            candidate: Candidate::new(c, d),
                            on,
                        };
                        let chain = vec![
                            node(a1, false),
                            node(a2, true),
                            node(b2, false),
                            node(b1, true),
                        ];
                        st.difficulty = kind.base() + length_bonus(chain.len());
                        st.pattern = chain.iter().map(|n| n.candidate).collect();
                        st.cells = vec![a1, a2, b2, b1];
                        st.houses.extend([h1, h2]);
                        st.chains.push(chain);
                        st.eliminations = elims;
                        if cx.text {
                            let removed: Vec<usize> =
                                st.eliminations.iter().map(|e| e.cell).collect();
                            st.text = format!(
                                "{}: in {}, {} is in {} or {}, and in {}, in {} or {}; {} and {} \
                                 see each other, so {} or {} is {}, and {} cannot be {}.",
                                super::intersect::capitalised(kind.name()),
                                cx.house(h1),
                                cx.sym(d),
                                cx.cell(a1),
                                cx.cell(a2),
                                cx.house(h2),
                                cx.cell(b1),
                                cx.cell(b2),
                                cx.cell(a2),
                                cx.cell(b2),
                                cx.cell(a1),
                                cx.cell(b1),
                                cx.sym(d),
                                cx.cells(&removed),
                                cx.sym(d),
                            );
                        }
                        if kind == Technique::Skyscraper || want.is_some() {
                            return Some(st);
                        }
                        later[slot] = Some(st);
                    }
                }
            }
        }
    }
    None
}

/// Simple colouring: the cells joined by a symbol's strong links take two
/// alternating colours, one of which is true. Two cells of one colour that
/// see each other make that colour false (wrap); a cell that sees both
/// colours cannot hold the symbol (trap). Only the removals with the
/// shortest chain behind them are taken, so the step weighs what that chain
/// does on SE's scale.
#[inline(never)]
pub(crate) fn colouring(g: &Candidates, cx: &Ctx) -> Option<Step> {
    let houses = g.houses();
    let mut links = Vec::new();
    let mut best: Option<Step> = None;
    for d in 1..=houses.size() as u8 {
        strong_links(g, d, &mut links);
        let graph = LinkGraph::new(&links);
        let (comp, components) = graph.components();
        for members in &components {
            if members.len() < 3 {
                continue; // one strong link alone proves nothing
            }
            let colours = Colours {
                graph: &graph,
                comp: &comp,
                members,
                start: members[0],
            };
            let beat = best.as_ref().map(|b| b.difficulty);
            if let Some(st) = colours.step(g, cx, d, beat) {
                best = Some(st);
            }
        }
    }
    best
}

/// The strong links of one symbol as a graph: the cells they join, and
/// each cell's neighbours (as indices into `cells`).
struct LinkGraph {
    cells: Vec<usize>,
    adj: Vec<Vec<usize>>,
}

/// A removal a colouring proves: the length of its chain, the candidate,
/// the chain's ends (indices into the graph's cells), and whether it comes
/// from a wrap (else a trap).
type Removal = (usize, Candidate, usize, usize, bool);

impl LinkGraph {
    /// The graph of `links` (house, first cell, second cell).
    fn new(links: &[(usize, usize, usize)]) -> LinkGraph {
        let mut cells: Vec<usize> = Vec::new();
        for &(_, a, b) in links {
            for c in [a, b] {
                if !cells.contains(&c) {
                    cells.push(c);
                }
            }
        }
        let mut graph = LinkGraph {
            adj: vec![Vec::new(); cells.len()],
            cells,
        };
        for &(_, a, b) in links {
            let (i, j) = (graph.index(a), graph.index(b));
            graph.adj[i].push(j);
            graph.adj[j].push(i);
        }
        graph
    }

    /// The index of cell `c`, which is in the graph.
    fn index(&self, c: usize) -> usize {
        self.cells
            .iter()
            .position(|&x| x == c)
            .expect("in the graph")
    }

    /// The connected components: each node's component (named by its first
    /// node), and each component's nodes in breadth-first order from that
    /// first node, the components in the order of their first nodes.
    fn components(&self) -> (Vec<usize>, Vec<Vec<usize>>) {
        let m = self.cells.len();
        let mut comp = vec![usize::MAX; m];
        let mut components = Vec::new();
        for start in 0..m {
            if comp[start] != usize::MAX {
                continue;
            }
            let mut members = vec![start];
            comp[start] = start;
            let mut k = 0;
            while k < members.len() {
                let u = members[k];
                for &v in &self.adj[u] {
                    if comp[v] == usize::MAX {
                        comp[v] = start;
                        members.push(v);
                    }
                }
                k += 1;
            }
            components.push(members);
        }
        (comp, components)
    }

    /// Distances and breadth-first parents from node `from` (`usize::MAX`
    /// outside its component).
    fn distances(&self, from: usize) -> (Vec<usize>, Vec<usize>) {
        let m = self.cells.len();
        let mut dist = vec![usize::MAX; m];
        let mut parent = vec![usize::MAX; m];
        dist[from] = 0;
        let mut q = vec![from];
        let mut k = 0;
        while k < q.len() {
            let u = q[k];
            for &v in &self.adj[u] {
                if dist[v] == usize::MAX {
                    dist[v] = dist[u] + 1;
                    parent[v] = u;
                    q.push(v);
                }
            }
            k += 1;
        }
        (dist, parent)
    }
}

/// One component of a symbol's strong links, coloured in two by the
/// parity of the distance from its first node: one colour holds the symbol.
struct Colours<'a> {
    graph: &'a LinkGraph,
    /// Each node's component ([`LinkGraph::components`]).
    comp: &'a [usize],
    /// The component's nodes, `start` first.
    members: &'a [usize],
    start: usize,
}

impl Colours<'_> {
    /// The simple colouring step this component proves on `d`, when it
    /// proves one and it is easier than `beat` (the best difficulty so far).
    fn step(&self, g: &Candidates, cx: &Ctx, d: u8, beat: Option<f32>) -> Option<Step> {
        // First whether the colours prove anything at all (rarely), and
        // only then how long each proof is.
        if !self.proves_something(g, d) {
            return None;
        }
        let m = self.graph.cells.len();
        let table: Vec<(Vec<usize>, Vec<usize>)> = (0..m)
            .map(|i| {
                if self.comp[i] == self.start {
                    self.graph.distances(i)
                } else {
                    (Vec::new(), Vec::new())
                }
            })
            .collect();
        let colour = |i: usize| table[self.start].0[i] % 2;
        // Each removal with the length of its chain and the chain's ends.
        let mut found = self.wraps(g, d, &table, &colour);
        if found.is_empty() {
            found = self.traps(g, d, &table, &colour);
        }
        let &(len, _, u, v, wrap) = found.iter().min_by_key(|f| f.0)?;
        let difficulty = Technique::SimpleColouring.base() + length_bonus(len);
        if beat.is_some_and(|b| b <= difficulty) {
            return None;
        }
        let cells = &self.graph.cells;
        let mut st = Step::new(Technique::SimpleColouring);
        st.difficulty = difficulty;
        let mut elims: Vec<Candidate> = found.iter().filter(|f| f.0 == len).map(|f| f.1).collect();
        elims.sort();
        elims.dedup();
        st.eliminations = elims;
        // The chain from u to v along the strong links.
        let mut path = vec![v];
        while *path.last().expect("non-empty") != u {
            let p = table[u].1[*path.last().expect("non-empty")];
            path.push(p);
        }
        path.reverse();
        let chain: Vec<ChainNode> = path
            .iter()
            .map(|&i| ChainNode {
                candidate: Candidate::new(cells[i], d),
                on: colour(i) != colour(u),
            })
            .collect();
        st.pattern = self
            .members
            .iter()
            .map(|&i| Candidate::new(cells[i], d))
            .collect();
        st.cells_from_pattern();
        st.chains.push(chain);
        if cx.text {
            st.text = self.sentence(cx, d, &st, (u, v, wrap), &colour);
        }
        Some(st)
    }

    /// Whether two members of one colour see each other (a wrap), or a
    /// candidate outside the component sees both colours (a trap): the
    /// colouring then removes something.
    fn proves_something(&self, g: &Candidates, d: u8) -> bool {
        let houses = g.houses();
        let (cells, members) = (&self.graph.cells, self.members);
        let root = self.graph.distances(self.start).0;
        let same = |u: usize, v: usize| root[u] % 2 == root[v] % 2;
        let wraps = members.iter().enumerate().any(|(x, &u)| {
            members[x + 1..]
                .iter()
                .any(|&v| same(u, v) && houses.sees(cells[u], cells[v]))
        });
        let traps = !wraps
            && (0..houses.cell_count()).any(|c| {
                g.has(c, d)
                    && !members.iter().any(|&u| cells[u] == c)
                    && members.iter().any(|&u| {
                        houses.sees(c, cells[u])
                            && members
                                .iter()
                                .any(|&v| !same(u, v) && houses.sees(c, cells[v]))
                    })
            });
        wraps || traps
    }

    /// Wrap: two members of one colour sharing a house; every member of
    /// that colour loses `d`. `table` holds distances and parents from each
    /// member.
    fn wraps(
        &self,
        g: &Candidates,
        d: u8,
        table: &[(Vec<usize>, Vec<usize>)],
        colour: &dyn Fn(usize) -> usize,
    ) -> Vec<Removal> {
        let houses = g.houses();
        let (cells, members) = (&self.graph.cells, self.members);
        let mut found = Vec::new();
        for (x, &u) in members.iter().enumerate() {
            for &v in &members[x + 1..] {
                if colour(u) == colour(v) && houses.sees(cells[u], cells[v]) {
                    let len = table[u].0[v];
                    for &w in members {
                        if colour(w) == colour(u) {
                            found.push((len, Candidate::new(cells[w], d), u, v, true));
                        }
                    }
                }
            }
        }
        found
    }

    /// Trap: a cell outside the colours seeing both loses `d`, by the
    /// shortest chain between the two members it sees.
    fn traps(
        &self,
        g: &Candidates,
        d: u8,
        table: &[(Vec<usize>, Vec<usize>)],
        colour: &dyn Fn(usize) -> usize,
    ) -> Vec<Removal> {
        let houses = g.houses();
        let (cells, members) = (&self.graph.cells, self.members);
        let mut found = Vec::new();
        for c in 0..houses.cell_count() {
            if !g.has(c, d) || cells.contains(&c) && self.comp[self.graph.index(c)] == self.start {
                continue;
            }
            let mut pick: Option<(usize, usize, usize)> = None;
            for &u in members {
                if !houses.sees(c, cells[u]) {
                    continue;
                }
                for &v in members {
                    if colour(v) != colour(u) && houses.sees(c, cells[v]) {
                        let len = table[u].0[v] + 1;
                        if pick.is_none_or(|p| len < p.0) {
                            pick = Some((len, u, v));
                        }
                    }
                }
            }
            if let Some((len, u, v)) = pick {
                found.push((len, Candidate::new(c, d), u, v, false));
            }
        }
        found
    }

    /// The step's sentence: the two colours, and the wrap (`u` and `v` of
    /// one colour see each other) or the trap that removes `d`.
    fn sentence(
        &self,
        cx: &Ctx,
        d: u8,
        st: &Step,
        (u, v, wrap): (usize, usize, bool),
        colour: &dyn Fn(usize) -> usize,
    ) -> String {
        let cells = &self.graph.cells;
        let (a, b): (Vec<usize>, Vec<usize>) = {
            let mut a = Vec::new();
            let mut b = Vec::new();
            for &i in self.members {
                if colour(i) == 0 {
                    a.push(cells[i]);
                } else {
                    b.push(cells[i]);
                }
            }
            (a, b)
        };
        let removed: Vec<usize> = st.eliminations.iter().map(|e| e.cell).collect();
        if wrap {
            format!(
                "Simple colouring on {}: following its strong links, {} is either in \
                 all of {} or in all of {}; {} and {} are in one group and see each \
                 other, so that group is false: {} leaves {}.",
                cx.sym(d),
                cx.sym(d),
                cx.cells(&a),
                cx.cells(&b),
                cx.cell(cells[u]),
                cx.cell(cells[v]),
                cx.sym(d),
                cx.cells(&removed),
            )
        } else {
            format!(
                "Simple colouring on {}: following its strong links, {} is either in \
                 all of {} or in all of {}; so {} leaves every cell that sees both \
                 groups: {}.",
                cx.sym(d),
                cx.sym(d),
                cx.cells(&a),
                cx.cells(&b),
                cx.sym(d),
                cx.cells(&removed),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testutil::{classic, ctx, only};

    #[test]
    fn skyscraper_on_two_columns() {
        let mut g = classic("");
        // Column 1: 6 in r1c1 and r6c1; column 5: 6 in r2c5 and r6c5.
        only(&mut g, 6, &[0, 45], (0..9).map(|r| r * 9));
        only(&mut g, 6, &[13, 49], (0..9).map(|r| r * 9 + 4));
        let cx = ctx(g.houses());
        let st = turbot(&g, &cx, Some(Technique::Skyscraper)).unwrap();
        // r6c1 and r6c5 share row 6: r1c1 or r2c5 is 6.
        assert_eq!(st.cells, [0, 45, 49, 13]);
        let mut cells: Vec<usize> = st.eliminations.iter().map(|e| e.cell).collect();
        cells.sort();
        // Cells seeing r1c1 and r2c5: r1c4, r1c6 (row 1, box 2); r2c2, r2c3 (box 1, row 2).
        assert_eq!(cells, [3, 5, 10, 11]);
        assert!((st.difficulty - 6.6).abs() < 1e-6);
        assert!(
            st.text.starts_with(
                "Skyscraper: in column 1, 6 is in r1c1 or r6c1, and in column 5, in r2c5 or r6c5;"
            ),
            "{}",
            st.text
        );
    }

    #[test]
    fn two_string_kite_meets_in_a_box() {
        let mut g = classic("");
        // Row 1: 2 in r1c2 and r1c8; column 1: 2 in r3c1 and r7c1.
        only(&mut g, 2, &[1, 7], 0..9);
        only(&mut g, 2, &[18, 54], (0..9).map(|r| r * 9));
        let cx = ctx(g.houses());
        assert!(turbot(&g, &cx, Some(Technique::Skyscraper)).is_none());
        let st = turbot(&g, &cx, None).unwrap();
        assert_eq!(st.technique, Technique::TwoStringKite);
        // r1c2 and r3c1 share box 1: r1c8 or r7c1 is 2, so r7c8 is not.
        assert_eq!(st.eliminations, [Candidate::new(61, 2)]);
    }

    #[test]
    fn colour_trap_removes_cells_seeing_both_colours() {
        let mut g = classic("");
        // 3: column 1 r1c1-r7c1, row 7 r7c1-r7c5, column 5 r7c5-r3c5.
        only(&mut g, 3, &[0, 54], (0..9).map(|r| r * 9));
        only(&mut g, 3, &[54, 58], 54..63);
        only(&mut g, 3, &[58, 22], (0..9).map(|r| r * 9 + 4));
        let cx = ctx(g.houses());
        let st = colouring(&g, &cx).unwrap();
        // r1c1 and r3c5 have opposite colours; r1c4, r1c6, r3c2 and r3c3 see both.
        assert_eq!(
            st.eliminations,
            [3, 5, 19, 20].map(|c| Candidate::new(c, 3)).to_vec()
        );
        assert!((st.difficulty - 6.6).abs() < 1e-6);
        assert_eq!(st.chains[0].len(), 4);
        assert_eq!(
            st.text,
            "Simple colouring on 3: following its strong links, 3 is either in all of r1c1 and \
             r7c5 or in all of r7c1 and r3c5; so 3 leaves every cell that sees both groups: r1c4, \
             r1c6, r3c2 and r3c3."
        );
    }

    #[test]
    fn colour_wrap_makes_a_colour_false() {
        let mut g = classic("");
        // 3: r1c1-r1c5 (row 1), r1c5-r5c5 (column 5), r5c5-r5c2 (row 5),
        // r5c2-r2c2 (column 2); r1c1 and r2c2 share a colour and box 1.
        only(&mut g, 3, &[0, 4], 0..9);
        only(&mut g, 3, &[4, 40], (0..9).map(|r| r * 9 + 4));
        only(&mut g, 3, &[40, 37], 36..45);
        only(&mut g, 3, &[37, 10], (0..9).map(|r| r * 9 + 1));
        let cx = ctx(g.houses());
        let st = colouring(&g, &cx).unwrap();
        assert_eq!(
            st.eliminations,
            [0, 10, 40].map(|c| Candidate::new(c, 3)).to_vec()
        );
        assert!(
            st.text.ends_with(
                "are in one group and see each other, so that group is false: \
                               3 leaves r1c1, r2c2 and r5c5."
            ),
            "{}",
            st.text
        );
    }
}
