//! What a player sees of the engine: the pencil marks left in each cell,
//! where a symbol's mark sits inside its cell, and where a step asks the
//! player to look first (a hint's first level).

use super::cands::full_mask;
use super::houses::HouseIndex;
use super::step::Step;

/// A step that names more houses than this (a fish's lines, a chain's
/// links) is pointed at by its pattern's cells instead: shading that many
/// houses would cover most of the grid and point nowhere.
pub const FOCUS_MAX_HOUSES: usize = 4;

/// The pencil marks of every cell as bits (bit d-1 for symbol d): each
/// empty cell holds every symbol that none of its peers holds, less the
/// ones in `eliminated` (the same bits, one entry per cell, or empty for
/// none); a filled cell holds none. Values that clash are taken as they
/// are (their peers simply lose both symbols), so this never fails.
pub fn pencil_marks(houses: &HouseIndex, values: &[u8], eliminated: &[u32]) -> Vec<u32> {
    let full = full_mask(houses.size());
    (0..houses.cell_count())
        .map(|cell| {
            if values.get(cell).is_some_and(|&v| v != 0) {
                return 0;
            }
            let seen = houses.peers(cell).iter().fold(0u32, |m, &p| {
                match values.get(p as usize).copied().unwrap_or(0) {
                    0 => m,
                    v => m | 1 << (v - 1),
                }
            });
            full & !seen & !eliminated.get(cell).copied().unwrap_or(0)
        })
        .collect()
}

/// Where symbol `digit` (1-based) of `size` sits inside its cell, as the
/// centre of its slot in fractions of the cell (0 top/left, 1 bottom/right):
/// the slots are a square of side `ceil(sqrt(size))` filled row by row, so
/// 9 symbols sit as on a phone's keypad, 16 in a 4x4, 6 in two rows of 3.
/// Also returns the slot's side, as a fraction of the cell.
pub fn mark_spot(size: usize, digit: u8) -> ([f32; 2], f32) {
    let side = mark_side(size);
    let i = (digit.max(1) - 1) as usize;
    let (row, col) = (i / side, i % side);
    let rows = size.div_ceil(side).max(1);
    // Fewer rows than columns (6 symbols: 2 rows of 3): the rows are
    // centred, so the marks stay clear of the cell's top and bottom.
    let top = (side - rows) as f32 / 2.0;
    let slot = 1.0 / side as f32;
    (
        [(col as f32 + 0.5) * slot, (top + row as f32 + 0.5) * slot],
        slot,
    )
}

/// Slots per row of a cell's pencil marks for `size` symbols.
fn mark_side(size: usize) -> usize {
    let mut side = 1;
    while side * side < size {
        side += 1;
    }
    side
}

