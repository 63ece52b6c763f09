//! The level loop every strategy shares ([`run`], [`run_each`]), and what a strategy plugs
//! into it.
//!
//! A strategy ([`PerState`](super::per_state::PerState), [`XorWords`](super::XorWords),
//! [`SplitTables`](super::split::SplitTables)) is one [`Advance`]: it turns the [`Bitsets`]'
//! `frontier` into `next`, adds it to `visited` and counts it ([`Merged`]); the loop does the
//! rest, the same for all: the memory check before anything is allocated, the sources at depth
//! 0, the histogram and the farthest state, the limits between layers, the swap of `frontier`
//! and `next`.
//!
//! The strategies share the pieces below too: work cut into chunks on the run's pool
//! ([`over_chunks`], [`zip_chunks`], [`pool_for`]), ORs into a `next` other threads write
//! ([`as_atomic`], [`or_into`]), and the merge pass that ends a pushed layer ([`merge`]).

use super::{CHUNK_WORDS, EachLayer, Layers, Options, memory_needed, threads_for};
use crate::limit::{Latch, Limit};
use crate::search::Stats;
use crate::space::Indexed;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The three bitsets, one bit per index, `u64` words.
pub(super) struct Bitsets {
    pub(super) frontier: Vec<u64>,
    pub(super) next: Vec<u64>,
    pub(super) visited: Vec<u64>,
}

impl Bitsets {
    /// Whether a layer over `size` states should pull (each unvisited state looks for a
    /// neighbour in the frontier) rather than push: once the frontier holds more than half of
    /// the unvisited states (Beamer's direction-optimising rule). Exact only backward, where
    /// the neighbours are the predecessors.
    pub(super) fn pulls(&self, size: u64) -> bool {
        let count = |words: &[u64]| words.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        2 * count(&self.frontier) > size - count(&self.visited)
    }
}

/// The bitsets as a chunk of work of a block strategy sees them: `next` shared with the other
/// chunks (atomic ORs when threads run).
#[derive(Clone, Copy)]
pub(super) struct Sets<'a> {
    pub(super) frontier: &'a [u64],
    pub(super) visited: &'a [u64],
    pub(super) next: &'a [AtomicU64],
}

/// One layer's step: the part the strategies differ in.
pub(super) trait Advance: Sync {
    /// Fills `next` with the successors of `frontier` that are not in `visited` and adds them to
    /// `visited`; returns their count and lowest index, and the successors generated. `None`
    /// when `latch` stopped it part-way (the sets are then not a layer).
    fn advance(
        &self,
        sets: &mut Bitsets,
        pool: Option<&rayon::ThreadPool>,
        latch: &Latch,
    ) -> Option<Merged>;
}

/// What one layer found: its size and lowest index, and the successors generated to find it.
#[derive(Clone, Copy, Default)]
pub(in crate::search) struct Merged {
    pub(in crate::search) count: u64,
    pub(in crate::search) lowest: Option<u64>,
    pub(in crate::search) generated: u64,
}

impl Merged {
    /// Counts the new states `fresh` of word `word`.
    #[inline(always)]
    pub(in crate::search) fn add(&mut self, word: usize, fresh: u64) {
        if fresh != 0 {
            self.count += fresh.count_ones() as u64;
            self.lowest
                .get_or_insert((word as u64) << 6 | fresh.trailing_zeros() as u64);
        }
    }
}

impl std::iter::Sum for Merged {
    fn sum<I: Iterator<Item = Merged>>(parts: I) -> Merged {
        parts.fold(Merged::default(), |a, b| Merged {
            count: a.count + b.count,
            lowest: match (a.lowest, b.lowest) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            },
            generated: a.generated + b.generated,
        })
    }
}

/// The sweep every strategy shares. `sources` are indices (depth 0; repeats count once).
pub(super) fn run<P: Indexed, A: Advance>(
    space: &P,
    sources: &[u64],
    strategy: &A,
    options: Options,
    on_layer: &mut dyn FnMut(u32, u64),
) -> Layers<P::State> {
    let latch = Latch::new(options.limits);
    let each = &mut |_, _: &[u64]| Ok(());
    run_each(space, sources, strategy, options, &latch, on_layer, each)
}

