//! Measures the reading of the player's entries and candidate marks, cell
//! by cell: one tab-separated line per cell the reader holds no given in,
//! on every photo of a folder with `.txt` labels (the kubiesa sets).
//!
//! `cargo run --release -p sudoku-lens-tools --bin entries_eval -- DIR [--cut | --dump OUT.png]`
//!
//! With `--dump`, the working images of the cells labelled with a digit
//! that are not taken for an entry go into one image, in the order of
//! their lines, ten to a row: to look at what preparation missed.
//!
//! With `--cut` (on `kubiesa-train` only: the validation photos are the
//! measure and stay out of any build), the working image of every cell
//! read as an entry whose label is a digit is written into
//! `assets/handwriting/` (`kubiesa-train.png`, tiles in reading order, and
//! `kubiesa-train.txt`, their labels), which `build_model` makes the
//! handwriting model from.
//!
//! Columns: image, cell, label (0 blank, 1-9 a digit, 10 candidate marks),
//! the cell's kind, then for ink read as a digit: the digit, its
//! confidence, whether it agrees with the unique solution, whether it was
//! reported sure; then the ink's height, stroke and contrast (or the
//! preprocessing's empty reason). Images whose reading did not solve right
//! are skipped (their givens are not known to be the print).

use std::path::PathBuf;

use image::{GrayImage, Luma};
use sudoku_lens::solve::solve;
use sudoku_lens::vision::classify::Model;
use sudoku_lens::vision::classify::prep::{Prepared, WORK, prepare_entry, work_image};
use sudoku_lens::vision::entries::{CellKind, cell_kind, read_digit};
use sudoku_lens::vision::load::has_image_extension;
use sudoku_lens::vision::locate::{CELL_CROP_SIZE, cell_crops};
use sudoku_lens::vision::read::{Colour, read_image};
use sudoku_lens::vision::truth::truth_beside;
use sudoku_lens_tools::build::ATLAS_COLUMNS;
use sudoku_lens_tools::repo_root;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(std::env::args().nth(1).ok_or("a folder of photos")?);
    let cut = std::env::args().nth(2).as_deref() == Some("--cut");
    let dump = (std::env::args().nth(2).as_deref() == Some("--dump"))
        .then(|| std::env::args().nth(3).map(PathBuf::from))
        .flatten();
    let mut missed: Vec<(GrayImage, u8)> = Vec::new();
    if cut && !dir.ends_with("kubiesa-train") {
        return Err("--cut takes kubiesa-train only: the other sets are for measuring".into());
    }
    let mut tiles: Vec<(GrayImage, u8)> = Vec::new();
    let mut images: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| has_image_extension(p))
        .collect();
    images.sort();
    let model = Model::load_bundled();
    // Read from the file, so that a model just rebuilt is measured without
    // building the reader again.
    let hand = std::fs::read(repo_root().join("models/handwriting.bin"))
        .map(|b| Model::from_bytes(&b).expect("a handwriting model"))
        .unwrap_or_else(|_| Model::load_handwriting().clone());
    for image in &images {
        let Some(truth) = truth_beside(image)? else {
            continue;
        };
        let name = image.file_stem().unwrap().to_string_lossy().into_owned();
        let read = read_image(image, None, Colour::Drop)?;
        let Ok(reading) = read.reading else {
            eprintln!("{name}: not located");
            continue;
        };
        if reading.turns % 4 != 0 {
            eprintln!("{name}: turned, skipped");
            continue;
        }
        let values = reading.puzzle.values();
        let solution = solve(&reading.puzzle, 2, 1)
            .ok()
            .filter(|o| o.count == 1)
            .and_then(|mut o| o.solutions.pop());
        let right = solution
            .as_ref()
            .is_some_and(|s| s.iter().zip(truth.values()).all(|(&a, b)| b == 0 || a == b));
        if !right {
            eprintln!("{name}: not solved right, skipped");
            continue;
        }
        let solution = solution.unwrap();
        let crops = cell_crops(&read.grey, &reading.located, CELL_CROP_SIZE);
        for (cell, crop) in crops.iter().enumerate() {
            if values[cell] != 0 {
                continue;
            }
            let p = prepare_entry(crop);
            let kind = cell_kind(&p, false);
            let label = truth.labels[cell];
            if cut && kind == CellKind::Entry && (1..=9).contains(&label) {
                tiles.push((work_image(crop), label));
            }
            if dump.is_some() && kind != CellKind::Entry && (1..=9).contains(&label) {
                missed.push((work_image(crop), label));
            }
            let sure = reading.entries.values()[cell] != 0;
            match &p {
                Prepared::Ink(ink) => {
                    let (v, conf, second) = read_digit(model, &hand, ink);
                    let pd = model.class_distances(&ink.features);
                    let hd = hand.class_distances(&ink.features);
                    let list = |d: &[f32]| {
                        d.iter()
                            .map(|x| format!("{x:.4}"))
                            .collect::<Vec<_>>()
                            .join(",")
                    };
                    println!(
                        "{name}\t{cell}\t{label}\t{kind:?}\t{v}\t{conf:.3}\t{}\t{sure}\t{:.3}\t{:.3}\t{:.0}\t{second}\t{}\t{}\t{}",
                        v == solution[cell],
                        ink.height,
                        ink.stroke,
                        ink.contrast,
                        list(&pd),
                        list(&hd),
                        solution[cell],
                    );
                }
                Prepared::Empty { reason, margin, .. } => {
                    println!(
                        "{name}\t{cell}\t{label}\t{kind:?}\t-\t-\t-\t{sure}\t{reason:?}\t{margin:.2}"
                    );
                }
            }
        }
    }
    if let Some(path) = dump {
        atlas(&missed).0.save(&path)?;
        eprintln!(
            "{} missed entries written to {}",
            missed.len(),
            path.display()
        );
    }
    if cut {
        let out = repo_root().join("assets/handwriting");
        std::fs::create_dir_all(&out)?;
        let (atlas, labels) = atlas(&tiles);
        atlas.save(out.join("kubiesa-train.png"))?;
        std::fs::write(out.join("kubiesa-train.txt"), labels)?;
        eprintln!(
            "{} handwriting tiles written to {}",
            tiles.len(),
            out.display()
        );
    }
    Ok(())
}

/// The tiles side by side, [`ATLAS_COLUMNS`] a row, and their labels, one
/// line of digits per row of tiles.
fn atlas(tiles: &[(GrayImage, u8)]) -> (GrayImage, String) {
    let side = WORK as u32;
    let rows = tiles.len().div_ceil(ATLAS_COLUMNS) as u32;
    let mut img = GrayImage::from_pixel(side * ATLAS_COLUMNS as u32, side * rows, Luma([255]));
    let mut labels = String::new();
    for (i, (tile, label)) in tiles.iter().enumerate() {
        let (col, row) = ((i % ATLAS_COLUMNS) as u32, (i / ATLAS_COLUMNS) as u32);
        image::imageops::replace(&mut img, tile, (col * side) as i64, (row * side) as i64);
        labels.push(char::from(b'0' + label));
        if col as usize + 1 == ATLAS_COLUMNS || i + 1 == tiles.len() {
            labels.push('\n');
        }
    }
    (img, labels)
}
