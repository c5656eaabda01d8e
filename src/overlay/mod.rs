//! Solutions drawn back onto the photo, or onto a clean rendered grid.
//!
//! - [`draw_solution`] writes each solved digit into its empty cell of the
//!   photo, through the located grid's homography: the glyph is centred in
//!   the cell's quad, scaled to it and foreshortened with it. Given digits are
//!   never drawn over; cells the reader's solver check changed get a frame
//!   and, when empty, their digit in a second colour.
//! - [`render_grid`] draws a puzzle of any layout (samurai and jigsaw
//!   included) as a clean grid, without a photo, its cages (killer) too.
//! - [`mark_wrong`] marks a player's wrong entries on the photo in red
//!   (tinted, framed, struck through), through the same homography.
//! - [`Options::contrast`]: everything above in the ordinary look or in
//!   high contrast, as the caller chooses.
//! - [`cage_outline`]: the geometry of a cage's dashed outline and sum,
//!   shared by [`render_grid`] and the app's view of a photo.
//! - [`rules`]: variant rules (thermometers, arrows, dots, lines, outside
//!   clues...) as players know them, in [`render_grid`] and, through
//!   [`draw_rules`], onto the photo under the solution's digits.
//!
//! Plain functions over `image` buffers ([`image::RgbaImage`], or for
//! drawing on a photo also [`image::RgbImage`], as JPEG decodes, which saves
//! a conversion); no files, no CLI or GUI types.
//!
//! ## Cost
//!
//! Each glyph is rasterised once per call (anti-aliased, by `ab_glyph`, at
//! about the cells' size in the image) and then drawn warped: every pixel of
//! the glyph's bounding box in the image is mapped back into the glyph bitmap
//! (one projective map per cell, one division per pixel) and sampled
//! bilinearly. Only those bounding boxes are read and written, so the cost
//! follows the digits' area, not the photo's: a 12-megapixel photo takes a
//! few tens of milliseconds (see `benches/overlay.rs`, which also times the
//! alternative of rendering the digits in grid space once and warping that
//! image over the whole photo, several times slower because every photo
//! pixel is mapped). To redraw while the solution is being edited, keep a
//! copy of the photo and, before each redraw, [`restore`] the rectangles the
//! previous call returned.
//!
//! ```
//! use std::sync::Arc;
//! use sudoku_lens::grid::{Layout, Puzzle};
//! use sudoku_lens::overlay::{Options, render_grid};
//!
//! let puzzle = Puzzle::empty(Arc::new(Layout::classic()));
//! let image = render_grid(&puzzle, None, &Options::default()).unwrap();
//! assert!(image.width() > 9 * Options::default().cell_px);
//! ```

pub mod cage_outline;
pub mod export;
pub mod hint;
mod marks;
mod render;
pub mod rules;
mod stamp;

use ab_glyph::FontRef;
use image::{DynamicImage, Rgba, RgbaImage};

use crate::grid::{Alphabet, Layout};
use crate::vision::locate::{Located, Quad};
use crate::vision::page::homography::Homography;

pub use marks::{WRONG_HIGH_CONTRAST, WRONG_ON_DARK, WRONG_ON_LIGHT, mark_wrong};
use rayon::prelude::*;
pub use render::{RenderFrame, render_frame, render_grid};
pub use rules::{draw_rule_highlight, draw_rules};
pub use stamp::{Canvas, Paintable, PixelRect};
use stamp::{GlyphSet, Stamp, Tile, segment};

/// The digits' typeface: TeX Gyre Heros Bold (GUST Font License; see
/// `assets/fonts/`), a Helvetica-like bold that stays legible small and
/// stands apart from most puzzle print.
pub(crate) const FONT: &[u8] = include_bytes!("../../assets/fonts/texgyreheros-bold.otf");

/// Colours of the drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Solved digits.
    pub solved: Rgba<u8>,
    /// Cells the reader's solver check changed: their frame, and their digit
    /// when the cell is empty.
    pub changed: Rgba<u8>,
    /// The grid outline ([`Options::outline`]).
    pub outline: Rgba<u8>,
    /// Given digits ([`render_grid`] only).
    pub given: Rgba<u8>,
    /// Grid lines ([`render_grid`] only).
    pub lines: Rgba<u8>,
    /// Paper ([`render_grid`] only), also outside the shape.
    pub paper: Rgba<u8>,
}

