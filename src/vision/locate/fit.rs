//! Stage 3b: fitting a quadrilateral to an outline: the largest one
//! inscribed in its convex hull, or the one on its four longest straight
//! stretches, with each side then refitted to the outline points along it.

use imageproc::point::Point;

use super::quad::{Quad, dist};

/// Points of an outline within this fraction of a side's length of the side
/// count as lying on it: a printed line is straight to about 2%.
pub(super) const SIDE_TOL: f32 = 0.02;
/// ... plus this many pixels: outlines run on whole pixels, and a one-pixel
/// step must not drop a point.
const SIDE_TOL_PX: f32 = 1.5;
/// Refitting the sides may move a corner by this fraction of a side: a
/// larger move means a side's fit followed other print, not the grid.
pub(super) const MAX_CORNER_MOVE: f32 = 0.05;
/// The inscribed quad is searched over this many rotations ...
const ROTATION_STEPS: u32 = 45;
/// ... this many degrees apart: a quarter turn in all (the four directions
/// repeat after it), fine enough that the best rotation's corners are the
/// hull's.
const ROTATION_STEP_DEG: f32 = 2.0;
/// Quads smaller than this (square pixels of the working copy) are specks.
const MIN_AREA: f32 = 100.0;
/// Every side of a grid is longer than this many pixels of the working copy.
const MIN_SIDE_PX: f32 = 10.0;
/// A grid's longest side is less than this times its shortest, even under
/// steep perspective: longer quads are slivers or runs of print.
const MAX_SIDE_RATIO: f32 = 3.0;
/// The outline is simplified with a tolerance of this fraction of its
/// length before its longest edges are taken: a grid's sides become single
/// edges, the notches of touching print disappear.
const SIMPLIFY: f64 = 0.01;
/// The longest edges of the simplified outline considered as a quad's
/// sides: an octagon's eight, and a few more for print's notches.
const EDGE_CHOICES: usize = 10;
/// Neighbouring sides of a quad turn by a right angle give or take this
/// many degrees: perspective skews a grid's corners, a cut corner of an
/// octagon turns by half a right angle.
const MAX_TURN_OFF_RIGHT: f32 = 35.0;
/// Two lines whose directions' sine is below this are parallel: they do not
/// meet in a corner (at least not within the image).
const MIN_CORNER_SINE: f32 = 1e-3;
/// Only the part of a side from this fraction of its length ...
const SIDE_FROM: f32 = 0.08;
/// ... to this one is fitted: near the corners the outline bends round them
/// and print often touches.
const SIDE_TO: f32 = 0.92;
/// A side is refitted only with at least this many points ...
const MIN_SIDE_POINTS: usize = 10;
/// ... and this many per pixel of its length: a side mostly hidden or
/// broken is left as it was.
const MIN_POINTS_PER_PX: f32 = 0.3;
/// Each refit keeps the points within this share of the side's length plus
/// these pixels of the previous fit, tighter the second time: print
/// touching the side pulls the first fit, not the last.
const REFIT_KEEP: [(f32, f32); 2] = [(0.01, 2.0), (0.004, 1.0)];

/// The quadrilateral of an outline: the largest one inscribed in its convex
/// hull (corners = extreme points along four perpendicular directions, over
/// a sweep of rotations), then each side refitted to the outline points
/// lying along it, and ordered clockwise from the top-left.
pub(super) fn fit_quad(pts: &[Point<i32>], max_move: f32) -> Option<Quad> {
    fit_quad_in_hull(
        pts,
        &imageproc::geometry::convex_hull(pts.to_vec()),
        max_move,
    )
}

/// [`fit_quad`] with the convex hull of `pts` already computed.
pub(super) fn fit_quad_in_hull(
    pts: &[Point<i32>],
    hull: &[Point<i32>],
    max_move: f32,
) -> Option<Quad> {
    if hull.len() < 4 {
        return None;
    }
    let hp: Vec<[f32; 2]> = hull.iter().map(|p| [p.x as f32, p.y as f32]).collect();
    let mut best: Option<(Quad, f32)> = None;
    for step in 0..ROTATION_STEPS {
        let theta = (step as f32 * ROTATION_STEP_DEG).to_radians();
        let quad = Quad::new(std::array::from_fn(|k| {
            let a = theta + std::f32::consts::FRAC_PI_4 + k as f32 * std::f32::consts::FRAC_PI_2;
            let (dx, dy) = (a.cos(), a.sin());
            *hp.iter()
                .max_by(|p, q| (p[0] * dx + p[1] * dy).total_cmp(&(q[0] * dx + q[1] * dy)))
                .expect("non-empty hull")
        }));
        let area = quad.area();
        if best.as_ref().is_none_or(|b| area > b.1) {
            best = Some((quad, area));
        }
    }
    let (quad, area) = best?;
    if area < MIN_AREA {
        return None;
    }
    let quad = Quad::clockwise(quad.points());
    let quad = refit_sides(pts, quad, SIDE_TOL, max_move).unwrap_or(quad);
    well_shaped(quad)
}

