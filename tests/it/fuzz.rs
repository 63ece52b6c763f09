//! Fuzzing without a fuzzer: proptest feeds arbitrary and mutated inputs to every parser and to
//! the solve path, and the corpus in tests/fuzz-corpus/ is replayed. The property is always the
//! same: an answer or a one-line error, never a panic or a hang (every solve runs under a small
//! state and time limit).
//!
//! cargo-fuzz needs a nightly toolchain, which this project's machines cannot fetch; proptest
//! runs on stable inside `cargo test`, so CI runs a short fuzz pass on every change.

use proptest::prelude::*;
use statespace::board_text::BoardText;
use statespace::config::Config;
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use statespace_flip::Geometry;
use std::time::Duration;

fn small_limits() -> Limits {
    Limits {
        max_states: Some(20_000),
        time_limit: Some(Duration::from_secs(2)),
        memory_budget: 64 << 20,
        ..Limits::default()
    }
}

/// Parses, builds and solves `text` as a config; errors must be one line.
fn config_round(text: &str) {
    let config = match Config::parse("fuzz.toml", text) {
        Ok(config) => config,
        Err(e) => return assert_one_line(&e.to_string()),
    };
    let instance = match crate::registry().build(&config, &small_limits()) {
        Ok(instance) => instance,
        Err(e) => return assert_one_line(&e.to_string()),
    };
    let limits = match config.limits(small_limits()) {
        Ok(_) => small_limits(), // the config's own limits could be huge; keep the fuzz run short
        Err(e) => return assert_one_line(&e.to_string()),
    };
    if let Some(board) = config.start_board()
        && let Err(e) = instance.solve(
            &board,
            instance.default_mode(),
            &limits,
            &SearchOptions::default(),
        )
    {
        assert_one_line(&e.to_string());
    }
}

fn assert_one_line(message: &str) {
    assert!(!message.trim().is_empty(), "an empty error");
    assert_eq!(
        message.trim_end().lines().count(),
        1,
        "one line: {message:?}"
    );
}

/// Valid configs to mutate: the `.toml` files of configs/ (configs/defs/ holds puzzle
/// definitions, not configs).
fn seeds() -> Vec<String> {
    let mut seeds: Vec<String> = std::fs::read_dir(crate::config_path(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    seeds.sort();
    seeds
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_as_a_config(text in "\\PC{0,200}") {
        config_round(&text);
    }

    #[test]
    fn mutated_configs(seed in 0usize..64, edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6)) {
        let seeds = seeds();
        let mut bytes = seeds[seed % seeds.len()].clone().into_bytes();
        for (at, byte) in edits {
            let i = at.index(bytes.len());
            // Mostly printable ASCII, so the edits reach past the TOML parser into validation.
            bytes[i] = if byte < 200 { b' ' + byte % 95 } else { byte };
        }
        if let Ok(text) = String::from_utf8(bytes) {
            config_round(&text);
        }
    }

    #[test]
    fn arbitrary_boards(rows in 1u32..9, cols in 1u32..9, text in "[bwBWx \\n\\t]{0,90}") {
        let g = Geometry { rows, cols, wrap: false };
        if let Err(e) = g.parse(&BoardText::from_file("board", text)) {
            assert_one_line(&e.to_string());
        }
    }
}

#[test]
fn the_corpus_replays_without_a_panic() {
    let dir = std::path::Path::new(crate::ROOT).join("tests/fuzz-corpus");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        config_round(&text);
        let g = Geometry {
            rows: 4,
            cols: 4,
            wrap: false,
        };
        if let Err(e) = g.parse(&BoardText::from_file("corpus", text.to_string())) {
            assert_one_line(&e.to_string());
        }
        n += 1;
    }
    assert!(n >= 10, "the corpus lost its files");
}

/// Feeds `cases` random streams matching `pattern` to `judge PROBLEM`: an answer (exit 0) or one
/// line on stderr with nothing on stdout (exit 2), never a panic.
fn judge_survives(problem: &str, pattern: &str, cases: u32, must_answer: bool) {
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(cases));
    runner
        .run(&pattern, |input| {
            let out = assert_cmd::Command::cargo_bin("statespace")
                .unwrap()
                .args(["judge", problem])
                .write_stdin(input)
                .output()
                .unwrap();
            let code = out.status.code();
            let stderr = String::from_utf8_lossy(&out.stderr);
            prop_assert!(
                code == Some(0) || (code == Some(2) && !must_answer),
                "{code:?} {stderr}"
            );
            if code == Some(2) {
                prop_assert!(out.stdout.is_empty());
                assert_one_line(&stderr);
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn the_poj1753_judge_survives_random_streams() {
    judge_survives("poj1753", "[bwx\\n ]{0,24}", 24, false);
}

#[test]
fn the_hdu3278_judge_survives_random_streams() {
    judge_survives("hdu3278", "[0-3]( [BWGX]{5,7}){0,9}[ \\n-]{0,3}", 24, false);
    // Well-formed cases with random colour counts: always answered.
    judge_survives(
        "hdu3278",
        "1\\n[BWG]{6} [BWG]{6} [BWG]{6} [BWG]{6}\\n",
        8,
        true,
    );
}
