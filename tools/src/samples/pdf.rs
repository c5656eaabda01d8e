//! The PDF sample: a print page as a puzzle book or a newspaper's PDF gives
//! it. Page 1 draws a classic puzzle with vector lines and text in the
//! standard Helvetica font (which the PDF does not embed: the reader's
//! rasteriser substitutes its own sans, not one the digit model is built
//! from); page 2 is a photo (the JPEG of `classic-photo-page`, embedded as
//! it is), as a scanned book gives it.
//!
//! The file is written byte for byte the same on every run: no dates, no
//! random identifiers.

use std::fmt::Write as _;
use std::path::Path;

use sudoku_lens::grid::Puzzle;

/// The sample's name: `NAME.pdf`, and `NAME.txt` the reading of page 1.
pub const NAME: &str = "classic-pdf";

/// A4, in points.
const PAGE: (f32, f32) = (595.0, 842.0);
/// Cell side in points (a grid 9.1 cm wide).
const CELL: f32 = 28.6;
/// Thin and thick line widths in points.
const THIN: f32 = 0.6;
const THICK: f32 = 1.8;
/// Digit size in points.
const DIGIT_PT: f32 = 19.0;
/// Helvetica's digit advance and cap height, in ems.
const DIGIT_ADVANCE: f32 = 0.556;
const CAP_HEIGHT: f32 = 0.718;
/// The embedded photo's resolution on page 2 (pixels per inch).
const PHOTO_PPI: f32 = 150.0;

/// Writes `NAME.pdf` (page 1: `puzzle` drawn in vectors; page 2: the photo
/// `classic-photo-page.jpg` already in `dir`) and `NAME.txt`.
pub fn write(dir: &Path, puzzle: &Puzzle) {
    let photo = std::fs::read(dir.join("classic-photo-page.jpg")).expect("the photo sample first");
    let (pw, ph) = jpeg_size(&photo).expect("a baseline JPEG");
    let pdf = document(&[
        Page::Vector(vector_page(puzzle)),
        Page::Jpeg {
            data: photo,
            width: pw,
            height: ph,
        },
    ]);
    std::fs::write(dir.join(format!("{NAME}.pdf")), &pdf).expect("PDF written");
    std::fs::write(dir.join(format!("{NAME}.txt")), puzzle.to_text())
        .expect("expected reading written");
    println!("{NAME}.pdf: {} KB", pdf.len() / 1024);
}

/// A page of the document.
pub enum Page {
    /// An A4 page with this content stream; font `/F1` is Helvetica.
    Vector(String),
    /// A JPEG filling a page sized for [`PHOTO_PPI`].
    Jpeg {
        data: Vec<u8>,
        width: u32,
        height: u32,
    },
}

/// The content stream of a print page: a heading, the grid, a caption.
fn vector_page(puzzle: &Puzzle) -> String {
    let layout = puzzle.layout();
    let n = layout.width();
    let side = n as f32 * CELL;
    let x0 = (PAGE.0 - side) / 2.0;
    let top = PAGE.1 - 150.0;
    let y0 = top - side;
    let mut s = String::new();
    // Heading and caption.
    writeln!(
        s,
        "0 g BT /F1 22 Tf {:.1} {:.1} Td (Sudoku 17) Tj ET",
        x0,
        top + 30.0
    )
    .unwrap();
    writeln!(
        s,
        "BT /F1 10 Tf {:.1} {:.1} Td (Fill the grid so that every row, column and box holds 1 to 9.) Tj ET",
        x0,
        y0 - 24.0
    )
    .unwrap();
    // Lines as filled bars, centred on the cell borders.
    for i in 0..=n {
        let w = if i % 3 == 0 { THICK } else { THIN };
        let at = i as f32 * CELL;
        writeln!(
            s,
            "{:.2} {:.2} {w:.2} {:.2} re f",
            x0 + at - w / 2.0,
            y0 - THICK / 2.0,
            side + THICK
        )
        .unwrap();
        writeln!(
            s,
            "{:.2} {:.2} {:.2} {w:.2} re f",
            x0 - THICK / 2.0,
            y0 + at - w / 2.0,
            side + THICK
        )
        .unwrap();
    }
    // Digits, centred in their cells.
    let (dw, dh) = (DIGIT_PT * DIGIT_ADVANCE, DIGIT_PT * CAP_HEIGHT);
    for (cell, &v) in puzzle.values().iter().enumerate() {
        if v == 0 {
            continue;
        }
        let (r, c) = layout.position(cell);
        let x = x0 + c as f32 * CELL + (CELL - dw) / 2.0;
        let y = top - (r + 1) as f32 * CELL + (CELL - dh) / 2.0;
        writeln!(s, "BT /F1 {DIGIT_PT} Tf {x:.2} {y:.2} Td ({v}) Tj ET").unwrap();
    }
    s
}

