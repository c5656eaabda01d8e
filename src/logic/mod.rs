//! Human solving techniques for every layout: the next step of a puzzle in
//! progress and why, a logical path to the end, and a difficulty rating on
//! Sudoku Explainer's scale.
//!
//! Everything works over the layout's houses, so a samurai (with boxes
//! shared by two grids), a jigsaw or a 16x16 get the same techniques as a
//! classic: fish use the rows and columns of each sub-grid, locked
//! candidates any two houses that share cells.
//!
//! - [`Logic`]: the engine for one layout, reused across puzzles of it:
//!   [`Logic::hint`] (the next step), [`Logic::explain`] (steps to the end)
//!   and [`Logic::rate`].
//! - [`hint`], [`explain`], [`rate`]: the same for a parsed [`Puzzle`], with
//!   its uniqueness checked by the solver first (what a command calls).
//! - [`Step`]: a technique, what it places and removes, the pattern that
//!   proves it, and one plain sentence.
//! - [`Candidates`]: the pencil marks of any layout.
//!
//! When no technique applies, the step is the solver's digit for the cell
//! with the fewest candidates ([`Technique::Solver`]), so a hint never
//! dead-ends.

mod cands;
mod chains;
mod ctx;
mod fish;
mod forcing;
mod houses;
mod intersect;
mod killer;
mod marks;
mod rule_links;
mod rules;
mod single_digit;
mod singles;
mod step;
mod subsets;
mod sums;
mod unique;
mod wings;

use std::sync::Arc;

pub use cands::{Candidate, Candidates, DeadEnd};
pub use chains::MAX_CHAIN;
pub use houses::{HouseIndex, Intersection, SubGrid};
pub use marks::{FOCUS_MAX_HOUSES, mark_spot, pencil_marks};
pub use step::{ALL, ChainNode, SOLVER_DIFFICULTY, Step, Technique, length_bonus};

use crate::grid::{Alphabet, Cage, Layout, Puzzle};
use crate::solve::{Budget, SudokuSolver};
use ctx::Ctx;

/// Choices for a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The puzzle is known to have exactly one solution: the techniques
    /// that rest on that (unique rectangle, BUG) may be used.
    pub unique: bool,
    /// How symbols are written in sentences.
    pub alphabet: Alphabet,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            unique: false,
            alphabet: Alphabet::Digits,
        }
    }
}

/// Why no step can be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LogicError {
    #[error("{value} appears twice in {house}: at {first} and {second}")]
    Conflict {
        value: char,
        house: String,
        first: String,
        second: String,
    },
    #[error("the puzzle has no solution{0}")]
    NoSolution(String),
    #[error("the puzzle has more than one solution, and no technique applies at this point")]
    NotUnique,
    #[error("the puzzle is already solved")]
    Solved,
    #[error("{0}")]
    Values(String),
    /// The solver ran out of its budget (see [`crate::solve::Budget`]).
    #[error("{0}")]
    GaveUp(String),
}

impl LogicError {
    /// The logic's error for a solver's that is not about the values.
    fn from_search(e: crate::solve::SolveError) -> LogicError {
        match e {
            e @ crate::solve::SolveError::GaveUp { .. } => LogicError::GaveUp(e.to_string()),
            e => LogicError::Values(e.to_string()),
        }
    }
}

/// A difficulty level, from the rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    Expert,
    Extreme,
}

/// Ratings up to this are easy: singles, and the subsets and intersections
/// that only make a single appear (SE's "direct" techniques, up to 2.5).
pub const EASY_MAX: f32 = 2.5;
/// Up to this, medium: pointing, claiming, naked pair, X-wing, hidden pair.
pub const MEDIUM_MAX: f32 = 3.4;
/// Up to this, hard: triples, swordfish, wings, unique rectangle, quads,
/// jellyfish, BUG (SE's last rules before chains, up to 6.2).
pub const HARD_MAX: f32 = 6.2;
/// Below this, expert: single chains of every kind (SE's forcing chains
/// and cycles, 6.5-7.4); from it on, extreme: Nishio, multiple and dynamic
/// forcing chains, and the solver.
pub const EXPERT_BELOW: f32 = 7.5;

