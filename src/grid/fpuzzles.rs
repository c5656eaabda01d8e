//! The f-puzzles format, which f-puzzles.com and SudokuPad links carry:
//! a JSON object compressed with lz-string's `compressToBase64`, after
//! `?load=` in an f-puzzles link (`https://f-puzzles.com/?load=N4Ig...`) or
//! after `fpuzzles` in a SudokuPad link (`https://sudokupad.app/fpuzzlesN4Ig...`).
//!
//! What is read and written:
//!
//! - `size`: the grid is `size` x `size` (4, 6, 8, 9, 12, 16 or 25), with the
//!   boxes f-puzzles gives that size (as tall as the largest divisor of
//!   `size` up to its square root: 2x3 for 6, 3x4 for 12);
//! - `grid`: rows of cells; a cell with `"given": true` holds its `value` as
//!   a given; a `value` without `given` is the solver's own digit, read as
//!   a player's entry where entries are wanted ([`player_values`]: `check`,
//!   hints from where the player is) and left out of the puzzle; a cell's
//!   `region` (0-based) replaces its default box, which makes a jigsaw;
//! - `killercage`: `{"cells": ["R1C1", ...], "value": "12"}`, rows and
//!   columns from 1, the sum as a string;
//! - `solution` (written only): the solution's symbols, row by row;
//! - the variant rules ([`super::Rule`]), each under its f-puzzles key:
//!   `diagonal+`, `diagonal-`, `antiknight`, `antiking`, `nonconsecutive`,
//!   `disjointgroups` (true or false); `extraregion` (`cells`); `odd`,
//!   `even` (`cell`); `difference`, `ratio` (`cells`, an optional `value`),
//!   `xv` (`cells`, `value` "X" or "V"), `negative` (a list of `ratio`,
//!   `difference`, `xv`: every such mark is given); `thermometer`,
//!   `whispers`, `renban`, `palindrome`, `betweenline`, `regionsumline`
//!   (`lines`, each a list of cells); `arrow` (`cells`: the circle, `lines`
//!   from the circle); `littlekillersum` (`cell` outside the grid,
//!   `direction` UL/UR/DL/DR, `value`); `sandwichsum` (`cell` beside the
//!   grid, `value`); a `killercage` without a value is a cage whose digits
//!   differ. A comparison sign is written as a two-cell thermometer.
//!
//! Titles, rules text and drawings (`title`, `author`, `ruleset`, `text`,
//! `line`, `rectangle`, `circle`, `cage`, ...) are ignored. Any other
//! constraint (`clone`, `quadruple`, ...) is refused with an error naming
//! it, since solving without it would give wrong answers.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::cage::{Cage, check_cages};
use super::layout::{Layout, MAX_SIZE};
use super::parse_error::ParseError;
use super::puzzle::{Alphabet, Format, Puzzle};
use super::rules::{Diagonal, Direction, Mark, Rule, check_rules, default_gap};

/// Where f-puzzles links lead; a puzzle exported as a link opens there.
pub const LINK_PREFIX: &str = "https://f-puzzles.com/?load=";

/// Keys of an f-puzzles object that carry no rule the solver must know
/// (besides the variant rules' keys, [`RULE_KEYS`], read on their own).
const IGNORED: &[&str] = &[
    "size",
    "grid",
    "killercage",
    "title",
    "author",
    "ruleset",
    "solution",
    "highlightConflicts",
    "activeConstraints",
    "disabledlogic",
    "truecandidatesoptions",
    "text",
    "line",
    "rectangle",
    "circle",
    "cage",
];

/// The f-puzzles keys of the variant rules read, for messages.
const RULE_KEYS: &[&str] = &[
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "nonconsecutive",
    "disjointgroups",
    "extraregion",
    "odd",
    "even",
    "difference",
    "ratio",
    "xv",
    "negative",
    "thermometer",
    "arrow",
    "whispers",
    "renban",
    "palindrome",
    "betweenline",
    "regionsumline",
    "littlekillersum",
    "sandwichsum",
];

/// Whether `text` looks like an f-puzzles or SudokuPad link rather than a
/// puzzle file.
pub fn is_link(text: &str) -> bool {
    let t = text.trim();
    !t.contains('\n')
        && (t.contains("://")
            || t.starts_with("www.")
            || t.contains("f-puzzles.com")
            || t.contains("sudokupad.app")
            || t.contains("?load="))
}

/// Reads the puzzle an f-puzzles or SudokuPad link carries; `file` names
/// the source in errors.
pub fn from_link(link: &str, file: &str) -> Result<Puzzle, ParseError> {
    from_fpuzzles(&link_value(link, file)?, file)
}

/// The f-puzzles JSON object an f-puzzles or SudokuPad link carries.
pub fn link_value(link: &str, file: &str) -> Result<Value, ParseError> {
    let err = |message: String| ParseError {
        file: file.to_string(),
        line: 1,
        column: 0,
        message,
    };
    let link = link.trim();
    let data = if let Some(i) = link.find("load=") {
        &link[i + "load=".len()..]
    } else if let Some(i) = link.find("fpuzzles") {
        &link[i + "fpuzzles".len()..]
    } else {
        return Err(err(
            "this link carries no f-puzzles data: expected an f-puzzles link \
             (https://f-puzzles.com/?load=...) or a SudokuPad link to an f-puzzles puzzle \
             (https://sudokupad.app/fpuzzles...)"
                .into(),
        ));
    };
    let data = data.split(['&', '#']).next().unwrap_or_default();
    let data = percent_decode(data).replace(' ', "+");
    let json = decompress(&data).ok_or_else(|| {
        err(format!(
            "the link's data ({} characters) is not lz-string compressed base64; \
             was the link cut short?",
            data.len()
        ))
    })?;
    serde_json::from_str(&json)
        .map_err(|e| err(format!("the link's data is not an f-puzzles puzzle: {e}")))
}

