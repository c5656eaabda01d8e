//! Layouts: the cells of a puzzle on a rectangular canvas, and its houses.
//!
//! Every shape is built by one of two general constructions: square sub-grids
//! placed at offsets on a canvas ([`Layout::from_grids`]), or a single square
//! grid whose boxes are given as a region map ([`Layout::jigsaw`]).

use std::fmt;

/// What kind of house a set of cells is; used to name it in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HouseKind {
    Row,
    Column,
    Box,
    /// A house a variant rule adds: a diagonal, an extra region of as
    /// many cells as symbols, a disjoint group.
    Extra,
}

/// A set of cells that must hold every symbol exactly once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct House {
    pub kind: HouseKind,
    /// Cell indices, in reading order.
    pub cells: Vec<u32>,
}

/// A puzzle shape: which canvas positions are cells and which cells form houses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    name: String,
    height: usize,
    width: usize,
    size: usize,
    /// Box height and width when every sub-grid has rectangular boxes.
    box_shape: Option<(usize, usize)>,
    /// Region of each cell, for a jigsaw; empty otherwise.
    regions: Vec<u8>,
    /// Canvas position (row * width + col) to cell index, or `NO_CELL`.
    cell_at: Vec<u32>,
    /// Cell index to canvas (row, col).
    cells: Vec<(u16, u16)>,
    houses: Vec<House>,
    /// Houses containing each cell: `cell_houses[cell_house_start[c]..cell_house_start[c + 1]]`.
    cell_house_start: Vec<u32>,
    cell_houses: Vec<u32>,
}

const NO_CELL: u32 = u32::MAX;

/// The multi-grid shapes that puzzle books print: name, canvas size, offsets of
/// the 9x9 grids' top-left corners.
/// Top-left corners (row, column) of the sub-grids of a shape.
type Offsets = &'static [(usize, usize)];

const MULTI_GRIDS: &[(&str, usize, Offsets)] = &[
    ("classic", 9, &[(0, 0)]),
    ("samurai", 21, &[(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)]),
    ("twodoku", 15, &[(0, 0), (6, 6)]),
    ("butterfly", 12, &[(0, 0), (0, 3), (3, 0), (3, 3)]),
    ("flower", 15, &[(0, 3), (3, 0), (3, 3), (3, 6), (6, 3)]),
    ("sohei", 21, &[(0, 6), (6, 0), (6, 12), (12, 6)]),
];

/// Square grids with rectangular boxes: size, name, box height, box width.
/// The 9x9 is named "classic" ([`MULTI_GRIDS`] lists it by that name).
const SQUARES: &[(usize, &str, usize, usize)] = &[
    (4, "4x4", 2, 2),
    (6, "6x6", 2, 3),
    (8, "8x8", 2, 4),
    (9, "classic", 3, 3),
    (12, "12x12", 3, 4),
    (16, "16x16", 4, 4),
    (25, "25x25", 5, 5),
];

/// The largest number of symbols a layout may have.
pub const MAX_SIZE: usize = 25;

/// An error building a layout from a description.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error("unknown layout \"{0}\" (known: {known})", known = Layout::names().join(", "))]
    UnknownName(String),
    #[error("{0}")]
    Invalid(String),
}

