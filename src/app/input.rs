//! What a person hands the app (a file, dropped bytes, a pasted image or
//! text, a bundled sample) and the background work that turns it into a
//! document: decoding, locating and reading the grid, or parsing the text.
//! Nothing here touches the window.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use image::{GrayImage, RgbaImage};

use crate::grid::{Document, Layout, Puzzle, parse};
use crate::vision::locate::{LocateError, LocateFileError};
use crate::vision::read::{Colour, Reading, read_at_corners, read_grey, read_image_bytes};

/// File name endings offered by the open dialog.
pub use crate::vision::load::IMAGE_EXTENSIONS;
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
}

impl Input {
    /// The name shown for this input while it is read.
    pub fn name(&self) -> String {
        match self {
            Input::Path(p) => file_name(p),
            Input::Bytes { name, .. } | Input::Text { name, .. } | Input::Image { name, .. } => {
                name.clone()
            }
        }
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
    /// drag onto the grid.
    Photo {
        photo: Photo,
        reading: Result<Box<Reading>, String>,
    },
    /// A puzzle text.
    Text { puzzle: Puzzle },
}

/// Reads an input to the end. Runs on a background thread; every failure
/// is a message naming the input, never a panic.
pub fn load(input: Input) -> Result<Loaded, String> {
    let name = input.name();
    match input {
        Input::Path(path) => {
            let bytes = std::fs::read(&path).map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => format!("{name} does not exist (any more)"),
                std::io::ErrorKind::IsADirectory => {
                    format!("{name} is a folder: open an image or a puzzle text file")
                }
                _ => format!("cannot read {name}: {e}"),
            })?;
            load_content(&bytes, &name)
        }
        Input::Bytes { bytes, .. } => load_content(&bytes, &name),
        Input::Text { text, .. } => load_text(&text, &name),
        Input::Image { image, .. } => Ok(read_photo(image, &name)),
    }
}

fn load_content(bytes: &[u8], name: &str) -> Result<Loaded, String> {
    if image::guess_format(bytes).is_ok() {
        let read = read_image_bytes(bytes, name, None, Colour::Keep).map_err(|e| e.to_string())?;
        let rgba = read.image.map(|i| i.into_rgba8()).unwrap_or_default();
        return Ok(photo(
            Arc::new(rgba),
            Arc::new(read.grey),
            read.reading,
            name,
        ));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => load_text(text, name),
        Err(_) => Err(format!(
            "{name} is neither an image (PNG, JPEG, WebP, BMP, GIF, TIFF) nor a puzzle text file"
        )),
    }
}

/// Parses puzzle text; a batch file opens its first puzzle.
pub fn load_text(text: &str, name: &str) -> Result<Loaded, String> {
    if text.trim().is_empty() {
        return Err(format!("{name} is empty: no puzzle in it"));
    }
    match parse(text, name, None).map_err(|e| e.to_string())? {
        Document::Single(puzzle) => Ok(Loaded::Text { puzzle }),
        Document::Batch(entries) => entries
            .into_iter()
            .find_map(|e| match e {
                crate::grid::Entry::Puzzle { puzzle, .. } => Some(puzzle),
                crate::grid::Entry::Other(_) => None,
            })
            .ok_or_else(|| format!("{name} holds no puzzle"))?
            .map(|puzzle| Loaded::Text { puzzle })
            .map_err(|e| e.to_string()),
    }
}

/// Locates and reads the grid of a decoded image.
pub fn read_photo(rgba: Arc<RgbaImage>, name: &str) -> Loaded {
    let grey = Arc::new(image::DynamicImage::ImageRgba8((*rgba).clone()).to_luma8());
    let (result, _) = read_grey(&grey, None);
    photo(rgba, grey, result.map_err(|e| e.in_file(name)), name)
}

/// A photo and its reading, or the message for a grid not found.
fn photo(
    rgba: Arc<RgbaImage>,
    grey: Arc<GrayImage>,
    result: Result<Reading, LocateFileError>,
    name: &str,
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
    }
}

/// Reads the cells again with corners and a layout a person chose.
pub fn reread(
    grey: &GrayImage,
    corners: [[f32; 2]; 4],
    layout: &Layout,
) -> Result<Reading, String> {
    read_at_corners(grey, corners, layout).ok_or_else(|| {
        "those corners do not make a grid: keep them in order around the puzzle".to_string()
    })
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
