//! Distance tables: the distance of every state to the goal set, by one backward BFS.
//!
//! [`build`] runs a multi-source breadth-first search from every goal state at once over a space
//! whose moves are [`Invertible`] (so the predecessors of a state are its successors) and whose
//! states are [`Indexed`] (so the table is a flat array over `0..size`). Afterwards every query is a
//! lookup: [`DistanceTable::distance`] of one state, [`DistanceTable::path`] by descending the table
//! (from a state at distance `d`, step to any successor at `d - 1`), and whole-space facts
//! ([`DistanceTable::histogram`], [`DistanceTable::reachable`], [`DistanceTable::max_distance`]).
//! Build once, answer many: the Shift plugin answers every board of a geometry from one table.
//!
//! # Packing
//!
//! Entries are packed into `u64` words, `bits` per entry, where `bits` is 4, 8, 16 or 32 (a power
//! of two, so no entry straddles two words). The all-ones code of the width means "unreached";
//! every other code is a distance. The build starts at 4 bits (distances 0 to 14, two entries per
//! byte) and widens the table, doubling the width, when the search reaches a depth the width
//! cannot hold. The trade-off:
//!
//! - 4 bits is the smallest width that still answers a query by one lookup (a 2-bit "distance
//!   mod 3" table is half the size, but then a distance costs a walk to the goal set). Puzzles with
//!   small diameters (Flip 4 x 4: 6, Shift 4 x 6: 12) fit it, and a small table stays in cache,
//!   which is most of the speed of the build.
//! - Widening costs a copy and, for that moment, both tables in memory; a deep space pays it once
//!   per doubling, a shallow one never.
//!
//! # The search
//!
//! The BFS is level-synchronous over the dense index and keeps no queue: level `d + 1` is found by
//! scanning the table for entries equal to `d` (a word of 16 entries is tested for a match at once,
//! so empty stretches cost little). Per level it picks a direction:
//!
//! - *top-down*: expand each state at depth `d`; every unreached successor gets `d + 1`;
//! - *bottom-up*: for each unreached state, look for a successor at depth `d`; the first found
//!   gives it `d + 1` and ends its look-ups. Chosen when the level is larger than what is left
//!   unreached, where it looks at far fewer states (the middle and last levels of a big space).
//!
//! Both directions are exact because moves are invertible: `t` is a successor of `s` exactly when
//! `s` is a successor of `t`. Nothing is allocated per state; the only memory is the table.
//!
//! # Example
//!
//! ```
//! use statespace::search::{table, Limits};
//! use statespace::space::{GoalSet, Indexed, Invertible, StateSpace};
//!
//! /// A ring of 10 states; a move steps one way or the other; the goal is 0.
//! struct Ring;
//! impl StateSpace for Ring {
//!     type State = u8;
//!     type Move = i8;
//!     fn successors(&self, s: u8, visit: &mut dyn FnMut(i8, u8)) {
//!         visit(1, (s + 1) % 10);
//!         visit(-1, (s + 9) % 10);
//!     }
//!     fn is_goal(&self, s: u8) -> bool { s == 0 }
//! }
//! impl Indexed for Ring {
//!     fn size(&self) -> u128 { 10 }
//!     fn index(&self, s: u8) -> u64 { s as u64 }
//!     fn state(&self, i: u64) -> u8 { i as u8 }
//! }
//! impl Invertible for Ring {
//!     fn inverse(&self, m: i8) -> i8 { -m }
//! }
//! impl GoalSet for Ring {
//!     fn goals(&self, visit: &mut dyn FnMut(u8)) { visit(0) }
//! }
//!
//! let t = table::build(&Ring, &Limits::default()).unwrap();
//! assert_eq!(t.histogram(), vec![1, 2, 2, 2, 2, 1]);
//! assert_eq!(t.distance(7), Some(3));
//! assert_eq!(t.path(&Ring, 7).unwrap().moves(), vec![1, 1, 1]);
//! ```

use super::{Limit, Limits, Outcome, Path, Report, Stats, Step};
use crate::space::{GoalSet, Indexed, Invertible};
use std::time::Instant;

