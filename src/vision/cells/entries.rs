//! The player's own marks, told apart once the printed givens are decided:
//! handwritten entries (one larger digit in a cell left empty by the print)
//! and candidate marks (small digits near a cell's corners or edges).
//!
//! A cell that is not a given is one of:
//! - an **entry**: a central ink shape of a digit's height
//!   ([`super::classify::prep::Prepared::Ink`]), clearly inked. Its value
//!   is read with a confidence; only a sure reading becomes an entry,
//!   anything else is reported as unsure (see [`Written::sure`]);
//! - **candidate marks**: clear ink that preprocessing judged too small, off
//!   the centre or too wide for a digit, or several digits side by side
//!   ([`EmptyReason::Small`], [`EmptyReason::OffCentre`],
//!   [`EmptyReason::Wide`], [`EmptyReason::Several`]);
//! - **empty**: no ink, grid-line remnants only, ink smaller than any mark
//!   ([`EmptyReason::Speck`]: dirt, grain, a photo's noise), or faint ink
//!   of any shape (erased pencil, a blank cell's shading;
//!   [`EmptyReason::Faint`]).
//!
//! A read digit that disagrees with the puzzle's unique solution needs
//! [`AGAINST_SOLUTION`] to be reported: the solution never replaces a read
//! digit, it only tells how sure to be before telling the player a digit is
//! wrong.

use image::{GrayImage, Luma};

use super::classify::prep::{EmptyReason, Ink, MIN_MARK_HEIGHT, Prepared, quantile, work_image};
use super::classify::{Model, rank};
use crate::grid::{Alphabet, Unsure};
use crate::vision::locate::CELL_CROP_SIZE;
use crate::vision::page::label;
use crate::vision::page::num::{median, median_of};

/// What a cell holds once the givens are decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// A printed given (decided before, by the reader).
    Given,
    /// One digit of the player's.
    Entry,
    /// Candidate marks: small digits, never a given or an entry.
    Marks,
    /// Nothing, or faint traces.
    Empty,
}

/// An entry shorter than this fraction of the cell is not taken for one:
/// a player's digit fills most of the cell's height, while candidate marks
/// that preprocessing kept as central ink are smaller. On kubiesa-train the
/// marks kept as ink are 0.48-0.63 of the crop tall, the entries 0.6-0.95
/// (one at 0.6): the line is drawn above the marks.
pub const ENTRY_MIN_HEIGHT: f32 = 0.65;

/// The confidence from which an entry that agrees with the puzzle's unique
/// solution (or any entry, when there is none) is reported (below: unsure):
/// better than even odds.
pub const ENTRY_SURE: f32 = 0.5;

/// The confidence an entry that disagrees with the puzzle's unique solution
/// needs to be reported (below: unsure). Players' mistakes are rare and a
/// misread is told to the player as a mistake, so only a reading with no
/// rival is. Set on kubiesa-val (see docs/reader.md): its wrong-entry figure
/// is not held out from this choice.
pub const AGAINST_SOLUTION: f32 = 0.999;

/// A candidate mark's ink differs from its crop's paper by at least this
/// share of the crop's strongest ink (the anti-aliased rim is left out)...
const MARK_INK_SHARE: f32 = 0.5;
/// ... and by at least this many grey levels: a blank cell's grain holds
/// no mark.
const MARK_MIN_CONTRAST: f32 = 40.0;
/// The strongest ink of a crop: this quantile of its pixels' differences
/// from the paper (one stray dark pixel does not set it).
const MARK_STRONGEST: f32 = 0.98;
/// A mark's digit is at most this share of the crop tall: taller ink is a
/// digit of its own, or a line, not one of several small ones (an app's
/// notes are 0.28-0.38 of the crop).
const MAX_MARK_HEIGHT: f32 = 0.45;
/// A mark's digit is read in a square patch this many times its height,
/// centred on it: a printed digit fills about 0.6 of its cell's height,
/// as the digit model learnt it.
const MARK_PATCH: f32 = 1.0 / 0.6;
/// A mark's digit is reported when the digit model reads it at least this
/// sure; others are left out (the cell still lists as marks). Small print
/// scaled up reads a little less sure than a given (0.7-0.95 for an app's
/// notes in a font the model was not built from, the runner-up being no
/// digit at all), so the line is below that, above even odds.
const MARK_SURE: f32 = 0.6;
/// A mark's digit read where a solving app draws that digit's note (its
/// place in a 3 x 3 grid over the cell, on a 9-digit page) is reported
/// from this confidence, better than even odds: the place agrees with the
/// reading. An app's small 8s read 0.57-0.7 sure (the 3 next), and
/// small 3s about as sure.
const MARK_SURE_IN_PLACE: f32 = 0.5;

