//! The algebraic Flip solver against the search engines and brute force on small boards, against
//! its own replayed presses on large ones, and against OEIS A159257 (the nullity of n x n).

use crate::flip::brute_force;
use proptest::prelude::*;
use statespace::config::{Config, Mode};
use statespace::instance::{Answer, Instance, Solution};
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use statespace::search::{Outcome, bfs};
use statespace_flip::algebra::{self, AlgebraOutcome, PressSet};
use statespace_flip::{BitBoard, Flip, FlipGoal, Geometry};

/// The goal boards of `flip` as big boards, in the order the plugin uses (white, then black).
fn targets(flip: &Flip) -> Vec<BitBoard> {
    let g = flip.geometry();
    flip.goal_boards()
        .into_iter()
        .map(|b| BitBoard::from_u64(g, b))
        .collect()
}

/// Solves with the algebra and checks the answer by pressing its cells one at a time: returns
/// the number of presses (None for `Impossible`) and whether it was proven minimal.
fn solve_checked(g: Geometry, start: &BitBoard, targets: &[BitBoard]) -> Option<(u64, bool)> {
    let report = algebra::solve(g, start, targets, &Limits::default());
    match report.outcome {
        AlgebraOutcome::Solved(PressSet {
            presses,
            target,
            minimal,
        }) => {
            let mut board = start.clone();
            for (r, c) in presses.ones() {
                board.press(r, c, g.wrap);
            }
            assert_eq!(board, targets[target], "{g:?}: the presses miss the target");
            Some((presses.count_ones(), minimal))
        }
        AlgebraOutcome::Unsolvable => None,
        AlgebraOutcome::LimitReached(limit) => panic!("no limit was set, yet {limit}"),
    }
}

/// The proven minimum the algebra finds for a small `flip` (panics if not proven).
fn algebraic_minimum(flip: &Flip, board: u64) -> Option<u32> {
    let g = flip.geometry();
    let start = BitBoard::from_u64(g, board);
    solve_checked(g, &start, &targets(flip)).map(|(n, minimal)| {
        assert!(minimal, "{g:?}: a small board's minimum is always proven");
        n as u32
    })
}

#[test]
fn every_3x3_board_matches_brute_force() {
    for wrap in [false, true] {
        let g = Geometry {
            rows: 3,
            cols: 3,
            wrap,
        };
        for goal in [FlipGoal::Uniform, FlipGoal::AllWhite, FlipGoal::AllBlack] {
            let flip = Flip::new(g, goal);
            for board in 0..1u64 << 9 {
                assert_eq!(
                    algebraic_minimum(&flip, board),
                    brute_force(&flip, board),
                    "{g:?} {goal:?} board {board:#05x}"
                );
            }
        }
        // Pattern goals: every board against a spread of targets.
        for target in (0..1u64 << 9).step_by(37) {
            let flip = Flip::new(g, FlipGoal::Pattern(target));
            for board in 0..1u64 << 9 {
                assert_eq!(
                    algebraic_minimum(&flip, board),
                    brute_force(&flip, board),
                    "{g:?} pattern {target:#05x} board {board:#05x}"
                );
            }
        }
    }
}

fn goal_strategy(cells: u32) -> impl Strategy<Value = FlipGoal> {
    prop_oneof![
        Just(FlipGoal::Uniform),
        Just(FlipGoal::AllWhite),
        Just(FlipGoal::AllBlack),
        (0..1u64 << cells).prop_map(FlipGoal::Pattern),
    ]
}

fn case_strategy() -> impl Strategy<Value = (Flip, u64)> {
    (1u32..=5, 1u32..=5, any::<bool>())
        .prop_flat_map(|(rows, cols, wrap)| {
            let g = Geometry { rows, cols, wrap };
            (Just(g), goal_strategy(g.cells()), 0..1u64 << g.cells())
        })
        .prop_map(|(g, goal, board)| (Flip::new(g, goal), board))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_boards_up_to_5x5_match_bfs((flip, board) in case_strategy()) {
        let by_bfs = match bfs::solve_indexed(&flip, board, &Limits::default()).outcome {
            Outcome::Solved(path) => Some(path.len() as u32),
            Outcome::Unsolvable => None,
            Outcome::LimitReached(limit) => panic!("{limit}"),
        };
        prop_assert_eq!(algebraic_minimum(&flip, board), by_bfs);
    }
}

/// A tiny deterministic generator (xorshift), so the large-board tests need no seed plumbing.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: u32) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as u32
    }
}

