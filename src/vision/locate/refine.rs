//! Stage 5: the actual grid lines. The ink under the chosen quad is
//! rectified; its outer lines are straightened when a corner is grossly off,
//! then every grid line is found in the ink profile across it, so that cells
//! follow the printed lines even when the outer border is thick or the
//! spacing uneven, and each inner line again cell by cell along it, so that
//! they follow a bent page too.

use image::GrayImage;
use rayon::prelude::*;

use super::Located;
use super::quad::{Quad, dist};
use crate::grid::Layout;
use crate::vision::page::homography::Homography;

/// Pixels per canvas unit of the rectified ink: a thin line stays a pixel
/// or two wide, and a profile across a cell has enough steps to place a
/// line to a few hundredths of a cell.
const REFINE_PX: f32 = 24.0;
/// Up to this many samples each way per rectified pixel, so that thin lines
/// survive when the quad is larger than the rectangle.
const MAX_RECTIFY_SAMPLES: u32 = 4;
/// Along each unit of a line, only the stretch from this share of the unit
/// ...
const ALONG_FROM: f32 = 0.15;
/// ... to this one is looked at: the crossings near its ends have ink
/// across the whole profile.
const ALONG_TO: f32 = 0.85;
/// A column of the profile belongs to the line's run while it holds at
/// least this many tenths of the peak's ink (counted in tenths: the outer
/// lines' profiles are integer counts).
const LINE_RUN_TENTHS: usize = 6;
/// An outer line is looked for within this share of a cell of its nominal
/// place: a corner pulled off by print is less than half a cell off.
const OUTER_REACH: f32 = 0.45;
/// A unit of an outer line is found when its peak column holds ink over
/// this share of the unit: a solid border, not a digit's stroke.
const OUTER_MIN_PEAK: f32 = 0.6;
/// A straight line is fitted through at least this many units.
const MIN_FIT_UNITS: f32 = 3.0;
/// Units further than this share of a cell from the first fit are dropped
/// before the second: a digit or a smudge by the border.
const OUTER_NEAR: f32 = 0.1;
/// At least this share of a side's units must agree with its line.
const OUTER_MIN_AGREE: f32 = 0.5;
/// Lines closer to parallel than this (1 - product of the slopes) do not
/// meet in a corner.
const MIN_MEET_DEN: f32 = 1e-3;
/// The straightened corners are used only when one moves by more than this
/// share of a cell: smaller moves would trade the outline's precise corners
/// for a straight-line fit across a slightly curved page ...
const MIN_OUTER_MOVE: f32 = 0.2;
/// ... and less than this: a larger move is a line of other print taken for
/// the border.
const MAX_OUTER_MOVE: f32 = 0.5;
/// Each grid line is looked for within this share of a cell of its place
/// on the (straightened) canvas.
const LINE_REACH: f32 = 0.3;
/// A line is found when its peak column holds ink over this share of its
/// length; fainter lines keep their nominal place.
const LINE_MIN_PEAK: f32 = 0.4;
/// A line is found beside one cell ([`local_lines`]) when its peak column
/// holds ink over this share of the cell's stretch: more than over the
/// whole line ([`LINE_MIN_PEAK`]), since a digit's bar beside the line can
/// fill much of one cell's stretch, never of the line's.
const LOCAL_MIN_PEAK: f32 = 0.6;
/// A line's bend is fitted ([`fit_bend`]) through at least this many
/// units found beside it: fewer fix no curve worth trusting, and the line
/// keeps its place.
const MIN_BEND_UNITS: usize = 4;
/// A unit found further than this from the first fit of its line's bend
/// (three pixels of the rectified ink) is left out of the second.
const BEND_OUTLIER: f32 = 3.0 / REFINE_PX;
/// A bend is taken only when at least this share (numerator, denominator)
/// of the units found stay in the second fit ...
const BEND_MIN_AGREE: (usize, usize) = (2, 3);
/// ... and lie within this root-mean-square distance of it: a pixel of
/// the rectified ink, to which a printed line is placed unit by unit (the
/// pixel steps alone scatter it by 0.3 pixels).
const BEND_MAX_SCATTER: f32 = 1.0 / REFINE_PX;
/// A line beside a cell keeps the whole line's place unless it lies at
/// least this far from it (canvas units: two pixels of the rectified ink
/// at [`REFINE_PX`]): nearer is the measure's own noise, and blurred
/// print reads differently when its crop moves by a pixel, so no crop
/// moves for nothing.
const LOCAL_MIN_SHIFT: f32 = 2.0 / REFINE_PX;
/// An inner line whose two neighbouring gaps differ by more than this
/// share of a cell is not where the print has it: a faint line missing
/// from the ink, with digits' strokes beside it peaking instead, puts one
/// cell a third of a cell short and the next as much too tall, which no
/// bend of a page or uneven print does (those move neighbouring lines
/// alike). It is placed midway between its neighbours ([`even_out`]).
const MAX_GAP_IMBALANCE: f32 = 0.3;
/// Found lines stay at least this share of a cell apart, in order.
const MIN_LINE_GAP: f32 = 0.3;
/// An outer line that was not found is placed by its neighbours' spacing
/// only when at least this many gaps between found lines measure it.
const MIN_SPACING_GAPS: usize = 3;
/// A place within this many working-copy pixels of the image's edge is
/// taken for off the image: a line there may be cut off.
const IMAGE_EDGE_PX: f32 = 2.0;
/// Where along an outer line (in shares of its length) it is looked at to
/// tell whether it lies off the image: its middle half, since its ends,
/// at the grid's corners, are off the image whenever the line across
/// them is.
const OFF_IMAGE_PROBES: [f32; 3] = [0.25, 0.5, 0.75];
/// The outer lines are looked at again in the working copy itself, one
/// sample every this many of its pixels across and along: at
/// [`REFINE_PX`] a grid's frame and a line printed a pixel inside it (a
/// killer's cage outline) merge into one run, in the working copy a
/// one-pixel gap still parts them, and half-pixel steps see every pixel.
const FINE_STEP_PX: f32 = 0.5;

