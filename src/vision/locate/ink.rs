//! Stage 1 and 2: the working copy and its ink masks.
//!
//! The image is box-averaged down to a working copy (a 12 MP photo has far
//! more pixels than finding the grid needs), and ink is whatever stands out
//! from its local mean, in both polarities: dark print on paper, light lines
//! on a dark-mode screen.

use image::GrayImage;
use rayon::prelude::*;

/// Long side, in pixels, of the working copy on which the grid is searched.
pub const WORK_SIDE: u32 = 900;
/// The local-mean window's radius is the working copy's long side over
/// this: the window is about half a cell of a grid filling the image, wide
/// enough that a thick line stands out from its surroundings, narrow enough
/// to follow uneven light.
const WINDOW_DIVISOR: u32 = 40;
/// Smallest window radius, in pixels: a small image still compares a pixel
/// with more than the line it lies on.
const MIN_WINDOW_RADIUS: u32 = 4;
/// Dark ink lies this many grey levels below its local mean: faint print
/// and thin lines count, paper grain does not.
const DARK_BY: i32 = 8;
/// Light ink lies this many grey levels above its local mean. It only
/// matters on dark screens, where contrast is high: the larger offset keeps
/// paper texture out of that mask.
const LIGHT_BY: i32 = 16;

/// Images box-averaged by at most this factor have their ink found at
/// full resolution too ([`fine_masks`]): screenshots and small photos,
/// whose lines may be one pixel wide. Above it the image is a camera's, whose
/// lines span several pixels, and thresholding its every pixel would cost
/// more than the rest of finding the grid.
const MAX_FINE_FACTOR: u32 = 3;

/// In the full-resolution masks ([`fine_masks`]), a pixel is also judged
/// against its window's paper alone (the pixels the first look did not
/// take for ink of that polarity), when at least this share of the window
/// is paper: a window of mostly ink has too little paper to say what
/// paper looks like there.
const MIN_PAPER_SHARE: f32 = 0.25;

/// Radius (pixels) of the small window that tells a stroke from the edge
/// of a large dark area: a grid line, a frame or a digit's stroke of the
/// working copy (a few pixels wide) is darker than its 7 x 7 surroundings;
/// a dark page beside a light grid block is not, a few pixels away from the
/// block.
const STROKE_RADIUS: u32 = 3;

/// Which way ink differs from its background.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Polarity {
    /// Dark ink on light paper: print, light-mode screens.
    DarkOnLight,
    /// Light ink on a dark background: dark-mode screens.
    LightOnDark,
}

impl Polarity {
    /// Both polarities, in the order of the ink masks
    /// ([`crate::vision::locate::Trace::ink`]).
    pub const ALL: [Polarity; 2] = [Polarity::DarkOnLight, Polarity::LightOnDark];

