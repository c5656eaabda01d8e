//! The whole reader: an image file in, a puzzle out, with where it was found
//! and how sure each cell is.

use std::path::Path;
use std::sync::Arc;

use image::{DynamicImage, GrayImage};
use rayon::prelude::*;

use super::cells::classify::prep::{
    EmptyReason, Prepared, light_ink, prepare_entry, prepare_shadowed,
};
use super::cells::classify::{CellReading, Classes, Model, PRINT_SURE, UNCERTAIN_BELOW};
use super::cells::colour::{ColourSplit, InkColour, ink_colour, split_by_colour};
use super::cells::entries::{
    Marks, Written, drop_faint_marks, read_marks, read_written, solution_digits,
};
use super::cells::orient::{apply, orient};
use super::locate::{
    CELL_CROP_SIZE, LocateError, LocateFileError, Located, Trace, cell_crops, locate_traced,
    located_at_corners, twins,
};
use super::marks::fills::fill_regions;
use super::marks::jigsaw::{JigsawReading, read_jigsaw, read_regions};
use super::marks::killer::{KillerReading, clear_outlines, clear_sums, read_killer};
use super::marks::variant::{RulesReading, read_rules};
use super::page::load::{LoadError, load_bytes, load_path_page, to_grey};
use super::page::num::median_of;
use super::verify::{self, CheckOutcome, check_solved};
use crate::grid::{Alphabet, Entries, Layout, Puzzle, Rule, check_rules};
use crate::solve::{Budget, solve_within};

/// A 16x16 grid may be written `1`-`9`, `A`-`G` or in hexadecimal `0`-`F`:
/// the page tells which by the symbols only one of them has (a `0`, a `G`),
/// counted where read at least this sure (as sure as a cell not reported
/// uncertain). The alphabet with more of them is the page's; with as many
/// (none), the first (`1`-`9`, `A`-`G`). A full 16x16 grid holds sixteen of
/// either, its givens several.
pub const ALPHABET_SURE: f32 = UNCERTAIN_BELOW;

/// How many of the least sure rules read from a page are each left out in
/// turn when the puzzle with all of them has no single solution, before
/// all of them are.
pub const RULE_TRIALS: usize = 3;

/// A puzzle read from an image.
#[derive(Clone, Debug)]
pub struct Reading {
    /// The givens as read (0 = empty), in the layout's own text format.
    pub puzzle: Puzzle,
    /// Where the grid is, in the image's pixels after EXIF orientation, in
    /// the puzzle's own orientation: `corners` run clockwise from the
    /// puzzle's top-left, and canvas (0, 0) of the homography is that corner
    /// even when the puzzle appears sideways or upside down.
    pub located: Located,
    /// Quarter turns clockwise at which the puzzle appears in the image
    /// (decided from the digits).
    pub turns: u8,
    /// What each cell showed, in cell order.
    pub cells: Vec<CellReading>,
    /// Cells whose reading is unsure: a digit read with low confidence, ink
    /// that was read as empty (but handwriting read for sure), or a cell
    /// changed by the solver check.
    pub uncertain: Vec<usize>,
    /// What the solver check made of the reading; `Changed` lists the cells
    /// it changed and their new values (already in `puzzle`).
    pub check: CheckOutcome,
    /// The player's own digits, apart from the printed givens in `puzzle`:
    /// the handwriting read for sure (see [`super::cells::entries`]). Handwriting
    /// read unsure is not here; its cell is in `uncertain`.
    pub entries: Entries,
    /// Every cell with handwriting read as a digit, sure or not.
    pub written: Vec<Written>,
    /// Cells with candidate marks, never givens or entries.
    pub marks: Vec<Marks>,
    /// On a page whose digits are in two ink colours (a solving app's
    /// screenshot), the colours and the cells in the entries' colour (see
    /// [`super::cells::colour`]): their digits, read by the printed model, are in
    /// `entries` (those read sure) and not in `puzzle`. `None` when the
    /// digits are in one ink, or when no colour image was given.
    pub colour: Option<ColourSplit>,
    /// For a killer (a grid with cage outlines): its edges, and which cages
    /// are unsure. The cages themselves are the puzzle's.
    pub killer: Option<KillerReading>,
    /// For a square grid whose thick lines are not its boxes' (a jigsaw):
    /// its edges as weighed, and the regions read. When
    /// `jigsaw.layout` is `None` the regions could not be read (no map of
    /// regions of the right size within the repair's bounds): the puzzle
    /// keeps the located layout, and its regions are unsure.
    pub jigsaw: Option<JigsawReading>,
    /// The variant rules read from the page's marks (diagonals, edge
    /// marks), with how sure each is. The puzzle's rules are these and the
    /// ones the reading was given ([`ReadOptions::rules`]).
    pub rules: RulesReading,
}

/// An image decoded once, and what was read from it.
#[derive(Debug)]
pub struct ImageReading {
    /// The pixels as decoded (EXIF orientation applied), to draw the
    /// solution onto or show; `None` unless asked for with [`Colour::Keep`].
    pub image: Option<DynamicImage>,
    /// The grey copy the reader worked on (see [`to_grey`]).
    pub grey: GrayImage,
    /// The puzzle, or why no grid was found there; the error names the
    /// file. The image and its grey copy are here either way, e.g. for a
    /// person to place the corners by hand.
    pub reading: Result<Reading, LocateFileError>,
    /// The locator's intermediate images, for `--debug`.
    pub trace: Trace,
}

