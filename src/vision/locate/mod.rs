//! Finding the puzzle in a grey image: its outer corners, the homography
//! between the layout's canvas and the image, the layout itself, and one
//! square crop per cell sampled from the full-resolution image.
//!
//! The stages, in order, and the file that holds each (its tuning constants
//! at its top, each with its reason):
//! 1. `ink.rs`: the image is box-averaged down to a working copy whose long
//!    side is at most [`WORK_SIDE`] pixels ([`downscale`]), and
//! 2. ink is found by a local-mean threshold in both polarities
//!    ([`Polarity`]: dark print on paper, light lines on a dark-mode screen).
//!    An image averaged by three or less is also thresholded at full
//!    resolution, where a one-pixel line keeps its contrast; stages 3 to 5
//!    run on both sets of masks, and the full resolution's grid is taken
//!    where the averaged copy found none, or only a block of it or its box
//!    lines. Where both found none or a weak one ([`SECOND_LOOK`]), the
//!    full resolution is looked at again with each pixel also judged
//!    against its window's paper (`ink::fine_masks`): faint lines beside a
//!    dark page or among dense print.
//! 3. `candidates.rs`: the outer outline of every large ink component gives
//!    candidate quads ([`Quad`], `quad.rs`), fitted by `fit.rs`: the largest
//!    quadrilateral inscribed in its convex hull, whose sides are then
//!    refitted to the outline's straight stretches; the hull of its
//!    cell-like holes gives more. When no candidate scores as a grid, the
//!    dark mask is opened (thin lines and bridges removed) and the outlines
//!    traced again: a grid joined to the rest of the page through shading
//!    keeps its thick frame, now on its own.
//!    When still none does, the dark mask is traced with the dark areas
//!    beside light blocks left out (`ink::strokes_only`): a white grid on a
//!    dark page, whose frame the page beside it joins in one wide band.
//!    `grow.rs`: a candidate whose lines go on past its sides grows by whole
//!    rows and columns to the lattice's real edges, and competes too.
//! 4. `score.rs`: each candidate is scored against every candidate layout
//!    ([`DETECTED_LAYOUTS`], data, not code) by probing its mask through the
//!    homography ([`layout_score`]): borders of the layout's cells must
//!    carry ink, lines through cell centres much less, and canvas positions
//!    outside the shape must be blank. The best layout's score is the
//!    candidate's score; among candidates scoring close to the best
//!    ([`NEAR_BEST`], here), the largest wins (so a smaller second grid
//!    beside the main one loses).
//! 5. `refine.rs`: the chosen quad's ink is rectified, its outer lines
//!    straightened, and the actual grid lines found in it, so cells follow
//!    the printed lines even when the outer border is thick or spacing is
//!    uneven.
//! 6. `crops.rs`: [`cell_crops`] samples one square crop per cell from the
//!    full-resolution image through the homography and the refined lines.
//!
//! Corners and the homography are in the orientation of the pixels given:
//! whether the puzzle is upside down or on its side is decided later, from
//! the digits.

use std::fmt;

use image::GrayImage;
use rayon::prelude::*;

use crate::grid::Layout;
use crate::vision::page::homography::Homography;

mod candidates;
mod crops;
mod fit;
mod grow;
mod ink;
mod quad;
mod refine;
mod score;

use candidates::{Candidate, candidates, opened_candidates};
use refine::refine;

pub use crops::{CELL_CROP_SIZE, CROP_INSET, cell_crops};
pub use ink::{Polarity, WORK_SIDE, downscale};
pub use quad::Quad;
pub use score::layout_score;

/// The layouts [`locate`] tells apart when none is forced. Any layout built
/// by [`Layout::named`] can be listed: its score comes from its cell map
/// (and, between layouts with the same cells, from its box borders).
pub const DETECTED_LAYOUTS: &[&str] = &[
    "classic",
    "samurai",
    "twodoku",
    "butterfly",
    "flower",
    "sohei",
    "4x4",
    "6x6",
    "8x8",
    "12x12",
    "16x16",
    "25x25",
];

/// Each candidate is scored coarsely as every layout first
/// ([`score::coarse_layout_score`]); only the layouts within this of its
/// best coarse score are scored in full. The coarse score differs from the
/// full one by a few hundredths; layouts a candidate is not score 0.3 and
/// more below the one it is.
const COARSE_MARGIN: f32 = 0.15;

