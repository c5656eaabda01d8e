//! What the command-line tests share: running the binary, its output as
//! text, the samples' folders, a fresh folder of each test's own, and one
//! puzzle parsed. Each test file uses part of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use sudoku_lens::grid::{Document, Puzzle, parse};

/// The `sudoku-lens` binary, ready for arguments.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-lens"))
}

pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// Runs with `input` on standard input.
pub fn run_stdin(args: &[&str], input: &str) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

pub fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/puzzles")
}

pub fn images() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/images")
}

/// Each text sample of `samples/puzzles` (file name, puzzle path) with the
/// path of its `.solution.txt`, in name order.
pub fn sample_solutions() -> Vec<(String, PathBuf, PathBuf)> {
    let mut out: Vec<(String, PathBuf, PathBuf)> = std::fs::read_dir(samples())
        .unwrap()
        .filter_map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name()?.to_str()?.to_string();
            if name.ends_with(".solution.txt") || !name.ends_with(".txt") {
                return None;
            }
            let solution = path.with_file_name(name.replace(".txt", ".solution.txt"));
            Some((name, path, solution))
        })
        .collect();
    out.sort();
    out
}

/// A fresh, empty folder of this test's own (named by the test file, the
/// process and `test`, so parallel tests and runs never share one).
pub fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "sudoku-lens-{}-{}-{test}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A file with `content` in a fresh folder of this test's own.
pub fn temp_file(test: &str, name: &str, content: impl AsRef<[u8]>) -> PathBuf {
    let path = temp_dir(test).join(name);
    std::fs::write(&path, content).unwrap();
    path
}

/// The one puzzle of a text.
pub fn puzzle(text: &str) -> Puzzle {
    match parse(text, "test", None).unwrap() {
        Document::Single(p) => p,
        Document::Batch(_) => panic!("one puzzle expected: {text}"),
    }
}

/// The one puzzle of a file.
pub fn read_puzzle(path: &Path) -> Puzzle {
    puzzle(&std::fs::read_to_string(path).unwrap())
}
