//! The 15-puzzle heuristics on Korf's 100 random instances (tests/cases/korf100.txt), side by side
//! in one run: IDA* with Manhattan distance, linear conflict, the 6-6-3 and 7-8 additive pattern
//! databases (7-8 with the diagonal reflection), and the `pathfinding` crate's `idastar` with
//! Manhattan distance on the same instances. Every solution is checked: its length against the
//! optimal length in the file, its moves replayed.
//!
//! A plain `main` with its own timing (harness = false): one IDA* run per instance is the
//! measurement, and criterion's repetitions would take hours.
//!
//! ```text
//! cargo bench --bench tiles -- [--cache DIR] [--only NAMES] [--easiest N] [--manhattan N]
//!                              [--pathfinding N] [--lc N] [--transpositions off|auto|SIZE]
//! ```
//!
//! - `--cache DIR`: where the databases are cached (default: a `pdb-cache` directory under the
//!   target directory); a second run loads them.
//! - `--only`: a comma-separated subset of `manhattan,lc,663,78,pathfinding` (`pathfinding`: ours
//!   and the crate's IDA* with Manhattan on the same instances; `pf-only`: the crate's alone, for
//!   instruction counts under callgrind).
//! - `--easiest N`: the instances for 6-6-3 and 7-8 are the N easiest by Korf's node count
//!   (default all 100).
//! - `--manhattan N`, `--pathfinding N`, `--lc N`: the N easiest for those (default 10, 5, 100).
//! - `--transpositions off|auto|SIZE`: our IDA*'s transposition table (default auto, as the
//!   command line's); BENCHMARKS.md compares `off` and `auto` on Klotski.

use statespace::cache::TableCache;
use statespace::config::parse_transpositions;
use statespace::limit::{Limits, human_bytes};
use statespace::options::SearchOptions;
use statespace::options::Transpositions;
use statespace::search::{Outcome, idastar};
use statespace::space::{Heuristic, StateSpace, replay};
use statespace_tiles::board::from_blank_first;
use statespace_tiles::heuristic::{
    self, LinearConflict, Manhattan, SPLIT_6_6_3, SPLIT_7_8, TilePdb,
};
use statespace_tiles::{Board, Tiles};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// One of Korf's instances: its number, optimal length, Korf's node count, and the board in our
/// convention.
struct Instance {
    id: u32,
    optimal: u32,
    korf_nodes: u64,
    board: Board,
}

fn instances() -> Vec<Instance> {
    let path =
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("tests/cases/korf100.txt");
    let text = std::fs::read_to_string(path).expect("tests/cases/korf100.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let numbers: Vec<u64> = line
                .split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect();
            let cells: Vec<u8> = numbers[3..].iter().map(|&c| c as u8).collect();
            Instance {
                id: numbers[0] as u32,
                optimal: numbers[1] as u32,
                korf_nodes: numbers[2],
                board: from_blank_first(4, 4, &cells).expect("a 4 x 4 board"),
            }
        })
        .collect()
}

/// The `n` easiest instances by Korf's node count, in the file's order.
fn easiest(all: &[Instance], n: usize) -> Vec<&Instance> {
    let mut order: Vec<&Instance> = all.iter().collect();
    order.sort_by_key(|i| i.korf_nodes);
    order.truncate(n);
    order.sort_by_key(|i| i.id);
    order
}

struct Totals {
    name: String,
    instances: usize,
    expanded: u64,
    generated: u64,
    /// Repeated states the transposition table cut short.
    hits: u64,
    elapsed: Duration,
    ids: String,
    /// Korf's (1985) IDA* with Manhattan distance on the same instances: nodes generated.
    korf: u64,
}

/// Prints one row of the results table.
fn print_row(t: &Totals) {
    let secs = t.elapsed.as_secs_f64();
    println!(
        "| {} | {} | {} | {} | {} | {} | {:.2} s | {:.2} M | {} |",
        t.name,
        t.instances,
        t.expanded,
        t.generated,
        t.hits,
        t.generated / t.instances as u64,
        secs,
        t.generated as f64 / secs / 1e6,
        t.korf
    );
}

fn run<H: Heuristic<Tiles> + ?Sized>(
    name: &str,
    tiles: &Tiles,
    h: &H,
    set: &[&Instance],
    transpositions: Transpositions,
) -> Totals {
    let limits = Limits::default();
    let options = SearchOptions {
        transpositions,
        ..SearchOptions::default()
    };
    let mut totals = Totals {
        name: name.into(),
        instances: set.len(),
        expanded: 0,
        generated: 0,
        hits: 0,
        elapsed: Duration::ZERO,
        ids: ids(set),
        korf: set.iter().map(|i| i.korf_nodes).sum(),
    };
    for inst in set {
        let report = idastar::solve(tiles, h, inst.board, &limits, &options);
        let Outcome::Solved(path) = report.outcome else {
            panic!("{name}: instance {} not solved", inst.id);
        };
        assert_eq!(
            path.len() as u32,
            inst.optimal,
            "{name}: instance {}",
            inst.id
        );
        let end = replay(tiles, inst.board, &path.moves());
        assert!(end.is_some_and(|b| tiles.is_goal(b)), "{name}: replay");
        totals.expanded += report.stats.expanded;
        totals.generated += report.stats.generated;
        totals.hits += report.stats.transposition_hits;
        totals.elapsed += report.stats.elapsed;
    }
    totals
}

