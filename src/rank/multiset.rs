//! Lexicographic ranking of multiset permutations: arrangements of pieces that look alike, such
//! as 8 cells holding 2 pieces of colour 0, 3 of colour 1 and 3 of colour 2.
//!
//! An arrangement is a slice of symbols (`cells[i]` is the symbol in cell `i`) with exactly
//! `counts[s]` cells of each symbol `s`. There are `cells! / (counts[0]! * counts[1]! * ...)` of
//! them (the multinomial coefficient; 560 in the example), ordered lexicographically, cell 0
//! first: rank 0 is the sorted arrangement `[0, 0, 1, 1, 1, 2, 2, 2]`.
//!
//! The rank walks the cells. With `m` cells left, `left[t]` of them of symbol `t`, and `M`
//! arrangements of them, the arrangements that put symbol `t` next number `M * left[t] / m`. So
//! the ones that put a symbol smaller than the actual `s` next, which all come first, number
//! `M * below / m` with `below` the count of cells left of a smaller symbol; the rank adds that,
//! and `M` becomes `M * left[s] / m`. The unrank makes the same walk, picking at each cell the
//! symbol whose range holds what is left of the rank. `O(cells * symbols)` per call, no tables.
//!
//! Every such division is exact (the quotient counts arrangements) and its quotient fits a `u64`
//! (it is at most `M`), although the product may not: the product is a `u128`, shifted right by
//! the divisor's factors of 2 and multiplied by the inverse of its odd part modulo `2^64`. Exact
//! division without a divide instruction (a `u128` one is a library call).

/// `ODD_INVERSE[m]` is the inverse modulo `2^64` of the odd part of `m`, for `1 <= m <= 64`.
const ODD_INVERSE: [u64; 65] = {
    let mut table = [0u64; 65];
    let mut m = 1usize;
    while m <= 64 {
        let odd = (m >> m.trailing_zeros()) as u64;
        // Newton's iteration doubles the number of correct low bits, and `odd` is its own inverse
        // modulo 8: 3, 6, 12, 24, 48, 96 bits.
        let mut inverse = odd;
        let mut step = 0;
        while step < 5 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(inverse)));
            step += 1;
        }
        table[m] = inverse;
        m += 1;
    }
    table
};

/// `product / m`, for `1 <= m <= 64`, when `m` divides `product` and the quotient fits a `u64`.
#[inline]
fn exact_div(product: u128, m: u32) -> u64 {
    // product = q * 2^z * odd: the shift leaves q * odd exactly, and its low 64 bits times the
    // inverse of odd are q modulo 2^64, which is q.
    ((product >> m.trailing_zeros()) as u64).wrapping_mul(ODD_INVERSE[m as usize])
}

/// Lexicographic ranks of the arrangements of a multiset: `counts[s]` cells of each symbol `s`,
/// at most 64 cells and 64 symbols in all, whose number (the multinomial coefficient) fits a
/// `u64`.
///
/// A bijection between the arrangements and `0..count()`, in lexicographic order (rank 0 is the
/// sorted arrangement). Each call is `O(cells * symbols)` and allocates nothing; the value is a
/// plain `Copy` struct (no tables).
///
/// ```
/// use statespace::rank::Multiset;
///
/// // 8 cells: 2 of colour 0, 3 of colour 1, 3 of colour 2.
/// let colours = Multiset::new(&[2, 3, 3]).unwrap();
/// assert_eq!(colours.count(), 560); // 8! / (2! 3! 3!)
/// assert_eq!(colours.rank(&[0, 0, 1, 1, 1, 2, 2, 2]), 0);
/// assert_eq!(colours.rank(&[0, 0, 1, 1, 2, 1, 2, 2]), 1);
/// assert_eq!(colours.rank(&[2, 2, 2, 1, 1, 1, 0, 0]), 559);
/// let mut cells = [0u8; 8];
/// colours.unrank(1, &mut cells);
/// assert_eq!(cells, [0, 0, 1, 1, 2, 1, 2, 2]);
///
/// assert!(Multiset::new(&[1; 21]).is_none()); // 21! does not fit a u64
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Multiset {
    /// `counts[s]` for the first `symbols` entries; 0 past them.
    counts: [u8; 64],
    symbols: usize,
    cells: u32,
    count: u64,
}

impl Multiset {
    /// The largest number of cells (and of symbols).
    pub const MAX_CELLS: u32 = 64;

