//! What every technique is given besides the grid: the houses, whether to
//! write sentences, whether the puzzle is known to have one solution, and
//! how symbols are written.

use super::cands::{Candidate, digits};
use super::houses::{HouseIndex, join_and};
use crate::grid::Alphabet;

pub(crate) struct Ctx<'a> {
    pub houses: &'a HouseIndex,
    /// Write each step's sentence (off while only rating).
    pub text: bool,
    /// The puzzle is known to have exactly one solution.
    pub unique: bool,
    pub alphabet: Alphabet,
}

impl Ctx<'_> {
    pub fn sym(&self, d: u8) -> char {
        self.alphabet.symbol(d)
    }
    pub fn cell(&self, c: usize) -> String {
        self.houses.cell_name(c)
    }
    pub fn cells(&self, cells: &[usize]) -> String {
        self.houses.cells_name(cells)
    }
    pub fn house(&self, h: usize) -> String {
        self.houses.house_name(h)
    }
    pub fn houses(&self, hs: &[usize]) -> String {
        self.houses.houses_name(hs)
    }
    /// `3, 5 and 7`.
    pub fn digits(&self, mask: u32) -> String {
        let v: Vec<String> = digits(mask).map(|d| self.sym(d).to_string()).collect();
        join_and(&v)
    }
    /// `3 from r1c2 and r4c4, and 5 from r2c2`: eliminations grouped by symbol.
    pub fn removals(&self, elims: &[Candidate]) -> String {
        let parts: Vec<String> = by_digit(elims)
            .map(|(d, cells)| format!("{} from {}", self.sym(d), self.cells(&cells)))
            .collect();
        join_and(&parts)
    }
    /// `r1c2 loses 3 and 5, r4c4 loses 3`: eliminations grouped by cell.
    pub fn losses(&self, elims: &[Candidate]) -> String {
        let mut cells: Vec<usize> = elims.iter().map(|e| e.cell).collect();
        cells.sort_unstable();
        cells.dedup();
        let parts: Vec<String> = cells
            .iter()
            .map(|&c| {
                let mask = elims
                    .iter()
                    .filter(|e| e.cell == c)
                    .fold(0u32, |m, e| m | 1 << (e.digit - 1));
                format!("{} loses {}", self.cell(c), self.digits(mask))
            })
            .collect();
        join_and(&parts)
    }
}

/// Eliminations grouped by symbol, smallest first: each symbol with its
/// cells, in the order given.
pub(crate) fn by_digit(elims: &[Candidate]) -> impl Iterator<Item = (u8, Vec<usize>)> + '_ {
    let mut ds: Vec<u8> = elims.iter().map(|e| e.digit).collect();
    ds.sort_unstable();
    ds.dedup();
    ds.into_iter().map(move |d| {
        let cells = elims
            .iter()
            .filter(|e| e.digit == d)
            .map(|e| e.cell)
            .collect();
        (d, cells)
    })
}
