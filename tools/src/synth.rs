//! Synthetic cell crops: a digit from a font (or nothing, or candidate
//! marks) on a paper or screen background, with grid-line remnants, blur,
//! noise and block-compression artefacts. Everything is driven by a seeded
//! generator, so the same seed gives the same pixels.

use ab_glyph::{Font, FontRef, PxScale, point};
use image::GrayImage;
use sudoku_lens::rng::Rng;

/// What a synthetic cell shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CellKind {
    Empty,
    Digit(u8),
    /// A printed symbol drawn like a digit: a letter (`A`-`Z`) or a digit.
    Symbol(char),
    /// Small candidate digits, in the corner or in a 3x3 mini-grid.
    Pencil(Vec<u8>),
}

/// How hard the degradations are: `Normal` for training, `Hard` widens
/// every range (used for the held-out checks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strength {
    Normal,
    Hard,
}

/// A glyph coverage bitmap.
struct Bitmap {
    w: usize,
    h: usize,
    data: Vec<f32>,
}

fn glyph_bitmap(font: &FontRef<'_>, ch: char, height_px: f32) -> Option<Bitmap> {
    // Measure at a reference size, then render at the size that gives the
    // wanted ink height.
    let probe = font.outline_glyph(
        font.glyph_id(ch)
            .with_scale_and_position(PxScale::from(100.0), point(0.0, 0.0)),
    )?;
    let b = probe.px_bounds();
    let h100 = (b.max.y - b.min.y).max(1.0);
    let scale = 100.0 * height_px / h100;
    let g = font.outline_glyph(
        font.glyph_id(ch)
            .with_scale_and_position(PxScale::from(scale), point(0.0, 0.0)),
    )?;
    let b = g.px_bounds();
    let w = (b.max.x - b.min.x).ceil() as usize + 1;
    let h = (b.max.y - b.min.y).ceil() as usize + 1;
    let mut data = vec![0f32; w * h];
    g.draw(|x, y, c| {
        let (x, y) = (x as usize, y as usize);
        if x < w && y < h {
            data[y * w + x] = c.clamp(0.0, 1.0);
        }
    });
    Some(Bitmap { w, h, data })
}

fn morph(b: &Bitmap, dilate: bool) -> Bitmap {
    let mut out = vec![0f32; b.w * b.h];
    for y in 0..b.h {
        for x in 0..b.w {
            let mut v = if dilate { 0f32 } else { 1f32 };
            for dy in -1i32..=1 {
                for dx in -1i32..=1 {
                    let (xx, yy) = (x as i32 + dx, y as i32 + dy);
                    let s = if xx < 0 || yy < 0 || xx as usize >= b.w || yy as usize >= b.h {
                        0.0
                    } else {
                        b.data[yy as usize * b.w + xx as usize]
                    };
                    v = if dilate { v.max(s) } else { v.min(s) };
                }
            }
            out[y * b.w + x] = v;
        }
    }
    Bitmap {
        w: b.w,
        h: b.h,
        data: out,
    }
}

/// Draws `bm` into `cov` (side `n`) centred at (cx, cy), through a small
/// affine distortion: rotation `rot` (radians, small), shear and aspect.
#[allow(clippy::too_many_arguments)]
fn stamp(
    cov: &mut [f32],
    n: usize,
    bm: &Bitmap,
    cx: f32,
    cy: f32,
    rot: f32,
    shear: f32,
    aspect: f32,
) {
    // Small-angle rotation without trigonometric functions.
    let (s, c) = (rot - rot * rot * rot / 6.0, 1.0 - rot * rot / 2.0);
    // Forward: p = A q with A = R * [[aspect, shear],[0, 1]]; invert A.
    let a = [c * aspect, c * shear - s, s * aspect, s * shear + c];
    let det = a[0] * a[3] - a[1] * a[2];
    let inv = [a[3] / det, -a[1] / det, -a[2] / det, a[0] / det];
    let hx = bm.w as f32 / 2.0;
    let hy = bm.h as f32 / 2.0;
    let reach = (bm.w.max(bm.h) as f32) * 0.8 + 2.0;
    let xs = ((cx - reach).floor().max(0.0) as usize)..((cx + reach).ceil().min(n as f32) as usize);
    let ys = ((cy - reach).floor().max(0.0) as usize)..((cy + reach).ceil().min(n as f32) as usize);
    for y in ys {
        for x in xs.clone() {
            let dx = x as f32 + 0.5 - cx;
            let dy = y as f32 + 0.5 - cy;
            let qx = inv[0] * dx + inv[1] * dy + hx - 0.5;
            let qy = inv[2] * dx + inv[3] * dy + hy - 0.5;
            let v = sample(bm, qx, qy);
            let p = &mut cov[y * n + x];
            *p = p.max(v);
        }
    }
}

