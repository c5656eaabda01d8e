//! The variant rules a page draws on and around its grid, read into
//! [`Rule`]s: diagonals ([`diagonals`]) and the marks on the edges between
//! two cells, kropki dots and X and V ([`edges`]).
//!
//! Every mark is measured as darkness in the page's own terms: 0 where the
//! paper is, 1 where the grid lines' ink is ([`Levels`]), so a dark theme
//! (light lines on a dark page) reads as a light one.

pub mod diagonals;
pub mod edges;

use image::GrayImage;

use super::super::locate::Located;
use super::super::page::num::{bilinear_within, median_of};
use crate::grid::Rule;

/// Where a cell's paper is sampled, in cell units from its top-left
/// corner: the four points a quarter in from its corners, clear of a
/// centred digit and of the marks drawn on its edges' midpoints.
const PAPER_POINTS: [(f32, f32); 4] = [(0.2, 0.2), (0.8, 0.2), (0.2, 0.8), (0.8, 0.8)];

/// How far on each side of a grid line its ink is looked for, in cells:
/// the darkest of these samples across the line is its ink (a thin line
/// falls between pixels and a refined line's place is a pixel off).
const LINE_SEARCH: [f32; 5] = [-0.03, -0.015, 0.0, 0.015, 0.03];

/// Where along each inner edge its grid line is sampled for the ink, in
/// cells from the edge's start: away from the midpoint, where the edge
/// marks are.
const LINE_POINTS: [f32; 2] = [0.2, 0.8];

/// Which of the inner lines' samples is the page's ink, counted from the
/// one farthest from the paper: the fifth. A grid's box lines are heavier
/// than its other lines (two of the eight inner lines each way of a
/// classic), and the marks are drawn in the digits' ink, as dark as they
/// are; the thin lines are often a light grey.
const INK_QUANTILE: f32 = 0.8;

/// Least gap between the paper's grey and the lines' for marks to be
/// read at all: a page this flat has no lines a mark could be told from.
const MIN_LEVEL_GAP: f32 = 40.0;

/// What the page's paper and ink look like, in grey levels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Levels {
    /// The median grey of the cells' paper.
    pub paper: f32,
    /// The grey of the heavier inner grid lines ([`INK_QUANTILE`]).
    pub ink: f32,
}

impl Levels {
    /// The page's levels: `None` when paper and lines are too close
    /// ([`MIN_LEVEL_GAP`]) or the grid has no inner edge.
    pub fn measure(grey: &GrayImage, located: &Located) -> Option<Levels> {
        let layout = &located.layout;
        let mut paper = Vec::with_capacity(layout.cell_count() * PAPER_POINTS.len());
        let mut ink = Vec::new();
        for cell in 0..layout.cell_count() {
            let (r, c) = layout.position(cell);
            let (x, y) = (c as f32, r as f32);
            paper.extend(
                PAPER_POINTS
                    .iter()
                    .filter_map(|&(u, v)| sample(grey, located, x + u, y + v)),
            );
            // The line on the cell's right and the one below it.
            for (right, (dx, dy)) in [(true, (1.0, 0.0)), (false, (0.0, 1.0))] {
                let (nr, nc) = (r + dy as usize, c + dx as usize);
                if layout.cell_at(nr, nc).is_none() {
                    continue;
                }
                for &t in &LINE_POINTS {
                    // The ink is whichever end of the samples across the
                    // line lies farthest from the paper: decided below,
                    // once the paper is known, so both ends are kept.
                    let (lo, hi) = LINE_SEARCH
                        .iter()
                        .filter_map(|&o| {
                            let (u, v) = if right {
                                (x + 1.0 + o, y + t)
                            } else {
                                (x + t, y + 1.0 + o)
                            };
                            sample(grey, located, u, v)
                        })
                        .fold((f32::MAX, f32::MIN), |(lo, hi), g| (lo.min(g), hi.max(g)));
                    if lo <= hi {
                        ink.push((lo, hi));
                    }
                }
            }
        }
        let paper = median_of(&mut paper)?;
        let mut ink: Vec<f32> = ink
            .into_iter()
            .map(|(lo, hi)| {
                if (paper - lo).abs() >= (hi - paper).abs() {
                    lo
                } else {
                    hi
                }
            })
            .collect();
        if ink.is_empty() {
            return None;
        }
        // Farthest from the paper first: the heavier lines' ink.
        ink.sort_by(|a, b| (paper - b).abs().total_cmp(&(paper - a).abs()));
        let ink = ink[((ink.len() - 1) as f32 * (1.0 - INK_QUANTILE)) as usize];
        ((paper - ink).abs() >= MIN_LEVEL_GAP).then_some(Levels { paper, ink })
    }

    /// A grey level as darkness: 0 at the paper, 1 at the ink, beyond
    /// either when darker than the ink or lighter than the paper.
    pub fn darkness(&self, grey: f32) -> f32 {
        (self.paper - grey) / (self.paper - self.ink)
    }
}

/// The grey level at canvas point `(u, v)` (cell units: u the column),
/// through the located grid's lines; `None` outside the image.
pub fn sample(grey: &GrayImage, located: &Located, u: f32, v: f32) -> Option<f32> {
    let [x, y] = located.canvas_to_image(u, v);
    bilinear_within(grey, x, y)
}

/// The rules a page draws, as read, and how sure each is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RulesReading {
    /// The rules read, diagonals first, then the edge marks in cell order.
    pub rules: Vec<Rule>,
    /// How sure each rule is, 0..=1, in the order of `rules`: 0 at the
    /// threshold its mark was taken at.
    pub confidence: Vec<f32>,
}

