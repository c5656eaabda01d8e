//! Marks on the edge between two neighbouring cells: kropki dots, filled
//! (black: one digit twice the other) and hollow (white: the digits differ
//! by one), and the letters X (the digits add up to 10) and V (to 5).
//!
//! Around each inner edge's midpoint the page's darkness is sampled on
//! circles of growing radius, at the angles that stay off the edge's own
//! grid line. A filled dot is dark from its centre out to a radius where it
//! ends; a hollow one is a closed ring of ink, dark at one radius on every
//! angle, with paper inside and outside it. A digit never reaches an edge's
//! midpoint, and a cage's dashed outline runs straight, so it is dark at a
//! different radius on each angle: neither is a closed ring.
//!
//! Where there is no dot, the letters are matched as strokes: X's two
//! crossing diagonals, V's two arms meeting at the bottom, at a range of
//! sizes, each stroke dark along most of its length and the places inside
//! the letter that neither stroke crosses light. The edge's own grid line
//! runs through the letter's middle and is not sampled.

use image::GrayImage;

use super::{Levels, sample};
use crate::grid::Rule;
use crate::vision::locate::Located;
use crate::vision::page::num::median_of;

/// The radii sampled around an edge's midpoint, in cells: from the centre
/// to beyond the largest dot drawn (a web player's are about 0.15 of a
/// cell across their radius; print's range about 0.1 to 0.2).
const RADII: [f32; 14] = [
    0.0, 0.02, 0.04, 0.06, 0.08, 0.10, 0.12, 0.14, 0.16, 0.18, 0.20, 0.22, 0.24, 0.26,
];

/// Angles sampled on each circle.
const ANGLES: usize = 16;

/// Angles closer than this to the edge's own grid line are not sampled
/// (as the cosine of the angle between them): 18 degrees, which leaves out
/// only the two angles along the line. The angles next to those, 22.5
/// degrees off the line, are what tells a ring from two straight lines
/// beside the edge (a killer's dashed outlines on both sides of it): the
/// ring is at its radius there too, the lines much further out.
const OFF_LINE_COS: f32 = 0.95;

/// The radii (indices into [`RADII`]) where a filled dot must be dark all
/// round: its middle, just off the grid line.
const FILLED_CORE: std::ops::RangeInclusive<usize> = 1..=3;

/// The radii where a hollow dot's ring may lie: far enough out that paper
/// shows inside it ([`RING_CLEARANCE`] radii in, past [`FILLED_CORE`]'s
/// start), which a thick grid line's edge at a small radius does not show.
const RING_RADII: std::ops::RangeInclusive<usize> = 4..=11;

/// How much the radius where a filled dot ends may differ between angles,
/// in radii (indices into [`RADII`]): a dot is round. A thick line's edge
/// (a photo's box line, a jigsaw's region border) lies further out the
/// closer the angle is to the line: 2.6 times as far at the angles next to
/// it as across it.
const ROUND_SPREAD: usize = 2;

/// How far inside and outside the ring the paper must show, in radii
/// (indices into [`RADII`]): a ring is a line, not a blob.
const RING_CLEARANCE: usize = 3;

/// Darkness (0 paper, 1 the heavier grid lines' ink) that counts as ink: a dot's
/// fill or ring on every angle sampled.
pub const INK: f32 = 0.5;

/// Darkness that counts as paper: a hollow dot's inside (the median over
/// the angles) and a dot's outside (on every angle).
pub const PAPER: f32 = 0.25;

