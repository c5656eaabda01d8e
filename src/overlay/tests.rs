use std::sync::Arc;

use super::*;
use crate::grid::{Puzzle, Rule};

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
    let y = cage_outline::CAGE_INSET;
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
    assert!(
        column(3.0 - cage_outline::CAGE_INSET),
        "the cage's right side"
    );
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
    let bottom = 5.0 - cage_outline::CAGE_INSET;
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

/// An empty classic grid with the rules in `rules` (the text form, one a
/// line).
fn ruled(rules: &str) -> Puzzle {
    use crate::grid::{Document, parse};
    let text = format!("{}\nrules:\n{rules}\n", ".".repeat(81));
    match parse(&text, "ruled", None).unwrap() {
        Document::Single(p) => p,
        Document::Batch(_) => panic!("one puzzle"),
    }
}

/// The clean render of `puzzle` at the default size, and the pixel at grid
/// point (x, y) of it (margin `m` cells).
fn rendered(puzzle: &Puzzle) -> RgbaImage {
    render_grid(puzzle, None, &Options::default()).unwrap()
}

fn at(img: &RgbaImage, margin: f32, x: f32, y: f32) -> Rgba<u8> {
    let s = Options::default().cell_px as f32;
    *img.get_pixel(((margin + x) * s) as u32, ((margin + y) * s) as u32)
}

/// The (row, column) of the cell holding pixel (x, y) of a render with
/// `margin` cells of margin, if any.
fn cell_of(margin: f32, x: u32, y: u32) -> Option<(i32, i32)> {
    let s = Options::default().cell_px as f32;
    let (gx, gy) = (x as f32 / s - margin, y as f32 / s - margin);
    (gx >= 0.0 && gy >= 0.0 && gx < 9.0 && gy < 9.0).then_some((gy as i32, gx as i32))
}

fn same_rgb(a: Rgba<u8>, b: Rgba<u8>) -> bool {
    a.0[..3] == b.0[..3]
}

