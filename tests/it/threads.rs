//! `solve --threads N` (and `[search] threads`): IDA* on several threads gives exactly the
//! one-thread answer and solution lists from the command line, refuses a bad count in one line,
//! and stops within a second at a time limit or Ctrl-C on every thread.

use crate::{config, config_file, statespace};
use serde_json::Value;
use std::time::{Duration, Instant};

/// `solve ARGS --json --no-cache`: the exit code and the answer (or stderr when it is not JSON).
fn solve(args: &[&str]) -> (i32, Result<Value, String>) {
    let out = statespace()
        .arg("solve")
        .args(args)
        .args(["--json", "--no-cache"])
        .output()
        .unwrap();
    let answer = serde_json::from_slice(&out.stdout)
        .map_err(|_| String::from_utf8_lossy(&out.stderr).into_owned());
    (out.status.code().unwrap(), answer)
}

/// 15-puzzle boards that linear conflict solves in a fraction of a second: 41, 30 and 34 moves
/// (the first is `configs/tiles-4x4.toml`'s).
const BOARDS: [&str; 3] = [
    " 5 10 14  4\n 6 12 11  1\n 9  _ 15  7\n13  2  8  3",
    " 2  3  7  4\n 1  9  8  5\n14 13  _ 12\n 6 11 10 15",
    " 5  1  6  4\n10 13 12  7\n _  3 11  2\n14  9 15  8",
];

fn board_config(board: &str, search: &str) -> tempfile::NamedTempFile {
    config_file(&format!(
        "[puzzle]\nkind = \"tiles\"\nrows = 4\ncols = 4\n[search]\nmode = \"idastar\"\n{search}\n\
         [heuristic]\nkind = \"linear-conflict\"\n[start]\nboard = \"\"\"\n{board}\n\"\"\"\n"
    ))
}

#[test]
fn threads_give_the_one_thread_answer_and_solution_lists() {
    for board in BOARDS {
        let file = board_config(board, "");
        let path = file.path().to_str().unwrap();
        let (code, one) = solve(&[path, "--solutions", "4"]);
        let one = one.unwrap();
        assert_eq!(code, 0);
        for threads in ["2", "3"] {
            let (code, many) = solve(&[path, "--solutions", "4", "--threads", threads]);
            let many = many.unwrap();
            assert_eq!(code, 0);
            for key in ["moves", "path", "solutions", "all_optimal"] {
                assert_eq!(many[key], one[key], "{board:?} on {threads} threads: {key}");
            }
        }
        // `[search] threads` is the same as `--threads`, and the flag overrides it.
        let keyed = board_config(board, "threads = 2");
        let keyed = keyed.path().to_str().unwrap();
        let (_, by_key) = solve(&[keyed]);
        assert_eq!(by_key.unwrap()["path"], one["path"], "{board:?}");
        let (_, by_flag) = solve(&[keyed, "--threads", "1"]);
        let by_flag = by_flag.unwrap();
        assert_eq!(by_flag["path"], one["path"]);
        let (_, alone) = solve(&[path]);
        assert_eq!(
            by_flag["stats"]["generated"],
            alone.unwrap()["stats"]["generated"],
            "--threads 1 overrides the key: the one-thread counts"
        );
    }
}

#[test]
fn a_bad_thread_count_is_one_line() {
    let board = config("tiles-4x4.toml");
    for bad in ["0", "1025", "two"] {
        let (code, answer) = solve(&[&board, "--threads", bad]);
        assert_eq!(code, 2, "--threads {bad}");
        assert!(answer.unwrap_err().contains("--threads"), "--threads {bad}");
    }
    let file = board_config(BOARDS[0], "threads = 0");
    let (code, answer) = solve(&[file.path().to_str().unwrap()]);
    let err = answer.unwrap_err();
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(":7:") && err.contains("search.threads"),
        "{err}"
    );
}

/// Korf's first instance turned to our goal (blank last): Manhattan distance alone takes minutes
/// on it.
const HARD: &str = "13  6  8 12\n15 14  _ 10\n11  7  4  5\n 9  1  3  2";

#[test]
fn a_time_limit_holds_on_every_thread() {
    let file = config_file(&format!(
        "[puzzle]\nkind = \"tiles\"\nrows = 4\ncols = 4\n[search]\nmode = \"idastar\"\n\
         [heuristic]\nkind = \"manhattan\"\n[start]\nboard = \"\"\"\n{HARD}\n\"\"\"\n"
    ));
    let started = Instant::now();
    let (code, answer) = solve(&[
        file.path().to_str().unwrap(),
        "--threads",
        "2",
        "--time-limit",
        "500ms",
    ]);
    assert_eq!(code, 4);
    let answer = answer.unwrap();
    assert!(answer["stats"]["generated"].as_u64().unwrap() > 0);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn ctrl_c_stops_every_thread() {
    let file = config_file(&format!(
        "[puzzle]\nkind = \"tiles\"\nrows = 4\ncols = 4\n[search]\nmode = \"idastar\"\n\
         [heuristic]\nkind = \"manhattan\"\n[start]\nboard = \"\"\"\n{HARD}\n\"\"\"\n"
    ));
    let stdout = crate::limits::interrupted(
        &["solve", file.path().to_str().unwrap(), "--threads", "2"],
        Duration::from_millis(700),
    );
    assert!(
        stdout.starts_with("undecided: interrupted\nstats: "),
        "{stdout}"
    );
}
