//! The last layer of a depth-limited hash-set sweep, counted without storing its states.
//!
//! Why it exists: a shallow count of a big puzzle (`explore --max-depth 3` on twsearch's
//! 20x20x20) keeps few states in its first layers (27 thousand to depth 2) and millions in the
//! last (3.9 million at depth 3, of 4 KiB each: 16 GiB as states). The last layer is only
//! counted, never expanded, so its states need not be kept; only told apart.
//!
//! How: every successor of the frontier that no earlier layer holds is kept as an entry of 16
//! bytes, its hash, its parent's place in the frontier and its place among the parent's
//! successors ([`StateSpace::nth_successor`] makes it again). Sorted by hash, an entry whose hash
//! no other has is a state of its own; entries that share a hash are made again and compared,
//! and each distinct state among them counts once. The hash only groups: equality decides, so
//! the count is exact whatever the hash does.
//!
//! Whether the layer past it is empty (a sweep that ends exactly at the limit is complete, not
//! cut) is asked as the other layers ask it: a successor of the layer's states that is neither
//! in an earlier layer nor in the layer (looked up by its hash among the sorted entries, then
//! compared), stopping at the first.
//!
//! Trade-offs: 16 bytes per successor generated, repeats included, where a set costs about three
//! widths of a state per distinct state (the 20x20x20 to depth 3: 77 MiB for the last layer
//! instead of about 40 GiB); one more move made per entry whose hash repeats (most repeats are
//! one state reached by moves that commute), and a sort.

use crate::limit::{Limit, Limits, Ticker};
use crate::search::visited::HashVisited;
use crate::space::StateSpace;
use std::hash::BuildHasher;

/// One successor of the frontier (see the module docs).
#[derive(Clone, Copy)]
struct Entry {
    hash: u64,
    parent: u32,
    nth: u32,
}

/// Bytes of an [`Entry`]: what the last layer costs per successor generated.
pub(super) const ENTRY_BYTES: u128 = std::mem::size_of::<Entry>() as u128;

/// What counting the last layer found.
pub(super) struct LastLayer<S> {
    /// Its distinct states.
    pub(super) states: u64,
    /// The first of them found (the sweep's farthest state).
    pub(super) first: Option<S>,
    /// Whether some state lies past it (then the depth limit cut the sweep).
    pub(super) more: bool,
    /// Bytes of its entries at their largest.
    pub(super) bytes: u128,
}

/// Counts the states one move past `frontier` that `seen` (every earlier layer, the frontier's
/// included) does not hold. `held`: the bytes the sweep holds already, counted with the
/// entries against the budget. `generated` counts the successors looked at, through `ticker`
/// (the time limit and Ctrl-C); an `Err` is the limit that stopped it, the layer unfinished.
pub(super) fn count<P: StateSpace + ?Sized>(
    space: &P,
    frontier: &[P::State],
    seen: &HashVisited<P::State>,
    held: u128,
    limits: &Limits,
    ticker: &mut Ticker,
    generated: &mut u64,
) -> Result<LastLayer<P::State>, Limit> {
    let hasher = hashbrown::DefaultHashBuilder::default();
    let mut entries: Vec<Entry> = Vec::new();
    let mut first = None;
    let mut stopped = None;
    // Successors of the first parent: the layer's size is bounded by this many per parent
    // when a refusal must name it before the first parent is expanded.
    let mut fan = 0u64;
    if let Some(&state) = frontier.first() {
        space.successors(state, &mut |_, _| fan += 1);
    }
    for (parent, &state) in frontier.iter().enumerate() {
        let mut nth = 0u32;
        space.successors(state, &mut |_, successor| {
            *generated += 1;
            nth += 1;
            if stopped.is_some() || seen.contains(&successor) {
                return;
            }
            if entries.len() == entries.capacity() {
                // A vector grows by doubling, the old and the new buffer live together.
                let grown = (entries.capacity() * 2).max(1024) + entries.capacity();
                let needed = held + grown as u128 * ENTRY_BYTES;
                if let Err(Limit::Memory { budget, .. }) = limits.check_memory(needed) {
                    // The refusal names what the whole layer needs: an entry for each
                    // successor still to come too (as many per parent as so far).
                    let per_parent = fan.max(*generated / (parent as u64 + 1)) as u128;
                    let bound =
                        entries.len() as u128 + (frontier.len() - parent) as u128 * per_parent;
                    let whole = held + bound * ENTRY_BYTES * 3 / 2;
                    stopped = Some(Limit::Memory {
                        needed: needed.max(whole),
                        budget,
                    });
                    return;
                }
            }
            first.get_or_insert(successor);
            entries.push(Entry {
                hash: hasher.hash_one(successor),
                parent: parent as u32,
                nth: nth - 1,
            });
        });
        if stopped.is_none() {
            stopped = ticker.tick(*generated).err();
        }
        if let Some(limit) = stopped {
            return Err(limit);
        }
    }
    let bytes = entries.capacity() as u128 * ENTRY_BYTES;
    entries.sort_unstable_by_key(|e| e.hash);
    let make = |e: &Entry| {
        space
            .nth_successor(frontier[e.parent as usize], e.nth as usize)
            .expect("successors are deterministic: the n-th successor is made again")
    };
    let mut states = 0u64;
    let mut distinct = Vec::new();
    for run in entries.chunk_by(|a, b| a.hash == b.hash) {
        if let [_] = run {
            states += 1;
            continue;
        }
        distinct.clear();
        for e in run {
            let state = make(e);
            if !distinct.contains(&state) {
                distinct.push(state);
            }
        }
        states += distinct.len() as u64;
        *generated += run.len() as u64;
        ticker.tick(*generated)?;
    }
    // A state past the layer: in no earlier layer and not in this one.
    let in_layer = |state: P::State| {
        let hash = hasher.hash_one(state);
        let from = entries.partition_point(|e| e.hash < hash);
        entries[from..]
            .iter()
            .take_while(|e| e.hash == hash)
            .any(|e| make(e) == state)
    };
    let mut more = false;
    for e in &entries {
        more = space.any_successor(make(e), &mut |successor| {
            *generated += 1;
            !seen.contains(&successor) && !in_layer(successor)
        });
        ticker.tick(*generated)?;
        if more {
            break;
        }
    }
    Ok(LastLayer {
        states,
        first,
        more,
        bytes,
    })
}

