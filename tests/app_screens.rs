//! Plain square grids as solving apps draw them, each read as exactly the
//! puzzle in its `NAME.txt`, in its own size. `app-NNN.png` is `app-NNN` of
//! `cargo run --release -p sudoku-lens-tools --bin make_app_screens -- --seed 1 DIR`
//! (thin light inner lines one pixel wide on desktop-sized windows, a number
//! pad below); `marks-S-NNN.png` is `app-NNN` of the same tool with
//! `--seed S --marks` (candidate marks in most empty cells);
//! `dark-page-6x6-*.png` are drawn by `draw-6x6.sh` beside them (a white
//! 6x6 on a dark page whose frame the page joins). `rules-*.png` are drawn
//! by the same tool with `--seed 5 --rules` (`rules-diagonals-dark` is its
//! `app-006`, `-light` `app-008`, `rules-kropki` `app-049`, `rules-xv`
//! `app-016`): classic variants whose rules the page draws.

use std::path::Path;

use sudoku_lens::grid::{Document, Puzzle, Rule, parse};
use sudoku_lens::vision::read::read_path;

/// The puzzle in `name.txt` beside `name.png`, and the puzzle read from
/// the image.
fn expected_and_read(name: &str) -> (Puzzle, Puzzle) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/app-screens");
    let text = std::fs::read_to_string(dir.join(format!("{name}.txt"))).expect("expected reading");
    let Ok(Document::Single(expected)) = parse(&text, name, None) else {
        panic!("{name}.txt holds one puzzle");
    };
    let reading =
        read_path(&dir.join(format!("{name}.png")), None).unwrap_or_else(|e| panic!("{name}: {e}"));
    (expected, reading.puzzle)
}

fn reads_as_its_text(name: &str) {
    let (expected, read) = expected_and_read(name);
    assert_eq!(
        read.layout().name(),
        expected.layout().name(),
        "{name}: the layout"
    );
    assert_eq!(read.to_text(), expected.to_text(), "{name}: the givens");
}

#[test]
fn thin_grey_lines_on_a_wide_window_are_found() {
    // 12 x 12, light, 1280 x 800: its one-pixel lines vanished when the
    // window was averaged down to find the grid.
    reads_as_its_text("app-002");
}

#[test]
fn a_dark_theme_classic_on_a_desktop_window_reads() {
    reads_as_its_text("app-003");
}

#[test]
fn a_white_6x6_on_a_dark_page_is_not_read_as_its_inner_4x4() {
    // Its frame joins the dark page in one band: the block of cells inside
    // the outer row and column outlined itself, and was read as a 4 x 4.
    reads_as_its_text("dark-page-6x6-framed");
    reads_as_its_text("dark-page-6x6-open");
}

#[test]
fn a_white_16x16_on_a_dark_page_reads_as_a_16x16() {
    reads_as_its_text("app-024");
}

#[test]
fn candidate_marks_are_never_read_as_givens() {
    // A mark's 5 sits at the cell's centre, where a given stands: six of
    // them on this 8 x 8 and six on this classic were read as given 5s.
    reads_as_its_text("marks-11-024");
    reads_as_its_text("marks-12-034");
}

/// A rule's text with its cells in order: `white r2c3 r2c2` and `white
/// r2c2 r2c3` are one dot.
fn rule_key(puzzle: &Puzzle, rule: &Rule) -> String {
    let text = rule.to_text(puzzle.layout());
    let mut words: Vec<&str> = text.split_whitespace().collect();
    words[1..].sort_unstable();
    words.join(" ")
}

fn rule_keys(puzzle: &Puzzle) -> std::collections::BTreeSet<String> {
    puzzle.rules().iter().map(|r| rule_key(puzzle, r)).collect()
}

#[test]
fn diagonals_are_read_on_light_and_dark_screens() {
    for name in ["rules-diagonals-light", "rules-diagonals-dark"] {
        let (expected, read) = expected_and_read(name);
        assert_eq!(read.values(), expected.values(), "{name}: the givens");
        assert_eq!(rule_keys(&read), rule_keys(&expected), "{name}: the rules");
    }
}

#[test]
fn kropki_dots_are_read_filled_and_hollow() {
    let (expected, read) = expected_and_read("rules-kropki");
    assert_eq!(read.values(), expected.values(), "the givens");
    let keys = rule_keys(&expected);
    assert!(keys.iter().any(|k| k.starts_with("white")));
    assert!(keys.iter().any(|k| k.starts_with("black")));
    assert_eq!(rule_keys(&read), keys, "the dots");
}

#[test]
fn x_and_v_read_are_on_the_page() {
    // Not every letter is read on this page (see docs/reader.md), but
    // none is read where the page has none, and most are read.
    let (expected, read) = expected_and_read("rules-xv");
    assert_eq!(read.values(), expected.values(), "the givens");
    let (truth, got) = (rule_keys(&expected), rule_keys(&read));
    let wrong: Vec<&String> = got.difference(&truth).collect();
    assert!(
        wrong.is_empty(),
        "letters the page does not have: {wrong:?}"
    );
    assert!(
        got.len() * 2 >= truth.len(),
        "{} of {} letters read",
        got.len(),
        truth.len()
    );
}
