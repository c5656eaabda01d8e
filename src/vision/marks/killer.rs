//! Reading a killer: the cages from the grid's inner edges
//! ([`super::borders`]), each cage's sum from the small number in the
//! top-left corner of its first cell, and the whole checked with the solver.
//!
//! Cages are the cells connected across edges that are not boundaries. Each
//! sum is one or two small digits: the corner is rectified, its ink split
//! into components, the components of a digit's height kept, and each
//! compared with the bundled digit model (a 0, which the model does not
//! hold, is told by its one tall hole). Every digit keeps its runner-ups.
//! The reading is then checked as a whole: every cage at most 9 cells, every
//! sum possible for its size, the sums adding up to the layout's total, and
//! exactly one solution with the digits read in the cells; when it falls
//! short, the least certain edges and sums are changed, fewest and most
//! likely changes first, within fixed bounds.

use std::sync::Arc;

use image::{GrayImage, Luma};

use super::borders::{Borders, may_have_outlines, measure};
use super::groups::{combos, edge_flips, groups};
use crate::grid::{Cage, Layout};
use crate::grid::{layout_total, sum_range};
use crate::solve::{Budget, SudokuSolver};
use crate::vision::cells::classify::Model;
use crate::vision::cells::classify::prep::{WORK, features};
use crate::vision::locate::CROP_INSET;
use crate::vision::locate::Located;
use crate::vision::page::num::{bilinear, median};
use crate::vision::verify::{self, CheckOutcome};

/// Rectified pixels per cell for reading a sum: small sums on a 50-pixel
/// cell are 8-10 pixels high, upsampled 3x here.
const SUM_RES: f32 = 150.0;
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
/// A sum's digits are 0.08-0.3 of a cell high.
const SUM_HEIGHT: (f32, f32) = (0.07, 0.3);
/// Components at least this share of the tallest one's height are digits;
/// shorter ones are dashes or dots of the cage outline.
const DIGIT_OF_TALLEST: f32 = 0.72;
/// The digits of a sum are set on one baseline: their bottoms lie within
/// this share of the heaviest digit's height of its bottom (a pixel or two
/// on a screenshot, a little more through a photo's blur). A grid line's or
/// outline's remnant beside the sum (a hairline where a photo's blur and
/// perspective leave the line a pixel off the place it was cleared from)
/// runs past the sum's baseline, or stops short of it.
const BASELINE_TOLERANCE: f32 = 0.2;
/// A piece of ink at most this far (in cells) above a taller one, over
/// it, is that digit's own top stroke parted from it by the binarisation
/// (a small 5's bar, thinner than its stem, often is): about a pixel on a
/// 50-pixel cell.
const BROKEN_TOP_GAP: f32 = 0.025;
/// Such a top piece is a stroke at least this share of the taller piece's
/// height wide (a 5's bar is about half its height): a dot of a dotted
/// cage outline over a 1 is not.
const BROKEN_TOP_MIN_WIDTH: f32 = 0.3;
/// Ink wider than this share of its height is two digits touching (a 1 is
/// 0.2-0.6 of its height wide, a 0 or 4 up to 0.8; two 1s side by side
/// 1 or more).
const MAX_DIGIT_ASPECT: f32 = 0.9;
/// Where touching digits are split: the column with least ink within this
/// middle share of the ink's width.
const SPLIT_SPAN: (f32, f32) = (0.25, 0.75);
/// Side of the digit's box in the WORK x WORK image the features are taken
/// from, in pixels: as large as the model's digits, with room to spare.
const DIGIT_BOX: f32 = 30.0;
/// Share of the corner's width, at its right, probed for the outline's top
/// line: a sum reaches 0.35 of a cell from the cell's left, the probe
/// starts at about 0.36.
const LINE_PROBE: f32 = 0.3;
/// A row of the outline line is at least this share inked in the probe: a
/// dashed line is about half ink, a digit's stroke does not reach there.
const LINE_ROW_INK: f32 = 0.25;
/// The outline line is at most this thick, in cells.
const LINE_MAX_THICKNESS: f32 = 0.05;
/// A 0's hole fills at least this share of its bounding box (an ellipse
/// 0.79); a 4's triangular hole about half.
const ZERO_HOLE_FILL: f32 = 0.62;
/// A 0's hole is an oval: its centroid within this share of its box from
/// the box's centre (a right triangle's, a 4's hole, lies a sixth off,
/// and a small 4's pixelled triangle fills its box nearly as much as an
/// oval: [`ZERO_HOLE_FILL`] alone took some for 0s).
const ZERO_HOLE_CENTRED: f32 = 0.08;
/// How much less likely the model's best reading is than a 0 when the
/// digit has a 0's hole.
const ZERO_LEAD: f32 = 0.2;
/// A 0: one hole at least this share of the digit's height...
const ZERO_HOLE_HEIGHT: f32 = 0.5;
/// ...and at least this share of its width.
const ZERO_HOLE_WIDTH: f32 = 0.3;
/// Runner-ups kept per digit.
const DIGIT_ALTERNATIVES: usize = 3;
/// Around a sum's ink, this much of a cell is painted over too before the
/// cell is read for handwriting ([`clear_sums`]): the anti-aliased rim and
/// where the ink was cut from the corner's grid lines.
const SUM_CLEAR_MARGIN: f32 = 0.03;
/// How deep into a cell, in cells from its grid line, a cage outline is
/// looked for when it is painted over ([`clear_outlines`]): outlines are
/// drawn 0.04-0.15 of a cell inside their cage (as [`super::borders`]
/// samples them).
const OUTLINE_DEPTH: f32 = super::borders::FAR_OFFSET;
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
/// Readings kept per sum.
const SUM_ALTERNATIVES: usize = 6;
/// Least confident edges considered for flipping.
const EDGE_CANDIDATES: usize = 8;
/// Edges flipped at once at most.
const MAX_EDGE_FLIPS: usize = 2;
/// Sums changed at once at most: three misread sums can still add up to
/// the layout's total (their errors cancel), and then only changing all
/// three gives one solution.
const MAX_SUM_CHANGES: usize = 3;
/// Solver calls at most per reading: each is a killer search.
const MAX_SOLVES: usize = 24;

