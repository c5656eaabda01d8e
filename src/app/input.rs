//! What a person hands the app (a file, dropped bytes, a pasted image or
//! text, a bundled sample) and the background work that turns it into a
//! document: decoding, locating and reading the grid, or parsing the text.
//! Nothing here touches the window.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use image::{GrayImage, RgbaImage};

use crate::grid::{Document, Layout, Progress, has_entries, parse, parse_progress};
use crate::vision::locate::{LocateError, LocateFileError};
use crate::vision::page::load::{load_page, to_grey};
use crate::vision::page::pdf::{is_pdf, page_count};
use crate::vision::read::{
    Colour, ReadOptions, Reading, Regions, read_at_corners_with, read_grey_with, read_image_bytes,
};

/// File name endings offered by the open dialog.
pub use crate::vision::page::load::IMAGE_EXTENSIONS;
/// Puzzle text file endings offered by the open dialog.
pub const TEXT_EXTENSIONS: &[&str] = &["txt", "sdk", "sudoku"];

/// One way a puzzle arrives.
#[derive(Clone, Debug)]
pub enum Input {
    /// A file on disk: an image or a puzzle text, told apart by content.
    Path(PathBuf),
    /// A file's content (a drop without a path, a bundled sample).
    Bytes { name: String, bytes: Arc<[u8]> },
    /// Pasted or bundled text.
    Text { name: String, text: String },
    /// A pasted image (a screenshot from the clipboard).
    Image { name: String, image: Arc<RgbaImage> },
    /// One page (from 1) of a paged file (a PDF) given as a path or bytes.
    Page { file: Box<Input>, page: usize },
}

impl Input {
    /// The name shown for this input while it is read.
    pub fn name(&self) -> String {
        match self {
            Input::Path(p) => file_name(p),
            Input::Bytes { name, .. } | Input::Text { name, .. } | Input::Image { name, .. } => {
                name.clone()
            }
            Input::Page { file, page } => format!("{}, page {page}", file.name()),
        }
    }

    /// Whether two inputs are the same file: the same path, or the same
    /// bytes in memory. Pages of one file are the same file.
    pub fn same_file(&self, other: &Input) -> bool {
        match (self.file(), other.file()) {
            (Input::Path(a), Input::Path(b)) => a == b,
            (Input::Bytes { bytes: a, .. }, Input::Bytes { bytes: b, .. }) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// The file a page is of; any other input itself.
    pub fn file(&self) -> &Input {
        match self {
            Input::Page { file, .. } => file.file(),
            other => other,
        }
    }
}

/// Where a document stands in a paged file (a PDF): its page (from 1), the
/// page count, and the file to read the other pages from.
#[derive(Clone, Debug)]
pub struct Pages {
    pub number: usize,
    pub count: usize,
    pub file: Input,
}

impl Pages {
    /// "page 3 of 12".
    pub fn label(&self) -> String {
        format!("page {} of {}", self.number, self.count)
    }
}

/// The last component of a path, for messages.
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// A photo and what was read from it.
#[derive(Clone, Debug)]
pub struct Photo {
    pub rgba: Arc<RgbaImage>,
    pub grey: Arc<GrayImage>,
}

/// What reading an input produced.
#[derive(Clone, Debug)]
pub enum Loaded {
    /// A photo; `reading` is `Err` with a message when no grid was found, in
    /// which case the document starts with corners placed for the person to
    /// drag onto the grid. `pages` is set for a page of a PDF.
    Photo {
        photo: Photo,
        reading: Result<Box<Reading>, String>,
        pages: Option<Pages>,
        /// The file is damaged: what shows is the part that could be
        /// decoded. The message to say so.
        damaged: Option<String>,
    },
    /// A puzzle text, with the player's entries when it gives them.
    Text { progress: Progress },
}

/// Reads an input to the end. Runs on a background thread; every failure
/// is a message naming the input, never a panic.
pub fn load(input: Input) -> Result<Loaded, String> {
    let (file, page) = match &input {
        Input::Page { file, page } => (file.file().clone(), *page),
        other => (other.clone(), 1),
    };
    let name = file.name();
    match &file {
        Input::Path(path) => {
            let bytes = std::fs::read(path).map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => format!("{name} does not exist (any more)"),
                std::io::ErrorKind::IsADirectory => {
                    format!("{name} is a folder: open an image or a puzzle text file")
                }
                _ => format!("cannot read {name}: {e}"),
            })?;
            load_content(&bytes, &name, &file, page)
        }
        Input::Bytes { bytes, .. } => load_content(bytes, &name, &file, page),
        Input::Text { text, .. } => load_text(text, &name),
        Input::Image { image, .. } => Ok(read_photo(image.clone(), &name)),
        // `file()` is never a page; said rather than assumed.
        Input::Page { .. } => Err(format!("{name}: a page of a page cannot be read")),
    }
}

