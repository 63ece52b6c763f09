//! Colex ranking: a dense index for the `k`-bit masks of `n` bits (the `k`-subsets of `n` cells).
//!
//! A mask with set bits `p_1 < p_2 < ... < p_k` has rank `C(p_1, 1) + C(p_2, 2) + ... + C(p_k, k)`
//! (the combinatorial number system). The ranks are exactly `0..C(n, k)`, and they follow the
//! masks' numeric order: rank `r + 1` is the next larger integer with `k` bits set
//! ([`next_same_popcount`]). So a table over ranks has `C(n, k)` entries and no holes (a 4 x 6
//! board, `k = 8`: 735,471 instead of 2^24).
//!
//! - [`Colex::rank`] adds one precomputed term per chunk of the mask. A middle chunk's term
//!   depends on its bits and on `below`, the number of set bits in lower chunks:
//!   `middle[j][byte][below]` is the sum of `C(p, below + t)` over the `t`-th set bit `p` of the
//!   byte (8 bits: tables of `256 * (k + 1)` words). The two end chunks need no `below`: the
//!   lowest has none below it, and the highest has `k` minus its own bits below it (the mask has
//!   exactly `k`). So they are wider, up to 12 bits each (4096 words, 32 KiB, each), and a mask of
//!   up to 24 cells (4 x 6: 735,471 masks of 8 cells) ranks by two look-ups and an add, without a
//!   popcount. Wider masks add a look-up and a popcount per middle byte.
//! - [`Colex::unrank_after`] steps from a known mask to a near rank by Gosper's hack (about ten
//!   instructions a step, where an unrank costs about 150): what a scan in rank order uses.
//! - [`Colex::unrank`] walks down from the top cell: the largest `p` with `C(p, i) <= r` is the
//!   `i`-th bit. Once the walk is below cell 16, the rest of the rank indexes a table of all 16-bit
//!   masks sorted by popcount, then value (128 KiB): the walk is `n - 16` steps instead of
//!   `n + k`, and its branches, which mispredict, are most of an unrank's cost.
//!
//! The Shift plugin's table build ranks and unranks masks in its hot loop (`benches/shift.rs`,
//! `examples/table_build.rs`): measure before changing either.

/// The low cells [`Colex::unrank`] places by one table look-up (a 128 KiB table of `u16`).
const LOW_BITS: u32 = 16;
/// The widest end chunk of [`Colex::rank`]: two of 12 bits cover the HDU board's 24 cells in
/// 64 KiB of terms; 16 bits would take 1 MiB, more than a core's L2 share, for one look-up less
/// only on boards of 25 to 32 cells.
const END_BITS: u32 = 12;
/// The farthest [`Colex::unrank_after`] steps rather than unranks: a step costs about a
/// fifteenth of an unrank, and a scan's misses on the stepping loop's exit cost the rest.
const MAX_STEPS: u64 = 12;

/// Set bits per byte value: a lookup, because the portable x86-64 target has no popcount
/// instruction and its emulation costs more than the rest of a rank step.
const BYTE_POPCOUNT: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    table
};

/// Binomial coefficients `C(n, k)` for `n, k <= 64` (all fit a `u64`: the largest is
/// `C(64, 32) < 2^61`), as a precomputed 65 x 65 table (33 KiB).
///
/// ```
/// use statespace::rank::Binomial;
///
/// let binomial = Binomial::new();
/// assert_eq!(binomial.get(5, 2), 10);
/// assert_eq!(binomial.get(2, 5), 0);
/// assert_eq!(binomial.get(64, 32), 1_832_624_140_942_590_534);
/// ```
#[derive(Clone, Debug)]
pub struct Binomial {
    table: Vec<[u64; 65]>,
}

impl Binomial {
    /// Pascal's triangle up to row 64.
    pub fn new() -> Self {
        let mut table = vec![[0u64; 65]; 65];
        for n in 0..=64 {
            table[n][0] = 1;
            for k in 1..=n {
                table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            }
        }
        Binomial { table }
    }

    /// `C(n, k)`; 0 when `k > n`.
    #[inline]
    pub fn get(&self, n: u32, k: u32) -> u64 {
        self.table[n as usize][k as usize]
    }
}

impl Default for Binomial {
    fn default() -> Self {
        Binomial::new()
    }
}

