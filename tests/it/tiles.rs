//! The sliding-tile plugin against an independent brute force: a BFS over boards as plain byte
//! vectors (no ranks, no invariant, no library engine) gives every board's distance; every
//! engine's answer, path and `Impossible` is checked against it, paths are replayed from their
//! labels alone, and the 8-puzzle's whole-space table is OEIS A089473.

use crate::{config_file, statespace};
use statespace::board_text::BoardText;
use statespace::config::{Config, Mode};
use statespace::instance::{Answer, Instance};
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use statespace::search::table;
use statespace::space::{BoardFormat, Indexed};
use statespace_tiles::Tiles;
use std::collections::{HashMap, VecDeque};

/// Every board that can reach the ordered goal of `rows` x `cols`, with its distance, by a BFS
/// over boards as byte vectors (0 the blank), swapping the blank with a neighbour.
fn brute_force(rows: usize, cols: usize) -> HashMap<Vec<u8>, u32> {
    let n = rows * cols;
    let goal: Vec<u8> = (1..n as u8).chain([0]).collect();
    let mut distance = HashMap::from([(goal.clone(), 0)]);
    let mut queue = VecDeque::from([goal]);
    while let Some(board) = queue.pop_front() {
        let d = distance[&board];
        let blank = board.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (blank / cols, blank % cols);
        let mut next = Vec::new();
        if r > 0 {
            next.push(blank - cols);
        }
        if r + 1 < rows {
            next.push(blank + cols);
        }
        if c > 0 {
            next.push(blank - 1);
        }
        if c + 1 < cols {
            next.push(blank + 1);
        }
        for cell in next {
            let mut b = board.clone();
            b.swap(blank, cell);
            if !distance.contains_key(&b) {
                distance.insert(b.clone(), d + 1);
                queue.push_back(b);
            }
        }
    }
    distance
}

fn text_of(board: &[u8], cols: usize) -> String {
    board
        .chunks(cols)
        .map(|row| {
            row.iter()
                .map(|&t| if t == 0 { "_".into() } else { t.to_string() })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn cells_of(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|t| if t == "_" { 0 } else { t.parse().unwrap() })
        .collect()
}

/// Replays the labels of a solved answer on `start` by the puzzle's rules alone (`7 left`: tile
/// 7 moves one cell left, into the blank), checking each listed board; returns the end board.
fn replay_labels(start: &str, moves: &[String], boards: &[String], cols: usize) -> Vec<u8> {
    let mut board = cells_of(start);
    assert_eq!(moves.len(), boards.len());
    for (label, listed) in moves.iter().zip(boards) {
        let (tile, dir) = label.split_once(' ').unwrap();
        let tile: u8 = tile.parse().unwrap();
        let from = board.iter().position(|&t| t == tile).unwrap();
        let to = match dir {
            "left" => from.checked_sub(1).filter(|_| from % cols > 0),
            "right" => Some(from + 1).filter(|_| from % cols + 1 < cols),
            "up" => from.checked_sub(cols),
            "down" => Some(from + cols).filter(|&t| t < board.len()),
            other => panic!("direction {other}"),
        }
        .unwrap_or_else(|| panic!("{label}: off the board"));
        assert_eq!(
            board[to], 0,
            "{label}: the cell it moves to is not the blank"
        );
        board.swap(from, to);
        assert_eq!(cells_of(listed), board, "{label}: the listed board");
    }
    board
}

fn instance(rows: usize, cols: usize) -> Instance {
    let text = format!("[puzzle]\nkind = \"tiles\"\nrows = {rows}\ncols = {cols}\n");
    crate::registry()
        .build(&Config::parse("t.toml", &text).unwrap(), &Limits::default())
        .unwrap()
}

/// Checks `instance`'s answer for `board` with `mode` against the brute-force distance.
fn check(instance: &Instance, board: &[u8], expected: Option<u32>, mode: Mode, cols: usize) {
    let text = text_of(board, cols);
    let solution = instance
        .solve(
            &BoardText::from_file("b", text.clone()),
            mode,
            &Limits::default(),
            &SearchOptions::default(),
        )
        .unwrap();
    match (&solution.answer, expected) {
        (Answer::Solved { moves, boards }, Some(d)) => {
            // An engine not promised minimal (beam) is held to a path no shorter.
            match solution.optimal {
                true => assert_eq!(moves.len() as u32, d, "{text:?} with {mode}"),
                false => assert!(moves.len() as u32 >= d, "{text:?} with {mode}"),
            }
            let end = replay_labels(&solution.start, moves, boards, cols);
            let goal: Vec<u8> = (1..board.len() as u8).chain([0]).collect();
            assert_eq!(end, goal, "{text:?} with {mode}: the path ends on the goal");
        }
        (Answer::Unsolvable, None) => {
            assert_eq!(solution.proof, Some("parity"), "{text:?} with {mode}");
            assert_eq!(solution.stats.expanded, 0, "proven without a search");
        }
        (answer, expected) => panic!("{text:?} with {mode}: {answer:?}, expected {expected:?}"),
    }
}

#[test]
fn every_2x2_and_2x3_board_by_every_engine() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2)] {
        let reachable = brute_force(rows, cols);
        let n = rows * cols;
        assert_eq!(reachable.len(), (1..=n).product::<usize>() / 2);
        let instance = instance(rows, cols);
        assert_eq!(
            instance.modes(),
            [
                Mode::BFS,
                Mode::BIDIRECTIONAL,
                Mode::IDDFS,
                Mode::TABLE,
                Mode::ASTAR,
                Mode::IDASTAR,
                statespace::search::beam::ENGINE.mode,
                Mode::AUTO
            ]
        );
        // Every arrangement of the n symbols: half reach the goal, half are proven not to.
        let mut board: Vec<u8> = (0..n as u8).collect();
        let mut all = vec![board.clone()];
        while next_permutation(&mut board) {
            all.push(board.clone());
        }
        for board in &all {
            for mode in instance.modes() {
                check(&instance, board, reachable.get(board).copied(), mode, cols);
            }
        }
    }
}

