//! A player's own digits beside the printed givens, and the text that
//! holds both.
//!
//! [`Entries`] is a value per cell (0 where the player wrote nothing);
//! [`Progress`] is a puzzle (its givens) with the entries written into it.
//! The text form is the puzzle in any of its forms, then a line reading
//! `entries:`, then a grid of the same shape holding the player's digits:
//!
//! ```text
//! 53..7....          the puzzle: its givens (any form: one line, rows,
//! 6..195...          pretty rows, a canvas, a jigsaw with its regions, a
//! ...                killer with its cages)
//!
//! entries:           the marker, alone on its line (any case)
//! ..4.....           the player's digits in the same shape and form, `.`
//! 672......          where nothing is written; a cell may also repeat its
//! ...                given, so the grid as it stands on the page is
//!                    accepted too
//! ```
//!
//! The JSON form adds `"entries"` rows beside `"grid"` (same shape, `.` where
//! nothing is written). An f-puzzles puzzle (its JSON, or a link) holds the
//! player's digits as the values of cells that are not givens.

use serde_json::Value;

use super::file::parse;
use super::layout::Layout;
use super::parse_error::ParseError;
use super::puzzle::{Format, Puzzle};
use super::text::Document;
use super::{fpuzzles, json};

/// The line that starts the entries grid in the text form (compared without
/// surrounding whitespace, in any case).
pub const ENTRIES_MARKER: &str = "entries:";

/// A player's digits: a value per cell of a layout (0 = nothing written),
/// with where each was written when read from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entries {
    values: Vec<u8>,
    /// One-based (line, column) of each cell in the source text; empty when
    /// the entries did not come from text.
    origin: Vec<(u32, u32)>,
}

impl Entries {
    /// No entry in any of `cells` cells.
    pub fn none(cells: usize) -> Entries {
        Entries {
            values: vec![0; cells],
            origin: Vec::new(),
        }
    }

    /// Entries from a value per cell (0 = nothing written).
    pub fn from_values(values: Vec<u8>) -> Entries {
        Entries {
            values,
            origin: Vec::new(),
        }
    }

    /// A value per cell, 0 where nothing is written.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// Source (line, column) of each cell; empty if not read from text.
    pub fn origin(&self) -> &[(u32, u32)] {
        &self.origin
    }

    /// The number of cells written in.
    pub fn count(&self) -> usize {
        self.values.iter().filter(|&&v| v != 0).count()
    }

    /// Whether no cell is written in.
    pub fn is_empty(&self) -> bool {
        self.values.iter().all(|&v| v == 0)
    }

    /// The cells written in, with their values, in cell order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        self.values
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != 0)
            .map(|(c, &v)| (c, v))
    }
}

/// Why entries do not fit a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EntriesError {
    /// Not one value per cell.
    #[error("the entries have {got} values; the {layout} layout has {cells} cells")]
    Length {
        got: usize,
        layout: String,
        cells: usize,
    },
    /// A value beyond the layout's symbols.
    #[error("the entry at {cell} is {value}; the {layout} layout has symbols 1-{size}")]
    Value {
        cell: String,
        value: u8,
        layout: String,
        size: usize,
    },
    /// An entry in a cell that holds a given.
    #[error("{cell} holds the given {given}; the entries write {wrote} there")]
    OnGiven {
        cell: String,
        given: char,
        wrote: char,
    },
}

/// A puzzle (its givens) and a player's entries in its empty cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    puzzle: Puzzle,
    entries: Entries,
}

