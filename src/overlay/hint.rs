//! A hint's step drawn onto the photo through the located grid's
//! homography, as the app shows it at the hint's last level: the pattern's
//! cells outlined, the candidates it strikes written small where a pencil
//! mark goes and crossed out, what it places large on a patch of paper.

use ab_glyph::FontRef;
use image::Rgba;

use super::stamp::{GlyphSet, Stamp, segment};
use super::{
    Canvas, Contrast, FONT, INSET, OverlayError, Paintable, PixelRect, cell_to_image,
    check_options, glyph_resolution,
};
use crate::grid::Alphabet;
use crate::logic::{Step, mark_spot};
use crate::vision::locate::Located;
use crate::vision::page::homography::Homography;

/// Colours of a step on the photo; those of the app's canvas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepPalette {
    /// The pattern's cells: an orange unlike print, red and the solution.
    pub pattern: Rgba<u8>,
    /// What the step places: the solution's green.
    pub place: Rgba<u8>,
    /// What it strikes out.
    pub strike: Rgba<u8>,
    /// The patch under what it places and strikes, over the cell's print
    /// and pencil marks.
    pub patch: Rgba<u8>,
}

impl StepPalette {
    pub const LIGHT: StepPalette = StepPalette {
        pattern: Rgba([230, 110, 0, 255]),
        place: Rgba([22, 128, 61, 255]),
        strike: Rgba([200, 30, 30, 255]),
        patch: Rgba([255, 255, 255, 220]),
    };

    /// High contrast, as the app's window draws a step in it: the pattern
    /// an opaque deep violet, placements dark green, strikes pure red, on
    /// a patch that hides the print under it.
    pub const HIGH_CONTRAST: StepPalette = StepPalette {
        pattern: Rgba([80, 0, 200, 255]),
        place: Rgba([0, 110, 0, 255]),
        strike: Rgba([210, 0, 0, 255]),
        patch: Rgba([255, 255, 255, 245]),
    };

    /// The step's colours in `contrast`.
    pub fn for_contrast(contrast: Contrast) -> StepPalette {
        contrast.pick(StepPalette::LIGHT, StepPalette::HIGH_CONTRAST)
    }
}

/// The pattern cells' outline: its thickness as a fraction of the cell, a
/// line that reads at arm's length on a phone photo without hiding print.
const PATTERN_THICKNESS: f64 = 0.06;
/// The outline in high contrast: half as thick again.
const HC_PATTERN_THICKNESS: f64 = 0.09;

/// A struck candidate's symbol height, as a fraction of its pencil-mark
/// slot: as large as the slot allows, for a struck symbol must be read.
const STRIKE_HEIGHT: f64 = 0.7;

/// A struck candidate's patch side, as a fraction of its slot.
const STRIKE_PATCH: f64 = 0.95;

/// The strike's width, as a fraction of the slot: thick enough to see
/// through the symbol.
const STRIKE_WIDTH: f64 = 0.09;

/// Draws `step` onto `image`, the image `located` was found in: the cells
/// of its pattern outlined, each candidate it eliminates written in its
/// pencil-mark slot (see [`mark_spot`]) on a patch and struck through, and
/// each symbol it places drawn like a solved digit on a patch of paper,
/// in the colours of [`StepPalette::for_contrast`] the options' contrast.
/// `alphabet` writes the symbols. A cell or symbol the layout does not
/// have is an error, and nothing is drawn. Returns the rectangles of
/// pixels that may have changed (see [`super::restore`]).
pub fn draw_step<P: Paintable>(
    image: &mut Canvas<P>,
    located: &Located,
    step: &Step,
    alphabet: Alphabet,
    options: &super::Options,
) -> Result<Vec<PixelRect>, OverlayError> {
    check_options(options)?;
    let layout = &located.layout;
    let (cells, size) = (layout.cell_count(), layout.size());
    let bad_cell = step
        .cells
        .iter()
        .copied()
        .chain(step.placements.iter().map(|c| c.cell))
        .chain(step.eliminations.iter().map(|c| c.cell))
        .find(|&c| c >= cells);
    if let Some(cell) = bad_cell {
        return Err(OverlayError::Cell {
            cell,
            layout: layout.name().to_string(),
            cells,
        });
    }
    for (what, list) in [
        ("placements", &step.placements),
        ("eliminations", &step.eliminations),
    ] {
        if let Some(c) = list
            .iter()
            .find(|c| c.digit == 0 || c.digit as usize > size)
        {
            return Err(OverlayError::Value {
                what,
                value: c.digit,
                cell: c.cell,
                layout: layout.name().to_string(),
                size,
            });
        }
    }
    let palette = StepPalette::for_contrast(options.contrast);
    let thickness = options
        .contrast
        .pick(PATTERN_THICKNESS, HC_PATTERN_THICKNESS);
    let maps: Vec<Option<Homography>> = (0..cells).map(|c| cell_to_image(located, c)).collect();
    let res = glyph_resolution(&maps);
    let font = FontRef::try_from_slice(FONT).expect("the bundled font parses");
    let mut touched = Vec::new();

    let outline = Stamp::frame(INSET, thickness, res);
    for &cell in &step.cells {
        if let Some(map) = &maps[cell] {
            touched.extend(outline.draw(image, map, palette.pattern));
        }
    }

    // Struck candidates: a patch, the symbol, a stroke through it.
    let side = mark_spot(size, 1).1 as f64;
    let mut small = GlyphSet::new(font.clone(), STRIKE_HEIGHT, res * side);
    let patch = Stamp::frame(0.5 * (1.0 - STRIKE_PATCH), 1.0, res * side);
    for e in &step.eliminations {
        let Some(map) = &maps[e.cell] else { continue };
        let (spot, slot) = mark_spot(size, e.digit);
        let slot = slot as f64;
        // The slot's own unit square, in the cell.
        let to_slot = Homography::from_matrix([
            slot,
            0.0,
            spot[0] as f64 - slot / 2.0,
            0.0,
            slot,
            spot[1] as f64 - slot / 2.0,
            0.0,
            0.0,
            1.0,
        ]);
        let slot_map = to_slot.then(map);
        touched.extend(patch.draw(image, &slot_map, palette.patch));
        if let Some(glyph) = small.get(e.digit, alphabet.symbol(e.digit)) {
            touched.extend(glyph.draw(image, &slot_map, palette.strike));
        }
        let at = |x: f64, y: f64| {
            let (px, py) = slot_map.map(x, y);
            [px as f32, py as f32]
        };
        let (a, b) = (at(0.2, 0.8), at(0.8, 0.2));
        let width = ((a[0] - b[0]).hypot(a[1] - b[1]) as f64 / 0.85 * STRIKE_WIDTH) as f32;
        touched.extend(segment(image, a, b, width.max(1.0), palette.strike));
    }

    // Placements: over the cell's marks, large.
    let plate = Stamp::frame(INSET, 1.0, res);
    let mut large = GlyphSet::new(font, options.digit_height as f64, res);
    for p in &step.placements {
        let Some(map) = &maps[p.cell] else { continue };
        touched.extend(plate.draw(image, map, palette.patch));
        if let Some(glyph) = large.get(p.digit, alphabet.symbol(p.digit)) {
            touched.extend(glyph.draw(image, map, palette.place));
        }
    }
    Ok(touched)
}