/// The mask under `quad` resampled onto a `w` x `h` rectangle. A pixel is
/// ink when any of several samples over its footprint is, so that thin
/// lines survive when the quad is larger than the rectangle.
fn rectify_mask(mask: &GrayImage, quad: &Quad, w: u32, h: u32) -> GrayImage {
    let Some(hm) = quad.homography_from_rect(w as f64, h as f64) else {
        return GrayImage::new(w, h);
    };
    let side = quad.mean_side();
    let k = ((side / w.min(h) as f32).ceil() as u32).clamp(1, MAX_RECTIFY_SAMPLES) as usize;
    let (mw, mh) = (mask.width() as f64, mask.height() as f64);
    let raw = mask.as_raw();
    let stride = mask.width() as usize;
    let m = hm.matrix();
    // Each sample column's and row's share of the map, the same products
    // as `Homography::map` and summed below in the same order, so that every
    // sample lands exactly where `map` puts it.
    let offsets: Vec<f64> = (0..k).map(|i| (i as f64 + 0.5) / k as f64).collect();
    let cols: Vec<[f64; 3]> = (0..w as usize)
        .flat_map(|x| {
            offsets.iter().map(move |o| {
                let u = x as f64 + o;
                [m[0] * u, m[3] * u, m[6] * u]
            })
        })
        .collect();
    let mut out = vec![0u8; w as usize * h as usize];
    out.par_chunks_mut(w as usize)
        .enumerate()
        .for_each(|(y, row)| {
            let rows: Vec<[f64; 3]> = offsets
                .iter()
                .map(|o| {
                    let v = y as f64 + o;
                    [m[1] * v, m[4] * v, m[7] * v]
                })
                .collect();
            for (x, px) in row.iter_mut().enumerate() {
                let cols = &cols[x * k..][..k];
                let ink = rows.iter().any(|r| {
                    cols.iter().any(|c| {
                        let d = c[2] + r[2] + m[8];
                        let sx = (c[0] + r[0] + m[2]) / d + 0.5;
                        let sy = (c[1] + r[1] + m[5]) / d + 0.5;
                        sx >= 0.0
                            && sy >= 0.0
                            && sx < mw
                            && sy < mh
                            && raw[sy as usize * stride + sx as usize] > 0
                    })
                });
                if ink {
                    *px = 255;
                }
            }
        });
    GrayImage::from_raw(w, h, out).expect("sized buffer")
}

/// Finds the actual grid lines in the ink under `quad` and builds the
/// location (in working-copy pixels).
pub(super) fn refine(
    mask: &GrayImage,
    quad: &Quad,
    layout: Layout,
    score: f32,
    layout_scores: Vec<(String, f32)>,
) -> Located {
    let (lw, lh) = (layout.width(), layout.height());
    let (quad, rect, first) = straighten_outer(mask, quad, &layout);
    let quad = &quad;
    let homography = quad
        .homography_from_rect(lw as f64, lh as f64)
        .unwrap_or(first);
    let (mut col_lines, col_runs) = find_lines(&rect, &layout, true);
    let (mut row_lines, row_runs) = find_lines(&rect, &layout, false);
    take_outermost(mask, &homography, &layout, true, &mut col_lines, &col_runs);
    take_outermost(mask, &homography, &layout, false, &mut row_lines, &row_runs);
    // An outer line not found (cut off by the image's edge, or too faint)
    // is placed by the spacing of the lines found beside it, not left on
    // the quad's edge: a grid whose last line is outside a screenshot is
    // traced to the image's edge, and its last row would be cut short.
    // Likewise an outer line found short of where the spacing puts it, when
    // that place is off the image: the grid goes on past the image's edge,
    // and what was found is a line inside it (a killer's cage outline).
    let size = (mask.width() as f32, mask.height() as f32);
    let off_image =
        |vertical: bool, at: f32| line_off_image(size, &homography, &layout, vertical, at);
    extrapolate_outer(&mut col_lines, &col_runs, &|at| off_image(true, at));
    extrapolate_outer(&mut row_lines, &row_runs, &|at| off_image(false, at));
    // An inner line between very uneven gaps is not where the print has
    // it; then each line where it lies beside each cell.
    even_out(&mut col_lines);
    even_out(&mut row_lines);
    let lines = Lines {
        col_lines_at: local_lines(&rect, &layout, true, &col_lines),
        row_lines_at: local_lines(&rect, &layout, false, &row_lines),
        col_lines,
        row_lines,
    };
    let (corners, homography, lines) = reanchor(&homography, &layout, lines);
    let corners = if homography.map(0.0, 0.0).0.is_finite() {
        corners
    } else {
        quad.points()
    };
    Located {
        corners,
        layout,
        homography,
        col_lines: lines.col_lines,
        row_lines: lines.row_lines,
        col_lines_at: lines.col_lines_at,
        row_lines_at: lines.row_lines_at,
        score,
        layout_scores,
    }
}

/// The grid lines found, in canvas units: each line's place, and its place
/// beside each unit along it.
struct Lines {
    col_lines: Vec<f32>,
    row_lines: Vec<f32>,
    col_lines_at: Vec<Vec<f32>>,
    row_lines_at: Vec<Vec<f32>>,
}

/// The quad with its outer lines straightened, the ink rectified under it
/// (at [`REFINE_PX`]), and the homography of the quad as it came. A corner
/// pulled off by print that touches it tilts a side, which one offset per
/// line cannot follow; see [`outer_corners`].
fn straighten_outer(
    mask: &GrayImage,
    quad: &Quad,
    layout: &Layout,
) -> (Quad, GrayImage, Homography) {
    let (lw, lh) = (layout.width(), layout.height());
    let p = REFINE_PX;
    let (rw, rh) = ((lw as f32 * p) as u32, (lh as f32 * p) as u32);
    let first = quad
        .homography_from_rect(lw as f64, lh as f64)
        .expect("candidate quads are not degenerate");
    let rect = rectify_mask(mask, quad, rw, rh);
    match outer_corners(&rect, layout) {
        Some(c) => {
            let quad = c.map(|[x, y]| {
                let (u, v) = first.map(x as f64, y as f64);
                [u as f32, v as f32]
            });
            let rect = rectify_mask(mask, &quad, rw, rh);
            (quad, rect, first)
        }
        // The same quad: the same rectified mask.
        None => (*quad, rect, first),
    }
}

/// The grid's frame is the outermost line: where an outer line's run
/// holds several lines side by side, the outermost is taken. Lines closer
/// than [`MIN_LINE_GAP`] to the one before are then pushed apart.
fn take_outermost(
    mask: &GrayImage,
    homography: &Homography,
    layout: &Layout,
    vertical: bool,
    lines: &mut [f32],
    runs: &[Option<Run>],
) {
    let last = lines.len() - 1;
    for index in [0, last] {
        if let Some(run) = runs[index]
            && let Some(at) = outermost_line(mask, homography, layout, vertical, index, run)
        {
            lines[index] = at;
        }
    }
    for i in 1..lines.len() {
        if lines[i] <= lines[i - 1] + MIN_LINE_GAP {
            lines[i] = lines[i - 1] + MIN_LINE_GAP;
        }
    }
}