fn next_permutation(p: &mut [u8]) -> bool {
    let Some(i) = (1..p.len()).rev().find(|&i| p[i - 1] < p[i]) else {
        return false;
    };
    let j = (i..p.len()).rev().find(|&j| p[j] > p[i - 1]).unwrap();
    p.swap(i - 1, j);
    p[i..].reverse();
    true
}

#[test]
fn the_8_puzzle_table_is_the_brute_force_distance_of_every_board() {
    let reachable = brute_force(3, 3);
    assert_eq!(reachable.len(), 181_440);
    let tiles = Tiles::new(3, 3, Tiles::ordered(3, 3));
    let t = table::build(&tiles, &Limits::default()).unwrap();
    assert_eq!(t.histogram(), tiles_histogram(), "OEIS A089473");
    assert_eq!(t.max_distance(), Some(31));
    assert_eq!(t.histogram()[31], 2);
    for (cells, &d) in &reachable {
        let board = tiles
            .parse(&BoardText::from_file("b", text_of(cells, 3)))
            .unwrap();
        assert_eq!(t.distance(&tiles, board).unwrap(), Some(d), "{cells:?}");
    }
}

#[test]
fn random_8_puzzle_boards_by_every_engine() {
    let reachable = brute_force(3, 3);
    let instance = instance(3, 3);
    let mut boards: Vec<(&Vec<u8>, &u32)> = reachable.iter().collect();
    boards.sort();
    // Every 4,000th board, and both of the hardest.
    let mut sample: Vec<_> = boards
        .iter()
        .step_by(4000)
        .map(|(b, _)| (*b).clone())
        .collect();
    sample.extend(
        boards
            .iter()
            .filter(|(_, d)| **d == 31)
            .map(|(b, _)| (*b).clone()),
    );
    for board in &sample {
        let expected = reachable[board];
        for mode in [Mode::BFS, Mode::TABLE, Mode::AUTO] {
            check(&instance, board, Some(expected), mode, 3);
        }
        if expected <= 20 {
            check(&instance, board, Some(expected), Mode::IDDFS, 3);
        }
        // The same board with two tiles swapped is of the other class.
        let mut odd = board.clone();
        let (a, b) = match odd.iter().position(|&t| t == 0).unwrap() {
            0 | 1 => (2, 3),
            _ => (0, 1),
        };
        odd.swap(a, b);
        check(&instance, &odd, None, Mode::BFS, 3);
    }
}

