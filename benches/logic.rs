//! Logic engine speed, one thread, on the shared puzzle collections in
//! `../shared/data/puzzles` (skipped, saying so, when they are absent;
//! under CI, `CI=true`, their absence fails):
//!
//! - `logic/rate unbiased_1000`: rating every puzzle (elements = puzzles).
//! - `logic/hint ...`: the next step from the givens, over a slice of the
//!   hardest classic sets and of the thinned samurai puzzles.
//!
//! After the groups, a report prints the rating rate (best of 3 passes),
//! how the ratings spread over the levels and which puzzles rate slowest,
//! the slowest hint over every puzzle of magictour_top1465 and
//! forum_hardest_1106, and over the samurai puzzles thinned to about 100
//! givens (the goal: under 50 ms each). Then what the app does on a
//! samurai: a hint with the solver's uniqueness check first (on its hint
//! thread), and the pencil marks of the candidates view (on the window's
//! thread, once per state).
//!
//! cargo bench --bench logic

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use sudoku_lens::grid::{Layout, Puzzle};
use sudoku_lens::logic::{HouseIndex, Logic, Options, pencil_marks};
use sudoku_lens::solve::SudokuSolver;
use sudoku_lens::solve::generate::thin;

#[path = "../tests/collections/mod.rs"]
mod collections;

/// Thinned samurai puzzles keep about this many givens.
const THIN_TARGET: usize = 100;
const THIN_SEED: u64 = 1;
/// Puzzles of each hard set timed inside criterion (the report covers all).
const HINT_SLICE: usize = 50;

fn main() {
    let Some(dir) = collections::dir() else {
        println!(
            "benches/logic: no puzzle collections at ../shared/data/puzzles; nothing to measure"
        );
        return;
    };
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let classic = Arc::new(Layout::classic());
    let unbiased = collections::load(&dir.join("classic/unbiased_1000.txt"));
    let magictour = collections::load(&dir.join("classic/magictour_top1465.txt"));
    let hardest = collections::load(&dir.join("classic/forum_hardest_1106.txt"));
    let samurai = thinned_samurai(&dir.join("samurai"));
    let unique = Options {
        unique: true,
        ..Options::default()
    };

    let mut logic = Logic::new(classic.clone());
    let mut group = c.benchmark_group("logic");
    group.throughput(Throughput::Elements(unbiased.len() as u64));
    group.bench_function("rate unbiased_1000", |b| {
        b.iter(|| {
            for values in &unbiased {
                black_box(logic.rate(black_box(values), &unique).ok());
            }
        })
    });
    for (name, set) in [
        ("magictour_top1465", &magictour),
        ("forum_hardest_1106", &hardest),
    ] {
        let slice = &set[..HINT_SLICE.min(set.len())];
        group.throughput(Throughput::Elements(slice.len() as u64));
        group.bench_function(format!("hint {name} (first {})", slice.len()), |b| {
            b.iter(|| {
                for values in slice {
                    black_box(logic.hint(black_box(values), &unique).ok());
                }
            })
        });
    }
    let mut samurai_logic = Logic::new(Arc::new(Layout::samurai()));
    group.throughput(Throughput::Elements(samurai.len() as u64));
    group.bench_function("hint samurai thinned", |b| {
        b.iter(|| {
            for (_, values) in &samurai {
                black_box(samurai_logic.hint(black_box(values), &unique).ok());
            }
        })
    });
    group.finish();
    c.final_summary();

    println!();
    let mut best = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        for values in &unbiased {
            black_box(logic.rate(black_box(values), &unique).ok());
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "rating unbiased_1000, one thread (best of 3 passes): {:.0} puzzles/s",
        unbiased.len() as f64 / best
    );
    rating_spread(&mut logic, &unbiased, &unique);
    for (name, set) in [
        ("magictour_top1465", &magictour),
        ("forum_hardest_1106", &hardest),
    ] {
        let named: Vec<(String, Vec<u8>)> = set
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("#{}", i + 1), v.clone()))
            .collect();
        slowest_hint(name, &mut logic, &named, &unique);
    }
    slowest_hint("samurai thinned", &mut samurai_logic, &samurai, &unique);
    app_on_samurai(&samurai);
}

