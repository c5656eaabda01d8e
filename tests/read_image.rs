//! The reader end to end through the command line: rendered screenshots of
//! the puzzle samples read back exactly; images without a grid and files
//! that are not images get their own messages.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{GrayImage, Luma};
use sudoku_lens::grid::{Document, Puzzle, parse};
use sudoku_lens::vision::read::read_grey;

mod common;
use common::*;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn sample(name: &str) -> Puzzle {
    let path = root().join("samples/puzzles").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    match parse(&text, name, None).unwrap() {
        Document::Single(p) => p,
        Document::Batch(_) => panic!("{name} is one puzzle"),
    }
}

/// A clean screenshot of `puzzle`: `cell` pixels per cell, thin inner lines,
/// thick box and outer lines, digits in a font the classifier was not built
/// from.
fn render(puzzle: &Puzzle, cell: u32, margin: u32) -> GrayImage {
    let font_data = std::fs::read(root().join("assets/fonts/DejaVuSans.ttf")).unwrap();
    let font = FontRef::try_from_slice(&font_data).unwrap();
    let scaled = font.as_scaled(PxScale::from(cell as f32 * 0.7));
    let l = puzzle.layout();
    let (w, h) = (
        l.width() as u32 * cell + 2 * margin,
        l.height() as u32 * cell + 2 * margin,
    );
    let mut img = GrayImage::from_pixel(w, h, Luma([255]));
    let dark = |x: u32, y: u32, v: u8, img: &mut GrayImage| {
        if x < w && y < h {
            let p = img.get_pixel_mut(x, y);
            p.0[0] = p.0[0].min(v);
        }
    };
    for cellx in 0..l.cell_count() {
        let (r, c) = l.position(cellx);
        let (x0, y0) = (margin + c as u32 * cell, margin + r as u32 * cell);
        // Borders: thick on box edges and the shape's outline.
        let neighbours = [
            c.checked_sub(1).and_then(|c| l.cell_at(r, c)),
            l.cell_at(r, c + 1),
            r.checked_sub(1).and_then(|r| l.cell_at(r, c)),
            l.cell_at(r + 1, c),
        ];
        for (edge, n) in neighbours.into_iter().enumerate() {
            let box_edge = n.is_none_or(|n| !l.same_box(cellx, n));
            let thick = if box_edge { 2 } else { 0 };
            for t in 0..=thick {
                for s in 0..=cell {
                    let (x, y) = match edge {
                        0 => (x0 + t, y0 + s),
                        1 => (x0 + cell - t, y0 + s),
                        2 => (x0 + s, y0 + t),
                        _ => (x0 + s, y0 + cell - t),
                    };
                    dark(x, y, 0, &mut img);
                }
            }
        }
        let v = puzzle.values()[cellx];
        if v == 0 {
            continue;
        }
        let glyph = scaled.scaled_glyph(puzzle.alphabet().symbol(v));
        let outline = scaled.outline_glyph(glyph).unwrap();
        let b = outline.px_bounds();
        let (gx, gy) = (
            x0 as f32 + (cell as f32 - b.width()) / 2.0,
            y0 as f32 + (cell as f32 - b.height()) / 2.0,
        );
        outline.draw(|x, y, cov| {
            let v = (255.0 * (1.0 - cov)).round() as u8;
            dark(gx as u32 + x, gy as u32 + y, v, &mut img);
        });
    }
    img
}

fn read(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-lens"))
        .arg("read")
        .args(args)
        .output()
        .unwrap()
}

