//! The inner edges between neighbouring cells, measured and classified: a
//! killer's cage outlines are dashed or dotted lines drawn a little inside
//! each cage, so an edge between two cages has such a line parallel to it on
//! both sides, and an edge inside a cage has blank paper there.
//!
//! Every edge is sampled through the located grid (homography and refined
//! grid lines), so the measure is the same on a screenshot and on a photo in
//! perspective. Which edges are boundaries is decided against the page's
//! own edges (a two-class split of their scores), not a fixed darkness.

use image::GrayImage;

use crate::vision::locate::Located;
use crate::vision::page::num::{bilinear_within, median_of};

/// Farthest offset sampled each side of the grid line, in cells: cage
/// outlines are drawn 0.04-0.15 of a cell inside the cage; a centred digit
/// starts about 0.2 in.
pub const FAR_OFFSET: f32 = 0.2;
/// Offsets sampled each side, from the grid line out: fine enough to see
/// the paper between a grid line and an outline 2 pixels apart on cells of
/// up to 150 pixels.
const OFFSETS: usize = 40;
/// The stretch of the edge sampled, in cells from the top (left) corner:
/// the cage sum sits in the top-left corner of a cell and the perpendicular
/// outlines of a cage run near the ends.
pub const ALONG: (f32, f32) = (0.36, 0.82);
/// Samples along that stretch.
const ALONG_SAMPLES: usize = 24;
/// Share of a patch's samples darker than its paper: the paper is the grey
/// level this far from the bright end.
const PAPER_PERCENTILE: f32 = 0.85;
/// Least mean darkness (share of the paper's grey level) of the boundary
/// edges for the page to have cage outlines at all: a dashed line half ink
/// gives 0.2-0.4, a classic's blank paper next to its lines under 0.03.
/// The same floor is asked of the edges' dashes ([`alternation`]) before
/// they count ([`combine`]).
pub const MIN_OUTLINE: f32 = 0.07;
/// The boundary edges' mean score must be this many times the inside
/// edges' mean: outlines stand out from what lies inside cages.
pub const MIN_SEPARATION: f32 = 3.0;
/// A killer has at least this many boundary edges of its 144 (a cage holds
/// at most 9 cells, so 81 cells need at least 9 cages).
pub const MIN_BOUNDARY_SHARE: f32 = 0.2;

/// Samples along each outer side in the quick test
/// ([`may_have_outlines`]): a dashed line shows in a few.
const QUICK_ALONG: usize = 8;
/// Least median inward score of the outer sides for the page to be
/// measured in full: every cage outline runs along the grid's outer line,
/// so a killer's outer sides all show one (medians 0.29-0.64 on the killer
/// screenshots), while a classic's show paper or the odd digit (medians
/// 0.001-0.066 on the classic photos); about halfway between, in ratio.
pub const QUICK_MIN_OUTLINE: f32 = 0.14;
/// Samples along each outer side for its dashes ([`outer_alternations`]):
/// several to each dash and gap of the outlines of the killer screenshots
/// (a dash and its gap take 0.05-0.1 of a cell; the stretch is 0.46).
const QUICK_DASH_ALONG: usize = 32;
/// Every this many outer sides is sampled for dashes: every outer side of
/// a killer shows its outline, so half of them stand for all, at half the
/// cost of sampling four times as densely along them as [`QUICK_ALONG`].
const QUICK_DASH_SIDE_STEP: usize = 2;
/// Least median alternation of the outer sides for the page to be measured
/// in full when their [`rise`] falls short: a dashed or dotted outline
/// alternates ink and paper along the side even where it runs too close to
/// a thick frame to stand apart from it. The killer screenshots give
/// medians 0.137-0.27 as they are and 0.081 and up scaled to three quarters
/// (where one app's outlines merge with its frame), the classic and jigsaw
/// photos 0.002-0.052 (noise, grain, the odd digit); about halfway between,
/// in ratio.
pub const QUICK_MIN_ALTERNATION: f32 = 0.065;