impl Palette {
    /// For print on light paper: a strong blue, unlike black or grey print;
    /// changed cells in orange-red.
    pub const LIGHT: Palette = Palette {
        solved: Rgba([20, 80, 215, 255]),
        changed: Rgba([215, 70, 0, 255]),
        outline: Rgba([20, 80, 215, 255]),
        given: Rgba([25, 25, 25, 255]),
        lines: Rgba([0, 0, 0, 255]),
        paper: Rgba([255, 255, 255, 255]),
    };

    /// For dark-mode screens: a light sky blue, changed cells in amber.
    pub const DARK: Palette = Palette {
        solved: Rgba([120, 195, 255, 255]),
        changed: Rgba([255, 175, 60, 255]),
        outline: Rgba([120, 195, 255, 255]),
        given: Rgba([230, 230, 230, 255]),
        lines: Rgba([200, 200, 200, 255]),
        paper: Rgba([28, 28, 30, 255]),
    };

    /// High contrast on light paper: black print and lines, solved digits
    /// in a deep blue (10:1 on white, where [`Palette::LIGHT`]'s is 6:1),
    /// changed cells in a dark orange-red.
    pub const HIGH_CONTRAST: Palette = Palette {
        solved: Rgba([0, 40, 170, 255]),
        changed: Rgba([180, 50, 0, 255]),
        outline: Rgba([0, 40, 170, 255]),
        given: Rgba([0, 0, 0, 255]),
        lines: Rgba([0, 0, 0, 255]),
        paper: Rgba([255, 255, 255, 255]),
    };

    /// [`Palette::LIGHT`] on a background of luma 128 or more, otherwise
    /// [`Palette::DARK`].
    pub fn for_background(luma: u8) -> Palette {
        if luma >= 128 {
            Palette::LIGHT
        } else {
            Palette::DARK
        }
    }

    /// [`Palette::for_background`], or with [`Contrast::High`] on light
    /// paper [`Palette::HIGH_CONTRAST`] (dark paper keeps the light inks of
    /// [`Palette::DARK`], which stand out of it already).
    pub fn for_background_in(luma: u8, contrast: Contrast) -> Palette {
        match contrast {
            Contrast::High if luma >= 128 => Palette::HIGH_CONTRAST,
            _ => Palette::for_background(luma),
        }
    }

    /// The palette of a drawn grid ([`render_grid`]): [`Palette::LIGHT`],
    /// or [`Palette::HIGH_CONTRAST`].
    pub fn for_paper_in(contrast: Contrast) -> Palette {
        contrast.pick(Palette::LIGHT, Palette::HIGH_CONTRAST)
    }
}

/// How strongly the marks are drawn: the ordinary look, or high contrast
/// (stronger inks, heavier washes, thicker lines and strokes), as a person
/// who needs it chose for the app's window. A plain value: the caller
/// decides, the drawing follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Contrast {
    #[default]
    Normal,
    High,
}

impl Contrast {
    /// `normal` in the ordinary look, `high` in high contrast.
    pub fn pick<T>(self, normal: T, high: T) -> T {
        match self {
            Contrast::Normal => normal,
            Contrast::High => high,
        }
    }
}

/// How to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Also draw the outline of the located grid ([`draw_solution`]).
    pub outline: bool,
    /// The colours; `None` picks [`Palette::for_background_in`] from the
    /// grid's paper ([`draw_solution`]) or [`Palette::for_paper_in`]
    /// ([`render_grid`]), in [`Options::contrast`].
    pub palette: Option<Palette>,
    /// Ordinary or high contrast: the default colours, the grid lines of
    /// [`render_grid`], the marks of [`mark_wrong`] and of a hint's step
    /// ([`hint::draw_step`]).
    pub contrast: Contrast,
    /// A digit's height as a fraction of its cell's height.
    pub digit_height: f32,
    /// Pixels per cell of [`render_grid`].
    pub cell_px: u32,
    /// Cover marks in an empty cell with its paper before drawing its digit
    /// ([`draw_solution`]). Off for a killer: its printed cage outlines and
    /// sums are in the cells and must stay readable.
    pub cover_marks: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            outline: false,
            palette: None,
            contrast: Contrast::Normal,
            digit_height: 0.6,
            cell_px: 64,
            cover_marks: true,
        }
    }
}

