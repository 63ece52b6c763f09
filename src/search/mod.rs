//! Search engines and what they share: [`Outcome`], [`Path`], [`Stats`]; the limits they stop at
//! are [`limit`](crate::limit)'s, the options they read [`options`](crate::options)'.
//!
//! The path engines are listed, each once, in the engine table ([`engines`]: what each needs,
//! what it guarantees, when `auto` runs it), and see a puzzle through its capabilities
//! ([`caps`]). Every engine is a module with free functions generic over the capabilities it
//! needs:
//!
//! | engine | needs | memory | gives |
//! |---|---|---|---|
//! | [`bfs`] | [`StateSpace`](crate::space::StateSpace) (+ [`Indexed`](crate::space::Indexed) for a bitset) | every visited state | optimal path; unsolvability proof when the reachable space is exhausted |
//! | [`bidirectional`] | [`Invertible`](crate::space::Invertible) + [`GoalSet`](crate::space::GoalSet) (+ [`Indexed`](crate::space::Indexed) for bitsets) | every state visited from either side: about the square root of BFS's | optimal path, searching from the start and the goals until they meet; unsolvability proof when either side is exhausted |
//! | [`iddfs`] | [`StateSpace`](crate::space::StateSpace) | linear in depth (+ a [transposition table](transpositions) of fixed size) | optimal path; unsolvability proof when the pruned tree is exhausted |
//! | [`astar`] | [`StateSpace`](crate::space::StateSpace) + a [`Heuristic`](crate::space::Heuristic) (+ [`Indexed`](crate::space::Indexed) for dense arrays) | every state generated (closed and open) | optimal path, expanding only states with `g + h` up to the answer's length; unsolvability proof when everything reachable is closed |
//! | [`idastar`] | [`StateSpace`](crate::space::StateSpace) + a [`Heuristic`](crate::space::Heuristic) | linear in depth (+ a [transposition table](transpositions) of fixed size) | optimal path, deepening by `g + h` thresholds instead of depth; unsolvability proof when the pruned tree is exhausted |
//! | [`table`] | [`Indexed`](crate::space::Indexed) + [`Invertible`](crate::space::Invertible) + [`GoalSet`](crate::space::GoalSet) | 4 bits per state of the whole space (wider if deep), or 2 bits (distance mod 3) | the distance of every state to the goal set; then each query is a lookup (mod 3: a walk), its path a descent |
//! | [`beam`] | [`StateSpace`](crate::space::StateSpace) (+ a [`Heuristic`](crate::space::Heuristic) to rank by) | `width` states a depth, and every state met | a path that replays to a goal, not proven minimal; for puzzles too large to solve optimally |
//! | [`pdb`] | an [`Abstraction`](pdb::Abstraction): a projection onto an [`Indexed`](crate::space::Indexed) + [`Invertible`](crate::space::Invertible) + [`GoalSet`](crate::space::GoalSet) space | the abstract space's exact table (4 or 8 bits per abstract state) | [`Heuristic`](crate::space::Heuristic)s for A* and IDA*: one database, [`Max`](pdb::Max) of several, [`Additive`](pdb::Additive) over disjoint pieces with symmetric lookups |
//! | [`pruning`] | [`Invertible`](crate::space::Invertible) + [`GoalSet`](crate::space::GoalSet) (states hashed) | a hash table in tiers, one byte a cell (1 MiB, 64 MiB, 1 GiB by default) | a [`Heuristic`](crate::space::Heuristic): exact within a depth `d` of the goals (least distance per cell), `d + 1` outside; filled from the goals at once and deepened while the search pays for it, so a first solve needs no build |
//! | [`layers`] | [`Indexed`](crate::space::Indexed) (word-at-a-time with [`XorMoves`](crate::space::XorMoves), block-at-a-time with [`SplitMoves`](crate::space::SplitMoves)) | three bits per state of the whole space (+ two move tables with `SplitMoves`) | every reachable state counted by distance (histogram), one farthest state; multi-threaded |
//!
//! Every path search returns a [`Report`]: an [`Outcome`] (solved with a path, proven unsolvable, or a
//! named limit reached) and [`Stats`]. Engines never print; the CLI does. [`idastar`], [`iddfs`]
//! and the [`table`] also list several optimal solutions when
//! [`SearchOptions::solutions`](crate::options::SearchOptions::solutions) asks
//! ([`Report::others`]); the rest give one.
//!
//! Every engine and table builder stops for the time limit and Ctrl-C the same way: it counts
//! the work it does (successors generated, words scanned) on a [`Ticker`](crate::limit::Ticker), which polls the run's
//! [`Latch`] every [`WORK_PER_POLL`](crate::limit::WORK_PER_POLL) units, so a limit holds within a fraction of a second
//! whatever one unit costs (see [`limit::ticker`](crate::limit::ticker)'s module docs). Memory is checked against
//! [`Limits::memory_budget`] before anything is allocated.

