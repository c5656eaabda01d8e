//! The error of every puzzle format: the file, the line and column, and what
//! was expected there.

use std::fmt;

/// A malformed puzzle text: where, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ParseError {
    pub file: String,
    /// One-based line, 0 when the error concerns the whole file.
    pub line: usize,
    /// One-based column (in characters), 0 when the error concerns a whole line.
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.column > 0 {
                write!(f, ":{}", self.column)?;
            }
        }
        write!(f, ": {}", self.message)
    }
}