/// One inner edge between two neighbouring cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edge {
    /// The cell above or to the left.
    pub a: usize,
    /// The cell below or to the right.
    pub b: usize,
    /// Whether the edge runs vertically (between a cell and the one to its
    /// right).
    pub vertical: bool,
    /// How strongly both sides show an outline parallel to the edge: the
    /// lesser side's [`Cues`], scaled and combined over the page
    /// ([`combine`]); with no cue counting, the lesser side's rise of
    /// darkness above the paper between it and the grid line, as a share
    /// of the paper's grey.
    pub score: f32,
    /// Classified as a boundary between two cages.
    pub boundary: bool,
    /// How sure the classification is, 0..=1 (0 at the page's threshold).
    pub confidence: f32,
}

/// The inner edges of a located grid, classified.
#[derive(Clone, Debug)]
pub struct Borders {
    /// Every inner edge, in cell order of `a`, the vertical edge first.
    pub edges: Vec<Edge>,
    /// The score separating boundaries from edges inside a cage.
    pub threshold: f32,
    /// Whether the page shows cage outlines at all (see [`MIN_OUTLINE`],
    /// [`MIN_SEPARATION`], [`MIN_BOUNDARY_SHARE`]).
    pub outlined: bool,
    /// Whether the edges were sampled with evenly spaced grid lines
    /// ([`even_lines`]) rather than the refined ones.
    pub even: bool,
}

impl Borders {
    /// The image point of a canvas point, through the grid lines these
    /// borders were measured with.
    pub fn point(&self, located: &Located, u: f32, v: f32) -> [f32; 2] {
        if self.even {
            even_lines(located, u, v)
        } else {
            located.canvas_to_image(u, v)
        }
    }
}

/// The image point of a canvas point through the homography alone, with
/// the grid lines evenly spaced: the refined grid lines of a killer can lie
/// on a cage outline (darker than the thin grid lines of many apps) rather
/// than on the grid line beside it.
pub fn even_lines(located: &Located, u: f32, v: f32) -> [f32; 2] {
    let (x, y) = located.homography.map(u as f64, v as f64);
    [x as f32, y as f32]
}

/// Samples the darkness beside one grid line on one side: `OFFSETS` rows
/// from the line out to [`FAR_OFFSET`] (`dir` -1 towards lower canvas
/// coordinates, +1 towards higher), each `along` samples over the stretch
/// [`ALONG`] of the edge starting at `start`; `patch` is row-major.
#[allow(clippy::too_many_arguments)]
fn sample_side(
    grey: &GrayImage,
    at: &dyn Fn(f32, f32) -> [f32; 2],
    vertical: bool,
    line: f32,
    start: f32,
    dir: f32,
    along: usize,
    patch: &mut [f32],
) {
    for (i, row) in patch.chunks_exact_mut(along).enumerate() {
        let across = line + dir * FAR_OFFSET * i as f32 / (OFFSETS - 1) as f32;
        for (j, v) in row.iter_mut().enumerate() {
            let t = ALONG.0 + (ALONG.1 - ALONG.0) * (j as f32 + 0.5) / along as f32;
            let p = if vertical {
                at(across, start + t)
            } else {
                at(start + t, across)
            };
            *v = bilinear_within(grey, p[0], p[1]).unwrap_or(255.0);
        }
    }
}

/// The paper's grey level among `values` ([`PAPER_PERCENTILE`]); reorders
/// them.
fn paper_level(values: &mut [f32]) -> f32 {
    let k = ((values.len() - 1) as f32 * PAPER_PERCENTILE) as usize;
    let (_, paper, _) = values.select_nth_unstable_by(k, f32::total_cmp);
    paper.max(1.0)
}