pub mod astar;
pub mod beam;
pub mod bfs;
pub mod bidirectional;
pub mod caps;
pub mod cluster;
pub mod engines;
pub mod idastar;
pub mod iddfs;
pub mod layers;
pub mod pdb;
pub mod pruning;
pub mod table;
pub mod table_engine;
pub mod transpositions;
pub mod visited;

#[cfg(test)]
mod agree;

use crate::limit::{Latch, Limit, Limits};
use std::hash::Hasher;
use std::time::Duration;

/// Counts one expansion in `stats` and says whether `max_states` stops the run. Shared by IDDFS
/// and IDA* (time and Ctrl-C are their [`Ticker`]'s).
#[inline]
pub(crate) fn count_expansion(stats: &mut Stats, limits: &Limits) -> Result<(), Limit> {
    stats.expanded += 1;
    match limits.max_states {
        Some(max) if stats.expanded > max => Err(Limit::States(max)),
        _ => Ok(()),
    }
}

/// A goal reached by a depth-first engine (IDDFS, IDA*) along `steps` from `start`: whether
/// the search stops there. With one solution `wanted`, it stops at once and the path is the
/// engine's branch; with more, the path is kept in `found` (the goal is not searched below: a
/// path through a goal to another is no shortest path) and the search stops when `found` holds
/// as many as wanted, else goes on for the next; a path that would take the paths kept past the
/// memory budget stops it with [`Limit::Memory`] ([`keep_within_budget`]).
pub(crate) fn keep_solution<S: Copy, M: Copy>(
    found: &mut Vec<Path<S, M>>,
    start: S,
    steps: &[Step<S, M>],
    limits: &Limits,
    wanted: usize,
) -> Result<bool, Limit> {
    if wanted <= 1 {
        return Ok(true);
    }
    keep_within_budget(found, limits, steps.len())?;
    found.push(Path {
        start,
        steps: steps.to_vec(),
    });
    Ok(found.len() >= wanted)
}

/// Refuses with [`Limit::Memory`] a path of `steps` steps more in `found` when the paths then
/// held would pass the memory budget: the one check every engine that lists solutions makes
/// before it keeps one (`--solutions` may ask for billions).
pub(crate) fn keep_within_budget<S, M>(
    found: &[Path<S, M>],
    limits: &Limits,
    steps: usize,
) -> Result<(), Limit> {
    let path = std::mem::size_of::<Path<S, M>>() + steps * std::mem::size_of::<Step<S, M>>();
    limits.check_memory((found.len() as u128 + 1) * path as u128)
}

/// Asks the processor to start loading `item` into the caches, so that a read soon after does
/// not wait for memory (x86-64 `prefetcht0`; a no-op elsewhere). For engines that know which
/// table entries they will read next.
#[inline]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch never faults and changes no memory; `item` is a live reference.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(item as *const T as *const i8) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// `len` values made by `make`, in one allocation advised into huge pages
/// (`advise_huge_pages`), written a block at a time with a poll of `latch` between blocks.
///
/// Why: a table of gigabytes takes seconds just to fill with its "unreached" code, and the
/// time limit and Ctrl-C must hold during that too (a limit is `Err`, the memory freed). The
/// budget is the caller's to check first, as for any allocation.
pub fn filled<T>(len: usize, make: impl Fn() -> T, latch: &Latch) -> Result<Vec<T>, Limit> {
    /// Values written between two polls: 8 MiB of words, a few milliseconds.
    const BLOCK: usize = 1 << 20;
    let mut all: Vec<T> = Vec::with_capacity(len);
    advise_huge_pages(all.as_mut_ptr() as usize, len * std::mem::size_of::<T>());
    let mut ticker = latch.ticker();
    while all.len() < len {
        ticker.tick(all.len() as u64)?;
        let block = (len - all.len()).min(BLOCK);
        all.extend(std::iter::repeat_with(&make).take(block));
    }
    Ok(all)
}

