//! Solves a puzzle text of any shape (classic, samurai, jigsaw, killer, 16x16...)
//! and prints the solution in the input's own format.
//!
//! `cargo run --release --example solve_text -- [FILE]`
//!
//! FILE defaults to the bundled samurai, `samples/puzzles/samurai.txt`. A
//! batch file (one puzzle per line) prints one solution per puzzle.

use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sudoku_lens::grid::{Document, Entry, Puzzle, parse};
use sudoku_lens::solve::solve;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("solve_text: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let path = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/puzzles/samurai.txt")
        });
    let name = path.display().to_string();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{name}: {e}"))?;

    // The shape is told from the text; errors name the line and column.
    let puzzles: Vec<Puzzle> = match parse(&text, &name, None)? {
        Document::Single(puzzle) => vec![puzzle],
        Document::Batch(entries) => entries
            .into_iter()
            .filter_map(|entry| match entry {
                Entry::Puzzle { puzzle, .. } => Some(puzzle),
                Entry::Other(_) => None,
            })
            .collect::<Result<_, _>>()?,
    };

    for puzzle in &puzzles {
        // Count up to 2 solutions to know that the first is the only one.
        let solved = solve(puzzle, 2, 1)?;
        let Some(solution) = solved.solutions.first() else {
            return Err(format!("{name}: a puzzle has no solution").into());
        };
        if solved.count > 1 {
            eprintln!("{name}: several solutions; printing the first");
        }
        print!("{}", puzzle.with_values(solution.clone()).to_text());
    }
    Ok(())
}
