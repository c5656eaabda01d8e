//! Renders plain square puzzles as solving apps draw them, to measure the
//! reader on a family of pages it was not tuned on: every square size from
//! 4 x 4 to 25 x 25 with its boxes, thin light inner lines and heavy box
//! lines, light and dark themes (a white grid on a dark page, or a dark
//! grid), with or without a frame, a timer above the grid and a number pad
//! below it, at phone and desktop window sizes, some shared as JPEG.
//!
//! `cargo run --release -p sudoku-lens-tools --bin make_app_screens -- [--seed N] [--count N] [--marks] DST`
//!
//! With `--marks`, the grids of up to 9 x 9 are drawn as a player leaves
//! them part way: most empty cells hold candidate marks, two to four small
//! digits each, at their places in a 3 x 3 block (the 1 top left, the 9
//! bottom right), in the digits' colour or a grey. The puzzle's text is the
//! same: marks are never givens. The other choices are those of the same
//! seed without marks.
//!
//! With `--rules`, each screen is a classic variant puzzle made from the
//! seed (`sudoku_lens::solve::generate::variant`) whose rules the page
//! draws: diagonals (a thin coloured line corner to corner), kropki dots
//! (filled in the digits' ink, or hollow: a ring around the grid's colour)
//! or X and V (letters on a patch of the grid's colour that breaks the
//! line), in the same themes, fonts and windows; the `.txt` holds the
//! rules too.
//!
//! Writes `DST/app-NNN.png` (or `.jpg`) with `app-NNN.txt`, the puzzle as
//! `sudoku-lens eval DST` expects it beside each image. Everything follows
//! from the seed (default 1): a rerun writes the same files. Keep DST
//! outside the repository, and keep a second seed's set out of any tuning.

use std::path::PathBuf;
use std::process::exit;
use std::sync::Arc;

use ab_glyph::FontVec;
use image::{Rgb, RgbImage};
use sudoku_lens::grid::{Layout, Puzzle, Rule};
use sudoku_lens::rng::Rng;
use sudoku_lens::solve::SudokuSolver;
use sudoku_lens::solve::generate::{full_grid, thin};
use sudoku_lens_tools::repo_root;
use sudoku_lens_tools::samples::draw::{Colour, disc, fill, glyph_centred, segment, text};
use sudoku_lens_tools::samples::pattern::shuffled_pattern;
use sudoku_lens_tools::samples::photo::save_jpeg;

/// The square layouts drawn, by name.
const SIZES: &[&str] = &["4x4", "6x6", "8x8", "classic", "12x12", "16x16", "25x25"];
/// Sans fonts for the digits, as apps use (DejaVu Sans is not among the
/// fonts the digit model is built from).
const FONTS: &[&str] = &[
    "texgyreheros-bold.otf",
    "DejaVuSans.ttf",
    "LiberationSans-Regular.ttf",
    "Carlito-Regular.ttf",
];
/// Window sizes (width, height) in pixels: phones upright, a tablet, a
/// desktop window.
const WINDOWS: &[(u32, u32)] = &[
    (390, 844),
    (780, 1688),
    (820, 1180),
    (1280, 800),
    (1024, 768),
];
/// Share of the cells given, as apps' easy-to-hard levels leave them ...
const GIVEN_SHARE: (f32, f32) = (0.35, 0.5);
/// ... and on 16 x 16 and 25 x 25 grids, which are thinned at random
/// without the proof of one solution after each cell (minutes a puzzle
/// there): with this many givens left, they keep one solution all the same.
const LARGE_GIVEN_SHARE: (f32, f32) = (0.6, 0.7);
/// Quality of the JPEG-shared screenshots.
const JPEG_QUALITY: u8 = 80;
/// With `--marks`: the share of empty cells that hold marks ...
const MARKED_SHARE: f32 = 0.7;
/// ... how many each holds at most (fewer where the cell has fewer
/// candidates; at least two) ...
const MOST_MARKS: usize = 4;
/// ... and their height, in cells, as apps draw them.
const MARK_HEIGHT: (f32, f32) = (0.2, 0.3);
/// A grey mark's colour: this share of the way from the digits' colour to
/// the grid's.
const GREY_MARK: f32 = 0.45;

/// How a screen is drawn.
struct Theme {
    page: Colour,
    grid: Colour,
    thin_line: Colour,
    box_line: Colour,
    digit: Colour,
    /// Buttons and the timer's bar.
    chrome: Colour,
    chrome_text: Colour,
}

