//! Solving speed: counting solutions up to 2 (solve and prove uniqueness),
//! one thread, on the public puzzle collections in `../shared/data/puzzles`.
//!
//! - `classic/<set>`: a fixed prefix of each classic collection, solved by
//!   sudoku-lens and by the `sudoku` crate side by side (elements = puzzles).
//! - `samurai/shared`: the samurai puzzles with one solution.
//! - `samurai/thinned`: the same puzzles with givens removed, while the
//!   solution stays unique, down to about 100.
//!
//! - `killer/shared`: the killer screenshots' puzzles in
//!   `../shared/data/screens/killer-train` (their JSON ground truth: grid
//!   and cages, most with no givens), each solved from its cages: the
//!   solver built for them (the cages are each puzzle's own), then the
//!   solutions counted up to 2.
//!
//! After the groups, a report prints the per-puzzle samurai and killer times
//! (median, and the slowest) that a throughput hides.
//!
//! cargo bench --bench solve

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use sudoku_lens::grid::{Document, Layout, Puzzle, parse};
use sudoku_lens::solve::SudokuSolver;
use sudoku_lens::solve::generate::thin;

/// Classic collections and how many of their first puzzles one iteration solves.
const CLASSIC: &[(&str, usize)] = &[
    ("unbiased_1000", 1000),
    ("17_clue", 2000),
    ("magictour_top1465", 1465),
    ("forum_hardest_1905_11plus", 500),
    ("forum_hardest_1106", 375),
];

#[path = "../tests/collections/mod.rs"]
mod collections;
use collections::Named;

/// Thinned samurai puzzles keep about this many givens.
const THIN_TARGET: usize = 100;
const THIN_SEED: u64 = 1;

fn main() {
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    let killers = load_killers(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/screens/killer-train"),
    );
    killer_group(&mut c, &killers);
    let Some(dir) = collections::dir() else {
        println!(
            "benches/solve: no puzzle collections at ../shared/data/puzzles; nothing more to measure"
        );
        c.final_summary();
        killer_report(&killers);
        return;
    };
    for &(name, count) in CLASSIC {
        classic(
            &mut c,
            &dir.join("classic").join(format!("{name}.txt")),
            count,
        );
    }
    let samurai = collections::samurai(&dir.join("samurai"));
    let thinned = thin_all(&samurai);
    samurai_groups(&mut c, &samurai, &thinned);
    c.final_summary();
    ratios(&dir.join("classic"));
    report(&samurai, &thinned);
    killer_report(&killers);
}

/// A killer and its file's name.
struct Killer {
    name: String,
    puzzle: Puzzle,
}

/// The killers of the shared screenshots (their `.json` ground truth); none
/// when the folder is absent.
fn load_killers(dir: &Path) -> Vec<Killer> {
    let Ok(paths) = collections::json_files(dir) else {
        println!(
            "benches/solve: no killers at {}; not measured",
            dir.display()
        );
        return Vec::new();
    };
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable JSON");
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let Ok(Document::Single(puzzle)) = parse(&text, &name, None) else {
                panic!("{name}: not a puzzle");
            };
            Killer { name, puzzle }
        })
        .collect()
}

/// Builds the solver for a killer's cages and counts its solutions up to
/// 2; returns the count and the search nodes.
fn solve_killer(k: &Killer, first: &mut [u8]) -> (u64, u64) {
    let p = &k.puzzle;
    let mut solver =
        SudokuSolver::with_cages(p.layout().clone(), p.cages()).expect("the cages encode");
    let count = solver
        .solve_into(p.values(), 2, first)
        .expect("no conflicts");
    (count, solver.take_node_count())
}

fn killer_group(c: &mut Criterion, killers: &[Killer]) {
    if killers.is_empty() {
        return;
    }
    let mut first = vec![0u8; 81];
    let mut group = c.benchmark_group("killer");
    group.throughput(Throughput::Elements(killers.len() as u64));
    group.bench_function("shared", |b| {
        b.iter(|| {
            for k in killers {
                black_box(solve_killer(black_box(k), &mut first));
            }
        })
    });
    group.finish();
}

/// Per-killer times, best of 7 runs each of building the solver and
/// counting to 2: median and slowest, and the slowest puzzle's nodes.
fn killer_report(killers: &[Killer]) {
    if killers.is_empty() {
        return;
    }
    let mut first = vec![0u8; 81];
    let mut times: Vec<(f64, &str, u64, u64)> = killers
        .iter()
        .map(|k| {
            let mut best = f64::MAX;
            let mut result = (0, 0);
            for _ in 0..7 {
                let t = Instant::now();
                result = solve_killer(black_box(k), &mut first);
                best = best.min(t.elapsed().as_secs_f64() * 1e3);
            }
            (best, k.name.as_str(), result.0, result.1)
        })
        .collect();
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let unique = times.iter().filter(|t| t.2 == 1).count();
    let (slowest, name, count, nodes) = times[times.len() - 1];
    println!();
    println!(
        "killers, {} shared puzzles ({unique} unique), solver built and solutions counted to 2 \
         (best of 7 runs each): median {:.3} ms, max {slowest:.3} ms ({name}: {count} \
         solution{}, {nodes} search nodes)",
        times.len(),
        median(&times.iter().map(|t| t.0).collect::<Vec<_>>()),
        if count == 1 { "" } else { "s" },
    );
}

/// The first `count` puzzles of a classic collection, as lines (for the
/// `sudoku` crate) and as values.
fn load_classic(path: &Path, count: usize) -> Vec<(String, Vec<u8>)> {
    let mut puzzles = collections::load(path);
    puzzles.truncate(count);
    puzzles
        .into_iter()
        .map(|values| {
            let line = values
                .iter()
                .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
                .collect();
            (line, values)
        })
        .collect()
}

