//! Decoding photos and screenshots: PNG, JPEG, WebP, BMP, GIF (first frame)
//! and TIFF, with the EXIF orientation applied as image viewers do, and a
//! size limit checked from the header before any pixel is decoded. A PDF
//! (told by its content) gives one of its pages, rendered (see
//! [`super::pdf`]).

use std::io::Cursor;
use std::path::Path;

use image::error::{ImageError, LimitErrorKind};
use image::{DynamicImage, GrayImage, ImageDecoder, ImageReader, Limits, RgbImage};
use rayon::prelude::*;

use super::pdf::{PdfError, is_pdf, render_page};

/// The largest image accepted, in pixels (width x height). Checked from the
/// header, before the pixels are decoded.
pub const MAX_PIXELS: u64 = 100_000_000;

/// File name extensions of the formats this loader decodes (lower case):
/// what a file dialog offers and what is looked for in a folder. A file
/// with one of them is taken as an image even when its content says
/// otherwise, so that loading it tells what is wrong.
pub const IMAGE_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "webp", "bmp", "gif", "tif", "tiff", "pdf",
];

/// Whether `path` ends in one of [`IMAGE_EXTENSIONS`], in any case.
pub fn has_image_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| IMAGE_EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// Whether a file is to be read as an image: by its extension (see
/// [`has_image_extension`]), or else by its content: a PDF's header, or the
/// signature of a supported format followed by binary data (a text puzzle
/// never has control bytes), so that a PNG named `.dat` is an image and a
/// text named `.txt` is not. A file that cannot be read is not an image
/// (reading it as text then says why).
pub fn is_image_file(path: &Path) -> bool {
    use std::io::Read;
    if has_image_extension(path) {
        return true;
    }
    let mut head = [0u8; 32];
    let Ok(n) = std::fs::File::open(path).and_then(|mut f| f.read(&mut head)) else {
        return false;
    };
    let head = &head[..n];
    if is_pdf(head) {
        return true;
    }
    let binary = head
        .iter()
        .any(|&b| b >= 0x80 || (b < 0x20 && !b"\t\n\r".contains(&b)));
    use image::ImageFormat as F;
    binary
        && matches!(
            image::guess_format(head),
            Ok(F::Png | F::Jpeg | F::WebP | F::Bmp | F::Gif | F::Tiff)
        )
}

/// Why an image could not be loaded. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read at all.
    #[error("cannot read {file}: {source}")]
    Unreadable {
        file: String,
        #[source]
        source: std::io::Error,
    },
    /// The bytes are not an image in a format this reader knows.
    #[error(
        "{file} is not an image in a supported format (PNG, JPEG, WebP, BMP, GIF, TIFF, PDF){detail}"
    )]
    Unsupported { file: String, detail: String },
    /// The format is known but the data is damaged or truncated.
    #[error("cannot decode {file}: {detail}")]
    Undecodable { file: String, detail: String },
    /// The image is larger than [`MAX_PIXELS`] (or would need too much memory).
    #[error(
        "{file} is too large: {width}x{height} pixels ({megapixels:.1} megapixels; the limit is {limit} megapixels)",
        megapixels = *width as f64 * *height as f64 / 1e6,
        limit = MAX_PIXELS / 1_000_000
    )]
    TooLarge {
        file: String,
        width: u32,
        height: u32,
    },
    /// A PDF that cannot be read, or a page it does not have.
    #[error("{file}: {error}")]
    Pdf {
        file: String,
        #[source]
        error: PdfError,
    },
    /// A page other than the first was asked of an image.
    #[error("{file} is an image, not a PDF: it has no page {page}")]
    NotPaged { file: String, page: usize },
}

/// Reads and decodes an image file (a PDF: its first page). See
/// [`load_bytes`].
pub fn load_path(path: &Path) -> Result<DynamicImage, LoadError> {
    load_path_page(path, 1)
}

/// Reads and decodes page `page` (from 1) of a PDF file, or an image file
/// (which has page 1 only). See [`load_page`].
pub fn load_path_page(path: &Path, page: usize) -> Result<DynamicImage, LoadError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| LoadError::Unreadable {
        file: file.clone(),
        source,
    })?;
    load_page(&bytes, &file, page)
}

/// Page `page` (from 1) of a PDF held in memory, rendered (see
/// [`super::pdf::render_page`]); for an image, [`load_bytes`] when `page`
/// is 1. `name` is used in error messages.
pub fn load_page(bytes: &[u8], name: &str, page: usize) -> Result<DynamicImage, LoadError> {
    if is_pdf(bytes) {
        return render_page(bytes, page).map_err(|error| LoadError::Pdf {
            file: name.to_string(),
            error,
        });
    }
    if page != 1 {
        return Err(LoadError::NotPaged {
            file: name.to_string(),
            page,
        });
    }
    load_bytes(bytes, name)
}