impl Options {
    /// These options for a puzzle with cages printed in its cells (a
    /// killer), unchanged for one without: the cells' marks are not covered
    /// (the printed outlines and sums must stay readable), and the digits
    /// are at most [`cage_outline::CAGE_DIGIT_HEIGHT`] tall, so that, centred,
    /// they stay clear of the sums above them and of the outlines around
    /// them (at 0.6 of the cell they touched both, and the picture no
    /// longer read back as the same cages).
    pub fn for_cages(&self, caged: bool) -> Options {
        if !caged {
            return self.clone();
        }
        Options {
            cover_marks: false,
            digit_height: self.digit_height.min(cage_outline::CAGE_DIGIT_HEIGHT),
            ..self.clone()
        }
    }
}

impl Options {
    /// These options for a puzzle whose variant rules are drawn or printed
    /// in its cells ([`draw_rules`]), unchanged for one without: the cells'
    /// marks are not covered with paper, or a thermometer, a circle or a
    /// shaded cell would be blanked out under each solved digit.
    pub fn for_rules(&self, ruled: bool) -> Options {
        Options {
            cover_marks: self.cover_marks && !ruled,
            ..self.clone()
        }
    }
}

/// Why nothing was drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OverlayError {
    /// `givens` or `solution` does not have one value per cell.
    #[error("{what} has {got} values; the {layout} layout has {cells} cells")]
    Length {
        what: &'static str,
        got: usize,
        layout: String,
        cells: usize,
    },
    /// A changed cell's index is not a cell of the layout.
    #[error("changed cell {cell} is not a cell of the {layout} layout ({cells} cells)")]
    Cell {
        cell: usize,
        layout: String,
        cells: usize,
    },
    /// A value is not a symbol of the layout.
    #[error("{what} holds {value} at cell {cell}; the {layout} layout has symbols 1-{size}")]
    Value {
        what: &'static str,
        value: u8,
        cell: usize,
        layout: String,
        size: usize,
    },
    /// [`Options::digit_height`] or [`Options::cell_px`] is out of range.
    #[error("{0}")]
    Options(String),
}

