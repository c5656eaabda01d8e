//! The window's layout: the toolbar, the start screen, the side panel, the
//! status bar, the drop highlight, and keyboard shortcuts.

use std::sync::Arc;

use eframe::egui::{
    self, Align, Align2, Color32, FontId, Key, KeyboardShortcut, Layout, Modifiers, RichText,
    Stroke, Vec2,
};

use super::doc::Writing;
use super::doc::{RuleSet, Solutions};
use super::input::{Input, file_name};
use super::{SudokuApp, canvas, capitalise, palette};
use crate::grid::Alphabet;

const OPEN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
const EXPORT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
const REDO: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
const REDO_Y: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
const FIT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Num0);
/// Typing writes givens or the player's own digits.
const WRITING: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::E);

/// The whole window.
pub fn show(app: &mut SudokuApp, ui: &mut egui::Ui) {
    let ctx = ui.ctx().clone();
    if app.styled_contrast != Some(app.prefs.high_contrast) {
        palette::apply(&ctx, app.prefs.high_contrast);
        app.styled_contrast = Some(app.prefs.high_contrast);
    }
    take_drops_and_pastes(app, &ctx);
    shortcuts(app, &ctx);

    egui::Panel::top("toolbar").show(ui, |ui| toolbar(app, ui));
    egui::Panel::bottom("status").show(ui, |ui| status_bar(app, ui));
    if app.doc().is_some() {
        egui::Panel::right("side")
            .resizable(false)
            .exact_size(230.0)
            .show(ui, |ui| side_panel(app, ui));
    }
    egui::CentralPanel::default()
        .frame(egui::Frame::central_panel(ui.style()).inner_margin(0.0))
        .show(ui, |ui| {
            let rect = ui.max_rect();
            if app.doc().is_some() {
                canvas::show(app, ui, rect);
            } else {
                start_screen(app, ui);
            }
            if let Some(l) = &app.loading {
                let elapsed = app.now - l.since;
                let text = format!("Reading {}… {:.1} s", l.name, elapsed.max(0.0));
                egui::Area::new(egui::Id::unique("loading"))
                    .order(egui::Order::Foreground)
                    .anchor(Align2::CENTER_TOP, Vec2::new(0.0, rect.top() + 16.0))
                    .show(ui.ctx(), |ui| {
                        egui::Frame::popup(ui.style()).show(ui, |ui| {
                            ui.horizontal(|ui| {
                                ui.spinner();
                                ui.label(text);
                            });
                        });
                    });
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(100));
            }
        });
    drop_highlight(&ctx);
    quit_dialog(app, &ctx);
}

/// The question before quitting over unsaved edits.
fn quit_dialog(app: &mut SudokuApp, ctx: &egui::Context) {
    let Some(unsaved) = app.quit_question() else {
        return;
    };
    let unsaved = unsaved.join(", ");
    let modal = egui::Modal::new(egui::Id::unique("confirm-close")).show(ctx, |ui| {
        ui.set_max_width(360.0);
        ui.heading("Quit with unsaved edits?");
        ui.label(format!(
            "Edits to {unsaved} have not been exported. They are lost when the window closes."
        ));
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Quit anyway").clicked() {
                app.quit_anyway(ui.ctx());
            }
            if ui.button("Keep working").clicked() {
                app.keep_working();
            }
        });
    });
    if modal.should_close() {
        app.keep_working();
    }
}

/// Files dropped anywhere, and Ctrl+V of an image or text.
fn take_drops_and_pastes(app: &mut SudokuApp, ctx: &egui::Context) {
    let (dropped, pasted) = ctx.input(|i| {
        let dropped: Vec<_> = i
            .raw
            .dropped_files
            .iter()
            .map(|f| f.path().to_path_buf())
            .collect();
        let pasted: Vec<_> = i
            .events
            .iter()
            .filter_map(|e| match e {
                egui::Event::Paste(text) => Some(Input::Text {
                    name: "pasted text".into(),
                    text: text.clone(),
                }),
                egui::Event::PasteImage(img) => {
                    let [w, h] = img.size;
                    let bytes: Vec<u8> = img
                        .pixels
                        .iter()
                        .flat_map(|c| c.to_srgba_unmultiplied())
                        .collect();
                    image::RgbaImage::from_raw(w as u32, h as u32, bytes).map(|image| {
                        Input::Image {
                            name: "pasted image".into(),
                            image: Arc::new(image),
                        }
                    })
                }
                _ => None,
            })
            .collect();
        (dropped, pasted)
    });
    // Several files dropped at once: the last one is opened.
    if let Some(p) = dropped.into_iter().last() {
        app.open(Input::Path(p));
    }
    if let Some(input) = pasted.into_iter().last() {
        app.open(input);
    }
}