/// Reads page `page` of a file's content: a PDF's page, else (page 1 only)
/// an image or a puzzle text. `file` is what the other pages are read from.
fn load_content(bytes: &[u8], name: &str, file: &Input, page: usize) -> Result<Loaded, String> {
    if is_pdf(bytes) {
        return load_pdf_page(bytes, name, file, page);
    }
    if page != 1 {
        return Err(format!("{name} is not a PDF: it has no page {page}"));
    }
    if image::guess_format(bytes).is_ok() {
        let read = read_image_bytes(bytes, name, None, Colour::Keep).map_err(|e| e.to_string())?;
        let rgba = read.image.map(|i| i.into_rgba8()).unwrap_or_default();
        let mut loaded = photo(
            Arc::new(rgba),
            Arc::new(read.grey),
            read.reading,
            name,
            None,
        );
        if jpeg_cut_short(bytes)
            && let Loaded::Photo { damaged, .. } = &mut loaded
        {
            *damaged = Some(format!(
                "{name} is damaged: the file ends before its picture does, and only the part shown could be decoded"
            ));
        }
        return Ok(loaded);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => load_text(text, name),
        Err(_) => Err(format!(
            "{name} is neither an image (PNG, JPEG, WebP, BMP, GIF, TIFF) nor a puzzle text file"
        )),
    }
}

/// What the app opens, for a file it cannot.
pub const FORMS: &str = "photos and screenshots (PNG, JPEG, WebP, BMP, GIF, TIFF), PDFs, and puzzle text: 81 symbols on a line (0 or . for a blank), a grid of rows, a jigsaw or a killer in text form, the JSON form, or an f-puzzles link";

/// True when a JPEG ends before its end-of-image marker: the file was cut
/// short (a copy or download that stopped), and the decoder fills the rest
/// with grey. Walks the segments, skipping their contents (an EXIF
/// thumbnail's markers included) and the coded data after each start of
/// scan; data after the end marker (a phone's trailer) is no damage.
pub fn jpeg_cut_short(bytes: &[u8]) -> bool {
    if !bytes.starts_with(&[0xFF, 0xD8]) {
        return false;
    }
    let mut i = 2;
    loop {
        // The next marker: 0xFF (any number of them), then its code.
        while bytes.get(i).is_some_and(|&b| b != 0xFF) {
            i += 1;
        }
        while bytes.get(i) == Some(&0xFF) {
            i += 1;
        }
        let Some(&marker) = bytes.get(i) else {
            return true;
        };
        i += 1;
        match marker {
            0xD9 => return false,
            0x01 | 0xD0..=0xD7 => continue,
            _ => {
                let Some(len) = bytes.get(i..i + 2) else {
                    return true;
                };
                i += u16::from_be_bytes([len[0], len[1]]) as usize;
                if i > bytes.len() {
                    return true;
                }
                if marker != 0xDA {
                    continue;
                }
                // Coded data up to the next marker that is neither a
                // stuffed 0xFF nor a restart.
                loop {
                    let Some(at) = bytes[i..].iter().position(|&b| b == 0xFF) else {
                        return true;
                    };
                    i += at;
                    match bytes.get(i + 1) {
                        None => return true,
                        Some(0x00 | 0xD0..=0xD7) => i += 2,
                        Some(0xFF) => i += 1,
                        Some(_) => break,
                    }
                }
            }
        }
    }
}

