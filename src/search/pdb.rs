//! Pattern databases: admissible heuristics from exact distances in an abstraction of the space.
//!
//! An [`Abstraction`] maps every state of a space `P` onto a state of a smaller space (say, only
//! where some of the pieces are), such that every move of `P` maps onto a move of the small space
//! or onto no move at all. Then the distance of the projected state to the projected goals never
//! exceeds the distance of the state itself: a lower bound, so an admissible [`Heuristic`]. The
//! small space is [`Indexed`], [`Invertible`] and has a [`GoalSet`], so its whole distance table
//! is built once by the existing [`table`] engine (one backward BFS from the projected goals) and
//! every estimate afterwards is a projection and one table lookup.
//!
//! | type | estimate | admissible because |
//! |---|---|---|
//! | [`PatternDatabase`] | the table's distance of the projected state | the projection maps paths onto paths no longer |
//! | [`Max`] | the largest of several heuristics | each is a lower bound |
//! | [`Additive`] | the sum over databases whose abstractions count disjoint sets of pieces' moves, maximised over [`Symmetry`] images | every move counts in at most one table (Korf & Felner 2002) |
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
//!
//! # Building, caching, memory
//!
//! [`PatternDatabase::build`] builds an exact table (one lookup per estimate, never the mod-3
//! walk) by [`Abstraction::build_table`] (the unit-cost table engine unless the abstraction has a
//! search of its own) and, when given a [`TableCache`], goes through [`TableCache::load_or_build`]
//! with the abstract space and the abstraction's [`Recipe`]: the file is keyed by the content
//! fingerprint of the abstract space (its moves, goals and layout, never a name) and checked
//! against it when loaded, so a second run loads the table from disk and no other puzzle's table
//! is ever taken for it. [`build_all`] builds several databases for one heuristic against one memory budget:
//! it refuses, before allocating anything, when [`memory_needed`] (their smallest exact tables
//! and the largest build's working memory) does not fit, builds the largest first (its build is
//! the peak) and each one with the budget left by those already held. The builders check the
//! budget again before every allocation and widening.
//!
//! Trade-offs: an estimate is a projection (for tiles, one pass over the board and a rank) plus a
//! random access into a table that is often far larger than the caches, so a database lookup
//! costs tens of nanoseconds where Manhattan distance costs a few; it pays when it cuts the
//! search tree by more than that factor, which the larger databases do by orders of magnitude.
//! Estimates allocate nothing.

use super::table::{self, DistanceTable, Width};
use crate::cache::{Source, TableCache};
use crate::limit::{Limit, Limits};
use crate::search::table::cached::{self, Recipe};
use crate::space::{Describe, GoalSet, Heuristic, Indexed, Invertible, Prefetched, StateSpace};
use std::fmt;
use std::time::{Duration, Instant};

/// A projection of the states of `P` onto a smaller space whose distances are lower bounds.
///
/// Invariants an implementation keeps:
/// - `project(s)` is the [`index`](Indexed::index) in [`space`](Self::space) of the image of `s`;
/// - every goal of `P` projects onto a goal of the abstract space;
/// - every move `s -> t` of `P` either maps onto a move `project(s) -> project(t)` of the abstract
///   space or leaves the projection unchanged (a move that does not count);
/// - a move that changes the projection is a move of one of [`pieces`](Self::pieces).
///
/// Then the abstract distance of `project(s)` never exceeds the distance of `s`.
pub trait Abstraction<P: StateSpace + ?Sized>: Sync {
    /// The abstract space, whose distance table is built backward from its goals (and whose
    /// [`Describe`] keys the table in the cache).
    type Space: Indexed + Invertible + GoalSet + Describe + Sync;

    /// The abstract space.
    fn space(&self) -> &Self::Space;

    /// The abstract index of `state`; allocates nothing (it runs for every generated node).
    fn project(&self, space: &P, state: P::State) -> u64;

    /// The pieces whose moves the abstract distance counts, as a mask (bit `i`: piece `i`, in the
    /// puzzle's own numbering); `u64::MAX` when every move may count. [`Additive`] needs the masks
    /// of its databases disjoint.
    fn pieces(&self) -> u64;

