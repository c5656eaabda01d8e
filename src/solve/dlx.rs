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

use super::budget::Budget;

mod hall;
pub use hall::MAX_GROUP;

/// Choices a weighted search makes before its first start over (see
/// [`Dlx::set_conflict_weights`]): some 10 ms of a variant search, enough
/// for the weights to say where the failures are.
pub const RESTART_FIRST: u64 = 1000;

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

/// A node: an item header (nodes `1..=items`, node 0 is the root of the item
/// list) or one item of one option.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    up: u32,
    down: u32,
    /// The header of the node's item (a header is its own top).
    top: u32,
    /// The next node of the same option, circularly; unused for headers.
    right: u32,
}

/// What one step forward of the search did ([`Dlx::advance`]).
enum Advance {
    /// The subset rule ran; false when it found a dead end.
    Reduced(bool),
    /// The all-different filter ran; false when it found a dead end.
    Filtered(bool),
    /// A level was opened with an option taken.
    Took,
    /// The search started over from its first level.
    Restarted,
    /// The budget ran out; the search is undone.
    OutOfBudget,
    /// The item chosen has no option left.
    DeadEnd(usize),
}

/// The links of a matrix, ready to search.
///
/// Node 0 is the root of the list of active primary items; nodes `1..=items`
/// are item headers (item `i` is node `i + 1`); option nodes follow, each
/// option's nodes contiguous.
#[derive(Clone, Debug)]
pub struct Dlx {
    primary: usize,
    nodes: Vec<Node>,
    /// Option of each option node.
    node_option: Vec<u32>,
    /// First node of each option, plus an end marker.
    option_start: Vec<u32>,
    /// Options grouped by their first item (header `h` leads
    /// `led[led_start[h]..led_start[h + 1]]`), in option order.
    led: Vec<u32>,
    led_start: Vec<u32>,
    /// A bit per item of each option ([`item_bit`]): a quick test of whether
    /// options may share an item.
    option_sig: Vec<u64>,

    /// Horizontal links of the item list (headers only).
    llink: Vec<u32>,
    rlink: Vec<u32>,
    /// Remaining options of each item, indexed by header node.
    len: Vec<u32>,
    /// Primary items still to be covered, indexed by header node.
    active: Vec<bool>,

    /// Items covered by `select`, indexed by header node.
    selected_items: Vec<bool>,
    /// Options selected before the search.
    selected: Vec<u32>,
    /// Options allowed in the next search (all when `restricted` is false).
    allowed: Vec<u32>,
    restricted: bool,
    /// True when the links hold exactly the options compatible with `selected`.
    linked: bool,

    /// The node chosen at each level of the search.
    stack: Vec<u32>,
    /// Length of the undo log when each level's option was taken (after
    /// its item was covered, before the option's other items were).
    marks: Vec<u32>,
    /// The undo log, `undo[..undo_len]`: every change to the links since
    /// the search started, in order, to undo on backtracking: an item header
    /// taken out of the item list, or an option node taken out of its item's
    /// list. A header or node is logged only while it is out, so the log
    /// never holds more entries than there are nodes, and it is allocated
    /// that long once.
    undo: Vec<u32>,
    undo_len: usize,
    /// Items noted while options go: forced choices, dead ends, and items
    /// for the subset rule.
    pending: Pending,
    /// Items with at most this many options are noted when they lose one.
    small: u32,
    /// Options of the last solution found (selected ones first).
    chosen: Vec<u32>,
    /// Items tied for the fewest options, while choosing.
    tied: Vec<u32>,
    /// Choices made (search tree nodes) since the counter was last read.
    visited: u64,
    /// Ties for the fewest options are weighed among this many tied items.
    tie_reach: usize,
    /// Conflict weights, one per item (empty when off): how often the
    /// search failed at the item (left with no option, or its option the
    /// last taken when `prune` said no), plus one.
    weights: Vec<u32>,
    /// With conflict weights, the choices after which a search that has
    /// found nothing yet starts over (doubling each time), and the choice
    /// count of the last start.
    restart_after: u64,
    restart_from: u64,
    /// When a search gives up, as set.
    budget: Budget,
    /// The same for the search under way (a deadline counted from its start).
    running: Budget,
    /// Choices made in the current search, against the budget.
    spent: u64,
    /// Whether the last search gave up on its budget.
    gave_up: bool,
    /// All-different groups and their filter (none by default).
    hall: hall::Hall,
    /// Items whose options a `prune` follows ([`Dlx::watch`]).
    watch: Watch,
}

/// What a `prune` of [`Dlx::search_with`] follows between its calls: the
/// items below `items` whose options changed (went, came back, or were
/// covered or uncovered) since it last asked.
#[derive(Clone, Debug, Default)]
struct Watch {
    /// Items `0..items` are followed; 0: none.
    items: usize,
    /// The undo log is reported up to here.
    seen: usize,
    /// Every item is to be reported (a new search, or one undone).
    all: bool,
    /// Items changed by undoing reported entries, and a flag per item.
    list: Vec<u32>,
    listed: Vec<bool>,
}

