//! The logic engine on the shared puzzle collections (`../shared/data/puzzles`):
//! every step of every path checked against the unique solution, on a
//! sample of each classic collection, on the samurai puzzles (as given
//! and thinned to about 100 givens) and on the killers of the shared
//! screenshots' truth files (`../shared/data/screens/killer-train`), and
//! on the shared variant puzzles (`../shared/data/puzzles/variants-train`,
//! as far as each path gets within [`VARIANT_BUDGET`]).
//! Ignored by default (they need the shared data and a release build);
//! `.ci/run` runs them.
//!
//! cargo test --release --test logic_shared -- --ignored --nocapture

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sudoku_lens::grid::{Document, Layout, parse_file};
use sudoku_lens::logic::{Candidates, Logic, LogicError, Options, Step, Technique, apply};
use sudoku_lens::solve::generate::thin;
use sudoku_lens::solve::{Budget, SudokuSolver};

mod collections;
use collections::Named;

/// Puzzles taken from each classic collection, spread over the file.
const CLASSIC_SAMPLE: usize = 150;
/// Samurai puzzles thinned (and their givens' target), spread over the set.
const SAMURAI_THINNED: usize = 24;
const THIN_TARGET: usize = 100;
const THIN_SEED: u64 = 1;
/// The shared killers the hints take to the end without the solver's step
/// (of 30 with one solution), as measured: all of them since the forcing
/// chains follow the cages (the floor was 23). Fewer is a loss.
const KILLERS_BY_LOGIC: usize = 30;

/// How long the hints may take over one shared variant puzzle; the steps
/// of a path cut short are checked as far as they go.
const VARIANT_BUDGET: Duration = Duration::from_secs(10);
/// The shared variant puzzles the hints take to the end without the
/// solver's step within [`VARIANT_BUDGET`]: 18 of 29 run alone at a load
/// average near 3 (`cargo bench --bench variants -- explained`); the
/// floor leaves room for a machine busier than that, where the slowest
/// few run out of time. Fewer is a loss.
const VARIANTS_BY_LOGIC: usize = 15;

/// Checks a path against the solution: every placement right, no removal
/// of the solution's symbol, and the solution at the end. Returns the
/// number of solver steps.
fn check(
    name: &str,
    layout: &Arc<Layout>,
    values: &[u8],
    steps: &[Step],
    solution: &[u8],
    logic: &Logic,
) -> usize {
    let g = check_steps(name, values, steps, solution, logic);
    assert_eq!(
        g.values(),
        solution,
        "{name} ({}): the path ends in the solution",
        layout.name()
    );
    steps
        .iter()
        .filter(|st| st.technique == Technique::Solver)
        .count()
}

/// Checks the steps of a path, whole or cut short, against the solution:
/// every placement right, no removal of the solution's symbol, each step
/// a change. Returns the candidates they leave.
fn check_steps(
    name: &str,
    values: &[u8],
    steps: &[Step],
    solution: &[u8],
    logic: &Logic,
) -> Candidates {
    let mut g = Candidates::new(logic.houses().clone(), values);
    for (i, st) in steps.iter().enumerate() {
        for p in &st.placements {
            assert_eq!(solution[p.cell], p.digit, "{name}: step {i}: {}", st.text);
        }
        for e in &st.eliminations {
            assert_ne!(solution[e.cell], e.digit, "{name}: step {i}: {}", st.text);
        }
        assert!(st.is_progress(), "{name}: step {i} changes nothing");
        apply(&mut g, st);
    }
    g
}