impl Level {
    pub fn of(difficulty: f32) -> Level {
        if difficulty <= EASY_MAX + 1e-4 {
            Level::Easy
        } else if difficulty <= MEDIUM_MAX + 1e-4 {
            Level::Medium
        } else if difficulty <= HARD_MAX + 1e-4 {
            Level::Hard
        } else if difficulty < EXPERT_BELOW - 1e-4 {
            Level::Expert
        } else {
            Level::Extreme
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Extreme => "extreme",
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A puzzle's difficulty: the hardest step on the easiest logical path.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// On Sudoku Explainer's scale (1.0 to about 11).
    pub difficulty: f32,
    pub level: Level,
    /// How often each technique was used, simplest first.
    pub counts: Vec<(Technique, usize)>,
    /// Number of steps on the path.
    pub steps: usize,
}

/// The steps from a position to the solution, and the rating they give.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    pub steps: Vec<Step>,
    pub rating: Rating,
}

/// Technique groups in the order they are tried. A group gives its
/// lightest step; the first group with a step wins (as SE's rule list does:
/// its chain rule gives the shortest of all the chains it knows).
const GROUPS: &[&[Technique]] = {
    use Technique::*;
    &[
        &[FullHouse],
        &[CageFullHouse],
        &[HiddenSingleBox],
        &[HiddenSingleLine],
        &[DirectPointing],
        &[DirectClaiming],
        &[DirectHiddenPair],
        &[VariantRule],
        &[NakedSingle],
        &[CageCombination],
        &[ArrowSum],
        &[DirectHiddenTriple],
        &[LittleKillerSum],
        &[Pointing],
        &[Innies],
        &[RegionSumLine],
        &[SandwichSum],
        &[Claiming, LockedCandidates],
        &[CageLocked],
        &[RuleHouse],
        &[NakedPair],
        &[InniesSum],
        &[RuleCell],
        &[CageClash],
        &[XWing],
        &[HiddenPair],
        &[NakedTriple],
        &[Swordfish],
        &[HiddenTriple],
        &[XYWing],
        &[XYZWing],
        &[UniqueRectangle],
        &[NakedQuad],
        &[Jellyfish],
        &[HiddenQuad],
        &[BivalueGrave],
        // SE's chain rule, cheapest searches first (a group gives its
        // lightest step whatever the order).
        &[
            Skyscraper,
            TwoStringKite,
            TurbotFish,
            WWing,
            SimpleColouring,
            XChain,
            FinnedXWing,
            XYChain,
            FinnedSwordfish,
            FinnedJellyfish,
            AlternatingChain,
        ],
        &[NishioChain],
        &[CellForcingChain, RegionForcingChain],
        &[DynamicForcingChain],
        &[DynamicForcingChainPlus],
    ]
};

/// Every technique but the solver, cheapest search first: the order steps
/// that cannot raise a rating are looked for in.
const BY_COST: &[Technique] = {
    use Technique::*;
    &[
        FullHouse,
        CageFullHouse,
        HiddenSingleBox,
        HiddenSingleLine,
        NakedSingle,
        VariantRule,
        DirectPointing,
        DirectClaiming,
        Pointing,
        Claiming,
        LockedCandidates,
        CageCombination,
        ArrowSum,
        LittleKillerSum,
        RegionSumLine,
        SandwichSum,
        Innies,
        CageLocked,
        RuleHouse,
        InniesSum,
        RuleCell,
        CageClash,
        DirectHiddenPair,
        NakedPair,
        XWing,
        HiddenPair,
        DirectHiddenTriple,
        XYWing,
        XYZWing,
        Skyscraper,
        TwoStringKite,
        TurbotFish,
        WWing,
        UniqueRectangle,
        BivalueGrave,
        NakedTriple,
        HiddenTriple,
        Swordfish,
        NakedQuad,
        HiddenQuad,
        Jellyfish,
        // From here on, searches that cost more, in the order that finds
        // a step soonest on average (cost against how often they hit).
        XYChain,
        AlternatingChain,
        XChain,
        FinnedXWing,
        FinnedSwordfish,
        SimpleColouring,
        FinnedJellyfish,
        CellForcingChain,
        RegionForcingChain,
        NishioChain,
        DynamicForcingChain,
        DynamicForcingChainPlus,
    ]
};

/// The last of [`BY_COST`] that is always searched before the technique
/// that gave the previous step.
const CHEAP_UNTIL: Technique = Technique::WWing;

/// The logic engine for one layout, reusable across its puzzles.
pub struct Logic {
    /// The technique of the last step taken without raising the rating.
    last: Option<Technique>,
    houses: Arc<HouseIndex>,
    solver: SudokuSolver,
    chains: chains::ChainScratch,
    forcing: forcing::Forcing,
    /// The cages' techniques (none without cages).
    killer: Option<killer::Killer>,
    /// What each variant rule alone rules out (none without rules).
    variant: Option<crate::solve::RuleEliminations>,
    /// The rules' links between two cells (none without such rules).
    links: Option<rule_links::RuleLinks>,
    /// The sum rules' combinations (none without arrows, little
    /// killers, sandwiches or region sum lines).
    sums: Option<sums::Sums>,
    /// When the solver's searches and the loops over steps give up.
    budget: Budget,
}

impl Logic {
    pub fn new(layout: Arc<Layout>) -> Logic {
        Logic::build(SudokuSolver::new(layout))
    }

