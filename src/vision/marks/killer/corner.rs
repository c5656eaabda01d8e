//! The corner of a cell where a cage's sum is printed, as the sum reader
//! sees it: rectified through the located grid, the grid lines along its top
//! and left found (a solid line, not a dashed cage outline) and cleared, and
//! its ink told from its paper.

use image::{GrayImage, Luma};

use crate::vision::locate::Located;
use crate::vision::marks::borders::Borders;
use crate::vision::page::num::bilinear;

/// Rectified pixels per cell for reading a sum: small sums on a 50-pixel
/// cell are 8-10 pixels high, upsampled 3x here.
pub(super) const SUM_RES: f32 = 150.0;
/// The corner read for the sum, in cells from the cell's top-left: the sum
/// is printed within the first 0.4 x 0.3 of a cell.
const SUM_CORNER: (f32, f32) = (0.5, 0.36);
/// How far either side of where the grid puts the cell's top (left) line
/// that line is looked for, in cells: a thick box border is up to 0.07 of
/// a cell across, and a cage outline runs 0.05-0.1 inside the line, past
/// the nearer half of this reach.
const LINE_SEARCH: f32 = 0.05;
/// Where along the cell's side the line is measured, in cells from its
/// corner: the middle, clear of the sum (at most 0.35 from the corner) and
/// of the cage outlines' corners.
const LINE_ALONG: (f32, f32) = (0.4, 0.6);
/// Samples along the side for each offset of the line's profile.
const LINE_SAMPLES: usize = 24;
/// On a grid line's rows (columns), a sum's ink is darker than the line
/// by at least this share of the corner's contrast (ink over a grey line).
const LINE_INK_MARGIN: f32 = 0.25;
/// Each offset of the line's profile takes the level of the sample this
/// share of the way from the lightest: a solid line is dark all along, a
/// dashed or dotted outline has paper in its gaps (a third or more of it).
const LINE_SOLID_SHARE: f32 = 0.25;
/// Least darkness (grey levels under the side's paper) of the grid line:
/// fainter, it is no line worth clearing, and the corner starts on it.
const LINE_MIN_CONTRAST: f32 = 12.0;
/// The line spans the offsets where its darkness is at least this share of
/// its darkest: far out on its anti-aliased edges, so that what lies
/// beyond is lighter than the corner's ink cut (half-way to the sum's ink,
/// which may be lighter than a black line). The corner starts on the line
/// and clears it as a line, so a sum printed against or over it keeps its
/// top (a fixed skip of 0.03 of a cell cut a 0 open into a 9).
const LINE_EDGE_SHARE: f32 = 0.25;
/// Least ink contrast (grey levels) for a corner to hold a sum.
const SUM_MIN_CONTRAST: f32 = 28.0;
/// The corner's paper is the grey level at this percentile of its pixels
/// (grid lines left out), its ink at INK_PERCENT: a sum's ink covers a
/// small share of the corner, and the paper is what most of it shows; the
/// darkest hundredth is the ink's, past a stray pixel.
const PAPER_PERCENT: usize = 85;
const INK_PERCENT: usize = 1;
/// Share of the corner's width, at its right, probed for the outline's top
/// line: a sum reaches 0.35 of a cell from the cell's left, the probe
/// starts at about 0.36.
const LINE_PROBE: f32 = 0.3;
/// A row of the outline line is at least this share inked in the probe: a
/// dashed line is about half ink, a digit's stroke does not reach there.
const LINE_ROW_INK: f32 = 0.25;
/// The outline line is at most this thick, in cells.
const LINE_MAX_THICKNESS: f32 = 0.05;

/// A cell's corner as the sum reader sees it: rectified at [`SUM_RES`]
/// pixels per cell from where the cell's top and left grid lines begin to
/// [`SUM_CORNER`], with those lines' rows (columns) and their grey levels.
pub(super) struct Corner {
    pub(super) img: GrayImage,
    /// Where the image begins, in cells right of and below the cell's
    /// corner where the grid puts it.
    pub(super) at: (f32, f32),
    pub(super) top: Line,
    pub(super) left: Line,
}

/// A grid line along one side of a corner: its grey level at each of the
/// corner's first rows (or columns) that it covers.
#[derive(Default)]
pub(super) struct Line {
    pub(super) levels: Vec<f32>,
}