#[test]
fn the_index_is_a_bijection_onto_the_goal_class() {
    for (rows, cols) in [(2u8, 2u8), (2, 3), (3, 3), (2, 4)] {
        let tiles = Tiles::new(rows, cols, Tiles::ordered(rows, cols));
        let size = tiles.size() as u64;
        let goal_class = tiles.class(tiles.goal());
        for i in 0..size {
            let board = tiles.state(i);
            assert_eq!(tiles.index(board), i, "{rows} x {cols} index {i}");
            assert_eq!(tiles.class(board), goal_class);
        }
    }
    // 4 x 4 and 4 x 5: a sample of indices round-trips.
    for (rows, cols) in [(4u8, 4u8), (4, 5)] {
        let tiles = Tiles::new(rows, cols, Tiles::ordered(rows, cols));
        let size = tiles.size() as u64;
        for k in 0..1000u64 {
            let i = k.wrapping_mul(0x9E37_79B9_7F4A_7C15) % size;
            assert_eq!(tiles.index(tiles.state(i)), i);
        }
    }
}

/// `successors_where` (IDA*'s way in: each slide asked about before the board after it is
/// made) visits the slides `successors` visits that are wanted, in order, and asks about each.
#[test]
fn successors_where_visits_the_wanted_slides() {
    use statespace::space::StateSpace;
    let tiles = Tiles::new(3, 4, Tiles::ordered(3, 4));
    for k in 0..2000u64 {
        let board = tiles.state(k.wrapping_mul(0x9E37_79B9_7F4A_7C15) % tiles.size() as u64);
        let mut all = Vec::new();
        tiles.successors(board, &mut |m, t| all.push((m, t)));
        let (mut asked, mut got) = (0, Vec::new());
        let mut wanted = |_| {
            asked += 1;
            (k >> asked) & 1 == 1
        };
        tiles.successors_where(board, &mut wanted, &mut |m, t| got.push((m, t)));
        let expected: Vec<_> = (all.iter().enumerate())
            .filter(|&(j, _)| (k >> (j + 1)) & 1 == 1)
            .map(|(_, &x)| x)
            .collect();
        assert_eq!((asked, got), (all.len(), expected));
    }
}

/// The 8-puzzle's distances from the goal, OEIS A089473 (tests/cases/tiles.toml).
fn tiles_histogram() -> Vec<u64> {
    let (reachable, counts) = crate::case_histogram("tiles.toml", "tiles-3x3-ordered");
    assert_eq!(reachable, 181_440);
    counts
}

