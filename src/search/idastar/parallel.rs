//! IDA* on several threads ([`SearchOptions::threads`](crate::options::SearchOptions::threads) above 1): each iteration is split into
//! subtrees, searched by workers, and the answer is exactly the one-thread search's.
//!
//! # How an iteration is split
//!
//! The main thread expands the tree of the iteration from the start, level by level, with the
//! node loop's own code (the move-order rule, the threshold, the smallest cut `f`), until the
//! frontier holds at least [`TASKS_PER_THREAD`] subtrees per thread (or nothing is left to
//! expand). The frontier's nodes, in depth-first order, are the tasks; a goal met above the
//! split depth stays a task of its own, in its place. Workers take tasks in that order from an
//! atomic counter, so a slow subtree holds up one thread and the others go on with the next
//! ones. Each worker has its own successor buffers and its own transposition table (the budget
//! split evenly between them, refused before anything is allocated as on one thread). Threads
//! are started for each iteration (a few tens of microseconds against an iteration's work).
//!
//! # Why the answer is the one-thread answer
//!
//! Without a table, the one-thread search finds the first goal of the iteration's tree in
//! depth-first order. With a table it finds the same one: a node the table prunes has a copy,
//! visited earlier in depth-first order, whose subtree holds a copy of every goal below it (see
//! the transposition module's proof), so the first goal is never pruned. That holds for any
//! table that holds only entries of nodes visited earlier in the iteration, so it holds for each
//! worker's: a worker takes tasks in increasing order, so its earlier entries come earlier in
//! depth-first order. A worker enters the nodes above its task's root (those it has not entered
//! for its last task) as the one-thread search enters them on the way down, so a branch that
//! comes back to a state above the split stops as it would on one thread, and a task below a
//! repeated state is skipped as the one-thread search skips it.
//!
//! So the answer is the goal in the earliest task that holds one: a worker that finds it in task
//! `k` lets the workers on tasks after `k` stop (they poll a shared cut-off with their limits),
//! while the tasks before `k` run to their end. With [`SearchOptions::solutions`](crate::options::SearchOptions::solutions) `n` above 1, each
//! task lists its own solutions (at most `n`), and the lists are joined in task order: the
//! cut-off is the first task where the tasks up to it hold `n`. The iteration's next threshold is
//! the smallest cut `f` over the split and all tasks. The thresholds may differ from the
//! one-thread run's (the table can raise a threshold by more than it would without it, never past
//! the optimal length: see the transposition module), but the last iteration's is the optimal
//! length on both, and its first goal is the same.
//!
//! # Limits, and what differs
//!
//! Time and Ctrl-C: each worker polls the run's [`Latch`] through its own [`Ticker`], so a
//! limit holds within a poll on every thread, and the first thread to see one stops the others
//! with the same reason. `max_states` counts the expansions of all threads: each worker adds its
//! count to a shared one at each poll, so the run stops within a poll's work per thread of the
//! limit (on one thread: exactly at it). `max_depth` and `Unsolvable` are decided between
//! iterations, as on one thread. A limit reached after the answer is settled (the task holding
//! it and every task before it ended) does not hide it.
//!
//! The node counts differ from one thread's: the workers search the tasks after the solving one
//! until they see the cut-off, and each table misses the entries of the other workers' tasks (more
//! repeats searched). `peak_frontier` is the largest of one worker's. The counts of a run on one
//! thread (the default) are unchanged.

use super::{Carry, Child, Level, Pace, Representative, Search, Stop};
use crate::limit::{Latch, Limit, Limits, Ticker};
use crate::options::SearchOptions;
use crate::search::transpositions::TranspositionTable;
use crate::search::{Iteration, Outcome, Path, Report, Stats, Step};
use crate::space::{Heuristic, StateSpace, memo};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Tasks per thread the split aims at, at least: enough that the subtrees' uneven sizes even
/// out between the threads, also in the iteration that finds a goal, where the threads wait for
/// the tasks before the goal's. At 8, the 3x3x3 split at depth 1 (18 subtrees of very unequal
/// sizes) and two threads kept 1.5 cores busy on a random state; at 64 it splits at depth 2
/// (about 240), a few hundred nodes of the split against the iteration's millions.
pub const TASKS_PER_THREAD: usize = 64;

