//! The whole-space sweep of [`layers`] on timely dataflow: worker threads in one process, or
//! processes on several machines, each worker holding one slice of the bitsets.
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
//!   layer reaches most); sparse layers send few blocks anyway. Flip 6 x 5 on two processes:
//!   2.4 bytes per state for the whole sweep (BENCHMARKS.md).
//! - Each worker is one thread; `--workers` is how a process uses several cores (the word
//!   pull within a worker runs no pool of its own).
//! - A silent peer is told from a slow one by its heartbeats, which a process sends when it
//!   polls; a process that does not poll for longer than the peer timeout (a merge of
//!   gigabytes of bitsets on a very slow machine) would be taken for lost. The default timeout,
//!   30 s, is far above that.
//! - Messages in flight are not counted against the budget: at most about one `next` slice per
//!   layer, while a worker is busy expanding.
//! - The panic hook is process-wide and stays installed (it passes every panic outside timely's
//!   threads to the previous hook); one cluster sweep runs in a process at a time.

use super::layers::{self, CHUNK_WORDS, Layers, Merged, XorWords};
use super::{Latch, Limit, Limits, Stats, Ticker};
use crate::error::{Error, Location};
use crate::space::{GoalSet, Indexed, Invertible, XorMoves};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::ops::Range;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::zero_copy::stream::Stream;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::{Input, Operator, Probe};
use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::worker::Worker;

/// How long processes wait for each other to connect unless told otherwise.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a peer may send nothing before it is given up for lost, unless told otherwise.
pub const DEFAULT_PEER_TIMEOUT: Duration = Duration::from_secs(30);

/// The shortest peer timeout allowed: several heartbeats must fit in it.
pub const MIN_PEER_TIMEOUT: Duration = Duration::from_secs(1);

/// How often a process tells every other that it is alive, when it has nothing else to say.
const HEARTBEAT: Duration = Duration::from_millis(200);

/// How long a worker that stopped for a limit (time, Ctrl-C) waits for its peers to stop with
/// it before it leaves them behind.
const GRACE: Duration = Duration::from_millis(500);

/// Bytes a timely worker costs beside its bitsets: its thread, and a buffer for each channel to
/// every worker of the cluster. Measured on one process (peak resident memory of `explore
/// --workers W` on Flip 4 x 4, about 4 KiB per pair of workers and a little per thread: 34 MB
/// for 64 workers, 87 MB for 128, 302 MB for 256, 600 MB for 384), rounded up.
const WORKER_BYTES: u128 = 256 << 10;
const WORKER_PAIR_BYTES: u128 = 4 << 10;

/// Successor indices per batch to one worker (per-state spaces): 8 KiB, like a block of words.
const BATCH: usize = 1024;

/// Where a sweep runs: worker threads in this process, and the processes taking part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// Worker threads in this process (at least 1); every process runs as many.
    pub workers: usize,
    /// This process's place in `addresses` (0 when there is one process).
    pub process: usize,
    /// `host:port` of every process in order, where each listens; empty for one process.
    pub addresses: Vec<String>,
    /// How long to wait for every peer to connect.
    pub connect_timeout: Duration,
    /// How long a peer may send nothing (heartbeats included) before the run gives it up and
    /// fails; at least [`MIN_PEER_TIMEOUT`].
    pub peer_timeout: Duration,
}

impl Cluster {
    /// `workers` threads in this process alone: no network.
    pub fn local(workers: usize) -> Cluster {
        Cluster {
            workers: workers.max(1),
            process: 0,
            addresses: Vec::new(),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            peer_timeout: DEFAULT_PEER_TIMEOUT,
        }
    }

    /// `processes` processes of `workers` threads, this one the `process`-th, their addresses
    /// read from `hostfile` (named `file` in errors): one `host:port` per line, process `i` on
    /// line `i + 1`; blank lines at the end are ignored. Every inconsistency is one line naming
    /// the flag or the line.
    pub fn from_hostfile(
        workers: usize,
        processes: usize,
        process: usize,
        file: &str,
        hostfile: &str,
    ) -> crate::error::Result<Cluster> {
        if processes == 0 {
            return Err(Error::input(
                Location::file("--processes"),
                "must be at least 1",
            ));
        }
        if process >= processes {
            return Err(Error::input(
                Location::file("--process"),
                format!(
                    "{process} is out of range for --processes {processes} (0 to {})",
                    processes - 1
                ),
            ));
        }
        let lines: Vec<&str> = hostfile.trim_end().lines().map(str::trim).collect();
        let mut addresses = Vec::new();
        for (n, line) in lines.iter().enumerate() {
            let valid = line
                .rsplit_once(':')
                .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
            if !valid {
                return Err(Error::input(
                    Location::file(file).at_line(n + 1),
                    format!("expected host:port, found `{line}`"),
                ));
            }
            addresses.push(line.to_string());
        }
        if addresses.len() != processes {
            return Err(Error::input(
                Location::file(file),
                format!(
                    "{} addresses for --processes {processes}: give one line per process",
                    addresses.len()
                ),
            ));
        }
        Ok(Cluster {
            workers: workers.max(1),
            process,
            addresses,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            peer_timeout: DEFAULT_PEER_TIMEOUT,
        })
    }

    /// The number of processes.
    pub fn processes(&self) -> usize {
        self.addresses.len().max(1)
    }

    /// The bytes this process's workers cost beside their bitsets (threads and channel buffers:
    /// about 4 KiB per pair of a local worker and any worker), counted against the memory
    /// budget before any of them starts: a thousand workers would take gigabytes.
    pub fn workers_bytes(&self) -> u128 {
        let local = self.workers.max(1) as u128;
        let all = local * self.processes() as u128;
        local * (WORKER_BYTES + all * WORKER_PAIR_BYTES)
    }
}

/// A peer that never connected or went away, or refused the sweep: one line, for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault(pub String);

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

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
    /// The sweep, as [`layers`] reports it.
    pub layers: Layers<S>,
    /// Processes, workers, traffic.
    pub report: Report,
}

/// [`layers::forward`] on `cluster`.
pub fn forward<P: Indexed + Send + Sync + 'static>(
    space: Arc<P>,
    start: P::State,
    cluster: &Cluster,
    limits: &Limits,
) -> Result<Swept<P::State>, Fault> {
    let sources = vec![space.index(start)];
    let expand = PerState {
        space: space.clone(),
    };
    run(space, sources, expand, cluster, limits)
}

