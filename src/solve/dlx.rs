//! A generic exact-cover engine: Knuth's Algorithm X with Dancing Links.
//!
//! Nodes live in flat arrays and refer to each other by index; the search is
//! iterative, with an explicit stack of choices, and branches on an item with
//! the fewest remaining options. The engine knows nothing about sudoku.
//!
//! Before each branching the engine applies one generic reduction, the
//! *subset rule*: when every remaining option of a primary item `A` also
//! covers an item `B`, whichever option covers `A` covers `B`, so the options
//! of `B` that do not cover `A` can be dropped. It is applied to items with
//! few options (2 to [`Dlx::set_subset_limit`]), repeated until nothing more
//! drops, and undone exactly on backtracking; it only removes options that
//! belong to no solution, so solution counts are unchanged.
//!
//! A matrix is built once ([`Matrix`]) and then searched many times. Options
//! chosen in advance ([`Dlx::select`]) are applied by linking only the options
//! compatible with them when the search starts, so a new search neither
//! allocates nor copies the whole matrix.

/// Items (columns) and options (rows) of an exact-cover problem.
#[derive(Clone, Debug, Default)]
pub struct Matrix {
    primary: usize,
    secondary: usize,
    /// Items of each option: `items[start[k]..start[k + 1]]`.
    items: Vec<u32>,
    start: Vec<u32>,
}

impl Matrix {
    /// A matrix with `primary` items that every solution covers exactly once,
    /// and `secondary` items (numbered after the primary ones) covered at most once.
    pub fn new(primary: usize, secondary: usize) -> Matrix {
        Matrix {
            primary,
            secondary,
            items: Vec::new(),
            start: vec![0],
        }
    }

    /// Adds an option covering `items` (item numbers, each below
    /// `primary + secondary`, no repeats) and returns its number.
    pub fn add_option(&mut self, items: &[usize]) -> usize {
        assert!(!items.is_empty(), "an option must cover at least one item");
        for (n, &i) in items.iter().enumerate() {
            assert!(i < self.primary + self.secondary, "item {i} out of range");
            assert!(!items[..n].contains(&i), "item {i} repeated in an option");
        }
        self.items.extend(items.iter().map(|&i| i as u32));
        self.start.push(self.items.len() as u32);
        self.start.len() - 2
    }

    pub fn option_count(&self) -> usize {
        self.start.len() - 1
    }
    pub fn item_count(&self) -> usize {
        self.primary + self.secondary
    }
    /// The items an option covers.
    pub fn option(&self, k: usize) -> &[u32] {
        &self.items[self.start[k] as usize..self.start[k + 1] as usize]
    }
}

/// Why an option could not be selected before the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clash {
    /// The item that an earlier selection already covers.
    pub item: usize,
}

/// The subset rule looks at items with at most this many options.
const SUBSET_MAX: usize = 8;

/// The links of a matrix, ready to search.
///
/// Node 0 is the root of the list of active primary items; nodes `1..=items`
/// are item headers (item `i` is node `i + 1`); option nodes follow, each
/// option's nodes contiguous.
#[derive(Clone, Debug)]
pub struct Dlx {
    primary: usize,
    /// Header of each node (a header is its own top).
    top: Vec<u32>,
    /// Option of each option node.
    node_option: Vec<u32>,
    /// First node of each option, plus an end marker.
    option_start: Vec<u32>,

    /// Horizontal links of the item list (headers only).
    llink: Vec<u32>,
    rlink: Vec<u32>,
    up: Vec<u32>,
    down: Vec<u32>,
    /// Remaining options of each item, indexed by header node.
    len: Vec<u32>,
    /// Primary items still to be covered, indexed by header node.
    active: Vec<bool>,

    /// Items covered by `select`, indexed by header node.
    selected_items: Vec<bool>,
    /// Options selected before the search.
    selected: Vec<u32>,
    /// True when the links hold exactly the options compatible with `selected`.
    linked: bool,