/// The quadrilateral whose sides lie on the four longest edges of the
/// simplified convex hull: right when a corner of the hull is cut off
/// (a cell at a corner merged with print), where the largest inscribed
/// quadrilateral would put a corner on the cut.
/// The argument is a closed polygon: the convex hull of the points, or an
/// outline itself, whose long straight stretches ignore a spur that the
/// hull would follow.
pub(super) fn quad_from_longest_edges(hull: &[Point<i32>]) -> Option<Quad> {
    if hull.len() < 4 {
        return None;
    }
    let perimeter = imageproc::geometry::arc_length(hull, true);
    // Simplified as two open curves, from the start to the point farthest
    // from it and back: simplified as a closed one, the corner just before
    // the start could be dropped however far it stood out (a sohei's hull
    // lost a whole corner so).
    let eps = SIMPLIFY * perimeter;
    let p0 = [hull[0].x as f32, hull[0].y as f32];
    let far = (1..hull.len())
        .max_by(|&a, &b| {
            let d = |i: usize| dist(p0, [hull[i].x as f32, hull[i].y as f32]);
            d(a).total_cmp(&d(b))
        })
        .expect("four or more points");
    let mut back = hull[far..].to_vec();
    back.push(hull[0]);
    let mut poly = imageproc::geometry::approximate_polygon_dp(&hull[..=far], eps, false);
    poly.pop();
    let mut rest = imageproc::geometry::approximate_polygon_dp(&back, eps, false);
    rest.pop();
    poly.extend(rest);
    let n = poly.len();
    if n < 4 {
        return None;
    }
    let v: Vec<[f32; 2]> = poly.iter().map(|p| [p.x as f32, p.y as f32]).collect();
    let len = |e: usize| dist(v[e], v[(e + 1) % n]);
    let mut edges: Vec<usize> = (0..n).collect();
    edges.sort_by(|&a, &b| len(b).total_cmp(&len(a)));
    edges.truncate(EDGE_CHOICES);
    // The four longest edges that turn by about a right angle from one to
    // the next (in outline order): on an octagon (a sohei's or flower's
    // hull) the canvas's sides, not a mix of sides and cut corners.
    let turn = |a: usize, b: usize| {
        let (p, q) = (v[a], v[(a + 1) % n]);
        let (r, s) = (v[b], v[(b + 1) % n]);
        let (d1, d2) = ([q[0] - p[0], q[1] - p[1]], [s[0] - r[0], s[1] - r[1]]);
        let cross = d1[0] * d2[1] - d1[1] * d2[0];
        let dot = d1[0] * d2[0] + d1[1] * d2[1];
        cross.atan2(dot).abs().to_degrees()
    };
    let mut best: Option<(f32, [usize; 4])> = None;
    let m = edges.len();
    for a in 0..m {
        for b in a + 1..m {
            for c in b + 1..m {
                for d in c + 1..m {
                    let mut four = [edges[a], edges[b], edges[c], edges[d]];
                    four.sort_unstable();
                    let square = (0..4).all(|k| {
                        let t = turn(four[k], four[(k + 1) % 4]);
                        (90.0 - MAX_TURN_OFF_RIGHT..=90.0 + MAX_TURN_OFF_RIGHT).contains(&t)
                    });
                    let total: f32 = four.iter().map(|&e| len(e)).sum();
                    if square && best.is_none_or(|(t, _)| total > t) {
                        best = Some((total, four));
                    }
                }
            }
        }
    }
    let four = best?.1;
    let mut quad = [[0f32; 2]; 4];
    for k in 0..4 {
        let (e1, e2) = (four[k], four[(k + 1) % 4]);
        let (p1, q1) = (v[e1], v[(e1 + 1) % n]);
        let (p2, q2) = (v[e2], v[(e2 + 1) % n]);
        let (d1, d2) = (
            [q1[0] - p1[0], q1[1] - p1[1]],
            [q2[0] - p2[0], q2[1] - p2[1]],
        );
        let den = d1[0] * d2[1] - d1[1] * d2[0];
        if den.abs() < MIN_CORNER_SINE * dist(p1, q1) * dist(p2, q2) {
            return None;
        }
        let t = ((p2[0] - p1[0]) * d2[1] - (p2[1] - p1[1]) * d2[0]) / den;
        quad[k] = [p1[0] + t * d1[0], p1[1] + t * d1[1]];
    }
    well_shaped(Quad::clockwise(quad))
}

