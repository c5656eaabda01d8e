//! How the puzzle view looks: its colours and line widths, the ordinary
//! ones and the high-contrast ones (View menu), and the shapes that tell
//! marks apart without their colours (a wrong digit struck through, a
//! hint's placement boxed, its eliminations crossed).

use eframe::egui::{self, Color32, Stroke, Visuals};

use super::canvas;
use crate::overlay::Contrast;

/// The colours and line widths the puzzle view draws with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// The app's own marks: the selected cell, read digits' chips, corner
    /// handles, cages over a photo.
    pub select: Color32,
    /// The located grid's lines over a photo.
    pub grid: Color32,
    /// A drawn grid's thin lines (a text puzzle's, over its picture).
    pub drawn_thin: Color32,
    /// A drawn grid's thick lines.
    pub drawn_thick: Color32,
    /// The wash of a cell read but not for sure.
    pub uncertain: Color32,
    /// The opaque corner mark of a cell read but not for sure: amber over
    /// any wash (a hint's blue over the amber wash would mix to mint).
    pub uncertain_mark: Color32,
    /// The wash of a cell that differs between two solutions, or clashes.
    pub marked: Color32,
    /// A wrong entry's frame, strike and chip, and the status when
    /// something is wrong.
    pub wrong: Color32,
    /// A wrong entry's wash.
    pub wrong_tint: Color32,
    /// The player's own digits' chips.
    pub entry: Color32,
    /// The status line's colour for a single solution.
    pub solution: Color32,
    /// Where a hint asks the player to look.
    pub hint_focus: Color32,
    /// A hint's pattern: cells outlined, candidates ringed.
    pub hint_pattern: Color32,
    /// What a hint places.
    pub hint_place: Color32,
    /// What a hint strikes out.
    pub hint_strike: Color32,
    /// The candidates view's small symbols.
    pub mark: Color32,
    /// Width of the thin grid lines over a photo, in points.
    pub thin: f32,
    /// Width of the box and edge lines over a photo, in points.
    pub thick: f32,
    /// Width of the selected cell's frame, in points.
    pub selection: f32,
    /// Width of a hint's cell outlines and of the cues' strokes (strike,
    /// box, cross), in points.
    pub cue: f32,
}

/// The ordinary look: washes light enough to read the print through.
pub const NORMAL: Palette = Palette {
    select: canvas::SELECT,
    grid: canvas::GRID,
    drawn_thin: Color32::from_gray(150),
    drawn_thick: Color32::from_gray(20),
    uncertain: canvas::UNCERTAIN,
    uncertain_mark: canvas::UNCERTAIN_MARK,
    marked: canvas::MARKED,
    wrong: canvas::WRONG,
    wrong_tint: canvas::WRONG_TINT,
    entry: canvas::ENTRY,
    solution: canvas::SOLUTION,
    hint_focus: canvas::HINT_FOCUS,
    hint_pattern: canvas::HINT_PATTERN,
    hint_place: canvas::HINT_PLACE,
    hint_strike: canvas::HINT_STRIKE,
    mark: canvas::MARK,
    thin: 1.0,
    thick: 2.0,
    selection: 3.0,
    cue: 2.0,
};

