//! The blank-aware distance table of a tile group: the pattern databases of Korf & Felner (2002)
//! and Felner, Korf & Hanan (2004), built by a 0-1 breadth-first search that tracks the blank.
//!
//! # What is computed
//!
//! The abstract state is where the group's `k` tiles are (a *placement*, ranked as an
//! [`Arrangements`](statespace::rank::Arrangements) of `k` of the `n` cells, in the group's order) and
//! where the blank is. Every other cell holds a tile that is not watched. A move of a watched tile
//! into the blank costs 1; a move of an unwatched tile costs 0 (it only moves the blank to another
//! free cell). The table stores, for each placement, the cheapest cost from the goal over the
//! blank's positions: a lower bound on the watched tiles' moves on any board with that placement,
//! whatever the blank's cell, so the databases of disjoint groups add up (each real move costs 1
//! in exactly the group of the tile it moves).
//!
//! # The search, and why it fits 1 GiB for eight tiles
//!
//! At cost 0 the blank reaches every free cell of its *component* (the free cells connected to
//! it), so the states are (placement, component) and never (placement, cell): for the 15-puzzle's
//! 8-tile group there are `16! / 8!` = 518,918,400 placements and up to 8 free cells each, so
//! 4.15 G (placement, cell) states but far fewer components. Each placement has one word:
//!
//! - bits `0..f`: which of its `f` free cells (numbered in cell order) the blank has been seen in;
//!   a component is always marked whole, so one bit tells whether a component is seen;
//! - 6 bits: the cost at which the placement was first reached, plus 1 (0: not yet), which is the
//!   table's entry at the end;
//! - 2 bits: "a component of this placement was first reached at the current (or next) cost,
//!   later than the placement itself", one bit per parity of the cost.
//!
//! With `f <= 8` the word is 16 bits: 1.04 GB for the 8-tile group (the 7-tile group has 9 free
//! cells and 32-bit words, 231 MB), and the table is compacted in place to one byte per placement
//! at the end, so the build never holds more than that one array. (A 2-bit-per-state layered BFS
//! over (placement, cell) would need the same 1.04 GB plus the table beside it.)
//!
//! Each round `c` scans every placement and expands those first reached at cost `c` or flagged
//! late for `c`: from each seen free cell, each watched tile next to it slides into it; the new
//! placement's blank is the cell the tile left, and its component is found by a flood fill over
//! the free-cell mask (shifts and masks on a `u32`). A successor whose component is unseen is
//! marked at cost `c + 1`. The scan is split over the threads (rayon); the words are atomics,
//! updated by compare-and-swap. One subtlety: a placement that is itself due in round `c` must
//! not gain a cost-`c + 1` component before its own expansion has read its word (it would then
//! expand that component a round early), so such successors are set aside and applied after the
//! round. A late placement reads its word before clearing its flag, and others add to it directly
//! only once the flag is clear.
//!
//! Trade-offs: every round scans all placements (one atomic load each; about 40 rounds for the
//! 8-tile group); a placement's components are expanded again in each round one of them is new,
//! which repeats a few successors; and the random accesses to successor words, not the work per
//! successor, bound the speed. In exchange the build needs no frontier lists and no memory beyond
//! the words, and its result does not depend on the thread count or timing (the tests compare it
//! with an independent search over (placement, blank cell)).

use rayon::prelude::*;
use statespace::limit::{Latch, Limit, Limits};
use statespace::search::Stats;
use statespace::search::table::DistanceTable;
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering};

/// The largest cost a word's 6-bit field holds (stored as cost + 1, 0 meaning unreached).
const MAX_COST: u32 = 62;

/// Placements per parallel work item: large enough that the per-item bookkeeping vanishes,
/// small enough that both threads stay busy and that the run's [`Latch`] (the clock and Ctrl-C),
/// polled once per item, is polled every few milliseconds (an item is at most 65,536 expansions
/// of at most 32 successors each).
const CHUNK: u64 = 1 << 16;

/// The board and the group, as the search needs them.
struct Group<'a> {
    /// Cells of the board: `rows * cols <= 25`.
    n: u32,
    cols: u32,
    /// Every cell's neighbours, as a mask.
    adjacent: [u32; 25],
    /// All cells but those of the first column, and of the last one.
    not_first_col: u32,
    not_last_col: u32,
    /// The group's goal cells, in the group's order.
    goal: &'a [u8],
    /// `weights[i]`: the place value of tile `i`'s Lehmer digit in a rank, `(n - i - 1)! /
    /// (n - k)!`.
    weights: [u64; 25],
    goal_blank: u8,
}

