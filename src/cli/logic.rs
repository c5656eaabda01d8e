//! `sudoku-lens hint`, `explain` and `rate`: the logic engine's next step,
//! whole path and rating, for text puzzles and (hint, explain) images.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use image::{DynamicImage, RgbaImage};
use indicatif::ProgressBar;
use rayon::prelude::*;
use serde_json::{Value, json};
use sudoku_lens::grid::{Document, Entry, Layout, Puzzle, parse};
use sudoku_lens::logic::{Logic, LogicError, Rating, Step, Technique};
use sudoku_lens::overlay::hint::draw_step;
use sudoku_lens::overlay::{Options, into_rgba, render_grid};
use sudoku_lens::solve::Budget;
use sudoku_lens::vision::locate::{Located, located_at_corners};
use sudoku_lens::vision::page::load::is_image_file;
use sudoku_lens::vision::read::{Colour, read_image};

use super::{Status, read_input};

/// Which of the two single-puzzle commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The next step only.
    Hint,
    /// Every step to the end.
    Explain,
}

/// `hint` and `explain`: one puzzle (a text file, or an image as read).
/// With `export` (hint only), the step is also drawn onto the image, or onto
/// a drawn grid for a text puzzle, and written there as PNG (JPEG for a
/// `.jpg` name).
pub fn run_one(
    input: &Path,
    mode: Mode,
    json: bool,
    layout: Option<&Layout>,
    export: Option<&Path>,
) -> Result<Status, String> {
    super::refuse_export_over_input(export, input)?;
    let (puzzle, picture) = load_one(input, layout, export.is_some())?;
    let place = input.display().to_string();
    let checked = Logic::for_puzzle(&puzzle).and_then(|mut logic| {
        logic.set_budget(time_budget());
        let opts = logic.options(&puzzle)?;
        Ok((logic, opts))
    });
    let (mut logic, opts) = match checked {
        Ok(x) => x,
        Err(e) => return Ok(report_error(&place, &e)),
    };
    // Explain prints the steps it found even when it gets stuck (several
    // solutions part there), then says why it stopped.
    let found = match mode {
        Mode::Hint => logic.hint(puzzle.values(), &opts).map(|s| (vec![s], None)),
        Mode::Explain => logic.steps(puzzle.values(), &opts),
    };
    let (steps, stuck) = match found {
        Ok(s) => s,
        Err(e) => return Ok(report_error(&place, &e)),
    };
    if let (Some(out), Some(step)) = (export, steps.first()) {
        let picture = match picture {
            Some(p) => p,
            None => text_picture(&puzzle)?,
        };
        export_step(picture, &puzzle, step, out)?;
    }
    let mut out = BufWriter::new(io::stdout().lock());
    let written = steps.iter().try_for_each(|st| {
        if json {
            writeln!(out, "{}", step_json(puzzle.layout(), st))
        } else {
            writeln!(out, "{}", step_line(st))
        }
    });
    let written = written.and_then(|()| out.flush());
    drop(out);
    let status = match &stuck {
        None => Status::Solved,
        Some(e) => {
            let at = match steps.len() {
                0 => format!("{place}: stuck at the start"),
                1 => format!("{place}: stuck after 1 step"),
                n => format!("{place}: stuck after {n} steps"),
            };
            report_error(&at, e)
        }
    };
    finish(written, status)
}

/// A step in words: "hidden single (1.2): r3c7 is the only place ...".
pub fn step_line(st: &Step) -> String {
    format!("{} ({:.1}): {}", st.technique, st.difficulty, st.text)
}

/// A step as JSON, rows and columns of the canvas counted from 0.
pub fn step_json(layout: &Layout, st: &Step) -> Value {
    let cand = |c: &sudoku_lens::logic::Candidate| {
        let (r, col) = layout.position(c.cell);
        json!([r, col, c.digit])
    };
    let pattern: Vec<Value> = st
        .cells
        .iter()
        .map(|&cell| {
            let (r, c) = layout.position(cell);
            json!([r, c])
        })
        .collect();
    json!({
        "technique": st.technique.name(),
        "difficulty": round1(st.difficulty),
        "placements": st.placements.iter().map(cand).collect::<Vec<_>>(),
        "eliminations": st.eliminations.iter().map(cand).collect::<Vec<_>>(),
        "pattern": pattern,
        "explanation": st.text,
    })
}

/// What `hint --export` draws on: the photo as decoded, or a text
/// puzzle's drawn grid, and where the grid lies on it.
struct Picture {
    image: RgbaImage,
    located: Located,
}