/// The marks on the inner edges of a located grid, each with its
/// confidence (0 at the thresholds [`INK`] and [`PAPER`], 1 well clear of
/// them), in cell order of the edge's first cell, the edge to its right
/// before the one below it.
pub fn read(grey: &GrayImage, located: &Located, levels: Levels) -> Vec<(Rule, f32)> {
    let layout = &located.layout;
    let mut out = Vec::new();
    let mut profile = Profile::default();
    for a in 0..layout.cell_count() {
        let (r, c) = layout.position(a);
        for vertical in [true, false] {
            let (nr, nc) = if vertical { (r, c + 1) } else { (r + 1, c) };
            let Some(b) = layout.cell_at(nr, nc) else {
                continue;
            };
            let centre = if vertical {
                (nc as f32, r as f32 + 0.5)
            } else {
                (c as f32 + 0.5, nr as f32)
            };
            if !any_ink(grey, located, levels, centre, vertical)
                || !profile.measure(grey, located, levels, centre, vertical)
            {
                continue;
            }
            let cells = [a as u32, b as u32];
            if let Some(confidence) = profile.filled() {
                out.push((Rule::Ratio { cells, value: 2 }, confidence));
            } else if let Some(confidence) = profile.hollow() {
                out.push((Rule::Difference { cells, value: 1 }, confidence));
            } else {
                // The line's own ink, as wide as it is drawn, is left out
                // of the letters' test.
                let clearance =
                    line_half_width(grey, located, levels, centre, vertical) + LINE_CLEARANCE;
                if profile.inked(vertical, clearance)
                    && let Some((sum, confidence)) = letter(
                        grey,
                        located,
                        levels,
                        centre,
                        vertical,
                        clearance,
                        &mut profile.scratch,
                    )
                {
                    out.push((Rule::Xv { cells, sum }, confidence));
                }
            }
        }
    }
    out
}

/// The darkness around one edge's midpoint: `[radius][angle]`, over the
/// angles kept.
#[derive(Default)]
struct Profile {
    dark: Vec<[f32; ANGLES]>,
    /// Which of the [`ANGLES`] are off the grid line.
    kept: Vec<usize>,
    /// Scratch for medians.
    scratch: Vec<f32>,
}

impl Profile {
    /// Samples the circles around canvas point `centre` on an edge whose
    /// grid line runs `vertical`ly or not; false when a sample falls off
    /// the image.
    fn measure(
        &mut self,
        grey: &GrayImage,
        located: &Located,
        levels: Levels,
        (u, v): (f32, f32),
        vertical: bool,
    ) -> bool {
        self.kept.clear();
        self.kept.extend((0..ANGLES).filter(|&k| {
            let (s, c) = angle(k);
            let along = if vertical { s } else { c };
            along.abs() < OFF_LINE_COS
        }));
        self.dark.clear();
        for &rho in &RADII {
            let mut ring = [0.0; ANGLES];
            for &k in &self.kept {
                let (s, c) = angle(k);
                match sample(grey, located, u + rho * c, v + rho * s) {
                    Some(g) => ring[k] = levels.darkness(g),
                    None => return false,
                }
            }
            self.dark.push(ring);
        }
        true
    }

    /// Whether there is ink around the midpoint, off its grid line, that
    /// a letter could be made of ([`LETTER_MIN_INK`]).
    /// `clearance` is how far from the line (in cells) a sample must lie
    /// to count: a thick or blurred line's own ink does not.
    fn inked(&self, vertical: bool, clearance: f32) -> bool {
        let off_line = |j: usize, k: usize| {
            let (s, c) = angle(k);
            let across = if vertical { c } else { s };
            (if vertical { s } else { c }).abs() < LETTER_OFF_LINE_COS
                && RADII[j] * across.abs() > clearance
        };
        let count = INK_AROUND
            .flat_map(|j| self.kept.iter().map(move |&k| (j, k)))
            .filter(|&(j, k)| off_line(j, k) && self.dark[j][k] >= INK)
            .count();
        count >= LETTER_MIN_INK
    }

    /// The median darkness over the kept angles at radius `j`.
    fn median(&mut self, j: usize) -> f32 {
        self.scratch.clear();
        self.scratch
            .extend(self.kept.iter().map(|&k| self.dark[j][k]));
        median_of(&mut self.scratch).unwrap_or(0.0)
    }

