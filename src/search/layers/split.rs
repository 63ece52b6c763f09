//! The [`SplitMoves`] strategy of [`layers`](super): a block of states at a time, from two small
//! move tables.
//!
//! # Tables
//!
//! A split index is `high * L + low` and move `k` takes it to `high_k(high) * L + low_k(low)`.
//! [`SplitTables::tabulate`] computes `high_k` for every `high` (from the state at `high * L`)
//! and `low_k` for every `low` (from the state at `low`), once: `(H + L) * moves` entries of 4
//! bytes. For the 2x2x2 with all six faces that is `(8! + 3^7) * 18` entries, 3 MiB, against an
//! unrank, 18 byte shuffles and 18 ranks per state of the per-state strategy. Tabulating checks
//! what it can of the claim (every state the same number of moves; the part a move should keep
//! untouched by the other part) and gives `None`, so the engine goes state by state, when it
//! fails.
//!
//! # A layer
//!
//! The states sharing `high` are one *block* of `L` consecutive bits. A layer runs block by block
//! in one of two directions, chosen per layer from the counts (Beamer's direction-optimising
//! BFS):
//!
//! - **push** (top-down) while the frontier is small: the block's frontier states are listed
//!   once; then per move, `base = high_k(high) * L` and each listed `low` sets bit
//!   `base + low_k(low)` in `next` unless visited. The targets of one move and block all fall in
//!   one block of `L` bits, so the writes stay within a few cache lines.
//! - **pull** (bottom-up) once the frontier holds more than half of the unvisited states: the
//!   block's unvisited states are listed; move by move, each one still listed looks its
//!   neighbour up in `frontier` and leaves the list when it finds one there. Moves are
//!   invertible, so a state's neighbours are its predecessors. Most states of a late layer find
//!   one in a move or two, where pushing would generate all `moves` successors of a frontier
//!   that is larger than what is left to find.
//!
//! Both write `next` with the atomic ORs of the per-state strategy (blocks of `L` bits do not
//! end on word boundaries), and then share its merge pass: [`SplitTables`] is an [`Advance`]
//! of the shared level loop, and takes those pieces from it (`sweep.rs`).
//!
//! # Trade-offs
//!
//! The tables cost `(H + L) * moves * 4` bytes on top of the three bitsets, counted against the
//! memory budget before anything is allocated, and the engine goes state by state where they do
//! not fit. Tabulating costs `(H + L) * moves` successors against the sweep's `H * L * moves`,
//! so blocks of one state (`L = 1`: LoopOver, one class of places and no twists) gain nothing
//! and are swept state by state too (a puzzle with no twists but several classes of places, the
//! puzzler's challenger, is cut between classes instead: see the perm plugin's index); the 2x2x2's `L = 2187` makes the tables a rounding error. The
//! direction rule needs the unvisited count: an index that over-counts the reachable states
//! (the Skewb's) keeps it large and the sweep pushes throughout, which is still exact.

use super::sweep::{Advance, Bitsets, Merged, as_atomic, merge, or_into, over_chunks};
use crate::limit::{Latch, Limit, Ticker};
use crate::space::SplitMoves;
use rayon::prelude::*;
use std::sync::atomic::AtomicU64;

/// States per unit of work (a chunk is whole blocks, at least one): small enough that chunks
/// balance across threads. The stop condition is ticked within a chunk, block by block and move
/// by move, with the successors generated or looked up.
const CHUNK_STATES: u64 = 1 << 16;

/// The move tables of a split index (see the module docs).
pub(super) struct SplitTables {
    /// `L`: states per block.
    low_count: u64,
    /// `H`: blocks.
    high_count: u64,
    moves: usize,
    /// `high[h * moves + k]`: `high_k(h)`.
    high: Vec<u32>,
    /// `low[k * L + l]`: `low_k(l)` (move-major: a move's look-ups over a block are in order).
    low: Vec<u32>,
}

impl SplitTables {
    /// The bytes the tables of `space` take, and `(L, H, moves)`; `None` when the index does not
    /// split, a part does not fit a `u32` or there are more than [`MAX_MOVES`] moves.
    pub(super) fn shape<P: SplitMoves>(space: &P) -> Option<(u128, (u64, u64, usize))> {
        let low_count = space.low_count()?;
        let size = space.size();
        // Blocks of one state save nothing: tabulating `high_k` for every state is a per-state
        // sweep already.
        if low_count < 2 || size == 0 || !size.is_multiple_of(u128::from(low_count)) {
            return None;
        }
        let high_count = u64::try_from(size / u128::from(low_count)).ok()?;
        if high_count > 1 << 32 || low_count > 1 << 32 {
            return None;
        }
        let mut moves = 0;
        space.successors(space.state(0), &mut |_, _| moves += 1);
        if moves > MAX_MOVES {
            return None;
        }
        let entries = (u128::from(high_count) + u128::from(low_count)) * moves as u128;
        Some((entries * 4, (low_count, high_count, moves)))
    }