/// A text puzzle's grid drawn by the overlay renderer, and where its cells
/// are: the renderer leaves half a cell of margin.
fn text_picture(puzzle: &Puzzle) -> Result<Picture, String> {
    let options = Options::default();
    let image = render_grid(puzzle, None, &options).map_err(|e| e.to_string())?;
    // Where the renderer put the grid (clues outside it widen the margin).
    let corners = sudoku_lens::overlay::render_frame(puzzle, &options).corners;
    let located =
        located_at_corners(corners, puzzle.layout()).ok_or("cannot place the drawn grid")?;
    Ok(Picture { image, located })
}

/// Draws `step` onto the picture and writes it to `out`.
fn export_step(
    mut picture: Picture,
    puzzle: &Puzzle,
    step: &Step,
    out: &Path,
) -> Result<(), String> {
    draw_step(
        &mut picture.image,
        &picture.located,
        step,
        puzzle.alphabet(),
        &Options::default(),
    )
    .map_err(|e| format!("{}: cannot draw the step: {e}", out.display()))?;
    super::solve::save(&DynamicImage::ImageRgba8(picture.image), out)
}

/// One puzzle from a text file (a batch must hold exactly one) or an image;
/// with `keep`, an image's pixels and where its grid is, to draw on.
fn load_one(
    input: &Path,
    layout: Option<&Layout>,
    keep: bool,
) -> Result<(Puzzle, Option<Picture>), String> {
    let name = input.display().to_string();
    if input.as_os_str() != "-" && input.is_file() && is_image_file(input) {
        let colour = if keep { Colour::Keep } else { Colour::Drop };
        let read = read_image(input, layout, colour).map_err(|e| e.to_string())?;
        let reading = read.reading.map_err(|e| e.to_string())?;
        super::read::report_check(input, &reading);
        let picture = read.image.map(|image| Picture {
            image: into_rgba(image),
            located: reading.located.clone(),
        });
        return Ok((reading.puzzle, picture));
    }
    let (name, text) = read_input(input).map_err(|e| {
        if input.is_dir() {
            format!("{name}: is a folder; give one puzzle file or image")
        } else {
            e
        }
    })?;
    if let Some(start) = super::check::resume_from(&text, &name, layout)? {
        return Ok((start, None));
    }
    let puzzle = match parse(&text, &name, layout).map_err(|e| e.to_string())? {
        Document::Single(p) => Ok(p),
        Document::Batch(entries) => {
            let mut puzzles = entries.into_iter().filter_map(|e| match e {
                Entry::Puzzle { puzzle, .. } => Some(puzzle),
                Entry::Other(_) => None,
            });
            match (puzzles.next(), puzzles.next()) {
                (Some(p), None) => p.map_err(|e| e.to_string()),
                (None, _) => Err(format!("{name}: no puzzle in the file")),
                (Some(_), Some(_)) => Err(format!(
                    "{name}: holds several puzzles; give one (`rate` takes a batch)"
                )),
            }
        }
    }?;
    Ok((puzzle, None))
}

/// One puzzle of `rate`'s inputs: where it was, its text, and what it
/// parsed to.
struct Item {
    place: String,
    text: String,
    puzzle: Result<Puzzle, String>,
}

/// What rating one puzzle gave.
type Rated = Result<Rating, LogicError>;

/// `rate`: a rating per puzzle of every file, in input order, rated in
/// parallel.
pub fn run_rate(files: &[PathBuf], json: bool, layout: Option<&Layout>) -> Result<Status, String> {
    let mut items: Vec<Item> = Vec::new();
    let mut status = Status::Solved;
    for file in files {
        match collect(file, layout) {
            Ok(mut found) => items.append(&mut found),
            Err(e) => {
                eprintln!("sudoku-lens: {e}");
                status = Status::Malformed;
                items.push(Item {
                    place: file.display().to_string(),
                    text: String::new(),
                    puzzle: Err(e),
                });
            }
        }
    }
    let todo = items.iter().filter(|i| i.puzzle.is_ok()).count();
    let bar = progress(todo);
    let rated: Vec<Option<Rated>> = items
        .par_iter()
        .map_init(Vec::<Logic>::new, |engines, item| {
            let p = item.puzzle.as_ref().ok()?;
            let r = rate_with(engines, p);
            bar.inc(1);
            Some(r)
        })
        .collect();
    bar.finish_and_clear();

    let mut out = BufWriter::new(io::stdout().lock());
    for (item, rated) in items.iter().zip(&rated) {
        let written = match (&item.puzzle, rated) {
            (Err(e), _) => {
                // Files that could not be read were reported above.
                if !item.text.is_empty() {
                    eprintln!("sudoku-lens: {e}");
                    status = status.max(Status::Malformed);
                }
                if json {
                    writeln!(out, "{}", json!({"puzzle": item.text, "error": e}))
                } else if !item.text.is_empty() {
                    writeln!(out, "- error {}", one_line(&item.text))
                } else {
                    Ok(())
                }
            }
            (Ok(_), Some(Err(e))) => {
                status = status.max(report_error(&item.place, e));
                if json {
                    writeln!(
                        out,
                        "{}",
                        json!({"puzzle": item.text, "error": e.to_string()})
                    )
                } else {
                    writeln!(out, "- error {}", one_line(&item.text))
                }
            }
            (Ok(_), Some(Ok(r))) => {
                if json {
                    writeln!(out, "{}", rating_json(&item.text, r))
                } else {
                    writeln!(
                        out,
                        "{:.1} {} {}",
                        r.difficulty,
                        r.level,
                        one_line(&item.text)
                    )
                }
            }
            (Ok(_), None) => unreachable!("every parsed puzzle is rated"),
        };
        if let Err(e) = written {
            return finish(Err(e), status);
        }
    }
    finish(out.flush(), status)
}

