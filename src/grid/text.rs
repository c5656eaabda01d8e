//! Text formats: one-line puzzles, batches of them, grids of rows (plain or
//! pretty-printed with `| - +` separators), canvases for multi-grid shapes
//! (`#` or a space outside the shape), jigsaws, and killers. (A JSON object,
//! an f-puzzles link and the rules after a puzzle are [`super::parse`]'s.)
//!
//! A jigsaw is its grid's rows, a blank line, and as many rows of region
//! labels (any character per cell; the cells of one label form a region).
//!
//! A killer is its grid, a blank line, the cage map, a blank line, and the
//! sums:
//!
//! ```text
//! .........      the grid in any of the forms above (here all empty:
//! .........      the usual killer has no givens), or on one line;
//! ...            a jigsaw killer has its region map after a blank line
//!
//! aabbbcdde      the cage map: one label per cell, with the grid's shape
//! aa..bc..e      (a canvas keeps its columns and its `#` or spaces outside;
//! ...            the rows of a single grid may space their labels); `.` is
//!                a cell in no cage. A label is any other character but
//!                `#`, `=`, `,` and whitespace; the cells of one label are
//!                one cage, connected or not.
//!
//! a=18 b=24, c=5 label=sum pairs, any number to a line, whitespace or
//! d=12           commas between them: one per label, none for another.
//! ```
//!
//! Cages may cover every cell (the usual killer: the sums then add up to
//! the layout's total, 405 for 9x9) or only some. The cages are checked as
//! [`super::check_cages`] does, with every error at a line and column: the
//! label's `label=sum`, or the given that breaks its cage. [`Puzzle::to_text`]
//! writes the same form, labels `a`-`z`, `A`-`Z`, `0`-`9` (then letters
//! beyond ASCII) in reading order of the cages' first cells, as many sums
//! to a line as the grid is wide.

use std::collections::HashMap;
use std::sync::Arc;

use super::cage::{Cage, CageError, CageErrorKind, check_cages};
use super::layout::{Layout, MAX_SIZE};
use super::parse_error::ParseError;
use super::puzzle::{Alphabet, Format, Puzzle, cell_value, describe_char};

/// One line of a batch file.
#[derive(Clone, Debug)]
pub enum Entry {
    /// A puzzle line (one-based line number) and what it parsed to.
    Puzzle {
        line: usize,
        text: String,
        puzzle: Result<Puzzle, ParseError>,
    },
    /// A comment or blank line, kept so output lines match input lines.
    Other(String),
}

/// What a text file holds.
#[derive(Clone, Debug)]
pub enum Document {
    Single(Puzzle),
    Batch(Vec<Entry>),
}

impl Document {
    /// Every puzzle it holds, in order: the one of a single puzzle, or each
    /// puzzle line of a batch (comments and blank lines skipped). The first
    /// line that did not parse is the error.
    pub fn into_puzzles(self) -> Result<Vec<Puzzle>, ParseError> {
        match self {
            Document::Single(p) => Ok(vec![p]),
            Document::Batch(entries) => entries
                .into_iter()
                .filter_map(|e| match e {
                    Entry::Puzzle { puzzle, .. } => Some(puzzle),
                    Entry::Other(_) => None,
                })
                .collect(),
        }
    }
}

/// Parses a puzzle in one of the text formats above (`text` holds no JSON,
/// link or rules: [`super::parse`] takes those first).
pub(super) fn parse_text(
    text: &str,
    file: &str,
    layout: Option<&Layout>,
) -> Result<Document, ParseError> {
    let lines: Vec<&str> = text.lines().collect();
    let err = |line: usize, column: usize, message: String| ParseError {
        file: file.to_string(),
        line,
        column,
        message,
    };
    let content: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].trim().is_empty())
        .collect();
    if content.is_empty() {
        return Err(err(0, 0, "the file holds no puzzle".into()));
    }
    let puzzle_lines: Vec<usize> = content
        .iter()
        .copied()
        .filter(|&i| !lines[i].trim_start().starts_with('#'))
        .collect();

    if is_line_format(&lines, &puzzle_lines, layout) {
        let entries = BatchLines::new(file, layout).parse(lines.iter().copied(), 0);
        if puzzle_lines.len() == 1 {
            let Some(Entry::Puzzle { puzzle, .. }) = entries
                .into_iter()
                .find(|e| matches!(e, Entry::Puzzle { .. }))
            else {
                unreachable!("one puzzle line was counted")
            };
            return puzzle.map(Document::Single);
        }
        return Ok(Document::Batch(entries));
    }

    // A block: the whole file is one puzzle, as rows or as a canvas.
    let first = content[0];
    let last = *content.last().unwrap();
    let block: Vec<(usize, &str)> = (first..=last).map(|i| (i, lines[i])).collect();
    parse_block(&block, layout)
        .map(Document::Single)
        .map_err(|(line, col, msg)| err(line, col, msg))
}

/// Reads the lines of a batch, one puzzle a line (`#` lines and blank ones
/// kept as they are), a part at a time: a batch of millions of lines is read
/// and solved in parts, its memory bounded by the part. The layouts met are
/// kept from part to part, so puzzles of one shape share one layout.
pub struct BatchLines<'a> {
    file: &'a str,
    forced: bool,
    layouts: HashMap<usize, Arc<Layout>>,
}

