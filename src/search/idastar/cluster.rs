//! IDA* across processes (`solve --processes P --process I --hostfile FILE`): every process
//! splits each iteration into the same tasks and searches its share on its threads; the
//! answer is the one-process run's.
//!
//! # How
//!
//! Each iteration is `parallel.rs`'s, split into tasks for all the threads of
//! the cluster (every process runs as many: the split depends on it), task `k` searched by
//! process `k mod P` in increasing order from a counter of its own, by its threads. Tasks are
//! dealt round-robin rather than in blocks so that the shares stay even when the subtrees'
//! sizes drift along the depth-first order (the 3x3x3's first moves differ a hundredfold).
//! The processes meet at the end of each iteration (the cluster's `rounds.rs`): each reports its counts, the
//! smallest `f` it cut, its first task that did not end, and the goals its ended tasks hold,
//! each path as the ordinals of its moves among the successors of its states (so that no move
//! or state need be serialized: every process replays it from the start, and a path that does
//! not replay to a goal is a fault, not an answer). Every process then takes the same decision
//! from the same reports, as the one-process run does from its threads': the goals of the
//! earliest tasks, provided every task before them ended; else the next threshold.
//!
//! A goal found in task `k` lowers the iteration's cut-off to `k` in its process, and the
//! coordinator sends it to the others at once: tasks after `k` stop in every process. A limit
//! (time, Ctrl-C) in any process halts all of them; a lost or silent peer is a fault within the
//! peer timeout (the sweep's machinery: [`cluster`](crate::search::cluster)).
//!
//! # What differs from one process
//!
//! - The node counts, as between thread counts; the path and the solution list are the same.
//! - `max_states` counts each process's expansions (each holds its own count).
//! - A start that cannot reach a goal is proven when an iteration cuts nothing, as on one
//!   process; the proof from the transposition tables (every state the start reaches entered)
//!   needs every process's table, so with several processes the search goes on to a limit
//!   instead (the plugins' own checks, parity and the like, refuse most such starts first).
//! - Every process builds or loads its heuristic's tables before it connects: give
//!   `--connect-timeout` the time the slowest takes.
//! - The processes must run the same build on the same search: the greeting's fingerprint is a
//!   hash of the start, its successors, the heuristic's estimate, the threads and the solutions
//!   asked, and a peer with another is refused.

use super::Representative;
use crate::limit::Limits;
use crate::options::SearchOptions;
use crate::search::Report;
use crate::search::cluster::{Cluster, Fault};
use crate::space::{Heuristic, StateSpace};
#[cfg(feature = "cluster")]
use {
    super::Carry,
    super::parallel::{self, End, Run, Shared, Worker},
    crate::limit::{Latch, Limit},
    crate::search::cluster::rounds::{Halted, RoundReport, Rounds},
    crate::search::transpositions::TranspositionTable,
    crate::search::{Outcome, Path, Stats, Step},
    std::hash::{Hash, Hasher},
    std::sync::Arc,
};

/// IDA* from `start` on `cluster`'s processes, each with `options.threads` threads: the
/// one-process run's answer (see the module docs), or the fault that ended the run.
pub(super) fn solve<P: StateSpace, H: Heuristic<P> + ?Sized>(
    space: &P,
    heuristic: &H,
    start: P::State,
    limits: &Limits,
    options: &SearchOptions,
    root_classes: Option<Representative<P>>,
    cluster: &Cluster,
) -> Result<Report<P::State, P::Move>, Fault> {
    #[cfg(feature = "cluster")]
    return match heuristic.carries_memo() {
        true => on_cluster::<P, H, crate::space::Prefetched>(
            space,
            heuristic,
            start,
            limits,
            options,
            root_classes,
            cluster,
        ),
        false => on_cluster::<P, H, ()>(
            space,
            heuristic,
            start,
            limits,
            options,
            root_classes,
            cluster,
        ),
    };
    #[cfg(not(feature = "cluster"))]
    {
        let _ = (
            space,
            heuristic,
            start,
            limits,
            options,
            root_classes,
            cluster,
        );
        Err(Fault(crate::search::cluster::NOT_BUILT.to_string()))
    }
}