#[test]
fn explore_gives_the_8_puzzle_distance_table() {
    let out = statespace()
        .args(["explore", &crate::config("tiles-3x3.toml"), "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["reachable"], 181_440);
    assert_eq!(json["space_size"], 181_440);
    assert_eq!(json["max_distance"], 31);
    assert_eq!(json["histogram"], serde_json::json!(tiles_histogram()));
    assert_eq!(json["complete"], true);
    // The farthest board really is 31 moves away.
    let far = json["example_farthest"].as_str().unwrap();
    assert_eq!(brute_force(3, 3)[&cells_of(far)], 31);
}

#[test]
fn the_config_boards_solve_and_the_other_parity_is_proven_at_once() {
    statespace()
        .args(["solve", &crate::config("tiles-3x3.toml")])
        .assert()
        .success()
        .stdout(predicates::str::starts_with("31 moves\npath: "));
    statespace()
        .args(["solve", &crate::config("tiles-4x4.toml"), "--json"])
        .assert()
        .success()
        .stdout(predicates::str::contains("\"moves\":41"));
    // The 15-puzzle with 14 and 15 swapped (Sam Loyd's): proven in no time by every mode.
    let loyd = "1 2 3 4\n5 6 7 8\n9 10 11 12\n13 15 14 _\n";
    for mode in ["bfs", "iddfs", "auto"] {
        let out = statespace()
            .args(["solve", &crate::config("tiles-4x4.toml"), "--board", "-"])
            .args(["--mode", mode, "--json"])
            .write_stdin(loyd)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{mode}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["proof"], "parity");
        assert_eq!(json["outcome"], "unsolvable");
        assert_eq!(json["stats"]["expanded"], 0);
    }
    statespace()
        .args(["solve", &crate::config("tiles-4x4.toml"), "--board", "-"])
        .write_stdin(loyd)
        .assert()
        .code(3)
        .stdout(predicates::str::starts_with(
            "Impossible (proven by parity, without a search)",
        ));
}

#[test]
fn the_24_puzzle_is_representable() {
    let config = config_file(
        "[puzzle]\nkind = \"tiles\"\nrows = 5\ncols = 5\n[start]\nboard = \"\"\"\n\
         1 2 3 4 5\n6 7 8 9 10\n11 12 13 14 15\n16 17 18 19 20\n21 22 _ 23 24\n\"\"\"\n",
    );
    let path = config.path().to_str().unwrap();
    statespace()
        .args(["solve", path])
        .assert()
        .success()
        .stdout(predicates::str::starts_with(
            "2 moves\npath: 23 left 24 left",
        ));
    // No dense index at 25 cells: table and explore are not offered.
    statespace()
        .args(["solve", path, "--mode", "table"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "supported: bfs, bidirectional, iddfs, astar, idastar, beam, auto",
        ));
}

#[test]
fn a_pattern_goal_and_bad_boards_name_their_line() {
    let head = "[puzzle]\nkind = \"tiles\"\nrows = 2\ncols = 3\n";
    let pattern = format!(
        "{head}[goal]\nkind = \"pattern\"\ntarget = \"\"\"\n_ 1 2\n3 4 5\n\"\"\"\n\
         [start]\nboard = \"\"\"\n1 _ 2\n3 4 5\n\"\"\"\n"
    );
    let file = config_file(&pattern);
    statespace()
        .args(["solve", file.path().to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicates::str::starts_with("1 move\npath: 1 right"));
    let cases = [
        (
            "1 2 3\n4 5 5\n",
            ":2: tile 5 appears twice (first on line 2)",
        ),
        (
            "1 2 3\n4 5 9\n",
            ":2: `9` is not a tile (1 to 5, or _ for the blank)",
        ),
        ("1 2\n3 4 _\n", ":1: expected 3 tiles in the row, found 2"),
        ("1 2 3\n", ":1: expected 2 rows, found 1"),
        ("\n", ":1: empty board"),
        ("1 2 3\n4 5 x\n", ":2: `x` is not a tile"),
    ];
    let file = config_file(head);
    for (board, message) in cases {
        statespace()
            .args(["solve", file.path().to_str().unwrap(), "--board", "-"])
            .write_stdin(board)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!("<stdin>{message}")));
    }
    let bad_configs = [
        (
            "rows = 1\ncols = 3\n",
            "puzzle.rows: 1 is out of range (allowed: 2 to 12)",
        ),
        (
            "rows = 5\ncols = 6\n",
            "puzzle.cols: a 5 x 6 board has 30 cells; at most 25",
        ),
        (
            "rows = 3\ncols = 3\nwrap = true\n",
            "puzzle.wrap: unknown field `wrap`",
        ),
        (
            "rows = 3\ncols = 3\n[goal]\nkind = \"spiral\"\n",
            "goal.kind: unknown tiles goal `spiral`",
        ),
        (
            "rows = 3\ncols = 3\n[goal]\nkind = \"pattern\"\n",
            "goal.target: missing",
        ),
    ];
    for (keys, message) in bad_configs {
        let file = config_file(&format!("[puzzle]\nkind = \"tiles\"\n{keys}"));
        statespace()
            .args(["solve", file.path().to_str().unwrap()])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(message));
    }
}

#[test]
fn the_tiles_case_files_agree_with_brute_force() {
    // The answers in tests/cases are data: check those on boards brute force can sweep, so a
    // wrong case cannot make every engine look wrong (or right).
    let mut checked = 0;
    for case in crate::cases::load_cases()
        .into_iter()
        .filter(|c| c.kind == "tiles")
    {
        let config = Config::parse(&case.name, &case.config).unwrap();
        let table: toml::Table = case.config.parse().unwrap();
        let rows = table["puzzle"]["rows"].as_integer().unwrap() as usize;
        let cols = table["puzzle"]["cols"].as_integer().unwrap() as usize;
        if rows * cols > 9
            || table
                .get("goal")
                .is_some_and(|g| g["kind"].as_str() == Some("pattern"))
        {
            continue;
        }
        let board = cells_of(&config.start_board().unwrap().text);
        let expected = brute_force(rows, cols).get(&board).map(|&d| d as usize);
        assert_eq!(expected, case.answer, "{}", case.name);
        checked += 1;
    }
    assert!(checked >= 4);
}

