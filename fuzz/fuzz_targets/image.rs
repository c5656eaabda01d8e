//! Image bytes read as a photo or screenshot of a puzzle: no panic, within
//! the run's time and memory. Images larger than [`MAX_PIXELS`] are skipped
//! from their header, so that a run stays fast; PDFs have a target of
//! their own.
#![no_main]

use std::io::Cursor;

use image::ImageReader;
use libfuzzer_sys::fuzz_target;
use sudoku_lens::vision::{
    page::pdf::is_pdf,
    read::{Colour, read_image_bytes},
};

/// The largest image read (the samples are up to 2.6 MP; most are below).
const MAX_PIXELS: u64 = 2_000_000;

fuzz_target!(|data: &[u8]| {
    if is_pdf(data) {
        return;
    }
    let Ok(reader) = ImageReader::new(Cursor::new(data)).with_guessed_format() else {
        return;
    };
    let Ok((w, h)) = reader.into_dimensions() else {
        return;
    };
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return;
    }
    if let Ok(read) = read_image_bytes(data, "fuzz", None, Colour::Drop)
        && let Ok(reading) = read.reading
    {
        let p = &reading.puzzle;
        assert_eq!(p.values().len(), p.layout().cell_count());
        assert_eq!(reading.cells.len(), p.layout().cell_count());
        let _ = p.to_text();
    }
});