/// Whether the line (vertical or not) at `at` canvas units across is off
/// an image of `size` pixels, within [`IMAGE_EDGE_PX`] of its edge.
/// Looked at along the line's middle ([`OFF_IMAGE_PROBES`]): its ends, at
/// the grid's corners, are off the image when the line across them is.
fn line_off_image(
    (w, h): (f32, f32),
    homography: &Homography,
    layout: &Layout,
    vertical: bool,
    at: f32,
) -> bool {
    let along = if vertical {
        layout.height()
    } else {
        layout.width()
    } as f32;
    OFF_IMAGE_PROBES.iter().any(|t| {
        let (u, v) = if vertical {
            (at, t * along)
        } else {
            (t * along, at)
        };
        let (x, y) = homography.map(u as f64, v as f64);
        let (x, y) = (x as f32, y as f32);
        !(x >= IMAGE_EDGE_PX
            && y >= IMAGE_EDGE_PX
            && x <= w - 1.0 - IMAGE_EDGE_PX
            && y <= h - 1.0 - IMAGE_EDGE_PX)
    })
}

/// Re-anchors the canvas on the centres of the outer lines: the outline of
/// the ink can be pushed out by a shadow or a darker page around the grid,
/// the lines' centres cannot. Returns the corners those centres meet at,
/// the homography from the canvas to them, and the lines in the new canvas
/// units; the homography and lines as they were when the corners make no
/// homography.
fn reanchor(
    homography: &Homography,
    layout: &Layout,
    lines: Lines,
) -> ([[f32; 2]; 4], Homography, Lines) {
    let (lw, lh) = (layout.width(), layout.height());
    let (c0, c1) = (lines.col_lines[0], lines.col_lines[lw]);
    let (r0, r1) = (lines.row_lines[0], lines.row_lines[lh]);
    let corner = |x: f32, y: f32| {
        let (u, v) = homography.map(x as f64, y as f64);
        [u as f32, v as f32]
    };
    let corners = [
        corner(c0, r0),
        corner(c1, r0),
        corner(c1, r1),
        corner(c0, r1),
    ];
    let Some(h) = Quad::new(corners).homography_from_rect(lw as f64, lh as f64) else {
        return (corners, *homography, lines);
    };
    let col = |c: &f32| (c - c0) * lw as f32 / (c1 - c0);
    let row = |r: &f32| (r - r0) * lh as f32 / (r1 - r0);
    let lines = Lines {
        col_lines: lines.col_lines.iter().map(col).collect(),
        row_lines: lines.row_lines.iter().map(row).collect(),
        col_lines_at: lines
            .col_lines_at
            .iter()
            .map(|l| l.iter().map(col).collect())
            .collect(),
        row_lines_at: lines
            .row_lines_at
            .iter()
            .map(|l| l.iter().map(row).collect())
            .collect(),
    };
    (corners, h, lines)
}

/// Places each outer line that was not found (`runs` `None`) one spacing
/// beyond its neighbour, and moves one found short of there out to it when
/// `off_image` says that place (canvas units across the lines) is off the
/// image. The spacing is the median gap between neighbouring lines that
/// were both found, when at least [`MIN_SPACING_GAPS`] were; the
/// neighbour must have been found too. Other lines are left as they are.
fn extrapolate_outer(lines: &mut [f32], runs: &[Option<Run>], off_image: &dyn Fn(f32) -> bool) {
    let n = lines.len();
    if n < 3 {
        return;
    }
    let mut gaps: Vec<f32> = (1..n)
        .filter(|&i| runs[i].is_some() && runs[i - 1].is_some())
        .map(|i| lines[i] - lines[i - 1])
        .collect();
    if gaps.len() < MIN_SPACING_GAPS {
        return;
    }
    let mid = gaps.len() / 2;
    let gap = *gaps.select_nth_unstable_by(mid, f32::total_cmp).1;
    if runs[1].is_some() {
        let at = lines[1] - gap;
        if runs[0].is_none() || (at < lines[0] && off_image(at)) {
            lines[0] = at;
        }
    }
    if runs[n - 2].is_some() {
        let at = lines[n - 2] + gap;
        if runs[n - 1].is_none() || (at > lines[n - 1] && off_image(at)) {
            lines[n - 1] = at;
        }
    }
}

/// The canvas corners (units of the rectified `rect`, at [`REFINE_PX`]) of
/// the four outer lines, each fitted as a straight line through the ink
/// peaks found unit by unit along it (within [`OUTER_REACH`] of its nominal
/// place; far-off units dropped). `None` when a side has too few units
/// found, or no corner moves by more than [`MIN_OUTER_MOVE`], or one would
/// move by [`MAX_OUTER_MOVE`] or more.
fn outer_corners(rect: &GrayImage, layout: &Layout) -> Option<Quad> {
    let (lw, lh) = (layout.width(), layout.height());
    let left = fit_outer_line(rect, layout, true, 0)?;
    let right = fit_outer_line(rect, layout, true, lw)?;
    let top = fit_outer_line(rect, layout, false, 0)?;
    let bottom = fit_outer_line(rect, layout, false, lh)?;
    let out = [
        meet(left, top)?,
        meet(right, top)?,
        meet(right, bottom)?,
        meet(left, bottom)?,
    ];
    let nominal = [
        [0.0, 0.0],
        [lw as f32, 0.0],
        [lw as f32, lh as f32],
        [0.0, lh as f32],
    ];
    // Only a gross error is worth it: small moves would trade the outline's
    // precise corners for a straight-line fit across a slightly curved page.
    let moves: Vec<f32> = out.iter().zip(nominal).map(|(a, b)| dist(*a, b)).collect();
    let worst = moves.iter().cloned().fold(0.0, f32::max);
    (worst > MIN_OUTER_MOVE && worst < MAX_OUTER_MOVE).then_some(Quad::new(out))
}

