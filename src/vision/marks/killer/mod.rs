//! Reading a killer: the cages from the grid's inner edges
//! ([`super::borders`]), each cage's sum from the small number in the
//! top-left corner of its first cell, and the whole checked with the solver.
//!
//! Cages are the cells connected across edges that are not boundaries. Each
//! sum is one or two small digits: the corner is rectified, its ink split
//! into components, the components of a digit's height kept, and each
//! compared with the bundled digit model (a 0, which the model does not
//! hold, is told by its one tall hole). Every digit keeps its runner-ups.
//! The reading is then checked as a whole: every cage at most 9 cells, every
//! sum possible for its size, the sums adding up to the layout's total, and
//! exactly one solution with the digits read in the cells; when it falls
//! short, the least certain edges and sums are changed, fewest and most
//! likely changes first, within fixed bounds.
//!
//! The parts: `corner.rs` rectifies the corner a sum is printed in and
//! clears its grid lines, `sums.rs` reads the sum's digits from its ink,
//! `clear.rs` paints the sums and outlines over before the cells are read
//! for handwriting; the cages are grouped from the edges by
//! [`super::groups`], and the whole is checked here.

use std::sync::Arc;

use image::GrayImage;

use super::borders::{Borders, may_have_outlines, measure};
use super::groups::{combos, edge_flips, groups};
use crate::grid::{Cage, Layout, Rule};
use crate::grid::{layout_total, sum_range};
use crate::solve::{Budget, SudokuSolver};
use crate::vision::cells::classify::Model;
use crate::vision::locate::Located;
use crate::vision::verify::{self, CheckOutcome};

mod clear;
mod corner;
mod sums;

pub use clear::{clear_outlines, clear_sums};
pub use corner::sum_corner_image;
pub use sums::read_sum;
use sums::read_sum_boxed;

/// Readings kept per sum.
const SUM_ALTERNATIVES: usize = 6;
/// Least confident edges considered for flipping.
const EDGE_CANDIDATES: usize = 8;
/// Edges flipped at once at most.
const MAX_EDGE_FLIPS: usize = 2;
/// Sums changed at once at most: three misread sums can still add up to
/// the layout's total (their errors cancel), and then only changing all
/// three gives one solution.
const MAX_SUM_CHANGES: usize = 3;
/// Solver calls at most per reading: each is a killer search.
const MAX_SOLVES: usize = 24;

/// A killer read from an image.
#[derive(Clone, Debug)]
pub struct KillerReading {
    /// The cages, each cell once, cells ascending.
    pub cages: Vec<Cage>,
    /// The inner edges as measured (before any change by the check).
    pub borders: Borders,
    /// What the solver made of the reading: `Changed` is not used for
    /// cages; see `changed`.
    pub outcome: CheckOutcome,
    /// How many edges and sums the check changed from the first reading.
    pub changed: usize,
    /// Cages whose sum or cells are unsure (index into `cages`).
    pub uncertain: Vec<usize>,
    /// Where each cage's sum is printed: its anchor cell and the box of the
    /// sum's ink, for the cages whose sum was found.
    pub sum_ink: Vec<(usize, SumBox)>,
}

/// The box of a sum's ink in its cell: left, top, right, bottom, in cells
/// from the cell's top-left corner where its grid lines put it.
pub type SumBox = [f32; 4];

/// One reading of a sum and how much less likely than the best it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SumOption {
    pub sum: u32,
    pub cost: f32,
}

