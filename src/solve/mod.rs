//! Solving: a generic exact-cover engine ([`dlx`]) and the encoding of any
//! layout into it ([`SudokuSolver`]).

mod budget;
mod cage_cover;
pub mod dlx;
mod error;
pub mod generate;
mod rules;
mod sudoku;

pub use budget::{Budget, CHECK_EVERY, DEFAULT_TIME, set_time_limit, time_limit};
pub use cage_cover::MAX_COMBINATIONS;
pub use error::SolveError;
pub use rules::RuleEliminations;
pub(crate) use rules::flatten;
pub use sudoku::{Outcome, SudokuSolver, houses_layout, solve, solve_within};
