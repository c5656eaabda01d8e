//! Ground truth beside photos, for measuring the reader: what each cell of a
//! classic grid shows.
//!
//! Beside `NAME.jpg` (or any image extension), the first found of:
//! - `NAME.dat`: a phone model line, a resolution line, then 81
//!   whitespace-separated digits, 0 = empty (the wichtounet sets);
//! - `NAME.txt`: 81 whitespace-separated labels: 0 blank, 1-9 a digit
//!   (printed or handwritten), 10 candidate marks (the kubiesa sets);
//! - `NAME.json`: a puzzle in the JSON form of [`crate::grid::json`], e.g. a
//!   killer with its cages (the killer screenshot set) or a jigsaw with its
//!   regions (the jigsaw photo set).

use std::path::{Path, PathBuf};

use crate::grid::{Cage, Document, parse};

/// Cells in a ground-truth file: a classic grid.
pub const CELLS: usize = 81;

/// The label of a cell holding candidate marks, which must read as empty.
pub const CANDIDATE_MARKS: u8 = 10;

/// The ground-truth files looked for beside an image: extension, and the
/// header lines before the labels.
const FORMATS: [(&str, usize); 2] = [("dat", 2), ("txt", 0)];

/// One photo's ground truth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Truth {
    /// The file it was read from.
    pub file: PathBuf,
    /// One label per cell, row by row, as written: 0 blank, 1-9 a digit,
    /// [`CANDIDATE_MARKS`] for candidate marks.
    pub labels: Vec<u8>,
    /// The puzzle's cages (a killer), each cage's cells ascending; empty
    /// for a puzzle without cages.
    pub cages: Vec<Cage>,
    /// A jigsaw's region of each cell, numbered in order of first
    /// appearance (as [`crate::grid::Layout::regions`] numbers them, so two
    /// maps are the same partition exactly when they are equal); empty for
    /// a grid with 3x3 boxes.
    pub regions: Vec<u8>,
}

impl Truth {
    /// What a reading must give for each cell: the digit, or 0 for a blank
    /// cell or one with candidate marks (any label above 9).
    pub fn values(&self) -> Vec<u8> {
        self.labels
            .iter()
            .map(|&v| if v > 9 { 0 } else { v })
            .collect()
    }
}

/// Why a ground-truth file could not be used. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum TruthError {
    #[error(
        "{file}: line {line}: `{token}` is not a cell label (0 blank, 1-9 a digit, 10 candidate marks)"
    )]
    NotALabel {
        file: String,
        line: usize,
        token: String,
    },
    #[error("{file}: {found} labels, expected {CELLS}")]
    Count { file: String, found: usize },
    #[error("{0}")]
    Puzzle(String),
    #[error("{file}: line {line}: {what}")]
    Printed {
        file: String,
        line: usize,
        what: String,
    },
}

/// Which of the labelled digits are printed, for sets whose labels do not
/// tell print from handwriting (the kubiesa sets): per puzzle, its printed
/// givens, as a person told them on its photos.
///
/// The text: blocks separated by blank lines, each a puzzle's name (the
/// photos whose file names begin with it) and 9 rows of 9 characters, a
/// printed digit or `.`; lines starting with `#` are comments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Printed {
    puzzles: Vec<(String, Vec<u8>)>,
}

