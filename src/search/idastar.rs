//! IDA* (Korf 1985): iterative deepening on `f = g + h` instead of depth.
//!
//! Each iteration is a depth-first search from the start that cuts every node whose
//! `f = g + h` (moves so far plus the [`Heuristic`]'s estimate of the moves left) exceeds the
//! iteration's threshold. The first threshold is `h(start)`; each next one is the smallest `f`
//! that the iteration before cut, so no threshold is skipped over a solution. With the zero
//! heuristic this is [`iddfs`](super::iddfs); a good heuristic cuts most of the tree.
//!
//! Trade-offs against [`astar`](super::astar): memory is one small buffer of successors per
//! level, reused across the whole run (nothing is allocated per node), plus a
//! [transposition table](super::transpositions) of a size fixed in advance, so IDA* runs where
//! A*'s closed set would not fit; in exchange a state reached along many paths is searched along
//! each unless the table still holds it (the space's [`may_follow`](StateSpace::may_follow) rule
//! cuts the redundant orders it knows), and each iteration repeats the work of those before it.
//! A node's successors are all generated (each passed to [`Heuristic::prefetch_successor`] with
//! the node's memo or [context](Heuristic::successor_context), so that a table's memory reads
//! overlap; what it computed, the table indices, comes back with the estimate), then estimated
//! in stages ([`Heuristic::advance`]; by default one stage, the value of
//! [`Heuristic::estimate_below`]), each pass advancing every successor still estimating, so
//! one's reads are in flight while the others are worked on; then searched in the space's order.
//! The limit is the smallest cut `f` of the iteration so far: a successor whose `f` reaches it
//! is cut whatever its exact estimate and does not lower the next threshold, so a heuristic of
//! several parts may stop early (the first part of a [`Max`] that reaches the limit) and the
//! nodes and thresholds are those of exact estimates. Moves the heuristic rules out
//! ([`Heuristic::ruled_out`]: they start no path within the threshold) are not generated; a
//! node that rules one out makes the next threshold at most one more than this one.
//!
//! [`Max`]: super::pdb::Max
//!
//! The table ([`SearchOptions::transpositions`](crate::options::SearchOptions::transpositions); on by default) is asked about a node when it is
//! entered, before its successors are estimated (a node at the threshold only while such nodes
//! are often repeats: [`TranspositionTable::asks`]): a state entered earlier in the
//! iteration in fewer moves, or in as many by the same move, is not searched again; one entered
//! in as many moves by another move searches only the successors the earlier move refused. A
//! node's parent prefetches a successor's slots as soon as its estimate keeps it (the other
//! estimates hide the miss: 5 % of the 24-puzzle's CPU), and a node generates its successors
//! and asks for their estimates' reads before it looks itself up (the first child, searched at
//! once, still waits for its slots: that work now overlaps the wait, 0.91 of the 24-puzzle's
//! CPU; a skipped node's successors are dropped uncounted). Its hits are in
//! [`Stats::transposition_hits`].
//!
//! Guarantees: with an admissible heuristic the first goal found is at the smallest depth, so the
//! path is optimal (consistency is not needed), with or without the table (its module docs say
//! why). [`Outcome::Unsolvable`] is returned when an iteration cuts no node: a reachable goal
//! would have put the first node beyond the threshold of a shortest path to it among the cuts. The
//! per-iteration counts are in [`Stats::iterations`].
//!
//! Several solutions ([`SearchOptions::solutions`](crate::options::SearchOptions::solutions) `n` above 1): the iteration that finds the first goal
//! (its threshold is the optimal length `L`) goes on past it, keeps each goal's path and does not
//! search below a goal, and stops at the `n`-th; when it ends with fewer, they are every path of
//! `L` moves that the move-order rule allows (the first in the outcome, the rest in
//! [`Report::others`]). Every such path is within the threshold (`g + h <= L` along it, `h`
//! being admissible), so none is cut; the transposition table then skips only repeats in more
//! moves (see its module docs), which are on no path of `L` moves. The solutions come in the
//! order of the depth-first search, the same as [`iddfs`](super::iddfs)'s and the distance
//! table's ([`DistanceTable::lookup`](super::table::DistanceTable::lookup)). A limit reached
//! while collecting ends the run with that limit.
//!
//! Threads ([`SearchOptions::threads`](crate::options::SearchOptions::threads) above 1, `solve
//! --threads N`): each iteration is split at a shallow depth into subtrees in depth-first order
//! that the threads search, each with its own successor buffers and transposition table
//! ([`parallel`]'s module docs). The outcome and the list of solutions are exactly the one-thread
//! run's; the node counts are not (the threads search subtrees after the solving one until they
//! see it, and each table misses the others' entries). The node loop is generic over how it
//! counts and polls (`Pace`): a run on one thread never reaches the parallel module.
//!
//! Processes ([`SearchOptions::cluster`](crate::options::SearchOptions::cluster), `solve
//! --processes P`): every process splits each iteration alike and searches its share of the
//! tasks on its threads; the processes meet once an iteration, and the answer is again the
//! one-thread run's ([`cluster`]'s module docs).
//!
//! Symmetric starts ([`solve_symmetric`], for spaces with [`Symmetric`]; a plugin opts in with
//! `Kit::symmetric_roots`): of the start's successors, those in the symmetry class of an earlier
//! one are not searched. A symmetry maps moves to moves and goals to goals, so a state and its
//! images are equally far from the goals; if a goal within the threshold lies below a successor
//! left out, one lies below the earlier successor of its class, which the depth-first order
//! searches first. So the path found is exactly [`solve`]'s, with fewer nodes where the start's
//! successors share classes (a start some symmetry maps to itself: the 3x3x3's checkerboard
//! has 18 first moves in 2 classes under its 48 symmetries), and the same nodes otherwise. Only
//! the start's successors are compared (their classes cost a pass over the images of each); a
//! run that lists several solutions searches them all, as the list holds paths through each.

