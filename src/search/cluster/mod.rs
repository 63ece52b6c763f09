//! The whole-space sweep of [`layers`] on timely dataflow: worker threads in one process, or
//! processes on several machines, each worker holding one slice of the bitsets. The same
//! machinery (connections, greeting, framing checks, heartbeats, faults) also carries IDA*
//! across processes ([`idastar::cluster`](crate::search::idastar::cluster)), whose search runs
//! on the caller's threads while one timely worker per process relays what the processes say
//! (`rounds.rs`).
//!
//! # Overview
//!
//! The dense index is cut into contiguous **partitions**, one per worker (blocks of up to
//! [`CHUNK_WORDS`] words, the same number of blocks each, give or take one). A worker keeps
//! `frontier`, `next` and `visited` for its partition only, so a process holds about `1/P` of
//! the three bitsets, checked against its own [`Limits::memory_budget`] before anything is
//! allocated. A layer is two timely rounds (epochs of one input), each closed by a probe:
//!
//! 1. **expand**: every worker expands its frontier. Successors it owns go straight into its
//!    `next`; the others are sent to their owner through timely's exchange (routed by the
//!    destination worker), batched: for [`XorMoves`] spaces as 1,024-word blocks of the
//!    owner's `next` (64 states a word; an empty block is not sent), otherwise as sorted,
//!    delta-coded indices. When the probe passes the round, every worker has finished expanding and every
//!    batch has been merged into its owner's `next`: timely's progress tracking says so, there
//!    is no counting of our own.
//! 2. **sum**: every worker merges `next` into `visited` (what is new becomes the frontier) and
//!    sends everyone the layer's count, lowest index, successors generated and any limit that
//!    stopped it. Each worker sums the same summaries in the same order, so all of them take
//!    the same decision (go on, stop at a limit, done) without a coordinator.
//!
//! The histogram, the farthest state (the lowest index of the last layer) and the stats are the
//! single-process engine's exactly: the sets are the same, only their storage is cut up.
//!
//! # Expansion
//!
//! Word-at-a-time spaces reuse the layers engine's pull (`XorWords::pull`): a worker computes
//! each block of its `next` from the frontier blocks it holds, and for the blocks of another
//! worker's `next` that its frontier reaches (a move that changes the index's top bits) it
//! computes the same block from its own frontier and sends it. Contiguous partitions keep that
//! traffic small: on Flip only the presses next to the last cells change the top bits (3 of
//! 30 on 6 x 5 split in two). Any other [`Indexed`] space expands state by state and sends the
//! successors it does not own as indices, 1,024 to a batch, sorted and coded as varints of
//! their differences: 1 to 4 bytes an index instead of 8 (1.07 on the 3 x 4 sliding puzzle's
//! first 26 layers, whose boards have close ranks).
//!
//! # Faults
//!
//! Processes meet over TCP before timely starts: each listens on its hostfile line, connects
//! to the processes before it and accepts the ones after, and every pair checks a fingerprint
//! of the sweep (space size, processes, workers, sources), so a peer started with another
//! config is refused. A peer that has not connected (or not greeted) within
//! [`Cluster::connect_timeout`] ends the run with a [`Fault`]. Once running, a peer that dies
//! closes its sockets; timely's network threads then panic ("timely communication error"). A
//! panic hook installed here keeps those panics quiet, records the first as the fault and tells
//! the workers to give up, and the sweep returns it within a tenth of a second instead of
//! waiting for workers that can no longer finish.
//!
//! A peer that stops without closing its sockets (stopped with SIGSTOP, a frozen machine, a
//! cable pulled, a program that greets and then says nothing) is found by silence: every
//! process sends the others a heartbeat five times a second whatever it is doing, and the
//! sockets timely reads and writes time out after [`Cluster::peer_timeout`] (30 s by default),
//! which ends the run like a closed socket (`lost process 1 (10.0.0.2:4001): reading data: it
//! sent nothing for 30s`).
//!
//! What a peer sends is checked before timely reads it (`framing.rs`): a message header that does
//! not come from the peer's workers or is not for this process's, or that announces a message
//! longer than a twelfth of the memory budget per peer, ends the run with one line naming the
//! peer and what it sent (`process 1 (10.0.0.2:4001) announced a message of 1.0 TiB
//! (1099511627776 bytes), more than the 21.3 MiB a peer's message may take within the memory
//! budget of 256.0 MiB`), so that timely's receive buffers stay within a quarter of the budget.
//!
//! # Limits
//!
//! Every worker counts its work on a [`Ticker`] of the process's [`Latch`] (the time limit
//! counts from the start of the run in each process) and polls it between stretches of a few
//! thousand successors, when it also takes in its peers' messages and sends its heartbeat. A
//! worker that meets a limit (time, Ctrl-C) skips the rest of its expansion, tells every worker
//! to stop (a `Halt`, which they latch at their next poll) and says so in its summary; every
//! worker then stops at the end of that layer, the interrupted layer dropped as in [`layers`].
//! A worker that stopped waits half a second at most for its peers at a barrier;
//! then it leaves them behind and returns the layers completed, so that the limit holds
//! whatever they do (a peer left behind sees this process vanish, and exits 2). The process's
//! main thread keeps the same watch over its workers, should they be too many for the cores to
//! come back in time: it then reports the layers its first worker published. The workers' own
//! cost (threads and channel buffers, about 4 KiB per pair of workers:
//! [`Cluster::workers_bytes`]) is checked against the budget before any of them starts.
//!
//! # Trade-offs
//!
//! - Two barriers per layer: a few milliseconds on loopback, nothing next to a layer of
//!   millions of states, but long thin searches pay it for every layer.
//! - Blocks of words go whole, even when few of their states are successors: 8 KiB for 65,536
//!   states, which beats 8-byte indices once one state in 64 of a block is reached (a dense
//!   layer reaches most); sparse layers send few blocks anyway. The bytes exchanged per state
//!   are measured in BENCHMARKS.md, "Cluster explore (timely)".
//! - Each worker is one thread; `--workers` is how a process uses several cores (the word
//!   pull within a worker runs no pool of its own).
//! - A silent peer is told from a slow one by its heartbeats, which a process sends when it
//!   polls; a process that does not poll for longer than the peer timeout (a merge of
//!   gigabytes of bitsets on a very slow machine) would be taken for lost. The default timeout,
//!   30 s, is far above that.
//! - Messages in flight are not counted against the budget: at most about one `next` slice per
//!   layer, while a worker is busy expanding. What bounds them against a peer gone wrong is the
//!   cap on each message (`framing.rs` says why that bounds timely's buffers, and what it leaves).
//! - The panic hook is process-wide and stays installed (it passes every panic outside timely's
//!   threads to the previous hook); one cluster sweep runs in a process at a time.
//!
//! # Files
//!
//! | file | holds |
//! |---|---|
//! | `mod.rs` | [`Cluster`] (from the flags and a hostfile), the results, the entry points |
//! | `launch.rs` | timely started: the processes connected, the workers given a body, the shutdown |
//! | `run.rs` | one process's sweep: its checks, its workers, the wait for them, a fault or a limit |
//! | `rounds.rs` | a search in rounds (IDA* across processes): the coordinator and the exchange |
//! | `net.rs` | the TCP connections: handshake and fingerprint, sockets that time out on silence |
//! | `framing.rs` | timely's framing checked as a peer's bytes arrive, and the cap on a message |
//! | `fault.rs` | the panic hook that turns a lost peer into a [`Fault`] |
//! | `worker.rs` | one worker's sweep: its rounds, barriers, polls and heartbeats |
//! | `part.rs` | a worker's slice of the bitsets, and what it does with the messages it receives |
//! | `expand.rs` | one layer's expansion: state by state, or blocks of XOR words |
//! | `plan.rs` | the cut of the index into blocks and of the blocks among the workers |
//! | `wire.rs` | the messages workers send each other, and the coding of successor indices |
//!
//! [`CHUNK_WORDS`]: crate::search::layers::CHUNK_WORDS
//! [`layers`]: crate::search::layers
//! [`Ticker`]: crate::limit::Ticker
//! [`Latch`]: crate::limit::Latch

