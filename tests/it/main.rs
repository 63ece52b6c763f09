//! The integration tests: one binary, one module per concern.
//!
//! - `algebra`: the algebraic Flip solver against brute force, BFS, replay and OEIS A159257.
//! - `blocks`: sliding blocks against a brute force over grids of letters: Klotski's 25,955
//!   positions and 116 / 90 / 81 moves, Rush Hour's card 40, every blocks case; bad boards.
//! - `cases`: the data-driven suite (tests/cases/*.toml), run by every engine a plugin lists.
//! - `flip`: Flip engines against brute force over press subsets, paths replayed.
//! - `heuristics`: the tiles heuristics and pattern databases: admissible on whole spaces, IDA*
//!   and A* optimal with each, the Korf 100 file, cache and memory refusal.
//! - `cluster`: `statespace explore` on timely workers and processes (loopback): the plain
//!   engine's histograms, a peer that never starts or is killed, limits, bad cluster flags.
//! - `cli`: the binary: solve, judge, puzzles, exit codes and every class of bad input.
//! - `cli_io`: the binary at its edges: a `--boards` stream with bad bytes and huge lines, a
//!   closed or full stdout, outputs that are devices, FIFOs or symlinks, clap's errors.
//! - `limits`: time limit, Ctrl-C, memory budget.
//! - `new`: `statespace new`: the plugin crate it writes, and what it refuses.
//! - `differential`: random small instances of every plugin, every mode and the flags that
//!   change an engine's work, against a brute force over simulators written from the guide;
//!   paths replayed, solution listings compared; `STATESPACE_DIFFERENTIAL=N` for a longer run.
//! - `deepening`: the depth-first engines' transposition table and bidirectional BFS on the
//!   built-in puzzles: BFS's answers, the table's hits and savings, its key and flag, limits.
//! - `peg`: peg solitaire against a brute force over grids of characters: the triangle from
//!   each start, every engine, the position-class invariant; bad boards.
//! - `perm`: the permutation-puzzle plugin: known distance tables (2x2x2, Skewb, Pyraminx,
//!   LoopOver), the index, engines agreeing on scrambles, invariants, bad definitions.
//! - `twsearch`: twsearch's sample definitions (`../shared/defs`), when they are beside the
//!   checkout (else each test says on stderr that it was skipped): they parse, and count what
//!   the project's own definitions count.
//! - `fuzz`: arbitrary and mutated inputs to every parser; the corpus in tests/fuzz-corpus.
//! - `export`: `statespace export` in every format, and the sample histogram in docs/.
//! - `shift`: the Shift plugin: HDU samples, table against BFS, encodings, bad input.
//! - `shift_export`: `statespace export` on Shift configs against a brute-force BFS.
//! - `solutions`: `solve --solutions N` against a brute force on the 8-puzzle; the listing
//!   engines agree, with the transposition table and without; output, batches, refusals.
//! - `table`: the distance-table engine: whole-space histograms, paths, memory refusal.
//! - `threads`: `solve --threads N` gives the one-thread answer and lists; refusals; limits and
//!   Ctrl-C on every thread.
//! - `trust`: cached tables keyed by content, forged and damaged files, a FIFO in the cache,
//!   definitions edited between runs that share one cache.
//! - `classes`: `statespace explore --symmetry`: classes by distance against brute force,
//!   text and JSON, and the refusals.
//! - `explore`: `statespace explore` and the whole-space engine: histograms against brute force,
//!   every strategy and thread count agreeing, JSON, plot, limits.
//! - `serve`: `statespace serve`'s JSON API over loopback: the same JSON as `solve --json`,
//!   every kind of puzzle, errors and their status, limits, a search stopped when its client
//!   goes away, the queue, a load of clients some sending garbage, Ctrl-C.
//! - `serve_page`: `statespace serve`'s page in headless Chromium (DevTools protocol): cells and
//!   buttons clicked, keys pressed, the solution played to the goal (Flip 4 x 4, the 8-puzzle),
//!   a limit shown (the 3x3x3).
//! - `view`: the HTML export page in headless Chromium (boards drawn, offline, not blank), the
//!   SVG pictures of solutions, and the guide's pictures in docs/.