mod child;
pub mod cluster;
pub mod parallel;

use super::caps::{Caps, Run, guided};
use super::transpositions::TranspositionTable;
use super::{Iteration, Outcome, Path, Report, Stats, Step};
use crate::config::{Auto, Engine, Gives, Mode, Need};
use crate::limit::{Latch, Limit, Limits, Ticker};
use crate::options::SearchOptions;
use crate::search::transpositions::Moved;
use crate::space::{Heuristic, Prefetched, StateSpace, Symmetric, memo};
pub(crate) use child::{Carry, Child, Level};
use std::any::Any;
use std::sync::Arc;

impl<S, M: Copy, C> Moved<M> for Child<S, M, C> {
    #[inline]
    fn mv(&self) -> M {
        self.mv
    }
}

/// IDA* from `start`.
///
/// - `space`: the graph; its `may_follow` rule prunes the tree.
/// - `heuristic`: an admissible estimate of the moves left.
/// - `start`: where the search begins.
/// - `limits`: `max_depth` bounds the thresholds (a threshold beyond it ends the run with
///   [`Limit::Depth`]), `max_states` the total expansions, plus time and interrupt (polled as
///   successors are generated and estimated).
/// - `options`: `transpositions` sizes the transposition table (within the memory budget: an
///   explicit size over it ends the run with [`Limit::Memory`] before anything is allocated);
///   `solutions` asks for several optimal paths; `threads` splits each iteration (module docs).
///
/// ```
/// # use statespace::space::{Heuristic, StateSpace};
/// # use statespace::search::{idastar, Outcome};
/// # use statespace::limit::Limits;
/// # use statespace::options::SearchOptions;
/// struct Line; // states 0..=9, a move steps left or right, the goal is 7
/// impl StateSpace for Line {
///     type State = u8;
///     type Move = char;
///     fn successors(&self, s: u8, visit: &mut dyn FnMut(char, u8)) {
///         if s > 0 { visit('L', s - 1) }
///         if s < 9 { visit('R', s + 1) }
///     }
///     fn is_goal(&self, s: u8) -> bool { s == 7 }
///     fn may_follow(&self, previous: char, next: char) -> bool { previous == next }
/// }
/// struct Gap; // the distance to 7: exact, so one iteration suffices
/// impl Heuristic<Line> for Gap {
///     fn estimate(&self, _: &Line, s: u8) -> u32 { s.abs_diff(7) as u32 }
/// }
/// let report = idastar::solve(&Line, &Gap, 2, &Limits::default(), &SearchOptions::default());
/// let Outcome::Solved(path) = report.outcome else { panic!() };
/// assert_eq!(path.moves(), vec!['R'; 5]);
/// assert_eq!(report.stats.iterations.len(), 1);
/// assert_eq!(report.stats.iterations[0].threshold, 5);
/// ```
pub fn solve<P: StateSpace, H: Heuristic<P> + ?Sized>(
    space: &P,
    heuristic: &H,
    start: P::State,
    limits: &Limits,
    options: &SearchOptions,
) -> Report<P::State, P::Move> {
    solve_with(space, heuristic, start, limits, options, None)
}

