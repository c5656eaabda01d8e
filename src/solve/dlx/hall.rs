//! All-different groups: a filter over several items at once.
//!
//! Exact cover sees each item alone: an item left with no option is a dead
//! end, one left with one option is forced. A group (`L`, `R`) of as many
//! primary items on each side, where every option covering an item of one
//! side covers exactly one item of the other, is a bipartite graph whose
//! edges are the options, and every solution matches its sides perfectly
//! (on a sudoku: a house's cells and its symbols). The filter keeps, for
//! each group that changed, a maximum matching of its open items: when
//! none is perfect, `k` items of `R` have fewer than `k` items of `L` left
//! between them (a Hall set), a dead end the single items show only after
//! more choices. Otherwise it drops every option that lies in no perfect
//! matching (Régin's filter for all-different: an option off the matching
//! belongs to one only if it closes an alternating cycle), which is what
//! the naked and hidden subsets of every size take out on a sudoku.
//!
//! A group may have more left items than right ones (a renban line's cells
//! on the right, every symbol on the left as a secondary item): then every
//! solution matches each right item to a left one of its own, some left
//! items unmatched. The filter keeps the matchings that cover the right
//! side: a dead end when none does, and otherwise an option off the
//! matching stays if it closes an alternating cycle, or an alternating
//! path that ends at a left item no right item is matched to.
//!
//! Only groups whose right items lost an option since the last pass are
//! looked at: the undo log says which, and each level of the search
//! remembers how far the log was filtered when it opened, so that
//! backtracking to it rescans only what changed after.

use super::{Dlx, at, at_mut};

/// Groups have at most this many items a side (a bit per item).
pub const MAX_GROUP: usize = 64;
/// No item, in the one-byte tables of positions.
const NONE: u8 = u8::MAX;
/// A level opened before the first pass: every group is to be looked at
/// on backtracking to it.
const ALL: u32 = u32::MAX;

/// The groups of a [`Dlx`] and the filter's state; empty when none.
#[derive(Clone, Debug, Default)]
pub(super) struct Hall {
    /// Right items (headers) of each group: `right[start[g]..start[g + 1]]`.
    right: Vec<u32>,
    start: Vec<u32>,
    /// The groups of each header whose item is a right item:
    /// `group_list[group_at[h]..group_at[h + 1]]`.
    group_at: Vec<u32>,
    group_list: Vec<u32>,
    /// For each node of a right item: the position, in its group, of the
    /// left item its option covers.
    left_pos: Vec<u8>,
    /// The left position each right item was matched to by the last pass
    /// over its group (flat like `right`; `NONE`: unmatched). A matching
    /// is kept from pass to pass and only repaired where edges went.
    mate: Vec<u8>,
    /// Groups to look at, and a flag per group.
    dirty: Vec<u32>,
    is_dirty: Vec<bool>,
    /// The undo log is filtered up to here, unless `all`.
    seen: usize,
    all: bool,
    /// `seen` (or [`ALL`]) when each level of the search opened.
    levels: Vec<u32>,
    /// Scratch for one group, by right position: left items still
    /// reachable, the right items an alternating step leads to (then all
    /// those reachable), and the options to drop; by left position, the
    /// right item matched to it.
    adj: Vec<u64>,
    reach: Vec<u64>,
    cut: Vec<u64>,
    mate_left: Vec<u8>,
}

impl Hall {
    /// Whether any group is set.
    #[inline(always)]
    pub(super) fn on(&self) -> bool {
        self.start.len() > 1
    }

    /// Every group is to be looked at (a new search, or one undone).
    pub(super) fn reset(&mut self) {
        self.all = true;
        self.seen = 0;
        self.levels.clear();
        self.mate.fill(NONE);
    }

    /// A level of the search opens.
    #[inline]
    pub(super) fn open_level(&mut self) {
        let at = if self.all { ALL } else { self.seen as u32 };
        self.levels.push(at);
    }

    /// The search backtracks to the level opened last (its changes since
    /// it opened are undone or about to be): what was filtered then is
    /// filtered again.
    #[inline]
    pub(super) fn close_level(&mut self) {
        match self.levels.pop() {
            Some(ALL) | None => self.all = true,
            Some(at) => {
                self.seen = self.seen.min(at as usize);
            }
        }
    }
}

