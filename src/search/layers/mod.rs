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
//! # Four strategies
//!
//! | entry points | needs | a layer |
//! |---|---|---|
//! | [`forward`], [`backward`] | [`Indexed`] (+ [`Invertible`] + [`GoalSet`] backward) | **push**, one state at a time: each frontier state's [`successors`](crate::space::StateSpace::successors) set their bits in `next`; a merge pass adds `next` to `visited`; backward, a large frontier is **pulled** (each unvisited state ranks its successors until one is in the frontier) |
//! | [`xor_forward`], [`xor_backward`] | [`XorMoves`] (+ [`GoalSet`] backward) | **pull**, a 64-bit word of states per move: `next[t]` is the OR of the frontier words that reach word `t`, minus `visited[t]` |
//! | [`split_backward`] | [`SplitMoves`] + [`Invertible`] + [`GoalSet`] | a **block** of the states that share the index's high part at a time, from two move tables; push while the frontier is small, pull (each unvisited state looks for a neighbour in the frontier, stopping at the first) once it is large |
//! | [`flip_backward_each`] | [`FlipSplit`] + [`Invertible`] + [`GoalSet`] | a **block** of `2^bits` states that differ only in their flips, moved whole by a word permutation per move (no tables); push or pull as above |
//! | [`forward_hashed`], [`backward_hashed`] | any [`StateSpace`](crate::space::StateSpace) (+ [`Invertible`] + [`GoalSet`] backward) | no bitsets: a hash set of the states found and two lists for the layers, for spaces with no dense index (`explore --from start` on any puzzle, from the goals on one whose index does not fit 64 bits; memory grows with what is found, checked before each growth: a sweep past the budget stops with the depths it completed); also for a depth limit that reaches less than the bitsets would hold, its last layer counted without being stored (`last_layer.rs`) |
//!
//! With [`SplitMoves`] (permutation puzzles: pieces' places times slots' twists, or one group of
//! classes of places times the rest; BENCHMARKS.md, "Sweeps without twists"), `high_k` and
//! `low_k` are tabulated once, and a successor costs one look-up in a table of `L * moves`
//! entries and one bit, instead of an unrank, a move and a rank (the 2x2x2's figures: BENCHMARKS.md,
//! "2x2x2 God's number: the sweep block by block"). Its module (`split.rs`) has the details and
//! the direction rule.
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
//! histogram (tested); both are timed on Flip 5 x 5 in BENCHMARKS.md, "Whole-space sweep: Flip
//! 5 x 5".
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
//! the start of every chunk, and within a chunk by a [`Ticker`](crate::limit::Ticker) counting the
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
//!
//! # Files
//!
//! | file | holds |
//! |---|---|
//! | `mod.rs` | the entry points, [`Options`] and [`Layers`] |
//! | `sweep.rs` | the level loop every strategy shares, and what a strategy plugs into it |
//! | `per_state.rs` | the push (and, backward, the pull) of any indexed space, one state at a time |
//! | `xor.rs` | the pull of an [`XorMoves`] space, a word of 64 states per move |
//! | `split.rs` | the blocks of a [`SplitMoves`] space, from two move tables |
//! | `flips.rs` | the blocks of a [`FlipSplit`] space, moved by word permutations |
//! | `hashed.rs` | the sweep of a space with no dense index, with a hash set |
//! | `last_layer.rs` | the last layer of a depth-limited hash-set sweep, counted without storing it |
//! | `classes.rs` | the symmetry classes of each layer, counted as the sweep hands it over ([`classes`]) |

pub mod classes;
mod flips;
mod hashed;
mod last_layer;
mod per_state;
mod split;
mod sweep;
mod xor;

// The cluster sweep runs these layers on timely workers: it counts a layer as this loop does and
// pulls the words of an XOR space with the same code.
#[cfg(feature = "cluster")]
pub(super) use sweep::Merged;
pub(super) use xor::XorWords;