/// [`run`], also lending each completed layer's bitset to `each` (see
/// [`xor_backward_each`](super::xor_backward_each)), under the run's `latch` (its clock started
/// with the run: `stats.elapsed` counts from it).
pub(super) fn run_each<P: Indexed, A: Advance>(
    space: &P,
    sources: &[u64],
    strategy: &A,
    options: Options,
    latch: &Latch,
    on_layer: &mut dyn FnMut(u32, u64),
    each: EachLayer,
) -> Layers<P::State> {
    let limits = options.limits;
    let threads = threads_for(space.size(), options.threads).max(1);
    let needed = memory_needed(space);
    let mut result = Layers {
        histogram: Vec::new(),
        farthest: None,
        stopped: None,
        stats: Stats::default(),
        threads,
        memory_bytes: 0,
    };
    // A size past the address space is over any budget too.
    let words = limits.check_memory(needed).and_then(|()| {
        usize::try_from(space.size().div_ceil(64)).map_err(|_| Limit::Memory {
            needed,
            budget: limits.memory_budget,
        })
    });
    let words = match words {
        Ok(words) => words,
        Err(limit) => return Layers::not_started(limit, threads, latch.elapsed()),
    };
    result.memory_bytes = needed as u64;
    let pool = pool_for(threads);
    result.threads = if pool.is_some() { threads } else { 1 };

    // vec![0; n] asks the allocator for zeroed pages: untouched words cost nothing until used.
    let mut sets = Bitsets {
        frontier: vec![0; words],
        next: vec![0; words],
        visited: vec![0; words],
    };
    let mut layer = Merged::default();
    for &index in sources {
        let (word, bit) = ((index >> 6) as usize, 1u64 << (index & 63));
        if sets.visited[word] & bit == 0 {
            sets.visited[word] |= bit;
            sets.frontier[word] |= bit;
            layer.count += 1;
            layer.lowest = Some(layer.lowest.map_or(index, |i| i.min(index)));
        }
    }
    let mut stats = Stats::default();
    loop {
        result.histogram.push(layer.count);
        result.farthest = layer.lowest.map(|i| space.state(i));
        stats.visited += layer.count;
        stats.peak_frontier = stats.peak_frontier.max(layer.count);
        on_layer(stats.depth, stats.visited);
        if let Err(limit) = each(stats.depth, &sets.frontier) {
            result.stopped = Some(limit);
            break;
        }

        if let Some(max) = limits.max_states
            && stats.visited > max
        {
            result.stopped = Some(Limit::States(max));
            break;
        }
        let Some(found) = strategy.advance(&mut sets, pool.as_ref(), latch) else {
            result.stopped = latch.reason();
            break;
        };
        stats.expanded += layer.count;
        stats.generated += found.generated;
        if found.count == 0 {
            break;
        }
        // Checked after the next layer is known: a sweep that ends exactly at the depth limit is
        // complete, not cut.
        if limits.max_depth.is_some_and(|max| stats.depth >= max) {
            result.stopped = Some(Limit::Depth(stats.depth));
            break;
        }
        layer = found;
        std::mem::swap(&mut sets.frontier, &mut sets.next);
        stats.depth += 1;
    }
    stats.elapsed = latch.elapsed();
    result.stats = stats;
    result
}

impl<S> Layers<S> {
    /// A sweep that stopped before its first layer.
    pub(super) fn not_started(limit: Limit, threads: usize, elapsed: std::time::Duration) -> Self {
        Layers {
            histogram: Vec::new(),
            farthest: None,
            stopped: Some(limit),
            stats: Stats {
                elapsed,
                ..Stats::default()
            },
            threads,
            memory_bytes: 0,
        }
    }
}

/// A pool of `threads` workers, none for one. A pool that cannot start (no threads left) is not
/// worth failing over: the run goes on this thread.
pub(super) fn pool_for(threads: usize) -> Option<rayon::ThreadPool> {
    (threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
        })
        .flatten()
}

/// Runs `job` on every chunk of `size` items of `0..items`, on the pool when there is one; sums
/// the results.
pub(super) fn over_chunks<R: Send + std::iter::Sum<R>>(
    pool: Option<&rayon::ThreadPool>,
    items: usize,
    size: usize,
    job: impl Fn(Range<usize>) -> R + Sync,
) -> R {
    let chunk = |c: usize| c * size..((c + 1) * size).min(items);
    let chunks = items.div_ceil(size);
    match pool {
        None => (0..chunks).map(|c| job(chunk(c))).sum(),
        Some(pool) => pool.install(|| (0..chunks).into_par_iter().map(|c| job(chunk(c))).sum()),
    }
}

/// Runs `job(first word, a chunk, b chunk)` on matching chunks of `a` and `b`, on the pool when
/// there is one; sums the results.
pub(super) fn zip_chunks<R: Send + std::iter::Sum<R>>(
    pool: Option<&rayon::ThreadPool>,
    a: &mut [u64],
    b: &mut [u64],
    job: impl Fn(usize, &mut [u64], &mut [u64]) -> R + Sync,
) -> R {
    let a = a.chunks_mut(CHUNK_WORDS);
    let b = b.chunks_mut(CHUNK_WORDS);
    let job = |(c, (a, b)): (usize, (&mut [u64], &mut [u64]))| job(c * CHUNK_WORDS, a, b);
    match pool {
        None => a.zip(b).enumerate().map(job).sum(),
        Some(pool) => pool.install(|| {
            let a = a.collect::<Vec<_>>().into_par_iter();
            let b = b.collect::<Vec<_>>().into_par_iter();
            a.zip(b).enumerate().map(job).sum()
        }),
    }
}

/// ORs `bits` into `word`, touching it only when some bit is new: late in a search most
/// successors are old, and a load is much cheaper than an atomic OR.
#[inline(always)]
pub(super) fn or_into<const SHARED: bool>(word: &AtomicU64, bits: u64) {
    let old = word.load(Relaxed);
    if bits & !old != 0 {
        if SHARED {
            word.fetch_or(bits, Relaxed);
        } else {
            word.store(old | bits, Relaxed);
        }
    }
}

/// Views `words` as atomics, so that threads can OR into a shared bitset.
pub(super) fn as_atomic(words: &mut [u64]) -> &[AtomicU64] {
    const { assert!(std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>()) };
    // SAFETY: AtomicU64 has the size and bit validity of u64 and (asserted above) its alignment;
    // the exclusive borrow guarantees no non-atomic access while the view lives.
    unsafe { &*(words as *mut [u64] as *const [AtomicU64]) }
}

/// The end of a pushed layer: adds `next` (states not visited before) to `visited`, counts it,
/// and clears `frontier`.
pub(super) fn merge(
    pool: Option<&rayon::ThreadPool>,
    sets: &mut Bitsets,
    generated: u64,
) -> Merged {
    let Bitsets {
        frontier,
        next,
        visited,
    } = sets;
    let mut merged = zip_chunks(pool, next, visited, |first, next, visited| {
        let mut merged = Merged::default();
        for (i, (fresh, seen)) in next.iter().zip(visited.iter_mut()).enumerate() {
            merged.add(first + i, *fresh);
            *seen |= *fresh;
        }
        merged
    });
    frontier.fill(0);
    merged.generated = generated;
    merged
}
