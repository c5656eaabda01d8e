//! `sudoku-lens read`: images in, puzzles as read out.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::json;
use sudoku_lens::check::Unsure;
use sudoku_lens::grid::{Layout, Progress, Rule};
use sudoku_lens::logic::HouseIndex;
use sudoku_lens::vision::cells::entries::unsure_cells;
use sudoku_lens::vision::debug::write_debug;
use sudoku_lens::vision::locate::CELL_CROP_SIZE;
use sudoku_lens::vision::read::{Colour, ImageReading, Reading, read_image_page_with};
use sudoku_lens::vision::verify::CheckOutcome;

use super::Status;

pub fn run(
    images: &[PathBuf],
    json: bool,
    entries: bool,
    layout: Option<&Layout>,
    debug: Option<&Path>,
    page: usize,
    rules: &[Rule],
) -> Result<Status, String> {
    let results: Vec<Result<Reading, String>> = images
        .par_iter()
        .map(|path| read_one(path, page, layout, debug, rules))
        .collect();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut status = Status::Solved;
    for (path, result) in images.iter().zip(results) {
        let written = match result {
            Err(e) => {
                eprintln!("sudoku-lens: {e}");
                status = Status::Malformed;
                Ok(())
            }
            Ok(r) => {
                report_check(path, &r);
                if json {
                    writeln!(out, "{}", reading_json(path, &r))
                } else if entries {
                    match Progress::new(r.puzzle.clone(), r.entries.clone()) {
                        Ok(p) => {
                            report_unsure(path, &p, &r);
                            write!(out, "{}", p.to_text())
                        }
                        Err(e) => {
                            eprintln!("sudoku-lens: {}: {e}", path.display());
                            status = Status::Malformed;
                            Ok(())
                        }
                    }
                } else {
                    write!(out, "{}", r.puzzle.to_text())
                }
            }
        };
        match written {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(status),
            Err(e) => return Err(format!("cannot write the output: {e}")),
            Ok(()) => {}
        }
    }
    match out.flush() {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the output: {e}"))
        }
        _ => Ok(status),
    }
}

fn read_one(
    path: &Path,
    page: usize,
    layout: Option<&Layout>,
    debug: Option<&Path>,
    rules: &[Rule],
) -> Result<Reading, String> {
    let ImageReading {
        grey,
        reading: result,
        trace,
        ..
    } = read_image_page_with(path, page, layout, Colour::Drop, rules).map_err(|e| e.to_string())?;
    if let Some(dir) = debug {
        let stem = path
            .file_stem()
            .map_or_else(|| "image".into(), |s| s.to_string_lossy());
        let dir = dir.join(stem.as_ref());
        let located = result.as_ref().ok().map(|r| &r.located);
        if let Err(e) = write_debug(&dir, &trace, &grey, located, CELL_CROP_SIZE) {
            eprintln!(
                "sudoku-lens: {}: cannot write debug images to {}: {e}",
                path.display(),
                dir.display()
            );
        }
    }
    result.map_err(|e| e.to_string())
}

/// Tells, on standard error, what the solver check did to the reading.
pub(super) fn report_check(path: &Path, r: &Reading) {
    let name = path.display();
    let layout = r.puzzle.layout();
    if r.jigsaw.as_ref().is_some_and(|j| j.layout.is_none()) {
        let n = layout.size();
        eprintln!(
            "sudoku-lens: {name}: the grid's thick lines are not its boxes but make no {n} \
             regions of {n} cells; read as a {}, its regions unsure",
            layout.name()
        );
    }
    match &r.check {
        CheckOutcome::Unique => {}
        CheckOutcome::Changed(changes) => {
            let list: Vec<String> = changes
                .iter()
                .map(|&(cell, v)| {
                    let was = r.cells[cell].value;
                    let show = |v: u8| {
                        if v == 0 {
                            "empty".to_string()
                        } else {
                            v.to_string()
                        }
                    };
                    format!(
                        "{} read as {}, taken as {}",
                        layout.cell_name(cell),
                        show(was),
                        show(v)
                    )
                })
                .collect();
            eprintln!(
                "sudoku-lens: {name}: changed {} so that the puzzle has one solution: {}",
                if changes.len() == 1 {
                    "one cell"
                } else {
                    "cells"
                },
                list.join("; ")
            );
        }
        CheckOutcome::Unresolved => eprintln!(
            "sudoku-lens: {name}: the puzzle as read does not have exactly one solution; \
             check the uncertain cells"
        ),
    }
}