    /// Builds the exact table: an entry for every index of [`space`](Self::space), a lower bound
    /// on the distance of every state projecting there. By default the unit-cost [`table`] engine
    /// backward from the abstract goals; an abstraction whose moves do not all cost 1 builds its
    /// own (the tiles' blank-aware groups, where moves of unwatched tiles cost 0).
    fn build_table(&self, limits: &Limits) -> Result<DistanceTable, Limit> {
        table::build_with(self.space(), limits, Width::Exact)
    }

    /// How [`build_table`](Self::build_table) makes the table from [`space`](Self::space), for
    /// the cache: by default [`Recipe::pattern_database`] (exact, unit cost). An abstraction
    /// that builds its own table returns [`Recipe::own_build`] with every parameter its build
    /// depends on beyond the space.
    fn recipe(&self) -> Recipe {
        Recipe::pattern_database()
    }

    /// The fewest bytes [`build_table`](Self::build_table) needs, for [`build_all`]'s check before
    /// anything is allocated: by default the table engine's smallest exact table, 4 bits per
    /// state in whole words.
    fn build_bytes(&self) -> u128 {
        self.space().size().div_ceil(16) * 8
    }
}

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

/// Why a pattern-database heuristic could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdbError {
    /// The abstractions asked for are not valid (a piece twice, overlapping groups, a piece
    /// that does not exist); the message says which.
    Invalid(String),
    /// A build stopped at a limit (memory refused before allocating, time, Ctrl-C).
    Limit(Limit),
}

impl fmt::Display for PdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdbError::Invalid(message) => write!(f, "pattern database: {message}"),
            PdbError::Limit(limit) => write!(f, "pattern database build: {limit}"),
        }
    }
}

impl std::error::Error for PdbError {}

impl From<Limit> for PdbError {
    fn from(limit: Limit) -> Self {
        PdbError::Limit(limit)
    }
}

/// An abstraction and the exact distance table of its space.
#[derive(Debug)]
pub struct PatternDatabase<A> {
    abstraction: A,
    table: DistanceTable,
    source: Source,
    /// Wall-clock time to build or load the table.
    took: Duration,
}

impl<A> PatternDatabase<A> {
    /// Builds (or, with a cache, loads) the exact table of `abstraction`'s space.
    ///
    /// - `limits`: the build's limits; `memory_budget` is checked before allocating and before
    ///   every widening of the table.
    /// - `cache`: when given, the table is loaded from it if a valid file is there, else built and
    ///   saved; a loaded table that does not fit the abstract space is not trusted (rebuilt).
    pub fn build<P: StateSpace + ?Sized>(
        abstraction: A,
        limits: &Limits,
        cache: Option<&TableCache>,
    ) -> Result<Self, Limit>
    where
        A: Abstraction<P>,
    {
        let started = Instant::now();
        let space = abstraction.space();
        let build = || abstraction.build_table(limits);
        let (table, source) = match cache {
            // The cache checks a loaded table against the space (size, exactness, distances).
            Some(cache) => {
                cached::load_or_build(cache, space, &abstraction.recipe(), limits, build)?
            }
            None => (build()?, Source::BuiltNotSaved),
        };
        Ok(PatternDatabase {
            abstraction,
            table,
            source,
            took: started.elapsed(),
        })
    }

    /// A database from a table built elsewhere; `None` unless the table is exact and covers
    /// exactly the abstract space's indices.
    pub fn from_table<P: StateSpace + ?Sized>(abstraction: A, table: DistanceTable) -> Option<Self>
    where
        A: Abstraction<P>,
    {
        Self::fits(abstraction.space(), &table).then_some(PatternDatabase {
            abstraction,
            table,
            source: Source::BuiltNotSaved,
            took: Duration::ZERO,
        })
    }

    fn fits<S: Indexed>(space: &S, table: &DistanceTable) -> bool {
        table.is_exact() && table.len() as u128 == space.size()
    }

    /// The abstract distance of `state`: a lower bound on its distance to the goal set.
    /// `u32::MAX` when the projection cannot reach an abstract goal (then neither can `state`).
    #[inline]
    pub fn value<P: StateSpace + ?Sized>(&self, space: &P, state: P::State) -> u32
    where
        A: Abstraction<P>,
    {
        self.entry(self.abstraction.project(space, state))
    }

