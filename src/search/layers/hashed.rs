//! The sweep of a space with no dense index ([`forward_hashed`], [`backward_hashed`]): forward
//! from a start or backward from the goals, its visited set a hash set, its layers two lists of
//! states.
//!
//! Why it exists: `explore --from start` works on every puzzle, and a puzzle without an
//! [`Indexed`](crate::space::Indexed) encoding (whole Shift boards, the 3x3x3) cannot have the
//! bitsets of the other strategies. What it gives is theirs: the histogram of the start's
//! component by distance, a farthest state, the same stats and limits.
//!
//! Memory grows with what is found (about `3 * size_of::<S>()` bytes a state, plus the two
//! layers), so it is checked before each growth of the set or of a layer, against the budget
//! ([`HashVisited::bytes_after_insert`]): a component larger than the budget stops the sweep with
//! the layers completed and [`Limit::Memory`]: the histogram of every depth completed, as
//! twsearch's `-g` prints when it runs out of memory. One thread. The farthest state is the first found
//! in the deepest layer (the others' is the lowest index; a hash set has none), which is the
//! same from run to run since successors are listed in a fixed order.

use super::{Layers, Options, last_layer};
use crate::limit::{Latch, Limit};
use crate::search::Stats;
use crate::search::visited::{HashVisited, Visited};
use crate::space::{GoalSet, Invertible, StateSpace};

/// Forward from `start` over any space, with a hash set (see the module docs). Arguments as in
/// [`forward`](super::forward).
///
/// ```
/// use statespace::toys::Counter;
/// use statespace::search::layers;
/// use statespace::limit::Limits;
/// let limits = Limits::default();
/// let options = layers::Options { limits: &limits, threads: None };
/// // +1 or +3 modulo 10 from 0: 1 and 3, then 2, 4 and 6, then 5, 7 and 9, then 8.
/// let sweep = layers::forward_hashed(&Counter, 0, options, &mut |_, _| {});
/// assert_eq!(sweep.histogram, [1, 2, 3, 3, 1]);
/// ```
pub fn forward_hashed<P: StateSpace + ?Sized>(
    space: &P,
    start: P::State,
    options: Options,
    on_layer: &mut dyn FnMut(u32, u64),
) -> Layers<P::State> {
    sweep_hashed(space, &[start], options, on_layer)
}

/// Backward from every goal at once, with a hash set: `histogram[d]` counts the states whose
/// fewest moves to a goal is `d` (moves are [`Invertible`], so this is [`forward_hashed`] from
/// the goal set). For spaces with goals but no dense index: `explore` on a puzzle whose index
/// does not fit 64 bits (the 3x3x3, the 6x6x6) sweeps from the solved state this way, as far as
/// the memory budget allows, like twsearch's `-g`. Arguments as in [`forward`](super::forward).
///
/// ```
/// use statespace::toys::{Lights, LightsGoal};
/// use statespace::search::layers;
/// use statespace::limit::Limits;
/// let flip = Lights::new(2, 2, false, LightsGoal::Uniform);
/// let limits = Limits::default();
/// let options = layers::Options { limits: &limits, threads: None };
/// // Both uniform boards at 0; the 16 boards in all.
/// let sweep = layers::backward_hashed(&flip, options, &mut |_, _| {});
/// assert_eq!(sweep.histogram.iter().sum::<u64>(), 16);
/// assert_eq!(sweep.histogram[0], 2);
/// ```
pub fn backward_hashed<P: Invertible + GoalSet + ?Sized>(
    space: &P,
    options: Options,
    on_layer: &mut dyn FnMut(u32, u64),
) -> Layers<P::State> {
    let mut goals = Vec::new();
    space.goals(&mut |goal| goals.push(goal));
    sweep_hashed(space, &goals, options, on_layer)
}

