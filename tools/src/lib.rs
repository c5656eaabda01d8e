//! Development tools of sudoku-lens, kept out of the shipped library: the
//! digit model's build ([`build`], from cells drawn by [`synth`]), and what
//! the binaries in `src/bin/` share. One binary per tool:
//!
//! - `build_model`: rebuilds `models/digits.bin` from the fonts (`--check`:
//!   compares a fresh build with the committed file, byte for byte);
//! - `make_samples`, `make_image_samples`: rebuild `samples/`;
//! - `classify_eval`, `entries_eval`, `locate_eval`, `read_misses`, `read_stages`: measure
//!   the reader on the shared photos.
//!
//! `cargo run --release -p sudoku-lens-tools --bin NAME -- ARGS`

use std::path::Path;

pub mod build;
pub mod samples;
pub mod synth;

/// The repository's root (the library's folder), where `assets/`,
/// `models/` and `samples/` are, and beside which `../shared/` is looked
/// for.
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tools crate is a folder of the repository")
}

/// Reads a font from `assets/fonts/`.
pub fn font_bytes(name: &str) -> std::io::Result<Vec<u8>> {
    std::fs::read(repo_root().join("assets/fonts").join(name))
}
