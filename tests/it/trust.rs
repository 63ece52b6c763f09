//! Nothing on disk is trusted: tables cached by one puzzle never answer for another, forged or
//! damaged files cost a warning and a rebuild (never a wrong answer, a panic or a lost batch),
//! and a cache path that is not a regular file is never waited on. Each test is a case from the
//! issue that found the hole; the fuzz test edits definitions between runs sharing one cache.

use crate::statespace;
use serde_json::Value;
use statespace::cache::TableCache;
use statespace::random::Lcg;
use statespace::search::table::cached::{self, Recipe};
use statespace::space::{BoardFormat, Indexed};
use statespace_flip::{Flip, FlipGoal, Geometry};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The project's 2x2x2 definition.
fn cube_definition() -> String {
    std::fs::read_to_string(crate::config_path("defs/2x2x2.tws")).unwrap()
}

/// A folder with `d.tws` (`definition`) and `c.toml`, a config that solves `scramble` over
/// `moves` with `mode`.
fn puzzle_folder(definition: &str, moves: &str, mode: &str, scramble: &str) -> tempfile::TempDir {
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("d.tws"), definition).unwrap();
    let config = format!(
        "[puzzle]\nkind = \"perm\"\ndefinition = \"d.tws\"\nmoves = {moves}\n\
         [search]\nmode = \"{mode}\"\n[start]\nscramble = \"{scramble}\"\n"
    );
    std::fs::write(folder.path().join("c.toml"), config).unwrap();
    folder
}

/// `solve --json` of the config in `folder` with `cache` (`None`: `--no-cache`): the JSON, the
/// stderr, the exit code.
fn solve(folder: &Path, cache: Option<&Path>) -> (Value, String, i32) {
    let mut command = statespace();
    command.args(["solve", folder.join("c.toml").to_str().unwrap(), "--json"]);
    match cache {
        Some(dir) => command.args(["--cache-dir", dir.to_str().unwrap()]),
        None => command.arg("--no-cache"),
    };
    let out = command.timeout(Duration::from_secs(120)).output().unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let stderr = String::from_utf8(out.stderr).unwrap();
    (json, stderr, out.status.code().unwrap_or(-1))
}

/// The answer's shape: the outcome and the number of moves.
fn answer(json: &Value) -> (Value, Value) {
    (json["outcome"].clone(), json["moves"].clone())
}

#[test]
fn an_edited_definition_never_reads_the_old_table() {
    // The repro: the 2x2x2 over U F R, scramble F', mode table.
    let folder = puzzle_folder(&cube_definition(), "[\"U\", \"F\", \"R\"]", "table", "F'");
    let cache = tempfile::tempdir().unwrap();
    let (first, _, code) = solve(folder.path(), Some(cache.path()));
    assert_eq!((first["moves"].as_u64(), code), (Some(1), 0));
    // Move F's twists changed in place: the same path, the same names, another puzzle.
    let edited = cube_definition().replace("2 0 0 1 1 2 0 0", "1 0 0 2 2 1 0 0");
    assert_ne!(edited, cube_definition());
    std::fs::write(folder.path().join("d.tws"), edited).unwrap();
    let (cached, stderr, _) = solve(folder.path(), Some(cache.path()));
    let (fresh, _, _) = solve(folder.path(), None);
    assert_eq!(answer(&cached), answer(&fresh), "{stderr}");
    assert_eq!(
        cached["table_loaded"], false,
        "the old table is not this puzzle's"
    );
    assert_eq!(
        stderr, "",
        "a new table, not a damaged one: nothing to warn about"
    );
    // Both tables are kept, each under its own content.
    assert_eq!(std::fs::read_dir(cache.path()).unwrap().count(), 2);
    // A renamed copy of the original is the same puzzle: it loads the first table.
    let copy = puzzle_folder(&cube_definition(), "[\"U\", \"F\", \"R\"]", "table", "F'");
    std::fs::rename(copy.path().join("d.tws"), copy.path().join("other.tws")).unwrap();
    let config = std::fs::read_to_string(copy.path().join("c.toml")).unwrap();
    let config = config.replace("d.tws", "other.tws");
    std::fs::write(copy.path().join("c.toml"), config).unwrap();
    let (renamed, _, _) = solve(copy.path(), Some(cache.path()));
    assert_eq!(renamed["table_loaded"], true);
    assert_eq!(answer(&renamed), answer(&first));
}

