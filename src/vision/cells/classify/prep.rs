//! Cell preprocessing shared by reading and model building: polarity, ink
//! map, line-remnant removal, choice of the digit's components, the empty /
//! pencil-mark decision, and the feature vector of the normalised digit.

use image::GrayImage;

use crate::vision::page::label;
use crate::vision::page::num::floor_i32;

/// Side of the square working image every crop is resampled to.
pub const WORK: usize = 40;
/// Side of the square the digit's bounding box is scaled to fit.
const FRAME: usize = 20;
/// Side of the canvas the scaled digit is centred in.
const CANVAS: usize = 24;
/// Pixel features: the canvas averaged over 2x2 blocks.
const PIX_SIDE: usize = CANVAS / 2;
/// Gradient-orientation features: cells of 6x6 pixels, 8 unsigned bins.
const HOG_CELL: usize = 6;
const HOG_GRID: usize = CANVAS / HOG_CELL;
const HOG_BINS: usize = 8;
/// Length of a feature vector.
pub const FEATURE_LEN: usize = PIX_SIDE * PIX_SIDE + HOG_GRID * HOG_GRID * HOG_BINS;

/// A digit shorter than this fraction of the crop is a candidate mark.
pub const MIN_DIGIT_HEIGHT: f32 = 0.27;
/// Ink shorter than this fraction of the crop is not even a candidate
/// mark: a speck of dirt, the paper's grain or a photo's noise, which a
/// blank cell's threshold picks up. A mark is a digit about a quarter of
/// the cell tall (0.28-0.38 of the crop in an app's 3 x 3 notes, a little
/// less by hand); this is 6 pixels of a 48-pixel crop.
pub const MIN_MARK_HEIGHT: f32 = 0.12;
/// A digit whose centre is further than this fraction of the crop from the
/// crop's centre is off-centre: a candidate mark in a corner.
pub const MAX_CENTRE_OFFSET: f32 = 0.2;
/// Ink at least TALL_DIGIT of the crop tall, whose centre is within
/// MAX_LEVEL_OFFSET of the crop's centre vertically, may lie up to
/// MAX_SIDEWAYS_OFFSET to the side: candidate marks sit high or low in a
/// cell, while a printed digit lies level with a crop that its grid lines
/// placed to one side.
const TALL_DIGIT: f32 = 0.45;
const MAX_LEVEL_OFFSET: f32 = 0.15;
const MAX_SIDEWAYS_OFFSET: f32 = 0.3;
/// Ink shorter than this fraction of the crop whose centre lies more than
/// MAX_RISE above the crop's centre is a candidate mark.
const HIGH_MARK_HEIGHT: f32 = 0.4;
const MAX_RISE: f32 = 0.1;
/// Ink wider than this times its height is a row of candidate marks: no
/// printed digit is that wide.
const WIDE: f32 = 1.0;
/// In the givens' pass, a second digit-like shape beside the main one (no
/// column in common, at most SIBLING_GAP of the crop away), each at least
/// SIBLING_HEIGHT of the other's height, level with it (sharing at least
/// SIBLING_LEVEL of the shorter one's rows), makes a row of candidate
/// marks, however narrow each is: a printed digit is one glyph, while a
/// player's large "25" in a cell's top half is two, the 2 too big to be
/// merged as a piece of the 5 and the pair not always wider than tall.
/// (A line's remnant along the crop's side is a straight stroke, and
/// taller than a printed digit by more than SIBLING_HEIGHT allows.)
const SIBLING_HEIGHT: f32 = 0.75;
const SIBLING_GAP: f32 = 0.25;
const SIBLING_LEVEL: f32 = 0.5;
/// The same for a page read with letters ([`prepare_letters`]): a serif
/// capital A, D or G is 1.04-1.11 of its height wide on a TeX Gyre Bonum
/// 16x16 page (judged marks at 1.0), while two candidate digits side by
/// side with their gap are wider still.
const LETTER_WIDE: f32 = 1.25;
/// Ink of a digit's height (TALL_DIGIT) off the centre by less than this
/// margin (see [`Prepared::Empty`]) keeps its description, for the
/// runner-up; a shorter sliver is a digit the crop cuts, or a mark.
pub const NEAR_MISS: f32 = 0.5;
/// Thresholds (fractions of the ink contrast) tried in turn when no ink
/// stands clear of the crop's edges at the first one.
const STRICT_LEVELS: [f32; 2] = [0.55, 0.7];
/// Ink contrast (grey levels) from which ink is clearly there.
pub(crate) const MIN_CONTRAST: f32 = 28.0;
/// Weakest ink contrast that can be a printed digit: fainter than
/// MIN_CONTRAST, ink is a digit only with a printed stroke (at least
/// FAINT_MIN_STROKE) and a digit's height (at most FAINT_MAX_HEIGHT). Faded
/// print keeps both; pencil marks and folds of the page are thin, and the
/// shadow of a grid line runs the crop's height.
const FAINT_CONTRAST: f32 = 15.0;
const FAINT_MIN_STROKE: f32 = 0.15;
const FAINT_MAX_HEIGHT: f32 = 0.75;
/// The givens' second look ([`prepare_shadowed`]) is taken only where the
/// crop's paper changes across it, the local paper's 90th percentile less
/// its 10th, by more than SHADOW_STEP of its median: a shadow's edge. On
/// even paper there is nothing to look past, and a player's digit measured
/// so can pass for print (on kubiesa-val, 14 pen and pencil 7s and 5s did,
/// their paper changing by 0.32 at most). In the training photos' cells
/// the paper changes by 0.32 at most (kubiesa-train) and by more than 0.46
/// in 1 of 1000 (the newspaper photos); the shadowed print the second look
/// is for, by 0.56 and 1.35. (Measured with the polarity of each crop's
/// median, which differs from the local paper's, [`flat_light_ink`], only
/// where a shadow covers about half the crop.)
const SHADOW_STEP: f32 = 0.4;
/// The quick look at the paper's change (`block_paper_step`) takes the
/// lightest pixel of each of SHADOW_BLOCKS x SHADOW_BLOCKS blocks of the
/// working image: 8 x 8 pixels each, wider than a printed stroke.
const SHADOW_BLOCKS: usize = 5;
/// A digit's darkness ([`Ink::darkness`]) is that of its core: the pixels
/// of its shape whose ink is at least DARK_CORE of its strongest, the
/// strongest being the DARK_STRONGEST quantile of the shape's ink (one
/// stray pixel does not set it). The anti-aliased edges, half ink and half
/// paper, are left out, so a thin stroke is as dark as its middle.
const DARK_CORE: f32 = 0.6;
const DARK_STRONGEST: f32 = 0.98;
/// The page's polarity is told by the grey levels at these quantiles of a
/// crop, the darkest and the lightest hundredth: whichever lies farther
/// from the median (the paper) is the ink's side. A digit's strokes cover
/// a few hundredths of a crop, so the tails reach into them, past a stray
/// pixel or two.
const INK_TAILS: (f32, f32) = (0.01, 0.99);
/// The ink's contrast is this quantile of a crop's ink: high, so that a
/// digit's strokes set it, while the few strongest pixels (a speck, the
/// noise) do not.
const CONTRAST_QUANTILE: f32 = 0.995;
/// Ink is there only at this many times the crop's noise (the median
/// difference between horizontal neighbours) above the paper, whatever
/// MIN_CONTRAST and FAINT_CONTRAST allow: a grainy photo's paper has
/// contrast of its own.
const NOISE_CONTRAST: f32 = 5.0;
/// The first threshold is Otsu's split of the ink's levels, but at least
/// this share of the ink's contrast: in a crop that is mostly paper with
/// pale shading, Otsu's split may fall among the shading's levels.
const LEAST_CUT: f32 = 0.35;
/// The main component is the clear one with the largest area weighed by
/// its nearness to the crop's centre: the weight falls by
/// MAIN_DISTANCE_WEIGHT per crop side its centroid lies off the centre,
/// down to MAIN_LEAST_WEIGHT (reached two thirds of a side off), so that
/// a digit a little off the centre beats a larger remnant at the edge,
/// and a large piece far off still beats a speck.
const MAIN_DISTANCE_WEIGHT: f32 = 1.5;
const MAIN_LEAST_WEIGHT: f32 = 0.05;
/// Ink past a limit of its shape (too short, too high, too far off the
/// centre) is empty with a margin ([`Prepared::Empty`]) that grows with
/// how far past it is, in shares of the limit, this many times: a third
/// of the limit past it is the full margin, 1.
const MARGIN_RAMP: f32 = 3.0;
/// The margin of ink too wide ([`WIDE`]) grows this many times its
/// width's excess over WIDE (in heights): half a height wider is the full
/// margin.
const WIDE_MARGIN_RAMP: f32 = 2.0;
/// The weight of the features' pixel part against their gradient part
/// (1): both are made unit length, the pixel part scaled by this, then
/// the whole made unit length. The models' prototypes are features too,
/// so a change here means building the models again.
const PIXEL_WEIGHT: f32 = 0.8;

