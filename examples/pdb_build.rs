//! One blank-aware tile pattern database built per process, for timing, peak memory and
//! instruction counts (the 15-puzzle's 7-8 split is the target: BENCHMARKS.md, "Sliding
//! tiles: Korf's 100").
//!
//! ```sh
//! cargo build --release --example pdb_build
//! /usr/bin/time -v target/release/examples/pdb_build 8     # the 8-tile group: tiles 1-8
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/pdb_build 5
//! ```
//!
//! Argument: `K`, the group of tiles `1..=K` of the 15-puzzle (the top rows of the goal), or
//! `7-low`, the 7-tile group 9-15. Prints the build's time, rounds, expanded and generated
//! counts, and the table's maximum and entry count.

use statespace::limit::Limits;
use statespace_tiles::blank_aware;
use std::time::Instant;

fn main() {
    let usage = "usage: pdb_build K|7-low";
    let which = std::env::args().nth(1).expect(usage);
    // The ordered 4 x 4 goal: tile t on cell t - 1, the blank on cell 15.
    let goal: Vec<u8> = match which.as_str() {
        "7-low" => (8..15).collect(),
        k => (0..k.parse::<u8>().expect(usage)).collect(),
    };
    let started = Instant::now();
    let table = blank_aware::build(4, 4, &goal, 15, &Limits::default()).expect("within limits");
    let stats = table.stats();
    println!(
        "group of goal cells {goal:?}: {} entries, max {}, {:.2} s; {} cost rounds, {} expanded, \
         {} generated, {} (placement, component) states",
        table.len(),
        table.max_distance().unwrap_or(0),
        started.elapsed().as_secs_f64(),
        stats.depth + 1,
        stats.expanded,
        stats.generated,
        stats.visited,
    );
}
