use std::sync::Arc;

use super::*;
use crate::grid::Puzzle;

pub(super) fn located(layout: Layout, corners: [[f32; 2]; 4]) -> Located {
    let (w, h) = (layout.width() as f64, layout.height() as f64);
    let from = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
    let to = corners.map(|[x, y]| [x as f64, y as f64]);
    Located {
        corners,
        homography: Homography::from_points(&from, &to).unwrap(),
        col_lines: (0..=layout.width()).map(|i| i as f32).collect(),
        row_lines: (0..=layout.height()).map(|i| i as f32).collect(),
        col_lines_at: Vec::new(),
        row_lines_at: Vec::new(),
        layout,
        score: 1.0,
        layout_scores: Vec::new(),
    }
}

/// [`draw_solution`] of digits with no cell changed by the check.
fn draw_digits<P: Paintable>(
    image: &mut Canvas<P>,
    located: &Located,
    givens: &[u8],
    solution: &[u8],
    options: &Options,
) -> Result<Vec<PixelRect>, OverlayError> {
    draw_solution(
        image,
        located,
        givens,
        solution,
        &[],
        Alphabet::Digits,
        options,
    )
}

#[test]
fn the_palette_follows_the_paper() {
    let loc = located(
        Layout::classic(),
        [[10.0, 10.0], [190.0, 12.0], [185.0, 195.0], [12.0, 190.0]],
    );
    let givens = vec![0u8; 81];
    let light = RgbaImage::from_pixel(200, 200, Rgba([240, 235, 220, 255]));
    assert_eq!(background_luma(&light, &loc, &givens), 235);
    let dark = RgbaImage::from_pixel(200, 200, Rgba([30, 30, 35, 255]));
    let luma = background_luma(&dark, &loc, &givens);
    assert_eq!(Palette::for_background(luma), Palette::DARK);
    assert_eq!(Palette::for_background(200), Palette::LIGHT);
}

#[test]
fn digits_land_in_their_cells_only_and_givens_are_left_alone() {
    let loc = located(
        Layout::classic(),
        [[20.0, 30.0], [400.0, 10.0], [430.0, 420.0], [5.0, 390.0]],
    );
    let original = RgbaImage::from_pixel(440, 440, Rgba([250, 250, 250, 255]));
    let mut givens = vec![0u8; 81];
    givens[0] = 5;
    let mut solution = vec![0u8; 81];
    solution[0] = 5;
    solution[40] = 8; // the centre cell
    let mut image = original.clone();
    let rects = draw_digits(&mut image, &loc, &givens, &solution, &Options::default()).unwrap();
    assert_eq!(rects.len(), 1, "one digit drawn");
    let quad = loc.cell_quad(40);
    let mut inked = 0;
    for (x, y, p) in image.enumerate_pixels() {
        if p != original.get_pixel(x, y) {
            assert!(inside(&quad, x as f32, y as f32), "pixel {x},{y} changed");
            assert_eq!(p[2].max(p[0]), p[2], "the solved colour is blue");
            inked += 1;
        }
    }
    assert!(inked > 100, "{inked} pixels of the 8 drawn");
}

#[test]
fn a_digit_follows_a_bent_line_beside_its_cell() {
    // A square grid, 40 pixels a cell; beside row 5 the lines left and
    // right of the centre cell bend a quarter of a cell to the right.
    let mut loc = located(
        Layout::classic(),
        [[0.0, 0.0], [360.0, 0.0], [360.0, 360.0], [0.0, 360.0]],
    );
    loc.col_lines_at = (0..=9).map(|i| vec![i as f32; 9]).collect();
    loc.row_lines_at = (0..=9).map(|i| vec![i as f32; 9]).collect();
    loc.col_lines_at[4][4] = 4.25;
    loc.col_lines_at[5][4] = 5.25;
    let original = RgbaImage::from_pixel(360, 360, Rgba([250, 250, 250, 255]));
    let mut solution = vec![0u8; 81];
    solution[40] = 1;
    let mut image = original.clone();
    let givens = vec![0u8; 81];
    let options = Options::default();
    draw_digits(&mut image, &loc, &givens, &solution, &options).unwrap();
    // The 1's ink is centred between the bent lines (x 170 to 210), not
    // the straight ones (160 to 200).
    let xs: Vec<u32> = image
        .enumerate_pixels()
        .filter(|(x, y, p)| *p != original.get_pixel(*x, *y))
        .map(|(x, _, _)| x)
        .collect();
    assert!(!xs.is_empty());
    let mid = (xs.iter().min().unwrap() + xs.iter().max().unwrap()) as f32 / 2.0;
    assert!(
        (mid - 190.0).abs() <= 3.0,
        "the digit is centred at x {mid}"
    );
}

