//! Hints and the rating, apart from the window: the three levels of a
//! hint, what each level shows, and the background work that finds a step
//! or rates a puzzle. No window code.

use crate::grid::Puzzle;
use crate::logic::{Logic, LogicError, Rating, Step};
use crate::solve::Budget;

/// Levels of a hint, as HoDoKu gives them: where to look, then which
/// technique, then the whole step.
pub const LEVELS: u8 = 3;

/// What a hint shows at its level.
#[derive(Clone, Debug, PartialEq)]
pub struct Hint {
    /// 1: where to look; 2: and the technique; 3: and the whole step.
    pub level: u8,
    /// The step, once found; `Err` says why there is none.
    pub found: Option<Result<Found, String>>,
}

/// A step found for one state of a document, with where it points.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub step: Step,
    /// The cells to shade at the first level ([`Step::focus`]).
    pub focus: Vec<usize>,
}

impl Hint {
    /// A hint just asked for: level 1, its step being looked for.
    pub fn asked() -> Hint {
        Hint {
            level: 1,
            found: None,
        }
    }

    /// The next level (the last one stays).
    pub fn deeper(&mut self) {
        self.level = (self.level + 1).min(LEVELS);
    }

    pub fn step(&self) -> Option<&Step> {
        match &self.found {
            Some(Ok(f)) => Some(&f.step),
            _ => None,
        }
    }

    /// The cells to shade: every level shows where to look.
    pub fn focus(&self) -> &[usize] {
        match &self.found {
            Some(Ok(f)) => &f.focus,
            _ => &[],
        }
    }

    /// The panel's words for this level: where to look, the technique, or
    /// the step's sentence; why there is no step; or that it is being
    /// looked for.
    pub fn words(&self) -> String {
        match &self.found {
            None => "Looking for a step…".into(),
            Some(Err(e)) => format!("No hint: {e}."),
            Some(Ok(f)) => match self.level {
                1 => "Look at the shaded cells.".into(),
                2 => format!("Look at the shaded cells for a {}.", f.step.technique),
                _ => f.step.text.clone(),
            },
        }
    }