impl Dlx {
    /// Makes each pair of item lists `(left, right)` in `groups` an
    /// all-different group (see the module notes), replacing any set
    /// before: at most [`MAX_GROUP`] items a side, at least as many left
    /// items as right ones, the right items primary, and every option
    /// covering an item of either side covering exactly one item of the
    /// other (checked). A right item may stand in several groups when its
    /// options take the same left position in each (a symbol's place in
    /// the list of symbols). From then on every search filters the groups
    /// at each node; an empty list turns the filter off.
    ///
    /// With as many items a side (a house's cells and symbols) every
    /// solution matches the sides perfectly; with more left items (a
    /// renban line's cells and all the symbols, the left items then
    /// secondary) it matches every right item to a left one of its own.
    pub fn set_all_different(&mut self, groups: &[(Vec<usize>, Vec<usize>)]) {
        self.hall = Hall::default();
        if groups.is_empty() {
            return;
        }
        let headers = self.len.len();
        // The nodes of each item, in the matrix as built.
        let mut col_start = vec![0u32; headers + 1];
        for x in headers..self.nodes.len() {
            col_start[self.nodes[x].top as usize + 1] += 1;
        }
        for h in 1..=headers {
            col_start[h] += col_start[h - 1];
        }
        let mut col = vec![0u32; self.nodes.len() - headers];
        let mut next = col_start.clone();
        for x in headers..self.nodes.len() {
            let h = self.nodes[x].top as usize;
            col[next[h] as usize] = x as u32;
            next[h] += 1;
        }
        let column = |h: usize| &col[col_start[h] as usize..col_start[h + 1] as usize];
        let hall = &mut self.hall;
        hall.start.push(0);
        hall.left_pos = vec![NONE; self.nodes.len()];
        hall.adj = vec![0; MAX_GROUP];
        hall.reach = vec![0; MAX_GROUP];
        hall.cut = vec![0; MAX_GROUP];
        hall.mate_left = vec![NONE; MAX_GROUP];
        let mut per_header: Vec<Vec<u32>> = vec![Vec::new(); headers];
        for (g, (left, right)) in groups.iter().enumerate() {
            assert!(left.len() >= right.len(), "fewer left items than right");
            assert!(left.len() <= MAX_GROUP, "a group above {MAX_GROUP} items");
            for (is_right, side, other) in [(false, left, right), (true, right, left)] {
                for &i in side {
                    let items = if is_right { self.primary } else { headers - 1 };
                    assert!(
                        i < items,
                        "item {i} out of range, or a right item not primary"
                    );
                    for &x in column(i + 1) {
                        let k = self.node_option[x as usize] as usize;
                        let (a, b) = super::option_range(&self.option_start, k);
                        let mut across = (a..b).filter_map(|y| {
                            let h = self.nodes[y].top as usize;
                            other.iter().position(|&o| o + 1 == h)
                        });
                        let pos = across.next();
                        assert!(
                            pos.is_some() && across.next().is_none(),
                            "an option of item {i} covers other than one item across"
                        );
                        if is_right {
                            let pos = pos.unwrap_or(0) as u8;
                            let slot = &mut hall.left_pos[x as usize];
                            assert!(
                                *slot == NONE || *slot == pos,
                                "item {i}'s option at two left places"
                            );
                            *slot = pos;
                        }
                    }
                }
            }
            for &r in right {
                assert!(
                    !per_header[r + 1].contains(&(g as u32)),
                    "item {r} twice in a group"
                );
                per_header[r + 1].push(g as u32);
                hall.right.push(r as u32 + 1);
                hall.mate.push(NONE);
            }
            hall.start.push(hall.right.len() as u32);
        }
        hall.group_at = vec![0];
        for gs in per_header {
            hall.group_list.extend(gs);
            hall.group_at.push(hall.group_list.len() as u32);
        }
        hall.is_dirty = vec![false; groups.len()];
        hall.dirty = Vec::with_capacity(groups.len());
        // A level per choice, and no more choices than items.
        hall.levels = Vec::with_capacity(headers);
    }

    /// How far the undo log has been filtered.
    #[inline(always)]
    pub(super) fn hall_seen(&self) -> usize {
        self.hall.seen
    }

    /// Whether changes wait for the filter.
    #[inline(always)]
    pub(super) fn hall_due(&self) -> bool {
        self.hall.on() && (self.hall.all || self.hall.seen < self.undo_len)
    }

    /// One pass of the filter over the groups changed since the last one.
    /// Returns false at a dead end (a group with no perfect matching, or
    /// an item left with no option).
    pub(super) fn filter_groups(&mut self) -> bool {
        self.collect_dirty();
        while let Some(g) = self.hall.dirty.pop() {
            let g = g as usize;
            self.hall.is_dirty[g] = false;
            if !self.filter_group(g) {
                for &d in &self.hall.dirty {
                    self.hall.is_dirty[d as usize] = false;
                }
                self.hall.dirty.clear();
                return false;
            }
        }
        true
    }