/// [`solve`] on a space with symmetries: of the start's successors, one per symmetry class is
/// searched (see the module docs), unless several solutions are asked for. The path found is
/// [`solve`]'s; the nodes are fewer where the start's successors share classes (a start that
/// some symmetry maps to itself), and the same otherwise.
pub fn solve_symmetric<P: Symmetric, H: Heuristic<P> + ?Sized>(
    space: &P,
    heuristic: &H,
    start: P::State,
    limits: &Limits,
    options: &SearchOptions,
) -> Report<P::State, P::Move> {
    solve_with(
        space,
        heuristic,
        start,
        limits,
        options,
        Some(P::representative),
    )
}

/// The state that stands for a state's symmetry class ([`Symmetric::representative`]): the
/// engine table's type, so that IDA* takes what [`Caps`] holds.
pub use super::caps::Representative;

/// [`solve_with`] for a heuristic of type `H` seen as [`Any`]; `None` when it is of another
/// type. The engine table's IDA* runs it where a plugin named `H`
/// ([`CompiledIdaStar`](crate::search::caps::CompiledIdaStar) says why).
pub fn solve_as<P: StateSpace, H: Heuristic<P> + Any>(
    heuristic: &dyn Any,
    space: &P,
    start: P::State,
    limits: &Limits,
    options: &SearchOptions,
    root_classes: Option<Representative<P>>,
) -> Option<Report<P::State, P::Move>> {
    let heuristic = heuristic.downcast_ref::<H>()?;
    Some(solve_with(
        space,
        heuristic,
        start,
        limits,
        options,
        root_classes,
    ))
}

/// [`solve`], and with `root_classes` [`solve_symmetric`] for a space whose symmetry is given
/// as the function (the engine table's glue holds it so, not as the trait).
pub fn solve_with<P: StateSpace, H: Heuristic<P> + ?Sized>(
    space: &P,
    heuristic: &H,
    start: P::State,
    limits: &Limits,
    options: &SearchOptions,
    root_classes: Option<Representative<P>>,
) -> Report<P::State, P::Move> {
    // A list of solutions would lose those through the successors left out.
    let root_classes = root_classes.filter(|_| options.solutions <= 1);
    match (options.threads > 1, heuristic.carries_memo()) {
        (true, true) => parallel::solve::<P, H, Prefetched>(
            space,
            heuristic,
            start,
            limits,
            options,
            root_classes,
        ),
        (true, false) => {
            parallel::solve::<P, H, ()>(space, heuristic, start, limits, options, root_classes)
        }
        (false, true) => {
            alone::<P, H, Prefetched>(space, heuristic, start, limits, options, root_classes)
        }
        (false, false) => alone::<P, H, ()>(space, heuristic, start, limits, options, root_classes),
    }
}