    /// The abstract distance at `index` of the abstraction's space (see [`value`](Self::value)).
    #[inline]
    pub fn entry(&self, index: u64) -> u32 {
        self.table.code(index).map_or(u32::MAX, |code| code as u32)
    }

    /// The largest entry at `indices`, read in turn until one reaches `limit` (the rest are not
    /// read): a database looked up at several images of a state (rotations, the inverse).
    #[inline]
    pub fn largest_entry(&self, indices: &[u64], limit: u32) -> u32 {
        let mut best = 0;
        for &index in indices {
            best = best.max(self.entry(index));
            if best >= limit {
                break;
            }
        }
        best
    }

    /// The abstraction.
    pub fn abstraction(&self) -> &A {
        &self.abstraction
    }

    /// The distance table (its size, width, histogram and build statistics).
    pub fn table(&self) -> &DistanceTable {
        &self.table
    }

    /// Whether the table was loaded from the cache or built.
    pub fn source(&self) -> Source {
        self.source
    }

    /// Wall-clock time the table took to build or load.
    pub fn took(&self) -> Duration {
        self.took
    }
}

impl<P: StateSpace + ?Sized, A: Abstraction<P>> Heuristic<P> for PatternDatabase<A> {
    #[inline]
    fn estimate(&self, space: &P, state: P::State) -> u32 {
        self.value(space, state)
    }

    /// Projects `state` and prefetches its table entry; the index is word 0.
    #[inline]
    fn prefetch(&self, space: &P, state: P::State) -> Prefetched {
        let index = self.abstraction.project(space, state);
        self.table.prefetch(index);
        Prefetched([index, 0, 0, 0], 0)
    }

    /// The entry at the index [`prefetch`](Heuristic::prefetch) projected.
    #[inline]
    fn estimate_prefetched(&self, _: &P, _: P::State, prefetched: &Prefetched, _: u32) -> u32 {
        self.entry(prefetched.0[0])
    }

    fn intact(&self, cache: &TableCache) -> bool {
        self.intact_in(cache)
    }
}

impl<A> PatternDatabase<A> {
    /// [`Heuristic::intact`] of the database: `false`, its file discarded from `cache`, when
    /// the file it reads was cut short while in use.
    pub fn intact_in<P: StateSpace + ?Sized>(&self, cache: &TableCache) -> bool
    where
        A: Abstraction<P>,
    {
        if !self.table.cut_short() {
            return true;
        }
        let why = "its file was cut short by another program while in use";
        cached::discard(
            cache,
            self.abstraction.space(),
            &self.abstraction.recipe(),
            why,
        );
        false
    }
}

/// Builds the databases of `abstractions` against one memory budget; returned in their order.
///
/// Refuses with [`Limit::Memory`] before allocating anything when the largest build's
/// [`build_bytes`](Abstraction::build_bytes) and the smallest exact tables (4 bits per state) of
/// the others do not fit `limits.memory_budget` together. Then builds the largest first (its build
/// is the peak; the small ones' builds fit beside its table), each with the budget minus the bytes
/// of the tables already held, so the heuristic as a whole stays within it.
pub fn build_all<P: StateSpace + ?Sized, A: Abstraction<P>>(
    abstractions: Vec<A>,
    limits: &Limits,
    cache: Option<&TableCache>,
) -> Result<Vec<PatternDatabase<A>>, Limit> {
    // A table in the cache needs its bytes only, not its build's (a file that fails its
    // checks is rebuilt by a build that checks the budget again before it allocates).
    let cached_already = |a: &A| cache.is_some_and(|c| cached::holds(c, a.space(), &a.recipe()));
    let to_build: Vec<bool> = abstractions.iter().map(|a| !cached_already(a)).collect();
    limits.check_memory(memory_with_tables(&abstractions, 4, &to_build))?;
    if let Some(cache) = cache {
        // A build that takes long gets one line first, so a first run does not look hung.
        let to_build: Vec<&A> = abstractions
            .iter()
            .filter(|a| !cached::holds(cache, a.space(), &a.recipe()))
            .collect();
        let bytes: u128 = to_build.iter().map(|a| a.build_bytes()).sum();
        if bytes >= LONG_BUILD_BYTES {
            cache.note(&format!(
                "pattern databases: building {} of them once ({} to {} of working memory, as \
                 their distances need 4 or 8 bits); later runs load them from the table cache",
                to_build.len(),
                crate::limit::human_bytes(memory_needed(&abstractions)),
                crate::limit::human_bytes(memory_at_most(&abstractions))
            ));
        }
    }
    let mut order: Vec<usize> = (0..abstractions.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(abstractions[i].space().size()));
    let mut slots: Vec<Option<A>> = abstractions.into_iter().map(Some).collect();
    let mut built: Vec<Option<PatternDatabase<A>>> = slots.iter().map(|_| None).collect();
    let mut held = 0u64;
    for i in order {
        let mut left = limits.clone();
        left.memory_budget = limits.memory_budget.saturating_sub(held);
        let abstraction = slots[i].take().expect("each built once");
        let database = PatternDatabase::build(abstraction, &left, cache)?;
        held += database.table.bytes();
        built[i] = Some(database);
    }
    Ok(built.into_iter().map(|d| d.expect("all built")).collect())
}

