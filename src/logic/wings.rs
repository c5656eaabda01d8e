//! Wings: XY-wing, XYZ-wing and W-wing.

use super::cands::{Candidate, Candidates, digits};
use super::ctx::Ctx;
use super::step::{ChainNode, Step, Technique, length_bonus};

/// Candidates of symbol `z` in cells that see every cell of `pattern`.
fn seeing_all(g: &Candidates, pattern: &[usize], z: u8) -> Vec<Candidate> {
    let houses = g.houses();
    houses
        .peers(pattern[0])
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| g.has(c, z) && !pattern.contains(&c))
        .filter(|&c| pattern[1..].iter().all(|&p| houses.sees(c, p)))
        .map(|c| Candidate::new(c, z))
        .collect()
}

/// A pivot with two (XY) or three (XYZ) candidates and two bivalue pincers
/// it sees, sharing a symbol z that the pivot (XYZ) may also hold: z leaves
/// every cell that sees all the cells that could hold it.
#[inline(never)]
pub(crate) fn xy_wing(g: &Candidates, cx: &Ctx, xyz: bool) -> Option<Step> {
    let houses = g.houses();
    let pivot_size = if xyz { 3 } else { 2 };
    for p in 0..houses.cell_count() {
        let pm = g.cell(p);
        if pm.count_ones() != pivot_size {
            continue;
        }
        let peers = houses.peers(p);
        for (i, &a) in peers.iter().enumerate() {
            let a = a as usize;
            let am = g.cell(a);
            if am.count_ones() != 2 || (am & pm).count_ones() != if xyz { 2 } else { 1 } {
                continue;
            }
            for &b in &peers[i + 1..] {
                let b = b as usize;
                let bm = g.cell(b);
                if bm.count_ones() != 2 || bm == am {
                    continue;
                }
                let z = am & bm;
                if z.count_ones() != 1 {
                    continue;
                }
                let ok = if xyz {
                    bm & pm == bm && am | bm == pm
                } else {
                    z & pm == 0 && (am | bm) & !z == pm
                };
                if !ok {
                    continue;
                }
                let zd = z.trailing_zeros() as u8 + 1;
                let pattern: &[usize] = if xyz { &[p, a, b] } else { &[a, b] };
                let mut elims = seeing_all(g, pattern, zd);
                elims.retain(|e| e.cell != p);
                if elims.is_empty() {
                    continue;
                }
                let mut st = Step::new(if xyz {
                    Technique::XYZWing
                } else {
                    Technique::XYWing
                });
                for c in [p, a, b] {
                    st.pattern
                        .extend(digits(g.cell(c)).map(|d| Candidate::new(c, d)));
                }
                st.cells = vec![p, a, b];
                st.eliminations = elims;
                if cx.text {
                    let removed: Vec<usize> = st.eliminations.iter().map(|e| e.cell).collect();
                    let (x, y) = (am & !z, bm & !z);
                    st.text = if xyz {
                        format!(
                            "XYZ-wing: {} holds {}; if it is {}, {} is {}, if {}, {} is {}, \
                             and otherwise it is {} itself; so {}, which see all three, cannot \
                             be {}.",
                            cx.cell(p),
                            cx.digits(pm),
                            cx.digits(x),
                            cx.cell(a),
                            cx.sym(zd),
                            cx.digits(y),
                            cx.cell(b),
                            cx.sym(zd),
                            cx.sym(zd),
                            cx.cells(&removed),
                            cx.sym(zd),
                        )
                    } else {
                        format!(
                            "XY-wing: {} is {} or {}; if {}, {} is {}, and if {}, {} is {}; \
                             either way {} cannot be {}.",
                            cx.cell(p),
                            cx.digits(x),
                            cx.digits(y),
                            cx.digits(x),
                            cx.cell(a),
                            cx.sym(zd),
                            cx.digits(y),
                            cx.cell(b),
                            cx.sym(zd),
                            cx.cells(&removed),
                            cx.sym(zd),
                        )
                    };
                }
                return Some(st);
            }
        }
    }
    None
}

