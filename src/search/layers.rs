//! Level-synchronous bitset BFS over a whole indexed space: how many states lie at each distance.
//!
//! Where [`bfs`](super::bfs) looks for one path, this engine sweeps everything reachable and
//! counts it by depth (the histogram), keeping no path and no per-state record beyond bits.
//!
//! # Layout
//!
//! Three bitsets over the dense index ([`Indexed`]), each `size / 8` bytes, allocated once:
//!
//! - `frontier`: the states at depth `d`;
//! - `next`: the states found at depth `d + 1` (only ones not yet visited);
//! - `visited`: every state at depth `<= d`.
//!
//! A layer turns `frontier` into `next` (only states not yet visited), adds `next` to
//! `visited`, counts it (popcount) and notes its lowest index; then `frontier` and `next` swap.
//! Nothing is allocated per state, the memory is known before the run (and checked against
//! [`Limits::memory_budget`] before anything is allocated), and words are scanned in index order.
//!
//! # Three strategies
//!
//! | entry points | needs | a layer |
//! |---|---|---|
//! | [`forward`], [`backward`] | [`Indexed`] (+ [`Invertible`] + [`GoalSet`] backward) | **push**, one state at a time: each frontier state's [`successors`](crate::space::StateSpace::successors) set their bits in `next`; a merge pass adds `next` to `visited` |
//! | [`xor_forward`], [`xor_backward`] | [`XorMoves`] (+ [`GoalSet`] backward) | **pull**, a 64-bit word of states per move: `next[t]` is the OR of the frontier words that reach word `t`, minus `visited[t]` |
//! | [`split_backward`] | [`SplitMoves`] + [`Invertible`] + [`GoalSet`] | a **block** of the states that share the index's high part at a time, from two move tables; push while the frontier is small, pull (each unvisited state looks for a neighbour in the frontier, stopping at the first) once it is large |
//!
//! With [`SplitMoves`] (permutation puzzles: pieces' places times slots' twists), `high_k` and
//! `low_k` are tabulated once, and a successor costs one look-up in a table of `L * moves`
//! entries and one bit, instead of an unrank, a move and a rank: for the 2x2x2 with all six faces,
//! about 60 times less CPU than the per-state push (1.7-2.1 s against 112 s; BENCHMARKS.md). Its module (`split.rs`) has
//! the details and the direction rule.
//!
//! With [`XorMoves`], a move XORs the index with a mask `m`: the 64 states of word `w` land in
//! word `w ^ (m >> 6)`, bit `i` going to bit `i ^ (m & 63)`. That permutation is a butterfly:
//! for each set bit `k` of `m & 63`, swap neighbouring blocks of `2^k` bits (two shifts, two
//! masks). An XOR undoes itself, so the same formula gives the *predecessors* of a word, and the
//! engine computes each word of `next` from its sources (pull) instead of scattering each
//! frontier word to its targets (push): no atomics, no random read-modify-write, no merge pass.
//! It pays by computing every word every layer, dense or sparse, but skips frontier blocks that
//! are empty. Rust has no specialisation, so the caller picks: the `xor_` functions when the
//! space implements [`XorMoves`], the others for any indexed space. Both give the same
//! histogram (tested); for Flip 5 x 5 the word strategy is about 8 times faster (BENCHMARKS.md).
//!
//! # Threads
//!
//! A layer's words are cut into chunks of [`CHUNK_WORDS`], spread over a rayon pool. Pull and
//! merge write only their own chunk. Push writes anywhere in `next`, so with more than one thread
//! its writes are atomic ORs (skipped when the bits are already set, most of the time late in a
//! search); with one thread they are plain loads and stores. Sets do not depend on the order bits
//! were set in, so every thread count gives the same histogram, example state and stats.
//!
//! # Limits
//!
//! The time limit and Ctrl-C are polled through the run's [`Latch`], shared by the threads: at
//! the start of every chunk, and within a chunk by a [`Ticker`](super::Ticker) counting the
//! successors generated (a chunk of states with hundreds of moves each is seconds of work), so
//! a run stops within a fraction of a second; the layers completed by then are exact and
//! reported, the interrupted one is dropped. `max_depth` ends the run after that many layers,
//! `max_states` after the layer that passes it.
//!
//! # Trade-offs
//!
//! Memory is `3 * size / 8` bytes however little is reachable: 12 MiB for the 2^25 boards of
//! Flip 5 x 5, 24 GiB for 2^36, so the engine suits spaces where a good share is reachable and
//! `size` fits the budget. Every layer scans every word of the space; that is cheap next to
//! expansion when layers are thick, but makes long thin searches (many layers, few states each)
//! slower than a queue-based BFS.