fn shortcuts(app: &mut SudokuApp, ctx: &egui::Context) {
    // Shortcuts with modifiers first: Ctrl+Shift+Z before Ctrl+Z.
    let (open, export, redo, undo, fit, writing) = ctx.input_mut(|i| {
        (
            i.consume_shortcut(&OPEN),
            i.consume_shortcut(&EXPORT),
            i.consume_shortcut(&REDO) || i.consume_shortcut(&REDO_Y),
            i.consume_shortcut(&UNDO),
            i.consume_shortcut(&FIT),
            i.consume_shortcut(&WRITING),
        )
    });
    if writing {
        app.toggle_writing();
    }
    if open {
        app.pick_open();
    }
    if export {
        app.pick_export();
    }
    if redo {
        app.redo();
    }
    if undo {
        app.undo();
    }
    if fit {
        app.view.request_fit();
    }
    // The puzzle's keys work while the keyboard's focus is on the grid or
    // nowhere; a focused button, field or menu takes them itself.
    let cells = app.doc().map_or(0, |d| d.layout().cell_count());
    if app.doc().is_none() || !canvas::keys_to_grid(ctx, cells) {
        return;
    }
    let size = app.doc().map(|d| d.layout().size()).unwrap_or(9);
    let alphabet = app.doc().map(|d| d.current.puzzle.alphabet());
    let keys = ctx.input_mut(|i| GridKeys::take(i, alphabet, size));
    keys.apply(app);
}

/// The puzzle's keys pressed this frame, taken from the input so that
/// nothing else acts on them.
#[derive(Default)]
struct GridKeys {
    /// Arrow moves of the selection, in order.
    moves: Vec<(isize, isize)>,
    /// Symbols typed, as values; the last one is written.
    typed: Vec<u8>,
    clear: bool,
    solve: bool,
    deselect: bool,
    zoom_in: bool,
    zoom_out: bool,
    toggle_solution: bool,
    hint: bool,
    apply_hint: bool,
    candidates: bool,
    page_up: bool,
    page_down: bool,
}

impl GridKeys {
    fn take(i: &mut egui::InputState, alphabet: Option<Alphabet>, size: usize) -> Self {
        let mut keys = GridKeys::default();
        for (key, d) in [
            (Key::ArrowUp, (-1, 0)),
            (Key::ArrowDown, (1, 0)),
            (Key::ArrowLeft, (0, -1)),
            (Key::ArrowRight, (0, 1)),
        ] {
            while i.consume_key(Modifiers::NONE, key) {
                keys.moves.push(d);
            }
        }
        for key in [Key::Delete, Key::Backspace] {
            keys.clear |= i.consume_key(Modifiers::NONE, key);
        }
        keys.solve = i.consume_key(Modifiers::NONE, Key::Enter);
        keys.page_up = i.consume_key(Modifiers::NONE, Key::PageUp);
        keys.page_down = i.consume_key(Modifiers::NONE, Key::PageDown);
        keys.deselect = i.consume_key(Modifiers::NONE, Key::Escape);
        // On a grid whose symbols run to H and beyond (a 25x25), H types
        // its symbol, and the solution is shown and hidden from the panel.
        if alphabet.is_none_or(|a| a.value('H', size).is_none()) {
            keys.toggle_solution = i.consume_key(Modifiers::NONE, Key::H);
        }
        for e in &i.events {
            if let egui::Event::Text(t) = e {
                for ch in t.chars() {
                    match ch {
                        '+' | '=' => keys.zoom_in = true,
                        '-' => keys.zoom_out = true,
                        '0' | '.' | ' ' => keys.clear = true,
                        '?' => keys.hint = true,
                        '!' => keys.apply_hint = true,
                        '#' => keys.candidates = true,
                        _ => {
                            if let Some(v) = alphabet.and_then(|a| a.value(ch, size)) {
                                keys.typed.push(v);
                            }
                        }
                    }
                }
            }
        }
        keys
    }

