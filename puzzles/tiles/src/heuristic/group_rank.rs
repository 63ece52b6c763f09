//! [`GroupRank`]: a tile group's table index from its tiles' cells, for the incremental sums'
//! hot path (`heuristic/sums.rs`), where every node ranks one or two groups.
//!
//! The index is [`Arrangements::rank`] of the cells (lexicographic, the group's order), the
//! same number, computed another way. There, Horner's rule: each Lehmer digit waits for the
//! product of the ones before it (a multiply and an add in one chain), and each digit's
//! popcount over the values still unused waits for the previous digit's clearing. Here, the
//! place values: `rank = sum of digit[i] * weight[i]`, `weight[i] = (n - i - 1)! / (n - k)!`,
//! and `digit[i] = cell[i] - (cells before i below it)`, the count a popcount of the mask of
//! the cells before `i` below `cell[i]`. The only chain is the OR of the mask (one instruction
//! a tile); the digits, their products and the adds overlap.
//!
//! The popcount is a parameter ([`Count`]) because the baseline x86-64 target has no `popcnt`
//! instruction, and `count_ones` there compiles to a dozen bit operations: [`Table`] counts a
//! mask of at most 26 cells by two reads of an 8 KiB table of byte counts (13 bits each), the
//! portable path; [`Popcnt`] is `count_ones`, a single instruction once compiled inside a
//! function with `popcnt` enabled (the sums pick one at run time, when they are made). The two
//! give the same ranks (tested, and against [`Arrangements::rank`]).
//!
//! A group of six tiles (the 24-puzzle's) counts by comparisons instead: `digit[i]` is
//! `cell[i]` less how many of the cells before it are below it, fifteen comparisons in all,
//! about as many instructions as the popcounts and their masks, and none needs a target
//! feature: the successor that ranks them is then plain code that inlines into IDA*'s node
//! loop, where the copy compiled with `popcnt` was a call per successor (its arguments, its
//! saved registers; 3 to 4 % of the 24-puzzle's search time).
//!
//! [`Arrangements::rank`]: statespace::rank::Arrangements::rank

use super::group::MAX_GROUP;

/// The most cells a [`Table`] count covers: two reads of [`HALF_BITS`] bits.
pub(crate) const MAX_RANK_CELLS: u32 = 2 * HALF_BITS;
const HALF_BITS: u32 = 13;

/// The arrangement rank of a group of `k` tiles on `n` cells by place values (module docs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct GroupRank {
    /// `weights[i]`: the place value of tile `i`'s digit, `(n - i - 1)! / (n - k)!`.
    weights: [u64; MAX_GROUP],
    k: usize,
}

impl GroupRank {
    /// The rank of `k` tiles on `n` cells; `None` past [`MAX_RANK_CELLS`] cells or
    /// [`MAX_GROUP`] tiles (or `k > n`).
    pub(crate) fn new(n: u32, k: usize) -> Option<GroupRank> {
        if n > MAX_RANK_CELLS || k > MAX_GROUP || k > n as usize {
            return None;
        }
        let mut weights = [0u64; MAX_GROUP];
        let mut weight = 1u64;
        for i in (0..k).rev() {
            weights[i] = weight;
            weight = weight.checked_mul(u64::from(n) - i as u64)?;
        }
        Some(GroupRank { weights, k })
    }

    /// The rank of the first `k` of `cells` (distinct, each below `n`), its popcounts by `C`
    /// (a group of [`COMPARED`] tiles counts by comparisons and needs no popcount).
    /// Inlined into its caller, so that the cells come from registers and `C` compiles as the
    /// caller's target features allow.
    #[inline(always)]
    pub(crate) fn rank<C: Count>(&self, cells: impl IntoIterator<Item = u8>) -> u64 {
        // The 24-puzzle's 6-tile groups unrolled: no loop counter, no zip.
        if self.k == COMPARED {
            return self.rank_compared::<COMPARED>(cells);
        }
        let mut used = 0u32;
        let mut rank = 0u64;
        for (&weight, c) in self.weights[..self.k].iter().zip(cells) {
            let c = u32::from(c);
            debug_assert!(
                c < MAX_RANK_CELLS && used & 1 << c == 0,
                "cell {c} repeated"
            );
            let digit = c - C::ones(used & ((1 << c) - 1));
            rank += u64::from(digit) * weight;
            used |= 1 << c;
        }
        rank
    }
}

/// The group size whose rank counts the cells before a tile's below it by comparisons
/// ([`GroupRank::uses_popcount`] is false for it): the 24-puzzle's six tiles.
const COMPARED: usize = 6;

impl GroupRank {
    /// Whether [`rank`](Self::rank) counts bits (its `C` matters): not for a group of
    /// [`COMPARED`] tiles. The sums then need no copy compiled with `popcnt`, and their
    /// successor is inlined into IDA*'s node loop rather than called.
    pub(crate) fn uses_popcount(&self) -> bool {
        self.k != COMPARED
    }

