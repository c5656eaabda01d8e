//! Reads the sudoku in a photo, solves it, draws the solution onto the photo
//! in perspective, and saves the result.
//!
//! `cargo run --release --example read_and_solve -- [PHOTO] [OUT.png]`
//!
//! PHOTO defaults to a bundled sample, `samples/images/classic-photo-page.jpg`;
//! OUT to `NAME.solved.png` in the system's temporary folder.

use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sudoku_lens::overlay::{Options, draw_solution};
use sudoku_lens::solve::solve;
use sudoku_lens::vision::read::{Colour, read_image};
use sudoku_lens::vision::verify::CheckOutcome;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("read_and_solve: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args_os().skip(1);
    let photo = args.next().map(PathBuf::from).unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/images/classic-photo-page.jpg")
    });
    let out = args.next().map(PathBuf::from).unwrap_or_else(|| {
        let stem = photo.file_stem().unwrap_or("photo".as_ref());
        std::env::temp_dir().join(format!("{}.solved.png", stem.to_string_lossy()))
    });

    // Decoded once: the reader works on the grey copy, the solution is
    // drawn on the colour pixels kept beside it.
    let photo_read = read_image(&photo, None, Colour::Keep)?;
    let reading = photo_read.reading?;
    print!("{}", reading.puzzle.to_text());
    if let CheckOutcome::Changed(changes) = &reading.check {
        println!("the solver check changed {} cell(s)", changes.len());
    }

    // Count up to 2 solutions to know that the first is the only one.
    let solved = solve(&reading.puzzle, 2, 1)?;
    let Some(solution) = solved.solutions.first() else {
        return Err(format!("{}: the puzzle as read has no solution", photo.display()).into());
    };
    if solved.count > 1 {
        println!("several solutions: drawing the first");
    }

    let mut image = photo_read
        .image
        .ok_or("the colour pixels were not kept")?
        .into_rgb8();
    let changed: Vec<usize> = match &reading.check {
        CheckOutcome::Changed(changes) => changes.iter().map(|&(cell, _)| cell).collect(),
        _ => Vec::new(),
    };
    draw_solution(
        &mut image,
        &reading.located,
        reading.puzzle.values(),
        solution,
        &changed,
        reading.puzzle.alphabet(),
        &Options::default(),
    )?;
    image.save(&out)?;
    println!("solution drawn on {}", out.display());
    Ok(())
}
