//! Bidirectional breadth-first search: from the start and from every goal at once, layer by
//! layer, until the two searches meet.
//!
//! Where a plain [BFS](super::bfs) at depth `d` has visited about `b^d` states, two searches
//! that meet in the middle have visited about `2 b^(d/2)`: on a puzzle with no good heuristic
//! and no room for a distance table, the difference between a search that fits and one that
//! does not. It needs moves that can be run backward ([`Invertible`]: the predecessors of a
//! state are its successors) and the goals listed ([`GoalSet`]): the backward search starts from
//! all of them.
//!
//! # How
//!
//! Each side is a BFS as [`bfs`](super::bfs) runs it: one flat queue cut into layers by depth,
//! and a [`Visited`] store. Each round expands the whole current layer of the side whose layer
//! is smaller (the forward side on a tie), checking every new state against the other side's
//! store. The first state found in both ends the search: at that moment neither side had met
//! the other before, so no path is shorter than `forward depth + backward depth + 1`, and the
//! one through the meeting state has exactly that length (a meeting at a smaller depth of the
//! other side would have been a path shorter than that bound). The answer is optimal.
//!
//! The path is rebuilt without parent pointers: the forward half by walking back through the
//! forward layers (as [`bfs`](super::bfs) does), the backward half by walking forward through
//! the backward layers, from each state to a successor one layer nearer the goals. A meeting
//! found while the backward side expands crosses with the move the forward state's successors
//! name for it (the inverse of the move that found it, as played from the start): labels are
//! always the moves played from the start.
//!
//! # Stores and memory
//!
//! [`solve`] keeps hash sets; [`solve_indexed`] keeps two bitsets over the dense index (two
//! bits per state of the whole space, checked against the memory budget before allocating) when
//! they fit, else hash sets. The queues hold every visited state; as in BFS, what the queues
//! and the stores would hold after their next growth is checked against the budget every few
//! thousand successors, and the run stops with [`Limit::Memory`] before passing it.
//!
//! Guarantees: a returned path is optimal and its labels replay from the start to a goal;
//! [`Outcome::Unsolvable`] is returned when either side runs out of new states without meeting
//! the other: everything reachable from the start, or everything that reaches a goal, was
//! visited (no goal at all is a side with nothing to expand). `max_depth` bounds the sum of the
//! two depths, `max_states` the states both sides visited; time and Ctrl-C are polled on the
//! successors generated (the goals listed count too).

use super::bfs::rebuild_path;
use super::caps::{Caps, Run};
use super::visited::{BitVisited, HashVisited, Visited};
use super::{Outcome, Path, Report, Stats, Step};
use crate::config::{Auto, Engine, Gives, Mode, Need};
use crate::limit::{Latch, Limit, Limits};
use crate::space::{GoalSet, Indexed, Invertible, StateSpace};
use std::sync::Arc;

/// Bidirectional BFS with hash-set stores; works on any invertible space with listed goals.
///
/// ```
/// # use statespace::search::{bidirectional, Outcome};
/// # use statespace::limit::Limits;
/// use statespace::toys::Ring;
/// // 20 states around a circle, the goal 0: from 7, seven steps back.
/// let report = bidirectional::solve(&Ring::new(20), 7, &Limits::default());
/// let Outcome::Solved(path) = report.outcome else { panic!() };
/// assert_eq!(path.moves(), vec![-1; 7]);
/// ```
pub fn solve<P: Invertible + GoalSet>(
    space: &P,
    start: P::State,
    limits: &Limits,
) -> Report<P::State, P::Move> {
    solve_with(
        space,
        start,
        limits,
        HashVisited::default(),
        HashVisited::default(),
    )
}

/// The bytes of [`solve_indexed`]'s two bitsets over `space`.
pub fn bitset_bytes<P: Indexed>(space: &P) -> u128 {
    2 * BitVisited::bytes_needed(space)
}

/// Bidirectional BFS over an indexed space: a bitset per side when both fit the memory budget
/// (see [`bitset_bytes`]), else hash sets as in [`solve`].
pub fn solve_indexed<P: Indexed + Invertible + GoalSet>(
    space: &P,
    start: P::State,
    limits: &Limits,
) -> Report<P::State, P::Move> {
    let fits = limits.check_memory(bitset_bytes(space)).is_ok();
    if fits && usize::try_from(space.size()).is_ok() {
        let (forward, backward) = (BitVisited::new(space), BitVisited::new(space));
        solve_with(space, start, limits, forward, backward)
    } else {
        solve(space, start, limits)
    }
}

