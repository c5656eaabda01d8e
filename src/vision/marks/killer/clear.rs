//! A killer's print painted over in the cells' crops before they are read
//! for the player's handwriting: the sums read, and the cage outlines along
//! each cell's sides.

use image::{GrayImage, Luma};

use super::KillerReading;
use crate::vision::locate::CROP_INSET;
use crate::vision::page::num::median;

/// Around a sum's ink, this much of a cell is painted over too before the
/// cell is read for handwriting ([`clear_sums`]): the anti-aliased rim and
/// where the ink was cut from the corner's grid lines.
const SUM_CLEAR_MARGIN: f32 = 0.03;
/// How deep into a cell, in cells from its grid line, a cage outline is
/// looked for when it is painted over ([`clear_outlines`]): outlines are
/// drawn 0.04-0.15 of a cell inside their cage (as [`crate::vision::marks::borders`]
/// samples them).
const OUTLINE_DEPTH: f32 = crate::vision::marks::borders::FAR_OFFSET;
/// The stretch of each side looked at for an outline, in cells from its
/// first corner: clear of the corners, where a sum sits or an outline
/// turns.
const OUTLINE_ALONG: (f32, f32) = (0.3, 0.8);
/// A pixel is ink of an outline when its grey is this many levels from the
/// crop's paper (either way: dark themes draw light lines).
const OUTLINE_INK: i16 = 32;
/// A row of a side's band is a line when this share of its stretch is ink:
/// a dashed line is about half ink, a dotted one a third.
const OUTLINE_ROW_INK: f32 = 0.25;
/// An outline is at most this thick, in cells: a thicker run of inked rows
/// is something else (a row of candidate marks).
const OUTLINE_MAX_THICKNESS: f32 = 0.06;
/// Beyond an outline's inner edge, this much of a cell is painted over
/// too: its anti-aliased rim.
const OUTLINE_CLEAR_MARGIN: f32 = 0.02;

/// Paints the paper over each cage's sum (with [`SUM_CLEAR_MARGIN`]) in
/// the cells' crops (as [`crate::vision::locate::cell_crops`] cuts them,
/// [`CROP_INSET`] in from the grid lines), so that what is read for a
/// player's handwriting does not take a sum for an entry or for candidate
/// marks. The paper is the crop's median grey.
pub fn clear_sums(crops: &mut [GrayImage], killer: &KillerReading) {
    for &(cell, b) in &killer.sum_ink {
        let Some(crop) = crops.get_mut(cell) else {
            continue;
        };
        let (w, h) = crop.dimensions();
        let paper = median(crop);
        let px = |t: f32, n: u32| {
            ((t - CROP_INSET) / (1.0 - 2.0 * CROP_INSET) * n as f32).clamp(0.0, n as f32)
        };
        let (x0, x1) = (
            px(b[0] - SUM_CLEAR_MARGIN, w).floor() as u32,
            px(b[2] + SUM_CLEAR_MARGIN, w).ceil() as u32,
        );
        let (y0, y1) = (
            px(b[1] - SUM_CLEAR_MARGIN, h).floor() as u32,
            px(b[3] + SUM_CLEAR_MARGIN, h).ceil() as u32,
        );
        for y in y0..y1 {
            for x in x0..x1 {
                crop.put_pixel(x, y, Luma([paper]));
            }
        }
    }
}