#[test]
fn changed_cells_are_framed_in_their_own_colour() {
    let loc = located(
        Layout::classic(),
        [[0.0, 0.0], [359.0, 0.0], [359.0, 359.0], [0.0, 359.0]],
    );
    let mut image = RgbaImage::from_pixel(360, 360, Rgba([255, 255, 255, 255]));
    let givens = vec![0u8; 81];
    let mut solution = vec![0u8; 81];
    solution[10] = 3;
    solution[20] = 4;
    draw_solution(
        &mut image,
        &loc,
        &givens,
        &solution,
        &[20],
        Alphabet::Digits,
        &Options::default(),
    )
    .unwrap();
    let count = |cell: usize, colour: Rgba<u8>| {
        let q = loc.cell_quad(cell);
        image
            .enumerate_pixels()
            .filter(|&(x, y, p)| inside(&q, x as f32, y as f32) && *p == colour)
            .count()
    };
    assert!(count(10, Palette::LIGHT.solved) > 30);
    assert_eq!(count(10, Palette::LIGHT.changed), 0);
    assert!(count(20, Palette::LIGHT.changed) > 60, "digit and frame");
    assert_eq!(count(20, Palette::LIGHT.solved), 0);
}

#[test]
fn the_outline_follows_the_shape() {
    let layout = Layout::samurai();
    let loc = located(
        layout,
        [[10.0, 10.0], [430.0, 10.0], [430.0, 430.0], [10.0, 430.0]],
    );
    let mut image = RgbaImage::from_pixel(440, 440, Rgba([255, 255, 255, 255]));
    let none = vec![0u8; loc.layout.cell_count()];
    let options = Options {
        outline: true,
        ..Options::default()
    };
    draw_digits(&mut image, &loc, &none, &none, &options).unwrap();
    let blue = |x: u32, y: u32| *image.get_pixel(x, y) == Palette::LIGHT.outline;
    // 20 px per canvas cell: the top-left grid's top edge, and the top of
    // the blank gap between the two upper grids (canvas row 6, column 10).
    assert!(blue(100, 10));
    assert!(blue(10 + 20 * 10, 10 + 20 * 6));
    assert!(!blue(10 + 20 * 10, 10), "no cells there, no outline");
    assert!(!blue(100, 100), "inside the grid");
}

#[test]
fn wrong_lengths_and_values_are_errors() {
    let loc = located(
        Layout::classic(),
        [[0.0, 0.0], [99.0, 0.0], [99.0, 99.0], [0.0, 99.0]],
    );
    let mut image = RgbaImage::new(100, 100);
    let ok = vec![0u8; 81];
    let e = draw_digits(&mut image, &loc, &ok[..80], &ok, &Options::default());
    assert_eq!(
        e.unwrap_err().to_string(),
        "givens has 80 values; the classic layout has 81 cells"
    );
    let mut bad = ok.clone();
    bad[3] = 10;
    let e = draw_digits(&mut image, &loc, &ok, &bad, &Options::default());
    assert!(e.unwrap_err().to_string().contains("holds 10 at cell 3"));
    let e = draw_solution(
        &mut image,
        &loc,
        &ok,
        &ok,
        &[81],
        Alphabet::Digits,
        &Options::default(),
    );
    assert!(matches!(e, Err(OverlayError::Cell { cell: 81, .. })));
}

