//! The heuristic a permutation puzzle's search gets: [`heuristic`], the [`Max`] of its pattern
//! databases, the most informed first; [`HeuristicKind`], databases or a pruning table; and
//! [`Lookups`], where each database is looked up besides the state.
//!
//! Trade-offs: the databases are strong far from the goal but built whole before the first node;
//! a pruning table starts at once and deepens as the search pays for it, so `auto` takes the
//! databases at once only when they are cached, and otherwise starts with the pruning table and
//! builds the cheap ones once the search has paid for them ([`Deferred`]; [`HeuristicKind`]). The order of the
//! databases changes no estimate, only the cost per node: the first is the one [`Max`]
//! prefetches and the one that cuts most nodes alone ([`heuristic`]).

use super::conjugated::Conjugated;
use super::pattern::Pattern;
use crate::space::PermSpace;
use statespace::cache::TableCache;
use statespace::kit::SharedHeuristic;
use statespace::limit::{Limit, Limits};
use statespace::search::pdb::{self, Abstraction, Deferred, Max, PatternDatabase};
use statespace::search::pruning::{Growth, PruningTable};
use statespace::search::table::{DistanceTable, cached};
use statespace::space::Heuristic;
use std::sync::Arc;
use std::time::Instant;

/// The heuristic of a permutation puzzle: the largest of its patterns' distances.
pub type PermPdb = Max<PatternDatabase<Pattern>>;

/// Pattern databases this small (each) are built on a cold start, once the search has paid for
/// them ([`Deferred`]): a tenth of a second or less each (the 2x2x2's whole puzzle, 3,674,160
/// states, block by block), but 0.1 to 0.5 s together on small puzzles whose 1-move scramble
/// needs a millisecond (twsearch's helicopter, curvy copter, master skewb).
pub const CHEAP_PATTERN_STATES: u64 = 1 << 22;

/// `[heuristic] kind`: which heuristic IDA* and A* search with.
///
/// Pattern databases are strong far from the goal but built whole before the first node
/// (minutes on a megaminx); a [`PruningTable`] is exact near the goal, starts at once and
/// deepens as the search pays for it. `Auto` takes the databases when the table cache holds
/// them all (a warm start: as fast as `Pdb`), the pruning table joining them when they tell too
/// little to search with alone ([`MIN_INFORMED_MEAN`]); else (a cold start) the pruning table
/// at once and the cheap databases ([`CHEAP_PATTERN_STATES`]) once the search's estimates reach
/// their build's work ([`Deferred`]), so a short scramble is solved in milliseconds and a long
/// one within about twice what a build first would take. IDA* never runs unguided. `Pdb`
/// builds and caches the databases, after which `Auto` takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicKind {
    /// The databases when cached, else the pruning table, the cheap databases deferred.
    Auto,
    /// The max of the pattern databases, built once and cached.
    Pdb,
    /// The pruning table alone.
    Pruning,
}

impl HeuristicKind {
    /// The heuristic of a `[heuristic] kind` the registry accepted (`auto`, `pdb`,
    /// `pruning`); any other is `Auto`.
    pub fn from_kind(kind: &str) -> HeuristicKind {
        match kind {
            "pdb" => HeuristicKind::Pdb,
            "pruning" => HeuristicKind::Pruning,
            _ => HeuristicKind::Auto,
        }
    }