/// Outer line `(vertical, index)` of the rectified `rect` as `across = a +
/// b * along` in canvas units: a straight line through the ink peaks found
/// unit by unit along it, fitted again through those within
/// [`OUTER_NEAR`] of the first fit. `None` when fewer than
/// [`OUTER_MIN_AGREE`] of the units agree.
fn fit_outer_line(
    rect: &GrayImage,
    layout: &Layout,
    vertical: bool,
    index: usize,
) -> Option<(f32, f32)> {
    let n_along = if vertical {
        layout.height()
    } else {
        layout.width()
    };
    let pts: Vec<(f32, f32)> = (0..n_along)
        .filter(|&b| borders_cell(layout, vertical, index as isize, b as isize))
        .filter_map(|b| outer_peak(rect, vertical, index, b).map(|mid| (b as f32 + 0.5, mid)))
        .collect();
    let (a, b) = line_fit(&pts)?;
    let near: Vec<(f32, f32)> = pts
        .iter()
        .filter(|q| (q.1 - (a + b * q.0)).abs() < OUTER_NEAR)
        .copied()
        .collect();
    if (near.len() as f32) < OUTER_MIN_AGREE * n_along as f32 {
        return None;
    }
    line_fit(&near)
}

/// Where outer line `(vertical, index)` lies beside unit `b` along it, in
/// canvas units across: the middle of the run of ink around the peak of
/// the profile across the line's nominal place (within [`OUTER_REACH`]).
/// `None` when the peak holds less than [`OUTER_MIN_PEAK`] of the stretch
/// looked at.
fn outer_peak(rect: &GrayImage, vertical: bool, index: usize, b: usize) -> Option<f32> {
    let p = REFINE_PX;
    let reach = (OUTER_REACH * p) as i32;
    let ink = |x: i32, y: i32| -> bool {
        x >= 0
            && y >= 0
            && (x as u32) < rect.width()
            && (y as u32) < rect.height()
            && rect.get_pixel(x as u32, y as u32)[0] > 0
    };
    let b0 = (b as f32 * p) as i32;
    let along = b0 + (ALONG_FROM * p) as i32..b0 + (ALONG_TO * p) as i32;
    let centre = (index as f32 * p) as i32;
    let profile: Vec<usize> = (-reach..=reach)
        .map(|d| {
            along
                .clone()
                .filter(|&a| {
                    if vertical {
                        ink(centre + d, a)
                    } else {
                        ink(a, centre + d)
                    }
                })
                .count()
        })
        .collect();
    let peak = *profile.iter().max()?;
    if (peak as f32) < OUTER_MIN_PEAK * along.len() as f32 {
        return None;
    }
    let k = profile.iter().position(|&v| v == peak)?;
    let (mut lo, mut hi) = (k, k);
    while lo > 0 && profile[lo - 1] * 10 >= peak * LINE_RUN_TENTHS {
        lo -= 1;
    }
    while hi + 1 < profile.len() && profile[hi + 1] * 10 >= peak * LINE_RUN_TENTHS {
        hi += 1;
    }
    let mid = (lo + hi) as f32 / 2.0 - reach as f32 + centre as f32 + 0.5;
    Some(mid / p)
}

/// The least-squares line `y = a + b x` through `pts` as `(a, b)`; `None`
/// for fewer than [`MIN_FIT_UNITS`] points or all at one `x`.
fn line_fit(pts: &[(f32, f32)]) -> Option<(f32, f32)> {
    let n = pts.len() as f32;
    if n < MIN_FIT_UNITS {
        return None;
    }
    let mx = pts.iter().map(|q| q.0).sum::<f32>() / n;
    let my = pts.iter().map(|q| q.1).sum::<f32>() / n;
    let sxx: f32 = pts.iter().map(|q| (q.0 - mx).powi(2)).sum();
    let sxy: f32 = pts.iter().map(|q| (q.0 - mx) * (q.1 - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let b = sxy / sxx;
    Some((my - b * mx, b))
}

/// Where the vertical line `x = a1 + b1 y` and the horizontal one `y = a2 +
/// b2 x` meet; `None` when they are too near parallel ([`MIN_MEET_DEN`]).
fn meet(v: (f32, f32), h: (f32, f32)) -> Option<[f32; 2]> {
    let den = 1.0 - v.1 * h.1;
    if den.abs() < MIN_MEET_DEN {
        return None;
    }
    let x = (v.0 + v.1 * h.0) / den;
    Some([x, h.0 + h.1 * x])
}

/// Whether grid line `line` (vertical or not) has a cell on either side
/// of it at unit `b` along it: where the layout draws that line.
fn borders_cell(layout: &Layout, vertical: bool, line: isize, b: isize) -> bool {
    if vertical {
        layout.is_cell(b, line - 1) || layout.is_cell(b, line)
    } else {
        layout.is_cell(line - 1, b) || layout.is_cell(line, b)
    }
}

/// The rectified ink (at [`REFINE_PX`]) seen along the vertical lines or
/// the horizontal ones: positions across them (a column for vertical
/// lines) and along them.
struct Across<'a> {
    rect: &'a GrayImage,
    vertical: bool,
}

impl Across<'_> {
    /// Whether the rectified pixel `across`, `along` is ink (outside: no).
    fn ink(&self, across: i32, along: i32) -> bool {
        let (x, y) = if self.vertical {
            (across, along)
        } else {
            (along, across)
        };
        x >= 0
            && y >= 0
            && (x as u32) < self.rect.width()
            && (y as u32) < self.rect.height()
            && self.rect.get_pixel(x as u32, y as u32)[0] > 0
    }

    /// A line near position `centre` across, seen at the positions `along`
    /// it: the ink at each offset up to `reach` either side, summed along;
    /// when its peak holds ink over `min_share` of `along`, the line's
    /// place (the ink-weighted centre of the strong run around the peak,
    /// see [`peak_run`]) and the run's first and last position across.
    fn line_near(
        &self,
        centre: i32,
        reach: i32,
        along: &[i32],
        min_share: f32,
    ) -> Option<(f32, i32, i32)> {
        let profile: Vec<f32> = (-reach..=reach)
            .map(|d| along.iter().filter(|&&b| self.ink(centre + d, b)).count() as f32)
            .collect();
        let peak = profile.iter().cloned().fold(0.0, f32::max);
        if peak < min_share * along.len() as f32 {
            return None;
        }
        let (mid, lo, hi) = peak_run(&profile, peak);
        let first = |j: usize| centre + j as i32 - reach;
        Some((
            centre as f32 + mid - reach as f32 + 0.5,
            first(lo),
            first(hi),
        ))
    }
}

/// Positions (canvas units) of the vertical (`vertical`) or horizontal grid
/// lines: for line `i`, the ink profile across it over the stretch where the
/// layout has a border there, searched within [`LINE_REACH`] of `i`. A line
/// too faint to find keeps its nominal place; the result is kept
/// increasing, lines at least [`MIN_LINE_GAP`] apart. Beside the positions,
/// each found line's run of strong columns (canvas units, from its first
/// column's start to its last one's end).
type Run = (f32, f32);

