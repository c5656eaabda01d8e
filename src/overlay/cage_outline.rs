//! Killer cages as printed: a dashed outline just inside each cage, and the
//! cage's sum small in the top-left corner of its top-left cell.
//!
//! The geometry is plain data in grid coordinates (x a column, y a row; the
//! cell at row `r`, column `c` spans `c..c + 1` by `r..r + 1`), so that
//! [`render_grid`](super::render_grid) rasterises it and the app draws the
//! same outline over a photo with its own painter, through the located
//! grid's [`Located::canvas_to_image`](crate::vision::locate::Located::canvas_to_image).

use crate::grid::{Cage, Layout};

/// Gap between a cage's outline and its cells' edges, as a fraction of a
/// cell: clear of thick box lines, and the outlines of two neighbouring
/// cages stay visibly apart.
pub const CAGE_INSET: f32 = 0.09;

/// Length of one dash of the outline, as a fraction of a cell: several
/// per side, so that the outline reads as dashed even when drawn small.
pub const CAGE_DASH: f32 = 0.08;

/// The gap after each dash, as a fraction of a cell: shorter than a dash,
/// so the outline stays easy to follow.
pub const CAGE_GAP: f32 = 0.06;

/// Height of a sum's digits, as a fraction of a cell: readable, and above a
/// solved digit (0.6 of the cell, centred) rather than on it.
pub const CAGE_SUM_HEIGHT: f32 = 0.19;

/// Tallest digit [`render_grid`](super::render_grid) draws in a caged
/// grid, as a fraction of a cell: centred, it stays below the sums.
pub const CAGE_DIGIT_HEIGHT: f32 = 0.5;

/// Top-left of a sum's ink in its cell (cell-local, 0..1 both ways): on the
/// outline's corner, whose dashes give way to the sum's paper.
pub const CAGE_SUM_AT: [f32; 2] = [0.06, 0.05];

/// A straight piece of line, in grid coordinates.
pub type Segment = [[f32; 2]; 2];

/// The outline of the cage of `cells` (cell indices of `layout`), `inset`
/// (a fraction of a cell) inside the cage's edges: one closed polygon per
/// boundary, given as maximal straight segments (the sides of neighbouring
/// cells in the cage joined), each from its lower to its higher coordinate.
/// A cell missing from the middle of a cage gets its own inner outline.
pub fn cage_outline(layout: &Layout, cells: &[u32], inset: f32) -> Vec<Segment> {
    let (w, h) = (layout.width() as isize, layout.height() as isize);
    let mut caged = vec![false; (w * h) as usize];
    for &cell in cells {
        if (cell as usize) < layout.cell_count() {
            let (r, c) = layout.position(cell as usize);
            caged[r * w as usize + c] = true;
        }
    }
    let is_in =
        |r: isize, c: isize| r >= 0 && c >= 0 && r < h && c < w && caged[(r * w + c) as usize];
    let (mut rows, mut cols): (Vec<Segment>, Vec<Segment>) = (Vec::new(), Vec::new());
    // Where a side ends beside a neighbour `along` (the next cell the way the
    // side runs) and the cell diagonal to it (`across` the side): short of
    // the corner at the cage's outer corner, at the cell's edge when the
    // outline runs on straight, past it into an inner corner.
    let end = |along: bool, across: bool| match (along, across) {
        (false, _) => inset,
        (true, false) => 0.0,
        (true, true) => -inset,
    };
    for r in 0..h {
        for c in 0..w {
            if !is_in(r, c) {
                continue;
            }
            let (x, y) = (c as f32, r as f32);
            for dr in [-1isize, 1] {
                if is_in(r + dr, c) {
                    continue;
                }
                let y = if dr < 0 { y + inset } else { y + 1.0 - inset };
                let x0 = x + end(is_in(r, c - 1), is_in(r + dr, c - 1));
                let x1 = x + 1.0 - end(is_in(r, c + 1), is_in(r + dr, c + 1));
                rows.push([[x0, y], [x1, y]]);
            }
            for dc in [-1isize, 1] {
                if is_in(r, c + dc) {
                    continue;
                }
                let x = if dc < 0 { x + inset } else { x + 1.0 - inset };
                let y0 = y + end(is_in(r - 1, c), is_in(r - 1, c + dc));
                let y1 = y + 1.0 - end(is_in(r + 1, c), is_in(r + 1, c + dc));
                cols.push([[x, y0], [x, y1]]);
            }
        }
    }
    let mut out = join(rows, 1, 0);
    out.extend(join(cols, 0, 1));
    out
}

/// Joins segments lying on one line (equal coordinate `fixed`) that meet
/// end to end along `run`.
fn join(mut segments: Vec<Segment>, fixed: usize, run: usize) -> Vec<Segment> {
    segments.sort_by(|a, b| {
        a[0][fixed]
            .total_cmp(&b[0][fixed])
            .then(a[0][run].total_cmp(&b[0][run]))
    });
    let mut out: Vec<Segment> = Vec::with_capacity(segments.len());
    for s in segments {
        match out.last_mut() {
            Some(last) if last[0][fixed] == s[0][fixed] && s[0][run] <= last[1][run] + 1e-4 => {
                last[1][run] = last[1][run].max(s[1][run]);
            }
            _ => out.push(s),
        }
    }
    out
}

