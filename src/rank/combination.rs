//! Colex ranking: a dense index for the `k`-bit masks of `n` bits (the `k`-subsets of `n` cells).
//!
//! A mask with set bits `p_1 < p_2 < ... < p_k` has rank `C(p_1, 1) + C(p_2, 2) + ... + C(p_k, k)`
//! (the combinatorial number system). The ranks are exactly `0..C(n, k)`, and they follow the
//! masks' numeric order: rank `r + 1` is the next larger integer with `k` bits set
//! ([`next_same_popcount`]). So a table over ranks has `C(n, k)` entries and no holes (a 4 x 6
//! board, `k = 8`: 735,471 instead of 2^24).
//!
//! - [`Colex::rank`] adds one precomputed term per byte of the mask: `chunks[j][byte][below]` is
//!   the sum of `C(8j + p, below + t)` over the `t`-th set bit `p` of the byte, where `below` is the
//!   number of set bits in lower bytes. That is `ceil(n / 8)` look-ups and popcounts instead of `k`
//!   dependent steps; the tables take `ceil(n / 8) * 256 * (k + 1)` words (4 x 6, k = 8: 54 KiB).
//! - [`Colex::unrank`] walks down from the top cell: the largest `p` with `C(p, i) <= r` is the
//!   `i`-th bit. Once the walk is below cell 16, the rest of the rank indexes a table of all 16-bit
//!   masks sorted by popcount, then value (128 KiB): the walk is `n - 16` steps instead of
//!   `n + k`, and its branches, which mispredict, are most of an unrank's cost.
//!
//! The Shift plugin's table build ranks and unranks masks in its hot loop (`benches/shift.rs`,
//! `examples/table_build.rs`): measure before changing either.

/// The low cells [`Colex::unrank`] places by one table look-up (a 128 KiB table of `u16`).
const LOW_BITS: u32 = 16;

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
    /// `chunks[(byte_index * 256 + byte) * (k + 1) + below]`; see the module docs.
    chunks: Vec<u64>,
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
        let bytes = n.div_ceil(8);
        let stride = k as usize + 1;
        let mut chunks = vec![0u64; bytes as usize * 256 * stride];
        for j in 0..bytes {
            for byte in 0..256u32 {
                for below in 0..=k {
                    let mut sum = 0u64;
                    let mut t = 0;
                    for p in 0..8 {
                        let cell = 8 * j + p;
                        if byte >> p & 1 == 1 && cell < n {
                            t += 1;
                            // Entries where below + t > k are never read (a mask has k bits);
                            // clamp so they stay in the table's range.
                            sum = sum.wrapping_add(binomial.get(cell, (below + t).min(64)));
                        }
                    }
                    chunks[((j * 256 + byte) as usize) * stride + below as usize] = sum;
                }
            }
        }
        let low_bits = n.min(LOW_BITS);
        let mut low_start = vec![0usize; low_bits as usize + 2];
        for value in 0..1u32 << low_bits {
            low_start[value.count_ones() as usize + 1] += 1;
        }
        for i in 1..low_start.len() {
            low_start[i] += low_start[i - 1];
        }
        let mut low = vec![0u16; 1 << low_bits];
        let mut fill = low_start.clone();
        for value in 0..1u32 << low_bits {
            let group = value.count_ones() as usize;
            low[fill[group]] = value as u16;
            fill[group] += 1;
        }
        Colex {
            n,
            k,
            binomial,
            chunks,
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
        let stride = self.k as usize + 1;
        let mut rank = 0u64;
        let mut below = 0usize;
        // A fixed number of bytes (not "until the rest is zero") keeps the loop's branch
        // predictable.
        for j in 0..self.n.div_ceil(8) as usize {
            let byte = (mask >> (8 * j) & 0xff) as usize;
            rank = rank.wrapping_add(self.chunks[(j * 256 + byte) * stride + below]);
            below += BYTE_POPCOUNT[byte] as usize;
        }
        rank
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
pub fn next_same_popcount(mask: u64) -> u64 {
    let lowest = mask & mask.wrapping_neg();
    let ripple = mask + lowest;
    ripple | (((mask ^ ripple) >> 2) / lowest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_numeric_order_without_holes() {
        for (n, k) in [(5, 0), (5, 2), (9, 4), (12, 12), (17, 3)] {
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
