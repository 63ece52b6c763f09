//! The distance-table engine: the whole-space histograms in tests/cases/shared-samples.toml, the
//! table against BFS on Flip boards, paths that replay, and the memory budget checked before
//! anything is allocated.

use statespace::puzzles::flip::{Flip, FlipGoal, Geometry};
use statespace::puzzles::shift::{self, ColourMasks};
use statespace::search::{Limit, Limits, Outcome, bfs, table};
use statespace::space::{Indexed, StateSpace, replay};

/// `(reachable, counts)` of the `[[histogram]]` named `name` in shared-samples.toml.
fn histogram(name: &str) -> (u64, Vec<u64>) {
    let text = std::fs::read_to_string(crate::case_path("shared-samples.toml")).unwrap();
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
        .collect();
    (entry["reachable"].as_integer().unwrap() as u64, counts)
}

fn flip_4x4() -> Flip {
    let g = Geometry {
        rows: 4,
        cols: 4,
        wrap: false,
    };
    Flip::new(g, FlipGoal::Uniform)
}

#[test]
fn flip_4x4_uniform_histogram() {
    let (reachable, counts) = histogram("flip-4x4-uniform");
    let t = table::build(&flip_4x4(), &Limits::default()).unwrap();
    assert_eq!(t.reachable(), reachable);
    assert_eq!(t.histogram(), counts);
    assert_eq!(t.max_distance(), Some(6));
    assert_eq!(t.bytes(), (1 << 16) / 2, "4 bits per board");
}

#[test]
fn shift_4x6_one_colour_interior_histogram() {
    let (reachable, counts) = histogram("shift-4x6-one-colour-interior");
    let g = shift::Geometry { rows: 4, cols: 6 };
    let space = ColourMasks::new(g, g.interior(), 8);
    assert_eq!(space.size(), 735_471);
    let t = table::build(&space, &Limits::default()).unwrap();
    assert_eq!(t.reachable(), reachable);
    assert_eq!(t.histogram(), counts);
    assert_eq!(t.bits_per_entry(), 4);
    assert!(t.bytes() <= 735_471 / 2 + 8);
    // The hardest masks: their paths descend the table to the goal in 12 moves.
    let hardest = (0..t.len()).filter(|&i| t.code(i) == Some(12)).take(5);
    for i in hardest {
        let start = space.state(i);
        let path = t.path(&space, start).unwrap();
        assert_eq!(path.len(), 12);
        let end = replay(&space, start, &path.moves()).unwrap();
        assert!(space.is_goal(end));
    }
}

#[test]
fn flip_table_agrees_with_bfs_and_its_paths_replay() {
    let flip = flip_4x4();
    let t = table::build(&flip, &Limits::default()).unwrap();
    for board in (0..1u64 << 16).step_by(97) {
        let by_bfs = match bfs::solve_indexed(&flip, board, &Limits::default()).outcome {
            Outcome::Solved(path) => Some(path.len() as u32),
            Outcome::Unsolvable => None,
            other => panic!("{other:?}"),
        };
        assert_eq!(t.distance(&flip, board), by_bfs, "board {board:#06x}");
        match t.outcome(&flip, board) {
            Outcome::Solved(path) => {
                assert_eq!(Some(path.len() as u32), by_bfs);
                let end = replay(&flip, board, &path.moves()).unwrap();
                assert!(flip.is_goal(end));
            }
            Outcome::Unsolvable => assert_eq!(by_bfs, None),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn every_flip_goal_kind_builds_a_consistent_table() {
    // Torus 3 x 4 with a pattern goal: a different goal set and move set, same invariants.
    let g = Geometry {
        rows: 3,
        cols: 4,
        wrap: true,
    };
    let flip = Flip::new(g, FlipGoal::Pattern(0b1010_0101_1010));
    let t = table::build(&flip, &Limits::default()).unwrap();
    assert_eq!(t.histogram()[0], 1);
    for board in 0..1u64 << 12 {
        let Some(d) = t.distance(&flip, board) else {
            continue;
        };
        let mut best_next = u32::MAX;
        flip.successors(board, &mut |_, next| {
            best_next = best_next.min(t.distance(&flip, next).unwrap_or(u32::MAX))
        });
        if d > 0 {
            assert_eq!(best_next, d - 1, "a state at d has a neighbour at d - 1");
        }
    }
}

#[test]
fn oversized_tables_are_refused_before_allocating() {
    let g = Geometry {
        rows: 8,
        cols: 8,
        wrap: false,
    };
    let limits = Limits::default();
    let err = table::build(&Flip::new(g, FlipGoal::Uniform), &limits).unwrap_err();
    // Even the 2-bit (mod 3) table of 2^64 boards is refused, and the refusal names its bytes.
    assert_eq!(
        err,
        Limit::Memory {
            needed: 1u128 << 62,
            budget: limits.memory_budget
        }
    );
    let g = shift::Geometry { rows: 8, cols: 8 };
    let space = ColourMasks::new(g, g.interior(), 36);
    let needed = space.size().div_ceil(32) * 8;
    assert!(matches!(
        table::build(&space, &limits),
        Err(Limit::Memory { needed: n, .. }) if n == needed
    ));
}

#[test]
fn a_time_limit_stops_the_build() {
    let g = shift::Geometry { rows: 4, cols: 6 };
    let space = ColourMasks::new(g, g.interior(), 8);
    let limits = Limits {
        time_limit: Some(std::time::Duration::ZERO),
        ..Limits::default()
    };
    assert!(matches!(table::build(&space, &limits), Err(Limit::Time(_))));
}
