//! Stage 3b: a candidate that is a part of a larger lattice grows to all of
//! it. Inner lines can outline a block of cells as well as the frame does
//! (a white grid on a dark page, whose frame the page joins; heavy box
//! lines around some boxes): such a candidate's lines go on past its sides,
//! one cell further each time, and the page shows how many cells there are
//! between the grid's real edges.

use image::GrayImage;

use super::quad::Quad;
use super::score::{PROBES, Prober, probe_points};

/// A side grows by a row (or column) of cells while the lines across that
/// row are hit this much more often than the middles of its cells (mean
/// hit rates, 0 to 1): a grid's lines go on, while a blank page (no lines),
/// a dark page (ink everywhere) or print (ink anywhere) do not.
const MIN_LINE_LEAD: f32 = 0.5;
/// A lattice grows to at most this many cells a side: the largest
/// layout's.
const MAX_CELLS_A_SIDE: i32 = 25;

/// The quad grown from `quad`, a lattice of `cols` x `rows` cells in
/// `mask`, by whole rows and columns on each side while its lines go on
/// (see [`MIN_LINE_LEAD`]), with its columns and rows; `None` when no side
/// grows.
pub(super) fn grow(
    mask: &GrayImage,
    quad: &Quad,
    cols: usize,
    rows: usize,
) -> Option<(Quad, usize, usize)> {
    let hm = quad.homography_from_rect(cols as f64, rows as f64)?;
    let prober = Prober::new(mask, hm, quad.mean_side() / cols.max(rows) as f32);
    // The lattice's span in the candidate's canvas units.
    let mut span = Span {
        x0: 0,
        x1: cols as i32,
        y0: 0,
        y1: rows as i32,
    };
    let start = span;
    loop {
        let mut grew = false;
        for side in Side::ALL {
            let room = match side {
                Side::Top | Side::Bottom => span.y1 - span.y0,
                Side::Left | Side::Right => span.x1 - span.x0,
            } < MAX_CELLS_A_SIDE;
            if room && continues(&prober, side, span) {
                span.extend(side);
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    if span == start {
        return None;
    }
    let corner = |x: i32, y: i32| {
        let (u, v) = hm.map(x as f64, y as f64);
        [u as f32, v as f32]
    };
    let corners = [
        corner(span.x0, span.y0),
        corner(span.x1, span.y0),
        corner(span.x1, span.y1),
        corner(span.x0, span.y1),
    ];
    if corners.iter().flatten().any(|v| !v.is_finite()) {
        return None;
    }
    let quad = Quad::new(corners);
    quad.is_convex().then_some((
        quad,
        (span.x1 - span.x0) as usize,
        (span.y1 - span.y0) as usize,
    ))
}

/// Columns `x0..x1` and rows `y0..y1` of the candidate's canvas.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Span {
    x0: i32,
    x1: i32,
    y0: i32,
    y1: i32,
}

impl Span {
    fn extend(&mut self, side: Side) {
        match side {
            Side::Top => self.y0 -= 1,
            Side::Right => self.x1 += 1,
            Side::Bottom => self.y1 += 1,
            Side::Left => self.x0 -= 1,
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Side {
    Top,
    Right,
    Bottom,
    Left,
}

impl Side {
    const ALL: [Side; 4] = [Side::Top, Side::Right, Side::Bottom, Side::Left];
}

/// Whether the lattice goes on for a row (or column) beyond `side` of
/// `span`: the lines across that row against the middles of its cells.
fn continues(prober: &Prober, side: Side, span: Span) -> bool {
    let (border_at, centre_at) = probe_points::<PROBES>();
    // Across a new row (top or bottom) the lines are vertical; across a new
    // column, horizontal. `at` is the new row's (column's) first edge, and
    // the lines stand at `lo..=hi` along it.
    let vertical = matches!(side, Side::Top | Side::Bottom);
    let (lo, hi, at) = match side {
        Side::Top => (span.x0, span.x1, span.y0 - 1),
        Side::Bottom => (span.x0, span.x1, span.y1),
        Side::Left => (span.y0, span.y1, span.x0 - 1),
        Side::Right => (span.y0, span.y1, span.x1),
    };
    let at = at as f32;
    let point = |along: f32| if vertical { (along, at) } else { (at, along) };
    let (mut lines, mut middles) = (0f32, 0f32);
    for k in lo..=hi {
        let (x, y) = point(k as f32);
        lines += prober.hit_rate(vertical, x, y, &border_at);
    }
    for k in lo..hi {
        let (x, y) = point(k as f32 + 0.5);
        middles += prober.hit_rate(vertical, x, y, &centre_at);
    }
    let across = (hi - lo) as f32;
    lines / (across + 1.0) - middles / across >= MIN_LINE_LEAD
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mask of a 6 x 6 lattice of `cell` pixels from `origin`: one-pixel
    /// lines, nothing else.
    fn lattice(cell: u32, origin: u32) -> GrayImage {
        let side = origin * 2 + 6 * cell + 1;
        GrayImage::from_fn(side, side, |x, y| {
            let on =
                |v: u32| v >= origin && v <= origin + 6 * cell && (v - origin).is_multiple_of(cell);
            let inside = |v: u32| v >= origin && v <= origin + 6 * cell;
            let line = (on(x) && inside(y)) || (on(y) && inside(x));
            image::Luma([if line { 255 } else { 0 }])
        })
    }

    #[test]
    fn an_inner_block_grows_to_the_whole_lattice_and_no_further() {
        let (cell, origin) = (20.0, 30.0);
        let mask = lattice(cell as u32, origin as u32);
        // The 4 x 4 block inside the outer row and column.
        let at = |k: f32| origin + k * cell;
        let inner = Quad::new([
            [at(1.0), at(1.0)],
            [at(5.0), at(1.0)],
            [at(5.0), at(5.0)],
            [at(1.0), at(5.0)],
        ]);
        let (quad, cols, rows) = grow(&mask, &inner, 4, 4).expect("the block grows");
        assert_eq!((cols, rows), (6, 6));
        for (p, want) in quad
            .points()
            .iter()
            .zip([[0.0, 0.0], [6.0, 0.0], [6.0, 6.0], [0.0, 6.0]])
        {
            assert!(
                (p[0] - at(want[0])).abs() < 0.5 && (p[1] - at(want[1])).abs() < 0.5,
                "{p:?}"
            );
        }
        // The whole lattice has nowhere to grow.
        assert!(grow(&mask, &quad, 6, 6).is_none());
    }

    #[test]
    fn a_solid_band_around_the_block_stops_it() {
        // Ink everywhere outside the block: lines and cell middles alike.
        let mask = GrayImage::from_fn(200, 200, |x, y| {
            let inside = (50..150).contains(&x) && (50..150).contains(&y);
            let line = inside && ((x - 50).is_multiple_of(25) || (y - 50).is_multiple_of(25));
            image::Luma([if !inside || line { 255 } else { 0 }])
        });
        let block = Quad::new([[50.0, 50.0], [150.0, 50.0], [150.0, 150.0], [50.0, 150.0]]);
        assert!(grow(&mask, &block, 4, 4).is_none());
    }
}
