//! Wrong entries marked on the photo: each wrong cell tinted red, framed
//! and struck through, through the located grid's homography, so the
//! player sees which of their digits to rub out; every other pixel is left
//! alone.

use image::Rgba;
use rayon::prelude::*;

use super::stamp::{Canvas, Paintable, PixelRect, Stamp, Tile, segment};
use super::{Contrast, INSET, OverlayError, background_luma, cell_to_image, glyph_resolution};
use crate::vision::locate::{Located, Quad};

/// The marks' red on light paper: a strong red, unlike black print and the
/// blue of solved digits.
pub const WRONG_ON_LIGHT: Rgba<u8> = Rgba([210, 25, 25, 255]);
/// The marks' red on a dark screen: lighter, to stand out of dark paper.
pub const WRONG_ON_DARK: Rgba<u8> = Rgba([255, 95, 85, 255]);
/// The marks' red on light paper in high contrast: pure and strong, the
/// app's own high-contrast red.
pub const WRONG_HIGH_CONTRAST: Rgba<u8> = Rgba([210, 0, 0, 255]);
/// The tint's opacity over the cell: enough to see at a glance, little
/// enough that the player's digit still reads under it.
const TINT_ALPHA: u8 = 70;
/// The frame's thickness, a fraction of the cell's side: as the reader's
/// changed-cell frame, so both read as the same kind of mark.
const FRAME: f64 = 0.035;
/// The strike's width, a fraction of the cell's mean side in the image:
/// bold enough to see on a phone's screen, thin enough to leave the digit.
const STRIKE: f32 = 0.06;
/// High contrast: the tint's opacity, frame and strike, each heavier
/// (the digit under them still reads: the tint stays under half).
const HC_TINT_ALPHA: u8 = 110;
const HC_FRAME: f64 = 0.06;
const HC_STRIKE: f32 = 0.09;

/// Marks the cells `wrong` (cell indices of `located.layout`) on `image`,
/// the image `located` was found in: a red tint over each cell, a red frame
/// just inside it and a red stroke across it from its bottom-left to its
/// top-right corner. The red is [`WRONG_ON_LIGHT`] on paper of luma 128 or
/// more ([`background_luma`] over the cells empty in `givens`), otherwise
/// [`WRONG_ON_DARK`]; with [`Contrast::High`], [`WRONG_HIGH_CONTRAST`] on
/// light paper, and a heavier tint, frame and strike. `givens` has one
/// value per cell (0 = empty). Pixels outside the marked cells' quads are
/// left untouched. Returns the rectangles of pixels that may have changed.
pub fn mark_wrong<P: Paintable>(
    image: &mut Canvas<P>,
    located: &Located,
    givens: &[u8],
    wrong: &[usize],
    contrast: Contrast,
) -> Result<Vec<PixelRect>, OverlayError> {
    let layout = &located.layout;
    super::check_values(layout, "givens", givens)?;
    if let Some(&cell) = wrong.iter().find(|&&c| c >= layout.cell_count()) {
        return Err(OverlayError::Cell {
            cell,
            layout: layout.name().to_string(),
            cells: layout.cell_count(),
        });
    }
    if wrong.is_empty() {
        return Ok(Vec::new());
    }
    let light = background_luma(image, located, givens) >= 128;
    let red = if light {
        contrast.pick(WRONG_ON_LIGHT, WRONG_HIGH_CONTRAST)
    } else {
        WRONG_ON_DARK
    };
    let (alpha, frame, strike) = contrast.pick(
        (TINT_ALPHA, FRAME, STRIKE),
        (HC_TINT_ALPHA, HC_FRAME, HC_STRIKE),
    );
    let tint = Rgba([red[0], red[1], red[2], alpha]);
    let maps: Vec<_> = wrong
        .iter()
        .filter_map(|&c| cell_to_image(located, c).map(|m| (c, m)))
        .collect();
    let all: Vec<_> = maps.iter().map(|(_, m)| Some(*m)).collect();
    let res = glyph_resolution(&all);
    let plate = Stamp::frame(INSET, 1.0, res);
    let frame = Stamp::frame(INSET, frame, res);
    let mut jobs = Vec::with_capacity(maps.len() * 2);
    for (_, map) in &maps {
        jobs.push((&plate, map, tint));
        jobs.push((&frame, map, red));
    }
    let (iw, ih) = image.dimensions();
    let tiles: Vec<Option<Tile>> = jobs
        .par_iter()
        .map(|(stamp, map, _)| stamp.coverage(map, iw, ih))
        .collect();
    let mut touched = Vec::with_capacity(tiles.len() + maps.len());
    for (tile, (_, _, colour)) in tiles.iter().zip(&jobs) {
        if let Some(tile) = tile {
            tile.blend(image, *colour);
            touched.push(tile.rect);
        }
    }
    for (cell, map) in &maps {
        let side = Quad::new(located.cell_quad(*cell)).mean_side();
        let at = |x: f64, y: f64| {
            let (x, y) = map.map(x, y);
            [x as f32, y as f32]
        };
        let margin = INSET + 0.08;
        touched.extend(segment(
            image,
            at(margin, 1.0 - margin),
            at(1.0 - margin, margin),
            (side * strike).max(2.0),
            red,
        ));
    }
    Ok(touched)
}

