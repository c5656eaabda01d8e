//! `sudoku-lens solve` on images: outputs, exports, messages and exit codes.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use image::{GrayImage, Luma};
use sudoku_lens::grid::{Document, Layout, Puzzle, parse};
use sudoku_lens::overlay::{Options, render_grid};

mod common;
use common::*;

const CLASSIC: &str =
    "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....";

/// A screenshot of `line` (a classic puzzle on one line) saved as PNG.
fn screenshot(dir: &Path, name: &str, line: &str) -> PathBuf {
    let options = Options {
        cell_px: 40,
        ..Options::default()
    };
    let path = dir.join(name);
    render_grid(&puzzle(line), None, &options)
        .unwrap()
        .save(&path)
        .unwrap();
    path
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every digit `read --json` finds in an image, as one line: the givens,
/// and the entries where there is none (the solution drawn onto a
/// screenshot is in another ink than its givens, so it reads as entries).
fn read_back(path: &Path) -> String {
    let o = run(&["read", "--json", s(path)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let rows = |key: &str| -> String {
        v[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect()
    };
    rows("grid")
        .chars()
        .zip(rows("entries").chars())
        .map(|(g, e)| if g == '.' { e } else { g })
        .collect()
}

#[test]
fn a_screenshot_is_solved_and_exported() {
    let dir = temp_dir("export");
    let input = screenshot(&dir, "puzzle.png", CLASSIC);
    let before = std::fs::read(&input).unwrap();
    let out = dir.join("out.png");
    let o = run(&["solve", "--json", s(&input), "--export", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["file"], s(&input));
    assert_eq!(v["solutions"], 1);
    assert_eq!(v["corners"].as_array().unwrap().len(), 4);
    assert!(v["uncertain"].is_array());
    assert_eq!(v["export"], s(&out));
    let solution = solution_rows(&v);
    assert_eq!(solution.len(), 81);
    assert!(!solution.contains('.'));
    assert_eq!(
        read_back(&out),
        solution,
        "the export reads as the solution"
    );
    assert_eq!(
        std::fs::read(&input).unwrap(),
        before,
        "the input is untouched"
    );

    // Text output is the solution, as for a text puzzle.
    let o = run(&["solve", s(&input)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).replace('\n', ""), solution);
}

#[test]
fn a_solved_killer_as_exported_reads_back_as_its_solution() {
    // The solution is drawn large beside the cages' sums and under their
    // dashed outlines: read whole, an 8 beside a 22 was a 6, and a 5
    // beside a 5 or a 2 under an outline no digit.
    let dir = temp_dir("export-killer");
    for name in [
        "killer-screen-dotted-givens.png",
        "killer-screen-dashed.png",
    ] {
        let input = images().join(name);
        let out = dir.join(name);
        let o = run(&["solve", "--json", s(&input), "--export", s(&out)]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(read_back(&out), solution_rows(&v), "{name} read back");
    }
}

#[test]
fn a_hexadecimal_page_is_exported_in_hexadecimal() {
    let dir = temp_dir("export-hex");
    let input = images().join("16x16-screen-hex-dark.png");
    let out = dir.join("out.png");
    let o = run(&["solve", "--json", s(&input), "--export", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let solution = solution_rows(&v);
    assert_eq!(solution.len(), 256);
    assert!(solution.contains('0') && !solution.contains('G'));
    // Drawn one symbol too high, the export would read as other symbols
    // (a 1 for each 0). Cells drawn over the app's highlighted row and
    // column may read as empty; none reads as another symbol.
    let back = read_back(&out);
    let wrong: Vec<(usize, char, char)> = solution
        .chars()
        .zip(back.chars())
        .enumerate()
        .filter(|&(_, (want, got))| got != '.' && got != want)
        .map(|(i, (want, got))| (i, want, got))
        .collect();
    assert!(wrong.is_empty(), "read back as other symbols: {wrong:?}");
    let read = back.chars().filter(|&c| c != '.').count();
    assert!(read >= 230, "{read} of 256 cells read back");
}

#[test]
fn a_jpeg_name_gets_a_jpeg() {
    let dir = temp_dir("jpeg");
    let input = screenshot(&dir, "p.png", CLASSIC);
    let out = dir.join("solved.JPG");
    let o = run(&["solve", s(&input), "--export", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..3], &[0xff, 0xd8, 0xff], "JPEG signature");
}

#[test]
fn an_image_without_a_grid_exits_1_naming_it() {
    let dir = temp_dir("nogrid");
    let path = dir.join("blank.png");
    GrayImage::from_pixel(300, 200, Luma([230]))
        .save(&path)
        .unwrap();
    let out = dir.join("out.png");
    let o = run(&["solve", s(&path), "--export", s(&out)]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).trim(),
        format!("sudoku-lens: no sudoku grid found in {}", path.display())
    );
    assert!(stdout(&o).is_empty());
    assert!(!out.exists(), "nothing exported");
}

#[test]
fn an_image_whose_puzzle_has_no_solution_exits_3() {
    let dir = temp_dir("nosolution");
    // r1c1 has no candidate: 1-8 in its row, 9 in its column.
    let line = format!(".12345678{}", "9".to_string() + &".".repeat(71));
    let path = screenshot(&dir, "stuck.png", &line);
    let out = dir.join("out.png");
    let o = run(&["solve", s(&path), "--export", s(&out)]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("sudoku-lens: {}: no solution", path.display())),
        "{err}"
    );
    assert!(stdout(&o).is_empty());
    assert!(!out.exists(), "nothing exported");
}

#[test]
fn an_image_with_conflicting_givens_names_both_cells() {
    let dir = temp_dir("conflict");
    let mut line = CLASSIC.to_string();
    line.replace_range(0..1, "3"); // row 1 holds a 3 at r1c3 already
    let path = screenshot(&dir, "clash.png", &line);
    let o = run(&["solve", s(&path)]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("givens conflict: 3 appears twice in row 1") && err.contains("r1c1"),
        "{err}"
    );
}

#[test]
fn an_image_with_several_solutions_draws_the_first_and_exits_4() {
    let dir = temp_dir("several");
    let line = format!("{}{}", &CLASSIC[..27], ".".repeat(54));
    let path = screenshot(&dir, "open.png", &line);
    let out = dir.join("first.png");
    let o = run(&["solve", s(&path), "--export", s(&out)]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "{}: at least 2 solutions, not one",
            path.display()
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "printed the first and drew it on {}",
            out.display()
        )),
        "{err}"
    );
    let printed = stdout(&o).replace('\n', "");
    assert_eq!(printed.len(), 81);
    assert_eq!(read_back(&out), printed, "the first solution is drawn");
}

#[test]
fn export_with_several_inputs_is_a_usage_error() {
    let dir = temp_dir("several-inputs");
    let a = screenshot(&dir, "a.png", CLASSIC);
    let o = run(&["solve", s(&a), s(&a), "--export", s(&dir.join("x.png"))]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("use --export-dir"), "{err}");
    // A folder of two images counts as two inputs.
    screenshot(&dir, "b.png", CLASSIC);
    let o = run(&["solve", s(&dir), "--export", s(&dir.join("x.png"))]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!dir.join("x.png").exists());
}

#[test]
fn a_folder_is_solved_into_an_export_dir() {
    let dir = temp_dir("folder");
    let photos = dir.join("photos");
    std::fs::create_dir_all(&photos).unwrap();
    screenshot(&photos, "one.png", CLASSIC);
    let open = format!("{}{}", &CLASSIC[..27], ".".repeat(54));
    screenshot(&photos, "two.png", &open);
    std::fs::write(photos.join("notes.txt"), "not an image").unwrap();
    let out = dir.join("solved");
    let o = run(&["solve", s(&photos), "--export-dir", s(&out)]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 18, "two grids, in name order");
    assert!(out.join("one.solved.png").is_file());
    assert!(out.join("two.solved.png").is_file());
    // Exports in the inputs' own folder are not taken as inputs next time,
    // and never overwrite an input.
    let o = run(&["solve", s(&photos), "--export-dir", s(&photos)]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let o = run(&["solve", s(&photos), "--export-dir", s(&photos)]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 18, "{}", stderr(&o));
}

#[test]
fn an_input_is_never_overwritten() {
    let dir = temp_dir("overwrite");
    let input = screenshot(&dir, "p.png", CLASSIC);
    let before = std::fs::read(&input).unwrap();
    let o = run(&["solve", s(&input), "--export", s(&input)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("which is the input"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&input).unwrap(), before);
    // Nor through --export-dir: an input named like an export.
    let named = screenshot(&dir, "q.solved.png", CLASSIC);
    let before = std::fs::read(&named).unwrap();
    let q = dir.join("q.png");
    std::fs::copy(&named, &q).unwrap();
    let o = run(&["solve", s(&q), s(&named), "--export-dir", s(&dir)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(std::fs::read(&named).unwrap(), before);
}

#[test]
fn a_text_puzzle_exports_a_rendered_grid() {
    let dir = temp_dir("text");
    let samurai = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/puzzles/samurai.txt");
    let out = dir.join("samurai.png");
    let o = run(&["solve", s(&samurai), "--export", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let expected = std::fs::read_to_string(samurai.with_file_name("samurai.solution.txt")).unwrap();
    assert_eq!(stdout(&o), expected, "text output as before");
    let o = run(&["read", "--json", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["layout"], "samurai");
    // The solution is drawn in another ink than the givens: it reads as
    // entries.
    let rows = |key: &str| -> Vec<String> {
        v[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().to_string())
            .collect()
    };
    let read: Vec<String> = rows("grid")
        .iter()
        .zip(rows("entries"))
        .map(|(g, e)| {
            g.chars()
                .zip(e.chars())
                .map(|(g, e)| if g == '.' { e } else { g })
                .collect()
        })
        .collect();
    let text = std::fs::read_to_string(&samurai).unwrap();
    let Document::Single(p) = parse(&text, "samurai.txt", None).unwrap() else {
        panic!()
    };
    let solution = sudoku_lens::solve::solve(&p, 1, 1).unwrap().solutions[0].clone();
    let solved = Puzzle::empty(Arc::new(Layout::samurai())).with_values(solution);
    assert_eq!(
        read,
        solved.rows(),
        "the rendered grid reads as the solution"
    );

    // A batch cannot be exported.
    let batch = dir.join("batch.txt");
    std::fs::write(&batch, format!("{CLASSIC}\n{CLASSIC}\n")).unwrap();
    let o = run(&["solve", s(&batch), "--export", s(&dir.join("b.png"))]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("the file is a batch"), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 2);
}

/// The dashed killer screenshot of the samples: `solve --export` reads its
/// cages, draws the solution into every cell, and leaves each cage's
/// printed sum in the top-left corner of its first cell as it was. (The
/// export is not read back: the solution's large digits reach the cage
/// outlines, and a few of them are then read as empty.)
#[test]
fn a_killer_screenshot_is_exported_with_its_sums_uncovered() {
    let input = images().join("killer-screen-dashed.png");
    let expected = read_puzzle(&input.with_extension("txt"));
    let out = temp_dir("killer-export").join("solved.png");
    let o = run(&["solve", "--json", s(&input), "--export", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["layout"], "killer", "{v}");
    let solution = solution_rows(&v);
    let want = sudoku_lens::solve::solve(&expected, 2, 1).unwrap();
    assert_eq!(want.count, 1, "the sample has one solution");
    let want: String = want.solutions[0]
        .iter()
        .map(|&d| char::from(b'0' + d))
        .collect();
    assert_eq!(solution, want);

    // The screenshot is upright and square: the cells lie evenly between
    // the top-left and bottom-right corners.
    let corner = |i: usize| {
        let c = &v["corners"][i];
        [c[0].as_f64().unwrap() as f32, c[1].as_f64().unwrap() as f32]
    };
    let ([x0, y0], [x1, _]) = (corner(0), corner(2));
    let cell = (x1 - x0) / 9.0;
    let before = image::open(&input).unwrap().to_rgb8();
    let after = image::open(&out).unwrap().to_rgb8();
    // Pixels of a cell's box from (u0, v0) to (u1, v1), in cell units.
    let region = |r: usize, c: usize, [u0, v0, u1, v1]: [f32; 4]| {
        let px = |k: usize, t: f32, o: f32| (o + (k as f32 + t) * cell).round() as u32;
        let (xa, xb) = (px(c, u0, x0), px(c, u1, x0));
        let (ya, yb) = (px(r, v0, y0), px(r, v1, y0));
        (ya..yb).flat_map(move |y| (xa..xb).map(move |x| (x, y)))
    };
    let layout = expected.layout();
    for cage in expected.cages() {
        let cell_of_sum = sudoku_lens::overlay::cage_outline::sum_cell(layout, cage).unwrap();
        let (r, c) = layout.position(cell_of_sum);
        // The sum's ink (in the paper patch where it is printed, clear of
        // the cage outline), and around it a margin of a fiftieth of a
        // cell, is left as it was.
        let ink: Vec<(u32, u32)> = region(r, c, [0.03, 0.03, 0.27, 0.24])
            .filter(|&(x, y)| before.get_pixel(x, y).0.iter().all(|&v| v < 128))
            .collect();
        assert!(!ink.is_empty(), "no sum printed at r{}c{}", r + 1, c + 1);
        let margin = (cell / 50.0).ceil() as u32;
        let (xa, xb) = (
            ink.iter().map(|p| p.0).min().unwrap(),
            ink.iter().map(|p| p.0).max().unwrap(),
        );
        let (ya, yb) = (
            ink.iter().map(|p| p.1).min().unwrap(),
            ink.iter().map(|p| p.1).max().unwrap(),
        );
        for y in ya - margin..=yb + margin {
            for x in xa - margin..=xb + margin {
                assert_eq!(
                    after.get_pixel(x, y),
                    before.get_pixel(x, y),
                    "the sum {} at r{}c{} is drawn over at ({x}, {y})",
                    cage.sum,
                    r + 1,
                    c + 1
                );
            }
        }
    }
    // Every cell of the sample is empty: the solution is drawn in each.
    assert!(expected.values().iter().all(|&d| d == 0));
    for cell_index in 0..81 {
        let (r, c) = layout.position(cell_index);
        let changed = region(r, c, [0.3, 0.3, 0.7, 0.8])
            .filter(|&(x, y)| after.get_pixel(x, y) != before.get_pixel(x, y))
            .count();
        assert!(changed > 0, "nothing drawn in r{}c{}", r + 1, c + 1);
    }

    // The picture reads back as the same killer: the digits drawn stay
    // clear of the printed outlines and sums. Each digit read back, as a
    // given or an entry, is the solution's; a few drawn between an
    // outline's dashes may be left unread.
    let o = run(&["read", "--json", s(&out)]);
    let back: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(back["layout"], "killer", "{back}");
    assert_eq!(back["cages"], v["cages"], "the cages read back");
    // The rows under `key` as one string of cells ("entries" is left out
    // when there are none).
    let rows = |key: &str| -> Vec<u8> {
        back[key].as_array().map_or_else(
            || vec![b'.'; 81],
            |rows| {
                rows.iter()
                    .flat_map(|r| r.as_str().unwrap().bytes().collect::<Vec<u8>>())
                    .collect()
            },
        )
    };
    let (grid, entries) = (rows("grid"), rows("entries"));
    let mut read = 0;
    for (cell, &want_digit) in want.as_bytes().iter().enumerate() {
        for got in [grid[cell], entries[cell]] {
            if got != b'.' {
                assert_eq!(got, want_digit, "cell {cell} reads back as another digit");
                read += 1;
            }
        }
    }
    assert!(read >= 72, "only {read} of 81 digits read back");
}

/// `--json`'s `"solution"` rows joined into one string.
fn solution_rows(v: &serde_json::Value) -> String {
    v["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect()
}

#[test]
fn a_players_right_entries_are_left_as_written() {
    // A photo with handwritten entries (all right): the export draws the
    // solution into the empty cells only, and leaves the player's digits.
    let input = images().join("classic-photo-entries.jpg");
    let dir = temp_dir("export-entries");
    let out = dir.join("out.png");
    let o = run(&["solve", s(&input), "--export", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let reading = sudoku_lens::vision::read::read_path(&input, None).unwrap();
    let entries = reading.entries.values();
    let givens = reading.puzzle.values();
    assert!(entries.iter().filter(|&&e| e != 0).count() >= 10);
    let before = image::open(&input).unwrap().to_rgb8();
    let after = image::open(&out).unwrap().to_rgb8();
    // Pixels changed in the middle half of a cell.
    let changed = |cell: usize| {
        let q = reading.located.cell_quad(cell);
        let (cx, cy) = (
            q.iter().map(|p| p[0]).sum::<f32>() / 4.0,
            q.iter().map(|p| p[1]).sum::<f32>() / 4.0,
        );
        let half = (q[1][0] - q[0][0]).abs() / 4.0;
        let mut n = 0;
        for y in (cy - half) as u32..(cy + half) as u32 {
            for x in (cx - half) as u32..(cx + half) as u32 {
                n += (before.get_pixel(x, y) != after.get_pixel(x, y)) as usize;
            }
        }
        n
    };
    for cell in 0..81 {
        if entries[cell] != 0 {
            assert_eq!(changed(cell), 0, "entry cell {cell} was drawn over");
        } else if givens[cell] == 0 {
            assert!(changed(cell) > 20, "empty cell {cell} got no digit");
        }
    }
}