/// Whether [`read_image`] hands back the decoded colour pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// Keep them, to draw on or show.
    Keep,
    /// Free them as soon as the grey copy is made: a 12 MP photo's colour
    /// pixels are 36 MB that reading alone does not need.
    Drop,
}

/// How a square grid's boxes are decided once it is located.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Regions {
    /// From the print: a square grid whose thick lines are not its layout's
    /// boxes is read as a jigsaw with the regions they draw.
    #[default]
    Detect,
    /// The located layout's own boxes, whatever the lines (a layout a
    /// person picked).
    Boxes,
    /// The regions the thick lines draw, without the quick test that spares
    /// classic grids the full measure (a person said it is a jigsaw). When
    /// they give no map, [`Reading::jigsaw`]'s `layout` is `None`.
    Lines,
}

/// What a reading is given besides the grey image.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions<'a> {
    /// The decoded image the grey one was made from: digits in a second
    /// ink colour (a solving app's player's digits) are then read as
    /// entries (see [`super::cells::colour`]). Without it, every digit is a given.
    pub colour: Option<&'a DynamicImage>,
    /// Who decides a square grid's boxes.
    pub regions: Regions,
    /// Variant rules the puzzle has besides those its page draws: the
    /// ones no mark shows (anti-king, non-consecutive), or a drawn one the
    /// person names. The solver's check holds them.
    pub rules: &'a [Rule],
}

/// Reads the puzzle in the image file at `path`: decodes it (once), makes
/// the grey copy, locates the grid and reads the cells. With `layout`, that
/// layout is assumed instead of detected. Fails only when the file cannot
/// be loaded; a photo without a grid is an [`ImageReading`] whose `reading`
/// is the error.
pub fn read_image(
    path: &Path,
    layout: Option<&Layout>,
    colour: Colour,
) -> Result<ImageReading, LoadError> {
    read_image_page(path, 1, layout, colour)
}

/// [`read_image`] of page `page` (from 1) of a PDF file; an image file has
/// page 1 only.
pub fn read_image_page(
    path: &Path,
    page: usize,
    layout: Option<&Layout>,
    colour: Colour,
) -> Result<ImageReading, LoadError> {
    read_image_page_with(path, page, layout, colour, &[])
}

/// [`read_image_page`] of a puzzle with the variant `rules` besides those
/// its page draws (see [`ReadOptions::rules`]).
pub fn read_image_page_with(
    path: &Path,
    page: usize,
    layout: Option<&Layout>,
    colour: Colour,
    rules: &[Rule],
) -> Result<ImageReading, LoadError> {
    // The model is parsed while the image decodes.
    let (image, _) = rayon::join(|| load_path_page(path, page), Model::load_bundled);
    Ok(read_decoded(
        image?,
        &path.display().to_string(),
        layout,
        colour,
        rules,
    ))
}

/// [`read_image`] for an image file's content held in memory; `name` is the
/// file named in errors.
pub fn read_image_bytes(
    bytes: &[u8],
    name: &str,
    layout: Option<&Layout>,
    colour: Colour,
) -> Result<ImageReading, LoadError> {
    let (image, _) = rayon::join(|| load_bytes(bytes, name), Model::load_bundled);
    Ok(read_decoded(image?, name, layout, colour, &[]))
}

fn read_decoded(
    image: DynamicImage,
    name: &str,
    layout: Option<&Layout>,
    colour: Colour,
    rules: &[Rule],
) -> ImageReading {
    let grey = to_grey(&image);
    // The colour pixels live on through the reading (the ink colours of
    // the digit cells are sampled from them), no longer: both copies exist
    // at once while the grey one is made anyway.
    let options = ReadOptions {
        colour: Some(&image),
        rules,
        ..ReadOptions::default()
    };
    let (reading, trace) = read_grey_with(&grey, layout, options);
    let image = match colour {
        Colour::Keep => Some(image),
        Colour::Drop => {
            drop(image);
            None
        }
    };
    ImageReading {
        image,
        grey,
        reading: reading.map_err(|e| e.in_file(name)),
        trace,
    }
}

/// Why an image could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Locate(#[from] LocateFileError),
}

/// The puzzle in the image file at `path`: [`read_image`] when only the
/// reading matters.
pub fn read_path(path: &Path, layout: Option<&Layout>) -> Result<Reading, ReadError> {
    Ok(read_image(path, layout, Colour::Drop)?.reading?)
}

/// Reads the puzzle in a grey image, returning the locator's trace too.
/// A [`LocateError`] here names no file ("the image"): see
/// [`LocateError::in_file`]. With no colour, digits are not told apart by
/// their ink: see [`ReadOptions::colour`].
pub fn read_grey(
    grey: &GrayImage,
    layout: Option<&Layout>,
) -> (Result<Reading, LocateError>, Trace) {
    read_grey_with(grey, layout, ReadOptions::default())
}

