//! A cage's sum read from its corner's ink: the ink split into components,
//! pieces of one digit joined and touching digits split, the one or two
//! digits on the sum's baseline kept, and each read with the digit model (a
//! 0, which the model does not hold, by its one round hole).

use image::GrayImage;

use super::corner::{SUM_RES, corner, corner_ink, sample};
use super::{SUM_ALTERNATIVES, SumBox, SumOption};
use crate::vision::cells::classify::Model;
use crate::vision::cells::classify::prep::{WORK, features};
use crate::vision::locate::Located;
use crate::vision::marks::borders::Borders;
use crate::vision::page::label;

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
/// A 0's hole lies in the digit's middle: its own middle within this
/// share of the digit's height of the digit's (a 6's or a 9's one hole
/// lies low or high).
const ZERO_HOLE_MIDDLE: f32 = 0.12;
/// Runner-ups kept per digit.
const DIGIT_ALTERNATIVES: usize = 3;

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

/// Labels 8-connected components of `ink` (`w` wide), returning the label
/// map (0 = paper) and the components, in raster order of their first
/// pixel (component `k` is label `k + 1`).
fn components(ink: &[bool], w: u32) -> (Vec<u32>, Vec<Component>) {
    let found = label::components(ink, w as usize);
    let comps = found
        .pixels
        .iter()
        .zip(1..)
        .filter_map(|(pixels, id)| {
            let [x0, y0, x1, y1] = label::bounds(pixels, w as usize)?;
            Some(Component {
                label: id,
                x0,
                y0,
                x1,
                y1,
            })
        })
        .collect();
    (found.labels, comps)
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
pub(super) fn read_sum_boxed(
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
    let (mut labels, comps) = components(&ink, w);
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
                && (mid - (ch - 1) as f32 / 2.0).abs() < ZERO_HOLE_MIDDLE * ch as f32
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::ink_map;
    use super::*;

    #[test]
    fn two_touching_ones_are_split_between_them() {
        // Two strokes 4 wide and 20 tall, joined by a thin bridge at the
        // bottom: one component 14 wide, too wide for one digit.
        let (w, h) = (30, 30);
        let ink = ink_map(w, h, &[(5, 5, 8, 24), (9, 23, 14, 24), (15, 5, 18, 24)]);
        let (mut labels, comps) = components(&ink, w);
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
        let (labels, mut comps) = components(&ink, w);
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
        let (labels, mut comps) = components(&ink, w);
        assert_eq!(comps.len(), 3);
        on_heaviest_baseline(&mut comps, &labels, w);
        let mut left: Vec<u32> = comps.iter().map(|c| c.x0).collect();
        left.sort();
        assert_eq!(left, [12, 30], "{comps:?}");
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
        let (mut labels, comps) = components(&ink, w);
        let c = comps[0];
        assert!(c.width() as f32 > MAX_DIGIT_ASPECT * c.height() as f32);
        assert!(split_wide(&mut labels, w, &c, 2).is_none());
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
        let (mut labels, comps) = components(&ink, w);
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
        let (mut labels, comps) = components(&ink, w);
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
        let parts = |rects: &[(u32, u32, u32, u32)]| components(&ink_map(w, h, rects), w);
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
        let (labels, comps) = components(&four, w);
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
        let (labels, comps) = components(&small, w);
        assert_eq!(comps.len(), 1);
        assert!(!is_zero(&labels, w, &comps[0], false));
    }

    #[test]
    fn a_dot_of_a_dotted_outline_over_a_digit_is_not_its_top_stroke() {
        let (w, h) = (60, 60);
        // A 1 (rows 12-31) with a dot of the outline two rows above it.
        let ink = ink_map(w, h, &[(10, 12, 12, 31), (10, 8, 12, 10)]);
        let (mut labels, comps) = components(&ink, w);
        assert_eq!(comps.len(), 2);
        let joined = join_broken_digits(&mut labels, w, comps, 40.0);
        assert_eq!(joined.len(), 2, "{joined:?}");
        // A bar as wide as a 5's over the same stem is its top stroke.
        let ink = ink_map(w, h, &[(10, 12, 12, 31), (10, 9, 21, 10)]);
        let (mut labels, comps) = components(&ink, w);
        let joined = join_broken_digits(&mut labels, w, comps, 40.0);
        assert_eq!(joined.len(), 1, "{joined:?}");
    }
}
