//! f-puzzles and SudokuPad links: the lz-string data decompressed and read.
//! No panic; lz-string data compressed and decompressed is the same text;
//! every puzzle read is written and read back the same in each form.
#![no_main]

use fuzz_checks::check_round_trips;
use libfuzzer_sys::fuzz_target;
use sudoku_lens::grid::{self, fpuzzles};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The link's data as it is, and the text as a whole link.
    let _ = fpuzzles::decompress(text);
    let link = if fpuzzles::is_link(text) {
        text.to_string()
    } else {
        format!("{}{}", fpuzzles::LINK_PREFIX, text.trim())
    };
    if let Ok(value) = fpuzzles::link_value(&link, "fuzz") {
        if let Ok(p) = fpuzzles::from_fpuzzles(&value, "fuzz") {
            check_round_trips(&p);
        }
        let _ = grid::parse(&link, "fuzz", None);
        let _ = grid::parse_progress(&link, "fuzz", None);
    }
    // Any text survives lz-string (but the empty one, which decompresses
    // to nothing: a link with no data is refused either way).
    if text.is_empty() {
        return;
    }
    let packed = fpuzzles::compress(text);
    assert_eq!(
        fpuzzles::decompress(&packed).as_deref(),
        Some(text),
        "lz-string: compressed then decompressed differs (packed: {packed})"
    );
});
