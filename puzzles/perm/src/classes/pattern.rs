//! The class pattern itself ([`ClassPattern`]): its two parts, the rotations kept, and the
//! index of an entry.
//!
//! # The index
//!
//! A's index is `place * twists + twist`: where its pieces are (the corners' permutation,
//! 40,320) and their twists (2,187). Only the places are numbered in classes (`class_of`: per
//! place its class and a symmetry that takes it to the class's representative, the first of
//! the class in index order: 2,768 classes of the corners' 40,320 places under the 16
//! symmetries that keep the up-down axis, 8 rotations and 8 mirror images; a table of 157 KiB
//! that stays in the caches). The table's index of `(place, twist, b)` is
//! `(class * twists + twist') * |B| + b'`, where `twist'` and `b'` are the twist and `b` taken
//! by the same rotation, from two small tables. That needs the rotations to act on the twists
//! apart from the places (`Pattern::twists_apart`: the 3x3x3's up-down rotations keep the
//! corners' up-down stickers up or down, so a corner's twist goes with it unchanged); a rotation
//! that does not is not kept. When the representative is symmetric itself (its *stabiliser*:
//! the rotations that fix it, the identity for most), `(twist', b')` is the least of its images
//! under the stabiliser, so that every class of `(a, b)` has one entry. The 3x3x3's table has
//! `2,768 * 2,187 * 495` = 3.00 G entries (1.40 GiB at 4 bits), 14.6 times fewer than the plain
//! table (a class of symmetric places keeps some twin entries apart: 2,768 classes of places
//! against 40,320 / 16 = 2,520; with the rotations alone, 5,288 and 5.72 G entries). A mirror
//! negates the twists (`Symmetries::negates`): still apart from the places.
//!
//! Where a kept symmetry does not act on A's twists apart from its places (a middle-layer
//! slot's flip changed by a quarter turn about the up-down axis), A is *numbered whole*: a
//! "place" is A's whole index (`place * twists + twist`), no twist is left beside it, and
//! `class_of` has a word per state of A (vcube's flips and middle-layer slots: 1,013,760 words,
//! 4 MiB, 64,430 classes). B's index is its places' rank times its twists plus its twist code.
//!
//! Per estimate: the two parts' projections as for a plain pattern (or, where A is a whole
//! class, its parts stepped from the parent's by move tables: `ClassPattern::step`), reads
//! in three small tables, and one read far from the caches, in the table. (Numbering the whole of A instead,
//! 11 M classes of the 88 M corner states, made a table 4.9 % smaller but needed a second read
//! far from the caches per look-up, in a 336 MiB `class_of`, and 336 MiB more on disk and in
//! memory; the search was no faster for it on the machine measured: the history of BENCHMARKS.md in git.)

use super::numbering::{
    MAX_CLASSES, MAX_ROTATIONS, SYM_BITS, SYM_MASK, SYMMETRIC, check_numbers, inverse_rotations,
    number_classes, numbers_fingerprint,
};
use super::numbers::ClassNumbers;
use crate::heuristic::{Pattern, Reading};
use crate::space::{PermMove, PermSpace};
use crate::state::Packed;
use statespace::cache::{Entry, TableCache};
use statespace::limit::{Latch, Limits};
use statespace::search::pdb::PdbError;
use statespace::space::{Indexed, StateSpace};

/// One part of a [`ClassPattern`]: pieces of one class, and whether the class's twists are
/// kept in every slot with the pieces as a set (`with twists` in a config).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassPart {
    /// The class of slots.
    pub class: usize,
    /// The pieces' labels.
    pub labels: Vec<u8>,
    /// The pieces as a set and the twist in every slot of their class ([`Pattern::twisted_set`]);
    /// otherwise A's pieces are told apart with their twists ([`Pattern::new`]) and B's are a
    /// set without twists ([`Pattern::set`]).
    pub with_twists: bool,
}

impl ClassPart {
    /// Pieces `labels` of class `class`, without `with twists`.
    pub fn plain(class: usize, labels: Vec<u8>) -> ClassPart {
        ClassPart {
            class,
            labels,
            with_twists: false,
        }
    }

