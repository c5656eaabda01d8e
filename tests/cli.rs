//! The `sudoku-lens` command as a user runs it: outputs, messages, exit codes.

use std::process::{Output, Stdio};

use sudoku_lens::grid::{Document, parse};

mod common;
use common::*;

const CLASSIC: &str =
    "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....";

#[test]
fn every_sample_solves_to_its_expected_solution() {
    let mut seen = 0;
    for (name, path, solution) in sample_solutions() {
        let expected = std::fs::read_to_string(solution).unwrap();
        let o = run(&["solve", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert_eq!(stdout(&o), expected, "{name}");
        seen += 1;
    }
    assert!(seen >= 10, "all shapes have a sample, found {seen}");
}

#[test]
fn one_line_from_stdin_prints_one_line() {
    let o = run_stdin(&["solve", "-"], &format!("{CLASSIC}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1);
    let sol = out.trim();
    assert_eq!(sol.len(), 81);
    for (g, s) in CLASSIC.chars().zip(sol.chars()) {
        assert!(g == '.' || g == s, "givens are kept");
    }
}

#[test]
fn pretty_printed_input_gets_pretty_output() {
    let rows: Vec<String> = CLASSIC
        .as_bytes()
        .chunks(9)
        .map(|r| {
            let s: Vec<String> = r.iter().map(|&b| (b as char).to_string()).collect();
            format!(
                "{} | {} | {}",
                s[..3].join(" "),
                s[3..6].join(" "),
                s[6..].join(" ")
            )
        })
        .collect();
    let text = format!(
        "{}\n------+-------+------\n{}\n------+-------+------\n{}\n",
        rows[..3].join("\n"),
        rows[3..6].join("\n"),
        rows[6..].join("\n")
    );
    let o = run_stdin(&["solve", "-"], &text);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 11);
    assert_eq!(out.lines().nth(3), Some("------+-------+------"));
    assert!(!out.contains('.'));
}

#[test]
fn json_for_a_samurai() {
    let path = samples().join("samurai.txt");
    let o = run(&["solve", "--json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["layout"], "samurai");
    assert_eq!(v["solutions"], 1);
    let grid = v["grid"].as_array().unwrap();
    assert_eq!(grid.len(), 21);
    assert_eq!(
        &grid[0].as_str().unwrap()[9..12],
        "   ",
        "outside is a space"
    );
    let sol = v["solution"].as_array().unwrap();
    assert!(sol.iter().all(|r| !r.as_str().unwrap().contains('.')));
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["layout", "grid", "solution", "solutions"]);
}

#[test]
fn json_counts_up_to_the_limit() {
    let o = run_stdin(&["solve", "--json", "--count", "5", "-"], &".".repeat(81));
    assert_eq!(o.status.code(), Some(4));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["solutions"], 5);
    assert!(v["solution"].is_array());
}

#[test]
fn batch_keeps_line_order_and_reports_each_failure() {
    let unsolvable = format!(".12345678{}", "9".to_string() + &".".repeat(71));
    let text = format!(
        "# a comment\n{CLASSIC}\n{}\n{unsolvable}\n\n{}\n{CLASSIC}\n",
        &CLASSIC[..80],
        ".".repeat(81)
    );
    let path = temp_file("batch", "b.txt", text.as_bytes());
    let o = run(&["solve", path.to_str().unwrap()]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(
        o.status.code(),
        Some(1),
        "a malformed line outranks the others: {err}"
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7, "one output line per input line: {out}");
    assert_eq!(lines[0], "# a comment");
    assert!(!lines[1].contains('.'));
    assert_eq!(lines[2], &CLASSIC[..80], "a malformed line is echoed");
    assert_eq!(lines[3], unsolvable, "an unsolvable line is echoed");
    assert_eq!(lines[4], "");
    assert!(
        !lines[5].contains('.'),
        "the first of several solutions is printed"
    );
    assert_eq!(lines[1], lines[6]);
    assert!(err.contains("b.txt:3: 80 characters on this line"), "{err}");
    assert!(err.contains("b.txt:4: no solution"), "{err}");
    assert!(err.contains("b.txt:6: at least 2 solutions"), "{err}");
    assert_eq!(err.lines().count(), 3, "{err}");
}

#[test]
fn batch_of_unique_puzzles_exits_zero_and_json_has_one_object_each() {
    let path = temp_file(
        "batch-ok",
        "ok.txt",
        format!("{CLASSIC}\n{CLASSIC}\n# end\n").as_bytes(),
    );
    let o = run(&["solve", "--json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let objects: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 2);
    assert!(
        objects
            .iter()
            .all(|v| v["solutions"] == 1 && v["layout"] == "classic")
    );
}

#[test]
fn conflicting_givens_name_both_cells_and_where_they_are() {
    let mut p = CLASSIC.to_string();
    p.replace_range(0..1, "3"); // row 1 has a 3 at column 3 already
    let rows: Vec<&str> = (0..9).map(|r| &p[r * 9..r * 9 + 9]).collect();
    let path = temp_file("conflict", "c.txt", rows.join("\n").as_bytes());
    let o = run(&["solve", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3));
    let err = stderr(&o);
    assert!(
        err.contains("givens conflict: 3 appears twice in row 1 (columns 1-9), at r1c1 (line 1, column 1) and r1c3 (line 1, column 3)"),
        "{err}"
    );
    assert!(stdout(&o).is_empty());
}

#[test]
fn no_solution_has_its_own_message_and_status() {
    let p = format!(".12345678{}", "9".to_string() + &".".repeat(71));
    let o = run_stdin(&["solve", "-"], &p);
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(stderr(&o).trim(), "sudoku-lens: <stdin>: no solution");
}

#[test]
fn several_solutions_print_the_first_and_exit_4() {
    let path = temp_file("multi", "m.txt", format!("{}\n", ".".repeat(81)).as_bytes());
    let o = run(&["solve", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(4));
    assert_eq!(stdout(&o).trim().len(), 81);
    assert!(stderr(&o).contains("at least 2 solutions, not one; printed the first"));
}

#[test]
fn malformed_input_names_file_line_and_column() {
    let mut text = CLASSIC.to_string();
    text.replace_range(40..41, "x");
    let path = temp_file("malformed", "bad.txt", text.as_bytes());
    let o = run(&["solve", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("bad.txt:1:41: expected a digit 1-9 or '.' for an empty cell, found 'x'"),
        "{err}"
    );
}

#[test]
fn samurai_canvas_errors_point_at_the_cell() {
    let text = std::fs::read_to_string(samples().join("samurai.txt")).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[10].replace_range(0..1, "5"); // outside the shape
    let path = temp_file("canvas", "s.txt", lines.join("\n").as_bytes());
    let o = run(&["solve", "--layout", "samurai", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o)
            .contains("s.txt:11:1: expected '#' or a space (outside the samurai shape), found '5'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn unreadable_files_exit_1() {
    let o = run(&["solve", "/nonexistent/p.txt"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).trim(),
        "sudoku-lens: /nonexistent/p.txt: no such file"
    );

    let bin = temp_file("binary", "p.dat", [0x89, b'P', b'N', b'G', 0xff, 0xfe]);
    let o = run(&["solve", bin.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("not a puzzle text file"),
        "{}",
        stderr(&o)
    );

    // Named as an image: taken as one, and the loader says what is wrong.
    let bin = temp_file("binary", "p.png", [0x89, b'P', b'N', b'G', 0xff, 0xfe]);
    let o = run(&["solve", bin.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("p.png"), "{}", stderr(&o));
    assert!(stderr(&o).contains("not an image"), "{}", stderr(&o));

    let empty = temp_file("empty", "e.txt", b"\n\n");
    let o = run(&["solve", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("the file holds no puzzle"));

    let dir = empty.parent().unwrap();
    let o = run(&["solve", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is a folder"), "{}", stderr(&o));
}

#[test]
fn several_inputs_report_the_worst_status() {
    let good = samples().join("classic.txt");
    let o = run(&["solve", good.to_str().unwrap(), "/nonexistent/q.txt"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o).lines().count(),
        9,
        "the good file is still solved"
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["solve"]).status.code(), Some(2));
    assert_eq!(run(&["solve", "--count", "0", "x"]).status.code(), Some(2));
    assert_eq!(run(&["solve", "--frobnicate", "x"]).status.code(), Some(2));
    let o = run(&["solve", "--layout", "hexagon", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown layout \"hexagon\""));
}

#[test]
fn no_arguments_without_a_display_prints_help() {
    // With a display, no arguments opens the desktop app instead.
    let o = bin()
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the binary runs");
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("Usage: sudoku-lens"));
}

#[test]
fn bench_reports_puzzles_per_second() {
    let path = temp_file(
        "bench",
        "b.txt",
        format!("{CLASSIC}\n{CLASSIC}\n").as_bytes(),
    );
    let o = run(&["bench", "--repeat", "1", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("2 puzzles") && out.contains("puzzles/s") && out.contains("2 unique"),
        "{out}"
    );
}

/// Runs the binary with its standard output a pipe already closed at the
/// other end, as `sudoku-lens ... | head -0` does: it must stop quietly,
/// with no panic and no error message.
fn run_into_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    bin()
        .args(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("the binary runs")
}

fn assert_quiet_on_a_closed_pipe(args: &[&str]) {
    let o = run_into_closed_pipe(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    assert_eq!(stderr(&o), "", "{args:?}");
}

#[test]
fn solve_stops_quietly_when_the_output_closes() {
    let path = samples().join("samurai.txt");
    assert_quiet_on_a_closed_pipe(&["solve", path.to_str().unwrap()]);
}

#[test]
fn read_stops_quietly_when_the_output_closes() {
    let image = images().join("classic-screen-light.png");
    assert_quiet_on_a_closed_pipe(&["read", image.to_str().unwrap()]);
}

#[test]
fn eval_stops_quietly_when_the_output_closes() {
    // One image, its ground truth beside it: one line of output, the
    // summary.
    let expected = std::fs::read_to_string(images().join("classic-screen-light.txt")).unwrap();
    let Document::Single(puzzle) = parse(&expected, "expected", None).unwrap() else {
        panic!("one puzzle")
    };
    let truth: Vec<String> = puzzle.values().iter().map(u8::to_string).collect();
    let image = temp_file(
        "eval-pipe",
        "a.png",
        std::fs::read(images().join("classic-screen-light.png")).unwrap(),
    );
    std::fs::write(image.with_extension("txt"), truth.join(" ")).unwrap();
    let dir = image.parent().unwrap().to_str().unwrap();
    let o = run(&["eval", dir]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("1 images"), "{}", stdout(&o));
    assert_quiet_on_a_closed_pipe(&["eval", dir]);
}

#[test]
fn bench_stops_quietly_when_the_output_closes() {
    let path = temp_file("bench-pipe", "b.txt", CLASSIC.as_bytes());
    assert_quiet_on_a_closed_pipe(&["bench", "--repeat", "1", path.to_str().unwrap()]);
}

fn killer_solution() -> String {
    std::fs::read_to_string(samples().join("killer.solution.txt")).unwrap()
}

#[test]
fn killer_json_has_its_layout_and_cages_and_reads_back() {
    let killer = samples().join("killer.txt");
    let o = run(&["solve", "--json", killer.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["layout"], "killer");
    assert_eq!(v["solutions"], 1);
    let cages = v["cages"].as_array().unwrap();
    assert_eq!(cages.len(), 30);
    assert_eq!(
        cages[0],
        serde_json::json!({"sum": 12, "cells": [[0, 0], [0, 1], [0, 2]]})
    );
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["layout", "grid", "cages", "solution", "solutions"]);
    // The output is itself a puzzle file: the same solution, as text.
    let path = temp_file("killer-json", "killer.json", stdout(&o).as_bytes());
    let o = run(&["solve", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), killer_solution());
}

#[test]
fn export_link_then_the_link_as_input() {
    let killer = samples().join("killer.txt");
    let o = run(&["solve", "--export-link", killer.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let (solution, link) = out.trim_end().rsplit_once('\n').unwrap();
    assert_eq!(format!("{solution}\n"), killer_solution());
    assert!(link.starts_with("https://f-puzzles.com/?load="), "{link}");
    let o = run(&["solve", link]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), killer_solution());
    // A file holding the link, and the SudokuPad form of it.
    let data = link.split("load=").nth(1).unwrap();
    let file = temp_file(
        "link-file",
        "link.txt",
        format!("https://sudokupad.app/fpuzzles{data}\n").as_bytes(),
    );
    let o = run(&["solve", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), killer_solution());
}

#[test]
fn export_link_in_a_batch_and_in_json() {
    let batch = temp_file(
        "link-batch",
        "b.txt",
        format!("{CLASSIC}\n{CLASSIC}\n").as_bytes(),
    );
    let o = run(&["solve", "--export-link", batch.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "one line per input line");
    for line in &lines {
        let (solution, link) = line.split_once(' ').unwrap();
        assert_eq!(solution.len(), 81);
        assert!(link.starts_with("https://f-puzzles.com/?load="), "{link}");
    }
    let o = run(&["solve", "--json", "--export-link", batch.to_str().unwrap()]);
    let first: serde_json::Value =
        serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(
        first["link"].as_str(),
        Some(lines[0].split_once(' ').unwrap().1)
    );
}

#[test]
fn a_photos_link_carries_the_players_entries_and_checks_the_same() {
    // A screenshot with the player's digits (one of them a mistake): its
    // link holds them as the solver's own values, so checking the link
    // finds what checking the picture finds.
    let image = images().join("classic-screen-entries-mistake.png");
    let image = image.to_str().unwrap();
    let o = run(&["solve", "--export-link", image]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let link = out.lines().last().unwrap();
    assert!(link.starts_with("https://f-puzzles.com/?load="), "{link}");
    let from_image = run(&["check", image]);
    let from_link = run(&["check", link]);
    // Exit 5: mistakes found.
    assert_eq!(from_image.status.code(), Some(5), "{}", stdout(&from_image));
    assert_eq!(from_link.status.code(), from_image.status.code());
    assert_eq!(stdout(&from_link), stdout(&from_image));
}

#[test]
fn a_shape_without_an_f_puzzles_form_says_so() {
    let samurai = samples().join("samurai.txt");
    let o = run(&["solve", "--export-link", samurai.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(
            "no link: a samurai puzzle has no f-puzzles form: f-puzzles holds single square grids"
        ),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        stdout(&o).lines().count(),
        21,
        "the solution is still printed"
    );
}

#[test]
fn killer_mistakes_name_file_line_and_column() {
    let text = std::fs::read_to_string(samples().join("killer.txt"))
        .unwrap()
        .replacen("a=12", "a=50", 1);
    let path = temp_file("killer-bad", "k.txt", text.as_bytes());
    let o = run(&["solve", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).ends_with(
            "k.txt:21:1: cage 'a' has the sum 50, which its 3 cells cannot make: \
             3 different symbols of 1-9 add up to 6-24\n"
        ),
        "{}",
        stderr(&o)
    );
    // An f-puzzles rule the solver does not know is refused, not ignored.
    let json = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"clone":[{"cells":["R1C1"],"cloneCells":["R4C4"]}]}"#;
    let path = temp_file("fpuzzles-clone", "c.json", json.as_bytes());
    let o = run(&["solve", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("\"clone\" constraint"),
        "{}",
        stderr(&o)
    );
    // A rule it knows is solved: a thermometer on an empty 4x4 leaves
    // several solutions, each rising along it.
    let json = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"thermometer":[{"lines":[["R1C1","R1C2","R1C3","R1C4"]]}]}"#;
    let path = temp_file("fpuzzles-thermo", "t.json", json.as_bytes());
    let o = run(&["solve", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("1234\n"), "{}", stdout(&o));
}

#[test]
fn read_takes_rules_the_page_does_not_draw_and_refuses_rules_with_cells() {
    let image = images().join("classic-screen-light.png");
    let o = bin()
        .args(["read", "--json", "--rules", "antiking, diagonals"])
        .arg(&image)
        .output()
        .expect("the binary runs");
    let json: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)));
    assert_eq!(
        json["rules"],
        serde_json::json!(["antiking", "diagonal-", "diagonal+"]),
        "{}",
        stderr(&o)
    );
    let o = bin()
        .args(["read", "--rules", "antiking,thermo r1c1 r1c2"])
        .arg(&image)
        .output()
        .expect("the binary runs");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("rule 2 (`thermo r1c1 r1c2`): a thermometer names cells"),
        "{}",
        stderr(&o)
    );
}
