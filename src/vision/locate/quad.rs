//! Quadrilaterals: candidate grids and located corners.

use std::ops::Index;

use crate::vision::page::homography::Homography;

/// Cross products of consecutive sides (pixels squared) at most this large
/// count as a straight angle in [`Quad::is_convex`]: three corners on a line
/// make no quadrilateral.
const STRAIGHT_TURN: f32 = 1e-3;

/// Four points as the corners of a quadrilateral, in image pixels unless
/// said otherwise. Built by [`Quad::clockwise`] (and as
/// [`crate::vision::locate`] returns them), they run clockwise as seen on
/// screen (y pointing down) from the top-left: top-left, top-right,
/// bottom-right, bottom-left.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Quad([[f32; 2]; 4]);

impl Quad {
    /// The quad with these corners, in the order given.
    pub const fn new(points: [[f32; 2]; 4]) -> Quad {
        Quad(points)
    }

    /// The same four points ordered clockwise as seen on screen, starting
    /// from the top-left one (the smallest x + y).
    pub fn clockwise(points: [[f32; 2]; 4]) -> Quad {
        let [cx, cy] = Quad(points).centre();
        let mut v = points.to_vec();
        v.sort_by(|a, b| {
            (a[1] - cy)
                .atan2(a[0] - cx)
                .total_cmp(&(b[1] - cy).atan2(b[0] - cx))
        });
        let start = (0..4)
            .min_by(|&i, &j| (v[i][0] + v[i][1]).total_cmp(&(v[j][0] + v[j][1])))
            .expect("four corners");
        Quad(std::array::from_fn(|k| v[(start + k) % 4]))
    }

    /// The four corners, in order.
    pub const fn points(&self) -> [[f32; 2]; 4] {
        self.0
    }

    /// The mean of the four corners.
    pub fn centre(&self) -> [f32; 2] {
        let q = &self.0;
        [
            q.iter().map(|p| p[0]).sum::<f32>() / 4.0,
            q.iter().map(|p| p[1]).sum::<f32>() / 4.0,
        ]
    }

    /// The enclosed area (shoelace formula; either orientation), meaningful
    /// for a quad whose sides do not cross.
    pub fn area(&self) -> f32 {
        let q = &self.0;
        let mut a = 0.0;
        for i in 0..4 {
            let (p, n) = (q[i], q[(i + 1) % 4]);
            a += p[0] * n[1] - n[0] * p[1];
        }
        (a / 2.0).abs()
    }

    /// The length of each side: side `k` runs from corner `k` to the next.
    pub fn sides(&self) -> [f32; 4] {
        std::array::from_fn(|k| dist(self.0[k], self.0[(k + 1) % 4]))
    }

    /// The mean side length.
    pub fn mean_side(&self) -> f32 {
        self.sides().iter().sum::<f32>() / 4.0
    }

    /// True when the corners, in order, make a convex quadrilateral with a
    /// non-zero area, in either orientation (no three corners on a line, no
    /// crossing sides).
    pub fn is_convex(&self) -> bool {
        let q = &self.0;
        let cross = |i: usize| {
            let (a, b, c) = (q[i], q[(i + 1) % 4], q[(i + 2) % 4]);
            (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        };
        let turns = [cross(0), cross(1), cross(2), cross(3)];
        turns.iter().all(|&t| t > STRAIGHT_TURN) || turns.iter().all(|&t| t < -STRAIGHT_TURN)
    }

    /// Each corner moved by `f`, in the same order.
    pub fn map(self, f: impl FnMut([f32; 2]) -> [f32; 2]) -> Quad {
        Quad(self.0.map(f))
    }

    /// The homography taking the `w` x `h` rectangle at the origin onto the
    /// quad, corner for corner: (0, 0) to the first corner, (w, 0) to the
    /// second, (w, h) to the third. `None` when the quad is degenerate.
    pub fn homography_from_rect(&self, w: f64, h: f64) -> Option<Homography> {
        let from = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
        let to = self.0.map(|p| [p[0] as f64, p[1] as f64]);
        Homography::from_points(&from, &to)
    }
}

impl Index<usize> for Quad {
    type Output = [f32; 2];