/// Draws the solution onto `image`, the image `located` was found in
/// (full resolution, EXIF orientation applied, as
/// [`crate::vision::page::load::load_path`] gives it), RGBA or RGB.
///
/// For every cell empty in `givens` (0) and solved in `solution` (1..=size),
/// the solved symbol, written in `alphabet` (the puzzle's: a hexadecimal
/// page's first symbol is a `0`), is drawn centred in the cell's quad
/// ([`Located::cell_quad`]), `options.digit_height` of the cell tall, in the
/// palette's `solved` colour. A cell with marks in it (pencil candidates,
/// handwriting the reader took for empty) is first covered, inside a thin
/// margin, with its own paper colour, so that the digit reads clearly
/// (unless `options.cover_marks` is off, as for a killer's printed cages).
/// Cells listed in `changed` (those of the
/// reader's `CheckOutcome::Changed`) get a thin frame just inside their quad in
/// the `changed` colour, and their digit, if empty, in that colour too.
/// `givens` and `solution` have one value per cell of `located.layout`, in
/// cell order; a 0 in `solution` leaves that cell alone, so a partial
/// solution may be drawn.
///
/// Pixels outside the quads of the cells drawn (and, with
/// `options.outline`, outside the outline's strokes) are left untouched.
/// Returns the rectangles of pixels that may have changed, one per stamp or
/// stroke: copying those rectangles back from the original restores it.
pub fn draw_solution<P: Paintable>(
    image: &mut Canvas<P>,
    located: &Located,
    givens: &[u8],
    solution: &[u8],
    changed: &[usize],
    alphabet: Alphabet,
    options: &Options,
) -> Result<Vec<PixelRect>, OverlayError> {
    let layout = &located.layout;
    check_values(layout, "givens", givens)?;
    check_values(layout, "solution", solution)?;
    check_options(options)?;
    if let Some(&cell) = changed.iter().find(|&&c| c >= layout.cell_count()) {
        return Err(OverlayError::Cell {
            cell,
            layout: layout.name().to_string(),
            cells: layout.cell_count(),
        });
    }
    let palette = options.palette.unwrap_or_else(|| {
        Palette::for_background_in(background_luma(image, located, givens), options.contrast)
    });
    let maps: Vec<Option<Homography>> = (0..layout.cell_count())
        .map(|c| cell_to_image(located, c))
        .collect();
    let res = glyph_resolution(&maps);
    let font = FontRef::try_from_slice(FONT).expect("the bundled font parses");
    let mut glyphs = GlyphSet::new(font, options.digit_height as f64, res);
    let mut is_changed = vec![false; layout.cell_count()];
    for &c in changed {
        is_changed[c] = true;
    }
    // What to draw where, in order: plates, frames, digits; then the
    // coverage of each, in parallel (it reads nothing of the image), then
    // blending, in order.
    let plate = Stamp::frame(INSET, 1.0, res);
    let frame = (!changed.is_empty()).then(|| Stamp::frame(INSET, 0.035, res));
    let mut jobs: Vec<(&Stamp, &Homography, Rgba<u8>)> = Vec::new();
    for cell in 0..layout.cell_count() {
        if givens[cell] != 0 || solution[cell] == 0 {
            continue;
        }
        if let Some(map) = &maps[cell]
            && options.cover_marks
            && let Some(paper) = marked_paper(image, map)
        {
            jobs.push((&plate, map, paper));
        }
    }
    if let Some(frame) = &frame {
        for &c in changed {
            if let Some(map) = &maps[c] {
                jobs.push((frame, map, palette.changed));
            }
        }
    }
    for cell in 0..layout.cell_count() {
        let v = solution[cell];
        if givens[cell] == 0 && v != 0 {
            glyphs.get(v, alphabet.symbol(v));
        }
    }
    for cell in 0..layout.cell_count() {
        let v = solution[cell];
        if givens[cell] != 0 || v == 0 {
            continue;
        }
        let (Some(map), Some(stamp)) = (&maps[cell], glyphs.made(v)) else {
            continue;
        };
        let colour = if is_changed[cell] {
            palette.changed
        } else {
            palette.solved
        };
        jobs.push((stamp, map, colour));
    }
    let (iw, ih) = image.dimensions();
    let tiles: Vec<Option<Tile>> = jobs
        .par_iter()
        .map(|(stamp, map, _)| stamp.coverage(map, iw, ih))
        .collect();
    let mut touched = Vec::with_capacity(tiles.len());
    for (tile, (_, _, colour)) in tiles.iter().zip(&jobs) {
        if let Some(tile) = tile {
            tile.blend(image, *colour);
            touched.push(tile.rect);
        }
    }
    if options.outline {
        touched.extend(draw_outline(image, located, palette.outline));
    }
    Ok(touched)
}

/// Copies the rectangles a [`draw_solution`] call returned back from
/// `original` (the image before drawing, same size), undoing that drawing
/// at the cost of the rectangles' area: redraw after an edit without copying
/// the whole photo.
pub fn restore<P: Paintable>(image: &mut Canvas<P>, original: &Canvas<P>, rects: &[PixelRect]) {
    let n = P::CHANNEL_COUNT as usize;
    let stride = image.width() as usize * n;
    if image.dimensions() != original.dimensions() {
        return;
    }
    let src: &[u8] = original;
    let dst: &mut [u8] = image;
    for r in rects {
        let x1 = (r.x + r.width).min(original.width()) as usize;
        let y1 = (r.y + r.height).min(original.height()) as usize;
        for y in r.y as usize..y1 {
            let row = y * stride;
            let span = row + r.x as usize * n..row + x1 * n;
            dst[span.clone()].copy_from_slice(&src[span]);
        }
    }
}

