//! Fish: X-wing, swordfish, jellyfish and their finned forms, on the rows
//! and columns of each sub-grid (a samurai's five grids each have their own).

use super::cands::{Candidate, Candidates};
use super::ctx::Ctx;
use super::houses::{SubGrid, bits};
use super::step::{Step, Technique};
use super::subsets::combos;

fn technique(k: usize, finned: bool) -> Technique {
    match (k, finned) {
        (2, false) => Technique::XWing,
        (3, false) => Technique::Swordfish,
        (_, false) => Technique::Jellyfish,
        (2, true) => Technique::FinnedXWing,
        (3, true) => Technique::FinnedSwordfish,
        (_, true) => Technique::FinnedJellyfish,
    }
}

/// A fish found: base lines (indices in the grid), cover lines, fins.
struct Found {
    base: Vec<u32>,
    cover: Vec<u32>,
    /// Positions of the base lines' candidates: (line index, cross index).
    fins: Vec<usize>,
    fin_box: Option<u32>,
    elims: Vec<Candidate>,
}

/// The first fish of size `k` (finned or not) on symbol after symbol.
pub(crate) fn find(g: &Candidates, cx: &Ctx, k: usize, finned: bool) -> Option<Step> {
    let houses = g.houses();
    let n = houses.size();
    for grid in houses.grids() {
        for d in 1..=n as u8 {
            for rows_first in [true, false] {
                let lines = if rows_first {
                    Lines {
                        base: &grid.rows,
                        cover: &grid.cols,
                        base_in_box: &grid.row_in_box,
                        cover_in_box: &grid.col_in_box,
                    }
                } else {
                    Lines {
                        base: &grid.cols,
                        cover: &grid.rows,
                        base_in_box: &grid.col_in_box,
                        cover_in_box: &grid.row_in_box,
                    }
                };
                if let Some(f) = search(g, grid, &lines, d, k, finned) {
                    return Some(step(g, cx, k, d, f));
                }
            }
        }
    }
    None
}

/// One orientation of a grid's lines: base lines, cover lines, and their
/// positions inside each box.
struct Lines<'a> {
    base: &'a [u32],
    cover: &'a [u32],
    base_in_box: &'a [u32],
    cover_in_box: &'a [u32],
}

fn search(
    g: &Candidates,
    grid: &SubGrid,
    lines: &Lines,
    d: u8,
    k: usize,
    finned: bool,
) -> Option<Found> {
    if finned {
        return search_finned(g, grid, lines, d, k);
    }
    let houses = g.houses();
    let (base, cover) = (lines.base, lines.cover);
    // Lines that may take part: the symbol open there in 2 to k places.
    let mut pool = [0usize; 32];
    let mut len = 0;
    for (i, &h) in base.iter().enumerate() {
        let c = g.places(h as usize, d).count_ones() as usize;
        if (2..=k).contains(&c) {
            pool[len] = i;
            len += 1;
        }
    }
    let mut found = None;
    combos(len, k, |ix| {
        let rows = ix.iter().fold(0u32, |m, &i| m | 1 << pool[i]);
        let union = ix
            .iter()
            .fold(0u32, |m, &i| m | g.places(base[pool[i]] as usize, d));
        if union.count_ones() as usize != k {
            return false;
        }
        let mut elims = Vec::new();
        for j in bits(union) {
            let line = cover[j] as usize;
            elims.extend(
                houses
                    .cells_at(line, g.places(line, d) & !rows)
                    .map(|c| Candidate::new(c, d)),
            );
        }
        if elims.is_empty() {
            return false;
        }
        found = Some(Found {
            base: ix.iter().map(|&i| base[pool[i]]).collect(),
            cover: bits(union).map(|j| cover[j]).collect(),
            fins: Vec::new(),
            fin_box: None,
            elims,
        });
        true
    });
    found
}

