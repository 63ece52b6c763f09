//! `statespace explore CONFIG [--from start|goals] [--json] [--plot FILE.svg] [--threads N]
//! [LIMITS]`: every state that can reach the goal, or every state the start reaches, counted by
//! distance (see [`statespace::search::layers`]).
//!
//! Prints the reachable count, the histogram, the largest distance with one board at it, the
//! rate and the peak memory: text by default, one JSON object with `--json`. `--plot` writes the
//! histogram as SVG, atomically; the file is created before the run, so an unwritable path fails
//! before any work. A limit (time, Ctrl-C, memory) prints what was found so far and exits 4, or
//! 130 for Ctrl-C, like `solve`.
//!
//! `--symmetry` also counts, per distance, the classes of states under the puzzle's symmetries
//! (a state and its images: for a permutation puzzle its conjugates by the whole-puzzle
//! rotations that keep the moves, `s ~ r⁻¹ · s · r`), during the same sweep; see
//! [`statespace::search::layers::classes`]. Refused, with the reason, where the puzzle has no
//! symmetry that keeps distances, and with `--from start` or a cluster.
//!
//! `--workers N` runs the sweep on timely-dataflow workers ([`statespace::search::cluster`]);
//! with `--processes P --process I --hostfile FILE` on P processes of N workers each, which
//! may be on different machines. Process 0 prints; the others only exit with the same code.
//!
//! Peak memory is the process's high-water mark of resident memory (`VmHWM` in
//! `/proc/self/status`): what the operating system saw, engine and everything else. Where that
//! file does not exist, the engine's own accounting (its bitsets) stands in, and the output says
//! which.

use super::atomic_output::AtomicOutput;
use super::config_arg::ConfigArg;
use super::limits::LimitArgs;
use super::progress::Progress;
use super::{Exit, write_stdout};
use indicatif::HumanCount;
use statespace::config::{ExploreFrom, MAX_THREADS};
use statespace::error::{Error, Location};
use statespace::instance::{Direction, Exploration, ExploreOptions};
use statespace::limit::{Limit, human_bytes};
use statespace::registry::Registry;
use statespace::search::cluster::{self, Cluster};
use std::fmt::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ExploreArgs {
    #[command(flatten)]
    config: ConfigArg,
    /// Where the sweep starts: `goals` (backward: every state that can reach a goal, by its
    /// fewest moves to one; puzzles with invertible moves and goals they can list) or `start`
    /// (forward: the start board's component, by distance from it; every puzzle). Overrides
    /// `[search] explore_from`; default: goals when the puzzle can, else start.
    #[arg(long, value_name = "WHERE", value_parser = ExploreFrom::NAMES)]
    from: Option<String>,
    /// Also count the symmetry classes at each distance (a state and its images under the
    /// puzzle's symmetries: for a permutation puzzle, its conjugates by the whole-puzzle
    /// rotations that map the moves onto themselves), backward from the goals.
    #[arg(long)]
    symmetry: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the histogram as an SVG bar chart to FILE (atomically).
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Worker threads, 1 to 1024 (overrides `[search] threads`; default: all available for
    /// spaces of a million states or more, else 1).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    threads: Option<u16>,
    /// Run on N timely-dataflow worker threads, each owning a slice of the space (in every
    /// process of a cluster; default 1 with --processes).
    #[arg(long, value_name = "N", conflicts_with = "threads",
          value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    workers: Option<u16>,
    /// Processes taking part in the sweep, each started with its own --process.
    #[arg(long, value_name = "P", requires_all = ["process", "hostfile"],
          value_parser = clap::value_parser!(u16).range(1..))]
    processes: Option<u16>,
    /// This process's index, 0 to P-1: it listens on that line of the hostfile. Process 0
    /// prints the result; the others print nothing on stdout.
    #[arg(long, value_name = "I", requires = "processes")]
    process: Option<u16>,
    /// A file of one host:port per line, process I on line I+1.
    #[arg(long, value_name = "FILE", requires = "processes")]
    hostfile: Option<String>,
    /// How long the processes wait for each other to connect (default 10s).
    #[arg(long, value_name = "DURATION", value_parser = statespace::config::parse_duration,
          requires = "processes")]
    connect_timeout: Option<std::time::Duration>,
    /// How long a peer process may send nothing before the run gives it up and fails (default
    /// 30s, at least 1s; every process sends a heartbeat five times a second).
    #[arg(long, value_name = "DURATION", value_parser = statespace::config::parse_duration,
          requires = "processes")]
    peer_timeout: Option<std::time::Duration>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// The cluster the flags describe, if any: `--workers` alone is one process of N workers.
