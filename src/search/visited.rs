//! The visited store behind BFS: one small trait, a dense and a sparse implementation.
//!
//! | store | memory | when |
//! |---|---|---|
//! | [`BitVisited`] | one bit per state of the whole space | the space is [`Indexed`] and `size / 8` fits the budget |
//! | [`HashVisited`] | about 2 words per visited state | any space; best when little of it is reached |
//!
//! A bitset costs the same whether one state or all are reached, and every lookup is one
//! memory access with no hashing; a hash set costs per state reached. An engine picks the
//! bitset when the space is indexed and small enough, because it is both faster and smaller
//! once a fair share of the space is reached.

use crate::space::Indexed;
use fixedbitset::FixedBitSet;
use hashbrown::HashSet;
use std::hash::Hash;

/// A set of states that only grows.
pub trait Visited<S> {
    /// Adds `state`; `true` if it was not there before.
    fn insert(&mut self, state: S) -> bool;
    /// Whether `state` was added.
    fn contains(&self, state: S) -> bool;
    /// The number of states added.
    fn len(&self) -> u64;
    /// Bytes the store has allocated now, and what its next growth could add on top: engines
    /// check this against the budget before the growth happens.
    fn bytes_at_next_growth(&self) -> u64;
    /// Whether no state was added.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A bitset over the dense index of an [`Indexed`] space.
pub struct BitVisited<'a, P: Indexed> {
    space: &'a P,
    bits: FixedBitSet,
    count: u64,
}

impl<'a, P: Indexed> BitVisited<'a, P> {
    /// The bytes a bitset over `space` takes, for budget checks before [`BitVisited::new`].
    pub fn bytes_needed(space: &P) -> u128 {
        space.size().div_ceil(8)
    }

    /// An empty set over `space`. The caller has checked [`Self::bytes_needed`] against its
    /// budget, so `size()` fits in `usize`.
    pub fn new(space: &'a P) -> Self {
        let size = usize::try_from(space.size()).expect("space size checked against the budget");
        BitVisited {
            space,
            bits: FixedBitSet::with_capacity(size),
            count: 0,
        }
    }
}

impl<P: Indexed> Visited<P::State> for BitVisited<'_, P> {
    fn insert(&mut self, state: P::State) -> bool {
        let index = self.space.index(state) as usize;
        let fresh = !self.bits.put(index);
        self.count += fresh as u64;
        fresh
    }

    fn contains(&self, state: P::State) -> bool {
        self.bits.contains(self.space.index(state) as usize)
    }

    fn len(&self) -> u64 {
        self.count
    }

    /// Allocated once, at full size: it never grows.
    fn bytes_at_next_growth(&self) -> u64 {
        self.bits.len().div_ceil(8) as u64
    }
}

/// A hash set of states, for spaces with no dense index or too large for a bitset.
pub struct HashVisited<S> {
    set: HashSet<S>,
}

impl<S> Default for HashVisited<S> {
    fn default() -> Self {
        HashVisited {
            set: HashSet::new(),
        }
    }
}

impl<S> HashVisited<S> {
    /// The states added, in no particular order (the set's memory goes with it).
    pub fn into_states(self) -> Vec<S> {
        self.set.into_iter().collect()
    }

    /// Bytes the set has allocated now.
    pub fn bytes(&self) -> u64
    where
        S: Eq + Hash,
    {
        self.set.allocation_size() as u64
    }

    /// Bytes the set holds once one more state is inserted: what it has now, and when it is
    /// full, the table of twice the buckets it moves to (both live while it moves).
    pub fn bytes_after_insert(&self) -> u64
    where
        S: Eq + Hash,
    {
        let now = self.set.allocation_size() as u64;
        if self.set.len() < self.set.capacity() {
            now
        } else {
            now + (2 * now).max(64 * (std::mem::size_of::<S>() as u64 + 1))
        }
    }

    /// Whether `state` was added.
    pub fn contains(&self, state: &S) -> bool
    where
        S: Eq + Hash,
    {
        self.set.contains(state)
    }
}

impl<S: Eq + Hash + Copy> Visited<S> for HashVisited<S> {
    fn insert(&mut self, state: S) -> bool {
        self.set.insert(state)
    }

    fn contains(&self, state: S) -> bool {
        self.set.contains(&state)
    }

    fn len(&self) -> u64 {
        self.set.len() as u64
    }

    /// A hash set doubles when full: the old and the new table live together while it moves.
    fn bytes_at_next_growth(&self) -> u64 {
        let now = self.set.allocation_size().max(64) as u64;
        now * 3
    }
}