/// Swaps two entries of `moves`' line in a definition, or changes a twist, at random: a
/// definition that still reads, whose moves do something else. Only slots the move already
/// moves are touched, so the space stays small.
fn mutate(definition: &str, moves: &[&str], random: &mut Lcg) -> String {
    let mut lines: Vec<String> = definition.lines().map(str::to_string).collect();
    let name = moves[random.below(moves.len())];
    let at = lines
        .iter()
        .position(|l| l.trim() == format!("Move {name}"))
        .unwrap();
    let (perm_at, twist_at) = (at + 2, at + 3);
    let perm: Vec<usize> = lines[perm_at]
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    let mut twist: Vec<usize> = lines[twist_at]
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    let moved: Vec<usize> = (0..perm.len()).filter(|&i| perm[i] != i + 1).collect();
    let mut perm = perm;
    if random.below(2) == 0 {
        let (a, b) = (
            moved[random.below(moved.len())],
            moved[random.below(moved.len())],
        );
        perm.swap(a, b);
    } else {
        twist[moved[random.below(moved.len())]] = random.below(3);
    }
    let join = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(" ");
    lines[perm_at] = join(&perm);
    lines[twist_at] = join(&twist);
    lines.join("\n") + "\n"
}

#[test]
fn edited_definitions_sharing_one_cache_answer_as_without_it() {
    // The fuzz the issue asks for: one definition file edited between runs, two folders with a
    // file of the same name, one cache (the default one, through XDG_CACHE_HOME): every answer
    // equals the answer without a cache.
    let shared_home = tempfile::tempdir().unwrap();
    let cache = shared_home.path().join("statespace");
    let moves = ["U", "R"];
    let mut random = Lcg(20);
    let mut definitions = [cube_definition(), cube_definition()];
    let mut loaded = 0;
    for round in 0..10 {
        let which = round % 2;
        definitions[which] = mutate(&definitions[which], &moves, &mut random);
        let scramble: Vec<&str> = (0..6).map(|_| moves[random.below(2)]).collect();
        let folder = puzzle_folder(
            &definitions[which],
            "[\"U\", \"R\"]",
            "table",
            &scramble.join(" "),
        );
        let (cached, stderr, code) = solve(folder.path(), Some(&cache));
        let (fresh, _, fresh_code) = solve(folder.path(), None);
        assert_eq!(
            (answer(&cached), code),
            (answer(&fresh), fresh_code),
            "round {round}: {stderr}\n{}",
            definitions[which]
        );
        assert!(cached["moves"].is_u64(), "round {round}: solved: {cached}");
        // The same definition again: its own table, loaded.
        let (again, _, _) = solve(folder.path(), Some(&cache));
        assert_eq!(answer(&again), answer(&fresh), "round {round}");
        loaded += (again["table_loaded"] == true) as u32;
    }
    assert_eq!(loaded, 10, "each definition's table is found again");
}

/// The one file in `dir`.
fn only_file(dir: &Path) -> PathBuf {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files.into_iter().next().unwrap()
}

/// The cache file's header and the table's header before its histogram (see `cache` and
/// `search::table`).
const FILE_HEADER: usize = 64;
const TABLE_HEADER: usize = 56;

/// A cached table file's entries, read and written in place (the layout of `search::table`).
struct Entries {
    bytes: Vec<u8>,
    bits: u64,
    words_at: usize,
}

impl Entries {
    fn read(file: &Path) -> Entries {
        let bytes = std::fs::read(file).unwrap();
        let bits = bytes[FILE_HEADER + 12] as u64;
        let levels = u64::from_le_bytes(
            bytes[FILE_HEADER + 48..FILE_HEADER + 56]
                .try_into()
                .unwrap(),
        );
        let words_at = FILE_HEADER + TABLE_HEADER + 8 * levels as usize + 8;
        Entries {
            bytes,
            bits,
            words_at,
        }
    }

    fn word(&self, i: u64) -> (usize, u64) {
        let bit = i * self.bits;
        (self.words_at + 8 * (bit / 64) as usize, bit % 64)
    }