#[test]
fn a_rendered_samurai_is_blank_outside_its_shape() {
    let layout = Arc::new(Layout::samurai());
    let mut puzzle = Puzzle::empty(layout.clone());
    puzzle.set(0, 7);
    let options = Options {
        cell_px: 20,
        ..Options::default()
    };
    let solution = vec![1u8; layout.cell_count()];
    let img = render_grid(&puzzle, Some(&solution), &options).unwrap();
    assert_eq!(img.dimensions(), (21 * 20 + 20, 21 * 20 + 20));
    // Canvas row 2, column 10 is outside the shape: blank paper.
    let (x0, y0) = (10 + 10 * 20, 10 + 2 * 20);
    for y in y0 + 3..y0 + 17 {
        for x in x0 + 3..x0 + 17 {
            assert_eq!(*img.get_pixel(x, y), Palette::LIGHT.paper);
        }
    }
    let cell_has = |row: u32, col: u32, colour: Rgba<u8>| {
        let (x0, y0) = (10 + col * 20, 10 + row * 20);
        (y0 + 3..y0 + 17).any(|y| (x0 + 3..x0 + 17).any(|x| *img.get_pixel(x, y) == colour))
    };
    assert!(cell_has(0, 0, Palette::LIGHT.given), "the given is dark");
    assert!(!cell_has(0, 0, Palette::LIGHT.solved));
    assert!(
        cell_has(0, 1, Palette::LIGHT.solved),
        "solved digits are blue"
    );
    // Thick line on the box edge between columns 3 and 4, thin between 1 and 2.
    let dark_run = |x: u32| {
        (x - 3..x + 3)
            .filter(|&x| img.get_pixel(x, 15)[0] < 100)
            .count()
    };
    assert!(dark_run(10 + 3 * 20) >= 2);
    assert_eq!(dark_run(10 + 20), 1);
}

/// Whether (x, y) is inside a convex quad (either winding).
pub(super) fn inside(q: &[[f32; 2]; 4], x: f32, y: f32) -> bool {
    let mut sign = 0.0f32;
    for i in 0..4 {
        let (a, b) = (q[i], q[(i + 1) % 4]);
        let cross = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
        if cross * sign < 0.0 {
            return false;
        }
        if cross != 0.0 {
            sign = cross.signum();
        }
    }
    true
}

#[test]
fn rgb_and_grey_become_opaque_rgba() {
    let rgb = image::RgbImage::from_fn(5, 3, |x, y| image::Rgb([x as u8, y as u8, 7]));
    let rgba = into_rgba(DynamicImage::ImageRgb8(rgb.clone()));
    assert_eq!(rgba, DynamicImage::ImageRgb8(rgb).into_rgba8());
    let grey = image::GrayImage::from_fn(4, 2, |x, y| image::Luma([(x * 10 + y) as u8]));
    let rgba = into_rgba(DynamicImage::ImageLuma8(grey.clone()));
    assert_eq!(rgba, DynamicImage::ImageLuma8(grey).into_rgba8());
}

#[test]
fn rgb_and_rgba_photos_get_the_same_colours() {
    let loc = located(
        Layout::classic(),
        [[12.0, 8.0], [300.0, 20.0], [290.0, 310.0], [4.0, 290.0]],
    );
    let mut rgba = RgbaImage::from_pixel(320, 320, Rgba([200, 190, 180, 255]));
    let mut rgb = image::RgbImage::from_pixel(320, 320, image::Rgb([200, 190, 180]));
    let givens = vec![0u8; 81];
    let solution: Vec<u8> = (0..81).map(|c| (c % 9 + 1) as u8).collect();
    let options = Options {
        outline: true,
        ..Options::default()
    };
    let a = draw_solution(
        &mut rgba,
        &loc,
        &givens,
        &solution,
        &[3],
        Alphabet::Digits,
        &options,
    )
    .unwrap();
    let b = draw_solution(
        &mut rgb,
        &loc,
        &givens,
        &solution,
        &[3],
        Alphabet::Digits,
        &options,
    )
    .unwrap();
    assert_eq!(a, b);
    assert_eq!(DynamicImage::ImageRgba8(rgba).into_rgb8(), rgb);
}

