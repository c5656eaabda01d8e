//! Writing a picture to a file: PNG, or JPEG for a `.jpg` or `.jpeg` name.
//! The picture goes to a temporary file beside the target first and is
//! renamed into place once whole, so an export cut short (a full disk, a
//! killed process) leaves no half-written file and the old one, if any,
//! untouched. And an export never lands on a file it was made from:
//! [`writes_over`] compares files, not names, so a hard link or another
//! spelling of an input's path is caught too.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use image::codecs::jpeg::JpegEncoder;
use image::{DynamicImage, ImageFormat};

/// JPEG quality of an exported picture: the drawn digits' edges stay clean
/// at about a tenth of the PNG's size.
pub const JPEG_QUALITY: u8 = 92;

/// The permissions of an exported file on Unix: the owner's to write,
/// everyone's to read.
#[cfg(unix)]
const EXPORT_MODE: u32 = 0o644;

/// Why a picture was not written. The target file is named.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The file (or its temporary sibling) could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The picture could not be encoded.
    #[error("cannot write {}: {source}", path.display())]
    Encode {
        path: PathBuf,
        #[source]
        source: image::ImageError,
    },
}

/// Whether `path` names a JPEG (by its extension, any case).
pub fn is_jpeg_name(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("jpg") || e.eq_ignore_ascii_case("jpeg"))
}

/// The first of `inputs` that `target` is the same file as (the same path,
/// another spelling of it, a hard or symbolic link to it). A target that
/// does not exist yet is none of them.
pub fn writes_over<'a>(target: &Path, inputs: &[&'a Path]) -> Option<&'a Path> {
    let target = same_file::Handle::from_path(target).ok()?;
    inputs
        .iter()
        .find(|input| same_file::Handle::from_path(input).is_ok_and(|h| h == target))
        .copied()
}

/// Writes `image` to `path` (JPEG for a `.jpg`/`.jpeg` name, else PNG)
/// through a temporary file in the same folder, renamed into place.
pub fn save(image: &DynamicImage, path: &Path) -> Result<(), ExportError> {
    let io_error = |source| ExportError::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "export".into(), |n| n.to_string_lossy().into_owned());
    // Hidden, and named after the target, should one ever be left behind.
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".part");
    // Readable by others, as a file the user saved (a temporary file is
    // made private).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(EXPORT_MODE));
    let temp = builder.tempfile_in(dir).map_err(io_error)?;
    let mut w = BufWriter::new(temp.as_file());
    let encoded = if is_jpeg_name(path) {
        let mut encoder = JpegEncoder::new_with_quality(&mut w, JPEG_QUALITY);
        match image {
            DynamicImage::ImageRgb8(rgb) => encoder.encode_image(rgb),
            other => encoder.encode_image(&other.to_rgb8()),
        }
    } else {
        image.write_to(&mut w, ImageFormat::Png)
    };
    encoded.map_err(|source| ExportError::Encode {
        path: path.to_path_buf(),
        source,
    })?;
    w.flush().map_err(io_error)?;
    drop(w);
    temp.as_file().sync_all().map_err(io_error)?;
    temp.persist(path).map_err(|e| io_error(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgb, RgbImage};

    fn dir(test: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("sudoku-lens-export-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn picture() -> DynamicImage {
        DynamicImage::ImageRgb8(RgbImage::from_pixel(8, 6, Rgb([200, 30, 30])))
    }

    #[test]
    fn a_picture_is_written_whole_and_nothing_else_is_left() {
        let d = dir("whole");
        let png = d.join("out.png");
        std::fs::write(&png, b"old").unwrap();
        save(&picture(), &png).unwrap();
        let back = image::open(&png).unwrap();
        assert_eq!(back.to_rgb8(), picture().to_rgb8());
        let jpeg = d.join("out.JPG");
        save(&picture(), &jpeg).unwrap();
        assert_eq!(std::fs::read(&jpeg).unwrap()[..2], [0xff, 0xd8]);
        // No temporary file stays beside them.
        let mut names: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["out.JPG", "out.png"]);
    }

    #[test]
    fn a_failed_export_leaves_the_old_file() {
        let d = dir("failed");
        let target = d.join("missing-folder").join("out.png");
        let e = save(&picture(), &target).unwrap_err();
        assert!(e.to_string().contains("out.png"), "{e}");
        assert!(!target.exists());
    }

    #[test]
    fn an_input_is_known_by_its_file_not_its_name() {
        let d = dir("input");
        let input = d.join("photo.png");
        std::fs::write(&input, b"pixels").unwrap();
        let other = d.join("other.png");
        std::fs::write(&other, b"pixels").unwrap();
        let link = d.join("link.png");
        std::fs::hard_link(&input, &link).unwrap();
        let dotted = d.join(".").join("photo.png");
        let inputs = [input.as_path()];
        assert_eq!(writes_over(&input, &inputs), Some(input.as_path()));
        assert_eq!(writes_over(&dotted, &inputs), Some(input.as_path()));
        assert_eq!(writes_over(&link, &inputs), Some(input.as_path()));
        assert_eq!(
            writes_over(&other, &inputs),
            None,
            "same bytes, another file"
        );
        assert_eq!(writes_over(&d.join("new.png"), &inputs), None);
    }
}