/// A board that `presses` random presses turn `target` into: solvable by construction.
fn scrambled(g: Geometry, target: &BitBoard, presses: u32, rng: &mut XorShift) -> BitBoard {
    let mut board = target.clone();
    for _ in 0..presses {
        let (r, c) = (rng.below(g.rows), rng.below(g.cols));
        board.press(r, c, g.wrap);
    }
    board
}

#[test]
fn presses_replay_to_the_goal_on_random_50x50_boards() {
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    for (rows, cols) in [(50, 50), (50, 37), (23, 50)] {
        for wrap in [false, true] {
            let g = Geometry { rows, cols, wrap };
            let white = BitBoard::new(rows, cols);
            let black = BitBoard::full(rows, cols);
            let mut pattern = BitBoard::new(rows, cols);
            for _ in 0..500 {
                pattern.toggle(rng.below(rows), rng.below(cols));
            }
            let goals: [(&str, Vec<BitBoard>); 4] = [
                ("uniform", vec![white.clone(), black.clone()]),
                ("all-white", vec![white.clone()]),
                ("all-black", vec![black.clone()]),
                ("pattern", vec![pattern.clone()]),
            ];
            for (name, targets) in goals {
                let pressed = 200 + rng.below(400);
                let from = &targets[rng.below(targets.len() as u32) as usize];
                let start = scrambled(g, from, pressed, &mut rng);
                let (count, minimal) = solve_checked(g, &start, &targets)
                    .unwrap_or_else(|| panic!("{g:?} {name}: solvable by construction"));
                if minimal {
                    assert!(count <= pressed as u64, "{g:?} {name}: {count} > {pressed}");
                }
            }
        }
    }
}

#[test]
fn nullity_of_the_square_board_is_oeis_a159257() {
    const A159257: [u32; 30] = [
        0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0, 0, 0, 14, 4, 0, 0, 0, 0, 10,
        20,
    ];
    for (n, &expected) in (1u32..).zip(A159257.iter()) {
        let g = Geometry {
            rows: n,
            cols: n,
            wrap: false,
        };
        let white = BitBoard::new(n, n);
        let report = algebra::solve(g, &white, std::slice::from_ref(&white), &Limits::default());
        assert_eq!(report.nullity, Some(expected), "{n} x {n}");
    }
}

#[test]
fn a_large_nullity_gives_a_valid_answer_not_claimed_minimal() {
    // A 64 x 64 board has nullity 28: 2^28 combinations, over the enumeration budget.
    let g = Geometry {
        rows: 64,
        cols: 64,
        wrap: false,
    };
    let white = BitBoard::new(64, 64);
    let start = scrambled(g, &white, 300, &mut XorShift(7));
    let report = algebra::solve(g, &start, std::slice::from_ref(&white), &Limits::default());
    assert_eq!(report.nullity, Some(28));
    let (_, minimal) = solve_checked(g, &start, &[white]).unwrap();
    assert!(!minimal, "2^28 combinations were not all tried");
}

/// A config for the plugin: `rows x cols`, the goal kind, an optional mode, and a start board.
/// Solves `config`'s start board with `mode` and no limits.
fn solve_start(instance: &Instance, config: &Config, mode: Mode) -> Solution {
    let board = config.start_board().unwrap();
    instance
        .solve(&board, mode, &Limits::default(), &SearchOptions::default())
        .unwrap()
}

fn config(rows: u32, cols: u32, goal: &str, mode: Option<&str>, board: &BitBoard) -> Config {
    let mode = mode.map_or(String::new(), |m| format!("[search]\nmode = \"{m}\"\n"));
    let text = format!(
        "[puzzle]\nkind = \"flip\"\nrows = {rows}\ncols = {cols}\n[goal]\nkind = \"{goal}\"\n\
         {mode}[start]\nboard = \"\"\"\n{}\n\"\"\"\n",
        board.format()
    );
    Config::parse("t.toml", &text).unwrap()
}

#[test]
fn auto_uses_bfs_on_small_boards_and_algebra_beyond() {
    let mut rng = XorShift(99);
    for (n, engine) in [
        (3, Mode::BFS),
        (4, Mode::BFS),
        (5, statespace_flip::ALGEBRAIC),
    ] {
        let g = Geometry {
            rows: n,
            cols: n,
            wrap: false,
        };
        let start = scrambled(g, &BitBoard::new(n, n), 5, &mut rng);
        let config = config(n, n, "uniform", None, &start);
        let instance = crate::registry()
            .build(&config, &Limits::default())
            .unwrap();
        assert_eq!(instance.default_mode(), Mode::AUTO);
        let solution = solve_start(&instance, &config, Mode::AUTO);
        assert_eq!(solution.mode, engine, "{n} x {n}");
        assert_eq!(solution.json_fields()["auto"], true);
        assert!(matches!(solution.answer, Answer::Solved { .. }));
    }
}