    /// The tables of `space` (see the module docs), on `pool`'s threads when there is one;
    /// `Ok(None)` when the index does not split after all, `Err` when `latch` stopped the run
    /// (ticked with the successors tabulated).
    pub(super) fn tabulate<P: SplitMoves + Sync>(
        space: &P,
        pool: Option<&rayon::ThreadPool>,
        latch: &Latch,
    ) -> Result<Option<Self>, Limit> {
        let Some((_, (low_count, high_count, moves))) = Self::shape(space) else {
            return Ok(None);
        };
        // `parts(i, out)`: the successors of the state at `i`, split into (high, low) parts, one
        // per move; false when it does not have exactly `moves` of them.
        let parts = |index: u64, out: &mut [(u64, u64)]| -> bool {
            let mut k = 0;
            space.successors(space.state(index), &mut |_, next| {
                if let Some(slot) = out.get_mut(k) {
                    let i = space.index(next);
                    *slot = (i / low_count, i % low_count);
                }
                k += 1;
            });
            k == moves
        };
        let mut base = vec![(0, 0); moves];
        if !parts(0, &mut base) {
            return Ok(None);
        }
        // High parts from the states at `h * L` (low part 0): each move's low part must be the
        // one it gives the state at 0.
        let mut high = vec![0u32; high_count as usize * moves];
        let high_ok = fill(pool, &mut high, moves, latch, |h, row| {
            let mut out = [(0, 0); MAX_MOVES];
            let out = &mut out[..moves];
            let ok = parts(h * low_count, out);
            for (entry, &(high, _)) in row.iter_mut().zip(out.iter()) {
                *entry = high as u32;
            }
            ok && out.iter().zip(&base).all(|(a, b)| a.1 == b.1)
        });
        // Low parts from the states at `l` (high part 0), likewise.
        let mut by_state = vec![0u32; low_count as usize * moves];
        let low_ok = fill(pool, &mut by_state, moves, latch, |l, row| {
            let mut out = [(0, 0); MAX_MOVES];
            let out = &mut out[..moves];
            let ok = parts(l, out);
            for (entry, &(_, low)) in row.iter_mut().zip(out.iter()) {
                *entry = low as u32;
            }
            ok && out.iter().zip(&base).all(|(a, b)| a.0 == b.0)
        });
        if let Some(limit) = latch.reason() {
            return Err(limit);
        }
        if !(high_ok && low_ok) {
            return Ok(None);
        }
        let mut low = vec![0u32; by_state.len()];
        for (l, row) in by_state.chunks(moves).enumerate() {
            for (k, &v) in row.iter().enumerate() {
                low[k * low_count as usize + l] = v;
            }
        }
        Ok(Some(SplitTables {
            low_count,
            high_count,
            moves,
            high,
            low,
        }))
    }

    /// Bytes of the two tables.
    pub(super) fn bytes(&self) -> u64 {
        ((self.high.len() + self.low.len()) * 4) as u64
    }

    /// Pushes the frontier states of `blocks` (see the module docs); returns the successors
    /// generated, ticked on `ticker` move by move (stopping part-way when it says so).
    ///
    /// A move's targets from one block fall in one block of `L` bits: they are set in the
    /// scratch bitmap first (a shift and an OR each, no branch, in L1), then ORed into `next`
    /// word by word, minus `visited`. Testing and setting each target in place instead costs a
    /// mispredicted branch on about every other one. A block with few frontier states goes
    /// straight to `next`: clearing and merging the bitmap would cost more.
    fn push<const SHARED: bool>(
        &self,
        sets: Sets,
        blocks: std::ops::Range<u64>,
        scratch: &mut Scratch,
        ticker: &mut Ticker,
    ) -> u64 {
        let (l_count, moves) = (self.low_count, self.moves);
        let mut generated = 0;
        for h in blocks {
            list(
                sets.frontier,
                h * l_count,
                l_count,
                false,
                &mut scratch.lows,
            );
            let lows = &scratch.lows;
            if lows.is_empty() {
                continue;
            }
            let targets = &self.high[h as usize * moves..][..moves];
            for (k, &target) in targets.iter().enumerate() {
                if ticker.tick(generated).is_err() {
                    return generated;
                }
                generated += lows.len() as u64;
                let base = u64::from(target) * l_count;
                let low = &self.low[k * l_count as usize..][..l_count as usize];
                let (first_word, shift) = ((base >> 6) as usize, base & 63);
                let span = (shift + l_count).div_ceil(64) as usize;
                if lows.len() * 2 < span {
                    for &l in lows.iter() {
                        let index = base + u64::from(low[l as usize]);
                        let (word, bit) = ((index >> 6) as usize, 1u64 << (index & 63));
                        if sets.visited[word] & bit == 0 {
                            or_into::<SHARED>(&sets.next[word], bit);
                        }
                    }
                    continue;
                }
                let bits = &mut scratch.bits[..span];
                for &l in lows.iter() {
                    let t = shift + u64::from(low[l as usize]);
                    bits[(t >> 6) as usize] |= 1 << (t & 63);
                }
                sets.flush::<SHARED>(bits, first_word);
            }
        }
        generated
    }

