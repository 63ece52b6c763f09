//! One worker's sweep ([`work`]): its dataflow (an input whose messages timely routes to their
//! worker, a probe that tells when a round is closed), and the loop that mirrors the layers
//! engine's, two rounds a layer: expand, then sum. [`Node`] is the worker's handle on all of it:
//! it sends, polls the limits and a peer's halt, sends the heartbeats it owes, and waits at a
//! barrier, leaving its peers behind when the run has failed or a limit held too long.

use super::fault;
use super::part::Part;
use super::plan::Plan;
use super::wire::{Body, Message, Stop, Summary};
use crate::limit::{Latch, Limit, Limits, Ticker};
use crate::search::Stats;
use crate::search::layers::Merged;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::{Input, Operator, Probe};
use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::worker::Worker;

/// How often a process tells every other that it is alive, when it has nothing else to say.
pub(super) const HEARTBEAT: Duration = Duration::from_millis(200);

/// How long a worker that stopped for a limit (time, Ctrl-C) waits for its peers to stop with
/// it before it leaves them behind.
pub(super) const GRACE: Duration = Duration::from_millis(500);

/// A test's stand-in for a process the machine starves: the address of the [`Latch`] whose
/// workers sleep [`STARVED_PAUSE`] after each step while they wait at a barrier (0: none), so
/// that a peer's messages pile up unread meanwhile.
#[cfg(test)]
pub(super) static STARVED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[cfg(test)]
pub(super) const STARVED_PAUSE: Duration = Duration::from_millis(300);

/// One layer's expansion of a worker's frontier: the part the space's capabilities decide.
pub(super) trait Expand: Send + Sync + 'static {
    /// Expands `node`'s frontier into its `next` and its peers'; returns the successors
    /// generated. Ticks [`Node::ticker`] with its work and polls ([`Node::poll`]) when it is
    /// due; stops part-way when that says so (the layer is then dropped).
    fn expand(&self, node: &mut Node) -> u64;
}

/// A worker with its dataflow: the input it sends on, the probe that closes a round, its part,
/// and how it stops: its ticker on the process's latch, and the heartbeats it owes.
pub(super) struct Node<'w, 'l> {
    pub(super) worker: &'w mut Worker,
    /// `None` once the sweep is over and the dataflow drains.
    input: Option<InputHandleVec<u64, Message>>,
    probe: ProbeHandle<u64>,
    pub(super) part: Rc<RefCell<Part>>,
    pub(super) plan: Plan,
    pub(super) me: usize,
    /// The round (closed by [`barrier`](Self::barrier)) and the beat within it: the input's
    /// time is `round << 32 | beat` (see [`send`](Self::send)).
    epoch: u64,
    beat: u64,
    exchanged: u64,
    /// Counts the expansion's work; [`poll`](Self::poll) when it says a poll is due.
    pub(super) ticker: Ticker<'l>,
    /// When this worker stopped for a limit and told its peers to stop too.
    halted: Option<Instant>,
    /// The workers this one sends heartbeats to (the first worker of every other process,
    /// when this is its process's first; else none), and when the next is due.
    heartbeat_to: Vec<usize>,
    heartbeat_at: Instant,
}

/// Why a worker left a round unfinished.
pub(super) enum Abandon {
    /// The run has failed elsewhere (a peer is gone).
    Fault,
    /// This worker stopped for a limit and its peers did not stop with it within [`GRACE`]:
    /// it returns what it has, without them.
    Limit,
}

impl<'w, 'l> Node<'w, 'l> {
    /// `worker`'s node: its dataflow (an input whose messages the exchange routes to their
    /// worker, received into `part`; a probe that closes a round), with `plan` (which only
    /// sizes the round of summaries where there are no bitsets), `workers` per process, and
    /// its ticker on `latch`. A process's first worker owes the others' first workers its
    /// heartbeats.
    pub(super) fn new(
        worker: &'w mut Worker,
        part: Part,
        plan: Plan,
        workers: usize,
        latch: &'l Latch,
    ) -> Self {
        let (me, peers) = (worker.index(), worker.peers());
        let part = Rc::new(RefCell::new(part));
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
        let processes = peers / workers;
        let heartbeat_to = match me % workers {
            0 => (0..processes)
                .map(|p| p * workers)
                .filter(|&w| w != me)
                .collect(),
            _ => Vec::new(),
        };
        Node {
            worker,
            input: Some(input),
            probe,
            part,
            plan,
            me,
            epoch: 0,
            beat: 0,
            exchanged: 0,
            ticker: latch.ticker(),
            halted: None,
            heartbeat_to,
            heartbeat_at: Instant::now(),
        }
    }
}