    /// The engine for puzzles of `layout` with `cages` as extra rules
    /// (killer sudoku). The house techniques stay true with cages; the
    /// cage techniques (cage combinations, the 45 rule, cage and house)
    /// add what the sums say, the solver's step and the uniqueness check
    /// take the cages into account, and the techniques that rest on
    /// uniqueness are not used (a cage may be what makes the solution one).
    pub fn with_cages(layout: Arc<Layout>, cages: &[Cage]) -> Result<Logic, LogicError> {
        let solver = SudokuSolver::with_cages(layout, cages)
            .map_err(|e| LogicError::Values(e.to_string()))?;
        let mut logic = Logic::build(solver);
        logic.killer = killer::Killer::new(&logic.houses, cages);
        let houses = logic.houses.clone();
        logic
            .forcing
            .set_rules(houses.layout(), &houses, cages, &[]);
        Ok(logic)
    }

    /// The engine for `puzzle`'s layout, cages and variant rules. The
    /// techniques reason on the houses, which stays true with any rule,
    /// and a rule that makes a house (a diagonal, an extra region of as
    /// many cells as symbols, a disjoint group) is one more house for every
    /// technique; the solver's step and the uniqueness check take every
    /// rule into account.
    pub fn for_puzzle(puzzle: &Puzzle) -> Result<Logic, LogicError> {
        if puzzle.cages().is_empty() && puzzle.rules().is_empty() {
            Ok(Logic::new(puzzle.layout().clone()))
        } else {
            let solver =
                SudokuSolver::with_rules(puzzle.layout().clone(), puzzle.cages(), puzzle.rules())
                    .map_err(|e| LogicError::Values(e.to_string()))?;
            let mut logic = Logic::build(solver);
            if !puzzle.cages().is_empty() {
                logic.killer = killer::Killer::new(&logic.houses, puzzle.cages());
            }
            let houses = logic.houses.clone();
            logic
                .forcing
                .set_rules(puzzle.layout(), &houses, puzzle.cages(), puzzle.rules());
            if !puzzle.rules().is_empty() {
                let narrowing =
                    crate::solve::RuleEliminations::new(puzzle.layout(), puzzle.rules());
                logic.links =
                    rule_links::RuleLinks::new(puzzle.layout(), &narrowing, puzzle.rules());
                logic.variant = Some(narrowing);
                logic.sums = sums::Sums::new(puzzle.layout(), &logic.houses, puzzle.rules());
            }
            Ok(logic)
        }
    }

    /// The variant rules the engine was made for (empty without).
    pub fn rules(&self) -> &[crate::grid::Rule] {
        self.solver.rules()
    }

