//! A square grid's diagonals: a line drawn corner to corner.
//!
//! A diagonal is measured as the line's contrast with the paper just beside
//! it, across the line, at many points along it. The same measure taken on
//! the lines parallel to it one and two cells away is the yardstick: those
//! cross the same digits, grid lines and shading in the same places of
//! their cells (a grid's content has no reason to favour one diagonal of
//! cells over the next), so only a drawn line sets the diagonal apart from
//! them. No level has to suit every page's line colour and width.

use image::GrayImage;

use super::{Levels, sample};
use crate::grid::{Diagonal, Rule};
use crate::vision::locate::Located;
use crate::vision::page::num::median_of;

/// Where in each cell the diagonal is sampled, in cell units along it from
/// the cell's corner: clear of the corners, where the grid lines cross it.
const ALONG: [f32; 11] = [
    0.15, 0.22, 0.29, 0.36, 0.43, 0.5, 0.57, 0.64, 0.71, 0.78, 0.85,
];

/// How far beside the line the paper is sampled, across it, in cells: a
/// thin line (a web player's, about 0.03 of a cell) and a thick printed one
/// (up to about a tenth). The wider offset that shows the more contrast is
/// taken.
const BESIDE: [f32; 2] = [0.06, 0.12];

/// The parallel lines measured as the yardstick, in cells to the side.
const YARDSTICK_SHIFTS: [i32; 4] = [-2, -1, 1, 2];

/// Least contrast of a diagonal, in darkness (0 paper, 1 the heavier grid
/// lines' ink), for a line at all: a light blue diagonal two or three
/// pixels wide on white measures about 0.3 on the rendered app pages, the
/// yardstick lines beside it 0.0.
pub const MIN_CONTRAST: f32 = 0.08;

/// How far above the strongest yardstick line a diagonal's contrast must
/// stand, in darkness. With it no diagonal is read on the newspaper and
/// hand-solved photos, the killer screenshots or the plain app grids.
pub const MIN_LEAD: f32 = 0.06;

/// The diagonals drawn on a single square grid, each with its confidence
/// (0 at the weaker of [`MIN_CONTRAST`] and [`MIN_LEAD`], 1 at twice
/// them). Nothing on other layouts.
pub fn read(grey: &GrayImage, located: &Located, levels: Levels) -> Vec<(Rule, f32)> {
    let layout = &located.layout;
    if !layout.is_single_square() {
        return Vec::new();
    }
    let n = layout.size() as i32;
    let mut out = Vec::new();
    for diagonal in [Diagonal::Main, Diagonal::Anti] {
        let contrast = |shift: i32| line_contrast(grey, located, levels, n, diagonal, shift);
        let Some(own) = contrast(0) else {
            continue;
        };
        let yardstick = YARDSTICK_SHIFTS
            .iter()
            .filter_map(|&s| contrast(s))
            .fold(0.0f32, f32::max);
        let margin = (own / MIN_CONTRAST - 1.0).min((own - yardstick) / MIN_LEAD - 1.0);
        if margin >= 0.0 {
            out.push((Rule::Diagonal(diagonal), margin.min(1.0)));
        }
    }
    out
}

/// The median contrast of the line parallel to `diagonal`, `shift` cells to
/// its side, over its points inside the grid: how much darker (in the
/// page's darkness) the line is than the paper on both sides of it.
fn line_contrast(
    grey: &GrayImage,
    located: &Located,
    levels: Levels,
    n: i32,
    diagonal: Diagonal,
    shift: i32,
) -> Option<f32> {
    let mut contrasts = Vec::with_capacity(n as usize * ALONG.len());
    // A point `t` along the main diagonal is (t, t); the anti-diagonal's
    // runs from the bottom-left corner, (t, n - t). Across is the unit
    // normal, in canvas units.
    let (across_u, across_v) = match diagonal {
        Diagonal::Main => (
            std::f32::consts::FRAC_1_SQRT_2,
            -std::f32::consts::FRAC_1_SQRT_2,
        ),
        Diagonal::Anti => (
            std::f32::consts::FRAC_1_SQRT_2,
            std::f32::consts::FRAC_1_SQRT_2,
        ),
    };
    let dark = |u: f32, v: f32| sample(grey, located, u, v).map(|g| levels.darkness(g));
    for i in 0..n {
        let col = i + shift;
        if !(0..n).contains(&col) {
            continue;
        }
        for &a in &ALONG {
            let u = col as f32 + a;
            let v = match diagonal {
                Diagonal::Main => i as f32 + a,
                Diagonal::Anti => (n - i) as f32 - a,
            };
            let Some(on) = dark(u, v) else {
                continue;
            };
            let best = BESIDE
                .iter()
                .filter_map(|&d| {
                    let left = dark(u - d * across_u, v - d * across_v)?;
                    let right = dark(u + d * across_u, v + d * across_v)?;
                    Some(on - left.max(right))
                })
                .fold(f32::MIN, f32::max);
            if best > f32::MIN {
                contrasts.push(best);
            }
        }
    }
    median_of(&mut contrasts)
}
