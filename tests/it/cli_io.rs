//! The binary at its edges: bad bytes and huge lines in a `--boards` stream, a closed stdout, a
//! full one, output targets that are not regular files, clap's errors, the judge's counts and
//! the exit codes the README's table gives. Linux: `/dev/full`, `/proc/self/fd`, `mkfifo`.

use crate::{config, statespace};
use predicates::prelude::*;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

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
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
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
            "missing a command: solve, judge, puzzles, export, explore, new, serve (see statespace --help)",
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

#[test]
fn a_boards_stream_answers_around_bytes_that_are_not_utf8_and_a_line_too_long() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("boards.txt");
    let mut input = b"1 2 3\n4 5 6\n7 _ 8\n\n1 2 3\n4 5\xff 6\n7 8 _\n\n".to_vec();
    input.extend_from_slice(b"1 2 3\n4 5 6\n_ 7 8\n\n");
    // 5 MiB on one line: over the 4 MiB a board may take under a 16 MiB budget.
    input.extend(std::iter::repeat_n(b'7', 5 << 20));
    input.extend_from_slice(b"\n\n1 2 3\n4 5 6\n7 8 _\n");
    std::fs::write(&path, &input).unwrap();
    let path = path.to_str().unwrap();
    let out = statespace()
        .args([
            "solve",
            &config("tiles-3x3.toml"),
            "--boards",
            path,
            "--json",
        ])
        .args(["--no-cache", "--memory", "16MiB"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a bad board makes the exit 2");
    let answered: Vec<(u64, u64)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|j| (j["index"].as_u64().unwrap(), j["moves"].as_u64().unwrap()))
        .collect();
    assert_eq!(answered, [(1, 1), (3, 2), (5, 0)]);
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "statespace: error: {path}:6: board 2: not UTF-8 text: byte 0xff at column 4\n\
             statespace: error: {path}:13: board 4: more than 4.0 MiB of text, the most a board \
             may take under this memory budget (a quarter of it; raise it with --memory)\n"
        )
    );
}

#[test]
fn a_closed_stdout_stops_a_boards_batch_at_once() {
    // Far more boards than the pipes hold: a batch that went on would read them all.
    let boards = "bwwb\nbbwb\nbwwb\nbwww\n\n".repeat(20_000);
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = binary(&["solve", &config("flip-4x4.toml"), "--boards", "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let fed = child.stdin.take().unwrap().write_all(boards.as_bytes());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(141));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        fed.map_err(|e| e.kind()),
        Err(std::io::ErrorKind::BrokenPipe),
        "the batch stopped before reading its input"
    );
}

/// What is at `path` itself (a symlink is not followed).
fn kind(path: &Path) -> std::fs::FileType {
    std::fs::symlink_metadata(path).unwrap().file_type()
}

#[test]
fn an_output_symlink_stays_a_link_and_its_file_is_replaced() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let (file, link) = (dir.path().join("real.svg"), dir.path().join("link.svg"));
    std::fs::write(&file, "old").unwrap();
    symlink("real.svg", &link).unwrap();
    let link_arg = link.to_str().unwrap();
    statespace()
        .args(["explore", &config("flip-3x3.toml"), "--plot", link_arg])
        .assert()
        .success();
    assert!(kind(&link).is_symlink());
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("real.svg"));
    assert!(std::fs::read_to_string(&file).unwrap().starts_with("<svg"));
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
}

#[test]
fn an_output_device_or_proc_link_is_written_through_not_replaced() {
    use std::os::unix::fs::{FileTypeExt, symlink};
    let dir = tempfile::tempdir().unwrap();
    let null = dir.path().join("null.svg");
    symlink("/dev/null", &null).unwrap();
    statespace()
        .args([
            "solve",
            &config("flip-4x4.toml"),
            "--svg",
            null.to_str().unwrap(),
        ])
        .assert()
        .success();
    assert!(kind(&null).is_symlink());
    assert!(kind(Path::new("/dev/null")).is_char_device());
    // A link to this process's stdout: the picture goes after the answer, on stdout.
    let stdout = dir.path().join("stdout.svg");
    symlink("/proc/self/fd/1", &stdout).unwrap();
    statespace()
        .args([
            "solve",
            &config("flip-4x4.toml"),
            "--svg",
            stdout.to_str().unwrap(),
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("4 moves\n").and(predicate::str::contains("\n<svg")));
    assert!(kind(&stdout).is_symlink());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn an_output_fifo_is_written_through() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("graph.dot");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // no mkfifo
    }
    let child = binary(&[
        "export",
        &config("flip-2x3.toml"),
        "-o",
        fifo.to_str().unwrap(),
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            std::fs::File::open(fifo)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        })
    };
    let out = child.wait_with_output().unwrap();
    // Checked before joining: a FIFO replaced by a file would leave the reader waiting.
    assert!(kind(&fifo).is_fifo(), "the FIFO was replaced");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(reader.join().unwrap().starts_with("graph "));
}

