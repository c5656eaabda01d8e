//! What the reader's quick tests cost on a classic photo, and how often
//! they pass: the killer's (`borders::may_have_outlines`) and the jigsaw's
//! (`jigsaw::may_be_jigsaw`), each run `--runs` times per photo on the
//! located grid, the fastest kept (the machine may be busy).
//!
//! `cargo run --release -p sudoku-lens-tools --bin quick_tests -- [--runs N] PHOTO...`

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use sudoku_lens::vision::locate::locate;
use sudoku_lens::vision::marks::borders::may_have_outlines;
use sudoku_lens::vision::marks::jigsaw::may_be_jigsaw;
use sudoku_lens::vision::page::load::{load_path, to_grey};

fn main() {
    let mut runs = 10usize;
    let mut photos: Vec<PathBuf> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--runs" {
            runs = args
                .next()
                .and_then(|n| n.parse().ok())
                .filter(|&n| n > 0)
                .unwrap_or_else(|| {
                    eprintln!("quick_tests: --runs takes a whole number above 0");
                    std::process::exit(2)
                });
        } else {
            photos.push(a.into());
        }
    }
    let (mut killer_ms, mut jigsaw_ms) = (Vec::new(), Vec::new());
    let (mut killer_pass, mut jigsaw_pass) = (0, 0);
    for photo in &photos {
        let grey = match load_path(photo) {
            Ok(img) => to_grey(&img),
            Err(e) => {
                eprintln!("quick_tests: {e}");
                continue;
            }
        };
        let Ok(located) = locate(&grey, None) else {
            eprintln!("quick_tests: {}: no grid", photo.display());
            continue;
        };
        let fastest = |f: &dyn Fn() -> bool| -> (f64, bool) {
            let mut best = f64::INFINITY;
            let mut pass = false;
            for _ in 0..runs {
                let start = Instant::now();
                pass = black_box(f());
                best = best.min(start.elapsed().as_secs_f64() * 1e3);
            }
            (best, pass)
        };
        let (k, kp) = fastest(&|| may_have_outlines(&grey, &located));
        let (j, jp) = fastest(&|| may_be_jigsaw(&grey, &located));
        killer_ms.push(k);
        jigsaw_ms.push(j);
        killer_pass += kp as usize;
        jigsaw_pass += jp as usize;
    }
    if killer_ms.is_empty() {
        eprintln!("quick_tests: no photo with a grid");
        std::process::exit(1);
    }
    let report = |name: &str, ms: &mut Vec<f64>, pass: usize| {
        ms.sort_by(f64::total_cmp);
        println!(
            "{name}: {} photos, passed {pass}, median {:.3} ms, slowest {:.3} ms",
            ms.len(),
            ms[ms.len() / 2],
            ms[ms.len() - 1]
        );
    };
    report("killer quick test", &mut killer_ms, killer_pass);
    report("jigsaw quick test", &mut jigsaw_ms, jigsaw_pass);
}