/// Layouts whose full scores lie this close are told apart by their box
/// borders ([`score::box_contrast`]): layouts with the same cells score
/// alike to a few thousandths.
const BOX_TIE: f32 = 0.03;

/// Below this best score the masks are traced again (opened, then strokes
/// only) and their candidates compete too: a weak best may be a part of a
/// grid the first mask did not show whole (one box of a full white grid
/// on a dark page scores 0.41 as a 6 x 6 while the whole scores 0.18 in
/// that mask). Grids seen whole score 0.6 and more.
pub const SECOND_LOOK: f32 = 0.5;

/// A candidate needs at least this score (see [`Located::score`]) to count
/// as a grid.
pub const MIN_SCORE: f32 = 0.35;

/// Candidates scoring at least this share of the best score compete on
/// size, and the largest wins: a smaller second grid beside the main one,
/// or a box of the grid itself, may score a little higher than the whole.
pub const NEAR_BEST: f32 = 0.85;

/// A grid found in the full-resolution ink replaces the averaged copy's
/// when its area is larger by more than this factor: the other was a block
/// of it. The same grid found in both differs by a few per cent; a 9 x 9
/// short of a row and a column is 1.27 times smaller, a block of a 6 x 6
/// 2.25 times.
const LARGER_GRID: f32 = 1.1;

/// Images narrower or lower than this many pixels (4 per cell of a 9 x 9
/// grid) are refused: no digit can be read in them.
pub const MIN_IMAGE_SIDE: u32 = 36;

/// Where the puzzle is.
#[derive(Clone, Debug)]
pub struct Located {
    /// The outer corners of the grid, on the centre line of its outer border,
    /// in pixels of the image given to [`locate`] (pixel indices: the centre
    /// of pixel (0, 0) is (0, 0)), clockwise from the top-left as the image
    /// is stored: top-left, top-right, bottom-right, bottom-left. (The
    /// reader then turns the whole location to the puzzle's own order with
    /// [`crate::vision::cells::orient::turn_located`].)
    pub corners: [[f32; 2]; 4],
    /// The detected (or forced) layout.
    pub layout: Layout,
    /// Canvas to image: canvas `(x, y)` in cell units (x = column, 0..width,
    /// y = row, 0..height) to image pixels; the canvas corners map to
    /// `corners`.
    pub homography: Homography,
    /// Where each vertical grid line (0..=width) actually lies, in canvas
    /// units of `homography`: `i` for the outer lines, close to `i` for the
    /// others (unevenly printed or slightly curved grids move them).
    pub col_lines: Vec<f32>,
    /// Same for the horizontal lines (0..=height).
    pub row_lines: Vec<f32>,
    /// Where each vertical line lies beside each row of cells,
    /// `[line][row]`, in the units of `col_lines`: a photographed page that
    /// bends bends its lines, which one place per line cannot follow. Empty
    /// when not measured (a location from given corners): each cell then
    /// lies between `col_lines`. See [`Located::cell_edges`].
    pub col_lines_at: Vec<Vec<f32>>,
    /// Same for the horizontal lines beside each column, `[line][column]`.
    pub row_lines_at: Vec<Vec<f32>>,
    /// How grid-like the rectified content is for `layout`, about 0..1:
    /// ink on cell borders minus ink on lines through cell centres and on
    /// canvas positions outside the shape.
    pub score: f32,
    /// The score of every layout tried, best first.
    pub layout_scores: Vec<(String, f32)>,
}

impl Located {
    /// The image point of a canvas point, through the refined grid lines:
    /// canvas `(x, y)` in cell units (integers are grid lines). The point is
    /// placed between the lines where they lie beside the canvas cell it
    /// falls in ([`Located::cell_edges`]), so that on a bent page a cage's
    /// outline, a border sampled along a line or a candidate drawn in a
    /// cell lies where the cell was read. Across a line the next cell's
    /// places take over: a line that lies a little differently beside two
    /// neighbours moves by that much there.
    pub fn canvas_to_image(&self, x: f32, y: f32) -> [f32; 2] {
        let last = |lines: &[f32]| lines.len().max(2) - 2;
        let c = (x.floor().max(0.0) as usize).min(last(&self.col_lines));
        let r = (y.floor().max(0.0) as usize).min(last(&self.row_lines));
        let [l, right, t, b] = self.edges_at(r, c);
        let u = l + (x - c as f32) * (right - l);
        let v = t + (y - r as f32) * (b - t);
        let (px, py) = self.homography.map(u as f64, v as f64);
        [px as f32, py as f32]
    }