#[test]
fn pencil_marks_under_a_solved_digit_are_covered_with_paper() {
    let loc = located(
        Layout::classic(),
        [[0.0, 0.0], [449.0, 0.0], [449.0, 449.0], [0.0, 449.0]],
    );
    let paper = Rgba([235, 230, 220, 255]);
    let mut image = RgbaImage::from_pixel(450, 450, paper);
    // A candidate mark in the corner of r2c2 (cell 10, 50 px a side).
    for y in 58..64 {
        for x in 58..61 {
            image.put_pixel(x, y, Rgba([90, 90, 90, 255]));
        }
    }
    let original = image.clone();
    let givens = vec![0u8; 81];
    let mut solution = vec![0u8; 81];
    solution[10] = 1;
    solution[11] = 1;
    draw_digits(&mut image, &loc, &givens, &solution, &Options::default()).unwrap();
    assert_eq!(*image.get_pixel(59, 60), paper, "the mark is covered");
    // The clean cell beside it only gets the digit's ink.
    let changed_in = |x0: u32| {
        (50..100)
            .flat_map(|y| (x0..x0 + 50).map(move |x| (x, y)))
            .filter(|&(x, y)| image.get_pixel(x, y) != original.get_pixel(x, y))
            .count()
    };
    assert!(changed_in(100) < 600, "{}", changed_in(100));
    assert!(changed_in(50) > changed_in(100), "mark removed too");

    // A killer's print (cage lines, sums) is never covered.
    let mut image = original.clone();
    let options = Options {
        cover_marks: false,
        ..Options::default()
    };
    draw_digits(&mut image, &loc, &givens, &solution, &options).unwrap();
    assert_eq!(*image.get_pixel(59, 60), Rgba([90, 90, 90, 255]), "kept");
    assert!(changed_in(50) < 600, "{}", changed_in(50));
}

/// The killer sample, its cages drawn as printed.
#[test]
fn a_rendered_killer_shows_dashed_cages_and_sums() {
    use crate::grid::{Cage, Document, parse};
    let text = include_str!("../../samples/puzzles/killer.txt");
    let Document::Single(killer) = parse(text, "killer.txt", None).unwrap() else {
        panic!("one puzzle");
    };
    let options = Options::default();
    let plain = killer.clone().with_cages(Vec::new()).unwrap();
    let with = render_grid(&killer, None, &options).unwrap();
    let without = render_grid(&plain, None, &options).unwrap();
    assert_eq!(with.dimensions(), without.dimensions());
    let dark = |p: &Rgba<u8>| p[0] < 128;
    let s = options.cell_px as f32;
    let m = (options.cell_px / 2) as f32;
    let at =
        |img: &RgbaImage, x: f32, y: f32| *img.get_pixel((m + x * s) as u32, (m + y * s) as u32);

    // Cage a is r1c1-r1c3 (sum 12): along its top, inside the cells, ink
    // and paper alternate (dashes) where the plain grid has no line.
    let y = cages::CAGE_INSET;
    let row: Vec<bool> = (0..150)
        .map(|i| 0.5 + i as f32 * 0.01)
        .map(|x| dark(&at(&with, x, y)) && !dark(&at(&without, x, y)))
        .collect();
    let runs = row.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(runs >= 10, "dashes along the cage's top: {row:?}");
    assert!(row.iter().filter(|&&d| d).count() > 40);
    // Its right side ends inside r1c3: no outline across into r1c4 at
    // mid-height of the row, but there is one just inside r1c3.
    let column = |x: f32| (20..80).any(|i| dark(&at(&with, x, i as f32 * 0.01)));
    assert!(column(3.0 - cages::CAGE_INSET), "the cage's right side");
    assert!(!column(3.0 + 0.5), "nothing in the middle of r1c4");

    // The sum "12" in r1c1's top-left corner, inside the outline; r1c2
    // has no sum there.
    let ink_in = |c: f32| {
        (0..15)
            .flat_map(|j| {
                (0..25).map(move |i| (c + 0.12 + i as f32 * 0.01, 0.11 + j as f32 * 0.01))
            })
            .filter(|&(x, y)| dark(&at(&with, x, y)))
            .count()
    };
    assert!(ink_in(0.0) > 40, "{}", ink_in(0.0));
    assert_eq!(ink_in(1.0), 0);
    // The centre of a cell stays paper.
    assert!(!dark(&at(&with, 4.5, 4.5)));

    // A cage of one cell is a small dashed square.
    let one = plain.with_cages(vec![Cage::new(5, vec![40])]).unwrap();
    let img = render_grid(&one, None, &options).unwrap();
    let bottom = 5.0 - cages::CAGE_INSET;
    let inked = |img: &RgbaImage| {
        (20..80)
            .filter(|&i| dark(&at(img, 4.0 + i as f32 * 0.01, bottom)))
            .count()
    };
    assert!(inked(&img) > 20, "{}", inked(&img));
    assert_eq!(inked(&without), 0);
}

