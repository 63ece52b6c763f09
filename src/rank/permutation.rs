//! Lexicographic ranking of permutations of `0..n`, of one parity's half of them, and of
//! arrangements (`k` distinct pieces placed in `n` cells).
//!
//! Conventions: a permutation is a slice `perm` of the distinct values `0..n` (`perm[i]` is the
//! value at position `i`); an arrangement of `k` pieces is the slice of their cells, `cells[p]` being
//! the cell of piece `p`. Both are ordered lexicographically, position 0 first, so rank 0 is
//! `[0, 1, ..., k - 1]` and the last rank is `[n - 1, n - 2, ..., n - k]`. Inside the functions,
//! value `v` is bit `v` of a `u64` mask.
//!
//! The rank is the mixed-radix number of the Lehmer digits: digit `i` is how many values smaller
//! than `seq[i]` are still unused, in radix `n - i`.
//!
//! - Rank: the unused values are a bitmask, so a digit is one popcount of the mask below the
//!   value, and the number is built by Horner's rule: `n` steps, no factorial table.
//! - Unrank: the digits come off the rank by division from the last (radix `n - k + 1`) to the
//!   first (a multiply by the radix's reciprocal while the rank fits 32 bits), then each value is the digit-th unused one: a branch-free select of the `d`-th set bit
//!   (byte popcounts summed by one multiply, then a 2 KiB table inside the byte). `n` divisions
//!   and `n` selects, no `O(n^2)` scan.
//! - Parity: the digits sum to the number of inversions, so an unrank knows its permutation's
//!   parity for free; [`parity`] of a given permutation counts cycles instead (`O(n)`).
//!
//! The half index: permutations `2i` and `2i + 1` differ exactly in the last two positions (their
//! last radix-2 digit), so they have opposite parities, and each pair holds one permutation of each
//! parity. Hence the permutations of one parity, in lexicographic order, are indexed densely by
//! `rank / 2` in `0..n! / 2`: half the table for puzzles whose moves keep the parity (the 15
//! puzzle's tiles with the blank fixed, Rubik-like corner cycles).

/// `FACTORIAL[n] = n!` for `n <= 20`; `20! < 2^62`, `21!` overflows a `u64`.
const FACTORIAL: [u64; 21] = {
    let mut table = [1u64; 21];
    let mut n = 1;
    while n < 21 {
        table[n] = table[n - 1] * n as u64;
        n += 1;
    }
    table
};

/// Bytes of all ones, and of only their top bits: the broadword constants of [`select`].
const ONES_STEP_8: u64 = 0x0101_0101_0101_0101;
const MSBS_STEP_8: u64 = 0x8080_8080_8080_8080;