/// How far the mean darkness of one side's rows (from the grid line out)
/// rises above the lightest row nearer the grid line, as a share of the
/// paper's grey: a line standing apart from the grid line, not the grid
/// line's own edge, however thick.
fn rise(patch: &[f32], along: usize, paper: f32) -> f32 {
    let mut lightest = f32::INFINITY;
    let mut rise = 0f32;
    for row in patch.chunks_exact(along) {
        let dark: f32 =
            row.iter().map(|&v| (paper - v).max(0.0)).sum::<f32>() / (along as f32 * paper);
        lightest = lightest.min(dark);
        rise = rise.max(dark - lightest);
    }
    rise
}

/// How much the grey level alternates along the side, at the offset where
/// it alternates most: the mean step between neighbouring samples of a row,
/// as a share of the paper's grey. Dashes and dots of an outline alternate
/// ink and paper; a solid line, blank paper and the odd stroke of a digit
/// hardly do.
fn alternation(patch: &[f32], along: usize, paper: f32) -> f32 {
    let mut most = 0f32;
    for row in patch.chunks_exact(along) {
        let steps: f32 = row.windows(2).map(|w| (w[1] - w[0]).abs()).sum();
        most = most.max(steps / ((along - 1) as f32 * paper));
    }
    most
}

/// Both cues' scores of one edge: for each side, the mean darkness along
/// the stretch at each offset from the grid line out, and the most it rises
/// above the lightest offset nearer the grid line ([`rise`]); and the most
/// it alternates along the stretch ([`alternation`]); each the lesser of the
/// two sides'. `line` is the canvas coordinate of the grid line, `start`
/// that of the edge's first corner along it.
fn edge_cues(
    grey: &GrayImage,
    located: &Located,
    even: bool,
    vertical: bool,
    line: f32,
    start: f32,
) -> Cues {
    let at = |u: f32, v: f32| {
        if even {
            even_lines(located, u, v)
        } else {
            located.canvas_to_image(u, v)
        }
    };
    const SIDE: usize = OFFSETS * ALONG_SAMPLES;
    let mut patch = [0f32; 2 * SIDE];
    let (before, after) = patch.split_at_mut(SIDE);
    sample_side(
        grey,
        &at,
        vertical,
        line,
        start,
        -1.0,
        ALONG_SAMPLES,
        before,
    );
    sample_side(grey, &at, vertical, line, start, 1.0, ALONG_SAMPLES, after);
    let mut values = patch;
    let paper = paper_level(&mut values);
    let (before, after) = patch.split_at(SIDE);
    let lesser = |score: fn(&[f32], usize, f32) -> f32| {
        score(before, ALONG_SAMPLES, paper).min(score(after, ALONG_SAMPLES, paper))
    };
    Cues {
        apart: lesser(rise),
        dashes: lesser(alternation),
    }
}

/// The two cues that show a cage outline beside a grid line.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cues {
    /// A line standing apart from the grid line, paper between them
    /// ([`rise`]).
    pub apart: f32,
    /// Dashes or dots alternating along the grid line ([`alternation`]),
    /// which show even where the outline touches a thick grid line (a
    /// small screenshot) and no paper is left between them.
    pub dashes: f32,
}

/// The outer sides of the grid's cells (sides with no neighbouring cell),
/// as `(vertical, line, start, dir)` for [`sample_side`], `dir` pointing
/// into the cell.
fn outer_sides(located: &Located) -> impl Iterator<Item = (bool, f32, f32, f32)> + '_ {
    let layout = &located.layout;
    (0..layout.cell_count()).flat_map(move |cell| {
        let (r, c) = layout.position(cell);
        let (rf, cf) = (r as f32, c as f32);
        [
            (
                c == 0 || layout.cell_at(r, c - 1).is_none(),
                (true, cf, rf, 1.0),
            ),
            (
                layout.cell_at(r, c + 1).is_none(),
                (true, cf + 1.0, rf, -1.0),
            ),
            (
                r == 0 || layout.cell_at(r - 1, c).is_none(),
                (false, rf, cf, 1.0),
            ),
            (
                layout.cell_at(r + 1, c).is_none(),
                (false, rf + 1.0, cf, -1.0),
            ),
        ]
        .into_iter()
        .filter_map(|(outer, side)| outer.then_some(side))
    })
}

