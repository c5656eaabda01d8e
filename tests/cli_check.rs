//! `sudoku-lens check` as a player runs it: outputs, JSON, exit statuses,
//! the marked picture; and `hint` from a puzzle with entries.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use image::RgbaImage;
use serde_json::Value;
use sudoku_lens::check::check_entries;
use sudoku_lens::grid::{Entries, Layout, Progress, Puzzle, parse_progress};
use sudoku_lens::overlay::{Options, render_grid};

mod common;
use common::*;

fn classic() -> (Puzzle, Puzzle) {
    (
        read_puzzle(&samples().join("classic.txt")),
        read_puzzle(&samples().join("classic.solution.txt")),
    )
}

/// The classic sample with the solution's digits in its first `n` empty
/// cells, plus `extra` entries (cell, value).
fn classic_with(n: usize, extra: &[(usize, u8)]) -> Progress {
    let (puzzle, solution) = classic();
    let mut e = vec![0u8; 81];
    for c in (0..81).filter(|&c| puzzle.values()[c] == 0).take(n) {
        e[c] = solution.values()[c];
    }
    for &(c, v) in extra {
        e[c] = v;
    }
    Progress::new(puzzle, Entries::from_values(e)).unwrap()
}

#[test]
fn the_sample_names_its_two_wrong_entries() {
    let path = samples().join("entries/classic.txt");
    let o = run(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].contains("conflicts with"), "{out}");
    assert!(lines[1].ends_with("breaks the puzzle"), "{out}");
    assert_eq!(lines[2], "2 mistakes, 30 to go");
}