/// The width a build starts with.
const START_BITS: u32 = 4;
/// The widest entry; 2^32 - 2 levels is beyond any space a table fits.
const MAX_BITS: u32 = 32;
/// How often (in table words scanned) the clock is checked.
const CHECK_EVERY_WORDS: usize = 1 << 12;

/// The distance of every state of an indexed space to its goal set.
///
/// Built by [`build`]; valid only for the space (same size, moves and goals) it was built from.
#[derive(Clone, Debug)]
pub struct DistanceTable {
    entries: Packed,
    /// `histogram[d]`: how many states are at distance `d`.
    histogram: Vec<u64>,
    stats: Stats,
}

impl DistanceTable {
    /// The distance from the state at `index` to the nearest goal, or `None` when no goal can be
    /// reached from it (or `index` is out of range).
    pub fn distance(&self, index: u64) -> Option<u32> {
        if index >= self.entries.len {
            return None;
        }
        let code = self.entries.get(index);
        (code != self.entries.unreached()).then_some(code as u32)
    }

    /// How many states are at each distance: `histogram()[d]` states need exactly `d` moves.
    pub fn histogram(&self) -> Vec<u64> {
        self.histogram.clone()
    }

    /// How many states can reach the goal set (the sum of the histogram).
    pub fn reachable(&self) -> u64 {
        self.histogram.iter().sum()
    }

    /// The largest finite distance (the radius of the space around its goal set); `None` when the
    /// goal set is empty.
    pub fn max_distance(&self) -> Option<u32> {
        self.histogram.len().checked_sub(1).map(|d| d as u32)
    }

    /// The number of states the table covers (the space's `size()`).
    pub fn len(&self) -> u64 {
        self.entries.len
    }

    /// Whether the table covers no state.
    pub fn is_empty(&self) -> bool {
        self.entries.len == 0
    }

    /// Bits per entry in the final table (4, 8, 16 or 32).
    pub fn bits_per_entry(&self) -> u32 {
        self.entries.bits
    }

    /// The bytes the table holds.
    pub fn bytes(&self) -> u64 {
        self.entries.words.len() as u64 * 8
    }

    /// What the build did: `expanded` and `generated` count the work of both directions,
    /// `visited` the states reached, `peak_frontier` the largest level, `depth` the deepest level.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// An optimal path from `start` to a goal, by descending the table: from a state at distance
    /// `d`, the first successor (in the space's move order) at distance `d - 1`. `None` when no goal
    /// can be reached from `start`. Costs `d` successor generations and their index look-ups.
    ///
    /// `space` must be the space the table was built from.
    pub fn path<P: Indexed>(&self, space: &P, start: P::State) -> Option<Path<P::State, P::Move>> {
        let mut distance = self.distance(space.index(start))?;
        let mut steps = Vec::with_capacity(distance as usize);
        let mut current = start;
        while distance > 0 {
            let mut next = None;
            space.successors(current, &mut |m, t| {
                if next.is_none() && self.distance(space.index(t)) == Some(distance - 1) {
                    next = Some((m, t));
                }
            });
            let (mv, state) =
                next.expect("a state at distance d > 0 has a successor at distance d - 1");
            steps.push(Step { mv, state });
            current = state;
            distance -= 1;
        }
        Some(Path { start, steps })
    }

    /// The table's answer for `start` as an [`Outcome`]: solved with the path from
    /// [`path`](Self::path), or unsolvable.
    pub fn outcome<P: Indexed>(&self, space: &P, start: P::State) -> Outcome<P::State, P::Move> {
        match self.path(space, start) {
            Some(path) => Outcome::Solved(path),
            None => Outcome::Unsolvable,
        }
    }
}

/// The bytes a table over `space` needs at the starting width: what [`build`] checks against the
/// memory budget before allocating.
pub fn bytes_needed<P: Indexed>(space: &P) -> u128 {
    Packed::bytes_for(space.size(), START_BITS)
}