    /// The least darkness over the kept angles at radius `j`, each angle
    /// taking its darkest of `j` and its neighbouring radii (a ring a
    /// pixel out of round, or between two radii sampled).
    fn closed(&self, j: usize) -> f32 {
        let lo = j.saturating_sub(1);
        let hi = (j + 1).min(RADII.len() - 1);
        self.kept
            .iter()
            .map(|&k| (lo..=hi).map(|i| self.dark[i][k]).fold(f32::MIN, f32::max))
            .fold(f32::MAX, f32::min)
    }

    /// A filled dot's confidence: dark all round in its core, and paper
    /// on every angle somewhere beyond it (a dot is round; a line through
    /// the edge stays dark along itself).
    fn filled(&mut self) -> Option<f32> {
        let core = FILLED_CORE
            .map(|j| self.closed_exact(j))
            .fold(f32::MAX, f32::min);
        if core < INK {
            return None;
        }
        let outside = (FILLED_CORE.end() + 1..RADII.len())
            .map(|j| self.darkest(j))
            .fold(f32::MAX, f32::min);
        if outside > PAPER {
            return None;
        }
        // Where the dot ends on each angle: the first radius past the
        // core half way from ink to paper.
        let half = (INK + PAPER) / 2.0;
        let (mut lo, mut hi) = (usize::MAX, 0);
        for &k in &self.kept {
            let end = (FILLED_CORE.end() + 1..RADII.len()).find(|&j| self.dark[j][k] <= half)?;
            (lo, hi) = (lo.min(end), hi.max(end));
        }
        if hi - lo > ROUND_SPREAD {
            return None;
        }
        Some(margin(core, outside))
    }

    /// The greatest darkness over the kept angles at radius `j`.
    fn darkest(&self, j: usize) -> f32 {
        self.kept
            .iter()
            .map(|&k| self.dark[j][k])
            .fold(f32::MIN, f32::max)
    }

    /// The least darkness over the kept angles at radius `j` exactly.
    fn closed_exact(&self, j: usize) -> f32 {
        self.kept
            .iter()
            .map(|&k| self.dark[j][k])
            .fold(f32::MAX, f32::min)
    }

    /// A hollow dot's confidence: the most closed ring within
    /// [`RING_RADII`] with paper inside and outside it.
    fn hollow(&mut self) -> Option<f32> {
        let mut best: Option<f32> = None;
        for j in RING_RADII {
            let ring = self.closed(j);
            if ring < INK {
                continue;
            }
            let inside = (*FILLED_CORE.start()..=j.saturating_sub(RING_CLEARANCE))
                .map(|i| self.median(i))
                .fold(f32::MIN, f32::max);
            let outside_at = j + RING_CLEARANCE;
            if outside_at >= RADII.len() {
                continue;
            }
            let outside = self.darkest(outside_at);
            let paper = inside.max(outside);
            if paper > PAPER {
                continue;
            }
            let m = margin(ring, paper);
            best = Some(best.map_or(m, |b: f32| b.max(m)));
        }
        best
    }
}

/// The half-heights of the letters X and V tried, in cells, measured
/// between the ends of the strokes' middle lines: a web player's capitals
/// are about 0.12 to 0.13 (a letter 0.25 of a cell tall), its small x
/// about 0.08; print's range from about 0.06 to 0.2.
const LETTER_HALF_HEIGHTS: [f32; 15] = [
    0.06, 0.07, 0.08, 0.09, 0.10, 0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.17, 0.18, 0.19, 0.20,
];

/// A letter's half-width as a share of its half-height, between the
/// strokes' middle lines: X and V in the common sans fonts measure about
/// 0.7 (the outer width, about 0.85 of the height, counts the strokes'
/// thickness).
const LETTER_ASPECT: f32 = 0.7;

/// Points sampled along each stroke, and where along it (a share of its
/// length from each end) sampling starts: a stroke's ends are rounded or
/// cut at an angle.
const STROKE_POINTS: usize = 9;
const STROKE_INSET: f32 = 0.1;

