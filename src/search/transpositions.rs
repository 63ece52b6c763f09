//! A bounded transposition table for the depth-first engines ([`iddfs`](super::iddfs),
//! [`idastar`](super::idastar)): the states entered in the current iteration, each with the
//! fewest moves from the start it was entered at (`g`) and the move that led there, so that a
//! state reached again at the same or a larger `g` is not searched again.
//!
//! # Why
//!
//! A depth-first search keeps no visited set: a state reached along several paths is searched
//! below each of them. The space's [`may_follow`](StateSpace::may_follow) rule removes the
//! redundant orders it knows (never undo the previous move; press Flip's cells in increasing
//! order), but a puzzle of many independent moves (a sliding-block puzzle, where moving piece A
//! then B reaches what B then A reaches) multiplies the same states by the number of orders of
//! its moves, and a deepening search there cannot finish. The table removes those repeats
//! within one iteration, in memory fixed in advance.
//!
//! # What it stores, and how it is bounded
//!
//! One flat array of slots, allocated once when the search starts, its size chosen by
//! [`Limits::transpositions`] (by default [`AUTO_BYTES`], at most a quarter of the memory
//! budget; an explicit size over the budget is refused with the figure, before allocating) and
//! rounded down to a power of two of slots. A slot holds a state, the move that entered it,
//! its `g` and the iteration's stamp: nothing is allocated per state, and the memory is
//! zeroed pages the system hands out as they are first written, so a small search on a large
//! table touches little of it. A new iteration bumps the stamp, which empties every slot at
//! once (entries of earlier iterations were searched to another bound: see below why they are
//! not used).
//!
//! The slots are 2-way buckets, a state's bucket chosen by a hash of it. Replacement:
//!
//! - a state found in its bucket at a larger `g` is overwritten by the new, smaller one;
//! - a new state goes into the first slot when that one is empty or holds a `g` at least as
//!   large (the old first moves to the second slot), else into the second slot. The first slot
//!   keeps the shallower entries, which stand for larger subtrees; the second takes the recent
//!   ones, the current branch and its neighbours, where most transpositions meet.
//!
//! A state pushed out is only searched again when met again: the table changes how much work is
//! repeated, never the answer. Only states with successors to search are entered (a node whose
//! successors all fall beyond the bound costs as much to generate again as to look up, and would
//! crowd out the entries that save work).
//!
//! # Which successors a repeated state skips
//!
//! A state's subtree depends on more than the state: on the moves left to the bound (the same
//! at the same `g` within one iteration: the bound is the iteration's and the estimate a function
//! of the state) and on the previous move, through `may_follow`. So the table keeps the previous
//! move with the state, and a state `s` entered at `g` after move `p`, whose slot says it was
//! entered before at `g' <= g` after move `q`, skips exactly the successors `s -m->` that `q`
//! allowed (`may_follow(q, m)`; all of them when `q` is `p` or `s` was the start): those were
//! searched (or are being searched, on the current branch) below the earlier entry with at least
//! as many moves to spare. The others, which `p` allows and `q` does not, are searched now. A
//! move-order rule that never refuses anything makes every repeat skip all of its successors;
//! "never undo the previous move" leaves the one move that undoes `q`.
//!
//! # Why answers stay optimal and proofs stay proofs
//!
//! Call a search without the table `T` (its tree of allowed paths within the bound). Every node
//! the table prunes (a skipped successor and all below it) has a *copy* in `T`: the same moves
//! played from the earlier entry, which reach the same states at a depth smaller or equal
//! (`g' <= g`) with `f` no larger, and which are allowed (the earlier entry allowed the first
//! move; the rest are the same moves after the same moves). The copy is visited before the
//! pruned node (it lies below a node entered earlier and not an ancestor, or below an ancestor
//! at a strictly smaller depth), so taking copies strictly decreases (depth, order of visit) and
//! ends at a node that is not pruned. Hence, within an iteration:
//!
//! - **a goal within the bound is found**: the first goal of `T` in that order is never pruned;
//! - **IDA* skips no threshold**: along a shortest path the copies lie at the same depth (a
//!   smaller one would make a shorter path), so the first node beyond the threshold on some
//!   shortest path is met with its `f`, which is at most the answer's length: the next threshold
//!   never passes the answer;
//! - **`Unsolvable` stays a proof**: an iteration that cut nothing (no node with a successor
//!   beyond the bound) entered every successor of every node it entered, skipped ones included
//!   (an entry is only kept for a node that searched all its allowed successors), so by the
//!   `may_follow` invariant it reached every reachable state.
//!
//! This holds only within one iteration: an entry of an earlier one saved no record of the
//! nodes it cut, so skipping a subtree for it could lose the cut that sets the next threshold
//! (or makes a round's bound matter) and turn a search into a wrong `Unsolvable`. The stamp
//! forgets them.
//!
//! # Cost
//!
//! One hash and one bucket read per node entered with successors; the engines prefetch the
//! bucket when they enter the node, so the read overlaps generating its successors (and
//! estimating them). BENCHMARKS.md has the measurements ("Transposition tables").