    fn get(&self, i: u64) -> u64 {
        let (at, shift) = self.word(i);
        let w = u64::from_le_bytes(self.bytes[at..at + 8].try_into().unwrap());
        (w >> shift) & ((1 << self.bits) - 1)
    }

    fn set(&mut self, i: u64, v: u64) {
        let (at, shift) = self.word(i);
        let mut w = u64::from_le_bytes(self.bytes[at..at + 8].try_into().unwrap());
        w &= !(((1 << self.bits) - 1) << shift);
        w |= v << shift;
        self.bytes[at..at + 8].copy_from_slice(&w.to_le_bytes());
    }

    /// Writes the entries back with a checksum that matches: the file passes the cache's own
    /// checks.
    fn write(mut self, file: &Path) {
        let crc = crc32fast::hash(&self.bytes[FILE_HEADER..]);
        self.bytes[56..60].copy_from_slice(&crc.to_le_bytes());
        std::fs::write(file, self.bytes).unwrap();
    }
}

/// Swaps the entries of states `a` and `b` in a cached table file and fixes its checksum: the
/// file passes every check of its own (the histogram still counts right).
fn swap_entries(file: &Path, a: u64, b: u64) {
    let mut entries = Entries::read(file);
    let (x, y) = (entries.get(a), entries.get(b));
    entries.set(a, y);
    entries.set(b, x);
    entries.write(file);
}

#[test]
fn a_forged_table_is_discarded_and_every_board_of_a_batch_answered() {
    // Flip 4 x 4: the state is the board's bits, its own index.
    let flip = Flip::new(
        Geometry {
            rows: 4,
            cols: 4,
            wrap: false,
        },
        FlipGoal::Uniform,
    );
    let config = crate::config("flip-4x4.toml");
    let cache = tempfile::tempdir().unwrap();
    let run = |boards: &str, cache: Option<&Path>| {
        let mut command = statespace();
        command.args([
            "solve", &config, "--mode", "table", "--json", "--boards", "-",
        ]);
        match cache {
            Some(dir) => command.args(["--cache-dir", dir.to_str().unwrap()]),
            None => command.arg("--no-cache"),
        };
        let out = command.write_stdin(boards).output().unwrap();
        let answers: Vec<(Value, Value)> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| answer(&serde_json::from_str(l).unwrap()))
            .collect();
        (
            answers,
            String::from_utf8(out.stderr).unwrap(),
            out.status.code(),
        )
    };
    // 300 boards; the forged entries are the first board's and a board 2 or more moves away.
    let mut random = Lcg(3);
    let indices: Vec<u64> = (0..300).map(|_| random.below(1 << 16) as u64).collect();
    let text: Vec<String> = indices
        .iter()
        .map(|&i| flip.format(flip.state(i)))
        .collect();
    let boards = text.join("\n\n");
    let (expected, _, expected_code) = run(&boards, None);
    assert_eq!(expected.len(), 300);
    run(&boards, Some(cache.path()));
    let file = only_file(cache.path());
    // Most 4 x 4 boards cannot be made uniform; the forged pair is two that can.
    let distance = |i: usize| expected[i].1.as_u64();
    let first = (0..300).find(|&i| distance(i).is_some()).unwrap();
    let other = (first + 1..300)
        .find(|&i| distance(i).is_some_and(|d| d.abs_diff(distance(first).unwrap()) >= 2))
        .unwrap();
    swap_entries(&file, indices[first], indices[other]);

    let (answers, stderr, code) = run(&boards, Some(cache.path()));
    assert_eq!(answers.len(), 300, "every board answered: {stderr}");
    assert_eq!(answers, expected, "every answer right");
    assert_eq!(code, expected_code);
    // One warning: at load (the sampled check) or at the first board (the descent): either way
    // the file is removed and the table rebuilt.
    let warnings: Vec<&str> = stderr.lines().collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(warnings[0].starts_with("statespace: warning: table cache: "));
    assert!(warnings[0].ends_with("removed, rebuilding"), "{stderr}");
    // Rebuilt and saved: the next run loads it and warns about nothing.
    let (answers, stderr, _) = run(&boards, Some(cache.path()));
    assert_eq!((answers, stderr), (expected, String::new()));
}