// The runner: timely, its network and its workers. Only with the cargo feature `cluster` (on in
// the command line as shipped, off in the Python package and the core by default: timely adds
// some 25 crates to a build); without it the entry points below refuse with one line.
#[cfg(feature = "cluster")]
mod expand;
#[cfg(feature = "cluster")]
mod fault;
#[cfg(feature = "cluster")]
mod framing;
#[cfg(feature = "cluster")]
mod launch;
#[cfg(feature = "cluster")]
mod net;
#[cfg(feature = "cluster")]
mod part;
#[cfg(feature = "cluster")]
mod plan;
#[cfg(feature = "cluster")]
pub(crate) mod rounds;
#[cfg(feature = "cluster")]
mod run;
#[cfg(feature = "cluster")]
mod wire;
#[cfg(feature = "cluster")]
mod worker;

use super::layers::Layers;
#[cfg(feature = "cluster")]
use super::layers::{self, XorWords};
use crate::limit::Limits;
use crate::space::{GoalSet, Indexed, Invertible, XorMoves};
#[cfg(feature = "cluster")]
use expand::{PerState, Pull};
#[cfg(feature = "cluster")]
use run::run;
use serde::Serialize;

/// Whether this build can run a cluster sweep (the cargo feature `cluster`). Without it,
/// [`forward`], [`backward`] and [`xor_backward`] answer [`NOT_BUILT`] as their fault, and a
/// front end should refuse the flags before any work.
pub const BUILT: bool = cfg!(feature = "cluster");

