//! Lists, for each killer screenshot of a folder with its cages beside it
//! (`NAME.json`), the cage sums the sum reader gets wrong: the true sum,
//! the readings offered most likely first with their costs, and whether the
//! true sum is among them at all. Also says when the page is not taken as
//! a killer, and why (no outlines on the quick test, or the full measure).
//!
//! `cargo run --release -p sudoku-lens-tools --bin sum_misses -- DIR [--dump OUT]`:
//! with `--dump`, each missed sum's corner as the reader sees it goes into
//! `OUT/NAME-rRcC.png` (the corner beside its ink).
//!
//! The screenshots are used for measuring only.

use std::path::Path;

use image::GrayImage;
use sudoku_lens::grid::Cage;
use sudoku_lens::truth::truth_beside;
use sudoku_lens::vision::cells::classify::Model;
use sudoku_lens::vision::locate::Located;
use sudoku_lens::vision::marks::borders::{
    Borders, may_have_outlines, measure, outer_alternations, outer_scores,
};
use sudoku_lens::vision::marks::killer::{read_sum, sum_corner_image};
use sudoku_lens::vision::read::{Colour, read_image};

/// The count of cages, of sums read first, and of true sums among the
/// runner-ups.
#[derive(Default)]
struct Counts {
    total: usize,
    first: usize,
    among: usize,
}

fn main() {
    let (dir, dump) = sudoku_lens_tools::folder_and_dump();
    let model = Model::load_bundled();
    let images = sudoku_lens_tools::image_files(&dir);
    let mut counts = Counts::default();
    for path in images {
        let Ok(Some(truth)) = truth_beside(&path) else {
            continue;
        };
        if truth.cages.is_empty() {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let read = match read_image(&path, None, Colour::Drop) {
            Ok(r) => r,
            Err(e) => {
                println!("{name}: {e}");
                continue;
            }
        };
        let Ok(reading) = read.reading else {
            println!("{name}: not located");
            continue;
        };
        let page = Page {
            name: &name,
            grey: &read.grey,
            located: &reading.located,
            borders: measure(&read.grey, &reading.located),
        };
        print_outlines(&page, &truth.cages, reading.killer.is_some());
        for cage in &truth.cages {
            check_sum(&page, cage, model, dump.as_deref(), &mut counts);
        }
    }
    let Counts {
        total,
        first,
        among,
    } = counts;
    println!(
        "{total} cages: sum read first {first}, among the runner-ups {among}, not offered {}",
        total - first - among
    );
}

/// A screenshot as the sum reader sees it.
struct Page<'a> {
    name: &'a str,
    grey: &'a GrayImage,
    located: &'a Located,
    borders: Borders,
}

/// Whether the page is taken as a killer, and why: the quick test's
/// measures, the full measure's, and the edges it classifies wrong.
fn print_outlines(page: &Page<'_>, cages: &[Cage], killer: bool) {
    let (grey, located, borders) = (page.grey, page.located, &page.borders);
    let mut outer = outer_scores(grey, located);
    outer.sort_by(f32::total_cmp);
    let mut dashes = outer_alternations(grey, located);
    dashes.sort_by(f32::total_cmp);
    let quick = may_have_outlines(grey, located);
    let boundaries = borders.edges.iter().filter(|e| e.boundary).count();
    let mut cage_of = vec![usize::MAX; located.layout.cell_count()];
    for (i, cage) in cages.iter().enumerate() {
        for &cell in &cage.cells {
            cage_of[cell as usize] = i;
        }
    }
    let wrong_edges: Vec<String> = borders
        .edges
        .iter()
        .filter(|e| e.boundary != (cage_of[e.a] != cage_of[e.b]))
        .map(|e| format!("{}-{}:{:.3}/{:.2}", e.a, e.b, e.score, e.confidence))
        .collect();
    println!(
        "{}: quick {quick} (outer median {:.3}, dashes {:.3}), outlined {} (threshold {:.3}, {boundaries} boundaries, even {}), read as {}",
        page.name,
        outer[outer.len() / 2],
        dashes[dashes.len() / 2],
        borders.outlined,
        borders.threshold,
        borders.even,
        if killer { "killer" } else { "classic" }
    );
    if !wrong_edges.is_empty() {
        println!(
            "  edges classified wrong (cells, score/confidence): {}",
            wrong_edges.join(" ")
        );
    }
}

/// Reads `cage`'s sum and counts it; a sum not read first is printed with
/// the readings offered, and its corner written into `dump`.
fn check_sum(
    page: &Page<'_>,
    cage: &Cage,
    model: &Model,
    dump: Option<&Path>,
    counts: &mut Counts,
) {
    let (grey, located, borders) = (page.grey, page.located, &page.borders);
    let cell = cage.cells[0] as usize;
    let options = read_sum(grey, located, borders, cell, model);
    counts.total += 1;
    let rank = options.iter().position(|o| o.sum == cage.sum);
    if rank == Some(0) {
        counts.first += 1;
        return;
    }
    if rank.is_some() {
        counts.among += 1;
    }
    if let Some(out) = dump {
        let name = page.name;
        let file = out.join(format!("{name}-r{}c{}.png", cell / 9 + 1, cell % 9 + 1));
        if let Err(e) = sum_corner_image(grey, located, borders, cell).save(&file) {
            println!("{}: {e}", file.display());
        }
    }
    let shown: Vec<String> = options
        .iter()
        .map(|o| format!("{}:{:.3}", o.sum, o.cost))
        .collect();
    println!(
        "  r{}c{} sum {} ({} cells): {} {}",
        cell / 9 + 1,
        cell % 9 + 1,
        cage.sum,
        cage.cells.len(),
        shown.join(" "),
        match rank {
            Some(k) => format!("(true sum at {k})"),
            None => "(true sum not offered)".to_string(),
        }
    );
}
