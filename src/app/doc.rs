//! One open puzzle: where it came from, its values, where its grid lies on
//! the photo, and the undo history over all of that. No drawing here.

use std::path::PathBuf;
use std::sync::Arc;

use image::RgbaImage;

use crate::check::{EntryCheck, check_entries_within};
use crate::grid::{Cage, Diagonal, Entries, Layout, Progress, Puzzle, Rule, windoku_windows};
use crate::logic::{Candidate, Step};
use crate::overlay;
use crate::solve::{Budget, SolveError, solve_within};
use crate::vision::cells::entries::{Written, unsure_cells};
use crate::vision::locate::{Located, located_at_corners};
use crate::vision::read::Reading;

use super::input::{Pages, Photo, default_corners};

/// The player's own digits on a drawn grid: teal, apart from the givens'
/// black, the solution's blue and the marks' red.
pub const ENTRY_INK: image::Rgba<u8> = image::Rgba([0, 128, 128, 255]);
/// The player's own digits on a drawn grid in high contrast: a deep teal,
/// 8:1 on white, darker than the ordinary one yet apart from the black
/// givens.
pub const ENTRY_INK_HIGH_CONTRAST: image::Rgba<u8> = image::Rgba([0, 90, 90, 255]);

/// A click this far (cell widths, on the grid's canvas) outside every
/// cell's quad still selects the nearest cell: on a bent page each cell
/// lies between its lines where they pass beside it, and a line that lies
/// a little differently beside two neighbours leaves a sliver of a pixel
/// or two (a hundredth of a cell) between their quads. Beyond it, outside
/// the grid, a click selects nothing.
pub const CLICK_GAP: f32 = 0.05;

/// How the overlay renderer draws: the same for the window and for export.
pub fn overlay_options() -> overlay::Options {
    overlay::Options::default()
}

/// [`overlay_options`] in `contrast` (the View menu's choice): the window's
/// picture and the export follow it alike.
pub fn overlay_options_in(contrast: overlay::Contrast) -> overlay::Options {
    overlay::Options {
        contrast,
        ..overlay_options()
    }
}

/// Side of one cell, in pixels, of the drawn grid a text puzzle is shown on
/// (the overlay renderer's grid: half a cell of margin).
fn text_cell_px() -> f32 {
    overlay_options().cell_px as f32
}

/// The picture of a document: the photo, or the drawn grid of a text
/// puzzle (lines only, or with its givens and `solution`), with the
/// solution drawn in by the overlay renderer and the player's wrong entries
/// marked in red, in `contrast`. What export writes.
pub fn annotated(
    source: &Source,
    snap: &Snapshot,
    solution: Option<&[u8]>,
    contrast: overlay::Contrast,
) -> Result<RgbaImage, String> {
    annotated_with_step(source, snap, solution, None, contrast)
}

/// The tint of a variant rule's cells under a hint's whole step about it:
/// the step pattern's orange, faint enough for the print and the step's
/// marks to read through.
pub const RULE_TINT: image::Rgba<u8> = image::Rgba([230, 110, 0, 60]);
/// [`RULE_TINT`] in high contrast: the pattern's violet of that mode, as
/// the window tints the rule's cells in it.
pub const RULE_TINT_HIGH_CONTRAST: image::Rgba<u8> = image::Rgba([80, 0, 200, 60]);

