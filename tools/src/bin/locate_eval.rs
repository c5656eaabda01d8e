//! Measures the grid finder on the shared photo collections.
//!
//! ```text
//! cargo run --release -p sudoku-lens-tools --bin locate_eval -- [PHOTOS_DIR] [--debug DIR] [--only SUBSTRING]
//! ```
//!
//! - `kubiesa-train` and `kubiesa-val`: corner error against
//!   `metadata.csv` (pixels, as a fraction of the grid side, and how many
//!   photos have every corner within 5%, 10% and 25% of a cell).
//! - `wichtounet-v2-train`: share of photos located, and share whose cell
//!   crops separate perfectly: every cell with a digit in the `.dat` file
//!   has more ink in its centre than every empty cell.
//! - Time per photo of locate + crops, without and with decoding.
//!
//! `PHOTOS_DIR` is `../shared/data/photos` beside the repository unless
//! given.
//!
//! `--image FILE [--debug DIR]` locates one file and prints the result.
//! Environment: `LOCATE_EVAL_CANDIDATES` prints every candidate quad and its
//! score, `LOCATE_EVAL_PHASES` the time of locating and of cropping.

use std::path::{Path, PathBuf};
use std::time::Instant;

use image::GrayImage;
use sudoku_lens::truth::truth_beside;
use sudoku_lens::vision::debug::write_debug;
use sudoku_lens::vision::locate::{CELL_CROP_SIZE, Located, cell_crops, locate_traced};
use sudoku_lens::vision::page::load::{Rotation, load_bytes_with};
use sudoku_lens_tools::repo_root;

struct Run {
    grey: GrayImage,
    located: Option<Located>,
    crops: Vec<GrayImage>,
    decode_ms: f64,
    work_ms: f64,
    error: String,
}

fn run(path: &Path, rotation: Rotation, debug: Option<&Path>) -> Run {
    let t0 = Instant::now();
    let bytes = std::fs::read(path).expect("readable photo");
    let img = load_bytes_with(&bytes, &path.display().to_string(), rotation).expect("decodable");
    let grey = img.to_luma8();
    drop(img);
    let t1 = Instant::now();
    let (res, trace) = locate_traced(&grey, None);
    if std::env::var_os("LOCATE_EVAL_CANDIDATES").is_some() {
        for (q, s) in &trace.candidates {
            eprintln!("candidate {q:?} score {s:.3}");
        }
    }
    let tl = Instant::now();
    let crops = match &res {
        Ok(l) => cell_crops(&grey, l, CELL_CROP_SIZE),
        Err(_) => Vec::new(),
    };
    let t2 = Instant::now();
    if std::env::var_os("LOCATE_EVAL_PHASES").is_some() {
        eprintln!(
            "{}: locate {:.1} ms, crops {:.1} ms",
            path.display(),
            (tl - t1).as_secs_f64() * 1e3,
            (t2 - tl).as_secs_f64() * 1e3
        );
    }
    if let Some(dir) = debug {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        write_debug(
            &dir.join(stem),
            &trace,
            &grey,
            res.as_ref().ok(),
            CELL_CROP_SIZE,
        )
        .expect("debug images written");
    }
    Run {
        grey,
        error: res
            .as_ref()
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        located: res.ok(),
        crops,
        decode_ms: (t1 - t0).as_secs_f64() * 1e3,
        work_ms: (t2 - t1).as_secs_f64() * 1e3,
    }
}

fn size_class(img: &GrayImage) -> u8 {
    match img.width() as u64 * img.height() as u64 {
        0..=500_000 => 0,
        500_001..=2_000_000 => 1,
        _ => 2,
    }
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn max(v: &[f64]) -> f64 {
    v.iter().cloned().fold(f64::NAN, f64::max)
}

/// Share of the central 60% of a crop that is ink: darker than the crop's
/// own paper level by half the photo's print contrast (`contrast`), so that
/// faint show-through and shading do not count, whatever the lighting.
fn centre_ink(crop: &GrayImage, contrast: f64) -> f64 {
    let mut all: Vec<u8> = crop.pixels().map(|p| p[0]).collect();
    all.sort_unstable();
    let paper = all[all.len() * 4 / 5] as f64;
    let threshold = paper - 0.5 * contrast;
    let s = crop.width();
    let (a, b) = (s / 5, s - s / 5);
    let mut n = 0.0;
    let mut ink = 0.0;
    for y in a..b {
        for x in a..b {
            n += 1.0;
            if (crop.get_pixel(x, y)[0] as f64) < threshold {
                ink += 1.0;
            }
        }
    }
    ink / n
}

/// The photo's print contrast: median crop pixel (paper) minus the 1st
/// percentile (print).
fn print_contrast(crops: &[GrayImage]) -> f64 {
    let mut all: Vec<u8> = crops
        .iter()
        .flat_map(|c| c.pixels().map(|p| p[0]))
        .collect();
    all.sort_unstable();
    (all[all.len() / 2] as f64 - all[all.len() / 100] as f64).max(10.0)
}

/// What to measure, from the command line.
struct Args {
    /// The folder of photo collections.
    root: PathBuf,
    /// Where debug images go, if anywhere.
    debug: Option<PathBuf>,
    /// Only the photos whose names hold this.
    only: Option<String>,
}

impl Args {
    fn wanted(&self, name: &str) -> bool {
        self.only.as_ref().is_none_or(|o| name.contains(o.as_str()))
    }
}

/// The command line's folder and options; `None` when it asked for one
/// file (`--image`), which has then been located and printed.
fn parse_args() -> Option<Args> {
    let mut args = std::env::args().skip(1);
    let mut root = repo_root().join("../shared/data/photos");
    let mut debug: Option<PathBuf> = None;
    let mut only: Option<String> = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--debug" => debug = args.next().map(PathBuf::from),
            "--only" => only = args.next(),
            "--image" => {
                // One file: print the location, write debug images if asked.
                let path = PathBuf::from(args.next().expect("--image FILE"));
                let debug = args.next().filter(|a| a == "--debug").and(args.next());
                locate_one(&path, debug.as_deref().map(Path::new));
                return None;
            }
            _ => root = PathBuf::from(a),
        }
    }
    Some(Args { root, debug, only })
}