use super::{Latch, Limit, Limits, Stats};
use crate::space::{GoalSet, Indexed, Invertible, SplitMoves, XorMoves};
use rayon::prelude::*;
use split::SplitTables;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Words per unit of work. Small enough that chunks balance across threads (and that a chunk of
/// the word strategy, which polls once per chunk, takes well under a millisecond); large enough
/// that scheduling them costs nothing next to the work.
pub const CHUNK_WORDS: usize = 1024;

mod split;

/// Spaces of at least this many states use every available thread unless told otherwise; below,
/// a layer is too little work to share (starting the pool costs more than it saves).
pub const PARALLEL_THRESHOLD: u128 = 1 << 20;

/// How a run is bounded and how many threads it may use.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// Time, Ctrl-C, depth, states and the memory budget (checked before allocating).
    pub limits: &'a Limits,
    /// Worker threads. `None`: all available for spaces of at least [`PARALLEL_THRESHOLD`]
    /// states, one below.
    pub threads: Option<usize>,
}

/// What a sweep found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layers<S> {
    /// `histogram[d]`: states first reached at depth `d`, for every completed layer. Their sum is
    /// `stats.visited`; the last index is `stats.depth`.
    pub histogram: Vec<u64>,
    /// The state of lowest index in the deepest completed layer (`None` when nothing ran).
    pub farthest: Option<S>,
    /// `None` when everything reachable was found; else the limit that stopped the run (the
    /// histogram then holds the layers completed before it).
    pub stopped: Option<Limit>,
    /// `expanded`: states of completed layers expanded; `generated`: successors looked at;
    /// `visited`: states found; `peak_frontier`: the largest layer; `depth`: the deepest layer.
    pub stats: Stats,
    /// The threads the run used.
    pub threads: usize,
    /// Bytes of the three bitsets (what the memory check compared against the budget).
    pub memory_bytes: u64,
}