/// [`read_grey`] with the colour image and the boxes' rule of `options`.
pub fn read_grey_with(
    grey: &GrayImage,
    layout: Option<&Layout>,
    options: ReadOptions<'_>,
) -> (Result<Reading, LocateError>, Trace) {
    let (located, trace) = locate_traced(grey, layout);
    let located = match located {
        Ok(l) => l,
        Err(e) => return (Err(e), trace),
    };
    let others = if layout.is_none() {
        twins(&located)
    } else {
        Vec::new()
    };
    let kept = (!others.is_empty()).then(|| located.clone());
    let mut reading = read_located_with(grey, located, options);
    // A layout with the same cells as the one the lines chose (a butterfly
    // beside a 12x12 drawn with no heavier box borders) is read too when
    // the puzzle as read has no unique solution, and kept when its puzzle
    // does better: its symbols and houses are what the page holds.
    if let Some(located) = kept {
        for other in others {
            if matches!(reading.check, CheckOutcome::Unique) {
                break;
            }
            let twin = read_located_with(
                grey,
                Located {
                    layout: other,
                    ..located.clone()
                },
                options,
            );
            if check_rank(&twin.check) > check_rank(&reading.check) {
                reading = twin;
            }
        }
    }
    (Ok(reading), trace)
}

/// How well a reading's puzzle solved: a unique solution as read, one after
/// changing some uncertain cells, or none.
fn check_rank(outcome: &CheckOutcome) -> u8 {
    match outcome {
        CheckOutcome::Unique => 2,
        CheckOutcome::Changed(_) => 1,
        CheckOutcome::Unresolved => 0,
    }
}

/// Reads the cells of a grid already located in `grey`: classifies each
/// cell crop, decides which way up the puzzle is, and checks the result
/// with the solver.
pub fn read_located(grey: &GrayImage, located: Located) -> Reading {
    read_located_with(grey, located, ReadOptions::default())
}

/// The classes of `model` a layout of `size` symbols written in one of
/// `alphabets` is read among: the glyphs that are its symbols, and every
/// digit 1-9 (a digit past a small layout's last symbol, a 7 on a 6x6, is
/// read and then refused as foreign: the grid may have been found at a
/// smaller layout than printed).
fn classes_for(model: &Model, alphabets: &[Alphabet], size: usize) -> Classes {
    model.classes_where(|g| {
        matches!(g, '1'..='9') || alphabets.iter().any(|a| a.value(g, size).is_some())
    })
}

/// Which of `alphabets` the page read in `cells` (values are `model`'s
/// classes) is written in: see [`ALPHABET_SURE`].
fn page_alphabet(
    model: &Model,
    alphabets: &[Alphabet],
    size: usize,
    cells: &[CellReading],
) -> Alphabet {
    let only_in = |a: Alphabet, g: char| {
        a.value(g, size).is_some()
            && alphabets
                .iter()
                .all(|&b| b == a || b.value(g, size).is_none())
    };
    let mut best = (Alphabet::Digits, 0usize);
    for (i, &a) in alphabets.iter().enumerate() {
        let count = cells
            .iter()
            .filter(|c| c.confidence >= ALPHABET_SURE)
            .filter_map(|c| model.glyph(c.value))
            .filter(|&g| only_in(a, g))
            .count();
        if i == 0 || count > best.1 {
            best = (a, count);
        }
    }
    best.0
}

/// A second look at the cells with ink read as no digit (its shape taken
/// for no digit, or for no shape at all) on paper a shadow's edge crosses.
/// Where the shadow covers less of the crop than the lit paper, its dim
/// side is below the crop's median paper, and the first look took it for
/// ink joined to the digit; where it covers more, the median is the
/// shadow's paper and the lit side may have passed for light ink on a dark
/// page (where only a corner is lit, the paper changes too little to tell
/// a shadow, but the ink's polarity differs from the page's print's).
/// Prepared every way that looks past the shadow ([`prepare_shadowed`])
/// and read again with the page, a cell keeps the surest of the new
/// readings when that is a digit read about as sure as the page's print
/// of that digit ([`SECOND_LOOK_SURE`]): print seen whole once the shadow
/// is gone fits its prototype as the page's print does (the shadowed 3
/// and 6 of kubiesa-val's `01_13_iphone_14_0`, 0.94 and 0.91), while a
/// player's digit looked at so is a scrawl read half-sure (0.37 and 0.40
/// there), of which the solver check could make a given. The page's tests
/// of print apply as in the first look.
fn second_look(
    model: &Model,
    crops: &[GrayImage],
    prepared: &mut [Prepared],
    cells: &mut [CellReading],
    among: Classes,
) {
    let again: Vec<usize> = (0..cells.len())
        .filter(|&i| {
            cells[i].value == 0
                && !matches!(
                    prepared[i],
                    Prepared::Empty {
                        reason: EmptyReason::NoInk,
                        ..
                    }
                )
        })
        .collect();
    if again.is_empty() {
        return;
    }
    let page_light_ink = page_light_ink(crops, cells);
    let looked: Vec<(usize, Vec<Prepared>)> = again
        .par_iter()
        .map(|&i| (i, prepare_shadowed(&crops[i], page_light_ink)))
        .filter(|(_, looks)| !looks.is_empty())
        .collect();
    if looked.is_empty() {
        return;
    }
    let bar = second_look_bars(cells);
    // Each way of looking read with the page (a cell with fewer looks
    // keeps its first look in the others): the page's print and its tests
    // of print are those of the first look. A way that finds no ink shape
    // in any of the cells reads no digit in them.
    let ways = looked.iter().map(|(_, p)| p.len()).max().unwrap_or(0);
    let ways: Vec<(Vec<Prepared>, Vec<CellReading>)> = (0..ways)
        .filter(|&way| {
            looked
                .iter()
                .any(|(_, p)| matches!(p.get(way), Some(Prepared::Ink(_))))
        })
        .map(|way| {
            let mut page = prepared.to_vec();
            for (i, p) in &looked {
                if let Some(look) = p.get(way) {
                    page[*i] = look.clone();
                }
            }
            let read = model.read_page_among(&page, among);
            (page, read)
        })
        .collect();
    for &(i, _) in &looked {
        let best = ways
            .iter()
            .filter(|(_, read)| {
                let r = read[i];
                r.value != 0
                    && r.confidence >= bar.get(r.value as usize).copied().unwrap_or(PRINT_SURE)
            })
            .max_by(|a, b| a.1[i].confidence.total_cmp(&b.1[i].confidence));
        if let Some((page, read)) = best {
            cells[i] = read[i];
            prepared[i] = page[i].clone();
        }
    }
}

