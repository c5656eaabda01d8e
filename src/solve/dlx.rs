//! A generic exact-cover engine: Knuth's Algorithm X with Dancing Links.
//!
//! Nodes live in flat arrays and refer to each other by index; the search is
//! iterative, with an explicit stack of choices, and branches on an item with
//! the fewest remaining options. The engine knows nothing about sudoku.
//!
//! A matrix is built once ([`Matrix`]) and then searched many times: each
//! search starts from a copy of the built links ([`Dlx::reset`]), so repeated
//! searches of one shape do not allocate.

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
        for &i in items {
            assert!(i < self.primary + self.secondary, "item {i} out of range");
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

/// The links of a matrix, ready to search.
///
/// Node 0 is the root of the list of active primary items; nodes `1..=items`
/// are item headers (item `i` is node `i + 1`); option nodes follow, each
/// option's nodes contiguous.
#[derive(Clone, Debug)]
pub struct Dlx {
    built: Links,
    work: Links,
    shape: Shape,
    /// Items covered by `select`, so a clash can be reported.
    selected_items: Vec<bool>,
    /// The options chosen on the way to the current node of the search.
    stack: Vec<u32>,
    /// Options of the last solution found (selected ones first).
    selected: Vec<u32>,
    chosen: Vec<u32>,
}

/// Which option each node belongs to; fixed once built.
#[derive(Clone, Debug)]
struct Shape {
    node_option: Vec<u32>,
    /// First node of each option, plus an end marker.
    option_start: Vec<u32>,
}

impl Shape {
    /// The node range of the option that node `x` belongs to.
    #[inline]
    fn nodes_of(&self, x: usize) -> (usize, usize) {
        let k = self.node_option[x] as usize;
        (
            self.option_start[k] as usize,
            self.option_start[k + 1] as usize,
        )
    }
}

#[derive(Clone, Debug, Default)]
struct Links {
    /// Horizontal links of the item list (headers only).
    llink: Vec<u32>,
    rlink: Vec<u32>,
    up: Vec<u32>,
    down: Vec<u32>,
    /// Header of each option node; unused for headers.
    top: Vec<u32>,
    /// Remaining options of each item, indexed by header node.
    len: Vec<u32>,
}

impl Dlx {
    pub fn new(m: &Matrix) -> Dlx {
        let headers = m.item_count() + 1;
        let nodes = headers + m.items.len();
        let mut l = Links {
            llink: vec![0; headers],
            rlink: vec![0; headers],
            up: (0..nodes as u32).collect(),
            down: (0..nodes as u32).collect(),
            top: vec![0; nodes],
            len: vec![0; headers],
        };
        // Primary items in a circular list through the root; secondary items
        // each link only to themselves.
        for h in 0..=m.primary {
            l.rlink[h] = if h == m.primary { 0 } else { h as u32 + 1 };
            l.llink[h] = if h == 0 {
                m.primary as u32
            } else {
                h as u32 - 1
            };
        }
        for h in m.primary + 1..headers {
            l.rlink[h] = h as u32;
            l.llink[h] = h as u32;
        }
        let mut node_option = vec![u32::MAX; nodes];
        let mut option_start = Vec::with_capacity(m.option_count() + 1);
        let mut x = headers;
        for k in 0..m.option_count() {
            option_start.push(x as u32);
            for &item in m.option(k) {
                let h = item as usize + 1;
                let last = l.up[h] as usize;
                l.down[last] = x as u32;
                l.up[x] = last as u32;
                l.down[x] = h as u32;
                l.up[h] = x as u32;
                l.top[x] = h as u32;
                l.len[h] += 1;
                node_option[x] = k as u32;
                x += 1;
            }
        }
        option_start.push(x as u32);
        Dlx {
            work: l.clone(),
            built: l,
            shape: Shape {
                node_option,
                option_start,
            },
            selected_items: vec![false; headers],
            stack: Vec::new(),
            selected: Vec::new(),
            chosen: Vec::new(),
        }
    }

    /// Returns to the matrix as built: nothing selected, nothing covered.
    /// Copies the links in place; no allocation.
    pub fn reset(&mut self) {
        let (w, b) = (&mut self.work, &self.built);
        w.llink.copy_from_slice(&b.llink);
        w.rlink.copy_from_slice(&b.rlink);
        w.up.copy_from_slice(&b.up);
        w.down.copy_from_slice(&b.down);
        w.len.copy_from_slice(&b.len);
        self.selected_items.fill(false);
        self.selected.clear();
        self.stack.clear();
    }

    /// Puts option `k` into every solution before searching: covers its items,
    /// which removes every option that shares one of them. Fails, changing
    /// nothing, if an earlier selection already covers one of its items.
    pub fn select(&mut self, k: usize) -> Result<(), Clash> {
        let (a, b) = (
            self.shape.option_start[k] as usize,
            self.shape.option_start[k + 1] as usize,
        );
        if let Some(x) = (a..b).find(|&x| self.selected_items[self.work.top[x] as usize]) {
            return Err(Clash {
                item: self.work.top[x] as usize - 1,
            });
        }
        for x in a..b {
            let h = self.work.top[x] as usize;
            self.selected_items[h] = true;
            self.work.cover(h, &self.shape);
        }
        self.selected.push(k as u32);
        Ok(())
    }

    /// Searches for solutions, stopping after `limit` of them; calls
    /// `found` with the options of each (selected ones included). Returns how
    /// many were found. The links are restored to their state before the call.
    pub fn search(&mut self, limit: u64, mut found: impl FnMut(&[u32])) -> u64 {
        if limit == 0 {
            return 0;
        }
        let mut count = 0;
        self.stack.clear();
        loop {
            let mut backtrack = true;
            if self.work.rlink[0] == 0 {
                count += 1;
                self.chosen.clear();
                self.chosen.extend_from_slice(&self.selected);
                self.chosen.extend(
                    self.stack
                        .iter()
                        .map(|&x| self.shape.node_option[x as usize]),
                );
                found(&self.chosen);
                if count >= limit {
                    self.unwind();
                    return count;
                }
            } else {
                let i = self.work.choose();
                if self.work.len[i] > 0 {
                    self.work.cover(i, &self.shape);
                    let x = self.work.down[i];
                    self.stack.push(x);
                    self.cover_others(x as usize);
                    backtrack = false;
                }
            }
            if backtrack {
                loop {
                    let Some(x) = self.stack.pop() else {
                        return count;
                    };
                    let x = x as usize;
                    self.uncover_others(x);
                    let i = self.work.top[x] as usize;
                    let next = self.work.down[x];
                    if next as usize != i {
                        self.stack.push(next);
                        self.cover_others(next as usize);
                        break;
                    }
                    self.work.uncover(i, &self.shape);
                }
            }
        }
    }

    fn unwind(&mut self) {
        while let Some(x) = self.stack.pop() {
            self.uncover_others(x as usize);
            let i = self.work.top[x as usize] as usize;
            self.work.uncover(i, &self.shape);
        }
    }

    fn option_nodes(&self, x: usize) -> (usize, usize) {
        self.shape.nodes_of(x)
    }

    fn cover_others(&mut self, x: usize) {
        let (a, b) = self.option_nodes(x);
        for q in (a..b).filter(|&q| q != x) {
            let h = self.work.top[q] as usize;
            self.work.cover(h, &self.shape);
        }
    }

    fn uncover_others(&mut self, x: usize) {
        let (a, b) = self.option_nodes(x);
        for q in (a..b).rev().filter(|&q| q != x) {
            let h = self.work.top[q] as usize;
            self.work.uncover(h, &self.shape);
        }
    }
}

impl Links {
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

    fn cover(&mut self, h: usize, shape: &Shape) {
        let (l, r) = (self.llink[h], self.rlink[h]);
        self.rlink[l as usize] = r;
        self.llink[r as usize] = l;
        let mut p = self.down[h] as usize;
        while p != h {
            let (a, b) = shape.nodes_of(p);
            for q in a..b {
                if q != p {
                    let (u, d) = (self.up[q] as usize, self.down[q] as usize);
                    self.down[u] = d as u32;
                    self.up[d] = u as u32;
                    self.len[self.top[q] as usize] -= 1;
                }
            }
            p = self.down[p] as usize;
        }
    }

    fn uncover(&mut self, h: usize, shape: &Shape) {
        let mut p = self.up[h] as usize;
        while p != h {
            let (a, b) = shape.nodes_of(p);
            for q in (a..b).rev() {
                if q != p {
                    let (u, d) = (self.up[q] as usize, self.down[q] as usize);
                    self.down[u] = q as u32;
                    self.up[d] = q as u32;
                    self.len[self.top[q] as usize] += 1;
                }
            }
            p = self.up[p] as usize;
        }
        let (l, r) = (self.llink[h], self.rlink[h]);
        self.rlink[l as usize] = h as u32;
        self.llink[r as usize] = h as u32;
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