/// Builds the distance table of `space` by one multi-source BFS backward from all its goals.
///
/// - `space`: an indexed space with invertible moves and an enumerable goal set.
/// - `limits`: `memory_budget` is checked before allocating ([`Limit::Memory`] with the bytes
///   needed) and again before each widening; `time_limit` and `max_states` (states reached) stop
///   the build. `max_depth` does not apply: a table is all or nothing, and a caller that wants a
///   depth limit compares the looked-up distance with it.
///
/// Guarantees: every state that can reach a goal gets its exact distance (the fewest moves to the
/// nearest goal); every other state reads as unreached.
pub fn build<P: Indexed + Invertible + GoalSet>(
    space: &P,
    limits: &Limits,
) -> Result<DistanceTable, Limit> {
    let started = Instant::now();
    let size = space.size();
    limits.check_memory(Packed::bytes_for(size, START_BITS))?;
    let len = u64::try_from(size).map_err(|_| Limit::Memory {
        needed: Packed::bytes_for(size, START_BITS),
        budget: limits.memory_budget,
    })?;
    let mut entries = Packed::new(len, START_BITS);
    let mut stats = Stats::default();

    let mut level = 0u64;
    space.goals(&mut |goal| {
        let i = space.index(goal);
        if entries.get(i) == entries.unreached() {
            entries.set(i, 0);
            level += 1;
        }
    });
    let mut histogram = Vec::new();
    let mut reached = 0u64;
    let mut depth = 0u64;
    while level > 0 {
        histogram.push(level);
        reached += level;
        stats.visited = reached;
        stats.peak_frontier = stats.peak_frontier.max(level);
        stats.depth = depth as u32;
        if let Some(max) = limits.max_states
            && reached > max
        {
            return Err(Limit::States(max));
        }
        if depth + 1 >= entries.unreached() {
            let wider = entries.bits * 2;
            assert!(wider <= MAX_BITS, "a space deeper than 2^32 levels");
            let both = Packed::bytes_for(size, entries.bits) + Packed::bytes_for(size, wider);
            limits.check_memory(both)?;
            entries = entries.widened(wider);
        }
        let unreached = len - reached;
        let scan = Scan {
            space,
            limits,
            started,
        };
        level = if level > unreached {
            scan.bottom_up(&mut entries, depth, &mut stats)?
        } else {
            scan.top_down(&mut entries, depth, &mut stats)?
        };
        depth += 1;
    }
    stats.elapsed = started.elapsed();
    Ok(DistanceTable {
        entries,
        histogram,
        stats,
    })
}

/// Builds the table of `space` and answers for `start`: the [`Report`] carries the build's stats.
/// For one query a forward BFS is cheaper; this is for checking the engine against the others and
/// for callers that ask once per process.
pub fn solve<P: Indexed + Invertible + GoalSet>(
    space: &P,
    start: P::State,
    limits: &Limits,
) -> Report<P::State, P::Move> {
    match build(space, limits) {
        Ok(table) => Report {
            outcome: table.outcome(space, start),
            stats: table.stats.clone(),
        },
        Err(limit) => Report {
            outcome: Outcome::LimitReached(limit),
            stats: Stats::default(),
        },
    }
}

/// One level of the search: the space, the limits and the clock.
struct Scan<'a, P> {
    space: &'a P,
    limits: &'a Limits,
    started: Instant,
}