/// Databases whose builds need this many bytes or more together take long enough (tens of
/// seconds and up) that [`build_all`] says so before it starts, through [`TableCache::note`].
pub const LONG_BUILD_BYTES: u128 = 32 << 20;

/// The bytes [`build_all`] needs for `abstractions`: the largest build's
/// [`build_bytes`](Abstraction::build_bytes) beyond its table, plus every table at 4 bits per
/// state (the smallest exact width, in whole words as the table engine allocates).
pub fn memory_needed<P: StateSpace + ?Sized, A: Abstraction<P>>(abstractions: &[A]) -> u128 {
    memory_with_tables(abstractions, 4, &vec![true; abstractions.len()])
}

/// The most bytes [`build_all`] can take for `abstractions`: [`memory_needed`] with every table
/// at 8 bits per state (the widest exact width: a distance past 15 needs it), which the budget
/// check cannot assume before the distances are known. What a user is told to expect.
pub fn memory_at_most<P: StateSpace + ?Sized, A: Abstraction<P>>(abstractions: &[A]) -> u128 {
    memory_with_tables(abstractions, 8, &vec![true; abstractions.len()])
}

/// The largest build beyond its table among those `built` says are built (the others are
/// loaded), plus every table at `bits` per state in whole words.
fn memory_with_tables<P: StateSpace + ?Sized, A: Abstraction<P>>(
    abstractions: &[A],
    bits: u128,
    built: &[bool],
) -> u128 {
    let table = |a: &A| (a.space().size() * bits).div_ceil(64) * 8;
    let tables: u128 = abstractions.iter().map(table).sum();
    let worst_build = abstractions
        .iter()
        .zip(built)
        .filter(|(_, built)| **built)
        .map(|(a, _)| a.build_bytes().saturating_sub(table(a)))
        .max()
        .unwrap_or(0);
    tables + worst_build
}

/// The largest estimate of several admissible heuristics: admissible, and at least as good as
/// each.
#[derive(Debug)]
pub struct Max<H> {
    parts: Vec<H>,
}

impl<H> Max<H> {
    /// The max of `parts` (the zero heuristic when empty).
    pub fn new(parts: Vec<H>) -> Self {
        Max { parts }
    }

    /// The heuristics combined, taken out (to wrap each, say).
    pub fn into_parts(self) -> Vec<H> {
        self.parts
    }

    /// The heuristics combined.
    pub fn parts(&self) -> &[H] {
        &self.parts
    }
}

impl<P: StateSpace + ?Sized, H: Heuristic<P>> Heuristic<P> for Max<H> {
    /// Every part asked (not only until one fails), so that each damaged file is discarded.
    fn intact(&self, cache: &TableCache) -> bool {
        let mut all = true;
        for h in &self.parts {
            all &= h.intact(cache);
        }
        all
    }

    #[inline]
    fn estimate(&self, space: &P, state: P::State) -> u32 {
        self.parts
            .iter()
            .map(|h| h.estimate(space, state))
            .max()
            .unwrap_or(0)
    }