    fn build(solver: SudokuSolver) -> Logic {
        let houses = Arc::new(HouseIndex::new(solver.houses_layout().clone()));
        let k = houses.cell_count() * houses.size();
        Logic {
            last: None,
            chains: chains::ChainScratch::new(k),
            forcing: forcing::Forcing::new(houses.cell_count(), houses.size()),
            solver,
            houses,
            killer: None,
            variant: None,
            links: None,
            sums: None,
            budget: Budget::default(),
        }
    }

    /// Sets when the engine gives up from now on: its solver's searches
    /// (see [`SudokuSolver::set_budget`]), and the loops over steps
    /// (rating, explaining, a hint), which look at the clock and the
    /// cancel flag before each step and between techniques. Inside a
    /// step, the forcing chains (the slowest techniques, up to tens of
    /// seconds on a hard killer) look before each assumption they follow,
    /// and the solver's searches as they search.
    pub fn set_budget(&mut self, budget: Budget) {
        self.solver.set_budget(budget.clone());
        self.forcing.set_budget(budget.clone());
        self.budget = budget;
    }

    /// An error once the budget has run out.
    fn within_budget(&self) -> Result<(), LogicError> {
        if self.budget.expired() {
            return Err(LogicError::GaveUp(
                "the search for steps did not finish".into(),
            ));
        }
        Ok(())
    }

    /// The cages the engine was made for (empty without).
    pub fn cages(&self) -> &[Cage] {
        self.solver.cages()
    }

    /// The houses the techniques reason on: the layout's, and those of
    /// the variant rules that make houses.
    pub fn houses(&self) -> &Arc<HouseIndex> {
        &self.houses
    }

    /// The layout the engine was made for (its puzzles' layout, without
    /// the houses the variant rules add).
    pub fn layout(&self) -> &Arc<Layout> {
        self.solver.layout()
    }

    /// The options for `puzzle` (of this engine's layout): the solver tells
    /// whether it has one solution, and its alphabet is kept for sentences.
    /// Conflicting values are named with their place in the source text.
    pub fn options(&mut self, puzzle: &Puzzle) -> Result<Options, LogicError> {
        let same_layout =
            Arc::ptr_eq(puzzle.layout(), self.layout()) || **puzzle.layout() == **self.layout();
        if !same_layout {
            return Err(LogicError::Values(format!(
                "the engine was made for a {} layout; this puzzle is a {}",
                self.layout().name(),
                puzzle.layout().name()
            )));
        }
        if puzzle.rules() != self.rules() {
            return Err(LogicError::Values(
                "the engine was made for other variant rules than this puzzle's".to_string(),
            ));
        }
        if puzzle.cages() != self.cages() {
            return Err(LogicError::Values(
                if self.cages().is_empty() {
                    "the engine was made without cages; this puzzle has cages"
                } else {
                    "the engine was made for other cages than this puzzle's"
                }
                .to_string(),
            ));
        }
        let mut scratch = vec![0u8; puzzle.values().len()];
        let count = match self.solver.solve_into(puzzle.values(), 2, &mut scratch) {
            Ok(c) => c,
            Err(e) => {
                // The houses the rules add can hold the repeat too.
                let l = self.houses.layout();
                return Err(match l.first_conflict(puzzle.values()) {
                    Some(c) => LogicError::Conflict {
                        value: puzzle.alphabet().symbol(c.value),
                        house: self.houses.house_name(c.house),
                        first: puzzle.describe_cell(c.first),
                        second: puzzle.describe_cell(c.second),
                    },
                    None => LogicError::from_search(e),
                });
            }
        };
        if count == 0 {
            return Err(LogicError::NoSolution(String::new()));
        }
        Ok(Options {
            unique: count == 1 && self.cages().is_empty() && self.rules().is_empty(),
            alphabet: puzzle.alphabet(),
        })
    }

