//! A*: best-first search by `f = g + h`, optimal with an admissible heuristic.
//!
//! `g` is the number of moves from the start, `h` the [`Heuristic`]'s lower bound on the moves
//! left. A* expands states in order of increasing `f`, so it never expands a state whose `f`
//! exceeds the answer: with a good heuristic that is a small part of what BFS visits.
//!
//! # Data structures
//!
//! - *Open set*: a bucket queue indexed by `f` (costs are integers), each bucket split by `h`.
//!   Among states of equal `f` the one with the smallest `h` (the largest `g`, the deepest) comes
//!   first, so in the last `f` layer A* dives toward a goal instead of widening the whole layer.
//!   Within one `(f, h)` bucket the order is last in, first out. A push or a pop is O(1)
//!   amortised; a state whose `g` improves is pushed again and its older entry skipped when
//!   popped (lazy deletion), so nothing is searched for or removed in the middle of a bucket.
//! - *Closed set*: for every state reached, the fewest moves found so far, the parent and the
//!   move from it (moves need not be invertible, so the parent itself is kept rather than
//!   recomputed), and whether it was expanded. [`solve`] keeps them in a hash map; [`solve_indexed`]
//!   in flat arrays over the dense index when the space is small ([`DENSE_MAX_STATES`]) and
//!   they fit the memory budget (no hashing, one slot per state of the whole space), else in a
//!   hash map too. Nothing is allocated per state
//!   beyond these entries; the path is rebuilt by following parents from the goal.
//!
//! Trade-offs: A* keeps every state it generated, so memory grows with the search (checked every
//! few thousand expansions against what the sets would hold after their next growth, stopping
//! with [`Limit::Memory`] before the budget is passed); [`idastar`](super::idastar) needs memory
//! linear in the depth but repeats work across iterations and along transpositions.
//!
//! # Consistency
//!
//! With a *consistent* heuristic (`h(s) <= 1 + h(t)` for every move `s -> t`), `f` never
//! decreases along a path, the first time a state is expanded its `g` is already the smallest,
//! and no closed state is ever reopened. With an *inconsistent* but admissible one, a shorter path
//! to an expanded state may turn up later; A* then records the better `g` and parent, pushes the
//! state again and expands it again ("reopening"; counted in [`Stats::reopened`]), so the paths
//! it returns are still optimal, at the cost of repeated expansions.
//!
//! # Move-order pruning
//!
//! A* follows the space's [`may_follow`](StateSpace::may_follow) rule with the move that its
//! record of a state came by (successors that rule refuses are not generated). That is exact for
//! refusing the inverse of the previous move (it leads back to the parent, which has a smaller
//! `g`) and for canonical orders where every state has one allowed path (Flip); a rule that relies
//! on a different path of the same length reaching the state may make A* miss states.
//!
//! Guarantees: with an admissible heuristic the returned path is optimal (a goal is recognised
//! when it is popped, not when it is generated). [`Outcome::Unsolvable`] is returned only when the
//! open set empties: every state reachable from the start (under the move-order rule) was
//! expanded and none is a goal.

use super::caps::{Caps, Run, Through, guided};
use super::{Outcome, Path, Report, Stats, Step};
use crate::config::{Auto, Engine, Gives, Mode, Need};
use crate::limit::{Latch, Limit, Limits};
use crate::space::{Heuristic, Indexed, StateSpace};
use hashbrown::HashMap;
use std::sync::Arc;

/// A* with a hash-map closed set; works on any space.
///
/// - `space`: the graph; its `may_follow` rule prunes successors (see the module docs).
/// - `heuristic`: an admissible estimate of the moves left; need not be consistent.
/// - `start`: where the search begins.
/// - `limits`: `max_depth` (no state with `f` beyond it is queued; [`Limit::Depth`] when that
///   left the answer open), `max_states` (expansions), time, interrupt and memory.
///
/// ```
/// # use statespace::space::{Heuristic, StateSpace};
/// # use statespace::search::{astar, Outcome};
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
/// struct Gap; // the distance to 7: exact, so A* walks straight there
/// impl Heuristic<Line> for Gap {
///     fn estimate(&self, _: &Line, s: u8) -> u32 { s.abs_diff(7) as u32 }
/// }
/// let report = astar::solve(&Line, &Gap, 2, &Limits::default());
/// let Outcome::Solved(path) = report.outcome else { panic!() };
/// assert_eq!(path.moves(), vec!['R'; 5]);
/// assert_eq!(report.stats.expanded, 5);
/// ```
pub fn solve<P: StateSpace, H: Heuristic<P> + ?Sized>(
    space: &P,
    heuristic: &H,
    start: P::State,
    limits: &Limits,
) -> Report<P::State, P::Move> {
    run(space, heuristic, start, limits, HashClosed::default())
}

