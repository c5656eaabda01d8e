//! House and rule, cell and rule: locked candidates through the variant
//! rules' links between two cells.
//!
//! A rule between two cells (a dot, XV, a sign, a knight's or king's move,
//! non-consecutive neighbours, a thermometer step, a whisper, a palindrome's
//! pair, a group smaller than a house) says "if this cell holds `x`, that
//! one cannot hold `y`": a link, as a house is between two of its cells
//! for one symbol. What every one of a few candidates rules out is gone,
//! since one of them is true:
//!
//! - **house and rule**: the places of a symbol in a house ("in box 1, 5
//!   goes in r1c1 or r2c2, and both touch r1c2: r1c2 is neither 4 nor 6"
//!   on a non-consecutive grid). With house links alone this is pointing
//!   or claiming, which come first; a step here uses a rule;
//! - **cell and rule**: the candidates of a cell ("r5c5 is 4 or 6, and
//!   either rules out 5 in r5c6"). House links alone never give one.
//!
//! These are the one-step forcing chains of the rules, which the forcing
//! chains would otherwise find at a far higher weight.

use super::cands::{Candidate, Candidates, digits};
use super::ctx::Ctx;
use super::houses::join_and;
use super::step::{Step, Technique};
use crate::grid::{Layout, Rule};
use crate::solve::RuleEliminations;

/// The links of a puzzle's rules between two cells: for each candidate
/// (`cell * n + symbol - 1`), the candidates it rules out, sorted, each
/// with the rule that does.
pub(crate) struct RuleLinks {
    n: usize,
    /// Each rule as a sentence names it.
    names: Vec<String>,
    start: Vec<u32>,
    to: Vec<u32>,
    rule: Vec<u32>,
}

/// How one candidate rules out another.
#[derive(Clone, Copy, PartialEq, Eq)]
enum By {
    /// Another symbol of the same cell.
    Cell,
    /// The same symbol in a cell sharing a house.
    House,
    /// A rule's link (its index).
    Rule(u32),
}

impl RuleLinks {
    /// `None` when no rule links two cells.
    pub fn new(layout: &Layout, narrowing: &RuleEliminations, rules: &[Rule]) -> Option<RuleLinks> {
        let links = RuleLinks::all(layout, narrowing, rules);
        (!links.to.is_empty()).then_some(links)
    }

    /// The links of `rules`, none when no rule links two cells (the
    /// forcing chains follow them beside the houses).
    pub fn all(layout: &Layout, narrowing: &RuleEliminations, rules: &[Rule]) -> RuleLinks {
        let n = layout.size();
        let mut per: Vec<Vec<(u32, u32)>> = vec![Vec::new(); layout.cell_count() * n];
        for i in 0..rules.len() {
            narrowing.links(i, |a, x, b, ys| {
                let to = &mut per[a as usize * n + x];
                to.extend(digits(ys).map(|y| (b * n as u32 + y as u32 - 1, i as u32)));
            });
        }
        let mut links = RuleLinks {
            n,
            names: rules.iter().map(|r| r.describe(layout)).collect(),
            start: vec![0],
            to: Vec::new(),
            rule: Vec::new(),
        };
        for mut v in per {
            v.sort_unstable();
            v.dedup_by_key(|&mut (k, _)| k);
            links.to.extend(v.iter().map(|&(k, _)| k));
            links.rule.extend(v.iter().map(|&(_, r)| r));
            links.start.push(links.to.len() as u32);
        }
        links
    }

    /// Whether no rule links two cells.
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    /// The candidates candidate `k` (`cell * n + symbol - 1`) rules out,
    /// sorted.
    pub fn partners(&self, k: usize) -> &[u32] {
        &self.to[self.start[k] as usize..self.start[k + 1] as usize]
    }

    /// The rule by which candidate `k` rules out candidate `j`, if one
    /// does (the first in the puzzle's order, where several do).
    pub fn rule_between(&self, k: usize, j: usize) -> Option<u32> {
        let from = self.start[k] as usize;
        self.partners(k)
            .binary_search(&(j as u32))
            .ok()
            .map(|i| self.rule[from + i])
    }

