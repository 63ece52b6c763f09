//! Pattern databases indexed by symmetry class: one entry per class of abstract states under
//! the rotations that map the pattern onto itself, so that a table of the same bytes holds a
//! pattern several times larger (issue 23's random-state 3x3x3).
//!
//! # The pattern
//!
//! A [`ClassPattern`] keeps two parts of two classes of slots: some pieces of one class told
//! apart, with their twists (part A: the 3x3x3's eight corners, `8! * 3^7 = 88,179,840`
//! states), and where some pieces of another class are, as a set (part B: the four
//! middle-layer edges, `C(12, 4) = 495` sets). The plain table of both has `|A| * |B|` entries
//! (43.6 G on the 3x3x3: 20 GiB at 4 bits). The rotations that map A's pieces onto A's and B's
//! onto B's (the 8 of the 24 that keep the up-down axis) act on both parts; two abstract
//! states one maps onto the other are equally far from solved, so one entry serves the class.
//!
//! # The index
//!
//! A's index is `place * twists + twist`: where its pieces are (the corners' permutation,
//! 40,320) and their twists (2,187). Only the places are numbered in classes (`class_of`: per
//! place its class and a rotation that takes it to the class's representative, the first of
//! the class in index order: 5,288 classes of the corners' 40,320 places, a table of 157 KiB
//! that stays in the caches). The table's index of `(place, twist, b)` is
//! `(class * twists + twist') * |B| + b'`, where `twist'` and `b'` are the twist and `b` taken
//! by the same rotation, from two small tables. That needs the rotations to act on the twists
//! apart from the places (`Pattern::twists_apart`: the 3x3x3's up-down rotations keep the
//! corners' up-down stickers up or down, so a corner's twist goes with it unchanged); a rotation
//! that does not is not kept. When the representative is symmetric itself (its *stabiliser*:
//! the rotations that fix it, the identity for most), `(twist', b')` is the least of its images
//! under the stabiliser, so that every class of `(a, b)` has one entry. The 3x3x3's table has
//! `5,288 * 2,187 * 495` = 5.72 G entries (2.7 GiB at 4 bits), 7.6 times fewer than the plain
//! table (a class of symmetric places keeps some twin entries apart: 5,288 classes of places
//! against 40,320 / 8 = 5,040).
//!
//! Per estimate: the two parts' projections as for a plain pattern, reads in three small
//! tables, and one read far from the caches, in the table. (Numbering the whole of A instead,
//! 11 M classes of the 88 M corner states, made a table 4.9 % smaller but needed a second read
//! far from the caches per look-up, in a 336 MiB `class_of`, and 336 MiB more on disk and in
//! memory; the search was no faster for it on the machine measured, BENCHMARKS.md.)
//!
//! # The build
//!
//! The table is this module's own breadth-first search over the entries, level by level, on
//! every core: a level is made forward (each entry of the last level marks its successors)
//! while it is small, backward (each entry not reached yet looks for a successor on the last
//! level) once the unreached are fewer than the frontier's moves. Per class the moves of the
//! representative's place are looked up once (a class move table: per class and move, the class
//! and rotation of the successor's place), and the twists' moves come from a table of their
//! own when the twists go with their slots (by slot, as the 3x3x3's corners' are; per class
//! otherwise), so the work per entry is small-table reads and a read in the successor class's
//! entries, which stay in the caches while one class is done. Per class, B's images under each
//! move and the successor's row start per twist and move are worked out before the inner loop,
//! which then adds two numbers a target. The 3x3x3's table: 208 s wall on two cores (403 s of CPU,
//! 2.7 GiB at most resident), cached after (BENCHMARKS.md).
//!
//! `class_of` is numbered when the pattern is made and cached beside the table
//! (`class_numbers.rs`: checked when read, then used where it lies). The abstract space is
//! [`Indexed`] by entry, its successors are computed from the representative (slow, but only
//! the cache's probe and checks use them), and its [`Describe`] covers both parts, the
//! rotations' byte rules and the numbering's version: a table is read back only for the same
//! classes.
//!
//! Trade-offs: a class table pays a build of its own and a few small-table reads per estimate;
//! it is the only way a pattern of this size fits in memory. The rotations kept are those of
//! the definition that keep both parts and act on A's twists apart from its places: a
//! definition without rotations, or parts no rotation keeps, gets no reduction (the identity
//! alone) and is refused as pointless.

