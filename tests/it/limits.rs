//! One test per limit: time, interruption (SIGINT), memory, and malformed limit values.
//! The searches here are deliberately endless (8 x 8 Flip: 2^64 boards) so only a limit ends them.

use assert_cmd::Command;
use predicates::prelude::*;
use std::time::{Duration, Instant};

fn config() -> String {
    crate::config_path("flip-8x8.toml")
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_time_limit_stops_the_search_with_stats() {
    let started = Instant::now();
    Command::cargo_bin("statespace")
        .unwrap()
        .args(["solve", &config(), "--time-limit", "300ms"])
        .assert()
        .code(4)
        .stdout(predicate::str::contains(
            "undecided: time limit 300ms reached",
        ))
        .stdout(predicate::str::contains("stats: mode bfs"));
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
}

/// Runs `statespace ARGS`, sends SIGINT after `wait`, and returns what it printed once it
/// stopped, after checking it stopped within a fraction of a second with exit code 130.
fn interrupted(args: &[&str], wait: Duration) -> String {
    let binary = assert_cmd::cargo::cargo_bin("statespace");
    let child = std::process::Command::new(binary)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(wait);
    let sent = Instant::now();
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert!(
        sent.elapsed() < Duration::from_secs(3),
        "stopped in {:?}",
        sent.elapsed()
    );
    assert_eq!(out.status.code(), Some(130));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn sigint_stops_the_search_and_prints_the_stats_so_far() {
    let stdout = interrupted(
        &["solve", &config(), "--time-limit", "60s"],
        Duration::from_millis(700),
    );
    assert!(
        stdout.starts_with("undecided: interrupted\nstats: "),
        "{stdout}"
    );
}

#[test]
fn sigint_stops_a_long_explore_with_the_layers_so_far() {
    // Flip 5 x 6: 2^30 boards, seconds of work; Ctrl-C after a moment.
    let mut config = tempfile::Builder::new().suffix(".toml").tempfile().unwrap();
    std::io::Write::write_all(
        &mut config,
        b"[puzzle]\nkind = \"flip\"\nrows = 5\ncols = 6\n[search]\nthreads = 1\n",
    )
    .unwrap();
    let path = config.path().to_str().unwrap();
    let stdout = interrupted(&["explore", path, "--json"], Duration::from_millis(500));
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["complete"], false);
    assert!(
        json["limit"].as_str().unwrap().contains("interrupted"),
        "{json}"
    );
}

#[test]
fn a_memory_budget_stops_the_search_before_it_is_exceeded() {
    Command::cargo_bin("statespace")
        .unwrap()
        .args(["solve", &config(), "--memory", "32MiB"])
        .assert()
        .code(4)
        .stdout(predicate::str::contains(
            "over the budget of 32.0 MiB (raise it with --memory)",
        ));
}

#[test]
fn malformed_limits_are_bad_input() {
    for (flag, value) in [
        ("--time-limit", "soon"),
        ("--memory", "lots"),
        ("--max-states", "0"),
    ] {
        Command::cargo_bin("statespace")
            .unwrap()
            .args(["solve", &config(), flag, value])
            .assert()
            .code(2)
            .stdout("");
    }
    let mut file = tempfile::Builder::new().suffix(".toml").tempfile().unwrap();
    std::io::Write::write_all(
        &mut file,
        b"[puzzle]\nkind = \"flip\"\nrows = 2\ncols = 2\n[search]\nmemory = \"12 parsecs\"\n",
    )
    .unwrap();
    let path = file.path().to_str().unwrap().to_string();
    Command::cargo_bin("statespace")
        .unwrap()
        .args(["solve", &path])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{path}:6: search.memory: `12 parsecs` is not a size"
        )));
}

#[test]
fn over_the_memory_budget_is_one_exit_code_for_solve_explore_and_export() {
    let flip_5x5 = crate::config("flip-5x5.toml");
    let runs: [&[&str]; 3] = [
        &["solve", &config(), "--mode", "table"],
        &["explore", &config()],
        &[
            "export",
            &flip_5x5,
            "--max-states",
            "1000000",
            "--memory",
            "10MB",
        ],
    ];
    for args in runs {
        Command::cargo_bin("statespace")
            .unwrap()
            .args(args)
            .assert()
            .code(4)
            .stdout(predicate::str::contains("needs").or(predicate::str::is_empty()));
    }
    // The export refusal is one line on stderr with the figure.
    Command::cargo_bin("statespace")
        .unwrap()
        .args(runs[2])
        .assert()
        .code(4)
        .stderr("statespace: error: export: max-states: needs 2.0 GiB of memory, over the budget of 9.5 MiB (raise it with --memory)\n");
}
