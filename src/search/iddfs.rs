//! Iterative-deepening depth-first search: optimal paths in memory linear in the depth.
//!
//! Runs a depth-first search bounded at depth 0, 1, 2, ... until a goal is found. Each round
//! repeats the work of the rounds before it, which costs a constant factor when the tree grows
//! geometrically; in exchange the memory is one small buffer of successors per level, reused
//! across the whole run (nothing is allocated per state).
//!
//! There is no visited set, so the same state may be explored along many paths. The space's
//! [`may_follow`](StateSpace::may_follow) rule cuts redundant sequences: never undoing the previous
//! move in an invertible space, or a canonical order where moves commute (Flip presses each cell
//! at most once, in increasing order, which turns 16^d sequences into C(16, d) sets). The
//! [transposition table](super::transpositions) ([`SearchOptions::transpositions`](crate::options::SearchOptions::transpositions); on by default, its
//! size fixed in advance) cuts the repeats the rule does not know: a node whose state the table
//! holds from this round in fewer moves, or in as many by the same move, is not searched again;
//! one entered in as many moves by another move searches only the successors the earlier move
//! refused (a node's parent prefetches its slot, so the look-up rarely waits for memory). Its
//! hits are in [`Stats::transposition_hits`].
//!
//! Guarantees: the first goal found is at the smallest depth, so the path is optimal, and a
//! round that ends without a goal proves there is none within its bound (with the table too: its
//! module docs say why). [`Outcome::Unsolvable`] is returned when a round ends without meeting
//! its depth bound anywhere: a reachable goal would have put a node of a shortest path to it at
//! the bound. Without the table that takes a finite pruned tree (Flip's canonical order); with
//! it, a table that holds the current branch ends the rounds of any finite space.
//!
//! Several solutions ([`SearchOptions::solutions`](crate::options::SearchOptions::solutions) `n` above 1): the round that finds the first goal
//! goes on past it, keeps each goal's path (not searching below it) and stops at the `n`-th;
//! when it ends with fewer, they are every shortest path the move-order rule allows, first in
//! the outcome and the rest in [`Report::others`], as [`idastar`](super::idastar) lists them
//! (its module docs say why none is lost, with the table too).

use super::caps::{Caps, Run};
use super::transpositions::TranspositionTable;
use super::{Outcome, Path, Report, Stats, Step};
use crate::config::{Auto, Engine, Gives, Mode};
use crate::limit::{Latch, Limit, Limits, Ticker};
use crate::options::SearchOptions;
use crate::space::StateSpace;
use std::sync::Arc;

/// IDDFS from `start`.
///
/// - `space`: the graph; its `may_follow` rule prunes the tree.
/// - `start`: where the search begins.
/// - `limits`: `max_depth` bounds the rounds, `max_states` the total expansions, plus time and
///   Ctrl-C (polled as successors are generated, those at the depth bound included).
/// - `options`: `transpositions` sizes the transposition table (within the memory budget: an
///   explicit size over it ends the run with [`Limit::Memory`] before anything is allocated);
///   `solutions` asks for several shortest paths (module docs).
///
/// ```
/// # use statespace::space::StateSpace;
/// # use statespace::search::{iddfs, Outcome};
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
/// let report = iddfs::solve(&Line, 2, &Limits::default(), &SearchOptions::default());
/// let Outcome::Solved(path) = report.outcome else { panic!() };
/// assert_eq!(path.len(), 5);
/// ```
pub fn solve<P: StateSpace>(
    space: &P,
    start: P::State,
    limits: &Limits,
    options: &SearchOptions,
) -> Report<P::State, P::Move> {
    let latch = Latch::new(limits);
    let table = match TranspositionTable::for_limits(limits, options) {
        Ok(table) => table,
        Err(limit) => return Report::stopped(limit, latch.elapsed()),
    };
    let mut search = Search {
        space,
        limits,
        wanted: options.solutions,
        table,
        ticker: latch.ticker(),
        work: 0,
        stats: Stats::default(),
        buffers: Vec::new(),
        path: Vec::new(),
        bound_met: false,
        pending: 0,
        start,
        found: Vec::new(),
    };
    let outcome = search.run(start);
    search.stats.elapsed = latch.elapsed();
    if let Some(table) = &search.table {
        search.stats.transposition_hits = table.hits();
        search.stats.transposition_bytes = table.bytes();
    }
    let mut report = Report::new(outcome, search.stats);
    report.others = search.found;
    report
}

/// Why a bounded round stopped early.
enum Stop {
    Found,
    Limit(Limit),
}

struct Search<'a, P: StateSpace> {
    space: &'a P,
    limits: &'a Limits,
    /// The solutions asked for ([`SearchOptions::solutions`]).
    wanted: usize,
    /// States entered in this round, when the run has a table.
    table: Option<TranspositionTable<P::State, P::Move>>,
    ticker: Ticker<'a>,
    /// Successors generated, every one: the ticker's count of work.
    work: u64,
    stats: Stats,
    /// One successor buffer per level, reused across rounds.
    buffers: Vec<Vec<(P::Move, P::State)>>,
    /// The moves and states of the current branch.
    path: Vec<Step<P::State, P::Move>>,
    /// Whether this round met a node with an allowed successor at the bound (so a deeper round
    /// could find more).
    bound_met: bool,
    /// Successors buffered on the stack right now, for the peak-frontier statistic.
    pending: u64,
    /// Where the search starts.
    start: P::State,
    /// The solutions found, when [`SearchOptions::solutions`](crate::options::SearchOptions::solutions) asks for more than one (the first is
    /// taken out for the outcome when the run ends).
    found: Vec<Path<P::State, P::Move>>,
}