use crate::limit::{Limit, Limits, Transpositions};
use crate::space::StateSpace;
use std::hash::{Hash, Hasher};
use std::mem::MaybeUninit;

/// The table's size when [`Limits::transpositions`] is [`Transpositions::Auto`] (further
/// capped at a quarter of the memory budget). Large enough to hold every state of a search that
/// runs for seconds on a puzzle of tens of millions of states per second; touched only where
/// written.
pub const AUTO_BYTES: u64 = 64 << 20;

/// One slot: the iteration's stamp (0: never written), the `g` of the entry, the state and the
/// move that entered it. All-zero bytes are a valid empty slot, which is what lets the table be
/// allocated as zeroed pages.
#[repr(C)]
struct Slot<S, M> {
    stamp: u32,
    g: u32,
    entry: MaybeUninit<(S, Option<M>)>,
}

/// The table: see the module docs.
pub struct TranspositionTable<S, M> {
    slots: Box<[Slot<S, M>]>,
    /// Buckets minus one (a power of two minus one).
    mask: usize,
    /// The current iteration's stamp; at least 1.
    stamp: u32,
    /// Repeated states that skipped at least one successor.
    hits: u64,
}

impl<S: Copy + Eq + Hash, M: Copy + Eq> TranspositionTable<S, M> {
    /// The table `limits` ask for: `None` when they turn it off or the size holds no bucket;
    /// [`Limit::Memory`] when an explicit size passes the budget.
    pub fn for_limits(limits: &Limits) -> Result<Option<Self>, Limit> {
        let bytes = match limits.transpositions {
            Transpositions::Off => return Ok(None),
            Transpositions::Auto => AUTO_BYTES.min(limits.memory_budget / 4),
            Transpositions::Bytes(bytes) => {
                limits.check_memory(bytes as u128)?;
                bytes
            }
        };
        Ok(Self::with_bytes(bytes))
    }

    /// A table of at most `bytes` (a power of two of slots, two slots a bucket); `None` when
    /// that holds no bucket.
    pub fn with_bytes(bytes: u64) -> Option<Self> {
        let fit = bytes / std::mem::size_of::<Slot<S, M>>().max(1) as u64;
        let fit = usize::try_from(fit).unwrap_or(usize::MAX);
        if fit < 2 {
            return None;
        }
        let slots = 1usize << fit.ilog2();
        let zeroed = Box::<[Slot<S, M>]>::new_zeroed_slice(slots);
        // SAFETY: a `Slot` of all-zero bytes is valid: two `u32`s and a `MaybeUninit`.
        let slots = unsafe { zeroed.assume_init() };
        Some(TranspositionTable {
            mask: slots.len() / 2 - 1,
            slots,
            stamp: 1,
            hits: 0,
        })
    }

    /// The bytes the table takes.
    pub fn bytes(&self) -> u64 {
        std::mem::size_of_val(&*self.slots) as u64
    }

    /// Repeated states that skipped at least one successor, over the whole run.
    pub fn hits(&self) -> u64 {
        self.hits
    }

