//! JSON puzzles: this program's form and f-puzzles objects. No panic, and
//! every puzzle read is written and read back the same in each of its
//! forms.
#![no_main]

use fuzz_checks::check_round_trips;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use sudoku_lens::grid::{self, fpuzzles, json};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return;
    };
    if let Ok(p) = json::from_json(&value, "fuzz") {
        check_round_trips(&p);
    }
    if fpuzzles::looks_like(&value) {
        if let Ok(p) = fpuzzles::from_fpuzzles(&value, "fuzz") {
            check_round_trips(&p);
        }
        let _ = fpuzzles::player_values(&value, "fuzz");
    }
    // As a file holding it (with the player's values, when it has some).
    let _ = grid::parse(text, "fuzz", None);
    let _ = grid::parse_progress(text, "fuzz", None);
});
