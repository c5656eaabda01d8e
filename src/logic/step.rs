//! Steps: what a technique found, how hard it is on Sudoku Explainer's scale,
//! and the sentence that explains it.

use super::cands::Candidate;

/// A solving technique. Each has a weight on Sudoku Explainer's difficulty
/// scale (see [`Technique::base`]); chains add to it by length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// The last empty cell of a house.
    FullHouse,
    /// The last empty cell of a cage takes what its sum still lacks.
    CageFullHouse,
    /// The only place for a symbol in a box.
    HiddenSingleBox,
    /// The only place for a symbol in a row or column.
    HiddenSingleLine,
    /// Pointing that leaves a hidden single behind.
    DirectPointing,
    /// Claiming (or any other intersection) that leaves a hidden single behind.
    DirectClaiming,
    /// A hidden pair that leaves a hidden single in its house.
    DirectHiddenPair,
    /// What a variant rule alone rules out (a thermometer's bounds, a dot's
    /// partners, an arrow's sum...), named by the rule.
    VariantRule,
    /// The only symbol left for a cell.
    NakedSingle,
    /// The sets of symbols that make a cage's sum and fit its cells'
    /// candidates: what no such filling uses leaves the cage's cells.
    CageCombination,
    /// An arrow's fillings: the sums its circle can hold that its line's
    /// candidates can make, and what no such filling puts in a cell.
    ArrowSum,
    /// A hidden triple that leaves a hidden single in its house.
    DirectHiddenTriple,
    /// A little killer's fillings (symbols repeating only where the cells
    /// share no house): what none puts in a cell leaves it.
    LittleKillerSum,
    /// A symbol's places in a box all lie in one row or column.
    Pointing,
    /// The 45 rule fixes one cell: a house (or a few neighbouring ones)
    /// less the cages inside it, or the cages covering it less the house.
    Innies,
    /// A region sum line's parts: the sums each can make with its
    /// candidates that the others can too, and what no part's filling of
    /// them puts in a cell.
    RegionSumLine,
    /// A sandwich: the places of its 1 and largest symbol whose cells
    /// between can make the sum, and what no such filling puts in a cell.
    SandwichSum,
    /// A symbol's places in a row or column all lie in one box.
    Claiming,
    /// A symbol's places in a house all lie in another house (two rows of
    /// overlapping grids, ...).
    LockedCandidates,
    /// A symbol every filling of a cage needs lies in one house inside the
    /// cage, or a house's places for a symbol all lie in one cage.
    CageLocked,
    /// A symbol's places in a house all rule out a candidate, through a
    /// variant rule's links between two cells (at least one).
    RuleHouse,
    NakedPair,
    /// The 45 rule gives several cells a sum: the fillings that make it
    /// leave their candidates.
    InniesSum,
    /// A cell's candidates all rule out a candidate of another cell,
    /// through the variant rules' links.
    RuleCell,
    /// The cages inside a house share out its symbols: a combination that
    /// leaves the others no disjoint choice is out.
    CageClash,
    XWing,
    HiddenPair,
    NakedTriple,
    Swordfish,
    HiddenTriple,
    XYWing,
    XYZWing,
    /// Unique rectangle type 1 (needs a puzzle known to have one solution).
    UniqueRectangle,
    NakedQuad,
    Jellyfish,
    HiddenQuad,
    /// Bivalue universal grave + 1 (needs a puzzle known to have one solution).
    BivalueGrave,
    /// Two strong links in parallel lines whose ends meet in a line.
    Skyscraper,
    /// A strong link in a row and one in a column whose ends meet in a box.
    TwoStringKite,
    /// Two strong links whose ends meet in a house (other forms).
    TurbotFish,
    FinnedXWing,
    FinnedSwordfish,
    FinnedJellyfish,
    /// Two colours along a symbol's strong links (trap or wrap).
    SimpleColouring,
    /// An alternating chain on one symbol.
    XChain,
    /// Two equal bivalue cells joined by a strong link.
    WWing,
    /// An alternating chain through bivalue cells.
    XYChain,
    /// An alternating chain mixing symbols and cells.
    AlternatingChain,
    /// Assuming a candidate leads to a contradiction (the grid updated along
    /// the way).
    NishioChain,
    /// Every candidate of a cell leads to the same conclusion.
    CellForcingChain,
    /// Every place of a symbol in a house leads to the same conclusion.
    RegionForcingChain,
    /// Forcing chains that update the grid along the way (contradiction,
    /// both states of a candidate, every candidate of a cell or house).
    DynamicForcingChain,
    /// Dynamic forcing chains that also use the simple techniques along the way.
    DynamicForcingChainPlus,
    /// Nothing above applies: the solver's digit for the most constrained cell.
    Solver,
}