    /// `through non-consecutive and the houses`: the rules a step's links
    /// take, by name (the first three, then how many more), and the houses
    /// when a house link was taken too.
    fn through(&self, used: &[u32], houses: bool) -> String {
        const SHOWN: usize = 3;
        let mut names: Vec<String> = Vec::new();
        for &r in used {
            let name = &self.names[r as usize];
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
        if names.len() > SHOWN {
            let more = names.len() - SHOWN;
            names.truncate(SHOWN);
            names.push(format!("{more} more rules"));
        }
        if houses {
            names.push("the houses".to_string());
        }
        format!("through {}", join_and(&names))
    }

    /// The index of symbol `d` (1-based) in `cell`.
    fn index(&self, cell: usize, d: u8) -> usize {
        cell * self.n + d as usize - 1
    }

    /// Whether `d` in `cell` rules out `y` in `other`, and how: the cell
    /// or a house before a rule.
    fn rules_out(&self, g: &Candidates, cell: usize, d: u8, other: usize, y: u8) -> Option<By> {
        if other == cell {
            return (y != d).then_some(By::Cell);
        }
        if y == d && g.houses().sees(cell, other) {
            return Some(By::House);
        }
        self.rule_between(self.index(cell, d), self.index(other, y))
            .map(By::Rule)
    }

    /// What every candidate `(c, d)` of `sources` rules out, through a rule
    /// at least once: open candidates, in the sources' cells too (a place
    /// of the symbol loses what the other places all rule out). `used`
    /// receives the rules the links take, `houses` whether a house link
    /// was taken too.
    fn common(
        &self,
        g: &Candidates,
        sources: &[(usize, u8)],
        used: &mut Vec<u32>,
        houses: &mut bool,
    ) -> Vec<Candidate> {
        let mut out: Vec<Candidate> = Vec::new();
        let Some(&(c0, d0)) = sources.first() else {
            return out;
        };
        // Whatever all rule out, the first does: by a rule, by a house for
        // its own symbol, or in its own cell.
        let by_rule = self
            .partners(self.index(c0, d0))
            .iter()
            .map(|&k| (k as usize / self.n, (k as usize % self.n) as u8 + 1));
        let by_house = g.houses().peers(c0).iter().map(|&c| (c as usize, d0));
        let in_cell = digits(g.cell(c0) & !(1 << (d0 - 1))).map(|y| (c0, y));
        let mut rules = Vec::new();
        for (c, y) in by_rule.chain(by_house).chain(in_cell) {
            if g.value(c) != 0 || !g.has(c, y) {
                continue;
            }
            let cand = Candidate::new(c, y);
            if out.contains(&cand) {
                continue;
            }
            rules.clear();
            let mut house = false;
            let all = sources
                .iter()
                .all(|&(s, d)| match self.rules_out(g, s, d, c, y) {
                    Some(By::Rule(r)) => {
                        rules.push(r);
                        true
                    }
                    Some(By::House) => {
                        house = true;
                        true
                    }
                    Some(By::Cell) => true,
                    None => false,
                });
            if all && !rules.is_empty() {
                *houses |= house;
                out.push(cand);
                for &r in &rules {
                    if !used.contains(&r) {
                        used.push(r);
                    }
                }
            }
        }
        out
    }
}

/// The first house whose places for a symbol all rule out a candidate,
/// through a rule at least once.
pub(crate) fn house(g: &Candidates, cx: &Ctx, links: &RuleLinks) -> Option<Step> {
    let houses = g.houses();
    let (mut used, mut sources) = (Vec::new(), Vec::new());
    for h in 0..houses.house_count() {
        for d in 1..=g.size() as u8 {
            let places = g.places(h, d);
            if places.count_ones() < 2 {
                continue;
            }
            sources.clear();
            sources.extend(houses.cells_at(h, places).map(|c| (c, d)));
            used.clear();
            let mut by_house = false;
            let elims = links.common(g, &sources, &mut used, &mut by_house);
            if elims.is_empty() {
                continue;
            }
            let cells: Vec<usize> = sources.iter().map(|&(c, _)| c).collect();
            let mut st = step(Technique::RuleHouse, &sources, &used, elims);
            st.houses.push(h);
            if cx.text {
                st.text = format!(
                    "House and rule: in {}, {} can only go in {}; whichever it is, {}, {}.",
                    cx.house(h),
                    cx.sym(d),
                    or_list(cx, &cells),
                    links.through(&used, by_house),
                    cx.losses(&st.eliminations)
                );
            }
            return Some(st);
        }
    }
    None
}

/// The first cell whose candidates all rule out a candidate of another
/// cell (through a rule: a house rules out one symbol only).
pub(crate) fn cell(g: &Candidates, cx: &Ctx, links: &RuleLinks) -> Option<Step> {
    let (mut used, mut sources) = (Vec::new(), Vec::new());
    for c in 0..g.values().len() {
        let m = g.cell(c);
        if g.value(c) != 0 || m.count_ones() < 2 {
            continue;
        }
        sources.clear();
        sources.extend(digits(m).map(|d| (c, d)));
        used.clear();
        let mut by_house = false;
        let elims = links.common(g, &sources, &mut used, &mut by_house);
        if elims.is_empty() {
            continue;
        }
        let mut st = step(Technique::RuleCell, &sources, &used, elims);
        if cx.text {
            let held: Vec<String> = digits(m).map(|d| cx.sym(d).to_string()).collect();
            st.text = format!(
                "Cell and rule: {} holds {}; whichever it is, {}, {}.",
                cx.cell(c),
                or_join(&held),
                links.through(&used, by_house),
                cx.losses(&st.eliminations)
            );
        }
        return Some(st);
    }
    None
}

fn step(t: Technique, sources: &[(usize, u8)], used: &[u32], elims: Vec<Candidate>) -> Step {
    let mut st = Step::new(t);
    st.pattern = sources.iter().map(|&(c, d)| Candidate::new(c, d)).collect();
    for c in sources
        .iter()
        .map(|&(c, _)| c)
        .chain(elims.iter().map(|e| e.cell))
    {
        if !st.cells.contains(&c) {
            st.cells.push(c);
        }
    }
    st.rule = used.first().map(|&r| r as usize);
    st.eliminations = elims;
    st
}

/// `r1c1, r2c2 or r3c3`.
fn or_list(cx: &Ctx, cells: &[usize]) -> String {
    let names: Vec<String> = cells.iter().map(|&c| cx.cell(c)).collect();
    or_join(&names)
}

fn or_join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::HouseKind;
    use crate::logic::testutil::{classic, ctx, keep_only, only};

