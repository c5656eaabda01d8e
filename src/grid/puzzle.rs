//! A puzzle: a layout, a value per cell, and how it was written.

use std::sync::Arc;

use super::cage::{Cage, CageError, CageErrorKind, check_cages};
use super::layout::Layout;
use super::rules::{Rule, RuleError, check_rules};

/// How symbols are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alphabet {
    /// `1`-`9`, then `A`, `B`, ... for sizes above 9; `0` or `.` is empty.
    Digits,
    /// `0`-`9` then `A`-`F` for 16 symbols; only `.` is empty.
    Hex,
}

impl Alphabet {
    /// Picks the alphabet a text uses: hexadecimal when a 16-symbol puzzle
    /// uses `0` and no `G`.
    pub fn detect(size: usize, chars: impl Iterator<Item = char>) -> Alphabet {
        if size != 16 {
            return Alphabet::Digits;
        }
        let (mut zero, mut g) = (false, false);
        for c in chars {
            zero |= c == '0';
            g |= c.eq_ignore_ascii_case(&'g');
        }
        if zero && !g {
            Alphabet::Hex
        } else {
            Alphabet::Digits
        }
    }

    /// The alphabets a puzzle of `size` symbols may be written in, the
    /// usual first: hexadecimal only for 16 symbols.
    pub fn for_size(size: usize) -> &'static [Alphabet] {
        if size == 16 {
            &[Alphabet::Digits, Alphabet::Hex]
        } else {
            &[Alphabet::Digits]
        }
    }

    /// The character for symbol `v` (1-based).
    pub fn symbol(self, v: u8) -> char {
        debug_assert!(v >= 1);
        let i = match self {
            Alphabet::Digits => v as u32,
            Alphabet::Hex => v as u32 - 1,
        };
        char::from_digit(i, 36)
            .expect("symbol in range")
            .to_ascii_uppercase()
    }

    /// The symbol (1-based) that `ch` stands for in a puzzle of `size` symbols.
    pub fn value(self, ch: char, size: usize) -> Option<u8> {
        let d = ch.to_digit(36)? as usize;
        let v = match self {
            Alphabet::Digits => d,
            Alphabet::Hex => d + 1,
        };
        (v >= 1 && v <= size).then_some(v as u8)
    }

    /// Whether `ch` marks an empty cell.
    pub fn is_empty_mark(self, ch: char) -> bool {
        ch == '.' || (ch == '0' && self == Alphabet::Digits) || ch == '_'
    }

    /// "a digit 1-9", "1-9 or A-G", ... for messages.
    pub fn describe(self, size: usize) -> String {
        let last = self.symbol(size as u8);
        match (self, size) {
            (Alphabet::Digits, s) if s <= 9 => format!("a digit 1-{last}"),
            (Alphabet::Digits, _) => format!("1-9 or A-{last}"),
            (Alphabet::Hex, _) => format!("0-9 or A-{last}"),
        }
    }
}

/// The value of the symbol `ch` in a puzzle of `size` symbols written in
/// `alphabet` (0 for an empty cell), or what was expected instead.
pub(super) fn cell_value(ch: char, alphabet: Alphabet, size: usize) -> Result<u8, String> {
    if alphabet.is_empty_mark(ch) {
        return Ok(0);
    }
    alphabet.value(ch, size).ok_or_else(|| {
        format!(
            "expected {} or '.' for an empty cell, found {}",
            alphabet.describe(size),
            describe_char(ch)
        )
    })
}

/// A character as an error message names it.
pub(super) fn describe_char(ch: char) -> String {
    match ch {
        ' ' => "a space".into(),
        '\t' => "a tab".into(),
        c if c.is_control() => format!("control character U+{:04X}", c as u32),
        c => format!("'{c}'"),
    }
}

/// The text format a puzzle was read from, and is written back in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// All cells on one line, in reading order.
    Line,
    /// One line per row; `pretty` adds spaces and box separators.
    Rows { pretty: bool },
    /// One line per canvas row, `outside` for positions outside the shape.
    Canvas { outside: char },
    /// Rows, a blank line, then the region map (a jigsaw).
    Jigsaw,
}

/// A layout with a value per cell (0 = empty, 1..=size a symbol).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    layout: Arc<Layout>,
    values: Vec<u8>,
    alphabet: Alphabet,
    format: Format,
    /// Extra rules: cages, each cage's cells ascending, cages in order of
    /// their first cell.
    cages: Vec<Cage>,
    /// Variant rules beyond the houses and cages, in the order given.
    rules: Vec<Rule>,
    /// Where each cell was written in the source text: one-based (line, column).
    /// Empty when the puzzle did not come from text.
    pub(crate) origin: Vec<(u32, u32)>,
}

