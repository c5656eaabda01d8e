//! The desktop app driven through its accessibility tree, as a person (or a
//! screen reader) would: open through the same entry point a dropped file
//! takes, edit, undo, solve, and read back what the window shows.

use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use eframe::egui::{self, Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use sudoku_lens::app::doc::{Solutions, count_solutions};
use sudoku_lens::app::input::Input;
use sudoku_lens::app::{Prefs, SudokuApp};
use sudoku_lens::grid::{Document, Puzzle, parse};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn sample(name: &str) -> Puzzle {
    let text = std::fs::read_to_string(root().join("samples/puzzles").join(name)).unwrap();
    match parse(&text, name, None).unwrap() {
        Document::Single(p) => p,
        Document::Batch(_) => panic!("{name} is one puzzle"),
    }
}

/// Longest a test waits for background work (reading a photo, solving)
/// before it fails: far above what any of it takes in a debug build.
const SETTLE_LIMIT: Duration = Duration::from_secs(60);

/// Counts repaint requests made from threads other than the test's: what
/// background work does once its result is in the app's channel.
#[derive(Clone, Default)]
struct Wakes(Arc<(Mutex<u64>, Condvar)>);

impl Wakes {
    fn count(&self) -> u64 {
        *self.0.0.lock().unwrap()
    }

    fn bump(&self) {
        *self.0.0.lock().unwrap() += 1;
        self.0.1.notify_all();
    }

    /// Waits until the count passes `seen`; false when `deadline` comes first.
    fn wait_past(&self, seen: u64, deadline: Instant) -> bool {
        let (count, changed) = &*self.0;
        let mut n = count.lock().unwrap();
        while *n <= seen {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            n = changed.wait_timeout(n, left).unwrap().0;
        }
        true
    }
}

/// The app's window as the test harness runs it, through `eframe::App`
/// (`logic`, then `ui`) on the harness's own context.
struct Window {
    harness: Harness<'static, SudokuApp>,
    wakes: Wakes,
}

impl Deref for Window {
    type Target = Harness<'static, SudokuApp>;
    fn deref(&self) -> &Self::Target {
        &self.harness
    }
}

impl DerefMut for Window {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.harness
    }
}

impl Window {
    /// Runs frames until the window is still, after input that starts no
    /// background work (a selection, a menu, a focus). Stands in for
    /// [`Harness::run`], whose frames would never end while a spinner turns:
    /// input that starts work (an edit, a hint, an open) is followed by
    /// [`settle`] instead, and this fails at once, whatever the machine's
    /// speed, when the app has work pending after the input's frame.
    #[track_caller]
    fn run(&mut self) {
        self.harness.step();
        assert!(
            !self.harness.state().is_busy(),
            "background work is pending: wait for it with settle(); status: {:?}",
            self.harness.state().status_line()
        );
        self.harness.run();
    }
}

/// The accessibility labels of the first `n` givens of `puzzle`, as the
/// canvas names its cells ("Cell r1c5: 8, given").
fn given_labels(puzzle: &Puzzle, n: usize) -> Vec<String> {
    let layout = puzzle.layout();
    puzzle
        .values()
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v != 0)
        .take(n)
        .map(|(cell, &v)| {
            format!(
                "Cell {}: {}, given",
                layout.cell_name(cell),
                puzzle.alphabet().symbol(v)
            )
        })
        .collect()
}

fn harness() -> Window {
    let wakes = Wakes::default();
    let observed = wakes.clone();
    let test_thread = std::thread::current().id();
    let harness = Harness::builder()
        .with_size(egui::vec2(1200.0, 900.0))
        .build_eframe(move |cc| {
            cc.egui_ctx.set_repaint_observer(move |_| {
                if std::thread::current().id() != test_thread {
                    observed.bump();
                }
            });
            SudokuApp::new(&cc.egui_ctx, Prefs::default())
        });
    Window { harness, wakes }
}

/// Steps the window until the app is idle, waiting between steps for
/// background work to ask for a repaint. Fails when that takes longer than
/// [`SETTLE_LIMIT`].
fn settle(h: &mut Window) {
    let deadline = Instant::now() + SETTLE_LIMIT;
    loop {
        let seen = h.wakes.count();
        h.step();
        if !h.state().is_busy() {
            h.harness.run();
            return;
        }
        let waited = if h.state().is_working() {
            h.wakes.wait_past(seen, deadline)
        } else {
            Instant::now() < deadline
        };
        assert!(
            waited,
            "background work did not finish within {SETTLE_LIMIT:?}; status: {:?}",
            h.state().status_line()
        );
    }
}

fn open(h: &mut Window, input: Input) {
    h.state_mut().open(input);
    settle(h);
}

fn open_sample(h: &mut Window, name: &str) {
    let text = std::fs::read_to_string(root().join("samples/puzzles").join(name)).unwrap();
    open(
        h,
        Input::Text {
            name: name.into(),
            text,
        },
    );
}

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudoku-lens-app-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn start_screen_says_what_to_do() {
    let mut h = harness();
    h.run();
    h.get_by_label("Open a file…");
    h.get_by_label_contains("drop a photo or screenshot here");
    h.get_by_label_contains("paste one (Ctrl+V)");
    h.get_by_label("Classic sample");
}

#[test]
fn a_sample_opens_with_its_givens_and_status() {
    let mut h = harness();
    h.run();
    h.get_by_label("Classic sample").click();
    settle(&mut h);
    let puzzle = sample("classic.txt");
    let doc = h.state().doc().expect("the sample opened");
    assert_eq!(doc.values(), puzzle.values());
    for label in given_labels(&puzzle, 2) {
        h.get_by_label(&label);
    }
    h.get_by_label_contains("One solution");
}