impl Step {
    /// The cells a first-level hint shades: where to look, without saying
    /// what is there. The step's houses (the box of a hidden single, the
    /// two houses of a pointing pair, a subset's house), unless it names
    /// more than [`FOCUS_MAX_HOUSES`] or none; then the cells of its
    /// pattern; for a step with neither (the solver's), the cells it
    /// changes. Ascending, each once.
    pub fn focus(&self, houses: &HouseIndex) -> Vec<usize> {
        let mut cells: Vec<usize> =
            if !self.houses.is_empty() && self.houses.len() <= FOCUS_MAX_HOUSES {
                self.houses
                    .iter()
                    .filter(|&&h| h < houses.house_count())
                    .flat_map(|&h| houses.house(h).iter().map(|&c| c as usize))
                    .collect()
            } else if !self.cells.is_empty() {
                self.cells.clone()
            } else {
                self.placements
                    .iter()
                    .chain(&self.eliminations)
                    .map(|c| c.cell)
                    .collect()
            };
        cells.sort_unstable();
        cells.dedup();
        cells
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::testutil::classic;
    use super::super::{Candidate, Logic, Options, Technique};
    use super::*;
    use crate::grid::Layout;

    fn houses() -> HouseIndex {
        HouseIndex::new(Arc::new(Layout::classic()))
    }

    #[test]
    fn marks_are_the_symbols_no_peer_holds_less_the_removed_ones() {
        let houses = houses();
        let g = classic("12.......3");
        let mut removed = vec![0u32; 81];
        removed[2] = 1 << 8; // 9 struck from r1c3
        let marks = pencil_marks(&houses, g.values(), &removed);
        assert_eq!(marks[0], 0, "a filled cell has no marks");
        // r1c3 sees 1, 2 (its row) and 3 (its box): 4-8 left, 9 struck.
        assert_eq!(marks[2], 0b0_1111_1000);
        // r2c1 sees 1 and 2 in its box and 3 in its row.
        assert_eq!(marks[9], 0, "r2c1 holds 3");
        assert_eq!(marks[10], 0b1_1111_1000);
        // The engine's own candidates agree where nothing was struck.
        for (cell, &m) in marks.iter().enumerate().skip(3) {
            assert_eq!(m, g.cell(cell), "cell {cell}");
        }
    }

    #[test]
    fn clashing_values_give_marks_without_a_panic() {
        let houses = houses();
        let mut v = vec![0u8; 81];
        v[0] = 5;
        v[1] = 5;
        let marks = pencil_marks(&houses, &v, &[]);
        assert_eq!(marks[2] & 1 << 4, 0);
        assert_eq!(marks[80].count_ones(), 9);
        assert_eq!(pencil_marks(&houses, &[], &[]).len(), 81, "short values");
    }

    #[test]
    fn marks_sit_in_a_square_of_slots() {
        let (at, slot) = mark_spot(9, 1);
        assert_eq!((at, slot), ([1.0 / 6.0, 1.0 / 6.0], 1.0 / 3.0));
        assert_eq!(mark_spot(9, 5).0, [0.5, 0.5]);
        let (last, _) = mark_spot(9, 9);
        assert!(
            last.iter().all(|&x| (x - 5.0 / 6.0).abs() < 1e-6),
            "{last:?}"
        );
        // 16 symbols: four rows of four; 6: two centred rows of three.
        assert_eq!(mark_spot(16, 16), ([0.875, 0.875], 0.25));
        let (first, _) = mark_spot(6, 1);
        let (last, _) = mark_spot(6, 6);
        assert!((first[1] - 1.0 / 3.0).abs() < 1e-6 && (last[1] - 2.0 / 3.0).abs() < 1e-6);
        // Every slot of every size lies inside the cell, none twice.
        for size in [4, 6, 8, 9, 12, 16, 25] {
            let spots: Vec<_> = (1..=size as u8).map(|d| mark_spot(size, d).0).collect();
            for (i, s) in spots.iter().enumerate() {
                assert!(s.iter().all(|&x| x > 0.0 && x < 1.0), "{size}: {s:?}");
                assert!(!spots[..i].contains(s), "{size}: {s:?} twice");
            }
        }
    }

    #[test]
    fn a_hidden_single_points_at_its_house_and_a_naked_one_at_its_cell() {
        let houses = houses();
        let mut st = Step::new(Technique::HiddenSingleBox);
        st.placements.push(Candidate::new(10, 4));
        st.cells.push(10);
        st.houses.push(houses.houses_of(10)[2].0 as usize);
        let focus = st.focus(&houses);
        assert_eq!(focus.len(), 9);
        assert!(focus.contains(&10) && focus.iter().all(|&c| houses.sees(c, 10) || c == 10));

        let mut naked = Step::new(Technique::NakedSingle);
        naked.placements.push(Candidate::new(40, 1));
        naked.cells.push(40);
        assert_eq!(naked.focus(&houses), [40]);

        // A step naming many houses points at its cells.
        let mut fish = Step::new(Technique::Swordfish);
        fish.houses = (0..6).collect();
        fish.cells = vec![30, 3, 12, 3];
        assert_eq!(fish.focus(&houses), [3, 12, 30]);

        // Nothing but what it changes: those cells.
        let mut bare = Step::new(Technique::Solver);
        bare.placements.push(Candidate::new(7, 2));
        assert_eq!(bare.focus(&houses), [7]);
    }

    #[test]
    fn a_hint_from_struck_candidates_goes_on_from_them() {
        let text = include_str!("../../samples/puzzles/classic.txt");
        let Ok(crate::grid::Document::Single(p)) = crate::grid::parse(text, "classic.txt", None)
        else {
            panic!("one puzzle");
        };
        let mut logic = Logic::for_puzzle(&p).unwrap();
        let opts: Options = logic.options(&p).unwrap();
        let mut g = logic.candidates(p.values()).unwrap();
        let first = logic.hint_from(&g, &opts).unwrap();
        assert_eq!(first, logic.hint(p.values(), &opts).unwrap());
        // The same position with the step's digit struck from its cell:
        // the hint is another one (or says the marks left no way on).
        let Some(&placed) = first.placements.first() else {
            panic!("the sample's first step places a digit");
        };
        assert!(g.eliminate(placed.cell, placed.digit));
        let next = logic.hint_from(&g, &opts);
        assert_ne!(next.as_ref(), Ok(&first));
        if let Ok(st) = &next {
            assert!(!st.placements.contains(&placed));
        }
        // Solved: no hint.
        let solved = crate::solve::solve(&p, 1, 1).unwrap().solutions.remove(0);
        let done = logic.candidates(&solved).unwrap();
        assert_eq!(
            logic.hint_from(&done, &opts),
            Err(super::super::LogicError::Solved)
        );
    }
}