fn classic(c: &mut Criterion, path: &Path, count: usize) {
    let puzzles = load_classic(path, count);
    let name = path.file_stem().unwrap_or_default().to_string_lossy();
    let mut solver = SudokuSolver::new(Arc::new(Layout::classic()));
    let mut first = vec![0u8; 81];
    for (line, values) in &puzzles {
        assert_eq!(
            solver.solve_into(values, 2, &mut first),
            Ok(1),
            "{name}: {line} should have one solution"
        );
    }
    let mut group = c.benchmark_group(format!("classic/{name}"));
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group.bench_function("sudoku-lens", |b| {
        b.iter(|| {
            for (_, values) in &puzzles {
                black_box(solver.solve_into(black_box(values), 2, &mut first).ok());
            }
        })
    });
    group.bench_function("sudoku crate", |b| {
        b.iter(|| {
            for (line, _) in &puzzles {
                let s = sudoku::Sudoku::from_str_line(black_box(line)).expect("a valid line");
                black_box(s.solutions_count_up_to(2));
            }
        })
    });
    group.finish();
}

/// Puzzles per second of sudoku-lens and of the `sudoku` crate on each
/// classic prefix, timed alternately (best of 3 passes each) so that both
/// see the same machine load, and their ratio.
fn ratios(dir: &Path) {
    println!();
    println!("classic, one thread, counting to 2 (best of 3 alternate passes):");
    for &(name, count) in CLASSIC {
        let puzzles = load_classic(&dir.join(format!("{name}.txt")), count);
        let mut solver = SudokuSolver::new(Arc::new(Layout::classic()));
        let mut first = vec![0u8; 81];
        let (mut lens, mut other) = (f64::MAX, f64::MAX);
        for _ in 0..3 {
            let t = Instant::now();
            for (_, values) in &puzzles {
                black_box(solver.solve_into(black_box(values), 2, &mut first).ok());
            }
            lens = lens.min(t.elapsed().as_secs_f64());
            let t = Instant::now();
            for (line, _) in &puzzles {
                let s = sudoku::Sudoku::from_str_line(black_box(line)).expect("a valid line");
                black_box(s.solutions_count_up_to(2));
            }
            other = other.min(t.elapsed().as_secs_f64());
        }
        let n = puzzles.len() as f64;
        println!(
            "  {name} ({} puzzles): sudoku-lens {:.0}/s, sudoku crate {:.0}/s, ratio {:.3}",
            puzzles.len(),
            n / lens,
            n / other,
            other / lens
        );
    }
}

/// Each puzzle thinned to about [`THIN_TARGET`] givens, still unique.
fn thin_all(puzzles: &[Named]) -> Vec<Named> {
    let mut solver = SudokuSolver::new(Arc::new(Layout::samurai()));
    puzzles
        .iter()
        .map(|p| Named {
            values: thin(&mut solver, &p.values, THIN_TARGET, THIN_SEED),
            ..p.clone()
        })
        .collect()
}

fn samurai_groups(c: &mut Criterion, samurai: &[Named], thinned: &[Named]) {
    let mut solver = SudokuSolver::new(Arc::new(Layout::samurai()));
    let mut first = vec![0u8; solver.layout().cell_count()];
    let mut group = c.benchmark_group("samurai");
    for (id, set) in [("shared", samurai), ("thinned", thinned)] {
        group.throughput(Throughput::Elements(set.len() as u64));
        group.bench_function(id, |b| {
            b.iter(|| {
                for p in set {
                    black_box(solver.solve_into(black_box(&p.values), 2, &mut first).ok());
                }
            })
        });
    }
    group.finish();
}

/// Best of `runs` timings of one solve, in milliseconds.
fn time_one(solver: &mut SudokuSolver, values: &[u8], runs: usize) -> f64 {
    let mut first = vec![0u8; values.len()];
    let mut best = f64::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        let n = solver.solve_into(black_box(values), 2, &mut first);
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(n, Ok(1), "one solution");
    }
    best
}

fn median(sorted: &[f64]) -> f64 {
    sorted[sorted.len() / 2]
}

fn report(samurai: &[Named], thinned: &[Named]) {
    if samurai.is_empty() {
        return;
    }
    let mut solver = SudokuSolver::new(Arc::new(Layout::samurai()));
    let mut times: Vec<f64> = samurai
        .iter()
        .map(|p| time_one(&mut solver, &p.values, 5))
        .collect();
    times.sort_by(f64::total_cmp);
    let mut thin_times: Vec<(f64, usize, &str)> = thinned
        .iter()
        .map(|p| {
            let givens = p.values.iter().filter(|&&v| v != 0).count();
            (time_one(&mut solver, &p.values, 3), givens, p.name.as_str())
        })
        .collect();
    thin_times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let givens: Vec<usize> = thin_times.iter().map(|t| t.1).collect();
    let (slowest, slowest_givens, slowest_name) = thin_times[thin_times.len() - 1];
    println!();
    println!("per-puzzle times (best of 5 / 3 runs each, counting up to 2 solutions):");
    println!(
        "  samurai shared, {} puzzles: median {:.3} ms, max {:.3} ms",
        times.len(),
        median(&times),
        times[times.len() - 1]
    );
    println!(
        "  samurai thinned, {} puzzles with {}-{} givens: median {:.3} ms, max {:.3} ms ({slowest_name}, {slowest_givens} givens)",
        thin_times.len(),
        givens.iter().min().unwrap_or(&0),
        givens.iter().max().unwrap_or(&0),
        thin_times[thin_times.len() / 2].0,
        slowest,
    );
}