impl Dlx {
    pub fn new(m: &Matrix) -> Dlx {
        let headers = m.item_count() + 1;
        let count = headers + m.items.len();
        let mut nodes: Vec<Node> = (0..headers as u32)
            .map(|h| Node {
                up: h,
                down: h,
                top: h,
                right: h,
            })
            .collect();
        let mut node_option = vec![u32::MAX; headers];
        let mut option_start = Vec::with_capacity(m.option_count() + 1);
        let mut option_sig = Vec::with_capacity(m.option_count());
        for k in 0..m.option_count() {
            let first = nodes.len() as u32;
            option_start.push(first);
            let items = m.option(k);
            option_sig.push(items.iter().fold(0, |s, &i| s | item_bit(i as usize + 1)));
            for (j, &i) in items.iter().enumerate() {
                let x = first + j as u32;
                nodes.push(Node {
                    up: x,
                    down: x,
                    top: i + 1,
                    right: if j + 1 == items.len() { first } else { x + 1 },
                });
            }
            node_option.extend(std::iter::repeat_n(k as u32, items.len()));
        }
        option_start.push(count as u32);
        let mut led_start = vec![0u32; headers + 1];
        for k in 0..m.option_count() {
            led_start[m.option(k)[0] as usize + 2] += 1;
        }
        for h in 1..=headers {
            led_start[h] += led_start[h - 1];
        }
        let mut led = vec![0u32; m.option_count()];
        let mut next = led_start.clone();
        for k in 0..m.option_count() {
            let h = m.option(k)[0] as usize + 1;
            led[next[h] as usize] = k as u32;
            next[h] += 1;
        }
        let mut d = Dlx {
            primary: m.primary,
            nodes,
            node_option,
            option_start,
            option_sig,
            led,
            led_start,
            llink: vec![0; headers],
            rlink: vec![0; headers],
            len: vec![0; headers],
            active: vec![false; headers],
            selected_items: vec![false; headers],
            selected: Vec::new(),
            allowed: Vec::with_capacity(m.option_count()),
            restricted: false,
            linked: false,
            stack: Vec::new(),
            marks: Vec::new(),
            undo: vec![0; count],
            undo_len: 0,
            pending: Pending {
                singles: Vec::with_capacity(headers),
                queue: Vec::with_capacity(headers),
                queued: vec![false; headers],
                dead: false,
                dead_item: 0,
            },
            small: 1,
            chosen: Vec::new(),
            tied: vec![0; headers],
            visited: 0,
            tie_reach: usize::MAX,
            weights: Vec::new(),
            restart_after: RESTART_FIRST,
            restart_from: 0,
            budget: Budget::default(),
            running: Budget::default(),
            spent: 0,
            gave_up: false,
            hall: hall::Hall::default(),
            watch: Watch::default(),
        };
        d.set_subset_limit(2);
        d
    }

    /// The subset rule looks at primary items with 2 to `max` options
    /// (at most 8); 0 or 1 turns it off. Default 2.
    pub fn set_subset_limit(&mut self, max: usize) {
        assert!(max <= SUBSET_MAX, "subset limit above {SUBSET_MAX}");
        self.small = max.max(1) as u32;
    }

    /// Ties for the fewest options go to the item with the most reach among
    /// the first `max` tied items (at least 1; default all). Weighing every
    /// tie can cost more than its better choices save.
    pub fn set_tie_reach(&mut self, max: usize) {
        self.tie_reach = max.max(1);
    }

    /// Chooses the item with the fewest options *per conflict* instead of
    /// the fewest options alone ("dom/wdeg": each item weighs one, plus
    /// one for every time a search failed there), so the search goes first
    /// where its failures have been. It pays where rules tie cells in long
    /// chains of weak local constraints (non-consecutive, whispers, sum
    /// lines), where the fewest options alone keeps choosing cells the
    /// rules barely touch. The weights start afresh with each search.
    ///
    /// A weighted search that has found no solution yet also starts over
    /// after [`RESTART_FIRST`] choices, then after twice as many, and so
    /// on, keeping its weights: an early choice made before the weights
    /// knew better is not kept for the whole search. Each start waits
    /// longer than the last, so the search still finishes.
    pub fn set_conflict_weights(&mut self, on: bool) {
        self.weights = if on {
            vec![1; self.len.len()]
        } else {
            Vec::new()
        };
    }

    /// Sets when the searches from now on give up (see [`Budget`]); a
    /// search that does returns the solutions found so far, and
    /// [`Dlx::gave_up`] says it did not finish.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Whether the last search gave up on its budget before it finished.
    pub fn gave_up(&self) -> bool {
        self.gave_up
    }

    /// The number of choices (search tree nodes) made since the last call.
    pub fn take_node_count(&mut self) -> u64 {
        std::mem::take(&mut self.visited)
    }

    /// Returns to the matrix as built: nothing selected, nothing covered.
    /// No allocation; the links are rebuilt when the next search starts.
    pub fn reset(&mut self) {
        self.gave_up = false;
        for &k in &self.selected {
            let (a, b) = option_range(&self.option_start, k as usize);
            for x in a..b {
                self.selected_items[self.nodes[x].top as usize] = false;
            }
        }
        self.selected.clear();
        self.allowed.clear();
        self.restricted = false;
        self.linked = false;
    }

    /// Limits the next searches (until [`Dlx::reset`]) to the options in
    /// `options`: every other option is taken to belong to no solution, and
    /// is left out of the links. Each call adds to the options allowed.
    pub fn allow(&mut self, options: impl IntoIterator<Item = usize>) {
        let count = self.option_start.len() - 1;
        self.allowed.extend(options.into_iter().map(|k| {
            assert!(k < count, "option {k} out of range");
            k as u32
        }));
        self.restricted = true;
        self.linked = false;
    }