/// Decodes an image held in memory; `name` is used in error messages.
///
/// The format is guessed from the content, not the name; a PDF gives its
/// first page. The EXIF orientation
/// (JPEG, WebP, TIFF, PNG eXIf) is applied, so the result is upright as a
/// viewer shows it. Images of more than [`MAX_PIXELS`] are refused from their
/// header, before decoding.
pub fn load_bytes(bytes: &[u8], name: &str) -> Result<DynamicImage, LoadError> {
    load_bytes_with(bytes, name, Rotation::FromExif)
}

/// Whether to apply the EXIF orientation tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rotation {
    /// Turn the pixels as the tag says, as image viewers do.
    FromExif,
    /// Keep the pixels as stored (for collections whose tags are known to be
    /// wrong).
    AsStored,
}

/// [`load_bytes`], choosing whether the EXIF orientation is applied.
pub fn load_bytes_with(
    bytes: &[u8],
    name: &str,
    rotation: Rotation,
) -> Result<DynamicImage, LoadError> {
    if is_pdf(bytes) {
        return load_page(bytes, name, 1);
    }
    let file = name.to_string();
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|source| LoadError::Unreadable {
            file: file.clone(),
            source,
        })?;
    if reader.format().is_none() {
        return Err(LoadError::Unsupported {
            file,
            detail: String::new(),
        });
    }
    let mut limits = Limits::default();
    // Enough for a 100 MP image with 16-bit RGBA samples; the pixel count is
    // checked separately below.
    limits.max_alloc = Some(1 << 30);
    reader.limits(limits);
    let mut decoder = reader
        .into_decoder()
        .map_err(|e| classify(e, &file, None))?;
    let (width, height) = decoder.dimensions();
    if width as u64 * height as u64 > MAX_PIXELS {
        return Err(LoadError::TooLarge {
            file,
            width,
            height,
        });
    }
    // A damaged EXIF block should not cost the image: read it as upright.
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let mut img = DynamicImage::from_decoder(decoder)
        .map_err(|e| classify(e, &file, Some((width, height))))?;
    if rotation == Rotation::FromExif {
        img.apply_orientation(orientation);
    }
    Ok(img)
}

/// The grey image the reader works on: exactly what
/// [`DynamicImage::to_luma8`] gives (the luminance of the image's colour
/// space, rounded), computed directly for 8-bit RGB (every decoded JPEG)
/// rather than through the general conversion, which goes through 32-bit
/// floats in blocks and costs more than decoding a small photo.
pub fn to_grey(img: &DynamicImage) -> GrayImage {
    let DynamicImage::ImageRgb8(rgb) = img else {
        return img.to_luma8();
    };
    // The weights of R, G and B are those of the image's colour space: read
    // them back from the general conversion of pure red, green and blue
    // (255 expands to exactly 1.0, so each comes out as the weight itself).
    let mut probe =
        RgbImage::from_raw(3, 1, vec![255, 0, 0, 0, 255, 0, 0, 0, 255]).expect("sized buffer");
    if probe.set_color_space(rgb.color_space()).is_err() {
        return img.to_luma8();
    }
    let weights = DynamicImage::ImageRgb8(probe).to_luma32f().into_raw();
    let [kr, kg, kb] = [weights[0], weights[1], weights[2]];
    let (w, h) = rgb.dimensions();
    let src = rgb.as_raw();
    let mut out = vec![0u8; w as usize * h as usize];
    out.par_chunks_mut(w.max(1) as usize * 64)
        .zip(src.par_chunks(w.max(1) as usize * 64 * 3))
        .for_each(|(o, s)| {
            for (g, p) in o.iter_mut().zip(s.chunks_exact(3)) {
                *g = luma_u8(p[0], p[1], p[2], kr, kg, kb);
            }
        });
    GrayImage::from_raw(w, h, out).expect("sized buffer")
}

/// One pixel of [`to_grey`], with the operations of the general conversion
/// in the same order: components scaled to 0..1, summed from zero with a
/// fused multiply-add where the target has one (as the conversion does),
/// scaled back and rounded half away from zero, saturating.
#[inline]
fn luma_u8(r: u8, g: u8, b: u8, kr: f32, kg: f32, kb: f32) -> u8 {
    const R: f32 = 1.0 / u8::MAX as f32;
    let (r, g, b) = (r as f32 * R, g as f32 * R, b as f32 * R);
    let luma = if cfg!(any(
        all(
            any(target_arch = "x86", target_arch = "x86_64"),
            target_feature = "fma"
        ),
        all(target_arch = "aarch64", target_feature = "neon")
    )) {
        b.mul_add(kb, g.mul_add(kg, r.mul_add(kr, 0.0)))
    } else {
        0.0 + r * kr + g * kg + b * kb
    };
    round_u8(luma * u8::MAX as f32)
}

/// `v.round() as u8` (half away from zero, saturating, NaN to 0) without
/// the library call that `round` is on targets without SSE 4.1.
#[inline]
fn round_u8(v: f32) -> u8 {
    // NaN goes to 0 as well.
    if v.is_nan() || v <= 0.0 {
        return 0;
    }
    if v >= 255.0 {
        return 255;
    }
    // Exact below 2^23: the fraction is computed without rounding.
    let t = v as u32;
    (t + (v - t as f32 >= 0.5) as u32) as u8
}