#[test]
#[ignore = "needs ../shared/data; run in release"]
fn every_step_on_the_classic_collections_is_true() {
    let Some(dir) = collections::dir() else {
        println!("no shared data; nothing to check");
        return;
    };
    let layout = Arc::new(Layout::classic());
    let mut logic = Logic::new(layout.clone());
    let mut solver = SudokuSolver::new(layout.clone());
    let opts = Options {
        unique: true,
        ..Options::default()
    };
    for set in [
        "unbiased_1000",
        "17_clue",
        "magictour_top1465",
        "forum_hardest_1905_11plus",
        "forum_hardest_1106",
    ] {
        let all = collections::load(&dir.join(format!("classic/{set}.txt")));
        let sample = collections::spread(&all, CLASSIC_SAMPLE);
        let t = Instant::now();
        let (mut steps, mut solver_steps) = (0, 0);
        for (i, values) in sample.iter().enumerate() {
            let mut solution = vec![0u8; 81];
            assert_eq!(
                solver.solve_into(values, 2, &mut solution),
                Ok(1),
                "{set} #{i}"
            );
            let path = logic
                .explain(values, &opts)
                .unwrap_or_else(|e| panic!("{set} #{i}: {e}"));
            solver_steps += check(
                &format!("{set} #{i}"),
                &layout,
                values,
                &path.steps,
                &solution,
                &logic,
            );
            steps += path.steps.len();
        }
        println!(
            "{set}: {} puzzles, {steps} steps ({solver_steps} by the solver) checked in {:.2} s",
            sample.len(),
            t.elapsed().as_secs_f64()
        );
    }
}

#[test]
#[ignore = "needs ../shared/data; run in release"]
fn every_step_on_the_samurai_puzzles_is_true() {
    let Some(dir) = collections::dir() else {
        println!("no shared data; nothing to check");
        return;
    };
    let dir = dir.join("samurai");
    let layout = Arc::new(Layout::samurai());
    let mut logic = Logic::new(layout.clone());
    let mut solver = SudokuSolver::new(layout.clone());
    let puzzles = collections::samurai(&dir);
    let thinned: Vec<Named> = collections::spread(&puzzles, SAMURAI_THINNED)
        .into_iter()
        .map(|p| Named {
            name: format!("{} thinned", p.name),
            values: thin(&mut solver, &p.values, THIN_TARGET, THIN_SEED),
            solution: p.solution,
        })
        .collect();
    let opts = Options {
        unique: true,
        ..Options::default()
    };
    for (label, set) in [("samurai", &puzzles), ("samurai thinned", &thinned)] {
        let t = Instant::now();
        let (mut steps, mut solver_steps) = (0, 0);
        for p in set {
            let path = logic
                .explain(&p.values, &opts)
                .unwrap_or_else(|e| panic!("{}: {e}", p.name));
            solver_steps += check(
                &p.name,
                &layout,
                &p.values,
                &path.steps,
                &p.solution,
                &logic,
            );
            steps += path.steps.len();
        }
        println!(
            "{label}: {} puzzles, {steps} steps ({solver_steps} by the solver) checked in {:.2} s",
            set.len(),
            t.elapsed().as_secs_f64()
        );
    }
}

/// The shared killer screenshots' truth files: every cage and shown digit
/// of 32 puzzles from several apps.
fn killer_truths() -> Option<Vec<PathBuf>> {
    let dir = collections::shared("screens/killer-train")?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Some(files)
}

