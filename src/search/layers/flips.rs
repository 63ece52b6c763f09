//! The [`FlipSplit`] strategy of [`layers`](super): a block of `2^bits` states per move, moved
//! with a few word operations.
//!
//! # A block and a move
//!
//! The index is `high * 2^bits + flips`, and move `k` takes every state of block `high` to block
//! `high_k(high)`, XORing its flips with `mask_k(high)` ([`FlipSplit::block_moves`] gives both,
//! one unrank and `moves` ranks per block). An XOR of the bit index is a permutation of the
//! block's bits: words swap by `mask >> 6`, and bit `i` of a word goes to `i ^ (mask & 63)`,
//! the butterfly of [`XorMoves`](crate::space::XorMoves) (for each set bit `j` of the in-word
//! part, swap neighbouring blocks of `2^j` bits). So a block moves as a whole: `2^bits / 64`
//! words (one for the 3x3x3's six edges, four for eight) and at most six stages of two shifts
//! and two masks each, where the per-state strategy unranks, moves and ranks every state. A
//! block narrower than a word (fewer than six bits) is read out of its word, moved and written
//! back shifted.
//!
//! # A layer
//!
//! As in the split strategy (`split.rs`), the direction is chosen per layer from the counts:
//!
//! - **push** while the frontier is small: each block with frontier states is moved by every
//!   move and ORed into `next` at the target block, minus `visited` (atomic ORs when threads
//!   share `next`).
//! - **pull** once the frontier holds more than half of the unvisited states: each block with
//!   unvisited states ORs together its neighbour blocks' frontier states, moved back (moves are
//!   [`Invertible`](crate::space::Invertible), so the neighbours of a state are its
//!   predecessors), stopping when every unvisited state is found; it writes only its own
//!   block.
//!
//! Both end with the shared merge pass (`sweep.rs`).
//!
//! # Trade-offs
//!
//! No move tables: the block's moves are computed every time the block is visited (per layer,
//! once per block that has frontier states when pushing, unvisited ones when pulling), so the
//! memory is the three bitsets alone, and the cost per state is `moves / 2^bits` ranks plus the
//! word operations: for eight edges of the 3x3x3 (5.1 billion states, 256 per block) a rank per
//! 14 states. Tabulating `high_k` and `mask_k` would save the ranks for `blocks * moves * 6`
//! bytes (2.2 GB there), more than the bitsets.

use super::sweep::{Advance, Bitsets, Merged, Sets, as_atomic, merge, or_into, over_chunks};
use super::xor::permute;
use crate::limit::{Latch, Ticker};
use crate::space::{FlipSplit, MAX_FLIP_BITS};

const _: () = assert!(
    MAX_FLIP_BITS <= 12,
    "the advance dispatches on up to 64 words"
);
use std::sync::atomic::AtomicU64;

/// States per unit of work (whole blocks, at least one), as in the split strategy.
const CHUNK_STATES: u64 = 1 << 16;

/// A block's states as bits: bit `f` of the block in bit `f % 64` of word `f / 64` (a block
/// narrower than a word in the low bits of its one word). `W` is a constant of the run (the
/// advance dispatches on it), so a block lives in registers or a few cache lines, never in a
/// buffer as wide as the widest block.
type Words<const W: usize> = [u64; W];

/// The [`FlipSplit`] strategy over `space` (see the module docs).
pub(super) struct FlipBlocks<'a, P: ?Sized> {
    space: &'a P,
    /// `2^bits` states per block.
    bits: u32,
    /// Blocks in the index.
    blocks: u64,
    /// Moves per state.
    moves: u64,
}

impl<'a, P: FlipSplit + ?Sized> FlipBlocks<'a, P> {
    /// The strategy, or `None` when the index does not split into flips after all (no bits, more
    /// than [`MAX_FLIP_BITS`], or a size they do not divide).
    pub(super) fn new(space: &'a P) -> Option<Self> {
        let bits = space.flip_bits()?;
        let size = space.size();
        if bits > MAX_FLIP_BITS || size == 0 || !size.is_multiple_of(1 << bits) {
            return None;
        }
        let blocks = u64::try_from(size >> bits).ok()?;
        let mut moves = 0;
        space.block_moves(0, &mut |_, _| moves += 1);
        Some(FlipBlocks {
            space,
            bits,
            blocks,
            moves,
        })
    }

    /// Words a block spans: one for a block of at most 64 states.
    fn len(&self) -> usize {
        (1usize << self.bits).div_ceil(64)
    }

    /// The states of block `h` in `set` (a frontier or `visited`).
    #[inline(always)]
    fn read<const W: usize>(&self, set: &[u64], h: u64) -> Words<W> {
        let mut out = [0u64; W];
        if self.bits >= 6 {
            out.copy_from_slice(&set[h as usize * W..][..W]);
        } else {
            let at = h << self.bits;
            let all = (1u64 << (1 << self.bits)) - 1;
            out[0] = set[(at >> 6) as usize] >> (at & 63) & all;
        }
        out
    }

