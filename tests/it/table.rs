//! The distance-table engine: the whole-space histograms in tests/cases/shared-samples.toml, the
//! table against BFS on Flip boards, paths that replay, and the memory budget checked before
//! anything is allocated. Every check runs on both codings (exact and mod 3) and, where the
//! space has symmetries, on the symmetric build too.

use statespace::limit::{Limit, Limits};
use statespace::search::table::{DistanceTable, Width};
use statespace::search::{Outcome, bfs, table};
use statespace::space::{Indexed, StateSpace, replay};
use statespace_flip::{Flip, FlipGoal, Geometry};
use statespace_shift::{self as shift, ColourMasks};
use std::collections::VecDeque;

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
    let (reachable, counts) = crate::shared_histogram("flip-4x4-uniform");
    let t = table::build(&flip_4x4(), &Limits::default()).unwrap();
    assert_eq!(t.reachable(), reachable);
    assert_eq!(t.histogram(), counts);
    assert_eq!(t.max_distance(), Some(6));
    assert_eq!(t.bytes(), (1 << 16) / 2, "4 bits per board");
}

#[test]
fn shift_4x6_one_colour_interior_histogram() {
    let (reachable, counts) = crate::shared_histogram("shift-4x6-one-colour-interior");
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
        let path = t.path(&space, start).unwrap().unwrap();
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
        assert_eq!(
            t.distance(&flip, board).unwrap(),
            by_bfs,
            "board {board:#06x}"
        );
        match t.outcome(&flip, board).unwrap() {
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
        let Some(d) = t.distance(&flip, board).unwrap() else {
            continue;
        };
        let mut best_next = u32::MAX;
        flip.successors(board, &mut |_, next| {
            best_next = best_next.min(t.distance(&flip, next).unwrap().unwrap_or(u32::MAX))
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

/// The table of `space` in both codings; panics when either is refused.
fn both_widths<P>(space: &P) -> [DistanceTable; 2]
where
    P: Indexed + statespace::space::Invertible + statespace::space::GoalSet,
{
    let limits = Limits::default();
    let exact = table::build_with(space, &limits, Width::Exact).unwrap();
    let mod3 = table::build_with(space, &limits, Width::Mod3).unwrap();
    assert!(exact.is_exact() && !mod3.is_exact());
    assert_eq!((exact.bits_per_entry(), mod3.bits_per_entry()), (4, 2));
    assert_eq!(mod3.bytes() * 2, exact.bytes());
    [exact, mod3]
}

/// The histogram of distances to the goal set by a plain FIFO BFS with a byte per state: an
/// oracle that shares nothing with the table engine but the space.
fn bfs_histogram<P: Indexed>(space: &P, goals: &[P::State]) -> Vec<u64> {
    let mut distance = vec![u8::MAX; space.size() as usize];
    let mut queue = VecDeque::new();
    for &g in goals {
        distance[space.index(g) as usize] = 0;
        queue.push_back(g);
    }
    let mut histogram = vec![0u64];
    histogram[0] = goals.len() as u64;
    while let Some(s) = queue.pop_front() {
        let next = distance[space.index(s) as usize] + 1;
        space.successors(s, &mut |_, t| {
            let j = space.index(t) as usize;
            if distance[j] == u8::MAX {
                distance[j] = next;
                if histogram.len() <= next as usize {
                    histogram.push(0);
                }
                histogram[next as usize] += 1;
                queue.push_back(t);
            }
        });
    }
    histogram
}

#[test]
fn mod3_flip_4x4_answers_like_the_exact_table_and_bfs() {
    let flip = flip_4x4();
    let (_, counts) = crate::shared_histogram("flip-4x4-uniform");
    let [exact, mod3] = both_widths(&flip);
    assert_eq!(mod3.histogram(), counts);
    assert_eq!(mod3.bytes(), (1 << 16) / 4, "2 bits per board");
    // Every board: the same distance from both codings; every 61st also against BFS, with a
    // path that replays to a goal.
    for board in 0..1u64 << 16 {
        let d = exact.distance(&flip, board).unwrap();
        assert_eq!(
            mod3.distance(&flip, board).unwrap(),
            d,
            "board {board:#06x}"
        );
        assert_eq!(mod3.code(board), d.map(|d| d as u64 % 3));
        if board % 61 != 0 {
            continue;
        }
        let by_bfs = match bfs::solve_indexed(&flip, board, &Limits::default()).outcome {
            Outcome::Solved(path) => Some(path.len() as u32),
            Outcome::Unsolvable => None,
            other => panic!("{other:?}"),
        };
        assert_eq!(d, by_bfs);
        match mod3.outcome(&flip, board).unwrap() {
            Outcome::Solved(path) => {
                assert_eq!(Some(path.len() as u32), d);
                let end = replay(&flip, board, &path.moves()).unwrap();
                assert!(flip.is_goal(end));
            }
            Outcome::Unsolvable => assert_eq!(d, None),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn flip_5x5_whole_space_histogram_in_both_codings() {
    let g = Geometry {
        rows: 5,
        cols: 5,
        wrap: false,
    };
    let flip = Flip::new(g, FlipGoal::Uniform);
    let expected = bfs_histogram(&flip, &flip.goal_boards());
    // Two goals; 25 presses from each; C(25, 2) = 300 pairs from each (no two coincide).
    assert_eq!(expected[..3], [2, 50, 600]);
    // The 5 x 5 press matrix has rank 23: a quarter of the boards are solvable.
    assert_eq!(expected.iter().sum::<u64>(), 1 << 23);
    let [exact, mod3] = both_widths(&flip);
    for t in [&exact, &mod3] {
        assert_eq!(t.histogram(), expected);
        assert_eq!(t.len(), 1 << 25);
    }
    // The deepest boards descend to a goal in both codings.
    let deepest = exact.max_distance().unwrap();
    let boards = (0..1u64 << 25).filter(|&b| exact.code(b) == Some(deepest as u64));
    for board in boards.take(3) {
        let path = mod3.path(&flip, board).unwrap().unwrap();
        assert_eq!(path.len() as u32, deepest);
        assert!(flip.is_goal(replay(&flip, board, &path.moves()).unwrap()));
    }
}

#[test]
fn shift_4x6_codings_and_symmetry_give_the_same_table() {
    let (_, counts) = crate::shared_histogram("shift-4x6-one-colour-interior");
    let g = shift::Geometry { rows: 4, cols: 6 };
    let space = ColourMasks::new(g, g.interior(), 8);
    let plain = table::build_with(&space, &Limits::default(), Width::Exact).unwrap();
    let limits = Limits::default();
    let exact = table::build_symmetric(&space, &limits, Width::Exact).unwrap();
    let mod3 = table::build_symmetric(&space, &limits, Width::Mod3).unwrap();
    let plain_mod3 = table::build_with(&space, &limits, Width::Mod3).unwrap();
    for t in [&plain, &exact, &mod3, &plain_mod3] {
        assert_eq!(t.histogram(), counts);
    }
    for i in 0..space.size() as u64 {
        let code = plain.code(i);
        assert_eq!(exact.code(i), code, "rank {i}");
        assert_eq!(mod3.code(i), code.map(|d| d % 3), "rank {i}");
        assert_eq!(plain_mod3.code(i), code.map(|d| d % 3), "rank {i}");
    }
    // Mod-3 distances by descent, and their paths, on a spread of masks.
    for i in (0..space.size() as u64).step_by(997) {
        let mask = space.state(i);
        let d = plain.code(i).map(|d| d as u32);
        assert_eq!(mod3.distance(&space, mask).unwrap(), d);
        let path = mod3.path(&space, mask).unwrap().unwrap();
        assert_eq!(Some(path.len() as u32), d);
        assert!(space.is_goal(replay(&space, mask, &path.moves()).unwrap()));
    }
}

/// The symmetric build's shortcuts (mirror look-ups, scans that step from one mask to the next,
/// bottom-up scans that stop at the first neighbour found) on boards other than HDU's: every
/// count of mirrors kept, masks of more than 24 cells (the colex rank's middle bytes), wide and
/// tall boards, boards of more than 32 cells (whose level lists hold whole masks, not 32-bit
/// words). Entry for entry the plain build's table, in both codings.
#[test]
fn symmetric_builds_equal_plain_builds_on_other_boards() {
    let limits = Limits::default();
    let board = |rows, cols| shift::Geometry { rows, cols };
    let cases = [
        // (board, region, cells of the colour, mirrors that keep the region)
        (board(3, 5), board(3, 5).interior(), 5, 3),
        (board(4, 6), board(4, 6).rectangle(0, 1, 0, 4), 6, 1),
        (board(5, 6), board(5, 6).rectangle(1, 2, 3, 3), 6, 3),
        (board(3, 4), board(3, 4).rectangle(0, 0, 0, 1), 3, 0),
        (board(7, 3), board(7, 3).interior(), 7, 3),
        (board(5, 7), board(5, 7).rectangle(2, 2, 2, 4), 4, 3),
    ];
    for (g, region, k, mirrors) in cases {
        let space = ColourMasks::new(g, region, k);
        assert_eq!(space.mirrors().len(), mirrors, "{g:?}");
        for width in [Width::Exact, Width::Mod3] {
            let plain = table::build_with(&space, &limits, width).unwrap();
            let symmetric = table::build_symmetric(&space, &limits, width).unwrap();
            assert_eq!(symmetric.histogram(), plain.histogram(), "{g:?}");
            for i in 0..space.size() as u64 {
                assert_eq!(symmetric.code(i), plain.code(i), "{g:?} {width:?} rank {i}");
            }
        }
    }
}

#[test]
fn two_bit_tables_are_refused_before_allocating_when_even_they_do_not_fit() {
    let flip = flip_4x4();
    // 2^16 boards: 32 KiB at 4 bits, 16 KiB at 2 bits.
    let limits = |budget| Limits {
        memory_budget: budget,
        ..Limits::default()
    };
    let refused = Limit::Memory {
        needed: 16_384,
        budget: 16_000,
    };
    assert_eq!(table::build(&flip, &limits(16_000)).unwrap_err(), refused);
    assert_eq!(
        table::build_with(&flip, &limits(16_000), Width::Mod3).unwrap_err(),
        refused
    );
    assert_eq!(table::bytes_needed(&flip), 16_384);
    assert!(refused.to_string().contains("needs 16.0 KiB of memory"));
    // Exact asks for its own 32 KiB; auto takes mod 3 when 3 x 32 KiB does not fit.
    assert_eq!(
        table::build_with(&flip, &limits(20_000), Width::Exact).unwrap_err(),
        Limit::Memory {
            needed: 32_768,
            budget: 20_000
        }
    );
    let auto = table::build(&flip, &limits(20_000)).unwrap();
    assert_eq!((auto.bits_per_entry(), auto.bytes()), (2, 16_384));
    let roomy = table::build(&flip, &limits(3 * 32_768)).unwrap();
    assert_eq!(roomy.bits_per_entry(), 4);
}

fn flip(rows: u32, cols: u32, wrap: bool) -> Flip {
    Flip::new(Geometry { rows, cols, wrap }, FlipGoal::Uniform)
}

/// `table::build_xor_with` gives `plain`'s table: same coding, width, bytes, histogram, the stats
/// the histogram fixes, and the same code at every index.
fn assert_same_table(flip: &Flip, xor: &DistanceTable, plain: &DistanceTable) {
    assert_eq!(xor.histogram(), plain.histogram());
    assert_eq!(xor.is_exact(), plain.is_exact());
    assert_eq!(xor.bits_per_entry(), plain.bits_per_entry());
    assert_eq!(xor.bytes(), plain.bytes());
    assert_eq!(xor.len(), plain.len());
    let (x, p) = (xor.stats(), plain.stats());
    assert_eq!(
        (x.visited, x.peak_frontier, x.depth),
        (p.visited, p.peak_frontier, p.depth)
    );
    // The sweep expands every reached state once, with one successor per press.
    assert_eq!(x.expanded, xor.reachable());
    assert_eq!(x.generated, x.expanded * flip.geometry().cells() as u64);
    for i in 0..flip.size() as u64 {
        assert_eq!(xor.code(i), plain.code(i), "index {i}");
    }
}

#[test]
fn xor_build_equals_the_plain_build_entry_for_entry() {
    let limits = Limits::default();
    for (rows, cols, wrap) in [
        (3, 3, false),
        (4, 4, false),
        (4, 4, true),
        (5, 4, false),
        (2, 2, false),
        (1, 5, false),
    ] {
        let space = flip(rows, cols, wrap);
        for width in [Width::Auto, Width::Exact, Width::Mod3] {
            let plain = table::build_with(&space, &limits, width).unwrap();
            let xor = table::build_xor_with(&space, &limits, width).unwrap();
            assert_same_table(&space, &xor, &plain);
        }
        assert_eq!(
            table::build_xor(&space, &limits).unwrap().histogram(),
            table::build(&space, &limits).unwrap().histogram()
        );
    }
}

#[test]
fn xor_build_of_flip_5x5_in_both_codings() {
    let space = flip(5, 5, false);
    let limits = Limits::default();
    let plain = table::build(&space, &limits).unwrap();
    let xor = table::build_xor(&space, &limits).unwrap();
    assert_eq!(
        xor.histogram(),
        [
            2, 50, 600, 4600, 25300, 106260, 352352, 934208, 1913554, 2680450, 1953872, 391440,
            25920
        ]
    );
    assert_eq!(xor.bits_per_entry(), 4);
    assert_same_table(&space, &xor, &plain);
    let mod3 = table::build_xor_with(&space, &limits, Width::Mod3).unwrap();
    assert_eq!(mod3.histogram(), xor.histogram());
    for i in 0..space.size() as u64 {
        assert_eq!(mod3.code(i), plain.code(i).map(|d| d % 3), "index {i}");
    }
}

#[test]
fn xor_build_counts_its_bitsets_against_the_budget() {
    let space = flip(4, 4, false);
    // 2^16 boards: three bitsets of 8 KiB, a 4-bit table of 32 KiB, a 2-bit one of 16 KiB.
    let bitsets = 3 * 8192;
    let mod3 = table::build_with(&space, &Limits::default(), Width::Mod3).unwrap();
    // Room for the bitsets and a 2-bit table but not three 4-bit ones: Auto picks mod 3.
    let limits = Limits {
        memory_budget: bitsets + 3 * 32768 - 1,
        ..Limits::default()
    };
    let t = table::build_xor(&space, &limits).unwrap();
    assert!(!t.is_exact());
    assert_same_table(&space, &t, &mod3);
    // Just enough for three 4-bit tables and the bitsets: exact.
    let limits = Limits {
        memory_budget: bitsets + 3 * 32768,
        ..Limits::default()
    };
    assert!(table::build_xor(&space, &limits).unwrap().is_exact());
    // Not even the bitsets and a 2-bit table: refused before allocating, naming both.
    let limits = Limits {
        memory_budget: bitsets + 16384 - 1,
        ..Limits::default()
    };
    assert_eq!(
        table::build_xor(&space, &limits).unwrap_err(),
        Limit::Memory {
            needed: bitsets as u128 + 16384,
            budget: bitsets + 16384 - 1
        }
    );
}

#[test]
fn xor_build_stops_at_the_time_and_state_limits() {
    let space = flip(4, 4, false);
    let limits = Limits {
        time_limit: Some(std::time::Duration::ZERO),
        ..Limits::default()
    };
    assert!(matches!(
        table::build_xor(&space, &limits),
        Err(Limit::Time(_))
    ));
    let limits = Limits {
        max_states: Some(100),
        ..Limits::default()
    };
    assert_eq!(
        table::build_xor(&space, &limits).unwrap_err(),
        Limit::States(100)
    );
    // A depth limit does not apply to a table.
    let limits = Limits {
        max_depth: Some(2),
        ..Limits::default()
    };
    assert_eq!(
        table::build_xor(&space, &limits).unwrap().max_distance(),
        Some(6)
    );
}
