//! Reads one sudoku cell: empty, or a printed digit 1-9, with a confidence
//! and the runner-up.
//!
//! The model is a set of digit prototypes (nearest-prototype matching over
//! pixel and gradient-orientation features, [`prep::Ink::features`]), built
//! from digits rendered in the fonts under `assets/fonts/` by `cargo run
//! --release -p sudoku-lens-tools --bin build_model`, and bundled from
//! `models/digits.bin` (format: [`encode_model`]). Whether a cell is
//! empty is decided before matching, from the size, place and contrast of its
//! ink ([`prep`]): candidate marks and grid-line remnants read as empty.
//! Ink that matches no printed digit well (handwriting, smudges) also reads
//! as empty, with the closest digit as the runner-up.
//!
//! The model holds no pixels from photos. The empty rules and the acceptance
//! threshold were checked against real photos with the `classify_eval` tool
//! (`tools/src/bin/classify_eval.rs`; photos from the AlexKubiesa/sudoku-scanner
//! project, MIT licence).

pub mod prep;

use std::sync::OnceLock;

use image::GrayImage;
use rayon::prelude::*;

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

/// The first bytes of a model file.
const MAGIC: &[u8; 8] = b"SLDIGITS";
/// The model file format's version.
const VERSION: u32 = 1;
/// Bytes before the first prototype: the magic and six 32-bit words.
const HEADER_LEN: usize = 8 + 4 * 6;

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
static HANDWRITING: &[u8] = include_bytes!("../../../models/handwriting.bin");

impl Model {
    /// The model shipped in the crate, parsed once.
    pub fn load_bundled() -> &'static Model {
        static MODEL: OnceLock<Model> = OnceLock::new();
        MODEL.get_or_init(|| Model::from_bytes(BUNDLED).expect("bundled digit model is valid"))
    }

    /// The handwriting model shipped in the crate (prototypes of players'
    /// digits, for reading entries; see `vision::entries`), parsed once. It
    /// may lack some digits: the printed model stands in for those.
    pub fn load_handwriting() -> &'static Model {
        static MODEL: OnceLock<Model> = OnceLock::new();
        MODEL.get_or_init(|| {
            Model::from_bytes(HANDWRITING).expect("bundled handwriting model is valid")
        })
    }

    /// Parses a model file (as written by [`encode_model`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        let header = HEADER_LEN;
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

    /// Whether the model has prototypes of `digit` (1..=9): the
    /// handwriting model lacks some.
    pub fn knows(&self, digit: u8) -> bool {
        self.labels.contains(&digit)
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

    /// Reads the cells of one grid, in parallel; the result is in the
    /// input's order.
    ///
    /// The cells of one photo share its print and its blur, so a digit is
    /// also judged against the page: ink that fits the digits' prototypes
    /// about as well as the page's clearly read digits do (within
    /// [`PAGE_FIT`] times their median distance, and never beyond
    /// [`PAGE_MAX_DISTANCE`]) is read as a digit even when its confidence is
    /// under [`ACCEPT`]: a soft, low-resolution print is then not mistaken
    /// for an empty cell, while handwriting beside sharp print stays empty.
    /// Such readings keep their low confidence, so they count as uncertain.
    pub fn classify_batch(&self, crops: &[GrayImage]) -> Vec<CellReading> {
        let prepared: Vec<Prepared> = crops.par_iter().map(prep::prepare).collect();
        self.read_page(&prepared)
    }

    /// [`Model::classify_batch`] for cells already prepared.
    pub fn read_page(&self, prepared: &[Prepared]) -> Vec<CellReading> {
        let scored: Vec<Scored> = prepared
            .par_iter()
            .map(|p| match p {
                Prepared::Ink(ink) => self.score(ink),
                Prepared::Empty { margin, near, .. } => self.score_empty(*margin, near.as_deref()),
            })
            .collect();
        let limit = page_limit(&scored);
        scored
            .iter()
            .map(|s| s.reading(s.ink && s.dmin <= limit))
            .collect()
    }

    /// Turns preprocessed ink into a reading.
    pub fn read_prepared(&self, prepared: &Prepared) -> CellReading {
        match prepared {
            Prepared::Empty { margin, near, .. } => {
                self.score_empty(*margin, near.as_deref()).reading(false)
            }
            Prepared::Ink(ink) => self.score(ink).reading(false),
        }
    }

    /// An empty cell; with ink near to passing as a digit, its nearest
    /// digit as the runner-up.
    fn score_empty(&self, margin: f32, near: Option<&prep::Ink>) -> Scored {
        let mut s = Scored::empty(margin);
        if let Some(ink) = near {
            s.first = self.score(ink).first;
        }
        s
    }

    /// The nearest digits to some ink, and how well they fit.
    fn score(&self, ink: &prep::Ink) -> Scored {
        let dist = self.class_distances(&ink.features);
        let ranked = rank(&dist, self.tau);
        let dmin = dist[ranked.first as usize - 1];
        let fade = if ink.faint {
            (ink.contrast / prep::MIN_CONTRAST).min(1.0)
        } else {
            1.0
        };
        Scored {
            ink: true,
            first: ranked.first,
            second: ranked.second,
            dmin,
            p_first: ranked.p_first,
            p_second: ranked.p_second,
            // How well the best digit fits at all: 1 when close, 0 at
            // `reject`; faint ink is less sure in proportion.
            fit: (1.0 - dmin / self.reject).clamp(0.0, 1.0) * fade,
        }
    }
}

