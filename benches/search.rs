//! Where the search is slow, one thread, counting solutions up to 2 within
//! a fixed budget:
//!
//! - `wrong`: 25x25 puzzles with a wrong given: the 25x25 sample's
//!   solution with each cell kept with chance [`KEEP`], then one given
//!   changed to another symbol its houses do not hold
//!   ([`sudoku_lens::solve::generate::wrong_given`]), [`WRONG_COUNT`]
//!   of them in a row from [`WRONG_SEED`]. None has a solution, and most
//!   searches show it at once; a few go deep.
//! - `variants`: the shared variant puzzles the search is slowest on
//!   ([`SLOW_SHARED`], in `../shared/data/puzzles/variants-train`;
//!   skipped, saying so, when absent) and generated non-consecutive ones,
//!   with the search nodes spent before the first solution and after it,
//!   for each setting of the all-different filters ([`FILTERS`]).
//!
//! - `classic`: the first puzzles of two classic collections with the
//!   house filter ([`SudokuSolver::set_house_filter`]) off and on,
//!   alternately (best of 3 passes each): what the filter costs or saves
//!   where the default leaves it off.
//!
//! Each set reports its median, 90th percentile and slowest time, the
//! searches that gave up, and the search nodes (the same on every
//! machine, unlike the times). Name a part to run only it:
//!
//! cargo bench --bench search [-- wrong|variants|classic]

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use sudoku_lens::grid::{Document, Layout, Puzzle, parse, parse_file};
use sudoku_lens::rng::Rng;
use sudoku_lens::solve::generate::{variant, wrong_given};
use sudoku_lens::solve::{Budget, SolveError, SudokuSolver};

#[path = "../tests/collections/mod.rs"]
mod collections;

/// How long one count may search before it counts as given up: the
/// command line's default limit.
const BUDGET: Duration = Duration::from_secs(10);
/// Share of the solution's cells kept as givens in the wrong-given set:
/// few enough that a wrong given's contradiction can lie deep.
const KEEP: f32 = 0.47;
/// Wrong-given puzzles made, and the seed of their random stream.
const WRONG_COUNT: usize = 40;
const WRONG_SEED: u64 = 7;
/// The shared variant puzzles measured: each took over a second with
/// some order of choices (036 is non-consecutive, 040-042 renban lines).
const SLOW_SHARED: &[&str] = &["025", "029", "036", "040", "041", "042"];
/// Generated non-consecutive puzzles measured beside them (seeds 1 to
/// this, [`sudoku_lens::solve::generate::variant`]): the slowest family
/// of `cargo bench --bench variants`.
const GENERATED_SEEDS: u64 = 5;
/// The filters compared, (houses, the rules' smaller groups): neither
/// (as before they existed on 9x9), the groups alone, both (the default
/// with variant rules).
const FILTERS: [(bool, bool); 3] = [(false, false), (false, true), (true, true)];

/// One count: its time in milliseconds, its search nodes, and whether it
/// gave up.
struct Run {
    ms: f64,
    nodes: u64,
    gave_up: bool,
}

fn main() {
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |part: &str| only.is_empty() || only.iter().any(|o| part.contains(o.as_str()));
    if wanted("wrong") {
        wrong_givens();
    }
    if wanted("variants") {
        variants();
    }
    if wanted("classic") {
        classic();
    }
}

/// Classic collections and how many of their first puzzles are counted.
const CLASSIC: &[(&str, usize)] = &[("unbiased_1000", 1000), ("forum_hardest_1905_11plus", 500)];

fn classic() {
    let Some(dir) = collections::dir() else {
        println!("benches/search: no classic collections; not measured");
        return;
    };
    for &(name, count) in CLASSIC {
        let mut puzzles = collections::load(&dir.join(format!("classic/{name}.txt")));
        puzzles.truncate(count);
        let mut solver = SudokuSolver::new(std::sync::Arc::new(Layout::classic()));
        let mut first = vec![0u8; 81];
        let mut best = [f64::MAX; 2];
        let mut nodes = [0; 2];
        for _ in 0..3 {
            for (f, on) in [false, true].into_iter().enumerate() {
                solver.set_house_filter(on);
                solver.take_node_count();
                let t = Instant::now();
                for values in &puzzles {
                    black_box(solver.solve_into(black_box(values), 2, &mut first).ok());
                }
                best[f] = best[f].min(t.elapsed().as_secs_f64());
                nodes[f] = solver.take_node_count();
            }
        }
        let n = puzzles.len() as f64;
        println!(
            "classic {name} ({} puzzles): filter off {:.0}/s, {:.1} nodes each; \
             on {:.0}/s, {:.1} nodes each",
            puzzles.len(),
            n / best[0],
            nodes[0] as f64 / n,
            n / best[1],
            nodes[1] as f64 / n,
        );
    }
}