/// Darkness a letter's strokes reach (at [`STROKE_QUANTILE`]): the
/// letters are printed in the digits' ink, darker than most pages' thin
/// grid lines (the web player's letters measure 1.3 to 1.7, a killer's
/// dashed outline beside a box line, taken for strokes, about 0.55).
const STROKE_INK: f32 = 0.7;

/// How far beside each stroke point (in cells, across: left and right)
/// the stroke's ink is also looked for: a stroke two or three pixels thick
/// in a letter a pixel off the sizes and places tried.
const STROKE_TOLERANCE: f32 = 0.015;

/// Least number of a stroke's samples off the grid line for a letter to
/// be judged: a third of them. A thick box line hides the middle of both
/// letters' strokes.
const MIN_STROKE_SAMPLES: usize = 3;

/// Samples closer than this to the edge's grid line (in cells), beyond
/// the line's half-width as measured, are not taken: the line's ink (and
/// its blur) is there whatever the letter.
const LINE_CLEARANCE: f32 = 0.015;

/// Where along the edge its line's width is measured, in cells from the
/// midpoint either way: clear of a letter there.
const WIDTH_ALONG: f32 = 0.3;

/// The steps across the line its half-width is measured in, in cells,
/// and how far out: a box line in print is up to about a tenth of a cell
/// wide.
const WIDTH_STEP: f32 = 0.005;
const WIDTH_MAX: f32 = 0.08;

/// How many [`WIDTH_STEP`]s from the edge's place its line's ink is looked
/// for.
const LINE_SEEK: i32 = 4;

/// The share of a stroke's samples that may be lighter than [`INK`]: a
/// stroke's darkness is taken at this quantile (a thin stroke's samples
/// fall a little beside it at sizes between those tried).
const STROKE_QUANTILE: f32 = 0.2;

/// The letters: the sum each makes and its two strokes (from, to), in
/// units of the half-width (x, right) and half-height (y, down) from the
/// letter's centre.
type Stroke = ((f32, f32), (f32, f32));
const LETTERS: [(u32, [Stroke; 2]); 2] = [
    (10, [((-1.0, -1.0), (1.0, 1.0)), ((1.0, -1.0), (-1.0, 1.0))]),
    (5, [((-1.0, -1.0), (0.0, 1.0)), ((1.0, -1.0), (0.0, 1.0))]),
];

/// The paper inside a letter's box is sampled on a grid of this many
/// points a side, over the box, at the points clear of both strokes.
const BOX_GRID: usize = 7;

/// How far from a stroke's middle line a box point must be to count as
/// paper, in cells, at least: a stroke's half-thickness and its blur.
const STROKE_CLEAR: f32 = 0.03;

/// ... and as a share of the letter's half-width, for the larger letters
/// with thicker strokes.
const STROKE_CLEAR_SHARE: f32 = 0.3;

/// The rows through a letter's stroke ends that are paper, each as its
/// height and the stretch of it (both sides of the centre), in the units
/// of [`LETTERS`]: X's between its arms, top and bottom; V's between its
/// arms at the top, and beside its foot at the bottom.
const X_ROWS: [(f32, f32, f32); 2] = [(-0.8, 0.0, 0.45), (0.8, 0.0, 0.45)];
const V_ROWS: [(f32, f32, f32); 2] = [(-0.8, 0.0, 0.45), (0.8, 0.5, 1.2)];

/// Points sampled along each half of such a row.
const ROW_POINTS: usize = 8;

/// Beyond each stroke's end, along the edge (up or down a vertical one,
/// left or right of a horizontal one), the stretch that is paper, in the
/// letter's half-heights (half-widths): from, to.
const END_CLEAR: (f32, f32) = (0.3, 0.8);

