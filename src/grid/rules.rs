//! Variant rules: what a puzzle asks beyond its layout's houses and its
//! killer cages, as data. Each rule names its cells (cell indices of the
//! layout) or, for a rule over the whole grid, none; nothing here knows how
//! a rule is solved, drawn or explained.
//!
//! The text form is one rule a line after a line `rules:` (see
//! [`Rule::parse`] and [`Rule::to_text`]); cells are written `r3c7`, rows
//! and columns counted from 1 on the canvas, as in the hints' sentences.
//! Clues outside the grid (little killers, sandwiches) name the place of
//! their clue, one step outside the grid (`r0c3`, `r10c4`).
//!
//! [`check_rules`] rejects, before any search, what no filling can satisfy
//! or what cannot be meant (a thermometer longer than the symbols allow, a
//! dot between cells that do not touch, a sum no digits make, a clue that
//! points off the grid...), each with a message naming the rule and cells.

use super::layout::Layout;

/// Which diagonal of a square grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Diagonal {
    /// From the top-left corner to the bottom-right one (f-puzzles `diagonal-`).
    Main,
    /// From the bottom-left corner to the top-right one (f-puzzles `diagonal+`).
    Anti,
}

/// The kinds of marks between two cells whose absence can be a rule too
/// ("all dots are given").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// Kropki white dots: the two cells' digits differ by 1.
    Difference,
    /// Kropki black dots: one cell's digit is twice the other's.
    Ratio,
    /// X and V: the two cells add up to 10 or to 5.
    Xv,
}

impl Mark {
    /// The word for the mark in the text form.
    pub fn word(self) -> &'static str {
        match self {
            Mark::Difference => "white",
            Mark::Ratio => "black",
            Mark::Xv => "xv",
        }
    }
}

/// A direction from a clue outside the grid into it (little killers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    UpLeft,
    UpRight,
    DownLeft,
    DownRight,
}

impl Direction {
    /// The step (rows, columns) one cell along.
    pub fn step(self) -> (i32, i32) {
        match self {
            Direction::UpLeft => (-1, -1),
            Direction::UpRight => (-1, 1),
            Direction::DownLeft => (1, -1),
            Direction::DownRight => (1, 1),
        }
    }

    /// `ul`, `ur`, `dl`, `dr`: the text form's words (and f-puzzles', in capitals).
    pub fn word(self) -> &'static str {
        match self {
            Direction::UpLeft => "ul",
            Direction::UpRight => "ur",
            Direction::DownLeft => "dl",
            Direction::DownRight => "dr",
        }
    }

    pub fn from_word(w: &str) -> Option<Direction> {
        Some(match w.to_ascii_lowercase().as_str() {
            "ul" => Direction::UpLeft,
            "ur" => Direction::UpRight,
            "dl" => Direction::DownLeft,
            "dr" => Direction::DownRight,
            _ => return None,
        })
    }
}

/// A place on the canvas, which may lie one step outside it (a clue):
/// zero-based row and column.
pub type Place = (i32, i32);

/// One variant rule.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The symbols on a diagonal of a square grid all differ.
    Diagonal(Diagonal),
    /// An extra region (windoku, hyper, or any shaded set): its symbols
    /// all differ; with as many cells as symbols it holds each once.
    Region(Vec<u32>),
    /// Cells in the same place of their boxes hold different symbols.
    DisjointGroups,
    /// A cage without a sum: its symbols all differ.
    Distinct(Vec<u32>),
    /// The cell holds an odd symbol.
    Odd(u32),
    /// The cell holds an even symbol.
    Even(u32),
    /// Cells a chess knight's move apart hold different symbols.
    AntiKnight,
    /// Cells a chess king's move apart hold different symbols.
    AntiKing,
    /// Orthogonal neighbours do not hold consecutive symbols.
    NonConsecutive,
    /// A white dot: the two cells differ by `value` (usually 1).
    Difference { cells: [u32; 2], value: u32 },
    /// A black dot: one cell is `value` times the other (usually 2).
    Ratio { cells: [u32; 2], value: u32 },
    /// X (10) or V (5): the two cells add up to `sum`.
    Xv { cells: [u32; 2], sum: u32 },
    /// A comparison sign: the first cell is less than the second.
    Less { cells: [u32; 2] },
    /// Every such mark is given: neighbours with none do not make its
    /// relation (white: differ by 1; black: double; XV: add to 5 or 10).
    AllGiven(Mark),
    /// A thermometer from its bulb: the symbols rise strictly.
    Thermometer(Vec<u32>),
    /// An arrow: the symbols on `line` add up to the number the circle's
    /// cells make, read in order (one cell: its digit).
    Arrow { circle: Vec<u32>, line: Vec<u32> },
    /// German whispers: neighbours on the line differ by at least `gap`.
    Whispers { cells: Vec<u32>, gap: u32 },
    /// The line holds a set of consecutive symbols, in any order.
    Renban(Vec<u32>),
    /// The line reads the same from either end.
    Palindrome(Vec<u32>),
    /// The cells between the two ends lie strictly between their symbols.
    Between(Vec<u32>),
    /// The line's parts in each box (region) all add up to the same sum.
    RegionSum(Vec<u32>),
    /// A little killer: the cells on the diagonal from the clue add up to
    /// `sum` (symbols may repeat).
    LittleKiller {
        clue: Place,
        direction: Direction,
        sum: u32,
    },
    /// A sandwich: in the row or column of the clue, the symbols between
    /// the smallest and the largest add up to `sum`.
    Sandwich { clue: Place, sum: u32 },
}

/// The words of the rules over a whole grid, which name no cell: what a
/// person can give before the grid is read (`read --rules`).
pub const GRID_RULE_WORDS: &str = "diagonals, diagonal+, diagonal-, disjoint, antiknight, antiking, nonconsecutive, \
     allgiven white|black|xv";

/// Rules over the whole grid from a comma-separated list of the text
/// form's words (`diagonal+, antiking`; `diagonals` is both diagonals),
/// for any layout. A rule that names cells, or a word that is no rule,
/// is an error naming the item and its place in the list.
pub fn parse_grid_rules(list: &str) -> Result<Vec<Rule>, String> {
    let mut rules = Vec::new();
    for (i, item) in list.split(',').enumerate() {
        let item = item.trim();
        let at = || format!("rule {} (`{item}`)", i + 1);
        let parsed = if item.eq_ignore_ascii_case("diagonals") {
            vec![
                Rule::Diagonal(Diagonal::Main),
                Rule::Diagonal(Diagonal::Anti),
            ]
        } else {
            Rule::parse(item, &Layout::classic()).map_err(|(_, msg)| format!("{}: {msg}", at()))?
        };
        if parsed.is_empty() {
            return Err(format!(
                "rule {} is empty: expected one of {GRID_RULE_WORDS}",
                i + 1
            ));
        }
        for rule in parsed {
            let whole_grid = matches!(
                rule,
                Rule::Diagonal(_)
                    | Rule::DisjointGroups
                    | Rule::AntiKnight
                    | Rule::AntiKing
                    | Rule::NonConsecutive
                    | Rule::AllGiven(_)
            );
            if !whole_grid {
                return Err(format!(
                    "{}: a {} names cells, which are not known before the grid is read; \
                     expected one of {GRID_RULE_WORDS}",
                    at(),
                    rule.name()
                ));
            }
            if !rules.contains(&rule) {
                rules.push(rule);
            }
        }
    }
    Ok(rules)
}