/// The textures the last frame paints: each one's name and size.
fn painted_textures(h: &Window) -> Vec<(String, [usize; 2])> {
    fn meshes<'s>(shape: &'s egui::Shape, out: &mut Vec<&'s egui::Mesh>) {
        match shape {
            egui::Shape::Mesh(m) => out.push(m),
            egui::Shape::Vec(v) => v.iter().for_each(|s| meshes(s, out)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    for clipped in &h.output().shapes {
        meshes(&clipped.shape, &mut found);
    }
    let textures = h.ctx.tex_manager();
    let textures = textures.read();
    found
        .iter()
        .filter_map(|m| textures.meta(m.texture_id))
        .map(|meta| (meta.name.clone(), meta.size))
        .collect()
}

/// True when the last frame paints a texture of `size` pixels: the open
/// document's picture (its photo, or a text puzzle's drawn grid with its
/// givens), not the blank stand-in drawn while there is none.
fn paints_picture(h: &Window, size: [f32; 2]) -> bool {
    let want = [size[0] as usize, size[1] as usize];
    painted_textures(h).iter().any(|(_, s)| *s == want)
}

/// True when the last frame paints the picture with the solution drawn in
/// (the texture the canvas uploads for it), not the plain picture.
fn paints_solution(h: &Window) -> bool {
    painted_textures(h)
        .iter()
        .any(|(name, _)| name.starts_with("solved-"))
}

#[test]
fn a_text_puzzle_brought_back_is_drawn_with_its_givens() {
    let mut h = harness();
    // The plain grid, not the picture with the solution drawn in.
    h.state_mut().prefs.show_solution = false;
    h.run();
    h.get_by_label("Classic sample").click();
    settle(&mut h);
    let size = h.state().doc().unwrap().canvas_size();
    assert!(paints_picture(&h, size), "the grid is drawn when opened");

    h.get_by_label("Close").click();
    settle(&mut h);
    assert!(h.state().doc().is_none());
    h.get_by_label("Back to the last puzzle").click();
    settle(&mut h);
    assert_eq!(h.state().doc().unwrap().name, "classic.txt");
    h.get_by_label(&given_labels(&sample("classic.txt"), 1)[0]);
    assert!(
        paints_picture(&h, size),
        "the grid and its givens are drawn again after coming back"
    );
}

#[test]
fn solve_draws_the_solution_after_coming_back_to_a_pdf_page() {
    let mut h = harness();
    h.run();
    open(
        &mut h,
        Input::Path(root().join("samples/images/classic-pdf.pdf")),
    );
    h.get_by_label_contains("One solution");
    h.get_by_label("Close").click();
    settle(&mut h);
    assert!(h.state().doc().is_none());
    h.get_by_label("Back to the last puzzle").click();
    settle(&mut h);
    h.key_press(Key::Enter);
    settle(&mut h);
    h.get_by_label_contains("One solution");
    assert!(
        h.state().shown_solution().is_some(),
        "the solution is asked for"
    );
    assert!(
        paints_solution(&h),
        "the solution is drawn after coming back and solving"
    );
    // Hidden and shown again, it is drawn again.
    h.key_press(Key::H);
    settle(&mut h);
    assert!(!paints_solution(&h), "H hides the solution");
    h.key_press(Key::H);
    settle(&mut h);
    assert!(paints_solution(&h), "H shows it again");
}

#[test]
fn on_a_25x25_the_h_key_types_its_symbol() {
    let mut h = harness();
    open_sample(&mut h, "25by25.txt");
    let puzzle = sample("25by25.txt");
    let blank = puzzle.values().iter().position(|&v| v == 0).unwrap();
    let cell = puzzle.layout().cell_name(blank);
    h.state_mut().prefs.show_solution = false;
    h.run();
    h.get_by_label(&format!("Cell {cell}: empty")).click();
    h.run();
    // A key press as a keyboard sends it: the key, then its text.
    h.key_press(Key::H);
    h.event(egui::Event::Text("h".into()));
    settle(&mut h);
    h.get_by_label(&format!("Cell {cell}: H, given"));
    assert!(
        !h.state().prefs.show_solution,
        "H typed a symbol, it did not show the solution"
    );
}

#[test]
fn edit_conflict_undo_redo_and_solve() {
    let mut h = harness();
    open_sample(&mut h, "classic.txt");
    h.state_mut().prefs.show_solution = false;
    h.run();

    // An empty cell with an empty cell below it, and a digit its row
    // already holds: typing that digit makes a conflict.
    let puzzle = sample("classic.txt");
    let (layout, values) = (puzzle.layout(), puzzle.values());
    let (cell, below, clash) = (0..72)
        .filter(|&c| values[c] == 0 && values[c + 9] == 0)
        .find_map(|c| {
            let row = c / 9 * 9;
            let given = (row..row + 9).map(|o| values[o]).find(|&v| v != 0)?;
            Some((layout.cell_name(c), layout.cell_name(c + 9), given))
        })
        .expect("the sample has such a cell");
    let empty = format!("Cell {cell}: empty");
    let clashing = format!("Cell {cell}: {clash}, given");

    h.get_by_label(&empty).click();
    h.run();
    h.get_by_label_contains(&format!("Selected {cell}: empty"));
    h.event(egui::Event::Text(clash.to_string()));
    settle(&mut h);
    h.get_by_label(&clashing);
    h.get_by_label_contains(&format!("Conflict: {clash} appears twice"));
    // The house is named once: its cells say where it lies.
    assert!(
        h.query_by_label_contains("(columns").is_none()
            && h.query_by_label_contains("(rows").is_none()
    );
    assert_eq!(h.state().unsaved(), vec!["classic.txt".to_string()]);

    // Undo brings the empty cell and the single solution back.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    h.get_by_label(&empty);
    h.get_by_label_contains("One solution");

    // Redo, then clear with Delete: the edit and its clearing are two steps.
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    settle(&mut h);
    h.get_by_label(&clashing);
    h.key_press(Key::Delete);
    settle(&mut h);
    h.get_by_label(&empty);

    // Arrow keys move the selection; the digit pad sets a value.
    h.key_press(Key::ArrowDown);
    h.run();
    h.get_by_label_contains(&format!("Selected {below}"));
    h.get_by_role_and_label(egui::Role::Button, &format!("Write 7 in {below}"))
        .click();
    settle(&mut h);
    h.get_by_label(&format!("Cell {below}: 7, given"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);

    // Solve: every empty cell shows its digit of the known solution.
    h.get_by_label("Solve").click();
    settle(&mut h);
    let solution = sample("classic.solution.txt");
    let puzzle = sample("classic.txt");
    let empty: Vec<usize> = (0..81).filter(|&c| puzzle.values()[c] == 0).collect();
    assert!(empty.len() > 40);
    for &cell in &empty {
        let name = puzzle.layout().cell_name(cell);
        let label = format!("Cell {name}: {} (solution)", solution.values()[cell]);
        h.get_by_label(&label);
    }
    h.get_by_label("Copy solution");
}

/// Takes the first 12 givens out of the classic sample, which leaves it
/// with several solutions, and waits for the count.
fn take_out_givens_until_several_solutions(h: &mut Window) {
    let givens: Vec<usize> = (0..81)
        .filter(|&c| h.state().doc().unwrap().values()[c] != 0)
        .collect();
    for &c in givens.iter().take(12) {
        h.state_mut().set_cell(c, 0);
    }
    settle(h);
}

#[test]
fn several_solutions_are_reported_and_marked() {
    let mut h = harness();
    open_sample(&mut h, "classic.txt");
    take_out_givens_until_several_solutions(&mut h);
    h.get_by_label_contains("Several solutions");
    let marked = h.state().solutions().unwrap().marked_cells();
    assert!(
        marked.len() >= 2,
        "cells that differ between solutions are marked"
    );
}

#[test]
fn fast_edits_end_with_the_count_of_the_last_state() {
    let mut h = harness();
    open_sample(&mut h, "samurai.txt");
    let givens: Vec<usize> = (0..369)
        .filter(|&c| h.state().doc().unwrap().values()[c] != 0)
        .collect();
    // A frame after each edit: each state is handed to the solver, most
    // of them while it still counts an earlier one.
    for &c in givens.iter().take(8) {
        h.state_mut().set_cell(c, 0);
        h.step();
    }
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.values()[givens[7]], 0);
    let counted = h.state().solutions().expect("the last state is counted");
    assert_eq!(*counted, count_solutions(&doc.current.puzzle));
}

/// A 25x25 whose count takes minutes in a debug build: the 25x25 sample's
/// solution thinned to about half its cells, one given then changed to
/// another symbol its houses do not hold. It has no solution, and only a
/// long search shows it (about 6 s in release). The 14th such puzzle of
/// the seed, the first of them found that slow.
fn slow_25x25() -> String {
    let text = std::fs::read_to_string(root().join("samples/puzzles/25by25.solution.txt")).unwrap();
    let Document::Single(solution) = parse(&text, "25by25", None).unwrap() else {
        panic!("the sample is one puzzle")
    };
    let layout = solution.layout().clone();
    let mut rng = sudoku_lens::rng::Rng::new(7);
    let mut values = Vec::new();
    for _ in 0..14 {
        values =
            sudoku_lens::solve::generate::wrong_given(&layout, solution.values(), 0.47, &mut rng);
    }
    solution.with_values(values).to_text()
}

/// Steps the window until the app holds a document, waiting between steps
/// for background work to ask for a repaint.
fn step_until_shown(h: &mut Window) {
    let deadline = Instant::now() + SETTLE_LIMIT;
    loop {
        let seen = h.wakes.count();
        h.step();
        if h.state().doc().is_some() {
            return;
        }
        assert!(
            h.wakes.wait_past(seen, deadline),
            "nothing opened within {SETTLE_LIMIT:?}"
        );
    }
}

/// A count that nobody waits for any more (the puzzle was left) stops at
/// once: the next puzzle's count does not wait minutes behind it, and no
/// "gave up" is shown for it.
#[test]
fn a_slow_count_left_for_another_puzzle_stops_and_frees_the_solver() {
    let mut h = harness();
    h.state_mut().open(Input::Text {
        name: "slow.txt".into(),
        text: slow_25x25(),
    });
    // Shown, its count begins in the same frame.
    step_until_shown(&mut h);
    open_sample(&mut h, "classic.txt");
    h.get_by_label_contains("One solution");
    assert!(h.query_by_label_contains("gave up").is_none());

    // Back to the slow puzzle, its count runs again; closed, it stops, and
    // the window is idle at once.
    h.state_mut().reopen_recent(0);
    h.step();
    assert_eq!(h.state().doc().unwrap().name, "slow.txt");
    h.state_mut().close();
    settle(&mut h);
    assert!(h.state().error.is_none());
    // The solver is free: the classic is counted again without waiting.
    let classic = h
        .state()
        .recent_names()
        .iter()
        .position(|n| n == "classic.txt")
        .unwrap();
    h.state_mut().reopen_recent(classic);
    settle(&mut h);
    assert_eq!(h.state().doc().unwrap().name, "classic.txt");
    h.get_by_label_contains("One solution");
}

#[test]
fn a_later_input_replaces_one_still_being_read() {
    let mut h = harness();
    let read = |name: &str| Input::Text {
        name: name.into(),
        text: std::fs::read_to_string(root().join("samples/puzzles").join(name)).unwrap(),
    };
    h.state_mut().open(read("samurai.txt"));
    h.state_mut().open(read("classic.txt"));
    settle(&mut h);
    assert_eq!(h.state().doc().unwrap().name, "classic.txt");
    assert!(
        h.state().recent_names().is_empty(),
        "the replaced input never opened"
    );
}

#[test]
fn opening_another_puzzle_keeps_the_edited_one_in_recent() {
    let mut h = harness();
    open_sample(&mut h, "classic.txt");
    h.state_mut().set_cell(1, 1);
    open_sample(&mut h, "samurai.txt");
    assert_eq!(h.state().doc().unwrap().layout().name(), "samurai");
    assert_eq!(h.state().recent_names(), vec!["classic.txt".to_string()]);
    h.get_by_label("Recent").click();
    h.run();
    h.get_by_label("classic.txt").click();
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.name, "classic.txt");
    assert_eq!(doc.values()[1], 1, "the edit survived");
    assert!(doc.can_undo(), "and so did its history");

    // Exporting counts as saving the edits.
    let out = std::env::temp_dir().join(format!("sudoku-lens-edited-{}.png", std::process::id()));
    assert_eq!(h.state().unsaved(), vec!["classic.txt".to_string()]);
    h.state_mut().export_to(out.clone());
    settle(&mut h);
    assert!(out.exists());
    std::fs::remove_file(&out).ok();
    assert!(h.state().unsaved().is_empty());
}

/// Asks the window to close, as its close button does, and returns the
/// commands the app sent the window in answer.
fn request_close(h: &mut Window) -> Vec<egui::ViewportCommand> {
    h.input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    h.step();
    h.output().viewport_output[&egui::ViewportId::ROOT]
        .commands
        .clone()
}

#[test]
fn quitting_over_unsaved_edits_asks_first() {
    let mut h = harness();
    open_sample(&mut h, "classic.txt");
    let cancel = egui::ViewportCommand::CancelClose;
    assert!(
        !request_close(&mut h).contains(&cancel),
        "nothing to lose: the window closes"
    );

    h.state_mut().set_cell(1, 1);
    settle(&mut h);
    assert!(request_close(&mut h).contains(&cancel));
    h.run();
    h.get_by_label("Quit with unsaved edits?");
    h.get_by_label_contains("Edits to classic.txt have not been exported");
    h.get_by_label("Keep working").click();
    h.run();
    assert!(h.query_by_label("Quit with unsaved edits?").is_none());
    assert!(h.state().doc().is_some());

    assert!(request_close(&mut h).contains(&cancel));
    h.run();
    h.get_by_label("Quit anyway").click();
    h.step();
    let commands = h.output().viewport_output[&egui::ViewportId::ROOT]
        .commands
        .clone();
    assert!(commands.contains(&egui::ViewportCommand::Close));
    assert!(
        !request_close(&mut h).contains(&cancel),
        "once confirmed, closing is not held again"
    );
}

#[test]
fn files_that_are_not_puzzles_get_a_message_in_the_window() {
    let mut h = harness();
    let junk = temp_file("junk.bin", &[0xff, 0xfe, 0x00, 0x81, 0x92]);
    open(&mut h, Input::Path(junk));
    h.get_by_label_contains("junk.bin is neither an image");
    assert!(h.state().doc().is_none());

    let missing = root().join("no/such/photo.jpg");
    open(&mut h, Input::Path(missing));
    h.get_by_label_contains("photo.jpg does not exist");

    let text = temp_file("bad.txt", b"12345\n");
    open(&mut h, Input::Path(text));
    h.get_by_label_contains("bad.txt");
    assert!(h.state().doc().is_none());
}

#[test]
fn a_photo_without_a_grid_opens_with_corners_to_drag_and_layouts_to_pick() {
    let mut h = harness();
    let blank = image::RgbaImage::from_pixel(400, 300, image::Rgba([240, 240, 240, 255]));
    let mut png = Vec::new();
    blank
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    open(
        &mut h,
        Input::Bytes {
            name: "blank.png".into(),
            bytes: png.into(),
        },
    );
    h.get_by_label_contains("no sudoku grid found in blank.png — drag the corners onto the grid");
    h.get_by_label("Grid corner top-left");
    h.get_by_label("Grid corner bottom-right");
    let doc = h.state().doc().unwrap();
    assert!(doc.is_photo());
    let before = doc.current.located.corners;

    // Moving a corner is one undo step and reads the grid again.
    let mut moved = before;
    moved[0] = [before[0][0] + 20.0, before[0][1] + 10.0];
    h.state_mut().move_corners(moved);
    settle(&mut h);
    assert_eq!(h.state().doc().unwrap().current.located.corners, moved);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(h.state().doc().unwrap().current.located.corners, before);

    // The layout switch reads the cells again with the other layout.
    h.state_mut().switch_layout("samurai");
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.layout().name(), "samurai");
    assert_eq!(doc.values().len(), 369);
    h.get_by_label("Cell r21c21: empty");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(h.state().doc().unwrap().layout().name(), "classic");

    // An edit made while a switch is read keeps the edit, and says that
    // the switch was dropped.
    h.state_mut().switch_layout("samurai");
    assert!(h.state_mut().set_cell(0, 5));
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    assert_eq!((doc.layout().name(), doc.values()[0]), ("classic", 5));
    h.get_by_label_contains("The switch to samurai was dropped");
}

#[test]
fn pasted_text_opens_like_a_file() {
    let mut h = harness();
    h.run();
    let text = std::fs::read_to_string(root().join("samples/puzzles/classic.txt")).unwrap();
    h.event(egui::Event::Paste(text));
    settle(&mut h);
    assert_eq!(h.state().doc().unwrap().name, "pasted text");
    h.get_by_label(&given_labels(&sample("classic.txt"), 1)[0]);
}

#[test]
fn the_photo_sample_is_read_solved_and_exported() {
    let mut h = harness();
    h.run();
    h.get_by_label("Photo sample").click();
    settle(&mut h);
    let text =
        std::fs::read_to_string(root().join("samples/images/classic-photo-page.txt")).unwrap();
    let Document::Single(puzzle) = parse(&text, "classic-photo-page.txt", None).unwrap() else {
        panic!("one puzzle");
    };
    let doc = h.state().doc().expect("the photo opened");
    assert!(doc.is_photo());
    assert_eq!(doc.values(), puzzle.values(), "every cell read right");
    h.get_by_label(&given_labels(&puzzle, 1)[0]);
    h.get_by_label("Grid corner top-left");
    h.get_by_label_contains("One solution");

    // The solution, shown in the window, is what export writes.
    h.state_mut().prefs.show_solution = false;
    h.run();
    let plain = h.state().annotated_image().unwrap().unwrap();
    h.get_by_label("Solve").click();
    settle(&mut h);
    // The photo shows classic.txt, whose solution is beside it.
    let solution = sample("classic.solution.txt");
    let blank = puzzle.values().iter().position(|&v| v == 0).unwrap();
    let name = puzzle.layout().cell_name(blank);
    h.get_by_label(&format!(
        "Cell {name}: {} (solution)",
        solution.values()[blank]
    ));
    let solved = h.state().annotated_image().unwrap().unwrap();
    assert_eq!(solved.dimensions(), plain.dimensions());
    let changed = solved
        .pixels()
        .zip(plain.pixels())
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        changed > 2000,
        "the solution is drawn in ({changed} pixels)"
    );

    let out = std::env::temp_dir().join(format!("sudoku-lens-export-{}.png", std::process::id()));
    h.state_mut().export_to(out.clone());
    settle(&mut h);
    let written = image::open(&out).expect("export wrote a PNG").to_rgba8();
    std::fs::remove_file(&out).ok();
    assert_eq!(written, solved);
    h.get_by_label_contains("Saved");

    // Hiding the solution (H) takes it off the cells.
    h.key_press(Key::H);
    h.run();
    h.get_by_label(&format!("Cell {name}: empty"));
}

/// The first cell of `puzzle`'s cage holding `cell`, and that cage's sum.
fn cage_sum(puzzle: &Puzzle, cell: usize) -> u32 {
    let cage = puzzle
        .cages()
        .iter()
        .find(|k| k.cells.contains(&(cell as u32)));
    cage.expect("every cell of the killer sample is caged").sum
}