/// The sweep from `sources` (depth 0; repeats count once).
fn sweep_hashed<P: StateSpace + ?Sized>(
    space: &P,
    sources: &[P::State],
    options: Options,
    on_layer: &mut dyn FnMut(u32, u64),
) -> Layers<P::State> {
    let limits = options.limits;
    let latch = Latch::new(limits);
    let mut ticker = latch.ticker();
    let state_bytes = std::mem::size_of::<P::State>() as u128;
    let mut seen = HashVisited::default();
    let mut frontier: Vec<P::State> = sources
        .iter()
        .copied()
        .filter(|&s| seen.insert(s))
        .collect();
    let mut next = Vec::new();
    let mut result = Layers {
        histogram: Vec::new(),
        farthest: None,
        stopped: None,
        stats: Stats::default(),
        threads: 1,
        memory_bytes: 0,
    };
    let mut stats = Stats::default();
    let mut peak = 0u128;
    loop {
        result.histogram.push(frontier.len() as u64);
        result.farthest = frontier.first().copied();
        stats.visited += frontier.len() as u64;
        stats.peak_frontier = stats.peak_frontier.max(frontier.len() as u64);
        on_layer(stats.depth, stats.visited);
        if let Some(max) = limits.max_states
            && stats.visited > max
        {
            result.stopped = Some(Limit::States(max));
            break;
        }
        if limits.max_depth == Some(stats.depth + 1) {
            // The last layer is counted, not stored (`last_layer.rs`).
            let held = seen.bytes() as u128
                + (frontier.capacity() + next.capacity()) as u128 * state_bytes;
            let mut generated = 0;
            let last = last_layer::count(
                space,
                &frontier,
                &seen,
                held,
                limits,
                &mut ticker,
                &mut generated,
            );
            stats.generated += generated;
            match last {
                Err(limit) => result.stopped = Some(limit),
                Ok(last) => {
                    peak = peak.max(held + last.bytes);
                    stats.expanded += frontier.len() as u64;
                    if last.states > 0 {
                        stats.depth += 1;
                        result.histogram.push(last.states);
                        result.farthest = last.first;
                        stats.visited += last.states;
                        stats.peak_frontier = stats.peak_frontier.max(last.states);
                        on_layer(stats.depth, stats.visited);
                        result.stopped = match limits.max_states {
                            Some(max) if stats.visited > max => Some(Limit::States(max)),
                            _ => last.more.then_some(Limit::Depth(stats.depth)),
                        };
                    }
                }
            }
            break;
        }
        let mut stopped = None;
        let mut generated = 0u64;
        // At the depth limit the next layer is only asked whether it is empty (a sweep that
        // ends there is complete, not cut): the first new state stops it, and nothing is stored
        // (on a 6x6x6, the layer past depth 3 is 4 million states of 256 bytes).
        let last = limits.max_depth.is_some_and(|max| stats.depth >= max);
        for (done, &state) in frontier.iter().enumerate() {
            space.successors(state, &mut |_, successor| {
                generated += 1;
                if stopped.is_some() {
                    return;
                }
                if last {
                    stopped = match ticker.tick(generated) {
                        Err(limit) => Some(limit),
                        Ok(()) => (!seen.contains(&successor)).then_some(Limit::Depth(stats.depth)),
                    };
                    return;
                }
                // What the set and the lists hold once this successor is in: a full one moves
                // to twice its size, both copies live while it moves.
                let next_cap = match next.len() == next.capacity() {
                    true => next.capacity() * 3 + 4,
                    false => next.capacity(),
                };
                let lists = (frontier.capacity() + next_cap) as u128 * state_bytes;
                let needed = seen.bytes_after_insert() as u128 + lists;
                peak = peak.max(needed);
                match ticker.tick(generated).and(limits.check_memory(needed)) {
                    // The refusal names what the whole layer needs, not the growth that
                    // crossed the budget (which is the budget give or take a state).
                    Err(Limit::Memory { needed, budget }) => {
                        let per_state = generated.div_ceil(done as u64 + 1) as u128;
                        let layer =
                            next.len() as u128 + (frontier.len() - done) as u128 * per_state;
                        let whole = set_bytes(seen.len() as u128 + layer, state_bytes)
                            + (frontier.len() as u128 + layer * 3 / 2) * state_bytes;
                        stopped = Some(Limit::Memory {
                            needed: needed.max(whole),
                            budget,
                        });
                    }
                    Err(limit) => stopped = Some(limit),
                    Ok(()) => {
                        if seen.insert(successor) {
                            next.push(successor);
                        }
                    }
                }
            });
            if stopped.is_some() {
                break;
            }
        }
        stats.generated += generated;
        if stopped.is_some() {
            result.stopped = stopped;
            break;
        }
        stats.expanded += frontier.len() as u64;
        if next.is_empty() {
            break;
        }
        if limits.max_depth.is_some_and(|max| stats.depth >= max) {
            result.stopped = Some(Limit::Depth(stats.depth));
            break;
        }
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
        stats.depth += 1;
    }
    stats.elapsed = latch.elapsed();
    result.stats = stats;
    result.memory_bytes = peak.min(u64::MAX as u128) as u64;
    result
}

