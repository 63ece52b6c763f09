//! One whole-space BFS over Flip R x C (backward from the two uniform boards), in its own process
//! so that its peak memory is its own: `benches/compare.sh` runs one per engine.
//!
//! ```sh
//! cargo run --release --example flip_whole_space -- word 5 5 2
//! ```
//!
//! Arguments: `ENGINE ROWS COLS [THREADS]`, ENGINE one of
//! - `word`: [`layers::xor_backward`], a 64-bit word of states per move;
//! - `per-state`: [`layers::backward`], one state at a time through `successors`;
//! - `pathfinding`: the `pathfinding` crate's `bfs_reach` over the same successor function, from
//!   the first goal board (it takes one start). For 5 x 5 that reaches everything: the all-black
//!   board is a sum of presses, so both uniform boards are in one component. On geometries
//!   where they are not, this count is the first goal's component only.
//!
//! Prints one line: `ENGINE THREADS reachable N seconds S states_per_second R vmhwm_kib K`.

use statespace::limit::Limits;
use statespace::search::layers;
use statespace::space::StateSpace;
use statespace_flip::{Flip, FlipGoal, Geometry};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: flip_whole_space word|per-state|pathfinding ROWS COLS [THREADS]";
    let (engine, rows, cols) = match args.as_slice() {
        [engine, rows, cols, ..] => (
            engine.as_str(),
            rows.parse::<u32>().expect(usage),
            cols.parse::<u32>().expect(usage),
        ),
        _ => panic!("{usage}"),
    };
    let threads: usize = args.get(3).map_or(1, |t| t.parse().expect(usage));
    let flip = Flip::new(
        Geometry {
            rows,
            cols,
            wrap: false,
        },
        FlipGoal::Uniform,
    );
    let limits = Limits::default();
    let options = layers::Options {
        limits: &limits,
        threads: Some(threads),
    };
    let started = Instant::now();
    let reachable = match engine {
        "word" => {
            layers::xor_backward(&flip, options, &mut |d, n| {
                if std::env::var("TRACE").is_ok() {
                    eprintln!("{d} {n} {:?}", started.elapsed())
                }
            })
            .stats
            .visited
        }
        "per-state" => {
            layers::backward(&flip, options, &mut |_, _| {})
                .stats
                .visited
        }
        "pathfinding" => pathfinding_reach(&flip),
        _ => panic!("{usage}"),
    };
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{engine} {threads} reachable {reachable} seconds {seconds:.3} states_per_second {:.0} vmhwm_kib {}",
        reachable as f64 / seconds,
        vm_hwm_kib().unwrap_or(0)
    );
}

/// `bfs_reach` from the first goal board, counted.
fn pathfinding_reach(flip: &Flip) -> u64 {
    let successors = |&board: &u64| {
        let mut next = Vec::with_capacity(flip.geometry().cells() as usize);
        flip.successors(board, &mut |_, t| next.push(t));
        next
    };
    pathfinding::directed::bfs::bfs_reach(flip.goal_boards()[0], successors).count() as u64
}

/// The process's peak resident memory from `/proc/self/status`.
fn vm_hwm_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