    /// Makes the heuristic for `space` from `patterns` within `limits`: the databases built or
    /// loaded through `cache`, the pruning table filled within a share of the memory budget,
    /// one cell per orbit of the space's symmetries when `symmetric`
    /// ([`PruningTable::symmetric`]); the databases looked up as `lookups` says.
    pub fn make<const N: usize>(
        self,
        space: &PermSpace<N>,
        patterns: Vec<Pattern>,
        lookups: Lookups,
        limits: &Limits,
        cache: &TableCache,
    ) -> Result<SharedHeuristic<PermSpace<N>>, Limit> {
        let warm = patterns.iter().all(|p| {
            let space = Abstraction::<PermSpace<N>>::space(p);
            cached::holds(cache, space, &Abstraction::<PermSpace<N>>::recipe(p))
        });
        let (pruning, patterns) = match self {
            HeuristicKind::Pdb => (false, patterns),
            HeuristicKind::Pruning => (true, Vec::new()),
            HeuristicKind::Auto if warm => {
                // Loaded at once: then weighed against the pruning table.
                let built = heuristic::<N>(patterns, limits, Some(cache))?;
                if informs(&built) {
                    return Ok(with_lookups(space, built, lookups));
                }
                let table = pruning_table(space, lookups, limits)?;
                let parts: Vec<Box<dyn Heuristic<PermSpace<N>> + Send>> = vec![
                    Box::new(table),
                    Box::new(with_lookups(space, built, lookups)),
                ];
                return Ok(Arc::new(Max::new(parts)));
            }
            HeuristicKind::Auto => {
                let cheap = |p: &Pattern| p.size <= CHEAP_PATTERN_STATES;
                (true, patterns.into_iter().filter(cheap).collect())
            }
        };
        if !pruning {
            return databases::<N>(space, patterns, lookups, limits, cache);
        }
        let table = pruning_table(space, lookups, limits)?;
        if patterns.is_empty() {
            return Ok(Arc::new(table));
        }
        let mut rest = limits.clone();
        rest.memory_budget = limits.memory_budget.saturating_sub(table.reserved());
        let parts: Vec<Box<dyn Heuristic<PermSpace<N>> + Send>> = vec![
            Box::new(table),
            Box::new(deferred(space, patterns, lookups, rest, cache)?),
        ];
        Ok(Arc::new(Max::new(parts)))
    }
}

/// The databases of `patterns`, built once the search has paid for them ([`Deferred`]: when its
/// estimates reach the successors their build generates), within `limits` (refused now with
/// [`Limit::Memory`] when they could not fit it, as a build at once would be), into `cache`.
fn deferred<const N: usize>(
    space: &PermSpace<N>,
    patterns: Vec<Pattern>,
    lookups: Lookups,
    mut limits: Limits,
    cache: &TableCache,
) -> Result<Deferred<SharedHeuristic<PermSpace<N>>>, Limit> {
    limits.check_memory(pdb::memory_needed::<PermSpace<N>, _>(&patterns))?;
    // The build's time limit counts from now, as the search's does.
    limits.clock_start.get_or_insert_with(Instant::now);
    let moves = space.moves().len() as u64;
    let work = patterns
        .iter()
        .map(|p| p.size.saturating_mul(moves))
        .fold(0u64, u64::saturating_add);
    let (space, cache) = (space.clone(), cache.clone());
    Ok(Deferred::new(
        work,
        Box::new(move || databases::<N>(&space, patterns, lookups, &limits, &cache)),
    ))
}

/// A pruning table of `space`, filled at once as far as it is cheap, one cell per orbit when
/// `lookups` says so.
fn pruning_table<const N: usize>(
    space: &PermSpace<N>,
    lookups: Lookups,
    limits: &Limits,
) -> Result<PruningTable<PermSpace<N>>, Limit> {
    let growth = Growth::within(limits);
    match lookups.symmetric {
        true => PruningTable::symmetric(space, limits, growth),
        false => PruningTable::new(space, limits, growth),
    }
}

/// The least mean distance of a pattern database that `auto` searches with alone: where the
/// most informed of a puzzle's databases stays below it (a mean of 0 where the pieces allow no
/// pattern), the pruning table joins them, so IDA* never runs unguided.
pub const MIN_INFORMED_MEAN: f64 = 2.0;

