//! The pruning table's tests: cells against a breadth-first search, IDA* against BFS's lengths,
//! limits.

use super::*;
use crate::options::SearchOptions;
use crate::search::{Outcome, bfs, idastar};
use crate::space::Indexed;
use crate::toys::{Lights, LightsGoal};
use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;

/// Every state's distance to the goal set, by a breadth-first search written here.
fn distances<P: Indexed + GoalSet>(space: &P) -> Vec<u32> {
    let mut dist = vec![u32::MAX; space.size() as usize];
    let mut queue = VecDeque::new();
    space.goals(&mut |g| {
        dist[space.index(g) as usize] = 0;
        queue.push_back(g);
    });
    while let Some(s) = queue.pop_front() {
        let d = dist[space.index(s) as usize];
        space.successors(s, &mut |_, t| {
            let i = space.index(t) as usize;
            if dist[i] == u32::MAX {
                dist[i] = d + 1;
                queue.push_back(t);
            }
        });
    }
    dist
}

/// At every depth: each cell holds the least distance of the states within the depth that
/// hash to it (none: empty), and every estimate is at most the true distance, equal to it
/// inside the depth where no nearer state shares the cell; on a table small enough to
/// collide often and on one large enough to be exact.
#[test]
fn cells_hold_least_distances_and_estimates_are_admissible() {
    let lights = Lights::new(3, 4, false, LightsGoal::Uniform);
    let dist = distances(&lights);
    // One tier small, one large, two tiers (1 KiB, then 64 KiB), three passed through one by
    // one (256 bytes, 16 KiB, 1 MiB: each level leaves the next tier sparse) and three of which
    // the middle is skipped (16 bytes, 1 KiB, 64 KiB: the second level would crowd 1 KiB).
    let cases: [&[u64]; 5] = [
        &[1024],
        &[1 << 16],
        &[1 << 10, 1 << 16],
        &[256, 1 << 14, 1 << 20],
        &[16, 1 << 10, 1 << 16],
    ];
    for &tiers in &cases {
        let (bytes, first_bytes) = (tiers[tiers.len() - 1], tiers[0]);
        let growth = Growth {
            bytes,
            first_bytes,
            first_work: 0,
            pays: 1,
        };
        let table = PruningTable::new(&lights, &Limits::default(), growth).unwrap();
        let (mut exact, mut inside) = (0, 0);
        let mut passed = Vec::new();
        loop {
            let depth = table.depth();
            if passed.last() != Some(&table.bytes()) {
                passed.push(table.bytes());
            }
            let mut least = vec![None::<u32>; table.bytes() as usize];
            for (i, &d) in dist.iter().enumerate() {
                if d <= depth {
                    let cell = &mut least[table.cell(&lights, i as u64)];
                    *cell = Some(cell.map_or(d, |l| l.min(d)));
                }
            }
            for (cell, &want) in least.iter().enumerate() {
                assert_eq!(
                    table.cell_distance(cell),
                    want,
                    "cell {cell}, depth {depth}"
                );
            }
            for (i, &d) in dist.iter().enumerate() {
                let estimate = table.distance(&lights, i as u64);
                assert!(estimate <= d, "state {i}: {estimate} > {d}");
                if d <= depth {
                    inside += 1;
                    exact += u64::from(estimate == d);
                } else {
                    assert!(estimate <= depth + 1);
                }
            }
            if !table.deepen(&lights).unwrap() {
                break;
            }
        }
        // The small table stops where a level would fill more than a quarter of it; the
        // tiered ones moved through every tier and went as deep as the largest alone.
        let reached = if bytes > 4096 { 6 } else { 1 };
        assert!(table.depth() >= reached, "bytes {bytes}: {}", table.depth());
        let skipped = tiers[0] == 16;
        let want: Vec<u64> = match skipped {
            true => vec![tiers[0], bytes],
            false => tiers.to_vec(),
        };
        assert_eq!(passed, want, "the tiers passed through");
        assert_eq!(table.reserved(), tiers.iter().sum::<u64>());
        if bytes > 4096 {
            // Few nearer states share a cell at 16 cells a state.
            assert!(exact * 100 >= inside * 95, "{exact} of {inside}");
        }
    }
}

/// IDA* with the table (deepening as it searches) finds BFS's lengths on every board.
#[test]
fn idastar_with_the_table_finds_the_shortest_paths() {
    let lights = Lights::new(3, 3, false, LightsGoal::AllOff);
    let growth = Growth {
        bytes: 1 << 12,
        first_work: 4,
        pays: 1,
        ..Growth::default()
    };
    let table = PruningTable::new(&lights, &Limits::default(), growth).unwrap();
    let first = table.depth();
    let limits = Limits::default();
    for board in 0..lights.size() as u64 {
        let want = match bfs::solve(&lights, board, &limits).outcome {
            Outcome::Solved(path) => path.len(),
            other => panic!("{other:?}"),
        };
        match idastar::solve(&lights, &table, board, &limits, &SearchOptions::default()).outcome {
            Outcome::Solved(path) => assert_eq!(path.len(), want, "board {board}"),
            other => panic!("board {board}: {other:?}"),
        }
    }
    assert!(table.depth() > first, "the search paid for deeper levels");
    let fill = table.fill();
    assert_eq!(fill.leaves.len() as u32, table.depth() + 1);
    assert!(fill.work > 0 && fill.filled > 0);
}

/// A level too large to walk stops at the time limit within a second, and at once when
/// interrupted; the table keeps its depth and deepens no more.
#[test]
fn limits_stop_the_fill() {
    let lights = Lights::new(8, 8, false, LightsGoal::AllOff);
    let growth = Growth {
        bytes: 1 << 30,
        first_work: u64::MAX,
        pays: 1,
        ..Growth::default()
    };
    let limits = Limits {
        time_limit: Some(Duration::from_millis(300)),
        ..Limits::default()
    };
    let started = Instant::now();
    let made = PruningTable::new(&lights, &limits, growth);
    assert!(matches!(made, Err(Limit::Time(_))), "{made:?}");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );

    static STOP: AtomicBool = AtomicBool::new(false);
    let limits = Limits {
        interrupt: Some(&STOP),
        ..Limits::default()
    };
    let growth = Growth {
        first_work: 1000,
        ..growth
    };
    let table = PruningTable::new(&lights, &limits, growth).unwrap();
    let depth = table.depth();
    STOP.store(true, Ordering::Relaxed);
    assert_eq!(table.deepen(&lights), Err(Limit::Interrupted));
    assert_eq!(table.depth(), depth);
    assert!(table.fill().frozen);
    assert_eq!(table.deepen(&lights), Ok(false));

    let small = Limits {
        memory_budget: 1000,
        ..Limits::default()
    };
    let refused = PruningTable::new(&lights, &small, Growth::default());
    assert!(matches!(refused, Err(Limit::Memory { .. })));
}