/// A* over an indexed space: the closed set is flat arrays over the dense index when the space
/// has at most [`DENSE_MAX_STATES`] states and they fit the memory budget (see
/// [`dense_bytes`]), else a hash map as in [`solve`] (a space of 2^64
/// states has no flat array, but a search that reaches little of it still works).
pub fn solve_indexed<P: Indexed, H: Heuristic<P> + ?Sized>(
    space: &P,
    heuristic: &H,
    start: P::State,
    limits: &Limits,
) -> Report<P::State, P::Move> {
    let bytes = dense_bytes(space);
    match usize::try_from(space.size()) {
        Ok(size) if size <= DENSE_MAX_STATES && limits.check_memory(bytes).is_ok() => {
            match DenseClosed::new(space, size, &Latch::new(limits)) {
                Ok(closed) => run(space, heuristic, start, limits, closed),
                Err(limit) => Report::new(Outcome::LimitReached(limit), Stats::default()),
            }
        }
        _ => solve(space, heuristic, start, limits),
    }
}

/// The most states [`solve_indexed`] keeps flat arrays for (a few hundred megabytes of slots,
/// written before the first expansion); a larger space gets the hash map, which grows with
/// what the search reaches: a guided search touches a sliver of a large space (a short
/// scramble of a 75-million-state puzzle reaches dozens of states), and arrays over all of it
/// would cost gigabytes and seconds before the first node.
pub const DENSE_MAX_STATES: usize = 1 << 24;

/// The bytes of [`solve_indexed`]'s flat closed set over `space` (one slot per state: the best
/// `g`, the parent's index, the move), compared with the budget before allocating it.
pub fn dense_bytes<P: Indexed>(space: &P) -> u128 {
    space.size() * std::mem::size_of::<Slot<P::Move>>() as u128
}

/// The search proper, over either closed set.
fn run<P: StateSpace, H: Heuristic<P> + ?Sized, C: Closed<P>>(
    space: &P,
    heuristic: &H,
    start: P::State,
    limits: &Limits,
    mut closed: C,
) -> Report<P::State, P::Move> {
    let latch = Latch::new(limits);
    let mut ticker = latch.ticker();
    let mut stats = Stats::default();
    let finish = |outcome, mut stats: Stats| {
        stats.elapsed = latch.elapsed();
        Report::new(outcome, stats)
    };
    let depth_limit = limits.max_depth.unwrap_or(u32::MAX);
    let mut open = Open::default();
    let mut cut_by_depth = false;

    closed.start(space, start);
    stats.visited = 1;
    let h = heuristic.estimate(space, start);
    if h > depth_limit {
        cut_by_depth = true;
    } else if let Err(limit) = open.push(h, h, start, limits) {
        return finish(Outcome::LimitReached(limit), stats);
    }

    while let Some((f, h, state)) = open.pop() {
        let g = f - h;
        let key = closed.key(space, state);
        let record = closed.get(key);
        if record.g != g {
            continue; // a stale entry: the state was pushed again with a smaller g
        }
        if space.is_goal(state) {
            let path = rebuild_path(space, &closed, start, key);
            return finish(Outcome::Solved(path), stats);
        }
        stats.expanded += 1;
        stats.reopened += record.expanded as u64;
        stats.depth = stats.depth.max(f);
        closed.mark_expanded(key);
        if let Some(max) = limits.max_states
            && stats.expanded > max
        {
            return finish(Outcome::LimitReached(Limit::States(max)), stats);
        }
        // Time, Ctrl-C and memory, every few thousand successors generated (and at the first
        // expansion).
        if ticker.due(stats.generated) {
            if let Err(limit) = latch.check() {
                return finish(Outcome::LimitReached(limit), stats);
            }
            let needed = open.bytes() as u128 * 2 + closed.bytes_at_next_growth() as u128;
            if let Err(limit) = limits.check_memory(needed) {
                return finish(Outcome::LimitReached(limit), stats);
            }
        }

        let mut refused = None;
        let child_g = g + 1;
        space.successors(state, &mut |m, t| {
            stats.generated += 1;
            if record.mv.is_some_and(|p| !space.may_follow(p, m)) || refused.is_some() {
                return;
            }
            if !closed.improve(space, t, child_g, key, m) {
                return;
            }
            let h = heuristic.estimate(space, t);
            let f = child_g.saturating_add(h);
            if f > depth_limit {
                cut_by_depth = true;
            } else if let Err(limit) = open.push(f, h, t, limits) {
                refused = Some(limit);
            }
        });
        if let Some(limit) = refused {
            return finish(Outcome::LimitReached(limit), stats);
        }
        stats.visited = closed.len();
        stats.peak_frontier = stats.peak_frontier.max(open.len);
    }
    let outcome = match limits.max_depth {
        Some(max) if cut_by_depth => Outcome::LimitReached(Limit::Depth(max)),
        _ => Outcome::Unsolvable,
    };
    finish(outcome, stats)
}

