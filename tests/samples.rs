//! Every image in `samples/images/` (screenshots and simulated photos made by
//! `cargo run --release -p sudoku-lens-tools --bin make_image_samples`) is read through the
//! library and must give exactly the grid in its `NAME.txt`, written in
//! the same alphabet (a 16x16 in `1`-`9`, `A`-`G` or hexadecimal; a killer's
//! cages too: their cells and sums; a jigsaw's regions; the player's
//! entries where the text has an `entries:` part, and none where it has
//! not; on a photo a handwritten entry may be read as nothing or as a
//! given of its digit when its cell is reported unsure), without the solver check having to change any cell.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sudoku_lens::grid::parse_progress;
use sudoku_lens::vision::page::load::has_image_extension;
use sudoku_lens::vision::read::read_path;
use sudoku_lens::vision::verify::CheckOutcome;

fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/images")
}

/// The sample files: images, expected readings, and anything else.
fn listing() -> (Vec<PathBuf>, Vec<PathBuf>, Vec<PathBuf>) {
    let mut images = Vec::new();
    let mut texts = Vec::new();
    let mut other = Vec::new();
    for entry in std::fs::read_dir(samples_dir()).expect("samples/images exists") {
        let path = entry.unwrap().path();
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        if has_image_extension(&path) {
            images.push(path);
        } else if ext == "txt" {
            texts.push(path);
        } else {
            other.push(path);
        }
    }
    images.sort();
    texts.sort();
    (images, texts, other)
}

#[test]
fn every_image_has_its_expected_reading_and_every_reading_its_image() {
    let (images, texts, other) = listing();
    assert!(
        images.len() >= 10,
        "samples/images holds {} images",
        images.len()
    );
    assert!(
        other.is_empty(),
        "unexpected files in samples/images: {other:?}"
    );
    for image in &images {
        assert!(
            image.with_extension("txt").is_file(),
            "{} has no expected reading ({})",
            image.display(),
            image.with_extension("txt").display()
        );
    }
    for text in &texts {
        assert!(
            images.iter().any(|i| i.with_extension("txt") == *text),
            "{} has no image",
            text.display()
        );
    }
}

