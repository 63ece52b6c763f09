//! The [`SplitMoves`] strategy of [`layers`](super): a block of states at a time, from two small
//! move tables.
//!
//! # Tables
//!
//! A split index is `high * L + low` and move `k` takes it to `high_k(high) * L + low_k(low)`.
//! [`SplitTables::tabulate`] computes `low_k` for every `low` (from the state at `low`) before
//! the first layer, and `high_k(high)` (from the state at `high * L`) the first time a layer
//! meets a block with states to push or pull (`SplitTables::row`): `(H + L) * moves` entries
//! of 4 bytes at most, of which the rows of blocks no layer reaches are never computed nor
//! touched (zeroed pages). For the 2x2x2 with all six faces that is `(8! + 3^7) * 18` entries,
//! 3 MiB, against an unrank, 18 byte shuffles and 18 ranks per state of the per-state strategy.
//! Tabulating checks what it can of the claim (every state the same number of moves; the part a
//! move should keep untouched by the other part) on the whole low table and on
//! [`SAMPLED_ROWS`] high rows spread over the index, and gives `None`, so the engine goes state
//! by state, when it fails; a row filled later is checked too, by a debug assertion (a claim
//! broken only there would need the sweep restarted, which a release build does not do: the
//! claim is the [`SplitMoves`] implementation's to keep).
//!
//! Why lazily: where the index counts more states than are reachable, most blocks hold few
//! reachable states, and computing every row costs more than the sweep (the mastermorphix:
//! 1,990,656 blocks of 64 twists, 2.7 reachable states per block; filling every row was two
//! thirds of its sweep). A layer also skips the blocks with nothing to do a word at a time
//! ([`next_block`]) rather than looking at each.

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
//! The tables cost up to `(H + L) * moves * 4` bytes on top of the three bitsets (and a bit per
//! block for the rows built), counted in full against the memory budget before anything is
//! allocated, and the engine goes state by state where they do not fit. Tabulating costs up to
//! `(H + L) * moves` successors against the sweep's `H * L * moves`, so blocks of one state
//! (`L = 1`: LoopOver, one class of places and no twists) gain nothing and are swept state by
//! state too (a puzzle with no twists but several classes of places, the puzzler's challenger,
//! is cut between classes instead: see the perm plugin's index); the 2x2x2's `L = 2187` makes
//! the tables a rounding error. The direction rule needs the unvisited count: an index that
//! over-counts the reachable states (the Skewb's) keeps it large and the sweep pushes
//! throughout, which is still exact; a pull there would fill the rows of unreachable blocks.
//!
use super::sweep::{Advance, Bitsets, Merged, Sets, as_atomic, merge, or_into, over_chunks};
use crate::limit::{Latch, Limit, Ticker};
use crate::space::SplitMoves;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// States per unit of work (a chunk is whole blocks, at least one): small enough that chunks
/// balance across threads. The stop condition is ticked within a chunk, block by block and move
/// by move, with the successors generated or looked up.
const CHUNK_STATES: u64 = 1 << 16;

/// The move tables of a split index (see the module docs): the low table whole, the high rows
/// as the blocks need them.
pub(super) struct SplitTables<'a, P> {
    space: &'a P,
    /// `L`: states per block.
    low_count: u64,
    /// `H`: blocks.
    high_count: u64,
    moves: usize,
    /// `high[h * moves + k]`: `high_k(h)`, once bit `h` of `built` is set (zeroed pages until
    /// then: rows never built cost no memory).
    high: Vec<AtomicU32>,
    /// One bit per block: its row of `high` is filled.
    built: Vec<AtomicU64>,
    /// `low[k * L + l]`: `low_k(l)` (move-major: a move's look-ups over a block are in order).
    low: Vec<u32>,
    /// Each move's low part from the state at index 0: every state whose low part is 0 must
    /// have these (checked on the sampled rows, and on every row in debug builds).
    low_of_zero: Vec<u64>,
}

