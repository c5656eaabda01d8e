//! `classic-screen-white-on-dark`: a dark-mode app showing a plain white
//! grid, as a phone screenshot gives it: a dark page, a header bar and a
//! row of dark number buttons, and between them the grid as a white block
//! whose black frame meets the dark page directly. Both ink polarities are
//! on the page: the grid's lines are dark on its white block, and the block
//! is light on the page. The grid is drawn by the library's own renderer
//! (its digits in the overlay's typeface): what the sample checks is that
//! the block is found.

use std::path::Path;

use image::{Rgb, RgbImage, Rgba};
use sudoku_lens::grid::Puzzle;
use sudoku_lens::overlay::{Options, Palette, render_grid};

/// The sample's name: `NAME.png`, and `NAME.txt` its expected reading.
pub const NAME: &str = "classic-screen-white-on-dark";

/// The screenshot's size, a phone's in portrait.
const SCREEN: (u32, u32) = (720, 1280);
/// Pixels per cell of the grid.
/// Pixels per cell of the grid: a size at which the holes of its cells in
/// the locator's dark mask give only part of the grid, so that the grid is
/// found by its frame's outline or not at all.
const CELL_PX: u32 = 64;
/// The app's dark page, header bar and buttons.
const PAGE: [u8; 3] = [28, 28, 30];
const BAR: [u8; 3] = [44, 44, 48];
const BUTTON: [u8; 3] = [58, 58, 64];

/// Writes `NAME.png` and `NAME.txt` into `dir` (the image samples' folder).
pub fn write(dir: &Path, puzzle: &Puzzle) {
    let options = Options {
        cell_px: CELL_PX,
        palette: Some(Palette {
            paper: Rgba([255, 255, 255, 255]),
            lines: Rgba([30, 30, 34, 255]),
            given: Rgba([20, 20, 24, 255]),
            ..Palette::LIGHT
        }),
        ..Options::default()
    };
    let grid = render_grid(puzzle, None, &options).expect("a classic renders");
    // The rendered grid has half a cell of white margin; the block ends at
    // the outer edge of its thick frame (`render_grid`'s width: a twelfth
    // of a cell, centred on the line).
    let thick = (CELL_PX as f32 / 12.0).round().max(2.0) as u32;
    let crop = CELL_PX / 2 - thick / 2;
    let side = grid.width() - 2 * crop;
    let mut screen = RgbImage::from_pixel(SCREEN.0, SCREEN.1, Rgb(PAGE));
    fill(&mut screen, 0, 0, SCREEN.0, 120, BAR);
    let (ox, oy) = ((SCREEN.0 - side) / 2, 200);
    for y in 0..side {
        for x in 0..side {
            let p = grid.get_pixel(x + crop, y + crop);
            screen.put_pixel(ox + x, oy + y, Rgb([p[0], p[1], p[2]]));
        }
    }
    // Nine number buttons in a row below the grid.
    let button = (SCREEN.0 - 40) / 9;
    for i in 0..9 {
        let x = 20 + i * button;
        fill(
            &mut screen,
            x + 4,
            oy + side + 60,
            x + button - 4,
            oy + side + 150,
            BUTTON,
        );
    }
    screen
        .save(dir.join(format!("{NAME}.png")))
        .expect("screenshot written");
    std::fs::write(dir.join(format!("{NAME}.txt")), puzzle.to_text())
        .expect("expected reading written");
    println!("{NAME}.png");
}

fn fill(img: &mut RgbImage, x0: u32, y0: u32, x1: u32, y1: u32, c: [u8; 3]) {
    for y in y0..y1.min(img.height()) {
        for x in x0..x1.min(img.width()) {
            img.put_pixel(x, y, Rgb(c));
        }
    }
}