    /// Pulls the unvisited states of `blocks` that have a neighbour in the frontier into
    /// `next` (see the module docs); returns the neighbours looked at, ticked as in
    /// [`push`](Self::push).
    ///
    /// Move by move over the block's list of states still unfound: each looks its neighbour up,
    /// stays in the list when it is not in the frontier and is set in the scratch bitmap when it
    /// is, branch-free (the list is compacted by a conditional increment).
    fn pull<const SHARED: bool>(
        &self,
        sets: Sets,
        blocks: std::ops::Range<u64>,
        scratch: &mut Scratch,
        ticker: &mut Ticker,
    ) -> u64 {
        let (l_count, moves) = (self.low_count, self.moves);
        let mut looked = 0;
        for h in blocks {
            let first = h * l_count;
            list(sets.visited, first, l_count, true, &mut scratch.lows);
            if scratch.lows.is_empty() {
                continue;
            }
            let (first_word, shift) = ((first >> 6) as usize, first & 63);
            let span = (shift + l_count).div_ceil(64) as usize;
            let Scratch { lows, bits } = scratch;
            let bits = &mut bits[..span];
            let sources = &self.high[h as usize * moves..][..moves];
            for (k, &source) in sources.iter().enumerate() {
                if lows.is_empty() || ticker.tick(looked).is_err() {
                    break;
                }
                looked += lows.len() as u64;
                let base = u64::from(source) * l_count;
                let low = &self.low[k * l_count as usize..][..l_count as usize];
                let mut kept = 0;
                for i in 0..lows.len() {
                    let l = lows[i];
                    let from = base + u64::from(low[l as usize]);
                    let hit = sets.frontier[(from >> 6) as usize] >> (from & 63) & 1;
                    let t = shift + u64::from(l);
                    bits[(t >> 6) as usize] |= hit << (t & 63);
                    lows[kept] = l;
                    kept += (hit ^ 1) as usize;
                }
                lows.truncate(kept);
            }
            sets.flush::<SHARED>(bits, first_word);
        }
        looked
    }
}

/// The bitsets as a chunk of work sees them.
#[derive(Clone, Copy)]
struct Sets<'a> {
    frontier: &'a [u64],
    visited: &'a [u64],
    next: &'a [AtomicU64],
}

impl Sets<'_> {
    /// ORs `bits` (a bitmap whose word 0 is word `first_word` of the sets) into `next`, minus
    /// `visited`, and clears `bits`.
    #[inline]
    fn flush<const SHARED: bool>(&self, bits: &mut [u64], first_word: usize) {
        let visited = &self.visited[first_word..][..bits.len()];
        let next = &self.next[first_word..][..bits.len()];
        for ((b, &seen), next) in bits.iter_mut().zip(visited).zip(next) {
            let fresh = *b & !seen;
            if fresh != 0 {
                or_into::<SHARED>(next, fresh);
            }
            *b = 0;
        }
    }
}

/// One chunk's buffers, allocated once per chunk: a block's states as offsets, and a bitmap
/// of one block's span of words (zero between uses).
struct Scratch {
    lows: Vec<u32>,
    bits: Vec<u64>,
}

/// The most moves a split space may have (tabulation keeps one state's successors on the
/// stack).
const MAX_MOVES: usize = 256;