#[test]
fn a_directory_as_output_fails_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    statespace()
        .args(["solve", &config("flip-4x4.toml"), "--svg", path])
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "statespace: error: {path}: is a directory: give a file name\n"
        ));
}

/// An answer of a batch: its index, its name and its moves.
type Answer = (u64, String, Option<u64>);

/// `statespace solve CONFIG --scrambles FILE --json ARGS`, FILE holding `text` (in a directory
/// of the test's own): the exit code, `(index, name, moves)` of each answer, stderr and how
/// long it took; and FILE's path. Moves are `None` for an undecided answer.
fn solve_scrambles(
    text: &[u8],
    args: &[&str],
) -> (Option<i32>, Vec<Answer>, String, Duration, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.txt");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap().to_string();
    let started = Instant::now();
    let out = statespace()
        .args([
            "solve",
            &config("perm-3x3x3.toml"),
            "--scrambles",
            &path,
            "--json",
        ])
        .args(["--no-cache"])
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let took = started.elapsed();
    let answers = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|j| {
            let index = j["index"].as_u64().unwrap();
            let name = j["name"].as_str().unwrap().to_string();
            (index, name, j["moves"].as_u64())
        })
        .collect();
    let stderr = String::from_utf8(out.stderr).unwrap();
    (out.status.code(), answers, stderr, took, path)
}

#[test]
fn a_scrambles_file_answers_around_a_line_that_is_not_utf8() {
    // The whole batch was lost: one error with no line, nothing answered.
    let (code, answers, stderr, _, path) = solve_scrambles(b"R U\nF \xff\n\nL\nD\n", &[]);
    assert_eq!(code, Some(2), "a bad line makes the exit 2");
    assert_eq!(
        answers,
        [
            (1, "line 1".into(), Some(2)),
            (3, "line 4".into(), Some(1)),
            (4, "line 5".into(), Some(1))
        ]
    );
    assert_eq!(
        stderr,
        format!("statespace: error: {path}:2: not UTF-8 text: byte 0xff at column 3\n")
    );
}

/// Ten million moves on one line (20 MB): applied as they are read, under the limits.
fn ten_million_moves_then(last: &str) -> Vec<u8> {
    let mut text = "R U ".repeat(5_000_000).into_bytes();
    text.extend_from_slice(format!("\n{last}\n").as_bytes());
    text
}

#[test]
fn a_scramble_of_millions_of_moves_stops_at_its_time_limit_and_the_next_is_answered() {
    // It took 4.3 s and 200 MB (release) to apply before the search saw its 200 ms limit.
    let text = ten_million_moves_then("R U");
    let (code, answers, stderr, took, path) = solve_scrambles(&text, &["--time-limit", "200ms"]);
    assert_eq!(code, Some(4), "a limit: {stderr}");
    assert_eq!(
        stderr,
        format!("statespace: error: {path}:1: time limit 200ms reached\n")
    );
    assert_eq!(answers, [(2, "line 2".into(), Some(2))], "its own clock");
    assert!(took < Duration::from_millis(2500), "{took:?}");
}