fn sample(bm: &Bitmap, x: f32, y: f32) -> f32 {
    if x < -1.0 || y < -1.0 || x > bm.w as f32 || y > bm.h as f32 {
        return 0.0;
    }
    let x0 = x.floor();
    let y0 = y.floor();
    let (fx, fy) = (x - x0, y - y0);
    let get = |xx: i32, yy: i32| {
        if xx < 0 || yy < 0 || xx as usize >= bm.w || yy as usize >= bm.h {
            0.0
        } else {
            bm.data[yy as usize * bm.w + xx as usize]
        }
    };
    let (xi, yi) = (x0 as i32, y0 as i32);
    let t = get(xi, yi) * (1.0 - fx) + get(xi + 1, yi) * fx;
    let b = get(xi, yi + 1) * (1.0 - fx) + get(xi + 1, yi + 1) * fx;
    t * (1.0 - fy) + b * fy
}

/// Supersampling: a cell is drawn at this many times its side, then shrunk.
const SS: usize = 2;

/// Renders one synthetic cell crop of side `size`: its ink, tones and grid
/// lines drawn supersampled, then shrunk and degraded as a photo or a
/// screenshot would be.
pub fn render_cell(
    font: &FontRef<'_>,
    kind: &CellKind,
    size: u32,
    rng: &mut Rng,
    strength: Strength,
) -> GrayImage {
    let hard = strength == Strength::Hard;
    let n = size as usize * SS;
    // Where the cell's interior lies within the crop.
    let margin = rng.range(0.03, if hard { 0.15 } else { 0.13 });
    let cov = ink_coverage(font, kind, n, margin, rng, hard);
    let tones = Tones::pick(kind, rng, hard);
    let mut img = paint(&cov, n, &tones, rng);
    // Faint traces (erased pencil) on some empty cells.
    if *kind == CellKind::Empty && rng.chance(0.25) {
        add_faint_trace(&mut img, n, tones.dark, rng);
    }
    draw_line_remnants(&mut img, n, margin, tones.line, rng);
    let m = size as usize;
    let small = degrade(downsample(&img, n, m), m, rng, hard);
    let mut out: Vec<u8> = small
        .iter()
        .map(|&v| v.round().clamp(0.0, 255.0) as u8)
        .collect();
    // Block-compression artefacts.
    if rng.chance(0.6) {
        let quality = rng.range(if hard { 25.0 } else { 35.0 }, 90.0);
        block_compress(&mut out, m, quality);
    }
    GrayImage::from_raw(size, size, out).expect("size matches")
}

/// The ink coverage (0..1) of a crop of side `n` showing `kind`, the
/// cell's interior starting `margin` of the side in.
fn ink_coverage(
    font: &FontRef<'_>,
    kind: &CellKind,
    n: usize,
    margin: f32,
    rng: &mut Rng,
    hard: bool,
) -> Vec<f32> {
    let inner = n as f32 * (1.0 - 2.0 * margin);
    let mut cov = vec![0f32; n * n];
    match kind {
        CellKind::Empty => {}
        CellKind::Digit(d) => stamp_symbol(&mut cov, n, font, (b'0' + d) as char, inner, rng, hard),
        CellKind::Symbol(ch) => stamp_symbol(&mut cov, n, font, *ch, inner, rng, hard),
        CellKind::Pencil(ds) => stamp_candidates(&mut cov, n, font, ds, margin, rng),
    }
    cov
}

/// Stamps `ch` near the middle of the cell, `inner` pixels across: at a
/// random height, sometimes bolder or thinner, a little off centre,
/// turned, sheared and stretched.
fn stamp_symbol(
    cov: &mut [f32],
    n: usize,
    font: &FontRef<'_>,
    ch: char,
    inner: f32,
    rng: &mut Rng,
    hard: bool,
) {
    let hf = if hard {
        rng.range(0.42, 0.82)
    } else {
        rng.range(0.45, 0.8)
    };
    let Some(mut bm) = glyph_bitmap(font, ch, hf * inner) else {
        return;
    };
    let t = rng.unit();
    if t < 0.2 {
        bm = morph(&bm, true);
    } else if t < 0.3 && bm.h > 40 {
        bm = morph(&bm, false);
    }
    let nf = n as f32;
    let spread = if hard { 0.09 } else { 0.07 };
    let cx = nf / 2.0 + rng.range(-spread, spread) * inner;
    let cy = nf / 2.0 + rng.range(-spread, spread) * inner;
    let rot = rng.range(-0.08, 0.08);
    let shear = rng.range(-0.12, 0.12);
    let aspect = rng.range(0.88, 1.12);
    stamp(cov, n, &bm, cx, cy, rot, shear, aspect);
}