impl<'a> BatchLines<'a> {
    /// A reader of the batch `file`, all of `layout` when one is given.
    pub fn new(file: &'a str, layout: Option<&Layout>) -> BatchLines<'a> {
        let mut layouts = HashMap::new();
        if let Some(l) = layout {
            layouts.insert(l.cell_count(), Arc::new(l.clone()));
        }
        BatchLines {
            file,
            forced: layout.is_some(),
            layouts,
        }
    }

    /// The entries of `lines`, the first of them line `before + 1` of the
    /// file (errors and entries name the file's own line numbers).
    pub fn parse<'t>(&mut self, lines: impl Iterator<Item = &'t str>, before: usize) -> Vec<Entry> {
        let mut entries = Vec::with_capacity(lines.size_hint().0);
        for (i, raw) in lines.enumerate() {
            let line = before + i + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                entries.push(Entry::Other(raw.to_string()));
                continue;
            }
            let lead = raw.chars().take_while(|c| c.is_whitespace()).count();
            let puzzle = parse_line(trimmed, &mut self.layouts, self.forced)
                .map_err(|(col, msg)| ParseError {
                    file: self.file.to_string(),
                    line,
                    column: lead + col,
                    message: msg,
                })
                .map(|mut p| {
                    for o in &mut p.origin {
                        *o = (line as u32, o.1 + lead as u32);
                    }
                    p
                });
            entries.push(Entry::Puzzle {
                line,
                text: trimmed.to_string(),
                puzzle,
            });
        }
        entries
    }
}

/// Sizes of square layouts by their one-line length.
fn square_size_for_length(len: usize) -> Option<usize> {
    Layout::square_sizes().find(|n| n * n == len)
}

fn is_line_format(lines: &[&str], puzzle_lines: &[usize], layout: Option<&Layout>) -> bool {
    if puzzle_lines.is_empty() {
        return false;
    }
    let lens: Vec<usize> = puzzle_lines
        .iter()
        .map(|&i| lines[i].trim().chars().count())
        .collect();
    let no_inner_space = puzzle_lines
        .iter()
        .all(|&i| !lines[i].trim().contains(char::is_whitespace));
    if let Some(l) = layout {
        // With a forced layout, a line holding every cell is a one-line puzzle.
        return no_inner_space && lens.iter().any(|&n| n == l.cell_count() && n != l.width());
    }
    if !no_inner_space {
        return false;
    }
    let n = lens.len();
    // 16 lines of 16 symbols is a 16x16 grid, not a batch of 16 4x4 puzzles.
    if lens.iter().all(|&len| len == n) && square_size_for_length(n).is_some() && n == 16 {
        return false;
    }
    if n == 1 {
        return lens[0] >= 16 && square_size_for_length(lens[0]).is_some() || lens[0] > MAX_SIZE;
    }
    // A batch: most lines have the length of a one-line puzzle. Lines of
    // another length are reported one by one rather than rejecting the file.
    let typical = lens
        .iter()
        .filter(|&&len| square_size_for_length(len).is_some() && len >= 16);
    typical.count() * 2 > n
}

/// Parses one line holding every cell of a square layout in reading order.
/// Errors carry a one-based column.
fn parse_line(
    text: &str,
    layouts: &mut HashMap<usize, Arc<Layout>>,
    forced: bool,
) -> Result<Puzzle, (usize, String)> {
    let chars: Vec<char> = text.chars().collect();
    let layout = match layouts.get(&chars.len()) {
        Some(l) => l.clone(),
        None if forced => {
            let (&want, l) = layouts.iter().next().expect("forced layout is registered");
            return Err((
                0,
                format!(
                    "{} characters on this line; a one-line {} puzzle has {want}",
                    chars.len(),
                    l.name()
                ),
            ));
        }
        None => {
            let Some(size) = square_size_for_length(chars.len()) else {
                let others: Vec<String> = Layout::square_sizes()
                    .filter(|&n| n != 9)
                    .map(|n| (n * n).to_string())
                    .collect();
                let (last, rest) = others.split_last().expect("square sizes besides 9");
                return Err((
                    0,
                    format!(
                        "{} characters on this line; a one-line puzzle has 81 (9x9), \
                         or {} or {last} for other sizes",
                        chars.len(),
                        rest.join(", ")
                    ),
                ));
            };
            let l = Arc::new(Layout::square(size).expect("known size"));
            layouts.insert(chars.len(), l.clone());
            l
        }
    };
    let alphabet = Alphabet::detect(layout.size(), chars.iter().copied());
    let mut values = Vec::with_capacity(chars.len());
    let mut origin = Vec::with_capacity(chars.len());
    for (i, &ch) in chars.iter().enumerate() {
        values.push(cell_value(ch, alphabet, layout.size()).map_err(|m| (i + 1, m))?);
        origin.push((0, i as u32 + 1));
    }
    Ok(Puzzle::from_parts(
        layout,
        values,
        alphabet,
        Format::Line,
        origin,
    ))
}

const SEPARATORS: &[char] = &['|', '-', '+', '=', ':', '!', '*'];

/// A character of a block, with its one-based line and column.
type Placed = (char, usize, usize);

/// What is wrong in a block, at a one-based line and column.
type BlockError = (usize, usize, String);

/// A `label=sum` pair: the label, the sum, and the label's line and column.
type SumEntry = (char, u32, usize, usize);