#[test]
#[ignore = "needs ../shared/data; run in release"]
fn every_step_on_the_shared_killers_is_true() {
    let Some(files) = killer_truths() else {
        println!("no shared data; nothing to check");
        return;
    };
    assert!(files.len() >= 30, "expected the 32 killer truths");
    let t = Instant::now();
    let (mut unique, mut steps, mut solver_steps, mut by_logic) = (0, 0, 0, 0);
    for path in &files {
        let name = path.display().to_string();
        let puzzle = match parse_file(path, None).unwrap_or_else(|e| panic!("{name}: {e}")) {
            Document::Single(p) => p,
            Document::Batch(_) => panic!("{name} holds one puzzle"),
        };
        assert!(!puzzle.cages().is_empty(), "{name} has no cages");
        let layout = puzzle.layout().clone();
        let mut solver = SudokuSolver::with_cages(layout.clone(), puzzle.cages()).unwrap();
        let mut solution = vec![0u8; puzzle.values().len()];
        if solver.solve_into(puzzle.values(), 2, &mut solution) != Ok(1) {
            continue;
        }
        unique += 1;
        let mut logic = Logic::for_puzzle(&puzzle).unwrap();
        let opts = logic.options(&puzzle).unwrap();
        let path = logic
            .explain(puzzle.values(), &opts)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let by_solver = check(
            &name,
            &layout,
            puzzle.values(),
            &path.steps,
            &solution,
            &logic,
        );
        let rating = logic
            .rate(puzzle.values(), &opts)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        println!(
            "{name}: {} steps, {by_solver} by the solver, rating {:.1}",
            path.steps.len(),
            rating.difficulty
        );
        steps += path.steps.len();
        solver_steps += by_solver;
        by_logic += usize::from(by_solver == 0);
    }
    println!(
        "killers: {unique} of {} unique, {by_logic} solved without the solver; {steps} steps \
         ({solver_steps} by the solver) checked in {:.2} s",
        files.len(),
        t.elapsed().as_secs_f64()
    );
    assert!(unique >= 30, "only {unique} killers have one solution");
    assert!(
        by_logic >= KILLERS_BY_LOGIC,
        "only {by_logic} killers solved without the solver, {KILLERS_BY_LOGIC} before"
    );
}

#[test]
#[ignore = "needs ../shared/data; run in release"]
fn every_step_on_the_shared_variants_is_true() {
    let Some(dir) = collections::shared("puzzles/variants-train") else {
        println!("no shared data; nothing to check");
        return;
    };
    let files = collections::json_files(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(files.len() >= 29, "expected the 29 variant puzzles");
    let t = Instant::now();
    let (mut steps, mut by_logic, mut cut) = (0, 0, Vec::new());
    for path in &files {
        let name = path.display().to_string();
        let puzzle = match parse_file(path, None).unwrap_or_else(|e| panic!("{name}: {e}")) {
            Document::Single(p) => p,
            Document::Batch(_) => panic!("{name} holds one puzzle"),
        };
        let solution = collections::solution_values(&path.with_extension("solution.txt"));
        assert_eq!(
            solution.len(),
            puzzle.values().len(),
            "{name}: its solution"
        );
        let mut logic = Logic::for_puzzle(&puzzle).unwrap_or_else(|e| panic!("{name}: {e}"));
        logic.set_budget(Budget::time(VARIANT_BUDGET));
        // Telling uniqueness is a search too, and may run out of time.
        let opts = match logic.options(&puzzle) {
            Ok(opts) => opts,
            Err(e @ LogicError::GaveUp(_)) => {
                cut.push(format!("{name} ({e})"));
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        let (path_steps, stuck) = logic
            .steps(puzzle.values(), &opts)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        match stuck {
            None => {
                let layout = puzzle.layout().clone();
                let by_solver = check(
                    &name,
                    &layout,
                    puzzle.values(),
                    &path_steps,
                    &solution,
                    &logic,
                );
                by_logic += usize::from(by_solver == 0);
                steps += path_steps.len();
            }
            Some(e) => {
                // Cut short: every step so far is still true.
                check_steps(&name, puzzle.values(), &path_steps, &solution, &logic);
                steps += path_steps.len();
                cut.push(format!("{name} ({e})"));
            }
        }
    }
    println!(
        "variants: {by_logic} of {} explained without the solver; {steps} steps checked in \
         {:.2} s; cut short: {cut:?}",
        files.len(),
        t.elapsed().as_secs_f64()
    );
    assert!(
        by_logic >= VARIANTS_BY_LOGIC,
        "only {by_logic} shared variants explained without the solver, {VARIANTS_BY_LOGIC} before"
    );
}
