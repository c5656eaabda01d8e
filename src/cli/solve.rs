//! `sudoku-lens solve`: text puzzles, photos and screenshots in, solutions
//! out, and with `--export` the solution drawn onto the image (or, for a text
//! puzzle, a clean rendered grid).

use std::collections::HashMap;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

use image::DynamicImage;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::{Value, json};
use sudoku_lens::batch::solve_all;
use sudoku_lens::grid::json::{cages_json, regions_json};
use sudoku_lens::grid::{BatchLines, Document, Entry, Layout, Puzzle, fpuzzles, parse};
use sudoku_lens::overlay::export::writes_over;
use sudoku_lens::overlay::{Canvas, Options, Paintable, draw_solution, into_rgba, render_grid};
use sudoku_lens::solve::{Outcome, SolveError, solve};
use sudoku_lens::vision::page::load::{has_image_extension, is_image_file};
use sudoku_lens::vision::read::{Colour, ImageReading, Reading, read_image_page};
use sudoku_lens::vision::verify::CheckOutcome;

use super::{Status, read_input, usage_error};

/// Where `--export` and `--export-dir` write, and how.
#[derive(Debug, Default)]
pub struct Export {
    /// One output file (one input only).
    pub file: Option<PathBuf>,
    /// A folder for `<stem>.solved.png` per input.
    pub dir: Option<PathBuf>,
    /// Draw the located grid's outline too.
    pub outline: bool,
}

/// How `solve` prints its results, decided once from the flags.
#[derive(Clone, Copy, Debug)]
pub struct Output {
    pub format: Format,
    /// Solutions counted (and reported) at most.
    pub limit: u64,
    /// Each puzzle's f-puzzles link too (`--export-link`).
    pub link: bool,
}

/// The form of `solve`'s standard output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The solution grids as text; a batch gives one line per input line.
    Text,
    /// One JSON object per puzzle (`--json`).
    Json,
}

impl Output {
    fn json(&self) -> bool {
        self.format == Format::Json
    }
}

/// What every text input of one run shares.
struct TextRun<'a> {
    output: Output,
    layout: Option<&'a Layout>,
    options: &'a Options,
}

/// One input after folders are expanded.
enum Input {
    Text(PathBuf),
    Image(PathBuf),
    /// An input that cannot be used at all (a folder without images).
    Unusable(String),
}

/// Where an input's export goes: `None` without `--export`/`--export-dir`,
/// or the file, or why it may not be written.
type Target = Option<Result<PathBuf, String>>;

pub fn run(
    inputs: &[PathBuf],
    output: Output,
    layout: Option<&Layout>,
    page: usize,
    export: &Export,
) -> Result<Status, String> {
    let items = expand(inputs);
    if export.file.is_some() && items.len() > 1 {
        usage_error(
            "solve",
            &format!(
                "--export writes one file, but there are {} inputs; use --export-dir DIR to write one file per input",
                items.len()
            ),
        );
    }
    if let Some(dir) = &export.dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the folder {}: {e}", dir.display()))?;
    }
    let targets = plan_exports(&items, export);

    let images: Vec<(usize, &Path)> = items
        .iter()
        .enumerate()
        .filter_map(|(i, it)| match it {
            Input::Image(p) => Some((i, p.as_path())),
            _ => None,
        })
        .collect();
    let bar = progress(images.len(), "images");
    let options = Options {
        outline: export.outline,
        ..Options::default()
    };
    let mut done: HashMap<usize, ImageOutcome> = images
        .par_iter()
        .map(|&(i, path)| {
            let outcome = solve_image(path, page, layout, output.limit, &targets[i], &options);
            bar.inc(1);
            (i, outcome)
        })
        .collect();
    bar.finish_and_clear();

    let run = TextRun {
        output,
        layout,
        options: &options,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut status = Status::Solved;
    for (i, item) in items.iter().enumerate() {
        let written = match item {
            Input::Unusable(msg) => {
                eprintln!("sudoku-lens: {msg}");
                if output.json() {
                    writeln!(out, "{}", error_json(msg)).map(|_| Status::Malformed)
                } else {
                    Ok(Status::Malformed)
                }
            }
            Input::Image(path) => {
                let outcome = done.remove(&i).expect("every image was processed");
                report_image(&mut out, path, &outcome, output)
            }
            Input::Text(path) => solve_text_input(path, &run, &targets[i], &mut out),
        };
        match written {
            Ok(st) => status = status.max(st),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(status),
            Err(e) => return Err(format!("cannot write the output: {e}")),
        }
    }
    match out.flush() {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the output: {e}"))
        }
        _ => Ok(status),
    }
}