    /// Puts option `k` into every solution before searching, which rules out
    /// every option that shares an item with it. Fails, changing nothing, if
    /// an earlier selection already covers one of its items.
    pub fn select(&mut self, k: usize) -> Result<(), Clash> {
        let (a, b) = option_range(&self.option_start, k);
        let nodes = &self.nodes[a..b];
        if let Some(x) = nodes.iter().find(|x| self.selected_items[x.top as usize]) {
            return Err(Clash {
                item: x.top as usize - 1,
            });
        }
        for x in nodes {
            self.selected_items[x.top as usize] = true;
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
            self.nodes[h].up = h as u32;
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
        let mut links = OptionLinks {
            nodes: &mut self.nodes,
            len: &mut self.len,
            selected: &self.selected_items,
            option_start: &self.option_start,
        };
        if self.restricted {
            for &k in &self.allowed {
                links.link_option(k as usize);
            }
        } else {
            // An option whose first item is covered by the selection is
            // out, so only the options led by free items are looked at.
            for h in 1..headers {
                if links.selected[h] {
                    continue;
                }
                let (from, to) = (self.led_start[h] as usize, self.led_start[h + 1] as usize);
                for &k in &self.led[from..to] {
                    links.link_option(k as usize);
                }
            }
        }
        for h in 1..headers {
            let bottom = self.nodes[h].up as usize;
            self.nodes[bottom].down = h as u32;
        }
        self.linked = true;
    }

    /// Searches for solutions, stopping after `limit` of them; calls
    /// `found` with the options of each (selected ones included). Returns how
    /// many were found. The links are restored to their state before the call.
    ///
    /// Each step takes a forced choice (an item with one option left) if
    /// there is one; otherwise it applies the subset rule to the items that
    /// changed, and when that drops nothing more it branches on an item with
    /// the fewest options.
    pub fn search(&mut self, limit: u64, found: impl FnMut(&[u32])) -> u64 {
        self.search_with(limit, found, |_| true)
    }

    /// [`Dlx::search`], asking `prune` after each option taken (and once
    /// before the first) whether the choices so far can still lead to a
    /// solution; on false the search backtracks. `prune` sees the engine
    /// between steps: [`Dlx::for_each_chosen`] and [`Dlx::options_of`]
    /// tell what is taken and what is left, and [`Dlx::drop_option`] takes
    /// out an option it finds in no solution (undone on backtracking like
    /// the search's own changes). It is how rules that exact cover does
    /// not express (sums over many cells) cut the search. With a `prune`
    /// that is always true this is the plain search.
    pub fn search_with(
        &mut self,
        limit: u64,
        mut found: impl FnMut(&[u32]),
        mut prune: impl FnMut(&mut Dlx) -> bool,
    ) -> u64 {
        if limit == 0 {
            return 0;
        }
        self.start_search();
        let mut count = 0;
        let mut alive = prune(self);
        loop {
            // The item the search fails at this step, if it does (0: none).
            let blame = if !alive || self.pending.dead {
                self.failed_item()
            } else if self.rlink[0] == 0 {
                count += 1;
                self.collect_chosen();
                found(&self.chosen);
                if count >= limit {
                    self.unwind();
                    return count;
                }
                0
            } else {
                match self.advance(count == 0) {
                    Advance::Reduced(ok) => {
                        alive = ok;
                        continue;
                    }
                    Advance::Filtered(ok) => {
                        // What the filter dropped may let `prune` drop more.
                        alive = ok && (self.hall_seen() == self.undo_len || prune(self));
                        continue;
                    }
                    Advance::Took | Advance::Restarted => {
                        alive = prune(self);
                        continue;
                    }
                    Advance::OutOfBudget => return count,
                    Advance::DeadEnd(i) => i,
                }
            };
            self.learn(blame);
            self.clear_pending();
            if !self.stack.is_empty() && self.out_of_budget() {
                return count;
            }
            if !self.backtrack() {
                return count;
            }
            alive = prune(self);
        }
    }

    /// Readies the links and the counters for a new search.
    fn start_search(&mut self) {
        if !self.linked {
            self.link();
        }
        self.spent = 0;
        self.gave_up = false;
        self.weights.fill(1);
        self.restart_after = RESTART_FIRST;
        self.restart_from = 0;
        self.running = self.budget.starting_now();
        self.stack.clear();
        self.marks.clear();
        self.undo_len = 0;
        self.hall.reset();
        self.watch.all = true;
        self.watch.seen = 0;
        self.clear_pending();
        self.note_small();
    }

    /// Copies the options of the solution just found into `chosen`: the
    /// selected ones, then those the search took.
    #[inline]
    fn collect_chosen(&mut self) {
        self.chosen.clear();
        self.chosen.extend_from_slice(&self.selected);
        self.chosen
            .extend(self.stack.iter().map(|&x| self.node_option[x as usize]));
    }

    /// One step forward from a live state with items left to cover: a
    /// forced choice if there is one, else the subset rule on the items
    /// that changed, else a branch on the item with the fewest options.
    /// `first` is true while no solution has been found (the search may
    /// then start over).
    #[inline]
    fn advance(&mut self, first: bool) -> Advance {
        let forced = self.pop_forced();
        if forced.is_none() && !self.pending.queue.is_empty() {
            return Advance::Reduced(self.reduce());
        }
        if forced.is_none() && self.hall_due() {
            return Advance::Filtered(self.filter_groups());
        }
        let i = forced.unwrap_or_else(|| self.choose());
        if self.len[i] == 0 {
            return Advance::DeadEnd(i);
        }
        if self.out_of_budget() {
            return Advance::OutOfBudget;
        }
        if first && self.restart_due() {
            // Start over with what the weights learnt.
            self.unwind();
            self.note_small();
            return Advance::Restarted;
        }
        self.take_first(i);
        Advance::Took
    }

    /// The next item noted with one option left that is still active.
    #[inline]
    fn pop_forced(&mut self) -> Option<usize> {
        while let Some(t) = self.pending.singles.pop() {
            if self.active[t as usize] {
                return Some(t as usize);
            }
        }
        None
    }

    /// Opens a level that takes the first option of item `i`.
    #[inline]
    fn take_first(&mut self, i: usize) {
        self.visited += 1;
        if self.hall.on() {
            self.hall.open_level();
        }
        let x = self.nodes[i].down;
        self.deactivate(x as usize);
        self.cover(i);
        self.stack.push(x);
        self.marks.push(self.undo_len as u32);
        self.cover_others(x as usize);
    }

    /// The item to blame when the state is dead or `prune` said no: the
    /// item left with no option, else the item of the option taken last
    /// (0 before any).
    #[inline]
    fn failed_item(&self) -> usize {
        if self.pending.dead {
            self.pending.dead_item
        } else if let Some(&x) = self.stack.last() {
            self.nodes[x as usize].top as usize
        } else {
            0
        }
    }

    /// Counts a failure at item `blame` in its conflict weight (0: none).
    #[inline]
    fn learn(&mut self, blame: usize) {
        if blame != 0
            && let Some(w) = self.weights.get_mut(blame)
        {
            *w = w.saturating_add(1);
        }
    }

    /// Backtracks to the deepest level with an option left to try and
    /// takes that option; false when no level has one (the links are then
    /// restored to their state before the search).
    ///
    /// The list of a covered item does not change while it is covered, so
    /// the next option of each level can be read before anything is
    /// undone, and the levels left behind (forced ones, and those whose
    /// options are all tried) are undone together with the level that takes
    /// its next option, in one pass.
    #[inline]
    fn backtrack(&mut self) -> bool {
        loop {
            let Some(x) = self.stack.pop() else {
                self.restore(0);
                return false;
            };
            let mark = self.marks.pop().unwrap_or(0);
            if self.hall.on() {
                self.hall.close_level();
            }
            let x = x as usize;
            let i = self.nodes[x].top as usize;
            let next = self.nodes[x].down as usize;
            if next != i {
                self.restore(mark as usize);
                // The item branched on stays covered, by another option.
                self.watch_changed(i - 1);
                self.visited += 1;
                if self.hall.on() {
                    self.hall.open_level();
                }
                self.stack.push(next as u32);
                self.marks.push(mark);
                self.deactivate(next);
                self.cover_others(next);
                self.requeue_column(i);
                return true;
            }
        }
    }

    /// Calls `f` with each option taken so far: those selected before the
    /// search, then those the search has taken, in order.
    pub fn for_each_chosen(&self, mut f: impl FnMut(u32)) {
        for &k in &self.selected {
            f(k);
        }
        for &x in &self.stack {
            f(self.node_option[x as usize]);
        }
    }

    /// Calls `f` with each option still left to cover `item`, an item not
    /// yet covered (an item covered by a chosen option keeps the options it
    /// had when it was covered).
    pub fn options_of(&self, item: usize, mut f: impl FnMut(u32)) {
        let h = item + 1;
        let mut p = self.nodes[h].down as usize;
        while p != h {
            f(self.node_option[p]);
            p = self.nodes[p].down as usize;
        }
    }

    /// Follows the options of items `0..items` for a `prune` of
    /// [`Dlx::search_with`] ([`Dlx::take_changed`]); 0 stops.
    pub fn watch(&mut self, items: usize) {
        let items = items.min(self.len.len() - 1);
        self.watch = Watch {
            items,
            seen: 0,
            all: true,
            list: Vec::with_capacity(items),
            listed: vec![false; items],
        };
    }

    /// Calls `f` with each watched item ([`Dlx::watch`]) whose options
    /// changed since the last call (every one at the start of a search
    /// or after it starts over), each once: what a `prune` reads again.
    pub fn take_changed(&mut self, mut f: impl FnMut(usize)) {
        let w = &mut self.watch;
        if w.all {
            w.all = false;
            for &i in &w.list {
                w.listed[i as usize] = false;
            }
            w.list.clear();
            (0..w.items).for_each(f);
        } else {
            let headers = self.len.len();
            for &e in &self.undo[w.seen..self.undo_len] {
                let i = entry_item(&self.nodes, headers, e as usize);
                if i < w.items && !w.listed[i] {
                    w.listed[i] = true;
                    w.list.push(i as u32);
                }
            }
            for &i in &w.list {
                w.listed[i as usize] = false;
                f(i as usize);
            }
            w.list.clear();
        }
        w.seen = self.undo_len;
    }

    /// Notes that item `i` changed for [`Dlx::take_changed`], if watched.
    #[inline]
    fn watch_changed(&mut self, i: usize) {
        let w = &mut self.watch;
        if i < w.items && !w.listed[i] {
            w.listed[i] = true;
            w.list.push(i as u32);
        }
    }

    /// Takes the changes made since [`Dlx::take_changed`] (options the
    /// `prune` dropped itself) as already known to it.
    pub fn changes_known(&mut self) {
        self.watch.seen = self.undo_len;
    }

    /// Takes option `k` out of the search, from inside a `prune` of
    /// [`Dlx::search_with`]: `k` must be an option that [`Dlx::options_of`]
    /// just gave for an item not yet covered. Returns false when that
    /// leaves a primary item with no option (a dead end).
    pub fn drop_option(&mut self, k: usize) -> bool {
        self.hide(k)
    }

    /// Undoes every level of the search and the reductions before it.
    /// Counts a choice against the budget; when it is spent, undoes the
    /// search and notes that it gave up.
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        self.spent += 1;
        if self.running.spent(self.spent) {
            self.gave_up = true;
            self.unwind();
            return true;
        }
        false
    }

