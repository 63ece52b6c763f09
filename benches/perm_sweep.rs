//! Permutation puzzles: God's number by a whole-space sweep, block by block from two move tables
//! (`layers::split_backward`) against state by state (`layers::backward`: an unrank, a move and
//! a rank per successor), side by side in one run.
//!
//! A plain `main` with its own timing (harness = false): one sweep is the measurement.
//!
//! ```text
//! cargo bench --bench perm_sweep -- [--def FILE] [--moves U,F,R] [--threads N]
//!                                   [--engine split|per-state|both]
//! ```
//!
//! Default: `configs/defs/2x2x2.tws` with every face (88,179,840 positions), both engines, all
//! threads. For instruction counts, one engine on one thread under callgrind:
//! `valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/deps/perm_sweep-<hash>
//! --engine split --threads 1`.

mod perm_common;

use perm_common::{arg, definition};
use statespace::limit::Limits;
use statespace::search::layers;
use statespace::setup::Setup;
use statespace_perm::{Metric, PermSpace};
use std::time::Instant;

/// CPU seconds of the whole process (every thread), from `/proc/self/stat` (user + system).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    // Fields 14 and 15 (utime, stime) are 11 and 12 after the name; 100 ticks a second here.
    (ticks(11) + ticks(12)) / 100.0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (path, def, moves) = definition(&args, "configs/defs/2x2x2.tws");
    let threads = arg(&args, "--threads").map(|t| t.parse::<usize>().unwrap());
    let engine = arg(&args, "--engine").unwrap_or("both".into());
    let at = statespace::error::Location::file(path.display().to_string());
    let mut setup = Setup::default();
    let powers = def
        .generators(moves.as_deref(), Metric::Htm, &at, &mut setup)
        .unwrap_or_else(|e| panic!("{e}"));
    let space =
        PermSpace::<32>::new(def, &powers, false, &mut setup).unwrap_or_else(|e| panic!("{e}"));
    let limits = Limits::default();
    let options = layers::Options {
        limits: &limits,
        threads,
    };
    println!(
        "{} ({} moves): {} indices",
        path.display(),
        powers.len(),
        space.layout().size()
    );
    let mut answers = Vec::new();
    for (name, split) in [("split", true), ("per-state", false)] {
        if engine != "both" && engine != name {
            continue;
        }
        let (cpu, wall) = (cpu_seconds(), Instant::now());
        let sweep = if split {
            layers::split_backward(&space, options, &mut |_, _| {})
        } else {
            layers::backward(&space, options, &mut |_, _| {})
        };
        let (cpu, wall) = (cpu_seconds() - cpu, wall.elapsed().as_secs_f64());
        println!(
            "{name:>9}: {} positions, God's number {}, {} successors looked at, {wall:.2} s wall, \
             {cpu:.2} s CPU, {} threads, {:.1} MiB",
            sweep.stats.visited,
            sweep.stats.depth,
            sweep.stats.generated,
            sweep.threads,
            sweep.memory_bytes as f64 / (1u64 << 20) as f64
        );
        answers.push(sweep.histogram);
    }
    assert!(
        answers.windows(2).all(|w| w[0] == w[1]),
        "the engines disagree"
    );
}
