//! Checking a model against its promises: transforms that are permutations with orientations in
//! range, states of the puzzle's shape, scrambles with the solved state's pieces, and a whole
//! [`Definition`] built in code ([`Definition::validate`]).
//!
//! The readers ([`tws`](crate::tws), [`kpuzzle`](crate::kpuzzle)) check as they read, with the
//! line or key of the input; the checks here say what is wrong in words, and the caller adds
//! where.

use super::model::{Definition, MAX_ORIENTATIONS, MAX_PIECES, Orbit, State, Transform};
use statespace::error::{Error, Location, Result};
use std::fmt;

/// A state whose pieces are not those of the solved state ([`Definition::same_pieces`]):
/// displays as `CORNERS: the pieces are not those of the solved state`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongPieces {
    /// The first orbit, by name, whose pieces differ.
    pub orbit: String,
}

impl fmt::Display for WrongPieces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: the pieces are not those of the solved state",
            self.orbit
        )
    }
}

impl std::error::Error for WrongPieces {}

/// What is wrong with `perm` as a permutation of `0..perm.len()`, if anything. Values are shown
/// plus `base` (1 for the 1-based ksolve text), so the message quotes the input.
pub fn permutation_problem(perm: &[usize], base: usize) -> Option<String> {
    let n = perm.len();
    let mut seen = vec![false; n];
    for &v in perm {
        if v >= n {
            return Some(format!(
                "{} is out of range {}..{} in the permutation",
                v + base,
                base,
                n - 1 + base
            ));
        }
        if seen[v] {
            return Some(format!("{} is repeated in the permutation", v + base));
        }
        seen[v] = true;
    }
    None
}

impl Transform {
    /// What is wrong with this transform for `orbits` (shape, a permutation that is not one, an
    /// orientation out of range), naming the orbit.
    pub fn problem(&self, orbits: &[Orbit]) -> Option<String> {
        if self.orbits.len() != orbits.len() {
            return Some(format!(
                "{} orbits, expected {}",
                self.orbits.len(),
                orbits.len()
            ));
        }
        for (t, o) in self.orbits.iter().zip(orbits) {
            if t.perm.len() != o.pieces || t.delta.len() != o.pieces {
                return Some(format!("{}: expected {} slots", o.name, o.pieces));
            }
            let perm: Vec<usize> = t.perm.iter().map(|&p| p as usize).collect();
            if let Some(p) = permutation_problem(&perm, 0) {
                return Some(format!("{}: {p}", o.name));
            }
            if let Some(&d) = t.delta.iter().find(|&&d| d >= o.orientations) {
                return Some(format!(
                    "{}: orientation {d} is out of range 0..{}",
                    o.name,
                    o.orientations - 1
                ));
            }
        }
        None
    }
}

impl Definition {
    /// Checks everything the model promises (orbit sizes and names, the solved state, every
    /// move a permutation with orientations in range, unique move names, `Illegal` rules in
    /// range). The parsers check as they read, with better locations; this is for definitions
    /// built in code.
    pub fn validate(&self) -> Result<()> {
        let at =
            |key: String, msg: String| Error::input(Location::file(&self.name).with_key(key), msg);
        if self.orbits.is_empty() {
            return Err(at("orbits".into(), "no orbits".into()));
        }
        for (i, o) in self.orbits.iter().enumerate() {
            if o.pieces == 0 || o.pieces > MAX_PIECES {
                return Err(at(
                    o.name.clone(),
                    format!("{} pieces, expected 1..{MAX_PIECES}", o.pieces),
                ));
            }
            if o.orientations == 0 || o.orientations > MAX_ORIENTATIONS {
                return Err(at(
                    o.name.clone(),
                    format!(
                        "{} orientations, expected 1..{MAX_ORIENTATIONS}",
                        o.orientations
                    ),
                ));
            }
            if self.orbits[..i].iter().any(|p| p.name == o.name) {
                return Err(at(o.name.clone(), "orbit defined twice".into()));
            }
        }
        if let Some(p) = self.state_problem(&self.solved) {
            return Err(at("solved".into(), p));
        }
        let mut names = hashbrown::HashSet::with_capacity(self.moves.len());
        for m in &self.moves {
            if m.name.is_empty() || !names.insert(m.name.as_str()) {
                return Err(at(
                    format!("moves.{}", m.name),
                    "empty or repeated move name".into(),
                ));
            }
            if let Some(p) = m.transform.problem(&self.orbits) {
                return Err(at(format!("moves.{}", m.name), p));
            }
        }
        for r in &self.illegal {
            let ok = self.orbits.get(r.orbit).is_some_and(|o| r.slot < o.pieces);
            if !ok {
                return Err(at(
                    "illegal".into(),
                    format!("slot {} of orbit {} does not exist", r.slot, r.orbit),
                ));
            }
        }
        Ok(())
    }

    /// What is wrong with `state` as a state of this puzzle's shape (lengths, labels over 254,
    /// orientations out of range), naming the orbit. Does not ask for the solved state's pieces:
    /// see [`same_pieces`](Self::same_pieces).
    pub fn state_problem(&self, state: &State) -> Option<String> {
        if state.orbits.len() != self.orbits.len() {
            return Some(format!(
                "{} orbits, expected {}",
                state.orbits.len(),
                self.orbits.len()
            ));
        }
        for (s, o) in state.orbits.iter().zip(&self.orbits) {
            if s.pieces.len() != o.pieces || s.orientation.len() != o.pieces {
                return Some(format!("{}: expected {} slots", o.name, o.pieces));
            }
            if s.pieces.contains(&u8::MAX) {
                return Some(format!(
                    "{}: piece label 255 is too large (at most 254)",
                    o.name
                ));
            }
            if let Some(&d) = s.orientation.iter().find(|&&d| d >= o.orientations) {
                return Some(format!(
                    "{}: orientation {d} is out of range 0..{}",
                    o.name,
                    o.orientations - 1
                ));
            }
        }
        None
    }

    /// Whether `state` holds the same multiset of pieces as the solved state in every orbit; else
    /// the first orbit that does not: such a state can never be solved (twsearch refuses such
    /// scrambles too).
    pub fn same_pieces(&self, state: &State) -> std::result::Result<(), WrongPieces> {
        for ((s, g), o) in state
            .orbits
            .iter()
            .zip(&self.solved.orbits)
            .zip(&self.orbits)
        {
            let mut a = s.pieces.clone();
            let mut b = g.pieces.clone();
            a.sort_unstable();
            b.sort_unstable();
            if a != b {
                return Err(WrongPieces {
                    orbit: o.name.clone(),
                });
            }
        }
        Ok(())
    }
}