impl Progress {
    /// `puzzle` with `entries`. An entry equal to its cell's given is
    /// dropped (the grid as it stands on the page may be given); one that
    /// differs from it is an error.
    pub fn new(puzzle: Puzzle, mut entries: Entries) -> Result<Progress, EntriesError> {
        let layout = puzzle.layout();
        if entries.values.len() != layout.cell_count() {
            return Err(EntriesError::Length {
                got: entries.values.len(),
                layout: layout.name().to_string(),
                cells: layout.cell_count(),
            });
        }
        let describe = |cell: usize| match entries.origin.get(cell) {
            Some(&(line, col)) if line > 0 => {
                format!("{} (line {line}, column {col})", layout.cell_name(cell))
            }
            _ => layout.cell_name(cell),
        };
        for (cell, &v) in entries.values.iter().enumerate() {
            if v as usize > layout.size() {
                return Err(EntriesError::Value {
                    cell: describe(cell),
                    value: v,
                    layout: layout.name().to_string(),
                    size: layout.size(),
                });
            }
            let given = puzzle.values()[cell];
            if v != 0 && given != 0 && v != given {
                let a = puzzle.alphabet();
                return Err(EntriesError::OnGiven {
                    cell: describe(cell),
                    given: a.symbol(given),
                    wrote: a.symbol(v),
                });
            }
        }
        for (e, &g) in entries.values.iter_mut().zip(puzzle.values()) {
            if g != 0 {
                *e = 0;
            }
        }
        Ok(Progress { puzzle, entries })
    }

    /// A puzzle with no entries.
    pub fn givens_only(puzzle: Puzzle) -> Progress {
        let entries = Entries::none(puzzle.layout().cell_count());
        Progress { puzzle, entries }
    }

    /// The puzzle: its givens, layout, cages and text format.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The player's entries (none in a given's cell).
    pub fn entries(&self) -> &Entries {
        &self.entries
    }

    /// Givens and entries together, a value per cell: the grid as it stands.
    pub fn current(&self) -> Vec<u8> {
        self.puzzle
            .values()
            .iter()
            .zip(&self.entries.values)
            .map(|(&g, &e)| if g != 0 { g } else { e })
            .collect()
    }

    /// An entry's cell name, with its place in the source text when known:
    /// `r3c7 (line 14, column 7)`.
    pub fn describe_entry(&self, cell: usize) -> String {
        let name = self.puzzle.layout().cell_name(cell);
        match self.entries.origin.get(cell) {
            Some(&(line, col)) if line > 0 => format!("{name} (line {line}, column {col})"),
            _ => name,
        }
    }

    /// The text form: the puzzle's own text, then (when there are entries) a
    /// blank line, [`ENTRIES_MARKER`] and the entries grid in the puzzle's
    /// form (a jigsaw's entries as plain rows: the regions are written once).
    pub fn to_text(&self) -> String {
        let mut out = self.puzzle.to_text();
        if self.entries.is_empty() {
            return out;
        }
        let format = match self.puzzle.format() {
            Format::Jigsaw => Format::Rows { pretty: false },
            f => f,
        };
        let grid = Puzzle::from_parts(
            self.puzzle.layout().clone(),
            self.entries.values.clone(),
            self.puzzle.alphabet(),
            format,
            Vec::new(),
        );
        out.push('\n');
        out.push_str(ENTRIES_MARKER);
        out.push('\n');
        out.push_str(&grid.to_text());
        out
    }
}

/// Whether a puzzle text gives a player's entries: an [`ENTRIES_MARKER`]
/// line, or a JSON object with `"entries"`. Such a text is read with
/// [`parse_progress`]; it is one puzzle, never a batch.
pub fn has_entries(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let fpuzzles_entries =
        |v: &Value| fpuzzles::player_values(v, "").is_ok_and(|e| e.iter().any(|&x| x != 0));
    if text.trim_start().starts_with('{') {
        return serde_json::from_str::<Value>(text.trim()).is_ok_and(|v| {
            v.get("entries").is_some() || (fpuzzles::looks_like(&v) && fpuzzles_entries(&v))
        });
    }
    if fpuzzles::is_link(text) {
        return fpuzzles::link_value(text, "").is_ok_and(|v| fpuzzles_entries(&v));
    }
    text.lines()
        .any(|l| l.trim().eq_ignore_ascii_case(ENTRIES_MARKER))
}