const LIGHT: Theme = Theme {
    page: [242, 242, 247],
    grid: [255, 255, 255],
    thin_line: [208, 208, 214],
    box_line: [20, 20, 20],
    digit: [10, 10, 10],
    chrome: [225, 225, 232],
    chrome_text: [40, 40, 60],
};
/// A white grid on a dark page.
const DARK_PAGE: Theme = Theme {
    page: [18, 18, 18],
    grid: [255, 255, 255],
    thin_line: [208, 208, 208],
    box_line: [0, 0, 0],
    digit: [0, 0, 0],
    chrome: [42, 42, 42],
    chrome_text: [235, 235, 235],
};
/// A dark grid with light lines and digits.
const DARK: Theme = Theme {
    page: [0, 0, 0],
    grid: [28, 28, 30],
    thin_line: [70, 70, 74],
    box_line: [170, 170, 176],
    digit: [235, 235, 240],
    chrome: [44, 44, 48],
    chrome_text: [220, 220, 225],
};
const THEMES: &[&Theme] = &[&LIGHT, &DARK_PAGE, &DARK];

fn fail(message: String) -> ! {
    eprintln!("make_app_screens: {message}");
    exit(2)
}

/// The rule families `--rules` draws, by the variant generator's names.
const RULE_FAMILIES: &[&str] = &["diagonals", "kropki", "xv"];

/// The diagonals' colour: a light blue, as web players draw them.
const DIAGONAL: Colour = [60, 170, 220];

/// The width of a diagonal, in cells.
const DIAGONAL_WIDTH: (f32, f32) = (0.02, 0.04);

/// A kropki dot's radius, in cells, and a hollow dot's ring's width.
const DOT_RADIUS: (f32, f32) = (0.1, 0.16);
const RING_WIDTH: (f32, f32) = (0.02, 0.035);

/// The height of the letters X and V, in cells.
const LETTER_HEIGHT: (f32, f32) = (0.22, 0.3);

fn main() {
    let (seed, count, marks, rules, dst) = parse_args();
    std::fs::create_dir_all(&dst)
        .unwrap_or_else(|e| fail(format!("cannot create {}: {e}", dst.display())));
    let root = repo_root();
    let fonts: Vec<FontVec> = FONTS
        .iter()
        .map(|f| {
            let path = root.join("assets/fonts").join(f);
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", path.display())));
            FontVec::try_from_vec(bytes).unwrap_or_else(|_| fail(format!("{f} is not a font")))
        })
        .collect();
    for i in 0..count {
        let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
        let mut screen = Screen::pick(&mut rng);
        let family = rules.then(|| RULE_FAMILIES[rng.below(RULE_FAMILIES.len() as u32) as usize]);
        let puzzle = match family {
            Some(f) => {
                screen.layout = Arc::new(Layout::classic());
                sudoku_lens::solve::generate::variant(f, rng.next_u64())
                    .unwrap_or_else(|e| fail(e))
                    .puzzle
            }
            None => screen.puzzle(rng.next_u64()),
        };
        let (mut img, place) = screen.draw(&puzzle, &fonts[screen.font], &mut rng);
        if family.is_some() {
            screen.draw_rules(&mut img, &puzzle, &fonts[screen.font], place, &mut rng);
        }
        if marks {
            // A generator of its own: the screen's other choices stay
            // those of the seed without marks.
            let mut marks_rng = Rng::new(rng.next_u64() ^ MARKS_SALT);
            screen.draw_marks(
                &mut img,
                &puzzle,
                &fonts[screen.font],
                place,
                &mut marks_rng,
            );
        }
        let name = format!("app-{i:03}");
        let path = dst.join(format!(
            "{name}.{}",
            if screen.jpeg { "jpg" } else { "png" }
        ));
        if screen.jpeg {
            save_jpeg(&img, &path, JPEG_QUALITY, None);
        } else {
            img.save(&path)
                .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", path.display())));
        }
        std::fs::write(dst.join(format!("{name}.txt")), puzzle.to_text())
            .unwrap_or_else(|e| fail(format!("cannot write {name}.txt: {e}")));
        match family {
            Some(f) => println!("{name}: {f}, {}", screen.describe()),
            None => println!("{name}: {}", screen.describe()),
        }
    }
}

/// Mixed into the seed of the marks' generator.
const MARKS_SALT: u64 = 0x006d_6172_6b73;