    /// The arrangements with `counts[s]` cells of symbol `s` (a count may be 0). `None` when
    /// there are more than 64 cells or 64 symbols, or the number of arrangements does not fit a
    /// `u64`.
    pub fn new(counts: &[u8]) -> Option<Self> {
        let cells: u32 = counts.iter().map(|&c| c as u32).sum();
        if counts.len() > Self::MAX_CELLS as usize || cells > Self::MAX_CELLS {
            return None;
        }
        // The multinomial, one cell at a time: adding the j-th cell of a symbol to `placed - 1`
        // cells multiplies the count by placed / j, exactly (both sides count arrangements), and
        // never decreases it, so the first step past a u64 means the total is past it.
        let mut count = 1u128;
        let mut placed = 0u128;
        for &c in counts {
            for j in 1..=c as u128 {
                placed += 1;
                count = count * placed / j;
                if count > u64::MAX as u128 {
                    return None;
                }
            }
        }
        let mut table = [0u8; 64];
        table[..counts.len()].copy_from_slice(counts);
        Some(Multiset {
            counts: table,
            symbols: counts.len(),
            cells,
            count: count as u64,
        })
    }

    /// The number of cells: the sum of the counts.
    pub fn cells(&self) -> u32 {
        self.cells
    }

    /// The count of each symbol, as given to [`new`](Self::new).
    pub fn counts(&self) -> &[u8] {
        &self.counts[..self.symbols]
    }

    /// The number of arrangements: `cells! / (counts[0]! * counts[1]! * ...)`.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The lexicographic rank of `cells` (one symbol per cell, with the counts given to
    /// [`new`](Self::new)): in `0..count()`.
    #[inline]
    pub fn rank(&self, cells: &[u8]) -> u64 {
        debug_assert_eq!(cells.len(), self.cells as usize);
        let mut left = self.counts;
        // The arrangements of the cells from i on, given what is left of each symbol.
        let mut arrangements = self.count;
        let mut rank = 0u64;
        for (i, &symbol) in cells.iter().enumerate() {
            let m = self.cells - i as u32;
            let s = symbol as usize;
            debug_assert!(left[s] > 0, "too many cells of symbol {s}");
            let below: u32 = left[..s].iter().map(|&c| c as u32).sum();
            rank += exact_div(arrangements as u128 * below as u128, m);
            arrangements = exact_div(arrangements as u128 * left[s] as u128, m);
            left[s] -= 1;
        }
        rank
    }