/// Parses a puzzle with a player's entries (see the module's text form);
/// a puzzle text without the `entries:` part is a puzzle with no entries.
/// `file` names the source in errors, which give a line and column; `layout`
/// forces the shape as for [`parse`].
pub fn parse_progress(
    text: &str,
    file: &str,
    layout: Option<&Layout>,
) -> Result<Progress, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if fpuzzles::is_link(text) {
        let puzzle = single(parse(text, file, layout)?, file)?;
        return fpuzzles_progress(&fpuzzles::link_value(text, file)?, puzzle, file);
    }
    if text.trim_start().starts_with('{') {
        return json_progress(text, file, layout);
    }
    text_progress(text, file, layout)
}

/// An error of [`parse_progress`] at a line and column of `file`.
fn error_at(file: &str, line: usize, column: usize, message: String) -> ParseError {
    ParseError {
        file: file.to_string(),
        line,
        column,
        message,
    }
}

/// An f-puzzles puzzle with the solver's digits it holds beside the givens.
fn fpuzzles_progress(value: &Value, puzzle: Puzzle, file: &str) -> Result<Progress, ParseError> {
    let values = fpuzzles::player_values(value, file)?;
    Progress::new(puzzle, Entries::from_values(values))
        .map_err(|e| error_at(file, 0, 0, format!("the player's values: {e}")))
}

/// A JSON puzzle with its `"entries"` rows; without them, an f-puzzles
/// puzzle with its player's digits, or a puzzle with no entries.
fn json_progress(text: &str, file: &str, layout: Option<&Layout>) -> Result<Progress, ParseError> {
    let puzzle = single(parse(text, file, layout)?, file)?;
    let value: Value = serde_json::from_str(text.trim())
        .map_err(|e| error_at(file, e.line(), e.column(), format!("not valid JSON: {e}")))?;
    match value.as_object().filter(|o| o.contains_key("entries")) {
        None if fpuzzles::looks_like(&value) => fpuzzles_progress(&value, puzzle, file),
        None => Ok(Progress::givens_only(puzzle)),
        Some(obj) => {
            let l = puzzle.layout().clone();
            let rows = json::read_rows(obj, "entries", &l).map_err(|m| error_at(file, 0, 0, m))?;
            let values = json::row_values(&rows, "entries", &l, puzzle.alphabet())
                .map_err(|m| error_at(file, 0, 0, m))?;
            Progress::new(puzzle, Entries::from_values(values))
                .map_err(|e| error_at(file, 0, 0, format!("entries: {e}")))
        }
    }
}

/// The text form: the givens, then (after an [`ENTRIES_MARKER`] line, if
/// there is one) the entries grid.
fn text_progress(text: &str, file: &str, layout: Option<&Layout>) -> Result<Progress, ParseError> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(marker) = entries_marker(&lines, file)? else {
        return Ok(Progress::givens_only(single(
            parse(text, file, layout)?,
            file,
        )?));
    };
    let givens_text = lines[..marker].join("\n");
    if givens_text.trim().is_empty() {
        return Err(error_at(
            file,
            marker + 1,
            0,
            format!("no puzzle before \"{ENTRIES_MARKER}\": give the givens first"),
        ));
    }
    let puzzle = single(parse(&givens_text, file, layout)?, file)?;
    let written = entries_grid(&lines, marker, &puzzle, file)?;
    let values = entry_values(&puzzle, &written, file)?;
    let entries = Entries {
        values,
        origin: written.origin().to_vec(),
    };
    Progress::new(puzzle, entries).map_err(|e| error_at(file, marker + 2, 0, e.to_string()))
}

/// The index of the [`ENTRIES_MARKER`] line, if any; a second one is an
/// error.
fn entries_marker(lines: &[&str], file: &str) -> Result<Option<usize>, ParseError> {
    let is_marker = |l: &&str| l.trim().eq_ignore_ascii_case(ENTRIES_MARKER);
    let Some(marker) = lines.iter().position(is_marker) else {
        return Ok(None);
    };
    if let Some(again) = lines[marker + 1..].iter().position(is_marker) {
        return Err(error_at(
            file,
            marker + again + 2,
            0,
            format!(
                "a second \"{ENTRIES_MARKER}\" line (the first is line {}); give one entries grid",
                marker + 1
            ),
        ));
    }
    Ok(Some(marker))
}