    /// The candidates left by `values` (one per cell, 0 empty), after
    /// checking that no house repeats a symbol.
    pub fn candidates(&self, values: &[u8]) -> Result<Candidates, LogicError> {
        let l = self.houses.layout();
        if values.len() != l.cell_count() {
            return Err(LogicError::Values(format!(
                "{} values for a {} layout of {} cells",
                values.len(),
                l.name(),
                l.cell_count()
            )));
        }
        if let Some((c, &v)) = values
            .iter()
            .enumerate()
            .find(|&(_, &v)| v as usize > l.size())
        {
            return Err(LogicError::Values(format!(
                "{} holds {v}, above {}",
                self.houses.cell_name(c),
                l.size()
            )));
        }
        if let Some(c) = l.first_conflict(values) {
            return Err(LogicError::Conflict {
                value: Alphabet::Digits.symbol(c.value),
                house: self.houses.house_name(c.house),
                first: self.houses.cell_name(c.first),
                second: self.houses.cell_name(c.second),
            });
        }
        Ok(Candidates::new(self.houses.clone(), values))
    }

    /// The easiest next step from `values`.
    pub fn hint(&mut self, values: &[u8], opts: &Options) -> Result<Step, LogicError> {
        let g = self.candidates(values)?;
        self.hint_from(&g, opts)
    }

    /// The easiest next step from a position with candidates already
    /// removed (a player's pencil marks, or the steps applied so far).
    /// `g` must be of this engine's layout (from [`Logic::candidates`]).
    pub fn hint_from(&mut self, g: &Candidates, opts: &Options) -> Result<Step, LogicError> {
        if g.is_solved() {
            return Err(LogicError::Solved);
        }
        self.within_budget()?;
        self.dead_end(g)?;
        self.next_step(g, opts, true)
    }

    /// Steps from `values` to the solution, each the easiest available.
    pub fn explain(&mut self, values: &[u8], opts: &Options) -> Result<Explanation, LogicError> {
        let (steps, stuck) = self.steps(values, opts)?;
        if let Some(e) = stuck {
            return Err(e);
        }
        let rating = rating_of(steps.iter().map(|s| (s.technique, s.difficulty)));
        Ok(Explanation { steps, rating })
    }

    /// Steps from `values`, each the easiest available, as far as they go:
    /// all of them to the solution, or those found before the engine was
    /// stuck and why (a puzzle with several solutions stops where the
    /// solutions part). `Err` when `values` themselves are wrong.
    pub fn steps(
        &mut self,
        values: &[u8],
        opts: &Options,
    ) -> Result<(Vec<Step>, Option<LogicError>), LogicError> {
        let mut g = self.candidates(values)?;
        let mut steps = Vec::new();
        while !g.is_solved() {
            let st = match self
                .within_budget()
                .and_then(|()| self.dead_end(&g))
                .and_then(|()| self.next_step(&g, opts, true))
            {
                Ok(st) => st,
                Err(e) => return Ok((steps, Some(e))),
            };
            apply(&mut g, &st);
            steps.push(st);
        }
        Ok((steps, None))
    }

    /// The rating of `values`: the hardest step on the easiest path.
    ///
    /// A step no harder than the hardest so far leaves the rating as it is,
    /// so while rating the first such step found is taken (the singles
    /// first, since they are cheapest), and the search for the easiest one
    /// only runs when every step would raise the rating.
    pub fn rate(&mut self, values: &[u8], opts: &Options) -> Result<Rating, LogicError> {
        self.last = None;
        let mut g = self.candidates(values)?;
        let mut used = Vec::new();
        let mut hardest = 0.0f32;
        while !g.is_solved() {
            self.within_budget()?;
            let naked = hardest >= Technique::NakedSingle.base() - 1e-4;
            if let Some(s) = singles::any_single(&g, naked) {
                g.place(s.cell, s.digit);
                hardest = hardest.max(s.technique.base());
                used.push((s.technique, s.technique.base()));
                continue;
            }
            self.dead_end(&g)?;
            let st = self.step_from(&g, opts, false, hardest)?;
            apply(&mut g, &st);
            hardest = hardest.max(st.difficulty);
            used.push((st.technique, st.difficulty));
        }
        Ok(rating_of(used.into_iter()))
    }

