//! Puzzles as layouts plus values (and cages, for killers), and their text
//! formats.

mod cage;
mod layout;
mod puzzle;
mod text;

pub use cage::{
    Cage, CageError, CageErrorKind, can_make, check_cages, for_each_combination, house_partition,
    layout_total, sum_range,
};
pub use layout::{Conflict, House, HouseKind, Layout, LayoutError, MAX_SIZE};
pub use puzzle::{Alphabet, Format, Puzzle, cage_label};
pub use text::{Document, Entry, ParseError, parse};