    /// The canvas span of `cell` between its grid lines where they lie
    /// beside it (`col_lines_at`, `row_lines_at`, or the lines' single
    /// places when those are empty): `[left, right, top, bottom]`, in the
    /// canvas units of `homography`.
    pub fn cell_edges(&self, cell: usize) -> [f32; 4] {
        let (r, c) = self.layout.position(cell);
        self.edges_at(r, c)
    }

    /// [`Located::cell_edges`] of the canvas position at row `r`, column
    /// `c`, a cell of the layout or not.
    fn edges_at(&self, r: usize, c: usize) -> [f32; 4] {
        let at = |lines: &[f32], beside: &[Vec<f32>], i: usize, along: usize| {
            beside
                .get(i)
                .and_then(|l| l.get(along))
                .copied()
                .unwrap_or(lines[i])
        };
        [
            at(&self.col_lines, &self.col_lines_at, c, r),
            at(&self.col_lines, &self.col_lines_at, c + 1, r),
            at(&self.row_lines, &self.row_lines_at, r, c),
            at(&self.row_lines, &self.row_lines_at, r + 1, c),
        ]
    }

    /// The four corners of a cell in image pixels, clockwise from top-left,
    /// between its lines where they lie beside it ([`Located::cell_edges`]):
    /// on a bent page, where the cell was read. Neighbouring cells share
    /// the line between them, though not always its ends exactly (a
    /// horizontal line may lie a little differently beside the next column).
    pub fn cell_quad(&self, cell: usize) -> [[f32; 2]; 4] {
        let [l, r, t, b] = self.cell_edges(cell);
        let map = |u: f32, v: f32| {
            let (x, y) = self.homography.map(u as f64, v as f64);
            [x as f32, y as f32]
        };
        [map(l, t), map(r, t), map(r, b), map(l, b)]
    }

    /// The same location for an image scaled by `factor` (e.g. from the
    /// working copy to the full image).
    ///
    /// Coordinates are pixel indices (the centre of pixel (0, 0) is (0, 0)),
    /// and a working-copy pixel covers `factor` x `factor` image pixels, so
    /// `x` maps to `x * factor + (factor - 1) / 2`.
    pub fn scaled(&self, factor: f32) -> Located {
        let f = factor as f64;
        let o = (f - 1.0) / 2.0;
        let s = Homography::from_matrix([f, 0.0, o, 0.0, f, o, 0.0, 0.0, 1.0]);
        let of = o as f32;
        Located {
            corners: self
                .corners
                .map(|[x, y]| [x * factor + of, y * factor + of]),
            homography: self.homography.then(&s),
            ..self.clone()
        }
    }
}

/// Why no grid was located in an image. [`locate`] sees pixels, not a
/// file: the caller that knows the file names it with
/// [`LocateError::in_file`], which is what users are told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LocateError {
    /// No candidate scored as a grid (see [`MIN_SCORE`]).
    #[error("no sudoku grid found in the image")]
    NoGrid,
    /// The image is narrower or lower than [`MIN_IMAGE_SIDE`].
    #[error("the image is too small to hold a sudoku grid ({width}x{height} pixels)")]
    TooSmall { width: u32, height: u32 },
}

impl LocateError {
    /// This error in the file (or pasted image) called `file`.
    pub fn in_file(self, file: &str) -> LocateFileError {
        LocateFileError {
            file: file.to_string(),
            error: self,
        }
    }
}

/// A [`LocateError`] with the name of the file it happened in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocateFileError {
    /// The file's name as the user gave it.
    pub file: String,
    /// What went wrong.
    pub error: LocateError,
}

impl fmt::Display for LocateFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = &self.file;
        match self.error {
            LocateError::NoGrid => write!(f, "no sudoku grid found in {file}"),
            LocateError::TooSmall { width, height } => write!(
                f,
                "{file} is too small to hold a sudoku grid ({width}x{height} pixels)"
            ),
        }
    }
}

impl std::error::Error for LocateFileError {}