/// Whether the page's print is lighter than its paper: what the first look
/// took most of the cells it read a digit in for (see [`light_ink`]);
/// `None` on a page with no digit read.
fn page_light_ink(crops: &[GrayImage], cells: &[CellReading]) -> Option<bool> {
    let (light, read) = crops
        .iter()
        .zip(cells)
        .filter(|(_, c)| c.value != 0)
        .fold((0usize, 0usize), |(light, read), (crop, _)| {
            (light + usize::from(light_ink(crop)), read + 1)
        });
    (read > 0).then_some(2 * light > read)
}

/// A second look's reading of a given is kept when read at least this
/// share of the median confidence of the page's first-look print of its
/// digit, and never needs more than [`PRINT_SURE`]. Print seen whole reads
/// as its page's print does, whose type the model may fit less well than
/// phone photos' usual type (a rendered page's 3s read 0.70 and 0.72, and a
/// shadowed 3 on it 0.67), while the half-sure scrawls a second look can
/// make of a player's digit stay under [`PRINT_SURE`] where the print reads
/// surer than it.
const SECOND_LOOK_SURE: f32 = 0.8;

/// For each class, the confidence a second look's reading of it needs (see
/// [`SECOND_LOOK_SURE`]): [`PRINT_SURE`] for a digit not read on the page.
fn second_look_bars(cells: &[CellReading]) -> Vec<f32> {
    let top = cells.iter().map(|c| c.value as usize).max().unwrap_or(0);
    (0..=top)
        .map(|d| {
            let mut read: Vec<f32> = cells
                .iter()
                .filter(|c| c.value as usize == d && d != 0)
                .map(|c| c.confidence)
                .collect();
            median_of(&mut read).map_or(PRINT_SURE, |mid| PRINT_SURE.min(SECOND_LOOK_SURE * mid))
        })
        .collect()
}

/// The cells of a page read among `among`: each crop prepared as `model`
/// prepares it (a page read with letters keeps wide capitals), the page
/// read together, and a [`second_look`] at those a shadow's edge may hide.
fn read_cells(
    model: &Model,
    crops: &[GrayImage],
    among: Classes,
) -> (Vec<Prepared>, Vec<CellReading>) {
    let mut prepared: Vec<Prepared> = crops.par_iter().map(|c| model.prepare(c)).collect();
    let mut cells = model.read_page_among(&prepared, among);
    second_look(model, crops, &mut prepared, &mut cells, among);
    (prepared, cells)
}