/// In the entries pass ([`prepare_entry`]), ink that reaches the crop's
/// edge is a handwritten digit rather than a grid line's remnant when at
/// least ENTRY_INNER_SHARE of its pixels (its bulk: a half) lie further
/// than ENTRY_EDGE_BAND (a fraction of the crop) from every edge, and it
/// is at least half the crop tall: a remnant is thin and lies along the
/// edge, so almost none of it is inside (none of a grid lines' corner),
/// while a large digit only pokes its ends out.
const ENTRY_EDGE_BAND: f32 = 0.125;
const ENTRY_INNER_SHARE: f32 = 0.5;
/// ... and when it is not a straight stroke: the spread of its pixels
/// across their main direction is at least ENTRY_MIN_SPREAD of the spread
/// along it. A line (a grid line's remnant, a shadow's edge, a fold) of
/// stroke width t and length L has t / L, under 0.1 at a digit's length;
/// a digit's curves and bars spread it to 0.3 and more. A handwritten 1
/// is a straight stroke too: reaching the edge, it is not kept.
const ENTRY_MIN_SPREAD: f32 = 0.2;
/// In the entries pass, ink at least ENTRY_TALL of the crop tall may be up
/// to ENTRY_WIDE times as wide as tall (a handwritten 2 or 7 with a long
/// bar), and pieces beside it that make the whole wider than WIDE
/// (candidate marks next to the entry) are dropped first. Candidate marks
/// are a third of the cell tall or less, far below ENTRY_TALL; entries
/// are read from 0.65 of the crop (`entries::ENTRY_MIN_HEIGHT`).
const ENTRY_TALL: f32 = 0.6;
const ENTRY_WIDE: f32 = 1.5;
/// In the entries pass, a piece of ink that reaches the crop's edge but
/// is too short to stand as a digit of its own (see ENTRY_INNER_SHARE) is
/// part of the digit when it lies within ENTRY_JOIN_GAP pixels (of the
/// WORK x WORK image, about one pen stroke's width) of the digit's main
/// piece: a player's digit running over the crop's edge is often broken
/// in two, by the ink cut at a thin or pale stretch of the stroke or where
/// a grid line's rows were cleared, and only its part away from the edge
/// stood clear (the upper half of a 5, 6 or 8 whose bowl touches the
/// bottom). Such a piece still has ENTRY_JOIN_INNER of its pixels (a
/// fifth) away from the edges and is not a straight stroke
/// (ENTRY_MIN_SPREAD): a line remnant lying along the edge has neither.
/// Only pieces that reach the edge are joined so: pieces that stand clear
/// keep the rules above, so candidate marks stacked in a cell stay apart.
const ENTRY_JOIN_GAP: i32 = 2;
const ENTRY_JOIN_INNER: f32 = 0.2;
/// In the entries pass, ink found too small for a digit is looked at
/// again with the ink threshold lowered to ENTRY_PALE of its level: the
/// level follows the crop's darkest ink (a grid line's remnant), and a
/// pale pencil digit breaks into pieces at it. Only ink then ENTRY_TALL
/// tall is kept, so candidate marks stay small.
const ENTRY_PALE: f32 = 0.6;
/// In the entries pass, the paper is measured around each pixel rather than
/// over the whole crop: a morphological closing (opening for light ink)
/// with a square of this radius in working pixels, wider than any pen's
/// stroke or a grid line's remnant (at most 8 px of 40), narrower than the
/// shadows and shading of a photographed page. Ink is the share of that
/// local paper's light it takes away, so a hand's shadow or a dim corner
/// across the cell no longer joins the digit to the crop's edge.
const ENTRY_FLATTEN_RADIUS: usize = 4;

/// Which reading a crop is prepared for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Printed givens: the one pass that decides the givens.
    Print,
    /// A model's training cell ([`prepare_glyph`]): the givens' pass
    /// without the test for a row of marks, as the models were built.
    Glyph,
    /// A player's entry, in a cell already known to hold no given.
    Entry,
    /// Printed givens on a page read with letters as well as digits (the
    /// symbols model): wide capitals are no row of marks.
    Letters,
    /// Printed givens measured against the paper around each pixel
    /// ([`prepare_shadowed`]), with the ink lighter than it or darker.
    Flat { light_ink: bool },
    /// Printed givens measured against the crop's median paper as in
    /// [`Pass::Print`], with the polarity turned: the ink lighter than the
    /// paper where the grey levels' spread says darker, and the other way
    /// (one of [`prepare_shadowed`]'s looks).
    Turned,
}

/// Why a crop was judged empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmptyReason {
    /// No ink stands out from the background.
    NoInk,
    /// Nothing is left once the border remnants are removed.
    OnlyBorder,
    /// The ink is too small: candidate marks.
    Small,
    /// The ink is too small even for a candidate mark ([`MIN_MARK_HEIGHT`]):
    /// a speck.
    Speck,
    /// In the entries pass ([`prepare_entry`]): the ink is too faint to be
    /// clear, and too small, off the centre or too wide for a digit: an
    /// erased mark or a blank cell's shading, no candidate mark.
    Faint,
    /// The ink lies away from the centre: a mark in a corner.
    OffCentre,
    /// The ink is wider than tall: several candidate digits side by side.
    Wide,
    /// In the givens' pass: digit-like shapes stand side by side, each
    /// narrow (see [`SIBLING_HEIGHT`]): a row of candidate marks, not one
    /// glyph. Kept apart from [`EmptyReason::Wide`], whose count tells a
    /// page turned on its side.
    Several,
}

/// What preprocessing found in a crop.
#[derive(Debug, Clone)]
pub enum Prepared {
    /// Nothing that can be a printed digit; `margin` in 0..=1 tells how
    /// clearly (1 = plainly empty, near 0 = close to a digit). `near` is
    /// ink of a digit's height judged only just too far off the centre
    /// (margin under [`NEAR_MISS`]): a printed digit set high or low in its
    /// cell, or a mark, whose digit the reader offers as the runner-up.
    Empty {
        reason: EmptyReason,
        margin: f32,
        near: Option<Box<Ink>>,
    },
    /// A central ink shape, described by its features.
    Ink(Ink),
}

/// A central ink shape.
#[derive(Debug, Clone)]
pub struct Ink {
    /// Unit-length feature vector.
    pub features: Vec<f32>,
    /// Height of the shape over the crop's side.
    pub height: f32,
    /// Height of the shape's main piece alone over the crop's side: without
    /// the smaller pieces merged beside it (a killer's cage sum in the
    /// corner, candidate marks beside a player's digit). For a glyph of one
    /// stroke, its height.
    pub body: f32,
    /// Width of the shape over the crop's side.
    pub width: f32,
    /// Ink contrast against the background, in grey levels.
    pub contrast: f32,
    /// Mean stroke width over the shape's height (thin handwriting is low).
    pub stroke: f32,
    /// Kept only as a digit level with the centre but off to one side
    /// (see MAX_SIDEWAYS_OFFSET): a crop placed off its column.
    pub shifted: bool,
    /// Fainter than clearly inked (see FAINT_CONTRAST), kept for its printed
    /// stroke and height.
    pub faint: bool,
    /// How dark the strokes' core is against the paper (see DARK_CORE):
    /// `ln(paper / (paper - ink))`, the light the ink takes away on a log
    /// scale, so that it does not change with the light on the page (a
    /// shadow dims ink and paper alike). Print's is about 1.2 on a phone
    /// photo, pencil's half of it. For light ink on a dark page, the same of
    /// the inverted grey levels.
    pub darkness: f32,
}

/// Runs the whole preprocessing on one crop.
pub fn prepare(crop: &GrayImage) -> Prepared {
    prepare_pass(crop, Pass::Print, 1.0)
}

/// Second looks at a cell whose print was not read, on paper a shadow's
/// edge crosses, in [`SHADOW_LOOKS`]' order. Measured against the paper
/// around each pixel, as [`prepare_entry`] measures it (see
/// ENTRY_FLATTEN_RADIUS), with the ink darker than that paper and lighter:
/// for an edge whose dim side the first look took for ink joined to the
/// digit (the crop's median paper is the lit paper). And measured against
/// the crop's median paper with the polarity the first look took turned:
/// for a shadow over most of the crop, whose median is then the shadow's
/// paper, and whose lit side, or the lit paper in a digit's loop, stands
/// above it as far as the digit below, so that the first look may have
/// taken it for light ink on a dark page (measured against the paper
/// around each pixel, the dim side along the edge is ink again; against
/// the shadow's paper, the digit in the shadow stands alone). No measure
/// of a crop across a shadow's edge tells the polarity for sure; the wrong
/// one finds no digit.
/// Where the crop's paper is even (see SHADOW_STEP) there is no shadow to
/// look past, and no second look but one: where the first look took the
/// ink for lighter than the paper and the page's print is darker
/// (`page_light_ink`, whether the page's print is lighter than its paper,
/// see [`light_ink`]), or the other way, the look with the polarity turned.
/// A shadow that leaves lit only a corner of the crop changes too little of
/// its paper to pass SHADOW_STEP, and turns the polarity all the same.
pub fn prepare_shadowed(crop: &GrayImage, page_light_ink: Option<bool>) -> Vec<Prepared> {
    if crop.width() == 0 || crop.height() == 0 {
        return Vec::new();
    }
    let work = to_work(crop);
    let (med, light) = paper_of(&work);
    let turned = || {
        if page_light_ink.is_some_and(|page| page != light) {
            vec![prepare_pass(crop, Pass::Turned, 1.0)]
        } else {
            Vec::new()
        }
    };
    // A quick look first, on the paper of SHADOW_BLOCKS x SHADOW_BLOCKS
    // blocks (each one's lightest pixel): most cells have even paper.
    if block_paper_step(&work) <= SHADOW_STEP * med.max(1.0) {
        return turned();
    }
    let (_, mut bg) = flat_light_ink(&work);
    bg.sort_unstable_by(f32::total_cmp);
    let step = bg[bg.len() * 9 / 10] - bg[bg.len() / 10];
    if step <= SHADOW_STEP * med.max(1.0) {
        return turned();
    }
    SHADOW_LOOKS
        .iter()
        .map(|&pass| prepare_pass(crop, pass, 1.0))
        .collect()
}

