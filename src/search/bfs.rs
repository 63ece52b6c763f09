//! Breadth-first search: the fewest moves from a start state to any goal.
//!
//! The queue is one flat `Vec` of states that is never popped, cut into layers by depth. Keeping
//! it whole costs one state per visited state (8 bytes for a `u64`) but makes parent pointers
//! unnecessary: a path is rebuilt backward by finding, in the previous layer, a state that has the
//! current one as a successor. That scan touches at most one layer per step of the path, which is
//! cheap next to the search itself.
//!
//! The visited set is a [`Visited`] store: [`solve_indexed`] uses a bitset over the dense index
//! when it fits the memory budget, [`solve`] a hash set.
//!
//! Guarantees: a returned path is optimal (BFS reaches every state first by a shortest path);
//! [`Outcome::Unsolvable`] is returned only when every state reachable from the start was visited
//! and none is a goal.

use super::caps::{Caps, Run};
use super::visited::{BitVisited, HashVisited, Visited};
use super::{Outcome, Path, Report, Stats, Step};
use crate::config::{Auto, Engine, Gives, Mode};
use crate::limit::{Latch, Limit, Limits};
use crate::space::{Indexed, StateSpace};
use std::sync::Arc;

/// BFS with a hash-set visited store; works on any space.
///
/// - `space`: the graph.
/// - `start`: where the search begins.
/// - `limits`: depth, state, time and memory bounds.
///
/// ```
/// # use statespace::space::StateSpace;
/// # use statespace::search::{bfs, Outcome};
/// # use statespace::limit::Limits;
/// struct Line; // states 0..=9, a move steps left or right, the goal is 7
/// impl StateSpace for Line {
///     type State = u8;
///     type Move = char;
///     fn successors(&self, s: u8, visit: &mut dyn FnMut(char, u8)) {
///         if s > 0 { visit('L', s - 1) }
///         if s < 9 { visit('R', s + 1) }
///     }
///     fn is_goal(&self, s: u8) -> bool { s == 7 }
/// }
/// let report = bfs::solve(&Line, 2, &Limits::default());
/// let Outcome::Solved(path) = report.outcome else { panic!() };
/// assert_eq!(path.moves(), vec!['R'; 5]);
/// ```
pub fn solve<P: StateSpace>(
    space: &P,
    start: P::State,
    limits: &Limits,
) -> Report<P::State, P::Move> {
    solve_with(space, start, limits, HashVisited::default())
}

/// BFS over an indexed space, with a bitset visited store when the bitset fits the memory budget
/// and a hash set otherwise (a 64-cell board has 2^64 states: no bitset, but a shallow search still
/// works).
pub fn solve_indexed<P: Indexed>(
    space: &P,
    start: P::State,
    limits: &Limits,
) -> Report<P::State, P::Move> {
    let bitset_bytes = BitVisited::bytes_needed(space);
    if limits.check_memory(bitset_bytes).is_ok() && usize::try_from(space.size()).is_ok() {
        solve_with(space, start, limits, BitVisited::new(space))
    } else {
        solve(space, start, limits)
    }
}

