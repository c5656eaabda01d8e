//! `sudoku-lens solve`: text puzzles in, solutions out.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};
use sudoku_lens::batch::solve_all;
use sudoku_lens::grid::{Document, Entry, Layout, Puzzle, parse};
use sudoku_lens::solve::{Outcome, SolveError, solve};

use super::{Status, read_input};

pub fn run(
    inputs: &[PathBuf],
    json: bool,
    limit: u64,
    layout: Option<&Layout>,
) -> Result<Status, String> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut status = Status::Solved;
    for path in inputs {
        let st = match read_input(path) {
            Err(e) => {
                eprintln!("sudoku-lens: {e}");
                Status::Malformed
            }
            Ok((name, text)) => match solve_text(&name, &text, json, limit, layout, &mut out) {
                Ok(st) => st,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(status),
                Err(e) => return Err(format!("cannot write the output: {e}")),
            },
        };
        status = status.max(st);
    }
    match out.flush() {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the output: {e}"))
        }
        _ => Ok(status),
    }
}

/// What became of one puzzle, for the output and the exit status.
enum Verdict<'a> {
    Malformed(String),
    Solved(&'a Puzzle, Result<Outcome, SolveError>),
}

fn solve_text(
    name: &str,
    text: &str,
    json: bool,
    limit: u64,
    layout: Option<&Layout>,
    out: &mut impl Write,
) -> io::Result<Status> {
    let doc = match parse(text, name, layout) {
        Ok(doc) => doc,
        Err(e) => {
            eprintln!("sudoku-lens: {e}");
            if json {
                writeln!(out, "{}", error_json(&e.to_string()))?;
            }
            return Ok(Status::Malformed);
        }
    };
    match doc {
        Document::Single(p) => {
            let result = solve(&p, limit, 1);
            report(out, name, &Verdict::Solved(&p, result), json, limit, None)
        }
        Document::Batch(entries) => solve_batch(name, &entries, json, limit, out),
    }
}

fn solve_batch(
    name: &str,
    entries: &[Entry],
    json: bool,
    limit: u64,
    out: &mut impl Write,
) -> io::Result<Status> {
    let puzzles: Vec<&Puzzle> = entries
        .iter()
        .filter_map(|e| match e {
            Entry::Puzzle { puzzle: Ok(p), .. } => Some(p),
            _ => None,
        })
        .collect();
    let bar = if io::stderr().is_terminal() {
        ProgressBar::new(puzzles.len() as u64).with_style(
            ProgressStyle::with_template(
                "{spinner} {pos}/{len} puzzles [{bar:30}] {elapsed} so far, {eta} left",
            )
            .expect("valid template")
            .progress_chars("=> "),
        )
    } else {
        ProgressBar::hidden()
    };
    let results = solve_all(&puzzles, limit, 1, || bar.inc(1));
    bar.finish_and_clear();

    let mut results = results.into_iter();
    let mut status = Status::Solved;
    for entry in entries {
        match entry {
            Entry::Other(text) => {
                if !json {
                    writeln!(out, "{text}")?;
                }
            }
            Entry::Puzzle { line, text, puzzle } => {
                let verdict = match puzzle {
                    Ok(p) => Verdict::Solved(p, results.next().expect("one result per puzzle")),
                    Err(e) => Verdict::Malformed(e.to_string()),
                };
                let st = report(
                    out,
                    &format!("{name}:{line}"),
                    &verdict,
                    json,
                    limit,
                    Some(text),
                )?;
                status = status.max(st);
            }
        }
    }
    Ok(status)
}

/// Prints one puzzle's result (stdout) and its problem, if any (stderr).
/// `batch_line` is the input line of a batch: printed unchanged when there
/// is no solution, so output lines stay aligned with input lines.
fn report(
    out: &mut impl Write,
    place: &str,
    verdict: &Verdict,
    json: bool,
    limit: u64,
    batch_line: Option<&str>,
) -> io::Result<Status> {
    let (puzzle, result) = match verdict {
        Verdict::Malformed(msg) => {
            eprintln!("sudoku-lens: {msg}");
            if json {
                writeln!(out, "{}", error_json(msg))?;
            } else if let Some(line) = batch_line {
                writeln!(out, "{line}")?;
            }
            return Ok(Status::Malformed);
        }
        Verdict::Solved(p, r) => (*p, r),
    };
    let (count, first, status) = match result {
        Err(e) => {
            eprintln!("sudoku-lens: {place}: {e}");
            (0, None, Status::NoSolution)
        }
        Ok(o) if o.count == 0 => {
            eprintln!("sudoku-lens: {place}: no solution");
            (0, None, Status::NoSolution)
        }
        Ok(o) => {
            let status = if o.count > 1 {
                let how_many = if o.count >= limit {
                    format!("at least {} solutions", o.count)
                } else {
                    format!("{} solutions", o.count)
                };
                eprintln!("sudoku-lens: {place}: {how_many}, not one; printed the first");
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
    };
    if json {
        let mut obj = json!({
            "layout": puzzle.layout().name(),
            "grid": puzzle.rows(),
            "solution": first.as_ref().map(Puzzle::rows),
            "solutions": count,
        });
        if let Err(e) = result {
            obj["error"] = Value::String(e.to_string());
        }
        writeln!(out, "{obj}")?;
    } else if let Some(sol) = &first {
        write!(out, "{}", sol.to_text())?;
    } else if let Some(line) = batch_line {
        writeln!(out, "{line}")?;
    }
    Ok(status)
}

fn error_json(msg: &str) -> Value {
    json!({ "layout": null, "grid": null, "solution": null, "solutions": 0, "error": msg })
}