/// Every technique, simplest first (the order the engine tries them in).
pub const ALL: &[Technique] = &[
    Technique::FullHouse,
    Technique::CageFullHouse,
    Technique::HiddenSingleBox,
    Technique::HiddenSingleLine,
    Technique::DirectPointing,
    Technique::DirectClaiming,
    Technique::DirectHiddenPair,
    Technique::VariantRule,
    Technique::NakedSingle,
    Technique::CageCombination,
    Technique::ArrowSum,
    Technique::DirectHiddenTriple,
    Technique::LittleKillerSum,
    Technique::Pointing,
    Technique::Innies,
    Technique::RegionSumLine,
    Technique::SandwichSum,
    Technique::Claiming,
    Technique::LockedCandidates,
    Technique::CageLocked,
    Technique::RuleHouse,
    Technique::NakedPair,
    Technique::InniesSum,
    Technique::RuleCell,
    Technique::CageClash,
    Technique::XWing,
    Technique::HiddenPair,
    Technique::NakedTriple,
    Technique::Swordfish,
    Technique::HiddenTriple,
    Technique::XYWing,
    Technique::XYZWing,
    Technique::UniqueRectangle,
    Technique::NakedQuad,
    Technique::Jellyfish,
    Technique::HiddenQuad,
    Technique::BivalueGrave,
    Technique::Skyscraper,
    Technique::TwoStringKite,
    Technique::TurbotFish,
    Technique::SimpleColouring,
    Technique::XChain,
    Technique::FinnedXWing,
    Technique::FinnedSwordfish,
    Technique::FinnedJellyfish,
    Technique::WWing,
    Technique::XYChain,
    Technique::AlternatingChain,
    Technique::NishioChain,
    Technique::CellForcingChain,
    Technique::RegionForcingChain,
    Technique::DynamicForcingChain,
    Technique::DynamicForcingChainPlus,
    Technique::Solver,
];

/// Weight of the solver's step: above every technique (Sudoku Explainer's
/// nested forcing chains start at 9.5 and its hardest known puzzles rate
/// about 11-12), so a puzzle that needs it rates at the top.
pub const SOLVER_DIFFICULTY: f32 = 11.0;