impl Group<'_> {
    /// The component of `seed` (a cell mask) in `free`.
    #[inline]
    fn flood(&self, seed: u32, free: u32) -> u32 {
        let mut reached = seed;
        loop {
            let grown = (reached
                | (reached << 1 & self.not_first_col)
                | (reached >> 1 & self.not_last_col)
                | reached << self.cols
                | reached >> self.cols)
                & free;
            if grown == reached {
                return reached;
            }
            reached = grown;
        }
    }

    /// The arrangement rank of `cells` (the group's tiles' cells, in order): lexicographic, as
    /// [`Arrangements::rank`](statespace::rank::Arrangements::rank) ranks them.
    #[inline]
    fn rank(&self, cells: &[u8]) -> u64 {
        let mut unused = (1u32 << self.n) - 1;
        let mut rank = 0u64;
        for (i, &cell) in cells.iter().enumerate() {
            let bit = 1u32 << cell;
            rank = rank * (self.n as u64 - i as u64) + (unused & (bit - 1)).count_ones() as u64;
            unused &= !bit;
        }
        rank
    }

    /// The Lehmer digits of rank `rank` (`digits[i] < n - i`).
    fn digits(&self, mut rank: u64, digits: &mut [u8]) {
        for (i, digit) in digits.iter_mut().enumerate().rev() {
            let radix = self.n as u64 - i as u64;
            *digit = (rank % radix) as u8;
            rank /= radix;
        }
    }

    /// Steps `digits` to the next rank (an odometer; the last digit moves fastest).
    #[inline]
    fn advance(&self, digits: &mut [u8]) {
        for (i, digit) in digits.iter_mut().enumerate().rev() {
            *digit += 1;
            if (*digit as u32) < self.n - i as u32 {
                return;
            }
            *digit = 0;
        }
    }

    /// The cells of the placement with Lehmer digits `digits`.
    #[inline]
    fn cells(&self, digits: &[u8], cells: &mut [u8]) {
        let mut unused = (1u32 << self.n) - 1;
        for (cell, &digit) in cells.iter_mut().zip(digits) {
            let mut rest = unused;
            for _ in 0..digit {
                rest &= rest - 1;
            }
            *cell = rest.trailing_zeros() as u8;
            unused &= !(1 << *cell);
        }
    }
}

/// A placement's word: an atomic of 16 or 32 bits, laid out as the module docs say.
trait Word: Sync + Sized {
    /// Bits of the word.
    const BITS: u32;
    /// Bits for the free cells: the rest holds the cost and the two flags.
    const CELL_BITS: u32 = Self::BITS - 8;
    const COST_SHIFT: u32 = Self::CELL_BITS;
    const COST_MASK: u32 = 63 << Self::COST_SHIFT;
    /// The late flag of the rounds of cost parity `p`.
    fn late(parity: u32) -> u32 {
        1 << (Self::CELL_BITS + 6 + parity)
    }
    fn load(&self) -> u32;
    fn cas(&self, current: u32, new: u32) -> Result<u32, u32>;
    fn clear(&self, bits: u32);
}

macro_rules! word {
    ($atomic:ty, $int:ty, $bits:expr) => {
        impl Word for $atomic {
            const BITS: u32 = $bits;
            #[inline]
            fn load(&self) -> u32 {
                <$atomic>::load(self, Ordering::Acquire) as u32
            }
            #[inline]
            fn cas(&self, current: u32, new: u32) -> Result<u32, u32> {
                self.compare_exchange_weak(
                    current as $int,
                    new as $int,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                )
                .map(|w| w as u32)
                .map_err(|w| w as u32)
            }
            #[inline]
            fn clear(&self, bits: u32) {
                self.fetch_and(!(bits as $int), Ordering::AcqRel);
            }
        }
    };
}
word!(AtomicU16, u16, 16);
word!(AtomicU32, u32, 32);

/// The cost of placement word `w`, if reached.
#[inline]
fn cost_of<W: Word>(w: u32) -> Option<u32> {
    let stored = (w & W::COST_MASK) >> W::COST_SHIFT;
    stored.checked_sub(1)
}

/// The free-cell bits (bit `j`: the `j`-th free cell in cell order) of the cells `cells`.
#[inline]
fn cell_bits(cells: u32, free: u32) -> u32 {
    let (mut bits, mut rest, mut j) = (0, free, 0);
    while rest != 0 {
        let cell = rest & rest.wrapping_neg();
        if cells & cell != 0 {
            bits |= 1 << j;
        }
        rest &= rest - 1;
        j += 1;
    }
    bits
}