#[test]
fn big_boards_take_algebra_and_refuse_the_search_engines() {
    let g = Geometry {
        rows: 10,
        cols: 10,
        wrap: false,
    };
    let start = scrambled(g, &BitBoard::new(10, 10), 30, &mut XorShift(5));
    // In the config: refused with the line of `mode`.
    let err = crate::registry()
        .build(
            &config(10, 10, "all-white", Some("bfs"), &start),
            &Limits::default(),
        )
        .err()
        .expect("bfs on 100 cells is refused")
        .to_string();
    assert!(
        err.starts_with("t.toml:8: search.mode: search mode `bfs` is not available for a 10 x 10"),
        "{err}"
    );
    // On the command line (check_mode), for a config that names none.
    let config = config(10, 10, "all-white", None, &start);
    let instance = crate::registry()
        .build(&config, &Limits::default())
        .unwrap();
    assert!(instance.check_mode(Mode::IDDFS).is_err());
    assert!(instance.check_mode(statespace_flip::ALGEBRAIC).is_ok());
    let solution = solve_start(&instance, &config, statespace_flip::ALGEBRAIC);
    let Answer::Solved { moves, boards } = &solution.answer else {
        panic!("{:?}", solution.answer)
    };
    assert_eq!(
        solution.json_fields()["minimal"],
        true,
        "10 x 10 has nullity 0"
    );
    assert_eq!(solution.json_fields()["nullity"], 0);
    assert_eq!(
        boards.len(),
        moves.len(),
        "small enough to list every board"
    );
    assert_eq!(boards.last().unwrap(), &BitBoard::new(10, 10).format());
    assert!(solution.json_fields().get("auto").is_none());
}

#[test]
fn impossible_on_a_big_board() {
    // 11 x 11 has nullity 6: some boards reach no uniform colour.
    let g = Geometry {
        rows: 11,
        cols: 11,
        wrap: false,
    };
    let mut start = BitBoard::new(11, 11);
    start.set(0, 0, true);
    let white = BitBoard::new(11, 11);
    let black = BitBoard::full(11, 11);
    assert_eq!(solve_checked(g, &start, &[white, black]), None);
}

#[test]
fn cli_draws_the_press_set_and_json_says_minimal_and_nullity() {
    use assert_cmd::Command;
    use predicates::prelude::*;
    let config = crate::config_path("flip-10x10.toml");
    let config = config.to_str().unwrap();
    Command::cargo_bin("statespace")
        .unwrap()
        .args(["solve", config])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("start       presses     final\n"))
        .stdout(predicate::str::contains(
            "all tried: the fewest presses is proven",
        ))
        .stdout(predicate::str::contains("stats: mode algebraic"));
    let out = Command::cargo_bin("statespace")
        .unwrap()
        .args(["solve", config, "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["mode"], "algebraic");
    assert_eq!(json["auto"], true);
    assert_eq!(json["minimal"], true);
    assert_eq!(json["nullity"], 0);
    let moves = json["moves"].as_u64().unwrap() as usize;
    assert_eq!(json["path"].as_array().unwrap().len(), moves);
    assert_eq!(json["boards"].as_array().unwrap().len(), moves);
    let pressed = json["presses"].as_str().unwrap().matches('x').count();
    assert_eq!(pressed, moves);
    // The search engines cannot take 100 cells: a one-line error and exit 2.
    Command::cargo_bin("statespace")
        .unwrap()
        .args(["solve", config, "--mode", "bfs"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "search mode `bfs` is not available for a 10 x 10 board",
        ));
}

#[test]
fn huge_boards_omit_the_per_press_boards() {
    // 200 x 200: ~20000 presses x 40000 cells is far over the per-step text bound.
    let g = Geometry {
        rows: 200,
        cols: 200,
        wrap: false,
    };
    let start = scrambled(g, &BitBoard::new(200, 200), 5000, &mut XorShift(3));
    let config = config(200, 200, "all-white", Some("algebraic"), &start);
    let instance = crate::registry()
        .build(&config, &Limits::default())
        .unwrap();
    let solution = solve_start(&instance, &config, statespace_flip::ALGEBRAIC);
    let Answer::Solved { moves, boards } = &solution.answer else {
        panic!("{:?}", solution.answer)
    };
    assert!(!moves.is_empty() && boards.is_empty());
    assert_eq!(solution.json_fields()["boards_omitted"], true);
    assert_eq!(
        solution.json_fields()["final"],
        BitBoard::new(200, 200).format().as_str()
    );
}
