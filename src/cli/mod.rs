//! Command-line arguments and the commands behind them.

mod bench;
mod check;
mod eval;
mod logic;
mod read;
mod solve;

use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use sudoku_lens::grid::{Document, Layout, ParseError, has_entries, parse, parse_progress};

/// Solve sudoku puzzles: classic, samurai and other shapes.
#[derive(Debug, Parser)]
#[command(name = "sudoku-lens", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Give up a search for solutions after this many seconds (each
    /// puzzle's, each page's), saying so with exit status 6; 0: no limit.
    /// Most puzzles take milliseconds. Default 10, and none for `eval`,
    /// whose figures must not depend on the machine's speed.
    #[arg(long, global = true, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<std::time::Duration>,
}

impl Cli {
    /// The time limit of every search of this run (none for 0).
    pub fn search_time_limit(&self) -> Option<std::time::Duration> {
        let default = match self.command {
            Some(Command::Eval { .. }) => None,
            _ => Some(sudoku_lens::solve::DEFAULT_TIME),
        };
        self.time_limit
            .map_or(default, Some)
            .filter(|t| !t.is_zero())
    }
}

/// `--time-limit`: seconds, whole or not, from 0.
fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    text.parse::<f64>()
        .ok()
        .and_then(|s| std::time::Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| {
            format!("expected a number of seconds (10, 2.5, 0 for none), found {text:?}")
        })
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve puzzles from text files, photos or screenshots and print the
    /// solutions in the input's format.
    ///
    /// A file holds one puzzle (one line of 81 characters; 9 rows of 9, spaces
    /// and `| - +` ignored; or a canvas of a multi-grid shape such as samurai,
    /// `#` or a space outside the shape), or a batch: one puzzle per line,
    /// `#` lines are comments. A batch prints one line per input line.
    ///
    /// A killer adds its cages after the grid: a blank line, rows of cage
    /// labels (a character per cell, `.` for no cage), a blank line, and
    /// `label=sum` pairs (`a=12 b=7`). A JSON puzzle (`{"layout": "killer",
    /// "grid": [...], "cages": [{"sum": 12, "cells": [[0, 0], ...]}]}`), an
    /// f-puzzles JSON file, and an f-puzzles or SudokuPad link (given as an
    /// argument, or in a file) are read too.
    ///
    /// An image or a PDF (told by its content, or its extension) is read as
    /// by `read` and solved; with --export the solution is drawn onto it. A folder
    /// means every image in it, read in parallel.
    ///
    /// Exit status: 0 every puzzle solved uniquely; 1 unreadable or malformed
    /// input, or no grid found in an image; 3 no solution (or conflicting
    /// givens); 4 more than one solution (the first is printed and drawn);
    /// 6 the search gave up at --time-limit. With several problems, the
    /// first of 1, 6, 3, 4.
    #[command(
        after_help = "Examples:\n  sudoku-lens solve samples/puzzles/samurai.txt\n  \
        sudoku-lens solve --json puzzles.txt\n  \
        sudoku-lens solve samples/puzzles/killer.txt --export-link\n  \
        sudoku-lens solve 'https://f-puzzles.com/?load=N4Ig...'\n  \
        sudoku-lens solve photo.jpg --export solved.png\n  \
        sudoku-lens solve photos/ --export-dir solved/\n  \
        echo 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 | sudoku-lens solve -"
    )]
    Solve {
        /// Puzzle text files, images, or folders of images; `-` reads
        /// standard input.
        #[arg(required = true, value_name = "INPUT")]
        inputs: Vec<PathBuf>,
        /// Write the solution drawn onto the image (a text puzzle: a clean
        /// rendered grid) to FILE: PNG, or JPEG if FILE ends in .jpg/.jpeg.
        /// A player's digits that agree with it are left as written. One
        /// input only.
        #[arg(long, value_name = "FILE", conflicts_with = "export_dir")]
        export: Option<PathBuf>,
        /// Write each input's solution to DIR/<name>.solved.png.
        #[arg(long, value_name = "DIR")]
        export_dir: Option<PathBuf>,
        /// Also draw the located grid's outline on exported images.
        #[arg(long)]
        outline: bool,
        /// Print one JSON object per puzzle instead of text.
        #[arg(long)]
        json: bool,
        /// Print an f-puzzles link to each puzzle (with its solution when
        /// it has one, and a photo's handwritten entries as the solver's
        /// own digits), after its solution (one-line batches: after a
        /// space on the same line; --json: as "link"). Opens in f-puzzles,
        /// and in SudokuPad as https://sudokupad.app/fpuzzles<data after load=>.
        #[arg(long)]
        export_link: bool,
        /// Count solutions up to N (2 proves uniqueness).
        #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
        count: u64,
        /// The puzzle's shape, instead of detecting it.
        #[arg(long, value_name = "NAME", value_parser = parse_layout)]
        layout: Option<Layout>,
        /// The page of each PDF input to read (from 1).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_page)]
        page: usize,
    },
    /// Read the puzzle in photos or screenshots and print it as text.
    ///
    /// Finds the grid and tells its shape (classic, samurai, twodoku,
    /// butterfly, flower, sohei, 4x4, 6x6, 8x8, 12x12, 16x16, 25x25; a
    /// jigsaw's regions and a killer's cages too), reads each cell, and
    /// prints the puzzle in the text format of `solve`. Several images are read in
    /// parallel. Exit status: 0 when every image was read, 1 otherwise.
    Read {
        /// Image files: PNG, JPEG, WebP, BMP, GIF, TIFF; or PDF files (one
        /// page each: see --page).
        #[arg(required = true, value_name = "IMAGE")]
        images: Vec<PathBuf>,
        /// Print one JSON object per image: layout, grid (the givens),
        /// entries (the player's handwritten digits read for sure, `.` where
        /// none), marks (cells with candidate marks: {"cell": [row, col],
        /// "digits": [...]}, digits where read), corners (image pixels,
        /// clockwise from the puzzle's top-left even when the photo shows it
        /// turned), uncertain cells ([row, col]), unsure (cells where a digit
        /// is written that could not be read for sure: {"cell": [row, col],
        /// "looks_like": 5, "runner_up": 3, "confidence": 0.62}), and rules
        /// (the variant rules read or given, as a puzzle file's JSON writes
        /// them: "diagonal+", "white r1c2 r1c3", "x r4c4 r5c4").
        #[arg(long)]
        json: bool,
        /// Print the givens, then `entries:` and the player's handwritten
        /// digits read for sure, in the text form `check` reads.
        #[arg(long, conflicts_with = "json")]
        entries: bool,
        /// The puzzle's shape: auto (detect), or a shape's name (classic,
        /// samurai, twodoku, butterfly, flower, sohei, 4x4, 6x6, 8x8, 12x12,
        /// 16x16, 25x25).
        #[arg(long, value_name = "NAME", default_value = "auto", value_parser = parse_layout_or_auto)]
        layout: LayoutChoice,
        /// Write the intermediate images (threshold, located grid, rectified
        /// grid, cell crops) into DIR/<image name>/.
        #[arg(long, value_name = "DIR")]
        debug: Option<PathBuf>,
        /// The page of each PDF to read (from 1).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_page)]
        page: usize,
        /// Rules the puzzle has besides those its page draws, which the
        /// solver's check of the reading holds: a comma-separated list of
        /// diagonals, diagonal+, diagonal-, disjoint, antiknight, antiking,
        /// nonconsecutive, allgiven white|black|xv (e.g. `antiking,diagonals`).
        #[arg(long, value_name = "LIST", value_parser = parse_rules_list)]
        rules: Option<GridRules>,
    },
    /// Read every image of a folder that has ground truth beside it (NAME.dat
    /// or NAME.txt) and report how much was read right.
    Eval {
        /// A folder of images with ground truth.
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// Fail (exit 1) when fewer than this percentage of grids are read
        /// entirely right.
        #[arg(long, value_name = "PERCENT")]
        min_grids: Option<f64>,
        /// Fail (exit 1) when fewer than this percentage of the killers are
        /// read with every cage and digit right.
        #[arg(long, value_name = "PERCENT")]
        min_killers: Option<f64>,
        /// Fail (exit 1) when fewer than this percentage of the player's
        /// handwritten entries are read right (on photos whose labels hold
        /// handwriting).
        #[arg(long, value_name = "PERCENT")]
        min_entries: Option<f64>,
        /// A file telling which labelled digits are printed (per puzzle, a
        /// name its photos' names begin with and 9 rows of its printed
        /// givens, `.` elsewhere): entries are then every other labelled
        /// digit, and one read as a given counts as not read.
        #[arg(long, value_name = "FILE")]
        printed: Option<PathBuf>,
    },
    /// Time the solver on a file of puzzles (one thread) and print puzzles per second.
    Bench {
        /// A puzzle file (a batch, or one puzzle).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Count solutions up to N for each puzzle.
        #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
        count: u64,
        /// Solve the whole file this many times and report the best run.
        #[arg(long, value_name = "K", default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
        repeat: u64,
        /// The puzzles' shape, instead of detecting it.
        #[arg(long, value_name = "NAME", value_parser = parse_layout)]
        layout: Option<Layout>,
    },
    /// The next logical step of a puzzle in progress, and why.
    ///
    /// INPUT is a puzzle text file (one puzzle; filled cells are taken as
    /// they are) or an image, read as by `read`. A puzzle with a player's
    /// entries, as `check` takes it, starts from the givens and the correct
    /// entries; each wrong one is named on standard error and left out. Prints the technique, its
    /// weight on Sudoku Explainer's scale and one sentence (rows and columns
    /// from 1). When no technique applies, the step is the solver's digit
    /// for the cell with the fewest candidates. Exit status as for `solve`.
    #[command(
        after_help = "Examples:\n  sudoku-lens hint samples/puzzles/classic.txt\n  \
        sudoku-lens hint --json photo.jpg\n  \
        sudoku-lens hint photo.jpg --export photo.hint.png"
    )]
    Hint {
        /// A puzzle text file or an image; `-` reads standard input.
        #[arg(value_name = "INPUT")]
        input: PathBuf,
        /// Print the step as one JSON object: technique, difficulty,
        /// placements and eliminations ([row, col, digit]), pattern cells
        /// ([row, col]), explanation; rows and columns from 0.
        #[arg(long)]
        json: bool,
        /// Also draw the step onto the image (a text puzzle: onto its drawn
        /// grid): its pattern's cells outlined, the candidates it strikes
        /// crossed out, what it places in green. PNG, or JPEG for a .jpg name.
        #[arg(long, value_name = "OUT")]
        export: Option<PathBuf>,
        /// The puzzle's shape, instead of detecting it.
        #[arg(long, value_name = "NAME", value_parser = parse_layout)]
        layout: Option<Layout>,
    },
    /// Every step of a logical path from a puzzle to its solution, one a line.
    ///
    /// Each step is the easiest available, as `hint` gives it.
    Explain {
        /// A puzzle text file or an image; `-` reads standard input.
        #[arg(value_name = "INPUT")]
        input: PathBuf,
        /// Print one JSON object per step, as `hint --json`.
        #[arg(long)]
        json: bool,
        /// The puzzle's shape, instead of detecting it.
        #[arg(long, value_name = "NAME", value_parser = parse_layout)]
        layout: Option<Layout>,
    },
    /// Rate puzzles on Sudoku Explainer's scale: the hardest step of the
    /// easiest logical path, a level, and the techniques used.
    ///
    /// Prints one line per puzzle, in input order: rating, level (easy,
    /// medium, hard, expert, extreme), puzzle. Puzzles are rated in parallel.
    Rate {
        /// Puzzle files (a batch, or one puzzle); `-` reads standard input.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Print one JSON object per puzzle: puzzle, rating, level,
        /// logic_solved, techniques (name: times used).
        #[arg(long)]
        json: bool,
        /// The puzzles' shape, instead of detecting it.
        #[arg(long, value_name = "NAME", value_parser = parse_layout)]
        layout: Option<Layout>,
    },
    /// Check a player's digits: which are wrong, how many cells are left,
    /// whether the grid is solved correctly.
    ///
    /// INPUT is a text file: the puzzle in any form, then a line
    /// `entries:` and a grid of the same shape holding the player's digits
    /// (`.` elsewhere); or JSON with "entries" rows beside "grid". Or an
    /// image, read as by `read`: a grid read full is checked as a solution
    /// (every house holds every symbol once, every cage its sum). An entry
    /// is wrong when it repeats a symbol of its row, column, box or cage, or
    /// differs from the puzzle's unique solution. Prints each wrong entry on
    /// a line (rows and columns from 1), on an image each cell where a
    /// digit is written that could not be read for sure, then "all correct
    /// so far, N to go" or "solved correctly".
    ///
    /// Exit status: 0 nothing wrong; 5 mistakes found; 1 unreadable or
    /// malformed input, or no grid found in an image; 3 the givens have no
    /// solution, 4 several (entries then checked against their houses
    /// only). With several, the first of 1, 5, 3, 4.
    #[command(
        after_help = "Examples:\n  sudoku-lens check samples/puzzles/entries/classic.txt\n  \
        sudoku-lens check --json mine.txt\n  \
        sudoku-lens check solved-page.jpg --export marked.png"
    )]
    Check {
        /// A text file (puzzle and entries) or an image; `-` reads standard input.
        #[arg(value_name = "INPUT")]
        input: PathBuf,
        /// Print one JSON object: wrong ([{"cell": [row, col], "wrote": N,
        /// "reason": "..."}], rows and columns from 0), remaining, solved,
        /// givens ("unique", "several solutions", "no solution", "solution page").
        #[arg(long)]
        json: bool,
        /// Write the picture with the wrong entries marked in red to FILE
        /// (PNG, or JPEG for .jpg/.jpeg): the image, or for a text input a
        /// rendered grid with the entries in blue.
        #[arg(long, value_name = "FILE")]
        export: Option<PathBuf>,
        /// The puzzle's shape, instead of detecting it.
        #[arg(long, value_name = "NAME", value_parser = parse_layout)]
        layout: Option<Layout>,
        /// The page of a PDF input to read (from 1).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_page)]
        page: usize,
    },
    /// Open the desktop app (also what `sudoku-lens` alone does).
    Gui {
        /// A photo, screenshot or puzzle text file to open at once.
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
        /// Show the solution as soon as the file is read.
        #[arg(long)]
        solve: bool,
    },
}