/// [`solve_with`] on one thread, keeping `C` of each successor's estimate.
fn alone<P: StateSpace, H: Heuristic<P> + ?Sized, C: Carry>(
    space: &P,
    heuristic: &H,
    start: P::State,
    limits: &Limits,
    options: &SearchOptions,
    root_classes: Option<Representative<P>>,
) -> Report<P::State, P::Move> {
    let latch = Latch::new(limits);
    let table = match TranspositionTable::for_limits(limits, options) {
        Ok(table) => table,
        Err(limit) => return Report::stopped(limit, latch.elapsed()),
    };
    let mut search = Search::<P, H, Alone, C>::new(
        space,
        heuristic,
        limits,
        options.solutions,
        table,
        Alone {
            limits,
            ticker: latch.ticker(),
        },
        start,
    );
    search.root_classes = root_classes;
    let outcome = search.run(start);
    search.stats.elapsed = latch.elapsed();
    search.table_stats();
    let mut report = Report::new(outcome, search.stats);
    report.others = search.found;
    report
}

/// Why an iteration stopped early.
enum Stop {
    Found,
    Limit(Limit),
    /// A worker of a parallel run whose subtree comes after one that holds the solutions
    /// asked for (never in a run on one thread).
    Cancelled,
}

/// How a search counts its expansions and polls its limits: [`Alone`] for a run on one thread,
/// `parallel::Share` for a worker of a parallel one. A type parameter, not a flag, so that the
/// one-thread search's node loop is the code it always was.
trait Pace {
    /// Counts one expansion in `stats`; `Err` when the state limit stops the run.
    fn expansion(&mut self, stats: &mut Stats) -> Result<(), Stop>;
    /// Counts `work` (successors generated so far) and polls when a poll is due.
    fn poll(&mut self, work: u64) -> Result<(), Stop>;
}

/// The pace of a run on one thread: its limits and its ticker.
struct Alone<'a> {
    limits: &'a Limits,
    ticker: Ticker<'a>,
}

impl Pace for Alone<'_> {
    #[inline]
    fn expansion(&mut self, stats: &mut Stats) -> Result<(), Stop> {
        super::count_expansion(stats, self.limits).map_err(Stop::Limit)
    }

    #[inline]
    fn poll(&mut self, work: u64) -> Result<(), Stop> {
        self.ticker.tick(work).map_err(Stop::Limit)
    }
}

struct Search<'a, P: StateSpace, H: ?Sized, T, C> {
    space: &'a P,
    heuristic: &'a H,
    limits: &'a Limits,
    /// The solutions asked for ([`SearchOptions::solutions`]).
    wanted: usize,
    /// States entered in this iteration, when the run has a table.
    table: Option<TranspositionTable<P::State, P::Move>>,
    /// Counts expansions and polls the limits.
    pace: T,
    /// Successors generated and estimated, every one: the ticker's count of work.
    work: u64,
    stats: Stats,
    /// One buffer per level of the successors within the threshold (each with what is kept
    /// of its estimate), reused across iterations.
    buffers: Vec<Level<P, C>>,
    /// What the heuristic's prefetch computed for each successor of the node being expanded,
    /// read back by its estimate (reused from node to node).
    prefetched: Vec<Prefetched>,
    /// Per successor of the node being expanded, whether it is kept once its estimate is done
    /// (reused from node to node).
    kept: Vec<Option<u32>>,
    /// The moves and states of the current branch.
    path: Vec<Step<P::State, P::Move>>,
    /// This iteration's bound on `f`.
    threshold: u32,
    /// The smallest `f` above the threshold met in this iteration; `u32::MAX` if none was.
    next_threshold: u32,
    /// Successors buffered on the stack right now, for the peak-frontier statistic.
    pending: u64,
    /// Where the search starts.
    start: P::State,
    /// The solutions found, when [`SearchOptions::solutions`](crate::options::SearchOptions::solutions) asks for more than one (the first is
    /// taken out for the outcome when the run ends).
    found: Vec<Path<P::State, P::Move>>,
    /// Of the start's successors, search one per symmetry class ([`solve_symmetric`]).
    root_classes: Option<Representative<P>>,
}