#[test]
fn a_killer_shows_its_cages_and_its_sums_and_cells_are_edited_and_undone() {
    let mut h = harness();
    h.state_mut().prefs.show_solution = false;
    h.run();
    h.get_by_label("Killer sample").click();
    settle(&mut h);
    let killer = sample("killer.txt");
    let solution = sample("killer.solution.txt");
    h.get_by_label_contains("One solution (0 givens)");
    let layout = killer.layout().clone();
    // r1c3 lies in a cage with r1c1 and a cell of another cage to its right.
    let (first, third) = (0, 2);
    let (a, b) = (cage_sum(&killer, first), cage_sum(&killer, third + 1));
    assert_eq!(cage_sum(&killer, third), a);
    assert_ne!(cage_sum(&killer, third + 1), a);
    let r1c1 = format!("Cell {}: empty, in a cage of {a}", layout.cell_name(first));
    h.get_by_label(&r1c1);

    // The cages are drawn on the puzzle's picture (and so on its export).
    let picture = h.state().annotated_image().unwrap().unwrap();
    let bare = sudoku_lens::overlay::render_grid(
        &killer.clone().with_cages(Vec::new()).unwrap(),
        None,
        &sudoku_lens::app::doc::overlay_options(),
    )
    .unwrap();
    let differ = picture
        .pixels()
        .zip(bare.pixels())
        .filter(|(p, q)| p != q)
        .count();
    assert!(differ > 5000, "cages drawn: {differ} pixels");

    // A sum raised by one: the sums no longer make 405, a conflict.
    h.get_by_label(&r1c1).click();
    h.run();
    h.get_by_label_contains(&format!("Cage of {}: 3 cells", layout.cell_name(first)));
    h.get_by_label("Sum +1").click();
    settle(&mut h);
    h.get_by_label(&format!("Cell r1c1: empty, in a cage of {}", a + 1));
    h.get_by_label_contains("Conflict: every cell is in a cage");
    h.get_by_label_contains("add up to 406");
    // Undo brings the sum and the single solution back.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    h.get_by_label(&r1c1);
    h.get_by_label_contains("One solution");

    // A sum three cells cannot make: that cage's cells are marked.
    assert!(h.state_mut().set_cage_sum(5));
    settle(&mut h);
    h.get_by_label_contains("cannot");
    assert_eq!(
        h.state().solutions().unwrap().marked_cells(),
        vec![0, 1, 2],
        "{}",
        h.state().status_line()
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    h.get_by_label_contains("One solution");

    // r1c3 moves to the cage on its right: both sums are now wrong for
    // the old solution; fixed by the value it carried, the puzzle holds
    // the old solution again.
    let v = solution.values()[third] as u32;
    let name = layout.cell_name(third);
    h.get_by_label(&format!("Cell {name}: empty, in a cage of {a}"))
        .click();
    h.run();
    h.get_by_label(&format!("Move {name} to the cage right ({b})"))
        .click();
    settle(&mut h);
    h.get_by_label(&format!("Cell {name}: empty, in a cage of {b}"));
    let moved = h.state().solutions().cloned().unwrap();
    assert_ne!(
        moved,
        Solutions::Unique(solution.values().to_vec()),
        "the old solution breaks the sums"
    );
    for _ in 0..v {
        h.get_by_label("Sum +1").click();
        settle(&mut h);
    }
    h.get_by_label(&r1c1).click();
    h.run();
    for _ in 0..v {
        h.get_by_label("Sum −1").click();
        settle(&mut h);
    }
    h.get_by_label(&format!("Cell r1c1: empty, in a cage of {}", a - v));
    h.get_by_label(&format!("Cell {name}: empty, in a cage of {}", b + v));
    let now = h.state().doc().unwrap().current.puzzle.clone();
    let old = solution.values().to_vec();
    assert_eq!(
        count_solutions(&now.with_values(old.clone())),
        Solutions::Unique(old.clone()),
        "the old solution fits the new cages"
    );
    match h.state().solutions().unwrap() {
        Solutions::Unique(s) => assert_eq!(*s, old),
        Solutions::Several(..) => {}
        other => panic!("the old solution fits the new cages: {other:?}"),
    }
    // Each sum step and the move are steps of undo: all undone, the
    // sample's cages are back.
    for _ in 0..(2 * v + 1) {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        settle(&mut h);
    }
    assert_eq!(
        h.state().doc().unwrap().current.puzzle.cages(),
        killer.cages()
    );
    h.get_by_label_contains("One solution");
    assert!(!h.state().doc().unwrap().can_undo());

    // Solved: every cell shows its digit of the known solution, cage named.
    h.get_by_label("Solve").click();
    settle(&mut h);
    let label = format!(
        "Cell {}: {} (solution), in a cage of {a}",
        layout.cell_name(first),
        solution.values()[first]
    );
    h.get_by_label(&label);
}

/// Cells whose accessible label contains `text`.
fn cells_labelled(h: &Window, text: &str) -> usize {
    h.query_all_by_label_contains(text)
        .filter(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.starts_with("Cell "))
        })
        .count()
}

#[test]
fn hint_walks_its_three_levels_and_an_edit_resets_it() {
    let mut h = harness();
    open_sample(&mut h, "classic.txt");
    assert_eq!(h.state().hint_level(), 0);
    h.get_by_label("Hint").click();
    settle(&mut h);
    // Level 1: where to look (the box of a hidden single), nothing more.
    assert_eq!(h.state().hint_level(), 1);
    assert!(
        !h.state().prefs.show_solution,
        "asking for a hint hides the solution"
    );
    h.get_by_label("Look at the shaded cells.");
    assert_eq!(cells_labelled(&h, "where the hint looks"), 9);
    assert!(h.query_by_label_contains("Hidden single").is_none());
    assert_eq!(cells_labelled(&h, "the hint places"), 0);

    // Level 2: the technique.
    h.get_by_label("Hint").click();
    settle(&mut h);
    assert_eq!(h.state().hint_level(), 2);
    h.get_by_label("Hidden single (1.2)");
    assert_eq!(cells_labelled(&h, "the hint places"), 0);

    // Level 3 (the `?` key): the sentence, and the step drawn in its cell.
    h.event(egui::Event::Text("?".into()));
    settle(&mut h);
    assert_eq!(h.state().hint_level(), 3);
    h.get_by_label("Hidden single: in box 8, 5 can only go in r9c4.");
    h.get_by_label_contains("Cell r9c4: empty, where the hint looks, the hint places 5");
    h.event(egui::Event::Text("?".into()));
    settle(&mut h);
    assert_eq!(h.state().hint_level(), 3, "the last level stays");

    // Any edit: back to no hint.
    let cell = (0..81)
        .find(|&c| h.state().doc().unwrap().values()[c] == 0 && c != 75)
        .unwrap();
    let name = sample("classic.txt").layout().cell_name(cell);
    h.get_by_label(&format!("Cell {name}: empty")).click();
    h.run();
    h.key_press(Key::Delete);
    h.event(egui::Event::Text(
        sample("classic.solution.txt").values()[cell].to_string(),
    ));
    settle(&mut h);
    assert_eq!(h.state().hint_level(), 0);
    assert!(h.query_by_label("Hidden single (1.2)").is_none());
    assert_eq!(cells_labelled(&h, "where the hint looks"), 0);
    // And undoing the edit is a change too.
    h.get_by_label("Hint").click();
    settle(&mut h);
    assert_eq!(h.state().hint_level(), 1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(h.state().hint_level(), 0);

    // A hint asked for and left by an edit before it came: never shown.
    h.state_mut().hint();
    let cell = (0..81)
        .find(|&c| h.state().doc().unwrap().values()[c] == 0)
        .unwrap();
    h.state_mut().set_cell(cell, 0);
    h.state_mut().select(Some(cell));
    h.state_mut()
        .set_selected(sample("classic.solution.txt").values()[cell]);
    settle(&mut h);
    assert_eq!(h.state().hint_level(), 0);
    assert!(h.state().hint_step().is_none() && !h.state().is_hinting());
    assert_eq!(cells_labelled(&h, "where the hint looks"), 0);
}

#[test]
fn applying_a_step_and_undoing_it_restores_the_puzzle_and_its_candidates() {
    let mut h = harness();
    // Its first steps are singles, then a pointing that also strikes a
    // candidate.
    open(
        &mut h,
        Input::Text {
            name: "pointing.txt".into(),
            text: "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....\n"
                .into(),
        },
    );
    h.event(egui::Event::Text("#".into()));
    h.run();
    assert!(h.state().prefs.show_candidates);
    let mut applied = 0;
    let step = loop {
        h.event(egui::Event::Text("?".into()));
        settle(&mut h);
        let step = h.state().hint_step().expect("a step").clone();
        if !step.eliminations.is_empty() {
            break step;
        }
        assert!(h.state_mut().apply_hint());
        settle(&mut h);
        applied += 1;
        assert!(
            applied < 30,
            "the puzzle has a step that strikes candidates"
        );
    };
    let before = h.state().doc().unwrap().current.clone();
    let struck = step.eliminations[0];
    let layout = before.puzzle.layout().clone();
    let struck_name = layout.cell_name(struck.cell);
    let marks_of = |h: &Window, cell: &str| -> String {
        let wanted = format!("Cell {cell}: empty, candidates");
        let node = h.get_by_label_contains(&wanted);
        let label = node.accesskit_node().label().unwrap();
        let rest = label.split(", candidates ").nth(1).unwrap();
        rest.split(',').next().unwrap().to_string()
    };
    let marks_before = marks_of(&h, &struck_name);
    let digit = char::from(b'0' + struck.digit);
    assert!(marks_before.contains(digit), "{marks_before}");

    // Apply (the `!` key): placed, struck, one undo step.
    h.event(egui::Event::Text("!".into()));
    settle(&mut h);
    let after = h.state().doc().unwrap().current.clone();
    for p in &step.placements {
        assert_eq!(after.current_values()[p.cell], p.digit);
    }
    assert_eq!(after.eliminated[struck.cell] >> (struck.digit - 1) & 1, 1);
    assert!(!marks_of(&h, &struck_name).contains(digit));
    assert_eq!(h.state().hint_level(), 0, "applied: a new state, no hint");
    // The next hint starts from the struck candidates: not the same step.
    h.event(egui::Event::Text("?".into()));
    settle(&mut h);
    assert_ne!(h.state().hint_step(), Some(&step));

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    let undone = &h.state().doc().unwrap().current;
    assert_eq!(undone.puzzle, before.puzzle);
    assert_eq!(undone.eliminated, before.eliminated);
    assert_eq!(marks_of(&h, &struck_name), marks_before);
    // Every earlier step is its own undo step.
    for _ in 0..applied {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    }
    settle(&mut h);
    assert!(!h.state().doc().unwrap().can_undo());
}

#[test]
fn the_rating_shows_for_one_solution_and_not_for_several() {
    let mut h = harness();
    open_sample(&mut h, "classic.txt");
    let rating = sudoku_lens::logic::rate(&sample("classic.txt")).unwrap();
    let line = format!("Rating {:.1} ({})", rating.difficulty, rating.level);
    h.get_by_label(&line);

    // Givens taken out until two solutions: no rating.
    take_out_givens_until_several_solutions(&mut h);
    h.get_by_label_contains("Several solutions");
    assert!(h.state().rating().is_none());
    assert!(h.query_by_label_contains("Rating").is_none());
}

/// A PDF of `pages` blank A4 pages, written as PDF readers expect: objects,
/// their offsets in the cross-reference table, the trailer.
fn blank_pdf(pages: usize) -> Vec<u8> {
    let kids: Vec<String> = (0..pages).map(|i| format!("{} 0 R", 3 + i)).collect();
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        format!(
            "<< /Type /Pages /Kids [{}] /Count {pages} >>",
            kids.join(" ")
        ),
    ];
    for _ in 0..pages {
        objects.push("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>".into());
    }
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend(format!("{} 0 obj\n{o}\nendobj\n", i + 1).bytes());
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
    for o in offsets {
        out.extend(format!("{o:010} 00000 n \n").bytes());
    }
    out.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .bytes(),
    );
    out
}

fn read_sample(name: &str) -> Puzzle {
    let text = std::fs::read_to_string(root().join("samples/images").join(name)).unwrap();
    let Document::Single(puzzle) = parse(&text, name, None).unwrap() else {
        panic!("{name} is one puzzle");
    };
    puzzle
}

/// How many cells the last frame washes in a jigsaw region's tint.
fn region_tinted_cells(h: &Window) -> usize {
    fn count(shape: &egui::Shape) -> usize {
        match shape {
            egui::Shape::Path(p) => {
                usize::from(p.closed && sudoku_lens::app::REGION_TINTS.contains(&p.fill))
            }
            egui::Shape::Vec(v) => v.iter().map(count).sum(),
            _ => 0,
        }
    }
    h.output().shapes.iter().map(|c| count(&c.shape)).sum()
}