/// Whether a JSON object is an f-puzzles puzzle (a `size`, or `grid` rows of
/// cell objects) rather than this program's JSON form (`grid` rows of
/// text).
pub fn looks_like(value: &Value) -> bool {
    value.get("size").is_some()
        || value
            .get("grid")
            .and_then(|g| g.get(0))
            .is_some_and(Value::is_array)
}

/// The solver's own digits in an f-puzzles puzzle: each cell's `value`
/// where the cell is not a given, 0 elsewhere, one per cell in reading
/// order. Call it on an object [`from_fpuzzles`] accepted (the grid's shape
/// is checked there); a value outside 1-`size` is an error naming its cell.
pub fn player_values(value: &Value, file: &str) -> Result<Vec<u8>, ParseError> {
    let err = |message: String| ParseError {
        file: file.to_string(),
        line: 0,
        column: 0,
        message,
    };
    let size = grid_size(value.get("size")).map_err(err)?;
    let rows = value
        .get("grid")
        .and_then(Value::as_array)
        .ok_or_else(|| err("no \"grid\": expected rows of cells".into()))?;
    let mut values = vec![0u8; size * size];
    for (r, row) in rows.iter().enumerate().take(size) {
        let Some(cells) = row.as_array() else {
            continue;
        };
        for (c, cell) in cells.iter().enumerate().take(size) {
            let given = cell.get("given").and_then(Value::as_bool).unwrap_or(false);
            let Some(v) = cell.get("value").filter(|_| !given) else {
                continue;
            };
            values[r * size + c] = v
                .as_u64()
                .filter(|&v| v >= 1 && v as usize <= size)
                .ok_or_else(|| {
                    err(format!(
                        "grid[{r}][{c}] (R{}C{}): the player's value must be 1-{size}, found {v}",
                        r + 1,
                        c + 1
                    ))
                })? as u8;
        }
    }
    Ok(values)
}

/// The JSON text that an lz-string `compressToBase64` string holds.
pub fn decompress(data: &str) -> Option<String> {
    if data.is_empty() {
        return None;
    }
    let wide = lz_str::decompress_from_base64(data)?;
    let text = String::from_utf16(&wide).ok()?;
    (!text.is_empty()).then_some(text)
}

/// `text` compressed as lz-string's JavaScript `compressToBase64` does,
/// padding included (`=` to a multiple of 4 characters).
pub fn compress(text: &str) -> String {
    let mut out = lz_str::compress_to_base64(text);
    // lz-str pads with one `=` more than the JavaScript library (four
    // after 4n + 1 characters); pad as the library does.
    let len = out.trim_end_matches('=').len();
    out.truncate(len);
    out.extend(std::iter::repeat_n('=', (4 - len % 4) % 4));
    out
}

/// `%2B` and the like decoded; other text unchanged.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && bytes[i + 1].is_ascii_hexdigit()
            && bytes[i + 2].is_ascii_hexdigit()
            && let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The smallest grid read: the smallest square sudoku. A 1 x 1, 2 x 2 or
/// 3 x 3 region grid is no puzzle, and the text form has no shape to write
/// one in, so it would not read back.
const MIN_SIZE: u64 = 4;

/// The grid's side from its `size` (9 when there is none), checked before
/// anything is made that size: a side past [`MAX_SIZE`] is refused at
/// once, whatever it would cost, and one under [`MIN_SIZE`] too.
fn grid_size(size: Option<&Value>) -> Result<usize, String> {
    let Some(v) = size else { return Ok(9) };
    let n = v
        .as_u64()
        .ok_or_else(|| format!("size: expected a whole number, found {v}"))?;
    if !(MIN_SIZE..=MAX_SIZE as u64).contains(&n) {
        return Err(format!(
            "size {n} is not a grid size sudoku-lens reads ({MIN_SIZE} to {MAX_SIZE}; sudokus are 4, 6, 8, 9, 12, 16 or 25)"
        ));
    }
    Ok(n as usize)
}

/// Box height and width f-puzzles gives a `size` x `size` grid.
pub fn box_shape(size: usize) -> (usize, usize) {
    let mut h = (size as f64).sqrt().floor() as usize;
    while h > 1 && !size.is_multiple_of(h) {
        h -= 1;
    }
    let h = h.max(1);
    (h, size / h)
}