/// Whether [`prepare`] takes the ink of a crop for lighter than its paper
/// (a dark page), from the spread of its grey levels either side of their
/// median.
pub fn light_ink(crop: &GrayImage) -> bool {
    crop.width() > 0 && crop.height() > 0 && paper_of(&to_work(crop)).1
}

/// The passes of [`prepare_shadowed`]'s second looks.
const SHADOW_LOOKS: [Pass; 3] = [
    Pass::Flat { light_ink: false },
    Pass::Turned,
    Pass::Flat { light_ink: true },
];

/// The grey level at quantile `p` of the histogram `h` of `total` pixels.
pub(crate) fn quantile(h: &[u32], total: u32, p: f32) -> f32 {
    let target = ((total - 1) as f32 * p) as u32;
    let mut acc = 0u32;
    for (i, &c) in h.iter().enumerate() {
        acc += c;
        if acc > target {
            return i as f32;
        }
    }
    (h.len() - 1) as f32
}

/// How much the paper of a working image changes across it, in grey
/// levels, roughly and quickly: the lightest pixel of each of
/// SHADOW_BLOCKS x SHADOW_BLOCKS blocks (a block is wider than a stroke, so
/// it holds paper), the 90th percentile of those less their 10th. Dark ink
/// leaves it as the paper's own change; a shadow's edge raises it as the
/// paper around each pixel does ([`prepare_shadowed`]'s full measure), and
/// light ink on a dark page raises it too (the full measure then decides).
fn block_paper_step(work: &[u8]) -> f32 {
    let side = WORK / SHADOW_BLOCKS;
    let mut blocks = [0u8; SHADOW_BLOCKS * SHADOW_BLOCKS];
    for (k, b) in blocks.iter_mut().enumerate() {
        let (bx, by) = (k % SHADOW_BLOCKS * side, k / SHADOW_BLOCKS * side);
        *b = (by..by + side)
            .flat_map(|y| work[y * WORK + bx..y * WORK + bx + side].iter().copied())
            .max()
            .unwrap_or(0);
    }
    blocks.sort_unstable();
    let n = blocks.len();
    (blocks[n * 9 / 10] - blocks[n / 10]) as f32
}

/// Whether the ink of a working image is lighter than its paper, judged
/// against the paper around each pixel (see ENTRY_FLATTEN_RADIUS) taken
/// both ways: the strokes stand out of it further one way than the other.
/// A shadow's edge, which the crop's median (see [`paper_of`]) can take
/// for light ink on a dark page when it covers half the crop, stands out
/// of it neither way. With the local paper taken that way, on which
/// [`prepare_shadowed`] measures the paper's change.
fn flat_light_ink(work: &[u8]) -> (bool, Vec<f32>) {
    let strongest = |light_ink: bool| {
        let paper = local_paper(work, WORK, ENTRY_FLATTEN_RADIUS, light_ink);
        let mut ink: Vec<f32> = paper
            .iter()
            .zip(work)
            .map(|(&b, &v)| {
                if light_ink {
                    v as f32 - b
                } else {
                    b - v as f32
                }
            })
            .collect();
        let at = (ink.len() - 1) * 99 / 100;
        (*ink.select_nth_unstable_by(at, f32::total_cmp).1, paper)
    };
    let (light, light_paper) = strongest(true);
    let (dark, dark_paper) = strongest(false);
    if light > dark {
        (true, light_paper)
    } else {
        (false, dark_paper)
    }
}

/// The paper's grey level (the median) of a working image, and whether its
/// ink is lighter than the paper (a dark page), from the spread of the
/// grey levels either side.
fn paper_of(work: &[u8]) -> (f32, bool) {
    let mut hist = [0u32; 256];
    for &v in work {
        hist[v as usize] += 1;
    }
    let total = work.len() as u32;
    let med = quantile(&hist, total, 0.5);
    let dark_ink = med - quantile(&hist, total, INK_TAILS.0);
    let light_ink = quantile(&hist, total, INK_TAILS.1) - med;
    (med, light_ink > dark_ink)
}

/// [`prepare`] for a model's training cell, one glyph drawn in place: a
/// glyph is never taken for a row of marks ([`SIBLING_HEIGHT`]), which is
/// a reading's test of a page, so the prototypes are learnt from every
/// drawn cell as before it.
pub fn prepare_glyph(crop: &GrayImage) -> Prepared {
    prepare_pass(crop, Pass::Glyph, 1.0)
}

/// [`prepare`] for a page whose symbols include letters: ink up to
/// [`LETTER_WIDE`] times as wide as tall is a symbol, not a row of marks.
pub fn prepare_letters(crop: &GrayImage) -> Prepared {
    prepare_pass(crop, Pass::Letters, 1.0)
}

/// [`prepare`] for a cell the reader holds no given in, where a player's
/// handwriting is looked for: a large digit may reach the crop's edges,
/// be wider than a printed one, or have candidate marks beside it, which
/// are left out of its shape (see ENTRY_EDGE_BAND, ENTRY_TALL). Ink [`prepare`] keeps as a
/// digit comes out the same.
pub fn prepare_entry(crop: &GrayImage) -> Prepared {
    let first = prepare_pass(crop, Pass::Entry, 1.0);
    if let Prepared::Empty {
        reason: EmptyReason::Small | EmptyReason::Speck | EmptyReason::Faint,
        ..
    } = first
    {
        let pale = prepare_pass(crop, Pass::Entry, ENTRY_PALE);
        if let Prepared::Ink(ink) = &pale
            && ink.height >= ENTRY_TALL
        {
            return pale;
        }
    }
    first
}

fn prepare_pass(crop: &GrayImage, pass: Pass, scale: f32) -> Prepared {
    let entry = pass == Pass::Entry;
    let n = WORK;
    if crop.width() == 0 || crop.height() == 0 {
        return empty(EmptyReason::NoInk, 1.0);
    }
    let work = to_work(crop);
    let (med, dark_mode, ink) = ink_of(&work, pass);
    let (noise, contrast) = noise_and_contrast(&work, &ink);
    let min_contrast = MIN_CONTRAST.max(NOISE_CONTRAST * noise);
    let no_ink = empty(
        EmptyReason::NoInk,
        (1.0 - contrast / min_contrast).clamp(0.0, 1.0),
    );
    if contrast < FAINT_CONTRAST.max(NOISE_CONTRAST * noise) {
        return no_ink;
    }
    let faint = contrast < min_contrast;
    // In the entries pass, ink too faint to be clear (erased pencil, a
    // blank cell's shading) is no candidate mark, whatever its shape.
    let mark = |reason: EmptyReason| {
        if entry && faint {
            EmptyReason::Faint
        } else {
            reason
        }
    };
    let comps = ink_components(&ink, contrast, scale, entry);
    let clear: Vec<&Comp> = comps.iter().filter(|c| stands_clear(c, entry)).collect();
    if clear.is_empty() {
        return empty(EmptyReason::OnlyBorder, 1.0);
    }
    let main = main_component(&clear);
    // A digit-like shape level with the main one makes a row of marks.
    if matches!(pass, Pass::Print | Pass::Flat { .. } | Pass::Turned)
        && comps
            .iter()
            .any(|c| beside_level(c, main) && marks_digit(c, entry))
    {
        return empty(EmptyReason::Several, 1.0);
    }
    let mut pieces = Pieces::merge(&comps, main, entry);
    let height = pieces.height();
    if height < MIN_DIGIT_HEIGHT {
        return empty(
            mark(if height < MIN_MARK_HEIGHT {
                EmptyReason::Speck
            } else {
                EmptyReason::Small
            }),
            ((MIN_DIGIT_HEIGHT - height) / MIN_DIGIT_HEIGHT * MARGIN_RAMP).clamp(0.0, 1.0),
        );
    }
    if entry && height >= ENTRY_TALL && pieces.width() > height * WIDE {
        pieces.keep_over(main);
    }
    let (height, width) = (pieces.height(), pieces.width());
    if width > height * widest(pass, height) {
        return empty(
            mark(EmptyReason::Wide),
            ((width / height - WIDE) * WIDE_MARGIN_RAMP).clamp(0.0, 1.0),
        );
    }
    let (off_centre, shifted) = off_centre(pieces.bounds, height);
    if let Some(margin) = off_centre
        && (margin >= NEAR_MISS || height < TALL_DIGIT)
    {
        return empty(mark(EmptyReason::OffCentre), margin);
    }
    let (digit, shape_hist, stroke) = digit_image(&comps, &pieces, &ink, contrast);
    if faint && (stroke < FAINT_MIN_STROKE || height > FAINT_MAX_HEIGHT) {
        return no_ink;
    }
    let [x0, y0, x1, y1] = pieces.bounds;
    let features = features(&digit, x0, y0, x1, y1);
    let paper = if dark_mode { 255.0 - med } else { med };
    let darkness = core_darkness(&shape_hist, paper);
    let ink = Ink {
        features,
        height,
        body: (main.y1 - main.y0 + 1) as f32 / n as f32,
        width,
        contrast,
        stroke,
        shifted,
        faint,
        darkness,
    };
    match off_centre {
        Some(margin) => Prepared::Empty {
            reason: mark(EmptyReason::OffCentre),
            margin,
            near: Some(Box::new(ink)),
        },
        None => Prepared::Ink(ink),
    }
}

/// How many times its height ink of `height` may be wide in `pass`: a
/// player's large entry ([`ENTRY_WIDE`]), a page's letters
/// ([`LETTER_WIDE`]), or [`WIDE`].
fn widest(pass: Pass, height: f32) -> f32 {
    if pass == Pass::Entry && height >= ENTRY_TALL {
        ENTRY_WIDE
    } else if pass == Pass::Letters {
        LETTER_WIDE
    } else {
        WIDE
    }
}

