//! Solving: a generic exact-cover engine ([`dlx`]) and the encoding of any
//! layout into it ([`SudokuSolver`]).

pub mod dlx;
pub mod generate;
mod sudoku;

pub use sudoku::{Outcome, SolveError, SudokuSolver, solve};