#[cfg(feature = "cluster")]
/// What identifies the search, for the peers' greeting: the start, its successors and its
/// estimate, the threads (the split depends on them) and the solutions asked for.
fn fingerprint<P: StateSpace, H: Heuristic<P> + ?Sized>(
    space: &P,
    heuristic: &H,
    start: P::State,
    options: &SearchOptions,
    root_classes: bool,
) -> u64 {
    // SipHash with fixed keys: the same in every process of one build.
    #[allow(deprecated)]
    let mut hasher = std::hash::SipHasher::new();
    start.hash(&mut hasher);
    space.successors(start, &mut |mv, state| {
        mv.to_string().hash(&mut hasher);
        state.hash(&mut hasher);
    });
    heuristic.estimate(space, start).hash(&mut hasher);
    (options.threads.max(1), options.solutions, root_classes).hash(&mut hasher);
    hasher.finish()
}

#[cfg(feature = "cluster")]
/// `path`'s moves as their ordinals among their state's successors.
fn ordinals<P: StateSpace>(space: &P, path: &Path<P::State, P::Move>) -> Vec<u32> {
    let mut state = path.start;
    let mut ordinals = Vec::with_capacity(path.steps.len());
    for step in &path.steps {
        let (mut at, mut found) = (0, None);
        space.successors(state, &mut |mv, next| {
            if found.is_none() && mv == step.mv && next == step.state {
                found = Some(at);
            }
            at += 1;
        });
        ordinals.push(found.expect("a path's steps are successors"));
        state = step.state;
    }
    ordinals
}

#[cfg(feature = "cluster")]
/// The path from `start` that `ordinals` name, if they name successors and end at a goal.
fn replay<P: StateSpace>(
    space: &P,
    start: P::State,
    ordinals: &[u32],
) -> Option<Path<P::State, P::Move>> {
    let mut steps = Vec::with_capacity(ordinals.len());
    let mut state = start;
    for &ordinal in ordinals {
        let (mut at, mut taken) = (0, None);
        space.successors(state, &mut |mv, next| {
            if at == ordinal {
                taken = Some(Step { mv, state: next });
            }
            at += 1;
        });
        let step = taken?;
        state = step.state;
        steps.push(step);
    }
    space.is_goal(state).then_some(Path { start, steps })
}

