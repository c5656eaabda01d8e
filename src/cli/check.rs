//! `sudoku-lens check`: a player's digits judged, from a text file (givens
//! and entries) or an image; wrong entries marked on the picture with
//! `--export`.

use std::io::{self, BufWriter, Write};
use std::path::Path;

use image::DynamicImage;
use serde_json::{Value, json};
use sudoku_lens::check::{EntryCheck, Givens, Unsure, check_entries, resume};
use sudoku_lens::grid::{Layout, Progress, Puzzle, has_entries, parse_progress};
use sudoku_lens::logic::HouseIndex;
use sudoku_lens::overlay::{
    Canvas, Contrast, Options, Paintable, into_rgba, mark_wrong, render_grid,
};
use sudoku_lens::vision::cells::entries::unsure_cells;
use sudoku_lens::vision::locate::{Located, located_at_corners};
use sudoku_lens::vision::read::{Colour, ImageReading, read_image_page};

use super::{Status, read_input};

/// A checked input: what was judged, and where it sits on a picture.
struct Judged {
    progress: Progress,
    /// The image and its located grid, for an image input.
    picture: Option<(DynamicImage, Located)>,
    /// Cells of an image where a player's digit was seen but not read for
    /// sure, in cell order.
    unsure: Vec<Unsure>,
}

