//! A dense index made from a list of states ([`Enumerated`]), and a space wearing it
//! ([`IndexedBy`]): for puzzles whose encoding has holes and no ranking formula (shaped pieces
//! on a board, anything whose legal states are easier to list than to count).
//!
//! # How it works
//!
//! [`Enumerated`] keeps every state once, sorted, in one array: [`state(i)`](Enumerated::state)
//! is the `i`-th, [`index(s)`](Enumerated::index) a binary search. It is built two ways:
//!
//! - [`Enumerated::enumerate`]: from a function that lists the states (in any order, repeats
//!   allowed). It is called twice, once to count and once to fill, so the array's memory is
//!   checked against the budget before it is allocated; a listing that passes the budget is
//!   stopped as soon as it does (the figure then is what was counted so far: a lower bound).
//! - [`Enumerated::reachable`]: the states reachable from some starts, found by a forward BFS
//!   with a hash set whose memory is checked before each growth.
//!
//! [`IndexedBy`] pairs a space with its index: it is [`Indexed`] (so bitset BFS, distance
//! tables and `explore` run on it), its goals are the indexed states that are goals
//! ([`GoalSet`]), its board text refuses a board the index does not hold, and it delegates the
//! rest ([`Invertible`], [`Invariant`], [`Describe`]) to the space.
//!
//! # Memory and speed
//!
//! | | bytes per state | `index` | `state` |
//! |---|---|---|---|
//! | [`Enumerated`] | `size_of::<S>()` (8 for a `u64`, 16 for a `u128`), nothing else | binary search: `log2(n)` probes (17 for 100,000 states, 28 for 300 million) | one read |
//! | building it | the same, plus the listing's own (none for [`enumerate`](Enumerated::enumerate); the hash set for [`reachable`](Enumerated::reachable): about 3 `size_of::<S>()` while it grows) | | |
//!
//! So 300 million `u64` states take 2.4 GB and a lookup about 28 cache misses late in the
//! search; a perfect hash would answer in O(1) with a few bits per state more, but `state(i)`
//! needs the sorted keys anyway, and a lookup is rarely the cost next to generating
//! successors. Where an encoding has a ranking formula ([`rank`](crate::rank): permutations,
//! combinations, multisets) use that instead: no memory at all and no search.
//!
//! # Holes
//!
//! [`Indexed`] wants a bijection with `0..size()`. The sorted array is one by construction:
//! every index is a listed state. What the plugin keeps is the other half of the contract:
//! every state a move or a board can produce must be listed (a successor outside the index is a
//! bug: [`IndexedBy`]'s `index` panics naming it). An enumeration of *every* legal state keeps
//! it for any board; an index of one reachable component keeps it for the boards of that
//! component, and [`IndexedBy`]'s [`BoardFormat`] refuses the others with one line.

use crate::board_text::BoardText;
use crate::cache::fingerprint::Content;
use crate::error::Result;
use crate::limit::{Latch, Limit, Limits};
use crate::search::visited::{HashVisited, Visited};
use crate::space::{BoardFormat, Describe, GoalSet, Indexed, Invariant, Invertible, StateSpace};
use std::hash::{Hash, Hasher};
use std::ops::ControlFlow;

/// What an enumeration calls with each state; [`ControlFlow::Break`] asks it to stop listing.
pub type Visit<'a, S> = &'a mut dyn FnMut(S) -> ControlFlow<()>;

/// Every state of a space, sorted: a dense index by binary search. See the module docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enumerated<S> {
    states: Box<[S]>,
}

impl<S: Copy + Ord> Enumerated<S> {
    /// Bytes the index takes per state.
    pub const BYTES_PER_STATE: usize = std::mem::size_of::<S>();

