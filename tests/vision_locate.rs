//! The grid finder on synthetic photos: grids drawn here, warped by a known
//! projection into cluttered, blurred, noisy images, so that the true
//! corners are known exactly.

use image::{GrayImage, Luma};
use imageproc::drawing::{draw_filled_circle_mut, draw_filled_rect_mut, draw_line_segment_mut};
use imageproc::filter::gaussian_blur_f32;
use imageproc::rect::Rect;
use sudoku_lens::grid::Layout;
use sudoku_lens::vision::locate::{CELL_CROP_SIZE, LocateError, Located, cell_crops, locate};
use sudoku_lens::vision::page::homography::Homography;
use sudoku_lens::vision::page::load::{LoadError, load_bytes, load_path};

/// A small deterministic generator for clutter and noise.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
}

/// A printed grid: `layout`'s cells drawn `cell` px wide, thin lines inside
/// boxes and thick lines on box and grid borders, with a blob "digit" in
/// the cells for which `digit(cell)` holds. The outer edge of the border is
/// at the image edge. Returns the image and the cells that got a digit.
fn draw_grid(layout: &Layout, cell: u32, seed: u64) -> (GrayImage, Vec<bool>) {
    let thick = (cell / 9).max(3) as i32;
    let thin = (cell / 30).max(1) as i32;
    let w = layout.width() as u32 * cell + thick as u32;
    let h = layout.height() as u32 * cell + thick as u32;
    let mut img = GrayImage::from_pixel(w, h, Luma([245]));
    let off = thick / 2;
    let mut rng = Lcg(seed);
    let mut digits = vec![false; layout.cell_count()];
    for (i, d) in digits.iter_mut().enumerate() {
        let (r, c) = layout.position(i);
        if rng.below(3) == 0 {
            *d = true;
            let (cx, cy) = (
                (c as u32 * cell + cell / 2) as i32 + off,
                (r as u32 * cell + cell / 2) as i32 + off,
            );
            let s = cell as i32 / 5;
            draw_filled_rect_mut(
                &mut img,
                Rect::at(cx - s / 2, cy - s - s / 2).of_size(s as u32, (3 * s) as u32),
                Luma([20]),
            );
            draw_filled_circle_mut(&mut img, (cx, cy + s), s, Luma([20]));
        }
    }
    // Every border of every cell; thick where it is a box or grid border.
    for i in 0..layout.cell_count() {
        let (r, c) = layout.position(i);
        let edges = [
            (
                r,
                c,
                r,
                c + 1,
                r == 0 || layout.cell_at(r - 1, c).is_none() || r % 3 == 0,
            ),
            (
                r + 1,
                c,
                r + 1,
                c + 1,
                layout.cell_at(r + 1, c).is_none() || (r + 1) % 3 == 0,
            ),
            (
                r,
                c,
                r + 1,
                c,
                c == 0 || layout.cell_at(r, c - 1).is_none() || c % 3 == 0,
            ),
            (
                r,
                c + 1,
                r + 1,
                c + 1,
                layout.cell_at(r, c + 1).is_none() || (c + 1) % 3 == 0,
            ),
        ];
        for (r0, c0, r1, c1, heavy) in edges {
            let t = if heavy { thick } else { thin };
            let x0 = c0 as i32 * cell as i32 + off - t / 2;
            let y0 = r0 as i32 * cell as i32 + off - t / 2;
            let x1 = c1 as i32 * cell as i32 + off - t / 2;
            let y1 = r1 as i32 * cell as i32 + off - t / 2;
            draw_filled_rect_mut(
                &mut img,
                Rect::at(x0, y0).of_size((x1 - x0 + t) as u32, (y1 - y0 + t) as u32),
                Luma([15]),
            );
        }
    }
    (img, digits)
}

/// Paints `src` onto `dst` through a projection taking `src`'s corners to
/// `quad` (clockwise from top-left). Returns the projection.
fn paste(dst: &mut GrayImage, src: &GrayImage, quad: [[f64; 2]; 4]) -> Homography {
    let (w, h) = (src.width() as f64, src.height() as f64);
    let hmg = Homography::from_points(&[[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]], &quad).unwrap();
    let inv = hmg.inverse().unwrap();
    for y in 0..dst.height() {
        for x in 0..dst.width() {
            let (u, v) = inv.map(x as f64 + 0.5, y as f64 + 0.5);
            if u >= 0.0 && v >= 0.0 && u < w && v < h {
                dst.put_pixel(x, y, *src.get_pixel(u as u32, v as u32));
            }
        }
    }
    hmg
}

