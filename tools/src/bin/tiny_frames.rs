//! Makes webcam-like frames from a folder of photos with their ground truth:
//! each photo is cropped to a square around its grid (located by the reader
//! on the full photo), the grid filling FILL of the square's side, and the
//! square scaled to each of a list of sides, lightly blurred and saved as a
//! JPEG, as a small camera would deliver it. `sudoku-lens eval` then tells
//! how reading holds up as the cells shrink.
//!
//! `cargo run --release -p sudoku-lens-tools --bin tiny_frames -- SRC DST [SIDE...]`
//! (sides default to 324 288 256 224 192 160; `--blur SIGMA` sets the blur,
//! default BLUR_SIGMA, 0 for none; `--quality Q` the JPEG quality, default
//! JPEG_QUALITY, 0 for a PNG: to tell what the resolution alone costs from
//! what the blur and the compression do). Photo number i (in name
//! order) goes to `DST/tuned-SIDE/` or, every HELD_OUT_EVERY-th one, to
//! `DST/held-SIDE/`, kept out of any tuning; the truth files are copied
//! beside. `DST/cells.txt` lists each frame's pixels per cell (the mean of
//! the grid's four sides over 9). Deterministic: no randomness, the same
//! photos give the same frames.
//!
//! Shared material cropped this way is for measuring only: keep DST outside
//! the repository.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::exit;

use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use rayon::prelude::*;
use sudoku_lens::vision::locate;
use sudoku_lens::vision::page::load::{load_path, to_grey};

/// The grid's larger extent (its corners' bounding box) is this share of
/// the frame's side: a webcam frame held over a puzzle, the grid filling
/// most of it with a margin of paper around.
const FILL: f32 = 0.85;
/// Every this many photos, one is held out of tuning.
const HELD_OUT_EVERY: usize = 4;
/// Gaussian blur of the scaled frame, in its pixels: a small camera's lens
/// and its own scaling soften an edge over about a pixel.
const BLUR_SIGMA: f32 = 0.6;
/// JPEG quality of the saved frame, a webcam stream's.
const JPEG_QUALITY: u8 = 80;

fn fail(message: String) -> ! {
    eprintln!("tiny_frames: {message}");
    exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut blur = BLUR_SIGMA;
    let mut quality = JPEG_QUALITY;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .and_then(|v| v.parse::<f32>().ok())
                .filter(|v| (0.0..=100.0).contains(v))
                .unwrap_or_else(|| fail(format!("{name} needs a number from 0 to 100")))
        };
        match a.as_str() {
            "--blur" => blur = value("--blur"),
            "--quality" => quality = value("--quality") as u8,
            _ => rest.push(a),
        }
    }
    let [src, dst, sides @ ..] = rest.as_slice() else {
        fail("usage: tiny_frames [--blur SIGMA] [--quality Q] SRC DST [SIDE...]".into());
    };
    let mut sides: Vec<u32> = sides
        .iter()
        .map(|s| {
            s.parse()
                .ok()
                .filter(|&s| (16..=4096).contains(&s))
                .unwrap_or_else(|| fail(format!("SIDE must be 16 to 4096 pixels, not {s:?}")))
        })
        .collect();
    if sides.is_empty() {
        sides = vec![324, 288, 256, 224, 192, 160];
    }
    let (src, dst) = (PathBuf::from(src), PathBuf::from(dst));
    let images = sudoku_lens_tools::image_files(&src);
    let results: Vec<Result<Vec<Frame>, String>> = images
        .par_iter()
        .enumerate()
        .map(|(i, path)| {
            let part = if i % HELD_OUT_EVERY == HELD_OUT_EVERY - 1 {
                "held"
            } else {
                "tuned"
            };
            frames(path, &dst, part, &sides, blur, quality)
        })
        .collect();
    let mut made = Vec::new();
    let mut left_out = 0;
    for r in results {
        match r {
            Ok(f) => made.extend(f),
            Err(e) => {
                left_out += 1;
                eprintln!("tiny_frames: {e}");
            }
        }
    }
    let cells = dst.join("cells.txt");
    let mut f = std::fs::File::create(&cells)
        .unwrap_or_else(|e| fail(format!("{}: cannot write: {e}", cells.display())));
    for m in &made {
        writeln!(f, "{} {} {:.2}", m.path.display(), m.side, m.px_per_cell)
            .unwrap_or_else(|e| fail(format!("{}: {e}", cells.display())));
    }
    for &side in &sides {
        let mut px: Vec<f32> = made
            .iter()
            .filter(|m| m.side == side)
            .map(|m| m.px_per_cell)
            .collect();
        px.sort_by(f32::total_cmp);
        if let (Some(lo), Some(hi)) = (px.first(), px.last()) {
            println!(
                "side {side}: {} frames, {lo:.1}-{hi:.1} px a cell (median {:.1})",
                px.len(),
                px[px.len() / 2]
            );
        }
    }
    println!(
        "{} of {} photos framed into {}",
        images.len() - left_out,
        images.len(),
        dst.display()
    );
}