    /// The position of this polarity's mask in [`Polarity::ALL`] order.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Box-averages `grey` by an integer factor so that its long side is at most
/// `side`; returns the copy and the factor. The factor is never more than
/// the short side, so that the copy keeps at least one pixel across: a
/// strip far longer than wide keeps a long side above `side`.
pub fn downscale(grey: &GrayImage, side: u32) -> (GrayImage, f32) {
    let (w, h) = grey.dimensions();
    let f = w.max(h).div_ceil(side.max(1)).min(w.min(h)).max(1);
    if f == 1 {
        return (grey.clone(), 1.0);
    }
    let (sw, sh) = (w / f, h / f);
    let src = grey.as_raw();
    let mut out = vec![0u8; (sw * sh) as usize];
    let area = f * f;
    out.par_chunks_mut(sw as usize)
        .enumerate()
        .for_each(|(y, row)| {
            let mut acc = vec![0u32; sw as usize];
            for dy in 0..f {
                let line = &src[((y as u32 * f + dy) * w) as usize..][..(sw * f) as usize];
                for (x, a) in acc.iter_mut().enumerate() {
                    *a += line[x * f as usize..][..f as usize]
                        .iter()
                        .map(|&v| v as u32)
                        .sum::<u32>();
                }
            }
            for (o, a) in row.iter_mut().zip(acc) {
                *o = ((a + area / 2) / area) as u8;
            }
        });
    (
        GrayImage::from_raw(sw, sh, out).expect("sized buffer"),
        f as f32,
    )
}

/// The ink masks of the working copy (255 = ink), in [`Polarity::ALL`]
/// order: dark ink, then light ink.
pub(super) fn ink_masks(small: &GrayImage) -> [GrayImage; 2] {
    let radius = (small.width().max(small.height()) / WINDOW_DIVISOR).max(MIN_WINDOW_RADIUS);
    threshold(small, radius, DARK_BY, LIGHT_BY)
}

/// Whether an image box-averaged by `factor` is worth its ink found at
/// full resolution ([`fine_masks`]): up to [`MAX_FINE_FACTOR`].
pub(super) fn fine_pays(factor: u32) -> bool {
    (2..=MAX_FINE_FACTOR).contains(&factor)
}

/// The ink masks of the working copy `small`, found in `grey`, the image
/// it was box-averaged from by `factor` ([`downscale`]).
///
/// Averaging takes a line one pixel wide down to 1/`factor` of its
/// contrast: a screenshot's light-grey inner lines, already faint, fall
/// below [`DARK_BY`] and the grid breaks into pieces. Here each pixel of
/// `grey` is judged against the same window as in [`ink_masks`], and a
/// pixel of the working copy is ink when at least `factor` of its block's
/// pixels are: as many as a line one pixel wide puts there, more than an
/// odd speck of noise does.
///
/// The window's mean is also the wrong yardstick where dense print or a
/// dark page beside the grid fills much of it: a white 25 x 25 on a dark
/// page has its light-grey lines (47 levels under the paper) 38 levels
/// above the mean beside its edge, and the lines there are lost. With
/// `paper`, each pixel is judged a second time against its window's paper
/// alone ([`against_paper`]), and is ink when either look says so.
pub(super) fn fine_masks(
    grey: &GrayImage,
    small: &GrayImage,
    factor: u32,
    paper: bool,
) -> [GrayImage; 2] {
    let radius = (grey.width().max(grey.height()) / WINDOW_DIVISOR).max(MIN_WINDOW_RADIUS * factor);
    let mut masks = threshold(grey, radius, DARK_BY, LIGHT_BY);
    if paper {
        masks = against_paper(grey, radius, masks, factor);
    }
    masks.map(|mask| reduce(&mask, factor, small.dimensions()))
}

/// The masks of [`threshold`] (`masks`, found in `img` with the same
/// `radius`) with more ink: a pixel is also dark ink when it lies
/// [`DARK_BY`] below the mean of the pixels of its window that are not dark
/// ink, and light ink when [`LIGHT_BY`] above the mean of those not light,
/// where these are at least [`MIN_PAPER_SHARE`] of the window. Taking the
/// ink out of the yardstick only raises it (for dark ink) or lowers it
/// (for light), so nothing ink before is lost.
///
/// The paper's means are taken over blocks of `block` x `block` pixels
/// (the working copy's, in [`fine_masks`]): each pixel is judged against
/// the window of whole blocks around its own, as the paper's level
/// changes slowly, at a fraction of the cost of a window per pixel.
fn against_paper(
    img: &GrayImage,
    radius: u32,
    masks: [GrayImage; 2],
    block: u32,
) -> [GrayImage; 2] {
    let (w, h) = img.dimensions();
    let (wu, hu) = (w as usize, h as usize);
    if wu == 0 || hu == 0 {
        return masks;
    }
    let f = block.max(1) as usize;
    let (bw, bh) = (wu.div_ceil(f), hu.div_ceil(f));
    let px = img.as_raw();
    let [dark, light] = masks;
    let (dk, lt) = (dark.as_raw(), light.as_raw());
    // Per block: the sum and the count of the pixels that are not dark
    // ink, then of those that are not light ink.
    let mut blocks = vec![[0u32; 4]; bw * bh];
    blocks.par_chunks_mut(bw).enumerate().for_each(|(by, row)| {
        for y in by * f..((by + 1) * f).min(hu) {
            for x in 0..wu {
                let i = y * wu + x;
                let v = px[i] as u32;
                let (not_dark, not_light) = (u32::from(dk[i] == 0), u32::from(lt[i] == 0));
                let b = &mut row[x / f];
                b[0] += v * not_dark;
                b[1] += not_dark;
                b[2] += v * not_light;
                b[3] += not_light;
            }
        }
    });
    // Their summed-area table, with a row and a column of zeros first.
    let iw = bw + 1;
    let mut table = vec![[0u64; 4]; iw * (bh + 1)];
    for by in 0..bh {
        let mut run = [0u64; 4];
        for bx in 0..bw {
            let at = (by + 1) * iw + bx + 1;
            for k in 0..4 {
                run[k] += u64::from(blocks[by * bw + bx][k]);
                table[at][k] = table[at - iw][k] + run[k];
            }
        }
    }
    // Per block: the levels under (dark) and over (light) which a pixel is
    // ink against the paper; none where the window holds too little paper.
    let rb = (radius as usize).div_ceil(f);
    let levels: Vec<(i64, i64)> = (0..bw * bh)
        .into_par_iter()
        .map(|b| {
            let (bx, by) = (b % bw, b / bw);
            let (x0, x1) = (bx.saturating_sub(rb), (bx + rb + 1).min(bw));
            let (y0, y1) = (by.saturating_sub(rb), (by + rb + 1).min(bh));
            let window = |k: usize| {
                table[y1 * iw + x1][k] + table[y0 * iw + x0][k]
                    - table[y0 * iw + x1][k]
                    - table[y1 * iw + x0][k]
            };
            let pixels = ((x1 - x0) * (y1 - y0) * f * f) as f32;
            let least = ((MIN_PAPER_SHARE * pixels) as u64).max(1);
            let level = |sum: u64, count: u64, by: i32| {
                (count >= least).then(|| sum as i64 / count as i64 + i64::from(by))
            };
            (
                level(window(0), window(1), -DARK_BY).unwrap_or(i64::MIN),
                level(window(2), window(3), LIGHT_BY).unwrap_or(i64::MAX),
            )
        })
        .collect();
    let mut out_dark = dk.clone();
    let mut out_light = lt.clone();
    out_dark
        .par_chunks_mut(wu)
        .zip(out_light.par_chunks_mut(wu))
        .enumerate()
        .for_each(|(y, (drow, lrow))| {
            let level_row = &levels[(y / f) * bw..][..bw];
            for x in 0..wu {
                let (under, over) = level_row[x / f];
                let v = i64::from(px[y * wu + x]);
                if drow[x] == 0 && v < under {
                    drow[x] = 255;
                } else if drow[x] == 0 && lrow[x] == 0 && v > over {
                    lrow[x] = 255;
                }
            }
        });
    [
        GrayImage::from_raw(w, h, out_dark).expect("sized buffer"),
        GrayImage::from_raw(w, h, out_light).expect("sized buffer"),
    ]
}

/// `mask` reduced by `factor` to `size`, over the same blocks as
/// [`downscale`]: a pixel is ink (255) when at least `factor` of its
/// block's pixels are.
fn reduce(mask: &GrayImage, factor: u32, (sw, sh): (u32, u32)) -> GrayImage {
    let f = factor as usize;
    let w = mask.width() as usize;
    let src = mask.as_raw();
    let mut out = vec![0u8; sw as usize * sh as usize];
    if sw == 0 {
        return GrayImage::from_raw(sw, sh, out).expect("sized buffer");
    }
    out.par_chunks_mut(sw as usize)
        .enumerate()
        .for_each(|(y, row)| {
            for (x, o) in row.iter_mut().enumerate() {
                let count: usize = (0..f)
                    .map(|dy| {
                        let line = &src[(y * f + dy) * w + x * f..][..f];
                        line.iter().filter(|&&v| v > 0).count()
                    })
                    .sum();
                if count >= f {
                    *o = 255;
                }
            }
        });
    GrayImage::from_raw(sw, sh, out).expect("sized buffer")
}

/// The dark mask with the dark areas beside light blocks left out: only
/// dark ink that is also [`DARK_BY`] below the mean of its small window
/// ([`STROKE_RADIUS`]) stays. On a dark page, the page next to a light grid
/// block lies below the large window's mean (the block is in it) and joins
/// the grid's frame in one wide dark band, whose outline is no longer the
/// grid's; here the band is gone but for a fringe of a few pixels, and the
/// frame's outline is the grid's again.
pub(super) fn strokes_only(small: &GrayImage, dark: &GrayImage) -> GrayImage {
    // (No pixel is 255 levels above its mean: the light mask stays empty.)
    let [near, _] = threshold(small, STROKE_RADIUS, DARK_BY, 255);
    let mut out = dark.clone();
    for (o, n) in out.iter_mut().zip(near.iter()) {
        *o &= *n;
    }
    out
}

/// Ink masks by local mean: a pixel is dark ink when it is `dark_by` below
/// the mean of its (2 radius + 1)^2 window, light ink when `light_by` above.
fn threshold(img: &GrayImage, radius: u32, dark_by: i32, light_by: i32) -> [GrayImage; 2] {
    let (w, h) = img.dimensions();
    if w == 0 || h == 0 {
        // No pixel, no ink (and no rows to share out among threads).
        return [GrayImage::new(w, h), GrayImage::new(w, h)];
    }
    let (wu, hu) = (w as usize, h as usize);
    let iw = wu + 1;
    let mut integral = vec![0u32; iw * (hu + 1)];
    let px = img.as_raw();
    for y in 0..hu {
        let mut run = 0u32;
        for x in 0..wu {
            run += px[y * wu + x] as u32;
            integral[(y + 1) * iw + x + 1] = integral[y * iw + x + 1] + run;
        }
    }
    let r = radius as usize;
    let mut dark = vec![0u8; wu * hu];
    let mut light = vec![0u8; wu * hu];
    dark.par_chunks_mut(wu)
        .zip(light.par_chunks_mut(wu))
        .enumerate()
        .for_each(|(y, (drow, lrow))| {
            let y0 = y.saturating_sub(r);
            let y1 = (y + r + 1).min(hu);
            for x in 0..wu {
                let x0 = x.saturating_sub(r);
                let x1 = (x + r + 1).min(wu);
                let sum = integral[y1 * iw + x1] + integral[y0 * iw + x0]
                    - integral[y0 * iw + x1]
                    - integral[y1 * iw + x0];
                let n = ((y1 - y0) * (x1 - x0)) as i32;
                let v = px[y * wu + x] as i32 * n;
                let s = sum as i32;
                if v < s - dark_by * n {
                    drow[x] = 255;
                } else if v > s + light_by * n {
                    lrow[x] = 255;
                }
            }
        });
    [
        GrayImage::from_raw(w, h, dark).expect("sized buffer"),
        GrayImage::from_raw(w, h, light).expect("sized buffer"),
    ]
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_one_pixel_line_survives_reduction_and_a_speck_does_not() {
        // A vertical line one pixel wide at x = 5, and a lone speck.
        let mut mask =
            GrayImage::from_fn(12, 12, |x, _| image::Luma([if x == 5 { 255 } else { 0 }]));
        mask.put_pixel(9, 9, image::Luma([255]));
        let out = reduce(&mask, 2, (6, 6));
        for y in 0..6 {
            for x in 0..6 {
                let want = if x == 2 { 255 } else { 0 };
                assert_eq!(out.get_pixel(x, y)[0], want, "({x}, {y})");
            }
        }
    }

    use super::*;
    use image::Luma;

    #[test]
    fn downscale_averages_blocks() {
        let img = GrayImage::from_fn(2000, 1000, |x, _| Luma([if x % 2 == 0 { 0 } else { 200 }]));
        let (small, f) = downscale(&img, 900);
        assert_eq!(f, 3.0);
        assert_eq!(small.dimensions(), (666, 333));
        let v = small.get_pixel(10, 10)[0];
        assert!((60..=140).contains(&v), "{v}");
    }

    #[test]
    fn a_strip_far_longer_than_wide_keeps_a_pixel_across() {
        for (w, h) in [(10, 20_000), (20_000, 10), (36, 60_000), (1, 1), (0, 5)] {
            let img = GrayImage::from_pixel(w, h, Luma([120]));
            let (small, f) = downscale(&img, 900);
            assert!(f >= 1.0 && f <= w.min(h).max(1) as f32, "{w}x{h}: {f}");
            let (sw, sh) = small.dimensions();
            assert_eq!((sw, sh), (w / f as u32, h / f as u32), "{w}x{h}");
            assert!(sw.min(sh) >= w.min(h).min(1), "{w}x{h}: {sw}x{sh}");
        }
    }

    #[test]
    fn an_image_without_pixels_has_no_ink() {
        for (w, h) in [(0, 0), (0, 40), (40, 0)] {
            let masks = ink_masks(&GrayImage::new(w, h));
            assert!(masks.iter().all(|m| m.dimensions() == (w, h)), "{w}x{h}");
        }
    }

    #[test]
    fn a_dark_page_beside_a_light_block_is_not_a_stroke() {
        // A white block (x 100..300) on a dark page, a dark line inside it.
        let img = GrayImage::from_fn(400, 200, |x, _| match x {
            200..=201 => Luma([20]),
            100..=299 => Luma([250]),
            _ => Luma([28]),
        });
        let masks = ink_masks(&img);
        let dark = &masks[Polarity::DarkOnLight.index()];
        // The large window sees the block from the page beside it...
        assert_eq!(dark.get_pixel(92, 100)[0], 255);
        let strokes = strokes_only(&img, dark);
        // ... the small one does not, a few pixels away; the line stays.
        assert_eq!(strokes.get_pixel(92, 100)[0], 0);
        assert_eq!(strokes.get_pixel(200, 100)[0], 255);
        assert_eq!(strokes.get_pixel(50, 100)[0], 0);
    }

    #[test]
    fn a_faint_line_beside_a_dark_page_is_ink_against_the_paper() {
        // A white block (x 100..300) on a dark page, a light-grey line one
        // pixel wide 10 pixels inside its edge, another in its middle.
        let img = GrayImage::from_fn(400, 200, |x, _| match x {
            110 | 200 => Luma([208]),
            100..=299 => Luma([255]),
            _ => Luma([17]),
        });
        let radius = 32;
        let first = threshold(&img, radius, DARK_BY, LIGHT_BY);
        let dark = Polarity::DarkOnLight.index();
        // The page in the window pulls its mean below the line beside the
        // edge: the mean alone misses it, and sees the one in the middle.
        assert_eq!(first[dark].get_pixel(110, 100)[0], 0);
        assert_eq!(first[dark].get_pixel(200, 100)[0], 255);
        // Whether the paper is measured per pixel or over blocks.
        for block in [1, 2, 3] {
            let second = against_paper(&img, radius, first.clone(), block);
            assert_eq!(second[dark].get_pixel(110, 100)[0], 255, "block {block}");
            assert_eq!(second[dark].get_pixel(200, 100)[0], 255, "block {block}");
            // Paper stays paper, and what was ink stays ink.
            for x in [105, 150, 250] {
                assert_eq!(second[dark].get_pixel(x, 100)[0], 0, "x {x}, block {block}");
            }
            for (a, b) in first.iter().zip(&second) {
                assert!(a.iter().zip(b.iter()).all(|(&a, &b)| a == 0 || b == 255));
            }
            // The dark page far from the block is no ink.
            assert_eq!(second[dark].get_pixel(20, 100)[0], 0, "block {block}");
        }
    }

    #[test]
    fn lines_are_ink_in_their_own_polarity_only() {
        // A dark line on grey paper and a light line beside it.
        let img = GrayImage::from_fn(200, 100, |x, _| match x {
            50..=52 => Luma([30]),
            150..=152 => Luma([250]),
            _ => Luma([128]),
        });
        let masks = ink_masks(&img);
        let dark = &masks[Polarity::DarkOnLight.index()];
        let light = &masks[Polarity::LightOnDark.index()];
        assert_eq!(dark.get_pixel(51, 50)[0], 255);
        assert_eq!(light.get_pixel(51, 50)[0], 0);
        assert_eq!(light.get_pixel(151, 50)[0], 255);
        assert_eq!(dark.get_pixel(151, 50)[0], 0);
        // Flat paper is neither.
        assert_eq!(dark.get_pixel(100, 50)[0], 0);
        assert_eq!(light.get_pixel(100, 50)[0], 0);
    }
}
