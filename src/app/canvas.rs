//! The puzzle view: the photo (or the drawn grid of a text puzzle) with
//! zoom and pan, the located grid over it, read digits, marks, the
//! solution, and the four corner handles.

use std::sync::Arc;

use eframe::egui::{
    self, Align2, Color32, CornerRadius, FontId, Pos2, Rect, Sense, Shape, Stroke, StrokeKind,
    Vec2, pos2, vec2,
};
use image::RgbaImage;

use super::doc::{self, Doc, Source};
use super::hint::Hint;
use super::labels::{self, Chip};
use super::palette::{self, Cue, Palette, StepMark, step_cue};
use super::{Stamp, SudokuApp};
use crate::grid::{Alphabet, Cage, Layout, Rule};
use crate::logic::{Step, mark_spot};
use crate::overlay::Contrast;
use crate::overlay::cage_outline::{
    CAGE_DASH, CAGE_GAP, CAGE_INSET, Segment, cage_outline, dashes, sum_cell,
};
use crate::vision::locate::Located;

/// Largest texture side uploaded for a photo; larger photos are shown
/// downscaled (reading always uses the full image).
const MAX_TEXTURE_SIDE: u32 = 4096;

/// The app's own marks (selection, handles, read digits) in magenta, apart
/// from the overlay renderer's blue solution and from print.
pub const SELECT: Color32 = Color32::from_rgb(196, 30, 150);
pub const GRID: Color32 = Color32::from_rgba_premultiplied(150, 20, 110, 170);
/// A digit read but not for sure: amber, and nothing else in the window
/// is amber.
pub const UNCERTAIN: Color32 = Color32::from_rgba_premultiplied(140, 100, 0, 110);
/// An unsure reading's corner mark: the wash's amber, opaque, so that it
/// stays amber over any other wash.
pub const UNCERTAIN_MARK: Color32 = Color32::from_rgb(215, 150, 0);
pub const MARKED: Color32 = Color32::from_rgba_premultiplied(150, 20, 20, 130);
/// A wrong entry's tint and frame, and the status line's colour when
/// something is wrong.
pub const WRONG: Color32 = Color32::from_rgb(200, 35, 35);
pub const WRONG_TINT: Color32 = Color32::from_rgba_premultiplied(110, 10, 10, 90);
/// The player's own digits (their chips over a photo), in the drawn grid's
/// entry ink.
pub const ENTRY: Color32 = Color32::from_rgb(
    doc::ENTRY_INK.0[0],
    doc::ENTRY_INK.0[1],
    doc::ENTRY_INK.0[2],
);
/// The status line's colour for a single solution.
pub const SOLUTION: Color32 = Color32::from_rgb(22, 128, 61);
/// Where a hint asks the player to look: a light sky-blue wash that leaves
/// the print readable (amber is for unsure readings).
pub const HINT_FOCUS: Color32 = Color32::from_rgba_premultiplied(0, 80, 140, 70);
/// A hint's pattern (cells outlined, candidates ringed), in violet apart
/// from the magenta of the app's own marks and from amber.
pub const HINT_PATTERN: Color32 = Color32::from_rgb(110, 50, 210);
/// What a hint places, in the overlay's solution green.
pub const HINT_PLACE: Color32 = SOLUTION;
/// What a hint strikes out, in red on a white patch.
pub const HINT_STRIKE: Color32 = Color32::from_rgb(200, 30, 30);
/// The candidates view's small symbols: dark blue-grey, quieter than print.
pub const MARK: Color32 = Color32::from_rgb(40, 60, 110);
/// A jigsaw's regions tinted over a photo, one wash per colour of
/// [`Layout::region_colours`] (neighbouring regions differ): light enough
/// to read the print through, apart enough to see a border read wrong.
/// No amber (unsure readings) and no red (wrong entries) among them.
pub const REGION_TINTS: [Color32; 5] = [
    Color32::from_rgba_premultiplied(30, 30, 60, 45),
    Color32::from_rgba_premultiplied(0, 45, 60, 45),
    Color32::from_rgba_premultiplied(20, 55, 0, 45),
    Color32::from_rgba_premultiplied(55, 0, 50, 45),
    Color32::from_rgba_premultiplied(35, 35, 35, 45),
];
/// The selected cell's cage: its outline drawn solid and this wide, in
/// points, against the 1.5 of a cage's dashes, so that its cells stand
/// out from the neighbouring cages at a glance.
pub const SELECTED_CAGE_WIDTH: f32 = 3.0;
/// A white band under the selected cage's outline, in points: the outline
/// stays visible over a grid line or dark print.
const SELECTED_CAGE_HALO: f32 = 5.5;
/// Length of the pieces the selected cage's outline is drawn in, as a
/// fraction of a cell: short enough to follow a photo's curved grid.
const SELECTED_CAGE_PIECE: f32 = 0.25;

/// A wrong entry's strike: how far it reaches from the cell's centre
/// toward its corners, as a fraction of the cell's side (less
/// [`CUE_REACH`]): across a digit in the cell's middle, clear of the
/// corners where chips and cage sums sit.
const STRIKE_REACH: f32 = 0.42;

/// How far an arrow key moves a focused corner handle, in screen points:
/// a fine step at any zoom.
const CORNER_NUDGE: f32 = 2.0;

/// How far Shift and an arrow key move a focused corner handle, in screen
/// points: a cell's side at fit zoom or so, to bring a corner far off.
const CORNER_NUDGE_FAR: f32 = 20.0;

/// The focus filter of a focused cell or corner handle: the arrow keys
/// are theirs (they move the selection or the corner), not the focus's.
const ARROWS_STAY: egui::EventFilter = egui::EventFilter {
    tab: false,
    horizontal_arrows: true,
    vertical_arrows: true,
    escape: false,
};

/// The id of cell `cell`'s accessible widget.
pub fn cell_id(cell: usize) -> egui::Id {
    egui::Id::unique(("sudoku-lens cell", cell))
}

/// True when the keyboard's focus is on the grid (its cells take the
/// keys), or on nothing, and no menu is open: an open menu takes the keys
/// (Escape closes it).
pub fn keys_to_grid(ctx: &egui::Context, cells: usize) -> bool {
    !egui::Popup::is_any_open(ctx)
        && ctx
            .memory(|m| m.focused())
            .is_none_or(|f| (0..cells).any(|c| cell_id(c) == f))
}

/// Whether a cell is washed and named as read unsure: the reader was
/// unsure of it (`uncertain`) and it holds no digit of the player's
/// (`entry`), whose own look and check say more.
pub fn shows_unsure(uncertain: bool, entry: u8) -> bool {
    uncertain && entry == 0
}

/// Smallest candidate drawn, in screen points: smaller ones are noise
/// (zoom in to read them).
const MARK_MIN_FONT: f32 = 5.0;
/// A candidate's symbol height as a share of its slot in the cell.
const MARK_FONT_SHARE: f32 = 0.8;

/// Zoom and pan of the view, and the corner being dragged.
#[derive(Clone, Debug, Default)]
pub struct ViewState {
    /// Screen points per canvas pixel.
    zoom: f32,
    /// Offset of the canvas centre from the view's centre, in points.
    pan: Vec2,
    /// Fit the canvas into the view on the next frame.
    fit: bool,
    /// Keep fitting while the window is resized, until the person zooms or pans.
    fitted: bool,
    /// The corner being dragged and the corners as dragged so far.
    dragging: Option<(usize, [[f32; 2]; 4])>,
}

impl ViewState {
    pub fn request_fit(&mut self) {
        self.fit = true;
    }

    pub fn zoom_by(&mut self, factor: f32) {
        self.zoom = (self.zoom * factor).clamp(0.02, 40.0);
        self.fitted = false;
    }

    pub fn zoom(&self) -> f32 {
        self.zoom
    }
}

