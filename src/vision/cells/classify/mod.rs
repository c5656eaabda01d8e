//! Reads one sudoku cell: empty, or a printed symbol (a digit 1-9, or a
//! letter of a 12x12 or 16x16 grid), with a confidence and the runner-up.
//!
//! A model is a set of prototypes of its classes, each class a glyph
//! (nearest-prototype matching over pixel and gradient-orientation
//! features, [`prep::Ink::features`]), built from glyphs rendered in the
//! fonts under `assets/fonts/` by `cargo run --release -p
//! sudoku-lens-tools --bin build_model`. Two are bundled: the digit model
//! (`models/digits.bin`, the classes 1-9), and the symbols model
//! (`models/symbols.bin`, [`SYMBOL_GLYPHS`]: 1-9, A-P and the hexadecimal
//! 0), for layouts with more than nine symbols ([`Model::for_size`]); the
//! format is [`encode_model_glyphs`]'s. A reading's value is the class
//! (1-based: the first glyph is 1), which for the digit model is the digit
//! itself; [`Model::glyph`] names it. Whether a cell is
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

use crate::vision::page::num::median_of;

/// The most classes a model may have: one per character `0`-`9`, `A`-`Z`.
/// Class distances live in an array of this size, so that reading a cell
/// allocates nothing whatever the model.
pub const MAX_CLASSES: usize = 36;

/// The digit model's glyphs: class d is the digit d.
pub const DIGIT_GLYPHS: &str = "123456789";

/// The symbols model's glyphs, in class order: the digits (so that class d
/// is still the digit d), the letters of a 16x16 grid written `1`-`9`,
/// `A`-`G`, the `0` of one written in hexadecimal, and the letters a 25x25
/// grid adds (`H`-`P`). A layout reads only the classes of its own symbols
/// (a 16x16 no `H`): see `vision::read`.
pub const SYMBOL_GLYPHS: &str = "123456789ABCDEFG0HIJKLMNOP";

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
    #[error("model has a label outside its classes")]
    Label,
    #[error("model has no classes, more than {MAX_CLASSES}, or a glyph twice or outside 0-9, A-Z")]
    Glyphs,
}

/// Below this confidence, ink is read as empty (with the digit as the
/// runner-up): a wrong digit is worse than a missing one. Checked on both
/// photo sets: blurred newspaper givens mostly score 0.35-0.5, while no
/// handwritten digit on the 12 MP photos is misread above 0.25.
pub const ACCEPT: f32 = 0.35;

/// A cell the preparation found empty is read empty with a confidence
/// from EMPTY_SURE_LEAST (its ink just past a limit of a digit's shape)
/// to EMPTY_SURE_LEAST + EMPTY_SURE_BY_MARGIN = 1 (far past it), by its
/// margin ([`prep::Prepared::Empty`]): one just past the limit is then
/// under [`UNCERTAIN_BELOW`], and reported as unsure when its ink had a
/// digit's look (a runner-up).
const EMPTY_SURE_LEAST: f32 = 0.6;
const EMPTY_SURE_BY_MARGIN: f32 = 0.4;

/// Cells read with less confidence than this are reported as uncertain
/// (by the reader, and to the solver's check of a reading).
pub const UNCERTAIN_BELOW: f32 = 0.75;

/// The first bytes of a model file.
const MAGIC: &[u8; 8] = b"SLDIGITS";
/// The model file format's version for the digits 1-9 (the classes go
/// unnamed).
const VERSION: u32 = 1;
/// The version whose header names the classes' glyphs.
const VERSION_GLYPHS: u32 = 2;
/// Bytes before the first prototype (version 1) or before the class count
/// (version 2): the magic and six 32-bit words.
const HEADER_LEN: usize = 8 + 4 * 6;

/// A set of a model's classes: bit `c - 1` for class `c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classes(u64);

impl Classes {
    /// Every class of a model with `count` classes.
    pub fn all(count: usize) -> Classes {
        Classes(if count >= 64 {
            u64::MAX
        } else {
            (1u64 << count) - 1
        })
    }

    /// Whether class `class` (1-based) is in the set.
    pub fn contains(self, class: u8) -> bool {
        (1..=64).contains(&class) && self.0 & (1u64 << (class - 1)) != 0
    }

    fn with(self, class: usize) -> Classes {
        Classes(self.0 | 1u64 << class)
    }
}

/// Each class's squared distance from some features to its nearest
/// prototype (index c - 1 for class c; infinite for a class without
/// prototypes or left out), as many as the model has classes.
#[derive(Clone, Copy, Debug)]
pub struct Distances {
    d: [f32; MAX_CLASSES],
    len: usize,
}

impl std::ops::Deref for Distances {
    type Target = [f32];
    fn deref(&self) -> &[f32] {
        &self.d[..self.len]
    }
}

impl std::ops::DerefMut for Distances {
    fn deref_mut(&mut self) -> &mut [f32] {
        &mut self.d[..self.len]
    }
}

impl IntoIterator for Distances {
    type Item = f32;
    type IntoIter = std::iter::Take<std::array::IntoIter<f32, MAX_CLASSES>>;
    fn into_iter(self) -> Self::IntoIter {
        self.d.into_iter().take(self.len)
    }
}

/// Prototypes of a model's classes and their calibration.
#[derive(Debug, Clone)]
pub struct Model {
    /// Class c's glyph is `glyphs[c - 1]`.
    glyphs: Vec<u8>,
    labels: Vec<u8>,
    /// `labels.len()` rows of FEATURE_LEN unit-length features.
    protos: Vec<f32>,
    /// Softness of the distance-to-probability mapping.
    tau: f32,
    /// Beyond this distance to the nearest prototype, ink is not a printed
    /// digit.
    reject: f32,
}

static BUNDLED: &[u8] = include_bytes!("../../../../models/digits.bin");
static HANDWRITING: &[u8] = include_bytes!("../../../../models/handwriting.bin");
static SYMBOLS: &[u8] = include_bytes!("../../../../models/symbols.bin");

