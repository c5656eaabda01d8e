//! Stage 3a: candidate quads. The outer outline of every large ink
//! component gives the quad fitted to it (see `fit.rs`), and the cell-like
//! holes inside it give more: the quads of their hull, pushed out to the
//! outline's straight stretches, which print touching the grid cannot move.

use image::GrayImage;
use imageproc::contours::{BorderType, find_contours};
use imageproc::distance_transform::Norm;
use imageproc::point::Point;
use rayon::prelude::*;

use super::fit::{
    MAX_CORNER_MOVE, SIDE_TOL, fit_quad, fit_quad_in_hull, quad_from_longest_edges, refit_sides,
};
use super::ink::Polarity;
use super::quad::Quad;

/// An outline's bounding box spans at least this share of the working
/// copy's short side on both axes: smaller ones are digits, boxes or print.
const MIN_GRID_SHARE: f32 = 0.12;
/// ... and at least this many pixels, about 3 per cell of a 9 x 9 grid:
/// fewer cannot be read anyway.
const MIN_GRID_PX: f32 = 30.0;
/// Outlines with fewer points are specks, whatever their bounding box.
const MIN_OUTLINE_POINTS: usize = 20;
/// Only this many of the largest outlines (by bounding box) of a mask are
/// fitted: the grid is among the largest things on its page, and fitting is
/// the costly part.
const MAX_OUTLINES: usize = 10;
/// Radius (pixels, square) of the opening that frees a grid's frame from
/// thin lines and bridges joining it to other print: a thick frame survives
/// it, thin rules and shading do not.
const OPEN_RADIUS: u8 = 1;
/// A hole counts as a cell only if its sides are at least the outline's
/// size over this: a samurai's cells are 1/21 of its outline, so this keeps
/// cells of half that size and drops the counters of digits.
const HOLE_DIVISOR: f32 = 40.0;
/// ... and at least this many pixels.
const MIN_HOLE_PX: f32 = 5.0;
/// Cells are about square: a hole more than this many times longer than
/// wide is a gap between lines or print.
const MAX_HOLE_ASPECT: i32 = 2;
/// Fewer cell-like holes than this (a box's worth) are not a grid's cells.
const MIN_CELL_HOLES: usize = 9;
/// Cells are alike: holes this many times smaller or larger than the median
/// cell-like hole (cells merged by a broken line, the counter of a digit)
/// are left out of the holes' hull.
const HOLE_AREA_SPREAD: i32 = 4;
/// The quad inscribed in the holes' hull may move a corner by this share of
/// a side when its sides are refitted: a corner cell lost to touching print
/// leaves the hull a cell or more short there.
const HOLES_MAX_MOVE: f32 = 0.25;
/// The holes' quad is pushed out onto the outline's sides through a band
/// of this share of a side: wide enough to reach across the grid's border
/// from the cells' edge to the outline.
const OUTWARD_SIDE_TOL: f32 = 0.04;

/// The candidate quads of one ink mask: for each of its largest outlines,
/// the outline's own quad and those of the hull of its cell-like holes.
pub(super) fn candidates(mask: &GrayImage, polarity: Polarity) -> Vec<Candidate> {
    trace(mask, polarity, false)
}

/// The candidate quads of the dark mask once opened (see
/// [`OPEN_RADIUS`]), with also the quad on each outline's four longest
/// straight stretches: right when a spur of print sticks out of a corner of
/// a frame that stands alone only now, which the outline's hull follows.
pub(super) fn opened_candidates(dark: &GrayImage) -> Vec<Candidate> {
    let opened = imageproc::morphology::open(dark, Norm::LInf, OPEN_RADIUS);
    trace(&opened, Polarity::DarkOnLight, true)
}

