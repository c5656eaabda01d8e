//! Cells grouped by the edges between them: the cells connected across
//! edges that are not boundaries (a killer's cages, a jigsaw's regions), and
//! the sets of least sure edges to flip when a grouping does not check out.

use super::borders::Edge;
use crate::grid::Layout;

/// The sets of edges to flip, at most `max_flips` of the `candidates`
/// least confident edges, fewest first, then by the summed confidence of the
/// flipped edges: the first is no flip at all.
pub fn edge_flips(edges: &[Edge], candidates: usize, max_flips: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..edges.len()).collect();
    order.sort_by(|&a, &b| edges[a].confidence.total_cmp(&edges[b].confidence));
    order.truncate(candidates);
    let mut out = vec![Vec::new()];
    for size in 1..=max_flips {
        let mut these = Vec::new();
        combos(order.len(), size, &mut Vec::new(), 0, &mut |c| {
            these.push(c.iter().map(|&i| order[i]).collect::<Vec<_>>())
        });
        let cost = |f: &Vec<usize>| f.iter().map(|&i| edges[i].confidence).sum::<f32>();
        these.sort_by(|a, b| cost(a).total_cmp(&cost(b)));
        out.extend(these);
    }
    out
}

pub(super) fn combos(
    n: usize,
    k: usize,
    cur: &mut Vec<usize>,
    start: usize,
    f: &mut dyn FnMut(&[usize]),
) {
    if cur.len() == k {
        f(cur);
        return;
    }
    for i in start..n {
        cur.push(i);
        combos(n, k, cur, i + 1, f);
        cur.pop();
    }
}

/// The cells connected across non-boundary edges, each group's cells
/// ascending, groups in order of their first cell; `None` when a group has
/// more than `max` cells.
pub fn groups(
    layout: &Layout,
    edges: &[Edge],
    boundary: &[bool],
    max: usize,
) -> Option<Vec<Vec<u32>>> {
    let n = layout.cell_count();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for (e, &b) in edges.iter().zip(boundary) {
        if !b {
            let (x, y) = (find(&mut parent, e.a), find(&mut parent, e.b));
            parent[x.max(y)] = x.min(y);
        }
    }
    let mut by_root: Vec<Vec<u32>> = vec![Vec::new(); n];
    for c in 0..n {
        let r = find(&mut parent, c);
        by_root[r].push(c as u32);
    }
    let out: Vec<Vec<u32>> = by_root.into_iter().filter(|g| !g.is_empty()).collect();
    if out.iter().any(|g| g.len() > max) {
        return None;
    }
    Some(out)
}
