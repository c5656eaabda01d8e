//! Variant rules drawn as players know them from f-puzzles and SudokuPad:
//! diagonals as thin lines, extra regions shaded, odd and even cells as
//! grey circles and squares, kropki dots and X / V on the edge between
//! their cells, comparison signs pointing to the smaller cell, thermometers
//! with their bulb, arrows with their circle, coloured lines (whispers,
//! renban, palindrome, between, region sum), little killer and sandwich
//! clues outside the grid. Rules over the whole grid (anti-knight, ...)
//! have no mark: [`caption`] names them.
//!
//! As with [`super::cage_outline`], the geometry is plain data in grid coordinates
//! (x a column, y a row; the cell at row `r`, column `c` spans `c..c + 1`
//! by `r..r + 1`): [`rule_shapes`] gives it, so that the app can paint it
//! with its own painter. Here it is rasterised through a map from grid
//! coordinates to image pixels: the clean grid's scale and margin
//! ([`super::render_grid`]), or the located grid's homography and refined
//! lines on a photo ([`draw_rules`]).
//!
//! ## Cost
//!
//! Every shape is a distance field in grid coordinates. Its image bounding
//! box is walked in blocks of [`BLOCK`] pixels; a block whose centre lies
//! farther from the shape than the block's own radius is skipped with one
//! distance, so a diagonal across a 12-megapixel photo costs about its own
//! area, not its bounding box's. Each pixel kept costs one projective map
//! back into the grid and one distance; nothing is allocated per pixel.

use ab_glyph::FontRef;
use image::Rgba;

use super::cage_outline::{CAGE_DASH, CAGE_GAP, CAGE_INSET, cage_outline, dashes};
use super::stamp::{Stamp, blend};
use super::{Canvas, FONT, Options, Paintable, Palette, PixelRect, background_luma};
use crate::grid::{Diagonal, Direction, Layout, Mark, Place, Rule, diagonal_cells};
use crate::vision::locate::Located;
use crate::vision::page::homography::Homography;

/// Width of a diagonal, as a fraction of a cell: a thin line that the
/// digits it crosses stay clear of.
pub const DIAGONAL_WIDTH: f32 = 0.035;

/// Width of a thermometer's tube: about a third of the cell, as SudokuPad
/// draws it, narrower than a digit is wide.
pub const THERMO_WIDTH: f32 = 0.3;

/// Radius of a thermometer's bulb: most of the cell, so that the bulb
/// reads as a bulb around the digit, not as a thick line's end.
pub const BULB_RADIUS: f32 = 0.38;

/// Width of whispers, renban, palindrome and region sum lines: thick
/// enough to show its colour beside a digit, thinner than a thermometer.
pub const COLOURED_LINE_WIDTH: f32 = 0.18;

/// Width of an arrow's line and of its circle's ring: thin, as printed.
pub const ARROW_WIDTH: f32 = 0.045;

/// Radius of an arrow's circle around its cell: a digit fits inside with
/// room to spare, and the ring stays inside the cell.
pub const ARROW_RING_RADIUS: f32 = 0.4;

/// Length of each side of an arrowhead: about a quarter of a cell, seen
/// without covering the last cell's digit.
pub const ARROW_HEAD: f32 = 0.22;

/// Half the angle of an arrowhead, in radians (about 35 degrees).
pub const ARROW_HEAD_ANGLE: f32 = 0.61;

/// Width of a between line: thin, its end circles carry the rule.
pub const BETWEEN_WIDTH: f32 = 0.06;

/// Radius of a between line's end circles: as an arrow's circle.
pub const BETWEEN_RING_RADIUS: f32 = 0.38;

/// Width of a between line's end circles' ring.
pub const BETWEEN_RING_WIDTH: f32 = 0.05;

/// Radius of an odd cell's circle: large, the digit sits inside it.
pub const ODD_RADIUS: f32 = 0.37;

/// Half the side of an even cell's square: as large as the odd circle
/// looks, so both read as the same kind of mark.
pub const EVEN_HALF: f32 = 0.33;

/// Radius of a kropki dot: small enough to sit on the edge between two
/// digits without touching them.
pub const DOT_RADIUS: f32 = 0.12;

/// Width of a white dot's ring.
pub const DOT_RING_WIDTH: f32 = 0.03;

/// Height of an X or V (or another sum) on its edge: smaller than a
/// digit, larger than a cage's sum, so the letter is read first.
pub const XV_HEIGHT: f32 = 0.3;

/// Radius of the paper under an X or V, covering the grid line it sits
/// on, as printed.
pub const XV_PLATE: f32 = 0.17;

/// Half the length of a comparison sign along the edge's normal.
pub const SIGN_HALF: f32 = 0.08;

/// Half the opening of a comparison sign, along the edge.
pub const SIGN_SPREAD: f32 = 0.12;

/// Width of a comparison sign's strokes.
pub const SIGN_WIDTH: f32 = 0.04;

/// Height of an outside clue's digits (little killer, sandwich): as a
/// given's, for it is read as one.
pub const CLUE_HEIGHT: f32 = 0.4;

/// Where a little killer's arrow starts and ends, from the clue place's
/// centre along its direction, in cells (along each axis): in the corner
/// the diagonal leaves from, clear of the sum.
pub const LITTLE_KILLER_ARROW: [f32; 2] = [0.24, 0.46];

/// How far a little killer's sum moves away from its arrow, in cells along
/// each axis.
pub const LITTLE_KILLER_SHIFT: f32 = 0.08;

/// Width of a little killer's arrow.
pub const LITTLE_KILLER_WIDTH: f32 = 0.035;

/// Length of a little killer's arrowhead sides.
pub const LITTLE_KILLER_HEAD: f32 = 0.1;

