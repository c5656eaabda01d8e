//! Measures the digit classifier.
//!
//! `cargo run --release -p sudoku-lens-tools --bin classify_eval [-- --photos DIR] [--dump DIR] [--size N]`
//!
//! - Real cells: every photo of the kubiesa set (default
//!   `../shared/data/photos/kubiesa-train`), cropped through the homography
//!   from the grid corners in `metadata.csv`. Labels: 0 blank, 1-9 a digit
//!   (printed or handwritten), 10 candidate marks. Blanks and marks must read
//!   empty; a digit read as another digit is the worst error.
//! - Held-out synthetic cells: fonts left out of the build, other seeds,
//!   harder degradations.
//! - Timing of 81 and 369 cells.
//!
//! The photos are used for measuring only; nothing from them goes into the
//! model. (Photos: AlexKubiesa/sudoku-scanner, MIT.)

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use ab_glyph::FontRef;
use image::{GrayImage, Luma};
use imageproc::geometric_transformations::Projection;
use sudoku_lens::rng::Rng;
use sudoku_lens::truth::truth_beside;
use sudoku_lens::vision::cells::classify::prep::{Prepared, prepare};
use sudoku_lens::vision::cells::classify::{CellReading, Model};
use sudoku_lens_tools::build::{HELDOUT_FONTS, TRAIN_FONTS, sample_seed, sample_size};
use sudoku_lens_tools::synth::{CellKind, Strength, render_cell};
use sudoku_lens_tools::{font_bytes, repo_root};

struct Args {
    photos: PathBuf,
    dump: Option<PathBuf>,
    size: u32,
    margin: f32,
}

fn parse_args() -> Args {
    let root = repo_root();
    let mut a = Args {
        photos: root.join("../shared/data/photos/kubiesa-train"),
        dump: None,
        size: 56,
        margin: 0.1,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let val = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--photos" => a.photos = PathBuf::from(val),
            "--dump" => a.dump = Some(PathBuf::from(val)),
            "--size" => a.size = val.parse().expect("--size N"),
            "--margin" => a.margin = val.parse().expect("--margin F"),
            _ => panic!("unknown flag {flag}"),
        }
    }
    a
}

/// Bilinear grey sample, clamped at the edges.
fn sample(img: &GrayImage, x: f32, y: f32) -> f32 {
    let (w, h) = (img.width() as i32, img.height() as i32);
    let x0 = x.floor();
    let y0 = y.floor();
    let (fx, fy) = (x - x0, y - y0);
    let get = |xx: i32, yy: i32| {
        img.get_pixel(xx.clamp(0, w - 1) as u32, yy.clamp(0, h - 1) as u32)[0] as f32
    };
    let (xi, yi) = (x0 as i32, y0 as i32);
    let t = get(xi, yi) * (1.0 - fx) + get(xi + 1, yi) * fx;
    let b = get(xi, yi + 1) * (1.0 - fx) + get(xi + 1, yi + 1) * fx;
    t * (1.0 - fy) + b * fy
}

/// The 81 cell crops of a grid whose corners are given (tl, bl, br, tr).
fn crop_cells(img: &GrayImage, corners: [(f32, f32); 4], size: u32, margin: f32) -> Vec<GrayImage> {
    let from = [(0.0, 0.0), (0.0, 9.0), (9.0, 9.0), (9.0, 0.0)];
    let proj = Projection::from_control_points(from, corners).expect("corners form a quad");
    let mut out = Vec::with_capacity(81);
    let ss = 4;
    for r in 0..9 {
        for c in 0..9 {
            let mut crop = GrayImage::new(size, size);
            for v in 0..size {
                for u in 0..size {
                    let mut acc = 0.0;
                    for sy in 0..ss {
                        for sx in 0..ss {
                            let fu = (u as f32 + (sx as f32 + 0.5) / ss as f32) / size as f32;
                            let fv = (v as f32 + (sy as f32 + 0.5) / ss as f32) / size as f32;
                            let gx = c as f32 - margin + fu * (1.0 + 2.0 * margin);
                            let gy = r as f32 - margin + fv * (1.0 + 2.0 * margin);
                            let (x, y) = proj * (gx, gy);
                            acc += sample(img, x, y);
                        }
                    }
                    crop.put_pixel(u, v, Luma([(acc / (ss * ss) as f32).round() as u8]));
                }
            }
            out.push(crop);
        }
    }
    out
}

