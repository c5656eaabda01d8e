//! Images in, located grids and read digits out. Plain functions over
//! `image` buffers; no GUI types.
//!
//! - [`load`]: decoding (PNG, JPEG, WebP, BMP, GIF first frame, TIFF) with a
//!   pixel limit checked before decoding and the EXIF orientation applied.
//! - [`pdf`]: PDF pages rendered to images (feature `pdf`), and the page
//!   count, for choosing a page.
//! - [`locate`]: the grid's outer corners, the homography between the
//!   layout's canvas and the image, the layout itself (scored against a list
//!   of candidate layouts), the actual grid lines, and one square crop per
//!   cell sampled from the full-resolution image.
//! - [`homography`]: plane projective transforms fitted from point pairs.
//! - [`orient`]: which quarter turn makes the digits upright, and the
//!   located grid turned to match.
//! - [`classify`]: empty or a digit for each cell crop, with a confidence and
//!   the runner-up, from a bundled template model built from fonts.
//! - [`check`]: the solver's check of a reading, trying the runner-up
//!   readings of the least confident cells when the puzzle has no single
//!   solution.
//! - [`borders`]: the inner edges between neighbouring cells measured and
//!   classified (a killer's cage outlines).
//! - [`cages`]: a killer's cages and sums read on top of [`borders`], and
//!   checked with the solver.
//! - [`jigsaw`]: a jigsaw's regions from the weight of the grid's inner
//!   lines (thick region borders, thin cell lines).
//! - [`entries`]: the player's handwritten digits and candidate marks, told
//!   apart from the givens once those are decided.
//! - [`colour`]: on a screenshot, the player's digits told from the givens
//!   by the colour of their ink.
//! - [`debug`]: the intermediate images, for `--debug`.
//! - [`read`]: all of the above in order: an image file in, a puzzle out
//!   ([`read::read_image`]), with the decoded photo kept for drawing on.
//! - [`truth`]: the ground-truth files beside measured photos.
//!
//! Typical use:
//!
//! ```no_run
//! use sudoku_lens::vision::read::{Colour, read_image};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let photo = read_image(std::path::Path::new("photo.jpg"), None, Colour::Drop)?;
//! let reading = photo.reading?; // the error names photo.jpg
//! println!("{}", reading.puzzle.to_text());
//! # Ok(()) }
//! ```
//!
//! Or stage by stage:
//!
//! ```no_run
//! use sudoku_lens::vision::{load, locate};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let grey = load::to_grey(&load::load_path(std::path::Path::new("photo.jpg"))?);
//! let found = locate::locate(&grey, None)?;
//! let crops = locate::cell_crops(&grey, &found, locate::CELL_CROP_SIZE);
//! assert_eq!(crops.len(), found.layout.cell_count());
//! # Ok(()) }
//! ```
//!
//! [`locate`] gives corners and crops in the orientation of the pixels (after
//! EXIF): a puzzle photographed on its side or upside down is located all the
//! same, and [`orient`] then decides from the digits which way up it is;
//! [`read`] returns the grid in the puzzle's own orientation.

pub mod borders;
pub mod cages;
pub mod check;
pub mod classify;
pub mod colour;
pub mod debug;
pub mod entries;
pub mod fills;
pub mod homography;
pub mod jigsaw;
pub mod load;
pub mod locate;
mod num;
pub mod orient;
pub mod pdf;
pub mod read;
pub mod truth;
