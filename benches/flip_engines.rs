//! Flip 4 x 4 (POJ 1753), goal uniform: IDDFS vs BFS vs the distance table on the same random
//! boards, side by side in one run.
//!
//! Two board sets: 1000 solvable boards (random presses on a uniform board), and 100 boards
//! uniform over all 2^16 (as a judge's input is: 15 in 16 are `Impossible`, which BFS proves by
//! exhausting a 4096-board component and IDDFS by exhausting its pruned tree of 2^16 press sets
//! at every depth bound, about 20 ms a board: 1000 of them would take criterion minutes). Every
//! engine returns the full outcome with the path. The table is built once per iteration (the
//! build, then a descent per board); `table lookups` is the descents alone, on a table built
//! beforehand: the per-board cost once the table exists.
//!
//!     cargo bench --bench flip_engines

use criterion::{Criterion, criterion_group, criterion_main};
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use statespace::search::{Outcome, bfs, iddfs, table};
use statespace_flip::{Flip, FlipGoal, Geometry};
use std::hint::black_box;

const SOLVABLE_BOARDS: usize = 1000;
const ANY_BOARDS: usize = 100;

/// xorshift64, fixed seed: the same boards every run.
fn generator(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

fn any_boards() -> Vec<u64> {
    let mut next = generator(0x2545_F491_4F6C_DD1D);
    (0..ANY_BOARDS).map(|_| next() & 0xffff).collect()
}

fn solvable_boards(flip: &Flip) -> Vec<u64> {
    let mut next = generator(0x9E37_79B9_7F4A_7C15);
    (0..SOLVABLE_BOARDS)
        .map(|_| {
            let presses = next() & 0xffff;
            (0..16)
                .filter(|cell| presses >> cell & 1 == 1)
                .fold(0, |board, cell| {
                    board ^ flip.geometry().press_mask(cell / 4, cell % 4)
                })
        })
        .collect()
}

/// The sum of the answers' lengths (`Impossible` counts 100), so that every engine is checked
/// to give the same answers and none of the work is optimised away.
fn score<S, M>(outcome: &Outcome<S, M>) -> u64
where
    S: Copy,
    M: Copy,
{
    match outcome {
        Outcome::Solved(path) => path.len() as u64,
        Outcome::Unsolvable => 100,
        Outcome::LimitReached(limit) => panic!("{limit}"),
    }
}

fn bench(c: &mut Criterion) {
    let flip = Flip::new(
        Geometry {
            rows: 4,
            cols: 4,
            wrap: false,
        },
        FlipGoal::Uniform,
    );
    let limits = Limits::default();
    let built = table::build(&flip, &limits).unwrap();
    for (name, boards) in [("solvable", solvable_boards(&flip)), ("any", any_boards())] {
        let by_iddfs: u64 = boards
            .iter()
            .map(|&b| score(&iddfs::solve(&flip, b, &limits, &SearchOptions::default()).outcome))
            .sum();
        let by_bfs: u64 = boards
            .iter()
            .map(|&b| score(&bfs::solve_indexed(&flip, b, &limits).outcome))
            .sum();
        let by_table: u64 = boards
            .iter()
            .map(|&b| score(&built.outcome(&flip, b).unwrap()))
            .sum();
        assert_eq!((by_iddfs, by_bfs), (by_table, by_table), "{name} boards");

        let mut group = c.benchmark_group(format!("flip 4x4, {} {name} boards", boards.len()));
        group.sample_size(10);
        group.bench_function("iddfs", |b| {
            b.iter(|| {
                let sum: u64 = boards
                    .iter()
                    .map(|&x| {
                        score(&iddfs::solve(&flip, x, &limits, &SearchOptions::default()).outcome)
                    })
                    .sum();
                black_box(sum)
            })
        });
        group.bench_function("bfs", |b| {
            b.iter(|| {
                let sum: u64 = boards
                    .iter()
                    .map(|&x| score(&bfs::solve_indexed(&flip, x, &limits).outcome))
                    .sum();
                black_box(sum)
            })
        });
        group.bench_function("table (build + lookups)", |b| {
            b.iter(|| {
                let t = table::build(&flip, &limits).unwrap();
                let sum: u64 = boards
                    .iter()
                    .map(|&x| score(&t.outcome(&flip, x).unwrap()))
                    .sum();
                black_box(sum)
            })
        });
        group.bench_function("table lookups (built beforehand)", |b| {
            b.iter(|| {
                let sum: u64 = boards
                    .iter()
                    .map(|&x| score(&built.outcome(&flip, x).unwrap()))
                    .sum();
                black_box(sum)
            })
        });
        group.finish();
    }
    c.bench_function("flip 4x4: table build alone", |b| {
        b.iter(|| black_box(table::build(&flip, &limits).unwrap().reachable()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
