//! Pattern databases: admissible heuristics from exact distances in an abstraction of the space.
//!
//! An [`Abstraction`] maps every state of a space `P` onto a state of a smaller space (say, only
//! where some of the pieces are), such that every move of `P` maps onto a move of the small space
//! or onto no move at all. Then the distance of the projected state to the projected goals never
//! exceeds the distance of the state itself: a lower bound, so an admissible
//! [`Heuristic`](crate::space::Heuristic). The small space is [`Indexed`], [`Invertible`] and has a
//! [`GoalSet`], so its whole distance table is built once by the existing [`table`] engine (one
//! backward BFS from the projected goals) and every estimate afterwards is a projection and one
//! table lookup.
//!
//! | type | estimate | admissible because |
//! |---|---|---|
//! | [`PatternDatabase`] | the table's distance of the projected state | the projection maps paths onto paths no longer |
//! | [`Max`] | the largest of several heuristics | each is a lower bound |
//! | [`Additive`] | the sum over databases whose abstractions count disjoint sets of pieces' moves, maximised over [`Symmetry`] images | every move counts in at most one table (Korf & Felner 2002) |
//!
//! - [`database`]: one database ([`PatternDatabase`]), built or loaded from the table cache, and
//!   several against one memory budget ([`build_all`]); its entries exact or, for a table
//!   too large for 4 bits an entry, compact 2-bit lower bounds ([`Entries`],
//!   [`PatternDatabase::build_compact`]).
//! - [`max`]: the largest of several heuristics ([`Max`]), in stages.
//! - [`deferred`]: a heuristic built once the search has paid for it ([`Deferred`]): cheap
//!   databases made mid-search rather than before the first node.
//! - [`additive`]: the sum over disjoint pieces ([`Additive`]), maximised over [`Symmetry`]
//!   images.
//!
//! Floors: the [`Abstraction`] contract and [`PdbError`] here; [`database`] on them;
//! [`additive`] on [`database`]; [`max`] and [`deferred`] on none of them (they wrap any heuristics). Every
//! item is also here, at `pdb::Item`.
//!
//! Trade-offs: an estimate is a projection (for tiles, one pass over the board and a rank) plus a
//! random access into a table that is often far larger than the caches, so a database lookup
//! costs tens of nanoseconds where Manhattan distance costs a few; it pays when it cuts the
//! search tree by more than that factor, which the larger databases do by orders of magnitude.
//! Estimates allocate nothing.

pub mod additive;
pub mod database;
pub mod deferred;
pub mod max;
#[cfg(test)]
mod pair;

pub use additive::{Additive, NoSymmetry, Symmetry};
pub use database::{
    Entries, LONG_BUILD_BYTES, PatternDatabase, build_all, compact_build_bytes, memory_at_most,
    memory_needed,
};
pub use deferred::Deferred;
pub use max::Max;

use crate::limit::{Limit, Limits};
use crate::search::table::cached::Recipe;
use crate::search::table::{self, DistanceTable, Width};
use crate::space::{Describe, GoalSet, Indexed, Invertible, StateSpace};
use std::fmt;

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