impl Puzzle {
    /// An empty puzzle of `layout`, written in its natural format.
    pub fn empty(layout: Arc<Layout>) -> Puzzle {
        let format = if !layout.regions().is_empty() {
            Format::Jigsaw
        } else if layout.is_full() {
            Format::Rows { pretty: false }
        } else {
            Format::Canvas { outside: '#' }
        };
        let values = vec![0; layout.cell_count()];
        Puzzle {
            alphabet: Alphabet::Digits,
            layout,
            values,
            format,
            cages: Vec::new(),
            rules: Vec::new(),
            origin: Vec::new(),
        }
    }

    pub(crate) fn from_parts(
        layout: Arc<Layout>,
        values: Vec<u8>,
        alphabet: Alphabet,
        format: Format,
        origin: Vec<(u32, u32)>,
    ) -> Puzzle {
        Puzzle {
            layout,
            values,
            alphabet,
            format,
            cages: Vec::new(),
            rules: Vec::new(),
            origin,
        }
    }

    pub fn layout(&self) -> &Arc<Layout> {
        &self.layout
    }
    pub fn values(&self) -> &[u8] {
        &self.values
    }
    pub fn format(&self) -> Format {
        self.format
    }
    pub fn alphabet(&self) -> Alphabet {
        self.alphabet
    }
    /// Source (line, column) of each cell; empty if not read from text.
    pub fn origin(&self) -> &[(u32, u32)] {
        &self.origin
    }
    /// The puzzle's cages (killer sudoku): each cage's cells ascending, cages
    /// in order of their first cell. Empty for a puzzle without cages.
    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    /// The puzzle's variant rules (diagonals, thermometers, dots...), in the
    /// order given. Empty for a puzzle with none.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The same puzzle with `rules` as its variant rules (replacing any it
    /// had). [`Puzzle::check_rules`] checks them against the layout and
    /// the givens.
    pub fn with_rules(mut self, rules: Vec<Rule>) -> Puzzle {
        self.rules = rules;
        self
    }

    /// Checks the variant rules before any search (see
    /// [`check_rules`](super::check_rules)).
    pub fn check_rules(&self) -> Result<(), RuleError> {
        check_rules(&self.layout, &self.values, &self.rules)
    }

    /// The same puzzle with `cages` as extra rules (replacing any it had).
    /// Each cage's cells are sorted and the cages put in order of their
    /// first cell. Fails only if a cage has no cells, a cell that is not in
    /// the layout, or a cell twice; [`Puzzle::check_cages`] checks the rest.
    pub fn with_cages(mut self, mut cages: Vec<Cage>) -> Result<Puzzle, CageError> {
        let count = self.layout.cell_count();
        for (i, cage) in cages.iter_mut().enumerate() {
            let sum = cage.sum;
            let name = || format!("cage {} (sum {sum})", i + 1);
            let malformed = |message| CageError {
                kind: CageErrorKind::Malformed,
                cage: Some(i),
                cell: None,
                message,
            };
            if cage.cells.is_empty() {
                return Err(malformed(format!("{} has no cells", name())));
            }
            if let Some(&c) = cage.cells.iter().find(|&&c| c as usize >= count) {
                return Err(malformed(format!(
                    "{} lists cell {c}, but the {} layout has {count} cells",
                    name(),
                    self.layout.name()
                )));
            }
            cage.cells.sort_unstable();
            if let Some(w) = cage.cells.windows(2).find(|w| w[0] == w[1]) {
                return Err(malformed(format!(
                    "{} lists {} twice",
                    name(),
                    self.layout.cell_name(w[0] as usize)
                )));
            }
        }
        cages.sort_by_key(|c| (c.cells[0], c.sum));
        self.cages = cages;
        Ok(self)
    }

    /// Checks the cages against the givens and each other before any
    /// search (see [`check_cages`](super::check_cages) for the rules).
    pub fn check_cages(&self) -> Result<(), CageError> {
        if self.cages.is_empty() {
            return Ok(());
        }
        check_cages(&self.layout, &self.values, &self.cages, &|i| {
            self.describe_cage(i)
        })
    }