    fn dead_end(&mut self, g: &Candidates) -> Result<(), LogicError> {
        match g.dead_end() {
            None => Ok(()),
            Some(d) => Err(LogicError::NoSolution(match d {
                DeadEnd::Cell(c) => format!(": {} has no candidate left", self.houses.cell_name(c)),
                DeadEnd::House(h, v) => format!(
                    ": {} has no place left for {}",
                    self.houses.house_name(h),
                    Alphabet::Digits.symbol(v)
                ),
            })),
        }
    }

    /// The easiest step on `g`, or the solver's.
    fn next_step(
        &mut self,
        g: &Candidates,
        opts: &Options,
        text: bool,
    ) -> Result<Step, LogicError> {
        self.step_from(g, opts, text, 0.0)
    }

    /// The easiest step on `g`, except that any step weighing at most
    /// `accept` is taken as soon as it is found: those are looked for first,
    /// cheapest search first, and the rest in SE's order.
    fn step_from(
        &mut self,
        g: &Candidates,
        opts: &Options,
        text: bool,
        accept: f32,
    ) -> Result<Step, LogicError> {
        let houses = self.houses.clone();
        let cx = Ctx {
            houses: &houses,
            text,
            unique: opts.unique && self.cages().is_empty() && self.rules().is_empty(),
            alphabet: opts.alphabet,
        };
        let settled = |t: Technique| t.base() <= accept + 1e-4 && !t.varies();
        if accept > 0.0 {
            // The cheap searches, then the technique that gave the last
            // such step (hard puzzles need the same one again and again),
            // then the rest.
            let cheap = BY_COST
                .iter()
                .position(|&t| t == CHEAP_UNTIL)
                .map_or(BY_COST.len(), |i| i + 1);
            let again = self.last.filter(|t| !BY_COST[..cheap].contains(t));
            let order = BY_COST[..cheap]
                .iter()
                .chain(again.as_slice())
                .chain(BY_COST[cheap..].iter().filter(|&&t| Some(t) != again));
            for &t in order {
                // Simple colouring only removes what an X-chain as short
                // does, and an XY-chain is one of the chains the general
                // search finds at the same weight: their names matter in a
                // hint, not in a rating.
                if t.base() > accept + 1e-4
                    || (t.needs_uniqueness() && !cx.unique)
                    || matches!(t, Technique::SimpleColouring | Technique::XYChain)
                {
                    continue;
                }
                if let Some(st) = self.technique(g, &cx, t, accept + 2e-4, accept)
                    && st.difficulty <= accept + 1e-4
                {
                    self.last = Some(t);
                    return Ok(st);
                }
                self.within_budget()?;
            }
        }
        for group in GROUPS {
            if group.iter().all(|&t| settled(t)) {
                continue; // tried above, nothing there
            }
            if let Some(st) = self.group(g, &cx, group, f32::INFINITY, accept) {
                return Ok(st);
            }
            // A technique that gave up found nothing: that is no reason to
            // go on to the next, nor to the solver's step.
            self.within_budget()?;
        }
        self.solver_step(g, &cx)
    }

    /// The lightest step of a group weighing less than `bound` (or the
    /// first one weighing at most `accept`).
    fn group(
        &mut self,
        g: &Candidates,
        cx: &Ctx,
        group: &[Technique],
        bound: f32,
        accept: f32,
    ) -> Option<Step> {
        let mut best: Option<Step> = None;
        let mut bound = bound;
        for &t in group {
            if t.base() >= bound - 1e-4 || (t.needs_uniqueness() && !cx.unique) {
                continue;
            }
            if let Some(st) = self.technique(g, cx, t, bound, accept)
                && st.difficulty < bound - 1e-4
            {
                if st.difficulty <= accept + 1e-4 {
                    return Some(st);
                }
                bound = st.difficulty;
                best = Some(st);
            }
        }
        best
    }