/// Every `step`th outer side of the grid's cells sampled inwards through
/// the refined grid lines (`along` samples at each offset), scored by
/// `score` from the patch, its samples per row and its paper's grey.
fn outer_side_scores(
    grey: &GrayImage,
    located: &Located,
    along: usize,
    step: usize,
    score: fn(&[f32], usize, f32) -> f32,
) -> Vec<f32> {
    let at = |u: f32, v: f32| located.canvas_to_image(u, v);
    let mut patch = vec![0f32; OFFSETS * along];
    let mut values = patch.clone();
    outer_sides(located)
        .step_by(step)
        .map(|(vertical, line, start, dir)| {
            sample_side(grey, &at, vertical, line, start, dir, along, &mut patch);
            values.copy_from_slice(&patch);
            let paper = paper_level(&mut values);
            score(&patch, along, paper)
        })
        .collect()
}

/// The inward score of every outer side of the grid's cells: the [`rise`]
/// of darkness inside the cell along it, through the refined grid lines.
pub fn outer_scores(grey: &GrayImage, located: &Located) -> Vec<f32> {
    outer_side_scores(grey, located, QUICK_ALONG, 1, rise)
}

/// The [`alternation`] along every second outer side of the grid's cells
/// ([`QUICK_DASH_SIDE_STEP`]), inside the cell, through the refined grid
/// lines.
pub fn outer_alternations(grey: &GrayImage, located: &Located) -> Vec<f32> {
    outer_side_scores(
        grey,
        located,
        QUICK_DASH_ALONG,
        QUICK_DASH_SIDE_STEP,
        alternation,
    )
}

/// Whether the page may show cage outlines, from the outer sides alone: a
/// few percent of the work of [`measure`], so that a classic pays little
/// for the killer reader. Every cage outline runs along the grid's outer
/// line, so the outer sides show a line standing apart from it
/// ([`outer_scores`], [`QUICK_MIN_OUTLINE`]) or, where the outline runs too
/// close to a thick frame for paper to show between them (a small
/// screenshot), dashes alternating along them ([`outer_alternations`],
/// [`QUICK_MIN_ALTERNATION`]).
pub fn may_have_outlines(grey: &GrayImage, located: &Located) -> bool {
    median_of(&mut outer_scores(grey, located)).is_some_and(|m| m >= QUICK_MIN_OUTLINE)
        || median_of(&mut outer_alternations(grey, located))
            .is_some_and(|m| m >= QUICK_MIN_ALTERNATION)
}

/// Measures and classifies every inner edge of the located grid in `grey`
/// (the image it was located in), through the refined grid lines and
/// through evenly spaced ones, each edge's cues the better of the two:
/// refined lines follow an unevenly drawn grid, but can lie on a cage
/// outline darker than the grid line beside it; an edge inside a cage has
/// no line parallel to it either way. The edges are classified by their
/// cues together ([`combine`]).
pub fn measure(grey: &GrayImage, located: &Located) -> Borders {
    let (refined, even) = rayon::join(
        || measure_with(grey, located, false),
        || measure_with(grey, located, true),
    );
    let cues: Vec<Cues> = refined
        .iter()
        .zip(&even)
        .map(|((_, r), (_, e))| Cues {
            apart: r.apart.max(e.apart),
            dashes: r.dashes.max(e.dashes),
        })
        .collect();
    let edges = refined
        .into_iter()
        .zip(combine(&cues))
        .map(|((edge, _), score)| Edge { score, ..edge })
        .collect();
    classify(edges)
}

