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

use sudoku_lens::truth::truth_beside;
use sudoku_lens::vision::cells::classify::Model;
use sudoku_lens::vision::marks::borders::{
    may_have_outlines, measure, outer_alternations, outer_scores,
};
use sudoku_lens::vision::marks::killer::{read_sum, sum_corner_image};
use sudoku_lens::vision::read::{Colour, read_image};

fn main() {
    let (dir, dump) = sudoku_lens_tools::folder_and_dump();
    let model = Model::load_bundled();
    let images = sudoku_lens_tools::image_files(&dir);
    let (mut total, mut first, mut among) = (0, 0, 0);
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
        let grey = &read.grey;
        let located = &reading.located;
        let mut outer = outer_scores(grey, located);
        outer.sort_by(f32::total_cmp);
        let mut dashes = outer_alternations(grey, located);
        dashes.sort_by(f32::total_cmp);
        let quick = may_have_outlines(grey, located);
        let borders = measure(grey, located);
        let boundaries = borders.edges.iter().filter(|e| e.boundary).count();
        let mut cage_of = vec![usize::MAX; located.layout.cell_count()];
        for (i, cage) in truth.cages.iter().enumerate() {
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
            "{name}: quick {quick} (outer median {:.3}, dashes {:.3}), outlined {} (threshold {:.3}, {boundaries} boundaries, even {}), read as {}",
            outer[outer.len() / 2],
            dashes[dashes.len() / 2],
            borders.outlined,
            borders.threshold,
            borders.even,
            if reading.killer.is_some() {
                "killer"
            } else {
                "classic"
            }
        );
        if !wrong_edges.is_empty() {
            println!(
                "  edges classified wrong (cells, score/confidence): {}",
                wrong_edges.join(" ")
            );
        }
        for cage in &truth.cages {
            let cell = cage.cells[0] as usize;
            let options = read_sum(grey, located, &borders, cell, model);
            total += 1;
            let rank = options.iter().position(|o| o.sum == cage.sum);
            if rank == Some(0) {
                first += 1;
                continue;
            }
            if rank.is_some() {
                among += 1;
            }
            if let Some(out) = &dump {
                let file = out.join(format!("{name}-r{}c{}.png", cell / 9 + 1, cell % 9 + 1));
                if let Err(e) = sum_corner_image(grey, located, &borders, cell).save(&file) {
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
    }
    println!(
        "{total} cages: sum read first {first}, among the runner-ups {among}, not offered {}",
        total - first - among
    );
}