/// The ring of points around a letter that is paper (a line drawn through
/// the edge, a cage's outline, or another mark beside it is ink there):
/// this many points, at this many half-widths and half-heights from the
/// letter's centre.
const RING_POINTS: usize = 12;
const RING_SCALE: f32 = 1.4;

/// The share of the ring's points around a letter that may be darker
/// than [`PAPER`]: its paper is taken at this quantile, for a JPEG's
/// ringing and a stroke's end a little longer than the letter's box.
/// Between the strokes every point must be paper: two dotted lines beside
/// the edge (a killer's cages) can pass for the ends of strokes, never for
/// the paper between them.
const PAPER_QUANTILE: f32 = 0.9;

/// Where the letter's centre may lie from the edge's midpoint, up or
/// down, in cells: a font's letters sit a little off the line they are
/// centred on (a web player's X is about 0.02 of a cell above it).
const LETTER_SHIFTS: [f32; 5] = [-0.03, -0.015, 0.0, 0.015, 0.03];

/// Least number of samples of [`Profile`] off the grid line (30 degrees
/// or more) and between [`INK_AROUND`]'s radii that are ink, for a letter
/// to be looked for: the strokes of either letter cross the circles many
/// times; an edge with nothing on it is skipped at no further cost.
const LETTER_MIN_INK: usize = 4;

/// The angles counted by [`LETTER_MIN_INK`]: 30 degrees or more off the
/// grid line (as the cosine of the angle between them), where a thin line
/// is clear of the circles from [`INK_AROUND`]'s least radius out.
const LETTER_OFF_LINE_COS: f32 = 0.866;

/// The radii (indices into [`RADII`]) counted by [`LETTER_MIN_INK`].
const INK_AROUND: std::ops::RangeInclusive<usize> = 3..=10;

