//! The binary end to end: output formats, exit codes, and one test per class of bad input.

use crate::{config_file, statespace};
use assert_cmd::Command;
use predicates::prelude::*;

/// `statespace solve configs/flip-4x4.toml EXTRA...`.
fn solve_sample(extra: &[&str]) -> Command {
    let mut command = statespace();
    command
        .arg("solve")
        .arg(crate::config_path("flip-4x4.toml"))
        .args(extra);
    command
}

const FLIP_HEAD: &str = "[puzzle]\nkind = \"flip\"\nrows = 4\ncols = 4\n";

#[test]
fn solve_prints_the_fewest_moves_and_the_path() {
    solve_sample(&[])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("4 moves\npath: "))
        .stdout(predicate::str::contains("stats: mode bfs"));
}

#[test]
fn solve_json_has_the_documented_fields_and_its_path_replays() {
    let out = solve_sample(&["--json", "--mode", "iddfs"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["solvable"], true);
    assert_eq!(json["moves"], 4);
    assert_eq!(json["mode"], "iddfs");
    assert!(json["stats"]["expanded"].as_u64().unwrap() > 0);
    // Replay the labels on the start board with the Flip rules, independently of the engine.
    use statespace::space::StateSpace;
    use statespace_flip::{Flip, FlipGoal, Geometry};
    let g = Geometry {
        rows: 4,
        cols: 4,
        wrap: false,
    };
    let flip = Flip::new(g, FlipGoal::Uniform);
    let board =
        statespace::board_text::BoardText::from_file("s", json["start"].as_str().unwrap().into());
    let mut state = g.parse(&board).unwrap();
    for label in json["path"].as_array().unwrap() {
        let label = label.as_str().unwrap();
        let (r, c) = label[1..].split_once('c').unwrap();
        let (r, c): (u32, u32) = (r.parse().unwrap(), c.parse().unwrap());
        state ^= g.press_mask(r - 1, c - 1);
    }
    assert!(flip.is_goal(state));
}

#[test]
fn an_unsolvable_board_says_impossible_with_its_own_exit_code() {
    let cfg = config_file(&format!(
        "{FLIP_HEAD}[start]\nboard = \"\"\"\nbwbw\nwwww\nbbwb\nbwwb\n\"\"\"\n"
    ));
    statespace()
        .args(["solve", cfg.path().to_str().unwrap()])
        .assert()
        .code(3)
        .stdout(predicate::str::starts_with("Impossible\n"));
    let out = statespace()
        .args(["solve", cfg.path().to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["solvable"], false);
    assert_eq!(json["moves"], serde_json::Value::Null);
}

#[test]
fn a_limit_has_its_own_exit_code() {
    solve_sample(&["--max-depth", "2"])
        .assert()
        .code(4)
        .stdout(predicate::str::contains("depth limit 2 reached"));
}

#[test]
fn board_from_stdin_replaces_the_config_board() {
    solve_sample(&["--board", "-"])
        .write_stdin("bbbb\nbbbb\nbbbb\nbbbb\n")
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("0 moves\n"));
}

#[test]
fn judge_poj1753_prints_exactly_the_expected_output() {
    let input = std::fs::read_to_string(crate::case_path("judge-poj1753.txt")).unwrap();
    let expected = std::fs::read_to_string(crate::case_path("judge-poj1753.expected")).unwrap();
    statespace()
        .args(["judge", "poj1753"])
        .write_stdin(input)
        .assert()
        .code(0)
        .stdout(expected);
    statespace()
        .args(["judge", "poj1753"])
        .write_stdin("bwbw\nwwww\nbbwb\nbwwb\n")
        .assert()
        .code(0)
        .stdout("Impossible\n");
}

#[test]
fn judge_poj1753_rejects_malformed_input() {
    for (input, message) in [
        ("", "empty board"),
        ("bwbw\nwwww\nbbwb\n", "too few rows"),
        ("bwbw\nwww\nbbwb\nbwwb\n", "row 2 has 3 cells"),
        ("bwbw\nwwxw\nbbwb\nbwwb\n", "'x' is not b or w"),
    ] {
        statespace()
            .args(["judge", "poj1753"])
            .write_stdin(input)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(message).and(predicate::str::contains("<stdin>:")));
    }
}

#[test]
fn puzzles_lists_flip_with_its_goals() {
    statespace()
        .arg("puzzles")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("flip:").and(predicate::str::contains("all-black")));
}

#[test]
fn help_and_version_work_for_every_subcommand() {
    statespace()
        .arg("--version")
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("statespace "));
    for sub in ["solve", "judge", "puzzles"] {
        statespace()
            .args([sub, "--help"])
            .assert()
            .code(0)
            .stdout(predicate::str::contains("Usage"));
    }
}