/// Paper with uneven light, print-like clutter, and a few long lines.
fn cluttered_background(w: u32, h: u32, seed: u64) -> GrayImage {
    let mut img = GrayImage::from_fn(w, h, |x, y| {
        let shade = 60.0 * (x as f32 / w as f32) + 40.0 * (y as f32 / h as f32);
        Luma([(235.0 - shade) as u8])
    });
    let mut rng = Lcg(seed);
    for _ in 0..(w * h / 4000) {
        let (x, y) = (rng.below(w) as i32, rng.below(h) as i32);
        let (rw, rh) = (3 + rng.below(12), 6 + rng.below(10));
        draw_filled_rect_mut(&mut img, Rect::at(x, y).of_size(rw, rh), Luma([40]));
    }
    for _ in 0..4 {
        let a = (rng.below(w) as f32, rng.below(h) as f32);
        let b = (rng.below(w) as f32, rng.below(h) as f32);
        draw_line_segment_mut(&mut img, a, b, Luma([30]));
    }
    img
}

fn add_noise(img: &mut GrayImage, amplitude: i32, seed: u64) {
    let mut rng = Lcg(seed);
    for p in img.pixels_mut() {
        let n = rng.below(2 * amplitude as u32 + 1) as i32 - amplitude;
        p[0] = (p[0] as i32 + n).clamp(0, 255) as u8;
    }
}

/// The true outer corners: the grid image's corners through the projection.
fn truth(hmg: &Homography, grid: &GrayImage) -> [[f64; 2]; 4] {
    let (w, h) = (grid.width() as f64, grid.height() as f64);
    [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]].map(|[x, y]| {
        let (u, v) = hmg.map(x, y);
        [u, v]
    })
}

/// Saves a test image for inspection when `VISION_TEST_DUMP` names a folder.
fn dump(name: &str, img: &GrayImage) {
    if let Some(dir) = std::env::var_os("VISION_TEST_DUMP") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        img.save(dir.join(format!("{name}.png"))).unwrap();
    }
}

fn assert_corners(found: &Located, truth: [[f64; 2]; 4], tolerance: f64) {
    let side = (0..4)
        .map(|i| {
            let (a, b) = (truth[i], truth[(i + 1) % 4]);
            ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
        })
        .sum::<f64>()
        / 4.0;
    for (i, (c, t)) in found.corners.iter().zip(truth).enumerate() {
        let e = ((c[0] as f64 - t[0]).powi(2) + (c[1] as f64 - t[1]).powi(2)).sqrt();
        assert!(
            e <= tolerance * side,
            "corner {i}: found {:?}, expected {:?} ({:.1} px off, {:.2}% of the side; allowed {:.2}%)",
            c,
            t,
            e,
            100.0 * e / side,
            100.0 * tolerance
        );
    }
}

/// Mean darkness of the central half of a crop.
fn centre_darkness(crop: &GrayImage) -> f64 {
    let s = crop.width();
    let mut sum = 0.0;
    for y in s / 4..s * 3 / 4 {
        for x in s / 4..s * 3 / 4 {
            sum += 255.0 - crop.get_pixel(x, y)[0] as f64;
        }
    }
    sum / (s * s / 4) as f64
}

fn assert_crops_follow_digits(grey: &GrayImage, found: &Located, digits: &[bool]) {
    let crops = cell_crops(grey, found, CELL_CROP_SIZE);
    assert_eq!(crops.len(), found.layout.cell_count());
    assert!(
        crops
            .iter()
            .all(|c| c.dimensions() == (CELL_CROP_SIZE, CELL_CROP_SIZE))
    );
    let ink: Vec<f64> = crops.iter().map(centre_darkness).collect();
    let min_full = (0..ink.len())
        .filter(|&i| digits[i])
        .map(|i| ink[i])
        .fold(f64::MAX, f64::min);
    let max_empty = (0..ink.len())
        .filter(|&i| !digits[i])
        .map(|i| ink[i])
        .fold(f64::MIN, f64::max);
    assert!(
        min_full > max_empty + 10.0,
        "cells with a digit ({min_full:.1}) must be darker than empty ones ({max_empty:.1})"
    );
}

