//! The page: a file's bytes in, pixels out. Decoding (with the EXIF
//! orientation applied), PDF pages rendered, the grey copy the reader works
//! on, and what every later stage uses: plane geometry, numeric helpers and
//! the one labeller of a mask's connected components.

pub mod homography;
pub(crate) mod label;
pub mod load;
pub(crate) mod num;
pub mod pdf;
