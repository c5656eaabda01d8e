//! The JSON form of a puzzle, as `solve --json` prints it and as puzzle
//! files may hold it:
//!
//! ```json
//! {"layout": "killer",
//!  "grid": ["65..1....", "..7..4.8.", ...],
//!  "cages": [{"sum": 12, "cells": [[0, 0], [0, 1], [1, 1]]}, ...]}
//! ```
//!
//! `layout` names the shape ([`Layout::named`]), or `killer` (a classic with
//! cages) or `killer-NAME`; `grid` holds the canvas rows (a symbol or `.` per
//! cell, a space or `#` outside the shape); `cages` is optional, each cage a
//! sum and its cells as `[row, column]` from 0. A jigsaw (`"layout":
//! "jigsaw"`, or `killer-jigsaw`) has `regions`: as many rows as `grid`, one
//! label character per cell, each label marking the cells of one region
//! (`["111222333", ...]`), as the text form writes its region map.
//! `entries`, optional, holds a
//! player's digits in rows like `grid`'s (`.` where nothing is written; read
//! by [`super::parse_progress`]). `rules`, optional, lists the variant
//! rules, each a string in the text form's words (`"thermo r1c1 r1c2 r1c3"`,
//! `"diagonal+"`; see [`super::Rule::parse`]). Other keys are ignored.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::cage::{Cage, check_cages};
use super::layout::Layout;
use super::parse_error::ParseError;
use super::puzzle::{Alphabet, Format, Puzzle, cell_value};
use super::rules::{Rule, check_rules};

/// Reads a puzzle from its JSON form; `file` names the source in errors,
/// which name the place in the JSON (`grid[3]`, `cages[5].cells[1]`).
pub fn from_json(value: &Value, file: &str) -> Result<Puzzle, ParseError> {
    let err = |message: String| ParseError {
        file: file.to_string(),
        line: 0,
        column: 0,
        message,
    };
    let obj = value.as_object().ok_or_else(|| {
        err("expected a JSON object with \"layout\", \"grid\" and \"cages\"".into())
    })?;
    let name = obj
        .get("layout")
        .and_then(Value::as_str)
        .unwrap_or("classic");
    let layout = match jigsaw_named(name) {
        true => jigsaw_regions(obj, name).map_err(err)?,
        false => layout_named(name).map_err(err)?,
    };
    let rows = read_rows(obj, "grid", &layout).map_err(err)?;
    let alphabet = Alphabet::detect(layout.size(), rows.iter().flat_map(|r| r.chars()));
    let values = row_values(&rows, "grid", &layout, alphabet).map_err(err)?;
    let format = if !layout.regions().is_empty() {
        Format::Jigsaw
    } else if layout.is_full() {
        Format::Rows { pretty: false }
    } else {
        Format::Canvas { outside: '#' }
    };
    let layout = Arc::new(layout);
    let puzzle = Puzzle::from_parts(layout.clone(), values, alphabet, format, Vec::new());
    let rules = read_rules(obj.get("rules"), &layout).map_err(err)?;
    check_rules(&layout, puzzle.values(), &rules).map_err(|e| err(e.message))?;
    let puzzle = puzzle.with_rules(rules);
    let cages = match obj.get("cages") {
        None | Some(Value::Null) => return Ok(puzzle),
        Some(v) => read_cages(v, &layout).map_err(err)?,
    };
    check_cages(&layout, puzzle.values(), &cages, &|i| format!("cages[{i}]"))
        .map_err(|e| err(e.message))?;
    puzzle.with_cages(cages).map_err(|e| err(e.message))
}

/// The shape a JSON `layout` names, without its `killer-` prefix.
fn base_name(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "killer" => "classic".to_string(),
        other => other.strip_prefix("killer-").unwrap_or(other).to_string(),
    }
}

/// Whether a JSON `layout` names a jigsaw (which needs its `regions`).
fn jigsaw_named(name: &str) -> bool {
    base_name(name) == "jigsaw"
}

