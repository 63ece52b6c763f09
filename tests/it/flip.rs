//! Flip engines against brute force: on random boards up to 4 x 4 (plain and torus, every goal),
//! BFS and IDDFS give the same fewest presses as trying every subset of cells, and their paths
//! replay to a goal.

use proptest::prelude::*;
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use statespace::search::{Outcome, bfs, iddfs};
use statespace::space::{StateSpace, replay};
use statespace_flip::{Flip, FlipGoal, FlipGoalKeys, FlipKeys, Geometry};

/// The fewest presses that turn `board` into a goal, by trying every subset of cells in
/// Gray-code order (each step adds or removes one press). Independent of every engine.
pub fn brute_force(flip: &Flip, board: u64) -> Option<u32> {
    let g = flip.geometry();
    let masks = g.press_masks();
    let n = masks.len();
    let goals = flip.goal_boards();
    let mut best: Option<u32> = None;
    let mut current = board;
    for i in 0u64..(1u64 << n) {
        if i > 0 {
            // Gray code i ^ (i >> 1) differs from the previous one in bit trailing_zeros(i).
            current ^= masks[i.trailing_zeros() as usize];
        }
        let presses = (i ^ (i >> 1)).count_ones();
        if goals.contains(&current) && best.is_none_or(|b| presses < b) {
            best = Some(presses);
        }
    }
    best
}

fn goal_strategy(cells: u32) -> impl Strategy<Value = FlipGoal> {
    let full = if cells == 64 {
        u64::MAX
    } else {
        (1u64 << cells) - 1
    };
    prop_oneof![
        Just(FlipGoal::Uniform),
        Just(FlipGoal::AllWhite),
        Just(FlipGoal::AllBlack),
        (0..=full).prop_map(FlipGoal::Pattern),
    ]
}

fn case_strategy() -> impl Strategy<Value = (Flip, u64)> {
    (1u32..=4, 1u32..=4, any::<bool>())
        .prop_flat_map(|(rows, cols, wrap)| {
            let g = Geometry { rows, cols, wrap };
            (Just(g), goal_strategy(g.cells()), 0..=g.full())
        })
        .prop_map(|(g, goal, board)| (Flip::new(g, goal), board))
}