/// What a sweep on a cluster answers in a build without the cargo feature `cluster`.
pub const NOT_BUILT: &str = "this build has no cluster sweep: rebuild with the cargo feature `cluster` (statespace-cli has it by default)";
use std::sync::Arc;

pub use crate::processes::{
    Cluster, DEFAULT_CONNECT_TIMEOUT, DEFAULT_PEER_TIMEOUT, MIN_PEER_TIMEOUT,
};

/// A peer that never connected or went away, or refused the sweep (defined with the error type,
/// which carries it as [`Error::Cluster`](crate::error::Error::Cluster)).
pub use crate::error::Fault;

/// How the cluster ran, next to the sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Processes taking part.
    pub processes: usize,
    /// This process's index.
    pub process: usize,
    /// Workers in all processes.
    pub workers: usize,
    /// Bytes of states all workers sent to others (blocks of words, or indices), summed over
    /// the cluster; the small per-layer summaries are not counted.
    pub exchanged_bytes: u64,
}

/// What a cluster sweep found: the single-process engine's [`Layers`] (with `threads` this
/// process's workers and `memory_bytes` this process's bitsets), and how the cluster ran.
#[derive(Clone, Debug)]
pub struct Swept<S> {
    /// The sweep, as the [layer engine](crate::search::layers) reports it.
    pub layers: Layers<S>,
    /// Processes, workers, traffic.
    pub report: Report,
}

/// [The forward sweep](crate::search::layers::forward) on `cluster`.
pub fn forward<P: Indexed + Send + Sync + 'static>(
    space: Arc<P>,
    start: P::State,
    cluster: &Cluster,
    limits: &Limits,
) -> Result<Swept<P::State>, Fault> {
    #[cfg(feature = "cluster")]
    return {
        let sources = vec![space.index(start)];
        let expand = PerState {
            space: space.clone(),
        };
        run(space, sources, expand, cluster, limits)
    };
    #[cfg(not(feature = "cluster"))]
    Err(not_built((space, start, cluster, limits)))
}

/// [The backward sweep](crate::search::layers::backward) on `cluster`.
pub fn backward<P: Indexed + Invertible + GoalSet + Send + Sync + 'static>(
    space: Arc<P>,
    cluster: &Cluster,
    limits: &Limits,
) -> Result<Swept<P::State>, Fault> {
    #[cfg(feature = "cluster")]
    return {
        let sources = layers::goal_indices(&*space);
        let expand = PerState {
            space: space.clone(),
        };
        run(space, sources, expand, cluster, limits)
    };
    #[cfg(not(feature = "cluster"))]
    Err(not_built((space, cluster, limits)))
}

/// [The XOR sweep backward](crate::search::layers::xor_backward) on `cluster`: blocks of
/// 64-state words.
pub fn xor_backward<P: XorMoves + GoalSet + Send + Sync + 'static>(
    space: Arc<P>,
    cluster: &Cluster,
    limits: &Limits,
) -> Result<Swept<P::State>, Fault> {
    #[cfg(feature = "cluster")]
    return {
        let sources = layers::goal_indices(&*space);
        let expand = Pull(XorWords::new(&*space));
        run(space, sources, expand, cluster, limits)
    };
    #[cfg(not(feature = "cluster"))]
    Err(not_built((space, cluster, limits)))
}

/// The fault of a build without the runner (the arguments taken only to be let go).
#[cfg(not(feature = "cluster"))]
fn not_built<T>(_: T) -> Fault {
    Fault(NOT_BUILT.to_string())
}

#[cfg(all(test, feature = "cluster"))]
mod tests {
    use super::*;
    use crate::limit::Limit;
    use crate::toys::{Lights, LightsGoal};
    use std::time::{Duration, Instant};

