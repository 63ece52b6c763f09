//! `statespace explore CONFIG [--from start|goals] [--json] [--plot FILE.svg] [--threads N]
//! [LIMITS]`: every state that can reach the goal, or every state the start reaches, counted by
//! distance (see [`statespace::search::layers`]).
//!
//! Prints the reachable count, the histogram, the largest distance with one board at it, the
//! rate and the peak memory: text by default, one JSON object with `--json`
//! ([`statespace_records::exploration`] lays them out). `--plot` writes the
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
//! Peak memory is the process's high-water mark of resident memory, measured once the sweep is
//! over ([`PeakMemory`]).

use super::atomic_output::AtomicOutput;
use super::cluster_args::ClusterArgs;
use super::config_arg::ConfigArg;
use super::exit::Exit;
use super::limits::LimitArgs;
use super::progress::Progress;
use super::stdio::write_stdout;
use statespace::config::{ExploreFrom, MAX_THREADS};
use statespace::error::{Error, Location};
use statespace::instance::ExploreOptions;
use statespace::limit::Limit;
use statespace::registry::Registry;
use statespace::search::cluster::{self, Cluster};
use statespace_records::exploration::{self as record, PeakMemory};
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
    #[command(flatten)]
    cluster: ClusterArgs,
    #[command(flatten)]
    limits: LimitArgs,
}

/// The cluster the flags describe, if any: `--workers` alone is one process of N workers.
fn cluster(args: &ExploreArgs) -> Result<Option<Cluster>, Error> {
    if !cluster::BUILT && args.workers.is_some() {
        return Err(Error::input(
            Location::flag("--workers"),
            cluster::NOT_BUILT,
        ));
    }
    let workers = args.workers.map_or(1, |n| n as usize);
    let processes = args.cluster.cluster(workers)?;
    Ok(processes.or_else(|| args.workers.is_some().then(|| Cluster::local(workers))))
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
            true => format!("{}\n", record::json(&exploration, &memory)),
            false => record::text(&exploration, &memory),
        };
        write_stdout(&out)?;
    }
    if let Some(file) = plot
        && let Some(svg) = record::svg(&exploration)
    {
        file.commit(svg.as_bytes())?;
    }
    Ok(match exploration.stopped {
        None => Exit::Ok,
        Some(Limit::Interrupted) => Exit::Interrupted,
        Some(_) => Exit::LimitReached,
    })
}
