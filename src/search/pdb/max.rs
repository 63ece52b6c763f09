//! The largest of several admissible heuristics ([`Max`]): admissible, and at least as good as
//! each; and a boxed heuristic as one, so that heuristics of different types combine.
//!
//! Trade-offs: the parts are asked in their order and the ones after the first that reaches
//! IDA*'s limit are not evaluated at all (for pattern databases, neither projected nor looked
//! up), so the part that most often reaches the limit goes first. Staged, a part at a time with
//! each part's entries prefetched before the next call reads them, the progress is kept in 16
//! bits of [`Prefetched`]'s second field per `Max`: three nested `Max`es fit, a fourth (or an
//! estimate too large to keep there) reads its remaining parts at once.

use crate::cache::TableCache;
use crate::space::{Heuristic, Prefetched, StateSpace};
use std::sync::Arc;

/// The largest estimate of several admissible heuristics: admissible, and at least as good as
/// each.
#[derive(Debug)]
pub struct Max<H> {
    parts: Vec<H>,
}

impl<H> Max<H> {
    /// The max of `parts` (the zero heuristic when empty).
    pub fn new(parts: Vec<H>) -> Self {
        Max { parts }
    }

    /// The heuristics combined, taken out (to wrap each, say).
    pub fn into_parts(self) -> Vec<H> {
        self.parts
    }

    /// The heuristics combined.
    pub fn parts(&self) -> &[H] {
        &self.parts
    }
}

impl<P: StateSpace + ?Sized, H: Heuristic<P>> Heuristic<P> for Max<H> {
    /// Every part asked (not only until one fails), so that each damaged file is discarded.
    fn intact(&self, cache: &TableCache) -> bool {
        let mut all = true;
        for h in &self.parts {
            all &= h.intact(cache);
        }
        all
    }

    #[inline]
    fn estimate(&self, space: &P, state: P::State) -> u32 {
        self.parts
            .iter()
            .map(|h| h.estimate(space, state))
            .max()
            .unwrap_or(0)
    }

    /// The parts in their order, stopping at the first that reaches `limit`: the parts after it
    /// are not evaluated (for pattern databases, neither projected nor looked up). Put the part
    /// that most often reaches the limit first.
    #[inline]
    fn estimate_below(&self, space: &P, state: P::State, limit: u32) -> u32 {
        let Some((first, rest)) = self.parts.split_first() else {
            return 0;
        };
        let first = first.estimate_below(space, state, limit);
        max_below(rest, space, state, first, limit)
    }

    /// The first part's entries only: with [`estimate_below`](Heuristic::estimate_below) it is
    /// the part always read, the others only when it does not reach the limit.
    #[inline]
    fn prefetch(&self, space: &P, state: P::State) -> Prefetched {
        match self.parts.first() {
            // At the first part, nothing read yet: this level 0, the first part's above.
            Some(first) => {
                let ahead = first.prefetch(space, state);
                Prefetched(ahead.0, ahead.1 << LEVEL_BITS)
            }
            None => Prefetched::NONE,
        }
    }

    /// The first part's context: the part whose entries [`prefetch`](Heuristic::prefetch)
    /// computes.
    #[inline]
    fn successor_context(&self, space: &P, state: P::State) -> Prefetched {
        self.parts.first().map_or(Prefetched::NONE, |first| {
            first.successor_context(space, state)
        })
    }

    /// [`prefetch`](Heuristic::prefetch) through the first part's
    /// [`prefetch_successor`](Heuristic::prefetch_successor).
    #[inline]
    fn prefetch_successor(
        &self,
        space: &P,
        parent: P::State,
        parent_memo: &Prefetched,
        mv: P::Move,
        state: P::State,
        memo: &mut Prefetched,
    ) {
        match self.parts.first() {
            Some(first) => {
                first.prefetch_successor(space, parent, parent_memo, mv, state, memo);
                memo.1 <<= LEVEL_BITS;
            }
            None => *memo = Prefetched::NONE,
        }
    }