/// The grid written after the marker line, read in the shape of `puzzle`;
/// it must be there, and must have no cages.
fn entries_grid(
    lines: &[&str],
    marker: usize,
    puzzle: &Puzzle,
    file: &str,
) -> Result<Puzzle, ParseError> {
    // The entries part keeps its line numbers: the lines before it are
    // blanked, not removed.
    let mut entries_text = "\n".repeat(marker + 1);
    for l in &lines[marker + 1..] {
        entries_text.push_str(l);
        entries_text.push('\n');
    }
    if lines[marker + 1..].iter().all(|l| l.trim().is_empty()) {
        return Err(error_at(
            file,
            marker + 1,
            0,
            format!(
                "\"{ENTRIES_MARKER}\" is followed by no grid: write the player's digits after it, '.' elsewhere"
            ),
        ));
    }
    let written = single(
        parse(&entries_text, file, Some(puzzle.layout())).map_err(|mut e| {
            e.message = format!("in the entries: {}", e.message);
            e
        })?,
        file,
    )?;
    if !written.cages().is_empty() {
        return Err(error_at(
            file,
            marker + 2,
            0,
            "the entries grid has cages; give cages once, with the givens".into(),
        ));
    }
    Ok(written)
}

/// The entries of `written` in the alphabet of `puzzle`, one per cell; an
/// entry that is no symbol of the puzzle, or that differs from a given,
/// is an error at its place.
fn entry_values(puzzle: &Puzzle, written: &Puzzle, file: &str) -> Result<Vec<u8>, ParseError> {
    let (from, to) = (written.alphabet(), puzzle.alphabet());
    let mut values = Vec::with_capacity(written.values().len());
    for (cell, &v) in written.values().iter().enumerate() {
        let place = written.origin().get(cell).copied().unwrap_or((0, 0));
        let at = |m: String| error_at(file, place.0 as usize, place.1 as usize, m);
        values.push(match v {
            0 => 0,
            v if from == to => v,
            v => {
                let ch = from.symbol(v);
                to.value(ch, puzzle.layout().size()).ok_or_else(|| {
                    at(format!(
                        "'{ch}' is not a symbol of this puzzle ({})",
                        to.describe(puzzle.layout().size())
                    ))
                })?
            }
        });
        let g = puzzle.values()[cell];
        let e = *values.last().expect("pushed");
        if g != 0 && e != 0 && g != e {
            return Err(at(format!(
                "{} holds the given {}; the entries write {} there \
                 (repeat the given, or write '.')",
                puzzle.layout().cell_name(cell),
                to.symbol(g),
                to.symbol(e)
            )));
        }
    }
    Ok(values)
}

/// The one puzzle of a parsed text; a batch is an error here.
fn single(doc: Document, file: &str) -> Result<Puzzle, ParseError> {
    match doc {
        Document::Single(p) => Ok(p),
        Document::Batch(_) => Err(ParseError {
            file: file.to_string(),
            line: 0,
            column: 0,
            message: "holds several puzzles; a puzzle with entries is one puzzle".into(),
        }),
    }
}

/// A cell where the reader saw a player's digit but could not read it for
/// sure: not an entry, so it counts among the cells to go, and a check says
/// so rather than pass over it.
#[derive(Clone, Debug, PartialEq)]
pub struct Unsure {
    /// The cell, an index of the layout.
    pub cell: usize,
    /// The likeliest digit, and the next likeliest.
    pub looks_like: u8,
    pub runner_up: u8,
    /// How sure the reading is, 0..=1.
    pub confidence: f32,
}

