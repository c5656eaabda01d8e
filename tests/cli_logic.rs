//! `sudoku-lens hint`, `explain` and `rate` as a user runs them: outputs,
//! messages, exit codes.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;
use sudoku_lens::grid::Puzzle;

mod common;
use common::*;

/// The solution's symbol at a canvas row and column (from 0).
fn solution_at(solution: &Puzzle, row: u64, col: u64) -> u8 {
    let cell = solution
        .layout()
        .cell_at(row as usize, col as usize)
        .unwrap_or_else(|| panic!("({row}, {col}) is a cell"));
    solution.values()[cell]
}

fn lines_json(o: &Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

#[test]
fn hint_names_the_next_step_in_words() {
    let path = samples().join("classic.txt");
    let o = run(&["hint", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "hidden single (1.2): Hidden single: in box 8, 5 can only go in r9c4.\n"
    );
    // And it is true: the solution has 5 at r9c4.
    let solution = read_puzzle(&samples().join("classic.solution.txt"));
    assert_eq!(solution_at(&solution, 8, 3), 5);
}

#[test]
fn hint_reads_an_image_as_read_does() {
    let image = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/images/classic-photo-page.jpg");
    let text = image.with_extension("txt");
    let from_image = run(&["hint", image.to_str().unwrap()]);
    let from_text = run(&["hint", text.to_str().unwrap()]);
    assert_eq!(from_image.status.code(), Some(0), "{}", stderr(&from_image));
    assert!(stdout(&from_text).starts_with("hidden single"));
    assert_eq!(stdout(&from_image), stdout(&from_text));
}

#[test]
fn hint_json_on_a_samurai_places_the_solutions_digit() {
    let path = samples().join("samurai.txt");
    let o = run(&["hint", "--json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = lines_json(&o);
    assert_eq!(v.len(), 1);
    let step = &v[0];
    assert_eq!(step["technique"], "hidden single");
    let p = step["placements"][0].as_array().unwrap();
    let solution = read_puzzle(&samples().join("samurai.solution.txt"));
    let (r, c, d) = (
        p[0].as_u64().unwrap(),
        p[1].as_u64().unwrap(),
        p[2].as_u64().unwrap(),
    );
    assert_eq!(solution_at(&solution, r, c) as u64, d);
    // The pattern is the cell, counted from 0; the sentence counts from 1
    // inside the named grid.
    assert_eq!(step["pattern"], serde_json::json!([[r, c]]));
    let text = step["explanation"].as_str().unwrap();
    assert!(text.contains("grid, r"), "{text}");
}

/// `explain --json` on every sample shape fills the grid with the
/// solution's digits and never removes one of them.
#[test]
fn explain_json_on_every_sample_follows_the_solution() {
    let mut seen = 0;
    for (name, path, solution) in sample_solutions() {
        let puzzle = read_puzzle(&path);
        let solution = read_puzzle(&solution);
        let o = run(&["explain", "--json", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let steps = lines_json(&o);
        let mut placed = 0;
        for st in &steps {
            for key in ["technique", "explanation"] {
                assert!(st[key].as_str().is_some_and(|s| !s.is_empty()), "{name}");
            }
            for p in st["placements"].as_array().unwrap() {
                let p: Vec<u64> = p
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap())
                    .collect();
                assert_eq!(
                    solution_at(&solution, p[0], p[1]) as u64,
                    p[2],
                    "{name}: {st}"
                );
                placed += 1;
            }
            for e in st["eliminations"].as_array().unwrap() {
                let e: Vec<u64> = e
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap())
                    .collect();
                assert_ne!(
                    solution_at(&solution, e[0], e[1]) as u64,
                    e[2],
                    "{name}: {st}"
                );
            }
        }
        let empty = puzzle.values().iter().filter(|&&v| v == 0).count();
        assert_eq!(placed, empty, "{name}: every empty cell is placed once");

        // The words: one line per step, rows and columns from 1.
        let words = run(&["explain", path.to_str().unwrap()]);
        assert_eq!(stdout(&words).lines().count(), steps.len(), "{name}");
        seen += 1;
    }
    assert!(seen >= 10, "all shapes have a sample, found {seen}");
}

#[test]
fn rate_prints_one_rating_per_puzzle_in_input_order() {
    let classic = samples().join("classic.txt");
    let batch = temp_file(
        "order",
        "batch.txt",
        "# two puzzles and a bad line\n\
         ....45.76....8....1.4...8....3657..1........79.......28.63...2.....2..953......18\n\
         ....45.76....8....1.4...8....3657..1........79.......28.63...2.....2..953......1x\n\
         .................................................................................\n",
    );
    let o = run(&["rate", classic.to_str().unwrap(), batch.to_str().unwrap()]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert_eq!(
        lines[0],
        "1.5 easy ....45.76/....8..../1.4...8../..3657..1/........7/9.......2/8.63...2./....2..95/3......18"
    );
    assert_eq!(
        lines[1],
        "1.5 easy ....45.76....8....1.4...8....3657..1........79.......28.63...2.....2..953......18"
    );
    assert!(lines[2].starts_with("- error "), "{out}");
    assert!(lines[3].starts_with("- error "), "{out}");
    let err = stderr(&o);
    let name = batch.display().to_string();
    assert!(err.contains(&format!("{name}:3:81")), "{err}");
    assert!(err.contains(&format!("{name}:4: ")), "{err}");
    assert!(err.contains("more than one solution"), "{err}");
    // A malformed line is the worst problem: status 1.
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn rate_json_counts_the_techniques() {
    let paths: Vec<PathBuf> = ["classic.txt", "16by16.txt", "samurai.txt"]
        .iter()
        .map(|n| samples().join(n))
        .collect();
    let mut args = vec!["rate", "--json"];
    args.extend(paths.iter().map(|p| p.to_str().unwrap()));
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows = lines_json(&o);
    assert_eq!(rows.len(), 3);
    for (row, path) in rows.iter().zip(&paths) {
        let puzzle = read_puzzle(path);
        let rating = row["rating"].as_f64().unwrap();
        assert!((1.0..=11.0).contains(&rating), "{row}");
        assert!(
            ["easy", "medium", "hard", "expert", "extreme"]
                .contains(&row["level"].as_str().unwrap())
        );
        assert_eq!(row["logic_solved"], true, "{row}");
        assert_eq!(
            row["puzzle"].as_str().unwrap(),
            puzzle.to_text().trim_end(),
            "the puzzle as given"
        );
        let used: u64 = row["techniques"]
            .as_object()
            .unwrap()
            .values()
            .map(|n| n.as_u64().unwrap())
            .sum();
        let empty = puzzle.values().iter().filter(|&&v| v == 0).count() as u64;
        assert!(used >= empty, "{row}: at least one step per empty cell");
    }
    assert_eq!(rows[0]["rating"], 1.5);
    assert_eq!(rows[0]["techniques"]["hidden single"], 36);
    assert_eq!(rows[0]["techniques"]["full house"], 19);
}

#[test]
fn bad_input_is_named_with_its_place() {
    let bad = temp_file(
        "bad",
        "bad.txt",
        "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...41x..5\n....8..79\n",
    );
    for cmd in ["hint", "explain", "rate"] {
        let o = run(&[cmd, bad.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!("{}:8:6:", bad.display())) && err.contains("'x'"),
            "{cmd}: {err}"
        );
    }
    // Two 5s in row 1: both cells named, with their line and column.
    let conflict = temp_file(
        "bad",
        "conflict.txt",
        "53..7...5\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...419..5\n....8..79\n",
    );
    let o = run(&["hint", conflict.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3));
    let err = stderr(&o);
    assert!(
        err.contains("line 1, column 1") && err.contains("line 1, column 9"),
        "{err}"
    );

    let o = run(&["explain", "no-such-file.txt"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no-such-file.txt: no such file"));

    let o = run(&["hint", std::env::temp_dir().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is a folder"), "{}", stderr(&o));

    let several = temp_file(
        "bad",
        "several.txt",
        format!("{}\n{}\n", ".".repeat(81), ".".repeat(81)),
    );
    let o = run(&["hint", several.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("several puzzles"), "{}", stderr(&o));
}

/// A copy of a file under another name in this test's folder.
fn temp_copy(test: &str, from: &Path, name: &str) -> PathBuf {
    let path = temp_file(test, name, "");
    std::fs::copy(from, &path).unwrap();
    path
}

#[test]
fn hint_tells_an_image_by_its_content_not_its_name() {
    let images = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/images");
    // A PNG and a PDF under names that say nothing: read as images, with
    // the hint of the puzzle they show.
    for (from, name) in [
        ("classic-screen-light.png", "screen.dat"),
        ("classic-pdf.pdf", "page"),
    ] {
        let from = images.join(from);
        let text = run(&["hint", from.with_extension("txt").to_str().unwrap()]);
        assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
        let renamed = temp_copy("sniff", &from, name);
        let o = run(&["hint", renamed.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert_eq!(stdout(&o), stdout(&text), "{name}");
    }
    // Text named like an image: taken as an image, and the message says
    // what is wrong with it.
    let fake = temp_file(
        "sniff",
        "puzzle.png",
        std::fs::read_to_string(samples().join("classic.txt")).unwrap(),
    );
    let o = run(&["hint", fake.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("puzzle.png") && err.contains("not an image in a supported format"),
        "{err}"
    );
    assert!(stdout(&o).is_empty());
}

#[test]
fn explain_says_where_it_is_stuck_on_several_solutions() {
    // The solution with every 1 and 2 taken out (they can swap), and one
    // more cell: the engine fills that cell, then nothing tells 1 from 2.
    let solution = read_puzzle(&samples().join("classic.solution.txt"));
    let mut values: Vec<u8> = solution
        .values()
        .iter()
        .map(|&v| if v <= 2 { 0 } else { v })
        .collect();
    let last = (0..81).rev().find(|&c| values[c] != 0).unwrap();
    values[last] = 0;
    let line: String = values
        .iter()
        .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
        .collect();
    let path = temp_file("stuck", "several.txt", format!("{line}\n"));
    let o = run(&["explain", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1, "the one step found: {out}");
    let err = stderr(&o);
    assert!(
        err.contains("several.txt: stuck after 1 step") && err.contains("more than one solution"),
        "{err}"
    );

    // Stuck at once: still said.
    values[last] = solution.values()[last];
    let line: String = values
        .iter()
        .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
        .collect();
    let path = temp_file("stuck", "at-once.txt", format!("{line}\n"));
    let o = run(&["explain", "--json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(4));
    assert!(stdout(&o).is_empty());
    assert!(stderr(&o).contains("stuck at the start"), "{}", stderr(&o));
}

#[test]
fn hint_export_draws_the_step_at_its_cells() {
    let path = samples().join("classic.txt");
    let out = temp_file("hint-export", "hint.png", "");
    let o = run(&[
        "hint",
        "--json",
        path.to_str().unwrap(),
        "--export",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let step = &lines_json(&o)[0];
    let drawn = image::open(&out).expect("a PNG written").to_rgba8();
    // The drawn grid: half a cell of margin, 64 pixels a cell.
    assert_eq!(drawn.dimensions(), (640, 640));
    let green_in = |row: u64, col: u64| {
        let mut n = 0;
        for y in 32 + row as u32 * 64..32 + (row as u32 + 1) * 64 {
            for x in 32 + col as u32 * 64..32 + (col as u32 + 1) * 64 {
                let p = drawn.get_pixel(x, y);
                n += usize::from(p[1] > 100 && p[0] < 80 && p[2] < 110);
            }
        }
        n
    };
    let place = &step["placements"][0];
    let (row, col) = (place[0].as_u64().unwrap(), place[1].as_u64().unwrap());
    assert!(green_in(row, col) > 100, "the placed digit in green");
    let other = (0..9).find(|&c| c != col).unwrap();
    let other_row = (row + 4) % 9;
    assert_eq!(green_in(other_row, other), 0, "nothing green elsewhere");

    let image = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/images/classic-photo-page.jpg");
    let out = temp_file("hint-export", "photo.png", "");
    let o = run(&[
        "hint",
        image.to_str().unwrap(),
        "--export",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let photo = image::open(&image).unwrap();
    let drawn = image::open(&out).expect("a PNG written");
    assert_eq!(
        (drawn.width(), drawn.height()),
        (photo.width(), photo.height())
    );
    assert_ne!(
        drawn.to_rgb8(),
        photo.to_rgb8(),
        "the step is drawn on the photo"
    );
}

#[test]
fn a_killer_is_hinted_and_rated_by_its_cages() {
    let killer = samples().join("killer.txt");
    let path = killer.to_str().unwrap();
    let o = run(&["hint", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let hint = stdout(&o);
    assert!(!hint.contains("No technique here applies"), "{hint}");
    assert!(
        [
            "Cage combinations: the ",
            "45 rule: ",
            "Last cell of a cage: "
        ]
        .iter()
        .any(|t| hint.contains(t)),
        "{hint}"
    );

    let o = run(&["rate", "--json", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let row = &lines_json(&o)[0];
    assert_eq!(row["logic_solved"], true, "{row}");
    assert!(row["rating"].as_f64().unwrap() < 11.0, "{row}");
    assert!(
        row["techniques"]["cage combinations"].as_u64().unwrap() > 0,
        "{row}"
    );
}