    /// The first (or, for chains, lightest below `bound`) step of one technique.
    fn technique(
        &mut self,
        g: &Candidates,
        cx: &Ctx,
        t: Technique,
        bound: f32,
        accept: f32,
    ) -> Option<Step> {
        use Technique::*;
        let single = |s: Option<singles::Single>| s.map(|s| singles::step(g, s, cx));
        match t {
            FullHouse => single(singles::full_house(g)),
            CageFullHouse => killer::cage_full_house(g, cx, self.killer.as_ref()?),
            VariantRule => rules::find(
                g,
                cx,
                self.houses.layout(),
                self.solver.rules(),
                self.variant.as_ref()?,
            ),
            CageCombination => killer::combinations(g, cx, self.killer.as_mut()?),
            ArrowSum | LittleKillerSum | RegionSumLine | SandwichSum => {
                self.sums.as_mut()?.find(g, cx, t)
            }
            Innies => killer::innies(g, cx, self.killer.as_mut()?, true),
            InniesSum => killer::innies(g, cx, self.killer.as_mut()?, false),
            CageLocked => killer::locked(g, cx, self.killer.as_mut()?),
            RuleHouse => rule_links::house(g, cx, self.links.as_ref()?),
            RuleCell => rule_links::cell(g, cx, self.links.as_ref()?),
            CageClash => killer::clash(g, cx, self.killer.as_mut()?),
            HiddenSingleBox => single(singles::hidden_single(g, true)),
            HiddenSingleLine => single(singles::hidden_single(g, false)),
            NakedSingle => single(singles::naked_single(g)),
            DirectPointing | DirectClaiming | Pointing | Claiming | LockedCandidates => {
                intersect::find(g, cx, t)
            }
            DirectHiddenPair => subsets::hidden(g, cx, 2, true),
            DirectHiddenTriple => subsets::hidden(g, cx, 3, true),
            NakedPair => subsets::naked(g, cx, 2),
            NakedTriple => subsets::naked(g, cx, 3),
            NakedQuad => subsets::naked(g, cx, 4),
            HiddenPair => subsets::hidden(g, cx, 2, false),
            HiddenTriple => subsets::hidden(g, cx, 3, false),
            HiddenQuad => subsets::hidden(g, cx, 4, false),
            XWing => fish::find(g, cx, 2, false),
            Swordfish => fish::find(g, cx, 3, false),
            Jellyfish => fish::find(g, cx, 4, false),
            FinnedXWing => fish::find(g, cx, 2, true),
            FinnedSwordfish => fish::find(g, cx, 3, true),
            FinnedJellyfish => fish::find(g, cx, 4, true),
            XYWing => wings::xy_wing(g, cx, false),
            XYZWing => wings::xy_wing(g, cx, true),
            WWing => wings::w_wing(g, cx),
            UniqueRectangle => unique::rectangle(g, cx),
            BivalueGrave => unique::bug(g, cx),
            // One pass finds all three (skyscraper first): the kite and
            // turbot fish entries add nothing after it.
            Skyscraper => single_digit::turbot(g, cx, None),
            TwoStringKite | TurbotFish => None,
            SimpleColouring => single_digit::colouring(g, cx),
            XChain | XYChain | AlternatingChain => {
                chains::find(g, cx, &mut self.chains, t, bound, accept)
            }
            // Cell and region forcing chains share their branches: one
            // search gives the lighter of both.
            RegionForcingChain => None,
            NishioChain | CellForcingChain | DynamicForcingChain | DynamicForcingChainPlus => {
                forcing::find(g, cx, &mut self.forcing, t, bound, accept)
            }
            Solver => None,
        }
    }