fn parse_block(
    block: &[(usize, &str)],
    forced: Option<&Layout>,
) -> Result<Puzzle, (usize, usize, String)> {
    if let Some(p) = parse_killer(block, forced)? {
        return Ok(p);
    }
    if let Some(p) = parse_jigsaw(block)? {
        return Ok(p);
    }
    // Rows as written, with `#` and spaces kept (canvas reading).
    let canvas: Vec<Vec<Placed>> = block
        .iter()
        .map(|&(i, s)| {
            s.trim_end()
                .chars()
                .enumerate()
                .map(|(j, c)| (c, i + 1, j + 1))
                .collect()
        })
        .collect();
    // Rows with spaces and box separators removed (pretty-printed grids), and
    // lines that held only separators dropped.
    let stripped: Vec<Vec<Placed>> = canvas
        .iter()
        .map(|row| {
            row.iter()
                .copied()
                .filter(|&(c, _, _)| !c.is_whitespace() && !SEPARATORS.contains(&c))
                .collect::<Vec<_>>()
        })
        .filter(|row| !row.is_empty())
        .collect();
    let had_separators = canvas
        .iter()
        .flatten()
        .any(|&(c, _, _)| SEPARATORS.contains(&c) || c == ' ');
    let has_hash = canvas.iter().flatten().any(|&(c, _, _)| c == '#');

    if let Some(layout) = forced {
        return if layout.is_full() {
            fill_rows(layout, &stripped, had_separators)
        } else {
            fill_canvas(layout, &canvas)
        };
    }

    let n = stripped.len();
    if !has_hash && stripped.iter().all(|r| r.len() == n) {
        // Shapes that fill an n x n canvas (a 12x12 grid, or a butterfly of
        // four 9x9 grids): the one with the fewest symbols that reads them all.
        let mut full: Vec<Layout> = Layout::builtin_with_canvas(n, n)
            .into_iter()
            .filter(Layout::is_full)
            .collect();
        full.sort_by_key(Layout::size);
        let mut last_err = None;
        for layout in &full {
            match fill_rows(layout, &stripped, had_separators) {
                Ok(p) => return Ok(p),
                Err(e) => last_err = Some(e),
            }
        }
        if let Some(e) = last_err {
            return Err(e);
        }
    }
    if !has_hash {
        // Maybe a square grid with a wrong row: say which row.
        if let Some(size) = [9usize, 4, 6, 12, 16, 25].into_iter().find(|&s| s == n) {
            let (i, row) = stripped
                .iter()
                .enumerate()
                .find(|(_, r)| r.len() != size)
                .expect("a row differs");
            let (line, col) = row.last().map_or((block[0].0 + 1, 0), |&(_, l, c)| (l, c));
            return Err((
                line,
                col,
                format!(
                    "row {} has {} cells; each row of a {size}x{size} grid has {size}",
                    i + 1,
                    row.len()
                ),
            ));
        }
    }
    detect_canvas(&canvas, block)
}

/// Characters that cannot label a cage: `.` marks a cell in no cage, `#` is
/// outside a canvas shape, and `=` and `,` write the sums.
const NOT_LABELS: &[char] = &['.', '#', '=', ','];

/// A killer: the grid (any block form, or one line), a blank line, the
/// cage map, a blank line, then the `label=sum` pairs. Returns `None` when
/// the block does not end in a part with `=` after at least two others.
fn parse_killer(
    block: &[(usize, &str)],
    forced: Option<&Layout>,
) -> Result<Option<Puzzle>, (usize, usize, String)> {
    let parts = non_blank_parts(block);
    let Some(&(sums_from, sums_to)) = parts.last() else {
        return Ok(None);
    };
    if parts.len() < 3
        || !block[sums_from..sums_to]
            .iter()
            .any(|(_, s)| s.contains('='))
    {
        return Ok(None);
    }
    let (map_from, map_to) = parts[parts.len() - 2];
    let grid_part = &block[parts[0].0..parts[parts.len() - 3].1];
    let puzzle = killer_grid(grid_part, forced)?;
    let labels = read_cage_map(puzzle.layout(), &block[map_from..map_to])?;
    let sums = read_sums(&block[sums_from..sums_to])?;
    let layout = puzzle.layout().clone();
    let mut map = CageMap::new(&labels);
    let cages = map.with_sums(&sums, &layout)?;
    if let Some(&(label, _, line, col)) = sums.iter().find(|s| !map.order.contains(&s.0)) {
        return Err((
            line,
            col,
            format!("'{label}' labels no cell of the cage map"),
        ));
    }
    let name = |i: usize| format!("cage '{}'", map.order[i]);
    if let Err(e) = check_cages(&layout, puzzle.values(), &cages, &name) {
        let (line, col) = cage_error_place(&e, &puzzle, &map.sum_at, (block[sums_from].0 + 1, 0));
        return Err((line, col, e.message));
    }
    let puzzle = puzzle
        .with_cages(cages)
        .map_err(|e| (block[map_from].0 + 1, 0, e.message))?;
    Ok(Some(puzzle))
}

