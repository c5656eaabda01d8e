//! A puzzle drawn as a clean grid, without a photo.

use ab_glyph::FontRef;
use image::{Rgba, RgbaImage};

use super::cage_outline::{
    CAGE_DASH, CAGE_GAP, CAGE_INSET, CAGE_SUM_AT, CAGE_SUM_HEIGHT, cage_outline, dashes, sum_cell,
};
use super::rules::{
    CAPTION_HEIGHT, CAPTION_LINE, GridMap, Inks, Shape, caption, caption_lines, draw_on_grid,
    draw_shape, is_outside_clue,
};
use super::stamp::{GlyphSet, Stamp, segment};
use super::{Contrast, FONT, Options, OverlayError, Palette, check_options, check_values};
use crate::grid::{Layout, Puzzle};
use crate::vision::page::homography::Homography;

/// Draws `puzzle` as a clean grid: `options.cell_px` pixels per cell and
/// half a cell of margin, thin lines between cells of a box, thick lines
/// around boxes (jigsaw regions) and around the shape, canvas positions
/// outside the shape (samurai corners, ...) left as blank paper. Givens are
/// drawn in the palette's `given` colour; with `solution` (one value per
/// cell, 0 = unknown) the other cells' values in its `solved` colour. Any
/// layout: samurai, jigsaw, 16x16 (symbols as the puzzle writes them).
/// A puzzle's cages (killer) are drawn as printed: a dashed outline inside
/// each cage, its sum small in its top-left cell (see [`super::cage_outline`]),
/// and digits at most [`CAGE_DIGIT_HEIGHT`](super::cage_outline::CAGE_DIGIT_HEIGHT) tall, clear of the sums.
/// Its variant rules are drawn as players know them (see [`super::rules`]):
/// extra regions' shading under the grid lines, the other marks over them
/// and under the digits; with a little killer or sandwich clue the margin
/// grows by one cell, where the clues stand; rules over the whole grid are
/// named in a caption under the grid, which makes the image taller.
/// [`render_frame`] tells where the grid lies in the image.
///
/// The palette is `options.palette`, or [`Palette::for_paper_in`] the
/// options' contrast; in high contrast the lines are half as thick again.
pub fn render_grid(
    puzzle: &Puzzle,
    solution: Option<&[u8]>,
    options: &Options,
) -> Result<RgbaImage, OverlayError> {
    check_options(options)?;
    let layout = puzzle.layout();
    if let Some(s) = solution {
        check_values(layout, "solution", s)?;
    }
    let palette = options
        .palette
        .unwrap_or(Palette::for_paper_in(options.contrast));
    let cell = options.cell_px;
    let rules = puzzle.rules();
    let font = FontRef::try_from_slice(FONT).expect("the bundled font parses");
    let Frame {
        margin,
        width: w,
        grid_height: h,
        lines,
    } = frame(puzzle, options, &font);
    let line_px = CAPTION_LINE * cell as f32;
    let band = (lines.len() as f32 * line_px).ceil() as u32;
    let mut image = RgbaImage::from_pixel(w, h + band, palette.paper);
    let map = GridMap::scaled(cell as f32, margin as f32, margin as f32);
    let inks = Inks {
        mark: palette.given,
        text: palette.given,
        paper: palette.paper,
        ..Inks::for_paper(palette.paper)
    };
    if !rules.is_empty() {
        draw_on_grid(&mut image, &map, &font, layout, rules, &inks, true);
    }
    let weight = line_weight(options.contrast);
    draw_grid_lines(&mut image, layout, margin, cell, weight, palette.lines);
    if !rules.is_empty() {
        draw_on_grid(&mut image, &map, &font, layout, rules, &inks, false);
    }
    // The caption's lines from halfway down the bottom margin.
    let top = (h - margin / 2) as f32;
    for (i, text) in lines.into_iter().enumerate() {
        let y = top + (i as f32 + 0.5) * line_px;
        let shape = Shape::Text {
            centre: [
                layout.width() as f32 / 2.0,
                (y - margin as f32) / cell as f32,
            ],
            height: CAPTION_HEIGHT,
            text,
            colour: palette.given,
        };
        draw_shape(&mut image, &map, &font, &shape);
    }
    draw_cages(&mut image, puzzle, &font, margin, cell, &palette);
    let height = options.for_cages(!puzzle.cages().is_empty()).digit_height;
    let mut glyphs = GlyphSet::new(font, height as f64, cell as f64);
    draw_values(
        &mut image,
        puzzle,
        solution,
        &mut glyphs,
        margin,
        cell,
        &palette,
    );
    Ok(image)
}

