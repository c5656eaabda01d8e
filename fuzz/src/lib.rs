//! The checks the fuzz targets share: a puzzle written in each of its forms
//! (text, JSON, f-puzzles JSON and link) and read back is the same puzzle.

use sudoku_lens::grid::{self, Document, Puzzle, fpuzzles, json};

/// The puzzles a parsed document holds: the one of a single puzzle, the
/// lines of a batch that parsed (at most `max`, to keep an input fast).
pub fn puzzles(doc: Document, max: usize) -> Vec<Puzzle> {
    match doc {
        Document::Single(p) => vec![p],
        Document::Batch(entries) => entries
            .into_iter()
            .filter_map(|e| match e {
                grid::Entry::Puzzle { puzzle, .. } => puzzle.ok(),
                grid::Entry::Other(_) => None,
            })
            .take(max)
            .collect(),
    }
}

/// Whether the rules read back keep their order: f-puzzles groups them by
/// kind, so through its forms they are the same rules in another order.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Kept,
    Any,
}

/// Panics unless `back` is `original` again: the same layout, values, cages
/// and rules (not where each cell was written, nor the format chosen).
pub fn assert_same(original: &Puzzle, back: &Puzzle, how: &str, written: &str) {
    assert_same_in(original, back, how, written, Order::Kept)
}

/// [`assert_same`], the rules in `order`.
pub fn assert_same_in(original: &Puzzle, back: &Puzzle, how: &str, written: &str, order: Order) {
    let same_layout = original.layout() == back.layout();
    assert!(
        same_layout,
        "{how}: the layout read back ({}) is not the layout written ({})\nwritten:\n{written}",
        back.layout().name(),
        original.layout().name(),
    );
    assert_eq!(
        original.values(),
        back.values(),
        "{how}: the values read back differ\nwritten:\n{written}"
    );
    assert_eq!(
        original.cages(),
        back.cages(),
        "{how}: the cages read back differ\nwritten:\n{written}"
    );
    let sorted = |p: &Puzzle| {
        let mut rules: Vec<String> = p.rules().iter().map(|r| format!("{r:?}")).collect();
        if order == Order::Any {
            rules.sort();
        }
        rules
    };
    assert_eq!(
        sorted(original),
        sorted(back),
        "{how}: the rules read back differ\nwritten:\n{written}"
    );
}

/// The one puzzle a text written for one puzzle reads back as.
fn single(doc: Document, how: &str, written: &str) -> Puzzle {
    match doc {
        Document::Single(p) => p,
        Document::Batch(entries) => {
            let mut found = puzzles(Document::Batch(entries), 2);
            assert_eq!(
                found.len(),
                1,
                "{how}: one puzzle written, {} read back\nwritten:\n{written}",
                found.len()
            );
            found.remove(0)
        }
    }
}

/// Every form `puzzle` has, written and read back: its text, its JSON, and
/// for a single square grid its f-puzzles JSON and link.
pub fn check_round_trips(puzzle: &Puzzle) {
    // Text: read back as the same puzzle, and written again the same.
    let text = puzzle.to_text();
    match grid::parse(&text, "written", None) {
        Ok(doc) => {
            let mut back = single(doc, "text", &text);
            if twelve_read_as_butterfly(puzzle, &back) {
                // The text form names no shape, and a 12x12 of digits 1-9
                // only fills the canvas a butterfly fills: it reads back as
                // one. With the shape named (`--layout 12x12`) it reads
                // back the same.
                let doc = grid::parse(&text, "written", Some(puzzle.layout()))
                    .unwrap_or_else(|e| panic!("text: as a 12x12: {e}\nwritten:\n{text}"));
                back = single(doc, "text", &text);
            }
            assert_same(puzzle, &back, "text", &text);
            assert_eq!(back.to_text(), text, "text: written again differently");
        }
        Err(e) => panic!("text: the text written does not read back: {e}\nwritten:\n{text}"),
    }

    // This program's JSON.
    let value = json::to_json(puzzle);
    let written = value.to_string();
    match json::from_json(&value, "written") {
        Ok(back) => assert_same(puzzle, &back, "json", &written),
        Err(e) => panic!("json: the JSON written does not read back: {e}\nwritten:\n{written}"),
    }
    // ... and as a text holding that JSON.
    match grid::parse(&written, "written", None) {
        Ok(doc) => assert_same(
            puzzle,
            &single(doc, "json text", &written),
            "json text",
            &written,
        ),
        Err(e) => panic!("json text: does not read back: {e}\nwritten:\n{written}"),
    }

    // f-puzzles: only single square grids have a form there; the others
    // are refused with a message.
    if let Ok(value) = fpuzzles::to_fpuzzles(puzzle, None) {
        let written = value.to_string();
        match fpuzzles::from_fpuzzles(&value, "written") {
            Ok(back) => assert_same_in(puzzle, &back, "f-puzzles", &written, Order::Any),
            Err(e) => {
                panic!("f-puzzles: the object written does not read back: {e}\nwritten:\n{written}")
            }
        }
        let link =
            fpuzzles::to_link(puzzle, None).expect("a puzzle with an f-puzzles form has a link");
        match fpuzzles::from_link(&link, "written") {
            Ok(back) => assert_same_in(puzzle, &back, "f-puzzles link", &link, Order::Any),
            Err(e) => panic!("f-puzzles link: does not read back: {e}\nwritten:\n{link}"),
        }
    }
}

/// Whether `back` is a 12x12 `original` read back from its text as a
/// butterfly (the same canvas, every cell in it; see `check_round_trips`).
pub fn twelve_read_as_butterfly(original: &Puzzle, back: &Puzzle) -> bool {
    original.layout().name() == "12x12"
        && back.layout().name() == "butterfly"
        && original.values().iter().all(|&v| v <= 9)
}

/// A full grid of the classic layout, to check rules against.
pub const CLASSIC_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
