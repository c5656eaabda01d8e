//! The rating against Sudoku Explainer's on the reference puzzles in
//! `../shared/data/puzzles/ratings/ratings.tsv` (150 classic puzzles with
//! SE's ER and HoDoKu's level and score): Spearman's rank correlation, with
//! ties as average ranks, and a blank ER (SE did not finish within a minute:
//! above 10) ranked above every number.
//!
//! cargo test --release --test logic_ratings -- --ignored --nocapture
//! (set LOGIC_RATINGS_ROWS=1 to print every row)

use std::sync::Arc;
use std::time::Instant;

use sudoku_lens::grid::Layout;
use sudoku_lens::logic::{Logic, Options};

mod collections;

/// The correlation reached when this floor was set; the test fails below it.
const SPEARMAN_FLOOR: f64 = 0.95;

/// Average ranks (1-based) of `values`, ties sharing the mean of their ranks.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut out = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = rank;
        }
        i = j + 1;
    }
    out
}

/// Spearman's rho: Pearson's correlation of the average ranks.
fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let (mut cov, mut va, mut vb) = (0.0, 0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        cov += (x - ma) * (y - mb);
        va += (x - ma) * (x - ma);
        vb += (y - mb) * (y - mb);
    }
    cov / (va * vb).sqrt()
}

#[test]
fn spearman_handles_ties_as_average_ranks() {
    assert_eq!(ranks(&[3.0, 1.0, 3.0, 2.0]), [3.5, 1.0, 3.5, 2.0]);
    assert!((spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]) - 1.0).abs() < 1e-12);
    assert!((spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
}

#[test]
#[ignore = "needs ../shared/data; run in release"]
fn rating_ranks_puzzles_as_sudoku_explainer_does() {
    let Some(dir) = collections::dir() else {
        println!("no shared data; nothing to check");
        return;
    };
    let path = dir.join("ratings/ratings.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rows = std::env::var_os("LOGIC_RATINGS_ROWS").is_some();
    let mut logic = Logic::new(Arc::new(Layout::classic()));
    let opts = Options {
        unique: true,
        ..Options::default()
    };
    let (mut ours, mut theirs, mut hodoku) = (Vec::new(), Vec::new(), Vec::new());
    let start = Instant::now();
    for (i, line) in text.lines().enumerate().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let values: Vec<u8> = f[0]
            .bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect();
        let t = Instant::now();
        let r = logic
            .rate(&values, &opts)
            .unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let ms = t.elapsed().as_secs_f64() * 1e3;
        // A blank ER: SE gave up after a minute, i.e. above 10; top rank.
        let se: f64 = f[2].parse().unwrap_or(f64::INFINITY);
        ours.push(r.difficulty as f64);
        theirs.push(se);
        hodoku.push(f[6].parse::<f64>().unwrap_or(0.0));
        if rows {
            let top: Vec<String> = r
                .counts
                .iter()
                .rev()
                .take(3)
                .map(|(t, n)| format!("{t} x{n}"))
                .collect();
            println!(
                "{:>5} {:>5.1} {:>8.1}ms {:<14} {:<8} {}",
                f[2],
                r.difficulty,
                ms,
                f[1],
                f[5],
                top.join(", ")
            );
        }
    }
    let rho = spearman(&ours, &theirs);
    println!(
        "{} puzzles rated in {:.2} s; Spearman with SE's ER (blank = top rank): {rho:.4}; \
         HoDoKu's score with SE's ER: {:.4}",
        ours.len(),
        start.elapsed().as_secs_f64(),
        spearman(&hodoku, &theirs)
    );
    assert!(
        rho >= SPEARMAN_FLOOR,
        "Spearman {rho:.4} below {SPEARMAN_FLOOR}"
    );
}
