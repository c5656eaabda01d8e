//! Lists the cells the whole reader gets wrong on a folder of photos with
//! ground truth (`NAME.dat` or `NAME.txt` as in `sudoku-lens eval`), with
//! what the cell preparation and the model made of each, and optionally
//! saves the crops.
//!
//! `cargo run --release -p sudoku-lens-tools --bin read_misses -- DIR [--dump OUT.png]`: the
//! crops of the missed cells go into one image, ten to a row.
//!
//! The photos are used for measuring only; nothing from them goes into the
//! model.

use std::path::Path;

use image::{GrayImage, Luma};
use sudoku_lens::truth::truth_beside;
use sudoku_lens::vision::cells::classify::Model;
use sudoku_lens::vision::cells::classify::prep::{Ink, Prepared, prepare};
use sudoku_lens::vision::locate::{CELL_CROP_SIZE, cell_crops};
use sudoku_lens::vision::read::{Colour, read_image};

fn main() {
    let (dir, dump) = sudoku_lens_tools::folder_and_dump();
    let model = Model::load_bundled();
    let images = sudoku_lens_tools::image_files(&dir);
    let mut crops_out = Vec::new();
    for path in images {
        crops_out.extend(misses(&path, model));
    }
    if let Some(out) = dump {
        if crops_out.is_empty() {
            return;
        }
        if let Err(e) = mosaic(&crops_out).save(&out) {
            eprintln!(
                "read_misses: cannot write the crops to {}: {e}",
                out.display()
            );
            std::process::exit(1);
        }
    }
}

/// Prints the cells of the photo at `path` the reader gets wrong (or why
/// it cannot be measured), and returns their crops.
fn misses(path: &Path, model: &Model) -> Vec<GrayImage> {
    let truth = match truth_beside(path) {
        Ok(Some(truth)) => truth.values(),
        Ok(None) => return Vec::new(),
        Err(e) => {
            println!("{e}");
            return Vec::new();
        }
    };
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    let (grey, reading) = match read_image(path, None, Colour::Drop) {
        Ok(read) => (read.grey, read.reading),
        Err(e) => {
            println!("{name}: {e}");
            return Vec::new();
        }
    };
    let reading = match reading {
        Ok(r) => r,
        Err(e) => {
            println!("{name}: {e}");
            return Vec::new();
        }
    };
    let values = reading.puzzle.values();
    if values.len() != 81 {
        println!("{name}: layout {}", reading.puzzle.layout().name());
        return Vec::new();
    }
    let wrong: Vec<usize> = (0..81).filter(|&i| values[i] != truth[i]).collect();
    if wrong.is_empty() {
        return Vec::new();
    }
    let crops = cell_crops(&grey, &reading.located, CELL_CROP_SIZE);
    println!(
        "{name}: {} wrong, turns {}, check {:?}",
        wrong.len(),
        reading.turns,
        reading.check
    );
    let mut out = Vec::new();
    for i in wrong {
        let c = &reading.cells[i];
        let prep = describe_crop(model, &crops[i]);
        println!(
            "  r{}c{} truth {} final {} cell {} ({:.2}) runner-up {} ({:.2}) | {prep}",
            i / 9 + 1,
            i % 9 + 1,
            truth[i],
            values[i],
            c.value,
            c.confidence,
            c.runner_up,
            c.runner_up_confidence
        );
        out.push(crops[i].clone());
    }
    out
}

/// What the cell preparation made of `crop`: why it is empty, or its ink.
fn describe_crop(model: &Model, crop: &GrayImage) -> String {
    match prepare(crop) {
        Prepared::Empty {
            reason,
            margin,
            near,
        } => {
            let near = near.map(|ink| format!(", near {}", describe_ink(model, &ink)));
            format!(
                "empty {reason:?} margin {margin:.2}{}",
                near.unwrap_or_default()
            )
        }
        Prepared::Ink(ink) => describe_ink(model, &ink),
    }
}

/// The ink's measures and the model's three nearest digits.
fn describe_ink(model: &Model, ink: &Ink) -> String {
    let d = model.class_distances(&ink.features);
    let mut order: Vec<usize> = (0..9).collect();
    order.sort_by(|&a, &b| d[a].total_cmp(&d[b]));
    format!(
        "ink h {:.2} w {:.2} contrast {:.0} stroke {:.3} d/reject {:.2} nearest {}:{:.3} {}:{:.3} {}:{:.3}",
        ink.height,
        ink.width,
        ink.contrast,
        ink.stroke,
        d[order[0]] / model.reject_distance(),
        order[0] + 1,
        d[order[0]],
        order[1] + 1,
        d[order[1]],
        order[2] + 1,
        d[order[2]]
    )
}

/// The crops in one image, ten to a row.
fn mosaic(crops: &[GrayImage]) -> GrayImage {
    let s = crops[0].width();
    let cols = 10;
    let rows = crops.len().div_ceil(cols);
    let mut m = GrayImage::from_pixel(cols as u32 * (s + 2), rows as u32 * (s + 2), Luma([128]));
    for (i, c) in crops.iter().enumerate() {
        let (x, y) = ((i % cols) as u32 * (s + 2), (i / cols) as u32 * (s + 2));
        image::imageops::replace(&mut m, c, x as i64, y as i64);
    }
    m
}
