//! Reads one sudoku cell: empty, or a printed digit 1-9, with a confidence
//! and the runner-up.
//!
//! The model is a set of digit prototypes (nearest-prototype matching over
//! pixel and gradient-orientation features), built from digits rendered in
//! the fonts under `assets/fonts/` by `cargo run --release --example
//! build_model`, and bundled from `models/digits.bin`. Whether a cell is
//! empty is decided before matching, from the size, place and contrast of its
//! ink ([`prep`]): candidate marks and grid-line remnants read as empty.
//! Ink that matches no printed digit well (handwriting, smudges) also reads
//! as empty, with the closest digit as the runner-up.
//!
//! The model holds no pixels from photos. The empty rules and the acceptance
//! threshold were checked against real photos with `examples/classify_eval.rs`
//! (photos from the AlexKubiesa/sudoku-scanner project, MIT licence).

pub mod build;
pub mod prep;
pub mod synth;

use std::sync::OnceLock;

use image::GrayImage;
use rayon::prelude::*;

pub use build::{BuildConfig, TRAIN_FONTS, build_model};
use prep::{FEATURE_LEN, Prepared};

/// Dot product with independent lanes, so that it vectorises.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 16];
    let (ca, cb) = (a.chunks_exact(16), b.chunks_exact(16));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for i in 0..16 {
            acc[i] += x[i] * y[i];
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// What a cell shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellReading {
    /// 0 = empty, else the digit.
    pub value: u8,
    /// How sure the reading is, 0..=1.
    pub confidence: f32,
    /// The next most likely reading (0 = empty). For an empty cell with no
    /// digit-like ink this is 0 as well.
    pub runner_up: u8,
    /// Its confidence, 0..=1.
    pub runner_up_confidence: f32,
}

/// Why a model file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("not a digit model (bad magic)")]
    Magic,
    #[error("unsupported model version {0}")]
    Version(u32),
    #[error("model made for {found} features, this reader uses {expected}")]
    FeatureLen { found: usize, expected: usize },
    #[error("model file is truncated or has trailing bytes")]
    Size,
    #[error("model has a label outside 1..=9")]
    Label,
}

/// Below this confidence, ink is read as empty (with the digit as the
/// runner-up): a wrong digit is worse than a missing one. Checked on both
/// photo sets: blurred newspaper givens mostly score 0.35-0.5, while no
/// handwritten digit on the 12 MP photos is misread above 0.25.
pub const ACCEPT: f32 = 0.35;

pub(crate) const MAGIC: &[u8; 8] = b"SLDIGITS";
pub(crate) const VERSION: u32 = 1;

/// Digit prototypes and their calibration.
#[derive(Debug, Clone)]
pub struct Model {
    labels: Vec<u8>,
    /// `labels.len()` rows of FEATURE_LEN unit-length features.
    protos: Vec<f32>,
    /// Softness of the distance-to-probability mapping.
    tau: f32,
    /// Beyond this distance to the nearest prototype, ink is not a printed
    /// digit.
    reject: f32,
}

static BUNDLED: &[u8] = include_bytes!("../../../models/digits.bin");