#[cfg(test)]
mod tests {
    use image::RgbaImage;

    use super::*;
    use crate::grid::Layout;
    use crate::logic::{Candidate, Technique};
    use crate::vision::locate::located_at_corners;

    const CELL: f32 = 60.0;

    /// A white page with a classic grid's corners at 20 px from the edge,
    /// 60 px a cell.
    fn page() -> (RgbaImage, Located) {
        let side = 9.0 * CELL;
        let (a, b) = (20.0, 20.0 + side);
        let located = located_at_corners([[a, a], [b, a], [b, b], [a, b]], &Layout::classic())
            .expect("a square");
        let size = (side + 40.0) as u32;
        (
            RgbaImage::from_pixel(size, size, Rgba([255, 255, 255, 255])),
            located,
        )
    }

    /// The pixel at a point of `cell` given in cell units (0..1).
    fn at(image: &RgbaImage, cell: usize, x: f32, y: f32) -> Rgba<u8> {
        let (r, c) = (cell / 9, cell % 9);
        let px = 20.0 + (c as f32 + x) * CELL;
        let py = 20.0 + (r as f32 + y) * CELL;
        *image.get_pixel(px as u32, py as u32)
    }

    /// Counts pixels of `cell` near `colour`.
    fn near(image: &RgbaImage, cell: usize, colour: Rgba<u8>) -> usize {
        let mut n = 0;
        for j in 0..CELL as u32 {
            for i in 0..CELL as u32 {
                let p = at(image, cell, i as f32 / CELL, j as f32 / CELL);
                if (0..3).all(|k| (p[k] as i32 - colour[k] as i32).abs() < 40) {
                    n += 1;
                }
            }
        }
        n
    }

    #[test]
    fn the_step_is_drawn_at_its_cells_and_nowhere_else() {
        let (mut image, located) = page();
        let mut step = Step::new(Technique::Pointing);
        step.cells = vec![0, 1];
        step.placements.push(Candidate::new(40, 5));
        // Symbol 9 sits in the bottom-right slot of the cell's 3x3 marks.
        step.eliminations.push(Candidate::new(80, 9));
        let p = StepPalette::LIGHT;
        let touched = draw_step(
            &mut image,
            &located,
            &step,
            Alphabet::Digits,
            &crate::overlay::Options::default(),
        )
        .unwrap();
        assert!(!touched.is_empty());
        // The pattern's cells are outlined in orange, their middles left.
        for cell in [0, 1] {
            assert!(near(&image, cell, p.pattern) > 100, "cell {cell} outlined");
            assert_eq!(at(&image, cell, 0.5, 0.5), Rgba([255, 255, 255, 255]));
        }
        assert!(near(&image, 40, p.place) > 100, "the placed digit");
        let struck = near(&image, 80, p.strike);
        assert!(struck > 20, "the struck candidate ({struck} px)");
        // ...in its slot, the bottom-right third of the cell.
        let mut outside = 0;
        for j in 0..(CELL * 0.6) as u32 {
            for i in 0..(CELL * 0.6) as u32 {
                let q = at(&image, 80, i as f32 / CELL, j as f32 / CELL);
                outside += usize::from(q != Rgba([255, 255, 255, 255]));
            }
        }
        assert_eq!(outside, 0, "nothing outside the candidate's slot");
        // A cell outside the step is untouched.
        assert_eq!(near(&image, 60, Rgba([255, 255, 255, 255])), 3600);
    }

    #[test]
    fn a_step_for_another_layout_is_refused_and_nothing_drawn() {
        let (mut image, located) = page();
        let before = image.clone();
        let mut step = Step::new(Technique::Solver);
        step.placements.push(Candidate::new(81, 1));
        let options = crate::overlay::Options::default();
        let err = draw_step(&mut image, &located, &step, Alphabet::Digits, &options);
        assert!(matches!(err, Err(OverlayError::Cell { cell: 81, .. })));
        step.placements[0] = Candidate::new(3, 10);
        let err = draw_step(&mut image, &located, &step, Alphabet::Digits, &options);
        assert!(matches!(err, Err(OverlayError::Value { value: 10, .. })));
        assert_eq!(image, before);
    }
}
