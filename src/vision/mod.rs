//! Images in, located grids and read digits out. Plain functions over
//! `image` buffers; no GUI types.
//!
//! The folders follow the path a photo takes, each stage using only those
//! before it:
//!
//! - [`page`]: decoding (PNG, JPEG, WebP, BMP, GIF first frame, TIFF) with a
//!   pixel limit checked before decoding and the EXIF orientation applied
//!   ([`page::load`]); PDF pages rendered to images (feature `pdf`), and the
//!   page count, for choosing a page ([`page::pdf`]); plane projective
//!   transforms fitted from point pairs ([`page::homography`]).
//! - [`locate`]: the grid's outer corners, the homography between the
//!   layout's canvas and the image, the layout itself (scored against a list
//!   of candidate layouts), the actual grid lines, and one square crop per
//!   cell sampled from the full-resolution image.
//! - [`cells`]: empty or a symbol for each cell crop, with a confidence and
//!   the runner-up, from a bundled template model built from fonts
//!   ([`cells::classify`]); which quarter turn makes the digits upright
//!   ([`cells::orient`]); on a screenshot, the player's digits told from
//!   the givens by the colour of their ink ([`cells::colour`]); the
//!   player's handwritten digits and candidate marks, told apart from the
//!   givens once those are decided ([`cells::entries`]).
//! - [`marks`]: the inner edges between neighbouring cells measured and
//!   classified ([`marks::borders`]); a killer's cages and sums read on top
//!   of them and checked with the solver ([`marks::killer`]); a jigsaw's
//!   regions from the weight of the grid's inner lines ([`marks::jigsaw`])
//!   or from the regions' fill colours ([`marks::fills`]); the variant rules
//!   a page draws: diagonals, kropki dots, X and V ([`marks::variant`]).
//! - [`verify`]: the solver's check of a reading, trying the runner-up
//!   readings of the least confident cells when the puzzle has no single
//!   solution.
//! - [`read`]: all of the above in order: an image file in, a puzzle out
//!   ([`read::read_image`]), with the decoded photo kept for drawing on.
//! - [`debug`]: the intermediate images, for `--debug`.
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
//! use sudoku_lens::vision::locate;
//! use sudoku_lens::vision::page::load;
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
//! same, and [`cells::orient`] then decides from the digits which way up it
//! is; [`read`] returns the grid in the puzzle's own orientation.

pub mod cells;
pub mod debug;
pub mod locate;
pub mod marks;
pub mod page;
pub mod read;
pub mod verify;