impl Unsure {
    /// One line for the player, `name` being the cell's name:
    /// `r3c4: a digit is written here that could not be read for sure (a 5, or a 3?)`.
    pub fn text(&self, name: &str) -> String {
        let a = |d: u8| {
            if d == 8 {
                "an 8".into()
            } else {
                format!("a {d}")
            }
        };
        format!(
            "{name}: a digit is written here that could not be read for sure ({}, or {}?)",
            a(self.looks_like),
            a(self.runner_up)
        )
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::grid::Alphabet;

    const GIVENS: &str = "\
53..7....
6..195...
.98....6.
8...6...3
4..8.3..1
7...2...6
.6....28.
...419..5
....8..79
";

    fn progress(text: &str) -> Progress {
        parse_progress(text, "t", None).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn entries_after_the_marker() {
        let text = format!(
            "{GIVENS}\nentries:\n..4......\n.72......\n{}",
            ".........\n".repeat(7)
        );
        let p = progress(&text);
        let l = p.puzzle().layout().clone();
        assert_eq!(p.puzzle().given_count(), 30);
        assert_eq!(p.entries().count(), 3);
        assert_eq!(p.entries().values()[l.cell_at(0, 2).unwrap()], 4);
        assert_eq!(p.entries().values()[l.cell_at(1, 1).unwrap()], 7);
        // Where each entry was written: line 13 is the second entries row.
        assert_eq!(
            p.describe_entry(l.cell_at(1, 2).unwrap()),
            "r2c3 (line 13, column 3)"
        );
        let cur = p.current();
        assert_eq!(cur[0], 5);
        assert_eq!(cur[2], 4);
    }

    #[test]
    fn text_round_trips_for_every_form() {
        let samurai = Layout::named("samurai").unwrap();
        let mut s = Puzzle::empty(Arc::new(samurai.clone()));
        s.set(0, 3);
        let mut e = vec![0u8; samurai.cell_count()];
        e[5] = 7;
        e[samurai.cell_count() - 1] = 9;
        let hex = Layout::square(16).unwrap();
        let hex_text = format!("0{}\n", ".".repeat(255));
        let hex_puzzle = single(parse(&hex_text, "t", None).unwrap(), "t").unwrap();
        assert_eq!(hex_puzzle.alphabet(), Alphabet::Hex);
        let mut he = vec![0u8; hex.cell_count()];
        he[1] = 16; // 'F'
        he[2] = 11; // 'A'
        for (puzzle, entries) in [
            (single(parse(GIVENS, "t", None).unwrap(), "t").unwrap(), {
                let mut v = vec![0u8; 81];
                v[2] = 4;
                v[80] = 9;
                v
            }),
            (s, e),
            (hex_puzzle, he),
        ] {
            let p = Progress::new(puzzle, Entries::from_values(entries)).unwrap();
            let text = p.to_text();
            let back = parse_progress(&text, "t", None).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.puzzle().values(), p.puzzle().values(), "{text}");
            assert_eq!(back.entries().values(), p.entries().values(), "{text}");
            assert_eq!(back.to_text(), text);
        }
    }

    #[test]
    fn a_puzzle_without_entries_is_givens_only() {
        let p = progress(GIVENS);
        assert!(p.entries().is_empty());
        assert_eq!(p.to_text(), GIVENS);
    }

    #[test]
    fn the_page_as_it_stands_repeats_its_givens() {
        // The entries grid may copy the givens: only new digits are entries.
        let mut rows: Vec<String> = GIVENS.lines().map(str::to_string).collect();
        rows[0].replace_range(2..3, "4");
        let text = format!("{GIVENS}entries:\n{}\n", rows.join("\n"));
        let p = progress(&text);
        assert_eq!(p.entries().count(), 1);
        assert_eq!(p.entries().values()[2], 4);
    }

    #[test]
    fn errors_name_line_and_column() {
        let bad_symbol = format!("{GIVENS}entries:\n..x......\n{}", ".........\n".repeat(8));
        let e = parse_progress(&bad_symbol, "f.txt", None).unwrap_err();
        assert_eq!((e.line, e.column), (11, 3), "{e}");
        assert!(e.message.contains("'x'"), "{e}");

        let on_given = format!("{GIVENS}entries:\n1........\n{}", ".........\n".repeat(8));
        let e = parse_progress(&on_given, "f.txt", None).unwrap_err();
        assert_eq!((e.line, e.column), (11, 1), "{e}");
        assert!(e.message.contains("r1c1 holds the given 5"), "{e}");

        let short = format!("{GIVENS}entries:\n.........\n{}", ".........\n".repeat(7));
        let e = parse_progress(&short, "f.txt", None).unwrap_err();
        assert!(e.line >= 11, "{e}");

        let twice = format!("{GIVENS}entries:\n{}entries:\n", ".........\n".repeat(9));
        let e = parse_progress(&twice, "f.txt", None).unwrap_err();
        assert_eq!(e.line, 20, "{e}");

        let nothing = format!("{GIVENS}entries:\n\n");
        let e = parse_progress(&nothing, "f.txt", None).unwrap_err();
        assert_eq!(e.line, 10, "{e}");
    }

    #[test]
    fn json_entries_beside_the_grid() {
        let rows: Vec<&str> = GIVENS.lines().collect();
        let mut entries = vec![".........".to_string(); 9];
        entries[0] = "..4......".into();
        let text =
            serde_json::json!({"layout": "classic", "grid": rows, "entries": entries}).to_string();
        let p = progress(&text);
        assert_eq!(p.entries().count(), 1);
        assert_eq!(p.entries().values()[2], 4);

        let mut bad = entries.clone();
        bad[0] = "1........".into();
        let text = serde_json::json!({"grid": rows, "entries": bad}).to_string();
        let e = parse_progress(&text, "f.json", None).unwrap_err();
        assert!(e.message.contains("r1c1 holds the given 5"), "{e}");
    }

    #[test]
    fn new_checks_lengths_and_values() {
        let puzzle = single(parse(GIVENS, "t", None).unwrap(), "t").unwrap();
        assert!(matches!(
            Progress::new(puzzle.clone(), Entries::from_values(vec![0; 80])),
            Err(EntriesError::Length { got: 80, .. })
        ));
        let mut v = vec![0u8; 81];
        v[2] = 10;
        assert!(matches!(
            Progress::new(puzzle, Entries::from_values(v)),
            Err(EntriesError::Value { value: 10, .. })
        ));
    }

    #[test]
    fn a_text_gives_entries_by_its_marker_line_or_json_key() {
        assert!(has_entries("53..7....\n\nEntries:\n..4......\n"));
        assert!(has_entries("\u{feff}x\n  entries:  \n"));
        assert!(!has_entries("53..7....\n# entries: none\n"));
        assert!(has_entries(r#"{"grid": [], "entries": []}"#));
        assert!(!has_entries(r#"{"grid": [], "note": "entries:"}"#));
        assert!(!has_entries("{ not json entries:"));
    }

    /// An f-puzzles grid (JSON or link) keeps the solver's own digits as
    /// values without `given`: they are the entries, the givens the puzzle.
    #[test]
    fn an_fpuzzles_grid_gives_the_solvers_values_as_entries() {
        let puzzle = single(parse(GIVENS, "t", None).unwrap(), "t").unwrap();
        let mut json = fpuzzles::to_fpuzzles(&puzzle, None).unwrap();
        // r1c3: the solver wrote a 4.
        json["grid"][0][2] = serde_json::json!({"value": 4});
        let text = json.to_string();
        assert!(has_entries(&text));
        let p = progress(&text);
        assert_eq!(p.entries().count(), 1);
        assert_eq!(p.entries().values()[2], 4);
        assert_eq!(p.puzzle().values(), puzzle.values());

        let link = format!(
            "{}{}",
            fpuzzles::LINK_PREFIX,
            fpuzzles::compress(&json.to_string())
        );
        assert!(has_entries(&link));
        let p = parse_progress(&link, "link", None).unwrap();
        assert_eq!(p.entries().values()[2], 4);

        // Without the solver's values: givens only, no entries.
        let plain = fpuzzles::to_link(&puzzle, None).unwrap();
        assert!(!has_entries(&plain));
        assert_eq!(
            parse_progress(&plain, "link", None)
                .unwrap()
                .entries()
                .count(),
            0
        );

        json["grid"][0][3] = serde_json::json!({"value": 12});
        let e = parse_progress(&json.to_string(), "p.json", None).unwrap_err();
        assert!(e.message.contains("grid[0][3] (R1C4)"), "{e}");
        assert!(e.message.contains("1-9, found 12"), "{e}");
    }
}