/// [`layers::backward`] on `cluster`.
pub fn backward<P: Indexed + Invertible + GoalSet + Send + Sync + 'static>(
    space: Arc<P>,
    cluster: &Cluster,
    limits: &Limits,
) -> Result<Swept<P::State>, Fault> {
    let sources = layers::goal_indices(&*space);
    let expand = PerState {
        space: space.clone(),
    };
    run(space, sources, expand, cluster, limits)
}

/// [`layers::xor_backward`] on `cluster`: blocks of 64-state words.
pub fn xor_backward<P: XorMoves + GoalSet + Send + Sync + 'static>(
    space: Arc<P>,
    cluster: &Cluster,
    limits: &Limits,
) -> Result<Swept<P::State>, Fault> {
    let sources = layers::goal_indices(&*space);
    let expand = Pull(XorWords::new(&*space));
    run(space, sources, expand, cluster, limits)
}

/// The cut of `words` words into blocks and of the blocks among `workers`: worker `w` owns
/// blocks `first(w)..first(w + 1)`.
#[derive(Clone, Copy, Debug)]
struct Plan {
    words: usize,
    /// Words per block: a power of two, at most [`CHUNK_WORDS`], small enough that every worker
    /// gets about eight when there are enough words (so that the shares come out even).
    block: usize,
    blocks: usize,
    workers: usize,
}

impl Plan {
    fn new(words: usize, workers: usize) -> Plan {
        let per_worker = (words / (8 * workers)).max(1);
        let block = CHUNK_WORDS.min(1 << per_worker.ilog2());
        Plan {
            words,
            block,
            blocks: words.div_ceil(block),
            workers,
        }
    }

    fn first(&self, worker: usize) -> usize {
        worker * self.blocks / self.workers
    }

    /// The worker whose range holds `block`: the largest `w` with `first(w) <= block`.
    fn owner(&self, block: usize) -> usize {
        ((block + 1) * self.workers - 1) / self.blocks
    }

    fn owner_of_index(&self, index: u64) -> usize {
        self.owner((index >> 6) as usize / self.block)
    }

    /// The words `worker` holds.
    fn words_of(&self, worker: usize) -> Range<usize> {
        let word = |w| (self.first(w) * self.block).min(self.words);
        word(worker)..word(worker + 1)
    }
}

/// What workers send each other.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Message {
    /// The worker it is for (the exchange routes on it).
    to: u32,
    body: Body,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
enum Body {
    /// Successors to OR into `next`, from word `first` on: one block.
    Words { first: u64, words: Vec<u64> },
    /// Successor indices (some may be visited already), sorted and delta-coded
    /// ([`encode_indices`]).
    Indices(Vec<u8>),
    /// A worker's part of a layer, sent to every worker.
    Summary(Summary),
    /// The sender stopped for a limit: stop expanding now (sent to every worker, once).
    Halt(Stop),
    /// Nothing but "alive" (sent to the other processes when there is nothing else to say).
    Heartbeat,
}

/// One worker's part of a round.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
struct Summary {
    from: u32,
    count: u64,
    lowest: Option<u64>,
    generated: u64,
    /// Bytes of states this worker has sent so far.
    exchanged: u64,
    stop: Option<Stop>,
}

/// A [`Limit`] a worker hit, as it travels.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
enum Stop {
    Interrupted,
    Time(Duration),
    Memory { needed: u128, budget: u64 },
}

impl Stop {
    fn from_limit(limit: Limit) -> Stop {
        match limit {
            Limit::Time(t) => Stop::Time(t),
            Limit::Memory { needed, budget } => Stop::Memory { needed, budget },
            // Only these three are polled mid-layer or checked up front.
            _ => Stop::Interrupted,
        }
    }

    fn limit(self) -> Limit {
        match self {
            Stop::Interrupted => Limit::Interrupted,
            Stop::Time(t) => Limit::Time(t),
            Stop::Memory { needed, budget } => Limit::Memory { needed, budget },
        }
    }
}

/// A worker's slice of the bitsets (words `first_word..`), shared between the worker's loop
/// and the operator that receives its messages: both run on the worker's thread, one at a time.
#[derive(Default)]
struct Part {
    first_word: usize,
    frontier: Vec<u64>,
    next: Vec<u64>,
    visited: Vec<u64>,
    summaries: Vec<Summary>,
    /// The limit a peer halted the run for, until the worker latches it.
    halt: Option<Stop>,
    /// States that came before the bitsets were allocated (a faster peer already expanding
    /// the first layer while this worker leaves round 0), kept for [`allocate`](Self::allocate).
    early: Option<Vec<Body>>,
}

impl Part {
    /// Allocates the three slices of `words` words, and merges what came early.
    fn allocate(&mut self, words: usize) {
        // Zeroed pages from the allocator: untouched words cost nothing until used.
        self.frontier = vec![0; words];
        self.next = vec![0; words];
        self.visited = vec![0; words];
        for body in self.early.take().unwrap_or_default() {
            self.receive(body);
        }
    }

    fn receive(&mut self, body: Body) {
        if let (Some(early), Body::Words { .. } | Body::Indices(_)) = (&mut self.early, &body) {
            early.push(body);
            return;
        }
        match body {
            Body::Words { first, words } => {
                let at = first as usize - self.first_word;
                for (next, word) in self.next[at..at + words.len()].iter_mut().zip(words) {
                    *next |= word;
                }
            }
            Body::Indices(bytes) => decode_indices(&bytes, |index| {
                let (word, bit) = self.bit(index);
                if self.visited[word] & bit == 0 {
                    self.next[word] |= bit;
                }
            }),
            Body::Summary(summary) => self.summaries.push(summary),
            Body::Halt(stop) => {
                self.halt.get_or_insert(stop);
            }
            Body::Heartbeat => {}
        }
    }

    /// The local word and bit of `index`, which this worker owns.
    fn bit(&self, index: u64) -> (usize, u64) {
        ((index >> 6) as usize - self.first_word, 1 << (index & 63))
    }