/// The inputs with each folder replaced by its images (sorted by name;
/// `*.solved.*` files, the outputs of `--export-dir`, are left out), and each
/// file taken as an image or as text.
fn expand(inputs: &[PathBuf]) -> Vec<Input> {
    let mut items = Vec::new();
    for path in inputs {
        if path.as_os_str() == "-" || !path.is_dir() {
            items.push(if path.as_os_str() != "-" && is_image(path) {
                Input::Image(path.clone())
            } else {
                Input::Text(path.clone())
            });
            continue;
        }
        let listed = std::fs::read_dir(path).and_then(|entries| {
            entries
                .map(|e| e.map(|e| e.path()))
                .collect::<io::Result<Vec<PathBuf>>>()
        });
        let mut files: Vec<PathBuf> = match listed {
            Err(e) => {
                items.push(Input::Unusable(format!(
                    "{}: cannot list the folder: {e}",
                    path.display()
                )));
                continue;
            }
            Ok(files) => files
                .into_iter()
                .filter(|p| p.is_file() && has_image_extension(p) && !is_export(p))
                .collect(),
        };
        if files.is_empty() {
            items.push(Input::Unusable(format!(
                "{}: is a folder with no images in it (PNG, JPEG, WebP, BMP, GIF, TIFF, PDF)",
                path.display()
            )));
        }
        files.sort();
        items.extend(files.into_iter().map(Input::Image));
    }
    items
}

/// Whether a file is an output of `--export-dir`: `NAME.solved.EXT`.
fn is_export(path: &Path) -> bool {
    path.file_stem()
        .and_then(|s| s.to_str())
        .is_some_and(|s| s.ends_with(".solved"))
}

/// An image by its extension, or by content (see [`is_image_file`]).
pub(super) fn is_image(path: &Path) -> bool {
    is_image_file(path)
}

/// Each input's export target. An input is never overwritten, and two inputs
/// never write the same file.
fn plan_exports(items: &[Input], export: &Export) -> Vec<Target> {
    let inputs: Vec<&Path> = items
        .iter()
        .filter_map(|it| match it {
            Input::Text(p) | Input::Image(p) => Some(p.as_path()),
            Input::Unusable(_) => None,
        })
        .collect();
    let mut claimed: HashMap<PathBuf, PathBuf> = HashMap::new();
    items
        .iter()
        .map(|it| {
            let source = match it {
                Input::Text(p) | Input::Image(p) => p,
                Input::Unusable(_) => return None,
            };
            let target = if let Some(file) = &export.file {
                file.clone()
            } else if let Some(dir) = &export.dir {
                let stem = if source.as_os_str() == "-" {
                    "stdin".into()
                } else if super::as_link(source).is_some() {
                    "link".into()
                } else {
                    source
                        .file_stem()
                        .map_or_else(|| "puzzle".into(), |s| s.to_string_lossy())
                };
                dir.join(format!("{stem}.solved.png"))
            } else {
                return None;
            };
            // Files, not names, are compared: a hard link to an input is
            // that input.
            if let Some(input) = writes_over(&target, &inputs) {
                return Some(Err(format!(
                    "{}: will not export to {}, which is the input {}",
                    source.display(),
                    target.display(),
                    input.display()
                )));
            }
            let canonical = target.canonicalize().ok();
            let key = canonical.unwrap_or_else(|| target.clone());
            if let Some(first) = claimed.get(&key) {
                return Some(Err(format!(
                    "{}: not exported: {} is already the export of {}",
                    source.display(),
                    target.display(),
                    first.display()
                )));
            }
            claimed.insert(key, source.clone());
            Some(Ok(target))
        })
        .collect()
}

/// A progress bar on standard error when it is a terminal and there is more
/// than one thing to do.
fn progress(len: usize, what: &str) -> ProgressBar {
    if len > 1 && io::stderr().is_terminal() {
        ProgressBar::new(len as u64).with_style(
            ProgressStyle::with_template(&format!(
                "{{spinner}} {{pos}}/{{len}} {what} [{{bar:30}}] {{elapsed}} so far, {{eta}} left"
            ))
            .expect("valid template")
            .progress_chars("=> "),
        )
    } else {
        ProgressBar::hidden()
    }
}