impl<P: Indexed> Scan<'_, P> {
    /// Expands every state at `depth`; returns how many states got `depth + 1`.
    fn top_down(&self, entries: &mut Packed, depth: u64, stats: &mut Stats) -> Result<u64, Limit> {
        let next = depth + 1;
        let mut found = 0u64;
        let unreached = entries.unreached();
        for word in 0..entries.words.len() {
            self.check_clock(word)?;
            let mut hits = entries.lanes_equal(word, depth);
            while hits != 0 {
                let i = entries.lane_index(word, hits);
                hits &= hits - 1;
                let state = self.space.state(i);
                stats.expanded += 1;
                self.space.successors(state, &mut |_, t| {
                    stats.generated += 1;
                    let j = self.space.index(t);
                    if entries.get(j) == unreached {
                        entries.set(j, next);
                        found += 1;
                    }
                });
            }
        }
        Ok(found)
    }

    /// Gives `depth + 1` to every unreached state with a successor at `depth`; returns how many.
    fn bottom_up(&self, entries: &mut Packed, depth: u64, stats: &mut Stats) -> Result<u64, Limit> {
        let next = depth + 1;
        let mut found = 0u64;
        let unreached = entries.unreached();
        for word in 0..entries.words.len() {
            self.check_clock(word)?;
            let mut hits = entries.lanes_equal(word, unreached);
            while hits != 0 {
                let i = entries.lane_index(word, hits);
                hits &= hits - 1;
                let state = self.space.state(i);
                stats.expanded += 1;
                let mut near = false;
                // The visitor cannot stop the generation, but once a neighbour at `depth` is
                // found the index look-ups, which are the cost, are skipped.
                self.space.successors(state, &mut |_, t| {
                    stats.generated += 1;
                    near = near || entries.get(self.space.index(t)) == depth;
                });
                if near {
                    entries.set(i, next);
                    found += 1;
                }
            }
        }
        Ok(found)
    }

    fn check_clock(&self, word: usize) -> Result<(), Limit> {
        if !word.is_multiple_of(CHECK_EVERY_WORDS) {
            return Ok(());
        }
        match self.limits.stop_reason(self.started) {
            Some(limit) => Err(limit),
            None => Ok(()),
        }
    }
}

/// Entries of `bits` bits packed into `u64` words; entry `i` is bits `(i % per) * bits ..` of
/// word `i / per`, where `per = 64 / bits`. Padding lanes past `len` hold the unreached code and
/// are masked out of every scan.
#[derive(Clone, Debug)]
struct Packed {
    bits: u32,
    /// log2 of the entries per word, and the all-ones code: kept rather than derived from
    /// `bits` on every access, which would divide by a run-time value in the hottest loop.
    per_word_log2: u32,
    unreached: u64,
    /// A 1 at the bottom of every lane.
    ones: u64,
    len: u64,
    words: Vec<u64>,
}

impl Packed {
    fn bytes_for(len: u128, bits: u32) -> u128 {
        len.div_ceil(64 / bits as u128) * 8
    }

    /// A table of `len` entries, all unreached.
    fn new(len: u64, bits: u32) -> Self {
        let per = 64 / bits as u64;
        let words = usize::try_from(len.div_ceil(per)).expect("checked against the budget");
        Packed {
            bits,
            per_word_log2: (64 / bits).trailing_zeros(),
            unreached: (1u64 << bits) - 1,
            ones: u64::MAX / ((1u64 << bits) - 1),
            len,
            words: vec![u64::MAX; words],
        }
    }

    #[inline]
    fn unreached(&self) -> u64 {
        self.unreached
    }

    #[inline]
    fn per_word_log2(&self) -> u32 {
        self.per_word_log2
    }

    #[inline]
    fn get(&self, i: u64) -> u64 {
        let word = self.words[(i >> self.per_word_log2()) as usize];
        let shift = (i & ((1 << self.per_word_log2()) - 1)) as u32 * self.bits;
        (word >> shift) & self.unreached()
    }

    #[inline]
    fn set(&mut self, i: u64, value: u64) {
        let log2 = self.per_word_log2();
        let shift = (i & ((1 << log2) - 1)) as u32 * self.bits;
        let mask = self.unreached() << shift;
        let word = &mut self.words[(i >> log2) as usize];
        *word = (*word & !mask) | (value << shift);
    }

    /// The top bit of every lane of `word` whose entry equals `value`, others clear; padding lanes
    /// past `len` never match.
    #[inline]
    fn lanes_equal(&self, word: usize, value: u64) -> u64 {
        let ones = self.ones;
        let high = ones << (self.bits - 1);
        let low = !high;
        // A lane of `x` is zero exactly where the entry equals `value`. Adding `low` to a lane's low
        // bits carries into its top bit when they are non-zero, and never across lanes.
        let x = self.words[word] ^ (value * ones);
        let nonzero = (((x & low) + low) | x) & high;
        let mut hits = !nonzero & high;
        let per = 1u64 << self.per_word_log2;
        let first = word as u64 * per;
        if first + per > self.len {
            let valid = self.len - first; // lanes in use in the last word
            hits &= (1u64 << (valid * self.bits as u64)) - 1;
        }
        hits
    }

