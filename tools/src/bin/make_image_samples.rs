//! Writes the image samples in `samples/images/`: classic, samurai,
//! jigsaw, 16x16 (letters, and hexadecimal) and 25x25 puzzles rendered as
//! app screenshots (light and dark mode, shaded boxes,
//! a player's digits in another ink than the givens',
//! highlighted cells, candidate marks, a number pad), killer screenshots
//! (dashed and dotted cage outlines) and a printed killer photographed,
//! and as simulated phone
//! photos of a printed page (perspective, small and quarter-turn rotations,
//! uneven light and shadow, a curved page, blur, noise, JPEG compression,
//! print around the grid; one with handwritten entries composed from
//! `assets/handwriting/`), each with `NAME.txt`, the reading expected from
//! `sudoku-lens read NAME.png`.
//!
//! Digits are drawn in fonts the digit model is not built from. Everything is
//! seeded, so a rerun writes the same files.
//!
//! cargo run --release -p sudoku-lens-tools --bin make_image_samples

use std::path::Path;
use std::sync::Arc;

use ab_glyph::{Font, FontVec, PxScale, ScaleFont, point};
use image::{GrayImage, Rgb, RgbImage};
use sudoku_lens::grid::{Alphabet, Document, Entries, HouseKind, Layout, Progress, Puzzle, parse};
use sudoku_lens::rng::Rng;
use sudoku_lens::solve::SudokuSolver;
use sudoku_lens::solve::generate::{full_grid, thin};
use sudoku_lens_tools::build::{HAND_ATLASES, TRAIN_FONTS, read_hand_atlas};
use sudoku_lens_tools::repo_root;
use sudoku_lens_tools::samples::photo::{Camera, photograph, save_jpeg};

type Colour = [u8; 3];

/// Fonts of the samples, none of which the digit model is built from: a sans
/// and a serif.
const FONTS: &[&str] = &["DejaVuSans.ttf", "texgyrebonum-regular.otf"];

/// How a grid is drawn.
#[derive(Clone)]
struct Style {
    paper: Colour,
    line: Colour,
    digit: Colour,
    /// Fill of every other 3x3 box.
    shade: Option<Colour>,
    /// Fills of a jigsaw's regions, as a map colouring: no two regions
    /// that meet share one.
    region_fills: Option<[Colour; 4]>,
    /// Fill of the selected cell's row, column and box, and of the cell.
    highlight: Option<(Colour, Colour)>,
    /// Colour of candidate marks in some empty cells.
    pencil: Option<Colour>,
    /// A player's digits (cell order, 0 = none) in the cells the puzzle
    /// leaves empty, drawn in the givens' font in their own ink, as solving
    /// apps show them.
    entries: Option<(Vec<u8>, Colour)>,
    /// The ink of the player's digits that disagree with the solution, on
    /// apps that show mistakes in their own colour (red); `None`: they are
    /// in the entries' ink.
    mistakes: Option<Colour>,
    /// Line widths in cell units.
    thin: f32,
    thick: f32,
    /// Index into the fonts.
    font: usize,
    /// Digit ink height over the cell side.
    digit_height: f32,
}

impl Style {
    fn print(font: usize) -> Style {
        Style {
            paper: [250, 250, 246],
            line: [20, 20, 20],
            digit: [15, 15, 15],
            shade: None,
            region_fills: None,
            highlight: None,
            pencil: None,
            entries: None,
            mistakes: None,
            thin: 0.025,
            thick: 0.07,
            font,
            digit_height: 0.58,
        }
    }
}

/// What surrounds the grid on the page or screen.
#[derive(Clone, Default)]
struct Extras {
    /// A status line above the grid (an app's header).
    header: bool,
    /// A row of digit buttons below the grid.
    number_pad: Option<(Colour, Colour)>,
    /// Lines of text beside and below the grid (a printed page).
    text: bool,
    /// A smaller second puzzle beside the grid.
    second_grid: Option<Puzzle>,
}

struct Fonts(Vec<FontVec>);

fn fill(img: &mut RgbImage, x0: f32, y0: f32, x1: f32, y1: f32, c: Colour) {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let xa = (x0.round() as i64).clamp(0, w);
    let xb = (x1.round() as i64).clamp(0, w);
    let ya = (y0.round() as i64).clamp(0, h);
    let yb = (y1.round() as i64).clamp(0, h);
    for y in ya..yb {
        for x in xa..xb {
            img.put_pixel(x as u32, y as u32, Rgb(c));
        }
    }
}

fn blend(img: &mut RgbImage, x: i64, y: i64, c: Colour, a: f32) {
    if x < 0 || y < 0 || x >= img.width() as i64 || y >= img.height() as i64 {
        return;
    }
    let p = img.get_pixel_mut(x as u32, y as u32);
    for (v, &c) in p.0.iter_mut().zip(&c) {
        *v = (*v as f32 * (1.0 - a) + c as f32 * a).round() as u8;
    }
}

/// Draws `ch` with its ink box centred on (cx, cy), `height` pixels tall
/// for a digit.
fn glyph_centred(
    img: &mut RgbImage,
    font: &FontVec,
    ch: char,
    cx: f32,
    cy: f32,
    height: f32,
    c: Colour,
) {
    // Size so that the digit 8's ink is `height` tall.
    let probe = font
        .outline_glyph(
            font.glyph_id('8')
                .with_scale_and_position(100.0, point(0.0, 0.0)),
        )
        .expect("the font has digits");
    let scale = 100.0 * height / probe.px_bounds().height();
    let g = font
        .glyph_id(ch)
        .with_scale_and_position(scale, point(0.0, 0.0));
    let Some(outline) = font.outline_glyph(g) else {
        return;
    };
    let b = outline.px_bounds();
    let (ox, oy) = (
        (cx - b.width() / 2.0).round() as i64,
        (cy - b.height() / 2.0).round() as i64,
    );
    outline.draw(|x, y, cov| blend(img, ox + x as i64, oy + y as i64, c, cov.min(1.0)));
}

