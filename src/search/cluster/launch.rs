//! Timely started on a cluster ([`launch`]): the processes connected (or this one's threads
//! alone), the workers started with a body, their outcomes handed over as each finishes, and
//! the orderly shutdown after a clean end ([`Launched::shut_down`]). What every cluster job
//! shares: the sweep (`run.rs`) and the search in rounds (`rounds.rs`) each give a body.

use super::fault;
use super::framing::{Framing, message_cap};
use super::net::{Failure, Watched, connect};
use super::worker::GRACE;
use super::{Cluster, Fault};
use crate::limit::{Latch, Limits};
use std::net::TcpStream;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::worker::Worker;

/// Workers started on timely: their outcomes as they finish, and the join of every thread.
pub(super) struct Launched<O> {
    /// Each worker's outcome as it finishes, not when joined (joining also waits for the
    /// network threads, which wait for the peers); `None` when the run failed.
    pub(super) outcomes: mpsc::Receiver<Option<O>>,
    /// Says when every timely thread is joined.
    joined: mpsc::Receiver<()>,
}

/// Connects `cluster`'s processes (each pair checking `fingerprint`: the job's, so that a peer
/// started on another one is refused) and starts `cluster.workers` workers here running
/// `body`. The panic hook that turns a lost peer into a [`Fault`] is installed first.
pub(super) fn launch<O: Send + 'static>(
    cluster: &Cluster,
    limits: &Limits,
    latch: &Latch,
    fingerprint: u64,
    body: impl Fn(&mut Worker) -> Option<O> + Send + Sync + 'static,
) -> Result<Launched<O>, Failure> {
    let (processes, workers) = (cluster.processes(), cluster.workers.max(1));
    // Before any network thread starts: a peer refused at its first bytes is recorded, and a
    // panic of timely's threads kept quiet, from the start.
    fault::install_panic_hook();
    fault::clear();
    let (builders, others): (Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>) =
        if processes == 1 {
            let config = if workers == 1 {
                timely::CommunicationConfig::Thread
            } else {
                timely::CommunicationConfig::Process(workers)
            };
            config.try_build().map_err(|e| Failure::Fault(Fault(e)))?
        } else {
            let sockets = connect(cluster, fingerprint, latch)?;
            // What each peer may send: timely's framing, from its workers to ours, each message
            // within the share of the budget a peer's may take.
            let cap = message_cap(limits.memory_budget, processes - 1);
            let workers_of = |p: usize| (p * workers) as u64..((p + 1) * workers) as u64;
            let watch = |p: usize, socket: TcpStream| {
                let peer = format!("process {p} ({})", cluster.addresses[p]);
                let framing = Framing::new(
                    cap,
                    limits.memory_budget,
                    workers_of(p),
                    workers_of(cluster.process),
                );
                Watched::new(socket, cluster.peer_timeout, peer, framing)
            };
            let fault = |message: String| Failure::Fault(Fault(message));
            let sockets = sockets
                .into_iter()
                .enumerate()
                .map(|(p, socket)| socket.map(|s| watch(p, s)).transpose())
                .collect::<std::io::Result<Vec<_>>>()
                .map_err(|e| fault(format!("cannot set up a peer's socket: {e}")))?;
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
            .map_err(|e| fault(format!("cannot start the network threads: {e}")))?;
            let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
            (builders, Box::new(guard))
        };
    let (finished, outcomes) = mpsc::channel();
    let guards = timely::execute::execute_from(
        builders,
        others,
        timely::WorkerConfig::default(),
        move |worker| {
            let _ = finished.send(body(worker));
        },
    )
    .map_err(|e| Failure::Fault(Fault(e)))?;
    // Joined on a thread of its own, so that a fault or a limit can end the wait: workers
    // blocked on a dead peer would never be joined, and the process is about to exit anyway.
    // Named like timely's threads: when a peer is gone, joining the network threads panics too,
    // and the hook keeps that quiet.
    let (done, joined) = mpsc::channel();
    std::thread::Builder::new()
        .name("timely:join".into())
        .spawn(move || {
            let _ = guards.join();
            let _ = done.send(());
        })
        .map_err(|e| Failure::Fault(Fault(format!("cannot start a thread: {e}"))))?;
    Ok(Launched { outcomes, joined })
}

impl<O> Launched<O> {
    /// After a clean end, waits for the network threads to close the connections in order, so
    /// that every peer sees this process finish rather than vanish (a peer that falls silent
    /// now is reported like any other). Past a limit (`stopped_at`: when this process first
    /// saw it), a peer slow to say goodbye holds the answer back [`GRACE`] at most.
    pub(super) fn shut_down(
        &self,
        cluster: &Cluster,
        latch: &Latch,
        stopped_at: &mut Option<Instant>,
    ) -> Result<(), Fault> {
        loop {
            if let Some(fault) = fault::take(cluster) {
                return Err(fault);
            }
            match self.joined.recv_timeout(Duration::from_millis(50)) {
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                _ => return Ok(()),
            }
            if latch.check().is_err()
                && stopped_at.get_or_insert_with(Instant::now).elapsed() > GRACE
            {
                return Ok(());
            }
        }
    }
}
