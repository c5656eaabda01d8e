//! Finding the puzzle in a grey image: its outer corners, the homography
//! between the layout's canvas and the image, the layout itself, and one
//! square crop per cell sampled from the full-resolution image.
//!
//! Outline:
//! 1. The image is box-averaged down to a working copy whose long side is at
//!    most [`WORK_SIDE`] pixels.
//! 2. Ink is found by a local-mean threshold in both polarities (dark print
//!    on paper, light lines on a dark-mode screen).
//! 3. The outer outline of every large ink component gives a candidate quad:
//!    the largest quadrilateral inscribed in its convex hull, whose sides are
//!    then refitted to the outline's straight stretches. When no candidate
//!    scores as a grid, the dark mask is opened (thin lines and bridges
//!    removed) and the outlines traced again: a grid joined to the rest of
//!    the page through shading keeps its thick frame, now on its own.
//! 4. Each candidate is rectified and scored against every candidate layout
//!    ([`DETECTED_LAYOUTS`], data, not code): borders of the layout's cells
//!    must carry ink, lines through cell centres much less, and canvas
//!    positions outside the shape must be blank. The best layout's score is
//!    the candidate's score; among candidates scoring close to the best, the
//!    largest wins (so a smaller second grid beside the main one loses).
//! 5. The actual grid lines are found in the rectified ink, so cells follow
//!    the printed lines even when the outer border is thick or spacing is
//!    uneven.
//!
//! Corners and the homography are in the orientation of the pixels given:
//! whether the puzzle is upside down or on its side is decided later, from
//! the digits.

use image::GrayImage;
use rayon::prelude::*;

use crate::grid::Layout;
use crate::vision::homography::Homography;

mod candidates;
mod fit;
mod ink;
mod quad;
mod refine;
mod score;

use candidates::{Candidate, candidates, opened_candidates};
use refine::refine;

pub use ink::{Polarity, WORK_SIDE, downscale};
pub use quad::Quad;
pub use score::layout_score;

/// Side of the cell crops that [`cell_crops`] is meant to be called with:
/// enough for a printed digit (about 60% of the cell's height, so ~28 px),
/// small enough to keep sampling 369 samurai cells cheap.
pub const CELL_CROP_SIZE: u32 = 48;

/// Fraction of the cell side left out on each side of a crop: the crop shows
/// the cell's interior and, at most, a sliver of its border lines.
pub const CROP_INSET: f32 = 0.06;

/// The layouts [`locate`] tells apart when none is forced. Any layout built
/// by [`Layout::named`] can be listed: its score comes from its cell map.
pub const DETECTED_LAYOUTS: &[&str] = &["classic", "samurai"];

/// A candidate needs at least this score (see [`Located::score`]) to count
/// as a grid.
pub const MIN_SCORE: f32 = 0.35;

/// Where the puzzle is.
#[derive(Clone, Debug)]
pub struct Located {
    /// The outer corners of the grid, on the centre line of its outer border,
    /// in pixels of the image given to [`locate`] (pixel indices: the centre
    /// of pixel (0, 0) is (0, 0)), clockwise from the top-left as the image
    /// is stored: top-left, top-right, bottom-right, bottom-left. (The
    /// reader then turns the whole location to the puzzle's own order with
    /// [`crate::vision::orient::turn_located`].)
    pub corners: [[f32; 2]; 4],
    /// The detected (or forced) layout.
    pub layout: Layout,
    /// Canvas to image: canvas `(x, y)` in cell units (x = column, 0..width,
    /// y = row, 0..height) to image pixels; the canvas corners map to
    /// `corners`.
    pub homography: Homography,
    /// Where each vertical grid line (0..=width) actually lies, in canvas
    /// units of `homography`: `i` for the outer lines, close to `i` for the
    /// others (unevenly printed or slightly curved grids move them).
    pub col_lines: Vec<f32>,
    /// Same for the horizontal lines (0..=height).
    pub row_lines: Vec<f32>,
    /// How grid-like the rectified content is for `layout`, about 0..1:
    /// ink on cell borders minus ink on lines through cell centres and on
    /// canvas positions outside the shape.
    pub score: f32,
    /// The score of every layout tried, best first.
    pub layout_scores: Vec<(String, f32)>,
}

impl Located {
    /// The image point of a canvas point, through the refined grid lines:
    /// canvas `(x, y)` in cell units (integers are grid lines).
    pub fn canvas_to_image(&self, x: f32, y: f32) -> [f32; 2] {
        let u = piecewise(&self.col_lines, x);
        let v = piecewise(&self.row_lines, y);
        let (px, py) = self.homography.map(u as f64, v as f64);
        [px as f32, py as f32]
    }