/// Candidate marks are written in pencil or pen: their ink is at least this
/// share as strong as the page's print's ([`ink_strength`], its median over
/// the givens' cells). Grain, the paper's texture and a blank cell's
/// shading, which the entries' pass finds measuring ink against the paper
/// around each pixel, are far fainter: the 58 cells of 44 newspaper photos
/// of wichtounet-v2-train it listed as marks (none holds any) lie at
/// 0.03-0.54 of their print, 9 in 10 under 0.16; the marked cells found on
/// the hand-solved photos at 0.44-0.95 (kubiesa-train and kubiesa-val, 159
/// cells), 9 in 10 above 0.66. An app's grey notes beside black givens are
/// about 0.6.
pub const MARK_MIN_STRENGTH: f32 = 0.3;
/// [`ink_strength`] looks inside the cell's crop, this share of its side in
/// from each edge, where the grid lines' remnants are not.
const STRENGTH_INSET: f32 = 0.125;
/// [`ink_strength`]'s paper is this quantile of the grey levels (most of a
/// cell is paper, its ink a few strokes)...
const STRENGTH_PAPER: f32 = 0.75;
/// ... and its ink this quantile (the darkest hundredth: a stroke, not one
/// stray pixel).
const STRENGTH_INK: f32 = 0.01;

/// How strong a crop's darkest ink is: the share of its paper's light it
/// takes away, `(paper - ink) / paper`, over the working image's pixels
/// [`STRENGTH_INSET`] in from the edges (paper and ink at the
/// [`STRENGTH_PAPER`] and [`STRENGTH_INK`] quantiles), so that it does not
/// change with the light on the page; of the inverted grey levels for
/// `light_ink` on a dark page. 0 for an empty crop.
pub fn ink_strength(crop: &GrayImage, light_ink: bool) -> f32 {
    if crop.width() == 0 || crop.height() == 0 {
        return 0.0;
    }
    let work = work_image(crop);
    let n = work.width() as usize;
    let inset = (n as f32 * STRENGTH_INSET) as usize;
    let mut hist = [0u32; 256];
    for y in inset..n - inset {
        for &v in &work.as_raw()[y * n + inset..y * n + n - inset] {
            hist[usize::from(if light_ink { 255 - v } else { v })] += 1;
        }
    }
    let total: u32 = hist.iter().sum();
    if total == 0 {
        return 0.0;
    }
    let paper = quantile(&hist, total, STRENGTH_PAPER).max(1.0);
    ((paper - quantile(&hist, total, STRENGTH_INK)) / paper).max(0.0)
}

/// Leaves out of `marks` the cells whose ink is weaker than
/// [`MARK_MIN_STRENGTH`] of the page's print, measured on the crops of the
/// `givens`' cells; with no given, nothing is left out.
pub fn drop_faint_marks(
    marks: &mut Vec<Marks>,
    crops: &[GrayImage],
    givens: &[usize],
    light_ink: bool,
) {
    if marks.is_empty() {
        return;
    }
    let mut print: Vec<f32> = givens
        .iter()
        .map(|&c| ink_strength(&crops[c], light_ink))
        .collect();
    let Some(print) = median_of(&mut print) else {
        return;
    };
    marks.retain(|m| ink_strength(&crops[m.cell], light_ink) >= MARK_MIN_STRENGTH * print);
}

/// Softness of the distance-to-probability mapping for handwriting (the
/// squared feature distance by which a rival digit's odds fall by e).
pub const HAND_TAU: f32 = 0.02;

/// One cell with handwriting read as a digit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Written {
    /// The cell.
    pub cell: usize,
    /// The digit read.
    pub value: u8,
    /// How sure, 0..=1.
    pub confidence: f32,
    /// The next likeliest digit.
    pub runner_up: u8,
    /// Whether it is sure enough to be reported as an entry; otherwise the
    /// cell is an unsure one.
    pub sure: bool,
}