    /// The parts in their order, stopping at the first that reaches `limit`: the parts after it
    /// are not evaluated (for pattern databases, neither projected nor looked up). Put the part
    /// that most often reaches the limit first.
    #[inline]
    fn estimate_below(&self, space: &P, state: P::State, limit: u32) -> u32 {
        let Some((first, rest)) = self.parts.split_first() else {
            return 0;
        };
        let first = first.estimate_below(space, state, limit);
        max_below(rest, space, state, first, limit)
    }

    /// The first part's entries only: with [`estimate_below`](Heuristic::estimate_below) it is
    /// the part always read, the others only when it does not reach the limit.
    #[inline]
    fn prefetch(&self, space: &P, state: P::State) -> Prefetched {
        match self.parts.first() {
            // At the first part, nothing read yet: this level 0, the first part's above.
            Some(first) => {
                let ahead = first.prefetch(space, state);
                Prefetched(ahead.0, ahead.1 << LEVEL_BITS)
            }
            None => Prefetched::NONE,
        }
    }

    /// The parts in stages: the current part's stages until it is done; then, while below
    /// `limit`, the next part's [`prefetch`](Heuristic::prefetch), and its stages from the next
    /// call on (so its reads, too, overlap with the other successors' work). Where it is (the
    /// part, and the largest estimate so far) is kept in 16 bits of [`Prefetched`]'s second
    /// field, those of a `Max` among the parts above them; an estimate too large to keep there,
    /// or a fourth `Max` nested, reads the remaining parts at once.
    #[inline]
    fn advance(
        &self,
        space: &P,
        state: P::State,
        prefetched: &mut Prefetched,
        limit: u32,
    ) -> Option<u32> {
        let mine = prefetched.1 & LEVEL_MASK;
        let (part, best) = ((mine & PART_MASK) as usize, (mine >> PART_BITS) as u32);
        let Some(current) = self.parts.get(part) else {
            return Some(best);
        };
        prefetched.1 >>= LEVEL_BITS;
        let done = current.advance(space, state, prefetched, limit);
        let nested = prefetched.1;
        let Some(h) = done else {
            if nested >> (64 - LEVEL_BITS) == 0 {
                prefetched.1 = nested << LEVEL_BITS | mine;
                return None;
            }
            // No room to keep this level: the current part's stages at once.
            let mut h = None;
            while h.is_none() {
                h = current.advance(space, state, prefetched, limit);
            }
            let best = best.max(h.unwrap_or(0));
            return Some(max_below(
                &self.parts[part + 1..],
                space,
                state,
                best,
                limit,
            ));
        };
        let best = best.max(h);
        let next = part + 1;
        if best >= limit || next == self.parts.len() {
            return Some(best);
        }
        if u64::from(best) >= 1 << (LEVEL_BITS - PART_BITS) || next as u64 > PART_MASK {
            return Some(max_below(&self.parts[next..], space, state, best, limit));
        }
        let ahead = self.parts[next].prefetch(space, state);
        let keep = u64::from(best) << PART_BITS | next as u64;
        *prefetched = Prefetched(ahead.0, ahead.1 << LEVEL_BITS | keep);
        None
    }

    /// [`estimate_below`](Heuristic::estimate_below), the first part reading what it prefetched.
    #[inline]
    fn estimate_prefetched(
        &self,
        space: &P,
        state: P::State,
        prefetched: &Prefetched,
        limit: u32,
    ) -> u32 {
        let Some((first, rest)) = self.parts.split_first() else {
            return 0;
        };
        let first = first.estimate_prefetched(space, state, prefetched, limit);
        max_below(rest, space, state, first, limit)
    }
}

/// The bits of [`Prefetched`]'s second field one [`Max`] keeps its progress in: the part
/// (the low [`PART_BITS`]) and the largest estimate so far (above them).
const LEVEL_BITS: u32 = 16;
const LEVEL_MASK: u64 = (1 << LEVEL_BITS) - 1;
const PART_BITS: u32 = 4;
const PART_MASK: u64 = (1 << PART_BITS) - 1;

/// `best` maxed with the estimates of `parts` in order, stopping once it reaches `limit`.
#[inline]
fn max_below<P: StateSpace + ?Sized, H: Heuristic<P>>(
    parts: &[H],
    space: &P,
    state: P::State,
    mut best: u32,
    limit: u32,
) -> u32 {
    for h in parts {
        if best >= limit {
            break;
        }
        best = best.max(h.estimate_below(space, state, limit));
    }
    best
}