fn find_lines(rect: &GrayImage, layout: &Layout, vertical: bool) -> (Vec<f32>, Vec<Option<Run>>) {
    let p = REFINE_PX;
    let (n_lines, n_along) = if vertical {
        (layout.width() + 1, layout.height())
    } else {
        (layout.height() + 1, layout.width())
    };
    let lines_of = Across { rect, vertical };
    let reach = (LINE_REACH * p) as i32;
    let mut out: Vec<f32> = (0..n_lines).map(|i| i as f32).collect();
    let mut runs: Vec<Option<Run>> = vec![None; n_lines];
    for (i, (slot, run)) in out.iter_mut().zip(&mut runs).enumerate() {
        let along: Vec<i32> = (0..n_along as isize)
            .filter(|&b| borders_cell(layout, vertical, i as isize, b))
            .flat_map(|b| {
                let b0 = (b as f32 * p) as i32;
                // Skip the crossings near each end of the unit.
                (b0 + (ALONG_FROM * p) as i32..b0 + (ALONG_TO * p) as i32).collect::<Vec<_>>()
            })
            .collect();
        if along.is_empty() {
            continue;
        }
        let centre = (i as f32 * p) as i32;
        let Some((pos, lo, hi)) = lines_of.line_near(centre, reach, &along, LINE_MIN_PEAK) else {
            continue;
        };
        *slot = pos / p;
        *run = Some((lo as f32 / p, hi as f32 / p + 1.0 / p));
    }
    for i in 1..out.len() {
        if out[i] <= out[i - 1] + MIN_LINE_GAP {
            out[i] = out[i - 1] + MIN_LINE_GAP;
        }
    }
    (out, runs)
}

/// The run of strong columns (each at least [`LINE_RUN_TENTHS`] of `peak`,
/// the profile's highest) around the first peak of `profile`: its
/// ink-weighted centre (in columns of the profile) and its first and last
/// column.
fn peak_run(profile: &[f32], peak: f32) -> (f32, usize, usize) {
    let k = profile
        .iter()
        .position(|&v| v == peak)
        .expect("the peak is in the profile");
    let strong = LINE_RUN_TENTHS as f32 / 10.0 * peak;
    let (mut lo, mut hi) = (k, k);
    while lo > 0 && profile[lo - 1] >= strong {
        lo -= 1;
    }
    while hi + 1 < profile.len() && profile[hi + 1] >= strong {
        hi += 1;
    }
    let (mut sw, mut s) = (0f32, 0f32);
    for (j, &v) in profile.iter().enumerate().take(hi + 1).skip(lo) {
        sw += v;
        s += v * j as f32;
    }
    (s / sw, lo, hi)
}

/// Moves each inner line of `lines` whose gaps to its neighbours differ by
/// more than [`MAX_GAP_IMBALANCE`] to midway between them, the most
/// uneven first (a line off its place makes its neighbours' gaps uneven
/// too, but less so), until none is.
fn even_out(lines: &mut [f32]) {
    // Each move evens one line for good; a bound keeps it finite whatever
    // the input.
    for _ in 0..lines.len() {
        let worst = (1..lines.len().saturating_sub(1))
            .map(|i| {
                let imbalance = ((lines[i] - lines[i - 1]) - (lines[i + 1] - lines[i])).abs();
                (i, imbalance)
            })
            .filter(|&(_, d)| d > MAX_GAP_IMBALANCE)
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let Some((i, _)) = worst else {
            return;
        };
        lines[i] = (lines[i - 1] + lines[i + 1]) / 2.0;
    }
}

/// Where each inner line of `lines` (found by [`find_lines`] in `rect`,
/// canvas units) lies beside each cell along it: `[line][unit along]`. A
/// photographed page that bends bends its lines, and one place per line
/// puts the cells of a bulge a quarter of a cell off, cutting their digits
/// at the crop's edge. Each unit's stretch of the line ([`ALONG_FROM`] to
/// [`ALONG_TO`]) is looked at within [`LINE_REACH`] of the line's place; a
/// unit whose peak column holds ink over [`LOCAL_MIN_PEAK`] of the stretch
/// is found there (the centre of its strong run, as for the whole line).
/// A page bends smoothly and a digit's stroke beside a line is one unit's,
/// so the offsets found are fitted as a curve along the line
/// ([`fit_bend`]), which each unit takes where a neighbouring line bends
/// alike and the offset is at least [`LOCAL_MIN_SHIFT`], or else the
/// line's place. The outer lines keep
/// their place: they were fitted as a whole (and a killer's cage outline
/// drawn just inside the frame is no frame). Then, beside each unit, a
/// line whose gaps to its neighbours there are uneven is placed between
/// them ([`even_out`]).
fn local_lines(rect: &GrayImage, layout: &Layout, vertical: bool, lines: &[f32]) -> Vec<Vec<f32>> {
    let bends = bends(rect, layout, vertical, lines);
    // A bent page bends neighbouring lines alike: a line's bend beside a
    // unit is taken where an inner neighbour's bends the same way there,
    // at least half as far; alone, it is some other print along the line
    // (a killer's cage outline), which a flat page shows too.
    let last = bends.len().saturating_sub(1);
    let mut beside: Vec<Vec<f32>> = bends
        .iter()
        .enumerate()
        .map(|(i, bend)| {
            bend.iter()
                .enumerate()
                .map(|(b, &offset)| {
                    let confirmed = [i.wrapping_sub(1), i + 1]
                        .into_iter()
                        .filter(|&j| j >= 1 && j < last)
                        .any(|j| {
                            let other = bends[j][b];
                            other * offset > 0.0 && other.abs() * 2.0 >= offset.abs()
                        });
                    if confirmed && offset.abs() >= LOCAL_MIN_SHIFT {
                        lines[i] + offset.clamp(-LINE_REACH, LINE_REACH)
                    } else {
                        lines[i]
                    }
                })
                .collect()
        })
        .collect();
    // Beside each unit, the lines across it evened out as the whole
    // lines were.
    let n_along = beside.first().map_or(0, Vec::len);
    let mut across = vec![0f32; beside.len()];
    for b in 0..n_along {
        for (a, line) in across.iter_mut().zip(&beside) {
            *a = line[b];
        }
        even_out(&mut across);
        for (a, line) in across.iter().zip(&mut beside) {
            line[b] = *a;
        }
    }
    beside
}