/// An empty cell, for `reason`, by `margin` (see [`Prepared::Empty`]),
/// with no shape described.
fn empty(reason: EmptyReason, margin: f32) -> Prepared {
    Prepared::Empty {
        reason,
        margin,
        near: None,
    }
}

/// A working image's paper (its median grey level), whether its ink is
/// lighter than the paper (as `pass` takes it), and each pixel's ink: how
/// far it lies from the paper towards the ink's side, in grey levels, 0 on
/// the paper's side.
fn ink_of(work: &[u8], pass: Pass) -> (f32, bool, Vec<f32>) {
    let n = WORK;
    let flat = pass == Pass::Entry || matches!(pass, Pass::Flat { .. });
    // Polarity and background from the grey-level distribution.
    let (med, mut dark_mode) = paper_of(work);
    match pass {
        Pass::Flat { light_ink } => dark_mode = light_ink,
        Pass::Turned => dark_mode = !dark_mode,
        _ => {}
    }
    // The givens' pass measures ink against the crop's median paper; the
    // entries pass and the givens' second look against the paper around
    // each pixel (see ENTRY_FLATTEN_RADIUS).
    let ink: Vec<f32> = if flat {
        let bg = local_paper(work, n, ENTRY_FLATTEN_RADIUS, dark_mode);
        work.iter()
            .zip(&bg)
            .map(|(&v, &b)| {
                // Dark ink: its share of the local paper's light lost, on
                // the scale of the crop's median paper (a shadow dims ink
                // and paper alike). Light ink on a dark page: above it.
                let d = if dark_mode {
                    v as f32 - b
                } else {
                    (b - v as f32) * med / b.max(1.0)
                };
                d.max(0.0)
            })
            .collect()
    } else {
        work.iter()
            .map(|&v| {
                let d = if dark_mode {
                    v as f32 - med
                } else {
                    med - v as f32
                };
                d.max(0.0)
            })
            .collect()
    };
    (med, dark_mode, ink)
}

/// A working image's noise and its ink's contrast (see
/// [`CONTRAST_QUANTILE`]), in grey levels.
fn noise_and_contrast(work: &[u8], ink: &[f32]) -> (f32, f32) {
    let n = WORK;
    let total = work.len() as u32;
    let pct = |h: &[u32], p: f32| quantile(h, total, p);
    // Noise: median difference between horizontal neighbours (edges are
    // few, so they barely move it); contrast: a high percentile of the ink.
    let mut dev_hist = [0u32; 256];
    let mut ink_hist = [0u32; 256];
    for row in work.chunks_exact(n) {
        for pair in row.windows(2) {
            dev_hist[pair[0].abs_diff(pair[1]) as usize] += 1;
        }
    }
    for &i in ink {
        ink_hist[i as usize] += 1;
    }
    let noise = pct(&dev_hist, 0.5 * (total - n as u32) as f32 / total as f32);
    let contrast = pct(&ink_hist, CONTRAST_QUANTILE);
    (noise, contrast)
}

/// How many of the working image's edges `c` reaches.
fn edges(c: &Comp) -> u8 {
    let last = WORK as i32 - 1;
    (c.x0 == 0) as u8 + (c.y0 == 0) as u8 + (c.x1 == last) as u8 + (c.y1 == last) as u8
}

/// The share of `c`'s pixels inside the band along the working image's
/// edges (see ENTRY_EDGE_BAND).
fn inner_share(c: &Comp) -> f32 {
    let n = WORK;
    let last = n as i32 - 1;
    let band = (ENTRY_EDGE_BAND * n as f32).round() as i32;
    let inner = c
        .pixels
        .iter()
        .filter(|&&p| {
            let (x, y) = ((p as usize % n) as i32, (p as usize / n) as i32);
            x >= band && y >= band && x <= last - band && y <= last - band
        })
        .count();
    inner as f32 / c.area as f32
}

/// In the entries pass: a large digit reaching the edge (see
/// ENTRY_INNER_SHARE).
fn border_digit(c: &Comp) -> bool {
    (c.y1 - c.y0 + 1) * 2 >= WORK as i32
        && inner_share(c) >= ENTRY_INNER_SHARE
        && c.spread() >= ENTRY_MIN_SPREAD
}

/// Whether `c` counts as ink of the cell: components that reach the
/// crop's edge are grid-line remnants, unless one reaches a single edge
/// from across the centre, at least half the crop tall (a large digit that
/// the crop clips), or in the entries pass (`entry`) is a large digit
/// reaching the edge ([`border_digit`]).
fn stands_clear(c: &Comp, entry: bool) -> bool {
    let n = WORK;
    let mid = (n as i32 - 1) / 2;
    let edges = edges(c);
    let clipped_digit = edges == 1
        && c.x0 < mid
        && c.x1 > mid
        && c.y0 < mid
        && c.y1 > mid
        && (c.y1 - c.y0 + 1) * 2 >= n as i32;
    c.area >= 3 && (edges == 0 || clipped_digit || (entry && edges <= 2 && border_digit(c)))
}

/// A second digit of a row of marks is no straight stroke (a line's
/// remnant, a dash of a killer's cage outline; see ENTRY_MIN_SPREAD),
/// and may run into one edge of the crop. A grid's corner, spread but at
/// two edges, does not count.
fn marks_digit(c: &Comp, entry: bool) -> bool {
    c.spread() >= ENTRY_MIN_SPREAD && (stands_clear(c, entry) || (c.area >= 3 && edges(c) <= 1))
}

/// The components of the ink above a threshold: Otsu's split of the ink
/// (at least [`LEAST_CUT`] of its `contrast`) times `scale`. Shading
/// across the cell that reaches the digit joins it to the crop's edge:
/// when nothing stands clear, stricter thresholds are tried, which keep
/// the dark print and drop the paler shading.
fn ink_components(ink: &[f32], contrast: f32, scale: f32, entry: bool) -> Vec<Comp> {
    let n = WORK;
    let base = otsu(ink, contrast).max(LEAST_CUT * contrast) * scale;
    let mut comps = Vec::new();
    let levels = [
        base,
        base.max(STRICT_LEVELS[0] * contrast),
        base.max(STRICT_LEVELS[1] * contrast),
    ];
    for (i, &level) in levels.iter().enumerate() {
        if i > 0 && level <= levels[i - 1] {
            continue;
        }
        let mut bin: Vec<bool> = ink.iter().map(|&v| v > level).collect();
        clear_border_lines(&mut bin);
        comps = components(&bin);
        if comps.iter().any(|c| stands_clear(c, entry)) || i + 1 == levels.len() {
            break;
        }
        // Only ink over the centre, all of it joined to an edge now, calls
        // for a stricter look: a line remnant off the centre is left as it
        // is.
        let middle = n * 2 / 5..n * 3 / 5;
        let centre_inked = middle
            .clone()
            .any(|y| bin[y * n + middle.start..y * n + middle.end].contains(&true));
        if !centre_inked {
            break;
        }
    }
    comps
}

/// The main component among those that stand clear (not empty): large
/// and central (see [`MAIN_DISTANCE_WEIGHT`]).
fn main_component<'a>(clear: &[&'a Comp]) -> &'a Comp {
    let n = WORK;
    let centre = (n as f32 - 1.0) / 2.0;
    let score = |c: &Comp| {
        let (cx, cy) = c.centroid();
        let d = ((cx - centre).powi(2) + (cy - centre).powi(2)).sqrt() / n as f32;
        c.area as f32 * (1.0 - MAIN_DISTANCE_WEIGHT * d).max(MAIN_LEAST_WEIGHT)
    };
    clear
        .iter()
        .copied()
        .max_by(|a, b| score(a).total_cmp(&score(b)))
        .expect("not empty")
}

/// The pieces of ink read as the digit: the main component and those
/// merged with it.
struct Pieces<'a> {
    /// The components that stand clear, and those joined to them.
    inner: Vec<&'a Comp>,
    /// Which components (by id) are kept.
    keep: Vec<bool>,
    /// The kept pieces' box: x0, y0, x1, y1, inclusive.
    bounds: [i32; 4],
}

impl<'a> Pieces<'a> {
    /// The pieces of `comps` kept with `main`: those lying within or next
    /// to its box, and in the entries pass (`entry`) the pieces of the
    /// digit broken off at the edge (see ENTRY_JOIN_GAP).
    fn merge(comps: &'a [Comp], main: &Comp, entry: bool) -> Self {
        let n = WORK;
        let joined = if entry {
            join_near(comps, main, ENTRY_JOIN_GAP, |c| {
                !stands_clear(c, entry)
                    && c.area >= 3
                    && edges(c) <= 2
                    && c.spread() >= ENTRY_MIN_SPREAD
                    && inner_share(c) >= ENTRY_JOIN_INNER
            })
        } else {
            vec![false; comps.len()]
        };
        let inner: Vec<&Comp> = comps
            .iter()
            .filter(|c| stands_clear(c, entry) || joined[c.id])
            .collect();
        // Merge pieces lying within or next to the main component's box.
        let pad = (n / 10) as i32;
        let (mut x0, mut y0, mut x1, mut y1) = (main.x0, main.y0, main.x1, main.y1);
        let mut keep = vec![false; comps.len()];
        keep[main.id] = true;
        for c in &inner {
            if c.id == main.id || c.area < 2 {
                continue;
            }
            let overlaps =
                c.x0 <= x1 + pad && c.x1 >= x0 - pad && c.y0 <= y1 + pad && c.y1 >= y0 - pad;
            let small_enough = c.area * 2 <= main.area.max(8) || (c.x0 >= x0 && c.x1 <= x1);
            if joined[c.id] || (overlaps && small_enough) {
                keep[c.id] = true;
                x0 = x0.min(c.x0);
                y0 = y0.min(c.y0);
                x1 = x1.max(c.x1);
                y1 = y1.max(c.y1);
            }
        }
        Pieces {
            inner,
            keep,
            bounds: [x0, y0, x1, y1],
        }
    }