/// Reads an f-puzzles JSON object (see the module documentation).
pub fn from_fpuzzles(value: &Value, file: &str) -> Result<Puzzle, ParseError> {
    let err = |message: String| ParseError {
        file: file.to_string(),
        line: 0,
        column: 0,
        message,
    };
    let obj = value
        .as_object()
        .ok_or_else(|| err("expected an f-puzzles JSON object".into()))?;
    refuse_other_rules(obj).map_err(err)?;
    let size = grid_size(obj.get("size")).map_err(err)?;
    let rows = obj
        .get("grid")
        .and_then(Value::as_array)
        .ok_or_else(|| err("no \"grid\": expected rows of cells".into()))?;
    if rows.len() != size {
        return Err(err(format!(
            "grid has {} rows; a puzzle of size {size} has {size}",
            rows.len()
        )));
    }
    let (bh, bw) = box_shape(size);
    let mut values = vec![0u8; size * size];
    let mut regions = vec![0usize; size * size];
    let mut jigsaw = false;
    for (r, row) in rows.iter().enumerate() {
        let cells = row
            .as_array()
            .filter(|c| c.len() == size)
            .ok_or_else(|| err(format!("grid[{r}]: expected {size} cells")))?;
        for (c, cell) in cells.iter().enumerate() {
            let at = || format!("grid[{r}][{c}] (R{}C{})", r + 1, c + 1);
            let given = cell.get("given").and_then(Value::as_bool).unwrap_or(false);
            if given {
                let v = cell
                    .get("value")
                    .and_then(Value::as_u64)
                    .filter(|&v| v >= 1 && v as usize <= size)
                    .ok_or_else(|| err(format!("{}: a given needs a value 1-{size}", at())))?;
                values[r * size + c] = v as u8;
            }
            let default = (r / bh) * bh + c / bw;
            regions[r * size + c] = match cell.get("region") {
                None => default,
                Some(Value::Null) => {
                    return Err(err(format!(
                        "{}: a cell outside every region is not supported",
                        at()
                    )));
                }
                Some(v) => {
                    let region = v
                        .as_u64()
                        .map(|x| x as usize)
                        .filter(|&x| x < size)
                        .ok_or_else(|| err(format!("{}: region must be 0-{}", at(), size - 1)))?;
                    jigsaw |= region != default;
                    region
                }
            };
        }
    }
    let layout = if jigsaw {
        Layout::jigsaw(size, &regions).map_err(|e| err(format!("regions: {e}")))?
    } else if (bh, bw) == square_box(size) {
        Layout::square(size).map_err(|e| err(format!("size: {e}")))?
    } else {
        // Boxes shaped otherwise than this program's default for the size.
        Layout::jigsaw(size, &regions).map_err(|e| err(format!("regions: {e}")))?
    };
    let format = if layout.regions().is_empty() {
        Format::Rows { pretty: false }
    } else {
        Format::Jigsaw
    };
    let alphabet = Alphabet::Digits;
    let layout = Arc::new(layout);
    let puzzle = Puzzle::from_parts(layout.clone(), values, alphabet, format, Vec::new());
    let (cages, mut rules) = read_cages(obj, size).map_err(err)?;
    rules.extend(read_rules(obj, &layout).map_err(err)?);
    check_rules(&layout, puzzle.values(), &rules).map_err(|e| err(e.message))?;
    let puzzle = puzzle.with_rules(rules);
    if cages.is_empty() {
        return Ok(puzzle);
    }
    check_cages(&layout, puzzle.values(), &cages, &|i| {
        format!("killercage[{i}]")
    })
    .map_err(|e| err(e.message))?;
    puzzle.with_cages(cages).map_err(|e| err(e.message))
}

/// A list of `R1C1` cells of a `size` x `size` grid as cell indices;
/// `at` names the list in errors.
fn cells_at(list: &Value, size: usize, at: &str) -> Result<Vec<u32>, String> {
    let list = list
        .as_array()
        .ok_or_else(|| format!("{at}: expected a list of cells [\"R1C1\", ...]"))?;
    list.iter()
        .enumerate()
        .map(|(j, rc)| {
            rc.as_str()
                .and_then(parse_rc)
                .filter(|&(r, c)| r < size && c < size)
                .map(|(r, c)| (r * size + c) as u32)
                .ok_or_else(|| {
                    format!("{at}[{j}]: expected \"R1C1\" to \"R{size}C{size}\", found {rc}")
                })
        })
        .collect()
}

/// A place that may lie outside the grid (`R0C3`, `R10C4`), zero-based.
fn place_at(v: Option<&Value>, at: &str) -> Result<(i32, i32), String> {
    v.and_then(Value::as_str)
        .and_then(super::rules::parse_place)
        .ok_or_else(|| format!("{at}: expected a place such as \"R0C3\""))
}

/// A number given as a string or a number.
fn number_at(v: Option<&Value>, at: &str) -> Result<u32, String> {
    match v {
        Some(Value::String(s)) => s.trim().parse::<u32>().ok(),
        Some(Value::Number(n)) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
        _ => None,
    }
    .ok_or_else(|| format!("{at}: expected a whole number"))
}

/// The entries of a key that holds a list of objects (none when absent).
fn entries<'a>(obj: &'a Map<String, Value>, key: &str) -> Result<&'a [Value], String> {
    match obj.get(key) {
        None | Some(Value::Null) | Some(Value::Bool(false)) => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(_) => Err(format!("{key}: expected a list")),
    }
}

/// The lines of an entry (`"lines": [[cells], ...]`).
fn lines_of(entry: &Value, size: usize, at: &str) -> Result<Vec<Vec<u32>>, String> {
    let lines = entry
        .get("lines")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{at}: expected \"lines\": [[\"R1C1\", ...]]"))?;
    lines
        .iter()
        .enumerate()
        .map(|(j, l)| cells_at(l, size, &format!("{at}.lines[{j}]")))
        .collect()
}

/// Reads the variant rules of an f-puzzles object (the keys listed in the
/// module documentation).
fn read_rules(obj: &Map<String, Value>, layout: &Layout) -> Result<Vec<Rule>, String> {
    let size = layout.size();
    let mut rules = Vec::new();
    read_flags(obj, &mut rules);
    read_cell_rules(obj, size, &mut rules)?;
    read_marks(obj, size, &mut rules)?;
    read_lines(obj, size, &mut rules)?;
    read_clues(obj, &mut rules)?;
    Ok(rules)
}

