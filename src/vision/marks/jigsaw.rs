//! Reading a jigsaw: the regions from the grid's inner lines. A jigsaw's
//! region borders are drawn on the grid lines, thicker (or darker) than the
//! lines between cells of one region, as a classic's box lines are; its
//! regions are the cells connected across the thin lines.
//!
//! Every inner edge's line is weighed: across the grid line, the darkness
//! below the paper on either side, summed over the line's width (a line's
//! "ink width", in cells: wider and darker lines weigh more, and blur,
//! which spreads a line without adding ink, changes it little). Thick and
//! thin are split by the page's own weights (a two-class split), and the
//! thick lines must stand out from the thin ones and weigh like the
//! grid's outer frame, which is printed as a border too. A map that is
//! not `size` regions of `size` cells is repaired by flipping the least
//! certain edges, fewest first; regions that are the layout's own boxes
//! are a classic.

use image::GrayImage;

use super::borders::{Edge, classify, may_have_outlines};
use super::groups::{edge_flips, groups};
use crate::grid::Layout;
use crate::vision::locate::Located;
use crate::vision::page::num::bilinear_within;

/// Farthest offset sampled each side of the grid line, in cells: a
/// region border is at most about 0.08 of a cell wide, a digit starts about
/// 0.15 of a cell from the line.
pub const REACH: f32 = 0.14;
/// Offsets sampled each side of the line, out to [`REACH`]: a step of
/// 0.01 of a cell, a pixel on 100-pixel cells.
const OFFSETS: usize = 14;
/// Offsets from this share of [`REACH`] out give the paper's level on
/// their side; nearer ones are the line's: room for a border 0.1 of a cell
/// wide, blurred.
const PAPER_FROM: f32 = 0.55;
/// The stretch of the edge sampled, in cells from its first corner: clear
/// of the crossing lines at its ends, which are thick where a region border
/// turns.
pub const ALONG: (f32, f32) = (0.2, 0.8);
/// Samples along that stretch; each offset's level is their median, so
/// that a digit's stroke or a speck reaching the line on a few of them
/// does not count.
const ALONG_SAMPLES: usize = 12;
/// Samples along each edge in the quick test ([`may_be_jigsaw`]).
const QUICK_ALONG: usize = 6;
/// The quick test passes when at least this share of the inner edges
/// misfit the layout's boxes: edges inside a box heavier than the midpoint
/// between the median weights of the edges inside boxes and on box lines,
/// and edges on box lines lighter than it. A jigsaw's borders differ from
/// the boxes' on many edges (24-81 of 144 on the jigsaw photos, 0.17 and
/// up), a classic's lines fit them but for noise (at most 14 of 144 on the
/// classic photos and killer screenshots, under 0.1); tuned on those sets.
const QUICK_MIN_MISFITS: f32 = 0.125;
/// The thick edges' mean weight must be at least this many times the thin
/// ones': a region border is drawn two to four times as wide as a cell
/// line, and a grid whose lines are all alike gives about 1.2 from noise.
const MIN_SEPARATION: f32 = 1.8;
/// The thick edges' mean weight must be at least this share of the outer
/// frame's: region borders are printed as borders, like the frame.
const MIN_OF_FRAME: f32 = 0.5;
/// Least certain edges considered for flipping when the regions do not
/// come out right.
const EDGE_CANDIDATES: usize = 12;
/// Edges flipped at once at most: 12 candidates give 298 maps to try,
/// each a union-find over the edges.
const MAX_FLIPS: usize = 3;

/// The regions read from a square grid's lines.
#[derive(Clone, Debug)]
pub struct JigsawReading {
    /// Every inner edge as measured, in the order of
    /// [`super::borders::measure`]: `score` the line's ink width in cells,
    /// `boundary` when thick.
    pub edges: Vec<Edge>,
    /// The weight separating thick lines from thin ones.
    pub threshold: f32,
    /// The outer frame's weight (median over its sides).
    pub frame: f32,
    /// The layout with the regions read as its boxes; `None` when no map
    /// within the repair's bounds gave regions of the right size: the grid
    /// is then read with its own layout and its regions are unsure.
    pub layout: Option<Layout>,
    /// Edges whose reading the repair flipped (index into `edges`).
    pub flipped: Vec<usize>,
}

