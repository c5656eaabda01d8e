//! Writes the puzzle samples in `samples/puzzles/`: a generated puzzle of each
//! built-in shape, thinned while its solution stays unique.
//!
//! cargo run --release --example make_samples

use std::sync::Arc;

use sudoku_lens::grid::{Layout, Puzzle};
use sudoku_lens::solve::SudokuSolver;
use sudoku_lens::solve::generate::{full_grid, thin};

fn main() -> std::io::Result<()> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/puzzles");
    std::fs::create_dir_all(&dir)?;
    for (name, target, seed) in [
        ("classic", 26, 1),
        ("samurai", 120, 2),
        ("twodoku", 60, 3),
        ("butterfly", 50, 4),
        ("flower", 70, 5),
        ("sohei", 100, 6),
        ("4x4", 5, 7),
        ("6x6", 12, 8),
        ("12x12", 70, 9),
        ("16x16", 130, 10),
    ] {
        let layout = Arc::new(Layout::named(name).expect("built-in layout"));
        let mut solver = SudokuSolver::new(layout.clone());
        let full = full_grid(&mut solver, seed);
        let givens = thin(&mut solver, &full, target, seed);
        let file = name.replace('x', "by");
        let puzzle = Puzzle::empty(layout.clone()).with_values(givens);
        std::fs::write(dir.join(format!("{file}.txt")), puzzle.to_text())?;
        std::fs::write(
            dir.join(format!("{file}.solution.txt")),
            puzzle.with_values(full).to_text(),
        )?;
        println!("{name}: {} givens", puzzle.given_count());
    }
    Ok(())
}
