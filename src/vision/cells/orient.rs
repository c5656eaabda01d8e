//! Which way up the puzzle is: the locator finds the grid in the orientation
//! of the pixels, so a photo taken sideways or upside down (or carrying an
//! EXIF tag that disagrees with its pixels) shows the digits turned by a
//! quarter turn. The digits decide: the cells holding ink are read under each
//! quarter turn of their crops, and the turn whose digits read with the most
//! confidence wins. The result is a [`Located`] turned to match, so that its
//! corners, homography and grid lines are in the puzzle's own order and
//! nothing downstream needs to know.

use image::GrayImage;
use image::imageops::{rotate90, rotate180, rotate270};

use rayon::prelude::*;

use super::classify::prep::{EmptyReason, Prepared};
use super::classify::{CellReading, Model};
use crate::grid::Layout;
use crate::vision::locate::Located;
use crate::vision::page::homography::Homography;

/// When the upright reading's digits average at least this confidence, the
/// other orientations are not tried.
pub const UPRIGHT_SURE: f32 = 0.8;

/// At most this many cells with ink are read under the other orientations.
pub const PROBE_CELLS: usize = 40;

/// Fewer cells with digit-like ink than this and the orientation is left as
/// located: too little evidence either way.
pub const MIN_INK_CELLS: usize = 4;

/// Cells of each turn read first, to drop a turn that is clearly worse.
pub const FIRST_SAMPLE: usize = 10;

/// A turn whose sampled total, scaled to all its cells, falls below this
/// fraction of the upright total is not read further.
pub const SAMPLE_KEEP: f32 = 0.8;

/// A turned orientation must beat the upright one's total confidence by this
/// factor to be taken.
pub const TURN_MARGIN: f32 = 1.25;

/// How confidently a reading shows a printed digit: its confidence when it
/// reads as one, the runner-up's when ink was rejected as not quite a digit,
/// 0 for a cell without ink.
fn digit_score(c: &CellReading) -> f32 {
    if c.value != 0 {
        c.confidence
    } else if c.runner_up != 0 {
        c.runner_up_confidence
    } else {
        0.0
    }
}

/// The cell, in the stored orientation, that shows cell `(row, col)` of the
/// puzzle when the puzzle appears turned `turns` quarter turns clockwise in
/// the image. `None` when that position is not a cell.
fn source_cell(layout: &Layout, turns: u8, row: usize, col: usize) -> Option<usize> {
    let (w, h) = (layout.width(), layout.height());
    let (r, c) = match turns % 4 {
        0 => (row, col),
        1 => (col, w.checked_sub(1 + row)?),
        2 => (h.checked_sub(1 + row)?, w.checked_sub(1 + col)?),
        _ => (h.checked_sub(1 + col)?, row),
    };
    layout.cell_at(r, c)
}

/// For each cell of the puzzle turned upright, the stored cell that shows it;
/// `None` when the layout does not map onto itself under that turn (its
/// cells or its houses would differ), so that orientation cannot be read.
pub fn cell_map(layout: &Layout, turns: u8) -> Option<Vec<usize>> {
    if turns % 2 == 1 && layout.width() != layout.height() {
        return None;
    }
    let map: Vec<usize> = (0..layout.cell_count())
        .map(|cell| {
            let (r, c) = layout.position(cell);
            source_cell(layout, turns, r, c)
        })
        .collect::<Option<_>>()?;
    if turns.is_multiple_of(4) {
        return Some(map);
    }
    // Every house must be carried onto a house (a jigsaw's regions are not).
    let mut houses: Vec<Vec<u32>> = layout
        .houses()
        .iter()
        .map(|h| {
            let mut cells = h.cells.clone();
            cells.sort_unstable();
            cells
        })
        .collect();
    houses.sort_unstable();
    let mut turned: Vec<Vec<u32>> = layout
        .houses()
        .iter()
        .map(|h| {
            let mut cells: Vec<u32> = h.cells.iter().map(|&c| map[c as usize] as u32).collect();
            cells.sort_unstable();
            cells
        })
        .collect();
    turned.sort_unstable();
    (houses == turned).then_some(map)
}