#[test]
fn a_table_of_another_puzzle_under_this_ones_name_is_refused_at_load() {
    // The torus's table written under the plain board's fingerprint: same size, same format,
    // a checksum that matches: only the space can tell.
    let plain = "[puzzle]\nkind = \"flip\"\nrows = 4\ncols = 4\n[search]\nmode = \"table\"\n\
                 [start]\nboard = \"\"\"\nbwwb\nbbwb\nbwwb\nbwww\n\"\"\"\n";
    let torus = plain.replace("cols = 4\n", "cols = 4\nwrap = true\n");
    let (plain, torus) = (crate::config_file(plain), crate::config_file(&torus));
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let run = |config: &tempfile::NamedTempFile, dir: &Path| {
        let out = statespace()
            .args(["solve", config.path().to_str().unwrap(), "--json"])
            .args(["--cache-dir", dir.to_str().unwrap()])
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        (answer(&json), String::from_utf8(out.stderr).unwrap())
    };
    let (expected, _) = run(&plain, a.path());
    run(&torus, b.path());
    let (plain_file, torus_file) = (only_file(a.path()), only_file(b.path()));
    let plain_bytes = std::fs::read(&plain_file).unwrap();
    let mut forged = std::fs::read(&torus_file).unwrap();
    // The plain board's fingerprint; the torus's length and checksum.
    forged[16..48].copy_from_slice(&plain_bytes[16..48]);
    let crc = crc32fast::hash(&forged[FILE_HEADER..]);
    forged[56..60].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&plain_file, forged).unwrap();
    let (answer, stderr) = run(&plain, a.path());
    assert_eq!(answer, expected);
    assert!(stderr.contains("does not fit this puzzle"), "{stderr}");
    assert!(stderr.ends_with("removed, rebuilding\n"), "{stderr}");
}

/// Replaces `file` by a FIFO of the same name.
fn fifo_in_place_of(file: &Path) {
    std::fs::remove_file(file).unwrap();
    let path = std::ffi::CString::new(file.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string; mkfifo only creates a file.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
}

#[test]
fn a_fifo_in_place_of_a_cache_file_is_never_waited_on() {
    let cache = tempfile::tempdir().unwrap();
    let dir = cache.path().to_str().unwrap();
    // solve
    let config = crate::config("tiles-3x3.toml");
    let solve = || {
        statespace()
            .args(["solve", &config, "--cache-dir", dir])
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap()
    };
    assert!(solve().status.success());
    fifo_in_place_of(&only_file(cache.path()));
    let out = solve();
    assert!(out.status.success(), "answered, not hung");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("not a regular file (a FIFO)"), "{stderr}");
    assert!(only_file(cache.path()).is_file(), "replaced by the table");
    // judge hdu3278
    let judge = tempfile::tempdir().unwrap();
    let input = std::fs::read_to_string(crate::case_path("judge-hdu3278.txt")).unwrap();
    let expected = std::fs::read_to_string(crate::case_path("judge-hdu3278.expected")).unwrap();
    let run_judge = || {
        statespace()
            .args(["judge", "hdu3278", "--cache-dir"])
            .arg(judge.path())
            .write_stdin(input.as_str())
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap()
    };
    run_judge();
    fifo_in_place_of(&only_file(judge.path()));
    let out = run_judge();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    assert!(String::from_utf8(out.stderr).unwrap().contains("a FIFO"));
}

#[test]
fn a_cache_file_cut_short_while_in_use_never_kills_the_process() {
    // Tables are mapped: a file truncated under a run reads zeros past its end instead of
    // killing it with SIGBUS, and a table that knows its file was cut short is rejected at load
    // or answers nothing (a warning and a rebuild). Truncate the file over and over while runs
    // load and use it.
    let folder = puzzle_folder(
        &cube_definition(),
        "[\"U\", \"F\", \"R\"]",
        "table",
        "R U2 F'",
    );
    let cache = tempfile::tempdir().unwrap();
    let (expected, _, _) = solve(folder.path(), Some(cache.path()));
    let file = only_file(cache.path());
    let good = std::fs::read(&file).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut random = Lcg(9);
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                // Cut it at a random length, then put it back whole.
                let _ = std::fs::write(&file, &good[..random.below(good.len())]);
                let _ = std::fs::write(&file, &good);
            }
        });
        for _ in 0..15 {
            let (json, stderr, code) = solve(folder.path(), Some(cache.path()));
            assert_eq!((answer(&json), code), (answer(&expected), 0), "{stderr}");
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
}