impl Layout {
    /// Square sub-grids of `size` x `size` cells, with boxes of `box_h` x `box_w`,
    /// placed with their top-left corners at `offsets` on a `height` x `width`
    /// canvas. Where sub-grids overlap they share cells; a house that two
    /// sub-grids share (a box) is kept once.
    pub fn from_grids(
        name: &str,
        height: usize,
        width: usize,
        size: usize,
        (box_h, box_w): (usize, usize),
        offsets: &[(usize, usize)],
    ) -> Result<Layout, LayoutError> {
        if size == 0 || size > MAX_SIZE || box_h * box_w != size || !size.is_multiple_of(box_h) {
            return Err(LayoutError::Invalid(format!(
                "{size}x{size} grids cannot have {box_h}x{box_w} boxes"
            )));
        }
        if offsets.is_empty() {
            return Err(LayoutError::Invalid(
                "a layout needs at least one grid".into(),
            ));
        }
        let mut cell_at = vec![NO_CELL; height * width];
        for &(r0, c0) in offsets {
            if r0 + size > height || c0 + size > width {
                return Err(LayoutError::Invalid(format!(
                    "a grid at row {r0}, column {c0} does not fit on a {height}x{width} canvas"
                )));
            }
            for r in r0..r0 + size {
                for c in c0..c0 + size {
                    cell_at[r * width + c] = 0;
                }
            }
        }
        let mut layout = Layout::with_mask(name, height, width, size, cell_at);
        layout.box_shape = Some((box_h, box_w));
        let mut houses = Vec::with_capacity(offsets.len() * size * 3);
        for &(r0, c0) in offsets {
            for i in 0..size {
                houses.push((
                    HouseKind::Row,
                    (0..size).map(|j| (r0 + i, c0 + j)).collect(),
                ));
                houses.push((
                    HouseKind::Column,
                    (0..size).map(|j| (r0 + j, c0 + i)).collect(),
                ));
                let (br, bc) = (r0 + (i / box_h) * box_h, c0 + (i % box_h) * box_w);
                houses.push((
                    HouseKind::Box,
                    (0..size)
                        .map(|j| (br + j / box_w, bc + j % box_w))
                        .collect(),
                ));
            }
        }
        layout.set_houses(houses);
        Ok(layout)
    }

    /// A single `size` x `size` grid whose boxes are the regions of `regions`
    /// (one region id per cell, in reading order; `size` regions of `size` cells).
    /// [`Layout::regions`] numbers them in order of first appearance.
    pub fn jigsaw(size: usize, regions: &[usize]) -> Result<Layout, LayoutError> {
        if size == 0 || size > MAX_SIZE || regions.len() != size * size {
            return Err(LayoutError::Invalid(format!(
                "a {size}x{size} jigsaw needs {} region ids, got {}",
                size * size,
                regions.len()
            )));
        }
        // Number regions in order of first appearance, so that equal maps
        // give equal layouts whatever ids they were written with.
        let mut renumber = vec![usize::MAX; size];
        let mut next = 0;
        let mut canonical = Vec::with_capacity(regions.len());
        for (i, &id) in regions.iter().enumerate() {
            if id >= size {
                return Err(LayoutError::Invalid(format!(
                    "region id {id} at r{}c{} is out of range (0..{size})",
                    i / size + 1,
                    i % size + 1
                )));
            }
            if renumber[id] == usize::MAX {
                renumber[id] = next;
                next += 1;
            }
            canonical.push(renumber[id]);
        }
        let mut members = vec![Vec::new(); size];
        for (i, &id) in canonical.iter().enumerate() {
            members[id].push((i / size, i % size));
        }
        if let Some((id, m)) = members.iter().enumerate().find(|(_, m)| m.len() != size) {
            return Err(LayoutError::Invalid(format!(
                "region {} has {} cells; every region needs {size}",
                id + 1,
                m.len()
            )));
        }
        let mut layout = Layout::with_mask("jigsaw", size, size, size, vec![0; size * size]);
        layout.regions = canonical.iter().map(|&r| r as u8).collect();
        let mut houses = Vec::with_capacity(size * 3);
        for i in 0..size {
            houses.push((HouseKind::Row, (0..size).map(|j| (i, j)).collect()));
            houses.push((HouseKind::Column, (0..size).map(|j| (j, i)).collect()));
        }
        houses.extend(members.into_iter().map(|m| (HouseKind::Box, m)));
        layout.set_houses(houses);
        Ok(layout)
    }

    /// The classic 9x9 sudoku.
    pub fn classic() -> Layout {
        Layout::named("classic").expect("built-in layout")
    }