/// `check`: one input, its findings on standard output, the marked picture
/// to `export`.
pub fn run(
    input: &Path,
    json: bool,
    export: Option<&Path>,
    layout: Option<&Layout>,
    page: usize,
) -> Result<Status, String> {
    super::refuse_export_over_input(export, input)?;
    let name = input.display().to_string();
    let judged = if input.as_os_str() != "-" && input.is_file() && super::solve::is_image(input) {
        load_image(input, page, layout, export.is_some())?
    } else {
        let (name, text) = read_input(input)?;
        let progress = parse_progress(&text, &name, layout).map_err(|e| e.to_string())?;
        Judged {
            progress,
            picture: None,
            unsure: Vec::new(),
        }
    };
    let check = check_entries(&judged.progress);
    match &check.givens {
        Givens::Several => eprintln!(
            "sudoku-lens: {name}: the givens have several solutions; \
             entries were checked against their houses only"
        ),
        Givens::NoSolution(why) => eprintln!(
            "sudoku-lens: {name}: the givens have no solution ({why}); \
             entries were checked against their houses only"
        ),
        Givens::Unknown(why) => eprintln!(
            "sudoku-lens: {name}: {}; entries were checked against their houses only",
            super::gave_up(why)
        ),
        Givens::Unique | Givens::SolutionPage => {}
    }
    let mut out = BufWriter::new(io::stdout().lock());
    let written = if json {
        writeln!(
            out,
            "{}",
            check_json(&judged.progress, &check, &judged.unsure)
        )
    } else {
        let houses = HouseIndex::new(judged.progress.puzzle().layout().clone());
        check
            .wrong
            .iter()
            .try_for_each(|w| writeln!(out, "{}", w.text()))
            .and_then(|()| {
                judged
                    .unsure
                    .iter()
                    .try_for_each(|u| writeln!(out, "{}", u.text(&houses.cell_name(u.cell))))
            })
            .and_then(|()| writeln!(out, "{}", check.summary_with_unsure(judged.unsure.len())))
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write the output: {e}"))?;
    if let Some(path) = export {
        export_marks(judged, &check, path)?;
    }
    Ok(status(&check))
}

/// The exit status: mistakes first, then what the givens allow.
fn status(check: &EntryCheck) -> Status {
    if !check.wrong.is_empty() {
        return Status::Mistakes;
    }
    match check.givens {
        Givens::NoSolution(_) => Status::NoSolution,
        Givens::Unknown(_) => Status::GaveUp,
        Givens::Several if !check.solved => Status::Multiple,
        _ => Status::Solved,
    }
}

/// `{"wrong": [{"cell": [r, c], "wrote": 7, "reason": "..."}], "unsure":
/// [{"cell": [r, c], "looks_like": 5, "runner_up": 3, "confidence": 0.62}],
/// "remaining": 23, "solved": false, "givens": "unique"}`, rows and columns
/// from 0; `unsure` lists the cells to go where a digit is written that
/// could not be read for sure.
fn check_json(progress: &Progress, check: &EntryCheck, unsure: &[Unsure]) -> Value {
    let layout = progress.puzzle().layout();
    let wrong: Vec<Value> = check
        .wrong
        .iter()
        .map(|w| {
            let (r, c) = layout.position(w.cell);
            json!({"cell": [r, c], "wrote": w.wrote, "reason": w.says})
        })
        .collect();
    let givens = match check.givens {
        Givens::Unique => "unique",
        Givens::Several => "several solutions",
        Givens::NoSolution(_) => "no solution",
        Givens::SolutionPage => "solution page",
        Givens::Unknown(_) => "unknown",
    };
    json!({
        "wrong": wrong,
        "unsure": super::read::unsure_json(layout, unsure),
        "remaining": check.remaining,
        "solved": check.solved,
        "givens": givens,
    })
}

/// Reads an image: its givens (and entries, when the reader tells them
/// apart: handwriting, or a screenshot's second ink). A grid read full in
/// one ink, digits in every cell, is judged as read,
/// before the reader's solver check, which would take a player's mistake
/// on a solution page for a misread digit.
fn load_image(
    path: &Path,
    page: usize,
    layout: Option<&Layout>,
    keep: bool,
) -> Result<Judged, String> {
    let colour = if keep { Colour::Keep } else { Colour::Drop };
    let ImageReading { image, reading, .. } =
        read_image_page(path, page, layout, colour).map_err(|e| e.to_string())?;
    let reading = reading.map_err(|e| e.to_string())?;
    let raw: Vec<u8> = reading.cells.iter().map(|c| c.value).collect();
    // A screenshot whose digits are in two inks holds givens and entries,
    // however full it is.
    let puzzle = if raw.iter().all(|&v| v != 0) && reading.colour.is_none() {
        reading.puzzle.with_values(raw)
    } else {
        super::read::report_check(path, &reading);
        reading.puzzle.clone()
    };
    let progress = Progress::new(puzzle, reading.entries.clone())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let unsure = unsure_cells(&reading.written, &progress.current());
    Ok(Judged {
        progress,
        picture: image.map(|i| (i, reading.located)),
        unsure,
    })
}

/// Writes the picture with the wrong entries marked: the photo, or for a
/// text input a clean rendered grid with the entries in blue.
fn export_marks(judged: Judged, check: &EntryCheck, path: &Path) -> Result<(), String> {
    let cells: Vec<usize> = check.wrong.iter().map(|w| w.cell).collect();
    let puzzle = judged.progress.puzzle();
    let fail = |e: &dyn std::fmt::Display| format!("cannot mark the wrong entries: {e}");
    let image = match judged.picture {
        Some((image, located)) => {
            let givens = puzzle.values();
            match image {
                DynamicImage::ImageRgb8(mut rgb) => {
                    mark(&mut rgb, &located, givens, &cells).map_err(|e| fail(&e))?;
                    DynamicImage::ImageRgb8(rgb)
                }
                other => {
                    let mut rgba = into_rgba(other);
                    mark(&mut rgba, &located, givens, &cells).map_err(|e| fail(&e))?;
                    DynamicImage::ImageRgba8(rgba)
                }
            }
        }
        None => {
            let options = Options::default();
            let current = judged.progress.current();
            let mut image = render_grid(puzzle, Some(&current), &options).map_err(|e| fail(&e))?;
            // Where the renderer put the grid (clues outside it widen the margin).
            let layout = puzzle.layout();
            let corners = sudoku_lens::overlay::render_frame(puzzle, &options).corners;
            let located =
                located_at_corners(corners, layout).ok_or_else(|| fail(&"no grid corners"))?;
            mark(&mut image, &located, puzzle.values(), &cells).map_err(|e| fail(&e))?;
            DynamicImage::ImageRgba8(image)
        }
    };
    super::solve::save(&image, path)
}

fn mark<P: Paintable>(
    image: &mut Canvas<P>,
    located: &Located,
    givens: &[u8],
    cells: &[usize],
) -> Result<(), sudoku_lens::overlay::OverlayError> {
    mark_wrong(image, located, givens, cells, Contrast::Normal).map(|_| ())
}

/// For `hint` and `explain`: when `text` holds a player's entries (an
/// `entries:` grid, or JSON "entries"), the puzzle to go on from, the
/// givens and the correct entries, with each wrong entry named on standard
/// error; `None` for a text without entries.
pub(super) fn resume_from(
    text: &str,
    name: &str,
    layout: Option<&Layout>,
) -> Result<Option<Puzzle>, String> {
    if !has_entries(text) {
        return Ok(None);
    }
    let progress = parse_progress(text, name, layout).map_err(|e| e.to_string())?;
    let check = check_entries(&progress);
    for w in &check.wrong {
        eprintln!("sudoku-lens: {name}: {} (left out)", w.text());
    }
    Ok(Some(resume(&progress, &check)))
}