/// [`annotated`], with a hint's whole step drawn over it as the window
/// shows it at the hint's last level (over the cells of the variant rule
/// it reasons on, tinted).
pub fn annotated_with_step(
    source: &Source,
    snap: &Snapshot,
    solution: Option<&[u8]>,
    step: Option<&Step>,
    contrast: overlay::Contrast,
) -> Result<RgbaImage, String> {
    let mut image = picture(source, snap, solution, contrast)?;
    let wrong: Vec<usize> = snap
        .check()
        .map(|c| c.wrong.iter().map(|w| w.cell).collect())
        .unwrap_or_default();
    overlay::mark_wrong(
        &mut image,
        &snap.located,
        snap.puzzle.values(),
        &wrong,
        contrast,
    )
    .map_err(|e| e.to_string())?;
    if let Some(step) = step {
        // A step about a variant rule shows the rule's cells first.
        if let Some(rule) = step.rule.and_then(|i| snap.puzzle.rules().get(i)) {
            let tint = contrast.pick(RULE_TINT, RULE_TINT_HIGH_CONTRAST);
            overlay::draw_rule_highlight(&mut image, &snap.located, rule, tint);
        }
        overlay::hint::draw_step(
            &mut image,
            &snap.located,
            step,
            snap.puzzle.alphabet(),
            &overlay_options_in(contrast),
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(image)
}

/// The picture with the solution drawn in (when given), without the marks
/// on wrong entries, which the window draws over it from the background
/// check: the photo, or a text puzzle's grid with its givens and entries,
/// in `contrast`.
pub fn picture(
    source: &Source,
    snap: &Snapshot,
    solution: Option<&[u8]>,
    contrast: overlay::Contrast,
) -> Result<RgbaImage, String> {
    // A killer's printed cages are in its cells: never covered.
    let options = overlay_options_in(contrast)
        .for_cages(!snap.puzzle.cages().is_empty())
        .for_rules(!snap.puzzle.rules().is_empty());
    let fail = |e: overlay::OverlayError| e.to_string();
    let current = snap.current_values();
    // The solution in the remaining cells only: the player's digits are on
    // the paper (or the rendered grid) already.
    let draw_remaining = |image: &mut RgbaImage| -> Result<(), String> {
        if let Some(s) = solution {
            overlay::draw_solution(
                image,
                &snap.located,
                &current,
                s,
                &[],
                snap.puzzle.alphabet(),
                &options,
            )
            .map_err(fail)?;
        }
        Ok(())
    };
    let image = match source {
        Source::Photo(p) => {
            let mut image = (*p.rgba).clone();
            overlay::draw_rules(&mut image, &snap.located, snap.puzzle.rules(), &options);
            draw_remaining(&mut image)?;
            image
        }
        Source::Text { .. } if snap.entries.is_empty() => {
            overlay::render_grid(&snap.puzzle, solution, &options).map_err(fail)?
        }
        Source::Text { .. } => {
            // The player's digits in their own ink, then the solution in
            // the cells still empty.
            let mut inked = options.clone();
            inked.palette = Some(overlay::Palette {
                solved: contrast.pick(ENTRY_INK, ENTRY_INK_HIGH_CONTRAST),
                ..overlay::Palette::for_paper_in(contrast)
            });
            let mut image =
                overlay::render_grid(&snap.puzzle, Some(&current), &inked).map_err(fail)?;
            draw_remaining(&mut image)?;
            image
        }
    };
    Ok(image)
}

/// Variant `rules` alone, drawn as they are over `photo` (whose grid is
/// `located`) in a transparent layer of the photo's size, its colour
/// premultiplied by its alpha: what the window lays over the photo while
/// the solution is hidden, so that rules added from the menu show at
/// once. Drawn in the inks [`picture`] gives them with the solution.
pub fn rules_layer(photo: &RgbaImage, located: &Located, rules: &[Rule]) -> RgbaImage {
    let luma = overlay::background_luma(photo, located, &[]);
    let mut options = overlay_options().for_rules(true);
    // The paper is the photo's, not the empty layer's.
    options.palette = Some(overlay::Palette::for_background(luma));
    let mut layer = RgbaImage::new(photo.width(), photo.height());
    overlay::draw_rules(&mut layer, located, rules, &options);
    layer
}

/// Where a document's grid lives: on a photo, or on a drawn canvas.
#[derive(Clone, Debug)]
pub enum Source {
    Photo(Photo),
    /// A puzzle opened as text: shown on a drawn grid of this size (pixels).
    Text {
        width: f32,
        height: f32,
    },
}

/// Everything an undo step restores.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub puzzle: Puzzle,
    /// Where the grid is, in the pixels of the photo (or of the drawn grid).
    pub located: Arc<Located>,
    /// Cells the reader was unsure of (photo only).
    pub uncertain: Vec<usize>,
    /// Candidates struck out by applied hints: for each cell, bits of the
    /// symbols removed (bit d-1 for symbol d). Part of the state, so that
    /// undo brings them back and the next hint starts from the marks the
    /// player has seen.
    pub eliminated: Vec<u32>,
    /// The player's own digits, apart from the givens in `puzzle`: none in
    /// a given's cell.
    pub entries: Entries,
    /// Cells where the reader saw a player's digit but could not read it
    /// for sure (photo only): they are among `uncertain`, and count as
    /// such in the status line until the person fills or clears them.
    pub unsure: Vec<usize>,
}

impl Snapshot {
    /// A state with no candidate struck out and no entry.
    pub fn new(puzzle: Puzzle, located: Arc<Located>, uncertain: Vec<usize>) -> Snapshot {
        let cells = puzzle.values().len();
        Snapshot {
            puzzle,
            located,
            uncertain,
            eliminated: vec![0; cells],
            entries: Entries::none(cells),
            unsure: Vec::new(),
        }
    }

    /// The state with the cells of `written` not read for sure (see
    /// [`Snapshot::unsure`]); call it once the entries are in.
    pub fn with_written(mut self, written: &[Written]) -> Snapshot {
        let current = self.current_values();
        self.unsure = unsure_cells(written, &current)
            .iter()
            .map(|u| u.cell)
            .collect();
        self
    }

    /// How many of [`Snapshot::unsure`]'s cells are still empty and still
    /// uncertain: not yet filled, cleared or looked at by the person.
    pub fn unsure_left(&self) -> usize {
        // Asked every frame (the status line): no copy of the grid.
        let (givens, entries) = (self.puzzle.values(), self.entries.values());
        self.unsure
            .iter()
            .filter(|&&c| givens[c] == 0 && entries[c] == 0 && self.uncertain.contains(&c))
            .count()
    }

    /// The state with the player's `entries`: those in a given's cell or
    /// beyond the layout's symbols are dropped, the others kept; entries
    /// for another number of cells are dropped whole.
    pub fn with_entries(mut self, entries: Entries) -> Snapshot {
        let (givens, size) = (self.puzzle.values(), self.layout().size());
        if entries.values().len() == givens.len() {
            let kept = entries
                .values()
                .iter()
                .zip(givens)
                .map(|(&e, &g)| if g == 0 && e as usize <= size { e } else { 0 })
                .collect();
            self.entries = Entries::from_values(kept);
        }
        self
    }

    pub fn layout(&self) -> &Arc<Layout> {
        self.puzzle.layout()
    }

    /// The givens and the player's entries.
    pub fn progress(&self) -> Progress {
        Progress::new(self.puzzle.clone(), self.entries.clone())
            .unwrap_or_else(|_| Progress::givens_only(self.puzzle.clone()))
    }

    /// The grid as it stands: givens and entries, a value per cell.
    pub fn current_values(&self) -> Vec<u8> {
        self.progress().current()
    }

    /// The check of the entries against the givens' solution, or `None`
    /// when there are no entries to check.
    pub fn check(&self) -> Option<EntryCheck> {
        self.check_within(Budget::default())
    }

    /// [`Snapshot::check`], its search giving up when `budget` runs out.
    pub fn check_within(&self, budget: Budget) -> Option<EntryCheck> {
        (!self.entries.is_empty()).then(|| check_entries_within(&self.progress(), budget))
    }

    /// The puzzle a hint or the candidates start from: the givens and the
    /// entries the check found right (all of them when there is no check).
    pub fn resumed(&self, check: Option<&EntryCheck>) -> Puzzle {
        match check {
            Some(c) => crate::check::resume(&self.progress(), c),
            None => self.puzzle.with_values(self.current_values()),
        }
    }
}

/// What typing a symbol writes: a given (fixing what was read, or setting a
/// puzzle up) or the player's own digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Writing {
    #[default]
    Givens,
    Entries,
}

impl Writing {
    /// A document starts by writing entries when it came with some (the
    /// player is solving), else givens (the reading may need fixing).
    fn starting(snap: &Snapshot) -> Writing {
        if snap.entries.is_empty() {
            Writing::Givens
        } else {
            Writing::Entries
        }
    }

    /// The other one.
    pub fn toggled(self) -> Writing {
        match self {
            Writing::Givens => Writing::Entries,
            Writing::Entries => Writing::Givens,
        }
    }
}

/// The solutions of the current values, counted up to two: none, one,
/// several, or none to count because two givens clash.
#[derive(Clone, Debug, PartialEq)]
pub enum Solutions {
    /// Givens repeat a symbol in one house (the two cells), or the cages
    /// break a rule (the cell at fault, if one is).
    Conflict {
        cells: Vec<usize>,
        message: String,
    },
    NoSolution,
    Unique(Vec<u8>),
    /// Two of the solutions; cells where they differ are the ambiguous ones.
    Several(Vec<u8>, Vec<u8>),
}

impl Solutions {
    /// The live status line.
    pub fn describe(&self, givens: usize) -> String {
        match self {
            Solutions::Conflict { message, .. } => format!("Conflict: {message}"),
            Solutions::NoSolution => format!("No solution ({givens} givens)"),
            Solutions::Unique(_) => format!("One solution ({givens} givens)"),
            Solutions::Several(..) => format!("Several solutions ({givens} givens)"),
        }
    }

    /// The cells to point at: conflicting givens, or cells that differ
    /// between two solutions.
    pub fn marked_cells(&self) -> Vec<usize> {
        match self {
            Solutions::Conflict { cells, .. } => cells.clone(),
            Solutions::Several(a, b) => (0..a.len()).filter(|&i| a[i] != b[i]).collect(),
            _ => Vec::new(),
        }
    }
}

/// Counts the solutions of `puzzle` up to two. Runs on a background thread
/// for large layouts.
pub fn count_solutions(puzzle: &Puzzle) -> Solutions {
    count_solutions_within(puzzle, Budget::default())
}

