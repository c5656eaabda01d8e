//! Stage 4: how grid-like the ink under a candidate quad is, for one
//! layout: its cell map, stretched onto the quad, says where lines must be
//! and where they must not.

use image::GrayImage;

use super::ink::Polarity;
use super::quad::Quad;
use crate::grid::Layout;
use crate::vision::page::homography::Homography;
use crate::vision::page::num::bilinear;

/// A probe hits when ink lies within this share of a cell across its
/// segment: enough for a thick border or a line a little off its nominal
/// place under perspective, little enough to miss a digit's edge.
const PROBE_REACH: f32 = 0.12;
/// Across a segment, at least this many samples (one per mask pixel when
/// cells are larger), so that thin lines are not stepped over.
const MIN_PROBE_STEPS: i32 = 2;
/// Probes along each unit segment of the canvas lattice.
pub(super) const PROBES: usize = 8;
/// Probes per unit segment in the coarse pass ([`coarse_layout_score`]):
/// one in each of the two bands of a centre line. Averaged over the
/// hundreds of segments of a canvas, two probes already rank layouts as
/// eight do, at a quarter of the cost.
const COARSE_PROBES: usize = 2;
/// A lattice line whose border segments are hit less than this on average
/// is missing. A grid's lines are all drawn: a missing one says the quad
/// is a finer lattice than the picture's (a 6 x 6 laid over one 3 x 3 box
/// of a classic hits every other line, a half-score without this term),
/// while shadow, glare or a fold leave a real line partly hit.
const MISSING_LINE: f32 = 0.25;
/// Lattice lines kept track of per side, above any layout's canvas.
const MAX_LINES: usize = 64;

/// Box borders against other lines ([`box_contrast`]): ink is measured this
/// far either side of a line, a share of a cell: a thick border (up to a
/// tenth of a cell) fits, a digit (clear of the border by a fifth of a
/// cell) does not.
const WIDTH_REACH: f32 = 0.15;
/// Points along each inner unit segment where a line's width is measured.
const WIDTH_PROBES: usize = 4;
/// Samples per image pixel across a line when its weight is measured (at
/// full resolution, bilinear): two, so a line's edge pixels count by how
/// dark they are.
const WIDTH_SAMPLES_PER_PX: f32 = 2.0;
/// At most this many samples across a line (a 25 x 25 grid 4000 px wide
/// has cells of 160 px: 96 samples at two per pixel).
const MAX_WIDTH_STEPS: usize = 128;
/// The probes are spread over this share of the segment ...
const PROBE_SPAN: f32 = 0.8;
/// ... starting this far along it: the crossings at its ends carry ink on
/// every segment, inside a grid or not.
const PROBE_FROM: f32 = 0.1;
/// A line through cell centres is probed only in the bands of this share of
/// the cell next to its two borders (after [`PROBE_FROM`]): a line there
/// crosses the whole cell, while a digit stands clear of the cell's
/// borders. Probing the middle too counted every digit against the grid,
/// so a grid with a digit in every cell scored as print.
const CENTRE_BAND: f32 = 0.1;

/// How well the ink mask under `quad` matches `layout`'s canvas stretched
/// onto it.
///
/// Each unit segment of the canvas lattice is probed at a few points,
/// through the homography, straight into the mask; a probe hits when ink
/// lies within `PROBE_REACH` of a cell across the segment (sampled every
/// mask pixel, so thin lines are not missed). Segments bordering a cell of the layout
/// should be hit (`border`); the lines through cell centres mostly not
/// (`centre`: digits only); segments with no cell on either side lie on
/// blank paper (`outside`). Score = border - centre - outside - missing,
/// the first three mean hit rates, `missing` the share of lattice lines
/// with cells beside them that are hit less than [`MISSING_LINE`] on
/// average: about 0.5-0.9 for a grid, near 0 for print, an empty frame or
/// a finer lattice than the picture's.
pub fn layout_score(mask: &GrayImage, quad: &Quad, layout: &Layout) -> f32 {
    score_with::<PROBES>(mask, quad, layout)
}

/// [`layout_score`] with [`COARSE_PROBES`] probes per segment instead of
/// [`PROBES`]: a quarter of the cost, to rule out the layouts a candidate
/// clearly is not before scoring the others in full.
pub fn coarse_layout_score(mask: &GrayImage, quad: &Quad, layout: &Layout) -> f32 {
    score_with::<COARSE_PROBES>(mask, quad, layout)
}

