//! Simulated phone photos of a printed page: the page placed in perspective
//! on a table, lit unevenly, bowed, blurred, noisy and saved as a JPEG.
//! Shared by the image samples and the killer samples.

use std::path::Path;

use image::{ImageEncoder, Rgb, RgbImage};
use sudoku_lens::rng::Rng;
use sudoku_lens::vision::page::homography::Homography;

type Colour = [u8; 3];

/// How a page is photographed.
#[derive(Clone)]
pub struct Camera {
    pub size: (u32, u32),
    /// Quarter turns clockwise of the page in the photo.
    pub turns: u8,
    /// Further rotation, degrees clockwise.
    pub angle: f32,
    /// Corner displacement for perspective, in grid sides.
    pub perspective: f32,
    /// The grid's side over the photo's short side.
    pub fill: f32,
    /// Bow of the page: rows bend by this fraction of the grid's height.
    pub curve: f32,
    /// Darkening from one side to the other, 0..1.
    pub gradient: f32,
    /// Depth of a soft shadow over part of the page, 0..1.
    pub shadow: f32,
    /// Colour of the light.
    pub tint: [f32; 3],
    pub blur: f32,
    pub noise: f32,
    pub quality: u8,
}

impl Camera {
    pub fn new(size: (u32, u32)) -> Camera {
        Camera {
            size,
            turns: 0,
            angle: 0.0,
            perspective: 0.0,
            fill: 0.8,
            curve: 0.0,
            gradient: 0.0,
            shadow: 0.0,
            tint: [1.0, 1.0, 1.0],
            blur: 0.0,
            noise: 0.0,
            quality: 85,
        }
    }
}

fn bilinear(img: &RgbImage, x: f32, y: f32) -> Option<[f32; 3]> {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let (x0, y0) = (x.floor() as i64, y.floor() as i64);
    if x0 < 0 || y0 < 0 || x0 + 1 >= w || y0 + 1 >= h {
        return None;
    }
    let (tx, ty) = (x - x0 as f32, y - y0 as f32);
    let p = |x: i64, y: i64| img.get_pixel(x as u32, y as u32).0;
    let (a, b, c, d) = (p(x0, y0), p(x0 + 1, y0), p(x0, y0 + 1), p(x0 + 1, y0 + 1));
    Some(std::array::from_fn(|i| {
        let top = a[i] as f32 * (1.0 - tx) + b[i] as f32 * tx;
        let bot = c[i] as f32 * (1.0 - tx) + d[i] as f32 * tx;
        top * (1.0 - ty) + bot * ty
    }))
}