/// `--layout` of `read`: detect, or a named layout.
#[derive(Clone, Debug)]
pub struct LayoutChoice(Option<Layout>);

fn parse_layout_or_auto(name: &str) -> Result<LayoutChoice, String> {
    if name.eq_ignore_ascii_case("auto") {
        return Ok(LayoutChoice(None));
    }
    parse_layout(name).map(|l| LayoutChoice(Some(l)))
}

fn parse_layout(name: &str) -> Result<Layout, String> {
    Layout::named(name).map_err(|e| e.to_string())
}

/// `--rules`: rules over the whole grid.
#[derive(Clone, Debug)]
pub(crate) struct GridRules(Vec<sudoku_lens::grid::Rule>);

fn parse_rules_list(list: &str) -> Result<GridRules, String> {
    sudoku_lens::grid::parse_grid_rules(list).map(GridRules)
}

/// `--page`: a page number, from 1.
fn parse_page(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("{text:?} is not a page number (1, 2, ...)")),
    }
}

/// How a command ended, as an exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Solved,
    Multiple,
    NoSolution,
    /// `check` found wrong entries.
    Mistakes,
    /// A search ran past `--time-limit`.
    GaveUp,
    Malformed,
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(match s {
            Status::Solved => 0,
            Status::Malformed => 1,
            Status::NoSolution => 3,
            Status::Multiple => 4,
            Status::Mistakes => 5,
            Status::GaveUp => 6,
        })
    }
}