#[test]
fn jigsaw_regions_are_shaded_on_the_photo_and_the_switch_reads_them_again() {
    let name = "jigsaw-photo-page.jpg";
    let bytes = std::fs::read(root().join("samples/images").join(name)).unwrap();
    let printed = read_sample("jigsaw-photo-page.txt");
    let mut h = harness();
    open(
        &mut h,
        Input::Bytes {
            name: name.into(),
            bytes: bytes.into(),
        },
    );
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.layout().name(), "jigsaw");
    assert_eq!(doc.layout().regions(), printed.layout().regions());
    assert_eq!(doc.values(), printed.values());
    assert_eq!(
        region_tinted_cells(&h),
        81,
        "every cell in its region's tint"
    );

    // Read as a classic, its boxes are the 3x3 ones and nothing is tinted.
    h.get_by_label("Layout:").click();
    h.run();
    h.get_by_label("Classic").click();
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.layout().name(), "classic");
    assert!(doc.layout().regions().is_empty());
    assert_eq!(doc.values(), printed.values(), "the same digits");
    assert_eq!(region_tinted_cells(&h), 0);

    // The switch offers the jigsaw: its regions are read from the lines again.
    h.get_by_label("Layout:").click();
    h.run();
    h.get_by_label("Jigsaw").click();
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    assert_eq!(
        doc.layout().name(),
        "jigsaw",
        "{:?} {:?}",
        h.state().error,
        doc.notice
    );
    assert_eq!(doc.layout().regions(), printed.layout().regions());
    assert_eq!(region_tinted_cells(&h), 81);
    assert!(h.state().error.is_none());

    // Each switch is one undo step.
    h.state_mut().undo();
    settle(&mut h);
    assert_eq!(h.state().doc().unwrap().layout().name(), "classic");
    h.state_mut().undo();
    settle(&mut h);
    assert_eq!(h.state().doc().unwrap().layout().name(), "jigsaw");
}

#[test]
fn a_jigsaw_asked_of_a_grid_whose_lines_draw_no_regions_says_so() {
    // A 6x6 screenshot: its lines draw its 2x3 boxes, never six regions of
    // six cells of another map; a page with no thick lines at all draws none.
    let mut h = harness();
    let grid = image::RgbaImage::from_fn(460, 460, |x, y| {
        let on_line = |v: u32| (20..=440).contains(&v) && (v - 20) % 70 < 2;
        let inside = (20..=442).contains(&x) && (20..=442).contains(&y);
        if inside && (on_line(x) || on_line(y)) {
            image::Rgba([20, 20, 20, 255])
        } else {
            image::Rgba([255, 255, 255, 255])
        }
    });
    let mut png = Vec::new();
    grid.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    open(
        &mut h,
        Input::Bytes {
            name: "plain-lines.png".into(),
            bytes: png.into(),
        },
    );
    let before = h.state().doc().unwrap().layout().name().to_string();
    h.state_mut().switch_layout("jigsaw");
    settle(&mut h);
    let error = h.state().error.clone().unwrap_or_default();
    assert!(
        error.contains("plain-lines.png") && error.contains("regions"),
        "{error}"
    );
    assert_eq!(h.state().doc().unwrap().layout().name(), before);
}

#[test]
fn the_pages_of_a_pdf_are_picked_and_edits_on_a_page_left_survive() {
    let mut h = harness();
    let pdf = root().join("samples/images/classic-pdf.pdf");
    open(&mut h, Input::Path(pdf));
    let doc = h.state().doc().expect("page 1 opened");
    assert_eq!(doc.title(), "classic-pdf.pdf, page 1 of 2");
    let page1 = read_sample("classic-pdf.txt");
    assert_eq!(doc.values(), page1.values(), "page 1 read");
    h.get_by_label("Page 1 of 2");
    assert!(
        h.get_by_label("Previous page")
            .accesskit_node()
            .is_disabled()
    );

    // An edit on page 1, then the next page: page 2 (the photo) is read.
    let blank = page1.values().iter().position(|&v| v == 0).unwrap();
    assert!(h.state_mut().set_cell(blank, 7));
    settle(&mut h);
    h.get_by_label("Next page").click();
    h.step();
    assert!(
        h.state().loading.is_some(),
        "the page is read in the background"
    );
    assert_eq!(
        h.state().doc().unwrap().title(),
        "classic-pdf.pdf, page 1 of 2",
        "page 1 stays until page 2 is read"
    );
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.title(), "classic-pdf.pdf, page 2 of 2");
    assert_eq!(doc.values(), read_sample("classic-photo-page.txt").values());
    h.get_by_label("Page 2 of 2");
    assert!(h.get_by_label("Next page").accesskit_node().is_disabled());
    assert!(!h.state_mut().next_page(), "no page 3");
    assert_eq!(
        h.state().unsaved(),
        vec!["classic-pdf.pdf, page 1 of 2".to_string()],
        "the page left keeps its edit, and says so on quitting"
    );

    // Page Up goes back to page 1 as it was left, edit and history.
    h.key_press(Key::PageUp);
    h.step();
    assert!(h.state().loading.is_none(), "nothing read again");
    // The page's solutions are counted again (only the open state's are kept).
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.title(), "classic-pdf.pdf, page 1 of 2");
    assert_eq!(doc.values()[blank], 7, "the edit survived");
    assert!(doc.can_undo());
    h.get_by_label("Page 1 of 2");

    // Page Down: page 2 again, as it was read.
    h.key_press(Key::PageDown);
    settle(&mut h);
    assert_eq!(
        h.state().doc().unwrap().title(),
        "classic-pdf.pdf, page 2 of 2"
    );
    assert_eq!(h.state().recent_names().len(), 1, "one document per page");
}

#[test]
fn a_pdf_page_without_a_grid_says_so_and_keeps_the_picker() {
    let mut h = harness();
    let pdf = temp_file("blank.pdf", &blank_pdf(3));
    open(&mut h, Input::Path(pdf));
    h.get_by_label_contains("no sudoku grid found in blank.pdf, page 1");
    h.get_by_label("Page 1 of 3");
    h.get_by_label("Next page").click();
    settle(&mut h);
    h.get_by_label_contains("no sudoku grid found in blank.pdf, page 2");
    h.get_by_label("Page 2 of 3");
    assert_eq!(h.state().doc().unwrap().title(), "blank.pdf, page 2 of 3");
    assert!(h.state().error.is_none());
    assert!(!h.state_mut().go_to_page(4), "no page 4");
    assert!(!h.state_mut().go_to_page(0));
}

#[test]
fn a_layout_switch_that_finds_no_grid_keeps_the_puzzle_and_switching_back_works() {
    let mut h = harness();
    h.run();
    h.get_by_label("Photo sample").click();
    settle(&mut h);
    let read = read_sample("classic-photo-page.txt");
    let blank = read.values().iter().position(|&v| v == 0).unwrap();
    assert!(h.state_mut().set_cell(blank, 3));
    settle(&mut h);
    let before = h.state().doc().unwrap().clone();

    // No samurai in this photo: the reader says so, the edit stays.
    h.state_mut().switch_layout("samurai");
    settle(&mut h);
    h.get_by_label_contains("no samurai grid found in classic-photo-page.jpg");
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.layout().name(), "classic");
    assert_eq!(doc.values(), before.values());
    assert_eq!(doc.revision, before.revision, "the document is as it was");
    assert!(doc.can_undo());

    // A smaller shape read over this grid: its digits past 6 are no givens
    // of a 6x6 (read as empty and unsure), never a failure.
    h.state_mut().switch_layout("6x6");
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    let read_as_6x6 = doc.layout().name() == "6x6";
    assert!(doc.values().iter().all(|&v| v <= 6) || !read_as_6x6);
    if read_as_6x6 {
        h.state_mut().undo();
    }
    assert_eq!(h.state().doc().unwrap().values(), before.values());

    // Corners placed by hand are read as samurai; back to classic, the
    // grid is found again and read as before.
    let corners = before.current.located.corners;
    let nudged = corners.map(|[x, y]| [x + 1.0, y + 1.0]);
    h.state_mut().move_corners(nudged);
    settle(&mut h);
    h.state_mut().switch_layout("samurai");
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.layout().name(), "samurai");
    assert!(h.state().error.is_none());
    h.state_mut().switch_layout("classic");
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.layout().name(), "classic");
    assert_eq!(doc.values(), read.values(), "the grid read afresh");
    // Each switch is one undo step: two back is the samurai, three the
    // classic with the edit.
    h.state_mut().undo();
    assert_eq!(h.state().doc().unwrap().layout().name(), "samurai");
    h.state_mut().undo();
    h.state_mut().undo();
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.layout().name(), "classic");
    assert_eq!(
        doc.values()[blank],
        3,
        "the edit is still there to go back to"
    );
}

#[test]
fn every_shape_offered_is_read_when_switched_to() {
    use sudoku_lens::grid::Layout;
    use sudoku_lens::overlay::{Options, render_grid};
    use sudoku_lens::solve::SudokuSolver;
    use sudoku_lens::solve::generate::full_grid;

    // A twodoku drawn on a page.
    let layout = Arc::new(Layout::named("twodoku").unwrap());
    let full = full_grid(&mut SudokuSolver::new(layout.clone()), 3);
    let givens: Vec<u8> = full
        .iter()
        .enumerate()
        .map(|(i, &v)| if i % 3 == 0 { v } else { 0 })
        .collect();
    let puzzle = Puzzle::empty(layout).with_values(givens.clone());
    let grid = render_grid(&puzzle, None, &Options::default()).unwrap();
    let mut page = image::RgbaImage::from_pixel(
        grid.width() + 200,
        grid.height() + 200,
        image::Rgba([255, 255, 255, 255]),
    );
    image::imageops::overlay(&mut page, &grid, 100, 100);
    let mut png = Vec::new();
    page.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let mut h = harness();
    open(
        &mut h,
        Input::Bytes {
            name: "twodoku.png".into(),
            bytes: png.into(),
        },
    );
    // Found as a twodoku without being named, every cell read.
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.layout().name(), "twodoku");
    assert_eq!(doc.values(), &givens[..], "every cell read");
    // The layout switch offers every shape: read as a classic (its first
    // grid's corners are not the picture's, so possibly not found), then
    // back as a twodoku, every cell read again.
    h.get_by_label("Layout:").click();
    h.run();
    h.get_by_label("Classic").click();
    settle(&mut h);
    h.get_by_label("Layout:").click();
    h.run();
    h.get_by_label("Twodoku").click();
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    assert_eq!(doc.layout().name(), "twodoku");
    assert_eq!(doc.values(), &givens[..], "every cell read");
}

#[test]
fn export_draws_the_hint_shown_whole_and_only_then() {
    let mut h = harness();
    open_sample(&mut h, "classic.txt");
    // A hint hides the solution: the picture without it.
    h.state_mut().prefs.show_solution = false;
    let plain = h.state().annotated_image().unwrap().unwrap();
    for level in 1..=2 {
        h.state_mut().hint();
        settle(&mut h);
        assert_eq!(h.state().hint_level(), level);
        assert!(
            h.state().annotated_image().unwrap().unwrap() == plain,
            "level {level} gives nothing away"
        );
    }
    h.state_mut().hint();
    settle(&mut h);
    let step = h.state().hint_step().cloned().expect("a step");
    let drawn = h.state().annotated_image().unwrap().unwrap();
    // The drawn grid: half a cell of margin, 64 pixels a cell.
    let changed_in = |cell: usize| {
        let (r, c) = (cell / 9, cell % 9);
        let mut n = 0;
        for y in 32 + r as u32 * 64..32 + (r as u32 + 1) * 64 {
            for x in 32 + c as u32 * 64..32 + (c as u32 + 1) * 64 {
                n += usize::from(drawn.get_pixel(x, y) != plain.get_pixel(x, y));
            }
        }
        n
    };
    let placed = step.placements[0].cell;
    assert!(changed_in(placed) > 200, "the placement is drawn");
    let untouched = (0..81)
        .find(|c| !step.cells.contains(c) && *c != placed)
        .unwrap();
    assert_eq!(changed_in(untouched), 0);

    let out = std::env::temp_dir().join(format!("sudoku-lens-hint-{}.png", std::process::id()));
    h.state_mut().export_to(out.clone());
    settle(&mut h);
    let written = image::open(&out).expect("export wrote a PNG").to_rgba8();
    std::fs::remove_file(&out).ok();
    assert!(written == drawn, "export writes what the window shows");
}

/// The player's digits of the entries sample: (cell, digit), and the
/// solution's digit there.
fn sample_entries() -> (Puzzle, Vec<(usize, u8)>) {
    let text = std::fs::read_to_string(root().join("samples/puzzles/entries/classic.txt")).unwrap();
    let progress = sudoku_lens::grid::parse_progress(&text, "classic.txt", None).unwrap();
    let entries = progress.entries().iter().collect();
    (progress.puzzle().clone(), entries)
}