    fn pieces(&self) -> (usize, Vec<u8>) {
        (self.class, self.labels.clone())
    }
}

/// A pattern of two parts stored one entry per symmetry class (see the module docs).
#[derive(Clone, Debug)]
pub struct ClassPattern {
    pub(super) a: Pattern,
    pub(super) b: Pattern,
    /// A's twists' count: A's index is `place * twists + twist` (1 when A is numbered whole:
    /// then a "place" is A's whole index).
    pub(super) twists: u64,
    /// A numbered whole: its twists' count as the pattern has them (its index is
    /// `place * a_twists + twist`, numbered as one), else 0.
    pub(super) whole: u64,
    /// B's states (where its pieces are, with their twists when kept: `place * b_twists +
    /// twist`).
    pub(super) b_count: u64,
    /// B's twists' count (1 for a set without twists).
    pub(super) b_twists: u64,
    /// The moves, in the space's order.
    pub(super) moves: Vec<PermMove>,
    /// The rotations kept: indices of [`Symmetries::image`], `None` for the identity (first).
    pub(super) syms: Vec<Option<usize>>,
    /// Per place of A: `class << SYM_BITS | j`, where rotation `j` takes it to the
    /// representative, and [`SYMMETRIC`] when a rotation besides the identity fixes the
    /// representative.
    pub(super) class_of: ClassNumbers,
    /// Per class: its representative's place.
    pub(super) reps: Vec<u32>,
    /// Per class: the rotations that fix its representative (bit `j` for `syms[j]`; the
    /// identity's bit for every class).
    pub(super) fixed: Vec<u16>,
    /// `twist_images[t * syms + j]`: A's twist `t` under rotation `j`.
    pub(super) twist_images: Vec<u32>,
    /// `twist_moves[t * moves + m]`: A's twist after move `m`, when the twists go with their
    /// slots (empty otherwise: the build makes them per class).
    pub(super) twist_moves: Vec<u32>,
    /// `place_moves[place * moves + m]`: A's place after move `m`, when the places fit 16 bits
    /// and the twists go with their slots (empty otherwise): with `twist_moves` and `b_moves`,
    /// a successor's entry from its parent's parts without projecting it ([`Self::step`]).
    pub(super) place_moves: Vec<u16>,
    /// `b_moves[b * moves + m]`: B's state after move `m`.
    pub(super) b_moves: Vec<u32>,
    /// `b_images[b * syms + j]`: B's state under rotation `j`.
    pub(super) b_images: Vec<u32>,
    pub(super) goal: u64,
    /// What the fingerprint covers beyond the parts: the rotations' byte rules.
    pub(super) rules: Vec<u8>,
    pub(super) name: String,
}

impl ClassPattern {
    /// The class pattern of `a` (pieces of one class, told apart, or a set with the class's
    /// twists) and `b` (pieces of another, as a set, with the class's twists or without) in
    /// `space`, its classes counted within `limits` (memory checked first, the time limit and
    /// Ctrl-C polled). [`PdbError::Invalid`] when a part is not one class, the two share a
    /// class, no rotation of the definition keeps both, or a part is too large to number (A's
    /// places past 2^27, its twists past 2^32, B past 2^32).
    pub fn new<const N: usize>(
        space: &PermSpace<N>,
        a: &ClassPart,
        b: &ClassPart,
        limits: &Limits,
        cache: Option<&TableCache>,
    ) -> Result<ClassPattern, PdbError> {
        let parts = Self::parts(space, a, b)?;
        Self::numbered(space, parts, limits, cache)
    }

    /// Checks the parts as [`new`](Self::new) does, without numbering anything (a plugin's
    /// check of its config).
    pub fn check<const N: usize>(
        space: &PermSpace<N>,
        a: &ClassPart,
        b: &ClassPart,
    ) -> Result<(), PdbError> {
        Self::parts(space, a, b).map(|_| ())
    }