impl<S> Layers<S> {
    /// A sweep that stopped before its first layer.
    fn not_started(limit: Limit, threads: usize, elapsed: std::time::Duration) -> Self {
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

/// Forward from `start` over any indexed space, one state at a time.
///
/// - `space`: the graph; its [`Indexed::size`] sets the memory (three bits per state).
/// - `start`: depth 0.
/// - `options`: limits and threads.
/// - `on_layer(depth, states found so far)`: called after each completed layer (progress).
///
/// ```
/// use statespace::toys::{Lights, LightsGoal};
/// use statespace::search::{Limits, layers};
/// let flip = Lights::new(2, 2, false, LightsGoal::Uniform);
/// let limits = Limits::default();
/// let options = layers::Options { limits: &limits, threads: Some(1) };
/// let sweep = layers::forward(&flip, 0, options, &mut |_, _| {});
/// // 2 x 2: the 4 presses are independent, so all 16 boards; C(4, d) at distance d.
/// assert_eq!(sweep.histogram, vec![1, 4, 6, 4, 1]);
/// ```
pub fn forward<P: Indexed + Sync>(
    space: &P,
    start: P::State,
    options: Options,
    on_layer: &mut dyn FnMut(u32, u64),
) -> Layers<P::State> {
    let sources = [space.index(start)];
    run(space, &sources, &PerState { space }, options, on_layer)
}

/// Backward from every goal at once, one state at a time: `histogram[d]` counts the states whose
/// fewest moves to a goal is `d`. Predecessors are successors because moves are
/// [`Invertible`], so this is [`forward`] from the goal set. Arguments as in [`forward`].
pub fn backward<P: Indexed + Invertible + GoalSet + Sync>(
    space: &P,
    options: Options,
    on_layer: &mut dyn FnMut(u32, u64),
) -> Layers<P::State> {
    let sources = goal_indices(space);
    run(space, &sources, &PerState { space }, options, on_layer)
}

/// [`forward`], a 64-bit word of states per move (see the module docs).
pub fn xor_forward<P: XorMoves + Sync>(
    space: &P,
    start: P::State,
    options: Options,
    on_layer: &mut dyn FnMut(u32, u64),
) -> Layers<P::State> {
    let sources = [space.index(start)];
    run(space, &sources, &XorWords::new(space), options, on_layer)
}

/// [`backward`], a 64-bit word of states per move. An XOR undoes itself, so no
/// [`Invertible`] is needed.
///
/// ```
/// use statespace::toys::{Lights, LightsGoal};
/// use statespace::search::{Limits, layers};
/// let flip = Lights::new(4, 4, false, LightsGoal::Uniform);
/// let limits = Limits::default();
/// let options = layers::Options { limits: &limits, threads: None };
/// let sweep = layers::xor_backward(&flip, options, &mut |_, _| {});
/// assert_eq!(sweep.histogram, vec![2, 32, 228, 880, 1562, 1136, 256]);
/// assert_eq!(sweep.stats.visited, 4096);
/// ```
pub fn xor_backward<P: XorMoves + GoalSet + Sync>(
    space: &P,
    options: Options,
    on_layer: &mut dyn FnMut(u32, u64),
) -> Layers<P::State> {
    let sources = goal_indices(space);
    run(space, &sources, &XorWords::new(space), options, on_layer)
}

/// What [`xor_backward_each`] calls with every completed layer: its depth and its states as a
/// bitset over the index; an `Err` stops the sweep.
pub type EachLayer<'a> = &'a mut dyn FnMut(u32, &[u64]) -> Result<(), Limit>;

/// [`xor_backward`], handing every completed layer to `on_layer(depth, words)`: the states first
/// reached at `depth` as a bitset over the index (state `i` is bit `i % 64` of `words[i / 64]`;
/// bits past `size` are clear). The slice is the engine's own frontier, lent for the call: no
/// copy. An `Err` from `on_layer` ends the sweep with that limit in [`Layers::stopped`] (the
/// layer it was given counts as completed). This is how [`table::build_xor`](super::table::build_xor)
/// writes a distance table from the sweep.
pub fn xor_backward_each<P: XorMoves + GoalSet + Sync>(
    space: &P,
    options: Options,
    on_layer: EachLayer,
) -> Layers<P::State> {
    let sources = goal_indices(space);
    let strategy = XorWords::new(space);
    let latch = Latch::new(options.limits);
    let progress = &mut |_, _| {};
    run_each(
        space, &sources, &strategy, options, &latch, progress, on_layer,
    )
}

/// [`backward`], a block of states at a time over a [`SplitMoves`] index, from two move tables
/// (see the module docs). Arguments as in [`forward`].
///
/// A space whose index does not split after all, or whose tables do not fit the memory budget
/// next to the bitsets, is swept state by state ([`backward`]); so the answer is the same
/// either way, and [`Layers::memory_bytes`] says which ran (it counts the tables). The tables are
/// built before the first layer, on the run's threads (`(H + L) * moves` successors, included
/// in `stats.elapsed`, and ticked like a layer's).
pub fn split_backward<P: SplitMoves + Invertible + GoalSet + Sync>(
    space: &P,
    options: Options,
    on_layer: &mut dyn FnMut(u32, u64),
) -> Layers<P::State> {
    split_run(space, options, on_layer, &mut |_, _| Ok(()))
}

/// [`split_backward`], handing every completed layer to `on_layer` as
/// [`xor_backward_each`] does. This is how [`table::build_split`](super::table::build_split)
/// writes a distance table from the sweep.
pub fn split_backward_each<P: SplitMoves + Invertible + GoalSet + Sync>(
    space: &P,
    options: Options,
    on_layer: EachLayer,
) -> Layers<P::State> {
    split_run(space, options, &mut |_, _| {}, on_layer)
}

/// The bytes of the move tables of [`split_backward`] over `space` (0 when its index does not
/// split: the sweep then goes state by state).
pub fn split_tables_needed<P: SplitMoves>(space: &P) -> u128 {
    SplitTables::shape(space).map_or(0, |(bytes, _)| bytes)
}

fn split_run<P: SplitMoves + Invertible + GoalSet + Sync>(
    space: &P,
    options: Options,
    on_layer: &mut dyn FnMut(u32, u64),
    each: EachLayer,
) -> Layers<P::State> {
    let latch = Latch::new(options.limits);
    let sources = goal_indices(space);
    let per_state = |on_layer, each| {
        let strategy = &PerState { space };
        run_each(space, &sources, strategy, options, &latch, on_layer, each)
    };
    let Some((table_bytes, _)) = SplitTables::shape(space) else {
        return per_state(on_layer, each);
    };
    if options
        .limits
        .check_memory(memory_needed(space) + table_bytes)
        .is_err()
    {
        return per_state(on_layer, each);
    }
    let threads = threads_for(space.size(), options.threads).max(1);
    let tables = match SplitTables::tabulate(space, pool_for(threads).as_ref(), &latch) {
        Ok(Some(tables)) => tables,
        Ok(None) => return per_state(on_layer, each),
        Err(limit) => return Layers::not_started(limit, threads, latch.elapsed()),
    };
    let mut sweep = run_each(space, &sources, &tables, options, &latch, on_layer, each);
    sweep.memory_bytes += tables.bytes();
    sweep
}

/// The bytes a sweep over `space` allocates: three bitsets.
pub fn memory_needed<P: Indexed + ?Sized>(space: &P) -> u128 {
    3 * space.size().div_ceil(64) * 8
}

/// The threads a run over `size` states uses when `requested` (at least 1) or by default.
pub fn threads_for(size: u128, requested: Option<usize>) -> usize {
    requested.unwrap_or_else(|| {
        if size >= PARALLEL_THRESHOLD {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            1
        }
    })
}

pub(super) fn goal_indices<P: Indexed + GoalSet>(space: &P) -> Vec<u64> {
    let mut sources = Vec::new();
    space.goals(&mut |goal| sources.push(space.index(goal)));
    sources
}

/// The three bitsets, one bit per index, `u64` words.
struct Bitsets {
    frontier: Vec<u64>,
    next: Vec<u64>,
    visited: Vec<u64>,
}

/// One layer's step, the part the two strategies differ in.
trait Advance: Sync {
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

/// Any indexed space, pushed: decode each frontier state, generate its successors, set their
/// bits in `next`. Then a merge pass adds `next` to `visited` and clears `frontier`.
struct PerState<'a, P> {
    space: &'a P,
}

impl<P: Indexed + Sync> PerState<'_, P> {
    /// Expands the frontier states in `frontier[words]`; returns the successors generated.
    /// `SHARED`: other threads write `next` too, so the ORs must be atomic. Ticks `latch` with
    /// the successors, and stops part-way when it says so.
    fn expand<const SHARED: bool>(
        &self,
        frontier: &[u64],
        visited: &[u64],
        next: &[AtomicU64],
        words: Range<usize>,
        latch: &Latch,
    ) -> u64 {
        let mut ticker = latch.ticker();
        let mut generated = 0u64;
        for (w, &word) in frontier
            .iter()
            .enumerate()
            .take(words.end)
            .skip(words.start)
        {
            let mut bits = word;
            while bits != 0 {
                if ticker.tick(generated).is_err() {
                    return generated;
                }
                let index = (w as u64) << 6 | bits.trailing_zeros() as u64;
                bits &= bits - 1;
                self.space
                    .successors(self.space.state(index), &mut |_, successor| {
                        generated += 1;
                        let index = self.space.index(successor);
                        let (word, bit) = ((index >> 6) as usize, 1u64 << (index & 63));
                        if visited[word] & bit == 0 {
                            or_into::<SHARED>(&next[word], bit);
                        }
                    });
            }
        }
        generated
    }
}

/// ORs `bits` into `word`, touching it only when some bit is new: late in a search most
/// successors are old, and a load is much cheaper than an atomic OR.
#[inline(always)]
fn or_into<const SHARED: bool>(word: &AtomicU64, bits: u64) {
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
fn as_atomic(words: &mut [u64]) -> &[AtomicU64] {
    const { assert!(std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>()) };
    // SAFETY: AtomicU64 has the size and bit validity of u64 and (asserted above) its alignment;
    // the exclusive borrow guarantees no non-atomic access while the view lives.
    unsafe { &*(words as *mut [u64] as *const [AtomicU64]) }
}

impl<P: Indexed + Sync> Advance for PerState<'_, P> {
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
        let words = frontier.len();
        let shared_next = as_atomic(next);
        let generated = over_chunks(pool, words, CHUNK_WORDS, |range| match pool {
            None => self.expand::<false>(frontier, visited, shared_next, range, latch),
            Some(_) => self.expand::<true>(frontier, visited, shared_next, range, latch),
        });
        if latch.reason().is_some() {
            return None;
        }
        Some(merge(pool, sets, generated))
    }
}