/// A problem with a puzzle's rules, found before any search.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RuleError {
    /// The rule at fault, an index into the puzzle's rules.
    pub rule: Option<usize>,
    /// What is wrong, naming cells as `r3c7`.
    pub message: String,
}

impl Rule {
    /// The rule's name in messages and sentences ("thermometer", "arrow").
    pub fn name(&self) -> &'static str {
        match self {
            Rule::Diagonal(_) => "diagonal",
            Rule::Region(_) => "extra region",
            Rule::DisjointGroups => "disjoint groups",
            Rule::Distinct(_) => "cage",
            Rule::Odd(_) => "odd cell",
            Rule::Even(_) => "even cell",
            Rule::AntiKnight => "anti-knight",
            Rule::AntiKing => "anti-king",
            Rule::NonConsecutive => "non-consecutive",
            Rule::Difference { .. } => "white dot",
            Rule::Ratio { .. } => "black dot",
            Rule::Xv { sum: 10, .. } => "X",
            Rule::Xv { sum: 5, .. } => "V",
            Rule::Xv { .. } => "sum mark",
            Rule::Less { .. } => "comparison sign",
            Rule::AllGiven(_) => "all marks given",
            Rule::Thermometer(_) => "thermometer",
            Rule::Arrow { .. } => "arrow",
            Rule::Whispers { .. } => "whispers line",
            Rule::Renban(_) => "renban line",
            Rule::Palindrome(_) => "palindrome",
            Rule::Between(_) => "between line",
            Rule::RegionSum(_) => "region sum line",
            Rule::LittleKiller { .. } => "little killer",
            Rule::Sandwich { .. } => "sandwich",
        }
    }

    /// The cells the rule names, in its order (a line's from its start;
    /// an arrow's circle, then its line); the cells of a little killer's
    /// diagonal or a sandwich's row. Empty for rules over the whole grid.
    pub fn cells(&self, layout: &Layout) -> Vec<u32> {
        match self {
            Rule::Diagonal(d) => diagonal_cells(layout, *d),
            Rule::Region(c)
            | Rule::Distinct(c)
            | Rule::Thermometer(c)
            | Rule::Renban(c)
            | Rule::Palindrome(c)
            | Rule::Between(c)
            | Rule::RegionSum(c)
            | Rule::Whispers { cells: c, .. } => c.clone(),
            Rule::Odd(c) | Rule::Even(c) => vec![*c],
            Rule::Difference { cells, .. }
            | Rule::Ratio { cells, .. }
            | Rule::Xv { cells, .. }
            | Rule::Less { cells } => cells.to_vec(),
            Rule::Arrow { circle, line } => circle.iter().chain(line).copied().collect(),
            Rule::LittleKiller {
                clue, direction, ..
            } => ray(layout, *clue, direction.step()),
            Rule::Sandwich { clue, .. } => sandwich_cells(layout, *clue),
            Rule::DisjointGroups | Rule::AntiKnight | Rule::AntiKing | Rule::NonConsecutive => {
                Vec::new()
            }
            Rule::AllGiven(_) => Vec::new(),
        }
    }

    /// "thermometer r1c1-r1c4", "white dot r3c3-r3c4", "anti-knight": the
    /// rule as a hint's sentence names it.
    pub fn describe(&self, layout: &Layout) -> String {
        let cells = self.cells(layout);
        let name = |c: u32| layout.cell_name(c as usize);
        match self {
            Rule::LittleKiller { sum, .. } => match (cells.first(), cells.last()) {
                (Some(&a), Some(&b)) => format!("little killer {sum} on {}-{}", name(a), name(b)),
                _ => format!("little killer {sum}"),
            },
            Rule::Sandwich { clue, sum } => {
                let (r, c) = *clue;
                if c < 0 || c >= layout.width() as i32 {
                    format!("sandwich {sum} in row {}", r + 1)
                } else {
                    format!("sandwich {sum} in column {}", c + 1)
                }
            }
            Rule::Diagonal(Diagonal::Main) => "the main diagonal".into(),
            Rule::Diagonal(Diagonal::Anti) => "the anti-diagonal".into(),
            Rule::Xv { cells, sum } => format!(
                "{} ({sum}) on {}-{}",
                self.name(),
                name(cells[0]),
                name(cells[1])
            ),
            Rule::Less { cells } => format!("{} < {}", name(cells[0]), name(cells[1])),
            Rule::AllGiven(m) => format!("every {} mark given", m.word()),
            _ if cells.is_empty() => self.name().to_string(),
            _ if cells.len() == 1 => format!("{} {}", self.name(), name(cells[0])),
            _ => format!(
                "{} {}-{}",
                self.name(),
                name(cells[0]),
                name(*cells.last().expect("two cells or more"))
            ),
        }
    }

    /// The rule as one line of the text form (see [`Rule::parse`]).
    pub fn to_text(&self, layout: &Layout) -> String {
        let list = |cells: &[u32]| {
            cells
                .iter()
                .map(|&c| layout.cell_name(c as usize))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let place = |(r, c): Place| format!("r{}c{}", r + 1, c + 1);
        match self {
            Rule::Diagonal(Diagonal::Main) => "diagonal-".into(),
            Rule::Diagonal(Diagonal::Anti) => "diagonal+".into(),
            Rule::Region(c) => format!("region {}", list(c)),
            Rule::DisjointGroups => "disjoint".into(),
            Rule::Distinct(c) => format!("cage {}", list(c)),
            Rule::Odd(c) => format!("odd {}", list(&[*c])),
            Rule::Even(c) => format!("even {}", list(&[*c])),
            Rule::AntiKnight => "antiknight".into(),
            Rule::AntiKing => "antiking".into(),
            Rule::NonConsecutive => "nonconsecutive".into(),
            Rule::Difference { cells, value: 1 } => format!("white {}", list(cells)),
            Rule::Difference { cells, value } => format!("white {} {value}", list(cells)),
            Rule::Ratio { cells, value: 2 } => format!("black {}", list(cells)),
            Rule::Ratio { cells, value } => format!("black {} {value}", list(cells)),
            Rule::Xv { cells, sum: 10 } => format!("x {}", list(cells)),
            Rule::Xv { cells, sum: 5 } => format!("v {}", list(cells)),
            Rule::Xv { cells, sum } => format!("xv {} {sum}", list(cells)),
            Rule::Less { cells } => format!("less {}", list(cells)),
            Rule::AllGiven(m) => format!("allgiven {}", m.word()),
            Rule::Thermometer(c) => format!("thermo {}", list(c)),
            Rule::Arrow { circle, line } => format!("arrow {} : {}", list(circle), list(line)),
            Rule::Whispers { cells, gap } => {
                if *gap == default_gap(layout.size()) {
                    format!("whispers {}", list(cells))
                } else {
                    format!("whispers {} {gap}", list(cells))
                }
            }
            Rule::Renban(c) => format!("renban {}", list(c)),
            Rule::Palindrome(c) => format!("palindrome {}", list(c)),
            Rule::Between(c) => format!("between {}", list(c)),
            Rule::RegionSum(c) => format!("regionsum {}", list(c)),
            Rule::LittleKiller {
                clue,
                direction,
                sum,
            } => format!("littlekiller {} {} {sum}", place(*clue), direction.word()),
            Rule::Sandwich { clue, sum } => format!("sandwich {} {sum}", place(*clue)),
        }
    }

    /// Reads one line of the text form. On error, the zero-based character
    /// column of the word at fault and what is wrong.
    ///
    /// ```text
    /// diagonal+ | diagonal- | disjoint | antiknight | antiking | nonconsecutive
    /// region CELLS          cage CELLS (no sum)     odd CELLS     even CELLS
    /// white A B [DIFF]      black A B [RATIO]       x A B   v A B   xv A B SUM
    /// less A B (A < B)      allgiven white|black|xv
    /// thermo CELLS (bulb first)        arrow CIRCLE... : LINE...
    /// whispers CELLS [GAP]  renban CELLS  palindrome CELLS  between CELLS
    /// regionsum CELLS       littlekiller CLUE ul|ur|dl|dr SUM   sandwich CLUE SUM
    /// ```
    ///
    /// `odd` and `even` take several cells and give one rule per cell
    /// (hence a list).
    pub fn parse(line: &str, layout: &Layout) -> Result<Vec<Rule>, (usize, String)> {
        let words = words(line);
        let Some(&(col0, first)) = words.first() else {
            return Ok(Vec::new());
        };
        let w = RuleWords {
            layout,
            keyword: first.to_ascii_lowercase(),
            rest: &words[1..],
            end: line.len(),
        };
        let keyword = w.keyword.as_str();
        Ok(vec![match keyword {
            "diagonal+" | "diagonal-" | "disjoint" | "antiknight" | "antiking"
            | "nonconsecutive" => {
                w.no_more(w.rest)?;
                match keyword {
                    "diagonal+" => Rule::Diagonal(Diagonal::Anti),
                    "diagonal-" => Rule::Diagonal(Diagonal::Main),
                    "disjoint" => Rule::DisjointGroups,
                    "antiknight" => Rule::AntiKnight,
                    "antiking" => Rule::AntiKing,
                    _ => Rule::NonConsecutive,
                }
            }
            "region" => Rule::Region(w.line_of(1)?),
            "cage" => Rule::Distinct(w.line_of(1)?),
            "odd" | "even" => {
                let list = w.line_of(1)?;
                let odd = keyword == "odd";
                return Ok(list
                    .into_iter()
                    .map(|c| if odd { Rule::Odd(c) } else { Rule::Even(c) })
                    .collect());
            }
            "white" | "black" => w.dot()?,
            "x" | "v" => {
                let (cells, more) = w.pair("two cells")?;
                w.no_more(more)?;
                let sum = if keyword == "x" { 10 } else { 5 };
                Rule::Xv { cells, sum }
            }
            "xv" => w.xv()?,
            "less" => {
                let (cells, more) = w.pair("two cells")?;
                w.no_more(more)?;
                Rule::Less { cells }
            }
            "allgiven" => w.all_given()?,
            "thermo" | "thermometer" => Rule::Thermometer(w.line_of(2)?),
            "arrow" => w.arrow()?,
            "whispers" => w.whispers()?,
            "renban" => Rule::Renban(w.line_of(2)?),
            "palindrome" => Rule::Palindrome(w.line_of(2)?),
            "between" => Rule::Between(w.line_of(3)?),
            "regionsum" => Rule::RegionSum(w.line_of(2)?),
            "littlekiller" => w.little_killer()?,
            "sandwich" => w.sandwich()?,
            _ => {
                return Err((
                    col0,
                    format!(
                        "unknown rule `{first}`; the rules are {}",
                        RULE_WORDS.join(", ")
                    ),
                ));
            }
        }])
    }
}