/// Two cells holding the same two symbols x and y, joined by a strong link
/// on x (a house where x has only two places, one seeing each cell): one of
/// the two cells is y, so y leaves every cell that sees both.
#[inline(never)]
pub(crate) fn w_wing(g: &Candidates, cx: &Ctx) -> Option<Step> {
    let houses = g.houses();
    let cells = houses.cell_count();
    for p in 0..cells {
        let pm = g.cell(p);
        if pm.count_ones() != 2 {
            continue;
        }
        for q in p + 1..cells {
            if g.cell(q) != pm || houses.sees(p, q) {
                continue;
            }
            for x in digits(pm) {
                let y = (pm & !(1 << (x - 1))).trailing_zeros() as u8 + 1;
                let elims = seeing_all(g, &[p, q], y);
                if elims.is_empty() {
                    continue;
                }
                for h in 0..houses.house_count() {
                    let places = g.places(h, x);
                    if places.count_ones() != 2 {
                        continue;
                    }
                    let mut ends = houses.cells_at(h, places);
                    let (e1, e2) = (ends.next().expect("two"), ends.next().expect("two"));
                    let link = if touches(houses, e1, p) && touches(houses, e2, q) {
                        Some((e1, e2))
                    } else if touches(houses, e2, p) && touches(houses, e1, q) {
                        Some((e2, e1))
                    } else {
                        None
                    };
                    let Some((a, b)) = link else { continue };
                    let mut st = Step::new(Technique::WWing);
                    let node = |c: usize, d: u8, on: bool| ChainNode {
                        candidate: Candidate::new(c, d),
                        on,
                    };
                    let chain = vec![
                        node(p, y, false),
                        node(p, x, true),
                        node(a, x, false),
                        node(b, x, true),
                        node(q, x, false),
                        node(q, y, true),
                    ];
                    st.difficulty = Technique::WWing.base() + length_bonus(chain.len());
                    st.pattern = chain.iter().map(|n| n.candidate).collect();
                    st.cells = vec![p, q, a, b];
                    st.houses.push(h);
                    st.chains.push(chain);
                    st.eliminations = elims;
                    if cx.text {
                        let removed: Vec<usize> = st.eliminations.iter().map(|e| e.cell).collect();
                        st.text = format!(
                            "W-wing: {} and {} both hold only {} and {}; in {}, {} is in {} or \
                             {}, so {} and {} are not both {}: one of them is {}, and {} cannot \
                             be {}.",
                            cx.cell(p),
                            cx.cell(q),
                            cx.sym(x),
                            cx.sym(y),
                            cx.house(h),
                            cx.sym(x),
                            cx.cell(a),
                            cx.cell(b),
                            cx.cell(p),
                            cx.cell(q),
                            cx.sym(x),
                            cx.sym(y),
                            cx.cells(&removed),
                            cx.sym(y),
                        );
                    }
                    return Some(st);
                }
            }
        }
    }
    None
}

/// `a` sees `b` and is not `b`.
fn touches(houses: &super::houses::HouseIndex, a: usize, b: usize) -> bool {
    a != b && houses.sees(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testutil::{classic, ctx, keep_only};

    #[test]
    fn xy_wing_removes_z_where_both_pincers_see() {
        let mut g = classic("");
        keep_only(&mut g, 10, &[3, 5]); // pivot r2c2
        keep_only(&mut g, 16, &[3, 8]); // r2c8
        keep_only(&mut g, 46, &[5, 8]); // r6c2
        let cx = ctx(g.houses());
        let st = xy_wing(&g, &cx, false).unwrap();
        assert_eq!(st.cells, [10, 16, 46]);
        // r6c8 sees both pincers; so do box-mates? r2c8's box and column 2... only r6c8.
        assert_eq!(st.eliminations, [Candidate::new(52, 8)]);
        assert_eq!(
            st.text,
            "XY-wing: r2c2 is 3 or 5; if 3, r2c8 is 8, and if 5, r6c2 is 8; either way r6c8 \
             cannot be 8."
        );
    }

    #[test]
    fn xyz_wing_needs_cells_that_see_all_three() {
        let mut g = classic("");
        keep_only(&mut g, 10, &[3, 5, 8]); // pivot r2c2
        keep_only(&mut g, 13, &[3, 8]); // r2c5
        keep_only(&mut g, 0, &[5, 8]); // r1c1
        let cx = ctx(g.houses());
        assert!(xy_wing(&g, &cx, false).is_none());
        let st = xy_wing(&g, &cx, true).unwrap();
        // Cells seeing r2c2, r2c5 and r1c1: r2c1 and r2c3.
        assert_eq!(
            st.eliminations,
            [Candidate::new(9, 8), Candidate::new(11, 8)]
        );
        assert_eq!(
            st.text,
            "XYZ-wing: r2c2 holds 3, 5 and 8; if it is 5, r1c1 is 8, if 3, r2c5 is 8, and \
             otherwise it is 8 itself; so r2c1 and r2c3, which see all three, cannot be 8."
        );
    }

    #[test]
    fn w_wing_uses_a_strong_link() {
        let mut g = classic("");
        keep_only(&mut g, 0, &[1, 2]); // r1c1
        keep_only(&mut g, 40, &[1, 2]); // r5c5
        // Row 9: 1 only in r9c1 and r9c5.
        for c in 72..81 {
            if c != 72 && c != 76 {
                g.eliminate(c, 1);
            }
        }
        let cx = ctx(g.houses());
        let st = w_wing(&g, &cx).unwrap();
        assert_eq!(st.technique, Technique::WWing);
        assert!((st.difficulty - 7.1).abs() < 1e-6);
        // Cells seeing r1c1 and r5c5: r1c5 and r5c1.
        assert_eq!(
            st.eliminations,
            [Candidate::new(4, 2), Candidate::new(36, 2)]
        );
        assert_eq!(
            st.text,
            "W-wing: r1c1 and r5c5 both hold only 1 and 2; in row 9, 1 is in r9c1 or r9c5, so \
             r1c1 and r5c5 are not both 1: one of them is 2, and r1c5 and r5c1 cannot be 2."
        );
    }
}