#[test]
fn a_thermometer_runs_through_its_cells_with_its_bulb_first() {
    use rules::{BULB_RADIUS, Inks, THERMO_WIDTH};
    let img = rendered(&ruled("thermo r2c2 r2c3 r2c4"));
    let thermo = Inks::LIGHT.thermo;
    let mut seen = [0usize; 3];
    for (x, y, p) in img.enumerate_pixels() {
        if !same_rgb(*p, thermo) {
            continue;
        }
        let cell = cell_of(0.5, x, y);
        assert!(
            matches!(cell, Some((1, 1..=3))),
            "thermometer ink at {x},{y} in {cell:?}"
        );
        if let Some((_, c)) = cell {
            seen[c as usize - 1] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
    // Beside the tube but inside the bulb: only the first cell is inked.
    let off = (THERMO_WIDTH / 2.0 + BULB_RADIUS) / 2.0;
    assert!(same_rgb(at(&img, 0.5, 1.5, 1.5 + off), thermo), "the bulb");
    assert!(same_rgb(
        at(&img, 0.5, 3.5, 1.5 + off),
        Palette::LIGHT.paper
    ));
    assert!(same_rgb(
        at(&img, 0.5, 2.5, 1.5 + off),
        Palette::LIGHT.paper
    ));
    // The tube joins the cells' centres.
    assert!(same_rgb(at(&img, 0.5, 3.0, 1.5), thermo));
}

#[test]
fn kropki_dots_sit_on_the_shared_edge() {
    use rules::{DOT_RADIUS, DOT_RING_WIDTH};
    let img = rendered(&ruled("black r1c1 r1c2\nwhite r5c5 r6c5"));
    let dark = |p: Rgba<u8>| p[0] < 80 && p[1] < 80 && p[2] < 80;
    // The black dot's centre, on the edge between r1c1 and r1c2, and
    // around it; not in the cells' middles.
    assert!(dark(at(&img, 0.5, 1.0, 0.5)));
    assert!(dark(at(&img, 0.5, 1.0 + DOT_RADIUS * 0.6, 0.5)));
    assert!(!dark(at(&img, 0.5, 0.5, 0.5)));
    assert!(!dark(at(&img, 0.5, 1.0 + DOT_RADIUS * 1.6, 0.5)));
    // The white dot is hollow: paper at its centre, over the grid line,
    // its ring dark.
    assert_eq!(at(&img, 0.5, 4.5, 5.0), Palette::LIGHT.paper);
    let ring = DOT_RADIUS - DOT_RING_WIDTH / 2.0;
    assert!(dark(at(&img, 0.5, 4.5 + ring, 5.0)), "the ring");
    assert!(dark(at(&img, 0.5, 4.5, 5.0 - ring)), "the ring");
    // Without the dot, the edge's centre is the grid line.
    let plain = rendered(&ruled(""));
    assert!(dark(at(&plain, 0.5, 4.5, 5.0)));
}

#[test]
fn lines_and_cell_marks_have_their_colours_in_their_cells() {
    use rules::Inks;
    let inks = Inks::LIGHT;
    let img = rendered(&ruled(
        "whispers r1c1 r1c2 r1c3\nrenban r3c1 r3c2\nregionsum r5c1 r5c2\n\
         palindrome r7c1 r7c2\nregion r9c9 r9c8\nodd r1c9\neven r2c9\ndiagonal-",
    ));
    for (name, colour, cells) in [
        ("whispers", inks.whispers, vec![(0, 0), (0, 1), (0, 2)]),
        ("renban", inks.renban, vec![(2, 0), (2, 1)]),
        ("region sum", inks.region_sum, vec![(4, 0), (4, 1)]),
        ("palindrome", inks.palindrome, vec![(6, 0), (6, 1)]),
        ("shading", inks.shade, vec![(8, 8), (8, 7)]),
        ("odd and even", inks.parity, vec![(0, 8), (1, 8)]),
    ] {
        // Per cell, the pixels of exactly that colour: many in the rule's
        // cells, at most a few elsewhere (another mark's smooth edge may
        // pass through the same grey).
        let mut count = std::collections::HashMap::new();
        for (x, y, p) in img.enumerate_pixels() {
            if same_rgb(*p, colour) {
                *count.entry(cell_of(0.5, x, y)).or_insert(0usize) += 1;
            }
        }
        for (cell, n) in &count {
            let listed = cell.is_some_and(|(r, c)| cells.contains(&(r as usize, c as usize)));
            assert!(listed || *n <= 8, "{name}: {n} pixels in {cell:?}");
        }
        for &(r, c) in &cells {
            let n = count.get(&Some((r as i32, c as i32))).copied().unwrap_or(0);
            assert!(n > 50, "{name}: {n} pixels in r{}c{}", r + 1, c + 1);
        }
    }
    // A circle for odd, a square for even: a cell's corner region is
    // inked in the square only.
    assert!(same_rgb(at(&img, 0.5, 8.2, 1.2), inks.parity), "even");
    assert!(
        same_rgb(at(&img, 0.5, 8.2, 0.2), Palette::LIGHT.paper),
        "odd"
    );
    // The diagonal passes through r5c5's centre, not r5c6's.
    assert!(same_rgb(at(&img, 0.5, 4.5, 4.5), inks.diagonal));
    assert!(same_rgb(at(&img, 0.5, 5.5, 4.5), Palette::LIGHT.paper));
}

#[test]
fn an_arrow_has_its_ring_and_a_head_at_the_end() {
    use rules::{ARROW_RING_RADIUS, Inks};
    let img = rendered(&ruled("arrow r1c1 : r1c2 r1c3"));
    let arrow = |p: Rgba<u8>| (p[0] as i32 - Inks::LIGHT.arrow[0] as i32).abs() < 30;
    assert!(arrow(at(&img, 0.5, 0.5, 0.5 + ARROW_RING_RADIUS)), "ring");
    assert!(arrow(at(&img, 0.5, 0.5 - ARROW_RING_RADIUS, 0.5)), "ring");
    assert_eq!(at(&img, 0.5, 0.5, 0.5), Palette::LIGHT.paper, "inside");
    assert!(arrow(at(&img, 0.5, 1.5, 0.5)), "shaft");
    // The head's sides, behind the tip, above and below the shaft; none
    // at the line's start.
    let wing =
        |x: f32, dy: f32| (0..20).any(|i| arrow(at(&img, 0.5, x - i as f32 * 0.01, 0.5 + dy)));
    assert!(wing(2.4, 0.08) && wing(2.4, -0.08), "head");
    assert!(!wing(1.4, 0.08), "no head at the start");
}

#[test]
fn a_comparison_sign_points_to_the_smaller_cell() {
    use rules::{SIGN_HALF, SIGN_SPREAD};
    // Dark ink within a hundredth of a cell or so of (x, y).
    let dark = |img: &RgbaImage, x: f32, y: f32| {
        (-1..=1).any(|j| {
            (-1..=1).any(|i| at(img, 0.5, x + i as f32 * 0.01, y + j as f32 * 0.01)[0] < 100)
        })
    };
    // r1c2 < r1c1: the tip on r1c2's side, the opening on r1c1's.
    let img = rendered(&ruled("less r1c2 r1c1"));
    let wing_y = 0.5 - SIGN_SPREAD * 0.9;
    assert!(dark(&img, 1.0 - SIGN_HALF, wing_y));
    assert!(!dark(&img, 1.0 + SIGN_HALF, wing_y));
    assert!(dark(&img, 1.0 + SIGN_HALF, 0.5), "the tip");
    let img = rendered(&ruled("less r1c1 r1c2"));
    assert!(dark(&img, 1.0 + SIGN_HALF, wing_y));
    assert!(!dark(&img, 1.0 - SIGN_HALF, wing_y));
    assert!(dark(&img, 1.0 - SIGN_HALF, 0.5), "the tip");
}

#[test]
fn x_and_v_are_written_on_their_edge() {
    let dark = |p: Rgba<u8>| p[0] < 100;
    let ink = |img: &RgbaImage, cx: f32, cy: f32| {
        (-10..10)
            .flat_map(|j| (-10..10).map(move |i| (cx + i as f32 * 0.01, cy + j as f32 * 0.01)))
            .filter(|&(x, y)| dark(at(img, 0.5, x, y)))
            .count()
    };
    let x = rendered(&ruled("x r3c3 r3c4"));
    let v = rendered(&ruled("v r3c3 r3c4"));
    let plain = rendered(&ruled(""));
    // The grid line under the letter is covered; the letter's ink there.
    let (ix, ip) = (ink(&x, 3.0, 2.5), ink(&plain, 3.0, 2.5));
    assert!(ix > ip + 20, "{ix} {ip}");
    // An X is inked at its centre, a V not (its arms part there).
    assert!(dark(at(&x, 0.5, 3.0, 2.5)));
    assert!(!dark(at(&v, 0.5, 3.0, 2.5 - 0.06)));
    assert_ne!(x, v);
}

#[test]
fn outside_clues_widen_the_margin_by_a_cell() {
    let s = Options::default().cell_px;
    let plain = rendered(&ruled(""));
    let puzzle = ruled("sandwich r0c2 8\nlittlekiller r10c1 ur 14");
    let img = rendered(&puzzle);
    assert_eq!(img.width(), plain.width() + 2 * s);
    assert_eq!(img.height(), plain.height() + 2 * s);
    // Where the grid lies: a cell and a half in.
    let frame = render_frame(&puzzle, &Options::default());
    assert_eq!((frame.width, frame.height), img.dimensions());
    let (m, g) = (1.5 * s as f32, 10.5 * s as f32);
    assert_eq!(frame.corners, [[m, m], [g, m], [g, g], [m, g]]);
    let plain_frame = render_frame(&ruled(""), &Options::default());
    assert_eq!(plain_frame.corners[0], [s as f32 / 2.0; 2]);
    let dark = |p: Rgba<u8>| p[0] < 100;
    // Dark pixels in the place at (x0, y0), a tenth of a cell in from its
    // sides (clear of the grid's outline).
    let ink = |x0: f32, y0: f32| {
        (0..40)
            .flat_map(|j| {
                (0..40).map(move |i| (x0 + 0.1 + i as f32 * 0.02, y0 + 0.1 + j as f32 * 0.02))
            })
            .filter(|&(x, y)| dark(at(&img, 1.5, x, y)))
            .count()
    };
    // The sandwich's 8 above column 2, the little killer's 14 below
    // column 1; nothing above column 3 or below column 2.
    assert!(ink(1.0, -1.0) > 30, "{}", ink(1.0, -1.0));
    assert!(ink(0.0, 9.0) > 30, "{}", ink(0.0, 9.0));
    assert_eq!(ink(2.0, -1.0), 0);
    assert_eq!(ink(1.0, 9.0), 0);
    // Its arrow points up and right, into the grid: ink towards the
    // place's top-right corner, none towards its bottom-left.
    let near = |x: f32, y: f32| {
        (-1..=1).any(|j| {
            (-1..=1).any(|i| dark(at(&img, 1.5, x + i as f32 * 0.01, y + j as f32 * 0.01)))
        })
    };
    assert!(near(0.5 + 0.35, 9.5 - 0.35));
    assert!(!near(0.5 - 0.4, 9.5 + 0.4));
}

#[test]
fn whole_grid_rules_are_named_under_the_grid() {
    let plain = rendered(&ruled(""));
    let puzzle = ruled("antiknight\nnonconsecutive\nantiknight");
    let img = rendered(&puzzle);
    assert_eq!(img.width(), plain.width());
    assert!(img.height() > plain.height());
    let frame = render_frame(&puzzle, &Options::default());
    assert_eq!((frame.width, frame.height), img.dimensions());
    assert_eq!(
        frame.corners,
        render_frame(&ruled(""), &Options::default()).corners
    );
    // The grid is as without them; the band under it holds the caption.
    let (w, h) = plain.dimensions();
    let top = image::imageops::crop_imm(&img, 0, 0, w, h).to_image();
    let plain_top = image::imageops::crop_imm(&plain, 0, 0, w, h - 20).to_image();
    assert_eq!(
        image::imageops::crop_imm(&top, 0, 0, w, h - 20).to_image(),
        plain_top
    );
    let band = (h - 10..img.height())
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| img.get_pixel(x, y)[0] < 100)
        .count();
    assert!(band > 200, "{band}");
    assert_eq!(
        rules::caption(ruled("antiknight\nnonconsecutive\nantiknight").rules()),
        ["Anti-knight", "Non-consecutive"]
    );
}

#[test]
fn a_puzzle_without_rules_renders_as_before() {
    use crate::grid::{Document, parse};
    let text = include_str!("../../samples/puzzles/classic.txt");
    let Document::Single(classic) = parse(text, "classic.txt", None).unwrap() else {
        panic!("one puzzle");
    };
    assert!(classic.rules().is_empty());
    let solution = vec![5u8; 81];
    let options = Options::default();
    let before = render_grid(&classic, Some(&solution), &options).unwrap();
    let again = render_grid(
        &classic.clone().with_rules(vec![]),
        Some(&solution),
        &options,
    );
    assert_eq!(before, again.unwrap());
    assert_eq!(
        before.dimensions(),
        (10 * 64, 10 * 64),
        "half a cell of margin"
    );
    // A rule does change it, where it is.
    let thermo = Rule::parse("thermo r5c5 r5c6", classic.layout()).unwrap();
    let with = render_grid(&classic.with_rules(thermo), Some(&solution), &options).unwrap();
    assert_eq!(with.dimensions(), before.dimensions());
    assert_ne!(with, before);
    for (x, y, p) in with.enumerate_pixels() {
        if p != before.get_pixel(x, y) {
            assert!(matches!(cell_of(0.5, x, y), Some((4, 4..=5))), "{x},{y}");
        }
    }
}

#[test]
fn digits_stay_on_top_of_the_lines() {
    let puzzle = ruled("thermo r1c1 r1c2 r1c3\nregion r1c1 r1c2");
    let solution = vec![8u8; 81];
    let img = render_grid(&puzzle, Some(&solution), &Options::default()).unwrap();
    // The solved 8's ink at r1c2's centre line is the solved colour.
    let solved = (0..64)
        .map(|i| at(&img, 0.5, 1.2 + i as f32 * 0.01, 0.5))
        .filter(|&p| p == Palette::LIGHT.solved)
        .count();
    assert!(solved > 3, "{solved}");
}

#[test]
fn odd_rules_draw_without_panicking() {
    use crate::grid::{Diagonal, Direction, Mark};
    let odd = vec![
        Rule::Thermometer(vec![500, 0]),
        Rule::Thermometer(vec![7]),
        Rule::Whispers {
            cells: vec![3],
            gap: 5,
        },
        Rule::Renban(vec![]),
        Rule::Arrow {
            circle: vec![],
            line: vec![1, 2],
        },
        Rule::Arrow {
            circle: vec![4],
            line: vec![4],
        },
        Rule::Between(vec![5]),
        Rule::Between(vec![5, 5]),
        Rule::Less { cells: [3, 3] },
        Rule::Difference {
            cells: [0, 80],
            value: 1,
        },
        Rule::Xv {
            cells: [0, 900],
            sum: 7,
        },
        Rule::Distinct(vec![999, 1]),
        Rule::Region(vec![]),
        Rule::Odd(1000),
        Rule::LittleKiller {
            clue: (-7, 40),
            direction: Direction::UpLeft,
            sum: 3,
        },
        Rule::LittleKiller {
            clue: (4, 4),
            direction: Direction::DownRight,
            sum: 3,
        },
        Rule::Sandwich {
            clue: (i32::MAX, i32::MIN),
            sum: 0,
        },
        Rule::Diagonal(Diagonal::Anti),
        Rule::AllGiven(Mark::Xv),
    ];
    for layout in [
        Layout::classic(),
        Layout::samurai(),
        Layout::square(4).unwrap(),
    ] {
        let puzzle = Puzzle::empty(Arc::new(layout.clone())).with_rules(odd.clone());
        let img = render_grid(&puzzle, None, &Options::default()).unwrap();
        assert!(img.height() > img.width(), "a caption");
        let loc = located(
            layout,
            [[20.0, 30.0], [400.0, 10.0], [430.0, 420.0], [5.0, 390.0]],
        );
        let mut photo = RgbaImage::from_pixel(440, 440, Rgba([250, 250, 250, 255]));
        draw_rules(&mut photo, &loc, &odd, &Options::default());
    }
}

#[test]
fn rules_on_a_photo_follow_the_grid_and_restore() {
    let loc = located(
        Layout::classic(),
        [[60.0, 70.0], [400.0, 50.0], [430.0, 420.0], [45.0, 390.0]],
    );
    let original = RgbaImage::from_pixel(480, 480, Rgba([250, 250, 250, 255]));
    let mut image = original.clone();
    let rules = ruled("thermo r5c5 r5c6\nsandwich r0c2 8").rules().to_vec();
    let rects = draw_rules(&mut image, &loc, &rules, &Options::default());
    let (q1, q2) = (loc.cell_quad(40), loc.cell_quad(41));
    let mut inked = [0usize; 3];
    for (x, y, p) in image.enumerate_pixels() {
        if p == original.get_pixel(x, y) {
            continue;
        }
        let (fx, fy) = (x as f32, y as f32);
        if inside(&q1, fx, fy) {
            inked[0] += 1;
        } else if inside(&q2, fx, fy) {
            inked[1] += 1;
        } else {
            // The clue above column 2, beyond the grid's top edge.
            assert!(fy < 70.0 && fx > 60.0 && fx < 160.0, "ink at {x},{y}");
            inked[2] += 1;
        }
    }
    assert!(inked.iter().all(|&n| n > 20), "{inked:?}");
    restore(&mut image, &original, &rects);
    assert_eq!(image, original);

    // A grid filling the photo has no room for the clue: it is skipped.
    let full = located(
        Layout::classic(),
        [[0.0, 0.0], [479.0, 0.0], [479.0, 479.0], [0.0, 479.0]],
    );
    let sandwich = ruled("sandwich r0c2 8").rules().to_vec();
    let mut image = original.clone();
    assert!(draw_rules(&mut image, &full, &sandwich, &Options::default()).is_empty());
    assert_eq!(image, original);

    // On RGB as on RGBA.
    let mut rgb = image::RgbImage::from_pixel(480, 480, image::Rgb([250, 250, 250]));
    draw_rules(&mut rgb, &loc, &rules, &Options::default());
    assert!(rgb.pixels().any(|p| p.0 != [250, 250, 250]));
    // With rules, marks in cells are not covered.
    assert!(!Options::default().for_rules(true).cover_marks);
    assert!(Options::default().for_rules(false).cover_marks);
}

#[test]
fn a_highlighted_rule_tints_its_cells_only() {
    let loc = located(
        Layout::classic(),
        [[0.0, 0.0], [450.0, 0.0], [450.0, 450.0], [0.0, 450.0]],
    );
    let original = RgbaImage::from_pixel(451, 451, Rgba([250, 250, 250, 255]));
    let mut image = original.clone();
    let rule = ruled("renban r2c2 r2c3").rules()[0].clone();
    let tint = Rgba([255, 200, 0, 120]);
    let rects = draw_rule_highlight(&mut image, &loc, &rule, tint);
    assert!(!rects.is_empty());
    // A cell's corner: the tint only; another cell: untouched.
    let p = image.get_pixel(50 + 5, 50 + 5);
    assert!(p[2] < 200 && p[0] > 240, "{p:?}");
    assert_eq!(image.get_pixel(100 + 5, 50 + 5), p);
    assert_eq!(image.get_pixel(150 + 5, 50 + 5), original.get_pixel(0, 0));
}

#[test]
fn every_rule_family_renders() {
    let puzzle = ruled(
        "diagonal+\ndiagonal-\nregion r7c7 r7c8 r8c7 r8c8\ncage r1c7 r1c8 r2c8\n\
         odd r9c1\neven r9c2\nwhite r4c1 r4c2\nblack r5c1 r5c2\nx r6c1 r6c2\nv r6c2 r6c3\n\
         less r7c1 r7c2\nless r8c2 r7c2\nthermo r1c1 r1c2 r1c3 r2c4\n\
         arrow r3c5 r3c6 : r4c7 r5c8 r6c9\narrow r2c1 : r3c2 r3c3\n\
         whispers r9c4 r8c5 r9c6\nrenban r5c4 r5c5 r5c6\npalindrome r2c6 r2c7\n\
         between r4c4 r3c4 r2c5\nregionsum r9c8 r9c9\nlittlekiller r0c3 dl 14\n\
         littlekiller r10c10 ul 45\nsandwich r0c6 8\nsandwich r4c10 0\nsandwich r4c0 35\n\
         antiknight\nantiking\nnonconsecutive\ndisjoint\nallgiven white",
    );
    let solution: Vec<u8> = (0..81)
        .map(|i| ((i * 3 + i / 9 + i / 27) % 9 + 1) as u8)
        .collect();
    let img = render_grid(&puzzle, Some(&solution), &Options::default()).unwrap();
    let s = Options::default().cell_px;
    assert_eq!(img.width(), 12 * s);
    assert!(img.height() > 12 * s);
    // The same rules onto a photo in perspective, under the solution.
    let loc = located(
        Layout::classic(),
        [
            [150.0, 140.0],
            [760.0, 110.0],
            [800.0, 760.0],
            [120.0, 720.0],
        ],
    );
    let mut photo = RgbaImage::from_pixel(900, 900, Rgba([236, 232, 220, 255]));
    let options = Options::default().for_rules(true);
    let rects = draw_rules(&mut photo, &loc, puzzle.rules(), &options);
    // Every mark but the caption's rules: 30 rules, 5 without marks.
    assert!(rects.len() >= 25, "{}", rects.len());
    draw_digits(&mut photo, &loc, puzzle.values(), &solution, &options).unwrap();
    if let Some(dir) = std::env::var_os("SUDOKU_LENS_PREVIEW_DIR") {
        let dir = std::path::Path::new(&dir);
        img.save(dir.join("rules.png")).unwrap();
        photo.save(dir.join("rules-photo.png")).unwrap();
    }
}

#[test]
fn high_contrast_draws_stronger_inks_and_heavier_lines_and_marks() {
    let high = Options {
        contrast: Contrast::High,
        ..Options::default()
    };
    // On a photo's light paper: solved digits in the strong blue, none in
    // the ordinary one.
    let loc = located(
        Layout::classic(),
        [[0.0, 0.0], [359.0, 0.0], [359.0, 359.0], [0.0, 359.0]],
    );
    let white = RgbaImage::from_pixel(360, 360, Rgba([255, 255, 255, 255]));
    let givens = vec![0u8; 81];
    let mut solution = vec![0u8; 81];
    solution[10] = 3;
    let count =
        |image: &RgbaImage, colour: Rgba<u8>| image.pixels().filter(|&&p| p == colour).count();
    let mut image = white.clone();
    draw_digits(&mut image, &loc, &givens, &solution, &high).unwrap();
    assert!(count(&image, Palette::HIGH_CONTRAST.solved) > 30);
    assert_eq!(count(&image, Palette::LIGHT.solved), 0);

    // A drawn grid: its lines heavier, its givens black.
    let layout = Arc::new(Layout::classic());
    let empty = Puzzle::empty(layout.clone());
    let ordinary = render_grid(&empty, None, &Options::default()).unwrap();
    let strong = render_grid(&empty, None, &high).unwrap();
    let line_px = |img: &RgbaImage| img.pixels().filter(|p| p[0] < 60).count();
    assert!(
        line_px(&strong) as f32 > 1.3 * line_px(&ordinary) as f32,
        "{} against {}",
        line_px(&strong),
        line_px(&ordinary)
    );
    let mut puzzle = empty.clone();
    puzzle.set(0, 7);
    let img = render_grid(&puzzle, None, &high).unwrap();
    assert!(
        count(&img, Palette::HIGH_CONTRAST.given) > count(&strong, Palette::HIGH_CONTRAST.given)
    );

    // A wrong entry: pure red, and a heavier tint than the ordinary one.
    let tinted = |contrast: Contrast| {
        let mut image = white.clone();
        mark_wrong(&mut image, &loc, &givens, &[40], contrast).unwrap();
        let [x, y] = loc.canvas_to_image(4.25, 4.25);
        (
            *image.get_pixel(x.round() as u32, y.round() as u32),
            count(&image, WRONG_HIGH_CONTRAST),
        )
    };
    let (plain, none) = tinted(Contrast::Normal);
    let (strong_tint, red) = tinted(Contrast::High);
    assert_eq!(none, 0);
    assert!(red > 50, "{red} px of the strong red");
    assert!(
        strong_tint[1] + 20 < plain[1],
        "{strong_tint:?} over {plain:?}"
    );

    // A hint's step: its pattern in the strong violet, thicker.
    let mut step = crate::logic::Step::new(crate::logic::Technique::Pointing);
    step.cells = vec![0];
    let outlined = |options: &Options, colour: Rgba<u8>| {
        let mut image = white.clone();
        hint::draw_step(&mut image, &loc, &step, Alphabet::Digits, options).unwrap();
        count(&image, colour)
    };
    let p = hint::StepPalette::HIGH_CONTRAST;
    assert_eq!(outlined(&high, hint::StepPalette::LIGHT.pattern), 0);
    assert!(
        outlined(&high, p.pattern)
            > outlined(&Options::default(), hint::StepPalette::LIGHT.pattern)
    );
}