/// Draws a line of text starting at (x, baseline).
fn text(img: &mut RgbImage, font: &FontVec, s: &str, x: f32, baseline: f32, px: f32, c: Colour) {
    let scaled = font.as_scaled(PxScale::from(px));
    let mut pen = x;
    for ch in s.chars() {
        let id = scaled.glyph_id(ch);
        let g = id.with_scale_and_position(px, point(pen, baseline));
        if let Some(o) = font.outline_glyph(g) {
            let b = o.px_bounds();
            o.draw(|gx, gy, cov| {
                blend(
                    img,
                    b.min.x as i64 + gx as i64,
                    b.min.y as i64 + gy as i64,
                    c,
                    cov.min(1.0),
                )
            });
        }
        pen += scaled.h_advance(id);
    }
}

/// Draws `puzzle` with its top-left corner at (ox, oy), `cell` pixels per
/// cell.
fn draw_grid(
    img: &mut RgbImage,
    fonts: &Fonts,
    puzzle: &Puzzle,
    (ox, oy): (f32, f32),
    cell: f32,
    style: &Style,
    rng: &mut Rng,
) {
    let l = puzzle.layout();
    let values = puzzle.values();
    let entry = |c: usize| style.entries.as_ref().map_or(0, |(e, _)| e[c]);
    // The selected cell: an empty one near the middle of the canvas.
    let selected = style.highlight.and_then(|_| {
        let mid = (l.height() / 2, l.width() / 2);
        (0..l.cell_count())
            .filter(|&c| values[c] == 0 && entry(c) == 0)
            .min_by_key(|&c| {
                let (r, k) = l.position(c);
                r.abs_diff(mid.0 + 1) + k.abs_diff(mid.1 + 2)
            })
    });
    let regions = l.regions();
    let colours = l.region_colours();
    for c in 0..l.cell_count() {
        let (r, k) = l.position(c);
        let (x, y) = (ox + k as f32 * cell, oy + r as f32 * cell);
        let mut bg = style.paper;
        if let Some(s) = style.shade
            && box_parity(l, c) == 1
        {
            bg = s;
        }
        if let Some(fills) = style.region_fills
            && !regions.is_empty()
        {
            bg = fills[colours[regions[c] as usize] as usize % fills.len()];
        }
        if let (Some((band, own)), Some(sel)) = (style.highlight, selected) {
            let (sr, sk) = l.position(sel);
            if c == sel {
                bg = own;
            } else if r == sr || k == sk || l.same_box(c, sel) {
                bg = band;
            }
        }
        fill(img, x, y, x + cell, y + cell, bg);
    }
    for c in 0..l.cell_count() {
        let (r, k) = l.position(c);
        let (x, y) = (ox + k as f32 * cell, oy + r as f32 * cell);
        // A side on the shape's outline, between boxes, or between a
        // jigsaw's regions is thick.
        let border = |dr: isize, dk: isize| match neighbour(l, r, k, dr, dk) {
            None => true,
            Some(o) if regions.is_empty() => !l.same_box(c, o),
            Some(o) => regions[o] != regions[c],
        };
        for (thick, vertical, at) in [
            (border(0, -1), true, x),
            (border(0, 1), true, x + cell),
            (border(-1, 0), false, y),
            (border(1, 0), false, y + cell),
        ] {
            let t = cell * if thick { style.thick } else { style.thin };
            let t = t.max(1.0) / 2.0;
            if vertical {
                fill(img, at - t, y - t, at + t, y + cell + t, style.line);
            } else {
                fill(img, x - t, at - t, x + cell + t, at + t, style.line);
            }
        }
    }
    let font = &fonts.0[style.font];
    let solution = style.mistakes.map(|_| {
        let mut solution = vec![0u8; values.len()];
        SudokuSolver::new(l.clone())
            .solve_into(values, 2, &mut solution)
            .expect("a sample puzzle solves");
        solution
    });
    for (c, &v) in values.iter().enumerate() {
        let (r, k) = l.position(c);
        let (x, y) = (ox + k as f32 * cell, oy + r as f32 * cell);
        let (v, ink) = match (&style.entries, style.mistakes, &solution) {
            (Some((e, _)), Some(red), Some(s)) if v == 0 && e[c] != 0 && e[c] != s[c] => {
                (e[c], red)
            }
            (Some((e, ink)), _, _) if v == 0 && e[c] != 0 => (e[c], *ink),
            _ => (v, style.digit),
        };
        if v != 0 {
            // Printed digits sit a little off centre, as they do.
            let dx = rng.range(-0.03, 0.03) * cell;
            let dy = rng.range(-0.03, 0.03) * cell;
            glyph_centred(
                img,
                font,
                puzzle.alphabet().symbol(v),
                x + cell / 2.0 + dx,
                y + cell / 2.0 + dy,
                cell * style.digit_height,
                ink,
            );
        } else if let Some(pc) = style.pencil
            && rng.chance(0.45)
        {
            // Two to four candidates in their places of a 3x3 mini-grid.
            let n = 2 + rng.below(3);
            let mut marks: Vec<u8> = Vec::new();
            while marks.len() < n as usize {
                let d = 1 + rng.below(9) as u8;
                if !marks.contains(&d) {
                    marks.push(d);
                }
            }
            for d in marks {
                let (mr, mc) = ((d - 1) / 3, (d - 1) % 3);
                glyph_centred(
                    img,
                    font,
                    char::from(b'0' + d),
                    x + cell * (0.2 + 0.3 * mc as f32),
                    y + cell * (0.2 + 0.3 * mr as f32),
                    cell * 0.18,
                    pc,
                );
            }
        }
    }
}

/// The cell `dr` rows and `dk` columns from (r, k), if any.
fn neighbour(l: &Layout, r: usize, k: usize, dr: isize, dk: isize) -> Option<usize> {
    l.cell_at(r.checked_add_signed(dr)?, k.checked_add_signed(dk)?)
}