    fn index(&self, corner: usize) -> &[f32; 2] {
        &self.0[corner]
    }
}

impl From<[[f32; 2]; 4]> for Quad {
    fn from(points: [[f32; 2]; 4]) -> Quad {
        Quad(points)
    }
}

impl From<Quad> for [[f32; 2]; 4] {
    fn from(quad: Quad) -> [[f32; 2]; 4] {
        quad.0
    }
}

/// The distance between two points.
pub(super) fn dist(a: [f32; 2], b: [f32; 2]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clockwise_order_starts_top_left() {
        let q = Quad::clockwise([[10.0, 90.0], [90.0, 10.0], [10.0, 10.0], [90.0, 90.0]]);
        assert_eq!(
            q.points(),
            [[10.0, 10.0], [90.0, 10.0], [90.0, 90.0], [10.0, 90.0]]
        );
        // Turned by 30 degrees, the top-left corner is still the one with the
        // smallest x + y, and the order still runs clockwise on screen.
        let turned = Quad::clockwise([[50.0, 0.0], [0.0, 80.0], [130.0, 50.0], [80.0, 130.0]]);
        assert_eq!(
            turned.points(),
            [[50.0, 0.0], [130.0, 50.0], [80.0, 130.0], [0.0, 80.0]]
        );
    }

    #[test]
    fn centre_area_and_sides_of_a_rectangle() {
        let q = Quad::new([[10.0, 20.0], [50.0, 20.0], [50.0, 50.0], [10.0, 50.0]]);
        assert_eq!(q.centre(), [30.0, 35.0]);
        assert_eq!(q.area(), 1200.0);
        assert_eq!(q.sides(), [40.0, 30.0, 40.0, 30.0]);
        assert_eq!(q.mean_side(), 35.0);
        // Counter-clockwise, the same area.
        let ccw = Quad::new([q[0], q[3], q[2], q[1]]);
        assert_eq!(ccw.area(), 1200.0);
    }

    #[test]
    fn convexity_refuses_lines_and_crossings() {
        let square = Quad::new([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]);
        assert!(square.is_convex());
        assert!(Quad::new([square[0], square[3], square[2], square[1]]).is_convex());
        let line = Quad::new([[0.0, 0.0], [5.0, 0.0], [10.0, 0.0], [0.0, 10.0]]);
        assert!(!line.is_convex());
        let bowtie = Quad::new([[0.0, 0.0], [10.0, 10.0], [10.0, 0.0], [0.0, 10.0]]);
        assert!(!bowtie.is_convex());
        let dart = Quad::new([[0.0, 0.0], [10.0, 0.0], [3.0, 3.0], [0.0, 10.0]]);
        assert!(!dart.is_convex());
        let nan = Quad::new([[f32::NAN, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]);
        assert!(!nan.is_convex());
    }

    #[test]
    fn the_rect_maps_onto_the_corners_in_order() {
        let q = Quad::new([[100.0, 50.0], [900.0, 80.0], [950.0, 700.0], [80.0, 760.0]]);
        let h = q.homography_from_rect(9.0, 9.0).unwrap();
        for (p, c) in [[0.0, 0.0], [9.0, 0.0], [9.0, 9.0], [0.0, 9.0]]
            .iter()
            .zip(q.points())
        {
            let (x, y) = h.map(p[0], p[1]);
            assert!((x - c[0] as f64).abs() < 1e-6 && (y - c[1] as f64).abs() < 1e-6);
        }
        let flat = Quad::new([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]);
        assert!(flat.homography_from_rect(9.0, 9.0).is_none());
    }

    #[test]
    fn arrays_convert_both_ways() {
        let a = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]];
        let q = Quad::from(a);
        assert_eq!(<[[f32; 2]; 4]>::from(q), a);
        assert_eq!(q.points(), a);
        assert_eq!(q[2], [5.0, 6.0]);
        assert_eq!(q.map(|[x, y]| [x + 1.0, y]).points()[0], [2.0, 2.0]);
    }
}