#[test]
fn classic_under_perspective_with_clutter_blur_and_noise() {
    let layout = Layout::classic();
    let (grid, digits) = draw_grid(&layout, 60, 1);
    let mut img = cluttered_background(1400, 1100, 2);
    let quad = [
        [260.0, 170.0],
        [1120.0, 230.0],
        [1060.0, 980.0],
        [190.0, 900.0],
    ];
    let hmg = paste(&mut img, &grid, quad);
    let mut img = gaussian_blur_f32(&img, 1.5);
    add_noise(&mut img, 12, 3);
    dump(
        "classic_under_perspective_with_clutter_blur_and_noise",
        &img,
    );
    let found = locate(&img, None).expect("grid found");
    assert_eq!(found.layout.name(), "classic");
    assert_corners(&found, truth(&hmg, &grid), 0.015);
    assert_crops_follow_digits(&img, &found, &digits);
}

#[test]
fn rotated_grid_corners_start_top_left() {
    let layout = Layout::classic();
    let (grid, digits) = draw_grid(&layout, 40, 4);
    let mut img = cluttered_background(900, 900, 5);
    // About 20 degrees clockwise.
    let quad = [
        [250.0, 120.0],
        [720.0, 290.0],
        [550.0, 760.0],
        [80.0, 590.0],
    ];
    let hmg = paste(&mut img, &grid, quad);
    dump("rotated_grid_corners_start_top_left", &img);
    let found = locate(&img, None).expect("grid found");
    assert_corners(&found, truth(&hmg, &grid), 0.015);
    assert_crops_follow_digits(&img, &found, &digits);
}

#[test]
fn samurai_is_told_from_classic() {
    let layout = Layout::samurai();
    let (grid, digits) = draw_grid(&layout, 36, 6);
    let mut img = cluttered_background(1200, 1000, 7);
    let quad = [
        [180.0, 80.0],
        [1000.0, 120.0],
        [980.0, 940.0],
        [150.0, 900.0],
    ];
    let hmg = paste(&mut img, &grid, quad);
    let mut img = gaussian_blur_f32(&img, 1.0);
    add_noise(&mut img, 8, 8);
    dump("samurai_is_told_from_classic", &img);
    let found = locate(&img, None).expect("grid found");
    assert_eq!(
        found.layout.name(),
        "samurai",
        "scores {:?}",
        found.layout_scores
    );
    assert_corners(&found, truth(&hmg, &grid), 0.015);
    assert_crops_follow_digits(&img, &found, &digits);
}

#[test]
fn a_forced_layout_is_honoured() {
    let (grid, _) = draw_grid(&Layout::classic(), 40, 9);
    let mut img = cluttered_background(800, 700, 10);
    paste(
        &mut img,
        &grid,
        [
            [150.0, 100.0],
            [600.0, 110.0],
            [610.0, 560.0],
            [140.0, 550.0],
        ],
    );
    let forced = Layout::samurai();
    dump("a_forced_layout_is_honoured", &img);
    match locate(&img, Some(&forced)) {
        Ok(found) => assert_eq!(found.layout.name(), "samurai"),
        Err(e) => assert!(matches!(e, LocateError::NoGrid)),
    }
    let found = locate(&img, Some(&Layout::classic())).expect("grid found");
    assert_eq!(found.layout.name(), "classic");
    assert_eq!(found.layout_scores.len(), 1);
}

#[test]
fn a_second_smaller_grid_beside_the_main_one_is_ignored() {
    let layout = Layout::classic();
    let (big, _) = draw_grid(&layout, 50, 11);
    let (small, _) = draw_grid(&layout, 28, 12);
    let mut img = cluttered_background(1300, 900, 13);
    let hmg = paste(
        &mut img,
        &big,
        [[60.0, 120.0], [520.0, 110.0], [530.0, 580.0], [70.0, 590.0]],
    );
    paste(
        &mut img,
        &small,
        [
            [800.0, 80.0],
            [1060.0, 90.0],
            [1050.0, 350.0],
            [790.0, 340.0],
        ],
    );
    add_noise(&mut img, 6, 14);
    dump("a_second_smaller_grid_beside_the_main_one_is_ignored", &img);
    let found = locate(&img, None).expect("grid found");
    assert_corners(&found, truth(&hmg, &big), 0.015);
}