/// The cells of free-cell bits `bits` (the inverse of [`cell_bits`]).
#[inline]
fn cells_of_bits(bits: u32, free: u32) -> u32 {
    let (mut cells, mut rest, mut j) = (0, free, 0);
    while rest != 0 {
        let cell = rest & rest.wrapping_neg();
        if bits & 1 << j != 0 {
            cells |= cell;
        }
        rest &= rest - 1;
        j += 1;
    }
    cells
}

/// The bytes the build holds for `placements` placements with `free` free cells each: one word
/// each, rounded up to whole `u64`s.
pub fn bytes_needed(placements: u64, free: u32) -> u128 {
    let word = if free <= AtomicU16::CELL_BITS { 2 } else { 4 };
    (placements as u128 * word).div_ceil(8) * 8
}

/// The blank-aware table of the group whose goal cells are `goal` (its tiles in order) on a
/// `rows x cols` board whose goal has the blank on `goal_blank`: entry `rank` is the fewest moves
/// of the group's tiles from the goal to the placement of that [`Arrangements`] rank, with
/// unwatched tiles moving for free; 8 bits per entry.
///
/// - [`Limit::Memory`] before allocating when [`bytes_needed`] exceeds the budget;
///   [`Limit::Time`] and [`Limit::Interrupted`] checked every 65,536 placements;
///   [`Limit::Depth`] if a cost passes the word's 6 bits (62), which no board up to 5 x 5 with
///   groups of up to 8 tiles comes near.
/// - Panics unless `rows * cols <= 25`, `goal` holds distinct cells other than `goal_blank`, and
///   at most 24 cells are free; [`TileGroup`](super::heuristic::TileGroup) ensures it.
///
/// [`Arrangements`]: statespace::rank::Arrangements
pub fn build(
    rows: u8,
    cols: u8,
    goal: &[u8],
    goal_blank: u8,
    limits: &Limits,
) -> Result<DistanceTable, Limit> {
    let n = rows as u32 * cols as u32;
    let free = n - goal.len() as u32;
    assert!(n <= 25 && free <= AtomicU32::CELL_BITS && !goal.contains(&goal_blank));
    let placements = statespace::rank::Arrangements::new(n, goal.len() as u32)
        .expect("at most 25 cells")
        .count();
    limits.check_memory(bytes_needed(placements, free))?;
    let words = vec![0u64; bytes_needed(placements, free) as usize / 8];
    if free <= AtomicU16::CELL_BITS {
        run::<AtomicU16>(rows, cols, goal, goal_blank, placements, words, limits)
    } else {
        run::<AtomicU32>(rows, cols, goal, goal_blank, placements, words, limits)
    }
}

fn run<W: Word>(
    rows: u8,
    cols: u8,
    goal: &[u8],
    goal_blank: u8,
    placements: u64,
    mut words: Vec<u64>,
    limits: &Limits,
) -> Result<DistanceTable, Limit> {
    let latch = Latch::new(limits);
    let (n, cols) = (rows as u32 * cols as u32, cols as u32);
    let all = (1u32 << n) - 1;
    let first_col = (0..rows as u32).fold(0, |m, r| m | 1 << (r * cols));
    let mut group = Group {
        n,
        cols,
        adjacent: [0; 25],
        not_first_col: all & !first_col,
        not_last_col: all & !(first_col << (cols - 1)),
        goal,
        weights: [0; 25],
        goal_blank,
    };
    let k = goal.len();
    group.weights[k - 1] = 1;
    for i in (0..k - 1).rev() {
        group.weights[i] = group.weights[i + 1] * (n as u64 - i as u64 - 1);
    }
    for cell in 0..n {
        let bit = 1u32 << cell;
        group.adjacent[cell as usize] = (bit << 1 & group.not_first_col)
            | (bit >> 1 & group.not_last_col)
            | (bit << cols & all)
            | bit >> cols;
    }
    // SAFETY: `W` is an atomic integer of 2 or 4 bytes (the size and alignment of its integer,
    // every bit pattern valid), `words` is 8-aligned and holds at least `placements` of them
    // (`bytes_needed`), and it is borrowed mutably while the view lives, so nothing else touches
    // the memory.
    let view: &[W] =
        unsafe { std::slice::from_raw_parts(words.as_mut_ptr() as *const W, placements as usize) };
    let stats = Search {
        group: &group,
        words: view,
        latch: &latch,
    }
    .run()?;
    compact::<W>(&mut words, placements);
    Ok(DistanceTable::from_byte_codes(placements, words, stats))
}