    /// The box's height over the crop's side.
    fn height(&self) -> f32 {
        (self.bounds[3] - self.bounds[1] + 1) as f32 / WORK as f32
    }

    /// The box's width over the crop's side.
    fn width(&self) -> f32 {
        (self.bounds[2] - self.bounds[0] + 1) as f32 / WORK as f32
    }

    /// Drops the pieces merged beside `main` (marks next to an entry): only
    /// those over its columns stay.
    fn keep_over(&mut self, main: &Comp) {
        let (mut x0, mut y0, mut x1, mut y1) = (main.x0, main.y0, main.x1, main.y1);
        for c in &self.inner {
            if self.keep[c.id] && c.id != main.id {
                if c.x0 <= main.x1 && c.x1 >= main.x0 {
                    y0 = y0.min(c.y0);
                    y1 = y1.max(c.y1);
                    x0 = x0.min(c.x0.max(main.x0));
                    x1 = x1.max(c.x1.min(main.x1));
                } else {
                    self.keep[c.id] = false;
                }
            }
        }
        self.bounds = [x0, y0, x1, y1];
    }
}

/// How far off the crop's centre ink in the box `bounds` (x0, y0, x1, y1)
/// of `height` lies: the margin by which it is off-centre, if it is (see
/// [`Prepared::Empty`]), and whether it lies beyond MAX_CENTRE_OFFSET.
fn off_centre(bounds: [i32; 4], height: f32) -> (Option<f32>, bool) {
    let n = WORK;
    let last = n as i32 - 1;
    let centre = (n as f32 - 1.0) / 2.0;
    let [x0, y0, x1, y1] = bounds;
    let bx = (x0 + x1) as f32 / 2.0;
    let by = (y0 + y1) as f32 / 2.0;
    // Across an edge that clips the ink, where its middle lies is unknown:
    // only the other direction's offset counts.
    let dx = if x0 == 0 || x1 == last {
        0.0
    } else {
        bx - centre
    };
    let dy = if y0 == 0 || y1 == last {
        0.0
    } else {
        by - centre
    };
    let off = (dx.powi(2) + dy.powi(2)).sqrt() / n as f32;
    // Candidate marks sit high in the cell; a printed digit is centred.
    let high = (centre - by) / n as f32;
    // Ink off the centre is empty; only just off, its shape is still
    // described, for the runner-up.
    let mut off_centre = None;
    if height < HIGH_MARK_HEIGHT && high > MAX_RISE {
        off_centre = Some(((high - MAX_RISE) / MAX_RISE * MARGIN_RAMP).clamp(0.0, 1.0));
    }
    // A digit's height of ink beside the centre, level with it, is a
    // printed digit in a crop placed off its column, not a mark.
    let shifted_digit = height >= TALL_DIGIT
        && dx.abs() / n as f32 <= MAX_SIDEWAYS_OFFSET
        && dy.abs() / n as f32 <= MAX_LEVEL_OFFSET;
    let shifted = off > MAX_CENTRE_OFFSET;
    if shifted && !shifted_digit && off_centre.is_none() {
        off_centre =
            Some(((off - MAX_CENTRE_OFFSET) / MAX_CENTRE_OFFSET * MARGIN_RAMP).clamp(0.0, 1.0));
    }
    (off_centre, shifted)
}

/// The ink of the kept pieces (and one pixel around them, for the
/// anti-aliased edges) scaled to 0..=1 by `contrast`, the histogram of the
/// kept pixels' ink, and the shape's stroke width over its height.
fn digit_image(
    comps: &[Comp],
    pieces: &Pieces,
    ink: &[f32],
    contrast: f32,
) -> (Vec<f32>, [u32; 256], f32) {
    let n = WORK;
    let [x0, y0, x1, y1] = pieces.bounds;
    // Kept-ink mask with a one-pixel frame, so neighbours need no checks.
    let m = n + 2;
    let mut mask = vec![false; m * m];
    for c in comps.iter().filter(|c| pieces.keep[c.id]) {
        for &p in &c.pixels {
            let (x, y) = (p as usize % n, p as usize / n);
            mask[(y + 1) * m + x + 1] = true;
        }
    }
    let mut digit = vec![0f32; n * n];
    let mut shape_hist = [0u32; 256];
    let mut area = 0usize;
    let mut boundary = 0usize;
    let (ylo, yhi) = (
        (y0 - 1).max(0) as usize,
        (y1 + 1).min(n as i32 - 1) as usize,
    );
    let (xlo, xhi) = (
        (x0 - 1).max(0) as usize,
        (x1 + 1).min(n as i32 - 1) as usize,
    );
    for y in ylo..=yhi {
        for x in xlo..=xhi {
            let (my, mx) = (y + 1, x + 1);
            let near =
                (my - 1..=my + 1).any(|yy| mask[yy * m + mx - 1..=yy * m + mx + 1].contains(&true));
            if near {
                digit[y * n + x] = (ink[y * n + x] / contrast).min(1.0);
            }
            if mask[my * m + mx] {
                shape_hist[ink[y * n + x] as usize] += 1;
                area += 1;
                let inside = mask[(my - 1) * m + mx]
                    && mask[(my + 1) * m + mx]
                    && mask[my * m + mx - 1]
                    && mask[my * m + mx + 1];
                if !inside {
                    boundary += 1;
                }
            }
        }
    }
    let stroke = area as f32 / (boundary.max(1) as f32 / 2.0).max(1.0) / (y1 - y0 + 1) as f32;
    (digit, shape_hist, stroke)
}

/// [`Ink::darkness`] of a shape whose pixels' ink (grey levels taken from
/// the `paper`'s level) is counted in `hist`; 0 for no shape.
fn core_darkness(hist: &[u32; 256], paper: f32) -> f32 {
    let total: u32 = hist.iter().sum();
    if total == 0 || paper < 1.0 {
        return 0.0;
    }
    let target = ((total - 1) as f32 * DARK_STRONGEST) as u32;
    let mut acc = 0u32;
    let strongest = hist
        .iter()
        .position(|&c| {
            acc += c;
            acc > target
        })
        .unwrap_or(255) as f32;
    let (mut sum, mut count) = (0f32, 0u32);
    for (level, &c) in hist.iter().enumerate() {
        if level as f32 >= DARK_CORE * strongest {
            sum += level as f32 * c as f32;
            count += c;
        }
    }
    let core = sum / count.max(1) as f32;
    (paper / (paper - core).max(1.0)).ln().max(0.0)
}

/// The WORK x WORK working image that [`prepare`] looks at: `prepare` of
/// it gives the same as `prepare` of `crop`, so a cell can be kept small
/// (handwriting samples for a model's build).
pub fn work_image(crop: &GrayImage) -> GrayImage {
    GrayImage::from_raw(WORK as u32, WORK as u32, to_work(crop)).expect("WORK x WORK pixels")
}

/// Resamples any crop to the WORK x WORK working image: area averaging
/// when shrinking, bilinear when enlarging.
fn to_work(crop: &GrayImage) -> Vec<u8> {
    let (w, h) = (crop.width() as usize, crop.height() as usize);
    if w == WORK && h == WORK {
        return crop.as_raw().clone();
    }
    let src = crop.as_raw();
    let xw = weights(w, WORK);
    let yw = weights(h, WORK);
    // Rows first, then columns.
    let mut tmp = vec![0f32; h * WORK];
    for y in 0..h {
        let row = &src[y * w..(y + 1) * w];
        for (x, taps) in xw.iter().enumerate() {
            tmp[y * WORK + x] = taps.iter().map(|&(i, wt)| row[i] as f32 * wt).sum();
        }
    }
    let mut out = vec![0u8; WORK * WORK];
    for (y, taps) in yw.iter().enumerate() {
        for x in 0..WORK {
            let v: f32 = taps.iter().map(|&(i, wt)| tmp[i * WORK + x] * wt).sum();
            // `as` saturates; + 0.5 rounds the non-negative values.
            out[y * WORK + x] = (v + 0.5) as u8;
        }
    }
    out
}

/// For each of `m` output samples, the input indices and weights.
fn weights(n: usize, m: usize) -> Vec<Vec<(usize, f32)>> {
    let ratio = n as f32 / m as f32;
    (0..m)
        .map(|o| {
            if ratio >= 1.0 {
                let (lo, hi) = (o as f32 * ratio, (o + 1) as f32 * ratio);
                let mut taps = Vec::new();
                let mut i = lo.floor() as usize;
                while (i as f32) < hi && i < n {
                    let wt = ((i + 1) as f32).min(hi) - (i as f32).max(lo);
                    if wt > 0.0 {
                        taps.push((i, wt / ratio));
                    }
                    i += 1;
                }
                taps
            } else {
                let c = ((o as f32 + 0.5) * ratio - 0.5).clamp(0.0, (n - 1) as f32);
                let i0 = c.floor() as usize;
                let f = c - i0 as f32;
                let i1 = (i0 + 1).min(n - 1);
                vec![(i0, 1.0 - f), (i1, f)]
            }
        })
        .collect()
}