/// Refuses an export onto the input it is made from (the same file, by
/// whatever path or link): the input would be lost.
pub fn refuse_export_over_input(export: Option<&Path>, input: &Path) -> Result<(), String> {
    let Some(out) = export else { return Ok(()) };
    match sudoku_lens::overlay::export::writes_over(out, &[input]) {
        Some(input) => Err(format!(
            "will not export to {}: it is the input {}, which would be lost; choose another name",
            out.display(),
            input.display()
        )),
        None => Ok(()),
    }
}

/// What a search that gave up tells the user, from what it had found
/// (`why`): how long it ran and how to give it longer.
pub fn gave_up(why: &str) -> String {
    let limit = sudoku_lens::solve::time_limit().map_or(0.0, |t| t.as_secs_f64());
    format!(
        "gave up after {limit} s ({why}); --time-limit SECONDS gives the search longer (0: no limit)"
    )
}

pub fn run(command: Command) -> Result<Status, String> {
    match command {
        Command::Solve {
            inputs,
            export,
            export_dir,
            outline,
            json,
            export_link,
            count,
            layout,
            page,
        } => {
            let export = solve::Export {
                file: export,
                dir: export_dir,
                outline,
            };
            let output = solve::Output {
                format: if json {
                    solve::Format::Json
                } else {
                    solve::Format::Text
                },
                limit: count,
                link: export_link,
            };
            solve::run(&inputs, output, layout.as_ref(), page, &export)
        }
        Command::Read {
            images,
            json,
            entries,
            layout,
            debug,
            page,
            rules,
        } => read::run(
            &images,
            json,
            entries,
            layout.0.as_ref(),
            debug.as_deref(),
            page,
            rules.as_ref().map_or(&[], |r| &r.0),
        ),
        Command::Eval {
            dir,
            min_grids,
            min_killers,
            min_entries,
            printed,
        } => eval::run(
            &dir,
            eval::Floors {
                grids: min_grids,
                killers: min_killers,
                entries: min_entries,
            },
            printed.as_deref(),
        ),
        Command::Bench {
            file,
            count,
            repeat,
            layout,
        } => bench::run(&file, count, repeat, layout.as_ref()),
        Command::Hint {
            input,
            json,
            layout,
            export,
        } => logic::run_one(
            &input,
            logic::Mode::Hint,
            json,
            layout.as_ref(),
            export.as_deref(),
        ),
        Command::Explain {
            input,
            json,
            layout,
        } => logic::run_one(&input, logic::Mode::Explain, json, layout.as_ref(), None),
        Command::Rate {
            files,
            json,
            layout,
        } => logic::run_rate(&files, json, layout.as_ref()),
        Command::Check {
            input,
            json,
            export,
            layout,
            page,
        } => check::run(&input, json, export.as_deref(), layout.as_ref(), page),
        Command::Gui { file, solve } => gui(file, solve),
    }
}