impl Node<'_, '_> {
    /// Polls the run's latch (time, Ctrl-C, and a limit a peer halted the run for), tells the
    /// peers when this worker is the one that stopped, and sends the heartbeat when it is due.
    /// True when the worker must stop expanding.
    pub(super) fn poll(&mut self) -> bool {
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
    pub(super) fn send(&mut self, to: usize, body: Body) {
        let Some(input) = &mut self.input else {
            return;
        };
        // What the states cost on the wire: bincode's 8-byte lengths and the payload.
        let bytes = match &body {
            Body::Words { words, .. } => 8 * words.len() as u64 + 16,
            Body::Indices(bytes) => bytes.len() as u64 + 8,
            Body::Summary(_) | Body::Round(_) => 0,
            // Urgent: sent now. Timely's exchange keeps what an input sends in a buffer per
            // worker until the buffer fills or the input's time advances, so the time advances
            // by a beat within the round: without it, a heartbeat waited for the end of the
            // round, and a peer searching longer than the peer timeout was taken for lost.
            Body::Halt(_) | Body::Heartbeat | Body::Cutoff { .. } => {
                input.send(Message {
                    to: to as u32,
                    body,
                });
                self.beat += 1;
                input.advance_to(self.epoch << 32 | self.beat);
                return;
            }
        };
        self.exchanged += bytes;
        input.send(Message {
            to: to as u32,
            body,
        });
        // A batch of states is 8 KiB or so: handed to the exchange now, where it leaves with
        // the next batches for its worker once they fill a buffer (or at the barrier).
        if bytes > 0 {
            input.flush();
        }
    }

    /// Steps the worker until `done` says so, polling meanwhile (heartbeats, limits). A worker
    /// that stopped for a limit waits [`GRACE`] at most for its peers, which it told to stop:
    /// after that it abandons the round, so that a limit holds whatever they do.
    fn wait(&mut self, done: impl Fn(&Self) -> bool) -> Result<(), Abandon> {
        while !done(self) {
            if fault::aborted() {
                return Err(Abandon::Fault);
            }
            if self.poll() && self.halted.is_some_and(|at| at.elapsed() > GRACE) {
                return Err(Abandon::Limit);
            }
            // Parks (woken by incoming messages) rather than spinning: cores are shared.
            self.worker.step_or_park(Some(Duration::from_millis(1)));
            #[cfg(test)]
            if std::ptr::from_ref(self.ticker.latch()) as usize
                == STARVED.load(std::sync::atomic::Ordering::SeqCst)
            {
                std::thread::sleep(STARVED_PAUSE);
            }
        }
        Ok(())
    }

    /// Closes the current round and waits until every worker has closed it and every message
    /// of it has been received.
    fn barrier(&mut self) -> Result<(), Abandon> {
        self.epoch += 1;
        self.beat = 0;
        let time = self.epoch << 32;
        if let Some(input) = &mut self.input {
            input.advance_to(time);
        }
        self.wait(|node| !node.probe.less_than(&time))
    }

    /// Sends `summary` to every worker, closes the round, and returns every worker's, by worker.
    fn exchange_summaries(&mut self, summary: Summary) -> Result<Vec<Summary>, Abandon> {
        let mut all = self.exchange(Body::Summary(summary), |part| {
            std::mem::take(&mut part.summaries)
        })?;
        all.sort_by_key(|s| s.from);
        Ok(all)
    }

    /// Sends `body` to every worker, closes the round, and returns what `take` then takes from
    /// the part: what every worker sent in the round.
    pub(super) fn exchange<T>(
        &mut self,
        body: Body,
        take: impl FnOnce(&mut Part) -> T,
    ) -> Result<T, Abandon> {
        for to in 0..self.plan.workers {
            self.send(to, body.clone());
        }
        self.barrier()?;
        Ok(take(&mut self.part.borrow_mut()))
    }

    /// Closes the input and lets the dataflow drain, so that every process shuts down cleanly.
    pub(super) fn drain(&mut self) -> Result<(), Abandon> {
        self.input = None;
        self.wait(|node| node.probe.done())
    }
}

/// What one worker hands back: the sweep, identical on every worker, and its own memory.
#[derive(Clone, Default)]
pub(super) struct Outcome {
    pub(super) histogram: Vec<u64>,
    pub(super) lowest: Option<u64>,
    pub(super) stopped: Option<Limit>,
    pub(super) stats: Stats,
    pub(super) exchanged: u64,
    pub(super) memory_bytes: u64,
    /// Whether every round and the dataflow's shutdown completed (else the worker left its
    /// peers behind at a limit, and the process should not wait for the network to close).
    pub(super) clean: bool,
}

/// What every worker is told.
pub(super) struct Job {
    pub(super) words: usize,
    pub(super) sources: Vec<u64>,
    /// The limits, with the clock started when the run did.
    pub(super) limits: Limits,
    /// Workers per process.
    pub(super) workers: usize,
    /// What this process's workers cost beside their bitsets
    /// ([`Cluster::workers_bytes`](super::Cluster::workers_bytes)).
    pub(super) workers_bytes: u128,
    /// The sweep as far as it got, published by the process's first worker after every
    /// layer: what the process reports if its workers do not come back at a limit.
    pub(super) progress: Mutex<Outcome>,
}

/// One worker's whole sweep, mirroring the layers engine's loop. `None` when the run failed.
pub(super) fn work<E: Expand>(
    worker: &mut Worker,
    expand: &E,
    job: &Job,
    latch: &Latch,
) -> Option<Outcome> {
    let (me, peers) = (worker.index(), worker.peers());
    let plan = Plan::new(job.words, peers);
    let part = Part {
        first_word: plan.words_of(me).start,
        early: Some(Vec::new()),
        ..Part::default()
    };
    let mut node = Node::new(worker, part, plan, job.workers, latch);
    let mut outcome = Outcome::default();
    match sweep(&mut node, expand, job, &mut outcome) {
        Err(Abandon::Fault) => return None,
        Err(Abandon::Limit) => {
            outcome.stopped = latch.reason();
            return Some(outcome);
        }
        Ok(()) => {}
    }
    match node.drain() {
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
