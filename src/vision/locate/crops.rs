//! Stage 6: one square crop per cell, sampled from the full-resolution
//! image through the homography and the refined grid lines.

use image::GrayImage;
use rayon::prelude::*;

use super::Located;
use crate::vision::page::num::floor_i32;

/// Side of the cell crops that [`cell_crops`] is meant to be called with:
/// enough for a printed digit (about 60% of the cell's height, so ~28 px),
/// small enough to keep sampling 369 samurai cells cheap.
pub const CELL_CROP_SIZE: u32 = 48;
/// Fraction of the cell side left out on each side of a crop: the crop shows
/// the cell's interior and, at most, a sliver of its border lines.
pub const CROP_INSET: f32 = 0.06;
/// Source pixels (along each axis) that one bilinear sample already
/// averages: a crop pixel covering more gets more samples.
const BILINEAR_SPAN: f32 = 2.0;
/// At most this many samples each way per crop pixel: they cover 6 x 6
/// source pixels, about what a crop pixel spans on a grid filling a 12 MP
/// photo.
const MAX_SAMPLES: u32 = 3;

/// One square grey crop of `size` x `size` pixels per cell of the located
/// layout, in [`crate::grid::Layout`] cell order, sampled from `full_grey` (the image
/// `located` was found in, at full resolution) through the homography and
/// the refined grid lines. Each crop spans the cell between its grid lines
/// where they lie beside it ([`Located::cell_edges`]), less [`CROP_INSET`]
/// of the cell on each side, so it may show slivers of the lines at its
/// border. Pixels are averaged over their footprint (up
/// to `MAX_SAMPLES` x `MAX_SAMPLES` bilinear samples) so that large
/// photos do not alias.
pub fn cell_crops(full_grey: &GrayImage, located: &Located, size: u32) -> Vec<GrayImage> {
    let layout = &located.layout;
    (0..layout.cell_count())
        .into_par_iter()
        .map(|cell| {
            let [u0, u1, v0, v1] = located.cell_edges(cell);
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
            let k = ((ratio / BILINEAR_SPAN).ceil() as u32).clamp(1, MAX_SAMPLES);
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
    fn bilinear_interpolates_inside_and_clamps_outside() {
        let raw = [0u8, 100, 200, 255];
        let at = |x, y| bilinear_raw(&raw, 2, 2, x, y);
        assert_eq!(at(0.0, 0.0), 0.0);
        assert_eq!(at(0.5, 0.0), 50.0);
        assert_eq!(at(0.5, 0.5), 138.75);
        assert_eq!(at(-3.0, -3.0), 0.0);
        assert_eq!(at(1.0, 5.0), 255.0);
        assert_eq!(at(5.0, 0.5), 177.5);
    }
}