/// True when text looks like a puzzle gone wrong rather than some other
/// text: a line of at least four cells' worth of digits, dots and grid
/// separators, or the start of the JSON form or of an f-puzzles link.
fn tries_to_be_a_puzzle(text: &str) -> bool {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.contains("f-puzzles") {
        return true;
    }
    text.lines().any(|line| {
        let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
        cells.len() >= 4
            && cells.iter().any(|c| c.is_ascii_digit() || *c == '.')
            && cells
                .iter()
                .all(|c| c.is_ascii_digit() || ".-_*|+#".contains(*c))
    })
}

/// Parses puzzle text; a batch file opens its first puzzle.
pub fn load_text(text: &str, name: &str) -> Result<Loaded, String> {
    if text.trim().is_empty() {
        return Err(format!("{name} is empty: no puzzle in it"));
    }
    // Not a puzzle it knows: say what it opens; the parser's line and
    // column only for text that tries to be a puzzle.
    parse_text(text, name).map_err(|detail| {
        let first = format!("{name} is not a puzzle sudoku-lens knows: it opens {FORMS}.");
        match tries_to_be_a_puzzle(text) {
            true => format!("{first}\n{detail}"),
            false => first,
        }
    })
}

/// [`load_text`]'s parsing: the parser's own message on failure.
fn parse_text(text: &str, name: &str) -> Result<Loaded, String> {
    if has_entries(text) {
        let progress = parse_progress(text, name, None).map_err(|e| e.to_string())?;
        return Ok(Loaded::Text { progress });
    }
    let text_of = |puzzle| Loaded::Text {
        progress: Progress::givens_only(puzzle),
    };
    match parse(text, name, None).map_err(|e| e.to_string())? {
        Document::Single(puzzle) => Ok(text_of(puzzle)),
        Document::Batch(entries) => entries
            .into_iter()
            .find_map(|e| match e {
                crate::grid::Entry::Puzzle { puzzle, .. } => Some(puzzle),
                crate::grid::Entry::Other(_) => None,
            })
            .ok_or_else(|| format!("{name} holds no puzzle"))?
            .map(text_of)
            .map_err(|e| e.to_string()),
    }
}

/// Renders page `page` of a PDF and reads its grid. A page without a grid
/// is a document like a photo without one; a page that does not exist or a
/// PDF that cannot be rendered is an error naming the file and the page.
fn load_pdf_page(bytes: &[u8], name: &str, file: &Input, page: usize) -> Result<Loaded, String> {
    let count = page_count(bytes).map_err(|e| format!("{name}: {e}"))?;
    let image = load_page(bytes, name, page).map_err(|e| e.to_string())?;
    let grey = Arc::new(to_grey(&image));
    let (result, _) = read_grey_with(&grey, None, in_colour(&image, Regions::Detect));
    let rgba = Arc::new(image.into_rgba8());
    let page_name = format!("{name}, page {page}");
    let pages = Pages {
        number: page,
        count,
        file: file.clone(),
    };
    Ok(photo(
        rgba,
        grey,
        result.map_err(|e| e.in_file(&page_name)),
        &page_name,
        Some(pages),
    ))
}

/// Locates and reads the grid of a decoded image.
pub fn read_photo(rgba: Arc<RgbaImage>, name: &str) -> Loaded {
    let image = image::DynamicImage::ImageRgba8((*rgba).clone());
    let grey = Arc::new(image.to_luma8());
    let (result, _) = read_grey_with(&grey, None, in_colour(&image, Regions::Detect));
    photo(rgba, grey, result.map_err(|e| e.in_file(name)), name, None)
}