/// Every inner edge (scored 0, unclassified) with its [`Cues`], through one
/// choice of grid lines.
pub fn measure_with(grey: &GrayImage, located: &Located, even: bool) -> Vec<(Edge, Cues)> {
    let layout = &located.layout;
    let mut edges = Vec::new();
    let edge = |a, b, vertical| Edge {
        a,
        b,
        vertical,
        score: 0.0,
        boundary: false,
        confidence: 0.0,
    };
    for a in 0..layout.cell_count() {
        let (r, c) = layout.position(a);
        if let Some(b) = layout.cell_at(r, c + 1) {
            let cues = edge_cues(grey, located, even, true, (c + 1) as f32, r as f32);
            edges.push((edge(a, b, true), cues));
        }
        if let Some(b) = layout.cell_at(r + 1, c) {
            let cues = edge_cues(grey, located, even, false, (r + 1) as f32, c as f32);
            edges.push((edge(a, b, false), cues));
        }
    }
    edges
}

/// Each edge's score from its two cues. A cue counts when the page's edges
/// split by it alone show outlines (see [`classify`]); the scores of each
/// cue that counts are scaled by the mean of its boundary group, so that
/// the two are alike (a page's outlines may stand apart from its thin
/// lines and touch its thick ones), and an edge takes the greater. With no
/// cue counting, the scores are those of a line standing apart.
pub fn combine(cues: &[Cues]) -> Vec<f32> {
    let apart: Vec<f32> = cues.iter().map(|c| c.apart).collect();
    let dashes: Vec<f32> = cues.iter().map(|c| c.dashes).collect();
    let scale = |scores: &[f32]| {
        let split = Split::of(scores)?;
        split.outlined(scores.len()).then_some(split.high_mean)
    };
    match (scale(&apart), scale(&dashes)) {
        (None, None) => apart,
        (a, d) => {
            let share = |score: f32, mean: Option<f32>| mean.map_or(0.0, |m| score / m.max(1e-6));
            cues.iter()
                .map(|c| share(c.apart, a).max(share(c.dashes, d)))
                .collect()
        }
    }
}

/// The two-class split of a page's edge scores (Otsu's criterion).
#[derive(Clone, Copy, Debug)]
struct Split {
    /// Between the highest score of the low group and the lowest of the
    /// high one.
    threshold: f32,
    low_mean: f32,
    high_mean: f32,
    /// How many scores are in the high group.
    high: usize,
}

impl Split {
    /// The split that best separates `scores` in two groups; `None` for
    /// fewer than two.
    fn of(scores: &[f32]) -> Option<Split> {
        let mut scores = scores.to_vec();
        scores.sort_unstable_by(f32::total_cmp);
        let n = scores.len();
        if n < 2 {
            return None;
        }
        let total: f32 = scores.iter().sum();
        let (mut best, mut split) = (f32::NEG_INFINITY, 1);
        let mut low = 0.0;
        for k in 1..n {
            low += scores[k - 1];
            let (nl, nh) = (k as f32, (n - k) as f32);
            let (ml, mh) = (low / nl, (total - low) / nh);
            let between = nl * nh * (mh - ml) * (mh - ml);
            if between > best {
                best = between;
                split = k;
            }
        }
        Some(Split {
            threshold: (scores[split - 1] + scores[split]) / 2.0,
            low_mean: scores[..split].iter().sum::<f32>() / split as f32,
            high_mean: scores[split..].iter().sum::<f32>() / (n - split) as f32,
            high: n - split,
        })
    }

    /// Whether the high group of `n` scores is outlines: dark enough
    /// ([`MIN_OUTLINE`]), well apart from the low group
    /// ([`MIN_SEPARATION`]), and enough of the edges
    /// ([`MIN_BOUNDARY_SHARE`]).
    fn outlined(&self, n: usize) -> bool {
        self.high_mean >= MIN_OUTLINE
            && self.high_mean >= MIN_SEPARATION * self.low_mean
            && self.high as f32 >= MIN_BOUNDARY_SHARE * n as f32
    }
}

