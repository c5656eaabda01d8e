//! Techniques that rest on the puzzle having exactly one solution: unique
//! rectangle type 1 and the bivalue universal grave (BUG + 1). The engine
//! only tries them when the caller says the puzzle is unique.

use super::cands::{Candidate, Candidates, digits, full_mask};
use super::ctx::Ctx;
use super::step::{Step, Technique};

/// Whether symbols could swap between the cells `[a, b, c, d]` (`a`-`b`,
/// `a`-`c`, `b`-`d`, `c`-`d` the sides, `a`-`d` and `b`-`c` the diagonals):
/// every house holding one of them holds exactly one side. On any layout
/// that is what makes two solutions of four such cells.
fn is_deadly(g: &Candidates, q: [usize; 4]) -> bool {
    let houses = g.houses();
    for &cell in &q {
        for &(h, _) in houses.houses_of(cell) {
            let inside: Vec<usize> = (0..4)
                .filter(|&i| houses.index_in(q[i], h as usize).is_some())
                .collect();
            if inside.len() != 2 || inside == [0, 3] || inside == [1, 2] {
                return false;
            }
        }
    }
    true
}

/// Three cells holding only the same two symbols at three corners of a
/// deadly rectangle: the fourth corner cannot hold either.
#[inline(never)]
pub(crate) fn rectangle(g: &Candidates, cx: &Ctx) -> Option<Step> {
    let houses = g.houses();
    for a in 0..houses.cell_count() {
        let m = g.cell(a);
        if m.count_ones() != 2 {
            continue;
        }
        let same: Vec<usize> = houses
            .peers(a)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| g.cell(c) == m)
            .collect();
        for (i, &b) in same.iter().enumerate() {
            for &c in &same[i + 1..] {
                if houses.sees(b, c) {
                    continue;
                }
                for &d in houses.peers(b) {
                    let d = d as usize;
                    if d == a || !houses.sees(d, c) || g.cell(d) & m != m || g.cell(d) == m {
                        continue;
                    }
                    if !is_deadly(g, [a, b, c, d]) {
                        continue;
                    }
                    let mut st = Step::new(Technique::UniqueRectangle);
                    for cell in [a, b, c, d] {
                        st.pattern
                            .extend(digits(m).map(|x| Candidate::new(cell, x)));
                    }
                    st.cells = vec![a, b, c, d];
                    st.eliminations = digits(m).map(|x| Candidate::new(d, x)).collect();
                    if cx.text {
                        st.text = format!(
                            "Unique rectangle: {} hold only {}; if {} held either, the four \
                             cells could swap {} and the puzzle would have two solutions, so \
                             {} is neither.",
                            cx.cells(&[a, b, c]),
                            cx.digits(m),
                            cx.cell(d),
                            cx.digits(m),
                            cx.cell(d),
                        );
                    }
                    return Some(st);
                }
            }
        }
    }
    None
}

