//! A worker's slice of the bitsets ([`Part`]): `frontier`, `next` and `visited` for the words it
//! owns, and what it does with each message it receives (blocks and indices go into `next`,
//! summaries, a halt, and a search's cut-offs and round reports are kept for the worker's loop).

use super::wire::{Body, RoundReport, Stop, Summary, decode_indices};
use crate::search::layers::Merged;

/// A worker's slice of the bitsets (words `first_word..`), shared between the worker's loop
/// and the operator that receives its messages: both run on the worker's thread, one at a time.
#[derive(Default)]
pub(super) struct Part {
    pub(super) first_word: usize,
    pub(super) frontier: Vec<u64>,
    pub(super) next: Vec<u64>,
    pub(super) visited: Vec<u64>,
    pub(super) summaries: Vec<Summary>,
    /// A search in rounds: the cut-offs peers sent (round, task), and their round reports
    /// (each tagged with its round: a peer's report of the next round may come before this
    /// round has closed here, and waits for it).
    pub(super) cutoffs: Vec<(u32, u64)>,
    pub(super) rounds: Vec<RoundReport>,
    /// The limit a peer halted the run for, until the worker latches it.
    pub(super) halt: Option<Stop>,
    /// States that came before the bitsets were allocated (a faster peer already expanding
    /// the first layer while this worker leaves round 0), kept for [`allocate`](Self::allocate).
    pub(super) early: Option<Vec<Body>>,
}

impl Part {
    /// Allocates the three slices of `words` words, and merges what came early.
    pub(super) fn allocate(&mut self, words: usize) {
        // Zeroed pages from the allocator: untouched words cost nothing until used.
        self.frontier = vec![0; words];
        self.next = vec![0; words];
        self.visited = vec![0; words];
        for body in self.early.take().unwrap_or_default() {
            self.receive(body);
        }
    }

    pub(super) fn receive(&mut self, body: Body) {
        if let (Some(early), Body::Words { .. } | Body::Indices(_)) = (&mut self.early, &body) {
            early.push(body);
            return;
        }
        match body {
            Body::Words { first, words } => {
                let at = first as usize - self.first_word;
                for (next, word) in self.next[at..at + words.len()].iter_mut().zip(words) {
                    *next |= word;
                }
            }
            Body::Indices(bytes) => decode_indices(&bytes, |index| {
                let (word, bit) = self.bit(index);
                if self.visited[word] & bit == 0 {
                    self.next[word] |= bit;
                }
            }),
            Body::Summary(summary) => self.summaries.push(summary),
            Body::Halt(stop) => {
                self.halt.get_or_insert(stop);
            }
            Body::Heartbeat => {}
            Body::Cutoff { round, task } => self.cutoffs.push((round, task)),
            Body::Round(report) => self.rounds.push(*report),
        }
    }

    /// The local word and bit of `index`, which this worker owns.
    pub(super) fn bit(&self, index: u64) -> (usize, u64) {
        ((index >> 6) as usize - self.first_word, 1 << (index & 63))
    }

    /// Ends a layer: what is in `next` and not in `visited` becomes the frontier and is visited;
    /// `next` is cleared for the next layer. Counts the new states.
    pub(super) fn merge(&mut self) -> Merged {
        let mut merged = Merged::default();
        let words = self.next.iter_mut().zip(&mut self.visited);
        for (i, ((next, seen), frontier)) in words.zip(&mut self.frontier).enumerate() {
            let fresh = *next & !*seen;
            *seen |= fresh;
            *frontier = fresh;
            *next = 0;
            merged.add(self.first_word + i, fresh);
        }
        merged
    }
}
