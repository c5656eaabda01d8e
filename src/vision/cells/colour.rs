//! The player's digits told from the givens by their colour. Solving apps
//! draw the givens in black (white in a dark theme) and the player's digits
//! in the same font in another colour (blue, grey, teal...): in the grey
//! copy the reader works on, both read as printed digits.
//!
//! Once the printed digits are read, [`ink_colour`] measures the colour of
//! each one's ink (the mean of its strongest pixels, sampled from the
//! decoded image through the grid's homography: only the digit cells are
//! looked at), and [`split_by_colour`] looks for two colour groups, each
//! tight, far apart. A screenshot's colours are flat, so a page with two
//! ink colours gives two near-points; the ink of a photographed page varies
//! with the light across it, so its digits form one spread-out cloud that
//! no split leaves tight. The givens are the group whose ink stands out
//! most from its paper in lightness (black on light, white on dark); the
//! other group's digits are the player's entries, read by the printed
//! model (same font).

use image::{DynamicImage, GenericImageView};

use crate::vision::locate::Located;

/// Side of the grid of points sampled in a cell: about 1000 points, enough
/// for a mean colour of a digit's strokes (they cover a tenth of the cell).
const SAMPLES: u32 = 32;
/// Fraction of the cell (between its grid lines) left out on each side of
/// the square sampled for the paper, so that the grid lines are not taken
/// for it. A digit fills the middle 60% of a cell or less.
const INSET: f32 = 0.12;
/// Fraction of the cell left out on each side of the square sampled for
/// the ink: its middle third, which every digit's strokes cross, and which
/// other ink in the cell does not reach (a killer's cage sum, printed in
/// the top-left corner down to about a third of the cell, in black beside
/// a player's blue digit; its cage outline, a tenth of a cell in). Sampled
/// over the whole inset square, a black sum made the blue digits of the
/// cages' first cells a third of the way to black, and the two inks no
/// longer split.
const INK_INSET: f32 = 1.0 / 3.0;
/// A sample is of the digit's core when it differs from the paper by at
/// least this fraction of the cell's strongest ink: anti-aliased edges,
/// half ink and half paper, are left out, and a thin stroke keeps its core.
const CORE: f32 = 0.6;
/// The cell's strongest ink: this quantile of the samples' distances from
/// the paper (one stray dark pixel does not set it).
const STRONGEST: f32 = 0.98;
/// Ink closer to the paper than this (RGB distance, 0..=441) is no ink to
/// measure: a cell read as a digit over blank paper.
const MIN_INK: f32 = 40.0;
/// The two groups' mean ink colours lie at least this far apart (RGB
/// distance): blue or grey beside black is 100 or more; smaller differences
/// are the same ink drawn thinner or thicker.
pub const MIN_DISTANCE: f32 = 60.0;
/// And at least this many times the wider group's diameter (twice its
/// radius, the farthest member's distance from its mean; the wider group's,
/// so that one odd digit alone on its side, of radius 0, is judged by the
/// other side's spread). Two flat colours have radii of a few levels (the
/// samples: 14 at most, for a distance of 147 or more); a photo's ink
/// spreads with the light, and its best cut leaves groups at most 2.4
/// diameters apart (wichtounet-v2-train, kubiesa, jigsaw-train: pencil
/// beside print on kubiesa-val), so 4 keeps a margin on both sides.
pub const SEPARATION: f32 = 4.0;
/// At most this many inks are told apart: the givens', the player's, and
/// the player's mistakes where an app draws them in a third (red).
pub const MAX_INKS: usize = 3;

/// One digit's ink and the paper around it, mean RGB in 0..=255.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InkColour {
    /// The mean colour of the digit's core (see `CORE`).
    pub ink: [f32; 3],
    /// The cell's paper: the median of each channel over the cell.
    pub paper: [f32; 3],
}

impl InkColour {
    /// How far the ink stands out from the paper in lightness (Rec. 601
    /// luma, grey levels).
    pub fn lightness_contrast(&self) -> f32 {
        (luma(self.ink) - luma(self.paper)).abs()
    }
}

