//! A [`Pattern`] as a space of its own: its moves, index and goal, and how the table engine
//! builds its distance table.
//!
//! The abstract space is [`Indexed`] (per class: the
//! [`Arrangements`](statespace::rank::Arrangements) rank of the tracked pieces' slots, then their
//! twists), [`Invertible`] (the puzzle's inverse moves) and has one goal, so the table engine
//! builds its whole distance table backward from the goal, and the kit's cache keeps it on disk
//! ([`PatternDatabase::build`](statespace::search::pdb::PatternDatabase::build)).
//!
//! How a table is built depends on the pattern's shape:
//!
//! - a pattern whose last part is a whole twisted class keeps that part's twists by slot (entry
//!   `first + j` of the [`Placement`]: the twist in slot `j`), not by piece: a move then carries
//!   each twist along whatever piece is there, the index is places times twists
//!   ([`SplitMoves`]), and the table is built block by block from two move tables
//!   ([`table::build_split`]);
//! - a pattern of some of one class's pieces of two orientations (a group of edges) has their
//!   flips as its lowest bits: a move takes the places to places and XORs the flips with a mask
//!   that depends on the places only ([`FlipSplit`]), so the table is built a block of flips at
//!   a time by word operations ([`table::build_flips`]; the 3x3x3's eight edges in about four
//!   minutes on two cores, 4.2 GiB at the peak);
//! - other patterns are built by the table engine's single-threaded level scans, several times
//!   slower per state.
//!
//! All are then cached (the 3x3x3's builds: BENCHMARKS.md, "3x3x3: random scrambles solved
//! optimally"). Trade-off: the block builds need the index split (low digits that move on
//! their own), which is why twists by slot and flips come last; their bitsets and move tables
//! cost memory beside the table ([`Abstraction::build_bytes`]).

use super::part::{Part, Places};
use super::pattern::{MAX_TRACKED, PLACEMENT_ENTRIES, Pattern, Placement};
use crate::space::{PermMove, PermSpace};
use crate::state::Packed;
use statespace::cache::fingerprint::Content;
use statespace::limit::{Limit, Limits};
use statespace::search::layers;
use statespace::search::pdb::Abstraction;
use statespace::search::table::{self, DistanceTable, Width};
use statespace::space::{
    Describe, FlipSplit, GoalSet, Indexed, Invertible, SplitMoves, StateSpace,
};

impl StateSpace for Pattern {
    type State = Placement;
    type Move = PermMove;

    /// Part by part: each tracked piece to the slot the move takes it to, with the twist the
    /// move adds there; twists kept by slot go where their slot's piece goes.
    #[inline]
    fn successors(&self, p: Placement, visit: &mut dyn FnMut(PermMove, Placement)) {
        for ((&mv, dest), add) in self.moves.iter().zip(&self.dest).zip(&self.add) {
            let mut next = p;
            for part in &self.parts {
                let (first, code, o) = (part.first, part.code, part.orientations);
                let reduce = |t: u8| if t >= o { t - o } else { t };
                for i in first..first + part.pieces() {
                    // Codes are below 256 (checked in `new`): a `u8` indexes the tables.
                    let from = (code + usize::from(p.slot[i])) % 256;
                    next.slot[i] = dest[from];
                    if o > 1 && !part.by_slot {
                        next.twist[i] = reduce(p.twist[i] + add[from]);
                    }
                }
                if part.by_slot {
                    for q in 0..part.labels.len() {
                        let to = first + usize::from(dest[(code + q) % 256]);
                        next.twist[to % PLACEMENT_ENTRIES] =
                            reduce(p.twist[first + q] + add[(code + q) % 256]);
                    }
                }
            }
            visit(mv, next);
        }
    }

    /// By index: alike pieces may be listed in any order.
    fn is_goal(&self, p: Placement) -> bool {
        self.index(p) == self.goal_index
    }
}

impl Indexed for Pattern {
    fn size(&self) -> u128 {
        u128::from(self.size)
    }