#[test]
fn a_scramble_past_the_memory_budget_is_refused_unheld_and_a_long_token_quoted_short() {
    // A quarter of 16 MiB is 4 MiB: the 20 MB line is read and dropped, the next answered.
    let text = ten_million_moves_then("F");
    let (code, answers, stderr, _, path) = solve_scrambles(&text, &["--memory", "16MiB"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "statespace: error: {path}:1: more than 4.0 MiB of text, the most a scramble may \
             take under this memory budget (a quarter of it; raise it with --memory)\n"
        )
    );
    assert_eq!(answers, [(2, "line 2".into(), Some(1))]);
    // An unknown token of a million bytes: the error quoted it whole (and its line, twice).
    let mut text = b"R ".to_vec();
    text.extend(std::iter::repeat_n(b'X', 1_000_000));
    text.extend_from_slice(b"\nF\n");
    let (code, answers, stderr, _, path) = solve_scrambles(&text, &[]);
    assert_eq!(code, Some(2));
    let (x40, line40) = ("X".repeat(40), format!("R {}", "X".repeat(38)));
    assert_eq!(
        stderr,
        format!(
            "statespace: error: {path}:1: unknown move \"{x40}…\" (1000000 bytes) (token 2 of \
             \"{line40}…\" (1000002 bytes))\n"
        )
    );
    assert_eq!(answers, [(2, "line 2".into(), Some(1))]);
}

#[test]
fn a_start_scramble_holds_the_time_limit_and_a_board_on_stdin_the_budget() {
    // `[start] scramble` of ten million moves: the setup's line, exit 4, within the limit.
    let definition = crate::config_path("defs/3x3x3.tws");
    let config = crate::config_file(&format!(
        "[puzzle]\nkind = \"perm\"\ndefinition = {:?}\n[search]\nmode = \"iddfs\"\n\
         [start]\nscramble = \"{}\"\n",
        definition.to_str().unwrap(),
        "R U ".repeat(5_000_000)
    ));
    let config = config.path().to_str().unwrap();
    let started = Instant::now();
    let out = statespace()
        .args(["solve", config, "--time-limit", "200ms", "--no-cache"])
        .timeout(Duration::from_secs(60))
        .assert()
        .code(4)
        .stdout("")
        .get_output()
        .clone();
    // Where the setup stops depends on the machine: in the scramble, or on a loaded one while
    // the definition is still read (`3x3x3.tws:2: time limit 200ms reached`); either way one
    // line naming the place.
    let stderr = String::from_utf8(out.stderr).unwrap();
    let in_scramble =
        format!("statespace: error: {config}:7: start.scramble: time limit 200ms reached\n");
    let in_definition = format!("statespace: error: {}:", definition.display());
    assert!(
        stderr == in_scramble
            || (stderr.starts_with(&in_definition)
                && stderr.ends_with(": time limit 200ms reached\n")
                && stderr.lines().count() == 1),
        "{stderr}"
    );
    let took = started.elapsed();
    assert!(took < Duration::from_secs(3), "{took:?}");
    // `--board -`: no more than a board of a --boards file may hold is read.
    let mut board = vec![b'7'; 5 << 20];
    board.push(b'\n');
    statespace()
        .args(["solve", &crate::config("tiles-3x3.toml"), "--board", "-"])
        .args(["--memory", "16MiB", "--no-cache"])
        .write_stdin(board)
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "statespace: error: <stdin>: more than 4.0 MiB of text, the most a board may take \
             under this memory budget (a quarter of it; raise it with --memory)\n",
        );
}