#[test]
fn entries_are_checked_marked_red_and_undone() {
    use sudoku_lens::app::doc::Writing;
    let mut h = harness();
    open_sample(&mut h, "entries/classic.txt");
    // A puzzle being solved opens writing the player's digits, without
    // the solution.
    assert_eq!(h.state().writing(), Some(Writing::Entries));
    assert!(!h.state().prefs.show_solution);
    h.get_by_label("2 mistakes, 30 to go");
    assert_eq!(cells_labelled(&h, "(your digit, wrong)"), 2);
    let (puzzle, entries) = sample_entries();
    assert_eq!(cells_labelled(&h, "(your digit"), entries.len());
    let wrong = h.state().wrong_cells();
    assert_eq!(wrong.len(), 2);

    // The export marks the wrong cells in red, and only those.
    let image = h.state().annotated_image().unwrap().unwrap();
    let doc = h.state().doc().unwrap();
    let redness = |cell: usize| {
        let q = doc.current.located.cell_quad(cell);
        // A quarter into the cell from its top-left: clear of the digit.
        let x = q[0][0] + (q[2][0] - q[0][0]) * 0.2;
        let y = q[0][1] + (q[2][1] - q[0][1]) * 0.2;
        let p = image.get_pixel(x as u32, y as u32).0;
        p[0] as i32 - p[1] as i32
    };
    for &(cell, _) in &entries {
        let red = redness(cell);
        if wrong.contains(&cell) {
            assert!(
                red > 40,
                "wrong r{}c{} not red: {red}",
                cell / 9 + 1,
                cell % 9 + 1
            );
        } else {
            assert!(
                red < 10,
                "right r{}c{} marked: {red}",
                cell / 9 + 1,
                cell % 9 + 1
            );
        }
    }

    // Writing the right digit over a wrong one: one mistake left; undo
    // brings it back.
    let solution = sudoku_lens::solve::solve(&puzzle, 2, 1).unwrap().solutions[0].clone();
    let fix = wrong[0];
    h.state_mut().select(Some(fix));
    h.event(egui::Event::Text(solution[fix].to_string()));
    settle(&mut h);
    h.get_by_label("1 mistake, 30 to go");
    assert_eq!(
        h.state().doc().unwrap().values(),
        puzzle.values(),
        "givens untouched"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    h.get_by_label("2 mistakes, 30 to go");

    // A given's cell takes no entry: a note says why, and nothing changes.
    let given = (0..81).find(|&c| puzzle.values()[c] != 0).unwrap();
    h.state_mut().select(Some(given));
    h.event(egui::Event::Text(
        (puzzle.values()[given] % 9 + 1).to_string(),
    ));
    settle(&mut h);
    h.get_by_label_contains("holds a given: switch to writing givens");
    assert_eq!(h.state().doc().unwrap().values(), puzzle.values());

    // Writing givens (Ctrl+E): a given typed over an entry replaces it.
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run();
    assert_eq!(h.state().writing(), Some(Writing::Givens));
    let (cell, digit) = entries[0];
    h.state_mut().select(Some(cell));
    h.event(egui::Event::Text(digit.to_string()));
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    assert_eq!((doc.values()[cell], doc.entries()[cell]), (digit, 0));

    // The puzzle copied as text keeps the entries apart from the givens.
    let copied = h.state().puzzle_text().unwrap();
    let back = sudoku_lens::grid::parse_progress(&copied, "copied", None).unwrap();
    assert_eq!(back.entries().count(), entries.len() - 1);
    assert_eq!(back.puzzle().values()[cell], digit);
}

#[test]
fn a_newly_opened_puzzle_shows_no_solution_until_asked() {
    // "Show solution" left ticked from an earlier puzzle.
    let mut h = harness();
    assert!(h.state().prefs.show_solution);
    h.run();
    h.get_by_label("Classic sample").click();
    settle(&mut h);
    let puzzle = sample("classic.txt");
    let solution = sample("classic.solution.txt");
    let blank = puzzle.values().iter().position(|&v| v == 0).unwrap();
    let name = puzzle.layout().cell_name(blank);
    h.get_by_label_contains("One solution");
    h.get_by_label(&format!("Cell {name}: empty"));
    assert!(h.state().shown_solution().is_none());
    assert!(!paints_solution(&h));

    // Asked for, it shows; the next puzzle opened hides it again.
    h.get_by_label("Solve").click();
    settle(&mut h);
    let solved = format!("Cell {name}: {} (solution)", solution.values()[blank]);
    h.get_by_label(&solved);
    open(
        &mut h,
        Input::Path(root().join("samples/images/classic-photo-page.jpg")),
    );
    h.get_by_label_contains("One solution");
    h.get_by_label(&format!("Cell {name}: empty"));
    assert!(h.state().shown_solution().is_none());
    assert!(!paints_solution(&h));

    // Opened with the solution asked for (the command line's --solve),
    // it shows.
    h.state_mut().open_solved(Input::Text {
        name: "classic.txt".into(),
        text: std::fs::read_to_string(root().join("samples/puzzles/classic.txt")).unwrap(),
    });
    settle(&mut h);
    h.get_by_label(&solved);
    assert!(paints_solution(&h));
}

#[test]
fn a_typed_path_opens_a_file_and_saves_an_export() {
    let mut h = harness();
    h.run();
    let text = std::fs::read_to_string(root().join("samples/puzzles/classic.txt")).unwrap();
    let typed = temp_file("typed.txt", text.as_bytes());
    h.get_by_label("File path").focus();
    h.run();
    h.get_by_label("File path")
        .type_text(&typed.display().to_string());
    h.run();
    h.get_by_label("Open path").click();
    settle(&mut h);
    let doc = h.state().doc().expect("the typed path opened");
    assert_eq!(doc.name, "typed.txt");
    assert_eq!(doc.values(), sample("classic.txt").values());

    // The same field names where an export goes.
    let out = typed.with_file_name("typed-export.png");
    std::fs::remove_file(&out).ok();
    h.get_by_label("File path").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("File path")
        .type_text(&out.display().to_string());
    h.run();
    h.get_by_label("Export to path").click();
    settle(&mut h);
    let written = image::open(&out).expect("the export is a PNG");
    assert_eq!(
        written.to_rgba8(),
        h.state().annotated_image().unwrap().unwrap()
    );
    std::fs::remove_file(&out).ok();
    h.get_by_label_contains("Saved");

    // A path that leads nowhere says so in the window.
    let missing = typed.with_file_name("no-such-file.jpg");
    h.get_by_label("File path").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("File path")
        .type_text(&missing.display().to_string());
    h.run();
    h.get_by_label("Open path").click();
    settle(&mut h);
    h.get_by_label_contains("no-such-file.jpg");
    assert!(h.state().error.is_some());
}

/// The rectangle of the one widget labelled `label`.
fn rect_of(h: &Window, label: &str) -> egui::Rect {
    h.get_by_label(label).rect()
}

#[test]
fn side_panel_controls_keep_their_place_when_messages_come_and_go() {
    let mut h = harness();
    open_sample(&mut h, "killer.txt");
    h.get_by_label_contains("Cell r1c1:").click();
    settle(&mut h);
    let controls = [
        "Solve",
        "Sum −1",
        "Sum +1",
        "Hint",
        "Clear cell",
        "Copy puzzle",
    ];
    let before: Vec<_> = controls.iter().map(|l| rect_of(&h, l)).collect();

    // A hint's words appear.
    h.get_by_label("Hint").click();
    settle(&mut h);
    assert!(h.state().current_hint().is_some());
    for (l, r) in controls.iter().zip(&before) {
        assert_eq!(
            rect_of(&h, l),
            *r,
            "{l} moved when the hint's words appeared"
        );
    }

    // An edit: the puzzle is marked edited, the solution count changes.
    h.get_by_label_contains("Write 5 in").click();
    settle(&mut h);
    assert!(h.state().doc().unwrap().is_edited());
    for (l, r) in controls.iter().zip(&before) {
        assert_eq!(rect_of(&h, l), *r, "{l} moved when the puzzle was edited");
    }
}

#[test]
fn every_control_can_be_reached_in_a_small_window() {
    let mut h = harness();
    h.set_size(egui::vec2(480.0, 360.0));
    open_sample(&mut h, "killer.txt");
    h.get_by_label_contains("Cell r1c1:").click();
    settle(&mut h);
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(480.0, 360.0));

    // The toolbar's controls lie side by side, none over another.
    let toolbar = [
        "Open…",
        "Samples",
        "Recent",
        "Undo",
        "Redo",
        "View",
        "Export PNG…",
        "Fit to the window",
        "Zoom out",
        "Zoom in",
    ];
    let mut rects: Vec<(String, egui::Rect)> = toolbar
        .iter()
        .map(|l| (l.to_string(), rect_of(&h, l)))
        .collect();
    let zoom = h
        .query_all_by(|n| {
            n.label()
                .or_else(|| n.value())
                .is_some_and(|l| l.ends_with('%'))
        })
        .map(|n| n.rect())
        .next()
        .expect("the zoom figure is shown");
    rects.push(("zoom".into(), zoom));
    for (i, (a, ra)) in rects.iter().enumerate() {
        assert!(
            window.contains_rect(*ra),
            "{a} lies outside the window: {ra:?}"
        );
        for (b, rb) in &rects[i + 1..] {
            assert!(!ra.intersects(*rb), "{a} {ra:?} overlaps {b} {rb:?}");
        }
    }

    // Every control of the side panel can be scrolled into the window.
    let side = [
        "Solve",
        "Show solution",
        "Typing writes givens",
        "Typing writes my digits",
        "Write 1 in r1c1",
        "Write 9 in r1c1",
        "Clear cell",
        "Hint",
        "Apply step",
        "Candidates",
        "Sum −1",
        "Sum +1",
        "Copy puzzle",
        "Copy solution",
        "Close",
    ];
    for l in side {
        let count = h.get_all_by_label(l).count();
        for i in 0..count {
            h.get_all_by_label(l).nth(i).unwrap().scroll_to_me();
            h.run();
            let r = h.get_all_by_label(l).nth(i).unwrap().rect();
            assert!(window.contains_rect(r), "{l} cannot be reached: {r:?}");
        }
    }

    // The status bar's key help is not cut off at the window's edge.
    let help = h.get_by_label_contains("Arrows move").rect();
    assert!(
        help.right() <= window.right(),
        "the key help is cut off: {help:?}"
    );
    assert!(
        help.bottom() <= window.bottom(),
        "the key help is cut off: {help:?}"
    );
}

#[test]
fn a_hint_applied_places_the_players_digit_not_a_given() {
    let mut h = harness();
    open_sample(&mut h, "classic.txt");
    h.get_by_label("One solution (26 givens)");
    h.event(egui::Event::Text("?".into()));
    settle(&mut h);
    let step = h.state().hint_step().expect("a step").clone();
    let placed = step
        .placements
        .first()
        .expect("the first step places a digit");
    h.event(egui::Event::Text("!".into()));
    settle(&mut h);
    let doc = h.state().doc().unwrap();
    assert_eq!(
        doc.values(),
        sample("classic.txt").values(),
        "no given added"
    );
    assert_eq!(doc.entries()[placed.cell], placed.digit);
    let name = doc.layout().cell_name(placed.cell);
    h.get_by_label(&format!("Cell {name}: {} (your digit)", placed.digit));
    // Counted as the player's progress, not as printed.
    assert!(h.query_by_label_contains("27 givens").is_none());
    h.get_by_label_contains("to go");
}

#[test]
fn every_bundled_kind_of_sample_is_in_the_samples_menu_and_named_as_it_is() {
    let mut h = harness();
    h.run();
    h.get_by_label("Samples").click();
    h.run();
    for label in [
        "Jigsaw photo",
        "Killer photo",
        "16x16 photo",
        "PDF sample",
        "Handwriting photo",
        "Jigsaw sample",
        "16x16 sample",
    ] {
        h.get_by_label(label);
    }
    h.get_by_label("PDF sample").click();
    settle(&mut h);
    let doc = h.state().doc().expect("the PDF sample opened");
    assert_eq!(
        doc.pages.as_ref().map(|p| p.number),
        Some(1),
        "a PDF, at its first page"
    );
    h.get_by_label_contains("One solution");

    h.state_mut().open_sample("Handwriting photo");
    settle(&mut h);
    assert!(!h.state().doc().unwrap().entries().iter().all(|&e| e == 0));

    h.state_mut().open_sample("16x16 sample");
    settle(&mut h);
    assert_eq!(h.state().doc().unwrap().layout().size(), 16);

    // The layout shown says what the puzzle is: a jigsaw, a killer.
    h.state_mut().open_sample("Jigsaw sample");
    settle(&mut h);
    h.get_by_label("Layout: Jigsaw");
    h.state_mut().open_sample("Killer sample");
    settle(&mut h);
    assert!(!h.state().doc().unwrap().current.puzzle.cages().is_empty());
    h.get_by_label("Layout: Killer");
}

#[test]
fn a_status_that_names_cells_leads_to_them() {
    let mut h = harness();
    open_sample(&mut h, "classic.txt");
    let puzzle = sample("classic.txt");
    let layout = puzzle.layout().clone();
    // An empty cell given the digit of a given in its row: a clash.
    let (cell, given) = (0..81)
        .filter(|&c| puzzle.values()[c] == 0)
        .find_map(|c| {
            let row = c / 9;
            (0..9)
                .map(|k| row * 9 + k)
                .find(|&g| puzzle.values()[g] != 0)
                .map(|g| (c, g))
        })
        .unwrap();
    assert!(h.state_mut().set_cell(cell, puzzle.values()[given]));
    settle(&mut h);
    h.get_by_label_contains("Conflict:");
    let other = layout.cell_name(given);
    h.get_by_label(&format!("Go to {other}")).click();
    h.run();
    assert_eq!(h.state().selected(), Some(given));
    h.get_by_label(&format!("Go to {}", layout.cell_name(cell)))
        .click();
    h.run();
    assert_eq!(h.state().selected(), Some(cell));
}