/// The letter X or V centred on the edge midpoint `(u, v)` (canvas units)
/// whose grid line runs `vertical`ly or not, samples nearer than
/// `clearance` to the line left out: its sum and confidence, the
/// best over the sizes tried, or `None` when no letter's strokes are ink
/// with paper between them.
fn letter(
    grey: &GrayImage,
    located: &Located,
    levels: Levels,
    (u, v): (f32, f32),
    vertical: bool,
    clearance: f32,
    scratch: &mut Vec<f32>,
) -> Option<(u32, f32)> {
    let mut best: Option<(u32, f32)> = None;
    for (&h, &shift) in LETTER_HALF_HEIGHTS
        .iter()
        .flat_map(|h| LETTER_SHIFTS.iter().map(move |s| (h, s)))
    {
        let w = h * LETTER_ASPECT;
        // A sample at (x, y) from the letter's centre: `None` when off the
        // image, `Some(None)` when on the grid line.
        let dark = |x: f32, y: f32| {
            let y = y + shift;
            let off_line = if vertical { x.abs() } else { y.abs() };
            if off_line < clearance {
                return Some(None);
            }
            sample(grey, located, u + x, v + y).map(|g| Some(levels.darkness(g)))
        };
        for (sum, strokes) in &LETTERS {
            // Each stroke dark along most of its length off the line.
            let mut stroke = f32::MAX;
            for &((x0, y0), (x1, y1)) in strokes {
                scratch.clear();
                for i in 0..STROKE_POINTS {
                    let t = STROKE_INSET
                        + (1.0 - 2.0 * STROKE_INSET) * i as f32 / (STROKE_POINTS - 1) as f32;
                    let (x, y) = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t);
                    // The darkest of the point and its neighbours across
                    // the stroke: a thin stroke a pixel beside the point.
                    let mut best = None;
                    for dx in [-STROKE_TOLERANCE, 0.0, STROKE_TOLERANCE] {
                        if let Some(d) = dark(x * w + dx, y * h)? {
                            best = Some(best.map_or(d, |b: f32| b.max(d)));
                        }
                    }
                    if let Some(d) = best {
                        scratch.push(d);
                    }
                }
                stroke = if scratch.len() < MIN_STROKE_SAMPLES {
                    f32::MIN
                } else {
                    stroke.min(quantile(scratch, STROKE_QUANTILE))
                };
            }
            if stroke < STROKE_INK {
                continue;
            }
            // Paper between the strokes, every sample of it.
            let clear = STROKE_CLEAR.max(STROKE_CLEAR_SHARE * w);
            let mut inside = f32::MIN;
            for i in 0..BOX_GRID * BOX_GRID {
                let step = |n: usize| -1.0 + 2.0 * n as f32 / (BOX_GRID - 1) as f32;
                let (x, y) = (step(i % BOX_GRID) * w, step(i / BOX_GRID) * h);
                let near = strokes.iter().any(|&((x0, y0), (x1, y1))| {
                    segment_distance((x, y), (x0 * w, y0 * h), (x1 * w, y1 * h)) < clear
                });
                if !near && let Some(d) = dark(x, y)? {
                    inside = inside.max(d);
                }
            }
            // Paper along the rows through the strokes' ends, densely
            // sampled: between X's arms and V's top ones, beside V's
            // foot. Straight lines beside the edge that pass for the
            // strokes' ends are ink somewhere along these rows.
            for &(y, from, to) in if *sum == 10 { &X_ROWS[..] } else { &V_ROWS[..] } {
                for i in 0..=ROW_POINTS {
                    let x = from + (to - from) * i as f32 / ROW_POINTS as f32;
                    for side in [-1.0, 1.0] {
                        if let Some(d) = dark(side * x * w, y * h)? {
                            inside = inside.max(d);
                        }
                    }
                }
            }
            // Paper beyond each stroke's end, along the edge: a line beside
            // the edge and parallel to it runs on past the letter.
            for &((x0, y0), (x1, y1)) in strokes {
                for (ex, ey) in [(x0, y0), (x1, y1)] {
                    for i in 0..=ROW_POINTS {
                        let out = END_CLEAR.0
                            + (END_CLEAR.1 - END_CLEAR.0) * i as f32 / ROW_POINTS as f32;
                        let (x, y) = if vertical {
                            (ex * w, (ey + ey.signum() * out) * h)
                        } else {
                            ((ex + ex.signum() * out) * w, ey * h)
                        };
                        if ex == 0.0 && !vertical {
                            // V's foot: beside it on both sides.
                            for side in [-1.0, 1.0] {
                                if let Some(d) = dark(side * out * w, y)? {
                                    inside = inside.max(d);
                                }
                            }
                        } else if let Some(d) = dark(x, y)? {
                            inside = inside.max(d);
                        }
                    }
                }
            }
            // And paper all round the letter, nearly every sample.
            scratch.clear();
            for k in 0..RING_POINTS {
                let (sin, cos) = (k as f32 * std::f32::consts::TAU / RING_POINTS as f32).sin_cos();
                if let Some(d) = dark(RING_SCALE * w * cos, RING_SCALE * h * sin)? {
                    scratch.push(d);
                }
            }
            let around = if scratch.is_empty() {
                f32::MIN
            } else {
                quantile(scratch, PAPER_QUANTILE)
            };
            let paper = inside.max(around);
            if paper > PAPER {
                continue;
            }
            let m = margin(
                stroke.min(STROKE_INK + (1.0 - INK)) - (STROKE_INK - INK),
                paper,
            );
            if best.is_none_or(|(_, b)| m > b) {
                best = Some((*sum, m));
            }
        }
    }
    best
}

/// The value at quantile `q` (0..=1) of `values`, reordering them.
fn quantile(values: &mut [f32], q: f32) -> f32 {
    let at = ((values.len() - 1) as f32 * q) as usize;
    *values.select_nth_unstable_by(at, f32::total_cmp).1
}

/// The distance from point `p` to the segment from `a` to `b`.
fn segment_distance(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p.0 - a.0 - t * dx).hypot(p.1 - a.1 - t * dy)
}