    /// ORs `words` (block `h`'s states, already without the visited ones) into `next`.
    #[inline(always)]
    fn write<const SHARED: bool, const W: usize>(
        &self,
        next: &[AtomicU64],
        h: u64,
        words: &Words<W>,
    ) {
        if self.bits >= 6 {
            for (word, &bits) in next[h as usize * W..][..W].iter().zip(words) {
                if bits != 0 {
                    or_into::<SHARED>(word, bits);
                }
            }
        } else if words[0] != 0 {
            let at = h << self.bits;
            or_into::<SHARED>(&next[(at >> 6) as usize], words[0] << (at & 63));
        }
    }

    /// `words` with bit `f` moved to bit `f ^ mask`.
    #[inline(always)]
    fn moved<const W: usize>(&self, words: &Words<W>, mask: u64) -> Words<W> {
        let mut out = [0u64; W];
        let swap = (mask >> 6) as usize;
        for (w, &word) in words.iter().enumerate() {
            out[w ^ swap] = word;
        }
        permute(&mut out, mask & 63);
        out
    }

    /// Pushes the frontier states of `blocks`; returns the successors generated, ticked block
    /// by block (stopping part-way when `ticker` says so).
    fn push<const SHARED: bool, const W: usize>(
        &self,
        sets: Sets,
        blocks: std::ops::Range<u64>,
        ticker: &mut Ticker,
    ) -> u64 {
        let mut generated = 0;
        for h in blocks {
            let from = self.read::<W>(sets.frontier, h);
            let count: u64 = from.iter().map(|w| u64::from(w.count_ones())).sum();
            if count == 0 {
                continue;
            }
            if ticker.tick(generated).is_err() {
                return generated;
            }
            generated += count * self.moves;
            self.space.block_moves(h, &mut |target, mask| {
                let mut to = self.moved(&from, mask);
                let seen = self.read::<W>(sets.visited, target);
                for (word, &old) in to.iter_mut().zip(&seen) {
                    *word &= !old;
                }
                self.write::<SHARED, W>(sets.next, target, &to);
            });
        }
        generated
    }

    /// Pulls into `next` the unvisited states of `blocks` that have a neighbour in the
    /// frontier; returns the neighbours looked at, ticked as in [`push`](Self::push).
    fn pull<const SHARED: bool, const W: usize>(
        &self,
        sets: Sets,
        blocks: std::ops::Range<u64>,
        ticker: &mut Ticker,
    ) -> u64 {
        let all = if self.bits >= 6 {
            u64::MAX
        } else {
            (1u64 << (1 << self.bits)) - 1
        };
        let mut looked = 0;
        for h in blocks {
            let mut open = self.read::<W>(sets.visited, h);
            let mut left = 0;
            for word in &mut open {
                *word = !*word & all;
                left += u64::from(word.count_ones());
            }
            if left == 0 {
                continue;
            }
            if ticker.tick(looked).is_err() {
                return looked;
            }
            let mut found = [0u64; W];
            self.space.block_moves(h, &mut |source, mask| {
                if left == 0 {
                    return;
                }
                looked += left;
                let from = self.read::<W>(sets.frontier, source);
                if from.iter().all(|&w| w == 0) {
                    return;
                }
                let back = self.moved(&from, mask);
                left = 0;
                for ((f, &b), o) in found.iter_mut().zip(&back).zip(&mut open) {
                    *f |= b & *o;
                    *o &= !b;
                    left += u64::from(o.count_ones());
                }
            });
            self.write::<SHARED, W>(sets.next, h, &found);
        }
        looked
    }
}

impl<P: FlipSplit + ?Sized> FlipBlocks<'_, P> {
    /// A chunk's push or pull, with atomic ORs when threads share `next`.
    fn step<const W: usize>(
        &self,
        shared: bool,
        pull: bool,
        sets: Sets,
        blocks: std::ops::Range<u64>,
        ticker: &mut Ticker,
    ) -> u64 {
        match (shared, pull) {
            (false, false) => self.push::<false, W>(sets, blocks, ticker),
            (true, false) => self.push::<true, W>(sets, blocks, ticker),
            (false, true) => self.pull::<false, W>(sets, blocks, ticker),
            (true, true) => self.pull::<true, W>(sets, blocks, ticker),
        }
    }
}