    /// The node chosen at each level of the search.
    stack: Vec<u32>,
    /// Length of `trail` when each level's choice was made.
    marks: Vec<u32>,
    /// Options dropped by the subset rule, in order, to restore on backtracking.
    trail: Vec<u32>,
    /// Items whose options changed since the subset rule last looked at them.
    queue: Vec<u32>,
    queued: Vec<bool>,
    /// Items with at most this many options are queued for the subset rule.
    queue_max: u32,
    /// Options of the last solution found (selected ones first).
    chosen: Vec<u32>,
    /// Choices made (search tree nodes) since the counter was last read.
    nodes: u64,
}

impl Dlx {
    pub fn new(m: &Matrix) -> Dlx {
        let headers = m.item_count() + 1;
        let nodes = headers + m.items.len();
        let mut top: Vec<u32> = (0..headers as u32).collect();
        top.extend(m.items.iter().map(|&i| i + 1));
        let mut node_option = vec![u32::MAX; headers];
        let mut option_start = Vec::with_capacity(m.option_count() + 1);
        for k in 0..m.option_count() {
            option_start.push(headers as u32 + m.start[k]);
            node_option.extend(std::iter::repeat_n(k as u32, m.option(k).len()));
        }
        option_start.push(nodes as u32);
        let mut d = Dlx {
            primary: m.primary,
            top,
            node_option,
            option_start,
            llink: vec![0; headers],
            rlink: vec![0; headers],
            up: vec![0; nodes],
            down: vec![0; nodes],
            len: vec![0; headers],
            active: vec![false; headers],
            selected_items: vec![false; headers],
            selected: Vec::new(),
            linked: false,
            stack: Vec::new(),
            marks: Vec::new(),
            trail: Vec::new(),
            queue: Vec::with_capacity(headers),
            queued: vec![false; headers],
            queue_max: 0,
            chosen: Vec::new(),
            nodes: 0,
        };
        d.set_subset_limit(3);
        d
    }

    /// The subset rule looks at primary items with 2 to `max` options
    /// (at most 8); 0 or 1 turns it off. Default 3.
    pub fn set_subset_limit(&mut self, max: usize) {
        assert!(max <= SUBSET_MAX, "subset limit above {SUBSET_MAX}");
        self.queue_max = if max >= 2 { max as u32 } else { 0 };
    }

    /// The number of choices (search tree nodes) made since the last call.
    pub fn take_node_count(&mut self) -> u64 {
        std::mem::take(&mut self.nodes)
    }

    /// Returns to the matrix as built: nothing selected, nothing covered.
    /// No allocation; the links are rebuilt when the next search starts.
    pub fn reset(&mut self) {
        for &k in &self.selected {
            let (a, b) = self.option_range(k as usize);
            for x in a..b {
                self.selected_items[self.top[x] as usize] = false;
            }
        }
        self.selected.clear();
        self.linked = false;
    }

    /// Puts option `k` into every solution before searching, which rules out
    /// every option that shares an item with it. Fails, changing nothing, if
    /// an earlier selection already covers one of its items.
    pub fn select(&mut self, k: usize) -> Result<(), Clash> {
        let (a, b) = self.option_range(k);
        if let Some(x) = (a..b).find(|&x| self.selected_items[self.top[x] as usize]) {
            return Err(Clash {
                item: self.top[x] as usize - 1,
            });
        }
        for x in a..b {
            self.selected_items[self.top[x] as usize] = true;
        }
        self.selected.push(k as u32);
        self.linked = false;
        Ok(())
    }

