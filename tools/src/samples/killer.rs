//! Killer screenshots: a light-theme app showing a killer sudoku, its cages
//! outlined inside their cells and each cage's sum small in the top-left
//! corner of its top-left cell, on a patch of paper that breaks the
//! outline's corner. Two outline styles: dashes (as most apps draw them) and
//! dots; one puzzle with no givens (`samples/puzzles/killer.txt`), one
//! generated with a few givens. And a killer printed black on a newspaper's
//! paper, photographed ([`super::photo`]): a generated puzzle with no
//! givens.
//!
//! The library's own renderer writes sums in the overlay's typeface, which
//! is one the digit model is built from; the samples are drawn here instead,
//! sums and givens in held-out fonts ([`HELDOUT_FONTS`]), so that what they
//! check is the reader, not its memory of a font. The cage outlines are the
//! overlay's geometry ([`cage_outline`], [`dashes`]).
//!
//! The screenshots are read exactly only when the located grid's outer
//! corners lie on the frame's centre: the cage outlines run a pixel or two
//! inside the frame (`CAGE_INSET`, 0.09 of a cell), and the locator takes the
//! outermost of such lines (`vision::locate::refine`).

use std::path::Path;
use std::sync::Arc;

use ab_glyph::{Font, FontVec, point};
use image::{Rgb, RgbImage};
use sudoku_lens::grid::{Layout, Puzzle};
use sudoku_lens::overlay::cage_outline::{CAGE_INSET, Segment, cage_outline, dashes, sum_cell};
use sudoku_lens::rng::Rng;
use sudoku_lens::solve::generate::killer;

use super::photo::{Camera, photograph, save_jpeg};
use crate::build::HELDOUT_FONTS;
use crate::font_bytes;

type Colour = [u8; 3];

/// How a killer screenshot is drawn.
struct Look {
    name: &'static str,
    /// The phone that photographs the page (a JPEG); `None`: the page is
    /// the screenshot (a PNG).
    camera: Option<fn() -> Camera>,
    /// Pixels per cell.
    cell: u32,
    paper: Colour,
    /// Grid lines and cage outlines.
    line: Colour,
    outline: Colour,
    sum: Colour,
    digit: Colour,
    /// Line widths in cell units: between cells, around boxes, of the cage
    /// outline.
    thin: f32,
    thick: f32,
    outline_width: f32,
    /// Dash and gap of the outline, in cell units; a dash about as long as
    /// the outline is wide gives dots.
    dash: f32,
    gap: f32,
    /// Ink height of a sum's digits and of a given, in cell units.
    sum_height: f32,
    digit_height: f32,
    /// Fonts (file names under `assets/fonts/`) of the sums and givens.
    sum_font: &'static str,
    digit_font: &'static str,
}

/// Samples' names: `NAME.png`, and `NAME.txt` its expected reading.
pub const NAMES: [&str; 3] = [
    "killer-screen-dashed",
    "killer-screen-dotted-givens",
    "killer-photo-page",
];

/// Seed of the generated killer with givens.
const SEED: u64 = 31;
/// Largest cage of the generated killer: a few five-cell cages, as apps
/// print them.
const MAX_CAGE: usize = 5;
/// Givens of the generated killer, taken from its solution: "a few", as
/// easy killers give them.
const GIVENS: usize = 7;
/// Seed of the generated killer of the photo, and of its camera.
const PHOTO_SEED: u64 = 37;

/// Writes the killer samples into `dir` (the image samples' folder);
/// `no_givens` is the killer text sample, drawn as it is.
pub fn write(dir: &Path, no_givens: &Puzzle) {
    for look in &LOOKS {
        for f in [look.sum_font, look.digit_font] {
            assert!(
                HELDOUT_FONTS.contains(&f),
                "{f} is not a held-out font of the digit model"
            );
        }
    }
    let with_givens = generated(SEED, GIVENS);
    let photographed = generated(PHOTO_SEED, 0);
    for (look, puzzle) in LOOKS.iter().zip([no_givens, &with_givens, &photographed]) {
        let img = draw(puzzle, look);
        let file = if let Some(camera) = look.camera {
            let margin = look.cell as f32 * MARGIN;
            let side = 9.0 * look.cell as f32;
            let grid = [margin, margin, margin + side, margin + side];
            let cam = camera();
            let photo = photograph(&img, grid, &cam, &mut Rng::new(PHOTO_SEED));
            let file = format!("{}.jpg", look.name);
            save_jpeg(&photo, &dir.join(&file), cam.quality, None);
            file
        } else {
            let file = format!("{}.png", look.name);
            img.save(dir.join(&file)).expect("screenshot written");
            file
        };
        std::fs::write(dir.join(format!("{}.txt", look.name)), puzzle.to_text())
            .expect("expected reading written");
        println!("{file}");
    }
}

/// The page's margin around the grid, in cells.
const MARGIN: f32 = 0.75;