/// Canvas pixels to screen points and back.
#[derive(Clone, Copy)]
struct Xf {
    origin: Pos2,
    zoom: f32,
    centre: Vec2,
}

impl Xf {
    fn to_screen(self, p: [f32; 2]) -> Pos2 {
        self.origin + (vec2(p[0], p[1]) - self.centre) * self.zoom
    }

    fn to_canvas(self, p: Pos2) -> [f32; 2] {
        let v = (p - self.origin) / self.zoom + self.centre;
        [v.x, v.y]
    }
}

/// A photo as an egui image, downscaled when larger than a texture may be.
pub fn color_image(rgba: &RgbaImage) -> egui::ColorImage {
    color_image_within(rgba, MAX_TEXTURE_SIDE)
}

/// A photo as an egui image of at most `max_side` pixels a side.
fn color_image_within(rgba: &RgbaImage, max_side: u32) -> egui::ColorImage {
    let img = within(rgba, max_side);
    egui::ColorImage::from_rgba_unmultiplied(
        [img.width() as usize, img.height() as usize],
        img.as_raw(),
    )
}

/// A layer whose colours are premultiplied by their alpha
/// ([`doc::rules_layer`]) as an egui image of at most `max_side` pixels a
/// side (scaling premultiplied pixels keeps their edges right).
fn premultiplied_within(rgba: &RgbaImage, max_side: u32) -> egui::ColorImage {
    let img = within(rgba, max_side);
    egui::ColorImage::from_rgba_premultiplied(
        [img.width() as usize, img.height() as usize],
        img.as_raw(),
    )
}

/// `rgba`, scaled down to at most `max_side` pixels a side if larger.
fn within(rgba: &RgbaImage, max_side: u32) -> std::borrow::Cow<'_, RgbaImage> {
    let side = rgba.width().max(rgba.height());
    if side <= max_side {
        return std::borrow::Cow::Borrowed(rgba);
    }
    let f = max_side as f32 / side as f32;
    std::borrow::Cow::Owned(image::imageops::resize(
        rgba,
        ((rgba.width() as f32 * f) as u32).max(1),
        ((rgba.height() as f32 * f) as u32).max(1),
        image::imageops::FilterType::Triangle,
    ))
}

/// Uploads `image` as a texture, downscaled first when it is larger than
/// the renderer takes (a GPU's limit can be below [`MAX_TEXTURE_SIDE`]):
/// a page of a PDF or a large photo is shown smaller, never refused.
fn upload(ctx: &egui::Context, name: String, image: egui::ColorImage) -> egui::TextureHandle {
    let max = ctx.input(|i| i.max_texture_side);
    let [w, h] = image.size;
    let image = match (w.max(h) > max)
        .then(|| RgbaImage::from_raw(w as u32, h as u32, image.as_raw().to_vec()))
        .flatten()
    {
        Some(rgba) => color_image_within(&rgba, max as u32),
        None => image,
    };
    ctx.load_texture(name, image, egui::TextureOptions::LINEAR)
}

/// The open document's pictures as textures, each kept with the [`Stamp`]
/// of what it shows and uploaded on first use. Leaving the document drops
/// them all ([`Textures::clear`]), so coming back draws them again.
#[derive(Default)]
pub struct Textures {
    /// The picture without the solution: a photo (the same for every
    /// revision of its document) or a text puzzle's grid with its givens.
    /// No texture: drawing it failed for that stamp (not tried again).
    /// A text puzzle's grid is drawn in a look (contrast), a photo is as
    /// it is in both.
    plain: Option<(Stamp, Contrast, Option<egui::TextureHandle>)>,
    /// A photo converted off the window's thread for the document with
    /// this id, waiting to be uploaded.
    photo: Option<(u64, egui::ColorImage)>,
    /// The picture with the solution drawn in, and the look it was drawn
    /// in; no texture: drawing it failed for that stamp.
    solved: Option<(Stamp, Contrast, Option<egui::TextureHandle>)>,
    /// The solved picture drawn in the background, waiting to be uploaded
    /// (`None`: drawing it failed).
    pending_solved: Option<(Stamp, Contrast, Option<egui::ColorImage>)>,
    /// A photo's variant rules as a layer over it ([`doc::rules_layer`]),
    /// for the document with this id, these rules and this grid: drawn
    /// again only when the rules or the grid's place change, not on every
    /// edit of a cell.
    rules: Option<(u64, Vec<Rule>, Arc<Located>, egui::TextureHandle)>,
}

impl Textures {
    /// Takes the photo of document `doc`, converted in the background.
    pub fn offer_photo(&mut self, doc: u64, image: egui::ColorImage) {
        self.photo = Some((doc, image));
    }

    /// Takes the picture with the solution drawn in for `stamp` in
    /// `contrast`, or notes that drawing it failed (`None`), so that it is
    /// not drawn again.
    pub fn offer_solved(
        &mut self,
        stamp: Stamp,
        contrast: Contrast,
        image: Option<egui::ColorImage>,
    ) {
        self.pending_solved = Some((stamp, contrast, image));
    }

    /// True when the picture with the solution drawn in for `stamp` in
    /// `contrast` is here or waiting to be uploaded, or drawing it failed:
    /// nothing to draw again.
    pub fn has_solved(&self, stamp: Stamp, contrast: Contrast) -> bool {
        let is = |s: &Stamp, c: &Contrast| *s == stamp && *c == contrast;
        self.pending_solved
            .as_ref()
            .is_some_and(|(s, c, _)| is(s, c))
            || self.solved.as_ref().is_some_and(|(s, c, _)| is(s, c))
    }

    /// Drops every picture: the open document was left.
    pub fn clear(&mut self) {
        *self = Textures::default();
    }

    /// The picture of `doc` at `stamp` without the solution: its photo, or
    /// a text puzzle's grid drawn by the overlay renderer again after each
    /// change. `Err` once when drawing fails.
    pub fn plain(
        &mut self,
        ctx: &egui::Context,
        stamp: Stamp,
        doc: &Doc,
        contrast: Contrast,
    ) -> Result<Option<egui::TextureHandle>, String> {
        if let Some((_, image)) = self.photo.take_if(|(d, _)| *d == stamp.doc) {
            let handle = upload(ctx, format!("photo-{}", stamp.doc), image);
            self.plain = Some((stamp, contrast, Some(handle)));
        }
        let fresh = match &self.plain {
            Some((s, _, _)) if doc.is_photo() => s.doc == stamp.doc,
            Some((s, c, _)) => *s == stamp && *c == contrast,
            None => false,
        };
        if !fresh {
            let (name, image) = match &doc.source {
                Source::Photo(p) => (format!("photo-{}", stamp.doc), Ok(color_image(&p.rgba))),
                Source::Text { .. } => (
                    format!(
                        "grid-{}-{}{}",
                        stamp.doc,
                        stamp.revision,
                        texture_suffix(contrast)
                    ),
                    doc::picture(&doc.source, &doc.current, None, contrast)
                        .map(|i| color_image(&i)),
                ),
            };
            match image {
                Ok(image) => {
                    self.plain = Some((stamp, contrast, Some(upload(ctx, name, image))));
                }
                Err(message) => {
                    self.plain = Some((stamp, contrast, None));
                    return Err(message);
                }
            }
        }
        Ok(self.plain.as_ref().and_then(|(_, _, t)| t.clone()))
    }