    /// Writes the arrangement of rank `rank` (`< count()`) into `out` (`cells()` long).
    #[inline]
    pub fn unrank(&self, mut rank: u64, out: &mut [u8]) {
        debug_assert!(rank < self.count, "rank out of range");
        debug_assert_eq!(out.len(), self.cells as usize);
        let mut left = self.counts;
        let mut arrangements = self.count;
        for (i, slot) in out.iter_mut().enumerate() {
            let m = self.cells - i as u32;
            // Symbol s's arrangements are ranks start..end, start = M * below / m: find the one
            // holding `rank`. A symbol with none left has an empty range and is passed over.
            let mut s = 0;
            let mut below = 0u32;
            let mut start = 0u64;
            loop {
                let with = below + left[s] as u32;
                let end = exact_div(arrangements as u128 * with as u128, m);
                if rank < end {
                    break;
                }
                start = end;
                below = with;
                s += 1;
            }
            rank -= start;
            arrangements = exact_div(arrangements as u128 * left[s] as u128, m);
            left[s] -= 1;
            *slot = s as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::Permutations;
    use proptest::prelude::*;

    /// Every arrangement with these counts, sorted lexicographically (filtered from all
    /// `symbols^cells` sequences, so the order is checked independently of the walk).
    fn brute_force(counts: &[u8]) -> Vec<Vec<u8>> {
        let symbols = counts.len() as u64;
        let cells: usize = counts.iter().map(|&c| c as usize).sum();
        let mut all = Vec::new();
        if symbols == 0 {
            all.push(Vec::new());
            return all;
        }
        for mut code in 0..symbols.pow(cells as u32) {
            let seq: Vec<u8> = (0..cells)
                .map(|_| {
                    let s = (code % symbols) as u8;
                    code /= symbols;
                    s
                })
                .collect();
            if (0..counts.len())
                .all(|s| seq.iter().filter(|&&x| x == s as u8).count() == counts[s] as usize)
            {
                all.push(seq);
            }
        }
        all.sort();
        all
    }

    #[test]
    fn exact_division_recovers_the_quotient() {
        for m in 1..=64u32 {
            for q in [
                0,
                1,
                7,
                560,
                u32::MAX as u64,
                1 << 63,
                u64::MAX / 3,
                u64::MAX,
            ] {
                assert_eq!(exact_div(q as u128 * m as u128, m), q, "{q} / {m}");
            }
        }
    }

    #[test]
    fn ranks_are_the_positions_in_lexicographic_order() {
        let cases: [&[u8]; 10] = [
            &[],
            &[4],
            &[2, 3, 3],
            &[1, 1, 1, 1],
            &[0, 2, 0, 1],
            &[3, 0, 2],
            &[1, 2, 1, 2],
            &[5, 1],
            &[2, 2, 2, 2],
            &[0],
        ];
        for counts in cases {
            let multiset = Multiset::new(counts).unwrap();
            let all = brute_force(counts);
            assert_eq!(multiset.count(), all.len() as u64, "{counts:?}");
            assert_eq!(multiset.counts(), counts);
            let mut out = vec![0u8; multiset.cells() as usize];
            for (index, cells) in all.iter().enumerate() {
                assert_eq!(multiset.rank(cells), index as u64, "{counts:?} {cells:?}");
                multiset.unrank(index as u64, &mut out);
                assert_eq!(&out, cells, "{counts:?} {index}");
            }
        }
    }

    #[test]
    fn distinct_pieces_rank_as_permutations() {
        let multiset = Multiset::new(&[1; 9]).unwrap();
        let perms = Permutations::new(9);
        assert_eq!(multiset.count(), perms.count());
        let mut perm = [0u8; 9];
        for rank in (0..perms.count()).step_by(97) {
            perms.unrank(rank, &mut perm);
            assert_eq!(multiset.rank(&perm), rank);
        }
    }

    #[test]
    fn refuses_what_does_not_fit() {
        assert_eq!(
            Multiset::new(&[1; 20]).unwrap().count(),
            2_432_902_008_176_640_000
        );
        assert!(Multiset::new(&[1; 21]).is_none());
        assert!(Multiset::new(&[65]).is_none());
        assert!(Multiset::new(&[0; 65]).is_none());
        assert_eq!(Multiset::new(&[64]).unwrap().count(), 1);
        // C(64, 32) fits; 64 cells of three colours do not.
        assert_eq!(
            Multiset::new(&[32, 32]).unwrap().count(),
            1_832_624_140_942_590_534
        );
        assert!(Multiset::new(&[22, 21, 21]).is_none());
        // The boundary, against an exact u128 multinomial.
        for a in 0..=20u8 {
            for b in 0..=20u8 {
                let c = 64 - a - b;
                let counts = [a, b, c];
                let mut exact = 1u128;
                let mut n = 0u128;
                for &k in &counts {
                    for j in 1..=k as u128 {
                        n += 1;
                        exact = exact * n / j;
                    }
                }
                let multiset = Multiset::new(&counts);
                assert_eq!(multiset.is_some(), exact <= u64::MAX as u128, "{counts:?}");
                if let Some(m) = multiset {
                    assert_eq!(m.count() as u128, exact);
                    let mut last = Vec::new();
                    for s in (0..3u8).rev() {
                        last.extend(std::iter::repeat_n(s, counts[s as usize] as usize));
                    }
                    assert_eq!(m.rank(&last), m.count() - 1, "{counts:?}");
                }
            }
        }
    }

    proptest! {
        #[test]
        fn round_trip(
            (counts, cells) in prop::collection::vec(0u8..=10, 1..=6).prop_flat_map(|counts| {
                let sorted: Vec<u8> = (0..counts.len() as u8)
                    .flat_map(|s| std::iter::repeat_n(s, counts[s as usize] as usize))
                    .collect();
                (Just(counts), Just(sorted).prop_shuffle())
            })
        ) {
            let multiset = Multiset::new(&counts);
            prop_assume!(multiset.is_some());
            let multiset = multiset.unwrap();
            let rank = multiset.rank(&cells);
            prop_assert!(rank < multiset.count());
            let mut out = vec![0u8; cells.len()];
            multiset.unrank(rank, &mut out);
            prop_assert_eq!(out, cells);
        }
    }
}