    /// Notes the items that start with few options (forced choices, dead
    /// ends, the subset rule's).
    fn note_small(&mut self) {
        let mut p = self.rlink[0] as usize;
        while p != 0 {
            if self.len[p] <= self.small {
                self.note(p, self.len[p]);
            }
            p = self.rlink[p] as usize;
        }
    }

    /// Whether a weighted search has run long enough since its last start
    /// to start over; if so, the next start waits twice as long. Only
    /// before the first solution, so no solution is reported twice.
    fn restart_due(&mut self) -> bool {
        if self.weights.is_empty() || self.spent - self.restart_from < self.restart_after {
            return false;
        }
        self.restart_from = self.spent;
        self.restart_after = self.restart_after.saturating_mul(2);
        true
    }

    fn unwind(&mut self) {
        self.hall.reset();
        self.clear_pending();
        self.stack.clear();
        self.marks.clear();
        self.restore(0);
    }

    /// The node range of the option that node `x` belongs to.
    #[inline]
    fn nodes_of(&self, x: usize) -> (usize, usize) {
        // SAFETY: `x` is an option node, so it has an entry in `node_option`.
        unsafe { option_range(&self.option_start, at(&self.node_option, x) as usize) }
    }

    /// Notes that item `t` has `len` options left, `len <= small`.
    #[inline]
    fn note(&mut self, t: usize, len: u32) {
        self.pending.note(&self.active, t, len);
    }

