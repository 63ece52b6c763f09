//! Who holds what: the cut of the index's words into blocks, and of the blocks among the
//! workers ([`Plan`]). Contiguous ranges, so that a move that changes only the index's low bits
//! stays within a worker, and blocks of a power of two words, so that a block of one worker's
//! `next` is computed from one aligned block of another's `frontier`.

use crate::search::layers::CHUNK_WORDS;
use std::ops::Range;

/// The cut of `words` words into blocks and of the blocks among `workers`: worker `w` owns
/// blocks `first(w)..first(w + 1)`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Plan {
    pub(super) words: usize,
    /// Words per block: a power of two, at most [`CHUNK_WORDS`], small enough that every worker
    /// gets about eight when there are enough words (so that the shares come out even).
    pub(super) block: usize,
    pub(super) blocks: usize,
    pub(super) workers: usize,
}

impl Plan {
    pub(super) fn new(words: usize, workers: usize) -> Plan {
        let per_worker = (words / (8 * workers)).max(1);
        let block = CHUNK_WORDS.min(1 << per_worker.ilog2());
        Plan {
            words,
            block,
            blocks: words.div_ceil(block),
            workers,
        }
    }

    pub(super) fn first(&self, worker: usize) -> usize {
        worker * self.blocks / self.workers
    }

    /// The worker whose range holds `block`: the largest `w` with `first(w) <= block`.
    pub(super) fn owner(&self, block: usize) -> usize {
        ((block + 1) * self.workers - 1) / self.blocks
    }

    pub(super) fn owner_of_index(&self, index: u64) -> usize {
        self.owner((index >> 6) as usize / self.block)
    }

    /// The words `worker` holds.
    pub(super) fn words_of(&self, worker: usize) -> Range<usize> {
        let word = |w| (self.first(w) * self.block).min(self.words);
        word(worker)..word(worker + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_gives_every_block_one_owner_in_order() {
        for (words, workers) in [(1, 2), (1024, 2), (2835, 3), (1 << 14, 4), (5, 8)] {
            let plan = Plan::new(words, workers);
            let mut covered = 0;
            for w in 0..workers {
                let range = plan.words_of(w);
                assert_eq!(range.start, covered, "{words} words, {workers} workers");
                covered = range.end;
                for word in range {
                    assert_eq!(plan.owner(word / plan.block), w);
                }
            }
            assert_eq!(covered, words);
        }
        // Enough words: every worker holds a share.
        let plan = Plan::new(1024, 2);
        assert_eq!((plan.words_of(0), plan.words_of(1)), (0..512, 512..1024));
        let plan = Plan::new(2835, 2);
        assert_eq!((plan.words_of(0), plan.words_of(1)), (0..1408, 1408..2835));
    }
}