/// What became of one image.
struct ImageOutcome {
    reading: Result<Reading, String>,
    solved: Option<Result<Outcome, SolveError>>,
    /// The file written, or why it was not.
    exported: Option<Result<PathBuf, String>>,
}

/// Reads, solves and (with a target) draws one image.
fn solve_image(
    path: &Path,
    page: usize,
    layout: Option<&Layout>,
    limit: u64,
    target: &Target,
    options: &Options,
) -> ImageOutcome {
    let name = path.display().to_string();
    // The colour pixels are only drawn on when there is somewhere to save.
    let colour = match target {
        Some(Ok(_)) => Colour::Keep,
        _ => Colour::Drop,
    };
    let failed = |e: String| ImageOutcome {
        reading: Err(e),
        solved: None,
        exported: None,
    };
    let (image, reading) = match read_image_page(path, page, layout, colour) {
        Err(e) => return failed(e.to_string()),
        Ok(ImageReading {
            reading: Err(e), ..
        }) => return failed(e.to_string()),
        Ok(ImageReading {
            image,
            reading: Ok(r),
            ..
        }) => (image, r),
    };
    let solved = solve(&reading.puzzle, limit, 1);
    let first = solved.as_ref().ok().and_then(|o| o.solutions.first());
    let exported = match (target, first, image) {
        (None, ..) | (Some(Ok(_)), None, _) => None,
        (Some(Err(e)), ..) => Some(Err(e.clone())),
        (Some(Ok(_)), Some(_), None) => {
            Some(Err(format!("{name}: not exported: the image was not kept")))
        }
        (Some(Ok(out)), Some(solution), Some(image)) => {
            let changed: Vec<usize> = match &reading.check {
                CheckOutcome::Changed(c) => c.iter().map(|&(cell, _)| cell).collect(),
                _ => Vec::new(),
            };
            // Draw on the pixels as decoded: RGB (JPEG) needs no conversion.
            let drawn = match image {
                DynamicImage::ImageRgb8(mut rgb) => {
                    paint(&mut rgb, &reading, solution, &changed, options)
                        .map(|()| DynamicImage::ImageRgb8(rgb))
                }
                other => {
                    let mut rgba = into_rgba(other);
                    paint(&mut rgba, &reading, solution, &changed, options)
                        .map(|()| DynamicImage::ImageRgba8(rgba))
                }
            };
            Some(match drawn {
                Err(e) => Err(format!("{name}: cannot draw the solution: {e}")),
                Ok(image) => save(&image, out).map(|()| out.clone()),
            })
        }
    };
    ImageOutcome {
        reading: Ok(reading),
        solved: Some(solved),
        exported,
    }
}

fn paint<P: Paintable>(
    image: &mut Canvas<P>,
    reading: &Reading,
    solution: &[u8],
    changed: &[usize],
    options: &Options,
) -> Result<(), String> {
    // A killer's outlines and sums are printed in the cells.
    let options = options
        .for_cages(!reading.puzzle.cages().is_empty())
        .for_rules(!reading.puzzle.rules().is_empty());
    // The player's entries that agree with the solution are left as they
    // wrote them; the other cells get the solution.
    let mut kept = reading.puzzle.values().to_vec();
    for ((k, &e), &s) in kept.iter_mut().zip(reading.entries.values()).zip(solution) {
        if e != 0 && e == s {
            *k = e;
        }
    }
    sudoku_lens::overlay::draw_rules(image, &reading.located, reading.puzzle.rules(), &options);
    draw_solution(
        image,
        &reading.located,
        &kept,
        solution,
        changed,
        reading.puzzle.alphabet(),
        &options,
    )
    .map(|_| ())
    .map_err(|e| e.to_string())
}

/// Writes `image` as JPEG when the name ends in .jpg or .jpeg, else as PNG,
/// whole or not at all.
pub(super) fn save(image: &DynamicImage, path: &Path) -> Result<(), String> {
    sudoku_lens::overlay::export::save(image, path).map_err(|e| e.to_string())
}