/// Reading options with the photo's colours (a screenshot's digits in a
/// second ink are the player's) and the boxes' rule `regions`.
fn in_colour(image: &image::DynamicImage, regions: Regions) -> ReadOptions<'_> {
    ReadOptions {
        colour: Some(image),
        regions,
        ..ReadOptions::default()
    }
}

impl Photo {
    /// The colour pixels as the reader takes them (a copy: reading runs on
    /// a thread of its own while the window shows the photo).
    fn colour(&self) -> image::DynamicImage {
        image::DynamicImage::ImageRgba8((*self.rgba).clone())
    }
}

/// A photo and its reading, or the message for a grid not found.
fn photo(
    rgba: Arc<RgbaImage>,
    grey: Arc<GrayImage>,
    result: Result<Reading, LocateFileError>,
    name: &str,
    pages: Option<Pages>,
) -> Loaded {
    let reading = result.map(Box::new).map_err(|e| match e.error {
        LocateError::NoGrid => format!(
            "no sudoku grid found in {name} — drag the corners onto the grid, or pick the layout"
        ),
        _ => e.to_string(),
    });
    Loaded::Photo {
        photo: Photo { rgba, grey },
        reading,
        pages,
        damaged: None,
    }
}

/// Reads the cells again with corners and a layout a person chose: the
/// layout's boxes are kept (a jigsaw's regions included).
pub fn reread(photo: &Photo, corners: [[f32; 2]; 4], layout: &Layout) -> Result<Reading, String> {
    let colour = photo.colour();
    reread_with(photo, corners, layout, in_colour(&colour, Regions::Boxes))
}

fn reread_with(
    photo: &Photo,
    corners: [[f32; 2]; 4],
    layout: &Layout,
    options: ReadOptions<'_>,
) -> Result<Reading, String> {
    read_at_corners_with(&photo.grey, corners, layout, options).ok_or_else(|| {
        "those corners do not make a grid: keep them in order around the puzzle".to_string()
    })
}

/// Reads a photo's grid as `layout`, its boxes decided as `regions` says:
/// the grid is looked for again with that layout forced, or, when the
/// locator finds none and `corners` are given (placed by a person), read
/// between those corners. The error is the reader's, naming `name`; asked
/// for the regions its lines draw ([`Regions::Lines`]), a grid whose lines
/// give none is an error too.
pub fn read_as(
    photo: &Photo,
    layout: &Layout,
    regions: Regions,
    corners: Option<[[f32; 2]; 4]>,
    name: &str,
) -> Result<Reading, String> {
    let colour = photo.colour();
    let options = in_colour(&colour, regions);
    let (found, _) = read_grey_with(&photo.grey, Some(layout), options);
    let reading = match (found, corners) {
        (Ok(reading), _) => reading,
        (Err(_), Some(corners)) => reread_with(photo, corners, layout, options)?,
        (Err(LocateError::NoGrid), None) => {
            return Err(format!(
                "no {} grid found in {name}: the layout stays as it was",
                layout.name()
            ));
        }
        (Err(e), None) => return Err(e.in_file(name).to_string()),
    };
    if regions == Regions::Lines && reading.jigsaw.as_ref().is_none_or(|j| j.layout.is_none()) {
        return Err(format!(
            "the lines of {name} draw no {n} regions of {n} cells: the layout stays as it was",
            n = layout.size()
        ));
    }
    Ok(reading)
}

