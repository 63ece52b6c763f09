//! The sum of pattern databases over disjoint pieces ([`Additive`]), maximised over symmetric
//! images ([`Symmetry`]).
//!
//! # Additivity
//!
//! A sum of pattern databases is admissible only when no move is counted twice. An abstraction
//! says whose moves its distances count through [`Abstraction::pieces`] (a mask); a move of a
//! piece outside the mask must cost 0 in the abstraction. The usual way is to let the abstract
//! space move only its own pieces (the sliding-tile groups of the tiles plugin); then every move
//! of `P` moves one piece, counted by the one group that owns it, and the sum of the groups'
//! distances is a lower bound. [`Additive::new`] refuses abstractions whose masks overlap.
//!
//! # Symmetries
//!
//! A [`Symmetry`] maps states to states exactly as far from the goal set (a reflection of the
//! board that maps the goal onto itself). Looking up the image in the same databases is another
//! lower bound, for the price of the lookups only; [`Additive`] takes the max of the direct sum and
//! the sums of the images (Culberson & Schaeffer 1998; the diagonal reflection of the 15-puzzle).

use super::{Abstraction, PatternDatabase, PdbError};
use crate::cache::TableCache;
use crate::space::{Heuristic, StateSpace};

/// A map of states onto states exactly as far from the goal set (a symmetry of the space that maps
/// the goal set onto itself): looking its image up in the same databases gives another lower
/// bound.
pub trait Symmetry<P: StateSpace + ?Sized>: Sync {
    /// The image of `state`; allocates nothing.
    fn apply(&self, space: &P, state: P::State) -> P::State;
}

/// The symmetry type of an [`Additive`] heuristic that uses none.
#[derive(Clone, Copy, Debug)]
pub enum NoSymmetry {}

impl<P: StateSpace + ?Sized> Symmetry<P> for NoSymmetry {
    fn apply(&self, _: &P, _: P::State) -> P::State {
        match *self {}
    }
}

/// The sum of pattern databases over disjoint pieces, maximised over symmetric images: the
/// disjoint additive databases of Korf & Felner (2002), with the reflection lookups of Felner,
/// Korf & Hanan (2004).
#[derive(Debug)]
pub struct Additive<A, S = NoSymmetry> {
    databases: Vec<PatternDatabase<A>>,
    symmetries: Vec<S>,
}

impl<A, S> Additive<A, S> {
    /// The sum of `databases`, and the max of that with the sum for the image under each of
    /// `symmetries`. [`PdbError::Invalid`] when two abstractions count the same piece's moves
    /// ([`Abstraction::pieces`] overlap): their sum would not be admissible.
    pub fn new<P: StateSpace + ?Sized>(
        databases: Vec<PatternDatabase<A>>,
        symmetries: Vec<S>,
    ) -> Result<Self, PdbError>
    where
        A: Abstraction<P>,
        S: Symmetry<P>,
    {
        let mut seen = 0u64;
        for (i, database) in databases.iter().enumerate() {
            let pieces = database.abstraction().pieces();
            if seen & pieces != 0 {
                return Err(PdbError::Invalid(format!(
                    "database {} counts moves of pieces another one counts too (mask {:#x}); \
                     an additive heuristic needs disjoint pieces",
                    i + 1,
                    seen & pieces
                )));
            }
            seen |= pieces;
        }
        Ok(Additive {
            databases,
            symmetries,
        })
    }

    /// The databases summed.
    pub fn databases(&self) -> &[PatternDatabase<A>] {
        &self.databases
    }

    /// The symmetries whose images are looked up too.
    pub fn symmetries(&self) -> &[S] {
        &self.symmetries
    }

    /// The sum of the databases' values of `state`, without symmetries (saturating: an
    /// unreachable projection makes it `u32::MAX`).
    #[inline]
    pub fn sum<P: StateSpace + ?Sized>(&self, space: &P, state: P::State) -> u32
    where
        A: Abstraction<P>,
    {
        self.databases
            .iter()
            .fold(0u32, |sum, db| sum.saturating_add(db.value(space, state)))
    }
}

impl<P: StateSpace + ?Sized, A: Abstraction<P>, S: Symmetry<P>> Heuristic<P> for Additive<A, S> {
    fn intact(&self, cache: &TableCache) -> bool {
        // Every database asked (not only until one fails), so each damaged file is discarded.
        let mut all = true;
        for db in &self.databases {
            all &= db.intact_in::<P>(cache);
        }
        all
    }

    #[inline]
    fn estimate(&self, space: &P, state: P::State) -> u32 {
        let direct = self.sum(space, state);
        self.symmetries.iter().fold(direct, |best, symmetry| {
            best.max(self.sum(space, symmetry.apply(space, state)))
        })
    }

    /// The direct sum, then the images' sums only while the best is below `limit`.
    #[inline]
    fn estimate_below(&self, space: &P, state: P::State, limit: u32) -> u32 {
        let mut best = self.sum(space, state);
        for symmetry in &self.symmetries {
            if best >= limit {
                break;
            }
            best = best.max(self.sum(space, symmetry.apply(space, state)));
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limit::Limits;
    use crate::search::pdb::pair::{Counter, Pair, SIX, Swap, ring_distance};
    use crate::search::pdb::{Max, build_all};

    #[test]
    fn additive_sums_disjoint_counters_exactly() {
        let dbs = build_all(
            vec![Counter(0, SIX), Counter(1, SIX)],
            &Limits::default(),
            None,
        )
        .unwrap();
        let h = Additive::new(dbs, vec![Swap]).unwrap();
        for a in 0..6 {
            for b in 0..6 {
                // The two counters are independent: the sum is the exact distance.
                let exact = ring_distance(a) + ring_distance(b);
                assert_eq!(h.estimate(&Pair, (a, b)), exact);
            }
        }
        let max = Max::new(
            build_all(
                vec![Counter(0, SIX), Counter(1, SIX)],
                &Limits::default(),
                None,
            )
            .unwrap(),
        );
        assert_eq!(max.estimate(&Pair, (2, 3)), 3);
        assert_eq!(max.estimate(&Pair, (0, 0)), 0);
    }

    #[test]
    fn overlapping_pieces_are_refused() {
        let dbs = build_all(
            vec![Counter(0, SIX), Counter(0, SIX)],
            &Limits::default(),
            None,
        )
        .unwrap();
        let err = Additive::<_, NoSymmetry>::new(dbs, vec![]).unwrap_err();
        assert!(matches!(err, PdbError::Invalid(_)), "{err}");
    }
}
