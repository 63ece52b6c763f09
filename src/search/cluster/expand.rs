//! One layer's expansion of a worker's frontier, the part the space's capabilities decide (an
//! [`Expand`]): [`PerState`] for any indexed space (successors a peer owns go to it as batches
//! of indices), [`Pull`] for an [`XorMoves`](crate::space::XorMoves) space (blocks of words,
//! computed where the frontier is and sent whole; the module docs of
//! [`cluster`](super) say why).

use super::part::Part;
use super::wire::{Body, encode_indices};
use super::worker::{Expand, Node};
use crate::search::layers::XorWords;
use crate::space::Indexed;
use std::ops::Range;
use std::sync::Arc;

/// Successor indices per batch to one worker (per-state spaces): 8 KiB, like a block of words.
pub(super) const BATCH: usize = 1024;

/// Any indexed space, one state at a time.
pub(super) struct PerState<P> {
    pub(super) space: Arc<P>,
}

impl<P: Indexed + Send + Sync + 'static> Expand for PerState<P> {
    fn expand(&self, node: &mut Node) -> u64 {
        let (plan, me) = (node.plan, node.me);
        let mut generated = 0;
        let mut batches: Vec<Vec<u64>> = vec![Vec::new(); plan.workers];
        let words = node.part.borrow().frontier.len();
        // Where the expansion is: the next word, and what is left of it when a poll was due
        // part-way through it. Between stretches of `WORK_PER_POLL` successors the worker polls
        // (its part not borrowed: polling steps the worker, which may receive into it), sends
        // its full batches and takes in its peers'.
        let (mut w, mut rest) = (0, None);
        while w < words && !node.poll() {
            {
                let mut part = node.part.borrow_mut();
                let Part {
                    first_word,
                    frontier,
                    next,
                    visited,
                    ..
                } = &mut *part;
                'stretch: while w < words {
                    let mut bits = rest.take().unwrap_or(frontier[w]);
                    while bits != 0 {
                        let index = ((*first_word + w) as u64) << 6 | bits.trailing_zeros() as u64;
                        bits &= bits - 1;
                        self.space
                            .successors(self.space.state(index), &mut |_, successor| {
                                generated += 1;
                                let index = self.space.index(successor);
                                match plan.owner_of_index(index) {
                                    owner if owner == me => {
                                        let (word, bit) = (
                                            (index >> 6) as usize - *first_word,
                                            1 << (index & 63),
                                        );
                                        if visited[word] & bit == 0 {
                                            next[word] |= bit;
                                        }
                                    }
                                    owner => batches[owner].push(index),
                                }
                            });
                        if node.ticker.due(generated) {
                            rest = Some(bits);
                            break 'stretch;
                        }
                    }
                    w += 1;
                }
            }
            for (to, batch) in batches.iter_mut().enumerate() {
                if batch.len() >= BATCH {
                    node.send(to, Body::Indices(encode_indices(batch)));
                }
            }
            // Merges what peers sent meanwhile, so that their batches do not pile up.
            node.worker.step();
        }
        for (to, batch) in batches.iter_mut().enumerate() {
            if !batch.is_empty() {
                node.send(to, Body::Indices(encode_indices(batch)));
            }
        }
        generated
    }
}

/// [`XorMoves`](crate::space::XorMoves) spaces, a block of 64-state words at a time (see the
/// module docs of [`cluster`](super)).
pub(super) struct Pull(pub(super) XorWords);

impl Expand for Pull {
    fn expand(&self, node: &mut Node) -> u64 {
        let (plan, me) = (node.plan, node.me);
        let n = plan.block;
        let mine = plan.first(me)..plan.first(me + 1);
        let (live, expanded) = {
            let part = node.part.borrow();
            let live: Vec<bool> = part
                .frontier
                .chunks(n)
                .map(|block| block.iter().any(|&w| w != 0))
                .collect();
            let expanded: u64 = part.frontier.iter().map(|w| w.count_ones() as u64).sum();
            (live, expanded)
        };
        // First the other workers' blocks its frontier reaches, so that they travel while
        // everyone computes its own: one per live block and move that leaves the partition,
        // each computed once for all the moves that reach it.
        let mut shifts: Vec<usize> = self.0.word_offsets().map(|o| o / n).collect();
        shifts.sort_unstable();
        shifts.dedup();
        let mut targets: Vec<usize> = live
            .iter()
            .enumerate()
            .filter(|&(_, &live)| live)
            .flat_map(|(k, _)| shifts.iter().map(move |&s| (mine.start + k) ^ s))
            .filter(|&t| plan.owner(t) != me)
            .collect();
        targets.sort_unstable();
        targets.dedup();
        let mut words = vec![0u64; n];
        // The work ticked: words computed (each from all the moves, a few nanoseconds a move).
        let mut done = 0;
        for target in targets {
            if node.ticker.due(done) && node.poll() {
                return 0;
            }
            done += n as u64;
            words.fill(0);
            {
                let part = node.part.borrow();
                self.0.pull(target * n, &mut words, |base| {
                    held_block(&part.frontier, &live, &mine, n, base)
                });
            }
            if words.iter().any(|&w| w != 0) {
                let body = Body::Words {
                    first: (target * n) as u64,
                    words: words.clone(),
                };
                node.send(plan.owner(target), body);
                node.worker.step();
            }
        }
        // Then its own next from its own frontier, taking in the peers' blocks between blocks
        // (both OR into `next`, so the order does not matter).
        let blocks = mine.len();
        for k in 0..blocks {
            if node.ticker.due(done) {
                if node.poll() {
                    return 0;
                }
                node.worker.step();
            }
            done += n as u64;
            let mut part = node.part.borrow_mut();
            let Part { frontier, next, .. } = &mut *part;
            self.0
                .pull((mine.start + k) * n, &mut next[k * n..][..n], |base| {
                    held_block(frontier, &live, &mine, n, base)
                });
        }
        expanded * self.0.moves
    }
}

/// The block of `n` words at global word `base` of a worker's `frontier` (which holds the
/// blocks `mine`), when it holds it and the block has a state.
fn held_block<'a>(
    frontier: &'a [u64],
    live: &[bool],
    mine: &Range<usize>,
    n: usize,
    base: usize,
) -> Option<&'a [u64]> {
    let b = base / n;
    (mine.contains(&b) && live[b - mine.start]).then(|| &frontier[(b - mine.start) * n..][..n])
}
