//! The candidates (pencil marks) of a puzzle of any layout: a bit per symbol
//! for each cell, and for each house and symbol the positions in the house
//! that still hold it, kept in step so that both questions ("what can go in
//! this cell", "where can this symbol go in this house") are one load.

use std::sync::Arc;

use super::houses::{HouseIndex, bits};

/// A candidate: a symbol (1-based) that a cell may still hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Candidate {
    pub cell: usize,
    pub digit: u8,
}

impl Candidate {
    pub fn new(cell: usize, digit: u8) -> Candidate {
        Candidate { cell, digit }
    }
}

/// Values and candidates of a puzzle in progress.
#[derive(Clone, Debug)]
pub struct Candidates {
    houses: Arc<HouseIndex>,
    /// 0 empty, 1..=n placed.
    values: Vec<u8>,
    /// Candidate bits of each cell (bit d-1 for symbol d); 0 once placed.
    cells: Vec<u32>,
    /// `places[h * n + d]`: positions in house `h` (bit i = the house's i-th
    /// cell) where symbol d+1 can still go.
    places: Vec<u32>,
    /// Symbols placed in each house, as bits.
    placed: Vec<u32>,
}

impl Candidates {
    /// The candidates left by `values` (one per cell, 0 = empty): every
    /// symbol not yet in any house of the cell. Values must not conflict
    /// (see [`crate::grid::Layout::first_conflict`]).
    pub fn new(houses: Arc<HouseIndex>, values: &[u8]) -> Candidates {
        assert_eq!(values.len(), houses.cell_count(), "one value per cell");
        let n = houses.size();
        let full = full_mask(n);
        let house_count = houses.house_count();
        let mut g = Candidates {
            values: vec![0; values.len()],
            cells: vec![full; values.len()],
            places: vec![full_mask(n); house_count * n],
            placed: vec![0; house_count],
            houses,
        };
        for (c, &v) in values.iter().enumerate() {
            if v != 0 {
                g.place(c, v);
            }
        }
        g
    }

    /// Copies another grid of the same layout into this one, reusing its
    /// buffers.
    pub fn copy_from(&mut self, other: &Candidates) {
        debug_assert!(Arc::ptr_eq(&self.houses, &other.houses));
        self.values.copy_from_slice(&other.values);
        self.cells.copy_from_slice(&other.cells);
        self.places.copy_from_slice(&other.places);
        self.placed.copy_from_slice(&other.placed);
    }