    /// The four corners of a cell in image pixels, clockwise from top-left.
    pub fn cell_quad(&self, cell: usize) -> [[f32; 2]; 4] {
        let (r, c) = self.layout.position(cell);
        let (r, c) = (r as f32, c as f32);
        [
            self.canvas_to_image(c, r),
            self.canvas_to_image(c + 1.0, r),
            self.canvas_to_image(c + 1.0, r + 1.0),
            self.canvas_to_image(c, r + 1.0),
        ]
    }

    /// The same location for an image scaled by `factor` (e.g. from the
    /// working copy to the full image).
    ///
    /// Coordinates are pixel indices (the centre of pixel (0, 0) is (0, 0)),
    /// and a working-copy pixel covers `factor` x `factor` image pixels, so
    /// `x` maps to `x * factor + (factor - 1) / 2`.
    pub fn scaled(&self, factor: f32) -> Located {
        let f = factor as f64;
        let o = (f - 1.0) / 2.0;
        let s = Homography::from_matrix([f, 0.0, o, 0.0, f, o, 0.0, 0.0, 1.0]);
        let of = o as f32;
        Located {
            corners: self
                .corners
                .map(|[x, y]| [x * factor + of, y * factor + of]),
            homography: self.homography.then(&s),
            ..self.clone()
        }
    }
}

/// Maps a canvas coordinate through the refined line positions: integer `i`
/// goes to `lines[i]`, linear in between and beyond.
fn piecewise(lines: &[f32], t: f32) -> f32 {
    let n = lines.len() - 1;
    let i = (t.floor().max(0.0) as usize).min(n - 1);
    let f = t - i as f32;
    lines[i] + f * (lines[i + 1] - lines[i])
}

/// Why no grid was located.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LocateError {
    #[error("no sudoku grid found in {file}")]
    NoGrid { file: String },
    #[error("{file} is too small to hold a sudoku grid ({width}x{height} pixels)")]
    TooSmall {
        file: String,
        width: u32,
        height: u32,
    },
}

impl LocateError {
    /// The same error naming `file`.
    pub fn in_file(self, name: &str) -> LocateError {
        match self {
            LocateError::NoGrid { .. } => LocateError::NoGrid {
                file: name.to_string(),
            },
            LocateError::TooSmall { width, height, .. } => LocateError::TooSmall {
                file: name.to_string(),
                width,
                height,
            },
        }
    }
}

/// The intermediate results of [`locate_traced`], for `--debug` output.
#[derive(Clone, Debug)]
pub struct Trace {
    /// The working copy (box-averaged grey).
    pub small: GrayImage,
    /// Full-image pixels per working-copy pixel.
    pub scale: f32,
    /// Ink masks (255 = ink) in [`Polarity::ALL`] order: dark ink, then
    /// light ink (see [`Trace::mask`]).
    pub ink: [GrayImage; 2],
    /// Every candidate quad, in working-copy pixels, with its best score.
    pub candidates: Vec<(Quad, f32)>,
}

impl Trace {
    /// The ink mask of one polarity.
    pub fn mask(&self, polarity: Polarity) -> &GrayImage {
        &self.ink[polarity.index()]
    }
}

/// Finds the puzzle in `grey`. With `layout`, only that layout is tried;
/// otherwise every layout of [`DETECTED_LAYOUTS`].
pub fn locate(grey: &GrayImage, layout: Option<&Layout>) -> Result<Located, LocateError> {
    locate_traced(grey, layout).0
}