/// Paints the paper over the cage outlines in the cells' crops (cut as
/// for [`clear_sums`]), so that what is read for a player's handwriting does
/// not take a dashed line, or an outline turning a corner, for candidate
/// marks.
///
/// Each side of each crop is looked at on its own (where the grid lines
/// put the crop, an outline may lie at its very edge or a few pixels in):
/// within [`OUTLINE_DEPTH`] of the side, the rows along its middle
/// ([`OUTLINE_ALONG`]) that are mostly ink ([`OUTLINE_INK`],
/// [`OUTLINE_ROW_INK`]), in runs no thicker than an outline that end inside
/// the band. The band from the side to the deepest such run is painted over
/// ([`OUTLINE_CLEAR_MARGIN`] beyond), along the whole side. Where an
/// outline turns a corner inside its cage it crosses no side's middle: the
/// four corners of every crop are painted over to the depth the page's
/// outlines lie at (the median of the sides where one was found).
pub fn clear_outlines(crops: &mut [GrayImage]) {
    let Some(first) = crops.first() else {
        return;
    };
    let n = first.width().min(first.height());
    // A depth of `t` cells from the grid line is `t` times this many crop
    // pixels from where the grid line would be.
    let scale = n as f32 / (1.0 - 2.0 * CROP_INSET);
    let band = (((OUTLINE_DEPTH - CROP_INSET) * scale).ceil() as u32).min(n / 2);
    let thickest = (OUTLINE_MAX_THICKNESS * scale).ceil() as u32;
    let margin = (OUTLINE_CLEAR_MARGIN * scale).ceil() as u32;
    let along = (
        (((OUTLINE_ALONG.0 - CROP_INSET) * scale).max(0.0)) as u32,
        (((OUTLINE_ALONG.1 - CROP_INSET) * scale).ceil() as u32).min(n),
    );
    if band == 0 || along.1 <= along.0 {
        return;
    }
    // Each crop's paper (its median grey) and how deep each side is
    // painted: left, right, top, bottom.
    let ends: Vec<Option<(u8, [u32; 4])>> = crops
        .iter()
        .map(|crop| {
            if crop.width().min(crop.height()) != n {
                return None;
            }
            let paper = median(crop);
            let last = n - 1;
            let pixel = |x: u32, y: u32| (crop.get_pixel(x, y)[0] as i16 - paper as i16).abs();
            let mut out = [0u32; 4];
            for (side, end) in out.iter_mut().enumerate() {
                let line_row = |d: u32| {
                    let inked = (along.0..along.1)
                        .filter(|&t| {
                            let (x, y) = match side {
                                0 => (d, t),
                                1 => (last - d, t),
                                2 => (t, d),
                                _ => (t, last - d),
                            };
                            pixel(x, y) >= OUTLINE_INK
                        })
                        .count();
                    inked as f32 >= OUTLINE_ROW_INK * (along.1 - along.0) as f32
                };
                *end = deepest_thin_run(band, thickest, line_row)
                    .map_or(0, |e| (e + margin).min(n / 2));
            }
            Some((paper, out))
        })
        .collect();
    let mut found: Vec<u32> = ends
        .iter()
        .flatten()
        .flat_map(|(_, e)| e.iter().copied().filter(|&v| v > 0))
        .collect();
    let corner = if found.is_empty() {
        0
    } else {
        let mid = found.len() / 2;
        *found.select_nth_unstable(mid).1
    };
    for (crop, e) in crops.iter_mut().zip(&ends) {
        let Some((paper, [left, right, top, bottom])) = *e else {
            continue;
        };
        let (w, h) = crop.dimensions();
        for y in 0..h {
            for x in 0..w {
                let side = x < left || x >= w - right || y < top || y >= h - bottom;
                let near_x = x < corner || x >= w - corner;
                let near_y = y < corner || y >= h - corner;
                if side || (near_x && near_y) {
                    crop.put_pixel(x, y, Luma([paper]));
                }
            }
        }
    }
}