impl<P: SplitMoves> SplitTables<'_, P> {
    /// The bytes the tables of `space` take, and `(L, H, moves)`; `None` when the index does not
    /// split, a part does not fit a `u32` or there are more than [`MAX_MOVES`] moves.
    pub(super) fn shape(space: &P) -> Option<(u128, (u64, u64, usize))> {
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
        // The built bits: one per block.
        let built = u128::from(high_count.div_ceil(64)) * 8;
        Some((entries * 4 + built, (low_count, high_count, moves)))
    }
}

impl<'a, P: SplitMoves + Sync> SplitTables<'a, P> {
    /// The tables of `space` (see the module docs): the low table whole, on `pool`'s threads
    /// when there is one, and [`SAMPLED_ROWS`] high rows spread over the index as a check;
    /// `Ok(None)` when the index does not split after all, `Err` when `latch` stopped the run
    /// (ticked with the successors tabulated).
    pub(super) fn tabulate(
        space: &'a P,
        pool: Option<&rayon::ThreadPool>,
        latch: &Latch,
    ) -> Result<Option<Self>, Limit> {
        let Some((_, (low_count, high_count, moves))) = Self::shape(space) else {
            return Ok(None);
        };
        let mut base = vec![(0, 0); moves];
        if !parts(space, low_count, 0, moves, |k, high, low| {
            base[k] = (high, low);
            true
        }) {
            return Ok(None);
        }
        // Low parts from the states at `l` (high part 0): each move's high part must be the
        // one it gives the state at 0.
        let mut by_state = vec![0u32; low_count as usize * moves];
        let low_ok = fill(pool, &mut by_state, moves, latch, |l, row| {
            parts(space, low_count, l, moves, |k, high, low| {
                row[k] = low as u32;
                high == base[k].0
            })
        });
        if let Some(limit) = latch.reason() {
            return Err(limit);
        }
        if !low_ok {
            return Ok(None);
        }
        let mut low = vec![0u32; by_state.len()];
        for (l, row) in by_state.chunks(moves).enumerate() {
            for (k, &v) in row.iter().enumerate() {
                low[k * low_count as usize + l] = v;
            }
        }
        let tables = SplitTables {
            space,
            low_count,
            high_count,
            moves,
            high: zeroed_atomics(high_count as usize * moves),
            built: zeroed_atomics(high_count.div_ceil(64) as usize),
            low,
            low_of_zero: base.iter().map(|&(_, low)| low).collect(),
        };
        // The sample: rows spread evenly over the blocks, the first and the last among them.
        let sampled = high_count.min(SAMPLED_ROWS);
        let rows_ok = (0..sampled)
            .map(|i| {
                if sampled < 2 {
                    0
                } else {
                    i * (high_count - 1) / (sampled - 1)
                }
            })
            .all(|h| tables.build_row(h));
        Ok(rows_ok.then_some(tables))
    }

    /// Row `h` of the high table, filled first if no block needed it before. Only the chunk
    /// that owns block `h` asks for its row within a layer, and layers are ordered by the pool's
    /// joins, so relaxed loads see a row filled in an earlier layer.
    #[inline]
    fn row(&self, h: u64) -> &[AtomicU32] {
        let (word, bit) = ((h >> 6) as usize, 1u64 << (h & 63));
        if self.built[word].load(Relaxed) & bit == 0 {
            let ok = self.build_row(h);
            debug_assert!(ok, "block {h} does not split as the index claims");
        }
        &self.high[h as usize * self.moves..][..self.moves]
    }

    /// Fills row `h` from the successors of the state at `h * L` (low part 0) and marks it
    /// built; false when that state breaks the claim (another number of moves, or a move whose
    /// low part is not the one it gives the state at 0).
    #[cold]
    fn build_row(&self, h: u64) -> bool {
        let row = &self.high[h as usize * self.moves..][..self.moves];
        let ok = parts(
            self.space,
            self.low_count,
            h * self.low_count,
            self.moves,
            |k, high, low| {
                row[k].store(high as u32, Relaxed);
                low == self.low_of_zero[k]
            },
        );
        self.built[(h >> 6) as usize].fetch_or(1 << (h & 63), Relaxed);
        ok
    }