/// Prints one image's result (stdout) and its problems (stderr).
fn report_image(
    out: &mut impl Write,
    path: &Path,
    outcome: &ImageOutcome,
    output: Output,
) -> io::Result<Status> {
    let name = path.display();
    let reading = match &outcome.reading {
        Err(e) => {
            eprintln!("sudoku-lens: {e}");
            if output.json() {
                let mut obj = error_json(e);
                obj["file"] = Value::String(name.to_string());
                writeln!(out, "{obj}")?;
            }
            return Ok(Status::Malformed);
        }
        Ok(r) => r,
    };
    if matches!(reading.check, CheckOutcome::Changed(_)) {
        super::read::report_check(path, reading);
    }
    let puzzle = &reading.puzzle;
    let check = uncertain_hint(reading);
    let drew = match &outcome.exported {
        Some(Ok(p)) => format!(" and drew it on {}", p.display()),
        _ => String::new(),
    };
    let result = outcome.solved.as_ref().expect("read images are solved");
    let (count, first, mut status) = assess(&name, puzzle, result, output.limit, &check, &drew);
    if let Some(Err(e)) = &outcome.exported {
        eprintln!("sudoku-lens: {e}");
        status = status.max(Status::Malformed);
    }
    let entries = Some(reading.entries.values()).filter(|e| e.iter().any(|&v| v != 0));
    let link = output
        .link
        .then(|| puzzle_link(&name, puzzle, entries, count, first.as_ref()));
    if let Some(Err(_)) = &link {
        status = status.max(Status::Malformed);
    }
    if output.json() {
        let mut obj = super::read::reading_json(path, reading);
        obj["solution"] = json!(first.as_ref().map(Puzzle::rows));
        obj["solutions"] = json!(count);
        if let Some(Ok(p)) = &outcome.exported {
            obj["export"] = Value::String(p.display().to_string());
        }
        if let Some(link) = &link {
            obj["link"] = json!(link.as_ref().ok());
        }
        if let Err(e) = result {
            obj["error"] = Value::String(e.to_string());
        }
        writeln!(out, "{obj}")?;
    } else {
        if let Some(sol) = &first {
            write!(out, "{}", sol.to_text())?;
        }
        if let Some(Ok(link)) = &link {
            writeln!(out, "{link}")?;
        }
    }
    Ok(status)
}

/// The f-puzzles link of `puzzle`, carrying the player's `entries` read
/// from a photo (so they go on from where they were) and its solution when
/// it has exactly one; a puzzle without an f-puzzles form is reported on
/// stderr.
fn puzzle_link(
    place: &dyn std::fmt::Display,
    puzzle: &Puzzle,
    entries: Option<&[u8]>,
    count: u64,
    first: Option<&Puzzle>,
) -> Result<String, String> {
    let solution = first.filter(|_| count == 1).map(Puzzle::values);
    fpuzzles::to_link_with(puzzle, entries, solution)
        .inspect_err(|e| eprintln!("sudoku-lens: {place}: no link: {e}"))
}

/// " (check the uncertain cells r1c2, r5c5)" when the reader was unsure of
/// some cells, else nothing.
fn uncertain_hint(r: &Reading) -> String {
    if r.uncertain.is_empty() {
        return String::new();
    }
    let layout = r.puzzle.layout();
    let names: Vec<String> = r.uncertain.iter().map(|&c| layout.cell_name(c)).collect();
    let what = if names.len() == 1 {
        "the uncertain cell"
    } else {
        "the uncertain cells"
    };
    format!(" (check {what} {})", names.join(", "))
}

/// What a solve result means for the exit status: the solution count, the
/// first solution, and the status; a problem is reported on stderr as
/// "PLACE: PROBLEM{hint}", with `drew` after "printed the first" when the
/// first of several solutions was also drawn.
fn assess(
    place: &dyn std::fmt::Display,
    puzzle: &Puzzle,
    result: &Result<Outcome, SolveError>,
    limit: u64,
    hint: &str,
    drew: &str,
) -> (u64, Option<Puzzle>, Status) {
    match result {
        Err(SolveError::GaveUp { .. }) => {
            let e = result.as_ref().unwrap_err().to_string();
            eprintln!("sudoku-lens: {place}: {}", super::gave_up(&e));
            (0, None, Status::GaveUp)
        }
        Err(e) => {
            eprintln!("sudoku-lens: {place}: {e}{hint}");
            (0, None, Status::NoSolution)
        }
        Ok(o) if o.count == 0 => {
            eprintln!("sudoku-lens: {place}: no solution{hint}");
            (0, None, Status::NoSolution)
        }
        Ok(o) => {
            let status = if o.count > 1 {
                eprintln!(
                    "sudoku-lens: {place}: {}, not one{hint}; printed the first{drew}",
                    how_many(o.count, limit)
                );
                Status::Multiple
            } else {
                Status::Solved
            };
            (
                o.count,
                o.solutions.first().map(|s| puzzle.with_values(s.clone())),
                status,
            )
        }
    }
}