fn classify(e: ImageError, file: &str, dims: Option<(u32, u32)>) -> LoadError {
    match e {
        ImageError::Unsupported(u) => LoadError::Unsupported {
            file: file.to_string(),
            detail: format!(": {u}"),
        },
        ImageError::Limits(l) => match (l.kind(), dims) {
            (LimitErrorKind::DimensionError | LimitErrorKind::InsufficientMemory, Some((w, h))) => {
                LoadError::TooLarge {
                    file: file.to_string(),
                    width: w,
                    height: h,
                }
            }
            _ => LoadError::Undecodable {
                file: file.to_string(),
                detail: l.to_string(),
            },
        },
        ImageError::IoError(source) => LoadError::Undecodable {
            file: file.to_string(),
            detail: source.to_string(),
        },
        other => LoadError::Undecodable {
            file: file.to_string(),
            detail: other.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{GrayImage, ImageFormat, Luma, RgbImage};

    fn encode(img: &DynamicImage, format: ImageFormat) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, format).unwrap();
        out.into_inner()
    }

    #[test]
    fn decodes_every_supported_format() {
        let mut g = GrayImage::new(30, 20);
        g.put_pixel(3, 4, Luma([200]));
        let img = DynamicImage::ImageRgb8(DynamicImage::ImageLuma8(g).to_rgb8());
        for format in [
            ImageFormat::Png,
            ImageFormat::Jpeg,
            ImageFormat::WebP,
            ImageFormat::Bmp,
            ImageFormat::Gif,
            ImageFormat::Tiff,
        ] {
            let bytes = encode(&img, format);
            let back = load_bytes(&bytes, "x").unwrap_or_else(|e| panic!("{format:?}: {e}"));
            assert_eq!((back.width(), back.height()), (30, 20), "{format:?}");
        }
    }

    #[test]
    fn refuses_garbage_with_the_file_name() {
        let e = load_bytes(b"hello, not an image at all", "notes.txt").unwrap_err();
        assert!(matches!(e, LoadError::Unsupported { .. }), "{e:?}");
        assert!(e.to_string().contains("notes.txt"));
        let png = encode(
            &DynamicImage::ImageRgb8(RgbImage::new(64, 64)),
            ImageFormat::Png,
        );
        let e = load_bytes(&png[..png.len() / 2], "half.png").unwrap_err();
        assert!(matches!(e, LoadError::Undecodable { .. }), "{e:?}");
        assert!(e.to_string().contains("half.png"));
    }

    #[test]
    fn to_grey_is_to_luma8() {
        // Every red and green level, blue varying along both, and the
        // levels where rounding is closest to a half.
        let img = RgbImage::from_fn(256, 256, |x, y| {
            image::Rgb([x as u8, y as u8, ((x * 7 + y * 13) % 256) as u8])
        });
        let img = DynamicImage::ImageRgb8(img);
        assert_eq!(to_grey(&img), img.to_luma8());
        let img = RgbImage::from_fn(256, 256, |x, y| {
            image::Rgb([((x * 31 + y) % 256) as u8, y as u8, x as u8])
        });
        let img = DynamicImage::ImageRgb8(img);
        assert_eq!(to_grey(&img), img.to_luma8());
        let empty = DynamicImage::ImageRgb8(RgbImage::new(0, 0));
        assert_eq!(to_grey(&empty).dimensions(), (0, 0));
        let grey = DynamicImage::ImageLuma8(GrayImage::from_pixel(3, 2, Luma([9])));
        assert_eq!(to_grey(&grey), grey.to_luma8());
    }

    #[test]
    fn round_u8_is_round_as_u8() {
        for v in [
            -1.0f32,
            -0.4,
            0.0,
            0.49999997,
            0.5,
            1.5,
            2.5,
            254.49998,
            254.5,
            255.0,
            255.4,
            255.6,
            1e9,
            f32::NAN,
            f32::INFINITY,
        ] {
            assert_eq!(round_u8(v), v.round() as u8, "{v}");
        }
        for i in 0..=2_600_000u32 {
            let v = i as f32 * 1e-4;
            assert_eq!(round_u8(v), v.round() as u8, "{v}");
        }
    }

    #[test]
    fn image_extensions_match_in_any_case() {
        assert!(has_image_extension(Path::new("a/photo.JPG")));
        assert!(has_image_extension(Path::new("scan.tiff")));
        assert!(!has_image_extension(Path::new("puzzle.txt")));
        assert!(!has_image_extension(Path::new("png")));
        assert!(!has_image_extension(Path::new("photo.jpg.dat")));
    }

    #[test]
    fn missing_file_is_unreadable() {
        let e = load_path(Path::new("/nonexistent/photo.jpg")).unwrap_err();
        assert!(matches!(e, LoadError::Unreadable { .. }));
        assert!(e.to_string().contains("/nonexistent/photo.jpg"));
    }
}