/// The intermediate results of [`locate_traced`], for `--debug` output.
#[derive(Clone, Debug)]
pub struct Trace {
    /// The working copy (box-averaged grey).
    pub small: GrayImage,
    /// Full-image pixels per working-copy pixel.
    pub scale: f32,
    /// Ink masks (255 = ink) in [`Polarity::ALL`] order: dark ink, then
    /// light ink (see [`Trace::mask`]).
    pub ink: [GrayImage; 2],
    /// Every candidate quad, in working-copy pixels, with its best score.
    pub candidates: Vec<(Quad, f32)>,
}

impl Trace {
    /// The ink mask of one polarity.
    pub fn mask(&self, polarity: Polarity) -> &GrayImage {
        &self.ink[polarity.index()]
    }
}

/// The layouts `located` might as well have been: those with the same cells
/// as its layout (see [`Layout::same_cells`]) that scored within
/// [`BOX_TIE`] of it. The box borders chose among them, and a page that
/// draws its box borders no heavier than its other lines leaves that choice
/// a guess, which the puzzle's reading can settle.
pub fn twins(located: &Located) -> Vec<Layout> {
    let name = located.layout.name();
    let Some(&(_, own)) = located.layout_scores.iter().find(|(n, _)| n == name) else {
        return Vec::new();
    };
    located
        .layout_scores
        .iter()
        .filter(|&&(ref n, s)| n != name && s >= own - BOX_TIE)
        .filter_map(|(n, _)| Layout::named(n).ok())
        .filter(|l| l.same_cells(&located.layout))
        .collect()
}

/// Finds the puzzle in `grey`. With `layout`, only that layout is tried;
/// otherwise every layout of [`DETECTED_LAYOUTS`].
pub fn locate(grey: &GrayImage, layout: Option<&Layout>) -> Result<Located, LocateError> {
    locate_traced(grey, layout).0
}

/// [`locate`], also returning its intermediate images.
pub fn locate_traced(
    grey: &GrayImage,
    layout: Option<&Layout>,
) -> (Result<Located, LocateError>, Trace) {
    let (width, height) = grey.dimensions();
    if width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE {
        // Nothing to trace: the image as it is, without ink.
        let trace = Trace {
            small: grey.clone(),
            scale: 1.0,
            ink: [GrayImage::new(width, height), GrayImage::new(width, height)],
            candidates: Vec::new(),
        };
        return (Err(LocateError::TooSmall { width, height }), trace);
    }
    let (small, scale) = downscale(grey, WORK_SIDE);
    let layouts: Vec<Layout> = match layout {
        Some(l) => vec![l.clone()],
        None => DETECTED_LAYOUTS
            .iter()
            .map(|n| Layout::named(n).expect("built-in layout"))
            .collect(),
    };
    // Averaging takes one-pixel lines down to a fraction of their
    // contrast: on a screenshot, the ink found at full resolution shows
    // the grid whole where the averaged copy shows it in pieces (no grid
    // found), only a block of it, or only its box lines (a 16 x 16 seen
    // as a 4 x 4; see [`ink::fine_masks`]). So the averaged copy's grid
    // stands unless it found none, or the full resolution shows, scoring
    // near it ([`NEAR_BEST`], as among the candidates of one mask), a grid
    // larger by [`LARGER_GRID`] or of more cells. A better score alone
    // does not decide: the same grid found in both differs by a few
    // hundredths either way, and the averaged copy is the one the photos'
    // readings were measured on. The two looks share nothing and run side
    // by side.
    let factor = scale as u32;
    let averaged = |small: GrayImage| {
        let ink = ink::ink_masks(&small);
        let trace = Trace {
            small,
            scale,
            ink,
            candidates: Vec::new(),
        };
        locate_in(grey, trace, &layouts)
    };
    if !ink::fine_pays(factor) {
        return averaged(small);
    }
    let full_resolution = |small: GrayImage, paper: bool| {
        let trace = Trace {
            ink: ink::fine_masks(grey, &small, factor, paper),
            small,
            scale,
            candidates: Vec::new(),
        };
        locate_in(grey, trace, &layouts)
    };
    let copy = small.clone();
    let ((first, trace), (second, fine)) =
        rayon::join(|| averaged(small), || full_resolution(copy, false));
    let (found, trace) = larger_grid((first, trace), (second, fine));
    // A weak grid or none: the full resolution looked at again with its
    // ink judged against the paper too (see [`ink::fine_masks`]), where a
    // white grid on a dark page or dense print hid the faint lines.
    if found.as_ref().is_ok_and(|l| l.score >= SECOND_LOOK) {
        return (found, trace);
    }
    let copy = trace.small.clone();
    larger_grid((found, trace), full_resolution(copy, true))
}