    /// The two parts' patterns, the rotations kept (the identity first), and whether A is
    /// numbered whole.
    fn parts<const N: usize>(
        space: &PermSpace<N>,
        a: &ClassPart,
        b: &ClassPart,
    ) -> Result<Parted, PdbError> {
        let invalid = |m: String| Err(PdbError::Invalid(m));
        if a.class == b.class {
            return invalid("the two parts of a class pattern are in one class".into());
        }
        let a_pattern = match a.with_twists {
            true => Pattern::twisted_set(space, &a.pieces())?,
            false => Pattern::new(space, &[a.pieces()])?,
        };
        let b_pattern = match b.with_twists {
            true => Pattern::twisted_set(space, &b.pieces())?,
            false => Pattern::set(space, &b.pieces())?,
        };
        let (places, twists) = a_pattern
            .places_and_twists()
            .expect("a pattern of one class has one part");
        let b_count: u64 = b_pattern.size().try_into().unwrap_or(u64::MAX);
        if places > MAX_CLASSES {
            return invalid(format!(
                "the pieces told apart have {places} places, more than a class table numbers \
                 ({MAX_CLASSES})"
            ));
        }
        if twists > u64::from(u32::MAX) {
            return invalid(format!(
                "the pieces told apart have {twists} twists, more than a class table numbers"
            ));
        }
        if b_count > u64::from(u32::MAX) {
            return invalid(format!(
                "the second part has {b_count} states, more than a class table numbers"
            ));
        }
        let symmetries = space.symmetries();
        let solved = space.solved();
        let keeps = |p: &Pattern, k: usize| p.kept_by(symmetries, &solved, k);
        let mut syms = vec![None];
        let mut twisting = Vec::new();
        for k in 0..symmetries.order() - 1 {
            if keeps(&a_pattern, k) && keeps(&b_pattern, k) {
                match a_pattern.twists_apart(symmetries, &solved, Some(k)) {
                    true => syms.push(Some(k)),
                    false => twisting.push(Some(k)),
                }
            }
        }
        // Rotations that keep both parts but not A's twists apart from its places: A is
        // numbered whole where it is small enough (its classes are then of places and twists
        // together), else they are left out.
        let whole = !twisting.is_empty() && places.saturating_mul(twists) <= MAX_WHOLE;
        if whole {
            syms.append(&mut twisting);
        }
        if syms.len() > MAX_ROTATIONS {
            return invalid(format!(
                "{} symmetries keep both parts, more than the {MAX_ROTATIONS} a class table numbers",
                syms.len()
            ));
        }
        if syms.len() == 1 {
            let why = match twisting.len() {
                0 => symmetries
                    .why_none()
                    .unwrap_or("the rotations move these pieces elsewhere"),
                _ => "the rotations that keep them change the twists by where the pieces are",
            };
            return invalid(format!(
                "no rotation of {} keeps both {} and {}: nothing to reduce ({why})",
                space.definition().name,
                a_pattern.name(),
                b_pattern.name(),
            ));
        }
        Ok(Parted {
            a: a_pattern,
            b: b_pattern,
            syms,
            whole,
        })
    }

