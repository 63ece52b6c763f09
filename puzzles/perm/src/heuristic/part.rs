//! One part of a pattern: the pieces it tracks in one class of slots, and how they become digits
//! of the pattern's index.
//!
//! A part ranks where its pieces are (each told apart: the [`Arrangements`] of `k` pieces in
//! `n` slots; alike, only which slots they fill: the `k`-subsets, [`Colex`]), then their twists,
//! kept by piece or by slot (see `Pattern`). The placement's entries, the move tables and the
//! index all count in parts.
//!
//! When a pattern tracks every piece of a class whose twist sum the moves keep (the corners:
//! modulo 3), the last piece's twist is known from the others' and is not a digit: the 3x3x3's
//! corner pattern has `8! * 3^7 = 88,179,840` states, not `3^8` times `8!`. A class's parity
//! (LoopOver's, or the joint one of the cube's corners and edges) is not used: a pattern over a
//! whole class of one parity has twice the states it needs, half of them never reached.
//!
//! Trade-off: `Part::rank_by` ranks a part straight from a state's bytes, the placement and the
//! index fused, for the search's projections (plain, and through a symmetry's reading); it is
//! one function taking the reads as closures, inlined into each caller, so each gets its own
//! copy of the loop rather than a shared one behind a call.

use crate::state::ByteIndex;
use statespace::rank::{Arrangements, Colex};

/// No tracked piece: the entry of an untracked label in a part's id table, the scratch entry past
/// every [`Placement`](super::Placement) entry that
/// [`Pattern::placement`](super::Pattern::placement) writes untracked pieces into.
pub(super) const UNTRACKED: u8 = 31;

/// How a part ranks where its tracked pieces are.
#[derive(Clone, Debug)]
pub(super) enum Places {
    /// Each piece told apart: the arrangements of `k` pieces in `n` slots.
    Distinct(Arrangements),
    /// The pieces alike (only which slots they fill): the `k`-subsets of `n` slots.
    Alike { subsets: Colex, pieces: usize },
}

impl Places {
    pub(super) fn pieces(&self) -> usize {
        match self {
            Places::Distinct(ranks) => ranks.pieces() as usize,
            Places::Alike { pieces, .. } => *pieces,
        }
    }

    pub(super) fn count(&self) -> u64 {
        match self {
            Places::Distinct(ranks) => ranks.count(),
            Places::Alike { subsets, .. } => subsets.count(),
        }
    }

    #[inline]
    pub(super) fn rank(&self, slots: &[u8]) -> u64 {
        match self {
            Places::Distinct(ranks) => ranks.rank(slots),
            Places::Alike { subsets, .. } => {
                subsets.rank(slots.iter().fold(0u64, |mask, &s| mask | 1 << (s % 64)))
            }
        }
    }

    /// The slots of rank `rank`; alike pieces in increasing slot order.
    pub(super) fn unrank(&self, rank: u64, out: &mut [u8]) {
        match self {
            Places::Distinct(ranks) => ranks.unrank(rank, out),
            Places::Alike { subsets, .. } => {
                let mut mask = subsets.unrank(rank);
                for slot in out.iter_mut() {
                    *slot = mask.trailing_zeros() as u8;
                    mask &= mask - 1;
                }
            }
        }
    }
}

/// What one part of a pattern keeps of one class (see [`Pattern::new`](super::Pattern::new) and
/// [`Pattern::twists`](super::Pattern::twists)).
pub(super) struct PartSpec<'a> {
    pub(super) class: usize,
    /// The tracked pieces' labels (0-based).
    pub(super) labels: &'a [u8],
    /// Where the tracked pieces are only as a set.
    pub(super) alike: bool,
    /// The twist in every slot, whatever piece is there (a twisted class only).
    pub(super) by_slot: bool,
}

