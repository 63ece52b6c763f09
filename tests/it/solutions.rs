//! `solve --solutions N` (and `[search] solutions`): the first N optimal solutions, checked
//! against a brute force over every move sequence of the optimal length on the 8-puzzle; the
//! engines that list solutions agree, with the transposition table on and off; text, JSON and
//! batches; the refusals.

use crate::{config, config_file, statespace};
use serde_json::Value;
use std::collections::HashSet;

/// `solve CONFIG ARGS`: the exit code, stdout and stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = statespace()
        .arg("solve")
        .args(args)
        .arg("--no-cache")
        .output()
        .unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (
        out.status.code().unwrap(),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// The JSON answer of `solve CONFIG --json ARGS`, which must exit 0.
fn solve(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

/// The solutions of an answer, as move lists: `path` alone when one was asked for (the JSON
/// is then as it always was, without `solutions`).
fn solutions(answer: &Value) -> Vec<Vec<String>> {
    match answer.get("solutions") {
        Some(all) => serde_json::from_value(all.clone()).unwrap(),
        None => vec![serde_json::from_value(answer["path"].clone()).unwrap()],
    }
}

/// An 8-puzzle board, `_` the blank, as cells row by row (0 the blank).
fn cells(board: &str) -> [u8; 9] {
    let mut cells = [0; 9];
    for (i, word) in board.split_whitespace().enumerate() {
        cells[i] = word.parse().unwrap_or(0);
    }
    cells
}

/// Every sequence of `length` moves from `board` that solves it, labelled as the tiles plugin
/// labels moves (`7 left`: tile 7 slides left into the blank): the brute force.
fn brute_force(board: [u8; 9], length: usize) -> HashSet<Vec<String>> {
    fn go(board: [u8; 9], left: usize, moves: &mut Vec<String>, all: &mut HashSet<Vec<String>>) {
        if left == 0 {
            if board == [1, 2, 3, 4, 5, 6, 7, 8, 0] {
                all.insert(moves.clone());
            }
            return;
        }
        let blank = board.iter().position(|&c| c == 0).unwrap();
        let (row, col) = (blank / 3, blank % 3);
        // The tile beside the blank and the way it slides into it.
        let tiles = [
            (row > 0, blank.wrapping_sub(3), "down"),
            (row < 2, blank + 3, "up"),
            (col > 0, blank.wrapping_sub(1), "right"),
            (col < 2, blank + 1, "left"),
        ];
        for (can, tile, way) in tiles {
            if can {
                let mut next = board;
                next.swap(blank, tile);
                moves.push(format!("{} {way}", board[tile]));
                go(next, left - 1, moves, all);
                moves.pop();
            }
        }
    }
    let mut all = HashSet::new();
    go(board, length, &mut Vec::new(), &mut all);
    all
}

#[test]
fn the_solutions_are_optimal_sequences_the_brute_force_finds() {
    // 9 and 8 moves, two optimal solutions each; 7 moves, one.
    for board in [
        "2 _ 3\n1 7 6\n5 4 8",
        "_ 1 5\n4 3 2\n7 8 6",
        "1 2 3\n_ 4 8\n7 6 5",
    ] {
        let file = config_file(&format!(
            "[puzzle]\nkind = \"tiles\"\nrows = 3\ncols = 3\n[start]\nboard = \"\"\"\n{board}\n\"\"\"\n"
        ));
        let path = file.path().to_str().unwrap();
        let length = solve(&[path])["moves"].as_u64().unwrap() as usize;
        let all = brute_force(cells(board), length);
        assert!(!all.is_empty());
        for n in [1, 2, 5] {
            let mut listed = None;
            for (mode, table) in [
                ("table", "auto"),
                ("idastar", "auto"),
                ("idastar", "off"),
                ("iddfs", "auto"),
                ("iddfs", "off"),
            ] {
                let count = n.to_string();
                let answer = solve(&[
                    path,
                    "--solutions",
                    &count,
                    "--mode",
                    mode,
                    "--transpositions",
                    table,
                ]);
                let what = format!("{board:?}, {n}, {mode}, {table}");
                let found = solutions(&answer);
                assert_eq!(found.len(), n.min(all.len()), "{what}");
                assert_eq!(
                    found[0],
                    serde_json::from_value::<Vec<String>>(answer["path"].clone()).unwrap()
                );
                let distinct: HashSet<&Vec<String>> = found.iter().collect();
                assert_eq!(distinct.len(), found.len(), "{what}: repeats");
                assert!(
                    found.iter().all(|moves| all.contains(moves)),
                    "{what}: {found:?}"
                );
                match n {
                    1 => assert!(answer.get("all_optimal").is_none(), "{what}"),
                    _ => assert_eq!(answer["all_optimal"], n > all.len(), "{what}"),
                }
                // Every engine lists the same ones, in the same order.
                assert_eq!(listed.get_or_insert(found.clone()), &found, "{what}");
            }
        }
    }
}

#[test]
fn the_engines_agree_on_every_optimal_solution_of_the_hardest_8_puzzle() {
    // The config's board, 31 moves: 40 optimal solutions.
    let config = config("tiles-3x3.toml");
    let all = solve(&[&config, "--solutions", "1000"]);
    assert_eq!(
        (all["moves"].as_u64(), all["mode"].as_str()),
        (Some(31), Some("table"))
    );
    let every = solutions(&all);
    assert_eq!(every.len(), 40);
    assert_eq!(all["all_optimal"], true);
    assert!(every.iter().all(|moves| moves.len() == 31));
    assert_eq!(every.iter().collect::<HashSet<_>>().len(), 40);
    for table in ["auto", "off"] {
        let args = ["--mode", "idastar", "--transpositions", table];
        let by_ida = solve(&[&[config.as_str(), "--solutions", "1000"][..], &args].concat());
        assert_eq!(solutions(&by_ida), every, "{table}");
        let first = solve(&[&[config.as_str(), "--solutions", "5"][..], &args].concat());
        assert_eq!(solutions(&first), every[..5], "{table}");
        assert_eq!(first["all_optimal"], false);
    }
}

#[test]
fn text_numbers_the_solutions_and_each_board_of_a_batch_gets_its_own() {
    let config = config("perm-2x2x2.toml");
    let (code, out, _) = run(&[&config, "--mode", "table", "--solutions", "3"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("7 moves\n"), "{out}");
    assert!(
        out.contains(
            "\nsolutions: all 2 optimal ones\n   1. F R2 U' F2 R' U' R'\n   2. F' R2 U F2 R U' R'\n"
        ),
        "{out}"
    );
    // One solution asked: the output is as it always was.
    let (_, one, _) = run(&[&config, "--mode", "table"]);
    assert!(!one.contains("solutions:"));
    let (_, two, _) = run(&[&config, "--mode", "table", "--solutions", "2"]);
    assert!(
        two.contains("solutions: the first 2 optimal ones\n"),
        "{two}"
    );

    let scrambles = config_file("R U R' F2 U' R2 F\nR U R'\n");
    let scrambles = scrambles.path().to_str().unwrap();
    let (code, out, err) = run(&[
        &config,
        "--mode",
        "idastar",
        "--scrambles",
        scrambles,
        "--solutions",
        "3",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let counts: Vec<usize> = answers.iter().map(|a| solutions(a).len()).collect();
    assert_eq!(counts, [2, 1]);
    assert!(answers.iter().all(|a| a["all_optimal"] == true));
}

#[test]
fn zero_solutions_and_engines_that_give_one_are_refused_in_one_line() {
    let tiles = config("tiles-3x3.toml");
    let (code, _, err) = run(&[&tiles, "--solutions", "0"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "statespace: error: --solutions: 0 is out of range (allowed: 1 to 4294967296)\n"
    );
    // The 2x2x2's config asks for bfs.
    let (code, out, err) = run(&[&config("perm-2x2x2.toml"), "--solutions", "2"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "statespace: error: solve: solutions: 2 asked, but the bfs engine gives one solution; \
         these list several here: iddfs, table, idastar (auto runs table)\n"
    );
    let file = config_file(
        "[puzzle]\nkind = \"tiles\"\nrows = 2\ncols = 2\n[search]\nsolutions = 0\n[start]\nboard = \"1 _\\n3 2\"\n",
    );
    let (code, _, err) = run(&[file.path().to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.ends_with(":6: search.solutions: 0 is out of range (allowed: 1 to 4294967296)\n"),
        "{err}"
    );
    // The key asks as the flag does.
    let file = config_file(
        "[puzzle]\nkind = \"tiles\"\nrows = 2\ncols = 3\n[search]\nsolutions = 9\n[start]\nboard = \"1 2 3\\n4 _ 5\"\n",
    );
    let answer = solve(&[file.path().to_str().unwrap()]);
    assert_eq!(solutions(&answer), [["5 left"]]);
    assert_eq!(answer["all_optimal"], true);
}

/// The paths kept count against the memory budget: a listing that would pass it stops with
/// the memory limit (exit 4, the bytes it needed), in every engine that lists, never grows on.
#[test]
fn solutions_kept_past_the_memory_budget_are_refused() {
    let config = config("tiles-3x3.toml");
    for mode in ["idastar", "table"] {
        let args = [&config, "--mode", mode, "--transpositions", "off"];
        let args = [&args[..], &["--memory", "20KiB", "--solutions", "1000"]].concat();
        let (code, out, err) = run(&args);
        assert_eq!(code, 4, "{mode}: {out}{err}");
        assert!(out.contains("over the budget of 20.0 KiB"), "{mode}: {out}");
    }
}