/// The layout a JSON `layout` names: a built-in name, `killer` (a classic),
/// or `killer-NAME`.
fn layout_named(name: &str) -> Result<Layout, String> {
    Layout::named(&base_name(name)).map_err(|e| format!("layout: {e}"))
}

/// A jigsaw's layout from its `regions` rows: a square of label characters,
/// one region per label.
fn jigsaw_regions(obj: &Map<String, Value>, name: &str) -> Result<Layout, String> {
    let rows = obj
        .get("regions")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            format!(
                "layout \"{name}\": a jigsaw needs \"regions\": its rows of region labels, \
                 one character per cell, e.g. [\"111222333\", ...]"
            )
        })?;
    let n = rows.len();
    let mut labels: Vec<char> = Vec::new();
    let mut ids = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let s = row
            .as_str()
            .ok_or_else(|| format!("regions[{r}]: expected a string"))?;
        let chars: Vec<char> = s.chars().collect();
        if chars.len() != n {
            return Err(format!(
                "regions[{r}] has {} labels; a jigsaw of {n} rows has {n} in each",
                chars.len()
            ));
        }
        for (c, ch) in chars.into_iter().enumerate() {
            let id = labels.iter().position(|&l| l == ch).unwrap_or_else(|| {
                labels.push(ch);
                labels.len() - 1
            });
            if id >= n {
                return Err(format!(
                    "regions[{r}], character {}: a {n}x{n} jigsaw has {n} regions; \
                     '{ch}' is region {}",
                    c + 1,
                    id + 1
                ));
            }
            ids.push(id);
        }
    }
    Layout::jigsaw(n, &ids).map_err(|e| format!("regions: {e}"))
}

/// A jigsaw's region map as JSON rows, one label per cell (`1` for the
/// region of the top-left cell, then in order of first appearance, as the
/// text form writes it); `None` for a layout without regions.
pub fn regions_json(puzzle: &Puzzle) -> Option<Value> {
    let layout = puzzle.layout();
    let regions = layout.regions();
    if regions.is_empty() {
        return None;
    }
    let rows: Vec<String> = (0..layout.height())
        .map(|r| {
            (0..layout.width())
                .map(|c| {
                    let cell = layout.cell_at(r, c).expect("a jigsaw is a full grid");
                    Alphabet::Digits.symbol(regions[cell] + 1)
                })
                .collect()
        })
        .collect();
    Some(json!(rows))
}

/// The values of the rows under `key` (as [`read_rows`] gives them) in the
/// puzzle's alphabet: a character per canvas column, a space, `#` or `.`
/// outside the shape.
pub(super) fn row_values(
    rows: &[String],
    key: &str,
    layout: &Layout,
    alphabet: Alphabet,
) -> Result<Vec<u8>, String> {
    let mut values = vec![0u8; layout.cell_count()];
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            match layout.cell_at(r, c) {
                Some(cell) => {
                    values[cell] = cell_value(ch, alphabet, layout.size())
                        .map_err(|m| format!("{key}[{r}], character {}: {m}", c + 1))?;
                }
                None if ch == ' ' || ch == '#' || ch == '.' => {}
                None => {
                    return Err(format!(
                        "{key}[{r}], character {}: '{ch}' is outside the {} shape \
                         (expected a space or '#')",
                        c + 1,
                        layout.name()
                    ));
                }
            }
        }
        let missing = (row.chars().count()..layout.width()).find_map(|c| layout.cell_at(r, c));
        if let Some(cell) = missing {
            return Err(format!(
                "{key}[{r}] ends before {}, a cell of the {} shape",
                layout.cell_name(cell),
                layout.name()
            ));
        }
    }
    Ok(values)
}

