//! Copies a folder of images with their ground truth, every image scaled by
//! one factor (Lanczos), so that `sudoku-lens eval` can tell how the reader
//! holds up on the same pictures at other sizes: a screenshot taken on a
//! smaller or a sharper screen, a picture shrunk when it was sent on.
//!
//! `cargo run --release -p sudoku-lens-tools --bin scale_images -- SCALE SRC DST`:
//! each image of SRC is written to DST as a PNG of the same name, and each
//! ground-truth file beside it (`NAME.json`, `NAME.dat`, `NAME.txt`) copied
//! unchanged. DST is created when missing.
//!
//! Shared material scaled this way is for measuring only: keep DST outside
//! the repository.

use std::path::{Path, PathBuf};
use std::process::exit;

use image::imageops::FilterType;
use rayon::prelude::*;
use sudoku_lens::vision::page::load::load_path;

fn fail(message: String) -> ! {
    eprintln!("scale_images: {message}");
    exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [scale, src, dst] = args.as_slice() else {
        fail("usage: scale_images SCALE SRC DST (SCALE a factor such as 0.75)".into());
    };
    let scale: f64 = scale
        .parse()
        .ok()
        .filter(|s: &f64| *s > 0.0 && *s <= 8.0)
        .unwrap_or_else(|| {
            fail(format!(
                "SCALE must be a factor above 0 and at most 8, not {scale:?}"
            ))
        });
    let (src, dst) = (PathBuf::from(src), PathBuf::from(dst));
    if let Err(e) = std::fs::create_dir_all(&dst) {
        fail(format!("{}: cannot create the folder: {e}", dst.display()));
    }
    let images = sudoku_lens_tools::image_files(&src);
    let failures: Vec<String> = images
        .par_iter()
        .filter_map(|path| scale_one(path, &dst, scale).err())
        .collect();
    for f in &failures {
        eprintln!("scale_images: {f}");
    }
    println!(
        "scaled {} of {} images by {scale} into {}",
        images.len() - failures.len(),
        images.len(),
        dst.display()
    );
    if !failures.is_empty() {
        exit(1);
    }
}

/// Writes `path` scaled by `scale` into `dst` as `NAME.png`, with its ground
/// truth beside it.
fn scale_one(path: &Path, dst: &Path, scale: f64) -> Result<(), String> {
    let img = load_path(path).map_err(|e| e.to_string())?;
    let size = |n: u32| ((n as f64 * scale).round() as u32).max(1);
    let scaled = img.resize_exact(size(img.width()), size(img.height()), FilterType::Lanczos3);
    let stem = path
        .file_stem()
        .ok_or_else(|| format!("{}: no file name", path.display()))?;
    let out = dst.join(stem).with_extension("png");
    scaled
        .to_rgb8()
        .save(&out)
        .map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    sudoku_lens_tools::copy_truth(path, dst, stem)
}