fn mosaic(cells: &[GrayImage], cols: usize) -> GrayImage {
    let s = cells[0].width();
    let rows = cells.len().div_ceil(cols);
    let mut m = GrayImage::from_pixel(cols as u32 * (s + 2), rows as u32 * (s + 2), Luma([128]));
    for (i, c) in cells.iter().enumerate() {
        let (x, y) = ((i % cols) as u32 * (s + 2), (i / cols) as u32 * (s + 2));
        image::imageops::replace(&mut m, c, x as i64, y as i64);
    }
    m
}

#[derive(Default)]
struct Tally {
    /// confusion[truth][read], truth 0..=10 (10 = candidate marks), read 0..=9
    confusion: [[usize; 10]; 11],
}

impl Tally {
    fn add(&mut self, truth: u8, read: u8) {
        self.confusion[truth as usize][read as usize] += 1;
    }
    fn report(&self, title: &str) {
        let empty_total: usize = [0, 10]
            .iter()
            .map(|&t| self.confusion[t].iter().sum::<usize>())
            .sum();
        let empty_right: usize = self.confusion[0][0] + self.confusion[10][0];
        let digit_total: usize = (1..=9)
            .map(|t| self.confusion[t].iter().sum::<usize>())
            .sum();
        let digit_right: usize = (1..=9).map(|t| self.confusion[t][t]).sum();
        let digit_empty: usize = (1..=9).map(|t| self.confusion[t][0]).sum();
        let wrong_digit: usize = (1..=9)
            .map(|t| {
                (1..=9)
                    .filter(|&r| r != t)
                    .map(|r| self.confusion[t][r])
                    .sum::<usize>()
            })
            .sum();
        let empty_as_digit = empty_total - empty_right;
        println!("== {title}");
        println!(
            "  blanks + candidate marks read empty: {empty_right}/{empty_total} ({:.2}%)",
            100.0 * empty_right as f64 / empty_total.max(1) as f64
        );
        println!(
            "  digits read right: {digit_right}/{digit_total} ({:.2}%), read empty: {digit_empty}, read as a WRONG digit: {wrong_digit}",
            100.0 * digit_right as f64 / digit_total.max(1) as f64
        );
        println!("  empty cells read as a digit: {empty_as_digit}");
        println!("  confusion (rows truth 0-9, 10=marks; columns read 0-9):");
        print!("        ");
        for r in 0..10 {
            print!("{r:>5}");
        }
        println!();
        for t in 0..11 {
            if self.confusion[t].iter().sum::<usize>() == 0 {
                continue;
            }
            print!("  {t:>4}: ");
            for r in 0..10 {
                print!("{:>5}", self.confusion[t][r]);
            }
            println!();
        }
    }
}

/// What the readings of the real cells came to.
#[derive(Default)]
struct Findings {
    tally: Tally,
    /// The cells read wrong: photo, cell, label, reading.
    wrong: Vec<(String, usize, u8, CellReading)>,
    conf_right: Vec<f32>,
    conf_wrong: Vec<f32>,
    /// The crops of the cells read wrong.
    misses: Vec<GrayImage>,
}

impl Findings {
    /// Counts one photo's readings against its labels (candidate marks
    /// must read empty).
    fn add(&mut self, stem: &str, labels: &[u8], readings: &[CellReading], cells: &[GrayImage]) {
        for (i, (r, &truth)) in readings.iter().zip(labels).enumerate() {
            let read = r.value;
            self.tally.add(truth, read);
            let ok = if truth == 10 {
                read == 0
            } else {
                read == truth
            };
            if ok {
                self.conf_right.push(r.confidence);
            } else {
                self.conf_wrong.push(r.confidence);
                self.wrong.push((stem.to_string(), i, truth, *r));
                self.misses.push(cells[i].clone());
            }
        }
    }