#[test]
fn json_gives_cells_from_zero_and_the_counts() {
    let path = samples().join("entries/classic.txt");
    let o = run(&["check", "--json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let wrong = v["wrong"].as_array().unwrap();
    assert_eq!(wrong.len(), 2, "{v}");
    // The text lines name the same cells, from 1.
    let text = stdout(&run(&["check", path.to_str().unwrap()]));
    for (w, line) in wrong.iter().zip(text.lines()) {
        let (r, c) = (
            w["cell"][0].as_u64().unwrap(),
            w["cell"][1].as_u64().unwrap(),
        );
        assert!(
            line.starts_with(&format!("r{}c{}:", r + 1, c + 1)),
            "{line} / {w}"
        );
        assert!(
            line.ends_with(w["reason"].as_str().unwrap()),
            "{line} / {w}"
        );
        assert!((1..=9).contains(&w["wrote"].as_u64().unwrap()));
    }
    assert_eq!(v["remaining"], 30);
    assert_eq!(v["solved"], false);
    assert_eq!(v["givens"], "unique");
}

#[test]
fn all_correct_so_far_then_solved() {
    let p = classic_with(20, &[]);
    let path = temp_file("so-far", "mine.txt", p.to_text());
    let o = run(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!("all correct so far, {} to go\n", 81 - 26 - 20)
    );

    let p = classic_with(81, &[]);
    let path = temp_file("solved", "mine.txt", p.to_text());
    let o = run(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "solved correctly\n");
    let o = run(&["check", "--json", path.to_str().unwrap()]);
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["solved"], true);
    assert_eq!(v["remaining"], 0);
    assert_eq!(v["wrong"].as_array().unwrap().len(), 0);
}

#[test]
fn a_solution_page_is_valid_or_not() {
    let path = samples().join("classic.solution.txt");
    let o = run(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "solved correctly\n");

    // Two digits of row 1 swapped: each now repeats in its column.
    let (_, solution) = classic();
    let mut v = solution.values().to_vec();
    v.swap(0, 1);
    let bad = solution.with_values(v);
    let path = temp_file("page", "page.txt", bad.to_text());
    let o = run(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(5), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("repeats in column"), "{out}");
    assert!(
        out.ends_with("wrong\n") && out.contains("not a valid solution"),
        "{out}"
    );
}

#[test]
fn givens_with_several_solutions_are_said_and_still_checked() {
    let text = "53..7....\n6..195...\n.98......\n.........\n.........\n\
                .........\n.........\n.........\n.........\n\
                entries:\n..4......\n.........\n.........\n.........\n.........\n\
                .........\n.........\n.........\n.........\n";
    let path = temp_file("several", "few.txt", text);
    let o = run(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("several solutions"), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("all correct so far"),
        "{}",
        stdout(&o)
    );

    let clash = text.replacen("..4......", "..5......", 1);
    let path = temp_file("several-clash", "few.txt", &clash);
    let o = run(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("r1c3: wrote 5, conflicts with r1c1"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_malformed_entries_grid_is_named_by_line_and_column() {
    let (puzzle, _) = classic();
    let text = format!(
        "{}\nentries:\n..?......\n{}",
        puzzle.to_text(),
        ".........\n".repeat(8)
    );
    let path = temp_file("malformed", "bad.txt", &text);
    let o = run(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("bad.txt:12:3:"), "{err}");
    assert!(err.contains("'?'"), "{err}");
}

/// Red at a pixel: the marks' red, not paper, print or the blue of entries.
fn is_red(p: &image::Rgba<u8>) -> bool {
    p[0] > 150 && p[1] < 100 && p[2] < 100
}

#[test]
fn export_of_a_text_marks_the_wrong_entry_in_red_only() {
    // r1c1..: the first empty cell holds a wrong digit that clashes with a
    // given of its row.
    let (puzzle, solution) = classic();
    let first = (0..81).find(|&c| puzzle.values()[c] == 0).unwrap();
    let row_given = (0..9)
        .map(|c| puzzle.values()[first / 9 * 9 + c])
        .find(|&v| v != 0)
        .unwrap();
    let second = (0..81).filter(|&c| puzzle.values()[c] == 0).nth(1).unwrap();
    let p = classic_with(
        0,
        &[(first, row_given), (second, solution.values()[second])],
    );
    let dir = temp_dir("export-text");
    let input = dir.join("mine.txt");
    std::fs::write(&input, p.to_text()).unwrap();
    let out = dir.join("marked.png");
    let o = run(&[
        "check",
        input.to_str().unwrap(),
        "--export",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    let image = image::open(&out).unwrap().to_rgba8();
    // 64 pixels per cell and half a cell of margin (the rendered grid).
    let centre = |cell: usize| {
        let (r, c) = (cell / 9, cell % 9);
        *image.get_pixel(32 + 64 * c as u32 + 32, 32 + 64 * r as u32 + 32)
    };
    assert!(is_red(&centre(first)), "{:?}", centre(first));
    for cell in (0..81).filter(|&c| c != first) {
        let (r, c) = (cell / 9, cell % 9);
        for (dx, dy) in [(8, 8), (56, 8), (8, 56), (56, 56)] {
            let px = image.get_pixel(32 + 64 * c as u32 + dx, 32 + 64 * r as u32 + dy);
            assert!(!is_red(px), "{cell} ({dx}, {dy}) is red: {px:?}");
        }
    }
}

/// A rendered full grid saved as PNG: what a screenshot of a solution page
/// looks like to the reader.
fn solution_page(test: &str, values: Vec<u8>) -> PathBuf {
    let puzzle = Puzzle::empty(Arc::new(Layout::classic())).with_values(values);
    let image: RgbaImage = render_grid(&puzzle, None, &Options::default()).unwrap();
    let path = temp_dir(test).join("page.png");
    image.save(&path).unwrap();
    path
}

#[test]
fn an_image_of_a_full_grid_is_checked_as_a_solution_and_marked() {
    let (_, solution) = classic();
    let good = solution_page("image-good", solution.values().to_vec());
    let o = run(&["check", good.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(stdout(&o), "solved correctly\n");

    // A mistake the reader's own check would take for a misread: two
    // digits of a row swapped.
    let mut v = solution.values().to_vec();
    v.swap(3, 4);
    let bad = solution_page("image-bad", v);
    let out = bad.with_file_name("marked.png");
    let o = run(&[
        "check",
        bad.to_str().unwrap(),
        "--export",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(5), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("r1c4: "), "{}", stdout(&o));
    let image = image::open(&out).unwrap().to_rgba8();
    // r1c4's centre, in the rendered grid's pixels.
    assert!(is_red(image.get_pixel(32 + 64 * 3 + 32, 64)));
    assert!(!is_red(image.get_pixel(32 + 64 * 8 + 32, 32 + 64 * 8 + 32)));
}

#[test]
fn an_image_of_givens_is_all_correct_so_far() {
    let images = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/images");
    let o = run(&[
        "check",
        images.join("classic-screen-light.png").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).starts_with("all correct so far, "),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_photo_with_handwriting_lists_the_digits_not_read_for_sure() {
    // The sample's handwriting reads for sure: the list is there, empty,
    // and the text ends with the plain summary.
    let image = images().join("classic-photo-entries.jpg");
    let o = run(&["check", "--json", image.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["unsure"], serde_json::json!([]), "{v}");
    let o = run(&["check", image.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(!out.contains("not read for sure"), "{out}");
    assert!(out.trim_end().ends_with(" to go"), "{out}");
    let o = run(&["read", "--json", image.to_str().unwrap()]);
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["unsure"], serde_json::json!([]), "{v}");
}

#[test]
fn hint_starts_from_the_correct_entries() {
    let path = samples().join("entries/classic.txt");
    let o = run(&["hint", "--json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.matches("(left out)").count(), 2, "{err}");
    let (_, solution) = classic();
    let progress =
        sudoku_lens::grid::parse_progress(&std::fs::read_to_string(&path).unwrap(), "sample", None)
            .unwrap();
    let step: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    for p in step["placements"].as_array().unwrap() {
        let (r, c, d) = (
            p[0].as_u64().unwrap() as usize,
            p[1].as_u64().unwrap() as usize,
            p[2].as_u64().unwrap() as u8,
        );
        assert_eq!(solution.values()[r * 9 + c], d, "{step}");
        // Not a cell the player already filled correctly.
        let e = progress.entries().values()[r * 9 + c];
        assert!(e == 0 || e != d, "{step}");
    }
}

#[test]
fn solve_and_rate_work_on_the_givens_of_a_text_with_entries() {
    let path = samples().join("entries/classic.txt");
    let (puzzle, solution) = classic();
    let text = std::fs::read_to_string(&path).unwrap();
    let progress = parse_progress(&text, "classic.txt", None).unwrap();
    assert_eq!(progress.puzzle().values(), puzzle.values());

    let o = run(&["solve", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: String = stdout(&o).lines().collect();
    let expected: String = solution.values().iter().map(|d| d.to_string()).collect();
    assert_eq!(rows, expected);
    let note = stderr(&o);
    assert!(note.contains("solving the givens"), "{note}");
    assert!(note.contains("25 entries are not used"), "{note}");

    let o = run(&["rate", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let given_text = puzzle.to_text();
    let first_row = given_text.lines().next().unwrap();
    assert!(stdout(&o).contains(first_row), "{}", stdout(&o));
    assert!(stderr(&o).contains("rating the givens"), "{}", stderr(&o));
}

/// The solving-app screenshots whose player's digits are in another ink
/// than the givens' (the last with its mistake in a third, red): their
/// expected reading (givens and entries).
const SCREEN_ENTRIES: [&str; 3] = [
    "classic-screen-entries-light",
    "classic-screen-entries-dark",
    "classic-screen-entries-mistake",
];

fn expected_progress(name: &str) -> Progress {
    let text = std::fs::read_to_string(images().join(format!("{name}.txt"))).unwrap();
    parse_progress(&text, name, None).unwrap()
}

#[test]
fn a_screenshot_reads_its_players_digits_as_entries() {
    for name in SCREEN_ENTRIES {
        let image = images().join(format!("{name}.png"));
        let expected = expected_progress(name);
        assert!(
            !expected.entries().is_empty(),
            "{name}: no entries expected"
        );
        let o = run(&["read", "--entries", image.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert_eq!(stdout(&o), expected.to_text(), "{name}");
        let o = run(&["read", "--json", image.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        let rows = expected
            .puzzle()
            .with_values(expected.entries().values().to_vec())
            .rows();
        assert_eq!(v["entries"], serde_json::json!(rows), "{name}");
    }
}

#[test]
fn check_of_a_screenshot_names_the_wrong_entry() {
    for name in SCREEN_ENTRIES {
        let image = images().join(format!("{name}.png"));
        let expected = check_entries(&expected_progress(name));
        assert_eq!(expected.wrong.len(), 1, "{name}: one mistake drawn");
        let o = run(&["check", image.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(5), "{name}: {}", stderr(&o));
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{name}: {out}");
        let named = format!(
            "{}: wrote {}",
            expected.wrong[0].name, expected.wrong[0].wrote
        );
        assert!(lines[0].starts_with(&named), "{name}: {out}");
        assert_eq!(lines[1], expected.summary(), "{name}");
    }
}
