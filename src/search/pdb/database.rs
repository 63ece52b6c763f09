//! One pattern database ([`PatternDatabase`]): an abstraction and the exact distance table of
//! its space, built or loaded from the table cache; and several built against one memory
//! budget ([`build_all`]).
//!
//! # Building, caching, memory
//!
//! [`PatternDatabase::build`] builds an exact table (one lookup per estimate, never the mod-3 walk)
//! by [`Abstraction::build_table`] (the unit-cost table engine unless the abstraction has a search
//! of its own) and, when given a [`TableCache`], goes through [`TableCache::load_or_build`] with
//! the abstract space and the abstraction's [`Recipe`](crate::search::table::cached::Recipe): the
//! file is keyed by the content fingerprint of the abstract space (its moves, goals and layout,
//! never a name) and checked against it when loaded, so a second run loads the table from disk and
//! no other puzzle's table is ever taken for it. [`build_all`] builds several databases for one
//! heuristic against one memory budget: it refuses, before allocating anything, when
//! [`memory_needed`] (their smallest exact tables and the largest build's working memory) does not
//! fit, builds the largest first (its build is the peak) and each one with the budget left by those
//! already held. The builders check the budget again before every allocation and widening.

use super::Abstraction;
use crate::cache::{Source, TableCache};
use crate::limit::{Limit, Limits};
use crate::search::table::DistanceTable;
use crate::search::table::cached;
use crate::search::table::compact::{self, CompactBounds};
use crate::space::{Heuristic, Indexed, Prefetched, StateSpace};
use std::time::{Duration, Instant};

/// What a pattern database reads its estimates from: the exact distance table, or its
/// [`CompactBounds`] (2 bits an entry, lower bounds).
pub trait Entries: Send + Sync {
    /// A lower bound on the distance of the abstract state at `index`; `u32::MAX` when it cannot
    /// reach a goal.
    fn entry(&self, index: u64) -> u32;

    /// Starts loading the entry at `index` into the caches.
    fn prefetch(&self, index: u64);

    /// The bytes held.
    fn bytes(&self) -> u64;

    /// Whether the file read in place was cut short while in use.
    fn cut_short(&self) -> bool;

    /// Removes the cache file these entries are read from (see [`TableCache::discard`]).
    fn discard<S>(cache: &TableCache, space: &S, recipe: &cached::Recipe, why: &str)
    where
        S: crate::space::Describe + crate::space::GoalSet + Indexed + ?Sized;
}

impl Entries for DistanceTable {
    #[inline]
    fn entry(&self, index: u64) -> u32 {
        self.code(index).map_or(u32::MAX, |code| code as u32)
    }

    #[inline]
    fn prefetch(&self, index: u64) {
        DistanceTable::prefetch(self, index)
    }

    fn bytes(&self) -> u64 {
        DistanceTable::bytes(self)
    }

    fn cut_short(&self) -> bool {
        DistanceTable::cut_short(self)
    }

    fn discard<S>(cache: &TableCache, space: &S, recipe: &cached::Recipe, why: &str)
    where
        S: crate::space::Describe + crate::space::GoalSet + Indexed + ?Sized,
    {
        cached::discard(cache, space, recipe, why)
    }
}

impl Entries for CompactBounds {
    #[inline]
    fn entry(&self, index: u64) -> u32 {
        self.bound(index)
    }

    #[inline]
    fn prefetch(&self, index: u64) {
        CompactBounds::prefetch(self, index)
    }

    fn bytes(&self) -> u64 {
        CompactBounds::bytes(self)
    }

    fn cut_short(&self) -> bool {
        CompactBounds::cut_short(self)
    }

    fn discard<S>(cache: &TableCache, space: &S, recipe: &cached::Recipe, why: &str)
    where
        S: crate::space::Describe + crate::space::GoalSet + Indexed + ?Sized,
    {
        cache.discard(&compact::entry(space, recipe), why)
    }
}

/// An abstraction and the distance table of its space: exact ([`DistanceTable`], the default)
/// or compact ([`CompactBounds`], [`PatternDatabase::build_compact`]).
#[derive(Debug)]
pub struct PatternDatabase<A, T = DistanceTable> {
    abstraction: A,
    table: T,
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
}

impl<A> PatternDatabase<A, CompactBounds> {
    /// Builds (or, with a cache, loads) the [`CompactBounds`] of `abstraction`'s space: the
    /// exact table is built (or loaded, when the cache holds it already) and converted, then
    /// dropped; only the compact table is saved. The build's memory is both tables'
    /// ([`compact_build_bytes`]), checked before anything is allocated.
    pub fn build_compact<P: StateSpace + ?Sized>(
        abstraction: A,
        limits: &Limits,
        cache: Option<&TableCache>,
    ) -> Result<Self, Limit>
    where
        A: Abstraction<P>,
    {
        let started = Instant::now();
        let space = abstraction.space();
        let recipe = abstraction.recipe();
        let exact = |limits: &Limits| -> Result<DistanceTable, Limit> {
            let build = || abstraction.build_table(limits);
            match cache {
                Some(cache) if cached::holds(cache, space, &recipe) => {
                    Ok(cached::load_or_build(cache, space, &recipe, limits, build)?.0)
                }
                _ => build(),
            }
        };
        let convert = || -> Result<CompactBounds, Limit> {
            let bytes = CompactBounds::bytes_for(space.size());
            limits.check_memory(bytes + abstraction.build_bytes())?;
            let mut rest = limits.clone();
            rest.memory_budget = limits.memory_budget.saturating_sub(bytes as u64);
            CompactBounds::from_table(&exact(&rest)?, limits)
        };
        let (table, source) = match cache {
            Some(cache) => compact::load_or_build_bounds(cache, space, &recipe, limits, convert)?,
            None => (convert()?, Source::BuiltNotSaved),
        };
        Ok(PatternDatabase {
            abstraction,
            table,
            source,
            took: started.elapsed(),
        })
    }
}

/// The bytes [`PatternDatabase::build_compact`] needs at its peak: the exact table's build and
/// the compact table.
pub fn compact_build_bytes<P: StateSpace + ?Sized, A: Abstraction<P>>(abstraction: &A) -> u128 {
    CompactBounds::bytes_for(abstraction.space().size()) + abstraction.build_bytes()
}

impl<A, T: Entries> PatternDatabase<A, T> {
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
        self.table.entry(index)
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
    pub fn table(&self) -> &T {
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

impl<P: StateSpace + ?Sized, A: Abstraction<P>, T: Entries> Heuristic<P> for PatternDatabase<A, T> {
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

impl<A, T: Entries> PatternDatabase<A, T> {
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
        T::discard(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pdb::pair::{Counter, Heavy, Pair, SIX, ring_distance};

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