    /// The technique's name, from the second level on.
    pub fn technique(&self) -> Option<String> {
        let step = self.step().filter(|_| self.level >= 2)?;
        Some(format!(
            "{} ({:.1})",
            capitalised(step.technique.name()),
            step.difficulty
        ))
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Engines kept by a background thread between requests: one per layout
/// and cages, made again only when the puzzle's change.
#[derive(Default)]
pub struct Engines {
    logic: Option<Logic>,
    /// When the next hints and ratings give up.
    budget: Budget,
}

impl Engines {
    /// The engine for `puzzle`, made when the last one was for another
    /// layout, other cages or other variant rules.
    fn for_puzzle(&mut self, puzzle: &Puzzle) -> Result<&mut Logic, LogicError> {
        let fits = self.logic.as_ref().is_some_and(|l| {
            **l.layout() == **puzzle.layout()
                && l.cages() == puzzle.cages()
                && l.rules() == puzzle.rules()
        });
        if !fits {
            self.logic = Some(Logic::for_puzzle(puzzle)?);
        }
        let logic = self.logic.as_mut().expect("made above");
        logic.set_budget(self.budget.clone());
        Ok(logic)
    }

    /// Sets when the hints and ratings asked from now on give up (see
    /// [`Logic::set_budget`]): the app's worker gives each request its own
    /// cancel flag.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// The easiest next step from `puzzle`'s values with the candidates in
    /// `eliminated` (bits per cell) struck out.
    pub fn hint(&mut self, puzzle: &Puzzle, eliminated: &[u32]) -> Result<Found, String> {
        let logic = self.for_puzzle(puzzle).map_err(|e| e.to_string())?;
        let opts = logic.options(puzzle).map_err(|e| e.to_string())?;
        let mut g = logic
            .candidates(puzzle.values())
            .map_err(|e| e.to_string())?;
        for (cell, &struck) in eliminated.iter().enumerate().take(g.values().len()) {
            for d in 1..=g.size() as u8 {
                if struck >> (d - 1) & 1 != 0 {
                    g.eliminate(cell, d);
                }
            }
        }
        let step = logic.hint_from(&g, &opts).map_err(|e| e.to_string())?;
        let focus = step.focus(logic.houses());
        Ok(Found { step, focus })
    }

    /// The rating of `puzzle`'s values as they stand.
    pub fn rate(&mut self, puzzle: &Puzzle) -> Result<Rating, String> {
        let logic = self.for_puzzle(puzzle).map_err(|e| e.to_string())?;
        let opts = logic.options(puzzle).map_err(|e| e.to_string())?;
        logic
            .rate(puzzle.values(), &opts)
            .map_err(|e| e.to_string())
    }
}

/// The rating's line in the side panel: "Rating 2.3 (easy)".
pub fn rating_line(r: &Rating) -> String {
    format!("Rating {:.1} ({})", r.difficulty, r.level)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Document, parse};
    use crate::logic::Technique;

    fn classic() -> Puzzle {
        let text = include_str!("../../samples/puzzles/classic.txt");
        let Ok(Document::Single(p)) = parse(text, "classic.txt", None) else {
            panic!("one puzzle");
        };
        p
    }

    #[test]
    fn the_levels_say_more_each_time_and_stop_at_the_whole_step() {
        let p = classic();
        let mut engines = Engines::default();
        let found = engines.hint(&p, &[]).unwrap();
        assert_eq!(found.step.technique, Technique::HiddenSingleBox);
        assert_eq!(found.focus.len(), 9, "the box to look in");
        let mut h = Hint::asked();
        assert_eq!(h.words(), "Looking for a step…");
        assert!(h.technique().is_none());
        h.found = Some(Ok(found.clone()));
        assert_eq!(h.words(), "Look at the shaded cells.");
        assert!(h.technique().is_none(), "level 1 names no technique");
        h.deeper();
        assert_eq!(h.level, 2);
        assert!(h.words().contains("hidden single"), "{}", h.words());
        assert_eq!(h.technique().as_deref(), Some("Hidden single (1.2)"));
        assert!(!h.words().contains("r9c4"), "level 2 names no cell");
        h.deeper();
        h.deeper();
        assert_eq!(h.level, LEVELS);
        assert_eq!(h.words(), found.step.text);
        assert_eq!(h.focus(), &found.focus[..]);
    }

    #[test]
    fn a_hint_starts_from_the_struck_candidates() {
        let p = classic();
        let mut engines = Engines::default();
        let first = engines.hint(&p, &[]).unwrap().step;
        let placed = first.placements[0];
        let mut struck = vec![0u32; 81];
        struck[placed.cell] = 1 << (placed.digit - 1);
        let next = engines.hint(&p, &struck);
        assert!(
            next.as_ref().map_or(true, |f| f.step != first),
            "the struck candidate is not used"
        );
    }

    #[test]
    fn a_rating_for_one_solution_and_a_reason_for_several() {
        let p = classic();
        let mut engines = Engines::default();
        let r = engines.rate(&p).unwrap();
        assert_eq!(
            rating_line(&r),
            format!("Rating {:.1} ({})", r.difficulty, r.level)
        );
        // The solution without its 1s and 2s: they swap, two solutions.
        let solution = crate::solve::solve(&p, 1, 1).unwrap().solutions.remove(0);
        let open: Vec<u8> = solution
            .iter()
            .map(|&v| if v <= 2 { 0 } else { v })
            .collect();
        let several = p.with_values(open);
        let e = engines.rate(&several).unwrap_err();
        assert!(e.contains("more than one solution"), "{e}");
        let h = Hint {
            level: 1,
            found: Some(Err(engines.hint(&several, &[]).unwrap_err())),
        };
        assert!(h.words().starts_with("No hint: "), "{}", h.words());
    }

    /// A budget whose cancel flag is already set, as a replaced request's.
    fn cancelled() -> Budget {
        Budget::default().with_cancel(std::sync::Arc::new(true.into()))
    }

    #[test]
    fn a_cancelled_request_gives_up_and_the_next_one_runs() {
        let p = classic();
        let mut engines = Engines::default();
        engines.set_budget(cancelled());
        let e = engines.rate(&p).unwrap_err();
        assert!(e.contains("did not finish"), "{e}");
        let e = engines.hint(&p, &[]).unwrap_err();
        assert!(e.contains("did not finish"), "{e}");
        // The next request's own budget: the flag of the last one is gone.
        engines.set_budget(Budget::default());
        assert!(engines.rate(&p).is_ok());
        assert!(engines.hint(&p, &[]).is_ok());
    }

    /// The rating's loop over steps looks at the flag before each step,
    /// not only inside the solver's searches.
    #[test]
    fn the_rating_stops_between_steps() {
        let p = classic();
        let mut logic = Logic::for_puzzle(&p).unwrap();
        let opts = logic.options(&p).unwrap();
        logic.set_budget(cancelled());
        let e = logic.rate(p.values(), &opts).unwrap_err();
        assert!(e.to_string().contains("did not finish"), "{e}");
        let (steps, stuck) = logic.steps(p.values(), &opts).unwrap();
        assert!(steps.is_empty());
        assert!(stuck.unwrap().to_string().contains("did not finish"));
    }
}
