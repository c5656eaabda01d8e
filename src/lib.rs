//! sudoku-lens: read sudoku puzzles of many shapes and solve them.
//!
//! - [`grid`]: layouts (cells on a canvas and the houses over them), puzzles
//!   (with cages for killers, and variant rules as data), and their text,
//!   JSON and f-puzzles formats.
//! - [`solve`]: a generic Dancing Links exact-cover engine, the encoding of
//!   any layout and its rules into it, and puzzles made from seeds.
//! - [`logic`]: human techniques over houses, cages and rules: the next
//!   step of a puzzle and why, a path to the solution, and a rating on
//!   Sudoku Explainer's scale.
//! - [`batch`]: many puzzles solved in parallel.
//! - [`check`]: a player's digits checked against the puzzle: wrong entries
//!   and why, cells to go, solved or not.
//! - `vision` (feature `vision`): photos and screenshots in, located grids
//!   and read digits out.
//! - `overlay` (feature `vision`): solutions drawn onto the photo in
//!   perspective, or as a clean grid.
//! - [`rng`]: a small seeded random generator, the same on every machine.
//! - [`truth`]: ground truth for measuring the reader: the files beside
//!   measured photos that say what each one shows.
//! - `app` (feature `gui`, on by default): the desktop app.
//!
//! The library alone needs no window system: build it with
//! `default-features = false, features = ["vision"]` for reading, solving
//! and drawing only, or with `default-features = false` to solve, explain
//! and rate puzzles without compiling an image stack at all.

#[cfg(feature = "gui")]
pub mod app;
pub mod batch;
pub mod check;
pub mod grid;
pub mod logic;
#[cfg(feature = "vision")]
pub mod overlay;
pub mod rng;
pub mod solve;
pub mod truth;
#[cfg(feature = "vision")]
pub mod vision;