/// The desktop app, opening `file` if given.
#[cfg(feature = "gui")]
fn gui(file: Option<PathBuf>, solve: bool) -> Result<Status, String> {
    sudoku_lens::app::run(sudoku_lens::app::Options { file, solve }).map(|()| Status::Solved)
}

/// Without the app: says so, and shows what there is instead.
#[cfg(not(feature = "gui"))]
fn gui(_file: Option<PathBuf>, _solve: bool) -> Result<Status, String> {
    print_without_app();
    Ok(Status::Malformed)
}

/// The help, and why the desktop app does not start: this build has no
/// `gui` feature.
#[cfg(not(feature = "gui"))]
pub fn print_without_app() {
    use clap::CommandFactory;
    let _ = Cli::command().print_long_help();
    eprintln!(
        "sudoku-lens: the desktop app is not built in (build with the `gui` feature); \
         the commands above work without it"
    );
}

/// Ends the program with a usage error of `subcommand` (status 2), as for a
/// bad argument.
fn usage_error(subcommand: &str, message: &str) -> ! {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    cli.build();
    let mut command = cli
        .find_subcommand_mut(subcommand)
        .cloned()
        .unwrap_or_else(Cli::command);
    command
        .error(clap::error::ErrorKind::ArgumentConflict, message)
        .exit()
}

