//! Placements: full house, hidden single (box first, then lines), naked single.

use super::cands::{Candidate, Candidates};
use super::ctx::Ctx;
use super::houses::bits;
use super::step::{Step, Technique};
use crate::grid::HouseKind;

/// A placement found by a single, before it is written up as a [`Step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Single {
    pub technique: Technique,
    pub cell: usize,
    pub digit: u8,
    /// The house that forces it (none for a naked single).
    pub house: Option<usize>,
}

/// The last empty cell of a house.
#[inline(never)]
pub(crate) fn full_house(g: &Candidates) -> Option<Single> {
    let houses = g.houses();
    let n = houses.size();
    for h in 0..houses.house_count() {
        if g.placed(h).count_ones() as usize == n - 1 {
            let cell = *houses
                .house(h)
                .iter()
                .find(|&&c| g.value(c as usize) == 0)
                .expect("one empty cell") as usize;
            let missing = !g.placed(h) & super::cands::full_mask(n);
            if g.cell(cell) & missing == 0 {
                continue; // a dead end, reported elsewhere
            }
            return Some(Single {
                technique: Technique::FullHouse,
                cell,
                digit: missing.trailing_zeros() as u8 + 1,
                house: Some(h),
            });
        }
    }
    None
}

/// The only place left for a symbol in a house: boxes when `boxes`, else
/// rows and columns.
#[inline(never)]
pub(crate) fn hidden_single(g: &Candidates, boxes: bool) -> Option<Single> {
    let houses = g.houses();
    let n = houses.size();
    for h in 0..houses.house_count() {
        if (houses.kind(h) == HouseKind::Box) != boxes {
            continue;
        }
        let open = !g.placed(h) & super::cands::full_mask(n);
        for d in bits(open) {
            let p = g.places(h, d as u8 + 1);
            if p.count_ones() == 1 {
                return Some(Single {
                    technique: if boxes {
                        Technique::HiddenSingleBox
                    } else {
                        Technique::HiddenSingleLine
                    },
                    cell: houses.house(h)[p.trailing_zeros() as usize] as usize,
                    digit: d as u8 + 1,
                    house: Some(h),
                });
            }
        }
    }
    None
}

/// A cell with one candidate left.
#[inline(never)]
pub(crate) fn naked_single(g: &Candidates) -> Option<Single> {
    (0..g.houses().cell_count())
        .find(|&c| g.cell(c).count_ones() == 1)
        .map(|c| Single {
            technique: Technique::NakedSingle,
            cell: c,
            digit: g.cell(c).trailing_zeros() as u8 + 1,
            house: None,
        })
}

/// The singles in the order the engine tries them.
pub(crate) fn any_single(g: &Candidates, naked: bool) -> Option<Single> {
    full_house(g)
        .or_else(|| hidden_single(g, true))
        .or_else(|| hidden_single(g, false))
        .or_else(|| if naked { naked_single(g) } else { None })
}

/// Writes a single up as a step.
pub(crate) fn step(g: &Candidates, s: Single, cx: &Ctx) -> Step {
    let mut st = Step::new(s.technique);
    let at = Candidate::new(s.cell, s.digit);
    st.placements.push(at);
    st.cells.push(s.cell);
    if let Some(h) = s.house {
        st.houses.push(h);
    }
    match s.technique {
        Technique::NakedSingle => st.pattern.push(at),
        Technique::FullHouse => {}
        _ => st.pattern.push(at),
    }
    if cx.text {
        let (d, cell) = (cx.sym(s.digit), cx.cell(s.cell));
        st.text = match (s.technique, s.house) {
            (Technique::FullHouse, Some(h)) => format!(
                "Full house: {cell} is the last empty cell of {}, so it takes the missing {d}.",
                cx.house(h)
            ),
            (Technique::NakedSingle, _) => {
                let others = !g.cell(s.cell) & super::cands::full_mask(g.size());
                format!(
                    "Naked single: {cell} can only be {d}; {} are already in its houses.",
                    cx.digits(others)
                )
            }
            (_, Some(h)) => format!(
                "Hidden single: in {}, {d} can only go in {cell}.",
                cx.house(h)
            ),
            _ => unreachable!("every hidden single has its house"),
        };
    }
    st
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Alphabet, Layout};
    use crate::logic::houses::HouseIndex;
    use std::sync::Arc;

    fn grid(s: &str) -> Candidates {
        let houses = Arc::new(HouseIndex::new(Arc::new(Layout::classic())));
        let v: Vec<u8> = s
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        Candidates::new(houses, &v)
    }

    fn cx(houses: &HouseIndex) -> Ctx<'_> {
        Ctx {
            houses,
            text: true,
            unique: false,
            alphabet: Alphabet::Digits,
        }
    }

    #[test]
    fn full_house_fills_the_last_cell_of_a_row() {
        let g = grid(&format!("12345678.{}", ".".repeat(72)));
        let s = full_house(&g).unwrap();
        assert_eq!((s.cell, s.digit), (8, 9));
        let st = step(&g, s, &cx(g.houses()));
        assert_eq!(st.placements, [Candidate::new(8, 9)]);
        assert_eq!(
            st.text,
            "Full house: r1c9 is the last empty cell of row 1, so it takes the missing 9."
        );
    }

    #[test]
    fn hidden_single_in_a_box_before_lines() {
        // 1 in rows 2 and 3 and in column 2: box 1 has only r1c3 left for 1...
        let mut s = ".".repeat(81).into_bytes();
        s[9 + 4] = b'1'; // r2c5
        s[18 + 7] = b'1'; // r3c8
        s[27 + 1] = b'1'; // r4c2
        s[2 * 9] = b'2'; // r3c1 filled
        s[0] = b'3'; // r1c1 filled
        let g = grid(std::str::from_utf8(&s).unwrap());
        let h = hidden_single(&g, true).unwrap();
        assert_eq!(
            (h.cell, h.digit, h.technique),
            (2, 1, Technique::HiddenSingleBox)
        );
        let st = step(&g, h, &cx(g.houses()));
        assert_eq!(st.text, "Hidden single: in box 1, 1 can only go in r1c3.");
    }

    #[test]
    fn naked_single_names_what_is_excluded() {
        // r1c1 sees 1-4 in its row and 5-8 in its column.
        let mut s = format!(".1234{}", ".".repeat(76)).into_bytes();
        for (i, d) in [b'5', b'6', b'7', b'8'].into_iter().enumerate() {
            s[9 * (i + 1)] = d;
        }
        let g = grid(std::str::from_utf8(&s).unwrap());
        let s = naked_single(&g).unwrap();
        assert_eq!((s.cell, s.digit), (0, 9));
        let st = step(&g, s, &cx(g.houses()));
        assert_eq!(
            st.text,
            "Naked single: r1c1 can only be 9; 1, 2, 3, 4, 5, 6, 7 and 8 are already in its houses."
        );
    }
}