/// Follows the parents from the goal (its key `goal`) back to the start.
fn rebuild_path<P: StateSpace, C: Closed<P>>(
    space: &P,
    closed: &C,
    start: P::State,
    goal: C::Key,
) -> Path<P::State, P::Move> {
    let mut steps = Vec::new();
    let mut key = goal;
    while let Some((parent, mv)) = closed.parent(key) {
        steps.push(Step {
            mv,
            state: closed.state(space, key),
        });
        key = parent;
    }
    steps.reverse();
    Path { start, steps }
}

/// What the search reads back about a recorded state when it pops it.
#[derive(Clone, Copy)]
struct Record<M> {
    /// The fewest moves found so far; `u32::MAX` when the state was never reached.
    g: u32,
    /// The move the record came by (`None` for the start).
    mv: Option<M>,
    /// Whether the state was expanded before (a second expansion is a reopening).
    expanded: bool,
}

/// The closed set: per state reached, its best `g`, parent, move and whether it was expanded.
/// `Key` names a recorded state (the state itself, or its dense index) so that the parent links
/// cost no conversion on the hot path.
trait Closed<P: StateSpace> {
    type Key: Copy;
    /// The key of `state`.
    fn key(&self, space: &P, state: P::State) -> Self::Key;
    /// The state named by `key`.
    fn state(&self, space: &P, key: Self::Key) -> P::State;
    /// Records the start: `g = 0`, no parent.
    fn start(&mut self, space: &P, start: P::State);
    /// The record of `key`.
    fn get(&self, key: Self::Key) -> Record<P::Move>;
    /// Notes that `key` was expanded.
    fn mark_expanded(&mut self, key: Self::Key);
    /// Records `state` reached in `g` moves from `parent` by `mv` when it is new or `g` beats
    /// its record; `true` if so (the state must then be queued).
    fn improve(
        &mut self,
        space: &P,
        state: P::State,
        g: u32,
        parent: Self::Key,
        mv: P::Move,
    ) -> bool;
    /// The parent and the move of `key`; `None` for the start.
    fn parent(&self, key: Self::Key) -> Option<(Self::Key, P::Move)>;
    /// The number of states recorded.
    fn len(&self) -> u64;
    /// Bytes held now plus what the next growth could add (as [`Visited`](super::visited::Visited)).
    fn bytes_at_next_growth(&self) -> u64;
}

/// A hash-map entry of [`HashClosed`].
struct Node<S, M> {
    g: u32,
    expanded: bool,
    parent: S,
    mv: Option<M>,
}

/// The closed set of [`solve`]: a hash map from state to [`Node`].
struct HashClosed<S, M> {
    map: HashMap<S, Node<S, M>>,
}

impl<S, M> Default for HashClosed<S, M> {
    fn default() -> Self {
        HashClosed {
            map: HashMap::new(),
        }
    }
}

impl<P: StateSpace> Closed<P> for HashClosed<P::State, P::Move> {
    type Key = P::State;

    #[inline]
    fn key(&self, _: &P, state: P::State) -> P::State {
        state
    }

    #[inline]
    fn state(&self, _: &P, key: P::State) -> P::State {
        key
    }

    fn start(&mut self, _: &P, start: P::State) {
        let node = Node {
            g: 0,
            expanded: false,
            parent: start,
            mv: None,
        };
        self.map.insert(start, node);
    }