/// 0 or 1 for the box holding `cell`, alternating between neighbouring
/// boxes like a chessboard's squares (boxes lie on a lattice of their own
/// size from the canvas's corner).
fn box_parity(l: &Layout, cell: usize) -> usize {
    let Some(b) = l
        .houses_of(cell)
        .iter()
        .map(|&h| &l.houses()[h as usize])
        .find(|h| h.kind == HouseKind::Box)
    else {
        return 0;
    };
    let rows = b.cells.iter().map(|&c| l.position(c as usize).0);
    let cols = b.cells.iter().map(|&c| l.position(c as usize).1);
    let h = rows.clone().max().unwrap_or(0) - rows.min().unwrap_or(0) + 1;
    let w = cols.clone().max().unwrap_or(0) - cols.min().unwrap_or(0) + 1;
    let (r, k) = l.position(cell);
    (r / h + k / w) % 2
}

/// Words for the print around a grid.
const WORDS: &[&str] = &[
    "puzzle",
    "the",
    "each",
    "row",
    "column",
    "and",
    "box",
    "must",
    "contain",
    "digits",
    "one",
    "to",
    "nine",
    "solution",
    "page",
    "tomorrow",
    "difficulty",
    "moderate",
    "fill",
    "grid",
    "so",
    "that",
    "every",
    "of",
    "in",
    "weekend",
    "edition",
    "answers",
];