/// The paper's grey around each pixel of an `n` x `n` image: its closing
/// (dark ink: the largest grey within `radius`, then the smallest of those)
/// or, for light ink on a dark page (`light_ink`), its opening. Strokes
/// narrower than the square vanish from it; shading wider stays.
fn local_paper(work: &[u8], n: usize, radius: usize, light_ink: bool) -> Vec<f32> {
    // One pass of a square filter, separable: rows, then columns.
    let filter = |src: &[u8], take_max: bool| -> Vec<u8> {
        let pick = |a: u8, b: u8| if take_max { a.max(b) } else { a.min(b) };
        let mut rows = vec![0u8; n * n];
        for y in 0..n {
            for x in 0..n {
                let (a, b) = (x.saturating_sub(radius), (x + radius).min(n - 1));
                rows[y * n + x] = src[y * n + a..=y * n + b]
                    .iter()
                    .copied()
                    .reduce(pick)
                    .unwrap_or(0);
            }
        }
        let mut out = vec![0u8; n * n];
        for y in 0..n {
            let (a, b) = (y.saturating_sub(radius), (y + radius).min(n - 1));
            for x in 0..n {
                out[y * n + x] = (a..=b).map(|yy| rows[yy * n + x]).reduce(pick).unwrap_or(0);
            }
        }
        out
    };
    let first = filter(work, !light_ink);
    filter(&first, light_ink)
        .into_iter()
        .map(f32::from)
        .collect()
}

/// Otsu's threshold over the ink values in 0..=top.
fn otsu(ink: &[f32], top: f32) -> f32 {
    const BINS: usize = 64;
    let mut hist = [0u32; BINS];
    for &v in ink {
        let b = ((v / top) * (BINS - 1) as f32).clamp(0.0, (BINS - 1) as f32) as usize;
        hist[b] += 1;
    }
    let total = ink.len() as f64;
    let sum_all: f64 = hist
        .iter()
        .enumerate()
        .map(|(i, &h)| i as f64 * h as f64)
        .sum();
    let (mut w0, mut sum0) = (0f64, 0f64);
    let (mut best, mut best_t) = (-1f64, BINS / 2);
    for (t, &h) in hist.iter().enumerate() {
        w0 += h as f64;
        sum0 += t as f64 * h as f64;
        let w1 = total - w0;
        if w0 == 0.0 || w1 == 0.0 {
            continue;
        }
        let m0 = sum0 / w0;
        let m1 = (sum_all - sum0) / w1;
        let between = w0 * w1 * (m0 - m1) * (m0 - m1);
        if between > best {
            best = between;
            best_t = t;
        }
    }
    (best_t as f32 + 0.5) / (BINS - 1) as f32 * top
}

/// Clears rows and columns near the border that belong to a line crossing
/// the whole crop (grid-line remnants, possibly slightly tilted), even where
/// they touch the digit. A digit's bar spans far less than the crop.
fn clear_border_lines(bin: &mut [bool]) {
    let n = WORK;
    let band = n * 22 / 100;
    let own = n * 30 / 100;
    let span = n * 80 / 100;
    let rows: Vec<usize> = (0..band).chain(n - band..n).collect();
    let at = |b: &[bool], x: usize, y: usize, horizontal: bool| {
        if horizontal {
            b[y * n + x]
        } else {
            b[x * n + y]
        }
    };
    for horizontal in [true, false] {
        let mut clear = Vec::new();
        for &i in &rows {
            let count = (0..n).filter(|&t| at(bin, t, i, horizontal)).count();
            if count <= own {
                continue;
            }
            let union = (0..n)
                .filter(|&t| {
                    (i.saturating_sub(1)..=(i + 1).min(n - 1)).any(|j| at(bin, t, j, horizontal))
                })
                .count();
            if union >= span {
                clear.push(i);
            }
        }
        for i in clear {
            for t in 0..n {
                if horizontal {
                    bin[i * n + t] = false;
                } else {
                    bin[t * n + i] = false;
                }
            }
        }
    }
}

/// Whether `c` stands beside `main` as a second digit of a row of marks
/// would (see [`SIBLING_HEIGHT`]).
fn beside_level(c: &Comp, main: &Comp) -> bool {
    let n = WORK as f32;
    let height = |c: &Comp| (c.y1 - c.y0 + 1) as f32;
    let shared_rows = (c.y1.min(main.y1) - c.y0.max(main.y0) + 1) as f32;
    let gap = (c.x0 - main.x1).max(main.x0 - c.x1) - 1;
    c.id != main.id
        && gap >= 0
        && gap as f32 <= SIBLING_GAP * n
        && height(c) >= SIBLING_HEIGHT * height(main)
        && height(main) >= SIBLING_HEIGHT * height(c)
        && shared_rows >= SIBLING_LEVEL * height(c).min(height(main))
}

#[derive(Debug, Clone)]
struct Comp {
    id: usize,
    area: usize,
    sx: usize,
    sy: usize,
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
    pixels: Vec<u32>,
}

impl Comp {
    /// The standard deviation of the pixels across their main direction
    /// over the one along it: near 0 for a straight stroke, 1 for a round
    /// blob.
    fn spread(&self) -> f32 {
        let n = WORK;
        let (mx, my) = self.centroid();
        let (mut sxx, mut syy, mut sxy) = (0f32, 0f32, 0f32);
        for &p in &self.pixels {
            let x = (p as usize % n) as f32 - mx;
            let y = (p as usize / n) as f32 - my;
            sxx += x * x;
            syy += y * y;
            sxy += x * y;
        }
        // Eigenvalues of the 2x2 covariance (the common 1/area cancels).
        let half = (sxx + syy) / 2.0;
        let root = (((sxx - syy) / 2.0).powi(2) + sxy * sxy).sqrt();
        let (major, minor) = (half + root, (half - root).max(0.0));
        if major <= 0.0 {
            return 1.0;
        }
        (minor / major).sqrt()
    }

    fn centroid(&self) -> (f32, f32) {
        (
            self.sx as f32 / self.area as f32,
            self.sy as f32 / self.area as f32,
        )
    }
}

/// Which of `comps` are joined to `main`: those `joinable` with a pixel
/// within `gap` pixels (each way) of `main` or of a piece joined before.
/// `main` itself is not marked.
fn join_near(comps: &[Comp], main: &Comp, gap: i32, joinable: impl Fn(&Comp) -> bool) -> Vec<bool> {
    let n = WORK as i32;
    let mut joined = vec![false; comps.len()];
    let mut near = vec![false; WORK * WORK];
    let reach = |c: &Comp, near: &mut [bool]| {
        for &p in &c.pixels {
            let (x, y) = (p as i32 % n, p as i32 / n);
            for yy in (y - gap).max(0)..=(y + gap).min(n - 1) {
                let row = (yy * n) as usize;
                near[row + (x - gap).max(0) as usize..=row + (x + gap).min(n - 1) as usize]
                    .fill(true);
            }
        }
    };
    reach(main, &mut near);
    loop {
        let mut grew = false;
        for c in comps {
            if c.id == main.id
                || joined[c.id]
                || !c.pixels.iter().any(|&p| near[p as usize])
                || !joinable(c)
            {
                continue;
            }
            joined[c.id] = true;
            reach(c, &mut near);
            grew = true;
        }
        if !grew {
            return joined;
        }
    }
}

/// 8-connected components, in raster order of their first pixel.
fn components(bin: &[bool]) -> Vec<Comp> {
    let n = WORK;
    label::components(bin, n)
        .pixels
        .into_iter()
        .enumerate()
        .map(|(id, pixels)| {
            let mut c = Comp {
                id,
                area: pixels.len(),
                sx: 0,
                sy: 0,
                x0: i32::MAX,
                y0: i32::MAX,
                x1: i32::MIN,
                y1: i32::MIN,
                pixels,
            };
            for &p in &c.pixels {
                let (x, y) = ((p as usize % n) as i32, (p as usize / n) as i32);
                c.sx += x as usize;
                c.sy += y as usize;
                c.x0 = c.x0.min(x);
                c.y0 = c.y0.min(y);
                c.x1 = c.x1.max(x);
                c.y1 = c.y1.max(y);
            }
            c
        })
        .collect()
}