    /// The index of every state `list` visits, within `limits` (memory, time, Ctrl-C).
    ///
    /// - `list(visit)`: calls `visit` with each state, in any order, repeats allowed, and stops
    ///   when `visit` returns [`ControlFlow::Break`]. It is called twice (to count, then to
    ///   fill) and must list the same states both times.
    ///
    /// Errors: the [`Limit`] that stopped it. A listing whose count passes the memory budget is
    /// stopped there, before anything is allocated ([`Limit::Memory`] with the bytes counted so
    /// far: a lower bound).
    ///
    /// ```
    /// use statespace::index::Enumerated;
    /// use statespace::limit::Limits;
    /// use std::ops::ControlFlow;
    /// // The 4-bit words with two bits set: 6 of 16 values, indexed 0..6.
    /// let index = Enumerated::enumerate(&Limits::default(), |visit| {
    ///     for word in 0u8..16 {
    ///         if word.count_ones() == 2 && visit(word).is_break() {
    ///             return;
    ///         }
    ///     }
    /// })
    /// .unwrap();
    /// assert_eq!(index.len(), 6);
    /// assert_eq!(index.index(0b0101), Some(1));
    /// assert_eq!(index.state(5), 0b1100);
    /// ```
    pub fn enumerate(limits: &Limits, mut list: impl FnMut(Visit<S>)) -> Result<Self, Limit> {
        let latch = Latch::new(limits);
        let mut ticker = latch.ticker();
        let mut stopped = None;
        let mut count = 0u64;
        list(&mut |_| {
            let bytes = (count as u128 + 1) * Self::BYTES_PER_STATE as u128;
            match ticker.tick(count).and_then(|()| limits.check_memory(bytes)) {
                Ok(()) => {
                    count += 1;
                    ControlFlow::Continue(())
                }
                Err(limit) => {
                    stopped = Some(limit);
                    ControlFlow::Break(())
                }
            }
        });
        if let Some(limit) = stopped {
            return Err(limit);
        }
        let mut states = Vec::with_capacity(count as usize);
        let mut ticker = latch.ticker();
        list(&mut |state| {
            assert!(
                states.len() < states.capacity(),
                "an enumeration listed more states the second time than the first"
            );
            states.push(state);
            match ticker.tick(states.len() as u64) {
                Ok(()) => ControlFlow::Continue(()),
                Err(limit) => {
                    stopped = Some(limit);
                    ControlFlow::Break(())
                }
            }
        });
        match stopped {
            Some(limit) => Err(limit),
            None => Ok(Self::from_vec(states)),
        }
    }