/// Corners inset from the image border, for a photo whose grid was not
/// found: a starting point to drag from.
pub fn default_corners(width: u32, height: u32) -> [[f32; 2]; 4] {
    let (w, h) = (width as f32, height as f32);
    let side = w.min(h) * 0.8;
    let (x0, y0) = ((w - side) / 2.0, (h - side) / 2.0);
    [
        [x0, y0],
        [x0 + side, y0],
        [x0 + side, y0 + side],
        [x0, y0 + side],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(name: &str) -> Vec<u8> {
        std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("samples/images")
                .join(name),
        )
        .unwrap()
    }

    #[test]
    fn a_jpeg_cut_short_is_told_from_a_whole_one() {
        for name in ["classic-photo-page.jpg", "classic-photo-exif.jpg"] {
            let whole = sample(name);
            assert!(!jpeg_cut_short(&whole), "{name} is whole");
            let mut trailer = whole.clone();
            trailer.extend_from_slice(b"a phone's trailer after the picture");
            assert!(!jpeg_cut_short(&trailer), "{name} with a trailer is whole");
            for cut in [whole.len() / 2, whole.len() - 2, 600] {
                assert!(jpeg_cut_short(&whole[..cut]), "{name} cut at {cut}");
            }
        }
        assert!(!jpeg_cut_short(b"not a jpeg"));
    }

    #[test]
    fn a_damaged_jpeg_opens_with_what_could_be_decoded_and_says_so() {
        let whole = sample("classic-photo-page.jpg");
        let cut = &whole[..whole.len() * 2 / 3];
        let loaded = load(Input::Bytes {
            name: "cut.jpg".into(),
            bytes: cut.into(),
        });
        let Ok(Loaded::Photo { damaged, .. }) = loaded else {
            panic!("what could be decoded opens");
        };
        let said = damaged.expect("the damage is said");
        assert!(said.contains("cut.jpg is damaged"), "{said}");
        let Ok(Loaded::Photo { damaged, .. }) = load(Input::Bytes {
            name: "whole.jpg".into(),
            bytes: whole.into(),
        }) else {
            panic!("the sample opens");
        };
        assert_eq!(damaged, None);
    }

    #[test]
    fn text_that_is_no_puzzle_says_what_opens_and_a_broken_puzzle_where() {
        let Err(notes) = load_text(
            "Buy milk, eggs and 12 apples.\nCall Sam at noon.\n",
            "notes.txt",
        ) else {
            panic!("notes are no puzzle");
        };
        assert!(
            notes.starts_with("notes.txt is not a puzzle sudoku-lens knows"),
            "{notes}"
        );
        assert!(
            notes.contains("PDF") && notes.contains("a grid of rows"),
            "{notes}"
        );
        assert!(
            !notes.contains('\n'),
            "no parser's detail for notes: {notes}"
        );

        let Err(broken) = load_text("53..7....\n6..195...\n.98....6.\n8...6...3\n", "broken.txt")
        else {
            panic!("four rows are no puzzle");
        };
        let (first, detail) = broken.split_once('\n').expect("a second line");
        assert!(
            first.starts_with("broken.txt is not a puzzle sudoku-lens knows"),
            "{first}"
        );
        assert!(
            detail.contains("broken.txt"),
            "the parser's line and column: {detail}"
        );
    }

    #[test]
    fn the_jigsaw_switch_reads_regions_told_by_colour() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/images/jigsaw-screen-colour.png");
        let Ok(Loaded::Photo { photo, .. }) = load(Input::Path(path.clone())) else {
            panic!("the sample loads as a photo");
        };
        // Every line alike: the lines draw no regions, the fills do.
        let reading = read_as(&photo, &Layout::classic(), Regions::Lines, None, "sample")
            .expect("regions read");
        let got = reading.puzzle.layout();
        let text = std::fs::read_to_string(path.with_extension("txt")).unwrap();
        let expected = crate::grid::parse_progress(&text, "sample", None)
            .unwrap()
            .puzzle()
            .layout()
            .clone();
        assert_eq!(got.name(), "jigsaw");
        for a in 0..81 {
            for b in 0..81 {
                assert_eq!(got.same_box(a, b), expected.same_box(a, b), "{a} {b}");
            }
        }
    }
}
