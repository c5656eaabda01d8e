//! Why a puzzle cannot be searched, or why a search did not finish: the
//! error of every part of the solver.

use crate::grid::{CageError, Conflict, RuleError};

/// Why a puzzle cannot be searched.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// Two givens in one house hold the same symbol.
    #[error("givens conflict: {value} appears twice in {house}, at {first} and {second}")]
    Conflict {
        value: char,
        house: String,
        first: String,
        second: String,
        conflict: Conflict,
    },
    /// The cages break a rule (checked before any search).
    #[error("{0}")]
    Cages(CageError),
    /// A variant rule cannot be met or meant (checked before any search).
    #[error("{0}")]
    Rules(RuleError),
    /// The puzzle is well formed but beyond what the solver takes.
    #[error("cannot solve: {0}")]
    Unsupported(String),
    /// The search ran out of its [`Budget`](super::Budget) before it finished: the count
    /// is not known.
    #[error("{}", gave_up_message(*.found, *.limit))]
    GaveUp {
        /// Solutions found before it gave up.
        found: u64,
        /// The count it was asked to reach.
        limit: u64,
    },
}

/// What a search that gave up knew.
fn gave_up_message(found: u64, limit: u64) -> String {
    let what = match (found, limit) {
        (0, _) => "no solution found yet".to_string(),
        (1, 2) => "one solution found, not yet known to be the only one".to_string(),
        (n, _) => format!("{n} solutions found so far"),
    };
    format!("the search did not finish: {what}")
}