/// The corner of `cell` (through the grid lines `borders` used).
pub(super) fn corner(
    grey: &GrayImage,
    located: &Located,
    borders: &Borders,
    cell: usize,
) -> Corner {
    let (r, c) = located.layout.position(cell);
    let (r, c) = (r as f32, c as f32);
    let (top_at, top) = find_line(grey, located, borders, |along, across| {
        (c + along, r + across)
    });
    let (left_at, left) = find_line(grey, located, borders, |along, across| {
        (c + across, r + along)
    });
    let (w, h) = (
        ((SUM_CORNER.0 - left_at) * SUM_RES) as u32,
        ((SUM_CORNER.1 - top_at) * SUM_RES) as u32,
    );
    let img = GrayImage::from_fn(w, h, |x, y| {
        let u = c + left_at + x as f32 / SUM_RES;
        let v = r + top_at + y as f32 / SUM_RES;
        let [px, py] = borders.point(located, u, v);
        Luma([sample(grey, px, py)])
    });
    Corner {
        img,
        at: (left_at, top_at),
        top,
        left,
    }
}

/// The grid line along one side of a cell: where it begins, in cells from
/// where the grid puts it (`canvas(along, across)` is the canvas point at
/// `along` the side from the cell's corner and `across` it, into the cell
/// when positive), and its grey level across its width, one step of
/// 1 / [`SUM_RES`] each. The profile across the side is taken over the
/// middle of the side ([`LINE_ALONG`]), within [`LINE_SEARCH`], each
/// offset's level the lightest quarter's ([`LINE_SOLID_SHARE`]), so that
/// only solid lines show: a dashed or dotted cage outline, which the
/// refined grid line may lie on, has paper there. The solid line nearest
/// the line's place is the line; it spans the offsets where its darkness
/// is at least [`LINE_EDGE_SHARE`] of its darkest, up to where it rises
/// again into a second line. A line too faint to see
/// ([`LINE_MIN_CONTRAST`]) begins where it was put and covers nothing.
fn find_line(
    grey: &GrayImage,
    located: &Located,
    borders: &Borders,
    canvas: impl Fn(f32, f32) -> (f32, f32),
) -> (f32, Line) {
    const STEPS: usize = (2.0 * LINE_SEARCH * SUM_RES) as usize + 1;
    let step = |k: usize| -LINE_SEARCH + k as f32 / SUM_RES;
    let mut profile = [0f32; STEPS];
    let mut along = [0f32; LINE_SAMPLES];
    for (k, p) in profile.iter_mut().enumerate() {
        let across = step(k);
        for (i, a) in along.iter_mut().enumerate() {
            let t = LINE_ALONG.0
                + (LINE_ALONG.1 - LINE_ALONG.0) * (i as f32 + 0.5) / LINE_SAMPLES as f32;
            let (u, v) = canvas(t, across);
            let [px, py] = borders.point(located, u, v);
            *a = sample(grey, px, py) as f32;
        }
        along.sort_by(|a, b| b.total_cmp(a));
        *p = along[(LINE_SOLID_SHARE * LINE_SAMPLES as f32) as usize];
    }
    let paper = profile.iter().copied().fold(f32::MIN, f32::max);
    let dark = |k: usize| paper - profile[k];
    // The dark run nearest the line's place (offset 0).
    let centre = STEPS / 2;
    let mut best: Option<(usize, usize)> = None;
    let mut k = 0;
    while k < STEPS {
        if dark(k) < LINE_MIN_CONTRAST {
            k += 1;
            continue;
        }
        let start = k;
        while k < STEPS && dark(k) >= LINE_MIN_CONTRAST {
            k += 1;
        }
        let run = (start, k - 1);
        let distance = |(a, b): (usize, usize)| {
            if (a..=b).contains(&centre) {
                0
            } else {
                a.abs_diff(centre).min(b.abs_diff(centre))
            }
        };
        if best.is_none_or(|b| distance(run) < distance(b)) {
            best = Some(run);
        }
    }
    let Some((start, end)) = best else {
        return (0.0, Line::default());
    };
    let peak = (start..=end)
        .max_by(|&a, &b| {
            dark(a)
                .total_cmp(&dark(b))
                .then(b.abs_diff(centre).cmp(&a.abs_diff(centre)))
        })
        .unwrap_or(start);
    let darkest = dark(peak);
    // From the peak out to either edge of the line.
    let within = |from: usize, to: usize| {
        dark(to) >= LINE_EDGE_SHARE * darkest && dark(to) <= dark(from) + LINE_MIN_CONTRAST
    };
    let mut first = peak;
    while first > start && within(first, first - 1) {
        first -= 1;
    }
    let mut last = peak;
    while last < end && within(last, last + 1) {
        last += 1;
    }
    let levels = profile[first..=last].to_vec();
    (step(first), Line { levels })
}