/// Locates one file and prints where its lines lie, or why it was not
/// found.
fn locate_one(path: &Path, debug: Option<&Path>) {
    let r = run(path, Rotation::FromExif, debug);
    let Some(l) = r.located else {
        println!("{}: {}", path.display(), r.error);
        return;
    };
    println!(
        "{}: {} corners {:?} score {:.2} scores {:?} lines {:?} {:?}",
        path.display(),
        l.layout,
        l.corners,
        l.score,
        l.layout_scores,
        l.col_lines,
        l.row_lines
    );
    // Where each line lies beside each cell along it.
    for (name, beside) in [("column", &l.col_lines_at), ("row", &l.row_lines_at)] {
        for (i, at) in beside.iter().enumerate() {
            let at: Vec<String> = at.iter().map(|v| format!("{v:.2}")).collect();
            println!("{name} line {i} beside cells: {}", at.join(" "));
        }
    }
}

/// One photo's time: its size class, locate + crops, and with decoding
/// (milliseconds).
type Timing = (u8, f64, f64);

fn timing(r: &Run) -> Timing {
    (size_class(&r.grey), r.work_ms, r.work_ms + r.decode_ms)
}

fn main() {
    let Some(args) = parse_args() else {
        return;
    };
    let mut times: Vec<Timing> = Vec::new();
    for set in ["kubiesa-train", "kubiesa-val"] {
        kubiesa_corners(&args, set, &mut times);
    }
    wichtounet_crops(&args, &mut times);
    print_times(&times);
}

/// Kubiesa: each photo's corners against the ground truth of
/// `metadata.csv`, and a summary of the errors.
fn kubiesa_corners(args: &Args, set: &str, times: &mut Vec<Timing>) {
    let kdir = args.root.join(set);
    let Ok(csv) = std::fs::read_to_string(kdir.join("metadata.csv")) else {
        return;
    };
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let (mut errs_px, mut errs_frac) = (Vec::new(), Vec::new());
    println!("{set}: corner error (max of 4 corners)");
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() < header.len() || !args.wanted(f[0]) {
            continue;
        }
        let truth = truth_corners(&header, &f);
        let side = mean_side(&truth);
        let r = run(&kdir.join(f[0]), Rotation::FromExif, args.debug.as_deref());
        times.push(timing(&r));
        match &r.located {
            Some(l) => {
                let err = corner_error(l, &truth);
                println!(
                    "  {:32} {:>7.1} px  {:>6.2}%  layout {} score {:.2}  {:.0}+{:.0} ms",
                    f[0],
                    err,
                    100.0 * err / side,
                    l.layout,
                    l.score,
                    r.decode_ms,
                    r.work_ms
                );
                errs_px.push(err);
                errs_frac.push(100.0 * err / side);
            }
            None => {
                println!("  {:32} NOT FOUND ({})", f[0], r.error);
                errs_px.push(f64::INFINITY);
                errs_frac.push(f64::INFINITY);
            }
        }
    }
    print_corner_summary(&errs_px, &errs_frac);
}

/// The true corners of a `metadata.csv` line, clockwise from the top-left.
fn truth_corners(header: &[&str], f: &[&str]) -> Vec<[f64; 2]> {
    let col = |n: &str| header.iter().position(|h| *h == n).unwrap();
    let names = ["topleft", "topright", "bottomright", "bottomleft"];
    names
        .iter()
        .map(|n| {
            [
                f[col(&format!("x_{n}_absolute"))].parse().unwrap(),
                f[col(&format!("y_{n}_absolute"))].parse().unwrap(),
            ]
        })
        .collect()
}

/// The mean length of the quadrilateral's four sides.
fn mean_side(corners: &[[f64; 2]]) -> f64 {
    (0..4)
        .map(|i| {
            let (a, b) = (corners[i], corners[(i + 1) % 4]);
            ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
        })
        .sum::<f64>()
        / 4.0
}