/// Fills `table`, `moves` entries per item, with `row(item, entries)` on `pool` when there is
/// one; true when every row returned true (a false one may stop the filling: the tables are
/// then not used). Each thread ticks `latch` with the entries it filled; a stop is a false row.
fn fill(
    pool: Option<&rayon::ThreadPool>,
    table: &mut [u32],
    moves: usize,
    latch: &Latch,
    row: impl Fn(u64, &mut [u32]) -> bool + Sync,
) -> bool {
    let ticked = || (latch.ticker(), 0u64);
    let rows = |(ticker, done): &mut (Ticker, u64), (i, entries): (usize, &mut [u32])| {
        *done += moves as u64;
        ticker.tick(*done).is_ok() && row(i as u64, entries)
    };
    match pool {
        None => {
            let mut state = ticked();
            table
                .chunks_mut(moves)
                .enumerate()
                .all(|item| rows(&mut state, item))
        }
        Some(pool) => pool.install(|| {
            table
                .par_chunks_mut(moves)
                .enumerate()
                .map_init(ticked, rows)
                .all(|ok| ok)
        }),
    }
}

/// Lists into `out` the offsets `0..len` of the set bits (clear bits if `clear`) of `words` in
/// bits `start..start + len`.
#[inline]
fn list(words: &[u64], start: u64, len: u64, clear: bool, out: &mut Vec<u32>) {
    out.clear();
    let end = start + len;
    let first = (start >> 6) as usize;
    let last = ((end - 1) >> 6) as usize;
    for (w, &word) in words[first..=last].iter().enumerate() {
        let base = ((first + w) as u64) << 6;
        let mut bits = if clear { !word } else { word };
        if base < start {
            bits &= u64::MAX << (start - base);
        }
        if end < base + 64 {
            bits &= u64::MAX >> (base + 64 - end);
        }
        while bits != 0 {
            out.push((base + u64::from(bits.trailing_zeros()) - start) as u32);
            bits &= bits - 1;
        }
    }
}

impl Advance for SplitTables {
    fn advance(
        &self,
        sets: &mut Bitsets,
        pool: Option<&rayon::ThreadPool>,
        latch: &Latch,
    ) -> Option<Merged> {
        let count = |words: &[u64]| words.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        let size = self.high_count * self.low_count;
        let pull = 2 * count(&sets.frontier) > size - count(&sets.visited);
        let Bitsets {
            frontier,
            next,
            visited,
        } = sets;
        let shared_next = as_atomic(next);
        let per_chunk = (CHUNK_STATES / self.low_count).max(1);
        let chunks = self.high_count.div_ceil(per_chunk) as usize;
        let generated = over_chunks(pool, chunks, 1, |range| {
            let mut ticker = latch.ticker();
            let blocks =
                range.start as u64 * per_chunk..(range.end as u64 * per_chunk).min(self.high_count);
            let mut scratch = Scratch {
                lows: Vec::with_capacity(self.low_count as usize),
                bits: vec![0; self.low_count.div_ceil(64) as usize + 1],
            };
            let sets = Sets {
                frontier,
                visited,
                next: shared_next,
            };
            let (s, t) = (&mut scratch, &mut ticker);
            match (pool.is_some(), pull) {
                (false, false) => self.push::<false>(sets, blocks, s, t),
                (true, false) => self.push::<true>(sets, blocks, s, t),
                (false, true) => self.pull::<false>(sets, blocks, s, t),
                (true, true) => self.pull::<true>(sets, blocks, s, t),
            }
        });
        if latch.reason().is_some() {
            return None;
        }
        Some(merge(pool, sets, generated))
    }
}

#[cfg(test)]
mod tests {
    use super::SplitTables;
    use crate::limit::Limits;
    use crate::search::layers::{Options, backward, memory_needed, split_backward};
    use crate::space::{GoalSet, Indexed, Invertible, SplitMoves, StateSpace};

    /// Pairs `(a, b)`, `a < A` and `b < B`, indexed `a * B + b`. The moves add `da` to `a`
    /// (mod A) and `db` to `b` (mod B), each with its inverse; with `coupled`, a move also adds
    /// `b` to `a`, so the parts do not move separately (while the space still claims they do).
    struct Pairs {
        a: u64,
        b: u64,
        steps: Vec<(u64, u64)>,
        coupled: bool,
        goals: Vec<u64>,
    }