/// `quad`, unless it is a sliver or a wild shape: every side longer than
/// [`MIN_SIDE_PX`] and within [`MAX_SIDE_RATIO`] of the shortest.
fn well_shaped(quad: Quad) -> Option<Quad> {
    let sides = quad.sides();
    let (lo, hi) = sides
        .iter()
        .fold((f32::MAX, 0f32), |(lo, hi), &s| (lo.min(s), hi.max(s)));
    (lo > MIN_SIDE_PX && hi < MAX_SIDE_RATIO * lo).then_some(quad)
}

/// Fits a line to the outline points near each side of `quad` (away from
/// its corners) and intersects neighbouring lines. `None` if a side has too
/// few points or a corner would move more than `max_move` of a side. Points
/// within `tol` of the side length (plus [`SIDE_TOL_PX`]) of a side count.
pub(super) fn refit_sides(pts: &[Point<i32>], quad: Quad, tol: f32, max_move: f32) -> Option<Quad> {
    let mut lines = [(0f32, 0f32, 0f32); 4]; // normal (a, b), offset c: a x + b y = c
    for k in 0..4 {
        let (p, q) = (quad[k], quad[(k + 1) % 4]);
        let len = dist(p, q);
        let (dx, dy) = ((q[0] - p[0]) / len, (q[1] - p[1]) / len);
        let tol = tol * len + SIDE_TOL_PX;
        let mut sel: Vec<[f32; 2]> = Vec::new();
        for pt in pts {
            let (rx, ry) = (pt.x as f32 - p[0], pt.y as f32 - p[1]);
            let t = rx * dx + ry * dy;
            let d = rx * -dy + ry * dx;
            if t > SIDE_FROM * len && t < SIDE_TO * len && d.abs() <= tol {
                sel.push([pt.x as f32, pt.y as f32]);
            }
        }
        if sel.len() < MIN_SIDE_POINTS || (sel.len() as f32) < MIN_POINTS_PER_PX * len {
            return None;
        }
        // Fit, then refit to the points close to the first fit, twice: print
        // touching the side pulls the first fit, not the last.
        let mut line = fit_line(&sel);
        for (share, px) in REFIT_KEEP {
            let keep = share * len + px;
            let near: Vec<[f32; 2]> = sel
                .iter()
                .filter(|s| (line.0 * s[0] + line.1 * s[1] - line.2).abs() <= keep)
                .copied()
                .collect();
            if near.len() < MIN_SIDE_POINTS || (near.len() as f32) < MIN_POINTS_PER_PX * len {
                break;
            }
            line = fit_line(&near);
        }
        lines[k] = line;
    }
    let mut out = [[0f32; 2]; 4];
    for k in 0..4 {
        // Corner k lies on side k-1 and side k.
        let (a1, b1, c1) = lines[(k + 3) % 4];
        let (a2, b2, c2) = lines[k];
        let det = a1 * b2 - a2 * b1;
        if det.abs() < MIN_CORNER_SINE {
            return None;
        }
        out[k] = [(c1 * b2 - c2 * b1) / det, (a1 * c2 - a2 * c1) / det];
        let side = dist(quad[k], quad[(k + 1) % 4]);
        if dist(out[k], quad[k]) > max_move * side {
            return None;
        }
    }
    Some(Quad::new(out))
}

