//! The desktop app: open a photo, screenshot or puzzle text, check and fix
//! what was read, solve, and export the solved photo.
//!
//! - [`input`]: what can be opened and the background work of reading it
//!   (no window code).
//! - [`doc`]: one open puzzle with its undo history (no window code).
//! - [`hint`]: the levels of a hint and the background work of finding a
//!   step or a rating (no window code).
//! - [`SudokuApp`] (this file): the app's state and every action on it;
//!   long work runs on threads whose results come back through a channel,
//!   taken in by [`eframe::App::logic`] before each frame is drawn.
//! - `worker`: the solver's thread, fed only the newest state (no window
//!   code).
//! - `view` and `canvas`: drawing, and turning clicks and keys into
//!   actions; `canvas` also keeps the document's pictures as textures.
//!
//! Every way a puzzle arrives (a dropped or opened file, a paste, a sample)
//! goes through [`SudokuApp::open`], which tests call directly.

pub mod doc;
pub mod hint;
pub mod input;

mod canvas;
pub mod labels;
pub mod palette;
pub use canvas::{REGION_TINTS, SELECT, SELECTED_CAGE_WIDTH};
mod view;
mod worker;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use eframe::egui;
use serde::{Deserialize, Serialize};

use crate::check::{EntryCheck, Givens};
use crate::grid::{Layout, Puzzle};
use crate::logic::{HouseIndex, Rating, Step, pencil_marks};
use crate::overlay::Contrast;
use crate::vision::read::{Reading, Regions};

use doc::{Doc, Solutions, Source, Writing, count_solutions_within};
use hint::{Engines, Found, Hint};
use input::{Input, Loaded, Pages, load};
use worker::{Cancel, Worker};

/// Bundled samples: (button text, file name, content).
pub const TEXT_SAMPLES: &[(&str, &str, &str)] = &[
    (
        "Classic sample",
        "classic.txt",
        include_str!("../../samples/puzzles/classic.txt"),
    ),
    (
        "Samurai sample",
        "samurai.txt",
        include_str!("../../samples/puzzles/samurai.txt"),
    ),
    (
        "Killer sample",
        "killer.txt",
        include_str!("../../samples/puzzles/killer.txt"),
    ),
    (
        "Jigsaw sample",
        "jigsaw.txt",
        include_str!("../../samples/puzzles/jigsaw.txt"),
    ),
    (
        "16x16 sample",
        "16by16.txt",
        include_str!("../../samples/puzzles/16by16.txt"),
    ),
];

/// Bundled photos and a PDF: (button text, file name, content), simulated
/// phone photos of printed pages and a printed page from `samples/images/`.
/// The start screen offers the first [`START_PHOTOS`]; the Samples menu all.
pub const PHOTO_SAMPLES: &[(&str, &str, &[u8])] = &[
    (
        "Photo sample",
        "classic-photo-page.jpg",
        include_bytes!("../../samples/images/classic-photo-page.jpg"),
    ),
    (
        "Samurai photo",
        "samurai-photo-page.jpg",
        include_bytes!("../../samples/images/samurai-photo-page.jpg"),
    ),
    (
        "Killer photo",
        "killer-photo-page.jpg",
        include_bytes!("../../samples/images/killer-photo-page.jpg"),
    ),
    (
        "Jigsaw photo",
        "jigsaw-photo-page.jpg",
        include_bytes!("../../samples/images/jigsaw-photo-page.jpg"),
    ),
    (
        "16x16 photo",
        "16x16-photo-page.jpg",
        include_bytes!("../../samples/images/16x16-photo-page.jpg"),
    ),
    (
        "Handwriting photo",
        "classic-photo-entries.jpg",
        include_bytes!("../../samples/images/classic-photo-entries.jpg"),
    ),
    (
        "PDF sample",
        "classic-pdf.pdf",
        include_bytes!("../../samples/images/classic-pdf.pdf"),
    ),
];

/// How many of [`PHOTO_SAMPLES`] and of [`TEXT_SAMPLES`] the start screen
/// offers (one row each); the Samples menu has them all.
pub const START_PHOTOS: usize = 2;
pub const START_TEXTS: usize = 3;

/// The layouts a photo can be read as (the side panel's layout switch):
/// those the locator tells apart, then [`JIGSAW`]. A 12x12, 16x16 or
/// 25x25 is read with the symbols model: its letters, and a 16x16's
/// hexadecimal 0-F.
pub fn layouts() -> impl Iterator<Item = &'static str> {
    crate::vision::locate::DETECTED_LAYOUTS
        .iter()
        .copied()
        .chain([JIGSAW])
}

/// The layout switch's entry for a square grid whose boxes are the regions
/// its thick lines draw.
pub const JIGSAW: &str = "jigsaw";

/// How long corners must rest before the grid is read again, in seconds.
pub const REREAD_DELAY: f64 = 0.25;

/// A file dialog that comes back without a file sooner than this was
/// never shown (no dialog service, as on a bare X server): nobody cancels
/// a dialog this fast.
pub const DIALOG_NOT_SHOWN: Duration = Duration::from_millis(400);

/// Most documents kept in the recent list.
pub const RECENT_MAX: usize = 20;

/// How the app is started.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// A file to open at once.
    pub file: Option<PathBuf>,
    /// Show the solution as soon as the file is read.
    pub solve: bool,
}

/// Preferences kept between runs.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    pub last_folder: Option<PathBuf>,
    pub show_solution: bool,
    pub show_readings: bool,
    /// Draw the candidates left in each empty cell.
    pub show_candidates: bool,
    pub recent_files: Vec<PathBuf>,
    /// Black, white and strong colours, thicker lines (View menu).
    pub high_contrast: bool,
}

impl Default for Prefs {
    fn default() -> Prefs {
        Prefs {
            last_folder: None,
            show_solution: true,
            show_readings: true,
            show_candidates: false,
            recent_files: Vec::new(),
            high_contrast: false,
        }
    }
}

/// Storage key of [`Prefs`].
const PREFS_KEY: &str = "sudoku-lens-prefs";