/// Whether `databases` tell enough to search with alone: their most informed one's mean
/// distance reaches [`MIN_INFORMED_MEAN`]. Where none does (twsearch's big_chop, octastar, lo55,
/// icosahedron_3: no pattern the choice allows, a mean of 0, so 0 at the start of any
/// scramble), the pruning table joins them: its first fill, milliseconds, is exact to 2 moves
/// or more on every sample measured (2 on icosahedron_3, 6 on the Skewb), where the databases
/// alone would leave IDA* unguided (big_chop's 8-move scramble: over 30 s, 0.23 s with the
/// table). Where they do reach it, the table is not made: its fill (up to 60 ms on the Skewb)
/// would slow the start of searches the databases already guide.
fn informs(databases: &PermPdb) -> bool {
    let best = databases
        .parts()
        .iter()
        .map(|db| mean_distance(db.table()))
        .fold(0.0, f64::max);
    best >= MIN_INFORMED_MEAN
}

/// The most look-ups through symmetries a [`Conjugated`] database makes besides the state's
/// own, with `[heuristic] symmetry = true`.
pub const CONJUGATE_LOOKUPS: usize = 2;

/// Where each pattern database is looked up besides the state itself (`[heuristic]` keys).
#[derive(Clone, Copy, Debug, Default)]
pub struct Lookups {
    /// Through the space's symmetries (`symmetry`; [`Conjugated`], at most
    /// [`CONJUGATE_LOOKUPS`] more; the pruning table keeps one cell per orbit).
    pub symmetric: bool,
    /// At the state's inverse too (`dual`; [`inversion`](crate::inversion)).
    pub dual: bool,
}

/// The pattern databases of `patterns` as one heuristic: [`heuristic`], each database looked
/// up as `lookups` says ([`Conjugated`]).
fn databases<const N: usize>(
    space: &PermSpace<N>,
    patterns: Vec<Pattern>,
    lookups: Lookups,
    limits: &Limits,
    cache: &TableCache,
) -> Result<SharedHeuristic<PermSpace<N>>, Limit> {
    let plain = heuristic::<N>(patterns, limits, Some(cache))?;
    Ok(with_lookups(space, plain, lookups))
}

/// `plain` looked up as `lookups` says ([`Conjugated`]).
fn with_lookups<const N: usize>(
    space: &PermSpace<N>,
    plain: PermPdb,
    lookups: Lookups,
) -> SharedHeuristic<PermSpace<N>> {
    if !lookups.symmetric && !lookups.dual {
        return Arc::new(plain);
    }
    let extra = if lookups.symmetric {
        CONJUGATE_LOOKUPS
    } else {
        0
    };
    let conjugated = plain
        .into_parts()
        .into_iter()
        .map(|database| Conjugated::new(space, database, extra, lookups.dual))
        .collect();
    Arc::new(Max::new(conjugated))
}

/// The heuristic of a space: the [`Max`] of the pattern databases of `patterns`, built (or
/// loaded from `cache`) within `limits`; refused with [`Limit::Memory`] before anything is
/// allocated when their tables cannot fit the budget together.
///
/// The database of the highest mean distance comes first: it is the most informed, so it cuts
/// the most nodes alone, and it is the one [`Max`] prefetches (a look-up in a table far larger
/// than the caches waits on memory unless prefetched). The estimates do not depend on the order.
pub fn heuristic<const N: usize>(
    patterns: Vec<Pattern>,
    limits: &Limits,
    cache: Option<&TableCache>,
) -> Result<PermPdb, Limit> {
    let mut databases = pdb::build_all::<PermSpace<N>, _>(patterns, limits, cache)?;
    let mean = |db: &PatternDatabase<Pattern>| mean_distance(db.table());
    databases.sort_by(|a, b| mean(b).total_cmp(&mean(a)));
    Ok(Max::new(databases))
}

/// The mean distance over a table's reachable entries: how informed a database is on average
/// (the 3x3x3's corners 8.76, a group of eight edges 9.24).
fn mean_distance(table: &DistanceTable) -> f64 {
    let histogram = table.histogram();
    let total: u64 = histogram.iter().sum();
    let sum: f64 = histogram
        .iter()
        .enumerate()
        .map(|(d, &n)| d as f64 * n as f64)
        .sum();
    sum / total.max(1) as f64
}
