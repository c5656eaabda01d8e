//! `sudoku-lens eval`: read every image of a folder that has ground truth
//! and report how much was read right, and how many readings solve to the
//! solution the ground truth agrees with.
//!
//! Ground truth beside `NAME.jpg` (or any image extension): `NAME.dat` (a
//! phone line, a resolution line, then 81 whitespace-separated digits, 0 =
//! empty), or `NAME.txt` (81 whitespace-separated numbers: 0 blank, 1-9 a
//! digit, 10 candidate marks, which must read as empty).

use std::path::{Path, PathBuf};
use std::time::Instant;

use sudoku_lens::solve::solve;
use sudoku_lens::vision::read::read_path;

use super::Status;

const IMAGE_EXTENSIONS: &[&str] = &["jpg", "jpeg", "png", "webp", "bmp", "gif", "tif", "tiff"];

/// One image's ground truth: per cell, 0 empty or 1-9.
fn truth_for(image: &Path) -> Result<Option<Vec<u8>>, String> {
    for (ext, skip) in [("dat", 2), ("txt", 0)] {
        let path = image.with_extension(ext);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let values: Result<Vec<u8>, _> = text
            .lines()
            .skip(skip)
            .flat_map(str::split_whitespace)
            .map(|t| t.parse::<u8>().map(|v| if v > 9 { 0 } else { v }))
            .collect();
        let values = values.map_err(|e| format!("{}: {e}", path.display()))?;
        if values.len() != 81 {
            return Err(format!(
                "{}: {} values, expected 81",
                path.display(),
                values.len()
            ));
        }
        return Ok(Some(values));
    }
    Ok(None)
}

pub fn run(dir: &Path, min_grids: Option<f64>) -> Result<Status, String> {
    let mut images: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: cannot list the folder: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| IMAGE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
        })
        .collect();
    images.sort();
    let (mut total, mut located, mut layout_ok, mut grids_ok) = (0usize, 0usize, 0usize, 0usize);
    let (mut cells, mut cells_ok, mut wrong_digits) = (0usize, 0usize, 0usize);
    let mut solved_ok = 0usize;
    let mut times = Vec::new();
    for image in &images {
        let Some(truth) = truth_for(image)? else {
            continue;
        };
        total += 1;
        let start = Instant::now();
        let result = read_path(image, None);
        times.push(start.elapsed().as_secs_f64() * 1e3);
        let name = image
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let reading = match result {
            Ok(r) => r,
            Err(e) => {
                println!("{name}: {e}");
                cells += 81;
                continue;
            }
        };
        located += 1;
        if reading.puzzle.layout().name() != "classic" {
            println!("{name}: read as {}", reading.puzzle.layout().name());
            cells += 81;
            continue;
        }
        layout_ok += 1;
        let read = reading.puzzle.values();
        let right = read.iter().zip(&truth).filter(|(a, b)| a == b).count();
        let wrong = read
            .iter()
            .zip(&truth)
            .filter(|&(&a, &b)| a != 0 && a != b)
            .count();
        cells += 81;
        cells_ok += right;
        wrong_digits += wrong;
        // What a reading is for: the puzzle as read has one solution, and
        // it agrees with every digit on the paper. On a puzzle solved by
        // hand, handwriting read as empty still counts as solved right.
        let solved_right = solve(&reading.puzzle, 2, 1).is_ok_and(|o| {
            o.count == 1
                && o.solutions[0]
                    .iter()
                    .zip(&truth)
                    .all(|(&s, &t)| t == 0 || s == t)
        });
        solved_ok += solved_right as usize;
        if right == 81 {
            grids_ok += 1;
        } else {
            println!(
                "{name}: {} cells wrong ({wrong} a wrong digit){}",
                81 - right,
                if solved_right { "; solved right" } else { "" }
            );
        }
    }
    if total == 0 {
        return Err(format!(
            "{}: no image with ground truth (.dat or .txt beside it)",
            dir.display()
        ));
    }
    times.sort_by(f64::total_cmp);
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    let grids_pct = pct(grids_ok, total);
    println!(
        "{}: {total} images; located {:.1}%, layout right {:.1}%, grids entirely right {grids_pct:.1}% ({grids_ok}), \
         cells right {:.2}%, wrong digits {wrong_digits}, solved right {:.1}% ({solved_ok}), median read {:.1} ms, slowest {:.1} ms",
        dir.display(),
        pct(located, total),
        pct(layout_ok, total),
        pct(cells_ok, cells),
        pct(solved_ok, total),
        times[times.len() / 2],
        times[times.len() - 1],
    );
    if let Some(floor) = min_grids
        && grids_pct < floor
    {
        return Err(format!(
            "{}: {grids_pct:.1}% of grids entirely right, below the floor of {floor}%",
            dir.display()
        ));
    }
    Ok(Status::Solved)
}