/// Total least squares line through points: unit normal (a, b) and c with
/// a x + b y = c.
fn fit_line(sel: &[[f32; 2]]) -> (f32, f32, f32) {
    let n = sel.len() as f32;
    let mx = sel.iter().map(|s| s[0]).sum::<f32>() / n;
    let my = sel.iter().map(|s| s[1]).sum::<f32>() / n;
    let (mut sxx, mut sxy, mut syy) = (0f32, 0f32, 0f32);
    for s in sel {
        let (x, y) = (s[0] - mx, s[1] - my);
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
    }
    // Direction of largest spread; the normal is perpendicular to it.
    let angle = 0.5 * (2.0 * sxy).atan2(sxx - syy);
    let (a, b) = (-angle.sin(), angle.cos());
    (a, b, a * mx + b * my)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pixel along the sides of a polygon.
    fn outline(corners: &[(i32, i32)]) -> Vec<Point<i32>> {
        let mut pts = Vec::new();
        for (k, &(x0, y0)) in corners.iter().enumerate() {
            let (x1, y1) = corners[(k + 1) % corners.len()];
            let n = (x1 - x0).abs().max((y1 - y0).abs());
            for i in 0..n {
                pts.push(Point::new(x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n));
            }
        }
        pts
    }

    fn assert_near(q: Quad, want: [[f32; 2]; 4]) {
        for (got, want) in q.points().iter().zip(want) {
            assert!(dist(*got, want) < 0.01, "{q:?} is not {want:?}");
        }
    }

    #[test]
    fn a_square_outline_gives_its_corners() {
        let pts = outline(&[(10, 10), (110, 10), (110, 110), (10, 110)]);
        let q = fit_quad(&pts, MAX_CORNER_MOVE).expect("a square");
        assert_near(
            q,
            [[10.0, 10.0], [110.0, 10.0], [110.0, 110.0], [10.0, 110.0]],
        );
    }

    #[test]
    fn slivers_and_specks_are_not_quads() {
        let sliver = outline(&[(0, 0), (200, 0), (200, 40), (0, 40)]);
        assert!(fit_quad(&sliver, MAX_CORNER_MOVE).is_none());
        let speck = outline(&[(0, 0), (8, 0), (8, 8), (0, 8)]);
        assert!(fit_quad(&speck, MAX_CORNER_MOVE).is_none());
    }

    #[test]
    fn the_longest_edges_restore_a_cut_corner() {
        // An outline whose top-right corner is cut off by 20 px.
        let pts = outline(&[(0, 0), (80, 0), (100, 20), (100, 100), (0, 100)]);
        let q = quad_from_longest_edges(&pts).expect("four long edges");
        assert_near(q, [[0.0, 0.0], [100.0, 0.0], [100.0, 100.0], [0.0, 100.0]]);
    }

    #[test]
    fn sides_are_refitted_to_the_outline_within_the_allowed_move() {
        let pts = outline(&[(10, 10), (110, 10), (110, 110), (10, 110)]);
        // Corners 3 px off: within 5% of a 100 px side.
        let off = Quad::new([[7.0, 12.0], [112.0, 8.0], [108.0, 113.0], [12.0, 107.0]]);
        let q = refit_sides(&pts, off, 0.04, MAX_CORNER_MOVE).expect("refitted");
        assert_near(
            q,
            [[10.0, 10.0], [110.0, 10.0], [110.0, 110.0], [10.0, 110.0]],
        );
        // The same correction is refused when a corner may move 1% only.
        assert!(refit_sides(&pts, off, 0.04, 0.01).is_none());
    }

    #[test]
    fn an_octagons_longest_sides_give_the_canvas_square() {
        // A sohei's hull: sides of 9 cells, corners cut by 6 (8.5 cells on
        // the slant), 20 px a cell, from (10, 10).
        let c = |a: i32| 10 + 20 * a;
        let hull = outline(&[
            (c(6), c(0)),
            (c(15), c(0)),
            (c(21), c(6)),
            (c(21), c(15)),
            (c(15), c(21)),
            (c(6), c(21)),
            (c(0), c(15)),
            (c(0), c(6)),
        ]);
        // Whichever hull point the outline starts at.
        for start in [0, 5, hull.len() - 1] {
            let mut pts = hull[start..].to_vec();
            pts.extend_from_slice(&hull[..start]);
            let q = quad_from_longest_edges(&pts).expect("a quad");
            let want = [[10.0, 10.0], [430.0, 10.0], [430.0, 430.0], [10.0, 430.0]];
            for (got, want) in q.points().iter().zip(want) {
                assert!(dist(*got, want) < 3.0, "start {start}: {q:?}");
            }
        }
    }
}