/// Reads the killer in a located grid, if the page has cage outlines;
/// `values` are the digits read in the cells. `None` when the grid shows
/// no cage outlines, or its edges make no cages of at most `size` cells.
/// The variant `rules` read beside the cages hold in the solver's check.
pub fn read_killer(
    grey: &GrayImage,
    located: &Located,
    values: &[u8],
    rules: &[Rule],
) -> Option<KillerReading> {
    let layout = &located.layout;
    if !may_have_outlines(grey, located) {
        return None;
    }
    let total = layout_total(layout)? as u32;
    let borders = measure(grey, located);
    if !borders.outlined {
        return None;
    }
    let size = layout.size();
    let model = Model::load_bundled();
    let mut sums: Vec<Option<(Vec<SumOption>, Option<SumBox>)>> = vec![None; layout.cell_count()];
    let mut sum_at = |cell: usize| -> Vec<SumOption> {
        sums[cell]
            .get_or_insert_with(|| read_sum_boxed(grey, located, &borders, cell, model))
            .0
            .clone()
    };
    let layout_arc = Arc::new(layout.clone());
    let mut solves = 0;
    let mut fallback: Option<(Vec<Cage>, usize)> = None;
    let flips = edge_flips(&borders.edges, EDGE_CANDIDATES, MAX_EDGE_FLIPS);
    for flip in &flips {
        let boundary: Vec<bool> = borders
            .edges
            .iter()
            .enumerate()
            .map(|(i, e)| e.boundary != flip.contains(&i))
            .collect();
        let Some(groups) = groups(layout, &borders.edges, &boundary, size) else {
            continue;
        };
        let options: Vec<Vec<SumOption>> = groups
            .iter()
            .map(|g| {
                let mut o = sum_at(g[0] as usize);
                let (lo, hi) = sum_range(size, g.len());
                o.retain(|s| (lo..=hi).contains(&s.sum));
                o
            })
            .collect();
        if options.iter().any(|o| o.is_empty()) {
            continue;
        }
        for choice in sum_choices(&options, total) {
            let cages: Vec<Cage> = groups
                .iter()
                .zip(&choice)
                .enumerate()
                .map(|(i, (g, &k))| Cage::new(options[i][k].sum, g.clone()))
                .collect();
            let changed = flip.len() + choice.iter().filter(|&&k| k != 0).count();
            if fallback.is_none() {
                fallback = Some((cages.clone(), changed));
            }
            if solves >= MAX_SOLVES {
                break;
            }
            solves += 1;
            if unique(&layout_arc, &cages, rules, values) {
                let uncertain = uncertain_cages(&cages, &borders, &options, &choice);
                let sum_ink = sum_boxes(&cages, &sums);
                return Some(KillerReading {
                    cages,
                    borders,
                    outcome: if changed == 0 {
                        CheckOutcome::Unique
                    } else {
                        CheckOutcome::Changed(Vec::new())
                    },
                    changed,
                    uncertain,
                    sum_ink,
                });
            }
        }
        if solves >= MAX_SOLVES {
            break;
        }
    }
    let (cages, changed) = fallback?;
    let uncertain = (0..cages.len()).collect();
    let sum_ink = sum_boxes(&cages, &sums);
    Some(KillerReading {
        cages,
        borders,
        outcome: CheckOutcome::Unresolved,
        changed,
        uncertain,
        sum_ink,
    })
}

/// The sum boxes of `cages`' anchors, from the sums read (`sums`, per cell).
fn sum_boxes(
    cages: &[Cage],
    sums: &[Option<(Vec<SumOption>, Option<SumBox>)>],
) -> Vec<(usize, SumBox)> {
    cages
        .iter()
        .filter_map(|c| {
            let cell = c.anchor();
            let b = sums.get(cell)?.as_ref()?.1?;
            Some((cell, b))
        })
        .collect()
}

/// Cages whose reading is unsure: a sum changed or with a close
/// runner-up, or an edge of low confidence on their outline.
fn uncertain_cages(
    cages: &[Cage],
    borders: &Borders,
    options: &[Vec<SumOption>],
    choice: &[usize],
) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, cage) in cages.iter().enumerate() {
        let sum_unsure =
            choice[i] != 0 || options[i].get(1).is_some_and(|s| s.cost < EDGE_UNSURE_COST);
        let edge_unsure = borders.edges.iter().any(|e| {
            e.confidence < EDGE_UNSURE
                && (cage.cells.contains(&(e.a as u32)) || cage.cells.contains(&(e.b as u32)))
        });
        if sum_unsure || edge_unsure {
            out.push(i);
        }
    }
    out
}

/// An edge under this confidence makes its cages unsure.
const EDGE_UNSURE: f32 = 0.3;
/// A sum whose runner-up costs under this is unsure.
const EDGE_UNSURE_COST: f32 = 0.05;

