//! `sudoku-lens eval`: read every image of a folder that has ground truth
//! and report how much was read right, and how many readings solve to the
//! solution the ground truth agrees with.
//!
//! Ground truth beside `NAME.jpg` (or any image extension): `NAME.dat` or
//! `NAME.txt` (digits), or `NAME.json` (a puzzle, e.g. a killer with its
//! cages), as [`sudoku_lens::truth`] reads them. On killers it also
//! reports the images with every cage (cells and sum) and digit right, the
//! cages whose cells were read right, and of those the sums read right. On
//! jigsaws (ground truth with `regions`) it reports the regions read right
//! (compared as sets of cells: labels are arbitrary) and the images with
//! every region and digit right.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use sudoku_lens::grid::{HouseKind, Layout};
use sudoku_lens::solve::solve;
use sudoku_lens::truth::{Printed, truth_beside};
use sudoku_lens::vision::page::load::has_image_extension;
use sudoku_lens::vision::read::read_path;

use super::Status;

/// The least figures (percent) an evaluation must reach, when given.
#[derive(Clone, Copy, Debug, Default)]
pub struct Floors {
    /// Grids read entirely right.
    pub grids: Option<f64>,
    /// Killers read with every cage and digit right.
    pub killers: Option<f64>,
    /// The player's handwritten entries read right.
    pub entries: Option<f64>,
}

/// `printed`: a file telling which labelled digits are printed (see
/// [`Printed`]); with it, the entries are every labelled digit that is not
/// printed, and one read as a given counts against them.
pub fn run(dir: &Path, floors: Floors, printed: Option<&Path>) -> Result<Status, String> {
    let printed = printed
        .map(Printed::read)
        .transpose()
        .map_err(|e| e.to_string())?;
    // Line by line (standard output is line-buffered), so that a long run
    // shows its misses as they come.
    let mut out = io::stdout().lock();
    match evaluate(dir, floors, printed.as_ref(), &mut out) {
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(Status::Solved),
        Err(Failure::Output(e)) => Err(format!("cannot write the output: {e}")),
        Err(Failure::Error(e)) => Err(e),
        Ok(status) => Ok(status),
    }
}

/// Why an evaluation stopped.
enum Failure {
    /// What to tell: an unusable folder or ground-truth file, or grids
    /// read right below the floor.
    Error(String),
    /// Standard output (closed early: the reader has seen enough).
    Output(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Output(e)
    }
}

fn evaluate(
    dir: &Path,
    floors: Floors,
    printed: Option<&Printed>,
    out: &mut impl Write,
) -> Result<Status, Failure> {
    let images = images_in(dir)?;
    let mut tally = Tally::default();
    for image in &images {
        tally.add_image(image, printed, out)?;
    }
    if tally.total == 0 {
        return Err(Failure::Error(format!(
            "{}: no image with ground truth (.dat, .txt or .json beside it)",
            dir.display()
        )));
    }
    tally.report(dir, printed.is_some(), out)?;
    tally.check_floors(dir, floors)?;
    Ok(Status::Solved)
}

