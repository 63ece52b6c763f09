//! Whole-space BFS over Flip 5 x 5 (2^25 boards, 8,388,608 reachable from the two uniform
//! boards): the `layers` engine per state and word at a time, on one thread and on all, against
//! the `pathfinding` crate's `bfs_reach` on the same successor function.
//!
//! `cargo bench --bench layers`. Peak memory needs one process per engine: see
//! `benches/compare.sh`, which also runs the C baselines.

use criterion::{Criterion, criterion_group, criterion_main};
use statespace::limit::Limits;
use statespace::search::layers;
use statespace::space::StateSpace;
use statespace_flip::{Flip, FlipGoal, Geometry};
use std::hint::black_box;

const REACHABLE: u64 = 8_388_608;

fn flip_5x5() -> Flip {
    let geometry = Geometry {
        rows: 5,
        cols: 5,
        wrap: false,
    };
    Flip::new(geometry, FlipGoal::Uniform)
}

fn whole_space(c: &mut Criterion) {
    let flip = flip_5x5();
    let limits = Limits::default();
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut group = c.benchmark_group("flip 5x5 whole space");
    group.sample_size(10);
    for threads in [1, all] {
        let options = layers::Options {
            limits: &limits,
            threads: Some(threads),
        };
        group.bench_function(format!("word-at-a-time, {threads} threads"), |b| {
            b.iter(|| {
                let sweep = layers::xor_backward(black_box(&flip), options, &mut |_, _| {});
                assert_eq!(sweep.stats.visited, REACHABLE);
            })
        });
        group.bench_function(format!("per-state, {threads} threads"), |b| {
            b.iter(|| {
                let sweep = layers::backward(black_box(&flip), options, &mut |_, _| {});
                assert_eq!(sweep.stats.visited, REACHABLE);
            })
        });
    }
    group.bench_function("pathfinding bfs_reach", |b| {
        b.iter(|| {
            // Both uniform boards are in one component of 5 x 5 (the all-black board is a sum of
            // presses), so one search from all-white reaches everything.
            let successors = |&board: &u64| {
                let mut next = Vec::with_capacity(25);
                flip.successors(board, &mut |_, t| next.push(t));
                next
            };
            let reached = pathfinding::directed::bfs::bfs_reach(0u64, successors).count();
            assert_eq!(reached as u64, REACHABLE);
        })
    });
    group.finish();
}

criterion_group!(benches, whole_space);
criterion_main!(benches);
