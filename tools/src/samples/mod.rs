//! Sample generators of kinds of input beyond drawn images, each in its own
//! file, called by `make_image_samples`.

pub mod pdf;