#[test]
fn the_library_keys_every_table_by_its_space_alone() {
    // Two descriptions of one Flip board (the same geometry and goal, built twice) share a key;
    // the torus does not.
    let dir = tempfile::tempdir().unwrap();
    let cache = TableCache::new(Some(dir.path().into()), true, |_| {});
    let board = |wrap| {
        Flip::new(
            Geometry {
                rows: 3,
                cols: 3,
                wrap,
            },
            FlipGoal::AllWhite,
        )
    };
    let recipe = Recipe::distance_table();
    assert_eq!(
        cached::path_for(&cache, &board(false), &recipe),
        cached::path_for(&cache, &board(false), &recipe)
    );
    assert_ne!(
        cached::path_for(&cache, &board(false), &recipe),
        cached::path_for(&cache, &board(true), &recipe)
    );
}

#[test]
fn a_cache_warning_to_a_closed_stderr_is_no_panic() {
    // The warning line of a damaged file meets a stderr whose reader is gone: the answer and
    // its exit code stand (a panic would exit 101).
    let cache = tempfile::tempdir().unwrap();
    let dir = cache.path().to_str().unwrap();
    let config = crate::config("tiles-3x3.toml");
    statespace()
        .args(["solve", &config, "--cache-dir", dir])
        .assert()
        .success();
    std::fs::write(only_file(cache.path()), b"garbage").unwrap();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let status = std::process::Command::new(assert_cmd::cargo::cargo_bin("statespace"))
        .args(["solve", &config, "--cache-dir", dir])
        .stdout(std::process::Stdio::null())
        .stderr(writer)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
}

/// The 2x2x2 over U, F, R as the plugin reads `configs/perm-2x2x2.toml`, and the index of the
/// state `scramble` reaches.
fn cube_index(scramble: &str) -> u64 {
    let space = crate::perm::space::<32>(
        crate::config_path("defs/2x2x2.tws").to_str().unwrap(),
        Some(&["U", "F", "R"]),
        statespace_perm::def::Metric::Htm,
    );
    let mut text = statespace::board_text::BoardText::from_file("scramble", scramble.into());
    text.scramble = true;
    let mut setup = statespace::setup::Setup::default();
    space.index(space.read(&text, &mut setup).unwrap())
}

#[test]
fn a_raised_entry_never_lengthens_a_path() {
    // The repro: the scramble's entry raised from 7 to 8, the checksum fixed. The
    // descent's local rule (a successor at 6 is more than one move closer) finds it: one
    // warning, the file rebuilt, the optimal 7 moves. Before, 8 moves `U2 U' F R' ...`.
    let scramble = "F U2 U' F' U' F' U2 R R2 U' F R2";
    let config = crate::config("perm-2x2x2.toml");
    let cache = tempfile::tempdir().unwrap();
    let run = || {
        let out = statespace()
            .args(["solve", &config, "--mode", "table", "--json"])
            .args(["--scramble", scramble, "--cache-dir"])
            .arg(cache.path())
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        (json, String::from_utf8(out.stderr).unwrap())
    };
    let (built, _) = run();
    assert_eq!(built["moves"], 7);
    let file = only_file(cache.path());
    let index = cube_index(scramble);
    let mut entries = Entries::read(&file);
    assert_eq!(entries.get(index), 7, "the scramble's entry");
    entries.set(index, 8);
    entries.write(&file);
    let (json, stderr) = run();
    assert_eq!(
        (&json["moves"], &json["table_loaded"]),
        (&7.into(), &false.into())
    );
    assert!(stderr.contains("successor at 6"), "{stderr}");
    assert!(stderr.ends_with("removed, rebuilding\n"), "{stderr}");
}

