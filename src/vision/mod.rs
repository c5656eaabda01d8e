//! Images in, located grids and read digits out. Plain functions over
//! `image` buffers; no GUI types.
//!
//! - [`load`]: decoding with size limits and EXIF orientation.
//! - [`locate`]: the grid's outer corners, its homography, its layout, and the
//!   cells sampled from the full-resolution image.
//! - [`homography`]: plane projective transforms fitted from point pairs.
//! - [`debug`]: the intermediate images, for `--debug`.

pub mod debug;
pub mod homography;
pub mod load;
pub mod locate;
