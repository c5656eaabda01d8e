//! PDF pages as images: how many pages a PDF has, and one page rendered to
//! pixels (with the pure-Rust `hayro` rasteriser, behind the `pdf` feature),
//! so that a puzzle book's or a newspaper's print page is read like a
//! scan. Without the feature, the same functions say that PDF support is
//! not built in.
//!
//! Pages are numbered from 1, as a PDF viewer shows them.

use image::DynamicImage;

/// A page is rendered at this resolution (dots per inch): a grid a few
/// centimetres wide on the page gets cells of 30 pixels or more, about what
/// a phone photo gives, and an A4 page stays near 4 megapixels.
pub const RENDER_DPI: f32 = 200.0;

/// ... but a page larger than this many pixels at [`RENDER_DPI`] (a poster,
/// a page of a huge media box) is rendered smaller: the reader needs no
/// more, and the pixels cost memory.
pub const MAX_RENDER_PIXELS: f64 = 24_000_000.0;

/// PDF points per inch: page sizes are given in points.
#[cfg(any(feature = "pdf", test))]
const POINTS_PER_INCH: f32 = 72.0;

/// How far into a file the `%PDF-` header may start: PDF readers accept
/// some bytes of junk before it.
const HEADER_WITHIN: usize = 1024;

/// Whether `bytes` are a PDF file: the `%PDF-` header near their start,
/// whatever the file is called.
pub fn is_pdf(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(HEADER_WITHIN)]
        .windows(5)
        .any(|w| w == b"%PDF-")
}

/// What is wrong with a PDF or a page number. The caller names the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PdfError {
    /// The bytes could not be parsed as a PDF (damaged, truncated, or not
    /// a PDF at all).
    #[error("not a readable PDF (damaged or truncated)")]
    Unreadable,
    /// The PDF is encrypted and needs a password.
    #[error("the PDF is encrypted; save it without a password first")]
    Encrypted,
    /// There is no such page.
    #[error("there is no page {page}: the PDF has {pages} page{s}", s = if *pages == 1 { "" } else { "s" })]
    NoPage { page: usize, pages: usize },
    /// The page has no area to render.
    #[error("page {page} is empty (its size is zero)")]
    EmptyPage { page: usize },
    /// This build has no PDF rasteriser.
    #[error(
        "PDF pages cannot be read: this build has no PDF support (build with the `pdf` feature), \
         or export the page as an image (PNG, JPEG) first"
    )]
    NotBuiltIn,
}

/// The number of pages of the PDF in `bytes`.
pub fn page_count(bytes: &[u8]) -> Result<usize, PdfError> {
    imp::page_count(bytes)
}

/// Page `page` (from 1) of the PDF in `bytes`, rendered on white at
/// [`RENDER_DPI`] (less for pages past [`MAX_RENDER_PIXELS`]), with the
/// page's own rotation applied.
pub fn render_page(bytes: &[u8], page: usize) -> Result<DynamicImage, PdfError> {
    imp::render_page(bytes, page)
}

/// The scale (pixels per point) for a page of `width` x `height` points.
#[cfg(any(feature = "pdf", test))]
fn render_scale(width: f32, height: f32) -> f32 {
    let scale = RENDER_DPI / POINTS_PER_INCH;
    let pixels = (width * scale) as f64 * (height * scale) as f64;
    let by_area = if pixels > MAX_RENDER_PIXELS {
        (MAX_RENDER_PIXELS / pixels).sqrt() as f32
    } else {
        1.0
    };
    // The rasteriser's sides are 16-bit.
    let by_side = (u16::MAX as f32 - 1.0) / (width.max(height) * scale);
    scale * by_area.min(by_side).min(1.0)
}

#[cfg(feature = "pdf")]
mod imp {
    use hayro::hayro_interpret::InterpreterSettings;
    use hayro::hayro_syntax::{LoadPdfError, Pdf};
    use hayro::vello_cpu::color::palette::css::WHITE;
    use hayro::{PixmapSettings, RenderCache, RenderSettings, render};
    use image::{DynamicImage, RgbaImage};

    use super::{PdfError, render_scale};

    fn open(bytes: &[u8]) -> Result<Pdf, PdfError> {
        Pdf::new(bytes.to_vec()).map_err(|e| match e {
            LoadPdfError::Decryption(_) => PdfError::Encrypted,
            LoadPdfError::Invalid => PdfError::Unreadable,
        })
    }

    pub(super) fn page_count(bytes: &[u8]) -> Result<usize, PdfError> {
        Ok(open(bytes)?.pages().len())
    }

