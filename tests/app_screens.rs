//! Plain square grids as solving apps draw them, each read as exactly the
//! puzzle in its `NAME.txt`, in its own size. `app-NNN.png` is `app-NNN` of
//! `cargo run --release -p sudoku-lens-tools --bin make_app_screens -- --seed 1 DIR`
//! (thin light inner lines one pixel wide on desktop-sized windows, a number
//! pad below); `marks-S-NNN.png` is `app-NNN` of the same tool with
//! `--seed S --marks` (candidate marks in most empty cells);
//! `dark-page-6x6-*.png` are drawn by `draw-6x6.sh` beside them (a white
//! 6x6 on a dark page whose frame the page joins).

use std::path::Path;

use sudoku_lens::grid::{Document, parse};
use sudoku_lens::vision::read::read_path;

fn reads_as_its_text(name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/app-screens");
    let image = dir.join(format!("{name}.png"));
    let text = std::fs::read_to_string(dir.join(format!("{name}.txt"))).expect("expected reading");
    let Ok(Document::Single(expected)) = parse(&text, name, None) else {
        panic!("{name}.txt holds one puzzle");
    };
    let reading = read_path(&image, None).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        reading.puzzle.layout().name(),
        expected.layout().name(),
        "{name}: the layout"
    );
    assert_eq!(
        reading.puzzle.to_text(),
        expected.to_text(),
        "{name}: the givens"
    );
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