#[test]
fn a_grid_joined_to_other_print_by_thin_rules_is_found() {
    // A newspaper page: a crossword's ruled table beside the grid, tied to
    // it by thin rules, one of which runs on from the grid's bottom edge.
    // Grid and table are one ink component whose holes are all cell-like.
    let layout = Layout::classic();
    let (grid, digits) = draw_grid(&layout, 40, 18);
    let mut img = GrayImage::from_pixel(900, 760, Luma([240]));
    let hmg = paste(
        &mut img,
        &grid,
        [[60.0, 150.0], [424.0, 152.0], [422.0, 516.0], [58.0, 514.0]],
    );
    let rule = Luma([30]);
    for i in 0..=12 {
        let y = 100.0 + 36.0 * i as f32;
        draw_line_segment_mut(&mut img, (470.0, y), (866.0, y), rule);
    }
    for j in 0..=11 {
        let x = 470.0 + 36.0 * j as f32;
        draw_line_segment_mut(&mut img, (x, 100.0), (x, 532.0), rule);
    }
    draw_line_segment_mut(&mut img, (424.0, 300.0), (470.0, 300.0), rule);
    draw_line_segment_mut(&mut img, (400.0, 515.0), (470.0, 515.0), rule);
    add_noise(&mut img, 6, 19);
    dump("a_grid_joined_to_other_print_by_thin_rules_is_found", &img);
    let found = locate(&img, None).expect("grid found");
    assert_eq!(found.layout.name(), "classic");
    assert_corners(&found, truth(&hmg, &grid), 0.015);
    assert_crops_follow_digits(&img, &found, &digits);
}

#[test]
fn a_grid_filling_the_whole_image_is_found() {
    let layout = Layout::classic();
    let (grid, digits) = draw_grid(&layout, 80, 15);
    // A full-width screenshot: the border touches every image edge.
    dump("a_grid_filling_the_whole_image_is_found", &grid);
    let found = locate(&grid, None).expect("grid found");
    let (w, h) = (grid.width() as f64, grid.height() as f64);
    let truth = [
        [0.0, 0.0],
        [w - 1.0, 0.0],
        [w - 1.0, h - 1.0],
        [0.0, h - 1.0],
    ];
    assert_corners(&found, truth, 0.015);
    assert_crops_follow_digits(&grid, &found, &digits);
}

#[test]
fn dark_mode_screenshot_is_found() {
    let layout = Layout::classic();
    let (grid, _) = draw_grid(&layout, 50, 16);
    let mut img = GrayImage::from_pixel(600, 900, Luma([245]));
    let hmg = paste(
        &mut img,
        &grid,
        [[20.0, 200.0], [580.0, 200.0], [580.0, 760.0], [20.0, 760.0]],
    );
    image::imageops::invert(&mut img);
    dump("dark_mode_screenshot_is_found", &img);
    let found = locate(&img, None).expect("grid found");
    assert_eq!(found.layout.name(), "classic");
    assert_corners(&found, truth(&hmg, &grid), 0.015);
}

#[test]
fn no_grid_is_reported() {
    let img = cluttered_background(1000, 800, 17);
    dump("no_grid_is_reported", &img);
    let e = locate(&img, None).unwrap_err();
    assert!(matches!(e, LocateError::NoGrid), "{e:?}");
    assert_eq!(
        e.in_file("page.jpg").to_string(),
        "no sudoku grid found in page.jpg"
    );
    // An empty frame is not a grid either.
    let mut frame = GrayImage::from_pixel(600, 600, Luma([240]));
    draw_filled_rect_mut(&mut frame, Rect::at(100, 100).of_size(400, 400), Luma([20]));
    draw_filled_rect_mut(
        &mut frame,
        Rect::at(106, 106).of_size(388, 388),
        Luma([240]),
    );
    assert!(locate(&frame, None).is_err());
    assert!(locate(&GrayImage::new(10, 10), None).is_err());
    // Strips far longer than wide: refused or not found, never a panic.
    assert!(locate(&GrayImage::new(10, 20_000), None).is_err());
    assert!(locate(&GrayImage::from_pixel(40, 40_000, Luma([240])), None).is_err());
}

#[test]
fn errors_name_the_file_only_where_it_is_known() {
    let e = locate(&GrayImage::new(40, 20), None).unwrap_err();
    assert_eq!(
        e,
        LocateError::TooSmall {
            width: 40,
            height: 20
        }
    );
    assert_eq!(
        e.to_string(),
        "the image is too small to hold a sudoku grid (40x20 pixels)"
    );
    let named = e.in_file("tiny.png");
    assert_eq!(named.file, "tiny.png");
    assert_eq!(named.error, e);
    assert_eq!(
        named.to_string(),
        "tiny.png is too small to hold a sudoku grid (40x20 pixels)"
    );
    let blank = GrayImage::from_pixel(400, 300, Luma([240]));
    let e = locate(&blank, None).unwrap_err();
    assert_eq!(e, LocateError::NoGrid);
    assert_eq!(e.to_string(), "no sudoku grid found in the image");
    assert_eq!(
        e.in_file("blank.png").to_string(),
        "no sudoku grid found in blank.png"
    );
}