    /// The classes of `a_pattern`'s places under `syms`, and the twists' and `b_pattern`'s
    /// tables.
    fn numbered<const N: usize>(
        space: &PermSpace<N>,
        parts: Parted,
        limits: &Limits,
        cache: Option<&TableCache>,
    ) -> Result<ClassPattern, PdbError> {
        let Parted {
            a: a_pattern,
            b: b_pattern,
            syms,
            whole,
        } = parts;
        let (places, twists) = a_pattern.places_and_twists().expect("checked in parts");
        // Numbered whole: a "place" is A's whole index, and no twist is left beside it.
        let (places, twists, whole) = match whole {
            true => (places * twists, 1, twists),
            false => (places, twists, 0),
        };
        let b_count = b_pattern.size() as u64;
        let (_, b_twists) = b_pattern.places_and_twists().expect("one part");
        let symmetries = space.symmetries();
        let solved = space.solved();
        let moves = space.moves().to_vec();
        let (m, s) = (moves.len() as u128, syms.len() as u128);
        // The class numbering's memory: `class_of`, and at most as many representatives and
        // stabilisers (one class per place when every rotation fixes every place); the twists'
        // and B's tables. And the table's fewest bytes (every class as large as it can be),
        // refused before the numbering's seconds are spent.
        let numbering = u128::from(places) * (9 + 2 * m)
            + u128::from(twists) * 4 * (m + s)
            + u128::from(b_count) * 4 * (m + s);
        // 2 bits an entry: a compact table's (`class_bits = 2`), loaded from the cache, needs
        // no more; the builds check their own bytes before they allocate.
        let table = (u128::from(places) / s) * u128::from(twists) * u128::from(b_count) / 4;
        limits.check_memory(numbering + table)?;
        // Per kept rotation, the parts read through it (no image made).
        let readings = |pattern: &Pattern| -> Vec<Option<Reading>> {
            let through = |k: &Option<usize>| k.map(|k| Reading::new(pattern, symmetries, k));
            syms.iter().map(through).collect()
        };
        let (a_readings, b_readings) = (readings(&a_pattern), readings(&b_pattern));
        let image = |pattern: &Pattern, through: &Option<Reading>, state: &Packed<N>| -> u64 {
            pattern.index(match through {
                Some(reading) => reading.placement(pattern, &state.0),
                None => pattern.placement_of(&state.0),
            })
        };
        // A's images of index `a` under each kept rotation.
        let a_images = |a: u64, out: &mut dyn FnMut(u64)| {
            let state = a_pattern.realize(&solved, &a_pattern.state(a));
            for through in &a_readings {
                out(image(&a_pattern, through, &state));
            }
        };
        // The twists' tables (at place 0: the twists go apart from the places).
        let mut twist_images = Vec::with_capacity((u128::from(twists) * s) as usize);
        for t in 0..twists {
            a_images(t, &mut |i| twist_images.push((i % twists) as u32));
        }
        let mut twist_moves = Vec::new();
        if whole > 0 || a_pattern.twists_apart(symmetries, &solved, None) {
            for t in 0..twists {
                a_pattern.successors(a_pattern.state(t), &mut |_, p| {
                    twist_moves.push((a_pattern.index(p) % twists) as u32)
                });
            }
        }
        // A's places' moves, where they fit: 1.4 MiB on the 3x3x3 (40,320 places, 18 moves).
        let mut place_moves = Vec::new();
        if !twist_moves.is_empty() && whole == 0 && places <= 1 << 16 && b_count <= 1 << 16 {
            place_moves.reserve((u128::from(places) * m) as usize);
            for place in 0..places {
                a_pattern.place_successors(place, &mut |p| place_moves.push(p as u16));
            }
        }
        // B's tables: small.
        let mut b_moves = Vec::with_capacity(b_count as usize * moves.len());
        let mut b_images = Vec::with_capacity(b_count as usize * syms.len());
        for i in 0..b_count {
            let p = b_pattern.state(i);
            b_pattern.successors(p, &mut |_, next| b_moves.push(b_pattern.index(next) as u32));
            let state = b_pattern.realize(&solved, &p);
            for through in &b_readings {
                b_images.push(image(&b_pattern, through, &state) as u32);
            }
        }
        let mut rules = Vec::new();
        for &k in syms.iter().flatten() {
            for byte in 0..space.state_len() {
                let (src, label, add) = symmetries.byte_rule(k, byte as _);
                rules.extend(src.to_le_bytes());
                rules.extend(label.to_le_bytes());
                rules.push(add);
            }
            rules.push(u8::from(symmetries.negates(k)));
        }
        // The numbers of the places: from the cache (checked), else numbered here and saved.
        let place_images = |place: u64, out: &mut [u64]| {
            let mut at = 0;
            a_images(place * twists, &mut |i| {
                out[at] = i / twists;
                at += 1;
            });
        };
        let inverse = inverse_rotations(space, symmetries, &syms);
        let s = syms.len();
        let number = || number_classes(places, s, &inverse, &place_images, limits);
        let check = |numbers: &ClassNumbers| check_numbers(numbers, places, s, &place_images);
        let numbers = match cache {
            Some(cache) => {
                let entry = Entry {
                    label: "classes",
                    fingerprint: numbers_fingerprint(&a_pattern, whole > 0, s, &rules),
                };
                cache.load_or_build(&entry, limits, check, number)?.0
            }
            None => number()?,
        };
        // The representatives (each the first of its class, its own rotation the identity)
        // and their stabilisers, from the numbers.
        let latch = Latch::new(limits);
        let mut reps = Vec::with_capacity(numbers.classes as usize);
        let mut fixed = Vec::with_capacity(numbers.classes as usize);
        for place in 0..places {
            if place % (1 << 20) == 0 {
                latch.check()?;
            }
            let word = numbers.get(place);
            if word & SYM_MASK != 0 {
                continue;
            }
            reps.push(place as u32);
            let mut to = [0u64; MAX_ROTATIONS];
            if word & SYMMETRIC != 0 {
                place_images(place, &mut to[..s]);
            }
            let fixes = |j: usize| j == 0 || (word & SYMMETRIC != 0 && to[j] == place);
            fixed.push((0..s).filter(|&j| fixes(j)).fold(0u16, |f, j| f | 1 << j));
        }
        let name = format!(
            "{} + {} by {} symmetries",
            a_pattern.name(),
            b_pattern.name(),
            s
        );
        let mut pattern = ClassPattern {
            twists,
            whole,
            b_count,
            b_twists,
            moves,
            syms,
            class_of: numbers,
            reps,
            fixed,
            twist_images,
            twist_moves,
            place_moves,
            b_moves,
            b_images,
            goal: 0,
            rules,
            name,
            a: a_pattern,
            b: b_pattern,
        };
        pattern.goal = pattern.project_state(&solved);
        Ok(pattern)
    }