    /// Notes the groups whose right items changed since the log was last
    /// filtered (all of them after a reset).
    fn collect_dirty(&mut self) {
        let hall = &mut self.hall;
        if hall.all {
            hall.all = false;
            for g in 0..hall.start.len() - 1 {
                if !hall.is_dirty[g] {
                    hall.is_dirty[g] = true;
                    hall.dirty.push(g as u32);
                }
            }
        } else {
            let headers = self.len.len();
            for &e in &self.undo[hall.seen..self.undo_len] {
                let e = e as usize;
                // SAFETY: log entries are headers or nodes.
                let h = if e < headers {
                    e
                } else {
                    unsafe { at(&self.nodes, e).top as usize }
                };
                // SAFETY: `group_at` has a slot per header and one more.
                let (a, b) = unsafe { (at(&hall.group_at, h), at(&hall.group_at, h + 1)) };
                for &g in &hall.group_list[a as usize..b as usize] {
                    if !hall.is_dirty[g as usize] {
                        hall.is_dirty[g as usize] = true;
                        hall.dirty.push(g);
                    }
                }
            }
        }
        hall.seen = self.undo_len;
    }

    /// Matches group `g`'s open items and drops the options in no perfect
    /// matching; false when there is none.
    fn filter_group(&mut self, g: usize) -> bool {
        let (from, to) = (self.hall.start[g] as usize, self.hall.start[g + 1] as usize);
        let open = self.group_edges(from, to);
        if open == 0 {
            return true;
        }
        if let Some(j) = self.match_group(from, open) {
            self.pending.dead = true;
            self.pending.dead_item = self.hall.right[from + j] as usize;
            return false;
        }
        let cuts = self.hall_cuts(from, open);
        if cuts == 0 {
            return true;
        }
        for j in ones(cuts) {
            let h = self.hall.right[from + j] as usize;
            let cut = self.hall.cut[j];
            let mut p = self.nodes[h].down as usize;
            while p != h {
                let next = self.nodes[p].down as usize;
                // SAFETY: `p` is a node of a right item.
                let l = unsafe { at(&self.hall.left_pos, p) };
                if cut >> l & 1 == 1 && !self.hide(self.node_option[p] as usize) {
                    return false;
                }
                p = next;
            }
        }
        true
    }

    /// Reads the edges of the group's open right items (`right[from..to]`)
    /// into `adj`; returns the open right positions, as bits.
    fn group_edges(&mut self, from: usize, to: usize) -> u64 {
        let hall = &mut self.hall;
        let mut open = 0u64;
        for (j, &h) in hall.right[from..to].iter().enumerate() {
            let h = h as usize;
            if !self.active[h] {
                continue;
            }
            open |= 1 << j;
            let mut edges = 0u64;
            // SAFETY: `h` is a header; `down` links lead to its nodes.
            unsafe {
                let mut p = at(&self.nodes, h).down as usize;
                while p != h {
                    edges |= 1 << at(&hall.left_pos, p);
                    p = at(&self.nodes, p).down as usize;
                }
            }
            hall.adj[j] = edges;
        }
        open
    }

    /// Repairs the group's matching and completes it on the open right
    /// positions `open`; returns a right position left unmatched, if any
    /// (then no perfect matching exists).
    fn match_group(&mut self, from: usize, open: u64) -> Option<usize> {
        let hall = &mut self.hall;
        let n = 64 - open.leading_zeros() as usize;
        hall.mate_left[..MAX_GROUP].fill(NONE);
        for j in ones(open) {
            let m = hall.mate[from + j];
            if m != NONE && hall.adj[j] >> m & 1 == 1 && hall.mate_left[m as usize] == NONE {
                hall.mate_left[m as usize] = j as u8;
            } else {
                hall.mate[from + j] = NONE;
            }
        }
        let mate = &mut hall.mate[from..from + n];
        for j in ones(open) {
            if mate[j] == NONE {
                let mut seen = 0u64;
                if !augment(j, &hall.adj, mate, &mut hall.mate_left, &mut seen) {
                    return Some(j);
                }
            }
        }
        None
    }