/// High contrast: the app's marks in pure magenta, opaque.
const HC_SELECT: Color32 = Color32::from_rgb(200, 0, 170);
/// High contrast: the located grid opaque black, thick (see HC_THIN).
const HC_GRID: Color32 = Color32::BLACK;
/// High contrast: an unsure reading's wash, strong amber, about twice the
/// ordinary one's weight.
const HC_UNCERTAIN: Color32 = Color32::from_rgba_premultiplied(200, 135, 0, 190);
/// High contrast: an unsure reading's corner mark, a deeper amber.
const HC_UNCERTAIN_MARK: Color32 = Color32::from_rgb(200, 125, 0);
/// High contrast: a marked cell's wash, strong red.
const HC_MARKED: Color32 = Color32::from_rgba_premultiplied(200, 0, 0, 170);
/// High contrast: a wrong entry, pure strong red.
const HC_WRONG: Color32 = Color32::from_rgb(210, 0, 0);
/// High contrast: a wrong entry's wash, strong red.
const HC_WRONG_TINT: Color32 = Color32::from_rgba_premultiplied(170, 0, 0, 150);
/// High contrast: the player's digits in black, apart from the magenta of
/// the givens' chips by lightness as well as hue.
const HC_ENTRY: Color32 = Color32::BLACK;
/// High contrast: one solution, dark green.
const HC_SOLUTION: Color32 = Color32::from_rgb(0, 110, 0);
/// High contrast: a hint's focus, a strong blue wash.
const HC_HINT_FOCUS: Color32 = Color32::from_rgba_premultiplied(0, 90, 220, 140);
/// High contrast: a hint's pattern, opaque deep violet.
const HC_HINT_PATTERN: Color32 = Color32::from_rgb(80, 0, 200);
/// High contrast: what a hint places, dark green.
const HC_HINT_PLACE: Color32 = HC_SOLUTION;
/// High contrast: what a hint strikes out, strong red.
const HC_HINT_STRIKE: Color32 = HC_WRONG;
/// High contrast: candidates in black.
const HC_MARK: Color32 = Color32::BLACK;
/// High contrast: thin grid lines, in points (the ordinary 1).
const HC_THIN: f32 = 2.0;
/// High contrast: box and edge lines, in points (the ordinary 2).
const HC_THICK: f32 = 4.0;
/// High contrast: the selected cell's frame, in points (the ordinary 3).
const HC_SELECTION: f32 = 5.0;
/// High contrast: cue strokes and a hint's outlines, in points (the
/// ordinary 2).
const HC_CUE: f32 = 3.5;
/// High contrast: quieter text (hints, the key help) in dark grey, 10:1
/// on white, where egui fades it to about 3:1.
const HC_WEAK_TEXT: Color32 = Color32::from_gray(60);
/// High contrast: a chosen option's fill (Givens or My digits, selected
/// text), light blue under black text, 11:1; egui's dark blue under the
/// black text of this mode gave 2.5:1.
const HC_CHOSEN: Color32 = Color32::from_rgb(150, 190, 255);
/// High contrast: the width of the window's own widgets' outlines and
/// text strokes, in points (egui's are 1).
const HC_WIDGET_STROKE: f32 = 2.0;

/// Black, white and strong colours, thicker lines.
pub const HIGH_CONTRAST: Palette = Palette {
    select: HC_SELECT,
    grid: HC_GRID,
    drawn_thin: Color32::BLACK,
    drawn_thick: Color32::BLACK,
    uncertain: HC_UNCERTAIN,
    uncertain_mark: HC_UNCERTAIN_MARK,
    marked: HC_MARKED,
    wrong: HC_WRONG,
    wrong_tint: HC_WRONG_TINT,
    entry: HC_ENTRY,
    solution: HC_SOLUTION,
    hint_focus: HC_HINT_FOCUS,
    hint_pattern: HC_HINT_PATTERN,
    hint_place: HC_HINT_PLACE,
    hint_strike: HC_HINT_STRIKE,
    mark: HC_MARK,
    thin: HC_THIN,
    thick: HC_THICK,
    selection: HC_SELECTION,
    cue: HC_CUE,
};

/// The palette for the preference.
pub fn palette(high_contrast: bool) -> Palette {
    if high_contrast { HIGH_CONTRAST } else { NORMAL }
}

/// The overlay renderer's look for the preference: the picture the window
/// shows and the export are drawn in it.
pub fn overlay_contrast(high_contrast: bool) -> Contrast {
    if high_contrast {
        Contrast::High
    } else {
        Contrast::Normal
    }
}

/// The window's widgets in high contrast: black text and outlines on
/// white, thicker strokes; else egui's own light or dark look.
pub fn visuals(high_contrast: bool, dark: bool) -> Visuals {
    if !high_contrast {
        return if dark {
            Visuals::dark()
        } else {
            Visuals::light()
        };
    }
    let mut v = Visuals::light();
    v.override_text_color = Some(Color32::BLACK);
    v.panel_fill = Color32::WHITE;
    v.window_fill = Color32::WHITE;
    v.extreme_bg_color = Color32::WHITE;
    v.hyperlink_color = Color32::from_rgb(0, 0, 170);
    v.weak_text_color = Some(HC_WEAK_TEXT);
    v.selection.bg_fill = HC_CHOSEN;
    v.selection.stroke = Stroke::new(HC_WIDGET_STROKE, Color32::BLACK);
    let outline = Stroke::new(HC_WIDGET_STROKE, Color32::BLACK);
    for w in [
        &mut v.widgets.noninteractive,
        &mut v.widgets.inactive,
        &mut v.widgets.hovered,
        &mut v.widgets.active,
        &mut v.widgets.open,
    ] {
        w.bg_stroke = outline;
        w.fg_stroke = outline;
    }
    v.widgets.noninteractive.bg_stroke = Stroke::new(1.0, Color32::BLACK);
    v.widgets.inactive.weak_bg_fill = Color32::WHITE;
    v.widgets.inactive.bg_fill = Color32::WHITE;
    v.widgets.hovered.weak_bg_fill = Color32::from_gray(215);
    v.widgets.active.weak_bg_fill = Color32::from_gray(185);
    v
}