/// [`count_solutions`], giving up when `budget` runs out: the app's
/// solver thread stops a count whose state was left this way.
pub fn count_solutions_within(puzzle: &Puzzle, budget: Budget) -> Solutions {
    match solve_within(puzzle, 2, 2, budget) {
        Err(SolveError::Conflict {
            value,
            house,
            first,
            second,
            conflict,
        }) => Solutions::Conflict {
            cells: vec![conflict.first, conflict.second],
            // The cells say where: the house once, without the columns or
            // rows it spans ("row 1", not "row 1 (columns 1-9)").
            message: format!(
                "{value} appears twice in {}, at {first} and {second}",
                house.split(" (").next().unwrap_or(&house)
            ),
        },
        Err(SolveError::Cages(e)) => Solutions::Conflict {
            // The cell at fault, else the whole cage at fault.
            cells: match (e.cell, e.cage.and_then(|k| puzzle.cages().get(k))) {
                (Some(c), _) => vec![c],
                (None, Some(cage)) => cage.cells.iter().map(|&c| c as usize).collect(),
                (None, None) => Vec::new(),
            },
            message: e.message,
        },
        Err(SolveError::Rules(e)) => Solutions::Conflict {
            // The cells of the rule at fault.
            cells: e
                .rule
                .and_then(|k| puzzle.rules().get(k))
                .map(|r| {
                    r.cells(puzzle.layout())
                        .iter()
                        .map(|&c| c as usize)
                        .collect()
                })
                .unwrap_or_default(),
            message: e.message,
        },
        Err(e @ (SolveError::Unsupported(_) | SolveError::GaveUp { .. })) => Solutions::Conflict {
            cells: Vec::new(),
            message: e.to_string(),
        },
        Ok(out) => match out.count {
            0 => Solutions::NoSolution,
            1 => Solutions::Unique(out.solutions.into_iter().next().unwrap_or_default()),
            _ => {
                let mut it = out.solutions.into_iter();
                let a = it.next().unwrap_or_default();
                let b = it.next().unwrap_or_else(|| a.clone());
                Solutions::Several(a, b)
            }
        },
    }
}

/// A set of variant rules a person can add to a reading, or take from it,
/// from the Rules menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSet {
    /// Both diagonals (X-sudoku): on any square grid.
    Diagonals,
    /// The four extra 3x3 windows of windoku: on a 9x9.
    Windoku,
}

impl RuleSet {
    /// Every set the menu offers, in its order.
    pub const ALL: [RuleSet; 2] = [RuleSet::Diagonals, RuleSet::Windoku];

    /// The menu item's words, which a screen reader says too.
    pub fn label(self) -> &'static str {
        match self {
            RuleSet::Diagonals => "Diagonals (X-sudoku)",
            RuleSet::Windoku => "Windoku (four extra regions)",
        }
    }

    /// What the set asks, for the item's tooltip.
    pub fn explain(self) -> &'static str {
        match self {
            RuleSet::Diagonals => "Each diagonal holds every symbol once",
            RuleSet::Windoku => {
                "Four extra 3x3 regions, at rows and columns 2-4 and 6-8, each hold 1-9 once"
            }
        }
    }

    /// Where the set does not fit, the words saying where it does.
    pub fn fits_where(self) -> &'static str {
        match self {
            RuleSet::Diagonals => "Only on a square grid",
            RuleSet::Windoku => "Only on a 9x9 grid",
        }
    }

    /// The set's rules on `layout`; `None` where it does not fit (a
    /// samurai, a rectangle, windoku on another size than 9x9).
    pub fn rules(self, layout: &Layout) -> Option<Vec<Rule>> {
        let square = layout.is_full() && layout.height() == layout.width();
        match self {
            RuleSet::Diagonals => square.then(|| {
                vec![
                    Rule::Diagonal(Diagonal::Main),
                    Rule::Diagonal(Diagonal::Anti),
                ]
            }),
            RuleSet::Windoku => {
                let windows = windoku_windows(layout);
                (!windows.is_empty()).then(|| windows.into_iter().map(Rule::Region).collect())
            }
        }
    }

    /// True when `rule` is one of `set_rules` (a region whatever the order
    /// its cells were written in).
    fn holds(set_rules: &[Rule], rule: &Rule) -> bool {
        set_rules.iter().any(|r| match (r, rule) {
            (Rule::Region(a), Rule::Region(b)) => {
                let (mut a, mut b) = (a.clone(), b.clone());
                a.sort_unstable();
                b.sort_unstable();
                a == b
            }
            _ => r == rule,
        })
    }

    /// True when `puzzle` has every rule of the set (from a file or added
    /// here).
    pub fn is_in(self, puzzle: &Puzzle) -> bool {
        self.rules(puzzle.layout())
            .is_some_and(|set| set.iter().all(|r| RuleSet::holds(puzzle.rules(), r)))
    }
}

/// An open puzzle and its history.
#[derive(Clone, Debug)]
pub struct Doc {
    /// Shown in the title and the recent list.
    pub name: String,
    /// The file it came from, if any.
    pub path: Option<PathBuf>,
    pub source: Source,
    pub current: Snapshot,
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// Bumped by every change of `current`; results computed for an older
    /// revision are stale.
    pub revision: u64,
    /// The selected cell.
    pub selected: Option<usize>,
    /// A note from reading (e.g. no grid found), shown until the next change.
    pub notice: Option<String>,
    /// The revision last exported, if any.
    pub exported: Option<u64>,
    /// The page of a PDF this document is, and the PDF's page count.
    pub pages: Option<Pages>,
    /// What typing a symbol writes.
    pub writing: Writing,
    /// The first reading found the player's digits on the page (or there
    /// was none, the grid not found): a reading again may find them too.
    /// On a page read without any, digits a later reading sees in a
    /// second ink are misread print, not the player's.
    players_ink: bool,
}

impl Doc {
    /// A document for a photo and its reading (or the failure to read it).
    pub fn from_photo(
        name: String,
        path: Option<PathBuf>,
        photo: Photo,
        reading: Result<Box<Reading>, String>,
    ) -> Doc {
        let players_ink = reading
            .as_ref()
            .map_or(true, |r| !r.entries.is_empty() || !r.written.is_empty());
        let (current, notice) = match reading {
            Ok(r) => (
                Snapshot::new(r.puzzle, Arc::new(r.located), r.uncertain)
                    .with_entries(r.entries)
                    .with_written(&r.written),
                None,
            ),
            Err(message) => {
                let layout = Arc::new(Layout::classic());
                let corners = default_corners(photo.rgba.width(), photo.rgba.height());
                let located =
                    located_at_corners(corners, &layout).expect("an inset square is a valid quad");
                (
                    Snapshot::new(Puzzle::empty(layout), Arc::new(located), Vec::new()),
                    Some(message),
                )
            }
        };
        let writing = Writing::starting(&current);
        Doc {
            name,
            path,
            source: Source::Photo(photo),
            current,
            undo: Vec::new(),
            redo: Vec::new(),
            revision: 0,
            selected: None,
            notice,
            exported: None,
            pages: None,
            writing,
            players_ink,
        }
    }