/// A killer read from an image.
#[derive(Clone, Debug)]
pub struct KillerReading {
    /// The cages, each cell once, cells ascending.
    pub cages: Vec<Cage>,
    /// The inner edges as measured (before any change by the check).
    pub borders: Borders,
    /// What the solver made of the reading: `Changed` is not used for
    /// cages; see `changed`.
    pub outcome: CheckOutcome,
    /// How many edges and sums the check changed from the first reading.
    pub changed: usize,
    /// Cages whose sum or cells are unsure (index into `cages`).
    pub uncertain: Vec<usize>,
    /// Where each cage's sum is printed: its anchor cell and the box of the
    /// sum's ink, for the cages whose sum was found.
    pub sum_ink: Vec<(usize, SumBox)>,
}

/// The box of a sum's ink in its cell: left, top, right, bottom, in cells
/// from the cell's top-left corner where its grid lines put it.
pub type SumBox = [f32; 4];

/// One reading of a sum and how much less likely than the best it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SumOption {
    pub sum: u32,
    pub cost: f32,
}

/// Reads the killer in a located grid, if the page has cage outlines;
/// `values` are the digits read in the cells. `None` when the grid shows
/// no cage outlines, or its edges make no cages of at most `size` cells.
pub fn read_killer(grey: &GrayImage, located: &Located, values: &[u8]) -> Option<KillerReading> {
    let layout = &located.layout;
    if !may_have_outlines(grey, located) {
        return None;
    }
    let total = layout_total(layout)? as u32;
    let borders = measure(grey, located);
    if !borders.outlined {
        return None;
    }
    let size = layout.size();
    let model = Model::load_bundled();
    let mut sums: Vec<Option<(Vec<SumOption>, Option<SumBox>)>> = vec![None; layout.cell_count()];
    let mut sum_at = |cell: usize| -> Vec<SumOption> {
        sums[cell]
            .get_or_insert_with(|| read_sum_boxed(grey, located, &borders, cell, model))
            .0
            .clone()
    };
    let layout_arc = Arc::new(layout.clone());
    let mut solves = 0;
    let mut fallback: Option<(Vec<Cage>, usize)> = None;
    let flips = edge_flips(&borders.edges, EDGE_CANDIDATES, MAX_EDGE_FLIPS);
    for flip in &flips {
        let boundary: Vec<bool> = borders
            .edges
            .iter()
            .enumerate()
            .map(|(i, e)| e.boundary != flip.contains(&i))
            .collect();
        let Some(groups) = groups(layout, &borders.edges, &boundary, size) else {
            continue;
        };
        let options: Vec<Vec<SumOption>> = groups
            .iter()
            .map(|g| {
                let mut o = sum_at(g[0] as usize);
                let (lo, hi) = sum_range(size, g.len());
                o.retain(|s| (lo..=hi).contains(&s.sum));
                o
            })
            .collect();
        if options.iter().any(|o| o.is_empty()) {
            continue;
        }
        for choice in sum_choices(&options, total) {
            let cages: Vec<Cage> = groups
                .iter()
                .zip(&choice)
                .enumerate()
                .map(|(i, (g, &k))| Cage::new(options[i][k].sum, g.clone()))
                .collect();
            let changed = flip.len() + choice.iter().filter(|&&k| k != 0).count();
            if fallback.is_none() {
                fallback = Some((cages.clone(), changed));
            }
            if solves >= MAX_SOLVES {
                break;
            }
            solves += 1;
            if unique(&layout_arc, &cages, values) {
                let uncertain = uncertain_cages(&cages, &borders, &options, &choice);
                let sum_ink = sum_boxes(&cages, &sums);
                return Some(KillerReading {
                    cages,
                    borders,
                    outcome: if changed == 0 {
                        CheckOutcome::Unique
                    } else {
                        CheckOutcome::Changed(Vec::new())
                    },
                    changed,
                    uncertain,
                    sum_ink,
                });
            }
        }
        if solves >= MAX_SOLVES {
            break;
        }
    }
    let (cages, changed) = fallback?;
    let uncertain = (0..cages.len()).collect();
    let sum_ink = sum_boxes(&cages, &sums);
    Some(KillerReading {
        cages,
        borders,
        outcome: CheckOutcome::Unresolved,
        changed,
        uncertain,
        sum_ink,
    })
}

/// The sum boxes of `cages`' anchors, from the sums read (`sums`, per cell).
fn sum_boxes(
    cages: &[Cage],
    sums: &[Option<(Vec<SumOption>, Option<SumBox>)>],
) -> Vec<(usize, SumBox)> {
    cages
        .iter()
        .filter_map(|c| {
            let cell = c.anchor();
            let b = sums.get(cell)?.as_ref()?.1?;
            Some((cell, b))
        })
        .collect()
}

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

/// Cages whose reading is unsure: a sum changed or with a close
/// runner-up, or an edge of low confidence on their outline.
fn uncertain_cages(
    cages: &[Cage],
    borders: &Borders,
    options: &[Vec<SumOption>],
    choice: &[usize],
) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, cage) in cages.iter().enumerate() {
        let sum_unsure =
            choice[i] != 0 || options[i].get(1).is_some_and(|s| s.cost < EDGE_UNSURE_COST);
        let edge_unsure = borders.edges.iter().any(|e| {
            e.confidence < EDGE_UNSURE
                && (cage.cells.contains(&(e.a as u32)) || cage.cells.contains(&(e.b as u32)))
        });
        if sum_unsure || edge_unsure {
            out.push(i);
        }
    }
    out
}