/// One direction's BFS: the queue cut into layers, and what it visited.
struct Side<S, V> {
    /// Every state visited, layer after layer.
    queue: Vec<S>,
    /// Where each layer begins in `queue`; the last layer (the frontier) runs to the end.
    layer_starts: Vec<usize>,
    visited: V,
}

impl<S: Copy, V: Visited<S>> Side<S, V> {
    fn depth(&self) -> usize {
        self.layer_starts.len() - 1
    }

    fn frontier(&self) -> std::ops::Range<usize> {
        *self.layer_starts.last().unwrap()..self.queue.len()
    }

    /// Layer `depth` (before the frontier).
    fn layer(&self, depth: usize) -> &[S] {
        &self.queue[self.layer_starts[depth]..self.layer_starts[depth + 1]]
    }

    fn bytes_at_next_growth(&self) -> u128 {
        let queue = (self.queue.capacity() * std::mem::size_of::<S>()) as u128;
        queue * 3 + self.visited.bytes_at_next_growth() as u128
    }
}

/// Where the sides met: the state expanded, the move, the state found in the other side.
struct Meeting<S, M> {
    from: S,
    mv: M,
    to: S,
    /// Whether the forward side was expanding.
    forward: bool,
}

/// Bidirectional BFS with caller-chosen stores, one per side.
pub fn solve_with<P: Invertible + GoalSet, V: Visited<P::State>>(
    space: &P,
    start: P::State,
    limits: &Limits,
    forward: V,
    backward: V,
) -> Report<P::State, P::Move> {
    let latch = Latch::new(limits);
    let mut ticker = latch.ticker();
    let mut stats = Stats::default();
    let finish = |outcome, mut stats: Stats| {
        stats.elapsed = latch.elapsed();
        Report::new(outcome, stats)
    };
    let side = |visited| Side {
        queue: Vec::new(),
        layer_starts: vec![0],
        visited,
    };
    let (mut ahead, mut behind) = (side(forward), side(backward));
    ahead.visited.insert(start);
    ahead.queue.push(start);

    // Every goal starts the backward side (listing them counts as work: a goal set may be large).
    let mut stopped = None;
    let mut listed = 0u64;
    space.goals(&mut |goal| {
        listed += 1;
        if stopped.is_some() || !behind.visited.insert(goal) {
            return;
        }
        behind.queue.push(goal);
        if ticker.due(listed) {
            stopped = latch
                .check()
                .and_then(|()| limits.check_memory(behind.bytes_at_next_growth()))
                .err();
        }
    });
    stats.visited = ahead.visited.len() + behind.visited.len();
    if let Some(limit) = stopped {
        return finish(Outcome::LimitReached(limit), stats);
    }
    if behind.visited.contains(start) {
        let path = Path {
            start,
            steps: Vec::new(),
        };
        return finish(Outcome::Solved(path), stats);
    }

    let meeting = loop {
        let (forward_size, backward_size) = (ahead.frontier().len(), behind.frontier().len());
        if forward_size == 0 || backward_size == 0 {
            return finish(Outcome::Unsolvable, stats);
        }
        let depth = (ahead.depth() + behind.depth()) as u32;
        stats.depth = depth;
        if limits.max_depth.is_some_and(|max| depth >= max) {
            return finish(Outcome::LimitReached(Limit::Depth(depth)), stats);
        }
        let forward = forward_size <= backward_size;
        let (this, other) = match forward {
            true => (&mut ahead, &behind),
            false => (&mut behind, &ahead),
        };
        stats.peak_frontier = stats.peak_frontier.max(this.frontier().len() as u64);
        let layer = this.frontier();
        this.layer_starts.push(this.queue.len());
        let mut met = None;
        for i in layer {
            let state = this.queue[i];
            stats.expanded += 1;
            space.successors(state, &mut |mv, next| {
                stats.generated += 1;
                if met.is_none() && this.visited.insert(next) {
                    if other.visited.contains(next) {
                        met = Some(Meeting {
                            from: state,
                            mv,
                            to: next,
                            forward,
                        });
                    }
                    this.queue.push(next);
                }
            });
            stats.visited = this.visited.len() + other.visited.len();
            if met.is_some() {
                break;
            }
            if let Some(max) = limits.max_states
                && stats.visited > max
            {
                return finish(Outcome::LimitReached(Limit::States(max)), stats);
            }
            if ticker.due(stats.generated + listed) {
                let needed = this.bytes_at_next_growth() + other.bytes_at_next_growth();
                if let Err(limit) = latch.check().and_then(|()| limits.check_memory(needed)) {
                    return finish(Outcome::LimitReached(limit), stats);
                }
            }
        }
        if let Some(meeting) = met {
            break meeting;
        }
    };

    let path = join(space, &ahead, &behind, meeting);
    stats.depth = path.len() as u32;
    finish(Outcome::Solved(path), stats)
}