fn cluster(args: &ExploreArgs) -> Result<Option<Cluster>, Error> {
    let workers = args.workers.map_or(1, |n| n as usize);
    let (Some(processes), Some(process), Some(hostfile)) =
        (args.processes, args.process, &args.hostfile)
    else {
        return Ok(args.workers.is_some().then(|| Cluster::local(workers)));
    };
    let text = super::read_input(hostfile)?;
    let mut cluster = Cluster::from_hostfile(
        workers,
        processes as usize,
        process as usize,
        hostfile,
        &text,
    )?;
    if let Some(timeout) = args.connect_timeout {
        cluster.connect_timeout = timeout;
    }
    if let Some(timeout) = args.peer_timeout {
        if timeout < cluster::MIN_PEER_TIMEOUT {
            return Err(Error::input(
                Location::flag("--peer-timeout"),
                format!(
                    "{} is too short: at least {}",
                    humantime::format_duration(timeout),
                    humantime::format_duration(cluster::MIN_PEER_TIMEOUT)
                ),
            ));
        }
        cluster.peer_timeout = timeout;
    }
    Ok(Some(cluster))
}

pub fn run(args: ExploreArgs, registry: &Registry) -> Result<Exit, Error> {
    let config = args.config.load()?;
    // The limits first: the clock and Ctrl-C cover the puzzle's setup too.
    let limits = args.limits.resolve(Some(&config))?;
    let instance = args.config.build(registry, &config, &limits)?;
    let threads = match args.threads {
        Some(n) => Some(n as usize),
        None => config.threads()?,
    };
    let cluster = cluster(&args)?;
    // Only process 0 speaks: the others compute the same sweep and print nothing on stdout.
    let prints = cluster.as_ref().is_none_or(|c| c.process == 0);
    let plot = match prints {
        true => (args.plot.as_deref())
            .map(|path| AtomicOutput::create(path, &limits))
            .transpose()?,
        false => None,
    };

    let from = match &args.from {
        Some(name) => Some(name.parse().expect("clap checked the name")),
        None => config.explore_from()?,
    };
    let options = ExploreOptions {
        from,
        limits,
        threads,
        cluster,
        symmetry: args.symmetry,
    };
    let mut progress = Progress::new("explore");
    let exploration = instance.explore(config.start_board().as_ref(), &options, &mut |d, n| {
        progress.update(d, n)
    })?;
    progress.finish();

    let memory = PeakMemory::measure(&exploration);
    if prints {
        let out = match args.json {
            true => format!("{}\n", json(&exploration, &memory)),
            false => text(&exploration, &memory),
        };
        write_stdout(&out)?;
    }
    if let Some(file) = plot
        && let Some(svg) = plot_of(&exploration)
    {
        file.commit(svg.as_bytes())?;
    }
    Ok(match exploration.stopped {
        None => Exit::Ok,
        Some(Limit::Interrupted) => Exit::Interrupted,
        Some(_) => Exit::LimitReached,
    })
}

/// The histogram of `exploration` as an SVG bar chart (`--plot`), or `None` when it has no
/// layer (refused before the first).
pub(crate) fn plot_of(exploration: &Exploration) -> Option<String> {
    if exploration.histogram.is_empty() {
        return None;
    }
    let x_label = match exploration.direction {
        Direction::Backward => "fewest moves to the goal",
        Direction::Forward => "fewest moves from the start",
    };
    let title = format!("{}: states by distance", exploration.description);
    let counts = &exploration.histogram;
    Some(statespace::plot::histogram_svg(
        &title, x_label, "states", counts,
    ))
}