/// Of a grid found (`first`) and one found in other masks (`second`),
/// with their traces: `second` where `first` found none, or where it
/// scores near it ([`NEAR_BEST`]) and is larger by [`LARGER_GRID`] or has
/// more cells; else `first`.
fn larger_grid(
    first: (Result<Located, LocateError>, Trace),
    second: (Result<Located, LocateError>, Trace),
) -> (Result<Located, LocateError>, Trace) {
    let area = |l: &Located| Quad::new(l.corners).area();
    match (&first.0, &second.0) {
        (Err(_), Ok(_)) => second,
        (Ok(f), Ok(s))
            if s.score >= f.score * NEAR_BEST
                && (area(s) > area(f) * LARGER_GRID
                    || s.layout.cell_count() > f.layout.cell_count()) =>
        {
            second
        }
        _ => first,
    }
}

/// [`locate_traced`] in the ink masks of `trace`, which also gets every
/// candidate tried.
fn locate_in(
    grey: &GrayImage,
    mut trace: Trace,
    layouts: &[Layout],
) -> (Result<Located, LocateError>, Trace) {
    let scale = trace.scale;
    // The two masks' outlines are traced side by side; candidates keep the
    // order dark ink first.
    let per_mask: Vec<Vec<Candidate>> = Polarity::ALL
        .par_iter()
        .map(|&polarity| candidates(trace.mask(polarity), polarity))
        .collect();
    let mut cands: Vec<Candidate> = per_mask.into_iter().flatten().collect();

    let score_all = |cands: &[Candidate]| -> Vec<Vec<(usize, f32)>> {
        cands
            .par_iter()
            .map(|c| rank_layouts(trace.mask(c.polarity), &c.quad, layouts))
            .collect()
    };
    let mut scored = score_all(&cands);
    let best_of =
        |scored: &[Vec<(usize, f32)>]| scored.iter().map(|s| s[0].1).fold(f32::MIN, f32::max);
    if best_of(&scored) < SECOND_LOOK {
        // The grid may be one component with the rest of the page, joined
        // through shading or a rule that touches it, and its thin inner
        // lines broken so that its holes are not cells. Opening the dark
        // mask removes thin lines and bridges and leaves the thick outer
        // frame standing on its own; its candidates are still scored
        // against the mask as it was.
        let more = opened_candidates(trace.mask(Polarity::DarkOnLight));
        scored.extend(score_all(&more));
        cands.extend(more);
    }
    if best_of(&scored) < SECOND_LOOK {
        // A light grid block on a dark page (a dark-mode screen showing a
        // white grid): the page beside the block is dark ink to the large
        // window and joins the frame in one wide band. Traced once that
        // band is gone, the frame is the grid's outline again; its
        // candidates are scored against the dark mask as it was.
        let strokes = ink::strokes_only(&trace.small, trace.mask(Polarity::DarkOnLight));
        let more = candidates(&strokes, Polarity::DarkOnLight);
        scored.extend(score_all(&more));
        cands.extend(more);
    }
    // A candidate that is a block of a larger lattice grows to all of it;
    // the grown quad competes with the rest (and, larger, wins when it
    // scores near the best).
    let grown: Vec<Candidate> = cands
        .iter()
        .zip(&scored)
        .filter(|(_, s)| s[0].1 >= MIN_SCORE)
        .filter_map(|(c, s)| {
            let l = &layouts[s[0].0];
            let (quad, ..) = l
                .is_full()
                .then(|| grow::grow(trace.mask(c.polarity), &c.quad, l.width(), l.height()))??;
            Some(Candidate {
                quad,
                polarity: c.polarity,
            })
        })
        .collect();
    scored.extend(score_all(&grown));
    cands.extend(grown);
    for (c, s) in cands.iter().zip(&scored) {
        trace.candidates.push((c.quad, s[0].1));
    }
    let best = best_of(&scored);
    if best < MIN_SCORE {
        return (Err(LocateError::NoGrid), trace);
    }
    // Among the candidates close to the best score, the largest.
    let (cand, layout_ranking) = cands
        .iter()
        .zip(&scored)
        .filter(|(_, s)| s[0].1 >= best * NEAR_BEST)
        .max_by(|a, b| a.0.quad.area().total_cmp(&b.0.quad.area()))
        .expect("the best candidate qualifies");
    let mut layout_ranking = layout_ranking.clone();
    break_box_tie(grey, cand, scale, layouts, &mut layout_ranking);
    let chosen = layouts[layout_ranking[0].0].clone();
    let score = layout_ranking[0].1;
    let layout_scores = layout_ranking
        .iter()
        .map(|&(li, s)| (layouts[li].name().to_string(), s))
        .collect();

    let located_small = refine(
        trace.mask(cand.polarity),
        &cand.quad,
        chosen,
        score,
        layout_scores,
    );
    (Ok(located_small.scaled(scale)), trace)
}