/// The rules over the whole grid, each a flag set to true.
fn read_flags(obj: &Map<String, Value>, rules: &mut Vec<Rule>) {
    let flag = |key: &str| obj.get(key).and_then(Value::as_bool).unwrap_or(false);
    for (key, rule) in [
        ("diagonal+", Rule::Diagonal(Diagonal::Anti)),
        ("diagonal-", Rule::Diagonal(Diagonal::Main)),
        ("antiknight", Rule::AntiKnight),
        ("antiking", Rule::AntiKing),
        ("nonconsecutive", Rule::NonConsecutive),
        ("disjointgroups", Rule::DisjointGroups),
    ] {
        if flag(key) {
            rules.push(rule);
        }
    }
}

/// Extra regions, odd cells and even cells, on a grid of `size` symbols.
fn read_cell_rules(
    obj: &Map<String, Value>,
    size: usize,
    rules: &mut Vec<Rule>,
) -> Result<(), String> {
    for (i, e) in entries(obj, "extraregion")?.iter().enumerate() {
        let at = format!("extraregion[{i}].cells");
        rules.push(Rule::Region(cells_at(
            e.get("cells").unwrap_or(&Value::Null),
            size,
            &at,
        )?));
    }
    for key in ["odd", "even"] {
        for (i, e) in entries(obj, key)?.iter().enumerate() {
            let at = format!("{key}[{i}].cell");
            let cell = cells_at(
                &Value::Array(vec![e.get("cell").cloned().unwrap_or(Value::Null)]),
                size,
                &at,
            )?[0];
            rules.push(if key == "odd" {
                Rule::Odd(cell)
            } else {
                Rule::Even(cell)
            });
        }
    }
    Ok(())
}

/// The two cells of a mark `e` (`at` names it in errors).
fn pair_at(e: &Value, size: usize, at: &str) -> Result<[u32; 2], String> {
    let cells = cells_at(e.get("cells").unwrap_or(&Value::Null), size, at)?;
    <[u32; 2]>::try_from(cells).map_err(|c| format!("{at}: expected two cells, found {}", c.len()))
}

/// Marks between two cells (white and black dots, X and V) and the marks
/// given all ("negative").
fn read_marks(obj: &Map<String, Value>, size: usize, rules: &mut Vec<Rule>) -> Result<(), String> {
    for key in ["difference", "ratio"] {
        for (i, e) in entries(obj, key)?.iter().enumerate() {
            let at = format!("{key}[{i}]");
            let cells = pair_at(e, size, &format!("{at}.cells"))?;
            let value = match e.get("value") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) if s.trim().is_empty() => None,
                v => Some(number_at(v, &format!("{at}.value"))?),
            };
            rules.push(if key == "difference" {
                Rule::Difference {
                    cells,
                    value: value.unwrap_or(1),
                }
            } else {
                Rule::Ratio {
                    cells,
                    value: value.unwrap_or(2),
                }
            });
        }
    }
    for (i, e) in entries(obj, "xv")?.iter().enumerate() {
        let at = format!("xv[{i}]");
        let cells = pair_at(e, size, &format!("{at}.cells"))?;
        let sum = match e.get("value").and_then(Value::as_str).map(str::trim) {
            Some("X") | Some("x") => 10,
            Some("V") | Some("v") => 5,
            _ => return Err(format!("{at}.value: expected \"X\" or \"V\"")),
        };
        rules.push(Rule::Xv { cells, sum });
    }
    for (i, m) in entries(obj, "negative")?.iter().enumerate() {
        rules.push(Rule::AllGiven(match m.as_str() {
            Some("difference") => Mark::Difference,
            Some("ratio") => Mark::Ratio,
            Some("xv") => Mark::Xv,
            _ => {
                return Err(format!(
                    "negative[{i}]: {m} is not a constraint whose absence sudoku-lens knows \
                     (difference, ratio, xv)"
                ));
            }
        }));
    }
    Ok(())
}

/// Lines: thermometers, renban, palindromes, between lines, region sum
/// lines, whispers and arrows.
fn read_lines(obj: &Map<String, Value>, size: usize, rules: &mut Vec<Rule>) -> Result<(), String> {
    for (key, make) in [
        (
            "thermometer",
            (|c| Rule::Thermometer(c)) as fn(Vec<u32>) -> Rule,
        ),
        ("renban", Rule::Renban),
        ("palindrome", Rule::Palindrome),
        ("betweenline", Rule::Between),
        ("regionsumline", Rule::RegionSum),
    ] {
        for (i, e) in entries(obj, key)?.iter().enumerate() {
            for line in lines_of(e, size, &format!("{key}[{i}]"))? {
                rules.push(make(line));
            }
        }
    }
    for (i, e) in entries(obj, "whispers")?.iter().enumerate() {
        let at = format!("whispers[{i}]");
        let gap = match e.get("value") {
            None | Some(Value::Null) => default_gap(size),
            Some(Value::String(s)) if s.trim().is_empty() => default_gap(size),
            v => number_at(v, &format!("{at}.value"))?,
        };
        for cells in lines_of(e, size, &at)? {
            rules.push(Rule::Whispers { cells, gap });
        }
    }
    for (i, e) in entries(obj, "arrow")?.iter().enumerate() {
        let at = format!("arrow[{i}]");
        let circle = cells_at(
            e.get("cells").unwrap_or(&Value::Null),
            size,
            &format!("{at}.cells"),
        )?;
        if circle.is_empty() {
            return Err(format!("{at}: an arrow needs its circle's cells"));
        }
        // Each line starts in the circle; the cells after it are summed.
        let mut line = Vec::new();
        for l in lines_of(e, size, &at)? {
            for c in l {
                if !circle.contains(&c) && !line.contains(&c) {
                    line.push(c);
                }
            }
        }
        if line.is_empty() {
            return Err(format!("{at}: an arrow needs a line leaving its circle"));
        }
        rules.push(Rule::Arrow { circle, line });
    }
    Ok(())
}

