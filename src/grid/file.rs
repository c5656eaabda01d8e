//! Reading a puzzle file: which format it is in (a JSON object, an
//! f-puzzles or SudokuPad link, or one of the text forms), and the variant
//! rules that may follow the puzzle.

use super::fpuzzles;
use super::json;
use super::layout::Layout;
use super::parse_error::ParseError;
use super::puzzle::{Puzzle, RULES_MARKER};
use super::rules::{Rule, check_rules};
use super::text::{self, Document};

/// Reads and parses a puzzle file ([`parse`]); a file that cannot be read is
/// an error naming it, at no line.
pub fn parse_file(path: &std::path::Path, layout: Option<&Layout>) -> Result<Document, ParseError> {
    let file = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text, &file, layout),
        Err(e) => Err(ParseError {
            file,
            line: 0,
            column: 0,
            message: format!("cannot read it: {e}"),
        }),
    }
}

/// Parses a puzzle text. `file` names the source in error messages; `layout`,
/// when given, forces the shape instead of detecting it.
///
/// A JSON object (this program's JSON form, [`super::json`], or an
/// f-puzzles object, [`super::fpuzzles`]) and an f-puzzles or SudokuPad link
/// are read too; `layout` does not apply to them, since they name their
/// shape.
pub fn parse(text: &str, file: &str, layout: Option<&Layout>) -> Result<Document, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let trimmed = text.trim();
    if trimmed.starts_with('{') {
        return parse_json(trimmed, file).map(Document::Single);
    }
    if fpuzzles::is_link(trimmed) {
        return fpuzzles::from_link(trimmed, file).map(Document::Single);
    }
    let lines: Vec<&str> = text.lines().collect();
    let err = |line: usize, column: usize, message: String| ParseError {
        file: file.to_string(),
        line,
        column,
        message,
    };
    if let Some(marker) = lines
        .iter()
        .position(|l| l.trim().eq_ignore_ascii_case(RULES_MARKER))
    {
        // The puzzle, then its variant rules one a line.
        let head: String = lines[..marker].iter().map(|l| format!("{l}\n")).collect();
        let puzzle = match parse(&head, file, layout)? {
            Document::Single(p) => p,
            Document::Batch(_) => {
                return Err(err(
                    marker + 1,
                    1,
                    "rules follow a single puzzle, not a batch of one-line puzzles".into(),
                ));
            }
        };
        let mut rules = Vec::new();
        // The line (from 0) and column (from 1) of each rule's first word.
        let mut source = Vec::new();
        for (i, raw) in lines.iter().enumerate().skip(marker + 1) {
            let t = raw.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let parsed = Rule::parse(raw, puzzle.layout()).map_err(|(col, msg)| {
                err(i + 1, raw[..col.min(raw.len())].chars().count() + 1, msg)
            })?;
            let column = raw.chars().take_while(|c| c.is_whitespace()).count() + 1;
            source.extend(std::iter::repeat_n((i, column), parsed.len()));
            rules.extend(parsed);
        }
        // Checked as the JSON and f-puzzles readers check them, so that a
        // puzzle read from text has those forms too.
        check_rules(puzzle.layout(), puzzle.values(), &rules).map_err(|e| {
            let (line, column) = e.rule.map_or((0, 0), |k| (source[k].0 + 1, source[k].1));
            err(line, column, e.message)
        })?;
        return Ok(Document::Single(puzzle.with_rules(rules)));
    }

    text::parse_text(text, file, layout)
}

/// A JSON puzzle: an f-puzzles object (it has `size`, or cells as objects)
/// or this program's JSON form.
fn parse_json(text: &str, file: &str) -> Result<Puzzle, ParseError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ParseError {
        file: file.to_string(),
        line: e.line(),
        column: e.column(),
        message: {
            // serde_json ends its messages with the place, given above.
            let m = e.to_string();
            let m = m.split(" at line ").next().unwrap_or_default().to_string();
            format!("not valid JSON: {m}")
        },
    })?;
    if fpuzzles::looks_like(&value) {
        fpuzzles::from_fpuzzles(&value, file)
    } else {
        json::from_json(&value, file)
    }
}