/// A task: the moves from the start to its root, each with the state after it.
type Task<S, M> = Vec<Step<S, M>>;

/// How a task of a search over `P` ended.
pub(super) type TaskEnd<P> = End<<P as StateSpace>::State, <P as StateSpace>::Move>;

/// An iteration's end: each task's end (`None` when no worker took it), and the next threshold.
pub(super) type Ended<P> = (Vec<Option<TaskEnd<P>>>, u32);

/// An iteration's split: the tasks, and the smallest `f` the split cut.
type Split<P> = (
    Vec<Task<<P as StateSpace>::State, <P as StateSpace>::Move>>,
    u32,
);

/// A run's answer: the outcome and the further solutions.
type Answer<P> = (
    Outcome<<P as StateSpace>::State, <P as StateSpace>::Move>,
    Vec<Path<<P as StateSpace>::State, <P as StateSpace>::Move>>,
);

/// IDA* on [`SearchOptions::threads`](crate::options::SearchOptions::threads) threads: see the module docs.
pub(super) fn solve<P: StateSpace, H: Heuristic<P> + ?Sized, C: Carry>(
    space: &P,
    heuristic: &H,
    start: P::State,
    limits: &Limits,
    options: &SearchOptions,
    root_classes: Option<Representative<P>>,
) -> Report<P::State, P::Move> {
    let latch = Latch::new(limits);
    let threads = options.threads.max(1);
    let tables = match TranspositionTable::for_workers(limits, options, threads) {
        Ok(tables) => tables,
        Err(limit) => return Report::stopped(limit, latch.elapsed()),
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
    let mut stats = Stats::default();
    let (outcome, others) = run.iterations(&mut workers, &mut stats);
    report(outcome, others, stats, &latch, &workers)
}

/// The run's report: its `outcome`, the `others` solutions, its `stats` with the time and the
/// workers' tables.
pub(super) fn report<P: StateSpace, C>(
    outcome: Outcome<P::State, P::Move>,
    others: Vec<Path<P::State, P::Move>>,
    mut stats: Stats,
    latch: &Latch,
    workers: &[Worker<P, C>],
) -> Report<P::State, P::Move> {
    stats.elapsed = latch.elapsed();
    for table in workers.iter().filter_map(|w| w.table.as_ref()) {
        stats.transposition_hits += table.hits();
        stats.transposition_bytes += table.bytes();
    }
    let mut report = Report::new(outcome, stats);
    report.others = others;
    report
}

/// What a worker keeps from one iteration to the next.
pub(super) struct Worker<P: StateSpace, C> {
    table: Option<TranspositionTable<P::State, P::Move>>,
    buffers: Vec<Level<P, C>>,
}

impl<P: StateSpace, C> Worker<P, C> {
    /// A worker with `table`, or none.
    pub(super) fn new(table: Option<TranspositionTable<P::State, P::Move>>) -> Self {
        Worker {
            table,
            buffers: Vec::new(),
        }
    }
}

/// One run's inputs.
pub(super) struct Run<'a, P: StateSpace, H: ?Sized, C> {
    space: &'a P,
    heuristic: &'a H,
    limits: &'a Limits,
    /// The solutions asked for ([`SearchOptions::solutions`]).
    wanted: usize,
    latch: &'a Latch,
    start: P::State,
    /// Of the start's successors, one per symmetry class (`solve_symmetric`).
    root_classes: Option<Representative<P>>,
    /// What the searches keep of each successor's estimate.
    carry: std::marker::PhantomData<C>,
}

/// How a task ended.
pub(super) enum End<S, M> {
    /// Searched to its end, or until it held the solutions asked for: its solutions in order.
    Done(Vec<Path<S, M>>),
    /// Stopped before: a limit, or a cut-off before it.
    Stopped,
}

/// What the threads of one iteration share.
pub(super) struct Shared<'a> {
    latch: &'a Latch,
    max_states: Option<u64>,
    /// Expansions of all threads, as of their last polls.
    expanded: AtomicU64,
    /// The next of this process's tasks to take (its `share`).
    next: AtomicUsize,
    /// The first task where the tasks up to it hold the solutions asked for (`usize::MAX`: none
    /// yet); the tasks after it stop. On a cluster, the peers lower it too.
    cutoff: &'a AtomicUsize,
    /// The solutions of the tasks ended so far, to find the cut-off.
    progress: Mutex<Progress>,
    /// This process's share of the tasks on a cluster: `(p, P)` takes tasks `k` with
    /// `k mod P = p`; `(0, 1)` all of them.
    share: (usize, usize),
}