pub(super) fn sample(grey: &GrayImage, x: f32, y: f32) -> u8 {
    let x = x.clamp(0.0, grey.width() as f32 - 1.0);
    let y = y.clamp(0.0, grey.height() as f32 - 1.0);
    bilinear(grey, x, y).round() as u8
}

/// The corner's ink (grid lines and outline line cleared), its paper and
/// ink grey levels; `None` when it has too little contrast to hold a sum.
/// On the grid lines' rows and columns, ink is only what is darker than the
/// line there by [`LINE_INK_MARGIN`] of the contrast: a sum printed over a
/// grey line keeps its top, a black line is cleared whole.
pub(super) fn corner_ink(corner: &Corner) -> Option<(Vec<bool>, f32, f32)> {
    let img = &corner.img;
    let (w, h) = img.dimensions();
    // The levels are the sum's: the grid lines' rows and columns, darker
    // than a thin sum through a photo's blur, are left out.
    let (line_rows, line_cols) = (corner.top.levels.len(), corner.left.levels.len());
    let mut sorted: Vec<u8> = img
        .rows()
        .skip(line_rows)
        .flat_map(|row| row.skip(line_cols).map(|p| p.0[0]))
        .collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_unstable();
    let paper = sorted[(sorted.len() - 1) * PAPER_PERCENT / 100] as f32;
    let ink_level = sorted[(sorted.len() - 1) * INK_PERCENT / 100] as f32;
    if paper - ink_level < SUM_MIN_CONTRAST {
        return None;
    }
    let cut = (paper + ink_level) / 2.0;
    let margin = LINE_INK_MARGIN * (paper - ink_level);
    let mut ink: Vec<bool> = img.as_raw().iter().map(|&v| (v as f32) < cut).collect();
    for (y, &level) in corner.top.levels.iter().enumerate().take(h as usize) {
        for x in 0..w {
            if img.get_pixel(x, y as u32).0[0] as f32 > level - margin {
                ink[y * w as usize + x as usize] = false;
            }
        }
    }
    for (x, &level) in corner.left.levels.iter().enumerate().take(w as usize) {
        for y in 0..h {
            if img.get_pixel(x as u32, y).0[0] as f32 > level - margin {
                ink[(y * w) as usize + x] = false;
            }
        }
    }
    clear_outline_rows(&mut ink, w, h);
    Some((ink, paper, ink_level))
}

/// The top-left corner of `cell` as the sum reader sees it, for
/// inspection: the rectified corner (left) beside its ink once the
/// outline's line is cleared (right, black on white).
pub fn sum_corner_image(
    grey: &GrayImage,
    located: &Located,
    borders: &Borders,
    cell: usize,
) -> GrayImage {
    let corner = corner(grey, located, borders, cell);
    let ink = corner_ink(&corner).map(|(ink, _, _)| ink);
    let img = corner.img;
    let (w, h) = img.dimensions();
    GrayImage::from_fn(2 * w + 4, h, |x, y| {
        if x < w {
            *img.get_pixel(x, y)
        } else if x < w + 4 {
            Luma([128])
        } else {
            let i = (y * w + x - w - 4) as usize;
            Luma([if ink.as_ref().is_some_and(|k| k[i]) {
                0
            } else {
                255
            }])
        }
    })
}

