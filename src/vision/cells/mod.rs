//! The cells: one crop per cell in (from [`super::locate`]), what each
//! holds out: a printed symbol with its confidence, which way up the page
//! is, the colour of each digit's ink, and the player's entries and marks.

pub mod classify;
pub mod colour;
pub mod entries;
pub mod orient;