/// The tasks ended so far, for the cut-off.
struct Progress {
    /// The solutions of each ended task; `None` while it runs or waits.
    found: Vec<Option<usize>>,
    /// The first task not ended, and the solutions of the tasks before it.
    open: usize,
    before: usize,
}

impl<'a> Shared<'a> {
    /// What the threads of an iteration share, `expanded` expansions into the run, with the
    /// iteration's `cutoff` (at `usize::MAX`) and this process's `share` of the tasks.
    pub(super) fn new(
        latch: &'a Latch,
        max_states: Option<u64>,
        expanded: u64,
        cutoff: &'a AtomicUsize,
        share: (usize, usize),
    ) -> Self {
        Shared {
            latch,
            max_states,
            expanded: AtomicU64::new(expanded),
            next: AtomicUsize::new(0),
            cutoff,
            progress: Mutex::new(Progress {
                found: Vec::new(),
                open: 0,
                before: 0,
            }),
            share,
        }
    }

    /// Expansions of all threads so far.
    pub(super) fn expanded(&self) -> u64 {
        self.expanded.load(Ordering::Relaxed)
    }

    /// Task `k` ended with `found` solutions: moves the cut-off when the tasks up to `k` (or
    /// up to the first not ended) hold `wanted`.
    fn ended(&self, k: usize, found: usize, wanted: usize) {
        let mut progress = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        progress.found[k] = Some(found);
        if found >= wanted {
            self.cutoff.fetch_min(k, Ordering::Relaxed);
        }
        while let Some(&Some(n)) = progress.found.get(progress.open) {
            progress.before += n;
            if progress.before >= wanted {
                self.cutoff.fetch_min(progress.open, Ordering::Relaxed);
            }
            progress.open += 1;
        }
    }
}

/// The pace of one thread of a parallel run: its ticker, the shared state count, and the
/// cut-off for its task.
struct Share<'a> {
    shared: &'a Shared<'a>,
    ticker: Ticker<'a>,
    /// The task being searched.
    task: usize,
    /// Expansions not yet added to the shared count, and that count as last seen.
    unflushed: u64,
    seen: u64,
}

impl Share<'_> {
    fn flush(&mut self) {
        let before = self
            .shared
            .expanded
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.seen = before + self.unflushed;
        self.unflushed = 0;
    }
}

impl Pace for Share<'_> {
    #[inline]
    fn expansion(&mut self, stats: &mut Stats) -> Result<(), Stop> {
        stats.expanded += 1;
        if let Some(max) = self.shared.max_states {
            self.unflushed += 1;
            if self.seen + self.unflushed > max {
                self.flush();
                return Err(Stop::Limit(self.shared.latch.trip(Limit::States(max))));
            }
        }
        Ok(())
    }

    #[inline]
    fn poll(&mut self, work: u64) -> Result<(), Stop> {
        if !self.ticker.due(work) {
            return Ok(());
        }
        self.flush();
        self.shared.latch.check().map_err(Stop::Limit)?;
        if self.shared.cutoff.load(Ordering::Relaxed) < self.task {
            return Err(Stop::Cancelled);
        }
        Ok(())
    }
}

impl<'a, P: StateSpace, H: Heuristic<P> + ?Sized, C: Carry> Run<'a, P, H, C> {
    /// The run from `start` under `limits` (its `latch`), as `options` ask.
    pub(super) fn new(
        space: &'a P,
        heuristic: &'a H,
        limits: &'a Limits,
        options: &SearchOptions,
        latch: &'a Latch,
        start: P::State,
        root_classes: Option<Representative<P>>,
    ) -> Self {
        Run {
            space,
            heuristic,
            limits,
            wanted: options.solutions,
            latch,
            start,
            root_classes,
            carry: std::marker::PhantomData,
        }
    }