impl Printed {
    /// Reads a file of printed givens (see [`Printed`]).
    pub fn read(path: &Path) -> Result<Printed, TruthError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| TruthError::Printed {
            file: file.clone(),
            line: 0,
            what: format!("cannot be read: {e}"),
        })?;
        Printed::parse(&text, &file)
    }

    /// Parses the text of a file of printed givens; `file` names it in
    /// errors.
    pub fn parse(text: &str, file: &str) -> Result<Printed, TruthError> {
        let fail = |line: usize, what: String| TruthError::Printed {
            file: file.to_string(),
            line,
            what,
        };
        let mut puzzles: Vec<(String, Vec<u8>)> = Vec::new();
        // The block being read: its name and its first line.
        let mut block: Option<(String, usize, Vec<u8>)> = None;
        let lines = text.lines().map(str::trim).chain([""]);
        for (i, line) in lines.enumerate() {
            let n = i + 1;
            if line.starts_with('#') {
                continue;
            }
            match &mut block {
                None if line.is_empty() => {}
                None => {
                    if puzzles.iter().any(|(name, _)| name == line) {
                        return Err(fail(n, format!("puzzle `{line}` a second time")));
                    }
                    block = Some((line.to_string(), n, Vec::with_capacity(CELLS)));
                }
                Some((name, start, cells)) if line.is_empty() => {
                    if cells.len() != CELLS {
                        return Err(fail(
                            *start,
                            format!("puzzle `{name}` has {} rows, expected 9", cells.len() / 9),
                        ));
                    }
                    puzzles.push((std::mem::take(name), std::mem::take(cells)));
                    block = None;
                }
                Some((_, _, cells)) => {
                    let row: Vec<u8> = line
                        .chars()
                        .map(|ch| match ch {
                            '.' => Some(0),
                            '1'..='9' => Some(ch as u8 - b'0'),
                            _ => None,
                        })
                        .collect::<Option<_>>()
                        .filter(|r: &Vec<u8>| r.len() == 9)
                        .ok_or_else(|| {
                            fail(n, format!("`{line}` is not a row of 9 digits or `.`"))
                        })?;
                    if cells.len() == CELLS {
                        return Err(fail(n, "a tenth row: a blank line ends a puzzle".into()));
                    }
                    cells.extend(row);
                }
            }
        }
        Ok(Printed { puzzles })
    }

    /// The printed givens (0 elsewhere) of the photo file named `name`: of
    /// the puzzle whose name is the longest beginning of it.
    pub fn for_photo(&self, name: &str) -> Option<&[u8]> {
        self.puzzles
            .iter()
            .filter(|(puzzle, _)| name.starts_with(puzzle.as_str()))
            .max_by_key(|(puzzle, _)| puzzle.len())
            .map(|(_, cells)| &cells[..])
    }

    /// The number of puzzles.
    pub fn len(&self) -> usize {
        self.puzzles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.puzzles.is_empty()
    }
}

/// The ground truth beside `image` (`NAME.dat`, else `NAME.txt`); `None`
/// when neither can be read.
pub fn truth_beside(image: &Path) -> Result<Option<Truth>, TruthError> {
    for (ext, header_lines) in FORMATS {
        let file = image.with_extension(ext);
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let labels = parse_labels(&text, header_lines, &file.display().to_string())?;
        return Ok(Some(Truth {
            file,
            labels,
            cages: Vec::new(),
            regions: Vec::new(),
        }));
    }
    let file = image.with_extension("json");
    let Ok(text) = std::fs::read_to_string(&file) else {
        return Ok(None);
    };
    let name = file.display().to_string();
    let puzzle = match parse(&text, &name, None) {
        Ok(Document::Single(p)) => p,
        Ok(Document::Batch(_)) => {
            return Err(TruthError::Puzzle(format!("{name}: several puzzles")));
        }
        Err(e) => return Err(TruthError::Puzzle(e.to_string())),
    };
    if puzzle.values().len() != CELLS {
        return Err(TruthError::Count {
            file: name,
            found: puzzle.values().len(),
        });
    }
    Ok(Some(Truth {
        file,
        labels: puzzle.values().to_vec(),
        cages: puzzle.cages().to_vec(),
        regions: puzzle.layout().regions().to_vec(),
    }))
}

