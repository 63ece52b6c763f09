//! Search engines and what they share: [`Outcome`], [`Path`], [`Stats`]; the limits they stop at
//! are [`limit`](crate::limit)'s.
//!
//! Every engine is a module with free functions generic over the capabilities it needs:
//!
//! | engine | needs | memory | gives |
//! |---|---|---|---|
//! | [`bfs`] | [`StateSpace`](crate::space::StateSpace) (+ [`Indexed`](crate::space::Indexed) for a bitset) | every visited state | optimal path; unsolvability proof when the reachable space is exhausted |
//! | [`iddfs`] | [`StateSpace`](crate::space::StateSpace) | linear in depth | optimal path; unsolvability proof when the pruned tree is exhausted |
//! | [`astar`] | [`StateSpace`](crate::space::StateSpace) + a [`Heuristic`](crate::space::Heuristic) (+ [`Indexed`](crate::space::Indexed) for dense arrays) | every state generated (closed and open) | optimal path, expanding only states with `g + h` up to the answer's length; unsolvability proof when everything reachable is closed |
//! | [`idastar`] | [`StateSpace`](crate::space::StateSpace) + a [`Heuristic`](crate::space::Heuristic) | linear in depth | optimal path, deepening by `g + h` thresholds instead of depth; unsolvability proof when the pruned tree is exhausted |
//! | [`table`] | [`Indexed`](crate::space::Indexed) + [`Invertible`](crate::space::Invertible) + [`GoalSet`](crate::space::GoalSet) | 4 bits per state of the whole space (wider if deep), or 2 bits (distance mod 3) | the distance of every state to the goal set; then each query is a lookup (mod 3: a walk), its path a descent |
//! | [`pdb`] | an [`Abstraction`](pdb::Abstraction): a projection onto an [`Indexed`](crate::space::Indexed) + [`Invertible`](crate::space::Invertible) + [`GoalSet`](crate::space::GoalSet) space | the abstract space's exact table (4 or 8 bits per abstract state) | [`Heuristic`](crate::space::Heuristic)s for A* and IDA*: one database, [`Max`](pdb::Max) of several, [`Additive`](pdb::Additive) over disjoint pieces with symmetric lookups |
//! | [`pruning`] | [`Invertible`](crate::space::Invertible) + [`GoalSet`](crate::space::GoalSet) (states hashed) | a fixed hash table, one byte a cell (64 MiB by default) | a [`Heuristic`](crate::space::Heuristic): exact within a depth `d` of the goals (least distance per cell), `d + 1` outside; filled from the goals at once and deepened while the search pays for it, so a first solve needs no build |
//! | [`layers`] | [`Indexed`](crate::space::Indexed) (word-at-a-time with [`XorMoves`](crate::space::XorMoves), block-at-a-time with [`SplitMoves`](crate::space::SplitMoves)) | three bits per state of the whole space (+ two move tables with `SplitMoves`) | every reachable state counted by distance (histogram), one farthest state; multi-threaded |
//!
//! Every path search returns a [`Report`]: an [`Outcome`] (solved with a path, proven unsolvable, or a
//! named limit reached) and [`Stats`]. Engines never print; the CLI does.
//!
//! Every engine and table builder stops for the time limit and Ctrl-C the same way: it counts
//! the work it does (successors generated, words scanned) on a [`Ticker`](crate::limit::Ticker), which polls the run's
//! [`Latch`](crate::limit::Latch) every [`WORK_PER_POLL`](crate::limit::WORK_PER_POLL) units, so a limit holds within a fraction of a second
//! whatever one unit costs (see [`limit::ticker`](crate::limit::ticker)'s module docs). Memory is checked against
//! [`Limits::memory_budget`] before anything is allocated.

pub mod astar;
pub mod bfs;
pub mod cluster;
pub mod idastar;
pub mod iddfs;
pub mod layers;
pub mod pdb;
pub mod pruning;
pub mod table;
pub mod visited;

use crate::limit::{Limit, Limits};
use std::time::Duration;

/// Counts one expansion in `stats` and says whether `max_states` stops the run. Shared by IDDFS
/// and IDA* (time and Ctrl-C are their [`Ticker`]'s).
#[inline]
pub(crate) fn count_expansion(stats: &mut Stats, limits: &Limits) -> Result<(), Limit> {
    stats.expanded += 1;
    match limits.max_states {
        Some(max) if stats.expanded > max => Err(Limit::States(max)),
        _ => Ok(()),
    }
}

/// One step of a path: the move played and the state it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step<S, M> {
    /// The move played.
    pub mv: M,
    /// The state it leads to.
    pub state: S,
}

/// A path from a start state: the moves and every state they pass through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path<S, M> {
    /// Where the path begins.
    pub start: S,
    /// The moves, each with the state after it.
    pub steps: Vec<Step<S, M>>,
}

impl<S: Copy, M: Copy> Path<S, M> {
    /// The number of moves.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the path has no moves (the start is a goal).
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The moves in order.
    pub fn moves(&self) -> Vec<M> {
        self.steps.iter().map(|s| s.mv).collect()
    }

    /// The last state: the start when the path is empty.
    pub fn end(&self) -> S {
        self.steps.last().map_or(self.start, |s| s.state)
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<S, M> {
    /// A goal was reached; the path is optimal (fewest moves).
    Solved(Path<S, M>),
    /// No goal is reachable: the engine exhausted everything reachable from the start.
    Unsolvable,
    /// The run stopped at a limit before it could decide.
    LimitReached(Limit),
}

/// What a run did. Counts are exact; `elapsed` is wall-clock.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// States whose successors were generated.
    pub expanded: u64,
    /// Successors generated (edges looked at).
    pub generated: u64,
    /// Distinct states recorded (BFS, A*), or states entered (IDDFS, IDA*: counted with repeats).
    pub visited: u64,
    /// The largest frontier held at once: a BFS layer, A*'s open set (stale entries included), or
    /// IDDFS's and IDA*'s stack of pending successors.
    pub peak_frontier: u64,
    /// The deepest level the run completed or reached (A*: the largest `f = g + h` expanded;
    /// IDA*: the last threshold).
    pub depth: u32,
    /// States expanded again because a shorter path to them was found after their expansion
    /// (A* with an inconsistent heuristic); 0 for every other engine.
    #[serde(skip_serializing_if = "is_zero")]
    pub reopened: u64,
    /// IDA*'s iterations in order, one per `f` threshold; empty for every other engine.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub iterations: Vec<Iteration>,
    /// Wall-clock time of the run: for a solve, from the board to the answer, building or
    /// loading the tables it needed included.
    #[serde(serialize_with = "serialize_seconds")]
    pub elapsed: Duration,
    /// The part of `elapsed` spent building or loading tables before the search (pattern
    /// databases, a distance table); zero when the run needed none or an earlier board of the
    /// same run had made them.
    #[serde(
        serialize_with = "serialize_seconds",
        skip_serializing_if = "Duration::is_zero"
    )]
    pub build: Duration,
}

/// One IDA* iteration: a depth-first search that cuts every node whose `f = g + h` exceeds
/// `threshold`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Iteration {
    /// The largest `f` searched below in this iteration.
    pub threshold: u32,
    /// States whose successors were generated in this iteration.
    pub expanded: u64,
    /// Successors generated (and estimated) in this iteration.
    pub generated: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn serialize_seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// An [`Outcome`] with the [`Stats`] of the run that produced it.
#[derive(Clone, Debug)]
pub struct Report<S, M> {
    /// How the run ended.
    pub outcome: Outcome<S, M>,
    /// What it did.
    pub stats: Stats,
}
