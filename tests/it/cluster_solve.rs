//! `statespace solve --processes` (IDA* across processes, `search::idastar::cluster`): two
//! processes on loopback give one process's paths and solution lists; a peer killed, stopped
//! or interrupted mid-search, or a time limit, ends every process within seconds; a peer on
//! another start is refused; an engine that runs in one process refuses the flag.

use crate::cluster::{finish, hostfile, signal, wait_at_most};
use crate::{config, config_file};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `statespace solve ARGS` as process `i` of `n` on `hosts` (none when `hosts` is `None`),
/// stdout and stderr captured.
fn solve(args: &[&str], hosts: Option<&tempfile::NamedTempFile>, n: usize, i: usize) -> Child {
    // Tiles keep no tables: no cache to keep apart from the user's.
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("statespace"));
    command.arg("solve").args(args);
    if let Some(hosts) = hosts {
        command.args(["--processes", &n.to_string(), "--process", &i.to_string()]);
        command.args(["--hostfile", hosts.path().to_str().unwrap()]);
    }
    command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The answer without what differs between runs on threads or processes (counts, times).
fn answer_of(line: &str) -> serde_json::Value {
    let json: serde_json::Value = serde_json::from_str(line).unwrap();
    serde_json::json!({
        "outcome": json["outcome"],
        "limit": json["limit"],
        "path": json["path"],
        "solutions": json["solutions"],
        "all_optimal": json["all_optimal"],
        "optimal": json["optimal"],
    })
}

/// Boards of the 8-puzzle: a 31-move board (the config's), the goal, and one of the other parity.
const EIGHT: &str = "8 6 7\n2 5 4\n3 _ 1\n\n1 2 3\n4 5 6\n7 8 _\n\n2 1 3\n4 5 6\n7 8 _\n";

/// Korf's instance 82 of the 15-puzzle in our convention (62 moves; 5.5 billion nodes with
/// Manhattan distance): minutes of search with linear conflicts, which these tests cut short.
const HARD: &str = "[puzzle]\nkind = \"tiles\"\nrows = 4\ncols = 4\n[goal]\nkind = \"ordered\"\n\
    [heuristic]\nkind = \"linear-conflict\"\n[start]\nboard = \"\"\"\n_ 12 11 1\n4 10 13 9\n5 8 7 3\n15 14 6 2\n\"\"\"\n";

#[test]
fn two_processes_solve_what_one_process_solves() {
    let boards = config_file(EIGHT);
    let boards = boards.path().to_str().unwrap();
    let eight = config("tiles-3x3.toml");
    let fifteen = config("tiles-4x4.toml");
    let cases: [&[&str]; 4] = [
        // The 15-puzzle's config board (41 moves), two threads in each process.
        &[&fifteen, "--threads", "2"],
        // Batches: a cluster run per board, in turn; every optimal path of the 31-move board
        // (fewer than 1000), in the one-process order.
        &[&eight, "--boards", boards, "--mode", "idastar"],
        &[
            &eight,
            "--boards",
            boards,
            "--mode",
            "idastar",
            "--solutions",
            "1000",
        ],
        &[
            &eight,
            "--boards",
            boards,
            "--mode",
            "idastar",
            "--solutions",
            "3",
        ],
    ];
    for args in cases {
        let args = [args, &["--json"]].concat();
        let (code, alone, stderr) = finish(solve(&args, None, 1, 0));
        assert_eq!(
            code,
            Some(3).filter(|_| args.contains(&boards)).or(Some(0)),
            "{stderr}"
        );
        let hosts = hostfile(2);
        let one = solve(&args, Some(&hosts), 2, 1);
        let (code_zero, together, stderr) = finish(solve(&args, Some(&hosts), 2, 0));
        assert_eq!(code_zero, code, "{args:?}: {stderr}");
        let (code_one, quiet, stderr) = finish(one);
        assert_eq!((code_one, quiet.as_str()), (code, ""), "{args:?}: {stderr}");
        let alone: Vec<_> = alone.lines().map(answer_of).collect();
        let together: Vec<_> = together.lines().map(answer_of).collect();
        assert_eq!(alone, together, "{args:?}");
        assert!(alone.iter().any(|a| a["outcome"] == "solved"));
    }
}

/// Two processes searching Korf's instance 82 with `args`, and the files they read (kept
/// until the test ends).
fn hard_pair(args: &[&str]) -> ([tempfile::NamedTempFile; 2], Child, Child) {
    let config = config_file(HARD);
    let path = config.path().to_str().unwrap().to_string();
    let args = [&[path.as_str(), "--json"], args].concat();
    let hosts = hostfile(2);
    let zero = solve(&args, Some(&hosts), 2, 0);
    let one = solve(&args, Some(&hosts), 2, 1);
    ([config, hosts], zero, one)
}