/// The end of a pushed layer: adds `next` (states not visited before) to `visited`, counts it,
/// and clears `frontier`.
fn merge(pool: Option<&rayon::ThreadPool>, sets: &mut Bitsets, generated: u64) -> Merged {
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
pub(super) struct XorWords {
    /// The moves grouped by in-word part: `(flip, word offsets)`. The permutation distributes
    /// over OR, so a group ORs its source words first and permutes once; for Flip 5 x 5 the 25
    /// moves make 8 groups, 18 moves sharing `flip = 0` (no permutation at all).
    groups: Vec<(u64, Vec<usize>)>,
    pub(super) moves: u64,
}

impl XorWords {
    pub(super) fn new<P: XorMoves>(space: &P) -> Self {
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

    /// Every move's word offset `m >> 6`: state word `w` reaches word `w ^ offset`.
    pub(super) fn word_offsets(&self) -> impl Iterator<Item = usize> + '_ {
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
fn permute(words: &mut [u64], flip: u64) {
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
    /// [`cluster`](super::cluster) sweep, which pushes its part instead).
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
    pub(super) fn pull<'a>(
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

/// Runs `job` on every chunk of `size` items of `0..items`, on the pool when there is one; sums
/// the results.
fn over_chunks<R: Send + std::iter::Sum<R>>(
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
fn zip_chunks<R: Send + std::iter::Sum<R>>(
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

/// What one layer found: its size and lowest index, and the successors generated to find it.
#[derive(Clone, Copy, Default)]
pub(super) struct Merged {
    pub(super) count: u64,
    pub(super) lowest: Option<u64>,
    pub(super) generated: u64,
}

impl Merged {
    /// Counts the new states `fresh` of word `word`.
    #[inline(always)]
    pub(super) fn add(&mut self, word: usize, fresh: u64) {
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

/// A pool of `threads` workers, none for one. A pool that cannot start (no threads left) is not
/// worth failing over: the run goes on this thread.
fn pool_for(threads: usize) -> Option<rayon::ThreadPool> {
    (threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
        })
        .flatten()
}

/// The sweep every strategy shares. `sources` are indices (depth 0; repeats count once).
fn run<P: Indexed, A: Advance>(
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

/// [`run`], also lending each completed layer's bitset to `each` (see [`xor_backward_each`]),
/// under the run's `latch` (its clock started with the run: `stats.elapsed` counts from it).
fn run_each<P: Indexed, A: Advance>(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toys::{Lights, LightsGoal};
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    fn flip(rows: u32, cols: u32, wrap: bool) -> Lights {
        Lights::new(rows, cols, wrap, LightsGoal::Uniform)
    }

    fn options(limits: &Limits, threads: usize) -> Options<'_> {
        Options {
            limits,
            threads: Some(threads),
        }
    }

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

    #[test]
    fn flip_4x4_histogram_by_every_strategy_and_thread_count() {
        let space = flip(4, 4, false);
        let limits = Limits::default();
        let expected = vec![2, 32, 228, 880, 1562, 1136, 256];
        let mut farthest = None;
        for threads in [1, 2, 3] {
            let o = options(&limits, threads);
            let sweeps = [
                backward(&space, o, &mut |_, _| {}),
                xor_backward(&space, o, &mut |_, _| {}),
            ];
            for sweep in sweeps {
                assert_eq!(sweep.histogram, expected);
                assert_eq!(sweep.stopped, None);
                assert_eq!(sweep.stats.visited, 4096);
                assert_eq!(sweep.stats.expanded, 4096);
                assert_eq!(sweep.stats.generated, 4096 * 16);
                assert_eq!(sweep.stats.peak_frontier, 1562);
                assert_eq!(sweep.stats.depth, 6);
                assert_eq!(sweep.threads, threads);
                assert_eq!(*farthest.get_or_insert(sweep.farthest), sweep.farthest);
            }
        }
    }

    #[test]
    fn the_farthest_state_is_at_the_largest_distance() {
        let space = flip(3, 4, false);
        let limits = Limits::default();
        let sweep = xor_backward(&space, options(&limits, 1), &mut |_, _| {});
        let farthest = sweep.farthest.unwrap();
        let report = crate::search::bfs::solve_indexed(&space, farthest, &limits);
        let crate::search::Outcome::Solved(path) = report.outcome else {
            panic!("{:?}", report.outcome)
        };
        assert_eq!(path.len(), sweep.histogram.len() - 1);
    }

    #[test]
    fn tiny_spaces_fit_in_one_word() {
        let limits = Limits::default();
        for (rows, cols) in [(1, 1), (1, 2), (2, 2), (2, 3)] {
            let space = flip(rows, cols, false);
            let a = forward(&space, 0, options(&limits, 1), &mut |_, _| {});
            let b = xor_forward(&space, 0, options(&limits, 2), &mut |_, _| {});
            assert_eq!(a.histogram, b.histogram, "{rows} x {cols}");
            assert_eq!(a.farthest, b.farthest);
            assert_eq!(a.stats.generated, b.stats.generated);
        }
    }

    #[test]
    fn a_space_over_the_budget_is_refused_before_allocating() {
        let limits = Limits {
            memory_budget: 1 << 20,
            ..Limits::default()
        };
        let sweep = xor_backward(&flip(8, 8, false), options(&limits, 1), &mut |_, _| {});
        assert_eq!(
            sweep.stopped,
            Some(Limit::Memory {
                needed: 3 << 61,
                budget: 1 << 20
            })
        );
        assert!(sweep.histogram.is_empty());
        assert_eq!(sweep.memory_bytes, 0);
    }

    #[test]
    fn depth_and_state_limits_stop_after_a_layer() {
        let space = flip(4, 4, false);
        let limits = Limits {
            max_depth: Some(2),
            ..Limits::default()
        };
        let sweep = xor_backward(&space, options(&limits, 1), &mut |_, _| {});
        assert_eq!(sweep.histogram, vec![2, 32, 228]);
        assert_eq!(sweep.stopped, Some(Limit::Depth(2)));
        let limits = Limits {
            max_states: Some(100),
            ..Limits::default()
        };
        let sweep = backward(&space, options(&limits, 2), &mut |_, _| {});
        assert_eq!(sweep.histogram, vec![2, 32, 228]);
        assert_eq!(sweep.stopped, Some(Limit::States(100)));
    }

    #[test]
    fn an_interrupt_or_a_spent_time_limit_stops_the_first_layer() {
        static FLAG: AtomicBool = AtomicBool::new(true);
        let space = flip(4, 5, false);
        let limits = Limits {
            interrupt: Some(&FLAG),
            ..Limits::default()
        };
        let sweep = xor_backward(&space, options(&limits, 2), &mut |_, _| {});
        assert_eq!(sweep.stopped, Some(Limit::Interrupted));
        assert_eq!(sweep.histogram, vec![2]);
        let limits = Limits {
            time_limit: Some(Duration::ZERO),
            ..Limits::default()
        };
        let sweep = backward(&space, options(&limits, 1), &mut |_, _| {});
        assert_eq!(sweep.stopped, Some(Limit::Time(Duration::ZERO)));
    }

    #[test]
    fn progress_is_called_once_per_layer() {
        let space = flip(4, 4, false);
        let limits = Limits::default();
        let mut calls = Vec::new();
        xor_backward(&space, options(&limits, 1), &mut |d, n| calls.push((d, n)));
        assert_eq!(calls.first(), Some(&(0, 2)));
        assert_eq!(calls.last(), Some(&(6, 4096)));
        assert_eq!(calls.len(), 7);
    }
}