/// Asks the kernel to back the memory at `start..start + bytes` (one allocation, not yet
/// written) with transparent huge pages (Linux `madvise(MADV_HUGEPAGE)`, for 4 MiB and more; the
/// whole 2 MiB pages inside the range).
///
/// Why: tables read at random (distance tables, pattern databases, the transposition table)
/// far larger than the caches miss the TLB on nearly every read with 4 KiB pages, and the page
/// walk (in a virtual machine, a walk of two page tables) costs as much as the read; and a
/// zeroed table written at random takes a page fault per 4 KiB page, against one per 2 MiB.
/// Advice only: where the kernel refuses (THP disabled, no huge page free) or on other systems
/// the pages are plain, the contents the same.
pub(crate) fn advise_huge_pages(start: usize, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let (first, end) = (start.next_multiple_of(HUGE), (start + bytes) / HUGE * HUGE);
        if bytes >= 2 * HUGE && end > first {
            // SAFETY: the caller's allocation covers `first..end` (page-aligned, as madvise
            // needs) and stays in place during the call; MADV_HUGEPAGE changes only how the
            // kernel backs the range, never its contents. The result is ignored: refused advice
            // leaves plain pages.
            unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

/// One step of a path: the move played and the state it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step<S, M> {
    /// The move played.
    pub mv: M,
    /// The state it leads to.
    pub state: S,
}

/// A path from a start state: the moves and every state they pass through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path<S, M> {
    /// Where the path begins.
    pub start: S,
    /// The moves, each with the state after it.
    pub steps: Vec<Step<S, M>>,
}

impl<S: Copy, M: Copy> Path<S, M> {
    /// The number of moves.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the path has no moves (the start is a goal).
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The moves in order.
    pub fn moves(&self) -> Vec<M> {
        self.steps.iter().map(|s| s.mv).collect()
    }

    /// The last state: the start when the path is empty.
    pub fn end(&self) -> S {
        self.steps.last().map_or(self.start, |s| s.state)
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<S, M> {
    /// A goal was reached; the path is optimal (fewest moves).
    Solved(Path<S, M>),
    /// No goal is reachable: the engine exhausted everything reachable from the start.
    Unsolvable,
    /// The run stopped at a limit before it could decide.
    LimitReached(Limit),
}

/// What a run did. Counts are exact; `elapsed` is wall-clock.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// States whose successors were generated.
    pub expanded: u64,
    /// Successors generated (edges looked at).
    pub generated: u64,
    /// Distinct states recorded (BFS, A*), or states entered (IDDFS, IDA*: counted with repeats).
    pub visited: u64,
    /// The largest frontier held at once: a BFS layer, A*'s open set (stale entries included), or
    /// IDDFS's and IDA*'s stack of pending successors.
    pub peak_frontier: u64,
    /// The deepest level the run completed or reached (A*: the largest `f = g + h` expanded;
    /// IDA*: the last threshold).
    pub depth: u32,
    /// States expanded again because a shorter path to them was found after their expansion
    /// (A* with an inconsistent heuristic); 0 for every other engine.
    #[serde(skip_serializing_if = "is_zero")]
    pub reopened: u64,
    /// IDDFS and IDA*: states met again in an iteration at no fewer moves than before, whose
    /// successors searched then were skipped (see [`transpositions`]); 0 without the table.
    #[serde(skip_serializing_if = "is_zero")]
    pub transposition_hits: u64,
    /// IDDFS and IDA*: the bytes of the transposition table; 0 when the run had none.
    #[serde(skip_serializing_if = "is_zero")]
    pub transposition_bytes: u64,
    /// IDA*'s iterations in order, one per `f` threshold; empty for every other engine.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub iterations: Vec<Iteration>,
    /// Wall-clock time of the run: for a solve, from the board to the answer, building or
    /// loading the tables it needed included.
    #[serde(serialize_with = "serialize_seconds")]
    pub elapsed: Duration,
    /// The part of `elapsed` spent building or loading tables before the search (pattern
    /// databases, a distance table); zero when the run needed none or an earlier board of the
    /// same run had made them.
    #[serde(
        serialize_with = "serialize_seconds",
        skip_serializing_if = "Duration::is_zero"
    )]
    pub build: Duration,
}

/// One IDA* iteration: a depth-first search that cuts every node whose `f = g + h` exceeds
/// `threshold`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Iteration {
    /// The largest `f` searched below in this iteration.
    pub threshold: u32,
    /// States whose successors were generated in this iteration.
    pub expanded: u64,
    /// Successors generated (and estimated) in this iteration.
    pub generated: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn serialize_seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// An [`Outcome`] with the [`Stats`] of the run that produced it.
