//! Plane projective transforms (homographies) fitted from point pairs.

use imageproc::geometric_transformations::Projection;

/// A 3x3 projective transform in row-major order, mapping `(x, y)` to
/// `((m0 x + m1 y + m2) / w, (m3 x + m4 y + m5) / w)` with `w = m6 x + m7 y + m8`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Homography {
    m: [f64; 9],
}

impl Homography {
    /// The transform with this row-major matrix.
    pub fn from_matrix(m: [f64; 9]) -> Homography {
        Homography { m }
    }

    /// The row-major matrix.
    pub fn matrix(&self) -> [f64; 9] {
        self.m
    }

    /// The least-squares transform taking each `from[i]` to `to[i]` (at least
    /// four pairs; exactly four gives the exact transform). `None` when the
    /// points are degenerate (three of four on a line, fewer than four).
    pub fn from_points(from: &[[f64; 2]], to: &[[f64; 2]]) -> Option<Homography> {
        if from.len() < 4 || from.len() != to.len() {
            return None;
        }
        // Hartley normalisation keeps the normal equations well conditioned
        // when one side is in cell units and the other in thousands of pixels.
        let (na, _) = normaliser(from)?;
        let (nb, nb_inv) = normaliser(to)?;
        let mut ata = [[0f64; 8]; 8];
        let mut atb = [0f64; 8];
        for (p, q) in from.iter().zip(to) {
            let (x, y) = apply(&na, p[0], p[1]);
            let (u, v) = apply(&nb, q[0], q[1]);
            let rows = [
                ([x, y, 1.0, 0.0, 0.0, 0.0, -x * u, -y * u], u),
                ([0.0, 0.0, 0.0, x, y, 1.0, -x * v, -y * v], v),
            ];
            for (r, b) in rows {
                for i in 0..8 {
                    for j in 0..8 {
                        ata[i][j] += r[i] * r[j];
                    }
                    atb[i] += r[i] * b;
                }
            }
        }
        let h = solve8(ata, atb)?;
        let core = [h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1.0];
        let m = mul(&nb_inv, &mul(&core, &na));
        let out = Homography { m };
        out.inverse()?;
        Some(out)
    }

    /// Maps a point. Points on the line at infinity map to non-finite values.
    pub fn map(&self, x: f64, y: f64) -> (f64, f64) {
        apply(&self.m, x, y)
    }

    /// The inverse transform, `None` if singular.
    pub fn inverse(&self) -> Option<Homography> {
        let m = &self.m;
        let c = [
            m[4] * m[8] - m[5] * m[7],
            m[2] * m[7] - m[1] * m[8],
            m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8],
            m[0] * m[8] - m[2] * m[6],
            m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6],
            m[1] * m[6] - m[0] * m[7],
            m[0] * m[4] - m[1] * m[3],
        ];
        let det = m[0] * c[0] + m[1] * c[3] + m[2] * c[6];
        let scale: f64 = m.iter().map(|v| v.abs()).fold(0.0, f64::max);
        if !det.is_finite() || det.abs() <= 1e-12 * scale.powi(3) {
            return None;
        }
        Some(Homography {
            m: c.map(|v| v / det),
        })
    }

    /// This transform followed by `next`.
    pub fn then(&self, next: &Homography) -> Homography {
        Homography {
            m: mul(&next.m, &self.m),
        }
    }

    /// The same transform as an imageproc [`Projection`] (for its warps).
    pub fn to_projection(&self) -> Option<Projection> {
        Projection::from_matrix(self.m.map(|v| v as f32))
    }
}

fn apply(m: &[f64; 9], x: f64, y: f64) -> (f64, f64) {
    let w = m[6] * x + m[7] * y + m[8];
    (
        (m[0] * x + m[1] * y + m[2]) / w,
        (m[3] * x + m[4] * y + m[5]) / w,
    )
}

fn mul(a: &[f64; 9], b: &[f64; 9]) -> [f64; 9] {
    let mut out = [0.0; 9];
    for r in 0..3 {
        for c in 0..3 {
            out[r * 3 + c] = (0..3).map(|k| a[r * 3 + k] * b[k * 3 + c]).sum();
        }
    }
    out
}

/// A similarity moving the points' centroid to the origin and their mean
/// distance to sqrt(2), and its inverse.
fn normaliser(pts: &[[f64; 2]]) -> Option<([f64; 9], [f64; 9])> {
    let n = pts.len() as f64;
    let cx = pts.iter().map(|p| p[0]).sum::<f64>() / n;
    let cy = pts.iter().map(|p| p[1]).sum::<f64>() / n;
    let d = pts
        .iter()
        .map(|p| ((p[0] - cx).powi(2) + (p[1] - cy).powi(2)).sqrt())
        .sum::<f64>()
        / n;
    if d.is_nan() || d <= 1e-12 || !d.is_finite() {
        return None;
    }
    let s = std::f64::consts::SQRT_2 / d;
    Some((
        [s, 0.0, -s * cx, 0.0, s, -s * cy, 0.0, 0.0, 1.0],
        [1.0 / s, 0.0, cx, 0.0, 1.0 / s, cy, 0.0, 0.0, 1.0],
    ))
}

/// Gaussian elimination with partial pivoting.
fn solve8(mut a: [[f64; 8]; 8], mut b: [f64; 8]) -> Option<[f64; 8]> {
    for col in 0..8 {
        let piv = (col..8).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[piv][col].abs() < 1e-10 {
            return None;
        }
        a.swap(col, piv);
        b.swap(col, piv);
        for r in col + 1..8 {
            let f = a[r][col] / a[col][col];
            if f != 0.0 {
                let pivot_row = a[col];
                for (x, p) in a[r].iter_mut().zip(pivot_row).skip(col) {
                    *x -= f * p;
                }
                b[r] -= f * b[col];
            }
        }
    }
    let mut x = [0.0; 8];
    for r in (0..8).rev() {
        let s: f64 = (r + 1..8).map(|c| a[r][c] * x[c]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_points_map_exactly_and_invert() {
        let from = [[0.0, 0.0], [9.0, 0.0], [9.0, 9.0], [0.0, 9.0]];
        let to = [[100.0, 50.0], [900.0, 80.0], [950.0, 700.0], [80.0, 760.0]];
        let h = Homography::from_points(&from, &to).unwrap();
        for (p, q) in from.iter().zip(&to) {
            let (x, y) = h.map(p[0], p[1]);
            assert!((x - q[0]).abs() < 1e-6 && (y - q[1]).abs() < 1e-6);
        }
        let (x, y) = h.inverse().unwrap().map(950.0, 700.0);
        assert!((x - 9.0).abs() < 1e-9 && (y - 9.0).abs() < 1e-9);
    }

    #[test]
    fn degenerate_points_are_refused() {
        let line = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]];
        assert!(Homography::from_points(&line, &line).is_none());
    }
}