#[cfg(test)]
mod tests {
    use crate::limit::{Limit, Limits};
    use crate::search::layers::{Options, forward, forward_hashed};
    use crate::space::StateSpace;
    use crate::toys::{Counter, Lights, LightsGoal};

    /// Every depth limit, up to past the last layer: the counted last layer is the layer the
    /// bitset sweep stores, and the sweep is cut exactly when a layer lies past the limit.
    #[test]
    fn the_counted_last_layer_is_the_stored_one_at_every_depth_limit() {
        for (rows, cols) in [(2, 3), (3, 3), (3, 4)] {
            let space = Lights::new(rows, cols, false, LightsGoal::Uniform);
            let limits = Limits::default();
            let options = Options {
                limits: &limits,
                threads: Some(1),
            };
            for start in [0, 0b101, 0b110_011] {
                let whole = forward(&space, start, options, &mut |_, _| {}).histogram;
                for depth in 0..whole.len() as u32 + 2 {
                    let limits = Limits {
                        max_depth: Some(depth),
                        ..Limits::default()
                    };
                    let options = Options {
                        limits: &limits,
                        threads: Some(1),
                    };
                    let sweep = forward_hashed(&space, start, options, &mut |_, _| {});
                    let end = whole.len().min(depth as usize + 1);
                    assert_eq!(
                        sweep.histogram,
                        whole[..end],
                        "{rows} x {cols}, depth {depth}"
                    );
                    let cut = (depth as usize) < whole.len() - 1;
                    assert_eq!(sweep.stopped, cut.then_some(Limit::Depth(depth)));
                    assert_eq!(sweep.stats.visited, whole[..end].iter().sum::<u64>());
                    // The farthest state lies in the last layer: a BFS by hand finds it there
                    // and in no layer before.
                    let farthest = sweep.farthest.unwrap();
                    let mut layer = vec![start];
                    let mut seen = std::collections::HashSet::from([start]);
                    for _ in 1..end {
                        assert!(!layer.contains(&farthest));
                        let mut next = Vec::new();
                        for &s in &layer {
                            space.successors(s, &mut |_, t| {
                                if seen.insert(t) {
                                    next.push(t);
                                }
                            });
                        }
                        layer = next;
                    }
                    assert!(layer.contains(&farthest), "depth {depth}");
                }
            }
        }
    }

    /// A space whose states repeat often (+1 or +3 modulo 10): many entries share a state.
    #[test]
    fn repeated_states_count_once() {
        let limits = Limits {
            max_depth: Some(3),
            ..Limits::default()
        };
        let options = Options {
            limits: &limits,
            threads: None,
        };
        let sweep = forward_hashed(&Counter, 0, options, &mut |_, _| {});
        assert_eq!(sweep.histogram, [1, 2, 3, 3]);
        assert_eq!(sweep.stopped, Some(Limit::Depth(3)));
    }

    /// Over the budget, the refusal names what the whole layer needs (more than the budget),
    /// and the layers before it stay.
    #[test]
    fn a_last_layer_over_the_budget_names_its_need() {
        let space = Lights::new(4, 4, false, LightsGoal::Uniform);
        let limits = Limits {
            max_depth: Some(4),
            memory_budget: 24 << 10,
            ..Limits::default()
        };
        let options = Options {
            limits: &limits,
            threads: None,
        };
        let sweep = forward_hashed(&space, 0, options, &mut |_, _| {});
        let Some(Limit::Memory { needed, budget }) = sweep.stopped else {
            panic!("{:?}", sweep.stopped)
        };
        assert_eq!(budget, 24 << 10);
        // 560 states at depth 3, 16 moves each: an entry of 16 bytes per successor.
        assert!(needed > 560 * 16 * 16, "{needed}");
        assert_eq!(sweep.histogram, [1, 16, 120, 560]);
    }
}
