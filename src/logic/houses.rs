//! What the techniques need to know about a layout, derived once from its
//! houses: each cell's houses and its place in them, who sees whom, which
//! pairs of houses share cells, the sub-grids (for fish lines and for names)
//! and how cells and houses are named in sentences.

use std::collections::HashMap;
use std::sync::Arc;

use crate::grid::{HouseKind, Layout};

/// A square sub-grid of the canvas: its rows and columns are houses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubGrid {
    /// Canvas row and column of its top-left cell.
    pub top: usize,
    pub left: usize,
    /// Its name in sentences ("top-left", "centre", ...); empty when the
    /// layout is a single grid.
    pub name: String,
    /// Its row houses, top to bottom, and column houses, left to right.
    pub rows: Vec<u32>,
    pub cols: Vec<u32>,
    /// Its box houses in reading order of their first cells.
    pub boxes: Vec<u32>,
    /// `row_in_box[i * boxes.len() + b]`: positions of row `i` inside box
    /// `b`, as bits; the same for columns.
    pub row_in_box: Vec<u32>,
    pub col_in_box: Vec<u32>,
    /// The most positions one line has inside one box.
    pub box_span: u32,
}

/// Two houses that share at least two cells: where the candidates of a digit
/// in the first all lie in the shared cells, the second loses the digit
/// elsewhere (locked candidates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Intersection {
    pub a: u32,
    pub b: u32,
    /// The shared cells as positions (bits) in house `a` and in house `b`.
    pub in_a: u32,
    pub in_b: u32,
}

/// A layout's houses indexed as the logic engine uses them: each cell's
/// houses, its peers, the intersections, the sub-grids and the names.
#[derive(Clone, Debug)]
pub struct HouseIndex {
    layout: Arc<Layout>,
    n: usize,
    cells: usize,
    kinds: Vec<HouseKind>,
    /// House `h` holds `house_cells[h * n..(h + 1) * n]`, in reading order.
    house_cells: Vec<u32>,
    /// Cell `c` lies in `cell_houses[cell_start[c]..cell_start[c + 1]]`, each
    /// as (house, position of the cell in that house).
    cell_start: Vec<u32>,
    cell_houses: Vec<(u32, u8)>,
    /// Distinct cells sharing a house with cell `c`:
    /// `peers[peer_start[c]..peer_start[c + 1]]`.
    peer_start: Vec<u32>,
    peers: Vec<u32>,
    /// The same as bits: `peer_bits[c * words..(c + 1) * words]`.
    words: usize,
    peer_bits: Vec<u64>,
    intersections: Vec<Intersection>,
    grids: Vec<SubGrid>,
    /// Index in `grids` of the grid that names each cell (the first holding it).
    home: Vec<u32>,
    /// The grid and the 1-based number a house goes by ("row 3" of grid 0).
    house_label: Vec<(u32, u32)>,
}

