//! Measures the reading of the player's entries and candidate marks, cell
//! by cell: one tab-separated line per cell the reader holds no given in,
//! on every photo of a folder with `.txt` labels (the kubiesa sets).
//!
//! `cargo run --release -p sudoku-lens-tools --bin entries_eval -- DIR [--cut | --cross [--min PERCENT] | --dump OUT.png]`
//!
//! With `--dump`, the working images of the cells labelled with a digit
//! that are not taken for an entry go into one image, in the order of
//! their lines, 25 to a row: to look at what preparation missed.
//!
//! With `--cut` (on the kubiesa sets), the working image of every cell
//! read as an entry whose label is a digit is written into
//! `assets/handwriting/` (`NAME.png`, tiles in reading order, and
//! `NAME.txt`, their labels, NAME the folder's), which `build_model` makes
//! the handwriting model from.
//!
//! With `--cross`, the handwriting model is measured on photos it was not
//! built from: for each puzzle of the folder (the photos whose names share
//! their first two `_` fields, one page taken several times), a model is
//! built from `assets/handwriting/kubiesa-train` and the tiles of the
//! folder's other puzzles, and reads that puzzle's entries as the reader
//! does. Prints the entries read right, wrong and not read sure, summed
//! over the puzzles; with `--min`, fails when fewer than PERCENT of the
//! entries are read right. The entries are the labelled digits that are
//! not printed ([`PRINTED`]): one the reader took for a given counts as
//! not read.
//!
//! Columns: image, cell, label (0 blank, 1-9 a digit, 10 candidate marks),
//! the cell's kind, then for ink read as a digit: the digit, its
//! confidence, whether it agrees with the unique solution, whether it was
//! reported sure; then the ink's height, stroke and contrast (or the
//! preprocessing's empty reason). Images whose reading did not solve right
//! are skipped (their givens are not known to be the print).

use std::path::{Path, PathBuf};

use image::GrayImage;
use sudoku_lens::grid::Puzzle;
use sudoku_lens::solve::solve;
use sudoku_lens::truth::{Printed, truth_beside};
use sudoku_lens::vision::cells::classify::Model;
use sudoku_lens::vision::cells::classify::prep::{
    EmptyReason, Prepared, prepare_entry, work_image,
};
use sudoku_lens::vision::cells::entries::{CellKind, cell_kind, read_digit, read_written};
use sudoku_lens::vision::locate::{CELL_CROP_SIZE, cell_crops};
use sudoku_lens::vision::page::load::has_image_extension;
use sudoku_lens::vision::read::{Colour, read_image};
use sudoku_lens_tools::build::{
    HAND_ATLASES, HandConfig, build_hand_model, read_hand_atlas, tile_atlas,
};
use sudoku_lens_tools::repo_root;

/// The printed givens of the kubiesa sets' puzzles (see the file).
const PRINTED: &str = "tests/data/kubiesa-printed.txt";

/// What the command line asks for.
struct Args {
    /// The folder of photos.
    dir: PathBuf,
    /// The folder's name: the set whose tiles `--cut` writes.
    set: String,
    cut: bool,
    /// Where `--dump` writes the missed entries' working images.
    dump: Option<PathBuf>,
    cross: bool,
    /// The share of entries `--cross` must read right, in percent.
    min: Option<f64>,
}

fn parse_args() -> Result<Args, Box<dyn std::error::Error>> {
    let dir = PathBuf::from(std::env::args().nth(1).ok_or("a folder of photos")?);
    let cut = std::env::args().nth(2).as_deref() == Some("--cut");
    let dump = (std::env::args().nth(2).as_deref() == Some("--dump"))
        .then(|| std::env::args().nth(3).map(PathBuf::from))
        .flatten();
    let cross = std::env::args().nth(2).as_deref() == Some("--cross");
    let min = match (std::env::args().nth(3).as_deref(), std::env::args().nth(4)) {
        _ if !cross => None,
        (Some("--min"), Some(p)) => Some(
            p.parse::<f64>()
                .map_err(|_| format!("--min takes a percentage, not `{p}`"))?,
        ),
        (Some(other), _) => return Err(format!("unexpected argument `{other}`").into()),
        (None, _) => None,
    };
    // The tiles go where `build_model` reads them: the kubiesa sets only.
    let set = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if cut
        && !HAND_ATLASES
            .iter()
            .any(|(png, _)| png.ends_with(&format!("/{set}.png")))
    {
        return Err(format!(
            "--cut writes the tiles of a set the handwriting model is built from \
             (kubiesa-train, kubiesa-val), not `{set}`"
        )
        .into());
    }
    Ok(Args {
        dir,
        set,
        cut,
        dump,
        cross,
        min,
    })
}

/// The models the reader reads digits with.
struct Models {
    print: &'static Model,
    hand: Model,
}