fn parse_args() -> (u64, usize, bool, bool, PathBuf) {
    let (mut seed, mut count, mut marks, mut rules, mut dst) = (1u64, 40usize, false, false, None);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = |flag: &str| -> u64 {
            args.next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| fail(format!("{flag} takes a whole number")))
        };
        match a.as_str() {
            "--seed" => seed = number("--seed"),
            "--count" => count = number("--count") as usize,
            "--marks" => marks = true,
            "--rules" => rules = true,
            _ if a.starts_with('-') => fail(format!("unknown option {a}")),
            _ => dst = Some(PathBuf::from(a)),
        }
    }
    let dst = dst.unwrap_or_else(|| {
        fail("usage: make_app_screens [--seed N] [--count N] [--marks] [--rules] DST".into())
    });
    (seed, count, marks, rules, dst)
}

/// The grid's outer edge.
#[derive(Clone, Copy)]
enum Frame {
    /// A line as heavy as the box lines, as most apps draw.
    Heavy,
    /// A line like the inner ones.
    Thin,
    /// No line: the grid ends at the edge of its block, which only a page of
    /// another shade shows (so only on the themes where the page is dark).
    None,
}

impl Frame {
    fn pick(rng: &mut Rng, theme: &Theme) -> Frame {
        let page_contrasts = theme.page[0].abs_diff(theme.grid[0]) > 100;
        match rng.below(if page_contrasts { 3 } else { 2 }) {
            0 => Frame::Heavy,
            1 => Frame::Thin,
            _ => Frame::None,
        }
    }
}

/// One screenshot's choices.
struct Screen {
    layout: Arc<Layout>,
    theme: &'static Theme,
    font: usize,
    window: (u32, u32),
    frame: Frame,
    /// Inner lines in cell units.
    thin: f32,
    /// Box lines in cell units.
    thick: f32,
    jpeg: bool,
    givens: f32,
}

impl Screen {
    fn pick(rng: &mut Rng) -> Screen {
        let name = SIZES[rng.below(SIZES.len() as u32) as usize];
        let layout = Layout::named(name).expect("a built-in layout");
        let share = if layout.width() >= 16 {
            LARGE_GIVEN_SHARE
        } else {
            GIVEN_SHARE
        };
        let theme = THEMES[rng.below(THEMES.len() as u32) as usize];
        Screen {
            layout: Arc::new(layout),
            theme,
            font: rng.below(FONTS.len() as u32) as usize,
            window: WINDOWS[rng.below(WINDOWS.len() as u32) as usize],
            frame: Frame::pick(rng, theme),
            thin: rng.range(0.01, 0.025),
            thick: rng.range(0.04, 0.07),
            jpeg: rng.chance(0.3),
            givens: rng.range(share.0, share.1),
        }
    }

    fn describe(&self) -> String {
        let theme = match self.theme.page[0] {
            0 => "dark",
            18 => "white grid on a dark page",
            _ => "light",
        };
        format!(
            "{} {}x{} {} {theme}{}{}",
            self.layout.name(),
            self.window.0,
            self.window.1,
            FONTS[self.font],
            match self.frame {
                Frame::Heavy => ", framed",
                Frame::Thin => ", thin outer line",
                Frame::None => ", no outer line",
            },
            if self.jpeg { ", JPEG" } else { "" },
        )
    }

    fn puzzle(&self, seed: u64) -> Puzzle {
        let mut solver = SudokuSolver::new(self.layout.clone());
        let target = (self.givens * self.layout.cell_count() as f32) as usize;
        let values = if self.layout.width() >= 16 {
            let mut rng = Rng::new(seed);
            // The box's height: the cells of the first box in column 0.
            let (l, n) = (&self.layout, self.layout.width());
            let first = l.cell_at(0, 0).expect("a square layout");
            let br = (0..n)
                .filter(|&r| l.same_box(first, l.cell_at(r, 0).expect("a square layout")))
                .count();
            let mut values = shuffled_pattern(br, n / br, &mut rng);
            let mut givens = values.len();
            while givens > target {
                let c = rng.below(values.len() as u32) as usize;
                if values[c] != 0 {
                    values[c] = 0;
                    givens -= 1;
                }
            }
            values
        } else {
            let full = full_grid(&mut solver, seed);
            thin(&mut solver, &full, target, seed)
        };
        Puzzle::empty(self.layout.clone()).with_values(values)
    }