    /// Links the primary items not covered by the selection into the item
    /// list, and every option sharing no item with the selection into the
    /// lists of its items.
    fn link(&mut self) {
        let headers = self.len.len();
        let mut last = 0;
        for h in 1..headers {
            self.up[h] = h as u32;
            self.len[h] = 0;
            let is_active = h <= self.primary && !self.selected_items[h];
            self.active[h] = is_active;
            if is_active {
                self.rlink[last] = h as u32;
                self.llink[h] = last as u32;
                last = h;
            } else {
                self.llink[h] = h as u32;
                self.rlink[h] = h as u32;
            }
        }
        self.rlink[last] = 0;
        self.llink[0] = last as u32;
        for k in 0..self.option_start.len() - 1 {
            let (a, b) = self.option_range(k);
            if (a..b).any(|x| self.selected_items[self.top[x] as usize]) {
                continue;
            }
            for x in a..b {
                let h = self.top[x] as usize;
                let prev = self.up[h];
                self.down[prev as usize] = x as u32;
                self.up[x] = prev;
                self.up[h] = x as u32;
                self.len[h] += 1;
            }
        }
        for h in 1..headers {
            let bottom = self.up[h] as usize;
            self.down[bottom] = h as u32;
        }
        self.linked = true;
    }

    /// Searches for solutions, stopping after `limit` of them; calls
    /// `found` with the options of each (selected ones included). Returns how
    /// many were found. The links are restored to their state before the call.
    pub fn search(&mut self, limit: u64, mut found: impl FnMut(&[u32])) -> u64 {
        if limit == 0 {
            return 0;
        }
        if !self.linked {
            self.link();
        }
        let mut count = 0;
        self.stack.clear();
        self.marks.clear();
        self.trail.clear();
        // Reduce before the first choice.
        let mut p = self.rlink[0] as usize;
        while p != 0 {
            if self.len[p] <= self.queue_max {
                self.enqueue(p);
            }
            p = self.rlink[p] as usize;
        }
        let mut alive = self.reduce();
        loop {
            if alive {
                if self.rlink[0] == 0 {
                    count += 1;
                    self.chosen.clear();
                    self.chosen.extend_from_slice(&self.selected);
                    self.chosen.extend(
                        self.stack
                            .iter()
                            .map(|&x| self.node_option[x as usize]),
                    );
                    found(&self.chosen);
                    if count >= limit {
                        self.unwind();
                        return count;
                    }
                } else {
                    let i = self.choose();
                    if self.len[i] > 0 {
                        self.nodes += 1;
                        self.cover(i);
                        let x = self.down[i];
                        self.stack.push(x);
                        self.marks.push(self.trail.len() as u32);
                        self.cover_others(x as usize);
                        alive = self.reduce();
                        continue;
                    }
                }
            }
            // Backtrack to the deepest level with an option left to try.
            loop {
                let Some(x) = self.stack.pop() else {
                    self.restore(0);
                    return count;
                };
                let mark = self.marks.pop().unwrap_or(0);
                self.restore(mark as usize);
                let x = x as usize;
                self.uncover_others(x);
                let i = self.top[x] as usize;
                let next = self.down[x] as usize;
                if next != i {
                    self.nodes += 1;
                    self.stack.push(next as u32);
                    self.marks.push(self.trail.len() as u32);
                    self.cover_others(next);
                    self.requeue_column(i);
                    alive = self.reduce();
                    break;
                }
                self.uncover(i);
            }
        }
    }

    /// Undoes every level of the search and the reductions before it.
    fn unwind(&mut self) {
        while let Some(x) = self.stack.pop() {
            let mark = self.marks.pop().unwrap_or(0);
            self.restore(mark as usize);
            self.uncover_others(x as usize);
            let i = self.top[x as usize] as usize;
            self.uncover(i);
        }
        self.restore(0);
    }

    #[inline]
    fn option_range(&self, k: usize) -> (usize, usize) {
        (
            self.option_start[k] as usize,
            self.option_start[k + 1] as usize,
        )
    }

    /// The node range of the option that node `x` belongs to.
    #[inline]
    fn nodes_of(&self, x: usize) -> (usize, usize) {
        self.option_range(self.node_option[x] as usize)
    }

    #[inline]
    fn enqueue(&mut self, h: usize) {
        if !self.queued[h] {
            self.queued[h] = true;
            self.queue.push(h as u32);
        }
    }

