//! Puzzle texts of every form (lines, grids, canvases, jigsaws, killers,
//! `rules:`, `entries:`; a JSON object or a link too, as `parse` hands
//! them on): no panic, and every puzzle read is written and read back the
//! same in each of its forms.
#![no_main]

use fuzz_checks::{assert_same, check_round_trips, puzzles, twelve_read_as_butterfly};
use libfuzzer_sys::fuzz_target;
use sudoku_lens::grid::{self, Layout};

/// A batch's lines each hold a puzzle: a few of them tell all.
const MAX_PUZZLES: usize = 4;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(doc) = grid::parse(text, "fuzz", None) {
        for p in puzzles(doc, MAX_PUZZLES) {
            check_round_trips(&p);
        }
    }
    // The shape forced, as `--layout` does: one of the named shapes, picked
    // by the text's length.
    let names = Layout::names();
    let layout = Layout::named(names[text.len() % names.len()]).expect("a layout's own name");
    if let Ok(doc) = grid::parse(text, "fuzz", Some(&layout)) {
        for p in puzzles(doc, MAX_PUZZLES) {
            check_round_trips(&p);
        }
    }
    // A player's digits beside the givens.
    if let Ok(progress) = grid::parse_progress(text, "fuzz", None) {
        let written = progress.to_text();
        let read = |layout| {
            grid::parse_progress(&written, "written", layout).unwrap_or_else(|e| {
                panic!("entries: the text written does not read back: {e}\nwritten:\n{written}")
            })
        };
        let mut back = read(None);
        if twelve_read_as_butterfly(progress.puzzle(), back.puzzle()) {
            back = read(Some(progress.puzzle().layout()));
        }
        assert_same(progress.puzzle(), back.puzzle(), "entries", &written);
        assert_eq!(
            progress.entries().values(),
            back.entries().values(),
            "entries: the player's digits read back differ\nwritten:\n{written}"
        );
    }
});