/// Splits edges into boundaries and insides by their scores (the split
/// that best separates the two groups, Otsu's criterion), with each edge's
/// confidence its distance from the split over half the gap between the
/// groups' means.
pub fn classify(mut edges: Vec<Edge>) -> Borders {
    let scores: Vec<f32> = edges.iter().map(|e| e.score).collect();
    let Some(split) = Split::of(&scores) else {
        return Borders {
            edges,
            threshold: f32::INFINITY,
            outlined: false,
            even: false,
        };
    };
    let half_gap = ((split.high_mean - split.low_mean) / 2.0).max(1e-6);
    for e in &mut edges {
        e.boundary = e.score > split.threshold;
        e.confidence = ((e.score - split.threshold).abs() / half_gap).min(1.0);
    }
    Borders {
        outlined: split.outlined(scores.len()),
        edges,
        threshold: split.threshold,
        even: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Layout;
    use crate::vision::locate::located_at_corners;
    use image::Luma;

    /// A 9x9 grid of `cell` px cells with thin lines, and dashed outlines
    /// inset in the given cages (cell -> cage id).
    fn draw(cell: u32, cage_of: &[usize]) -> GrayImage {
        let side = cell * 9 + 1;
        let mut img = GrayImage::from_pixel(side, side, Luma([255]));
        for i in 0..=9 {
            for t in 0..side {
                img.put_pixel(i * cell, t, Luma([40]));
                img.put_pixel(t, i * cell, Luma([40]));
            }
        }
        let inset = cell / 10;
        for cellidx in 0..81 {
            let (r, c) = (cellidx / 9, cellidx % 9);
            let (x0, y0) = (c as u32 * cell, r as u32 * cell);
            let same = |dr: i32, dc: i32| {
                let (rr, cc) = (r as i32 + dr, c as i32 + dc);
                (0..9).contains(&rr)
                    && (0..9).contains(&cc)
                    && cage_of[(rr * 9 + cc) as usize] == cage_of[cellidx]
            };
            for t in 0..cell {
                if (t / 3) % 2 == 1 {
                    continue;
                }
                if !same(0, -1) {
                    img.put_pixel(x0 + inset, y0 + t, Luma([60]));
                }
                if !same(0, 1) {
                    img.put_pixel(x0 + cell - inset, y0 + t, Luma([60]));
                }
                if !same(-1, 0) {
                    img.put_pixel(x0 + t, y0 + inset, Luma([60]));
                }
                if !same(1, 0) {
                    img.put_pixel(x0 + t, y0 + cell - inset, Luma([60]));
                }
            }
        }
        img
    }

    fn located(cell: u32) -> Located {
        let s = (cell * 9) as f32;
        located_at_corners([[0.0, 0.0], [s, 0.0], [s, s], [0.0, s]], &Layout::classic()).unwrap()
    }

    #[test]
    fn dashed_outlines_mark_the_cage_boundaries() {
        // Dominoes along each row (the last column alone).
        let cage_of: Vec<usize> = (0..81).map(|i| (i / 9) * 5 + (i % 9) / 2).collect();
        let grey = draw(40, &cage_of);
        assert!(may_have_outlines(&grey, &located(40)));
        let borders = measure(&grey, &located(40));
        assert!(borders.outlined);
        assert_eq!(borders.edges.len(), 144);
        for e in &borders.edges {
            assert_eq!(e.boundary, cage_of[e.a] != cage_of[e.b], "{e:?}");
        }
    }

    /// [`draw`], with the grid `lines` (0 and 9 the frame) drawn thick
    /// enough to touch the outlines beside them (no paper between them), as
    /// in a small screenshot.
    fn draw_touching(cell: u32, cage_of: &[usize], lines: &[u32]) -> GrayImage {
        let mut img = draw(cell, cage_of);
        let (side, reach) = (img.width(), cell / 10 - 1);
        for t in 0..side {
            for &i in lines {
                for d in 0..=2 * reach {
                    let Some(at) = (i * cell + d).checked_sub(reach).filter(|&a| a < side) else {
                        continue;
                    };
                    for (x, y) in [(at, t), (t, at)] {
                        if img.get_pixel(x, y).0[0] == 255 {
                            img.put_pixel(x, y, Luma([40]));
                        }
                    }
                }
            }
        }
        img
    }

    /// Every line of a 9x9 grid.
    const ALL_LINES: [u32; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

    /// Whether each edge is classified as `cage_of` has it.
    fn all_right(borders: &Borders, cage_of: &[usize]) -> bool {
        borders
            .edges
            .iter()
            .all(|e| e.boundary == (cage_of[e.a] != cage_of[e.b]))
    }

    /// The edges classified by the line standing apart alone.
    fn apart_alone(grey: &GrayImage, located: &Located) -> Borders {
        classify(
            measure_with(grey, located, false)
                .into_iter()
                .map(|(e, cues)| Edge {
                    score: cues.apart,
                    ..e
                })
                .collect(),
        )
    }

    /// Dominoes along each row (the last column alone), drawn with the grid
    /// `lines` touching the outlines beside them: asserts that the page may
    /// have outlines and every edge is classified right, which the line
    /// standing apart alone does not do; returns the outer sides' median
    /// rise.
    fn dominoes_touching(lines: &[u32]) -> f32 {
        let cage_of: Vec<usize> = (0..81).map(|i| (i / 9) * 5 + (i % 9) / 2).collect();
        let grey = draw_touching(40, &cage_of, lines);
        assert!(may_have_outlines(&grey, &located(40)));
        let borders = measure(&grey, &located(40));
        assert!(borders.outlined);
        assert!(all_right(&borders, &cage_of));
        assert!(!all_right(&apart_alone(&grey, &located(40)), &cage_of));
        median_of(&mut outer_scores(&grey, &located(40))).unwrap()
    }

    #[test]
    fn dashes_against_thick_lines_still_show() {
        // No line stands apart from the frame, but its dashes alternate
        // along it, and along every boundary.
        assert!(dominoes_touching(&ALL_LINES) < QUICK_MIN_OUTLINE);
    }

    #[test]
    fn outlines_apart_from_thin_lines_and_touching_thick_ones_all_show() {
        // The outlines stand apart from the frame and the thin lines and
        // touch the inner box lines: each cue alone sees part of them.
        assert!(dominoes_touching(&[3, 6]) >= QUICK_MIN_OUTLINE);
    }

    #[test]
    fn thick_lines_without_outlines_are_no_killer() {
        let cage_of: Vec<usize> = (0..81).map(|_| 0).collect();
        let mut grey = draw_touching(40, &cage_of, &ALL_LINES);
        for p in grey.pixels_mut() {
            if p.0[0] == 60 {
                p.0[0] = 255;
            }
        }
        let mut dashes = outer_alternations(&grey, &located(40));
        assert!(median_of(&mut dashes).unwrap() < 0.01, "{dashes:?}");
        assert!(!may_have_outlines(&grey, &located(40)));
        assert!(!measure(&grey, &located(40)).outlined);
    }

    #[test]
    fn a_plain_grid_has_no_outlines() {
        let cage_of: Vec<usize> = (0..81).map(|_| 0).collect();
        let mut grey = draw(40, &cage_of);
        // No outer outline either: repaint the grid without any cage.
        for p in grey.pixels_mut() {
            if p.0[0] == 60 {
                p.0[0] = 255;
            }
        }
        let borders = measure(&grey, &located(40));
        assert!(!borders.outlined);
        let outer = outer_scores(&grey, &located(40));
        assert_eq!(outer.len(), 36);
        assert!(!may_have_outlines(&grey, &located(40)), "{outer:?}");
    }
}