    /// The bytes the pattern holds beside its table: the class numbering (a word per place of
    /// A, and per class its representative and stabiliser) and the twists' and B's tables.
    pub fn bytes(&self) -> u128 {
        u128::from(self.class_of.bytes())
            + (self.reps.len() * 6) as u128
            + ((self.twist_images.len() + self.twist_moves.len()) * 4) as u128
            + ((self.b_moves.len() + self.b_images.len()) * 4) as u128
            + (self.place_moves.len() * 2) as u128
    }

    /// The classes of A's places.
    pub fn classes(&self) -> u64 {
        self.reps.len() as u64
    }

    /// The rotations kept, the identity included.
    pub fn rotations(&self) -> usize {
        self.syms.len()
    }

    /// The parts for people: `CORNERS 1,...,8 + EDGES {9,10,11,12} by 16 symmetries`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The entries of one class: every twist with every B state.
    #[inline]
    pub(super) fn row(&self) -> u64 {
        self.twists * self.b_count
    }

    /// The entry of A state `a` with B state `b`.
    #[inline]
    pub(super) fn cell(&self, a: u64, b: u64) -> u64 {
        self.cell_of_parts(a / self.twists, a % self.twists, b)
    }

    /// The entry of A's place `place` and twist `twist` with B state `b`.
    #[inline]
    pub(super) fn cell_of_parts(&self, place: u64, twist: u64, b: u64) -> u64 {
        let word = self.class_of.get(place);
        let class = u64::from((word & !SYMMETRIC) >> SYM_BITS);
        self.cell_in(class, word, twist, b)
    }

    /// The entry of class `class` (its place's word `word`) for twist `twist` and B state `b`
    /// before the word's rotation.
    #[inline]
    pub(super) fn cell_in(&self, class: u64, word: u32, twist: u64, b: u64) -> u64 {
        let s = self.syms.len();
        let j = (word & SYM_MASK) as usize;
        let t = u64::from(self.twist_images[twist as usize * s + j]);
        let b = u64::from(self.b_images[b as usize * s + j]);
        let within = match word & SYMMETRIC {
            0 => t * self.b_count + b,
            _ => self.least(class as usize, t, b),
        };
        class * self.row() + within
    }