/// Each bad config: the text, and what the one-line error must say (`{file}` is the path).
const BAD_CONFIGS: &[(&str, &str)] = &[
    (
        "[puzzle]\nkind = \"flip\"\nrows = 4\ncols = 4\n[start]\nboard = \"\"\"\nbwwb\nbbw\nbwwb\nbwww\n\"\"\"\n",
        "{file}:8: start.board: row 2 has 3 cells, expected 4",
    ),
    (
        "[puzzle]\nkind = \"flip\"\nrows = 4\ncols = 4\n[start]\nboard = \"\"\"\nbwwb\nbbwb\nbwqb\nbwww\n\"\"\"\n",
        "{file}:9: start.board: row 3, column 3: 'q' is not b or w",
    ),
    (
        "[puzzle]\nkind = \"flip\"\nrows = 4\ncols = 4\n[start]\nboard = \"\"\"\nbwwb\nbbwb\nbwww\n\"\"\"\n",
        "start.board: too few rows: 3 of 4",
    ),
    (
        "[puzzle]\nkind = \"flip\"\nrows = 2\ncols = 2\n[start]\nboard = \"\"\"\nbw\nbw\nbw\n\"\"\"\n",
        "{file}:9: start.board: too many rows: expected 2",
    ),
    (
        "[puzzle]\nkind = \"flip\"\nrows = 0\ncols = 4\n",
        "{file}:3: puzzle.rows: 0 is out of range",
    ),
    (
        "[puzzle]\nkind = \"flip\"\nrows = -3\ncols = 4\n",
        "{file}:3: puzzle.rows: -3 is out of range",
    ),
    (
        "[puzzle]\nkind = \"flip\"\nrows = 3000\ncols = 2000\n",
        "{file}:4: puzzle.cols: a 3000 x 2000 board has 6000000 cells",
    ),
    (
        "[puzzle]\nkind = \"flip\"\nrows = 9\ncols = 8\n[search]\nmode = \"iddfs\"\n",
        "{file}:6: search.mode: search mode `iddfs` is not available for a 9 x 8 board (72 cells)",
    ),
    (
        "[puzzle]\nkind = \"flip\"\nrows = 4097\ncols = 1\n",
        "{file}:3: puzzle.rows: 4097 is out of range (allowed: 1 to 4096)",
    ),
    (
        "[puzzle]\nkind = \"flop\"\nrows = 4\ncols = 4\n",
        "{file}:2: puzzle.kind: unknown puzzle kind `flop`",
    ),
    (
        "[puzzle]\nkind = \"flip\"\nrows = 4\ncols = 4\n[goal]\nkind = \"striped\"\n",
        "{file}:6: goal.kind: unknown flip goal `striped`",
    ),
    (
        "[puzzle]\nkind = \"flip\"\nrows = 4\ncols = 4\n[search]\nmode = \"dfs\"\n",
        "{file}:6: search.mode: search mode `dfs` is not supported by this puzzle (supported: bfs, bidirectional, iddfs, table, beam, algebraic, auto)",
    ),
    (
        "[puzzle]\nkind = \"flip\"\nrows = 4\ncols = 4\nsize = 3\n",
        "{file}:5: puzzle.size: unknown field `size`",
    ),
    (
        "[puzzle]\nkind = \"flip\"\nrows = \"four\"\ncols = 4\n",
        "{file}:3: puzzle.rows: invalid type: string \"four\"",
    ),
    ("this is not toml\n", "{file}:1:"),
    (
        "[puzzle]\nkind = \"flip\"\ncols = 4\n",
        "{file}: puzzle.rows: missing",
    ),
    (
        "[puzzle]\nkind = \"flip\"\nrows = 4\ncols = 4\n[goal]\nkind = \"pattern\"\n",
        "{file}: goal.target: missing",
    ),
];