/// How much heavier than the ordinary ones a drawn grid's lines are.
fn line_weight(contrast: Contrast) -> f32 {
    contrast.pick(1.0, 1.5)
}

/// Draws the lines between cells, `margin` pixels in: thin ones within a
/// box first, then thick ones around boxes and the shape over them, each
/// `weight` times their ordinary width.
fn draw_grid_lines(
    image: &mut RgbaImage,
    layout: &Layout,
    margin: u32,
    cell: u32,
    weight: f32,
    colour: Rgba<u8>,
) {
    let thin = (weight * cell as f32 / 32.0).round().max(1.0) as u32;
    let thick = (weight * cell as f32 / 12.0).round().max(2.0) as u32;
    for pass_thick in [false, true] {
        for c in 0..layout.cell_count() {
            let (row, col) = layout.position(c);
            let x0 = margin + col as u32 * cell;
            let y0 = margin + row as u32 * cell;
            // (neighbour's offset, line along x?, line's fixed coordinate)
            let edges = [
                ((-1, 0), true, y0),
                ((1, 0), true, y0 + cell),
                ((0, -1), false, x0),
                ((0, 1), false, x0 + cell),
            ];
            for ((dr, dc), horizontal, at) in edges {
                let (rr, cc) = (row as isize + dr, col as isize + dc);
                let other = (rr >= 0 && cc >= 0)
                    .then(|| layout.cell_at(rr as usize, cc as usize))
                    .flatten();
                let is_thick = other.is_none_or(|o| !layout.same_box(c, o));
                if is_thick != pass_thick {
                    continue;
                }
                let t = if is_thick { thick } else { thin };
                let (from, to) = if horizontal {
                    (x0, x0 + cell)
                } else {
                    (y0, y0 + cell)
                };
                let lo = at - t / 2;
                let (a0, a1) = (from - t / 2, to + t - t / 2);
                if horizontal {
                    fill(image, a0, lo, a1, lo + t, colour);
                } else {
                    fill(image, lo, a0, lo + t, a1, colour);
                }
            }
        }
    }
}

/// Draws the givens in the palette's `given` colour and, with `solution`,
/// the other cells' values in its `solved` colour.
fn draw_values(
    image: &mut RgbaImage,
    puzzle: &Puzzle,
    solution: Option<&[u8]>,
    glyphs: &mut GlyphSet<'_>,
    margin: u32,
    cell: u32,
    palette: &Palette,
) {
    let layout = puzzle.layout();
    for c in 0..layout.cell_count() {
        let given = puzzle.values()[c];
        let (v, colour) = match (given, solution.map(|s| s[c])) {
            (0, Some(v)) if v != 0 => (v, palette.solved),
            (0, _) => continue,
            (g, _) => (g, palette.given),
        };
        let (row, col) = layout.position(c);
        let (x0, y0) = (
            (margin + col as u32 * cell) as f64 - 0.5,
            (margin + row as u32 * cell) as f64 - 0.5,
        );
        let s = cell as f64;
        let map = Homography::from_matrix([s, 0.0, x0, 0.0, s, y0, 0.0, 0.0, 1.0]);
        if let Some(stamp) = glyphs.get(v, puzzle.alphabet().symbol(v)) {
            stamp.draw(image, &map, colour);
        }
    }
}

/// Where [`render_grid`] draws a puzzle's grid, for drawing onto its image
/// afterwards (the solution, wrong entries, a hint) through a location at
/// these corners.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderFrame {
    /// The image's width in pixels.
    pub width: u32,
    /// The image's height in pixels, a caption under the grid included.
    pub height: u32,
    /// The grid canvas's outer corners, in pixels from the image's top-left
    /// edge, clockwise from the top-left: half a cell in from the image's
    /// sides, or a cell and a half with clues outside the grid.
    pub corners: [[f32; 2]; 4],
}