#[test]
fn corners_moved_by_hand_make_no_mistakes_of_the_players() {
    let mut h = harness();
    open(
        &mut h,
        Input::Path(root().join("samples/images/samurai-photo-page.jpg")),
    );
    let doc = h.state().doc().expect("the photo opened");
    assert!(doc.entries().iter().all(|&e| e == 0), "a printed page");
    let mut corners = doc.current.located.corners;
    corners[0][0] += 30.0;
    corners[0][1] += 30.0;
    h.state_mut().move_corners(corners);
    settle(&mut h);
    let status = h.state().status_line();
    assert!(!status.contains("mistake"), "{status}");
    assert!(
        h.state().doc().unwrap().entries().iter().all(|&e| e == 0),
        "nothing was typed as the player's: {status}"
    );
}

/// A text the last frame paints: what it says, where its ink lies, and
/// its font size.
struct Painted {
    text: String,
    rect: egui::Rect,
    font: f32,
}

/// Every text the last frame paints.
fn painted_texts(h: &Window) -> Vec<Painted> {
    fn texts(shape: &egui::Shape, out: &mut Vec<Painted>) {
        match shape {
            egui::Shape::Text(t) => out.push(Painted {
                text: t.galley.text().to_string(),
                rect: t.visual_bounding_rect(),
                font: t
                    .galley
                    .job
                    .sections
                    .first()
                    .map_or(0.0, |s| s.format.font_id.size),
            }),
            egui::Shape::Vec(v) => v.iter().for_each(|s| texts(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        texts(&clipped.shape, &mut out);
    }
    out
}

/// The screen box of the cell named `name`: its accessible widget is the
/// box less 0.15 of its side all round.
fn cell_box(h: &Window, name: &str) -> egui::Rect {
    let inner = h.get_by_label_contains(&format!("Cell {name}:")).rect();
    inner.expand(inner.width().min(inner.height()) * 0.15 / 0.7)
}

/// The part `fraction` (a box in cell fractions) of the cell box `cell`.
fn part_of(cell: egui::Rect, fraction: egui::Rect) -> egui::Rect {
    egui::Rect::from_min_max(
        cell.lerp_inside(fraction.min.to_vec2()),
        cell.lerp_inside(fraction.max.to_vec2()),
    )
}

#[test]
fn read_digits_are_shown_beside_the_printed_ones_at_every_cell_size() {
    use sudoku_lens::app::labels::{
        CHIP_MIN_FONT, Chip, PRINTED_DIGIT, PRINTED_SUM, chip_box, chip_style,
    };
    for side in (8..=400).map(|s| s as f32) {
        for asked in [false, true] {
            for low in [false, true] {
                let chip = chip_style(side, asked);
                let (b, font) = chip_box(chip, side, low);
                assert!(
                    !b.intersects(PRINTED_DIGIT),
                    "{chip:?} at {side} points covers the printed digit: {b:?}"
                );
                if let Some(font) = font {
                    assert!(font >= CHIP_MIN_FONT, "{chip:?} at {side}: font {font}");
                }
                if low {
                    assert!(
                        !b.intersects(PRINTED_SUM),
                        "{chip:?} at {side} covers a printed cage sum: {b:?}"
                    );
                }
                if chip != Chip::Beside {
                    assert!(
                        egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0))
                            .contains_rect(b),
                        "{chip:?} at {side} leaves its cell: {b:?}"
                    );
                }
            }
        }
    }
    // A samurai photo fitted into the first window has cells of about 31
    // points: a dot, and a chip beside the cell under the pointer.
    assert_eq!(chip_style(31.0, false), Chip::Dot);
    assert_eq!(chip_style(31.0, true), Chip::Beside);
    // A classic photo fitted: cells of about 65 points, chips in a corner.
    assert_eq!(chip_style(65.0, false), Chip::Corner);
    assert_eq!(chip_style(65.0, true), Chip::Corner);
}

#[test]
fn read_cage_sums_are_shown_beside_the_printed_ones() {
    use sudoku_lens::app::labels::{PRINTED_SUM, read_sum_box, read_sum_font};
    let cell = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
    for side in (8..=400).map(|s| s as f32) {
        let font = read_sum_font(side);
        // Two digits of the default font, about 0.6 of its size wide each,
        // on a line 1.25 of its size.
        let label = egui::vec2(2.0 * 0.62 * font, 1.25 * font);
        match read_sum_box(side, label, false) {
            Some(b) => {
                assert!(!b.intersects(PRINTED_SUM), "{side}: {b:?}");
                assert!(cell.contains_rect(b), "{side}: {b:?} leaves the cell");
            }
            None => assert!(side < 20.0, "no sum shown in a cell of {side} points"),
        }
        let b = read_sum_box(side, label, true).expect("a sum asked for is shown");
        assert!(!b.intersects(PRINTED_SUM), "{side}: {b:?}");
    }
}

#[test]
fn a_samurai_photo_at_fit_zoom_keeps_its_print_in_sight() {
    use sudoku_lens::app::labels::{CHIP_MIN_FONT, PRINTED_DIGIT};
    let mut h = harness();
    // The app's first window.
    h.set_size(egui::vec2(1100.0, 760.0));
    open(
        &mut h,
        Input::Path(root().join("samples/images/samurai-photo-page.jpg")),
    );
    let doc = h.state().doc().expect("the photo opened");
    let layout = doc.layout().clone();
    let read: Vec<(usize, u8)> = doc
        .values()
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v != 0)
        .map(|(c, &v)| (c, v))
        .collect();
    assert!(read.len() > 100, "{} digits read", read.len());
    let texts = painted_texts(&h);
    for &(cell, _) in &read {
        let name = layout.cell_name(cell);
        let print = part_of(cell_box(&h, &name), PRINTED_DIGIT);
        for t in &texts {
            assert!(
                !t.rect.intersects(print),
                "{:?} painted over the printed digit of {name}",
                t.text
            );
        }
    }
    // The cell under the pointer shows what was read in it, legibly and
    // beside its print.
    let (cell, v) = read[read.len() / 2];
    let name = layout.cell_name(cell);
    let cell_rect = cell_box(&h, &name);
    h.hover_at(cell_rect.center());
    h.run();
    let symbol = doc_symbol(&h, v);
    let near: Vec<Painted> = painted_texts(&h)
        .into_iter()
        .filter(|t| {
            t.text == symbol && t.rect.distance_to_pos(cell_rect.center()) < cell_rect.width()
        })
        .collect();
    assert_eq!(near.len(), 1, "the reading of {name} shown by it");
    assert!(near[0].font >= CHIP_MIN_FONT, "font {}", near[0].font);
    assert!(!near[0].rect.intersects(part_of(cell_rect, PRINTED_DIGIT)));
}

/// How the open document writes `v`.
fn doc_symbol(h: &Window, v: u8) -> String {
    let doc = h.state().doc().unwrap();
    doc.current.puzzle.alphabet().symbol(v).to_string()
}