    /// Starts a new iteration: every entry of the ones before is forgotten.
    pub fn next_iteration(&mut self) {
        if self.stamp == u32::MAX {
            self.slots.iter_mut().for_each(|slot| slot.stamp = 0);
            self.stamp = 0;
        }
        self.stamp += 1;
    }

    /// The first slot of `state`'s bucket.
    #[inline]
    fn bucket(&self, state: &S) -> usize {
        let mut hasher = Fold(0);
        state.hash(&mut hasher);
        (hasher.finish() as usize & self.mask) * 2
    }

    /// Starts loading `state`'s bucket into the caches, so that [`enter`](Self::enter) soon
    /// after does not wait for memory.
    #[inline]
    pub fn prefetch(&self, state: S) {
        super::prefetch(&self.slots[self.bucket(&state)]);
    }

    /// The entry of slot `at` when it is this iteration's.
    #[inline]
    fn fresh(&self, at: usize) -> Option<(u32, S, Option<M>)> {
        let slot = &self.slots[at];
        if slot.stamp != self.stamp {
            return None;
        }
        // SAFETY: a slot with a non-zero stamp was written by `write`, which stores the entry
        // (zeroed slots have stamp 0, and the stamp is never 0).
        let (state, previous) = unsafe { slot.entry.assume_init() };
        Some((slot.g, state, previous))
    }

    #[inline]
    fn write(&mut self, at: usize, g: u32, state: S, previous: Option<M>) {
        self.slots[at] = Slot {
            stamp: self.stamp,
            g,
            entry: MaybeUninit::new((state, previous)),
        };
    }

    /// Records `state`, entered at `g` after `previous`, or says which entry of it covers this
    /// one: `Some(q)`, the move that entered a record at `g' <= g` (`None` for the start).
    fn record(&mut self, state: S, g: u32, previous: Option<M>) -> Option<Option<M>> {
        let at = self.bucket(&state);
        let (first, second) = (self.fresh(at), self.fresh(at + 1));
        for (slot, entry) in [(at, first), (at + 1, second)] {
            match entry {
                Some((g_then, s, q)) if s == state && g_then <= g => return Some(q),
                Some((_, s, _)) if s == state => {
                    self.write(slot, g, state, previous);
                    return None;
                }
                _ => {}
            }
        }
        match first {
            Some((g_first, _, _)) if g_first < g => self.write(at + 1, g, state, previous),
            Some((g_first, s, q)) => {
                self.write(at + 1, g_first, s, q);
                self.write(at, g, state, previous);
            }
            None => self.write(at, g, state, previous),
        }
        None
    }

    /// Enters `state`, reached in `g` moves by `previous`, before its successors are searched:
    /// drops from `successors` (those the move-order rule allows after `previous`, within the
    /// bound) the ones an earlier entry of the same state, at `g' <= g` in this iteration,
    /// searched or is searching (see the module docs); records the state when none covers it.
    pub fn enter<P: StateSpace<State = S, Move = M>>(
        &mut self,
        space: &P,
        state: S,
        g: u32,
        previous: Option<M>,
        successors: &mut Vec<(M, S)>,
    ) {
        let before = successors.len();
        match self.record(state, g, previous) {
            None => return,
            Some(q) if q.is_none() || q == previous => successors.clear(),
            Some(Some(q)) => successors.retain(|&(m, _)| !space.may_follow(q, m)),
            Some(None) => unreachable!("matched above"),
        }
        self.hits += (successors.len() < before) as u64;
    }
}

/// A fast deterministic hasher (the same slots on every run, so node counts are reproducible):
/// each word folded in by a rotate, a xor and a multiply, then mixed (MurmurHash3's finaliser)
/// so that the low bits that pick the bucket depend on every bit of the state.
struct Fold(u64);

