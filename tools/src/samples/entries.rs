//! `samples/puzzles/entries/classic.txt`: the classic sample half done, as
//! a player leaves it: the first empty cells (reading order) filled from
//! the solution, one of them with a digit one of its houses already holds (a
//! conflict), and one more cell with a digit no house forbids yet but the
//! solution does not hold (it breaks the puzzle). Read back from the classic sample
//! and its solution, which `make_samples` writes first. A folder of its own,
//! as the other samples each have a `.solution.txt` beside them.

use std::path::Path;

use sudoku_lens::grid::{Document, Entries, Progress, Puzzle, parse};

/// How many empty cells the player filled.
const FILLED: usize = 24;

/// Writes `entries/classic.txt` into `dir` (the puzzles' folder).
pub fn write(dir: &Path) -> std::io::Result<()> {
    let puzzle = read(&dir.join("classic.txt"))?;
    let solution = read(&dir.join("classic.solution.txt"))?;
    let givens = puzzle.values();
    let full = solution.values();
    let layout = puzzle.layout();
    let empty: Vec<usize> = (0..givens.len()).filter(|&c| givens[c] == 0).collect();
    let mut entries = vec![0u8; givens.len()];
    for &c in &empty[..FILLED] {
        entries[c] = full[c];
    }
    // The third filled cell repeats a given of one of its houses.
    let conflict = empty[2];
    let row_given = layout
        .houses_of(conflict)
        .iter()
        .flat_map(|&h| layout.houses()[h as usize].cells.iter())
        .map(|&c| givens[c as usize])
        .find(|&v| v != 0 && v != full[conflict])
        .expect("a house of the cell holds a given");
    entries[conflict] = row_given;
    // One more cell, the first left empty that can take a digit none of
    // its houses holds and the solution does not put there.
    let current: Vec<u8> = givens
        .iter()
        .zip(&entries)
        .map(|(&g, &e)| g.max(e))
        .collect();
    let free = |cell: usize| {
        (1..=layout.size() as u8).find(|&v| {
            v != full[cell]
                && layout.houses_of(cell).iter().all(|&h| {
                    layout.houses()[h as usize]
                        .cells
                        .iter()
                        .all(|&c| current[c as usize] != v)
                })
        })
    };
    let (breaks, free) = empty[FILLED..]
        .iter()
        .find_map(|&c| free(c).map(|v| (c, v)))
        .expect("an empty cell with a digit no house of it holds");
    entries[breaks] = free;
    let progress = Progress::new(puzzle, Entries::from_values(entries))
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    std::fs::create_dir_all(dir.join("entries"))?;
    std::fs::write(dir.join("entries/classic.txt"), progress.to_text())?;
    println!("entries/classic: {} entries, 2 wrong", FILLED + 1);
    Ok(())
}

fn read(path: &Path) -> std::io::Result<Puzzle> {
    let text = std::fs::read_to_string(path)?;
    match parse(&text, &path.display().to_string(), None) {
        Ok(Document::Single(p)) => Ok(p),
        Ok(Document::Batch(_)) => Err(std::io::Error::other("one puzzle expected")),
        Err(e) => Err(std::io::Error::other(e.to_string())),
    }
}
