//! The sweep of a space without a dense index: forward from a start, layer by layer, over a hash
//! set of the states found ([`forward_hashed`]).
//!
//! The bitset strategies of this module need [`Indexed`](crate::space::Indexed): three bits per
//! state of the whole space, known before the run. A space that only has successors (a puzzle
//! written in another language and reached through callbacks, a graph too irregular to rank)
//! still has a histogram of distances from its start; this sweep counts it with a
//! [`HashVisited`] set and two vectors (the layer being expanded and the next), so its memory is
//! per state found rather than per state of the space.
//!
//! | | bitset sweeps ([`forward`](super::forward)) | [`forward_hashed`] |
//! |---|---|---|
//! | needs | [`Indexed`](crate::space::Indexed) | [`StateSpace`] |
//! | memory | `3 * size / 8` bytes, allocated up front | about `3 * size_of::<State>() + 8` bytes per state found, growing |
//! | threads | many | one |
//! | farthest state | the lowest index of the last layer | the first state found in the last layer |
//!
//! Everything else is the bitset sweeps': the [`Layers`] it returns, what its stats count, and
//! how limits stop it (the time limit and Ctrl-C polled through the run's
//! [`Latch`](crate::limit::Latch) every few thousand successors, the interrupted layer dropped;
//! `max_depth` after that many layers; `max_states` after the layer that passes it; memory
//! checked at every poll against what the set and the layers take after their next growth).

use super::Layers;
use crate::limit::{Latch, Limit, Limits};
use crate::search::Stats;
use crate::search::visited::{HashVisited, Visited};
use crate::space::StateSpace;