/// What reading a word of a rule's line gives: on error, the zero-based
/// character column of the word at fault and what is wrong.
type WordResult<T> = Result<T, (usize, String)>;

/// A rule's line being read ([`Rule::parse`]): its keyword (lower case),
/// the words after it, and the line's length (where an error about a
/// missing word points).
struct RuleWords<'a> {
    layout: &'a Layout,
    keyword: String,
    rest: Words<'a>,
    end: usize,
}

impl<'a> RuleWords<'a> {
    /// The cell a word names (`r3c7`), which the layout has.
    fn cell(&self, &(col, w): &(usize, &str)) -> WordResult<u32> {
        let layout = self.layout;
        let (r, c) = parse_place(w).ok_or_else(|| {
            (
                col,
                format!("`{w}` is not a cell: write cells as r3c7 (row 3, column 7)"),
            )
        })?;
        if r < 0 || c < 0 {
            return Err((col, format!("{w} is outside the grid")));
        }
        layout
            .cell_at(r as usize, c as usize)
            .map(|c| c as u32)
            .ok_or_else(|| {
                (
                    col,
                    format!(
                        "{w} is not a cell of the {} layout ({} rows, {} columns)",
                        layout.name(),
                        layout.height(),
                        layout.width()
                    ),
                )
            })
    }

    fn cells(&self, ws: &[(usize, &str)]) -> WordResult<Vec<u32>> {
        ws.iter().map(|w| self.cell(w)).collect()
    }

    /// At least `k` words follow the keyword; else the rule needs `what`.
    fn at_least(&self, k: usize, what: &str) -> WordResult<()> {
        if self.rest.len() < k {
            Err((self.end, format!("`{}` needs {what}", self.keyword)))
        } else {
            Ok(())
        }
    }

    /// No word is left in `ws`.
    fn no_more(&self, ws: &[(usize, &str)]) -> WordResult<()> {
        match ws.first() {
            Some(&(col, w)) => Err((col, format!("unexpected `{w}` after `{}`", self.keyword))),
            None => Ok(()),
        }
    }

    /// Two cells first (the rule needs `what`), and the words after them.
    fn pair(&self, what: &str) -> WordResult<([u32; 2], Words<'a>)> {
        self.at_least(2, what)?;
        let rest = self.rest;
        Ok(([self.cell(&rest[0])?, self.cell(&rest[1])?], &rest[2..]))
    }

    /// A line of `min` cells or more: every word a cell.
    fn line_of(&self, min: usize) -> WordResult<Vec<u32>> {
        self.at_least(min, &format!("{min} cells or more"))?;
        self.cells(self.rest)
    }

    /// `white A B [DIFF]` or `black A B [RATIO]`.
    fn dot(&self) -> WordResult<Rule> {
        let white = self.keyword == "white";
        let (cells, more) = self.pair("two cells")?;
        let value = match more.first() {
            Some(w) => {
                self.no_more(&more[1..])?;
                number(w)?
            }
            None if white => 1,
            None => 2,
        };
        Ok(if white {
            Rule::Difference { cells, value }
        } else {
            Rule::Ratio { cells, value }
        })
    }

    /// `xv A B SUM`.
    fn xv(&self) -> WordResult<Rule> {
        let (cells, more) = self.pair("two cells and a sum")?;
        let Some(w) = more.first() else {
            return Err((self.end, "`xv` needs two cells and a sum".into()));
        };
        self.no_more(&more[1..])?;
        Ok(Rule::Xv {
            cells,
            sum: number(w)?,
        })
    }

    /// `allgiven white|black|xv`.
    fn all_given(&self) -> WordResult<Rule> {
        self.at_least(1, "white, black or xv")?;
        self.no_more(&self.rest[1..])?;
        let (col, w) = self.rest[0];
        Ok(Rule::AllGiven(match w.to_ascii_lowercase().as_str() {
            "white" => Mark::Difference,
            "black" => Mark::Ratio,
            "xv" => Mark::Xv,
            _ => return Err((col, format!("`{w}`: expected white, black or xv"))),
        }))
    }

