//! Building the digit and symbols models from fonts: render augmented
//! synthetic cells, extract features with the same preprocessing as
//! reading, reduce each class's samples to prototypes with k-means,
//! calibrate, and serialise.
//!
//! Deterministic: every sample's generator is seeded from (seed, class,
//! font, index), work is collected in a fixed order, and each k-means runs
//! sequentially, so the bytes do not depend on the thread count.

use ab_glyph::FontRef;
use rayon::prelude::*;

use sudoku_lens::rng::Rng;
use sudoku_lens::vision::cells::classify::prep::{FEATURE_LEN, Prepared, prepare_glyph};
use sudoku_lens::vision::cells::classify::{
    DIGIT_GLYPHS, Model, encode_model, encode_model_glyphs,
};

use crate::synth::{CellKind, Strength, render_cell};

/// Fonts (file names under `assets/fonts/`) the bundled model is built from.
pub const TRAIN_FONTS: &[&str] = &[
    "texgyretermes-regular.otf",
    "texgyretermes-bold.otf",
    "texgyreschola-regular.otf",
    "texgyreschola-bold.otf",
    "texgyrepagella-regular.otf",
    "Caladea-Regular.ttf",
    "Caladea-Bold.ttf",
    "DejaVuSerif.ttf",
    "texgyreheros-bold.otf",
    "LiberationSans-Regular.ttf",
    "Carlito-Regular.ttf",
];

/// Fonts (under `assets/fonts/`) that give the model only some digits: a
/// glyph form the training fonts lack, without the family's other digits
/// (B612's open-top 4, as printed in some newspapers; its other digits pull
/// blurred 6s towards 8).
pub const DIGIT_FONTS: &[(&str, &[u8])] = &[("B612-Regular.otf", &[4]), ("B612-Bold.otf", &[4])];

/// Fonts kept out of the build, for held-out checks.
pub const HELDOUT_FONTS: &[&str] = &["texgyrebonum-regular.otf", "DejaVuSans.ttf"];

/// Sizes of the bundled model's build.
#[derive(Debug, Clone)]
pub struct BuildConfig {
    pub seed: u64,
    /// Synthetic cells per (font, digit).
    pub samples: usize,
    /// Prototypes kept per digit.
    pub prototypes: usize,
    /// k-means iterations.
    pub iterations: usize,
}

impl Default for BuildConfig {
    fn default() -> Self {
        BuildConfig {
            seed: 20_261_123,
            samples: 60,
            prototypes: 80,
            iterations: 12,
        }
    }
}

impl BuildConfig {
    /// The symbols model's build (`models/symbols.bin`): the digit
    /// model's sizes, its own seed.
    pub fn symbols() -> BuildConfig {
        BuildConfig {
            seed: 20_261_204,
            ..BuildConfig::default()
        }
    }
}

