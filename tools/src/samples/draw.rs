//! Drawing on RGB images for the sample and test-image tools: filled
//! rectangles, blended pixels, smoothed lines and discs, a glyph centred
//! on a point, a line of text.

use ab_glyph::{Font, FontVec, PxScale, ScaleFont, point};
use image::{Rgb, RgbImage};

/// An RGB colour.
pub type Colour = [u8; 3];

/// Fills the pixels whose centres lie in the rectangle, clipped to the
/// image.
pub fn fill(img: &mut RgbImage, x0: f32, y0: f32, x1: f32, y1: f32, c: Colour) {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let xa = (x0.round() as i64).clamp(0, w);
    let xb = (x1.round() as i64).clamp(0, w);
    let ya = (y0.round() as i64).clamp(0, h);
    let yb = (y1.round() as i64).clamp(0, h);
    for y in ya..yb {
        for x in xa..xb {
            img.put_pixel(x as u32, y as u32, Rgb(c));
        }
    }
}

/// Blends colour `c` into pixel (x, y) with coverage `a`; off the image,
/// nothing.
pub fn blend(img: &mut RgbImage, x: i64, y: i64, c: Colour, a: f32) {
    if x < 0 || y < 0 || x >= img.width() as i64 || y >= img.height() as i64 {
        return;
    }
    let p = img.get_pixel_mut(x as u32, y as u32);
    for (v, &c) in p.0.iter_mut().zip(&c) {
        *v = (*v as f32 * (1.0 - a) + c as f32 * a).round() as u8;
    }
}

/// Draws `ch` with its ink box centred on (cx, cy), `height` pixels tall
/// for a digit.
pub fn glyph_centred(
    img: &mut RgbImage,
    font: &FontVec,
    ch: char,
    cx: f32,
    cy: f32,
    height: f32,
    c: Colour,
) {
    // Size so that the digit 8's ink is `height` tall.
    let probe = font
        .outline_glyph(
            font.glyph_id('8')
                .with_scale_and_position(100.0, point(0.0, 0.0)),
        )
        .expect("the font has digits");
    let scale = 100.0 * height / probe.px_bounds().height();
    let g = font
        .glyph_id(ch)
        .with_scale_and_position(scale, point(0.0, 0.0));
    let Some(outline) = font.outline_glyph(g) else {
        return;
    };
    let b = outline.px_bounds();
    let (ox, oy) = (
        (cx - b.width() / 2.0).round() as i64,
        (cy - b.height() / 2.0).round() as i64,
    );
    outline.draw(|x, y, cov| blend(img, ox + x as i64, oy + y as i64, c, cov.min(1.0)));
}

/// Draws a line of text starting at (x, baseline).
pub fn text(
    img: &mut RgbImage,
    font: &FontVec,
    s: &str,
    x: f32,
    baseline: f32,
    px: f32,
    c: Colour,
) {
    let scaled = font.as_scaled(PxScale::from(px));
    let mut pen = x;
    for ch in s.chars() {
        let id = scaled.glyph_id(ch);
        let g = id.with_scale_and_position(px, point(pen, baseline));
        if let Some(o) = font.outline_glyph(g) {
            let b = o.px_bounds();
            o.draw(|gx, gy, cov| {
                blend(
                    img,
                    b.min.x as i64 + gx as i64,
                    b.min.y as i64 + gy as i64,
                    c,
                    cov.min(1.0),
                )
            });
        }
        pen += scaled.h_advance(id);
    }
}

/// A straight line from `a` to `b`, `width` pixels wide, its edges
/// smoothed.
pub fn segment(img: &mut RgbImage, a: (f32, f32), b: (f32, f32), width: f32, c: Colour) {
    let half = width / 2.0;
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let (x0, x1) = (a.0.min(b.0) - half - 1.0, a.0.max(b.0) + half + 1.0);
    let (y0, y1) = (a.1.min(b.1) - half - 1.0, a.1.max(b.1) + half + 1.0);
    for y in y0.floor() as i64..=y1.ceil() as i64 {
        for x in x0.floor() as i64..=x1.ceil() as i64 {
            let (px, py) = (x as f32 - a.0, y as f32 - a.1);
            let t = ((px * dx + py * dy) / len2).clamp(0.0, 1.0);
            let d = (px - t * dx).hypot(py - t * dy);
            let cover = (half + 0.5 - d).clamp(0.0, 1.0);
            if cover > 0.0 {
                blend(img, x, y, c, cover);
            }
        }
    }
}

/// A filled disc of `radius` pixels about `centre`, its edge smoothed.
pub fn disc(img: &mut RgbImage, (cx, cy): (f32, f32), radius: f32, c: Colour) {
    let r = radius.ceil() as i64 + 1;
    for y in cy.floor() as i64 - r..=cy.ceil() as i64 + r {
        for x in cx.floor() as i64 - r..=cx.ceil() as i64 + r {
            let d = (x as f32 - cx).hypot(y as f32 - cy);
            let cover = (radius + 0.5 - d).clamp(0.0, 1.0);
            if cover > 0.0 {
                blend(img, x, y, c, cover);
            }
        }
    }
}