    fn clear_pending(&mut self) {
        self.pending.dead = false;
        self.pending.singles.clear();
        for &h in &self.pending.queue {
            self.pending.queued[h as usize] = false;
        }
        self.pending.queue.clear();
    }

    /// The active primary item with the fewest options (the first one found
    /// with 0 or 1 ends the scan); ties go to the one with the most reach
    /// among the first [`Dlx::set_tie_reach`] tied.
    /// One pass over the item list gathers the tied items.
    fn choose(&mut self) -> usize {
        if !self.weights.is_empty() {
            return self.choose_weighted();
        }
        let mut ties = 0;
        let mut best_len = u32::MAX;
        // SAFETY: item-list links are headers; `tied` has a slot per header.
        unsafe {
            let mut p = at(&self.rlink, 0) as usize;
            while p != 0 {
                let l = at(&self.len, p);
                if l <= best_len {
                    if l < best_len {
                        if l <= 1 {
                            return p;
                        }
                        best_len = l;
                        ties = 0;
                    }
                    *at_mut(&mut self.tied, ties) = p as u32;
                    ties += 1;
                    // Items left with 0 or 1 option are forced choices, taken
                    // before any choosing; so 2 is the fewest, and once the
                    // ties to weigh are all seen the rest cannot change the pick.
                    if best_len == 2 && ties >= self.tie_reach {
                        break;
                    }
                }
                p = at(&self.rlink, p) as usize;
            }
        }
        let mut best = self.tied[0] as usize;
        let ties = ties.min(self.tie_reach);
        if ties > 1 {
            let mut best_reach = self.reach(best);
            for j in 1..ties {
                let t = self.tied[j] as usize;
                let reach = self.reach(t);
                if reach > best_reach {
                    best = t;
                    best_reach = reach;
                }
            }
        }
        best
    }

    /// The active primary item with the fewest options per conflict weight
    /// (the first one found with 0 or 1 options ends the scan; ties go to
    /// the first).
    fn choose_weighted(&self) -> usize {
        // Options and weights are u32, so every product fits a u64.
        let (mut best, mut best_len, mut best_weight) = (0, u32::MAX as u64, 1u64);
        let mut p = self.rlink[0] as usize;
        while p != 0 {
            let l = self.len[p];
            if l <= 1 {
                return p;
            }
            let w = self.weights[p] as u64;
            // l / w < best_len / best_weight, without division.
            if (l as u64) * best_weight < best_len * w {
                (best, best_len, best_weight) = (p, l as u64, w);
            }
            p = self.rlink[p] as usize;
        }
        best
    }

    /// How many options the options of item `i` would take away, counted
    /// with repeats: the sum of the option counts of the items they cover.
    fn reach(&self, i: usize) -> u32 {
        // SAFETY: `i` is a header; `down`, `right`, `top` lead to nodes and headers.
        unsafe {
            let nodes = &self.nodes[..];
            let mut sum = 0;
            let mut p = at(nodes, i).down as usize;
            while p != i {
                let mut q = at(nodes, p).right as usize;
                while q != p {
                    let n = at(nodes, q);
                    sum += at(&self.len, n.top as usize);
                    q = n.right as usize;
                }
                p = at(nodes, p).down as usize;
            }
            sum
        }
    }

    /// Takes item `h` out of the item list and its options out of the
    /// lists of their other items, logging each change for [`Dlx::restore`].
    fn cover(&mut self, h: usize) {
        self.links().cover(h);
    }