/// The path through `meeting`: the forward layers back to the start, the crossing move, then
/// the backward layers forward to a goal.
fn join<P: Invertible, V: Visited<P::State>>(
    space: &P,
    ahead: &Side<P::State, V>,
    behind: &Side<P::State, V>,
    meeting: Meeting<P::State, P::Move>,
) -> Path<P::State, P::Move> {
    // The forward half ends at `last`, in the forward layer `forward_depth`; the crossing move
    // leads to `first`, in the backward layer `backward_depth`.
    let (last, mv, first, forward_depth, backward_depth) = match meeting.forward {
        // `from` is in the forward frontier (whose layer has begun a new one), `to` in the
        // backward frontier.
        true => (
            meeting.from,
            meeting.mv,
            meeting.to,
            ahead.depth() - 1,
            behind.depth(),
        ),
        // `from --mv--> to` backward: `to --> from` forward, by the move `to`'s successors
        // name (not `inverse(mv)`: a label may depend on the board it is played from, as
        // look-alike blocks print by the letter they have there).
        false => (
            meeting.to,
            move_between(space, meeting.to, meeting.from).unwrap_or(space.inverse(meeting.mv)),
            meeting.from,
            ahead.depth(),
            behind.depth() - 1,
        ),
    };
    let starts = &ahead.layer_starts[..=forward_depth];
    let mut path = rebuild_path(space, &ahead.queue, starts, last);
    path.steps.push(Step { mv, state: first });
    let mut current = first;
    let mut successors = Vec::new();
    for depth in (0..backward_depth).rev() {
        successors.clear();
        space.successors(current, &mut |m, t| successors.push((m, t)));
        let (mv, next) = behind
            .layer(depth)
            .iter()
            .find_map(|s| successors.iter().find(|(_, t)| t == s))
            .copied()
            .expect("every state of a backward layer has a successor in the layer before");
        path.steps.push(Step { mv, state: next });
        current = next;
    }
    path
}

/// `bidirectional` in the [engine table](super::engines).
pub const ENGINE: Engine = Engine {
    mode: Mode::BIDIRECTIONAL,
    about: "Breadth-first search from the start and the goals until they meet",
    needs: &[Need::Goals],
    gives: Gives::EXACT,
    options: &[],
    auto: Auto::When {
        priority: 30,
        condition: |_| true,
    },
};

/// Meeting in the middle where moves are invertible and the goals listed: bitsets over the
/// dense index where the space has one.
pub(crate) fn make<P: StateSpace + Send + 'static>(caps: &Arc<Caps<P>>) -> Option<Run<P>> {
    caps.goals?;
    let caps = caps.clone();
    Some(Box::new(move |space, start, limits, _, _| {
        let view = caps.view(space);
        let report = match caps.index {
            Some(_) => solve_indexed(&view, start, limits),
            None => solve(&view, start, limits),
        };
        Ok((report, None))
    }))
}

