//! Writes the puzzle samples in `samples/puzzles/`: a generated puzzle of each
//! built-in shape and a jigsaw, thinned while the solution stays unique, and
//! a killer with no givens, cut into cages until its cages alone leave one
//! solution, and in `samples/puzzles/variants/` a puzzle of each family of
//! variant rules (diagonals, thermometers, kropki dots...).
//!
//! cargo run --release -p sudoku-lens-tools --bin make_samples

use std::sync::Arc;

use sudoku_lens::grid::{Layout, Puzzle};
use sudoku_lens::rng::Rng;
use sudoku_lens::solve::SudokuSolver;
use sudoku_lens::solve::generate::{FAMILIES, full_grid, killer, thin, variant_with};
use sudoku_lens_tools::samples::pattern::shuffled_pattern;

/// The givens a variant sample keeps: beside its rules, enough for a first
/// puzzle of its kind (as few as the rules allow make most of them
/// extreme).
const VARIANT_SAMPLE_GIVENS: usize = 24;

fn main() -> std::io::Result<()> {
    let dir = sudoku_lens_tools::repo_root().join("samples/puzzles");
    std::fs::create_dir_all(&dir)?;
    // The 3x3 boxes, each handing one border cell to the next box around
    // the centre, so every region stays connected.
    let jigsaw_regions = "\
        112223333\
        111222333\
        111222336\
        144555666\
        444555666\
        444555669\
        477888999\
        777888999\
        777788899";
    let regions: Vec<usize> = jigsaw_regions
        .bytes()
        .map(|b| (b - b'1') as usize)
        .collect();
    let jigsaw = Layout::jigsaw(9, &regions).expect("a valid region map");
    let shapes: Vec<(Layout, usize, u64)> = [
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
        ("8x8", 24, 12),
    ]
    .into_iter()
    .map(|(name, target, seed)| (Layout::named(name).expect("built-in layout"), target, seed))
    .chain([(jigsaw, 26, 11)])
    .collect();
    // 25x25 last, from a shuffled pattern: `full_grid`'s cell-by-cell
    // search takes minutes on 625 cells.
    let big = Layout::named("25x25").expect("built-in layout");
    let shapes = shapes.into_iter().map(|(l, t, s)| (l, t, s, None)).chain([(
        big,
        330,
        13,
        Some(shuffled_pattern(5, 5, &mut Rng::new(13))),
    )]);
    for (layout, target, seed, full) in shapes {
        let name = layout.name().to_string();
        let layout = Arc::new(layout);
        let mut solver = SudokuSolver::new(layout.clone());
        let full = full.unwrap_or_else(|| full_grid(&mut solver, seed));
        let mut check = vec![0u8; full.len()];
        assert_eq!(
            solver.solve_into(&full, 2, &mut check),
            Ok(1),
            "{name}: the full grid is a solution"
        );
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
    let classic = Arc::new(Layout::classic());
    let (full, cages) = killer(&classic, 4, 12);
    let count = cages.len();
    let puzzle = Puzzle::empty(classic)
        .with_cages(cages)
        .expect("cut cages are well formed");
    std::fs::write(dir.join("killer.txt"), puzzle.to_text())?;
    std::fs::write(
        dir.join("killer.solution.txt"),
        puzzle.with_values(full).to_text(),
    )?;
    println!("killer: {count} cages, no givens");
    let variants = dir.join("variants");
    std::fs::create_dir_all(&variants)?;
    for &family in FAMILIES {
        let v = variant_with(family, 1, VARIANT_SAMPLE_GIVENS).map_err(std::io::Error::other)?;
        std::fs::write(variants.join(format!("{family}.txt")), v.puzzle.to_text())?;
        std::fs::write(
            variants.join(format!("{family}.solution.txt")),
            v.puzzle.clone().with_values(v.solution).to_text(),
        )?;
        println!(
            "{family}: {} rules, {} givens",
            v.puzzle.rules().len(),
            v.puzzle.given_count()
        );
    }
    sudoku_lens_tools::samples::entries::write(&dir)?;
    Ok(())
}