fn check_screenshot(name: &str, layout: &str) {
    let puzzle = sample(name);
    let dir = temp_dir(layout);
    let path = dir.join(format!("{layout}.png"));
    let (cell, margin) = (40, 24);
    render(&puzzle, cell, margin).save(&path).unwrap();
    let o = read(&[
        "--json",
        "--debug",
        dir.join("debug").to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["layout"], layout);
    let grid: Vec<String> = v["grid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        grid,
        puzzle.rows(),
        "{layout}: the grid read differs from the sample"
    );
    // Corners on the outer border, clockwise from the top-left.
    let side = (puzzle.layout().width() as u32 * cell) as f64;
    let m = margin as f64;
    let expected = [[m, m], [m + side, m], [m + side, m + side], [m, m + side]];
    for (got, want) in v["corners"].as_array().unwrap().iter().zip(expected) {
        let (x, y) = (got[0].as_f64().unwrap(), got[1].as_f64().unwrap());
        assert!(
            (x - want[0]).abs() < 4.0 && (y - want[1]).abs() < 4.0,
            "corner {x},{y} vs {want:?}"
        );
    }
    assert!(
        dir.join("debug").join(layout).join("cells.png").is_file(),
        "--debug writes the cell sheet"
    );
}

/// An app's notes, small digits (a quarter of the cell tall) each in its
/// place of a 3 x 3 pattern in the cell, are read as the candidate marks they are, with their digits;
/// the givens are read as before.
#[test]
fn notes_in_a_screenshot_are_marks_with_their_digits() {
    let puzzle = sample("classic.txt");
    let empty: Vec<usize> = (0..81).filter(|&c| puzzle.values()[c] == 0).collect();
    let notes: Vec<(usize, Vec<u8>)> = vec![
        (empty[0], vec![1, 5, 9]),
        (empty[7], vec![2, 4, 6, 8]),
        (empty[20], vec![3, 7]),
    ];
    notes_read(&puzzle, &notes, 0.33);
}

/// Notes as small as many apps draw them (type 0.22 of the cell), every
/// digit in its place: the 3s and 8s, which the digit model reads less
/// sure that small, are read too, their place agreeing.
#[test]
fn small_notes_are_read_in_their_places() {
    let puzzle = sample("classic.txt");
    let empty: Vec<usize> = (0..81).filter(|&c| puzzle.values()[c] == 0).collect();
    let notes: Vec<(usize, Vec<u8>)> = (0..6).map(|i| (empty[i * 7], (1..=9).collect())).collect();
    notes_read(&puzzle, &notes, 0.22);
}

/// Draws `notes` (cell, digits) into a screenshot of `puzzle`, each digit
/// in its place of a 3 x 3 pattern, `scale` of the cell tall in DejaVu
/// Sans, and checks that the reader lists exactly them.
fn notes_read(puzzle: &Puzzle, notes: &[(usize, Vec<u8>)], scale: f32) {
    let (cell, margin) = (60u32, 30u32);
    let mut img = render(puzzle, cell, margin);
    let font_data = std::fs::read(root().join("assets/fonts/DejaVuSans.ttf")).unwrap();
    let font = FontRef::try_from_slice(&font_data).unwrap();
    let scaled = font.as_scaled(PxScale::from(cell as f32 * scale));
    for (c, digits) in notes {
        let (r, k) = (c / 9, c % 9);
        for &d in digits {
            // The pattern's places 0.22, 0.5 and 0.78 of the cell across
            // and down: apps keep the notes clear of the cell's lines.
            let slot = |i: u8| 0.22 + 0.28 * i as f32;
            let cx = (margin + k as u32 * cell) as f32 + slot((d - 1) % 3) * cell as f32;
            let cy = (margin + r as u32 * cell) as f32 + slot((d - 1) / 3) * cell as f32;
            let glyph = scaled.scaled_glyph(char::from(b'0' + d));
            let outline = scaled.outline_glyph(glyph).unwrap();
            let b = outline.px_bounds();
            let (gx, gy) = (cx - b.width() / 2.0, cy - b.height() / 2.0);
            outline.draw(|x, y, cov| {
                let p = img.get_pixel_mut(gx as u32 + x, gy as u32 + y);
                p.0[0] = p.0[0].min((90.0 + 165.0 * (1.0 - cov)).round() as u8);
            });
        }
    }
    let reading = read_grey(&img, None).0.expect("the grid is found");
    assert_eq!(reading.puzzle.values(), puzzle.values());
    for (c, digits) in notes {
        let m = reading.marks.iter().find(|m| m.cell == *c);
        assert_eq!(m.map(|m| &m.digits), Some(digits), "cell {c}");
    }
    assert_eq!(reading.marks.len(), notes.len(), "{:?}", reading.marks);
}

#[test]
fn a_classic_screenshot_reads_exactly() {
    check_screenshot("classic.txt", "classic");
}

#[test]
fn a_samurai_screenshot_reads_exactly() {
    check_screenshot("samurai.txt", "samurai");
}

/// Every other shape with digits only is found without being named, and
/// read exactly: the layout scoring is one mechanism over all layouts.
#[test]
fn every_shape_with_digits_is_found_unforced_and_read_exactly() {
    for (name, layout) in [
        ("4by4.txt", "4x4"),
        ("6by6.txt", "6x6"),
        ("twodoku.txt", "twodoku"),
        ("butterfly.txt", "butterfly"),
        ("flower.txt", "flower"),
        ("sohei.txt", "sohei"),
    ] {
        check_screenshot(name, layout);
    }
}

/// Shapes with letters are found as their shape, though letters are not
/// read yet; a 12x12 and a butterfly have the same cells and are told
/// apart by their box borders.
#[test]
fn shapes_with_letters_are_found_as_their_shape() {
    for (name, layout) in [("12by12.txt", "12x12"), ("16by16.txt", "16x16")] {
        let puzzle = sample(name);
        let dir = temp_dir(layout);
        let path = dir.join(format!("{layout}.png"));
        render(&puzzle, 40, 24).save(&path).unwrap();
        let o = read(&["--json", path.to_str().unwrap()]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&o.stderr)));
        assert_eq!(v["layout"], layout);
    }
}