/// Bytes of a hash set of `states` states of `state_bytes` each, as it grows to hold them: the
/// buckets at 7/8 full, a control byte each, and the half-size table it moved out of.
fn set_bytes(states: u128, state_bytes: u128) -> u128 {
    let buckets = (states * 8 / 7).max(1).next_power_of_two();
    buckets * (state_bytes + 1) * 3 / 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limit::Limits;
    use crate::search::layers::forward;
    use crate::toys::{Lights, LightsGoal};

    #[test]
    fn the_hash_set_sweep_counts_what_the_bitset_sweep_counts() {
        let limits = Limits::default();
        let options = Options {
            limits: &limits,
            threads: Some(1),
        };
        for (rows, cols) in [(2, 3), (3, 3), (3, 4)] {
            let space = Lights::new(rows, cols, false, LightsGoal::Uniform);
            for start in [0, 0b101, 0b110_011] {
                let bits = forward(&space, start, options, &mut |_, _| {});
                let hashed = forward_hashed(&space, start, options, &mut |_, _| {});
                assert_eq!(
                    hashed.histogram, bits.histogram,
                    "{rows} x {cols} from {start}"
                );
                assert_eq!(hashed.stats.generated, bits.stats.generated);
                assert_eq!(hashed.stats.expanded, bits.stats.expanded);
                assert_eq!(hashed.stats.visited, bits.stats.visited);
                // The farthest state is as far from the start as the last layer.
                let mut distance = std::collections::HashMap::from([(start, 0)]);
                let mut queue = std::collections::VecDeque::from([start]);
                while let Some(s) = queue.pop_front() {
                    let d = distance[&s];
                    space.successors(s, &mut |_, t| {
                        distance.entry(t).or_insert_with(|| {
                            queue.push_back(t);
                            d + 1
                        });
                    });
                }
                let farthest = hashed.farthest.unwrap();
                assert_eq!(distance[&farthest], hashed.histogram.len() - 1);
            }
        }
    }

    #[test]
    fn limits_stop_it_with_the_layers_completed() {
        let space = Lights::new(4, 4, false, LightsGoal::Uniform);
        let limits = Limits {
            memory_budget: 4096,
            ..Limits::default()
        };
        let options = Options {
            limits: &limits,
            threads: None,
        };
        let sweep = forward_hashed(&space, 0, options, &mut |_, _| {});
        assert!(matches!(sweep.stopped, Some(Limit::Memory { .. })));
        assert_eq!(sweep.histogram[..2], [1, 16]);
        let limits = Limits {
            max_depth: Some(2),
            ..Limits::default()
        };
        let options = Options {
            limits: &limits,
            threads: None,
        };
        let sweep = forward_hashed(&space, 0, options, &mut |_, _| {});
        assert_eq!(sweep.histogram, [1, 16, 120]);
        assert_eq!(sweep.stopped, Some(Limit::Depth(2)));
    }
}
