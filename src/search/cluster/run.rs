//! One process's part of a sweep ([`run`]): the checks before anything starts, the
//! connections to the other processes, the workers started on timely, and the wait for them
//! (or for a fault, or for a limit that they are too slow to honour).

use super::fault;
use super::framing::{Framing, message_cap};
use super::net::{Failure, Watched, connect, fingerprint};
use super::worker::{Expand, GRACE, HEARTBEAT, Job, Outcome, work};
use super::{Cluster, Fault, Report, Swept};
use crate::limit::{Latch, Limit, Limits};
use crate::search::Stats;
use crate::search::layers::{self, Layers};
use crate::space::Indexed;
use std::net::TcpStream;
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};

/// Runs the sweep of `space` from `sources` on `cluster`: connects the processes, starts the
/// workers, waits for them or for a fault.
pub(super) fn run<P: Indexed + Send + Sync + 'static, E: Expand>(
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
            let sockets = sockets
                .into_iter()
                .enumerate()
                .map(|(p, socket)| socket.map(|s| watch(p, s)).transpose())
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
    let fault = || fault::take(cluster);
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
