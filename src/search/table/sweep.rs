//! Tables written from the whole-space sweeps of [`layers`]: [`build_xor`] for spaces whose
//! moves XOR the index (64 states per move and word), [`build_split`] for spaces whose index
//! splits (a block of states at a time, from two move tables), [`build_flips`] for spaces whose
//! index is blocks of flips (a block at a time, by word permutations).
//!
//! The sweep finds each level as a bitset over the index and lends it for a call; the level is
//! written into the table a layer word at a time: the word's 64 bits are spread into `bits`
//! table words, one bit to the bottom of each lane ([`spread`]), and the lanes get the level's
//! code. The table's [`Build`] does the rest as for its own scans: the width chosen before
//! anything is allocated, widening before a depth the width cannot hold, the sweep's memory
//! counted beside the table.

use super::levels::Build;
use super::symmetry::Whole;
use super::{DistanceTable, START_BITS, Width};
use crate::limit::{Limit, Limits};
use crate::search::layers;
use crate::space::{FlipSplit, GoalSet, Indexed, Invertible, SplitMoves, XorMoves};

/// [`build`](super::build) over a space whose moves XOR the index: the table is written from the
/// word-at-a-time sweep of [`layers::xor_backward_each`], 64 states per move, instead of the
/// table's own level scans. Each layer's bitset becomes the entries of its distance, a word at a
/// time (a 64-bit layer word spreads into `bits` table words). Same entries, widths, histogram
/// and stats shape as [`build`](super::build) (tested entry for entry); `expanded` and
/// `generated` are the sweep's (every state of a layer is expanded once, with one successor per
/// move).
///
/// Memory: the table plus the sweep's three bitsets ([`layers::memory_needed`]), checked
/// together before anything is allocated, and again before each widening; [`Width::Auto`] picks
/// mod 3 when three 4-bit tables and the bitsets do not fit. `time_limit`, Ctrl-C and
/// `max_states` stop the build as they stop the sweep (polled every chunk of a layer);
/// `max_depth` does not apply. Threads: as [`layers::Options`] with `threads: None`.
pub fn build_xor<P: XorMoves + GoalSet + Sync>(
    space: &P,
    limits: &Limits,
) -> Result<DistanceTable, Limit> {
    build_xor_with(space, limits, Width::Auto)
}

/// [`build_xor`] with a chosen [`Width`], as [`build_with`](super::build_with).
pub fn build_xor_with<P: XorMoves + GoalSet + Sync>(
    space: &P,
    limits: &Limits,
    width: Width,
) -> Result<DistanceTable, Limit> {
    let bitsets = layers::memory_needed(space);
    from_sweep(
        space,
        limits,
        width,
        bitsets,
        layers::xor_backward_each::<P>,
    )
}

/// [`build`](super::build) over a space whose index splits ([`SplitMoves`]: permutation
/// puzzles), written from the block sweep of [`layers::split_backward_each`] as [`build_xor`]
/// writes from its sweep; the memory check counts the sweep's move tables too. Same entries as
/// [`build`](super::build) (tested entry for entry).
pub fn build_split<P: SplitMoves + Invertible + GoalSet + Sync>(
    space: &P,
    limits: &Limits,
) -> Result<DistanceTable, Limit> {
    build_split_with(space, limits, Width::Auto)
}

/// [`build_split`] with a chosen [`Width`], as [`build_with`](super::build_with).
pub fn build_split_with<P: SplitMoves + Invertible + GoalSet + Sync>(
    space: &P,
    limits: &Limits,
    width: Width,
) -> Result<DistanceTable, Limit> {
    let sweep = layers::memory_needed(space) + layers::split_tables_needed(space);
    from_sweep(
        space,
        limits,
        width,
        sweep,
        layers::split_backward_each::<P>,
    )
}

/// [`build`](super::build) over a space whose index is blocks of flips ([`FlipSplit`]: a
/// permutation puzzle's pattern of some of its edges), written from the sweep of
/// [`layers::flip_backward_each`] as [`build_xor`] writes from its sweep: same entries (tested
/// entry for entry); the memory is the table and the sweep's three bitsets.
pub fn build_flips<P: FlipSplit + Invertible + GoalSet + Sync>(
    space: &P,
    limits: &Limits,
) -> Result<DistanceTable, Limit> {
    build_flips_with(space, limits, Width::Auto)
}