/// Every state reachable from `start`, counted by its fewest moves from `start`.
///
/// - `space`: the graph; only [`StateSpace`] is needed.
/// - `start`: depth 0.
/// - `limits`: time, Ctrl-C, depth, states and the memory budget (see the module docs).
/// - `on_layer(depth, states found so far)`: called after each completed layer (progress).
///
/// ```
/// use statespace::limit::Limits;
/// use statespace::search::layers;
/// use statespace::toys::Counter;
/// // 0..10, a move adds 1 or 3 (mod 10): from 0, {1, 3}, then {2, 4, 6}, then the rest.
/// let sweep = layers::forward_hashed(&Counter, 0, &Limits::default(), &mut |_, _| {});
/// assert_eq!(sweep.histogram, vec![1, 2, 3, 3, 1]);
/// assert_eq!(sweep.stopped, None);
/// ```
pub fn forward_hashed<P: StateSpace>(
    space: &P,
    start: P::State,
    limits: &Limits,
    on_layer: &mut dyn FnMut(u32, u64),
) -> Layers<P::State> {
    let latch = Latch::new(limits);
    let mut ticker = latch.ticker();
    let mut visited = HashVisited::default();
    visited.insert(start);
    let mut layer = vec![start];
    let mut next: Vec<P::State> = Vec::new();
    let mut result = Layers {
        histogram: Vec::new(),
        farthest: None,
        stopped: None,
        stats: Stats::default(),
        threads: 1,
        memory_bytes: 0,
    };
    let mut stats = Stats::default();
    // What the set and both layers take now and after their next growth (each doubles when
    // full, the set's old and new tables living together while it moves).
    let bytes = |visited: &HashVisited<P::State>, layer: &Vec<P::State>, next: &Vec<P::State>| {
        let layers = (layer.capacity() + 2 * next.capacity()) * std::mem::size_of::<P::State>();
        visited.bytes_at_next_growth() as u128 + layers as u128
    };
    loop {
        let count = layer.len() as u64;
        result.histogram.push(count);
        result.farthest = layer.first().copied();
        stats.visited += count;
        stats.peak_frontier = stats.peak_frontier.max(count);
        on_layer(stats.depth, stats.visited);
        if let Some(max) = limits.max_states
            && stats.visited > max
        {
            result.stopped = Some(Limit::States(max));
            break;
        }
        let mut generated = 0u64;
        let mut stopped = None;
        for &state in &layer {
            space.successors(state, &mut |_, t| {
                generated += 1;
                if visited.insert(t) {
                    next.push(t);
                }
            });
            if ticker.due(stats.generated + generated) {
                let needed = bytes(&visited, &layer, &next);
                result.memory_bytes = result.memory_bytes.max(needed.min(u64::MAX as u128) as u64);
                stopped = latch.check().and(limits.check_memory(needed)).err();
                if stopped.is_some() {
                    break;
                }
            }
        }
        if let Some(limit) = stopped {
            result.stopped = Some(latch.trip(limit));
            break;
        }
        stats.expanded += count;
        stats.generated += generated;
        if next.is_empty() {
            break;
        }
        // Checked after the next layer is known: a sweep that ends exactly at the depth limit is
        // complete, not cut.
        if limits.max_depth.is_some_and(|max| stats.depth >= max) {
            result.stopped = Some(Limit::Depth(stats.depth));
            break;
        }
        std::mem::swap(&mut layer, &mut next);
        next.clear();
        stats.depth += 1;
    }
    let held = bytes(&visited, &layer, &next).min(u64::MAX as u128) as u64;
    result.memory_bytes = result.memory_bytes.max(held);
    stats.elapsed = latch.elapsed();
    result.stats = stats;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::layers::{Options, forward};
    use crate::toys::{Counter, Lights, LightsGoal};
    use std::collections::{HashMap, VecDeque};
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    /// Every state's fewest moves from `start`, by a plain queue: the histogram to match.
    fn brute_force<P: StateSpace>(space: &P, start: P::State) -> Vec<u64> {
        let mut depth = HashMap::from([(start, 0usize)]);
        let mut queue = VecDeque::from([start]);
        while let Some(s) = queue.pop_front() {
            let d = depth[&s];
            space.successors(s, &mut |_, t| {
                depth.entry(t).or_insert_with(|| {
                    queue.push_back(t);
                    d + 1
                });
            });
        }
        let mut histogram = vec![0; depth.values().max().unwrap() + 1];
        depth.values().for_each(|&d| histogram[d] += 1);
        histogram
    }

    #[test]
    fn the_histogram_is_a_plain_bfs_and_the_bitset_sweeps() {
        let limits = Limits::default();
        for start in 0..10 {
            let sweep = forward_hashed(&Counter, start, &limits, &mut |_, _| {});
            assert_eq!(
                sweep.histogram,
                brute_force(&Counter, start),
                "from {start}"
            );
            assert_eq!(sweep.stats.visited, 10);
        }
        let lights = Lights::new(3, 3, false, LightsGoal::Uniform);
        let options = Options {
            limits: &limits,
            threads: Some(1),
        };
        let bitsets = forward(&lights, 5, options, &mut |_, _| {});
        let hashed = forward_hashed(&lights, 5, &limits, &mut |_, _| {});
        assert_eq!(hashed.histogram, bitsets.histogram);
        assert_eq!(hashed.histogram, brute_force(&lights, 5));
        assert_eq!(hashed.stopped, None);
        let stats = |s: &Stats| (s.expanded, s.generated, s.visited, s.peak_frontier, s.depth);
        assert_eq!(stats(&hashed.stats), stats(&bitsets.stats));
        assert!(hashed.memory_bytes > 0);
    }

    #[test]
    fn the_farthest_state_is_at_the_largest_distance() {
        // The goal is the start (every lamp off), and a press undoes itself: the farthest
        // state's fewest moves back to the start are its distance from it.
        let lights = Lights::new(3, 4, false, LightsGoal::AllOff);
        let limits = Limits::default();
        let sweep = forward_hashed(&lights, 0, &limits, &mut |_, _| {});
        let deepest = brute_force(&lights, 0).len() - 1;
        assert_eq!(sweep.histogram.len() - 1, deepest);
        let back = crate::search::bfs::solve(&lights, sweep.farthest.unwrap(), &limits);
        let crate::search::Outcome::Solved(path) = back.outcome else {
            panic!("{:?}", back.outcome)
        };
        assert_eq!(path.len(), deepest);
    }

    #[test]
    fn depth_state_and_memory_limits_stop_after_a_layer() {
        let lights = Lights::new(4, 4, false, LightsGoal::Uniform);
        let full = forward_hashed(&lights, 0, &Limits::default(), &mut |_, _| {});
        let limits = Limits {
            max_depth: Some(2),
            ..Limits::default()
        };
        let sweep = forward_hashed(&lights, 0, &limits, &mut |_, _| {});
        assert_eq!(sweep.histogram, full.histogram[..3]);
        assert_eq!(sweep.stopped, Some(Limit::Depth(2)));
        // Ending exactly at the depth limit is complete.
        let deepest = full.histogram.len() as u32 - 1;
        let limits = Limits {
            max_depth: Some(deepest),
            ..Limits::default()
        };
        assert_eq!(
            forward_hashed(&lights, 0, &limits, &mut |_, _| {}).stopped,
            None
        );
        let limits = Limits {
            max_states: Some(100),
            ..Limits::default()
        };
        let sweep = forward_hashed(&lights, 0, &limits, &mut |_, _| {});
        assert_eq!(sweep.stopped, Some(Limit::States(100)));
        assert!(sweep.stats.visited > 100);
        assert_eq!(sweep.histogram.iter().sum::<u64>(), sweep.stats.visited);
        let limits = Limits {
            memory_budget: 64,
            ..Limits::default()
        };
        let sweep = forward_hashed(&lights, 0, &limits, &mut |_, _| {});
        assert!(matches!(
            sweep.stopped,
            Some(Limit::Memory { budget: 64, .. })
        ));
        assert_eq!(sweep.histogram, [1], "the interrupted layer is dropped");
    }

    #[test]
    fn an_interrupt_or_a_spent_time_limit_stops_the_first_layer() {
        static FLAG: AtomicBool = AtomicBool::new(true);
        let lights = Lights::new(4, 4, false, LightsGoal::Uniform);
        let limits = Limits {
            interrupt: Some(&FLAG),
            ..Limits::default()
        };
        let sweep = forward_hashed(&lights, 0, &limits, &mut |_, _| {});
        assert_eq!(sweep.stopped, Some(Limit::Interrupted));
        assert_eq!(sweep.histogram, [1]);
        assert_eq!(sweep.stats.expanded, 0);
        let limits = Limits {
            time_limit: Some(Duration::ZERO),
            ..Limits::default()
        };
        let sweep = forward_hashed(&lights, 0, &limits, &mut |_, _| {});
        assert_eq!(sweep.stopped, Some(Limit::Time(Duration::ZERO)));
    }

    #[test]
    fn progress_is_called_once_per_layer() {
        let mut calls = Vec::new();
        forward_hashed(&Counter, 0, &Limits::default(), &mut |d, n| {
            calls.push((d, n))
        });
        assert_eq!(calls, [(0, 1), (1, 3), (2, 6), (3, 9), (4, 10)]);
    }
}
