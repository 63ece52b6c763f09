//! A distance table in the [`TableCache`]: what names it (its [`fingerprint`], from the space
//! and the [`Recipe`]), what checks it against the space once loaded
//! ([`verify`](fn@super::verify)), and the one [`load_or_build`] every cached table goes through: the `table` engine's, every
//! pattern database, Shift's colour-mask tables and the HDU judge's. The cache's trust rules are
//! written once, in [`cache`](crate::cache).
//!
//! A table read from disk answers for a space only if it was built from a space with the same
//! graph: the same index layout, the same moves (as transforms of states, whatever their names),
//! the same goals, by the same kind of build. A [`Fingerprint`] is a SHA-256 of exactly that, and
//! of nothing else: no puzzle name, no definition path, no move label. Two configs that describe
//! one puzzle share one file; a definition edited in place gets a new fingerprint, so the old file
//! is never read for it.
//!
//! # What goes in
//!
//! [`fingerprint`] hashes, each field typed and length-prefixed ([`Content`]) so that no two
//! different field sequences hash the same bytes:
//!
//! 1. [`SCHEME`], the version of this list, and the distance table's serialized format version;
//! 2. the [`Recipe`]: entry coding required (exact or any), unit-cost moves or the build's own
//!    costs, and the build's parameters (an abstraction's own search);
//! 3. the space's size (`Indexed::size`);
//! 4. the space's own description ([`Describe`]): what its moves do and how it is indexed, as the
//!    plugin knows it exactly (a permutation puzzle's move tables, a board's dimensions);
//! 5. every goal state's index, in the order [`GoalSet::goals`] lists them;
//! 6. a probe of the moves as the engines see them: random walks of [`PROBE_STEPS`] steps from
//!    the first goals (a fixed seed, so the same space always gives the same walks), hashing at
//!    each state its index and the index of every successor in order.
//!
//! Items 3, 5 and 6 are measured from the space through the capabilities the table engine uses,
//! so they hold whatever the plugin's description says; item 4 makes the fingerprint exact where
//! the probe could miss a difference (moves that differ only on states the walks never meet).
//!
//! Cost: the goals and about [`PROBE_STEPS`] successor generations, once per table per run
//! (microseconds for a single goal; a space with a million goals pays for listing them).
//!
//! What a fingerprint does not cover is checked when a table is loaded
//! ([`verify`](mod@super::verify)): that the entries agree with the space's moves.

use super::DistanceTable;
pub use super::recipe::Recipe;
use super::verify::verify;
use crate::cache::fingerprint::{Content, Fingerprint};
use crate::cache::{Entry, Source, TableCache};
use crate::limit::{Limit, Limits};
use crate::random::Lcg;
use crate::space::{Describe, GoalSet, Indexed, Invertible};
use std::path::PathBuf;

/// The version of what [`fingerprint`] hashes: bump it when the list changes, so that no file
/// keyed by the old list is read.
pub const SCHEME: u64 = 1;

/// The steps of the probe walks ([`fingerprint`], item 6), over all walks.
pub const PROBE_STEPS: usize = 256;

/// How many goals the probe walks start from (the first ones listed), at most.
const PROBE_WALKS: usize = 8;

/// The fingerprint of the table `recipe` makes from `space`; see the module docs for what it
/// covers.
pub fn fingerprint<S: Indexed + GoalSet + Describe + ?Sized>(
    space: &S,
    recipe: &Recipe,
) -> Fingerprint {
    let mut content = Content::new("statespace table");
    content.u64(SCHEME).u64(u64::from(super::FORMAT_VERSION));
    content
        .str("recipe")
        .u64(recipe.exact as u64)
        .u64(recipe.unit_cost as u64)
        .bytes(&recipe.params);
    let size = space.size();
    content
        .str("size")
        .u64(size as u64)
        .u64((size >> 64) as u64);
    content.str("space");
    space.describe(&mut content);
    content.str("goals");
    let mut starts = Vec::new();
    let mut goals = 0u64;
    space.goals(&mut |goal| {
        content.u64(space.index(goal));
        goals += 1;
        if starts.len() < PROBE_WALKS {
            starts.push(goal);
        }
    });
    content.u64(goals);
    content.str("probe");
    let mut random = Lcg(0x5eed_f00d);
    let mut successors = Vec::new();
    let walks = starts.len().max(1);
    for start in starts {
        let mut state = start;
        for _ in 0..PROBE_STEPS / walks {
            content.u64(space.index(state));
            successors.clear();
            space.successors(state, &mut |_, next| successors.push(next));
            content.u64(successors.len() as u64);
            for &next in &successors {
                content.u64(space.index(next));
            }
            match successors.len() {
                0 => break,
                n => state = successors[random.below(n)],
            }
        }
    }
    content.finish()
}

/// The cache entry of the table `recipe` makes of `space`: its label and [`fingerprint`].
pub fn entry<S: Indexed + GoalSet + Describe + ?Sized>(space: &S, recipe: &Recipe) -> Entry {
    Entry {
        label: recipe.label,
        fingerprint: fingerprint(space, recipe),
    }
}

/// The table `recipe` makes of `space`, through [`TableCache::load_or_build`]: loaded from its
/// file when a valid one is there and [`verify`] accepts it against `space`, else built by
/// `build` and saved. Only `build`'s error and a file over the memory budget are returned.
pub fn load_or_build<S>(
    cache: &TableCache,
    space: &S,
    recipe: &Recipe,
    limits: &Limits,
    build: impl FnOnce() -> Result<DistanceTable, Limit>,
) -> Result<(DistanceTable, Source), Limit>
where
    S: Indexed + Invertible + GoalSet + Describe + ?Sized,
{
    let check = |table: &DistanceTable| verify(space, table, recipe);
    cache.load_or_build(&entry(space, recipe), limits, check, build)
}

/// Removes the file of the table `recipe` makes of `space`, with one warning that says `why`:
/// for a caller whose loaded table proved inconsistent in use ([`TableCache::discard`]).
pub fn discard<S>(cache: &TableCache, space: &S, recipe: &Recipe, why: &str)
where
    S: Indexed + GoalSet + Describe + ?Sized,
{
    cache.discard(&entry(space, recipe), why)
}

/// Whether a file for the table `recipe` makes of `space` is there (not yet whether it is
/// valid: loading checks that).
pub fn holds<S>(cache: &TableCache, space: &S, recipe: &Recipe) -> bool
where
    S: Indexed + GoalSet + Describe + ?Sized,
{
    cache.holds(&entry(space, recipe))
}

/// The file that holds the table `recipe` makes of `space`; `None` when caching is off.
pub fn path_for<S>(cache: &TableCache, space: &S, recipe: &Recipe) -> Option<PathBuf>
where
    S: Indexed + GoalSet + Describe + ?Sized,
{
    cache.path_for(&entry(space, recipe))
}