    /// Prints the tally, the time and confidences, and each cell read as a
    /// digit where there is none or another digit.
    fn report(&self, photos: usize, crop_time: f64) {
        self.tally.report(&format!(
            "kubiesa-train: {photos} photos, {} cells",
            photos * 81
        ));
        println!(
            "  (cropping: {:.0} ms a photo)",
            1000.0 * crop_time / photos.max(1) as f64
        );
        let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len().max(1) as f32;
        println!(
            "  mean confidence: right readings {:.3}, wrong readings {:.3}",
            mean(&self.conf_right),
            mean(&self.conf_wrong)
        );
        let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
        for (stem, i, truth, r) in &self.wrong {
            let kind = match (truth, r.value) {
                (0 | 10, _) => "empty read as digit",
                (_, 0) => "digit read empty",
                _ => "WRONG digit",
            };
            *by_kind.entry(kind.to_string()).or_default() += 1;
            if kind != "digit read empty" {
                println!(
                    "  {kind}: {stem} r{}c{} truth {truth} read {} ({:.2}), runner-up {} ({:.2})",
                    i / 9 + 1,
                    i % 9 + 1,
                    r.value,
                    r.confidence,
                    r.runner_up,
                    r.runner_up_confidence
                );
            }
        }
    }
}

/// The grid's corners of a `metadata.csv` line: top-left, bottom-left,
/// bottom-right, top-right.
fn grid_corners(header: &[&str], f: &[&str]) -> [(f32, f32); 4] {
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let names = ["topleft", "bottomleft", "bottomright", "topright"];
    names.map(|n| {
        (
            f[col(&format!("x_{n}_absolute"))].parse::<f32>().unwrap(),
            f[col(&format!("y_{n}_absolute"))].parse::<f32>().unwrap(),
        )
    })
}

/// Reads the kubiesa photos' cells, prints how they read against their
/// labels, and returns every cell.
fn kubiesa(model: &Model, args: &Args) -> Vec<GrayImage> {
    let meta = std::fs::read_to_string(args.photos.join("metadata.csv")).expect("metadata.csv");
    let mut lines = meta.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut findings = Findings::default();
    let mut all_cells = Vec::new();
    let mut crop_time = 0.0;
    let mut photos = 0;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let name = f[0];
        let corners = grid_corners(&header, &f);
        let stem = name.trim_end_matches(".jpg");
        let labels = match truth_beside(&args.photos.join(name)) {
            Ok(Some(truth)) => truth.labels,
            Ok(None) => panic!("{stem}: no labels beside it"),
            Err(e) => panic!("{e}"),
        };
        let img = image::open(args.photos.join(name))
            .expect("photo")
            .to_luma8();
        let t = Instant::now();
        let cells = crop_cells(&img, corners, args.size, args.margin);
        crop_time += t.elapsed().as_secs_f64();
        photos += 1;
        let readings = model.classify_batch(&cells);
        if std::env::var_os("CELL_STATS").is_some_and(|v| v == stem) {
            print_cell_stats(model, &cells, &labels, &readings);
        }
        findings.add(stem, &labels, &readings, &cells);
        if let Some(dir) = &args.dump {
            std::fs::create_dir_all(dir).unwrap();
            mosaic(&cells, 9)
                .save(dir.join(format!("{stem}.png")))
                .unwrap();
        }
        all_cells.extend(cells);
    }
    findings.report(photos, crop_time);
    if let (Some(dir), false) = (&args.dump, findings.misses.is_empty()) {
        mosaic(&findings.misses, 12)
            .save(dir.join("misses.png"))
            .unwrap();
    }
    all_cells
}

/// Prints what the model makes of each inked cell of one photo (with
/// `CELL_STATS=STEM`).
fn print_cell_stats(model: &Model, cells: &[GrayImage], labels: &[u8], readings: &[CellReading]) {
    for (i, c) in cells.iter().enumerate() {
        if let Prepared::Ink(ink) = prepare(c) {
            let d = model.class_distances(&ink.features);
            let dmin = d.iter().copied().fold(f32::INFINITY, f32::min);
            println!(
                "  r{}c{} truth {:>2} read {} h {:.2} w {:.2} stroke {:.3} contrast {:>3.0} d/reject {:.2} conf {:.2}",
                i / 9 + 1,
                i % 9 + 1,
                labels[i],
                readings[i].value,
                ink.height,
                ink.width,
                ink.stroke,
                ink.contrast,
                dmin / model.reject_distance(),
                readings[i].confidence
            );
        }
    }
}