/// [`solve`] on a cluster, keeping `C` of each successor's estimate.
#[cfg(feature = "cluster")]
fn on_cluster<P: StateSpace, H: Heuristic<P> + ?Sized, C: Carry>(
    space: &P,
    heuristic: &H,
    start: P::State,
    limits: &Limits,
    options: &SearchOptions,
    root_classes: Option<Representative<P>>,
    cluster: &Cluster,
) -> Result<Report<P::State, P::Move>, Fault> {
    let latch = Arc::new(Latch::new(limits));
    let threads = options.threads.max(1);
    // Refused here is refused everywhere: the first round says so to every process.
    let tables = TranspositionTable::for_workers(limits, options, threads);
    let print = fingerprint(space, heuristic, start, options, root_classes.is_some());
    let mut rounds = match Rounds::start(cluster, limits, latch.clone(), print) {
        Ok(rounds) => rounds,
        Err(Halted::Fault(fault)) => return Err(fault),
        Err(Halted::Limit(limit)) => return Ok(Report::stopped(limit, latch.elapsed())),
    };
    let mut refusal = RoundReport::default();
    refusal.stopped(tables.as_ref().err().cloned());
    let refused = match rounds.exchange(refusal) {
        Ok(reports) => reports.iter().find_map(RoundReport::stop),
        Err(Halted::Fault(fault)) => return Err(fault),
        Err(Halted::Limit(limit)) => Some(limit),
    };
    let tables = match (tables, refused) {
        (Ok(tables), None) => tables,
        (_, Some(limit)) | (Err(limit), None) => {
            rounds.finish()?;
            return Ok(Report::stopped(limit, latch.elapsed()));
        }
    };
    let mut workers: Vec<Worker<P, C>> = tables.into_iter().map(Worker::new).collect();
    let run = Run::new(
        space,
        heuristic,
        limits,
        options,
        &latch,
        start,
        root_classes,
    );
    let share = (cluster.process, cluster.processes());
    let mut stats = Stats::default();
    let mut threshold = heuristic.estimate(space, start);
    let mut expanded = 0;
    let (outcome, others) = loop {
        if let Some(max) = limits.max_depth.filter(|&max| threshold > max) {
            break (Outcome::LimitReached(Limit::Depth(max)), Vec::new());
        }
        stats.depth = threshold;
        let shared = Shared::new(&latch, limits.max_states, expanded, rounds.cutoff(), share);
        let mut iteration = Stats::default();
        let ended = run.iteration(threshold, &mut workers, &shared, &mut iteration);
        expanded = shared.expanded();
        let mut report = report_of(space, share, ended, &iteration);
        report.stopped(latch.reason());
        let reports = match rounds.exchange(report) {
            Ok(reports) => reports,
            Err(Halted::Fault(fault)) => return Err(fault),
            Err(Halted::Limit(limit)) => break (Outcome::LimitReached(limit), Vec::new()),
        };
        let mut all = Stats::default();
        for r in &reports {
            all.expanded += r.expanded;
            all.generated += r.generated;
            all.visited += r.visited;
            all.peak_frontier = all.peak_frontier.max(r.peak_frontier);
        }
        parallel::add(&mut stats, &all, threshold);
        match decide(space, start, options.solutions, threshold, &reports)? {
            Decision::Solved(mut paths) => {
                let first = paths.remove(0);
                break (Outcome::Solved(first), paths);
            }
            Decision::Stopped => {
                let limit = (reports.iter().find_map(RoundReport::stop))
                    .or_else(|| latch.reason())
                    .unwrap_or(Limit::Interrupted);
                break (Outcome::LimitReached(limit), Vec::new());
            }
            Decision::Deeper(u32::MAX) => break (Outcome::Unsolvable, Vec::new()),
            Decision::Deeper(next) => {
                // One process holds every table: the proof of the one-process run.
                if share.1 == 1 {
                    match run.exhausted(&mut workers) {
                        Ok(true) => break (Outcome::Unsolvable, Vec::new()),
                        Ok(false) => {}
                        Err(limit) => break (Outcome::LimitReached(limit), Vec::new()),
                    }
                }
                threshold = next;
            }
        }
    };
    rounds.finish()?;
    Ok(parallel::report(outcome, others, stats, &latch, &workers))
}

/// This process's report of an iteration (`ended`: [`Run::iteration`]'s), its `share` of
/// the tasks, its counts in `stats`.
#[cfg(feature = "cluster")]
fn report_of<P: StateSpace>(
    space: &P,
    (process, processes): (usize, usize),
    ended: Result<parallel::Ended<P>, Limit>,
    stats: &Stats,
) -> RoundReport {
    let mut report = RoundReport::default();
    report.expanded = stats.expanded;
    report.generated = stats.generated;
    report.visited = stats.visited;
    report.peak_frontier = stats.peak_frontier;
    report.next_bound = u32::MAX;
    let (ends, next_bound) = match ended {
        Ok(ended) => ended,
        // Stopped in the split: no task ended.
        Err(_) => {
            report.open = Some(0);
            return report;
        }
    };
    report.next_bound = next_bound;
    for (k, end) in ends.iter().enumerate().skip(process).step_by(processes) {
        match end {
            Some(End::Done(found)) => {
                if !found.is_empty() {
                    let paths = found.iter().map(|p| ordinals(space, p)).collect();
                    report.found.push((k as u64, paths));
                }
            }
            _ => {
                report.open = Some(k as u64);
                break;
            }
        }
    }
    report
}

