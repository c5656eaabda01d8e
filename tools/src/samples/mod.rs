//! Sample generators of kinds of input beyond drawn images and generated
//! puzzles, each in its own file, called by `make_image_samples` or
//! `make_samples`.

pub mod dark_page;
pub mod draw;
pub mod entries;
pub mod killer;
pub mod pattern;
pub mod pdf;
pub mod photo;