    /// Whether a rotation besides the identity fixes `class`'s representative.
    pub(super) fn is_symmetric(&self, class: usize) -> bool {
        self.fixed[class] != 1
    }

    /// The least image of `(t, b)` (as `t * |B| + b`) under the stabiliser of `class`'s
    /// representative: itself for most classes (only the identity fixes them).
    #[inline]
    pub(super) fn least(&self, class: usize, t: u64, b: u64) -> u64 {
        let s = self.syms.len();
        let mut fixed = self.fixed[class] & !1;
        let mut least = t * self.b_count + b;
        while fixed != 0 {
            let j = fixed.trailing_zeros() as usize;
            fixed &= fixed - 1;
            let image = u64::from(self.twist_images[t as usize * s + j]) * self.b_count
                + u64::from(self.b_images[b as usize * s + j]);
            least = least.min(image);
        }
        least
    }

    /// The entry of a packed state.
    #[inline]
    pub fn project_state<const N: usize>(&self, state: &Packed<N>) -> u64 {
        self.cell_of(self.parts_of(state))
    }

    /// A packed state's parts: A's place and twist, B's state.
    #[inline]
    pub(super) fn parts_of<const N: usize>(&self, state: &Packed<N>) -> Parts {
        self.parts_from(self.a.project_one(&state.0), self.b.project_one(&state.0))
    }

    /// The parts of A's and B's projections (each its places' rank and its twists' value).
    #[inline]
    pub(super) fn parts_from(&self, a: (u64, u64), b: (u64, u64)) -> Parts {
        let (place, twist) = match self.whole {
            0 => a,
            twists => (a.0 * twists + a.1, 0),
        };
        Parts {
            place,
            twist,
            b: b.0 * self.b_twists + b.1,
        }
    }

    /// The entry of `parts`.
    #[inline]
    pub(super) fn cell_of(&self, parts: Parts) -> u64 {
        self.cell_of_parts(parts.place, parts.twist, parts.b)
    }

    /// Whether [`step`](Self::step) can move parts (the places' moves are tabled).
    pub(super) fn steps(&self) -> bool {
        !self.place_moves.is_empty()
    }

    /// The parts one move `m` (in the space's order) after `parts`, from the move tables: three
    /// reads in small tables instead of a projection. Only where [`steps`](Self::steps).
    #[inline]
    pub(super) fn step(&self, parts: Parts, m: usize) -> Parts {
        let moves = self.moves.len();
        Parts {
            place: u64::from(self.place_moves[parts.place as usize * moves + m]),
            twist: u64::from(self.twist_moves[parts.twist as usize * moves + m]),
            b: u64::from(self.b_moves[parts.b as usize * moves + m]),
        }
    }
}

/// A class pattern's parts and rotations, checked and not yet numbered.
struct Parted {
    a: Pattern,
    b: Pattern,
    syms: Vec<Option<usize>>,
    /// A numbered whole (places and twists together).
    whole: bool,
}

/// The most states of A numbered whole (a `class_of` word each: 64 MiB).
const MAX_WHOLE: u64 = 1 << 24;

/// A state's parts in a [`ClassPattern`]: A's place and twist, B's state (each below its
/// count: a place and B below 2^16 where the pattern steps, a twist below 2^32).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Parts {
    pub(super) place: u64,
    pub(super) twist: u64,
    pub(super) b: u64,
}

impl Parts {
    /// One word: the place's low 16 bits, then B's 16, then the twist's 32 (what a stepping
    /// pattern's parts fit in).
    #[inline]
    pub(super) fn word(self) -> u64 {
        self.place << 48 | self.b << 32 | self.twist
    }