    fn apply(self, app: &mut SudokuApp) {
        for (dr, dc) in self.moves {
            app.move_selection(dr, dc);
        }
        if self.clear {
            app.set_selected(0);
        }
        if let Some(&v) = self.typed.last() {
            app.set_selected(v);
        }
        if self.solve {
            app.solve();
        }
        if self.toggle_solution {
            app.prefs.show_solution = !app.prefs.show_solution;
        }
        if self.hint {
            app.hint();
        }
        if self.apply_hint {
            app.apply_hint();
        }
        if self.candidates {
            app.toggle_candidates();
        }
        if self.deselect {
            app.select(None);
        }
        if self.page_up {
            app.previous_page();
        }
        if self.page_down {
            app.next_page();
        }
        if self.zoom_in {
            app.view.zoom_by(1.25);
        }
        if self.zoom_out {
            app.view.zoom_by(0.8);
        }
    }
}

/// Room the zoom controls need at the toolbar's right; with less, they
/// go on a row of their own.
const ZOOM_CONTROLS_WIDTH: f32 = 170.0;

fn toolbar(app: &mut SudokuApp, ui: &mut egui::Ui) {
    ui.add_space(4.0);
    let has_doc = app.doc().is_some();
    // Wrapped: in a narrow window no button lies over another.
    let row = ui.horizontal_wrapped(|ui| toolbar_row(app, ui, has_doc));
    // Else on a row of their own.
    if has_doc && !row.inner {
        let size = Vec2::new(ui.available_width(), ui.spacing().interact_size.y);
        ui.allocate_ui_with_layout(size, Layout::right_to_left(Align::Center), |ui| {
            zoom_controls(app, ui);
        });
    }
    path_row(app, ui);
    ui.add_space(2.0);
}

/// The toolbar's buttons and menus, left to right, and the zoom controls
/// at the right when they fit there: true when they did.
fn toolbar_row(app: &mut SudokuApp, ui: &mut egui::Ui, has_doc: bool) -> bool {
    if ui
        .button("Open…")
        .on_hover_text("Open a photo, screenshot or puzzle text (Ctrl+O)")
        .clicked()
    {
        app.pick_open();
    }
    ui.menu_button("Samples", |ui| samples_menu(app, ui));
    recent_menu(app, ui);
    ui.add_enabled_ui(has_doc, |ui| {
        ui.menu_button("Rules", |ui| rules_menu(app, ui));
    });
    ui.menu_button("View", |ui| {
        ui.checkbox(&mut app.prefs.high_contrast, "High contrast")
            .on_hover_text("Black, white and strong colours, thicker lines");
    });
    ui.separator();
    undo_redo_buttons(app, ui);
    ui.separator();
    if ui
        .add_enabled(has_doc, egui::Button::new("Export PNG…"))
        .on_hover_text("Save the puzzle with its solution drawn in (Ctrl+S)")
        .clicked()
    {
        app.pick_export();
    }
    // The zoom controls at the row's right when they fit there.
    // (A wrapping row's available width is a whole row's.)
    let fits = ui.max_rect().right() - ui.cursor().left() >= ZOOM_CONTROLS_WIDTH;
    if has_doc && fits {
        ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
            zoom_controls(app, ui);
        });
    }
    fits
}

/// The Samples menu: the bundled samples, by label.
fn samples_menu(app: &mut SudokuApp, ui: &mut egui::Ui) {
    for label in SudokuApp::sample_labels() {
        if ui.button(label).clicked() {
            app.open_sample(label);
            ui.close();
        }
    }
}

/// The Recent menu: this session's puzzles (edits kept), then files opened
/// lately; greyed out while there are none.
fn recent_menu(app: &mut SudokuApp, ui: &mut egui::Ui) {
    let recent = app.recent_names();
    let files = app.prefs.recent_files.clone();
    ui.add_enabled_ui(!recent.is_empty() || !files.is_empty(), |ui| {
        ui.menu_button("Recent", |ui| {
            for (i, name) in recent.iter().enumerate() {
                if ui
                    .button(name)
                    .on_hover_text("Back to this puzzle, edits kept")
                    .clicked()
                {
                    app.reopen_recent(i);
                    ui.close();
                }
            }
            if !recent.is_empty() && !files.is_empty() {
                ui.separator();
            }
            for p in files {
                if ui
                    .button(file_name(&p))
                    .on_hover_text(p.display().to_string())
                    .clicked()
                {
                    app.open(Input::Path(p));
                    ui.close();
                }
            }
        });
    });
}

