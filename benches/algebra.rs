//! The algebraic Flip solver on random solvable boards (made by pressing random cells of a white
//! board), uniform goal (both colours tried), plain and torus.
//!
//! `cargo bench --bench algebra`; figures are recorded in BENCHMARKS.md.

use criterion::{Criterion, criterion_group, criterion_main};
use statespace::limit::Limits;
use statespace_flip::{BitBoard, Geometry, algebra};
use std::hint::black_box;

/// A board that random presses turn all-white into (xorshift, fixed seed: the same every run).
fn scrambled(g: Geometry, presses: u64) -> BitBoard {
    let mut board = BitBoard::new(g.rows, g.cols);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..presses {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let cell = seed % (g.rows as u64 * g.cols as u64);
        board.press(
            (cell / g.cols as u64) as u32,
            (cell % g.cols as u64) as u32,
            g.wrap,
        );
    }
    board
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("algebraic-flip");
    group.sample_size(10);
    for (n, wrap) in [
        (100, false),
        (100, true),
        (200, false),
        (1000, false),
        (1000, true),
    ] {
        let g = Geometry {
            rows: n,
            cols: n,
            wrap,
        };
        let start = scrambled(g, n as u64 * n as u64 / 2);
        let targets = [BitBoard::new(n, n), BitBoard::full(n, n)];
        let limits = Limits::default();
        let name = format!("{n}x{n}{}", if wrap { "-torus" } else { "" });
        group.bench_function(name, |b| {
            b.iter(|| algebra::solve(g, black_box(&start), &targets, &limits))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