    /// The parts in stages: the current part's stages until it is done; then, while below
    /// `limit`, the next part's [`prefetch`](Heuristic::prefetch), and its stages from the next
    /// call on (so its reads, too, overlap with the other successors' work). Where it is (the
    /// part, and the largest estimate so far) is kept in 16 bits of [`Prefetched`]'s second
    /// field, those of a `Max` among the parts above them; an estimate too large to keep there,
    /// or a fourth `Max` nested, reads the remaining parts at once.
    #[inline]
    fn advance(
        &self,
        space: &P,
        state: P::State,
        prefetched: &mut Prefetched,
        limit: u32,
    ) -> Option<u32> {
        let mine = prefetched.1 & LEVEL_MASK;
        let (part, best) = ((mine & PART_MASK) as usize, (mine >> PART_BITS) as u32);
        let Some(current) = self.parts.get(part) else {
            return Some(best);
        };
        prefetched.1 >>= LEVEL_BITS;
        let done = current.advance(space, state, prefetched, limit);
        let nested = prefetched.1;
        let Some(h) = done else {
            if nested >> (64 - LEVEL_BITS) == 0 {
                prefetched.1 = nested << LEVEL_BITS | mine;
                return None;
            }
            // No room to keep this level: the current part's stages at once.
            let mut h = None;
            while h.is_none() {
                h = current.advance(space, state, prefetched, limit);
            }
            let best = best.max(h.unwrap_or(0));
            return Some(max_below(
                &self.parts[part + 1..],
                space,
                state,
                best,
                limit,
            ));
        };
        let best = best.max(h);
        let next = part + 1;
        if best >= limit || next == self.parts.len() {
            return Some(best);
        }
        if u64::from(best) >= 1 << (LEVEL_BITS - PART_BITS) || next as u64 > PART_MASK {
            return Some(max_below(&self.parts[next..], space, state, best, limit));
        }
        let ahead = self.parts[next].prefetch(space, state);
        let keep = u64::from(best) << PART_BITS | next as u64;
        *prefetched = Prefetched(ahead.0, ahead.1 << LEVEL_BITS | keep);
        None
    }

    /// Every part's: each rules its moves out alone.
    #[inline]
    fn ruled_out(&self, space: &P, state: P::State, note: u64, budget: u32) -> u64 {
        self.parts
            .iter()
            .fold(0, |out, h| out | h.ruled_out(space, state, note, budget))
    }

    /// [`estimate_below`](Heuristic::estimate_below), the first part reading what it prefetched.
    #[inline]
    fn estimate_prefetched(
        &self,
        space: &P,
        state: P::State,
        prefetched: &Prefetched,
        limit: u32,
    ) -> u32 {
        let Some((first, rest)) = self.parts.split_first() else {
            return 0;
        };
        let first = first.estimate_prefetched(space, state, prefetched, limit);
        max_below(rest, space, state, first, limit)
    }
}

/// The bits of [`Prefetched`]'s second field one [`Max`] keeps its progress in: the part
/// (the low [`PART_BITS`]) and the largest estimate so far (above them).
const LEVEL_BITS: u32 = 16;
const LEVEL_MASK: u64 = (1 << LEVEL_BITS) - 1;
const PART_BITS: u32 = 4;
const PART_MASK: u64 = (1 << PART_BITS) - 1;

/// `best` maxed with the estimates of `parts` in order, stopping once it reaches `limit`.
#[inline]
fn max_below<P: StateSpace + ?Sized, H: Heuristic<P>>(
    parts: &[H],
    space: &P,
    state: P::State,
    mut best: u32,
    limit: u32,
) -> u32 {
    for h in parts {
        if best >= limit {
            break;
        }
        best = best.max(h.estimate_below(space, state, limit));
    }
    best
}

