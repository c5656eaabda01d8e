//! Coverage bitmaps placed in a cell and drawn through a projective map.
//!
//! A [`Stamp`] is an anti-aliased coverage bitmap (a glyph, a frame) with its
//! place in cell-local coordinates (0..1 across the cell, both ways). To draw
//! it, every image pixel of the stamp's bounding box is mapped back into the
//! bitmap (one division per pixel, the rest incremental along the row) and
//! the coverage sampled bilinearly; only pixels with coverage are blended.
//! The work is proportional to the stamp's area in the image, not to the
//! image's size.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{ImageBuffer, Pixel, Rgb, Rgba};

use crate::vision::page::homography::Homography;

/// An axis-aligned rectangle of image pixels: `x..x + width`, `y..y + height`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelRect {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

impl PixelRect {
    /// The smallest rectangle holding both.
    pub fn union(self, other: PixelRect) -> PixelRect {
        let x = self.x.min(other.x);
        let y = self.y.min(other.y);
        let x1 = (self.x + self.width).max(other.x + other.width);
        let y1 = (self.y + self.height).max(other.y + other.height);
        PixelRect {
            x,
            y,
            width: x1 - x,
            height: y1 - y,
        }
    }
}

/// The pixels drawn on: 8-bit RGB (as photos decode) or RGBA. Sealed.
pub trait Paintable: Pixel<Subpixel = u8> + sealed::Sealed {}
impl Paintable for Rgb<u8> {}
impl Paintable for Rgba<u8> {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for image::Rgb<u8> {}
    impl Sealed for image::Rgba<u8> {}
}

/// An image of [`Paintable`] pixels.
pub type Canvas<P> = ImageBuffer<P, Vec<u8>>;

/// A coverage bitmap (0..=255) with a one-pixel empty border, placed in
/// cell-local coordinates: bitmap pixel `(i, j)` has its centre at
/// `origin + ((i + 0.5) / res, (j + 0.5) / res)`.
#[derive(Clone, Debug)]
pub struct Stamp {
    width: usize,
    height: usize,
    cov: Vec<u8>,
    origin: [f64; 2],
    res: f64,
}