#[test]
fn a_comment_after_a_scramble_is_no_move() {
    // `#` starts a comment to the end of its line, as in a .tws file: in --scramble, in a
    // scrambles file (its blocks too) and in [start] scramble. It was an unknown move.
    let cube = config("perm-3x3x3.toml");
    statespace()
        .args([
            "solve",
            &cube,
            "--scramble",
            "R U # two moves",
            "--no-cache",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("2 moves\n"));
    let (code, answers, stderr, _, _) = solve_scrambles(b"R U # two\nF # one\n", &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        answers,
        [(1, "line 1".into(), Some(2)), (2, "line 2".into(), Some(1))]
    );
    // A block's moves keep their lines: an unknown one is named by its own.
    let blocks =
        b"ScrambleAlg A # first\nR # one\n# none\nU\nEnd # of A\nScrambleAlg B\nR\nQ\nEnd\n";
    let (code, answers, stderr, _, path) = solve_scrambles(blocks, &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(answers, [(1, "A".into(), Some(2))]);
    assert_eq!(
        stderr,
        format!("statespace: error: {path}:8: unknown move \"Q\" (token 1 of \"Q\")\n")
    );
    let definition = crate::config_path("defs/3x3x3.tws");
    let config = crate::config_file(&format!(
        "[puzzle]\nkind = \"perm\"\ndefinition = {:?}\n[search]\nmode = \"iddfs\"\n\
         [start]\nscramble = \"\"\"\nR U # two\nF # and one\n\"\"\"\n",
        definition.to_str().unwrap()
    ));
    statespace()
        .args(["solve", config.path().to_str().unwrap(), "--no-cache"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("3 moves\n"));
}

/// A FIFO at `path`.
fn make_fifo(path: &Path) {
    let name = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string; mkfifo only creates a file.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
}

#[test]
fn an_output_fifo_with_no_reader_is_waited_on_no_longer_than_the_time_limit() {
    use std::os::unix::fs::FileTypeExt;
    // They waited in the kernel's open, past the limit, for as long as no reader came.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("out.svg");
    make_fifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    let (flip_4x4, flip_3x3) = (config("flip-4x4.toml"), config("flip-3x3.toml"));
    for args in [
        ["solve", &flip_4x4, "--svg"],
        ["explore", &flip_3x3, "--plot"],
    ] {
        let started = Instant::now();
        statespace()
            .args(args)
            .args([fifo, "--time-limit", "1s"])
            .timeout(Duration::from_secs(20))
            .assert()
            .code(4)
            .stdout("")
            .stderr(format!(
                "statespace: error: {fifo}: waiting for a reader to open it (a FIFO): time \
                 limit 1s reached\n"
            ));
        let took = started.elapsed();
        assert!(took < Duration::from_secs(3), "{args:?}: {took:?}");
        assert!(kind(Path::new(fifo)).is_fifo());
    }
    // A reader that comes within the limit, after the first look, gets the picture.
    let child = binary(&["solve", &flip_4x4, "--svg", fifo, "--time-limit", "20s"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let mut picture = String::new();
    std::fs::File::open(fifo)
        .unwrap()
        .read_to_string(&mut picture)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        picture.starts_with("<svg") && picture.ends_with("</svg>\n"),
        "{picture}"
    );
}

#[test]
fn ctrl_c_stops_a_wait_on_an_output_fifo() {
    use crate::limits::{sigint, spawn};
    use std::os::unix::fs::FileTypeExt;
    // The first Ctrl-C was ignored (solve, explore) or left the export unhandled.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("out");
    make_fifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    let (flip_4x4, flip_3x3) = (config("flip-4x4.toml"), config("flip-3x3.toml"));
    let runs: [&[&str]; 3] = [
        &["solve", &flip_4x4, "--svg", fifo],
        &["explore", &flip_3x3, "--plot", fifo],
        &["export", &flip_3x3, "--format", "dot", "-o", fifo],
    ];
    for args in runs {
        let child = spawn(args);
        std::thread::sleep(Duration::from_millis(500));
        let stopped = sigint(child);
        assert_eq!(stopped.code, Some(130), "{args:?}: {}", stopped.stderr);
        assert!(
            stopped.after < Duration::from_secs(2),
            "{:?}",
            stopped.after
        );
        assert!(stopped.stdout.is_empty(), "{}", stopped.stdout);
        assert!(kind(Path::new(fifo)).is_fifo());
    }
}

#[test]
fn ctrl_c_during_an_export_leaves_no_temporary_file() {
    use crate::limits::{sigint, spawn};
    // A million states of Flip 5 x 5: seconds of work. The signal is sent once the temporary
    // file is there; it was left behind (export installed no handler).
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("graph.json");
    let flip_5x5 = config("flip-5x5.toml");
    let args = [
        "export",
        &flip_5x5,
        "--max-states",
        "1000000",
        "-o",
        out.to_str().unwrap(),
    ];
    let child = spawn(&args);
    let names = || -> Vec<String> {
        let entries = std::fs::read_dir(dir.path()).unwrap();
        entries
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    let started = Instant::now();
    while !names().iter().any(|n| n.starts_with(".statespace-")) {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no temporary file"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(200));
    let stopped = sigint(child);
    assert_eq!(stopped.code, Some(130), "{}", stopped.stderr);
    assert!(
        stopped.after < Duration::from_secs(2),
        "{:?}",
        stopped.after
    );
    assert_eq!(names(), Vec::<String>::new());
}