    /// Ends a layer: what is in `next` and not in `visited` becomes the frontier and is visited;
    /// `next` is cleared for the next layer. Counts the new states.
    fn merge(&mut self) -> Merged {
        let mut merged = Merged::default();
        let words = self.next.iter_mut().zip(&mut self.visited);
        for (i, ((next, seen), frontier)) in words.zip(&mut self.frontier).enumerate() {
            let fresh = *next & !*seen;
            *seen |= fresh;
            *frontier = fresh;
            *next = 0;
            merged.add(self.first_word + i, fresh);
        }
        merged
    }
}

/// One layer's expansion of a worker's frontier: the part the space's capabilities decide.
trait Expand: Send + Sync + 'static {
    /// Expands `node`'s frontier into its `next` and its peers'; returns the successors
    /// generated. Ticks [`Node::ticker`] with its work and polls ([`Node::poll`]) when it is
    /// due; stops part-way when that says so (the layer is then dropped).
    fn expand(&self, node: &mut Node) -> u64;
}

/// Any indexed space, one state at a time.
struct PerState<P> {
    space: Arc<P>,
}

impl<P: Indexed + Send + Sync + 'static> Expand for PerState<P> {
    fn expand(&self, node: &mut Node) -> u64 {
        let (plan, me) = (node.plan, node.me);
        let mut generated = 0;
        let mut batches: Vec<Vec<u64>> = vec![Vec::new(); plan.workers];
        let words = node.part.borrow().frontier.len();
        // Where the expansion is: the next word, and what is left of it when a poll was due
        // part-way through it. Between stretches of `WORK_PER_POLL` successors the worker polls
        // (its part not borrowed: polling steps the worker, which may receive into it), sends
        // its full batches and takes in its peers'.
        let (mut w, mut rest) = (0, None);
        while w < words && !node.poll() {
            {
                let mut part = node.part.borrow_mut();
                let Part {
                    first_word,
                    frontier,
                    next,
                    visited,
                    ..
                } = &mut *part;
                'stretch: while w < words {
                    let mut bits = rest.take().unwrap_or(frontier[w]);
                    while bits != 0 {
                        let index = ((*first_word + w) as u64) << 6 | bits.trailing_zeros() as u64;
                        bits &= bits - 1;
                        self.space
                            .successors(self.space.state(index), &mut |_, successor| {
                                generated += 1;
                                let index = self.space.index(successor);
                                match plan.owner_of_index(index) {
                                    owner if owner == me => {
                                        let (word, bit) = (
                                            (index >> 6) as usize - *first_word,
                                            1 << (index & 63),
                                        );
                                        if visited[word] & bit == 0 {
                                            next[word] |= bit;
                                        }
                                    }
                                    owner => batches[owner].push(index),
                                }
                            });
                        if node.ticker.due(generated) {
                            rest = Some(bits);
                            break 'stretch;
                        }
                    }
                    w += 1;
                }
            }
            for (to, batch) in batches.iter_mut().enumerate() {
                if batch.len() >= BATCH {
                    node.send(to, Body::Indices(encode_indices(batch)));
                }
            }
            // Merges what peers sent meanwhile, so that their batches do not pile up.
            node.worker.step();
        }
        for (to, batch) in batches.iter_mut().enumerate() {
            if !batch.is_empty() {
                node.send(to, Body::Indices(encode_indices(batch)));
            }
        }
        generated
    }
}

/// [`XorMoves`] spaces, a block of 64-state words at a time (see the module docs).
struct Pull(XorWords);

impl Expand for Pull {
    fn expand(&self, node: &mut Node) -> u64 {
        let (plan, me) = (node.plan, node.me);
        let n = plan.block;
        let mine = plan.first(me)..plan.first(me + 1);
        let (live, expanded) = {
            let part = node.part.borrow();
            let live: Vec<bool> = part
                .frontier
                .chunks(n)
                .map(|block| block.iter().any(|&w| w != 0))
                .collect();
            let expanded: u64 = part.frontier.iter().map(|w| w.count_ones() as u64).sum();
            (live, expanded)
        };
        // First the other workers' blocks its frontier reaches, so that they travel while
        // everyone computes its own: one per live block and move that leaves the partition,
        // each computed once for all the moves that reach it.
        let mut shifts: Vec<usize> = self.0.word_offsets().map(|o| o / n).collect();
        shifts.sort_unstable();
        shifts.dedup();
        let mut targets: Vec<usize> = live
            .iter()
            .enumerate()
            .filter(|&(_, &live)| live)
            .flat_map(|(k, _)| shifts.iter().map(move |&s| (mine.start + k) ^ s))
            .filter(|&t| plan.owner(t) != me)
            .collect();
        targets.sort_unstable();
        targets.dedup();
        let mut words = vec![0u64; n];
        // The work ticked: words computed (each from all the moves, a few nanoseconds a move).
        let mut done = 0;
        for target in targets {
            if node.ticker.due(done) && node.poll() {
                return 0;
            }
            done += n as u64;
            words.fill(0);
            {
                let part = node.part.borrow();
                self.0.pull(target * n, &mut words, |base| {
                    held_block(&part.frontier, &live, &mine, n, base)
                });
            }
            if words.iter().any(|&w| w != 0) {
                let body = Body::Words {
                    first: (target * n) as u64,
                    words: words.clone(),
                };
                node.send(plan.owner(target), body);
                node.worker.step();
            }
        }
        // Then its own next from its own frontier, taking in the peers' blocks between blocks
        // (both OR into `next`, so the order does not matter).
        let blocks = mine.len();
        for k in 0..blocks {
            if node.ticker.due(done) {
                if node.poll() {
                    return 0;
                }
                node.worker.step();
            }
            done += n as u64;
            let mut part = node.part.borrow_mut();
            let Part { frontier, next, .. } = &mut *part;
            self.0
                .pull((mine.start + k) * n, &mut next[k * n..][..n], |base| {
                    held_block(frontier, &live, &mine, n, base)
                });
        }
        expanded * self.0.moves
    }
}