impl HouseIndex {
    pub fn new(layout: Arc<Layout>) -> HouseIndex {
        let n = layout.size();
        let cells = layout.cell_count();
        let houses = layout.houses();
        let kinds = houses.iter().map(|h| h.kind).collect();
        let mut house_cells = Vec::with_capacity(houses.len() * n);
        for h in houses {
            debug_assert_eq!(h.cells.len(), n, "every house holds every symbol once");
            house_cells.extend_from_slice(&h.cells);
        }
        let mut cell_start = Vec::with_capacity(cells + 1);
        let mut cell_houses = Vec::new();
        cell_start.push(0);
        for c in 0..cells {
            for &h in layout.houses_of(c) {
                let at = houses[h as usize]
                    .cells
                    .iter()
                    .position(|&x| x as usize == c)
                    .expect("a cell lies in its own houses");
                cell_houses.push((h, at as u8));
            }
            cell_start.push(cell_houses.len() as u32);
        }
        let words = cells.div_ceil(64);
        let mut peer_bits = vec![0u64; cells * words];
        let mut peer_start = Vec::with_capacity(cells + 1);
        let mut peers = Vec::new();
        peer_start.push(0);
        for c in 0..cells {
            let bits = &mut peer_bits[c * words..(c + 1) * words];
            for &h in layout.houses_of(c) {
                for &o in &houses[h as usize].cells {
                    if o as usize != c {
                        bits[o as usize / 64] |= 1 << (o % 64);
                    }
                }
            }
            for (w, &word) in bits.iter().enumerate() {
                let mut m = word;
                while m != 0 {
                    peers.push((w * 64) as u32 + m.trailing_zeros());
                    m &= m - 1;
                }
            }
            peer_start.push(peers.len() as u32);
        }
        let mut index = HouseIndex {
            n,
            cells,
            kinds,
            house_cells,
            cell_start,
            cell_houses,
            peer_start,
            peers,
            words,
            peer_bits,
            intersections: Vec::new(),
            grids: Vec::new(),
            home: Vec::new(),
            house_label: Vec::new(),
            layout,
        };
        index.intersections = index.find_intersections();
        index.grids = index.find_grids();
        index.label();
        index
    }

