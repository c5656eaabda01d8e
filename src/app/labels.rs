//! Where the app's own labels go in a photo's cell, so that what was read
//! and what is printed can both be seen: a read digit's chip beside the
//! printed digit, a killer's read sum beside the printed sum.
//!
//! Places are boxes in cell fractions: (0, 0) is the cell's top-left and
//! (1, 1) its bottom-right, in the reading's orientation (on a photo taken
//! upside down, the cell's top-left is where its print's top-left is).
//! Sizes on screen are in points. A box may reach outside its cell (a
//! label shown beside the cell).

use eframe::egui::{Rect, Vec2, pos2, vec2};

use crate::overlay::cage_outline::{CAGE_SUM_AT, CAGE_SUM_HEIGHT};

/// Where a printed digit's ink lies in its cell: centred, at most about
/// 0.45 of the cell wide and 0.7 tall (0.35-0.4 wide and 0.55-0.6 tall on
/// the bundled samurai and classic photos), so that a label in the cell's
/// outer quarter leaves it in sight.
pub const PRINTED_DIGIT: Rect = Rect {
    min: pos2(0.26, 0.14),
    max: pos2(0.74, 0.86),
};

/// Where a killer's printed sum lies in the top-left cell of its cage: in
/// the corner, two digits 0.15-0.2 of the cell tall that reach 0.33 of the
/// cell across on the bundled killer photo (0.3 on its screenshots), with
/// a margin for larger print.
pub const PRINTED_SUM: Rect = Rect {
    min: pos2(0.0, 0.0),
    max: pos2(0.45, 0.32),
};

/// Gap between a chip and its cell's edge, as a fraction of the cell:
/// clear of the grid line, and the chip still in the corner.
const CHIP_INSET: f32 = 0.03;

/// A chip's font size as a fraction of its cell's side, in a corner: the
/// chip (CHIP_WIDTH of its font wide) then ends at 0.03 + 0.198 = 0.228 of
/// the cell, short of the printed digit (PRINTED_DIGIT starts at 0.26).
const CHIP_FONT_SHARE: f32 = 0.22;

/// A chip's width as a multiple of its font size: room for one symbol (a
/// wide capital of a 16x16 or 25x25 alphabet included) on its plate.
const CHIP_WIDTH: f32 = 0.9;

/// A chip's height as a multiple of its font size: the symbol and a
/// margin above and below it.
const CHIP_HEIGHT: f32 = 1.15;

/// Smallest font a chip is drawn with, in points: smaller symbols are
/// hard to tell apart on a screen (a 6 from an 8, a B from an 8).
pub const CHIP_MIN_FONT: f32 = 8.0;

/// Largest font a chip is drawn with, in points: a label in the corner,
/// not a second digit that draws the eye away from the print.
const CHIP_MAX_FONT: f32 = 20.0;

/// Smallest side of a cell on screen, in points, with room for a legible
/// chip beside its printed digit (CHIP_MIN_FONT at CHIP_FONT_SHARE of the
/// cell): about 36 points. A samurai photo fitted into the app's first
/// window has cells of about 31 points, a classic photo about 65.
pub const CORNER_CHIP_MIN_SIDE: f32 = CHIP_MIN_FONT / CHIP_FONT_SHARE;

/// A reading's dot, in cells too small for a chip: its radius as a
/// fraction of the cell, small enough to stay in the corner left of the
/// printed digit (0.03 + 0.16 < 0.26), large enough to be seen at a
/// glance (2.5 points in a samurai's 31-point cells).
const DOT_SHARE: f32 = 0.08;

/// Smallest radius of a reading's dot, in points: one that can still be
/// seen on a dense grid.
const DOT_MIN_RADIUS: f32 = 1.5;

/// Widest a reading's dot may be, as a fraction of its cell: the room
/// between the cell's edge and its printed digit, less the insets, so
/// that in the tiniest cells the dot shrinks rather than cover the print.
const DOT_ROOM: f32 = PRINTED_DIGIT.min.x - 2.0 * CHIP_INSET;

/// Gap between a chip shown beside its cell and the cell, as a fraction
/// of the cell: the chip plainly belongs to the cell it points at.
const BESIDE_GAP: f32 = 0.04;

/// Font size of a chip shown beside its cell, in points: about the app's
/// own text, read at a glance. It was asked for (the cell is under the
/// pointer or selected), so it may cover a little of the neighbouring
/// cell's print; a chip of CHIP_MIN_FONT beside a small cell was easy to
/// miss.
const BESIDE_FONT: f32 = 13.0;