    impl StateSpace for Pairs {
        type State = u64;
        type Move = usize;
        fn successors(&self, s: u64, visit: &mut dyn FnMut(usize, u64)) {
            let (a, b) = (s / self.b, s % self.b);
            for (k, &(da, db)) in self.steps.iter().enumerate() {
                // Odd moves undo even ones; a coupled move's inverse subtracts what it added.
                let (sa, sb) = if k % 2 == 0 {
                    (da, db)
                } else {
                    (self.a - da % self.a, self.b - db % self.b)
                };
                let nb = (b + sb) % self.b;
                let coupling = match (self.coupled, k % 2) {
                    (false, _) => 0,
                    (true, 0) => b,
                    (true, _) => self.a - nb % self.a,
                };
                visit(k, ((a + sa + coupling) % self.a) * self.b + nb);
            }
        }
        fn is_goal(&self, s: u64) -> bool {
            self.goals.contains(&s)
        }
    }
    impl Indexed for Pairs {
        fn size(&self) -> u128 {
            u128::from(self.a * self.b)
        }
        fn index(&self, s: u64) -> u64 {
            s
        }
        fn state(&self, i: u64) -> u64 {
            i
        }
    }
    impl Invertible for Pairs {
        fn inverse(&self, m: usize) -> usize {
            m ^ 1
        }
    }
    impl GoalSet for Pairs {
        fn goals(&self, visit: &mut dyn FnMut(u64)) {
            self.goals.iter().for_each(|&g| visit(g));
        }
    }
    impl SplitMoves for Pairs {
        fn low_count(&self) -> Option<u64> {
            Some(self.b)
        }
    }

    fn pairs(a: u64, b: u64, coupled: bool) -> Pairs {
        // (2, 0) and (0, 3) with their inverses, and one move of both parts at once.
        let steps = vec![(2, 0), (2, 0), (0, 3), (0, 3), (1, 1), (1, 1)];
        let goals = vec![0, a * b - 1];
        Pairs {
            a,
            b,
            steps,
            coupled,
            goals,
        }
    }

    #[test]
    fn block_sweeps_equal_the_per_state_sweep_in_every_direction_and_thread_count() {
        // Blocks of 1 (swept state by state) to 200 states: word-aligned, straddling words,
        // smaller than a word, and large frontiers (pull) as well as small ones (push).
        for (a, b) in [(7, 1), (5, 64), (9, 10), (300, 37), (40, 200), (1000, 3)] {
            let space = pairs(a, b, false);
            let limits = Limits::default();
            let per_state = backward(
                &space,
                Options {
                    limits: &limits,
                    threads: Some(1),
                },
                &mut |_, _| {},
            );
            for threads in [1, 2] {
                let options = Options {
                    limits: &limits,
                    threads: Some(threads),
                };
                let split = split_backward(&space, options, &mut |_, _| {});
                assert_eq!(split.histogram, per_state.histogram, "{a} x {b}");
                assert_eq!(split.farthest, per_state.farthest, "{a} x {b}");
                assert_eq!(split.stats.visited, per_state.stats.visited);
                let tables = split.memory_bytes > per_state.memory_bytes;
                assert_eq!(tables, b > 1, "{a} x {b}: the tables ran");
            }
        }
    }

    #[test]
    fn an_index_that_does_not_split_is_swept_state_by_state() {
        let space = pairs(12, 10, true);
        let limits = Limits::default();
        let options = Options {
            limits: &limits,
            threads: Some(1),
        };
        let latch = crate::limit::Latch::new(&limits);
        assert!(matches!(
            SplitTables::tabulate(&space, None, &latch),
            Ok(None)
        ));
        let per_state = backward(&space, options, &mut |_, _| {});
        let split = split_backward(&space, options, &mut |_, _| {});
        assert_eq!(split.histogram, per_state.histogram);
        assert_eq!(split.memory_bytes, per_state.memory_bytes, "no tables");
    }

    #[test]
    fn tables_over_the_budget_fall_back_and_bitsets_over_it_are_refused() {
        let space = pairs(300, 37, false);
        let (tables, _) = SplitTables::shape(&space).unwrap();
        let bitsets = memory_needed(&space);
        let mut limits = Limits {
            memory_budget: (bitsets + tables - 1) as u64,
            ..Limits::default()
        };
        let options = Options {
            limits: &limits,
            threads: Some(1),
        };
        let split = split_backward(&space, options, &mut |_, _| {});
        assert!(split.stopped.is_none());
        assert_eq!(split.memory_bytes, bitsets as u64, "state by state");
        limits.memory_budget = (bitsets - 1) as u64;
        let options = Options {
            limits: &limits,
            threads: Some(1),
        };
        let split = split_backward(&space, options, &mut |_, _| {});
        assert!(matches!(
            split.stopped,
            Some(crate::limit::Limit::Memory { .. })
        ));
    }
}