    /// Five overlapping 9x9 grids on a 21x21 canvas.
    pub fn samurai() -> Layout {
        Layout::named("samurai").expect("built-in layout")
    }

    /// A square grid of `size` symbols with its usual rectangular boxes
    /// (4, 6, 8, 9, 12, 16 or 25).
    pub fn square(size: usize) -> Result<Layout, LayoutError> {
        let &(n, name, bh, bw) = SQUARES.iter().find(|s| s.0 == size).ok_or_else(|| {
            let sizes: Vec<String> = Layout::square_sizes().map(|n| n.to_string()).collect();
            LayoutError::Invalid(format!(
                "no {size}x{size} layout (sizes: {})",
                sizes.join(", ")
            ))
        })?;
        Layout::from_grids(name, n, n, n, (bh, bw), &[(0, 0)])
    }

    /// A built-in layout by name: classic, samurai, twodoku, butterfly, flower,
    /// sohei, 4x4, 6x6, 8x8, 9x9, 12x12, 16x16, 25x25.
    pub fn named(name: &str) -> Result<Layout, LayoutError> {
        let lower = name.to_ascii_lowercase();
        if let Some(&(n, side, offsets)) = MULTI_GRIDS.iter().find(|m| m.0 == lower) {
            return Layout::from_grids(n, side, side, 9, (3, 3), offsets);
        }
        if let Some((a, b)) = lower.split_once('x')
            && a == b
            && let Ok(size) = a.parse::<usize>()
            && SQUARES.iter().any(|s| s.0 == size)
        {
            return Layout::square(size);
        }
        Err(LayoutError::UnknownName(name.to_string()))
    }