/// The rows under `key` (`grid`, or `entries`): an array of canvas rows, or
/// one string of every cell.
pub(super) fn read_rows(
    obj: &Map<String, Value>,
    key: &str,
    layout: &Layout,
) -> Result<Vec<String>, String> {
    let grid = obj.get(key).ok_or_else(|| {
        format!(
            "no \"{key}\": expected the rows of the puzzle, e.g. \"{key}\": [\"5..3.....\", ...]"
        )
    })?;
    if let Some(line) = grid.as_str() {
        let chars: Vec<char> = line.chars().collect();
        if !layout.is_full() || chars.len() != layout.cell_count() {
            return Err(format!(
                "{key}: a string of {} characters; a {} puzzle in one string has {}",
                chars.len(),
                layout.name(),
                layout.cell_count()
            ));
        }
        return Ok(chars
            .chunks(layout.width())
            .map(|row| row.iter().collect())
            .collect());
    }
    let rows = grid
        .as_array()
        .ok_or_else(|| format!("{key}: expected an array of row strings"))?;
    if rows.len() != layout.height() {
        return Err(format!(
            "{key} has {} rows; a {} puzzle has {}",
            rows.len(),
            layout.name(),
            layout.height()
        ));
    }
    rows.iter()
        .enumerate()
        .map(|(r, row)| {
            let s = row
                .as_str()
                .ok_or_else(|| format!("{key}[{r}]: expected a string"))?;
            if s.trim_end().chars().count() > layout.width() {
                return Err(format!(
                    "{key}[{r}] has {} characters; a {} row has {}",
                    s.chars().count(),
                    layout.name(),
                    layout.width()
                ));
            }
            Ok(s.to_string())
        })
        .collect()
}

fn read_cages(value: &Value, layout: &Layout) -> Result<Vec<Cage>, String> {
    let list = value
        .as_array()
        .ok_or("cages: expected an array of {\"sum\": N, \"cells\": [[row, col], ...]}")?;
    let mut cages = Vec::with_capacity(list.len());
    for (i, cage) in list.iter().enumerate() {
        let sum = cage
            .get("sum")
            .and_then(Value::as_u64)
            .and_then(|s| u32::try_from(s).ok())
            .ok_or_else(|| format!("cages[{i}]: expected \"sum\": a whole number"))?;
        let cells = cage
            .get("cells")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("cages[{i}]: expected \"cells\": [[row, col], ...]"))?;
        let mut ids = Vec::with_capacity(cells.len());
        for (j, rc) in cells.iter().enumerate() {
            let pair = rc
                .as_array()
                .filter(|a| a.len() == 2)
                .and_then(|a| Some((a[0].as_u64()? as usize, a[1].as_u64()? as usize)));
            let Some((r, c)) = pair else {
                return Err(format!(
                    "cages[{i}].cells[{j}]: expected [row, col], whole numbers from 0"
                ));
            };
            let cell = layout.cell_at(r, c).ok_or_else(|| {
                format!(
                    "cages[{i}].cells[{j}]: [{r}, {c}] is not a cell of the {} shape",
                    layout.name()
                )
            })?;
            ids.push(cell as u32);
        }
        cages.push(Cage::new(sum, ids));
    }
    Ok(cages)
}

/// The `rules` list: each a string in the text form's words.
fn read_rules(value: Option<&Value>, layout: &Layout) -> Result<Vec<Rule>, String> {
    let list = match value {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(a)) => a,
        Some(_) => return Err("rules: expected a list of strings such as \"diagonal+\"".into()),
    };
    let mut rules = Vec::new();
    for (i, r) in list.iter().enumerate() {
        let text = r
            .as_str()
            .ok_or_else(|| format!("rules[{i}]: expected a string such as \"thermo r1c1 r1c2\""))?;
        let parsed = Rule::parse(text, layout)
            .map_err(|(col, msg)| format!("rules[{i}], character {}: {msg}", col + 1))?;
        rules.extend(parsed);
    }
    Ok(rules)
}

