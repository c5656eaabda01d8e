//! A puzzle: a layout, a value per cell, and how it was written.

use std::sync::Arc;

use super::layout::Layout;

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

    /// The puzzle in its own text format, ending with a newline.
    pub fn to_text(&self) -> String {
        let l = &self.layout;
        let mut out = String::with_capacity(l.height() * (l.width() * 2 + 1) + 2);
        match self.format {
            Format::Line => {
                out.extend((0..l.cell_count()).map(|c| self.symbol_or(c, '.')));
                out.push('\n');
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
        out
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