/// Scales the digit's box to fit FRAME (keeping its aspect ratio), centres
/// it on the canvas, smooths it, and returns the unit-length features.
/// `digit` is a WORK x WORK image of ink in 0..=1, the box (inclusive) its
/// ink's bounds: also used for the small digits of a killer's cage sums.
pub(crate) fn features(digit: &[f32], x0: i32, y0: i32, x1: i32, y1: i32) -> Vec<f32> {
    let n = WORK as i32;
    // Box edges in continuous coordinates, one pixel of slack for edges.
    let bw = (x1 - x0 + 1) as f32;
    let bh = (y1 - y0 + 1) as f32;
    let scale = FRAME as f32 / bw.max(bh);
    let cx = (x0 + x1) as f32 / 2.0;
    let cy = (y0 + y1) as f32 / 2.0;
    let half = (CANVAS as f32 - 1.0) / 2.0;
    let mut canvas = vec![0f32; CANVAS * CANVAS];
    // Supersample 2x2 per canvas pixel for a smooth downscale.
    for v in 0..CANVAS {
        for u in 0..CANVAS {
            let mut acc = 0.0;
            for sy in 0..2 {
                for sx in 0..2 {
                    let fu = u as f32 - 0.25 + 0.5 * sx as f32;
                    let fv = v as f32 - 0.25 + 0.5 * sy as f32;
                    let x = cx + (fu - half) / scale;
                    let y = cy + (fv - half) / scale;
                    acc += bilinear(digit, n, x, y);
                }
            }
            canvas[v * CANVAS + u] = acc / 4.0;
        }
    }
    let canvas = blur3(&blur3(&canvas, CANVAS), CANVAS);
    let mut feat = Vec::with_capacity(FEATURE_LEN);
    for by in 0..PIX_SIDE {
        for bx in 0..PIX_SIDE {
            let mut s = 0.0;
            for dy in 0..2 {
                for dx in 0..2 {
                    s += canvas[(by * 2 + dy) * CANVAS + bx * 2 + dx];
                }
            }
            feat.push(s / 4.0);
        }
    }
    normalise(&mut feat[..]);
    let mut hog = vec![0f32; HOG_GRID * HOG_GRID * HOG_BINS];
    for y in 0..CANVAS {
        for x in 0..CANVAS {
            let at = |xx: usize, yy: usize| canvas[yy * CANVAS + xx];
            let gx = at((x + 1).min(CANVAS - 1), y) - at(x.saturating_sub(1), y);
            let gy = at(x, (y + 1).min(CANVAS - 1)) - at(x, y.saturating_sub(1));
            let mag = (gx * gx + gy * gy).sqrt();
            if mag <= 1e-6 {
                continue;
            }
            let mut ang = gy.atan2(gx);
            if ang < 0.0 {
                ang += std::f32::consts::PI;
            }
            let pos = ang / std::f32::consts::PI * HOG_BINS as f32 - 0.5;
            let b0 = floor_i32(pos);
            let frac = pos - b0 as f32;
            let b0 = b0.rem_euclid(HOG_BINS as i32) as usize;
            let b1 = (b0 + 1) % HOG_BINS;
            let cell = (y / HOG_CELL) * HOG_GRID + x / HOG_CELL;
            hog[cell * HOG_BINS + b0] += mag * (1.0 - frac);
            hog[cell * HOG_BINS + b1] += mag * frac;
        }
    }
    normalise(&mut hog);
    let pix_len = feat.len();
    feat.extend_from_slice(&hog);
    // The two parts weighed (see PIXEL_WEIGHT), then unit length overall.
    for v in &mut feat[..pix_len] {
        *v *= PIXEL_WEIGHT;
    }
    normalise(&mut feat);
    feat
}

fn bilinear(img: &[f32], n: i32, x: f32, y: f32) -> f32 {
    let (xi, yi) = (floor_i32(x), floor_i32(y));
    let fx = x - xi as f32;
    let fy = y - yi as f32;
    let get = |xx: i32, yy: i32| {
        if xx < 0 || yy < 0 || xx >= n || yy >= n {
            0.0
        } else {
            img[(yy * n + xx) as usize]
        }
    };
    let top = get(xi, yi) * (1.0 - fx) + get(xi + 1, yi) * fx;
    let bottom = get(xi, yi + 1) * (1.0 - fx) + get(xi + 1, yi + 1) * fx;
    top * (1.0 - fy) + bottom * fy
}

/// Separable [1 2 1] / 4 blur with zero outside.
fn blur3(img: &[f32], n: usize) -> Vec<f32> {
    let mut tmp = vec![0f32; n * n];
    for y in 0..n {
        for x in 0..n {
            let l = if x > 0 { img[y * n + x - 1] } else { 0.0 };
            let r = if x + 1 < n { img[y * n + x + 1] } else { 0.0 };
            tmp[y * n + x] = (l + 2.0 * img[y * n + x] + r) / 4.0;
        }
    }
    let mut out = vec![0f32; n * n];
    for y in 0..n {
        for x in 0..n {
            let u = if y > 0 { tmp[(y - 1) * n + x] } else { 0.0 };
            let d = if y + 1 < n { tmp[(y + 1) * n + x] } else { 0.0 };
            out[y * n + x] = (u + 2.0 * tmp[y * n + x] + d) / 4.0;
        }
    }
    out
}