impl Technique {
    /// Its weight on Sudoku Explainer's scale, before any length bonus.
    /// SE's own values where SE has the technique (hidden single 1.2 in a
    /// box and 1.5 in a line, direct pointing 1.7, direct claiming 1.9,
    /// direct hidden pair 2.0, naked single 2.3, direct hidden triple 2.5,
    /// pointing 2.6, claiming 2.8, naked pair 3.0, X-wing 3.2, hidden pair
    /// 3.4, naked triple 3.6, swordfish 3.8, hidden triple 4.0, XY-wing 4.2,
    /// XYZ-wing 4.4, unique rectangle 4.5, naked quad 5.0, jellyfish 5.2,
    /// hidden quad 5.4, BUG 5.6, forcing X-chains 6.6, forcing chains 7.0,
    /// Nishio 7.5, multiple forcing chains 8.0, dynamic 8.5, dynamic with
    /// simple techniques 9.0). Patterns SE finds as chains weigh what that
    /// chain does: a skyscraper or kite is SE's six-link "turbot fish"
    /// X-chain (6.6), a W-wing its eight-link forcing chain (7.0 + 0.1). A
    /// finned fish is a fish whose fin makes SE fall back on a grouped
    /// chain; it sits just above the plain X-chains.
    ///
    /// The sum rules' combinations sit beside the cage's (2.4), which SE
    /// does not rate: an arrow's line is a cage whose sum its circle holds
    /// (2.4); a little killer's symbols may repeat, which takes more care
    /// (2.5); a region sum line weighs its parts against each other (2.6);
    /// a sandwich first finds where its ends can stand (2.7).
    pub fn base(self) -> f32 {
        use Technique::*;
        match self {
            FullHouse | CageFullHouse => 1.0,
            HiddenSingleBox => 1.2,
            HiddenSingleLine => 1.5,
            DirectPointing => 1.7,
            DirectClaiming => 1.9,
            DirectHiddenPair => 2.0,
            VariantRule => 2.1,
            NakedSingle => 2.3,
            CageCombination | ArrowSum => 2.4,
            DirectHiddenTriple | LittleKillerSum => 2.5,
            Pointing | Innies | RegionSumLine => 2.6,
            SandwichSum => 2.7,
            Claiming | LockedCandidates | CageLocked | RuleHouse => 2.8,
            NakedPair | InniesSum | RuleCell => 3.0,
            CageClash => 3.2,
            XWing => 3.2,
            HiddenPair => 3.4,
            NakedTriple => 3.6,
            Swordfish => 3.8,
            HiddenTriple => 4.0,
            XYWing => 4.2,
            XYZWing => 4.4,
            UniqueRectangle => 4.5,
            NakedQuad => 5.0,
            Jellyfish => 5.2,
            HiddenQuad => 5.4,
            BivalueGrave => 5.6,
            Skyscraper | TwoStringKite | TurbotFish | SimpleColouring | XChain => 6.6,
            FinnedXWing => 6.7,
            FinnedSwordfish => 6.8,
            FinnedJellyfish => 6.9,
            WWing | XYChain | AlternatingChain => 7.0,
            NishioChain => 7.5,
            CellForcingChain | RegionForcingChain => 8.0,
            DynamicForcingChain => 8.5,
            DynamicForcingChainPlus => 9.0,
            Solver => SOLVER_DIFFICULTY,
        }
    }

    /// Its name in sentences and listings.
    pub fn name(self) -> &'static str {
        use Technique::*;
        match self {
            FullHouse => "full house",
            CageFullHouse => "last cell of a cage",
            HiddenSingleBox | HiddenSingleLine => "hidden single",
            DirectPointing => "direct pointing",
            DirectClaiming => "direct claiming",
            DirectHiddenPair => "direct hidden pair",
            VariantRule => "variant rule",
            NakedSingle => "naked single",
            CageCombination => "cage combinations",
            ArrowSum => "arrow sums",
            LittleKillerSum => "little killer sums",
            RegionSumLine => "region sum line sums",
            SandwichSum => "sandwich sums",
            DirectHiddenTriple => "direct hidden triple",
            Pointing => "pointing",
            Innies => "45 rule",
            Claiming => "claiming",
            LockedCandidates => "locked candidates",
            CageLocked => "cage and house",
            RuleHouse => "house and rule",
            RuleCell => "cell and rule",
            NakedPair => "naked pair",
            InniesSum => "45 rule sum",
            CageClash => "cage combinations in a house",
            XWing => "X-wing",
            HiddenPair => "hidden pair",
            NakedTriple => "naked triple",
            Swordfish => "swordfish",
            HiddenTriple => "hidden triple",
            XYWing => "XY-wing",
            XYZWing => "XYZ-wing",
            UniqueRectangle => "unique rectangle",
            NakedQuad => "naked quad",
            Jellyfish => "jellyfish",
            HiddenQuad => "hidden quad",
            BivalueGrave => "bivalue universal grave",
            Skyscraper => "skyscraper",
            TwoStringKite => "two-string kite",
            TurbotFish => "turbot fish",
            FinnedXWing => "finned X-wing",
            FinnedSwordfish => "finned swordfish",
            FinnedJellyfish => "finned jellyfish",
            SimpleColouring => "simple colouring",
            XChain => "X-chain",
            WWing => "W-wing",
            XYChain => "XY-chain",
            AlternatingChain => "alternating inference chain",
            NishioChain => "Nishio forcing chain",
            CellForcingChain => "cell forcing chains",
            RegionForcingChain => "region forcing chains",
            DynamicForcingChain => "dynamic forcing chains",
            DynamicForcingChainPlus => "dynamic forcing chains (+)",
            Solver => "solver",
        }
    }

    /// Whether its steps weigh more than its base (chains, by length).
    pub fn varies(self) -> bool {
        use Technique::*;
        matches!(
            self,
            SimpleColouring
                | WWing
                | XChain
                | XYChain
                | AlternatingChain
                | NishioChain
                | CellForcingChain
                | RegionForcingChain
                | DynamicForcingChain
                | DynamicForcingChainPlus
        )
    }

    /// Whether the technique rests on the puzzle having one solution.
    pub fn needs_uniqueness(self) -> bool {
        matches!(self, Technique::UniqueRectangle | Technique::BivalueGrave)
    }
}