#[test]
fn a_peer_killed_mid_search_stops_the_other_within_seconds() {
    let (_files, zero, mut one) = hard_pair(&[]);
    std::thread::sleep(Duration::from_millis(1500));
    one.kill().unwrap();
    let killed = Instant::now();
    let (code, stderr) = wait_at_most(zero, Duration::from_secs(15));
    assert!(
        killed.elapsed() < Duration::from_secs(5),
        "{:?}",
        killed.elapsed()
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("statespace: error: cluster: lost process 1 (127.0.0.1:"),
        "{stderr}"
    );
    one.wait().unwrap();
}

#[test]
fn a_time_limit_stops_every_process() {
    let (_files, zero, one) = hard_pair(&["--time-limit", "2s"]);
    let started = Instant::now();
    let (code, stdout, stderr) = finish(zero);
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(code, Some(4), "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["limit"], "time limit 2s reached", "{json}");
    assert_eq!(finish(one).0, code);
}

#[test]
fn ctrl_c_on_one_process_stops_them_all() {
    let (_files, zero, one) = hard_pair(&[]);
    std::thread::sleep(Duration::from_millis(1500));
    signal(&one, "INT");
    let sent = Instant::now();
    let (code, stdout, stderr) = finish(zero);
    assert!(
        sent.elapsed() < Duration::from_secs(5),
        "{:?}",
        sent.elapsed()
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    // Solved before the signal came, on a fast machine; else interrupted.
    if code != Some(0) {
        assert_eq!(
            (code, &json["limit"]),
            (Some(130), &"interrupted".into()),
            "{stderr}"
        );
        assert_eq!(finish(one).0, Some(130));
    }
}

#[test]
fn a_stopped_peer_is_reported_after_the_peer_timeout() {
    let (_files, zero, one) = hard_pair(&["--peer-timeout", "2s"]);
    std::thread::sleep(Duration::from_millis(1500));
    signal(&one, "STOP");
    let stopped = Instant::now();
    let (code, stderr) = wait_at_most(zero, Duration::from_secs(15));
    let took = stopped.elapsed();
    signal(&one, "KILL");
    let _ = finish(one);
    assert!(
        took > Duration::from_secs(1) && took < Duration::from_secs(8),
        "{took:?}"
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("lost process 1 (127.0.0.1:"), "{stderr}");
    assert!(stderr.contains("sent nothing for 2s"), "{stderr}");
}

#[test]
fn a_peer_on_another_start_is_refused() {
    let hosts = hostfile(2);
    let config = config("tiles-3x3.toml");
    let other = config_file("1 2 3\n4 5 6\n7 _ 8\n");
    let other = other.path().to_str().unwrap();
    let one = solve(
        &[&config, "--board", other, "--mode", "idastar"],
        Some(&hosts),
        2,
        1,
    );
    let zero = solve(&[&config, "--mode", "idastar"], Some(&hosts), 2, 0);
    let (code, stdout, stderr) = finish(zero);
    assert_eq!((code, stdout.as_str()), (Some(2), ""), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("runs another job"), "{stderr}");
    assert_eq!(finish(one).0, Some(2));
}

#[test]
fn an_engine_of_one_process_refuses_the_flags() {
    let hosts = hostfile(2);
    let config = config("tiles-3x3.toml");
    for mode in ["bfs", "table", "astar"] {
        let (code, stdout, stderr) = finish(solve(&[&config, "--mode", mode], Some(&hosts), 2, 0));
        assert_eq!((code, stdout.as_str()), (Some(2), ""), "{stderr}");
        assert_eq!(
            stderr.trim_end(),
            format!(
                "statespace: error: --processes: the {mode} engine runs in one process; these \
                 search across processes here: idastar (--mode)"
            )
        );
    }
}

#[test]
fn peers_searching_longer_than_the_peer_timeout_are_not_taken_for_lost() {
    // An iteration sends nothing but heartbeats: they must leave when due, not at its end.
    let (_files, zero, one) = hard_pair(&["--peer-timeout", "1s", "--time-limit", "4s"]);
    let (code, stdout, stderr) = finish(zero);
    assert_eq!(code, Some(4), "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["limit"], "time limit 4s reached", "{json}");
    let (code, _, stderr) = finish(one);
    assert_eq!(code, Some(4), "{stderr}");
}