/// Undo and Redo, each greyed out when there is nothing to take back or
/// do again.
fn undo_redo_buttons(app: &mut SudokuApp, ui: &mut egui::Ui) {
    let (can_undo, can_redo) = app
        .doc()
        .map(|d| (d.can_undo(), d.can_redo()))
        .unwrap_or((false, false));
    if ui
        .add_enabled(can_undo, egui::Button::new("Undo"))
        .on_hover_text("Ctrl+Z")
        .clicked()
    {
        app.undo();
    }
    if ui
        .add_enabled(can_redo, egui::Button::new("Redo"))
        .on_hover_text("Ctrl+Shift+Z or Ctrl+Y")
        .clicked()
    {
        app.redo();
    }
}

/// The Rules menu: variant rules a person adds to the reading, or takes
/// from it, each ticked while the puzzle has it (from its file too) and
/// greyed out where it does not fit the grid.
fn rules_menu(app: &mut SudokuApp, ui: &mut egui::Ui) {
    for set in RuleSet::ALL {
        let state = app.has_rules(set);
        let mut ticked = state.unwrap_or(false);
        let r = ui
            .add_enabled(
                state.is_some(),
                egui::Checkbox::new(&mut ticked, set.label()),
            )
            .on_hover_text(set.explain())
            .on_disabled_hover_text(set.fits_where());
        if r.clicked() {
            app.toggle_rules(set);
        }
    }
}

/// The zoom figure and its buttons, laid right to left.
fn zoom_controls(app: &mut SudokuApp, ui: &mut egui::Ui) {
    if named(ui.button("Fit"), "Fit to the window")
        .on_hover_text("Fit to the window (Ctrl+0)")
        .clicked()
    {
        app.view.request_fit();
    }
    if named(ui.button("−"), "Zoom out")
        .on_hover_text("Zoom out (-)")
        .clicked()
    {
        app.view.zoom_by(0.8);
    }
    if named(ui.button("+"), "Zoom in")
        .on_hover_text("Zoom in (+)")
        .clicked()
    {
        app.view.zoom_by(1.25);
    }
    let zoom = format!("{:.0}%", app.view.zoom() * 100.0);
    let figure = ui.label(&zoom);
    figure
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, format!("Zoom {zoom}")));
}

/// `r` with the name a screen reader says for it, where its text alone
/// (a sign, a number) says too little.
fn named(r: egui::Response, name: &str) -> egui::Response {
    let enabled = r.enabled();
    r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, name));
    r
}

/// One of a choice's options, `r`, with its whole name (the choice's and
/// its own) and whether it is the one chosen.
fn choice_named(r: egui::Response, name: &str, chosen: bool) -> egui::Response {
    let enabled = r.enabled();
    r.widget_info(|| egui::WidgetInfo::selected(egui::Role::RadioButton, enabled, chosen, name));
    r
}

/// A file's path typed in, to open or to export to: the way that works
/// where no file dialog can be shown, and for those who prefer typing.
fn path_row(app: &mut SudokuApp, ui: &mut egui::Ui) {
    let has_doc = app.doc().is_some();
    ui.horizontal(|ui| {
        let label = ui.label("File path");
        ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
            if ui
                .add_enabled(has_doc, egui::Button::new("Export to path"))
                .on_hover_text("Save the PNG export at the path typed (a folder: a name is chosen)")
                .clicked()
            {
                app.export_typed_path();
            }
            if ui
                .button("Open path")
                .on_hover_text("Open the file at the path typed (Enter in the field)")
                .clicked()
            {
                app.open_typed_path();
            }
            let field = ui
                .add(
                    egui::TextEdit::singleline(&mut app.path_field)
                        .desired_width(ui.available_width())
                        .hint_text("type a file's path"),
                )
                .labelled_by(label.id);
            if field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                app.open_typed_path();
            }
        });
    });
}

