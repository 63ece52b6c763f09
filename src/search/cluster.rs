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
//! config is refused. A peer that has not connected within [`Cluster::connect_timeout`] ends
//! the run with a [`Fault`]. Once running, a peer that dies closes its sockets; timely's
//! network threads then panic ("timely communication error"). A panic hook installed here
//! keeps those panics quiet, records the first as the fault and tells the workers to give up,
//! and the sweep returns it within a tenth of a second instead of waiting for workers that can
//! no longer finish. Ctrl-C and the time limit are polled every few blocks; a worker that sees
//! one skips the rest of its expansion and says so in its summary, and every worker stops at the
//! end of that layer, the interrupted layer dropped as in [`layers`] (a peer still expanding its
//! share finishes it first).
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
//! - A peer that hangs without closing its sockets (a frozen machine, a cable pulled) is not
//!   detected: the others wait, as timely does. Killed and crashed processes are.
//! - Messages in flight are not counted against the budget: at most about one `next` slice per
//!   layer, while a worker is busy expanding.
//! - The panic hook is process-wide and stays installed (it passes every panic outside timely's
//!   threads to the previous hook); one cluster sweep runs in a process at a time.

use super::layers::{self, CHUNK_WORDS, Layers, Merged, XorWords};
use super::{Limit, Limits, Stats};
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
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::{Input, Operator, Probe};
use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::worker::Worker;

/// How long processes wait for each other to connect unless told otherwise.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

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
}

