//! Connected components of a mask: the one labeller the stages share (the
//! ink of a cell, of a killer's sum, of a candidate mark).

/// The 8-connected components of a mask.
pub(crate) struct Components {
    /// A label per pixel of the mask: 0 off it, else its component's
    /// number, from 1 in raster order of each component's first pixel.
    pub labels: Vec<u32>,
    /// Each component's pixels (indices into the mask), in the order a
    /// flood fill from its first pixel reaches them: component `k` is
    /// label `k + 1`.
    pub pixels: Vec<Vec<u32>>,
}

/// The 8-connected components of `mask`, a row-major image `w` pixels
/// wide.
pub(crate) fn components(mask: &[bool], w: usize) -> Components {
    let mut labels = vec![0u32; mask.len()];
    let mut pixels = Vec::new();
    if w == 0 {
        return Components { labels, pixels };
    }
    let h = mask.len() / w;
    let mut stack = Vec::new();
    for start in 0..mask.len() {
        if !mask[start] || labels[start] != 0 {
            continue;
        }
        let label = pixels.len() as u32 + 1;
        let mut these = Vec::new();
        labels[start] = label;
        stack.push(start);
        while let Some(p) = stack.pop() {
            these.push(p as u32);
            let (x, y) = ((p % w) as isize, (p / w) as isize);
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (nx, ny) = (x + dx, y + dy);
                    if nx < 0 || ny < 0 || nx >= w as isize || ny >= h as isize {
                        continue;
                    }
                    let q = ny as usize * w + nx as usize;
                    if mask[q] && labels[q] == 0 {
                        labels[q] = label;
                        stack.push(q);
                    }
                }
            }
        }
        pixels.push(these);
    }
    Components { labels, pixels }
}

/// The box of `pixels` (indices into a row-major image `w` wide): left,
/// top, right, bottom, inclusive. `None` for no pixels.
pub(crate) fn bounds(pixels: &[u32], w: usize) -> Option<[u32; 4]> {
    let mut b: Option<[u32; 4]> = None;
    for &p in pixels {
        let (x, y) = (p % w as u32, p / w as u32);
        b = Some(match b {
            None => [x, y, x, y],
            Some([x0, y0, x1, y1]) => [x0.min(x), y0.min(y), x1.max(x), y1.max(y)],
        });
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_are_numbered_by_their_first_pixel_and_touch_at_corners() {
        // Two pieces touching only at a corner are one; a piece whose
        // first pixel comes later in raster order is numbered after.
        #[rustfmt::skip]
        let mask = [
            false, false, false, true,
            true,  false, true,  false,
            false, true,  false, false,
            false, false, false, true,
        ];
        let found = components(&mask, 4);
        assert_eq!(found.pixels.len(), 2);
        assert_eq!(found.labels[3], 1);
        assert_eq!(found.labels[4], 1);
        assert_eq!(found.labels[15], 2);
        assert_eq!(bounds(&found.pixels[0], 4), Some([0, 0, 3, 2]));
        assert_eq!(bounds(&found.pixels[1], 4), Some([3, 3, 3, 3]));
        assert_eq!(found.labels.iter().filter(|&&l| l == 0).count(), 11);
    }
}