/// Gap between a read sum and its cell's right edge, as a fraction of the
/// cell: the printed sum's own inset (CAGE_SUM_AT) mirrored.
const READ_SUM_INSET: f32 = CAGE_SUM_AT[0];

/// Padding around a read sum's digits on its white plate, in points.
pub const READ_SUM_PAD: f32 = 1.0;

/// Smallest font of a read sum, in points: sums of very small cells stay
/// readable (they are then shown beside their cell, see [`read_sum_box`]).
const READ_SUM_MIN_FONT: f32 = 6.0;

/// Largest font of a read sum, in points: as large as the print at any
/// zoom that fits a grid on a screen, no larger.
const READ_SUM_MAX_FONT: f32 = 40.0;

/// The height of a font's digits as a fraction of its size.
const DIGIT_HEIGHT_SHARE: f32 = 0.7;

/// How a read digit is shown in a cell of a given size on screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Chip {
    /// A chip with the symbol, in a corner of the cell beside the print.
    Corner,
    /// A dot in the corner: a symbol is read here (hover the cell, or
    /// select it, for a chip beside it).
    Dot,
    /// A chip with the symbol just outside the cell, left of it (the
    /// reading's left), where there is no room inside it: shown for the
    /// cell under the pointer and the selected one.
    Beside,
}

/// How a read digit is shown in a cell `side` points wide on screen;
/// `asked`: the cell is under the pointer or selected.
pub fn chip_style(side: f32, asked: bool) -> Chip {
    if side >= CORNER_CHIP_MIN_SIDE {
        Chip::Corner
    } else if asked {
        Chip::Beside
    } else {
        Chip::Dot
    }
}

/// The box of a read digit shown as `chip` in a cell `side` points wide,
/// in cell fractions, and its font size in points (none for a dot). `low`:
/// the corner is the bottom-left one rather than the top-left, where the
/// top-left holds a printed cage sum.
pub fn chip_box(chip: Chip, side: f32, low: bool) -> (Rect, Option<f32>) {
    let side = side.max(1.0);
    let (size, font) = match chip {
        Chip::Dot => {
            let d = (2.0 * (side * DOT_SHARE).max(DOT_MIN_RADIUS) / side).min(DOT_ROOM);
            (vec2(d, d), None)
        }
        Chip::Corner => {
            let font = (side * CHIP_FONT_SHARE).min(CHIP_MAX_FONT);
            (vec2(CHIP_WIDTH, CHIP_HEIGHT) * font / side, Some(font))
        }
        Chip::Beside => (
            vec2(CHIP_WIDTH, CHIP_HEIGHT) * BESIDE_FONT / side,
            Some(BESIDE_FONT),
        ),
    };
    let min = match chip {
        Chip::Beside => pos2(-BESIDE_GAP - size.x, 0.5 - size.y / 2.0),
        _ if low => pos2(CHIP_INSET, 1.0 - CHIP_INSET - size.y),
        _ => pos2(CHIP_INSET, CHIP_INSET),
    };
    (Rect::from_min_size(min, size), font)
}

/// The font size of a read cage sum in a cell `side` points wide: the
/// printed sum's height (CAGE_SUM_HEIGHT of the cell).
pub fn read_sum_font(side: f32) -> f32 {
    (side * CAGE_SUM_HEIGHT / DIGIT_HEIGHT_SHARE).clamp(READ_SUM_MIN_FONT, READ_SUM_MAX_FONT)
}

/// Where a read cage sum goes in the top-left cell of its cage, `side`
/// points wide, given the size of its laid-out text (`label`, points): in
/// the cell's top-right corner, beside the printed sum in its top-left
/// (PRINTED_SUM), so that both can be compared. Where the cell is too
/// small on screen for both, the sum is shown only when `asked` (its cage
/// is the selected cell's), right of the cell; else `None`. The box
/// includes the plate's padding.
pub fn read_sum_box(side: f32, label: Vec2, asked: bool) -> Option<Rect> {
    let side = side.max(1.0);
    let size = (label + Vec2::splat(2.0 * READ_SUM_PAD)) / side;
    let inside = Rect::from_min_size(pos2(1.0 - READ_SUM_INSET - size.x, CAGE_SUM_AT[1]), size);
    if !inside.intersects(PRINTED_SUM) {
        Some(inside)
    } else if asked {
        Some(Rect::from_min_size(
            pos2(1.0 + BESIDE_GAP, CAGE_SUM_AT[1]),
            size,
        ))
    } else {
        None
    }
}