    pub fn houses(&self) -> &Arc<HouseIndex> {
        &self.houses
    }
    /// Number of symbols.
    #[inline]
    pub fn size(&self) -> usize {
        self.houses.size()
    }
    /// Values per cell, 0 for empty.
    pub fn values(&self) -> &[u8] {
        &self.values
    }
    #[inline]
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }
    /// The candidates of a cell as bits (bit d-1 for symbol d); 0 when filled.
    #[inline]
    pub fn cell(&self, cell: usize) -> u32 {
        self.cells[cell]
    }
    #[inline]
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.cells[cell] >> (digit - 1) & 1 != 0
    }
    /// Positions (bits, in the house's cell order) where `digit` can go in `house`.
    #[inline]
    pub fn places(&self, house: usize, digit: u8) -> u32 {
        self.places[house * self.houses.size() + digit as usize - 1]
    }
    /// Symbols already placed in a house, as bits.
    #[inline]
    pub fn placed(&self, house: usize) -> u32 {
        self.placed[house]
    }
    /// Whether every cell holds a value.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }
    /// Number of candidates left in all empty cells.
    pub fn candidate_count(&self) -> usize {
        self.cells.iter().map(|m| m.count_ones() as usize).sum()
    }

    /// Places `digit` in `cell` and removes it from the cell's peers.
    pub fn place(&mut self, cell: usize, digit: u8) {
        let Candidates {
            houses,
            values,
            cells,
            places,
            placed,
        } = self;
        let n = houses.size();
        let d = digit as usize - 1;
        for k in bits(cells[cell]) {
            for &(h, i) in houses.houses_of(cell) {
                places[h as usize * n + k] &= !(1 << i);
            }
        }
        cells[cell] = 0;
        values[cell] = digit;
        for &(h, _) in houses.houses_of(cell) {
            placed[h as usize] |= 1 << d;
            places[h as usize * n + d] = 0;
        }
        for &p in houses.peers(cell) {
            let p = p as usize;
            if cells[p] >> d & 1 != 0 {
                cells[p] &= !(1 << d);
                for &(h, i) in houses.houses_of(p) {
                    places[h as usize * n + d] &= !(1 << i);
                }
            }
        }
    }

    /// Removes a candidate; false if it was not there.
    #[inline]
    pub fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        let bit = 1u32 << (digit - 1);
        if self.cells[cell] & bit == 0 {
            return false;
        }
        self.cells[cell] &= !bit;
        let n = self.houses.size();
        let d = digit as usize - 1;
        let houses = &self.houses;
        for &(h, i) in houses.houses_of(cell) {
            self.places[h as usize * n + d] &= !(1 << i);
        }
        true
    }

    /// The first empty cell without a candidate, or house that cannot place
    /// a symbol it lacks: the grid has no solution.
    pub fn dead_end(&self) -> Option<DeadEnd> {
        if let Some(c) = (0..self.cells.len()).find(|&c| self.values[c] == 0 && self.cells[c] == 0)
        {
            return Some(DeadEnd::Cell(c));
        }
        let n = self.houses.size();
        for h in 0..self.houses.house_count() {
            for d in 0..n {
                if self.placed[h] >> d & 1 == 0 && self.places[h * n + d] == 0 {
                    return Some(DeadEnd::House(h, d as u8 + 1));
                }
            }
        }
        None
    }
}

/// Where a grid shows it has no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadEnd {
    /// An empty cell with no candidate left.
    Cell(usize),
    /// A house with no place left for a symbol it lacks.
    House(usize, u8),
}

/// Bits for symbols 1..=n.
#[inline]
pub fn full_mask(n: usize) -> u32 {
    if n >= 32 { u32::MAX } else { (1u32 << n) - 1 }
}

/// The symbols (1-based) of a mask, lowest first.
pub fn digits(mask: u32) -> impl Iterator<Item = u8> {
    bits(mask).map(|i| i as u8 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Layout;

    #[test]
    fn candidates_follow_placements_in_every_house() {
        let houses = Arc::new(HouseIndex::new(Arc::new(Layout::classic())));
        let mut v = vec![0u8; 81];
        v[0] = 5;
        let mut g = Candidates::new(houses.clone(), &v);
        assert_eq!(g.cell(0), 0);
        assert!(!g.has(1, 5) && !g.has(9, 5) && !g.has(10, 5) && g.has(40, 5));
        // Row 1 (house 0) has 5 placed; column 1 lost position 0 for every symbol.
        assert_eq!(g.places(0, 5), 0);
        assert_eq!(g.placed(0), 1 << 4);
        let col = houses.houses_of(0)[1].0 as usize;
        assert_eq!(g.places(col, 3) & 1, 0);
        assert!(g.eliminate(40, 3));
        assert!(!g.eliminate(40, 3));
        for &(h, i) in houses.houses_of(40) {
            assert_eq!(g.places(h as usize, 3) >> i & 1, 0);
        }
        g.place(80, 9);
        assert!(!g.has(72, 9) && !g.has(8, 9));
        assert_eq!(g.dead_end(), None);
    }

    #[test]
    fn a_cell_with_no_candidate_is_a_dead_end() {
        let houses = Arc::new(HouseIndex::new(Arc::new(Layout::square(4).unwrap())));
        // r1c1 empty, but its row holds 1, 2 and its column 3, 4.
        let v = [0, 1, 2, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0];
        let g = Candidates::new(houses, &v);
        assert_eq!(g.dead_end(), Some(DeadEnd::Cell(0)));
    }
}