    /// The variant rules of a photo's puzzle, as a layer to lay over the
    /// photo; `None` for a text puzzle (its drawn grid has them) or a
    /// puzzle without rules.
    pub fn rules(
        &mut self,
        ctx: &egui::Context,
        stamp: Stamp,
        doc: &Doc,
    ) -> Option<egui::TextureHandle> {
        let Source::Photo(p) = &doc.source else {
            return None;
        };
        let rules = doc.current.puzzle.rules();
        if rules.is_empty() {
            return None;
        }
        let located = &doc.current.located;
        let fresh = matches!(&self.rules, Some((d, r, l, _))
            if *d == stamp.doc && r == rules && Arc::ptr_eq(l, located));
        if !fresh {
            let layer = doc::rules_layer(&p.rgba, located, rules);
            let name = format!("rules-{}-{}", stamp.doc, stamp.revision);
            let handle = upload(ctx, name, premultiplied_within(&layer, MAX_TEXTURE_SIDE));
            self.rules = Some((stamp.doc, rules.to_vec(), located.clone(), handle));
        }
        self.rules.as_ref().map(|(_, _, _, t)| t.clone())
    }

    /// The picture with the solution drawn in for `stamp` in `contrast`,
    /// once it is ready.
    pub fn solved(
        &mut self,
        ctx: &egui::Context,
        stamp: Stamp,
        contrast: Contrast,
    ) -> Option<egui::TextureHandle> {
        let wanted = |s: &Stamp, c: &Contrast| *s == stamp && *c == contrast;
        if let Some((_, _, image)) = self.pending_solved.take_if(|(s, c, _)| wanted(s, c)) {
            let name = format!(
                "solved-{}-{}{}",
                stamp.doc,
                stamp.revision,
                texture_suffix(contrast)
            );
            let handle = image.map(|image| upload(ctx, name, image));
            self.solved = Some((stamp, contrast, handle));
        }
        match &self.solved {
            Some((s, c, t)) if wanted(s, c) => t.clone(),
            _ => None,
        }
    }
}

/// The end of the name of a texture drawn in `contrast`: none for the
/// ordinary look, `-hc` for high contrast (its name tells which it is).
fn texture_suffix(contrast: Contrast) -> &'static str {
    contrast.pick("", "-hc")
}

/// Shows the open document in `rect` and handles pointer input on it.
pub fn show(app: &mut SudokuApp, ui: &mut egui::Ui, rect: Rect) {
    let Some(entry) = app.current.as_ref() else {
        return;
    };
    let stamp = entry.stamp();
    let contrast = app.contrast();
    let texture = match app.textures.plain(ui.ctx(), stamp, &entry.doc, contrast) {
        Ok(t) => t,
        Err(message) => {
            app.error = Some(message);
            None
        }
    };
    // Uploaded as soon as it arrives, so that showing it is instant.
    let solved = app.textures.solved(ui.ctx(), stamp, contrast);
    let solved = solved.filter(|_| app.shown_solution().is_some());
    // The solved picture has the rules drawn in already.
    let rules = match solved {
        None => app.textures.rules(ui.ctx(), stamp, &entry.doc),
        Some(_) => None,
    };
    let Some(doc) = app.doc() else { return };
    let canvas = doc.canvas_size();
    fit_view(&mut app.view, rect, canvas);
    let xf = pan_and_zoom(app, ui, rect, canvas);

    let painter = ui.painter_at(rect);
    let pal = palette::palette(app.prefs.high_contrast);
    let canvas_rect = Rect::from_min_max(xf.to_screen([0.0, 0.0]), xf.to_screen(canvas));
    draw_picture(&painter, solved.as_ref().or(texture.as_ref()), canvas_rect);
    if rules.is_some() {
        draw_picture(&painter, rules.as_ref(), canvas_rect);
    }
    let Some(scene) = Scene::gather(app, ui, rect, &xf, stamp) else {
        return;
    };
    draw_washes(&painter, &scene, &pal);
    draw_grid_lines(&painter, &scene, &xf, &pal);
    draw_scene_cages(&painter, &scene, &xf, &pal);
    draw_readings(&painter, &scene, &pal);
    let step = scene.step();
    draw_candidates_and_step(&painter, &scene, &xf, step, &pal);
    if let Some(c) = cell_widgets(ui, rect, &scene, step) {
        app.select(Some(c));
    }
    if scene.is_photo {
        corner_handles(app, ui, &painter, &xf, canvas, &pal);
    }
}

/// Fits the canvas (`[width, height]`) in `rect` when asked to, or while
/// the view has not been zoomed or panned by hand.
fn fit_view(view: &mut ViewState, rect: Rect, [cw, ch]: [f32; 2]) {
    if view.fit || view.fitted || view.zoom <= 0.0 {
        let margin = 16.0;
        view.zoom = ((rect.width() - 2.0 * margin) / cw)
            .min((rect.height() - 2.0 * margin) / ch)
            .max(0.01);
        view.pan = Vec2::ZERO;
        view.fitted = true;
        view.fit = false;
    }
}

/// The view's background: zoom with the wheel or a pinch, pan by
/// dragging, select the cell clicked. Returns the canvas-to-screen
/// transform as the view then stands.
fn pan_and_zoom(app: &mut SudokuApp, ui: &mut egui::Ui, rect: Rect, canvas: [f32; 2]) -> Xf {
    let [cw, ch] = canvas;
    // Not a stop of the Tab key: the cells and corner handles are.
    let bg = ui.allocate_rect(rect, Sense::CLICK | Sense::DRAG);
    bg.widget_info(|| {
        egui::WidgetInfo::labeled(
            egui::Role::Image,
            true,
            "The puzzle: drag to pan, the wheel or + and - to zoom",
        )
    });
    let bg = bg.on_hover_cursor(egui::CursorIcon::Grab);

    // Zoom with the wheel or a pinch, around the pointer.
    if bg.hovered() || bg.contains_pointer() {
        let (scroll, pinch, pointer) =
            ui.input(|i| (i.smooth_scroll_delta, i.zoom_delta(), i.pointer.hover_pos()));
        let factor = pinch * (scroll.y * 0.0015).exp();
        if (factor - 1.0).abs() > 1e-4
            && let Some(p) = pointer
        {
            let xf = xf(rect, &app.view, cw, ch);
            let under = xf.to_canvas(p);
            app.view.zoom_by(factor);
            let z = app.view.zoom;
            app.view.pan = p - rect.center() - (vec2(under[0], under[1]) - vec2(cw, ch) / 2.0) * z;
            ui.input_mut(|i| i.smooth_scroll_delta = Vec2::ZERO);
        }
    }
    if bg.dragged() {
        app.view.pan += bg.drag_delta();
        app.view.fitted = false;
    }
    let xf = xf(rect, &app.view, cw, ch);
    if bg.clicked()
        && let Some(p) = bg.interact_pointer_pos()
    {
        let cell = app.doc().and_then(|d| d.cell_at(xf.to_canvas(p)));
        app.select(cell);
    }
    xf
}

/// The picture: with the solution drawn in by the overlay renderer (what
/// export writes) when it is shown, else the photo or the blank grid.
fn draw_picture(painter: &egui::Painter, texture: Option<&egui::TextureHandle>, at: Rect) {
    match texture {
        Some(t) => {
            painter.image(
                t.id(),
                at,
                Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
                Color32::WHITE,
            );
        }
        None => {
            painter.rect_filled(at, CornerRadius::same(4), Color32::WHITE);
        }
    }
}

/// What the view shows of the open document's cells, gathered once a
/// frame: the puzzle and the player's digits, the reading, the check, the
/// hint and the candidates, and each cell's quad on the screen.
struct Scene {
    located: Arc<Located>,
    layout: Arc<Layout>,
    values: Vec<u8>,
    entries: Vec<u8>,
    uncertain: Vec<usize>,
    selected: Option<usize>,
    is_photo: bool,
    alphabet: Alphabet,
    cages: Vec<Cage>,
    /// The sum of each cell's cage.
    cage_of: Vec<Option<u32>>,
    selected_cage: Option<usize>,
    /// Cells holding a cage's printed sum (in their top-left corner).
    sum_cells: Vec<bool>,
    hovered: Option<usize>,
    marked: Vec<usize>,
    solution: Option<Vec<u8>>,
    wrong: Vec<usize>,
    show_readings: bool,
    hint: Option<Hint>,
    marks: Option<Vec<u32>>,
    /// Each cell's corners on the screen.
    quads: Vec<[Pos2; 4]>,
}