impl Model {
    /// The model shipped in the crate, parsed once.
    pub fn load_bundled() -> &'static Model {
        static MODEL: OnceLock<Model> = OnceLock::new();
        MODEL.get_or_init(|| Model::from_bytes(BUNDLED).expect("bundled digit model is valid"))
    }

    /// Parses a model file (as written by [`build_model`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        let header = 8 + 4 * 6;
        if bytes.len() < header {
            return Err(ModelError::Size);
        }
        if &bytes[..8] != MAGIC {
            return Err(ModelError::Magic);
        }
        let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        let version = word(0);
        if version != VERSION {
            return Err(ModelError::Version(version));
        }
        let flen = word(1) as usize;
        if flen != FEATURE_LEN {
            return Err(ModelError::FeatureLen {
                found: flen,
                expected: FEATURE_LEN,
            });
        }
        let count = word(2) as usize;
        let tau = f32::from_bits(word(3));
        let reject = f32::from_bits(word(4));
        let scale = f32::from_bits(word(5));
        if bytes.len() != header + count * (1 + flen) {
            return Err(ModelError::Size);
        }
        let mut labels = Vec::with_capacity(count);
        let mut protos = Vec::with_capacity(count * flen);
        for row in bytes[header..].chunks_exact(1 + flen) {
            if !(1..=9).contains(&row[0]) {
                return Err(ModelError::Label);
            }
            labels.push(row[0]);
            let start = protos.len();
            protos.extend(row[1..].iter().map(|&q| q as f32 / scale));
            let norm = protos[start..].iter().map(|v| v * v).sum::<f32>().sqrt();
            if norm > 0.0 {
                protos[start..].iter_mut().for_each(|v| *v /= norm);
            }
        }
        Ok(Model {
            labels,
            protos,
            tau,
            reject,
        })
    }

    /// Number of prototypes.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Distance threshold beyond which ink is not taken for a printed digit.
    pub fn reject_distance(&self) -> f32 {
        self.reject
    }

    /// For each digit 1..=9 (index 0..9), the squared distance from the
    /// features to its nearest prototype.
    pub fn class_distances(&self, features: &[f32]) -> [f32; 9] {
        let mut best = [f32::INFINITY; 9];
        for (row, &label) in self.protos.chunks_exact(FEATURE_LEN).zip(&self.labels) {
            let dot = dot(row, features);
            let d = (2.0 - 2.0 * dot).max(0.0);
            let slot = &mut best[label as usize - 1];
            if d < *slot {
                *slot = d;
            }
        }
        best
    }

    /// Reads one cell crop.
    pub fn classify(&self, crop: &GrayImage) -> CellReading {
        self.read_prepared(&prep::prepare(crop))
    }

    /// Reads many cells in parallel; the result is in the input's order.
    pub fn classify_batch(&self, crops: &[GrayImage]) -> Vec<CellReading> {
        crops.par_iter().map(|c| self.classify(c)).collect()
    }

    /// Turns preprocessed ink into a reading.
    pub fn read_prepared(&self, prepared: &Prepared) -> CellReading {
        let ink = match prepared {
            Prepared::Empty { margin, .. } => {
                let confidence = 0.6 + 0.4 * margin;
                return CellReading {
                    value: 0,
                    confidence,
                    runner_up: 0,
                    runner_up_confidence: 1.0 - confidence,
                };
            }
            Prepared::Ink(ink) => ink,
        };
        let dist = self.class_distances(&ink.features);
        let (mut first, mut second) = (0usize, 1usize);
        if dist[second] < dist[first] {
            std::mem::swap(&mut first, &mut second);
        }
        for i in 2..9 {
            if dist[i] < dist[first] {
                second = first;
                first = i;
            } else if dist[i] < dist[second] {
                second = i;
            }
        }
        let dmin = dist[first];
        let weights: Vec<f32> = dist
            .iter()
            .map(|&d| (-(d - dmin) / self.tau).exp())
            .collect();
        let total: f32 = weights.iter().sum();
        let p_first = weights[first] / total;
        let p_second = weights[second] / total;
        // How well the best digit fits at all: 1 when close, 0 at `reject`.
        let fit = (1.0 - dmin / self.reject).clamp(0.0, 1.0);
        let confidence = p_first * fit;
        if confidence < ACCEPT {
            // Ink, but not clearly a printed digit (handwriting, smudges,
            // marks): empty, the closest digit next.
            return CellReading {
                value: 0,
                confidence: 1.0 - confidence,
                runner_up: first as u8 + 1,
                runner_up_confidence: confidence,
            };
        }
        let empty_conf = 1.0 - fit;
        let second_conf = p_second * fit;
        if empty_conf > second_conf {
            CellReading {
                value: first as u8 + 1,
                confidence,
                runner_up: 0,
                runner_up_confidence: empty_conf,
            }
        } else {
            CellReading {
                value: first as u8 + 1,
                confidence,
                runner_up: second as u8 + 1,
                runner_up_confidence: second_conf,
            }
        }
    }
}