/// Width of a sumless cage's dashes: as a killer cage's in the clean grid.
pub const CAGE_LINE_WIDTH: f32 = 1.0 / 40.0;

/// Height of the caption's letters (its digits' height), as a fraction of
/// a cell: smaller than the givens, read at a glance.
pub const CAPTION_HEIGHT: f32 = 0.28;

/// One caption line's height, as a fraction of a cell: letters and the
/// space between lines.
pub const CAPTION_LINE: f32 = 0.5;

/// Side of the pixel blocks a shape's bounding box is walked in: small
/// enough to skip most pixels of a long diagonal, large enough that the
/// per-block test costs little.
pub const BLOCK: u32 = 16;

/// How much a block's radius is stretched in the test that skips it: a
/// photo's perspective changes the scale within a block a little.
const BLOCK_SLACK: f32 = 1.5;

/// Alpha of a photo's lines and shading: translucent, so that the print
/// under them (a given, the printed lines) stays visible.
pub const PHOTO_ALPHA: u8 = 150;

/// Alpha of a photo's shading of extra regions: lighter than its lines, a
/// tint over the paper.
pub const PHOTO_SHADE_ALPHA: u8 = 90;

/// Colours of the rules' marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inks {
    /// Extra regions' shading.
    pub shade: Rgba<u8>,
    /// Diagonals.
    pub diagonal: Rgba<u8>,
    /// Thermometers.
    pub thermo: Rgba<u8>,
    /// Odd circles and even squares.
    pub parity: Rgba<u8>,
    /// German whispers.
    pub whispers: Rgba<u8>,
    /// Renban lines.
    pub renban: Rgba<u8>,
    /// Palindromes.
    pub palindrome: Rgba<u8>,
    /// Between lines and their circles.
    pub between: Rgba<u8>,
    /// Region sum lines.
    pub region_sum: Rgba<u8>,
    /// Arrows and their circles.
    pub arrow: Rgba<u8>,
    /// Black dots, white dots' rings, comparison signs, sumless cages.
    pub mark: Rgba<u8>,
    /// White dots' fill and the paper under an X or V; alpha 0 for none.
    pub paper: Rgba<u8>,
    /// X, V, outside clues, the caption.
    pub text: Rgba<u8>,
}

impl Inks {
    /// On light paper: SudokuPad's greys, green whispers, pink renban,
    /// blue region sums.
    pub const LIGHT: Inks = Inks {
        shade: Rgba([222, 222, 222, 255]),
        diagonal: Rgba([130, 170, 225, 255]),
        thermo: Rgba([205, 205, 205, 255]),
        parity: Rgba([215, 215, 215, 255]),
        whispers: Rgba([100, 205, 100, 255]),
        renban: Rgba([235, 130, 235, 255]),
        palindrome: Rgba([175, 175, 175, 255]),
        between: Rgba([160, 160, 160, 255]),
        region_sum: Rgba([90, 150, 245, 255]),
        arrow: Rgba([150, 150, 150, 255]),
        mark: Rgba([25, 25, 25, 255]),
        paper: Rgba([255, 255, 255, 255]),
        text: Rgba([25, 25, 25, 255]),
    };

    /// On dark paper: the same hues, darker greys that stay behind light
    /// digits.
    pub const DARK: Inks = Inks {
        shade: Rgba([58, 58, 64, 255]),
        diagonal: Rgba([80, 120, 180, 255]),
        thermo: Rgba([85, 85, 90, 255]),
        parity: Rgba([75, 75, 80, 255]),
        whispers: Rgba([50, 140, 60, 255]),
        renban: Rgba([160, 70, 160, 255]),
        palindrome: Rgba([100, 100, 105, 255]),
        between: Rgba([130, 130, 135, 255]),
        region_sum: Rgba([60, 100, 190, 255]),
        arrow: Rgba([150, 150, 155, 255]),
        mark: Rgba([225, 225, 225, 255]),
        paper: Rgba([28, 28, 30, 255]),
        text: Rgba([230, 230, 230, 255]),
    };

    /// [`Inks::LIGHT`] on paper of luma 128 or more, else [`Inks::DARK`].
    pub fn for_paper(paper: Rgba<u8>) -> Inks {
        let [r, g, b, _] = paper.0;
        let luma = (299 * r as u32 + 587 * g as u32 + 114 * b as u32) / 1000;
        if luma >= 128 { Inks::LIGHT } else { Inks::DARK }
    }

    /// These inks for a photo: lines and shading translucent over the
    /// print ([`PHOTO_ALPHA`], [`PHOTO_SHADE_ALPHA`]), no paper under X / V
    /// (the photo's own paper is there); dots and letters stay opaque.
    pub fn for_photo(self) -> Inks {
        let a = |c: Rgba<u8>, alpha: u8| Rgba([c[0], c[1], c[2], alpha]);
        Inks {
            shade: a(self.shade, PHOTO_SHADE_ALPHA),
            diagonal: a(self.diagonal, PHOTO_ALPHA),
            thermo: a(self.thermo, PHOTO_ALPHA),
            parity: a(self.parity, PHOTO_ALPHA),
            whispers: a(self.whispers, PHOTO_ALPHA),
            renban: a(self.renban, PHOTO_ALPHA),
            palindrome: a(self.palindrome, PHOTO_ALPHA),
            between: a(self.between, PHOTO_ALPHA),
            region_sum: a(self.region_sum, PHOTO_ALPHA),
            arrow: a(self.arrow, PHOTO_ALPHA),
            paper: a(self.paper, 0),
            ..self
        }
    }
}

/// A point in grid coordinates.
pub type Point = [f32; 2];