/// On standard error, the cells left out of `progress`'s entries that hold
/// a digit written but not read for sure: `read --entries` prints them as
/// empty, and they are not.
fn report_unsure(path: &Path, progress: &Progress, r: &Reading) {
    let unsure = unsure_cells(&r.written, &progress.current());
    if unsure.is_empty() {
        return;
    }
    // Named as `check` names them: inside their grid on a multi-grid page.
    let houses = HouseIndex::new(r.puzzle.layout().clone());
    let cells: Vec<String> = unsure
        .iter()
        .map(|u| format!("{} ({}?)", houses.cell_name(u.cell), u.looks_like))
        .collect();
    eprintln!(
        "sudoku-lens: {}: left empty, but a digit is written there that could not be read for \
         sure: {}",
        path.display(),
        cells.join("; ")
    );
}

/// Cells where a digit is written that could not be read for sure, as
/// `read --json` and `check --json` list them: `[{"cell": [r, c],
/// "looks_like": 5, "runner_up": 3, "confidence": 0.62}]`, rows and columns
/// from 0, the confidence to two decimals (a guide, not a measurement).
pub(super) fn unsure_json(layout: &Layout, unsure: &[Unsure]) -> serde_json::Value {
    let list: Vec<serde_json::Value> = unsure
        .iter()
        .map(|u| {
            let (row, col) = layout.position(u.cell);
            json!({"cell": [row, col], "looks_like": u.looks_like, "runner_up": u.runner_up,
                   "confidence": (u.confidence as f64 * 100.0).round() / 100.0})
        })
        .collect();
    json!(list)
}

pub(super) fn reading_json(path: &Path, r: &Reading) -> serde_json::Value {
    let layout = r.puzzle.layout();
    let uncertain: Vec<[usize; 2]> = r
        .uncertain
        .iter()
        .map(|&c| {
            let (row, col) = layout.position(c);
            [row, col]
        })
        .collect();
    let changed: Vec<[usize; 2]> = match &r.check {
        CheckOutcome::Changed(changes) => changes
            .iter()
            .map(|&(c, _)| {
                let (row, col) = layout.position(c);
                [row, col]
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut obj = json!({
        "file": path.display().to_string(),
        "layout": r.puzzle.kind(),
        "grid": r.puzzle.rows(),
    });
    if let Some(regions) = sudoku_lens::grid::json::regions_json(&r.puzzle) {
        obj["regions"] = regions;
    }
    if !r.puzzle.cages().is_empty() {
        obj["cages"] = sudoku_lens::grid::json::cages_json(&r.puzzle);
    }
    if !r.puzzle.rules().is_empty() {
        obj["rules"] = sudoku_lens::grid::json::rules_json(&r.puzzle);
    }
    if r.jigsaw.as_ref().is_some_and(|j| j.layout.is_none()) {
        obj["regions_unsure"] = json!(true);
    }
    obj["entries"] = json!(r.puzzle.with_values(r.entries.values().to_vec()).rows());
    let marks: Vec<serde_json::Value> = r
        .marks
        .iter()
        .map(|m| {
            let (row, col) = layout.position(m.cell);
            json!({"cell": [row, col], "digits": m.digits})
        })
        .collect();
    obj["marks"] = json!(marks);
    // Handwriting seen but not read for sure, as `check --json` lists it,
    // against the grid as it stands (givens and entries).
    let current = Progress::new(r.puzzle.clone(), r.entries.clone())
        .map_or_else(|_| r.puzzle.values().to_vec(), |p| p.current());
    obj["unsure"] = unsure_json(layout, &unsure_cells(&r.written, &current));
    obj["corners"] = json!(r.located.corners);
    obj["uncertain"] = json!(uncertain);
    obj["changed"] = json!(changed);
    obj
}