/// [`layout_score`] with `N` probes per unit segment (`N` even: half of
/// them in each band of a centre line).
fn score_with<const N: usize>(mask: &GrayImage, quad: &Quad, layout: &Layout) -> f32 {
    let (lw, lh) = (layout.width(), layout.height());
    let Some(hm) = quad.homography_from_rect(lw as f64, lh as f64) else {
        return f32::MIN;
    };
    let prober = Prober::new(mask, hm, quad.mean_side() / lw.max(lh) as f32);
    let (border_at, centre_at) = probe_points::<N>();
    let mut tally = Tally::new(lw < MAX_LINES && lh < MAX_LINES);
    // The vertical lines, then the horizontal ones: each unit along a line
    // in turn, and every line across at that unit.
    for vertical in [true, false] {
        let (n_along, n_lines) = if vertical { (lh, lw) } else { (lw, lh) };
        for along in 0..n_along as isize {
            for line in 0..=n_lines as isize {
                // A cell's (row, column) across the line: before and after.
                let cell = |k: isize| if vertical { (along, k) } else { (k, along) };
                let (x, y) = if vertical {
                    (line, along)
                } else {
                    (along, line)
                };
                let hit = prober.hit_rate(vertical, x as f32, y as f32, &border_at);
                let (before, after) = (cell(line - 1), cell(line));
                let bordered =
                    layout.is_cell(before.0, before.1) || layout.is_cell(after.0, after.1);
                tally.segment(vertical, line as usize, bordered, hit);
                if layout.is_cell(after.0, after.1) {
                    let (cx, cy) = if vertical {
                        (x as f32 + 0.5, y as f32)
                    } else {
                        (x as f32, y as f32 + 0.5)
                    };
                    tally.centre += prober.hit_rate(vertical, cx, cy, &centre_at);
                    tally.nc += 1.0;
                }
            }
        }
    }
    tally.score()
}

/// Where along a unit segment `N` probes go: spread over it for the cell
/// borders, and in the two bands by the borders for the lines through cell
/// centres (`N` even).
pub(super) fn probe_points<const N: usize>() -> ([f32; N], [f32; N]) {
    let border_at = std::array::from_fn(|k| (k as f32 + 0.5) / N as f32 * PROBE_SPAN + PROBE_FROM);
    let centre_at = std::array::from_fn(|k| {
        let half = N / 2;
        let f = ((k % half) as f32 + 0.5) / half as f32 * CENTRE_BAND + PROBE_FROM;
        if k < half { f } else { 1.0 - f }
    });
    (border_at, centre_at)
}

/// Probes the ink mask along unit segments of the canvas, through the
/// homography `hm`.
pub(super) struct Prober<'a> {
    hm: Homography,
    raw: &'a [u8],
    stride: usize,
    /// The mask's width and height.
    size: (f64, f64),
    /// How far across a segment ink counts, in cells.
    reach: f32,
    /// Samples across a segment.
    steps: i32,
}

impl<'a> Prober<'a> {
    /// A prober of `mask` through `hm`, whose cells are about `cell_px`
    /// mask pixels wide; ink counts within [`PROBE_REACH`] of a segment.
    pub(super) fn new(mask: &'a GrayImage, hm: Homography, cell_px: f32) -> Self {
        Prober {
            hm,
            raw: mask.as_raw(),
            stride: mask.width() as usize,
            size: (mask.width() as f64, mask.height() as f64),
            reach: PROBE_REACH,
            steps: ((2.0 * PROBE_REACH * cell_px).ceil() as i32).max(MIN_PROBE_STEPS),
        }
    }

    /// Canvas point `(u, v)` in mask pixels.
    #[inline]
    fn to_mask(&self, u: f32, v: f32) -> (f64, f64) {
        let (x, y) = self.hm.map(u as f64, v as f64);
        (x + 0.5, y + 0.5)
    }

    /// Whether the mask has ink at `(x, y)` (pixels; off the mask: no).
    #[inline]
    fn ink(&self, (x, y): (f64, f64)) -> bool {
        let (mw, mh) = self.size;
        x >= 0.0
            && y >= 0.0
            && x < mw
            && y < mh
            && self.raw[y as usize * self.stride + x as usize] > 0
    }

