//! Permutation puzzles: the pattern databases of a definition (built or loaded, with their sizes
//! and build times) and random scrambles solved optimally by IDA* over their max; every solution
//! is replayed and checked to end solved.
//!
//! A plain `main` with its own timing (harness = false): one IDA* run per scramble is the
//! measurement.
//!
//! ```text
//! cargo bench --bench perm -- [--def FILE] [--moves U,F,R] [--cache DIR] [--max-states N]
//!                             [--lengths 12,13,14] [--count K] [--seed S] [--lookups L]
//!                             [--dual]
//! ```
//!
//! - `--def`: the definition (default `configs/defs/3x3x3.tws`); `--moves` the generators.
//! - `--cache DIR`: where the databases are cached (default `pdb-cache` under the target
//!   directory); a second run loads them. `--no-cache`: build, keep nothing.
//! - `--max-states N`: the largest pattern (default 2^27, the plugin's).
//! - `--lookups L`: each database also looked up through up to `L` symmetries of the
//!   definition's rotations (`Conjugated`, what `[heuristic] symmetry = true` does with
//!   `CONJUGATE_LOOKUPS`); default 0. Needs a definition with rotations
//!   (`configs/defs/3x3x3-rotations.tws`).
//! - `--dual`: each database also looked up at the state's inverse (and through the same
//!   symmetries there), what `[heuristic] dual = true` does.
//! - `--lengths`, `--count`, `--seed`: `count` random scrambles of each length (random canonical
//!   sequences: no two turns of one face in a row, commuting faces in one order); default 12,13,14, 3 each, seed 1.

mod perm_common;

use perm_common::{arg, definition};
use statespace::cache::TableCache;
use statespace::limit::{Limits, human_bytes};
use statespace::options::SearchOptions;
use statespace::random::Lcg;
use statespace::search::pdb::Max;
use statespace::search::{Outcome, idastar};
use statespace::setup::Setup;
use statespace::space::{StateSpace, replay};
use statespace_perm::heuristic::{self, Conjugated, MAX_PATTERN_STATES, Pattern, auto_pieces};
use statespace_perm::state::{ForWidth, with_width};
use statespace_perm::{Definition, Metric, PermSpace};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The CPU time this thread has run, from `/proc/thread-self/schedstat` (nanoseconds on the CPU):
/// on a shared machine, wall time counts the other processes too.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |ns| ns / 1e9)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let (_, def, moves) = definition(&args, "configs/defs/3x3x3.tws");
    let max_states = arg(&args, "--max-states").map_or(MAX_PATTERN_STATES, |s| s.parse().unwrap());
    let lengths: Vec<usize> = arg(&args, "--lengths")
        .unwrap_or("12,13,14".into())
        .split(',')
        .map(|s| s.parse().unwrap())
        .collect();
    let count: usize = arg(&args, "--count").map_or(3, |s| s.parse().unwrap());
    let seed: u64 = arg(&args, "--seed").map_or(1, |s| s.parse().unwrap());
    let lookups: usize = arg(&args, "--lookups").map_or(0, |s| s.parse().unwrap());
    let dir = arg(&args, "--cache").map_or(root.join("target/pdb-cache"), PathBuf::from);
    let dual = args.iter().any(|a| a == "--dual");
    let cached = !args.iter().any(|a| a == "--no-cache");
    let cache = TableCache::new(cached.then_some(dir), cached, |w| eprintln!("{w}"));
    let bytes = def.state_bytes();
    let run = Run {
        def,
        moves,
        max_states,
        cache: &cache,
        lengths: &lengths,
        count,
        seed,
        lookups,
        dual,
    };
    with_width(bytes, run).unwrap_or_else(|| panic!("a state of {bytes} bytes is too large"));
}

/// One run of the bench, at the definition's state width.
struct Run<'a> {
    def: Definition,
    moves: Option<Vec<String>>,
    max_states: u64,
    cache: &'a TableCache,
    lengths: &'a [usize],
    count: usize,
    seed: u64,
    lookups: usize,
    dual: bool,
}