    /// `arrow CIRCLE... : LINE...`.
    fn arrow(&self) -> WordResult<Rule> {
        let rest = self.rest;
        let Some(split) = rest.iter().position(|&(_, w)| w == ":") else {
            return Err((
                self.end,
                "an arrow is written `arrow CIRCLE : LINE` (the circle's cells, a colon, the line's cells)"
                    .into(),
            ));
        };
        let circle = self.cells(&rest[..split])?;
        let line = self.cells(&rest[split + 1..])?;
        if circle.is_empty() || line.is_empty() {
            return Err((
                rest[split].0,
                "an arrow needs a cell or more on each side of the colon".into(),
            ));
        }
        Ok(Rule::Arrow { circle, line })
    }

    /// `whispers CELLS [GAP]`.
    fn whispers(&self) -> WordResult<Rule> {
        let rest = self.rest;
        self.at_least(2, "2 cells or more")?;
        let (gap, ws) = match rest.last() {
            Some(w) if w.1.parse::<u32>().is_ok() => (number(w)?, &rest[..rest.len() - 1]),
            _ => (default_gap(self.layout.size()), rest),
        };
        // The gap is no cell: `whispers r1c1 4` is one cell, and a
        // line of one cell would be written back as a line refused.
        if ws.len() < 2 {
            return Err((
                self.end,
                format!("`{}` needs 2 cells or more", self.keyword),
            ));
        }
        Ok(Rule::Whispers {
            cells: self.cells(ws)?,
            gap,
        })
    }

    /// `littlekiller CLUE ul|ur|dl|dr SUM`.
    fn little_killer(&self) -> WordResult<Rule> {
        let rest = self.rest;
        self.at_least(3, "a clue's place, a direction (ul, ur, dl, dr) and a sum")?;
        self.no_more(&rest[3..])?;
        let (col, w) = rest[0];
        let clue = parse_place(w)
            .ok_or_else(|| (col, format!("`{w}` is not a place: write it as r0c3")))?;
        let (col, w) = rest[1];
        let direction = Direction::from_word(w)
            .ok_or_else(|| (col, format!("`{w}`: expected ul, ur, dl or dr")))?;
        Ok(Rule::LittleKiller {
            clue,
            direction,
            sum: number(&rest[2])?,
        })
    }

    /// `sandwich CLUE SUM`.
    fn sandwich(&self) -> WordResult<Rule> {
        let rest = self.rest;
        self.at_least(
            2,
            "a clue's place (r0c3 above column 3, r3c0 left of row 3) and a sum",
        )?;
        self.no_more(&rest[2..])?;
        let (col, w) = rest[0];
        let clue = parse_place(w)
            .ok_or_else(|| (col, format!("`{w}` is not a place: write it as r0c3")))?;
        Ok(Rule::Sandwich {
            clue,
            sum: number(&rest[1])?,
        })
    }
}

/// The number a word is.
fn number(&(col, w): &(usize, &str)) -> WordResult<u32> {
    w.parse::<u32>()
        .map_err(|_| (col, format!("`{w}` is not a number")))
}

impl Rule {
    /// Whether a full grid `values` (a symbol in every cell) keeps this
    /// rule, read straight from the rule's definition. "All marks given"
    /// needs the puzzle's other rules: [`rules_hold`] judges it.
    pub fn holds(&self, layout: &Layout, values: &[u8]) -> bool {
        let v = |c: u32| values[c as usize] as u32;
        let distinct = |cs: &[u32]| {
            let mut seen = 0u64;
            cs.iter().all(|&c| {
                let bit = 1u64 << v(c);
                let fresh = seen & bit == 0;
                seen |= bit;
                fresh
            })
        };
        let sum = |cs: &[u32]| cs.iter().map(|&c| v(c)).sum::<u32>();
        let pairs_apart = |steps: &[(i32, i32)], ok: &dyn Fn(u32, u32) -> bool| {
            (0..layout.cell_count()).all(|c| {
                let (r, k) = layout.position(c);
                steps.iter().all(|&(dr, dk)| {
                    let (r2, k2) = (r as i32 + dr, k as i32 + dk);
                    if r2 < 0 || k2 < 0 {
                        return true;
                    }
                    match layout.cell_at(r2 as usize, k2 as usize) {
                        Some(o) => ok(v(c as u32), v(o as u32)),
                        None => true,
                    }
                })
            })
        };
        match self {
            Rule::Diagonal(_) | Rule::Region(_) | Rule::Distinct(_) => {
                distinct(&self.cells(layout))
            }
            Rule::DisjointGroups => disjoint_groups(layout).iter().all(|g| distinct(g)),
            Rule::Odd(c) => v(*c) % 2 == 1,
            Rule::Even(c) => v(*c) % 2 == 0,
            Rule::AntiKnight => pairs_apart(&[(1, 2), (2, 1), (1, -2), (2, -1)], &|a, b| a != b),
            Rule::AntiKing => pairs_apart(&[(1, 1), (1, -1)], &|a, b| a != b),
            Rule::NonConsecutive => pairs_apart(&[(0, 1), (1, 0)], &|a, b| a.abs_diff(b) != 1),
            Rule::Difference {
                cells: [a, b],
                value,
            } => v(*a).abs_diff(v(*b)) == *value,
            Rule::Ratio {
                cells: [a, b],
                value,
            } => v(*a) * value == v(*b) || v(*b) * value == v(*a),
            Rule::Xv { cells: [a, b], sum } => v(*a) + v(*b) == *sum,
            Rule::Less { cells: [a, b] } => v(*a) < v(*b),
            // Judged against the puzzle's marks by `rules_hold`.
            Rule::AllGiven(_) => true,
            Rule::Thermometer(cs) => cs.windows(2).all(|w| v(w[0]) < v(w[1])),
            Rule::Arrow { circle, line } => {
                let number = circle.iter().fold(0u64, |n, &c| n * 10 + v(c) as u64);
                number == sum(line) as u64
            }
            Rule::Whispers { cells, gap } => {
                cells.windows(2).all(|w| v(w[0]).abs_diff(v(w[1])) >= *gap)
            }
            Rule::Renban(cs) => {
                let (lo, hi) = cs
                    .iter()
                    .fold((u32::MAX, 0), |(l, h), &c| (l.min(v(c)), h.max(v(c))));
                distinct(cs) && hi - lo + 1 == cs.len() as u32
            }
            Rule::Palindrome(cs) => (0..cs.len() / 2).all(|i| v(cs[i]) == v(cs[cs.len() - 1 - i])),
            Rule::Between(cs) if cs.len() < 2 => true,
            Rule::Between(cs) => {
                let (a, b) = (v(cs[0]), v(cs[cs.len() - 1]));
                let (lo, hi) = (a.min(b), a.max(b));
                cs[1..cs.len().saturating_sub(1)]
                    .iter()
                    .all(|&c| lo < v(c) && v(c) < hi)
            }
            Rule::RegionSum(cs) => {
                let parts = box_parts(layout, cs);
                parts.windows(2).all(|w| sum(&w[0]) == sum(&w[1]))
            }
            Rule::LittleKiller { sum: s, .. } => sum(&self.cells(layout)) == *s,
            Rule::Sandwich { sum: s, .. } => {
                let cs = self.cells(layout);
                let n = layout.size() as u32;
                let one = cs.iter().position(|&c| v(c) == 1);
                let top = cs.iter().position(|&c| v(c) == n);
                match (one, top) {
                    (Some(i), Some(j)) => sum(&cs[i.min(j) + 1..i.max(j)]) == *s,
                    _ => false,
                }
            }
        }
    }
}