/// The half-width of the grid line of the edge with midpoint `(u, v)`,
/// in cells: how far from the edge's place the line's ink reaches, in one
/// run of ink across the place (a refined line may lie a pixel beside
/// it), the greater of two places along the edge, [`WIDTH_ALONG`] from
/// the midpoint.
fn line_half_width(
    grey: &GrayImage,
    located: &Located,
    levels: Levels,
    (u, v): (f32, f32),
    vertical: bool,
) -> f32 {
    let steps = (WIDTH_MAX / WIDTH_STEP) as i32;
    let reach = |along: f32| {
        let ink = |i: i32| {
            let d = i as f32 * WIDTH_STEP;
            let (x, y) = if vertical {
                (u + d, v + along)
            } else {
                (u + along, v + d)
            };
            sample(grey, located, x, y).is_some_and(|g| levels.darkness(g) >= INK)
        };
        // The ink nearest the place, within a few steps of it.
        let Some(start) = (0..=LINE_SEEK).flat_map(|i| [i, -i]).find(|&i| ink(i)) else {
            return 0.0;
        };
        let lo = (-steps..start)
            .rev()
            .take_while(|&i| ink(i))
            .last()
            .unwrap_or(start);
        let hi = (start + 1..=steps)
            .take_while(|&i| ink(i))
            .last()
            .unwrap_or(start);
        (lo.abs().max(hi.abs()) as f32) * WIDTH_STEP
    };
    reach(-WIDTH_ALONG).max(reach(WIDTH_ALONG))
}

/// The rays from an edge's midpoint that [`any_ink`] looks along, as
/// angles from across the edge (degrees, both sides): straight across,
/// which a dot or a ring crosses, and 45 degrees off, which X's and V's
/// strokes cross too.
const QUICK_RAYS: [f32; 3] = [0.0, 45.0, -45.0];

/// The radii sampled along each ray, in cells: every [`QUICK_STEP`] out to
/// [`QUICK_REACH`], finer than a ring's width.
const QUICK_STEP: f32 = 0.02;
const QUICK_REACH: f32 = 0.22;

/// How far from the edge's line a sample must lie, across it, to count
/// (in cells): off a thin line's ink.
const QUICK_OFF_LINE: f32 = 0.02;

/// Whether there is any ink near the midpoint `(u, v)` of an edge whose
/// line runs `vertical`ly, off the line: a few dozen samples that spare
/// the full measure of the edges with nothing on them (most of them).
fn any_ink(
    grey: &GrayImage,
    located: &Located,
    levels: Levels,
    (u, v): (f32, f32),
    vertical: bool,
) -> bool {
    let steps = (QUICK_REACH / QUICK_STEP).round() as usize;
    for side in [-1.0f32, 1.0] {
        for ray in QUICK_RAYS {
            let (s, c) = ray.to_radians().sin_cos();
            for i in 1..=steps {
                let rho = i as f32 * QUICK_STEP;
                let (across, along) = (side * rho * c, rho * s);
                if across.abs() < QUICK_OFF_LINE {
                    continue;
                }
                let (x, y) = if vertical {
                    (u + across, v + along)
                } else {
                    (u + along, v + across)
                };
                if sample(grey, located, x, y).is_some_and(|g| levels.darkness(g) >= INK) {
                    return true;
                }
            }
        }
    }
    false
}

/// The sine and cosine of the `k`th of [`ANGLES`] angles.
fn angle(k: usize) -> (f32, f32) {
    (k as f32 * std::f32::consts::TAU / ANGLES as f32).sin_cos()
}

/// How clear of the thresholds an ink level `ink` and a paper level
/// `paper` are, 0..=1: 0 when either sits at its threshold.
fn margin(ink: f32, paper: f32) -> f32 {
    let ink_margin = (ink - INK) / (1.0 - INK);
    let paper_margin = (PAPER - paper) / PAPER;
    ink_margin.min(paper_margin).clamp(0.0, 1.0)
}
