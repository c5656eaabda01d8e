//! A solved square grid without a search: for layouts whose generator
//! search takes long (16 x 16 and larger).

use sudoku_lens::rng::Rng;

/// A solved square grid of boxes `br` rows by `bc` columns (`br * bc`
/// symbols, row by row): the pattern where each row of a band starts `bc`
/// symbols on from the row above and each band one on from the band above,
/// with the rows within each band and the bands, the columns within each
/// stack and the stacks, and the symbols shuffled by `rng`, in that order.
pub fn shuffled_pattern(br: usize, bc: usize, rng: &mut Rng) -> Vec<u8> {
    let n = br * bc;
    // Lines (rows or columns) in an order that keeps each group together.
    let mut lines = |groups: usize, size: usize| {
        let mut outer: Vec<usize> = (0..groups).collect();
        rng.shuffle(&mut outer);
        let mut order = Vec::with_capacity(n);
        for g in outer {
            let mut within: Vec<usize> = (0..size).collect();
            rng.shuffle(&mut within);
            order.extend(within.into_iter().map(|i| g * size + i));
        }
        order
    };
    // Bands of `br` rows (`bc` of them); stacks of `bc` columns (`br`).
    let rows = lines(bc, br);
    let cols = lines(br, bc);
    let mut symbols: Vec<usize> = (1..=n).collect();
    rng.shuffle(&mut symbols);
    let mut grid = vec![0u8; n * n];
    for (r, &pr) in rows.iter().enumerate() {
        for (c, &pc) in cols.iter().enumerate() {
            grid[r * n + c] = symbols[((pr % br) * bc + pr / br + pc) % n] as u8;
        }
    }
    grid
}