/// The move `from`'s successors name for the step to `to`, if there is one.
fn move_between<P: StateSpace>(space: &P, from: P::State, to: P::State) -> Option<P::Move> {
    let mut found = None;
    space.successors(from, &mut |m, t| {
        if found.is_none() && t == to {
            found = Some(m);
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::bfs;
    use crate::space::{StateSpace, replay};
    use crate::toys::heuristic::{SLIDE_GOAL, Slide};
    use crate::toys::{Lights, LightsGoal, Ring};
    use std::sync::atomic::AtomicBool;

    fn length<S, M>(report: &Report<S, M>) -> Option<usize>
    where
        S: Copy,
        M: Copy,
    {
        match &report.outcome {
            Outcome::Solved(path) => Some(path.len()),
            Outcome::Unsolvable => None,
            Outcome::LimitReached(limit) => panic!("{limit}"),
        }
    }

    /// Every board of Lights 3 x 3 (all off: some boards have no answer): the lengths and the
    /// proofs are BFS's, with bitsets and with hash sets, and every path replays.
    #[test]
    fn lengths_and_proofs_equal_bfs_on_every_board() {
        let lights = Lights::new(3, 3, false, LightsGoal::AllOff);
        let limits = Limits::default();
        let mut unsolvable = 0;
        for board in 0..1 << 9 {
            let expected = length(&bfs::solve(&lights, board, &limits));
            unsolvable += expected.is_none() as u32;
            for report in [
                solve(&lights, board, &limits),
                solve_indexed(&lights, board, &limits),
            ] {
                assert_eq!(length(&report), expected, "board {board:09b}");
                if let Outcome::Solved(path) = &report.outcome {
                    let end = replay(&lights, board, &path.moves()).unwrap();
                    assert_eq!(end, path.end());
                    assert!(lights.is_goal(end));
                }
            }
        }
        // 3 x 3 Lights Out without wrap: every board is solvable.
        assert_eq!(unsolvable, 0);
        // 4 x 4: the presses span a space of dimension 12, so 15 of 16 boards are not.
        let lights = Lights::new(4, 4, false, LightsGoal::AllOff);
        for board in [0b1, 0b1000_0000_0000_0001, 0xffff, 0x1234] {
            let expected = length(&bfs::solve_indexed(&lights, board, &limits));
            assert_eq!(length(&solve_indexed(&lights, board, &limits)), expected);
        }
    }

    /// The 2 x 3 sliding puzzle: half its boards are unsolvable (the other parity), and a
    /// meeting may be found by either side; the backward side's crossing move is inverted.
    #[test]
    fn the_sliding_puzzle_agrees_with_bfs_both_ways() {
        let limits = Limits::default();
        let (mut solved, mut proved) = (0, 0);
        for index in 0..720 {
            let board = Slide.state(index);
            let expected = length(&bfs::solve_indexed(&Slide, board, &limits));
            let report = solve_indexed(&Slide, board, &limits);
            assert_eq!(length(&report), expected, "board {index}");
            match &report.outcome {
                Outcome::Solved(path) => {
                    solved += 1;
                    let end = replay(&Slide, board, &path.moves()).unwrap();
                    assert_eq!(end, SLIDE_GOAL);
                }
                _ => proved += 1,
            }
        }
        assert_eq!((solved, proved), (360, 360));
    }

    #[test]
    fn the_smaller_frontier_is_expanded() {
        // From 50 on a ring of 100 the answer is 50 moves: each side searches 25 layers of two
        // states, so about 100 states in all, not the whole ring.
        let report = solve(&Ring::new(100), 50, &Limits::default());
        assert_eq!(length(&report), Some(50));
        assert!(report.stats.visited <= 104, "{:?}", report.stats);
        assert_eq!(report.stats.depth, 50);
    }

    #[test]
    fn limits_stop_it() {
        let ring = Ring::new(1000);
        let depth = Limits {
            max_depth: Some(10),
            ..Limits::default()
        };
        let report = solve(&ring, 500, &depth);
        assert_eq!(report.outcome, Outcome::LimitReached(Limit::Depth(10)));
        let states = Limits {
            max_states: Some(20),
            ..Limits::default()
        };
        let report = solve(&ring, 500, &states);
        assert_eq!(report.outcome, Outcome::LimitReached(Limit::States(20)));
        static STOP: AtomicBool = AtomicBool::new(true);
        let interrupted = Limits {
            interrupt: Some(&STOP),
            ..Limits::default()
        };
        let report = solve(&ring, 500, &interrupted);
        assert_eq!(report.outcome, Outcome::LimitReached(Limit::Interrupted));
        // Two bitsets over 2^40 states do not fit 1 MiB: hash sets, and a memory limit as they grow.
        let wide = Ring::new(1 << 40);
        let tight = Limits {
            memory_budget: 1 << 20,
            ..Limits::default()
        };
        let report = solve_indexed(&wide, 1 << 39, &tight);
        assert!(matches!(
            report.outcome,
            Outcome::LimitReached(Limit::Memory { .. })
        ));
    }

    #[test]
    fn no_goal_is_a_proof_and_a_goal_start_is_no_move() {
        struct Nowhere;
        impl StateSpace for Nowhere {
            type State = u8;
            type Move = u8;
            fn successors(&self, s: u8, visit: &mut dyn FnMut(u8, u8)) {
                visit(0, s ^ 1)
            }
            fn is_goal(&self, _: u8) -> bool {
                false
            }
        }
        impl Invertible for Nowhere {
            fn inverse(&self, m: u8) -> u8 {
                m
            }
        }
        impl GoalSet for Nowhere {
            fn goals(&self, _: &mut dyn FnMut(u8)) {}
        }
        let report = solve(&Nowhere, 0, &Limits::default());
        assert_eq!(report.outcome, Outcome::Unsolvable);
        let report = solve(&Ring::new(5), 0, &Limits::default());
        assert_eq!(length(&report), Some(0));
    }
}