/// The [`CELLS`] labels of a ground-truth text after its `header_lines`;
/// `file` names it in errors.
pub fn parse_labels(text: &str, header_lines: usize, file: &str) -> Result<Vec<u8>, TruthError> {
    let mut labels = Vec::with_capacity(CELLS);
    for (i, line) in text.lines().enumerate().skip(header_lines) {
        for token in line.split_whitespace() {
            let label = token.parse::<u8>().map_err(|_| TruthError::NotALabel {
                file: file.to_string(),
                line: i + 1,
                token: token.to_string(),
            })?;
            labels.push(label);
        }
    }
    if labels.len() != CELLS {
        return Err(TruthError::Count {
            file: file.to_string(),
            found: labels.len(),
        });
    }
    Ok(labels)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(first: &str) -> String {
        let mut rows = vec![first.to_string()];
        rows.extend((1..9).map(|_| "0 0 0 0 0 0 0 0 0".to_string()));
        rows.join("\n")
    }

    #[test]
    fn a_dat_file_skips_its_two_header_lines() {
        let text = format!("HTC Desire\n640x480\n{}\n", grid("5 3 0 0 7 0 0 0 0"));
        let labels = parse_labels(&text, 2, "a.dat").unwrap();
        assert_eq!(&labels[..5], &[5, 3, 0, 0, 7]);
        assert_eq!(labels.len(), CELLS);
    }

    #[test]
    fn candidate_marks_must_read_as_empty() {
        let truth = Truth {
            file: "a.txt".into(),
            labels: parse_labels(&grid("10 2 0 0 0 0 0 0 9"), 0, "a.txt").unwrap(),
            cages: Vec::new(),
            regions: Vec::new(),
        };
        assert_eq!(truth.labels[0], CANDIDATE_MARKS);
        assert_eq!(&truth.values()[..3], &[0, 2, 0]);
        assert_eq!(truth.values()[8], 9);
    }

    #[test]
    fn bad_files_say_where_and_what() {
        let e = parse_labels(&grid("1 2 x 0 0 0 0 0 0"), 0, "b.txt").unwrap_err();
        assert_eq!(
            e.to_string(),
            "b.txt: line 1: `x` is not a cell label (0 blank, 1-9 a digit, 10 candidate marks)"
        );
        let e = parse_labels("phone\n640x480\n1 2 3\n4 -1", 2, "c.dat").unwrap_err();
        assert!(e.to_string().starts_with("c.dat: line 4: `-1`"), "{e}");
        let e = parse_labels("1 2 3", 0, "d.txt").unwrap_err();
        assert_eq!(e.to_string(), "d.txt: 3 labels, expected 81");
    }

    #[test]
    fn printed_givens_name_their_photos() {
        let rows = ["1........", "........."].repeat(5)[..9].join("\n");
        let text = format!(
            "# a comment\n01_04\n{rows}\n\n01_04_b\n{}\n",
            rows.replace('1', "2")
        );
        let printed = Printed::parse(&text, "p.txt").unwrap();
        assert_eq!(printed.len(), 2);
        assert_eq!(printed.for_photo("01_04_iphone_14_0.jpg").unwrap()[0], 1);
        // The longest name that begins the photo's wins.
        assert_eq!(printed.for_photo("01_04_b_1.jpg").unwrap()[0], 2);
        assert_eq!(printed.for_photo("02_01_a.jpg"), None);
    }

    #[test]
    fn bad_printed_givens_say_where_and_what() {
        let err = |text: &str| Printed::parse(text, "p.txt").unwrap_err().to_string();
        let rows = ["........."; 9].join("\n");
        assert_eq!(
            err(&format!("a\n{}\n12x......\n", ["........."; 3].join("\n"))),
            "p.txt: line 5: `12x......` is not a row of 9 digits or `.`"
        );
        assert_eq!(
            err("a\n.........\n\n"),
            "p.txt: line 1: puzzle `a` has 1 rows, expected 9"
        );
        assert_eq!(
            err(&format!("a\n{rows}\n.........\n")),
            "p.txt: line 11: a tenth row: a blank line ends a puzzle"
        );
        assert_eq!(
            err(&format!("a\n{rows}\n\na\n{rows}\n")),
            "p.txt: line 12: puzzle `a` a second time"
        );
    }

    #[test]
    fn the_dat_file_comes_first_and_a_missing_one_is_none() {
        let dir = std::env::temp_dir().join(format!("sudoku-lens-truth-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let image = dir.join("photo.jpg");
        assert_eq!(truth_beside(&image).unwrap(), None);
        std::fs::write(dir.join("photo.txt"), grid("1 0 0 0 0 0 0 0 0")).unwrap();
        assert_eq!(truth_beside(&image).unwrap().unwrap().labels[0], 1);
        std::fs::write(
            dir.join("photo.dat"),
            format!("phone\nsize\n{}", grid("2 0 0 0 0 0 0 0 0")),
        )
        .unwrap();
        let truth = truth_beside(&image).unwrap().unwrap();
        assert_eq!(truth.labels[0], 2);
        assert_eq!(truth.file, dir.join("photo.dat"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_json_jigsaw_gives_its_regions_as_a_partition() {
        let dir = std::env::temp_dir().join(format!("sudoku-lens-truth-j-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let image = dir.join("07.jpg");
        // Labels are arbitrary: "9" marks the first region here.
        let regions = [
            "999111222",
            "999111222",
            "999111222",
            "333444555",
            "333444555",
            "333444555",
            "666777888",
            "666777888",
            "666777888",
        ];
        let mut rows = vec!["........."; 9];
        rows[0] = "5........";
        let text = serde_json::json!({"layout": "jigsaw", "grid": rows, "regions": regions});
        std::fs::write(dir.join("07.json"), text.to_string()).unwrap();
        let truth = truth_beside(&image).unwrap().unwrap();
        assert_eq!(truth.labels[0], 5);
        assert_eq!(&truth.regions[..9], &[0, 0, 0, 1, 1, 1, 2, 2, 2]);
        assert_eq!(truth.regions[80], 8);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
