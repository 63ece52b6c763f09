//! One process's part of a sweep ([`run`]): the checks before anything starts, the workers
//! started on timely ([`launch`]), and the wait for them (or for a fault, or for a limit that
//! they are too slow to honour).

use super::fault;
use super::launch::launch;
use super::net::{Failure, fingerprint};
use super::worker::{Expand, GRACE, HEARTBEAT, Job, Outcome, work};
use super::{Cluster, Fault, Report, Swept};
use crate::limit::{Latch, Limit, Limits};
use crate::search::Stats;
use crate::search::layers::{self, Layers};
use crate::space::Indexed;
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

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

    // The strategy (word blocks or indices) is in the expansion's type name.
    let strategy = std::any::type_name::<E>().bytes().map(u64::from);
    let fingerprint = fingerprint(
        [space.size() as u64, (space.size() >> 64) as u64]
            .into_iter()
            .chain([processes as u64, workers as u64])
            .chain(strategy)
            .chain(sources.iter().copied()),
    );
    let job = Arc::new(Job {
        words,
        sources,
        limits: limits.clone(),
        workers,
        workers_bytes: cluster.workers_bytes(),
        progress: Mutex::new(Outcome::default()),
    });
    let expand = Arc::new(expand);
    let (worker_job, worker_latch) = (job.clone(), latch.clone());
    let body = move |worker: &mut timely::worker::Worker| {
        work(worker, &*expand, &worker_job, &worker_latch)
    };
    let launched = match launch(cluster, &limits, &latch, fingerprint, body) {
        Ok(launched) => launched,
        Err(Failure::Fault(fault)) => return Err(fault),
        Err(Failure::Limit(limit)) => {
            swept.layers.stopped = Some(limit);
            return Ok(swept);
        }
    };
    let fault = || fault::take(cluster);
    let mut results = Vec::new();
    let mut stopped_at = None;
    while results.len() < workers {
        match launched.outcomes.recv_timeout(Duration::from_millis(50)) {
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
    if results.iter().all(|r| r.clean) {
        launched.shut_down(cluster, &latch, &mut stopped_at)?;
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