/// `layouts` (indices) ranked for the candidate `quad` in `mask`, best
/// first: coarse scores, then full ones for the layouts near the best (a
/// single forced layout is scored in full at once).
fn rank_layouts(mask: &GrayImage, quad: &Quad, layouts: &[Layout]) -> Vec<(usize, f32)> {
    let mut s: Vec<(usize, f32)> = if layouts.len() == 1 {
        vec![(0, layout_score(mask, quad, &layouts[0]))]
    } else {
        let coarse: Vec<(usize, f32)> = layouts
            .iter()
            .enumerate()
            .map(|(li, l)| (li, score::coarse_layout_score(mask, quad, l)))
            .collect();
        let top = coarse.iter().map(|s| s.1).fold(f32::MIN, f32::max);
        coarse
            .into_iter()
            .map(|(li, cs)| {
                if cs >= top - COARSE_MARGIN && top >= MIN_SCORE - COARSE_MARGIN {
                    (li, layout_score(mask, quad, &layouts[li]))
                } else {
                    (li, cs)
                }
            })
            .collect()
    };
    s.sort_by(|a, b| b.1.total_cmp(&a.1));
    s
}

/// Layouts that scored within [`BOX_TIE`] of the best differ in their box
/// borders only as far as the lines' shapes tell: among them, the one whose
/// box borders stand out most from its other lines at full resolution
/// (`grey`, `scale` times the traced image) moves to the front of `ranking`.
fn break_box_tie(
    grey: &GrayImage,
    cand: &Candidate,
    scale: f32,
    layouts: &[Layout],
    ranking: &mut [(usize, f32)],
) {
    let tied = ranking
        .iter()
        .take_while(|&&(_, s)| s >= ranking[0].1 - BOX_TIE)
        .count();
    if tied <= 1 {
        return;
    }
    let offset = (scale - 1.0) / 2.0;
    let quad = cand
        .quad
        .map(|[x, y]| [x * scale + offset, y * scale + offset]);
    let contrast = |li: usize| score::box_contrast(grey, cand.polarity, &quad, &layouts[li]);
    let best = (0..tied)
        .max_by(|&a, &b| contrast(ranking[a].0).total_cmp(&contrast(ranking[b].0)))
        .expect("two or more tied");
    ranking[..=best].rotate_right(1);
}