    /// The parts of the links that covering changes, borrowed apart.
    #[inline(always)]
    fn links(&mut self) -> Links<'_> {
        Links {
            nodes: &mut self.nodes,
            len: &mut self.len,
            active: &mut self.active,
            llink: &mut self.llink,
            rlink: &mut self.rlink,
            pending: &mut self.pending,
            undo: &mut self.undo,
            undo_len: &mut self.undo_len,
            small: self.small,
        }
    }

    /// Marks the items of `x`'s option as no longer to be covered, before
    /// covering them: they are not dead ends when they run out of options on
    /// the way.
    fn deactivate(&mut self, x: usize) {
        // SAFETY: an option's nodes, whose `top`s are headers with `active` slots.
        unsafe {
            let (a, b) = self.nodes_of(x);
            for q in a..b {
                *at_mut(&mut self.active, at(&self.nodes, q).top as usize) = false;
            }
        }
    }

    /// Covers the items of `x`'s option other than `x`'s own (already
    /// deactivated by the caller).
    fn cover_others(&mut self, x: usize) {
        // SAFETY: the nodes of one option, whose `top`s are headers.
        unsafe {
            let (a, b) = self.nodes_of(x);
            let mut links = self.links();
            for q in (a..b).filter(|&q| q != x) {
                let h = at(links.nodes, q).top as usize;
                links.cover(h);
            }
        }
    }

    /// Notes the items of every option of item `i` (covered): covering `i`
    /// took those options away before the current choice was made.
    fn requeue_column(&mut self, i: usize) {
        let mut p = self.nodes[i].down as usize;
        while p != i {
            let mut q = self.nodes[p].right as usize;
            while q != p {
                let t = self.nodes[q].top as usize;
                if self.len[t] <= self.small {
                    self.note(t, self.len[t]);
                }
                q = self.nodes[q].right as usize;
            }
            p = self.nodes[p].down as usize;
        }
    }

    /// Drops option `k` from the lists of all its items, logging each
    /// change. Returns false if that leaves an active primary item with no
    /// option.
    fn hide(&mut self, k: usize) -> bool {
        let (a, b) = option_range(&self.option_start, k);
        let mut links = self.links();
        for q in a..b {
            links.unlink_node(q);
        }
        !self.pending.dead
    }

    /// Undoes the changes logged since the log had length `mark`, latest
    /// first: each entry is an option node to put back into its item's
    /// list, or (below the first option node) an item header to put back
    /// into the item list.
    fn restore(&mut self, mark: usize) {
        let headers = self.len.len();
        let w = &mut self.watch;
        if w.items != 0 && mark < w.seen {
            // Reported changes undone: the watched items they touched
            // change back.
            for &e in &self.undo[mark..w.seen.min(self.undo_len)] {
                let i = entry_item(&self.nodes, headers, e as usize);
                if i < w.items && !w.listed[i] {
                    w.listed[i] = true;
                    w.list.push(i as u32);
                }
            }
            w.seen = mark;
        }
        let nodes = &mut self.nodes;
        let len = &mut self.len;
        // SAFETY: entries below `headers` are headers; their `llink`/`rlink` are headers.
        unsafe {
            for &e in self.undo[mark..self.undo_len].iter().rev() {
                let e = e as usize;
                if e >= headers {
                    relink_node(nodes, len, e);
                } else {
                    let (l, r) = (at(&self.llink, e), at(&self.rlink, e));
                    *at_mut(&mut self.rlink, l as usize) = e as u32;
                    *at_mut(&mut self.llink, r as usize) = e as u32;
                    *at_mut(&mut self.active, e) = e <= self.primary;
                }
            }
        }
        self.undo_len = mark;
    }

    /// Applies the subset rule to the queued items until nothing changes or
    /// a forced choice appears. Returns false if some active primary item is
    /// left with no option.
    fn reduce(&mut self) -> bool {
        // SAFETY: queued items are headers; `down`/`right` lead to nodes with options.
        unsafe {
            let mut options = [0u32; SUBSET_MAX];
            while let Some(a) = self.pending.queue.pop() {
                let a = a as usize;
                *at_mut(&mut self.pending.queued, a) = false;
                let n = at(&self.len, a) as usize;
                if !at(&self.active, a) || n < 2 {
                    continue;
                }
                let mut p = at(&self.nodes, a).down as usize;
                for slot in options.iter_mut().take(n) {
                    *slot = p as u32;
                    p = at(&self.nodes, p).down as usize;
                }
                let sig = options[..n].iter().fold(u64::MAX, |s, &y| {
                    s & at(&self.option_sig, at(&self.node_option, y as usize) as usize)
                });
                if sig == item_bit(a) {
                    // No item but `a` can be common to all, unless it shares a's bit.
                    let first = options[0] as usize;
                    let mut q = at(&self.nodes, first).right as usize;
                    let mut clash = false;
                    while q != first {
                        let node = at(&self.nodes, q);
                        clash |= item_bit(node.top as usize) == sig;
                        q = node.right as usize;
                    }
                    if !clash {
                        continue;
                    }
                }
                let first = options[0] as usize;
                let mut q = at(&self.nodes, first).right as usize;
                while q != first {
                    let node = at(&self.nodes, q);
                    let b = node.top as usize;
                    q = node.right as usize;
                    if sig & item_bit(b) == 0 || at(&self.len, b) as usize <= n {
                        continue;
                    }
                    let common = options[1..n].iter().all(|&y| {
                        let (s, e) = self.nodes_of(y as usize);
                        (s..e).any(|z| at(&self.nodes, z).top as usize == b)
                    });
                    if !common {
                        continue;
                    }
                    let mut p = at(&self.nodes, b).down as usize;
                    while p != b {
                        let next = at(&self.nodes, p).down as usize;
                        let k = at(&self.node_option, p);
                        if !options[..n]
                            .iter()
                            .any(|&y| at(&self.node_option, y as usize) == k)
                            && !self.hide(k as usize)
                        {
                            return false;
                        }
                        p = next;
                    }
                }
                if !self.pending.singles.is_empty() {
                    break;
                }
            }
            true
        }
    }
}

/// Items noted while options go (see [`Dlx::search`]).
#[derive(Clone, Debug)]
struct Pending {
    /// Items left with at most one option: forced choices (or dead ends).
    singles: Vec<u32>,
    /// Items with 2 to `small` options whose options changed since the
    /// subset rule last looked at them.
    queue: Vec<u32>,
    queued: Vec<bool>,
    /// An active primary item has no option left.
    dead: bool,
    /// The first item that ran out of options, when `dead`.
    dead_item: usize,
}

impl Pending {
    /// Notes that item `t` has `len` options left, `len <= small`.
    #[inline]
    fn note(&mut self, active: &[bool], t: usize, len: u32) {
        // SAFETY: `t` is a header, and `active` and `queued` have a slot per header.
        unsafe {
            if len == 0 {
                if at(active, t) && !self.dead {
                    self.dead = true;
                    self.dead_item = t;
                }
            } else if len == 1 {
                self.singles.push(t as u32);
            } else if !at(&self.queued, t) {
                *at_mut(&mut self.queued, t) = true;
                self.queue.push(t as u32);
            }
        }
    }
}