/// The page's digits in two or three ink colours: the givens' and the
/// entries' (the player's, and on some apps the player's mistakes in a
/// third).
#[derive(Clone, Debug, PartialEq)]
pub struct ColourSplit {
    /// The givens' mean ink colour (RGB, 0..=255).
    pub givens: [f32; 3],
    /// The entries' mean ink colours, one per ink, the most used first.
    pub entries: Vec<[f32; 3]>,
    /// The cells whose digit is in an entries' colour, ascending.
    pub entry_cells: Vec<usize>,
}

fn luma(c: [f32; 3]) -> f32 {
    0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
}

fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// The ink colour of the digit in `cell` of the grid `located` in `image`
/// (the decoded image the grid was located in, any pixel format), sampled
/// at `SAMPLES` x `SAMPLES` points of the cell's middle through the
/// homography and the refined grid lines. `None` when the cell lies outside
/// the image or shows no ink.
pub fn ink_colour(image: &DynamicImage, located: &Located, cell: usize) -> Option<InkColour> {
    let [u0, u1, v0, v1] = located.cell_edges(cell);
    let (du, dv) = (u1 - u0, v1 - v0);
    let (w, h) = image.dimensions();
    let n = SAMPLES as usize;
    // `SAMPLES` x `SAMPLES` points over the square `inset` in from the
    // cell's sides.
    let square = |inset: f32| -> Option<Vec<[f32; 3]>> {
        let mut samples: Vec<[f32; 3]> = Vec::with_capacity(n * n);
        for j in 0..SAMPLES {
            for i in 0..SAMPLES {
                let s = inset + (1.0 - 2.0 * inset) * (i as f32 + 0.5) / SAMPLES as f32;
                let t = inset + (1.0 - 2.0 * inset) * (j as f32 + 0.5) / SAMPLES as f32;
                let (x, y) = located
                    .homography
                    .map((u0 + s * du) as f64, (v0 + t * dv) as f64);
                if !(x >= 0.0 && y >= 0.0 && x < w as f64 && y < h as f64) {
                    return None;
                }
                let p = image.get_pixel(x as u32, y as u32).0;
                samples.push([p[0] as f32, p[1] as f32, p[2] as f32]);
            }
        }
        Some(samples)
    };
    let samples = square(INSET)?;
    let mut channel = vec![0f32; samples.len()];
    let mut paper = [0f32; 3];
    for (k, p) in paper.iter_mut().enumerate() {
        for (v, s) in channel.iter_mut().zip(&samples) {
            *v = s[k];
        }
        let mid = channel.len() / 2;
        *p = *channel.select_nth_unstable_by(mid, f32::total_cmp).1;
    }
    let samples = square(INK_INSET)?;
    let mut dist: Vec<f32> = samples.iter().map(|&s| distance(s, paper)).collect();
    let at = ((dist.len() - 1) as f32 * STRONGEST) as usize;
    let strongest = *dist.select_nth_unstable_by(at, f32::total_cmp).1;
    if strongest < MIN_INK {
        return None;
    }
    let (mut sum, mut count) = ([0f32; 3], 0usize);
    for s in &samples {
        if distance(*s, paper) >= CORE * strongest {
            for (a, v) in sum.iter_mut().zip(s) {
                *a += v;
            }
            count += 1;
        }
    }
    let ink = sum.map(|v| v / count.max(1) as f32);
    Some(InkColour { ink, paper })
}