/// `SELECT_IN_BYTE[byte * 8 + d]` is the position of the `d`-th (from 0) set bit of `byte` (0
/// where `byte` has no such bit; never read).
const SELECT_IN_BYTE: [u8; 2048] = {
    let mut table = [0u8; 2048];
    let mut byte = 0;
    while byte < 256 {
        let mut d = 0;
        let mut bit = 0;
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[byte * 8 + d] = bit as u8;
                d += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The position of the `d`-th (from 0) set bit of `mask`; `d < mask.count_ones()`.
///
/// Broadword select (Vigna, "Broadword implementation of rank/select queries"): the byte
/// popcounts, summed by one multiply, say which byte holds the bit, and a table says where in the
/// byte. No loop, so no branch that depends on the data (a loop clearing `d` low bits mispredicts
/// on every unrank).
#[inline]
fn select(mask: u64, d: u32) -> u32 {
    debug_assert!(d < mask.count_ones());
    // Popcount of each byte, then byte i of `sums` = popcount of bytes 0..=i (at most 64: no carry).
    let mut bytes = mask - (mask >> 1 & 0x5555_5555_5555_5555);
    bytes = (bytes & 0x3333_3333_3333_3333) + (bytes >> 2 & 0x3333_3333_3333_3333);
    bytes = (bytes + (bytes >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    let sums = bytes.wrapping_mul(ONES_STEP_8);
    // Top bit of byte i set iff sums_i <= d; those bytes are the low ones (sums never decrease),
    // and their number, times 8, is the bit offset of the byte holding the answer.
    let at_most = ((d as u64 * ONES_STEP_8) | MSBS_STEP_8).wrapping_sub(sums) & MSBS_STEP_8;
    let offset = ((at_most >> 7).wrapping_mul(ONES_STEP_8) >> 53) as u32 & !7;
    let before = ((sums << 8) >> offset & 0xff) as u32;
    let byte = (mask >> offset & 0xff) as usize;
    offset + SELECT_IN_BYTE[byte * 8 + (d - before) as usize] as u32
}

/// `RECIPROCALS[r] = floor(2^64 / r) + 1` for `2 <= r <= 64` (0 and 1 unused).
const RECIPROCALS: [u64; 65] = {
    let mut table = [0u64; 65];
    let mut r = 2;
    while r <= 64 {
        table[r] = u64::MAX / r as u64 + 1;
        r += 1;
    }
    table
};

/// `x / radix` for `x < 2^32` and `1 <= radix <= 64`, by a multiply: with `M = 2^64 / r + e`,
/// `0 < e <= 1`, `x * M / 2^64` exceeds `x / r` by less than `2^-32 < 1 / r`, too little to
/// reach the next integer. A 64-bit division is a chain of tens of cycles.
#[inline(always)]
fn div_small(x: u64, radix: u32) -> u64 {
    debug_assert!(x <= u64::from(u32::MAX) && (1..=64).contains(&radix));
    if radix == 1 {
        return x;
    }
    ((u128::from(x) * u128::from(RECIPROCALS[radix as usize])) >> 64) as u64
}

/// The mask of values `0..n`, `n <= 64`.
#[inline]
fn values_below(n: u32) -> u64 {
    u64::MAX.checked_shr(64 - n).unwrap_or(0)
}

/// The lexicographic rank of the distinct values `seq`, all `< n`, among all such sequences of
/// `seq.len()` values.
#[inline]
fn rank_distinct(n: u32, seq: &[u8]) -> u64 {
    if n <= 16 {
        rank_distinct_small(n, seq)
    } else {
        rank_distinct_wide(n, seq)
    }
}

/// [`rank_distinct`] for `n` above 16: by popcounts over the mask of the values not used yet
/// where the processor counts bits in one instruction (`popcnt`, asked of the processor once:
/// the baseline x86-64 target the binary is built for does not assume it); else, for a few
/// values, by comparing each with those before it, and for more by the portable popcount.
#[inline]
fn rank_distinct_wide(n: u32, seq: &[u8]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has `popcnt` (detected just above).
        return unsafe { rank_distinct_popcnt(n, seq) };
    }
    if seq.len() <= 8 {
        rank_distinct_by_comparison(n, seq)
    } else {
        rank_distinct_by_popcount(n, seq)
    }
}

/// [`rank_distinct_by_popcount`] compiled with the `popcnt` instruction.
///
/// # Safety
/// The processor has `popcnt`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn rank_distinct_popcnt(n: u32, seq: &[u8]) -> u64 {
    rank_distinct_by_popcount(n, seq)
}

/// [`rank_distinct`] by popcounts over the mask of the values not used yet: any `n <= 64`.
#[inline(always)]
fn rank_distinct_by_popcount(n: u32, seq: &[u8]) -> u64 {
    let mut unused = values_below(n);
    let mut rank = 0u64;
    for (i, &value) in seq.iter().enumerate() {
        let bit = 1u64 << value;
        debug_assert!(unused & bit != 0, "{value} repeated or not below {n}");
        let digit = (unused & (bit - 1)).count_ones() as u64;
        rank = rank * (n as u64 - i as u64) + digit;
        unused &= !bit;
    }
    rank
}

/// [`rank_distinct`] of a short `seq` (any `n <= 64`): each value's digit is the value less the
/// values before it that are smaller, counted by comparisons (k(k-1)/2 of them for k values:
/// fewer instructions than k portable popcounts while k is small).
#[inline]
fn rank_distinct_by_comparison(n: u32, seq: &[u8]) -> u64 {
    let mut rank = 0u64;
    for (i, &value) in seq.iter().enumerate() {
        let smaller = seq[..i].iter().map(|&v| u64::from(v < value)).sum::<u64>();
        rank = rank * (n as u64 - i as u64) + u64::from(value) - smaller;
    }
    rank
}

/// [`rank_distinct`] for `n <= 16` without a popcount (a dozen instructions on the baseline
/// x86-64 target, which has no `popcnt`): nibble `v` of `below` counts the values used so far
/// that are below `v` (at most 15, so no nibble carries into the next).
#[inline]
fn rank_distinct_small(n: u32, seq: &[u8]) -> u64 {
    const ONES: u64 = 0x1111_1111_1111_1111;
    let mut below = 0u64;
    let mut rank = 0u64;
    for (i, &value) in seq.iter().enumerate() {
        debug_assert!(u32::from(value) < n, "{value} not below {n}");
        let shift = 4 * u32::from(value & 15);
        let digit = u64::from(value) - (below >> shift & 15);
        rank = rank * (n as u64 - i as u64) + digit;
        // Every nibble above `value` counts one more (none past 15: the shift drops them).
        below += (ONES << shift) << 4;
    }
    rank
}

/// Writes the sequence of lexicographic rank `rank` into `out` (as many values as `out` is long,
/// all `< n`), and returns the sum of its Lehmer digits (its inversion count when it is a whole
/// permutation).
#[inline]
fn unrank_distinct(n: u32, mut rank: u64, out: &mut [u8]) -> u32 {
    // The digits first, last one first: the radices grow towards position 0.
    if rank <= u64::from(u32::MAX) {
        // A chain of divisions is most of an unrank; a multiply by the reciprocal is exact here.
        for (i, slot) in out.iter_mut().enumerate().rev() {
            let radix = n - i as u32;
            let quotient = div_small(rank, radix);
            *slot = (rank - quotient * u64::from(radix)) as u8;
            rank = quotient;
        }
    } else {
        for (i, slot) in out.iter_mut().enumerate().rev() {
            let radix = (n as usize - i) as u64;
            *slot = (rank % radix) as u8;
            rank /= radix;
        }
    }
    debug_assert_eq!(rank, 0, "rank out of range");
    let mut unused = values_below(n);
    let mut digits = 0;
    for slot in out.iter_mut() {
        let digit = *slot as u32;
        digits += digit;
        let value = select(unused, digit);
        *slot = value as u8;
        unused &= !(1u64 << value);
    }
    digits
}

/// The parity of a permutation of `0..perm.len()` (at most 64 values): `true` when it is odd (an
/// odd number of transpositions), `false` when even.
///
/// Counts cycles: a permutation of `n` values with `c` cycles is a product of `n - c`
/// transpositions. `O(n)`, no allocation (the visited values are a `u64` mask).
///
/// ```
/// use statespace::rank::parity;
///
/// assert!(!parity(&[0, 1, 2, 3])); // the identity is even
/// assert!(parity(&[1, 0, 2, 3])); // one swap
/// assert!(!parity(&[1, 2, 0, 3])); // a 3-cycle is two swaps
/// ```
pub fn parity(perm: &[u8]) -> bool {
    debug_assert!(perm.len() <= 64);
    let mut seen = 0u64;
    let mut cycles = 0;
    for start in 0..perm.len() {
        if seen >> start & 1 == 0 {
            cycles += 1;
            let mut value = start;
            while seen >> value & 1 == 0 {
                seen |= 1 << value;
                value = perm[value] as usize;
            }
        }
    }
    (perm.len() - cycles) % 2 == 1
}

/// Lexicographic ranks of the permutations of `0..n`, `n <= 20` (so that `n!` fits a `u64`), and
/// of one parity's half of them.
///
/// - [`rank`](Self::rank) / [`unrank`](Self::unrank): a bijection between the permutations and
///   `0..n!`, in lexicographic order (rank 0 is the identity).
/// - [`rank_half`](Self::rank_half) / [`unrank_half`](Self::unrank_half): for `n >= 2`, a
///   bijection between the permutations of one parity and `0..n! / 2`, in lexicographic order.
///
/// Each call is `O(n)` and allocates nothing; the value is a plain `Copy` struct.
///
/// ```
/// use statespace::rank::{Permutations, parity};
///
/// let perms = Permutations::new(3);
/// assert_eq!(perms.count(), 6);
/// assert_eq!(perms.rank(&[0, 1, 2]), 0);
/// assert_eq!(perms.rank(&[1, 0, 2]), 2); // after [0, 1, 2] and [0, 2, 1]
/// let mut out = [0u8; 3];
/// perms.unrank(5, &mut out);
/// assert_eq!(out, [2, 1, 0]);
///
/// // The even half: [0, 1, 2], [1, 2, 0], [2, 0, 1] are indices 0, 1, 2.
/// assert_eq!(perms.half_count(), 3);
/// assert_eq!(perms.rank_half(&[1, 2, 0]), 1);
/// perms.unrank_half(2, false, &mut out);
/// assert_eq!(out, [2, 0, 1]);
/// assert!(!parity(&out));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Permutations {
    n: u32,
}

impl Permutations {
    /// The largest `n`: `20! < 2^64 <= 21!`.
    pub const MAX_LEN: u32 = 20;

    /// The permutations of `0..n`.
    ///
    /// # Panics
    ///
    /// If `n > 20` ([`MAX_LEN`](Self::MAX_LEN)).
    pub fn new(n: u32) -> Self {
        assert!(
            n <= Self::MAX_LEN,
            "permutations of n <= 20 values (got {n})"
        );
        Permutations { n }
    }

    /// The number of values `n`.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The number of permutations: `n!`.
    pub fn count(&self) -> u64 {
        FACTORIAL[self.n as usize]
    }

    /// The lexicographic rank of `perm`, a permutation of `0..n`: in `0..n!`.
    #[inline]
    pub fn rank(&self, perm: &[u8]) -> u64 {
        debug_assert_eq!(perm.len(), self.n as usize);
        rank_distinct(self.n, perm)
    }

    /// Writes the permutation of rank `rank` (`< n!`) into `out` (`n` long).
    #[inline]
    pub fn unrank(&self, rank: u64, out: &mut [u8]) {
        debug_assert_eq!(out.len(), self.n as usize);
        unrank_distinct(self.n, rank, out);
    }

    /// The number of permutations of each parity: `n! / 2`.
    ///
    /// # Panics
    ///
    /// If `n < 2` (one permutation, even: no halves).
    pub fn half_count(&self) -> u64 {
        assert!(self.n >= 2, "the half index needs n >= 2");
        self.count() / 2
    }

    /// The index of `perm` among the permutations of its parity (lexicographic): `rank / 2`, in
    /// `0..n! / 2`. The index alone does not say the parity: the caller keeps it (usually it is
    /// the same for every state of the space).
    #[inline]
    pub fn rank_half(&self, perm: &[u8]) -> u64 {
        debug_assert!(self.n >= 2);
        self.rank(perm) >> 1
    }

    /// Writes the permutation of index `index` (`< n! / 2`) among those that are odd (`odd`) or
    /// even (`!odd`) into `out` (`n` long).
    ///
    /// Unranks `2 * index`, whose parity the unrank knows (its digit sum), and swaps the last two
    /// values if that is the wrong parity: the swap turns it into `2 * index + 1`.
    #[inline]
    pub fn unrank_half(&self, index: u64, odd: bool, out: &mut [u8]) {
        debug_assert!(self.n >= 2);
        debug_assert_eq!(out.len(), self.n as usize);
        let inversions = unrank_distinct(self.n, index << 1, out);
        if (inversions & 1 == 1) != odd {
            let n = out.len();
            out.swap(n - 2, n - 1);
        }
    }
}

/// Lexicographic ranks of the arrangements of `k` distinct pieces in `n` cells (`k <= n <= 64`):
/// the sequences of `k` distinct cells, `cells[p]` being the cell of piece `p`. There are
/// `n! / (n - k)!` of them; a pattern database over a group of `k` tiles indexes by this.
///
/// A bijection between the arrangements and `0..count()` in lexicographic order (rank 0 puts
/// piece `p` in cell `p`); with `k = n` it is [`Permutations`]' rank. Each call is `O(k)` and
/// allocates nothing.
///
/// ```
/// use statespace::rank::Arrangements;
///
/// // Two tiles on a 3-cell board: (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1).
/// let tiles = Arrangements::new(3, 2).unwrap();
/// assert_eq!(tiles.count(), 6);
/// assert_eq!(tiles.rank(&[1, 2]), 3);
/// let mut cells = [0u8; 2];
/// tiles.unrank(4, &mut cells);
/// assert_eq!(cells, [2, 0]);
///
/// // 16 cells, 8 tiles: 16! / 8! arrangements.
/// assert_eq!(Arrangements::new(16, 8).unwrap().count(), 518_918_400);
/// assert!(Arrangements::new(64, 64).is_none()); // 64! does not fit a u64
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrangements {
    cells: u32,
    pieces: u32,
    count: u64,
}

impl Arrangements {
    /// The largest number of cells: a cell is a bit of a `u64` mask.
    pub const MAX_CELLS: u32 = 64;

    /// The arrangements of `pieces` distinct pieces in `cells` cells; `None` when
    /// `pieces > cells`, `cells > 64` or the count `cells! / (cells - pieces)!` does not fit a
    /// `u64`.
    pub fn new(cells: u32, pieces: u32) -> Option<Self> {
        if pieces > cells || cells > Self::MAX_CELLS {
            return None;
        }
        let mut count = 1u64;
        for free in cells - pieces + 1..=cells {
            count = count.checked_mul(free as u64)?;
        }
        Some(Arrangements {
            cells,
            pieces,
            count,
        })
    }

    /// The number of cells `n`.
    pub fn cells(&self) -> u32 {
        self.cells
    }

    /// The number of pieces `k`.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// The number of arrangements: `n! / (n - k)!`.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The lexicographic rank of `cells` (`k` distinct cells, each `< n`): in `0..count()`.
    #[inline]
    pub fn rank(&self, cells: &[u8]) -> u64 {
        debug_assert_eq!(cells.len(), self.pieces as usize);
        rank_distinct(self.cells, cells)
    }

    /// Writes the arrangement of rank `rank` (`< count()`) into `out` (`k` long).
    #[inline]
    pub fn unrank(&self, rank: u64, out: &mut [u8]) {
        debug_assert_eq!(out.len(), self.pieces as usize);
        unrank_distinct(self.cells, rank, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn div_small_is_the_quotient() {
        for radix in 1..=64u32 {
            let edges = [0, 1, radix as u64 - 1, radix as u64, u64::from(u32::MAX)];
            let steps = (0..u64::from(u32::MAX)).step_by(100_003);
            for x in edges.into_iter().chain(steps) {
                assert_eq!(div_small(x, radix), x / u64::from(radix), "{x} / {radix}");
            }
        }
    }
    use proptest::prelude::*;
    use std::collections::HashSet;

    /// Every sequence of `k` distinct values of `0..n`, in lexicographic order (by sorting, not by
    /// construction, so the order is checked independently).
    fn brute_force(n: u8, k: usize) -> Vec<Vec<u8>> {
        fn extend(n: u8, k: usize, prefix: &mut Vec<u8>, all: &mut Vec<Vec<u8>>) {
            if prefix.len() == k {
                all.push(prefix.clone());
                return;
            }
            for v in (0..n).rev() {
                if !prefix.contains(&v) {
                    prefix.push(v);
                    extend(n, k, prefix, all);
                    prefix.pop();
                }
            }
        }
        let mut all = Vec::new();
        extend(n, k, &mut Vec::new(), &mut all);
        all.sort();
        all
    }

    fn inversions(perm: &[u8]) -> usize {
        (0..perm.len())
            .map(|i| (i + 1..perm.len()).filter(|&j| perm[j] < perm[i]).count())
            .sum()
    }

    /// The values `0..n` in an order drawn from `seed` (xorshift, Fisher-Yates).
    fn shuffled(n: u32, seed: u64) -> Vec<u8> {
        let mut values: Vec<u8> = (0..n as u8).collect();
        let mut x = seed | 1;
        for i in (1..values.len()).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.swap(i, (x % (i as u64 + 1)) as usize);
        }
        values
    }

    proptest! {
        /// On wide boards (n up to 64, up to 10 values: the count fits) the three ways rank
        /// alike: by the popcount (with `popcnt` where the processor has it, and without), and
        /// by comparisons; and the rank unranks back.
        #[test]
        fn wide_ranks_agree_every_way(
            n in 17u32..=64,
            seed in any::<u64>(),
            k in 0usize..=10,
        ) {
            let values = shuffled(n, seed);
            let seq = &values[..k];
            let rank = rank_distinct_by_popcount(n, seq);
            prop_assert_eq!(rank_distinct_by_comparison(n, seq), rank);
            prop_assert_eq!(rank_distinct_wide(n, seq), rank);
            let mut out = vec![0u8; k];
            unrank_distinct(n, rank, &mut out);
            prop_assert_eq!(&out[..], seq);
        }
    }

    proptest! {
        /// The nibble counts of small boards rank exactly as the popcounts do.
        #[test]
        fn small_ranks_are_the_popcount_ranks(
            n in 1u32..=16,
            seed in any::<u64>(),
            k in 0usize..=16,
        ) {
            let k = k.min(n as usize);
            let values = shuffled(n, seed);
            let seq = &values[..k];
            prop_assert_eq!(rank_distinct_small(n, seq), rank_distinct_wide(n, seq));
            prop_assert_eq!(rank_distinct_small(n, seq), rank_distinct_by_popcount(n, seq));
            prop_assert_eq!(rank_distinct_small(n, seq), rank_distinct_by_comparison(n, seq));
        }
    }

    #[test]
    fn factorials() {
        assert_eq!(FACTORIAL[0], 1);
        assert_eq!(FACTORIAL[5], 120);
        assert_eq!(FACTORIAL[20], 2_432_902_008_176_640_000);
        assert!(FACTORIAL[20].checked_mul(21).is_none());
    }

    #[test]
    fn select_finds_the_dth_set_bit() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut masks = vec![1, 1 << 63, u64::MAX, 0x8000_0000_0000_0001, 0xff00];
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            masks.push(x);
            masks.push(x & x >> 3); // sparser
        }
        for mask in masks {
            let bits: Vec<u32> = (0..64).filter(|&b| mask >> b & 1 == 1).collect();
            for (d, &bit) in bits.iter().enumerate() {
                assert_eq!(select(mask, d as u32), bit, "mask {mask:x} d {d}");
            }
        }
    }

    #[test]
    fn ranks_are_the_positions_in_lexicographic_order() {
        for n in 0..=6u8 {
            let perms = Permutations::new(n as u32);
            let all = brute_force(n, n as usize);
            assert_eq!(perms.count(), all.len() as u64);
            let mut out = vec![0u8; n as usize];
            for (index, perm) in all.iter().enumerate() {
                assert_eq!(perms.rank(perm), index as u64, "{perm:?}");
                perms.unrank(index as u64, &mut out);
                assert_eq!(&out, perm);
            }
        }
    }

    #[test]
    fn unrank_hits_every_permutation_once() {
        for n in 0..=8u32 {
            let perms = Permutations::new(n);
            let mut out = vec![0u8; n as usize];
            let mut seen = HashSet::new();
            for rank in 0..perms.count() {
                perms.unrank(rank, &mut out);
                let mut sorted = out.clone();
                sorted.sort();
                assert_eq!(
                    sorted,
                    (0..n as u8).collect::<Vec<_>>(),
                    "not a permutation"
                );
                assert_eq!(perms.rank(&out), rank);
                assert!(seen.insert(out.clone()), "{out:?} twice");
            }
            assert_eq!(seen.len() as u64, perms.count());
        }
    }

    #[test]
    fn parity_is_the_inversion_count_mod_2() {
        for n in 0..=7u8 {
            for perm in brute_force(n, n as usize) {
                assert_eq!(parity(&perm), inversions(&perm) % 2 == 1, "{perm:?}");
            }
        }
        let reverse: Vec<u8> = (0..64).rev().collect();
        assert!(!parity(&reverse)); // 32 swaps
        let mut rotate: Vec<u8> = (1..64).collect();
        rotate.push(0);
        assert!(parity(&rotate)); // one 64-cycle: 63 swaps
    }

    #[test]
    fn each_half_index_covers_exactly_its_parity() {
        for n in 2..=7u8 {
            let perms = Permutations::new(n as u32);
            let all = brute_force(n, n as usize);
            for odd in [false, true] {
                let expected: Vec<&Vec<u8>> = all.iter().filter(|p| parity(p) == odd).collect();
                assert_eq!(expected.len() as u64, perms.half_count());
                let mut out = vec![0u8; n as usize];
                for index in 0..perms.half_count() {
                    perms.unrank_half(index, odd, &mut out);
                    // Lexicographic within the half: exactly the brute-force list, in order.
                    assert_eq!(&out, expected[index as usize], "n {n} odd {odd} {index}");
                    assert_eq!(perms.rank_half(&out), index);
                }
            }
        }
    }

    #[test]
    fn arrangements_are_the_positions_in_lexicographic_order() {
        for n in 0..=6u8 {
            for k in 0..=n as usize {
                let arrangements = Arrangements::new(n as u32, k as u32).unwrap();
                let all = brute_force(n, k);
                assert_eq!(arrangements.count(), all.len() as u64, "n {n} k {k}");
                let mut out = vec![0u8; k];
                for (index, cells) in all.iter().enumerate() {
                    assert_eq!(arrangements.rank(cells), index as u64, "{cells:?}");
                    arrangements.unrank(index as u64, &mut out);
                    assert_eq!(&out, cells);
                }
            }
        }
    }

    #[test]
    fn arrangements_refuse_what_does_not_fit() {
        assert!(Arrangements::new(3, 4).is_none());
        assert!(Arrangements::new(65, 1).is_none());
        assert_eq!(Arrangements::new(64, 0).unwrap().count(), 1);
        assert!(Arrangements::new(64, 64).is_none());
        // The boundary is at k = 10 (64! / 53! > 2^64); k <= 20 keeps the product in a u128.
        for k in 0..=20u32 {
            let exact = (64 - k + 1..=64).map(u128::from).product::<u128>();
            let fits = exact <= u64::MAX as u128;
            let arrangements = Arrangements::new(64, k);
            assert_eq!(arrangements.is_some(), fits, "k {k}");
            if let Some(a) = arrangements {
                assert_eq!(a.count() as u128, exact);
                // The last arrangement: the top k cells, largest first.
                let last: Vec<u8> = (64 - k as u8..64).rev().collect();
                assert_eq!(a.rank(&last), a.count() - 1);
            }
        }
    }

    proptest! {
        #[test]
        fn permutations_round_trip(
            perm in (0u8..=20).prop_flat_map(|n| Just((0..n).collect::<Vec<u8>>()).prop_shuffle())
        ) {
            let perms = Permutations::new(perm.len() as u32);
            let rank = perms.rank(&perm);
            prop_assert!(rank < perms.count());
            let mut out = vec![0u8; perm.len()];
            perms.unrank(rank, &mut out);
            prop_assert_eq!(&out, &perm);
            if perm.len() >= 2 {
                let index = perms.rank_half(&perm);
                prop_assert!(index < perms.half_count());
                perms.unrank_half(index, parity(&perm), &mut out);
                prop_assert_eq!(&out, &perm);
            }
        }

        #[test]
        fn arrangements_round_trip(
            (cells, n) in (1u8..=64).prop_flat_map(|n| {
                (Just((0..n).collect::<Vec<u8>>()).prop_shuffle(), Just(n))
            }),
            k in 0usize..=10, // 64! / 53! would not fit a u64
        ) {
            let k = k.min(n as usize);
            let arrangements = Arrangements::new(n as u32, k as u32).unwrap();
            let rank = arrangements.rank(&cells[..k]);
            prop_assert!(rank < arrangements.count());
            let mut out = vec![0u8; k];
            arrangements.unrank(rank, &mut out);
            prop_assert_eq!(&out[..], &cells[..k]);
        }
    }
}