/// The images of `dir`, in the order of their names.
fn images_in(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    let mut images: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Failure::Error(format!("{}: cannot list the folder: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| has_image_extension(p))
        .collect();
    images.sort();
    Ok(images)
}

/// `a` of `b` as a percentage (0 when `b` is 0).
fn pct(a: usize, b: usize) -> f64 {
    100.0 * a as f64 / b.max(1) as f64
}

/// The figures of an evaluation, added up image by image.
#[derive(Default)]
struct Tally {
    /// Images with ground truth; of those located, read with the right
    /// layout, and read with every cell right.
    total: usize,
    located: usize,
    layout_ok: usize,
    grids_ok: usize,
    /// Cells scored; of those read right, and digits read that the paper
    /// does not have there.
    cells: usize,
    cells_ok: usize,
    wrong_digits: usize,
    /// Readings with one solution, agreeing with every digit on the paper.
    solved_ok: usize,
    cages: CageScore,
    regions: RegionScore,
    entries: EntryScore,
    /// Each reading's time, in milliseconds.
    times: Vec<f64>,
}

impl Tally {
    /// Reads `image` and scores it against the ground truth beside it (an
    /// image without any is skipped), writing what it got wrong to `out`.
    fn add_image(
        &mut self,
        image: &Path,
        printed: Option<&Printed>,
        out: &mut impl Write,
    ) -> Result<(), Failure> {
        let Some(truth) = truth_beside(image).map_err(|e| Failure::Error(e.to_string()))? else {
            return Ok(());
        };
        let truth_cages = truth.cages.clone();
        let truth_regions = truth.regions.clone();
        let labels = truth.labels.clone();
        // The `.txt` labels (the kubiesa sets) count handwriting.
        let handwritten = truth.file.extension().is_some_and(|e| e == "txt");
        let truth = truth.values();
        self.total += 1;
        let start = Instant::now();
        let result = read_path(image, None);
        self.times.push(start.elapsed().as_secs_f64() * 1e3);
        let name = image
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        // With the printed givens known, the givens read are scored
        // against them; else against every digit on the paper.
        let print = match printed {
            Some(p) if handwritten => Some(p.for_photo(&name).ok_or_else(|| {
                Failure::Error(format!(
                    "{name}: the file of printed givens names no puzzle this photo's name begins with"
                ))
            })?),
            _ => None,
        };
        let reading = match result {
            Ok(r) => r,
            Err(e) => {
                writeln!(out, "{name}: {e}")?;
                self.add_unread(&labels, print);
                return Ok(());
            }
        };
        self.located += 1;
        let expected = if truth_regions.is_empty() {
            "classic"
        } else {
            "jigsaw"
        };
        if !self.add_layout(&name, reading.puzzle.layout().name(), expected, out)? {
            self.add_unread(&labels, print);
            return Ok(());
        }
        // Every digit shown is owed: on a screenshot, the player's digits
        // told apart by their ink colour count with the givens.
        let mut shown = reading.puzzle.values().to_vec();
        if !handwritten && let Some(split) = &reading.colour {
            for &cell in &split.entry_cells {
                shown[cell] = reading.entries.values()[cell];
            }
        }
        let read = &shown[..];
        // A cell is right as the print has it (the paper's digits, when the
        // print is not known apart).
        let (right, wrong) = self.add_digits(read, print.unwrap_or(&truth), &truth);
        let solved_right = solves_right(&reading.puzzle, &truth);
        self.solved_ok += solved_right as usize;
        if handwritten {
            self.entries
                .add(&labels, read, reading.entries.values(), solved_right, print);
        }
        self.add_shapes(
            &name,
            &truth_cages,
            &truth_regions,
            &reading.puzzle,
            right == 81,
            out,
        )?;
        if right == 81 {
            self.grids_ok += 1;
        } else {
            writeln!(
                out,
                "{name}: {} cells wrong ({wrong} a wrong digit){}",
                81 - right,
                if solved_right { "; solved right" } else { "" }
            )?;
        }
        Ok(())
    }

    /// An image not read, or read as another layout: its 81 cells count as
    /// wrong, and its entries (`labels`, with the `print` when known) as
    /// not read.
    fn add_unread(&mut self, labels: &[u8], print: Option<&[u8]>) {
        self.cells += 81;
        self.entries.add_unread(labels, print);
    }

    /// Whether an image read as the layout `read_as` is scored: when it is
    /// the one `expected`, or a classic where a jigsaw was expected (a
    /// jigsaw whose regions were not read stays a classic: its digits are
    /// still scored). Writes the layouts read wrong.
    fn add_layout(
        &mut self,
        name: &str,
        read_as: &str,
        expected: &str,
        out: &mut impl Write,
    ) -> Result<bool, Failure> {
        if read_as != expected && !(read_as == "classic" && expected == "jigsaw") {
            writeln!(out, "{name}: read as {read_as}")?;
            return Ok(false);
        }
        if read_as == expected {
            self.layout_ok += 1;
        } else {
            writeln!(out, "{name}: read as {read_as}, expected {expected}")?;
        }
        Ok(true)
    }

    /// Scores the digits `read` against those `owed` (the print's, or the
    /// paper's): the cells right, and the digits the paper (`truth`) does
    /// not have there.
    fn add_digits(&mut self, read: &[u8], owed: &[u8], truth: &[u8]) -> (usize, usize) {
        let right = read.iter().zip(owed).filter(|(a, b)| a == b).count();
        let wrong = read
            .iter()
            .zip(truth)
            .filter(|&(&a, &b)| a != 0 && a != b)
            .count();
        self.cells += 81;
        self.cells_ok += right;
        self.wrong_digits += wrong;
        (right, wrong)
    }

    /// Scores the cages and the regions of the puzzle `read` against the
    /// ground truth's, writing the images with some wrong.
    fn add_shapes(
        &mut self,
        name: &str,
        truth_cages: &[sudoku_lens::grid::Cage],
        truth_regions: &[u8],
        read: &sudoku_lens::grid::Puzzle,
        digits_right: bool,
        out: &mut impl Write,
    ) -> Result<(), Failure> {
        let cages_right = self.cages.add(truth_cages, read.cages(), digits_right);
        let regions_right = self.regions.add(truth_regions, read.layout(), digits_right);
        if !truth_regions.is_empty() && !regions_right {
            writeln!(
                out,
                "{name}: regions not all right ({} of {} right)",
                self.regions.last, self.regions.last_total
            )?;
        }
        if !truth_cages.is_empty() && !cages_right {
            writeln!(
                out,
                "{name}: cages not all right ({} read, {} cells right, {} sums right, of {})",
                read.cages().len(),
                self.cages.last.0,
                self.cages.last.1,
                truth_cages.len()
            )?;
        }
        Ok(())
    }

    /// Writes the figures of `dir`: the grids, then the killers, the
    /// jigsaws and the entries when there were any.
    fn report(&mut self, dir: &Path, printed: bool, out: &mut impl Write) -> io::Result<()> {
        let times = &mut self.times;
        times.sort_by(f64::total_cmp);
        writeln!(
            out,
            "{}: {} images; located {:.1}%, layout right {:.1}%, grids entirely right {:.1}% ({}), \
             cells right {:.2}%, wrong digits {}, solved right {:.1}% ({}), median read {:.1} ms, slowest {:.1} ms",
            dir.display(),
            self.total,
            pct(self.located, self.total),
            pct(self.layout_ok, self.total),
            pct(self.grids_ok, self.total),
            self.grids_ok,
            pct(self.cells_ok, self.cells),
            self.wrong_digits,
            pct(self.solved_ok, self.total),
            self.solved_ok,
            times[times.len() / 2],
            times[times.len() - 1],
        )?;
        let cages = &self.cages;
        if cages.images > 0 {
            writeln!(
                out,
                "{}: {} killers; every cage and digit right {:.1}% ({}), cages right {:.1}% ({} of {}), sums right {:.1}% ({})",
                dir.display(),
                cages.images,
                pct(cages.images_ok, cages.images),
                cages.images_ok,
                pct(cages.cells_ok, cages.total),
                cages.cells_ok,
                cages.total,
                pct(cages.sums_ok, cages.total),
                cages.sums_ok,
            )?;
        }
        let regions = &self.regions;
        if regions.images > 0 {
            writeln!(
                out,
                "{}: {} jigsaws; every region and digit right {:.1}% ({}), regions right {:.1}% ({} of {})",
                dir.display(),
                regions.images,
                pct(regions.images_ok, regions.images),
                regions.images_ok,
                pct(regions.right, regions.total),
                regions.right,
                regions.total,
            )?;
        }
        if self.entries.handwriting {
            self.report_entries(dir, printed, out)?;
        }
        Ok(())
    }

    /// Writes the figures of the handwritten entries, and of the printed
    /// givens when they are known (`printed`).
    fn report_entries(&self, dir: &Path, printed: bool, out: &mut impl Write) -> io::Result<()> {
        let e = &self.entries;
        let as_given = if printed {
            format!(", read as a given {}", e.as_given)
        } else {
            String::new()
        };
        writeln!(
            out,
            "{}: entries read right {:.1}% ({} of {}), wrong {:.2}% ({}){as_given}, unsure or missed {}; \
             entries where nothing is written {}; candidate marks read as a given or an entry {} (of {})",
            dir.display(),
            pct(e.right, e.total),
            e.right,
            e.total,
            pct(e.wrong, e.total),
            e.wrong,
            e.total - e.right - e.wrong - e.as_given,
            e.on_blank,
            e.marks_read,
            e.marks,
        )?;
        if printed {
            writeln!(
                out,
                "{}: printed givens read as that given {:.1}% ({} of {})",
                dir.display(),
                pct(e.print_right, e.print),
                e.print_right,
                e.print,
            )?;
        }
        Ok(())
    }

    /// Fails when a figure is below its floor.
    fn check_floors(&self, dir: &Path, floors: Floors) -> Result<(), Failure> {
        let grids_pct = pct(self.grids_ok, self.total);
        if let Some(floor) = floors.grids
            && grids_pct < floor
        {
            return Err(Failure::Error(format!(
                "{}: {grids_pct:.1}% of grids entirely right, below the floor of {floor}%",
                dir.display()
            )));
        }
        let cages = &self.cages;
        let killers_pct = pct(cages.images_ok, cages.images);
        if let Some(floor) = floors.killers
            && (cages.images == 0 || killers_pct < floor)
        {
            return Err(Failure::Error(format!(
                "{}: {killers_pct:.1}% of {} killers read with every cage and digit right, below the floor of {floor}%",
                dir.display(),
                cages.images
            )));
        }
        let entries = &self.entries;
        if let Some(floor) = floors.entries {
            if !entries.handwriting {
                return Err(Failure::Error(format!(
                    "{}: the labels hold no player's entries, so the entries floor of {floor}% \
                     cannot be met: --min-entries is for photos with handwriting",
                    dir.display()
                )));
            }
            let entries_pct = pct(entries.right, entries.total);
            if entries_pct < floor {
                return Err(Failure::Error(format!(
                    "{}: {entries_pct:.1}% of {} entries read right, below the floor of {floor}%",
                    dir.display(),
                    entries.total
                )));
            }
        }
        Ok(())
    }
}

/// What a reading is for: the puzzle as read has one solution, and it
/// agrees with every digit on the paper (`truth`). On a puzzle solved by
/// hand, handwriting read as empty still counts as solved right.
fn solves_right(puzzle: &sudoku_lens::grid::Puzzle, truth: &[u8]) -> bool {
    solve(puzzle, 2, 1).is_ok_and(|o| {
        o.count == 1
            && o.solutions[0]
                .iter()
                .zip(truth)
                .all(|(&s, &t)| t == 0 || s == t)
    })
}

/// The player's entries, on sets whose labels hold handwriting. With the
/// printed givens known (a [`Printed`] file), an entry is a labelled digit
/// that is not printed, on every image. Without, the labels do not tell
/// print from handwriting: an entry is then a labelled digit in a cell the
/// reading holds no given in, counted on images whose reading solved right
/// (only then are the givens taken to be the print, though a player's digit
/// read as a given goes uncounted).
#[derive(Default)]
struct EntryScore {
    /// Whether any image was counted.
    handwriting: bool,
    /// Entries on the paper (of the images counted).
    total: usize,
    right: usize,
    /// Read as another digit.
    wrong: usize,
    /// Read as a printed given (with the printed givens known).
    as_given: usize,
    /// Printed givens (when known), and of those read as that given.
    print: usize,
    print_right: usize,
    /// Entries read in cells whose label is blank.
    on_blank: usize,
    /// Cells labelled with candidate marks, and of those read as a given or
    /// an entry.
    marks: usize,
    marks_read: usize,
}

impl EntryScore {
    /// An image whose reading failed: with its printed givens known, its
    /// entries count as not read (without, they are not known).
    fn add_unread(&mut self, labels: &[u8], printed: Option<&[u8]>) {
        if printed.is_some() {
            let none = vec![0u8; labels.len()];
            self.add(labels, &none, &none, false, printed);
        }
    }

    /// One image: its labels, the givens and entries read, whether it
    /// solved right, and its printed givens when known.
    fn add(
        &mut self,
        labels: &[u8],
        givens: &[u8],
        read: &[u8],
        solved_right: bool,
        printed: Option<&[u8]>,
    ) {
        use sudoku_lens::truth::CANDIDATE_MARKS;
        self.handwriting = true;
        for ((&label, &given), &entry) in labels.iter().zip(givens).zip(read) {
            if label == CANDIDATE_MARKS {
                self.marks += 1;
                self.marks_read += (given != 0 || entry != 0) as usize;
            }
        }
        if let Some(printed) = printed {
            for (((&label, &given), &entry), &print) in
                labels.iter().zip(givens).zip(read).zip(printed)
            {
                if print != 0 {
                    self.print += 1;
                    self.print_right += (given == print) as usize;
                    continue;
                }
                match label {
                    1..=9 => {
                        self.total += 1;
                        self.as_given += (given != 0) as usize;
                        self.right += (given == 0 && entry == label) as usize;
                        self.wrong += (given == 0 && entry != 0 && entry != label) as usize;
                    }
                    0 => self.on_blank += (given == 0 && entry != 0) as usize,
                    _ => {}
                }
            }
            return;
        }
        if !solved_right {
            return;
        }
        for ((&label, &given), &entry) in labels.iter().zip(givens).zip(read) {
            if given != 0 {
                continue;
            }
            match label {
                1..=9 => {
                    self.total += 1;
                    self.right += (entry == label) as usize;
                    self.wrong += (entry != 0 && entry != label) as usize;
                }
                0 => self.on_blank += (entry != 0) as usize,
                _ => {}
            }
        }
    }
}

/// Cage figures over the images whose ground truth has cages.
#[derive(Default)]
struct CageScore {
    images: usize,
    /// Images with every cage (cells and sum) and every digit right.
    images_ok: usize,
    /// Cages of the ground truth.
    total: usize,
    /// Cages read with exactly their cells.
    cells_ok: usize,
    /// Of those, read with their sum.
    sums_ok: usize,
    /// The last image's (cells right, sums right).
    last: (usize, usize),
}

impl CageScore {
    /// Adds one image; `digits_right` when every cell's digit was read
    /// right. Returns whether every cage was right (true when the truth has
    /// none).
    fn add(
        &mut self,
        truth: &[sudoku_lens::grid::Cage],
        read: &[sudoku_lens::grid::Cage],
        digits_right: bool,
    ) -> bool {
        if truth.is_empty() {
            return true;
        }
        self.images += 1;
        let cells_ok = truth
            .iter()
            .filter(|t| read.iter().any(|r| r.cells == t.cells))
            .count();
        let sums_ok = truth.iter().filter(|t| read.contains(t)).count();
        self.total += truth.len();
        self.cells_ok += cells_ok;
        self.sums_ok += sums_ok;
        self.last = (cells_ok, sums_ok);
        let all = sums_ok == truth.len() && read.len() == truth.len();
        self.images_ok += (all && digits_right) as usize;
        all
    }
}

/// Region figures over the images whose ground truth is a jigsaw.
#[derive(Default)]
struct RegionScore {
    images: usize,
    /// Images with every region and every digit right.
    images_ok: usize,
    /// Regions of the ground truth.
    total: usize,
    /// Regions read with exactly their cells.
    right: usize,
    /// The last image's regions right, and its regions.
    last: usize,
    last_total: usize,
}

impl RegionScore {
    /// Adds one image: `truth` the region of each cell (empty when the
    /// truth has no regions), `read` the layout read (a classic's boxes are
    /// its regions); `digits_right` when every cell's digit was read right.
    /// Returns whether every region was right (true when the truth has
    /// none).
    fn add(&mut self, truth: &[u8], read: &Layout, digits_right: bool) -> bool {
        if truth.is_empty() {
            return true;
        }
        self.images += 1;
        let sets = |ids: &[u8]| {
            let mut out: Vec<Vec<u32>> = Vec::new();
            for (cell, &id) in ids.iter().enumerate() {
                if out.len() <= id as usize {
                    out.resize(id as usize + 1, Vec::new());
                }
                out[id as usize].push(cell as u32);
            }
            out
        };
        let truth = sets(truth);
        let read: Vec<Vec<u32>> = if read.regions().is_empty() {
            read.houses()
                .iter()
                .filter(|h| h.kind == HouseKind::Box)
                .map(|h| {
                    let mut cells = h.cells.clone();
                    cells.sort_unstable();
                    cells
                })
                .collect()
        } else {
            sets(read.regions())
        };
        let right = truth.iter().filter(|t| read.contains(t)).count();
        self.total += truth.len();
        self.right += right;
        self.last = right;
        self.last_total = truth.len();
        let all = right == truth.len();
        self.images_ok += (all && digits_right) as usize;
        all
    }
}