#[test]
fn heuristics_come_from_the_config_and_bad_ones_name_their_line() {
    let head = "[puzzle]\nkind = \"tiles\"\nrows = 3\ncols = 3\n[start]\nboard = \"\"\"\n8 6 7\n2 5 4\n3 _ 1\n\"\"\"\n";
    for (search, mode) in [
        ("[heuristic]\nkind = \"default\"\n", "idastar"),
        ("", "astar"),
        ("[heuristic]\nkind = \"manhattan\"\n", "idastar"),
        ("[heuristic]\nkind = \"linear-conflict\"\n", "astar"),
        (
            "[heuristic]\nkind = \"pdb\"\ngroups = [[1, 2, 3, 4], [5, 6, 7, 8]]\n",
            "idastar",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\ngroups = [[1, 2, 3], [4, 5, 6], [7, 8]]\nreflect = false\n",
            "astar",
        ),
    ] {
        let file = config_file(&format!("{head}{search}"));
        let out = statespace()
            .args([
                "solve",
                file.path().to_str().unwrap(),
                "--mode",
                mode,
                "--json",
            ])
            .args(["--no-cache"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{search}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["moves"], 31, "{search}");
        assert_eq!(json["mode"], mode);
    }
    let bad = [
        (
            "[heuristic]\nkind = \"hamming\"\n",
            ":12: heuristic.kind: unknown heuristic `hamming` (known: default, linear-conflict, manhattan, pdb)",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\n",
            ": heuristic.groups: missing",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\ngroups = [[1, 2], [2, 3]]\n",
            ":13: heuristic.groups: tile 2 is in two groups",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\ngroups = [[1, 9]]\n",
            ":13: heuristic.groups: 9 is not a tile (1 to 8)",
        ),
        (
            "[heuristic]\nkind = \"manhattan\"\ngroups = [[1, 2]]\n",
            ":13: heuristic.groups: not used here: only with kind = \"pdb\"",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\ngroups = [[1, 2]]\nreflect = \"yes\"\n",
            ":14: heuristic.reflect: invalid type",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\ngroup = [[1, 2]]\n",
            ":13: heuristic.group: unknown field",
        ),
        // The keys' old home says where they went.
        (
            "[search]\nheuristic = \"pdb\"\n",
            ":12: search.heuristic: moved: write it in the [heuristic] section as `kind`",
        ),
        (
            "[search]\npdb = [[1, 2]]\n",
            ":12: search.pdb: moved: write it in the [heuristic] section as `groups`",
        ),
    ];
    for (search, message) in bad {
        let file = config_file(&format!("{head}{search}"));
        statespace()
            .args(["solve", file.path().to_str().unwrap()])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(message));
    }
    // A puzzle with no heuristic refuses the key.
    let flip = config_file(
        "[puzzle]\nkind = \"flip\"\nrows = 2\ncols = 2\n[heuristic]\nkind = \"manhattan\"\n",
    );
    statespace()
        .args(["solve", flip.path().to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            ":6: heuristic.kind: not used here: this puzzle has no heuristic",
        ));
}

/// On 4 x 4 the default heuristic is the 7-8 databases when they fit the memory budget; under a
/// budget too small for them (and for 6-6-3) it is linear conflict, nothing is built, and no note
/// about a long build is printed.
#[test]
fn the_default_heuristic_falls_back_within_the_memory_budget() {
    let text = std::fs::read_to_string(crate::config("tiles-4x4.toml")).unwrap();
    let text = text
        .replace("kind = \"linear-conflict\"", "kind = \"default\"")
        .replace(
            "time_limit = \"60s\"",
            "time_limit = \"60s\"\nmemory = \"20MB\"",
        );
    assert!(!text.contains("\"linear-conflict\"") && text.contains("memory"));
    let file = config_file(&text);
    let out = statespace()
        .args(["solve", file.path().to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["moves"], 41);
    assert_eq!(json["mode"], "idastar");
}

#[test]
fn a_blank_aware_database_of_a_small_board_loads_from_the_cache() {
    // Found by the differential suite (tiles:66): a blank-aware database leaves unreached the
    // abstract states the real moves cannot reach (on 2 x 2, the other parity), which the
    // load's check walked to with the group's own moves and refused, so every run warned,
    // discarded the file and built it again.
    let config = config_file(
        "[puzzle]\nkind = \"tiles\"\nrows = 2\ncols = 2\n[goal]\nkind = \"pattern\"\n\
         target = \"\"\"\n1 3\n_ 2\n\"\"\"\n[start]\nboard = \"\"\"\n3 2\n1 _\n\"\"\"\n\
         [heuristic]\nkind = \"pdb\"\ngroups = [[1, 2], [3]]\n",
    );
    let cache = tempfile::tempdir().unwrap();
    for round in 0..3 {
        let out = statespace()
            .args([
                "solve",
                config.path().to_str().unwrap(),
                "--mode",
                "idastar",
            ])
            .args(["--json", "--cache-dir", cache.path().to_str().unwrap()])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.is_empty(), "round {round}: {stderr}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["moves"], 3, "round {round}");
    }
}