    fn non_consecutive() -> RuleLinks {
        let layout = Layout::classic();
        let rules = [Rule::NonConsecutive];
        let narrowing = RuleEliminations::new(&layout, &rules);
        RuleLinks::new(&layout, &narrowing, &rules).expect("neighbours are linked")
    }

    #[test]
    fn a_symbols_places_that_all_touch_a_cell_rule_out_its_neighbours() {
        // Box 1's 5 only in r1c1 and r2c2, both beside r1c2 and r2c1.
        let mut g = classic("");
        let houses = g.houses().clone();
        let (b, _) = *houses
            .houses_of(0)
            .iter()
            .find(|&&(h, _)| houses.kind(h as usize) == HouseKind::Box)
            .unwrap();
        let b = b as usize;
        let box1 = g.houses().house(b).to_vec();
        only(&mut g, 5, &[0, 10], box1.iter().map(|&c| c as usize));
        let links = non_consecutive();
        let st = house(&g, &ctx(&houses), &links).expect("a step");
        assert_eq!(st.technique, Technique::RuleHouse);
        assert_eq!(st.houses, [b]);
        let mut got = st.eliminations.clone();
        got.sort();
        let want = [(1, 4), (1, 6), (9, 4), (9, 6)].map(|(c, d)| Candidate::new(c, d));
        assert_eq!(got, want);
        assert_eq!(
            st.text,
            "House and rule: in box 1, 5 can only go in r1c1 or r2c2; whichever it is, \
             through non-consecutive, r1c2 loses 4 and 6, and r2c1 loses 4 and 6."
        );
        // Pointing alone says nothing here: without the rule, no step.
        let plain = RuleLinks {
            n: 9,
            names: Vec::new(),
            start: vec![0; 81 * 9 + 1],
            to: Vec::new(),
            rule: Vec::new(),
        };
        assert!(house(&g, &ctx(&houses), &plain).is_none());
    }

    #[test]
    fn a_place_of_the_symbol_loses_what_the_other_places_rule_out() {
        // Row 1's 5 only in r1c1 and r1c2, side by side: whichever holds
        // it, neither is 4 or 6 (one is 5, the other its neighbour).
        let mut g = classic("");
        let houses = g.houses().clone();
        only(&mut g, 5, &[0, 1], 0..9);
        let st = house(&g, &ctx(&houses), &non_consecutive()).expect("a step");
        assert_eq!(st.houses, [0], "row 1");
        let mut got = st.eliminations.clone();
        got.sort();
        let want = [(0, 4), (0, 6), (1, 4), (1, 6)].map(|(c, d)| Candidate::new(c, d));
        assert_eq!(got, want);
    }

    #[test]
    fn a_cells_candidates_that_all_rule_out_a_neighbour_remove_it() {
        // r5c5 holds 4 or 6: its four neighbours cannot hold 5.
        let mut g = classic("");
        keep_only(&mut g, 40, &[4, 6]);
        let links = non_consecutive();
        let houses = g.houses().clone();
        assert!(house(&g, &ctx(&houses), &links).is_none());
        let st = cell(&g, &ctx(&houses), &links).expect("a step");
        assert_eq!(st.technique, Technique::RuleCell);
        let mut got = st.eliminations.clone();
        got.sort();
        let want = [31, 39, 41, 49].map(|c| Candidate::new(c, 5));
        assert_eq!(got, want);
        assert_eq!(st.pattern, [Candidate::new(40, 4), Candidate::new(40, 6)]);
        assert!(
            st.text
                .starts_with("Cell and rule: r5c5 holds 4 or 6; whichever it is, through non"),
            "{}",
            st.text
        );
    }

    #[test]
    fn rules_without_links_between_two_cells_give_none() {
        let layout = Layout::classic();
        let rules = [Rule::Odd(0)];
        let narrowing = RuleEliminations::new(&layout, &rules);
        assert!(RuleLinks::new(&layout, &narrowing, &rules).is_none());
    }
}