/// An edge under this confidence makes its cages unsure.
const EDGE_UNSURE: f32 = 0.3;
/// A sum whose runner-up costs under this is unsure.
const EDGE_UNSURE_COST: f32 = 0.05;

/// Whether the killer has exactly one solution with the digits `values`.
fn unique(layout: &Arc<Layout>, cages: &[Cage], values: &[u8]) -> bool {
    if layout.first_conflict(values).is_some() {
        return false;
    }
    let Ok(mut solver) = SudokuSolver::with_cages(layout.clone(), cages) else {
        return false;
    };
    // A search that gives up proves nothing (see [`verify::SEARCH_NODES`]).
    solver.set_budget(Budget::nodes(verify::SEARCH_NODES));
    let mut first = vec![0u8; values.len()];
    solver
        .solve_into(values, 2, &mut first)
        .is_ok_and(|n| n == 1)
}

/// Which option of each cage's sum to take, cheapest first, among those
/// whose sums add up to `total`: no change, then one sum changed, then two,
/// up to [`MAX_SUM_CHANGES`], stopping after the number of changes that
/// brings the choices to [`MAX_SOLVES`].
fn sum_choices(options: &[Vec<SumOption>], total: u32) -> Vec<Vec<usize>> {
    let base: u32 = options.iter().map(|o| o[0].sum).sum();
    let mut out: Vec<(f32, Vec<usize>)> = Vec::new();
    if base == total {
        out.push((0.0, vec![0; options.len()]));
    }
    let n = options.len();
    for changes in 1..=MAX_SUM_CHANGES {
        let mut these: Vec<(f32, Vec<usize>)> = Vec::new();
        combos(n, changes, &mut Vec::new(), 0, &mut |cages| {
            // Every choice of a non-best option for each chosen cage.
            let mut pick = vec![1usize; cages.len()];
            loop {
                if pick.iter().zip(cages).all(|(&k, &c)| k < options[c].len()) {
                    let mut sum = base as i64;
                    let mut cost = 0.0;
                    for (&k, &c) in pick.iter().zip(cages) {
                        sum += options[c][k].sum as i64 - options[c][0].sum as i64;
                        cost += options[c][k].cost;
                    }
                    if sum == total as i64 {
                        let mut choice = vec![0; n];
                        for (&k, &c) in pick.iter().zip(cages) {
                            choice[c] = k;
                        }
                        these.push((cost, choice));
                    }
                }
                // Next pick, odometer style.
                let mut i = 0;
                loop {
                    if i == pick.len() {
                        return;
                    }
                    pick[i] += 1;
                    if pick[i] < SUM_ALTERNATIVES {
                        break;
                    }
                    pick[i] = 1;
                    i += 1;
                }
            }
        });
        these.sort_by(|a, b| a.0.total_cmp(&b.0));
        out.extend(these);
        // Enough to fill the solver's budget: more changes are not needed.
        // (Readings that add up but leave several solutions go on to more
        // changes: their wrong sums cancel out.)
        if out.len() >= MAX_SOLVES {
            break;
        }
    }
    out.into_iter().map(|(_, c)| c).collect()
}

/// A cell's corner as the sum reader sees it: rectified at [`SUM_RES`]
/// pixels per cell from where the cell's top and left grid lines begin to
/// [`SUM_CORNER`], with those lines' rows (columns) and their grey levels.
struct Corner {
    img: GrayImage,
    /// Where the image begins, in cells right of and below the cell's
    /// corner where the grid puts it.
    at: (f32, f32),
    top: Line,
    left: Line,
}

/// A grid line along one side of a corner: its grey level at each of the
/// corner's first rows (or columns) that it covers.
#[derive(Default)]
struct Line {
    levels: Vec<f32>,
}