/// Clues outside the grid: little killers and sandwiches (a clue with no
/// value yet is skipped).
fn read_clues(obj: &Map<String, Value>, rules: &mut Vec<Rule>) -> Result<(), String> {
    for (i, e) in entries(obj, "littlekillersum")?.iter().enumerate() {
        let at = format!("littlekillersum[{i}]");
        let clue = place_at(e.get("cell"), &format!("{at}.cell"))?;
        let direction = e
            .get("direction")
            .and_then(Value::as_str)
            .and_then(Direction::from_word)
            .ok_or_else(|| format!("{at}.direction: expected UL, UR, DL or DR"))?;
        let sum = match e.get("value") {
            // A clue with no value yet, as f-puzzles saves one being drawn.
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) if s.trim().is_empty() => continue,
            v => number_at(v, &format!("{at}.value"))?,
        };
        rules.push(Rule::LittleKiller {
            clue,
            direction,
            sum,
        });
    }
    for (i, e) in entries(obj, "sandwichsum")?.iter().enumerate() {
        let at = format!("sandwichsum[{i}]");
        let clue = place_at(e.get("cell"), &format!("{at}.cell"))?;
        let sum = match e.get("value") {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) if s.trim().is_empty() => continue,
            v => number_at(v, &format!("{at}.value"))?,
        };
        rules.push(Rule::Sandwich { clue, sum });
    }
    Ok(())
}

/// The variant rules as f-puzzles keys, added to `out`.
fn write_rules(puzzle: &Puzzle, out: &mut Value) {
    let layout = puzzle.layout();
    let rc = |c: u32| {
        let (r, c) = layout.position(c as usize);
        format!("R{}C{}", r + 1, c + 1)
    };
    let list = |cells: &[u32]| cells.iter().map(|&c| rc(c)).collect::<Vec<_>>();
    let place = |(r, c): (i32, i32)| format!("R{}C{}", r + 1, c + 1);
    let mut push = |key: &str, v: Value| match out.get_mut(key).and_then(Value::as_array_mut) {
        Some(a) => a.push(v),
        None => out[key] = Value::Array(vec![v]),
    };
    let mut flags = Vec::new();
    for rule in puzzle.rules() {
        match rule {
            Rule::Diagonal(Diagonal::Anti) => flags.push("diagonal+"),
            Rule::Diagonal(Diagonal::Main) => flags.push("diagonal-"),
            Rule::AntiKnight => flags.push("antiknight"),
            Rule::AntiKing => flags.push("antiking"),
            Rule::NonConsecutive => flags.push("nonconsecutive"),
            Rule::DisjointGroups => flags.push("disjointgroups"),
            Rule::Region(c) => push("extraregion", json!({ "cells": list(c) })),
            Rule::Distinct(c) => push("killercage", json!({ "cells": list(c) })),
            Rule::Odd(c) => push("odd", json!({ "cell": rc(*c) })),
            Rule::Even(c) => push("even", json!({ "cell": rc(*c) })),
            Rule::Difference { cells, value: 1 } => {
                push("difference", json!({ "cells": list(cells) }))
            }
            Rule::Difference { cells, value } => push(
                "difference",
                json!({ "cells": list(cells), "value": value.to_string() }),
            ),
            Rule::Ratio { cells, value: 2 } => push("ratio", json!({ "cells": list(cells) })),
            Rule::Ratio { cells, value } => push(
                "ratio",
                json!({ "cells": list(cells), "value": value.to_string() }),
            ),
            Rule::Xv { cells, sum } => push(
                "xv",
                json!({ "cells": list(cells), "value": if *sum == 5 { "V" } else { "X" } }),
            ),
            Rule::Less { cells } => push("thermometer", json!({ "lines": [list(cells)] })),
            Rule::AllGiven(m) => push(
                "negative",
                json!(match m {
                    Mark::Difference => "difference",
                    Mark::Ratio => "ratio",
                    Mark::Xv => "xv",
                }),
            ),
            Rule::Thermometer(c) => push("thermometer", json!({ "lines": [list(c)] })),
            Rule::Renban(c) => push("renban", json!({ "lines": [list(c)] })),
            Rule::Palindrome(c) => push("palindrome", json!({ "lines": [list(c)] })),
            Rule::Between(c) => push("betweenline", json!({ "lines": [list(c)] })),
            Rule::RegionSum(c) => push("regionsumline", json!({ "lines": [list(c)] })),
            Rule::Whispers { cells, gap } => {
                let mut e = json!({ "lines": [list(cells)] });
                if *gap != default_gap(layout.size()) {
                    e["value"] = json!(gap.to_string());
                }
                push("whispers", e)
            }
            Rule::Arrow { circle, line } => {
                let mut first = vec![*circle.last().expect("a circle has cells")];
                first.extend(line);
                push(
                    "arrow",
                    json!({ "cells": list(circle), "lines": [list(&first)] }),
                )
            }
            Rule::LittleKiller {
                clue,
                direction,
                sum,
            } => push(
                "littlekillersum",
                json!({
                    "cell": place(*clue),
                    "cells": list(&rule.cells(layout)),
                    "direction": direction.word().to_ascii_uppercase(),
                    "value": sum.to_string(),
                }),
            ),
            Rule::Sandwich { clue, sum } => push(
                "sandwichsum",
                json!({ "cell": place(*clue), "value": sum.to_string() }),
            ),
        }
    }
    for f in flags {
        out[f] = json!(true);
    }
}