impl Cluster {
    /// `workers` threads in this process alone: no network.
    pub fn local(workers: usize) -> Cluster {
        Cluster {
            workers: workers.max(1),
            process: 0,
            addresses: Vec::new(),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
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
        })
    }

    /// The number of processes.
    pub fn processes(&self) -> usize {
        self.addresses.len().max(1)
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
    /// generated. Stops part-way when [`Node::should_stop`] says so (the layer is then dropped).
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
        for start in (0..words).step_by(plan.block) {
            if node.should_stop() {
                break;
            }
            {
                let mut part = node.part.borrow_mut();
                let Part {
                    first_word,
                    frontier,
                    next,
                    visited,
                    ..
                } = &mut *part;
                let mut visit = |_, successor| {
                    generated += 1;
                    let index = self.space.index(successor);
                    match plan.owner_of_index(index) {
                        owner if owner == me => {
                            let (word, bit) =
                                ((index >> 6) as usize - *first_word, 1 << (index & 63));
                            if visited[word] & bit == 0 {
                                next[word] |= bit;
                            }
                        }
                        owner => batches[owner].push(index),
                    }
                };
                for (w, &word) in frontier.iter().enumerate().skip(start).take(plan.block) {
                    let mut bits = word;
                    while bits != 0 {
                        let index = ((*first_word + w) as u64) << 6 | bits.trailing_zeros() as u64;
                        bits &= bits - 1;
                        self.space.successors(self.space.state(index), &mut visit);
                    }
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
        for (i, target) in targets.into_iter().enumerate() {
            if i % 64 == 0 && node.should_stop() {
                return 0;
            }
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
            if k % 16 == 0 {
                if node.should_stop() {
                    return 0;
                }
                node.worker.step();
            }
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

/// The stop condition, polled by a worker; the first reason seen is kept.
struct Poll<'a> {
    limits: &'a Limits,
    started: Instant,
    reason: Option<Limit>,
}

impl Poll<'_> {
    fn should_stop(&mut self) -> bool {
        if self.reason.is_none() {
            self.reason = self.limits.stop_reason(self.started);
        }
        self.reason.is_some()
    }
}

/// A worker with its dataflow: the input it sends on, the probe that closes a round, its part.
struct Node<'w, 'l> {
    worker: &'w mut Worker,
    input: InputHandleVec<u64, Message>,
    probe: ProbeHandle<u64>,
    part: Rc<RefCell<Part>>,
    plan: Plan,
    me: usize,
    epoch: u64,
    exchanged: u64,
    poll: Poll<'l>,
}

/// Set when the run has failed (a peer is gone): workers stop waiting and return.
static ABORT: AtomicBool = AtomicBool::new(false);

/// The first fault timely's threads panicked with: the process it concerns, if known, and what.
static FAULT: Mutex<Option<(Option<usize>, String)>> = Mutex::new(None);

/// The worker gave up: the run has failed elsewhere.
struct Aborted;

impl Node<'_, '_> {
    fn should_stop(&mut self) -> bool {
        self.poll.should_stop()
    }

    fn send(&mut self, to: usize, body: Body) {
        // What the states cost on the wire: bincode's 8-byte lengths and the payload.
        let bytes = match &body {
            Body::Words { words, .. } => 8 * words.len() as u64 + 16,
            Body::Indices(bytes) => bytes.len() as u64 + 8,
            Body::Summary(_) => 0,
        };
        self.exchanged += bytes;
        self.input.send(Message {
            to: to as u32,
            body,
        });
        // A batch of states is 8 KiB or so: worth sending now, so that it travels while this
        // worker goes on expanding, rather than waiting in the input's buffer for the barrier.
        if bytes > 0 {
            self.input.flush();
        }
    }

    /// Closes the current round and waits until every worker has closed it and every message
    /// of it has been received.
    fn barrier(&mut self) -> Result<(), Aborted> {
        self.epoch += 1;
        self.input.advance_to(self.epoch);
        while self.probe.less_than(&self.epoch) {
            if ABORT.load(SeqCst) {
                return Err(Aborted);
            }
            // Parks (woken by incoming messages) rather than spinning: cores are shared.
            self.worker.step_or_park(Some(Duration::from_millis(1)));
        }
        Ok(())
    }

    /// Sends `summary` to every worker, closes the round, and returns every worker's, by worker.
    fn exchange_summaries(&mut self, summary: Summary) -> Result<Vec<Summary>, Aborted> {
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
struct Outcome {
    histogram: Vec<u64>,
    lowest: Option<u64>,
    stopped: Option<Limit>,
    stats: Stats,
    exchanged: u64,
    memory_bytes: u64,
}

/// What every worker is told.
struct Job {
    words: usize,
    sources: Vec<u64>,
    limits: Limits,
    started: Instant,
    /// Workers per process.
    workers: usize,
}

/// One worker's whole sweep, mirroring the layers engine's loop.
fn work<E: Expand>(worker: &mut Worker, expand: &E, job: &Job) -> Option<Outcome> {
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
    let mut node = Node {
        worker,
        input,
        probe,
        part,
        plan,
        me,
        epoch: 0,
        exchanged: 0,
        poll: Poll {
            limits: &job.limits,
            started: job.started,
            reason: None,
        },
    };
    let outcome = sweep(&mut node, expand, job).ok();
    // Closes the input and lets the dataflow drain, so that every process shuts down cleanly.
    let Node {
        worker,
        input,
        probe,
        ..
    } = node;
    drop(input);
    while !probe.done() && !ABORT.load(SeqCst) {
        worker.step_or_park(Some(Duration::from_millis(1)));
    }
    outcome
}

fn sweep<E: Expand>(node: &mut Node, expand: &E, job: &Job) -> Result<Outcome, Aborted> {
    let (plan, me) = (node.plan, node.me);
    let mut outcome = Outcome {
        histogram: Vec::new(),
        lowest: None,
        stopped: None,
        stats: Stats::default(),
        exchanged: 0,
        memory_bytes: 0,
    };
    // Round 0: every process checks its own three slices against its own budget, and all hear
    // of any refusal (the first process's, by worker order) before anything is allocated.
    let process = me / job.workers;
    let process_words: usize = (process * job.workers..(process + 1) * job.workers)
        .map(|w| plan.words_of(w).len())
        .sum();
    let needed = 3 * 8 * process_words as u128;
    let refused = job.limits.check_memory(needed).err();
    let summary = Summary {
        from: me as u32,
        stop: refused.map(Stop::from_limit),
        ..Summary::default()
    };
    let refusals = node.exchange_summaries(summary)?;
    if let Some(stop) = refusals.iter().find_map(|s| s.stop) {
        outcome.stopped = Some(stop.limit());
        return Ok(outcome);
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
    let mut stats = Stats::default();
    loop {
        outcome.histogram.push(layer.count);
        outcome.lowest = layer.lowest;
        stats.visited += layer.count;
        stats.peak_frontier = stats.peak_frontier.max(layer.count);
        if let Some(max) = limits.max_states
            && stats.visited > max
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
            stop: node.poll.reason.clone().map(Stop::from_limit),
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
    outcome.stats = stats;
    Ok(outcome)
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
            let sockets = match connect(cluster, fingerprint, limits, started) {
                Ok(sockets) => sockets,
                Err(Failure::Fault(fault)) => return Err(fault),
                Err(Failure::Limit(limit)) => {
                    swept.layers.stopped = Some(limit);
                    return Ok(swept);
                }
            };
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
        started,
        workers,
    });
    let expand = Arc::new(expand);
    let guards = timely::execute::execute_from(
        builders,
        others,
        timely::WorkerConfig::default(),
        move |worker| work(worker, &*expand, &job),
    )
    .map_err(Fault)?;
    // Joined on a thread of its own, so that a fault can end the wait: workers blocked on a
    // dead peer would never be joined, and the process is about to exit anyway.
    // Named like timely's threads: when a peer is gone, joining the network threads panics too,
    // and the hook keeps that quiet.
    let (done, results) = mpsc::channel();
    std::thread::Builder::new()
        .name("timely:join".into())
        .spawn(move || {
            let _ = done.send(guards.join());
        })
        .map_err(|e| Fault(format!("cannot start a thread: {e}")))?;
    let results = loop {
        match results.recv_timeout(Duration::from_millis(50)) {
            Ok(results) => break results,
            Err(_) => {
                if let Some(fault) = take_fault(cluster) {
                    ABORT.store(true, SeqCst);
                    return Err(fault);
                }
            }
        }
    };
    if let Some(fault) = take_fault(cluster) {
        return Err(fault);
    }
    let mut outcomes = Vec::new();
    for result in results {
        match result {
            Ok(Some(outcome)) => outcomes.push(outcome),
            _ => return Err(Fault("a worker stopped without a result".into())),
        }
    }
    let memory_bytes = outcomes.iter().map(|o| o.memory_bytes).sum();
    let first = outcomes.swap_remove(0);
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
    limits: &Limits,
    started: Instant,
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
        let wait = deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(100));
        stream.set_read_timeout(Some(wait)).map_err(lost)?;
        let mut hello = [0u8; 24];
        hello[..8].copy_from_slice(&MAGIC.to_be_bytes());
        hello[8..16].copy_from_slice(&(me as u64).to_be_bytes());
        hello[16..].copy_from_slice(&fingerprint.to_be_bytes());
        let mut theirs = [0u8; 24];
        stream.write_all(&hello).map_err(lost)?;
        stream.read_exact(&mut theirs).map_err(lost)?;
        stream.set_read_timeout(None).map_err(lost)?;
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
    loop {
        if let Some(limit) = limits.stop_reason(started) {
            return Err(Failure::Limit(limit));
        }
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
    use crate::puzzles::flip::{Flip, FlipGoal, Geometry};

    fn flip(rows: u32, cols: u32) -> Arc<Flip> {
        Arc::new(Flip::new(
            Geometry {
                rows,
                cols,
                wrap: false,
            },
            FlipGoal::Uniform,
        ))
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
        let limits = Limits {
            memory_budget: 1000,
            ..Limits::default()
        };
        let swept = backward(space, &Cluster::local(2), &limits).unwrap();
        assert!(swept.layers.histogram.is_empty());
        // Each process checks its own share: here one process holds all 3 x 8 KiB.
        assert_eq!(
            swept.layers.stopped,
            Some(Limit::Memory {
                needed: 3 * 8192,
                budget: 1000
            })
        );
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