#[cfg(feature = "cluster")]
/// What every process does after an iteration, from the same reports.
enum Decision<S, M> {
    /// The solutions asked for (or all there are), in order.
    Solved(Vec<Path<S, M>>),
    /// A task before the answer did not end: only a limit stops one.
    Stopped,
    /// No goal within the threshold: the next one (`u32::MAX`: nothing was cut).
    Deeper(u32),
}

/// The decision after the iteration at `threshold` from every process's `reports`: the goals of
/// the earliest tasks, joined in task order up to `wanted`, when every task before them ended.
/// A path that does not replay to a goal in `threshold` moves (every goal an iteration finds is
/// that far: a nearer one would have been found by an earlier iteration) is a fault of the
/// process that sent it.
#[cfg(feature = "cluster")]
fn decide<P: StateSpace>(
    space: &P,
    start: P::State,
    wanted: usize,
    threshold: u32,
    reports: &[RoundReport],
) -> Result<Decision<P::State, P::Move>, Fault> {
    let open = reports.iter().filter_map(|r| r.open).min();
    let mut found: Vec<(u64, u32, &Vec<Vec<u32>>)> = (reports.iter())
        .flat_map(|r| r.found.iter().map(move |(k, paths)| (*k, r.from, paths)))
        .filter(|&(k, _, _)| open.is_none_or(|open| k < open))
        .collect();
    found.sort_by_key(|&(k, _, _)| k);
    let mut paths = Vec::new();
    for (_, from, ordinals) in found
        .iter()
        .flat_map(|(k, f, p)| p.iter().map(move |o| (k, f, o)))
    {
        if paths.len() >= wanted.max(1) {
            break;
        }
        let path = (replay(space, start, ordinals))
            .filter(|path| path.len() == threshold as usize)
            .ok_or_else(|| {
                Fault(format!(
                    "process {from} sent a path that does not reach a goal in {threshold} moves"
                ))
            })?;
        paths.push(path);
    }
    Ok(
        if paths.len() >= wanted.max(1) || open.is_none() && !paths.is_empty() {
            Decision::Solved(paths)
        } else if open.is_some() {
            Decision::Stopped
        } else {
            Decision::Deeper(
                reports
                    .iter()
                    .map(|r| r.next_bound)
                    .min()
                    .unwrap_or(u32::MAX),
            )
        },
    )
}

#[cfg(all(test, feature = "cluster"))]
mod tests {
    use super::*;
    use crate::space::Indexed;
    use crate::toys::heuristic::{Slide, SlideManhattan};

    #[test]
    fn paths_travel_as_ordinals_and_only_a_path_to_a_goal_replays() {
        let limits = Limits::default();
        let options = SearchOptions::default();
        let mut solved = 0;
        for start in [5, 77, 301, 600].map(|i| Slide.state(i)) {
            let report = super::super::solve(&Slide, &SlideManhattan, start, &limits, &options);
            let Outcome::Solved(path) = report.outcome else {
                continue;
            };
            solved += 1;
            let sent = ordinals(&Slide, &path);
            assert_eq!(sent.len(), path.len());
            assert_eq!(replay(&Slide, start, &sent), Some(path.clone()));
            if let Some((_, short)) = sent.split_last() {
                // One move short of the goal, or a successor that is not there: no path.
                assert_eq!(replay(&Slide, start, short), None);
                let mut wrong = sent.clone();
                wrong[0] = 99;
                assert_eq!(replay(&Slide, start, &wrong), None);
            }
        }
        assert!(solved >= 2, "{solved}");
    }
}