/// The bend of each line of `lines` beside each unit along it (offsets
/// from the line's place; none for the outer lines), as [`local_lines`]
/// finds and fits them.
fn bends(rect: &GrayImage, layout: &Layout, vertical: bool, lines: &[f32]) -> Vec<Vec<f32>> {
    let p = REFINE_PX;
    let n_along = if vertical {
        layout.height()
    } else {
        layout.width()
    };
    let lines_of = Across { rect, vertical };
    let reach = (LINE_REACH * p) as i32;
    let last = lines.len() - 1;
    lines
        .iter()
        .enumerate()
        .map(|(i, &at)| {
            if i == 0 || i == last {
                return vec![0.0; n_along];
            }
            let centre = (at * p - 0.5).round() as i32;
            let offsets: Vec<Option<f32>> = (0..n_along)
                .map(|b| {
                    if !borders_cell(layout, vertical, i as isize, b as isize) {
                        return None;
                    }
                    let b0 = (b as f32 * p) as i32;
                    let along: Vec<i32> =
                        (b0 + (ALONG_FROM * p) as i32..b0 + (ALONG_TO * p) as i32).collect();
                    let (pos, _, _) = lines_of.line_near(centre, reach, &along, LOCAL_MIN_PEAK)?;
                    Some(pos / p - at)
                })
                .collect();
            fit_bend(&offsets)
        })
        .collect()
}

/// A page bends smoothly: the offsets found unit by unit along a line
/// (`None` where none was) as a quadratic along it, fitted by least
/// squares, then again without the units further than [`BEND_OUTLIER`]
/// from the first fit (a digit's stroke beside the line, peaking in one
/// unit). All zero when fewer than [`MIN_BEND_UNITS`] units were found,
/// or the units do not agree on the curve ([`BEND_MIN_AGREE`],
/// [`BEND_MAX_SCATTER`]).
fn fit_bend(offsets: &[Option<f32>]) -> Vec<f32> {
    let n = offsets.len();
    // Unit b's position along the line, in -1..=1.
    let t = |b: usize| (2.0 * b as f64 + 1.0) / n as f64 - 1.0;
    let fit = |points: &[(f64, f64)]| -> Option<[f64; 3]> {
        if points.len() < MIN_BEND_UNITS {
            return None;
        }
        // Normal equations of y = c0 + c1 t + c2 t^2.
        let mut m = [[0f64; 4]; 3];
        for &(x, y) in points {
            let row = [1.0, x, x * x];
            for (i, r) in row.iter().enumerate() {
                for (j, c) in row.iter().enumerate() {
                    m[i][j] += r * c;
                }
                m[i][3] += r * y;
            }
        }
        solve3(m)
    };
    let found: Vec<(f64, f64)> = offsets
        .iter()
        .enumerate()
        .filter_map(|(b, o)| o.map(|o| (t(b), o as f64)))
        .collect();
    let at = |c: &[f64; 3], x: f64| c[0] + c[1] * x + c[2] * x * x;
    let Some(first) = fit(&found) else {
        return vec![0.0; n];
    };
    let kept: Vec<(f64, f64)> = found
        .iter()
        .copied()
        .filter(|&(x, y)| (y - at(&first, x)).abs() <= BEND_OUTLIER as f64)
        .collect();
    let Some(c) = fit(&kept) else {
        return vec![0.0; n];
    };
    // The units must agree on the bend: most of them on it, closely. Units
    // that scatter (a killer's cage outline beside the line in some, the
    // line in others) tell of no bend.
    let scatter = (kept
        .iter()
        .map(|&(x, y)| (y - at(&c, x)).powi(2))
        .sum::<f64>()
        / kept.len() as f64)
        .sqrt();
    if kept.len() * BEND_MIN_AGREE.1 < found.len() * BEND_MIN_AGREE.0
        || scatter > BEND_MAX_SCATTER as f64
    {
        return vec![0.0; n];
    }
    (0..n).map(|b| at(&c, t(b)) as f32).collect()
}

/// Solves a 3 x 3 linear system given as rows `[a0, a1, a2, rhs]` by
/// Gaussian elimination with partial pivoting; `None` when it is singular
/// (the points fix no quadratic).
fn solve3(mut m: [[f64; 4]; 3]) -> Option<[f64; 3]> {
    for col in 0..3 {
        let pivot = (col..3).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-9 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col];
        for row in m.iter_mut().skip(col + 1) {
            let f = row[col] / pivot_row[col];
            for (v, p) in row.iter_mut().zip(pivot_row).skip(col) {
                *v -= f * p;
            }
        }
    }
    let mut x = [0f64; 3];
    for row in (0..3).rev() {
        let rest: f64 = (row + 1..3).map(|k| m[row][k] * x[k]).sum();
        x[row] = (m[row][3] - rest) / m[row][row];
    }
    Some(x)
}

