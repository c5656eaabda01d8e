//! Variant rules in hints: what one rule rules out of the candidates, as a
//! step that names the rule ("thermometer r1c1-r1c4: r1c1 loses 7, 8 and
//! 9"). The reasoning is the solver's own narrowing of that rule alone
//! ([`RuleEliminations`]): a cell's parity, a placed symbol leaving the
//! rest of a diagonal or region, the partners a dot, XV, sign, thermometer
//! step or whisper leaves, and the bounds of a sum (arrows, little killers,
//! sandwiches, region sum lines), a renban's span and a between line's ends.

use super::cands::{Candidate, Candidates, digits};
use super::ctx::Ctx;
use super::step::{Step, Technique};
use crate::grid::{Layout, Rule};
use crate::solve::RuleEliminations;

/// The first rule, in the puzzle's order, that rules out a candidate.
pub(crate) fn find(
    g: &Candidates,
    cx: &Ctx,
    layout: &Layout,
    rules: &[Rule],
    narrowing: &RuleEliminations,
) -> Option<Step> {
    let cand: Vec<u32> = (0..g.values().len())
        .map(|c| match g.value(c) {
            0 => g.cell(c),
            v => 1 << (v - 1),
        })
        .collect();
    for (i, rule) in rules.iter().enumerate() {
        let Some(gone) = narrowing.of(i, &cand) else {
            continue;
        };
        if gone.is_empty() {
            continue;
        }
        let mut st = Step::new(Technique::VariantRule);
        for &(cell, mask) in &gone {
            st.eliminations
                .extend(digits(mask).map(|d| Candidate::new(cell, d)));
        }
        st.cells = rule.cells(layout).iter().map(|&c| c as usize).collect();
        st.rule = Some(i);
        if cx.text {
            st.text = format!("{}: {}", rule.describe(layout), cx.losses(&st.eliminations));
        }
        return Some(st);
    }
    None
}