    /// Hit rate along the unit segment from (x, y), going down (vertical)
    /// or right, at the points `at`. Across the segment the map is close
    /// enough to affine over a quarter cell to step linearly between its
    /// two mapped ends.
    #[inline]
    pub(super) fn hit_rate<const N: usize>(
        &self,
        vertical: bool,
        x: f32,
        y: f32,
        at: &[f32; N],
    ) -> f32 {
        let reach = self.reach;
        let steps = self.steps;
        let mut hits = 0;
        for &t in at {
            let (a, b) = if vertical {
                (
                    self.to_mask(x - reach, y + t),
                    self.to_mask(x + reach, y + t),
                )
            } else {
                (
                    self.to_mask(x + t, y - reach),
                    self.to_mask(x + t, y + reach),
                )
            };
            let hit = (0..=steps).any(|d| {
                let f = d as f64 / steps as f64;
                self.ink((a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f))
            });
            hits += hit as usize;
        }
        hits as f32 / N as f32
    }
}

/// The sums [`score_with`] keeps: hit rates and counts of border, centre
/// and outside segments, and border hits and segments per lattice line
/// (vertical lines, then horizontal ones) when `tracked`.
struct Tally {
    border: f32,
    nb: f32,
    centre: f32,
    nc: f32,
    outside: f32,
    no: f32,
    lines: [[(f32, u32); MAX_LINES]; 2],
    tracked: bool,
}

impl Tally {
    fn new(tracked: bool) -> Self {
        Tally {
            border: 0.0,
            nb: 0.0,
            centre: 0.0,
            nc: 0.0,
            outside: 0.0,
            no: 0.0,
            lines: [[(0.0, 0); MAX_LINES]; 2],
            tracked,
        }
    }

    /// A border segment of lattice line `line` (when `bordered`: a cell on
    /// either side) or one outside the shape, hit at rate `hit`.
    #[inline]
    fn segment(&mut self, vertical: bool, line: usize, bordered: bool, hit: f32) {
        if bordered {
            self.border += hit;
            self.nb += 1.0;
            if self.tracked {
                let l = &mut self.lines[usize::from(!vertical)][line];
                l.0 += hit;
                l.1 += 1;
            }
        } else {
            self.outside += hit;
            self.no += 1.0;
        }
    }

    /// border - centre - outside - missing (see [`layout_score`]).
    fn score(&self) -> f32 {
        let mean = |s: f32, n: f32| if n > 0.0 { s / n } else { 0.0 };
        let (mut missing, mut drawn) = (0f32, 0f32);
        for &(hits, n) in self.lines.iter().flatten().filter(|l| l.1 > 0) {
            drawn += 1.0;
            if hits / (n as f32) < MISSING_LINE {
                missing += 1.0;
            }
        }
        mean(self.border, self.nb)
            - mean(self.centre, self.nc)
            - mean(self.outside, self.no)
            - mean(missing, drawn)
    }
}