    /// Per part, most significant first: the slots' rank, then the twists (the last one's high
    /// part only, when it is known modulo a step).
    #[inline]
    fn index(&self, p: Placement) -> u64 {
        let mut index = 0u64;
        for part in &self.parts {
            let (first, k) = (part.first, part.pieces());
            index = index * part.places.count() + part.places.rank(&p.slot[first..first + k]);
            if part.twisted() > 0 {
                let o = u64::from(part.orientations);
                let free = part.twisted() - usize::from(part.step > 1);
                for &t in &p.twist[first..first + free] {
                    index = index * o + u64::from(t);
                }
                if part.step > 1 {
                    let step = u64::from(part.step);
                    index = index * (o / step) + u64::from(p.twist[first + free]) / step;
                }
            }
        }
        index
    }

    fn state(&self, mut index: u64) -> Placement {
        let mut p = Placement::default();
        for part in self.parts.iter().rev() {
            let (first, k) = (part.first, part.pieces());
            if part.twisted() > 0 {
                let o = u64::from(part.orientations);
                let free = part.twisted() - usize::from(part.step > 1);
                let mut high = 0;
                if part.step > 1 {
                    let radix = o / u64::from(part.step);
                    high = index % radix;
                    index /= radix;
                }
                for t in p.twist[first..first + free].iter_mut().rev() {
                    *t = (index % o) as u8;
                    index /= o;
                }
                if part.step > 1 {
                    // The residue that makes the sum right, plus `step` times the high part.
                    let step = u64::from(part.step);
                    let sum: u64 = p.twist[first..first + free]
                        .iter()
                        .map(|&t| u64::from(t))
                        .sum();
                    let low = (u64::from(part.residue) + step - sum % step) % step;
                    p.twist[first + free] = (low + step * high) as u8;
                }
            }
            let count = part.places.count();
            part.places
                .unrank(index % count, &mut p.slot[first..first + k]);
            index /= count;
        }
        p
    }
}

impl Invertible for Pattern {
    fn inverse(&self, m: PermMove) -> PermMove {
        self.moves[self.inverse[m.index()] as usize]
    }
}

/// Everything the table depends on: the shape of every part (slots, pieces, orientations, the
/// twist rule), the move tables over the slot codes, the goal placement. Not the definition's
/// name nor the moves' names.
impl Describe for Pattern {
    fn describe(&self, content: &mut Content) {
        content.str("perm pattern").u64(self.parts.len() as u64);
        for part in &self.parts {
            content
                .u64(part.labels.len() as u64)
                .u64(part.pieces() as u64)
                .u64(part.orientations.into())
                .u64(part.step.into())
                .u64(part.residue.into())
                .u64(part.by_slot.into());
            // Written only for alike pieces: the fingerprints of the patterns before them stay.
            if let Places::Alike { .. } = part.places {
                content.str("alike");
            }
        }
        content.str("moves").u64(self.dest.len() as u64);
        for (dest, add) in self.dest.iter().zip(&self.add) {
            content.bytes(&dest[..self.codes]).bytes(&add[..self.codes]);
        }
        // The entries in use, and at least 16 (the placement's size before twists by slot of
        // part of a class: the fingerprints of the patterns before them stay).
        let used = self.entries.max(16);
        content
            .str("goal")
            .bytes(&self.goal.slot[..used])
            .bytes(&self.goal.twist[..used]);
    }
}

impl GoalSet for Pattern {
    fn goals(&self, visit: &mut dyn FnMut(Placement)) {
        visit(self.goal)
    }
}