/// Reads a text input (`-` is standard input; an f-puzzles or SudokuPad
/// link that is not a file's name is its own text); returns its display
/// name too.
fn read_input(path: &Path) -> Result<(String, String), String> {
    if let Some(link) = as_link(path) {
        return Ok((link_name(link), link.to_string()));
    }
    let mut text = TextReader::open(path)?;
    let (whole, _) = text.part(usize::MAX)?;
    Ok((text.name, whole))
}

/// A text input (a file, or standard input for `-`) read a part at a time.
pub struct TextReader {
    name: String,
    reader: Box<dyn io::BufRead>,
    /// Bytes read so far, to say where text that is not UTF-8 is.
    read: usize,
}

impl TextReader {
    /// Opens `path` (`-`: standard input); the error names the file.
    pub fn open(path: &Path) -> Result<TextReader, String> {
        if path.as_os_str() == "-" {
            return Ok(TextReader {
                name: "<stdin>".into(),
                reader: Box::new(io::stdin().lock()),
                read: 0,
            });
        }
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => format!("{name}: no such file"),
            _ => format!("{name}: cannot read: {e}"),
        })?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(format!("{name}: is a folder; give a puzzle file"));
        }
        Ok(TextReader {
            name,
            reader: Box::new(io::BufReader::new(file)),
            read: 0,
        })
    }

    /// The input's name, as messages give it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The next whole lines, about `bytes` of them (more when one line is
    /// longer), and whether the input ended there.
    pub fn part(&mut self, bytes: usize) -> Result<(String, bool), String> {
        // (Room for a part and the end of its last line; a whole file grows.)
        let mut buf = Vec::with_capacity(bytes.min(1 << 24).saturating_add(1024));
        let mut ended = false;
        while buf.len() < bytes {
            let n = self
                .reader
                .read_until(b'\n', &mut buf)
                .map_err(|e| format!("{}: cannot read: {e}", self.name))?;
            if n == 0 {
                ended = true;
                break;
            }
        }
        let start = self.read;
        self.read += buf.len();
        match String::from_utf8(buf) {
            Ok(text) => Ok((text, ended)),
            Err(e) => Err(format!(
                "{}: not a puzzle text file (byte {} is not UTF-8 text)",
                self.name,
                start + e.utf8_error().valid_up_to() + 1
            )),
        }
    }
}