struct Search<'a, W> {
    group: &'a Group<'a>,
    words: &'a [W],
    /// Time and Ctrl-C: the first work item that meets a limit latches it, and the others stop.
    latch: &'a Latch,
}

/// What one round's work items found.
#[derive(Default)]
struct Round {
    /// Components first reached at the next cost.
    new: u64,
    expanded: u64,
    generated: u64,
    /// Components of placements due in this round, to add after it (see the module docs).
    set_aside: Vec<(u32, u32)>,
}

impl<W: Word> Search<'_, W> {
    fn run(&self) -> Result<Stats, Limit> {
        let g = self.group;
        let goal_rank = g.rank(g.goal);
        let occupied = g.goal.iter().fold(0u32, |m, &c| m | 1 << c);
        let free = ((1u32 << g.n) - 1) & !occupied;
        let component = g.flood(1 << g.goal_blank, free);
        self.words[goal_rank as usize]
            .cas(0, cell_bits(component, free) | 1 << W::COST_SHIFT)
            .expect("a fresh table");
        let mut stats = Stats {
            visited: 1,
            ..Stats::default()
        };
        let chunks = (self.words.len() as u64).div_ceil(CHUNK);
        for cost in 0.. {
            if cost == MAX_COST {
                return Err(Limit::Depth(MAX_COST));
            }
            let round = (0..chunks)
                .into_par_iter()
                .map(|chunk| {
                    let mut round = Round::default();
                    if self.latch.check().is_err() {
                        return round;
                    }
                    let end = ((chunk + 1) * CHUNK).min(self.words.len() as u64);
                    self.scan(chunk * CHUNK..end, cost, &mut round);
                    round
                })
                .reduce(Round::default, |mut a, mut b| {
                    a.new += b.new;
                    a.expanded += b.expanded;
                    a.generated += b.generated;
                    if a.set_aside.len() < b.set_aside.len() {
                        std::mem::swap(&mut a.set_aside, &mut b.set_aside);
                    }
                    a.set_aside.append(&mut b.set_aside);
                    a
                });
            if let Some(reason) = self.latch.reason() {
                return Err(reason);
            }
            let mut new = round.new;
            for (placement, bits) in round.set_aside {
                let word = &self.words[placement as usize];
                let w = word.load();
                if w & bits == 0 {
                    let marked = w | bits | W::late((cost + 1) % 2);
                    word.cas(w, marked).expect("no other thread runs now");
                    new += 1;
                }
            }
            stats.expanded += round.expanded;
            stats.generated += round.generated;
            stats.visited += new;
            if new == 0 {
                stats.depth = cost;
                break;
            }
        }
        stats.elapsed = self.latch.elapsed();
        Ok(stats)
    }

    /// Expands the placements of `range` due at `cost`.
    fn scan(&self, range: std::ops::Range<u64>, cost: u32, round: &mut Round) {
        let g = self.group;
        let k = g.goal.len();
        let mut digits = [0u8; 25];
        g.digits(range.start, &mut digits[..k]);
        let late = W::late(cost % 2);
        let due = (cost + 1) << W::COST_SHIFT;
        let mut cells = [0u8; 25];
        for placement in range {
            let word = &self.words[placement as usize];
            let w = word.load();
            if w & W::COST_MASK == due || w & late != 0 {
                if w & late != 0 {
                    // Read before clearing: from now on others add to this word directly.
                    word.clear(late);
                }
                g.cells(&digits[..k], &mut cells[..k]);
                self.expand(placement, &cells[..k], w, cost, round);
            }
            g.advance(&mut digits[..k]);
        }
    }

    /// Slides every watched tile next to a seen free cell of `placement` (its tiles' cells
    /// `cells`, its word `w`) into it, and marks each successor's component unless it is seen.
    ///
    /// A successor's rank is the placement's plus a difference: moving tile `i` from `from` to
    /// `to` changes its own Lehmer digit by the distance less the earlier tiles in between, and
    /// the digit of each later tile in between by one; a sideways step has no cell in between.
    /// So there is no ranking per successor, and the blank's free-cell number is a subtraction.
    /// (Loading every successor's word before checking any, so that their cache misses overlap,
    /// measured no faster on the 7-tile group's build.)
    #[inline]
    fn expand(&self, placement: u64, cells: &[u8], w: u32, cost: u32, round: &mut Round) {
        let g = self.group;
        round.expanded += 1;
        let occupied = cells.iter().fold(0u32, |m, &c| m | 1 << c);
        let free = ((1u32 << g.n) - 1) & !occupied;
        let blank = cells_of_bits(w & ((1 << W::CELL_BITS) - 1), free);
        // The weight of the tile on each cell; `earlier`: the cells of the tiles before tile `i`.
        let mut weight_on = [0u64; 25];
        for (i, &cell) in cells.iter().enumerate() {
            weight_on[cell as usize] = g.weights[i];
        }
        let mut earlier = 0u32;
        for (i, &from) in cells.iter().enumerate() {
            let later = occupied & !earlier & !(1 << from);
            let mut targets = g.adjacent[from as usize] & blank;
            if targets != 0 {
                let below_from = (1u32 << from) - 1;
                let free_below_from = from as u32 - (occupied & below_from).count_ones();
                while targets != 0 {
                    let to = targets.trailing_zeros();
                    targets &= targets - 1;
                    round.generated += 1;
                    let (low, high) = (from.min(to as u8) as u32, from.max(to as u8) as u32);
                    let between = ((1u32 << high) - 1) & !((2u32 << low) - 1);
                    let mut delta = g.weights[i] * (high - low) as u64;
                    let mut later_between = 0u64;
                    if between != 0 {
                        delta -= g.weights[i] * (earlier & between).count_ones() as u64;
                        let mut passed = later & between;
                        while passed != 0 {
                            later_between += weight_on[passed.trailing_zeros() as usize];
                            passed &= passed - 1;
                        }
                    }
                    let successor = if to > from as u32 {
                        placement + delta + later_between
                    } else {
                        placement - delta - later_between
                    };
                    debug_assert_eq!(successor, {
                        let mut next = [0u8; 25];
                        next[..cells.len()].copy_from_slice(cells);
                        next[i] = to as u8;
                        g.rank(&next[..cells.len()])
                    });
                    let successor_free = (free & !(1 << to)) | 1 << from;
                    let blank_bit = 1 << (free_below_from - (to < from as u32) as u32);
                    if self.words[successor as usize].load() & blank_bit == 0 {
                        let component = g.flood(1 << from, successor_free);
                        let bits = cell_bits(component, successor_free);
                        self.mark(successor, bits, cost, round);
                    }
                }
            }
            earlier |= 1 << from;
        }
    }

    /// Marks component `bits` of `placement` as reached at `cost + 1`.
    #[inline]
    fn mark(&self, placement: u64, bits: u32, cost: u32, round: &mut Round) {
        let word = &self.words[placement as usize];
        let mut w = word.load();
        loop {
            if w & bits != 0 {
                return;
            }
            let marked = match cost_of::<W>(w) {
                None => bits | (cost + 2) << W::COST_SHIFT,
                Some(c) if c == cost + 1 => w | bits,
                Some(c) if c == cost || w & W::late(cost % 2) != 0 => {
                    round.set_aside.push((placement as u32, bits));
                    return;
                }
                Some(_) => w | bits | W::late((cost + 1) % 2),
            };
            match word.cas(w, marked) {
                Ok(_) => {
                    round.new += 1;
                    return;
                }
                Err(now) => w = now,
            }
        }
    }
}