/// A screenshot turned by a quarter turn reads as the same puzzle, with the
/// corners clockwise from the puzzle's own top-left.
fn check_turned(name: &str) {
    let puzzle = sample(name);
    let (cell, margin) = (40, 24);
    let img = render(&puzzle, cell, margin);
    let (w, h) = (img.width() as f32 - 1.0, img.height() as f32 - 1.0);
    let side = (puzzle.layout().width() as u32 * cell) as f32;
    let m = margin as f32;
    // Upright corners, clockwise from the top-left.
    let upright = [[m, m], [m + side, m], [m + side, m + side], [m, m + side]];
    for turns in 1..4u8 {
        let turned = match turns {
            1 => image::imageops::rotate90(&img),
            2 => image::imageops::rotate180(&img),
            _ => image::imageops::rotate270(&img),
        };
        // Where a point of the upright image lands in the turned one.
        let to_turned = |[x, y]: [f32; 2]| match turns {
            1 => [h - y, x],
            2 => [w - x, h - y],
            _ => [y, w - x],
        };
        let (result, _) = read_grey(&turned, None);
        let r = result.unwrap_or_else(|e| panic!("{name} turned {turns}: {e}"));
        assert_eq!(r.turns, turns, "{name}: quarter turns found");
        assert_eq!(r.puzzle.rows(), puzzle.rows(), "{name} turned {turns}");
        for (got, want) in r.located.corners.iter().zip(upright.map(to_turned)) {
            assert!(
                (got[0] - want[0]).abs() < 4.0 && (got[1] - want[1]).abs() < 4.0,
                "{name} turned {turns}: corner {got:?} vs {want:?}"
            );
        }
    }
}

#[test]
fn a_turned_classic_screenshot_reads_upright() {
    check_turned("classic.txt");
}

#[test]
fn a_turned_samurai_screenshot_reads_upright() {
    check_turned("samurai.txt");
}

#[test]
fn an_image_without_a_grid_says_so() {
    let dir = temp_dir("nogrid");
    let path = dir.join("blank.png");
    GrayImage::from_pixel(300, 200, Luma([230]))
        .save(&path)
        .unwrap();
    let o = read(&[path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("no sudoku grid found in {}", path.display())),
        "{err}"
    );
}