impl<P: StateSpace> Search<'_, P> {
    fn run(&mut self, start: P::State) -> Outcome<P::State, P::Move> {
        let mut bound = 0u32;
        loop {
            self.bound_met = false;
            self.stats.depth = bound;
            if let Some(table) = &mut self.table {
                table.next_iteration();
            }
            match self.visit(start, None, bound) {
                Err(Stop::Limit(limit)) => return Outcome::LimitReached(limit),
                // The solutions asked for, or all there are (the round ended).
                Err(Stop::Found) | Ok(()) if !self.found.is_empty() => {
                    return Outcome::Solved(self.found.remove(0));
                }
                Err(Stop::Found) => {
                    let steps = std::mem::take(&mut self.path);
                    return Outcome::Solved(Path { start, steps });
                }
                Ok(()) if !self.bound_met => return Outcome::Unsolvable,
                Ok(()) => {
                    // Every state the start reaches entered, and none a goal: a proof too
                    // (`TranspositionTable::exhausted`).
                    if let Some(table) = &mut self.table {
                        let (ticker, work) = (&mut self.ticker, self.work);
                        let mut poll = |more| ticker.tick(work + more);
                        match table.exhausted(self.space, start, &mut poll) {
                            Ok(true) => return Outcome::Unsolvable,
                            Ok(false) => {}
                            Err(limit) => return Outcome::LimitReached(limit),
                        }
                    }
                }
            }
            if self.limits.max_depth.is_some_and(|max| bound >= max) {
                return Outcome::LimitReached(Limit::Depth(bound));
            }
            bound += 1;
        }
    }

    /// Searches below `state` to `depth_left` more moves; `Err` stops the whole run.
    fn visit(
        &mut self,
        state: P::State,
        previous: Option<P::Move>,
        depth_left: u32,
    ) -> Result<(), Stop> {
        self.stats.visited += 1;
        if self.space.is_goal(state) {
            return self.at_goal();
        }
        let level = self.path.len();
        let mut bucket = None;
        if let Some(table) = &mut self.table {
            let at = table.bucket(&state);
            if table.skips(at, state, level as u32, previous) {
                return Ok(());
            }
            bucket = Some(at);
        }
        if self.buffers.len() <= level {
            self.buffers.push(Vec::new());
        }
        let mut successors = std::mem::take(&mut self.buffers[level]);
        successors.clear();
        // Every successor is work, ticked: those the move-order rule refuses too, and those at
        // the depth bound, generated only to see whether a deeper round could go on (on a
        // puzzle of many moves, nearly all the work). `generated` counts the ones kept, at the
        // bound too, as IDA* counts them.
        let (space, mut work) = (self.space, self.work);
        space.successors(state, &mut |m, t| {
            work += 1;
            if previous.is_none_or(|p| space.may_follow(p, m)) {
                successors.push((m, t));
            }
        });
        self.work = work;
        self.stats.generated += successors.len() as u64;
        self.ticker.tick(work).map_err(Stop::Limit)?;
        if depth_left == 0 {
            self.bound_met |= !successors.is_empty();
            self.buffers[level] = successors;
            return Ok(());
        }
        self.expand_checks()?;
        if let (Some(table), Some(bucket)) = (&mut self.table, bucket)
            && !successors.is_empty()
        {
            table.enter(
                space,
                bucket,
                state,
                level as u32,
                previous,
                &mut successors,
            );
            for (_, next) in &successors {
                table.prefetch(table.bucket(next));
            }
        }
        self.pending += successors.len() as u64;
        self.stats.peak_frontier = self.stats.peak_frontier.max(self.pending);

        let mut result = Ok(());
        for &(mv, next) in &successors {
            self.path.push(Step { mv, state: next });
            result = self.visit(next, Some(mv), depth_left - 1);
            if result.is_err() {
                break; // keep the branch in `path`: it is the answer or irrelevant
            }
            self.path.pop();
            self.pending -= 1;
        }
        self.buffers[level] = successors;
        result
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

    fn expand_checks(&mut self) -> Result<(), Stop> {
        super::count_expansion(&mut self.stats, self.limits).map_err(Stop::Limit)
    }
}

/// `iddfs` in the [engine table](super::engines): never `auto`'s choice (without a heuristic it
/// expands more than BFS visits; it is there for spaces too large for any store), but the last
/// resort for several solutions.
pub const ENGINE: Engine = Engine {
    mode: Mode::IDDFS,
    about: "Iterative deepening: memory linear in depth",
    needs: &[],
    gives: Gives::LISTING,
    options: &["solutions", "transpositions"],
    auto: Auto::Never,
};

/// IDDFS on any space.
pub(crate) fn make<P: StateSpace + Send + 'static>(_: &Arc<Caps<P>>) -> Option<Run<P>> {
    Some(Box::new(|space, start, limits, options, _| {
        Ok((solve(space, start, limits, options), None))
    }))
}