/// Rewrites the words in place as one byte per placement, the cost (255: unreached), and gives
/// the memory past them back. Byte `i` is written after word `i` and every word before it were
/// read (`i <= 2i`), so nothing is overwritten unread.
fn compact<W: Word>(words: &mut Vec<u64>, placements: u64) {
    let bytes = words.as_mut_ptr() as *mut u8;
    let width = W::BITS as usize / 8;
    for i in 0..placements as usize {
        // SAFETY: `i * width + width` bytes lie within the words (they held `placements` words of
        // `width` bytes); no reference to the words is alive.
        let w = unsafe {
            let at = bytes.add(i * width);
            if width == 2 {
                u16::from_ne_bytes([*at, *at.add(1)]) as u32
            } else {
                u32::from_ne_bytes([*at, *at.add(1), *at.add(2), *at.add(3)])
            }
        };
        let code = cost_of::<W>(w).map_or(u8::MAX, |c| c as u8);
        // SAFETY: byte `i` is within the words, and its word (`i / width <= i`) was read.
        unsafe { *bytes.add(i) = code };
    }
    let len = (placements as usize).div_ceil(8);
    // Bytes past the last entry (in its word) hold the unreached code, as tables pad.
    for i in placements as usize..len * 8 {
        // SAFETY: within the first `len` words.
        unsafe { *bytes.add(i) = u8::MAX };
    }
    words.truncate(len);
    words.shrink_to_fit();
    // Entry `i` is byte `i % 8` of word `i / 8` counted from the least significant end.
    for word in words.iter_mut() {
        *word = u64::from_le(*word);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, VecDeque};

    /// An independent 0-1 BFS over (placement as cells, blank cell), with hash maps and a deque,
    /// no masks, no components: the cost of every reachable placement, min over blank cells.
    fn brute_force(rows: u8, cols: u8, goal: &[u8], goal_blank: u8) -> HashMap<Vec<u8>, u32> {
        let n = rows * cols;
        let neighbours = |c: u8| {
            let (r, col) = (c / cols, c % cols);
            let mut out = Vec::new();
            if r > 0 {
                out.push(c - cols);
            }
            if r + 1 < rows {
                out.push(c + cols);
            }
            if col > 0 {
                out.push(c - 1);
            }
            if col + 1 < cols {
                out.push(c + 1);
            }
            out
        };
        let mut cost: HashMap<(Vec<u8>, u8), u32> = HashMap::new();
        let mut queue = VecDeque::new();
        queue.push_back((goal.to_vec(), goal_blank, 0));
        while let Some((cells, blank, c)) = queue.pop_front() {
            if cost
                .get(&(cells.clone(), blank))
                .is_some_and(|&old| old <= c)
            {
                continue;
            }
            cost.insert((cells.clone(), blank), c);
            for to in neighbours(blank) {
                match cells.iter().position(|&x| x == to) {
                    // A watched tile slides into the blank: cost 1.
                    Some(i) => {
                        let mut next = cells.clone();
                        next[i] = blank;
                        queue.push_back((next, to, c + 1));
                    }
                    None => queue.push_front((cells.clone(), to, c)),
                }
            }
        }
        assert!(
            cost.keys()
                .all(|(cells, blank)| *blank < n && !cells.contains(blank))
        );
        let mut best: HashMap<Vec<u8>, u32> = HashMap::new();
        for ((cells, _), c) in cost {
            let entry = best.entry(cells).or_insert(c);
            *entry = (*entry).min(c);
        }
        best
    }

    fn check(rows: u8, cols: u8, goal: &[u8], goal_blank: u8) {
        let n = rows as u32 * cols as u32;
        let table = build(rows, cols, goal, goal_blank, &Limits::default()).unwrap();
        let expected = brute_force(rows, cols, goal, goal_blank);
        let ranks = statespace::rank::Arrangements::new(n, goal.len() as u32).unwrap();
        assert_eq!(table.len(), ranks.count());
        let mut cells = vec![0u8; goal.len()];
        for rank in 0..ranks.count() {
            ranks.unrank(rank, &mut cells);
            let want = expected.get(&cells).map(|&c| c as u64);
            assert_eq!(table.code(rank), want, "{rows}x{cols} {goal:?}: {cells:?}");
        }
        assert_eq!(table.reachable(), expected.len() as u64);
        // It survives the cache's checks.
        let again = DistanceTable::from_bytes(&table.to_bytes()).unwrap();
        assert_eq!(again.histogram(), table.histogram());
    }

    #[test]
    fn equals_a_brute_force_0_1_search() {
        // 16-bit words (at most 8 free cells) and 32-bit ones; groups whose placements cut the
        // free cells into several components; the blank's goal anywhere.
        check(2, 3, &[0, 1, 2], 5);
        check(2, 3, &[0, 1, 2, 3, 4], 5);
        check(3, 3, &[0, 1, 2, 3], 8);
        check(3, 3, &[1, 3, 5, 7], 4);
        check(3, 3, &[0, 1, 2, 3, 4, 5, 6, 7], 8);
        check(3, 4, &[5, 6, 2, 9], 0);
        check(4, 3, &[0, 1, 2], 11);
        check(2, 2, &[0, 1, 2], 3);
    }

    #[test]
    fn refuses_beyond_the_budget_before_allocating() {
        let limits = Limits {
            memory_budget: 1 << 20,
            ..Limits::default()
        };
        let err = build(4, 4, &[0, 1, 2, 3, 4, 5, 6], 15, &limits).unwrap_err();
        assert_eq!(
            err,
            Limit::Memory {
                needed: 57_657_600 * 4,
                budget: 1 << 20
            }
        );
    }
}