    /// The parts of [`word`](Self::word).
    #[inline]
    pub(super) fn of_word(word: u64) -> Parts {
        Parts {
            place: word >> 48,
            b: word >> 32 & 0xffff,
            twist: word & 0xffff_ffff,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{class_pattern, cube};
    use statespace::limit::Limit;
    use std::time::Duration;

    /// All eight corners (their twists kept by slot): the rotations kept act on the twists
    /// apart from the places, as the twists' tables say (every place and twist of a sample
    /// against the image made through the symmetry); the shared twists' moves are every
    /// class's own; a state and its images under the kept rotations share an entry.
    #[test]
    fn perm_class_pattern_takes_twists_by_slot_apart_from_places() {
        let space = cube();
        let pattern = class_pattern(&space, &[1, 2, 3, 4, 5, 6, 7, 8], &[9, 10, 11, 12]);
        assert_eq!(pattern.rotations(), 16, "{}", pattern.name());
        assert_eq!((pattern.twists, pattern.b_count), (2187, 495));
        assert!(
            !pattern.twist_moves.is_empty(),
            "by slot: one table of moves"
        );
        let (symmetries, solved) = (space.symmetries(), space.solved());
        let s = pattern.rotations();
        let mut random = statespace::random::Lcg(11);
        for _ in 0..2000 {
            let a = random.below(pattern.a.size() as usize) as u64;
            let state = pattern.a.realize(&solved, &pattern.a.state(a));
            for (j, k) in pattern.syms.iter().enumerate() {
                let image = k.map_or(state, |k| symmetries.image(k, &state));
                let index = pattern.a.index(pattern.a.placement_of(&image.0));
                let t = a % pattern.twists;
                assert_eq!(
                    index % pattern.twists,
                    u64::from(pattern.twist_images[t as usize * s + j]),
                    "place {} twist {t} rotation {j}",
                    a / pattern.twists
                );
            }
        }
        let mut own = Vec::new();
        for class in (0..pattern.reps.len()).step_by(97) {
            let shared = pattern.twist_moves.clone();
            let mut by_class = pattern.clone();
            by_class.twist_moves.clear();
            assert_eq!(by_class.class_twist_moves(class, &mut own), &shared[..]);
        }
        // The classes are the orbits of the places under the 16 symmetries (8 rotations and 8
        // mirror images), counted apart by the least place of each: 2,768 (5,288 under the
        // rotations alone), more than 40,320 / 16 by the places some symmetry fixes.
        let least = (0..pattern.a.size() as u64 / pattern.twists).map(|place| {
            let state = pattern
                .a
                .realize(&solved, &pattern.a.state(place * pattern.twists));
            let image = |k: &Option<usize>| k.map_or(state, |k| symmetries.image(k, &state));
            let places = pattern.syms.iter().map(image);
            places
                .map(|i| pattern.a.index(pattern.a.placement_of(&i.0)) / pattern.twists)
                .min()
        });
        let orbits: std::collections::HashSet<_> = least.collect();
        assert_eq!((pattern.classes(), orbits.len() as u64), (2_768, 2_768));
        let moves = space.moves();
        // The parts step by the move tables: a successor's parts, and so its entry, without
        // projecting it.
        assert!(pattern.steps());
        walk_sharing_entries(&space, &pattern, 11, 500, |state| {
            let parts = pattern.parts_of(state);
            assert_eq!(Parts::of_word(parts.word()), parts);
            for (m, &mv) in moves.iter().enumerate() {
                let child = space.apply(*state, mv);
                assert_eq!(pattern.step(parts, m), pattern.parts_of(&child), "move {m}");
            }
        });
    }

    /// Along a random walk of `steps` moves from solved (seed `seed`), every state's entry is in
    /// the table and shared by its images under the kept symmetries; `each` checks more.
    fn walk_sharing_entries(
        space: &PermSpace<64>,
        pattern: &ClassPattern,
        seed: u64,
        steps: usize,
        mut each: impl FnMut(&Packed<64>),
    ) {
        let (symmetries, moves) = (space.symmetries(), space.moves());
        let mut random = statespace::random::Lcg(seed);
        let mut state = space.solved();
        assert_eq!(pattern.project_state(&state), pattern.goal);
        for _ in 0..steps {
            state = space.apply(state, moves[random.below(moves.len())]);
            let cell = pattern.project_state(&state);
            assert!(cell < pattern.size() as u64);
            for &k in pattern.syms.iter().flatten() {
                assert_eq!(pattern.project_state(&symmetries.image(k, &state)), cell);
            }
            each(&state);
        }
    }

    /// vcube's and Kociemba's pattern: the edge flips with the middle-layer edges' slots (A,
    /// numbered whole: the 16 symmetries that keep the up-down axis change a middle-layer
    /// slot's flip) and the corner twists with the up-layer corners' slots (B). A's classes are
    /// Kociemba's FlipUDSlice classes, **64,430** (his published count); every state shares
    /// its entry with its images, and B's tables agree with B's moves.
    #[test]
    fn perm_class_pattern_numbers_twisted_sets_whole() {
        let space = cube();
        let a = ClassPart {
            with_twists: true,
            ..ClassPart::plain(1, vec![8, 9, 10, 11])
        };
        let b = ClassPart {
            with_twists: true,
            ..ClassPart::plain(0, vec![0, 1, 2, 3])
        };
        let pattern = ClassPattern::new(&space, &a, &b, &Limits::default(), None).unwrap();
        assert_eq!(pattern.rotations(), 16, "{}", pattern.name());
        assert_eq!((pattern.whole, pattern.twists), (2048, 1));
        assert_eq!((pattern.b_count, pattern.b_twists), (70 * 2187, 2187));
        assert_eq!(pattern.classes(), 64_430);
        assert_eq!(pattern.row(), 153_090);
        assert!(!pattern.steps());
        let moves = space.moves();
        walk_sharing_entries(&space, &pattern, 5, 3000, |state| {
            let parts = pattern.parts_of(state);
            for (m, &mv) in moves.iter().enumerate() {
                let child = pattern.parts_of(&space.apply(*state, mv));
                let b = pattern.b_moves[parts.b as usize * moves.len() + m];
                assert_eq!(u64::from(b), child.b, "move {m}");
            }
        });
    }

    #[test]
    fn perm_class_patterns_are_refused_where_nothing_reduces() {
        let space = cube();
        let limits = Limits::default();
        let err = |a: (usize, Vec<u8>), b: (usize, Vec<u8>)| {
            let (a, b) = (ClassPart::plain(a.0, a.1), ClassPart::plain(b.0, b.1));
            ClassPattern::new(&space, &a, &b, &limits, None)
                .unwrap_err()
                .to_string()
        };
        assert!(err((0, vec![0]), (0, vec![1])).contains("in one class"));
        assert!(err((0, vec![0]), (1, vec![0, 1, 2])).contains("no rotation"));
        // A corner and an edge that one mirror keeps, the corner's twist changed by where it
        // is: A is numbered whole, 14 classes of its 24 states (4 that the mirror fixes, 10
        // pairs).
        let (corner, edge) = (ClassPart::plain(0, vec![0]), ClassPart::plain(1, vec![0]));
        let kept = ClassPattern::new(&space, &corner, &edge, &limits, None).unwrap();
        assert_eq!((kept.rotations(), kept.whole, kept.classes()), (2, 3, 14));
        // Limits hold in the numbering: a time limit already past stops it.
        let past = Limits {
            time_limit: Some(Duration::ZERO),
            ..Limits::default()
        };
        let all: Vec<u8> = (0..8).collect();
        let (corners, middle) = (
            ClassPart::plain(0, all),
            ClassPart::plain(1, vec![8, 9, 10, 11]),
        );
        let stopped = ClassPattern::new(&space, &corners, &middle, &past, None);
        assert!(matches!(stopped, Err(PdbError::Limit(Limit::Time(_)))));
        let small = Limits {
            memory_budget: 1 << 20,
            ..Limits::default()
        };
        let refused = ClassPattern::new(&space, &corners, &middle, &small, None);
        assert!(matches!(
            refused,
            Err(PdbError::Limit(Limit::Memory { .. }))
        ));
    }
}