/// Counts `values` to `limit` with a fresh budget.
fn run(solver: &mut SudokuSolver, values: &[u8], limit: u64) -> Run {
    solver.set_budget(Budget::time(BUDGET));
    solver.take_node_count();
    let mut first = vec![0u8; values.len()];
    let t = Instant::now();
    let gave_up = match solver.solve_into(values, limit, &mut first) {
        Ok(_) => false,
        Err(SolveError::GaveUp { .. }) => true,
        Err(e) => panic!("{e}"),
    };
    Run {
        ms: t.elapsed().as_secs_f64() * 1e3,
        nodes: solver.take_node_count(),
        gave_up,
    }
}

fn wrong_givens() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/puzzles/25by25.solution.txt");
    let text = std::fs::read_to_string(&path).expect("the 25x25 sample's solution");
    let Ok(Document::Single(solution)) = parse(&text, "25by25", None) else {
        panic!("the 25x25 solution is one puzzle");
    };
    let layout = solution.layout().clone();
    let mut rng = Rng::new(WRONG_SEED);
    let puzzles: Vec<Vec<u8>> = (0..WRONG_COUNT)
        .map(|_| wrong_given(&layout, solution.values(), KEEP, &mut rng))
        .collect();
    let mut solver = SudokuSolver::new(layout);
    for on in [false, true] {
        solver.set_house_filter(on);
        let runs: Vec<(String, Run)> = puzzles
            .iter()
            .enumerate()
            .map(|(i, values)| (format!("#{}", i + 1), run(&mut solver, values, 2)))
            .collect();
        report(
            &format!(
                "25x25 with a wrong given, {WRONG_COUNT} from seed {WRONG_SEED}, house filter {}",
                if on { "on" } else { "off" }
            ),
            &runs,
        );
    }
}

fn variants() {
    let mut set: Vec<(String, Puzzle)> = Vec::new();
    match collections::dir() {
        Some(dir) => {
            for name in SLOW_SHARED {
                let path = dir.join(format!("variants-train/{name}.json"));
                let Ok(Document::Single(p)) = parse_file(&path, None) else {
                    panic!("{}: one puzzle expected", path.display());
                };
                set.push((format!("shared {name}"), p));
            }
        }
        None => println!("benches/search: no shared variant puzzles; not measured"),
    }
    for seed in 1..=GENERATED_SEEDS {
        let made = variant("nonconsecutive", seed).expect("a generated puzzle");
        set.push((format!("nonconsecutive #{seed}"), made.puzzle));
    }
    for (houses, groups) in FILTERS {
        let mut runs = Vec::new();
        for (name, p) in &set {
            let mut solver = SudokuSolver::with_rules(p.layout().clone(), p.cages(), p.rules())
                .expect("the rules encode");
            solver.set_house_filter(houses);
            solver.set_group_filter(groups);
            let to_first = run(&mut solver, p.values(), 1);
            let all = run(&mut solver, p.values(), 2);
            println!(
                "  {name}: {:.1} ms, {} nodes ({} before the first solution{}){}",
                all.ms,
                all.nodes,
                to_first.nodes,
                if to_first.gave_up { ", gave up" } else { "" },
                if all.gave_up { "; gave up" } else { "" }
            );
            runs.push((name.clone(), all));
        }
        let on = |b: bool| if b { "on" } else { "off" };
        report(
            &format!(
                "slow variants, house filter {}, group filter {}",
                on(houses),
                on(groups)
            ),
            &runs,
        );
    }
}

/// Median, 90th percentile and slowest time of a set, its searches that
/// gave up, and its nodes; then the five slowest.
fn report(label: &str, runs: &[(String, Run)]) {
    let mut sorted: Vec<&(String, Run)> = runs.iter().collect();
    sorted.sort_by(|a, b| a.1.ms.total_cmp(&b.1.ms));
    let at = |q: f64| &sorted[((sorted.len() as f64 - 1.0) * q).round() as usize].1;
    let gave_up: Vec<&str> = runs
        .iter()
        .filter(|r| r.1.gave_up)
        .map(|r| r.0.as_str())
        .collect();
    let nodes: u64 = runs.iter().map(|r| r.1.nodes).sum();
    println!(
        "{label}: {} counts, median {:.1} ms, 90% under {:.1} ms, slowest {:.1} ms; \
         {nodes} search nodes in all; gave up after {BUDGET:?}: {}",
        runs.len(),
        at(0.5).ms,
        at(0.9).ms,
        at(1.0).ms,
        if gave_up.is_empty() {
            "none".to_string()
        } else {
            format!("{} ({})", gave_up.len(), gave_up.join(", "))
        }
    );
    for (name, r) in sorted.iter().rev().take(5) {
        println!(
            "  {:9.1} ms  {:>10} nodes  {name}{}",
            r.ms,
            r.nodes,
            if r.gave_up { " (gave up)" } else { "" }
        );
    }
}