    /// A document for a text puzzle, drawn on a plain grid.
    pub fn from_text(name: String, path: Option<PathBuf>, puzzle: Puzzle) -> Doc {
        Doc::from_progress(name, path, Progress::givens_only(puzzle))
    }

    /// A document for a text puzzle with a player's entries.
    pub fn from_progress(name: String, path: Option<PathBuf>, progress: Progress) -> Doc {
        let puzzle = progress.puzzle().clone();
        let layout = puzzle.layout().clone();
        let cell = text_cell_px();
        let margin = (cell / 2.0).floor();
        let (w, h) = (
            layout.width() as f32 * cell + 2.0 * margin,
            layout.height() as f32 * cell + 2.0 * margin,
        );
        let (x0, y0, x1, y1) = (margin, margin, w - margin, h - margin);
        let mut corners = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
        if !puzzle.rules().is_empty() {
            // Clues outside the grid widen the rendered margin.
            corners = overlay::render_frame(&puzzle, &overlay_options()).corners;
        }
        let located = located_at_corners(corners, &layout).expect("a rectangle is a valid quad");
        let current = Snapshot::new(puzzle, Arc::new(located), Vec::new())
            .with_entries(progress.entries().clone());
        let writing = Writing::starting(&current);
        Doc {
            name,
            path,
            source: Source::Text {
                width: w,
                height: h,
            },
            current,
            undo: Vec::new(),
            redo: Vec::new(),
            revision: 0,
            selected: None,
            notice: None,
            exported: None,
            pages: None,
            writing,
            players_ink: true,
        }
    }

    /// The name with the page of a PDF: "book.pdf, page 3 of 12". What the
    /// title, the recent list and the side panel show.
    pub fn title(&self) -> String {
        match &self.pages {
            Some(p) => format!("{}, {}", self.name, p.label()),
            None => self.name.clone(),
        }
    }

    pub fn is_photo(&self) -> bool {
        matches!(self.source, Source::Photo(_))
    }

    /// Size of what the grid is drawn on, in pixels.
    pub fn canvas_size(&self) -> [f32; 2] {
        match &self.source {
            Source::Photo(p) => [p.rgba.width() as f32, p.rgba.height() as f32],
            Source::Text { width, height } => [*width, *height],
        }
    }

    pub fn layout(&self) -> &Arc<Layout> {
        self.current.layout()
    }

    /// The givens (what the solutions are counted for), a value per cell.
    pub fn values(&self) -> &[u8] {
        self.current.puzzle.values()
    }

    /// The player's entries, a value per cell (0 where none).
    pub fn entries(&self) -> &[u8] {
        self.current.entries.values()
    }

