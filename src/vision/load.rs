//! Decoding photos and screenshots: PNG, JPEG, WebP, BMP, GIF (first frame)
//! and TIFF, with the EXIF orientation applied as image viewers do, and a
//! size limit checked from the header before any pixel is decoded.

use std::io::Cursor;
use std::path::Path;

use image::error::{ImageError, LimitErrorKind};
use image::{DynamicImage, ImageDecoder, ImageReader, Limits};

/// The largest image accepted, in pixels (width x height). Checked from the
/// header, before the pixels are decoded.
pub const MAX_PIXELS: u64 = 100_000_000;

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
        "{file} is not an image in a supported format (PNG, JPEG, WebP, BMP, GIF, TIFF){detail}"
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
}

/// Reads and decodes an image file. See [`load_bytes`].
pub fn load_path(path: &Path) -> Result<DynamicImage, LoadError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| LoadError::Unreadable {
        file: file.clone(),
        source,
    })?;
    load_bytes(&bytes, &file)
}

/// Decodes an image held in memory; `name` is used in error messages.
///
/// The format is guessed from the content, not the name. The EXIF orientation
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
    fn missing_file_is_unreadable() {
        let e = load_path(Path::new("/nonexistent/photo.jpg")).unwrap_err();
        assert!(matches!(e, LoadError::Unreadable { .. }));
        assert!(e.to_string().contains("/nonexistent/photo.jpg"));
    }
}