impl Scene {
    /// `None` when no puzzle is open.
    fn gather(
        app: &mut SudokuApp,
        ui: &egui::Ui,
        rect: Rect,
        xf: &Xf,
        stamp: Stamp,
    ) -> Option<Scene> {
        let doc = app.doc()?;
        let located = doc.current.located.clone();
        let layout = doc.layout().clone();
        let values = doc.values().to_vec();
        let entries = doc.entries().to_vec();
        let uncertain = doc.current.uncertain.clone();
        let selected = doc.selected;
        let is_photo = doc.is_photo();
        let alphabet = doc.current.puzzle.alphabet();
        let cages = doc.current.puzzle.cages().to_vec();
        let cage_of: Vec<Option<u32>> = {
            let mut of = vec![None; layout.cell_count()];
            for k in &cages {
                for &c in &k.cells {
                    of[c as usize] = Some(k.sum);
                }
            }
            of
        };
        let selected_cage = selected.and_then(|c| doc.cage_of(c));
        let mut sum_cells = vec![false; layout.cell_count()];
        for k in &cages {
            if let Some(c) = sum_cell(&layout, k) {
                sum_cells[c] = true;
            }
        }
        let hovered = ui
            .input(|i| i.pointer.hover_pos())
            .filter(|p| rect.contains(*p))
            .and_then(|p| doc.cell_at(xf.to_canvas(p)));
        let marked = app
            .solutions()
            .map(|s| s.marked_cells())
            .unwrap_or_default();
        let solution = app.shown_solution().map(|s| s.to_vec());
        let wrong = app.wrong_cells();
        let show_readings = app.prefs.show_readings;
        let hint = app.current_hint().cloned();
        // The candidates view gives way to the solution when that is shown.
        let show_marks = app.prefs.show_candidates && solution.is_none();
        if show_marks {
            app.marks();
        }
        let marks = app
            .marks
            .as_ref()
            .filter(|(s, _)| show_marks && *s == stamp)
            .map(|(_, m)| m.clone());
        let located = match app.view.dragging {
            Some((_, corners)) => crate::vision::locate::located_at_corners(corners, &layout)
                .map(Arc::new)
                .unwrap_or(located),
            None => located,
        };
        let quads: Vec<[Pos2; 4]> = (0..layout.cell_count())
            .map(|c| located.cell_quad(c).map(|p| xf.to_screen(p)))
            .collect();
        Some(Scene {
            located,
            layout,
            values,
            entries,
            uncertain,
            selected,
            is_photo,
            alphabet,
            cages,
            cage_of,
            selected_cage,
            sum_cells,
            hovered,
            marked,
            solution,
            wrong,
            show_readings,
            hint,
            marks,
            quads,
        })
    }

    /// The hint's whole step, once the hint is at its last level.
    fn step(&self) -> Option<&Step> {
        self.hint
            .as_ref()
            .filter(|h| h.level >= super::hint::LEVELS)
            .and_then(|h| h.step())
    }

    /// The screen point of canvas point `p` (in cells) through the grid's
    /// homography.
    fn to_screen(&self, xf: &Xf, p: [f32; 2]) -> Pos2 {
        xf.to_screen(self.located.canvas_to_image(p[0], p[1]))
    }
}

/// The washes over cells: a jigsaw's regions over a photo, cells marked
/// or read unsure, wrong entries (washed, framed and struck), and where
/// the hint asks the player to look.
fn draw_washes(painter: &egui::Painter, scene: &Scene, pal: &Palette) {
    let (layout, quads) = (&scene.layout, &scene.quads);
    // A jigsaw's regions over a photo, to check against its thick lines (a
    // text puzzle's picture draws them).
    if scene.is_photo {
        let colours = layout.region_colours();
        for (q, &region) in quads.iter().zip(layout.regions()) {
            let tint = REGION_TINTS[colours[region as usize] as usize % REGION_TINTS.len()];
            painter.add(Shape::convex_polygon(q.to_vec(), tint, Stroke::NONE));
        }
    }
    // A player's digit read for sure is no unsure reading (one read
    // unsure is not among the entries).
    let mut states: Vec<CellState> = (0..quads.len())
        .map(|cell| CellState {
            marked: scene.marked.contains(&cell),
            unsure: shows_unsure(scene.uncertain.contains(&cell), scene.entries[cell]),
            wrong: scene.wrong.contains(&cell),
            focus: false,
        })
        .collect();
    for &cell in scene.hint.as_ref().map_or(&[][..], |h| h.focus()) {
        if let Some(s) = states.get_mut(cell) {
            s.focus = true;
        }
    }
    painter.extend(state_shapes(quads, &states, pal));
}

/// What a cell is in, as its wash and marks show it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellState {
    /// Differs between two solutions, or clashes.
    pub marked: bool,
    /// Read, but not for sure.
    pub unsure: bool,
    /// The player's digit there is wrong.
    pub wrong: bool,
    /// Where the hint asks the player to look.
    pub focus: bool,
}

/// Side of an unsure cell's corner mark, as a share of the cell's side.
pub const UNSURE_CORNER: f32 = 0.3;

/// The shapes of the cells' states over the picture, in the order drawn
/// (`quads` and `states` cell by cell): a marked cell's wash, or an unsure
/// one's amber wash; wrong entries' red wash, frame and strike; the hint's
/// blue focus; then each unsure cell's opaque amber corner. Each state
/// keeps its own look where they meet: in a cell both unsure and in the
/// hint's focus the amber wash is left out (under the blue it would mix
/// to mint) and the corner, drawn last and opaque, stays amber.
pub fn state_shapes(quads: &[[Pos2; 4]], states: &[CellState], pal: &Palette) -> Vec<Shape> {
    let mut out = Vec::new();
    let cells = || quads.iter().zip(states);
    for (q, s) in cells() {
        let fill = if s.marked {
            Some(pal.marked)
        } else if s.unsure && !s.focus {
            Some(pal.uncertain)
        } else {
            None
        };
        if let Some(f) = fill {
            out.push(Shape::convex_polygon(q.to_vec(), f, Stroke::NONE));
        }
    }
    // Wrong entries: a red wash and frame, over the photo or the drawn
    // grid, and their digit struck through: not told by colour alone.
    for (q, _) in cells().filter(|(_, s)| s.wrong) {
        out.push(Shape::convex_polygon(
            q.to_vec(),
            pal.wrong_tint,
            Stroke::new(pal.cue, pal.wrong),
        ));
        let half = quad_side(q) * STRIKE_REACH;
        let stroke = Stroke::new(pal.cue, pal.wrong);
        let centre = in_quad(q, pos2(0.5, 0.5));
        cue_shapes(&mut out, palette::entry_cue(true), centre, half, stroke);
    }
    // Where the hint asks the player to look, from its first level.
    for (q, _) in cells().filter(|(_, s)| s.focus) {
        out.push(Shape::convex_polygon(
            q.to_vec(),
            pal.hint_focus,
            Stroke::NONE,
        ));
    }
    // Unsure: an opaque amber corner (bottom-left, clear of a cage's sum
    // and the read digits' chips), over any wash.
    for (q, _) in cells().filter(|(_, s)| s.unsure) {
        let corner = vec![
            in_quad(q, pos2(0.0, 1.0 - UNSURE_CORNER)),
            in_quad(q, pos2(UNSURE_CORNER, 1.0)),
            in_quad(q, pos2(0.0, 1.0)),
        ];
        out.push(Shape::convex_polygon(
            corner,
            pal.uncertain_mark,
            Stroke::NONE,
        ));
    }
    out
}