/// The box of this program's square layout of `size`, if it has one.
fn square_box(size: usize) -> (usize, usize) {
    Layout::square(size)
        .ok()
        .and_then(|l| l.box_shape())
        .unwrap_or((0, 0))
}

fn refuse_other_rules(obj: &Map<String, Value>) -> Result<(), String> {
    for (key, value) in obj {
        if IGNORED.contains(&key.as_str()) || RULE_KEYS.contains(&key.as_str()) {
            continue;
        }
        let empty = match value {
            Value::Null | Value::Bool(false) => true,
            Value::Array(a) => a.is_empty(),
            Value::String(s) => s.is_empty(),
            _ => false,
        };
        if !empty {
            return Err(format!(
                "the puzzle has a \"{key}\" constraint, which sudoku-lens does not solve \
                 (it solves givens, boxes or jigsaw regions, killer cages and the variant \
                 rules {})",
                RULE_KEYS.join(", ")
            ));
        }
    }
    Ok(())
}

/// The cages with a sum, and those without one as rules (their digits
/// differ).
fn read_cages(obj: &Map<String, Value>, size: usize) -> Result<(Vec<Cage>, Vec<Rule>), String> {
    let Some(list) = obj.get("killercage") else {
        return Ok((Vec::new(), Vec::new()));
    };
    let mut distinct = Vec::new();
    let list = list
        .as_array()
        .ok_or("killercage: expected an array of cages")?;
    let mut cages = Vec::with_capacity(list.len());
    for (i, cage) in list.iter().enumerate() {
        let cells = cage
            .get("cells")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("killercage[{i}]: expected \"cells\": [\"R1C1\", ...]"))?;
        let mut ids = Vec::with_capacity(cells.len());
        for (j, rc) in cells.iter().enumerate() {
            let (r, c) = rc
                .as_str()
                .and_then(parse_rc)
                .filter(|&(r, c)| r < size && c < size)
                .ok_or_else(|| {
                    format!(
                        "killercage[{i}].cells[{j}]: expected \"R1C1\" to \"R{size}C{size}\", \
                         found {rc}"
                    )
                })?;
            ids.push((r * size + c) as u32);
        }
        let sum = match cage.get("value") {
            Some(Value::String(s)) if !s.trim().is_empty() => s.trim().parse::<u32>().ok(),
            Some(Value::Number(n)) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
            None | Some(Value::Null) => {
                distinct.push(Rule::Distinct(ids));
                continue;
            }
            Some(Value::String(s)) if s.trim().is_empty() => {
                distinct.push(Rule::Distinct(ids));
                continue;
            }
            Some(v) => {
                return Err(format!(
                    "killercage[{i}] (cells {}): the sum {v} is not a whole number",
                    cell_list(cells)
                ));
            }
        }
        .ok_or_else(|| format!("killercage[{i}]: the sum must be a whole number"))?;
        cages.push(Cage::new(sum, ids));
    }
    Ok((cages, distinct))
}

