//! Pattern databases for permutation puzzles: IDA* heuristics from projections onto some of the
//! pieces (the 3x3x3's corners; groups of its edges), combined by
//! [`Max`](statespace::search::pdb::Max) (Korf 1997).
//!
//! - [`pattern`]: the abstraction ([`Pattern`]) and its abstract state ([`Placement`]): the
//!   pieces tracked, told apart or as a set, their twists by piece or by slot; twist patterns.
//!   Each class's pieces are a part of it (`part.rs`: a part's places and twists as digits of
//!   the index).
//! - [`abstract_space`]: the pattern as a space of its own, and how its table is built by shape.
//! - [`choose`]: the patterns picked from the classes ([`auto_pieces`]).
//! - [`conjugated`]: a database looked up at images of the state too ([`Conjugated`]: through
//!   the rotations, at the inverse), each read through a composed reading of the pattern
//!   (`reading.rs`, also what the class tables read through, [`classes`](crate::classes)).
//! - [`make`]: the heuristic a search gets ([`heuristic`], [`HeuristicKind`], [`Lookups`]).
//!
//! Floors: `part.rs` at the bottom; [`pattern`] on it; [`abstract_space`], [`choose`] and
//! `reading.rs` on both; [`conjugated`] on `reading.rs`; [`make`] on top. Every public item is
//! also here, at `heuristic::Item`.
//!
//! # Combining: max, not sum
//!
//! A face turn moves corners and edges at once, so the distances of a corner pattern and of an
//! edge pattern both count it; their sum is not a lower bound. The max of the databases is
//! (each is), so [`Abstraction::pieces`](statespace::search::pdb::Abstraction::pieces) says
//! every move counts (`u64::MAX`) and the additive combination refuses these patterns.
//!
//! # Cost per node
//!
//! The projection is a pass over the tracked classes' slots and a rank per class, then a random
//! access into a table far larger than the caches. IDA* asks the max only whether the estimate
//! reaches its limit ([`estimate_below`](statespace::space::Heuristic::estimate_below)), so the
//! patterns after the first that does are neither projected nor looked up: [`heuristic`] puts
//! the most informed (the highest mean distance: the 3x3x3's twist pattern, else its group of
//! eight edges, else its corners) first, and most nodes cost one projection and one lookup
//! (prefetched while the node's other successors are generated).

pub mod abstract_space;
pub mod choose;
pub mod conjugated;
pub mod make;
mod part;
pub mod pattern;
mod reading;

pub use choose::{MAX_PATTERN_STATES, auto_pieces};
pub use conjugated::Conjugated;
pub use make::{
    CHEAP_PATTERN_STATES, CONJUGATE_LOOKUPS, HeuristicKind, Lookups, MIN_INFORMED_MEAN, PermPdb,
    heuristic,
};
pub use pattern::{MAX_TRACKED, PLACEMENT_ENTRIES, Pattern, Pieces, Placement};
pub(crate) use reading::Reading;