impl ForWidth for Run<'_> {
    type Output = ();

    fn run<const N: usize>(self) {
        run::<N>(self)
    }
}

fn run<const N: usize>(run: Run) {
    let Run {
        def,
        moves,
        max_states,
        cache,
        lengths,
        count,
        seed,
        lookups,
        dual,
    } = run;
    let at = statespace::error::Location::file("bench");
    let mut setup = Setup::default();
    let powers = def
        .generators(moves.as_deref(), Metric::Htm, &at, &mut setup)
        .unwrap_or_else(|e| panic!("{e}"));
    let space =
        PermSpace::<N>::new(def, &powers, false, &mut setup).unwrap_or_else(|e| panic!("{e}"));
    let patterns: Vec<Pattern> = auto_pieces(&space, max_states)
        .iter()
        .map(|p| Pattern::new(&space, p).unwrap())
        .collect();
    let started = Instant::now();
    let cpu = cpu_seconds();
    let pdb = heuristic::heuristic::<N>(patterns, &Limits::default(), Some(cache))
        .unwrap_or_else(|e| panic!("{e}"));
    let pdb = Max::new(
        pdb.into_parts()
            .into_iter()
            .map(|db| Conjugated::new(&space, db, lookups, dual))
            .collect(),
    );
    let mut total = 0;
    for conjugated in pdb.parts() {
        let db = conjugated.database();
        let t = db.table();
        total += t.bytes();
        println!(
            "pattern {}: {} states, {} ({} bits), max distance {}, mean {:.3}, {:?} in {:.1} s, {} more look-ups{}",
            db.abstraction().name(),
            t.len(),
            human_bytes(t.bytes() as u128),
            t.bits_per_entry(),
            t.max_distance().unwrap_or(0),
            {
                let h = t.histogram();
                let sum: u64 = h.iter().enumerate().map(|(d, &n)| d as u64 * n).sum();
                sum as f64 / h.iter().sum::<u64>().max(1) as f64
            },
            db.source(),
            db.took().as_secs_f64(),
            conjugated.through().len(),
            if conjugated.dual() { ", dual" } else { "" }
        );
    }
    println!(
        "databases: {} in {:.1} s ({:.1} s CPU)",
        human_bytes(total as u128),
        started.elapsed().as_secs_f64(),
        cpu_seconds() - cpu
    );
    let mut rng = Lcg(seed);
    let names = space.moves().to_vec();
    for &length in lengths {
        for _ in 0..count {
            let mut scramble = Vec::new();
            while scramble.len() < length {
                let m = names[rng.below(names.len())];
                if scramble.last().is_none_or(|&p| space.may_follow(p, m)) {
                    scramble.push(m);
                }
            }
            let start = scramble
                .iter()
                .fold(space.solved(), |s, &m| space.apply(s, m));
            let cpu = cpu_seconds();
            let report = idastar::solve(
                &space,
                &pdb,
                start,
                &Limits::default(),
                &SearchOptions::default(),
            );
            let cpu = cpu_seconds() - cpu;
            let Outcome::Solved(path) = &report.outcome else {
                panic!("{:?}", report.outcome)
            };
            let end = replay(&space, start, &path.moves()).expect("the moves replay");
            assert!(space.is_goal(end));
            let text: Vec<String> = scramble.iter().map(|m| m.to_string()).collect();
            let answer: Vec<String> = path.moves().iter().map(|m| m.to_string()).collect();
            println!(
                "scramble {length} [{}]: optimal {} [{}], expanded {}, generated {}, {:.2} s ({:.2} s CPU)",
                text.join(" "),
                path.len(),
                answer.join(" "),
                report.stats.expanded,
                report.stats.generated,
                report.stats.elapsed.as_secs_f64(),
                cpu
            );
        }
    }
}