/// The parts of a [`Dlx`] that taking options away changes, borrowed apart
/// so that the hot loops keep them in registers.
struct Links<'a> {
    nodes: &'a mut [Node],
    len: &'a mut [u32],
    active: &'a mut [bool],
    llink: &'a mut [u32],
    rlink: &'a mut [u32],
    pending: &'a mut Pending,
    undo: &'a mut [u32],
    undo_len: &'a mut usize,
    small: u32,
}

impl Links<'_> {
    /// Removes option node `q` from its item's list.
    #[inline(always)]
    fn unlink_node(&mut self, q: usize) {
        // SAFETY: `q` is a node; its `up`, `down` and `top` links are nodes and headers.
        unsafe {
            let n = at(self.nodes, q);
            at_mut(self.nodes, n.up as usize).down = n.down;
            at_mut(self.nodes, n.down as usize).up = n.up;
            let t = n.top as usize;
            let l = at(self.len, t) - 1;
            *at_mut(self.len, t) = l;
            if l <= self.small {
                self.pending.note(self.active, t, l);
            }
        }
        self.log(q);
    }

    /// Appends `e` to the undo log.
    #[inline(always)]
    fn log(&mut self, e: usize) {
        // SAFETY: a header or node is logged once while out; the log has a slot per node.
        unsafe {
            *at_mut(self.undo, *self.undo_len) = e as u32;
            *self.undo_len += 1;
        }
    }

    /// Takes item `h` out of the item list and its options out of the
    /// lists of their other items, logging each change.
    #[inline(always)]
    fn cover(&mut self, h: usize) {
        // SAFETY: `h` is a header; its `llink`/`rlink` are headers.
        unsafe {
            let (l, r) = (at(self.llink, h), at(self.rlink, h));
            *at_mut(self.rlink, l as usize) = r;
            *at_mut(self.llink, r as usize) = l;
            *at_mut(self.active, h) = false;
        }
        self.log(h);
        self.cover_column(h);
    }

    /// Takes the options of item `h` out of the lists of their other items.
    #[inline(always)]
    fn cover_column(&mut self, h: usize) {
        // SAFETY: `h` is a header; `down` and `right` links lead only to nodes.
        unsafe {
            let mut p = at(self.nodes, h).down as usize;
            while p != h {
                let mut q = at(self.nodes, p).right as usize;
                while q != p {
                    self.unlink_node(q);
                    q = at(self.nodes, q).right as usize;
                }
                p = at(self.nodes, p).down as usize;
            }
        }
    }
}

/// The parts of a [`Dlx`] that linking options changes or reads.
struct OptionLinks<'a> {
    nodes: &'a mut [Node],
    len: &'a mut [u32],
    selected: &'a [bool],
    option_start: &'a [u32],
}

impl OptionLinks<'_> {
    /// Links option `k` (below the option count) at the bottom of its items'
    /// lists, unless it shares an item with the selection.
    #[inline(always)]
    fn link_option(&mut self, k: usize) {
        // SAFETY: the nodes of option `k`, whose `top`s and `up`s are headers and nodes.
        unsafe {
            let (a, b) = option_range(self.option_start, k);
            let nodes = &mut *self.nodes;
            if (a..b).any(|x| at(self.selected, at(nodes, x).top as usize)) {
                return;
            }
            for x in a..b {
                let h = at(nodes, x).top as usize;
                let prev = at(nodes, h).up;
                at_mut(nodes, prev as usize).down = x as u32;
                at_mut(nodes, x).up = prev;
                at_mut(nodes, h).up = x as u32;
                *at_mut(self.len, h) += 1;
            }
        }
    }
}

/// Puts option node `q` back into its item's list.
#[inline(always)]
fn relink_node(nodes: &mut [Node], len: &mut [u32], q: usize) {
    // SAFETY: `q` is a logged node; its `up`, `down` and `top` links are nodes and headers.
    unsafe {
        let n = at(nodes, q);
        at_mut(nodes, n.up as usize).down = q as u32;
        at_mut(nodes, n.down as usize).up = q as u32;
        *at_mut(len, n.top as usize) += 1;
    }
}

// The hot loops of the search follow links from node to node; every index
// they use comes from links built by `Dlx::new` and `Dlx::link`, which only
// refer to nodes and headers of the matrix, or is the length of the undo log,
// which stays below the node count; so the bounds checks are left to debug
// builds.

/// `s[i]`, checked only in debug builds.
///
/// # Safety
///
/// `i` must be below `s.len()`: callers pass node, header or item numbers
/// read from the links, or the undo log length (see above).
#[inline(always)]
unsafe fn at<T: Copy>(s: &[T], i: usize) -> T {
    debug_assert!(i < s.len(), "index {i} out of {}", s.len());
    // SAFETY: the caller guarantees `i < s.len()`.
    unsafe { *s.get_unchecked(i) }
}

/// `&mut s[i]`, checked only in debug builds.
///
/// # Safety
///
/// `i` must be below `s.len()`, as for [`at`].
#[inline(always)]
unsafe fn at_mut<T>(s: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < s.len(), "index {i} out of {}", s.len());
    // SAFETY: the caller guarantees `i < s.len()`.
    unsafe { s.get_unchecked_mut(i) }
}

/// The item an undo log entry `e` changed: a header's own, or the item of
/// an option node (`headers` headers come first).
#[inline]
fn entry_item(nodes: &[Node], headers: usize, e: usize) -> usize {
    if e < headers {
        e - 1
    } else {
        nodes[e].top as usize - 1
    }
}