/// The ink width of the grid line at canvas coordinate `line` (a column
/// line when `vertical`), over the edge whose first corner is at `start`
/// along it, from `along` samples: across the line, each offset's grey
/// level (the median along the edge), the paper's level on each side (the
/// brightest of the offsets past [`PAPER_FROM`]), and the darkness below
/// the paper summed over the nearer offsets, as a share of the paper's
/// level, in cells. An edge of the outer frame (`outer`: the side past the
/// line lies outside the grid) is weighed the same way.
fn line_weight(
    grey: &GrayImage,
    located: &Located,
    vertical: bool,
    line: f32,
    start: f32,
    along: usize,
) -> f32 {
    const N: usize = 2 * OFFSETS + 1;
    let mut profile = [0f32; N];
    let mut column = [0f32; ALONG_SAMPLES];
    let along = along.min(ALONG_SAMPLES);
    let step = REACH / OFFSETS as f32;
    for (i, level) in profile.iter_mut().enumerate() {
        let across = line + (i as f32 - OFFSETS as f32) * step;
        for (j, v) in column[..along].iter_mut().enumerate() {
            let t = ALONG.0 + (ALONG.1 - ALONG.0) * (j as f32 + 0.5) / along as f32;
            let p = if vertical {
                located.canvas_to_image(across, start + t)
            } else {
                located.canvas_to_image(start + t, across)
            };
            *v = bilinear_within(grey, p[0], p[1]).unwrap_or(255.0);
        }
        let (_, median, _) = column[..along].select_nth_unstable_by(along / 2, f32::total_cmp);
        *level = *median;
    }
    let near = (PAPER_FROM * OFFSETS as f32).ceil() as usize;
    let brightest = |s: &[f32]| s.iter().copied().fold(1f32, f32::max);
    let before = brightest(&profile[..=OFFSETS - near]);
    let after = brightest(&profile[OFFSETS + near..]);
    let mut ink = 0f32;
    for (i, &v) in profile
        .iter()
        .enumerate()
        .take(OFFSETS + near)
        .skip(OFFSETS + 1 - near)
    {
        let paper = match i.cmp(&OFFSETS) {
            std::cmp::Ordering::Less => before,
            std::cmp::Ordering::Greater => after,
            std::cmp::Ordering::Equal => (before + after) / 2.0,
        };
        ink += (paper - v).max(0.0) / paper;
    }
    ink * step
}

/// Every inner edge of `layout`, in cell order of `a`, the vertical edge
/// first, as `(a, b, vertical, line, start)`: the cells on either side, and
/// where the edge lies on the canvas.
pub(super) fn inner_edges(layout: &Layout) -> Vec<(usize, usize, bool, f32, f32)> {
    let mut out = Vec::new();
    for a in 0..layout.cell_count() {
        let (r, c) = layout.position(a);
        if let Some(b) = layout.cell_at(r, c + 1) {
            out.push((a, b, true, (c + 1) as f32, r as f32));
        }
        if let Some(b) = layout.cell_at(r + 1, c) {
            out.push((a, b, false, (r + 1) as f32, c as f32));
        }
    }
    out
}

/// The outer frame's weight: the median over the grid's outer sides, one
/// per cell along each, `along` samples each.
fn frame_weight(grey: &GrayImage, located: &Located, along: usize) -> f32 {
    let n = located.layout.size();
    let last = n as f32;
    let mut weights = Vec::with_capacity(4 * n);
    for i in 0..n {
        let s = i as f32;
        for (vertical, line) in [(true, 0.0), (true, last), (false, 0.0), (false, last)] {
            weights.push(line_weight(grey, located, vertical, line, s, along));
        }
    }
    let mid = weights.len() / 2;
    let (_, median, _) = weights.select_nth_unstable_by(mid, f32::total_cmp);
    *median
}