    /// The entry index of the lowest lane marked in `hits` (from [`Self::lanes_equal`]).
    #[inline]
    fn lane_index(&self, word: usize, hits: u64) -> u64 {
        let lane = hits.trailing_zeros() / self.bits;
        ((word as u64) << self.per_word_log2()) + lane as u64
    }

    /// The same entries at `bits` bits each, unreached still unreached.
    fn widened(&self, bits: u32) -> Packed {
        let mut wider = Packed::new(self.len, bits);
        let unreached = self.unreached();
        for i in 0..self.len {
            let code = self.get(i);
            if code != unreached {
                wider.set(i, code);
            }
        }
        wider
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::StateSpace;

    #[test]
    fn lanes_equal_finds_exactly_the_matching_entries() {
        for bits in [4, 8, 16, 32] {
            let mut p = Packed::new(37, bits);
            for i in (0..37).step_by(3) {
                p.set(i, i % 5);
            }
            for value in [0, 1, 4, p.unreached()] {
                let mut seen = Vec::new();
                for word in 0..p.words.len() {
                    let mut hits = p.lanes_equal(word, value);
                    while hits != 0 {
                        seen.push(p.lane_index(word, hits));
                        hits &= hits - 1;
                    }
                }
                let expected: Vec<u64> = (0..37).filter(|&i| p.get(i) == value).collect();
                assert_eq!(seen, expected, "bits {bits}, value {value}");
            }
        }
    }

    #[test]
    fn widening_keeps_every_entry() {
        let mut p = Packed::new(21, 4);
        for i in 0..21 {
            if i % 4 != 0 {
                p.set(i, i % 15);
            }
        }
        let w = p.widened(8);
        for i in 0..21 {
            let expected = if i % 4 == 0 { 255 } else { i % 15 };
            assert_eq!(w.get(i), expected);
        }
    }

    /// A path of `n` states 0 - 1 - ... - n-1; the goal is 0, so distances reach n - 1.
    struct Line(u64);
    impl StateSpace for Line {
        type State = u64;
        type Move = i8;
        fn successors(&self, s: u64, visit: &mut dyn FnMut(i8, u64)) {
            if s > 0 {
                visit(-1, s - 1);
            }
            if s + 1 < self.0 {
                visit(1, s + 1);
            }
        }
        fn is_goal(&self, s: u64) -> bool {
            s == 0
        }
    }
    impl Indexed for Line {
        fn size(&self) -> u128 {
            self.0 as u128
        }
        fn index(&self, s: u64) -> u64 {
            s
        }
        fn state(&self, i: u64) -> u64 {
            i
        }
    }
    impl Invertible for Line {
        fn inverse(&self, m: i8) -> i8 {
            -m
        }
    }
    impl GoalSet for Line {
        fn goals(&self, visit: &mut dyn FnMut(u64)) {
            visit(0)
        }
    }

    #[test]
    fn deep_spaces_widen_the_table() {
        let t = build(&Line(300), &Limits::default()).unwrap();
        assert_eq!(t.bits_per_entry(), 16);
        assert_eq!(t.max_distance(), Some(299));
        assert_eq!(t.distance(299), Some(299));
        assert_eq!(t.reachable(), 300);
        assert_eq!(t.path(&Line(300), 20).unwrap().len(), 20);
    }

    #[test]
    fn the_budget_is_checked_before_allocating() {
        let limits = Limits {
            memory_budget: 100,
            ..Limits::default()
        };
        assert_eq!(
            build(&Line(1 << 40), &limits).unwrap_err(),
            Limit::Memory {
                needed: 1 << 39,
                budget: 100
            }
        );
        // Widening counts too: 300 entries fit at 4 bits but not at 8 + 16.
        let limits = Limits {
            memory_budget: 400,
            ..Limits::default()
        };
        assert!(matches!(
            build(&Line(300), &limits),
            Err(Limit::Memory { .. })
        ));
    }
}