#[test]
fn every_sample_image_reads_exactly() {
    let (images, _, _) = listing();
    let failures: Vec<String> = images
        .par_iter()
        .filter_map(|image| {
            let name = image.file_name().unwrap().to_string_lossy().to_string();
            let Ok(text) = std::fs::read_to_string(image.with_extension("txt")) else {
                return Some(format!("{name}: no expected reading"));
            };
            let expected = match parse_progress(&text, &name, None) {
                Ok(p) => p,
                Err(e) => return Some(format!("{name}: bad .txt: {e}")),
            };
            let (expected, entries) = (expected.puzzle(), expected.entries());
            let reading = match read_path(image, None) {
                Ok(r) => r,
                Err(e) => return Some(format!("{name}: {e}")),
            };
            let layout = reading.puzzle.layout().name().to_string();
            if layout != expected.layout().name() {
                return Some(format!(
                    "{name}: read as {layout}, expected {}",
                    expected.layout().name()
                ));
            }
            // A handwritten entry (a photo's) may be read as nothing, or as
            // a given of its digit, when its cell is reported unsure: the
            // reader's promise for handwriting is the digit or nothing,
            // never another digit. Printed entries (a screenshot's second
            // ink) are read exactly.
            let handwritten = name.contains("-photo-");
            let tolerated = |c: usize, given: u8, entry: u8| {
                let want = entries.values()[c];
                handwritten
                    && want != 0
                    && reading.uncertain.contains(&c)
                    && ((given, entry) == (0, 0) || (given, entry) == (want, 0))
            };
            let givens_right = (0..reading.puzzle.values().len()).all(|c| {
                let (given, entry) = (reading.puzzle.values()[c], reading.entries.values()[c]);
                given == expected.values()[c] || tolerated(c, given, entry)
            });
            if !givens_right {
                return Some(format!(
                    "{name}: read\n{}expected\n{}",
                    reading.puzzle.to_text(),
                    expected.to_text()
                ));
            }
            // A 16x16 page in hexadecimal reads in hexadecimal.
            if reading.puzzle.alphabet() != expected.alphabet() {
                return Some(format!(
                    "{name}: read in {:?}, expected {:?}",
                    reading.puzzle.alphabet(),
                    expected.alphabet()
                ));
            }
            // Both numbered in order of first appearance: equal exactly
            // when they are the same partition.
            if reading.puzzle.layout().regions() != expected.layout().regions() {
                return Some(format!(
                    "{name}: regions read\n{}expected\n{}",
                    reading.puzzle.to_text(),
                    expected.to_text()
                ));
            }
            if reading.puzzle.cages() != expected.cages() {
                return Some(format!(
                    "{name}: cages read\n{}expected\n{}",
                    reading.puzzle.to_text(),
                    expected.to_text()
                ));
            }
            let entries_right = (0..reading.entries.values().len()).all(|c| {
                let (given, entry) = (reading.puzzle.values()[c], reading.entries.values()[c]);
                entry == entries.values()[c] || tolerated(c, given, entry)
            });
            if !entries_right {
                return Some(format!(
                    "{name}: entries read\n{}\nexpected\n{}",
                    reading
                        .puzzle
                        .with_values(reading.entries.values().to_vec())
                        .to_text(),
                    expected.with_values(entries.values().to_vec()).to_text()
                ));
            }
            if reading.check != CheckOutcome::Unique {
                return Some(format!(
                    "{name}: right only after the solver check: {:?}",
                    reading.check
                ));
            }
            None
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn screenshots_and_a_photo_with_a_players_digits_are_among_the_samples() {
    for name in [
        "classic-screen-entries-light.txt",
        "classic-screen-entries-dark.txt",
        "classic-screen-entries-mistake.txt",
        "classic-photo-entries.txt",
    ] {
        let text = std::fs::read_to_string(samples_dir().join(name)).expect(name);
        let progress = parse_progress(&text, name, None).expect(name);
        assert!(!progress.entries().is_empty(), "{name} holds no entries");
    }
}

/// A killer's dashed or dotted cage outlines run inside its cells: they are
/// not candidate marks (the killer samples have none), and neither are its
/// sums.
#[test]
fn killer_outlines_and_sums_are_not_read_as_candidate_marks() {
    for name in [
        "killer-screen-dashed.png",
        "killer-screen-dotted-givens.png",
        "killer-photo-page.jpg",
    ] {
        let reading = read_path(&samples_dir().join(name), None).expect(name);
        assert!(reading.killer.is_some(), "{name}: no cages read");
        let cells: Vec<usize> = reading.marks.iter().map(|m| m.cell).collect();
        assert!(cells.is_empty(), "{name}: marks read in cells {cells:?}");
    }
}

/// A screenshot that cuts the grid off below its last line (and the
/// outlines just inside it) still reads as the whole grid: the last line is
/// placed by the spacing of the others, not on the image's edge.
#[test]
fn a_killer_cut_off_below_its_last_row_reads_whole() {
    use sudoku_lens::vision::read::read_grey;
    let name = "killer-screen-dashed";
    let path = samples_dir().join(format!("{name}.png"));
    let grey = image::open(&path).expect(name).to_luma8();
    let text = std::fs::read_to_string(path.with_extension("txt")).unwrap();
    let progress = parse_progress(&text, name, None).unwrap();
    let expected = progress.puzzle();
    // The grid's top and bottom lines: the first and last rows mostly ink.
    let (w, h) = grey.dimensions();
    let line = |y: u32| (0..w).filter(|&x| grey.get_pixel(x, y)[0] < 100).count() > w as usize / 2;
    let top = (0..h).find(|&y| line(y)).expect("a top line") as f32;
    let bottom = (0..h).rev().find(|&y| line(y)).expect("a bottom line") as f32;
    let cell = (bottom - top) / 9.0;
    for cut in [0.05, 0.15] {
        let height = (bottom - cut * cell).floor() as u32;
        let part = image::imageops::crop_imm(&grey, 0, 0, grey.width(), height).to_image();
        let reading = read_grey(&part, None).0.expect("the cut sample is located");
        // The last row is as tall as the one above it, not cut short.
        let y = |v: f32| reading.located.canvas_to_image(4.5, v)[1];
        let (last, above) = (y(9.0) - y(8.0), y(8.0) - y(7.0));
        assert!(
            (last / above - 1.0).abs() < 0.03,
            "cut {cut}: last row {last}, the one above {above}"
        );
        assert!(reading.killer.is_some(), "cut {cut}: no cages read");
        assert_eq!(reading.puzzle.values(), expected.values(), "cut {cut}");
        assert_eq!(reading.puzzle.cages(), expected.cages(), "cut {cut}");
    }
}