/// The largest distance of a found corner from its true place.
fn corner_error(l: &Located, truth: &[[f64; 2]]) -> f64 {
    (0..4)
        .map(|i| {
            let c = l.corners[i];
            ((c[0] as f64 - truth[i][0]).powi(2) + (c[1] as f64 - truth[i][1]).powi(2)).sqrt()
        })
        .fold(0.0, f64::max)
}

/// A set's corner errors: median and worst, and how many photos have every
/// corner within a share of a cell.
fn print_corner_summary(errs_px: &[f64], errs_frac: &[f64]) {
    println!(
        "  corner error: median {:.1} px ({:.2}% of side), max {:.1} px ({:.2}%)",
        median(&mut errs_px.to_vec()),
        median(&mut errs_frac.to_vec()),
        max(errs_px),
        max(errs_frac)
    );
    // A cell is a ninth of the side: the error as a share of a cell.
    let within = |cells: f64| {
        errs_frac
            .iter()
            .filter(|&&e| e * 9.0 <= cells * 100.0)
            .count()
    };
    println!(
        "  every corner within 5% of a cell: {}, 10%: {}, 25%: {} (of {})",
        within(0.05),
        within(0.10),
        within(0.25),
        errs_frac.len()
    );
}

/// Wichtounet: the photos located, and those whose crops separate digits
/// from empty cells.
fn wichtounet_crops(args: &Args, times: &mut Vec<Timing>) {
    let wdir = args.root.join("wichtounet-v2-train");
    let Ok(entries) = std::fs::read_dir(&wdir) else {
        return;
    };
    let mut dats: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
        .filter(|p| args.wanted(&p.file_stem().unwrap().to_string_lossy()))
        .collect();
    dats.sort();
    let (mut found, mut classic, mut separated) = (0, 0, 0);
    let mut failures = Vec::new();
    for dat in &dats {
        let jpg = dat.with_extension("jpg");
        let digits = match truth_beside(&jpg) {
            Ok(Some(truth)) => truth.values(),
            Ok(None) => panic!("{} is unreadable", dat.display()),
            Err(e) => panic!("{e}"),
        };
        let r = run(&jpg, Rotation::AsStored, args.debug.as_deref());
        times.push(timing(&r));
        let name = jpg.file_name().unwrap().to_string_lossy().to_string();
        let Some(l) = &r.located else {
            failures.push(format!("{name}: not found ({})", r.error));
            continue;
        };
        found += 1;
        if l.layout.name() != "classic" || digits.len() != 81 {
            failures.push(format!("{name}: layout {}", l.layout));
            continue;
        }
        classic += 1;
        match separation(&digits, &r.crops) {
            Ok(()) => separated += 1,
            Err(why) => failures.push(format!("{name}: {why}, score {:.2}", l.score)),
        }
    }
    let n = dats.len().max(1) as f64;
    println!(
        "wichtounet-v2-train: {} photos, located {} ({:.1}%), classic {} , separated {} ({:.1}%)",
        dats.len(),
        found,
        100.0 * found as f64 / n,
        classic,
        separated,
        100.0 * separated as f64 / n
    );
    for f in failures {
        println!("  {f}");
    }
}

/// Whether every cell with a digit has more ink in its centre than every
/// empty cell; if not, by how much, and how many cells lie on the wrong
/// side.
fn separation(digits: &[u8], crops: &[GrayImage]) -> Result<(), String> {
    let contrast = print_contrast(crops);
    let ink: Vec<f64> = crops.iter().map(|c| centre_ink(c, contrast)).collect();
    let full = (0..81)
        .filter(|&i| digits[i] != 0)
        .map(|i| ink[i])
        .fold(f64::INFINITY, f64::min);
    let empty = (0..81)
        .filter(|&i| digits[i] == 0)
        .map(|i| ink[i])
        .fold(f64::NEG_INFINITY, f64::max);
    if full > empty {
        return Ok(());
    }
    let bad = (0..81)
        .filter(|&i| (digits[i] != 0 && ink[i] <= empty) || (digits[i] == 0 && ink[i] >= full))
        .count();
    Err(format!(
        "not separated (min digit ink {full:.3} <= max empty ink {empty:.3}, {bad} cells on the wrong side)"
    ))
}

/// Time per photo of each size class: locate + crops, and with decoding.
fn print_times(times: &[Timing]) {
    for (label, class) in [("<= 0.5 MP", 0), ("0.5-2 MP", 1), ("> 2 MP", 2)] {
        let mut w: Vec<f64> = times.iter().filter(|t| t.0 == class).map(|t| t.1).collect();
        let mut t: Vec<f64> = times.iter().filter(|t| t.0 == class).map(|t| t.2).collect();
        if w.is_empty() {
            continue;
        }
        println!(
            "time {label} ({} photos): locate+crops median {:.1} ms max {:.1} ms; with decode median {:.1} ms max {:.1} ms",
            w.len(),
            median(&mut w),
            max(&w),
            median(&mut t),
            max(&t)
        );
    }
}