/// The `pathfinding` crate's IDA* with the same Manhattan distance; expansions counted in the
/// successor closure, generated nodes as the successors it returns.
fn run_pathfinding(tiles: &Tiles, h: &Manhattan, set: &[&Instance]) -> Totals {
    let mut totals = Totals {
        name: "pathfinding idastar, manhattan".into(),
        instances: set.len(),
        expanded: 0,
        generated: 0,
        hits: 0,
        elapsed: Duration::ZERO,
        ids: ids(set),
        korf: set.iter().map(|i| i.korf_nodes).sum(),
    };
    for inst in set {
        let started = Instant::now();
        let (mut expanded, mut generated) = (0u64, 0u64);
        let (path, cost) = pathfinding::directed::idastar::idastar(
            &inst.board,
            |b| {
                expanded += 1;
                let mut next = Vec::with_capacity(4);
                tiles.successors(*b, &mut |_, t| next.push((t, 1u32)));
                generated += next.len() as u64;
                next
            },
            |b| h.of(b),
            |b| tiles.is_goal(*b),
        )
        .expect("solvable");
        totals.elapsed += started.elapsed();
        assert_eq!(cost, inst.optimal, "pathfinding: instance {}", inst.id);
        assert_eq!(path.len() as u32, inst.optimal + 1);
        totals.expanded += expanded;
        totals.generated += generated;
    }
    totals
}

fn ids(set: &[&Instance]) -> String {
    if set.len() == 100 {
        return "all 100".into();
    }
    let list: Vec<String> = set.iter().map(|i| i.id.to_string()).collect();
    list.join(" ")
}

/// Builds (or loads) the databases of `split`, printing each table's size and time.
fn databases(name: &str, tiles: &Tiles, split: &[&[u8]], cache: &TableCache) -> TilePdb {
    let groups = heuristic::groups_by_goal_cells(tiles, split);
    let started = Instant::now();
    let limits = Limits {
        memory_budget: 1 << 30,
        ..Limits::default()
    };
    let h = heuristic::additive(tiles, &groups, true, &limits, Some(cache)).expect("databases");
    for db in h.databases() {
        let t = db.table();
        println!(
            "| {name} | {:?} | {} | {} bits | {} | {} | {:?} | {:.1} s |",
            db.abstraction().tiles(),
            t.len(),
            t.bits_per_entry(),
            human_bytes(t.bytes() as u128),
            t.max_distance().unwrap_or(0),
            db.source(),
            db.took().as_secs_f64()
        );
    }
    println!(
        "({name}: all tables ready in {:.1} s)",
        started.elapsed().as_secs_f64()
    );
    h
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .map(|i| args[i + 1].clone())
    };
    let number = |flag: &str, default: usize| value(flag).map_or(default, |v| v.parse().unwrap());
    let only = value("--only")
        .unwrap_or("manhattan,lc,663,78,pathfinding".into())
        .split(',')
        .map(String::from)
        .collect::<Vec<_>>();
    let wants = |name: &str| only.iter().any(|o| o == name);
    let table = value("--transpositions").map_or(Transpositions::Auto, |text| {
        parse_transpositions(&text).expect("--transpositions off|auto|SIZE")
    });
    let cache_dir = value("--cache").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("target/pdb-cache"),
        PathBuf::from,
    );
    let cache = TableCache::new(Some(cache_dir), true, |w| eprintln!("{w}"));

    let all = instances();
    let tiles = Tiles::new(4, 4, Tiles::ordered(4, 4));
    let main_set = easiest(&all, number("--easiest", 100));
    let manhattan_set = easiest(&all, number("--manhattan", 10));
    let pathfinding_set = easiest(&all, number("--pathfinding", 5));
    let lc_set = easiest(&all, number("--lc", 100));

    println!("| databases | tiles | entries | width | bytes | max | source | time |");
    println!("|---|---|---|---|---|---|---|---|");
    let pdb663 = wants("663").then(|| databases("6-6-3", &tiles, &SPLIT_6_6_3, &cache));
    let pdb78 = wants("78").then(|| databases("7-8", &tiles, &SPLIT_7_8, &cache));
    println!();

    let manhattan = Manhattan::new(&tiles);
    let mut rows = Vec::new();
    println!(
        "| heuristic | instances | expanded | generated | transposition hits | generated / instance | time | generated / s | Korf 1985 Manhattan, generated |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    if wants("manhattan") {
        rows.push(run("manhattan", &tiles, &manhattan, &manhattan_set, table));
        print_row(rows.last().unwrap());
    }
    if wants("pathfinding") {
        rows.push(run(
            "manhattan",
            &tiles,
            &manhattan,
            &pathfinding_set,
            table,
        ));
        print_row(rows.last().unwrap());
    }
    if wants("pathfinding") || wants("pf-only") {
        rows.push(run_pathfinding(&tiles, &manhattan, &pathfinding_set));
        print_row(rows.last().unwrap());
    }
    if wants("lc") {
        let lc = LinearConflict::new(&tiles);
        rows.push(run("linear conflict", &tiles, &lc, &lc_set, table));
        print_row(rows.last().unwrap());
    }
    if let Some(h) = &pdb663 {
        rows.push(run("pdb 6-6-3 reflected", &tiles, h, &main_set, table));
        print_row(rows.last().unwrap());
    }
    if let Some(h) = &pdb78 {
        rows.push(run("pdb 7-8 reflected", &tiles, h, &main_set, table));
        print_row(rows.last().unwrap());
    }
    println!();
    for t in &rows {
        println!("{} instances: {}", t.name, t.ids);
    }
}