    pub(super) fn render_page(bytes: &[u8], page: usize) -> Result<DynamicImage, PdfError> {
        let pdf = open(bytes)?;
        let pages = pdf.pages();
        let Some(p) = page.checked_sub(1).and_then(|i| pages.get(i)) else {
            return Err(PdfError::NoPage {
                page,
                pages: pages.len(),
            });
        };
        let (w, h) = p.render_dimensions();
        if !(w >= 1.0 && h >= 1.0) {
            return Err(PdfError::EmptyPage { page });
        }
        let scale = render_scale(w, h);
        let settings = PixmapSettings {
            x_scale: scale,
            y_scale: scale,
            bg_color: WHITE,
        };
        let pixmap = render(
            p,
            &RenderCache::new(),
            &InterpreterSettings::default(),
            &RenderSettings::default(),
            &settings,
        );
        let (pw, ph) = (pixmap.width() as u32, pixmap.height() as u32);
        if pw == 0 || ph == 0 {
            return Err(PdfError::EmptyPage { page });
        }
        // On an opaque white background the premultiplied pixels are the
        // straight ones.
        let rgba = RgbaImage::from_raw(pw, ph, pixmap.data_as_u8_slice().to_vec())
            .expect("the pixmap holds width x height pixels");
        Ok(DynamicImage::ImageRgb8(
            DynamicImage::ImageRgba8(rgba).to_rgb8(),
        ))
    }
}

#[cfg(not(feature = "pdf"))]
mod imp {
    use image::DynamicImage;

    use super::PdfError;

    pub(super) fn page_count(_bytes: &[u8]) -> Result<usize, PdfError> {
        Err(PdfError::NotBuiltIn)
    }

    pub(super) fn render_page(_bytes: &[u8], _page: usize) -> Result<DynamicImage, PdfError> {
        Err(PdfError::NotBuiltIn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pdf_is_told_by_its_header() {
        assert!(is_pdf(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj"));
        assert!(is_pdf(b"\r\n%PDF-1.7"));
        assert!(!is_pdf(b"\x89PNG\r\n\x1a\n"));
        assert!(!is_pdf(b"53..7....6..195...."));
        assert!(!is_pdf(b""));
    }

    #[test]
    fn pages_are_rendered_at_the_resolution_unless_huge() {
        // A4 at 200 dpi.
        let s = render_scale(595.0, 842.0);
        assert!((s - RENDER_DPI / 72.0).abs() < 1e-6, "{s}");
        // A 2 m square poster is brought under the pixel limit.
        let s = render_scale(5669.0, 5669.0);
        // The rasteriser's sides are whole pixels, rounded down.
        let px = ((5669.0 * s) as u64).pow(2) as f64;
        assert!(
            px <= MAX_RENDER_PIXELS && px > 0.9 * MAX_RENDER_PIXELS,
            "{px}"
        );
        // A long strip stays within 16-bit sides.
        let s = render_scale(100_000.0, 10.0);
        assert!(100_000.0 * s < u16::MAX as f32, "{s}");
    }

    #[cfg(feature = "pdf")]
    #[test]
    fn the_sample_has_two_pages_rendered_at_the_resolution() {
        let bytes = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/samples/images/classic-pdf.pdf"
        ))
        .unwrap();
        assert!(is_pdf(&bytes));
        assert_eq!(page_count(&bytes), Ok(2));
        // Page 1 is A4: 595 x 842 points.
        let img = render_page(&bytes, 1).unwrap();
        let scale = RENDER_DPI / 72.0;
        assert_eq!(img.width(), (595.0 * scale) as u32);
        assert_eq!(img.height(), (842.0 * scale) as u32);
        // White paper in the corner, black ink somewhere.
        let grey = img.to_luma8();
        assert_eq!(grey.get_pixel(3, 3)[0], 255);
        assert!(grey.pixels().any(|p| p[0] < 40));
        assert_eq!(
            render_page(&bytes, 3).unwrap_err(),
            PdfError::NoPage { page: 3, pages: 2 }
        );
        assert_eq!(
            render_page(&bytes, 0).unwrap_err(),
            PdfError::NoPage { page: 0, pages: 2 }
        );
    }

    #[test]
    fn garbage_after_the_header_is_not_a_readable_pdf() {
        let e = page_count(b"%PDF-1.4\nthis is not a PDF body").unwrap_err();
        if cfg!(feature = "pdf") {
            assert_eq!(e, PdfError::Unreadable);
        } else {
            assert_eq!(e, PdfError::NotBuiltIn);
        }
        assert!(render_page(b"%PDF-1.4\n", 1).is_err());
    }
}
