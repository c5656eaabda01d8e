//! Images in, located grids and read digits out. Plain functions over
//! `image` buffers; no GUI types.
//!
//! - [`classify`]: empty or a digit for each cell, with a confidence and the
//!   runner-up, from a bundled template model.

pub mod classify;