    fn flip(rows: u32, cols: u32) -> Arc<Lights> {
        Arc::new(Lights::new(rows, cols, false, LightsGoal::Uniform))
    }

    #[test]
    fn workers_in_one_process_find_what_one_thread_finds() {
        let limits = Limits::default();
        for (rows, cols) in [(2, 3), (4, 4), (3, 5)] {
            let space = flip(rows, cols);
            let options = layers::Options {
                limits: &limits,
                threads: Some(1),
            };
            let expected = layers::xor_backward(&*space, options, &mut |_, _| {});
            for workers in [1, 2, 3] {
                let cluster = Cluster::local(workers);
                let sweeps = [
                    xor_backward(space.clone(), &cluster, &limits).unwrap(),
                    backward(space.clone(), &cluster, &limits).unwrap(),
                ];
                for swept in sweeps {
                    let found = swept.layers;
                    assert_eq!(
                        found.histogram, expected.histogram,
                        "{rows}x{cols} {workers}"
                    );
                    assert_eq!(found.farthest, expected.farthest);
                    assert_eq!(found.stopped, None);
                    assert_eq!(
                        (found.stats.expanded, found.stats.generated),
                        (expected.stats.expanded, expected.stats.generated)
                    );
                    assert_eq!(found.stats.peak_frontier, expected.stats.peak_frontier);
                    assert_eq!(found.stats.depth, expected.stats.depth);
                    assert_eq!(found.memory_bytes, expected.memory_bytes);
                }
            }
        }
    }

    #[test]
    fn limits_stop_every_worker_at_the_same_layer() {
        let space = flip(4, 4);
        let limits = Limits {
            max_depth: Some(2),
            ..Limits::default()
        };
        let swept = xor_backward(space.clone(), &Cluster::local(2), &limits).unwrap();
        assert_eq!(swept.layers.histogram, vec![2, 32, 228]);
        assert_eq!(swept.layers.stopped, Some(Limit::Depth(2)));
        // Each process checks its own share: here one process holds all 3 x 8 KiB, beside
        // what its two workers cost.
        let workers = Cluster::local(2).workers_bytes();
        let budget = (workers + 1000) as u64;
        let limits = Limits {
            memory_budget: budget,
            ..Limits::default()
        };
        let swept = backward(space, &Cluster::local(2), &limits).unwrap();
        assert!(swept.layers.histogram.is_empty());
        assert_eq!(
            swept.layers.stopped,
            Some(Limit::Memory {
                needed: 3 * 8192 + workers,
                budget
            })
        );
    }

    #[test]
    fn workers_that_would_pass_the_budget_are_refused_before_they_start() {
        // A thousand workers: a buffer for each pair of them, gigabytes in all.
        let many = Cluster::local(1024);
        assert!(many.workers_bytes() > 4 << 30, "{}", many.workers_bytes());
        let limits = Limits {
            memory_budget: 100 << 20,
            ..Limits::default()
        };
        let started = Instant::now();
        let swept = xor_backward(flip(4, 4), &many, &limits).unwrap();
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(
            swept.layers.stopped,
            Some(Limit::Memory {
                needed: many.workers_bytes(),
                budget: 100 << 20
            })
        );
        assert!(swept.layers.histogram.is_empty());
        // Across processes, every worker of the cluster counts: 8 x 4 workers cost more than 8.
        let mut spread = Cluster::local(8);
        spread.addresses = vec![String::new(); 4];
        assert!(spread.workers_bytes() > Cluster::local(8).workers_bytes());
    }

    #[test]
    fn a_bad_hostfile_is_one_line_naming_the_line() {
        let ok = Cluster::from_hostfile(1, 2, 1, "hosts", "a:1\nb:2\n\n").unwrap();
        assert_eq!(ok.addresses, ["a:1", "b:2"]);
        let error = |processes, process, text| {
            Cluster::from_hostfile(1, processes, process, "hosts", text)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            error(2, 0, "a:1\nb"),
            "hosts:2: expected host:port, found `b`"
        );
        assert_eq!(
            error(2, 0, "a:1\n\nb:2"),
            "hosts:2: expected host:port, found ``"
        );
        assert_eq!(
            error(2, 0, "a:x\nb:2"),
            "hosts:1: expected host:port, found `a:x`"
        );
        assert!(error(3, 0, "a:1\nb:2").starts_with("hosts: 2 addresses for --processes 3"));
        assert_eq!(
            error(2, 2, "a:1\nb:2"),
            "--process: 2 is out of range for --processes 2 (0 to 1)"
        );
    }
}