/// A cell with candidate marks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    /// The cell.
    pub cell: usize,
    /// The marked digits, ascending, where they could be read; empty when
    /// they could not.
    pub digits: Vec<u8>,
}

/// The kind of a cell that `given` tells whether the reader took for a
/// printed given.
pub fn cell_kind(prepared: &Prepared, given: bool) -> CellKind {
    if given {
        return CellKind::Given;
    }
    match prepared {
        Prepared::Ink(ink) if !ink.faint && ink.height >= ENTRY_MIN_HEIGHT => CellKind::Entry,
        Prepared::Ink(ink) if !ink.faint => CellKind::Marks,
        Prepared::Ink(_) => CellKind::Empty,
        Prepared::Empty { reason, .. } => match reason {
            EmptyReason::Small
            | EmptyReason::OffCentre
            | EmptyReason::Wide
            | EmptyReason::Several => CellKind::Marks,
            EmptyReason::NoInk
            | EmptyReason::OnlyBorder
            | EmptyReason::Speck
            | EmptyReason::Faint => CellKind::Empty,
        },
    }
}

/// Reads a handwritten digit: (digit, confidence, runner-up). Each digit's
/// distance is its nearest handwriting prototype's in `hand`, or for a
/// digit `hand` has none of, its nearest printed one's in `print`.
pub fn read_digit(print: &Model, hand: &Model, ink: &Ink) -> (u8, f32, u8) {
    let printed = print.class_distances(&ink.features);
    let mut dist = hand.class_distances(&ink.features);
    for (d, p) in dist.iter_mut().zip(printed) {
        if d.is_infinite() {
            *d = p;
        }
    }
    let r = rank(&dist, HAND_TAU);
    (r.first, r.p_first, r.second)
}

/// Whether a digit read with `confidence` is reported as an entry, given
/// the solution's digit for its cell when the puzzle has one solution.
/// `handwritten` tells whether the digit was matched to handwriting
/// prototypes: a digit only the printed model knows (see [`read_digit`])
/// is measured on another scale than handwriting, where its confidence
/// says little, so it is never reported against the solution. Where the
/// solution's symbol is no digit 1-9 (`solution` is `Some(0)`, see
/// [`solution_digits`]), nothing is sure: handwriting is read as the digits
/// 1-9 only, so whatever is written there, a right letter too (or a printed
/// one, drawn faintly), would read as some digit and be told as a mistake.
pub fn is_sure(value: u8, confidence: f32, solution: Option<u8>, handwritten: bool) -> bool {
    match solution {
        Some(0) => false,
        Some(s) if s != value => handwritten && confidence >= AGAINST_SOLUTION,
        _ => confidence >= ENTRY_SURE,
    }
}

/// `solution` (one value per cell, symbols of `alphabet`) in the numbers
/// handwriting is read as ([`read_written`] reads the digits 1-9): each
/// cell's symbol as the digit it is written with, or 0 for a symbol that
/// is no digit 1-9 (a letter, a hexadecimal page's `0`), where no digit is
/// read for sure ([`is_sure`]). A hexadecimal page's sixth symbol is written `5`:
/// compared as its value, 6, a right `5` would be taken for a mistake.
pub fn solution_digits(solution: &[u8], alphabet: Alphabet) -> Vec<u8> {
    solution
        .iter()
        .map(|&v| {
            if v == 0 {
                return 0;
            }
            alphabet
                .symbol(v)
                .to_digit(10)
                .filter(|d| (1..=9).contains(d))
                .map_or(0, |d| d as u8)
        })
        .collect()
}

/// What the player wrote: each cell's kind, the cells with handwriting read
/// as a digit, and the cells with candidate marks. `givens` holds the
/// reader's givens (0 = none), `solution` the puzzle's unique solution when
/// it has one, as digits ([`solution_digits`]); `print` and `hand` are the printed and handwriting models
/// (see [`read_digit`]).
pub fn read_written(
    print: &Model,
    hand: &Model,
    prepared: &[Prepared],
    givens: &[u8],
    solution: Option<&[u8]>,
) -> (Vec<CellKind>, Vec<Written>, Vec<Marks>) {
    let mut kinds = Vec::with_capacity(prepared.len());
    let mut written = Vec::new();
    let mut marks = Vec::new();
    for (cell, (p, &g)) in prepared.iter().zip(givens).enumerate() {
        let kind = cell_kind(p, g != 0);
        kinds.push(kind);
        match (kind, p) {
            (CellKind::Entry, Prepared::Ink(ink)) => {
                let (value, confidence, runner_up) = read_digit(print, hand, ink);
                let handwritten = hand.knows(value);
                written.push(Written {
                    cell,
                    value,
                    confidence,
                    runner_up,
                    sure: is_sure(value, confidence, solution.map(|s| s[cell]), handwritten),
                });
            }
            (CellKind::Marks, _) => marks.push(Marks {
                cell,
                digits: Vec::new(),
            }),
            _ => {}
        }
    }
    (kinds, written, marks)
}