impl Models {
    fn load() -> Models {
        // The handwriting model read from the file, so that a model just
        // rebuilt is measured without building the reader again.
        let hand = std::fs::read(repo_root().join("models/handwriting.bin"))
            .map(|b| Model::from_bytes(&b).expect("a handwriting model"))
            .unwrap_or_else(|_| Model::load_handwriting().clone());
        Models {
            print: Model::load_bundled(),
            hand,
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse_args()?;
    let printed = if args.cross {
        Some(Printed::read(&repo_root().join(PRINTED))?)
    } else {
        None
    };
    let mut images: Vec<PathBuf> = std::fs::read_dir(&args.dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| has_image_extension(p))
        .collect();
    images.sort();
    let models = Models::load();
    let mut photos: Vec<Photo> = Vec::new();
    let mut missed: Vec<(GrayImage, u8)> = Vec::new();
    for image in &images {
        let dump = args.dump.is_some().then_some(&mut missed);
        if let Some(photo) = measure_photo(image, &models, printed.as_ref(), dump)? {
            photos.push(photo);
        }
    }
    if args.cross {
        cross_measure(models.print, &photos, args.min)?;
    }
    if let Some(path) = &args.dump {
        tile_atlas(&missed).0.save(path)?;
        eprintln!(
            "{} missed entries written to {}",
            missed.len(),
            path.display()
        );
    }
    if args.cut {
        write_tiles(photos, &args.set)?;
    }
    Ok(())
}

/// Reads `image` and prints a line for each cell the reader holds no given
/// in; `None` when the photo is skipped (not located, turned, or not solved
/// right). With `missed`, the working images of the cells labelled with a
/// digit that are not taken for an entry go there.
fn measure_photo(
    image: &Path,
    models: &Models,
    printed: Option<&Printed>,
    mut missed: Option<&mut Vec<(GrayImage, u8)>>,
) -> Result<Option<Photo>, Box<dyn std::error::Error>> {
    let Some(truth) = truth_beside(image)? else {
        return Ok(None);
    };
    let name = image.file_stem().unwrap().to_string_lossy().into_owned();
    let read = read_image(image, None, Colour::Drop)?;
    let Ok(reading) = read.reading else {
        eprintln!("{name}: not located");
        return Ok(None);
    };
    if reading.turns % 4 != 0 {
        eprintln!("{name}: turned, skipped");
        return Ok(None);
    }
    let values = reading.puzzle.values();
    let Some(solution) = solved_right(&reading.puzzle, &truth.values()) else {
        eprintln!("{name}: not solved right, skipped");
        return Ok(None);
    };
    let crops = cell_crops(&read.grey, &reading.located, CELL_CROP_SIZE);
    let mut photo = Photo {
        group: name.split('_').take(2).collect::<Vec<_>>().join("_"),
        prepared: Vec::new(),
        givens: values.to_vec(),
        solution: solution.clone(),
        labels: truth.labels.clone(),
        printed: match printed {
            Some(p) => Some(
                p.for_photo(&name)
                    .ok_or_else(|| format!("{PRINTED} names no puzzle of {name}"))?
                    .to_vec(),
            ),
            None => None,
        },
        tiles: Vec::new(),
    };
    for (cell, crop) in crops.iter().enumerate() {
        if values[cell] != 0 {
            photo.prepared.push(Prepared::Empty {
                reason: EmptyReason::NoInk,
                margin: 1.0,
                near: None,
            });
            continue;
        }
        let p = prepare_entry(crop);
        let kind = cell_kind(&p, false);
        let label = truth.labels[cell];
        if kind == CellKind::Entry && (1..=9).contains(&label) {
            photo.tiles.push((work_image(crop), label));
        }
        photo.prepared.push(p.clone());
        if let Some(missed) = missed.as_deref_mut()
            && kind != CellKind::Entry
            && (1..=9).contains(&label)
        {
            missed.push((work_image(crop), label));
        }
        let sure = reading.entries.values()[cell] != 0;
        let columns = format!("{name}\t{cell}\t{label}\t{kind:?}");
        print_cell(&columns, &p, sure, models, solution[cell]);
    }
    Ok(Some(photo))
}

/// The puzzle's unique solution, when it agrees with every digit of
/// `truth` (0: unknown).
fn solved_right(puzzle: &Puzzle, truth: &[u8]) -> Option<Vec<u8>> {
    let solution = solve(puzzle, 2, 1)
        .ok()
        .filter(|o| o.count == 1)
        .and_then(|mut o| o.solutions.pop())?;
    let right = solution.iter().zip(truth).all(|(&a, &b)| b == 0 || a == b);
    right.then_some(solution)
}

/// Prints a cell's line: its first `columns`, then what the reader made of
/// its preparation `p` (see the module's documentation).
fn print_cell(columns: &str, p: &Prepared, sure: bool, models: &Models, solution: u8) {
    match p {
        Prepared::Ink(ink) => {
            let (v, conf, second) = read_digit(models.print, &models.hand, ink);
            let pd = models.print.class_distances(&ink.features);
            let hd = models.hand.class_distances(&ink.features);
            let list = |d: &[f32]| {
                d.iter()
                    .map(|x| format!("{x:.4}"))
                    .collect::<Vec<_>>()
                    .join(",")
            };
            println!(
                "{columns}\t{v}\t{conf:.3}\t{}\t{sure}\t{:.3}\t{:.3}\t{:.0}\t{second}\t{}\t{}\t{}",
                v == solution,
                ink.height,
                ink.stroke,
                ink.contrast,
                list(&pd),
                list(&hd),
                solution,
            );
        }
        Prepared::Empty { reason, margin, .. } => {
            println!("{columns}\t-\t-\t-\t{sure}\t{reason:?}\t{margin:.2}");
        }
    }
}

/// Writes the working images of the cells taken for entries, and their
/// labels, into `assets/handwriting/` as the tiles of `set`.
fn write_tiles(photos: Vec<Photo>, set: &str) -> Result<(), Box<dyn std::error::Error>> {
    let tiles: Vec<(GrayImage, u8)> = photos.into_iter().flat_map(|p| p.tiles).collect();
    let out = repo_root().join("assets/handwriting");
    std::fs::create_dir_all(&out)?;
    let (atlas, labels) = tile_atlas(&tiles);
    atlas.save(out.join(format!("{set}.png")))?;
    std::fs::write(out.join(format!("{set}.txt")), labels)?;
    eprintln!(
        "{} handwriting tiles written to {}",
        tiles.len(),
        out.display()
    );
    Ok(())
}

/// One photo's cells, as the reader prepares them for entries.
struct Photo {
    /// The puzzle the photo shows (photos of one page share it).
    group: String,
    /// Each cell's preparation for entries (a given's: blank).
    prepared: Vec<Prepared>,
    givens: Vec<u8>,
    solution: Vec<u8>,
    labels: Vec<u8>,
    /// The printed givens (0 elsewhere), when known.
    printed: Option<Vec<u8>>,
    /// The working images of the cells taken for entries, with their labels.
    tiles: Vec<(GrayImage, u8)>,
}

/// Reads each puzzle's entries with a handwriting model built without its
/// photos (see the module's documentation), and prints the totals.
fn cross_measure(
    print: &Model,
    photos: &[Photo],
    min: Option<f64>,
) -> Result<(), Box<dyn std::error::Error>> {
    let train = read_hand_atlas(repo_root(), HAND_ATLASES[0])?;
    let mut groups: Vec<&str> = photos.iter().map(|p| p.group.as_str()).collect();
    groups.sort_unstable();
    groups.dedup();
    let (mut entries, mut right, mut wrong, mut marks_taken) = (0, 0, 0, 0);
    let mut as_given = 0;
    for group in &groups {
        let mut tiles = train.clone();
        tiles.extend(
            photos
                .iter()
                .filter(|p| p.group != *group)
                .flat_map(|p| p.tiles.iter().cloned()),
        );
        let hand = Model::from_bytes(&build_hand_model(&tiles, &HandConfig::default())?)?;
        let (mut e, mut r, mut w) = (0, 0, 0);
        for p in photos.iter().filter(|p| p.group == *group) {
            let (_, written, _) =
                read_written(print, &hand, &p.prepared, &p.givens, Some(&p.solution));
            let mut sure = vec![0u8; p.labels.len()];
            for x in written.iter().filter(|x| x.sure) {
                sure[x.cell] = x.value;
            }
            for (cell, &label) in p.labels.iter().enumerate() {
                let printed = p.printed.as_ref().is_some_and(|x| x[cell] != 0);
                if p.givens[cell] != 0 {
                    // A player's digit taken for a given is not read.
                    if p.printed.is_some() && !printed && (1..=9).contains(&label) {
                        e += 1;
                        as_given += 1;
                    }
                    continue;
                }
                if printed {
                    continue;
                }
                if label == 10 && sure[cell] != 0 {
                    marks_taken += 1;
                }
                if !(1..=9).contains(&label) {
                    continue;
                }
                e += 1;
                if sure[cell] == label {
                    r += 1;
                } else if sure[cell] != 0 {
                    w += 1;
                }
            }
        }
        eprintln!(
            "{group}: {r} of {e} right, {w} wrong ({} tiles)",
            tiles.len()
        );
        entries += e;
        right += r;
        wrong += w;
    }
    let share = 100.0 * right as f64 / entries.max(1) as f64;
    println!(
        "cross-measured over {} puzzles: entries {entries}, read right {right} ({share:.1}%), wrong {wrong} ({:.2}%), read as a given {as_given}, not read sure {}, candidate marks read as an entry {marks_taken}",
        groups.len(),
        100.0 * wrong as f64 / entries.max(1) as f64,
        entries - right - wrong - as_given
    );
    if let Some(min) = min.filter(|&m| share < m) {
        return Err(format!("entries read right {share:.1}% is below the floor of {min}%").into());
    }
    Ok(())
}