/// Grid lines over a photo: thin between cells, thick between boxes and
/// at the edge. A text puzzle's grid is in its picture.
fn draw_grid_lines(painter: &egui::Painter, scene: &Scene, xf: &Xf, pal: &Palette) {
    let (layout, is_photo) = (&scene.layout, scene.is_photo);
    let thin = Stroke::new(pal.thin, if is_photo { pal.grid } else { pal.drawn_thin });
    let thick = Stroke::new(pal.thick, if is_photo { pal.grid } else { pal.drawn_thick });
    let line = |a: [f32; 2], b: [f32; 2], s: Stroke| {
        painter.line_segment([scene.to_screen(xf, a), scene.to_screen(xf, b)], s);
    };
    let mut thick_edges = Vec::new();
    for cell in (0..layout.cell_count()).filter(|_| is_photo) {
        let (r, c) = layout.position(cell);
        let (rf, cf) = (r as f32, c as f32);
        // (neighbour row, col, edge start, edge end)
        let edges = [
            (r as isize - 1, c as isize, [cf, rf], [cf + 1.0, rf]),
            (r as isize, c as isize - 1, [cf, rf], [cf, rf + 1.0]),
            (
                r as isize + 1,
                c as isize,
                [cf, rf + 1.0],
                [cf + 1.0, rf + 1.0],
            ),
            (
                r as isize,
                c as isize + 1,
                [cf + 1.0, rf],
                [cf + 1.0, rf + 1.0],
            ),
        ];
        for (i, (nr, nc, a, b)) in edges.into_iter().enumerate() {
            let neighbour = (nr >= 0 && nc >= 0)
                .then(|| layout.cell_at(nr as usize, nc as usize))
                .flatten();
            match neighbour {
                None => thick_edges.push((a, b)),
                Some(n) if i < 2 => {
                    if layout.same_box(cell, n) {
                        line(a, b, thin);
                    } else {
                        thick_edges.push((a, b));
                    }
                }
                Some(_) => {}
            }
        }
    }
    for (a, b) in thick_edges {
        line(a, b, thick);
    }
}

/// Cages over a photo, in the app's colour, to check against the print
/// (a text puzzle's are in its picture, as export draws them), and the
/// selected cell's cage over either.
fn draw_scene_cages(painter: &egui::Painter, scene: &Scene, xf: &Xf, pal: &Palette) {
    let cage_to_screen = |p: [f32; 2]| scene.to_screen(xf, p);
    if scene.is_photo {
        draw_cages(
            painter,
            &scene.cages,
            &scene.layout,
            scene.selected_cage,
            &cage_to_screen,
            pal.select,
        );
    }
    if let Some(cage) = scene.selected_cage.and_then(|k| scene.cages.get(k)) {
        draw_selected_cage(painter, cage, &scene.layout, &cage_to_screen, pal.select);
    }
}

/// Digits as read from a photo (a text puzzle's are in its picture),
/// each beside its printed digit so that both can be compared: a chip in
/// the cell's corner, or in cells too small on screen for one, a dot,
/// and a chip beside the cell under the pointer and the selected one.
/// The selected cell is outlined.
fn draw_readings(painter: &egui::Painter, scene: &Scene, pal: &Palette) {
    let alphabet = scene.alphabet;
    let mut beside = Vec::new();
    for (cell, q) in scene.quads.iter().enumerate() {
        // The player's digits are read too: their chips in their own ink.
        let (v, ink, cue) = match (scene.values[cell], scene.entries[cell]) {
            (0, e) if e != 0 => {
                let wrong = scene.wrong.contains(&cell);
                let ink = if wrong { pal.wrong } else { pal.entry };
                (e, ink, palette::entry_cue(wrong))
            }
            (g, _) => (g, pal.select, Cue::Plain),
        };
        if v != 0 && scene.show_readings && scene.is_photo {
            let side = quad_side(q);
            let asked = scene.hovered == Some(cell) || scene.selected == Some(cell);
            let chip = labels::chip_style(side, asked);
            // A printed cage sum holds the top-left corner.
            let (b, font) = labels::chip_box(chip, side, scene.sum_cells[cell]);
            let b = box_on_screen(q, b, side);
            match (chip, font) {
                (_, None) => {
                    painter.circle_filled(b.center(), b.width() / 2.0, ink);
                }
                (Chip::Beside, Some(font)) => beside.push((b, font, v, ink, cue)),
                (_, Some(font)) => draw_chip(painter, b, font, alphabet.symbol(v), ink, cue),
            }
        }
        if scene.selected == Some(cell) {
            painter.add(Shape::closed_line(
                q.to_vec(),
                Stroke::new(pal.selection, pal.select),
            ));
        }
    }
    // Over the neighbouring cells' marks.
    for (b, font, v, ink, cue) in beside {
        draw_chip(painter, b, font, alphabet.symbol(v), ink, cue);
    }
}

/// The candidates, and the whole step at the hint's last level, drawn
/// through the grid's homography so that they sit in the printed cells.
fn draw_candidates_and_step(
    painter: &egui::Painter,
    scene: &Scene,
    xf: &Xf,
    step: Option<&Step>,
    pal: &Palette,
) {
    let layout = &scene.layout;
    let alphabet = scene.alphabet;
    let at = |cell: usize, f: [f32; 2]| {
        let (r, c) = layout.position(cell);
        scene.to_screen(xf, [c as f32 + f[0], r as f32 + f[1]])
    };
    let side = |cell: usize| quad_side(&scene.quads[cell]);
    let size = layout.size();
    if let Some(marks) = &scene.marks {
        let filled: Vec<u8> = scene
            .values
            .iter()
            .zip(&scene.entries)
            .map(|(&g, &e)| g.max(e))
            .collect();
        draw_marks(
            painter,
            marks,
            &filled,
            size,
            &|d| alphabet.symbol(d),
            &at,
            &side,
            pal.mark,
        );
    }
    if let Some(st) = step {
        draw_step(
            painter,
            st,
            &scene.quads,
            size,
            &|d| alphabet.symbol(d),
            &at,
            &side,
            pal,
        );
    }
}

/// One accessible widget per cell. The grid is one stop of the Tab key:
/// the selected cell (the first when none is) takes the focus, and the
/// arrow keys, not the focus, move between cells; the focus follows the
/// selection. Returns the cell clicked, or focused with none selected.
fn cell_widgets(
    ui: &mut egui::Ui,
    rect: Rect,
    scene: &Scene,
    step: Option<&Step>,
) -> Option<usize> {
    let quads = &scene.quads;
    let focused = ui.memory(|m| m.focused());
    let grid_focused = focused.is_some_and(|f| (0..quads.len()).any(|c| cell_id(c) == f));
    let tab_stop = scene.selected.unwrap_or(0);
    let mut clicked_cell = None;
    for (cell, q) in quads.iter().enumerate() {
        let bb = Rect::from_points(q).intersect(rect);
        if !bb.is_positive() {
            continue;
        }
        let id = cell_id(cell);
        let sense = if cell == tab_stop {
            Sense::click()
        } else {
            Sense::CLICK
        };
        let r = ui.interact(bb.shrink(bb.width().min(bb.height()) * 0.15), id, sense);
        if cell == tab_stop {
            if grid_focused && !r.has_focus() {
                r.request_focus();
            }
            if r.has_focus() {
                ui.memory_mut(|m| m.set_focus_lock_filter(id, ARROWS_STAY));
            }
            if r.gained_focus() && scene.selected.is_none() {
                clicked_cell = Some(cell);
            }
        }
        let text = cell_description(scene, cell, step);
        r.widget_info(|| {
            egui::WidgetInfo::selected(
                egui::Role::Button,
                true,
                scene.selected == Some(cell),
                &text,
            )
        });
        if r.clicked() {
            clicked_cell = Some(cell);
        }
    }
    clicked_cell
}