/// A boxed or shared heuristic is one, so that [`Max`] can combine heuristics of different
/// types, a caller can pick one at run time, and a heuristic the engines share
/// ([`SharedHeuristic`](crate::search::caps::SharedHeuristic)) can be a part of another.
macro_rules! forward_heuristic {
    ($pointer:ident $(+ $bound:ident)?) => {
        impl<P: StateSpace + ?Sized, H: Heuristic<P> $(+ $bound)? + ?Sized> Heuristic<P>
            for $pointer<H>
        {
    fn intact(&self, cache: &TableCache) -> bool {
        (**self).intact(cache)
    }

    #[inline]
    fn estimate(&self, space: &P, state: P::State) -> u32 {
        (**self).estimate(space, state)
    }

    #[inline]
    fn estimate_below(&self, space: &P, state: P::State, limit: u32) -> u32 {
        (**self).estimate_below(space, state, limit)
    }

    #[inline]
    fn prefetch(&self, space: &P, state: P::State) -> Prefetched {
        (**self).prefetch(space, state)
    }

    fn carries_memo(&self) -> bool {
        (**self).carries_memo()
    }

    #[inline]
    fn successor_context(&self, space: &P, state: P::State) -> Prefetched {
        (**self).successor_context(space, state)
    }

    #[inline]
    fn ruled_out(&self, space: &P, state: P::State, note: u64, budget: u32) -> u64 {
        (**self).ruled_out(space, state, note, budget)
    }

    #[inline]
    fn prefetch_successor(
        &self,
        space: &P,
        parent: P::State,
        parent_memo: &Prefetched,
        mv: P::Move,
        state: P::State,
        memo: &mut Prefetched,
    ) {
        (**self).prefetch_successor(space, parent, parent_memo, mv, state, memo)
    }

    #[inline]
    fn advance(
        &self,
        space: &P,
        state: P::State,
        prefetched: &mut Prefetched,
        limit: u32,
    ) -> Option<u32> {
        (**self).advance(space, state, prefetched, limit)
    }

    #[inline]
    fn estimate_prefetched(
        &self,
        space: &P,
        state: P::State,
        prefetched: &Prefetched,
        limit: u32,
    ) -> u32 {
        (**self).estimate_prefetched(space, state, prefetched, limit)
    }
}
    };
}

forward_heuristic!(Box);
// An `Arc` is `Sync` only over a `Send` value.
forward_heuristic!(Arc + Send);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limit::Limits;
    use crate::search::pdb::pair::{Counter, Pair, SIX, Swap};
    use crate::search::pdb::{Additive, build_all};

    /// `estimate_below` is the estimate below the limit and a lower bound from the limit on.
    #[test]
    fn bounded_estimates_are_exact_below_the_limit() {
        let dbs = || {
            build_all(
                vec![Counter(0, SIX), Counter(1, SIX)],
                &Limits::default(),
                None,
            )
            .unwrap()
        };
        let max = Max::new(dbs());
        let additive = Additive::new(dbs(), vec![Swap]).unwrap();
        for a in 0..6 {
            for b in 0..6 {
                for limit in 0..8 {
                    for h in [&max as &dyn Heuristic<Pair>, &additive] {
                        let exact = h.estimate(&Pair, (a, b));
                        let bounded = h.estimate_below(&Pair, (a, b), limit);
                        if exact < limit {
                            assert_eq!(bounded, exact);
                        } else {
                            assert!((limit..=exact).contains(&bounded));
                        }
                        // From what prefetch computed: the same value.
                        let ahead = h.prefetch(&Pair, (a, b));
                        assert_eq!(h.estimate_prefetched(&Pair, (a, b), &ahead, limit), bounded);
                        // In stages (the max: a part a stage, each prefetched first).
                        let mut staged = ahead;
                        let mut stages = 0;
                        let by_stages = loop {
                            stages += 1;
                            if let Some(h) = h.advance(&Pair, (a, b), &mut staged, limit) {
                                break h;
                            }
                        };
                        assert_eq!(by_stages, bounded, "{a} {b} {limit}");
                        assert!(stages <= 2);
                    }
                }
            }
        }
        // Prefetching is only a hint: any state, and any index of a table, in range or not.
        for a in 0..6 {
            max.prefetch(&Pair, (a, 5 - a));
            max.parts()[1].table().prefetch(a as u64);
        }
        max.parts()[0].table().prefetch(u64::MAX);
        // Counter 0 at 3 reaches a limit of 2: counter 1's estimate is not needed.
        assert_eq!(max.estimate_below(&Pair, (3, 1), 2), 3);
        assert_eq!(max.estimate_below(&Pair, (3, 1), 9), 3);
        assert_eq!(max.estimate_below(&Pair, (1, 3), 2), 3);
    }
}