/// The cells of `written` not read for sure that are still empty in
/// `current` (the givens and entries a check judges), as a check reports
/// them: a digit the player wrote that is neither an entry nor passed over.
pub fn unsure_cells(written: &[Written], current: &[u8]) -> Vec<Unsure> {
    written
        .iter()
        .filter(|w| !w.sure && current[w.cell] == 0)
        .map(|w| Unsure {
            cell: w.cell,
            looks_like: w.value,
            runner_up: w.runner_up,
            confidence: w.confidence,
        })
        .collect()
}

/// The digits of the candidate marks in `crop` (a cell's crop, as the
/// reader cuts it) that the digit model `print` reads sure ([`MARK_SURE`],
/// or [`MARK_SURE_IN_PLACE`] for a digit in its note's place),
/// ascending, each once, and at most `size`: the crop's ink
/// ([`MARK_INK_SHARE`], [`MARK_MIN_CONTRAST`]) is split into connected
/// pieces; each of a mark's height ([`MIN_MARK_HEIGHT`] to
/// [`MAX_MARK_HEIGHT`]) and clear of the crop's edges (a line's remnant
/// reaches them) is copied alone into a patch ([`MARK_PATCH`]) scaled to a
/// cell's crop and read like a printed digit. An app's notes are printed
/// small in the givens' font and read so; handwritten marks mostly are not
/// sure, and the cell is listed with the digits that are.
pub fn read_marks(print: &Model, crop: &GrayImage, size: usize) -> Vec<u8> {
    let (w, h) = crop.dimensions();
    let n = w.min(h) as f32;
    if n == 0.0 {
        return Vec::new();
    }
    let paper = median(crop) as f32;
    let mut diffs: Vec<f32> = crop.pixels().map(|p| (p[0] as f32 - paper).abs()).collect();
    let k = ((diffs.len() - 1) as f32 * MARK_STRONGEST) as usize;
    let strongest = *diffs.select_nth_unstable_by(k, f32::total_cmp).1;
    if strongest < MARK_MIN_CONTRAST {
        return Vec::new();
    }
    let cut = (MARK_INK_SHARE * strongest).max(MARK_MIN_CONTRAST);
    let mask: Vec<bool> = crop
        .pixels()
        .map(|p| (p[0] as f32 - paper).abs() >= cut)
        .collect();
    let found = label::components(&mask, w as usize);
    let labels = found.labels;
    // Each piece's box: x0, y0, x1, y1 (inclusive).
    let boxes: Vec<[u32; 4]> = found
        .pixels
        .iter()
        .filter_map(|p| label::bounds(p, w as usize))
        .collect();
    let mut digits = Vec::new();
    for (i, b) in boxes.iter().enumerate() {
        let label = i as u32 + 1;
        let tall = (b[3] - b[1] + 1) as f32 / n;
        let at_edge = b[0] == 0 || b[1] == 0 || b[2] + 1 >= w || b[3] + 1 >= h;
        if !(MIN_MARK_HEIGHT..=MAX_MARK_HEIGHT).contains(&tall) || at_edge {
            continue;
        }
        let side = ((b[3] - b[1] + 1) as f32 * MARK_PATCH).ceil() as u32;
        let (cx, cy) = ((b[0] + b[2]) as f32 / 2.0, (b[1] + b[3]) as f32 / 2.0);
        let (ox, oy) = (cx - side as f32 / 2.0, cy - side as f32 / 2.0);
        // The piece alone, with the paler rim around it (pixels under the
        // cut within a pixel of its box), on the crop's paper.
        let patch = GrayImage::from_fn(side, side, |px, py| {
            let (x, y) = ((ox + px as f32).round(), (oy + py as f32).round());
            let (x, y) = (x as i64, y as i64);
            let inside = x >= b[0] as i64 - 1
                && y >= b[1] as i64 - 1
                && x <= b[2] as i64 + 1
                && y <= b[3] as i64 + 1
                && x >= 0
                && y >= 0
                && x < w as i64
                && y < h as i64;
            if !inside {
                return Luma([paper as u8]);
            }
            let (x, y) = (x as u32, y as u32);
            let l = labels[(y * w + x) as usize];
            if l == label || l == 0 {
                *crop.get_pixel(x, y)
            } else {
                Luma([paper as u8])
            }
        });
        let patch = image::imageops::resize(
            &patch,
            CELL_CROP_SIZE,
            CELL_CROP_SIZE,
            image::imageops::FilterType::Triangle,
        );
        let r = print.classify(&patch);
        // An app draws digit d's note in place d of a 3 x 3 grid in the
        // cell (1 top left, 9 bottom right): a digit read in its own place
        // needs only MARK_SURE_IN_PLACE.
        let place =
            ((cy / h as f32 * 3.0) as u8).min(2) * 3 + ((cx / w as f32 * 3.0) as u8).min(2) + 1;
        let sure = if size == 9 && r.value == place {
            MARK_SURE_IN_PLACE
        } else {
            MARK_SURE
        };
        if r.value != 0 && (r.value as usize) <= size && r.confidence >= sure {
            digits.push(r.value);
        }
    }
    digits.sort_unstable();
    digits.dedup();
    digits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::cells::classify::prep::prepare;
    use image::{GrayImage, Luma};

    #[test]
    fn marks_fainter_than_a_share_of_the_print_are_grain() {
        // Three printed givens (near black), a cell of pencil marks (grey
        // 120: half as strong as the print) and one of grain (grey 215).
        let digit = [(26, 16, 34, 48)];
        let marks_at = [(14, 14, 20, 22), (40, 14, 46, 22)];
        let mut crops = vec![crop(&digit, 20); 3];
        crops.push(crop(&marks_at, 120));
        crops.push(crop(&marks_at, 215));
        let print = ink_strength(&crops[0], false);
        assert!((print - 215.0 / 235.0).abs() < 0.02, "{print}");
        let listed = || {
            (3..5)
                .map(|cell| Marks {
                    cell,
                    digits: Vec::new(),
                })
                .collect::<Vec<_>>()
        };
        let mut marks = listed();
        drop_faint_marks(&mut marks, &crops, &[0, 1, 2], false);
        assert_eq!(marks.iter().map(|m| m.cell).collect::<Vec<_>>(), [3]);
        // On a page with no given there is no print to compare with.
        let mut marks = listed();
        drop_faint_marks(&mut marks, &crops, &[], false);
        assert_eq!(marks.len(), 2);
        // On a dark page (light ink), the same measured on inverted levels.
        let dark: Vec<GrayImage> = crops
            .iter()
            .map(|c| GrayImage::from_fn(64, 64, |x, y| Luma([255 - c.get_pixel(x, y).0[0]])))
            .collect();
        let mut marks = listed();
        drop_faint_marks(&mut marks, &dark, &[0, 1, 2], true);
        assert_eq!(marks.iter().map(|m| m.cell).collect::<Vec<_>>(), [3]);
    }

    /// A 64 x 64 crop of paper (grey 235) with rectangles `(x0, y0, x1,
    /// y1)` (ends excluded) of ink of grey `ink`.
    fn crop(rects: &[(u32, u32, u32, u32)], ink: u8) -> GrayImage {
        GrayImage::from_fn(64, 64, |x, y| {
            let inked = rects
                .iter()
                .any(|&(x0, y0, x1, y1)| (x0..x1).contains(&x) && (y0..y1).contains(&y));
            Luma([if inked { ink } else { 235 }])
        })
    }

    /// A thin "7" most of the cell tall, slanting: a player's digit.
    fn written_seven() -> Vec<(u32, u32, u32, u32)> {
        let mut r = vec![(20, 6, 46, 9)];
        // The stem, stepping left as it goes down.
        for i in 0..12 {
            let x = 42 - 2 * i;
            r.push((x, 9 + 4 * i, x + 3, 13 + 4 * i));
        }
        r
    }

    #[test]
    fn a_large_central_digit_off_the_print_is_an_entry() {
        let p = prepare(&crop(&written_seven(), 40));
        assert_eq!(cell_kind(&p, false), CellKind::Entry);
        // The same ink in a cell the reader took for a given stays one.
        assert_eq!(cell_kind(&p, true), CellKind::Given);
    }

    #[test]
    fn small_digits_in_the_corners_are_candidate_marks() {
        // "2" and "3" small at the top left and top right; "7" at the
        // bottom left.
        let marks = [(8, 6, 14, 16), (46, 6, 52, 16), (8, 46, 14, 56)];
        assert_eq!(
            cell_kind(&prepare(&crop(&marks, 60)), false),
            CellKind::Marks
        );
        // One small mark alone in a corner.
        assert_eq!(
            cell_kind(&prepare(&crop(&marks[..1], 60)), false),
            CellKind::Marks
        );
        // A row of small marks across the top of the cell.
        let row = [
            (8, 6, 14, 16),
            (20, 6, 26, 16),
            (32, 6, 38, 16),
            (44, 6, 50, 16),
        ];
        assert_eq!(cell_kind(&prepare(&crop(&row, 60)), false), CellKind::Marks);
    }

    #[test]
    fn a_speck_is_no_candidate_mark() {
        // A smudge of dirt, 5 px of a 64 px crop tall, in a blank cell.
        let speck = [(28, 40, 34, 45)];
        let p = prepare_entry(&crop(&speck, 60));
        assert_eq!(reason(&p), Some(EmptyReason::Speck), "{p:?}");
        assert_eq!(cell_kind(&p, false), CellKind::Empty);
        // A small mark, a sixth of the crop tall, is one.
        let mark = [(8, 6, 14, 17)];
        assert_eq!(
            cell_kind(&prepare_entry(&crop(&mark, 60)), false),
            CellKind::Marks
        );
    }

    #[test]
    fn faint_marks_are_no_candidate_marks() {
        // The small marks of the test above, 20 grey levels darker than
        // the paper (ink, but under the clear ink's 28): erased, or a
        // blank cell's shading.
        let marks = [(8, 6, 14, 16), (46, 6, 52, 16), (8, 46, 14, 56)];
        let p = prepare_entry(&crop(&marks, 215));
        assert_eq!(reason(&p), Some(EmptyReason::Faint), "{p:?}");
        assert_eq!(cell_kind(&p, false), CellKind::Empty);
        // Clear, they are marks.
        assert_eq!(
            cell_kind(&prepare_entry(&crop(&marks, 60)), false),
            CellKind::Marks
        );
    }

    #[test]
    fn blank_cells_and_erased_traces_are_empty() {
        assert_eq!(cell_kind(&prepare(&crop(&[], 0)), false), CellKind::Empty);
        // An erased digit: the same strokes, a few grey levels darker than
        // the paper.
        let p = prepare(&crop(&written_seven(), 222));
        assert_eq!(cell_kind(&p, false), CellKind::Empty);
        // A grid line's remnant along the edge.
        let p = prepare(&crop(&[(0, 0, 64, 4)], 20));
        assert_eq!(cell_kind(&p, false), CellKind::Empty);
    }

    use crate::vision::cells::classify::prep::prepare_entry;

    /// What the givens' preparation judged a crop empty for, if it did.
    fn print_reason(img: &GrayImage) -> Option<EmptyReason> {
        reason(&prepare(img))
    }

    /// Why preparation found `p` empty; `None` for ink.
    fn reason(p: &Prepared) -> Option<EmptyReason> {
        match p {
            Prepared::Empty { reason, .. } => Some(*reason),
            Prepared::Ink(_) => None,
        }
    }

    /// A tall handwritten "2": top bar, right side, diagonal, bottom bar.
    fn written_two() -> Vec<(u32, u32, u32, u32)> {
        let mut r = vec![(14, 10, 48, 13), (45, 10, 48, 28), (14, 53, 50, 56)];
        for i in 0..6 {
            let x = 42 - 5 * i;
            r.push((x, 28 + 4 * i, x + 5, 32 + 4 * i));
        }
        r
    }

    #[test]
    fn an_entry_with_candidate_marks_beside_it_is_the_entry_alone() {
        // Two small marks left and right of a "2", close enough to be
        // taken into its shape, which they make wider than tall.
        let mut rects = written_two();
        rects.extend([(6, 24, 10, 38), (54, 24, 58, 38)]);
        let img = crop(&rects, 40);
        assert_eq!(print_reason(&img), Some(EmptyReason::Wide));
        let Prepared::Ink(ink) = prepare_entry(&img) else {
            panic!("an entry expected");
        };
        assert_eq!(
            cell_kind(&Prepared::Ink(ink.clone()), false),
            CellKind::Entry
        );
        // The marks are left out: the shape is the "2"'s width.
        let alone = match prepare_entry(&crop(&written_two(), 40)) {
            Prepared::Ink(ink) => ink,
            _ => panic!("the 2 alone is ink"),
        };
        assert!(
            (ink.width - alone.width).abs() < 0.05,
            "{} {}",
            ink.width,
            alone.width
        );
        assert!(ink.width < ink.height, "{} {}", ink.width, ink.height);
    }

    #[test]
    fn a_large_entry_reaching_two_edges_is_an_entry() {
        // A "4" whose stem runs off the bottom and whose bar runs off the
        // left edge.
        let img = crop(&[(36, 12, 43, 64), (0, 34, 50, 40), (18, 12, 24, 38)], 40);
        assert_eq!(print_reason(&img), Some(EmptyReason::OnlyBorder));
        assert_eq!(cell_kind(&prepare_entry(&img), false), CellKind::Entry);
    }

    #[test]
    fn a_digit_not_read_for_sure_in_an_empty_cell_is_reported_unsure() {
        let w = |cell, value, sure| Written {
            cell,
            value,
            confidence: if sure { 0.97 } else { 0.6 },
            runner_up: 3,
            sure,
        };
        let written = [w(0, 5, false), w(1, 7, true), w(2, 2, false)];
        // Cell 1 holds its sure entry; cell 2 was taken as read (a page
        // judged as printed), so only cell 0 is still to go.
        let current = [0, 7, 2];
        let unsure = unsure_cells(&written, &current);
        assert_eq!(unsure.len(), 1);
        assert_eq!((unsure[0].cell, unsure[0].looks_like), (0, 5));
        assert_eq!(unsure[0].runner_up, 3);
        assert_eq!(
            unsure[0].text("r1c1"),
            "r1c1: a digit is written here that could not be read for sure (a 5, or a 3?)"
        );
    }

    #[test]
    fn a_digit_broken_where_it_runs_off_the_edge_is_one_entry() {
        // A "5" whose flag and stem stand clear, and whose bowl, parted
        // from the stem by a thin gap, runs off the bottom edge.
        let flag = [(20, 8, 46, 14), (20, 8, 26, 34)];
        let bowl = [(20, 36, 46, 41), (40, 36, 46, 64), (16, 58, 46, 64)];
        let five: Vec<_> = flag.iter().chain(&bowl).copied().collect();
        match prepare_entry(&crop(&five, 40)) {
            Prepared::Ink(ink) => assert!(ink.height > 0.8, "{}", ink.height),
            p => panic!("{:?}", reason(&p)),
        }
        assert_eq!(
            cell_kind(&prepare_entry(&crop(&five, 40)), false),
            CellKind::Entry
        );
        // Two marks stacked with such a gap, clear of the edges, stay
        // marks: only a piece cut off at the edge is joined.
        let stacked = [(20, 8, 30, 22), (20, 25, 30, 39)];
        assert_eq!(
            cell_kind(&prepare_entry(&crop(&stacked, 40)), false),
            CellKind::Marks
        );
    }

    #[test]
    fn line_remnants_and_straight_strokes_at_the_edge_stay_empty() {
        // A stub along the left edge; a straight slanting stroke across the
        // crop from edge to edge (a fold, a shadow's edge).
        let stub = vec![(0, 10, 6, 54)];
        let slant: Vec<_> = (0..16)
            .map(|i| (24 + i, 4 * i, 28 + i, 4 * i + 4))
            .collect();
        for rects in [stub, slant] {
            let p = prepare_entry(&crop(&rects, 40));
            assert_eq!(cell_kind(&p, false), CellKind::Empty, "{rects:?}");
        }
    }

    /// A rectangle `(x0, y0, x1, y1)` (ends excluded) and its grey.
    type Stroke = ((u32, u32, u32, u32), u8);

    /// A crop of paper with a dark grid line along its top and `rects` of
    /// ink of grey `ink` each.
    fn under_a_line(rects: &[Stroke]) -> GrayImage {
        let mut img = crop(&[(0, 0, 64, 3)], 20);
        for &((x0, y0, x1, y1), ink) in rects {
            for y in y0..y1 {
                for x in x0..x1 {
                    img.put_pixel(x, y, Luma([ink]));
                }
            }
        }
        img
    }

    #[test]
    fn a_pale_pencil_entry_beside_dark_ink_is_an_entry() {
        // A "7" whose bar is pressed harder than its stem, in a cell whose
        // darkest ink is a grid line: at the dark line's threshold only
        // the bar is left.
        let mut rects = vec![((20, 8, 46, 11), 120)];
        rects.extend(written_seven()[1..].iter().map(|&r| (r, 170)));
        let img = under_a_line(&rects);
        // The bar alone, 3 px tall: a speck.
        assert_eq!(print_reason(&img), Some(EmptyReason::Speck));
        assert_eq!(cell_kind(&prepare_entry(&img), false), CellKind::Entry);
        // Pale candidate marks stay marks.
        let marks = [((8, 8, 11, 20), 180), ((16, 8, 19, 20), 120)];
        let img = under_a_line(&marks);
        assert_eq!(cell_kind(&prepare_entry(&img), false), CellKind::Marks);
    }

    #[test]
    fn digits_without_handwriting_prototypes_are_read_from_print() {
        use crate::vision::cells::classify::encode_model;
        use crate::vision::cells::classify::prep::FEATURE_LEN;
        let unit = |i: usize| {
            let mut v = vec![0f32; FEATURE_LEN];
            v[i] = 1.0;
            v
        };
        // Handwriting has a 3 only; print has a 3 and a 5.
        let hand = Model::from_bytes(&encode_model(&[(3, unit(0))], HAND_TAU, 2.0)).unwrap();
        let print =
            Model::from_bytes(&encode_model(&[(3, unit(1)), (5, unit(2))], 0.05, 1.0)).unwrap();
        let Prepared::Ink(mut ink) = prepare(&crop(&written_seven(), 40)) else {
            panic!("ink expected");
        };
        // Near the printed 5: read as 5, though print's 3 is farther than
        // handwriting's.
        ink.features = unit(2);
        let (value, confidence, runner_up) = read_digit(&print, &hand, &ink);
        assert_eq!((value, runner_up), (5, 3));
        assert!(confidence > 0.99, "{confidence}");
        // Near the handwritten 3: read as 3 from handwriting.
        ink.features = unit(0);
        assert_eq!(read_digit(&print, &hand, &ink).0, 3);
    }

    #[test]
    fn a_digit_against_the_solution_needs_more_confidence() {
        let between = (ENTRY_SURE + AGAINST_SOLUTION) / 2.0;
        assert!(is_sure(4, between, Some(4), true));
        assert!(is_sure(4, between, None, true));
        assert!(!is_sure(4, between, Some(5), true));
        assert!(is_sure(4, AGAINST_SOLUTION, Some(5), true));
        assert!(!is_sure(4, ENTRY_SURE - 0.01, Some(4), true));
        // A digit read from print alone: sure with the solution, never
        // against it.
        assert!(is_sure(5, between, Some(5), false));
        assert!(!is_sure(5, 1.0, Some(4), false));
    }

    #[test]
    fn a_hexadecimal_solution_is_compared_as_the_digits_written() {
        // Hexadecimal symbols 1..=16 are written 0-9, A-F: 6 is a `5`.
        let hex = solution_digits(&[1, 2, 6, 10, 11, 16, 0], Alphabet::Hex);
        assert_eq!(hex, [0, 1, 5, 9, 0, 0, 0]);
        let letters = solution_digits(&[1, 5, 9, 10, 16], Alphabet::Digits);
        assert_eq!(letters, [1, 5, 9, 0, 0]);
        // A handwritten `5` fairly sure, in a cell whose solution is the
        // hexadecimal 6 (`5`): it agrees, and is reported.
        let fair = (ENTRY_SURE + AGAINST_SOLUTION) / 2.0;
        assert!(is_sure(5, fair, Some(hex[2]), true));
        // No digit is sure where the answer is a letter or a `0`, however
        // sure its reading.
        for d in 1..=9 {
            assert!(!is_sure(d, 1.0, Some(hex[0]), true));
            assert!(!is_sure(d, 1.0, Some(hex[4]), true));
        }
    }
}
