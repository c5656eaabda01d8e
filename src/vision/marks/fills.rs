//! Reading a jigsaw whose regions are told by colour: many puzzle apps and
//! sites fill each region with its own pale colour (a map colouring: no
//! two regions that meet share one) and draw every line between cells
//! alike, so the lines say nothing ([`super::jigsaw`] finds no thick ones)
//! and the fills say everything.
//!
//! Each cell's fill is sampled on a ring inside it, clear of the grid lines
//! and of the digit in its middle; every inner edge is scored by how far
//! the fills on its two sides differ, and the edges are split in two by
//! the page's own scores (as line weights are). The regions are the cells
//! connected across edges of one fill, repaired like line-drawn regions
//! when they do not come out `size` regions of `size` cells.

use image::{DynamicImage, GenericImageView};

use super::borders::{Edge, classify};
use super::jigsaw::{JigsawReading, are_boxes, group_means, inner_edges, repaired};
use crate::vision::locate::Located;

/// The ring a cell's fill is sampled on lies this share of the cell in
/// from its lines: past a region border's width (about 0.08 of a cell) and
/// short of a digit, which starts about 0.15 in.
const RING_DEPTH: f32 = 0.11;
/// Samples along each of the ring's four sides, between these shares of
/// the side (the corners are left out: candidate marks sit there).
const RING_SAMPLES: usize = 5;
const RING_SPAN: (f32, f32) = (0.3, 0.7);
/// The fills on either side of a region border differ by at least this
/// many levels in some channel, on average over the page's borders: two
/// pastels a site would print side by side differ by 20 to 60; one fill
/// seen through a photo's light and noise, by a few.
const MIN_FILL_STEP: f32 = 12.0;
/// ... and by this many times as much as the fills across the other edges
/// (their own noise and the light's slope): fills that vary gradually are
/// no map of regions.
const FILL_SEPARATION: f32 = 4.0;
/// The differences within a region are read as at least this many levels,
/// so that a flat screenshot (no difference at all) does not make any step
/// look many times its noise.
const FILL_NOISE_FLOOR: f32 = 2.0;

/// A cell's fill: the median of each channel over its ring's samples.
fn fill(image: &DynamicImage, located: &Located, cell: usize) -> [f32; 3] {
    let (r, c) = located.layout.position(cell);
    let (w, h) = image.dimensions();
    let mut channels: [Vec<f32>; 3] = Default::default();
    for side in 0..4 {
        for i in 0..RING_SAMPLES {
            let t =
                RING_SPAN.0 + (RING_SPAN.1 - RING_SPAN.0) * i as f32 / (RING_SAMPLES - 1) as f32;
            let (u, v) = match side {
                0 => (t, RING_DEPTH),
                1 => (1.0 - RING_DEPTH, t),
                2 => (t, 1.0 - RING_DEPTH),
                _ => (RING_DEPTH, t),
            };
            let [x, y] = located.canvas_to_image(c as f32 + u, r as f32 + v);
            let (x, y) = (x.round(), y.round());
            if !(x >= 0.0 && y >= 0.0 && x < w as f32 && y < h as f32) {
                continue;
            }
            let p = image.get_pixel(x as u32, y as u32).0;
            for (ch, &v) in channels.iter_mut().zip(&p[..3]) {
                ch.push(v as f32);
            }
        }
    }
    channels.map(|mut ch| {
        if ch.is_empty() {
            return 0.0;
        }
        let mid = ch.len() / 2;
        *ch.select_nth_unstable_by(mid, f32::total_cmp).1
    })
}

