//! Naked and hidden subsets (pairs, triples, quads) in any house, and the
//! direct hidden pair and triple that leave a hidden single behind.

use super::cands::{Candidate, Candidates, digits, full_mask};
use super::ctx::Ctx;
use super::step::{Step, Technique};

/// Calls `f` on every `k`-subset (as indices into `0..len`, rising) until it
/// returns true; returns whether it did.
pub(crate) fn combos(len: usize, k: usize, mut f: impl FnMut(&[usize]) -> bool) -> bool {
    if k == 0 || k > len {
        return false;
    }
    let mut idx = [0usize; 8];
    assert!(k <= idx.len());
    for (i, slot) in idx.iter_mut().enumerate().take(k) {
        *slot = i;
    }
    loop {
        if f(&idx[..k]) {
            return true;
        }
        // Advance the rightmost index that can move.
        let mut i = k;
        loop {
            if i == 0 {
                return false;
            }
            i -= 1;
            if idx[i] < len - k + i {
                break;
            }
        }
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

fn naked_technique(k: usize) -> Technique {
    match k {
        2 => Technique::NakedPair,
        3 => Technique::NakedTriple,
        _ => Technique::NakedQuad,
    }
}

fn hidden_technique(k: usize, direct: bool) -> Technique {
    match (k, direct) {
        (2, false) => Technique::HiddenPair,
        (3, false) => Technique::HiddenTriple,
        (2, true) => Technique::DirectHiddenPair,
        (3, true) => Technique::DirectHiddenTriple,
        _ => Technique::HiddenQuad,
    }
}

/// `k` cells of a house holding only `k` symbols between them: those symbols
/// leave every other cell of each house the `k` cells share.
pub(crate) fn naked(g: &Candidates, cx: &Ctx, k: usize) -> Option<Step> {
    let houses = g.houses();
    let mut pool = [0usize; 32];
    for h in 0..houses.house_count() {
        let mut len = 0;
        let mut empty = 0;
        for &c in houses.house(h) {
            let m = g.cell(c as usize);
            if m != 0 {
                empty += 1;
                if (m.count_ones() as usize) <= k {
                    pool[len] = c as usize;
                    len += 1;
                }
            }
        }
        if empty <= k {
            continue;
        }
        let mut found = None;
        combos(len, k, |ix| {
            let union = ix.iter().fold(0u32, |u, &i| u | g.cell(pool[i]));
            if union.count_ones() as usize != k {
                return false;
            }
            let mut cells = [0usize; 8];
            for (j, &i) in ix.iter().enumerate() {
                cells[j] = pool[i];
            }
            let cells = &cells[..k];
            let mut elims = Vec::new();
            // Every house holding all k cells.
            for &(other, _) in houses.houses_of(cells[0]) {
                let other = other as usize;
                if !cells.iter().all(|&c| houses.index_in(c, other).is_some()) {
                    continue;
                }
                for &c in houses.house(other) {
                    let c = c as usize;
                    if cells.contains(&c) {
                        continue;
                    }
                    for d in digits(g.cell(c) & union) {
                        let e = Candidate::new(c, d);
                        if !elims.contains(&e) {
                            elims.push(e);
                        }
                    }
                }
            }
            if elims.is_empty() {
                return false;
            }
            found = Some((cells.to_vec(), union, elims));
            true
        });
        if let Some((cells, union, elims)) = found {
            let mut st = Step::new(naked_technique(k));
            for &c in &cells {
                st.pattern
                    .extend(digits(g.cell(c)).map(|d| Candidate::new(c, d)));
            }
            st.cells = cells.clone();
            st.houses.push(h);
            st.eliminations = elims;
            if cx.text {
                st.text = format!(
                    "{}: {} hold only {} between them, so no other cell of {} can hold those: remove {}.",
                    super::intersect::capitalised(st.technique.name()),
                    cx.cells(&cells),
                    cx.digits(union),
                    cx.house(h),
                    cx.removals(&st.eliminations),
                );
            }
            return Some(st);
        }
    }
    None
}

/// `k` symbols whose places in a house are only `k` cells: those cells hold
/// nothing else. With `direct`, only a set whose removals leave another
/// symbol a single place in the house, which it also places.
pub(crate) fn hidden(g: &Candidates, cx: &Ctx, k: usize, direct: bool) -> Option<Step> {
    let houses = g.houses();
    let n = houses.size();
    let mut pool = [0u8; 32];
    for h in 0..houses.house_count() {
        let open = !g.placed(h) & full_mask(n);
        let empty = open.count_ones() as usize;
        if empty <= k {
            continue;
        }
        let mut len = 0;
        for d in digits(open) {
            let c = g.places(h, d).count_ones() as usize;
            if (1..=k).contains(&c) {
                pool[len] = d;
                len += 1;
            }
        }
        let mut found = None;
        combos(len, k, |ix| {
            let at = ix.iter().fold(0u32, |u, &i| u | g.places(h, pool[i]));
            if at.count_ones() as usize != k {
                return false;
            }
            let set = ix.iter().fold(0u32, |u, &i| u | 1 << (pool[i] - 1));
            let mut elims = Vec::new();
            for c in houses.cells_at(h, at) {
                elims.extend(digits(g.cell(c) & !set).map(|d| Candidate::new(c, d)));
            }
            if elims.is_empty() {
                return false;
            }
            let single = if direct {
                let mut hit = None;
                for d in digits(open & !set) {
                    let p = g.places(h, d);
                    if p.count_ones() > 1 && (p & !at).count_ones() == 1 {
                        hit = Some((houses.house(h)[(p & !at).trailing_zeros() as usize], d));
                        break;
                    }
                }
                match hit {
                    Some(x) => Some(x),
                    None => return false,
                }
            } else {
                None
            };
            found = Some((at, set, elims, single));
            true
        });
        if let Some((at, set, elims, single)) = found {
            let mut st = Step::new(hidden_technique(k, direct));
            let cells: Vec<usize> = houses.cells_at(h, at).collect();
            for &c in &cells {
                st.pattern
                    .extend(digits(g.cell(c) & set).map(|d| Candidate::new(c, d)));
            }
            st.cells = cells.clone();
            st.houses.push(h);
            st.eliminations = elims;
            if let Some((cell, d)) = single {
                st.placements.push(Candidate::new(cell as usize, d));
            }
            if cx.text {
                let mut text = format!(
                    "{}: in {}, {} can only go in {}, so those cells hold nothing else: {}",
                    super::intersect::capitalised(st.technique.name()),
                    cx.house(h),
                    cx.digits(set),
                    cx.cells(&cells),
                    cx.losses(&st.eliminations),
                );
                if let Some((cell, d)) = single {
                    text.push_str(&format!(
                        "; then {} can only go in {}",
                        cx.sym(d),
                        cx.cell(cell as usize)
                    ));
                }
                text.push('.');
                st.text = text;
            }
            return Some(st);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testutil::{classic, ctx, keep_only};

    #[test]
    fn combos_visit_every_subset_once() {
        let mut seen = Vec::new();
        combos(5, 3, |ix| {
            seen.push(ix.to_vec());
            false
        });
        assert_eq!(seen.len(), 10);
        assert_eq!(seen[0], [0, 1, 2]);
        assert_eq!(seen[9], [2, 3, 4]);
    }

    #[test]
    fn naked_pair_clears_its_row() {
        let mut g = classic("");
        keep_only(&mut g, 1, &[3, 7]);
        keep_only(&mut g, 4, &[3, 7]);
        let cx = ctx(g.houses());
        let st = naked(&g, &cx, 2).unwrap();
        assert_eq!(st.cells, [1, 4]);
        assert_eq!(st.houses, [0]);
        let mut want: Vec<Candidate> = [0, 2, 3, 5, 6, 7, 8]
            .iter()
            .flat_map(|&c| [Candidate::new(c, 3), Candidate::new(c, 7)])
            .collect();
        want.sort();
        let mut got = st.eliminations.clone();
        got.sort();
        assert_eq!(got, want);
        assert_eq!(
            st.text,
            "Naked pair: r1c2 and r1c5 hold only 3 and 7 between them, so no other cell of \
             row 1 can hold those: remove 3 from r1c1, r1c3, r1c4, r1c6, r1c7, r1c8 and r1c9, \
             and 7 from r1c1, r1c3, r1c4, r1c6, r1c7, r1c8 and r1c9."
        );
    }

    #[test]
    fn naked_triple_in_a_box_also_clears_their_shared_row() {
        let mut g = classic("");
        keep_only(&mut g, 0, &[1, 2]);
        keep_only(&mut g, 1, &[2, 3]);
        keep_only(&mut g, 2, &[1, 3]);
        let cx = ctx(g.houses());
        assert!(naked(&g, &cx, 2).is_none());
        let st = naked(&g, &cx, 3).unwrap();
        assert_eq!(st.technique, Technique::NakedTriple);
        // Row 1 and box 1 both lose 1, 2 and 3: 6 + 6 cells.
        assert_eq!(st.eliminations.len(), 12 * 3);
    }

    #[test]
    fn hidden_pair_strips_its_cells() {
        let mut g = classic("");
        for c in [0, 2, 3, 5, 6, 7, 8] {
            g.eliminate(c, 4);
            g.eliminate(c, 6);
        }
        let cx = ctx(g.houses());
        let st = hidden(&g, &cx, 2, false).unwrap();
        assert_eq!(st.cells, [1, 4]);
        assert_eq!(st.eliminations.len(), 14);
        assert!(st.eliminations.iter().all(|e| e.digit != 4 && e.digit != 6));
        assert_eq!(
            st.text,
            "Hidden pair: in row 1, 4 and 6 can only go in r1c2 and r1c5, so those cells hold \
             nothing else: r1c2 loses 1, 2, 3, 5, 7, 8 and 9, and r1c5 loses 1, 2, 3, 5, 7, 8 and 9."
        );
        // No symbol is left a single place by it: not direct.
        assert!(hidden(&g, &cx, 2, true).is_none());
    }

    #[test]
    fn direct_hidden_pair_places_what_it_leaves() {
        let mut g = classic("");
        for c in [0, 2, 3, 5, 6, 7, 8] {
            g.eliminate(c, 4);
            g.eliminate(c, 6);
        }
        // 9 in row 1 only in r1c2, r1c5 and r1c9.
        for c in [0, 2, 3, 5, 6, 7] {
            g.eliminate(c, 9);
        }
        let cx = ctx(g.houses());
        let st = hidden(&g, &cx, 2, true).unwrap();
        assert_eq!(st.technique, Technique::DirectHiddenPair);
        assert_eq!(st.placements, [Candidate::new(8, 9)]);
        assert!(st.text.ends_with("; then 9 can only go in r1c9."));
    }
}