    /// What is kept of `state`'s estimate in full: the memo a task's node starts its
    /// successors from (their parent's went with the split).
    fn memo_of(&self, state: P::State) -> C {
        if C::CARRIES {
            C::keep(&memo(self.heuristic, self.space, state).0)
        } else {
            C::default()
        }
    }

    /// The iterations, as [`Search::run`]'s: the outcome and the further solutions.
    fn iterations(&self, workers: &mut [Worker<P, C>], stats: &mut Stats) -> Answer<P> {
        let limits = self.limits;
        let mut threshold = self.heuristic.estimate(self.space, self.start);
        let mut expanded = 0;
        loop {
            if let Some(max) = limits.max_depth.filter(|&max| threshold > max) {
                return (Outcome::LimitReached(Limit::Depth(max)), Vec::new());
            }
            stats.depth = threshold;
            let cutoff = AtomicUsize::new(usize::MAX);
            let shared = Shared::new(self.latch, limits.max_states, expanded, &cutoff, (0, 1));
            let mut iteration = Stats::default();
            let (ends, next_threshold) =
                match self.iteration(threshold, workers, &shared, &mut iteration) {
                    Ok(done) => done,
                    Err(limit) => {
                        add(stats, &iteration, threshold);
                        return (Outcome::LimitReached(limit), Vec::new());
                    }
                };
            add(stats, &iteration, threshold);
            expanded = shared.expanded();
            // The solutions in task order, up to the first task that did not end.
            let mut solutions = Vec::new();
            let mut settled = true;
            for end in ends {
                match end {
                    Some(End::Done(found)) => solutions.extend(found),
                    _ => settled = false,
                }
                if !settled || solutions.len() >= self.wanted {
                    break;
                }
            }
            solutions.truncate(self.wanted);
            if solutions.len() >= self.wanted || settled && !solutions.is_empty() {
                let first = solutions.remove(0);
                return (Outcome::Solved(first), solutions);
            }
            if !settled {
                // A task before the answer did not end: only a limit stops one there.
                let limit = self.latch.reason().unwrap_or(Limit::Interrupted);
                return (Outcome::LimitReached(limit), Vec::new());
            }
            if next_threshold == u32::MAX {
                return (Outcome::Unsolvable, Vec::new());
            }
            match self.exhausted(workers) {
                Ok(true) => return (Outcome::Unsolvable, Vec::new()),
                Ok(false) => {}
                Err(limit) => return (Outcome::LimitReached(limit), Vec::new()),
            }
            threshold = next_threshold;
        }
    }

    /// Whether the workers' tables together hold every state the start reaches, after an
    /// iteration that found no goal ([`TranspositionTable::exhausted_all`]): a proof that the
    /// start is unsolvable. Never without a table on every worker.
    pub(super) fn exhausted(&self, workers: &mut [Worker<P, C>]) -> Result<bool, Limit> {
        let count = workers.len();
        let mut tables: Vec<_> = workers
            .iter_mut()
            .filter_map(|w| w.table.as_mut())
            .collect();
        if tables.len() < count {
            return Ok(false);
        }
        let mut ticker = self.latch.ticker();
        let mut poll = |work| ticker.tick(work);
        TranspositionTable::exhausted_all(&mut tables, self.space, self.start, &mut poll)
    }