/// A cell's accessible name: where it is, what it holds and whose digit
/// that is, and what the reading, the cage, the candidates and the hint
/// say of it.
fn cell_description(scene: &Scene, cell: usize, step: Option<&Step>) -> String {
    let alphabet = scene.alphabet;
    let (v, entry) = (scene.values[cell], scene.entries[cell]);
    let name = scene.layout.cell_name(cell);
    let unsure = shows_unsure(scene.uncertain.contains(&cell), entry);
    let mut text = match (v, entry) {
        (0, 0) => match &scene.solution {
            Some(sol) => format!("Cell {name}: {} (solution)", alphabet.symbol(sol[cell])),
            None => format!("Cell {name}: empty"),
        },
        (0, e) if scene.wrong.contains(&cell) => {
            format!("Cell {name}: {} (your digit, wrong)", alphabet.symbol(e))
        }
        (0, e) => format!("Cell {name}: {} (your digit)", alphabet.symbol(e)),
        (g, _) => format!("Cell {name}: {}, given", alphabet.symbol(g)),
    };
    if unsure {
        text.push_str(", read unsure");
    }
    if let Some(sum) = scene.cage_of[cell] {
        text.push_str(&format!(", in a cage of {sum}"));
    }
    if let Some(m) = scene.marks.as_ref().map(|m| m[cell]).filter(|&m| m != 0) {
        let symbols: String = (1..=scene.layout.size() as u8)
            .filter(|&d| m >> (d - 1) & 1 != 0)
            .map(|d| alphabet.symbol(d))
            .collect();
        text.push_str(&format!(", candidates {symbols}"));
    }
    if scene
        .hint
        .as_ref()
        .is_some_and(|h| h.focus().contains(&cell))
    {
        text.push_str(", where the hint looks");
    }
    if let Some(st) = step {
        for p in st.placements.iter().filter(|p| p.cell == cell) {
            text.push_str(&format!(", the hint places {}", alphabet.symbol(p.digit)));
        }
        for e in st.eliminations.iter().filter(|e| e.cell == cell) {
            text.push_str(&format!(", the hint strikes {}", alphabet.symbol(e.digit)));
        }
    }
    text
}

/// Corner handles (photos only): drag one, or Tab to it and move it with
/// the arrow keys, and the grid is read again.
fn corner_handles(
    app: &mut SudokuApp,
    ui: &mut egui::Ui,
    painter: &egui::Painter,
    xf: &Xf,
    [cw, ch]: [f32; 2],
    pal: &Palette,
) {
    let corners = match (app.view.dragging, app.doc()) {
        (Some((_, c)), _) => c,
        (None, Some(doc)) => doc.current.located.corners,
        (None, None) => return,
    };
    let names = ["top-left", "top-right", "bottom-right", "bottom-left"];
    for (i, corner) in corners.iter().enumerate() {
        let p = xf.to_screen(*corner);
        let id = ui.scope_id().with(("corner", i));
        let hit = Rect::from_center_size(p, Vec2::splat(22.0));
        let r = ui.interact(hit, id, Sense::drag());
        r.widget_info(|| {
            egui::WidgetInfo::labeled(
                egui::Role::Button,
                true,
                format!("Grid corner {}", names[i]),
            )
        });
        // From the keyboard: Tab to the handle, the arrows move it
        // (with Shift, further), and the grid is read again.
        if r.has_focus() {
            ui.memory_mut(|m| m.set_focus_lock_filter(id, ARROWS_STAY));
            let nudge = ui.input_mut(corner_nudge);
            if nudge != Vec2::ZERO && app.view.dragging.is_none() {
                let mut c = corners;
                let q = xf.to_canvas(xf.to_screen(c[i]) + nudge);
                c[i] = [q[0].clamp(0.0, cw - 1.0), q[1].clamp(0.0, ch - 1.0)];
                app.move_corners(c);
            }
        }
        let r = r.on_hover_cursor(egui::CursorIcon::Move);
        if r.drag_started() {
            app.view.dragging = Some((i, corners));
        }
        if r.dragged()
            && let Some((j, mut c)) = app.view.dragging
            && j == i
        {
            let q = xf.to_canvas(xf.to_screen(c[i]) + r.drag_delta());
            c[i] = [q[0].clamp(0.0, cw - 1.0), q[1].clamp(0.0, ch - 1.0)];
            app.view.dragging = Some((j, c));
        }
        if r.drag_stopped()
            && let Some((j, c)) = app.view.dragging.take()
            && j == i
        {
            app.move_corners(c);
        }
        let active = r.hovered() || r.dragged();
        let radius = if active { 9.0 } else { 7.0 };
        painter.circle(p, radius, Color32::WHITE, Stroke::new(2.5, pal.select));
    }
}

/// How far the arrow keys pressed this frame move a focused corner handle,
/// in screen points (consuming the keys).
fn corner_nudge(inp: &mut egui::InputState) -> Vec2 {
    let mut d = Vec2::ZERO;
    for (key, step) in [
        (egui::Key::ArrowLeft, vec2(-1.0, 0.0)),
        (egui::Key::ArrowRight, vec2(1.0, 0.0)),
        (egui::Key::ArrowUp, vec2(0.0, -1.0)),
        (egui::Key::ArrowDown, vec2(0.0, 1.0)),
    ] {
        // With Shift first: a key without it matches either.
        while inp.consume_key(egui::Modifiers::SHIFT, key) {
            d += step * CORNER_NUDGE_FAR;
        }
        while inp.consume_key(egui::Modifiers::NONE, key) {
            d += step * CORNER_NUDGE;
        }
    }
    d
}

/// The candidates left in each empty cell, small, each in its slot of the
/// cell ([`mark_spot`]); `at` maps a cell and a point in it (fractions) to
/// the screen, `side` gives a cell's side on the screen; drawn in `ink`.
#[allow(clippy::too_many_arguments)]
fn draw_marks(
    painter: &egui::Painter,
    marks: &[u32],
    values: &[u8],
    size: usize,
    symbol: &dyn Fn(u8) -> char,
    at: &dyn Fn(usize, [f32; 2]) -> Pos2,
    side: &dyn Fn(usize) -> f32,
    ink: Color32,
) {
    for (cell, &m) in marks.iter().enumerate() {
        if m == 0 || values.get(cell).is_some_and(|&v| v != 0) {
            continue;
        }
        let font = side(cell) * mark_spot(size, 1).1 * MARK_FONT_SHARE;
        if font < MARK_MIN_FONT {
            continue;
        }
        for d in (1..=size as u8).filter(|&d| m >> (d - 1) & 1 != 0) {
            painter.text(
                at(cell, mark_spot(size, d).0),
                Align2::CENTER_CENTER,
                symbol(d),
                FontId::proportional(font),
                ink,
            );
        }
    }
}

/// The opacity of a variant rule's cells tinted under a step about it:
/// the exported picture's (see [`super::doc::RULE_TINT`]).
const RULE_TINT_ALPHA: f32 = super::doc::RULE_TINT.0[3] as f32 / 255.0;