/// A crop of a stored cell turned so that a puzzle appearing `turns` quarter
/// turns clockwise reads upright.
pub fn turn_crop(crop: &GrayImage, turns: u8) -> GrayImage {
    match turns % 4 {
        0 => crop.clone(),
        1 => rotate270(crop),
        2 => rotate180(crop),
        _ => rotate90(crop),
    }
}

/// `located` for a puzzle that appears `turns` quarter turns clockwise in the
/// image: its canvas turned so that canvas (0, 0) is the puzzle's top-left.
/// The layout must map onto itself (see [`cell_map`]); the corners stay
/// clockwise, starting from the puzzle's top-left.
pub fn turn_located(located: &Located, turns: u8) -> Located {
    let turns = turns % 4;
    if turns == 0 {
        return located.clone();
    }
    let (w, h) = (
        located.layout.width() as f64,
        located.layout.height() as f64,
    );
    let (wf, hf) = (w as f32, h as f32);
    // Puzzle canvas (x, y) to stored canvas, and the grid lines with it.
    let (m, col_lines, row_lines): ([f64; 9], Vec<f32>, Vec<f32>) = match turns {
        1 => (
            [0.0, -1.0, w, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            located.row_lines.clone(),
            located.col_lines.iter().rev().map(|c| wf - c).collect(),
        ),
        2 => (
            [-1.0, 0.0, w, 0.0, -1.0, h, 0.0, 0.0, 1.0],
            located.col_lines.iter().rev().map(|c| wf - c).collect(),
            located.row_lines.iter().rev().map(|r| hf - r).collect(),
        ),
        _ => (
            [0.0, 1.0, 0.0, -1.0, 0.0, h, 0.0, 0.0, 1.0],
            located.row_lines.iter().rev().map(|r| hf - r).collect(),
            located.col_lines.clone(),
        ),
    };
    // The lines beside each cell likewise: `[line][unit along]`, a line
    // taken from the other direction, or in reverse order, or read along
    // the other way, as the matrix above turns them.
    let turn_at =
        |beside: &[Vec<f32>], reverse_lines: bool, reverse_along: bool, mirror: Option<f32>| {
            let mut out: Vec<Vec<f32>> = beside
                .iter()
                .map(|l| {
                    let mut l: Vec<f32> = l.iter().map(|v| mirror.map_or(*v, |m| m - v)).collect();
                    if reverse_along {
                        l.reverse();
                    }
                    l
                })
                .collect();
            if reverse_lines {
                out.reverse();
            }
            out
        };
    let (cols_at, rows_at) = (&located.col_lines_at, &located.row_lines_at);
    let (col_lines_at, row_lines_at) = match turns {
        1 => (
            turn_at(rows_at, false, true, None),
            turn_at(cols_at, true, false, Some(wf)),
        ),
        2 => (
            turn_at(cols_at, true, true, Some(wf)),
            turn_at(rows_at, true, true, Some(hf)),
        ),
        _ => (
            turn_at(rows_at, true, false, Some(hf)),
            turn_at(cols_at, false, true, None),
        ),
    };
    let t = turns as usize;
    Located {
        corners: std::array::from_fn(|i| located.corners[(i + t) % 4]),
        homography: Homography::from_matrix(m).then(&located.homography),
        col_lines,
        row_lines,
        col_lines_at,
        row_lines_at,
        ..located.clone()
    }
}

/// The outcome of [`orient`].
#[derive(Clone, Debug, PartialEq)]
pub struct Orientation {
    /// Quarter turns clockwise at which the puzzle appears in the image.
    pub turns: u8,
    /// Summed digit confidence of the probed cells under each turn (0 for
    /// turns not tried or dropped after a sample).
    pub scores: [f32; 4],
}

/// Decides which quarter turn makes the digits upright, from the crops as
/// stored, their preprocessing and their upright `readings` (all in cell
/// order). The cells probed are those with a central ink shape, and those
/// whose ink was too wide to be a digit (a digit on its side). The upright
/// reading is kept when its digits are already read confidently, when there
/// is too little ink to judge, or when no turn reads clearly better.
pub fn orient(
    model: &Model,
    layout: &Layout,
    crops: &[GrayImage],
    prepared: &[Prepared],
    readings: &[CellReading],
) -> Orientation {
    let mut out = Orientation {
        turns: 0,
        scores: [0.0; 4],
    };
    let is_wide = |c: usize| {
        matches!(
            prepared[c],
            Prepared::Empty {
                reason: EmptyReason::Wide,
                ..
            }
        )
    };
    let ink = (0..readings.len())
        .filter(|&c| matches!(prepared[c], Prepared::Ink(_)))
        .count();
    let wide = (0..readings.len()).filter(|&c| is_wide(c)).count();
    if ink + wide < MIN_INK_CELLS {
        return out;
    }
    let mut probe: Vec<usize> = (0..readings.len())
        .filter(|&c| is_wide(c) || matches!(prepared[c], Prepared::Ink(_)))
        .collect();
    let upright: f32 = probe.iter().map(|&c| digit_score(&readings[c])).sum();
    if wide * 4 <= ink && upright >= UPRIGHT_SURE * ink as f32 {
        out.scores[0] = upright;
        return out;
    }
    // An even spread of the probed cells, at most PROBE_CELLS of them.
    let step = probe.len().div_ceil(PROBE_CELLS);
    if step > 1 {
        probe = probe.into_iter().step_by(step).collect();
    }
    out.scores[0] = probe.iter().map(|&c| digit_score(&readings[c])).sum();
    // Only crops whose ink can be a digit once turned are read: a quarter
    // turn swaps width and height, a half turn keeps them. Quarter turns are
    // only worth trying when much of the ink is too wide for a digit.
    let sideways = wide >= MIN_INK_CELLS && wide * 2 >= ink;
    let readable = readable_when_turned(layout, prepared, &probe, sideways);
    let turned = turn_scores(model, crops, &readable, out.scores[0]);
    out.scores[1..].copy_from_slice(&turned[1..]);
    let (best, &score) = out
        .scores
        .iter()
        .enumerate()
        .skip(1)
        .max_by(|a, b| a.1.total_cmp(b.1))
        .expect("three turns");
    if score > out.scores[0] * TURN_MARGIN {
        out.turns = best as u8;
    }
    out
}

/// The turns worth trying, each with the probed cells whose ink can be a
/// digit once turned: a quarter turn swaps width and height, a half turn
/// keeps them. Quarter turns (`sideways`) only when much of the ink is too
/// wide for a digit, and only turns the layout maps onto itself.
fn readable_when_turned(
    layout: &Layout,
    prepared: &[Prepared],
    probe: &[usize],
    sideways: bool,
) -> Vec<(u8, Vec<usize>)> {
    (1..4u8)
        .filter(|&turns| (turns == 2 || sideways) && cell_map(layout, turns).is_some())
        .map(|turns| {
            let cells = probe
                .iter()
                .copied()
                .filter(|&c| match &prepared[c] {
                    Prepared::Ink(ink) => turns == 2 || ink.width >= ink.height,
                    _ => turns != 2,
                })
                .collect();
            (turns, cells)
        })
        .collect()
}

/// Summed digit confidence of each turn's `readable` cells read turned
/// (index 0 and turns not kept: 0). First a sample of each turn's cells
/// ([`FIRST_SAMPLE`]): a turn whose estimated total is clearly below
/// `upright` ([`SAMPLE_KEEP`]) is dropped before reading the rest.
fn turn_scores(
    model: &Model,
    crops: &[GrayImage],
    readable: &[(u8, Vec<usize>)],
    upright: f32,
) -> [f32; 4] {
    let score_of = |jobs: &[(u8, usize)]| -> Vec<(u8, f32)> {
        jobs.par_iter()
            .map(|&(turns, c)| {
                let r = model.classify(&turn_crop(&crops[c], turns));
                (turns, digit_score(&r))
            })
            .collect()
    };
    let first: Vec<(u8, usize)> = readable
        .iter()
        .flat_map(|(turns, cells)| {
            let step = cells.len().div_ceil(FIRST_SAMPLE).max(1);
            cells.iter().step_by(step).map(move |&c| (*turns, c))
        })
        .collect();
    let mut sampled = [0f32; 4];
    let mut counted = [0usize; 4];
    for (turns, s) in score_of(&first) {
        sampled[turns as usize] += s;
        counted[turns as usize] += 1;
    }
    let mut keep = [false; 4];
    for (turns, cells) in readable {
        let t = *turns as usize;
        let estimate = sampled[t] * cells.len() as f32 / counted[t].max(1) as f32;
        keep[t] = estimate >= upright * SAMPLE_KEEP;
    }
    let rest: Vec<(u8, usize)> = readable
        .iter()
        .filter(|(turns, _)| keep[*turns as usize])
        .flat_map(|(turns, cells)| {
            let step = cells.len().div_ceil(FIRST_SAMPLE).max(1);
            cells
                .iter()
                .enumerate()
                .filter(move |(i, _)| i % step != 0)
                .map(move |(_, &c)| (*turns, c))
        })
        .collect();
    for (turns, s) in score_of(&rest) {
        sampled[turns as usize] += s;
    }
    let mut scores = [0f32; 4];
    for t in 1..4 {
        if keep[t] {
            scores[t] = sampled[t];
        }
    }
    scores
}

/// The located grid and crops turned by `turns` (as decided by
/// [`orient`]): crops in the puzzle's cell order, upright, to be read again.
pub fn apply(located: Located, crops: Vec<GrayImage>, turns: u8) -> (Located, Vec<GrayImage>) {
    let Some(map) = cell_map(&located.layout, turns).filter(|_| !turns.is_multiple_of(4)) else {
        return (located, crops);
    };
    let crops: Vec<GrayImage> = map.iter().map(|&c| turn_crop(&crops[c], turns)).collect();
    (turn_located(&located, turns), crops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::locate::{CELL_CROP_SIZE, cell_crops};

    fn located(layout: Layout) -> Located {
        let (w, h) = (layout.width() as f64, layout.height() as f64);
        // A perspective view, so that a wrong composition shows.
        let from = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
        let corners = [[100.0, 80.0], [520.0, 110.0], [540.0, 560.0], [70.0, 500.0]];
        let homography = Homography::from_points(&from, &corners).unwrap();
        let col_lines = (0..=layout.width())
            .map(|i| i as f32 + if i % 3 == 1 { 0.05 } else { 0.0 })
            .collect();
        let row_lines = (0..=layout.height())
            .map(|i| i as f32 - if i % 4 == 2 { 0.07 } else { 0.0 })
            .collect();
        // Lines that bend: each cell's edges its own.
        let bend = |lines: &Vec<f32>, along: usize, k: usize| -> Vec<Vec<f32>> {
            lines
                .iter()
                .enumerate()
                .map(|(i, &at)| {
                    (0..along)
                        .map(|b| at + 0.01 * ((i * k + b * 3) % 7) as f32)
                        .collect()
                })
                .collect()
        };
        let col_lines_at = bend(&col_lines, layout.height(), 5);
        let row_lines_at = bend(&row_lines, layout.width(), 2);
        Located {
            corners: corners.map(|p| p.map(|v| v as f32)),
            layout,
            homography,
            col_lines,
            row_lines,
            col_lines_at,
            row_lines_at,
            score: 1.0,
            layout_scores: Vec::new(),
        }
    }

    /// The image corners of a cell between its lines beside it, clockwise
    /// from its top-left.
    fn edge_quad(loc: &Located, cell: usize) -> [[f32; 2]; 4] {
        let [l, r, t, b] = loc.cell_edges(cell);
        [[l, t], [r, t], [r, b], [l, b]].map(|[u, v]| {
            let (x, y) = loc.homography.map(u as f64, v as f64);
            [x as f32, y as f32]
        })
    }

    fn close(a: [f32; 2], b: [f32; 2]) -> bool {
        (a[0] - b[0]).abs() < 1e-3 && (a[1] - b[1]).abs() < 1e-3
    }

    #[test]
    fn a_turned_grid_keeps_every_cell_where_it_was() {
        for layout in [Layout::classic(), Layout::samurai()] {
            let loc = located(layout.clone());
            for turns in 1..4u8 {
                let map = cell_map(&layout, turns).expect("symmetric layout");
                let t = turn_located(&loc, turns);
                for (cell, &src) in map.iter().enumerate() {
                    // The same quad, its corners starting from the puzzle's
                    // top-left.
                    let new = t.cell_quad(cell);
                    let old = loc.cell_quad(src);
                    for i in 0..4 {
                        assert!(
                            close(new[i], old[(i + turns as usize) % 4]),
                            "{} turn {turns} cell {cell}: {new:?} vs {old:?}",
                            layout.name()
                        );
                    }
                    // And between the lines where they lie beside it.
                    let new = edge_quad(&t, cell);
                    let old = edge_quad(&loc, src);
                    for i in 0..4 {
                        assert!(
                            close(new[i], old[(i + turns as usize) % 4]),
                            "{} turn {turns} cell {cell} edges: {new:?} vs {old:?}",
                            layout.name()
                        );
                    }
                }
                let (w, h) = (layout.width() as f32, layout.height() as f32);
                let canvas = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
                // The corners are the homography's (the outer lines' single
                // places are the canvas's edges here; beside each cell they
                // bend, and `canvas_to_image` follows them).
                for (corner, c) in t.corners.iter().zip(canvas) {
                    let (x, y) = t.homography.map(c[0] as f64, c[1] as f64);
                    assert!(close(*corner, [x as f32, y as f32]));
                }
            }
        }
    }

    #[test]
    fn turned_crops_match_crops_sampled_through_the_turned_grid() {
        let img = GrayImage::from_fn(640, 640, |x, y| {
            image::Luma([((x * 7 + y * 13) % 251) as u8])
        });
        let loc = located(Layout::classic());
        let crops = cell_crops(&img, &loc, CELL_CROP_SIZE);
        for turns in 1..4u8 {
            let map = cell_map(&loc.layout, turns).unwrap();
            let direct = cell_crops(&img, &turn_located(&loc, turns), CELL_CROP_SIZE);
            for (cell, &src) in map.iter().enumerate() {
                let turned = turn_crop(&crops[src], turns);
                let diff = turned
                    .pixels()
                    .zip(direct[cell].pixels())
                    .map(|(a, b)| a[0].abs_diff(b[0]) as u32)
                    .max()
                    .unwrap();
                assert!(diff <= 2, "turn {turns} cell {cell}: differs by {diff}");
            }
        }
    }

    #[test]
    fn a_jigsaw_is_not_turned() {
        // The 3x3 boxes with one cell traded at a corner: no turn maps the
        // regions onto themselves.
        let regions: Vec<usize> = [
            "111122333",
            "111222333",
            "112222333",
            "444555666",
            "444555666",
            "444555666",
            "777888999",
            "777888999",
            "777888999",
        ]
        .concat()
        .bytes()
        .map(|b| (b - b'1') as usize)
        .collect();
        let jigsaw = Layout::jigsaw(9, &regions).unwrap();
        assert!(cell_map(&jigsaw, 0).is_some());
        for turns in 1..4 {
            assert!(cell_map(&jigsaw, turns).is_none(), "turn {turns}");
            assert!(cell_map(&Layout::classic(), turns).is_some());
            assert!(cell_map(&Layout::samurai(), turns).is_some());
        }
        let twodoku = Layout::named("twodoku").unwrap();
        assert!(cell_map(&twodoku, 1).is_none());
        assert!(cell_map(&twodoku, 2).is_some());
    }
}