/// A whole PDF file: catalog, page tree, one font, then each page's
/// objects, and the cross-reference table with their byte offsets.
pub fn document(pages: &[Page]) -> Vec<u8> {
    // Objects 1: catalog, 2: pages, 3: font; then 3 per page (page,
    // content, image; the image object is empty for vector pages).
    let page_id = |i: usize| 4 + 3 * i;
    let mut objects: Vec<Vec<u8>> = Vec::new();
    objects.push(b"<< /Type /Catalog /Pages 2 0 R >>".to_vec());
    let kids: Vec<String> = (0..pages.len())
        .map(|i| format!("{} 0 R", page_id(i)))
        .collect();
    objects.push(
        format!(
            "<< /Type /Pages /Kids [{}] /Count {} >>",
            kids.join(" "),
            pages.len()
        )
        .into_bytes(),
    );
    objects.push(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
            .to_vec(),
    );
    for (i, page) in pages.iter().enumerate() {
        let (content, size, image) = match page {
            Page::Vector(content) => (content.clone().into_bytes(), PAGE, None),
            Page::Jpeg {
                data,
                width,
                height,
            } => {
                let (w, h) = (
                    *width as f32 * 72.0 / PHOTO_PPI,
                    *height as f32 * 72.0 / PHOTO_PPI,
                );
                let content = format!("q {w:.2} 0 0 {h:.2} 0 0 cm /Im1 Do Q").into_bytes();
                let mut image = format!(
                    "<< /Type /XObject /Subtype /Image /Width {width} /Height {height} \
                     /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length {} >>\nstream\n",
                    data.len()
                )
                .into_bytes();
                image.extend_from_slice(data);
                image.extend_from_slice(b"\nendstream");
                (content, (w, h), Some(image))
            }
        };
        let id = page_id(i);
        let xobject = if image.is_some() {
            format!(" /XObject << /Im1 {} 0 R >>", id + 2)
        } else {
            String::new()
        };
        objects.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {:.2} {:.2}] \
                 /Resources << /Font << /F1 3 0 R >>{xobject} >> /Contents {} 0 R >>",
                size.0,
                size.1,
                id + 1
            )
            .into_bytes(),
        );
        let mut stream = format!("<< /Length {} >>\nstream\n", content.len()).into_bytes();
        stream.extend_from_slice(&content);
        stream.extend_from_slice(b"\nendstream");
        objects.push(stream);
        objects.push(image.unwrap_or_else(|| b"null".to_vec()));
    }
    let mut out = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

/// The pixel size of a JPEG, from its start-of-frame segment.
fn jpeg_size(data: &[u8]) -> Option<(u32, u32)> {
    let mut i = 2;
    while i + 9 < data.len() {
        if data[i] != 0xFF {
            return None;
        }
        let marker = data[i + 1];
        let len = u16::from_be_bytes([data[i + 2], data[i + 3]]) as usize;
        if matches!(marker, 0xC0..=0xC3) {
            let h = u16::from_be_bytes([data[i + 5], data[i + 6]]) as u32;
            let w = u16::from_be_bytes([data[i + 7], data[i + 8]]) as u32;
            return Some((w, h));
        }
        i += 2 + len;
    }
    None
}
