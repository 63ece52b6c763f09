//! Criterion timings for the HDU 3278 workload: the statespace distance table against the
//! classic 2^24-byte baseline (see `common`), and the per-board lookup.
//!
//!     cargo bench --bench shift

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn build_and_answer(c: &mut Criterion) {
    let boards = common::random_boards(1000);
    let limits = statespace::limit::Limits::default();
    let mut group = c.benchmark_group("hdu3278: build + 1000 boards");
    group.sample_size(10);
    group.bench_function("statespace table", |b| {
        b.iter(|| {
            let solver = common::solver();
            let sum: u32 = boards
                .iter()
                .map(|x| common::table_answer(&solver, x, &limits))
                .sum();
            black_box(sum)
        })
    });
    group.bench_function("baseline", |b| {
        b.iter(|| {
            let table = common::baseline_table();
            let sum: u32 = boards
                .iter()
                .map(|x| common::baseline_answer(&table, x))
                .sum();
            black_box(sum)
        })
    });
    group.finish();

    let solver = common::solver();
    common::table_answer(&solver, &boards[0], &limits);
    c.bench_function("hdu3278: one board by lookup", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % boards.len();
            black_box(common::table_answer(&solver, &boards[i], &limits))
        })
    });
}

criterion_group!(benches, build_and_answer);
criterion_main!(benches);