fn synthetic(model: &Model, dump: Option<&Path>) {
    for (title, font_names, strength, seed) in [
        (
            "held-out fonts, training-range degradations",
            HELDOUT_FONTS,
            Strength::Normal,
            778u64,
        ),
        (
            "held-out fonts, hard degradations",
            HELDOUT_FONTS,
            Strength::Hard,
            777u64,
        ),
        (
            "training fonts, fresh seeds, hard degradations",
            TRAIN_FONTS,
            Strength::Hard,
            4242u64,
        ),
    ] {
        let data: Vec<Vec<u8>> = font_names.iter().map(|n| font_bytes(n).unwrap()).collect();
        let fonts: Vec<FontRef<'_>> = data
            .iter()
            .map(|d| FontRef::try_from_slice(d).unwrap())
            .collect();
        let mut tally = Tally::default();
        let mut shown = Vec::new();
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        let per = 40;
        for (fi, font) in fonts.iter().enumerate() {
            for truth in 0..=10u8 {
                let mut cells = Vec::new();
                for i in 0..per {
                    let mut rng = Rng::new(sample_seed(seed, truth as u64, fi as u64, i as u64));
                    let kind = match truth {
                        0 => CellKind::Empty,
                        10 => {
                            let n = 1 + rng.below(4) as usize;
                            let mut ds: Vec<u8> = (0..n).map(|_| 1 + rng.below(9) as u8).collect();
                            ds.sort_unstable();
                            ds.dedup();
                            CellKind::Pencil(ds)
                        }
                        d => CellKind::Digit(d),
                    };
                    let size = sample_size(&mut rng);
                    cells.push(render_cell(font, &kind, size, &mut rng, strength));
                }
                for (c, r) in cells.iter().zip(model.classify_batch(&cells)) {
                    tally.add(truth, r.value);
                    if (1..=9).contains(&truth) && r.value == 0 {
                        let why = match prepare(c) {
                            Prepared::Empty { reason, .. } => format!("{reason:?}"),
                            Prepared::Ink(ink) => {
                                let d = model.class_distances(&ink.features);
                                let dmin = d.iter().copied().fold(f32::INFINITY, f32::min);
                                if dmin > model.reject_distance() {
                                    "Rejected".to_string()
                                } else {
                                    "LowConfidence".to_string()
                                }
                            }
                        };
                        *reasons.entry(why).or_default() += 1;
                    }
                    if r.value != if truth == 10 { 0 } else { truth } && shown.len() < 120 {
                        shown.push(image::imageops::resize(
                            c,
                            48,
                            48,
                            image::imageops::FilterType::Triangle,
                        ));
                    }
                }
            }
        }
        tally.report(&format!(
            "synthetic: {title} ({} fonts, {per} cells a class and font)",
            fonts.len()
        ));
        println!("  digits read empty, by cause: {reasons:?}");
        if let (Some(dir), false) = (dump, shown.is_empty()) {
            std::fs::create_dir_all(dir).unwrap();
            mosaic(&shown, 12)
                .save(dir.join(format!("synthetic-misses-{seed}.png")))
                .unwrap();
        }
    }
}

/// Median and fastest of `reps` runs, in ms: the fastest shows the cost
/// without interference from other work on the machine.
fn time_ms(reps: usize, mut f: impl FnMut()) -> (f64, f64) {
    let mut t: Vec<f64> = (0..reps)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    t.sort_by(f64::total_cmp);
    (t[reps / 2], t[0])
}

fn timing(model: &Model, cells: &[GrayImage]) {
    if cells.len() < 369 {
        return;
    }
    for n in [81usize, 369] {
        let batch = &cells[..n];
        let reps = 100;
        let (bm, bf) = time_ms(reps, || {
            std::hint::black_box(model.classify_batch(batch));
        });
        let (sm, sf) = time_ms(reps, || {
            for c in batch {
                std::hint::black_box(model.classify(c));
            }
        });
        let (pm, pf) = time_ms(reps, || {
            for c in batch {
                std::hint::black_box(prepare(c));
            }
        });
        println!(
            "== timing: {n} cells, median (fastest) of {reps}: batch (rayon) {bm:.2} ({bf:.2}) ms, one thread {sm:.2} ({sf:.2}) ms, of which preprocessing {pm:.2} ({pf:.2}) ms"
        );
    }
}

fn main() {
    let args = parse_args();
    let t = Instant::now();
    let model = Model::load_bundled();
    println!(
        "model: {} prototypes, loaded in {:.1?}",
        model.len(),
        t.elapsed()
    );
    let cells = if args.photos.join("metadata.csv").exists() {
        kubiesa(model, &args)
    } else {
        println!("no photos at {}", args.photos.display());
        Vec::new()
    };
    synthetic(model, args.dump.as_deref());
    timing(model, &cells);
}
