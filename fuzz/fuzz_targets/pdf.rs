//! PDF bytes: the page count, and the first page rendered (as `solve
//! book.pdf` does). No panic, within the run's time and memory.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_lens::vision::page::pdf::{page_count, render_page};

fuzz_target!(|data: &[u8]| {
    let Ok(pages) = page_count(data) else {
        return;
    };
    match render_page(data, 1) {
        Ok(img) => assert!(img.width() > 0 && img.height() > 0),
        Err(e) => assert!(pages == 0 || !e.to_string().is_empty()),
    }
    // A page past the last is refused.
    assert!(render_page(data, pages + 1).is_err());
});