/// Sets the window's widgets' look for the preference, in both of egui's
/// themes (the system's light or dark choice is kept otherwise).
pub fn apply(ctx: &egui::Context, high_contrast: bool) {
    ctx.set_visuals_of(egui::Theme::Light, visuals(high_contrast, false));
    ctx.set_visuals_of(egui::Theme::Dark, visuals(high_contrast, true));
}

/// A shape that tells a mark apart without its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cue {
    /// Drawn as it is.
    Plain,
    /// A stroke across the cell's digit: a wrong entry.
    Struck,
    /// A square frame around the digit: a hint's placement.
    Boxed,
    /// Crossed out with an X: a hint's elimination.
    Crossed,
    /// A ring around the candidate: a hint's pattern.
    Ringed,
}

/// A player's digit: struck through when wrong, as it is when right, so
/// that red and teal are not the only difference.
pub fn entry_cue(wrong: bool) -> Cue {
    if wrong { Cue::Struck } else { Cue::Plain }
}

/// What a hint's step does to a candidate, as drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepMark {
    /// The digit the step places.
    Placement,
    /// A candidate the step strikes out.
    Elimination,
    /// A candidate of the step's pattern.
    Pattern,
}

/// A hint's marks each in their own shape, so that green and red are not
/// the only difference between a placement and an elimination.
pub fn step_cue(mark: StepMark) -> Cue {
    match mark {
        StepMark::Placement => Cue::Boxed,
        StepMark::Elimination => Cue::Crossed,
        StepMark::Pattern => Cue::Ringed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Relative luminance (WCAG) of an opaque colour.
    fn luminance(c: Color32) -> f32 {
        let lin = |v: u8| {
            let v = v as f32 / 255.0;
            if v <= 0.03928 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(c.r()) + 0.7152 * lin(c.g()) + 0.0722 * lin(c.b())
    }

    /// Contrast ratio against white (WCAG).
    fn on_white(c: Color32) -> f32 {
        1.05 / (luminance(c) + 0.05)
    }

    #[test]
    fn high_contrast_inks_stand_out_on_white_and_lines_are_thicker() {
        let p = palette(true);
        for (what, c) in [
            ("the app's marks", p.select),
            ("a wrong entry", p.wrong),
            ("the player's digits", p.entry),
            ("the solution's status", p.solution),
            ("a hint's pattern", p.hint_pattern),
            ("a hint's placement", p.hint_place),
            ("a hint's strike", p.hint_strike),
            ("the candidates", p.mark),
            ("the grid", p.grid),
        ] {
            // WCAG's 4.5:1 for text.
            assert!(on_white(c) >= 4.5, "{what}: {:.1}:1", on_white(c));
        }
        let n = palette(false);
        assert_eq!(n, NORMAL);
        assert!(p.thin > n.thin && p.thick > n.thick && p.selection > n.selection);
        assert!(p.cue > n.cue);
        // Washes weigh more than the ordinary ones.
        for (hc, plain) in [
            (p.uncertain, n.uncertain),
            (p.wrong_tint, n.wrong_tint),
            (p.hint_focus, n.hint_focus),
        ] {
            assert!(hc.a() > plain.a(), "{hc:?} over {plain:?}");
        }
    }

    #[test]
    fn high_contrast_widgets_are_black_on_white() {
        let v = visuals(true, true);
        assert_eq!(v.override_text_color, Some(Color32::BLACK));
        assert_eq!(v.panel_fill, Color32::WHITE);
        assert!(v.widgets.inactive.bg_stroke.width >= HC_WIDGET_STROKE);
        // Black text stays readable on a chosen option, and quiet text too.
        let black_on = |c: Color32| (luminance(c) + 0.05) / 0.05;
        assert!(black_on(v.selection.bg_fill) >= 7.0);
        assert!(on_white(v.weak_text_color()) >= 7.0);
        assert!(visuals(false, true).dark_mode);
        assert!(!visuals(false, false).dark_mode);
    }

    #[test]
    fn quiet_text_keeps_its_high_contrast_colour_in_both_themes() {
        // Not egui's text faded by its weak alpha (about 3:1 on white), in
        // the light theme or the dark one.
        for dark in [false, true] {
            let v = visuals(true, dark);
            assert_eq!(v.weak_text_color(), HC_WEAK_TEXT, "dark: {dark}");
            let faded = v.text_color().gamma_multiply(v.weak_text_alpha);
            assert_ne!(v.weak_text_color(), faded);
        }
    }

    #[test]
    fn marks_differ_by_shape_not_only_by_colour() {
        assert_ne!(entry_cue(true), entry_cue(false));
        let shapes = [
            step_cue(StepMark::Placement),
            step_cue(StepMark::Elimination),
            step_cue(StepMark::Pattern),
        ];
        for (i, a) in shapes.iter().enumerate() {
            assert_ne!(*a, Cue::Plain);
            for b in &shapes[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