fn how_many(count: u64, limit: u64) -> String {
    if count >= limit {
        format!("at least {count} solutions")
    } else {
        format!("{count} solutions")
    }
}

/// What became of one puzzle, for the output and the exit status.
enum Attempt<'a> {
    Malformed(String),
    Solved(&'a Puzzle, &'a Result<Outcome, SolveError>),
}

fn solve_text(
    name: &str,
    text: &str,
    run: &TextRun,
    target: &Target,
    out: &mut impl Write,
) -> io::Result<Status> {
    let doc = match super::parse_givens(text, name, run.layout, "solving the givens") {
        Ok(doc) => doc,
        Err(e) => {
            eprintln!("sudoku-lens: {e}");
            if run.output.json() {
                writeln!(out, "{}", error_json(&e.to_string()))?;
            }
            return Ok(Status::Malformed);
        }
    };
    match doc {
        Document::Single(p) => {
            let result = solve(&p, run.output.limit, 1);
            let attempt = Attempt::Solved(&p, &result);
            let status = report(out, name, &attempt, run.output, None)?;
            let first = result.as_ref().ok().and_then(|o| o.solutions.first());
            Ok(status.max(export_text(name, &p, first, target, run.options)))
        }
        Document::Batch(entries) => {
            let status = solve_batch(name, &entries, run.output, out)?;
            Ok(status.max(batch_not_exported(name, target)))
        }
    }
}

/// A batch is read and solved this many bytes at a time (whole lines):
/// memory stays bounded by the part, not the batch (a part of classic lines
/// is about 12,000 puzzles: some 20 MB with their solutions and output),
/// and a part holds enough puzzles to keep every core busy.
const PART_BYTES: usize = 1 << 20;

/// Solves a text input: a link, a file or standard input. A text longer
/// than [`PART_BYTES`] that starts as a batch is read, solved and written
/// a part at a time, in order.
fn solve_text_input(
    path: &Path,
    run: &TextRun,
    target: &Target,
    out: &mut impl Write,
) -> io::Result<Status> {
    let failed = |e: String| {
        eprintln!("sudoku-lens: {e}");
        Ok(Status::Malformed)
    };
    if super::as_link(path).is_some() {
        return match read_input(path) {
            Ok((name, text)) => solve_text(&name, &text, run, target, out),
            Err(e) => failed(e),
        };
    }
    let mut text = match super::TextReader::open(path) {
        Ok(t) => t,
        Err(e) => return failed(e),
    };
    let (first, mut ended) = match text.part(PART_BYTES) {
        Ok(p) => p,
        Err(e) => return failed(e),
    };
    let first = match first.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => first,
    };
    let name = text.name().to_string();
    let batch = !ended && matches!(parse(&first, &name, run.layout), Ok(Document::Batch(_)));
    if !batch {
        // One puzzle, or a text short enough to read whole.
        let mut whole = first;
        while !ended {
            match text.part(PART_BYTES) {
                Ok((more, end)) => {
                    whole.push_str(&more);
                    ended = end;
                }
                Err(e) => return failed(e),
            }
        }
        return solve_text(&name, &whole, run, target, out);
    }
    let mut lines = BatchLines::new(&name, run.layout);
    let (mut part, mut before, mut status) = (first, 0, Status::Solved);
    loop {
        let entries = lines.parse(part.lines(), before);
        before += part.lines().count();
        status = status.max(solve_batch(&name, &entries, run.output, out)?);
        if ended {
            break;
        }
        match text.part(PART_BYTES) {
            Ok((next, end)) => (part, ended) = (next, end),
            Err(e) => {
                eprintln!("sudoku-lens: {e}");
                return Ok(status.max(Status::Malformed));
            }
        }
    }
    Ok(status.max(batch_not_exported(&name, target)))
}

/// A batch is not exported: says so when an export was asked for.
fn batch_not_exported(name: &str, target: &Target) -> Status {
    if target.is_none() {
        return Status::Solved;
    }
    eprintln!(
        "sudoku-lens: {name}: not exported: the file is a batch, and an export draws one puzzle"
    );
    Status::Malformed
}