/// BFS with a caller-chosen visited store.
///
/// Memory is checked whenever the [`Ticker`](crate::limit::Ticker) polls (every few thousand successors
/// generated) against what the queue and the store would hold after their next growth (both
/// double when full), so the run stops with [`Limit::Memory`] before the process passes the
/// budget rather than after.
pub fn solve_with<P: StateSpace, V: Visited<P::State>>(
    space: &P,
    start: P::State,
    limits: &Limits,
    mut visited: V,
) -> Report<P::State, P::Move> {
    let latch = Latch::new(limits);
    let mut ticker = latch.ticker();
    let mut stats = Stats::default();
    let finish = |outcome, mut stats: Stats| {
        stats.elapsed = latch.elapsed();
        Report::new(outcome, stats)
    };

    visited.insert(start);
    stats.visited = 1;
    if space.is_goal(start) {
        let path = Path {
            start,
            steps: Vec::new(),
        };
        return finish(Outcome::Solved(path), stats);
    }

    // queue[layer_starts[d]..layer_starts[d + 1]] holds the states at depth d.
    let mut queue = vec![start];
    let mut layer_starts = vec![0usize];
    let mut found: Option<usize> = None;

    'layers: loop {
        let layer = *layer_starts.last().unwrap()..queue.len();
        if layer.is_empty() {
            return finish(Outcome::Unsolvable, stats);
        }
        stats.peak_frontier = stats.peak_frontier.max(layer.len() as u64);
        let depth = stats.depth;
        if limits.max_depth.is_some_and(|max| depth >= max) {
            return finish(Outcome::LimitReached(Limit::Depth(depth)), stats);
        }
        layer_starts.push(queue.len());

        for i in layer {
            let state = queue[i];
            stats.expanded += 1;
            space.successors(state, &mut |_, next| {
                stats.generated += 1;
                if found.is_none() && visited.insert(next) {
                    if space.is_goal(next) {
                        found = Some(queue.len());
                    }
                    queue.push(next);
                }
            });
            stats.visited = visited.len();
            if found.is_some() {
                stats.depth = depth + 1;
                break 'layers;
            }
            if let Some(max) = limits.max_states
                && stats.visited > max
            {
                return finish(Outcome::LimitReached(Limit::States(max)), stats);
            }
            if ticker.due(stats.generated) {
                if let Err(limit) = latch.check() {
                    return finish(Outcome::LimitReached(limit), stats);
                }
                let queue_bytes = (queue.capacity() * std::mem::size_of::<P::State>()) as u128;
                let needed = queue_bytes * 3 + visited.bytes_at_next_growth() as u128;
                if let Err(limit) = limits.check_memory(needed) {
                    return finish(Outcome::LimitReached(limit), stats);
                }
            }
        }
        stats.depth = depth + 1;
    }

    let goal_index = found.expect("loop exits only with a goal");
    let path = rebuild_path(space, &queue, &layer_starts, queue[goal_index]);
    finish(Outcome::Solved(path), stats)
}

/// The path from the queue's first state to `end`, a state of the layer that begins at
/// `layer_starts`' last entry: walks back one layer at a time, finding in each previous layer
/// a state that has the current one as a successor. (Also the forward half of
/// [`bidirectional`](super::bidirectional)'s paths.)
pub(crate) fn rebuild_path<P: StateSpace>(
    space: &P,
    queue: &[P::State],
    layer_starts: &[usize],
    end: P::State,
) -> Path<P::State, P::Move> {
    // layer_starts has one entry per layer before `end`'s plus the start of `end`'s layer.
    let goal_depth = layer_starts.len() - 1;
    let mut steps = Vec::with_capacity(goal_depth);
    let mut current = end;
    for depth in (0..goal_depth).rev() {
        let layer = &queue[layer_starts[depth]..layer_starts[depth + 1]];
        let (parent, mv) = layer
            .iter()
            .find_map(|&candidate| {
                let mut via = None;
                space.successors(candidate, &mut |m, t| {
                    if t == current && via.is_none() {
                        via = Some(m);
                    }
                });
                via.map(|m| (candidate, m))
            })
            .expect("every state in a layer has a parent in the layer before");
        steps.push(Step { mv, state: current });
        current = parent;
    }
    steps.reverse();
    Path {
        start: current,
        steps,
    }
}

/// `bfs` in the [engine table](super::engines).
pub const ENGINE: Engine = Engine {
    mode: Mode::BFS,
    about: "Breadth-first search from the start",
    needs: &[],
    gives: Gives::EXACT,
    options: &[],
    auto: Auto::When {
        priority: 40,
        condition: |_| true,
    },
};

/// BFS on any space: a bitset over the dense index where the space has one.
pub(crate) fn make<P: StateSpace + Send + 'static>(caps: &Arc<Caps<P>>) -> Option<Run<P>> {
    let caps = caps.clone();
    Some(Box::new(move |space, start, limits, _, _| {
        let report = match caps.index {
            Some(_) => solve_indexed(&caps.view(space), start, limits),
            None => solve(space, start, limits),
        };
        Ok((report, None))
    }))
}