/// Whether a full grid keeps every rule of `rules` ("all marks given"
/// judged against the marks among them).
pub fn rules_hold(layout: &Layout, values: &[u8], rules: &[Rule]) -> bool {
    (0..rules.len()).all(|i| rule_holds_among(layout, values, rules, i))
}

/// Whether a full grid keeps rule `i` of `rules`, the others giving the
/// marks that "all marks given" exempts.
pub fn rule_holds_among(layout: &Layout, values: &[u8], rules: &[Rule], i: usize) -> bool {
    let rule = &rules[i];
    match rule {
        Rule::AllGiven(mark) => {
            let v = |c: u32| values[c as usize] as u32;
            let marked = |a: u32, b: u32| rules.iter().any(|r| marks_pair(*mark, r, a, b));
            (0..layout.cell_count() as u32).all(|a| {
                let (r, k) = layout.position(a as usize);
                [(0, 1), (1, 0)].iter().all(|&(dr, dk)| {
                    let Some(b) = layout.cell_at(r + dr, k + dk) else {
                        return true;
                    };
                    let b = b as u32;
                    let (x, y) = (v(a), v(b));
                    let related = match mark {
                        Mark::Difference => x.abs_diff(y) == 1,
                        Mark::Ratio => x == 2 * y || y == 2 * x,
                        Mark::Xv => x + y == 5 || x + y == 10,
                    };
                    !related || marked(a, b)
                })
            })
        }
        _ => rule.holds(layout, values),
    }
}

/// Whether rule `r` is a mark between cells `a` and `b` that exempts them
/// from "all `mark` marks given": any kropki dot for the dots (a 1 and a 2
/// may carry either dot), an X or V for XV.
pub fn marks_pair(mark: Mark, r: &Rule, a: u32, b: u32) -> bool {
    let cells = match (mark, r) {
        (Mark::Difference | Mark::Ratio, Rule::Difference { cells, .. })
        | (Mark::Difference | Mark::Ratio, Rule::Ratio { cells, .. })
        | (Mark::Xv, Rule::Xv { cells, .. }) => cells,
        _ => return false,
    };
    (cells[0] == a && cells[1] == b) || (cells[0] == b && cells[1] == a)
}

/// A line cut where it passes from one box (region) into another.
pub fn box_parts(layout: &Layout, cells: &[u32]) -> Vec<Vec<u32>> {
    let box_of = |c: u32| {
        layout
            .houses_of(c as usize)
            .iter()
            .copied()
            .find(|&h| layout.houses()[h as usize].kind == super::layout::HouseKind::Box)
    };
    let mut parts: Vec<Vec<u32>> = Vec::new();
    let mut last = None;
    for &c in cells {
        let b = box_of(c);
        match parts.last_mut() {
            Some(p) if b == last => p.push(c),
            _ => parts.push(vec![c]),
        }
        last = b;
    }
    parts
}

/// The first words of the text form's rules, for messages.
pub const RULE_WORDS: &[&str] = &[
    "diagonal+",
    "diagonal-",
    "region",
    "disjoint",
    "cage",
    "odd",
    "even",
    "antiknight",
    "antiking",
    "nonconsecutive",
    "white",
    "black",
    "x",
    "v",
    "xv",
    "less",
    "allgiven",
    "thermo",
    "arrow",
    "whispers",
    "renban",
    "palindrome",
    "between",
    "regionsum",
    "littlekiller",
    "sandwich",
];

