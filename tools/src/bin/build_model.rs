//! Rebuilds `models/digits.bin` from the fonts in `assets/fonts/`, and
//! `models/handwriting.bin` from the handwriting tiles in
//! `assets/handwriting/`.
//!
//! `cargo run --release -p sudoku-lens-tools --bin build_model [-- OUT]`
//! writes the digit model (to OUT, or `models/digits.bin`);
//! `-- --hand` writes the handwriting model. The output is the same, byte
//! for byte, on every run. `-- --check` builds both in memory and fails if
//! either differs from its committed file.

use std::path::PathBuf;
use std::time::Instant;

use sudoku_lens::vision::classify::Model;
use sudoku_lens_tools::build::{
    BuildConfig, DIGIT_FONTS, HAND_ATLAS, HandConfig, TRAIN_FONTS, build_hand_model,
    build_model_with,
};
use sudoku_lens_tools::{font_bytes, repo_root};

fn digits() -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let fonts = TRAIN_FONTS
        .iter()
        .map(|name| font_bytes(name))
        .collect::<Result<Vec<_>, _>>()?;
    let digit_fonts = DIGIT_FONTS
        .iter()
        .map(|&(name, digits)| Ok((font_bytes(name)?, digits)))
        .collect::<Result<Vec<_>, std::io::Error>>()?;
    Ok(build_model_with(
        &fonts,
        &digit_fonts,
        &BuildConfig::default(),
    )?)
}

fn handwriting() -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let root = repo_root();
    let atlas = image::open(root.join(HAND_ATLAS.0))?.to_luma8();
    let labels = std::fs::read_to_string(root.join(HAND_ATLAS.1))?;
    Ok(build_hand_model(&atlas, &labels, &HandConfig::default())?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = repo_root();
    let arg = std::env::args().nth(1);
    let start = Instant::now();
    match arg.as_deref() {
        Some("--check") => {
            for (file, bytes) in [
                ("models/digits.bin", digits()?),
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