use super::Stats;
use crate::limit::{Latch, Limit, Limits};
use crate::space::{FlipSplit, GoalSet, Indexed, Invertible, SplitMoves, XorMoves};
pub use hashed::{backward_hashed, forward_hashed};
use per_state::PerState;
use split::SplitTables;
use sweep::{pool_for, run, run_each};

/// Words per unit of work. Small enough that chunks balance across threads (and that a chunk of
/// the word strategy, which polls once per chunk, takes well under a millisecond); large enough
/// that scheduling them costs nothing next to the work.
pub const CHUNK_WORDS: usize = 1024;

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

/// Forward from `start` over any indexed space, one state at a time.
///
/// - `space`: the graph; its [`Indexed::size`] sets the memory (three bits per state).
/// - `start`: depth 0.
/// - `options`: limits and threads.
/// - `on_layer(depth, states found so far)`: called after each completed layer (progress).
///
/// ```
/// use statespace::toys::{Lights, LightsGoal};
/// use statespace::search::layers;
/// use statespace::limit::Limits;
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
    let strategy = PerState { space, pull: false };
    run(space, &sources, &strategy, options, on_layer)
}

/// Backward from every goal at once, one state at a time: `histogram[d]` counts the states whose
/// fewest moves to a goal is `d`. Predecessors are successors because moves are
/// [`Invertible`], so this is [`forward`] from the goal set, except that a layer whose frontier
/// is large is pulled (each unvisited state looks for a successor in the frontier; see
/// `per_state.rs`). Arguments as in [`forward`].
pub fn backward<P: Indexed + Invertible + GoalSet + Sync>(
    space: &P,
    options: Options,
    on_layer: &mut dyn FnMut(u32, u64),
) -> Layers<P::State> {
    let sources = goal_indices(space);
    let strategy = PerState { space, pull: true };
    run(space, &sources, &strategy, options, on_layer)
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
/// use statespace::search::layers;
/// use statespace::limit::Limits;
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

/// [`backward`], handing every completed layer to `on_layer` as [`xor_backward_each`] does
/// (how [`classes`] counts the symmetry classes of a space swept state by state).
pub fn backward_each<P: Indexed + Invertible + GoalSet + Sync>(
    space: &P,
    options: Options,
    on_layer: EachLayer,
) -> Layers<P::State> {
    let sources = goal_indices(space);
    let latch = Latch::new(options.limits);
    let progress = &mut |_, _| {};
    let strategy = &PerState { space, pull: true };
    run_each(
        space, &sources, strategy, options, &latch, progress, on_layer,
    )
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
/// either way, and [`Layers::memory_bytes`] says which ran (it counts the tables). The low table
/// and a sample of high rows are built before the first layer, on the run's threads (ticked
/// like a layer's), the other high rows when a layer first meets their block: up to
/// `(H + L) * moves` successors in all, included in `stats.elapsed`.
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
        let strategy = &PerState { space, pull: true };
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

/// [`backward`], a block of `2^bits` states at a time over a [`FlipSplit`] index (see the module
/// docs), handing every completed layer to `on_layer` as [`xor_backward_each`] does. No tables:
/// the memory is the three bitsets, as state by state, which is where a space whose index does
/// not split after all goes. This is how [`table::build_flips`](super::table::build_flips)
/// writes a distance table from the sweep.
pub fn flip_backward_each<P: FlipSplit + Invertible + GoalSet + Sync>(
    space: &P,
    options: Options,
    on_layer: EachLayer,
) -> Layers<P::State> {
    let latch = Latch::new(options.limits);
    let sources = goal_indices(space);
    let progress = &mut |_, _| {};
    match flips::FlipBlocks::new(space) {
        Some(blocks) => run_each(
            space, &sources, &blocks, options, &latch, progress, on_layer,
        ),
        None => {
            let strategy = &PerState { space, pull: true };
            run_each(
                space, &sources, strategy, options, &latch, progress, on_layer,
            )
        }
    }
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