/// The words of a rule line after one, with their columns.
type Words<'a> = &'a [(usize, &'a str)];

/// German whispers' usual gap: half the symbols, rounded up (5 for 9
/// symbols, 3 for 6).
pub fn default_gap(size: usize) -> u32 {
    (size as u32).div_ceil(2)
}

/// The words of a line with their zero-based character columns; a colon
/// is a word of its own.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in line.char_indices() {
        let sep = ch.is_whitespace() || ch == ',' || ch == ':';
        if sep {
            if let Some(s) = start.take() {
                out.push((s, &line[s..i]));
            }
            if ch == ':' {
                out.push((i, ":"));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// `r3c7` (one-based, case-insensitive; `r0c3` and `r10c3` lie outside a
/// 9x9 grid) as a zero-based place.
pub fn parse_place(w: &str) -> Option<Place> {
    let w = w.to_ascii_lowercase();
    let rest = w.strip_prefix('r')?;
    let (r, c) = rest.split_once('c')?;
    let r: i32 = r.parse().ok()?;
    let c: i32 = c.parse().ok()?;
    (r <= 1000 && c <= 1000).then_some((r - 1, c - 1))
}

/// The cells of a diagonal of a square grid; empty for another layout.
pub fn diagonal_cells(layout: &Layout, d: Diagonal) -> Vec<u32> {
    if !layout.is_full() || layout.height() != layout.width() {
        return Vec::new();
    }
    let n = layout.height();
    (0..n)
        .filter_map(|i| {
            let c = match d {
                Diagonal::Main => i,
                Diagonal::Anti => n - 1 - i,
            };
            layout.cell_at(i, c).map(|c| c as u32)
        })
        .collect()
}

/// The cells met from `from` stepping by `step` (the first step taken
/// before the first cell), while on the grid.
pub fn ray(layout: &Layout, from: Place, step: (i32, i32)) -> Vec<u32> {
    let mut out = Vec::new();
    let (mut r, mut c) = (from.0 + step.0, from.1 + step.1);
    while r >= 0 && c >= 0 && (r as usize) < layout.height() && (c as usize) < layout.width() {
        match layout.cell_at(r as usize, c as usize) {
            Some(cell) => out.push(cell as u32),
            None => break,
        }
        r += step.0;
        c += step.1;
    }
    out
}

/// The row or column a sandwich clue stands at the end of, in order from
/// the clue; empty when the place is not beside the grid.
pub fn sandwich_cells(layout: &Layout, (r, c): Place) -> Vec<u32> {
    let (h, w) = (layout.height() as i32, layout.width() as i32);
    let step = if (0..h).contains(&r) && c == -1 {
        (0, 1)
    } else if (0..h).contains(&r) && c == w {
        (0, -1)
    } else if (0..w).contains(&c) && r == -1 {
        (1, 0)
    } else if (0..w).contains(&c) && r == h {
        (-1, 0)
    } else {
        return Vec::new();
    };
    ray(layout, (r, c), step)
}

/// The side of the grid windoku's windows fit: a 9x9.
pub const WINDOKU_SIDE: usize = 9;

/// The side of a windoku window, in cells.
pub const WINDOW_SIDE: usize = 3;

/// The first row (and column) of each window, counted from 0: the
/// windows cover rows and columns 2-4 and 6-8 (counted from 1).
pub const WINDOW_STARTS: [usize; 2] = [1, 5];

/// The four windows of windoku, each as its cells in reading order, top
/// row first; empty on any layout but a full 9x9.
pub fn windoku_windows(layout: &Layout) -> Vec<Vec<u32>> {
    if !layout.is_full() || layout.height() != WINDOKU_SIDE || layout.width() != WINDOKU_SIDE {
        return Vec::new();
    }
    let mut windows = Vec::new();
    for top in WINDOW_STARTS {
        for left in WINDOW_STARTS {
            windows.push(
                (top..top + WINDOW_SIDE)
                    .flat_map(|r| (left..left + WINDOW_SIDE).map(move |c| (r, c)))
                    .filter_map(|(r, c)| layout.cell_at(r, c))
                    .map(|c| c as u32)
                    .collect(),
            );
        }
    }
    windows
}

/// Cells in the same place of their boxes, one group per place; empty for a
/// layout without rectangular boxes.
pub fn disjoint_groups(layout: &Layout) -> Vec<Vec<u32>> {
    let Some((bh, bw)) = layout.box_shape() else {
        return Vec::new();
    };
    if !layout.is_full() || !layout.regions().is_empty() {
        return Vec::new();
    }
    let mut groups = vec![Vec::new(); bh * bw];
    for cell in 0..layout.cell_count() {
        let (r, c) = layout.position(cell);
        groups[(r % bh) * bw + c % bw].push(cell as u32);
    }
    groups
}

/// Whether two cells share an edge.
pub fn orthogonal(layout: &Layout, a: u32, b: u32) -> bool {
    let (ra, ca) = layout.position(a as usize);
    let (rb, cb) = layout.position(b as usize);
    ra.abs_diff(rb) + ca.abs_diff(cb) == 1
}

/// Whether two cells touch, at an edge or a corner.
pub fn touching(layout: &Layout, a: u32, b: u32) -> bool {
    let (ra, ca) = layout.position(a as usize);
    let (rb, cb) = layout.position(b as usize);
    a != b && ra.abs_diff(rb) <= 1 && ca.abs_diff(cb) <= 1
}

/// Checks `rules` on `layout` with the givens `values` (0 = empty) before
/// any search: each rule on a layout it can apply to, with cells that form
/// what it needs, and with numbers that some symbols can make.
pub fn check_rules(layout: &Layout, values: &[u8], rules: &[Rule]) -> Result<(), RuleError> {
    for (i, rule) in rules.iter().enumerate() {
        check_rule(layout, values, rule).map_err(|message| RuleError {
            rule: Some(i),
            message: format!("{}: {message}", rule.describe(layout)),
        })?;
    }
    Ok(())
}

/// What is wrong with one rule, if anything: the checks of
/// [`check_rules`], in order.
fn check_rule(layout: &Layout, values: &[u8], rule: &Rule) -> Result<(), String> {
    let cells = rule.cells(layout);
    check_line_length(rule, &cells)?;
    check_cells(layout, values, rule)?;
    check_numbers(layout, rule, &cells)
}

/// The first cell `cs` lists twice.
fn first_repeat(cs: &[u32]) -> Option<u32> {
    cs.iter()
        .enumerate()
        .find(|&(j, c)| cs[..j].contains(c))
        .map(|(_, &c)| c)
}

/// A rule that lists cells lists some (`cells`), and a line has as many as
/// it needs.
fn check_line_length(rule: &Rule, cells: &[u32]) -> Result<(), String> {
    let listed = matches!(
        rule,
        Rule::Thermometer(_)
            | Rule::Renban(_)
            | Rule::Palindrome(_)
            | Rule::RegionSum(_)
            | Rule::Region(_)
            | Rule::Distinct(_)
            | Rule::Whispers { .. }
    );
    if listed && cells.is_empty() {
        return Err("has no cells".into());
    }
    // The fewest cells of a line, as the text form asks (f-puzzles
    // draws lines of one cell too, which that form cannot write).
    let line = match rule {
        Rule::Thermometer(c)
        | Rule::Renban(c)
        | Rule::Palindrome(c)
        | Rule::RegionSum(c)
        | Rule::Whispers { cells: c, .. } => Some((c, 2)),
        Rule::Between(c) => Some((c, 3)),
        _ => None,
    };
    if let Some((c, fewest)) = line
        && c.len() < fewest
    {
        return Err(format!(
            "a line of {} cell{} is too short: it needs {fewest} cells or more",
            c.len(),
            if c.len() == 1 { "" } else { "s" }
        ));
    }
    Ok(())
}

/// The rule fits the layout, its cells form what it needs, and the givens
/// (`values`) keep it.
fn check_cells(layout: &Layout, values: &[u8], rule: &Rule) -> Result<(), String> {
    let n = layout.size() as u32;
    let square = layout.is_full() && layout.height() == layout.width();
    let name = |c: u32| layout.cell_name(c as usize);
    match rule {
        Rule::Diagonal(_) | Rule::Sandwich { .. } if !square => {
            return Err(format!(
                "needs a square grid, and the {} layout is not one",
                layout.name()
            ));
        }
        Rule::DisjointGroups if disjoint_groups(layout).is_empty() => {
            return Err(format!(
                "needs a square grid with rectangular boxes, and the {} layout is not one",
                layout.name()
            ));
        }
        Rule::Region(c) | Rule::Distinct(c) => {
            if c.len() > n as usize {
                return Err(format!(
                    "{} cells cannot all differ with {n} symbols",
                    c.len()
                ));
            }
            if let Some(c) = first_repeat(c) {
                return Err(format!("lists {} twice", name(c)));
            }
        }
        Rule::Odd(c) | Rule::Even(c) => {
            let v = values[*c as usize] as u32;
            let odd = matches!(rule, Rule::Odd(_));
            if v != 0 && (v % 2 == 1) != odd {
                return Err(format!(
                    "the given {v} in {} is not {}",
                    name(*c),
                    if odd { "odd" } else { "even" }
                ));
            }
        }
        Rule::Difference { cells: [a, b], .. }
        | Rule::Ratio { cells: [a, b], .. }
        | Rule::Xv { cells: [a, b], .. }
            if !orthogonal(layout, *a, *b) =>
        {
            return Err(format!(
                "{} and {} do not share an edge; a mark stands between two neighbours",
                name(*a),
                name(*b)
            ));
        }
        Rule::Less { cells: [a, b] } if a == b => {
            return Err(format!("compares {} with itself", name(*a)));
        }
        _ => {}
    }
    Ok(())
}

/// The rule's numbers are ones that some symbols make (`cells`: the cells
/// it covers).
fn check_numbers(layout: &Layout, rule: &Rule, cells: &[u32]) -> Result<(), String> {
    let n = layout.size() as u32;
    let name = |c: u32| layout.cell_name(c as usize);
    // Numbers that no symbols make.
    match rule {
        Rule::Difference { value, .. } if *value == 0 || *value >= n => {
            return Err(format!("no two symbols 1-{n} differ by {value}"));
        }
        Rule::Ratio { value, .. } if *value < 2 || *value > n => {
            return Err(format!(
                "no two different symbols 1-{n} make the ratio {value}"
            ));
        }
        Rule::Xv { sum, .. } if *sum < 3 || *sum > 2 * n - 1 => {
            return Err(format!("no two different symbols 1-{n} add up to {sum}"));
        }
        Rule::Whispers { gap, .. } if *gap == 0 || *gap >= n => {
            return Err(format!("no two symbols 1-{n} differ by {gap} or more"));
        }
        Rule::Sandwich { sum, .. } => {
            let max = (n.saturating_sub(2)) * (n + 1) / 2;
            if *sum > max {
                return Err(format!(
                    "the symbols between 1 and {n} add up to {max} at most, not {sum}"
                ));
            }
            if cells.is_empty() {
                return Err(
                    "its clue is not beside the grid: a sandwich clue stands just left or right of a row, or just above or below a column"
                        .into(),
                );
            }
        }
        Rule::LittleKiller { clue, sum, .. } => check_little_killer(layout, *clue, *sum, cells)?,
        Rule::Thermometer(c) => {
            if c.len() > n as usize {
                return Err(format!(
                    "{} cells cannot rise strictly with {n} symbols",
                    c.len()
                ));
            }
            if let Some(c) = first_repeat(c) {
                return Err(format!("passes {} twice", name(c)));
            }
        }
        Rule::Renban(c) => {
            if c.len() > n as usize {
                return Err(format!(
                    "{} cells cannot hold different consecutive symbols with {n} symbols",
                    c.len()
                ));
            }
            if let Some(c) = first_repeat(c) {
                return Err(format!("passes {} twice", name(c)));
            }
        }
        Rule::Between(c) if c.len() < 2 || c.first() == c.last() => {
            return Err("needs two different cells for its ends".into());
        }
        Rule::Arrow { circle, line } => check_arrow(n, circle, line)?,
        _ => {}
    }
    Ok(())
}

/// A little killer at `clue` points into the grid from outside it, and its
/// `sum` is one its `cells` can make.
fn check_little_killer(
    layout: &Layout,
    clue: Place,
    sum: u32,
    cells: &[u32],
) -> Result<(), String> {
    let n = layout.size() as u32;
    if cells.is_empty() {
        return Err("points off the grid: its diagonal meets no cell".into());
    }
    let (r, c) = clue;
    if layout.is_cell(r as isize, c as isize) {
        return Err(format!(
            "its clue r{}c{} is a cell of the grid; a little killer's clue stands outside it",
            r + 1,
            c + 1
        ));
    }
    let len = cells.len() as u32;
    if sum < len || sum > len * n {
        return Err(format!(
            "{len} cells add up to between {len} and {}, not {sum}",
            len * n
        ));
    }
    Ok(())
}

/// An arrow's circle and line share no cell, and its circle (with `n`
/// symbols) can hold the least sum of its line.
fn check_arrow(n: u32, circle: &[u32], line: &[u32]) -> Result<(), String> {
    if circle.iter().any(|c| line.contains(c)) {
        return Err("a cell of its circle is on its line too".into());
    }
    // The circle's number is at most n (one cell) or the largest
    // number of its digits; the line's sum at least its length.
    let most = if circle.len() == 1 {
        n as u64
    } else {
        (0..circle.len()).fold(0u64, |m, _| m.saturating_mul(10).saturating_add(9))
    };
    if line.len() as u64 > most {
        return Err(format!(
            "its {} cells add up to at least {}, more than its circle can hold",
            line.len(),
            line.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse1(line: &str) -> Rule {
        let l = Layout::classic();
        let mut r = Rule::parse(line, &l).expect("parses");
        assert_eq!(r.len(), 1, "{line}");
        r.remove(0)
    }

    #[test]
    fn grid_rules_are_read_from_a_list_and_rules_with_cells_are_refused() {
        assert_eq!(
            parse_grid_rules("antiking, diagonals,diagonal+").unwrap(),
            vec![
                Rule::AntiKing,
                Rule::Diagonal(Diagonal::Main),
                Rule::Diagonal(Diagonal::Anti),
            ]
        );
        assert_eq!(
            parse_grid_rules("allgiven white").unwrap(),
            vec![Rule::AllGiven(Mark::Difference)]
        );
        let e = parse_grid_rules("antiking,thermo r1c1 r1c2").unwrap_err();
        assert!(
            e.starts_with("rule 2 (`thermo r1c1 r1c2`): a thermometer names cells"),
            "{e}"
        );
        let e = parse_grid_rules("antiking,,").unwrap_err();
        assert!(e.starts_with("rule 2 is empty"), "{e}");
        let e = parse_grid_rules("kings").unwrap_err();
        assert!(e.starts_with("rule 1 (`kings`)"), "{e}");
    }

    #[test]
    fn every_rule_writes_and_reads_back() {
        let l = Layout::classic();
        for line in [
            "diagonal+",
            "diagonal-",
            "region r2c2 r2c3 r3c2",
            "disjoint",
            "cage r1c1 r1c2",
            "odd r1c1",
            "even r9c9",
            "antiknight",
            "antiking",
            "nonconsecutive",
            "white r1c1 r1c2",
            "white r1c1 r1c2 3",
            "black r1c1 r2c1",
            "black r1c1 r2c1 3",
            "x r1c1 r1c2",
            "v r1c1 r1c2",
            "less r1c1 r1c2",
            "allgiven white",
            "allgiven xv",
            "thermo r1c1 r1c2 r1c3",
            "arrow r1c1 : r1c2 r1c3",
            "arrow r1c1 r1c2 : r2c2 r3c3 r4c4",
            "whispers r1c1 r2c2 r3c3",
            "whispers r1c1 r2c2 4",
            "renban r1c1 r1c2",
            "palindrome r1c1 r1c2 r1c3",
            "between r1c1 r1c2 r1c3",
            "regionsum r1c3 r1c4",
            "littlekiller r0c3 dl 14",
            "sandwich r0c1 8",
            "sandwich r4c0 0",
        ] {
            let r = parse1(line);
            assert_eq!(r.to_text(&l), line);
            assert_eq!(Rule::parse(&r.to_text(&l), &l).unwrap(), vec![r]);
        }
    }

    #[test]
    fn bad_lines_name_the_word_at_fault() {
        let l = Layout::classic();
        let e = Rule::parse("thermo r1c1 r1c10", &l).unwrap_err();
        assert_eq!(e.0, 12);
        assert!(e.1.contains("r1c10 is not a cell"), "{}", e.1);
        let e = Rule::parse("thermos r1c1", &l).unwrap_err();
        assert_eq!(e.0, 0);
        assert!(e.1.contains("unknown rule `thermos`"), "{}", e.1);
        let e = Rule::parse("arrow r1c1 r1c2", &l).unwrap_err();
        assert!(e.1.contains("colon"), "{}", e.1);
        let e = Rule::parse("white r1c1 rxc2", &l).unwrap_err();
        assert_eq!(e.0, 11);
        let e = Rule::parse("antiknight r1c1", &l).unwrap_err();
        assert!(e.1.contains("unexpected `r1c1`"), "{}", e.1);
        assert_eq!(Rule::parse("odd r1c1 r1c3", &l).unwrap().len(), 2);
        // A whispers' gap is not one of its two cells (found by fuzzing:
        // the line of one cell was written back as a line refused).
        let e = Rule::parse("whispers r1c1 4", &l).unwrap_err();
        assert!(e.1.contains("2 cells or more"), "{}", e.1);
    }

    const WITH_RULES: &str = "\
.........
.........
.........
.........
.........
.........
.........
.........
.........

rules:
diagonal+
thermo r1c1 r1c2 r1c3
arrow r5c5 : r5c6 r6c6
white r9c1 r9c2
black r8c1 r8c2
x r2c2 r2c3
v r3c2 r3c3
allgiven white
odd r4c4
even r4c5
whispers r7c7 r7c8 r7c9
renban r6c1 r6c2
palindrome r1c9 r2c9 r3c9
between r4c7 r4c8 r4c9
regionsum r3c3 r3c4
littlekiller r0c3 dl 14
sandwich r0c1 8
antiknight
region r1c5 r2c5 r3c5
cage r9c8 r9c9
";

    fn single(text: &str) -> crate::grid::Puzzle {
        match crate::grid::parse(text, "t.txt", None).unwrap() {
            crate::grid::Document::Single(p) => p,
            crate::grid::Document::Batch(_) => panic!("one puzzle"),
        }
    }

    #[test]
    fn a_puzzle_with_rules_reads_and_writes_back_in_every_form() {
        let p = single(WITH_RULES);
        assert_eq!(p.rules().len(), 20);
        assert_eq!(p.to_text(), WITH_RULES);
        // JSON: the same rules as strings.
        let json = crate::grid::json::to_json(&p).to_string();
        assert!(json.contains("\"thermo r1c1 r1c2 r1c3\""), "{json}");
        assert_eq!(single(&json).rules(), p.rules());
        // f-puzzles: every rule under its own key, and back.
        let link = crate::grid::fpuzzles::to_link(&p, None).unwrap();
        let back = crate::grid::fpuzzles::from_link(&link, "link").unwrap();
        let mut want: Vec<String> = p.rules().iter().map(|r| r.to_text(p.layout())).collect();
        let mut got: Vec<String> = back.rules().iter().map(|r| r.to_text(p.layout())).collect();
        want.sort();
        got.sort();
        assert_eq!(got, want);
    }

    #[test]
    fn a_bad_rule_line_is_named_by_line_and_column() {
        let text = WITH_RULES.replace("odd r4c4", "odd r4c44");
        let e = crate::grid::parse(&text, "t.txt", None).unwrap_err();
        assert_eq!((e.line, e.column), (20, 5), "{e}");
        assert!(e.message.contains("r4c44 is not a cell"), "{e}");
    }

    #[test]
    fn a_rule_the_checks_refuse_is_named_by_its_line() {
        // A sandwich clue inside the grid parses as a place, but no
        // sandwich stands there: refused with its line, as the JSON form
        // refuses it (found by fuzzing: the text read, its JSON did not).
        let text = WITH_RULES.replace("sandwich r0c1 8", "  sandwich r5c3 15");
        let e = crate::grid::parse(&text, "t.txt", None).unwrap_err();
        assert_eq!((e.line, e.column), (28, 3), "{e}");
        assert!(e.message.contains("not beside the grid"), "{e}");
        // A given that breaks a rule, too.
        let text = WITH_RULES.replacen(".........", "...2.....", 4);
        let text = text.replacen("...2.....", ".........", 3);
        let e = crate::grid::parse(&text, "t.txt", None).unwrap_err();
        assert_eq!(e.line, 20, "{e}");
        assert!(e.message.contains("is not odd"), "{e}");
    }

    #[test]
    fn a_line_too_short_for_the_text_form_is_refused_from_f_puzzles() {
        // f-puzzles may hold a palindrome of one cell; the text form needs
        // two, so such a puzzle could not be written back (found by
        // fuzzing). Every reader refuses it before search.
        let mut grid = vec![vec![serde_json::json!({}); 9]; 9];
        grid[0][0] = serde_json::json!({"value": 1, "given": true});
        for (key, cells) in [
            ("palindrome", vec!["R2C3"]),
            ("renban", vec!["R2C3"]),
            ("thermometer", vec!["R2C3"]),
            ("betweenline", vec!["R2C3", "R2C4"]),
        ] {
            let v = serde_json::json!({"size": 9, "grid": grid, key: [{"lines": [cells]}]});
            let e = crate::grid::fpuzzles::from_fpuzzles(&v, "f.json").unwrap_err();
            assert!(e.message.contains("too short"), "{key}: {e}");
        }
        let ok = serde_json::json!({"size": 9, "grid": grid, "palindrome": [{"lines": [["R2C3", "R2C4"]]}]});
        assert!(crate::grid::fpuzzles::from_fpuzzles(&ok, "f.json").is_ok());
    }

    #[test]
    fn an_unknown_f_puzzles_key_is_refused_by_name() {
        let v: serde_json::Value = serde_json::json!({
            "size": 9,
            "grid": vec![vec![serde_json::json!({}); 9]; 9],
            "clone": [{"cells": ["R1C1"], "cloneCells": ["R9C9"]}],
        });
        let e = crate::grid::fpuzzles::from_fpuzzles(&v, "f.json").unwrap_err();
        assert!(e.message.contains("\"clone\""), "{e}");
    }

    #[test]
    fn little_killer_and_sandwich_cells() {
        let l = Layout::classic();
        let lk = parse1("littlekiller r0c3 dl 14");
        let names: Vec<String> = lk
            .cells(&l)
            .iter()
            .map(|&c| l.cell_name(c as usize))
            .collect();
        assert_eq!(names, ["r1c2", "r2c1"]);
        let s = parse1("sandwich r10c2 8");
        assert_eq!(s.cells(&l).len(), 9);
        assert_eq!(s.cells(&l)[0], l.cell_at(8, 1).unwrap() as u32);
        assert!(parse1("sandwich r0c0 8").cells(&l).is_empty());
    }

    #[test]
    fn what_no_symbols_can_make_is_refused_before_search() {
        let l = Layout::classic();
        let values = vec![0u8; 81];
        let check = |line: &str| {
            let rules = Rule::parse(line, &l).unwrap();
            check_rules(&l, &values, &rules).map_err(|e| e.message)
        };
        let thermo = "thermo r1c1 r1c2 r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9 r2c9";
        assert!(check(thermo).unwrap_err().contains("10 cells cannot rise"));
        assert!(
            check("black r1c1 r1c2 10")
                .unwrap_err()
                .contains("ratio 10")
        );
        assert!(
            check("xv r1c1 r1c2 18")
                .unwrap_err()
                .contains("add up to 18")
        );
        assert!(
            check("white r1c1 r2c2")
                .unwrap_err()
                .contains("do not share an edge")
        );
        assert!(
            check("sandwich r0c1 36")
                .unwrap_err()
                .contains("35 at most")
        );
        assert!(check("sandwich r0c1 35").is_ok());
        assert!(
            check("littlekiller r0c9 ur 5")
                .unwrap_err()
                .contains("points off the grid")
        );
        assert!(
            check("littlekiller r1c1 dr 5")
                .unwrap_err()
                .contains("is a cell of the grid")
        );
        assert!(check("arrow r1c1 : r1c2 r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9 r2c9 r3c9").is_err());
        assert!(
            check("arrow r1c1 r2c1 : r1c2 r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9 r2c9 r3c9").is_ok()
        );
        let mut given = values.clone();
        given[0] = 4;
        let rules = Rule::parse("odd r1c1", &l).unwrap();
        let e = check_rules(&l, &given, &rules).unwrap_err();
        assert!(
            e.message.contains("the given 4 in r1c1 is not odd"),
            "{}",
            e.message
        );
        // Lines as an f-puzzles file may hold them, too short to mean anything.
        for short in [Rule::Between(vec![0]), Rule::Thermometer(vec![])] {
            let e = check_rules(&l, &values, &[short]).unwrap_err();
            assert!(e.message.contains("cells"), "{}", e.message);
        }
        let six = Layout::square(6).unwrap();
        let rules = Rule::parse("sandwich r0c1 15", &six).unwrap();
        assert!(check_rules(&six, &[0; 36], &rules).is_err());
        let samurai = Layout::samurai();
        let rules = Rule::parse("diagonal+", &samurai).unwrap();
        assert!(check_rules(&samurai, &vec![0; samurai.cell_count()], &rules).is_err());
    }
}