/// [`read_located`] with the colour image and the boxes' rule of `options`.
pub fn read_located_with(grey: &GrayImage, located: Located, options: ReadOptions<'_>) -> Reading {
    let ReadOptions {
        colour,
        regions,
        rules: given_rules,
    } = options;
    let size = located.layout.size();
    let model = Model::for_size(size);
    let Page {
        located,
        crops,
        prepared,
        mut cells,
        turns,
        alphabet,
    } = read_page(model, grey, located);
    let mut uncertain = to_layout_values(model, alphabet, size, &mut cells);
    // Digits in a second ink colour are the player's: out of the givens
    // before anything is decided from them.
    let (mut values, mut taken, mut split) = split_inks(colour, &located, &cells);
    // The rules the page draws, and those given: every check below holds
    // them all.
    let mut read = read_rules(grey, &located);
    // A given rule the layout cannot have (a diagonal of a samurai) is
    // left out.
    let given: Vec<Rule> = given_rules
        .iter()
        .filter(|&r| check_rules(&located.layout, &values, std::slice::from_ref(r)).is_ok())
        .cloned()
        .collect();
    let with_read = |read: &RulesReading| {
        let mut rules = given.clone();
        rules.extend(read.rules.iter().filter(|r| !given.contains(r)).cloned());
        rules
    };
    let mut rules = with_read(&read);
    // A grid with cage outlines is a killer, checked with its cages; the
    // classic check would only look for givens that are not there. A
    // killer that the rules read leave with no single solution is read
    // again without them: a mark taken for a rule is likelier than a
    // page of cages that the solver refutes.
    let mut killer = read_killer(grey, &located, &values, &rules);
    if !read.rules.is_empty()
        && let Some(k) = &killer
        && k.outcome == CheckOutcome::Unresolved
        && let Some(plain) = read_killer(grey, &located, &values, &given)
        && check_rank(&plain.outcome) > check_rank(&k.outcome)
    {
        killer = Some(plain);
        read = RulesReading::default();
        rules = given.clone();
    }
    // Its sums and outlines are print beside a cell's digit, not part of
    // it: the cells are read again without them, and the inks split again
    // when that changed a digit.
    if let Some(k) = &killer {
        let read_again = KillerCells {
            model,
            alphabet,
            size,
            crops: &crops,
            prepared: &prepared,
            killer: k,
        };
        if read_again.reread(&mut cells, &mut uncertain) {
            (values, taken, split) = split_inks(colour, &located, &cells);
        }
    }
    let jigsaw = match killer {
        None => read_jigsaw_with(grey, &located, &values, colour, regions),
        Some(_) => None,
    };
    let mut located = located;
    if let Some(l) = jigsaw.as_ref().and_then(|j| j.layout.clone()) {
        located.layout = l;
    }
    let layout = Arc::new(located.layout.clone());
    let check = |rules: &[Rule], values: &mut [u8]| {
        check_givens(&layout, rules, values, &cells, &taken, killer.as_ref())
    };
    let (mut outcome, mut solved) = check(&rules, &mut values);
    // Rules read that leave no single solution, even with the unsure
    // cells changed: the least sure are left out first, one at a time,
    // then all of them; the first reading that the solver pins down is
    // kept.
    if outcome == CheckOutcome::Unresolved && killer.is_none() && !read.rules.is_empty() {
        let mut trials: Vec<RulesReading> = read
            .least_sure(RULE_TRIALS)
            .into_iter()
            .map(|i| read.without(i))
            .collect();
        trials.push(RulesReading::default());
        for trial in trials {
            let mut trial_values = values.clone();
            let trial_rules = with_read(&trial);
            let (o, found) = check(&trial_rules, &mut trial_values);
            if check_rank(&o) > check_rank(&outcome) {
                (outcome, solved, values, rules, read) =
                    (o, found, trial_values, trial_rules, trial);
                if outcome == CheckOutcome::Unique {
                    break;
                }
            }
        }
    }
    if let CheckOutcome::Changed(changes) = &outcome {
        uncertain.extend(changes.iter().map(|&(cell, _)| cell));
        uncertain.sort_unstable();
        uncertain.dedup();
    }
    let mut puzzle = Puzzle::empty(layout)
        .with_values(values)
        .with_alphabet(alphabet)
        .with_rules(rules);
    if let Some(k) = &killer {
        puzzle = puzzle
            .with_cages(k.cages.clone())
            .expect("cages read from the grid's own cells are well formed");
    }
    // The unique solution, when the givens have one: it tells how sure an
    // entry that disagrees with it must be.
    let solution = match &outcome {
        CheckOutcome::Unresolved => None,
        _ => solved.or_else(|| {
            solve_within(&puzzle, 2, 1, Budget::nodes(verify::SEARCH_NODES))
                .ok()
                .filter(|o| o.count == 1)
                .and_then(|mut o| o.solutions.pop())
        }),
    };
    let hand = Handwriting {
        puzzle: &puzzle,
        cells: &cells,
        taken: &taken,
        killer: killer.as_ref(),
        solution: solution.as_deref(),
        alphabet,
        size,
    };
    let (written, marks) = hand.read(crops, prepared);
    let entries = entries_of(&written, &taken, &mut uncertain, puzzle.values().len());
    Reading {
        puzzle,
        located,
        turns,
        cells,
        uncertain,
        check: outcome,
        entries,
        written,
        marks,
        colour: split,
        killer,
        jigsaw,
        rules: read,
    }
}

/// The cells' values with the digits in a second ink colour (the
/// player's, when `colour` shows two) taken out: the values, which cells
/// were taken, and the split.
fn split_inks(
    colour: Option<&DynamicImage>,
    located: &Located,
    cells: &[CellReading],
) -> (Vec<u8>, Vec<bool>, Option<ColourSplit>) {
    let mut values: Vec<u8> = cells.iter().map(|c| c.value).collect();
    let split = colour.and_then(|image| split_digits(image, located, &values));
    let mut taken = vec![false; values.len()];
    if let Some(s) = &split {
        for &cell in &s.entry_cells {
            values[cell] = 0;
            taken[cell] = true;
        }
    }
    (values, taken, split)
}

