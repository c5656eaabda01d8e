//! Time of each stage of the reader on some photos: decode, grey
//! conversion, locate, cell crops, cell preparation, classification,
//! orientation, the solver check. Each stage runs `--runs` times per photo
//! and its fastest run is kept (the machine may be busy).
//!
//! `cargo run --release -p sudoku-lens-tools --bin read_stages -- [--runs N] PHOTO...`
//!
//! Stages run one after the other as in `read_located`; the rayon pool is
//! started before the first photo so its start-up is not charged to any
//! stage.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use image::{DynamicImage, GrayImage};
use rayon::prelude::*;
use sudoku_lens::grid::Layout;
use sudoku_lens::vision::cells::classify::prep::{Prepared, prepare};
use sudoku_lens::vision::cells::classify::{CellReading, Model};
use sudoku_lens::vision::cells::orient::{apply, orient};
use sudoku_lens::vision::locate::{
    CELL_CROP_SIZE, LocateError, Located, cell_crops, locate_traced,
};
use sudoku_lens::vision::page::load::{load_path, to_grey};
use sudoku_lens::vision::verify::{CheckOutcome, check};

const STAGES: [&str; 9] = [
    "decode", "grey", "locate", "crops", "prepare", "classify", "orient", "apply", "check",
];

#[inline(never)]
fn best<T>(runs: usize, total: &mut f64, mut f: impl FnMut() -> T) -> T {
    let mut fastest = f64::MAX;
    let mut out = None;
    for _ in 0..runs {
        let start = Instant::now();
        let v = black_box(f());
        fastest = fastest.min(start.elapsed().as_secs_f64() * 1e3);
        out = Some(v);
    }
    *total += fastest;
    out.expect("at least one run")
}

#[inline(never)]
fn stage_decode(path: &Path) -> DynamicImage {
    load_path(path).expect("photo loads")
}

#[inline(never)]
fn stage_grey(img: &DynamicImage) -> GrayImage {
    to_grey(img)
}

#[inline(never)]
fn stage_locate(grey: &GrayImage) -> Result<Located, LocateError> {
    locate_traced(grey, None).0
}

#[inline(never)]
fn stage_crops(grey: &GrayImage, located: &Located) -> Vec<GrayImage> {
    cell_crops(grey, located, CELL_CROP_SIZE)
}

#[inline(never)]
fn stage_prepare(crops: &[GrayImage]) -> Vec<Prepared> {
    crops.par_iter().map(prepare).collect()
}

#[inline(never)]
fn stage_classify(model: &Model, prepared: &[Prepared]) -> Vec<CellReading> {
    model.read_page(prepared)
}

#[inline(never)]
fn stage_orient(
    model: &Model,
    located: &Located,
    crops: &[GrayImage],
    prepared: &[Prepared],
    cells: &[CellReading],
) -> u8 {
    orient(model, &located.layout, crops, prepared, cells).turns
}

#[inline(never)]
fn stage_apply(
    model: &Model,
    located: &Located,
    crops: &[GrayImage],
    cells: &[CellReading],
    turns: u8,
) -> (Located, Vec<CellReading>) {
    let (located, turned) = apply(located.clone(), crops.to_vec(), turns);
    if turns.is_multiple_of(4) {
        return (located, cells.to_vec());
    }
    let prepared: Vec<Prepared> = turned.par_iter().map(|c| model.prepare(c)).collect();
    (located, model.read_page(&prepared))
}

#[inline(never)]
fn stage_check(layout: &Arc<Layout>, cells: &[CellReading]) -> CheckOutcome {
    let mut values: Vec<u8> = cells.iter().map(|c| c.value).collect();
    check(layout, &mut values, cells)
}

fn main() {
    let mut runs = 5;
    let mut photos: Vec<PathBuf> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--runs" {
            runs = args.next().and_then(|v| v.parse().ok()).expect("--runs N");
        } else {
            photos.push(a.into());
        }
    }
    // With READ_STAGES_INLINE set, all the work runs on this thread, so
    // that a profiler charges every stage's callees to it.
    if std::env::var_os("READ_STAGES_INLINE").is_some() {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .use_current_thread()
            .build_global()
            .expect("first pool");
    }
    rayon::broadcast(|_| ());
    let start = Instant::now();
    let model = Model::load_bundled();
    println!("model parse {:.2} ms", start.elapsed().as_secs_f64() * 1e3);
    print!("{:<24}", "photo");
    for s in STAGES {
        print!("{s:>9}");
    }
    println!("{:>9}", "total");
    for path in &photos {
        let mut t = [0f64; 9];
        let img = best(runs, &mut t[0], || stage_decode(path));
        let grey = best(runs, &mut t[1], || stage_grey(&img));
        let located = best(runs, &mut t[2], || stage_locate(&grey));
        let Ok(located) = located else {
            println!("{}: no grid", path.display());
            continue;
        };
        let crops = best(runs, &mut t[3], || stage_crops(&grey, &located));
        let prepared: Vec<Prepared> = best(runs, &mut t[4], || stage_prepare(&crops));
        let cells = best(runs, &mut t[5], || stage_classify(model, &prepared));
        let turns = best(runs, &mut t[6], || {
            stage_orient(model, &located, &crops, &prepared, &cells)
        });
        let (located, cells) = best(runs, &mut t[7], || {
            stage_apply(model, &located, &crops, &cells, turns)
        });
        let layout = Arc::new(located.layout.clone());
        best(runs, &mut t[8], || stage_check(&layout, &cells));
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        print!("{name:<24}");
        for v in t {
            print!("{v:>9.2}");
        }
        println!("{:>9.2}", t.iter().sum::<f64>());
    }
}