    #[inline]
    fn get(&self, key: P::State) -> Record<P::Move> {
        self.map.get(&key).map_or(
            Record {
                g: u32::MAX,
                mv: None,
                expanded: false,
            },
            |n| Record {
                g: n.g,
                mv: n.mv,
                expanded: n.expanded,
            },
        )
    }

    #[inline]
    fn mark_expanded(&mut self, key: P::State) {
        if let Some(node) = self.map.get_mut(&key) {
            node.expanded = true;
        }
    }

    #[inline]
    fn improve(&mut self, _: &P, state: P::State, g: u32, parent: P::State, mv: P::Move) -> bool {
        use hashbrown::hash_map::Entry;
        match self.map.entry(state) {
            Entry::Vacant(slot) => {
                slot.insert(Node {
                    g,
                    expanded: false,
                    parent,
                    mv: Some(mv),
                });
                true
            }
            Entry::Occupied(mut slot) => {
                let node = slot.get_mut();
                if g >= node.g {
                    return false;
                }
                node.g = g;
                node.parent = parent;
                node.mv = Some(mv);
                true
            }
        }
    }

    fn parent(&self, key: P::State) -> Option<(P::State, P::Move)> {
        let node = &self.map[&key];
        node.mv.map(|mv| (node.parent, mv))
    }

    fn len(&self) -> u64 {
        self.map.len() as u64
    }

    /// A hash map doubles when full: the old and the new table live together while it moves.
    fn bytes_at_next_growth(&self) -> u64 {
        self.map.allocation_size().max(64) as u64 * 3
    }
}

/// A slot of [`DenseClosed`]: `g + 1` (0: never reached, so a fresh array is all zeros), whether
/// the state was expanded, the move and the parent's index.
#[derive(Clone, Copy)]
struct Slot<M> {
    g_plus_one: u32,
    expanded: bool,
    mv: Option<M>,
    parent: u64,
}

/// The closed set of [`solve_indexed`]: one [`Slot`] per state of the whole space.
struct DenseClosed<M> {
    slots: Vec<Slot<M>>,
    len: u64,
}

impl<M: Copy> DenseClosed<M> {
    /// All states unreached; `size` is the space's, checked against the budget. Written
    /// under `latch` (the time limit and Ctrl-C hold while it is).
    fn new<P: Indexed<Move = M>>(_: &P, size: usize, latch: &Latch) -> Result<Self, Limit> {
        let empty = Slot {
            g_plus_one: 0,
            expanded: false,
            mv: None,
            parent: 0,
        };
        Ok(DenseClosed {
            slots: super::filled(size, || empty, latch)?,
            len: 0,
        })
    }
}

impl<P: Indexed> Closed<P> for DenseClosed<P::Move> {
    type Key = u64;

    #[inline]
    fn key(&self, space: &P, state: P::State) -> u64 {
        space.index(state)
    }

    #[inline]
    fn state(&self, space: &P, key: u64) -> P::State {
        space.state(key)
    }

    fn start(&mut self, space: &P, start: P::State) {
        // The start is the only state with no move; its parent is never read.
        self.slots[space.index(start) as usize].g_plus_one = 1;
        self.len = 1;
    }

    #[inline]
    fn get(&self, key: u64) -> Record<P::Move> {
        let slot = &self.slots[key as usize];
        Record {
            g: slot.g_plus_one.wrapping_sub(1),
            mv: slot.mv,
            expanded: slot.expanded,
        }
    }

    #[inline]
    fn mark_expanded(&mut self, key: u64) {
        self.slots[key as usize].expanded = true;
    }

    #[inline]
    fn improve(&mut self, space: &P, state: P::State, g: u32, parent: u64, mv: P::Move) -> bool {
        let slot = &mut self.slots[space.index(state) as usize];
        let g_plus_one = g + 1;
        if slot.g_plus_one != 0 && g_plus_one >= slot.g_plus_one {
            return false;
        }
        self.len += (slot.g_plus_one == 0) as u64;
        *slot = Slot {
            g_plus_one,
            expanded: slot.expanded,
            mv: Some(mv),
            parent,
        };
        true
    }

    fn parent(&self, key: u64) -> Option<(u64, P::Move)> {
        let slot = &self.slots[key as usize];
        slot.mv.map(|mv| (slot.parent, mv))
    }

    fn len(&self) -> u64 {
        self.len
    }

    /// Allocated once, at full size: it never grows.
    fn bytes_at_next_growth(&self) -> u64 {
        (self.slots.len() * std::mem::size_of::<Slot<P::Move>>()) as u64
    }
}