    /// The states reachable from `starts` in `space` (the starts included), found by a forward
    /// BFS within `limits`: time and Ctrl-C; memory checked before each growth of the hash set
    /// (see [`Visited::bytes_at_next_growth`]), then the sorted array's. `max_depth` and
    /// `max_states` are not applied: an index of part of a component would not be closed under
    /// moves.
    ///
    /// ```
    /// use statespace::index::Enumerated;
    /// use statespace::limit::Limits;
    /// use statespace::toys::Ring;
    /// let index = Enumerated::reachable(&Ring::new(10), &[3], &Limits::default()).unwrap();
    /// assert_eq!(index.len(), 10);
    /// assert_eq!(index.index(7), Some(7));
    /// ```
    pub fn reachable<P>(space: &P, starts: &[S], limits: &Limits) -> Result<Self, Limit>
    where
        P: StateSpace<State = S> + ?Sized,
        S: Hash,
    {
        let latch = Latch::new(limits);
        let mut ticker = latch.ticker();
        let mut seen = HashVisited::default();
        let mut frontier: Vec<S> = Vec::new();
        let mut next = Vec::new();
        let mut generated = 0u64;
        let lists = |frontier: &Vec<S>, next: &Vec<S>| {
            ((frontier.capacity() + next.capacity()) * Self::BYTES_PER_STATE) as u128
        };
        for &start in starts {
            if seen.insert(start) {
                frontier.push(start);
            }
        }
        let mut stopped = None;
        while !frontier.is_empty() && stopped.is_none() {
            for &state in &frontier {
                space.successors(state, &mut |_, successor| {
                    generated += 1;
                    if stopped.is_some() {
                        return;
                    }
                    // Before the set or the list may grow: what the growth would hold.
                    let needed = seen.bytes_at_next_growth() as u128
                        + lists(&frontier, &next)
                        + (next.len() as u128 + 1) * Self::BYTES_PER_STATE as u128;
                    if let Err(limit) = ticker.tick(generated).and(limits.check_memory(needed)) {
                        stopped = Some(limit);
                    } else if seen.insert(successor) {
                        next.push(successor);
                    }
                });
                if stopped.is_some() {
                    break;
                }
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
        if let Some(limit) = stopped {
            return Err(limit);
        }
        drop((frontier, next));
        let array = seen.len() as u128 * Self::BYTES_PER_STATE as u128;
        limits.check_memory(seen.bytes_at_next_growth() as u128 / 3 + array)?;
        Ok(Self::from_vec(seen.into_states()))
    }

    /// The index of `states` (sorted here, repeats dropped). For states already in memory; a
    /// listing too large for the budget goes through [`enumerate`](Self::enumerate).
    pub fn from_vec(mut states: Vec<S>) -> Self {
        states.sort_unstable();
        states.dedup();
        Enumerated {
            states: states.into_boxed_slice(),
        }
    }

    /// The number of states.
    pub fn len(&self) -> u64 {
        self.states.len() as u64
    }

    /// Whether no state is indexed.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The index of `state`, or `None` when it was not listed.
    #[inline]
    pub fn index(&self, state: S) -> Option<u64> {
        self.states.binary_search(&state).ok().map(|i| i as u64)
    }

    /// The state at `index` (`index < len()`).
    #[inline]
    pub fn state(&self, index: u64) -> S {
        self.states[index as usize]
    }

    /// Every state, in index order.
    pub fn states(&self) -> &[S] {
        &self.states
    }

    /// The bytes the index holds.
    pub fn bytes(&self) -> u64 {
        (self.states.len() * Self::BYTES_PER_STATE) as u64
    }
}

/// A space with an [`Enumerated`] index: [`Indexed`], [`GoalSet`] from the index, and the
/// space's other capabilities. See the module docs.
///
/// ```
/// use statespace::index::{Enumerated, IndexedBy};
/// use statespace::limit::Limits;
/// use statespace::search::layers;
/// use statespace::space::Indexed;
/// use statespace::toys::Ring;
/// let ring = Ring::new(12);
/// let index = Enumerated::reachable(&ring, &[0], &Limits::default()).unwrap();
/// let indexed = IndexedBy::new(ring, index);
/// assert_eq!(indexed.size(), 12);
/// let limits = Limits::default();
/// let options = layers::Options { limits: &limits, threads: Some(1) };
/// let sweep = layers::backward(&indexed, options, &mut |_, _| {});
/// assert_eq!(sweep.histogram, [1, 2, 2, 2, 2, 2, 1]);
/// ```
pub struct IndexedBy<P: StateSpace> {
    space: P,
    index: Enumerated<P::State>,
}

impl<P: StateSpace> IndexedBy<P>
where
    P::State: Ord,
{
    /// `space` with `index`, which lists every state a move or a parsed board can produce.
    pub fn new(space: P, index: Enumerated<P::State>) -> Self {
        IndexedBy { space, index }
    }

    /// The space.
    pub fn space(&self) -> &P {
        &self.space
    }

    /// The index.
    pub fn enumerated(&self) -> &Enumerated<P::State> {
        &self.index
    }
}

impl<P: StateSpace> StateSpace for IndexedBy<P> {
    type State = P::State;
    type Move = P::Move;

    #[inline]
    fn successors(&self, state: Self::State, visit: &mut dyn FnMut(Self::Move, Self::State)) {
        self.space.successors(state, visit)
    }

    #[inline]
    fn any_successor(&self, state: Self::State, test: &mut dyn FnMut(Self::State) -> bool) -> bool {
        self.space.any_successor(state, test)
    }

    #[inline]
    fn successors_where(
        &self,
        state: Self::State,
        wanted: &mut dyn FnMut(Self::Move) -> bool,
        visit: &mut dyn FnMut(Self::Move, Self::State),
    ) {
        self.space.successors_where(state, wanted, visit)
    }

    #[inline]
    fn is_goal(&self, state: Self::State) -> bool {
        self.space.is_goal(state)
    }

    #[inline]
    fn may_follow(&self, previous: Self::Move, next: Self::Move) -> bool {
        self.space.may_follow(previous, next)
    }
}

impl<P: StateSpace> Indexed for IndexedBy<P>
where
    P::State: Ord,
{
    fn size(&self) -> u128 {
        self.index.len() as u128
    }

    /// Panics on a state the index does not hold: the enumeration missed a state the space
    /// produces (a bug of the plugin's, never of the input: boards outside the index are refused
    /// when parsed).
    #[inline]
    fn index(&self, state: Self::State) -> u64 {
        match self.index.index(state) {
            Some(i) => i,
            None => panic!("{state:?} is not in the enumerated index: the enumeration missed it"),
        }
    }

    #[inline]
    fn state(&self, index: u64) -> Self::State {
        self.index.state(index)
    }
}

impl<P: Invertible> Invertible for IndexedBy<P> {
    fn inverse(&self, m: Self::Move) -> Self::Move {
        self.space.inverse(m)
    }
}

impl<P: Invariant> Invariant for IndexedBy<P> {
    fn unsolvable_by(&self, state: Self::State) -> Option<&'static str> {
        self.space.unsolvable_by(state)
    }
}

/// The goals are the indexed states that are goals, in index order: one pass over the index.
impl<P: StateSpace> GoalSet for IndexedBy<P> {
    fn goals(&self, visit: &mut dyn FnMut(Self::State)) {
        for &state in self.index.states.iter() {
            if self.space.is_goal(state) {
                visit(state);
            }
        }
    }
}

/// A board the index does not hold is refused: the engines could not index it.
impl<P: BoardFormat> BoardFormat for IndexedBy<P>
where
    P::State: Ord,
{
    fn parse(&self, text: &BoardText) -> Result<Self::State> {
        let state = self.space.parse(text)?;
        self.held(text, state)
    }

    fn format(&self, state: Self::State) -> String {
        self.space.format(state)
    }

    fn parse_scramble(
        &self,
        text: &BoardText,
        setup: &mut crate::setup::Setup,
    ) -> Result<Self::State> {
        let state = self.space.parse_scramble(text, setup)?;
        self.held(text, state)
    }
}

impl<P: BoardFormat> IndexedBy<P>
where
    P::State: Ord,
{
    fn held(&self, text: &BoardText, state: P::State) -> Result<P::State> {
        match self.index.index(state) {
            Some(_) => Ok(state),
            None => Err(text.error_whole(format!(
                "not one of the {} states this puzzle's index holds (an index of one component \
                 holds the boards its start reaches)",
                self.index.len()
            ))),
        }
    }
}

/// The space's description, then the index's size and up to 64 of its states, evenly spaced:
/// what the space's description does not already fix (an index of one component depends on the
/// start it was found from). Not every state: hashing a few hundred million would cost seconds
/// on every run that loads a table; a cached table is also checked against the moves at random
/// states when loaded.
impl<P: Describe + StateSpace> Describe for IndexedBy<P> {
    fn describe(&self, content: &mut Content) {
        self.space.describe(content);
        let states = &self.index.states;
        content.str("enumerated index").u64(states.len() as u64);
        let step = states.len().div_ceil(64).max(1);
        for state in states.iter().step_by(step) {
            state.hash(&mut Feed(content));
        }
    }
}

/// A [`Hasher`] that writes what a state hashes into a fingerprint's content.
struct Feed<'a>(&'a mut Content);