/// Stamps small candidate digits: in their places of a 3x3 mini-grid, or
/// in a run along one corner.
fn stamp_candidates(
    cov: &mut [f32],
    n: usize,
    font: &FontRef<'_>,
    ds: &[u8],
    margin: f32,
    rng: &mut Rng,
) {
    let nf = n as f32;
    let inner = nf * (1.0 - 2.0 * margin);
    let hf = rng.range(0.14, 0.25);
    let mini_grid = rng.chance(0.6);
    let corner = rng.below(4);
    for (i, &d) in ds.iter().enumerate() {
        let Some(bm) = glyph_bitmap(font, (b'0' + d) as char, hf * inner) else {
            continue;
        };
        let (gx, gy) = if mini_grid {
            (((d - 1) % 3) as f32, ((d - 1) / 3) as f32)
        } else {
            // A run of digits along one corner.
            let x = i as f32 * 0.55;
            match corner {
                0 => (x, 0.0),
                1 => (2.0 - x, 0.0),
                2 => (x, 2.0),
                _ => (2.0 - x, 2.0),
            }
        };
        let cx = nf * margin + inner * (gx + 0.5) / 3.0 + rng.range(-0.03, 0.03) * inner;
        let cy = nf * margin + inner * (gy + 0.5) / 3.0 + rng.range(-0.03, 0.03) * inner;
        let rot = rng.range(-0.1, 0.1);
        let shear = rng.range(-0.15, 0.15);
        stamp(cov, n, &bm, cx, cy, rot, shear, 1.0);
    }
}

/// The grey levels of a cell.
struct Tones {
    /// A dark theme: light ink on a dark ground.
    dark: bool,
    /// The background.
    bg: f32,
    /// The ink of what the cell shows.
    ink: f32,
    /// The grid lines'.
    line: f32,
}

impl Tones {
    /// Paper or a light screen (some cells shaded), or a dark theme; pencil
    /// marks sometimes lighter than print.
    fn pick(kind: &CellKind, rng: &mut Rng, hard: bool) -> Tones {
        let dark = rng.chance(0.2);
        let shaded = !dark && rng.chance(0.2);
        let (bg, ink) = if dark {
            let bg = rng.range(5.0, 60.0);
            (bg, (bg + rng.range(90.0, 230.0 - bg)).min(255.0))
        } else {
            let bg = if shaded {
                rng.range(110.0, 205.0)
            } else {
                rng.range(165.0, 252.0)
            };
            let lo = if hard { 50.0 } else { 65.0 };
            (bg, (bg - rng.range(lo, bg.max(lo + 1.0))).max(0.0))
        };
        let ink = if matches!(kind, CellKind::Pencil(_)) && rng.chance(0.5) {
            // Pencil: lighter than print.
            bg + (ink - bg) * rng.range(0.35, 0.8)
        } else {
            ink
        };
        let line = if dark {
            bg + rng.range(20.0, 120.0)
        } else {
            bg - rng.range(40.0, bg.min(200.0))
        };
        Tones {
            dark,
            bg,
            ink,
            line,
        }
    }
}

/// The cell's pixels: the background, with a gentle gradient, under the
/// ink of `cov`.
fn paint(cov: &[f32], n: usize, tones: &Tones, rng: &mut Rng) -> Vec<f32> {
    let nf = n as f32;
    let gx = rng.range(-12.0, 12.0) / nf;
    let gy = rng.range(-12.0, 12.0) / nf;
    let mut img = vec![0f32; n * n];
    for y in 0..n {
        for x in 0..n {
            let b = tones.bg + gx * (x as f32 - nf / 2.0) + gy * (y as f32 - nf / 2.0);
            let a = cov[y * n + x];
            img[y * n + x] = b * (1.0 - a) + tones.ink * a;
        }
    }
    img
}