/// Sorts `indices` and codes them as LEB128 varints of their differences (the first from 0),
/// then clears them: a batch of 1,024 successors in a partition of 10^8 states takes about 3
/// bytes an index instead of 8. Repeats cost a byte and are kept (the receiver ORs them).
fn encode_indices(indices: &mut Vec<u64>) -> Vec<u8> {
    indices.sort_unstable();
    let mut bytes = Vec::with_capacity(3 * indices.len());
    let mut last = 0;
    for index in indices.drain(..) {
        let mut delta = index - last;
        last = index;
        while delta >= 0x80 {
            bytes.push(delta as u8 | 0x80);
            delta >>= 7;
        }
        bytes.push(delta as u8);
    }
    bytes
}

/// Calls `each` with every index [`encode_indices`] coded, in increasing order.
fn decode_indices(bytes: &[u8], mut each: impl FnMut(u64)) {
    let (mut index, mut delta, mut shift) = (0u64, 0u64, 0);
    for &byte in bytes {
        delta |= ((byte & 0x7f) as u64) << shift;
        shift += 7;
        if byte & 0x80 == 0 {
            index += delta;
            each(index);
            (delta, shift) = (0, 0);
        }
    }
}

/// The block of `n` words at global word `base` of a worker's `frontier` (which holds the
/// blocks `mine`), when it holds it and the block has a state.
fn held_block<'a>(
    frontier: &'a [u64],
    live: &[bool],
    mine: &Range<usize>,
    n: usize,
    base: usize,
) -> Option<&'a [u64]> {
    let b = base / n;
    (mine.contains(&b) && live[b - mine.start]).then(|| &frontier[(b - mine.start) * n..][..n])
}

/// A worker with its dataflow: the input it sends on, the probe that closes a round, its part,
/// and how it stops: its ticker on the process's latch, and the heartbeats it owes.
struct Node<'w, 'l> {
    worker: &'w mut Worker,
    /// `None` once the sweep is over and the dataflow drains.
    input: Option<InputHandleVec<u64, Message>>,
    probe: ProbeHandle<u64>,
    part: Rc<RefCell<Part>>,
    plan: Plan,
    me: usize,
    epoch: u64,
    exchanged: u64,
    /// Counts the expansion's work; [`poll`](Self::poll) when it says a poll is due.
    ticker: Ticker<'l>,
    /// When this worker stopped for a limit and told its peers to stop too.
    halted: Option<Instant>,
    /// The workers this one sends heartbeats to (the first worker of every other process,
    /// when this is its process's first; else none), and when the next is due.
    heartbeat_to: Vec<usize>,
    heartbeat_at: Instant,
}

/// Set when the run has failed (a peer is gone): workers stop waiting and return.
static ABORT: AtomicBool = AtomicBool::new(false);

/// The first fault timely's threads panicked with: the process it concerns, if known, and what.
static FAULT: Mutex<Option<(Option<usize>, String)>> = Mutex::new(None);

/// Why a worker left a round unfinished.
enum Abandon {
    /// The run has failed elsewhere (a peer is gone).
    Fault,
    /// This worker stopped for a limit and its peers did not stop with it within [`GRACE`]:
    /// it returns what it has, without them.
    Limit,
}

impl Node<'_, '_> {
    /// Polls the run's latch (time, Ctrl-C, and a limit a peer halted the run for), tells the
    /// peers when this worker is the one that stopped, and sends the heartbeat when it is due.
    /// True when the worker must stop expanding.
    fn poll(&mut self) -> bool {
        let latch = self.ticker.latch();
        if let Some(stop) = self.part.borrow_mut().halt.take() {
            latch.trip(stop.limit());
            // The worker that stopped told every other: nothing to pass on.
            self.halted.get_or_insert_with(Instant::now);
        }
        let stopped = latch.check().err();
        if let (Some(limit), None) = (&stopped, self.halted) {
            self.halted = Some(Instant::now());
            for to in 0..self.plan.workers {
                self.send(to, Body::Halt(Stop::from_limit(limit.clone())));
            }
        }
        if !self.heartbeat_to.is_empty() && Instant::now() >= self.heartbeat_at {
            self.heartbeat_at = Instant::now() + HEARTBEAT;
            for to in self.heartbeat_to.clone() {
                self.send(to, Body::Heartbeat);
            }
            self.worker.step();
        }
        stopped.is_some()
    }

    /// Sends `body` to worker `to` (nothing once the input is closed, as the dataflow drains).
    fn send(&mut self, to: usize, body: Body) {
        let Some(input) = &mut self.input else {
            return;
        };
        // What the states cost on the wire: bincode's 8-byte lengths and the payload.
        let bytes = match &body {
            Body::Words { words, .. } => 8 * words.len() as u64 + 16,
            Body::Indices(bytes) => bytes.len() as u64 + 8,
            Body::Summary(_) => 0,
            // Sent at once, like states: they are urgent.
            Body::Halt(_) | Body::Heartbeat => {
                input.send(Message {
                    to: to as u32,
                    body,
                });
                input.flush();
                return;
            }
        };
        self.exchanged += bytes;
        input.send(Message {
            to: to as u32,
            body,
        });
        // A batch of states is 8 KiB or so: worth sending now, so that it travels while this
        // worker goes on expanding, rather than waiting in the input's buffer for the barrier.
        if bytes > 0 {
            input.flush();
        }
    }

    /// Steps the worker until `done` says so, polling meanwhile (heartbeats, limits). A worker
    /// that stopped for a limit waits [`GRACE`] at most for its peers, which it told to stop:
    /// after that it abandons the round, so that a limit holds whatever they do.
    fn wait(&mut self, done: impl Fn(&Self) -> bool) -> Result<(), Abandon> {
        while !done(self) {
            if ABORT.load(SeqCst) {
                return Err(Abandon::Fault);
            }
            if self.poll() && self.halted.is_some_and(|at| at.elapsed() > GRACE) {
                return Err(Abandon::Limit);
            }
            // Parks (woken by incoming messages) rather than spinning: cores are shared.
            self.worker.step_or_park(Some(Duration::from_millis(1)));
        }
        Ok(())
    }

    /// Closes the current round and waits until every worker has closed it and every message
    /// of it has been received.
    fn barrier(&mut self) -> Result<(), Abandon> {
        self.epoch += 1;
        if let Some(input) = &mut self.input {
            input.advance_to(self.epoch);
        }
        let epoch = self.epoch;
        self.wait(|node| !node.probe.less_than(&epoch))
    }