    /// "the cage at r1c1", named by its first cell.
    pub fn describe_cage(&self, cage: usize) -> String {
        let c = &self.cages[cage];
        format!("the cage at {}", self.layout.cell_name(c.anchor()))
    }

    /// The kind of puzzle, for output: the layout's name, or `killer` for a
    /// 9x9 classic with cages and `killer-NAME` for another layout with
    /// cages (`killer-samurai`).
    pub fn kind(&self) -> String {
        match (self.cages.is_empty(), self.layout.name()) {
            (true, name) => name.to_string(),
            (false, "classic") => "killer".to_string(),
            (false, name) => format!("killer-{name}"),
        }
    }

    /// Number of filled cells.
    pub fn given_count(&self) -> usize {
        self.values.iter().filter(|&&v| v != 0).count()
    }

    /// Sets a cell (0 clears it). Panics if the value is out of range.
    pub fn set(&mut self, cell: usize, value: u8) {
        assert!(
            value as usize <= self.layout.size(),
            "value {value} out of range"
        );
        self.values[cell] = value;
    }

    /// The same puzzle written in `alphabet`; a puzzle whose size has no
    /// such alphabet (hexadecimal is for 16 symbols) keeps its own.
    pub fn with_alphabet(mut self, alphabet: Alphabet) -> Puzzle {
        if Alphabet::for_size(self.layout.size()).contains(&alphabet) {
            self.alphabet = alphabet;
        }
        self
    }

    /// The same puzzle (layout, format) holding other values, e.g. its solution.
    pub fn with_values(&self, values: Vec<u8>) -> Puzzle {
        assert_eq!(values.len(), self.values.len());
        Puzzle {
            values,
            ..self.clone()
        }
    }

    /// A cell's name, with its place in the source text when known:
    /// `r3c7 (line 3, column 7)`.
    pub fn describe_cell(&self, cell: usize) -> String {
        let name = self.layout.cell_name(cell);
        match self.origin.get(cell) {
            Some(&(line, col)) if line > 0 => format!("{name} (line {line}, column {col})"),
            _ => name,
        }
    }

    /// Canvas rows as strings: a symbol, `.` for empty, a space outside the shape.
    pub fn rows(&self) -> Vec<String> {
        self.canvas_rows('.', ' ')
    }

    fn canvas_rows(&self, empty: char, outside: char) -> Vec<String> {
        let l = &self.layout;
        (0..l.height())
            .map(|r| {
                (0..l.width())
                    .map(|c| match l.cell_at(r, c) {
                        Some(cell) => self.symbol_or(cell, empty),
                        None => outside,
                    })
                    .collect()
            })
            .collect()
    }

    fn symbol_or(&self, cell: usize, empty: char) -> char {
        match self.values[cell] {
            0 => empty,
            v => self.alphabet.symbol(v),
        }
    }

    /// Every cell's symbol in reading order, `.` for empty, on one line
    /// without its end: a batch's line, whatever the shape (the batch
    /// names its shape when it is not the square its length says).
    pub fn to_line(&self) -> String {
        (0..self.layout.cell_count())
            .map(|c| self.symbol_or(c, '.'))
            .collect()
    }

    /// Whether a line of this puzzle's cells reads back as its layout: the
    /// square grid of that many cells.
    fn line_reads_back(&self) -> bool {
        let l = &self.layout;
        Layout::square_sizes()
            .find(|n| n * n == l.cell_count())
            .and_then(|n| Layout::square(n).ok())
            .is_some_and(|square| square == **l)
    }

    /// The puzzle in its own text format, ending with a newline.
    pub fn to_text(&self) -> String {
        let l = &self.layout;
        let mut out = String::with_capacity(l.height() * (l.width() * 2 + 1) + 2);
        match self.format {
            Format::Line if self.line_reads_back() => {
                out.push_str(&self.to_line());
                out.push('\n');
            }
            // A line names no shape: one of another shape's cell count
            // (a butterfly's 144, read with `--layout`) reads back as the
            // square of that count, so such a puzzle is written as its
            // canvas, which names it.
            Format::Line => {
                for row in self.canvas_rows('.', ' ') {
                    out.push_str(row.trim_end());
                    out.push('\n');
                }
            }
            Format::Rows { pretty: false } => {
                for row in self.canvas_rows('.', ' ') {
                    out.push_str(&row);
                    out.push('\n');
                }
            }
            Format::Rows { pretty: true } => self.write_pretty(&mut out),
            Format::Jigsaw => {
                for row in self.canvas_rows('.', ' ') {
                    out.push_str(&row);
                    out.push('\n');
                }
                out.push('\n');
                for r in 0..l.height() {
                    out.extend((0..l.width()).map(|c| {
                        let cell = l.cell_at(r, c).expect("a jigsaw is a full grid");
                        Alphabet::Digits.symbol(l.regions()[cell] + 1)
                    }));
                    out.push('\n');
                }
            }
            Format::Canvas { outside } => {
                for row in self.canvas_rows('.', outside) {
                    out.push_str(if outside == ' ' { row.trim_end() } else { &row });
                    out.push('\n');
                }
            }
        }
        if !self.cages.is_empty() {
            self.write_cages(&mut out);
        }
        if !self.rules.is_empty() {
            out.push('\n');
            out.push_str(RULES_MARKER);
            out.push('\n');
            for rule in &self.rules {
                out.push_str(&rule.to_text(l));
                out.push('\n');
            }
        }
        out
    }