fn normalise(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 1e-9 {
        for x in v.iter_mut() {
            *x /= norm;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A white 64 x 64 crop with black rectangles `(x0, y0, x1, y1)`,
    /// ends excluded.
    fn crop(rects: &[(u32, u32, u32, u32)]) -> GrayImage {
        GrayImage::from_fn(64, 64, |x, y| {
            let inked = rects
                .iter()
                .any(|&(x0, y0, x1, y1)| (x0..x1).contains(&x) && (y0..y1).contains(&y));
            Luma([if inked { 20 } else { 235 }])
        })
    }

    fn reason(p: &Prepared) -> Option<EmptyReason> {
        match p {
            Prepared::Empty { reason, .. } => Some(*reason),
            Prepared::Ink(_) => None,
        }
    }

    #[test]
    fn a_centred_digit_is_ink() {
        // A "4"-like cross well inside the crop.
        let p = prepare(&crop(&[
            (36, 12, 43, 52),
            (16, 34, 50, 40),
            (18, 12, 24, 38),
        ]));
        assert!(matches!(p, Prepared::Ink(_)), "{:?}", reason(&p));
    }

    #[test]
    fn a_wide_capital_is_a_symbol_on_a_page_of_letters_only() {
        // An "A" 1.15 times as wide as tall (a serif capital's), centred:
        // two legs, a bar and serifs along the foot.
        let a = crop(&[
            (15, 18, 21, 46),
            (42, 18, 48, 46),
            (15, 18, 48, 24),
            (15, 32, 48, 37),
            (15, 43, 48, 47),
        ]);
        assert_eq!(reason(&prepare(&a)), Some(EmptyReason::Wide));
        let p = prepare_letters(&a);
        assert!(matches!(p, Prepared::Ink(_)), "{:?}", reason(&p));
        // Two marks side by side with their gap stay marks there too.
        let marks = crop(&[(10, 26, 27, 40), (37, 26, 54, 40)]);
        assert!(matches!(
            reason(&prepare_letters(&marks)),
            Some(EmptyReason::Wide | EmptyReason::Small)
        ));
    }

    #[test]
    fn two_digits_side_by_side_are_marks_even_when_narrow() {
        // A player's large "25" level with the cell's middle: two digits
        // nearly half the crop tall, narrower together than tall, the 5
        // central enough to pass for a given on its own.
        let left = [
            (14, 15, 28, 19),
            (24, 15, 28, 31),
            (14, 27, 28, 31),
            (14, 27, 18, 43),
            (14, 39, 28, 43),
        ];
        let right = [
            (32, 15, 46, 19),
            (32, 15, 36, 29),
            (32, 25, 46, 29),
            (42, 25, 46, 43),
            (32, 39, 46, 43),
        ];
        let pair: Vec<_> = left.iter().chain(&right).copied().collect();
        assert_eq!(reason(&prepare(&crop(&pair))), Some(EmptyReason::Several));
        // The same with the 2 running into the crop's edge.
        let at_edge: Vec<_> = pair
            .iter()
            .map(|&(x0, y0, x1, y1)| (x0 - 14, y0, x1 - 14, y1))
            .collect();
        assert_eq!(
            reason(&prepare(&crop(&at_edge))),
            Some(EmptyReason::Several)
        );
        // The 5 alone is ink.
        let alone = prepare(&crop(&right));
        assert!(matches!(alone, Prepared::Ink(_)), "{:?}", reason(&alone));
        // A speck beside a digit is no second digit.
        let mut speck: Vec<_> = right.to_vec();
        speck.push((20, 22, 23, 25));
        assert_ne!(reason(&prepare(&crop(&speck))), Some(EmptyReason::Several));
    }

    #[test]
    fn a_large_digit_clipped_at_one_edge_is_still_ink() {
        // The same shape, so large that the crop cuts its top off.
        let p = prepare(&crop(&[(36, 0, 43, 56), (14, 34, 52, 41), (16, 0, 23, 38)]));
        assert!(matches!(p, Prepared::Ink(_)), "{:?}", reason(&p));
    }

    /// A "1" half the crop tall, moved from the centre by (dx, dy) pixels.
    fn one_moved(dx: u32, dy: u32) -> GrayImage {
        crop(&[
            (29 + dx, 16 + dy, 36 + dx, 48 + dy),
            (24 + dx, 16 + dy, 30 + dx, 21 + dy),
        ])
    }

    #[test]
    fn a_digit_level_with_the_centre_but_to_one_side_is_ink() {
        // A quarter of the crop to the right: a crop placed off its column.
        match prepare(&one_moved(16, 0)) {
            Prepared::Ink(ink) => assert!(ink.shifted),
            p => panic!("{:?}", reason(&p)),
        }
        match prepare(&one_moved(0, 0)) {
            Prepared::Ink(ink) => assert!(!ink.shifted),
            p => panic!("{:?}", reason(&p)),
        }
    }

    #[test]
    fn a_digit_off_to_one_side_and_off_level_is_not_ink() {
        // The same shift sideways, and a fifth of the crop down.
        let p = prepare(&one_moved(16, 12));
        assert_eq!(reason(&p), Some(EmptyReason::OffCentre));
    }

    #[test]
    fn a_digit_just_off_the_centre_is_empty_with_its_ink_kept() {
        let near = |p: &Prepared| match p {
            Prepared::Empty {
                reason: EmptyReason::OffCentre,
                near,
                ..
            } => near.as_ref().map(|ink| ink.height),
            p => panic!("{:?}", reason(p)),
        };
        // Just past the limit, a digit's height: kept for the runner-up.
        let h = near(&prepare(&one_moved(0, 14))).expect("ink kept");
        assert!(h >= TALL_DIGIT, "{h}");
        // Far past it, or a short sliver just past it: not kept.
        assert!(near(&prepare(&one_moved(16, 12))).is_none());
        assert!(near(&prepare(&crop(&[(30, 35, 34, 56)]))).is_none());
    }

    /// The "4" of `a_centred_digit_is_ink` in ink of grey level `ink` on
    /// paper of level `paper`.
    fn four_in(ink: u8, paper: u8) -> GrayImage {
        let mut img = crop(&[(36, 12, 43, 52), (16, 34, 50, 40), (18, 12, 24, 38)]);
        for p in img.pixels_mut() {
            p.0[0] = if p.0[0] < 128 { ink } else { paper };
        }
        img
    }

    fn darkness(crop: &GrayImage) -> f32 {
        match prepare(crop) {
            Prepared::Ink(ink) => ink.darkness,
            p => panic!("{:?}", reason(&p)),
        }
    }

    #[test]
    fn a_second_look_measures_print_against_the_paper_beside_it() {
        let clean = four_in(20, 235);
        // The "4" at half the light where x + y is under `edge`, with a
        // penumbra a tenth of the crop wide beyond it, as a photo's shadow
        // has.
        let shade = |edge: f32| {
            GrayImage::from_fn(64, 64, |x, y| {
                let v = clean.get_pixel(x, y).0[0] as f32;
                let light = (0.5 + (x as f32 + y as f32 - edge) / 24.0).clamp(0.5, 1.0);
                Luma([(v * light).round() as u8])
            })
        };
        let features = |p: Prepared| match p {
            Prepared::Ink(ink) => ink.features,
            p => panic!("{:?}", reason(&p)),
        };
        let reference = features(prepare(&clean));
        // How far a preparation's shape lies from the clean digit's.
        let off = |p: &Prepared| match p {
            Prepared::Ink(ink) => ink
                .features
                .iter()
                .zip(&reference)
                .map(|(x, y)| (x - y).powi(2))
                .sum::<f32>()
                .sqrt(),
            Prepared::Empty { .. } => f32::INFINITY,
        };
        // The shadow's edge along the diagonal through the digit's middle:
        // the first look takes the dim paper for ink joined to the digit.
        let shadowed = shade(64.0);
        let first_off = off(&prepare(&shadowed));
        assert!(first_off > 0.5, "{first_off}");
        // The second look finds the digit as it is without the shadow.
        let flat = prepare_shadowed(&shadowed, Some(false)).swap_remove(0);
        assert!(off(&flat) < 0.25, "{}", off(&flat));
        // On even paper there is no second look.
        assert!(prepare_shadowed(&clean, Some(false)).is_empty());
        // The shadow over most of the crop, the edge across the digit's
        // lower right: the crop's median is the shadow's paper, and the
        // lit corner stands above it as far as the digit below, so the
        // first look takes the ink for light. Against that paper with the
        // polarity turned, the digit stands alone.
        let mostly = shade(88.0);
        let first_off = off(&prepare(&mostly));
        assert!(first_off > 0.5, "{first_off}");
        let turned = prepare_shadowed(&mostly, Some(false)).swap_remove(1);
        assert!(off(&turned) < 0.25, "{}", off(&turned));
        // A sharp shadow over all the crop but its lower right corner: too
        // little of the paper changes for the shadow's looks, and the lit
        // corner has the first look take the ink for light. On a page of
        // dark print, the look with the polarity turned finds the digit; on
        // a dark page, or a page of unknown print, there is none.
        let corner = GrayImage::from_fn(64, 64, |x, y| {
            let v = clean.get_pixel(x, y).0[0] as f32;
            let light = if x + y > 114 { 1.0 } else { 0.5 };
            Luma([(v * light).round() as u8])
        });
        assert!(light_ink(&corner));
        assert!(!matches!(prepare(&corner), Prepared::Ink(_)));
        let looks = prepare_shadowed(&corner, Some(false));
        assert_eq!(looks.len(), 1);
        assert!(off(&looks[0]) < 0.25, "{}", off(&looks[0]));
        assert!(prepare_shadowed(&corner, Some(true)).is_empty());
        assert!(prepare_shadowed(&corner, None).is_empty());
    }

    #[test]
    fn darkness_is_the_light_the_ink_takes_and_ignores_the_light_on_the_page() {
        // Black print lets a sixth of the paper's light through: about
        // ln 6 (the resampled edges more than half ink pull the core's mean
        // a little towards the paper).
        let print = darkness(&four_in(40, 240));
        assert!((print - 6f32.ln()).abs() < 0.25, "{print}");
        // The same print in a shadow, ink and paper dimmed alike.
        let shadowed = darkness(&four_in(20, 120));
        assert!((shadowed - print).abs() < 0.05, "{shadowed} vs {print}");
        // Pencil takes less than half as much.
        let pencil = darkness(&four_in(140, 240));
        assert!(pencil < 0.45 * print, "{pencil} vs {print}");
        // A dark page's light digits: the same of the inverted levels.
        let light = darkness(&four_in(215, 15));
        assert!((light - print).abs() < 0.05, "{light} vs {print}");
    }

    /// `rects` drawn 22 grey levels darker than the paper: faded print.
    fn faint(rects: &[(u32, u32, u32, u32)]) -> GrayImage {
        let mut img = crop(rects);
        for p in img.pixels_mut() {
            p.0[0] = if p.0[0] < 128 { 178 } else { 200 };
        }
        img
    }

    /// `crop(dark)` with paler grey rectangles (shading) under the ink.
    fn shaded(dark: &[(u32, u32, u32, u32)], grey: &[(u32, u32, u32, u32)]) -> GrayImage {
        let mut img = crop(dark);
        for &(x0, y0, x1, y1) in grey {
            for y in y0..y1 {
                for x in x0..x1 {
                    let px = img.get_pixel_mut(x, y);
                    px[0] = px[0].min(130);
                }
            }
        }
        img
    }

    #[test]
    fn a_digit_joined_to_the_edge_by_shading_is_ink() {
        // A "1" whose top runs into a band of shading across the crop.
        let p = prepare(&shaded(&[(29, 12, 36, 52)], &[(0, 0, 64, 16)]));
        assert!(matches!(p, Prepared::Ink(_)), "{:?}", reason(&p));
    }

    /// `rects` written in pencil of grey `ink` on white paper (235), the
    /// crop's left `width` columns in a shadow that dims the page to
    /// `shadow` (ink and paper alike: light is multiplied).
    fn pencil_in_a_shadow(
        rects: &[(u32, u32, u32, u32)],
        ink: u8,
        shadow: u8,
        width: u32,
    ) -> GrayImage {
        let mut img = crop(rects);
        for (x, _, p) in img.enumerate_pixels_mut() {
            let light = if x < width {
                shadow as f32 / 235.0
            } else {
                1.0
            };
            let grey = if p.0[0] < 128 { ink } else { 235 };
            p.0[0] = (grey as f32 * light).round() as u8;
        }
        img
    }

    #[test]
    fn a_pale_digit_beside_a_shadow_is_ink() {
        // A pale "2" whose left side lies in a hand's shadow: against the
        // crop's median paper the shadow is as dark as the pencil and
        // joins it to the edges; against the paper around each pixel it
        // is paper.
        let two = [
            (18, 12, 46, 16),
            (42, 12, 46, 32),
            (18, 30, 46, 34),
            (18, 30, 22, 52),
            (18, 48, 46, 52),
        ];
        for (ink, shadow, width) in [(200, 160, 10), (180, 120, 16), (200, 90, 26), (150, 90, 26)] {
            let p = prepare_entry(&pencil_in_a_shadow(&two, ink, shadow, width));
            assert!(
                matches!(p, Prepared::Ink(_)),
                "ink {ink}, shadow {shadow}, {width} wide: {:?}",
                reason(&p)
            );
        }
        // The shadow alone is no ink.
        let p = prepare_entry(&pencil_in_a_shadow(&[], 200, 90, 26));
        assert!(matches!(p, Prepared::Empty { .. }));
    }

    #[test]
    fn a_line_remnant_joined_to_the_edge_by_shading_stays_border() {
        // A stroke beside the centre, tied to the left edge by pale ink:
        // the stricter look is for ink over the centre only.
        let p = prepare(&shaded(&[(20, 10, 23, 50)], &[(0, 28, 21, 33)]));
        assert_eq!(reason(&p), Some(EmptyReason::OnlyBorder));
    }

    #[test]
    fn faint_print_with_a_printed_stroke_is_ink() {
        let four = [(36, 12, 43, 52), (16, 34, 50, 40), (18, 12, 24, 38)];
        match prepare(&faint(&four)) {
            Prepared::Ink(ink) => assert!(ink.faint, "contrast {}", ink.contrast),
            p => panic!("{:?}", reason(&p)),
        }
        match prepare(&crop(&four)) {
            Prepared::Ink(ink) => assert!(!ink.faint),
            p => panic!("{:?}", reason(&p)),
        }
    }

    #[test]
    fn faint_thin_or_tall_marks_are_not_ink() {
        // A pencil-thin stroke of a digit's height, and a fold running
        // nearly the crop's height: ink when dark, nothing when faint.
        for rects in [&[(30, 14, 33, 50)][..], &[(26, 3, 36, 61)]] {
            assert!(
                matches!(prepare(&crop(rects)), Prepared::Ink(_)),
                "{rects:?}"
            );
            let p = prepare(&faint(rects));
            assert_eq!(reason(&p), Some(EmptyReason::NoInk), "{rects:?}");
        }
    }

    #[test]
    fn line_remnants_at_the_edge_are_not_digits() {
        // A grid line along the top, then a short stub from the top edge
        // that does not reach the centre, then a tall bar by the side.
        for rects in [&[(0, 0, 64, 4)][..], &[(28, 0, 35, 20)], &[(2, 0, 9, 50)]] {
            let p = prepare(&crop(rects));
            assert_eq!(reason(&p), Some(EmptyReason::OnlyBorder), "{rects:?}");
        }
    }
}