/// A faint patch, as erased pencil leaves: lighter on a dark theme,
/// darker on paper.
fn add_faint_trace(img: &mut [f32], n: usize, dark: bool, rng: &mut Rng) {
    let nf = n as f32;
    let faint = rng.range(6.0, 18.0) * if dark { 1.0 } else { -1.0 };
    let (x0, y0) = (rng.range(0.25, 0.6) * nf, rng.range(0.25, 0.6) * nf);
    let (w, h) = (rng.range(0.1, 0.3) * nf, rng.range(0.1, 0.3) * nf);
    for y in y0 as usize..((y0 + h) as usize).min(n) {
        for x in x0 as usize..((x0 + w) as usize).min(n) {
            img[y * n + x] += faint;
        }
    }
}

/// Grid-line remnants on most sides: lines of some thickness near the
/// cell's edge, a little tilted.
fn draw_line_remnants(img: &mut [f32], n: usize, margin: f32, tone: f32, rng: &mut Rng) {
    let nf = n as f32;
    for side in 0..4 {
        if !rng.chance(0.8) {
            continue;
        }
        let top = if rng.chance(0.3) { 4.0 } else { 2.0 };
        let thick = rng.range(0.6, top) * SS as f32;
        let pos = nf * margin + rng.range(-1.5, 1.5) * SS as f32;
        let pos = if side % 2 == 1 { nf - pos } else { pos };
        let tilt = rng.range(-1.5, 1.5) * SS as f32 / nf;
        for t in 0..n {
            let centre = pos + tilt * (t as f32 - nf / 2.0);
            let lo = centre - thick / 2.0;
            let hi = centre + thick / 2.0;
            for s in (lo.floor().max(0.0) as usize)..(hi.ceil().min(nf) as usize) {
                let cover = ((s as f32 + 1.0).min(hi) - (s as f32).max(lo)).clamp(0.0, 1.0);
                let idx = if side < 2 { s * n + t } else { t * n + s };
                let p = &mut img[idx];
                *p = *p * (1.0 - cover) + tone * cover;
            }
        }
    }
}

/// Shrinks the supersampled `n` x `n` image to `m` x `m` by averaging.
fn downsample(img: &[f32], n: usize, m: usize) -> Vec<f32> {
    let mut small = vec![0f32; m * m];
    for y in 0..m {
        for x in 0..m {
            let mut s = 0.0;
            for dy in 0..SS {
                for dx in 0..SS {
                    s += img[(y * SS + dy) * n + x * SS + dx];
                }
            }
            small[y * m + x] = s / (SS * SS) as f32;
        }
    }
    small
}

/// Low resolution, blur and noise on the `m` x `m` cell.
fn degrade(mut small: Vec<f32>, m: usize, rng: &mut Rng, hard: bool) -> Vec<f32> {
    // Low resolution: phone photos of a whole page give cells of ~40 px
    // that the locator enlarges, so strokes arrive soft and wide.
    if rng.chance(0.6) {
        let k = (m as f32 / rng.range(1.4, 3.2)).round().max(8.0) as usize;
        small = resample(&resample(&small, m, k), k, m);
    }
    let blurs = rng.below(if hard { 5 } else { 4 });
    for _ in 0..blurs {
        small = blur121(&small, m);
    }
    let sigma = rng.range(0.0, if hard { 9.0 } else { 6.0 });
    for v in &mut small {
        *v += sigma * rng.normal();
    }
    small
}

/// Resamples an n x n image to m x m: area averaging when shrinking,
/// bilinear when enlarging.
fn resample(img: &[f32], n: usize, m: usize) -> Vec<f32> {
    let r = n as f32 / m as f32;
    let mut out = vec![0f32; m * m];
    if r >= 1.0 {
        let mut cnt = vec![0f32; m * m];
        for y in 0..n {
            for x in 0..n {
                let (ox, oy) = (
                    ((x as f32 / r) as usize).min(m - 1),
                    ((y as f32 / r) as usize).min(m - 1),
                );
                out[oy * m + ox] += img[y * n + x];
                cnt[oy * m + ox] += 1.0;
            }
        }
        for (o, c) in out.iter_mut().zip(&cnt) {
            *o /= c.max(1.0);
        }
    } else {
        let at = |v: f32| {
            let c = ((v + 0.5) * r - 0.5).clamp(0.0, (n - 1) as f32);
            let i = c as usize;
            (i, (i + 1).min(n - 1), c - i as f32)
        };
        for y in 0..m {
            let (y0, y1, fy) = at(y as f32);
            for x in 0..m {
                let (x0, x1, fx) = at(x as f32);
                let top = img[y0 * n + x0] * (1.0 - fx) + img[y0 * n + x1] * fx;
                let bot = img[y1 * n + x0] * (1.0 - fx) + img[y1 * n + x1] * fx;
                out[y * m + x] = top * (1.0 - fy) + bot * fy;
            }
        }
    }
    out
}