/// The corner of `cell` (through the grid lines `borders` used).
fn corner(grey: &GrayImage, located: &Located, borders: &Borders, cell: usize) -> Corner {
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

fn sample(grey: &GrayImage, x: f32, y: f32) -> u8 {
    let x = x.clamp(0.0, grey.width() as f32 - 1.0);
    let y = y.clamp(0.0, grey.height() as f32 - 1.0);
    bilinear(grey, x, y).round() as u8
}

/// An ink component of the corner: bounding box and pixel count.
#[derive(Clone, Copy, Debug)]
struct Component {
    label: u32,
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

impl Component {
    fn height(&self) -> u32 {
        self.y1 - self.y0 + 1
    }
    fn width(&self) -> u32 {
        self.x1 - self.x0 + 1
    }
    /// Its pixels of ink, in the label map `labels` (`w` wide).
    fn ink(&self, labels: &[u32], w: u32) -> usize {
        (self.y0..=self.y1)
            .map(|y| {
                let row = (y * w) as usize;
                labels[row + self.x0 as usize..=row + self.x1 as usize]
                    .iter()
                    .filter(|&&l| l == self.label)
                    .count()
            })
            .sum()
    }
}

/// Labels 8-connected components of `ink` (w x h), returning the label map
/// (0 = paper) and the components.
fn components(ink: &[bool], w: u32, h: u32) -> (Vec<u32>, Vec<Component>) {
    let mut labels = vec![0u32; ink.len()];
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for start in 0..ink.len() {
        if !ink[start] || labels[start] != 0 {
            continue;
        }
        let label = out.len() as u32 + 1;
        let mut comp = Component {
            label,
            x0: u32::MAX,
            y0: u32::MAX,
            x1: 0,
            y1: 0,
        };
        labels[start] = label;
        stack.push(start);
        while let Some(i) = stack.pop() {
            let (x, y) = ((i as u32) % w, (i as u32) / w);
            comp.x0 = comp.x0.min(x);
            comp.x1 = comp.x1.max(x);
            comp.y0 = comp.y0.min(y);
            comp.y1 = comp.y1.max(y);
            for dy in -1i32..=1 {
                for dx in -1i32..=1 {
                    let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                    if nx < 0 || ny < 0 || nx >= w as i32 || ny >= h as i32 {
                        continue;
                    }
                    let j = (ny as u32 * w + nx as u32) as usize;
                    if ink[j] && labels[j] == 0 {
                        labels[j] = label;
                        stack.push(j);
                    }
                }
            }
        }
        out.push(comp);
    }
    (labels, out)
}

/// The corner's ink (grid lines and outline line cleared), its paper and
/// ink grey levels; `None` when it has too little contrast to hold a sum.
/// On the grid lines' rows and columns, ink is only what is darker than the
/// line there by [`LINE_INK_MARGIN`] of the contrast: a sum printed over a
/// grey line keeps its top, a black line is cleared whole.
fn corner_ink(corner: &Corner) -> Option<(Vec<bool>, f32, f32)> {
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
    let paper = sorted[(sorted.len() - 1) * 85 / 100] as f32;
    let ink_level = sorted[(sorted.len() - 1) / 100] as f32;
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

/// The readings of the sum printed in the top-left corner of `cell`, most
/// likely first with their costs; empty when no sum is found there.
pub fn read_sum(
    grey: &GrayImage,
    located: &Located,
    borders: &Borders,
    cell: usize,
    model: &Model,
) -> Vec<SumOption> {
    read_sum_boxed(grey, located, borders, cell, model).0
}

/// [`read_sum`], with the box of the ink read as the sum (`None` when no
/// sum was found).
fn read_sum_boxed(
    grey: &GrayImage,
    located: &Located,
    borders: &Borders,
    cell: usize,
    model: &Model,
) -> (Vec<SumOption>, Option<SumBox>) {
    let corner = corner(grey, located, borders, cell);
    let Some((ink, paper, ink_level)) = corner_ink(&corner) else {
        return (Vec::new(), None);
    };
    let at = corner.at;
    // Rows of the line above cleared: a digit starting right under them
    // was printed against the line and may have lost its top.
    let line_rows = corner.top.levels.len() as u32;
    let img = corner.img;
    let (w, h) = img.dimensions();
    let (mut labels, comps) = components(&ink, w, h);
    let comps_len = comps.len();
    let (lo, hi) = (SUM_HEIGHT.0 * SUM_RES, SUM_HEIGHT.1 * SUM_RES);
    let comps = join_broken_digits(&mut labels, w, comps, hi);
    // Digits: of a digit's height, clear of the corner's far sides (a
    // centred digit of the cell reaches in there), not long lines.
    let mut digits: Vec<Component> = comps
        .into_iter()
        .filter(|c| {
            let (ch, cw) = (c.height() as f32, c.width() as f32);
            ch >= lo && ch <= hi && cw <= hi && c.x1 + 1 < w && c.y1 + 1 < h
        })
        .collect();
    sum_digits(&mut digits, &labels, w);
    if digits.is_empty() {
        return (Vec::new(), None);
    }
    // Two digits printed touching make one component: split it where the
    // ink is thinnest.
    let mut next_label = comps_len as u32 + 1;
    let mut split = Vec::with_capacity(3);
    for c in digits {
        if (c.width() as f32) > MAX_DIGIT_ASPECT * c.height() as f32
            && let Some((a, b)) = split_wide(&mut labels, w, &c, next_label)
        {
            split.push(a);
            split.push(b);
            next_label += 1;
        } else {
            split.push(c);
        }
    }
    let mut digits = split;
    digits.truncate(2);
    if digits.len() == 2 && digits[1].x0 > digits[0].x1 + digits[0].height() {
        // Too far apart to be one number.
        digits.truncate(1);
    }
    // The sum's ink box, in cells from the cell's corner.
    let to_cells = |x: u32, y: u32| (at.0 + x as f32 / SUM_RES, at.1 + y as f32 / SUM_RES);
    let (bx0, by0) = to_cells(
        digits.iter().map(|c| c.x0).min().unwrap_or(0),
        digits.iter().map(|c| c.y0).min().unwrap_or(0),
    );
    let (bx1, by1) = to_cells(
        digits.iter().map(|c| c.x1 + 1).max().unwrap_or(0),
        digits.iter().map(|c| c.y1 + 1).max().unwrap_or(0),
    );
    let contrast = paper - ink_level;
    let per_digit: Vec<Vec<(u32, f32)>> = digits
        .iter()
        .map(|c| {
            let cut = line_rows > 0 && c.y0 <= line_rows;
            read_digit(&img, &labels, c, paper, contrast, cut, model)
        })
        .collect();
    let mut out: Vec<SumOption> = Vec::new();
    match per_digit.as_slice() {
        [one] => out.extend(one.iter().map(|&(d, cost)| SumOption { sum: d, cost })),
        [tens, units] => {
            for &(t, ct) in tens {
                for &(u, cu) in units {
                    out.push(SumOption {
                        sum: t * 10 + u,
                        cost: ct + cu,
                    });
                }
            }
        }
        _ => {}
    }
    out.retain(|s| s.sum > 0);
    out.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    out.truncate(SUM_ALTERNATIVES);
    let found = !out.is_empty();
    (out, found.then_some([bx0, by0, bx1, by1]))
}

/// The sum's digits among the corner's components of a digit's size: the
/// leftmost on one baseline, at most two, left to right. First those on the
/// heaviest one's baseline ([`on_heaviest_baseline`]), then of those the
/// ones of a digit's height ([`DIGIT_OF_TALLEST`]): a remnant of a grid
/// line beside the sum, taller than its digits, runs past their baseline,
/// and the digits' height is not taken from it.
fn sum_digits(digits: &mut Vec<Component>, labels: &[u32], w: u32) {
    on_heaviest_baseline(digits, labels, w);
    let tallest = digits.iter().map(|c| c.height()).max().unwrap_or(0);
    digits.retain(|c| c.height() as f32 >= DIGIT_OF_TALLEST * tallest as f32);
    digits.sort_by_key(|c| c.x0);
    digits.truncate(2);
}

/// Keeps the `digits` whose bottoms lie on the heaviest one's baseline
/// (within [`BASELINE_TOLERANCE`] of its height): the heaviest is a digit
/// of the sum (a line's remnant is a hairline), and the sum's digits are
/// set on one line.
fn on_heaviest_baseline(digits: &mut Vec<Component>, labels: &[u32], w: u32) {
    let Some(&heaviest) = digits.iter().max_by_key(|c| c.ink(labels, w)) else {
        return;
    };
    let baseline = BASELINE_TOLERANCE * heaviest.height() as f32;
    digits.retain(|c| (c.y1 as f32 - heaviest.y1 as f32).abs() <= baseline);
}

/// Joins pieces of one digit parted by the binarisation (a small 5's bar
/// or bowl, thinner than its stem, often is): two components over the
/// same columns (at least half the narrower's width) that share rows, or
/// of which the shorter, a stroke ([`BROKEN_TOP_MIN_WIDTH`]), lies at most
/// [`BROKEN_TOP_GAP`] above the other, the two no taller together than
/// `max_height`. Two digits of a sum stand
/// side by side, and the cage outline's dashes run down from under the sum
/// (a piece below is left alone).
fn join_broken_digits(
    labels: &mut [u32],
    w: u32,
    mut comps: Vec<Component>,
    max_height: f32,
) -> Vec<Component> {
    let gap = (BROKEN_TOP_GAP * SUM_RES).ceil() as u32;
    let mut gone = vec![false; comps.len()];
    for p in 0..comps.len() {
        let piece = comps[p];
        let body = (0..comps.len()).find(|&b| {
            let c = comps[b];
            let overlap = piece.x1.min(c.x1) as i64 - piece.x0.max(c.x0) as i64 + 1;
            let share_rows = piece.y0 <= c.y1 && c.y0 <= piece.y1;
            let just_above = c.height() > piece.height()
                && piece.y1 < c.y0
                && c.y0 - piece.y1 - 1 <= gap
                && piece.width() as f32 >= BROKEN_TOP_MIN_WIDTH * c.height() as f32;
            b != p
                && !gone[b]
                && (share_rows || just_above)
                && 2 * overlap >= piece.width().min(c.width()) as i64
                && (piece.y1.max(c.y1) - piece.y0.min(c.y0) + 1) as f32 <= max_height
        });
        let Some(b) = body else { continue };
        for y in piece.y0..=piece.y1 {
            for x in piece.x0..=piece.x1 {
                let i = (y * w + x) as usize;
                if labels[i] == piece.label {
                    labels[i] = comps[b].label;
                }
            }
        }
        let c = &mut comps[b];
        (c.x0, c.y0, c.x1, c.y1) = (
            c.x0.min(piece.x0),
            c.y0.min(piece.y0),
            c.x1.max(piece.x1),
            c.y1.max(piece.y1),
        );
        gone[p] = true;
    }
    comps
        .into_iter()
        .zip(gone)
        .filter(|(_, g)| !g)
        .map(|(c, _)| c)
        .collect()
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

/// Splits a component too wide for one digit in two at the column with
/// least of its ink (within [`SPLIT_SPAN`] of its width): the right part is
/// relabelled `new_label`, the cut column cleared. `None` when a part would
/// be empty, or when that column crosses the ink more than once (one digit).
fn split_wide(
    labels: &mut [u32],
    w: u32,
    comp: &Component,
    new_label: u32,
) -> Option<(Component, Component)> {
    let cw = comp.width();
    let from = comp.x0 + (cw as f32 * SPLIT_SPAN.0) as u32;
    let to = comp.x0 + (cw as f32 * SPLIT_SPAN.1) as u32;
    let ink_in = |x: u32| {
        (comp.y0..=comp.y1)
            .filter(|&y| labels[(y * w + x) as usize] == comp.label)
            .count()
    };
    let cut = (from..=to).min_by_key(|&x| (ink_in(x), (2 * x).abs_diff(from + to)))?;
    // Where two digits touch, the ink across the cut is the one place they
    // meet; a column through one wide digit crosses two of its strokes (a
    // 0's or 6's arcs top and bottom, a 4's bar and stem): such ink is one
    // digit, wide because a photo's blur widened it.
    let runs = (comp.y0..=comp.y1)
        .filter(|&y| {
            let here = |y: u32| labels[(y * w + cut) as usize] == comp.label;
            here(y) && (y == comp.y0 || !here(y - 1))
        })
        .count();
    if runs > 1 {
        return None;
    }
    for y in comp.y0..=comp.y1 {
        let row = (y * w) as usize;
        for x in cut..=comp.x1 {
            if labels[row + x as usize] == comp.label {
                labels[row + x as usize] = if x == cut { 0 } else { new_label };
            }
        }
    }
    let bounds = |label: u32, xs: std::ops::RangeInclusive<u32>| {
        let mut c = Component {
            label,
            x0: u32::MAX,
            y0: u32::MAX,
            x1: 0,
            y1: 0,
        };
        for y in comp.y0..=comp.y1 {
            for x in xs.clone() {
                if labels[(y * w + x) as usize] == label {
                    c.x0 = c.x0.min(x);
                    c.x1 = c.x1.max(x);
                    c.y0 = c.y0.min(y);
                    c.y1 = c.y1.max(y);
                }
            }
        }
        (c.x0 != u32::MAX).then_some(c)
    };
    Some((
        bounds(comp.label, comp.x0..=cut)?,
        bounds(new_label, cut..=comp.x1)?,
    ))
}

/// The digit of one component with its runner-ups: (digit, cost), the
/// cost 0 for the best. The component's own ink (other ink left out) is
/// scaled into the model's working image and compared with the model
/// directly: the empty-cell rules for a full-size cell do not apply to a
/// digit already picked out, and a thin 1 stays as narrow as printed.
/// `cut`: the digit starts right under the cleared line above (see
/// [`is_zero`]).
fn read_digit(
    img: &GrayImage,
    labels: &[u32],
    comp: &Component,
    paper: f32,
    contrast: f32,
    cut: bool,
    model: &Model,
) -> Vec<(u32, f32)> {
    let zero = is_zero(labels, img.width(), comp, cut);
    let n = WORK;
    let (iw, ih) = (img.width() as i64, img.height() as i64);
    let scale = DIGIT_BOX / comp.width().max(comp.height()) as f32;
    let (cx, cy) = (
        (comp.x0 + comp.x1) as f32 / 2.0,
        (comp.y0 + comp.y1) as f32 / 2.0,
    );
    let half = (n as f32 - 1.0) / 2.0;
    let label_at = |x: i64, y: i64| {
        (x >= 0 && y >= 0 && x < iw && y < ih).then(|| labels[(y * iw + x) as usize])
    };
    let mut digit = vec![0f32; n * n];
    let (mut x0, mut y0, mut x1, mut y1) = (n as i32, n as i32, -1i32, -1i32);
    for y in 0..n {
        for x in 0..n {
            let sx = cx + (x as f32 - half) / scale;
            let sy = cy + (y as f32 - half) / scale;
            let (ix, iy) = (sx.round() as i64, sy.round() as i64);
            // This digit's ink and its anti-aliased rim only.
            let near = (-1..=1)
                .any(|dy| (-1..=1).any(|dx| label_at(ix + dx, iy + dy) == Some(comp.label)));
            if !near {
                continue;
            }
            digit[y * n + x] = ((paper - sample(img, sx, sy) as f32) / contrast).clamp(0.0, 1.0);
            if label_at(ix, iy) == Some(comp.label) {
                x0 = x0.min(x as i32);
                y0 = y0.min(y as i32);
                x1 = x1.max(x as i32);
                y1 = y1.max(y as i32);
            }
        }
    }
    if x1 < 0 {
        return Vec::new();
    }
    let dist = model.class_distances(&features(&digit, x0, y0, x1, y1));
    let mut order: Vec<usize> = (0..9).collect();
    order.sort_by(|&a, &b| dist[a].total_cmp(&dist[b]));
    let best = dist[order[0]];
    let mut out: Vec<(u32, f32)> = order
        .iter()
        .take(DIGIT_ALTERNATIVES)
        .map(|&k| (k as u32 + 1, dist[k] - best))
        .collect();
    if zero {
        // A 0's hole: a 0 first, the model's readings behind it.
        for o in &mut out {
            o.1 += ZERO_LEAD;
        }
        out.insert(0, (0, 0.0));
        out.truncate(DIGIT_ALTERNATIVES);
    }
    out
}

/// A 0: one hole, tall and wide within the digit (6, 8, 9 and 4 have
/// smaller holes or two). With `cut`, the digit was printed against the
/// line above and that line's rows were cleared, taking a 0's top arc
/// with them: the line closes the digit's top, so paper is not let in
/// from above (a 0 cut open like a U still has its hole; an 8 cut so has
/// two, a 9 one too high).
fn is_zero(labels: &[u32], w: u32, comp: &Component, cut: bool) -> bool {
    let (cw, ch) = (comp.width(), comp.height());
    // Paper inside the bounding box, flood-filled from its border: what is
    // not reached is a hole.
    let idx = |x: u32, y: u32| ((comp.y0 + y) * w + comp.x0 + x) as usize;
    let paper = |x: u32, y: u32| labels[idx(x, y)] != comp.label;
    let mut seen = vec![false; (cw * ch) as usize];
    let mut stack = Vec::new();
    let top = if cut { ch - 1 } else { 0 };
    for x in 0..cw {
        for y in [top, ch - 1] {
            if paper(x, y) {
                stack.push((x, y));
            }
        }
    }
    for y in 0..ch {
        for x in [0, cw - 1] {
            if paper(x, y) {
                stack.push((x, y));
            }
        }
    }
    // A hole's box (x0, y0, x1, y1), its pixel count and its coordinates'
    // sums (for its centroid).
    type Hole = (u32, u32, u32, u32, u32, u32, u32);
    let fill = |stack: &mut Vec<(u32, u32)>, seen: &mut [bool]| -> Hole {
        let mut bb = (u32::MAX, u32::MAX, 0, 0, 0, 0, 0);
        while let Some((x, y)) = stack.pop() {
            let k = (y * cw + x) as usize;
            if seen[k] {
                continue;
            }
            seen[k] = true;
            bb = (
                bb.0.min(x),
                bb.1.min(y),
                bb.2.max(x),
                bb.3.max(y),
                bb.4 + 1,
                bb.5 + x,
                bb.6 + y,
            );
            for (dx, dy) in [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)] {
                let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                if nx >= 0 && ny >= 0 && (nx as u32) < cw && (ny as u32) < ch {
                    let (nx, ny) = (nx as u32, ny as u32);
                    if paper(nx, ny) && !seen[(ny * cw + nx) as usize] {
                        stack.push((nx, ny));
                    }
                }
            }
        }
        bb
    };
    fill(&mut stack, &mut seen);
    let mut holes = Vec::new();
    for y in 0..ch {
        for x in 0..cw {
            if paper(x, y) && !seen[(y * cw + x) as usize] {
                stack.push((x, y));
                holes.push(fill(&mut stack, &mut seen));
            }
        }
    }
    // Specks of a pixel or two inside a stroke are not holes.
    holes.retain(|h| h.3 - h.1 + 1 >= 2 && h.2 - h.0 + 1 >= 2);
    match holes.as_slice() {
        [h] => {
            let (hw, hh) = ((h.2 - h.0 + 1) as f32, (h.3 - h.1 + 1) as f32);
            let mid = (h.1 + h.3) as f32 / 2.0;
            // The hole's centroid against its box's centre, in shares of
            // the box: an oval's lies on it, a 4's triangle's a sixth off.
            let off_x = (h.5 as f32 / h.4 as f32 - (h.0 + h.2) as f32 / 2.0).abs() / hw;
            let off_y = (h.6 as f32 / h.4 as f32 - mid).abs() / hh;
            hh >= ZERO_HOLE_HEIGHT * ch as f32
                && off_x <= ZERO_HOLE_CENTRED
                && off_y <= ZERO_HOLE_CENTRED
                && h.4 as f32 >= ZERO_HOLE_FILL * hw * hh
                && hw >= ZERO_HOLE_WIDTH * cw as f32
                && (mid - (ch - 1) as f32 / 2.0).abs() < 0.12 * ch as f32
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(readings: &[(u32, f32)]) -> Vec<SumOption> {
        readings
            .iter()
            .map(|&(sum, cost)| SumOption { sum, cost })
            .collect()
    }

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

    #[test]
    fn sums_that_add_up_as_read_are_still_offered_changed() {
        // Read 10, 16, 5 (adding up to 31); the runner-ups 16 and 10 of the
        // first two swap them and add up too: the puzzle may need that.
        let o = vec![
            options(&[(10, 0.0), (16, 0.1)]),
            options(&[(16, 0.0), (10, 0.2)]),
            options(&[(5, 0.0), (8, 0.1)]),
        ];
        let choices = sum_choices(&o, 31);
        assert_eq!(choices[0], vec![0, 0, 0]);
        assert!(choices.contains(&vec![1, 1, 0]), "{choices:?}");
        // Every choice adds up.
        for c in &choices {
            let total: u32 = c.iter().zip(&o).map(|(&k, o)| o[k].sum).sum();
            assert_eq!(total, 31, "{c:?}");
        }
    }

    /// A w x h ink map with the given filled rectangles (x0, y0, x1, y1),
    /// inclusive.
    fn ink_map(w: u32, h: u32, rects: &[(u32, u32, u32, u32)]) -> Vec<bool> {
        let mut ink = vec![false; (w * h) as usize];
        for &(x0, y0, x1, y1) in rects {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    ink[(y * w + x) as usize] = true;
                }
            }
        }
        ink
    }

    #[test]
    fn two_touching_ones_are_split_between_them() {
        // Two strokes 4 wide and 20 tall, joined by a thin bridge at the
        // bottom: one component 14 wide, too wide for one digit.
        let (w, h) = (30, 30);
        let ink = ink_map(w, h, &[(5, 5, 8, 24), (9, 23, 14, 24), (15, 5, 18, 24)]);
        let (mut labels, comps) = components(&ink, w, h);
        assert_eq!(comps.len(), 1);
        let c = comps[0];
        assert!(c.width() as f32 > MAX_DIGIT_ASPECT * c.height() as f32 * 0.6);
        let (a, b) = split_wide(&mut labels, w, &c, 2).expect("two parts");
        assert!(a.x1 < b.x0, "{a:?} {b:?}");
        assert!((9..=14).contains(&a.x1) || (9..=14).contains(&b.x0));
        assert!(a.x0 == 5 && b.x1 == 18);
        assert_eq!(a.height(), 20);
        assert_eq!(b.height(), 20);
    }

    #[test]
    fn a_line_taller_than_the_sum_does_not_set_the_digits_height() {
        // A small screenshot's frame left as a line a pixel wide, taller
        // than the sum "30" beside it and running past its baseline.
        let (w, h) = (60, 50);
        let ink = ink_map(
            w,
            h,
            &[
                (2, 2, 3, 44),
                // 3
                (10, 12, 18, 14),
                (16, 12, 18, 38),
                (12, 24, 18, 26),
                (10, 36, 18, 38),
                // 0
                (24, 12, 32, 14),
                (24, 12, 26, 38),
                (30, 12, 32, 38),
                (24, 36, 32, 38),
            ],
        );
        let (labels, mut comps) = components(&ink, w, h);
        assert_eq!(comps.len(), 3);
        sum_digits(&mut comps, &labels, w);
        let left: Vec<u32> = comps.iter().map(|c| c.x0).collect();
        assert_eq!(left, [10, 24], "{comps:?}");
    }

    #[test]
    fn a_hairline_beside_a_sum_is_not_one_of_its_digits() {
        // A grid line's remnant a pixel wide left of a 5 (a photo's), as
        // tall as the 5 but starting higher and ending short of its
        // baseline; and a 1 on the 5's baseline.
        let (w, h) = (60, 40);
        let ink = ink_map(
            w,
            h,
            &[
                (2, 6, 2, 25),
                (12, 8, 20, 10),
                (12, 8, 14, 18),
                (12, 17, 20, 19),
                (18, 17, 20, 30),
                (12, 28, 20, 30),
                (30, 9, 33, 30),
            ],
        );
        let (labels, mut comps) = components(&ink, w, h);
        assert_eq!(comps.len(), 3);
        on_heaviest_baseline(&mut comps, &labels, w);
        let mut left: Vec<u32> = comps.iter().map(|c| c.x0).collect();
        left.sort();
        assert_eq!(left, [12, 30], "{comps:?}");
    }

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
    fn a_wide_ring_is_one_digit_not_two() {
        // A 0 blurred wider than tall: 21 wide, 20 tall, strokes 3 thick.
        let (w, h) = (30, 30);
        let ink = ink_map(
            w,
            h,
            &[
                (4, 5, 24, 7),
                (4, 22, 24, 24),
                (4, 5, 6, 24),
                (22, 5, 24, 24),
            ],
        );
        let (mut labels, comps) = components(&ink, w, h);
        let c = comps[0];
        assert!(c.width() as f32 > MAX_DIGIT_ASPECT * c.height() as f32);
        assert!(split_wide(&mut labels, w, &c, 2).is_none());
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
    fn a_five_parted_is_one_digit_but_a_dash_below_and_a_digit_beside_are_not() {
        let (w, h) = (60, 60);
        // A 5's bar (rows 10-11) a row above its stem and bowl (rows
        // 13-28), and a dash of the outline two rows under it.
        let ink = ink_map(
            w,
            h,
            &[
                (4, 10, 14, 11),
                (4, 13, 6, 19),
                (4, 18, 14, 19),
                (13, 20, 15, 28),
                (4, 27, 14, 28),
                (4, 31, 6, 38),
            ],
        );
        let (mut labels, comps) = components(&ink, w, h);
        assert_eq!(comps.len(), 3);
        let joined = join_broken_digits(&mut labels, w, comps, 40.0);
        assert_eq!(joined.len(), 2, "{joined:?}");
        let five = joined
            .iter()
            .find(|c| c.y0 == 10)
            .expect("the 5 from its bar");
        assert_eq!((five.x0, five.x1, five.y1), (4, 15, 28));
        assert_eq!(labels[(10 * w + 8) as usize], five.label);
        assert!(joined.iter().any(|c| c.y0 == 31), "the dash stays apart");
        // A 5 parted between its stem and its bowl, and a 1 beside it.
        let ink = ink_map(
            w,
            h,
            &[
                (4, 10, 14, 11),
                (4, 12, 6, 22),
                (10, 20, 14, 21),
                (14, 22, 16, 30),
                (4, 30, 14, 31),
                (24, 10, 26, 31),
            ],
        );
        let (mut labels, comps) = components(&ink, w, h);
        assert_eq!(comps.len(), 3);
        let joined = join_broken_digits(&mut labels, w, comps, 40.0);
        assert_eq!(joined.len(), 2, "{joined:?}");
        assert!(
            joined
                .iter()
                .any(|c| (c.x0, c.x1, c.y0, c.y1) == (4, 16, 10, 31))
        );
    }

    #[test]
    fn a_zero_has_one_round_hole_and_a_four_does_not_pass() {
        // A ring: a 0.
        let (w, h) = (20, 30);
        let parts = |rects: &[(u32, u32, u32, u32)]| components(&ink_map(w, h, rects), w, h);
        let (labels, comps) = parts(&[
            (2, 2, 15, 4),
            (2, 23, 15, 25),
            (2, 2, 4, 25),
            (13, 2, 15, 25),
        ]);
        assert_eq!(comps.len(), 1);
        assert!(is_zero(&labels, w, &comps[0], false));
        // The same ring with its top arc cleared with the line above, left
        // open by a pixel: a 0 when the digit is known to be cut there.
        let (labels, comps) = parts(&[
            (2, 2, 7, 4),
            (9, 2, 15, 4),
            (2, 23, 15, 25),
            (2, 2, 4, 25),
            (13, 2, 15, 25),
        ]);
        assert_eq!(comps.len(), 1);
        assert!(!is_zero(&labels, w, &comps[0], false));
        assert!(is_zero(&labels, w, &comps[0], true));
        // An 8 cut so (an open top loop over a closed one) has two holes.
        let (labels, comps) = parts(&[
            (2, 2, 7, 3),
            (9, 2, 15, 3),
            (2, 12, 15, 14),
            (2, 23, 15, 25),
            (2, 2, 4, 25),
            (13, 2, 15, 25),
        ]);
        assert!(!is_zero(&labels, w, &comps[0], true));
        // A solid bar has no hole.
        let (labels, comps) = parts(&[(2, 2, 6, 25)]);
        assert!(!is_zero(&labels, w, &comps[0], false));
        // A triangular hole (a 4's) fills half its box.
        let mut four = ink_map(w, h, &[(2, 18, 17, 20), (14, 2, 16, 27)]);
        for y in 2..=20u32 {
            // The diagonal from the top right down to the bottom left.
            let x = 15 - (y - 2) * 13 / 18;
            for dx in 0..3 {
                four[(y * w + x + dx) as usize] = true;
            }
        }
        let (labels, comps) = components(&four, w, h);
        assert_eq!(comps.len(), 1);
        assert!(!is_zero(&labels, w, &comps[0], false));
        // A small 4's triangle pixelled into steps fills its box as an oval
        // would (34 of 49), but its centroid lies off the box's centre.
        let mut small = ink_map(w, h, &[(2, 2, 12, 12)]);
        for (i, width) in [2u32, 3, 4, 5, 6, 7, 7].into_iter().enumerate() {
            let y = 4 + i as u32;
            for x in 11 - width..=10 {
                small[(y * w + x) as usize] = false;
            }
        }
        let (labels, comps) = components(&small, w, h);
        assert_eq!(comps.len(), 1);
        assert!(!is_zero(&labels, w, &comps[0], false));
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

    #[test]
    fn a_dot_of_a_dotted_outline_over_a_digit_is_not_its_top_stroke() {
        let (w, h) = (60, 60);
        // A 1 (rows 12-31) with a dot of the outline two rows above it.
        let ink = ink_map(w, h, &[(10, 12, 12, 31), (10, 8, 12, 10)]);
        let (mut labels, comps) = components(&ink, w, h);
        assert_eq!(comps.len(), 2);
        let joined = join_broken_digits(&mut labels, w, comps, 40.0);
        assert_eq!(joined.len(), 2, "{joined:?}");
        // A bar as wide as a 5's over the same stem is its top stroke.
        let ink = ink_map(w, h, &[(10, 12, 12, 31), (10, 9, 21, 10)]);
        let (mut labels, comps) = components(&ink, w, h);
        let joined = join_broken_digits(&mut labels, w, comps, 40.0);
        assert_eq!(joined.len(), 1, "{joined:?}");
    }
}
