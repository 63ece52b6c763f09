//! The binary at its edges: bad bytes and huge lines in a `--boards` stream, a closed stdout, a
//! full one, output targets that are not regular files, clap's errors, the judge's counts and
//! the exit codes the README's table gives. Linux: `/dev/full`, `/proc/self/fd`, `mkfifo`.

use crate::{config, statespace};
use std::io::Write;
use std::process::{Command, Output, Stdio};

#[test]
fn judge_hdu3278_counts_past_the_cases_given_are_one_error() {
    let case = "BWGBWG BWGBWG BWGBWG BWGBWG\n";
    for t in ["18446744073709551615", "9223372036854775808", "2"] {
        statespace()
            .args(["judge", "hdu3278", "--no-cache"])
            .write_stdin(format!("{t}\n{case}"))
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!(
                "statespace: error: <stdin>:2: case 2, row 1: missing: the input ends before \
                 case 2 of {t}\n"
            ));
    }
}

/// The meaning the README's exit-code table gives `code`.
fn readme_exit_meaning(code: i32) -> String {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let row = format!("| {code} | ");
    let line = readme.lines().find(|l| l.starts_with(&row)).unwrap();
    line[row.len()..].to_string()
}

#[test]
fn an_export_over_the_memory_budget_exits_as_the_readme_says() {
    let out = statespace()
        .args(["export", &config("flip-4x4.toml"), "--memory", "1KiB"])
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    assert_eq!(code, 4, "a limit, as everywhere else");
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("over the budget of 1.0 KiB"), "{stderr}");
    assert!(readme_exit_meaning(code).contains("an export over the budget"));
    assert!(!readme_exit_meaning(2).contains("memory"));
}
/// The binary as a plain `std` command, for stdio that assert_cmd does not give: a closed pipe,
/// a device.
fn binary(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_statespace"));
    command.args(args);
    command
}

/// Runs `args` with stdout a pipe whose reader is closed before the process starts.
fn with_closed_stdout(args: &[&str], stdin: &str) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = binary(args)
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A process that stops first may leave its stdin unread: that is what is being tested.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_stdout_stops_every_command_quietly_with_141() {
    let flip = config("flip-4x4.toml");
    let poj = "bwwb\nbbwb\nbwwb\nbwww\n";
    let hdu = "1\nBWGBWG\nBWGBWG\nBWGBWG\nBWGBWG\n";
    let runs: [(&[&str], &str); 9] = [
        (&["solve", &flip], ""),
        (&["solve", &flip, "--boards", "-", "--json"], poj),
        (&["explore", &flip], ""),
        (&["export", &flip], ""),
        (&["judge", "poj1753"], poj),
        (&["judge", "hdu3278", "--no-cache"], hdu),
        (&["puzzles"], ""),
        (&["--help"], ""),
        (&["--version"], ""),
    ];
    for (args, stdin) in runs {
        let out = with_closed_stdout(args, stdin);
        assert_eq!(out.status.code(), Some(141), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
    assert!(readme_exit_meaning(141).contains("closed by its reader"));
}

#[test]
fn help_and_version_to_a_full_device_are_errors() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux
    };
    for args in [
        &["--help"][..],
        &["--version"],
        &["solve", "--help"],
        &["help"],
    ] {
        let out = binary(args)
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
fn a_bad_command_line_is_one_line_naming_the_help_to_read() {
    let flip = config("flip-4x4.toml");
    let cases: [(&[&str], &str); 6] = [
        (
            &["solve", &flip, "--foo"],
            "unexpected argument '--foo' found; tip: to pass '--foo' as a value, use '-- --foo' \
             (see statespace solve --help)",
        ),
        (
            &["solve", &flip, "--jsn"],
            "unexpected argument '--jsn' found; tip: a similar argument exists: '--json' (see \
             statespace solve --help)",
        ),
        (
            &["solve", &flip, "--time-limit", "0s"],
            "invalid value '0s' for '--time-limit <DURATION>': `0s` is zero: give a positive \
             duration (see statespace solve --help)",
        ),
        (
            &["judge", "poj"],
            "invalid value 'poj' for '<PROBLEM>' [possible values: poj1753, hdu3278]; tip: a \
             similar value exists: 'poj1753' (see statespace judge --help)",
        ),
        (
            &["explore", &flip, "--process", "1"],
            "the following required arguments were not provided: --hostfile <FILE>, \
             --processes <P> (see statespace explore --help)",
        ),
        (
            &[],
            "missing a command: solve, judge, puzzles, export, explore (see statespace --help)",
        ),
    ];
    for (args, message) in cases {
        statespace()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!("statespace: error: {message}\n"));
    }
}