/// The image as RGBA, to draw on: 8-bit RGB and grey images (what JPEG and
/// most PNG photos decode to) are converted in parallel, several times
/// faster than [`image::DynamicImage::into_rgba8`]; RGBA is taken as is.
pub fn into_rgba(image: DynamicImage) -> RgbaImage {
    let (w, h) = (image.width(), image.height());
    let row = w as usize * 4;
    let convert = |src: &[u8], channels: usize| {
        let mut out = vec![0u8; row * h as usize];
        out.par_chunks_mut(row)
            .zip(src.par_chunks(w as usize * channels))
            .for_each(|(dst, src)| {
                for (d, s) in dst.chunks_exact_mut(4).zip(src.chunks_exact(channels)) {
                    if channels == 3 {
                        d.copy_from_slice(&[s[0], s[1], s[2], 255]);
                    } else {
                        d.copy_from_slice(&[s[0], s[0], s[0], 255]);
                    }
                }
            });
        RgbaImage::from_raw(w, h, out).expect("sized buffer")
    };
    match image {
        DynamicImage::ImageRgba8(i) => i,
        DynamicImage::ImageRgb8(i) => convert(i.as_raw(), 3),
        DynamicImage::ImageLuma8(i) => convert(i.as_raw(), 1),
        other => other.into_rgba8(),
    }
}

/// Fraction of the cell's side left bare around a plate or a frame.
const INSET: f64 = 0.07;

/// The paper colour of a cell with marks in it (pencil candidates,
/// handwriting), `None` for a clean cell. The cell's interior inside
/// [`INSET`] is sampled on a 24 x 24 grid; samples far from the median luma
/// are marks, and the paper is the mean of the samples close to it.
fn marked_paper<P: Paintable>(image: &Canvas<P>, map: &Homography) -> Option<Rgba<u8>> {
    const N: usize = 24;
    let mut samples = [[0u8; 3]; N * N];
    let mut lumas = [0u8; N * N];
    let mut n = 0;
    let (w, h) = (image.width() as f64, image.height() as f64);
    for j in 0..N {
        for i in 0..N {
            let at = |k: usize| INSET + (1.0 - 2.0 * INSET) * (k as f64 + 0.5) / N as f64;
            let (x, y) = map.map(at(i), at(j));
            let (x, y) = (x.round(), y.round());
            if !(x >= 0.0 && y >= 0.0 && x < w && y < h) {
                continue;
            }
            let c = image.get_pixel(x as u32, y as u32).channels();
            samples[n] = [c[0], c[1], c[2]];
            lumas[n] = luma(c);
            n += 1;
        }
    }
    if n < N * N / 2 {
        return None;
    }
    let mut sorted = lumas;
    let sorted = &mut sorted[..n];
    let median = *sorted.select_nth_unstable(n / 2).1 as i32;
    let far = lumas[..n]
        .iter()
        .filter(|&&l| (l as i32 - median).abs() > 48)
        .count();
    if far < 2 {
        return None;
    }
    let mut sum = [0u32; 3];
    let mut count = 0;
    for (s, &l) in samples[..n].iter().zip(&lumas[..n]) {
        if (l as i32 - median).abs() <= 16 {
            for k in 0..3 {
                sum[k] += s[k] as u32;
            }
            count += 1;
        }
    }
    let mean = |k: usize| (sum[k] / count.max(1)) as u8;
    Some(Rgba([mean(0), mean(1), mean(2), 255]))
}

fn luma(c: &[u8]) -> u8 {
    ((299 * c[0] as u32 + 587 * c[1] as u32 + 114 * c[2] as u32 + 500) / 1000) as u8
}

/// The median luma of the grid's paper: sampled at four points of every
/// cell empty in `givens` (every cell if none is), away from the lines.
/// [`Palette::for_background`] of it picks the colours of [`draw_solution`].
pub fn background_luma<P: Paintable>(image: &Canvas<P>, located: &Located, givens: &[u8]) -> u8 {
    let layout = &located.layout;
    let any_empty = givens.contains(&0);
    let mut samples = Vec::with_capacity(layout.cell_count() * 4);
    for cell in 0..layout.cell_count() {
        if any_empty && givens.get(cell).is_some_and(|&v| v != 0) {
            continue;
        }
        let (r, c) = layout.position(cell);
        for (dx, dy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
            let [x, y] = located.canvas_to_image(c as f32 + dx, r as f32 + dy);
            let (x, y) = (x.round(), y.round());
            if x >= 0.0 && y >= 0.0 && (x as u32) < image.width() && (y as u32) < image.height() {
                samples.push(luma(image.get_pixel(x as u32, y as u32).channels()));
            }
        }
    }
    if samples.is_empty() {
        return 255;
    }
    let mid = samples.len() / 2;
    *samples.select_nth_unstable(mid).1
}

