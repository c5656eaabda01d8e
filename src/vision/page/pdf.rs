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

/// The most image pixels a page may declare, summed over every image it
/// draws (in its forms, patterns and soft masks too), for it to be
/// rendered. The rasteriser decodes an image whole at the size its
/// dictionary declares, whatever the data holds, at about 24 bytes and a
/// microsecond a pixel: a damaged or hostile file declaring an image
/// 67 million pixels wide took 1.6 GB and over a minute. A page scanned at
/// 300 dpi holds about 9 million; a larger page is refused with
/// [`PdfError::TooLarge`] before the rasteriser runs.
pub const MAX_IMAGE_PIXELS: u64 = 16_000_000;

/// Forms within forms are followed this deep when counting a page's image
/// pixels; deeper nesting is refused as too large.
#[cfg(feature = "pdf")]
const MAX_FORM_DEPTH: usize = 16;

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
    /// The page's images declare more pixels than [`MAX_IMAGE_PIXELS`].
    #[error(
        "page {page} is too large to render: its images declare {pixels} pixels, more than \
         {max}; export the page as an image (PNG, JPEG) first",
        max = MAX_IMAGE_PIXELS
    )]
    TooLarge { page: usize, pixels: u64 },
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

    use super::{MAX_FORM_DEPTH, MAX_IMAGE_PIXELS, PdfError, render_scale};

    use hayro::hayro_syntax::content::TypedIter;
    use hayro::hayro_syntax::content::ops::TypedInstruction;
    use hayro::hayro_syntax::object::dict::keys::{
        G, H, HEIGHT, IMAGE, RESOURCES, SMASK, SUBTYPE, W, WIDTH,
    };
    use hayro::hayro_syntax::object::{Dict, Name, Stream};
    use hayro::hayro_syntax::page::{Page, Resources};

    /// The image pixels `page` declares, summed over every image it can
    /// draw: its resources' images, those of its forms, tiling patterns and
    /// soft masks (followed [`MAX_FORM_DEPTH`] deep), and the inline images
    /// of every content stream met. An image drawn twice counts twice: the
    /// count only has to bound the cost. It stops counting past
    /// [`MAX_IMAGE_PIXELS`]; nesting too deep counts as too many.
    pub(super) fn image_pixels(page: &Page<'_>) -> u64 {
        let mut count = Count::default();
        count.content(page.page_stream());
        // (The page's resources, inherited from its parents where it has none.)
        count.resources(page.resources(), 0);
        count.pixels
    }

    #[derive(Default)]
    struct Count {
        pixels: u64,
    }

    impl Count {
        fn over(&self) -> bool {
            self.pixels > MAX_IMAGE_PIXELS
        }

        fn add(&mut self, dict: &Dict<'_>) {
            let side = |a, b| dict.get::<u32>(a).or_else(|| dict.get::<u32>(b));
            if let (Some(w), Some(h)) = (side(W, WIDTH), side(H, HEIGHT)) {
                self.pixels = self.pixels.saturating_add(w as u64 * h as u64);
            }
        }

        /// The inline images of a content stream.
        fn content(&mut self, data: Option<&[u8]>) {
            let Some(data) = data else { return };
            let mut ops = TypedIter::new(data);
            while let Some(op) = ops.next() {
                if let TypedInstruction::InlineImage(image) = op {
                    let dict = image.0.dict().clone();
                    self.add(&dict);
                }
                if self.over() {
                    return;
                }
            }
        }

        /// A stream that draws: an image (and its soft mask), or a form
        /// (its content and resources).
        fn drawn(&mut self, stream: &Stream<'_>, depth: usize) {
            let dict = stream.dict();
            if dict
                .get::<Name<'_>>(SUBTYPE)
                .is_some_and(|s| s.as_ref() == IMAGE)
            {
                self.add(dict);
                if let Some(mask) = dict.get::<Stream<'_>>(SMASK) {
                    self.add(mask.dict());
                }
                return;
            }
            if let Ok(data) = stream.decoded() {
                self.content(Some(&data));
            }
            if let Some(r) = dict.get::<Dict<'_>>(RESOURCES) {
                self.resources(&Resources::new(r), depth + 1);
            }
        }

        fn resources(&mut self, resources: &Resources<'_>, depth: usize) {
            if depth > MAX_FORM_DEPTH {
                self.pixels = u64::MAX;
                return;
            }
            fn streams<'a>(d: &Dict<'a>) -> Vec<Stream<'a>> {
                d.keys().filter_map(|k| d.get::<Stream<'a>>(k)).collect()
            }
            // Images and forms; tiling patterns are drawn like forms.
            let xobjects = streams(&resources.x_objects);
            let patterns = streams(&resources.patterns);
            for stream in xobjects.iter().chain(&patterns) {
                if self.over() {
                    return;
                }
                self.drawn(stream, depth);
            }
            // Soft masks of graphics states are forms too.
            let states = &resources.ext_g_states;
            for k in states.keys() {
                let group = states
                    .get::<Dict<'_>>(k)
                    .and_then(|s| s.get::<Dict<'_>>(SMASK))
                    .and_then(|m| m.get::<Stream<'_>>(G));
                if let Some(group) = group {
                    self.drawn(&group, depth);
                }
                if self.over() {
                    return;
                }
            }
        }
    }

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
        let pixels = image_pixels(p);
        if pixels > MAX_IMAGE_PIXELS {
            return Err(PdfError::TooLarge { page, pixels });
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

    /// A one-page PDF of `objects` (from object 3 on: the page is 3, its
    /// content stream 4), with offsets worked out.
    #[cfg(feature = "pdf")]
    fn pdf(objects: &[String]) -> Vec<u8> {
        let mut all = vec![
            "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        ];
        all.extend(objects.iter().cloned());
        let mut out = b"%PDF-1.7\n".to_vec();
        let mut offsets = Vec::new();
        for (i, o) in all.iter().enumerate() {
            offsets.push(out.len());
            out.extend(format!("{} 0 obj\n{o}\nendobj\n", i + 1).bytes());
        }
        let xref = out.len();
        out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", all.len() + 1).bytes());
        for o in offsets {
            out.extend(format!("{o:010} 00000 n \n").bytes());
        }
        out.extend(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
                all.len() + 1
            )
            .bytes(),
        );
        out
    }

    #[cfg(feature = "pdf")]
    fn stream(dict: &str, data: &str) -> String {
        format!(
            "<< {dict} /Length {} >>\nstream\n{data}\nendstream",
            data.len()
        )
    }

    /// A page drawing `/Im` (object 5) over the whole page.
    #[cfg(feature = "pdf")]
    fn page_with(image: String) -> Vec<u8> {
        pdf(&[
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R \
             /Resources << /XObject << /Im 5 0 R >> >> >>"
                .into(),
            stream("", "q 200 0 0 200 0 0 cm /Im Do Q"),
            image,
        ])
    }

    #[cfg(feature = "pdf")]
    fn grey_image(w: u64, h: u64, data: &str) -> String {
        stream(
            &format!(
                "/Type /XObject /Subtype /Image /Width {w} /Height {h} \
                 /ColorSpace /DeviceGray /BitsPerComponent 8"
            ),
            data,
        )
    }

    #[cfg(feature = "pdf")]
    #[test]
    fn a_page_whose_images_declare_too_many_pixels_is_refused_before_rendering() {
        // A small image renders: a black 2 x 2 over the page.
        let img = render_page(&page_with(grey_image(2, 2, "\0\0\0\0")), 1).unwrap();
        assert!(img.to_luma8().get_pixel(100, 100)[0] < 40);
        // An image declared 67 million pixels wide, 4 bytes of data: refused
        // at once (it took 1.6 GB and over a minute to render).
        let start = std::time::Instant::now();
        let wide = page_with(grey_image(67_108_864, 1, "abcd"));
        assert_eq!(
            render_page(&wide, 1).unwrap_err(),
            PdfError::TooLarge {
                page: 1,
                pixels: 67_108_864
            }
        );
        assert!(start.elapsed().as_secs() < 2, "{:?}", start.elapsed());
        assert!(
            PdfError::TooLarge { page: 1, pixels: 5 }
                .to_string()
                .contains("too large to render")
        );
        // The same inside a form, inside a form.
        let nested = pdf(&[
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R \
             /Resources << /XObject << /F 5 0 R >> >> >>"
                .into(),
            stream("", "/F Do"),
            stream(
                "/Type /XObject /Subtype /Form /BBox [0 0 200 200] \
                 /Resources << /XObject << /G 6 0 R >> >>",
                "/G Do",
            ),
            stream(
                "/Type /XObject /Subtype /Form /BBox [0 0 200 200] \
                 /Resources << /XObject << /Im 7 0 R >> >>",
                "q 200 0 0 200 0 0 cm /Im Do Q",
            ),
            grey_image(20_000, 1_000, "abcd"),
        ]);
        assert!(matches!(
            render_page(&nested, 1),
            Err(PdfError::TooLarge {
                pixels: 20_000_000,
                ..
            })
        ));
        // And an inline image in the page's content.
        let inline = pdf(&[
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>".into(),
            stream(
                "",
                "q 200 0 0 200 0 0 cm BI /W 100000 /H 1000 /CS /G /BPC 8 ID abcd EI Q",
            ),
        ]);
        assert!(matches!(
            render_page(&inline, 1),
            Err(PdfError::TooLarge {
                pixels: 100_000_000,
                ..
            })
        ));
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