#[test]
fn every_bad_config_gets_one_line_with_file_line_and_key() {
    for (text, expected) in BAD_CONFIGS {
        let cfg = config_file(text);
        let path = cfg.path().to_str().unwrap();
        let expected = expected.replace("{file}", path);
        let out = statespace().args(["solve", path]).output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{text}\n{stderr}");
        assert!(out.stdout.is_empty(), "{text}");
        assert!(
            stderr.contains(&expected),
            "expected {expected:?} in {stderr:?}"
        );
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr:?}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn a_missing_file_and_an_empty_stdin_board_are_bad_input() {
    statespace()
        .args(["solve", "no/such/config.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/config.toml"));
    solve_sample(&["--board", "-"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("<stdin>:1: empty board"));
    statespace()
        .args([
            "solve",
            crate::config_path("shift-4x6.toml").to_str().unwrap(),
            "--mode",
            "algebraic",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not supported"));
}

#[test]
fn a_full_stdout_is_one_line_and_exit_2_for_every_command() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux
    };
    let flip = crate::config_path("flip-4x4.toml");
    let flip = flip.to_str().unwrap();
    for args in [
        vec!["solve", flip],
        vec!["explore", flip],
        vec!["export", flip],
        vec!["puzzles"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_statespace"))
            .args(&args)
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "statespace: error: <stdout>: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

#[test]
fn the_readme_names_every_registered_puzzle_kind() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    let kinds: Vec<_> = crate::registry()
        .plugins()
        .iter()
        .map(|p| p.info().kind)
        .collect();
    let known = format!("(known: {})", kinds.join(", "));
    assert!(
        readme.contains(&known),
        "the README's unknown-kind example should list {known}"
    );
    for kind in kinds {
        assert!(
            readme.contains(&format!("`kind = \"{kind}\"`")),
            "the README should show `kind = \"{kind}\"`"
        );
    }
}

#[test]
fn boards_solves_many_with_one_setup_and_names_a_bad_one() {
    let boards = "8 6 7\n2 5 4\n3 _ 1\n\n1 2 3\n4 5 6\n7 _ 8\n\n\n2 1 3\n4 5 6\n7 8 _\n\n1 2 3\n4 5 9\n7 8 _\n\n1 2 3\n4 _ 5\n7 8 6\n";
    let cache = tempfile::tempdir().unwrap();
    let cache_dir = cache.path().to_str().unwrap();
    let out = statespace()
        .args([
            "solve",
            &crate::config("tiles-3x3.toml"),
            "--boards",
            "-",
            "--json",
        ])
        .args(["--cache-dir", cache_dir])
        .write_stdin(boards)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a bad board makes the exit 2");
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary: Vec<_> = lines
        .iter()
        .map(|j| {
            (
                j["index"].as_u64().unwrap(),
                j["moves"].as_u64(),
                j["outcome"].clone(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (1, Some(31), "solved".into()),
            (2, Some(1), "solved".into()),
            (3, None, "unsolvable".into()),
            (5, Some(2), "solved".into()),
        ]
    );
    // One table for all: built by the first board, reused by the others.
    assert_eq!(lines[0]["table_reused"], false);
    assert_eq!(lines[1]["table_reused"], true);
    assert_eq!(lines[2]["proof"], "parity");
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "statespace: error: <stdin>:15: board 4: `9` is not a tile (1 to 8, or _ for the blank)\n"
    );
    // The next run loads the table from the cache directory.
    let out = statespace()
        .args(["solve", &crate::config("tiles-3x3.toml"), "--json"])
        .args(["--cache-dir", cache_dir])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["table_loaded"], true);
    assert_eq!(json["moves"], 31);
    // Text: one block per board; all solvable boards exit 0.
    statespace()
        .args([
            "solve",
            &crate::config("tiles-3x3.toml"),
            "--boards",
            "-",
            "--no-cache",
        ])
        .write_stdin("1 2 3\n4 5 6\n7 _ 8\n\n1 2 3\n4 5 6\n_ 7 8\n")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("board 1\n1 move\n"))
        .stdout(predicate::str::contains("board 2\n2 moves\n"));
    statespace()
        .args(["solve", &crate::config("tiles-3x3.toml"), "--boards", "-"])
        .write_stdin("\n\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no boards"));
}

#[test]
fn a_corrupt_cached_table_is_reported_removed_and_rebuilt() {
    let cache = tempfile::tempdir().unwrap();
    let cache_dir = cache.path().to_str().unwrap();
    let solve = || {
        statespace()
            .args(["solve", &crate::config("tiles-3x3.toml"), "--json"])
            .args(["--cache-dir", cache_dir])
            .output()
            .unwrap()
    };
    assert_eq!(solve().status.code(), Some(0));
    let file = std::fs::read_dir(cache.path())
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&file, bytes).unwrap();
    let out = solve();
    assert_eq!(
        out.status.code(),
        Some(0),
        "the answer does not depend on the cache"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("statespace: warning: "), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (json["moves"].as_u64(), json["table_loaded"].as_bool()),
        (Some(31), Some(false))
    );
    // Rebuilt and saved again: the third run loads it.
    let json: serde_json::Value = serde_json::from_slice(&solve().stdout).unwrap();
    assert_eq!(json["table_loaded"], true);
    // An unwritable cache directory costs a warning, never the answer.
    let blocked = cache.path().join("a-file");
    std::fs::write(&blocked, "not a directory").unwrap();
    statespace()
        .args(["solve", &crate::config("tiles-3x3.toml")])
        .args(["--cache-dir", blocked.join("sub").to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("31 moves"))
        .stderr(predicate::str::starts_with("statespace: warning: "));
}

#[test]
fn a_scramble_start_is_refused_by_puzzles_without_a_notation() {
    for (kind, size, mode) in [
        ("flip", "rows = 4\ncols = 4", "algebraic"),
        ("flip", "rows = 4\ncols = 4", "bfs"),
        ("shift", "rows = 4\ncols = 6", "table"),
        ("tiles", "rows = 3\ncols = 3", "auto"),
    ] {
        let file = config_file(&format!(
            "[puzzle]\nkind = \"{kind}\"\n{size}\n[start]\nscramble = \"R U\"\n"
        ));
        statespace()
            .args(["solve", file.path().to_str().unwrap(), "--mode", mode])
            .assert()
            .code(2)
            .stderr(predicate::str::ends_with(
                ":6: start.scramble: this puzzle takes a [start] board, not a scramble\n",
            ));
    }
}