    /// True when there is something to undo: the document holds edits.
    pub fn is_edited(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Edited since opened and not exported since the last edit.
    pub fn has_unsaved_edits(&self) -> bool {
        self.is_edited() && self.exported != Some(self.revision)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Records the current state as an undo step, then applies `change`.
    fn edit(&mut self, change: impl FnOnce(&mut Snapshot)) {
        self.undo.push(self.current.clone());
        self.redo.clear();
        change(&mut self.current);
        self.touch();
    }

    fn touch(&mut self) {
        self.revision += 1;
        self.notice = None;
    }

    /// Sets a cell's given (0 clears the cell, the player's entry too); a
    /// given replaces the player's entry there. Returns false when nothing changed or the value is out
    /// of range.
    pub fn set_cell(&mut self, cell: usize, value: u8) -> bool {
        if cell >= self.values().len()
            || value as usize > self.layout().size()
            || (self.values()[cell] == value && self.entries()[cell] == 0)
        {
            return false;
        }
        self.edit(|s| {
            s.puzzle.set(cell, value);
            // A given, or the cell cleared: no entry is left there.
            let mut entries = s.entries.values().to_vec();
            entries[cell] = 0;
            s.entries = Entries::from_values(entries);
            s.uncertain.retain(|&c| c != cell);
            // Filled or cleared, the cell's marks start afresh.
            s.eliminated[cell] = 0;
        });
        true
    }

    /// Sets the player's entry in a cell (0 clears it). Returns false when
    /// nothing changed, the value is out of range, or the cell holds a
    /// given (which stays: it is the puzzle's).
    pub fn set_entry(&mut self, cell: usize, value: u8) -> bool {
        if cell >= self.values().len()
            || value as usize > self.layout().size()
            || self.values()[cell] != 0
            || self.entries()[cell] == value
        {
            return false;
        }
        self.edit(|s| {
            let mut entries = s.entries.values().to_vec();
            entries[cell] = value;
            s.entries = Entries::from_values(entries);
            s.eliminated[cell] = 0;
        });
        true
    }

    /// Writes `value` into `cell` as [`Doc::writing`] says: a given, or the
    /// player's entry. A given's cell takes no entry: the returned note says
    /// so. `Ok(false)` when nothing changed.
    pub fn write(&mut self, cell: usize, value: u8) -> Result<bool, String> {
        match self.writing {
            Writing::Givens => Ok(self.set_cell(cell, value)),
            Writing::Entries if cell < self.values().len() && self.values()[cell] != 0 => {
                Err(format!(
                    "{} holds a given: switch to writing givens to change it",
                    self.layout().cell_name(cell)
                ))
            }
            Writing::Entries => Ok(self.set_entry(cell, value)),
        }
    }

    /// Applies a hint's step as one undo step: its placements become the
    /// player's digits (whatever typing writes: a hint's digit was not
    /// printed), its eliminations are struck from the candidates.
    /// Returns false when it would change nothing, or names a cell or
    /// symbol the puzzle does not have (a step for another state).
    pub fn apply_step(&mut self, step: &Step) -> bool {
        let (cells, size) = (self.values().len(), self.layout().size());
        let fits = |c: &Candidate| c.cell < cells && c.digit >= 1 && c.digit as usize <= size;
        if !step.placements.iter().chain(&step.eliminations).all(fits) {
            return false;
        }
        let now = self.current.current_values();
        // A given is never overwritten: the step is for another state.
        let on_given = |cell: usize| self.values()[cell] != 0;
        if step
            .placements
            .iter()
            .any(|p| on_given(p.cell) && now[p.cell] != p.digit)
        {
            return false;
        }
        let places = step.placements.iter().any(|p| now[p.cell] != p.digit);
        let strikes = step
            .eliminations
            .iter()
            .any(|e| now[e.cell] == 0 && self.current.eliminated[e.cell] >> (e.digit - 1) & 1 == 0);
        if !places && !strikes {
            return false;
        }
        self.edit(|s| {
            for e in &step.eliminations {
                if now[e.cell] == 0 {
                    s.eliminated[e.cell] |= 1 << (e.digit - 1);
                }
            }
            let mut entries = s.entries.values().to_vec();
            for p in &step.placements {
                // A given that already holds the digit stays printed.
                if s.puzzle.values()[p.cell] == 0 {
                    entries[p.cell] = p.digit;
                }
                s.uncertain.retain(|&c| c != p.cell);
                s.eliminated[p.cell] = 0;
            }
            s.entries = Entries::from_values(entries);
        });
        true
    }

    /// The index of the cage holding `cell`, if any.
    pub fn cage_of(&self, cell: usize) -> Option<usize> {
        self.current
            .puzzle
            .cages()
            .iter()
            .position(|k| k.cells.contains(&(cell as u32)))
    }

    /// Sets the sum of the cage holding `cell` (an undo step). Any sum is
    /// taken; one its cells cannot make shows as a conflict. Returns false
    /// when the cell is in no cage or the sum is already that.
    pub fn set_cage_sum(&mut self, cell: usize, sum: u32) -> bool {
        let Some(k) = self.cage_of(cell) else {
            return false;
        };
        let mut cages = self.current.puzzle.cages().to_vec();
        if cages[k].sum == sum {
            return false;
        }
        cages[k].sum = sum;
        self.replace_cages(cages)
    }

    /// The cells beside `cell` (up, left, right, down, as named) that lie
    /// in a cage `cell` is not in: where it can move to.
    pub fn neighbour_cages(&self, cell: usize) -> Vec<(&'static str, usize)> {
        if cell >= self.layout().cell_count() {
            return Vec::new();
        }
        let own = self.cage_of(cell);
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for (name, dr, dc) in [
            ("above", -1, 0),
            ("left", 0, -1),
            ("right", 0, 1),
            ("below", 1, 0),
        ] {
            let (r, c) = self.layout().position(cell);
            let (r, c) = (r as isize + dr, c as isize + dc);
            let Some(n) = (r >= 0 && c >= 0)
                .then(|| self.layout().cell_at(r as usize, c as usize))
                .flatten()
            else {
                continue;
            };
            let theirs = self.cage_of(n);
            if theirs.is_some() && theirs != own && !seen.contains(&theirs) {
                seen.push(theirs);
                out.push((name, n));
            }
        }
        out
    }

    /// Moves `cell` out of its cage (if any) into the cage holding `into`
    /// (an undo step). Sums stay as they were: fix them with
    /// [`Doc::set_cage_sum`]. A cage left without cells goes. Returns false
    /// when `into` is in no cage or already in `cell`'s.
    pub fn move_to_cage(&mut self, cell: usize, into: usize) -> bool {
        let (from, to) = (self.cage_of(cell), self.cage_of(into));
        let Some(to) = to.filter(|&t| Some(t) != from) else {
            return false;
        };
        let mut cages = self.current.puzzle.cages().to_vec();
        cages[to].cells.push(cell as u32);
        if let Some(from) = from {
            cages[from].cells.retain(|&c| c as usize != cell);
        }
        cages.retain(|k| !k.cells.is_empty());
        self.replace_cages(cages)
    }

    /// Adds the rules of `set` to the puzzle, or, when it has them all,
    /// takes them away: one undo step. Rules already there are not added
    /// twice. Taken away, the candidates struck by hints start afresh:
    /// some were struck by the rules that went. Returns false where the
    /// set does not fit the layout.
    pub fn toggle_rules(&mut self, set: RuleSet) -> bool {
        let Some(set_rules) = set.rules(self.layout()) else {
            return false;
        };
        let puzzle = &self.current.puzzle;
        let removing = set.is_in(puzzle);
        let mut rules = puzzle.rules().to_vec();
        if removing {
            rules.retain(|r| !RuleSet::holds(&set_rules, r));
        } else {
            for r in set_rules {
                if !RuleSet::holds(&rules, &r) {
                    rules.push(r);
                }
            }
        }
        self.edit(|s| {
            s.puzzle = s.puzzle.clone().with_rules(rules);
            if removing {
                s.eliminated.iter_mut().for_each(|e| *e = 0);
            }
        });
        true
    }

    /// Gives the puzzle these cages, as one undo step.
    fn replace_cages(&mut self, cages: Vec<Cage>) -> bool {
        let Ok(puzzle) = self.current.puzzle.clone().with_cages(cages) else {
            return false;
        };
        self.edit(|s| s.puzzle = puzzle);
        true
    }

    /// Moves the grid's corners (an undo step); the cells keep their values
    /// until a new reading arrives through [`Doc::apply_reading`]. Returns
    /// false when the corners make no grid.
    pub fn move_corners(&mut self, corners: [[f32; 2]; 4]) -> bool {
        let Some(located) = located_at_corners(corners, self.layout()) else {
            return false;
        };
        self.edit(|s| s.located = Arc::new(located));
        true
    }

    /// True when the grid's corners were placed by a person (dragged, or
    /// put in place for a photo whose grid was not found), not by the
    /// locator.
    pub fn located_by_hand(&self) -> bool {
        self.current.located.layout_scores.is_empty()
    }

    /// Takes a reading of another layout made for `revision` (an undo step:
    /// a layout switch). Refused when the document changed since.
    pub fn switch_to_reading(&mut self, revision: u64, reading: Reading) -> bool {
        if revision != self.revision {
            return false;
        }
        self.edit(|s| {
            *s = Snapshot::new(reading.puzzle, Arc::new(reading.located), reading.uncertain)
                .with_entries(reading.entries)
                .with_written(&reading.written);
        });
        true
    }

    /// Takes a reading made for `revision` with the current corners and
    /// layout. It belongs to the step that asked for it, so it is not an
    /// undo step of its own. Stale readings are refused.
    pub fn apply_reading(&mut self, revision: u64, reading: Reading) -> bool {
        if revision != self.revision || reading.located.layout.name() != self.layout().name() {
            return false;
        }
        // A reading without cages keeps the ones the puzzle has.
        let mut puzzle = reading.puzzle;
        let cages = self.current.puzzle.cages();
        if puzzle.cages().is_empty()
            && !cages.is_empty()
            && let Ok(p) = puzzle.clone().with_cages(cages.to_vec())
        {
            puzzle = p;
        }
        // Nor does it drop the variant rules added by hand: the reading
        // is of the same layout, so they still fit.
        let rules = self.current.puzzle.rules();
        if puzzle.rules().is_empty() && !rules.is_empty() {
            puzzle = puzzle.with_rules(rules.to_vec());
        }
        // On a page read without the player's digits, digits this reading
        // sees in a second ink are misread print: not the player's, nor
        // their mistakes. Their cells are left unsure, for a look.
        let (mut uncertain, mut entries, mut written) =
            (reading.uncertain, reading.entries, reading.written);
        if !self.players_ink {
            for (cell, &e) in entries.values().iter().enumerate() {
                if e != 0 && !uncertain.contains(&cell) {
                    uncertain.push(cell);
                }
            }
            entries = Entries::none(entries.values().len());
            written.clear();
        }
        // Marks struck from the values read before do not hold for these.
        self.current = Snapshot::new(puzzle, Arc::new(reading.located), uncertain)
            .with_entries(entries)
            .with_written(&written);
        self.revision += 1;
        true
    }

    pub fn undo(&mut self) -> bool {
        let Some(prev) = self.undo.pop() else {
            return false;
        };
        self.redo.push(std::mem::replace(&mut self.current, prev));
        self.touch();
        true
    }

    pub fn redo(&mut self) -> bool {
        let Some(next) = self.redo.pop() else {
            return false;
        };
        self.undo.push(std::mem::replace(&mut self.current, next));
        self.touch();
        true
    }

    /// The cell whose quad contains the point (pixels of the canvas); in a
    /// sliver between quads (see [`CLICK_GAP`]), the nearest cell.
    pub fn cell_at(&self, p: [f32; 2]) -> Option<usize> {
        let located = &self.current.located;
        let cells = 0..self.layout().cell_count();
        if let Some(cell) = cells
            .clone()
            .find(|&c| point_in_quad(p, &located.cell_quad(c)))
        {
            return Some(cell);
        }
        let (u, v) = located.homography.inverse()?.map(p[0] as f64, p[1] as f64);
        let (u, v) = (u as f32, v as f32);
        cells
            .map(|c| {
                let [l, r, t, b] = located.cell_edges(c);
                let du = (l - u).max(u - r).max(0.0);
                let dv = (t - v).max(v - b).max(0.0);
                (c, du.max(dv))
            })
            .filter(|&(_, d)| d <= CLICK_GAP)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(c, _)| c)
    }

    /// The neighbour of `cell` one step in a direction (rows and columns of
    /// the canvas), skipping canvas positions outside the shape.
    pub fn step(&self, cell: usize, dr: isize, dc: isize) -> usize {
        let l = self.layout();
        let (mut r, mut c) = (l.position(cell).0 as isize, l.position(cell).1 as isize);
        loop {
            r += dr;
            c += dc;
            if r < 0 || c < 0 || r >= l.height() as isize || c >= l.width() as isize {
                return cell;
            }
            if let Some(next) = l.cell_at(r as usize, c as usize) {
                return next;
            }
        }
    }
}

/// True when `p` lies inside the convex quad `q` (either orientation).
pub fn point_in_quad(p: [f32; 2], q: &[[f32; 2]; 4]) -> bool {
    let mut sign = 0.0f32;
    for i in 0..4 {
        let (a, b) = (q[i], q[(i + 1) % 4]);
        let cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        if cross != 0.0 {
            if sign != 0.0 && cross.signum() != sign {
                return false;
            }
            sign = cross.signum();
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Document, parse};

    fn killer() -> Doc {
        let text = include_str!("../../samples/puzzles/killer.txt");
        let Ok(Document::Single(p)) = parse(text, "killer.txt", None) else {
            panic!("the killer sample is one puzzle");
        };
        Doc::from_text("killer.txt".into(), None, p)
    }

    #[test]
    fn a_photo_s_rules_are_a_layer_of_their_own_over_it() {
        let layout = Layout::classic();
        let photo = RgbaImage::from_pixel(400, 400, image::Rgba([235, 230, 220, 255]));
        let corners = [[20.0, 20.0], [380.0, 20.0], [380.0, 380.0], [20.0, 380.0]];
        let located = located_at_corners(corners, &layout).expect("a square grid");
        let layer = rules_layer(&photo, &located, &[Rule::Diagonal(Diagonal::Main)]);
        assert_eq!(layer.dimensions(), photo.dimensions());
        // Cell centres, 40 pixels a cell from (20, 20).
        let alpha = |r: u32, c: u32| layer.get_pixel(40 + 40 * c, 40 + 40 * r)[3];
        for k in 0..9 {
            assert!(
                alpha(k, k) > 0,
                "the diagonal is drawn through r{}c{}",
                k + 1,
                k + 1
            );
        }
        assert_eq!(alpha(0, 8), 0, "the other diagonal is not one of the rules");
        assert_eq!(alpha(4, 0), 0, "the layer is clear off the rules");
        // Its colour is premultiplied: no channel above the alpha.
        assert!(
            layer
                .pixels()
                .all(|p| p[0] <= p[3] && p[1] <= p[3] && p[2] <= p[3])
        );
    }

    fn text_doc(name: &str, text: &str) -> Doc {
        let Ok(Document::Single(p)) = parse(text, name, None) else {
            panic!("{name} is one puzzle");
        };
        Doc::from_text(name.into(), None, p)
    }

    #[test]
    fn a_step_about_a_rule_tints_the_rules_cells_in_the_picture() {
        use crate::logic::Technique;
        let doc = text_doc(
            "arrow.txt",
            include_str!("../../samples/puzzles/variants/arrow.txt"),
        );
        let snap = &doc.current;
        let rule = &snap.puzzle.rules()[0];
        let cells = rule.cells(doc.layout());
        let mut step = Step::new(Technique::VariantRule);
        step.cells = cells.iter().map(|&c| c as usize).collect();
        let draw = |step: &Step| {
            annotated_with_step(&doc.source, snap, None, Some(step), Default::default()).unwrap()
        };
        let plain = draw(&step);
        step.rule = Some(0);
        let lit = draw(&step);
        // The rule's cells, as pixel rectangles (a rendered grid is square).
        let rects: Vec<[f32; 4]> = cells
            .iter()
            .map(|&c| {
                let (r, k) = doc.layout().position(c as usize);
                let a = snap.located.canvas_to_image(k as f32, r as f32);
                let b = snap.located.canvas_to_image(k as f32 + 1.0, r as f32 + 1.0);
                [
                    a[0].min(b[0]),
                    a[1].min(b[1]),
                    a[0].max(b[0]),
                    a[1].max(b[1]),
                ]
            })
            .collect();
        let inside = |x: u32, y: u32| {
            let (x, y) = (x as f32, y as f32);
            rects
                .iter()
                .any(|r| x >= r[0] - 2.0 && y >= r[1] - 2.0 && x <= r[2] + 2.0 && y <= r[3] + 2.0)
        };
        let mut changed = 0;
        for (x, y, p) in lit.enumerate_pixels() {
            if p != plain.get_pixel(x, y) {
                assert!(inside(x, y), "({x}, {y}) lies outside the rule's cells");
                changed += 1;
            }
        }
        assert!(changed > 0, "the rule's cells are not tinted");
    }

    #[test]
    fn rule_sets_fit_the_grids_they_are_made_for() {
        let fits = |name: &str, set: RuleSet| {
            set.rules(&Layout::named(name).unwrap())
                .map(|rules| rules.len())
        };
        assert_eq!(fits("classic", RuleSet::Diagonals), Some(2));
        assert_eq!(fits("6x6", RuleSet::Diagonals), Some(2));
        assert_eq!(fits("16x16", RuleSet::Diagonals), Some(2));
        assert_eq!(fits("samurai", RuleSet::Diagonals), None);
        assert_eq!(fits("classic", RuleSet::Windoku), Some(4));
        assert_eq!(fits("16x16", RuleSet::Windoku), None);
        assert_eq!(fits("twodoku", RuleSet::Windoku), None);
    }

    #[test]
    fn a_rule_set_half_there_is_completed_and_one_there_goes_with_the_struck_marks() {
        // One diagonal from the file: the toggle adds the other.
        let givens = include_str!("../../samples/puzzles/classic.txt");
        let mut doc = text_doc("one.txt", &format!("{givens}\nrules:\ndiagonal+\n"));
        assert!(!RuleSet::Diagonals.is_in(&doc.current.puzzle));
        assert!(doc.toggle_rules(RuleSet::Diagonals));
        assert_eq!(
            doc.current.puzzle.rules(),
            [
                Rule::Diagonal(Diagonal::Anti),
                Rule::Diagonal(Diagonal::Main)
            ]
        );
        // Windows written in another order are the windoku's all the same;
        // other rules stay when they go.
        let windoku = include_str!("../../samples/puzzles/variants/windoku.txt");
        let mut doc = text_doc(
            "windoku.txt",
            &(windoku.replace("region r2c2 r2c3", "region r2c3 r2c2") + "antiking\n"),
        );
        assert!(RuleSet::Windoku.is_in(&doc.current.puzzle));
        doc.current.eliminated[0] = 1;
        assert!(doc.toggle_rules(RuleSet::Windoku));
        assert_eq!(doc.current.puzzle.rules(), [Rule::AntiKing]);
        assert_eq!(doc.current.eliminated[0], 0, "marks start afresh");
        assert!(doc.undo());
        assert_eq!(doc.current.puzzle.rules().len(), 5);
    }

    #[test]
    fn a_cell_moves_between_cages_and_a_cage_left_empty_goes() {
        let mut doc = killer();
        let before = doc.current.puzzle.cages().to_vec();
        // r4c6 is the sample's one-cell cage (sum 1).
        let cell = doc.layout().cell_at(3, 5).unwrap();
        let k = doc.cage_of(cell).unwrap();
        assert_eq!(before[k].cells, vec![cell as u32]);
        let sides = doc.neighbour_cages(cell);
        assert!(!sides.is_empty());
        let distinct: Vec<_> = sides.iter().map(|&(_, n)| doc.cage_of(n)).collect();
        assert!(distinct.iter().all(|&c| c.is_some() && c != Some(k)));
        assert!(!doc.move_to_cage(cell, cell), "into its own cage");
        let (_, into) = sides[0];
        let target = before[doc.cage_of(into).unwrap()].clone();
        assert!(doc.move_to_cage(cell, into));
        let cages = doc.current.puzzle.cages();
        assert_eq!(cages.len(), before.len() - 1, "the emptied cage went");
        let joined = &cages[doc.cage_of(cell).unwrap()];
        assert_eq!(joined.sum, target.sum, "sums stay");
        assert_eq!(joined.cells.len(), target.cells.len() + 1);
        assert!(doc.undo());
        assert_eq!(doc.current.puzzle.cages(), &before[..]);

        assert!(!doc.set_cage_sum(cell, 1), "the same sum is no step");
        assert!(doc.set_cage_sum(cell, 2));
        assert_eq!(doc.current.puzzle.cages()[k].sum, 2);
        assert!(doc.undo() && !doc.can_undo());
    }

    #[test]
    fn a_click_between_the_quads_of_a_bent_page_selects_the_nearest_cell() {
        let layout = Arc::new(Layout::classic());
        let mut doc = Doc::from_text("classic".into(), None, Puzzle::empty(layout));
        let mut located = (*doc.current.located).clone();
        // Where r1c1, r1c2, r2c1 and r2c2 meet, the vertical line lies
        // further left beside row 2 than beside row 1 and the horizontal
        // line lower beside column 2 than beside column 1: the four quads
        // leave a sliver between them.
        located.col_lines_at = (0..=9)
            .map(|i| {
                (0..9)
                    .map(|r| i as f32 - if i == 1 && r == 1 { 0.02 } else { 0.0 })
                    .collect()
            })
            .collect();
        located.row_lines_at = (0..=9)
            .map(|i| {
                (0..9)
                    .map(|c| i as f32 + if i == 1 && c == 1 { 0.02 } else { 0.0 })
                    .collect()
            })
            .collect();
        doc.current.located = Arc::new(located.clone());
        let (x, y) = located.homography.map(0.99, 1.01);
        let gap = [x as f32, y as f32];
        assert!(
            !(0..81).any(|c| point_in_quad(gap, &located.cell_quad(c))),
            "the point lies between the quads"
        );
        let cell = doc.cell_at(gap).expect("a cell beside the sliver");
        assert!([0, 1, 9, 10].contains(&cell), "{cell}");
        // A click inside a quad is that cell; outside the grid, none.
        let (x, y) = located.homography.map(4.5, 4.5);
        assert_eq!(doc.cell_at([x as f32, y as f32]), Some(40));
        let (x, y) = located.homography.map(-0.5, 4.5);
        assert_eq!(doc.cell_at([x as f32, y as f32]), None);
    }

    #[test]
    fn a_cell_outside_every_cage_can_join_one() {
        let layout = Arc::new(Layout::classic());
        let puzzle = Puzzle::empty(layout)
            .with_cages(vec![Cage::new(3, vec![0, 1])])
            .unwrap();
        let mut doc = Doc::from_text("partial".into(), None, puzzle);
        assert_eq!(doc.cage_of(2), None);
        assert!(!doc.set_cage_sum(2, 5), "no cage to change");
        assert_eq!(doc.neighbour_cages(2), vec![("left", 1)]);
        assert!(doc.neighbour_cages(40).is_empty());
        assert!(doc.move_to_cage(2, 1));
        assert_eq!(doc.current.puzzle.cages()[0].cells, vec![0, 1, 2]);
        assert!(!doc.move_to_cage(3, 40), "r5c5 is in no cage");
    }

    #[test]
    fn a_step_applied_is_one_undo_step_with_its_struck_candidates() {
        use crate::logic::Technique;
        let text = include_str!("../../samples/puzzles/classic.txt");
        let Ok(Document::Single(p)) = parse(text, "classic.txt", None) else {
            panic!("the classic sample is one puzzle");
        };
        let mut doc = Doc::from_text("classic.txt".into(), None, p);
        let before = doc.current.clone();
        let empty: Vec<usize> = (0..81).filter(|&c| doc.values()[c] == 0).collect();
        let (a, b) = (empty[0], empty[1]);
        let mut st = Step::new(Technique::Pointing);
        st.placements.push(Candidate::new(a, 5));
        st.eliminations.push(Candidate::new(b, 3));
        st.eliminations.push(Candidate::new(a, 7));
        assert_eq!(doc.writing, Writing::Givens);
        assert!(doc.apply_step(&st));
        // The hint's digit is the player's, not a given, though typing
        // writes givens.
        assert_eq!((doc.values()[a], doc.entries()[a]), (0, 5));
        assert_eq!(doc.values(), before.puzzle.values(), "no given added");
        assert_eq!(doc.current.current_values()[a], 5);
        assert_eq!(doc.current.eliminated[b], 1 << 2);
        assert_eq!(doc.current.eliminated[a], 0, "a filled cell keeps no marks");
        assert!(!doc.apply_step(&st), "applied twice, it changes nothing");

        // Typing into the struck cell and clearing it brings its marks back.
        assert!(doc.set_cell(b, 9) && doc.set_cell(b, 0));
        assert_eq!(doc.current.eliminated[b], 0);
        assert!(doc.undo() && doc.undo());
        assert_eq!(doc.current.eliminated[b], 1 << 2);

        // One undo takes the whole step back, one redo brings it again.
        assert!(doc.undo());
        assert_eq!(doc.values(), before.puzzle.values());
        assert_eq!(doc.current.eliminated, before.eliminated);
        assert!(!doc.can_undo());
        assert!(doc.redo());
        assert_eq!(doc.entries()[a], 5);
        assert_eq!(doc.current.eliminated[b], 1 << 2);

        // A step for another puzzle is refused whole.
        let mut bad = Step::new(Technique::Solver);
        bad.placements.push(Candidate::new(a, 4));
        bad.placements.push(Candidate::new(81, 1));
        assert!(!doc.apply_step(&bad));
        bad.placements[1] = Candidate::new(b, 10);
        assert!(!doc.apply_step(&bad));
        assert_eq!(doc.entries()[a], 5);
    }

    #[test]
    fn a_digit_not_read_for_sure_counts_until_the_person_fills_it() {
        let text = include_str!("../../samples/puzzles/classic.txt");
        let Ok(Document::Single(p)) = parse(text, "classic.txt", None) else {
            panic!("the classic sample is one puzzle");
        };
        let empty: Vec<usize> = (0..81).filter(|&c| p.values()[c] == 0).collect();
        let (a, b) = (empty[0], empty[1]);
        let mut doc = Doc::from_text("classic.txt".into(), None, p);
        let written = |cell, sure| Written {
            cell,
            value: 5,
            confidence: 0.6,
            runner_up: 3,
            sure,
        };
        // As a reading gives it: two cells uncertain, one with a digit read
        // for sure, the other not.
        doc.current.uncertain = vec![a, b];
        doc.current = doc
            .current
            .clone()
            .with_written(&[written(a, false), written(b, true)]);
        assert_eq!(
            doc.current.unsure,
            vec![a],
            "one read for sure is no unsure cell"
        );
        assert_eq!(doc.current.unsure_left(), 1);
        // The person writes the digit: no longer unsure; undo brings it back.
        assert!(doc.set_entry(a, 5));
        assert_eq!(doc.current.unsure_left(), 0);
        assert!(doc.undo());
        assert_eq!(doc.current.unsure_left(), 1);
        // Set as a given, it leaves the uncertain cells for good.
        assert!(doc.set_cell(a, 5));
        assert!(doc.set_cell(a, 0));
        assert_eq!(doc.current.unsure_left(), 0);
    }

    #[test]
    fn entries_are_written_apart_from_the_givens_and_undone() {
        use crate::logic::Technique;
        let text = include_str!("../../samples/puzzles/classic.txt");
        let Ok(Document::Single(p)) = parse(text, "classic.txt", None) else {
            panic!("the classic sample is one puzzle");
        };
        let givens = p.values().to_vec();
        let mut doc = Doc::from_text("classic.txt".into(), None, p);
        assert_eq!(doc.writing, Writing::Givens, "no entries: the givens");
        doc.writing = Writing::Entries;
        let empty: Vec<usize> = (0..81).filter(|&c| givens[c] == 0).collect();
        let given = (0..81).find(|&c| givens[c] != 0).unwrap();
        let (a, b) = (empty[0], empty[1]);

        assert_eq!(doc.write(a, 5), Ok(true));
        assert_eq!(doc.write(a, 5), Ok(false), "the same entry is no step");
        assert_eq!((doc.values()[a], doc.entries()[a]), (0, 5));
        assert_eq!(doc.values(), &givens[..], "givens untouched");
        let note = doc.write(given, 1).unwrap_err();
        assert!(note.contains("holds a given"), "{note}");
        assert_eq!(doc.current.current_values()[a], 5);

        // A step applied while writing entries places entries.
        let mut st = Step::new(Technique::Pointing);
        st.placements.push(Candidate::new(b, 7));
        assert!(doc.apply_step(&st));
        assert_eq!((doc.values()[b], doc.entries()[b]), (0, 7));
        // A step that would overwrite a given is for another state.
        let mut over = Step::new(Technique::Solver);
        over.placements
            .push(Candidate::new(given, givens[given] % 9 + 1));
        assert!(!doc.apply_step(&over));

        // Undo takes entries back one step at a time.
        assert!(doc.undo());
        assert_eq!(doc.entries()[b], 0);
        assert!(doc.undo());
        assert_eq!(doc.entries()[a], 0);

        // A given written over an entry replaces it; clearing the given
        // leaves the cell empty.
        assert_eq!(doc.write(a, 5), Ok(true));
        doc.writing = Writing::Givens;
        assert_eq!(doc.write(a, 6), Ok(true));
        assert_eq!((doc.values()[a], doc.entries()[a]), (6, 0));
        assert_eq!(doc.write(a, 0), Ok(true));
        assert_eq!(doc.current.current_values()[a], 0);
        // Clearing while writing givens clears an entry too.
        doc.writing = Writing::Entries;
        assert_eq!(doc.write(a, 4), Ok(true));
        doc.writing = Writing::Givens;
        assert_eq!(doc.write(a, 0), Ok(true));
        assert_eq!(doc.entries()[a], 0);
        assert_eq!(doc.write(a, 0), Ok(false), "nothing left to clear");
    }

    #[test]
    fn entries_that_clash_with_givens_are_dropped_one_by_one() {
        let layout = Arc::new(Layout::classic());
        let mut givens = vec![0u8; 81];
        givens[0] = 5;
        let puzzle = Puzzle::empty(layout).with_values(givens);
        let located = located_at_corners(
            [[0.0, 0.0], [90.0, 0.0], [90.0, 90.0], [0.0, 90.0]],
            puzzle.layout(),
        )
        .unwrap();
        let mut written = vec![0u8; 81];
        written[0] = 3; // on the given: dropped
        written[1] = 4;
        written[2] = 12; // beyond 9: dropped
        let snap = Snapshot::new(puzzle, Arc::new(located), Vec::new())
            .with_entries(Entries::from_values(written));
        assert_eq!(&snap.entries.values()[..3], &[0, 4, 0]);
        assert_eq!(snap.current_values()[..2], [5, 4]);
    }
}