impl<'a, P: StateSpace, H: Heuristic<P> + ?Sized, T: Pace, C: Carry> Search<'a, P, H, T, C> {
    fn new(
        space: &'a P,
        heuristic: &'a H,
        limits: &'a Limits,
        wanted: usize,
        table: Option<TranspositionTable<P::State, P::Move>>,
        pace: T,
        start: P::State,
    ) -> Self {
        Search {
            space,
            heuristic,
            limits,
            wanted,
            table,
            pace,
            work: 0,
            stats: Stats::default(),
            buffers: Vec::new(),
            prefetched: Vec::new(),
            kept: Vec::new(),
            path: Vec::new(),
            threshold: 0,
            next_threshold: u32::MAX,
            pending: 0,
            start,
            found: Vec::new(),
            root_classes: None,
        }
    }

    fn run(&mut self, start: P::State) -> Outcome<P::State, P::Move> {
        let (root_memo, mut threshold) = if C::CARRIES {
            let (m, h) = memo(self.heuristic, self.space, start);
            (C::keep(&m), h)
        } else {
            (C::default(), self.heuristic.estimate(self.space, start))
        };
        loop {
            if self.limits.max_depth.is_some_and(|max| threshold > max) {
                let max = self.limits.max_depth.unwrap_or_default();
                return Outcome::LimitReached(Limit::Depth(max));
            }
            self.threshold = threshold;
            self.next_threshold = u32::MAX;
            if let Some(table) = &mut self.table {
                table.next_iteration();
            }
            self.stats.depth = threshold;
            let (expanded, generated) = (self.stats.expanded, self.stats.generated);
            let result = self.visit(start, None, 0, (&root_memo, 0), false);
            self.stats.iterations.push(Iteration {
                threshold,
                expanded: self.stats.expanded - expanded,
                generated: self.stats.generated - generated,
            });
            match result {
                Err(Stop::Limit(limit)) => return Outcome::LimitReached(limit),
                Err(Stop::Cancelled) => unreachable!("only a parallel run's workers are cancelled"),
                // The solutions asked for, or all there are (the iteration ended).
                Err(Stop::Found) | Ok(()) if !self.found.is_empty() => {
                    return Outcome::Solved(self.found.remove(0));
                }
                Err(Stop::Found) => {
                    let steps = std::mem::take(&mut self.path);
                    return Outcome::Solved(Path { start, steps });
                }
                Ok(()) if self.next_threshold == u32::MAX => return Outcome::Unsolvable,
                Ok(()) => match self.exhausted(start) {
                    Ok(true) => return Outcome::Unsolvable,
                    Ok(false) => threshold = self.next_threshold,
                    Err(limit) => return Outcome::LimitReached(limit),
                },
            }
        }
    }

    /// Whether the iteration that just ended entered every state the start reaches (its
    /// transposition table says: [`TranspositionTable::exhausted`]), which proves the start
    /// unsolvable though the iteration cut nodes.
    fn exhausted(&mut self, start: P::State) -> Result<bool, Limit> {
        let Some(table) = &mut self.table else {
            return Ok(false);
        };
        let (pace, work) = (&mut self.pace, self.work);
        table.exhausted(
            self.space,
            start,
            &mut |more| match pace.poll(work + more) {
                Err(Stop::Limit(limit)) => Err(limit),
                _ => Ok(()),
            },
        )
    }