/// One frame made: where it is (without its extension), its side, and
/// its grid's pixels per cell.
struct Frame {
    path: PathBuf,
    side: u32,
    px_per_cell: f32,
}

/// The frames of one photo, one per side.
fn frames(
    path: &Path,
    dst: &Path,
    part: &str,
    sides: &[u32],
    blur: f32,
    quality: u8,
) -> Result<Vec<Frame>, String> {
    let name = path.display();
    let img = load_path(path).map_err(|e| format!("{name}: {e}"))?;
    let found = locate::locate(&to_grey(&img), None).map_err(|e| format!("{name}: {e}"))?;
    let c = found.corners;
    let (xs, ys) = (c.map(|p| p[0]), c.map(|p| p[1]));
    let min = |v: [f32; 4]| v.into_iter().fold(f32::INFINITY, f32::min);
    let max = |v: [f32; 4]| v.into_iter().fold(f32::NEG_INFINITY, f32::max);
    let (x0, x1, y0, y1) = (min(xs), max(xs), min(ys), max(ys));
    let (w, h) = (img.width() as f32, img.height() as f32);
    // The square, centred on the grid, no larger than the photo, moved
    // inside it where it would cross an edge. A grid wider than the photo
    // is tall (or taller than it is wide) has no square frame holding it
    // whole: such a photo is left out.
    let extent = (x1 - x0).max(y1 - y0);
    if extent > w.min(h) {
        return Err(format!(
            "{name}: left out, the grid ({extent:.0} px) does not fit in a square of the photo"
        ));
    }
    let side = (extent / FILL).min(w).min(h).floor();
    let left = ((x0 + x1 - side) / 2.0).clamp(0.0, w - side).round();
    let top = ((y0 + y1 - side) / 2.0).clamp(0.0, h - side).round();
    let square = img.crop_imm(left as u32, top as u32, side as u32, side as u32);
    let grid_side = (0..4)
        .map(|i| {
            let (a, b) = (c[i], c[(i + 1) % 4]);
            (a[0] - b[0]).hypot(a[1] - b[1])
        })
        .sum::<f32>()
        / 4.0;
    let stem = path
        .file_stem()
        .ok_or_else(|| format!("{name}: no file name"))?;
    let mut made = Vec::new();
    for &s in sides {
        let folder = dst.join(format!("{part}-{s}"));
        std::fs::create_dir_all(&folder)
            .map_err(|e| format!("{}: cannot create: {e}", folder.display()))?;
        let scaled = square.resize_exact(s, s, FilterType::Lanczos3).to_rgb8();
        let blurred = if blur > 0.0 {
            imageproc::filter::gaussian_blur_f32(&scaled, blur)
        } else {
            scaled
        };
        if quality == 0 {
            let out = folder.join(stem).with_extension("png");
            blurred
                .save(&out)
                .map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
        } else {
            let out = folder.join(stem).with_extension("jpg");
            let file = std::fs::File::create(&out)
                .map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
            JpegEncoder::new_with_quality(std::io::BufWriter::new(file), quality)
                .encode_image(&blurred)
                .map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
        }
        sudoku_lens_tools::copy_truth(path, &folder, stem)?;
        made.push(Frame {
            path: folder.join(stem),
            side: s,
            px_per_cell: grid_side * s as f32 / side / 9.0,
        });
    }
    Ok(made)
}