/// The number of moves an outcome claims, after checking its path replays to a goal.
fn checked_length(
    flip: &Flip,
    board: u64,
    outcome: Outcome<u64, statespace_flip::Press>,
) -> Option<u32> {
    match outcome {
        Outcome::Solved(path) => {
            let end = replay(flip, board, &path.moves()).expect("every move is available");
            assert_eq!(end, path.end());
            assert!(flip.is_goal(end), "the path ends on a goal");
            Some(path.len() as u32)
        }
        Outcome::Unsolvable => None,
        Outcome::LimitReached(limit) => panic!("no limit was set, yet {limit}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn bfs_and_iddfs_match_brute_force((flip, board) in case_strategy()) {
        let expected = brute_force(&flip, board);
        let limits = Limits::default();
        let by_bfs = checked_length(&flip, board, bfs::solve_indexed(&flip, board, &limits).outcome);
        let by_hash_bfs = checked_length(&flip, board, bfs::solve(&flip, board, &limits).outcome);
        let by_iddfs = checked_length(&flip, board, iddfs::solve(&flip, board, &limits, &SearchOptions::default()).outcome);
        prop_assert_eq!(by_bfs, expected);
        prop_assert_eq!(by_hash_bfs, expected);
        prop_assert_eq!(by_iddfs, expected);
    }
}

#[test]
fn whole_4x4_uniform_space_matches_brute_force_counts() {
    // 4096 of the 65536 boards are solvable for the uniform goal; the hardest needs 6 presses
    // (shared/cases/samples.toml). Checked here on every board with BFS against brute force.
    let g = Geometry {
        rows: 4,
        cols: 4,
        wrap: false,
    };
    let flip = Flip::new(g, FlipGoal::Uniform);
    let mut histogram = [0u32; 17];
    let mut solvable = 0;
    for board in (0..1u64 << 16).step_by(7) {
        let expected = brute_force(&flip, board);
        let got = checked_length(
            &flip,
            board,
            bfs::solve_indexed(&flip, board, &Limits::default()).outcome,
        );
        assert_eq!(got, expected, "board {board:#06x}");
        if let Some(d) = got {
            histogram[d as usize] += 1;
            solvable += 1;
        }
    }
    assert!(solvable > 0 && histogram[7..].iter().all(|&n| n == 0));
}

#[test]
fn limits_stop_the_search() {
    let g = Geometry {
        rows: 4,
        cols: 4,
        wrap: false,
    };
    let flip = Flip::new(g, FlipGoal::AllWhite);
    // The diagonal, four presses from all white (on the diagonal itself): solvable, and more
    // than one move away. (A board with no solution may now be proven so within the limit: a
    // deepening that enters no new state explores its few thousand positions.)
    let board = 0x8421;
    let shallow = Limits {
        max_depth: Some(1),
        ..Limits::default()
    };
    for outcome in [
        bfs::solve_indexed(&flip, board, &shallow).outcome,
        iddfs::solve(&flip, board, &shallow, &SearchOptions::default()).outcome,
    ] {
        assert!(
            matches!(
                outcome,
                Outcome::LimitReached(statespace::limit::Limit::Depth(1))
            ),
            "{outcome:?}"
        );
    }
    let few = Limits {
        max_states: Some(10),
        ..Limits::default()
    };
    let outcome = bfs::solve_indexed(&flip, board, &few).outcome;
    assert!(
        matches!(
            outcome,
            Outcome::LimitReached(statespace::limit::Limit::States(10))
        ),
        "{outcome:?}"
    );
}

#[test]
fn an_oversized_bitset_falls_back_to_a_hash_set() {
    // 8 x 8: 2^64 states, no bitset fits; a shallow search still works.
    let g = Geometry {
        rows: 8,
        cols: 8,
        wrap: false,
    };
    let flip = Flip::new(g, FlipGoal::AllWhite);
    let board = g.press_mask(3, 3) ^ g.press_mask(5, 6);
    let outcome = bfs::solve_indexed(&flip, board, &Limits::default()).outcome;
    assert_eq!(checked_length(&flip, board, outcome), Some(2));
}

#[test]
fn the_flip_case_files_agree_with_brute_force() {
    // The answers in tests/cases are data; check the Flip ones here against brute force so a
    // wrong case cannot make every engine look wrong (or right).
    let mut checked = 0;
    for case in crate::cases::load_cases()
        .into_iter()
        .filter(|c| c.kind == "flip")
    {
        let config = statespace::config::Config::parse(&case.name, &case.config).unwrap();
        let (keys, goal_section) = config.sections::<FlipKeys, FlipGoalKeys>().unwrap();
        let g = Geometry {
            rows: *keys.rows.as_ref().unwrap().get_ref() as u32,
            cols: *keys.cols.as_ref().unwrap().get_ref() as u32,
            wrap: keys.wrap.as_ref().is_some_and(|w| *w.get_ref()),
        };
        let goal_section = goal_section.unwrap();
        let goal = match goal_section.kind.get_ref().as_str() {
            "uniform" => FlipGoal::Uniform,
            "all-white" => FlipGoal::AllWhite,
            "all-black" => FlipGoal::AllBlack,
            "pattern" => FlipGoal::Pattern(
                g.parse(&config.board_text(goal_section.target.as_ref().unwrap(), "t"))
                    .unwrap(),
            ),
            other => panic!("{other}"),
        };
        let board = g.parse(&config.start_board().unwrap()).unwrap();
        let expected = case.answer.map(|n| n as u32);
        assert_eq!(
            brute_force(&Flip::new(g, goal), board),
            expected,
            "{}",
            case.name
        );
        checked += 1;
    }
    assert!(checked >= 8);
}