/// The peak memory figure and where it came from.
struct PeakMemory {
    bytes: u64,
    source: &'static str,
}

impl PeakMemory {
    fn measure(exploration: &Exploration) -> PeakMemory {
        match vm_hwm() {
            Some(bytes) => PeakMemory {
                bytes,
                source: "VmHWM",
            },
            None => PeakMemory {
                bytes: exploration.engine_bytes,
                source: "engine",
            },
        }
    }
}

/// The process's peak resident memory, from `/proc/self/status` (Linux).
fn vm_hwm() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn states_per_second(exploration: &Exploration) -> f64 {
    let seconds = exploration.stats.elapsed.as_secs_f64();
    if seconds > 0.0 {
        exploration.reachable() as f64 / seconds
    } else {
        0.0
    }
}

/// `65,536`, or `2^64` for a power of two too long to read as digits.
fn space_size(size: u128) -> String {
    if size.is_power_of_two() && size > 1 << 40 {
        format!("2^{}", size.trailing_zeros())
    } else {
        HumanCount(size.min(u64::MAX as u128) as u64).to_string()
    }
}

fn text(e: &Exploration, memory: &PeakMemory) -> String {
    let mut out = String::new();
    let from = match e.direction {
        Direction::Backward => "backward from the goal set",
        Direction::Forward => "forward from the start",
    };
    let threads = match &e.cluster {
        Some(c) => format!(
            "{} timely workers in {} process{}",
            c.workers,
            c.processes,
            if c.processes == 1 { "" } else { "es" }
        ),
        None if e.threads == 1 => "1 thread".into(),
        None => format!("{} threads", e.threads),
    };
    writeln!(
        out,
        "explore: {}, {from}, {}, {threads}",
        e.description, e.strategy
    )
    .unwrap();
    if let Some(why) = &e.no_index {
        writeln!(
            out,
            "no dense index: {why}; swept with a hash set, as far as the memory budget allows"
        )
        .unwrap();
    }
    if let Some(classes) = &e.classes {
        writeln!(
            out,
            "symmetry: {} symmetries, the identity included; a class is a state and its images",
            classes.symmetries
        )
        .unwrap();
    }
    // Classes counted for fewer layers than the sweep found: a limit stopped their count.
    let uncounted = e
        .classes
        .as_ref()
        .filter(|c| c.histogram.len() < e.histogram.len());
    match &e.stopped {
        Some(limit) if uncounted.is_some() => writeln!(
            out,
            "stopped: {limit}, while counting the classes at depth {}; the depths above it are \
             complete",
            e.histogram.len() - 1
        )
        .unwrap(),
        // The layer being found is dropped: every depth listed is complete.
        Some(limit) if !matches!(limit, Limit::Depth(_)) && !e.histogram.is_empty() => writeln!(
            out,
            "stopped: {limit}, while finding depth {}; the depths below are complete",
            e.histogram.len()
        )
        .unwrap(),
        Some(limit) => writeln!(out, "stopped: {limit}").unwrap(),
        None => {}
    }
    let so_far = if e.stopped.is_some() { " so far" } else { "" };
    // A space with no dense index has no size to compare with (0).
    let of = match e.space_size {
        0 => String::new(),
        size => format!(" of {}", space_size(size)),
    };
    let classes = match &e.classes {
        Some(c) => format!(", {} classes", HumanCount(c.total())),
        None => String::new(),
    };
    writeln!(
        out,
        "reachable: {}{of} states{classes}{so_far}",
        HumanCount(e.reachable()),
    )
    .unwrap();
    if !e.histogram.is_empty() {
        let width = HumanCount(*e.histogram.iter().max().unwrap())
            .to_string()
            .len();
        // The class column's header is wider than a small space's counts.
        let width = match e.classes {
            Some(_) => width.max("classes".len()),
            None => width,
        };
        let header = match e.classes {
            Some(_) => format!("{:>width$}  {:>width$}", "states", "classes"),
            None => format!("{:>width$}", "states"),
        };
        writeln!(out, "distance  {header}").unwrap();
        for (d, n) in e.histogram.iter().enumerate() {
            let n = HumanCount(*n).to_string();
            // A depth whose classes were not counted (a limit stopped the count) shows `-`.
            let classes = match e.classes.as_ref().map(|c| c.histogram.get(d)) {
                Some(Some(k)) => format!("  {:>width$}", HumanCount(*k).to_string()),
                Some(None) => format!("  {:>width$}", "-"),
                None => String::new(),
            };
            writeln!(out, "{d:>8}  {n:>width$}{classes}").unwrap();
        }
    }
    if let Some(board) = &e.farthest {
        writeln!(out, "max distance: {}, e.g.", e.histogram.len() - 1).unwrap();
        for line in board.lines() {
            writeln!(out, "  {line}").unwrap();
        }
    }
    writeln!(
        out,
        "elapsed {:.3} s, {} states/s, peak memory {} ({}; engine {} {})",
        e.stats.elapsed.as_secs_f64(),
        HumanCount(states_per_second(e) as u64),
        human_bytes(memory.bytes as u128),
        memory.source,
        // A space with no dense index is swept with a hash set instead of bitsets.
        if e.space_size == 0 {
            "hash set"
        } else {
            "bitsets"
        },
        human_bytes(e.engine_bytes as u128)
    )
    .unwrap();
    if let Some(c) = &e.classes {
        writeln!(
            out,
            "classes counted in {:.3} s of the elapsed time",
            c.elapsed.as_secs_f64()
        )
        .unwrap();
    }
    if let Some(c) = &e.cluster {
        writeln!(
            out,
            "exchanged {} between workers ({:.2} bytes per state)",
            human_bytes(c.exchanged_bytes as u128),
            c.exchanged_bytes as f64 / e.reachable().max(1) as f64
        )
        .unwrap();
    }
    out
}