fn blur121(img: &[f32], n: usize) -> Vec<f32> {
    let mut tmp = vec![0f32; n * n];
    for y in 0..n {
        for x in 0..n {
            let l = img[y * n + x.saturating_sub(1)];
            let r = img[y * n + (x + 1).min(n - 1)];
            tmp[y * n + x] = (l + 2.0 * img[y * n + x] + r) / 4.0;
        }
    }
    let mut out = vec![0f32; n * n];
    for y in 0..n {
        for x in 0..n {
            let u = tmp[y.saturating_sub(1) * n + x];
            let d = tmp[(y + 1).min(n - 1) * n + x];
            out[y * n + x] = (u + 2.0 * tmp[y * n + x] + d) / 4.0;
        }
    }
    out
}

/// 8x8 block DCT quantisation like a JPEG encoder's luminance path, with a
/// cosine table computed by a fixed recurrence (same bits on every machine).
fn block_compress(img: &mut [u8], n: usize, quality: f32) {
    const Q: [f32; 64] = [
        16., 11., 10., 16., 24., 40., 51., 61., 12., 12., 14., 19., 26., 58., 60., 55., 14., 13.,
        16., 24., 40., 57., 69., 56., 14., 17., 22., 29., 51., 87., 80., 62., 18., 22., 37., 56.,
        68., 109., 103., 77., 24., 35., 55., 64., 81., 104., 113., 92., 49., 64., 78., 87., 103.,
        121., 120., 101., 72., 92., 95., 98., 112., 100., 103., 99.,
    ];
    let scale = if quality < 50.0 {
        50.0 / quality
    } else {
        (200.0 - 2.0 * quality) / 100.0
    };
    let cos = cos_table();
    let mut block = [0f32; 64];
    let mut coef = [0f32; 64];
    for by in (0..n).step_by(8) {
        for bx in (0..n).step_by(8) {
            for y in 0..8 {
                for x in 0..8 {
                    let (yy, xx) = ((by + y).min(n - 1), (bx + x).min(n - 1));
                    block[y * 8 + x] = img[yy * n + xx] as f32 - 128.0;
                }
            }
            for v in 0..8 {
                for u in 0..8 {
                    let mut s = 0.0;
                    for y in 0..8 {
                        for x in 0..8 {
                            s += block[y * 8 + x] * cos[x * 8 + u] * cos[y * 8 + v];
                        }
                    }
                    let q = (Q[v * 8 + u] * scale).max(1.0);
                    coef[v * 8 + u] = (s / q).round() * q;
                }
            }
            for y in 0..8 {
                for x in 0..8 {
                    let mut s = 0.0;
                    for v in 0..8 {
                        for u in 0..8 {
                            s += coef[v * 8 + u] * cos[x * 8 + u] * cos[y * 8 + v];
                        }
                    }
                    if by + y < n && bx + x < n {
                        img[(by + y) * n + bx + x] = (s + 128.0).round().clamp(0.0, 255.0) as u8;
                    }
                }
            }
        }
    }
}

/// Orthonormal DCT-II basis c(u) cos((2x+1) u pi / 16), indexed [x * 8 + u].
fn cos_table() -> [f32; 64] {
    // cos(k pi / 16) for k = 0..32 by the Chebyshev recurrence from a
    // literal cos(pi / 16).
    let c1: f64 = 0.980_785_280_403_230_4;
    let mut c = [0f64; 33];
    c[0] = 1.0;
    c[1] = c1;
    for k in 2..33 {
        c[k] = 2.0 * c1 * c[k - 1] - c[k - 2];
    }
    let mut t = [0f32; 64];
    for x in 0..8 {
        for u in 0..8 {
            let k = ((2 * x + 1) * u) % 32;
            let norm = if u == 0 {
                (1.0f64 / 8.0).sqrt()
            } else {
                (2.0f64 / 8.0).sqrt()
            };
            t[x * 8 + u] = (norm * c[k]) as f32;
        }
    }
    t
}