impl Model {
    /// The model shipped in the crate, parsed once.
    pub fn load_bundled() -> &'static Model {
        static MODEL: OnceLock<Model> = OnceLock::new();
        MODEL.get_or_init(|| Model::from_bytes(BUNDLED).expect("bundled digit model is valid"))
    }

    /// The handwriting model shipped in the crate (prototypes of players'
    /// digits, for reading entries; see `vision::cells::entries`), parsed once. It
    /// may lack some digits: the printed model stands in for those.
    pub fn load_handwriting() -> &'static Model {
        static MODEL: OnceLock<Model> = OnceLock::new();
        MODEL.get_or_init(|| {
            Model::from_bytes(HANDWRITING).expect("bundled handwriting model is valid")
        })
    }

    /// The symbols model shipped in the crate (the classes of
    /// [`SYMBOL_GLYPHS`]), parsed once.
    pub fn load_symbols() -> &'static Model {
        static MODEL: OnceLock<Model> = OnceLock::new();
        MODEL.get_or_init(|| Model::from_bytes(SYMBOLS).expect("bundled symbols model is valid"))
    }

    /// The bundled model that reads a layout of `size` symbols: the digit
    /// model when its glyphs are every symbol of the layout, else the
    /// symbols model.
    pub fn for_size(size: usize) -> &'static Model {
        let digits = Model::load_bundled();
        if size <= digits.glyphs.len() {
            digits
        } else {
            Model::load_symbols()
        }
    }

    /// Parses a model file (as written by [`encode_model_glyphs`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        let mut header = HEADER_LEN;
        if bytes.len() < header {
            return Err(ModelError::Size);
        }
        if &bytes[..8] != MAGIC {
            return Err(ModelError::Magic);
        }
        let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        let version = word(0);
        let glyphs: Vec<u8> = match version {
            VERSION => DIGIT_GLYPHS.as_bytes().to_vec(),
            VERSION_GLYPHS => {
                let count = bytes
                    .get(header..header + 4)
                    .ok_or(ModelError::Size)?
                    .try_into()
                    .map(u32::from_le_bytes)
                    .map_err(|_| ModelError::Size)? as usize;
                if count > MAX_CLASSES {
                    return Err(ModelError::Glyphs);
                }
                let glyphs = bytes
                    .get(header + 4..header + 4 + count)
                    .ok_or(ModelError::Size)?
                    .to_vec();
                header += 4 + count;
                glyphs
            }
            _ => return Err(ModelError::Version(version)),
        };
        if !valid_glyphs(&glyphs) {
            return Err(ModelError::Glyphs);
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
        if count
            .checked_mul(1 + flen)
            .and_then(|b| b.checked_add(header))
            != Some(bytes.len())
        {
            return Err(ModelError::Size);
        }
        let mut labels = Vec::with_capacity(count);
        let mut protos = Vec::with_capacity(count * flen);
        for row in bytes[header..].chunks_exact(1 + flen) {
            if !(1..=glyphs.len()).contains(&(row[0] as usize)) {
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
            glyphs,
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

    /// Number of classes.
    pub fn class_count(&self) -> usize {
        self.glyphs.len()
    }

    /// The glyph of class `class` (1-based): `'1'`-`'9'`, `'A'`, ...;
    /// `None` for 0 (empty) or a class the model does not have.
    pub fn glyph(&self, class: u8) -> Option<char> {
        let i = (class as usize).checked_sub(1)?;
        self.glyphs.get(i).map(|&g| g as char)
    }

    /// Every class of the model.
    pub fn all_classes(&self) -> Classes {
        Classes::all(self.glyphs.len())
    }

    /// The classes whose glyph `keep` accepts.
    pub fn classes_where(&self, keep: impl Fn(char) -> bool) -> Classes {
        self.glyphs
            .iter()
            .enumerate()
            .filter(|(_, g)| keep(**g as char))
            .fold(Classes(0), |set, (i, _)| set.with(i))
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

    /// For each class (index c - 1 for class c; for the digit model, digit
    /// d at d - 1), the squared distance from the features to its nearest
    /// prototype.
    pub fn class_distances(&self, features: &[f32]) -> Distances {
        self.distances_among(features, self.all_classes())
    }

    /// [`Model::class_distances`] of the classes in `among` only; the
    /// others are infinitely far.
    pub fn distances_among(&self, features: &[f32], among: Classes) -> Distances {
        let mut best = Distances {
            d: [f32::INFINITY; MAX_CLASSES],
            len: self.glyphs.len(),
        };
        for (row, &label) in self.protos.chunks_exact(FEATURE_LEN).zip(&self.labels) {
            if !among.contains(label) {
                continue;
            }
            let dot = dot(row, features);
            let d = (2.0 - 2.0 * dot).max(0.0);
            let slot = &mut best.d[label as usize - 1];
            if d < *slot {
                *slot = d;
            }
        }
        best
    }

    /// Reads one cell crop.
    pub fn classify(&self, crop: &GrayImage) -> CellReading {
        self.read_prepared(&self.prepare(crop))
    }

    /// [`Model::classify_batch`] among some classes only: a cell's reading
    /// and runner-up are of those classes.
    pub fn classify_batch_among(&self, crops: &[GrayImage], among: Classes) -> Vec<CellReading> {
        let prepared: Vec<Prepared> = crops.par_iter().map(|c| self.prepare(c)).collect();
        self.read_page_among(&prepared, among)
    }

    /// Prepares a crop for this model: with [`prep::prepare_letters`] when
    /// its glyphs include letters (wide capitals are symbols), else
    /// [`prep::prepare`].
    pub fn prepare(&self, crop: &GrayImage) -> Prepared {
        if self.glyphs.iter().any(|g| g.is_ascii_alphabetic()) {
            prep::prepare_letters(crop)
        } else {
            prep::prepare(crop)
        }
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
    /// And ink taller than the page's print and farther from the
    /// prototypes is no given, however sure its digit (see [`PRINT_TALLER_AT_PAR`]):
    /// a player's large digit that happens to look like type. Nor is ink
    /// fainter than the print and unlike the page's own print of its digit
    /// (see [`PRINT_FAINTER`]): a player's pencil digit of the type's height.
    /// Nor, on a page a player has written on, is ink wider and fainter
    /// than the page's print of its digit (see [`PRINT_WIDER`]): a player's
    /// plain 7, as near the type's and as tall.
    pub fn classify_batch(&self, crops: &[GrayImage]) -> Vec<CellReading> {
        let prepared: Vec<Prepared> = crops.par_iter().map(|c| self.prepare(c)).collect();
        self.read_page(&prepared)
    }

    /// [`Model::classify_batch`] for cells already prepared.
    pub fn read_page(&self, prepared: &[Prepared]) -> Vec<CellReading> {
        self.read_page_among(prepared, self.all_classes())
    }

    /// [`Model::read_page`] among the classes `among` only.
    pub fn read_page_among(&self, prepared: &[Prepared], among: Classes) -> Vec<CellReading> {
        let scored: Vec<Scored> = prepared
            .par_iter()
            .map(|p| match p {
                Prepared::Ink(ink) => self.score(ink, among),
                Prepared::Empty { margin, near, .. } => {
                    self.score_empty(*margin, near.as_deref(), among)
                }
            })
            .collect();
        let limit = page_limit(&scored);
        let print = PagePrint::of(&scored);
        let typical = print.map_or_else(Vec::new, |p| typical_print(&p, &scored, prepared));
        // The spread of the page's print of each digit is measured only for
        // a page with faint ink, or tall ink near the type, to compare with
        // it.
        let mates = print
            .filter(|p| {
                scored
                    .iter()
                    .any(|s| (p.fainter(s) || p.tall_near_type(s)) && !p.foreign(s))
            })
            .and_then(|_| PageMates::of(typical.clone(), &scored, prepared));
        let told: Vec<bool> = scored
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let unlike = || {
                    print.is_some_and(|p| p.fainter(s))
                        && mates
                            .as_ref()
                            .is_some_and(|m| m.unlike(i, &scored, prepared))
                };
                let taller = || {
                    print.is_some_and(|p| p.tall_near_type(s))
                        && mates.as_ref().is_some_and(|m| m.taller(i, &scored))
                };
                print.is_some_and(|p| p.foreign(s)) || unlike() || taller()
            })
            .collect();
        let mark_below = mark_height(&typical, &scored);
        // On a page a player has written on, ink wider and fainter than
        // the print of its digit is theirs too.
        let written_on = told.iter().filter(|&&t| t).count() >= PRINT_HAND_LEAST;
        scored
            .iter()
            .enumerate()
            .map(|(i, s)| {
                if told[i] || (written_on && wider_and_fainter(i, &typical, &scored)) {
                    s.reading_as_foreign()
                } else if mark_below.is_some_and(|h| s.ink && s.shape < h) {
                    s.reading_as_mark()
                } else {
                    s.reading(s.ink && s.dmin <= limit)
                }
            })
            .collect()
    }

    /// Turns preprocessed ink into a reading.
    pub fn read_prepared(&self, prepared: &Prepared) -> CellReading {
        let all = self.all_classes();
        match prepared {
            Prepared::Empty { margin, near, .. } => self
                .score_empty(*margin, near.as_deref(), all)
                .reading(false),
            Prepared::Ink(ink) => self.score(ink, all).reading(false),
        }
    }

    /// An empty cell; with ink near to passing as a digit, its nearest
    /// digit as the runner-up.
    fn score_empty(&self, margin: f32, near: Option<&prep::Ink>, among: Classes) -> Scored {
        let mut s = Scored::empty(margin);
        if let Some(ink) = near {
            s.first = self.score(ink, among).first;
        }
        s
    }

    /// The nearest classes to some ink among `among`, and how well they
    /// fit.
    fn score(&self, ink: &prep::Ink, among: Classes) -> Scored {
        let dist = self.distances_among(&ink.features, among);
        let ranked = rank(&dist, self.tau);
        let dmin = dist[ranked.first as usize - 1];
        let fade = if ink.faint {
            (ink.contrast / prep::MIN_CONTRAST).min(1.0)
        } else {
            1.0
        };
        Scored {
            ink: true,
            height: ink.body,
            shape: ink.height,
            darkness: ink.darkness,
            width: ink.width,
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

/// The two nearest classes to some ink by their class distances (`dist[c -
/// 1]` for class c; for the digit model, digit d at d - 1), with their
/// probabilities: each distance mapped through `exp(-(d - nearest) / tau)`
/// and normalised over the classes. A single class is its own runner-up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranked {
    pub first: u8,
    pub second: u8,
    pub p_first: f32,
    pub p_second: f32,
}

/// Ranks the class distances `dist` (see [`Ranked`]); ties go to the
/// smaller class. No classes rank as class 1 with probability 0.
pub fn rank(dist: &[f32], tau: f32) -> Ranked {
    if dist.is_empty() {
        return Ranked {
            first: 1,
            second: 1,
            p_first: 0.0,
            p_second: 0.0,
        };
    }
    let (mut first, mut second) = (0usize, 1usize.min(dist.len() - 1));
    if dist[second] < dist[first] {
        std::mem::swap(&mut first, &mut second);
    }
    for i in 2..dist.len() {
        if dist[i] < dist[first] {
            second = first;
            first = i;
        } else if dist[i] < dist[second] {
            second = i;
        }
    }
    let dmin = dist[first];
    if !dmin.is_finite() {
        // No class within reach (every one left out).
        return Ranked {
            first: first as u8 + 1,
            second: second as u8 + 1,
            p_first: 0.0,
            p_second: 0.0,
        };
    }
    let total: f32 = dist.iter().map(|&d| (-(d - dmin) / tau).exp()).sum();
    Ranked {
        first: first as u8 + 1,
        second: second as u8 + 1,
        p_first: 1.0 / total,
        p_second: (-(dist[second] - dmin) / tau).exp() / total,
    }
}

/// Writes a model file of the digits 1-9: [`encode_model_glyphs`] with
/// the glyphs [`DIGIT_GLYPHS`].
///
/// # Panics
///
/// As [`encode_model_glyphs`].
pub fn encode_model(prototypes: &[(u8, Vec<f32>)], tau: f32, reject: f32) -> Vec<u8> {
    encode_model_glyphs(DIGIT_GLYPHS, prototypes, tau, reject)
}

/// Whether `glyphs` can name a model's classes: one to [`MAX_CLASSES`] of
/// them, each `0`-`9` or `A`-`Z`, none twice.
fn valid_glyphs(glyphs: &[u8]) -> bool {
    !glyphs.is_empty()
        && glyphs.len() <= MAX_CLASSES
        && glyphs
            .iter()
            .all(|g| g.is_ascii_digit() || g.is_ascii_uppercase())
        && glyphs
            .iter()
            .enumerate()
            .all(|(i, g)| !glyphs[..i].contains(g))
}

/// Writes a model file: the prototypes (a class label, 1 for the first of
/// `glyphs`, and [`FEATURE_LEN`] features each, as
/// [`prep::Ink::features`] gives them), the softness `tau` of the
/// distance-to-probability mapping, and the `reject` distance beyond which
/// ink is not a printed symbol.
///
/// The format, read back by [`Model::from_bytes`]: the 8 bytes `SLDIGITS`;
/// six little-endian 32-bit words: the format version, the feature length,
/// the prototype count, then `tau`, `reject` and the quantisation scale as
/// `f32` bits; in version 2 only, a 32-bit class count and one byte per
/// class, its glyph (version 1, written when the glyphs are
/// [`DIGIT_GLYPHS`], names none: its classes are the digits 1-9); then per
/// prototype its label byte and one byte per feature, the feature times
/// the scale, rounded (the scale maps the largest feature of the file to
/// 255). Reading divides by the scale and brings each prototype back to
/// unit length.
///
/// # Panics
///
/// On glyphs that are not one to [`MAX_CLASSES`] different characters
/// `0`-`9`, `A`-`Z`, or a prototype whose label is not a class or whose
/// length is not [`FEATURE_LEN`]: that would write a file no reader
/// accepts.
pub fn encode_model_glyphs(
    glyphs: &str,
    prototypes: &[(u8, Vec<f32>)],
    tau: f32,
    reject: f32,
) -> Vec<u8> {
    assert!(
        valid_glyphs(glyphs.as_bytes()),
        "glyphs `{glyphs}`: one to {MAX_CLASSES} different characters 0-9, A-Z"
    );
    let classes = glyphs.len();
    for (label, p) in prototypes {
        assert!(
            (1..=classes).contains(&(*label as usize)) && p.len() == FEATURE_LEN,
            "a prototype of label {label} with {} features: labels are 1-{classes}, features {FEATURE_LEN}",
            p.len()
        );
    }
    let max = prototypes
        .iter()
        .flat_map(|(_, p)| p.iter().copied())
        .fold(0f32, f32::max)
        .max(1e-6);
    let scale = 255.0 / max;
    let named = glyphs != DIGIT_GLYPHS;
    let mut out = Vec::with_capacity(
        HEADER_LEN + if named { 4 + classes } else { 0 } + prototypes.len() * (1 + FEATURE_LEN),
    );
    out.extend_from_slice(MAGIC);
    for w in [
        if named { VERSION_GLYPHS } else { VERSION },
        FEATURE_LEN as u32,
        prototypes.len() as u32,
        tau.to_bits(),
        reject.to_bits(),
        scale.to_bits(),
    ] {
        out.extend_from_slice(&w.to_le_bytes());
    }
    if named {
        out.extend_from_slice(&(classes as u32).to_le_bytes());
        out.extend_from_slice(glyphs.as_bytes());
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
    median_of(&mut accepted).map_or(-1.0, |m| (m * PAGE_FIT).min(PAGE_MAX_DISTANCE))
}

/// A digit read at least this sure is the page's print, the reference a
/// player's digits are told from (below, on a page a player has mostly
/// filled, their large digits read as print half-sure would set it: at
/// [`ACCEPT`] they do on kubiesa-val, and a fifth fewer of them are told).
pub const PRINT_SURE: f32 = 0.8;
/// How much taller than the page's print (main pieces, [`prep::Ink::body`])
/// ink must be to be another hand's when it lies as near the prototypes as
/// the print does...
pub const PRINT_TALLER_AT_PAR: f32 = 1.295;
/// ... less this for each doubling of its distance to the prototypes over
/// the print's: a player's digit is larger than the type, or shaped unlike
/// it, mostly both...
pub const PRINT_TALLER_PER_DOUBLING: f32 = 0.088;
/// ... and never less than this: ink of the type's own height is type.
///
/// The two above are a line fitted (logistic regression, both classes
/// weighted alike, taken at odds of 4 to 1) to the cells read as givens by
/// the print's test alone on kubiesa-train, told apart by
/// `tests/data/kubiesa-printed.txt` (578 printed, 68 a player's), and
/// wichtounet-v2-train's print (2829 on pages with a print reference).
/// Held out on kubiesa-val, it tells 967 of the 1030 player's digits that
/// test passes, and no printed given there, on the newspapers or on
/// kubiesa-train (the rectangle it replaced, three times the print's
/// distance and 1.15 times its height, told 909). On the 12 MP photos 99%
/// of the givens are within 1.08 of their page's print height.
pub const PRINT_TALLER_LEAST: f32 = 1.05;
/// Ink this far from its nearest prototype or nearer fits the type whatever
/// the page (a screenshot in the model's own font has a print median near
/// 0, against which any trace of noise is many doublings farther): on the
/// 12 MP photos 99% of the givens are within 0.081. Its height is then
/// compared with the page's print of its own digit only
/// ([`PageMates::taller`]): a player's plain pen 7 fits the type's 7 as
/// closely, at up to 1.5 times its height.
pub const PRINT_FAR: f32 = 0.08;
/// Ink farther from the prototypes than [`PRINT_FAR`] whose core is at most
/// this share of the print's darkness ([`prep::Ink::darkness`], the page's
/// median over the digits read at least [`PRINT_SURE`]) and whose shape is
/// unlike the page's print of its digit ([`PRINT_UNLIKE`]) is another
/// hand's, whatever its height: a player's pencil 7 of the type's height,
/// near enough to the type's 7 for the height's test. Print lies above it:
/// of the givens on the newspaper photos (wichtounet-v2-train) and
/// kubiesa-train, 1 in 1000 is fainter than 0.59-0.72 of its page's print,
/// 1 in 100 than 0.69-0.76; the player's digits on kubiesa-val have a
/// median of 0.48.
pub const PRINT_FAINTER: f32 = 0.6;
/// The page's print of a digit, to compare a faint digit with: its digits
/// read at least [`PRINT_SURE`] and within this many times the print's
/// median distance of their prototype (typical type, not a player's digit
/// read as print).
pub const PRINT_MATE_NEAR: f32 = 1.25;
/// Faint ink is unlike the page's print when its distance to the nearest
/// print of its digit is at least this many times the print's spread (the
/// median distance from a printed digit to the nearest other print of the
/// same digit). Shape alone does not tell: printed givens far from the
/// prototypes lie up to 4.4 spreads away on the newspaper photos. With
/// faintness it does: kubiesa-train's player's digits fainter than
/// [`PRINT_FAINTER`] lie 4.3-8.0 away and no given there or on the
/// newspapers is as faint; on kubiesa-val two givens are, at 2.7 and 3.0.
pub const PRINT_UNLIKE: f32 = 3.5;
/// Ink wider than the page's print of its digit by at least this share of
/// that print's height (the medians of the others' main pieces,
/// [`prep::Ink::body`]: the print's size)...
pub const PRINT_WIDER: f32 = 0.12;
/// ... and at most this share of that print's darkness is another hand's,
/// however near the type and of whatever height: one digit's print on a
/// page is one glyph in one ink, and a player's plain 7 in pen or pencil
/// is as near the type's 7 and as tall, but its bar is longer and its
/// stroke lighter. Of the givens of kubiesa-train, kubiesa-val and
/// wichtounet-v2-train (6316 with two or more others read as their digit
/// on their page, measured against those), 99% are wider than them by at
/// most 0.08 of their height, and one in 1000 is wider by 0.12 and fainter
/// than 0.9 (a newspaper's 1 slanted on a curled page); a fifth are
/// fainter than 0.9 alone. Only on a page a player has written on
/// ([`PRINT_HAND_LEAST`]).
pub const PRINT_MATE_FAINTER: f32 = 0.9;
/// A page a player has written on has at least this many cells told
/// another hand's by the other tests (of height, faintness and shape): 14
/// to 55 on the hand-solved photos whose ink [`PRINT_WIDER`] tells, none
/// on 159 of the 160 newspaper photos of wichtounet-v2-train and 2 on the
/// other. Print that varies as a player's digit does (the slanted 1) is
/// then left alone on a page nobody has written on.
pub const PRINT_HAND_LEAST: usize = 3;
/// The spread is taken as at least this: a screenshot draws each digit
/// the same every time, and a spread near 0 would call any other rendering
/// unlike it. On the phone photos it is 0.07-0.28.
pub const PRINT_SPREAD_LEAST: f32 = 0.08;

/// An ink shape shorter than this share of the page's typical print (the
/// median height of its shapes, [`mark_height`]) is a candidate mark, never
/// a given: a solving app draws its marks at 0.2-0.3
/// of a cell in their places of a 3 x 3 block, and the 5's place is the
/// cell's centre, where a given stands; its givens are 0.5-0.7 of a cell.
/// Print is one size on a page: 99% of the givens on the 12 MP photos are
/// within 1.08 of their page's print height, and a player's digits read as
/// print, which raise the median, are at most about 1.5 times it.
pub const PRINT_SHORTER: f32 = 0.6;

/// The page's print: the median nearest-prototype distance and height of
/// the digits read at least [`PRINT_SURE`], when there are
/// [`PAGE_MIN_DIGITS`] of them.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PagePrint {
    dmin: f32,
    height: f32,
    darkness: f32,
}

impl PagePrint {
    fn of(scored: &[Scored]) -> Option<PagePrint> {
        let sure: Vec<&Scored> = scored
            .iter()
            .filter(|s| s.ink && s.confidence() >= PRINT_SURE)
            .collect();
        if sure.len() < PAGE_MIN_DIGITS {
            return None;
        }
        let dmin = median_of(&mut sure.iter().map(|s| s.dmin).collect::<Vec<_>>())?;
        let height = median_of(&mut sure.iter().map(|s| s.height).collect::<Vec<_>>())?;
        let darkness = median_of(&mut sure.iter().map(|s| s.darkness).collect::<Vec<_>>())?;
        Some(PagePrint {
            dmin,
            height,
            darkness,
        })
    }

    /// Whether ink is another hand's than the page's print: farther from
    /// the prototypes than [`PRINT_FAR`], and taller than the print by
    /// [`PRINT_TALLER_AT_PAR`], less [`PRINT_TALLER_PER_DOUBLING`] for each
    /// doubling of its distance over the print's (never less than
    /// [`PRINT_TALLER_LEAST`]).
    fn foreign(&self, s: &Scored) -> bool {
        if !s.ink || s.dmin <= PRINT_FAR {
            return false;
        }
        let doublings = (s.dmin / self.dmin).log2();
        let taller =
            (PRINT_TALLER_AT_PAR - PRINT_TALLER_PER_DOUBLING * doublings).max(PRINT_TALLER_LEAST);
        s.height >= self.height * taller
    }

    /// Whether ink may be another hand's by its ink alone: farther from the
    /// prototypes than [`PRINT_FAR`] and fainter than [`PRINT_FAINTER`]
    /// times the print. [`PageMates::unlike`] then compares its shape.
    fn fainter(&self, s: &Scored) -> bool {
        s.ink && s.dmin > PRINT_FAR && s.darkness < PRINT_FAINTER * self.darkness
    }

    /// Whether ink near the type (see [`PRINT_FAR`]), which [`foreign`]
    /// takes for type whatever its height, is taller than the print by
    /// [`PRINT_TALLER_AT_PAR`]: a player's digit shaped like the type (a
    /// plain pen 7), or type whose digit stands taller than the others (a
    /// J among capitals, an old-style 7). [`PageMates::taller`] then
    /// compares it with the page's print of its own digit.
    ///
    /// [`foreign`]: PagePrint::foreign
    fn tall_near_type(&self, s: &Scored) -> bool {
        s.ink && s.dmin <= PRINT_FAR && s.height >= PRINT_TALLER_AT_PAR * self.height
    }
}

/// The height under which an ink shape is a candidate mark:
/// [`PRINT_SHORTER`] of the median shape height of the page's typical print
/// (`cells`, see [`typical_print`]: the type alone, not a player's large
/// digits read as print); `None` below [`PAGE_MIN_DIGITS`] of them.
fn mark_height(cells: &[usize], scored: &[Scored]) -> Option<f32> {
    if cells.len() < PAGE_MIN_DIGITS {
        return None;
    }
    let mut heights: Vec<f32> = cells.iter().map(|&i| scored[i].shape).collect();
    median_of(&mut heights).map(|h| PRINT_SHORTER * h)
}

/// The cells whose ink is the page's typical print: read at least
/// [`PRINT_SURE`], within [`PRINT_MATE_NEAR`] times the print's median
/// distance of their prototype.
fn typical_print(print: &PagePrint, scored: &[Scored], prepared: &[Prepared]) -> Vec<usize> {
    (0..scored.len())
        .filter(|&i| {
            let s = &scored[i];
            s.ink
                && s.confidence() >= PRINT_SURE
                && s.dmin <= PRINT_MATE_NEAR * print.dmin
                && features(&prepared[i]).is_some()
        })
        .collect()
}

/// The median of `measure` over the page's typical print (`cells`) of the
/// digit cell `i` is read as, `i` itself left out; `None` when the page has
/// no other print of that digit.
fn mates_median(
    i: usize,
    cells: &[usize],
    scored: &[Scored],
    measure: impl Fn(&Scored) -> f32,
) -> Option<f32> {
    let mut of: Vec<f32> = cells
        .iter()
        .filter(|&&j| j != i && scored[j].first == scored[i].first)
        .map(|&j| measure(&scored[j]))
        .collect();
    median_of(&mut of)
}

/// Whether the ink of cell `i` is wider than the page's typical print of
/// its digit (`cells`) by [`PRINT_WIDER`] of its height, and at most
/// [`PRINT_MATE_FAINTER`] of its darkness; false when the page has no
/// other print of that digit.
fn wider_and_fainter(i: usize, cells: &[usize], scored: &[Scored]) -> bool {
    let s = &scored[i];
    if !s.ink {
        return false;
    }
    let mate = |measure: fn(&Scored) -> f32| mates_median(i, cells, scored, measure);
    match (mate(|m| m.width), mate(|m| m.height), mate(|m| m.darkness)) {
        (Some(width), Some(height), Some(darkness)) => {
            s.width - width >= PRINT_WIDER * height && s.darkness <= PRINT_MATE_FAINTER * darkness
        }
        _ => false,
    }
}

/// The page's own print of each digit, the reference a faint digit's shape
/// is compared with ([`PRINT_UNLIKE`]).
struct PageMates {
    /// The page's typical print ([`typical_print`]).
    cells: Vec<usize>,
    /// How far a printed digit lies from the nearest other print of the
    /// same digit on the page, the median over `cells` (never under
    /// [`PRINT_SPREAD_LEAST`]).
    spread: f32,
}

impl PageMates {
    fn of(cells: Vec<usize>, scored: &[Scored], prepared: &[Prepared]) -> Option<PageMates> {
        let mut nearest: Vec<f32> = cells
            .iter()
            .filter_map(|&i| nearest_of(i, scored[i].first, &cells, scored, prepared))
            .collect();
        let spread = median_of(&mut nearest)?.max(PRINT_SPREAD_LEAST);
        Some(PageMates { cells, spread })
    }

    /// Whether the ink of cell `i` lies farther from the page's print of
    /// its digit than [`PRINT_UNLIKE`] times the print's spread; false when
    /// the page has no print of that digit.
    fn unlike(&self, i: usize, scored: &[Scored], prepared: &[Prepared]) -> bool {
        nearest_of(i, scored[i].first, &self.cells, scored, prepared)
            .is_some_and(|d| d >= PRINT_UNLIKE * self.spread)
    }

    /// Whether the ink of cell `i` stands taller than the page's print of
    /// its digit (the median height of the others) by
    /// [`PRINT_TALLER_AT_PAR`], the height's test of ink as near the
    /// prototypes as the print; false when the page has no print of that
    /// digit.
    fn taller(&self, i: usize, scored: &[Scored]) -> bool {
        mates_median(i, &self.cells, scored, |m| m.height)
            .is_some_and(|h| scored[i].height >= PRINT_TALLER_AT_PAR * h)
    }
}

/// The features of prepared ink; `None` for an empty cell.
fn features(p: &Prepared) -> Option<&[f32]> {
    match p {
        Prepared::Ink(ink) => Some(&ink.features),
        Prepared::Empty { .. } => None,
    }
}

/// The distance (Euclidean, between unit feature vectors) from the ink of
/// cell `i` to the nearest ink among `cells` read as `digit`, `i` itself
/// left out; `None` when there is none.
fn nearest_of(
    i: usize,
    digit: u8,
    cells: &[usize],
    scored: &[Scored],
    prepared: &[Prepared],
) -> Option<f32> {
    let a = features(&prepared[i])?;
    cells
        .iter()
        .filter(|&&j| j != i && scored[j].first == digit)
        .filter_map(|&j| features(&prepared[j]))
        .map(|b| (2.0 - 2.0 * dot(a, b)).max(0.0).sqrt())
        .min_by(f32::total_cmp)
}

/// A cell's nearest digits before the decision between digit and empty.
#[derive(Debug, Clone, Copy)]
struct Scored {
    /// False for a cell the preprocessing found empty (`fit` then holds the
    /// margin by which it is empty).
    ink: bool,
    /// The height of the ink's main piece over the crop's side
    /// ([`prep::Ink::body`]; 0 without ink).
    height: f32,
    /// The height of the whole ink shape over the crop's side, its pieces
    /// merged ([`prep::Ink::height`]; 0 without ink): a glyph broken into
    /// pieces by the photo has a small main piece, but not a small shape.
    shape: f32,
    /// [`prep::Ink::darkness`] (0 without ink).
    darkness: f32,
    /// The ink's width over the crop's side ([`prep::Ink::width`]; 0
    /// without ink).
    width: f32,
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
            height: 0.0,
            shape: 0.0,
            darkness: 0.0,
            width: 0.0,
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

    /// The reading of ink that is no printed digit: empty, the closest
    /// digit next (the solver check may still try it).
    fn reading_as_foreign(&self) -> CellReading {
        let confidence = self.confidence();
        CellReading {
            value: 0,
            confidence: 1.0 - confidence,
            runner_up: self.first,
            runner_up_confidence: confidence,
        }
    }

    /// Ink too small for the page's print ([`mark_height`]): no digit,
    /// and no given to try in its place either.
    fn reading_as_mark(&self) -> CellReading {
        CellReading {
            value: 0,
            confidence: self.confidence(),
            runner_up: 0,
            runner_up_confidence: 0.0,
        }
    }

    /// The reading; `accept` takes the digit even under [`ACCEPT`].
    fn reading(&self, accept: bool) -> CellReading {
        if !self.ink {
            let confidence = EMPTY_SURE_LEAST + EMPTY_SURE_BY_MARGIN * self.fit;
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
            // marks).
            return self.reading_as_foreign();
        }
        let empty_conf = 1.0 - self.fit;
        let second_conf = self.p_second * self.fit;
        // An unsure digit names the next digit even when empty is likelier:
        // the solver check tries empty for such a reading anyway, and a
        // blurred 6 read as a 5 can only be mended if the 6 is offered.
        if empty_conf > second_conf && confidence >= UNCERTAIN_BELOW {
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

    fn unit(i: usize) -> Vec<f32> {
        let mut v = vec![0f32; FEATURE_LEN];
        v[i] = 1.0;
        v
    }

    #[test]
    fn a_model_of_named_glyphs_reads_back_with_its_classes() {
        let glyphs = "12A0";
        let bytes = encode_model_glyphs(glyphs, &[(3, unit(0)), (4, unit(1))], 0.05, 0.9);
        assert_eq!(
            bytes.len(),
            HEADER_LEN + 4 + glyphs.len() + 2 * (1 + FEATURE_LEN)
        );
        let model = Model::from_bytes(&bytes).unwrap();
        assert_eq!(model.class_count(), 4);
        assert_eq!(model.glyph(3), Some('A'));
        assert_eq!(model.glyph(4), Some('0'));
        assert_eq!((model.glyph(0), model.glyph(5)), (None, None));
        let d = model.class_distances(&unit(1));
        assert_eq!(d.len(), 4);
        assert!(d[3] < 1e-4 && d[0].is_infinite(), "{d:?}");
        // Among the other classes only, the 0's prototype is not seen.
        let letters = model.classes_where(|g| g == 'A');
        assert!(letters.contains(3) && !letters.contains(4));
        let d = model.distances_among(&unit(1), letters);
        assert!(d[3].is_infinite() && (d[2] - 2.0).abs() < 1e-3, "{d:?}");
        // A model of the digits 1-9 keeps the first format, byte for byte.
        let digits = encode_model(&[(3, unit(0))], 0.05, 0.9);
        assert_eq!(
            digits,
            encode_model_glyphs(DIGIT_GLYPHS, &[(3, unit(0))], 0.05, 0.9)
        );
        assert_eq!(u32::from_le_bytes(digits[8..12].try_into().unwrap()), 1);
        assert_eq!(Model::from_bytes(&digits).unwrap().class_count(), 9);
    }

    #[test]
    fn bad_glyph_headers_are_refused() {
        let good = encode_model_glyphs("1AB", &[(2, unit(0))], 0.05, 0.9);
        // The class count past the bytes there are.
        let mut bad = good.clone();
        bad[HEADER_LEN..HEADER_LEN + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Model::from_bytes(&bad).is_err());
        // A glyph twice, or one that is no digit or capital.
        let mut bad = good.clone();
        bad[HEADER_LEN + 5] = b'1';
        assert!(matches!(Model::from_bytes(&bad), Err(ModelError::Glyphs)));
        let mut bad = good.clone();
        bad[HEADER_LEN + 5] = b'a';
        assert!(matches!(Model::from_bytes(&bad), Err(ModelError::Glyphs)));
        // A label past the classes.
        let mut bad = good.clone();
        bad[HEADER_LEN + 4 + 3] = 4;
        assert!(matches!(Model::from_bytes(&bad), Err(ModelError::Label)));
        // Truncated inside the glyphs.
        assert!(matches!(
            Model::from_bytes(&good[..HEADER_LEN + 5]),
            Err(ModelError::Size)
        ));
        assert!(Model::from_bytes(&good).is_ok());
    }

    #[test]
    fn ranking_works_over_any_number_of_classes() {
        let nine = [0.4, 0.1, 0.3, 0.2, 0.9, 0.9, 0.9, 0.9, 0.9];
        let r = rank(&nine, 0.05);
        assert_eq!((r.first, r.second), (2, 4));
        let mut seventeen = [1.0f32; 17];
        seventeen[16] = 0.05;
        seventeen[11] = 0.1;
        let r = rank(&seventeen, 0.05);
        assert_eq!((r.first, r.second), (17, 12));
        assert!(r.p_first > r.p_second && r.p_first < 1.0);
        // Classes left out (infinitely far) take no probability.
        let r = rank(&[f32::INFINITY, 0.2, f32::INFINITY], 0.05);
        assert_eq!((r.first, r.p_first), (2, 1.0));
        // Nothing within reach: no probability at all, and no panic.
        assert_eq!(rank(&[f32::INFINITY; 3], 0.05).p_first, 0.0);
        assert_eq!(rank(&[], 0.05).p_first, 0.0);
        assert_eq!(rank(&[0.3], 0.05).first, 1);
    }

    #[test]
    fn the_bundled_models_name_their_glyphs() {
        let digits = Model::load_bundled();
        assert_eq!(digits.class_count(), 9);
        assert!(std::ptr::eq(Model::for_size(9), digits));
        assert!(std::ptr::eq(Model::for_size(6), digits));
        let symbols = Model::for_size(16);
        assert!(std::ptr::eq(symbols, Model::load_symbols()));
        let glyphs: String = (1..=symbols.class_count() as u8)
            .filter_map(|c| symbols.glyph(c))
            .collect();
        assert_eq!(glyphs, SYMBOL_GLYPHS);
        assert!((1..=symbols.class_count() as u8).all(|c| symbols.knows(c)));
    }

    /// Ink at distance `dmin` read with confidence `confidence`.
    fn ink(dmin: f32, confidence: f32) -> Scored {
        Scored {
            ink: true,
            height: 0.6,
            shape: 0.6,
            darkness: 1.2,
            width: 0.4,
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
    fn tall_ink_far_from_the_type_is_another_hand() {
        let sure = |dmin: f32| ink(dmin, 0.9);
        let tall = |dmin: f32, height: f32| Scored {
            height,
            ..sure(dmin)
        };
        let mut cells = vec![sure(0.03); PAGE_MIN_DIGITS];
        cells.push(Scored::empty(1.0));
        let print = PagePrint::of(&cells).expect("five sure digits set the print");
        assert_eq!(
            print,
            PagePrint {
                dmin: 0.03,
                height: 0.6,
                darkness: 1.2,
            }
        );
        // A player's digit: larger than the type and far from it, read
        // sure or not, is no given but names its digit for the check.
        let hand = tall(0.2, 0.75);
        assert!(print.foreign(&hand));
        let r = hand.reading_as_foreign();
        assert_eq!((r.value, r.runner_up), (0, 6), "{r:?}");
        // Print a little off its prototype, or far but of the type's
        // height (blurred type), stays print.
        assert!(!print.foreign(&tall(0.07, 0.75)));
        assert!(!print.foreign(&tall(0.2, 0.62)));
        assert!(!print.foreign(&Scored::empty(1.0)));
        // The nearer the type, the taller: at 2.83 times the print's
        // distance (1.5 doublings), 1.163 times its height.
        assert!(print.foreign(&tall(0.085, 0.7)));
        assert!(!print.foreign(&tall(0.085, 0.69)));
        // However sharp the page, a digit near its prototype is type.
        let crisp = PagePrint {
            dmin: 0.001,
            height: 0.6,
            darkness: 1.2,
        };
        assert!(!crisp.foreign(&tall(PRINT_FAR, 0.8)));
        // Too few sure digits set no print.
        assert_eq!(PagePrint::of(&cells[2..]), None);
    }

    /// Prepared ink whose features are the unit vector at `angle` (radians)
    /// in the plane of the first two features: two such lie
    /// `2 sin(|a - b| / 2)` apart.
    fn ink_at(angle: f32) -> Prepared {
        let mut features = vec![0.0; FEATURE_LEN];
        features[0] = angle.cos();
        features[1] = angle.sin();
        Prepared::Ink(prep::Ink {
            features,
            height: 0.6,
            body: 0.6,
            width: 0.4,
            contrast: 150.0,
            stroke: 0.1,
            shifted: false,
            faint: false,
            darkness: 1.2,
        })
    }

    #[test]
    fn faint_ink_unlike_the_page_print_of_its_digit_is_another_hand() {
        // Six printed 6s, sure and near their prototype, each 0.1 from the
        // next (the print's spread).
        let sure = ink(0.03, 0.9);
        let mut scored = vec![sure; 6];
        let mut prepared: Vec<Prepared> = (0..6).map(|k| ink_at(0.1 * k as f32)).collect();
        let print = PagePrint::of(&scored).expect("six sure digits set the print");
        // A player's 6 of the type's height: far from the prototypes, at
        // 0.4 of the print's darkness, 0.5 from the nearest printed 6.
        let hand = Scored {
            darkness: 0.48,
            dmin: 0.1,
            fit: 0.85,
            ..sure
        };
        assert!(!print.foreign(&hand), "not by its height");
        assert!(print.fainter(&hand));
        scored.push(hand);
        prepared.push(ink_at(1.0));
        let typical = typical_print(&print, &scored, &prepared);
        let mates = PageMates::of(typical, &scored, &prepared).expect("print of 6");
        assert!(
            (mates.spread - 2.0 * 0.05f32.sin()).abs() < 1e-3,
            "{}",
            mates.spread
        );
        assert!(mates.unlike(6, &scored, &prepared));
        // Faint ink shaped like the page's 6s (print in a shadow's edge) is
        // print; so is ink unlike them but as dark as the print.
        prepared[6] = ink_at(0.65);
        assert!(!mates.unlike(6, &scored, &prepared));
        assert!(!print.fainter(&Scored {
            darkness: 1.0,
            ..hand
        }));
        // Without print of its digit on the page, nothing to compare with.
        prepared[6] = ink_at(1.0);
        scored[6].first = 7;
        assert!(!mates.unlike(6, &scored, &prepared));
        // A screenshot draws its 6s alike: the spread is at least
        // PRINT_SPREAD_LEAST, and a second rendering 0.1 away is alike.
        let drawn: Vec<Prepared> = (0..6).map(|_| ink_at(0.0)).chain([ink_at(0.1)]).collect();
        scored[6].first = 6;
        let mates = PageMates::of(typical_print(&print, &scored, &drawn), &scored, &drawn)
            .expect("print of 6");
        assert_eq!(mates.spread, PRINT_SPREAD_LEAST);
        assert!(!mates.unlike(6, &scored, &drawn));
    }

    /// A model whose digits are each a feature of their own (the 6 the
    /// sixth), far from each other.
    fn feature_per_digit_model() -> Model {
        let prototypes: Vec<(u8, Vec<f32>)> = (1..=9u8)
            .map(|d| {
                let mut p = vec![0.0; FEATURE_LEN];
                p[d as usize - 1] = 1.0;
                (d, p)
            })
            .collect();
        Model::from_bytes(&encode_model(&prototypes, 0.05, 1.0)).expect("model")
    }

    /// Ink of digit `d`'s plane in [`feature_per_digit_model`] (its feature
    /// and the last one) at `angle` from its prototype, otherwise as
    /// [`ink_at`]'s.
    fn digit_ink(d: usize, angle: f32) -> prep::Ink {
        let Prepared::Ink(mut ink) = ink_at(0.0) else {
            unreachable!()
        };
        ink.features[0] = 0.0;
        ink.features[d - 1] = angle.cos();
        ink.features[FEATURE_LEN - 1] = angle.sin();
        ink
    }

    #[test]
    fn a_page_reads_faint_ink_unlike_its_print_as_no_given() {
        let model = feature_per_digit_model();
        // A 6 at `angle` from the prototype, at `darkness`.
        let six = |angle: f32, darkness: f32| {
            Prepared::Ink(prep::Ink {
                darkness,
                ..digit_ink(6, angle)
            })
        };
        // Six printed 6s near the prototype, and a player's 6 of their
        // height, 0.5 radians off (read 0.75 sure), at 0.4 of their darkness.
        let mut page: Vec<Prepared> = [0.0, 0.05, -0.05, 0.1, -0.1, 0.15]
            .iter()
            .map(|&a| six(a, 1.2))
            .collect();
        page.push(six(0.5, 0.48));
        let read = model.read_page(&page);
        assert!(read[..6].iter().all(|r| r.value == 6), "{read:?}");
        assert_eq!((read[6].value, read[6].runner_up), (0, 6), "{:?}", read[6]);
        // As dark as the print, it is print.
        page[6] = six(0.5, 1.1);
        assert_eq!(model.read_page(&page)[6].value, 6);
    }

    #[test]
    fn a_tall_digit_near_the_type_is_another_hand_beside_the_print_of_its_digit() {
        let model = feature_per_digit_model();
        // Digit `d` at `angle` from its prototype, of main-piece height
        // `body`.
        let digit = |d: usize, angle: f32, body: f32| {
            Prepared::Ink(prep::Ink {
                body,
                ..digit_ink(d, angle)
            })
        };
        // Six printed 6s of height 0.6 and a player's 6 as near the
        // prototype (0.02 off, within PRINT_FAR) at 1.4 times their height.
        let mut page: Vec<Prepared> = [0.0, 0.01, -0.01, 0.02, -0.02, 0.03]
            .iter()
            .map(|&a| digit(6, a, 0.6))
            .collect();
        page.push(digit(6, 0.02, 0.84));
        let read = model.read_page(&page);
        assert!(read[..6].iter().all(|r| r.value == 6), "{read:?}");
        assert_eq!((read[6].value, read[6].runner_up), (0, 6), "{:?}", read[6]);
        // Of the print's height, or a little taller, it is print.
        page[6] = digit(6, 0.02, 0.75);
        assert_eq!(model.read_page(&page)[6].value, 6);
        // A digit the type draws taller than the others (an old-style 7, a
        // J among capitals) is as tall as the page's print of that digit.
        page[6] = digit(7, 0.0, 0.84);
        page.push(digit(7, 0.01, 0.84));
        page.push(digit(7, -0.01, 0.84));
        let read = model.read_page(&page);
        assert!(read[6..].iter().all(|r| r.value == 7), "{read:?}");
        // Without print of its digit on the page, nothing to compare with.
        let read = model.read_page(&page[..7]);
        assert_eq!(read[6].value, 7, "{:?}", read[6]);
    }

    #[test]
    fn a_wider_fainter_digit_beside_the_print_of_its_digit_is_another_hand() {
        let model = feature_per_digit_model();
        // Digit `d` at `angle` from its prototype, `width` wide and `body`
        // tall, at `darkness`.
        let digit = |d: usize, angle: f32, width: f32, body: f32, darkness: f32| {
            Prepared::Ink(prep::Ink {
                width,
                body,
                darkness,
                ..digit_ink(d, angle)
            })
        };
        // Six printed 7s 0.4 wide and 0.6 tall; three large scrawls the
        // height's test tells another hand's (a player wrote on the page);
        // and a 7 as near the prototype and as tall as the print, 0.5 wide
        // (a sixth of the height wider) at 0.8 of its darkness.
        let mut page: Vec<Prepared> = [0.0, 0.01, -0.01, 0.02, -0.02, 0.03]
            .iter()
            .map(|&a| digit(7, a, 0.4, 0.6, 1.2))
            .collect();
        page.extend((0..3).map(|_| digit(5, 0.6, 0.5, 0.9, 1.0)));
        page.push(digit(7, 0.02, 0.5, 0.6, 0.96));
        let read = model.read_page(&page);
        assert!(read[..6].iter().all(|r| r.value == 7), "{read:?}");
        assert!(read[6..9].iter().all(|r| r.value == 0), "{read:?}");
        assert_eq!((read[9].value, read[9].runner_up), (0, 7), "{:?}", read[9]);
        // As wide but as dark as the print, or as faint but hardly wider,
        // it is print.
        page[9] = digit(7, 0.02, 0.5, 0.6, 1.15);
        assert_eq!(model.read_page(&page)[9].value, 7);
        page[9] = digit(7, 0.02, 0.45, 0.6, 0.96);
        assert_eq!(model.read_page(&page)[9].value, 7);
        // On a page nobody has written on, it is print too: print varies
        // so where a page curls.
        page[9] = digit(7, 0.02, 0.5, 0.6, 0.96);
        let unwritten: Vec<Prepared> = page[..6].iter().chain(&page[9..]).cloned().collect();
        assert_eq!(model.read_page(&unwritten)[6].value, 7);
        // Without other print of its digit on the page, nothing to compare
        // with: the page's 6s are narrower, and say nothing of a 7.
        for p in &mut page[..6] {
            *p = digit(6, 0.0, 0.3, 0.6, 1.2);
        }
        let read = model.read_page(&page);
        assert_eq!(read[9].value, 7, "{:?}", read[9]);
    }

    #[test]
    fn ink_well_under_the_print_s_size_is_a_mark_not_a_given() {
        // Five cells of print 0.6 high: ink under 0.36 is a mark.
        let mut scored: Vec<Scored> = (0..5).map(|_| ink(0.03, 0.95)).collect();
        let below = mark_height(&[0, 1, 2, 3, 4], &scored).expect("five of print");
        assert!((below - PRINT_SHORTER * 0.6).abs() < 1e-6);
        // A glyph broken into pieces keeps its whole shape's height.
        scored[0].height = 0.2;
        assert_eq!(mark_height(&[0, 1, 2, 3, 4], &scored), Some(below));
        // Fewer than five of print set no size.
        assert_eq!(mark_height(&[0, 1, 2, 3], &scored), None);
        let mark = Scored {
            shape: 0.3,
            ..ink(0.03, 0.95)
        }
        .reading_as_mark();
        assert_eq!(
            (mark.value, mark.runner_up),
            (0, 0),
            "no given, none to try"
        );
    }

    #[test]
    fn an_unsure_digit_names_the_next_digit() {
        let unsure = Scored {
            ink: true,
            height: 0.6,
            shape: 0.6,
            darkness: 1.2,
            width: 0.4,
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
        assert!(r.confidence < UNCERTAIN_BELOW);
    }
}