/// Splits the digits `cells` (with their ink colours, in the same order)
/// into givens and entries by colour, when their inks form two or three
/// groups ([`MAX_INKS`]), every two at least [`MIN_DISTANCE`] and
/// [`SEPARATION`] diameters (of the widest group) apart; `None` otherwise
/// (one ink, or a spread of inks: a photo). The split is the best cut of
/// the inks along their principal axis (Otsu's criterion: the most
/// variance between the two sides); when the two sides do not stand apart,
/// each side in turn is cut once more the same way, since a third ink (an
/// app's wrong entry in red beside its blue ones) widens the side it falls
/// on, and the three groups that stand apart best are kept, if any do. The
/// givens are the group whose ink stands out most from its paper in
/// lightness; the other groups' digits are entries.
pub fn split_by_colour(cells: &[usize], inks: &[InkColour]) -> Option<ColourSplit> {
    let n = inks.len();
    if n < 2 || cells.len() != n {
        return None;
    }
    let all: Vec<usize> = (0..n).collect();
    let [a, b] = best_cut(inks, &all)?;
    let mut groups = vec![a, b];
    if separation(inks, &groups).is_none() {
        let mut best: Option<(f32, Vec<Vec<usize>>)> = None;
        for side in 0..2 {
            let Some([c, d]) = best_cut(inks, &groups[side]) else {
                continue;
            };
            let three = vec![groups[1 - side].clone(), c, d];
            if let Some(ratio) = separation(inks, &three)
                && best.as_ref().is_none_or(|(r, _)| ratio > *r)
            {
                best = Some((ratio, three));
            }
        }
        groups = best?.1;
    }
    debug_assert!(groups.len() <= MAX_INKS);
    let contrast =
        |g: &[usize]| g.iter().map(|&i| inks[i].lightness_contrast()).sum::<f32>() / g.len() as f32;
    let givens = (0..groups.len())
        .max_by(|&x, &y| contrast(&groups[x]).total_cmp(&contrast(&groups[y])))
        .expect("two groups or more");
    let mut others: Vec<&Vec<usize>> = (0..groups.len())
        .filter(|&g| g != givens)
        .map(|g| &groups[g])
        .collect();
    others.sort_by_key(|g| std::cmp::Reverse(g.len()));
    let mut entry_cells: Vec<usize> = others
        .iter()
        .flat_map(|g| g.iter().map(|&i| cells[i]))
        .collect();
    entry_cells.sort_unstable();
    Some(ColourSplit {
        givens: mean(inks, &groups[givens]),
        entries: others.iter().map(|g| mean(inks, g)).collect(),
        entry_cells,
    })
}

/// The mean ink colour of the digits `members` (indices into `inks`).
fn mean(inks: &[InkColour], members: &[usize]) -> [f32; 3] {
    let mut s = [0f32; 3];
    for &m in members {
        for (a, v) in s.iter_mut().zip(inks[m].ink) {
            *a += v;
        }
    }
    s.map(|v| v / members.len().max(1) as f32)
}

/// The best cut of the inks of `members` (indices into `inks`) in two:
/// Otsu's along their principal axis. `None` for fewer than two members
/// or inks all alike.
fn best_cut(inks: &[InkColour], members: &[usize]) -> Option<[Vec<usize>; 2]> {
    let n = members.len();
    if n < 2 {
        return None;
    }
    let centre = mean(inks, members);
    // The principal axis of the inks, by power iteration on their scatter.
    let mut scatter = [[0f32; 3]; 3];
    for &i in members {
        let d = [0, 1, 2].map(|k| inks[i].ink[k] - centre[k]);
        for a in 0..3 {
            for b in 0..3 {
                scatter[a][b] += d[a] * d[b];
            }
        }
    }
    let mut axis = [1f32, 1.0, 1.0];
    for _ in 0..32 {
        let next = [0, 1, 2].map(|a| (0..3).map(|b| scatter[a][b] * axis[b]).sum::<f32>());
        let norm = distance(next, [0.0; 3]);
        if norm < 1e-6 {
            return None;
        }
        axis = next.map(|v| v / norm);
    }
    let mut order: Vec<(f32, usize)> = members
        .iter()
        .map(|&i| {
            (
                (0..3).map(|k| (inks[i].ink[k] - centre[k]) * axis[k]).sum(),
                i,
            )
        })
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Otsu's cut along the axis.
    let total: f32 = order.iter().map(|o| o.0).sum();
    let (mut best, mut cut, mut below) = (f32::MIN, 0usize, 0f32);
    for k in 1..n {
        below += order[k - 1].0;
        let (m0, m1) = (below / k as f32, (total - below) / (n - k) as f32);
        let between = k as f32 * (n - k) as f32 * (m0 - m1).powi(2);
        if between > best {
            (best, cut) = (between, k);
        }
    }
    Some([
        order[..cut].iter().map(|o| o.1).collect(),
        order[cut..].iter().map(|o| o.1).collect(),
    ])
}