/// [`locate`], also returning its intermediate images.
pub fn locate_traced(
    grey: &GrayImage,
    layout: Option<&Layout>,
) -> (Result<Located, LocateError>, Trace) {
    let (small, scale) = downscale(grey, WORK_SIDE);
    let ink = ink::ink_masks(&small);
    let mut trace = Trace {
        small,
        scale,
        ink,
        candidates: Vec::new(),
    };
    if grey.width() < 36 || grey.height() < 36 {
        let err = LocateError::TooSmall {
            file: "the image".into(),
            width: grey.width(),
            height: grey.height(),
        };
        return (Err(err), trace);
    }
    let layouts: Vec<Layout> = match layout {
        Some(l) => vec![l.clone()],
        None => DETECTED_LAYOUTS
            .iter()
            .map(|n| Layout::named(n).expect("built-in layout"))
            .collect(),
    };

    // The two masks' outlines are traced side by side; candidates keep the
    // order dark ink first.
    let per_mask: Vec<Vec<Candidate>> = Polarity::ALL
        .par_iter()
        .map(|&polarity| candidates(trace.mask(polarity), polarity))
        .collect();
    let mut cands: Vec<Candidate> = per_mask.into_iter().flatten().collect();

    let score_all = |cands: &[Candidate]| -> Vec<Vec<(usize, f32)>> {
        cands
            .par_iter()
            .map(|c| {
                let mask = trace.mask(c.polarity);
                let mut s: Vec<(usize, f32)> = layouts
                    .iter()
                    .enumerate()
                    .map(|(li, l)| (li, layout_score(mask, &c.quad, l)))
                    .collect();
                s.sort_by(|a, b| b.1.total_cmp(&a.1));
                s
            })
            .collect()
    };
    let mut scored = score_all(&cands);
    let best_of =
        |scored: &[Vec<(usize, f32)>]| scored.iter().map(|s| s[0].1).fold(f32::MIN, f32::max);
    if best_of(&scored) < MIN_SCORE {
        // The grid may be one component with the rest of the page, joined
        // through shading or a rule that touches it, and its thin inner
        // lines broken so that its holes are not cells. Opening the dark
        // mask removes thin lines and bridges and leaves the thick outer
        // frame standing on its own; its candidates are still scored
        // against the mask as it was.
        let more = opened_candidates(trace.mask(Polarity::DarkOnLight));
        scored.extend(score_all(&more));
        cands.extend(more);
    }
    for (c, s) in cands.iter().zip(&scored) {
        trace.candidates.push((c.quad, s[0].1));
    }
    let best = best_of(&scored);
    if best < MIN_SCORE {
        return (
            Err(LocateError::NoGrid {
                file: "the image".into(),
            }),
            trace,
        );
    }
    // Among the candidates close to the best score, the largest.
    let (cand, layout_ranking) = cands
        .iter()
        .zip(&scored)
        .filter(|(_, s)| s[0].1 >= best * 0.85)
        .max_by(|a, b| a.0.quad.area().total_cmp(&b.0.quad.area()))
        .expect("the best candidate qualifies");
    let chosen = layouts[layout_ranking[0].0].clone();
    let score = layout_ranking[0].1;
    let layout_scores = layout_ranking
        .iter()
        .map(|&(li, s)| (layouts[li].name().to_string(), s))
        .collect();

    let located_small = refine(
        trace.mask(cand.polarity),
        &cand.quad,
        chosen,
        score,
        layout_scores,
    );
    (Ok(located_small.scaled(scale)), trace)
}

