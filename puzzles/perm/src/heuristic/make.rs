//! The heuristic a permutation puzzle's search gets: [`heuristic`], the [`Max`] of its pattern
//! databases, the most informed first; [`HeuristicKind`], databases or a pruning table; and
//! [`Lookups`], where each database is looked up besides the state.
//!
//! Trade-offs: the databases are strong far from the goal but built whole before the first node;
//! a pruning table starts at once and deepens as the search pays for it, so `auto` takes the
//! databases only when they are cached or cheap ([`HeuristicKind`]). The order of the
//! databases changes no estimate, only the cost per node: the first is the one [`Max`]
//! prefetches and the one that cuts most nodes alone ([`heuristic`]).

use super::conjugated::Conjugated;
use super::pattern::Pattern;
use crate::space::PermSpace;
use statespace::cache::TableCache;
use statespace::kit::SharedHeuristic;
use statespace::limit::{Limit, Limits};
use statespace::search::pdb::{self, Abstraction, Max, PatternDatabase};
use statespace::search::pruning::{Growth, PruningTable};
use statespace::search::table::{DistanceTable, cached};
use statespace::space::Heuristic;
use std::sync::Arc;

/// The heuristic of a permutation puzzle: the largest of its patterns' distances.
pub type PermPdb = Max<PatternDatabase<Pattern>>;

/// Pattern databases this small (each) are built even on a cold start: a tenth of a second or
/// less (the 2x2x2's whole puzzle, 3,674,160 states, block by block). When every database of a
/// puzzle is this small, `auto` builds them and no pruning table.
pub const CHEAP_PATTERN_STATES: u64 = 1 << 22;

/// `[heuristic] kind`: which heuristic IDA* and A* search with.
///
/// Pattern databases are strong far from the goal but built whole before the first node
/// (minutes on a megaminx); a [`PruningTable`] is exact near the goal, starts at once and
/// deepens as the search pays for it. `Auto` takes the databases when the table cache holds
/// them all (a warm start: as fast as `Pdb`) or when all are cheap to build
/// ([`CHEAP_PATTERN_STATES`]), else the pruning table with the cheap ones, so a short scramble
/// is solved at once on a cold start. `Pdb` builds and caches the databases, after which `Auto` takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicKind {
    /// The databases when cached, else the pruning table and the cheap databases.
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
            HeuristicKind::Auto if warm => (false, patterns),
            HeuristicKind::Pruning => (true, Vec::new()),
            HeuristicKind::Auto if patterns.iter().all(|p| p.size <= CHEAP_PATTERN_STATES) => {
                (false, patterns)
            }
            HeuristicKind::Auto => {
                let cheap = |p: &Pattern| p.size <= CHEAP_PATTERN_STATES;
                (true, patterns.into_iter().filter(cheap).collect())
            }
        };
        if !pruning {
            return Ok(Arc::from(databases::<N>(
                space, patterns, lookups, limits, cache,
            )?));
        }
        let growth = Growth::within(limits);
        let table = match lookups.symmetric {
            true => PruningTable::symmetric(space, limits, growth)?,
            false => PruningTable::new(space, limits, growth)?,
        };
        let mut rest = limits.clone();
        rest.memory_budget = limits.memory_budget.saturating_sub(table.bytes());
        let mut parts: Vec<Box<dyn statespace::space::Heuristic<PermSpace<N>> + Send>> =
            vec![Box::new(table)];
        if !patterns.is_empty() {
            parts.push(databases::<N>(space, patterns, lookups, &rest, cache)?);
        }
        Ok(Arc::new(Max::new(parts)))
    }
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
) -> Result<Box<dyn Heuristic<PermSpace<N>> + Send + Sync>, Limit> {
    let plain = heuristic::<N>(patterns, limits, Some(cache))?;
    if !lookups.symmetric && !lookups.dual {
        return Ok(Box::new(plain));
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
    Ok(Box::new(Max::new(conjugated)))
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
