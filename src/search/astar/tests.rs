//! The tests of [`astar`](super): see there.
use super::*;
use crate::search::bfs;
use crate::space::replay;
use crate::toys::Ring;
use crate::toys::heuristic::*;
use std::sync::atomic::AtomicBool;

/// The path length of a report, `None` when unsolvable; panics on a limit.
fn length<S: Copy, M: Copy>(report: &Report<S, M>) -> Option<usize> {
    match &report.outcome {
        Outcome::Solved(path) => Some(path.len()),
        Outcome::Unsolvable => None,
        Outcome::LimitReached(limit) => panic!("{limit}"),
    }
}

/// A* (both closed sets) agrees with BFS on every start, and every path replays to a goal.
fn cross_check<P: Indexed, H: Heuristic<P>>(space: &P, heuristic: &H, starts: &[P::State]) {
    let limits = Limits::default();
    for &start in starts {
        let expected = length(&bfs::solve(space, start, &limits));
        for report in [
            solve(space, heuristic, start, &limits),
            solve_indexed(space, heuristic, start, &limits),
        ] {
            assert_eq!(length(&report), expected, "start {start:?}");
            if let Outcome::Solved(path) = &report.outcome {
                let end = replay(space, start, &path.moves()).expect("the moves replay");
                assert!(space.is_goal(end));
                assert_eq!(end, path.end());
            }
        }
    }
}

fn all_states<P: Indexed>(space: &P) -> Vec<P::State> {
    (0..space.size() as u64).map(|i| space.state(i)).collect()
}

#[test]
fn grid_paths_are_optimal_and_the_closed_off_room_is_unsolvable() {
    let grid = maze();
    let cells = grid.cells();
    cross_check(&grid, &GridManhattan, &cells);
    let corner = 4 * 7 + 6;
    assert_eq!(
        solve(&grid, &GridManhattan, corner, &Limits::default()).outcome,
        Outcome::Unsolvable
    );
}

#[test]
fn ring_paths_are_optimal() {
    let ring = Ring::new(11);
    cross_check(&ring, &RingDistance, &all_states(&ring));
    cross_check(&ring, &Zero, &all_states(&ring));
}

#[test]
fn sliding_puzzle_paths_are_optimal_and_the_other_parity_is_unsolvable() {
    let boards = all_states(&Slide);
    cross_check(&Slide, &SlideManhattan, &boards);
    let unsolvable = boards
        .iter()
        .filter(|&&b| length(&solve(&Slide, &SlideManhattan, b, &Limits::default())).is_none())
        .count();
    assert_eq!(unsolvable, 360);
}

#[test]
fn a_consistent_heuristic_never_reopens_and_expands_less_than_bfs() {
    let limits = Limits::default();
    let (mut astar_expanded, mut bfs_expanded) = (0, 0);
    for board in all_states(&Slide) {
        let report = solve_indexed(&Slide, &SlideManhattan, board, &limits);
        assert_eq!(report.stats.reopened, 0);
        if length(&report).is_some() {
            // Unsolvable boards: both close all 360 reachable boards.
            astar_expanded += report.stats.expanded;
            bfs_expanded += bfs::solve(&Slide, board, &limits).stats.expanded;
        }
    }
    assert!(
        astar_expanded * 2 < bfs_expanded,
        "{astar_expanded} vs {bfs_expanded}"
    );
}

#[test]
fn the_zero_heuristic_makes_astar_a_bfs() {
    cross_check(&maze(), &Zero, &maze().cells());
    cross_check(&Slide, &Zero, &all_states(&Slide));
}

#[test]
fn an_inconsistent_heuristic_reopens_and_stays_optimal() {
    for report in [
        solve(&Detour, &DetourEstimate, 0, &Limits::default()),
        solve_indexed(&Detour, &DetourEstimate, 0, &Limits::default()),
    ] {
        let Outcome::Solved(path) = &report.outcome else {
            panic!("{:?}", report.outcome)
        };
        assert_eq!(path.moves(), vec!['d', 'e', 'x', 'y', 'z']);
        assert_eq!(report.stats.reopened, 3, "3, 4 and 5 expanded twice");
    }
    cross_check(&maze(), &GridPatchy, &maze().cells());
    cross_check(&Slide, &SlidePatchy, &all_states(&Slide));
}

/// The farthest solvable board (21 moves).
fn hardest_board() -> u32 {
    let limits = Limits::default();
    all_states(&Slide)
        .into_iter()
        .max_by_key(|&b| length(&bfs::solve(&Slide, b, &limits)).unwrap_or(0))
        .unwrap()
}

#[test]
fn limits_stop_the_run() {
    let board = hardest_board();
    let depth = length(&bfs::solve(&Slide, board, &Limits::default())).unwrap() as u32;
    assert_eq!(depth, 21);

    let limits = Limits {
        max_states: Some(10),
        ..Limits::default()
    };
    let report = solve(&Slide, &SlideManhattan, board, &limits);
    assert_eq!(report.outcome, Outcome::LimitReached(Limit::States(10)));
    assert_eq!(report.stats.expanded, 11);

    for (max, solved) in [(depth - 1, false), (depth, true)] {
        let limits = Limits {
            max_depth: Some(max),
            ..Limits::default()
        };
        for report in [
            solve(&Slide, &SlideManhattan, board, &limits),
            solve_indexed(&Slide, &SlideManhattan, board, &limits),
        ] {
            match report.outcome {
                Outcome::Solved(path) => assert!(solved && path.len() == depth as usize),
                Outcome::LimitReached(Limit::Depth(d)) => assert!(!solved && d == max),
                other => panic!("{other:?}"),
            }
        }
    }
    // The depth limit does not hide a proof: a closed-off cell stays unsolvable below it.
    let limits = Limits {
        max_depth: Some(30),
        ..Limits::default()
    };
    let report = solve(&maze(), &GridManhattan, 4 * 7 + 6, &limits);
    assert_eq!(report.outcome, Outcome::Unsolvable);

    static STOP: AtomicBool = AtomicBool::new(true);
    let limits = Limits {
        interrupt: Some(&STOP),
        ..Limits::default()
    };
    let report = solve(&Slide, &SlideManhattan, board, &limits);
    assert_eq!(report.outcome, Outcome::LimitReached(Limit::Interrupted));
}

#[test]
fn a_small_memory_budget_is_refused() {
    let limits = Limits {
        memory_budget: 100,
        ..Limits::default()
    };
    let board = hardest_board();
    for report in [
        solve(&Slide, &SlideManhattan, board, &limits),
        solve_indexed(&Slide, &SlideManhattan, board, &limits),
    ] {
        assert!(
            matches!(
                report.outcome,
                Outcome::LimitReached(Limit::Memory { budget: 100, .. })
            ),
            "{:?}",
            report.outcome
        );
    }
    // The flat closed set needs 720 slots: with a budget between the two, the indexed run
    // falls back to the hash map and still solves.
    let dense = dense_bytes(&Slide) as u64;
    let limits = Limits {
        memory_budget: dense - 1,
        ..Limits::default()
    };
    let report = solve_indexed(&Slide, &SlideManhattan, board, &limits);
    assert_eq!(length(&report), Some(21));
}