/// `segments` cut into dashes about `dash` long with gaps about `gap` long,
/// stretched so that each segment starts and ends with a dash (an outline's
/// corners are then always inked).
pub fn dashes(segments: &[Segment], dash: f32, gap: f32) -> Vec<Segment> {
    let mut out = Vec::new();
    for &[a, b] in segments {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len = (dx * dx + dy * dy).sqrt();
        if len <= 0.0 {
            continue;
        }
        // n dashes and n - 1 gaps, scaled together to fill the segment.
        let n = ((len + gap) / (dash + gap)).round().max(1.0);
        let stretch = len / (n * dash + (n - 1.0) * gap);
        let (on, period) = (dash * stretch, (dash + gap) * stretch);
        for i in 0..n as usize {
            let t0 = i as f32 * period / len;
            let t1 = ((i as f32 * period + on) / len).min(1.0);
            out.push([
                [a[0] + dx * t0, a[1] + dy * t0],
                [a[0] + dx * t1, a[1] + dy * t1],
            ]);
        }
    }
    out
}

/// The cell a cage's sum is written in: its top-left cell (the topmost
/// row, then the leftmost column).
pub fn sum_cell(layout: &Layout, cage: &Cage) -> Option<usize> {
    cage.cells
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| c < layout.cell_count())
        .min_by_key(|&c| layout.position(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Total length of segments.
    fn length(segments: &[Segment]) -> f32 {
        segments
            .iter()
            .map(|[a, b]| ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt())
            .sum()
    }

    #[test]
    fn a_domino_is_one_inset_rectangle() {
        let l = Layout::classic();
        // r1c1 and r1c2.
        let mut s = cage_outline(&l, &[0, 1], 0.1);
        s.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let close = |a: f32, b: f32| (a - b).abs() < 1e-6;
        assert_eq!(s.len(), 4, "{s:?}");
        let expect = [
            [[0.1, 0.1], [0.1, 0.9]],
            [[0.1, 0.1], [1.9, 0.1]],
            [[0.1, 0.9], [1.9, 0.9]],
            [[1.9, 0.1], [1.9, 0.9]],
        ];
        for (got, want) in s.iter().zip(&expect) {
            for k in 0..2 {
                assert!(close(got[k][0], want[k][0]) && close(got[k][1], want[k][1]));
            }
        }
    }

    #[test]
    fn an_l_shape_turns_in_at_its_inner_corner() {
        let l = Layout::classic();
        // r1c1, r2c1, r2c2: an L whose inner corner is at (1, 1).
        let s = cage_outline(&l, &[0, 9, 10], 0.1);
        assert_eq!(s.len(), 6, "an L has six sides: {s:?}");
        // (0.1, 0.1) (0.9, 0.1) (0.9, 1.1) (1.9, 1.1) (1.9, 1.9) (0.1, 1.9).
        let want = 0.8 + 1.0 + 1.0 + 0.8 + 1.8 + 1.8;
        assert!((length(&s) - want).abs() < 1e-4, "{}", length(&s));
        // The inner corner is on both the right side of r1c1 and the top of r2c2.
        let corner = [0.9, 1.1];
        let ends: Vec<[f32; 2]> = s.iter().flat_map(|s| [s[0], s[1]]).collect();
        let at = ends
            .iter()
            .filter(|p| (p[0] - corner[0]).abs() < 1e-6 && (p[1] - corner[1]).abs() < 1e-6)
            .count();
        assert_eq!(at, 2, "{s:?}");
    }

    #[test]
    fn a_ring_has_an_inner_outline_too() {
        let l = Layout::classic();
        let ring: Vec<u32> = [0, 1, 2, 9, 11, 18, 19, 20].to_vec();
        let s = cage_outline(&l, &ring, 0.1);
        assert_eq!(s.len(), 8, "outer and inner squares: {s:?}");
        // Outer side 3 - 0.2, inner side 1 + 0.2.
        assert!((length(&s) - (4.0 * 2.8 + 4.0 * 1.2)).abs() < 1e-4);
    }

    #[test]
    fn dashes_start_and_end_on_the_segment_and_leave_gaps() {
        let seg = [[[0.0, 0.5], [1.8, 0.5]]];
        let d = dashes(&seg, CAGE_DASH, CAGE_GAP);
        assert!(d.len() > 5);
        assert_eq!(d[0][0], [0.0, 0.5]);
        assert!((d.last().unwrap()[1][0] - 1.8).abs() < 1e-5);
        let inked = length(&d);
        let share = CAGE_DASH / (CAGE_DASH + CAGE_GAP);
        assert!(inked < 1.8 && (inked / 1.8 - share).abs() < 0.1, "{inked}");
    }

    #[test]
    fn the_sum_goes_in_the_top_left_cell() {
        let l = Layout::classic();
        // r1c2, r2c1, r2c2: the top row's only cell is r1c2.
        let cage = Cage::new(10, vec![9, 1, 10]);
        assert_eq!(sum_cell(&l, &cage), Some(1));
    }
}