    /// The active primary item with the fewest options (the first one found
    /// with 0 or 1 ends the scan).
    fn choose(&self) -> usize {
        let mut best = usize::MAX;
        let mut best_len = u32::MAX;
        let mut p = self.rlink[0] as usize;
        while p != 0 {
            let l = self.len[p];
            if l < best_len {
                best_len = l;
                best = p;
                if l <= 1 {
                    break;
                }
            }
            p = self.rlink[p] as usize;
        }
        best
    }

    /// Removes option node `q` from its item's list.
    #[inline]
    fn unlink_node(&mut self, q: usize) {
        let (u, d) = (self.up[q] as usize, self.down[q] as usize);
        self.down[u] = d as u32;
        self.up[d] = u as u32;
        let t = self.top[q] as usize;
        self.len[t] -= 1;
        if self.len[t] <= self.queue_max {
            self.enqueue(t);
        }
    }

    /// Puts option node `q` back into its item's list.
    #[inline]
    fn relink_node(&mut self, q: usize) {
        let (u, d) = (self.up[q] as usize, self.down[q] as usize);
        self.down[u] = q as u32;
        self.up[d] = q as u32;
        self.len[self.top[q] as usize] += 1;
    }

    fn cover(&mut self, h: usize) {
        let (l, r) = (self.llink[h], self.rlink[h]);
        self.rlink[l as usize] = r;
        self.llink[r as usize] = l;
        self.active[h] = false;
        let mut p = self.down[h] as usize;
        while p != h {
            let (a, b) = self.nodes_of(p);
            for q in a..b {
                if q != p {
                    self.unlink_node(q);
                }
            }
            p = self.down[p] as usize;
        }
    }

    fn uncover(&mut self, h: usize) {
        let mut p = self.up[h] as usize;
        while p != h {
            let (a, b) = self.nodes_of(p);
            for q in (a..b).rev() {
                if q != p {
                    self.relink_node(q);
                }
            }
            p = self.up[p] as usize;
        }
        let (l, r) = (self.llink[h], self.rlink[h]);
        self.rlink[l as usize] = h as u32;
        self.llink[r as usize] = h as u32;
        self.active[h] = h <= self.primary;
    }

    fn cover_others(&mut self, x: usize) {
        let (a, b) = self.nodes_of(x);
        for q in (a..b).filter(|&q| q != x) {
            let h = self.top[q] as usize;
            self.cover(h);
        }
    }

    fn uncover_others(&mut self, x: usize) {
        let (a, b) = self.nodes_of(x);
        for q in (a..b).rev().filter(|&q| q != x) {
            let h = self.top[q] as usize;
            self.uncover(h);
        }
    }

    /// Queues the items of every option of item `i` (covered), whose counts
    /// covering `i` lowered before the current choice was made.
    fn requeue_column(&mut self, i: usize) {
        if self.queue_max == 0 {
            return;
        }
        let mut p = self.down[i] as usize;
        while p != i {
            let (a, b) = self.nodes_of(p);
            for q in a..b {
                let t = self.top[q] as usize;
                if q != p && self.len[t] <= self.queue_max {
                    self.enqueue(t);
                }
            }
            p = self.down[p] as usize;
        }
    }

    /// Drops option `k` from the lists of all its items, recording it on the
    /// trail. Returns false if that leaves an active primary item with no option.
    fn hide(&mut self, k: usize) -> bool {
        let (a, b) = self.option_range(k);
        let mut alive = true;
        for q in a..b {
            self.unlink_node(q);
            let t = self.top[q] as usize;
            if self.len[t] == 0 && self.active[t] {
                alive = false;
            }
        }
        self.trail.push(k as u32);
        alive
    }