/// The parts of a block: runs of non-blank lines, as ranges of `block`.
fn non_blank_parts(block: &[(usize, &str)]) -> Vec<(usize, usize)> {
    let mut parts: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, (_, s)) in block.iter().enumerate() {
        match (s.trim().is_empty(), start) {
            (false, None) => start = Some(i),
            (true, Some(a)) => {
                parts.push((a, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(a) = start {
        parts.push((a, block.len()));
    }
    parts
}

/// A killer's grid: any block form, or the whole grid on one line.
fn killer_grid(grid_part: &[(usize, &str)], forced: Option<&Layout>) -> Result<Puzzle, BlockError> {
    let [(i, line)] = grid_part else {
        return parse_block(grid_part, forced);
    };
    let trimmed = line.trim();
    let lead = line.chars().take_while(|c| c.is_whitespace()).count();
    let mut layouts = HashMap::new();
    if let Some(l) = forced {
        layouts.insert(l.cell_count(), Arc::new(l.clone()));
    }
    let mut p = parse_line(trimmed, &mut layouts, forced.is_some())
        .map_err(|(col, msg)| (i + 1, lead + col, msg))?;
    for o in &mut p.origin {
        *o = (*i as u32 + 1, o.1 + lead as u32);
    }
    Ok(p)
}

/// The cages of a cage map, in order of their label's first appearance.
struct CageMap {
    /// Each cage's label.
    order: Vec<char>,
    /// The first cell each label marks, with its line and column.
    first_at: Vec<(usize, usize, usize)>,
    /// The cells of each cage.
    cells: Vec<Vec<u32>>,
    /// The line and column of each cage's sum, once read.
    sum_at: Vec<(usize, usize)>,
}

impl CageMap {
    fn new(labels: &[Option<Placed>]) -> CageMap {
        let mut map = CageMap {
            order: Vec::new(),
            first_at: Vec::new(),
            cells: Vec::new(),
            sum_at: Vec::new(),
        };
        for (cell, place) in labels.iter().enumerate() {
            let Some((label, line, col)) = *place else {
                continue;
            };
            let k = match map.order.iter().position(|&l| l == label) {
                Some(k) => k,
                None => {
                    map.order.push(label);
                    map.first_at.push((cell, line, col));
                    map.cells.push(Vec::new());
                    map.order.len() - 1
                }
            };
            map.cells[k].push(cell as u32);
        }
        map
    }

    /// The cages with their sums (the cells move into them, the places of
    /// the sums into `sum_at`); a cage with no sum is an error.
    fn with_sums(&mut self, sums: &[SumEntry], layout: &Layout) -> Result<Vec<Cage>, BlockError> {
        let mut cages = Vec::with_capacity(self.order.len());
        self.sum_at = Vec::with_capacity(self.order.len());
        for (k, &label) in self.order.iter().enumerate() {
            let Some(&(_, sum, line, col)) = sums.iter().find(|s| s.0 == label) else {
                let (cell, line, col) = self.first_at[k];
                return Err((
                    line,
                    col,
                    format!(
                        "cage '{label}' (first at {}) has no sum: add {label}=N after the cage map",
                        layout.cell_name(cell)
                    ),
                ));
            };
            cages.push(Cage::new(sum, std::mem::take(&mut self.cells[k])));
            self.sum_at.push((line, col));
        }
        Ok(cages)
    }
}

/// Where a cage error points: the given at fault, else the sum of the
/// cage at fault, else `otherwise` (the start of the sums).
fn cage_error_place(
    e: &CageError,
    puzzle: &Puzzle,
    sum_at: &[(usize, usize)],
    otherwise: (usize, usize),
) -> (usize, usize) {
    match (e.kind, e.cage, e.cell) {
        (CageErrorKind::RepeatedGiven | CageErrorKind::GivenNotAllowed, _, Some(cell)) => {
            let (line, col) = puzzle.origin()[cell];
            (line as usize, col as usize)
        }
        (_, Some(k), _) => sum_at[k],
        _ => otherwise,
    }
}

/// The cage label (and its line and column) of each cell, `None` for `.`.
/// Rows of a full grid may space their labels; a canvas keeps its columns,
/// with a space or `#` outside the shape.
fn read_cage_map(
    layout: &Layout,
    part: &[(usize, &str)],
) -> Result<Vec<Option<Placed>>, BlockError> {
    let rows: Vec<Vec<Placed>> = part
        .iter()
        .map(|&(i, s)| {
            s.trim_end()
                .chars()
                .enumerate()
                .filter(|(_, c)| !layout.is_full() || !c.is_whitespace())
                .map(|(j, c)| (c, i + 1, j + 1))
                .collect()
        })
        .collect();
    let last_line = part.last().map_or(1, |p| p.0 + 1);
    if rows.len() != layout.height() {
        return Err((
            last_line,
            0,
            format!(
                "the cage map has {} rows; a {} puzzle has {}, one label per cell",
                rows.len(),
                layout.name(),
                layout.height()
            ),
        ));
    }
    let mut labels = vec![None; layout.cell_count()];
    for (r, row) in rows.iter().enumerate() {
        let line = part[r].0 + 1;
        if row.len() > layout.width() {
            let (_, line, col) = row[layout.width()];
            return Err((
                line,
                col,
                format!(
                    "this cage map row is longer than the {} grid ({} columns)",
                    layout.name(),
                    layout.width()
                ),
            ));
        }
        for c in 0..layout.width() {
            match (layout.cell_at(r, c), row.get(c).copied()) {
                (Some(cell), None) => {
                    return Err((
                        line,
                        row.len() + 1,
                        format!(
                            "the cage map row ends before {}: give every cell a label, or '.' for no cage",
                            layout.cell_name(cell)
                        ),
                    ));
                }
                (Some(cell), Some((ch, line, col))) => {
                    if ch == '.' {
                        continue;
                    }
                    if ch.is_whitespace() || NOT_LABELS.contains(&ch) {
                        return Err((
                            line,
                            col,
                            format!(
                                "{} cannot label a cage ({}); use a letter, a digit or '.' for no cage",
                                describe_char(ch),
                                layout.cell_name(cell)
                            ),
                        ));
                    }
                    labels[cell] = Some((ch, line, col));
                }
                (None, Some((ch, line, col))) if ch != ' ' && ch != '#' => {
                    return Err((
                        line,
                        col,
                        format!(
                            "expected '#' or a space (outside the {} shape) in the cage map,                              found {}",
                            layout.name(),
                            describe_char(ch)
                        ),
                    ));
                }
                (None, _) => {}
            }
        }
    }
    Ok(labels)
}

/// The `label=sum` pairs (whitespace or commas between them): label, sum,
/// and the line and column of the label.
fn read_sums(part: &[(usize, &str)]) -> Result<Vec<SumEntry>, BlockError> {
    let mut out: Vec<SumEntry> = Vec::new();
    for &(i, s) in part {
        let chars: Vec<char> = s.chars().collect();
        let mut j = 0;
        while j < chars.len() {
            if chars[j].is_whitespace() || chars[j] == ',' {
                j += 1;
                continue;
            }
            let start = j;
            while j < chars.len() && !chars[j].is_whitespace() && chars[j] != ',' {
                j += 1;
            }
            let token: String = chars[start..j].iter().collect();
            let (line, col) = (i + 1, start + 1);
            let mut it = token.chars();
            let label = it.next().expect("a token has a character");
            let rest: String = it.collect();
            let Some(digits) = rest.strip_prefix('=') else {
                return Err((
                    line,
                    col,
                    format!("expected label=sum (like a=12), found \"{token}\""),
                ));
            };
            let sum = digits.parse::<u32>().map_err(|_| {
                (
                    line,
                    col + 2,
                    format!("the sum of cage '{label}' must be a whole number, found \"{digits}\""),
                )
            })?;
            if let Some(&(_, _, l, c)) = out.iter().find(|o| o.0 == label) {
                return Err((
                    line,
                    col,
                    format!(
                        "cage '{label}' has a second sum (the first is at line {l}, column {c})"
                    ),
                ));
            }
            out.push((label, sum, line, col));
        }
    }
    Ok(out)
}

/// A jigsaw: the grid's rows, a blank line, then as many rows of region
/// labels (any characters; each label marks the cells of one region). Returns
/// `None` when the block is not shaped like that.
fn parse_jigsaw(block: &[(usize, &str)]) -> Result<Option<Puzzle>, (usize, usize, String)> {
    let Some(gap) = block.iter().position(|(_, s)| s.trim().is_empty()) else {
        return Ok(None);
    };
    let placed = |part: &[(usize, &str)]| -> Vec<Vec<Placed>> {
        part.iter()
            .map(|&(i, s)| {
                s.chars()
                    .enumerate()
                    .filter(|(_, c)| !c.is_whitespace())
                    .map(|(j, c)| (c, i + 1, j + 1))
                    .collect::<Vec<_>>()
            })
            .filter(|r| !r.is_empty())
            .collect()
    };
    let grid = placed(&block[..gap]);
    let map = placed(&block[gap..]);
    let n = grid.len();
    let square = |rows: &[Vec<Placed>]| rows.len() == n && rows.iter().all(|r| r.len() == n);
    if !(square(&grid) && square(&map)) || square_size_for_length(n * n).is_none() {
        return Ok(None);
    }
    let mut labels: Vec<char> = Vec::new();
    let mut ids = Vec::with_capacity(n * n);
    for &(ch, line, col) in map.iter().flatten() {
        let id = labels.iter().position(|&l| l == ch).unwrap_or_else(|| {
            labels.push(ch);
            labels.len() - 1
        });
        if id >= n {
            return Err((
                line,
                col,
                format!(
                    "a {n}x{n} jigsaw has {n} regions; '{ch}' is region {}",
                    id + 1
                ),
            ));
        }
        ids.push(id);
    }
    let first_line = map[0][0].1;
    let layout =
        Layout::jigsaw(n, &ids).map_err(|e| (first_line, 0, format!("region map: {e}")))?;
    let p = fill_rows(&layout, &grid, false)?;
    Ok(Some(p))
}

/// Chooses the built-in shape whose cells are exactly the non-`#`, non-space
/// positions of the canvas.
fn detect_canvas(
    canvas: &[Vec<Placed>],
    block: &[(usize, &str)],
) -> Result<Puzzle, (usize, usize, String)> {
    let height = canvas.len();
    let width = canvas.iter().map(Vec::len).max().unwrap_or(0);
    let candidates = Layout::builtin_with_canvas(height, width.max(height));
    let mut best: Option<(usize, (usize, usize, String))> = None;
    for layout in &candidates {
        match fill_canvas(layout, canvas) {
            Ok(p) => return Ok(p),
            Err(e) => {
                // Prefer the shape whose first mismatch comes latest.
                let key = e.0 * 10_000 + e.1;
                if best.as_ref().is_none_or(|(k, _)| key > *k) {
                    best = Some((key, e));
                }
            }
        }
    }
    if let Some((_, e)) = best {
        return Err(e);
    }
    Err((
        block[0].0 + 1,
        0,
        format!(
            "{height} rows of up to {width} characters match no known shape: expected one line \
             of 81 characters, 9 rows of 9, or a canvas of a multi-grid shape (samurai 21x21, \
             twodoku 15x15, butterfly 12x12, flower 15x15, sohei 21x21); name the shape with \
             --layout"
        ),
    ))
}

fn fill_rows(
    layout: &Layout,
    rows: &[Vec<Placed>],
    pretty: bool,
) -> Result<Puzzle, (usize, usize, String)> {
    let n = layout.width();
    let last_line = rows.last().and_then(|r| r.last()).map_or(1, |p| p.1);
    if rows.len() != layout.height() {
        return Err((
            last_line,
            0,
            format!(
                "{} rows of cells; a {} puzzle has {}",
                rows.len(),
                layout.name(),
                layout.height()
            ),
        ));
    }
    let alphabet = Alphabet::detect(layout.size(), rows.iter().flatten().map(|p| p.0));
    let mut values = vec![0u8; layout.cell_count()];
    let mut origin = vec![(0u32, 0u32); layout.cell_count()];
    for (r, row) in rows.iter().enumerate() {
        if row.len() != n {
            let (line, col) = row.last().map_or((last_line, 0), |p| (p.1, p.2));
            return Err((
                line,
                col,
                format!(
                    "{} cells on this row; a {} row has {n}",
                    row.len(),
                    layout.name()
                ),
            ));
        }
        for (c, &(ch, line, col)) in row.iter().enumerate() {
            let cell = layout.cell_at(r, c).expect("full layout");
            values[cell] = cell_value(ch, alphabet, layout.size()).map_err(|m| (line, col, m))?;
            origin[cell] = (line as u32, col as u32);
        }
    }
    let format = if layout.regions().is_empty() {
        Format::Rows { pretty }
    } else {
        Format::Jigsaw
    };
    Ok(Puzzle::from_parts(
        Arc::new(layout.clone()),
        values,
        alphabet,
        format,
        origin,
    ))
}

fn fill_canvas(layout: &Layout, canvas: &[Vec<Placed>]) -> Result<Puzzle, (usize, usize, String)> {
    let last_line = canvas.last().and_then(|r| r.first()).map_or(1, |p| p.1);
    if canvas.len() != layout.height() {
        return Err((
            last_line,
            0,
            format!(
                "{} rows; a {} canvas has {} rows of {}",
                canvas.len(),
                layout.name(),
                layout.height(),
                layout.width()
            ),
        ));
    }
    let alphabet = Alphabet::detect(layout.size(), canvas.iter().flatten().map(|p| p.0));
    let mut values = vec![0u8; layout.cell_count()];
    let mut origin = vec![(0u32, 0u32); layout.cell_count()];
    let mut outside = None;
    for (r, row) in canvas.iter().enumerate() {
        if row.len() > layout.width() {
            let (_, line, col) = row[layout.width()];
            return Err((
                line,
                col,
                format!(
                    "this row is longer than the {} canvas ({} columns)",
                    layout.name(),
                    layout.width()
                ),
            ));
        }
        for c in 0..layout.width() {
            let placed = row.get(c).copied();
            match (layout.cell_at(r, c), placed) {
                (Some(cell), Some((ch, line, col))) => {
                    if ch == '#' || ch == ' ' {
                        return Err((
                            line,
                            col,
                            format!(
                                "{} is outside the {} shape, but {} is one of its cells",
                                describe_char(ch),
                                layout.name(),
                                layout.cell_name(cell)
                            ),
                        ));
                    }
                    values[cell] =
                        cell_value(ch, alphabet, layout.size()).map_err(|m| (line, col, m))?;
                    origin[cell] = (line as u32, col as u32);
                }
                (Some(cell), None) => {
                    let line = row.first().map_or(last_line, |p| p.1);
                    return Err((
                        line,
                        row.len() + 1,
                        format!(
                            "the row ends before {}, a cell of the {} shape",
                            layout.cell_name(cell),
                            layout.name()
                        ),
                    ));
                }
                (None, Some((ch, line, col))) => {
                    if ch != '#' && ch != ' ' {
                        return Err((
                            line,
                            col,
                            format!(
                                "expected '#' or a space (outside the {} shape), found {}",
                                layout.name(),
                                describe_char(ch)
                            ),
                        ));
                    }
                    outside.get_or_insert(ch);
                }
                (None, None) => {}
            }
        }
    }
    let format = if layout.is_full() {
        Format::Rows { pretty: false }
    } else {
        Format::Canvas {
            outside: outside.unwrap_or('#'),
        }
    };
    Ok(Puzzle::from_parts(
        Arc::new(layout.clone()),
        values,
        alphabet,
        format,
        origin,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cage, parse, parse_file};

    const LINE: &str =
        "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....";

    fn single(text: &str) -> Puzzle {
        match parse(text, "t.txt", None).unwrap() {
            Document::Single(p) => p,
            Document::Batch(_) => panic!("expected a single puzzle"),
        }
    }

    #[test]
    fn one_line_puzzle() {
        let p = single(&format!("{LINE}\n"));
        assert_eq!(p.layout().name(), "classic");
        assert_eq!(p.values()[2], 3);
        assert_eq!(p.to_text(), format!("{LINE}\n"));
    }

    #[test]
    fn an_8x8_reads_from_one_line_and_from_rows() {
        let line = "1.3.5.7.".repeat(8);
        let p = single(&format!("{line}\n"));
        assert_eq!(p.layout().name(), "8x8");
        assert_eq!(p.values()[4], 5);
        let rows: String = line
            .as_bytes()
            .chunks(8)
            .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
            .collect();
        let p = single(&rows);
        assert_eq!(p.layout().name(), "8x8");
        assert_eq!(p.values()[4], 5);
    }

    #[test]
    fn a_batch_gives_its_puzzles_in_order_and_its_first_bad_line() {
        let other = LINE.replacen("..3", "4.3", 1);
        let text = format!("# three\n{LINE}\n{other}\n{LINE}\n");
        let ps = parse(&text, "b.txt", None).unwrap().into_puzzles().unwrap();
        let firsts: Vec<u8> = ps.iter().map(|p| p.values()[0]).collect();
        assert_eq!(firsts, [0, 4, 0]);
        let bad = format!("{LINE}\n{}\n{LINE}\n", &LINE[..80]);
        let e = parse(&bad, "b.txt", None)
            .unwrap()
            .into_puzzles()
            .unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("b.txt", 2), "{e}");
    }

    #[test]
    fn an_unreadable_file_is_named() {
        let e = parse_file(std::path::Path::new("/no/such/puzzle.txt"), None).unwrap_err();
        assert_eq!(e.line, 0);
        assert!(
            e.to_string()
                .starts_with("/no/such/puzzle.txt: cannot read it"),
            "{e}"
        );
    }

    #[test]
    fn zero_means_empty_in_classic() {
        let p = single(&LINE.replace('.', "0"));
        assert_eq!(p.values()[0], 0);
    }

    #[test]
    fn pretty_printed_grid_ignores_separators() {
        let text = "\
5 3 . | . 7 . | . . .
6 . . | 1 9 5 | . . .
. 9 8 | . . . | . 6 .
------+-------+------
8 . . | . 6 . | . . 3
4 . . | 8 . 3 | . . 1
7 . . | . 2 . | . . 6
------+-------+------
. 6 . | . . . | 2 8 .
. . . | 4 1 9 | . . 5
. . . | . 8 . | . 7 9
";
        let p = single(text);
        assert_eq!(p.values()[0], 5);
        assert_eq!(p.values()[80], 9);
        assert_eq!(p.origin()[1], (1, 3));
        assert_eq!(p.to_text(), text);
    }

    #[test]
    fn samurai_canvas_is_detected() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/samples/puzzles/samurai.txt"
        ))
        .unwrap();
        let p = single(&text);
        assert_eq!(p.layout().name(), "samurai");
        assert_eq!(p.to_text(), text);
    }

    #[test]
    fn batch_keeps_comments_and_reports_bad_lines() {
        let text = format!("# comment\n{LINE}\n{}\n\n{LINE}\n", &LINE[..80]);
        let Document::Batch(entries) = parse(&text, "b.txt", None).unwrap() else {
            panic!("expected a batch");
        };
        assert_eq!(entries.len(), 5);
        let Entry::Puzzle {
            puzzle: Err(e),
            line,
            ..
        } = &entries[2]
        else {
            panic!("line 3 should fail");
        };
        assert_eq!(*line, 3);
        assert_eq!(e.line, 3);
        assert!(e.message.contains("80 characters"), "{e}");
    }

    #[test]
    fn a_line_of_no_square_length_names_the_lengths_there_are() {
        let e = parse(&".".repeat(50), "p.txt", None).unwrap_err();
        assert!(
            e.to_string().ends_with(
                "50 characters on this line; a one-line puzzle has 81 (9x9), \
                 or 16, 36, 64, 144, 256 or 625 for other sizes"
            ),
            "{e}"
        );
    }

    #[test]
    fn bad_character_names_line_and_column() {
        let mut text = LINE.to_string();
        text.replace_range(10..11, "x");
        let e = parse(&text, "p.txt", None).unwrap_err();
        assert_eq!((e.line, e.column), (1, 11));
        assert_eq!(
            e.to_string(),
            "p.txt:1:11: expected a digit 1-9 or '.' for an empty cell, found 'x'"
        );
    }

    #[test]
    fn short_row_names_the_row() {
        let rows: Vec<String> = LINE
            .as_bytes()
            .chunks(9)
            .map(|c| String::from_utf8(c.to_vec()).unwrap())
            .collect();
        let mut rows = rows;
        rows[4].pop();
        let e = parse(&rows.join("\n"), "p.txt", None).unwrap_err();
        assert_eq!(e.line, 5, "{e}");
        assert!(e.message.contains("row 5 has 8 cells"), "{e}");
    }

    #[test]
    fn sixteen_by_sixteen_with_letters() {
        let row = "123456789ABCDEFG";
        let text: Vec<String> = (0..16)
            .map(|i| {
                if i == 0 {
                    row.to_string()
                } else {
                    ".".repeat(16)
                }
            })
            .collect();
        let p = single(&text.join("\n"));
        assert_eq!(p.layout().name(), "16x16");
        assert_eq!(p.values()[15], 16);
        assert_eq!(p.to_text(), text.join("\n") + "\n");
    }

    #[test]
    fn forced_layout_reads_a_samurai_without_hashes() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/samples/puzzles/samurai.txt"
        ))
        .unwrap()
        .replace('#', " ");
        let l = Layout::samurai();
        let Document::Single(p) = parse(&text, "s.txt", Some(&l)).unwrap() else {
            panic!()
        };
        assert_eq!(p.layout().cell_count(), 369);
        // Detection without --layout works too: spaces mark the outside.
        assert_eq!(single(&text).layout().name(), "samurai");
    }

    #[test]
    fn a_full_twelve_by_twelve_canvas_is_a_butterfly_unless_letters_say_otherwise() {
        let digits: Vec<String> = (0..12)
            .map(|i| {
                if i == 0 {
                    "123456789...".into()
                } else {
                    ".".repeat(12)
                }
            })
            .collect();
        assert_eq!(single(&digits.join("\n")).layout().name(), "butterfly");
        let mut letters = digits.clone();
        letters[1] = "A...........".into();
        assert_eq!(single(&letters.join("\n")).layout().name(), "12x12");
    }

    #[test]
    fn a_butterfly_read_from_a_line_is_written_as_a_canvas_that_names_it() {
        // With the shape named, a line of 144 cells reads as a butterfly;
        // written back as a line it would read as a 12x12.
        let butterfly = Layout::named("butterfly").expect("a built-in shape");
        let line = format!("{}{}", "..5.2.6..9..", ".".repeat(132));
        let Document::Batch(entries) =
            parse(&format!("{line}\n{line}\n"), "t", Some(&butterfly)).expect("a batch")
        else {
            panic!("two lines are a batch");
        };
        let Entry::Puzzle { puzzle: Ok(p), .. } = &entries[0] else {
            panic!("a puzzle on line 1");
        };
        assert_eq!(p.layout().name(), "butterfly");
        assert_eq!(p.to_line(), line, "a batch's line stays a line");
        let text = p.to_text();
        assert_eq!(text.lines().count(), 12, "written as its canvas:\n{text}");
        let back = single(&text);
        assert_eq!(back.layout().name(), "butterfly");
        assert_eq!(back.values(), p.values());
        // A classic's line stays a line.
        let classic = single(&format!("1{}", ".".repeat(80)));
        assert_eq!(classic.to_text().lines().count(), 1);
    }

    #[test]
    fn jigsaw_reads_its_region_map_and_writes_it_back() {
        let text = "\
1.3.
....
....
...2

aabb
acbb
accd
cddd
";
        let p = single(text);
        assert_eq!(p.layout().name(), "jigsaw");
        assert_eq!(p.layout().regions()[5], 2, "r2c2 is in region c");
        assert_eq!(
            p.to_text(),
            text.replace('a', "1")
                .replace('b', "2")
                .replace('c', "3")
                .replace('d', "4")
        );
        let bad = text.replace("cddd", "cdde");
        let e = parse(&bad, "j.txt", None).unwrap_err();
        assert_eq!((e.line, e.column), (9, 4), "{e}");
    }

    #[test]
    fn empty_file_is_an_error() {
        let e = parse("\n  \n", "e.txt", None).unwrap_err();
        assert_eq!(e.to_string(), "e.txt: the file holds no puzzle");
    }

    fn sample(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/samples/puzzles/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    #[test]
    fn killer_sample_reads_and_writes_back_the_same() {
        let text = sample("killer.txt");
        let p = single(&text);
        assert_eq!(p.kind(), "killer");
        assert_eq!(p.given_count(), 0);
        assert_eq!(p.cages().len(), 30);
        assert_eq!(p.cages().iter().map(|c| c.sum).sum::<u32>(), 405);
        assert!(p.check_cages().is_ok());
        assert_eq!(p.to_text(), text);
    }

    /// Labels of any kind, spaced rows, `.` for cells in no cage, sums
    /// with commas and several per line: read, written in the canonical
    /// form (labels a, b, c... in reading order), and read back the same.
    #[test]
    fn a_hand_written_killer_round_trips() {
        let text = "\
1 . . .
. . . .
. . . .
. . . .

X X 7 7
Q . 7 .
Q . . Z
. . Z Z

7=9, X=3
Q=7   Z=8
";
        let p = single(text);
        assert_eq!(p.kind(), "killer-4x4");
        assert_eq!(p.values()[0], 1);
        let cages: Vec<(u32, Vec<u32>)> =
            p.cages().iter().map(|c| (c.sum, c.cells.clone())).collect();
        assert_eq!(
            cages,
            vec![
                (3, vec![0, 1]),
                (9, vec![2, 3, 6]),
                (7, vec![4, 8]),
                (8, vec![11, 14, 15])
            ]
        );
        let written = p.to_text();
        assert_eq!(
            written,
            "1 . | . .\n. . | . .\n----+----\n. . | . .\n. . | . .\n\n\
             aabb\nc.b.\nc..d\n..dd\n\na=3 b=9 c=7 d=8\n"
        );
        let again = single(&written);
        assert_eq!(again.cages(), p.cages());
        assert_eq!(again.values(), p.values());
    }

    #[test]
    fn killer_grid_may_be_one_line() {
        let mut text = format!("{}\n\n", ".".repeat(81));
        let killer = sample("killer.txt");
        let tail: Vec<&str> = killer.lines().skip(10).collect();
        text.push_str(&tail.join("\n"));
        let p = single(&text);
        assert_eq!(p.cages(), single(&killer).cages());
        assert_eq!(p.format(), Format::Line);
    }

    #[test]
    fn killer_errors_name_line_and_column() {
        let base = sample("killer.txt");
        let err = |from: &str, to: &str| {
            assert!(base.contains(from), "{from}");
            parse(&base.replacen(from, to, 1), "k.txt", None).unwrap_err()
        };
        // Line 11 is the first cage map row, line 21 the first sum line.
        let e = err("a=12 b=20", "a=50 b=20");
        assert_eq!((e.line, e.column), (21, 1), "{e}");
        assert_eq!(
            e.message,
            "cage 'a' has the sum 50, which its 3 cells cannot make: 3 different symbols \
             of 1-9 add up to 6-24"
        );
        let e = err("aaabccccd", "aaabccccG");
        assert_eq!((e.line, e.column), (11, 9), "{e}");
        assert_eq!(
            e.message,
            "cage 'G' (first at r1c9) has no sum: add G=N after the cage map"
        );
        let e = err(" D=10", " D=10 H=4");
        assert_eq!((e.line, e.column), (24, 14), "{e}");
        assert_eq!(e.message, "'H' labels no cell of the cage map");
        let e = err(" D=10", " D=10 D=4");
        assert_eq!((e.line, e.column), (24, 14), "{e}");
        assert_eq!(
            e.message,
            "cage 'D' has a second sum (the first is at line 24, column 9)"
        );
        let e = err(" D=10", " D=x");
        assert_eq!((e.line, e.column), (24, 11), "{e}");
        let e = err(" D=10", " D10");
        assert_eq!((e.line, e.column), (24, 9), "{e}");
        assert_eq!(e.message, "expected label=sum (like a=12), found \"D10\"");
        let e = err("aaabccccd", "aaabcccc");
        assert_eq!((e.line, e.column), (11, 9), "{e}");
        let e = err("aaabccccd", "a#abccccd");
        assert_eq!((e.line, e.column), (11, 2), "{e}");
        // A given breaking its cage points at the given: r1c9 is in cage
        // 'd' (r1c9 and r2c9, sum 4).
        let e = err(".........\n", "........9\n");
        assert_eq!((e.line, e.column), (1, 9), "{e}");
        assert_eq!(
            e.message,
            "cage 'd' cannot make its sum 4 with the given 9 at r1c9: the givens already \
             add up to 9"
        );
    }

    /// A samurai and a jigsaw with a few cages (not every cell caged): the
    /// cage map keeps the canvas (and the jigsaw its region map), and both
    /// read back the same.
    #[test]
    fn cages_on_a_canvas_and_a_jigsaw_round_trip() {
        for name in ["samurai.txt", "jigsaw.txt"] {
            let p = single(&sample(name));
            let l = p.layout().clone();
            let cages = vec![
                Cage::new(3, vec![0, 1]),
                Cage::new(
                    17,
                    vec![l.cell_count() as u32 - 2, l.cell_count() as u32 - 1],
                ),
            ];
            let p = p
                .with_values(vec![0; l.cell_count()])
                .with_cages(cages)
                .unwrap();
            let text = p.to_text();
            let q = single(&text);
            assert_eq!(q.layout().name(), l.name(), "{name}");
            assert_eq!(q.cages(), p.cages(), "{name}");
            assert_eq!(q.to_text(), text, "{name}");
            assert!(p.kind().starts_with("killer-"), "{name}");
        }
    }
}
