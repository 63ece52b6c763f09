//! The per-state strategy ([`PerState`]): any [`Indexed`] space, one state at a time. The
//! fallback of the other strategies, for it needs nothing but the index; each state costs an
//! unrank, its successors and their ranks.
//!
//! # Direction
//!
//! A forward sweep pushes: each frontier state's successors are set in `next`. A backward sweep
//! (distances to the goal set) may also **pull**, once the frontier is large: each unvisited
//! state looks its successors up in the frontier and joins `next` at the first one there, its
//! remaining successors generated but not ranked (a rank is most of a successor's cost).
//! That is the definition of the next layer of a backward sweep, so it needs no inverse moves.
//! The rule is the block sweep's (Beamer's direction-optimising BFS, `split.rs`): pull when the
//! frontier holds more than half of the unvisited states. On LoopOver 3x3 (181,440 states, 12
//! moves) the last layers are then found with about a third of the ranks that pushing takes
//! (BENCHMARKS.md, "Sweeps without twists"). The unvisited count includes indices that no move
//! reaches when the index over-counts, which keeps such a sweep pushing: still exact.

use super::CHUNK_WORDS;
use super::sweep::{Advance, Bitsets, Merged, as_atomic, merge, or_into, over_chunks};
use crate::limit::Latch;
use crate::space::Indexed;
use std::ops::Range;
use std::sync::atomic::AtomicU64;

/// Any indexed space, one state at a time: push (decode each frontier state, generate its
/// successors, set their bits in `next`), or, with `pull`, pull when the frontier is large (see
/// the module docs). Then a merge pass adds `next` to `visited` and clears `frontier`.
pub(super) struct PerState<'a, P> {
    pub(super) space: &'a P,
    /// The sweep runs backward (distances to the goal set), where pulling is exact.
    pub(super) pull: bool,
}

impl<P: Indexed + Sync> PerState<'_, P> {
    /// Expands the frontier states in `frontier[words]`; returns the successors generated.
    /// `SHARED`: other threads write `next` too, so the ORs must be atomic. Ticks `latch` with
    /// the successors, and stops part-way when it says so.
    fn expand<const SHARED: bool>(
        &self,
        frontier: &[u64],
        visited: &[u64],
        next: &[AtomicU64],
        words: Range<usize>,
        latch: &Latch,
    ) -> u64 {
        let mut ticker = latch.ticker();
        let mut generated = 0u64;
        for (w, &word) in frontier
            .iter()
            .enumerate()
            .take(words.end)
            .skip(words.start)
        {
            let mut bits = word;
            while bits != 0 {
                if ticker.tick(generated).is_err() {
                    return generated;
                }
                let index = (w as u64) << 6 | bits.trailing_zeros() as u64;
                bits &= bits - 1;
                self.space
                    .successors(self.space.state(index), &mut |_, successor| {
                        generated += 1;
                        let index = self.space.index(successor);
                        let (word, bit) = ((index >> 6) as usize, 1u64 << (index & 63));
                        if visited[word] & bit == 0 {
                            or_into::<SHARED>(&next[word], bit);
                        }
                    });
            }
        }
        generated
    }

    /// Sets in `next` the unvisited states of `visited[words]` (below `size`) that have a
    /// successor in `frontier`; returns the successors ranked, ticked as in
    /// [`expand`](Self::expand). Each chunk writes only its own words of `next`.
    fn pull(
        &self,
        sets: (&[u64], &[u64], &[AtomicU64]),
        size: u64,
        words: Range<usize>,
        latch: &Latch,
    ) -> u64 {
        let (frontier, visited, next) = sets;
        let mut ticker = latch.ticker();
        let mut looked = 0u64;
        for w in words {
            let first = (w as u64) << 6;
            let mut unvisited = !visited[w];
            if size - first < 64 {
                unvisited &= (1u64 << (size - first)) - 1;
            }
            let mut found = 0u64;
            while unvisited != 0 {
                if ticker.tick(looked).is_err() {
                    return looked;
                }
                let bit = unvisited & unvisited.wrapping_neg();
                unvisited ^= bit;
                let mut hit = false;
                let state = self.space.state(first | u64::from(bit.trailing_zeros()));
                self.space.successors(state, &mut |_, successor| {
                    if !hit {
                        looked += 1;
                        let i = self.space.index(successor);
                        hit = frontier[(i >> 6) as usize] >> (i & 63) & 1 == 1;
                    }
                });
                if hit {
                    found |= bit;
                }
            }
            if found != 0 {
                or_into::<false>(&next[w], found);
            }
        }
        looked
    }
}

impl<P: Indexed + Sync> Advance for PerState<'_, P> {
    fn advance(
        &self,
        sets: &mut Bitsets,
        pool: Option<&rayon::ThreadPool>,
        latch: &Latch,
    ) -> Option<Merged> {
        // Indices past a `u64` never reach a bitset (the sweep refuses them first).
        let size = self.space.size() as u64;
        let pull = self.pull && sets.pulls(size);
        let Bitsets {
            frontier,
            next,
            visited,
        } = sets;
        let words = frontier.len();
        let shared_next = as_atomic(next);
        let generated = over_chunks(pool, words, CHUNK_WORDS, |range| match (pull, pool) {
            (true, _) => self.pull((frontier, visited, shared_next), size, range, latch),
            (false, None) => self.expand::<false>(frontier, visited, shared_next, range, latch),
            (false, Some(_)) => self.expand::<true>(frontier, visited, shared_next, range, latch),
        });
        if latch.reason().is_some() {
            return None;
        }
        Some(merge(pool, sets, generated))
    }
}