    /// Sends `summary` to every worker, closes the round, and returns every worker's, by worker.
    fn exchange_summaries(&mut self, summary: Summary) -> Result<Vec<Summary>, Abandon> {
        for to in 0..self.plan.workers {
            self.send(to, Body::Summary(summary));
        }
        self.barrier()?;
        let mut all = std::mem::take(&mut self.part.borrow_mut().summaries);
        all.sort_by_key(|s| s.from);
        Ok(all)
    }
}

/// What one worker hands back: the sweep, identical on every worker, and its own memory.
#[derive(Clone, Default)]
struct Outcome {
    histogram: Vec<u64>,
    lowest: Option<u64>,
    stopped: Option<Limit>,
    stats: Stats,
    exchanged: u64,
    memory_bytes: u64,
    /// Whether every round and the dataflow's shutdown completed (else the worker left its
    /// peers behind at a limit, and the process should not wait for the network to close).
    clean: bool,
}

/// What every worker is told.
struct Job {
    words: usize,
    sources: Vec<u64>,
    /// The limits, with the clock started when the run did.
    limits: Limits,
    /// Workers per process.
    workers: usize,
    /// What this process's workers cost beside their bitsets ([`Cluster::workers_bytes`]).
    workers_bytes: u128,
    /// The sweep as far as it got, published by the process's first worker after every
    /// layer: what the process reports if its workers do not come back at a limit.
    progress: Mutex<Outcome>,
}

/// One worker's whole sweep, mirroring the layers engine's loop. `None` when the run failed.
fn work<E: Expand>(worker: &mut Worker, expand: &E, job: &Job, latch: &Latch) -> Option<Outcome> {
    let (me, peers) = (worker.index(), worker.peers());
    let plan = Plan::new(job.words, peers);
    let part = Rc::new(RefCell::new(Part {
        first_word: plan.words_of(me).start,
        early: Some(Vec::new()),
        ..Part::default()
    }));
    let mut input = InputHandleVec::new();
    let probe = ProbeHandle::new();
    worker.dataflow::<u64, _, _>(|scope| {
        let part = part.clone();
        scope
            .input_from(&mut input)
            .unary::<timely::container::CapacityContainerBuilder<Vec<()>>, _, _, _>(
                Exchange::new(|m: &Message| m.to as u64),
                "Receive",
                move |_, _| {
                    move |input, _output| {
                        let mut part = part.borrow_mut();
                        input.for_each(|_, messages| {
                            for message in messages.drain(..) {
                                part.receive(message.body);
                            }
                        });
                    }
                },
            )
            .probe_with(&probe);
    });
    let processes = peers / job.workers;
    let heartbeat_to = match me % job.workers {
        0 => (0..processes)
            .map(|p| p * job.workers)
            .filter(|&w| w != me)
            .collect(),
        _ => Vec::new(),
    };
    let mut node = Node {
        worker,
        input: Some(input),
        probe,
        part,
        plan,
        me,
        epoch: 0,
        exchanged: 0,
        ticker: latch.ticker(),
        halted: None,
        heartbeat_to,
        heartbeat_at: Instant::now(),
    };
    let mut outcome = Outcome::default();
    match sweep(&mut node, expand, job, &mut outcome) {
        Err(Abandon::Fault) => return None,
        Err(Abandon::Limit) => {
            outcome.stopped = latch.reason();
            return Some(outcome);
        }
        Ok(()) => {}
    }
    // Closes the input and lets the dataflow drain, so that every process shuts down cleanly.
    node.input = None;
    match node.wait(|node| node.probe.done()) {
        Err(Abandon::Fault) => None,
        // The sweep is whole; only its shutdown was cut short.
        Err(Abandon::Limit) => Some(outcome),
        Ok(()) => {
            outcome.clean = true;
            Some(outcome)
        }
    }
}

/// The sweep proper, into `outcome`: what it holds when a round is abandoned is the layers
/// completed before.
fn sweep<E: Expand>(
    node: &mut Node,
    expand: &E,
    job: &Job,
    outcome: &mut Outcome,
) -> Result<(), Abandon> {
    let (plan, me) = (node.plan, node.me);
    // Round 0: every process checks its own three slices (and what its workers cost) against
    // its own budget, and all hear of any refusal (the first process's, by worker order) before
    // anything is allocated.
    let process = me / job.workers;
    let process_words: usize = (process * job.workers..(process + 1) * job.workers)
        .map(|w| plan.words_of(w).len())
        .sum();
    let needed = 3 * 8 * process_words as u128 + job.workers_bytes;
    let refused = job.limits.check_memory(needed).err();
    let summary = Summary {
        from: me as u32,
        stop: refused.map(Stop::from_limit),
        ..Summary::default()
    };
    let refusals = node.exchange_summaries(summary)?;
    if let Some(stop) = refusals.iter().find_map(|s| s.stop) {
        outcome.stopped = Some(stop.limit());
        return Ok(());
    }
    let words = plan.words_of(me).len();
    outcome.memory_bytes = 3 * 8 * words as u64;
    node.part.borrow_mut().allocate(words);

    // Depth 0: every worker knows every source, so the first layer needs no round.
    let mut layer = Merged::default();
    let mut seen = std::collections::BTreeSet::new();
    for &index in &job.sources {
        if seen.insert(index) {
            layer.count += 1;
            layer.lowest = Some(layer.lowest.map_or(index, |i| i.min(index)));
            if plan.owner_of_index(index) == me {
                let mut part = node.part.borrow_mut();
                let (word, bit) = part.bit(index);
                part.visited[word] |= bit;
                part.frontier[word] |= bit;
            }
        }
    }
    let limits = &job.limits;
    loop {
        outcome.histogram.push(layer.count);
        outcome.lowest = layer.lowest;
        let stats = &mut outcome.stats;
        stats.visited += layer.count;
        stats.peak_frontier = stats.peak_frontier.max(layer.count);
        if me % job.workers == 0 {
            *job.progress.lock().unwrap_or_else(|e| e.into_inner()) = outcome.clone();
        }
        if let Some(max) = limits.max_states
            && outcome.stats.visited > max
        {
            outcome.stopped = Some(Limit::States(max));
            break;
        }
        let generated = expand.expand(node);
        node.barrier()?;
        let mut merged = node.part.borrow_mut().merge();
        merged.generated = generated;
        let summary = Summary {
            from: me as u32,
            count: merged.count,
            lowest: merged.lowest,
            generated: merged.generated,
            exchanged: node.exchanged,
            stop: node.ticker.latch().reason().map(Stop::from_limit),
        };
        let all = node.exchange_summaries(summary)?;
        outcome.exchanged = all.iter().map(|s| s.exchanged).sum();
        if let Some(stop) = all.iter().find_map(|s| s.stop) {
            outcome.stopped = Some(stop.limit());
            break;
        }
        let found: Merged = all
            .iter()
            .map(|s| Merged {
                count: s.count,
                lowest: s.lowest,
                generated: s.generated,
            })
            .sum();
        let stats = &mut outcome.stats;
        stats.expanded += layer.count;
        stats.generated += found.generated;
        if found.count == 0 {
            break;
        }
        if limits.max_depth.is_some_and(|max| stats.depth >= max) {
            outcome.stopped = Some(Limit::Depth(stats.depth));
            break;
        }
        layer = found;
        stats.depth += 1;
    }
    Ok(())
}