/// The quick test: whether the weights of the inner edges, from a few
/// samples each, misfit the layout's own boxes on enough edges
/// ([`QUICK_MIN_MISFITS`]): a classic pays a small share of the full
/// measure (about a third of its samples, and no frame).
pub fn may_be_jigsaw(grey: &GrayImage, located: &Located) -> bool {
    let layout = &located.layout;
    if !layout.is_single_square() {
        return false;
    }
    let edges = inner_edges(layout);
    let (mut inside, mut on_lines) = (Vec::new(), Vec::new());
    for &(a, b, vertical, line, start) in &edges {
        let w = line_weight(grey, located, vertical, line, start, QUICK_ALONG);
        if layout.same_box(a, b) {
            inside.push(w);
        } else {
            on_lines.push(w);
        }
    }
    if inside.is_empty() || on_lines.is_empty() {
        return false;
    }
    let median = |v: &mut [f32]| {
        let mid = v.len() / 2;
        *v.select_nth_unstable_by(mid, f32::total_cmp).1
    };
    let cut = (median(&mut inside) + median(&mut on_lines)) / 2.0;
    let misfits =
        inside.iter().filter(|&&w| w > cut).count() + on_lines.iter().filter(|&&w| w < cut).count();
    misfits as f32 >= QUICK_MIN_MISFITS * edges.len() as f32
}

/// Weighs every inner edge of the located grid and splits them into thick
/// and thin by the page's own weights.
pub fn measure(grey: &GrayImage, located: &Located) -> (Vec<Edge>, f32, f32) {
    let edges: Vec<Edge> = inner_edges(&located.layout)
        .into_iter()
        .map(|(a, b, vertical, line, start)| Edge {
            a,
            b,
            vertical,
            score: line_weight(grey, located, vertical, line, start, ALONG_SAMPLES),
            boundary: false,
            confidence: 0.0,
        })
        .collect();
    let frame = frame_weight(grey, located, ALONG_SAMPLES);
    let split = classify(edges);
    (split.edges, split.threshold, frame)
}

/// Whether the thick edges stand apart from the thin ones
/// ([`MIN_SEPARATION`]) and weigh like a border ([`MIN_OF_FRAME`]).
fn distinct(edges: &[Edge], frame: f32) -> bool {
    let Some((thick, thin)) = group_means(edges) else {
        return false;
    };
    thick >= MIN_SEPARATION * thin && thick >= MIN_OF_FRAME * frame
}

/// The mean score of the edges classified as borders, and of the others;
/// `None` when either group is empty.
pub(super) fn group_means(edges: &[Edge]) -> Option<(f32, f32)> {
    let mean = |border: bool| {
        let s: Vec<f32> = edges
            .iter()
            .filter(|e| e.boundary == border)
            .map(|e| e.score)
            .collect();
        (!s.is_empty()).then(|| s.iter().sum::<f32>() / s.len() as f32)
    };
    Some((mean(true)?, mean(false)?))
}

/// The regions of a map of thick edges: `size` groups of `size` cells, each
/// cell's group numbered in order of first appearance; `None` otherwise.
fn regions(layout: &Layout, edges: &[Edge], thick: &[bool]) -> Option<Vec<usize>> {
    let size = layout.size();
    let groups = groups(layout, edges, thick, size)?;
    if groups.len() != size || groups.iter().any(|g| g.len() != size) {
        return None;
    }
    let mut ids = vec![0usize; layout.cell_count()];
    for (i, g) in groups.iter().enumerate() {
        for &c in g {
            ids[c as usize] = i;
        }
    }
    Some(ids)
}

/// Whether regions (as [`regions`] numbers them) are the layout's own boxes.
pub(super) fn are_boxes(layout: &Layout, ids: &[usize]) -> bool {
    let n = layout.cell_count();
    (0..n).all(|a| (a + 1..n).all(|b| (ids[a] == ids[b]) == layout.same_box(a, b)))
}