/// One mark of a rule, in grid coordinates, in its colour.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Cells shaded (an extra region): the union of the unit squares whose
    /// top-left corners are `corners`. Drawn under the grid lines.
    Cells {
        corners: Vec<Point>,
        colour: Rgba<u8>,
    },
    /// A line through `points`, `width` wide, with round ends and joins
    /// (one point: a disc `width` across), and a disc of radius `bulb` on
    /// its first point (0 for none).
    Line {
        points: Vec<Point>,
        width: f32,
        bulb: f32,
        colour: Rgba<u8>,
    },
    /// The outline, `width` wide, of the band `radius` around the line
    /// through `points`: a circle around one point, a rounded pill around
    /// two or more.
    Ring {
        points: Vec<Point>,
        radius: f32,
        width: f32,
        colour: Rgba<u8>,
    },
    /// A filled square, `half` from its centre to each side.
    Square {
        centre: Point,
        half: f32,
        colour: Rgba<u8>,
    },
    /// Text on one line, centred on `centre`, its digits `height` tall.
    Text {
        centre: Point,
        height: f32,
        text: String,
        colour: Rgba<u8>,
    },
}

impl Shape {
    /// The shape's colour.
    pub fn colour(&self) -> Rgba<u8> {
        match self {
            Shape::Cells { colour, .. }
            | Shape::Line { colour, .. }
            | Shape::Ring { colour, .. }
            | Shape::Square { colour, .. }
            | Shape::Text { colour, .. } => *colour,
        }
    }

    /// Signed distance from `p` to the shape's ink, in cells (negative
    /// inside); never more than the true distance, so that a block farther
    /// than its radius holds no ink. `None` for text.
    fn distance(&self, p: Point) -> Option<f32> {
        Some(match self {
            Shape::Cells { corners, .. } => corners
                .iter()
                .map(|c| {
                    let dx = (p[0] - c[0] - 0.5).abs();
                    let dy = (p[1] - c[1] - 0.5).abs();
                    dx.max(dy) - 0.5
                })
                .fold(f32::INFINITY, f32::min),
            Shape::Line {
                points,
                width,
                bulb,
                ..
            } => {
                let line = polyline_distance(points, p) - width / 2.0;
                match points.first() {
                    Some(&first) if *bulb > 0.0 => line.min(dist(first, p) - bulb),
                    _ => line,
                }
            }
            Shape::Ring {
                points,
                radius,
                width,
                ..
            } => (polyline_distance(points, p) - radius).abs() - width / 2.0,
            Shape::Square { centre, half, .. } => {
                (p[0] - centre[0]).abs().max((p[1] - centre[1]).abs()) - half
            }
            Shape::Text { .. } => return None,
        })
    }

    /// The grid-coordinate box holding the shape's ink (text excepted):
    /// `[min, max]`.
    fn bounds(&self) -> Option<[Point; 2]> {
        let grow = |pts: &mut dyn Iterator<Item = Point>, by: f32| {
            let mut lo = [f32::INFINITY; 2];
            let mut hi = [f32::NEG_INFINITY; 2];
            for p in pts {
                lo = [lo[0].min(p[0]), lo[1].min(p[1])];
                hi = [hi[0].max(p[0]), hi[1].max(p[1])];
            }
            (lo[0] <= hi[0] && lo[1] <= hi[1])
                .then_some([[lo[0] - by, lo[1] - by], [hi[0] + by, hi[1] + by]])
        };
        match self {
            Shape::Cells { corners, .. } => {
                let b = grow(&mut corners.iter().copied(), 0.0)?;
                Some([b[0], [b[1][0] + 1.0, b[1][1] + 1.0]])
            }
            Shape::Line {
                points,
                width,
                bulb,
                ..
            } => grow(&mut points.iter().copied(), (width / 2.0).max(*bulb)),
            Shape::Ring {
                points,
                radius,
                width,
                ..
            } => grow(&mut points.iter().copied(), radius + width / 2.0),
            Shape::Square { centre, half, .. } => grow(&mut std::iter::once(*centre), *half),
            Shape::Text { .. } => None,
        }
    }
}

