//! Rebuilds `models/digits.bin` and `models/symbols.bin` from the fonts in
//! `assets/fonts/`, and `models/handwriting.bin` from the handwriting tiles
//! in `assets/handwriting/`.
//!
//! `cargo run --release -p sudoku-lens-tools --bin build_model [-- OUT]`
//! writes the digit model (to OUT, or `models/digits.bin`);
//! `-- --symbols` writes the symbols model (1-9, A-P and 0, for grids of
//! more than nine symbols); `-- --hand` writes the handwriting model. The
//! output is the same, byte for byte, on every run. `-- --check` builds
//! all three in memory and fails if any differs from its committed file.

use std::path::PathBuf;
use std::time::Instant;

use sudoku_lens::vision::cells::classify::{Model, SYMBOL_GLYPHS};
use sudoku_lens_tools::build::{
    BuildConfig, DIGIT_FONTS, HAND_ATLASES, HandConfig, TRAIN_FONTS, build_glyph_model,
    build_hand_model, build_model_with, read_hand_atlas,
};
use sudoku_lens_tools::{font_bytes, repo_root};

/// The training fonts' bytes, and those of the fonts that give only some
/// digits.
type FontFiles = (Vec<Vec<u8>>, Vec<(Vec<u8>, &'static [u8])>);

fn fonts() -> Result<FontFiles, std::io::Error> {
    let fonts = TRAIN_FONTS
        .iter()
        .map(|name| font_bytes(name))
        .collect::<Result<Vec<_>, _>>()?;
    let digit_fonts = DIGIT_FONTS
        .iter()
        .map(|&(name, digits)| Ok((font_bytes(name)?, digits)))
        .collect::<Result<Vec<_>, std::io::Error>>()?;
    Ok((fonts, digit_fonts))
}

fn digits() -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let (fonts, digit_fonts) = self::fonts()?;
    Ok(build_model_with(
        &fonts,
        &digit_fonts,
        &BuildConfig::default(),
    )?)
}

fn symbols() -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let (fonts, digit_fonts) = self::fonts()?;
    Ok(build_glyph_model(
        SYMBOL_GLYPHS,
        &fonts,
        &digit_fonts,
        &BuildConfig::symbols(),
    )?)
}

fn handwriting() -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let root = repo_root();
    let mut tiles = Vec::new();
    for files in HAND_ATLASES {
        tiles.extend(read_hand_atlas(root, files)?);
    }
    Ok(build_hand_model(&tiles, &HandConfig::default())?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = repo_root();
    let arg = std::env::args().nth(1);
    let start = Instant::now();
    match arg.as_deref() {
        Some("--check") => {
            for (file, bytes) in [
                ("models/digits.bin", digits()?),
                ("models/symbols.bin", symbols()?),
                ("models/handwriting.bin", handwriting()?),
            ] {
                let out = root.join(file);
                if std::fs::read(&out)? != bytes {
                    return Err(format!("{} differs from a fresh build", out.display()).into());
                }
                println!("{} matches a fresh build", out.display());
            }
            return Ok(());
        }
        Some("--symbols") => {
            let out = root.join("models/symbols.bin");
            let bytes = symbols()?;
            let model = Model::from_bytes(&bytes)?;
            std::fs::write(&out, &bytes)?;
            println!(
                "{}: {} bytes, {} prototypes of {} classes ({SYMBOL_GLYPHS}), reject distance {:.4}, in {:.1?}",
                out.display(),
                bytes.len(),
                model.len(),
                model.class_count(),
                model.reject_distance(),
                start.elapsed()
            );
        }
        Some("--hand") => {
            let out = root.join("models/handwriting.bin");
            let bytes = handwriting()?;
            let model = Model::from_bytes(&bytes)?;
            std::fs::write(&out, &bytes)?;
            println!(
                "{}: {} bytes, {} prototypes, in {:.1?}",
                out.display(),
                bytes.len(),
                model.len(),
                start.elapsed()
            );
        }
        _ => {
            let out: PathBuf = arg
                .map(PathBuf::from)
                .unwrap_or_else(|| root.join("models/digits.bin"));
            let bytes = digits()?;
            let model = Model::from_bytes(&bytes)?;
            std::fs::write(&out, &bytes)?;
            println!(
                "{}: {} bytes, {} prototypes from {} fonts, reject distance {:.4}, in {:.1?}",
                out.display(),
                bytes.len(),
                model.len(),
                TRAIN_FONTS.len() + DIGIT_FONTS.len(),
                model.reject_distance(),
                start.elapsed()
            );
        }
    }
    Ok(())
}