#[test]
fn an_oversized_image_is_refused_before_decoding() {
    // A BMP header announcing 20000 x 20000 pixels, with no pixel data.
    let (w, h) = (20_000u32, 20_000u32);
    let mut bmp = Vec::new();
    bmp.extend_from_slice(b"BM");
    bmp.extend_from_slice(&(54 + w * h * 3).to_le_bytes());
    bmp.extend_from_slice(&[0; 4]);
    bmp.extend_from_slice(&54u32.to_le_bytes());
    bmp.extend_from_slice(&40u32.to_le_bytes());
    bmp.extend_from_slice(&(w as i32).to_le_bytes());
    bmp.extend_from_slice(&(h as i32).to_le_bytes());
    bmp.extend_from_slice(&1u16.to_le_bytes());
    bmp.extend_from_slice(&24u16.to_le_bytes());
    bmp.extend_from_slice(&[0; 24]);
    let e = load_bytes(&bmp, "huge.bmp").unwrap_err();
    assert!(
        matches!(
            e,
            LoadError::TooLarge {
                width: 20_000,
                height: 20_000,
                ..
            }
        ),
        "{e:?}"
    );
    let msg = e.to_string();
    assert!(
        msg.contains("huge.bmp") && msg.contains("20000x20000"),
        "{msg}"
    );
}

#[test]
fn an_undecodable_file_gives_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("vision-locate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.jpg");
    // A JPEG start-of-image marker and then garbage.
    let mut bytes = vec![0xFF, 0xD8, 0xFF, 0xE0];
    bytes.extend(std::iter::repeat_n(0x5A, 200));
    std::fs::write(&path, &bytes).unwrap();
    let e = load_path(&path).unwrap_err();
    assert!(matches!(e, LoadError::Undecodable { .. }), "{e:?}");
    assert!(e.to_string().contains("broken.jpg"), "{e}");
    std::fs::write(&path, b"just some text").unwrap();
    let e = load_path(&path).unwrap_err();
    assert!(matches!(e, LoadError::Unsupported { .. }), "{e:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn exif_orientation_is_applied() {
    use image::ImageEncoder;
    use sudoku_lens::vision::page::load::{Rotation, load_bytes_with};
    // A 40 x 20 JPEG tagged "rotate 90 degrees clockwise to view" (6).
    let img = GrayImage::from_fn(40, 20, |x, _| Luma([if x < 20 { 0 } else { 255 }]));
    let exif = vec![
        0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, // TIFF header, IFD at 8
        0x01, 0x00, // one entry
        0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00,
        0x00, // Orientation = 6
        0x00, 0x00, 0x00, 0x00, // no next IFD
    ];
    let mut bytes = Vec::new();
    let mut enc = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 95);
    enc.set_exif_metadata(exif).unwrap();
    enc.write_image(img.as_raw(), 40, 20, image::ExtendedColorType::L8)
        .unwrap();
    let turned = load_bytes(&bytes, "tagged.jpg").unwrap().to_luma8();
    assert_eq!(turned.dimensions(), (20, 40));
    // Rotated clockwise: the dark left half is now on top.
    assert!(turned.get_pixel(10, 5)[0] < 60 && turned.get_pixel(10, 35)[0] > 200);
    let stored = load_bytes_with(&bytes, "tagged.jpg", Rotation::AsStored).unwrap();
    assert_eq!((stored.width(), stored.height()), (40, 20));
}

#[test]
fn debug_images_are_written() {
    use sudoku_lens::vision::debug::write_debug;
    use sudoku_lens::vision::locate::locate_traced;
    let (grid, _) = draw_grid(&Layout::classic(), 30, 18);
    let mut img = cluttered_background(500, 450, 19);
    paste(
        &mut img,
        &grid,
        [[80.0, 60.0], [400.0, 70.0], [410.0, 390.0], [70.0, 380.0]],
    );
    let (found, trace) = locate_traced(&img, None);
    let found = found.expect("grid found");
    let dir = std::env::temp_dir().join(format!("vision-debug-{}", std::process::id()));
    write_debug(&dir, &trace, &img, Some(&found), CELL_CROP_SIZE).unwrap();
    for name in ["threshold.png", "quads.png", "rectified.png", "cells.png"] {
        assert!(dir.join(name).is_file(), "{name} missing");
    }
    let sheet = image::open(dir.join("cells.png")).unwrap();
    assert_eq!(sheet.width(), 9 * (CELL_CROP_SIZE + 2));
    std::fs::remove_dir_all(&dir).unwrap();
}
