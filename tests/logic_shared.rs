//! The logic engine on the shared puzzle collections (`../shared/data/puzzles`):
//! every step of every path checked against the unique solution, on a
//! sample of each classic collection and on the samurai puzzles (as given
//! and thinned to about 100 givens). Ignored by default (they need the
//! shared data and a release build); `.ci/run` runs them.
//!
//! cargo test --release --test logic_shared -- --ignored --nocapture

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use sudoku_lens::grid::Layout;
use sudoku_lens::logic::{Candidates, Explanation, Logic, Options, Technique, apply};
use sudoku_lens::solve::SudokuSolver;
use sudoku_lens::solve::generate::thin;

/// Puzzles taken from each classic collection, spread over the file.
const CLASSIC_SAMPLE: usize = 150;
/// Samurai puzzles thinned (and their givens' target), spread over the set.
const SAMURAI_THINNED: usize = 24;
const THIN_TARGET: usize = 100;
const THIN_SEED: u64 = 1;

fn data() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/puzzles");
    dir.is_dir().then_some(dir)
}

fn classic_lines(path: &Path) -> Vec<Vec<u8>> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            l.bytes()
                .take(81)
                .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
                .collect()
        })
        .collect()
}

/// Every `len / count`-th item.
fn spread<T: Clone>(items: &[T], count: usize) -> Vec<T> {
    let step = (items.len() / count.max(1)).max(1);
    items.iter().step_by(step).take(count).cloned().collect()
}

/// Checks a path against the solution: every placement right, no removal
/// of the solution's symbol, and the solution at the end. Returns the
/// number of solver steps.
fn check(
    name: &str,
    layout: &Arc<Layout>,
    values: &[u8],
    path: &Explanation,
    solution: &[u8],
    logic: &Logic,
) -> usize {
    let mut g = Candidates::new(logic.shape().clone(), values);
    let mut solver_steps = 0;
    for (i, st) in path.steps.iter().enumerate() {
        for p in &st.placements {
            assert_eq!(solution[p.cell], p.digit, "{name}: step {i}: {}", st.text);
        }
        for e in &st.eliminations {
            assert_ne!(solution[e.cell], e.digit, "{name}: step {i}: {}", st.text);
        }
        assert!(st.is_progress(), "{name}: step {i} changes nothing");
        solver_steps += usize::from(st.technique == Technique::Solver);
        apply(&mut g, st);
    }
    assert_eq!(
        g.values(),
        solution,
        "{name} ({}): the path ends in the solution",
        layout.name()
    );
    solver_steps
}

#[test]
#[ignore = "needs ../shared/data; run in release"]
fn every_step_on_the_classic_collections_is_true() {
    let Some(dir) = data() else {
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
        let all = classic_lines(&dir.join(format!("classic/{set}.txt")));
        let sample = spread(&all, CLASSIC_SAMPLE);
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
                &path,
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

/// A 21x21 samurai canvas ('1'-'9' a given, '.' empty, '#' outside).
fn read_canvas(layout: &Layout, text: &str) -> Vec<u8> {
    let mut values = vec![0u8; layout.cell_count()];
    for (r, line) in text.lines().enumerate() {
        for (col, b) in line.bytes().enumerate() {
            if let Some(cell) = layout.cell_at(r, col)
                && b.is_ascii_digit()
            {
                values[cell] = b - b'0';
            }
        }
    }
    values
}

#[test]
#[ignore = "needs ../shared/data; run in release"]
fn every_step_on_the_samurai_puzzles_is_true() {
    let Some(dir) = data() else {
        println!("no shared data; nothing to check");
        return;
    };
    let dir = dir.join("samurai");
    let layout = Arc::new(Layout::samurai());
    let mut logic = Logic::new(layout.clone());
    let mut solver = SudokuSolver::new(layout.clone());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            n.strip_suffix(".solution.txt").map(str::to_string)
        })
        .collect();
    names.sort();
    let mut puzzles = Vec::new();
    for name in &names {
        let values = read_canvas(
            &layout,
            &std::fs::read_to_string(dir.join(format!("{name}.txt"))).unwrap(),
        );
        let solution = read_canvas(
            &layout,
            &std::fs::read_to_string(dir.join(format!("{name}.solution.txt"))).unwrap(),
        );
        let mut found = vec![0u8; values.len()];
        if solver.solve_into(&values, 2, &mut found) != Ok(1) {
            continue; // the set's one puzzle with several solutions
        }
        assert_eq!(found, solution, "{name}: the solver and the file agree");
        puzzles.push((name.clone(), values, solution));
    }
    let thinned: Vec<(String, Vec<u8>, Vec<u8>)> = spread(&puzzles, SAMURAI_THINNED)
        .into_iter()
        .map(|(name, values, solution)| {
            (
                format!("{name} thinned"),
                thin(&mut solver, &values, THIN_TARGET, THIN_SEED),
                solution,
            )
        })
        .collect();
    let opts = Options {
        unique: true,
        ..Options::default()
    };
    for (label, set) in [("samurai", &puzzles), ("samurai thinned", &thinned)] {
        let t = Instant::now();
        let (mut steps, mut solver_steps) = (0, 0);
        for (name, values, solution) in set {
            let path = logic
                .explain(values, &opts)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            solver_steps += check(name, &layout, values, &path, solution, &logic);
            steps += path.steps.len();
        }
        println!(
            "{label}: {} puzzles, {steps} steps ({solver_steps} by the solver) checked in {:.2} s",
            set.len(),
            t.elapsed().as_secs_f64()
        );
    }
}

#[test]
#[ignore = "needs ../shared/data; run in release"]
fn ratings_of_unbiased_1000() {
    let Some(dir) = data() else {
        println!("no shared data; nothing to rate");
        return;
    };
    let all = classic_lines(&dir.join("classic/unbiased_1000.txt"));
    let mut logic = Logic::new(Arc::new(Layout::classic()));
    let opts = Options {
        unique: true,
        ..Options::default()
    };
    let mut rows: Vec<(f64, f32, String)> = Vec::new();
    let mut levels = std::collections::BTreeMap::new();
    for values in &all {
        let t = Instant::now();
        let r = logic.rate(values, &opts).expect("a unique puzzle");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        *levels.entry(r.level).or_insert(0) += 1;
        let top = r
            .counts
            .last()
            .map(|(t, _)| t.to_string())
            .unwrap_or_default();
        rows.push((ms, r.difficulty, top));
    }
    let total: f64 = rows.iter().map(|r| r.0).sum();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    let slow: f64 = rows[..rows.len() / 20].iter().map(|r| r.0).sum();
    println!(
        "unbiased_1000: {:.0} ms in all ({:.0} puzzles/s); the slowest 5% take {:.0}%; levels {levels:?}",
        total,
        all.len() as f64 / total * 1e3,
        slow / total * 100.0
    );
    for (ms, d, top) in rows.iter().take(12) {
        println!("  {ms:7.2} ms  {d:.1}  {top}");
    }
}