impl RulesReading {
    /// The indices of the rules read least surely, least sure first: what
    /// a check that finds no single solution tries without first.
    pub fn least_sure(&self, count: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.rules.len()).collect();
        order.sort_by(|&a, &b| self.confidence[a].total_cmp(&self.confidence[b]));
        order.truncate(count);
        order
    }

    /// The same reading without its rule `i`.
    pub fn without(&self, i: usize) -> RulesReading {
        let mut out = self.clone();
        out.rules.remove(i);
        out.confidence.remove(i);
        out
    }
}

/// Reads the rules drawn in and on a located grid: its diagonals (on a
/// single square grid) and the marks on its inner edges.
pub fn read_rules(grey: &GrayImage, located: &Located) -> RulesReading {
    let Some(levels) = Levels::measure(grey, located) else {
        return RulesReading::default();
    };
    let mut out = RulesReading::default();
    for (rule, confidence) in diagonals::read(grey, located, levels)
        .into_iter()
        .chain(edges::read(grey, located, levels))
    {
        out.rules.push(rule);
        out.confidence.push(confidence);
    }
    out
}

#[cfg(test)]
mod tests {
    use image::{GrayImage, Luma};

    use super::*;
    use crate::grid::{Diagonal, Layout};
    use crate::vision::locate::located_at_corners;

    /// Pixels a cell, and the grid's place on the page.
    const CELL: u32 = 40;
    const MARGIN: u32 = 20;

    /// A white page with a 9x9 grid: thin grey lines, black box lines.
    fn page() -> GrayImage {
        let side = 9 * CELL + 2 * MARGIN;
        let mut img = GrayImage::from_pixel(side, side, Luma([255]));
        for i in 0..=9 {
            let (half, ink) = if i % 3 == 0 { (2, 0) } else { (0, 170) };
            let at = MARGIN + i * CELL;
            for p in MARGIN - 2..=MARGIN + 9 * CELL + 2 {
                for d in at - half..=at + half {
                    img.put_pixel(d, p, Luma([ink]));
                    img.put_pixel(p, d, Luma([ink]));
                }
            }
        }
        img
    }

    fn located() -> Located {
        let (a, b) = (MARGIN as f32, (MARGIN + 9 * CELL) as f32);
        located_at_corners([[a, a], [b, a], [b, b], [a, b]], &Layout::classic()).expect("a square")
    }

    /// A disc of `ink` of radius `r` pixels about `(x, y)`.
    fn disc(img: &mut GrayImage, (x, y): (f32, f32), r: f32, ink: u8) {
        for py in 0..img.height() {
            for px in 0..img.width() {
                if (px as f32 - x).hypot(py as f32 - y) <= r {
                    img.put_pixel(px, py, Luma([ink]));
                }
            }
        }
    }

    /// The image point of canvas point (u, v).
    fn at(u: f32, v: f32) -> (f32, f32) {
        (
            MARGIN as f32 + u * CELL as f32,
            MARGIN as f32 + v * CELL as f32,
        )
    }

    #[test]
    fn a_plain_grid_reads_no_rules() {
        let reading = read_rules(&page(), &located());
        assert_eq!(reading, RulesReading::default());
    }

    #[test]
    fn the_ink_is_the_box_lines_not_the_light_thin_ones() {
        let levels = Levels::measure(&page(), &located()).expect("lines on paper");
        assert_eq!(levels.paper, 255.0);
        assert!(levels.ink < 60.0, "{levels:?}");
        assert_eq!(levels.darkness(levels.ink), 1.0);
    }

    #[test]
    fn a_drawn_diagonal_is_read_and_the_other_is_not() {
        let mut img = page();
        // The main diagonal, two pixels wide, mid-grey.
        for t in 0..9 * CELL {
            for d in 0..2 {
                img.put_pixel(
                    MARGIN + t,
                    (MARGIN + t + d).min(MARGIN + 9 * CELL),
                    Luma([140]),
                );
            }
        }
        let reading = read_rules(&img, &located());
        assert_eq!(reading.rules, vec![Rule::Diagonal(Diagonal::Main)]);
        assert!(reading.confidence[0] > 0.0);
    }

    #[test]
    fn filled_and_hollow_dots_are_told_apart_and_a_line_through_an_edge_is_no_dot() {
        let mut img = page();
        let r = 0.14 * CELL as f32;
        // Black between r1c1 and r1c2; white between r5c5 and r6c5.
        disc(&mut img, at(1.0, 0.5), r, 0);
        disc(&mut img, at(4.5, 5.0), r, 0);
        disc(&mut img, at(4.5, 5.0), r - 2.0, 255);
        // A thick grey line through the edge between r8c3 and r8c4, as a
        // renban line crosses it: no dot.
        let (x0, y) = at(2.5, 7.5);
        let (x1, _) = at(3.5, 7.5);
        for x in x0 as u32..=x1 as u32 {
            for dy in 0..8 {
                img.put_pixel(x, y as u32 - 4 + dy, Luma([60]));
            }
        }
        let reading = read_rules(&img, &located());
        assert_eq!(
            reading.rules,
            vec![
                Rule::Ratio {
                    cells: [0, 1],
                    value: 2
                },
                Rule::Difference {
                    cells: [40, 49],
                    value: 1
                },
            ]
        );
        assert_eq!(reading.least_sure(5).len(), 2);
        assert_eq!(reading.without(0).rules.len(), 1);
    }
}