/// Mixes indices into a seed.
pub fn sample_seed(seed: u64, a: u64, b: u64, c: u64) -> u64 {
    let mut r = Rng::new(seed ^ a.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    r.next_u64();
    let mut r = Rng::new(r.next_u64() ^ b.wrapping_mul(0xc2b2_ae3d_27d4_eb4f));
    r.next_u64();
    let mut r = Rng::new(r.next_u64() ^ c.wrapping_mul(0x1656_67b1_9e37_79f9));
    r.next_u64()
}

/// Synthetic crop size for a sample: the locator gives about 48-64 px.
pub fn sample_size(rng: &mut Rng) -> u32 {
    36 + rng.below(36)
}

/// Each class's `k` prototypes: k-means with `iterations` over its samples
/// (index 0 holds class 1's: the 1s), each class seeded from `seed`; a
/// class without samples gets none.
fn prototypes(
    per_digit: &[Vec<Vec<f32>>],
    seed: u64,
    k: usize,
    iterations: usize,
) -> Vec<(u8, Vec<f32>)> {
    per_digit
        .par_iter()
        .enumerate()
        .filter(|(_, samples)| !samples.is_empty())
        .map(|(i, samples)| {
            let mut rng = Rng::new(sample_seed(seed, 1000 + i as u64, 0, 0));
            kmeans(samples, k, iterations, &mut rng)
                .into_iter()
                .map(|c| (i as u8 + 1, c))
                .collect::<Vec<_>>()
        })
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect()
}

/// Whether a font restricted to `digits` (`None`: all) gives `glyph`.
fn gives(digits: Option<&[u8]>, glyph: char) -> bool {
    digits.is_none_or(|ds| glyph.to_digit(10).is_some_and(|d| ds.contains(&(d as u8))))
}

/// Features of every usable training cell of one class (`label`, 1 for
/// the first glyph; its cells show `glyph`), in a fixed order.
fn class_features(fonts: &[Face<'_>], label: u8, glyph: char, cfg: &BuildConfig) -> Vec<Vec<f32>> {
    let jobs: Vec<(usize, usize)> = (0..fonts.len())
        .filter(|&f| gives(fonts[f].digits, glyph))
        .flat_map(|f| (0..cfg.samples).map(move |i| (f, i)))
        .collect();
    jobs.par_iter()
        .filter_map(|&(f, i)| {
            let mut rng = Rng::new(sample_seed(cfg.seed, label as u64, f as u64, i as u64));
            let size = sample_size(&mut rng);
            let img = render_cell(
                &fonts[f].font,
                &CellKind::Symbol(glyph),
                size,
                &mut rng,
                Strength::Normal,
            );
            match prepare_glyph(&img) {
                // Training cells are drawn in place: one whose digit lands
                // off to the side is a drawing gone wrong, not a digit to
                // learn from, and the model learns from clearly inked cells.
                Prepared::Ink(ink) if !ink.shifted && !ink.faint => Some(ink.features),
                _ => None,
            }
        })
        .collect()
}

fn dist(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

/// Sequential k-means with a k-means++-style seeding from `rng`.
fn kmeans(samples: &[Vec<f32>], k: usize, iterations: usize, rng: &mut Rng) -> Vec<Vec<f32>> {
    let k = k.min(samples.len());
    let mut centres: Vec<Vec<f32>> = Vec::with_capacity(k);
    centres.push(samples[rng.below(samples.len() as u32) as usize].clone());
    let mut nearest: Vec<f32> = samples.iter().map(|s| dist(s, &centres[0])).collect();
    while centres.len() < k {
        let total: f64 = nearest.iter().map(|&d| d as f64).sum();
        let mut target = rng.unit() as f64 * total;
        let mut pick = samples.len() - 1;
        for (i, &d) in nearest.iter().enumerate() {
            target -= d as f64;
            if target <= 0.0 {
                pick = i;
                break;
            }
        }
        centres.push(samples[pick].clone());
        let c = centres.last().unwrap();
        for (s, n) in samples.iter().zip(nearest.iter_mut()) {
            *n = n.min(dist(s, c));
        }
    }
    for _ in 0..iterations {
        let mut sums = vec![vec![0f64; FEATURE_LEN]; k];
        let mut counts = vec![0usize; k];
        for s in samples {
            let (mut best, mut bd) = (0, f32::INFINITY);
            for (j, c) in centres.iter().enumerate() {
                let d = dist(s, c);
                if d < bd {
                    bd = d;
                    best = j;
                }
            }
            counts[best] += 1;
            for (acc, &v) in sums[best].iter_mut().zip(s) {
                *acc += v as f64;
            }
        }
        for j in 0..k {
            if counts[j] == 0 {
                continue;
            }
            let mut c: Vec<f32> = sums[j]
                .iter()
                .map(|&v| (v / counts[j] as f64) as f32)
                .collect();
            let norm = c.iter().map(|v| v * v).sum::<f32>().sqrt();
            if norm > 0.0 {
                c.iter_mut().for_each(|v| *v /= norm);
            }
            centres[j] = c;
        }
    }
    centres
}

/// A training font, and the digits taken from it (`None`: all).
struct Face<'a> {
    font: FontRef<'a>,
    digits: Option<&'a [u8]>,
}

/// Builds a model file from the given font files (TTF or OTF bytes).
pub fn build_model(fonts: &[Vec<u8>], cfg: &BuildConfig) -> Result<Vec<u8>, ab_glyph::InvalidFont> {
    build_model_with(fonts, &[], cfg)
}

/// [`build_model`] with fonts that give only some digits (font bytes and
/// the digits taken from it, as in [`DIGIT_FONTS`]).
pub fn build_model_with(
    fonts: &[Vec<u8>],
    digit_fonts: &[(Vec<u8>, &[u8])],
    cfg: &BuildConfig,
) -> Result<Vec<u8>, ab_glyph::InvalidFont> {
    build_glyph_model(DIGIT_GLYPHS, fonts, digit_fonts, cfg)
}

/// Builds a model whose classes are `glyphs` (class 1 the first; `0`-`9`
/// and `A`-`Z`, as [`encode_model_glyphs`] takes them) from the given font
/// files, and fonts that give only some digits (none of their letters or
/// 0). The digit model is the one of [`DIGIT_GLYPHS`], the symbols model
/// that of [`sudoku_lens::vision::cells::classify::SYMBOL_GLYPHS`].
pub fn build_glyph_model(
    glyphs: &str,
    fonts: &[Vec<u8>],
    digit_fonts: &[(Vec<u8>, &[u8])],
    cfg: &BuildConfig,
) -> Result<Vec<u8>, ab_glyph::InvalidFont> {
    let mut faces: Vec<Face<'_>> = Vec::with_capacity(fonts.len() + digit_fonts.len());
    for f in fonts {
        faces.push(Face {
            font: FontRef::try_from_slice(f)?,
            digits: None,
        });
    }
    for (f, digits) in digit_fonts {
        faces.push(Face {
            font: FontRef::try_from_slice(f)?,
            digits: Some(digits),
        });
    }
    let classes: Vec<(u8, char)> = glyphs.chars().zip(1u8..).map(|(g, l)| (l, g)).collect();
    let per_class: Vec<Vec<Vec<f32>>> = classes
        .iter()
        .map(|&(label, glyph)| class_features(&faces, label, glyph, cfg))
        .collect();
    let protos = prototypes(&per_class, cfg.seed, cfg.prototypes, cfg.iterations);
    // Calibrate on fresh cells of the same fonts (another seed): the
    // distance to the nearest prototype of the right class, and the gap to
    // the nearest wrong class.
    let draft = Model::from_bytes(&encode_model_glyphs(glyphs, &protos, 0.05, 1.0))
        .expect("fresh model parses");
    let calib_cfg = BuildConfig {
        seed: cfg.seed ^ 0xca11_b4a7,
        samples: (cfg.samples / 4).max(2),
        ..cfg.clone()
    };
    let mut right = Vec::new();
    let mut gaps = Vec::new();
    for &(label, glyph) in &classes {
        for f in class_features(&faces, label, glyph, &calib_cfg) {
            let dist = draft.class_distances(&f);
            let own = dist[label as usize - 1];
            let other = (0..dist.len())
                .filter(|&j| j != label as usize - 1)
                .map(|j| dist[j])
                .fold(f32::INFINITY, f32::min);
            right.push(own);
            gaps.push(other - own);
        }
    }
    right.sort_unstable_by(f32::total_cmp);
    gaps.sort_unstable_by(f32::total_cmp);
    let q = |v: &[f32], p: f32| v[((v.len() - 1) as f32 * p) as usize];
    // Reject well beyond what printed digits reach.
    let reject = q(&right, 0.99) * 1.3;
    // A median gap maps to a clear preference.
    let tau = (q(&gaps, 0.5) / 4.0).max(1e-4);
    Ok(encode_model_glyphs(glyphs, &protos, tau, reject))
}

/// Tiles a row in the handwriting atlas (`assets/handwriting/`).
pub const ATLAS_COLUMNS: usize = 25;

/// The handwriting atlases and their labels, under the repository's root.
pub const HAND_ATLASES: [(&str, &str); 2] = [
    (
        "assets/handwriting/kubiesa-train.png",
        "assets/handwriting/kubiesa-train.txt",
    ),
    (
        "assets/handwriting/kubiesa-val.png",
        "assets/handwriting/kubiesa-val.txt",
    ),
];

/// Sizes of the handwriting model's build.
#[derive(Debug, Clone)]
pub struct HandConfig {
    pub seed: u64,
    /// Each tile is also learnt turned by these angles (degrees): a
    /// player's slant varies from digit to digit.
    pub angles: &'static [f32],
    /// Prototypes kept per digit (k-means over its tiles' features).
    pub prototypes: usize,
    /// k-means iterations.
    pub iterations: usize,
}

impl Default for HandConfig {
    fn default() -> Self {
        HandConfig {
            seed: 20_261_126,
            angles: &[0.0, -6.0, 6.0],
            prototypes: 60,
            iterations: 12,
        }
    }
}

/// The tiles of one of [`HAND_ATLASES`] (its image and labels, paths under
/// `root`), in the atlas's order: see [`atlas_tiles`].
pub fn read_hand_atlas(
    root: &std::path::Path,
    (png, txt): (&str, &str),
) -> Result<Vec<(image::GrayImage, u8)>, String> {
    let atlas = image::open(root.join(png))
        .map_err(|e| format!("{png}: {e}"))?
        .to_luma8();
    let labels = std::fs::read_to_string(root.join(txt)).map_err(|e| format!("{txt}: {e}"))?;
    atlas_tiles(&atlas, &labels).map_err(|e| format!("{png}: {e}"))
}

/// The tiles of a handwriting atlas (WORK x WORK working images,
/// [`ATLAS_COLUMNS`] a row) with their labels (one digit per tile, rows of
/// text in the atlas's order).
pub fn atlas_tiles(
    atlas: &image::GrayImage,
    labels: &str,
) -> Result<Vec<(image::GrayImage, u8)>, String> {
    use sudoku_lens::vision::cells::classify::prep::WORK;
    let side = WORK as u32;
    let labels: Vec<u8> = labels
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '1'..='9' => Ok(c as u8 - b'0'),
            _ => Err(format!("`{c}` is not a digit label (1-9)")),
        })
        .collect::<Result<_, _>>()?;
    let rows = labels.len().div_ceil(ATLAS_COLUMNS) as u32;
    if atlas.width() != side * ATLAS_COLUMNS as u32 || atlas.height() != side * rows {
        return Err(format!(
            "the atlas is {}x{}, {} labels need {}x{}",
            atlas.width(),
            atlas.height(),
            labels.len(),
            side * ATLAS_COLUMNS as u32,
            side * rows
        ));
    }
    Ok(labels
        .iter()
        .enumerate()
        .map(|(i, &label)| {
            let (col, row) = ((i % ATLAS_COLUMNS) as u32, (i / ATLAS_COLUMNS) as u32);
            let tile =
                image::imageops::crop_imm(atlas, col * side, row * side, side, side).to_image();
            (tile, label)
        })
        .collect())
}

