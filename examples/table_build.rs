//! One distance-table build per process, for timing and instruction counts (callgrind):
//! the plain build against the symmetric one on the same space.
//!
//! ```sh
//! cargo run --release --example table_build -- shift-plain 20
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/table_build shift-plain 1
//! ```
//!
//! Arguments: `WHICH [REPEATS]`, WHICH one of
//! - `shift-plain`: [`table::build`] over Shift 4 x 6 masks of 8 cells (goal: the interior);
//! - `shift-symmetric`: [`table::build_symmetric`] over the same space (exact width);
//! - `flip-5x5`: [`table::build`] over Flip 5 x 5, goal uniform.
//!
//! Prints the best time of REPEATS builds (default 1) and the table's reachable count.

use statespace::limit::Limits;
use statespace::search::table;
use statespace_flip::{self as flip, Flip, FlipGoal};
use statespace_shift::{ColourMasks, Geometry};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: table_build shift-plain|shift-symmetric|flip-5x5 [REPEATS]";
    let which = args.first().expect(usage).as_str();
    let repeats: u32 = args.get(1).map_or(1, |r| r.parse().expect(usage));
    let limits = Limits::default();
    let g = Geometry { rows: 4, cols: 6 };
    let shift = ColourMasks::new(g, g.interior(), 8);
    let flip = Flip::new(
        flip::Geometry {
            rows: 5,
            cols: 5,
            wrap: false,
        },
        FlipGoal::Uniform,
    );
    let mut best = Duration::MAX;
    let mut reachable = 0;
    for _ in 0..repeats {
        let started = Instant::now();
        let built = match which {
            "shift-plain" => table::build(&shift, &limits),
            "shift-symmetric" => table::build_symmetric(&shift, &limits, table::Width::Exact),
            "flip-5x5" => table::build(&flip, &limits),
            _ => panic!("{usage}"),
        };
        best = best.min(started.elapsed());
        reachable = built.expect("fits the default budget").reachable();
    }
    println!(
        "{which} best of {repeats}: {:.2} ms, reachable {reachable}",
        best.as_secs_f64() * 1e3
    );
}