/// The variant rules of `puzzle` as JSON: a list of strings in the text
/// form's words.
pub fn rules_json(puzzle: &Puzzle) -> Value {
    Value::Array(
        puzzle
            .rules()
            .iter()
            .map(|r| Value::String(r.to_text(puzzle.layout())))
            .collect(),
    )
}

/// The cages of `puzzle` as JSON: `[{"sum": 12, "cells": [[r, c], ...]}, ...]`,
/// rows and columns from 0.
pub fn cages_json(puzzle: &Puzzle) -> Value {
    let layout = puzzle.layout();
    Value::Array(
        puzzle
            .cages()
            .iter()
            .map(|cage| {
                let cells: Vec<[usize; 2]> = cage
                    .cells
                    .iter()
                    .map(|&c| {
                        let (r, c) = layout.position(c as usize);
                        [r, c]
                    })
                    .collect();
                json!({ "sum": cage.sum, "cells": cells })
            })
            .collect(),
    )
}

/// The puzzle in its JSON form: `layout` (its [`Puzzle::kind`]), `grid`,
/// `regions` for a jigsaw, and `cages` when it has some.
pub fn to_json(puzzle: &Puzzle) -> Value {
    let mut obj = json!({
        "layout": puzzle.kind(),
        "grid": puzzle.rows(),
    });
    if let Some(regions) = regions_json(puzzle) {
        obj["regions"] = regions;
    }
    if !puzzle.cages().is_empty() {
        obj["cages"] = cages_json(puzzle);
    }
    if !puzzle.rules().is_empty() {
        obj["rules"] = rules_json(puzzle);
    }
    obj
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Document, parse};

    fn read(text: &str) -> Result<Puzzle, ParseError> {
        parse(text, "p.json", None).map(|d| match d {
            Document::Single(p) => p,
            Document::Batch(_) => panic!("one puzzle"),
        })
    }

    #[test]
    fn the_json_form_round_trips() {
        let path = format!("{}/samples/puzzles/killer.txt", env!("CARGO_MANIFEST_DIR"));
        let Document::Single(p) =
            parse(&std::fs::read_to_string(path).unwrap(), "k", None).unwrap()
        else {
            panic!()
        };
        let value = to_json(&p);
        assert_eq!(value["layout"], "killer");
        assert_eq!(
            value["cages"][0],
            json!({"sum": 12, "cells": [[0, 0], [0, 1], [0, 2]]})
        );
        let back = read(&value.to_string()).unwrap();
        assert_eq!(back.layout(), p.layout());
        assert_eq!(back.values(), p.values());
        assert_eq!(back.cages(), p.cages());
        // A samurai with a given and a cage: canvas rows, spaces outside.
        let mut s = Puzzle::empty(Arc::new(Layout::samurai()));
        s.set(0, 4);
        let s = s.with_cages(vec![Cage::new(3, vec![1, 2])]).unwrap();
        let value = to_json(&s);
        assert_eq!(value["layout"], "killer-samurai");
        let back = read(&value.to_string()).unwrap();
        assert_eq!(back.values(), s.values());
        assert_eq!(back.cages(), s.cages());
        // Without cages, the plain layout name and no "cages".
        let plain = to_json(&Puzzle::empty(Arc::new(Layout::classic())));
        assert_eq!(
            plain,
            json!({"layout": "classic", "grid": vec![".........";9]})
        );
    }

    #[test]
    fn a_jigsaw_carries_its_regions_both_ways() {
        let path = format!("{}/samples/puzzles/jigsaw.txt", env!("CARGO_MANIFEST_DIR"));
        let Document::Single(p) =
            parse(&std::fs::read_to_string(path).unwrap(), "j", None).unwrap()
        else {
            panic!()
        };
        let value = to_json(&p);
        assert_eq!(value["layout"], "jigsaw");
        assert_eq!(value["regions"][0], "112223333");
        assert_eq!(value["regions"][8], "888899977");
        let back = read(&value.to_string()).unwrap();
        assert_eq!(back.layout(), p.layout());
        assert_eq!(back.values(), p.values());
        assert_eq!(back.to_text(), p.to_text(), "written back as a jigsaw");
        // Labels are any characters: the same partition, other labels.
        let mut relabelled = value.clone();
        relabelled["regions"] = json!(
            value["regions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap().replace('1', "x").replace('9', "a"))
                .collect::<Vec<_>>()
        );
        assert_eq!(read(&relabelled.to_string()).unwrap().layout(), p.layout());
        // No regions for other layouts.
        assert!(regions_json(&Puzzle::empty(Arc::new(Layout::classic()))).is_none());
    }

    #[test]
    fn jigsaw_json_errors_name_the_place() {
        let grid = json!(vec!["........."; 9]);
        let msg = |v: Value| read(&v.to_string()).unwrap_err().to_string();
        assert!(
            msg(json!({"layout": "jigsaw", "grid": grid})).contains("needs \"regions\""),
            "{}",
            msg(json!({"layout": "jigsaw", "grid": grid}))
        );
        let mut regions: Vec<String> = (1..=9).map(|i| i.to_string().repeat(9)).collect();
        regions[3] = "4444".into();
        assert_eq!(
            msg(json!({"layout": "jigsaw", "grid": grid, "regions": regions})),
            "p.json: regions[3] has 4 labels; a jigsaw of 9 rows has 9 in each"
        );
        regions[3] = "444444444".into();
        regions[8] = "99999999x".into();
        assert_eq!(
            msg(json!({"layout": "jigsaw", "grid": grid, "regions": regions})),
            "p.json: regions[8], character 9: a 9x9 jigsaw has 9 regions; 'x' is region 10"
        );
        regions[8] = "999999999".into();
        regions[3] = "444444445".into();
        assert_eq!(
            msg(json!({"layout": "jigsaw", "grid": grid, "regions": regions})),
            "p.json: regions: region 4 has 8 cells; every region needs 9"
        );
    }

    #[test]
    fn json_errors_name_the_place() {
        let grid = json!(vec!["........."; 9]);
        let msg = |v: Value| read(&v.to_string()).unwrap_err().to_string();
        assert_eq!(
            msg(
                json!({"layout": "killer", "grid": grid, "cages": [{"sum": 3, "cells": [[0, 0], [9, 0]]}]})
            ),
            "p.json: cages[0].cells[1]: [9, 0] is not a cell of the classic shape"
        );
        assert_eq!(
            msg(
                json!({"layout": "killer", "grid": grid, "cages": [{"sum": 3, "cells": [[0, 0]]}, {"sum": 4, "cells": [[0, 0]]}]})
            ),
            "p.json: r1c1 is in two cages: cages[0] and cages[1]"
        );
        assert_eq!(
            msg(json!({"layout": "kiler", "grid": grid})),
            "p.json: layout: unknown layout \"kiler\" (known: classic, samurai, twodoku, \
             butterfly, flower, sohei, 4x4, 6x6, 8x8, 12x12, 16x16, 25x25)"
        );
        let mut bad = vec![".........".to_string(); 9];
        bad[4] = "....x....".into();
        assert_eq!(
            msg(json!({"layout": "killer", "grid": bad})),
            "p.json: grid[4], character 5: expected a digit 1-9 or '.' for an empty cell, found 'x'"
        );
        assert_eq!(
            msg(json!({"layout": "classic", "grid": vec!["........."; 8]})),
            "p.json: grid has 8 rows; a classic puzzle has 9"
        );
        let e = read("{\"layout\": \"killer\",\n \"grid\": [}").unwrap_err();
        assert_eq!((e.line, e.column), (2, 11), "{e}");
        assert!(e.message.starts_with("not valid JSON: "), "{e}");
    }
}