/// Where [`render_grid`] with `options` draws the grid of `puzzle`, and
/// the image's size, without drawing it: the margin grows with clues
/// outside the grid and a caption makes the image taller, so place
/// anything drawn onto the render through these corners.
pub fn render_frame(puzzle: &Puzzle, options: &Options) -> RenderFrame {
    let font = FontRef::try_from_slice(FONT).expect("the bundled font parses");
    let f = frame(puzzle, options, &font);
    let layout = puzzle.layout();
    let cell = options.cell_px as f32;
    let m = f.margin as f32;
    let (w, h) = (layout.width() as f32 * cell, layout.height() as f32 * cell);
    let band = (f.lines.len() as f32 * CAPTION_LINE * cell).ceil() as u32;
    RenderFrame {
        width: f.width,
        height: f.grid_height + band,
        corners: [[m, m], [m + w, m], [m + w, m + h], [m, m + h]],
    }
}

/// The layout of a render: its margin (pixels around the grid), its width,
/// its height without the caption, and the caption's lines.
struct Frame {
    margin: u32,
    width: u32,
    grid_height: u32,
    lines: Vec<String>,
}

fn frame(puzzle: &Puzzle, options: &Options, font: &FontRef) -> Frame {
    let layout = puzzle.layout();
    let cell = options.cell_px;
    let rules = puzzle.rules();
    // Clues outside the grid stand one cell beyond its edge.
    let outside = if rules.iter().any(is_outside_clue) {
        cell
    } else {
        0
    };
    let margin = cell / 2 + outside;
    let (width, grid_height) = (
        layout.width() as u32 * cell + 2 * margin,
        layout.height() as u32 * cell + 2 * margin,
    );
    // Rules without marks, named under the grid, a quarter cell of paper
    // each side.
    let names = caption(rules);
    let lines = if names.is_empty() {
        Vec::new()
    } else {
        caption_lines(font, &names, width as f32 / cell as f32 - 0.5)
    };
    Frame {
        margin,
        width,
        grid_height,
        lines,
    }
}

/// The puzzle's cages on the grid drawn by [`render_grid`]: dashed
/// outlines in the line colour, each sum on a patch of paper in its
/// top-left cell.
fn draw_cages(
    image: &mut RgbaImage,
    puzzle: &Puzzle,
    font: &FontRef,
    margin: u32,
    cell: u32,
    palette: &Palette,
) {
    let layout = puzzle.layout();
    let s = cell as f32;
    // Grid coordinates to pixel indices (the centre of pixel (0, 0) at 0).
    let px = |p: [f32; 2]| {
        [
            margin as f32 + p[0] * s - 0.5,
            margin as f32 + p[1] * s - 0.5,
        ]
    };
    let width = (s / 40.0).max(1.0);
    for cage in puzzle.cages() {
        let outline = cage_outline(layout, &cage.cells, CAGE_INSET);
        for [a, b] in dashes(&outline, CAGE_DASH, CAGE_GAP) {
            segment(image, px(a), px(b), width, palette.lines);
        }
    }
    for cage in puzzle.cages() {
        let Some(at) = sum_cell(layout, cage) else {
            continue;
        };
        let (row, col) = layout.position(at);
        let [x0, y0] = px([col as f32, row as f32]).map(f64::from);
        let top_left = CAGE_SUM_AT.map(f64::from);
        let text = cage.sum.to_string();
        let Some(stamp) = Stamp::text(font, &text, CAGE_SUM_HEIGHT as f64, s as f64, top_left)
        else {
            continue;
        };
        // Paper under the sum and a little around it, over the dashes.
        let [w, h] = stamp.extent();
        let pad = CAGE_SUM_AT[0] as f64 / 2.0;
        let rect = |v: f64| v.max(0.0).round() as u32;
        let (l, t) = (top_left[0] - pad, top_left[1] - pad);
        fill(
            image,
            rect(x0 + l * s as f64),
            rect(y0 + t * s as f64),
            rect(x0 + (l + w + 2.0 * pad) * s as f64),
            rect(y0 + (t + h + 2.0 * pad) * s as f64),
            palette.paper,
        );
        let map = Homography::from_matrix([s as f64, 0.0, x0, 0.0, s as f64, y0, 0.0, 0.0, 1.0]);
        stamp.draw(image, &map, palette.given);
    }
}

/// Fills pixels `x0..x1` x `y0..y1`, clipped to the image.
fn fill(image: &mut RgbaImage, x0: u32, y0: u32, x1: u32, y1: u32, colour: Rgba<u8>) {
    for y in y0..y1.min(image.height()) {
        for x in x0..x1.min(image.width()) {
            image.put_pixel(x, y, colour);
        }
    }
}