/// A killer's cells, to be read again with its print painted over: the
/// sums ([`clear_sums`]) and the cage outlines ([`clear_outlines`]), as
/// for the player's handwriting. Read whole, a digit drawn large beside
/// its cage's sum or outline is taken with their ink: an 8 beside a 22
/// reads as a 6, a 5 beside a 5 or a 2 under a dashed line as no digit
/// (a solved killer as exported, read back).
struct KillerCells<'a> {
    model: &'a Model,
    alphabet: Alphabet,
    size: usize,
    /// The cells' crops, upright, as the page was read, and as they were
    /// prepared.
    crops: &'a [GrayImage],
    prepared: &'a [Prepared],
    killer: &'a KillerReading,
}

impl KillerCells<'_> {
    /// Reads again without the killer's print each cell with a sum, and
    /// each cell with ink read as no digit, and keeps that reading where it
    /// finds a digit (the print painted over leaves a digit whole or
    /// nothing: no digit read before is dropped for a blank). `uncertain`
    /// follows the new readings. Whether any digit changed.
    fn reread(&self, cells: &mut [CellReading], uncertain: &mut Vec<usize>) -> bool {
        let mut with_sums: Vec<GrayImage> = self.crops.to_vec();
        clear_sums(&mut with_sums, self.killer);
        let summed = |cell: usize| self.killer.sum_ink.iter().any(|&(c, _)| c == cell);
        let inked = |cell: usize| {
            cells.get(cell).is_some_and(|c| c.value == 0)
                && !matches!(
                    self.prepared.get(cell),
                    Some(Prepared::Empty {
                        reason: EmptyReason::NoInk,
                        ..
                    }) | None
                )
        };
        let again: Vec<(usize, CellReading, bool)> = with_sums
            .into_par_iter()
            .enumerate()
            .filter(|&(cell, _)| summed(cell) || inked(cell))
            .filter_map(|(cell, mut crop)| {
                clear_outlines(std::slice::from_mut(&mut crop));
                let mut read = [self.model.read_prepared(&self.model.prepare(&crop))];
                let unsure =
                    !to_layout_values(self.model, self.alphabet, self.size, &mut read).is_empty();
                let [read] = read;
                (read.value != 0).then_some((cell, read, unsure))
            })
            .collect();
        let mut changed = false;
        for (cell, read, unsure) in again {
            let Some(first) = cells.get_mut(cell) else {
                continue;
            };
            changed |= read.value != first.value;
            *first = read;
            uncertain.retain(|&c| c != cell);
            if unsure {
                uncertain.push(cell);
            }
        }
        uncertain.sort_unstable();
        changed
    }
}

/// A page's cells read, in the puzzle's own orientation.
struct Page {
    /// The grid, turned upright.
    located: Located,
    /// The cells' crops, upright.
    crops: Vec<GrayImage>,
    prepared: Vec<Prepared>,
    /// The cells' readings, as the model's classes among the page's
    /// alphabet.
    cells: Vec<CellReading>,
    /// Quarter turns clockwise at which the puzzle appears.
    turns: u8,
    /// The alphabet the page is written in.
    alphabet: Alphabet,
}

/// Reads the cells of `located` in `grey` with `model`: each cell crop
/// classified, the page turned upright, and read again among the classes
/// of the alphabet it is written in.
fn read_page(model: &Model, grey: &GrayImage, located: Located) -> Page {
    // The layout's symbols decide the model (the digits 1-9, or the
    // symbols model's letters too) and the classes looked for: first those
    // of every alphabet the layout may be written in, then, once the page
    // has told which it is, those of that one.
    let size = located.layout.size();
    let alphabets = Alphabet::for_size(size);
    let among = classes_for(model, alphabets, size);
    let crops = cell_crops(grey, &located, CELL_CROP_SIZE);
    let (prepared, cells) = read_cells(model, &crops, among);
    let turns = orient(model, &located.layout, &crops, &prepared, &cells).turns;
    let (located, crops) = apply(located, crops, turns);
    // A turned grid's crops are read again upright, second look and all.
    let (prepared, cells) = if turns.is_multiple_of(4) {
        (prepared, cells)
    } else {
        read_cells(model, &crops, among)
    };
    let alphabet = page_alphabet(model, alphabets, size, &cells);
    let chosen = classes_for(model, &[alphabet], size);
    let cells = if chosen == among {
        cells
    } else {
        model.read_page_among(&prepared, chosen)
    };
    Page {
        located,
        crops,
        prepared,
        cells,
        turns,
        alphabet,
    }
}

/// Turns `cells`, read as `model`'s classes, into the values of a layout
/// of `size` symbols written in `alphabet`, and returns the cells that are
/// unsure. A class that is no symbol of the layout (a 7 on a 6x6, a grid
/// read at a smaller layout than printed) is no given of it: empty, and
/// unsure.
fn to_layout_values(
    model: &Model,
    alphabet: Alphabet,
    size: usize,
    cells: &mut [CellReading],
) -> Vec<usize> {
    let symbol = |class: u8| model.glyph(class).and_then(|g| alphabet.value(g, size));
    let mut foreign = vec![false; cells.len()];
    for (c, f) in cells.iter_mut().zip(&mut foreign) {
        if c.runner_up != 0 {
            match symbol(c.runner_up) {
                Some(v) => c.runner_up = v,
                None => (c.runner_up, c.runner_up_confidence) = (0, 0.0),
            }
        }
        if c.value != 0 {
            match symbol(c.value) {
                Some(v) => c.value = v,
                None => (c.value, c.confidence, *f) = (0, 0.0, true),
            }
        }
    }
    cells
        .iter()
        .zip(&foreign)
        .enumerate()
        .filter(|(_, (c, f))| **f || is_uncertain(c))
        .map(|(i, _)| i)
        .collect()
}