/// Whether the killer has exactly one solution with the digits `values`
/// and the variant `rules`.
fn unique(layout: &Arc<Layout>, cages: &[Cage], rules: &[Rule], values: &[u8]) -> bool {
    if layout.first_conflict(values).is_some() {
        return false;
    }
    let Ok(mut solver) = SudokuSolver::with_rules(layout.clone(), cages, rules) else {
        return false;
    };
    // A search that gives up proves nothing (see [`verify::SEARCH_NODES`]).
    solver.set_budget(Budget::nodes(verify::SEARCH_NODES));
    let mut first = vec![0u8; values.len()];
    solver
        .solve_into(values, 2, &mut first)
        .is_ok_and(|n| n == 1)
}

/// Which option of each cage's sum to take, cheapest first, among those
/// whose sums add up to `total`: no change, then one sum changed, then two,
/// up to [`MAX_SUM_CHANGES`], stopping after the number of changes that
/// brings the choices to [`MAX_SOLVES`].
fn sum_choices(options: &[Vec<SumOption>], total: u32) -> Vec<Vec<usize>> {
    let base: u32 = options.iter().map(|o| o[0].sum).sum();
    let mut out: Vec<(f32, Vec<usize>)> = Vec::new();
    if base == total {
        out.push((0.0, vec![0; options.len()]));
    }
    let n = options.len();
    for changes in 1..=MAX_SUM_CHANGES {
        let mut these: Vec<(f32, Vec<usize>)> = Vec::new();
        combos(n, changes, &mut Vec::new(), 0, &mut |cages| {
            // Every choice of a non-best option for each chosen cage.
            let mut pick = vec![1usize; cages.len()];
            loop {
                if pick.iter().zip(cages).all(|(&k, &c)| k < options[c].len()) {
                    let mut sum = base as i64;
                    let mut cost = 0.0;
                    for (&k, &c) in pick.iter().zip(cages) {
                        sum += options[c][k].sum as i64 - options[c][0].sum as i64;
                        cost += options[c][k].cost;
                    }
                    if sum == total as i64 {
                        let mut choice = vec![0; n];
                        for (&k, &c) in pick.iter().zip(cages) {
                            choice[c] = k;
                        }
                        these.push((cost, choice));
                    }
                }
                // Next pick, odometer style.
                let mut i = 0;
                loop {
                    if i == pick.len() {
                        return;
                    }
                    pick[i] += 1;
                    if pick[i] < SUM_ALTERNATIVES {
                        break;
                    }
                    pick[i] = 1;
                    i += 1;
                }
            }
        });
        these.sort_by(|a, b| a.0.total_cmp(&b.0));
        out.extend(these);
        // Enough to fill the solver's budget: more changes are not needed.
        // (Readings that add up but leave several solutions go on to more
        // changes: their wrong sums cancel out.)
        if out.len() >= MAX_SOLVES {
            break;
        }
    }
    out.into_iter().map(|(_, c)| c).collect()
}

#[cfg(test)]
/// A w x h ink map with the given filled rectangles (x0, y0, x1, y1),
/// inclusive.
fn ink_map(w: u32, h: u32, rects: &[(u32, u32, u32, u32)]) -> Vec<bool> {
    let mut ink = vec![false; (w * h) as usize];
    for &(x0, y0, x1, y1) in rects {
        for y in y0..=y1 {
            for x in x0..=x1 {
                ink[(y * w + x) as usize] = true;
            }
        }
    }
    ink
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(readings: &[(u32, f32)]) -> Vec<SumOption> {
        readings
            .iter()
            .map(|&(sum, cost)| SumOption { sum, cost })
            .collect()
    }

    #[test]
    fn sums_that_add_up_as_read_are_still_offered_changed() {
        // Read 10, 16, 5 (adding up to 31); the runner-ups 16 and 10 of the
        // first two swap them and add up too: the puzzle may need that.
        let o = vec![
            options(&[(10, 0.0), (16, 0.1)]),
            options(&[(16, 0.0), (10, 0.2)]),
            options(&[(5, 0.0), (8, 0.1)]),
        ];
        let choices = sum_choices(&o, 31);
        assert_eq!(choices[0], vec![0, 0, 0]);
        assert!(choices.contains(&vec![1, 1, 0]), "{choices:?}");
        // Every choice adds up.
        for c in &choices {
            let total: u32 = c.iter().zip(&o).map(|(&k, o)| o[k].sum).sum();
            assert_eq!(total, 31, "{c:?}");
        }
    }
}