    /// Searches below `state`, reached in `g` moves along `self.path` (its `f` is within the
    /// threshold, or `at_threshold`; `memo` is what the heuristic left from its estimate, with
    /// its note); `Err` stops the whole run.
    fn visit(
        &mut self,
        state: P::State,
        previous: Option<P::Move>,
        g: u32,
        memo: (&C, u64),
        at_threshold: bool,
    ) -> Result<(), Stop> {
        self.stats.visited += 1;
        if self.space.is_goal(state) {
            return self.at_goal();
        }
        // Asked about unless it is at the threshold and such states are rarely repeats
        // (TranspositionTable::asks).
        let bucket = (self.table.as_mut()).and_then(|table| {
            let bucket = table.bucket(&state);
            table.asks(bucket, at_threshold).then_some(bucket)
        });
        let level = self.path.len();
        if self.buffers.len() <= level {
            // One level deeper than before, or several: a parallel worker starts below the
            // split depth.
            self.buffers.resize_with(level + 1, Vec::new);
        }
        let mut successors = std::mem::take(&mut self.buffers[level]);
        // The successors are generated and their estimates' reads asked for before the table
        // says whether the state is searched at all: its bucket, asked for when its parent kept
        // it, mostly comes from memory (the state is most often its parent's first child, and
        // searched at once), and that wait now overlaps the generation. A skipped state's
        // successors are dropped uncounted (a few in a hundred states on the 24-puzzle).
        let work = self.generate(state, previous, g, memo, &mut successors);
        if let (Some(table), Some(at)) = (&mut self.table, bucket)
            && table.skips(at, state, g, previous)
        {
            self.buffers[level] = successors;
            return Ok(());
        }
        self.estimate_successors(g, work, &mut successors)?;
        let space = self.space;
        if let (Some(table), Some(bucket)) = (&mut self.table, bucket)
            && !successors.is_empty()
        {
            table.enter(space, bucket, state, g, previous, &mut successors);
        }
        self.pending += successors.len() as u64;
        self.stats.peak_frontier = self.stats.peak_frontier.max(self.pending);

        let mut result = Ok(());
        for child in &successors {
            // The step made from the child after the room for it, not before: `push` takes a
            // value made before it may grow the vector, so the 26-byte state went through a
            // temporary on the stack (two overlapping 16-byte stores), and the copy from it
            // waited for the stores to reach the cache; `resize_with` makes it in place.
            let level = self.path.len();
            self.path.resize_with(level + 1, || Step {
                mv: child.mv,
                state: child.state,
            });
            result = self.visit(
                child.state,
                Some(child.mv),
                g + 1,
                (&child.memo, child.note),
                child.at_threshold,
            );
            if result.is_err() {
                break; // keep the branch in `path`: it is the answer or irrelevant
            }
            self.path.pop();
            self.pending -= 1;
        }
        self.buffers[level] = successors;
        result
    }

    /// Expands `state`, reached in `g` moves by `previous` (`memo`: what the heuristic left from
    /// its estimate, with its note): counts the expansion, puts into `successors` the successors
    /// the move-order rule allows whose `f` is within the threshold (in the space's order, each
    /// with its memo), lowers the next threshold to the smallest `f` cut, and counts the work.
    /// The node loop's body ([`generate`](Self::generate), then
    /// [`estimate_successors`](Self::estimate_successors)), shared with the parallel run's split.
    #[inline(always)]
    fn expand(
        &mut self,
        state: P::State,
        previous: Option<P::Move>,
        g: u32,
        memo: (&C, u64),
        successors: &mut Level<P, C>,
    ) -> Result<(), Stop> {
        let work = self.generate(state, previous, g, memo, successors);
        self.estimate_successors(g, work, successors)
    }