/// Ranks and unranks the `k`-bit masks of `n` bits (`n <= 64`) in colex order, which is numeric
/// order: bit `p` of a mask is cell `p`, and rank 0 is the mask of the `k` low bits.
///
/// [`rank`](Self::rank) and [`unrank`](Self::unrank) are exact inverses between those masks and
/// `0..count()`; neither allocates. Construction builds the look-up tables of the module docs.
///
/// ```
/// use statespace::rank::Colex;
///
/// let colex = Colex::new(5, 2); // the 2-cell masks of 5 cells
/// assert_eq!(colex.count(), 10);
/// assert_eq!(colex.rank(0b00011), 0);
/// assert_eq!(colex.rank(0b00101), 1); // the next larger integer with 2 bits set
/// assert_eq!(colex.rank(0b11000), 9);
/// assert_eq!(colex.unrank(1), 0b00101);
/// ```
#[derive(Clone, Debug)]
pub struct Colex {
    n: u32,
    k: u32,
    binomial: Binomial,
    /// The terms of the lowest `first_bits` cells, by their bits (nothing below them). Fixed
    /// arrays of `2^END_BITS`, indexed by 12 bits, need no bounds checks.
    first: Box<[u64; 1 << END_BITS]>,
    first_bits: u32,
    /// The middle bytes, from cell `first_bits` up:
    /// `middle[(byte_index * 256 + byte) * (k + 1) + below]`; see the module docs.
    middle: Vec<u64>,
    middle_bytes: u32,
    /// The terms of the cells from `last_shift` up, by their bits (`k` minus their count below).
    last: Box<[u64; 1 << END_BITS]>,
    last_shift: u32,
    /// Every `low_bits`-bit mask, grouped by popcount and in numeric order within a group:
    /// `low[low_start[i] + r]` is the `i`-bit mask of colex rank `r` among the low cells.
    low: Vec<u16>,
    low_start: Vec<usize>,
    low_bits: u32,
}

impl Colex {
    /// A ranking of the `k`-subsets of `n` cells; `k <= n <= 64`.
    pub fn new(n: u32, k: u32) -> Self {
        assert!(k <= n && n <= 64, "k <= n <= 64");
        let binomial = Binomial::new();
        // The sum of `C(cell, below + t)` over the `t`-th set bit of `bits`, placed at `start`.
        // Entries where below + t > k are never read (a mask has k bits); clamp so they stay in
        // the table's range.
        let term = |mut bits: u32, start: u32, below: u32| {
            let (mut sum, mut t) = (0u64, 0);
            while bits != 0 {
                t += 1;
                let cell = start + bits.trailing_zeros();
                sum = sum.wrapping_add(binomial.get(cell, (below + t).min(64)));
                bits &= bits - 1;
            }
            sum
        };
        let first_bits = n.min(END_BITS);
        let rest = n - first_bits;
        let middle_bytes = rest.saturating_sub(END_BITS).div_ceil(8);
        let last_shift = first_bits + 8 * middle_bytes;
        let mut first = Box::new([0u64; 1 << END_BITS]);
        for (v, entry) in first.iter_mut().enumerate().take(1 << first_bits) {
            *entry = term(v as u32, 0, 0);
        }
        let stride = k as usize + 1;
        let mut middle = vec![0u64; middle_bytes as usize * 256 * stride];
        for j in 0..middle_bytes {
            for byte in 0..256u32 {
                for below in 0..=k {
                    let at = ((j * 256 + byte) as usize) * stride + below as usize;
                    middle[at] = term(byte, first_bits + 8 * j, below);
                }
            }
        }
        let mut last = Box::new([0u64; 1 << END_BITS]);
        for (v, entry) in last.iter_mut().enumerate().take(1 << (n - last_shift)) {
            let v = v as u32;
            *entry = term(v, last_shift, k.saturating_sub(v.count_ones()));
        }
        let low_bits = n.min(LOW_BITS);
        // Group i holds the C(low_bits, i) masks of i bits.
        let mut low_start = vec![0usize; low_bits as usize + 2];
        for i in 0..=low_bits as usize {
            low_start[i + 1] = low_start[i] + binomial.get(low_bits, i as u32) as usize;
        }
        let mut low = vec![0u16; 1 << low_bits];
        let mut fill = low_start.clone();
        for value in 0..1u32 << low_bits {
            // Two byte look-ups: `count_ones` is a dozen instructions on portable x86-64.
            let group = (BYTE_POPCOUNT[(value & 0xff) as usize]
                + BYTE_POPCOUNT[(value >> 8) as usize]) as usize;
            low[fill[group]] = value as u16;
            fill[group] += 1;
        }
        Colex {
            n,
            k,
            binomial,
            first,
            first_bits,
            middle,
            middle_bytes,
            last,
            last_shift,
            low,
            low_start,
            low_bits,
        }
    }

    /// The number of masks: `C(n, k)`.
    pub fn count(&self) -> u64 {
        self.binomial.get(self.n, self.k)
    }

    /// The rank of `mask`, which has exactly `k` of its low `n` bits set.
    #[inline]
    pub fn rank(&self, mask: u64) -> u64 {
        // Bits of a mask past cell n are clear: 12 bits index the first table whatever n is.
        let low = mask & ((1 << END_BITS) - 1);
        let mut rank = self.first[low as usize];
        if self.middle_bytes > 0 {
            let stride = self.k as usize + 1;
            let mut below = (BYTE_POPCOUNT[(low & 0xff) as usize]
                + BYTE_POPCOUNT[(low >> 8) as usize]) as usize;
            // A fixed number of bytes (not "until the rest is zero") keeps the loop's branch
            // predictable.
            for j in 0..self.middle_bytes as usize {
                let byte = (mask >> (self.first_bits as usize + 8 * j) & 0xff) as usize;
                rank = rank.wrapping_add(self.middle[(j * 256 + byte) * stride + below]);
                below += BYTE_POPCOUNT[byte] as usize;
            }
        }
        rank.wrapping_add(self.last[(mask >> self.last_shift & ((1 << END_BITS) - 1)) as usize])
    }