/// The depth just past the deepest run of rows `line_row` says are a line,
/// among depths `0..band`, whose run is at most `thickest` rows and ends
/// inside the band (a run cut by the band's end may be the top of
/// something larger); `None` when there is none.
fn deepest_thin_run(band: u32, thickest: u32, line_row: impl Fn(u32) -> bool) -> Option<u32> {
    let mut best = None;
    let mut d = 0;
    while d < band {
        if !line_row(d) {
            d += 1;
            continue;
        }
        let start = d;
        while d < band && line_row(d) {
            d += 1;
        }
        if d < band && d - start <= thickest {
            best = Some(d);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cage;
    use crate::vision::marks::borders::Borders;
    use crate::vision::verify::CheckOutcome;

    #[test]
    fn a_sum_is_painted_over_in_its_cell_crop_and_nothing_else() {
        // Two 48 px crops of white cells, each with a dark sum in its
        // top-left corner and a dark stroke in its middle; only the first
        // cell's sum was read (0.08 to 0.3 of the cell across, 0.07 to 0.25
        // down).
        let crop = |_: usize| {
            let mut g = GrayImage::from_pixel(48, 48, Luma([250]));
            for y in 3..12 {
                for x in 3..14 {
                    g.put_pixel(x, y, Luma([20]));
                }
            }
            for y in 16..34 {
                for x in 22..26 {
                    g.put_pixel(x, y, Luma([20]));
                }
            }
            g
        };
        let mut crops: Vec<GrayImage> = (0..2).map(crop).collect();
        let killer = KillerReading {
            cages: vec![Cage::new(10, vec![0, 1])],
            borders: Borders {
                edges: Vec::new(),
                threshold: 0.0,
                outlined: true,
                even: false,
            },
            outcome: CheckOutcome::Unresolved,
            changed: 0,
            uncertain: Vec::new(),
            sum_ink: vec![(0, [0.08, 0.07, 0.3, 0.25])],
        };
        clear_sums(&mut crops, &killer);
        let dark = |g: &GrayImage, x0: u32, y0: u32, x1: u32, y1: u32| {
            (y0..y1)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| g.get_pixel(x, y).0[0] < 128)
                .count()
        };
        assert_eq!(dark(&crops[0], 0, 0, 16, 14), 0, "the sum is gone");
        assert_eq!(dark(&crops[0], 20, 14, 28, 36), 72, "the digit stays");
        assert_eq!(dark(&crops[1], 0, 0, 16, 14), 99, "no sum read there");
    }

    /// A 48 px crop of a killer cell's inside: a sliver of the grid line
    /// at its left, dashed outlines 2-3 px in along its left and top, an
    /// outline's corner turning 4 px in at its bottom right (a neighbour
    /// across the corner is in another cage), and the small marks
    /// `marks` (x0, y0, x1, y1, ends excluded).
    fn outlined_crop(marks: &[(u32, u32, u32, u32)]) -> GrayImage {
        let mut g = GrayImage::from_pixel(48, 48, Luma([245]));
        let mut ink = |x: u32, y: u32| g.put_pixel(x, y, Luma([60]));
        for t in 0..48 {
            ink(0, t);
            if (t / 3) % 2 == 0 {
                ink(2, t);
                ink(t, 3);
            }
        }
        for t in 36..44 {
            ink(t, 43);
            ink(43, t);
        }
        for &(x0, y0, x1, y1) in marks {
            for y in y0..y1 {
                for x in x0..x1 {
                    ink(x, y);
                }
            }
        }
        g
    }

    #[test]
    fn outlines_are_painted_over_and_marks_inside_them_stay() {
        use crate::vision::cells::classify::prep::prepare_entry;
        use crate::vision::cells::entries::{CellKind, cell_kind};
        let kind = |g: &GrayImage| cell_kind(&prepare_entry(g), false);
        // Three small marks across the top, just inside the outline (their
        // rows are mostly ink too, but too many to be a line), and one at
        // the bottom left.
        let marks = [
            (9, 6, 14, 15),
            (21, 6, 26, 15),
            (33, 6, 38, 15),
            (9, 32, 14, 41),
        ];
        let mut crops = vec![outlined_crop(&[]), outlined_crop(&marks)];
        assert_eq!(kind(&crops[0]), CellKind::Marks, "the outlines alone");
        clear_outlines(&mut crops);
        assert_eq!(kind(&crops[0]), CellKind::Empty);
        assert_eq!(kind(&crops[1]), CellKind::Marks);
        // The marks are untouched, the outlines gone.
        assert_eq!(crops[1].get_pixel(9, 6)[0], 60);
        assert_eq!(crops[1].get_pixel(37, 14)[0], 60);
        assert_eq!(crops[1].get_pixel(9, 40)[0], 60);
        for g in &crops {
            assert_eq!(g.get_pixel(2, 24)[0], 245);
            assert_eq!(g.get_pixel(24, 3)[0], 245);
            assert_eq!(g.get_pixel(43, 43)[0], 245);
        }
    }
}