impl Stamp {
    /// `symbol` in `font`, its ink box centred on the cell's centre, `height`
    /// (a fraction of the cell) tall for a digit, rasterised at `res` bitmap
    /// pixels per cell. `None` for a symbol the font lacks.
    pub fn glyph(font: &FontRef, symbol: char, height: f64, res: f64) -> Option<Stamp> {
        // Scale so that the digits' ink (about the cap height) is `height`.
        let probe = font.as_scaled(PxScale::from(100.0));
        let one = probe.outline_glyph(probe.scaled_glyph('8'))?.px_bounds();
        let scale = (height * res * 100.0 / one.height() as f64) as f32;
        let scaled = font.as_scaled(PxScale::from(scale));
        let outline = scaled.outline_glyph(scaled.scaled_glyph(symbol))?;
        let b = outline.px_bounds();
        let (gw, gh) = (b.width() as usize, b.height() as usize);
        let (width, height) = (gw + 2, gh + 2);
        let mut cov = vec![0u8; width * height];
        outline.draw(|x, y, c| {
            let (x, y) = (x as usize + 1, y as usize + 1);
            if x < width && y < height {
                cov[y * width + x] = (c.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
            }
        });
        // Centre the ink box on the cell's centre.
        let origin = [
            0.5 - width as f64 / (2.0 * res),
            0.5 - height as f64 / (2.0 * res),
        ];
        Some(Stamp {
            width,
            height,
            cov,
            origin,
            res,
        })
    }

    /// `text` in `font` on one line, its digits `height` (a fraction of the
    /// cell) tall, the top-left of its ink box at `top_left` (cell-local),
    /// rasterised at `res` bitmap pixels per cell. `None` for empty text or
    /// text without ink.
    pub fn text(
        font: &FontRef,
        text: &str,
        height: f64,
        res: f64,
        top_left: [f64; 2],
    ) -> Option<Stamp> {
        let probe = font.as_scaled(PxScale::from(100.0));
        let one = probe.outline_glyph(probe.scaled_glyph('8'))?.px_bounds();
        let scale = (height * res * 100.0 / one.height() as f64) as f32;
        let scaled = font.as_scaled(PxScale::from(scale));
        let mut pen = 0.0f32;
        let mut outlines = Vec::new();
        let mut last = None;
        for ch in text.chars() {
            let id = scaled.glyph_id(ch);
            if let Some(prev) = last {
                pen += scaled.kern(prev, id);
            }
            let glyph = id.with_scale_and_position(scale, ab_glyph::point(pen, scaled.ascent()));
            pen += scaled.h_advance(id);
            last = Some(id);
            outlines.extend(scaled.outline_glyph(glyph));
        }
        let (x0, y0, x1, y1) = outlines.iter().map(|o| o.px_bounds()).fold(
            (f32::MAX, f32::MAX, f32::MIN, f32::MIN),
            |(a, b, c, d), r| {
                (
                    a.min(r.min.x),
                    b.min(r.min.y),
                    c.max(r.max.x),
                    d.max(r.max.y),
                )
            },
        );
        if outlines.is_empty() || x1 <= x0 || y1 <= y0 {
            return None;
        }
        let (width, height) = ((x1 - x0) as usize + 2, (y1 - y0) as usize + 2);
        let mut cov = vec![0u8; width * height];
        for o in &outlines {
            let b = o.px_bounds();
            let (ox, oy) = ((b.min.x - x0) as usize + 1, (b.min.y - y0) as usize + 1);
            o.draw(|x, y, c| {
                let (x, y) = (x as usize + ox, y as usize + oy);
                if x < width && y < height {
                    let v = (c.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
                    let at = &mut cov[y * width + x];
                    *at = (*at).max(v);
                }
            });
        }
        Some(Stamp {
            width,
            height,
            cov,
            origin: [top_left[0] - 1.0 / res, top_left[1] - 1.0 / res],
            res,
        })
    }

    /// The stamp's bitmap size in cell units: (width, height), its
    /// one-pixel border included.
    pub fn extent(&self) -> [f64; 2] {
        [self.width as f64 / self.res, self.height as f64 / self.res]
    }

    /// A square ring inside the cell: from `inset` to `inset + thickness`
    /// (fractions of the cell) in from each side, rasterised at `res`.
    pub fn frame(inset: f64, thickness: f64, res: f64) -> Stamp {
        let side = ((1.0 - 2.0 * inset) * res).ceil().max(4.0) as usize + 2;
        let origin = [0.5 - side as f64 / (2.0 * res); 2];
        let outer = (1.0 - 2.0 * inset) / 2.0;
        let inner = outer - thickness;
        let mut cov = vec![0u8; side * side];
        for j in 0..side {
            for i in 0..side {
                // Distance from the centre in the max norm, in cell units; one
                // bitmap pixel of smooth edge on both sides of the ring.
                let x = origin[0] + (i as f64 + 0.5) / res - 0.5;
                let y = origin[1] + (j as f64 + 0.5) / res - 0.5;
                let d = x.abs().max(y.abs());
                let px = 1.0 / res;
                let a = ((outer - d) / px + 0.5).clamp(0.0, 1.0)
                    * ((d - inner) / px + 0.5).clamp(0.0, 1.0);
                cov[j * side + i] = (a * 255.0 + 0.5) as u8;
            }
        }
        Stamp {
            width: side,
            height: side,
            cov,
            origin,
            res,
        }
    }

    /// Draws the stamp in `colour` through `cell_to_image` (cell-local
    /// coordinates to image pixel indices, the centre of pixel (0, 0) being
    /// (0, 0)). Returns the rectangle of pixels examined, `None` when the
    /// stamp falls outside the image or the map is degenerate there.
    pub fn draw<P: Paintable>(
        &self,
        image: &mut Canvas<P>,
        cell_to_image: &Homography,
        colour: Rgba<u8>,
    ) -> Option<PixelRect> {
        let tile = self.coverage(cell_to_image, image.width(), image.height())?;
        tile.blend(image, colour);
        Some(tile.rect)
    }

    /// The stamp's coverage over its bounding box in an `iw` x `ih` image,
    /// through `cell_to_image` (see [`Stamp::draw`]). Reads no image, so
    /// tiles of different cells can be computed in parallel.
    pub fn coverage(&self, cell_to_image: &Homography, iw: u32, ih: u32) -> Option<Tile> {
        let rect = self.bounds(cell_to_image, iw, ih)?;
        // Image pixel -> bitmap coordinates whose integers are pixel centres.
        let to_bitmap = Homography::from_matrix([
            self.res,
            0.0,
            -self.origin[0] * self.res - 0.5,
            0.0,
            self.res,
            -self.origin[1] * self.res - 0.5,
            0.0,
            0.0,
            1.0,
        ]);
        let m = cell_to_image.inverse()?.then(&to_bitmap).matrix();
        let (w, h) = (self.width as f64 - 1.0, self.height as f64 - 1.0);
        let mut cov = vec![0u8; rect.width as usize * rect.height as usize];
        let c = &self.cov;
        let stride = self.width;
        for (j, out) in cov.chunks_exact_mut(rect.width as usize).enumerate() {
            let yf = (rect.y as usize + j) as f64;
            let x0 = rect.x as f64;
            let mut nx = m[0] * x0 + m[1] * yf + m[2];
            let mut ny = m[3] * x0 + m[4] * yf + m[5];
            let mut nw = m[6] * x0 + m[7] * yf + m[8];
            for o in out.iter_mut() {
                let inv = 1.0 / nw;
                let (bx, by) = (nx * inv, ny * inv);
                let ahead = nw > 0.0;
                nx += m[0];
                ny += m[3];
                nw += m[6];
                // The bitmap's border is empty: outside it, no coverage.
                if !(ahead && bx >= 0.0 && by >= 0.0 && bx < w && by < h) {
                    continue;
                }
                let (ix, iy) = (bx as usize, by as usize);
                let (tx, ty) = ((bx - ix as f64) as f32, (by - iy as f64) as f32);
                let i = iy * stride + ix;
                let (a, b) = (c[i] as f32, c[i + 1] as f32);
                let (d, e) = (c[i + stride] as f32, c[i + stride + 1] as f32);
                let top = a + (b - a) * tx;
                let bot = d + (e - d) * tx;
                *o = (top + (bot - top) * ty + 0.5) as u8;
            }
        }
        Some(Tile { rect, cov })
    }

    /// The image pixels the stamp can touch, clipped to the image.
    fn bounds(&self, cell_to_image: &Homography, iw: u32, ih: u32) -> Option<PixelRect> {
        let (x0, y0) = (self.origin[0], self.origin[1]);
        let (x1, y1) = (
            x0 + self.width as f64 / self.res,
            y0 + self.height as f64 / self.res,
        );
        let mut lo = [f64::INFINITY; 2];
        let mut hi = [f64::NEG_INFINITY; 2];
        for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
            let (px, py) = cell_to_image.map(x, y);
            if !px.is_finite() || !py.is_finite() {
                return None;
            }
            lo = [lo[0].min(px), lo[1].min(py)];
            hi = [hi[0].max(px), hi[1].max(py)];
        }
        clip_rect(lo, hi, iw, ih)
    }
}

/// The pixels from `lo` to `hi` (inclusive, rounded outwards) inside a
/// `iw` x `ih` image.
fn clip_rect(lo: [f64; 2], hi: [f64; 2], iw: u32, ih: u32) -> Option<PixelRect> {
    let x0 = lo[0].floor().max(0.0);
    let y0 = lo[1].floor().max(0.0);
    let x1 = (hi[0].ceil() + 1.0).min(iw as f64);
    let y1 = (hi[1].ceil() + 1.0).min(ih as f64);
    (x1 > x0 && y1 > y0).then_some(PixelRect {
        x: x0 as u32,
        y: y0 as u32,
        width: (x1 - x0) as u32,
        height: (y1 - y0) as u32,
    })
}

/// Coverage (0..=255) over a rectangle of image pixels.
#[derive(Clone, Debug)]
pub struct Tile {
    pub rect: PixelRect,
    cov: Vec<u8>,
}

impl Tile {
    /// Blends `colour` into `image` by the tile's coverage times the
    /// colour's alpha; pixels without coverage are not written.
    pub fn blend<P: Paintable>(&self, image: &mut Canvas<P>, colour: Rgba<u8>) {
        let n = P::CHANNEL_COUNT as usize;
        let alpha = colour[3] as u32;
        let stride = image.width() as usize;
        let r = self.rect;
        let buf: &mut [u8] = image;
        for (j, row) in self.cov.chunks_exact(r.width as usize).enumerate() {
            let start = ((r.y as usize + j) * stride + r.x as usize) * n;
            let dst = &mut buf[start..start + r.width as usize * n];
            for (px, &c) in dst.chunks_exact_mut(n).zip(row) {
                if c != 0 {
                    blend(px, colour, (c as u32 * alpha + 127) / 255);
                }
            }
        }
    }
}

/// `dst = dst + (colour - dst) * a / 255` on the colour channels of an RGB
/// or RGBA pixel; alpha moves towards opaque the same way.
#[inline]
pub(super) fn blend(dst: &mut [u8], colour: Rgba<u8>, a: u32) {
    let a = a.min(255);
    for k in 0..3 {
        let d = dst[k] as u32;
        let c = colour[k] as u32;
        dst[k] = ((d * (255 - a) + c * a + 127) / 255) as u8;
    }
    if let Some(d) = dst.get_mut(3) {
        *d = ((*d as u32 * (255 - a) + 255 * a + 127) / 255) as u8;
    }
}

/// Draws an anti-aliased line segment of `width` pixels with round ends,
/// touching only its bounding box. Returns the rectangle examined.
pub fn segment<P: Paintable>(
    image: &mut Canvas<P>,
    p: [f32; 2],
    q: [f32; 2],
    width: f32,
    colour: Rgba<u8>,
) -> Option<PixelRect> {
    let r = (width / 2.0) as f64;
    let (p, q) = (p.map(f64::from), q.map(f64::from));
    if !(p.iter().chain(&q).all(|v| v.is_finite())) {
        return None;
    }
    let lo = [p[0].min(q[0]) - r - 1.0, p[1].min(q[1]) - r - 1.0];
    let hi = [p[0].max(q[0]) + r + 1.0, p[1].max(q[1]) + r + 1.0];
    let rect = clip_rect(lo, hi, image.width(), image.height())?;
    let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
    let len2 = (dx * dx + dy * dy).max(1e-12);
    let alpha = colour[3] as f64;
    for y in rect.y..rect.y + rect.height {
        for x in rect.x..rect.x + rect.width {
            let (vx, vy) = (x as f64 - p[0], y as f64 - p[1]);
            let t = ((vx * dx + vy * dy) / len2).clamp(0.0, 1.0);
            let (ex, ey) = (vx - t * dx, vy - t * dy);
            let d = (ex * ex + ey * ey).sqrt();
            let cov = (r + 0.5 - d).clamp(0.0, 1.0);
            let a = (cov * alpha + 0.5) as u32;
            if a > 0 {
                blend(image.get_pixel_mut(x, y).channels_mut(), colour, a);
            }
        }
    }
    Some(rect)
}

/// One stamp per symbol 1..=n, made on first use.
pub struct GlyphSet<'f> {
    font: FontRef<'f>,
    height: f64,
    res: f64,
    glyphs: Vec<Option<Option<Stamp>>>,
}