/// Cell-local coordinates (0..1 both ways) to image pixels for one cell:
/// the cell's span between its refined grid lines where they lie beside it
/// ([`Located::cell_edges`]: on a bent page, where the reader read the
/// cell), then the homography.
fn cell_to_image(located: &Located, cell: usize) -> Option<Homography> {
    let [u0, u1, v0, v1] = located.cell_edges(cell).map(f64::from);
    let span = Homography::from_matrix([u1 - u0, 0.0, u0, 0.0, v1 - v0, v0, 0.0, 0.0, 1.0]);
    let map = span.then(&located.homography);
    map.inverse().map(|_| map)
}

/// Glyph bitmap pixels per cell: the median cell side in the image, so that
/// the warp neither magnifies nor shrinks much anywhere; at most 1024.
fn glyph_resolution(maps: &[Option<Homography>]) -> f64 {
    let mut sides: Vec<f64> = maps
        .iter()
        .flatten()
        .map(|m| {
            let p = |x, y| m.map(x, y);
            let (a, b, c) = (p(0.0, 0.0), p(1.0, 0.0), p(0.0, 1.0));
            let w = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
            let h = ((c.0 - a.0).powi(2) + (c.1 - a.1).powi(2)).sqrt();
            (w + h) / 2.0
        })
        .filter(|s| s.is_finite())
        .collect();
    if sides.is_empty() {
        return 32.0;
    }
    let mid = sides.len() / 2;
    let m = *sides.select_nth_unstable_by(mid, f64::total_cmp).1;
    m.clamp(8.0, 1024.0)
}

/// Strokes along the edges of the shape (cell edges with no cell beyond),
/// through the refined grid lines. Stroke width follows the local cell size.
fn draw_outline<P: Paintable>(
    image: &mut Canvas<P>,
    located: &Located,
    colour: Rgba<u8>,
) -> Vec<PixelRect> {
    let layout = &located.layout;
    let mut out = Vec::new();
    for cell in 0..layout.cell_count() {
        let (r, c) = layout.position(cell);
        let q = located.cell_quad(cell);
        let side = Quad::new(q).mean_side();
        let width = (side * 0.07).max(2.0);
        let neighbour = |dr: isize, dc: isize| layout.is_cell(r as isize + dr, c as isize + dc);
        let edges = [
            (neighbour(-1, 0), q[0], q[1]),
            (neighbour(0, 1), q[1], q[2]),
            (neighbour(1, 0), q[2], q[3]),
            (neighbour(0, -1), q[3], q[0]),
        ];
        for (inside, a, b) in edges {
            if !inside {
                out.extend(segment(image, a, b, width, colour));
            }
        }
    }
    out
}

fn check_values(layout: &Layout, what: &'static str, values: &[u8]) -> Result<(), OverlayError> {
    if values.len() != layout.cell_count() {
        return Err(OverlayError::Length {
            what,
            got: values.len(),
            layout: layout.name().to_string(),
            cells: layout.cell_count(),
        });
    }
    if let Some((cell, &value)) = values
        .iter()
        .enumerate()
        .find(|&(_, &v)| v as usize > layout.size())
    {
        return Err(OverlayError::Value {
            what,
            value,
            cell,
            layout: layout.name().to_string(),
            size: layout.size(),
        });
    }
    Ok(())
}

fn check_options(options: &Options) -> Result<(), OverlayError> {
    if !(0.1..=0.9).contains(&options.digit_height) {
        return Err(OverlayError::Options(format!(
            "digit height {} is not between 0.1 and 0.9 of the cell",
            options.digit_height
        )));
    }
    if !(8..=512).contains(&options.cell_px) {
        return Err(OverlayError::Options(format!(
            "{} pixels per cell is not between 8 and 512",
            options.cell_px
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
