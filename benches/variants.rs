//! Variant solving speed, one thread: building the solver for a puzzle's
//! rules and counting its solutions up to 2 (solve and prove uniqueness).
//!
//! First a report of the per-puzzle times (best of 3 runs; one for a
//! search over a second): median, 90th percentile and slowest, over
//! puzzles of every family of rules
//! ([`sudoku_lens::solve::generate::FAMILIES`]) made from seeds by the
//! library's generator, `SEEDS` of each (each family apart, then all),
//! and over the shared variant puzzles
//! (`../shared/data/puzzles/variants-train`, f-puzzles JSON; skipped,
//! saying so, when absent, a failure under CI), beside the figures of the
//! JavaScript constraint solver they are measured against.
//!
//! Then `speed/generated`: the generated puzzles counted one after the
//! other (elements = puzzles), those under `GROUP_MS` each, since a few
//! slow ones would make a criterion sample last minutes. Last, the share of
//! each set that the hints explain to the end without the solver's step.
//!
//! Name a part to run only it (the puzzles are made either way):
//!
//! cargo bench --bench variants [-- speed|explained]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use sudoku_lens::grid::{Document, Puzzle, parse_file};
use sudoku_lens::logic::{Logic, LogicError, Technique};
use sudoku_lens::solve::generate::{FAMILIES, variant};
use sudoku_lens::solve::{Budget, SolveError, SudokuSolver};

#[path = "../tests/collections/mod.rs"]
mod collections;

/// Generated puzzles of each family: 100 in all, about as many as the
/// peer's figures were measured on.
const SEEDS: u64 = 5;
/// Runs of each puzzle in the report; the best is kept. A run over
/// `ONE_RUN_MS` is not repeated.
const RUNS: usize = 3;
const ONE_RUN_MS: f64 = 1000.0;
/// The criterion group takes the generated puzzles counted within this
/// many milliseconds in the report.
const GROUP_MS: f64 = 50.0;
/// How long one shared puzzle may search before it counts as given up (a
/// few of them take far longer than the rest).
const BUDGET: Duration = Duration::from_secs(10);
/// The JavaScript constraint solver's figures on 101 variant puzzles of
/// these kinds (counting to 2 under node): the median, the time 90% stay
/// under, and the slowest.
const PEER_MEDIAN_MS: f64 = 3.4;
const PEER_P90_MS: f64 = 40.0;
const PEER_MAX_MS: f64 = 250.0;

/// A puzzle and its name in the report.
struct Named {
    name: String,
    family: String,
    puzzle: Puzzle,
}

fn main() {
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |part: &str| only.is_empty() || only.iter().any(|o| part.contains(o.as_str()));
    let made = Instant::now();
    let generated: Vec<Named> = FAMILIES
        .iter()
        .flat_map(|&family| {
            (1..=SEEDS).map(move |seed| Named {
                name: format!("{family} #{seed}"),
                family: family.to_string(),
                puzzle: variant(family, seed)
                    .unwrap_or_else(|e| panic!("{family} #{seed}: {e}"))
                    .puzzle,
            })
        })
        .collect();
    println!(
        "{} generated variant puzzles made in {:.1} s",
        generated.len(),
        made.elapsed().as_secs_f64()
    );
    let shared = load_shared();
    if wanted("speed") {
        speed(&generated, &shared);
    }
    if wanted("explained") {
        explained(&generated, "generated");
        explained(&shared, "variants-train (shared)");
    }
}

/// The search times of both sets, then the criterion group.
fn speed(generated: &[Named], shared: &[Named]) {
    let times: Vec<Option<f64>> = generated
        .iter()
        .map(|p| time_one(&p.name, &p.puzzle))
        .collect();
    for &family in FAMILIES {
        let set: Vec<(&Named, Option<f64>)> = generated
            .iter()
            .zip(&times)
            .filter(|(p, _)| p.family == family)
            .map(|(p, &t)| (p, t))
            .collect();
        report(&format!("generated {family}"), &set, false);
    }
    let all: Vec<(&Named, Option<f64>)> = generated.iter().zip(times.iter().copied()).collect();
    report("generated, all families", &all, true);
    if !shared.is_empty() {
        let set: Vec<(&Named, Option<f64>)> = shared
            .iter()
            .map(|p| (p, time_one(&p.name, &p.puzzle)))
            .collect();
        report("variants-train (shared)", &set, true);
    }
    println!();

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let quick: Vec<&Puzzle> = generated
        .iter()
        .zip(&times)
        .filter(|(_, t)| t.is_some_and(|t| t < GROUP_MS))
        .map(|(p, _)| &p.puzzle)
        .collect();
    let mut group = c.benchmark_group("speed");
    group.throughput(Throughput::Elements(quick.len() as u64));
    group.bench_function(
        format!(
            "generated ({} of {} under {GROUP_MS} ms)",
            quick.len(),
            generated.len()
        ),
        |b| {
            b.iter(|| {
                for p in &quick {
                    black_box(count(black_box(p), Budget::default()).ok());
                }
            })
        },
    );
    group.finish();
    c.final_summary();
    println!();
}