    /// With a matching of every open right position of `open`: for each,
    /// the left positions of its edges in no such matching (into `cut`);
    /// returns the right positions that have any.
    fn hall_cuts(&mut self, from: usize, open: u64) -> u64 {
        let hall = &mut self.hall;
        // Left positions some open right item may take and none is matched
        // to (none when the sides are as many, as in a house).
        let mut free = 0u64;
        for j in ones(open) {
            free |= hall.adj[j];
        }
        for j in ones(open) {
            free &= !(1 << hall.mate[from + j]);
        }
        // An edge (j, l) off the matching leads on to the right item
        // matched to l; a right item with an edge to a free left position
        // can let its own go.
        let mut escape = 0u64;
        for j in ones(open) {
            let off = hall.adj[j] & !(1 << hall.mate[from + j]);
            let mut step = 0u64;
            for l in ones(off & !free) {
                step |= 1 << hall.mate_left[l];
            }
            hall.reach[j] = step;
            if off & free != 0 {
                escape |= 1 << j;
            }
        }
        // Everything reachable (Warshall's closure on bit rows).
        for k in ones(open) {
            let via = hall.reach[k];
            for i in ones(open) {
                if hall.reach[i] >> k & 1 == 1 {
                    hall.reach[i] |= via;
                }
            }
        }
        if escape != 0 {
            for j in ones(open) {
                if hall.reach[j] & escape != 0 {
                    escape |= 1 << j;
                }
            }
        }
        // The edge (j, l) is in a matching if the item matched to l leads
        // back to j (an alternating cycle) or on to a free left position
        // (an alternating path); an edge to a free position always is.
        let mut cuts = 0u64;
        for j in ones(open) {
            let off = hall.adj[j] & !(1 << hall.mate[from + j]) & !free;
            let mut cut = 0u64;
            for l in ones(off) {
                let o = hall.mate_left[l] as usize;
                if hall.reach[o] >> j & 1 == 0 && escape >> o & 1 == 0 {
                    cut |= 1 << l;
                }
            }
            hall.cut[j] = cut;
            if cut != 0 {
                cuts |= 1 << j;
            }
        }
        cuts
    }
}