/// Reads the regions of a located square grid whose lines show borders
/// other than its boxes'; `values` are the digits read in the cells.
/// `None` for a classic (no thick lines inside the boxes, or thick lines
/// that are exactly the boxes'), for a grid that is not a single square,
/// and for a page with a killer's cage outlines
/// ([`may_have_outlines`]), which run beside the grid lines and would
/// weigh as borders.
///
/// Among the maps within the repair's bounds that give regions of the
/// right size, the first whose givens do not clash is taken, else the
/// first.
pub fn read_jigsaw(grey: &GrayImage, located: &Located, values: &[u8]) -> Option<JigsawReading> {
    if !may_be_jigsaw(grey, located) || may_have_outlines(grey, located) {
        return None;
    }
    let reading = weigh_regions(grey, located, values)?;
    let boxes = reading.layout.as_ref().is_some_and(|l| {
        let ids: Vec<usize> = l.regions().iter().map(|&r| r as usize).collect();
        are_boxes(&located.layout, &ids)
    });
    (!boxes).then_some(reading)
}

/// The regions the thick lines of a located square grid draw, for a grid
/// a person says is a jigsaw: [`read_jigsaw`] without its quick test, and
/// kept even when the regions are the layout's own boxes. Its `layout` is
/// `None` when thick and thin lines are not told apart or no map within
/// the repair's bounds gives regions of the right size; `None` for a grid
/// that is not a single square.
pub fn read_regions(grey: &GrayImage, located: &Located, values: &[u8]) -> Option<JigsawReading> {
    if !located.layout.is_single_square() {
        return None;
    }
    weigh_regions(grey, located, values).or_else(|| {
        let (edges, threshold, frame) = measure(grey, located);
        Some(JigsawReading {
            edges,
            threshold,
            frame,
            layout: None,
            flipped: Vec::new(),
        })
    })
}

/// The full measure and repair of [`read_jigsaw`]: `None` when the thick
/// and thin lines are not distinct.
fn weigh_regions(grey: &GrayImage, located: &Located, values: &[u8]) -> Option<JigsawReading> {
    let (edges, threshold, frame) = measure(grey, located);
    if !distinct(&edges, frame) {
        return None;
    }
    Some(repaired(&located.layout, edges, threshold, frame, values))
}

