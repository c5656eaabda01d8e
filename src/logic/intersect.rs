//! Locked candidates: when a symbol's places in one house all lie where it
//! crosses a second house, the second house loses the symbol elsewhere.
//! Pointing (a box into a line), claiming (a line into a box), and on shapes
//! with overlapping grids any two houses that share cells. The direct forms
//! are the ones that leave a hidden single behind.

use super::cands::{Candidate, Candidates, full_mask};
use super::ctx::Ctx;
use super::houses::{Intersection, bits};
use super::step::{Step, Technique};
use crate::grid::HouseKind;

fn technique(g: &Candidates, x: &Intersection, direct: bool) -> Technique {
    let s = g.houses();
    match (
        s.kind(x.a as usize) == HouseKind::Box,
        s.kind(x.b as usize) == HouseKind::Box,
        direct,
    ) {
        (true, false, false) => Technique::Pointing,
        (false, true, false) => Technique::Claiming,
        (_, _, false) => Technique::LockedCandidates,
        (true, false, true) => Technique::DirectPointing,
        (_, _, true) => Technique::DirectClaiming,
    }
}

/// The first locked candidates of technique `want` (pointing, claiming,
/// locked candidates, or their direct forms).
pub(crate) fn find(g: &Candidates, cx: &Ctx, want: Technique) -> Option<Step> {
    let direct = matches!(want, Technique::DirectPointing | Technique::DirectClaiming);
    let houses = g.houses();
    let n = houses.size();
    for x in houses.intersections() {
        if technique(g, x, direct) != want {
            continue;
        }
        let (a, b) = (x.a as usize, x.b as usize);
        let open = !g.placed(a) & full_mask(n);
        for d in bits(open) {
            let d = d as u8 + 1;
            let p = g.places(a, d);
            if p.count_ones() < 2 || p & !x.in_a != 0 {
                continue;
            }
            let out = g.places(b, d) & !x.in_b;
            if out == 0 {
                continue;
            }
            let hidden = if direct {
                match following_single(g, a, b, out, d) {
                    Some(s) => Some(s),
                    None => continue,
                }
            } else {
                None
            };
            return Some(step(g, cx, want, a, b, p, out, d, hidden));
        }
    }
    None
}

/// After removing `d` from the positions `out` of house `b`, a house other
/// than `a` left with one place for `d`: (its cell, the house).
fn following_single(g: &Candidates, a: usize, b: usize, out: u32, d: u8) -> Option<(usize, usize)> {
    let houses = g.houses();
    for cell in houses.cells_at(b, out) {
        for &(h, _) in houses.houses_of(cell) {
            let h = h as usize;
            if h == a || h == b {
                continue;
            }
            let mut left = g.places(h, d);
            let before = left.count_ones();
            for other in houses.cells_at(b, out) {
                if let Some(i) = houses.index_in(other, h) {
                    left &= !(1 << i);
                }
            }
            if before > 1 && left.count_ones() == 1 {
                return Some((houses.house(h)[left.trailing_zeros() as usize] as usize, h));
            }
        }
    }
    None
}

#[allow(clippy::too_many_arguments)]
fn step(
    g: &Candidates,
    cx: &Ctx,
    t: Technique,
    a: usize,
    b: usize,
    inside: u32,
    out: u32,
    d: u8,
    hidden: Option<(usize, usize)>,
) -> Step {
    let houses = g.houses();
    let mut st = Step::new(t);
    st.pattern
        .extend(houses.cells_at(a, inside).map(|c| Candidate::new(c, d)));
    st.cells_from_pattern();
    st.eliminations
        .extend(houses.cells_at(b, out).map(|c| Candidate::new(c, d)));
    st.houses.extend([a, b]);
    if let Some((cell, h)) = hidden {
        st.placements.push(Candidate::new(cell, d));
        st.houses.push(h);
    }
    if cx.text {
        let cells: Vec<usize> = st.cells.clone();
        let removed: Vec<usize> = st.eliminations.iter().map(|e| e.cell).collect();
        let mut text = format!(
            "{}: in {}, {} can only go in {} (inside {}), so {} loses it in {}",
            capitalised(t.name()),
            cx.house(a),
            cx.sym(d),
            cx.cells(&cells),
            cx.house(b),
            cx.house(b),
            cx.cells(&removed),
        );
        if let Some((cell, h)) = hidden {
            text.push_str(&format!(
                "; then {} can only go in {} in {}",
                cx.sym(d),
                cx.cell(cell),
                cx.house(h)
            ));
        }
        text.push('.');
        st.text = text;
    }
    st
}

/// `Word` from `word`.
pub(crate) fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testutil::{classic, ctx};

    #[test]
    fn pointing_removes_the_symbol_from_the_rest_of_the_row() {
        // 5 is out of rows 2 and 3 of box 1: it points along row 1.
        let mut g = classic("");
        for c in [9, 10, 11, 18, 19, 20] {
            g.eliminate(c, 5);
        }
        let cx = ctx(g.houses());
        let st = find(&g, &cx, Technique::Pointing).unwrap();
        assert_eq!(st.pattern, [0, 1, 2].map(|c| Candidate::new(c, 5)).to_vec());
        assert_eq!(
            st.eliminations,
            (3..9).map(|c| Candidate::new(c, 5)).collect::<Vec<_>>()
        );
        assert_eq!(
            st.text,
            "Pointing: in box 1, 5 can only go in r1c1, r1c2 and r1c3 (inside row 1), \
             so row 1 loses it in r1c4, r1c5, r1c6, r1c7, r1c8 and r1c9."
        );
        assert!(find(&g, &cx, Technique::DirectPointing).is_none());
    }

    #[test]
    fn claiming_removes_the_symbol_from_the_rest_of_the_box() {
        // In row 1, 5 is left only in r1c2 and r1c3.
        let mut g = classic("1");
        for c in 3..9 {
            g.eliminate(c, 5);
        }
        let cx = ctx(g.houses());
        let st = find(&g, &cx, Technique::Claiming).unwrap();
        assert_eq!(st.houses, [0, 2]);
        assert_eq!(st.pattern, [1, 2].map(|c| Candidate::new(c, 5)).to_vec());
        assert_eq!(
            st.eliminations,
            [9, 10, 11, 18, 19, 20]
                .map(|c| Candidate::new(c, 5))
                .to_vec()
        );
        assert_eq!(
            st.text,
            "Claiming: in row 1, 5 can only go in r1c2 and r1c3 (inside box 1), \
             so box 1 loses it in r2c1, r2c2, r2c3, r3c1, r3c2 and r3c3."
        );
    }

    #[test]
    fn direct_pointing_names_the_hidden_single_it_leaves() {
        // Box 1 points 5 along row 1; in column 9, 5 is left in r1c9 and r2c9,
        // and... the elimination from r1c9 leaves r2c9 alone in column 9.
        let mut g = classic("");
        for c in [9, 10, 11, 18, 19, 20] {
            g.eliminate(c, 5);
        }
        for r in 2..9 {
            g.eliminate(r * 9 + 8, 5);
        }
        let cx = ctx(g.houses());
        let st = find(&g, &cx, Technique::DirectPointing).unwrap();
        assert_eq!(st.placements, [Candidate::new(17, 5)]);
        assert!(
            st.text
                .ends_with("; then 5 can only go in r2c9 in column 9."),
            "{}",
            st.text
        );
    }
}