/// The phone photographing the printed killer: a little turned and in
/// perspective, lit from one side, slightly blurred.
fn camera() -> Camera {
    let mut c = Camera::new((1600, 1200));
    c.angle = -2.5;
    c.perspective = 0.04;
    c.fill = 0.8;
    c.gradient = 0.25;
    c.tint = [1.0, 0.97, 0.92];
    c.blur = 0.7;
    c.noise = 3.0;
    c.quality = 85;
    c
}

const LOOKS: [Look; 3] = [
    Look {
        name: NAMES[0],
        camera: None,
        cell: 96,
        paper: [255, 255, 255],
        line: [52, 72, 97],
        outline: [70, 80, 96],
        sum: [40, 50, 66],
        digit: [52, 72, 97],
        thin: 0.025,
        thick: 0.075,
        outline_width: 0.025,
        dash: 0.08,
        gap: 0.06,
        sum_height: 0.17,
        digit_height: 0.5,
        sum_font: "DejaVuSans.ttf",
        digit_font: "DejaVuSans.ttf",
    },
    Look {
        name: NAMES[1],
        camera: None,
        cell: 96,
        paper: [252, 252, 250],
        line: [30, 30, 30],
        outline: [60, 60, 60],
        sum: [20, 20, 20],
        digit: [20, 20, 20],
        thin: 0.02,
        thick: 0.075,
        outline_width: 0.03,
        dash: 0.03,
        gap: 0.045,
        sum_height: 0.16,
        digit_height: 0.5,
        sum_font: "DejaVuSans.ttf",
        digit_font: "DejaVuSans.ttf",
    },
    Look {
        name: NAMES[2],
        camera: Some(camera),
        cell: 96,
        paper: [246, 244, 238],
        line: [25, 25, 25],
        outline: [40, 40, 40],
        sum: [20, 20, 20],
        digit: [20, 20, 20],
        thin: 0.02,
        thick: 0.06,
        outline_width: 0.025,
        dash: 0.07,
        gap: 0.05,
        sum_height: 0.17,
        digit_height: 0.5,
        sum_font: "DejaVuSans.ttf",
        digit_font: "DejaVuSans.ttf",
    },
];

/// A generated classic killer with `givens` of its solution's digits
/// given (the cages alone already leave one solution).
fn generated(seed: u64, givens: usize) -> Puzzle {
    let layout = Arc::new(Layout::classic());
    let (full, cages) = killer(&layout, MAX_CAGE, seed);
    let mut rng = Rng::new(seed);
    let mut values = vec![0u8; full.len()];
    let mut placed = 0;
    while placed < givens {
        let c = rng.below(full.len() as u32) as usize;
        if values[c] == 0 {
            values[c] = full[c];
            placed += 1;
        }
    }
    Puzzle::empty(layout)
        .with_values(values)
        .with_cages(cages)
        .expect("generated cages are well formed")
}

fn font(name: &str) -> FontVec {
    FontVec::try_from_vec(font_bytes(name).expect("font file")).expect("a valid font")
}

fn draw(puzzle: &Puzzle, look: &Look) -> RgbImage {
    let l = puzzle.layout();
    let cell = look.cell as f32;
    let margin = cell * MARGIN;
    let (w, h) = (
        (l.width() as f32 * cell + 2.0 * margin) as u32,
        (l.height() as f32 * cell + 2.0 * margin) as u32,
    );
    let mut img = RgbImage::from_pixel(w, h, Rgb(look.paper));
    let at = |p: [f32; 2]| [margin + p[0] * cell, margin + p[1] * cell];
    // Grid lines: thin first, box lines over them.
    for thick in [false, true] {
        for i in 0..=9usize {
            if (i % 3 == 0) != thick {
                continue;
            }
            let t = (cell * if thick { look.thick } else { look.thin }).max(1.0);
            let v = i as f32;
            line(&mut img, [at([v, 0.0]), at([v, 9.0])], t, look.line);
            line(&mut img, [at([0.0, v]), at([9.0, v])], t, look.line);
        }
    }
    let width = (cell * look.outline_width).max(1.0);
    for cage in puzzle.cages() {
        let outline: Vec<Segment> = cage_outline(l, &cage.cells, CAGE_INSET);
        for [a, b] in dashes(&outline, look.dash, look.gap) {
            line(&mut img, [at(a), at(b)], width, look.outline);
        }
    }
    let sum_font = font(look.sum_font);
    for cage in puzzle.cages() {
        let Some(c) = sum_cell(l, cage) else { continue };
        let (r, k) = l.position(c);
        let [x, y] = at([k as f32 + 0.06, r as f32 + 0.05]);
        let text = cage.sum.to_string();
        let ink = text_box(&sum_font, &text, cell * look.sum_height);
        // The paper patch: the sum breaks the outline's corner.
        let pad = cell * 0.03;
        fill(
            &mut img,
            [x - pad, y - pad],
            [x + ink[0] + pad, y + ink[1] + pad],
            look.paper,
        );
        draw_text(
            &mut img,
            &sum_font,
            &text,
            [x, y],
            cell * look.sum_height,
            look.sum,
        );
    }
    let digit_font = font(look.digit_font);
    for (c, &v) in puzzle.values().iter().enumerate() {
        if v == 0 {
            continue;
        }
        let (r, k) = l.position(c);
        let text = char::from(b'0' + v).to_string();
        let height = cell * look.digit_height;
        let ink = text_box(&digit_font, &text, height);
        let [cx, cy] = at([k as f32 + 0.5, r as f32 + 0.55]);
        draw_text(
            &mut img,
            &digit_font,
            &text,
            [cx - ink[0] / 2.0, cy - ink[1] / 2.0],
            height,
            look.digit,
        );
    }
    img
}