fn json(e: &Exploration, memory: &PeakMemory) -> String {
    json_value(e, memory).to_string()
}

/// The `--json` object of an exploration, with the process's peak memory measured now (what
/// [`crate::exploration_json`] hands to other front ends).
pub(crate) fn json_of(e: &Exploration) -> serde_json::Value {
    json_value(e, &PeakMemory::measure(e))
}

fn json_value(e: &Exploration, memory: &PeakMemory) -> serde_json::Value {
    serde_json::json!({
        "puzzle": e.description,
        "direction": e.direction,
        "strategy": e.strategy,
        // A u64 when it fits (2^64 itself does not): JSON readers take larger numbers as floats.
        // null for a space with no dense index (swept with a hash set).
        "space_size": match e.space_size {
            0 => serde_json::Value::Null,
            size => u64::try_from(size).map_or_else(|_| serde_json::Value::from(size as f64), serde_json::Value::from),
        },
        "complete": e.stopped.is_none(),
        "limit": e.stopped.as_ref().map(|l| l.to_string()),
        // The depth the sweep was finding when a limit stopped it (not a depth limit: that
        // ends it after the last depth asked for).
        "stopped_at_depth": match e.stopped {
            None | Some(Limit::Depth(_)) => None,
            Some(_) => Some(e.histogram.len()),
        },
        "no_index": e.no_index,
        "reachable": e.reachable(),
        "histogram": e.histogram,
        "max_distance": e.histogram.len().checked_sub(1),
        "example_farthest": e.farthest,
        "states_per_second": states_per_second(e),
        "peak_memory_bytes": memory.bytes,
        "peak_memory_source": memory.source,
        "engine_memory_bytes": e.engine_bytes,
        "elapsed": e.stats.elapsed.as_secs_f64(),
        "threads": e.threads,
        "cluster": e.cluster,
        // With --symmetry: the classes by distance (one entry per layer whose classes were
        // counted), their sum, the group's order and the seconds spent counting.
        "classes": e.classes.as_ref().map(|c| serde_json::json!({
            "symmetries": c.symmetries,
            "histogram": c.histogram,
            "total": c.total(),
            "elapsed": c.elapsed.as_secs_f64(),
        })),
        "stats": e.stats,
    })
}