    pub fn layout(&self) -> &Arc<Layout> {
        &self.layout
    }
    /// Number of symbols.
    pub fn size(&self) -> usize {
        self.n
    }
    pub fn cell_count(&self) -> usize {
        self.cells
    }
    pub fn house_count(&self) -> usize {
        self.kinds.len()
    }
    pub fn kind(&self, house: usize) -> HouseKind {
        self.kinds[house]
    }
    /// The cells of a house, in reading order.
    pub fn house(&self, house: usize) -> &[u32] {
        &self.house_cells[house * self.n..(house + 1) * self.n]
    }
    /// The houses of a cell, each with the cell's position in it.
    pub fn houses_of(&self, cell: usize) -> &[(u32, u8)] {
        &self.cell_houses[self.cell_start[cell] as usize..self.cell_start[cell + 1] as usize]
    }
    /// Every other cell that shares a house with `cell`.
    pub fn peers(&self, cell: usize) -> &[u32] {
        &self.peers[self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize]
    }
    /// Whether two distinct cells share a house.
    #[inline]
    pub fn sees(&self, a: usize, b: usize) -> bool {
        self.peer_bits[a * self.words + b / 64] >> (b % 64) & 1 != 0
    }
    /// Pairs of houses sharing two or more cells, both ways round.
    pub fn intersections(&self) -> &[Intersection] {
        &self.intersections
    }
    /// The square sub-grids, in reading order of their top-left corners.
    pub fn grids(&self) -> &[SubGrid] {
        &self.grids
    }
    /// The position of `cell` in `house`, if it lies there.
    pub fn index_in(&self, cell: usize, house: usize) -> Option<usize> {
        self.houses_of(cell)
            .iter()
            .find(|&&(h, _)| h as usize == house)
            .map(|&(_, i)| i as usize)
    }
    /// Cells of `house` at the set bits of `mask`.
    pub fn cells_at(&self, house: usize, mask: u32) -> impl Iterator<Item = usize> + '_ {
        let cells = self.house(house);
        bits(mask).map(move |i| cells[i] as usize)
    }

    fn find_intersections(&self) -> Vec<Intersection> {
        let mut out = Vec::new();
        for a in 0..self.house_count() {
            for b in 0..self.house_count() {
                if a == b {
                    continue;
                }
                let (mut in_a, mut in_b) = (0u32, 0u32);
                for (i, &c) in self.house(a).iter().enumerate() {
                    if let Some(j) = self.index_in(c as usize, b) {
                        in_a |= 1 << i;
                        in_b |= 1 << j;
                    }
                }
                if in_a.count_ones() >= 2 {
                    out.push(Intersection {
                        a: a as u32,
                        b: b as u32,
                        in_a,
                        in_b,
                    });
                }
            }
        }
        out
    }

    /// The square sub-grids: an `n` x `n` block of the canvas whose `n` rows
    /// and `n` columns are all houses. Found from the houses alone, so every
    /// shape built from grids at offsets (or a single grid) gets them.
    fn find_grids(&self) -> Vec<SubGrid> {
        let lines = self.straight_lines();
        let mut grids: Vec<SubGrid> = lines
            .grid_corners(self.n)
            .iter()
            .map(|&(top, left)| self.sub_grid(&lines, top, left))
            .collect();
        if grids.len() > 1 {
            let l = &self.layout;
            name_grids(&mut grids, self.n, l.height(), l.width());
        }
        grids
    }

    /// The houses of kind Row or Column whose cells run along one canvas
    /// row or column.
    fn straight_lines(&self) -> StraightLines {
        let l = &self.layout;
        let mut lines = StraightLines {
            rows: HashMap::new(),
            cols: HashMap::new(),
        };
        for h in 0..self.house_count() {
            let cells = self.house(h);
            let start = l.position(cells[0] as usize);
            let along = |dr: usize, dc: usize| {
                cells
                    .iter()
                    .enumerate()
                    .all(|(i, &c)| l.position(c as usize) == (start.0 + i * dr, start.1 + i * dc))
            };
            match self.kinds[h] {
                HouseKind::Row if along(0, 1) => {
                    lines.rows.insert(start, h as u32);
                }
                HouseKind::Column if along(1, 0) => {
                    lines.cols.insert(start, h as u32);
                }
                _ => {}
            }
        }
        lines
    }

    /// The sub-grid with its top-left cell at canvas row `top`, column
    /// `left`: its rows, columns and boxes, and where the lines cross the
    /// boxes.
    fn sub_grid(&self, lines: &StraightLines, top: usize, left: usize) -> SubGrid {
        let n = self.n;
        let boxes = self.boxes_within(top, left);
        let rows: Vec<u32> = (0..n).map(|i| lines.rows[&(top + i, left)]).collect();
        let cols: Vec<u32> = (0..n).map(|i| lines.cols[&(top, left + i)]).collect();
        let row_in_box = self.lines_in_boxes(&rows, &boxes);
        let col_in_box = self.lines_in_boxes(&cols, &boxes);
        let box_span = row_in_box
            .iter()
            .chain(&col_in_box)
            .map(|m| m.count_ones())
            .max()
            .unwrap_or(0);
        SubGrid {
            top,
            left,
            name: String::new(),
            rows,
            cols,
            boxes,
            row_in_box,
            col_in_box,
            box_span,
        }
    }

    /// The boxes wholly inside the `n` x `n` block at (`top`, `left`), in
    /// reading order of their first cells.
    fn boxes_within(&self, top: usize, left: usize) -> Vec<u32> {
        let n = self.n;
        let l = &self.layout;
        let cells: Vec<usize> = (0..n)
            .flat_map(|i| (0..n).map(move |j| (top + i, left + j)))
            .filter_map(|(r, c)| l.cell_at(r, c))
            .collect();
        let mut boxes: Vec<u32> = (0..self.house_count())
            .filter(|&h| {
                self.kinds[h] == HouseKind::Box
                    && self.house(h).iter().all(|&c| cells.contains(&(c as usize)))
            })
            .map(|h| h as u32)
            .collect();
        boxes.sort_by_key(|&b| self.house(b as usize)[0]);
        boxes
    }

    /// For each of `lines` and each of `boxes` (line-major), the positions
    /// of the line inside the box, as bits.
    fn lines_in_boxes(&self, lines: &[u32], boxes: &[u32]) -> Vec<u32> {
        let mut out = Vec::with_capacity(lines.len() * boxes.len());
        for &line in lines {
            for &b in boxes {
                let mut m = 0u32;
                for (j, &c) in self.house(line as usize).iter().enumerate() {
                    if self.house(b as usize).contains(&c) {
                        m |= 1 << j;
                    }
                }
                out.push(m);
            }
        }
        out
    }

    fn label(&mut self) {
        let l = self.layout.clone();
        self.home = (0..self.cells)
            .map(|c| {
                let (r, col) = l.position(c);
                self.grids
                    .iter()
                    .position(|g| {
                        (g.top..g.top + self.n).contains(&r)
                            && (g.left..g.left + self.n).contains(&col)
                    })
                    .map_or(u32::MAX, |g| g as u32)
            })
            .collect();
        self.house_label = (0..self.house_count())
            .map(|h| {
                let h32 = h as u32;
                for (gi, g) in self.grids.iter().enumerate() {
                    for list in [&g.rows, &g.cols, &g.boxes] {
                        if let Some(i) = list.iter().position(|&x| x == h32) {
                            return (gi as u32, i as u32 + 1);
                        }
                    }
                }
                // Outside every square grid: number it among its kind.
                let same = (0..h).filter(|&o| self.kinds[o] == self.kinds[h]).count();
                (u32::MAX, same as u32 + 1)
            })
            .collect();
    }

    /// A cell's name: `r3c7` on a single grid (canvas row and column);
    /// `top-left grid, r3c7` on several, counted inside the grid that names it.
    pub fn cell_name(&self, cell: usize) -> String {
        match self.grid_of(cell) {
            Some(g) if !g.name.is_empty() => {
                format!("{} grid, {}", g.name, self.local_name(cell))
            }
            _ => self.local_name(cell),
        }
    }

    /// `r3c7`, counted inside the cell's naming grid.
    fn local_name(&self, cell: usize) -> String {
        let (r, c) = self.layout.position(cell);
        let (top, left) = self.grid_of(cell).map_or((0, 0), |g| (g.top, g.left));
        format!("r{}c{}", r - top + 1, c - left + 1)
    }

    fn grid_of(&self, cell: usize) -> Option<&SubGrid> {
        self.grids.get(self.home[cell] as usize)
    }

    /// Several cells: `r1c2, r1c5 and r3c3`; on several grids, grouped by
    /// grid: `top-left grid, r7c7 and r7c8; centre grid, r1c4`.
    pub fn cells_name(&self, cells: &[usize]) -> String {
        let mut groups: Vec<(u32, Vec<String>)> = Vec::new();
        for &c in cells {
            let g = self.home[c];
            let local = self.local_name(c);
            match groups.iter_mut().find(|(h, _)| *h == g) {
                Some((_, v)) => v.push(local),
                None => groups.push((g, vec![local])),
            }
        }
        let parts: Vec<String> = groups
            .into_iter()
            .map(|(g, names)| match self.grids.get(g as usize) {
                Some(grid) if !grid.name.is_empty() => {
                    format!("{} grid, {}", grid.name, join_and(&names))
                }
                _ => join_and(&names),
            })
            .collect();
        parts.join("; ")
    }

    /// A house's name: `row 3`, `column 7`, `box 5` (`region 5` on a
    /// jigsaw); on several grids `row 3 of the top-left grid`. A variant
    /// rule's house: `the main diagonal`, `the anti-diagonal`, `the extra
    /// region from r2c2` (a window, a disjoint group).
    pub fn house_name(&self, house: usize) -> String {
        let (g, k) = self.house_label[house];
        let kind = match self.kinds[house] {
            HouseKind::Row => "row",
            HouseKind::Column => "column",
            HouseKind::Box if !self.layout.regions().is_empty() => "region",
            HouseKind::Box => "box",
            HouseKind::Extra => return self.extra_name(house),
        };
        match self.grids.get(g as usize) {
            Some(grid) if !grid.name.is_empty() => {
                format!("{kind} {k} of the {} grid", grid.name)
            }
            _ => format!("{kind} {k}"),
        }
    }

    /// A variant rule's house, by the layout's name for a diagonal, else
    /// by its first cell.
    fn extra_name(&self, house: usize) -> String {
        let name = self.layout.house_name(house);
        if name.ends_with("diagonal") {
            name
        } else {
            format!(
                "the extra region from {}",
                self.cell_name(self.house(house)[0] as usize)
            )
        }
    }

    /// Several houses: `rows 2 and 5` when they share a kind and a grid,
    /// else their names joined.
    pub fn houses_name(&self, houses: &[usize]) -> String {
        if houses.len() > 1
            && self.kinds[houses[0]] != HouseKind::Extra
            && houses.iter().all(|&h| {
                self.kinds[h] == self.kinds[houses[0]]
                    && self.house_label[h].0 == self.house_label[houses[0]].0
            })
        {
            let first = self.house_name(houses[0]);
            let (kind, rest) = first.split_once(' ').unwrap_or((&first, ""));
            let suffix = rest.split_once(' ').map_or("", |(_, s)| s);
            let numbers: Vec<String> = houses
                .iter()
                .map(|&h| self.house_label[h].1.to_string())
                .collect();
            let plural = match kind {
                "box" => "boxes".to_string(),
                k => format!("{k}s"),
            };
            let mut out = format!("{plural} {}", join_and(&numbers));
            if !suffix.is_empty() {
                out.push(' ');
                out.push_str(suffix);
            }
            return out;
        }
        let names: Vec<String> = houses.iter().map(|&h| self.house_name(h)).collect();
        join_and(&names)
    }
}