    /// The whole window: page, timer bar, grid, number pad; and where the
    /// grid is (left, top, side).
    fn draw(&self, puzzle: &Puzzle, font: &FontVec, rng: &mut Rng) -> (RgbImage, (f32, f32, f32)) {
        let (w, h) = self.window;
        let t = self.theme;
        let mut img = RgbImage::from_pixel(w, h, Rgb(t.page));
        let (w, h) = (w as f32, h as f32);
        // The grid fills most of the narrower side, below a bar of a tenth
        // of the height (timer, level, mistakes).
        let side = (w.min(h * 0.62) * rng.range(0.86, 0.96)).floor();
        let ox = ((w - side) / 2.0).floor();
        let bar = h * 0.1;
        let oy = (bar + h * 0.04).floor();
        fill(&mut img, w * 0.05, h * 0.02, w * 0.95, bar, t.chrome);
        text(
            &mut img,
            font,
            "Level: hard   04:12",
            w * 0.1,
            bar * 0.7,
            bar * 0.35,
            t.chrome_text,
        );
        self.draw_grid(&mut img, puzzle, font, (ox, oy), side);
        let pad_top = oy + side + h * 0.03;
        self.draw_pad(&mut img, font, pad_top, h - pad_top - h * 0.02);
        (img, (ox, oy, side))
    }

    /// Candidate marks in the empty cells of a grid of up to 9 x 9 drawn at
    /// `(ox, oy, side)`: each of [`MARKED_SHARE`] of them holds two to
    /// [`MOST_MARKS`] of its candidates (the digits its houses' givens
    /// leave, the solution's among them only by chance), each at its place
    /// in a 3 x 3 block.
    fn draw_marks(
        &self,
        img: &mut RgbImage,
        puzzle: &Puzzle,
        font: &FontVec,
        (ox, oy, side): (f32, f32, f32),
        rng: &mut Rng,
    ) {
        let l = puzzle.layout();
        let (n, values) = (l.width(), puzzle.values());
        if n > 9 {
            return;
        }
        let cell = side / n as f32;
        let t = self.theme;
        let grey: Colour = std::array::from_fn(|i| {
            (t.digit[i] as f32 + (t.grid[i] as f32 - t.digit[i] as f32) * GREY_MARK) as u8
        });
        let colour = if rng.chance(0.5) { t.digit } else { grey };
        let height = cell * rng.range(MARK_HEIGHT.0, MARK_HEIGHT.1);
        for (c, _) in values.iter().enumerate().filter(|(_, v)| **v == 0) {
            if !rng.chance(MARKED_SHARE) {
                continue;
            }
            let mut candidates: Vec<u8> = (1..=n as u8)
                .filter(|&d| {
                    l.houses_of(c).iter().all(|&h| {
                        l.houses()[h as usize]
                            .cells
                            .iter()
                            .all(|&o| values[o as usize] != d)
                    })
                })
                .collect();
            rng.shuffle(&mut candidates);
            let keep = 2 + rng.below((MOST_MARKS - 1) as u32) as usize;
            candidates.truncate(keep);
            if candidates.len() < 2 {
                continue;
            }
            let (r, k) = l.position(c);
            for d in candidates {
                let (i, j) = ((d - 1) % 3, (d - 1) / 3);
                let x = ox + (k as f32 + (i as f32 + 0.5) / 3.0) * cell;
                let y = oy + (r as f32 + (j as f32 + 0.5) / 3.0) * cell;
                let symbol = char::from_digit(d as u32, 10).expect("a digit");
                glyph_centred(img, font, symbol, x, y, height, colour);
            }
        }
    }

    fn draw_grid(
        &self,
        img: &mut RgbImage,
        puzzle: &Puzzle,
        font: &FontVec,
        (ox, oy): (f32, f32),
        side: f32,
    ) {
        let l = puzzle.layout();
        let n = l.width();
        let cell = side / n as f32;
        let t = self.theme;
        fill(img, ox, oy, ox + side, oy + side, t.grid);
        // Inner lines first, box lines over them.
        let thin = (cell * self.thin).max(1.0);
        let thick = (cell * self.thick).max(2.0);
        for i in 1..n {
            let at = i as f32 * cell;
            let box_col = (0..l.height())
                .all(|r| !l.same_box(l.cell_at(r, i - 1).unwrap(), l.cell_at(r, i).unwrap()));
            let box_row =
                (0..n).all(|k| !l.same_box(l.cell_at(i - 1, k).unwrap(), l.cell_at(i, k).unwrap()));
            for (is_box, vertical) in [(box_col, true), (box_row, false)] {
                let (width, colour) = if is_box {
                    (thick, t.box_line)
                } else {
                    (thin, t.thin_line)
                };
                line(img, (ox, oy), side, at, width, vertical, colour);
            }
        }
        let outer = match self.frame {
            Frame::Heavy => Some((thick, t.box_line)),
            Frame::Thin => Some((thin, t.thin_line)),
            Frame::None => None,
        };
        if let Some((width, colour)) = outer {
            for at in [0.0, side] {
                line(img, (ox, oy), side, at, width, true, colour);
                line(img, (ox, oy), side, at, width, false, colour);
            }
        }
        for (c, &v) in puzzle.values().iter().enumerate() {
            if v == 0 {
                continue;
            }
            let (r, k) = l.position(c);
            let symbol = puzzle.alphabet().symbol(v);
            let (x, y) = (ox + (k as f32 + 0.5) * cell, oy + (r as f32 + 0.5) * cell);
            glyph_centred(img, font, symbol, x, y, cell * 0.6, t.digit);
        }
    }