/// Runs the sweep of `space` from `sources` on `cluster`: connects the processes, starts the
/// workers, waits for them or for a fault.
fn run<P: Indexed + Send + Sync + 'static, E: Expand>(
    space: Arc<P>,
    sources: Vec<u64>,
    expand: E,
    cluster: &Cluster,
    limits: &Limits,
) -> Result<Swept<P::State>, Fault> {
    let started = Instant::now();
    // One clock for every worker, started now unless the caller started it.
    let mut limits = limits.clone();
    limits.clock_start.get_or_insert(started);
    let latch = Arc::new(Latch::new(&limits));
    let processes = cluster.processes();
    let workers = cluster.workers.max(1);
    let mut swept = Swept {
        layers: Layers {
            histogram: Vec::new(),
            farthest: None,
            stopped: None,
            stats: Stats::default(),
            threads: workers,
            memory_bytes: 0,
        },
        report: Report {
            processes,
            process: cluster.process,
            workers: workers * processes,
            exchanged_bytes: 0,
        },
    };
    // A space past the address space is over any budget, here as in every process.
    let Ok(words) = usize::try_from(space.size().div_ceil(64)) else {
        let needed = layers::memory_needed(&*space).div_ceil(processes as u128);
        swept.layers.stopped = Some(Limit::Memory {
            needed,
            budget: limits.memory_budget,
        });
        return Ok(swept);
    };
    // Workers cost memory before they have a bitset: refused before any starts.
    if let Err(limit) = limits.check_memory(cluster.workers_bytes()) {
        swept.layers.stopped = Some(limit);
        return Ok(swept);
    }

    let (builders, others): (Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>) =
        if processes == 1 {
            let config = if workers == 1 {
                timely::CommunicationConfig::Thread
            } else {
                timely::CommunicationConfig::Process(workers)
            };
            config.try_build().map_err(Fault)?
        } else {
            // The strategy (word blocks or indices) is in the expansion's type name.
            let strategy = std::any::type_name::<E>().bytes().map(u64::from);
            let fingerprint = fingerprint(
                [space.size() as u64, (space.size() >> 64) as u64]
                    .into_iter()
                    .chain([processes as u64, workers as u64])
                    .chain(strategy)
                    .chain(sources.iter().copied()),
            );
            let sockets = match connect(cluster, fingerprint, &latch) {
                Ok(sockets) => sockets,
                Err(Failure::Fault(fault)) => return Err(fault),
                Err(Failure::Limit(limit)) => {
                    swept.layers.stopped = Some(limit);
                    return Ok(swept);
                }
            };
            let watch = |socket: TcpStream| Watched::new(socket, cluster.peer_timeout);
            let sockets = sockets
                .into_iter()
                .map(|socket| socket.map(watch).transpose())
                .collect::<std::io::Result<Vec<_>>>()
                .map_err(|e| Fault(format!("cannot set up a peer's socket: {e}")))?;
            let hooks = timely::communication::Hooks::default();
            let process_allocators =
                ProcessBuilder::new_typed_vector(workers, hooks.refill.clone(), None);
            let (builders, guard) = initialize_networking_from_sockets(
                process_allocators,
                sockets,
                cluster.process,
                workers,
                hooks,
            )
            .map_err(|e| Fault(format!("cannot start the network threads: {e}")))?;
            let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
            (builders, Box::new(guard))
        };

    install_panic_hook();
    ABORT.store(false, SeqCst);
    *FAULT.lock().unwrap_or_else(|e| e.into_inner()) = None;
    let job = Arc::new(Job {
        words,
        sources,
        limits: limits.clone(),
        workers,
        workers_bytes: cluster.workers_bytes(),
        progress: Mutex::new(Outcome::default()),
    });
    let expand = Arc::new(expand);
    // Every worker hands its outcome over as it finishes, not when joined: joining also waits
    // for the network threads, which wait for the peers.
    let (finished, outcomes) = mpsc::channel();
    let (worker_job, worker_latch) = (job.clone(), latch.clone());
    let guards = timely::execute::execute_from(
        builders,
        others,
        timely::WorkerConfig::default(),
        move |worker| {
            let outcome = work(worker, &*expand, &worker_job, &worker_latch);
            let _ = finished.send(outcome);
        },
    )
    .map_err(Fault)?;
    // Joined on a thread of its own, so that a fault or a limit can end the wait: workers
    // blocked on a dead peer would never be joined, and the process is about to exit anyway.
    // Named like timely's threads: when a peer is gone, joining the network threads panics too,
    // and the hook keeps that quiet.
    let (joined, join) = mpsc::channel();
    std::thread::Builder::new()
        .name("timely:join".into())
        .spawn(move || {
            let _ = joined.send(guards.join());
        })
        .map_err(|e| Fault(format!("cannot start a thread: {e}")))?;
    let fault = || take_fault(cluster).inspect(|_| ABORT.store(true, SeqCst));
    let mut results = Vec::new();
    let mut stopped_at = None;
    while results.len() < workers {
        match outcomes.recv_timeout(Duration::from_millis(50)) {
            Ok(Some(outcome)) => results.push(outcome),
            Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                std::thread::sleep(Duration::from_millis(50));
                return Err(
                    fault().unwrap_or_else(|| Fault("a worker stopped without a result".into()))
                );
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if let Some(fault) = fault() {
            return Err(fault);
        }
        // The workers poll the limits and give up on silent peers themselves; this is for
        // workers that cannot even do that in time (far more threads than cores): the layers
        // published so far are the answer.
        if latch.check().is_err()
            && stopped_at.get_or_insert_with(Instant::now).elapsed() > GRACE + HEARTBEAT
        {
            let mut published = job
                .progress
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone();
            published.stopped = latch.reason();
            published.clean = false;
            results = vec![published];
            break;
        }
    }
    // After a clean end, the network threads close the connections in order: waiting for them
    // lets every peer see this process finish rather than vanish (a peer that falls silent
    // now is reported like any other).
    if results.iter().all(|r| r.clean) {
        loop {
            if let Some(fault) = fault() {
                return Err(fault);
            }
            match join.recv_timeout(Duration::from_millis(50)) {
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                _ => break,
            }
            // Past a limit, a peer slow to say goodbye does not hold the answer back.
            if latch.check().is_err()
                && stopped_at.get_or_insert_with(Instant::now).elapsed() > GRACE
            {
                break;
            }
        }
    }
    let memory_bytes = results.iter().map(|o| o.memory_bytes).sum();
    let first = results.swap_remove(0);
    let mut stats = first.stats;
    stats.elapsed = started.elapsed();
    swept.layers = Layers {
        histogram: first.histogram,
        farthest: first.lowest.map(|i| space.state(i)),
        stopped: first.stopped,
        stats,
        threads: workers,
        memory_bytes,
    };
    swept.report.exchanged_bytes = first.exchanged;
    Ok(swept)
}

/// A peer's socket as timely's network threads use it: a read or a write that waits longer
/// than the peer timeout fails, saying so, and the network thread's panic then reports the
/// peer lost (see [`install_panic_hook`]). Every process sends a heartbeat several times per
/// second, so a socket silent that long is a peer that is stopped, frozen or cut off.
struct Watched {
    stream: TcpStream,
    timeout: Duration,
}

impl Watched {
    fn new(stream: TcpStream, timeout: Duration) -> std::io::Result<Watched> {
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        Ok(Watched { stream, timeout })
    }

    /// A timed-out read or write, said as what it means.
    fn explain(&self, error: std::io::Error, what: &str) -> std::io::Error {
        use std::io::ErrorKind::{TimedOut, WouldBlock};
        match error.kind() {
            WouldBlock | TimedOut => std::io::Error::new(
                TimedOut,
                format!("{what} for {}", humantime::format_duration(self.timeout)),
            ),
            _ => error,
        }
    }
}

impl Read for Watched {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.stream.read(buf);
        read.map_err(|e| self.explain(e, "it sent nothing"))
    }
}