/// An axis-aligned line from `a` to `b` (pixel coordinates of the grid,
/// pixel `(i, j)` spanning `i..i + 1`), `width` pixels wide, centred on
/// the line and covering its ends' half width.
fn line(img: &mut RgbImage, [a, b]: [[f32; 2]; 2], width: f32, c: Colour) {
    let h = width / 2.0;
    fill(
        img,
        [a[0].min(b[0]) - h, a[1].min(b[1]) - h],
        [a[0].max(b[0]) + h, a[1].max(b[1]) + h],
        c,
    );
}

/// Fills the rectangle from `p0` to `p1`, rounded to whole pixels.
fn fill(img: &mut RgbImage, p0: [f32; 2], p1: [f32; 2], c: Colour) {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let xa = (p0[0].round() as i64).clamp(0, w);
    let xb = (p1[0].round() as i64).clamp(0, w);
    let ya = (p0[1].round() as i64).clamp(0, h);
    let yb = (p1[1].round() as i64).clamp(0, h);
    for y in ya..yb {
        for x in xa..xb {
            img.put_pixel(x as u32, y as u32, Rgb(c));
        }
    }
}

/// The font's scale at which a digit 8's ink is `height` pixels tall.
fn scale_for(font: &FontVec, height: f32) -> f32 {
    let probe = font
        .outline_glyph(
            font.glyph_id('8')
                .with_scale_and_position(100.0, point(0.0, 0.0)),
        )
        .expect("the font has digits");
    100.0 * height / probe.px_bounds().height()
}

/// Ink outlines of `text` set at `height` (a digit's ink height), the pen
/// starting at (0, 0) on the baseline.
fn outlines(font: &FontVec, text: &str, height: f32) -> Vec<ab_glyph::OutlinedGlyph> {
    use ab_glyph::ScaleFont;
    let scale = scale_for(font, height);
    let scaled = font.as_scaled(scale);
    let mut pen = 0.0;
    let mut out = Vec::new();
    for ch in text.chars() {
        let id = scaled.glyph_id(ch);
        if let Some(o) = font.outline_glyph(id.with_scale_and_position(scale, point(pen, 0.0))) {
            out.push(o);
        }
        pen += scaled.h_advance(id);
    }
    out
}

/// Width and height of the ink of `text` set at `height`.
fn text_box(font: &FontVec, text: &str, height: f32) -> [f32; 2] {
    let (lo, hi) = ink_bounds(&outlines(font, text, height));
    [hi[0] - lo[0], hi[1] - lo[1]]
}

fn ink_bounds(glyphs: &[ab_glyph::OutlinedGlyph]) -> ([f32; 2], [f32; 2]) {
    let mut lo = [f32::MAX; 2];
    let mut hi = [f32::MIN; 2];
    for g in glyphs {
        let b = g.px_bounds();
        lo = [lo[0].min(b.min.x), lo[1].min(b.min.y)];
        hi = [hi[0].max(b.max.x), hi[1].max(b.max.y)];
    }
    (lo, hi)
}

/// Draws `text` set at `height` with its ink's top-left at `top_left`.
fn draw_text(
    img: &mut RgbImage,
    font: &FontVec,
    text: &str,
    top_left: [f32; 2],
    height: f32,
    c: Colour,
) {
    let glyphs = outlines(font, text, height);
    let (lo, _) = ink_bounds(&glyphs);
    let (dx, dy) = (
        (top_left[0] - lo[0]).round() as i64,
        (top_left[1] - lo[1]).round() as i64,
    );
    for g in &glyphs {
        let b = g.px_bounds();
        g.draw(|gx, gy, cov| {
            blend(
                img,
                b.min.x as i64 + gx as i64 + dx,
                b.min.y as i64 + gy as i64 + dy,
                c,
                cov.min(1.0),
            )
        });
    }
}

fn blend(img: &mut RgbImage, x: i64, y: i64, c: Colour, a: f32) {
    if x < 0 || y < 0 || x >= img.width() as i64 || y >= img.height() as i64 {
        return;
    }
    let p = img.get_pixel_mut(x as u32, y as u32);
    for (v, &c) in p.0.iter_mut().zip(&c) {
        *v = (*v as f32 * (1.0 - a) + c as f32 * a).round() as u8;
    }
}