fn start_screen(app: &mut SudokuApp, ui: &mut egui::Ui) {
    let rect = ui.max_rect();
    let card =
        egui::Rect::from_center_size(rect.center(), Vec2::new(440.0, 360.0).min(rect.size()));
    ui.scope_builder(egui::UiBuilder::new().max_rect(card), |ui| {
        ui.vertical_centered(|ui| {
            ui.label(RichText::new("sudoku-lens").size(30.0).strong());
            ui.add_space(4.0);
            ui.label("Read a sudoku from a photo or screenshot, fix what was misread, solve it.");
            ui.add_space(18.0);
            if ui
                .add(
                    egui::Button::new(RichText::new("Open a file…").size(18.0))
                        .min_size(Vec2::new(160.0, 34.0)),
                )
                .on_hover_text("Ctrl+O")
                .clicked()
            {
                app.pick_open();
            }
            ui.add_space(10.0);
            ui.label("or drop a photo or screenshot here");
            ui.label("or paste one (Ctrl+V) — a screenshot or puzzle text");
            ui.add_space(18.0);
            ui.label(RichText::new("No puzzle at hand? Try a sample:").weak());
            // Photos on one row, puzzle texts on the next: each fits the
            // card. The others are in the Samples menu.
            let labels = SudokuApp::sample_labels();
            let (photos, texts) = labels.split_at(super::PHOTO_SAMPLES.len());
            let photos = &photos[..super::START_PHOTOS.min(photos.len())];
            let texts = &texts[..super::START_TEXTS.min(texts.len())];
            for row in [photos, texts] {
                ui.horizontal(|ui| {
                    let w: f32 = row.len() as f32 * 125.0;
                    ui.add_space(((ui.available_width() - w) / 2.0).max(0.0));
                    for &label in row {
                        if ui.button(label).clicked() {
                            app.open_sample(label);
                        }
                    }
                });
            }
            ui.label(
                RichText::new(
                    "More in the Samples menu: jigsaw, killer, 16x16, a PDF, handwriting",
                )
                .weak(),
            );
            if !app.recent_names().is_empty() {
                ui.add_space(12.0);
                if ui.link("Back to the last puzzle").clicked() {
                    app.reopen_recent(0);
                }
            }
        });
    });
}

/// The side panel, in a scroll area so that a small window reaches every
/// control. Controls come first, each line of them always there, so that
/// none moves under the pointer; what comes and goes (the status, why
/// there is no solution, a hint's words, the rating) is said below them.
fn side_panel(app: &mut SudokuApp, ui: &mut egui::Ui) {
    egui::ScrollArea::vertical()
        .auto_shrink(false)
        .show(ui, |ui| {
            side_controls(app, ui);
            cage_editor(app, ui);
            side_messages(app, ui);
            ui.add_space(8.0);
        });
}

fn side_controls(app: &mut SudokuApp, ui: &mut egui::Ui) {
    let Some(doc) = app.doc() else { return };
    let layout_name = doc.layout().name().to_string();
    // What the puzzle is: a killer's cages make it a killer.
    let kind = match doc.current.puzzle.cages().is_empty() {
        true => capitalise(&layout_name),
        false if layout_name == "classic" => "Killer".to_string(),
        false => format!("Killer {layout_name}"),
    };
    puzzle_heading(app, ui, &layout_name, &kind);
    ui.separator();
    solve_row(app, ui);
    ui.separator();
    writing_choice(app, ui);
    cell_editor(app, ui);
    hint_controls(app, ui);
    ui.separator();
    copy_and_close(app, ui);
}

/// The puzzle's name, whether it was edited, its PDF page, and its layout
/// (a choice on a photo, where the grid can be looked for again as
/// another shape).
fn puzzle_heading(app: &mut SudokuApp, ui: &mut egui::Ui, layout_name: &str, kind: &str) {
    let Some(doc) = app.doc() else { return };
    let name = doc.name.clone();
    let pages = doc.pages.as_ref().map(|p| (p.number, p.count));
    let is_photo = doc.is_photo();
    let edited = doc.is_edited();
    let path = doc
        .path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    ui.add_space(8.0);
    // One line each, whatever the name's length or the edits.
    ui.add(egui::Label::new(RichText::new(&name).strong().size(15.0)).truncate())
        .on_hover_text(path);
    ui.label(RichText::new(if edited { "edited" } else { "as opened" }).weak());
    if let Some((number, count)) = pages {
        page_picker(app, ui, number, count);
    }
    ui.add_space(6.0);
    if is_photo {
        ui.horizontal(|ui| {
            let label = ui.label("Layout:");
            egui::ComboBox::from_id_salt("layout")
                .selected_text(kind)
                // Every shape in view, none behind a scroll.
                .height(f32::INFINITY)
                .show_ui(ui, |ui| {
                    for l in super::layouts() {
                        if ui
                            .selectable_label(layout_name == l, capitalise(l))
                            .clicked()
                        {
                            app.switch_layout(l);
                            // Picked with Enter too: a key's click does
                            // not close the list by itself.
                            ui.close();
                        }
                    }
                })
                .response
                .labelled_by(label.id);
        });
        ui.checkbox(&mut app.prefs.show_readings, "Show digits as read");
    } else {
        ui.label(format!("Layout: {kind}"));
    }
}