/// The two nearest digits to some ink by their class distances (`dist[d -
/// 1]` for digit d), with their probabilities: each distance mapped
/// through `exp(-(d - nearest) / tau)` and normalised over the nine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranked {
    pub first: u8,
    pub second: u8,
    pub p_first: f32,
    pub p_second: f32,
}

/// Ranks the class distances `dist` (see [`Ranked`]); ties go to the
/// smaller digit.
pub fn rank(dist: &[f32; 9], tau: f32) -> Ranked {
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
    let total: f32 = dist.iter().map(|&d| (-(d - dmin) / tau).exp()).sum();
    Ranked {
        first: first as u8 + 1,
        second: second as u8 + 1,
        p_first: 1.0 / total,
        p_second: (-(dist[second] - dmin) / tau).exp() / total,
    }
}

/// Writes a model file: the digit prototypes (label 1-9 and
/// [`FEATURE_LEN`] features each, as [`prep::Ink::features`] gives them), the
/// softness `tau` of the distance-to-probability mapping, and the `reject`
/// distance beyond which ink is not a printed digit.
///
/// The format, read back by [`Model::from_bytes`]: the 8 bytes `SLDIGITS`;
/// six little-endian 32-bit words: the format version (1), the feature
/// length, the prototype count, then `tau`, `reject` and the quantisation
/// scale as `f32` bits; then per prototype its label byte and one byte per
/// feature, the feature times the scale, rounded (the scale maps the largest
/// feature of the file to 255). Reading divides by the scale and brings
/// each prototype back to unit length.
///
/// # Panics
///
/// On a prototype whose label is not 1-9 or whose length is not
/// [`FEATURE_LEN`]: that would write a file no reader accepts.
pub fn encode_model(prototypes: &[(u8, Vec<f32>)], tau: f32, reject: f32) -> Vec<u8> {
    for (label, p) in prototypes {
        assert!(
            (1..=9).contains(label) && p.len() == FEATURE_LEN,
            "a prototype of label {label} with {} features: labels are 1-9, features {FEATURE_LEN}",
            p.len()
        );
    }
    let max = prototypes
        .iter()
        .flat_map(|(_, p)| p.iter().copied())
        .fold(0f32, f32::max)
        .max(1e-6);
    let scale = 255.0 / max;
    let mut out = Vec::with_capacity(HEADER_LEN + prototypes.len() * (1 + FEATURE_LEN));
    out.extend_from_slice(MAGIC);
    for w in [
        VERSION,
        FEATURE_LEN as u32,
        prototypes.len() as u32,
        tau.to_bits(),
        reject.to_bits(),
        scale.to_bits(),
    ] {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for (label, p) in prototypes {
        out.push(*label);
        out.extend(
            p.iter()
                .map(|&v| (v * scale).round().clamp(0.0, 255.0) as u8),
        );
    }
    out
}

/// Page-relative acceptance (see [`Model::classify_batch`]): how much farther
/// from its prototype than the page's median digit a digit may be.
pub const PAGE_FIT: f32 = 3.0;
/// ... and the farthest it may be in any case. On the blurriest newspaper
/// photos a printed given sits 0.26-0.30 from its nearest prototype; at 0.25
/// such a given read as empty left the puzzle with several solutions, which
/// the solver check then pinned down with wrong digits.
pub const PAGE_MAX_DISTANCE: f32 = 0.3;
/// Below this many clearly read digits the page sets no reference.
pub const PAGE_MIN_DIGITS: usize = 5;

/// How far from its prototype soft ink may be and still be read as a digit
/// on this page; negative when the page sets no reference.
fn page_limit(scored: &[Scored]) -> f32 {
    let mut accepted: Vec<f32> = scored
        .iter()
        .filter(|s| s.ink && s.confidence() >= ACCEPT)
        .map(|s| s.dmin)
        .collect();
    if accepted.len() < PAGE_MIN_DIGITS {
        return -1.0;
    }
    let mid = accepted.len() / 2;
    let (_, median, _) = accepted.select_nth_unstable_by(mid, f32::total_cmp);
    (*median * PAGE_FIT).min(PAGE_MAX_DISTANCE)
}

/// A cell's nearest digits before the decision between digit and empty.
#[derive(Debug, Clone, Copy)]
struct Scored {
    /// False for a cell the preprocessing found empty (`fit` then holds the
    /// margin by which it is empty).
    ink: bool,
    first: u8,
    second: u8,
    dmin: f32,
    p_first: f32,
    p_second: f32,
    fit: f32,
}

impl Scored {
    fn empty(margin: f32) -> Scored {
        Scored {
            ink: false,
            first: 0,
            second: 0,
            dmin: f32::INFINITY,
            p_first: 0.0,
            p_second: 0.0,
            fit: margin,
        }
    }

    fn confidence(&self) -> f32 {
        self.p_first * self.fit
    }

    /// The reading; `accept` takes the digit even under [`ACCEPT`].
    fn reading(&self, accept: bool) -> CellReading {
        if !self.ink {
            let confidence = 0.6 + 0.4 * self.fit;
            return CellReading {
                value: 0,
                confidence,
                runner_up: self.first,
                runner_up_confidence: 1.0 - confidence,
            };
        }
        let confidence = self.confidence();
        if confidence < ACCEPT && !accept {
            // Ink, but not clearly a printed digit (handwriting, smudges,
            // marks): empty, the closest digit next.
            return CellReading {
                value: 0,
                confidence: 1.0 - confidence,
                runner_up: self.first,
                runner_up_confidence: confidence,
            };
        }
        let empty_conf = 1.0 - self.fit;
        let second_conf = self.p_second * self.fit;
        // An unsure digit names the next digit even when empty is likelier:
        // the solver check tries empty for such a reading anyway, and a
        // blurred 6 read as a 5 can only be mended if the 6 is offered.
        if empty_conf > second_conf && confidence >= crate::vision::read::UNCERTAIN_BELOW {
            CellReading {
                value: self.first,
                confidence,
                runner_up: 0,
                runner_up_confidence: empty_conf,
            }
        } else {
            CellReading {
                value: self.first,
                confidence,
                runner_up: self.second,
                runner_up_confidence: second_conf,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_encoded_model_reads_back() {
        let mut a = vec![0f32; FEATURE_LEN];
        a[0] = 1.0;
        let mut b = vec![0f32; FEATURE_LEN];
        b[1] = 0.6;
        b[2] = 0.8;
        let bytes = encode_model(&[(3, a.clone()), (7, b.clone())], 0.05, 0.9);
        assert_eq!(bytes.len(), HEADER_LEN + 2 * (1 + FEATURE_LEN));
        let model = Model::from_bytes(&bytes).unwrap();
        assert_eq!(model.len(), 2);
        assert_eq!(model.reject_distance(), 0.9);
        let d = model.class_distances(&a);
        assert!(d[2] < 1e-4, "a is the 3's prototype: {d:?}");
        assert!(
            (d[6] - 2.0).abs() < 1e-3,
            "the 7's is at right angles: {d:?}"
        );
        assert!(d[0].is_infinite(), "no prototype of 1: {d:?}");
        assert!(model.class_distances(&b)[6] < 1e-4);
    }

    /// Ink at distance `dmin` read with confidence `confidence`.
    fn ink(dmin: f32, confidence: f32) -> Scored {
        Scored {
            ink: true,
            first: 6,
            second: 5,
            dmin,
            p_first: 1.0,
            p_second: 0.0,
            fit: confidence,
        }
    }

    fn page(dmin: f32, extra: Scored) -> Vec<Scored> {
        let mut cells = vec![ink(dmin, 0.9); PAGE_MIN_DIGITS];
        cells.push(Scored::empty(1.0));
        cells.push(extra);
        cells
    }

    fn accepted(cells: &[Scored]) -> bool {
        let limit = page_limit(cells);
        let last = cells.last().unwrap();
        last.reading(last.ink && last.dmin <= limit).value != 0
    }

    #[test]
    fn soft_ink_is_read_like_its_page() {
        // Blurry print: the page's digits are all far from the prototypes.
        assert!(accepted(&page(0.06, ink(0.15, ACCEPT - 0.1))));
        // Sharp print: the same ink is foreign to the page (handwriting).
        assert!(!accepted(&page(0.03, ink(0.15, ACCEPT - 0.1))));
        // The blurriest print: a given far from its prototype is still read.
        assert!(accepted(&page(0.1, ink(0.28, 0.1))));
        // Never beyond the absolute limit, however blurry the page.
        assert!(!accepted(&page(0.1, ink(PAGE_MAX_DISTANCE + 0.01, 0.1))));
        // Too few clear digits set no reference.
        let mut few = page(0.06, ink(0.15, ACCEPT - 0.1));
        few.drain(..2);
        assert!(!accepted(&few));
        // A confident digit needs no page.
        assert!(accepted(
            &few[..0]
                .iter()
                .copied()
                .chain([ink(0.3, 0.9)])
                .collect::<Vec<_>>()
        ));
        // Empty cells stay empty.
        assert!(!accepted(&page(0.06, Scored::empty(0.1))));
    }

    #[test]
    fn an_unsure_digit_names_the_next_digit() {
        let unsure = Scored {
            ink: true,
            first: 5,
            second: 6,
            dmin: 0.12,
            p_first: 0.5,
            p_second: 0.4,
            fit: 0.5,
        };
        let r = unsure.reading(true);
        assert_eq!((r.value, r.runner_up), (5, 6), "{r:?}");
        // A sure digit keeps empty as its runner-up when that is likelier.
        let sure = Scored {
            p_first: 0.95,
            p_second: 0.04,
            fit: 0.85,
            ..unsure
        };
        let r = sure.reading(true);
        assert_eq!((r.value, r.runner_up), (5, 0), "{r:?}");
    }

    #[test]
    fn page_readings_keep_a_low_confidence() {
        let cells = page(0.06, ink(0.15, ACCEPT - 0.1));
        let r = cells[cells.len() - 1].reading(true);
        assert_eq!(r.value, 6);
        assert!(r.confidence < ACCEPT);
        assert!(r.confidence < crate::vision::read::UNCERTAIN_BELOW);
    }
}