/// The rating of `puzzle` with an engine for its layout, made once per
/// layout and thread.
fn rate_with(engines: &mut Vec<Logic>, puzzle: &Puzzle) -> Rated {
    let layout = puzzle.layout();
    let i = match engines.iter().position(|l| {
        (Arc::ptr_eq(l.layout(), layout) || **l.layout() == **layout)
            && l.cages() == puzzle.cages()
            && l.rules() == puzzle.rules()
    }) {
        Some(i) => i,
        None => {
            engines.push(Logic::for_puzzle(puzzle)?);
            engines.len() - 1
        }
    };
    let logic = &mut engines[i];
    logic.set_budget(time_budget());
    let opts = logic.options(puzzle)?;
    logic.rate(puzzle.values(), &opts)
}

/// The budget of one puzzle's steps, all of them: `--time-limit` from now
/// (each of the solver's searches has it too).
fn time_budget() -> Budget {
    sudoku_lens::solve::time_limit().map_or_else(Budget::default, Budget::time)
}

/// A rating as JSON.
pub fn rating_json(puzzle: &str, r: &Rating) -> Value {
    let mut techniques = serde_json::Map::new();
    for (t, n) in &r.counts {
        let entry = techniques.entry(t.name()).or_insert(json!(0));
        *entry = json!(entry.as_u64().unwrap_or(0) + *n as u64);
    }
    json!({
        "puzzle": puzzle,
        "rating": round1(r.difficulty),
        "level": r.level.name(),
        "logic_solved": r.counts.iter().all(|(t, _)| *t != Technique::Solver),
        "techniques": techniques,
    })
}

/// The puzzles of one file: each line of a batch, or the one puzzle.
fn collect(file: &Path, layout: Option<&Layout>) -> Result<Vec<Item>, String> {
    let (name, text) = read_input(file)?;
    Ok(
        match super::parse_givens(&text, &name, layout, "rating the givens")
            .map_err(|e| e.to_string())?
        {
            Document::Single(p) => vec![Item {
                place: name,
                text: p.to_text().trim_end().to_string(),
                puzzle: Ok(p),
            }],
            Document::Batch(entries) => entries
                .into_iter()
                .filter_map(|e| match e {
                    Entry::Puzzle { line, text, puzzle } => Some(Item {
                        place: format!("{name}:{line}"),
                        text,
                        puzzle: puzzle.map_err(|e| e.to_string()),
                    }),
                    Entry::Other(_) => None,
                })
                .collect(),
        },
    )
}

/// A puzzle's text on one line (a multi-line grid's rows joined by `/`).
fn one_line(text: &str) -> String {
    text.lines().collect::<Vec<_>>().join("/")
}

fn round1(x: f32) -> f64 {
    (x as f64 * 10.0).round() / 10.0
}

/// Reports a logic error on stderr; the exit status it means.
fn report_error(place: &str, e: &LogicError) -> Status {
    match e {
        LogicError::GaveUp(why) => eprintln!("sudoku-lens: {place}: {}", super::gave_up(why)),
        e => eprintln!("sudoku-lens: {place}: {e}"),
    }
    match e {
        LogicError::NotUnique => Status::Multiple,
        LogicError::NoSolution(_) | LogicError::Conflict { .. } => Status::NoSolution,
        LogicError::Solved => Status::Solved,
        LogicError::Values(_) => Status::Malformed,
        LogicError::GaveUp(_) => Status::GaveUp,
    }
}

/// The status, unless the output could not be written (a closed pipe is
/// not an error).
fn finish(written: io::Result<()>, status: Status) -> Result<Status, String> {
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the output: {e}"))
        }
        _ => Ok(status),
    }
}

/// A progress bar on standard error when it is a terminal and there is more
/// than one puzzle.
fn progress(len: usize) -> ProgressBar {
    if len > 1 {
        super::progress_bar(len)
    } else {
        ProgressBar::hidden()
    }
}