    /// A blank line, the cage map (a label per cell, `.` for no cage, the
    /// canvas's outside character beyond the shape), a blank line, and the
    /// `label=sum` pairs, as many per line as the grid is wide.
    fn write_cages(&self, out: &mut String) {
        let l = &self.layout;
        let mut label = vec!['.'; l.cell_count()];
        for (k, cage) in self.cages.iter().enumerate() {
            for &c in &cage.cells {
                label[c as usize] = cage_label(k);
            }
        }
        let outside = match self.format {
            Format::Canvas { outside } => outside,
            _ => ' ',
        };
        out.push('\n');
        for r in 0..l.height() {
            let row: String = (0..l.width())
                .map(|c| l.cell_at(r, c).map_or(outside, |cell| label[cell]))
                .collect();
            out.push_str(if outside == ' ' { row.trim_end() } else { &row });
            out.push('\n');
        }
        out.push('\n');
        for (i, chunk) in self.cages.chunks(l.width().max(1)).enumerate() {
            let pairs: Vec<String> = chunk
                .iter()
                .enumerate()
                .map(|(j, cage)| format!("{}={}", cage_label(i * l.width().max(1) + j), cage.sum))
                .collect();
            out.push_str(&pairs.join(" "));
            out.push('\n');
        }
    }

    /// `5 3 . | . 7 . | . . .` rows with `------+-------+------` between boxes.
    fn write_pretty(&self, out: &mut String) {
        let l = &self.layout;
        let (bh, bw) = l.box_shape().unwrap_or((l.height(), l.width()));
        let segment = "-".repeat(bw * 2 - 1);
        let rule: Vec<String> = (0..l.width() / bw)
            .map(|i| {
                let edge = usize::from(i > 0) + usize::from(i + 1 < l.width() / bw);
                "-".repeat(edge) + &segment
            })
            .collect();
        for r in 0..l.height() {
            if r > 0 && r % bh == 0 {
                out.push_str(&rule.join("+"));
                out.push('\n');
            }
            for c in 0..l.width() {
                if c > 0 {
                    out.push_str(if c % bw == 0 { " | " } else { " " });
                }
                let cell = l.cell_at(r, c).expect("rows format is a full layout");
                out.push(self.symbol_or(cell, '.'));
            }
            out.push('\n');
        }
    }
}

/// The line that starts a puzzle text's variant rules, one a line after it.
pub const RULES_MARKER: &str = "rules:";

/// The label of cage `k` in the text format: `a`-`z`, `A`-`Z`, `0`-`9`,
/// then letters beyond ASCII (`À`, `Á`, ...), enough for a cage per cell of
/// any layout.
pub fn cage_label(k: usize) -> char {
    const ASCII: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    if let Some(&b) = ASCII.get(k) {
        return b as char;
    }
    (0xC0u32..)
        .filter_map(char::from_u32)
        .filter(|c| c.is_alphabetic())
        .nth(k - ASCII.len())
        .expect("enough letters")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alphabets_round_trip() {
        for a in [Alphabet::Digits, Alphabet::Hex] {
            for v in 1..=16u8 {
                assert_eq!(a.value(a.symbol(v), 16), Some(v));
            }
        }
        assert_eq!(Alphabet::Digits.symbol(16), 'G');
        assert_eq!(Alphabet::Hex.symbol(16), 'F');
        assert_eq!(Alphabet::Digits.symbol(25), 'P');
        assert_eq!(Alphabet::Digits.value('A', 9), None);
    }
}
