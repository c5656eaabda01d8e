//! The marks between and around cells: the located grid and its digits in,
//! the rules they draw out: a killer's cages and sums, a jigsaw's regions
//! from its lines or its fills, a variant's diagonals and edge marks.
//! Readers of new kinds of marks go here.

pub mod borders;
pub mod fills;
pub mod groups;
pub mod jigsaw;
pub mod killer;
pub mod variant;