/// The outer line `index` (the first or the last, vertical or not) looked
/// at again in the working copy's `mask` over its run `run` (canvas units
/// of `homography`), at [`FINE_STEP_PX`]: when the run parts there into
/// several runs of strong samples (each at least [`LINE_RUN_TENTHS`] of the
/// peak, as in [`find_lines`]), the centre of the outermost; `None` when it
/// stays one run, which then keeps its place.
fn outermost_line(
    mask: &GrayImage,
    homography: &Homography,
    layout: &Layout,
    vertical: bool,
    index: usize,
    (lo, hi): Run,
) -> Option<f32> {
    let n_along = if vertical {
        layout.height()
    } else {
        layout.width()
    };
    let point = |across: f32, along: f32| -> [f32; 2] {
        let (x, y) = if vertical {
            (across, along)
        } else {
            (along, across)
        };
        let (u, v) = homography.map(x as f64, y as f64);
        [u as f32, v as f32]
    };
    // Working-copy pixels per canvas unit, across the line at its middle.
    let mid = n_along as f32 / 2.0;
    let per_unit = dist(point(lo, mid), point(lo + 1.0, mid));
    if !per_unit.is_finite() || per_unit <= 0.0 {
        return None;
    }
    let step = FINE_STEP_PX / per_unit;
    let along: Vec<f32> = (0..n_along as isize)
        .filter(|&b| borders_cell(layout, vertical, index as isize, b))
        .flat_map(|b| {
            let (from, to) = (b as f32 + ALONG_FROM, b as f32 + ALONG_TO);
            let n = ((to - from) / step) as usize;
            (0..n).map(move |k| from + k as f32 * step)
        })
        .collect();
    if along.is_empty() {
        return None;
    }
    let (w, h) = (mask.width() as f32, mask.height() as f32);
    let ink = |[x, y]: [f32; 2]| -> bool {
        let (sx, sy) = (x + 0.5, y + 0.5);
        sx >= 0.0 && sy >= 0.0 && sx < w && sy < h && mask.get_pixel(sx as u32, sy as u32)[0] > 0
    };
    // One coarse column more each side: the run's ends were strong.
    let (lo, hi) = (lo - 1.0 / REFINE_PX, hi + 1.0 / REFINE_PX);
    let n_across = ((hi - lo) / step).ceil() as usize;
    let profile: Vec<usize> = (0..n_across)
        .map(|j| {
            let a = lo + (j as f32 + 0.5) * step;
            along.iter().filter(|&&b| ink(point(a, b))).count()
        })
        .collect();
    let peak = *profile.iter().max()?;
    if peak == 0 {
        return None;
    }
    let strong = |v: usize| v * 10 >= peak * LINE_RUN_TENTHS;
    // The runs of strong samples, in order across.
    let mut parts: Vec<(usize, usize)> = Vec::new();
    for (j, &v) in profile.iter().enumerate() {
        match parts.last_mut() {
            Some((_, end)) if strong(v) && *end + 1 == j => *end = j,
            _ if strong(v) => parts.push((j, j)),
            _ => {}
        }
    }
    if parts.len() < 2 {
        return None;
    }
    let (a, b) = if index == 0 {
        parts[0]
    } else {
        parts[parts.len() - 1]
    };
    let (mut sw, mut s) = (0f32, 0f32);
    for (j, &v) in profile.iter().enumerate().take(b + 1).skip(a) {
        sw += v as f32;
        s += v as f32 * (j as f32 + 0.5);
    }
    Some(lo + s / sw * step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;
    use imageproc::drawing::draw_filled_rect_mut;
    use imageproc::rect::Rect;

    /// A rectified classic grid at [`REFINE_PX`] with 2-px lines: the
    /// vertical ones at `cols` (canvas units), `None` for a missing line,
    /// the horizontal ones in their places.
    fn rectified(cols: &[Option<f32>]) -> GrayImage {
        let p = REFINE_PX;
        let side = (9.0 * p) as u32;
        let mut m = GrayImage::new(side, side);
        for (i, c) in cols.iter().enumerate() {
            if let Some(c) = c {
                let x = (c * p).round() as i32 - 1;
                draw_filled_rect_mut(&mut m, Rect::at(x, 0).of_size(2, side), Luma([255]));
            }
            let y = (i as f32 * p) as i32 - 1;
            draw_filled_rect_mut(&mut m, Rect::at(0, y).of_size(side, 2), Luma([255]));
        }
        m
    }

    #[test]
    fn lines_are_found_where_they_are_printed() {
        let mut cols: Vec<Option<f32>> = (0..10).map(|i| Some(i as f32)).collect();
        cols[4] = Some(4.2);
        cols[6] = None;
        let rect = rectified(&cols);
        let (found, _) = find_lines(&rect, &Layout::classic(), true);
        assert_eq!(found.len(), 10);
        // The outer lines are cut in half by the rectangle's edges.
        let want = [0.02, 1.0, 2.0, 3.0, 4.2, 5.0, 6.0, 7.0, 8.0, 8.98];
        for (i, (f, w)) in found.iter().zip(want).enumerate() {
            assert!((f - w).abs() < 0.03, "line {i} at {f}, not {w}");
        }
        // The missing line keeps its nominal place exactly.
        assert_eq!(found[6], 6.0);
        let (rows, _) = find_lines(&rect, &Layout::classic(), false);
        assert!((rows[4] - 4.0).abs() < 0.03, "{rows:?}");
    }

    #[test]
    fn a_line_between_uneven_gaps_is_placed_between_its_neighbours() {
        // Line 5 found among the tall digits below a faint line: the row
        // above it 1.14 tall, the one below 0.67.
        let mut lines = [0.0, 1.0, 2.0, 2.94, 4.08, 5.22, 5.9, 6.91, 7.94, 9.0];
        even_out(&mut lines);
        assert!((lines[5] - 4.99).abs() < 1e-3, "{lines:?}");
        // Its neighbours were uneven only through it, and stay.
        assert_eq!(lines[4], 4.08);
        assert_eq!(lines[6], 5.9);
        // A page's bend changes the gaps little from one to the next.
        let bent = [0.0, 1.1, 2.18, 3.22, 4.22, 5.18, 6.1, 7.05, 8.02, 9.0];
        let mut same = bent;
        even_out(&mut same);
        assert_eq!(same, bent);
    }

    #[test]
    fn a_bend_is_taken_only_where_the_units_agree_on_it() {
        // A smooth bend, one unit's stroke off it and one unit not found.
        let curve = |b: usize| 0.2 - 0.01 * (b as f32 - 4.0).powi(2);
        let mut offsets: Vec<Option<f32>> = (0..9).map(|b| Some(curve(b))).collect();
        offsets[2] = Some(-0.25);
        offsets[6] = None;
        let bend = fit_bend(&offsets);
        for (b, got) in bend.iter().enumerate() {
            assert!(
                (got - curve(b)).abs() < 0.01,
                "unit {b}: {got} vs {}",
                curve(b)
            );
        }
        // A killer's cage outline beside the line in every other unit: two
        // places, no curve through them.
        let split: Vec<Option<f32>> = (0..9)
            .map(|b| Some(if b % 2 == 0 { 0.0 } else { 0.1 }))
            .collect();
        assert!(fit_bend(&split).iter().all(|&o| o == 0.0));
        // Too few units found.
        let few: Vec<Option<f32>> = (0..9).map(|b| (b < 3).then_some(0.2)).collect();
        assert!(fit_bend(&few).iter().all(|&o| o == 0.0));
    }

    #[test]
    fn a_bent_line_is_followed_cell_by_cell() {
        let p = REFINE_PX;
        let cols: Vec<Option<f32>> = (0..10).map(|i| Some(i as f32)).collect();
        let mut rect = rectified(&cols);
        // The page bulges: vertical lines 3, 4 and 5 curve to the right,
        // a quarter of a cell at the middle row, little at the ends ...
        let bulge = |row: usize| 0.25 - 0.25 * ((row as f32 - 4.0) / 4.5).powi(2);
        for line in 3..6 {
            let x = (line as f32 * p) as i32 - 1;
            draw_filled_rect_mut(
                &mut rect,
                Rect::at(x, 0).of_size(2, (9.0 * p) as u32),
                Luma([0]),
            );
            for row in 0..9 {
                let bent = ((line as f32 + bulge(row)) * p).round() as i32 - 1;
                let unit = Rect::at(bent, (row as f32 * p) as i32).of_size(2, p as u32);
                draw_filled_rect_mut(&mut rect, unit, Luma([255]));
            }
        }
        // ... and line 8 alone, less far (what bends alone is other print
        // along the line, no bent page) ...
        let x = (8.0 * p) as i32 - 1;
        draw_filled_rect_mut(
            &mut rect,
            Rect::at(x, 0).of_size(2, (9.0 * p) as u32),
            Luma([0]),
        );
        for row in 0..9 {
            let bent = ((8.0 + bulge(row) / 2.0) * p).round() as i32 - 1;
            let unit = Rect::at(bent, (row as f32 * p) as i32).of_size(2, p as u32);
            draw_filled_rect_mut(&mut rect, unit, Luma([255]));
        }
        // ... and a digit's stroke stands beside line 6 in row 1 only, as
        // long as the line there, nearer the first column of the profile.
        let stroke = (5.8 * p).round() as i32;
        draw_filled_rect_mut(
            &mut rect,
            Rect::at(stroke, (1.1 * p) as i32).of_size(2, (0.8 * p) as u32),
            Luma([255]),
        );
        let layout = Layout::classic();
        let (lines, _) = find_lines(&rect, &layout, true);
        let beside = local_lines(&rect, &layout, true, &lines);
        assert_eq!(beside.len(), 10);
        // Beside each row the lines are where they lie, or, where that is
        // under two pixels from the whole line's place, there.
        for row in 0..9 {
            for (line, beside) in beside.iter().enumerate().take(6).skip(3) {
                let bent = line as f32 + bulge(row);
                let want = if (bent - lines[line]).abs() >= LOCAL_MIN_SHIFT {
                    bent
                } else {
                    lines[line]
                };
                let found = beside[row];
                assert!(
                    (found - want).abs() < 0.03,
                    "line {line} row {row}: {found}, not {want}"
                );
            }
        }
        // The straight lines keep their places, and the line bent alone
        // its own.
        for row in 0..9 {
            assert!((beside[2][row] - 2.0).abs() < 0.03, "{:?}", beside[2]);
            assert_eq!(beside[8][row], lines[8], "{:?}", beside[8]);
        }
        // One cell's stroke moves no line: it is no bend.
        for (row, at) in beside[6].iter().enumerate() {
            assert!((at - 6.0).abs() < 0.03, "row {row}: {:?}", beside[6]);
        }
        // The outer lines keep their places.
        assert!(beside[0].iter().all(|&at| at == lines[0]));
        assert!(beside[9].iter().all(|&at| at == lines[9]));
    }

    #[test]
    fn an_outer_line_not_found_is_placed_by_the_spacing_beside_it() {
        // Lines 0.98 of a cell apart; the last one is not in the picture
        // (cut off by the image's edge), so the quad ended at 9.
        let mut cols: Vec<Option<f32>> = (0..10).map(|i| Some(0.98 * i as f32)).collect();
        cols[9] = None;
        let rect = rectified(&cols);
        let (mut found, runs) = find_lines(&rect, &Layout::classic(), true);
        assert!(runs[9].is_none() && runs[8].is_some());
        assert_eq!(found[9], 9.0, "left on the quad's edge");
        extrapolate_outer(&mut found, &runs, &|_| false);
        assert!((found[9] - 8.82).abs() < 0.03, "{found:?}");
        // Found lines stay where they were found.
        assert!((found[8] - 7.84).abs() < 0.03, "{found:?}");
        let (mut rows, row_runs) = find_lines(&rect, &Layout::classic(), false);
        let before = rows.clone();
        extrapolate_outer(&mut rows, &row_runs, &|_| false);
        assert_eq!(rows, before);
        // A line found inside the grid's edge (an outline just inside a
        // frame the image's edge cut off) is moved out only when where the
        // frame should be is off the image.
        let mut cols: Vec<Option<f32>> = (0..10).map(|i| Some(0.98 * i as f32)).collect();
        cols[9] = Some(8.72);
        let rect = rectified(&cols);
        let (found, runs) = find_lines(&rect, &Layout::classic(), true);
        assert!((found[9] - 8.72).abs() < 0.03, "{found:?}");
        let mut kept = found.clone();
        extrapolate_outer(&mut kept, &runs, &|_| false);
        assert_eq!(kept, found);
        let mut moved = found.clone();
        extrapolate_outer(&mut moved, &runs, &|at| at > 8.75);
        assert!((moved[9] - 8.82).abs() < 0.03, "{moved:?}");
    }

    /// A working-copy mask of a classic grid, 48 px a cell (twice
    /// [`REFINE_PX`], as a screenshot's working copy is): a 4-px frame
    /// centred on 9.5 + 432 k, 1-px inner lines, and a dashed 2-px line one
    /// pixel inside the frame all round (a killer's cage outline).
    fn framed_with_outline() -> GrayImage {
        let mut m = GrayImage::new(460, 460);
        let mut ink = |x: i32, y: i32, w: u32, h: u32| {
            draw_filled_rect_mut(&mut m, Rect::at(x, y).of_size(w, h), Luma([255]));
        };
        for i in 0..10 {
            let c = 10 + 48 * i;
            if i == 0 || i == 9 {
                ink(c - 2, 8, 4, 436);
                ink(8, c - 2, 436, 4);
            } else {
                ink(c, 8, 1, 436);
                ink(8, c, 436, 1);
            }
        }
        // Dashes of 4 px, 2 px apart, from pixel 13 to 437 along each side.
        for d in (13..437).step_by(6) {
            ink(13, d, 2, 4);
            ink(437, d, 2, 4);
            ink(d, 13, 4, 2);
            ink(d, 437, 4, 2);
        }
        m
    }

    #[test]
    fn the_frame_not_a_line_just_inside_it_is_the_outer_line() {
        let mask = framed_with_outline();
        // The quad on the frame's outer edge, as an outline traced gives it.
        let quad = Quad::new([[7.5, 7.5], [443.5, 7.5], [443.5, 443.5], [7.5, 443.5]]);
        let located = refine(&mask, &quad, Layout::classic(), 1.0, Vec::new());
        let want = [[9.5, 9.5], [441.5, 9.5], [441.5, 441.5], [9.5, 441.5]];
        for (got, want) in located.corners.iter().zip(want) {
            assert!(
                dist(*got, want) < 0.5,
                "corner at {got:?}, the frame's centre is {want:?}"
            );
        }
    }
}
