//! What workers send each other ([`Message`]): blocks of `next` words, batches of successor
//! indices (sorted and delta-coded as varints: [`encode_indices`]), each layer's summaries, a
//! halt, and heartbeats; for a search in rounds, its cut-offs and round reports. Serialized by timely (bincode) on the way between processes.

use crate::limit::Limit;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// What workers send each other.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Message {
    /// The worker it is for (the exchange routes on it).
    pub(super) to: u32,
    pub(super) body: Body,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) enum Body {
    /// Successors to OR into `next`, from word `first` on: one block.
    Words { first: u64, words: Vec<u64> },
    /// Successor indices (some may be visited already), sorted and delta-coded
    /// ([`encode_indices`]).
    Indices(Vec<u8>),
    /// A worker's part of a layer, sent to every worker.
    Summary(Summary),
    /// The sender stopped for a limit: stop expanding now (sent to every worker, once).
    Halt(Stop),
    /// Nothing but "alive" (sent to the other processes when there is nothing else to say).
    Heartbeat,
    /// A search in rounds (`rounds.rs`): in round `round`, the tasks
    /// after `task` need not be searched (a goal was found in it).
    Cutoff { round: u32, task: u64 },
    /// A search in rounds: a process's report of a round, sent to every process.
    Round(Box<RoundReport>),
}

/// One worker's part of a round.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub(super) struct Summary {
    pub(super) from: u32,
    pub(super) count: u64,
    pub(super) lowest: Option<u64>,
    pub(super) generated: u64,
    /// Bytes of states this worker has sent so far.
    pub(super) exchanged: u64,
    pub(super) stop: Option<Stop>,
}

/// One process's report of a round of a search split into tasks (task `k` is searched by
/// process `k mod P`).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct RoundReport {
    /// The process that sends it (set by [`Rounds::exchange`]).
    pub(crate) from: u32,
    /// The round it reports (set by the sender's coordinator): a peer may send its report of
    /// the next round before this process has seen the current one close, and the two must not
    /// be taken for one round (`rounds.rs`).
    pub(super) round: u32,
    /// The smallest bound this process's search cut (`u32::MAX`: none).
    pub(crate) next_bound: u32,
    /// This process's counts for the round.
    pub(crate) expanded: u64,
    pub(crate) generated: u64,
    pub(crate) visited: u64,
    pub(crate) peak_frontier: u64,
    /// The first of this process's tasks that did not end (a limit, or a cut-off before it).
    pub(crate) open: Option<u64>,
    /// This process's ended tasks that hold goals, in task order: each goal's path as the
    /// ordinals of its moves among their state's successors.
    pub(crate) found: Vec<(u64, Vec<Vec<u32>>)>,
    /// The limit that stopped this process's search, if one did.
    stop: Option<Stop>,
}

impl RoundReport {
    /// Records the limit that stopped this process's search.
    pub(crate) fn stopped(&mut self, limit: Option<Limit>) {
        self.stop = limit.map(Stop::from_limit);
    }

    /// The limit that stopped the sender's search, if one did.
    pub(crate) fn stop(&self) -> Option<Limit> {
        self.stop.map(Stop::limit)
    }
}

/// A [`Limit`] a worker hit, as it travels.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub(super) enum Stop {
    Interrupted,
    Time(Duration),
    Memory { needed: u128, budget: u64 },
}

impl Stop {
    pub(super) fn from_limit(limit: Limit) -> Stop {
        match limit {
            Limit::Time(t) => Stop::Time(t),
            Limit::Memory { needed, budget } => Stop::Memory { needed, budget },
            // Only these three are polled mid-layer or checked up front.
            _ => Stop::Interrupted,
        }
    }

    pub(super) fn limit(self) -> Limit {
        match self {
            Stop::Interrupted => Limit::Interrupted,
            Stop::Time(t) => Limit::Time(t),
            Stop::Memory { needed, budget } => Limit::Memory { needed, budget },
        }
    }
}

/// Sorts `indices` and codes them as LEB128 varints of their differences (the first from 0),
/// then clears them: a batch of 1,024 successors in a partition of 10^8 states takes about 3
/// bytes an index instead of 8. Repeats cost a byte and are kept (the receiver ORs them).
pub(super) fn encode_indices(indices: &mut Vec<u64>) -> Vec<u8> {
    indices.sort_unstable();
    let mut bytes = Vec::with_capacity(3 * indices.len());
    let mut last = 0;
    for index in indices.drain(..) {
        let mut delta = index - last;
        last = index;
        while delta >= 0x80 {
            bytes.push(delta as u8 | 0x80);
            delta >>= 7;
        }
        bytes.push(delta as u8);
    }
    bytes
}

/// Calls `each` with every index [`encode_indices`] coded, in increasing order.
pub(super) fn decode_indices(bytes: &[u8], mut each: impl FnMut(u64)) {
    let (mut index, mut delta, mut shift) = (0u64, 0u64, 0);
    for &byte in bytes {
        delta |= ((byte & 0x7f) as u64) << shift;
        shift += 7;
        if byte & 0x80 == 0 {
            index += delta;
            each(index);
            (delta, shift) = (0, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delta_coded_indices_decode_to_the_sorted_batch() {
        let batches: [&[u64]; 4] = [
            &[],
            &[0],
            &[5, 3, 3, 0, 127, 128, 16_383, 16_384],
            &[u64::MAX, 1 << 63, 42, (1 << 35) + 7],
        ];
        for batch in batches {
            let mut indices = batch.to_vec();
            let bytes = encode_indices(&mut indices);
            assert!(indices.is_empty());
            let mut decoded = Vec::new();
            decode_indices(&bytes, |i| decoded.push(i));
            let mut sorted = batch.to_vec();
            sorted.sort_unstable();
            assert_eq!(decoded, sorted);
        }
        // Small gaps take a byte each.
        let mut dense: Vec<u64> = (1000..2024).collect();
        assert_eq!(encode_indices(&mut dense).len(), 2 + 1023);
    }
}
