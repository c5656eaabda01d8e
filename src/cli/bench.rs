//! `sudoku-lens bench`: puzzles per second on one thread.

use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use sudoku_lens::grid::{Document, Entry, Layout, Puzzle, parse};
use sudoku_lens::solve::SudokuSolver;

use super::{Status, read_input};

pub fn run(
    file: &Path,
    limit: u64,
    repeat: u64,
    layout: Option<&Layout>,
) -> Result<Status, String> {
    let (name, text) = read_input(file)?;
    let puzzles: Vec<Puzzle> = match parse(&text, &name, layout).map_err(|e| e.to_string())? {
        Document::Single(p) => vec![p],
        Document::Batch(entries) => entries
            .into_iter()
            .filter_map(|e| match e {
                Entry::Puzzle { puzzle: Ok(p), .. } => Some(p),
                _ => None,
            })
            .collect(),
    };
    if puzzles.is_empty() {
        return Err(format!("{name}: no puzzle to time"));
    }

    let mut solvers: Vec<(Arc<Layout>, SudokuSolver, Vec<u8>)> = Vec::new();
    for p in &puzzles {
        if !solvers.iter().any(|(l, ..)| Arc::ptr_eq(l, p.layout())) {
            let cells = p.layout().cell_count();
            solvers.push((
                p.layout().clone(),
                SudokuSolver::new(p.layout().clone()),
                vec![0; cells],
            ));
        }
    }
    let (mut unique, mut multiple, mut none, mut nodes) = (0u64, 0u64, 0u64, 0u64);
    let mut best = f64::INFINITY;
    for run in 0..repeat {
        let start = Instant::now();
        for p in &puzzles {
            let mut own;
            let (solver, first) = if p.cages().is_empty() && p.rules().is_empty() {
                let (_, solver, first) = solvers
                    .iter_mut()
                    .find(|(l, ..)| Arc::ptr_eq(l, p.layout()))
                    .expect("a solver per layout");
                (solver, first)
            } else {
                // A killer's cages are its own: building the solver for
                // them is part of solving it, and is timed.
                own = (
                    SudokuSolver::with_rules(p.layout().clone(), p.cages(), p.rules())
                        .map_err(|e| format!("{name}: {e}"))?,
                    vec![0; p.layout().cell_count()],
                );
                (&mut own.0, &mut own.1)
            };
            let count = solver.solve_into(p.values(), limit, first).unwrap_or(0);
            if run == 0 {
                nodes += solver.take_node_count();
                match count {
                    0 => none += 1,
                    1 => unique += 1,
                    _ => multiple += 1,
                }
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    let n = puzzles.len() as f64;
    let written = writeln!(
        io::stdout().lock(),
        "{name}: {} puzzles, best of {repeat}: {:.3} s, {:.0} puzzles/s, {:.1} us/puzzle \
         (one thread, counting to {limit}; {unique} unique, {multiple} several, {none} none; \
         {:.1} search nodes/puzzle)",
        puzzles.len(),
        best,
        n / best,
        best * 1e6 / n,
        nodes as f64 / n
    );
    match written {
        // Closed early (`| head -0`): nothing left to say.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the output: {e}"))
        }
        _ => Ok(Status::Solved),
    }
}