/// The line pieces the last frame draws for the selected cell's cage.
fn selected_cage_pieces(h: &Window) -> Vec<[egui::Pos2; 2]> {
    fn pieces(shape: &egui::Shape, out: &mut Vec<[egui::Pos2; 2]>) {
        match shape {
            egui::Shape::LineSegment { points, stroke }
                if stroke.width == sudoku_lens::app::SELECTED_CAGE_WIDTH
                    && stroke.color == sudoku_lens::app::SELECT =>
            {
                out.push(*points)
            }
            egui::Shape::Vec(v) => v.iter().for_each(|s| pieces(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        pieces(&clipped.shape, &mut out);
    }
    out
}

#[test]
fn a_killer_photo_shows_read_sums_beside_the_printed_ones_and_the_selected_cage() {
    use sudoku_lens::app::labels::PRINTED_SUM;
    use sudoku_lens::overlay::cage_outline::sum_cell;
    let name = "killer-screen-dashed.png";
    let bytes = std::fs::read(root().join("samples/images").join(name)).unwrap();
    let mut h = harness();
    open(
        &mut h,
        Input::Bytes {
            name: name.into(),
            bytes: bytes.into(),
        },
    );
    let doc = h.state().doc().expect("the screenshot opened");
    let layout = doc.layout().clone();
    let cages = doc.current.puzzle.cages().to_vec();
    assert_eq!(
        cages.len(),
        read_sample("killer-screen-dashed.txt").cages().len()
    );
    let texts = painted_texts(&h);
    for cage in &cages {
        let at = layout.cell_name(sum_cell(&layout, cage).unwrap());
        let cell = cell_box(&h, &at);
        let sum = cage.sum.to_string();
        let shown: Vec<&Painted> = texts
            .iter()
            .filter(|t| t.text == sum && t.rect.intersects(cell))
            .collect();
        assert_eq!(shown.len(), 1, "the sum read for {at}, {sum}, is shown");
        assert!(
            !shown[0].rect.intersects(part_of(cell, PRINTED_SUM)),
            "the sum read for {at} covers the printed one"
        );
    }

    // No cage stands out until a cell is selected; then its cage does.
    assert!(selected_cage_pieces(&h).is_empty());
    h.get_by_label_contains("Cell r1c1:").click();
    h.run();
    let cage = cages.iter().find(|k| k.cells.contains(&0)).unwrap();
    let boxes: Vec<egui::Rect> = cage
        .cells
        .iter()
        .map(|&c| cell_box(&h, &layout.cell_name(c as usize)).expand(1.0))
        .collect();
    let pieces = selected_cage_pieces(&h);
    assert!(!pieces.is_empty(), "the selected cell's cage stands out");
    for p in pieces.iter().flatten() {
        assert!(
            boxes.iter().any(|b| b.contains(*p)),
            "{p:?} of the outline lies outside the selected cage"
        );
    }
    for b in &boxes {
        assert!(
            pieces.iter().flatten().any(|p| b.contains(*p)),
            "the outline passes through every cell of the cage"
        );
    }
    // It gives way to the printed sum (and may end at its edge).
    let print = part_of(cell_box(&h, "r1c1"), PRINTED_SUM).shrink(1.0);
    for [a, b] in &pieces {
        for p in [*a, *b, a.lerp(*b, 0.5)] {
            assert!(
                !print.contains(p),
                "the outline at {p:?} covers the printed sum"
            );
        }
    }
    // Nothing selected: no cage stands out.
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(selected_cage_pieces(&h).is_empty());
}

/// Every interactive widget the window shows (one that can be clicked or
/// focused), with its role and accessible label; `None` for no label.
fn interactive_widgets(h: &Window) -> Vec<(egui::Role, Option<String>)> {
    use egui::accesskit::Action;
    h.root()
        .children_recursive()
        .filter(|n| {
            let data = n.accesskit_node().data();
            data.supports_action(Action::Click) || data.supports_action(Action::Focus)
        })
        .map(|n| {
            let node = n.accesskit_node();
            // A text label's words are its value.
            let said = match node.role() {
                egui::Role::Label => node.value(),
                _ => node.label(),
            };
            (node.role(), said)
        })
        .collect()
}

/// Widgets whose label a screen reader could not make sense of: none, or
/// no word in it (a bare sign or number: "+", "5", "100%").
fn unlabelled(h: &Window, state: &str) -> Vec<String> {
    interactive_widgets(h)
        .into_iter()
        .filter(|(_, l)| {
            l.as_deref()
                .is_none_or(|l| !l.chars().any(char::is_alphabetic))
        })
        .map(|(role, l)| format!("{state}: {role:?} {l:?}"))
        .collect()
}

#[test]
fn every_control_has_a_label_a_screen_reader_says() {
    let mut h = harness();
    h.run();
    let mut missing = unlabelled(&h, "start screen");
    // A killer photo: cells, corners, the zoom, the layout, the cage
    // editor, the digit pad.
    let path = root().join("samples/images/killer-photo-page.jpg");
    open(&mut h, Input::Path(path));
    h.get_by_label_contains("Cell r1c1:").click();
    h.run();
    missing.extend(unlabelled(&h, "a killer photo, r1c1 selected"));
    // A hint shown whole, with the candidates.
    open_sample(&mut h, "classic.txt");
    for _ in 0..3 {
        h.event(egui::Event::Text("?".into()));
        settle(&mut h);
    }
    h.event(egui::Event::Text("#".into()));
    settle(&mut h);
    missing.extend(unlabelled(&h, "a hint shown whole"));
    // The menus.
    for menu in ["Samples", "Rules", "View"] {
        h.get_by_label(menu).click();
        h.run();
        missing.extend(unlabelled(&h, &format!("the {menu} menu open")));
        h.key_press(Key::Escape);
        h.run();
    }
    assert!(missing.is_empty(), "{missing:#?}");
    // The ones a sign alone named before say what they do.
    for name in ["Zoom in", "Zoom out", "Fit to the window"] {
        h.get_by_label(name);
    }
    h.get_by_label_contains("Write 5");
    let figure = h.query_all_by(|n| {
        n.value()
            .is_some_and(|v| v.starts_with("Zoom ") && v.ends_with('%'))
    });
    assert_eq!(figure.count(), 1, "the zoom figure says it is the zoom");
}

/// The label of the widget the keyboard's focus is on.
fn focused_label(h: &Window) -> Option<String> {
    h.root()
        .children_recursive()
        .find(|n| n.accesskit_node().is_focused())
        .map(|n| n.accesskit_node().label().unwrap_or_default())
}

/// Presses Tab until the focus is on a widget whose label starts with
/// `label`; the labels passed on the way. Fails after `most` presses.
fn tab_to(h: &mut Window, label: &str, most: usize) -> Vec<String> {
    let mut seen = Vec::new();
    for _ in 0..most {
        h.key_press(Key::Tab);
        h.run();
        let now = focused_label(h).unwrap_or_default();
        seen.push(now.clone());
        if now.starts_with(label) {
            return seen;
        }
    }
    panic!("Tab never reached {label:?}; it went through {seen:#?}");
}

#[test]
fn the_grid_and_every_control_work_from_the_keyboard() {
    let mut h = harness();
    open_sample(&mut h, "classic.txt");
    h.state_mut().prefs.show_solution = false;
    h.run();
    // Tab reaches the grid as one stop: the first cell takes the focus and
    // is selected.
    let passed = tab_to(&mut h, "Cell ", 60);
    assert_eq!(h.state().selected(), Some(0));
    // Every kind of control is on the way or after it.
    let cycle = tab_to(&mut h, "Cell ", 80);
    let cells = cycle.iter().filter(|s| s.starts_with("Cell ")).count();
    assert_eq!(cells, 1, "the grid is one stop, not 81: {cycle:#?}");
    let mut stops = passed;
    stops.extend(cycle);
    for control in [
        "Open…",
        "Samples",
        "View",
        "Export PNG…",
        "Zoom in",
        "Open path",
        "Solve",
        "Show solution",
        "Write 5 in r1c1",
        "Hint",
        "Candidates",
        "Copy puzzle",
        "Close",
    ] {
        assert!(
            stops.iter().any(|s| s == control),
            "{control} is no Tab stop: {stops:#?}"
        );
    }

    // On the grid, the arrows move the selection and the focus with it,
    // and digits are written.
    h.key_press(Key::ArrowRight);
    h.run();
    h.key_press(Key::ArrowDown);
    h.run();
    assert_eq!(h.state().selected(), Some(10));
    assert!(focused_label(&h).unwrap().starts_with("Cell r2c2:"));
    let blank = write_in_first_blank(&mut h, 4);
    assert!(focused_label(&h).unwrap().contains(": 4, given"));

    // A focused button takes the keys itself: a digit typed there writes
    // nothing; Escape gives the keys back to the grid.
    tab_to(&mut h, "Hint", 40);
    h.key_press(Key::Enter);
    settle(&mut h);
    assert_eq!(h.state().hint_level(), 1, "Enter pressed the focused Hint");
    h.event(egui::Event::Text("7".into()));
    settle(&mut h);
    assert_eq!(h.state().doc().unwrap().values()[blank], 4);
    h.key_press(Key::Escape);
    h.run();
    h.event(egui::Event::Text("?".into()));
    settle(&mut h);
    assert_eq!(h.state().hint_level(), 2, "? is the grid's key again");
}

#[test]
fn a_photo_s_layout_and_corners_are_reached_from_the_keyboard() {
    let mut h = harness();
    let path = root().join("samples/images/classic-photo-page.jpg");
    open(&mut h, Input::Path(path));
    // The layout choice is a Tab stop; the arrows then pick a shape.
    tab_to(&mut h, "Layout:", 60);
    // A corner handle: the arrows move it, and the grid is read again.
    let before = h.state().doc().unwrap().current.located.corners;
    tab_to(&mut h, "Grid corner top-left", 120);
    h.key_press(Key::ArrowRight);
    settle(&mut h);
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowDown);
    settle(&mut h);
    let after = h.state().doc().unwrap().current.located.corners;
    assert!(after[0][0] > before[0][0], "{before:?} -> {after:?}");
    assert!(after[0][1] > before[0][1] + 5.0, "{before:?} -> {after:?}");
    assert_eq!(after[2], before[2], "the other corners stay");
    assert!(h.state().doc().unwrap().can_undo());
}

/// Every straight line the last frame paints: its ends and stroke.
fn painted_segments(h: &Window) -> Vec<([egui::Pos2; 2], egui::Stroke)> {
    fn walk(shape: &egui::Shape, out: &mut Vec<([egui::Pos2; 2], egui::Stroke)>) {
        match shape {
            egui::Shape::LineSegment { points, stroke } => out.push((*points, *stroke)),
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        walk(&clipped.shape, &mut out);
    }
    out
}

/// Every outlined box the last frame paints, with its stroke.
fn painted_boxes(h: &Window) -> Vec<(egui::Rect, egui::Stroke)> {
    fn walk(shape: &egui::Shape, out: &mut Vec<(egui::Rect, egui::Stroke)>) {
        match shape {
            egui::Shape::Rect(r) if r.stroke.width > 0.0 => out.push((r.rect, r.stroke)),
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        walk(&clipped.shape, &mut out);
    }
    out
}

/// Lines in `colour` that cross the middle of `cell` (a screen box),
/// at least `share` of its side long.
fn strokes_across(h: &Window, cell: egui::Rect, colour: egui::Color32, share: f32) -> usize {
    let middle = egui::Rect::from_center_size(cell.center(), cell.size() * 0.3);
    painted_segments(h)
        .iter()
        .filter(|([a, b], s)| {
            s.color == colour
                && middle.contains(egui::pos2((a.x + b.x) / 2.0, (a.y + b.y) / 2.0))
                && (*b - *a).length() >= cell.width() * share
        })
        .count()
}

#[test]
fn wrong_digits_and_a_hint_s_marks_differ_by_shape_as_well_as_colour() {
    use sudoku_lens::app::palette::NORMAL;
    let mut h = harness();
    open_sample(&mut h, "entries/classic.txt");
    let layout = h.state().doc().unwrap().layout().clone();
    let wrong = h.state().wrong_cells();
    assert_eq!(wrong.len(), 2);
    // A wrong digit is struck through; a right one is not.
    for &c in &wrong {
        let b = cell_box(&h, &layout.cell_name(c));
        assert_eq!(strokes_across(&h, b, NORMAL.wrong, 0.5), 1, "{c}");
    }
    let (_, entries) = sample_entries();
    let right = entries
        .iter()
        .map(|&(c, _)| c)
        .find(|c| !wrong.contains(c))
        .unwrap();
    let b = cell_box(&h, &layout.cell_name(right));
    assert_eq!(strokes_across(&h, b, NORMAL.wrong, 0.5), 0);

    // A hint's step: its placement boxed, its eliminations crossed.
    open_sample(&mut h, "classic.txt");
    h.state_mut().prefs.show_candidates = true;
    for _ in 0..3 {
        h.event(egui::Event::Text("?".into()));
        settle(&mut h);
    }
    let step = h.state().hint_step().unwrap().clone();
    let placed = step.placements[0].cell;
    let b = cell_box(&h, &layout.cell_name(placed));
    let boxed = painted_boxes(&h)
        .into_iter()
        .filter(|(r, s)| s.color == NORMAL.hint_place && b.contains(r.center()))
        .count();
    assert_eq!(boxed, 1, "the placement in {placed} is boxed");
    // A step that strikes candidates (its first steps are singles, then a
    // pointing): each elimination crossed with two strokes.
    open(
        &mut h,
        Input::Text {
            name: "pointing.txt".into(),
            text: "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....\n"
                .into(),
        },
    );
    let step = loop {
        h.event(egui::Event::Text("?".into()));
        settle(&mut h);
        let step = h.state().hint_step().expect("a step").clone();
        if !step.eliminations.is_empty() {
            break step;
        }
        assert!(h.state_mut().apply_hint());
        settle(&mut h);
    };
    while h.state().hint_level() < 3 {
        h.event(egui::Event::Text("?".into()));
        settle(&mut h);
    }
    let crosses = painted_segments(&h)
        .into_iter()
        .filter(|(_, s)| s.color == NORMAL.hint_strike)
        .count();
    assert_eq!(
        crosses,
        2 * step.eliminations.len(),
        "each elimination crossed with two strokes"
    );
}

#[test]
fn high_contrast_is_a_view_choice_kept_between_runs() {
    use sudoku_lens::app::palette::HIGH_CONTRAST;
    let mut h = harness();
    let path = root().join("samples/images/classic-photo-page.jpg");
    open(&mut h, Input::Path(path));
    let thick = |h: &Window| {
        painted_segments(h)
            .iter()
            .filter(|(_, s)| s.width == HIGH_CONTRAST.thick && s.color == HIGH_CONTRAST.grid)
            .count()
    };
    assert_eq!(thick(&h), 0);
    assert!(!h.state().prefs.high_contrast);
    toggle_high_contrast(&mut h);
    assert!(h.state().prefs.high_contrast);
    // The grid's box lines drawn black and thick; the widgets black on
    // white.
    assert!(thick(&h) >= 20, "{}", thick(&h));
    assert_eq!(
        h.ctx.global_style().visuals.override_text_color,
        Some(egui::Color32::BLACK)
    );
    // Kept as the other preferences are, and off for preferences saved
    // before the choice existed.
    let saved = serde_json::to_string(&h.state().prefs).unwrap();
    let back: Prefs = serde_json::from_str(&saved).unwrap();
    assert!(back.high_contrast);
    let older: Prefs = serde_json::from_str(r#"{"show_solution": false}"#).unwrap();
    assert!(!older.high_contrast);
    // And back.
    toggle_high_contrast(&mut h);
    assert_eq!(thick(&h), 0);
    assert_eq!(h.ctx.global_style().visuals.override_text_color, None);
}

#[test]
fn a_hand_solved_photo_marks_unsure_only_what_was_not_read_for_sure() {
    let mut h = harness();
    let path = root().join("samples/images/classic-photo-entries.jpg");
    open(&mut h, Input::Path(path));
    let doc = h.state().doc().unwrap();
    let entries: Vec<usize> = (0..81).filter(|&c| doc.entries()[c] != 0).collect();
    assert!(entries.len() >= 10, "the handwriting is read: {entries:?}");
    let unsure_entries: Vec<usize> = entries
        .iter()
        .copied()
        .filter(|c| doc.current.uncertain.contains(c))
        .collect();
    assert!(
        unsure_entries.is_empty(),
        "entries read for sure are no unsure readings: {unsure_entries:?}"
    );
    let layout = doc.layout().clone();
    for &c in &entries {
        let name = layout.cell_name(c);
        let prefix = format!("Cell {name}:");
        let label = h.get_by_label_contains(&prefix);
        let label = label.accesskit_node().label().unwrap();
        assert!(!label.contains("unsure"), "{label}");
    }
    // What the reader was unsure of is still named so.
    let unsure = h.state().doc().unwrap().current.uncertain.clone();
    assert!(!unsure.is_empty());
    assert_eq!(cells_labelled(&h, "read unsure"), unsure.len());
}

/// The variant sample `name` (under samples/puzzles/variants) with its
/// `rules:` section taken out: its givens alone, as text.
fn without_rules(name: &str) -> String {
    let path = root().join("samples/puzzles/variants").join(name);
    let text = std::fs::read_to_string(path).unwrap();
    let givens = text.split("rules:").next().unwrap().trim_end();
    format!("{givens}\n")
}

/// Whether the Rules menu's item `label` is ticked, and whether it can be
/// used, as a screen reader hears it (the menu open).
fn rules_item(h: &Window, label: &str) -> (bool, bool) {
    let node = h.get_by_label(label);
    let node = node.accesskit_node();
    let ticked = node.toggled() == Some(egui::accesskit::Toggled::True);
    (ticked, !node.is_disabled())
}

/// Opens the Rules menu and clicks its item `label`, then closes the menu
/// and waits for the new count.
fn click_rules_item(h: &mut Window, label: &str) {
    open_rules_menu(h);
    h.get_by_label(label).click();
    settle(h);
    h.key_press(Key::Escape);
    h.run();
}

/// Opens the Rules menu.
fn open_rules_menu(h: &mut Window) {
    h.get_by_label("Rules").click();
    h.run();
}

/// Selects the first empty cell of the open puzzle and types `digit`
/// there (as the keyboard does); returns the cell, checked written.
fn write_in_first_blank(h: &mut Window, digit: u8) -> usize {
    let blank = (0..81)
        .find(|&c| h.state().doc().unwrap().values()[c] == 0)
        .unwrap();
    h.state_mut().select(Some(blank));
    h.run();
    h.event(egui::Event::Text(digit.to_string()));
    settle(h);
    assert_eq!(h.state().doc().unwrap().values()[blank], digit);
    blank
}

/// Ticks or unticks View > High contrast, waits for the pictures drawn
/// again in the new look, and closes the menu.
fn toggle_high_contrast(h: &mut Window) {
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("High contrast").click();
    settle(h);
    h.key_press(Key::Escape);
    h.run();
}

/// The open puzzle's rules.
fn doc_rules(h: &Window) -> Vec<sudoku_lens::grid::Rule> {
    h.state().doc().unwrap().current.puzzle.rules().to_vec()
}

/// Candidates left over all cells: fewer once rules are added.
fn candidate_count(h: &mut Window) -> u32 {
    h.state_mut()
        .marks()
        .unwrap()
        .iter()
        .map(|m| m.count_ones())
        .sum()
}

/// Adds a rule set from the Rules menu to a puzzle with several solutions
/// without it and one with it (a variant sample whose rules were taken
/// out); checks the tick, the count and the candidates, then undo and
/// redo. Returns the window, the rules in.
fn rules_from_the_menu_make_one_solution(sample: &str, label: &str, added: usize) -> Window {
    let mut h = harness();
    open(
        &mut h,
        Input::Text {
            name: sample.into(),
            text: without_rules(sample),
        },
    );
    assert!(doc_rules(&h).is_empty());
    h.get_by_label_contains("Several solutions");
    let before = candidate_count(&mut h);

    open_rules_menu(&mut h);
    assert_eq!(rules_item(&h, label), (false, true));
    h.key_press(Key::Escape);
    h.run();
    click_rules_item(&mut h, label);
    assert_eq!(doc_rules(&h).len(), added);
    h.get_by_label_contains("One solution");
    assert!(
        candidate_count(&mut h) < before,
        "the rules strike candidates"
    );
    open_rules_menu(&mut h);
    assert_eq!(rules_item(&h, label), (true, true));
    h.key_press(Key::Escape);
    h.run();

    // Undo takes the rules away and brings the count back; redo again.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert!(doc_rules(&h).is_empty());
    h.get_by_label_contains("Several solutions");
    assert_eq!(candidate_count(&mut h), before);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    settle(&mut h);
    assert_eq!(doc_rules(&h).len(), added);
    h.get_by_label_contains("One solution");
    h
}

#[test]
fn diagonals_from_the_rules_menu_are_an_edit_that_counts_and_undoes() {
    use sudoku_lens::grid::{Diagonal, Rule};
    let label = "Diagonals (X-sudoku)";
    let mut h = rules_from_the_menu_make_one_solution("diagonals.txt", label, 2);
    assert_eq!(
        doc_rules(&h),
        vec![
            Rule::Diagonal(Diagonal::Main),
            Rule::Diagonal(Diagonal::Anti)
        ]
    );
    // Unticked, the diagonals go again, as a step of their own.
    click_rules_item(&mut h, label);
    assert!(doc_rules(&h).is_empty());
    h.get_by_label_contains("Several solutions");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(doc_rules(&h).len(), 2);

    // On the classic sample two givens break them: the status says where.
    open_sample(&mut h, "classic.txt");
    click_rules_item(&mut h, label);
    h.get_by_label_contains("Conflict: 6 appears twice in the anti-diagonal, at r1c9 and r7c3");
    // A puzzle whose file has them shows them ticked.
    open_sample(&mut h, "variants/diagonals.txt");
    open_rules_menu(&mut h);
    assert_eq!(rules_item(&h, label), (true, true));
    // Escape closes the menu, a puzzle open or not.
    h.key_press(Key::Escape);
    h.run();
    assert!(h.query_by_label(label).is_none(), "the menu is closed");
    // A samurai has no diagonal of its own: the item is there, greyed.
    open_sample(&mut h, "samurai.txt");
    open_rules_menu(&mut h);
    assert_eq!(rules_item(&h, label), (false, false));
    h.get_by_label(label).click();
    h.run();
    assert!(doc_rules(&h).is_empty() && !h.state().doc().unwrap().can_undo());
}

#[test]
fn rules_added_to_a_photo_show_on_it_before_the_solution_does() {
    let mut h = harness();
    open(
        &mut h,
        Input::Path(root().join("samples/images/classic-photo-page.jpg")),
    );
    assert!(h.state().shown_solution().is_none());
    let layers = |h: &Window| -> Vec<String> {
        painted_textures(h)
            .into_iter()
            .map(|(name, _)| name)
            .filter(|name| name.starts_with("rules-"))
            .collect()
    };
    assert!(layers(&h).is_empty(), "no rules, no layer");
    // The printed grid breaks the diagonals, but what was added shows at
    // once, over the photo, without the solution.
    let label = "Diagonals (X-sudoku)";
    click_rules_item(&mut h, label);
    assert_eq!(doc_rules(&h).len(), 2);
    assert!(h.state().shown_solution().is_none());
    assert_eq!(layers(&h).len(), 1, "the rules are drawn over the photo");
    // Typing in a cell keeps the layer as it is: the rules did not change.
    let before = layers(&h);
    write_in_first_blank(&mut h, 4);
    assert_eq!(layers(&h), before, "not drawn again for a digit");
    // Corners moved by hand move the rules with the grid.
    let corners = h.state().doc().unwrap().current.located.corners;
    h.state_mut()
        .move_corners(corners.map(|[x, y]| [x + 2.0, y + 2.0]));
    settle(&mut h);
    assert_eq!(doc_rules(&h).len(), 2, "a new reading keeps the rules");
    assert_eq!(layers(&h).len(), 1);
    assert_ne!(layers(&h), before, "drawn again where the grid now is");
    click_rules_item(&mut h, label);
    assert!(doc_rules(&h).is_empty());
    assert!(
        layers(&h).is_empty(),
        "taken out, the rules are no longer drawn"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(doc_rules(&h).len(), 2);
    assert_eq!(layers(&h).len(), 1, "undo brings them back into sight");
}

#[test]
fn windoku_from_the_rules_menu_is_an_edit_that_counts_and_undoes() {
    use sudoku_lens::grid::Rule;
    let label = "Windoku (four extra regions)";
    let mut h = rules_from_the_menu_make_one_solution("windoku.txt", label, 4);
    // The four windows, rows and columns 2-4 and 6-8.
    let layout = h.state().doc().unwrap().layout().clone();
    let names: Vec<Vec<String>> = doc_rules(&h)
        .iter()
        .map(|r| match r {
            Rule::Region(cells) => cells
                .iter()
                .map(|&c| layout.cell_name(c as usize))
                .collect(),
            other => panic!("{other:?} is no window"),
        })
        .collect();
    let corners: Vec<(&str, &str)> = names
        .iter()
        .map(|w| (w[0].as_str(), w[8].as_str()))
        .collect();
    assert_eq!(
        corners,
        [
            ("r2c2", "r4c4"),
            ("r2c6", "r4c8"),
            ("r6c2", "r8c4"),
            ("r6c6", "r8c8")
        ]
    );

    // The classic sample's solution breaks them: no solution with them.
    open_sample(&mut h, "classic.txt");
    click_rules_item(&mut h, label);
    h.get_by_label_contains("No solution");
    // From the file, ticked; unticked, they go.
    open_sample(&mut h, "variants/windoku.txt");
    open_rules_menu(&mut h);
    assert_eq!(rules_item(&h, label), (true, true));
    h.key_press(Key::Escape);
    h.run();
    click_rules_item(&mut h, label);
    assert!(doc_rules(&h).is_empty());
    h.get_by_label_contains("Several solutions");
    // Windoku fits a 9x9 only; the diagonals fit any square grid.
    open_sample(&mut h, "16by16.txt");
    open_rules_menu(&mut h);
    assert_eq!(rules_item(&h, label), (false, false));
    assert_eq!(rules_item(&h, "Diagonals (X-sudoku)"), (false, true));
}

/// Pixels of `image` exactly `colour`.
fn pixels_of(image: &image::RgbaImage, colour: [u8; 3]) -> usize {
    image
        .pixels()
        .filter(|p| p.0 == [colour[0], colour[1], colour[2], 255])
        .count()
}

/// Exports the open document to a temporary PNG and reads it back.
fn exported(h: &mut Window, name: &str) -> image::RgbaImage {
    let out = std::env::temp_dir().join(format!("sudoku-lens-{name}-{}.png", std::process::id()));
    h.state_mut().export_to(out.clone());
    settle(h);
    let written = image::open(&out).expect("export wrote a PNG").to_rgba8();
    std::fs::remove_file(&out).ok();
    written
}

#[test]
fn high_contrast_draws_the_window_s_picture_and_the_export_in_its_inks() {
    // The overlay renderer's solved digits: its ordinary blue, and the
    // deeper blue of high contrast; a hint's placement, green and dark
    // green.
    const SOLVED: [u8; 3] = [20, 80, 215];
    const SOLVED_HC: [u8; 3] = [0, 40, 170];
    const PLACE: [u8; 3] = [22, 128, 61];
    const PLACE_HC: [u8; 3] = [0, 110, 0];
    let mut h = harness();
    open_sample(&mut h, "classic.txt");
    h.get_by_label("Solve").click();
    settle(&mut h);
    assert!(paints_solution(&h));
    let ordinary = exported(&mut h, "ordinary");
    assert!(pixels_of(&ordinary, SOLVED) > 500);
    assert_eq!(pixels_of(&ordinary, SOLVED_HC), 0);

    toggle_high_contrast(&mut h);
    // The window shows the picture drawn again in high contrast...
    let solved: Vec<String> = painted_textures(&h)
        .into_iter()
        .map(|(name, _)| name)
        .filter(|name| name.starts_with("solved-"))
        .collect();
    assert!(
        solved.len() == 1 && solved[0].ends_with("-hc"),
        "{solved:?}"
    );
    // ...and export writes it so.
    let strong = exported(&mut h, "high-contrast");
    assert_eq!(pixels_of(&strong, SOLVED), 0);
    assert!(pixels_of(&strong, SOLVED_HC) > 500);

    // A hint's whole step, exported in high contrast too.
    h.state_mut().prefs.show_solution = false;
    for _ in 0..3 {
        h.state_mut().hint();
        settle(&mut h);
    }
    assert!(h.state().shown_step().is_some());
    let step = exported(&mut h, "hint-high-contrast");
    assert_eq!(pixels_of(&step, PLACE), 0);
    assert!(pixels_of(&step, PLACE_HC) > 100);
}

/// Presses `key` until the keyboard's focus is on `label`; fails after
/// `most` presses.
fn arrow_to(h: &mut Window, key: Key, label: &str, most: usize) {
    let mut seen = Vec::new();
    for _ in 0..most {
        h.key_press(key);
        h.run();
        let now = focused_label(h).unwrap_or_default();
        if now == label {
            return;
        }
        seen.push(now);
    }
    panic!("{key:?} never reached {label:?}; it went through {seen:#?}");
}

#[test]
fn the_samples_and_recent_menus_are_picked_from_the_keyboard() {
    let mut h = harness();
    h.run();
    // Samples: Tab to it, Enter opens it, the arrows walk its entries and
    // Enter opens the one reached.
    tab_to(&mut h, "Samples", 30);
    h.key_press(Key::Enter);
    h.run();
    arrow_to(&mut h, Key::ArrowDown, "Killer sample", 30);
    h.key_press(Key::Enter);
    settle(&mut h);
    let doc = h.state().doc().expect("the sample opened");
    assert!(!doc.current.puzzle.cages().is_empty(), "{}", doc.name);
    let killer = doc.name.clone();
    // Another one, so that Recent holds the killer.
    tab_to(&mut h, "Samples", 30);
    h.key_press(Key::Enter);
    h.run();
    arrow_to(&mut h, Key::ArrowDown, "Classic sample", 30);
    h.key_press(Key::Enter);
    settle(&mut h);
    assert_ne!(h.state().doc().unwrap().name, killer);
    // Recent: the killer is brought back, by the keyboard alone.
    tab_to(&mut h, "Recent", 30);
    h.key_press(Key::Enter);
    h.run();
    arrow_to(&mut h, Key::ArrowDown, &killer, 10);
    h.key_press(Key::Enter);
    settle(&mut h);
    assert_eq!(h.state().doc().unwrap().name, killer);
}

#[test]
fn a_photo_s_layout_is_picked_from_the_keyboard() {
    let mut h = harness();
    let path = root().join("samples/images/classic-photo-page.jpg");
    open(&mut h, Input::Path(path));
    assert_eq!(h.state().doc().unwrap().layout().name(), "classic");
    // Tab to the choice, Enter opens it, the arrows walk the shapes and
    // Enter picks one: the photo is looked at again for it (there is no
    // samurai in it, and the window says so).
    tab_to(&mut h, "Layout:", 60);
    h.key_press(Key::Enter);
    h.run();
    arrow_to(&mut h, Key::ArrowDown, "Samurai", 10);
    h.key_press(Key::Enter);
    settle(&mut h);
    h.get_by_label_contains("no samurai grid found in classic-photo-page.jpg");
    assert_eq!(h.state().doc().unwrap().layout().name(), "classic");
    // The list is closed and the keys are the window's again.
    assert!(h.query_by_label("Butterfly").is_none());
}