/// A hint's whole step: its pattern's cells outlined and candidates
/// ringed, what it places large in green on a patch over the cell's
/// marks and boxed, what it strikes out in red and crossed: each its own
/// shape ([`palette::step_cue`]) as well as its own colour.
#[allow(clippy::too_many_arguments)]
fn draw_step(
    painter: &egui::Painter,
    st: &Step,
    quads: &[[Pos2; 4]],
    size: usize,
    symbol: &dyn Fn(u8) -> char,
    at: &dyn Fn(usize, [f32; 2]) -> Pos2,
    side: &dyn Fn(usize) -> f32,
    pal: &Palette,
) {
    let cells = quads.len();
    // A step about a variant rule tints the rule's cells (its own), as
    // the exported picture does.
    if st.rule.is_some() {
        for &cell in st.cells.iter().filter(|&&c| c < cells) {
            let tint = pal.hint_pattern.gamma_multiply(RULE_TINT_ALPHA);
            painter.add(Shape::convex_polygon(
                quads[cell].to_vec(),
                tint,
                Stroke::NONE,
            ));
        }
    }
    for &cell in st.cells.iter().filter(|&&c| c < cells) {
        painter.add(Shape::closed_line(
            quads[cell].to_vec(),
            Stroke::new(pal.cue, pal.hint_pattern),
        ));
    }
    // What it places: on a white patch over the cell's marks, large.
    for p in st.placements.iter().filter(|p| p.cell < cells) {
        let q = quads[p.cell];
        let centre = at(p.cell, [0.5, 0.5]);
        let patch: Vec<Pos2> = q.iter().map(|&c| centre + (c - centre) * 0.85).collect();
        painter.add(Shape::convex_polygon(
            patch,
            Color32::from_rgba_unmultiplied(255, 255, 255, 215),
            Stroke::NONE,
        ));
        painter.text(
            centre,
            Align2::CENTER_CENTER,
            symbol(p.digit),
            FontId::proportional((side(p.cell) * 0.75).max(8.0)),
            pal.hint_place,
        );
        let half = side(p.cell) * PLACEMENT_BOX / 2.0;
        let stroke = Stroke::new(pal.cue, pal.hint_place);
        draw_cue(painter, step_cue(StepMark::Placement), centre, half, stroke);
    }
    let placed = |cell: usize| st.placements.iter().any(|p| p.cell == cell);
    let ring = |cell: usize, d: u8| {
        let (spot, slot) = mark_spot(size, d);
        (at(cell, spot), side(cell) * slot * 0.45)
    };
    for p in st
        .pattern
        .iter()
        .filter(|p| p.cell < cells && !placed(p.cell))
    {
        let (c, r) = ring(p.cell, p.digit);
        let stroke = Stroke::new(pal.cue * 0.75, pal.hint_pattern);
        draw_cue(painter, step_cue(StepMark::Pattern), c, r, stroke);
    }
    for e in st.eliminations.iter().filter(|e| e.cell < cells) {
        let (c, r) = ring(e.cell, e.digit);
        painter.circle_filled(c, r, Color32::from_rgba_unmultiplied(255, 255, 255, 220));
        painter.text(
            c,
            Align2::CENTER_CENTER,
            symbol(e.digit),
            FontId::proportional((r * 1.6).max(6.0)),
            pal.hint_strike,
        );
        let stroke = Stroke::new(pal.cue * 0.75, pal.hint_strike);
        draw_cue(painter, step_cue(StepMark::Elimination), c, r, stroke);
    }
}

/// A hint's placement is boxed in a square this wide, as a fraction of
/// its cell: around its digit (0.75 of the cell tall), inside the patch
/// over the cell's marks (0.85).
const PLACEMENT_BOX: f32 = 0.8;

/// How far a cue's strokes reach from the mark's centre, as a fraction of
/// its half-size: a cross or strike across the symbol, inside its ring.
const CUE_REACH: f32 = 0.75;

/// Draws `cue` around a mark centred at `c`, `half` points from its
/// centre to its side.
fn draw_cue(painter: &egui::Painter, cue: Cue, c: Pos2, half: f32, stroke: Stroke) {
    let mut shapes = Vec::new();
    cue_shapes(&mut shapes, cue, c, half, stroke);
    painter.extend(shapes);
}

/// The shapes of [`draw_cue`], added to `out`.
fn cue_shapes(out: &mut Vec<Shape>, cue: Cue, c: Pos2, half: f32, stroke: Stroke) {
    let d = vec2(half, half) * CUE_REACH;
    let up = vec2(d.x, -d.y);
    match cue {
        Cue::Plain => {}
        Cue::Struck => {
            out.push(Shape::line_segment([c - up, c + up], stroke));
        }
        Cue::Crossed => {
            out.push(Shape::line_segment([c - d, c + d], stroke));
            out.push(Shape::line_segment([c - up, c + up], stroke));
        }
        Cue::Boxed => {
            out.push(Shape::rect_stroke(
                Rect::from_center_size(c, Vec2::splat(2.0 * half)),
                CornerRadius::same(2),
                stroke,
                StrokeKind::Middle,
            ));
        }
        Cue::Ringed => {
            out.push(Shape::circle_stroke(c, half, stroke));
        }
    }
}

/// Cages as printed: a dashed outline inside each (but the selected
/// cage's, `selected`, drawn by [`draw_selected_cage`]), and each sum as
/// read in its top-left cell, beside the printed one
/// ([`labels::read_sum_box`]) on a patch of white; `to_screen` maps grid
/// coordinates (see [`crate::overlay::cage_outline`]) to the screen.
fn draw_cages(
    painter: &egui::Painter,
    cages: &[Cage],
    layout: &Layout,
    selected: Option<usize>,
    to_screen: &dyn Fn([f32; 2]) -> Pos2,
    ink: Color32,
) {
    let stroke = Stroke::new(1.5, ink);
    for (k, cage) in cages.iter().enumerate() {
        if selected != Some(k) {
            for [a, b] in dashes(&outline_around_sum(layout, cage), CAGE_DASH, CAGE_GAP) {
                painter.line_segment([to_screen(a), to_screen(b)], stroke);
            }
        }
        let Some(at) = sum_cell(layout, cage) else {
            continue;
        };
        let (r, c) = layout.position(at);
        let (x, y) = (c as f32, r as f32);
        let side = (to_screen([x, y + 1.0]) - to_screen([x, y])).length();
        let font = FontId::proportional(labels::read_sum_font(side));
        let galley = painter.layout_no_wrap(cage.sum.to_string(), font, ink);
        let Some(b) = labels::read_sum_box(side, galley.size(), selected == Some(k)) else {
            continue;
        };
        let centre = to_screen([x + b.center().x, y + b.center().y]);
        let plate = Rect::from_center_size(centre, b.size() * side);
        painter.rect_filled(plate, CornerRadius::same(2), Color32::WHITE);
        painter.galley(plate.min + Vec2::splat(labels::READ_SUM_PAD), galley, ink);
    }
}

/// The selected cell's cage: its outline solid and wide on a white band,
/// over a photo or a text puzzle's drawn grid alike.
fn draw_selected_cage(
    painter: &egui::Painter,
    cage: &Cage,
    layout: &Layout,
    to_screen: &dyn Fn([f32; 2]) -> Pos2,
    ink: Color32,
) {
    let pieces = dashes(&outline_around_sum(layout, cage), SELECTED_CAGE_PIECE, 0.0);
    let halo = Color32::from_rgba_unmultiplied(255, 255, 255, 200);
    for stroke in [
        Stroke::new(SELECTED_CAGE_HALO, halo),
        Stroke::new(SELECTED_CAGE_WIDTH, ink),
    ] {
        for [a, b] in &pieces {
            painter.line_segment([to_screen(*a), to_screen(*b)], stroke);
        }
    }
}

/// The outline of `cage` ([`cage_outline`]) but where it would run over
/// its printed sum ([`labels::PRINTED_SUM`] of its top-left cell): drawn
/// over a photo, it leaves the print in sight.
fn outline_around_sum(layout: &Layout, cage: &Cage) -> Vec<Segment> {
    let outline = cage_outline(layout, &cage.cells, CAGE_INSET);
    let Some(at) = sum_cell(layout, cage) else {
        return outline;
    };
    let (r, c) = layout.position(at);
    let sum = labels::PRINTED_SUM.translate(vec2(c as f32, r as f32));
    outline.into_iter().flat_map(|s| outside(s, sum)).collect()
}