    /// Bytes of the tables (the high table's whole size, built or not).
    pub(super) fn bytes(&self) -> u64 {
        ((self.high.len() + self.low.len()) * 4 + self.built.len() * 8) as u64
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
        let l_count = self.low_count;
        let mut generated = 0;
        let mut blocks = blocks;
        while let Some(h) = next_block(sets.frontier, &mut blocks, l_count, false) {
            list(
                sets.frontier,
                h * l_count,
                l_count,
                false,
                &mut scratch.lows,
            );
            let lows = &scratch.lows;
            let targets = self.row(h);
            for (k, target) in targets.iter().enumerate() {
                if ticker.tick(generated).is_err() {
                    return generated;
                }
                let target = target.load(Relaxed);
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
        let l_count = self.low_count;
        let mut looked = 0;
        let mut blocks = blocks;
        while let Some(h) = next_block(sets.visited, &mut blocks, l_count, true) {
            let first = h * l_count;
            list(sets.visited, first, l_count, true, &mut scratch.lows);
            let (first_word, shift) = ((first >> 6) as usize, first & 63);
            let span = (shift + l_count).div_ceil(64) as usize;
            let Scratch { lows, bits } = scratch;
            let bits = &mut bits[..span];
            let sources = self.row(h);
            for (k, source) in sources.iter().enumerate() {
                if lows.is_empty() || ticker.tick(looked).is_err() {
                    break;
                }
                let source = source.load(Relaxed);
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

/// The most moves a split space may have (more would be rows longer than a block's work).
const MAX_MOVES: usize = 256;

/// High rows tabulated before the sweep, spread over the index, to check the split's claim;
/// the others are filled when a layer first reaches their block.
const SAMPLED_ROWS: u64 = 1024;

/// Calls `visit(k, high, low)` with the parts of the `k`-th successor of the state at `index`
/// (`k < moves`; no buffer: a stack array of [`MAX_MOVES`] pairs zeroed per row was a quarter
/// of a sweep); true when there are exactly `moves` successors and every visit returned true.
fn parts<P: SplitMoves>(
    space: &P,
    low_count: u64,
    index: u64,
    moves: usize,
    mut visit: impl FnMut(usize, u64, u64) -> bool,
) -> bool {
    let (mut k, mut ok) = (0, true);
    space.successors(space.state(index), &mut |_, next| {
        if k < moves {
            let i = space.index(next);
            ok &= visit(k, i / low_count, i % low_count);
        }
        k += 1;
    });
    ok && k == moves
}

/// `n` atomics, all zero, from zeroed pages: those never written cost no memory.
fn zeroed_atomics<A: Zeroable>(n: usize) -> Vec<A> {
    const {
        assert!(std::mem::size_of::<A>() == std::mem::size_of::<A::Plain>());
        assert!(std::mem::align_of::<A>() == std::mem::align_of::<A::Plain>());
    };
    let words = std::mem::ManuallyDrop::new(vec![A::Plain::default(); n]);
    let (ptr, len, capacity) = (words.as_ptr() as *mut A, words.len(), words.capacity());
    // SAFETY: `A` has the size, alignment and bit validity of `A::Plain` (the `Zeroable`
    // contract), so the allocation is a valid `Vec<A>` of the same length and capacity; the
    // original is not dropped.
    unsafe { Vec::from_raw_parts(ptr, len, capacity) }
}

/// An atomic integer and its plain integer (same size, alignment and bit validity).
///
/// # Safety
/// `Plain` must have the layout and bit validity of `Self`.
unsafe trait Zeroable {
    type Plain: Default + Clone;
}
// SAFETY: the standard library documents both as having the same in-memory representation as
// the plain integer.
unsafe impl Zeroable for AtomicU32 {
    type Plain = u32;
}
// SAFETY: as above.
unsafe impl Zeroable for AtomicU64 {
    type Plain = u64;
}

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

/// The first block of `blocks` (blocks of `len` bits) with a set bit in `words` (a clear bit
/// if `clear`), which it then leaves out of `blocks`; `None` when there is none. It skips
/// whole words at a time: with small blocks (the mastermorphix's 16 bits) most of a thin
/// layer's blocks are empty, and looking at each one costs more than the layer's work.
#[inline]
fn next_block(
    words: &[u64],
    blocks: &mut std::ops::Range<u64>,
    len: u64,
    clear: bool,
) -> Option<u64> {
    if blocks.is_empty() {
        return None;
    }
    let (start, end) = (blocks.start * len, blocks.end * len);
    let mut w = (start >> 6) as usize;
    let mut bits = if clear { !words[w] } else { words[w] } & u64::MAX << (start & 63);
    while bits == 0 {
        w += 1;
        if (w as u64) << 6 >= end {
            *blocks = blocks.end..blocks.end;
            return None;
        }
        bits = if clear { !words[w] } else { words[w] };
    }
    let bit = ((w as u64) << 6) + u64::from(bits.trailing_zeros());
    if bit >= end {
        *blocks = blocks.end..blocks.end;
        return None;
    }
    let h = bit / len;
    *blocks = h + 1..blocks.end;
    Some(h)
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

impl<P: SplitMoves + Sync> Advance for SplitTables<'_, P> {
    fn advance(
        &self,
        sets: &mut Bitsets,
        pool: Option<&rayon::ThreadPool>,
        latch: &Latch,
    ) -> Option<Merged> {
        let pull = sets.pulls(self.high_count * self.low_count);
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
    fn rows_are_filled_only_for_the_blocks_a_layer_reaches() {
        // Moves change the high part by even steps only: from goal 0, odd blocks are never
        // reached, and only the sample fills their rows.
        let space = Pairs {
            a: 40_000,
            b: 5,
            steps: vec![(2, 0), (2, 0), (0, 3), (0, 3), (2, 1), (2, 1)],
            coupled: false,
            goals: vec![0],
        };
        let limits = Limits::default();
        let options = Options {
            limits: &limits,
            threads: Some(1),
        };
        let per_state = backward(&space, options, &mut |_, _| {});
        assert_eq!(per_state.stats.visited, 20_000 * 5);
        for threads in [1, 2] {
            let latch = crate::limit::Latch::new(&limits);
            let pool = super::super::sweep::pool_for(threads);
            let tables = SplitTables::tabulate(&space, pool.as_ref(), &latch)
                .unwrap()
                .expect("the index splits");
            let options = Options {
                limits: &limits,
                threads: Some(threads),
            };
            let split = super::super::sweep::run(&space, &[0], &tables, options, &mut |_, _| {});
            assert_eq!(split.histogram, per_state.histogram, "{threads} threads");
            assert_eq!(split.farthest, per_state.farthest);
            let built: u32 = tables
                .built
                .iter()
                .map(|w| w.load(std::sync::atomic::Ordering::Relaxed).count_ones())
                .sum();
            assert!(built >= 20_000, "every even row: {built}");
            assert!(built as u64 <= 20_000 + super::SAMPLED_ROWS, "{built} rows");
        }
    }

    #[test]
    fn the_per_state_pull_equals_the_push() {
        // One goal: `forward` from it pushes every layer; `backward` pulls the large ones.
        for (a, b) in [(1000, 1), (97, 61), (64, 64)] {
            let mut space = pairs(a, b, false);
            space.goals = vec![0];
            let limits = Limits::default();
            for threads in [1, 2] {
                let options = Options {
                    limits: &limits,
                    threads: Some(threads),
                };
                let push = crate::search::layers::forward(&space, 0, options, &mut |_, _| {});
                let pull = backward(&space, options, &mut |_, _| {});
                assert_eq!(pull.histogram, push.histogram, "{a} x {b}");
                assert_eq!(pull.farthest, push.farthest, "{a} x {b}");
                assert_eq!(pull.stats.visited, a * b);
                assert!(
                    pull.stats.generated < push.stats.generated,
                    "{a} x {b}: the last layers were pulled"
                );
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