/// The page photographed: placed in perspective on a table, lit unevenly,
/// blurred and noisy. `grid` is the grid's box on the page (x0, y0, x1, y1).
pub fn photograph(page: &RgbImage, grid: [f32; 4], cam: &Camera, rng: &mut Rng) -> RgbImage {
    let (w, h) = cam.size;
    let [gx0, gy0, gx1, gy1] = grid;
    let side = (w.min(h) as f32) * cam.fill;
    let scale = side / (gx1 - gx0).max(gy1 - gy0);
    let theta = (cam.turns as f32 * 90.0 + cam.angle).to_radians();
    let (gcx, gcy) = ((gx0 + gx1) / 2.0, (gy0 + gy1) / 2.0);
    let (ocx, ocy) = (
        w as f32 / 2.0 + rng.range(-0.04, 0.04) * w as f32,
        h as f32 / 2.0 + rng.range(-0.04, 0.04) * h as f32,
    );
    let place = |x: f32, y: f32| -> [f64; 2] {
        let (dx, dy) = ((x - gcx) * scale, (y - gcy) * scale);
        [
            (ocx + dx * theta.cos() - dy * theta.sin()) as f64,
            (ocy + dx * theta.sin() + dy * theta.cos()) as f64,
        ]
    };
    let from = [[gx0, gy0], [gx1, gy0], [gx1, gy1], [gx0, gy1]];
    let to: Vec<[f64; 2]> = from
        .iter()
        .map(|&[x, y]| {
            let p = place(x, y);
            let j = cam.perspective * side;
            [
                p[0] + (rng.range(-j, j)) as f64,
                p[1] + (rng.range(-j, j)) as f64,
            ]
        })
        .collect();
    let from: Vec<[f64; 2]> = from.iter().map(|p| [p[0] as f64, p[1] as f64]).collect();
    let to_photo = Homography::from_points(&from, &to).expect("a proper quad");
    let to_page = to_photo.inverse().expect("invertible");
    let table: Colour = [
        90 + rng.below(60) as u8,
        75 + rng.below(50) as u8,
        60 + rng.below(40) as u8,
    ];
    let (sa, sb) = (rng.range(0.0, std::f32::consts::TAU), rng.range(-0.3, 0.3));
    let (gdx, gdy) = (sa.cos(), sa.sin());
    let diag = ((w * w + h * h) as f32).sqrt();
    let (shadow_angle, shadow_at) = (rng.range(0.0, std::f32::consts::TAU), rng.range(0.15, 0.4));
    let mut out = RgbImage::new(w, h);
    let gh = gy1 - gy0;
    let gw = gx1 - gx0;
    for y in 0..h {
        for x in 0..w {
            let mut acc = [0f32; 3];
            for (sx, sy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                let (u, v) =
                    to_page.map((x as f32 + sx - 0.5) as f64, (y as f32 + sy - 0.5) as f64);
                let (u, v) = (u as f32, v as f32);
                // A bowed page: the print moves down most mid-page.
                let t = ((u - gx0) / gw).clamp(-0.5, 1.5);
                let v = v - cam.curve * gh * (std::f32::consts::PI * t).sin();
                let p = bilinear(page, u, v).unwrap_or_else(|| {
                    let n = ((x / 7 + y / 5) % 3) as f32;
                    table.map(|c| c as f32 + n)
                });
                for i in 0..3 {
                    acc[i] += p[i] / 4.0;
                }
            }
            // Light: a gradient across the photo and a soft shadow.
            let along = ((x as f32 - w as f32 / 2.0) * gdx + (y as f32 - h as f32 / 2.0) * gdy)
                / diag
                + 0.5;
            let mut gain = 1.0 - cam.gradient * along.clamp(0.0, 1.0) + sb * 0.05;
            if cam.shadow > 0.0 {
                let d = ((x as f32 - w as f32 / 2.0) * shadow_angle.cos()
                    + (y as f32 - h as f32 / 2.0) * shadow_angle.sin())
                    / diag
                    - shadow_at;
                let s = ((d + 0.06) / 0.12).clamp(0.0, 1.0);
                gain *= 1.0 - cam.shadow * s * s * (3.0 - 2.0 * s);
            }
            let px = std::array::from_fn(|i| (acc[i] * gain * cam.tint[i]).clamp(0.0, 255.0) as u8);
            out.put_pixel(x, y, Rgb(px));
        }
    }
    if cam.blur > 0.0 {
        out = imageproc::filter::gaussian_blur_f32(&out, cam.blur);
    }
    if cam.noise > 0.0 {
        for p in out.pixels_mut() {
            let n = rng.normal() * cam.noise;
            for c in p.0.iter_mut() {
                *c = (*c as f32 + n + rng.normal() * cam.noise * 0.3).clamp(0.0, 255.0) as u8;
            }
        }
    }
    out
}

/// Saves `img` as a JPEG of `quality`, with the EXIF block `exif` if any.
pub fn save_jpeg(img: &RgbImage, path: &Path, quality: u8, exif: Option<Vec<u8>>) {
    let file = std::fs::File::create(path).expect("writable samples folder");
    let mut enc =
        image::codecs::jpeg::JpegEncoder::new_with_quality(std::io::BufWriter::new(file), quality);
    if let Some(e) = exif {
        enc.set_exif_metadata(e).expect("JPEG takes EXIF");
    }
    enc.write_image(
        img.as_raw(),
        img.width(),
        img.height(),
        image::ExtendedColorType::Rgb8,
    )
    .expect("JPEG encodes");
}