    /// The mask of rank `rank` (`< count()`).
    pub fn unrank(&self, mut rank: u64) -> u64 {
        let mut mask = 0u64;
        let mut p = self.n;
        let mut i = self.k;
        while i > 0 {
            if p <= self.low_bits {
                // The remaining bits all lie in the low cells: one look-up places them.
                mask |= self.low[self.low_start[i as usize] + rank as usize] as u64;
                break;
            }
            // The i-th bit is the largest p with C(p, i) <= rank.
            p -= 1;
            let c = self.binomial.get(p, i);
            if c <= rank {
                rank -= c;
                mask |= 1u64 << p;
                i -= 1;
            }
        }
        mask
    }

    /// The mask of rank `rank`, given `from`, the mask of an earlier rank `at` (`at < rank`):
    /// steps up from `from` when `rank` is near, else unranks. Same result as
    /// [`unrank`](Self::unrank).
    #[inline]
    pub fn unrank_after(&self, at: u64, from: u64, rank: u64) -> u64 {
        debug_assert!(at < rank && self.rank(from) == at);
        if rank - at > MAX_STEPS {
            return self.unrank(rank);
        }
        (at..rank).fold(from, |mask, _| next_same_popcount(mask))
    }
}

/// The next larger integer with the same number of set bits (Gosper's hack); the masks of
/// consecutive colex ranks. `mask` is non-zero and has a larger successor in 64 bits.
///
/// ```
/// use statespace::rank::next_same_popcount;
///
/// assert_eq!(next_same_popcount(0b0011), 0b0101);
/// assert_eq!(next_same_popcount(0b0110), 0b1001);
/// ```
#[inline]
pub fn next_same_popcount(mask: u64) -> u64 {
    let lowest = mask & mask.wrapping_neg();
    let ripple = mask + lowest;
    // The textbook form divides by `lowest`; a shift by its position is the same and costs a
    // cycle where a 64-bit division costs dozens.
    ripple | ((mask ^ ripple) >> 2 >> lowest.trailing_zeros())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_numeric_order_without_holes() {
        // Up to 12 cells: the first chunk alone; 13 to 24: both end chunks; more: middle bytes
        // too, the last one of 12 cells (40) or fewer (26, 30).
        let sizes = [(5, 0), (5, 2), (9, 4), (12, 12), (17, 3), (24, 8), (26, 5)];
        for (n, k) in sizes.into_iter().chain([(30, 3), (40, 2), (64, 2)]) {
            let colex = Colex::new(n, k);
            let mut mask = (1u64 << k) - 1;
            for rank in 0..colex.count() {
                assert_eq!(colex.rank(mask), rank, "n {n} k {k} mask {mask:b}");
                assert_eq!(colex.unrank(rank), mask);
                if rank + 1 < colex.count() {
                    mask = next_same_popcount(mask);
                }
            }
        }
    }

    #[test]
    fn unrank_after_steps_or_unranks_to_the_same_mask() {
        for (n, k) in [(24, 8), (12, 1), (30, 4)] {
            let colex = Colex::new(n, k);
            let count = colex.count();
            for at in (0..count - 1).step_by(977) {
                let from = colex.unrank(at);
                // Gaps within the stepping range, at its edge, and past it.
                for gap in [1, 2, 7, MAX_STEPS, MAX_STEPS + 1, 1000] {
                    let rank = at + gap;
                    if rank < count {
                        assert_eq!(colex.unrank_after(at, from, rank), colex.unrank(rank));
                    }
                }
            }
        }
    }

    #[test]
    fn ranks_are_the_positions_in_a_brute_force_sort() {
        for n in 0..=12u32 {
            for k in 0..=n {
                let colex = Colex::new(n, k);
                let masks: Vec<u64> = (0..1u64 << n).filter(|m| m.count_ones() == k).collect();
                assert_eq!(colex.count(), masks.len() as u64, "n {n} k {k}");
                for (index, &mask) in masks.iter().enumerate() {
                    assert_eq!(colex.rank(mask), index as u64, "n {n} k {k} mask {mask:b}");
                    assert_eq!(colex.unrank(index as u64), mask, "n {n} k {k}");
                }
            }
        }
    }

    #[test]
    fn binomials_match_the_factorial_formula() {
        let binomial = Binomial::new();
        for n in 0..=20u32 {
            for k in 0..=22u32 {
                let expected = if k > n {
                    0
                } else {
                    (1..=k as u64).fold(1u64, |c, i| c * (n as u64 - k as u64 + i) / i)
                };
                assert_eq!(binomial.get(n, k), expected, "C({n}, {k})");
            }
        }
    }

    #[test]
    fn full_width_masks_rank() {
        let colex = Colex::new(64, 32);
        let top = !0u64 << 32;
        assert_eq!(colex.rank(top), colex.count() - 1);
        assert_eq!(colex.unrank(colex.count() - 1), top);
        assert_eq!(colex.rank(u32::MAX as u64), 0);
    }
}