#[test]
fn raised_entries_never_answer_a_batch_wrong() {
    // 200 random scrambles answered from a table with a raised entry at every 4th board's
    // state (checksum fixed): every answer equals the one a fresh table gives. Before, the
    // first board was answered a move long from the table as loaded.
    let config = crate::config("perm-2x2x2.toml");
    let names = ["U", "U2", "U'", "F", "F2", "F'", "R", "R2", "R'"];
    let mut random = Lcg(42);
    let scrambles: Vec<String> = (0..200)
        .map(|_| {
            let moves: Vec<&str> = (0..12).map(|_| names[random.below(9)]).collect();
            moves.join(" ")
        })
        .collect();
    let input = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(input.path(), scrambles.join("\n")).unwrap();
    let run = |cache: Option<&Path>| {
        let mut command = statespace();
        command.args(["solve", &config, "--mode", "table", "--json", "--scrambles"]);
        command.arg(input.path());
        match cache {
            Some(dir) => command.arg("--cache-dir").arg(dir),
            None => command.arg("--no-cache"),
        };
        let out = command.timeout(Duration::from_secs(300)).output().unwrap();
        let moves: Vec<Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["moves"].clone())
            .collect();
        (moves, String::from_utf8(out.stderr).unwrap())
    };
    let (expected, _) = run(None);
    assert_eq!(expected.len(), 200);
    let cache = tempfile::tempdir().unwrap();
    run(Some(cache.path()));
    let file = only_file(cache.path());
    let mut entries = Entries::read(&file);
    // Not next to the goal (the load's walks from the goal check those) nor at the deepest
    // level (a code the histogram lacks is refused at load).
    for scramble in scrambles.iter().step_by(4) {
        let index = cube_index(scramble);
        let code = entries.get(index);
        if (3..11).contains(&code) {
            entries.set(index, code + 1);
        }
    }
    entries.write(&file);
    let (answers, stderr) = run(Some(cache.path()));
    assert_eq!(answers, expected, "{stderr}");
    assert!(stderr.contains("removed, rebuilding"), "{stderr}");
}

#[test]
fn a_pattern_database_cut_short_in_use_is_reported_and_rebuilt() {
    // A batch of boards read one at a time: after the first answer, every cache file is cut to
    // half its length. The answer in flight stays optimal (the zeros are lower bounds); after
    // it, one warning, the file removed, and the next board reads a rebuilt database. Before,
    // nothing was said and every later board searched with the zeros.
    use std::io::{BufRead, BufReader, Write};
    let folder = puzzle_folder(&cube_definition(), "[\"U\", \"F\", \"R\"]", "idastar", "R");
    let config = folder.path().join("c.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("[heuristic]\nkind = \"pdb\"\n");
    std::fs::write(&config, text).unwrap();
    let scrambles = [
        "R U2 F' R U R' F2",
        "F R' U2 R F' U R2 F",
        "U F2 R U' R2 F U'",
    ];
    // The boards the scrambles reach, from the plain answers, and the optimal lengths.
    let mut boards = Vec::new();
    let mut expected = Vec::new();
    for scramble in scrambles {
        let out = statespace()
            .args(["solve", config.to_str().unwrap(), "--json", "--no-cache"])
            .args(["--scramble", scramble])
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        boards.push(json["start"].as_str().unwrap().to_string());
        expected.push(json["moves"].clone());
    }
    // The database built and saved first, so that the batch maps it from the file.
    let cache = tempfile::tempdir().unwrap();
    statespace()
        .args(["solve", config.to_str().unwrap(), "--cache-dir"])
        .arg(cache.path())
        .assert()
        .success();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("statespace"))
        .args(["solve", config.to_str().unwrap(), "--json", "--boards", "-"])
        .arg("--cache-dir")
        .arg(cache.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut answers = Vec::new();
    for (i, board) in boards.iter().enumerate() {
        writeln!(stdin, "{board}\n").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        answers.push(serde_json::from_str::<Value>(&line).unwrap()["moves"].clone());
        if i == 0 {
            // The database is saved and mapped: cut every file short under the run.
            for entry in std::fs::read_dir(cache.path()).unwrap() {
                let path = entry.unwrap().path();
                let len = std::fs::metadata(&path).unwrap().len();
                let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
                file.set_len(len / 2).unwrap();
            }
        }
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(answers, expected, "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let warnings: Vec<&str> = stderr.lines().collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(warnings[0].contains("cut short"), "{stderr}");
    assert!(warnings[0].ends_with("removed, rebuilding"), "{stderr}");
    // Rebuilt and saved whole: a fresh run loads it without a word.
    let out = statespace()
        .args(["solve", config.to_str().unwrap(), "--json", "--cache-dir"])
        .arg(cache.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stderr).unwrap(), "");
}