/// The regions of a located square grid told by its cells' fills, in the
/// colour image the grid was located in; `values` are the digits read.
/// `None` when the fills draw no map (one fill throughout, or fills that
/// differ only gradually: [`MIN_FILL_STEP`], [`FILL_SEPARATION`]), when
/// the map they draw is the layout's boxes (a classic with shaded boxes),
/// and for a grid that is not a single square. The reading's `layout` is
/// `None` when no map within the repair's bounds gives regions of the
/// right size (a selected cell's highlighted row, column and box, say).
pub fn fill_regions(
    image: &DynamicImage,
    located: &Located,
    values: &[u8],
) -> Option<JigsawReading> {
    let layout = &located.layout;
    if !layout.is_single_square() {
        return None;
    }
    let fills: Vec<[f32; 3]> = (0..layout.cell_count())
        .map(|cell| fill(image, located, cell))
        .collect();
    let step = |a: usize, b: usize| {
        (0..3)
            .map(|k| (fills[a][k] - fills[b][k]).abs())
            .fold(0f32, f32::max)
    };
    let edges: Vec<Edge> = inner_edges(layout)
        .into_iter()
        .map(|(a, b, vertical, _, _)| Edge {
            a,
            b,
            vertical,
            score: step(a, b),
            boundary: false,
            confidence: 0.0,
        })
        .collect();
    let split = classify(edges);
    let (border, within) = group_means(&split.edges)?;
    if border < MIN_FILL_STEP || border < FILL_SEPARATION * within.max(FILL_NOISE_FLOOR) {
        return None;
    }
    let reading = repaired(layout, split.edges, split.threshold, 0.0, values);
    let boxes = reading.layout.as_ref().is_some_and(|l| {
        let ids: Vec<usize> = l.regions().iter().map(|&r| r as usize).collect();
        are_boxes(layout, &ids)
    });
    (!boxes).then_some(reading)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Layout;
    use crate::vision::locate::located_at_corners;
    use image::{Rgb, RgbImage};

    /// A jigsaw's regions, as a site prints them (row by row).
    const MAP: &str =
        "112223333111222333111222334155666444555666444555666447588999777888999777888899977";
    const CELL: u32 = 40;
    const MARGIN: u32 = 20;

    fn region_ids() -> Vec<usize> {
        MAP.bytes().map(|b| (b - b'1') as usize).collect()
    }

    /// A 9 x 9 grid of `CELL` px cells, each filled with `fill(cell)`, every
    /// line between cells 1 px dark grey, a digit-sized dark block in some
    /// cells.
    fn draw(fill: impl Fn(usize) -> [u8; 3]) -> (DynamicImage, Located) {
        let side = 9 * CELL + 2 * MARGIN;
        let mut img = RgbImage::from_pixel(side, side, Rgb([255, 255, 255]));
        for cell in 0..81 {
            let (r, c) = (cell as u32 / 9, cell as u32 % 9);
            let (x0, y0) = (MARGIN + c * CELL, MARGIN + r * CELL);
            for y in y0..y0 + CELL {
                for x in x0..x0 + CELL {
                    let line = x == x0 || y == y0;
                    let digit = cell % 4 == 0
                        && (x0 + 14..x0 + 26).contains(&x)
                        && (y0 + 9..y0 + 31).contains(&y);
                    let p = if line || digit {
                        [52, 72, 97]
                    } else {
                        fill(cell)
                    };
                    img.put_pixel(x, y, Rgb(p));
                }
            }
        }
        let (a, b) = (MARGIN as f32, (MARGIN + 9 * CELL) as f32);
        let located = located_at_corners([[a, a], [b, a], [b, b], [a, b]], &Layout::classic())
            .expect("a square grid");
        (DynamicImage::ImageRgb8(img), located)
    }

    /// Four pastels, no two regions that meet alike (a greedy colouring).
    fn colouring() -> Vec<[u8; 3]> {
        let pastels = [
            [255, 255, 255],
            [253, 236, 200],
            [214, 234, 248],
            [222, 244, 214],
        ];
        let ids = region_ids();
        let mut colour: Vec<Option<usize>> = vec![None; 9];
        for region in 0..9 {
            let mut used = [false; 4];
            for cell in (0..81).filter(|&c| ids[c] == region) {
                let (r, c) = (cell / 9, cell % 9);
                let near = [
                    (r.wrapping_sub(1), c),
                    (r + 1, c),
                    (r, c.wrapping_sub(1)),
                    (r, c + 1),
                ];
                for (rr, cc) in near {
                    if rr < 9
                        && cc < 9
                        && let Some(k) = colour[ids[rr * 9 + cc]]
                    {
                        used[k] = true;
                    }
                }
            }
            colour[region] = used.iter().position(|&u| !u);
        }
        ids.iter()
            .map(|&r| pastels[colour[r].expect("four colours do")])
            .collect()
    }

    #[test]
    fn regions_told_by_their_fills_alone_are_read() {
        let fills = colouring();
        let (img, located) = draw(|c| fills[c]);
        let reading = fill_regions(&img, &located, &[0; 81]).expect("fills draw a map");
        let layout = reading.layout.expect("nine regions of nine");
        let ids: Vec<usize> = layout.regions().iter().map(|&r| r as usize).collect();
        let want = region_ids();
        for a in 0..81 {
            for b in 0..81 {
                assert_eq!(ids[a] == ids[b], want[a] == want[b], "cells {a} and {b}");
            }
        }
    }

    #[test]
    fn plain_shaded_boxes_and_a_light_slope_are_no_regions() {
        // One fill throughout.
        let (img, located) = draw(|_| [250, 250, 250]);
        assert!(fill_regions(&img, &located, &[0; 81]).is_none());
        // Every other box shaded: the boxes, a classic.
        let (img, located) = draw(|c| {
            let b = (c / 27) * 3 + (c % 9) / 3;
            if b % 2 == 0 {
                [255, 255, 255]
            } else {
                [225, 232, 240]
            }
        });
        assert!(fill_regions(&img, &located, &[0; 81]).is_none());
        // Light falling off across the page, a level per cell.
        let (img, located) = draw(|c| {
            let v = 250 - (c % 9 + c / 9) as u8;
            [v, v, v]
        });
        assert!(fill_regions(&img, &located, &[0; 81]).is_none());
    }

    #[test]
    fn a_selected_cells_highlight_draws_no_regions() {
        // The selected cell's row, column and box in one fill, the cell
        // itself in another: not nine regions of nine.
        let classic = Layout::classic();
        let sel = 40;
        let (img, located) = draw(|c| {
            if c == sel {
                [187, 222, 251]
            } else if c / 9 == sel / 9 || c % 9 == sel % 9 || classic.same_box(c, sel) {
                [226, 235, 243]
            } else {
                [255, 255, 255]
            }
        });
        assert!(fill_regions(&img, &located, &[0; 81]).is_none_or(|r| r.layout.is_none()));
    }
}