/// How far apart the groups of inks stand, in diameters of the widest
/// (twice its radius, its farthest member's distance from its mean: the
/// widest's, so that one odd digit alone, of radius 0, is judged by the
/// others' spread), for the closest two; `None` when two means are closer
/// than [`MIN_DISTANCE`] or the ratio is under [`SEPARATION`].
fn separation(inks: &[InkColour], groups: &[Vec<usize>]) -> Option<f32> {
    let means: Vec<[f32; 3]> = groups.iter().map(|g| mean(inks, g)).collect();
    let widest = groups
        .iter()
        .zip(&means)
        .map(|(g, m)| {
            g.iter()
                .map(|&i| distance(inks[i].ink, *m))
                .fold(0f32, f32::max)
        })
        .fold(0f32, f32::max);
    let mut closest = f32::INFINITY;
    for (i, a) in means.iter().enumerate() {
        for b in &means[i + 1..] {
            closest = closest.min(distance(*a, *b));
        }
    }
    let ratio = closest / (2.0 * widest).max(f32::MIN_POSITIVE);
    (closest >= MIN_DISTANCE && ratio >= SEPARATION).then_some(ratio)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Layout;
    use crate::vision::locate::located_at_corners;
    use image::{Rgb, RgbImage};

    fn ink(ink: [f32; 3], paper: [f32; 3]) -> InkColour {
        InkColour { ink, paper }
    }

    const WHITE: [f32; 3] = [255.0; 3];

    #[test]
    fn black_and_blue_digits_split_into_givens_and_entries() {
        let mut inks = vec![ink([0.0; 3], WHITE); 20];
        inks.extend([ink([30.0, 90.0, 220.0], WHITE); 5]);
        // A given on a highlighted cell: its paper differs, not its ink.
        inks.push(ink([2.0, 1.0, 3.0], [200.0, 220.0, 250.0]));
        let cells: Vec<usize> = (0..inks.len()).map(|i| i * 3).collect();
        let split = split_by_colour(&cells, &inks).expect("two flat colours");
        assert_eq!(
            split.entry_cells,
            (20..25).map(|i| i * 3).collect::<Vec<_>>()
        );
        assert!(split.givens[2] < 5.0 && split.entries[0][2] > 200.0);
        assert_eq!(split.entries.len(), 1);
    }

    #[test]
    fn a_third_ink_for_the_players_mistakes_is_entries_too() {
        // Black givens, blue entries, one entry in red (a mistake as an app
        // shows it): two sides cut in two do not stand apart, the blue and
        // red side cut again does.
        let mut inks = vec![ink([10.0; 3], WHITE); 20];
        inks.extend([ink([40.0, 96.0, 210.0], WHITE); 6]);
        inks.push(ink([220.0, 40.0, 40.0], WHITE));
        let cells: Vec<usize> = (0..inks.len()).collect();
        let split = split_by_colour(&cells, &inks).expect("three flat colours");
        assert_eq!(split.entry_cells, (20..27).collect::<Vec<_>>());
        assert_eq!(split.entries.len(), 2);
        assert!(split.entries[0][2] > 200.0 && split.entries[1][0] > 200.0);
        // On a dark theme, with white givens.
        let dark = [30.0; 3];
        let mut inks = vec![ink([235.0; 3], dark); 12];
        inks.extend([ink([120.0, 170.0, 250.0], dark); 4]);
        inks.extend([ink([240.0, 90.0, 90.0], dark); 2]);
        let split = split_by_colour(&cells[..18], &inks).expect("three flat colours");
        assert_eq!(split.entry_cells, (12..18).collect::<Vec<_>>());
        // A photo's spread of inks with one red digit does not split.
        let mut inks: Vec<InkColour> = (0..20)
            .map(|i| ink([20.0 + 6.0 * i as f32; 3], [200.0; 3]))
            .collect();
        inks.push(ink([200.0, 40.0, 40.0], [200.0; 3]));
        assert_eq!(split_by_colour(&cells[..21], &inks), None);
    }

    #[test]
    fn on_a_dark_theme_the_givens_are_the_lightest() {
        let dark = [30.0; 3];
        let mut inks = vec![ink([235.0; 3], dark); 10];
        inks.extend([ink([120.0, 170.0, 250.0], dark); 3]);
        let cells: Vec<usize> = (0..inks.len()).collect();
        let split = split_by_colour(&cells, &inks).expect("two flat colours");
        assert_eq!(split.entry_cells, vec![10, 11, 12]);
    }

    #[test]
    fn one_ink_or_a_spread_of_inks_does_not_split() {
        // All black, a few levels apart.
        let inks: Vec<InkColour> = (0..25).map(|i| ink([i as f32 % 5.0; 3], WHITE)).collect();
        let cells: Vec<usize> = (0..25).collect();
        assert_eq!(split_by_colour(&cells, &inks), None);
        // A photo: the ink greys from 20 to 140 with the light, evenly.
        let inks: Vec<InkColour> = (0..25)
            .map(|i| ink([20.0 + 5.0 * i as f32; 3], [200.0; 3]))
            .collect();
        assert_eq!(split_by_colour(&cells, &inks), None);
        // Two groups, but each as wide as they are apart.
        let mut inks: Vec<InkColour> = (0..10).map(|i| ink([8.0 * i as f32; 3], WHITE)).collect();
        inks.extend((0..10).map(|i| ink([100.0 + 8.0 * i as f32; 3], WHITE)));
        assert_eq!(split_by_colour(&cells[..20], &inks), None);
        // One odd digit beside a spread of inks: judged by the spread.
        let mut inks: Vec<InkColour> = (0..20)
            .map(|i| ink([40.0 + 4.0 * i as f32; 3], WHITE))
            .collect();
        inks.push(ink([180.0; 3], WHITE));
        assert_eq!(split_by_colour(&cells[..21], &inks), None);
        // Too few digits to split.
        assert_eq!(split_by_colour(&cells[..1], &inks[..1]), None);
    }

    #[test]
    fn the_ink_of_a_drawn_digit_is_its_core_colour() {
        // A 270 x 270 white image holding a classic grid of 30 px cells; in
        // the middle cell a blue bar with a paler edge.
        let mut img = RgbImage::from_pixel(270, 270, Rgb([255, 255, 255]));
        for y in 126..144 {
            for x in 132..138 {
                img.put_pixel(x, y, Rgb([20, 60, 200]));
            }
            img.put_pixel(131, y, Rgb([140, 160, 230]));
        }
        // In the cell to its right, the same bar under a killer's black cage
        // sum in the top-left corner (0.07 to 0.3 of the cell).
        for y in 126..144 {
            for x in 162..168 {
                img.put_pixel(x, y, Rgb([20, 60, 200]));
            }
        }
        for y in 122..129 {
            for x in 152..159 {
                img.put_pixel(x, y, Rgb([0, 0, 0]));
            }
        }
        let corners = [[0.0, 0.0], [270.0, 0.0], [270.0, 270.0], [0.0, 270.0]];
        let located = located_at_corners(corners, &Layout::classic()).unwrap();
        let image = DynamicImage::ImageRgb8(img);
        let got = ink_colour(&image, &located, 40).expect("ink in the middle cell");
        assert!(
            distance(got.ink, [20.0, 60.0, 200.0]) < 1.0,
            "{:?}",
            got.ink
        );
        let got = ink_colour(&image, &located, 41).expect("ink beside it");
        assert!(
            distance(got.ink, [20.0, 60.0, 200.0]) < 1.0,
            "the sum is not the digit's ink: {:?}",
            got.ink
        );
        assert_eq!(got.paper, WHITE);
        assert!(ink_colour(&image, &located, 0).is_none());
    }
}