/// How much heavier the ink is on `layout`'s box borders inside the shape
/// than on its other inner lines, in cells of full-contrast ink: clearly
/// positive when the picture draws this layout's boxes with thicker (or
/// darker) lines, near zero or negative when its heavy lines are elsewhere.
/// Tells apart layouts with the same cells and other boxes (a butterfly's
/// 3 x 3 boxes from a 12 x 12's 3 x 4 ones), which [`layout_score`] scores
/// alike.
///
/// Measured in `grey` itself, at full resolution, through `quad` in its
/// pixels: in the locator's halved working copy a 3 px box border and a
/// 2 px line differ by half a pixel, lost in the threshold. Across each line
/// the profile's darkness (`polarity`'s way) is summed, above the paper's
/// level on its brighter side and above the step between its two sides (a
/// highlighted cell on one side is not ink); so a line twice as wide, or
/// twice as dark, weighs twice as much.
pub fn box_contrast(grey: &GrayImage, polarity: Polarity, quad: &Quad, layout: &Layout) -> f32 {
    let (lw, lh) = (layout.width(), layout.height());
    let Some(hm) = quad.homography_from_rect(lw as f64, lh as f64) else {
        return 0.0;
    };
    if grey.width() < 2 || grey.height() < 2 {
        return 0.0;
    }
    let cell_px = quad.mean_side() / lw.max(lh) as f32;
    let steps = ((2.0 * WIDTH_REACH * cell_px * WIDTH_SAMPLES_PER_PX).ceil() as usize)
        .clamp(MIN_PROBE_STEPS as usize * 2, MAX_WIDTH_STEPS);
    let step_cells = 2.0 * WIDTH_REACH / steps as f32;
    let (xmax, ymax) = ((grey.width() - 1) as f32, (grey.height() - 1) as f32);
    // Ink level at a canvas point: darkness for dark ink, brightness for
    // light ink; None off the image.
    let ink = |u: f32, v: f32| -> Option<f32> {
        let (x, y) = hm.map(u as f64, v as f64);
        let (x, y) = (x as f32, y as f32);
        if !(0.0..=xmax).contains(&x) || !(0.0..=ymax).contains(&y) {
            return None;
        }
        let g = bilinear(grey, x, y);
        Some(match polarity {
            Polarity::DarkOnLight => 255.0 - g,
            Polarity::LightOnDark => g,
        })
    };
    // The line's weight at (x, y), in cells of full-contrast ink, averaged
    // over the probes along it.
    let weight = |vertical: bool, x: f32, y: f32| -> f32 {
        let mut sum = 0.0;
        let mut profile = [0f32; MAX_WIDTH_STEPS + 1];
        // A probe whose profile leaves the image counts as no ink.
        'probe: for k in 0..WIDTH_PROBES {
            let t = (k as f32 + 0.5) / WIDTH_PROBES as f32 * PROBE_SPAN + PROBE_FROM;
            for (d, p) in profile[..=steps].iter_mut().enumerate() {
                let off = -WIDTH_REACH + d as f32 * step_cells;
                let at = if vertical {
                    ink(x + off, y + t)
                } else {
                    ink(x + t, y + off)
                };
                let Some(v) = at else {
                    continue 'probe;
                };
                *p = v;
            }
            let profile = &profile[..=steps];
            // The darker of the two sides: paper, or a highlighted cell.
            let floor = profile[0].max(profile[steps]);
            let heavy: f32 = profile.iter().map(|&v| (v - floor).max(0.0)).sum();
            sum += heavy / 255.0 * step_cells;
        }
        sum / WIDTH_PROBES as f32
    };
    let (mut boxes, mut nb, mut inner, mut ni) = (0f32, 0f32, 0f32, 0f32);
    let mut add = |w: f32, border: bool| {
        if border {
            boxes += w;
            nb += 1.0;
        } else {
            inner += w;
            ni += 1.0;
        }
    };
    for r in 0..lh {
        for c in 0..lw {
            let Some(a) = layout.cell_at(r, c) else {
                continue;
            };
            if let Some(b) = layout.cell_at(r, c + 1) {
                add(
                    weight(true, (c + 1) as f32, r as f32),
                    !layout.same_box(a, b),
                );
            }
            if let Some(b) = layout.cell_at(r + 1, c) {
                add(
                    weight(false, c as f32, (r + 1) as f32),
                    !layout.same_box(a, b),
                );
            }
        }
    }
    if nb == 0.0 || ni == 0.0 {
        return 0.0;
    }
    boxes / nb - inner / ni
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
    fn a_digit_in_every_cell_is_still_a_grid() {
        let (mut mask, quad) = lattice(9, 20, 1);
        let empty = layout_score(&mask, &quad, &Layout::classic());
        // A digit-sized blot in each cell: 8 x 12 px of a 20 px cell,
        // centred, crossing both lines through the cell's centre.
        for r in 0..9 {
            for c in 0..9 {
                let (x, y) = (40 + 20 * c + 7, 30 + 20 * r + 5);
                draw_filled_rect_mut(&mut mask, Rect::at(x, y).of_size(8, 12), Luma([255]));
            }
        }
        let full = layout_score(&mask, &quad, &Layout::classic());
        assert!(full > empty - 0.1, "full {full}, empty {empty}");
        let samurai = layout_score(&mask, &quad, &Layout::samurai());
        assert!(samurai < full - 0.3, "samurai {samurai}, classic {full}");
    }

    #[test]
    fn a_finer_lattice_than_the_picture_is_not_a_grid() {
        // A 3 x 3 lattice (one box of a classic) scored as 6 x 6: every
        // other line is missing.
        let (mask, quad) = lattice(3, 40, 1);
        let six = Layout::named("6x6").unwrap();
        let s = layout_score(&mask, &quad, &six);
        assert!(s < MIN_SCORE, "{s}");
        // The 6 x 6 lattice itself is one.
        let (mask, quad) = lattice(6, 20, 1);
        let s = layout_score(&mask, &quad, &six);
        assert!(s > 0.9, "{s}");
    }

    #[test]
    fn box_borders_tell_layouts_with_the_same_cells_apart() {
        // A 12 x 12 lattice of 2 px lines, 40 px cells, 4 px (a tenth of a
        // cell) every 3 lines both ways: a butterfly's boxes, not a
        // 12 x 12's 3 x 4 ones. Light ink on black, as in an ink mask.
        let (cell, at) = (40i32, 20i32);
        let side = (12 * cell + 2 * at) as u32;
        let mut mask = GrayImage::new(side, side);
        let len = (12 * cell + 4) as u32;
        for i in 0..=12 {
            let w = if i % 3 == 0 { 4 } else { 2 };
            let p = at + cell * i - w as i32 / 2;
            draw_filled_rect_mut(&mut mask, Rect::at(p, at - 2).of_size(w, len), Luma([255]));
            draw_filled_rect_mut(&mut mask, Rect::at(at - 2, p).of_size(len, w), Luma([255]));
        }
        let (a, b) = (at as f32 - 0.5, (at + 12 * cell) as f32 - 0.5);
        let quad = Quad::new([[a, a], [b, a], [b, b], [a, b]]);
        let butterfly = Layout::named("butterfly").unwrap();
        let twelve = Layout::named("12x12").unwrap();
        let (a, b) = (
            layout_score(&mask, &quad, &butterfly),
            layout_score(&mask, &quad, &twelve),
        );
        assert!((a - b).abs() < 0.01, "same cells, same score: {a} {b}");
        let (a, b) = (
            box_contrast(&mask, Polarity::LightOnDark, &quad, &butterfly),
            box_contrast(&mask, Polarity::LightOnDark, &quad, &twelve),
        );
        // The 12 x 12's box rows are thick here too; its box columns not.
        assert!(a > b + 0.02, "butterfly {a}, 12x12 {b}");
    }

    #[test]
    fn box_borders_a_pixel_wider_are_told_apart_on_a_highlighted_screen() {
        // A screenshot of a 12 x 12 with 3 x 4 boxes: 2 px lines, box
        // borders 3 px, 48 px cells, one row and one column highlighted
        // (the selected cell's band) in a light blue-grey.
        let (cell, at) = (48i32, 20i32);
        let side = (12 * cell + 2 * at) as u32;
        let mut grey = GrayImage::from_pixel(side, side, Luma([255]));
        draw_filled_rect_mut(
            &mut grey,
            Rect::at(at, at + 4 * cell).of_size(12 * cell as u32, cell as u32),
            Luma([228]),
        );
        draw_filled_rect_mut(
            &mut grey,
            Rect::at(at + 7 * cell, at).of_size(cell as u32, 12 * cell as u32),
            Luma([228]),
        );
        let len = (12 * cell + 3) as u32;
        for i in 0..=12 {
            let (across, down) = (i % 4 == 0, i % 3 == 0);
            let (wc, wr) = (if across { 3 } else { 2 }, if down { 3 } else { 2 });
            let p = at + cell * i - 1;
            draw_filled_rect_mut(&mut grey, Rect::at(p, at - 1).of_size(wc, len), Luma([70]));
            draw_filled_rect_mut(&mut grey, Rect::at(at - 1, p).of_size(len, wr), Luma([70]));
        }
        let (a, b) = (at as f32, (at + 12 * cell) as f32);
        let quad = Quad::new([[a, a], [b, a], [b, b], [a, b]]);
        let butterfly = Layout::named("butterfly").unwrap();
        let twelve = Layout::named("12x12").unwrap();
        let light = Polarity::DarkOnLight;
        let (f, t) = (
            box_contrast(&grey, light, &quad, &butterfly),
            box_contrast(&grey, light, &quad, &twelve),
        );
        // A pixel of ink in 48 is 0.02 of a cell, 0.015 at this contrast.
        assert!(t > 0.01, "12x12 {t}");
        assert!(t > f + 0.005, "butterfly {f}, 12x12 {t}");
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