/// The tiles side by side, [`ATLAS_COLUMNS`] a row, and their labels, one
/// line of digits per row of tiles: the atlas [`atlas_tiles`] reads back.
pub fn tile_atlas(tiles: &[(image::GrayImage, u8)]) -> (image::GrayImage, String) {
    use sudoku_lens::vision::cells::classify::prep::WORK;
    let side = WORK as u32;
    let rows = tiles.len().div_ceil(ATLAS_COLUMNS) as u32;
    let mut img =
        image::GrayImage::from_pixel(side * ATLAS_COLUMNS as u32, side * rows, image::Luma([255]));
    let mut labels = String::new();
    for (i, (tile, label)) in tiles.iter().enumerate() {
        let (col, row) = ((i % ATLAS_COLUMNS) as u32, (i / ATLAS_COLUMNS) as u32);
        image::imageops::replace(&mut img, tile, (col * side) as i64, (row * side) as i64);
        labels.push(char::from(b'0' + label));
        if col as usize + 1 == ATLAS_COLUMNS || i + 1 == tiles.len() {
            labels.push('\n');
        }
    }
    (img, labels)
}

/// Builds the handwriting model (`models/handwriting.bin`, the format of
/// [`encode_model`]) from handwriting tiles and their digits (see
/// [`read_hand_atlas`]). Tiles whose ink preprocessing does not keep as a
/// central digit are skipped; a digit without tiles has no prototype (the
/// reader then has only the printed model's for it).
pub fn build_hand_model(
    tiles: &[(image::GrayImage, u8)],
    cfg: &HandConfig,
) -> Result<Vec<u8>, String> {
    use imageproc::geometric_transformations::{Border, Interpolation, rotate_about_center};
    let jobs: Vec<(usize, f32)> = (0..tiles.len())
        .flat_map(|i| cfg.angles.iter().map(move |&a| (i, a)))
        .collect();
    let feats: Vec<Option<Vec<f32>>> = jobs
        .par_iter()
        .map(|&(i, angle)| {
            let tile = &tiles[i].0;
            let tile = if angle == 0.0 {
                tile.clone()
            } else {
                // The corners turned in are the paper's grey, so that the
                // tile keeps its polarity.
                let mut v: Vec<u8> = tile.as_raw().clone();
                v.sort_unstable();
                let paper = image::Luma([v[v.len() / 2]]);
                rotate_about_center(
                    tile,
                    angle.to_radians(),
                    Interpolation::Bilinear,
                    Border::Constant(paper),
                )
            };
            match prepare_glyph(&tile) {
                Prepared::Ink(ink) if !ink.faint => Some(ink.features),
                _ => None,
            }
        })
        .collect();
    let mut per_digit: Vec<Vec<Vec<f32>>> = vec![Vec::new(); 9];
    for ((i, _), f) in jobs.iter().zip(feats) {
        if let Some(f) = f {
            per_digit[tiles[*i].1 as usize - 1].push(f);
        }
    }
    if per_digit.iter().all(|s| s.is_empty()) {
        return Err("no usable tile in the atlas".into());
    }
    let protos = prototypes(&per_digit, cfg.seed, cfg.prototypes, cfg.iterations);
    // The reader maps handwriting's distances with its own softness
    // (`vision::cells::entries::HAND_TAU`) and rejects nothing by distance.
    Ok(encode_model(
        &protos,
        sudoku_lens::vision::cells::entries::HAND_TAU,
        2.0,
    ))
}