/// Opens the app's window; returns when it is closed.
pub fn run(options: Options) -> Result<(), String> {
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("sudoku-lens")
            .with_app_id("sudoku-lens")
            .with_inner_size([1100.0, 760.0])
            .with_min_inner_size([480.0, 360.0])
            .with_drag_and_drop(true),
        ..Default::default()
    };
    eframe::run_native(
        "sudoku-lens",
        native,
        Box::new(move |cc| {
            let prefs = cc
                .storage
                .and_then(|s| eframe::get_value::<Prefs>(s, PREFS_KEY))
                .unwrap_or_default();
            let mut app = SudokuApp::new(&cc.egui_ctx, prefs);
            match options.file {
                Some(file) if options.solve => app.open_solved(Input::Path(file)),
                Some(file) => app.open(Input::Path(file)),
                None => {}
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| format!("cannot open a window: {e}"))
}

/// One state of one document: its id in this run and its revision. What
/// background results and drawn pictures are checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    doc: u64,
    revision: u64,
}

/// Results of background work.
enum Message {
    Opened {
        ticket: u64,
        path: Option<PathBuf>,
        name: String,
        result: Result<Loaded, String>,
        texture: Option<egui::ColorImage>,
    },
    Reread {
        stamp: Stamp,
        result: Result<Box<Reading>, String>,
    },
    Switched {
        stamp: Stamp,
        result: Result<Box<Reading>, String>,
    },
    Counted {
        stamp: Stamp,
        solutions: Solutions,
        /// The player's entries checked, when there are any.
        check: Option<EntryCheck>,
        /// The picture with the solution drawn in, when there is one
        /// solution (`Err`: drawing it failed).
        solved: Option<Result<egui::ColorImage, String>>,
        /// The look it was drawn in.
        contrast: Contrast,
    },
    /// The picture with the solution drawn in again, for a state whose
    /// count was kept while its pictures were dropped (the document was
    /// left and brought back).
    Drawn {
        stamp: Stamp,
        solved: Result<egui::ColorImage, String>,
        contrast: Contrast,
    },
    Hinted {
        stamp: Stamp,
        result: Result<Found, String>,
    },
    Rated {
        stamp: Stamp,
        result: Result<Rating, String>,
    },
    /// The open dialog's answer, and how long it was up.
    PickedOpen {
        path: Option<PathBuf>,
        waited: Duration,
    },
    /// The export dialog's answer, and how long it was up.
    PickedExport {
        path: Option<PathBuf>,
        waited: Duration,
    },
    Exported {
        stamp: Stamp,
        result: Result<PathBuf, String>,
    },
}

/// The status of a player's entries: "2 mistakes, 23 to go", "All
/// correct so far, 23 to go", "Solved correctly"; `unsure` of the cells to
/// go hold a digit the reader could not read for sure.
fn entries_status(check: &EntryCheck, unsure: usize) -> String {
    capitalise(&check.summary_with_unsure(unsure))
}

/// `s` with its first letter in upper case.
pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Where background work hands in its result: the app's channel, and a
/// repaint so that the next frame's logic takes it in.
#[derive(Clone)]
struct Outbox {
    tx: Sender<Message>,
    ctx: egui::Context,
}

impl Outbox {
    fn send(&self, message: Message) {
        // A closed channel means the app is gone: nobody to tell.
        let _ = self.tx.send(message);
        self.ctx.request_repaint();
    }
}

/// What the solver is asked: one state of a document.
struct Count {
    stamp: Stamp,
    snap: doc::Snapshot,
    source: Source,
    /// The look the solved picture is drawn in.
    contrast: Contrast,
}

impl Count {
    /// Counts the solutions, and draws the solved picture when there is
    /// one, so that showing and hiding the solution is instant. `None`
    /// once `cancel` is set: the count may have given up, and nobody
    /// waits for the rest.
    fn run(self, cancel: &Cancel) -> Option<Message> {
        let solutions = count_solutions_within(&self.snap.puzzle, cancel.budget());
        if cancel.is_set() {
            return None;
        }
        let check = self.snap.check_within(cancel.budget());
        if cancel.is_set() {
            return None;
        }
        let solved = match &solutions {
            Solutions::Unique(s) => {
                Some(solved_picture(&self.source, &self.snap, s, self.contrast))
            }
            _ => None,
        };
        Some(Message::Counted {
            stamp: self.stamp,
            solutions,
            check,
            solved,
            contrast: self.contrast,
        })
    }
}

/// The picture of a state with its one solution drawn in, as the window
/// uploads it, in `contrast`.
fn solved_picture(
    source: &Source,
    snap: &doc::Snapshot,
    solution: &[u8],
    contrast: Contrast,
) -> Result<egui::ColorImage, String> {
    doc::picture(source, snap, Some(solution), contrast).map(|img| canvas::color_image(&img))
}

/// What the hint finder is asked: one state of a document.
struct HintJob {
    stamp: Stamp,
    snap: doc::Snapshot,
}

impl HintJob {
    /// The next step from the givens and the player's right entries (the
    /// wrong ones, marked red on the picture, left out). The check's search
    /// and the engines give up once `cancel` is set.
    fn run(self, engines: &mut Engines, cancel: &Cancel) -> Message {
        engines.set_budget(cancel.budget());
        let check = self.snap.check_within(cancel.budget());
        let puzzle = self.snap.resumed(check.as_ref());
        Message::Hinted {
            stamp: self.stamp,
            result: engines.hint(&puzzle, &self.snap.eliminated),
        }
    }
}

/// What the rater is asked: one state of a document with one solution.
struct RateJob {
    stamp: Stamp,
    puzzle: Puzzle,
}

/// An open puzzle with an id that outlives moves to and from the recent list.
struct Entry {
    id: u64,
    doc: Doc,
}

impl Entry {
    fn stamp(&self) -> Stamp {
        Stamp {
            doc: self.id,
            revision: self.doc.revision,
        }
    }
}

/// What is being read in the background.
pub struct Loading {
    pub name: String,
    pub since: f64,
}

/// The app: open documents, background work, preferences.
pub struct SudokuApp {
    outbox: Outbox,
    rx: Receiver<Message>,
    pub prefs: Prefs,
    current: Option<Entry>,
    /// Earlier documents, most recent first, with their edits and history.
    recent: Vec<Entry>,
    next_id: u64,
    /// The newest open request; older results are discarded.
    ticket: u64,
    /// The open request whose puzzle shows its solution at once (asked
    /// for with it); any other opens without.
    reveal: Option<u64>,
    pub loading: Option<Loading>,
    /// A failure to show (opening, reading, exporting).
    pub error: Option<String>,
    /// A passing note (exported, copied).
    pub info: Option<String>,
    /// Corners moved or layout switched: read again once this time passes.
    reread_due: Option<f64>,
    rereading: Option<Stamp>,
    /// A layout switch being read, for this state of a document.
    switching: Option<Stamp>,
    /// The solutions of one state of a document, as far as counted.
    solutions: Option<(Stamp, Solutions)>,
    /// The check of that state's entries (`None` inside: no entries).
    entry_check: Option<(Stamp, Option<EntryCheck>)>,
    /// The newest state handed to the solver and not yet counted.
    counting: Option<Stamp>,
    /// The state whose solved picture is being drawn again.
    drawing: Option<Stamp>,
    /// Counts solutions on a thread of its own, newest state first.
    solver: Worker<Count>,
    /// The hint asked for one state of a document: its level, its step.
    hint: Option<(Stamp, Hint)>,
    /// The newest state handed to the hint finder and not yet answered.
    hinting: Option<Stamp>,
    /// Finds hints on a thread of its own (a hard samurai's can take a
    /// while), newest request first.
    hinter: Worker<HintJob>,
    /// The rating of one state of a document, or why there is none.
    rating: Option<(Stamp, Result<Rating, String>)>,
    /// The newest state handed to the rater and not yet rated.
    rating_for: Option<Stamp>,
    /// Rates puzzles with one solution on a thread of its own.
    rater: Worker<RateJob>,
    /// The candidates of one state, drawn in the candidates view.
    marks: Option<(Stamp, Vec<u32>)>,
    /// The houses of the open document's layout, for its candidates.
    houses: Option<Arc<HouseIndex>>,
    /// A file dialog is open.
    dialog_open: bool,
    /// The path field's text: a file to open or where to export, typed
    /// where no file dialog can be shown (or by choice).
    pub path_field: String,
    /// Zoom and pan of the canvas.
    pub(crate) view: canvas::ViewState,
    /// The open document's pictures, uploaded on first use.
    textures: canvas::Textures,
    /// Time of the current frame, seconds.
    now: f64,
    /// The window's title as last set.
    title: String,
    /// Closing was asked for while edits are unsaved: confirm first.
    confirm_close: bool,
    close_confirmed: bool,
    /// The high-contrast choice the window's widgets were last styled
    /// for; `None` before the first frame.
    styled_contrast: Option<bool>,
}

impl SudokuApp {
    pub fn new(ctx: &egui::Context, prefs: Prefs) -> SudokuApp {
        let (tx, rx) = channel();
        let outbox = Outbox {
            tx,
            ctx: ctx.clone(),
        };
        // A job whose token is set was replaced or withdrawn: whatever it
        // ends with (a search given up, or an answer just too late) is no
        // answer to anything shown, and is not sent.
        let solver = {
            let outbox = outbox.clone();
            Worker::spawn(
                "sudoku-lens solver",
                move |count: Count, cancel: &Cancel| {
                    if let Some(message) = count.run(cancel)
                        && !cancel.is_set()
                    {
                        outbox.send(message);
                    }
                },
            )
        };
        let hinter = {
            let outbox = outbox.clone();
            let mut engines = Engines::default();
            Worker::spawn("sudoku-lens hints", move |job: HintJob, cancel: &Cancel| {
                let message = job.run(&mut engines, cancel);
                if !cancel.is_set() {
                    outbox.send(message);
                }
            })
        };
        let rater = {
            let outbox = outbox.clone();
            let mut engines = Engines::default();
            Worker::spawn(
                "sudoku-lens rating",
                move |job: RateJob, cancel: &Cancel| {
                    engines.set_budget(cancel.budget());
                    let result = engines.rate(&job.puzzle);
                    if !cancel.is_set() {
                        outbox.send(Message::Rated {
                            stamp: job.stamp,
                            result,
                        });
                    }
                },
            )
        };
        SudokuApp {
            hint: None,
            hinting: None,
            hinter,
            rating: None,
            rating_for: None,
            rater,
            marks: None,
            houses: None,
            outbox,
            rx,
            prefs,
            current: None,
            recent: Vec::new(),
            next_id: 1,
            ticket: 0,
            reveal: None,
            loading: None,
            error: None,
            info: None,
            reread_due: None,
            rereading: None,
            switching: None,
            solutions: None,
            entry_check: None,
            counting: None,
            drawing: None,
            solver,
            dialog_open: false,
            path_field: String::new(),
            view: canvas::ViewState::default(),
            textures: Default::default(),
            now: 0.0,
            title: String::new(),
            confirm_close: false,
            close_confirmed: false,
            styled_contrast: None,
        }
    }

    /// Runs `work` on a thread of its own and hands its result to the app.
    fn spawn(&self, work: impl FnOnce() -> Message + Send + 'static) {
        let outbox = self.outbox.clone();
        std::thread::spawn(move || outbox.send(work()));
    }

    /// Opens an input: a dropped, chosen or pasted file, pasted text or
    /// image, or a sample. Reading runs in the background; a newer input
    /// replaces one still being read. The current document stays reachable
    /// in the recent list.
    pub fn open(&mut self, input: Input) {
        self.ticket += 1;
        let ticket = self.ticket;
        let name = input.name();
        let path = match input.file() {
            Input::Path(p) => Some(p.clone()),
            _ => None,
        };
        if let Some(dir) = path
            .as_ref()
            .and_then(|p| p.parent())
            .filter(|d| !d.as_os_str().is_empty())
        {
            self.prefs.last_folder = Some(dir.to_path_buf());
        }
        self.loading = Some(Loading {
            name: name.clone(),
            since: self.now,
        });
        self.error = None;
        self.info = None;
        self.spawn(move || {
            let result = load(input);
            let texture = match &result {
                Ok(Loaded::Photo { photo, .. }) => Some(canvas::color_image(&photo.rgba)),
                _ => None,
            };
            Message::Opened {
                ticket,
                path,
                name,
                result,
                texture,
            }
        });
    }

    /// Opens an input like [`Self::open`], its solution shown as soon as
    /// it is read: the solution was asked for with it (the command line's
    /// `--solve`).
    pub fn open_solved(&mut self, input: Input) {
        self.open(input);
        self.reveal = Some(self.ticket);
    }

    /// Opens a bundled sample by its button text.
    pub fn open_sample(&mut self, label: &str) {
        if let Some((_, name, text)) = TEXT_SAMPLES.iter().find(|s| s.0 == label) {
            self.open(Input::Text {
                name: (*name).into(),
                text: (*text).into(),
            });
        } else if let Some((_, name, bytes)) = PHOTO_SAMPLES.iter().find(|s| s.0 == label) {
            self.open(Input::Bytes {
                name: (*name).into(),
                bytes: (*bytes).into(),
            });
        }
    }

    /// Button texts of the bundled samples, photos first.
    pub fn sample_labels() -> Vec<&'static str> {
        PHOTO_SAMPLES
            .iter()
            .map(|s| s.0)
            .chain(TEXT_SAMPLES.iter().map(|s| s.0))
            .collect()
    }

    /// True while anything runs in the background or waits to run.
    pub fn is_busy(&self) -> bool {
        self.is_working()
            || self.reread_due.is_some()
            || self.needs_counting()
            || self.needs_drawing()
            || self.needs_rating()
    }

    /// True while work runs in the background (reading, solving, a file
    /// dialog, exporting): its result asks for a repaint when it is ready.
    pub fn is_working(&self) -> bool {
        self.loading.is_some()
            || self.rereading.is_some()
            || self.switching.is_some()
            || self.counting.is_some()
            || self.drawing.is_some()
            || self.hinting.is_some()
            || self.rating_for.is_some()
            || self.dialog_open
    }

    /// The open document.
    pub fn doc(&self) -> Option<&Doc> {
        self.current.as_ref().map(|e| &e.doc)
    }

    fn doc_mut(&mut self) -> Option<&mut Doc> {
        self.current.as_mut().map(|e| &mut e.doc)
    }

    /// Names of the documents in the recent list, most recent first.
    pub fn recent_names(&self) -> Vec<String> {
        self.recent.iter().map(|e| e.doc.title()).collect()
    }

    /// The solutions of the open document's puzzle, once counted.
    pub fn solutions(&self) -> Option<&Solutions> {
        let stamp = self.current.as_ref()?.stamp();
        match &self.solutions {
            Some((s, v)) if *s == stamp => Some(v),
            _ => None,
        }
    }

    /// True when the open document's state has no count of its solutions
    /// the way.
    fn needs_counting(&self) -> bool {
        match &self.current {
            Some(e) => self.solutions().is_none() && self.counting != Some(e.stamp()),
            None => false,
        }
    }

    /// True when the open document's state has one solution, counted,
    /// but no picture with it drawn in, nor one on the way: its pictures
    /// were dropped when the document was left, and the count kept.
    fn needs_drawing(&self) -> bool {
        match (self.stamp(), self.solutions()) {
            (Some(stamp), Some(Solutions::Unique(_))) => {
                !self.textures.has_solved(stamp, self.contrast()) && self.drawing != Some(stamp)
            }
            _ => false,
        }
    }

    /// Draws the open document's solved picture again, in the background.
    fn start_drawing(&mut self) {
        let Some(e) = &self.current else { return };
        let Some(Solutions::Unique(solution)) = self.solutions() else {
            return;
        };
        let stamp = e.stamp();
        let (source, snap, solution) = (
            e.doc.source.clone(),
            e.doc.current.clone(),
            solution.clone(),
        );
        self.drawing = Some(stamp);
        let contrast = self.contrast();
        self.spawn(move || Message::Drawn {
            stamp,
            solved: solved_picture(&source, &snap, &solution, contrast),
            contrast,
        });
    }

    /// The live status line.
    pub fn status_line(&self) -> String {
        let Some(doc) = self.doc() else {
            return String::new();
        };
        if self.reread_due.is_some() || self.rereading.is_some() || self.switching.is_some() {
            return "Reading the grid again…".into();
        }
        let givens = doc.values().iter().filter(|&&v| v != 0).count();
        let Some(solutions) = self.solutions() else {
            return "Checking…".into();
        };
        match self.entry_check() {
            // Entries are judged against the one solution; without it, say
            // first what the givens allow.
            Some(check) if matches!(check.givens, Givens::Unique | Givens::SolutionPage) => {
                entries_status(check, doc.current.unsure_left())
            }
            Some(check) => format!("{}; {}", solutions.describe(givens), check.summary()),
            None => solutions.describe(givens),
        }
    }

    /// The cells of the open document that `text` names ("r1c5"), each
    /// once, in the order named: where a message points.
    pub fn cells_named(&self, text: &str) -> Vec<(String, usize)> {
        let Some(doc) = self.doc() else {
            return Vec::new();
        };
        let layout = doc.layout();
        let number = |s: &str| s.parse::<usize>().ok().filter(|&n| n >= 1);
        let mut found: Vec<(String, usize)> = Vec::new();
        for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
            let Some((r, c)) = word.strip_prefix('r').and_then(|w| w.split_once('c')) else {
                continue;
            };
            let Some(cell) = number(r)
                .zip(number(c))
                .and_then(|(r, c)| layout.cell_at(r - 1, c - 1))
            else {
                continue;
            };
            if !found.iter().any(|&(_, f)| f == cell) {
                found.push((word.to_string(), cell));
            }
        }
        found
    }

    /// Takes a document in, moving the current one to the recent list. A
    /// puzzle newly opened never shows its solution before it is asked
    /// for, whatever the last one showed; `reveal`: it was asked for with
    /// the puzzle.
    fn show_doc(&mut self, doc: Doc, texture: Option<egui::ColorImage>, reveal: bool) {
        let id = self.next_id;
        self.next_id += 1;
        if let Some(old) = self.current.take() {
            self.stash(old);
        }
        if let Some(path) = &doc.path {
            self.prefs.recent_files.retain(|p| p != path);
            self.prefs.recent_files.insert(0, path.clone());
            self.prefs.recent_files.truncate(RECENT_MAX);
        }
        if let Some(t) = texture {
            self.textures.offer_photo(id, t);
        }
        self.prefs.show_solution = reveal;
        self.current = Some(Entry { id, doc });
        self.view.request_fit();
        self.reread_due = None;
    }

    fn stash(&mut self, entry: Entry) {
        self.textures.clear();
        self.recent.insert(0, entry);
        // Over the limit, the oldest unedited document goes first.
        while self.recent.len() > RECENT_MAX {
            let drop = (0..self.recent.len())
                .rev()
                .find(|&i| !self.recent[i].doc.is_edited())
                .unwrap_or(self.recent.len() - 1);
            self.recent.remove(drop);
        }
    }

    /// Names of open or recent documents with edits not exported.
    pub fn unsaved(&self) -> Vec<String> {
        self.current
            .iter()
            .chain(&self.recent)
            .filter(|e| e.doc.has_unsaved_edits())
            .map(|e| e.doc.title())
            .collect()
    }

    /// Brings back a document from the recent list, with its edits.
    pub fn reopen_recent(&mut self, index: usize) {
        if index >= self.recent.len() {
            return;
        }
        let entry = self.recent.remove(index);
        if let Some(old) = self.current.take() {
            self.stash(old);
        }
        self.current = Some(entry);
        self.view.request_fit();
        self.reread_due = None;
        self.error = None;
    }

    /// The open document's page of a PDF and the PDF's page count.
    pub fn pages(&self) -> Option<&Pages> {
        self.doc()?.pages.as_ref()
    }

    /// Goes to page `number` (from 1) of the open PDF: back to that page's
    /// document with its edits when it was open before, else the page is
    /// read in the background like any file opened, and the page left
    /// stays in the recent list with its edits. False when there is no
    /// such page or no PDF open.
    pub fn go_to_page(&mut self, number: usize) -> bool {
        let Some(pages) = self.pages().cloned() else {
            return false;
        };
        if number == 0 || number > pages.count || number == pages.number {
            return false;
        }
        let before = self.recent.iter().position(|e| {
            e.doc
                .pages
                .as_ref()
                .is_some_and(|p| p.number == number && p.file.same_file(&pages.file))
        });
        match before {
            Some(i) => self.reopen_recent(i),
            None => self.open(Input::Page {
                file: Box::new(pages.file),
                page: number,
            }),
        }
        true
    }

    /// The next page of the open PDF (Next page, PageDown).
    pub fn next_page(&mut self) -> bool {
        self.pages()
            .map(|p| p.number + 1)
            .is_some_and(|n| self.go_to_page(n))
    }

    /// The page before (Previous page, PageUp).
    pub fn previous_page(&mut self) -> bool {
        self.pages()
            .map(|p| p.number.saturating_sub(1))
            .is_some_and(|n| self.go_to_page(n))
    }

    /// Closes the open document into the recent list, back to the start
    /// screen.
    pub fn close(&mut self) {
        if let Some(old) = self.current.take() {
            self.stash(old);
        }
        self.reread_due = None;
    }

    // ---- edits ----

    pub fn select(&mut self, cell: Option<usize>) {
        if let Some(d) = self.doc_mut() {
            d.selected = cell.filter(|&c| c < d.layout().cell_count());
        }
    }

    pub fn selected(&self) -> Option<usize> {
        self.doc().and_then(|d| d.selected)
    }

    /// Writes into the selected cell (0 clears it): a given or the
    /// player's entry, as the document's [`Writing`] says.
    pub fn set_selected(&mut self, value: u8) {
        if let Some(d) = self.doc_mut()
            && let Some(c) = d.selected
            && let Err(note) = d.write(c, value)
        {
            d.notice = Some(note);
        }
    }

    /// Typing writes givens, or the player's own digits (its switch,
    /// Ctrl+E).
    /// Switching to the player's digits hides the solution: they are
    /// solving.
    pub fn toggle_writing(&mut self) {
        if let Some(d) = self.doc_mut() {
            d.writing = d.writing.toggled();
            if d.writing == Writing::Entries {
                self.prefs.show_solution = false;
            }
        }
    }

    /// What typing writes in the open document.
    pub fn writing(&self) -> Option<Writing> {
        self.doc().map(|d| d.writing)
    }

    /// The check of the open document's entries, once done; `None` also
    /// when it has no entries.
    pub fn entry_check(&self) -> Option<&EntryCheck> {
        let stamp = self.stamp()?;
        match &self.entry_check {
            Some((s, c)) if *s == stamp => c.as_ref(),
            _ => None,
        }
    }

    /// The cells of the open document whose entries are wrong, once
    /// checked.
    pub fn wrong_cells(&self) -> Vec<usize> {
        self.entry_check()
            .map(|c| c.wrong.iter().map(|w| w.cell).collect())
            .unwrap_or_default()
    }

    pub fn set_cell(&mut self, cell: usize, value: u8) -> bool {
        self.doc_mut().is_some_and(|d| d.set_cell(cell, value))
    }

    /// Sets the sum of the selected cell's cage.
    pub fn set_cage_sum(&mut self, sum: u32) -> bool {
        self.doc_mut()
            .is_some_and(|d| d.selected.is_some_and(|c| d.set_cage_sum(c, sum)))
    }

    /// Moves the selected cell into the cage of the cell `into` beside it.
    pub fn move_selected_to_cage(&mut self, into: usize) -> bool {
        self.doc_mut()
            .is_some_and(|d| d.selected.is_some_and(|c| d.move_to_cage(c, into)))
    }

    /// Adds a set of variant rules to the open puzzle, or takes it away
    /// when the puzzle has it (the Rules menu): an edit, undone as any.
    pub fn toggle_rules(&mut self, set: doc::RuleSet) -> bool {
        self.doc_mut().is_some_and(|d| d.toggle_rules(set))
    }

    /// Whether the open puzzle has every rule of `set`; `None` where the
    /// set does not fit its layout (or nothing is open).
    pub fn has_rules(&self, set: doc::RuleSet) -> Option<bool> {
        let puzzle = &self.doc()?.current.puzzle;
        set.rules(puzzle.layout())?;
        Some(set.is_in(puzzle))
    }

    pub fn move_selection(&mut self, dr: isize, dc: isize) {
        if let Some(d) = self.doc_mut() {
            d.selected = Some(match d.selected {
                Some(c) => d.step(c, dr, dc),
                None => 0,
            });
        }
    }

    pub fn undo(&mut self) {
        if self.doc_mut().is_some_and(|d| d.undo()) {
            self.reread_due = None;
        }
    }

    pub fn redo(&mut self) {
        if self.doc_mut().is_some_and(|d| d.redo()) {
            self.reread_due = None;
        }
    }

    /// Moves the grid's corners and reads the cells again shortly.
    pub fn move_corners(&mut self, corners: [[f32; 2]; 4]) {
        if self.doc_mut().is_some_and(|d| d.move_corners(corners)) {
            self.reread_due = Some(self.now + REREAD_DELAY);
        }
    }

    /// Reads the photo again as another layout (one of [`layouts`]), in
    /// the background: the grid is looked for with that layout forced (or
    /// read between corners a person placed). The reading becomes one undo
    /// step; when it fails, the reader's error shows and the document stays
    /// as it was.
    pub fn switch_layout(&mut self, name: &str) {
        let Some(e) = &self.current else { return };
        let Source::Photo(photo) = &e.doc.source else {
            return;
        };
        if name == e.doc.layout().name() {
            return;
        }
        // A jigsaw is a square grid read with the regions its lines draw:
        // the size the grid has now when it is a single square, else 9x9.
        let current = e.doc.layout();
        let (layout, regions) = match name {
            JIGSAW if current.is_single_square() => {
                (Layout::square(current.size()), Regions::Lines)
            }
            JIGSAW => (Ok(Layout::classic()), Regions::Lines),
            _ => (Layout::named(name), Regions::Boxes),
        };
        let Ok(layout) = layout else {
            self.error = Some(format!("no layout is called {name}"));
            return;
        };
        let stamp = e.stamp();
        let photo = photo.clone();
        let corners = e
            .doc
            .located_by_hand()
            .then_some(e.doc.current.located.corners);
        let name = e.doc.title();
        self.switching = Some(stamp);
        self.reread_due = None;
        self.error = None;
        self.spawn(move || Message::Switched {
            stamp,
            result: input::read_as(&photo, &layout, regions, corners, &name).map(Box::new),
        });
    }

    /// Shows the solution (the Solve button, Enter).
    pub fn solve(&mut self) {
        self.prefs.show_solution = true;
    }

    /// The solution to draw, when it is shown and unique.
    pub fn shown_solution(&self) -> Option<&[u8]> {
        if !self.prefs.show_solution {
            return None;
        }
        match self.solutions()? {
            Solutions::Unique(s) => Some(s),
            _ => None,
        }
    }

    /// The puzzle as text.
    pub fn puzzle_text(&self) -> Option<String> {
        self.doc().map(|d| d.current.progress().to_text())
    }

    /// The solution as text, when there is exactly one.
    pub fn solution_text(&self) -> Option<String> {
        let doc = self.doc()?;
        match self.solutions()? {
            Solutions::Unique(s) => Some(doc.current.puzzle.with_values(s.clone()).to_text()),
            _ => None,
        }
    }

    // ---- hints ----

    fn stamp(&self) -> Option<Stamp> {
        self.current.as_ref().map(Entry::stamp)
    }

    /// The Hint button and `?`: the first press asks for the next step and
    /// shades where to look, the second names the technique, the third
    /// shows the whole step. The solution is hidden: a hint is for solving
    /// by hand.
    pub fn hint(&mut self) {
        let Some(e) = &self.current else { return };
        let stamp = e.stamp();
        self.prefs.show_solution = false;
        match &mut self.hint {
            Some((s, h)) if *s == stamp => h.deeper(),
            _ => {
                self.hint = Some((stamp, Hint::asked()));
                self.hinting = Some(stamp);
                self.hinter.request(HintJob {
                    stamp,
                    snap: e.doc.current.clone(),
                });
            }
        }
    }

    /// The hint for the open document's current state; any change of the
    /// state (an edit, undo, a new reading) leaves none, back at level 0.
    pub fn current_hint(&self) -> Option<&Hint> {
        let stamp = self.stamp()?;
        match &self.hint {
            Some((s, h)) if *s == stamp => Some(h),
            _ => None,
        }
    }

    /// 0 before the first press, then 1 to [`hint::LEVELS`].
    pub fn hint_level(&self) -> u8 {
        self.current_hint().map_or(0, |h| h.level)
    }

    /// The hint's step is being looked for.
    pub fn is_hinting(&self) -> bool {
        self.current_hint().is_some_and(|h| h.found.is_none())
    }

    /// The hint's step, once found.
    pub fn hint_step(&self) -> Option<&Step> {
        self.current_hint()?.step()
    }

    /// Applies the hint's step (Apply step, `!`) as one undo step: its
    /// placements become the cells' values, its eliminations are struck
    /// from the candidates.
    pub fn apply_hint(&mut self) -> bool {
        let Some(step) = self.hint_step().cloned() else {
            return false;
        };
        self.doc_mut().is_some_and(|d| d.apply_step(&step))
    }

    /// The candidates view on or off (its button, `#`).
    pub fn toggle_candidates(&mut self) {
        self.prefs.show_candidates = !self.prefs.show_candidates;
        if self.prefs.show_candidates {
            self.prefs.show_solution = false;
        }
    }

    /// The candidates left in each cell of the open document: every symbol
    /// no peer holds, less those struck by applied steps. Worked out once
    /// per state.
    pub fn marks(&mut self) -> Option<&[u32]> {
        let e = self.current.as_ref()?;
        let stamp = e.stamp();
        if self.marks.as_ref().is_none_or(|(s, _)| *s != stamp) {
            let snap = &e.doc.current;
            // The houses of the variant rules too (a diagonal, a window),
            // as the hints' engine has them.
            let layout = crate::solve::houses_layout(e.doc.layout(), snap.puzzle.rules());
            if self.houses.as_ref().is_none_or(|s| **s.layout() != *layout) {
                self.houses = Some(Arc::new(HouseIndex::new(layout)));
            }
            let houses = self.houses.as_ref().expect("made above");
            let marks = pencil_marks(houses, &snap.current_values(), &snap.eliminated);
            self.marks = Some((stamp, marks));
        }
        self.marks.as_ref().map(|(_, m)| &m[..])
    }

    /// The rating of the open document's puzzle (its values as they
    /// stand), once it has one solution and the rater is done; `Err` says
    /// why there is none.
    pub fn rating(&self) -> Option<&Result<Rating, String>> {
        let stamp = self.stamp()?;
        match &self.rating {
            Some((s, r)) if *s == stamp => Some(r),
            _ => None,
        }
    }

    /// True when the open document's state has one solution and no rating
    /// nor one on the way.
    fn needs_rating(&self) -> bool {
        let Some(stamp) = self.stamp() else {
            return false;
        };
        matches!(self.solutions(), Some(Solutions::Unique(_)))
            && self.rating().is_none()
            && self.rating_for != Some(stamp)
    }

    /// Hands the open document's state to the rater, in place of any state
    /// still waiting for it.
    fn start_rating(&mut self) {
        let Some(e) = &self.current else { return };
        let stamp = e.stamp();
        self.rating_for = Some(stamp);
        self.rater.request(RateJob {
            stamp,
            puzzle: e.doc.current.puzzle.clone(),
        });
    }

    // ---- dialogs ----

    /// Asks for a file to open (in the background: the window stays live).
    pub fn pick_open(&mut self) {
        if self.dialog_open {
            return;
        }
        self.dialog_open = true;
        let mut dialog = rfd::FileDialog::new()
            .set_title("Open a sudoku photo, screenshot or puzzle text")
            .add_filter(
                "Images and puzzle text",
                &[input::IMAGE_EXTENSIONS, input::TEXT_EXTENSIONS].concat(),
            )
            .add_filter("Images", input::IMAGE_EXTENSIONS)
            .add_filter("Puzzle text", input::TEXT_EXTENSIONS)
            .add_filter("All files", &["*"]);
        if let Some(dir) = &self.prefs.last_folder {
            dialog = dialog.set_directory(dir);
        }
        self.spawn(move || {
            let since = Instant::now();
            let path = dialog.pick_file();
            Message::PickedOpen {
                path,
                waited: since.elapsed(),
            }
        });
    }

    /// Asks where to save the annotated image.
    pub fn pick_export(&mut self) {
        if self.dialog_open || self.doc().is_none() {
            return;
        }
        self.dialog_open = true;
        let mut dialog = rfd::FileDialog::new()
            .set_title("Export the solved puzzle as PNG")
            .add_filter("PNG image", &["png"])
            .set_file_name(self.export_name());
        if let Some(dir) = &self.prefs.last_folder {
            dialog = dialog.set_directory(dir);
        }
        self.spawn(move || {
            let since = Instant::now();
            let path = dialog.save_file();
            Message::PickedExport {
                path,
                waited: since.elapsed(),
            }
        });
    }

    /// The file name an export of the open document is offered under:
    /// "photo-solved.png".
    fn export_name(&self) -> String {
        let stem = self
            .doc()
            .and_then(|d| {
                Path::new(&d.name)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
            })
            .unwrap_or_else(|| "sudoku".into());
        format!("{stem}-solved.png")
    }

    /// The path field's text as a path: `~` at its start is the home
    /// folder. `None` when the field is empty.
    fn typed_path(&self) -> Option<PathBuf> {
        let text = self.path_field.trim();
        if text.is_empty() {
            return None;
        }
        let home = std::env::var_os("HOME").filter(|h| !h.is_empty());
        Some(match (text.strip_prefix('~'), home) {
            (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
                PathBuf::from(home).join(rest.trim_start_matches('/'))
            }
            _ => PathBuf::from(text),
        })
    }

    /// Opens the file the path field names (its Open path button, Enter in
    /// the field).
    pub fn open_typed_path(&mut self) {
        match self.typed_path() {
            Some(path) => self.open(Input::Path(path)),
            None => {
                self.error = Some("type the path of a file to open in the File path field".into());
            }
        }
    }

    /// Exports to the path the path field names (its Export to path
    /// button): a folder gets the offered file name in it, a name without
    /// an ending gets `.png`.
    pub fn export_typed_path(&mut self) {
        if self.doc().is_none() {
            self.error = Some("nothing to export: open a puzzle first".into());
            return;
        }
        let Some(mut path) = self.typed_path() else {
            self.error = Some("type where to save the PNG in the File path field".into());
            return;
        };
        if path.is_dir() {
            path.push(self.export_name());
        } else if path.extension().is_none() {
            path.set_extension("png");
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            self.prefs.last_folder = Some(dir.to_path_buf());
        }
        self.export_to(path);
    }

    /// A file dialog came back without a file after `waited`: a person
    /// cancelled it, or, this fast, none could be shown. Then the window
    /// says so and the path field is offered, started in the last folder.
    fn dialog_gave_nothing(&mut self, waited: Duration, export: bool) {
        if waited >= DIALOG_NOT_SHOWN {
            return;
        }
        let (action, button) = if export {
            ("save the export", "Export to path")
        } else {
            ("open a file", "Open path")
        };
        let message = format!(
            "No file dialog could be shown: to {action}, type its path in the File path field and press {button}"
        );
        eprintln!("sudoku-lens: {message}");
        self.error = Some(message);
        if self.path_field.trim().is_empty() {
            let folder = self.prefs.last_folder.clone();
            let path = match (folder, export) {
                (Some(dir), true) => dir.join(self.export_name()),
                (Some(dir), false) => dir.join(""),
                (None, true) => PathBuf::from(self.export_name()),
                (None, false) => PathBuf::new(),
            };
            self.path_field = path.display().to_string();
        }
    }

    /// Writes the annotated image (the photo with the solution drawn in, or
    /// the drawn grid of a text puzzle) to `path` as PNG, in the background.
    pub fn export_to(&mut self, path: PathBuf) {
        let Some(doc) = self.doc() else {
            self.error = Some("nothing to export: open a puzzle first".into());
            return;
        };
        let (source, snap) = (doc.source.clone(), doc.current.clone());
        let Some(stamp) = self.current.as_ref().map(Entry::stamp) else {
            return;
        };
        let solution = self.shown_solution().map(|s| s.to_vec());
        let step = self.shown_step().cloned();
        let contrast = self.contrast();
        self.dialog_open = true;
        self.spawn(move || Message::Exported {
            stamp,
            result: export(
                &source,
                &snap,
                solution.as_deref(),
                step.as_ref(),
                contrast,
                &path,
            ),
        });
    }

    /// The hint's step when the window draws it whole (its last level).
    pub fn shown_step(&self) -> Option<&Step> {
        self.current_hint()
            .filter(|h| h.level >= hint::LEVELS)?
            .step()
    }

    /// The image that export writes: what the window shows of the puzzle,
    /// the hint's whole step included.
    pub fn annotated_image(&self) -> Option<Result<image::RgbaImage, String>> {
        let doc = self.doc()?;
        Some(doc::annotated_with_step(
            &doc.source,
            &doc.current,
            self.shown_solution(),
            self.shown_step(),
            self.contrast(),
        ))
    }

    /// The look the overlay renderer draws the window's picture and the
    /// export in: the View menu's high-contrast choice.
    pub fn contrast(&self) -> Contrast {
        palette::overlay_contrast(self.prefs.high_contrast)
    }

    // ---- the frame ----

    /// Takes in the results of background work and starts what is due.
    fn pump(&mut self) {
        while let Ok(msg) = self.rx.try_recv() {
            self.receive(msg);
        }
        self.withdraw_stale_work();
        if let Some(due) = self.reread_due
            && self.now >= due
        {
            self.reread_due = None;
            self.start_reread();
        }
        // The solver takes the newest state once it is free: states edited
        // past while it runs are never counted, so fast typing on a hard
        // puzzle costs one count more than the one running.
        if self.needs_counting() {
            self.start_counting();
        }
        if self.needs_drawing() {
            self.start_drawing();
        }
        if self.needs_rating() {
            self.start_rating();
        }
    }

    /// Stops the background work for a state no longer open (edited past,
    /// closed, or left for another document): its answer would be dropped,
    /// and a hard puzzle's search would keep a core busy for nothing. A
    /// hint asked for that state and not yet found is forgotten, so that
    /// coming back to the document asks again rather than waits.
    fn withdraw_stale_work(&mut self) {
        let now = self.stamp();
        if self.counting.is_some_and(|s| Some(s) != now) {
            self.solver.cancel();
            self.counting = None;
        }
        if let Some(s) = self.hinting.filter(|&s| Some(s) != now) {
            self.hinter.cancel();
            self.hinting = None;
            if self
                .hint
                .as_ref()
                .is_some_and(|(h, hint)| *h == s && hint.found.is_none())
            {
                self.hint = None;
            }
        }
        if self.rating_for.is_some_and(|s| Some(s) != now) {
            self.rater.cancel();
            self.rating_for = None;
        }
    }

    /// Asks for the frame whose [`eframe::App::logic`] starts the work that
    /// is due: counting the solutions of a new state at once, reading the grid
    /// again once the corners have rested.
    fn wake_for_due_work(&self, ctx: &egui::Context) {
        if self.needs_counting() || self.needs_drawing() || self.needs_rating() {
            ctx.request_repaint();
        }
        if let Some(due) = self.reread_due {
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(
                (due - self.now).max(0.0),
            ));
        }
    }

    fn receive(&mut self, msg: Message) {
        match msg {
            Message::Opened {
                ticket,
                path,
                name,
                result,
                texture,
            } => self.opened(ticket, path, name, result, texture),
            Message::Reread { stamp, result } => {
                if self.rereading == Some(stamp) {
                    self.rereading = None;
                }
                let Some(e) = self.current.as_mut().filter(|e| e.id == stamp.doc) else {
                    return;
                };
                match result {
                    Ok(reading) => {
                        e.doc.apply_reading(stamp.revision, *reading);
                    }
                    Err(message) => self.error = Some(message),
                }
            }
            Message::Switched { stamp, result } => self.switched(stamp, result),
            Message::Counted {
                stamp,
                solutions,
                check,
                solved,
                contrast,
            } => {
                if self.counting == Some(stamp) {
                    self.counting = None;
                }
                if self.current.as_ref().is_some_and(|e| e.stamp() == stamp) {
                    self.solutions = Some((stamp, solutions));
                    self.entry_check = Some((stamp, check));
                    if let Some(solved) = solved {
                        self.take_solved(stamp, contrast, solved);
                    }
                }
            }
            Message::Drawn {
                stamp,
                solved,
                contrast,
            } => {
                if self.drawing == Some(stamp) {
                    self.drawing = None;
                }
                if self.stamp() == Some(stamp) {
                    self.take_solved(stamp, contrast, solved);
                }
            }
            Message::Hinted { stamp, result } => {
                if self.hinting == Some(stamp) {
                    self.hinting = None;
                }
                // A hint for a state since left is dropped.
                if let Some((s, h)) = &mut self.hint
                    && *s == stamp
                {
                    h.found = Some(result);
                }
            }
            Message::Rated { stamp, result } => {
                if self.rating_for == Some(stamp) {
                    self.rating_for = None;
                }
                if self.stamp() == Some(stamp) {
                    self.rating = Some((stamp, result));
                }
            }
            Message::PickedOpen { path, waited } => {
                self.dialog_open = false;
                match path {
                    Some(p) => self.open(Input::Path(p)),
                    None => self.dialog_gave_nothing(waited, false),
                }
            }
            Message::PickedExport { path, waited } => {
                self.dialog_open = false;
                match path {
                    Some(p) => {
                        if let Some(dir) = p.parent() {
                            self.prefs.last_folder = Some(dir.to_path_buf());
                        }
                        self.export_to(p);
                    }
                    None => self.dialog_gave_nothing(waited, true),
                }
            }
            Message::Exported { stamp, result } => self.exported(stamp, result),
        }
    }

    /// A file opened on the loading thread: shown when it is still the
    /// newest asked for.
    fn opened(
        &mut self,
        ticket: u64,
        path: Option<PathBuf>,
        name: String,
        result: Result<Loaded, String>,
        texture: Option<egui::ColorImage>,
    ) {
        if ticket != self.ticket {
            return;
        }
        self.loading = None;
        let reveal = self.reveal.take() == Some(ticket);
        match result {
            Ok(Loaded::Photo {
                photo,
                reading,
                pages,
                damaged,
            }) => {
                // A page's document is named after its file; the
                // page shows in its title.
                let name = pages.as_ref().map_or(name, |p| p.file.name());
                let mut doc = Doc::from_photo(name, path, photo, reading);
                doc.pages = pages;
                // The damage first: it explains what else is amiss.
                if let Some(damage) = damaged {
                    doc.notice = Some(match doc.notice.take() {
                        Some(n) => format!("{damage}. {}", capitalise(&n)),
                        None => damage,
                    });
                }
                self.show_doc(doc, texture, reveal);
            }
            Ok(Loaded::Text { progress }) => {
                let doc = Doc::from_progress(name, path, progress);
                self.show_doc(doc, texture, reveal);
            }
            Err(message) => self.error = Some(message),
        }
    }

    /// The grid read again as another layout: taken unless the puzzle
    /// was edited meanwhile.
    fn switched(&mut self, stamp: Stamp, result: Result<Box<Reading>, String>) {
        if self.switching == Some(stamp) {
            self.switching = None;
        }
        let Some(e) = self.current.as_mut().filter(|e| e.id == stamp.doc) else {
            return;
        };
        match result {
            Ok(reading) => {
                let layout = reading.located.layout.name().to_string();
                if !e.doc.switch_to_reading(stamp.revision, *reading) {
                    // Taking it would drop the edit made meanwhile.
                    e.doc.notice = Some(format!(
                        "The switch to {layout} was dropped: the puzzle changed while it was read; switch again to read it so"
                    ));
                }
            }
            Err(message) => self.error = Some(message),
        }
    }

    /// An export written, or why not.
    fn exported(&mut self, stamp: Stamp, result: Result<PathBuf, String>) {
        self.dialog_open = false;
        match result {
            Ok(p) => {
                if let Some(e) = self.current.as_mut().filter(|e| e.id == stamp.doc) {
                    e.doc.exported = Some(stamp.revision);
                }
                let note = match self.solutions() {
                    _ if self.shown_solution().is_some() => "",
                    Some(Solutions::Unique(_)) => " (solution hidden)",
                    _ => " (without a solution: the puzzle has none or several)",
                };
                self.info = Some(format!("Saved {}{note}", p.display()));
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Takes the solved picture of the open document's state; a failure
    /// to draw it is said, not passed over. One drawn in a look since left
    /// (the contrast changed while it was drawn) is dropped, and drawn
    /// again.
    fn take_solved(
        &mut self,
        stamp: Stamp,
        contrast: Contrast,
        solved: Result<egui::ColorImage, String>,
    ) {
        if contrast != self.contrast() {
            return;
        }
        match solved {
            Ok(image) => self.textures.offer_solved(stamp, contrast, Some(image)),
            Err(message) => {
                self.error = Some(format!("cannot draw the solution: {message}"));
                self.textures.offer_solved(stamp, contrast, None);
            }
        }
    }

    fn start_reread(&mut self) {
        let Some(e) = &self.current else { return };
        let Source::Photo(photo) = &e.doc.source else {
            return;
        };
        let stamp = e.stamp();
        let photo = photo.clone();
        let corners = e.doc.current.located.corners;
        let layout: Layout = (**e.doc.layout()).clone();
        self.rereading = Some(stamp);
        self.spawn(move || Message::Reread {
            stamp,
            result: input::reread(&photo, corners, &layout).map(Box::new),
        });
    }

    /// Hands the open document's state to the solver, in place of any
    /// state still waiting for it.
    fn start_counting(&mut self) {
        let Some(e) = &self.current else { return };
        let stamp = e.stamp();
        self.counting = Some(stamp);
        self.solver.request(Count {
            stamp,
            snap: e.doc.current.clone(),
            source: e.doc.source.clone(),
            contrast: self.contrast(),
        });
    }

    /// Keeps the window's title in step with the open document, and holds
    /// a close over unsaved edits until the person confirms it.
    fn window_chrome(&mut self, ctx: &egui::Context) {
        let title = match self.doc() {
            Some(d) if d.has_unsaved_edits() => format!("sudoku-lens — {} (edited)", d.title()),
            Some(d) => format!("sudoku-lens — {}", d.title()),
            None => "sudoku-lens".to_string(),
        };
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        if ctx.input(|i| i.viewport().close_requested())
            && !self.close_confirmed
            && !self.unsaved().is_empty()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.confirm_close = true;
        }
    }

    /// While quitting waits for the person's word: the documents whose
    /// edits it would lose.
    fn quit_question(&self) -> Option<Vec<String>> {
        self.confirm_close.then(|| self.unsaved())
    }

    /// Quits after all; the unsaved edits are lost.
    fn quit_anyway(&mut self, ctx: &egui::Context) {
        self.close_confirmed = true;
        self.confirm_close = false;
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }

    /// Stays open: the question is withdrawn.
    fn keep_working(&mut self) {
        self.confirm_close = false;
    }
}

/// Writes the annotated picture of a document as PNG, with a hint's step
/// when one is shown whole, in `contrast`.
fn export(
    source: &Source,
    snap: &doc::Snapshot,
    solution: Option<&[u8]>,
    step: Option<&Step>,
    contrast: Contrast,
    path: &Path,
) -> Result<PathBuf, String> {
    let image = doc::annotated_with_step(source, snap, solution, step, contrast)?;
    crate::overlay::export::save(&image::DynamicImage::ImageRgba8(image), path)
        .map_err(|e| e.to_string())?;
    Ok(path.to_path_buf())
}

impl eframe::App for SudokuApp {
    /// Takes in the results of background work, starts what is due, and
    /// keeps the title and closing in step with the documents. Runs before
    /// every [`Self::ui`], and alone while the window is hidden.
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.now = ctx.input(|i| i.time);
        self.pump();
        self.window_chrome(ctx);
        self.wake_for_due_work(ctx);
    }

    /// Draws the window and turns input into actions; work those actions
    /// make due starts in the next frame's [`Self::logic`].
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        view::show(self, ui);
        self.wake_for_due_work(ui.ctx());
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, PREFS_KEY, &self.prefs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app() -> SudokuApp {
        SudokuApp::new(&egui::Context::default(), Prefs::default())
    }

    /// A token as a request replaced while it ran holds it.
    fn replaced() -> Cancel {
        let slot = worker::Latest::default();
        slot.put(());
        let (_, cancel) = slot.take().expect("put above");
        slot.put(());
        assert!(cancel.is_set());
        cancel
    }

    #[test]
    fn a_count_replaced_says_nothing_rather_than_gave_up() {
        let text = include_str!("../../samples/puzzles/25by25.txt");
        let progress = crate::grid::parse_progress(text, "25by25.txt", None).unwrap();
        let doc = Doc::from_progress("25by25.txt".into(), None, progress);
        let count = |cancel: &Cancel| {
            Count {
                stamp: Stamp {
                    doc: 1,
                    revision: 0,
                },
                snap: doc.current.clone(),
                source: doc.source.clone(),
                contrast: Contrast::Normal,
            }
            .run(cancel)
        };
        assert!(count(&replaced()).is_none());
        let Some(Message::Counted { solutions, .. }) = count(&Cancel::default()) else {
            panic!("a count not replaced is sent");
        };
        assert!(matches!(solutions, Solutions::Unique(_)), "{solutions:?}");
    }

    #[test]
    fn a_dialog_back_at_once_says_none_could_be_shown_and_offers_the_path_field() {
        let mut app = app();
        app.receive(Message::PickedOpen {
            path: None,
            waited: Duration::from_millis(15),
        });
        let said = app.error.clone().expect("said in the window");
        assert!(said.contains("No file dialog could be shown"), "{said}");
        assert!(said.contains("Open path"), "{said}");

        app.error = None;
        app.receive(Message::PickedExport {
            path: None,
            waited: Duration::from_millis(15),
        });
        let said = app.error.clone().expect("said in the window");
        assert!(said.contains("Export to path"), "{said}");
        // The field starts with the name an export is offered under.
        assert_eq!(app.path_field, "sudoku-solved.png");
    }

    #[test]
    fn a_dialog_cancelled_by_a_person_says_nothing() {
        let mut app = app();
        for message in [
            Message::PickedOpen {
                path: None,
                waited: Duration::from_secs(2),
            },
            Message::PickedExport {
                path: None,
                waited: Duration::from_secs(2),
            },
        ] {
            app.receive(message);
            assert_eq!(app.error, None);
            assert_eq!(app.path_field, "");
        }
    }

    #[test]
    fn the_path_field_reads_a_home_folder_and_an_empty_field_is_said() {
        let mut app = app();
        app.open_typed_path();
        assert!(
            app.error
                .as_deref()
                .is_some_and(|e| e.contains("File path"))
        );
        app.path_field = "  /tmp/puzzle.txt ".into();
        assert_eq!(app.typed_path(), Some(PathBuf::from("/tmp/puzzle.txt")));
        if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            app.path_field = "~/puzzle.txt".into();
            assert_eq!(
                app.typed_path(),
                Some(PathBuf::from(home).join("puzzle.txt"))
            );
        }
        app.path_field = "~other/puzzle.txt".into();
        assert_eq!(app.typed_path(), Some(PathBuf::from("~other/puzzle.txt")));
    }
}