/// A pattern whose last part tracks a whole twisted class (the 3x3x3's corners) has that part's
/// twists by slot as its lowest digits: a move carries a slot's twist along whatever piece is
/// there, so they move on their own ([`SplitMoves`]), and the table is built block by block
/// ([`table::build_split`]).
impl Pattern {
    /// The places after each move (in the space's order) of the places of rank `place` of a
    /// pattern of one part: one unrank, then per move the pieces' new slots ranked (a tenth of
    /// a whole successor's cost; the class tables' move tables of places are made so).
    pub(crate) fn place_successors(&self, place: u64, visit: &mut dyn FnMut(u64)) {
        let part = &self.parts[0];
        let k = part.pieces();
        let mut slots = [0u8; MAX_TRACKED];
        part.places.unrank(place, &mut slots[..k]);
        for dest in &self.dest {
            let mut moved = [0u8; MAX_TRACKED];
            for (&slot, to) in slots[..k].iter().zip(&mut moved) {
                *to = dest[(part.code + usize::from(slot)) % 256];
            }
            visit(part.places.rank(&moved[..k]));
        }
    }
}

impl SplitMoves for Pattern {
    fn low_count(&self) -> Option<u64> {
        let last = self.parts.last()?;
        if last.by_slot { last.twists() } else { None }
    }
}

/// A pattern of some of a class's pieces of two orientations (the 3x3x3's edges in groups) has
/// their flips, by piece, as its lowest digits: a move takes the places to places and flips
/// the pieces in the slots it flips, so a block of states that differ only in their flips moves
/// as a whole ([`FlipSplit`]), and the table is built a block at a time
/// ([`table::build_flips`]).
impl FlipSplit for Pattern {
    fn flip_bits(&self) -> Option<u32> {
        match self.parts.as_slice() {
            [
                part @ Part {
                    places: Places::Distinct(_),
                    ..
                },
            ] if part.orientations == 2 && !part.by_slot && part.step == 1 => {
                Some(part.pieces() as u32)
            }
            _ => None,
        }
    }

    /// One unrank of the places, then per move the pieces' new slots ranked and the flips of
    /// their old slots gathered: piece `i`'s flip is bit `k - 1 - i` of the index (the twists
    /// are its lowest digits, first piece most significant).
    fn block_moves(&self, high: u64, visit: &mut dyn FnMut(u64, u64)) {
        let part = &self.parts[0];
        let k = part.pieces();
        let base = part.code;
        let mut slots = [0u8; MAX_TRACKED];
        part.places.unrank(high, &mut slots[..k]);
        for (dest, add) in self.dest.iter().zip(&self.add) {
            let mut moved = [0u8; MAX_TRACKED];
            let mut mask = 0u64;
            for (i, (&slot, to)) in slots[..k].iter().zip(&mut moved).enumerate() {
                let code = (base + usize::from(slot)) % 256;
                *to = dest[code];
                mask |= u64::from(add[code] & 1) << (k - 1 - i);
            }
            visit(part.places.rank(&moved[..k]), mask);
        }
    }
}

impl<const N: usize> Abstraction<PermSpace<N>> for Pattern {
    type Space = Pattern;

    /// Block by block where the index splits (seconds for the 3x3x3's 88,179,840 corner states,
    /// against a minute state by state), else the table engine's level scans.
    fn build_table(&self, limits: &Limits) -> Result<DistanceTable, Limit> {
        if self.low_count().is_some() {
            table::build_split_with(self, limits, Width::Exact)
        } else if self.flip_bits().is_some() {
            table::build_flips_with(self, limits, Width::Exact)
        } else {
            table::build_with(self, limits, Width::Exact)
        }
    }

    /// The exact table, and for a split build the sweep's bitsets and move tables beside it.
    fn build_bytes(&self) -> u128 {
        let table = self.size().div_ceil(16) * 8;
        if self.low_count().is_some() {
            table + layers::memory_needed(self) + layers::split_tables_needed(self)
        } else if self.flip_bits().is_some() {
            table + layers::memory_needed(self)
        } else {
            table
        }
    }

    fn space(&self) -> &Pattern {
        self
    }

    #[inline]
    fn project(&self, _: &PermSpace<N>, state: Packed<N>) -> u64 {
        self.index_of(&state.0)
    }

    /// A move turns many pieces at once: every move may count in every pattern (module docs).
    fn pieces(&self) -> u64 {
        u64::MAX
    }
}