impl<P: FlipSplit + Sync + ?Sized> Advance for FlipBlocks<'_, P> {
    fn advance(
        &self,
        sets: &mut Bitsets,
        pool: Option<&rayon::ThreadPool>,
        latch: &Latch,
    ) -> Option<Merged> {
        let pull = sets.pulls(self.blocks << self.bits);
        let Bitsets {
            frontier,
            next,
            visited,
        } = sets;
        let shared_next = as_atomic(next);
        // Chunks of whole words: blocks narrower than a word share it, and a pull writes its
        // own words only.
        let per_chunk = (CHUNK_STATES >> self.bits).max(1);
        let chunks = self.blocks.div_ceil(per_chunk) as usize;
        let generated = over_chunks(pool, chunks, 1, |range| {
            let mut ticker = latch.ticker();
            let blocks =
                range.start as u64 * per_chunk..(range.end as u64 * per_chunk).min(self.blocks);
            let sets = Sets {
                frontier,
                visited,
                next: shared_next,
            };
            let t = &mut ticker;
            match self.len() {
                1 => self.step::<1>(pool.is_some(), pull, sets, blocks, t),
                2 => self.step::<2>(pool.is_some(), pull, sets, blocks, t),
                4 => self.step::<4>(pool.is_some(), pull, sets, blocks, t),
                8 => self.step::<8>(pool.is_some(), pull, sets, blocks, t),
                16 => self.step::<16>(pool.is_some(), pull, sets, blocks, t),
                32 => self.step::<32>(pool.is_some(), pull, sets, blocks, t),
                _ => self.step::<64>(pool.is_some(), pull, sets, blocks, t),
            }
        });
        if latch.reason().is_some() {
            return None;
        }
        Some(merge(pool, sets, generated))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Options, backward, flip_backward_each};
    use crate::limit::Limits;
    use crate::space::{FlipSplit, GoalSet, Indexed, Invertible, StateSpace};

    /// `blocks` rings of `2^bits` flips: move `2j` steps the block by `steps[j]` and XORs the
    /// flips with a mask that depends on the block it leaves, move `2j + 1` undoes it.
    struct Rings {
        blocks: u64,
        bits: u32,
        steps: Vec<u64>,
    }

    impl Rings {
        fn mask(&self, j: usize, from: u64) -> u64 {
            let x = (from + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ ((j as u64 + 3) * 0x2545_f491);
            (x ^ x >> 29) & ((1 << self.bits) - 1)
        }
        /// Move `k` of block `h`: the target block and the mask.
        fn block_move(&self, k: usize, h: u64) -> (u64, u64) {
            let (j, step) = (k / 2, self.steps[k / 2]);
            if k.is_multiple_of(2) {
                ((h + step) % self.blocks, self.mask(j, h))
            } else {
                let back = (h + self.blocks - step) % self.blocks;
                (back, self.mask(j, back))
            }
        }
    }

    impl StateSpace for Rings {
        type State = u64;
        type Move = usize;
        fn successors(&self, s: u64, visit: &mut dyn FnMut(usize, u64)) {
            let (h, f) = (s >> self.bits, s & ((1 << self.bits) - 1));
            for k in 0..2 * self.steps.len() {
                let (to, mask) = self.block_move(k, h);
                visit(k, to << self.bits | (f ^ mask));
            }
        }
        fn is_goal(&self, s: u64) -> bool {
            s == 0
        }
    }
    impl Indexed for Rings {
        fn size(&self) -> u128 {
            u128::from(self.blocks) << self.bits
        }
        fn index(&self, s: u64) -> u64 {
            s
        }
        fn state(&self, i: u64) -> u64 {
            i
        }
    }
    impl Invertible for Rings {
        fn inverse(&self, k: usize) -> usize {
            k ^ 1
        }
    }
    impl GoalSet for Rings {
        fn goals(&self, visit: &mut dyn FnMut(u64)) {
            visit(0)
        }
    }
    impl FlipSplit for Rings {
        fn flip_bits(&self) -> Option<u32> {
            Some(self.bits)
        }
        fn block_moves(&self, h: u64, visit: &mut dyn FnMut(u64, u64)) {
            for k in 0..2 * self.steps.len() {
                let (to, mask) = self.block_move(k, h);
                visit(to, mask);
            }
        }
    }

    #[test]
    fn blocks_of_flips_sweep_as_states_do() {
        // Blocks narrower than a word, one word, several words; one and two threads (push and
        // pull both run: the late layers are thick).
        for (blocks, bits) in [(7, 2), (5, 5), (9, 6), (6, 8), (3, 12)] {
            let rings = Rings {
                blocks,
                bits,
                steps: vec![1, 2],
            };
            let limits = Limits::default();
            for threads in [1, 2] {
                let options = Options {
                    limits: &limits,
                    threads: Some(threads),
                };
                let plain = backward(&rings, options, &mut |_, _| {});
                let mut layers = Vec::new();
                let flips = flip_backward_each(&rings, options, &mut |depth, words| {
                    let found: u64 = words.iter().map(|w| u64::from(w.count_ones())).sum();
                    layers.push((depth, found));
                    Ok(())
                });
                assert_eq!(flips.histogram, plain.histogram, "{blocks} x 2^{bits}");
                assert_eq!(flips.stats.visited, plain.stats.visited);
                assert_eq!(flips.farthest, plain.farthest);
                let counted: Vec<u64> = layers.iter().map(|&(_, n)| n).collect();
                assert_eq!(counted, plain.histogram);
                assert!(plain.histogram.len() > 3, "{:?}", plain.histogram);
            }
        }
    }
}
