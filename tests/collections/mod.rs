//! The shared puzzle collections (`../shared/data/puzzles`) for the tests and
//! benchmarks that measure on them: found, read with the library's own
//! parser, and the samurai set checked against its solution files.
//!
//! A test includes it as `mod collections;`, a benchmark with
//! `#[path = "../tests/collections/mod.rs"] mod collections;`; each uses
//! only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use sudoku_lens::grid::{Document, Layout, parse_file};
use sudoku_lens::solve::SudokuSolver;

/// The shared collections' folder, when it is beside the checkout. Under
/// CI (`CI=true`) it must be: a check that found nothing to check there
/// would pass without checking anything, so its absence fails instead.
pub fn dir() -> Option<PathBuf> {
    shared("puzzles")
}

/// `../shared/data/NAME` beside the checkout, when it is there; a failure
/// under CI when it is not (see [`dir`]).
pub fn shared(name: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(name);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{} is missing: CI needs the shared data beside the checkout",
        dir.display()
    );
    None
}

/// The `.json` files of `dir`, sorted by name.
pub fn json_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "json") {
            paths.push(path);
        }
    }
    paths.sort();
    Ok(paths)
}

/// Reads `NNN.solution.txt` (rows of digits) as values per cell.
pub fn solution_values(path: &Path) -> Vec<u8> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .chars()
        .filter_map(|c| c.to_digit(36))
        .map(|d| d as u8)
        .collect()
}

/// The givens of every puzzle in a file (a batch of lines, or one puzzle).
pub fn load(path: &Path) -> Vec<Vec<u8>> {
    parse_file(path, None)
        .and_then(Document::into_puzzles)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|p| p.values().to_vec())
        .collect()
}

/// A puzzle with one solution, named by its file.
#[derive(Clone)]
pub struct Named {
    pub name: String,
    pub values: Vec<u8>,
    pub solution: Vec<u8>,
}

/// The samurai puzzles of `dir` (`NAME.txt` beside `NAME.solution.txt`) that
/// have exactly one solution, in name order; the solver's solution must be
/// the file's.
pub fn samurai(dir: &Path) -> Vec<Named> {
    let mut solver = SudokuSolver::new(Arc::new(Layout::samurai()));
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| {
            let n = e.ok()?.file_name().to_string_lossy().into_owned();
            n.strip_suffix(".solution.txt").map(str::to_string)
        })
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let values = load(&dir.join(format!("{name}.txt"))).swap_remove(0);
        let mut found = vec![0u8; values.len()];
        if solver.solve_into(&values, 2, &mut found) != Ok(1) {
            continue; // the set's one puzzle with several solutions
        }
        let solution = load(&dir.join(format!("{name}.solution.txt"))).swap_remove(0);
        assert_eq!(found, solution, "{name}: the solver and the file agree");
        out.push(Named {
            name,
            values,
            solution,
        });
    }
    out
}

/// Every `len / count`-th item.
pub fn spread<T: Clone>(items: &[T], count: usize) -> Vec<T> {
    let step = (items.len() / count.max(1)).max(1);
    items.iter().step_by(step).take(count).cloned().collect()
}
