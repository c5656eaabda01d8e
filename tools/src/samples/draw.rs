//! Drawing on RGB images for the sample and test-image tools: filled
//! rectangles, blended pixels, a glyph centred on a point, a line of text.

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