impl Write for Watched {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let written = self.stream.write(buf);
        written.map_err(|e| self.explain(e, "it took nothing"))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let flushed = self.stream.flush();
        flushed.map_err(|e| self.explain(e, "it took nothing"))
    }
}

impl Stream for Watched {
    fn try_clone(&self) -> std::io::Result<Self> {
        let stream = self.stream.try_clone()?;
        Ok(Watched {
            stream,
            timeout: self.timeout,
        })
    }

    fn set_nonblocking(&self, nonblocking: bool) -> std::io::Result<()> {
        self.stream.set_nonblocking(nonblocking)
    }

    fn shutdown(&self, how: std::net::Shutdown) -> std::io::Result<()> {
        self.stream.shutdown(how)
    }
}

/// FNV-1a over `values`: enough to tell two sweeps apart, not a defence against anyone.
fn fingerprint(values: impl Iterator<Item = u64>) -> u64 {
    values.fold(0xcbf2_9ce4_8422_2325, |hash, v| {
        v.to_le_bytes()
            .iter()
            .fold(hash, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
    })
}

/// Why the processes did not all meet.
enum Failure {
    Fault(Fault),
    Limit(Limit),
}

/// The greeting both ends of a connection send: a magic number, the sender's process index and
/// the sweep's fingerprint.
const MAGIC: u64 = u64::from_be_bytes(*b"stspace1");

/// Connects this process with every other: listens on its own address, connects to the
/// processes before it (retrying while they start) and accepts the ones after, each greeted
/// and checked. The sockets come in process order, `None` for this one, as timely wants them.
fn connect(
    cluster: &Cluster,
    fingerprint: u64,
    latch: &Latch,
) -> Result<Vec<Option<TcpStream>>, Failure> {
    let me = cluster.process;
    let fault = |message: String| Failure::Fault(Fault(message));
    let resolve = |p: usize| {
        let address = &cluster.addresses[p];
        address
            .to_socket_addrs()
            .ok()
            .and_then(|mut a| a.next())
            .ok_or_else(|| fault(format!("cannot resolve process {p}'s address {address}")))
    };
    let listener = TcpListener::bind(resolve(me)?)
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
        .map_err(|e| fault(format!("cannot listen on {}: {e}", cluster.addresses[me])))?;
    let before: Vec<SocketAddr> = (0..me).map(resolve).collect::<Result<_, _>>()?;
    let mut sockets: Vec<Option<TcpStream>> = (0..cluster.processes()).map(|_| None).collect();
    let deadline = Instant::now() + cluster.connect_timeout;
    let greet = |mut stream: TcpStream,
                 expect: Option<usize>|
     -> Result<(usize, TcpStream), Failure> {
        let lost = |e: std::io::Error| fault(format!("greeting a peer process failed: {e}"));
        stream.set_nonblocking(false).map_err(lost)?;
        stream.set_nodelay(true).map_err(lost)?;
        stream
            .set_write_timeout(Some(cluster.connect_timeout))
            .map_err(lost)?;
        let mut hello = [0u8; 24];
        hello[..8].copy_from_slice(&MAGIC.to_be_bytes());
        hello[8..16].copy_from_slice(&(me as u64).to_be_bytes());
        hello[16..].copy_from_slice(&fingerprint.to_be_bytes());
        stream.write_all(&hello).map_err(lost)?;
        // Their greeting, a little at a time: the limits hold while a peer keeps us waiting.
        stream
            .set_read_timeout(Some(Duration::from_millis(50)))
            .map_err(lost)?;
        let mut theirs = [0u8; 24];
        let mut got = 0;
        while got < theirs.len() {
            match stream.read(&mut theirs[got..]) {
                Ok(0) => return Err(lost(std::io::ErrorKind::UnexpectedEof.into())),
                Ok(n) => got += n,
                Err(e) if matches!(e.kind(), WouldBlock | TimedOut | Interrupted) => {
                    latch.check().map_err(Failure::Limit)?;
                    if Instant::now() >= deadline {
                        return Err(lost(std::io::Error::new(
                            TimedOut,
                            format!(
                                "no greeting within {}",
                                humantime::format_duration(cluster.connect_timeout)
                            ),
                        )));
                    }
                }
                Err(e) => return Err(lost(e)),
            }
        }
        stream.set_read_timeout(None).map_err(lost)?;
        stream.set_write_timeout(None).map_err(lost)?;
        let field = |i: usize| u64::from_be_bytes(theirs[i * 8..][..8].try_into().unwrap());
        let peer = field(1) as usize;
        if field(0) != MAGIC || expect.is_some_and(|p| p != peer) || peer >= cluster.processes() {
            return Err(fault(format!(
                "{} is not the statespace process the hostfile names",
                stream
                    .peer_addr()
                    .map_or("a peer".into(), |a| a.to_string())
            )));
        }
        if field(2) != fingerprint {
            return Err(fault(format!(
                "process {peer} runs another sweep (its config, --workers or --processes differ)"
            )));
        }
        Ok((peer, stream))
    };
    use std::io::ErrorKind::{Interrupted, TimedOut, WouldBlock};
    loop {
        latch.check().map_err(Failure::Limit)?;
        for (p, address) in before.iter().enumerate() {
            if sockets[p].is_none()
                && let Ok(stream) = TcpStream::connect_timeout(address, Duration::from_millis(200))
            {
                sockets[p] = Some(greet(stream, Some(p))?.1);
            }
        }
        loop {
            match listener.accept() {
                Ok((stream, _)) => {
                    let (peer, stream) = greet(stream, None)?;
                    if peer <= me || sockets[peer].is_some() {
                        return Err(fault(format!(
                            "process {peer} connected twice or out of turn"
                        )));
                    }
                    sockets[peer] = Some(stream);
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) => return Err(fault(format!("accepting a peer process failed: {e}"))),
            }
        }
        let missing = (0..sockets.len()).find(|&p| p != me && sockets[p].is_none());
        let Some(missing) = missing else {
            return Ok(sockets);
        };
        if Instant::now() >= deadline {
            return Err(fault(format!(
                "process {missing} ({}) did not connect within {}",
                cluster.addresses[missing],
                humantime::format_duration(cluster.connect_timeout)
            )));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Routes panics on timely's threads (a peer gone: "timely communication error: ...") to
/// [`FAULT`], quietly; every other panic goes to the hook that was there before.
fn install_panic_hook() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current();
            let Some(name) = thread.name().filter(|n| n.starts_with("timely:")) else {
                return previous(info);
            };
            let payload = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            // The network threads are named after the process at the other end.
            let peer = name
                .strip_prefix("timely:recv-")
                .or_else(|| name.strip_prefix("timely:send-"))
                .and_then(|p| p.parse().ok());
            let message = match payload.strip_prefix("timely communication error: ") {
                Some(cause) => cause.to_string(),
                None => match info.location() {
                    Some(at) => format!("{name} panicked at {at}: {payload}"),
                    None => format!("{name} panicked: {payload}"),
                },
            };
            let mut fault = FAULT.lock().unwrap_or_else(|e| e.into_inner());
            fault.get_or_insert((peer, message));
            ABORT.store(true, SeqCst);
        }));
    });
}

