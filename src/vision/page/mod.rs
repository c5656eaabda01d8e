//! The page: a file's bytes in, pixels out. Decoding (with the EXIF
//! orientation applied), PDF pages rendered, the grey copy the reader works
//! on, and the plane geometry and numeric helpers every later stage uses.

pub mod homography;
pub(crate) mod label;
pub mod load;
pub(crate) mod num;
pub mod pdf;