/// [`build_flips`] with a chosen [`Width`], as [`build_with`](super::build_with).
pub fn build_flips_with<P: FlipSplit + Invertible + GoalSet + Sync>(
    space: &P,
    limits: &Limits,
    width: Width,
) -> Result<DistanceTable, Limit> {
    let bitsets = layers::memory_needed(space);
    from_sweep(
        space,
        limits,
        width,
        bitsets,
        layers::flip_backward_each::<P>,
    )
}

/// A table written layer by layer from a whole-space sweep that lends each layer's bitset
/// (`sweep`), which needs `sweep_bytes` of its own next to the table.
fn from_sweep<P: Indexed + GoalSet>(
    space: &P,
    limits: &Limits,
    width: Width,
    sweep_bytes: u128,
    sweep: fn(&P, layers::Options, layers::EachLayer) -> layers::Layers<P::State>,
) -> Result<DistanceTable, Limit> {
    let mut build = Build::new(space, limits, width, Whole, sweep_bytes)?;
    let sweep_limits = Limits {
        max_depth: None,
        ..limits.clone()
    };
    let options = layers::Options {
        limits: &sweep_limits,
        threads: None,
    };
    let sweep = sweep(space, options, &mut |depth, words| {
        build.write_layer(depth as u64, words)
    });
    if let Some(limit) = sweep.stopped {
        return Err(limit);
    }
    let mut stats = sweep.stats;
    stats.elapsed = build.latch.elapsed();
    Ok(DistanceTable {
        entries: build.entries.finished(),
        mod3: build.mod3,
        histogram: sweep.histogram,
        stats,
    })
}

impl<P: Indexed + GoalSet> Build<'_, P, Whole> {
    /// Gives `depth`'s code to every state of `layer` (a bitset over the index, none of its
    /// states reached before), a layer word at a time; then widens, as [`run`](Self::run) does,
    /// when the next depth would not fit the width.
    fn write_layer(&mut self, depth: u64, layer: &[u64]) -> Result<(), Limit> {
        let code = self.code(depth);
        let entries = &mut self.entries;
        let bits = entries.bits;
        // Entries per table word, and the table words one layer word covers (64 / per = bits).
        let per = 1u32 << entries.per_word_log2();
        let piece_mask = (1u64 << per) - 1;
        let pattern = code * entries.ones;
        let fill = entries.unreached();
        for (w, &states) in layer.iter().enumerate() {
            if states == 0 {
                continue;
            }
            let first = w * bits as usize;
            for k in 0..bits {
                let piece = (states >> (k * per)) & piece_mask;
                if piece == 0 {
                    continue;
                }
                // One bit per lane at the lane's bottom, then the whole lane.
                let lanes = if bits == START_BITS {
                    spread_nibbles(piece)
                } else {
                    spread(piece, bits)
                } * fill;
                let word = &mut entries.words[first + k as usize];
                debug_assert_eq!(*word & lanes, lanes, "a state reached twice");
                *word = (*word & !lanes) | (pattern & lanes);
            }
        }
        if !self.mod3 && depth + 1 >= self.entries.unreached() {
            self.make_room()?;
        }
        Ok(())
    }
}

/// `NIBBLES[b]`: bit `i` of the byte `b` moved to bit `4 i`.
const NIBBLES: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            table[b] |= ((b as u32 >> i) & 1) << (4 * i);
            i += 1;
        }
        b += 1;
    }
    table
};

/// [`spread`] for 4-bit entries (16 bits of `piece`), by two table look-ups.
#[inline]
fn spread_nibbles(piece: u64) -> u64 {
    NIBBLES[(piece & 0xff) as usize] as u64 | (NIBBLES[(piece >> 8 & 0xff) as usize] as u64) << 32
}