/// A boxed heuristic is one, so that [`Max`] can combine heuristics of different types and a
/// caller can pick one at run time.
impl<P: StateSpace + ?Sized, H: Heuristic<P> + ?Sized> Heuristic<P> for Box<H> {
    fn intact(&self, cache: &TableCache) -> bool {
        (**self).intact(cache)
    }

    #[inline]
    fn estimate(&self, space: &P, state: P::State) -> u32 {
        (**self).estimate(space, state)
    }

    #[inline]
    fn estimate_below(&self, space: &P, state: P::State, limit: u32) -> u32 {
        (**self).estimate_below(space, state, limit)
    }

    #[inline]
    fn prefetch(&self, space: &P, state: P::State) -> Prefetched {
        (**self).prefetch(space, state)
    }

    #[inline]
    fn advance(
        &self,
        space: &P,
        state: P::State,
        prefetched: &mut Prefetched,
        limit: u32,
    ) -> Option<u32> {
        (**self).advance(space, state, prefetched, limit)
    }

    #[inline]
    fn estimate_prefetched(
        &self,
        space: &P,
        state: P::State,
        prefetched: &Prefetched,
        limit: u32,
    ) -> u32 {
        (**self).estimate_prefetched(space, state, prefetched, limit)
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
            let pieces = database.abstraction.pieces();
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
    use crate::toys::Ring;

    /// Two counters on a ring of 6 each, a move steps one of them; the goal is both at 0. State
    /// `(a, b)`; counter `i` is piece `i`.
    struct Pair;
    impl StateSpace for Pair {
        type State = (u8, u8);
        type Move = i8; // +-1 for counter 0, +-2 for counter 1
        fn successors(&self, (a, b): (u8, u8), visit: &mut dyn FnMut(i8, (u8, u8))) {
            visit(1, ((a + 1) % 6, b));
            visit(-1, ((a + 5) % 6, b));
            visit(2, (a, (b + 1) % 6));
            visit(-2, (a, (b + 5) % 6));
        }
        fn is_goal(&self, s: (u8, u8)) -> bool {
            s == (0, 0)
        }
    }

    /// One counter of [`Pair`] alone: the toy ring of 6 states.
    const SIX: Ring = Ring::new(6);

    /// Counter `0` or `1` of the pair.
    #[derive(Debug)]
    struct Counter(u8, Ring);
    impl Abstraction<Pair> for Counter {
        type Space = Ring;
        fn space(&self) -> &Ring {
            &self.1
        }
        fn project(&self, _: &Pair, (a, b): (u8, u8)) -> u64 {
            if self.0 == 0 { a as u64 } else { b as u64 }
        }
        fn pieces(&self) -> u64 {
            1 << self.0
        }
    }

    /// A counter whose build claims to need [`LONG_BUILD_BYTES`], as a large database's would.
    struct Heavy(Counter);
    impl Abstraction<Pair> for Heavy {
        type Space = Ring;
        fn space(&self) -> &Ring {
            self.0.space()
        }
        fn project(&self, pair: &Pair, state: (u8, u8)) -> u64 {
            self.0.project(pair, state)
        }
        fn pieces(&self) -> u64 {
            self.0.pieces()
        }
        fn build_bytes(&self) -> u128 {
            LONG_BUILD_BYTES
        }
    }

    /// Swaps the counters: a symmetry of the pair (both rings alike, the goal fixed).
    struct Swap;
    impl Symmetry<Pair> for Swap {
        fn apply(&self, _: &Pair, (a, b): (u8, u8)) -> (u8, u8) {
            (b, a)
        }
    }

    fn ring_distance(s: u8) -> u32 {
        s.min(6 - s) as u32
    }

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

    /// `estimate_below` is the estimate below the limit and a lower bound from the limit on.
    #[test]
    fn bounded_estimates_are_exact_below_the_limit() {
        let dbs = || {
            build_all(
                vec![Counter(0, SIX), Counter(1, SIX)],
                &Limits::default(),
                None,
            )
            .unwrap()
        };
        let max = Max::new(dbs());
        let additive = Additive::new(dbs(), vec![Swap]).unwrap();
        for a in 0..6 {
            for b in 0..6 {
                for limit in 0..8 {
                    for h in [&max as &dyn Heuristic<Pair>, &additive] {
                        let exact = h.estimate(&Pair, (a, b));
                        let bounded = h.estimate_below(&Pair, (a, b), limit);
                        if exact < limit {
                            assert_eq!(bounded, exact);
                        } else {
                            assert!((limit..=exact).contains(&bounded));
                        }
                        // From what prefetch computed: the same value.
                        let ahead = h.prefetch(&Pair, (a, b));
                        assert_eq!(h.estimate_prefetched(&Pair, (a, b), &ahead, limit), bounded);
                        // In stages (the max: a part a stage, each prefetched first).
                        let mut staged = ahead;
                        let mut stages = 0;
                        let by_stages = loop {
                            stages += 1;
                            if let Some(h) = h.advance(&Pair, (a, b), &mut staged, limit) {
                                break h;
                            }
                        };
                        assert_eq!(by_stages, bounded, "{a} {b} {limit}");
                        assert!(stages <= 2);
                    }
                }
            }
        }
        // Prefetching is only a hint: any state, and any index of a table, in range or not.
        for a in 0..6 {
            max.prefetch(&Pair, (a, 5 - a));
            max.parts()[1].table().prefetch(a as u64);
        }
        max.parts()[0].table().prefetch(u64::MAX);
        // Counter 0 at 3 reaches a limit of 2: counter 1's estimate is not needed.
        assert_eq!(max.estimate_below(&Pair, (3, 1), 2), 3);
        assert_eq!(max.estimate_below(&Pair, (3, 1), 9), 3);
        assert_eq!(max.estimate_below(&Pair, (1, 3), 2), 3);
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

    #[test]
    fn memory_is_refused_before_building() {
        let limits = Limits {
            memory_budget: 8,
            ..Limits::default()
        };
        // Two tables of one word each: 16 bytes over a budget of 8.
        let err = build_all(vec![Counter(0, SIX), Counter(1, SIX)], &limits, None).unwrap_err();
        assert_eq!(
            err,
            Limit::Memory {
                needed: 16,
                budget: 8
            }
        );
    }

    #[test]
    fn a_cache_builds_once_then_loads() {
        let dir = tempfile::tempdir().unwrap();
        let cache = TableCache::new(Some(dir.path().into()), true, |w| panic!("{w}"));
        let first = PatternDatabase::build(Counter(1, SIX), &Limits::default(), Some(&cache));
        let first = first.unwrap();
        assert_eq!(first.source(), Source::Built);
        let again = PatternDatabase::build(Counter(1, SIX), &Limits::default(), Some(&cache));
        let again = again.unwrap();
        assert_eq!(again.source(), Source::Loaded);
        for s in 0..6 {
            assert_eq!(again.value(&Pair, (0, s)), ring_distance(s));
        }
    }

    #[test]
    fn a_long_build_is_noted_once_before_it_starts_and_not_when_cached() {
        use std::sync::{Arc, Mutex};
        let dir = tempfile::tempdir().unwrap();
        let notes = Arc::new(Mutex::new(Vec::new()));
        let seen = notes.clone();
        let cache = TableCache::new(Some(dir.path().into()), true, move |w| {
            seen.lock().unwrap().push(w.to_string())
        });
        let heavy = || vec![Heavy(Counter(0, SIX)), Heavy(Counter(1, SIX))];
        build_all(heavy(), &Limits::default(), Some(&cache)).unwrap();
        let first: Vec<String> = notes.lock().unwrap().drain(..).collect();
        assert_eq!(first.len(), 1, "{first:?}");
        assert!(first[0].starts_with("pattern databases: building 2 of them once"));
        build_all(heavy(), &Limits::default(), Some(&cache)).unwrap();
        assert!(notes.lock().unwrap().is_empty(), "loaded: no note");
        // Small builds say nothing.
        build_all(vec![Counter(0, SIX)], &Limits::default(), Some(&cache)).unwrap();
        assert!(notes.lock().unwrap().is_empty());
    }
}