    /// One iteration at `threshold`: the split, then the workers. Each task's end (`None` when
    /// no worker took it), and the next threshold; `Err` when a limit stopped the split.
    pub(super) fn iteration(
        &self,
        threshold: u32,
        workers: &mut [Worker<P, C>],
        shared: &Shared,
        stats: &mut Stats,
    ) -> Result<Ended<P>, Limit> {
        for table in workers.iter_mut().filter_map(|w| w.table.as_mut()) {
            table.next_iteration();
        }
        // Every process splits alike, into tasks for all the threads of the cluster.
        let threads = workers.len() * shared.share.1;
        let (tasks, mut next_threshold) = self.split(threshold, threads, shared, stats)?;
        shared
            .progress
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .found = vec![None; tasks.len()];
        let mut ends: Vec<Option<End<P::State, P::Move>>> = Vec::new();
        ends.resize_with(tasks.len(), || None);
        let results = std::thread::scope(|scope| {
            let handles: Vec<_> = workers
                .iter_mut()
                .map(|worker| scope.spawn(|| self.work(worker, &tasks, threshold, shared)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect::<Vec<_>>()
        });
        for (done, worker_stats, worker_next) in results {
            for (k, end) in done {
                ends[k] = Some(end);
            }
            next_threshold = next_threshold.min(worker_next);
            stats.expanded += worker_stats.expanded;
            stats.generated += worker_stats.generated;
            stats.visited += worker_stats.visited;
            stats.peak_frontier = stats.peak_frontier.max(worker_stats.peak_frontier);
        }
        Ok((ends, next_threshold))
    }

    /// A search on this thread for the iteration at `threshold`, with `table` and `buffers`.
    fn search<'s>(
        &'s self,
        threshold: u32,
        shared: &'s Shared<'s>,
        worker: &mut Worker<P, C>,
    ) -> Search<'s, P, H, Share<'s>, C> {
        let pace = Share {
            shared,
            ticker: shared.latch.ticker(),
            task: 0,
            unflushed: 0,
            seen: shared.expanded.load(Ordering::Relaxed),
        };
        let mut search = Search::new(
            self.space,
            self.heuristic,
            self.limits,
            self.wanted,
            worker.table.take(),
            pace,
            self.start,
        );
        search.buffers = std::mem::take(&mut worker.buffers);
        search.root_classes = self.root_classes;
        search.threshold = threshold;
        search
    }

    /// The tasks of the iteration at `threshold` in depth-first order, at least
    /// [`TASKS_PER_THREAD`] per thread where the tree has them, and the smallest `f` the split
    /// cut (see the module docs).
    fn split(
        &self,
        threshold: u32,
        threads: usize,
        shared: &Shared,
        stats: &mut Stats,
    ) -> Result<Split<P>, Limit> {
        let mut nowhere = Worker {
            table: None,
            buffers: Vec::new(),
        };
        let mut search = self.search(threshold, shared, &mut nowhere);
        let mut tasks: Vec<Task<P::State, P::Move>> = vec![Vec::new()];
        let mut successors = Vec::new();
        let mut depth = 0;
        loop {
            let expandable = |task: &Task<P::State, P::Move>| {
                task.len() == depth
                    && !self
                        .space
                        .is_goal(task.last().map_or(self.start, |s| s.state))
            };
            if tasks.len() >= TASKS_PER_THREAD * threads || !tasks.iter().any(expandable) {
                break;
            }
            let mut deeper = Vec::with_capacity(tasks.len() * 2);
            for task in tasks {
                if !expandable(&task) {
                    deeper.push(task); // a goal above the split depth: a task in its place
                    continue;
                }
                let (state, previous) = task
                    .last()
                    .map_or((self.start, None), |s| (s.state, Some(s.mv)));
                search.stats.visited += 1;
                // The task's nodes keep no memo: each is estimated afresh (a few per thread).
                let node_memo = self.memo_of(state);
                let expanded = search.expand(
                    state,
                    previous,
                    depth as u32,
                    (&node_memo, 0),
                    &mut successors,
                );
                if let Err(stop) = expanded {
                    *stats = std::mem::take(&mut search.stats);
                    return Err(match stop {
                        Stop::Limit(limit) => limit,
                        _ => unreachable!("the split neither finds nor is cut off"),
                    });
                }
                for &Child { mv, state, .. } in &successors {
                    let mut child = task.clone();
                    child.push(Step { mv, state });
                    deeper.push(child);
                }
            }
            tasks = deeper;
            depth += 1;
        }
        // On a cluster every process splits, and the first counts it.
        if shared.share.0 == 0 {
            stats.expanded += search.stats.expanded;
            stats.generated += search.stats.generated;
            stats.visited += search.stats.visited;
        }
        stats.peak_frontier = tasks.len() as u64;
        Ok((tasks, search.next_threshold))
    }

    /// One worker's iteration: tasks from the shared counter until none is left, a cut-off
    /// passes them, or a limit stops the run. Each task's end, the worker's stats and its
    /// smallest cut `f`.
    fn work(
        &self,
        worker: &mut Worker<P, C>,
        tasks: &[Task<P::State, P::Move>],
        threshold: u32,
        shared: &Shared,
    ) -> (Vec<(usize, TaskEnd<P>)>, Stats, u32) {
        let mut search = self.search(threshold, shared, worker);
        let mut ends = Vec::new();
        let mut above = Above {
            task: &[],
            entered: 0,
            dead: false,
        };
        let (process, processes) = shared.share;
        loop {
            let k = process + processes * shared.next.fetch_add(1, Ordering::Relaxed);
            if k >= tasks.len()
                || k > shared.cutoff.load(Ordering::Relaxed)
                || self.latch.reason().is_some()
            {
                break;
            }
            search.pace.task = k;
            let end = self.task(&mut search, &tasks[k], &mut above);
            let stopped = matches!(end, End::Stopped);
            if let End::Done(found) = &end {
                shared.ended(k, found.len(), self.wanted);
            }
            ends.push((k, end));
            if stopped {
                break;
            }
        }
        search.pace.flush();
        worker.table = search.table.take();
        worker.buffers = std::mem::take(&mut search.buffers);
        (ends, search.stats, search.next_threshold)
    }

    /// Searches one task: the nodes above its root through the table, as the one-thread search
    /// meets them on its way down (those `above` says the worker has not entered already), then
    /// the subtree.
    fn task<'t>(
        &self,
        search: &mut Search<'_, P, H, Share<'_>, C>,
        task: &'t [Step<P::State, P::Move>],
        above: &mut Above<'t, P::State, P::Move>,
    ) -> End<P::State, P::Move> {
        // The nodes at depths 0 ..= `common` are the last task's.
        let common = task
            .iter()
            .zip(above.task)
            .take_while(|(a, b)| a.mv == b.mv && a.state == b.state)
            .count();
        let first_new = if above.task.is_empty() && above.entered == 0 {
            0
        } else {
            above.entered.min(common + 1)
        };
        let shares_dead = above.dead && common >= above.entered;
        above.task = task;
        if shares_dead {
            return End::Done(Vec::new()); // below a node the table skipped
        }
        above.entered = first_new;
        above.dead = false;
        let (mut state, mut previous) = (self.start, None);
        for (g, step) in task.iter().enumerate() {
            if g >= first_new
                && let Some(table) = &mut search.table
            {
                // A repeat is skipped whole, or loses the successors an earlier entry searched
                // (perhaps the one towards this task).
                let bucket = table.bucket(&state);
                if table.skips(bucket, state, g as u32, previous) {
                    above.dead = true;
                    return End::Done(Vec::new());
                }
                let mut next = vec![(step.mv, step.state)];
                table.enter(self.space, bucket, state, g as u32, previous, &mut next);
                above.entered = g + 1;
                if next.is_empty() {
                    above.dead = true;
                    return End::Done(Vec::new());
                }
            }
            (state, previous) = (step.state, Some(step.mv));
        }
        above.entered = task.len();
        search.path.clear();
        search.path.extend_from_slice(task);
        search.found.clear();
        search.pending = 0;
        // The task's root is estimated afresh: its parent's memo went with the split.
        let root_memo = self.memo_of(state);
        match search.visit(state, previous, task.len() as u32, (&root_memo, 0), false) {
            Ok(()) => End::Done(std::mem::take(&mut search.found)),
            Err(Stop::Found) if search.found.is_empty() => End::Done(vec![Path {
                start: self.start,
                steps: search.path.clone(),
            }]),
            Err(Stop::Found) => End::Done(std::mem::take(&mut search.found)),
            Err(Stop::Limit(limit)) => {
                self.latch.trip(limit);
                End::Stopped
            }
            Err(Stop::Cancelled) => End::Stopped,
        }
    }
}

/// What a worker entered in its table above its last task's root: the nodes at depths
/// `0..entered` of `task`'s path, and whether the node at depth `entered` was skipped as a
/// repeat (a task below it is skipped too).
struct Above<'t, S, M> {
    task: &'t [Step<S, M>],
    entered: usize,
    dead: bool,
}

/// Adds an iteration's counts to the run's.
pub(super) fn add(stats: &mut Stats, iteration: &Stats, threshold: u32) {
    stats.expanded += iteration.expanded;
    stats.generated += iteration.generated;
    stats.visited += iteration.visited;
    stats.peak_frontier = stats.peak_frontier.max(iteration.peak_frontier);
    stats.iterations.push(Iteration {
        threshold,
        expanded: iteration.expanded,
        generated: iteration.generated,
    });
}