    /// Restores the options dropped since the trail had length `mark`.
    fn restore(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let k = self.trail.pop().unwrap_or(0) as usize;
            let (a, b) = self.option_range(k);
            for q in (a..b).rev() {
                self.relink_node(q);
            }
        }
    }

    /// Applies the subset rule to the queued items until nothing changes.
    /// Returns false if some active primary item is left with no option.
    fn reduce(&mut self) -> bool {
        let mut options = [0u32; SUBSET_MAX];
        while let Some(a) = self.queue.pop() {
            let a = a as usize;
            self.queued[a] = false;
            if !self.active[a] {
                continue;
            }
            let n = self.len[a] as usize;
            if n == 0 {
                self.clear_queue();
                return false;
            }
            if n < 2 || n > self.queue_max as usize {
                continue;
            }
            let mut p = self.down[a] as usize;
            for slot in options.iter_mut().take(n) {
                *slot = p as u32;
                p = self.down[p] as usize;
            }
            let (s, e) = self.nodes_of(options[0] as usize);
            for q in s..e {
                let b = self.top[q] as usize;
                if b == a || self.len[b] as usize <= n {
                    continue;
                }
                let common = options[1..n].iter().all(|&y| {
                    let (s, e) = self.nodes_of(y as usize);
                    (s..e).any(|z| self.top[z] as usize == b)
                });
                if !common {
                    continue;
                }
                let mut p = self.down[b] as usize;
                while p != b {
                    let next = self.down[p] as usize;
                    let k = self.node_option[p];
                    if !options[..n]
                        .iter()
                        .any(|&y| self.node_option[y as usize] == k)
                        && !self.hide(k as usize)
                    {
                        self.clear_queue();
                        return false;
                    }
                    p = next;
                }
            }
        }
        true
    }

    fn clear_queue(&mut self) {
        for &h in &self.queue {
            self.queued[h as usize] = false;
        }
        self.queue.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Knuth's example from "Dancing Links": items a-g, six options, and one
    /// exact cover: {c e}, {a d f}, {b g} = options 0, 3, 4.
    fn knuth() -> Matrix {
        let mut m = Matrix::new(7, 0);
        for o in [
            &[2, 4][..],
            &[0, 3, 6],
            &[1, 2, 5],
            &[0, 3, 5],
            &[1, 6],
            &[3, 4, 6],
        ] {
            m.add_option(o);
        }
        m
    }

    #[test]
    fn finds_the_only_exact_cover() {
        let mut d = Dlx::new(&knuth());
        let mut sols = Vec::new();
        assert_eq!(d.search(10, |s| sols.push(s.to_vec())), 1);
        let mut s = sols.pop().unwrap();
        s.sort();
        assert_eq!(s, vec![0, 3, 4]);
    }

    #[test]
    fn search_restores_the_links() {
        let mut d = Dlx::new(&knuth());
        assert_eq!(d.search(10, |_| {}), 1);
        assert_eq!(d.search(10, |_| {}), 1);
        assert_eq!(d.search(1, |_| {}), 1);
        assert_eq!(d.search(10, |_| {}), 1);
    }

    #[test]
    fn selection_first_and_clashes() {
        let mut d = Dlx::new(&knuth());
        d.select(1).unwrap(); // a d g: rules out the solution
        assert_eq!(d.search(10, |_| {}), 0);
        assert_eq!(d.select(3), Err(Clash { item: 0 }));
        d.reset();
        d.select(4).unwrap();
        assert_eq!(d.search(10, |_| {}), 1);
    }

    #[test]
    fn counts_every_solution_up_to_the_limit() {
        // Items 0..4, options: every single item and every pair {0,1},{2,3}.
        let mut m = Matrix::new(4, 0);
        for o in [&[0][..], &[1], &[2], &[3], &[0, 1], &[2, 3]] {
            m.add_option(o);
        }
        let mut d = Dlx::new(&m);
        assert_eq!(d.search(100, |_| {}), 4);
        assert_eq!(d.search(3, |_| {}), 3);
    }

    #[test]
    fn secondary_items_are_covered_at_most_once() {
        // Primary 0, 1; secondary 2. {0,2} and {1,2} clash on 2.
        let mut m = Matrix::new(2, 1);
        for o in [&[0, 2][..], &[1, 2], &[0], &[1]] {
            m.add_option(o);
        }
        let mut d = Dlx::new(&m);
        let mut sols = Vec::new();
        assert_eq!(d.search(10, |s| sols.push(s.to_vec())), 3);
        assert!(!sols.iter().any(|s| s.contains(&0) && s.contains(&1)));
    }
}