impl<'f> GlyphSet<'f> {
    pub fn new(font: FontRef<'f>, height: f64, res: f64) -> GlyphSet<'f> {
        GlyphSet {
            font,
            height,
            res,
            glyphs: Vec::new(),
        }
    }

    /// The stamp of symbol `v` (1-based), written as `symbol`.
    pub fn get(&mut self, v: u8, symbol: char) -> Option<&Stamp> {
        let i = v as usize;
        if self.glyphs.len() <= i {
            self.glyphs.resize(i + 1, None);
        }
        self.glyphs[i]
            .get_or_insert_with(|| Stamp::glyph(&self.font, symbol, self.height, self.res))
            .as_ref()
    }

    /// The stamp of symbol `v` if [`GlyphSet::get`] made it already.
    pub fn made(&self, v: u8) -> Option<&Stamp> {
        self.glyphs.get(v as usize)?.as_ref()?.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blending_full_coverage_gives_the_colour_and_none_leaves_the_pixel() {
        let mut px = [200u8, 100, 50, 255];
        blend(&mut px, Rgba([10, 20, 30, 255]), 255);
        assert_eq!(px, [10, 20, 30, 255]);
        let mut px = [200u8, 100, 50, 255];
        blend(&mut px, Rgba([10, 20, 30, 255]), 0);
        assert_eq!(px, [200, 100, 50, 255]);
    }

    #[test]
    fn a_frame_is_a_ring() {
        let f = Stamp::frame(0.1, 0.05, 100.0);
        let at = |x: f64, y: f64| {
            let i = ((x - f.origin[0]) * f.res) as usize;
            let j = ((y - f.origin[1]) * f.res) as usize;
            f.cov[j * f.width + i]
        };
        assert_eq!(at(0.5, 0.5), 0, "the centre is clear");
        assert_eq!(at(0.125, 0.5), 255, "the ring is inked");
        assert_eq!(at(0.5, 0.875), 255);
        assert_eq!(at(0.05, 0.5), 0, "outside the ring is clear");
    }
}
