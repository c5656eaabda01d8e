//! sudoku-lens: read sudoku puzzles of many shapes and solve them.
//!
//! - [`grid`]: layouts (cells on a canvas and the houses over them), puzzles,
//!   and their text formats.
//! - [`solve`]: a generic Dancing Links exact-cover engine and the encoding of
//!   any layout into it.
//! - [`batch`]: many puzzles solved in parallel.
//! - [`overlay`]: solutions drawn onto the photo in perspective, or as a
//!   clean grid.
//! - [`app`]: the desktop app.

pub mod app;
pub mod batch;
pub mod grid;
pub mod logic;
pub mod overlay;
pub mod solve;
pub mod vision;