/// A jigsaw's regions, when the grid is one: a square grid whose thick
/// lines are not its boxes' is a jigsaw, its regions to become the layout's
/// boxes, for the check and the puzzle. Regions told by colour (fills,
/// every line alike, read from `colour`) where the lines tell none; fills
/// that draw no regions of the right size (a selected cell's highlighted
/// row, column and box) leave the grid as it was. `regions` says who
/// decides.
fn read_jigsaw_with(
    grey: &GrayImage,
    located: &Located,
    values: &[u8],
    colour: Option<&DynamicImage>,
    regions: Regions,
) -> Option<JigsawReading> {
    let fills = || {
        colour
            .and_then(|image| fill_regions(image, located, values))
            .filter(|f| f.layout.is_some())
    };
    match regions {
        Regions::Detect => read_jigsaw(grey, located, values).or_else(fills),
        Regions::Lines => match read_regions(grey, located, values) {
            Some(j) if j.layout.is_none() => fills().or(Some(j)),
            other => other,
        },
        Regions::Boxes => None,
    }
}

/// The solver's check of the givens `values` in `layout` (changing them
/// as the check says), and the solution it found: a killer's reading was
/// checked with its cages and keeps none. The cells `taken` by the
/// entries' ink are no candidates for the check's changes.
fn check_givens(
    layout: &Arc<Layout>,
    rules: &[Rule],
    values: &mut [u8],
    cells: &[CellReading],
    taken: &[bool],
    killer: Option<&KillerReading>,
) -> (CheckOutcome, Option<Vec<u8>>) {
    match killer {
        Some(k) => (k.outcome.clone(), None),
        None if taken.iter().any(|&t| t) => {
            let mut givens_only = cells.to_vec();
            for (c, &t) in givens_only.iter_mut().zip(taken) {
                if t {
                    *c = EMPTY_CELL;
                }
            }
            check_solved(layout, rules, values, &givens_only)
        }
        None => check_solved(layout, rules, values, cells),
    }
}

/// What the player's handwriting is read against: the reading so far.
struct Handwriting<'a> {
    /// The puzzle as read and checked: its givens.
    puzzle: &'a Puzzle,
    /// The printed model's readings of the cells.
    cells: &'a [CellReading],
    /// The cells whose digits are in the entries' ink.
    taken: &'a [bool],
    killer: Option<&'a KillerReading>,
    /// The puzzle's unique solution, when it has one.
    solution: Option<&'a [u8]>,
    /// The page's alphabet, and the layout's symbol count.
    alphabet: Alphabet,
    size: usize,
}

impl Handwriting<'_> {
    /// The player's digits (and the digits in the entries' ink, reported
    /// like them), cells ascending, and candidate marks, in the cells
    /// `crops` with no given (`prepared` as for the givens).
    fn read(&self, crops: Vec<GrayImage>, prepared: Vec<Prepared>) -> (Vec<Written>, Vec<Marks>) {
        let Handwriting {
            puzzle,
            cells,
            taken,
            killer,
            solution,
            alphabet,
            size,
        } = *self;
        // Handwriting is not looked for where a digit in the entries' ink
        // is.
        let occupied: Vec<u8> = puzzle
            .values()
            .iter()
            .zip(taken)
            .map(|(&v, &t)| if t { 1 } else { v })
            .collect();
        // The other cells are prepared again for handwriting, which may
        // reach the cell's edge or have candidate marks beside it; a
        // killer's sums and cage outlines are painted over first (they
        // are neither).
        let mut crops = crops;
        if let Some(k) = killer {
            clear_sums(&mut crops, k);
            clear_outlines(&mut crops);
        }
        let mut prepared = prepared;
        prepared
            .par_iter_mut()
            .zip(&crops)
            .zip(&occupied)
            .filter(|(_, g)| **g == 0)
            .for_each(|((p, crop), _)| *p = prepare_entry(crop));
        // Handwriting is read as the digits 1-9 (the handwriting model's,
        // and the digit model's where it has none), checked against the
        // solution in those digits, then written in the page's alphabet: a
        // hexadecimal page's 5 is its sixth symbol.
        let digit_solution = solution.map(|s| solution_digits(s, alphabet));
        let (_, mut written, mut marks) = read_written(
            Model::load_bundled(),
            Model::load_handwriting(),
            &prepared,
            &occupied,
            digit_solution.as_deref(),
        );
        // Marks are pencil or pen, not the paper's grain: as dark as a
        // share of the page's print (judged only on a page with marks).
        if !marks.is_empty() {
            let givens: Vec<usize> = (0..occupied.len())
                .filter(|&c| puzzle.values()[c] != 0)
                .collect();
            let light = page_light_ink(&crops, cells).unwrap_or(false);
            drop_faint_marks(&mut marks, &crops, &givens, light);
        }
        // The marks' digits, where the digit model reads them sure: on a
        // page written in the digits 1-9 or fewer.
        if alphabet == Alphabet::Digits && size <= 9 {
            marks
                .par_iter_mut()
                .for_each(|m| m.digits = read_marks(Model::load_bundled(), &crops[m.cell], size));
        }
        drop(crops);
        let digit_symbol =
            |d: u8| char::from_digit(d as u32, 10).and_then(|g| alphabet.value(g, size));
        written.retain_mut(|w| {
            let Some(v) = digit_symbol(w.value) else {
                return false;
            };
            w.value = v;
            w.runner_up = digit_symbol(w.runner_up).unwrap_or(0);
            true
        });
        // A digit in the entries' ink is printed: reported like a given,
        // even read unsure (its cell is then in `uncertain` already).
        for (cell, _) in taken.iter().enumerate().filter(|(_, t)| **t) {
            let c = &cells[cell];
            written.push(Written {
                cell,
                value: c.value,
                confidence: c.confidence,
                runner_up: c.runner_up,
                sure: true,
            });
        }
        written.sort_by_key(|w| w.cell);
        (written, marks)
    }
}