/// Clears the cage outline's top line where it runs through the corner: in
/// some apps the sum sits on it, and a dash touching a digit makes one
/// wide component. Rows of the line are found where the corner's right
/// part, clear of the sum, is inked ([`LINE_PROBE`], [`LINE_ROW_INK`]);
/// in a band of such rows, only ink with ink neither above nor below the
/// band is cleared, so a digit's stroke crossing the line stays whole.
fn clear_outline_rows(ink: &mut [bool], w: u32, h: u32) {
    let (w, h) = (w as usize, h as usize);
    let from = (w as f32 * (1.0 - LINE_PROBE)) as usize;
    let line_row = |y: usize, ink: &[bool]| {
        let row = &ink[y * w + from..(y + 1) * w];
        row.iter().filter(|&&b| b).count() as f32 >= LINE_ROW_INK * row.len() as f32
    };
    let mut y = 0;
    while y < h {
        if !line_row(y, ink) {
            y += 1;
            continue;
        }
        let start = y;
        while y < h && line_row(y, ink) {
            y += 1;
        }
        let end = y; // exclusive
        if (end - start) as f32 > LINE_MAX_THICKNESS * SUM_RES {
            continue;
        }
        for x in 0..w {
            let above = start > 0 && ink[(start - 1) * w + x];
            let below = end < h && ink[end * w + x];
            if !above && !below {
                for yy in start..end {
                    ink[yy * w + x] = false;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::ink_map;
    use super::*;

    #[test]
    fn a_sum_fainter_than_the_grid_lines_is_still_ink() {
        // Black grid lines along the corner's top and left (4 pixels each)
        // and a digit's stroke in mid grey, as a thin sum through a
        // photo's blur is: its contrast, not the lines', sets the cut.
        let (w, h) = (60, 50);
        let img = GrayImage::from_fn(w, h, |x, y| {
            Luma([if x < 4 || y < 4 {
                0
            } else if (20..24).contains(&x) && (10..34).contains(&y) {
                150
            } else {
                230
            }])
        });
        let line = || Line {
            levels: vec![0.0; 4],
        };
        let corner = Corner {
            img,
            at: (0.0, 0.0),
            top: line(),
            left: line(),
        };
        let (ink, _, _) = corner_ink(&corner).expect("a corner with ink");
        assert!(ink[(20 * w + 21) as usize], "the stroke is ink");
        assert!(!ink[(2 * w + 30) as usize], "the line is cleared");
    }

    #[test]
    fn the_outline_line_is_cleared_but_not_a_stroke_crossing_it() {
        let (w, h) = (60, 40);
        // A dashed line on rows 10-11 across the corner, and a digit's
        // vertical stroke crossing it at columns 5-8.
        let mut rects: Vec<(u32, u32, u32, u32)> =
            (0..10).map(|k| (k * 6, 10, k * 6 + 3, 11)).collect();
        rects.push((5, 4, 8, 30));
        let mut ink = ink_map(w, h, &rects);
        clear_outline_rows(&mut ink, w, h);
        let at = |x: u32, y: u32| ink[(y * w + x) as usize];
        assert!(at(6, 10) && at(6, 11), "the stroke stays whole");
        assert!(!at(50, 10) && !at(37, 11), "the dashes go");
        assert!(at(6, 20));
    }

    #[test]
    fn a_sum_over_a_grey_grid_line_keeps_its_top_and_a_black_line_goes() {
        let (w, h) = (70u32, 50u32);
        // A grid line across rows 0-2, at `line` grey, and a black stroke
        // from row 0 down to row 30 (a sum printed over the line).
        let corner = |line: u8| {
            let img = GrayImage::from_fn(w, h, |x, y| {
                Luma([if (10..=13).contains(&x) && y <= 30 {
                    0
                } else if y <= 2 {
                    line
                } else {
                    255
                }])
            });
            Corner {
                img,
                at: (0.0, 0.0),
                top: Line {
                    levels: vec![line as f32; 3],
                },
                left: Line::default(),
            }
        };
        let (ink, _, _) = corner_ink(&corner(200)).unwrap();
        let at = |ink: &[bool], x: u32, y: u32| ink[(y * w + x) as usize];
        assert!(
            at(&ink, 11, 0) && at(&ink, 11, 2),
            "the stroke keeps its top"
        );
        assert!(!at(&ink, 40, 1), "the grey line is no ink");
        let (ink, _, _) = corner_ink(&corner(20)).unwrap();
        assert!((0..w).all(|x| !at(&ink, x, 1)), "the black line is cleared");
        assert!(at(&ink, 11, 3), "the stroke below it stays");
    }
}