/// The positions of the set bits of `mask`, lowest first.
#[inline]
fn ones(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// Kuhn's augmenting path from right position `j`: true when `j` is now
/// matched (`mate` by right position, `mate_left` by left position;
/// `seen`: left positions visited).
fn augment(j: usize, adj: &[u64], mate: &mut [u8], mate_left: &mut [u8], seen: &mut u64) -> bool {
    for l in ones(adj[j] & !*seen) {
        *seen |= 1 << l;
        // SAFETY: `l` is below MAX_GROUP, the length of `mate_left`.
        let other = unsafe { at(mate_left, l) };
        if other == NONE || augment(other as usize, adj, mate, mate_left, seen) {
            // SAFETY: as above, and `j` is a position of the group.
            unsafe {
                *at_mut(mate_left, l) = j as u8;
            }
            mate[j] = l as u8;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::Matrix;
    use super::*;
    use crate::rng::Rng;

    /// A Latin square of order `n` as exact cover, with the options
    /// `keep` allows: items cell `(r, c)`, then (row `r`, symbol `s`),
    /// then (column `c`, symbol `s`); option `(r * n + c) * n + s`. Its
    /// groups: each row's cells and symbols, each column's.
    fn latin(n: usize, keep: impl Fn(usize, usize, usize) -> bool) -> (Matrix, Groups) {
        let mut m = Matrix::new(3 * n * n, 0);
        for r in 0..n {
            for c in 0..n {
                for s in 0..n {
                    if keep(r, c, s) {
                        m.add_option(&[r * n + c, n * n + r * n + s, 2 * n * n + c * n + s]);
                    }
                }
            }
        }
        let mut groups = Vec::new();
        for a in 0..n {
            let row = (0..n).map(|c| a * n + c).collect();
            groups.push((row, (0..n).map(|s| n * n + a * n + s).collect()));
            let column = (0..n).map(|r| r * n + a).collect();
            groups.push((column, (0..n).map(|s| 2 * n * n + a * n + s).collect()));
        }
        (m, groups)
    }

    type Groups = Vec<(Vec<usize>, Vec<usize>)>;

    /// Solutions (sorted) and search nodes, with or without the groups.
    fn run(m: &Matrix, groups: &Groups, filter: bool) -> (Vec<Vec<u32>>, u64) {
        let mut d = Dlx::new(m);
        if filter {
            d.set_all_different(groups);
        }
        let mut sols = Vec::new();
        d.search(u64::MAX, |s| {
            let mut s = s.to_vec();
            s.sort_unstable();
            sols.push(s);
        });
        sols.sort();
        (sols, d.take_node_count())
    }

    #[test]
    fn a_hall_set_is_a_dead_end_before_any_choice() {
        // Order 6: cells (0, 0..3) hold only symbols 0 and 1; every other
        // option is there. Each item keeps at least two options, so exact
        // cover alone has to choose before it sees the three cells share
        // two symbols.
        let (m, groups) = latin(6, |r, c, s| r != 0 || c >= 3 || s < 2);
        let (plain, plain_nodes) = run(&m, &groups, false);
        let (filtered, nodes) = run(&m, &groups, true);
        assert!(plain.is_empty() && filtered.is_empty());
        assert!(plain_nodes > 0, "exact cover alone had to search");
        assert_eq!(nodes, 0, "the filter saw the Hall set at the root");
    }

    #[test]
    fn the_filter_drops_only_options_in_no_solution() {
        // Random partial Latin squares of orders 3 to 5: every solution is
        // found with the filter and without it, and the filter never
        // searches more.
        let mut rng = Rng::new(3);
        let (mut plain_nodes, mut nodes) = (0, 0);
        for case in 0..300 {
            let n = 3 + rng.below(3) as usize;
            let keep: Vec<bool> = (0..n * n * n).map(|_| rng.chance(0.8)).collect();
            let (m, groups) = latin(n, |r, c, s| keep[(r * n + c) * n + s]);
            let plain = run(&m, &groups, false);
            let filtered = run(&m, &groups, true);
            assert_eq!(filtered.0, plain.0, "case {case}, order {n}");
            plain_nodes += plain.1;
            nodes += filtered.1;
        }
        assert!(nodes < plain_nodes, "{nodes} nodes, {plain_nodes} without");
    }

    #[test]
    fn smaller_groups_drop_only_options_in_no_solution() {
        // Random partial Latin squares of orders 4 to 6 with groups of 2
        // to n - 1 random cells whose symbols differ (a secondary item per
        // group and symbol, as a renban line or a cage without a sum has),
        // a cell in several groups at times: the groups as all-different
        // groups find every solution the secondary items alone find, and
        // never search more.
        let mut rng = Rng::new(5);
        let (mut plain_nodes, mut nodes) = (0, 0);
        for case in 0..300 {
            let n = 4 + rng.below(3) as usize;
            let keep: Vec<bool> = (0..n * n * n).map(|_| rng.chance(0.75)).collect();
            let mut cells: Vec<usize> = (0..n * n).collect();
            let mut small: Vec<Vec<usize>> = Vec::new();
            for _ in 0..1 + rng.below(4) {
                let k = 2 + rng.below(n as u32 - 2) as usize;
                for i in 0..k {
                    let j = i + rng.below((n * n - i) as u32) as usize;
                    cells.swap(i, j);
                }
                small.push(cells[..k].to_vec());
            }
            let base = 3 * n * n;
            let mut m = Matrix::new(base, small.len() * n);
            let mut items = Vec::new();
            for r in 0..n {
                for c in 0..n {
                    for s in 0..n {
                        if !keep[(r * n + c) * n + s] {
                            continue;
                        }
                        items.clear();
                        items.extend([r * n + c, n * n + r * n + s, 2 * n * n + c * n + s]);
                        for (g, cs) in small.iter().enumerate() {
                            if cs.contains(&(r * n + c)) {
                                items.push(base + g * n + s);
                            }
                        }
                        m.add_option(&items);
                    }
                }
            }
            let groups: Groups = small
                .iter()
                .enumerate()
                .map(|(g, cs)| ((0..n).map(|s| base + g * n + s).collect(), cs.clone()))
                .collect();
            let plain = run(&m, &Vec::new(), false);
            let filtered = run(&m, &groups, true);
            assert_eq!(filtered.0, plain.0, "case {case}, order {n}");
            plain_nodes += plain.1;
            nodes += filtered.1;
        }
        assert!(nodes < plain_nodes, "{nodes} nodes, {plain_nodes} without");
    }

    #[test]
    fn groups_that_break_the_rule_are_refused() {
        // Option 0 covers two right items of the group.
        let mut m = Matrix::new(4, 0);
        m.add_option(&[0, 2, 3]);
        m.add_option(&[1, 3]);
        let mut d = Dlx::new(&m);
        let bad = std::panic::catch_unwind(move || {
            d.set_all_different(&[(vec![0, 1], vec![2, 3])]);
        });
        assert!(bad.is_err());
    }
}