/// Solve, and whether the solution is shown.
fn solve_row(app: &mut SudokuApp, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        if ui
            .add(egui::Button::new("Solve").min_size(Vec2::new(70.0, 26.0)))
            .on_hover_text("Show the solution (Enter)")
            .clicked()
        {
            app.solve();
        }
        ui.checkbox(&mut app.prefs.show_solution, "Show solution")
            .on_hover_text("H");
    });
}

/// What typing writes: a given, or the player's own digit.
fn writing_choice(app: &mut SudokuApp, ui: &mut egui::Ui) {
    let Some(writing) = app.doc().map(|d| d.writing) else {
        return;
    };
    ui.horizontal(|ui| {
        ui.label("Typing writes:");
        let mut choice = writing;
        let givens = choice_named(
            ui.selectable_value(&mut choice, Writing::Givens, "Givens"),
            "Typing writes givens",
            writing == Writing::Givens,
        )
        .on_hover_text("Fix what was read, or set a puzzle up (Ctrl+E switches)");
        let mine = choice_named(
            ui.selectable_value(&mut choice, Writing::Entries, "My digits"),
            "Typing writes my digits",
            writing == Writing::Entries,
        )
        .on_hover_text("Your own digits, checked as you go (Ctrl+E switches)");
        if (givens.clicked() || mine.clicked()) && choice != writing {
            app.toggle_writing();
        }
    });
}

/// Editing the selected cell with the mouse alone: what it holds, a
/// button per symbol, and Clear.
fn cell_editor(app: &mut SudokuApp, ui: &mut egui::Ui) {
    let Some(doc) = app.doc() else { return };
    let size = doc.layout().size();
    let selected = doc.selected.map(|c| {
        let (given, entry) = (doc.values()[c], doc.entries()[c]);
        let v = given.max(entry);
        (
            doc.layout().cell_name(c),
            v,
            doc.current.puzzle.alphabet().symbol(v.max(1)),
            given == 0 && entry != 0,
        )
    });
    let chosen = match &selected {
        Some((cell, v, sym, mine)) => {
            let shown = match (*v, *mine) {
                (0, _) => "empty".to_string(),
                (_, true) => format!("{sym} (your digit)"),
                _ => sym.to_string(),
            };
            RichText::new(format!("Selected {cell}: {shown}"))
        }
        None => RichText::new("Click a cell to change it").weak(),
    };
    ui.add(egui::Label::new(chosen).truncate());
    let alphabet = app.doc().map(|d| d.current.puzzle.alphabet());
    ui.add_enabled_ui(selected.is_some(), |ui| {
        let cols = if size <= 9 { 3 } else { 4 };
        egui::Grid::new("digits")
            .spacing([4.0, 4.0])
            .show(ui, |ui| {
                for v in 1..=size as u8 {
                    let sym = alphabet.map(|a| a.symbol(v)).unwrap_or('?');
                    let button = ui.add(
                        egui::Button::new(RichText::new(sym.to_string()).size(16.0))
                            .min_size(Vec2::new(40.0, 32.0)),
                    );
                    let name = match &selected {
                        Some((cell, ..)) => format!("Write {sym} in {cell}"),
                        None => format!("Write {sym} (select a cell first)"),
                    };
                    if named(button, &name)
                        .on_hover_text(format!("Set {sym}"))
                        .clicked()
                    {
                        app.set_selected(v);
                    }
                    if (v as usize).is_multiple_of(cols) {
                        ui.end_row();
                    }
                }
            });
        if ui
            .button("Clear cell")
            .on_hover_text("0, Delete or Backspace")
            .clicked()
        {
            app.set_selected(0);
        }
    });
}

/// Copy the puzzle or its solution as text, and close the puzzle.
fn copy_and_close(app: &mut SudokuApp, ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        if ui.button("Copy puzzle").clicked()
            && let Some(t) = app.puzzle_text()
        {
            ui.ctx().copy_text(t);
            app.info = Some("Puzzle copied as text".into());
        }
        let solution = app.solution_text();
        if ui
            .add_enabled(solution.is_some(), egui::Button::new("Copy solution"))
            .clicked()
            && let Some(t) = solution
        {
            ui.ctx().copy_text(t);
            app.info = Some("Solution copied as text".into());
        }
        if ui
            .button("Close")
            .on_hover_text("Back to the start screen; the puzzle stays under Recent")
            .clicked()
        {
            app.close();
        }
    });
}

