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

/// Checks every step of a path against the solution, and that the path ends
/// in it.
pub(crate) fn check_path(values: &[u8], path: &Explanation, solution: &[u8], shape: &Arc<Shape>) {
    let mut g = Candidates::new(shape.clone(), values);
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
                shape.cell_name(p.cell),
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
                shape.cell_name(e.cell),
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
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/puzzles");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            n.strip_suffix(".solution.txt").map(str::to_string)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 10, "{names:?}");
    for name in names {
        let (puzzle, solution) = sample(&name);
        let path = explain(&puzzle).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut logic = Logic::for_puzzle(&puzzle).unwrap();
        check_path(puzzle.values(), &path, &solution, logic.shape());
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
fn cages_are_left_to_the_solver_and_turn_off_uniqueness() {
    let (puzzle, solution) = sample("killer");
    assert!(!puzzle.cages().is_empty());
    let mut logic = Logic::for_puzzle(&puzzle).unwrap();
    let opts = logic.options(&puzzle).unwrap();
    // One solution with the cages, but a unique rectangle on the houses
    // alone could be what a cage rules out.
    assert!(!opts.unique);
    // An empty killer: no house technique applies, so the first hint is
    // the cage-aware solver's digit.
    let st = logic.hint(puzzle.values(), &opts).unwrap();
    assert_eq!(st.technique, Technique::Solver);
    let p = st.placements[0];
    assert_eq!(solution[p.cell], p.digit);
    // An engine without the cages refuses the puzzle rather than answer
    // for other rules.
    let mut plain = Logic::new(puzzle.layout().clone());
    assert!(matches!(
        plain.options(&puzzle),
        Err(LogicError::Values(m)) if m.contains("cages")
    ));
}
