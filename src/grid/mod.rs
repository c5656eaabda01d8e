//! Puzzles as layouts plus values, and their text formats.

mod layout;
mod puzzle;
mod text;

pub use layout::{Conflict, House, HouseKind, Layout, LayoutError, MAX_SIZE};
pub use puzzle::{Alphabet, Format, Puzzle};
pub use text::{Document, Entry, ParseError, parse};
