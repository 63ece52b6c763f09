//! The per-state strategy ([`PerState`]): any [`Indexed`] space, pushed one state at a time.
//! The fallback of the other strategies, for it needs nothing but the index; each state costs
//! an unrank, its successors and their ranks.

use super::CHUNK_WORDS;
use super::sweep::{Advance, Bitsets, Merged, as_atomic, merge, or_into, over_chunks};
use crate::limit::Latch;
use crate::space::Indexed;
use std::ops::Range;
use std::sync::atomic::AtomicU64;

/// Any indexed space, pushed: decode each frontier state, generate its successors, set their
/// bits in `next`. Then a merge pass adds `next` to `visited` and clears `frontier`.
pub(super) struct PerState<'a, P> {
    pub(super) space: &'a P,
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
}

impl<P: Indexed + Sync> Advance for PerState<'_, P> {
    fn advance(
        &self,
        sets: &mut Bitsets,
        pool: Option<&rayon::ThreadPool>,
        latch: &Latch,
    ) -> Option<Merged> {
        let Bitsets {
            frontier,
            next,
            visited,
        } = sets;
        let words = frontier.len();
        let shared_next = as_atomic(next);
        let generated = over_chunks(pool, words, CHUNK_WORDS, |range| match pool {
            None => self.expand::<false>(frontier, visited, shared_next, range, latch),
            Some(_) => self.expand::<true>(frontier, visited, shared_next, range, latch),
        });
        if latch.reason().is_some() {
            return None;
        }
        Some(merge(pool, sets, generated))
    }
}