    /// The marks of the puzzle's rules over its grid drawn at
    /// `(ox, oy, side)`: diagonals, kropki dots, X and V (other rules draw
    /// nothing here).
    fn draw_rules(
        &self,
        img: &mut RgbImage,
        puzzle: &Puzzle,
        font: &FontVec,
        (ox, oy, side): (f32, f32, f32),
        rng: &mut Rng,
    ) {
        let l = puzzle.layout();
        let n = l.width() as f32;
        let cell = side / n;
        let t = self.theme;
        let diagonal_width = (cell * rng.range(DIAGONAL_WIDTH.0, DIAGONAL_WIDTH.1)).max(1.0);
        let radius = cell * rng.range(DOT_RADIUS.0, DOT_RADIUS.1);
        let ring = (cell * rng.range(RING_WIDTH.0, RING_WIDTH.1)).max(1.2);
        let letter = cell * rng.range(LETTER_HEIGHT.0, LETTER_HEIGHT.1);
        // The midpoint of the edge between two neighbouring cells.
        let midpoint = |[a, b]: [u32; 2]| {
            let ((ra, ca), (rb, cb)) = (l.position(a as usize), l.position(b as usize));
            (
                ox + (ca + cb + 1) as f32 / 2.0 * cell,
                oy + (ra + rb + 1) as f32 / 2.0 * cell,
            )
        };
        for rule in puzzle.rules() {
            match rule {
                Rule::Diagonal(d) => {
                    let (y0, y1) = match d {
                        sudoku_lens::grid::Diagonal::Main => (oy, oy + side),
                        sudoku_lens::grid::Diagonal::Anti => (oy + side, oy),
                    };
                    segment(img, (ox, y0), (ox + side, y1), diagonal_width, DIAGONAL);
                }
                Rule::Ratio { cells, .. } => {
                    let (x, y) = midpoint(*cells);
                    disc(img, (x, y), radius, t.digit);
                }
                Rule::Difference { cells, .. } => {
                    let (x, y) = midpoint(*cells);
                    disc(img, (x, y), radius, t.digit);
                    disc(img, (x, y), radius - ring, t.grid);
                }
                Rule::Xv { cells, sum } => {
                    let (x, y) = midpoint(*cells);
                    let half = letter * 0.55;
                    fill(img, x - half, y - half, x + half, y + half, t.grid);
                    let ch = if *sum == 10 { 'X' } else { 'V' };
                    glyph_centred(img, font, ch, x, y, letter, t.digit);
                }
                _ => {}
            }
        }
    }

    /// A row or two of buttons, one per symbol up to 9 and then a few
    /// actions, as apps put below the grid.
    fn draw_pad(&self, img: &mut RgbImage, font: &FontVec, top: f32, height: f32) {
        let (w, t) = (img.width() as f32, self.theme);
        let keys = self.layout.width().min(9);
        let key = (w * 0.9 / keys as f32).min(height * 0.45);
        for i in 0..keys {
            let x = w * 0.05 + i as f32 * key;
            fill(img, x + 2.0, top, x + key - 2.0, top + key, t.chrome);
            let symbol = char::from(b'1' + i as u8);
            glyph_centred(
                img,
                font,
                symbol,
                x + key / 2.0,
                top + key / 2.0,
                key * 0.5,
                t.chrome_text,
            );
        }
        let y = top + key * 1.3;
        if y + key * 0.5 < top + height {
            text(
                img,
                font,
                "Undo   Erase   Notes   Hint",
                w * 0.08,
                y + key * 0.4,
                key * 0.3,
                t.chrome_text,
            );
        }
    }
}

/// A grid line `at` across the grid of `side` pixels from `origin`, `width`
/// pixels wide, centred on its place.
fn line(
    img: &mut RgbImage,
    (ox, oy): (f32, f32),
    side: f32,
    at: f32,
    width: f32,
    vertical: bool,
    c: Colour,
) {
    let half = width / 2.0;
    if vertical {
        fill(
            img,
            ox + at - half,
            oy - half,
            ox + at + half,
            oy + side + half,
            c,
        );
    } else {
        fill(
            img,
            ox - half,
            oy + at - half,
            ox + side + half,
            oy + at + half,
            c,
        );
    }
}
