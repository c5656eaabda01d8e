//! Rebuilds `models/digits.bin` from the fonts in `assets/fonts/`.
//!
//! `cargo run --release -p sudoku-lens-tools --bin build_model [-- OUT]`. The output is the
//! same, byte for byte, on every run. `-- --check` builds in memory and
//! fails if the result differs from the committed `models/digits.bin`.

use std::path::PathBuf;
use std::time::Instant;

use sudoku_lens::vision::classify::Model;
use sudoku_lens_tools::build::{BuildConfig, DIGIT_FONTS, TRAIN_FONTS, build_model_with};
use sudoku_lens_tools::{font_bytes, repo_root};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = repo_root();
    let arg = std::env::args().nth(1);
    let check = arg.as_deref() == Some("--check");
    let out: PathBuf = arg
        .filter(|_| !check)
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("models/digits.bin"));
    let fonts = TRAIN_FONTS
        .iter()
        .map(|name| font_bytes(name))
        .collect::<Result<Vec<_>, _>>()?;
    let digit_fonts = DIGIT_FONTS
        .iter()
        .map(|&(name, digits)| Ok((font_bytes(name)?, digits)))
        .collect::<Result<Vec<_>, std::io::Error>>()?;
    let cfg = BuildConfig::default();
    let start = Instant::now();
    let bytes = build_model_with(&fonts, &digit_fonts, &cfg)?;
    let model = Model::from_bytes(&bytes)?;
    if check {
        let committed = std::fs::read(&out)?;
        if committed != bytes {
            return Err(format!("{} differs from a fresh build", out.display()).into());
        }
        println!("{} matches a fresh build", out.display());
        return Ok(());
    }
    std::fs::write(&out, &bytes)?;
    println!(
        "{}: {} bytes, {} prototypes from {} fonts, reject distance {:.4}, in {:.1?}",
        out.display(),
        bytes.len(),
        model.len(),
        fonts.len() + digit_fonts.len(),
        model.reject_distance(),
        start.elapsed()
    );
    Ok(())
}
