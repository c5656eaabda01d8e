//! Intermediate images of the grid search, written to a folder for
//! `--debug`: what the threshold saw, which quads were tried, the rectified
//! grid, and the cell crops.

use std::path::Path;

use image::{GrayImage, Luma, Rgb, RgbImage};
use imageproc::drawing::draw_line_segment_mut;

use crate::vision::locate::{Located, Trace, cell_crops};

/// Pixels per cell in `rectified.png`.
const RECTIFIED_CELL_PX: u32 = 32;

/// Writes into `dir` (created if needed):
/// - `threshold.png`: dark ink in black, light ink in blue, on white;
/// - `quads.png`: the working copy with every candidate quad (red) and the
///   chosen one with its refined grid lines (green);
/// - `rectified.png`: the grid resampled from `full_grey` onto its canvas;
/// - `cells.png`: a sheet of the cell crops, laid out on the canvas.
///
/// `located` is `None` when the search failed; then only the first two are
/// written.
pub fn write_debug(
    dir: &Path,
    trace: &Trace,
    full_grey: &GrayImage,
    located: Option<&Located>,
    crop_size: u32,
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let save = |img: &dyn Fn() -> Result<(), image::ImageError>| {
        img().map_err(|e| std::io::Error::other(e.to_string()))
    };
    let (w, h) = trace.small.dimensions();
    let th = RgbImage::from_fn(w, h, |x, y| {
        if trace.ink[0].get_pixel(x, y)[0] > 0 {
            Rgb([0, 0, 0])
        } else if trace.ink[1].get_pixel(x, y)[0] > 0 {
            Rgb([40, 90, 255])
        } else {
            Rgb([255, 255, 255])
        }
    });
    save(&|| th.save(dir.join("threshold.png")))?;

    let mut quads = RgbImage::from_fn(w, h, |x, y| {
        let v = trace.small.get_pixel(x, y)[0];
        Rgb([v, v, v])
    });
    for (q, _) in &trace.candidates {
        draw_quad(&mut quads, &q.points(), Rgb([230, 40, 40]));
    }
    if let Some(loc) = located {
        let small = loc.scaled(1.0 / trace.scale);
        let off = (1.0 - 1.0 / trace.scale) / 2.0;
        let to_small = |p: [f32; 2]| [p[0] - off, p[1] - off];
        let lay = &loc.layout;
        let green = Rgb([30, 200, 60]);
        for i in 0..=lay.width() {
            let a = to_small(small.canvas_to_image(i as f32, 0.0));
            let b = to_small(small.canvas_to_image(i as f32, lay.height() as f32));
            draw_line_segment_mut(&mut quads, (a[0], a[1]), (b[0], b[1]), green);
        }
        for j in 0..=lay.height() {
            let a = to_small(small.canvas_to_image(0.0, j as f32));
            let b = to_small(small.canvas_to_image(lay.width() as f32, j as f32));
            draw_line_segment_mut(&mut quads, (a[0], a[1]), (b[0], b[1]), green);
        }
    }
    save(&|| quads.save(dir.join("quads.png")))?;

    let Some(loc) = located else {
        return Ok(());
    };
    let lay = &loc.layout;
    let p = RECTIFIED_CELL_PX as f32;
    let (rw, rh) = (
        lay.width() as u32 * RECTIFIED_CELL_PX,
        lay.height() as u32 * RECTIFIED_CELL_PX,
    );
    let rect = GrayImage::from_fn(rw, rh, |x, y| {
        let (px, py) = loc
            .homography
            .map((x as f64 + 0.5) / p as f64, (y as f64 + 0.5) / p as f64);
        let (px, py) = (px.round(), py.round());
        if px >= 0.0 && py >= 0.0 && px < full_grey.width() as f64 && py < full_grey.height() as f64
        {
            *full_grey.get_pixel(px as u32, py as u32)
        } else {
            Luma([128])
        }
    });
    save(&|| rect.save(dir.join("rectified.png")))?;

    let crops = cell_crops(full_grey, loc, crop_size);
    let pitch = crop_size + 2;
    let mut sheet = GrayImage::from_pixel(
        lay.width() as u32 * pitch,
        lay.height() as u32 * pitch,
        Luma([128]),
    );
    for (cell, crop) in crops.iter().enumerate() {
        let (r, c) = lay.position(cell);
        image::imageops::replace(
            &mut sheet,
            crop,
            (c as u32 * pitch + 1) as i64,
            (r as u32 * pitch + 1) as i64,
        );
    }
    save(&|| sheet.save(dir.join("cells.png")))?;
    Ok(())
}

fn draw_quad(img: &mut RgbImage, q: &[[f32; 2]; 4], color: Rgb<u8>) {
    for i in 0..4 {
        let (a, b) = (q[i], q[(i + 1) % 4]);
        draw_line_segment_mut(img, (a[0], a[1]), (b[0], b[1]), color);
    }
}