impl Hasher for Feed<'_> {
    fn write(&mut self, bytes: &[u8]) {
        self.0.bytes(bytes);
    }
    fn finish(&self) -> u64 {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Outcome, bfs, table};
    use crate::toys::{Lights, LightsGoal};
    use std::collections::{BTreeSet, VecDeque};

    /// Lights Out 3 x 3: 512 boards, one component.
    fn lights() -> Lights {
        Lights::new(3, 3, false, LightsGoal::Uniform)
    }

    /// Lights Out 2 x 3: 64 boards in 4 components of 16.
    fn narrow() -> Lights {
        Lights::new(2, 3, false, LightsGoal::AllOff)
    }

    /// The brute force: every state reachable from `starts`, by a plain queue and a tree set.
    fn brute_force<P: StateSpace>(space: &P, starts: &[P::State]) -> BTreeSet<P::State>
    where
        P::State: Ord,
    {
        let mut seen: BTreeSet<P::State> = starts.iter().copied().collect();
        let mut queue: VecDeque<P::State> = starts.iter().copied().collect();
        while let Some(s) = queue.pop_front() {
            space.successors(s, &mut |_, t| {
                if seen.insert(t) {
                    queue.push_back(t);
                }
            });
        }
        seen
    }

    #[test]
    fn an_enumeration_indexes_its_states_in_order_without_repeats() {
        // Multiples of 3 and of 5 below 100, listed with repeats and out of order.
        let list = |visit: Visit<u32>| {
            for step in [5, 3] {
                for n in (0..100).rev().step_by(1).filter(|n| n % step == 0) {
                    if visit(n).is_break() {
                        return;
                    }
                }
            }
        };
        let index = Enumerated::enumerate(&Limits::default(), list).unwrap();
        let expected: Vec<u32> = (0..100).filter(|n| n % 3 == 0 || n % 5 == 0).collect();
        assert_eq!(index.states(), &expected[..]);
        for (i, &n) in expected.iter().enumerate() {
            assert_eq!(index.index(n), Some(i as u64));
            assert_eq!(index.state(i as u64), n);
        }
        assert_eq!(index.index(7), None);
        assert_eq!(index.bytes(), 4 * expected.len() as u64);
    }

    #[test]
    fn a_listing_over_the_budget_is_stopped_before_the_array_is_allocated() {
        let limits = Limits {
            memory_budget: 800,
            ..Limits::default()
        };
        let mut listed = 0u64;
        let stopped = Enumerated::<u64>::enumerate(&limits, |visit| {
            for n in 0..u64::MAX {
                listed += 1;
                if visit(n).is_break() {
                    return;
                }
            }
        });
        assert_eq!(
            stopped,
            Err(Limit::Memory {
                needed: 808,
                budget: 800
            })
        );
        assert_eq!(listed, 101);
    }

    #[test]
    fn a_spent_time_limit_stops_the_listing() {
        let limits = Limits {
            time_limit: Some(std::time::Duration::ZERO),
            ..Limits::default()
        };
        let stopped = Enumerated::<u64>::enumerate(&limits, |visit| {
            for n in 0.. {
                if visit(n).is_break() {
                    return;
                }
            }
        });
        assert_eq!(stopped, Err(Limit::Time(std::time::Duration::ZERO)));
    }

    #[test]
    fn the_reachable_component_equals_a_brute_force() {
        let space = narrow();
        for start in [0u64, 0b101_010, 0b000_001, 0b111_111] {
            let index = Enumerated::reachable(&space, &[start], &Limits::default()).unwrap();
            let expected = brute_force(&space, &[start]);
            assert_eq!(index.states(), expected.into_iter().collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_component_over_the_budget_is_refused() {
        let limits = Limits {
            memory_budget: 1000,
            ..Limits::default()
        };
        let stopped = Enumerated::reachable(&lights(), &[0], &limits);
        assert!(matches!(stopped, Err(Limit::Memory { .. })), "{stopped:?}");
    }

    #[test]
    fn engines_on_an_enumerated_index_agree_with_the_space_s_own() {
        let space = lights();
        let all = Enumerated::enumerate(&Limits::default(), |visit| {
            for board in 0..512u64 {
                if visit(board).is_break() {
                    return;
                }
            }
        })
        .unwrap();
        let indexed = IndexedBy::new(lights(), all);
        let limits = Limits::default();
        let own = table::build(&space, &limits).unwrap();
        let ours = table::build(&indexed, &limits).unwrap();
        for board in 0..512u64 {
            let theirs = own.distance(&space, board).unwrap();
            assert_eq!(
                ours.distance(&indexed, board).unwrap(),
                theirs,
                "{board:09b}"
            );
            let Outcome::Solved(path) = bfs::solve_indexed(&indexed, board, &limits).outcome else {
                panic!("{board:09b}: every 3 x 3 board is solvable");
            };
            assert_eq!(Some(path.len() as u32), theirs);
        }
        let mut goals = Vec::new();
        indexed.goals(&mut |g| goals.push(g));
        assert_eq!(goals, [0, 511]);
    }

    #[test]
    fn a_board_outside_a_component_s_index_is_refused_in_one_line() {
        let space = narrow();
        let component = Enumerated::reachable(&space, &[0], &Limits::default()).unwrap();
        assert_eq!(component.len(), 16);
        let indexed = IndexedBy::new(space, component);
        let inside = BoardText::from_file("b.txt", "bbw\nbww".into());
        assert_eq!(indexed.parse(&inside).unwrap(), 0b001_011);
        let outside = BoardText::from_file("b.txt", "bww\nwww".into());
        let error = indexed.parse(&outside).unwrap_err().to_string();
        assert_eq!(
            error,
            "b.txt:1: not one of the 16 states this puzzle's index holds (an index of one \
             component holds the boards its start reaches)"
        );
        let mut goals = Vec::new();
        indexed.goals(&mut |g| goals.push(g));
        assert_eq!(goals, [0]);
    }
}
