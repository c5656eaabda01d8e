//! Inputs made to break the program: each gets a clear error or an answer
//! in bounded time, never a panic or an endless wait, and no command writes
//! over one of its inputs.

use std::path::Path;

mod common;
use common::*;

/// A GIF whose screen is `width` x `height` pixels, holding one frame of
/// a single black pixel: a colour table of two (black, white) and the LZW
/// stream clear, pixel 0, end (code size 2: codes 4, 0, 5 in 3 bits each).
fn gif_screen(width: u16, height: u16) -> Vec<u8> {
    let mut g = b"GIF89a".to_vec();
    g.extend(width.to_le_bytes());
    g.extend(height.to_le_bytes());
    g.extend([0x80, 0, 0]); // a global colour table of 2, background, aspect
    g.extend([0, 0, 0, 255, 255, 255]);
    g.push(0x2c); // image descriptor: at 0, 0, 1 x 1, no local table
    g.extend([0, 0, 0, 0, 1, 0, 1, 0, 0]);
    let codes: u16 = 4 | (5 << 6);
    g.extend([2, 2]); // code size, a sub-block of two bytes
    g.extend(codes.to_le_bytes());
    g.extend([0, 0x3b]); // end of the frame's data, trailer
    g
}

#[test]
fn an_image_without_pixels_is_too_small_not_a_crash() {
    for (w, h) in [(0, 0), (0, 40), (40, 0)] {
        let gif = temp_file(&format!("gif-{w}x{h}"), "empty.gif", gif_screen(w, h));
        let path = gif.to_str().unwrap();
        for command in ["read", "solve", "hint", "check"] {
            let o = run(&[command, path]);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{command} {w}x{h}: {err}");
            assert!(
                err.contains("empty.gif")
                    && (err.contains("too small") || err.contains("not an image")),
                "{command} {w}x{h}: {err}"
            );
            assert!(!err.contains("panicked"), "{command} {w}x{h}: {err}");
        }
    }
}