impl std::fmt::Display for Technique {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What SE adds to a chain's weight for its length: 0.1 for each step of a
/// geometric ladder (more than 4 links, 6, 8, 12, 16, 24, 32, 48...), so a
/// chain twice as long costs about 0.2 more. `links` is the number of
/// candidates along the chain besides its two ends (for a chain from a
/// candidate back to itself, its states in between).
pub fn length_bonus(links: usize) -> f32 {
    let (mut ceil, mut odd, mut added) = (4usize, false, 0.0f32);
    while links > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// One node of a chain: a candidate that is true (`on`) or false.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainNode {
    pub candidate: Candidate,
    pub on: bool,
}

/// One deduction: what it places and removes, what proves it, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub technique: Technique,
    /// Its weight on Sudoku Explainer's scale (the technique's plus any
    /// length bonus).
    pub difficulty: f32,
    /// Symbols it places.
    pub placements: Vec<Candidate>,
    /// Candidates it removes.
    pub eliminations: Vec<Candidate>,
    /// The candidates of the pattern that prove it.
    pub pattern: Vec<Candidate>,
    /// The cells of the pattern (where to look).
    pub cells: Vec<usize>,
    /// The houses the pattern lives in (where to look).
    pub houses: Vec<usize>,
    /// For chains, each chain's nodes in order (forcing chains have one per
    /// branch).
    pub chains: Vec<Vec<ChainNode>>,
    /// The variant rule the step reasons on (an index into the puzzle's
    /// rules), for the picture to highlight.
    pub rule: Option<usize>,
    /// One plain sentence naming the cells (`r1c1`, or `top-left grid, r3c7`).
    pub text: String,
}

impl Step {
    pub fn new(technique: Technique) -> Step {
        Step {
            technique,
            difficulty: technique.base(),
            placements: Vec::new(),
            eliminations: Vec::new(),
            pattern: Vec::new(),
            cells: Vec::new(),
            houses: Vec::new(),
            chains: Vec::new(),
            rule: None,
            text: String::new(),
        }
    }

    /// Whether the step changes the grid at all.
    pub fn is_progress(&self) -> bool {
        !self.placements.is_empty() || !self.eliminations.is_empty()
    }

    /// The cells of `pattern`, in first-seen order, as `cells`.
    pub(crate) fn cells_from_pattern(&mut self) {
        self.cells.clear();
        for p in &self.pattern {
            if !self.cells.contains(&p.cell) {
                self.cells.push(p.cell);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_bonus_follows_se_ladder() {
        // 4 links (a turbot fish) add nothing; then 6, 8, 12, 16, 24, 32.
        let steps: Vec<f32> = [4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25, 32, 33]
            .iter()
            .map(|&l| (length_bonus(l) * 10.0).round() / 10.0)
            .collect();
        assert_eq!(
            steps,
            [
                0.0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6, 0.6, 0.7
            ]
        );
    }

    #[test]
    fn techniques_are_listed_simplest_first() {
        for w in ALL.windows(2) {
            assert!(
                w[0].base() <= w[1].base(),
                "{} before {}",
                w[0].name(),
                w[1].name()
            );
        }
    }
}