/// The rows and columns that run straight along the canvas, keyed by the
/// canvas position of their first cell.
struct StraightLines {
    rows: HashMap<(usize, usize), u32>,
    cols: HashMap<(usize, usize), u32>,
}

impl StraightLines {
    /// The top-left corners, in order, of the `n` x `n` blocks whose `n`
    /// rows and `n` columns are all lines here.
    fn grid_corners(&self, n: usize) -> Vec<(usize, usize)> {
        let mut corners: Vec<(usize, usize)> = Vec::new();
        for &(r, c0) in self.rows.keys() {
            // The grid holding this row has its left edge at c0 and its top
            // at the start of a column through (r, c0).
            for r0 in r.saturating_sub(n - 1)..=r {
                if self.cols.contains_key(&(r0, c0)) && !corners.contains(&(r0, c0)) {
                    let complete = (0..n).all(|i| {
                        self.rows.contains_key(&(r0 + i, c0))
                            && self.cols.contains_key(&(r0, c0 + i))
                    });
                    if complete {
                        corners.push((r0, c0));
                    }
                }
            }
        }
        corners.sort_unstable();
        corners
    }
}

/// Names the sub-grids of a shape of several by their place on the canvas
/// ("top-left", "centre"), or by number when places repeat.
fn name_grids(grids: &mut [SubGrid], n: usize, height: usize, width: usize) {
    let names: Vec<String> = grids
        .iter()
        .map(|g| place_name(g.top, g.left, n, height, width))
        .collect();
    let unique = names
        .iter()
        .enumerate()
        .all(|(i, a)| !names[..i].contains(a));
    for (i, g) in grids.iter_mut().enumerate() {
        g.name = if unique {
            names[i].clone()
        } else {
            format!("grid {}", i + 1)
        };
    }
}