/// Parses puzzle text for a command that works on the givens (`solve`,
/// `rate`): a text with a player's entries is its puzzle alone, with a note
/// on standard error that the entries were not used (`doing` says what is
/// done instead, e.g. "solving the givens").
fn parse_givens(
    text: &str,
    name: &str,
    layout: Option<&Layout>,
    doing: &str,
) -> Result<Document, ParseError> {
    if !has_entries(text) {
        return parse(text, name, layout);
    }
    let progress = parse_progress(text, name, layout)?;
    let n = progress.entries().count();
    eprintln!(
        "sudoku-lens: {name}: {doing}; the player's {n} {} not used (`sudoku-lens check` checks them)",
        if n == 1 { "entry is" } else { "entries are" }
    );
    Ok(Document::Single(progress.puzzle().clone()))
}

/// The argument as a link, when it is one and no file has that name.
fn as_link(path: &Path) -> Option<&str> {
    let s = path.to_str()?;
    (sudoku_lens::grid::fpuzzles::is_link(s) && !path.exists()).then_some(s)
}

/// A link shortened for messages: its first 40 characters.
fn link_name(link: &str) -> String {
    let short: String = link.chars().take(40).collect();
    if short.len() < link.len() {
        format!("{short}...")
    } else {
        short
    }
}

/// A bar counting `len` puzzles on standard error when it is a terminal
/// (hidden otherwise, so pipes and logs stay clean).
fn progress_bar(len: usize) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressStyle};
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        ProgressBar::new(len as u64).with_style(
            ProgressStyle::with_template(
                "{spinner} {pos}/{len} puzzles [{bar:30}] {elapsed} so far, {eta} left",
            )
            .expect("valid template")
            .progress_chars("=> "),
        )
    } else {
        ProgressBar::hidden()
    }
}