/// The pieces one pattern tracks in one class.
#[derive(Clone, Debug)]
pub(super) struct Part {
    /// The definition's orbit the class belongs to.
    pub(super) orbit: usize,
    /// The label byte of each of the class's slots, in slot order.
    pub(super) labels: Vec<ByteIndex>,
    /// The orientation byte of each slot (empty for orbits of one orientation).
    pub(super) oris: Vec<ByteIndex>,
    /// `id[label]`: the tracked piece's number in the [`Placement`](super::Placement), or
    /// [`UNTRACKED`].
    pub(super) id: Box<[u8; 256]>,
    /// The part's pieces are `first..first + places.pieces()` in the placement.
    pub(super) first: usize,
    /// The slot code of the class's slot 0 (`code + slot` numbers every slot of every part).
    pub(super) code: usize,
    pub(super) places: Places,
    pub(super) orientations: u8,
    /// The last twist is known modulo `step` from the others' (all of the class's twists are
    /// kept and the moves keep their sum); 1 otherwise.
    pub(super) step: u8,
    /// The twist sum modulo `step`.
    pub(super) residue: u8,
    /// The part keeps the twist in every slot of its class, by slot (entry `first + j`: the
    /// twist in slot `j`), not its pieces' twists (see [`Pattern`](super::Pattern)).
    pub(super) by_slot: bool,
    /// [`twists`](Part::twists) (0 when past a `u64`: such a pattern is refused).
    pub(super) twist_count: u64,
}

impl Part {
    pub(super) fn pieces(&self) -> usize {
        self.places.pieces()
    }

    /// The twists the part keeps: one per slot when by slot, else one per tracked piece of a
    /// twisted class told apart (pieces kept as a set keep no twist: which of them is twisted
    /// is not defined).
    pub(super) fn twisted(&self) -> usize {
        match (self.orientations > 1, self.by_slot, &self.places) {
            (false, _, _) => 0,
            (true, true, _) => self.labels.len(),
            (true, false, Places::Alike { .. }) => 0,
            (true, false, Places::Distinct(_)) => self.pieces(),
        }
    }

    /// The part's places' rank and twists' value (its digits of
    /// [`Indexed::index`](statespace::space::Indexed::index)) from each of its slots' tracked piece
    /// number (`id_at(j)`, [`UNTRACKED`] for another piece) and twist (`twist_at(j)`): the
    /// placement and the index fused, with no [`Placement`](super::Placement) made. What the class
    /// tables read at every node ([`classes`](crate::classes)).
    #[inline(always)]
    pub(super) fn rank_by(
        &self,
        id_at: impl Fn(usize) -> u8,
        twist_at: impl Fn(usize) -> u8,
    ) -> (u64, u64) {
        let n = self.labels.len();
        let places = match &self.places {
            Places::Alike { subsets, .. } => {
                let mut mask = 0u64;
                for j in 0..n {
                    mask |= u64::from(id_at(j) != UNTRACKED) << (j % 64);
                }
                subsets.rank(mask)
            }
            Places::Distinct(ranks) => {
                let mut slot = [0u8; 32];
                for j in 0..n {
                    slot[usize::from(id_at(j)) % 32] = j as u8;
                }
                ranks.rank(&slot[self.first..self.first + self.pieces()])
            }
        };
        let twisted = self.twisted();
        if twisted == 0 {
            return (places, 0);
        }
        let o = u64::from(self.orientations);
        let free = twisted - usize::from(self.step > 1);
        let mut value = 0u64;
        let last = if self.by_slot {
            for j in 0..free {
                value = value * o + u64::from(twist_at(j));
            }
            twist_at(free)
        } else {
            let mut twist = [0u8; 32];
            for j in 0..n {
                twist[usize::from(id_at(j)) % 32] = twist_at(j);
            }
            for &t in &twist[self.first..self.first + free] {
                value = value * o + u64::from(t);
            }
            twist[(self.first + free) % 32]
        };
        if self.step > 1 {
            let step = u64::from(self.step);
            value = value * (o / step) + u64::from(last) / step;
        }
        (places, value)
    }

    /// The [`Placement`](super::Placement) entries the part takes.
    pub(super) fn entries(&self) -> usize {
        self.pieces().max(self.twisted())
    }

    /// The number of twist values the part's twists take together.
    pub(super) fn twists(&self) -> Option<u64> {
        match self.twisted() {
            0 => Some(1),
            k => pattern_twists(k as u32, self.orientations, self.step),
        }
    }
}

/// The twists of `k` pieces with `o` orientations, the last one known modulo `step` (1: free);
/// `None` past a `u64`.
pub(super) fn pattern_twists(k: u32, o: u8, step: u8) -> Option<u64> {
    let o = u64::from(o);
    if step > 1 {
        o.checked_pow(k - 1)?.checked_mul(o / u64::from(step))
    } else {
        o.checked_pow(k)
    }
}