fn sentence(rng: &mut Rng, words: usize) -> String {
    (0..words)
        .map(|_| WORDS[rng.below(WORDS.len() as u32) as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

/// A page (or screen) with the puzzle and its surroundings. Returns the
/// image and the grid's outer corners on it.
fn page(
    fonts: &Fonts,
    puzzle: &Puzzle,
    cell: f32,
    style: &Style,
    extras: &Extras,
    rng: &mut Rng,
) -> RgbImage {
    let l = puzzle.layout();
    let (gw, gh) = (l.width() as f32 * cell, l.height() as f32 * cell);
    let margin = (cell * 0.8).round();
    let left = margin + if extras.text { cell * 4.0 } else { 0.0 };
    let top = margin + if extras.header { cell * 1.2 } else { 0.0 };
    let right_extra = match &extras.second_grid {
        Some(_) => cell * 4.6,
        None => 0.0,
    };
    let bottom_extra = if extras.number_pad.is_some() {
        cell * 2.0
    } else if extras.text {
        cell * 2.2
    } else {
        0.0
    };
    let w = (left + gw + right_extra + margin).round() as u32;
    let h = (top + gh + bottom_extra + margin).round() as u32;
    let mut img = RgbImage::from_pixel(w, h, Rgb(style.paper));
    let font = &fonts.0[style.font];
    let muted = [
        ((style.line[0] as u16 + style.paper[0] as u16) / 2) as u8,
        ((style.line[1] as u16 + style.paper[1] as u16) / 2) as u8,
        ((style.line[2] as u16 + style.paper[2] as u16) / 2) as u8,
    ];
    if extras.header {
        let base = top - cell * 0.45;
        text(&mut img, font, "Medium", left, base, cell * 0.4, muted);
        text(
            &mut img,
            font,
            "Mistakes 0/3",
            left + gw * 0.38,
            base,
            cell * 0.4,
            muted,
        );
        text(
            &mut img,
            font,
            "04:12",
            left + gw * 0.82,
            base,
            cell * 0.4,
            muted,
        );
    }
    if extras.text {
        let px = cell * 0.3;
        let mut y = top + px;
        while y < top + gh + cell * 2.0 {
            let s = sentence(rng, 3);
            text(&mut img, font, &s, margin * 0.5, y, px, style.line);
            y += px * 1.5;
        }
        let mut y = top + gh + cell * 0.9;
        for _ in 0..2 {
            let s = sentence(rng, 9);
            text(&mut img, font, &s, left, y, px, style.line);
            y += px * 1.5;
        }
    }
    draw_grid(&mut img, fonts, puzzle, (left, top), cell, style, rng);
    if let Some(second) = &extras.second_grid {
        let small = cell * 0.42;
        let ox = left + gw + cell * 0.6;
        let style2 = Style {
            highlight: None,
            pencil: None,
            entries: None,
            mistakes: None,
            ..style.clone()
        };
        draw_grid(&mut img, fonts, second, (ox, top), small, &style2, rng);
        text(
            &mut img,
            font,
            "No. 2",
            ox,
            top + small * 9.0 + cell * 0.6,
            cell * 0.35,
            style.line,
        );
    }
    if let Some((button, label)) = extras.number_pad {
        let bw = gw / 9.0;
        let y0 = top + gh + cell * 0.5;
        for d in 1..=9u8 {
            let x0 = left + (d - 1) as f32 * bw;
            fill(
                &mut img,
                x0 + bw * 0.08,
                y0,
                x0 + bw * 0.92,
                y0 + cell * 1.2,
                button,
            );
            glyph_centred(
                &mut img,
                font,
                char::from(b'0' + d),
                x0 + bw / 2.0,
                y0 + cell * 0.6,
                cell * 0.55,
                label,
            );
        }
    }
    img
}

/// EXIF block with only the orientation tag.
fn exif_orientation(tag: u16) -> Vec<u8> {
    let mut e = vec![
        0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, // TIFF header, IFD at 8
        0x01, 0x00, // one entry
        0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00,
    ];
    e.extend_from_slice(&tag.to_le_bytes());
    e.extend_from_slice(&[0, 0, 0, 0, 0, 0]);
    e
}

fn load_puzzle(root: &Path, name: &str) -> Puzzle {
    let text = std::fs::read_to_string(root.join("samples/puzzles").join(name)).expect(name);
    match parse(&text, name, None).expect("a valid sample") {
        Document::Single(p) => p,
        Document::Batch(_) => panic!("{name} holds one puzzle"),
    }
}

fn generated_classic(seed: u64, givens: usize) -> Puzzle {
    let layout = Arc::new(Layout::classic());
    let mut solver = SudokuSolver::new(layout.clone());
    let full = full_grid(&mut solver, seed);
    Puzzle::empty(layout).with_values(thin(&mut solver, &full, givens, seed))
}

/// A player's digits for `puzzle`: `count` of its empty cells, chosen with
/// `seed`, hold the solution's digit, except the first, which holds a wrong
/// one (the player's mistake).
fn player_entries(puzzle: &Puzzle, seed: u64, count: usize) -> Vec<u8> {
    let mut solver = SudokuSolver::new(puzzle.layout().clone());
    let mut solution = vec![0u8; puzzle.values().len()];
    let found = solver
        .solve_into(puzzle.values(), 2, &mut solution)
        .expect("a sample puzzle solves");
    assert_eq!(found, 1, "a sample puzzle has one solution");
    let mut rng = Rng::new(seed);
    let mut entries = vec![0u8; solution.len()];
    let mut placed = 0;
    while placed < count {
        let c = rng.below(solution.len() as u32) as usize;
        if puzzle.values()[c] != 0 || entries[c] != 0 {
            continue;
        }
        entries[c] = if placed == 0 {
            solution[c] % 9 + 1
        } else {
            solution[c]
        };
        placed += 1;
    }
    entries
}

/// The expected reading of a sample: the givens, and the player's digits
/// (drawn in another ink, or written by hand) after `entries:` when it has
/// some.
fn expected_text(puzzle: &Puzzle, style: &Style, hand: Option<&[u8]>) -> String {
    let values = match (&style.entries, hand) {
        (Some((values, _)), _) => values.clone(),
        (None, Some(values)) => values.to_vec(),
        (None, None) => return puzzle.to_text(),
    };
    Progress::new(puzzle.clone(), Entries::from_values(values))
        .expect("entries in empty cells")
        .to_text()
}

/// One sample: a screenshot (saved as PNG) or a photo (saved as JPEG).
struct Sample {
    name: &'static str,
    puzzle: Puzzle,
    style: Style,
    extras: Extras,
    cell: f32,
    camera: Option<Camera>,
    /// EXIF orientation tag written into the JPEG, whatever its pixels show.
    exif: Option<u16>,
    /// A player's handwritten digits (cell order, 0 = none), composed from
    /// the handwriting tiles into empty cells of the page before it is
    /// photographed.
    hand: Option<Vec<u8>>,
}

/// The handwriting tiles of `assets/handwriting/` (cut from kubiesa-train,
/// AlexKubiesa/sudoku-scanner, MIT: see the README there): each 40 x 40
/// working image of a cell (the cell less 6% on each side) with its digit.
fn hand_tiles(root: &Path) -> Vec<(u8, GrayImage)> {
    read_hand_atlas(root, HAND_ATLASES[0])
        .expect("handwriting tiles")
        .into_iter()
        .map(|(tile, d)| (d, tile))
        .collect()
}

/// `count` empty cells of `puzzle`, chosen with `seed` among those whose
/// solution digit has a handwriting tile, holding that digit.
fn hand_entries(puzzle: &Puzzle, tiles: &[(u8, GrayImage)], seed: u64, count: usize) -> Vec<u8> {
    let mut solver = SudokuSolver::new(puzzle.layout().clone());
    let mut solution = vec![0u8; puzzle.values().len()];
    solver
        .solve_into(puzzle.values(), 2, &mut solution)
        .expect("a sample puzzle solves");
    let mut rng = Rng::new(seed);
    let mut entries = vec![0u8; solution.len()];
    let mut placed = 0;
    while placed < count {
        let c = rng.below(solution.len() as u32) as usize;
        if puzzle.values()[c] != 0
            || entries[c] != 0
            || !tiles.iter().any(|(d, _)| *d == solution[c])
        {
            continue;
        }
        entries[c] = solution[c];
        placed += 1;
    }
    entries
}

/// Writes each digit of `entries` into its cell of the grid drawn at
/// `grid` (left, top, right, bottom) on `page`: a tile of that digit
/// (chosen with `rng`), its ink (darker than the tile's paper) laid over
/// the cell in a pencil grey.
fn write_by_hand(
    page: &mut RgbImage,
    grid: [f32; 4],
    layout: &Layout,
    entries: &[u8],
    tiles: &[(u8, GrayImage)],
    rng: &mut Rng,
) {
    /// The tiles' share of the cell: the crop they were cut from.
    const INSET: f32 = 0.06;
    const PENCIL: Colour = [70, 70, 82];
    let cw = (grid[2] - grid[0]) / layout.width() as f32;
    let ch = (grid[3] - grid[1]) / layout.height() as f32;
    for (cell, &d) in entries.iter().enumerate().filter(|(_, d)| **d != 0) {
        let choices: Vec<&GrayImage> = tiles.iter().filter(|t| t.0 == d).map(|t| &t.1).collect();
        let tile = choices[rng.below(choices.len() as u32) as usize];
        let mut sorted: Vec<u8> = tile.as_raw().clone();
        sorted.sort_unstable();
        let paper = sorted[sorted.len() * 9 / 10] as f32;
        let ink = sorted[sorted.len() / 100] as f32;
        let (r, k) = layout.position(cell);
        let x0 = grid[0] + (k as f32 + INSET) * cw;
        let y0 = grid[1] + (r as f32 + INSET) * ch;
        let (w, h) = ((1.0 - 2.0 * INSET) * cw, (1.0 - 2.0 * INSET) * ch);
        for y in y0.floor() as i64..(y0 + h).ceil() as i64 {
            for x in x0.floor() as i64..(x0 + w).ceil() as i64 {
                let tx = ((x as f32 + 0.5 - x0) / w * 40.0).clamp(0.0, 39.0) as u32;
                let ty = ((y as f32 + 0.5 - y0) / h * 40.0).clamp(0.0, 39.0) as u32;
                let t = tile.get_pixel(tx, ty).0[0] as f32;
                let a = ((paper - t) / (paper - ink).max(1.0)).clamp(0.0, 1.0);
                // The tile's paper grain is left out.
                if a > 0.25 {
                    blend(page, x, y, PENCIL, a);
                }
            }
        }
    }
}

fn main() {
    let root = repo_root();
    let dir = root.join("samples/images");
    std::fs::create_dir_all(&dir).expect("samples folder");
    for f in FONTS {
        assert!(
            !TRAIN_FONTS.contains(f),
            "{f} is one of the digit model's fonts: pick a held-out one"
        );
    }
    let fonts = Fonts(
        FONTS
            .iter()
            .map(|f| {
                let bytes = std::fs::read(root.join("assets/fonts").join(f)).expect("font file");
                FontVec::try_from_vec(bytes).expect("a valid font")
            })
            .collect(),
    );
    let (sans, serif) = (0, 1);
    let classic = load_puzzle(root, "classic.txt");
    let samurai = load_puzzle(root, "samurai.txt");
    let jigsaw = load_puzzle(root, "jigsaw.txt");
    let shape = |name: &str| load_puzzle(root, name);
    // Pastel region fills, as puzzle sites print jigsaws.
    let pastels = [
        [255, 255, 255],
        [253, 236, 200],
        [214, 234, 248],
        [222, 244, 214],
    ];
    let gen_a = generated_classic(101, 27);
    let tiles = hand_tiles(root);
    let gen_b = generated_classic(102, 30);

    let light = Style {
        paper: [255, 255, 255],
        line: [52, 72, 97],
        digit: [52, 72, 97],
        thick: 0.05,
        ..Style::print(sans)
    };
    let dark = Style {
        paper: [28, 28, 30],
        line: [120, 120, 128],
        digit: [235, 235, 240],
        highlight: Some(([44, 48, 62], [58, 80, 120])),
        ..light.clone()
    };
    let shaded = Style {
        shade: Some([232, 236, 242]),
        highlight: Some(([220, 230, 250], [187, 222, 251])),
        pencil: Some([110, 110, 110]),
        digit: [30, 60, 170],
        ..light.clone()
    };
    let app = Extras {
        header: true,
        number_pad: Some(([234, 238, 244], [52, 72, 97])),
        ..Extras::default()
    };
    let dark_app = Extras {
        header: true,
        number_pad: Some(([50, 50, 56], [200, 200, 210])),
        ..Extras::default()
    };
    let print = Style::print(serif);
    let news = Extras {
        text: true,
        second_grid: Some(gen_b.clone()),
        ..Extras::default()
    };
    let phone = |size, f: &dyn Fn(&mut Camera)| {
        let mut c = Camera::new(size);
        f(&mut c);
        Some(c)
    };
    // A book's page photographed (a little turned and in perspective, lit
    // from one side, blurred, noisy): the multi-grid shapes' photo samples.
    let book_page = |size, angle: f32, fill: f32, tint: [f32; 3]| {
        phone(size, &|c| {
            c.angle = angle;
            c.perspective = 0.04;
            c.fill = fill;
            c.gradient = 0.3;
            c.tint = tint;
            c.blur = 0.7;
            c.noise = 3.0;
            c.quality = 82;
        })
    };
    let samples = vec![
        Sample {
            name: "classic-screen-light",
            puzzle: classic.clone(),
            style: light.clone(),
            extras: Extras::default(),
            cell: 64.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "classic-screen-dark",
            puzzle: gen_a.clone(),
            style: dark.clone(),
            extras: dark_app.clone(),
            cell: 72.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "classic-screen-pencil",
            puzzle: classic.clone(),
            style: shaded.clone(),
            extras: app.clone(),
            cell: 80.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "samurai-screen-light",
            puzzle: samurai.clone(),
            style: light.clone(),
            extras: Extras::default(),
            cell: 44.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "samurai-screen-dark",
            puzzle: samurai.clone(),
            style: Style {
                shade: Some([38, 38, 42]),
                ..dark.clone()
            },
            extras: Extras::default(),
            cell: 44.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "classic-photo-page",
            puzzle: classic.clone(),
            style: print.clone(),
            extras: news.clone(),
            cell: 48.0,
            camera: phone((1024, 768), &|c| {
                c.angle = -4.0;
                c.perspective = 0.05;
                c.fill = 0.7;
                c.gradient = 0.3;
                c.tint = [1.0, 0.96, 0.88];
                c.blur = 0.8;
                c.noise = 4.0;
                c.quality = 80;
            }),
            exif: None,
            hand: None,
        },
        Sample {
            name: "classic-photo-turn90",
            puzzle: gen_a.clone(),
            style: print.clone(),
            extras: Extras {
                text: true,
                ..Extras::default()
            },
            cell: 48.0,
            camera: phone((768, 1024), &|c| {
                c.turns = 1;
                c.angle = 3.0;
                c.perspective = 0.04;
                c.shadow = 0.35;
                c.blur = 1.0;
                c.noise = 3.0;
                c.quality = 75;
            }),
            exif: None,
            hand: None,
        },
        Sample {
            name: "classic-photo-turn180",
            puzzle: classic.clone(),
            style: Style::print(sans),
            extras: Extras::default(),
            cell: 48.0,
            camera: phone((1000, 750), &|c| {
                c.turns = 2;
                c.angle = -2.0;
                c.perspective = 0.06;
                c.curve = 0.012;
                c.gradient = 0.4;
                c.blur = 0.7;
                c.noise = 5.0;
                c.quality = 70;
            }),
            exif: None,
            hand: None,
        },
        Sample {
            name: "classic-photo-turn270-colour",
            puzzle: gen_b.clone(),
            style: Style {
                digit: [25, 50, 150],
                line: [25, 50, 150],
                ..Style::print(serif)
            },
            extras: Extras::default(),
            cell: 48.0,
            camera: phone((900, 1200), &|c| {
                c.turns = 3;
                c.angle = 6.0;
                c.perspective = 0.03;
                c.gradient = 0.25;
                c.tint = [0.92, 0.97, 1.0];
                c.blur = 0.9;
                c.noise = 4.0;
                c.quality = 80;
            }),
            exif: None,
            hand: None,
        },
        Sample {
            name: "classic-photo-exif",
            puzzle: classic.clone(),
            style: print.clone(),
            extras: Extras::default(),
            cell: 48.0,
            camera: phone((960, 720), &|c| {
                c.angle = 2.0;
                c.perspective = 0.04;
                c.gradient = 0.2;
                c.blur = 0.8;
                c.noise = 3.0;
                c.quality = 85;
            }),
            // Stored upright but tagged "rotate 90 clockwise to view": a
            // viewer (and the loader) shows the puzzle on its side.
            exif: Some(6),
            hand: None,
        },
        Sample {
            name: "classic-photo-small",
            puzzle: gen_b.clone(),
            style: Style::print(sans),
            extras: Extras {
                text: true,
                ..Extras::default()
            },
            cell: 40.0,
            camera: phone((640, 480), &|c| {
                c.angle = -7.0;
                c.perspective = 0.06;
                c.fill = 0.75;
                c.gradient = 0.35;
                c.shadow = 0.25;
                c.tint = [1.0, 0.93, 0.82];
                c.blur = 1.0;
                c.noise = 5.0;
                c.quality = 70;
            }),
            exif: None,
            hand: None,
        },
        Sample {
            name: "samurai-photo-page",
            puzzle: samurai.clone(),
            style: print.clone(),
            extras: Extras {
                text: true,
                ..Extras::default()
            },
            cell: 48.0,
            camera: phone((1200, 1000), &|c| {
                c.angle = 3.0;
                c.perspective = 0.04;
                c.fill = 0.85;
                c.gradient = 0.3;
                c.tint = [1.0, 0.95, 0.86];
                c.blur = 0.7;
                c.noise = 3.0;
                c.quality = 82;
            }),
            exif: None,
            hand: None,
        },
        Sample {
            name: "samurai-photo-turn90-shadow",
            puzzle: samurai.clone(),
            style: Style::print(sans),
            extras: Extras::default(),
            cell: 48.0,
            camera: phone((1000, 1200), &|c| {
                c.turns = 1;
                c.angle = -3.0;
                c.perspective = 0.03;
                c.fill = 0.85;
                c.shadow = 0.3;
                c.blur = 0.6;
                c.noise = 3.0;
                c.quality = 80;
            }),
            exif: None,
            hand: None,
        },
        Sample {
            name: "samurai-photo-turn180-curved",
            puzzle: samurai.clone(),
            style: print.clone(),
            extras: Extras::default(),
            cell: 48.0,
            camera: phone((1200, 1000), &|c| {
                c.turns = 2;
                c.angle = 1.5;
                c.perspective = 0.03;
                c.fill = 0.85;
                c.curve = 0.006;
                c.gradient = 0.35;
                c.blur = 0.6;
                c.noise = 4.0;
                c.quality = 78;
            }),
            exif: None,
            hand: None,
        },
        Sample {
            name: "samurai-photo-turn270-colour",
            puzzle: samurai.clone(),
            style: Style {
                digit: [150, 30, 40],
                ..Style::print(serif)
            },
            extras: Extras::default(),
            cell: 48.0,
            camera: phone((1100, 1100), &|c| {
                c.turns = 3;
                c.angle = 4.0;
                c.perspective = 0.04;
                c.fill = 0.85;
                c.gradient = 0.3;
                c.tint = [0.95, 0.97, 1.0];
                c.blur = 0.8;
                c.noise = 3.0;
                c.quality = 80;
            }),
            exif: None,
            hand: None,
        },
        Sample {
            name: "jigsaw-screen-light",
            puzzle: jigsaw.clone(),
            style: Style {
                region_fills: Some(pastels),
                thick: 0.07,
                ..light.clone()
            },
            extras: Extras::default(),
            cell: 64.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "jigsaw-photo-page",
            puzzle: jigsaw.clone(),
            style: Style {
                region_fills: Some(pastels),
                ..Style::print(sans)
            },
            extras: Extras {
                text: true,
                ..Extras::default()
            },
            cell: 48.0,
            camera: phone((1024, 768), &|c| {
                c.angle = 3.0;
                c.perspective = 0.05;
                c.fill = 0.75;
                c.gradient = 0.3;
                c.tint = [1.0, 0.96, 0.9];
                c.blur = 0.8;
                c.noise = 3.0;
                c.quality = 80;
            }),
            exif: None,
            hand: None,
        },
        // The other shapes, found without being named: each a screenshot
        // or a photo of a printed page.
        Sample {
            name: "6x6-screen-light",
            puzzle: shape("6by6.txt"),
            style: light.clone(),
            extras: app.clone(),
            cell: 96.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "6x6-photo-page",
            puzzle: shape("6by6.txt"),
            style: print.clone(),
            extras: Extras {
                text: true,
                ..Extras::default()
            },
            cell: 64.0,
            camera: phone((1000, 800), &|c| {
                c.angle = -3.0;
                c.perspective = 0.05;
                c.fill = 0.75;
                c.gradient = 0.3;
                c.tint = [1.0, 0.96, 0.88];
                c.blur = 0.8;
                c.noise = 4.0;
                c.quality = 80;
            }),
            exif: None,
            hand: None,
        },
        Sample {
            name: "4x4-screen-dark",
            puzzle: shape("4by4.txt"),
            style: dark.clone(),
            extras: dark_app.clone(),
            cell: 120.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "twodoku-photo-page",
            puzzle: shape("twodoku.txt"),
            style: print.clone(),
            extras: Extras::default(),
            cell: 44.0,
            camera: book_page((1100, 1100), 2.5, 0.85, [1.0, 1.0, 1.0]),
            exif: None,
            hand: None,
        },
        Sample {
            name: "butterfly-screen-light",
            puzzle: shape("butterfly.txt"),
            // Box borders 4 px beside 2 px lines, which is all that tells
            // it from a 12x12 (at 0.05 of a cell both round to 2 px here).
            style: Style {
                thick: 0.08,
                ..light.clone()
            },
            extras: Extras::default(),
            cell: 52.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "flower-screen-light",
            puzzle: shape("flower.txt"),
            style: shaded.clone(),
            extras: Extras::default(),
            cell: 48.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "sohei-screen-light",
            puzzle: shape("sohei.txt"),
            style: light.clone(),
            extras: Extras::default(),
            cell: 40.0,
            camera: None,
            exif: None,
            hand: None,
        },
        // Added last: each sample's seed is its place in this list.
        Sample {
            name: "classic-photo-entries",
            puzzle: classic.clone(),
            style: print.clone(),
            extras: news.clone(),
            cell: 48.0,
            camera: phone((1024, 768), &|c| {
                c.angle = -4.0;
                c.perspective = 0.05;
                c.fill = 0.7;
                c.gradient = 0.3;
                c.tint = [1.0, 0.96, 0.88];
                c.blur = 0.8;
                c.noise = 4.0;
                c.quality = 80;
            }),
            exif: None,
            hand: Some(hand_entries(&classic, &tiles, 9, 16)),
        },
        // A solving app's screenshots with the player's digits in another
        // ink than the givens', one of them wrong.
        Sample {
            name: "classic-screen-entries-light",
            puzzle: classic.clone(),
            style: Style {
                digit: [20, 20, 20],
                line: [40, 40, 48],
                highlight: Some(([226, 235, 248], [190, 215, 245])),
                pencil: Some([120, 120, 126]),
                entries: Some((player_entries(&classic, 7, 14), [40, 96, 210])),
                ..light.clone()
            },
            extras: app.clone(),
            cell: 72.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "classic-screen-entries-dark",
            puzzle: gen_a.clone(),
            style: Style {
                entries: Some((player_entries(&gen_a, 8, 18), [96, 170, 250])),
                ..dark.clone()
            },
            extras: dark_app.clone(),
            cell: 64.0,
            camera: None,
            exif: None,
            hand: None,
        },
        // A grid of more than nine symbols: letters after the digits, and
        // in hexadecimal (0-F).
        Sample {
            name: "16x16-screen-light",
            puzzle: shape("16by16.txt"),
            // In the sans; the serif's pages (wide capitals A, D and G)
            // are the last samples, so that these keep their seeds.
            style: Style {
                pencil: None,
                ..shaded.clone()
            },
            extras: Extras::default(),
            cell: 48.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "16x16-screen-hex-dark",
            puzzle: shape("16by16.txt").with_alphabet(Alphabet::Hex),
            style: dark.clone(),
            extras: dark_app.clone(),
            cell: 48.0,
            camera: None,
            exif: None,
            hand: None,
        },
        // A 12x12: the same cells as a butterfly, told from it only by its
        // box borders (3 rows by 4 columns, not 3 by 3), drawn 4 px wide
        // beside 2 px lines as on the butterfly's page.
        Sample {
            name: "12x12-screen-light",
            puzzle: shape("12by12.txt"),
            style: Style {
                thick: 0.08,
                ..light.clone()
            },
            extras: app.clone(),
            cell: 52.0,
            camera: None,
            exif: None,
            hand: None,
        },
        // A solving app that shows the player's mistakes in red: three inks,
        // the red digit an entry like the blue ones.
        Sample {
            name: "classic-screen-entries-mistake",
            puzzle: gen_a.clone(),
            style: Style {
                digit: [20, 20, 20],
                entries: Some((player_entries(&gen_a, 11, 16), [40, 96, 210])),
                mistakes: Some([214, 38, 38]),
                ..light.clone()
            },
            extras: app.clone(),
            cell: 64.0,
            camera: None,
            exif: None,
            hand: None,
        },
        // A jigsaw app that tells its regions by colour alone: every line
        // between cells alike, the outline too.
        Sample {
            name: "jigsaw-screen-colour",
            puzzle: jigsaw.clone(),
            style: Style {
                region_fills: Some(pastels),
                thick: light.thin,
                ..light.clone()
            },
            extras: app.clone(),
            cell: 60.0,
            camera: None,
            exif: None,
            hand: None,
        },
        // The shapes so far only drawn as screenshots, printed and
        // photographed as the other photo samples are.
        Sample {
            name: "butterfly-photo-page",
            puzzle: shape("butterfly.txt"),
            style: print.clone(),
            extras: Extras::default(),
            cell: 48.0,
            camera: book_page((1100, 1100), -2.0, 0.85, [1.0, 1.0, 1.0]),
            exif: None,
            hand: None,
        },
        Sample {
            name: "flower-photo-page",
            puzzle: shape("flower.txt"),
            style: print.clone(),
            extras: Extras::default(),
            cell: 44.0,
            camera: book_page((1200, 1200), 2.0, 0.85, [1.0, 0.96, 0.9]),
            exif: None,
            hand: None,
        },
        Sample {
            name: "sohei-photo-page",
            puzzle: shape("sohei.txt"),
            style: print.clone(),
            extras: Extras::default(),
            cell: 40.0,
            camera: book_page((1400, 1400), -1.5, 0.8, [1.0, 1.0, 1.0]),
            exif: None,
            hand: None,
        },
        Sample {
            name: "16x16-photo-page",
            puzzle: shape("16by16.txt"),
            // In the sans, as the 16x16 screenshot: see there.
            style: Style::print(sans),
            extras: Extras::default(),
            cell: 48.0,
            camera: book_page((1200, 1200), 2.5, 0.85, [1.0, 1.0, 1.0]),
            exif: None,
            hand: None,
        },
        // 8x8, boxes of 2 rows by 4 columns: an app's screenshot and a
        // printed page; and the square sizes and the twodoku that had one
        // kind of image only.
        Sample {
            name: "8x8-screen-light",
            puzzle: shape("8by8.txt"),
            style: light.clone(),
            extras: app.clone(),
            cell: 80.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "8x8-photo-page",
            puzzle: shape("8by8.txt"),
            style: print.clone(),
            extras: Extras {
                text: true,
                ..Extras::default()
            },
            cell: 60.0,
            camera: book_page((1000, 900), -2.0, 0.75, [1.0, 0.97, 0.92]),
            exif: None,
            hand: None,
        },
        Sample {
            name: "4x4-photo-page",
            puzzle: shape("4by4.txt"),
            style: print.clone(),
            extras: Extras::default(),
            cell: 90.0,
            camera: book_page((900, 900), 2.0, 0.7, [1.0, 1.0, 1.0]),
            exif: None,
            hand: None,
        },
        Sample {
            name: "12x12-photo-page",
            puzzle: shape("12by12.txt"),
            // In the sans, as the 16x16 photo, and with the box borders as
            // heavy as the 12x12 screenshot's: all that tells it from a
            // butterfly.
            style: Style {
                thick: 0.08,
                ..Style::print(sans)
            },
            extras: Extras::default(),
            cell: 52.0,
            camera: book_page((1100, 1100), -2.5, 0.85, [1.0, 1.0, 1.0]),
            exif: None,
            hand: None,
        },
        Sample {
            name: "twodoku-screen-light",
            puzzle: shape("twodoku.txt"),
            style: light.clone(),
            extras: Extras::default(),
            cell: 44.0,
            camera: None,
            exif: None,
            hand: None,
        },
        // 25x25: 1-9 and A-P, in the sans as the other lettered grids; a
        // screenshot, and a page filling a 12 MP-like photo's width.
        Sample {
            name: "25x25-screen-light",
            puzzle: shape("25by25.txt"),
            style: light.clone(),
            extras: app.clone(),
            cell: 36.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "25x25-photo-page",
            puzzle: shape("25by25.txt"),
            style: Style::print(sans),
            extras: Extras::default(),
            cell: 40.0,
            camera: book_page((1600, 1600), 1.5, 0.85, [1.0, 1.0, 1.0]),
            exif: None,
            hand: None,
        },
        // A butterfly and a 12x12 drawn with every line alike: the same
        // cells, and no heavier box borders to tell them apart.
        Sample {
            name: "butterfly-screen-even-lines",
            puzzle: shape("butterfly.txt"),
            style: Style {
                thick: light.thin,
                ..light.clone()
            },
            extras: Extras::default(),
            cell: 52.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "12x12-screen-even-lines",
            puzzle: shape("12by12.txt"),
            style: Style {
                thick: light.thin,
                ..light.clone()
            },
            extras: Extras::default(),
            cell: 52.0,
            camera: None,
            exif: None,
            hand: None,
        },
        // 16x16 and 25x25 in the serif, whose capitals A, D and G are
        // wider than tall and whose 1, I and L differ by their serifs: app
        // screenshots, and a photographed book page of the 16x16.
        Sample {
            name: "16x16-screen-serif",
            puzzle: shape("16by16.txt"),
            style: Style {
                font: serif,
                ..light.clone()
            },
            extras: Extras::default(),
            cell: 48.0,
            camera: None,
            exif: None,
            hand: None,
        },
        Sample {
            name: "16x16-photo-serif",
            puzzle: shape("16by16.txt"),
            style: Style::print(serif),
            extras: Extras::default(),
            cell: 48.0,
            camera: book_page((1200, 1200), 2.5, 0.85, [1.0, 1.0, 1.0]),
            exif: None,
            hand: None,
        },
        Sample {
            name: "25x25-screen-serif",
            puzzle: shape("25by25.txt"),
            style: Style {
                font: serif,
                ..light.clone()
            },
            extras: Extras::default(),
            cell: 36.0,
            camera: None,
            exif: None,
            hand: None,
        },
        // A flower in an app's dark theme, the selected cell's row, column
        // and box highlighted right across the canvas.
        Sample {
            name: "flower-screen-dark",
            puzzle: shape("flower.txt"),
            style: dark.clone(),
            extras: Extras::default(),
            cell: 48.0,
            camera: None,
            exif: None,
            hand: None,
        },
    ];
    for (i, s) in samples.iter().enumerate() {
        let mut rng = Rng::new(0x5a3d_1e00 + i as u64);
        let mut img = page(&fonts, &s.puzzle, s.cell, &s.style, &s.extras, &mut rng);
        let l = s.puzzle.layout();
        let margin = (s.cell * 0.8).round();
        let left = margin + if s.extras.text { s.cell * 4.0 } else { 0.0 };
        let top = margin + if s.extras.header { s.cell * 1.2 } else { 0.0 };
        let grid = [
            left,
            top,
            left + l.width() as f32 * s.cell,
            top + l.height() as f32 * s.cell,
        ];
        if let Some(hand) = &s.hand {
            write_by_hand(&mut img, grid, l, hand, &tiles, &mut rng);
        }
        let file = match &s.camera {
            None => {
                let f = format!("{}.png", s.name);
                img.save(dir.join(&f)).expect("PNG written");
                f
            }
            Some(cam) => {
                let photo = photograph(&img, grid, cam, &mut rng);
                let exif = s.exif.map(exif_orientation);
                let f = format!("{}.jpg", s.name);
                save_jpeg(&photo, &dir.join(&f), cam.quality, exif);
                f
            }
        };
        std::fs::write(
            dir.join(format!("{}.txt", s.name)),
            expected_text(&s.puzzle, &s.style, s.hand.as_deref()),
        )
        .expect("expected reading written");
        let bytes = std::fs::metadata(dir.join(&file)).map_or(0, |m| m.len());
        println!("{file}: {} KB", bytes / 1024);
    }
    sudoku_lens_tools::samples::pdf::write(&dir, &generated_classic(103, 28));
    sudoku_lens_tools::samples::dark_page::write(&dir, &generated_classic(104, 29));
    sudoku_lens_tools::samples::killer::write(&dir, &load_puzzle(root, "killer.txt"));
}
