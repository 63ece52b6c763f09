//! The word-at-a-time strategy: an [`XorMoves`] space pulled a 64-bit word of states per move
//! ([`XorWords`]; the module docs of [`layers`](super) give the idea, the type's docs the cost).
//! The pull is shared with the [`cluster`](crate::search::cluster) sweep, whose workers compute
//! blocks of each other's `next` with it.

use super::CHUNK_WORDS;
use super::sweep::{Advance, Bitsets, Merged, zip_chunks};
use crate::limit::Latch;
use crate::space::XorMoves;

/// [`XorMoves`] spaces, pulled: each move's mask split into the word offset `m >> 6` and the
/// in-word part `m & 63`.
///
/// An XOR undoes itself, so the predecessors of word `t` are the words `t ^ (m >> 6)`, permuted.
/// The step therefore goes target by target: `next[t]` is the OR over the moves of the permuted
/// frontier words, minus `visited[t]`. Each thread writes only its own chunk of `next` and
/// `visited`, so there are no atomics and no merge pass, and the inner loop has no store and no
/// data-dependent branch. The price is that every word is computed every layer, sparse or not:
/// `layers * size / 64 * moves` word operations (about 170 million for Flip 5 x 5, tens of
/// milliseconds), against the push direction's `sum of non-empty frontier words * moves` (66
/// million there) with a random read-modify-write and a branch for each.
pub(in crate::search) struct XorWords {
    /// The moves grouped by in-word part: `(flip, word offsets)`. The permutation distributes
    /// over OR, so a group ORs its source words first and permutes once; for Flip 5 x 5 the 25
    /// moves make 8 groups, 18 moves sharing `flip = 0` (no permutation at all).
    groups: Vec<(u64, Vec<usize>)>,
    pub(in crate::search) moves: u64,
}

impl XorWords {
    pub(in crate::search) fn new<P: XorMoves>(space: &P) -> Self {
        let size = space.size();
        assert!(size.is_power_of_two(), "XorMoves: size is a power of two");
        let mut groups: Vec<(u64, Vec<usize>)> = Vec::new();
        for &m in space.xor_masks() {
            assert!((m as u128) < size, "XorMoves: mask {m:#x} is an index");
            let (word_offset, flip) = ((m >> 6) as usize, m & 63);
            match groups.iter_mut().find(|(f, _)| *f == flip) {
                Some((_, offsets)) => offsets.push(word_offset),
                None => groups.push((flip, vec![word_offset])),
            }
        }
        XorWords {
            groups,
            moves: space.xor_masks().len() as u64,
        }
    }

    /// Every move's word offset `m >> 6`: state word `w` reaches word `w ^ offset` (the
    /// cluster's plan of which worker pulls from which).
    #[cfg(feature = "cluster")]
    pub(in crate::search) fn word_offsets(&self) -> impl Iterator<Item = usize> + '_ {
        self.groups
            .iter()
            .flat_map(|(_, offsets)| offsets.iter().copied())
    }
}

/// `BLOCKS[k]`: the lower `2^k` bits of every `2^(k+1)`-bit block.
const BLOCKS: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0f0f_0f0f_0f0f_0f0f,
    0x00ff_00ff_00ff_00ff,
    0x0000_ffff_0000_ffff,
    0x0000_0000_ffff_ffff,
];

/// Moves bit `i` of every word of `words` to bit `i ^ flip` (`flip < 64`): for each set bit `k`
/// of `flip`, swap neighbouring `2^k`-bit blocks. One stage at a time over the whole slice: a
/// branch-free loop the compiler vectorises, where permuting word by word would branch on
/// every bit of `flip` for every word.
pub(super) fn permute(words: &mut [u64], flip: u64) {
    for (k, &low) in BLOCKS.iter().enumerate() {
        if flip >> k & 1 == 1 {
            let shift = 1 << k;
            for word in words.iter_mut() {
                *word = (*word & low) << shift | (*word >> shift) & low;
            }
        }
    }
}

impl XorWords {
    /// ORs into `next[i]` every state of word `first + i` that has a predecessor in a source
    /// block: `source(base)` is the block of frontier words starting at word `base`, or `None`
    /// when it has no state to give (empty, or held by another worker of a
    /// [`cluster`](crate::search::cluster) sweep, which pushes its part instead).
    ///
    /// Move by move over the whole chunk rather than word by word over the moves: the chunk is
    /// `n` aligned words (a power of two), so the sources of one move, the words
    /// `(first + i) ^ offset`, are one aligned block of `n` words read in a shuffled order
    /// (`i ^ (offset % n)`). A block at a time is what caches and prefetchers like; one word
    /// from each of 25 far-apart blocks at a time (the plain loop) left the loads waiting on
    /// memory most of the time.
    ///
    /// Empty blocks are skipped (`source` gives `None`), which makes the sparse first and last
    /// layers almost free.
    pub(in crate::search) fn pull<'a>(
        &self,
        first: usize,
        next: &mut [u64],
        source: impl Fn(usize) -> Option<&'a [u64]>,
    ) {
        let n = next.len();
        debug_assert!(n.is_power_of_two() && first.is_multiple_of(n));
        let mut group = [0u64; CHUNK_WORDS];
        let group = &mut group[..n];
        for (flip, offsets) in &self.groups {
            // The unpermuted group goes straight into `next`; the others through `group`.
            let into: &mut [u64] = if *flip == 0 { next } else { group };
            let mut empty = true;
            for &offset in offsets {
                let Some(block) = source(first ^ (offset & !(n - 1))) else {
                    continue;
                };
                if empty && *flip != 0 {
                    into.fill(0);
                }
                empty = false;
                let shuffle = offset & (n - 1);
                for (i, word) in into.iter_mut().enumerate() {
                    *word |= block[i ^ shuffle];
                }
            }
            if *flip != 0 && !empty {
                permute(group, *flip);
                for (word, &sources) in next.iter_mut().zip(group.iter()) {
                    *word |= sources;
                }
            }
        }
    }
}

impl Advance for XorWords {
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
        let frontier = &*frontier;
        let n = frontier.len().min(CHUNK_WORDS);
        let live: Vec<bool> = frontier
            .chunks(n)
            .map(|block| block.iter().any(|&w| w != 0))
            .collect();
        let mut merged = zip_chunks(pool, next, visited, |first, next, visited| {
            // A chunk is 1,024 words, each ORed from every move: microseconds. One poll each.
            if latch.check().is_err() {
                return Merged::default();
            }
            next.fill(0);
            self.pull(first, next, |base| {
                live[base / n].then(|| &frontier[base..base + n])
            });
            let mut merged = Merged::default();
            for (i, (fresh, seen)) in next.iter_mut().zip(visited.iter_mut()).enumerate() {
                *fresh &= !*seen;
                *seen |= *fresh;
                merged.add(first + i, *fresh);
            }
            merged
        });
        if latch.reason().is_some() {
            return None;
        }
        let expanded: u64 = frontier.iter().map(|w| w.count_ones() as u64).sum();
        merged.generated = expanded * self.moves;
        Some(merged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permute_moves_every_bit_to_its_xor() {
        for flip in 0..64u64 {
            let mut words: Vec<u64> = (0..64).map(|i| 1 << i).collect();
            permute(&mut words, flip);
            for (i, &word) in words.iter().enumerate() {
                assert_eq!(word, 1 << (i as u64 ^ flip), "bit {i}, flip {flip}");
            }
        }
    }
}