use crate::class_numbers::{ClassNumbers, UNSET};
use crate::heuristic::{CONJUGATE_LOOKUPS, Lookups, Pattern, Reading};
use crate::inversion::Inversion;
use crate::space::{PermMove, PermSpace};
use crate::state::Packed;
use crate::symmetry::Symmetries;
use statespace::cache::fingerprint::{Content, Fingerprint};
use statespace::cache::{Entry, TableCache};
use statespace::kit::SharedHeuristic;
use statespace::limit::{Latch, Limit, Limits};
use statespace::search::Stats;
use statespace::search::pdb::{Abstraction, Max, PatternDatabase, PdbError};
use statespace::search::table::DistanceTable;
use statespace::space::{
    Describe, GoalSet, Heuristic, Indexed, Invertible, Prefetched, StateSpace,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The version of the class numbering and of the entries' order: part of every fingerprint
/// (2: the entries of no class are left unreached; 3: the classes of A's places, its twists
/// taken by the rotation).
const NUMBERING: u64 = 3;

/// Bits of a `class_of` word that hold the rotation.
const SYM_BITS: u32 = 3;

/// The most rotations a class pattern keeps (the 3x3x3's that keep an axis: 8).
const MAX_ROTATIONS: usize = 1 << SYM_BITS;

/// The rotation's bits of a `class_of` word.
const SYM_MASK: u32 = (1 << SYM_BITS) - 1;

/// The most places of the part told apart: each could be a class of its own, numbered in the
/// bits above the rotation, below [`SYMMETRIC`].
const MAX_CLASSES: u64 = 1 << (31 - SYM_BITS);

/// The bit of a `class_of` word that says its class's representative is fixed by a rotation
/// besides the identity: only then is the stabiliser looked at.
const SYMMETRIC: u32 = 1 << 31;

/// Unreached, in a 4-bit entry.
const UNREACHED: u64 = 0xF;

/// Entries a worker takes at a time in the build, about (whole classes; the limits are polled
/// between them).
const CHUNK_ENTRIES: u64 = 1 << 16;

/// A pattern of two parts stored one entry per symmetry class (see the module docs).
#[derive(Clone, Debug)]
pub struct ClassPattern {
    a: Pattern,
    b: Pattern,
    /// A's twists' count: A's index is `place * twists + twist`.
    twists: u64,
    b_count: u64,
    /// The moves, in the space's order.
    moves: Vec<PermMove>,
    /// The rotations kept: indices of [`Symmetries::image`], `None` for the identity (first).
    syms: Vec<Option<usize>>,
    /// Per place of A: `class << SYM_BITS | j`, where rotation `j` takes it to the
    /// representative, and [`SYMMETRIC`] when a rotation besides the identity fixes the
    /// representative.
    class_of: ClassNumbers,
    /// Per class: its representative's place.
    reps: Vec<u32>,
    /// Per class: the rotations that fix its representative (bit `j` for `syms[j]`; the
    /// identity's bit for every class).
    fixed: Vec<u8>,
    /// `twist_images[t * syms + j]`: A's twist `t` under rotation `j`.
    twist_images: Vec<u32>,
    /// `twist_moves[t * moves + m]`: A's twist after move `m`, when the twists go with their
    /// slots (empty otherwise: the build makes them per class).
    twist_moves: Vec<u32>,
    /// `b_moves[b * moves + m]`: B's state after move `m`.
    b_moves: Vec<u16>,
    /// `b_images[b * syms + j]`: B's state under rotation `j`.
    b_images: Vec<u16>,
    goal: u64,
    /// What the fingerprint covers beyond the parts: the rotations' byte rules.
    rules: Vec<u8>,
    name: String,
}

impl ClassPattern {
    /// The class pattern of `a` (pieces of one class, told apart) and `b` (pieces of another,
    /// as a set) in `space`, its classes counted within `limits` (memory checked first, the
    /// time limit and Ctrl-C polled). [`PdbError::Invalid`] when a part is not one class, the
    /// two share a class, no rotation of the definition keeps both (with A's twists apart
    /// from its places), or a part is too large to number (A's places past 2^28, its twists
    /// past 2^32, B past 2^16).
    pub fn new<const N: usize>(
        space: &PermSpace<N>,
        a: &(usize, Vec<u8>),
        b: &(usize, Vec<u8>),
        limits: &Limits,
        cache: Option<&TableCache>,
    ) -> Result<ClassPattern, PdbError> {
        let (a_pattern, b_pattern, syms) = Self::parts(space, a, b)?;
        Self::numbered(space, a_pattern, b_pattern, syms, limits, cache)
    }

    /// Checks the parts as [`new`](Self::new) does, without numbering anything (a plugin's
    /// check of its config).
    pub fn check<const N: usize>(
        space: &PermSpace<N>,
        a: &(usize, Vec<u8>),
        b: &(usize, Vec<u8>),
    ) -> Result<(), PdbError> {
        Self::parts(space, a, b).map(|_| ())
    }

    /// The two parts' patterns and the rotations kept (the identity first).
    fn parts<const N: usize>(
        space: &PermSpace<N>,
        a: &(usize, Vec<u8>),
        b: &(usize, Vec<u8>),
    ) -> Result<(Pattern, Pattern, Vec<Option<usize>>), PdbError> {
        let invalid = |m: String| Err(PdbError::Invalid(m));
        if a.0 == b.0 {
            return invalid("the two parts of a class pattern are in one class".into());
        }
        let a_pattern = Pattern::new(space, std::slice::from_ref(a))?;
        let b_pattern = Pattern::set(space, b)?;
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
        if b_count > u64::from(u16::MAX) {
            return invalid(format!(
                "the pieces kept as a set have {b_count} states, more than 65,535"
            ));
        }
        let symmetries = space.symmetries();
        let solved = space.solved();
        let keeps = |p: &Pattern, k: usize| {
            p.reads(symmetries, &solved, Some(k)) == p.reads(symmetries, &solved, None)
        };
        let mut syms = vec![None];
        let mut twisting = 0;
        for k in 0..symmetries.order() - 1 {
            if keeps(&a_pattern, k) && keeps(&b_pattern, k) {
                match a_pattern.twists_apart(symmetries, &solved, Some(k)) {
                    true => syms.push(Some(k)),
                    false => twisting += 1,
                }
            }
        }
        if syms.len() > MAX_ROTATIONS {
            return invalid(format!(
                "{} rotations keep both parts, more than the {MAX_ROTATIONS} a class table numbers",
                syms.len()
            ));
        }
        if syms.len() == 1 {
            let why = match twisting {
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
        Ok((a_pattern, b_pattern, syms))
    }

    /// The classes of `a_pattern`'s places under `syms`, and the twists' and `b_pattern`'s
    /// tables.
    fn numbered<const N: usize>(
        space: &PermSpace<N>,
        a_pattern: Pattern,
        b_pattern: Pattern,
        syms: Vec<Option<usize>>,
        limits: &Limits,
        cache: Option<&TableCache>,
    ) -> Result<ClassPattern, PdbError> {
        let (places, twists) = a_pattern.places_and_twists().expect("checked in parts");
        let b_count = b_pattern.size() as u64;
        let symmetries = space.symmetries();
        let solved = space.solved();
        let moves = space.moves().to_vec();
        let (m, s) = (moves.len() as u128, syms.len() as u128);
        // The class numbering's memory: `class_of`, and at most as many representatives and
        // stabilisers (one class per place when every rotation fixes every place); the twists'
        // and B's tables. And the table's fewest bytes (every class as large as it can be),
        // refused before the numbering's seconds are spent.
        let numbering = u128::from(places) * 9
            + u128::from(twists) * 4 * (m + s)
            + u128::from(b_count) * 2 * (m + s);
        let table = (u128::from(places) / s) * u128::from(twists) * u128::from(b_count) / 2;
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
        if a_pattern.twists_apart(symmetries, &solved, None) {
            for t in 0..twists {
                a_pattern.successors(a_pattern.state(t), &mut |_, p| {
                    twist_moves.push((a_pattern.index(p) % twists) as u32)
                });
            }
        }
        // B's tables: small.
        let mut b_moves = Vec::with_capacity(b_count as usize * moves.len());
        let mut b_images = Vec::with_capacity(b_count as usize * syms.len());
        for i in 0..b_count {
            let p = b_pattern.state(i);
            b_pattern.successors(p, &mut |_, next| b_moves.push(b_pattern.index(next) as u16));
            let state = b_pattern.realize(&solved, &p);
            for through in &b_readings {
                b_images.push(image(&b_pattern, through, &state) as u16);
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
                    fingerprint: numbers_fingerprint(&a_pattern, s, &rules),
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
            fixed.push((0..s).filter(|&j| fixes(j)).fold(0u8, |f, j| f | 1 << j));
        }
        let name = format!(
            "{} + {} by {} rotations",
            a_pattern.name(),
            b_pattern.name(),
            s
        );
        let mut pattern = ClassPattern {
            twists,
            b_count,
            moves,
            syms,
            class_of: numbers,
            reps,
            fixed,
            twist_images,
            twist_moves,
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
            + (self.reps.len() * 5) as u128
            + ((self.twist_images.len() + self.twist_moves.len()) * 4) as u128
            + ((self.b_moves.len() + self.b_images.len()) * 2) as u128
    }

    /// The classes of A's places.
    pub fn classes(&self) -> u64 {
        self.reps.len() as u64
    }

    /// The rotations kept, the identity included.
    pub fn rotations(&self) -> usize {
        self.syms.len()
    }

    /// The parts for people: `CORNERS 1,...,8 + EDGES {9,10,11,12} by 8 rotations`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The entries of one class: every twist with every B state.
    #[inline]
    fn row(&self) -> u64 {
        self.twists * self.b_count
    }

    /// The entry of A state `a` with B state `b`.
    #[inline]
    fn cell(&self, a: u64, b: u64) -> u64 {
        self.cell_of_parts(a / self.twists, a % self.twists, b)
    }

    /// The entry of A's place `place` and twist `twist` with B state `b`.
    #[inline]
    fn cell_of_parts(&self, place: u64, twist: u64, b: u64) -> u64 {
        let word = self.class_of.get(place);
        let class = u64::from((word & !SYMMETRIC) >> SYM_BITS);
        self.cell_in(class, word, twist, b)
    }

    /// The entry of class `class` (its place's word `word`) for twist `twist` and B state `b`
    /// before the word's rotation.
    #[inline]
    fn cell_in(&self, class: u64, word: u32, twist: u64, b: u64) -> u64 {
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
    fn is_symmetric(&self, class: usize) -> bool {
        self.fixed[class] != 1
    }

    /// The least image of `(t, b)` (as `t * |B| + b`) under the stabiliser of `class`'s
    /// representative: itself for most classes (only the identity fixes them).
    #[inline]
    fn least(&self, class: usize, t: u64, b: u64) -> u64 {
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
        // B keeps no twist: its index is its places' rank.
        let (place, twist) = self.a.project_one(&state.0);
        let (b, _) = self.b.project_one(&state.0);
        self.cell_of_parts(place, twist, b)
    }

    /// Per class and move: the `class_of` word (class and rotation) of the representative's
    /// place after the move.
    fn class_moves(&self, latch: &Latch) -> Result<Vec<u32>, Limit> {
        let mut table = Vec::with_capacity(self.reps.len() * self.moves.len());
        for (i, &rep) in self.reps.iter().enumerate() {
            if i % (1 << 14) == 0 {
                latch.check()?;
            }
            let a = u64::from(rep) * self.twists;
            self.a.successors(self.a.state(a), &mut |_, p| {
                table.push(self.class_of.get(self.a.index(p) / self.twists));
            });
        }
        Ok(table)
    }

    /// `class`'s twists' moves into `out` (`out[t * moves + m]`): the shared table's when the
    /// twists go with their slots, else from the representative's place.
    fn class_twist_moves<'t>(&'t self, class: usize, out: &'t mut Vec<u32>) -> &'t [u32] {
        if !self.twist_moves.is_empty() {
            return &self.twist_moves;
        }
        out.clear();
        let base = u64::from(self.reps[class]) * self.twists;
        for t in 0..self.twists {
            self.a.successors(self.a.state(base + t), &mut |_, p| {
                out.push((self.a.index(p) % self.twists) as u32)
            });
        }
        out
    }

    /// The exact table, level by level (module docs).
    fn build(&self, limits: &Limits) -> Result<DistanceTable, Limit> {
        let row = self.row();
        let size = self.reps.len() as u64 * row;
        let m = self.moves.len();
        let table_bytes = u128::from(size.div_ceil(16)) * 8;
        limits.check_memory(table_bytes + (self.reps.len() * m * 4) as u128)?;
        let started = std::time::Instant::now();
        let latch = Latch::new(limits);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let class_moves = self.class_moves(&latch)?;
        // Gigabytes: filled under the latch, so the time limit and Ctrl-C hold meanwhile.
        let words = statespace::search::filled(
            size.div_ceil(16) as usize,
            || AtomicU64::new(u64::MAX),
            &latch,
        )?;
        let get = |i: u64| (words[(i / 16) as usize].load(Ordering::Relaxed) >> (i % 16 * 4)) & 0xF;
        // Sets an unreached entry to `d`: an AND, so that two threads setting one entry to the
        // same level agree, and the word's other entries keep theirs.
        // True when this call reached it (the other thread's AND found it reached).
        let set = |i: u64, d: u64| {
            let shift = i % 16 * 4;
            let before =
                words[(i / 16) as usize].fetch_and(!((UNREACHED ^ d) << shift), Ordering::Relaxed);
            (before >> shift) & 0xF == UNREACHED
        };
        set(self.goal, 0);
        let mut histogram = vec![1u64];
        let mut reached = 1u64;
        let (bc, twists) = (self.b_count, self.twists);
        let per_chunk = (CHUNK_ENTRIES / row).max(1) as usize;
        let s = self.syms.len();
        const SLOW: u64 = u64::MAX;
        let chunks = self.reps.len().div_ceil(per_chunk);
        for depth in 0u64.. {
            let frontier = histogram[depth as usize];
            if frontier == 0 || depth + 1 >= UNREACHED {
                break;
            }
            let backward = frontier * m as u64 > (size - reached) * 2;
            let next = AtomicUsize::new(0);
            let found = AtomicU64::new(0);
            std::thread::scope(|scope| -> Result<(), Limit> {
                let workers: Vec<_> = (0..threads)
                    .map(|_| {
                        scope.spawn(|| -> Result<(), Limit> {
                            let mut count = 0u64;
                            let mut own_moves = Vec::new();
                            let (mut b_after, mut t_base) = (Vec::new(), vec![0u64; m]);
                            loop {
                                let k = next.fetch_add(1, Ordering::Relaxed);
                                if k >= chunks {
                                    break;
                                }
                                latch.check()?;
                                let classes =
                                    k * per_chunk..((k + 1) * per_chunk).min(self.reps.len());
                                for class in classes {
                                    let base = class as u64 * row;
                                    let to = &class_moves[class * m..(class + 1) * m];
                                    let twist_moves = self.class_twist_moves(class, &mut own_moves);
                                    // Where move `mv` takes entry `(t, b)`: the successor's
                                    // class, its twist and B taken by the class word's rotation
                                    // (the stabiliser looked at only where the word's flag says
                                    // there is one).
                                    let target = |t: u64, b: u64, mv: usize| -> u64 {
                                        let word = to[mv];
                                        let class = u64::from((word & !SYMMETRIC) >> SYM_BITS);
                                        let t = u64::from(twist_moves[t as usize * m + mv]);
                                        let b = u64::from(self.b_moves[b as usize * m + mv]);
                                        self.cell_in(class, word, t, b)
                                    };
                                    // The same, taken apart so that the inner loop over B adds
                                    // two numbers: per move, B's image under the move and the
                                    // word's rotation (`b_after[mv * |B| + b]`), and per twist
                                    // and move the successor's row start (`t_base[mv]`, SLOW
                                    // where the successor class is symmetric: `target` then).
                                    b_after.clear();
                                    for (mv, &word) in to.iter().enumerate() {
                                        let j = (word & SYM_MASK) as usize;
                                        b_after.extend((0..bc as usize).map(|b| {
                                            let moved = self.b_moves[b * m + mv] as usize;
                                            u64::from(self.b_images[moved * s + j])
                                        }));
                                    }
                                    // A symmetric class's entries of non-least `(t, b)` stand
                                    // for no class (their twin is the least image): never
                                    // set, or a backward level could give one a distance
                                    // larger than its twin's.
                                    let symmetric = self.is_symmetric(class);
                                    for t in 0..twists {
                                        for (mv, &word) in to.iter().enumerate() {
                                            t_base[mv] = if word & SYMMETRIC == 0 {
                                                let j = (word & SYM_MASK) as usize;
                                                let next =
                                                    u64::from((word & !SYMMETRIC) >> SYM_BITS);
                                                let twist =
                                                    twist_moves[t as usize * m + mv] as usize;
                                                next * row
                                                    + u64::from(self.twist_images[twist * s + j])
                                                        * bc
                                            } else {
                                                SLOW
                                            };
                                        }
                                        let after = |b: u64, mv: usize| -> u64 {
                                            match t_base[mv] {
                                                SLOW => target(t, b, mv),
                                                start => {
                                                    start + b_after[mv * bc as usize + b as usize]
                                                }
                                            }
                                        };
                                        for b in 0..bc {
                                            let within = t * bc + b;
                                            if symmetric && self.least(class, t, b) != within {
                                                continue;
                                            }
                                            let here = get(base + within);
                                            if backward {
                                                if here == UNREACHED
                                                    && (0..m).any(|mv| get(after(b, mv)) == depth)
                                                {
                                                    count +=
                                                        u64::from(set(base + within, depth + 1));
                                                }
                                            } else if here == depth {
                                                for mv in 0..m {
                                                    let next = after(b, mv);
                                                    if get(next) == UNREACHED {
                                                        count += u64::from(set(next, depth + 1));
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                            found.fetch_add(count, Ordering::Relaxed);
                            Ok(())
                        })
                    })
                    .collect();
                for worker in workers {
                    worker.join().expect("a class-table worker panicked")?;
                }
                Ok(())
            })?;
            let new = found.load(Ordering::Relaxed);
            histogram.push(new);
            reached += new;
        }
        while histogram.last() == Some(&0) {
            histogram.pop();
        }
        let stats = Stats {
            expanded: reached,
            visited: reached,
            depth: histogram.len().saturating_sub(1) as u32,
            elapsed: started.elapsed(),
            ..Stats::default()
        };
        // An `AtomicU64` has the size, alignment and bits of a `u64`.
        let words: Vec<u64> = words.into_iter().map(AtomicU64::into_inner).collect();
        Ok(DistanceTable::from_nibble_codes(
            size, words, histogram, stats,
        ))
    }
}

/// Numbers the classes of `count` states under `rotations` rotations (`images(a, out)`: the
/// images of state `a` under each, the identity first; `inverse[j]`: the rotation undoing
/// the `j`-th): each state not numbered yet is its class's representative, the least of it,
/// and its images join it.
fn number_classes(
    count: u64,
    rotations: usize,
    inverse: &[usize],
    images: &dyn Fn(u64, &mut [u64]),
    limits: &Limits,
) -> Result<ClassNumbers, Limit> {
    let latch = Latch::new(limits);
    let mut ticker = latch.ticker();
    let mut numbers = ClassNumbers::unset(count, rotations as u32);
    let mut classes = 0u32;
    let mut to = [0u64; MAX_ROTATIONS];
    for a in 0..count {
        ticker.tick(a)?;
        if numbers.get(a) != UNSET {
            continue;
        }
        images(a, &mut to[..rotations]);
        let symmetric = to[1..rotations].contains(&a);
        let flag = if symmetric { SYMMETRIC } else { 0 };
        for (j, &image) in to[..rotations].iter().enumerate() {
            // Rotation `inverse[j]` takes `image` back to the representative; of two
            // rotations onto one image (a symmetric representative), the first.
            if numbers.get(image) == UNSET {
                numbers.set(image, flag | classes << SYM_BITS | inverse[j] as u32);
            }
        }
        classes += 1;
    }
    numbers.classes = u64::from(classes);
    Ok(numbers)
}

/// Whether `numbers` (read from a file: untrusted) are the numbering of `count` states under
/// `rotations` rotations: the layout's counts, every word's class and rotation in range, the
/// classes numbered in order of their first states (each class's first state its own
/// representative), and at 1,024 sampled states, the image the word names is the
/// representative and the flag says whether a rotation fixes it. One line when not.
fn check_numbers(
    numbers: &ClassNumbers,
    count: u64,
    rotations: usize,
    images: &dyn Fn(u64, &mut [u64]),
) -> Result<(), String> {
    if numbers.len() != count || numbers.rotations as usize != rotations {
        return Err(format!(
            "numbers {} states under {} rotations, not {count} under {rotations}",
            numbers.len(),
            numbers.rotations
        ));
    }
    let mut reps = Vec::new();
    for a in 0..count {
        let word = numbers.get(a);
        let (class, j) = (u64::from((word & !SYMMETRIC) >> SYM_BITS), word & SYM_MASK);
        let fits = match j {
            0 => class == reps.len() as u64,
            _ => class < reps.len() as u64 && (j as usize) < rotations,
        };
        if !fits {
            return Err(format!(
                "state {a}'s class word {word:#x} does not fit the numbering"
            ));
        }
        if j == 0 {
            reps.push(a);
        }
    }
    if reps.len() as u64 != numbers.classes {
        return Err(format!(
            "{} classes numbered, the header says {}",
            reps.len(),
            numbers.classes
        ));
    }
    let mut random = statespace::random::Lcg(count ^ 0x5eed);
    let mut to = [0u64; MAX_ROTATIONS];
    for _ in 0..1024.min(count) {
        let a = random.below(count as usize) as u64;
        let word = numbers.get(a);
        let rep = reps[((word & !SYMMETRIC) >> SYM_BITS) as usize];
        images(a, &mut to[..rotations]);
        let mut fixed = [0u64; MAX_ROTATIONS];
        images(rep, &mut fixed[..rotations]);
        let symmetric = fixed[1..rotations].contains(&rep);
        if to[(word & SYM_MASK) as usize] != rep || symmetric != (word & SYMMETRIC != 0) {
            return Err(format!(
                "state {a}'s class word {word:#x} names the wrong class"
            ));
        }
    }
    Ok(())
}

/// The cache's key of a numbering: the part told apart, the rotations' byte rules (`rules`,
/// `rotations` of them) and the numbering's version.
fn numbers_fingerprint(a: &Pattern, rotations: usize, rules: &[u8]) -> Fingerprint {
    let mut content = Content::new("statespace class numbers");
    content.u64(NUMBERING);
    a.describe(&mut content);
    content.u64(rotations as u64).bytes(rules);
    content.finish()
}

/// Per kept rotation `j`, the `i` with `syms[i]` undoing `syms[j]`: found on a state scrambled
/// by a fixed walk (any state that only the identity fixes tells them apart).
fn inverse_rotations<const N: usize>(
    space: &PermSpace<N>,
    symmetries: &Symmetries,
    syms: &[Option<usize>],
) -> Vec<usize> {
    let mut state = space.solved();
    let moves = space.moves();
    for step in 0..64 {
        state = space.apply(state, moves[(step * 7 + step / 3) % moves.len()]);
    }
    let image = |j: usize, s: &Packed<N>| match syms[j] {
        Some(k) => symmetries.image(k, s),
        None => *s,
    };
    (0..syms.len())
        .map(|j| {
            let there = image(j, &state);
            (0..syms.len())
                .find(|&i| image(i, &there) == state)
                .unwrap_or(0)
        })
        .collect()
}

impl StateSpace for ClassPattern {
    type State = u64;
    type Move = PermMove;

    /// The representative's successors, each taken to its class's entry (slow: for the
    /// cache's probe and checks; the build has its own tables).
    fn successors(&self, cell: u64, visit: &mut dyn FnMut(PermMove, u64)) {
        let (class, within) = (cell / self.row(), cell % self.row());
        let (t, b) = (within / self.b_count, within % self.b_count);
        let a = u64::from(self.reps[class as usize]) * self.twists + t;
        let mut at = 0;
        let m = self.moves.len();
        self.a.successors(self.a.state(a), &mut |mv, p| {
            let moved = u64::from(self.b_moves[b as usize * m + at]);
            at += 1;
            visit(mv, self.cell(self.a.index(p), moved));
        });
    }

    fn is_goal(&self, cell: u64) -> bool {
        cell == self.goal
    }
}

impl Indexed for ClassPattern {
    fn size(&self) -> u128 {
        u128::from(self.reps.len() as u64 * self.row())
    }

    fn index(&self, cell: u64) -> u64 {
        cell
    }

    fn state(&self, index: u64) -> u64 {
        index
    }
}

impl Invertible for ClassPattern {
    fn inverse(&self, m: PermMove) -> PermMove {
        self.a.inverse(m)
    }
}

impl GoalSet for ClassPattern {
    fn goals(&self, visit: &mut dyn FnMut(u64)) {
        visit(self.goal)
    }
}

/// Both parts, the rotations' byte rules, the numbering's version: what decides which entry
/// holds which class.
impl Describe for ClassPattern {
    fn describe(&self, content: &mut Content) {
        content.str("perm class pattern").u64(NUMBERING);
        self.a.describe(content);
        self.b.describe(content);
        content
            .str("rotations")
            .u64(self.syms.len() as u64)
            .bytes(&self.rules);
    }
}

impl<const N: usize> Abstraction<PermSpace<N>> for ClassPattern {
    type Space = ClassPattern;

    fn space(&self) -> &ClassPattern {
        self
    }

    #[inline]
    fn project(&self, _: &PermSpace<N>, state: Packed<N>) -> u64 {
        self.project_state(&state)
    }

    /// A move turns many pieces at once: every move may count (as for [`Pattern`]).
    fn pieces(&self) -> u64 {
        u64::MAX
    }

    fn build_table(&self, limits: &Limits) -> Result<DistanceTable, Limit> {
        self.build(limits)
    }

    /// The table and the class move table beside it.
    fn build_bytes(&self) -> u128 {
        self.size().div_ceil(16) * 8 + (self.reps.len() * self.moves.len() * 4) as u128
    }
}

/// A class database looked up at the state, at images of it under rotations that read other
/// pieces (the 3x3x3's other two axes' middle-layer edges), and with `dual` at the state's
/// inverse too: the largest value (as [`Conjugated`](crate::heuristic::Conjugated) does for a
/// plain database).
///
/// A look-up reads once far from the caches, the entry; and the state's own look-up alone cuts
/// most successors in IDA* (64 % of them on the 3x3x3 from a random state; all three axes,
/// 82 %; with the inverse, 90 %). So the estimate is made in stages ([`Heuristic::advance`]:
/// IDA* runs a stage for every successor before the next stage of any, so each stage's reads
/// overlap): the state's own entry prefetched ([`prefetch`](Heuristic::prefetch)), then read;
/// while below the limit, the other axes' entries prefetched, then read; then the inverse's.
/// A successor cut by its own look-up costs one projection, not six.
pub struct ClassLookups<const N: usize> {
    database: PatternDatabase<ClassPattern>,
    /// The rotations looked up through besides the identity.
    through: Vec<usize>,
    /// Per rotation looked up through, the readings of the two parts through it (no image
    /// made: [`Reading`]).
    readings: Vec<(Reading, Reading)>,
    inversion: Option<Inversion>,
}

/// The most rotations looked up through: [`Prefetched`]'s first three words hold a group's
/// entries, the last the stage and the largest entry so far ([`Stage`]).
const MAX_THROUGH: usize = 2;

/// Where a staged estimate is, in [`Prefetched`]'s last word (low byte; the largest entry
/// read so far above it): which group's entries (the state's own, the other axes', the
/// inverse's) are prefetched, to be read.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Stage {
    /// Word 0: the state's own entry.
    OwnCell,
    /// Words 1..: the other axes' entries.
    AxesCells,
    /// Words 0..: the inverse's entries.
    InverseCells,
}

impl Stage {
    const ALL: [Stage; 3] = [Stage::OwnCell, Stage::AxesCells, Stage::InverseCells];
}

/// The stage and the largest entry so far, as [`Prefetched`]'s last word.
fn stage_word(stage: Stage, best: u32) -> u64 {
    u64::from(best) << 8 | stage as u64
}

impl<const N: usize> ClassLookups<N> {
    /// `database` looked up at the state and through at most `extra` rotations, each reading
    /// other pieces (the first such), and with `dual` at the inverse when the space has one.
    pub fn new(
        space: &PermSpace<N>,
        database: PatternDatabase<ClassPattern>,
        extra: usize,
        dual: bool,
    ) -> Self {
        let symmetries = space.symmetries();
        let solved = space.solved();
        let pattern = database.abstraction();
        let reads = |k: Option<usize>| {
            let mut pieces = pattern.a.reads(symmetries, &solved, k);
            pieces.extend(pattern.b.reads(symmetries, &solved, k));
            pieces
        };
        let mut seen = vec![reads(None)];
        let mut through = Vec::new();
        for k in 0..symmetries.order() - 1 {
            let pieces = reads(Some(k));
            if through.len() < extra.min(MAX_THROUGH) && !seen.contains(&pieces) {
                seen.push(pieces);
                through.push(k);
            }
        }
        let readings = through
            .iter()
            .map(|&k| {
                (
                    Reading::new(&pattern.a, symmetries, k),
                    Reading::new(&pattern.b, symmetries, k),
                )
            })
            .collect();
        let inversion = match dual {
            true => space.inversion().ok().cloned(),
            false => None,
        };
        ClassLookups {
            database,
            through,
            readings,
            inversion,
        }
    }

    /// The database.
    pub fn database(&self) -> &PatternDatabase<ClassPattern> {
        &self.database
    }

    /// The rotations looked up through besides the identity.
    pub fn through(&self) -> &[usize] {
        &self.through
    }

    /// The other axes' entries into `out`, one per reading, prefetched.
    #[inline]
    fn axes_cells(&self, state: &Packed<N>, out: &mut [u64]) {
        let pattern = self.database.abstraction();
        for (slot, (a, b)) in out.iter_mut().zip(&self.readings) {
            let (place, twist) = a.project_one(&pattern.a, &state.0);
            let (b, _) = b.project_one(&pattern.b, &state.0);
            *slot = pattern.cell_of_parts(place, twist, b);
            self.database.table().prefetch(*slot);
        }
    }

    /// The state's own entry, prefetched.
    #[inline]
    fn own_cell(&self, state: &Packed<N>) -> u64 {
        let cell = self.database.abstraction().project_state(state);
        self.database.table().prefetch(cell);
        cell
    }

    /// After the own or the other axes' look-ups reached `best`: done when it reaches `limit`
    /// or nothing is left, else the next group's entries prefetched.
    #[inline]
    fn after(
        &self,
        state: &Packed<N>,
        words: &mut Prefetched,
        from: Stage,
        best: u32,
        limit: u32,
    ) -> Option<u32> {
        if best >= limit {
            return Some(best);
        }
        let r = self.readings.len();
        if from == Stage::OwnCell && r > 0 {
            self.axes_cells(state, &mut words.0[1..=r]);
            words.0[3] = stage_word(Stage::AxesCells, best);
            return None;
        }
        let Some(inversion) = &self.inversion else {
            return Some(best);
        };
        let inverse = inversion.invert(state);
        words.0[0] = self.own_cell(&inverse);
        self.axes_cells(&inverse, &mut words.0[1..=r]);
        words.0[3] = stage_word(Stage::InverseCells, best);
        None
    }
}

impl<const N: usize> Heuristic<PermSpace<N>> for ClassLookups<N> {
    fn intact(&self, cache: &TableCache) -> bool {
        self.database.intact_in::<PermSpace<N>>(cache)
    }

    fn estimate(&self, space: &PermSpace<N>, state: Packed<N>) -> u32 {
        self.estimate_below(space, state, u32::MAX)
    }

    /// The stages one after the other.
    #[inline]
    fn estimate_below(&self, space: &PermSpace<N>, state: Packed<N>, limit: u32) -> u32 {
        self.estimate_prefetched(space, state, &self.prefetch(space, state), limit)
    }

    /// The state's own entry, prefetched.
    #[inline]
    fn prefetch(&self, _: &PermSpace<N>, state: Packed<N>) -> Prefetched {
        let mut out = Prefetched::NONE;
        out.0[0] = self.own_cell(&state);
        out.0[3] = stage_word(Stage::OwnCell, 0);
        out
    }

    /// The next stage (see the type's docs).
    #[inline]
    fn advance(
        &self,
        _: &PermSpace<N>,
        state: Packed<N>,
        words: &mut Prefetched,
        limit: u32,
    ) -> Option<u32> {
        let (stage, best) = (words.0[3] as u8, (words.0[3] >> 8) as u32);
        let r = self.readings.len();
        let entries = |words: &[u64]| best.max(self.database.largest_entry(words, limit));
        match Stage::ALL.get(usize::from(stage)).copied() {
            Some(Stage::OwnCell) => {
                let best = entries(&words.0[..1]);
                self.after(&state, words, Stage::OwnCell, best, limit)
            }
            Some(Stage::AxesCells) => {
                let best = entries(&words.0[1..=r]);
                self.after(&state, words, Stage::AxesCells, best, limit)
            }
            Some(Stage::InverseCells) | None => Some(entries(&words.0[..=r])),
        }
    }

    /// The stages one after the other.
    #[inline]
    fn estimate_prefetched(
        &self,
        space: &PermSpace<N>,
        state: Packed<N>,
        prefetched: &Prefetched,
        limit: u32,
    ) -> u32 {
        let mut words = *prefetched;
        loop {
            if let Some(h) = self.advance(space, state, &mut words, limit) {
                return h;
            }
        }
    }
}

/// The two parts of a [`ClassPattern`]: pieces told apart, and pieces kept as a set, each
/// `(class, labels)`.
pub type ClassParts = ((usize, Vec<u8>), (usize, Vec<u8>));

/// A shared heuristic as a part of [`Max`].
struct Shared<const N: usize>(SharedHeuristic<PermSpace<N>>);

impl<const N: usize> Heuristic<PermSpace<N>> for Shared<N> {
    fn intact(&self, cache: &TableCache) -> bool {
        self.0.intact(cache)
    }

    fn estimate(&self, space: &PermSpace<N>, state: Packed<N>) -> u32 {
        self.0.estimate(space, state)
    }

    #[inline]
    fn estimate_below(&self, space: &PermSpace<N>, state: Packed<N>, limit: u32) -> u32 {
        self.0.estimate_below(space, state, limit)
    }

    #[inline]
    fn prefetch(&self, space: &PermSpace<N>, state: Packed<N>) -> Prefetched {
        self.0.prefetch(space, state)
    }

    #[inline]
    fn advance(
        &self,
        space: &PermSpace<N>,
        state: Packed<N>,
        prefetched: &mut Prefetched,
        limit: u32,
    ) -> Option<u32> {
        self.0.advance(space, state, prefetched, limit)
    }

    #[inline]
    fn estimate_prefetched(
        &self,
        space: &PermSpace<N>,
        state: Packed<N>,
        prefetched: &Prefetched,
        limit: u32,
    ) -> u32 {
        self.0.estimate_prefetched(space, state, prefetched, limit)
    }
}

/// The heuristic of a class table first, then `others` (made with the budget it leaves), as
/// one [`Max`]: the [`ClassPattern`] of `parts` numbered (or its numbers loaded from `cache`),
/// its table built or loaded, looked up as `lookups` says ([`ClassLookups`]: along the other
/// axes with `symmetric`, at the inverse with `dual`). Only a limit stops it: the parts were
/// checked with the config ([`ClassPattern::check`]).
pub fn with_class_table<const N: usize>(
    space: &PermSpace<N>,
    parts: &ClassParts,
    lookups: Lookups,
    limits: &Limits,
    cache: &TableCache,
    others: impl FnOnce(&Limits) -> Result<SharedHeuristic<PermSpace<N>>, Limit>,
) -> Result<SharedHeuristic<PermSpace<N>>, Limit> {
    let pattern = match ClassPattern::new(space, &parts.0, &parts.1, limits, Some(cache)) {
        Ok(pattern) => pattern,
        Err(PdbError::Limit(limit)) => return Err(limit),
        Err(PdbError::Invalid(why)) => unreachable!("checked class pattern: {why}"),
    };
    let held = pattern.bytes();
    let database = PatternDatabase::build::<PermSpace<N>>(pattern, limits, Some(cache))?;
    let extra = if lookups.symmetric {
        CONJUGATE_LOOKUPS
    } else {
        0
    };
    let first = ClassLookups::new(space, database, extra, lookups.dual);
    let mut rest = limits.clone();
    let used = held + u128::from(first.database().table().bytes());
    rest.memory_budget = limits.memory_budget.saturating_sub(used as u64);
    let parts: Vec<Box<dyn Heuristic<PermSpace<N>> + Send + Sync>> =
        vec![Box::new(first), Box::new(Shared(others(&rest)?))];
    Ok(Arc::new(Max::new(parts)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::Metric;
    use crate::tws;
    use statespace::error::Location;
    use statespace::setup::Setup;
    use std::path::PathBuf;
    use std::time::Duration;

    fn cube() -> PermSpace<64> {
        let limits = Limits::default();
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../configs/defs/3x3x3-rotations.tws");
        let def = tws::read(&path, &mut Setup::new(&limits)).unwrap();
        let powers = def
            .generators(
                None,
                Metric::Htm,
                &Location::file("test"),
                &mut Setup::new(&limits),
            )
            .unwrap();
        PermSpace::new(def, &powers, false, &mut Setup::new(&limits)).unwrap()
    }

    /// Corners `a` told apart and edges `b` as a set (1-based labels); the classes are 0
    /// (corners) and 1 (edges).
    fn class_pattern(space: &PermSpace<64>, a: &[u8], b: &[u8]) -> ClassPattern {
        let labels = |l: &[u8]| l.iter().map(|&x| x - 1).collect::<Vec<u8>>();
        ClassPattern::new(
            space,
            &(0, labels(a)),
            &(1, labels(b)),
            &Limits::default(),
            None,
        )
        .unwrap()
    }

    /// The plain table of both parts, by a breadth-first search over every pair `(a, b)`.
    fn plain_distances(pattern: &ClassPattern) -> Vec<u8> {
        let (ac, bc) = (pattern.a.size() as usize, pattern.b_count as usize);
        let m = pattern.moves.len();
        let mut dist = vec![u8::MAX; ac * bc];
        let solved = |p: &Pattern| p.goal_index_for_tests();
        let goal = solved(&pattern.a) as usize * bc + solved(&pattern.b) as usize;
        dist[goal] = 0;
        let mut frontier = vec![goal];
        let mut d = 0;
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &i in &frontier {
                let (a, b) = (i / bc, i % bc);
                let mut at = 0;
                pattern
                    .a
                    .successors(pattern.a.state(a as u64), &mut |_, p| {
                        let to = pattern.a.index(p) as usize * bc
                            + usize::from(pattern.b_moves[b * m + at]);
                        at += 1;
                        if dist[to] == u8::MAX {
                            dist[to] = d + 1;
                            next.push(to);
                        }
                    });
            }
            frontier = next;
            d += 1;
        }
        dist
    }

    /// Every abstract state's entry in the class table is its distance in the plain one, and
    /// the class table is smaller by about the rotations' number.
    fn same_as_plain(a: &[u8], b: &[u8], rotations: usize) {
        let space = cube();
        let pattern = class_pattern(&space, a, b);
        assert_eq!(pattern.rotations(), rotations, "{}", pattern.name());
        let table = pattern.build(&Limits::default()).unwrap();
        let plain = plain_distances(&pattern);
        let bc = pattern.b_count;
        for a in 0..pattern.a.size() as u64 {
            for b in 0..bc {
                let want = plain[(a * bc + b) as usize];
                let got = table.code(pattern.cell(a, b));
                assert_eq!(
                    got,
                    (want != u8::MAX).then_some(u64::from(want)),
                    "a {a} b {b}"
                );
            }
        }
        let states = pattern.class_of.len();
        assert!(pattern.classes() * rotations as u64 >= states);
        // Fewer classes than places (a class of symmetric places is smaller than the
        // rotations' number: few on the 3x3x3's corners, many among two corners' 56 places).
        assert!(pattern.classes() < states, "{} classes", pattern.classes());
        // The entries of no class (a symmetric class's non-least sets) are never reached, and
        // the table passes the cache's check of every entry against its successors.
        for class in 0..pattern.classes() as usize {
            for within in 0..pattern.row() {
                let cell = class as u64 * pattern.row() + within;
                let (t, b) = (within / bc, within % bc);
                let canonical = pattern.least(class, t, b) == within;
                assert_eq!(
                    table.code(cell).is_some(),
                    canonical,
                    "class {class} t {t} b {b}"
                );
            }
        }
        let recipe = statespace::search::table::cached::Recipe::pattern_database();
        for _ in 0..20 {
            statespace::search::table::verify(&pattern, &table, &recipe).unwrap();
        }
        // The histogram counts one entry per class of abstract states.
        assert_eq!(table.reachable(), table.histogram().iter().sum::<u64>());
        assert!(
            table.reachable() * rotations as u64
                >= plain.iter().filter(|&&d| d != u8::MAX).count() as u64
        );
    }

    /// The staged look-ups ([`ClassLookups`], stages driven by `estimate_prefetched` and, as
    /// IDA* drives them, by `advance` with a shrinking limit) give the max of the look-ups made
    /// one by one: the table at the state, at its images through the rotations looked up
    /// through, and the same at the inverse; below a limit exactly, at or above it a value
    /// between the limit and the max.
    /// The fused projections the search makes (`Pattern::index_of`, `project_one`, and the
    /// same through a symmetry's `Reading`) give the index of the placement, and through a
    /// reading the index of the image made whole: for patterns of one and several parts, twists
    /// kept by slot and by piece, pieces told apart and alike, at states along a random walk.
    #[test]
    fn perm_fused_projections_equal_placement_then_index() {
        let space = cube();
        let symmetries = space.symmetries();
        let edges = |l: &[u8]| (1usize, l.to_vec());
        let patterns = [
            Pattern::new(&space, &[(0, (0..8).collect())]).unwrap(),
            Pattern::new(&space, &[edges(&[0, 1, 2, 3, 4, 5])]).unwrap(),
            Pattern::new(&space, &[(0, vec![0, 2, 5]), edges(&[1, 7, 10])]).unwrap(),
            Pattern::set(&space, &edges(&[8, 9, 10, 11])).unwrap(),
            Pattern::twists(&space, &[edges(&[8, 9, 10, 11])]).unwrap(),
        ];
        let mut state = space.solved();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for step in 0..300 {
            for pattern in &patterns {
                let index = pattern.index(pattern.placement_of(&state.0));
                assert_eq!(
                    pattern.index_of(&state.0),
                    index,
                    "{} step {step}",
                    pattern.name()
                );
                if let Some((_, twists)) = pattern.places_and_twists() {
                    let (places, value) = pattern.project_one(&state.0);
                    assert_eq!(places * twists + value, index, "{}", pattern.name());
                }
                for k in 0..symmetries.order() - 1 {
                    let reading = Reading::new(pattern, symmetries, k);
                    let image = symmetries.image(k, &state);
                    let whole = pattern.index(pattern.placement_of(&image.0));
                    let through = pattern.index(reading.placement(pattern, &state.0));
                    assert_eq!(through, whole, "{} through {k}", pattern.name());
                    assert_eq!(reading.index_of(pattern, &state.0), whole);
                    if let Some((_, twists)) = pattern.places_and_twists() {
                        let (places, value) = reading.project_one(pattern, &state.0);
                        assert_eq!(places * twists + value, whole);
                    }
                }
            }
            let mut next = Vec::new();
            space.successors(state, &mut |_, t| next.push(t));
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            state = next[(seed >> 33) as usize % next.len()];
        }
        assert_ne!(state, space.solved(), "the walk moved");
    }

    #[test]
    fn perm_class_lookups_in_stages_are_the_max_of_their_lookups() {
        let space = cube();
        let pattern = class_pattern(&space, &[1, 3], &[9, 10, 11, 12]);
        let database =
            PatternDatabase::build::<PermSpace<64>>(pattern, &Limits::default(), None).unwrap();
        let lookups = ClassLookups::new(&space, database, MAX_THROUGH, true);
        assert_eq!(lookups.through().len(), MAX_THROUGH);
        let (symmetries, inversion) = (space.symmetries(), space.inversion().unwrap());
        let db = lookups.database();
        let one_by_one = |state: Packed<64>| {
            let at = |s: Packed<64>| {
                let through = lookups.through().iter().map(|&k| symmetries.image(k, &s));
                std::iter::once(s)
                    .chain(through)
                    .map(|image| db.value(&space, image))
                    .max()
                    .unwrap()
            };
            at(state).max(at(inversion.invert(&state)))
        };
        let mut random = statespace::random::Lcg(7);
        let moves = space.moves();
        let mut state = space.solved();
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..400 {
            state = space.apply(state, moves[random.below(moves.len())]);
            let want = one_by_one(state);
            seen.insert(want);
            assert_eq!(lookups.estimate(&space, state), want);
            for limit in 0..=want + 1 {
                let got = lookups.estimate_below(&space, state, limit);
                match want < limit {
                    true => assert_eq!(got, want, "limit {limit}"),
                    false => assert!((limit..=want).contains(&got), "limit {limit}: {got}"),
                }
                // As IDA* drives it: a stage at a time, the limit shrinking on the way.
                let mut words = lookups.prefetch(&space, state);
                let mut stages = 1;
                let got = loop {
                    let shrunk = limit.saturating_sub(stages / 2);
                    if let Some(h) = lookups.advance(&space, state, &mut words, shrunk) {
                        break (h, shrunk);
                    }
                    stages += 1;
                    assert!(stages as usize <= Stage::ALL.len(), "too many stages");
                };
                match want < got.1 {
                    true => assert_eq!(got.0, want, "limit {}", got.1),
                    false => assert!((got.1..=want).contains(&got.0), "limit {}", got.1),
                }
            }
        }
        // The walk met more than one distance, and one where every look-up group was read.
        assert!(seen.len() > 3, "{seen:?}");
    }

    /// All eight corners (their twists kept by slot): the rotations kept act on the twists
    /// apart from the places, as the twists' tables say (every place and twist of a sample
    /// against the image made through the symmetry); the shared twists' moves are every
    /// class's own; a state and its images under the kept rotations share an entry.
    #[test]
    fn perm_class_pattern_takes_twists_by_slot_apart_from_places() {
        let space = cube();
        let pattern = class_pattern(&space, &[1, 2, 3, 4, 5, 6, 7, 8], &[9, 10, 11, 12]);
        assert_eq!(pattern.rotations(), 8, "{}", pattern.name());
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
        let moves = space.moves();
        let mut state = space.solved();
        for _ in 0..500 {
            state = space.apply(state, moves[random.below(moves.len())]);
            let cell = pattern.project_state(&state);
            assert!(cell < pattern.size() as u64);
            for &k in pattern.syms.iter().flatten() {
                assert_eq!(pattern.project_state(&symmetries.image(k, &state)), cell);
            }
        }
    }

    #[test]
    fn perm_class_table_equals_the_plain_table_two_rotations() {
        // Opposite corners and opposite edges of the up face: the half turn about its axis.
        same_as_plain(&[1, 3], &[1, 3], 2);
    }

    #[test]
    fn perm_class_table_equals_the_plain_table_with_symmetric_representatives() {
        // Two opposite up corners and the middle layer: the half turn, and the solved corners
        // (and others) fixed by it, whose middle-layer sets are canonicalised.
        same_as_plain(&[1, 3], &[9, 10, 11, 12], 2);
    }

    #[test]
    fn perm_class_patterns_are_refused_where_nothing_reduces() {
        let space = cube();
        let limits = Limits::default();
        let err = |a: (usize, Vec<u8>), b: (usize, Vec<u8>)| {
            ClassPattern::new(&space, &a, &b, &limits, None)
                .unwrap_err()
                .to_string()
        };
        assert!(err((0, vec![0]), (0, vec![1])).contains("in one class"));
        assert!(err((0, vec![0]), (1, vec![0])).contains("no rotation"));
        // Limits hold in the numbering: a time limit already past stops it.
        let past = Limits {
            time_limit: Some(Duration::ZERO),
            ..Limits::default()
        };
        let all: Vec<u8> = (0..8).collect();
        let stopped = ClassPattern::new(&space, &(0, all), &(1, vec![8, 9, 10, 11]), &past, None);
        assert!(matches!(stopped, Err(PdbError::Limit(Limit::Time(_)))));
        let small = Limits {
            memory_budget: 1 << 20,
            ..Limits::default()
        };
        let refused = ClassPattern::new(
            &space,
            &(0, (0..8).collect()),
            &(1, vec![8, 9, 10, 11]),
            &small,
            None,
        );
        assert!(matches!(
            refused,
            Err(PdbError::Limit(Limit::Memory { .. }))
        ));
    }

    #[test]
    fn perm_class_numbers_come_back_from_the_cache_checked() {
        let space = cube();
        let dir = tempfile::tempdir().unwrap();
        let cache = TableCache::new(Some(dir.path().to_path_buf()), true, |_| {});
        let parts = ((0, vec![0, 2]), (1, vec![8, 9, 10, 11]));
        let make = || {
            ClassPattern::new(&space, &parts.0, &parts.1, &Limits::default(), Some(&cache)).unwrap()
        };
        let built = make();
        let loaded = make();
        assert!(!built.class_of.is_mapped() && loaded.class_of.is_mapped());
        for a in 0..built.class_of.len() {
            assert_eq!(built.class_of.get(a), loaded.class_of.get(a));
        }
        assert_eq!(
            (built.reps.clone(), built.fixed.clone()),
            (loaded.reps, loaded.fixed)
        );
        let first_symmetric = (0..built.reps.len()).find(|&c| built.is_symmetric(c));
        let first_symmetric = first_symmetric.expect("the half turn fixes some representatives");
        // The check refuses numbers that are not the numbering: a class out of order, a
        // wrong rotation, a missing symmetric flag, other counts.
        let (a_pattern, s) = (&built.a, built.syms.len());
        let symmetries = space.symmetries();
        let solved = space.solved();
        // The images of a place (at twist 0).
        let twists = built.twists;
        let images = |place: u64, out: &mut [u64]| {
            let state = a_pattern.realize(&solved, &a_pattern.state(place * twists));
            for (to, k) in out.iter_mut().zip(&built.syms) {
                let image = match k {
                    Some(k) => symmetries.image(*k, &state),
                    None => state,
                };
                *to = a_pattern.index(a_pattern.placement_of(&image.0)) / twists;
            }
        };
        let count = built.class_of.len();
        assert_eq!(check_numbers(&built.class_of, count, s, &images), Ok(()));
        let rep = u64::from(built.reps[1]);
        let other = (0..count)
            .find(|&a| built.class_of.get(a) & SYM_MASK != 0)
            .unwrap();
        let symmetric = u64::from(built.reps[first_symmetric]);
        for (a, word) in [
            (rep, 7 << SYM_BITS),
            (other, built.class_of.get(other) ^ 1),
            (symmetric, built.class_of.get(symmetric) & !SYMMETRIC),
        ] {
            let mut wrong = built.class_of.clone();
            wrong.set(a, word);
            // The samples may miss one wrong word of many; the scan or the samples catch these
            // (a representative's word is scanned; the rest are forced into the samples by
            // making every word of their kind wrong).
            if a != rep {
                for b in 0..count {
                    let w = wrong.get(b);
                    if a == other && w & SYM_MASK != 0 {
                        wrong.set(b, w ^ 1);
                    }
                    if a == symmetric && w & SYMMETRIC != 0 {
                        wrong.set(b, w & !SYMMETRIC);
                    }
                }
            }
            assert!(check_numbers(&wrong, count, s, &images).is_err(), "{a}");
        }
        assert!(check_numbers(&built.class_of, count + 1, s, &images).is_err());
    }
}