/// The recorded fault, as one line naming the peer.
fn take_fault(cluster: &Cluster) -> Option<Fault> {
    let (peer, message) = FAULT.lock().unwrap_or_else(|e| e.into_inner()).take()?;
    Some(Fault(match peer {
        Some(p) => format!(
            "lost process {p} ({}): {message}",
            cluster.addresses.get(p).map_or("?", |a| a.as_str())
        ),
        None => message,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toys::{Lights, LightsGoal};

    fn flip(rows: u32, cols: u32) -> Arc<Lights> {
        Arc::new(Lights::new(rows, cols, false, LightsGoal::Uniform))
    }

    #[test]
    fn a_plan_gives_every_block_one_owner_in_order() {
        for (words, workers) in [(1, 2), (1024, 2), (2835, 3), (1 << 14, 4), (5, 8)] {
            let plan = Plan::new(words, workers);
            let mut covered = 0;
            for w in 0..workers {
                let range = plan.words_of(w);
                assert_eq!(range.start, covered, "{words} words, {workers} workers");
                covered = range.end;
                for word in range {
                    assert_eq!(plan.owner(word / plan.block), w);
                }
            }
            assert_eq!(covered, words);
        }
        // Enough words: every worker holds a share.
        let plan = Plan::new(1024, 2);
        assert_eq!((plan.words_of(0), plan.words_of(1)), (0..512, 512..1024));
        let plan = Plan::new(2835, 2);
        assert_eq!((plan.words_of(0), plan.words_of(1)), (0..1408, 1408..2835));
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
    fn delta_coded_indices_decode_to_the_sorted_batch() {
        let batches: [&[u64]; 4] = [
            &[],
            &[0],
            &[5, 3, 3, 0, 127, 128, 16_383, 16_384],
            &[u64::MAX, 1 << 63, 42, (1 << 35) + 7],
        ];
        for batch in batches {
            let mut indices = batch.to_vec();
            let bytes = encode_indices(&mut indices);
            assert!(indices.is_empty());
            let mut decoded = Vec::new();
            decode_indices(&bytes, |i| decoded.push(i));
            let mut sorted = batch.to_vec();
            sorted.sort_unstable();
            assert_eq!(decoded, sorted);
        }
        // Small gaps take a byte each.
        let mut dense: Vec<u64> = (1000..2024).collect();
        assert_eq!(encode_indices(&mut dense).len(), 2 + 1023);
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