    /// The solver's digit for the empty cell with the fewest candidates.
    fn solver_step(&mut self, g: &Candidates, cx: &Ctx) -> Result<Step, LogicError> {
        let mut solution = vec![0u8; g.values().len()];
        let count = self
            .solver
            .solve_into(g.values(), 2, &mut solution)
            .map_err(LogicError::from_search)?;
        match count {
            0 => return Err(LogicError::NoSolution(String::new())),
            1 => {}
            _ => return Err(LogicError::NotUnique),
        }
        let cell = (0..g.values().len())
            .filter(|&c| g.value(c) == 0)
            .min_by_key(|&c| g.cell(c).count_ones())
            .ok_or(LogicError::Solved)?;
        let digit = solution[cell];
        if !g.has(cell, digit) {
            // The path removed the solution's digit: the puzzle as given
            // has a different solution than its candidates allow.
            return Err(LogicError::NoSolution(format!(
                ": {} cannot hold {}",
                cx.cell(cell),
                cx.sym(digit)
            )));
        }
        let mut st = Step::new(Technique::Solver);
        st.placements.push(Candidate::new(cell, digit));
        st.cells.push(cell);
        if cx.text {
            st.text = format!(
                "No technique here applies; the solution has {} in {}, the cell with the \
                 fewest candidates ({}).",
                cx.sym(digit),
                cx.cell(cell),
                cx.digits(g.cell(cell))
            );
        }
        Ok(st)
    }
}

/// Applies a step's placements and removals.
pub fn apply(g: &mut Candidates, st: &Step) {
    for e in &st.eliminations {
        g.eliminate(e.cell, e.digit);
    }
    for p in &st.placements {
        if g.value(p.cell) == 0 {
            g.place(p.cell, p.digit);
        }
    }
}

fn rating_of(used: impl Iterator<Item = (Technique, f32)>) -> Rating {
    let mut difficulty = 0.0f32;
    let mut counts: Vec<(Technique, usize)> = Vec::new();
    let mut steps = 0;
    for (t, d) in used {
        steps += 1;
        difficulty = difficulty.max(d);
        match counts.iter_mut().find(|(x, _)| *x == t) {
            Some((_, n)) => *n += 1,
            None => counts.push((t, 1)),
        }
    }
    counts.sort_by_key(|&(t, _)| t);
    // One decimal, as SE prints it.
    let difficulty = (difficulty * 10.0).round() / 10.0;
    Rating {
        difficulty,
        level: Level::of(difficulty),
        counts,
        steps,
    }
}

/// The next step of a puzzle in progress (its filled cells are taken as
/// they are), with uniqueness checked by the solver first.
pub fn hint(puzzle: &Puzzle) -> Result<Step, LogicError> {
    let mut logic = Logic::for_puzzle(puzzle)?;
    let opts = logic.options(puzzle)?;
    logic.hint(puzzle.values(), &opts)
}

/// Every step from a puzzle to its solution.
pub fn explain(puzzle: &Puzzle) -> Result<Explanation, LogicError> {
    let mut logic = Logic::for_puzzle(puzzle)?;
    let opts = logic.options(puzzle)?;
    logic.explain(puzzle.values(), &opts)
}

/// A puzzle's rating.
pub fn rate(puzzle: &Puzzle) -> Result<Rating, LogicError> {
    let mut logic = Logic::for_puzzle(puzzle)?;
    let opts = logic.options(puzzle)?;
    logic.rate(puzzle.values(), &opts)
}

#[cfg(test)]
pub(crate) mod testutil {
    use super::*;

    /// A classic grid from a prefix of its 81 characters (`.` empty).
    pub fn classic(prefix: &str) -> Candidates {
        let houses = Arc::new(HouseIndex::new(Arc::new(Layout::classic())));
        let mut v = vec![0u8; 81];
        for (i, b) in prefix.bytes().enumerate() {
            if b.is_ascii_digit() {
                v[i] = b - b'0';
            }
        }
        Candidates::new(houses, &v)
    }

    /// Removes every candidate of `cell` but `keep`.
    pub fn keep_only(g: &mut Candidates, cell: usize, keep: &[u8]) {
        for d in 1..=g.size() as u8 {
            if !keep.contains(&d) {
                g.eliminate(cell, d);
            }
        }
    }

    /// Removes symbol `d` from every cell of `among` but those in `keep`.
    pub fn only(g: &mut Candidates, d: u8, keep: &[usize], among: impl Iterator<Item = usize>) {
        for c in among {
            if !keep.contains(&c) {
                g.eliminate(c, d);
            }
        }
    }

    pub fn ctx(houses: &HouseIndex) -> Ctx<'_> {
        Ctx {
            houses,
            text: true,
            unique: true,
            alphabet: Alphabet::Digits,
        }
    }
}

#[cfg(test)]
mod tests;