#[test]
fn a_file_that_is_not_an_image_says_so() {
    let dir = temp_dir("notimage");
    let path = dir.join("puzzle.png");
    std::fs::write(&path, "not an image").unwrap();
    let o = read(&[path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("puzzle.png"), "{err}");
    assert!(o.stdout.is_empty());
}

/// The PDF sample: page 1 a vector-drawn puzzle, page 2 a photo.
fn pdf_sample() -> PathBuf {
    root().join("samples/images/classic-pdf.pdf")
}

#[test]
fn a_pdf_page_is_read_like_an_image() {
    let pdf = pdf_sample();
    let expected = |name: &str| std::fs::read_to_string(root().join("samples/images").join(name));
    // Page 1 is the default; page 2 holds the photo sample.
    for (page, reading) in [("1", "classic-pdf.txt"), ("2", "classic-photo-page.txt")] {
        let args: &[&str] = if page == "1" {
            &[pdf.to_str().unwrap()]
        } else {
            &["--page", page, pdf.to_str().unwrap()]
        };
        let o = read(args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "page {page}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            expected(reading).unwrap(),
            "page {page}"
        );
    }
    // Told by its content, not its name; `solve` too.
    let dir = temp_dir("pdf");
    let unnamed = dir.join("scan");
    std::fs::copy(&pdf, &unnamed).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_sudoku-lens"))
        .args(["solve", "--page", "2", unnamed.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let solved = String::from_utf8_lossy(&o.stdout);
    assert_eq!(solved.lines().count(), 9, "{solved}");
    assert!(
        solved.lines().all(|l| l.len() == 9 && !l.contains('.')),
        "{solved}"
    );
}

#[test]
fn a_pdf_page_that_is_not_there_or_a_damaged_pdf_says_so() {
    let pdf = pdf_sample();
    let o = read(&["--page", "5", pdf.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("classic-pdf.pdf: there is no page 5: the PDF has 2 pages"),
        "{err}"
    );
    assert!(o.stdout.is_empty());
    let o = read(&["--page", "0", pdf.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "a usage error");
    let dir = temp_dir("badpdf");
    let bad = dir.join("book.pdf");
    std::fs::write(&bad, b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\nno objects, no pages\n").unwrap();
    let o = read(&[bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("book.pdf: not a readable PDF"), "{err}");
    // An image has one page.
    let png = root().join("samples/images/classic-screen-light.png");
    let o = read(&["--page", "2", png.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("is an image, not a PDF: it has no page 2"),
        "{err}"
    );
}

#[test]
fn eval_counts_grids_cells_and_readings_that_solve_right() {
    let puzzle = sample("classic.txt");
    let solution = sudoku_lens::solve::solve(&puzzle, 1, 1).unwrap().solutions[0].clone();
    let dir = temp_dir("eval");
    let image = render(&puzzle, 40, 24);
    let empty = puzzle.values().iter().position(|&v| v == 0).unwrap();
    let truth_text = |values: &[u8]| {
        values
            .chunks(9)
            .map(|r| {
                r.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    // The givens; the givens and a digit written in by hand, as solved;
    // the givens and a digit written in that does not fit the solution.
    let mut solved = puzzle.values().to_vec();
    solved[empty] = solution[empty];
    let mut misfit = puzzle.values().to_vec();
    misfit[empty] = solution[empty] % 9 + 1;
    for (name, truth) in [("a", puzzle.values()), ("b", &solved), ("c", &misfit)] {
        image.save(dir.join(format!("{name}.png"))).unwrap();
        std::fs::write(dir.join(format!("{name}.txt")), truth_text(truth)).unwrap();
    }
    let eval = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sudoku-lens"))
            .arg("eval")
            .args(extra)
            .arg(&dir)
            .output()
            .unwrap()
    };
    let o = eval(&[]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("b.png: 1 cells wrong (0 a wrong digit); solved right"),
        "{out}"
    );
    assert!(
        out.contains("c.png: 1 cells wrong (0 a wrong digit)\n"),
        "{out}"
    );
    assert!(out.contains("grids entirely right 33.3% (1)"), "{out}");
    assert!(out.contains("solved right 66.7% (2)"), "{out}");
    // Below the floor, eval fails.
    let o = eval(&["--min-grids", "50"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!(eval(&["--min-grids", "30"]).status.code(), Some(0));
    // A killer floor on a folder with no killers fails, and says so.
    let o = eval(&["--min-killers", "10"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("of 0 killers"), "{err}");
    // Labels beside the images as text count a digit where the reading
    // holds no given as the player's entry: c.png's missed given, read as
    // nothing, is below an entries floor.
    let o = eval(&["--min-entries", "10"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("0.0% of 1 entries read right, below the floor of 10%"),
        "{err}"
    );
    assert_eq!(eval(&["--min-entries", "0"]).status.code(), Some(0));
    // With the printed givens known, an entry is every digit that is not
    // printed, on every image: a.png's first given is called a player's
    // digit here (read as a given), b's and c's written digits are missed.
    let rows = |values: &[u8]| {
        values
            .chunks(9)
            .map(|r| {
                r.iter()
                    .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
                    .collect()
            })
            .collect::<Vec<String>>()
            .join("\n")
    };
    let first = puzzle.values().iter().position(|&v| v != 0).unwrap();
    let mut a_print = puzzle.values().to_vec();
    a_print[first] = 0;
    let givens = puzzle.values().iter().filter(|&&v| v != 0).count();
    let printed = dir.join("printed.txt");
    let text = format!(
        "# the givens\na\n{}\n\nb\n{}\n",
        rows(&a_print),
        rows(puzzle.values())
    );
    std::fs::write(&printed, text).unwrap();
    let o = eval(&["--printed", printed.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err.contains("c.png: the file of printed givens names no puzzle"),
        "{err}"
    );
    std::fs::write(
        &printed,
        format!(
            "{}\nc\n{}\n",
            std::fs::read_to_string(&printed).unwrap(),
            rows(puzzle.values())
        ),
    )
    .unwrap();
    let o = eval(&["--printed", printed.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("entries read right 0.0% (0 of 3), wrong 0.00% (0), read as a given 1, unsure or missed 2;"),
        "{out}"
    );
    let print_total = 3 * givens - 1;
    assert!(
        out.contains(&format!(
            "printed givens read as that given 100.0% ({print_total} of {print_total})"
        )),
        "{out}"
    );
    // The givens are scored against the print: b's and c's are right.
    assert!(out.contains("grids entirely right 66.7% (2)"), "{out}");
    assert!(
        out.contains("a.png: 1 cells wrong (0 a wrong digit)"),
        "{out}"
    );
}

/// A shadow's edge (half the light, with a soft penumbra) running across
/// the printed givens of a classic: those it crosses read as the givens
/// they are, not as ink joined to the shadow, whether the shadow covers
/// less of their cells than the lit paper or more, and on a page
/// photographed sideways (read again once turned upright).
#[test]
fn givens_crossed_by_a_shadows_edge_are_read() {
    let p = sample("classic.txt");
    let (cell, margin) = (60u32, 20u32);
    let img = render(&p, cell, margin);
    let size = 9.0 * cell as f32 + 2.0 * margin as f32;
    let penumbra = 6.0;
    // The edge runs down and to the left, this many cells above the
    // grid's anti-diagonal: half a cell, across the digits of r1c8 and
    // r4c5 with their cells mostly lit; a quarter of a cell below, across
    // those of r1c9, r3c7 and r9c1 with theirs mostly in the shadow; half
    // a cell below, with only a corner of r9c1's cell lit.
    for above in [0.5f32, -0.25, -0.5] {
        let shadowed = GrayImage::from_fn(img.width(), img.height(), |x, y| {
            let v = img.get_pixel(x, y).0[0] as f32;
            let across = x as f32 + y as f32 - size + above * cell as f32;
            let light = (0.75 + across / (4.0 * penumbra)).clamp(0.5, 1.0);
            Luma([(v * light).round() as u8])
        });
        for (turn, page) in [
            ("upright", shadowed.clone()),
            ("sideways", image::imageops::rotate90(&shadowed)),
        ] {
            let (reading, _) = read_grey(&page, None);
            let reading = reading.expect("the grid is found under the shadow");
            let read = reading.puzzle.values();
            let missed: Vec<usize> = (0..81)
                .filter(|&c| p.values()[c] != 0 && read[c] != p.values()[c])
                .collect();
            assert!(
                missed.is_empty(),
                "edge {above}, {turn}: givens not read: {missed:?}"
            );
            let extra: Vec<usize> = (0..81)
                .filter(|&c| p.values()[c] == 0 && read[c] != 0)
                .collect();
            assert!(
                extra.is_empty(),
                "edge {above}, {turn}: givens read in empty cells: {extra:?}"
            );
        }
    }
}