/// Builds the solver for the puzzle's rules and counts its solutions up to
/// 2 within `budget`.
fn count(p: &Puzzle, budget: Budget) -> Result<u64, SolveError> {
    let mut solver = SudokuSolver::with_rules(p.layout().clone(), p.cages(), p.rules())?;
    solver.set_budget(budget);
    let mut first = vec![0u8; p.values().len()];
    solver.solve_into(p.values(), 2, &mut first)
}

/// The best of [`RUNS`] times of [`count`], in milliseconds, or `None`
/// when the search gave up within [`BUDGET`].
fn time_one(name: &str, p: &Puzzle) -> Option<f64> {
    let mut best = f64::MAX;
    for _ in 0..RUNS {
        let t = Instant::now();
        match count(p, Budget::time(BUDGET)) {
            Ok(_) => {}
            Err(SolveError::GaveUp { .. }) => return None,
            Err(e) => panic!("{name}: {e}"),
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        if best > ONE_RUN_MS {
            break;
        }
    }
    Some(best)
}

/// Median, 90th percentile and slowest of a set's times (`None`: gave
/// up); `full` adds the peer's figures and the five slowest puzzles.
fn report(label: &str, set: &[(&Named, Option<f64>)], full: bool) {
    let mut times: Vec<(f64, &str)> = Vec::new();
    let mut gave_up = Vec::new();
    for (p, t) in set {
        match t {
            Some(ms) => times.push((*ms, &p.name)),
            None => gave_up.push(p.name.as_str()),
        }
    }
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize].0;
    if times.is_empty() {
        println!("{label}: every search gave up");
        return;
    }
    println!(
        "{label}: {} puzzles, median {:.2} ms, 90% under {:.2} ms, slowest {:.2} ms ({}){}",
        set.len(),
        at(0.5),
        at(0.9),
        at(1.0),
        times.last().map_or("", |t| t.1),
        if gave_up.is_empty() {
            String::new()
        } else {
            format!("; gave up after {BUDGET:?}: {}", gave_up.join(", "))
        }
    );
    if full {
        println!(
            "  the peer: median {PEER_MEDIAN_MS} ms, 90% under {PEER_P90_MS} ms, slowest under {PEER_MAX_MS} ms"
        );
        for (ms, name) in times.iter().rev().take(5) {
            println!("  {ms:9.2} ms  {name}");
        }
    }
}

/// The share of `set` the hints take to the solution without the solver's
/// step, family by family; and of the others, those whose explanation ran
/// past [`BUDGET`] (the rest need the solver's step).
fn explained(set: &[Named], label: &str) {
    if set.is_empty() {
        return;
    }
    // Per family: explained, gave up, puzzles.
    let mut families: Vec<(String, usize, usize, usize)> = Vec::new();
    let mut slow = Vec::new();
    for p in set {
        let outcome = Logic::for_puzzle(&p.puzzle).map_or(Err(false), |mut logic| {
            logic.set_budget(Budget::time(BUDGET));
            let opts = logic.options(&p.puzzle).map_err(|_| false)?;
            match logic.explain(p.puzzle.values(), &opts) {
                Ok(path) => Ok(path.steps.iter().all(|s| s.technique != Technique::Solver)),
                Err(LogicError::GaveUp(_)) => Err(true),
                Err(_) => Err(false),
            }
        });
        let (done, gave_up) = match outcome {
            Ok(done) => (done as usize, 0),
            Err(gave_up) => (0, gave_up as usize),
        };
        if gave_up == 1 {
            slow.push(p.name.as_str());
        }
        match families.iter_mut().find(|f| f.0 == p.family) {
            Some(f) => {
                f.1 += done;
                f.2 += gave_up;
                f.3 += 1;
            }
            None => families.push((p.family.clone(), done, gave_up, 1)),
        }
    }
    let done: usize = families.iter().map(|f| f.1).sum();
    let parts: Vec<String> = families
        .iter()
        .map(|(f, d, _, a)| format!("{f} {d}/{a}"))
        .collect();
    println!(
        "{label}: {done} of {} explained to the end without the solver's step; {}",
        set.len(),
        parts.join(", ")
    );
    if !slow.is_empty() {
        println!("  gave up after {BUDGET:?}: {}", slow.join(", "));
    }
}

/// The shared variant puzzles, each named by its file and grouped by its
/// rules' names.
fn load_shared() -> Vec<Named> {
    let Some(dir) = collections::dir() else {
        println!("benches/variants: no shared variant puzzles; not measured");
        return Vec::new();
    };
    let dir = dir.join("variants-train");
    collections::json_files(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            let puzzle = match parse_file(&path, None) {
                Ok(Document::Single(p)) => p,
                Ok(Document::Batch(_)) => panic!("{name}: one puzzle expected"),
                Err(e) => panic!("{e}"),
            };
            let mut kinds: Vec<&str> = puzzle.rules().iter().map(|r| r.name()).collect();
            kinds.sort_unstable();
            kinds.dedup();
            if !puzzle.cages().is_empty() {
                kinds.insert(0, "killer");
            }
            Named {
                name: name.into_owned(),
                family: kinds.join("+"),
                puzzle,
            }
        })
        .collect()
}
