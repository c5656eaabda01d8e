//! The variant rules' text form, one line read against a layout: no panic;
//! each rule read is written and read back the same; checking the rules
//! and judging a full grid by them never panics.
#![no_main]

use fuzz_checks::CLASSIC_SOLUTION;
use libfuzzer_sys::fuzz_target;
use sudoku_lens::grid::{Layout, Rule, rules_hold};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The first line picks the layout (a classic when it names none), the
    // others are rule lines.
    let (head, body) = text.split_once('\n').unwrap_or(("", text));
    let layout = Layout::named(head.trim()).unwrap_or_else(|_| Layout::classic());
    let solution: Option<Vec<u8>> =
        (layout.name() == "classic").then(|| CLASSIC_SOLUTION.bytes().map(|b| b - b'0').collect());
    let empty = vec![0u8; layout.cell_count()];
    let mut all = Vec::new();
    for line in body.lines() {
        let Ok(rules) = Rule::parse(line, &layout) else {
            continue;
        };
        for rule in &rules {
            let written = rule.to_text(&layout);
            let back = Rule::parse(&written, &layout).unwrap_or_else(|(col, e)| {
                panic!("{written:?} does not read back: column {col}: {e}")
            });
            assert_eq!(
                back,
                vec![rule.clone()],
                "{line:?} written as {written:?} reads back differently"
            );
            let _ = rule.cells(&layout);
            let _ = rule.describe(&layout);
        }
        all.extend(rules);
    }
    let _ = sudoku_lens::grid::check_rules(&layout, &empty, &all);
    if let Some(sol) = solution {
        let _ = rules_hold(&layout, &sol, &all);
    }
});
