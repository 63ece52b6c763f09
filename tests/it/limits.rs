//! One test per limit: time, interruption (SIGINT), memory, and malformed limit values.
//! The searches here are deliberately endless (8 x 8 Flip: 2^64 boards) so only a limit ends them.
//! A puzzle of 760 moves holds IDDFS to its limits (it generates hundreds of thousands of
//! successors per expansion at its depth bound), and the stats count the whole run, the
//! pattern-database build included.

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
pub fn interrupted(args: &[&str], wait: Duration) -> String {
    let child = spawn(args);
    std::thread::sleep(wait);
    let stopped = sigint(child);
    assert!(
        stopped.after < Duration::from_secs(3),
        "stopped in {:?}",
        stopped.after
    );
    assert_eq!(stopped.code, Some(130), "{}", stopped.stderr);
    stopped.stdout
}

/// `statespace ARGS` started, its stdout and stderr piped.
pub fn spawn(args: &[&str]) -> std::process::Child {
    use std::process::Stdio;
    let binary = assert_cmd::cargo::cargo_bin("statespace");
    std::process::Command::new(binary)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// How a run stopped by [`sigint`] ended.
pub struct Stopped {
    /// The exit code (`None`: a signal ended it).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// From the signal to the exit.
    pub after: Duration,
}

/// Sends SIGINT to `child` now and waits for it to stop. One still running 10 s later is killed
/// and the test fails: a run that ignores the signal is a failure, not a hang.
pub fn sigint(mut child: std::process::Child) -> Stopped {
    use std::io::Read;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            pipe.unwrap().read_to_string(&mut text).unwrap();
            text
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let sent = Instant::now();
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if sent.elapsed() > Duration::from_secs(10) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("still running 10 s after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let after = sent.elapsed();
    Stopped {
        code,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
        after,
    }
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

/// One set of 4 pieces with 127 orientations and two generators: 760 moves (the powers of a
/// twisted 4-cycle and of a twisted swap), so an expansion next to IDDFS's depth bound generates
/// 760 x 760 successors. The config solves a scramble of 5 moves by IDDFS. The directory holds
/// both files.
fn many_moves() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let definition = "Name O127\nSet A 4 127\nSolved\nA\n1 2 3 4\nEnd\n\
                      Move X\nA\n2 3 4 1\n1 0 0 0\nEnd\nMove Y\nA\n2 1 3 4\n1 0 0 0\nEnd\n";
    std::fs::write(dir.path().join("o127.tws"), definition).unwrap();
    let config = "[puzzle]\nkind = \"perm\"\ndefinition = \"o127.tws\"\n\
                  [search]\nmode = \"iddfs\"\n[start]\nscramble = \"X Y X5 Y X7\"\n";
    let path = dir.path().join("o127.toml");
    std::fs::write(&path, config).unwrap();
    let path = path.to_str().unwrap().to_string();
    (dir, path)
}

#[test]
fn iddfs_holds_a_time_limit_on_a_puzzle_of_many_moves() {
    // Before every successor counted, this ran 13 s (release) to 147 s past a 1 s limit.
    let (_dir, config) = many_moves();
    let started = Instant::now();
    Command::cargo_bin("statespace")
        .unwrap()
        .args(["solve", &config, "--time-limit", "1s"])
        .assert()
        .code(4)
        .stdout(predicate::str::starts_with(
            "undecided: time limit 1s reached\nstats: mode iddfs",
        ));
    let took = started.elapsed();
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn sigint_stops_iddfs_on_a_puzzle_of_many_moves() {
    let (_dir, config) = many_moves();
    let stdout = interrupted(
        &["solve", &config, "--time-limit", "60s"],
        Duration::from_millis(700),
    );
    assert!(
        stdout.starts_with("undecided: interrupted\nstats: mode iddfs"),
        "{stdout}"
    );
}

/// `statespace solve ARGS --json`: the exit code and the answer.
fn solve_json(args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let out = crate::statespace()
        .arg("solve")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap();
    (out.status.code(), json)
}

#[test]
fn elapsed_counts_the_pattern_database_build_that_a_limit_stopped() {
    // The 3x3x3's databases take minutes to build: the limit stops the build, and the stats
    // say where the second went (they said 0.000 s).
    let config = crate::config("perm-3x3x3-13.toml");
    let started = Instant::now();
    let (code, json) = solve_json(&[&config, "--time-limit", "1s", "--no-cache"]);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(code, Some(4));
    assert_eq!(json["limit"], "time limit 1s reached");
    let (elapsed, build) = (&json["stats"]["elapsed"], &json["stats"]["build"]);
    let (elapsed, build) = (elapsed.as_f64().unwrap(), build.as_f64().unwrap());
    assert!(
        build >= 1.0 && elapsed >= build,
        "elapsed {elapsed}, build {build}"
    );
}

#[test]
fn elapsed_counts_the_build_of_the_board_that_made_the_tables() {
    // IDA* with the 2x2x2's pattern databases, and the 8-puzzle's distance table: the first
    // board builds, and its time says so; a later board of the same run reuses them.
    let cases = [
        (crate::config("perm-2x2x2.toml"), "idastar"),
        (crate::config("tiles-3x3.toml"), "table"),
    ];
    for (config, mode) in &cases {
        let (code, json) = solve_json(&[config, "--mode", mode, "--no-cache"]);
        assert_eq!(code, Some(0), "{json}");
        let stats = &json["stats"];
        let (elapsed, build) = (stats["elapsed"].as_f64().unwrap(), stats["build"].as_f64());
        let build = build.unwrap_or_else(|| panic!("{mode}: no build time in {stats}"));
        assert!(build > 0.0 && elapsed >= build, "{mode}: {stats}");
    }
    let boards = crate::config_file("1 2 3\n4 5 6\n7 _ 8\n\n1 2 3\n4 5 6\n_ 7 8\n");
    let out = crate::statespace()
        .args([
            "solve",
            &cases[1].0,
            "--mode",
            "table",
            "--no-cache",
            "--json",
        ])
        .args(["--boards", boards.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines[0]["stats"]["build"].as_f64().unwrap() > 0.0);
    assert_eq!(lines[1]["stats"].get("build"), None, "{}", lines[1]);
}

#[test]
fn a_short_a_star_search_of_a_large_indexed_space_allocates_what_it_reaches() {
    // The Pyraminx with its tips: 75,582,720 positions. A* kept flat arrays over all of them
    // (2.4 GB written before the first node: 2.1 s and 3 GB under a 1 s limit) for a 3-move
    // scramble that reaches 45 states; now a space that large gets the hash map.
    let folder = tempfile::tempdir().unwrap();
    let config = folder.path().join("c.toml");
    let definition = crate::config_path("defs/pyraminx-tips.tws");
    std::fs::write(
        &config,
        format!(
            "[puzzle]\nkind = \"perm\"\ndefinition = {:?}\n[search]\nmode = \"astar\"\n\
             [heuristic]\nkind = \"pruning\"\n[start]\nscramble = \"U R L\"\n",
            definition.to_str().unwrap()
        ),
    )
    .unwrap();
    let (code, json) = solve_json(&[config.to_str().unwrap(), "--time-limit", "1s"]);
    assert_eq!((code, &json["moves"]), (Some(0), &3.into()), "{json}");
}