#[test]
fn an_f_puzzles_size_past_any_grid_is_refused_at_once() {
    for size in ["4294967296", "100000"] {
        let file = temp_file(
            &format!("size-{size}"),
            "big.json",
            format!(r#"{{"size":{size},"grid":[[{{"value":1}}]]}}"#),
        );
        let start = std::time::Instant::now();
        let o = run(&["solve", file.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{size}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("size {size} is not a grid size")),
            "{size}: {}",
            stderr(&o)
        );
        // Refused before anything that size is made.
        assert!(
            start.elapsed().as_secs() < 5,
            "{size}: {:?}",
            start.elapsed()
        );
    }
}

/// The bytes of a file, to show it was not touched.
fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn no_export_lands_on_its_own_input() {
    let dir = temp_dir("overwrite");
    let copy = |from: &Path, name: &str| {
        let to = dir.join(name);
        std::fs::copy(from, &to).unwrap();
        to
    };
    let text = copy(&samples().join("classic.txt"), "p.txt");
    let entries = copy(&samples().join("entries/classic.txt"), "e.txt");
    let png = copy(&images().join("classic-screen-light.png"), "a.png");
    let cases: Vec<(Vec<String>, &Path)> = vec![
        (
            vec!["hint".into(), s(&text), "--export".into(), s(&text)],
            &text,
        ),
        (
            vec!["hint".into(), s(&png), "--export".into(), s(&png)],
            &png,
        ),
        (
            vec!["check".into(), s(&entries), "--export".into(), s(&entries)],
            &entries,
        ),
        (
            vec!["solve".into(), s(&png), "--export".into(), s(&png)],
            &png,
        ),
        // Another spelling of the same path.
        (
            vec![
                "hint".into(),
                s(&png),
                "--export".into(),
                s(&dir.join(".").join("a.png")),
            ],
            &png,
        ),
    ];
    // A hard link is the same file under another name.
    let link = dir.join("hard.png");
    std::fs::hard_link(&png, &link).unwrap();
    let mut cases = cases;
    for command in ["solve", "hint", "check"] {
        cases.push((
            vec![command.into(), s(&png), "--export".into(), s(&link)],
            &png,
        ));
    }
    for (args, input) in &cases {
        let before = bytes(input);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&args);
        assert_ne!(o.status.code(), Some(0), "{args:?}: {}", stdout(&o));
        assert!(
            stderr(&o).contains("will not export to"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_eq!(bytes(input), before, "{args:?}: the input was changed");
    }
    // The same export to a new name is written, whole, with nothing left
    // beside it.
    let out = dir.join("hint.png");
    let o = run(&["hint", &s(&png), "--export", &s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(image_size(&out).0 > 0);
    let parts: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".part"))
        .collect();
    assert!(parts.is_empty(), "{parts:?}");
}

fn s(path: &Path) -> String {
    path.to_str().unwrap().to_string()
}

fn image_size(path: &Path) -> (u32, u32) {
    image::image_dimensions(path).unwrap()
}

/// The 25x25 sample with only its first row of givens: many solutions, and
/// a search of hundreds of choices to find two.
fn thin_25x25() -> String {
    let full = std::fs::read_to_string(samples().join("25by25.txt")).unwrap();
    full.lines()
        .enumerate()
        .map(|(r, line)| {
            if r == 0 {
                line.to_string()
            } else {
                ".".repeat(line.chars().count())
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[test]
fn a_search_past_its_time_limit_gives_up_and_says_so() {
    let file = temp_file("time-limit", "thin.txt", thin_25x25());
    let path = file.to_str().unwrap();
    for command in ["solve", "hint", "rate"] {
        let o = run(&[command, "--time-limit", "0.0001", path]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(6), "{command}: {err}");
        assert!(err.contains("gave up after"), "{command}: {err}");
        assert!(err.contains("--time-limit"), "{command}: {err}");
    }
    // The same without a limit, or with room: found several solutions.
    for limit in ["0", "60"] {
        let o = run(&["solve", "--time-limit", limit, path]);
        assert_eq!(o.status.code(), Some(4), "{limit}: {}", stderr(&o));
    }
    let o = run(&["solve", "--time-limit", "soon", path]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("number of seconds"), "{}", stderr(&o));
}

#[test]
fn a_batch_longer_than_a_part_is_solved_in_order_with_its_line_numbers() {
    let classic = std::fs::read_to_string(samples().join("classic.txt"))
        .unwrap()
        .replace('\n', "");
    let solution = std::fs::read_to_string(samples().join("classic.solution.txt"))
        .unwrap()
        .replace('\n', "");
    // Over 1 MiB: more than one part. A comment, a bad line and a puzzle
    // with no solution far into the file.
    let lines = 14_000;
    let mut text = String::new();
    for i in 1..=lines {
        match i {
            2 => text.push_str("# a comment\n"),
            13_001 => text.push_str("not a puzzle\n"),
            13_002 => text.push_str(&format!("11{}\n", &classic[2..])),
            _ => text.push_str(&format!("{classic}\n")),
        }
    }
    assert!(text.len() > 1 << 20);
    let file = temp_file("long-batch", "batch.txt", &text);
    let o = run(&["solve", file.to_str().unwrap()]);
    let out = stdout(&o);
    let err = stderr(&o);
    // Every line has its line of output, in order.
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got.len(), lines, "{err}");
    assert_eq!(got[0], solution);
    assert_eq!(got[1], "# a comment");
    assert_eq!(got[13_000], "not a puzzle");
    assert_eq!(got[lines - 1], solution);
    // Problems name the file's own line numbers, past the first part.
    assert!(err.contains("batch.txt:13001"), "{err}");
    assert!(err.contains("batch.txt:13002"), "{err}");
    assert_eq!(o.status.code(), Some(1), "{err}");
}
