//! Puzzles as layouts plus values (and cages, for killers), and their
//! formats, all read by [`parse`]: text ([`Puzzle::to_text`]), JSON
//! ([`json`]) and f-puzzles / SudokuPad links ([`fpuzzles`]); a player's
//! digits beside the givens ([`Entries`], [`Progress`], [`parse_progress`]).

mod cage;
mod entries;
mod file;
pub mod fpuzzles;
pub mod json;
mod layout;
mod parse_error;
mod puzzle;
mod rules;
mod text;

pub use cage::{
    Cage, CageError, CageErrorKind, can_make, check_cages, for_each_combination, house_partition,
    layout_total, sum_range,
};
pub use entries::{
    ENTRIES_MARKER, Entries, EntriesError, Progress, Unsure, has_entries, parse_progress,
};
pub use file::{parse, parse_file};
pub use layout::{Conflict, House, HouseKind, Layout, LayoutError, MAX_SIZE};
pub use parse_error::ParseError;
pub use puzzle::{Alphabet, Format, Puzzle, RULES_MARKER, cage_label};
pub use rules::{
    Diagonal, Direction, GRID_RULE_WORDS, Mark, Place, RULE_WORDS, Rule, RuleError, box_parts,
    check_rules, default_gap, diagonal_cells, disjoint_groups, marks_pair, orthogonal,
    parse_grid_rules, parse_place, ray, rule_holds_among, rules_hold, sandwich_cells, touching,
    windoku_windows,
};
pub use text::{BatchLines, Document, Entry};