#[test]
fn restoring_the_returned_rectangles_undoes_the_drawing() {
    let loc = located(
        Layout::samurai(),
        [[5.0, 9.0], [420.0, 2.0], [430.0, 425.0], [0.0, 415.0]],
    );
    let original = RgbaImage::from_fn(440, 440, |x, y| Rgba([x as u8, y as u8, 200, 255]));
    let mut image = original.clone();
    let n = loc.layout.cell_count();
    let givens = vec![0u8; n];
    let solution: Vec<u8> = (0..n).map(|c| (c % 9 + 1) as u8).collect();
    let options = Options {
        outline: true,
        ..Options::default()
    };
    let rects = draw_solution(
        &mut image,
        &loc,
        &givens,
        &solution,
        &[0, 5],
        Alphabet::Digits,
        &options,
    )
    .unwrap();
    assert_ne!(image, original);
    restore(&mut image, &original, &rects);
    assert_eq!(image, original);
}

#[test]
fn solved_symbols_are_drawn_in_the_puzzles_alphabet() {
    let loc = located(
        Layout::named("16x16").unwrap(),
        [[10.0, 10.0], [330.0, 10.0], [330.0, 330.0], [10.0, 330.0]],
    );
    let givens = vec![0u8; 256];
    let draw = |alphabet: Alphabet, value: u8| {
        let mut image = RgbaImage::from_pixel(340, 340, Rgba([250, 250, 250, 255]));
        let mut solution = vec![0u8; 256];
        solution[17] = value;
        let options = Options {
            palette: Some(Palette::LIGHT),
            ..Options::default()
        };
        let rects = draw_solution(
            &mut image,
            &loc,
            &givens,
            &solution,
            &[],
            alphabet,
            &options,
        )
        .unwrap();
        assert_eq!(rects.len(), 1, "one glyph drawn");
        image
    };
    // A hexadecimal page's symbol 2 is a `1`, its 16 an `F`, and its 1 a
    // `0`, which the digits alphabet has no glyph for.
    assert!(draw(Alphabet::Hex, 2) == draw(Alphabet::Digits, 1));
    assert!(draw(Alphabet::Hex, 2) != draw(Alphabet::Digits, 2));
    assert!(draw(Alphabet::Hex, 16) == draw(Alphabet::Digits, 15));
    assert!(draw(Alphabet::Hex, 16) != draw(Alphabet::Digits, 16));
    for v in 1..=16 {
        assert!(draw(Alphabet::Hex, 1) != draw(Alphabet::Digits, v), "{v}");
    }
}