/// What comes and goes, below the controls: the status, why the solution
/// cannot be shown, the hint's words, the rating.
fn side_messages(app: &mut SudokuApp, ui: &mut egui::Ui) {
    ui.separator();
    let status = app.status_line();
    let mistakes = app.entry_check().is_some_and(|c| !c.wrong.is_empty());
    let pal = palette::palette(app.prefs.high_contrast);
    let colour = match app.solutions() {
        _ if mistakes => pal.wrong,
        Some(Solutions::Unique(_)) => pal.solution,
        Some(_) => pal.wrong,
        None => ui.visuals().text_color(),
    };
    ui.label(RichText::new(&status).color(colour).strong());
    // The cells the status names, one click away.
    let named = app.cells_named(&status);
    if !named.is_empty() {
        ui.horizontal_wrapped(|ui| {
            for (name, cell) in named {
                if ui
                    .link(format!("Go to {name}"))
                    .on_hover_text("Select this cell")
                    .clicked()
                {
                    app.select(Some(cell));
                }
            }
        });
    }
    if app.prefs.show_solution {
        match app.solutions() {
            Some(Solutions::NoSolution) => {
                ui.label("No way to fill the grid: check the amber (unsure) cells and your edits.");
            }
            Some(Solutions::Several(..)) => {
                ui.label("More than one way to fill the grid: red cells differ between two solutions; a given may be missing.");
            }
            Some(Solutions::Conflict { .. }) => {
                if app
                    .doc()
                    .is_some_and(|d| !d.current.puzzle.cages().is_empty())
                {
                    ui.label(
                        "The givens or cages break a rule (red): fix a given, a sum or a cage.",
                    );
                } else {
                    ui.label("Two givens clash (red): fix one of them.");
                }
            }
            _ => {}
        }
    }
    hint_messages(app, ui);
}

/// The page of a PDF, and the way to the pages before and after it.
fn page_picker(app: &mut SudokuApp, ui: &mut egui::Ui, number: usize, count: usize) {
    ui.label(format!("Page {number} of {count}"));
    ui.horizontal(|ui| {
        if ui
            .add_enabled(number > 1, egui::Button::new("Previous page"))
            .on_hover_text("Page Up")
            .clicked()
        {
            app.previous_page();
        }
        if ui
            .add_enabled(number < count, egui::Button::new("Next page"))
            .on_hover_text("Page Down")
            .clicked()
        {
            app.next_page();
        }
    });
}

/// The hint's buttons and the candidates view.
fn hint_controls(app: &mut SudokuApp, ui: &mut egui::Ui) {
    ui.separator();
    let level = app.hint_level();
    let thinking = app.is_hinting();
    ui.horizontal(|ui| {
        let more = if level == 0 {
            "Where to look next (?)".to_string()
        } else if level < super::hint::LEVELS {
            "Say more (?)".to_string()
        } else {
            "The whole step is shown (?)".to_string()
        };
        if ui
            .add(egui::Button::new("Hint").min_size(Vec2::new(56.0, 24.0)))
            .on_hover_text(more)
            .clicked()
        {
            app.hint();
        }
        let ready = app.hint_step().is_some();
        if ui
            .add_enabled(ready, egui::Button::new("Apply step"))
            .on_hover_text("Place its digits and strike its candidates; Undo takes it back (!)")
            .clicked()
        {
            app.apply_hint();
        }
        if thinking {
            ui.spinner();
        }
    });
    let mut shown = app.prefs.show_candidates;
    if ui
        .checkbox(&mut shown, "Candidates")
        .on_hover_text("The candidates left in each empty cell (#)")
        .changed()
    {
        app.toggle_candidates();
    }
}

/// The hint's words and the rating.
fn hint_messages(app: &mut SudokuApp, ui: &mut egui::Ui) {
    if let Some(h) = app.current_hint() {
        if let Some(t) = h.technique() {
            ui.label(RichText::new(t).strong());
        }
        ui.label(h.words());
    }
    match app.rating() {
        Some(Ok(r)) => {
            ui.label(super::hint::rating_line(r)).on_hover_text(
                "The hardest step of the easiest way through, on Sudoku Explainer's scale",
            );
        }
        Some(Err(e)) => {
            ui.label(RichText::new(format!("No rating: {e}")).weak());
        }
        None if matches!(app.solutions(), Some(Solutions::Unique(_))) => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Rating…");
            });
        }
        None => {}
    }
}

