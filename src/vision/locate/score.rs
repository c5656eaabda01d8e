//! Stage 4: how grid-like the ink under a candidate quad is, for one
//! layout: its cell map, stretched onto the quad, says where lines must be
//! and where they must not.

use image::GrayImage;

use super::quad::Quad;
use crate::grid::Layout;

/// A probe hits when ink lies within this share of a cell across its
/// segment: enough for a thick border or a line a little off its nominal
/// place under perspective, little enough to miss a digit's edge.
const PROBE_REACH: f32 = 0.12;
/// Across a segment, at least this many samples (one per mask pixel when
/// cells are larger), so that thin lines are not stepped over.
const MIN_PROBE_STEPS: i32 = 2;
/// Probes along each unit segment of the canvas lattice.
const PROBES: usize = 8;
/// The probes are spread over this share of the segment ...
const PROBE_SPAN: f32 = 0.8;
/// ... starting this far along it: the crossings at its ends carry ink on
/// every segment, inside a grid or not.
const PROBE_FROM: f32 = 0.1;

/// How well the ink mask under `quad` matches `layout`'s canvas stretched
/// onto it.
///
/// Each unit segment of the canvas lattice is probed at a few points,
/// through the homography, straight into the mask; a probe hits when ink
/// lies within `PROBE_REACH` of a cell across the segment (sampled every
/// mask pixel, so thin lines are not missed). Segments bordering a cell of the layout
/// should be hit (`border`); the lines through cell centres mostly not
/// (`centre`: digits only); segments with no cell on either side lie on
/// blank paper (`outside`). Score = border - centre - outside, each a mean
/// hit rate: about 0.5-0.9 for a grid, near 0 for print or an empty frame.
pub fn layout_score(mask: &GrayImage, quad: &Quad, layout: &Layout) -> f32 {
    let (lw, lh) = (layout.width(), layout.height());
    let Some(hm) = quad.homography_from_rect(lw as f64, lh as f64) else {
        return f32::MIN;
    };
    let side = quad.mean_side();
    let cell_px = side / lw.max(lh) as f32;
    let reach = PROBE_REACH;
    let steps = ((2.0 * reach * cell_px).ceil() as i32).max(MIN_PROBE_STEPS);
    let (mw, mh) = (mask.width() as f64, mask.height() as f64);
    let raw = mask.as_raw();
    let stride = mask.width() as usize;
    let to_mask = |u: f32, v: f32| -> (f64, f64) {
        let (x, y) = hm.map(u as f64, v as f64);
        (x + 0.5, y + 0.5)
    };
    let ink = |(x, y): (f64, f64)| -> bool {
        x >= 0.0 && y >= 0.0 && x < mw && y < mh && raw[y as usize * stride + x as usize] > 0
    };
    // Hit rate along the unit segment from (x, y), going down (vertical)
    // or right. Across the segment the map is close enough to affine over
    // a quarter cell to step linearly between its two mapped ends.
    let probe = |vertical: bool, x: f32, y: f32| -> f32 {
        let mut hits = 0;
        for k in 0..PROBES {
            let t = (k as f32 + 0.5) / PROBES as f32 * PROBE_SPAN + PROBE_FROM;
            let (a, b) = if vertical {
                (to_mask(x - reach, y + t), to_mask(x + reach, y + t))
            } else {
                (to_mask(x + t, y - reach), to_mask(x + t, y + reach))
            };
            let hit = (0..=steps).any(|d| {
                let f = d as f64 / steps as f64;
                ink((a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f))
            });
            hits += hit as usize;
        }
        hits as f32 / PROBES as f32
    };
    let (mut border, mut nb) = (0f32, 0f32);
    let (mut centre, mut nc) = (0f32, 0f32);
    let (mut outside, mut no) = (0f32, 0f32);
    for j in 0..lh as isize {
        for i in 0..=lw as isize {
            let hit = probe(true, i as f32, j as f32);
            if layout.is_cell(j, i - 1) || layout.is_cell(j, i) {
                border += hit;
                nb += 1.0;
            } else {
                outside += hit;
                no += 1.0;
            }
            if layout.is_cell(j, i) {
                centre += probe(true, i as f32 + 0.5, j as f32);
                nc += 1.0;
            }
        }
    }
    for i in 0..lw as isize {
        for j in 0..=lh as isize {
            let hit = probe(false, i as f32, j as f32);
            if layout.is_cell(j - 1, i) || layout.is_cell(j, i) {
                border += hit;
                nb += 1.0;
            } else {
                outside += hit;
                no += 1.0;
            }
            if layout.is_cell(j, i) {
                centre += probe(false, i as f32, j as f32 + 0.5);
                nc += 1.0;
            }
        }
    }
    let mean = |s: f32, n: f32| if n > 0.0 { s / n } else { 0.0 };
    mean(border, nb) - mean(centre, nc) - mean(outside, no)
}

#[cfg(test)]
mod tests {
    use super::super::MIN_SCORE;
    use super::*;
    use image::Luma;
    use imageproc::drawing::draw_filled_rect_mut;
    use imageproc::rect::Rect;

    /// A mask with `lines` + 1 lines of 2 px each way, `cell` px apart,
    /// from (40, 30); and the quad on the outer lines' centres.
    fn lattice(lines: i32, cell: i32, every: i32) -> (GrayImage, Quad) {
        let mut m = GrayImage::new(300, 260);
        let len = (lines * cell + 2) as u32;
        for i in (0..=lines).filter(|i| i % every == 0) {
            let at = cell * i;
            draw_filled_rect_mut(&mut m, Rect::at(40 + at, 30).of_size(2, len), Luma([255]));
            draw_filled_rect_mut(&mut m, Rect::at(40, 30 + at).of_size(len, 2), Luma([255]));
        }
        let (a, b) = (41.0, 41.0 + (lines * cell) as f32);
        let quad = Quad::new([[a, a - 10.0], [b, a - 10.0], [b, b - 10.0], [a, b - 10.0]]);
        (m, quad)
    }

    #[test]
    fn a_grid_scores_high_for_its_own_layout() {
        let (mask, quad) = lattice(9, 20, 1);
        let classic = layout_score(&mask, &quad, &Layout::classic());
        assert!(classic > 0.9, "{classic}");
        let samurai = layout_score(&mask, &quad, &Layout::samurai());
        assert!(
            samurai < classic - 0.3,
            "samurai {samurai}, classic {classic}"
        );
    }

    #[test]
    fn a_frame_or_a_box_outline_is_not_a_grid() {
        let (frame, quad) = lattice(9, 20, 9);
        let s = layout_score(&frame, &quad, &Layout::classic());
        assert!(s < MIN_SCORE, "{s}");
        // Twice as many lines: those through the cells' centres count against.
        let (halves, quad) = lattice(18, 10, 1);
        let s = layout_score(&halves, &quad, &Layout::classic());
        assert!(s < MIN_SCORE, "{s}");
    }
}