    /// The first half of [`expand`](Self::expand): puts into `successors` the successors of
    /// `state` the move-order rule allows (each with no memo yet) and into `self.prefetched`
    /// what the heuristic's prefetch of each computed; returns how many successors the space
    /// generated (the work, counted by the second half). Counts nothing: a state the table
    /// then skips is as if never expanded.
    #[inline(always)]
    fn generate(
        &mut self,
        state: P::State,
        previous: Option<P::Move>,
        g: u32,
        (memo, note): (&C, u64),
        successors: &mut Level<P, C>,
    ) -> u64 {
        successors.clear();
        let (space, heuristic) = (self.space, self.heuristic);
        // Moves that the heuristic knows start no path within the threshold: not generated.
        let budget = self.threshold.saturating_sub(g);
        let ruled_out = heuristic.ruled_out(space, state, note, budget);
        let mut work = 0;
        let prefetched = &mut self.prefetched;
        prefetched.clear();
        // What each successor's prefetch reads of this node: its memo, or its context.
        let context = (!C::CARRIES).then(|| heuristic.successor_context(space, state));
        let parent_memo = context.as_ref().unwrap_or(memo.memo());
        // At the start only: the classes of the successors kept so far.
        let root_classes = self.root_classes.filter(|_| previous.is_none());
        let mut classes = Vec::new();
        // All the successors first, each prefetched (from this node's memo), then their
        // estimates: the heuristic's memory reads overlap instead of waiting one after the
        // other, and each estimate reads what its prefetch computed.
        let mut beyond = false;
        // The moves kept out are asked about before their successors are made (a space may
        // then not make them: StateSpace::successors_where).
        let mut wanted = |m| {
            let out = work < 64 && ruled_out >> work & 1 == 1;
            work += 1;
            let follows = previous.is_none_or(|p| space.may_follow(p, m));
            beyond |= follows && out;
            follows && !out
        };
        space.successors_where(state, &mut wanted, &mut |m, t| {
            if let Some(representative) = root_classes {
                let class = representative(space, t);
                if classes.contains(&class) {
                    return; // as far from the goals as an earlier successor
                }
                classes.push(class);
            }
            // Written in place (see Heuristic::prefetch_successor), not copied in.
            prefetched.push(Prefetched::NONE);
            let memo = prefetched.last_mut().expect("just pushed");
            heuristic.prefetch_successor(space, state, parent_memo, m, t, memo);
            successors.push(Child {
                mv: m,
                state: t,
                memo: C::default(),
                note: 0,
                at_threshold: false,
            });
        });
        if beyond {
            // A path by a move ruled out is longer than the threshold: at least one more.
            self.next_threshold = self.next_threshold.min(self.threshold.saturating_add(1));
        }
        work
    }

    /// The second half of [`expand`](Self::expand), after [`generate`](Self::generate) (which
    /// generated `work` successors): counts the expansion, estimates the successors, keeps
    /// those within the threshold, and counts the work.
    #[inline(always)]
    fn estimate_successors(
        &mut self,
        g: u32,
        work: u64,
        successors: &mut Level<P, C>,
    ) -> Result<(), Stop> {
        self.pace.expansion(&mut self.stats)?;
        let (space, heuristic) = (self.space, self.heuristic);
        let (threshold, mut next_threshold) = (self.threshold, self.next_threshold);
        let work = self.work + work;
        let prefetched = &mut self.prefetched;
        // The estimates in stages (Heuristic::advance): each pass advances every successor
        // still estimating, so one's reads arrive while the others are worked on.
        let kept = &mut self.kept;
        kept.clear();
        kept.resize(successors.len(), None);
        let mut estimating = successors.len();
        while estimating > 0 {
            for ((child, ahead), keep) in
                successors.iter().zip(prefetched.iter_mut()).zip(&mut *kept)
            {
                if keep.is_some() {
                    continue;
                }
                // Exact below the smallest cut `f` so far: a larger one can neither be kept
                // (`threshold < next_threshold`) nor lower the next threshold.
                let limit = next_threshold.saturating_sub(g.saturating_add(1));
                if let Some(h) = heuristic.advance(space, child.state, ahead, limit) {
                    let f = g.saturating_add(1).saturating_add(h);
                    if f > threshold {
                        next_threshold = next_threshold.min(f);
                    }
                    *keep = Some(f);
                    estimating -= 1;
                    // A child to be searched: its transposition bucket is asked for now, so
                    // that the miss overlaps the other estimates rather than stalls its visit
                    // (asked for after the expansion, the first child's came too late; asked for
                    // every successor before the estimates, the hashing of those cut cost more).
                    if f <= threshold
                        && let Some(table) = &self.table
                        && (f < threshold || table.asks_all_at_threshold())
                    {
                        table.prefetch(table.bucket(&child.state));
                    }
                }
            }
        }
        for ((child, ahead), f) in successors.iter_mut().zip(prefetched.iter()).zip(&*kept) {
            if C::CARRIES {
                child.memo = C::keep(ahead);
            }
            child.note = ahead.note();
            child.at_threshold = *f == Some(threshold);
        }
        let generated = successors.len() as u64;
        let mut decided = kept.iter();
        successors.retain(|_| {
            decided
                .next()
                .is_some_and(|f| f.is_some_and(|f| f <= threshold))
        });
        self.next_threshold = next_threshold;
        self.stats.generated += generated;
        self.work = work;
        self.pace.poll(work)
    }

