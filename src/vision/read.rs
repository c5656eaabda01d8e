//! The whole reader: an image file in, a puzzle out, with where it was found
//! and how sure each cell is.

use std::path::Path;
use std::sync::Arc;

use image::GrayImage;

use super::check::{Verdict, check};
use rayon::prelude::*;

use super::classify::prep::{Prepared, prepare};
use super::classify::{CellReading, Model};
use super::load::{LoadError, load_path};
use super::locate::{CELL_CROP_SIZE, LocateError, Located, Trace, cell_crops, locate_traced};
use super::orient::{apply, orient};
use crate::grid::{Layout, Puzzle};

/// Cells read with less confidence than this are reported as uncertain.
pub const UNCERTAIN_BELOW: f32 = 0.75;

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
    /// that was read as empty, or a cell changed by the solver check.
    pub uncertain: Vec<usize>,
    /// What the solver check made of the reading; `Changed` lists the cells
    /// it changed and their new values (already in `puzzle`).
    pub verdict: Verdict,
}

/// Why an image could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Locate(#[from] LocateError),
}

/// Reads the puzzle in the image file at `path`. With `layout`, that layout
/// is assumed instead of detected.
pub fn read_path(path: &Path, layout: Option<&Layout>) -> Result<Reading, ReadError> {
    let grey = load_path(path)?.to_luma8();
    let (result, _) = read_grey(&grey, layout);
    result.map_err(|e| ReadError::Locate(e.in_file(&path.display().to_string())))
}

/// Reads the puzzle in a grey image, returning the locator's trace too.
pub fn read_grey(
    grey: &GrayImage,
    layout: Option<&Layout>,
) -> (Result<Reading, LocateError>, Trace) {
    let (located, trace) = locate_traced(grey, layout);
    let located = match located {
        Ok(l) => l,
        Err(e) => return (Err(e), trace),
    };
    let model = Model::load_bundled();
    let crops = cell_crops(grey, &located, CELL_CROP_SIZE);
    let prepared: Vec<Prepared> = crops.par_iter().map(prepare).collect();
    let cells: Vec<CellReading> = prepared
        .par_iter()
        .map(|p| model.read_prepared(p))
        .collect();
    let turns = orient(model, &located.layout, &crops, &prepared, &cells).turns;
    drop(prepared);
    let (located, _, cells) = apply(model, located, crops, cells, turns);
    let mut uncertain: Vec<usize> = cells
        .iter()
        .enumerate()
        .filter(|(_, c)| is_uncertain(c))
        .map(|(i, _)| i)
        .collect();
    let layout = Arc::new(located.layout.clone());
    let mut values: Vec<u8> = cells.iter().map(|c| c.value).collect();
    let verdict = check(&layout, &mut values, &cells);
    if let Verdict::Changed(changes) = &verdict {
        uncertain.extend(changes.iter().map(|&(cell, _)| cell));
        uncertain.sort_unstable();
        uncertain.dedup();
    }
    let puzzle = Puzzle::empty(layout).with_values(values);
    let reading = Reading {
        puzzle,
        located,
        turns,
        cells,
        uncertain,
        verdict,
    };
    (Ok(reading), trace)
}

fn is_uncertain(c: &CellReading) -> bool {
    if c.value == 0 {
        c.runner_up != 0
    } else {
        c.confidence < UNCERTAIN_BELOW
    }
}