/// Bivalue universal grave + 1: every empty cell but one holds two
/// candidates, and every symbol has two places in each house except one
/// symbol, three times in the houses of the odd cell. Without that symbol in
/// that cell the grid would have no solution or several, so it goes there.
#[inline(never)]
pub(crate) fn bug(g: &Candidates, cx: &Ctx) -> Option<Step> {
    let houses = g.houses();
    let n = houses.size();
    let mut odd = None;
    for c in 0..houses.cell_count() {
        match g.cell(c).count_ones() {
            0 | 2 => {}
            3 if odd.is_none() => odd = Some(c),
            _ => return None,
        }
    }
    let cell = odd?;
    let mut extra = None;
    for d in digits(g.cell(cell)) {
        let ok = (0..houses.house_count()).all(|h| {
            if g.placed(h) >> (d - 1) & 1 != 0 {
                return true;
            }
            let want = if houses.index_in(cell, h).is_some() {
                3
            } else {
                2
            };
            g.places(h, d).count_ones() == want
        });
        if ok {
            extra = Some(d);
            break;
        }
    }
    let d = extra?;
    // Every other symbol: exactly two places in every house lacking it.
    let others_ok = digits(full_mask(n) & !(1 << (d - 1))).all(|x| {
        (0..houses.house_count())
            .all(|h| g.placed(h) >> (x - 1) & 1 != 0 || g.places(h, x).count_ones() == 2)
    });
    if !others_ok {
        return None;
    }
    let mut st = Step::new(Technique::BivalueGrave);
    st.placements.push(Candidate::new(cell, d));
    st.pattern = digits(g.cell(cell))
        .map(|x| Candidate::new(cell, x))
        .collect();
    st.cells.push(cell);
    if cx.text {
        st.text = format!(
            "Bivalue universal grave: every empty cell but {} holds two candidates, and each \
             symbol has two places in every house except {}, which has three in the houses of \
             {}; without it there the puzzle would have no solution or several, so {} is {}.",
            cx.cell(cell),
            cx.sym(d),
            cx.cell(cell),
            cx.cell(cell),
            cx.sym(d),
        );
    }
    Some(st)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testutil::{classic, ctx, keep_only};

    #[test]
    fn unique_rectangle_clears_the_fourth_corner() {
        let mut g = classic("");
        // r1c1, r1c4, r2c1 hold only 2 and 7: rows 1-2, columns 1 and 4, boxes 1 and 2.
        for c in [0, 3, 9] {
            keep_only(&mut g, c, &[2, 7]);
        }
        let cx = ctx(g.houses());
        let st = rectangle(&g, &cx).unwrap();
        assert_eq!(st.cells, [0, 3, 9, 12]);
        assert_eq!(
            st.eliminations,
            [Candidate::new(12, 2), Candidate::new(12, 7)]
        );
        assert_eq!(
            st.text,
            "Unique rectangle: r1c1, r1c4 and r2c1 hold only 2 and 7; if r2c4 held either, the \
             four cells could swap 2 and 7 and the puzzle would have two solutions, so r2c4 is \
             neither."
        );
    }

    #[test]
    fn four_boxes_make_no_deadly_rectangle() {
        let mut g = classic("");
        // r1c1, r1c4, r4c1 and r4c4 lie in four boxes: a swap breaks the boxes.
        for c in [0, 3, 27] {
            keep_only(&mut g, c, &[2, 7]);
        }
        let cx = ctx(g.houses());
        assert!(rectangle(&g, &cx).is_none());
    }

    #[test]
    fn bug_places_the_symbol_seen_three_times() {
        // A 4x4 candidate grid: every cell bivalue but r4c3 (2, 3, 4); 3 has
        // three places in row 4, column 3 and their box, every other count is two.
        let houses = std::sync::Arc::new(crate::logic::houses::HouseIndex::new(
            std::sync::Arc::new(crate::grid::Layout::square(4).unwrap()),
        ));
        let mut g = Candidates::new(houses, &[0; 16]);
        #[rustfmt::skip]
        let sets: [&[u8]; 16] = [
            &[1, 3], &[2, 4], &[2, 3], &[1, 4],
            &[2, 3], &[1, 4], &[1, 3], &[2, 4],
            &[2, 4], &[1, 3], &[1, 4], &[2, 3],
            &[1, 4], &[2, 3], &[2, 3, 4], &[1, 3],
        ];
        for (c, keep) in sets.iter().enumerate() {
            keep_only(&mut g, c, keep);
        }
        let cx = ctx(g.houses());
        let st = bug(&g, &cx).unwrap();
        assert_eq!(st.placements, [Candidate::new(14, 3)]);
        assert_eq!(
            st.text,
            "Bivalue universal grave: every empty cell but r4c3 holds two candidates, and each \
             symbol has two places in every house except 3, which has three in the houses of \
             r4c3; without it there the puzzle would have no solution or several, so r4c3 is 3."
        );
        // One more candidate anywhere breaks the pattern.
        let mut g2 = Candidates::new(g.houses().clone(), &[0; 16]);
        for (c, keep) in sets.iter().enumerate() {
            keep_only(&mut g2, c, if c == 0 { &[1, 2, 3] } else { keep });
        }
        assert!(bug(&g2, &cx).is_none());
    }
}
