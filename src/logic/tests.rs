//! The engine on whole puzzles: every bundled sample explained to the end,
//! each step checked against the solution.

use std::path::Path;

use super::*;
use crate::grid::{Document, parse};

fn sample(name: &str) -> (Puzzle, Vec<u8>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/puzzles");
    let read = |file: &str| {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        match parse(&text, file, None).unwrap() {
            Document::Single(p) => p,
            Document::Batch(_) => panic!("{file} holds one puzzle"),
        }
    };
    let puzzle = read(&format!("{name}.txt"));
    let solution = read(&format!("{name}.solution.txt"));
    let layout = puzzle.layout().clone();
    let solution = Puzzle::empty(layout).with_values(solution.values().to_vec());
    (puzzle, solution.values().to_vec())
}

/// The samples of `samples/puzzles/FOLDER` with a solution beside them,
/// by name, sorted.
fn sample_names(folder: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples/puzzles")
        .join(folder);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            n.strip_suffix(".solution.txt").map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

/// Checks every step of a path against the solution, and that the path ends
/// in it.
pub(crate) fn check_path(
    values: &[u8],
    path: &Explanation,
    solution: &[u8],
    houses: &Arc<HouseIndex>,
) {
    let mut g = Candidates::new(houses.clone(), values);
    for (i, st) in path.steps.iter().enumerate() {
        assert!(
            st.is_progress(),
            "step {i} ({}) changes nothing",
            st.technique
        );
        for p in &st.placements {
            assert_eq!(
                solution[p.cell],
                p.digit,
                "step {i} ({}) places {} in {}: {}",
                st.technique,
                p.digit,
                houses.cell_name(p.cell),
                st.text
            );
        }
        for e in &st.eliminations {
            assert_ne!(
                solution[e.cell],
                e.digit,
                "step {i} ({}) removes the solution's {} from {}: {}",
                st.technique,
                e.digit,
                houses.cell_name(e.cell),
                st.text
            );
            assert!(
                g.has(e.cell, e.digit),
                "step {i} removes a missing candidate"
            );
        }
        assert!(
            !st.text.is_empty(),
            "step {i} ({}) has no sentence",
            st.technique
        );
        apply(&mut g, st);
    }
    assert_eq!(g.values(), solution, "the path ends in the solution");
}

#[test]
fn every_sample_is_explained_to_the_end_and_every_step_is_true() {
    let names = sample_names("");
    assert!(names.len() >= 10, "{names:?}");
    for name in names {
        let (puzzle, solution) = sample(&name);
        let path = explain(&puzzle).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut logic = Logic::for_puzzle(&puzzle).unwrap();
        check_path(puzzle.values(), &path, &solution, logic.houses());
        let rating = logic
            .rate(
                puzzle.values(),
                &Options {
                    unique: true,
                    ..Options::default()
                },
            )
            .unwrap();
        assert_eq!(rating.difficulty, path.rating.difficulty, "{name}");
        eprintln!(
            "{name}: {} steps, rating {:.1} {}, {:?}",
            path.steps.len(),
            rating.difficulty,
            rating.level,
            rating.counts
        );
    }
}

#[test]
fn cages_turn_off_uniqueness_and_need_their_engine() {
    let (puzzle, solution) = sample("killer");
    assert!(!puzzle.cages().is_empty());
    let mut logic = Logic::for_puzzle(&puzzle).unwrap();
    let opts = logic.options(&puzzle).unwrap();
    // One solution with the cages, but a unique rectangle on the houses
    // alone could be what a cage rules out.
    assert!(!opts.unique);
    // An empty killer: the first hint comes from the cages, not the solver.
    let st = logic.hint(puzzle.values(), &opts).unwrap();
    assert_ne!(st.technique, Technique::Solver, "{}", st.text);
    for p in &st.placements {
        assert_eq!(solution[p.cell], p.digit);
    }
    for e in &st.eliminations {
        assert_ne!(solution[e.cell], e.digit);
    }
    // An engine without the cages refuses the puzzle rather than answer
    // for other rules.
    let mut plain = Logic::new(puzzle.layout().clone());
    assert!(matches!(
        plain.options(&puzzle),
        Err(LogicError::Values(m)) if m.contains("cages")
    ));
}

/// The techniques a path used, by name, for messages.
fn used(path: &Explanation) -> String {
    let v: Vec<String> = path
        .rating
        .counts
        .iter()
        .map(|(t, n)| format!("{t} x{n}"))
        .collect();
    v.join(", ")
}

#[test]
fn the_sample_killer_is_explained_by_its_cages_without_the_solver() {
    let (puzzle, solution) = sample("killer");
    let path = explain(&puzzle).unwrap();
    let mut logic = Logic::for_puzzle(&puzzle).unwrap();
    check_path(puzzle.values(), &path, &solution, logic.houses());
    assert!(
        path.steps.iter().all(|s| s.technique != Technique::Solver),
        "{}",
        used(&path)
    );
    let cage_steps = path
        .steps
        .iter()
        .filter(|s| {
            matches!(
                s.technique,
                Technique::CageCombination
                    | Technique::Innies
                    | Technique::InniesSum
                    | Technique::CageLocked
            )
        })
        .count();
    assert!(cage_steps > 0, "{}", used(&path));
    assert!(
        path.rating.difficulty < SOLVER_DIFFICULTY,
        "{}",
        used(&path)
    );
    let opts = logic.options(&puzzle).unwrap();
    let rating = logic.rate(puzzle.values(), &opts).unwrap();
    assert_eq!(rating.difficulty, path.rating.difficulty);
}

#[test]
fn generated_killers_are_explained_without_the_solver_and_every_step_is_true() {
    let layout = Arc::new(Layout::classic());
    let mut solver_steps = 0;
    for seed in 1..=6 {
        let (solution, cages) = crate::solve::generate::killer(&layout, 4, seed);
        let puzzle = Puzzle::empty(layout.clone()).with_cages(cages).unwrap();
        let path = explain(&puzzle).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let logic = Logic::for_puzzle(&puzzle).unwrap();
        check_path(puzzle.values(), &path, &solution, logic.houses());
        solver_steps += path
            .steps
            .iter()
            .filter(|s| s.technique == Technique::Solver)
            .count();
        eprintln!(
            "seed {seed}: {} steps, rating {:.1}, {}",
            path.steps.len(),
            path.rating.difficulty,
            used(&path)
        );
    }
    assert_eq!(solver_steps, 0);
}

/// An X-sudoku and a windoku made from seeds: full grids that keep the
/// rules, thinned while the solution stays one.
fn generated_with_houses(rules: &[crate::grid::Rule], seed: u64) -> (Puzzle, Vec<u8>) {
    let layout = Arc::new(Layout::classic());
    let mut solver = SudokuSolver::with_rules(layout.clone(), &[], rules).unwrap();
    let solution = crate::solve::generate::full_grid(&mut solver, seed);
    // Down to 24 givens: puzzles that need a few techniques beyond the
    // singles but not the slow chains (the test runs in a debug build).
    let values = crate::solve::generate::thin(&mut solver, &solution, 24, seed);
    let puzzle = Puzzle::empty(layout)
        .with_values(values)
        .with_rules(rules.to_vec());
    (puzzle, solution)
}

fn windows() -> Vec<crate::grid::Rule> {
    crate::grid::windoku_windows(&Layout::classic())
        .into_iter()
        .map(crate::grid::Rule::Region)
        .collect()
}

#[test]
fn diagonals_and_windows_are_houses_every_technique_uses() {
    use crate::grid::{Diagonal, Rule};
    let x = vec![
        Rule::Diagonal(Diagonal::Main),
        Rule::Diagonal(Diagonal::Anti),
    ];
    for (rules, name, houses) in [(x, "diagonal", 29), (windows(), "extra region", 31)] {
        let mut named = 0;
        for seed in 1..=3 {
            let (puzzle, solution) = generated_with_houses(&rules, seed);
            let mut logic = Logic::for_puzzle(&puzzle).unwrap();
            assert_eq!(logic.houses().house_count(), houses);
            assert_eq!(logic.layout().houses().len(), 27);
            let path = explain(&puzzle).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            check_path(puzzle.values(), &path, &solution, logic.houses());
            // The rule's house shows up in the sentences of the steps that
            // rest on it (a single, a subset, a pointing pair...).
            named += path.steps.iter().filter(|s| s.text.contains(name)).count();
            assert!(
                path.steps
                    .iter()
                    .all(|s| s.technique != Technique::VariantRule),
                "a house is reasoned on by the techniques: {}",
                used(&path)
            );
            let opts = logic.options(&puzzle).unwrap();
            assert!(!opts.unique, "uniqueness techniques stay off with rules");
            eprintln!(
                "{name} seed {seed}: {} givens, {} steps, rating {:.1}, {}",
                puzzle.values().iter().filter(|&&v| v != 0).count(),
                path.steps.len(),
                path.rating.difficulty,
                used(&path)
            );
        }
        assert!(named > 0, "no step named a {name}");
    }
}

#[test]
fn a_diagonal_is_named_as_a_house_and_its_repeats_are_refused() {
    use crate::grid::{Diagonal, Rule};
    let layout = Arc::new(Layout::classic());
    let mut values = vec![0u8; 81];
    values[0] = 5;
    values[80] = 5;
    let puzzle = Puzzle::empty(layout)
        .with_values(values)
        .with_rules(vec![Rule::Diagonal(Diagonal::Main)]);
    let logic = Logic::for_puzzle(&puzzle).unwrap();
    let houses = logic.houses();
    // The candidates views build their house index from the same houses.
    let rule_layout = crate::solve::houses_layout(puzzle.layout(), puzzle.rules());
    assert_eq!(*rule_layout, **houses.layout());
    assert_eq!(rule_layout.houses().len(), 28);
    let mut one = vec![0u8; 81];
    one[0] = 5;
    let marks = pencil_marks(&HouseIndex::new(rule_layout), &one, &[]);
    assert_eq!(
        marks[80] & 1 << 4,
        0,
        "r9c9 sees the 5 in r1c1 on the diagonal"
    );
    assert_ne!(marks[79] & 1 << 4, 0, "r9c8 does not");
    assert_eq!(houses.house_name(27), "the main diagonal");
    assert_eq!(houses.houses_name(&[27, 0]), "the main diagonal and row 1");
    match logic.candidates(puzzle.values()) {
        Err(LogicError::Conflict { house, .. }) => assert_eq!(house, "the main diagonal"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn options_name_a_repeat_on_a_diagonal() {
    use crate::grid::{Diagonal, Rule};
    let mut values = vec![0u8; 81];
    values[0] = 5;
    values[80] = 5;
    let puzzle = Puzzle::empty(Arc::new(Layout::classic()))
        .with_values(values)
        .with_rules(vec![Rule::Diagonal(Diagonal::Main)]);
    let mut logic = Logic::for_puzzle(&puzzle).unwrap();
    match logic.options(&puzzle) {
        Err(LogicError::Conflict { house, .. }) => assert_eq!(house, "the main diagonal"),
        other => panic!("{other:?}"),
    }
}

/// The variant samples (one a family of rules, made by `make_samples`):
/// every step of every path true, each path ending in the solution.
#[test]
fn every_variant_sample_is_explained_to_the_end_and_every_step_is_true() {
    let names = sample_names("variants");
    assert!(
        names.len() >= crate::solve::generate::FAMILIES.len(),
        "{names:?}"
    );
    let mut by_logic = Vec::new();
    let names_count = names.len();
    for name in names {
        let (puzzle, solution) = sample(&format!("variants/{name}"));
        assert!(!puzzle.rules().is_empty(), "{name}");
        let path = explain(&puzzle).unwrap_or_else(|e| panic!("{name}: {e}"));
        let logic = Logic::for_puzzle(&puzzle).unwrap();
        check_path(puzzle.values(), &path, &solution, logic.houses());
        if path.steps.iter().all(|s| s.technique != Technique::Solver) {
            by_logic.push(name.clone());
        }
        eprintln!(
            "{name}: {} steps, rating {:.1}, {}",
            path.steps.len(),
            path.rating.difficulty,
            used(&path)
        );
    }
    eprintln!("without the solver's step: {by_logic:?}");
    // Every one since the forcing chains follow the rules (18 of 20
    // before): fewer is a loss.
    assert!(
        by_logic.len() == names_count,
        "only {} variant samples explained without the solver: {by_logic:?}",
        by_logic.len()
    );
}

/// Generated puzzles of the sum families: every step true, and the sum
/// rules' own steps among them.
#[test]
fn generated_sum_rules_are_explained_by_their_fillings_and_every_step_is_true() {
    let families = [
        ("arrow", Technique::ArrowSum),
        ("little-killer", Technique::LittleKillerSum),
        ("sandwich", Technique::SandwichSum),
        ("region-sum", Technique::RegionSumLine),
    ];
    for (family, technique) in families {
        let mut own = 0;
        for seed in 1..=2 {
            let v = crate::solve::generate::variant(family, seed).unwrap();
            let path = explain(&v.puzzle).unwrap_or_else(|e| panic!("{family} #{seed}: {e}"));
            let logic = Logic::for_puzzle(&v.puzzle).unwrap();
            check_path(v.puzzle.values(), &path, &v.solution, logic.houses());
            own += path
                .steps
                .iter()
                .filter(|s| s.technique == technique)
                .count();
            eprintln!(
                "{family} #{seed}: {} steps, rating {:.1}, {}",
                path.steps.len(),
                path.rating.difficulty,
                used(&path)
            );
        }
        assert!(own > 0, "no {technique} step in the {family} puzzles");
    }
}

/// Generated anti-king and XV puzzles: house and rule, and cell and rule,
/// take the places of a symbol or a cell's candidates through the rules'
/// links, and every step is true.
#[test]
fn generated_neighbour_rules_are_explained_through_their_links_and_every_step_is_true() {
    for (family, seed, technique) in [
        ("antiking", 2, Technique::RuleHouse),
        ("xv", 2, Technique::RuleCell),
    ] {
        let v = crate::solve::generate::variant(family, seed).unwrap();
        let path = explain(&v.puzzle).unwrap_or_else(|e| panic!("{family} #{seed}: {e}"));
        let logic = Logic::for_puzzle(&v.puzzle).unwrap();
        check_path(v.puzzle.values(), &path, &v.solution, logic.houses());
        let own: Vec<&Step> = path
            .steps
            .iter()
            .filter(|s| s.technique == technique)
            .collect();
        eprintln!(
            "{family} #{seed}: {} steps, rating {:.1}, {}",
            path.steps.len(),
            path.rating.difficulty,
            used(&path)
        );
        assert!(!own.is_empty(), "no {technique} step in {family} #{seed}");
        assert!(
            own.iter()
                .all(|s| s.rule.is_some() && s.text.contains("whichever it is, through"))
        );
    }
}