#[cfg(test)]
mod tests {
    use image::RgbaImage;

    use super::*;
    use crate::grid::Layout;
    use crate::overlay::tests::{inside, located};

    #[test]
    fn a_wrong_cell_turns_red_at_its_centre_and_others_are_left_alone() {
        let loc = located(
            Layout::classic(),
            [[20.0, 30.0], [400.0, 10.0], [430.0, 420.0], [5.0, 390.0]],
        );
        let original = RgbaImage::from_pixel(440, 440, Rgba([250, 250, 250, 255]));
        let mut image = original.clone();
        let givens = vec![0u8; 81];
        let rects = mark_wrong(&mut image, &loc, &givens, &[40], Contrast::Normal).unwrap();
        assert!(!rects.is_empty());
        let [x, y] = loc.canvas_to_image(4.5, 4.5);
        let p = image.get_pixel(x.round() as u32, y.round() as u32);
        assert!(p[0] > 150 && p[1] < 90 && p[2] < 90, "centre {p:?} is red");
        // The tint covers the cell away from the strike: reddish, not white.
        let [x, y] = loc.canvas_to_image(4.25, 4.25);
        let q = image.get_pixel(x.round() as u32, y.round() as u32);
        assert!(q[0] as i32 - q[1] as i32 > 30, "tinted {q:?}");
        // Every changed pixel lies inside the wrong cell's quad.
        let quad = loc.cell_quad(40);
        for (px, py, p) in image.enumerate_pixels() {
            if p != original.get_pixel(px, py) {
                assert!(
                    inside(&quad, px as f32, py as f32),
                    "({px}, {py}) changed outside the cell"
                );
            }
        }
    }

    #[test]
    fn dark_paper_gets_the_lighter_red_and_bad_cells_are_refused() {
        let loc = located(
            Layout::classic(),
            [[10.0, 10.0], [190.0, 10.0], [190.0, 190.0], [10.0, 190.0]],
        );
        let mut image = RgbaImage::from_pixel(200, 200, Rgba([28, 28, 30, 255]));
        let givens = vec![0u8; 81];
        mark_wrong(&mut image, &loc, &givens, &[0], Contrast::Normal).unwrap();
        let [x, y] = loc.canvas_to_image(0.5, 0.5);
        let p = image.get_pixel(x.round() as u32, y.round() as u32);
        assert!(p[0] > 200 && p[1] < 140, "centre {p:?} is light red");
        assert!(matches!(
            mark_wrong(&mut image, &loc, &givens, &[81], Contrast::Normal),
            Err(OverlayError::Cell { cell: 81, .. })
        ));
        assert!(
            mark_wrong(&mut image, &loc, &givens, &[], Contrast::Normal)
                .unwrap()
                .is_empty()
        );
    }
}