#[derive(Clone, Debug)]
pub struct Report<S, M> {
    /// How the run ended.
    pub outcome: Outcome<S, M>,
    /// The further optimal solutions, after the outcome's path, in the order found: when
    /// [`SearchOptions::solutions`](crate::options::SearchOptions::solutions) asked for more than one of an engine that lists them
    /// ([`idastar`], [`iddfs`], the [`table`]'s [`lookup`](table::DistanceTable::lookup)); each
    /// as long as the outcome's path and a distinct sequence of moves. Empty otherwise.
    pub others: Vec<Path<S, M>>,
    /// What it did.
    pub stats: Stats,
}

impl<S: Copy, M: Copy> Report<S, M> {
    /// The path's length when solved; `None` when proven unsolvable or stopped.
    pub fn outcome_length(&self) -> Option<usize> {
        match &self.outcome {
            Outcome::Solved(path) => Some(path.len()),
            _ => None,
        }
    }
}

impl<S, M> Report<S, M> {
    /// A run's outcome and stats, with no further solutions.
    pub fn new(outcome: Outcome<S, M>, stats: Stats) -> Self {
        Report {
            outcome,
            others: Vec::new(),
            stats,
        }
    }

    /// A run stopped by `limit` before it did any work (a table refused by the budget).
    pub fn stopped(limit: Limit, elapsed: Duration) -> Self {
        Report {
            outcome: Outcome::LimitReached(limit),
            others: Vec::new(),
            stats: Stats {
                elapsed,
                ..Stats::default()
            },
        }
    }
}

/// A fixed, fast hash of a state's words, mixed so that its top bits are uniform (they pick a
/// cell or a bucket): no random seed, so the pruning table's cells do not move between runs or
/// processes and the transposition table's node counts are reproducible.
pub(crate) struct Mix(pub(crate) u64);

const K: u64 = 0x9E37_79B9_7F4A_7C15;

impl Hasher for Mix {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // Long states (a big cube's are hundreds of bytes) four words at a time in four
        // independent chains, folded into this one: a single chain waits on a multiply per
        // word, so a 512-byte state cost 64 of them in a row.
        let mut blocks = bytes.chunks_exact(32);
        if bytes.len() >= 64 {
            let mut lanes = [
                self.0,
                self.0 ^ K,
                self.0 ^ K.rotate_left(16),
                self.0 ^ K.rotate_left(32),
            ];
            for block in &mut blocks {
                for (lane, word) in lanes.iter_mut().zip(block.chunks_exact(8)) {
                    let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
                    *lane = (*lane ^ word).wrapping_mul(K).rotate_left(29);
                }
            }
            lanes.into_iter().for_each(|lane| self.write_u64(lane));
        }
        let bytes = if bytes.len() >= 64 {
            blocks.remainder()
        } else {
            bytes
        };
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            self.write_u64(word);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(K).rotate_left(29);
    }

    #[inline]
    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // murmur3's finaliser: every input bit reaches the top bits.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::filled;
    use crate::limit::{Latch, Limits};

    /// A table [`filled`] in is advised into huge pages: the kernel marks the whole 2 MiB pages
    /// inside it `hg` (`MADV_HUGEPAGE`) in `/proc/self/smaps`, whatever the system's THP mode
    /// (the advice is recorded even where the kernel then backs the range with plain pages).
    #[test]
    fn filled_tables_are_advised_into_huge_pages() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
            eprintln!("no transparent huge pages in this kernel: madvise refuses the advice");
            return;
        }
        let latch = Latch::new(&Limits::default());
        let words: Vec<u64> = filled(1 << 20, || 7, &latch).unwrap(); // 8 MiB
        assert!(words.iter().all(|&w| w == 7));
        let inside = (words.as_ptr() as usize).next_multiple_of(2 << 20);
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        // Each mapping: a header line `start-end perms ...`, then fields, `VmFlags:` last.
        let mut containing = false;
        let mut flags = None;
        for line in smaps.lines() {
            let range = line.split_once(' ').and_then(|(r, _)| r.split_once('-'));
            let bounds = range.and_then(|(a, b)| {
                Some((
                    usize::from_str_radix(a, 16).ok()?,
                    usize::from_str_radix(b, 16).ok()?,
                ))
            });
            if let Some((start, end)) = bounds {
                containing = (start..end).contains(&inside);
            } else if let (true, Some(f)) = (containing, line.strip_prefix("VmFlags:")) {
                flags = Some(f.split_whitespace().map(String::from).collect::<Vec<_>>());
            }
        }
        let flags = flags.expect("the table's mapping is listed in /proc/self/smaps");
        assert!(flags.iter().any(|f| f == "hg"), "VmFlags {flags:?}");
    }
}