/// Moves bit `i` of `piece` (`64 / bits` bits) to bit `i * bits`, for `bits` a power of two:
/// each round spreads the low 32 bits to the even bits (doubling the spacing).
#[inline]
fn spread(piece: u64, bits: u32) -> u64 {
    let mut x = piece;
    let mut spacing = 1;
    while spacing < bits {
        x &= 0xffff_ffff;
        x = (x | x << 16) & 0x0000_ffff_0000_ffff;
        x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
        x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
        x = (x | x << 2) & 0x3333_3333_3333_3333;
        x = (x | x << 1) & 0x5555_5555_5555_5555;
        spacing *= 2;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::table::build_with;
    use crate::space::StateSpace;

    #[test]
    fn spread_puts_bit_i_at_lane_i() {
        for bits in [2u32, 4, 8, 16, 32] {
            let per = 64 / bits;
            for i in 0..per {
                assert_eq!(
                    spread(1 << i, bits),
                    1 << (i * bits),
                    "bits {bits}, bit {i}"
                );
            }
            let all = u64::MAX >> (64 - per);
            assert_eq!(spread(all, bits), u64::MAX / ((1u64 << bits) - 1));
        }
        for piece in (0..1u64 << 16).step_by(7).chain([0xffff]) {
            assert_eq!(spread_nibbles(piece), spread(piece, 4), "{piece:#x}");
        }
    }

    /// `n` bits; move `k` XORs bits `k` and `k + 1` (move `n - 1` bit `n - 1` alone); goal 0.
    /// The masks are a basis, so a state's distance is its number of basis vectors: up to `n`.
    struct Chain {
        n: u32,
        masks: Vec<u64>,
    }
    impl Chain {
        fn new(n: u32) -> Self {
            let masks = (0..n)
                .map(|k| if k + 1 < n { 3 << k } else { 1 << k })
                .collect();
            Chain { n, masks }
        }
    }
    impl StateSpace for Chain {
        type State = u64;
        type Move = u64;
        fn successors(&self, s: u64, visit: &mut dyn FnMut(u64, u64)) {
            for &m in &self.masks {
                visit(m, s ^ m);
            }
        }
        fn is_goal(&self, s: u64) -> bool {
            s == 0
        }
    }
    impl Indexed for Chain {
        fn size(&self) -> u128 {
            1 << self.n
        }
        fn index(&self, s: u64) -> u64 {
            s
        }
        fn state(&self, i: u64) -> u64 {
            i
        }
    }
    impl Invertible for Chain {
        fn inverse(&self, m: u64) -> u64 {
            m
        }
    }
    impl GoalSet for Chain {
        fn goals(&self, visit: &mut dyn FnMut(u64)) {
            visit(0)
        }
    }
    impl XorMoves for Chain {
        fn xor_masks(&self) -> &[u64] {
            &self.masks
        }
    }

    #[test]
    fn xor_build_widens_as_the_plain_build_does() {
        let limits = Limits::default();
        // Radius 14 (the 4-bit table widens anyway, not knowing level 15 is empty), 15, 17.
        for n in [14, 15, 17] {
            let chain = Chain::new(n);
            for width in [Width::Auto, Width::Mod3] {
                let plain = build_with(&chain, &limits, width).unwrap();
                let xor = build_xor_with(&chain, &limits, width).unwrap();
                assert_eq!(xor.max_distance(), Some(n));
                assert_eq!(xor.histogram(), plain.histogram());
                assert_eq!(xor.bits_per_entry(), plain.bits_per_entry());
                assert_eq!(xor.is_exact(), plain.is_exact());
                for i in 0..chain.size() as u64 {
                    assert_eq!(xor.code(i), plain.code(i), "n {n}, index {i}");
                }
            }
        }
        // Widening 4 -> 8 bits refused (bitsets 3 x 4 KiB beside the 16 KiB and 32 KiB
        // tables): Exact fails, naming all three.
        let chain = Chain::new(15);
        let limits = Limits {
            memory_budget: 3 * 4096 + 16384 + 32768 - 1,
            ..Limits::default()
        };
        assert!(matches!(
            build_xor_with(&chain, &limits, Width::Exact),
            Err(Limit::Memory { needed: 61440, .. })
        ));
    }
}