/// The selected cell's cage (a killer's): its sum to change, and the
/// neighbouring cages the cell can move to. Nothing for a puzzle without
/// cages.
fn cage_editor(app: &mut SudokuApp, ui: &mut egui::Ui) {
    let Some(doc) = app.doc() else { return };
    if doc.current.puzzle.cages().is_empty() {
        return;
    }
    ui.separator();
    let Some(cell) = doc.selected else {
        ui.label(RichText::new("Click a cell to change its cage").weak());
        return;
    };
    let name = doc.layout().cell_name(cell);
    let cages = doc.current.puzzle.cages();
    let own = doc
        .cage_of(cell)
        .map(|k| (cages[k].sum, cages[k].cells.len()));
    let neighbours: Vec<(&str, usize, u32)> = doc
        .neighbour_cages(cell)
        .into_iter()
        .filter_map(|(side, n)| Some((side, n, cages[doc.cage_of(n)?].sum)))
        .collect();
    match own {
        Some((sum, cells)) => {
            ui.label(format!("Cage of {name}: {cells} cells"));
            ui.horizontal(|ui| {
                let label = ui.label("Sum");
                if named(ui.button("−1"), "Sum −1")
                    .on_hover_text("Lower the cage's sum")
                    .clicked()
                {
                    app.set_cage_sum(sum.saturating_sub(1));
                }
                let mut value = sum;
                let max = app.doc().map_or(45, |d| {
                    let n = d.layout().size() as u32;
                    n * (n + 1) / 2
                });
                let drag = ui
                    .add(egui::DragValue::new(&mut value).range(1..=max))
                    .labelled_by(label.id);
                if drag.changed() {
                    app.set_cage_sum(value);
                }
                if named(ui.button("+1"), "Sum +1")
                    .on_hover_text("Raise the cage's sum")
                    .clicked()
                {
                    app.set_cage_sum(sum + 1);
                }
            });
        }
        None => {
            ui.label(format!("{name} is in no cage"));
        }
    }
    for (side, n, sum) in neighbours {
        if ui
            .button(format!("Move {name} to the cage {side} ({sum})"))
            .on_hover_text("The cell joins that cage; sums stay as they are")
            .clicked()
        {
            app.move_selected_to_cage(n);
        }
    }
}

/// The keys, said short enough to read at a glance; wrapped in a narrow
/// window.
const KEY_HELP: &str = "Arrows move · 1-9 set · 0 clears · Enter solves · H hides the solution · ? hint · ! applies it · # candidates · Ctrl+E givens or your digits · drag the round handles onto the grid if it was found wrong";

/// Messages and key help, wrapped to the window's width: nothing cut off.
fn status_bar(app: &mut SudokuApp, ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        let notice = app.doc().and_then(|d| d.notice.clone());
        if let Some(e) = app.error.clone().or(notice) {
            ui.label(RichText::new(e).color(Color32::from_rgb(200, 50, 50)));
            if ui.small_button("Dismiss").clicked() {
                app.error = None;
                if let Some(d) = app.current.as_mut() {
                    d.doc.notice = None;
                }
            }
        } else if let Some(i) = &app.info {
            ui.label(i.clone());
        } else if app.doc().is_some() {
            ui.label(RichText::new(KEY_HELP).weak());
        } else {
            ui.label(RichText::new("Open, drop or paste a puzzle").weak());
        }
    });
}

/// A tint over the whole window while files hover over it.
fn drop_highlight(ctx: &egui::Context) {
    let hovering = ctx.input(|i| !i.raw.hovered_files.is_empty());
    if !hovering {
        return;
    }
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        egui::Id::unique("drop"),
    ));
    let rect = ctx.content_rect();
    painter.rect_filled(rect, 0.0, Color32::from_rgba_unmultiplied(37, 99, 235, 60));
    painter.rect_stroke(
        rect.shrink(6.0),
        egui::CornerRadius::same(10),
        Stroke::new(3.0, canvas::SELECT),
        egui::StrokeKind::Inside,
    );
    painter.text(
        rect.center(),
        Align2::CENTER_CENTER,
        "Drop to open",
        FontId::proportional(28.0),
        Color32::WHITE,
    );
}