/// The signature bit of the item with header `h`.
#[inline]
fn item_bit(h: usize) -> u64 {
    1 << ((h as u32).wrapping_mul(0x9E37_79B9) >> 26)
}

#[inline]
fn option_range(option_start: &[u32], k: usize) -> (usize, usize) {
    (option_start[k] as usize, option_start[k + 1] as usize)
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
    fn allowed_options_only() {
        let mut d = Dlx::new(&knuth());
        d.allow([0, 1, 2, 4, 5]); // not option 3, which the solution needs
        assert_eq!(d.search(10, |_| {}), 0);
        d.allow([3]);
        assert_eq!(d.search(10, |_| {}), 1);
        d.reset();
        d.select(4).unwrap();
        d.allow([0, 3]);
        let mut sols = Vec::new();
        assert_eq!(d.search(10, |s| sols.push(s.to_vec())), 1);
        sols[0].sort();
        assert_eq!(sols, vec![vec![0, 3, 4]]);
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
    fn conflict_weights_change_the_order_not_the_solutions() {
        // Random matrices, every solution listed with and without weights.
        let mut rng = crate::rng::Rng::new(5);
        for _ in 0..40 {
            let mut m = Matrix::new(10, 2);
            for _ in 0..30 {
                let mut o: Vec<usize> = (0..1 + rng.below(3))
                    .map(|_| rng.below(12) as usize)
                    .collect();
                o.sort_unstable();
                o.dedup();
                m.add_option(&o);
            }
            let all = |weights: bool| {
                let mut d = Dlx::new(&m);
                d.set_conflict_weights(weights);
                let mut sols: Vec<Vec<u32>> = Vec::new();
                d.search(u64::MAX, |s| {
                    let mut s = s.to_vec();
                    s.sort_unstable();
                    sols.push(s);
                });
                sols.sort();
                sols
            };
            assert_eq!(all(true), all(false));
        }
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

    /// Solutions of `m` counted by trying every subset of its options.
    fn brute_force(m: &Matrix, primary: usize) -> u64 {
        brute_force_with(m, primary, None)
    }

    /// [`brute_force`], counting only the solutions that use option
    /// `required` when one is given.
    fn brute_force_with(m: &Matrix, primary: usize, required: Option<usize>) -> u64 {
        let n = m.option_count();
        let mut count = 0;
        let uses = |set: &u32| required.is_none_or(|k| set >> k & 1 == 1);
        for set in (0u32..1 << n).filter(uses) {
            let mut covered = vec![0u32; m.item_count()];
            for k in (0..n).filter(|k| set >> k & 1 == 1) {
                for &i in m.option(k) {
                    covered[i as usize] += 1;
                }
            }
            if covered[..primary].iter().all(|&c| c == 1)
                && covered[primary..].iter().all(|&c| c <= 1)
            {
                count += 1;
            }
        }
        count
    }

    /// A random matrix: up to 12 options over a few items, options often
    /// sharing items so that the subset rule has work to do.
    fn random_matrix(rng: &mut crate::rng::Rng) -> (Matrix, usize) {
        let primary = 2 + rng.below(6) as usize;
        let secondary = rng.below(3) as usize;
        let items = primary + secondary;
        let mut m = Matrix::new(primary, secondary);
        for _ in 0..4 + rng.below(9) {
            let mut option: Vec<usize> = (0..items).filter(|_| rng.below(3) == 0).collect();
            // Every option covers a primary item: the search never picks
            // options of secondary items alone.
            if !option.iter().any(|&i| i < primary) {
                option.insert(0, rng.below(primary as u32) as usize);
            }
            m.add_option(&option);
        }
        (m, primary)
    }

    #[test]
    fn the_subset_rule_never_changes_counts() {
        let mut rng = crate::rng::Rng::new(11);
        for case in 0..1500 {
            let (m, primary) = random_matrix(&mut rng);
            let expected = brute_force(&m, primary);
            for limit in [0, 2, 3, 5, 8] {
                let mut d = Dlx::new(&m);
                d.set_subset_limit(limit);
                let mut seen = Vec::new();
                let count = d.search(u64::MAX, |s| {
                    let mut s = s.to_vec();
                    s.sort();
                    seen.push(s);
                });
                assert_eq!(count, expected, "case {case}, subset limit {limit}");
                let before = seen.len();
                seen.sort();
                seen.dedup();
                assert_eq!(seen.len(), before, "case {case}: a solution repeated");
                for s in &seen {
                    let mut covered = vec![0; m.item_count()];
                    for &k in s {
                        for &i in m.option(k as usize) {
                            covered[i as usize] += 1;
                        }
                    }
                    assert!(covered[..primary].iter().all(|&c| c == 1));
                    assert!(covered[primary..].iter().all(|&c| c <= 1));
                }
                // Stopping early, and searching again, both stay exact.
                if expected > 1 {
                    assert_eq!(d.search(expected - 1, |_| {}), expected - 1);
                }
                assert_eq!(d.search(u64::MAX, |_| {}), expected);
            }
        }
    }

    #[test]
    fn selection_and_subset_rule_together() {
        let mut rng = crate::rng::Rng::new(5);
        for case in 0..1000 {
            let (m, primary) = random_matrix(&mut rng);
            let k = rng.below(m.option_count() as u32) as usize;
            // Solutions containing option k, by brute force over the rest.
            let expected = brute_force_with(&m, primary, Some(k));
            let mut d = Dlx::new(&m);
            d.select(k).unwrap();
            assert_eq!(
                d.search(u64::MAX, |s| assert!(s.contains(&(k as u32)))),
                expected,
                "case {case}"
            );
            d.reset();
            assert_eq!(
                d.search(u64::MAX, |_| {}),
                brute_force(&m, primary),
                "case {case} after reset"
            );
        }
    }
}