    /// A goal reached: the search stops, unless more solutions are asked for
    /// ([`keep_solution`](super::keep_solution)). Out of line, so that the node loop's code is
    /// the same whatever this does.
    #[cold]
    #[inline(never)]
    fn at_goal(&mut self) -> Result<(), Stop> {
        match super::keep_solution(
            &mut self.found,
            self.start,
            &self.path,
            self.limits,
            self.wanted,
        ) {
            Ok(true) => Err(Stop::Found),
            Ok(false) => Ok(()),
            Err(limit) => Err(Stop::Limit(limit)),
        }
    }

    /// The table's size and hits into the stats.
    fn table_stats(&mut self) {
        if let Some(table) = &self.table {
            self.stats.transposition_hits = table.hits();
            self.stats.transposition_bytes = table.bytes();
        }
    }
}

/// `idastar` in the [engine table](super::engines): `auto`'s choice where the puzzle has a
/// heuristic, unless its space is small enough to exhaust (an unsolvable start is proven only
/// once the iterations stop finding states) or its successors are costly (A* expands each
/// state once).
pub const ENGINE: Engine = Engine {
    mode: Mode::IDASTAR,
    about: "IDA* with the puzzle's heuristic: optimal, memory linear in depth",
    needs: &[Need::Heuristic],
    gives: Gives::LISTING,
    options: &["solutions", "threads", "transpositions", "cluster"],
    auto: Auto::When {
        priority: 10,
        condition: |facts| {
            !facts.costly_moves && facts.states.is_none_or(|n| n > AUTO_EXHAUST_MAX_STATES)
        },
    },
};

/// `auto` never deepens over an indexed space of at most this many states: a search that
/// exhausts it (a bitset of 2 MiB) proves an unsolvable start in well under a second, where a
/// deepening search proves it only once its iterations stop finding states.
pub const AUTO_EXHAUST_MAX_STATES: u128 = 1 << 24;

/// IDA* where the puzzle has a heuristic; one of the start's successors per symmetry class
/// where the space has symmetries.
pub(crate) fn make<P: StateSpace + Send + 'static>(caps: &Arc<Caps<P>>) -> Option<Run<P>> {
    let lazy = caps.heuristic.clone()?;
    let (roots, compiled) = (caps.representative, caps.idastar_compiled);
    Some(Box::new(move |space, start, limits, options, cache| {
        let mut lost = None;
        let report = guided(&lazy, limits, cache, |h| match &options.cluster {
            Some(on) => cluster::solve(space, h, start, limits, options, roots, on).unwrap_or_else(
                |fault| {
                    let stopped = Report::stopped(Limit::Interrupted, Default::default());
                    lost = Some(fault);
                    stopped
                },
            ),
            // Compiled for the heuristic's type where the plugin named it and it is of that
            // type (see CompiledIdaStar), else over the trait object. Across processes always
            // over the trait object (one more copy of the cluster's search is not worth it).
            None => compiled
                .and_then(|run| run(h as &dyn Any, space, start, limits, options, roots))
                .unwrap_or_else(|| solve_with(space, h, start, limits, options, roots)),
        });
        match lost {
            Some(fault) => Err(crate::error::Error::Cluster(fault)),
            None => Ok((report, None)),
        }
    }))
}

#[cfg(test)]
mod tests;