fn dist(a: Point, b: Point) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// Distance from `p` to the line through `points` (one point: to it; none:
/// infinite).
fn polyline_distance(points: &[Point], p: Point) -> f32 {
    match points {
        [] => f32::INFINITY,
        [a] => dist(*a, p),
        _ => points
            .windows(2)
            .map(|w| {
                let (a, b) = (w[0], w[1]);
                let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
                let len2 = dx * dx + dy * dy;
                let t = if len2 > 0.0 {
                    (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                dist([a[0] + t * dx, a[1] + t * dy], p)
            })
            .fold(f32::INFINITY, f32::min),
    }
}

/// Whether the rule's clue stands outside the grid (little killer,
/// sandwich): a clean render then grows a margin of one cell.
pub fn is_outside_clue(rule: &Rule) -> bool {
    matches!(rule, Rule::LittleKiller { .. } | Rule::Sandwich { .. })
}

/// The names of the rules without marks (those over the whole grid), in
/// the order given, each once: "Anti-knight", "Non-consecutive", ...
pub fn caption(rules: &[Rule]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for rule in rules {
        let name = match rule {
            Rule::AntiKnight => "Anti-knight",
            Rule::AntiKing => "Anti-king",
            Rule::NonConsecutive => "Non-consecutive",
            Rule::DisjointGroups => "Disjoint groups",
            Rule::AllGiven(Mark::Difference) => "All white dots given",
            Rule::AllGiven(Mark::Ratio) => "All black dots given",
            Rule::AllGiven(Mark::Xv) => "All X and V given",
            _ => continue,
        };
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The centre of `cell` in grid coordinates; `None` for a cell the layout
/// does not have.
fn centre(layout: &Layout, cell: u32) -> Option<Point> {
    ((cell as usize) < layout.cell_count()).then(|| {
        let (r, c) = layout.position(cell as usize);
        [c as f32 + 0.5, r as f32 + 0.5]
    })
}

fn centres(layout: &Layout, cells: &[u32]) -> Vec<Point> {
    cells.iter().filter_map(|&c| centre(layout, c)).collect()
}

/// `p` moved `by` towards `q` (not past it).
fn towards(p: Point, q: Point, by: f32) -> Point {
    let d = dist(p, q);
    if d <= 0.0 {
        return p;
    }
    let t = (by / d).min(1.0);
    [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]
}

/// The two sides of an arrowhead at `tip`, coming from `from`: points
/// `len` back from the tip, `angle` either side of the shaft.
fn head(from: Point, tip: Point, len: f32, angle: f32) -> [Point; 2] {
    let d = dist(from, tip);
    let (ux, uy) = if d > 0.0 {
        ((tip[0] - from[0]) / d, (tip[1] - from[1]) / d)
    } else {
        (1.0, 0.0)
    };
    let (s, c) = angle.sin_cos();
    let side = |s: f32| {
        [
            tip[0] - len * (ux * c - uy * s),
            tip[1] - len * (uy * c + ux * s),
        ]
    };
    [side(s), side(-s)]
}

/// The marks of `rule` on `layout`, in grid coordinates, in the order they
/// are drawn, in `inks`. Cells the layout does not have are left out; a
/// rule over the whole grid has none (see [`caption`]).
pub fn rule_shapes(layout: &Layout, rule: &Rule, inks: &Inks) -> Vec<Shape> {
    let mut out = Vec::new();
    match rule {
        Rule::Diagonal(d) => diagonal_shapes(layout, *d, inks, &mut out),
        Rule::Region(cells) => region_shapes(layout, cells, inks, &mut out),
        Rule::Distinct(cells) => distinct_shapes(layout, cells, inks, &mut out),
        Rule::Odd(c) => odd_shapes(layout, *c, inks, &mut out),
        Rule::Even(c) => even_shapes(layout, *c, inks, &mut out),
        Rule::Difference { cells, .. } => dot_shapes(layout, *cells, false, inks, &mut out),
        Rule::Ratio { cells, .. } => dot_shapes(layout, *cells, true, inks, &mut out),
        Rule::Xv { cells, sum } => xv_shapes(layout, *cells, *sum, inks, &mut out),
        Rule::Less { cells } => less_shapes(layout, *cells, inks, &mut out),
        Rule::Thermometer(cells) => thermometer_shapes(layout, cells, inks, &mut out),
        Rule::Arrow {
            circle,
            line: cells,
        } => arrow_shapes(layout, circle, cells, inks, &mut out),
        Rule::Whispers { cells, .. } => out.push(coloured_line(layout, cells, inks.whispers)),
        Rule::Renban(cells) => out.push(coloured_line(layout, cells, inks.renban)),
        Rule::Palindrome(cells) => out.push(coloured_line(layout, cells, inks.palindrome)),
        Rule::RegionSum(cells) => out.push(coloured_line(layout, cells, inks.region_sum)),
        Rule::Between(cells) => between_shapes(layout, cells, inks, &mut out),
        Rule::LittleKiller {
            clue,
            direction,
            sum,
        } => little_killer_shapes(*clue, *direction, *sum, inks, &mut out),
        Rule::Sandwich { clue, sum } => out.push(clue_text(*clue, *sum, inks)),
        Rule::DisjointGroups
        | Rule::AntiKnight
        | Rule::AntiKing
        | Rule::NonConsecutive
        | Rule::AllGiven(_) => {}
    }
    out.retain(|s| !matches!(s, Shape::Line { points, .. } if points.is_empty()));
    out
}

/// An extra region: its cells shaded.
fn region_shapes(layout: &Layout, cells: &[u32], inks: &Inks, out: &mut Vec<Shape>) {
    let corners: Vec<Point> = centres(layout, cells)
        .into_iter()
        .map(|[x, y]| [x - 0.5, y - 0.5])
        .collect();
    if !corners.is_empty() {
        out.push(Shape::Cells {
            corners,
            colour: inks.shade,
        });
    }
}

/// A cage without a sum: its outline dashed, as a killer cage's.
fn distinct_shapes(layout: &Layout, cells: &[u32], inks: &Inks, out: &mut Vec<Shape>) {
    let cells: Vec<u32> = cells
        .iter()
        .copied()
        .filter(|&c| (c as usize) < layout.cell_count())
        .collect();
    let outline = cage_outline(layout, &cells, CAGE_INSET);
    for [a, b] in dashes(&outline, CAGE_DASH, CAGE_GAP) {
        out.push(line(vec![a, b], CAGE_LINE_WIDTH, inks.mark));
    }
}

/// An odd cell: a circle on it (a line of one point).
fn odd_shapes(layout: &Layout, cell: u32, inks: &Inks, out: &mut Vec<Shape>) {
    if let Some(p) = centre(layout, cell) {
        out.push(line(vec![p], 2.0 * ODD_RADIUS, inks.parity));
    }
}

/// An even cell: a square on it.
fn even_shapes(layout: &Layout, cell: u32, inks: &Inks, out: &mut Vec<Shape>) {
    if let Some(p) = centre(layout, cell) {
        out.push(Shape::Square {
            centre: p,
            half: EVEN_HALF,
            colour: inks.parity,
        });
    }
}

/// A thermometer: a thick line from a bulb.
fn thermometer_shapes(layout: &Layout, cells: &[u32], inks: &Inks, out: &mut Vec<Shape>) {
    let points = centres(layout, cells);
    if !points.is_empty() {
        out.push(Shape::Line {
            points,
            width: THERMO_WIDTH,
            bulb: BULB_RADIUS,
            colour: inks.thermo,
        });
    }
}

/// A line rule (whispers, renban, palindrome, region sum): a line in its
/// colour through its cells.
fn coloured_line(layout: &Layout, cells: &[u32], colour: Rgba<u8>) -> Shape {
    line(centres(layout, cells), COLOURED_LINE_WIDTH, colour)
}

/// A clue outside the grid (a sandwich's sum), written at its place.
fn clue_text((r, c): Place, sum: u32, inks: &Inks) -> Shape {
    Shape::Text {
        centre: [c as f32 + 0.5, r as f32 + 0.5],
        height: CLUE_HEIGHT,
        text: sum.to_string(),
        colour: inks.text,
    }
}

/// A plain line (no bulb) through `points`; one point is a dot.
fn line(points: Vec<Point>, width: f32, colour: Rgba<u8>) -> Shape {
    Shape::Line {
        points,
        width,
        bulb: 0.0,
        colour,
    }
}

/// A diagonal: one line from corner to corner of its end cells.
fn diagonal_shapes(layout: &Layout, d: Diagonal, inks: &Inks, out: &mut Vec<Shape>) {
    let cells = diagonal_cells(layout, d);
    if let (Some(&a), Some(&b)) = (cells.first(), cells.last()) {
        let (ra, ca) = layout.position(a as usize);
        let (rb, cb) = layout.position(b as usize);
        let (ra, ca, rb, cb) = (ra as f32, ca as f32, rb as f32, cb as f32);
        let ends = match d {
            Diagonal::Main => [[ca, ra], [cb + 1.0, rb + 1.0]],
            Diagonal::Anti => [[ca + 1.0, ra], [cb, rb + 1.0]],
        };
        out.push(line(ends.to_vec(), DIAGONAL_WIDTH, inks.diagonal));
    }
}

/// The middle of the edge between two cells, when the layout has both.
fn between_cells(layout: &Layout, cells: [u32; 2]) -> Option<(Point, Point, Point)> {
    let (a, b) = (centre(layout, cells[0])?, centre(layout, cells[1])?);
    Some((a, b, [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]))
}

/// A dot on the edge of two cells: black (a ratio) filled, white (a
/// difference) a ring on paper.
fn dot_shapes(layout: &Layout, cells: [u32; 2], black: bool, inks: &Inks, out: &mut Vec<Shape>) {
    let Some((_, _, m)) = between_cells(layout, cells) else {
        return;
    };
    if black {
        out.push(line(vec![m], 2.0 * DOT_RADIUS, inks.mark));
    } else {
        if inks.paper[3] > 0 {
            out.push(line(vec![m], 2.0 * DOT_RADIUS, inks.paper));
        }
        out.push(Shape::Ring {
            points: vec![m],
            radius: DOT_RADIUS - DOT_RING_WIDTH / 2.0,
            width: DOT_RING_WIDTH,
            colour: inks.mark,
        });
    }
}

/// An X (10), V (5) or other sum on the edge of two cells, on a plate of
/// paper.
fn xv_shapes(layout: &Layout, cells: [u32; 2], sum: u32, inks: &Inks, out: &mut Vec<Shape>) {
    let Some((_, _, m)) = between_cells(layout, cells) else {
        return;
    };
    if inks.paper[3] > 0 {
        out.push(line(vec![m], 2.0 * XV_PLATE, inks.paper));
    }
    let text = match sum {
        10 => "X".to_string(),
        5 => "V".to_string(),
        s => s.to_string(),
    };
    out.push(Shape::Text {
        centre: m,
        height: XV_HEIGHT,
        text,
        colour: inks.text,
    });
}

/// A comparison sign on the edge of two cells, pointing to the first
/// (smaller) cell.
fn less_shapes(layout: &Layout, cells: [u32; 2], inks: &Inks, out: &mut Vec<Shape>) {
    let Some((a, b, m)) = between_cells(layout, cells) else {
        return;
    };
    let d = dist(a, b);
    if d > 0.0 {
        // Pointing to the first (smaller) cell: the tip towards
        // it, the open side towards the second.
        let (ux, uy) = ((b[0] - a[0]) / d, (b[1] - a[1]) / d);
        let tip = [m[0] - ux * SIGN_HALF, m[1] - uy * SIGN_HALF];
        let back = [m[0] + ux * SIGN_HALF, m[1] + uy * SIGN_HALF];
        let wing = |s: f32| [back[0] - uy * s, back[1] + ux * s];
        out.push(line(
            vec![wing(SIGN_SPREAD), tip, wing(-SIGN_SPREAD)],
            SIGN_WIDTH,
            inks.mark,
        ));
    }
}

/// An arrow: the ring around its circle's cells, and its line from the
/// ring's edge through `cells` to a head.
fn arrow_shapes(layout: &Layout, circle: &[u32], cells: &[u32], inks: &Inks, out: &mut Vec<Shape>) {
    let ring = centres(layout, circle);
    let shaft = centres(layout, cells);
    if !ring.is_empty() {
        out.push(Shape::Ring {
            points: ring.clone(),
            radius: ARROW_RING_RADIUS,
            width: ARROW_WIDTH,
            colour: inks.arrow,
        });
    }
    if let Some(&first) = shaft.first() {
        // From the circle's edge beside the line's first cell.
        let mut points = Vec::with_capacity(shaft.len() + 3);
        let from = ring
            .iter()
            .copied()
            .min_by(|a, b| dist(*a, first).total_cmp(&dist(*b, first)));
        if let Some(c) = from {
            points.push(towards(c, first, ARROW_RING_RADIUS));
        }
        points.extend(&shaft);
        let tip = *points.last().expect("one point at least");
        let back = points.iter().rev().nth(1).copied();
        if let Some(back) = back.filter(|&b| dist(b, tip) > 0.0) {
            let [l, r] = head(back, tip, ARROW_HEAD, ARROW_HEAD_ANGLE);
            points.extend([l, tip, r]);
        }
        out.push(line(points, ARROW_WIDTH, inks.arrow));
    }
}

/// A between line: the line from ring to ring, and a ring on paper at
/// each end.
fn between_shapes(layout: &Layout, cells: &[u32], inks: &Inks, out: &mut Vec<Shape>) {
    let mut points = centres(layout, cells);
    let ends = [points.first().copied(), points.last().copied()];
    // The line stops at the end circles.
    let n = points.len();
    if n >= 2 {
        points[0] = towards(points[0], points[1], BETWEEN_RING_RADIUS);
        points[n - 1] = towards(points[n - 1], points[n - 2], BETWEEN_RING_RADIUS);
        out.push(line(points, BETWEEN_WIDTH, inks.between));
    }
    for end in ends.into_iter().flatten().take(if n >= 2 { 2 } else { 1 }) {
        if inks.paper[3] > 0 {
            out.push(line(vec![end], 2.0 * BETWEEN_RING_RADIUS, inks.paper));
        }
        out.push(Shape::Ring {
            points: vec![end],
            radius: BETWEEN_RING_RADIUS,
            width: BETWEEN_RING_WIDTH,
            colour: inks.between,
        });
    }
}

/// A little killer clue outside the grid: a small arrow along its
/// diagonal, and the sum behind it.
fn little_killer_shapes(
    (r, c): Place,
    direction: Direction,
    sum: u32,
    inks: &Inks,
    out: &mut Vec<Shape>,
) {
    let at = [c as f32 + 0.5, r as f32 + 0.5];
    let (dr, dc) = direction.step();
    let (dx, dy) = (dc as f32, dr as f32);
    let along = |t: f32| [at[0] + dx * t, at[1] + dy * t];
    let (from, tip) = (along(LITTLE_KILLER_ARROW[0]), along(LITTLE_KILLER_ARROW[1]));
    let [l, r] = head(from, tip, LITTLE_KILLER_HEAD, ARROW_HEAD_ANGLE);
    out.push(line(
        vec![from, tip, l, tip, r],
        LITTLE_KILLER_WIDTH,
        inks.text,
    ));
    out.push(Shape::Text {
        centre: along(-LITTLE_KILLER_SHIFT),
        height: CLUE_HEIGHT,
        text: sum.to_string(),
        colour: inks.text,
    });
}

/// Grid coordinates to image pixels (pixel indices, the centre of pixel
/// (0, 0) at (0, 0)) and back: a homography of the canvas, after placing
/// each grid line where it was found (`cols`, `rows`; empty when the lines
/// are evenly spaced).
pub(super) struct GridMap<'a> {
    to_image: Homography,
    to_canvas: [f64; 9],
    cols: &'a [f32],
    rows: &'a [f32],
}

impl<'a> GridMap<'a> {
    /// Through `to_image` (canvas to image), the grid lines at `cols` and
    /// `rows` of the canvas. `None` for a singular map.
    pub(super) fn new(
        to_image: Homography,
        cols: &'a [f32],
        rows: &'a [f32],
    ) -> Option<GridMap<'a>> {
        Some(GridMap {
            to_canvas: to_image.inverse()?.matrix(),
            to_image,
            cols,
            rows,
        })
    }

    /// The map of a clean grid: `cell` pixels per cell, the grid's
    /// top-left corner at pixel edge (`left`, `top`).
    pub(super) fn scaled(cell: f32, left: f32, top: f32) -> GridMap<'static> {
        let (s, x, y) = (cell as f64, left as f64 - 0.5, top as f64 - 0.5);
        let to_image = Homography::from_matrix([s, 0.0, x, 0.0, s, y, 0.0, 0.0, 1.0]);
        GridMap::new(to_image, &[], &[]).expect("a positive scale inverts")
    }

    /// The map of the located grid, through its refined lines.
    pub(super) fn located(located: &'a Located) -> Option<GridMap<'a>> {
        GridMap::new(located.homography, &located.col_lines, &located.row_lines)
    }

    /// Which line interval `x` falls in (clamped to the first and last),
    /// and its ends.
    fn interval(lines: &[f32], x: f32) -> Option<(usize, f32, f32)> {
        if lines.len() < 2 {
            return None;
        }
        let i = (x.floor().max(0.0) as usize).min(lines.len() - 2);
        Some((i, lines[i], lines[i + 1]))
    }

    fn to_canvas_axis(lines: &[f32], x: f32) -> f32 {
        match GridMap::interval(lines, x) {
            Some((i, a, b)) => a + (x - i as f32) * (b - a),
            None => x,
        }
    }

    fn from_canvas_axis(lines: &[f32], u: f32) -> f32 {
        if lines.len() < 2 {
            return u;
        }
        let i = lines
            .partition_point(|&l| l <= u)
            .saturating_sub(1)
            .min(lines.len() - 2);
        let (a, b) = (lines[i], lines[i + 1]);
        if b - a <= f32::EPSILON {
            return i as f32;
        }
        i as f32 + (u - a) / (b - a)
    }

    /// The image point of grid point `p`; `None` behind the camera.
    pub(super) fn forward(&self, p: Point) -> Option<[f64; 2]> {
        let u = GridMap::to_canvas_axis(self.cols, p[0]) as f64;
        let v = GridMap::to_canvas_axis(self.rows, p[1]) as f64;
        let m = self.to_image.matrix();
        let w = m[6] * u + m[7] * v + m[8];
        (w > 0.0)
            .then(|| self.to_image.map(u, v))
            .map(|(x, y)| [x, y])
    }

    /// The grid point of image pixel (`x`, `y`); `None` behind the camera.
    fn backward(&self, x: f64, y: f64) -> Option<Point> {
        let m = &self.to_canvas;
        let w = m[6] * x + m[7] * y + m[8];
        if w == 0.0 || !w.is_finite() {
            return None;
        }
        let u = ((m[0] * x + m[1] * y + m[2]) / w) as f32;
        let v = ((m[3] * x + m[4] * y + m[5]) / w) as f32;
        // Back behind the camera: the forward map's denominator flips.
        let f = self.to_image.matrix();
        if f[6] * u as f64 + f[7] * v as f64 + f[8] <= 0.0 {
            return None;
        }
        Some([
            GridMap::from_canvas_axis(self.cols, u),
            GridMap::from_canvas_axis(self.rows, v),
        ])
    }

    /// Image pixels per cell about grid point `p`, the mean of both axes.
    fn scale_at(&self, p: Point) -> Option<f32> {
        const STEP: f32 = 0.01;
        let o = self.forward(p)?;
        let a = self.forward([p[0] + STEP, p[1]])?;
        let b = self.forward([p[0], p[1] + STEP])?;
        let len = |q: [f64; 2]| ((q[0] - o[0]).powi(2) + (q[1] - o[1]).powi(2)).sqrt();
        let s = ((len(a) + len(b)) / 2.0 / STEP as f64) as f32;
        (s.is_finite() && s > 0.0).then_some(s)
    }

    /// A homography from grid coordinates near `p` (within its cell's
    /// lines) to the image: exact in that cell.
    fn local(&self, p: Point) -> Homography {
        let axis = |lines: &[f32], x: f32| match GridMap::interval(lines, x) {
            Some((i, a, b)) => ((b - a) as f64, (a - i as f32 * (b - a)) as f64),
            None => (1.0, 0.0),
        };
        let (sx, ox) = axis(self.cols, p[0]);
        let (sy, oy) = axis(self.rows, p[1]);
        Homography::from_matrix([sx, 0.0, ox, 0.0, sy, oy, 0.0, 0.0, 1.0]).then(&self.to_image)
    }
}

/// Draws `shape` onto `image` through `map`; text in `font`. Returns the
/// rectangle of pixels examined, `None` when nothing of it is in the image.
pub(super) fn draw_shape<P: Paintable>(
    image: &mut Canvas<P>,
    map: &GridMap,
    font: &FontRef,
    shape: &Shape,
) -> Option<PixelRect> {
    if let Shape::Text {
        centre,
        height,
        text,
        colour,
    } = shape
    {
        return draw_text(image, map, font, text, *centre, *height, *colour);
    }
    let colour = shape.colour();
    if colour[3] == 0 {
        return None;
    }
    let [lo, hi] = shape.bounds()?;
    let (iw, ih) = image.dimensions();
    let mut a = [f64::INFINITY; 2];
    let mut b = [f64::NEG_INFINITY; 2];
    for p in [lo, [hi[0], lo[1]], hi, [lo[0], hi[1]]] {
        let q = map.forward(p)?;
        a = [a[0].min(q[0]), a[1].min(q[1])];
        b = [b[0].max(q[0]), b[1].max(q[1])];
    }
    if !(a.iter().chain(&b).all(|v| v.is_finite())) {
        return None;
    }
    // One pixel more for the smooth edge.
    let x0 = (a[0].floor() - 1.0).max(0.0);
    let y0 = (a[1].floor() - 1.0).max(0.0);
    let x1 = (b[0].ceil() + 2.0).min(iw as f64);
    let y1 = (b[1].ceil() + 2.0).min(ih as f64);
    if x1 <= x0 || y1 <= y0 {
        return None;
    }
    let rect = PixelRect {
        x: x0 as u32,
        y: y0 as u32,
        width: (x1 - x0) as u32,
        height: (y1 - y0) as u32,
    };
    let alpha = colour[3] as f32;
    let n = P::CHANNEL_COUNT as usize;
    let stride = iw as usize * n;
    let radius_px = BLOCK as f32 * std::f32::consts::FRAC_1_SQRT_2 + 1.0;
    let buf: &mut [u8] = image;
    for by in (rect.y..rect.y + rect.height).step_by(BLOCK as usize) {
        let bh = BLOCK.min(rect.y + rect.height - by);
        for bx in (rect.x..rect.x + rect.width).step_by(BLOCK as usize) {
            let bw = BLOCK.min(rect.x + rect.width - bx);
            let mid = (bx as f64 + bw as f64 / 2.0, by as f64 + bh as f64 / 2.0);
            let Some(g) = map.backward(mid.0, mid.1) else {
                continue;
            };
            let Some(scale) = map.scale_at(g) else {
                continue;
            };
            let d = shape.distance(g).unwrap_or(f32::INFINITY);
            if d * scale > radius_px * BLOCK_SLACK {
                continue;
            }
            for y in by..by + bh {
                let row = y as usize * stride;
                for x in bx..bx + bw {
                    let Some(g) = map.backward(x as f64, y as f64) else {
                        continue;
                    };
                    let d = shape.distance(g).unwrap_or(f32::INFINITY);
                    let cov = (0.5 - d * scale).clamp(0.0, 1.0);
                    if cov > 0.0 {
                        let at = row + x as usize * n;
                        blend(&mut buf[at..at + n], colour, (cov * alpha + 0.5) as u32);
                    }
                }
            }
        }
    }
    Some(rect)
}

/// `text` centred on grid point `centre`, its digits `height` cells tall.
fn draw_text<P: Paintable>(
    image: &mut Canvas<P>,
    map: &GridMap,
    font: &FontRef,
    text: &str,
    centre: Point,
    height: f32,
    colour: Rgba<u8>,
) -> Option<PixelRect> {
    let res = map.scale_at(centre)?.clamp(8.0, 1024.0) as f64;
    let stamp = Stamp::text(font, text, height as f64, res, [0.0, 0.0])?;
    // The ink box without the bitmap's one-pixel border.
    let [w, h] = stamp.extent().map(|e| e - 2.0 / res);
    let (x, y) = (centre[0] as f64 - w / 2.0, centre[1] as f64 - h / 2.0);
    let place = Homography::from_matrix([1.0, 0.0, x, 0.0, 1.0, y, 0.0, 0.0, 1.0]);
    let at = place.then(&map.local(centre));
    stamp.draw(image, &at, colour)
}

/// Draws `rules` on a clean grid drawn through `map`: the shading of extra
/// regions when `under` (before the grid lines), every other mark when
/// not. Cells the layout does not have are skipped.
pub(super) fn draw_on_grid<P: Paintable>(
    image: &mut Canvas<P>,
    map: &GridMap,
    font: &FontRef,
    layout: &Layout,
    rules: &[Rule],
    inks: &Inks,
    under: bool,
) {
    for rule in rules {
        for shape in rule_shapes(layout, rule, inks) {
            if matches!(shape, Shape::Cells { .. }) == under {
                draw_shape(image, map, font, &shape);
            }
        }
    }
}

/// The caption's lines, each at most `width` cells wide (a name wider
/// than that on a line of its own): the names of [`caption`] joined by
/// " · ".
pub(super) fn caption_lines(font: &FontRef, names: &[&str], width: f32) -> Vec<String> {
    // Measured at a resolution fine enough for a line's width.
    const RES: f64 = 64.0;
    let wide = |s: &str| {
        Stamp::text(font, s, CAPTION_HEIGHT as f64, RES, [0.0, 0.0])
            .map_or(0.0, |t| t.extent()[0] as f32)
    };
    let mut lines: Vec<String> = Vec::new();
    for name in names {
        match lines.last_mut() {
            Some(line) if wide(&format!("{line} · {name}")) <= width => {
                line.push_str(" · ");
                line.push_str(name);
            }
            _ => lines.push(name.to_string()),
        }
    }
    lines
}

/// Draws the marks of `rules` onto `image`, the image `located` was found
/// in, through its homography and refined grid lines: lines and shading
/// translucent over the print, dots and letters opaque, in colours for the
/// grid's paper (`options.palette`'s paper, or the photo's as
/// [`background_luma`] samples it). Outside clues are drawn one cell beyond
/// the grid's edge where that is in the image, and skipped where it is
/// not. Rules over the whole grid have no mark. Call before
/// [`super::draw_solution`], so that the digits lie on top, with
/// [`Options::for_rules`] (marks in the cells are not covered with paper).
/// Returns the rectangles of pixels that may have changed (see
/// [`super::restore`]).
pub fn draw_rules<P: Paintable>(
    image: &mut Canvas<P>,
    located: &Located,
    rules: &[Rule],
    options: &Options,
) -> Vec<PixelRect> {
    if rules.is_empty() {
        return Vec::new();
    }
    let paper = match options.palette {
        Some(p) => p.paper,
        None => {
            let luma = background_luma(image, located, &[]);
            Palette::for_background(luma).paper
        }
    };
    let inks = Inks::for_paper(paper).for_photo();
    let Some(map) = GridMap::located(located) else {
        return Vec::new();
    };
    let (iw, ih) = (image.width() as f64, image.height() as f64);
    let mut out = Vec::new();
    for rule in rules {
        // A clue outside the grid: only where its place is in the image.
        if let Rule::LittleKiller { clue, .. } | Rule::Sandwich { clue, .. } = rule {
            let place = [clue.1 as f32 + 0.5, clue.0 as f32 + 0.5];
            let seen = map
                .forward(place)
                .is_some_and(|[x, y]| x >= 0.0 && y >= 0.0 && x < iw && y < ih);
            if !seen {
                continue;
            }
        }
        out.extend(draw_photo_shapes(
            image,
            &map,
            &rule_shapes(&located.layout, rule, &inks),
        ));
    }
    out
}

/// Draws one rule highlighted onto `image` (a hint about it): its cells
/// tinted with `colour` (at `colour`'s alpha), then its marks (see
/// [`draw_rules`]). A rule over the whole grid has no cells and draws
/// nothing. Returns the rectangles of pixels that may have changed.
pub fn draw_rule_highlight<P: Paintable>(
    image: &mut Canvas<P>,
    located: &Located,
    rule: &Rule,
    colour: Rgba<u8>,
) -> Vec<PixelRect> {
    let layout = &located.layout;
    let corners: Vec<Point> = centres(layout, &rule.cells(layout))
        .into_iter()
        .map(|[x, y]| [x - 0.5, y - 0.5])
        .collect();
    let mut shapes = Vec::new();
    if !corners.is_empty() {
        shapes.push(Shape::Cells { corners, colour });
        let luma = background_luma(image, located, &[]);
        let inks = Inks::for_paper(Palette::for_background(luma).paper).for_photo();
        shapes.extend(rule_shapes(layout, rule, &inks));
    }
    match GridMap::located(located) {
        Some(map) => draw_photo_shapes(image, &map, &shapes),
        None => Vec::new(),
    }
}

fn draw_photo_shapes<P: Paintable>(
    image: &mut Canvas<P>,
    map: &GridMap,
    shapes: &[Shape],
) -> Vec<PixelRect> {
    let font = FontRef::try_from_slice(FONT).expect("the bundled font parses");
    shapes
        .iter()
        .filter_map(|shape| draw_shape(image, map, &font, shape))
        .collect()
}
