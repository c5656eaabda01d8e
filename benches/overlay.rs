//! Drawing the solution onto a 12-megapixel photo (4000 x 3000), the grid
//! seen in perspective and filling about two thirds of the frame.
//!
//! - `overlay/draw_solution/<layout>/<rgb|rgba>`: [`draw_solution`] as the
//!   CLI (on the RGB pixels a JPEG decodes to) and the app (RGBA) call it:
//!   background sampling, glyph rasterising, warped drawing of every empty
//!   cell's digit.
//! - `overlay/draw_rules/classic`: [`draw_rules`] of a busy variant (both
//!   diagonals, a shaded window, thermometers, an arrow, lines, dots, X / V
//!   and outside clues) onto the same photo, before the digits: each mark
//!   is a distance field walked over its own blocks of pixels only.
//! - `overlay/rgb_to_rgba`: [`into_rgba`] of the decoded RGB photo (a clone
//!   of it included), the conversion drawing on RGB avoids.
//! - `overlay/render_then_warp/classic`: the alternative design, digits
//!   rendered once in grid space and that image warped over the whole photo
//!   with imageproc (before any blending): it maps every photo pixel, so it
//!   costs far more than drawing each glyph warped into its own box.
//!
//! cargo bench --bench overlay

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::Criterion;
use image::{Rgba, RgbaImage};
use imageproc::geometric_transformations::{Border, Interpolation, warp_into};
use sudoku_lens::grid::{Alphabet, Document, Layout, Puzzle, parse};
use sudoku_lens::overlay::{Options, draw_rules, draw_solution, into_rgba, render_grid};
use sudoku_lens::solve::solve;
use sudoku_lens::vision::locate::Located;
use sudoku_lens::vision::page::homography::Homography;

const W: u32 = 4000;
const H: u32 = 3000;

fn sample(name: &str) -> Puzzle {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples/puzzles")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    match parse(&text, name, None).unwrap() {
        Document::Single(p) => p,
        Document::Batch(_) => panic!("{name} is one puzzle"),
    }
}

/// The grid of `layout` seen in perspective in a 4000 x 3000 photo.
fn located(layout: &Layout) -> Located {
    let corners = [
        [900.0, 350.0],
        [3150.0, 450.0],
        [3250.0, 2700.0],
        [800.0, 2600.0],
    ];
    let (w, h) = (layout.width() as f64, layout.height() as f64);
    let from = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
    let to = corners.map(|[x, y]: [f32; 2]| [x as f64, y as f64]);
    Located {
        corners,
        homography: Homography::from_points(&from, &to).unwrap(),
        col_lines: (0..=layout.width()).map(|i| i as f32).collect(),
        row_lines: (0..=layout.height()).map(|i| i as f32).collect(),
        col_lines_at: Vec::new(),
        row_lines_at: Vec::new(),
        layout: layout.clone(),
        score: 1.0,
        layout_scores: Vec::new(),
    }
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let mut photo = RgbaImage::from_pixel(W, H, Rgba([225, 220, 210, 255]));
    let mut photo_rgb = image::RgbImage::from_pixel(W, H, image::Rgb([225, 220, 210]));
    let mut g = c.benchmark_group("overlay");
    for name in ["classic", "samurai"] {
        let puzzle = sample(&format!("{name}.txt"));
        let solution = solve(&puzzle, 1, 1).unwrap().solutions.remove(0);
        let loc = located(puzzle.layout());
        let options = Options::default();
        // Drawing over the previous iteration's digits costs the same.
        g.bench_function(format!("draw_solution/{name}/rgba"), |b| {
            b.iter(|| {
                draw_solution(
                    &mut photo,
                    &loc,
                    puzzle.values(),
                    black_box(&solution),
                    &[],
                    Alphabet::Digits,
                    &options,
                )
                .unwrap()
            })
        });
        g.bench_function(format!("draw_solution/{name}/rgb"), |b| {
            b.iter(|| {
                draw_solution(
                    &mut photo_rgb,
                    &loc,
                    puzzle.values(),
                    black_box(&solution),
                    &[],
                    Alphabet::Digits,
                    &options,
                )
                .unwrap()
            })
        });
    }
    let variant = format!(
        "{}rules:\ndiagonal+\ndiagonal-\nregion r2c2 r2c3 r2c4 r3c2 r3c3 r3c4 r4c2 r4c3 r4c4\n\
         thermo r1c1 r1c2 r1c3 r2c4 r3c5\nthermo r9c1 r8c1 r7c1 r6c2\n\
         arrow r5c5 : r6c6 r7c7 r8c8\nwhispers r1c9 r2c8 r3c9 r4c8\nrenban r9c5 r9c6 r9c7\n\
         white r4c5 r4c6\nblack r6c4 r7c4\nx r8c5 r8c6\nv r2c6 r2c7\n\
         littlekiller r0c4 dl 12\nsandwich r5c0 17\n",
        std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/puzzles/classic.txt")
        )
        .unwrap()
    );
    let variant = match parse(&variant, "variant", None).unwrap() {
        Document::Single(p) => p,
        Document::Batch(_) => panic!("one puzzle"),
    };
    let loc = located(variant.layout());
    g.bench_function("draw_rules/classic", |b| {
        b.iter(|| {
            draw_rules(
                &mut photo,
                &loc,
                black_box(variant.rules()),
                &Options::default(),
            )
        })
    });
    let rgb = image::RgbImage::from_pixel(W, H, image::Rgb([225, 220, 210]));
    g.bench_function("rgb_to_rgba", |b| {
        b.iter(|| into_rgba(image::DynamicImage::ImageRgb8(black_box(&rgb).clone())))
    });

    // The alternative: the digits rendered in grid space at the cells' size
    // in the photo, then warped over the whole photo.
    let puzzle = sample("classic.txt");
    let solution = solve(&puzzle, 1, 1).unwrap().solutions.remove(0);
    let cell_px = 260;
    let digits_only = Puzzle::empty(puzzle.layout().clone());
    let options = Options {
        cell_px,
        ..Options::default()
    };
    let grid = render_grid(&digits_only, Some(&solution), &options).unwrap();
    let loc = located(puzzle.layout());
    // Grid image pixels -> canvas cell units -> photo.
    let margin = (cell_px / 2) as f64;
    let s = 1.0 / cell_px as f64;
    let to_canvas =
        Homography::from_matrix([s, 0.0, -margin * s, 0.0, s, -margin * s, 0.0, 0.0, 1.0]);
    let projection = to_canvas.then(&loc.homography).to_projection().unwrap();
    let mut out = RgbaImage::new(W, H);
    g.bench_function("render_then_warp/classic", |b| {
        b.iter(|| {
            warp_into(
                black_box(&grid),
                projection,
                Interpolation::Bilinear,
                Border::Constant(Rgba([0, 0, 0, 0])),
                &mut out,
            )
        })
    });
    g.finish();
    c.final_summary();
}