/// The regions of `layout`'s cells that `edges` (classified, `boundary`
/// on the borders) draw, repaired as [`read_jigsaw`] says when they are not
/// `size` regions of `size` cells.
pub(super) fn repaired(
    layout: &Layout,
    edges: Vec<Edge>,
    threshold: f32,
    frame: f32,
    values: &[u8],
) -> JigsawReading {
    let mut found: Option<(Layout, Vec<usize>)> = None;
    for flip in edge_flips(&edges, EDGE_CANDIDATES, MAX_FLIPS) {
        let thick: Vec<bool> = edges
            .iter()
            .enumerate()
            .map(|(i, e)| e.boundary != flip.contains(&i))
            .collect();
        let Some(ids) = regions(layout, &edges, &thick) else {
            continue;
        };
        let Ok(jigsaw) = Layout::jigsaw(layout.size(), &ids) else {
            continue;
        };
        // The layout's own boxes end the search: a flip away from them
        // would only fit misread digits.
        if are_boxes(layout, &ids) {
            found = Some((jigsaw, flip));
            break;
        }
        let clash = jigsaw.first_conflict(values).is_some();
        if found.is_none() || !clash {
            found = Some((jigsaw, flip));
        }
        if !clash {
            break;
        }
    }
    let (layout, flipped) = match found {
        Some((l, f)) => (Some(l), f),
        None => (None, Vec::new()),
    };
    JigsawReading {
        edges,
        threshold,
        frame,
        layout,
        flipped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::locate::located_at_corners;
    use image::Luma;

    /// A square grid of `cell` px cells, `n` cells a side, with 2 px lines
    /// and 6 px lines (and frame) between cells of different regions.
    fn draw(cell: u32, n: usize, region: &[usize]) -> GrayImage {
        let side = cell * n as u32 + 20;
        let mut img = GrayImage::from_pixel(side, side, Luma([235]));
        let o = 10i64;
        let mut bar = |x0: i64, y0: i64, x1: i64, y1: i64| {
            for y in y0.max(0)..y1.min(side as i64) {
                for x in x0.max(0)..x1.min(side as i64) {
                    img.put_pixel(x as u32, y as u32, Luma([30]));
                }
            }
        };
        let at = |k: usize| o + (k as u32 * cell) as i64;
        for r in 0..n {
            for c in 0..=n {
                let thick = c == 0 || c == n || region[r * n + c - 1] != region[r * n + c];
                let h = if thick { 3 } else { 1 };
                bar(at(c) - h, at(r) - h, at(c) + h, at(r + 1) + h);
            }
        }
        for c in 0..n {
            for r in 0..=n {
                let thick = r == 0 || r == n || region[(r - 1) * n + c] != region[r * n + c];
                let h = if thick { 3 } else { 1 };
                bar(at(c) - h, at(r) - h, at(c + 1) + h, at(r) + h);
            }
        }
        img
    }

    fn located(cell: u32, n: usize) -> Located {
        let (a, b) = (10.0, 10.0 + (cell * n as u32) as f32);
        let layout = Layout::named(if n == 9 { "classic" } else { "6x6" }).unwrap();
        located_at_corners([[a, a], [b, a], [b, b], [a, b]], &layout).unwrap()
    }

    const JIGSAW: &str =
        "112223333111222333111222334155666444555666444555666447588999777888999777888899977";

    fn ids(map: &str) -> Vec<usize> {
        map.bytes().map(|b| (b - b'1') as usize).collect()
    }

    #[test]
    fn a_jigsaw_reads_its_regions() {
        let map = ids(JIGSAW);
        let grey = draw(40, 9, &map);
        let loc = located(40, 9);
        assert!(may_be_jigsaw(&grey, &loc));
        let j = read_jigsaw(&grey, &loc, &[0; 81]).expect("thick lines inside the boxes");
        let layout = j.layout.expect("9 regions of 9");
        assert_eq!(layout, Layout::jigsaw(9, &map).unwrap());
        assert!(j.flipped.is_empty());
    }

    #[test]
    fn a_classic_is_no_jigsaw() {
        let boxes: Vec<usize> = (0..81).map(|i| (i / 27) * 3 + (i % 9) / 3).collect();
        let grey = draw(40, 9, &boxes);
        let loc = located(40, 9);
        assert!(!may_be_jigsaw(&grey, &loc));
        // Past the quick test too, the boxes are a classic.
        let (edges, _, frame) = measure(&grey, &loc);
        assert!(distinct(&edges, frame));
        let thick: Vec<bool> = edges.iter().map(|e| e.boundary).collect();
        let found = regions(&loc.layout, &edges, &thick).unwrap();
        assert!(are_boxes(&loc.layout, &found));
    }

    #[test]
    fn a_grid_of_even_lines_is_no_jigsaw() {
        // Its lines misfit the boxes as much as they fit them, so it is
        // measured in full: no line stands out.
        let grey = draw(40, 9, &[0; 81]);
        let loc = located(40, 9);
        assert!(may_be_jigsaw(&grey, &loc));
        let (edges, _, frame) = measure(&grey, &loc);
        assert!(!distinct(&edges, frame));
        assert!(read_jigsaw(&grey, &loc, &[0; 81]).is_none());
    }

    #[test]
    fn a_missing_border_is_repaired() {
        let map = ids(JIGSAW);
        let mut grey = draw(40, 9, &map);
        // Redraw the thick border between r1c2 and r1c3 (regions 1 and 2)
        // half as wide: read as thin, the two regions merge.
        for y in 14..47 {
            for x in 87..94 {
                let v = if (88..91).contains(&x) { 30 } else { 235 };
                grey.put_pixel(x, y, Luma([v]));
            }
        }
        let j = read_jigsaw(&grey, &located(40, 9), &[0; 81]).unwrap();
        assert_eq!(j.layout, Some(Layout::jigsaw(9, &map).unwrap()));
        assert_eq!(j.flipped.len(), 1);
    }

    #[test]
    fn regions_of_the_wrong_size_are_left_unread() {
        // Thick lines everywhere in the top three rows: 27 regions there.
        let mut map = ids(JIGSAW);
        for (i, m) in map.iter_mut().enumerate().take(27) {
            *m = 100 + i;
        }
        let grey = draw(40, 9, &map);
        let j = read_jigsaw(&grey, &located(40, 9), &[0; 81]).unwrap();
        assert!(j.layout.is_none());
    }
}