/// Writes the clean rendered grid of a solved text puzzle to its target.
fn export_text(
    name: &str,
    puzzle: &Puzzle,
    solution: Option<&Vec<u8>>,
    target: &Target,
    options: &Options,
) -> Status {
    let written = match (target, solution) {
        (None, _) | (Some(Ok(_)), None) => return Status::Solved,
        (Some(Err(e)), _) => Err(e.clone()),
        (Some(Ok(path)), Some(solution)) => render_grid(puzzle, Some(solution), options)
            .map_err(|e| format!("{name}: cannot draw the solution: {e}"))
            .and_then(|image| save(&DynamicImage::ImageRgba8(image), path)),
    };
    match written {
        Ok(()) => Status::Solved,
        Err(e) => {
            eprintln!("sudoku-lens: {e}");
            Status::Malformed
        }
    }
}

fn solve_batch(
    name: &str,
    entries: &[Entry],
    output: Output,
    out: &mut impl Write,
) -> io::Result<Status> {
    let puzzles: Vec<&Puzzle> = entries
        .iter()
        .filter_map(|e| match e {
            Entry::Puzzle { puzzle: Ok(p), .. } => Some(p),
            _ => None,
        })
        .collect();
    let bar = super::progress_bar(puzzles.len());
    let results = solve_all(&puzzles, output.limit, 1, || bar.inc(1));
    bar.finish_and_clear();

    let mut results = results.iter();
    let mut status = Status::Solved;
    for entry in entries {
        match entry {
            Entry::Other(text) => {
                if !output.json() {
                    writeln!(out, "{text}")?;
                }
            }
            Entry::Puzzle { line, text, puzzle } => {
                let attempt = match puzzle {
                    Ok(p) => Attempt::Solved(p, results.next().expect("one result per puzzle")),
                    Err(e) => Attempt::Malformed(e.to_string()),
                };
                let st = report(out, &format!("{name}:{line}"), &attempt, output, Some(text))?;
                status = status.max(st);
            }
        }
    }
    Ok(status)
}

/// Prints one puzzle's result (stdout) and its problem, if any (stderr).
/// `batch_line` is the input line of a batch: printed unchanged when there
/// is no solution, so output lines stay aligned with input lines. With
/// `output.link`, the puzzle's f-puzzles link follows (on the line of a
/// batch).
fn report(
    out: &mut impl Write,
    place: &str,
    attempt: &Attempt,
    output: Output,
    batch_line: Option<&str>,
) -> io::Result<Status> {
    let (puzzle, result) = match attempt {
        Attempt::Malformed(msg) => {
            eprintln!("sudoku-lens: {msg}");
            if output.json() {
                writeln!(out, "{}", error_json(msg))?;
            } else if let Some(line) = batch_line {
                writeln!(out, "{line}")?;
            }
            return Ok(Status::Malformed);
        }
        Attempt::Solved(p, r) => (*p, *r),
    };
    let (count, first, mut status) = assess(&place, puzzle, result, output.limit, "", "");
    let link = output
        .link
        .then(|| puzzle_link(&place, puzzle, None, count, first.as_ref()));
    if let Some(Err(_)) = &link {
        status = status.max(Status::Malformed);
    }
    let link = link.and_then(Result::ok);
    if output.json() {
        let mut obj = json!({
            "layout": puzzle.kind(),
            "grid": puzzle.rows(),
        });
        if let Some(regions) = regions_json(puzzle) {
            obj["regions"] = regions;
        }
        if !puzzle.cages().is_empty() {
            obj["cages"] = cages_json(puzzle);
        }
        if !puzzle.rules().is_empty() {
            obj["rules"] = sudoku_lens::grid::json::rules_json(puzzle);
        }
        obj["solution"] = json!(first.as_ref().map(Puzzle::rows));
        obj["solutions"] = json!(count);
        if let Some(link) = &link {
            obj["link"] = json!(link);
        }
        if let Err(e) = result {
            obj["error"] = Value::String(e.to_string());
        }
        writeln!(out, "{obj}")?;
        return Ok(status);
    }
    match (batch_line, &first) {
        (Some(_), Some(sol)) => write!(out, "{}", sol.to_line())?,
        (Some(line), None) => write!(out, "{line}")?,
        (None, Some(sol)) => write!(out, "{}", sol.to_text())?,
        (None, None) => {}
    }
    match (batch_line, &link) {
        (Some(_), Some(link)) => writeln!(out, " {link}")?,
        (Some(_), None) => writeln!(out)?,
        (None, Some(link)) => writeln!(out, "{link}")?,
        (None, None) => {}
    }
    Ok(status)
}

fn error_json(msg: &str) -> Value {
    json!({ "layout": null, "grid": null, "solution": null, "solutions": 0, "error": msg })
}