/// Finned fish, box by box: the base lines whose places outside the box
/// span at most `k` cover lines between them, with some place inside it.
fn search_finned(g: &Candidates, grid: &SubGrid, lines: &Lines, d: u8, k: usize) -> Option<Found> {
    let base = lines.base;
    let nb = grid.boxes.len();
    let mut pool = [0usize; 32];
    let mut outs = [0u32; 32];
    let mut ins = [0u32; 32];
    for b in 0..nb {
        let mut len = 0;
        for (i, &h) in base.iter().enumerate() {
            let p = g.places(h as usize, d);
            let inb = lines.base_in_box[i * nb + b];
            let out = p & !inb;
            if p != 0 && out.count_ones() as usize <= k {
                pool[len] = i;
                outs[len] = out;
                ins[len] = p & inb;
                len += 1;
            }
        }
        let mut found = None;
        combos(len, k, |ix| {
            let (out, inside) = ix
                .iter()
                .fold((0u32, 0u32), |(o, n), &i| (o | outs[i], n | ins[i]));
            if out.count_ones() as usize > k || inside == 0 {
                return false;
            }
            let rows = ix.iter().fold(0u32, |m, &i| m | 1 << pool[i]);
            found = finned_in_box(g, grid, lines, &pool, ix, rows, d, k, b);
            found.is_some()
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A finned fish whose fins all lie in the grid's box `b` (an index into
/// `grid.boxes`).
#[allow(clippy::too_many_arguments)]
fn finned_in_box(
    g: &Candidates,
    grid: &SubGrid,
    lines: &Lines,
    pool: &[usize],
    ix: &[usize],
    rows: u32,
    d: u8,
    k: usize,
    b: usize,
) -> Option<Found> {
    let houses = g.houses();
    let nb = grid.boxes.len();
    let mut outside = 0u32;
    let mut box_cols = 0u32;
    for &i in ix {
        let line = pool[i];
        let inb = lines.base_in_box[line * nb + b];
        outside |= g.places(lines.base[line] as usize, d) & !inb;
        box_cols |= inb;
    }
    if box_cols == 0 {
        return None;
    }
    let mut covers = [0u32; 32];
    let mut count = 0;
    match outside.count_ones() as usize {
        c if c == k => {
            covers[0] = outside;
            count = 1;
        }
        c if c + 1 == k => {
            for j in bits(box_cols & !outside) {
                covers[count] = outside | 1 << j;
                count += 1;
            }
        }
        _ => {}
    }
    for &cols in &covers[..count] {
        // Checked on masks first: allocation only for a fish found.
        let mut fins_any = false;
        let mut every_line_covered = true;
        for &i in ix {
            let p = g.places(lines.base[pool[i]] as usize, d);
            every_line_covered &= p & cols != 0;
            fins_any |= p & !cols != 0;
        }
        if !fins_any || !every_line_covered {
            continue;
        }
        // Cells of the box in a cover line, outside the base lines.
        let removable = |j: usize| {
            let line = lines.cover[j] as usize;
            g.places(line, d) & !rows & lines.cover_in_box[j * nb + b]
        };
        if bits(cols).all(|j| removable(j) == 0) {
            continue;
        }
        let mut fins = Vec::new();
        for &i in ix {
            let line = lines.base[pool[i]] as usize;
            fins.extend(houses.cells_at(line, g.places(line, d) & !cols));
        }
        let mut elims = Vec::new();
        for j in bits(cols) {
            let line = lines.cover[j] as usize;
            elims.extend(
                houses
                    .cells_at(line, removable(j))
                    .map(|c| Candidate::new(c, d)),
            );
        }
        return Some(Found {
            base: ix.iter().map(|&i| lines.base[pool[i]]).collect(),
            cover: bits(cols).map(|j| lines.cover[j]).collect(),
            fins,
            fin_box: Some(grid.boxes[b]),
            elims,
        });
    }
    None
}

fn step(g: &Candidates, cx: &Ctx, k: usize, d: u8, f: Found) -> Step {
    let houses = g.houses();
    let mut st = Step::new(technique(k, !f.fins.is_empty()));
    for &line in &f.base {
        st.pattern.extend(
            houses
                .cells_at(line as usize, g.places(line as usize, d))
                .map(|c| Candidate::new(c, d)),
        );
    }
    st.cells_from_pattern();
    st.houses
        .extend(f.base.iter().chain(&f.cover).map(|&h| h as usize));
    if let Some(b) = f.fin_box {
        st.houses.push(b as usize);
    }
    st.eliminations = f.elims;
    if cx.text {
        let base: Vec<usize> = f.base.iter().map(|&h| h as usize).collect();
        let cover: Vec<usize> = f.cover.iter().map(|&h| h as usize).collect();
        let removed: Vec<usize> = st.eliminations.iter().map(|e| e.cell).collect();
        st.text = if f.fins.is_empty() {
            format!(
                "{}: in {}, {} can only go in {}, so {} lose {} everywhere else: {}.",
                super::intersect::capitalised(st.technique.name()),
                cx.houses(&base),
                cx.sym(d),
                cx.houses(&cover),
                cx.houses(&cover),
                cx.sym(d),
                cx.cells(&removed),
            )
        } else {
            format!(
                "{}: in {}, {} can only go in {} or in the fin {}; either way {} cannot be {}, \
                 which shares {} with the fin.",
                super::intersect::capitalised(st.technique.name()),
                cx.houses(&base),
                cx.sym(d),
                cx.houses(&cover),
                cx.cells(&f.fins),
                cx.cells(&removed),
                cx.sym(d),
                cx.house(f.fin_box.expect("fins lie in a box") as usize),
            )
        };
    }
    st
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testutil::{classic, ctx};

    /// Removes `d` from every cell of row `r` (0-based) except columns `keep`.
    fn row_only(g: &mut Candidates, r: usize, d: u8, keep: &[usize]) {
        for c in 0..9 {
            if !keep.contains(&c) {
                g.eliminate(r * 9 + c, d);
            }
        }
    }

    #[test]
    fn x_wing_clears_its_columns() {
        let mut g = classic("");
        row_only(&mut g, 1, 4, &[2, 6]);
        row_only(&mut g, 4, 4, &[2, 6]);
        let cx = ctx(g.houses());
        let st = find(&g, &cx, 2, false).unwrap();
        assert_eq!(st.technique, Technique::XWing);
        assert_eq!(st.cells, [11, 15, 38, 42]);
        assert_eq!(st.eliminations.len(), 14);
        assert!(
            st.eliminations
                .iter()
                .all(|e| e.digit == 4 && [2, 6].contains(&(e.cell % 9)))
        );
        assert!(st.text.starts_with(
            "X-wing: in rows 2 and 5, 4 can only go in columns 3 and 7, so columns 3 and 7 lose 4 \
             everywhere else: r1c3, r3c3,"
        ));
    }

    #[test]
    fn swordfish_needs_three_lines() {
        let mut g = classic("");
        row_only(&mut g, 0, 7, &[0, 4]);
        row_only(&mut g, 3, 7, &[4, 8]);
        row_only(&mut g, 6, 7, &[0, 8]);
        let cx = ctx(g.houses());
        assert!(find(&g, &cx, 2, false).is_none());
        let st = find(&g, &cx, 3, false).unwrap();
        assert_eq!(st.technique, Technique::Swordfish);
        assert_eq!(st.eliminations.len(), 18);
    }

    #[test]
    fn finned_x_wing_removes_only_what_sees_the_fin() {
        let mut g = classic("");
        // Row 2: 4 in c3 and c7; row 5: 4 in c3, c7 and the fin c8 (box 6).
        row_only(&mut g, 1, 4, &[2, 6]);
        row_only(&mut g, 4, 4, &[2, 6, 7]);
        let cx = ctx(g.houses());
        assert!(find(&g, &cx, 2, false).is_none());
        let st = find(&g, &cx, 2, true).unwrap();
        assert_eq!(st.technique, Technique::FinnedXWing);
        // Column 7 cells in box 6 outside rows 2 and 5: r4c7 and r6c7.
        assert_eq!(
            st.eliminations,
            [Candidate::new(33, 4), Candidate::new(51, 4)]
        );
        assert_eq!(
            st.text,
            "Finned X-wing: in rows 2 and 5, 4 can only go in columns 3 and 7 or in the fin r5c8; \
             either way r4c7 and r6c7 cannot be 4, which shares box 6 with the fin."
        );
    }
}