/// [`candidates`], with the longest-edges quads if `outline_edges`.
fn trace(mask: &GrayImage, polarity: Polarity, outline_edges: bool) -> Vec<Candidate> {
    let (w, h) = mask.dimensions();
    let min_side = (w.min(h) as f32 * MIN_GRID_SHARE).max(MIN_GRID_PX);
    // A one-pixel blank frame, so that a grid touching the image edge
    // (a full-width screenshot) still has an outer outline.
    let mut padded = GrayImage::new(w + 2, h + 2);
    image::imageops::replace(&mut padded, mask, 1, 1);
    let mut contours = find_contours::<i32>(&padded);
    for c in &mut contours {
        for p in &mut c.points {
            p.x -= 1;
            p.y -= 1;
        }
    }
    let mut outers: Vec<(f32, usize)> = contours
        .iter()
        .enumerate()
        .filter(|(_, c)| c.border_type == BorderType::Outer && c.points.len() >= MIN_OUTLINE_POINTS)
        .filter_map(|(i, c)| {
            let (x0, x1, y0, y1) = bbox(&c.points);
            let (bw, bh) = ((x1 - x0) as f32, (y1 - y0) as f32);
            (bw >= min_side && bh >= min_side).then_some((bw * bh, i))
        })
        .collect();
    outers.sort_by(|a, b| b.0.total_cmp(&a.0));
    outers.truncate(MAX_OUTLINES);
    let mut holes_of: Vec<Vec<usize>> = vec![Vec::new(); contours.len()];
    for (i, c) in contours.iter().enumerate() {
        if let (BorderType::Hole, Some(p)) = (c.border_type, c.parent) {
            holes_of[p].push(i);
        }
    }
    // Each outline's candidates in turn, the outlines fitted side by side.
    let per_outline: Vec<Vec<Candidate>> = outers
        .par_iter()
        .map(|&(area, oi)| {
            let mut cands = Vec::new();
            let pts = &contours[oi].points;
            if let Some(quad) = fit_quad(pts, MAX_CORNER_MOVE) {
                cands.push(Candidate { quad, polarity });
            }
            if outline_edges && let Some(quad) = quad_from_longest_edges(pts) {
                let quad = refit_sides(pts, quad, SIDE_TOL, MAX_CORNER_MOVE).unwrap_or(quad);
                cands.push(Candidate { quad, polarity });
            }
            // The same component seen from inside: the hull of its
            // cell-like holes, pushed out to the outline's straight stretch.
            // Print that touches the grid changes the outline, not the cells.
            let min_hole = (area.sqrt() / HOLE_DIVISOR).max(MIN_HOLE_PX) as i32;
            let cells: Vec<(i32, usize)> = holes_of[oi]
                .iter()
                .filter_map(|&h| {
                    let (x0, x1, y0, y1) = bbox(&contours[h].points);
                    let (w, h2) = (x1 - x0, y1 - y0);
                    let square = w <= MAX_HOLE_ASPECT * h2 && h2 <= MAX_HOLE_ASPECT * w;
                    (w >= min_hole && h2 >= min_hole && square).then_some((w * h2, h))
                })
                .collect();
            if cells.len() < MIN_CELL_HOLES {
                return cands;
            }
            let mut areas: Vec<i32> = cells.iter().map(|c| c.0).collect();
            areas.sort_unstable();
            let med = areas[areas.len() / 2];
            let hole_pts: Vec<Point<i32>> = cells
                .iter()
                .filter(|c| c.0 * HOLE_AREA_SPREAD >= med && c.0 <= med * HOLE_AREA_SPREAD)
                .flat_map(|c| contours[c.1].points.iter().copied())
                .collect();
            // A cell lost to touching print cuts a corner off the hull: let the
            // sides' lines restore it.
            let hull = imageproc::geometry::convex_hull(hole_pts.clone());
            if let Some(inner) = fit_quad_in_hull(&hole_pts, &hull, HOLES_MAX_MOVE) {
                let quad =
                    refit_sides(pts, inner, OUTWARD_SIDE_TOL, MAX_CORNER_MOVE).unwrap_or(inner);
                cands.push(Candidate { quad, polarity });
            }
            if let Some(inner) = quad_from_longest_edges(&hull) {
                let inner =
                    refit_sides(&hole_pts, inner, SIDE_TOL, MAX_CORNER_MOVE).unwrap_or(inner);
                let quad =
                    refit_sides(pts, inner, OUTWARD_SIDE_TOL, MAX_CORNER_MOVE).unwrap_or(inner);
                cands.push(Candidate { quad, polarity });
            }
            cands
        })
        .collect();
    per_outline.into_iter().flatten().collect()
}

/// A quad that may be the grid, and the mask it was found in.
pub(super) struct Candidate {
    pub(super) quad: Quad,
    pub(super) polarity: Polarity,
}

/// The bounding box of outline points: (x min, x max, y min, y max).
fn bbox(pts: &[Point<i32>]) -> (i32, i32, i32, i32) {
    let mut b = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
    for p in pts {
        b.0 = b.0.min(p.x);
        b.1 = b.1.max(p.x);
        b.2 = b.2.min(p.y);
        b.3 = b.3.max(p.y);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;
    use imageproc::drawing::draw_filled_rect_mut;
    use imageproc::rect::Rect;

    /// A mask (255 = ink) with a 9 x 9 grid of 2-px lines, 20 px cells, its
    /// outer edge from (40, 30) to (222, 212).
    fn grid_mask() -> GrayImage {
        let mut m = GrayImage::new(300, 260);
        for i in 0..10 {
            let at = 20 * i;
            draw_filled_rect_mut(&mut m, Rect::at(40 + at, 30).of_size(2, 182), Luma([255]));
            draw_filled_rect_mut(&mut m, Rect::at(40, 30 + at).of_size(182, 2), Luma([255]));
        }
        m
    }

    #[test]
    fn a_grid_gives_its_outline_and_its_cells_quads() {
        let cands = candidates(&grid_mask(), Polarity::LightOnDark);
        // The outline's quad, and the two quads of its 81 holes.
        assert_eq!(cands.len(), 3);
        for c in &cands {
            assert_eq!(c.polarity, Polarity::LightOnDark);
            let want = [[40.0, 30.0], [221.0, 30.0], [221.0, 211.0], [40.0, 211.0]];
            for (got, want) in c.quad.points().iter().zip(want) {
                assert!(
                    (got[0] - want[0]).abs() <= 2.0 && (got[1] - want[1]).abs() <= 2.0,
                    "{:?}",
                    c.quad
                );
            }
        }
    }

    #[test]
    fn small_print_gives_no_candidate() {
        let mut m = GrayImage::new(300, 260);
        for i in 0..6 {
            draw_filled_rect_mut(
                &mut m,
                Rect::at(20 + 40 * i, 100).of_size(20, 25),
                Luma([255]),
            );
        }
        assert!(candidates(&m, Polarity::DarkOnLight).is_empty());
    }
}