    /// Names accepted by [`Layout::named`].
    pub fn names() -> Vec<&'static str> {
        let multi = MULTI_GRIDS.iter().map(|m| m.0);
        let squares = SQUARES.iter().map(|s| s.1);
        multi
            .clone()
            .chain(squares.filter(|&n| !multi.clone().any(|m| m == n)))
            .collect()
    }

    /// The sizes of the square layouts ([`Layout::square`]), ascending.
    pub fn square_sizes() -> impl Iterator<Item = usize> {
        SQUARES.iter().map(|s| s.0)
    }

    /// Whether the layout is one square grid with one symbol per row and
    /// column (a classic, a 6x6, a 16x16, a jigsaw): the shape that can
    /// carry jigsaw regions, and the only one f-puzzles holds.
    pub fn is_single_square(&self) -> bool {
        self.is_full() && self.width == self.size && self.height == self.size
    }

    /// Whether `other` has the same cells on the same canvas, whatever its
    /// houses: a butterfly and a 12x12 do, and a picture of the grid tells
    /// them apart only by which lines it draws heavier, or by its symbols.
    pub fn same_cells(&self, other: &Layout) -> bool {
        (self.height, self.width) == (other.height, other.width) && self.cells == other.cells
    }

    /// Every built-in layout whose canvas is `height` x `width`.
    pub fn builtin_with_canvas(height: usize, width: usize) -> Vec<Layout> {
        let mut out = Vec::new();
        for &(name, side, _) in MULTI_GRIDS {
            if side == height && side == width {
                out.push(Layout::named(name).expect("built-in layout"));
            }
        }
        for &(n, _, _, _) in SQUARES {
            if n == height && n == width && n != 9 {
                out.push(Layout::square(n).expect("built-in layout"));
            }
        }
        out
    }

    fn with_mask(
        name: &str,
        height: usize,
        width: usize,
        size: usize,
        mut cell_at: Vec<u32>,
    ) -> Layout {
        let mut cells = Vec::new();
        for (pos, slot) in cell_at.iter_mut().enumerate() {
            if *slot != NO_CELL {
                *slot = cells.len() as u32;
                cells.push(((pos / width) as u16, (pos % width) as u16));
            }
        }
        Layout {
            name: name.to_string(),
            height,
            width,
            size,
            box_shape: None,
            regions: Vec::new(),
            cell_at,
            cells,
            houses: Vec::new(),
            cell_house_start: Vec::new(),
            cell_houses: Vec::new(),
        }
    }

    fn set_houses(&mut self, houses: Vec<(HouseKind, Vec<(usize, usize)>)>) {
        let mut seen: Vec<Vec<u32>> = Vec::new();
        for (kind, positions) in houses {
            let mut cells: Vec<u32> = positions
                .iter()
                .map(|&(r, c)| self.cell_at[r * self.width + c])
                .collect();
            cells.sort_unstable();
            if seen.contains(&cells) {
                continue;
            }
            seen.push(cells.clone());
            self.houses.push(House { kind, cells });
        }
        let mut per_cell = vec![Vec::new(); self.cells.len()];
        for (h, house) in self.houses.iter().enumerate() {
            for &c in &house.cells {
                per_cell[c as usize].push(h as u32);
            }
        }
        self.cell_house_start = Vec::with_capacity(self.cells.len() + 1);
        self.cell_house_start.push(0);
        for hs in per_cell {
            self.cell_houses.extend(hs);
            self.cell_house_start.push(self.cell_houses.len() as u32);
        }
    }

    /// The same layout with `extra` as houses too (each as many cells as
    /// there are symbols: a diagonal, a full extra region, a disjoint
    /// group), after its own; a set of cells already a house is not added
    /// twice.
    pub fn with_extra_houses(&self, extra: &[Vec<u32>]) -> Layout {
        let mut out = self.clone();
        for cells in extra {
            let mut cells = cells.clone();
            cells.sort_unstable();
            debug_assert_eq!(cells.len(), self.size, "a house holds every symbol");
            if out.houses.iter().any(|h| h.cells == cells) {
                continue;
            }
            out.houses.push(House {
                kind: HouseKind::Extra,
                cells,
            });
        }
        let mut per_cell = vec![Vec::new(); out.cells.len()];
        for (h, house) in out.houses.iter().enumerate() {
            for &c in &house.cells {
                per_cell[c as usize].push(h as u32);
            }
        }
        out.cell_houses.clear();
        out.cell_house_start.clear();
        out.cell_house_start.push(0);
        for hs in per_cell {
            out.cell_houses.extend(hs);
            out.cell_house_start.push(out.cell_houses.len() as u32);
        }
        out
    }

    pub fn name(&self) -> &str {
        &self.name
    }
    /// Canvas height in rows.
    pub fn height(&self) -> usize {
        self.height
    }
    /// Canvas width in columns.
    pub fn width(&self) -> usize {
        self.width
    }
    /// Number of symbols (9 for every 9x9-based shape).
    pub fn size(&self) -> usize {
        self.size
    }
    /// Box height and width, for layouts with rectangular boxes (not jigsaw).
    pub fn box_shape(&self) -> Option<(usize, usize)> {
        self.box_shape
    }
    /// The region (zero-based) of each cell of a jigsaw, in cell order;
    /// empty for layouts with rectangular boxes.
    pub fn regions(&self) -> &[u8] {
        &self.regions
    }
    /// True when every canvas position is a cell (a single square grid).
    pub fn is_full(&self) -> bool {
        self.cells.len() == self.height * self.width
    }
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }
    pub fn houses(&self) -> &[House] {
        &self.houses
    }
    /// Canvas (row, col) of a cell, zero-based.
    pub fn position(&self, cell: usize) -> (usize, usize) {
        let (r, c) = self.cells[cell];
        (r as usize, c as usize)
    }
    /// The cell at canvas (row, col), if that position is part of the shape.
    pub fn cell_at(&self, row: usize, col: usize) -> Option<usize> {
        if row >= self.height || col >= self.width {
            return None;
        }
        match self.cell_at[row * self.width + col] {
            NO_CELL => None,
            c => Some(c as usize),
        }
    }
    /// True when canvas (row, col) is a cell of the shape. Positions off the
    /// canvas, negative ones included, are not: callers look at a cell's
    /// neighbours without checking the edges first.
    pub fn is_cell(&self, row: isize, col: isize) -> bool {
        row >= 0 && col >= 0 && self.cell_at(row as usize, col as usize).is_some()
    }
    /// Whether cells `a` and `b` lie in one box (or jigsaw region).
    pub fn same_box(&self, a: usize, b: usize) -> bool {
        let hb = self.houses_of(b);
        self.houses_of(a)
            .iter()
            .any(|h| self.houses[*h as usize].kind == HouseKind::Box && hb.contains(h))
    }
    /// Indices of the houses that contain `cell`.
    pub fn houses_of(&self, cell: usize) -> &[u32] {
        let (a, b) = (self.cell_house_start[cell], self.cell_house_start[cell + 1]);
        &self.cell_houses[a as usize..b as usize]
    }
    /// The bands of neighbouring rows (or columns, by `kind`) that span the
    /// same columns (rows): every run of two or more consecutive lines,
    /// short of all `size` lines of a grid (they would make the whole
    /// grid), as house indices in line order. Bands come by span, then by
    /// first line, then shortest first.
    pub fn line_bands(&self, kind: HouseKind) -> Vec<Vec<usize>> {
        // (span start, span length, line, house) of each row or column.
        let mut lines: Vec<(usize, usize, usize, usize)> = Vec::new();
        for (h, house) in self.houses.iter().enumerate() {
            if house.kind != kind {
                continue;
            }
            let (r, c) = self.position(house.cells[0] as usize);
            let (line, start) = if kind == HouseKind::Row {
                (r, c)
            } else {
                (c, r)
            };
            lines.push((start, house.cells.len(), line, h));
        }
        lines.sort_unstable();
        let mut out = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            // lines[i..j]: a run of consecutive lines with the same span.
            let mut j = i + 1;
            while j < lines.len()
                && lines[j].0 == lines[i].0
                && lines[j].1 == lines[i].1
                && lines[j].2 == lines[j - 1].2 + 1
            {
                j += 1;
            }
            for a in i..j {
                for b in a + 2..=j {
                    if b - a < self.size {
                        out.push(lines[a..b].iter().map(|l| l.3).collect());
                    }
                }
            }
            i = j;
        }
        out
    }
    /// A cell's name in messages: `r3c14` (one-based canvas row and column).
    pub fn cell_name(&self, cell: usize) -> String {
        let (r, c) = self.position(cell);
        format!("r{}c{}", r + 1, c + 1)
    }
    /// A house's name in messages, e.g. "row 3", "column 14", "box at r4c13".
    pub fn house_name(&self, house: usize) -> String {
        let h = &self.houses[house];
        let (r, c) = self.position(h.cells[0] as usize);
        match h.kind {
            HouseKind::Row => format!("row {} (columns {}-{})", r + 1, c + 1, c + self.size),
            HouseKind::Column => format!("column {} (rows {}-{})", c + 1, r + 1, r + self.size),
            HouseKind::Box => format!("box from {}", self.cell_name(h.cells[0] as usize)),
            HouseKind::Extra => {
                let n = self.height;
                let on = |f: &dyn Fn(usize, usize) -> bool| {
                    h.cells.iter().all(|&c| {
                        let (r, c) = self.position(c as usize);
                        f(r, c)
                    })
                };
                if self.is_full() && on(&|r, c| r == c) {
                    "the main diagonal".to_string()
                } else if self.is_full() && on(&|r, c| r + c + 1 == n) {
                    "the anti-diagonal".to_string()
                } else {
                    format!(
                        "the extra region from {}",
                        self.cell_name(h.cells[0] as usize)
                    )
                }
            }
        }
    }

    /// Checks `values` (one per cell, 1..=size, 0 = empty) against the rules:
    /// the first pair of cells in one house holding the same symbol.
    pub fn first_conflict(&self, values: &[u8]) -> Option<Conflict> {
        let mut seen = [u32::MAX; MAX_SIZE + 1];
        for (h, house) in self.houses.iter().enumerate() {
            seen.fill(u32::MAX);
            for &c in &house.cells {
                let v = values[c as usize] as usize;
                if v == 0 {
                    continue;
                }
                if seen[v] != u32::MAX {
                    return Some(Conflict {
                        first: seen[v] as usize,
                        second: c as usize,
                        house: h,
                        value: v as u8,
                    });
                }
                seen[v] = c;
            }
        }
        None
    }

    /// A colour index for each region of a jigsaw (see [`Layout::regions`]),
    /// so that no two regions that meet along an edge share one: each region
    /// in turn takes the least index its neighbours have not taken. Printed
    /// and read maps need four or five; empty for a layout without regions.
    pub fn region_colours(&self) -> Vec<u8> {
        let n = self
            .regions
            .iter()
            .map(|&r| r as usize + 1)
            .max()
            .unwrap_or(0);
        let mut colour = vec![u8::MAX; n];
        for region in 0..n {
            let mut used = [false; MAX_SIZE + 1];
            for c in (0..self.cell_count()).filter(|&c| self.regions[c] as usize == region) {
                let (r, k) = self.position(c);
                for (dr, dk) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    let (Some(nr), Some(nk)) = (r.checked_add_signed(dr), k.checked_add_signed(dk))
                    else {
                        continue;
                    };
                    if let Some(o) = self.cell_at(nr, nk)
                        && let Some(u) = used.get_mut(colour[self.regions[o] as usize] as usize)
                    {
                        *u = true;
                    }
                }
            }
            // A region meets at most every other one: a free index exists.
            colour[region] = used.iter().position(|u| !u).unwrap_or(0) as u8;
        }
        colour
    }

    /// True when every cell holds a symbol and no house repeats one.
    pub fn is_solved(&self, values: &[u8]) -> bool {
        values.len() == self.cell_count()
            && values.iter().all(|&v| v >= 1 && v as usize <= self.size)
            && self.first_conflict(values).is_none()
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// Two cells of one house that hold the same symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub first: usize,
    pub second: usize,
    pub house: usize,
    pub value: u8,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_has_81_cells_and_27_houses() {
        let l = Layout::classic();
        assert_eq!(l.cell_count(), 81);
        assert_eq!(l.houses().len(), 27);
        assert!(l.houses().iter().all(|h| h.cells.len() == 9));
        assert_eq!(l.houses_of(40).len(), 3);
    }

    #[test]
    fn samurai_shares_four_boxes() {
        let l = Layout::samurai();
        assert_eq!(l.cell_count(), 369);
        assert_eq!(l.houses().len(), 131);
        // A cell of a shared box lies in two rows, two columns and one box.
        let shared = l.cell_at(7, 7).unwrap();
        assert_eq!(l.houses_of(shared).len(), 5);
        assert_eq!(l.cell_at(0, 10), None);
        assert_eq!(l.cell_at(10, 0), None);
    }

    #[test]
    fn other_multi_grid_shapes_have_expected_cell_counts() {
        for (name, cells, houses) in [
            ("twodoku", 153, 53),
            ("butterfly", 144, 24 + 24 + 16),
            ("flower", 189, 33 + 33 + 21),
            ("sohei", 288, 4 * 27 - 4),
        ] {
            let l = Layout::named(name).unwrap();
            assert_eq!(l.cell_count(), cells, "{name} cells");
            assert_eq!(l.houses().len(), houses, "{name} houses");
        }
    }

    #[test]
    fn line_bands_are_runs_of_neighbouring_lines_of_one_span() {
        let l = Layout::classic();
        let rows: Vec<usize> = (0..l.houses().len())
            .filter(|&h| l.houses()[h].kind == HouseKind::Row)
            .collect();
        let bands = l.line_bands(HouseKind::Row);
        // Runs of 2 to 8 of the 9 rows: 8 + 7 + ... + 2 of them.
        assert_eq!(bands.len(), 35);
        assert_eq!(bands[0], vec![rows[0], rows[1]]);
        assert_eq!(bands[1], rows[0..3].to_vec());
        assert_eq!(bands[7], rows[1..3].to_vec());
        assert!(!bands.contains(&rows));
        // A samurai's five grids span different columns (or their rows are
        // not neighbours): each gives bands of its own rows only.
        let s = Layout::samurai();
        for kind in [HouseKind::Row, HouseKind::Column] {
            let bands = s.line_bands(kind);
            assert_eq!(bands.len(), 5 * 35);
            for band in &bands {
                let spans: Vec<((usize, usize), usize)> = band
                    .iter()
                    .map(|&h| {
                        let cells = &s.houses()[h].cells;
                        (s.position(cells[0] as usize), cells.len())
                    })
                    .collect();
                for w in spans.windows(2) {
                    let ((r0, c0), (r1, c1)) = (w[0].0, w[1].0);
                    let (line0, start0, line1, start1) = if kind == HouseKind::Row {
                        (r0, c0, r1, c1)
                    } else {
                        (c0, r0, c1, r1)
                    };
                    assert_eq!((start1, w[1].1, line1), (start0, w[0].1, line0 + 1));
                }
            }
        }
    }

    #[test]
    fn squares_have_rectangular_boxes() {
        let l = Layout::named("6x6").unwrap();
        assert_eq!(l.cell_count(), 36);
        let first_box = l
            .houses()
            .iter()
            .find(|h| h.kind == HouseKind::Box)
            .unwrap();
        let positions: Vec<_> = first_box
            .cells
            .iter()
            .map(|&c| l.position(c as usize))
            .collect();
        assert_eq!(
            positions,
            vec![(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
        );
        assert_eq!(Layout::named("25x25").unwrap().houses().len(), 75);
        assert!(Layout::named("7x7").is_err());
        // 8x8: boxes of 2 rows by 4 columns.
        let eight = Layout::named("8x8").unwrap();
        assert_eq!((eight.cell_count(), eight.houses().len()), (64, 24));
        assert_eq!(eight.box_shape(), Some((2, 4)));
        assert!(Layout::names().contains(&"8x8"));
    }

    #[test]
    fn jigsaw_checks_its_region_map() {
        let regions: Vec<usize> = (0..16).map(|i| i / 4).collect(); // rows as regions
        let l = Layout::jigsaw(4, &regions).unwrap();
        assert_eq!(l.houses().len(), 8, "row-shaped regions duplicate the rows");
        let bad: Vec<usize> = (0..16).map(|i| usize::from(i == 0)).collect();
        assert!(Layout::jigsaw(4, &bad).is_err());
    }

    #[test]
    fn is_cell_follows_the_shape_and_refuses_positions_off_the_canvas() {
        let l = Layout::samurai();
        assert!(l.is_cell(0, 0) && l.is_cell(7, 7) && l.is_cell(20, 20));
        assert!(!l.is_cell(0, 10) && !l.is_cell(10, 0));
        assert!(!l.is_cell(-1, 0) && !l.is_cell(0, -1) && !l.is_cell(-1, -1));
        assert!(!l.is_cell(21, 0) && !l.is_cell(0, 21));
        let classic = Layout::classic();
        assert!(classic.is_cell(8, 8) && !classic.is_cell(9, 8) && !classic.is_cell(8, 9));
    }

    #[test]
    fn a_square_size_there_is_no_layout_for_names_the_sizes() {
        let e = Layout::square(7).unwrap_err();
        assert!(
            e.to_string()
                .contains("no 7x7 layout (sizes: 4, 6, 8, 9, 12, 16, 25)"),
            "{e}"
        );
        assert_eq!(Layout::square(9).unwrap().name(), "classic");
        assert_eq!(Layout::square(8).unwrap().name(), "8x8");
    }

    #[test]
    fn single_squares_are_the_full_grids_of_one_symbol_a_row() {
        let named = |n: &str| Layout::named(n).unwrap();
        for name in ["classic", "4x4", "6x6", "12x12", "25x25"] {
            assert!(named(name).is_single_square(), "{name}");
        }
        // A butterfly is full, but its rows hold twelve cells of nine symbols.
        for name in ["butterfly", "samurai", "twodoku"] {
            assert!(!named(name).is_single_square(), "{name}");
        }
    }

    #[test]
    fn same_cells_looks_at_the_cells_not_the_houses() {
        let named = |n: &str| Layout::named(n).unwrap();
        assert!(named("butterfly").same_cells(&named("12x12")));
        assert!(named("classic").same_cells(&named("classic")));
        assert!(!named("samurai").same_cells(&named("sohei")));
        assert!(!named("12x12").same_cells(&named("16x16")));
    }

    #[test]
    fn same_box_follows_boxes_and_regions() {
        let l = Layout::classic();
        let at = |r, c| l.cell_at(r, c).unwrap();
        assert!(l.same_box(at(0, 0), at(2, 2)));
        assert!(!l.same_box(at(0, 2), at(0, 3)), "same row, next box");
        assert!(!l.same_box(at(2, 0), at(3, 0)), "same column, next box");
        // A jigsaw's regions are its boxes.
        #[rustfmt::skip]
        let regions = [
            0, 0, 0, 1,
            0, 2, 1, 1,
            2, 2, 3, 1,
            2, 3, 3, 3,
        ];
        let j = Layout::jigsaw(4, &regions).unwrap();
        assert!(j.same_box(0, 4), "r1c1 and r2c1");
        assert!(j.same_box(5, 12), "r2c2 and r4c1");
        assert!(!j.same_box(2, 3), "r1c3 and r1c4");
        // In a samurai the shared box is one box of two grids.
        let s = Layout::samurai();
        let (a, b) = (s.cell_at(6, 6).unwrap(), s.cell_at(8, 8).unwrap());
        assert!(s.same_box(a, b));
    }

    #[test]
    fn region_colours_differ_wherever_two_regions_meet() {
        let rows = [
            "112223333",
            "111222333",
            "111222334",
            "155666444",
            "555666444",
            "555666447",
            "588999777",
            "888999777",
            "888899977",
        ];
        let ids: Vec<usize> = rows
            .iter()
            .flat_map(|r| r.bytes().map(|b| (b - b'1') as usize))
            .collect();
        let l = &Layout::jigsaw(9, &ids).unwrap();
        let colours = l.region_colours();
        assert_eq!(colours.len(), l.size());
        let region = |c: usize| l.regions()[c] as usize;
        let mut meetings = 0;
        for c in 0..l.cell_count() {
            let (r, k) = l.position(c);
            for o in [l.cell_at(r + 1, k), l.cell_at(r, k + 1)]
                .into_iter()
                .flatten()
            {
                if region(c) != region(o) {
                    meetings += 1;
                    assert_ne!(
                        colours[region(c)],
                        colours[region(o)],
                        "r{}c{}",
                        r + 1,
                        k + 1
                    );
                }
            }
        }
        assert!(meetings > 0);
        assert!(colours.iter().all(|&c| c < 5), "{colours:?}");
        assert!(Layout::classic().region_colours().is_empty());
    }

    #[test]
    fn conflicts_name_both_cells() {
        let l = Layout::classic();
        let mut v = vec![0u8; 81];
        v[2] = 5;
        v[2 + 9 * 7] = 5;
        let c = l.first_conflict(&v).unwrap();
        assert_eq!((c.first, c.second, c.value), (2, 65, 5));
        assert_eq!(l.houses()[c.house].kind, HouseKind::Column);
    }
}