    /// [`rank`](Self::rank) of exactly `K` tiles (`K == k`), unrolled, each digit's count of
    /// the cells before it below it by `K - 1` comparisons at most (15 for six tiles, no
    /// popcount, no chain through a mask of the cells used): the same digits, so the same
    /// rank, on any processor.
    #[inline(always)]
    fn rank_compared<const K: usize>(&self, cells: impl IntoIterator<Item = u8>) -> u64 {
        debug_assert_eq!(K, self.k);
        let mut cells = cells.into_iter();
        let c: [u32; K] = std::array::from_fn(|_| u32::from(cells.next().unwrap_or(0)));
        let mut rank = 0u64;
        for i in 0..K {
            let below: u32 = (0..i).map(|j| u32::from(c[j] < c[i])).sum();
            rank += u64::from(c[i] - below) * self.weights[i];
        }
        rank
    }
}

/// How a rank counts the set bits of a mask of cells (below 2^[`MAX_RANK_CELLS`]).
pub(crate) trait Count {
    fn ones(mask: u32) -> u32;
}

/// By two reads of [`ONES`]: no `popcnt` needed (module docs).
pub(crate) struct Table;

/// `ONES[m]`: the set bits of `m` (below 2^13): 8 KiB, which stays in the L1 cache beside the
/// search's other small tables.
static ONES: [u8; 1 << HALF_BITS] = {
    let mut table = [0u8; 1 << HALF_BITS];
    let mut m = 1;
    while m < table.len() {
        table[m] = table[m >> 1] + (m & 1) as u8;
        m += 1;
    }
    table
};

impl Count for Table {
    #[inline(always)]
    fn ones(mask: u32) -> u32 {
        debug_assert!(mask >> MAX_RANK_CELLS == 0);
        let low = ONES[(mask & ((1 << HALF_BITS) - 1)) as usize];
        // Indexed within bounds: the mask has at most 26 bits (masked so the read is unchecked).
        let high = ONES[(mask >> HALF_BITS) as usize & ((1 << HALF_BITS) - 1)];
        u32::from(low) + u32::from(high)
    }
}

/// By `count_ones`: one `popcnt` where the caller is compiled with it (see [`Count`]), else
/// the portable bit count.
pub(crate) struct Popcnt;

impl Count for Popcnt {
    #[inline(always)]
    fn ones(mask: u32) -> u32 {
        mask.count_ones()
    }
}

/// Whether this processor counts bits in one instruction (`popcnt`), asked once by whoever
/// keeps the answer: the baseline x86-64 target does not assume it.
pub(crate) fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use statespace::random::Lcg;
    use statespace::rank::Arrangements;

    /// `k` distinct cells of `0..n`, drawn from `rng` (a partial Fisher-Yates shuffle).
    fn placement(rng: &mut Lcg, n: u32, k: usize) -> Vec<u8> {
        let mut cells: Vec<u8> = (0..n as u8).collect();
        for i in 0..k {
            let j = i + rng.below(cells.len() - i);
            cells.swap(i, j);
        }
        cells.truncate(k);
        cells
    }

    /// The ranks of [`Popcnt`] compiled with `popcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn rank_with_popcnt(r: &GroupRank, cells: &[u8]) -> u64 {
        r.rank::<Popcnt>(cells.iter().copied())
    }

    /// On every board size up to 25 cells and every group size up to 10 tiles (the count
    /// fits), random placements rank alike by the table, by `count_ones` (portable and, where
    /// the processor has it, `popcnt`) and by [`Arrangements::rank`], the rank the tables are
    /// indexed by; the edges (first and last arrangement) too.
    #[test]
    fn every_count_ranks_as_the_arrangements_do() {
        let mut rng = Lcg(45);
        for n in 1..=25u32 {
            for k in 1..=MAX_GROUP.min(n as usize) {
                let r = GroupRank::new(n, k).expect("fits");
                let arrangements = Arrangements::new(n, k as u32).unwrap();
                let first: Vec<u8> = (0..k as u8).collect();
                let last: Vec<u8> = (n as u8 - k as u8..n as u8).rev().collect();
                let draws = (0..300).map(|_| placement(&mut rng, n, k));
                for cells in [first, last].into_iter().chain(draws) {
                    let want = arrangements.rank(&cells);
                    assert_eq!(
                        r.rank::<Table>(cells.iter().copied()),
                        want,
                        "{n} {cells:?}"
                    );
                    assert_eq!(
                        r.rank::<Popcnt>(cells.iter().copied()),
                        want,
                        "{n} {cells:?}"
                    );
                    #[cfg(target_arch = "x86_64")]
                    if has_popcnt() {
                        // SAFETY: the processor has `popcnt` (asked just above).
                        let got = unsafe { rank_with_popcnt(&r, &cells) };
                        assert_eq!(got, want, "{n} {cells:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_table_counts_every_mask_of_26_bits_it_is_asked() {
        let mut rng = Lcg(7);
        let edges = [0, 1, (1 << 13) - 1, 1 << 13, (1 << 26) - 1, 1 << 25];
        let draws = (0..100_000).map(|_| rng.below(1 << 26) as u32);
        for mask in edges.into_iter().chain(draws) {
            assert_eq!(Table::ones(mask), mask.count_ones(), "{mask:x}");
        }
    }

    #[test]
    fn too_many_cells_or_tiles_are_refused() {
        assert!(GroupRank::new(26, 10).is_some());
        assert!(GroupRank::new(27, 1).is_none());
        assert!(GroupRank::new(25, 11).is_none());
        assert!(GroupRank::new(3, 4).is_none());
    }
}
