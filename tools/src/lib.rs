//! Development tools of sudoku-lens, kept out of the shipped library: the
//! digit model's build ([`build`], from cells drawn by [`synth`]), and what
//! the binaries in `src/bin/` share. One binary per tool:
//!
//! - `build_model`: rebuilds `models/digits.bin` from the fonts
//!   (`--symbols`: `models/symbols.bin`; `--hand`: `models/handwriting.bin`;
//!   `--check`: compares fresh builds with the committed files, byte for
//!   byte);
//! - `make_samples`, `make_image_samples`: rebuild `samples/`;
//! - `make_app_screens`: renders plain square grids as solving apps draw
//!   them, to measure the reader on them (outside the repository);
//! - `classify_eval`, `entries_eval`, `locate_eval`, `read_misses`, `read_stages`,
//!   `sum_misses`: measure the reader on the shared photos;
//! - `scale_images`, `tiny_frames`: copies of a shared set scaled, or cut
//!   to webcam-like frames of the grid, to measure the reader on them
//!   (outside the repository).
//!
//! `cargo run --release -p sudoku-lens-tools --bin NAME -- ARGS`

use std::path::{Path, PathBuf};

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

/// The ground-truth files `sudoku-lens eval` reads beside an image.
pub const TRUTH_EXTENSIONS: [&str; 3] = ["json", "dat", "txt"];

/// Copies the ground truth beside `image` (each of [`TRUTH_EXTENSIONS`]
/// there is) into `folder`, named `stem` with its own extension: beside a
/// copy of the image made from it.
pub fn copy_truth(image: &Path, folder: &Path, stem: &std::ffi::OsStr) -> Result<(), String> {
    for ext in TRUTH_EXTENSIONS {
        let truth = image.with_extension(ext);
        if truth.is_file() {
            let to = folder.join(stem).with_extension(ext);
            std::fs::copy(&truth, &to).map_err(|e| {
                format!("{}: cannot copy to {}: {e}", truth.display(), to.display())
            })?;
        }
    }
    Ok(())
}

/// Reads a font from `assets/fonts/`.
pub fn font_bytes(name: &str) -> std::io::Result<Vec<u8>> {
    std::fs::read(repo_root().join("assets/fonts").join(name))
}

/// The arguments of the misses tools: the folder of images (first), and
/// where `--dump OUT` asks for the misses' crops to be saved.
pub fn folder_and_dump() -> (PathBuf, Option<PathBuf>) {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().expect("DIR"));
    let mut dump = None;
    while let Some(a) = args.next() {
        if a == "--dump" {
            dump = args.next().map(PathBuf::from);
        }
    }
    (dir, dump)
}

/// The image files of a folder (told by their extension), sorted by name.
pub fn image_files(dir: &Path) -> Vec<PathBuf> {
    let mut images: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| sudoku_lens::vision::page::load::has_image_extension(p))
        .collect();
    images.sort();
    images
}
