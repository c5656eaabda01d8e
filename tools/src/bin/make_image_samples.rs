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

use ab_glyph::FontVec;
use image::{GrayImage, Rgb, RgbImage};
use sudoku_lens::grid::{Alphabet, Document, Entries, HouseKind, Layout, Progress, Puzzle, parse};
use sudoku_lens::rng::Rng;
use sudoku_lens::solve::SudokuSolver;
use sudoku_lens::solve::generate::{full_grid, thin};
use sudoku_lens_tools::build::{HAND_ATLASES, TRAIN_FONTS, read_hand_atlas};
use sudoku_lens_tools::repo_root;
use sudoku_lens_tools::samples::draw::{Colour, blend, fill, glyph_centred, text};
use sudoku_lens_tools::samples::photo::{Camera, photograph, save_jpeg};

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

    /// The player's digit in cell `c`, 0 for none.
    fn entry(&self, c: usize) -> u8 {
        self.entries.as_ref().map_or(0, |(e, _)| e[c])
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

/// Draws `puzzle` with its top-left corner at `origin`, `cell` pixels per
/// cell: the cells' fills, then the lines between them, then the digits.
fn draw_grid(
    img: &mut RgbImage,
    fonts: &Fonts,
    puzzle: &Puzzle,
    origin: (f32, f32),
    cell: f32,
    style: &Style,
    rng: &mut Rng,
) {
    let selected = style.highlight.and_then(|_| selected_cell(puzzle, style));
    paint_cells(img, puzzle.layout(), origin, cell, style, selected);
    draw_lines(img, puzzle.layout(), origin, cell, style);
    let font = &fonts.0[style.font];
    draw_digits(img, font, puzzle, origin, cell, style, rng);
}

/// The top-left corner of cell `c` of a grid drawn from `(ox, oy)`.
fn cell_corner(l: &Layout, c: usize, (ox, oy): (f32, f32), cell: f32) -> (f32, f32) {
    let (r, k) = l.position(c);
    (ox + k as f32 * cell, oy + r as f32 * cell)
}

/// The selected cell of an app's screenshot: an empty one near the middle
/// of the canvas.
fn selected_cell(puzzle: &Puzzle, style: &Style) -> Option<usize> {
    let l = puzzle.layout();
    let values = puzzle.values();
    let mid = (l.height() / 2, l.width() / 2);
    (0..l.cell_count())
        .filter(|&c| values[c] == 0 && style.entry(c) == 0)
        .min_by_key(|&c| {
            let (r, k) = l.position(c);
            r.abs_diff(mid.0 + 1) + k.abs_diff(mid.1 + 2)
        })
}

/// Fills each cell with its background: paper, a shaded box, a jigsaw
/// region's colour, or the selection's highlight.
fn paint_cells(
    img: &mut RgbImage,
    l: &Layout,
    origin: (f32, f32),
    cell: f32,
    style: &Style,
    selected: Option<usize>,
) {
    let regions = l.regions();
    let colours = l.region_colours();
    for c in 0..l.cell_count() {
        let (r, k) = l.position(c);
        let (x, y) = cell_corner(l, c, origin, cell);
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
}

/// Draws the four sides of every cell, thick or thin.
fn draw_lines(img: &mut RgbImage, l: &Layout, origin: (f32, f32), cell: f32, style: &Style) {
    for c in 0..l.cell_count() {
        let (x, y) = cell_corner(l, c, origin, cell);
        for (thick, vertical, at) in [
            (is_border(l, c, 0, -1), true, x),
            (is_border(l, c, 0, 1), true, x + cell),
            (is_border(l, c, -1, 0), false, y),
            (is_border(l, c, 1, 0), false, y + cell),
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
}

/// Whether the side of cell `c` towards (`dr`, `dk`) is thick: on the
/// shape's outline, between boxes, or between a jigsaw's regions.
fn is_border(l: &Layout, c: usize, dr: isize, dk: isize) -> bool {
    let regions = l.regions();
    let (r, k) = l.position(c);
    match neighbour(l, r, k, dr, dk) {
        None => true,
        Some(o) if regions.is_empty() => !l.same_box(c, o),
        Some(o) => regions[o] != regions[c],
    }
}

/// Draws the givens and the player's digits, each in its ink, and
/// candidate marks in some empty cells.
fn draw_digits(
    img: &mut RgbImage,
    font: &FontVec,
    puzzle: &Puzzle,
    origin: (f32, f32),
    cell: f32,
    style: &Style,
    rng: &mut Rng,
) {
    let l = puzzle.layout();
    let solution = style.mistakes.map(|_| solution(puzzle));
    for (c, &v) in puzzle.values().iter().enumerate() {
        let (x, y) = cell_corner(l, c, origin, cell);
        let (v, ink) = digit_and_ink(style, solution.as_deref(), c, v);
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
            draw_candidates(img, font, (x, y), cell, pc, rng);
        }
    }
}

/// The solution of a sample puzzle.
fn solution(puzzle: &Puzzle) -> Vec<u8> {
    let mut solution = vec![0u8; puzzle.values().len()];
    SudokuSolver::new(puzzle.layout().clone())
        .solve_into(puzzle.values(), 2, &mut solution)
        .expect("a sample puzzle solves");
    solution
}

/// The digit shown in cell `c` (given `v`, or the player's) and its ink: a
/// player's mistake in its own colour when the style shows them.
fn digit_and_ink(style: &Style, solution: Option<&[u8]>, c: usize, v: u8) -> (u8, Colour) {
    match (&style.entries, style.mistakes, solution) {
        (Some((e, _)), Some(red), Some(s)) if v == 0 && e[c] != 0 && e[c] != s[c] => (e[c], red),
        (Some((e, ink)), _, _) if v == 0 && e[c] != 0 => (e[c], *ink),
        _ => (v, style.digit),
    }
}

/// Two to four candidates in their places of a 3x3 mini-grid in the cell
/// at `(x, y)`.
fn draw_candidates(
    img: &mut RgbImage,
    font: &FontVec,
    (x, y): (f32, f32),
    cell: f32,
    ink: Colour,
    rng: &mut Rng,
) {
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
            ink,
        );
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

/// Where things lie on a page, in pixels.
struct Frame {
    cell: f32,
    /// The blank border around everything.
    margin: f32,
    /// The grid's top-left corner.
    left: f32,
    top: f32,
    /// The grid's width and height.
    gw: f32,
    gh: f32,
}

impl Frame {
    /// The frame of a page showing a grid of `l` at `cell` pixels a cell
    /// with `extras` around it: the print to its left, the header above it.
    fn new(l: &Layout, cell: f32, extras: &Extras) -> Frame {
        let margin = (cell * 0.8).round();
        Frame {
            cell,
            margin,
            left: margin + if extras.text { cell * 4.0 } else { 0.0 },
            top: margin + if extras.header { cell * 1.2 } else { 0.0 },
            gw: l.width() as f32 * cell,
            gh: l.height() as f32 * cell,
        }
    }

    /// The grid's outer corners: left, top, right, bottom.
    fn grid(&self) -> [f32; 4] {
        [self.left, self.top, self.left + self.gw, self.top + self.gh]
    }

    /// The page's width and height: room for the second grid to the
    /// right, and the number pad or print below.
    fn page_size(&self, extras: &Extras) -> (u32, u32) {
        let cell = self.cell;
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
        let w = (self.left + self.gw + right_extra + self.margin).round() as u32;
        let h = (self.top + self.gh + bottom_extra + self.margin).round() as u32;
        (w, h)
    }
}

/// A page (or screen) with the puzzle and its surroundings.
fn page(
    fonts: &Fonts,
    puzzle: &Puzzle,
    cell: f32,
    style: &Style,
    extras: &Extras,
    rng: &mut Rng,
) -> RgbImage {
    let frame = Frame::new(puzzle.layout(), cell, extras);
    let (w, h) = frame.page_size(extras);
    let mut img = RgbImage::from_pixel(w, h, Rgb(style.paper));
    let font = &fonts.0[style.font];
    if extras.header {
        draw_header(&mut img, font, &frame, halfway(style.line, style.paper));
    }
    if extras.text {
        draw_print(&mut img, font, &frame, style.line, rng);
    }
    let origin = (frame.left, frame.top);
    draw_grid(&mut img, fonts, puzzle, origin, cell, style, rng);
    if let Some(second) = &extras.second_grid {
        draw_second_grid(&mut img, fonts, second, &frame, style, rng);
    }
    if let Some(colours) = extras.number_pad {
        draw_number_pad(&mut img, font, &frame, colours);
    }
    img
}

/// The colour halfway between `a` and `b`.
fn halfway(a: Colour, b: Colour) -> Colour {
    [
        ((a[0] as u16 + b[0] as u16) / 2) as u8,
        ((a[1] as u16 + b[1] as u16) / 2) as u8,
        ((a[2] as u16 + b[2] as u16) / 2) as u8,
    ]
}

/// An app's status line above the grid: level, mistakes and clock.
fn draw_header(img: &mut RgbImage, font: &FontVec, frame: &Frame, ink: Colour) {
    let Frame {
        cell,
        left,
        top,
        gw,
        ..
    } = *frame;
    let (base, px) = (top - cell * 0.45, cell * 0.4);
    text(img, font, "Medium", left, base, px, ink);
    text(img, font, "Mistakes 0/3", left + gw * 0.38, base, px, ink);
    text(img, font, "04:12", left + gw * 0.82, base, px, ink);
}

/// A printed page's text: short lines down the left of the grid, two long
/// ones below it.
fn draw_print(img: &mut RgbImage, font: &FontVec, frame: &Frame, ink: Colour, rng: &mut Rng) {
    let Frame {
        cell,
        margin,
        left,
        top,
        gh,
        ..
    } = *frame;
    let px = cell * 0.3;
    let mut y = top + px;
    while y < top + gh + cell * 2.0 {
        let s = sentence(rng, 3);
        text(img, font, &s, margin * 0.5, y, px, ink);
        y += px * 1.5;
    }
    let mut y = top + gh + cell * 0.9;
    for _ in 0..2 {
        let s = sentence(rng, 9);
        text(img, font, &s, left, y, px, ink);
        y += px * 1.5;
    }
}

/// A smaller second puzzle to the right of the grid, with its number below
/// it, drawn plainly whatever the main grid shows.
fn draw_second_grid(
    img: &mut RgbImage,
    fonts: &Fonts,
    second: &Puzzle,
    frame: &Frame,
    style: &Style,
    rng: &mut Rng,
) {
    let Frame {
        cell,
        left,
        top,
        gw,
        ..
    } = *frame;
    let small = cell * 0.42;
    let ox = left + gw + cell * 0.6;
    let plain = Style {
        highlight: None,
        pencil: None,
        entries: None,
        mistakes: None,
        ..style.clone()
    };
    draw_grid(img, fonts, second, (ox, top), small, &plain, rng);
    let font = &fonts.0[style.font];
    let base = top + small * 9.0 + cell * 0.6;
    text(img, font, "No. 2", ox, base, cell * 0.35, style.line);
}

/// An app's row of digit buttons below the grid.
fn draw_number_pad(
    img: &mut RgbImage,
    font: &FontVec,
    frame: &Frame,
    (button, label): (Colour, Colour),
) {
    let Frame {
        cell,
        left,
        top,
        gw,
        gh,
        ..
    } = *frame;
    let bw = gw / 9.0;
    let y0 = top + gh + cell * 0.5;
    for d in 1..=9u8 {
        let x0 = left + (d - 1) as f32 * bw;
        let (x1, y1) = (x0 + bw * 0.92, y0 + cell * 1.2);
        fill(img, x0 + bw * 0.08, y0, x1, y1, button);
        let (cx, cy) = (x0 + bw / 2.0, y0 + cell * 0.6);
        glyph_centred(img, font, char::from(b'0' + d), cx, cy, cell * 0.55, label);
    }
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

impl Sample {
    /// A screenshot: the page saved as drawn.
    fn screen(
        name: &'static str,
        puzzle: &Puzzle,
        style: Style,
        extras: &Extras,
        cell: f32,
    ) -> Sample {
        Sample {
            name,
            puzzle: puzzle.clone(),
            style,
            extras: extras.clone(),
            cell,
            camera: None,
            exif: None,
            hand: None,
        }
    }

    /// A photo of the page taken with `camera`.
    fn photo(
        name: &'static str,
        puzzle: &Puzzle,
        style: Style,
        extras: &Extras,
        cell: f32,
        camera: Camera,
    ) -> Sample {
        Sample {
            camera: Some(camera),
            ..Sample::screen(name, puzzle, style, extras, cell)
        }
    }
}

/// Index into the fonts: the sans.
const SANS: usize = 0;
/// Index into the fonts: the serif.
const SERIF: usize = 1;

/// The fonts of `FONTS`, checked to be none of the digit model's.
fn load_fonts(root: &Path) -> Fonts {
    for f in FONTS {
        assert!(
            !TRAIN_FONTS.contains(f),
            "{f} is one of the digit model's fonts: pick a held-out one"
        );
    }
    let load = |f: &&str| {
        let bytes = std::fs::read(root.join("assets/fonts").join(f)).expect("font file");
        FontVec::try_from_vec(bytes).expect("a valid font")
    };
    Fonts(FONTS.iter().map(load).collect())
}

/// The puzzles the samples show: read from `samples/puzzles/`, or
/// generated.
struct Puzzles {
    root: &'static Path,
    classic: Puzzle,
    samurai: Puzzle,
    jigsaw: Puzzle,
    gen_a: Puzzle,
    gen_b: Puzzle,
}

impl Puzzles {
    fn new(root: &'static Path) -> Puzzles {
        Puzzles {
            root,
            classic: load_puzzle(root, "classic.txt"),
            samurai: load_puzzle(root, "samurai.txt"),
            jigsaw: load_puzzle(root, "jigsaw.txt"),
            gen_a: generated_classic(101, 27),
            gen_b: generated_classic(102, 30),
        }
    }

    /// The sample puzzle in `samples/puzzles/NAME`.
    fn shape(&self, name: &str) -> Puzzle {
        load_puzzle(self.root, name)
    }
}

/// The looks the samples share: an app's light and dark themes, and a
/// printed page.
struct Looks {
    light: Style,
    dark: Style,
    /// Light, with shaded boxes, a highlighted selection, candidate marks.
    shaded: Style,
    print: Style,
    /// Pastel region fills, as puzzle sites print jigsaws.
    pastels: [Colour; 4],
    app: Extras,
    dark_app: Extras,
    /// A newspaper's page: print around the grid, a second puzzle beside it.
    news: Extras,
}

impl Looks {
    fn new(second_grid: &Puzzle) -> Looks {
        let light = Style {
            paper: [255, 255, 255],
            line: [52, 72, 97],
            digit: [52, 72, 97],
            thick: 0.05,
            ..Style::print(SANS)
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
        Looks {
            light,
            dark,
            shaded,
            print: Style::print(SERIF),
            pastels: [
                [255, 255, 255],
                [253, 236, 200],
                [214, 234, 248],
                [222, 244, 214],
            ],
            app: Extras {
                header: true,
                number_pad: Some(([234, 238, 244], [52, 72, 97])),
                ..Extras::default()
            },
            dark_app: Extras {
                header: true,
                number_pad: Some(([50, 50, 56], [200, 200, 210])),
                ..Extras::default()
            },
            news: Extras {
                text: true,
                second_grid: Some(second_grid.clone()),
                ..Extras::default()
            },
        }
    }
}

/// Surroundings of a printed page: print around the grid.
fn with_text() -> Extras {
    Extras {
        text: true,
        ..Extras::default()
    }
}

/// A book's page photographed (a little turned and in perspective, lit
/// from one side, blurred, noisy): the multi-grid shapes' photo samples.
fn book_page(size: (u32, u32), angle: f32, fill: f32, tint: [f32; 3]) -> Camera {
    Camera {
        angle,
        perspective: 0.04,
        fill,
        gradient: 0.3,
        tint,
        blur: 0.7,
        noise: 3.0,
        quality: 82,
        ..Camera::new(size)
    }
}

/// A newspaper's page photographed a little turned, in warm light.
fn news_camera() -> Camera {
    Camera {
        angle: -4.0,
        perspective: 0.05,
        fill: 0.7,
        gradient: 0.3,
        tint: [1.0, 0.96, 0.88],
        blur: 0.8,
        noise: 4.0,
        quality: 80,
        ..Camera::new((1024, 768))
    }
}

/// Every sample, in the order they were added: each sample's seed is its
/// place in this list, so new ones go last.
fn samples(p: &Puzzles, k: &Looks, tiles: &[(u8, GrayImage)]) -> Vec<Sample> {
    [
        app_screens(p, k),
        classic_photos(p, k),
        more_classic_photos(p, k),
        samurai_photos(p, k),
        jigsaws(p, k),
        other_shapes(p, k),
        player_digits(p, k, tiles),
        many_symbols(p, k),
        mistakes_and_colour_regions(p, k),
        multi_grid_photos(p, k),
        square_sizes(p, k),
        twenty_five(p, k),
        even_lines(p, k),
        serif_letters(p, k),
        // A flower in an app's dark theme, the selected cell's row, column
        // and box highlighted right across the canvas.
        vec![Sample::screen(
            "flower-screen-dark",
            &p.shape("flower.txt"),
            k.dark.clone(),
            &Extras::default(),
            48.0,
        )],
    ]
    .into_iter()
    .flatten()
    .collect()
}
/// Screenshots of solving apps: classic and samurai, light and dark.
fn app_screens(p: &Puzzles, k: &Looks) -> Vec<Sample> {
    let plain = Extras::default();
    vec![
        Sample::screen(
            "classic-screen-light",
            &p.classic,
            k.light.clone(),
            &plain,
            64.0,
        ),
        Sample::screen(
            "classic-screen-dark",
            &p.gen_a,
            k.dark.clone(),
            &k.dark_app,
            72.0,
        ),
        Sample::screen(
            "classic-screen-pencil",
            &p.classic,
            k.shaded.clone(),
            &k.app,
            80.0,
        ),
        Sample::screen(
            "samurai-screen-light",
            &p.samurai,
            k.light.clone(),
            &plain,
            44.0,
        ),
        Sample::screen(
            "samurai-screen-dark",
            &p.samurai,
            Style {
                shade: Some([38, 38, 42]),
                ..k.dark.clone()
            },
            &plain,
            44.0,
        ),
    ]
}

/// A classic printed and photographed: a newspaper's page, and pages
/// turned a quarter, a half and three quarters.
fn classic_photos(p: &Puzzles, k: &Looks) -> Vec<Sample> {
    let turn90 = Camera {
        turns: 1,
        angle: 3.0,
        perspective: 0.04,
        shadow: 0.35,
        blur: 1.0,
        noise: 3.0,
        quality: 75,
        ..Camera::new((768, 1024))
    };
    let turn180 = Camera {
        turns: 2,
        angle: -2.0,
        perspective: 0.06,
        curve: 0.012,
        gradient: 0.4,
        blur: 0.7,
        noise: 5.0,
        quality: 70,
        ..Camera::new((1000, 750))
    };
    let turn270 = Camera {
        turns: 3,
        angle: 6.0,
        perspective: 0.03,
        gradient: 0.25,
        tint: [0.92, 0.97, 1.0],
        blur: 0.9,
        noise: 4.0,
        quality: 80,
        ..Camera::new((900, 1200))
    };
    let blue = Style {
        digit: [25, 50, 150],
        line: [25, 50, 150],
        ..Style::print(SERIF)
    };
    let plain = Extras::default();
    vec![
        Sample::photo(
            "classic-photo-page",
            &p.classic,
            k.print.clone(),
            &k.news,
            48.0,
            news_camera(),
        ),
        Sample::photo(
            "classic-photo-turn90",
            &p.gen_a,
            k.print.clone(),
            &with_text(),
            48.0,
            turn90,
        ),
        Sample::photo(
            "classic-photo-turn180",
            &p.classic,
            Style::print(SANS),
            &plain,
            48.0,
            turn180,
        ),
        Sample::photo(
            "classic-photo-turn270-colour",
            &p.gen_b,
            blue,
            &plain,
            48.0,
            turn270,
        ),
    ]
}

/// A classic photographed upright but tagged as turned, and one small
/// photo of a page in warm light.
fn more_classic_photos(p: &Puzzles, k: &Looks) -> Vec<Sample> {
    let upright = Camera {
        angle: 2.0,
        perspective: 0.04,
        gradient: 0.2,
        blur: 0.8,
        noise: 3.0,
        quality: 85,
        ..Camera::new((960, 720))
    };
    let small = Camera {
        angle: -7.0,
        perspective: 0.06,
        fill: 0.75,
        gradient: 0.35,
        shadow: 0.25,
        tint: [1.0, 0.93, 0.82],
        blur: 1.0,
        noise: 5.0,
        quality: 70,
        ..Camera::new((640, 480))
    };
    let plain = Extras::default();
    vec![
        Sample {
            // Stored upright but tagged "rotate 90 clockwise to view": a
            // viewer (and the loader) shows the puzzle on its side.
            exif: Some(6),
            ..Sample::photo(
                "classic-photo-exif",
                &p.classic,
                k.print.clone(),
                &plain,
                48.0,
                upright,
            )
        },
        Sample::photo(
            "classic-photo-small",
            &p.gen_b,
            Style::print(SANS),
            &with_text(),
            40.0,
            small,
        ),
    ]
}

/// The cameras of the samurai's photos: a page, and pages turned a
/// quarter (in shadow), a half (curved) and three quarters.
fn samurai_cameras() -> [Camera; 4] {
    let page = Camera {
        angle: 3.0,
        perspective: 0.04,
        fill: 0.85,
        gradient: 0.3,
        tint: [1.0, 0.95, 0.86],
        blur: 0.7,
        noise: 3.0,
        quality: 82,
        ..Camera::new((1200, 1000))
    };
    let turn90 = Camera {
        turns: 1,
        angle: -3.0,
        perspective: 0.03,
        fill: 0.85,
        shadow: 0.3,
        blur: 0.6,
        noise: 3.0,
        quality: 80,
        ..Camera::new((1000, 1200))
    };
    let turn180 = Camera {
        turns: 2,
        angle: 1.5,
        perspective: 0.03,
        fill: 0.85,
        curve: 0.006,
        gradient: 0.35,
        blur: 0.6,
        noise: 4.0,
        quality: 78,
        ..Camera::new((1200, 1000))
    };
    let turn270 = Camera {
        turns: 3,
        angle: 4.0,
        perspective: 0.04,
        fill: 0.85,
        gradient: 0.3,
        tint: [0.95, 0.97, 1.0],
        blur: 0.8,
        noise: 3.0,
        quality: 80,
        ..Camera::new((1100, 1100))
    };
    [page, turn90, turn180, turn270]
}

/// A samurai printed and photographed: a page, and pages turned a
/// quarter (in shadow), a half (curved) and three quarters (red digits).
fn samurai_photos(p: &Puzzles, k: &Looks) -> Vec<Sample> {
    let [page, turn90, turn180, turn270] = samurai_cameras();
    let red = Style {
        digit: [150, 30, 40],
        ..Style::print(SERIF)
    };
    let (s, plain) = (&p.samurai, Extras::default());
    vec![
        Sample::photo(
            "samurai-photo-page",
            s,
            k.print.clone(),
            &with_text(),
            48.0,
            page,
        ),
        Sample::photo(
            "samurai-photo-turn90-shadow",
            s,
            Style::print(SANS),
            &plain,
            48.0,
            turn90,
        ),
        Sample::photo(
            "samurai-photo-turn180-curved",
            s,
            k.print.clone(),
            &plain,
            48.0,
            turn180,
        ),
        Sample::photo(
            "samurai-photo-turn270-colour",
            s,
            red,
            &plain,
            48.0,
            turn270,
        ),
    ]
}

/// A jigsaw with pastel regions: an app's screenshot and a printed page
/// photographed.
fn jigsaws(p: &Puzzles, k: &Looks) -> Vec<Sample> {
    let screen = Style {
        region_fills: Some(k.pastels),
        thick: 0.07,
        ..k.light.clone()
    };
    let print = Style {
        region_fills: Some(k.pastels),
        ..Style::print(SANS)
    };
    let camera = Camera {
        angle: 3.0,
        perspective: 0.05,
        fill: 0.75,
        gradient: 0.3,
        tint: [1.0, 0.96, 0.9],
        blur: 0.8,
        noise: 3.0,
        quality: 80,
        ..Camera::new((1024, 768))
    };
    vec![
        Sample::screen(
            "jigsaw-screen-light",
            &p.jigsaw,
            screen,
            &Extras::default(),
            64.0,
        ),
        Sample::photo(
            "jigsaw-photo-page",
            &p.jigsaw,
            print,
            &with_text(),
            48.0,
            camera,
        ),
    ]
}

/// The other shapes, found without being named: each a screenshot or a
/// photo of a printed page.
fn other_shapes(p: &Puzzles, k: &Looks) -> Vec<Sample> {
    let camera = Camera {
        angle: -3.0,
        perspective: 0.05,
        fill: 0.75,
        gradient: 0.3,
        tint: [1.0, 0.96, 0.88],
        blur: 0.8,
        noise: 4.0,
        quality: 80,
        ..Camera::new((1000, 800))
    };
    let twodoku = book_page((1100, 1100), 2.5, 0.85, [1.0, 1.0, 1.0]);
    // Box borders 4 px beside 2 px lines, which is all that tells the
    // butterfly from a 12x12 (at 0.05 of a cell both round to 2 px here).
    let heavy_boxes = Style {
        thick: 0.08,
        ..k.light.clone()
    };
    let plain = Extras::default();
    let (light, print) = (&k.light, &k.print);
    let six = p.shape("6by6.txt");
    vec![
        Sample::screen("6x6-screen-light", &six, light.clone(), &k.app, 96.0),
        Sample::photo(
            "6x6-photo-page",
            &six,
            print.clone(),
            &with_text(),
            64.0,
            camera,
        ),
        Sample::screen(
            "4x4-screen-dark",
            &p.shape("4by4.txt"),
            k.dark.clone(),
            &k.dark_app,
            120.0,
        ),
        Sample::photo(
            "twodoku-photo-page",
            &p.shape("twodoku.txt"),
            print.clone(),
            &plain,
            44.0,
            twodoku,
        ),
        Sample::screen(
            "butterfly-screen-light",
            &p.shape("butterfly.txt"),
            heavy_boxes,
            &plain,
            52.0,
        ),
        Sample::screen(
            "flower-screen-light",
            &p.shape("flower.txt"),
            k.shaded.clone(),
            &plain,
            48.0,
        ),
        Sample::screen(
            "sohei-screen-light",
            &p.shape("sohei.txt"),
            light.clone(),
            &plain,
            40.0,
        ),
    ]
}

/// A player's digits: handwritten on a photographed page, and a solving
/// app's screenshots with them in another ink than the givens', one of
/// them wrong.
fn player_digits(p: &Puzzles, k: &Looks, tiles: &[(u8, GrayImage)]) -> Vec<Sample> {
    let light = Style {
        digit: [20, 20, 20],
        line: [40, 40, 48],
        highlight: Some(([226, 235, 248], [190, 215, 245])),
        pencil: Some([120, 120, 126]),
        entries: Some((player_entries(&p.classic, 7, 14), [40, 96, 210])),
        ..k.light.clone()
    };
    let dark = Style {
        entries: Some((player_entries(&p.gen_a, 8, 18), [96, 170, 250])),
        ..k.dark.clone()
    };
    let print = k.print.clone();
    vec![
        Sample {
            hand: Some(hand_entries(&p.classic, tiles, 9, 16)),
            ..Sample::photo(
                "classic-photo-entries",
                &p.classic,
                print,
                &k.news,
                48.0,
                news_camera(),
            )
        },
        Sample::screen(
            "classic-screen-entries-light",
            &p.classic,
            light,
            &k.app,
            72.0,
        ),
        Sample::screen(
            "classic-screen-entries-dark",
            &p.gen_a,
            dark,
            &k.dark_app,
            64.0,
        ),
    ]
}

/// Grids of more than nine symbols (letters after the digits, and
/// hexadecimal 0-F), and a 12x12: the same cells as a butterfly, told from
/// it only by its box borders (3 rows by 4 columns, not 3 by 3), drawn
/// 4 px wide beside 2 px lines as on the butterfly's page.
fn many_symbols(p: &Puzzles, k: &Looks) -> Vec<Sample> {
    // In the sans; the serif's pages (wide capitals A, D and G) are the
    // last samples, so that these keep their seeds.
    let sans = Style {
        pencil: None,
        ..k.shaded.clone()
    };
    let heavy_boxes = Style {
        thick: 0.08,
        ..k.light.clone()
    };
    let sixteen = p.shape("16by16.txt");
    let hex = sixteen.clone().with_alphabet(Alphabet::Hex);
    vec![
        Sample::screen(
            "16x16-screen-light",
            &sixteen,
            sans,
            &Extras::default(),
            48.0,
        ),
        Sample::screen(
            "16x16-screen-hex-dark",
            &hex,
            k.dark.clone(),
            &k.dark_app,
            48.0,
        ),
        Sample::screen(
            "12x12-screen-light",
            &p.shape("12by12.txt"),
            heavy_boxes,
            &k.app,
            52.0,
        ),
    ]
}

/// A solving app that shows the player's mistakes in red (three inks, the
/// red digit an entry like the blue ones), and a jigsaw app that tells its
/// regions by colour alone (every line between cells alike, the outline
/// too).
fn mistakes_and_colour_regions(p: &Puzzles, k: &Looks) -> Vec<Sample> {
    let mistakes = Style {
        digit: [20, 20, 20],
        entries: Some((player_entries(&p.gen_a, 11, 16), [40, 96, 210])),
        mistakes: Some([214, 38, 38]),
        ..k.light.clone()
    };
    let colour_regions = Style {
        region_fills: Some(k.pastels),
        thick: k.light.thin,
        ..k.light.clone()
    };
    vec![
        Sample::screen(
            "classic-screen-entries-mistake",
            &p.gen_a,
            mistakes,
            &k.app,
            64.0,
        ),
        Sample::screen(
            "jigsaw-screen-colour",
            &p.jigsaw,
            colour_regions,
            &k.app,
            60.0,
        ),
    ]
}

/// The shapes so far only drawn as screenshots, printed and photographed as
/// the other photo samples are.
fn multi_grid_photos(p: &Puzzles, k: &Looks) -> Vec<Sample> {
    let plain = Extras::default();
    let print = &k.print;
    let white = [1.0, 1.0, 1.0];
    vec![
        Sample::photo(
            "butterfly-photo-page",
            &p.shape("butterfly.txt"),
            print.clone(),
            &plain,
            48.0,
            book_page((1100, 1100), -2.0, 0.85, white),
        ),
        Sample::photo(
            "flower-photo-page",
            &p.shape("flower.txt"),
            print.clone(),
            &plain,
            44.0,
            book_page((1200, 1200), 2.0, 0.85, [1.0, 0.96, 0.9]),
        ),
        Sample::photo(
            "sohei-photo-page",
            &p.shape("sohei.txt"),
            print.clone(),
            &plain,
            40.0,
            book_page((1400, 1400), -1.5, 0.8, white),
        ),
        Sample::photo(
            "16x16-photo-page",
            &p.shape("16by16.txt"),
            // In the sans, as the 16x16 screenshot: see there.
            Style::print(SANS),
            &plain,
            48.0,
            book_page((1200, 1200), 2.5, 0.85, white),
        ),
    ]
}

/// 8x8, boxes of 2 rows by 4 columns: an app's screenshot and a printed
/// page; and the square sizes and the twodoku that had one kind of image
/// only.
fn square_sizes(p: &Puzzles, k: &Looks) -> Vec<Sample> {
    let white = [1.0, 1.0, 1.0];
    let eight_page = book_page((1000, 900), -2.0, 0.75, [1.0, 0.97, 0.92]);
    let four_page = book_page((900, 900), 2.0, 0.7, white);
    let twelve_page = book_page((1100, 1100), -2.5, 0.85, white);
    // In the sans, as the 16x16 photo, and with the box borders as heavy
    // as the 12x12 screenshot's: all that tells it from a butterfly.
    let twelve_print = Style {
        thick: 0.08,
        ..Style::print(SANS)
    };
    let (plain, light, print) = (Extras::default(), &k.light, &k.print);
    let eight = p.shape("8by8.txt");
    vec![
        Sample::screen("8x8-screen-light", &eight, light.clone(), &k.app, 80.0),
        Sample::photo(
            "8x8-photo-page",
            &eight,
            print.clone(),
            &with_text(),
            60.0,
            eight_page,
        ),
        Sample::photo(
            "4x4-photo-page",
            &p.shape("4by4.txt"),
            print.clone(),
            &plain,
            90.0,
            four_page,
        ),
        Sample::photo(
            "12x12-photo-page",
            &p.shape("12by12.txt"),
            twelve_print,
            &plain,
            52.0,
            twelve_page,
        ),
        Sample::screen(
            "twodoku-screen-light",
            &p.shape("twodoku.txt"),
            light.clone(),
            &plain,
            44.0,
        ),
    ]
}

/// 25x25: 1-9 and A-P, in the sans as the other lettered grids; a
/// screenshot, and a page filling a 12 MP-like photo's width.
fn twenty_five(p: &Puzzles, k: &Looks) -> Vec<Sample> {
    let puzzle = p.shape("25by25.txt");
    let camera = book_page((1600, 1600), 1.5, 0.85, [1.0, 1.0, 1.0]);
    vec![
        Sample::screen("25x25-screen-light", &puzzle, k.light.clone(), &k.app, 36.0),
        Sample::photo(
            "25x25-photo-page",
            &puzzle,
            Style::print(SANS),
            &Extras::default(),
            40.0,
            camera,
        ),
    ]
}

/// A butterfly and a 12x12 drawn with every line alike: the same cells,
/// and no heavier box borders to tell them apart.
fn even_lines(p: &Puzzles, k: &Looks) -> Vec<Sample> {
    let even = Style {
        thick: k.light.thin,
        ..k.light.clone()
    };
    let plain = Extras::default();
    vec![
        Sample::screen(
            "butterfly-screen-even-lines",
            &p.shape("butterfly.txt"),
            even.clone(),
            &plain,
            52.0,
        ),
        Sample::screen(
            "12x12-screen-even-lines",
            &p.shape("12by12.txt"),
            even,
            &plain,
            52.0,
        ),
    ]
}

/// 16x16 and 25x25 in the serif, whose capitals A, D and G are wider than
/// tall and whose 1, I and L differ by their serifs: app screenshots, and a
/// photographed book page of the 16x16.
fn serif_letters(p: &Puzzles, k: &Looks) -> Vec<Sample> {
    let serif = Style {
        font: SERIF,
        ..k.light.clone()
    };
    let camera = book_page((1200, 1200), 2.5, 0.85, [1.0, 1.0, 1.0]);
    let plain = Extras::default();
    let sixteen = p.shape("16by16.txt");
    vec![
        Sample::screen("16x16-screen-serif", &sixteen, serif.clone(), &plain, 48.0),
        Sample::photo(
            "16x16-photo-serif",
            &sixteen,
            Style::print(SERIF),
            &plain,
            48.0,
            camera,
        ),
        Sample::screen(
            "25x25-screen-serif",
            &p.shape("25by25.txt"),
            serif,
            &plain,
            36.0,
        ),
    ]
}

/// Draws sample number `index` (its seed) and writes its image and its
/// expected reading into `dir`.
fn write_sample(dir: &Path, fonts: &Fonts, tiles: &[(u8, GrayImage)], index: usize, s: &Sample) {
    let mut rng = Rng::new(0x5a3d_1e00 + index as u64);
    let mut img = page(fonts, &s.puzzle, s.cell, &s.style, &s.extras, &mut rng);
    let l = s.puzzle.layout();
    let grid = Frame::new(l, s.cell, &s.extras).grid();
    if let Some(hand) = &s.hand {
        write_by_hand(&mut img, grid, l, hand, tiles, &mut rng);
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

fn main() {
    let root = repo_root();
    let dir = root.join("samples/images");
    std::fs::create_dir_all(&dir).expect("samples folder");
    let fonts = load_fonts(root);
    let puzzles = Puzzles::new(root);
    let tiles = hand_tiles(root);
    let looks = Looks::new(&puzzles.gen_b);
    for (i, s) in samples(&puzzles, &looks, &tiles).iter().enumerate() {
        write_sample(&dir, &fonts, &tiles, i, s);
    }
    sudoku_lens_tools::samples::pdf::write(&dir, &generated_classic(103, 28));
    sudoku_lens_tools::samples::dark_page::write(&dir, &generated_classic(104, 29));
    sudoku_lens_tools::samples::killer::write(&dir, &load_puzzle(root, "killer.txt"));
}