/// How the ratings of `set` spread over the levels, and where the rating
/// time goes: the share the slowest 5% take, and the slowest puzzles with
/// their rating and hardest technique.
fn rating_spread(logic: &mut Logic, set: &[Vec<u8>], opts: &Options) {
    let mut rows: Vec<(f64, f32, String)> = Vec::new();
    let mut levels = std::collections::BTreeMap::new();
    for values in set {
        let t = Instant::now();
        let r = logic
            .rate(values, opts)
            .unwrap_or_else(|e| panic!("a puzzle of the set: {e}"));
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
        "  the slowest 5% take {:.0}% of the time; levels {levels:?}",
        slow / total * 100.0
    );
    for (ms, d, top) in rows.iter().take(12) {
        println!("  {ms:7.2} ms  {d:.1}  {top}");
    }
}

/// The app's work on each thinned samurai: the uniqueness check and the
/// hint (the hint thread's), and the pencil marks (the window thread's).
fn app_on_samurai(set: &[(String, Vec<u8>)]) {
    if set.is_empty() {
        return;
    }
    let layout = Arc::new(Layout::samurai());
    let mut logic = Logic::new(layout.clone());
    let mut times: Vec<f64> = set
        .iter()
        .map(|(_, values)| {
            let puzzle = Puzzle::empty(layout.clone()).with_values(values.clone());
            let t = Instant::now();
            let opts = logic.options(&puzzle).expect("one solution");
            black_box(logic.hint(values, &opts).ok());
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "app hint with its uniqueness check, samurai thinned ({} puzzles): median {:.2} ms, slowest {:.2} ms",
        times.len(),
        times[times.len() / 2],
        times[times.len() - 1]
    );
    let t = Instant::now();
    let houses = black_box(HouseIndex::new(layout.clone()));
    let shape_ms = t.elapsed().as_secs_f64() * 1e3;
    let rounds = 20;
    let t = Instant::now();
    for _ in 0..rounds {
        for (_, values) in set {
            black_box(pencil_marks(&houses, black_box(values), &[]));
        }
    }
    let per = t.elapsed().as_secs_f64() * 1e6 / (rounds * set.len()) as f64;
    println!(
        "candidates view, samurai: pencil marks {per:.1} us per state; the layout's houses once {shape_ms:.2} ms"
    );
}

/// Times the hint from the givens of every puzzle (best of 2 runs each) and
/// prints the median and the slowest.
fn slowest_hint(name: &str, logic: &mut Logic, set: &[(String, Vec<u8>)], opts: &Options) {
    if set.is_empty() {
        return;
    }
    let mut times: Vec<(f64, &str, String)> = set
        .iter()
        .map(|(label, values)| {
            let mut best = f64::MAX;
            let mut what = String::new();
            for _ in 0..2 {
                let t = Instant::now();
                let st = logic.hint(black_box(values), opts);
                best = best.min(t.elapsed().as_secs_f64() * 1e3);
                what = match st {
                    Ok(st) => format!("{} {:.1}", st.technique, st.difficulty),
                    Err(e) => e.to_string(),
                };
            }
            (best, label.as_str(), what)
        })
        .collect();
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (slowest, label, what) = &times[times.len() - 1];
    println!(
        "hint from the givens, {name} ({} puzzles): median {:.2} ms, slowest {:.2} ms ({label}: {what})",
        times.len(),
        times[times.len() / 2].0,
        slowest
    );
}

/// The shared samurai puzzles with one solution, thinned to about
/// [`THIN_TARGET`] givens while the solution stays unique.
fn thinned_samurai(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut solver = SudokuSolver::new(Arc::new(Layout::samurai()));
    collections::samurai(dir)
        .into_iter()
        .map(|p| {
            let values = thin(&mut solver, &p.values, THIN_TARGET, THIN_SEED);
            (p.name, values)
        })
        .collect()
}