impl Fold {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for Fold {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.add(n.into())
    }
    fn write_u16(&mut self, n: u16) {
        self.add(n.into())
    }
    fn write_u32(&mut self, n: u32) {
        self.add(n.into())
    }
    fn write_u64(&mut self, n: u64) {
        self.add(n)
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64)
    }
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toys::Ring;

    #[test]
    fn a_repeat_at_a_larger_g_is_covered_and_a_smaller_g_replaces_the_entry() {
        let mut table = TranspositionTable::<u64, i8>::with_bytes(1 << 12).unwrap();
        assert_eq!(table.record(5, 3, Some(1)), None);
        assert_eq!(table.record(5, 3, Some(-1)), Some(Some(1)));
        assert_eq!(table.record(5, 4, Some(1)), Some(Some(1)));
        assert_eq!(table.record(5, 2, Some(-1)), None, "a smaller g is searched");
        assert_eq!(table.record(5, 2, Some(1)), Some(Some(-1)));
        table.next_iteration();
        assert_eq!(table.record(5, 9, Some(1)), None, "a new iteration forgets");
    }

    #[test]
    fn a_repeat_skips_what_the_earlier_previous_move_allowed() {
        let ring = Ring::new(10);
        let mut table = TranspositionTable::<u64, i8>::with_bytes(1 << 12).unwrap();
        let both = || vec![(1i8, 6u64), (-1, 4)];
        let mut successors = both();
        table.enter(&ring, 5, 2, Some(1), &mut successors);
        assert_eq!(successors, both(), "first entry: nothing skipped");
        // Entered before after +1, which allows only +1: the -1 successor is still searched.
        let mut successors = both();
        table.enter(&ring, 5, 3, Some(-1), &mut successors);
        assert_eq!(successors, [(-1, 4)]);
        let mut successors = both();
        table.enter(&ring, 5, 3, Some(1), &mut successors);
        assert!(successors.is_empty());
        assert_eq!(table.hits(), 2);
        // The start covers everything.
        table.enter(&ring, 0, 0, None, &mut both());
        let mut successors = both();
        table.enter(&ring, 0, 4, Some(-1), &mut successors);
        assert!(successors.is_empty());
    }

    #[test]
    fn a_full_bucket_keeps_the_shallowest_and_the_latest() {
        // One bucket: every state shares it.
        let mut table = TranspositionTable::<u64, i8>::with_bytes(2 * 24).unwrap();
        assert_eq!(table.slots.len(), 2);
        table.record(1, 1, None);
        table.record(2, 5, None);
        table.record(3, 7, None); // goes to the second slot, pushing 2 out
        assert_eq!(table.record(1, 9, None), Some(None));
        assert_eq!(table.record(3, 9, None), Some(None));
        assert_eq!(table.record(2, 9, None), None, "pushed out");
        table.record(4, 0, None); // the shallowest: first slot, 1 moves to the second
        assert_eq!(table.record(4, 1, None), Some(None));
        assert_eq!(table.record(1, 9, None), Some(None));
    }

    #[test]
    fn sizes_follow_the_limits() {
        type Table = TranspositionTable<u64, i8>;
        let limits = |transpositions, memory_budget| Limits {
            transpositions,
            memory_budget,
            ..Limits::default()
        };
        let auto = Table::for_limits(&limits(Transpositions::Auto, 1 << 40)).unwrap();
        assert!(auto.unwrap().bytes() <= AUTO_BYTES);
        let small = Table::for_limits(&limits(Transpositions::Auto, 1 << 20)).unwrap();
        assert!(small.unwrap().bytes() <= 1 << 18, "a quarter of the budget");
        let off = Table::for_limits(&limits(Transpositions::Off, 1 << 30)).unwrap();
        assert!(off.is_none());
        let over = Table::for_limits(&limits(Transpositions::Bytes(2 << 20), 1 << 20));
        assert!(matches!(over, Err(Limit::Memory { needed, .. }) if needed == 2 << 20));
        let tiny = Table::for_limits(&limits(Transpositions::Bytes(10), 1 << 20)).unwrap();
        assert!(tiny.is_none(), "no bucket fits in 10 bytes");
        let exact = Table::with_bytes(1000).unwrap();
        assert!(exact.bytes() <= 1000 && exact.bytes() > 500);
    }
}