/// The open set: buckets by `f`, each split into buckets by `h` (see the module docs).
struct Open<S> {
    layers: Vec<Layer<S>>,
    /// No entry has an `f` below this.
    lowest: usize,
    /// Entries held, stale ones included.
    len: u64,
}

/// The entries of one `f`.
struct Layer<S> {
    by_h: Vec<Vec<S>>,
    len: u64,
    /// No entry of this layer has an `h` below this (`usize::MAX` when the layer is empty).
    lowest_h: usize,
}

impl<S> Default for Open<S> {
    fn default() -> Self {
        Open {
            layers: Vec::new(),
            lowest: 0,
            len: 0,
        }
    }
}

impl<S: Copy> Open<S> {
    /// Queues `state` under `f` and `h <= f`. `f` indexes the buckets, so the bucket array grows
    /// to the largest `f` pushed: that growth is checked against the budget first (an estimate
    /// far beyond any distance, for a state that cannot reach a goal, is refused, not allocated).
    fn push(&mut self, f: u32, h: u32, state: S, limits: &Limits) -> Result<(), Limit> {
        let (f, h) = (f as usize, h as usize);
        if f >= self.layers.len() {
            let bytes = (f as u128 + 1) * std::mem::size_of::<Layer<S>>() as u128;
            limits.check_memory(bytes + self.bytes() as u128)?;
            self.layers.resize_with(f + 1, || Layer {
                by_h: Vec::new(),
                len: 0,
                lowest_h: usize::MAX,
            });
        }
        let layer = &mut self.layers[f];
        if h >= layer.by_h.len() {
            layer.by_h.resize_with(h + 1, Vec::new);
        }
        layer.by_h[h].push(state);
        layer.len += 1;
        layer.lowest_h = layer.lowest_h.min(h);
        self.lowest = self.lowest.min(f);
        self.len += 1;
        Ok(())
    }

    /// Takes an entry of the smallest `f` and, among those, the smallest `h`: `(f, h, state)`.
    fn pop(&mut self) -> Option<(u32, u32, S)> {
        while self.layers.get(self.lowest)?.len == 0 {
            self.lowest += 1;
        }
        let layer = &mut self.layers[self.lowest];
        while layer.by_h[layer.lowest_h].is_empty() {
            layer.lowest_h += 1;
        }
        let h = layer.lowest_h;
        let state = layer.by_h[h].pop().expect("a non-empty bucket");
        layer.len -= 1;
        if layer.len == 0 {
            layer.lowest_h = usize::MAX;
        }
        self.len -= 1;
        Some((self.lowest as u32, h as u32, state))
    }

    /// Bytes the buckets have allocated.
    fn bytes(&self) -> u64 {
        let state = std::mem::size_of::<S>();
        let headers = std::mem::size_of::<Vec<S>>();
        let mut bytes = self.layers.capacity() * std::mem::size_of::<Layer<S>>();
        for layer in &self.layers {
            bytes += layer.by_h.capacity() * headers;
            bytes += layer
                .by_h
                .iter()
                .map(|b| b.capacity() * state)
                .sum::<usize>();
        }
        bytes as u64
    }
}

/// `astar` in the [engine table](super::engines): `auto`'s choice over IDA* where successors
/// are costly (a puzzle written in Python: each state expanded once).
pub const ENGINE: Engine = Engine {
    mode: Mode::ASTAR,
    about: "A* with the puzzle's heuristic: optimal, memory for every state it reaches",
    needs: &[Need::Heuristic],
    gives: Gives::EXACT,
    options: &[],
    auto: Auto::When {
        priority: 10,
        condition: |facts| facts.costly_moves,
    },
};

/// A* where the puzzle has a heuristic: dense arrays over a small dense index.
pub(crate) fn make<P: StateSpace + Send + 'static>(caps: &Arc<Caps<P>>) -> Option<Run<P>> {
    let lazy = caps.heuristic.clone()?;
    let caps = caps.clone();
    Some(Box::new(move |space, start, limits, _, cache| {
        let report = guided(&lazy, limits, cache, |h| match caps.index {
            Some(_) => solve_indexed(&caps.view(space), &Through(h), start, limits),
            None => solve(space, h, start, limits),
        });
        Ok((report, None))
    }))
}

#[cfg(test)]
mod tests;