/// One square grey crop of `size` x `size` pixels per cell of the located
/// layout, in [`Layout`] cell order, sampled from `full_grey` (the image
/// `located` was found in, at full resolution) through the homography and
/// the refined grid lines. Each crop spans the cell between its grid lines
/// less [`CROP_INSET`] of the cell on each side, so it may show slivers of
/// the lines at its border. Pixels are averaged over their footprint
/// (up to 4 x 4 bilinear samples) so that large photos do not alias.
pub fn cell_crops(full_grey: &GrayImage, located: &Located, size: u32) -> Vec<GrayImage> {
    let layout = &located.layout;
    (0..layout.cell_count())
        .into_par_iter()
        .map(|cell| {
            let (r, c) = layout.position(cell);
            let (u0, u1) = (located.col_lines[c], located.col_lines[c + 1]);
            let (v0, v1) = (located.row_lines[r], located.row_lines[r + 1]);
            let (du, dv) = (u1 - u0, v1 - v0);
            let (u0, v0) = (u0 + CROP_INSET * du, v0 + CROP_INSET * dv);
            let (su, sv) = (
                du * (1.0 - 2.0 * CROP_INSET) / size as f32,
                dv * (1.0 - 2.0 * CROP_INSET) / size as f32,
            );
            let map = |u: f32, v: f32| located.homography.map(u as f64, v as f64);
            // Source pixels per output pixel, from the crop's diagonal.
            let a = map(u0, v0);
            let b = map(u0 + su * size as f32, v0 + sv * size as f32);
            let diag = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt() as f32;
            let ratio = diag / (size as f32 * std::f32::consts::SQRT_2);
            // Each bilinear sample already averages about 2 x 2 pixels.
            let k = ((ratio / 2.0).ceil() as u32).clamp(1, 3);
            let h = located.homography.matrix();
            let raw = full_grey.as_raw();
            let (w, hh) = (full_grey.width() as i32, full_grey.height() as i32);
            let mut out = vec![0u8; (size * size) as usize];
            let inv = 1.0 / (k * k) as f32;
            // Each sample column's and row's share of the homography, the
            // same products as `h[0] * u + h[1] * v + h[2]` and so on, summed
            // below in the same order.
            // `first` is the column of the homography that the coordinate
            // multiplies (0 for u, 1 for v).
            let terms = |start: f32, step: f32, first: usize| -> Vec<[f64; 3]> {
                (0..size)
                    .flat_map(|i| {
                        (0..k).map(move |s| {
                            let t =
                                (start + step * (i as f32 + (s as f32 + 0.5) / k as f32)) as f64;
                            [h[first] * t, h[first + 3] * t, h[first + 6] * t]
                        })
                    })
                    .collect()
            };
            let cols = terms(u0, su, 0);
            let rows = terms(v0, sv, 1);
            let k = k as usize;
            for (y, line) in out.chunks_exact_mut(size as usize).enumerate() {
                let rows = &rows[y * k..][..k];
                for (x, o) in line.iter_mut().enumerate() {
                    let cols = &cols[x * k..][..k];
                    let mut acc = 0f32;
                    for r in rows {
                        for c in cols {
                            let d = c[2] + r[2] + h[8];
                            let px = ((c[0] + r[0] + h[2]) / d) as f32;
                            let py = ((c[1] + r[1] + h[5]) / d) as f32;
                            acc += bilinear_raw(raw, w, hh, px, py);
                        }
                    }
                    *o = (acc * inv + 0.5).min(255.0) as u8;
                }
            }
            GrayImage::from_raw(size, size, out).expect("sized buffer")
        })
        .collect()
}

/// `v.floor() as i32` (saturating, NaN to 0) without the library call that
/// `floor` is on targets without SSE 4.1.
#[inline]
fn floor_i32(v: f32) -> i32 {
    let t = v as i32;
    // Truncation rounds negative fractions up; exact, since |t| < 2^31 and a
    // float with a fraction is below 2^23.
    if (t as f32) > v {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// Bilinear sample at pixel-index coordinates (the centre of pixel (0, 0)
/// is (0, 0)), clamped at the border.
#[inline]
fn bilinear_raw(raw: &[u8], w: i32, h: i32, x: f32, y: f32) -> f32 {
    let (x0, y0) = (floor_i32(x), floor_i32(y));
    let (tx, ty) = (x - x0 as f32, y - y0 as f32);
    if x0 >= 0 && y0 >= 0 && x0 + 1 < w && y0 + 1 < h {
        let i = (y0 * w + x0) as usize;
        let wu = w as usize;
        let (a, b) = (raw[i] as f32, raw[i + 1] as f32);
        let (c, d) = (raw[i + wu] as f32, raw[i + wu + 1] as f32);
        let top = a + (b - a) * tx;
        let bot = c + (d - c) * tx;
        return top + (bot - top) * ty;
    }
    let at = |x: i32, y: i32| -> f32 {
        let x = x.clamp(0, w - 1) as usize;
        let y = y.clamp(0, h - 1) as usize;
        raw[y * w as usize + x] as f32
    };
    let top = at(x0, y0) * (1.0 - tx) + at(x0 + 1, y0) * tx;
    let bot = at(x0, y0 + 1) * (1.0 - tx) + at(x0 + 1, y0 + 1) * tx;
    top * (1.0 - ty) + bot * ty
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piecewise_follows_the_lines() {
        let lines = [0.1, 1.0, 2.2, 3.0];
        assert!((piecewise(&lines, 0.0) - 0.1).abs() < 1e-6);
        assert!((piecewise(&lines, 1.5) - 1.6).abs() < 1e-6);
        assert!((piecewise(&lines, 3.0) - 3.0).abs() < 1e-6);
    }

    #[test]
    fn floor_i32_is_floor_as_i32() {
        let specials = [
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            -1.0,
            -1.5,
            1e-30,
            -1e-30,
            2147483520.0,
            -2147483648.0,
            3e9,
            -3e9,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        for v in specials {
            assert_eq!(floor_i32(v), v.floor() as i32, "{v}");
        }
        for i in -200_000..200_000 {
            let v = i as f32 * 0.013;
            assert_eq!(floor_i32(v), v.floor() as i32, "{v}");
        }
    }
}