mod algebra;
mod blocks;
mod cases;
mod classes;
mod cli;
mod cli_io;
// The cluster sweep and search: only in a build with the cargo feature `cluster` (the default).
#[cfg(feature = "cluster")]
mod cluster;
#[cfg(feature = "cluster")]
mod cluster_solve;
mod deepening;
mod differential;
mod doc_commands;
mod errors;
mod explore;
mod export;
mod flip;
mod fuzz;
mod heuristics;
mod limits;
mod new;
mod peg;
mod perm;
// `statespace serve`: only in a build with the cargo feature `serve` (the default).
#[cfg(feature = "serve")]
mod serve;
#[cfg(feature = "serve")]
mod serve_page;
mod shift;
mod shift_export;
mod solutions;
mod table;
mod threads;
mod tiles;
mod trust;
mod twsearch;
mod view;

use assert_cmd::Command;

/// The repository's top folder (this test binary belongs to `cli/`).
pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The registry of the `statespace` binary: the built-in puzzles.
pub fn registry() -> &'static statespace::registry::Registry {
    static REGISTRY: std::sync::LazyLock<statespace::registry::Registry> =
        std::sync::LazyLock::new(statespace_builtins::builtins);
    &REGISTRY
}
use std::io::Write;
use std::path::PathBuf;

/// The binary under test. Its table cache is a directory of this test run's own, so the tests
/// neither read nor fill the user's `~/.cache/statespace` (they still exercise the cache).
pub fn statespace() -> Command {
    static CACHE: std::sync::LazyLock<tempfile::TempDir> =
        std::sync::LazyLock::new(|| tempfile::tempdir().unwrap());
    let mut command = Command::cargo_bin("statespace").unwrap();
    command.env("XDG_CACHE_HOME", CACHE.path());
    command
}

/// A config file with `text` in a temporary directory (removed when dropped).
pub fn config_file(text: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new().suffix(".toml").tempfile().unwrap();
    std::io::Write::write_all(&mut file, text.as_bytes()).unwrap();
    file
}

/// The path of `configs/NAME`, as a string argument.
pub fn config(name: &str) -> String {
    config_path(name).to_str().unwrap().to_string()
}

/// A file under tests/cases/.
pub fn case_path(name: &str) -> PathBuf {
    PathBuf::from(crate::ROOT).join("tests/cases").join(name)
}

/// A file under configs/.
pub fn config_path(name: &str) -> PathBuf {
    PathBuf::from(crate::ROOT).join("configs").join(name)
}

/// `(reachable, counts)` of the `[[histogram]]` named `name` in tests/cases/shared-samples.toml.
pub fn shared_histogram(name: &str) -> (u64, Vec<u64>) {
    case_histogram("shared-samples.toml", name)
}

/// `(reachable, counts)` of the `[[histogram]]` named `name` in tests/cases/`file`; the counts
/// add up to `reachable`.
pub fn case_histogram(file: &str, name: &str) -> (u64, Vec<u64>) {
    let text = std::fs::read_to_string(case_path(file)).unwrap();
    let table: toml::Table = text.parse().unwrap();
    let entry = table["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("no histogram {name}"));
    let counts = entry["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_integer().unwrap() as u64)
        .collect::<Vec<u64>>();
    let reachable = entry["reachable"].as_integer().unwrap() as u64;
    assert_eq!(counts.iter().sum::<u64>(), reachable, "{file}: {name}");
    (reachable, counts)
}

/// The folder `../shared/NAME` beside the checkout (`defs`: twsearch's sample definitions, read
/// in place and never copied into the project), or `None` when it is not there, as in a fresh
/// clone: the calling test then says on stderr that it was skipped, and returns.
/// Runs the binary with `args`: its exit code, stdout and stderr.
pub fn run_statespace(args: &[&str]) -> (i32, String, String) {
    let out = statespace().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub fn shared_dir(name: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(crate::ROOT).join("../shared").join(name);
    if dir.is_dir() {
        return Some(dir);
    }
    // Written to the stream itself, past the harness's capture of `eprintln!`, so that a plain
    // `cargo test` shows what did not run. The harness names each test's thread after the test.
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    let line = format!("skipped {test}: no ../shared/{name} beside the checkout\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
    None
}