/// A [`Located`] with the given corners and layout and evenly spaced grid
/// lines; its `score` is 0 and `layout_scores` is empty (nothing was
/// detected). `None` for degenerate or self-crossing corners.
pub fn located_at_corners(corners: [[f32; 2]; 4], layout: &Layout) -> Option<Located> {
    if corners.iter().flatten().any(|v| !v.is_finite()) || !Quad::from(corners).is_convex() {
        return None;
    }
    let (w, h) = (layout.width() as f64, layout.height() as f64);
    let canvas = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
    let image = corners.map(|[x, y]| [x as f64, y as f64]);
    let homography = Homography::from_points(&canvas, &image)?;
    Some(Located {
        corners,
        layout: layout.clone(),
        homography,
        col_lines: (0..=layout.width()).map(|i| i as f32).collect(),
        row_lines: (0..=layout.height()).map(|i| i as f32).collect(),
        col_lines_at: Vec::new(),
        row_lines_at: Vec::new(),
        score: 0.0,
        layout_scores: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_given_place_the_cells_between_them() {
        let layout = Layout::classic();
        let corners = [[10.0, 20.0], [100.0, 20.0], [100.0, 110.0], [10.0, 110.0]];
        let found = located_at_corners(corners, &layout).expect("a square is fine");
        assert_eq!(found.corners, corners);
        let q = found.cell_quad(0);
        assert!((q[0][0] - 10.0).abs() < 1e-3 && (q[0][1] - 20.0).abs() < 1e-3);
        assert!((q[2][0] - 20.0).abs() < 1e-3 && (q[2][1] - 30.0).abs() < 1e-3);
        let last = found.cell_quad(80);
        assert!((last[2][0] - 100.0).abs() < 1e-3 && (last[2][1] - 110.0).abs() < 1e-3);
    }

    #[test]
    fn degenerate_or_crossing_corners_are_refused() {
        let layout = Layout::classic();
        let line = [[0.0, 0.0], [50.0, 0.0], [100.0, 0.0], [0.0, 100.0]];
        assert!(located_at_corners(line, &layout).is_none());
        let bowtie = [[0.0, 0.0], [100.0, 100.0], [100.0, 0.0], [0.0, 100.0]];
        assert!(located_at_corners(bowtie, &layout).is_none());
        let nan = [[f32::NAN, 0.0], [100.0, 0.0], [100.0, 100.0], [0.0, 100.0]];
        assert!(located_at_corners(nan, &layout).is_none());
    }

    #[test]
    fn a_cell_quad_lies_between_the_lines_beside_it() {
        // Ten pixels a cell, no perspective; the line between columns 1
        // and 2 bends right by a fifth of a cell beside row 4.
        let layout = Layout::classic();
        let h = Homography::from_matrix([10.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.0, 0.0, 1.0]);
        let lines: Vec<f32> = (0..=9).map(|i| i as f32).collect();
        let mut col_lines_at: Vec<Vec<f32>> = lines.iter().map(|&x| vec![x; 9]).collect();
        col_lines_at[2][4] = 2.2;
        let located = Located {
            corners: [[0.0, 0.0], [90.0, 0.0], [90.0, 90.0], [0.0, 90.0]],
            layout: layout.clone(),
            homography: h,
            col_lines: lines.clone(),
            row_lines: lines.clone(),
            col_lines_at,
            row_lines_at: lines.iter().map(|&y| vec![y; 9]).collect(),
            score: 1.0,
            layout_scores: Vec::new(),
        };
        let near =
            |a: [f32; 2], b: [f32; 2]| (a[0] - b[0]).abs() < 1e-3 && (a[1] - b[1]).abs() < 1e-3;
        // r5c2 and r5c3 (row 4, columns 1 and 2) share the bent line.
        let (left, right) = (located.cell_quad(4 * 9 + 1), located.cell_quad(4 * 9 + 2));
        assert!(
            near(left[1], [22.0, 40.0]) && near(left[2], [22.0, 50.0]),
            "{left:?}"
        );
        assert!(
            near(right[0], [22.0, 40.0]) && near(right[3], [22.0, 50.0]),
            "{right:?}"
        );
        // The row above keeps the line where it lies beside it.
        let above = located.cell_quad(3 * 9 + 1);
        assert!(
            near(above[1], [20.0, 30.0]) && near(above[2], [20.0, 40.0]),
            "{above:?}"
        );
        // Canvas points follow the same lines: on the bent line beside row
        // 4, halfway to it from the line before, and on it beside row 3.
        let at = |x: f32, y: f32| located.canvas_to_image(x, y);
        assert!(near(at(2.0, 4.5), [22.0, 45.0]), "{:?}", at(2.0, 4.5));
        assert!(near(at(1.5, 4.5), [16.0, 45.0]), "{:?}", at(1.5, 4.5));
        assert!(near(at(2.0, 3.5), [20.0, 35.0]), "{:?}", at(2.0, 3.5));
        // The outer lines and beyond, as before.
        assert!(near(at(9.0, 9.0), [90.0, 90.0]), "{:?}", at(9.0, 9.0));
        assert!(near(at(-0.5, 10.0), [-5.0, 100.0]), "{:?}", at(-0.5, 10.0));
    }
}