fn cell_list(cells: &[Value]) -> String {
    cells
        .iter()
        .map(|c| c.as_str().unwrap_or("?").to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `R3C12` as zero-based (row, column).
fn parse_rc(s: &str) -> Option<(usize, usize)> {
    let rest = s.trim().strip_prefix(['R', 'r'])?;
    let (r, c) = rest.split_once(['C', 'c'])?;
    let (r, c) = (r.parse::<usize>().ok()?, c.parse::<usize>().ok()?);
    (r >= 1 && c >= 1).then(|| (r - 1, c - 1))
}

/// The puzzle as an f-puzzles JSON object, with `solution` when given.
/// Only single square grids (with boxes or jigsaw regions) have an
/// f-puzzles form.
pub fn to_fpuzzles(puzzle: &Puzzle, solution: Option<&[u8]>) -> Result<Value, String> {
    to_fpuzzles_with(puzzle, None, solution)
}

/// [`to_fpuzzles`], with a player's `entries` (one value per cell, 0 where
/// nothing is written) as values without `given`, as f-puzzles keeps a
/// solver's own digits: the player goes on from where they were.
pub fn to_fpuzzles_with(
    puzzle: &Puzzle,
    entries: Option<&[u8]>,
    solution: Option<&[u8]>,
) -> Result<Value, String> {
    let layout = puzzle.layout();
    let size = layout.size();
    if !layout.is_single_square() {
        return Err(format!(
            "a {} puzzle has no f-puzzles form: f-puzzles holds single square grids",
            layout.name()
        ));
    }
    let (bh, bw) = box_shape(size);
    let region_of = |cell: usize| -> usize {
        if layout.regions().is_empty() {
            // Rectangular boxes: the box's number in reading order.
            let (r, c) = layout.position(cell);
            let (h, w) = layout.box_shape().unwrap_or((bh, bw));
            (r / h) * (size / w) + c / w
        } else {
            layout.regions()[cell] as usize
        }
    };
    let grid: Vec<Vec<Value>> = (0..size)
        .map(|r| {
            (0..size)
                .map(|c| {
                    let cell = layout.cell_at(r, c).expect("a full square grid");
                    let mut obj = Map::new();
                    let default = (r / bh) * bh + c / bw;
                    let region = region_of(cell);
                    if region != default || !layout.regions().is_empty() {
                        obj.insert("region".into(), json!(region));
                    }
                    let v = puzzle.values()[cell];
                    let entry = entries.and_then(|e| e.get(cell)).copied().unwrap_or(0);
                    if v != 0 {
                        obj.insert("value".into(), json!(v));
                        obj.insert("given".into(), json!(true));
                    } else if entry != 0 {
                        obj.insert("value".into(), json!(entry));
                    }
                    Value::Object(obj)
                })
                .collect()
        })
        .collect();
    let mut out = json!({ "size": size, "grid": grid });
    if !puzzle.cages().is_empty() {
        let cages: Vec<Value> = puzzle
            .cages()
            .iter()
            .map(|cage| {
                let cells: Vec<String> = cage
                    .cells
                    .iter()
                    .map(|&c| {
                        let (r, c) = layout.position(c as usize);
                        format!("R{}C{}", r + 1, c + 1)
                    })
                    .collect();
                json!({ "cells": cells, "value": cage.sum.to_string() })
            })
            .collect();
        out["killercage"] = Value::Array(cages);
    }
    write_rules(puzzle, &mut out);
    if let Some(sol) = solution {
        out["solution"] = json!(sol);
    }
    Ok(out)
}

/// An f-puzzles link to the puzzle (with its solution, when given, which
/// lets f-puzzles and SudokuPad check a player's answer).
pub fn to_link(puzzle: &Puzzle, solution: Option<&[u8]>) -> Result<String, String> {
    to_link_with(puzzle, None, solution)
}

/// [`to_link`], with a player's entries (see [`to_fpuzzles_with`]).
pub fn to_link_with(
    puzzle: &Puzzle,
    entries: Option<&[u8]>,
    solution: Option<&[u8]>,
) -> Result<String, String> {
    let json = to_fpuzzles_with(puzzle, entries, solution)?;
    Ok(format!("{LINK_PREFIX}{}", compress(&json.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Document, parse};

    /// A killer-cage-only puzzle (17 cages, not every cell caged, no
    /// givens) as an f-puzzles link, from the test suite of
    /// dclamage/SudokuSolver (`SudokuTests/SumConstraintTests.cs`), where it
    /// has one solution.
    const REAL_LINK: &str = "https://www.f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSSzKLryBdZQmq8l54+x1p7rjtn/nQaCR3PgIm9hk0UM6zR4rssX0QAawgAbLTAwBjAIZo48QiH0wdYfCABKARgDCDkKkdOATG/ueXPuz9vNQA3Qy0AV1MQBwAOEAoLKy0bM3tnAGYA5wAWbKcAVgC/ItDwqIQQTzzEy2tbDwA2Yqdmssjootrk1Lx0pwB2fPj2ivgY7276tI9EFrnR6Icu0iTpvrsMwYCtkdQwjsrmqZSGraz3LbzLwoCcpwv7AoeQRcrPVxPe+y3Xd3u/k9/O5nsF9uVop4sl8Go1gfY4WCQAcxiAVqA6qcZgN4XZYv43uMHJNVpjvnZELjKUiUUt0WssRscY88S9CSBjqSeg0cUV3PjrvZ8Xz7JS8uyHEMYTN7s0Qa0AnDBXY4SKVQr2Z4SRjuTKnPF/k45vKhvK9siIe8AAwJLnrBHbdxwg32HFy12OoUa8GHcaeTk6+12HHGr2himeiMuiMLH2ozzxIhqQz6AAuEBCMCcAHsAHZgVMYQwQXOp74AaW0ugwAAInMY4LQiEA==";

    fn sample(name: &str) -> Puzzle {
        let path = format!("{}/samples/puzzles/{name}", env!("CARGO_MANIFEST_DIR"));
        match parse(&std::fs::read_to_string(path).unwrap(), name, None).unwrap() {
            Document::Single(p) => p,
            Document::Batch(_) => panic!("{name} is one puzzle"),
        }
    }

    /// Outputs of the JavaScript library (lz-string 1.5.0, `compressToBase64`),
    /// padding included: "ab" has 5 characters of data and 3 of padding.
    #[test]
    fn compression_matches_the_javascript_library() {
        for (text, js) in [
            ("hello, i am a 猫", "BYUwNmD2A0AECWsCGBbZtDUzkA=="),
            ("a", "IZA="),
            ("ab", "IYIyA==="),
            ("abcd", "IYIwxgJkA==="),
            ("{\"size\":9}", "N4IgzglgXgpiBcBOAvkA"),
        ] {
            assert_eq!(compress(text), js, "{text}");
            assert_eq!(decompress(js).as_deref(), Some(text));
        }
        assert_eq!(decompress("not base64 at all!"), None);
        assert_eq!(decompress(""), None);
    }

    #[test]
    fn a_size_past_the_largest_grid_is_refused_before_anything_is_made() {
        // 2^32 squared wraps to 0 in 64 bits; 100000 squared is 10 GB.
        // A 1 x 1 read, but its text did not read back.
        for size in [
            "4294967296",
            "100000",
            "26",
            "0",
            "1",
            "3",
            "18446744073709551615",
        ] {
            let text = format!(r#"{{"size":{size},"grid":[[{{"value":1}}]]}}"#);
            let e = parse(&text, "big.json", None).unwrap_err();
            assert!(
                e.message
                    .contains(&format!("size {size} is not a grid size")),
                "{size}: {e}"
            );
            let value: Value = serde_json::from_str(&text).unwrap();
            assert!(player_values(&value, "big.json").is_err(), "{size}");
        }
        let e = parse(r#"{"size":"nine","grid":[]}"#, "s.json", None).unwrap_err();
        assert!(e.message.contains("size: expected a whole number"), "{e}");
    }

    #[test]
    fn a_link_made_by_f_puzzles_reads() {
        let p = from_link(REAL_LINK, "link").unwrap();
        assert_eq!(p.kind(), "killer");
        assert_eq!(p.given_count(), 0);
        assert_eq!(p.cages().len(), 17);
        assert_eq!(p.cages()[0].sum, 18);
        assert_eq!(p.cages()[0].cells, vec![0, 1, 9, 10], "R1C1 R1C2 R2C1 R2C2");
        let caged: usize = p.cages().iter().map(|c| c.cells.len()).sum();
        assert!(caged < 81, "not every cell is caged");
        let out = crate::solve::solve(&p, 2, 1).unwrap();
        assert_eq!(out.count, 1);
        // The same data behind SudokuPad's prefix, and percent-encoded.
        let data = REAL_LINK.split("load=").nth(1).unwrap();
        let pad = from_link(&format!("https://sudokupad.app/fpuzzles{data}"), "pad").unwrap();
        assert_eq!(pad.cages(), p.cages());
        let encoded = data
            .replace('+', "%2B")
            .replace('/', "%2F")
            .replace('=', "%3D");
        let enc = from_link(&format!("https://f-puzzles.com/?load={encoded}"), "enc").unwrap();
        assert_eq!(enc.cages(), p.cages());
    }

    /// Export, then import: the same layout, givens and cages, for a
    /// killer, a jigsaw, and the other square sizes.
    #[test]
    fn export_then_import_gives_the_same_puzzle() {
        for name in [
            "killer.txt",
            "jigsaw.txt",
            "4by4.txt",
            "6by6.txt",
            "12by12.txt",
            "16by16.txt",
        ] {
            let p = sample(name);
            let solution = crate::solve::solve(&p, 1, 1).unwrap().solutions.pop();
            let link = to_link(&p, solution.as_deref()).unwrap();
            assert!(link.starts_with(LINK_PREFIX), "{name}");
            let back = from_link(&link, name).unwrap();
            assert_eq!(back.layout(), p.layout(), "{name}");
            assert_eq!(back.values(), p.values(), "{name}");
            assert_eq!(back.cages(), p.cages(), "{name}");
            let json: Value =
                serde_json::from_str(&decompress(link.split("load=").nth(1).unwrap()).unwrap())
                    .unwrap();
            assert_eq!(json["size"], json!(p.layout().size()), "{name}");
            let cells = json["solution"].as_array().unwrap().len();
            assert_eq!(cells, p.layout().cell_count(), "{name}");
        }
        let killer = to_fpuzzles(&sample("killer.txt"), None).unwrap();
        assert_eq!(
            killer["killercage"][0],
            json!({"cells": ["R1C1", "R1C2", "R1C3"], "value": "12"})
        );
        assert!(killer.get("solution").is_none());
    }

    #[test]
    fn what_cannot_be_read_or_written_says_why() {
        let e = to_link(&sample("samurai.txt"), None).unwrap_err();
        assert_eq!(
            e,
            "a samurai puzzle has no f-puzzles form: f-puzzles holds single square grids"
        );
        let grid = json!(vec![vec![json!({}); 4]; 4]);
        let read = |v: Value| from_fpuzzles(&v, "f.json").map(|_| ()).unwrap_err().message;
        let e = read(json!({"size": 4, "grid": grid, "clone": [{"cells": ["R1C1"]}]}));
        assert!(
            e.starts_with(
                "the puzzle has a \"clone\" constraint, which sudoku-lens does not solve \
                 (it solves givens, boxes or jigsaw regions, killer cages and the variant rules \
                 diagonal+,"
            ),
            "{e}"
        );
        // A cage without a sum is a rule: its digits differ.
        let sumless = json!({"size": 4, "grid": grid, "killercage": [{"cells": ["R1C1", "R1C2"]}]});
        let p = from_fpuzzles(&sumless, "f.json").unwrap();
        assert!(p.cages().is_empty());
        assert_eq!(p.rules(), [crate::grid::Rule::Distinct(vec![0, 1])]);
        assert_eq!(
            read(
                json!({"size": 4, "grid": grid, "killercage": [{"cells": ["R1C1", "R5C2"], "value": "3"}]})
            ),
            "killercage[0].cells[1]: expected \"R1C1\" to \"R4C4\", found \"R5C2\""
        );
        assert_eq!(
            read(
                json!({"size": 4, "grid": grid, "killercage": [{"cells": ["R1C1", "R1C2"], "value": "9"}]})
            ),
            "killercage[0] has the sum 9, which its 2 cells cannot make: 2 different symbols \
             of 1-4 add up to 3-7"
        );
        assert_eq!(
            read(json!({"size": 4, "grid": [[{}]]})),
            "grid has 1 rows; a puzzle of size 4 has 4"
        );
        let e = from_link("https://f-puzzles.com/?load=@@@@", "l").unwrap_err();
        assert_eq!(
            e.to_string(),
            "l:1: the link's data (4 characters) is not lz-string compressed base64; was the link cut short?"
        );
        let e = from_link("https://sudokupad.app/abc123", "l").unwrap_err();
        assert!(
            e.message.starts_with("this link carries no f-puzzles data"),
            "{e}"
        );
    }
}