/// Where a grid lies on the canvas: `top-left`, `top`, `centre`, `right`...
/// from the grid's centre against the canvas's centre.
fn place_name(top: usize, left: usize, n: usize, height: usize, width: usize) -> String {
    // Doubled coordinates keep halves exact.
    let side = |start: usize, extent: usize, low: &'static str, high: &'static str| {
        let (mid, centre) = (2 * start + n, extent);
        match mid.cmp(&centre) {
            std::cmp::Ordering::Less => low,
            std::cmp::Ordering::Equal => "",
            std::cmp::Ordering::Greater => high,
        }
    };
    let v = side(top, height, "top", "bottom");
    let h = side(left, width, "left", "right");
    match (v, h) {
        ("", "") => "centre".to_string(),
        ("", h) => h.to_string(),
        (v, "") => v.to_string(),
        (v, h) => format!("{v}-{h}"),
    }
}

/// `a`, `a and b`, `a, b and c`; items that hold an "and" themselves are
/// closed with `, and`.
pub fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => {
            let comma = if items.iter().any(|i| i.contains(" and ")) {
                ","
            } else {
                ""
            };
            format!("{}{comma} and {last}", init.join(", "))
        }
    }
}

/// The set bits of a mask, lowest first.
#[inline]
pub fn bits(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn houses(name: &str) -> HouseIndex {
        HouseIndex::new(Arc::new(Layout::named(name).unwrap()))
    }

    #[test]
    fn classic_is_one_unnamed_grid() {
        let s = houses("classic");
        assert_eq!(s.grids().len(), 1);
        assert_eq!(s.peers(0).len(), 20);
        assert_eq!(s.cell_name(80), "r9c9");
        assert_eq!(s.house_name(s.grids()[0].boxes[4] as usize), "box 5");
        assert_eq!(s.house_name(s.grids()[0].cols[6] as usize), "column 7");
        // Box-row and box-column pairs, both ways round.
        assert_eq!(s.intersections().len(), 4 * 27);
        assert!(s.sees(0, 80 - 8) && !s.sees(0, 80));
    }

    #[test]
    fn samurai_grids_are_named_from_their_place() {
        let s = houses("samurai");
        let names: Vec<&str> = s.grids().iter().map(|g| g.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "top-left",
                "top-right",
                "centre",
                "bottom-left",
                "bottom-right"
            ]
        );
        let l = s.layout().clone();
        // A cell of the shared box is named by the top-left grid.
        assert_eq!(s.cell_name(l.cell_at(7, 7).unwrap()), "top-left grid, r8c8");
        assert_eq!(s.cell_name(l.cell_at(10, 10).unwrap()), "centre grid, r5c5");
        assert_eq!(
            s.cell_name(l.cell_at(20, 20).unwrap()),
            "bottom-right grid, r9c9"
        );
        let row = s.grids()[2].rows[2] as usize;
        assert_eq!(s.house_name(row), "row 3 of the centre grid");
        assert_eq!(
            s.cells_name(&[l.cell_at(8, 8).unwrap(), l.cell_at(8, 9).unwrap()]),
            "top-left grid, r9c9; centre grid, r3c4"
        );
        // The rows of two grids that cross a shared box share three cells.
        assert!(s.intersections().iter().any(|x| {
            s.kind(x.a as usize) == HouseKind::Row && s.kind(x.b as usize) == HouseKind::Row
        }));
    }

    #[test]
    fn other_shapes_name_their_grids_by_place() {
        for (name, expect) in [
            ("twodoku", vec!["top-left", "bottom-right"]),
            (
                "butterfly",
                vec!["top-left", "top-right", "bottom-left", "bottom-right"],
            ),
            ("flower", vec!["top", "left", "centre", "right", "bottom"]),
            ("sohei", vec!["top", "left", "right", "bottom"]),
        ] {
            let s = houses(name);
            let names: Vec<&str> = s.grids().iter().map(|g| g.name.as_str()).collect();
            assert_eq!(names, expect, "{name}");
            assert!(
                s.grids()
                    .iter()
                    .all(|g| g.rows.len() == 9 && g.cols.len() == 9)
            );
        }
    }

    #[test]
    fn jigsaw_regions_are_named_regions() {
        let regions: Vec<usize> = (0..81).map(|i| (i / 9) / 3 * 3 + (i % 9) / 3).collect();
        let mut regions = regions;
        regions.swap(2, 3); // two cells change region
        let s = HouseIndex::new(Arc::new(Layout::jigsaw(9, &regions).unwrap()));
        assert_eq!(s.grids().len(), 1);
        assert_eq!(s.grids()[0].boxes.len(), 9);
        assert_eq!(s.house_name(s.grids()[0].boxes[0] as usize), "region 1");
    }
}