/// The player's entries among `written` (of a layout of `cell_count`
/// cells): those read for sure. Handwriting read for sure is what the
/// printed model could not read in its cell: that cell leaves `uncertain`
/// (a digit in the entries' ink, `taken`, keeps the printed model's
/// doubt); handwriting read unsure joins it.
fn entries_of(
    written: &[Written],
    taken: &[bool],
    uncertain: &mut Vec<usize>,
    cell_count: usize,
) -> Entries {
    uncertain.retain(|&c| !written.iter().any(|w| w.cell == c && w.sure && !taken[c]));
    let mut entry_values = vec![0u8; cell_count];
    for w in written {
        if w.sure {
            entry_values[w.cell] = w.value;
        } else {
            uncertain.push(w.cell);
        }
    }
    uncertain.sort_unstable();
    uncertain.dedup();
    Entries::from_values(entry_values)
}

/// A cell reading of blank paper, read for sure.
const EMPTY_CELL: CellReading = CellReading {
    value: 0,
    confidence: 1.0,
    runner_up: 0,
    runner_up_confidence: 0.0,
};

/// The digits `values` (as read, in cell order) of the grid `located` in
/// `image` split by their ink colours, when they fall into two groups.
fn split_digits(image: &DynamicImage, located: &Located, values: &[u8]) -> Option<ColourSplit> {
    let (cells, inks): (Vec<usize>, Vec<InkColour>) = values
        .par_iter()
        .enumerate()
        .filter(|(_, v)| **v != 0)
        .filter_map(|(cell, _)| ink_colour(image, located, cell).map(|ink| (cell, ink)))
        .unzip();
    split_by_colour(&cells, &inks)
}

fn is_uncertain(c: &CellReading) -> bool {
    if c.value == 0 {
        c.runner_up != 0
    } else {
        c.confidence < UNCERTAIN_BELOW
    }
}

/// Reads the puzzle in `grey` with its outer corners given (image pixels,
/// clockwise from top-left, as in [`Located::corners`]) and its layout
/// forced, e.g. after a person dragged the corners onto the grid. The grid
/// lines are taken evenly spaced between the corners. `None` when the
/// corners are degenerate (three on a line, or crossing sides).
pub fn read_at_corners(
    grey: &GrayImage,
    corners: [[f32; 2]; 4],
    layout: &Layout,
) -> Option<Reading> {
    read_at_corners_with(grey, corners, layout, ReadOptions::default())
}

/// [`read_at_corners`] with the colour image and the boxes' rule of
/// `options`.
pub fn read_at_corners_with(
    grey: &GrayImage,
    corners: [[f32; 2]; 4],
    layout: &Layout,
    options: ReadOptions<'_>,
) -> Option<Reading> {
    let located = located_at_corners(corners, layout)?;
    Some(read_located_with(grey, located, options))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_size_reads_only_its_own_symbols() {
        let glyphs = |size: usize| -> String {
            let model = Model::for_size(size);
            let among = classes_for(model, Alphabet::for_size(size), size);
            (1..=model.class_count() as u8)
                .filter(|&c| among.contains(c))
                .filter_map(|c| model.glyph(c))
                .collect()
        };
        assert_eq!(glyphs(9), "123456789");
        assert_eq!(glyphs(12), "123456789ABC");
        // Written 1-G, or in hexadecimal 0-F: never an H of the 25x25.
        assert_eq!(glyphs(16), "123456789ABCDEFG0");
        assert_eq!(glyphs(25), "123456789ABCDEFGHIJKLMNOP");
    }

    #[test]
    fn a_blank_image_read_at_corners_is_all_empty() {
        let grey = GrayImage::from_pixel(200, 200, image::Luma([255]));
        let corners = [[10.0, 10.0], [190.0, 10.0], [190.0, 190.0], [10.0, 190.0]];
        let reading = read_at_corners(&grey, corners, &Layout::classic()).unwrap();
        assert_eq!(reading.puzzle.values().len(), 81);
        assert!(reading.puzzle.values().iter().all(|&v| v == 0));
    }
}