/// The parts of the straight, level or upright segment `s` (from its lower
/// to its higher coordinate) outside `area`.
fn outside(s: Segment, area: Rect) -> Vec<Segment> {
    let [a, b] = s;
    // The axis the segment runs along, and the one it is fixed on.
    let (run, fixed) = if a[1] == b[1] { (0, 1) } else { (1, 0) };
    let span = |r: Rect, axis: usize| match axis {
        0 => (r.min.x, r.max.x),
        _ => (r.min.y, r.max.y),
    };
    let (lo, hi) = span(area, run);
    let (f0, f1) = span(area, fixed);
    if a[fixed] < f0 || a[fixed] > f1 || b[run] <= lo || a[run] >= hi {
        return vec![s];
    }
    let mut out = Vec::new();
    if a[run] < lo {
        let mut end = b;
        end[run] = lo;
        out.push([a, end]);
    }
    if b[run] > hi {
        let mut start = a;
        start[run] = hi;
        out.push([start, b]);
    }
    out
}

/// A read symbol on its white plate `b` (screen), framed in `ink`, with
/// its `cue` (a wrong entry's strike).
fn draw_chip(painter: &egui::Painter, b: Rect, font: f32, symbol: char, ink: Color32, cue: Cue) {
    let plate = Color32::from_rgba_unmultiplied(255, 255, 255, 225);
    painter.rect_filled(b, CornerRadius::same(3), plate);
    painter.rect_stroke(
        b,
        CornerRadius::same(3),
        Stroke::new(1.0, ink),
        StrokeKind::Inside,
    );
    painter.text(
        b.center(),
        Align2::CENTER_CENTER,
        symbol,
        FontId::proportional(font),
        ink,
    );
    let half = b.width().min(b.height()) / 2.0;
    draw_cue(painter, cue, b.center(), half, Stroke::new(1.5, ink));
}

/// A cell's side on the screen: the mean of its quad's left and right
/// sides.
fn quad_side(q: &[Pos2; 4]) -> f32 {
    ((q[3] - q[0]).length() + (q[2] - q[1]).length()) / 2.0
}

/// The point of a cell's quad (top-left, top-right, bottom-right,
/// bottom-left) at fractions `f` of it, interpolated between its corners;
/// fractions outside 0..1 reach beside the cell.
fn in_quad(q: &[Pos2; 4], f: Pos2) -> Pos2 {
    let top = q[0] + (q[1] - q[0]) * f.x;
    let bottom = q[3] + (q[2] - q[3]) * f.x;
    top + (bottom - top) * f.y
}

/// A box in a cell's fractions ([`labels`]) on the screen: upright, centred
/// where its centre falls in the quad, `side` points to a cell.
fn box_on_screen(q: &[Pos2; 4], b: Rect, side: f32) -> Rect {
    Rect::from_center_size(in_quad(q, b.center()), b.size() * side)
}

fn xf(rect: Rect, view: &ViewState, cw: f32, ch: f32) -> Xf {
    Xf {
        origin: rect.center() + view.pan,
        zoom: view.zoom,
        centre: vec2(cw, ch) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hue of a colour in degrees, and its saturation (0-1).
    fn hue(c: Color32) -> (f32, f32) {
        let [r, g, b, _] = c.to_array().map(|v| v as f32);
        let (max, min) = (r.max(g).max(b), r.min(g).min(b));
        if max - min < 1.0 {
            return (0.0, 0.0);
        }
        let d = max - min;
        let h = if max == r {
            60.0 * ((g - b) / d).rem_euclid(6.0)
        } else if max == g {
            60.0 * ((b - r) / d + 2.0)
        } else {
            60.0 * ((r - g) / d + 4.0)
        };
        (h, d / max)
    }

    fn amber(c: Color32) -> bool {
        let (h, s) = hue(c);
        (25.0..=65.0).contains(&h) && s > 0.5
    }

    #[test]
    fn amber_means_unsure_and_nothing_else() {
        assert!(amber(UNCERTAIN));
        assert!(amber(UNCERTAIN_MARK));
        let others = [
            ("hint focus", HINT_FOCUS),
            ("the player's digits", ENTRY),
            ("a wrong entry", WRONG),
            ("a wrong entry's tint", WRONG_TINT),
            ("a hint's pattern", HINT_PATTERN),
            ("the app's marks", SELECT),
            ("the candidates", MARK),
        ];
        for (what, c) in others
            .into_iter()
            .chain(REGION_TINTS.map(|c| ("a region", c)))
        {
            assert!(!amber(c), "{what} is amber: {c:?}");
        }
        // Each state its own look: no two washes alike.
        let washes = [UNCERTAIN, HINT_FOCUS, WRONG_TINT];
        for (i, a) in washes.iter().enumerate() {
            for b in &washes[i + 1..] {
                assert!((hue(*a).0 - hue(*b).0).abs() > 20.0, "{a:?} and {b:?}");
            }
        }
    }

    /// The colour at `p` of `shapes` drawn in order over white paper: each
    /// filled polygon around `p` blended (premultiplied) over what lies
    /// under it.
    fn colour_at(shapes: &[Shape], p: Pos2) -> Color32 {
        let mut c = [255.0f32; 3];
        for s in shapes {
            let Shape::Path(path) = s else { continue };
            let n = path.points.len();
            let turns: Vec<f32> = (0..n)
                .map(|i| {
                    let (a, b) = (path.points[i], path.points[(i + 1) % n]);
                    (b - a).x * (p - a).y - (b - a).y * (p - a).x
                })
                .collect();
            let inside = turns.iter().all(|&t| t > 0.0) || turns.iter().all(|&t| t < 0.0);
            if !path.closed || !inside {
                continue;
            }
            let f = path.fill.to_array();
            let a = f[3] as f32 / 255.0;
            for k in 0..3 {
                c[k] = f[k] as f32 + c[k] * (1.0 - a);
            }
        }
        let [r, g, b] = c.map(|v| v.round() as u8);
        Color32::from_rgb(r, g, b)
    }

    #[test]
    fn an_unsure_cell_in_a_hint_s_focus_keeps_both_looks() {
        // Two cells side by side, both read unsure; the left one in the
        // hint's focus too.
        let quad = |x: f32| {
            [
                pos2(x, 0.0),
                pos2(x + 100.0, 0.0),
                pos2(x + 100.0, 100.0),
                pos2(x, 100.0),
            ]
        };
        let quads = [quad(0.0), quad(100.0)];
        let unsure = CellState {
            unsure: true,
            ..CellState::default()
        };
        let states = [
            CellState {
                focus: true,
                ..unsure
            },
            unsure,
        ];
        for pal in [palette::NORMAL, palette::HIGH_CONTRAST] {
            let shapes = state_shapes(&quads, &states, &pal);
            let alone = |fill: Color32| {
                let only = Shape::convex_polygon(quads[0].to_vec(), fill, Stroke::NONE);
                colour_at(&[only], pos2(50.0, 50.0))
            };
            // The focus is the hint's blue alone, not mixed with amber
            // (amber under that blue gave mint, neither state's colour).
            let both = colour_at(&shapes, pos2(50.0, 50.0));
            assert_eq!(both, alone(pal.hint_focus), "{pal:?}");
            assert!(!amber(both));
            // ...and its corner is amber, over the blue.
            let corner = colour_at(&shapes, pos2(5.0, 95.0));
            assert_eq!(corner, pal.uncertain_mark);
            assert!(amber(corner));
            // The cell only unsure: its amber wash and the same corner.
            let only_unsure = colour_at(&shapes, pos2(150.0, 50.0));
            assert_eq!(only_unsure, alone(pal.uncertain));
            // (a light wash over white: amber's hue, paler)
            let (h, sat) = hue(only_unsure);
            assert!((25.0..=65.0).contains(&h) && sat > 0.3, "{only_unsure:?}");
            assert_eq!(colour_at(&shapes, pos2(105.0, 95.0)), pal.uncertain_mark);
            // The corner leaves the rest of the cell to the wash.
            assert_eq!(colour_at(&shapes, pos2(50.0, 5.0)), alone(pal.hint_focus));
        }
    }
}
