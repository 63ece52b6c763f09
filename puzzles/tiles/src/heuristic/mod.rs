//! Admissible heuristics for the sliding-tile puzzle, for [`astar`](statespace::search::astar) and
//! [`idastar`](statespace::search::idastar).
//!
//! | heuristic | estimate | cost per node | strength on the 15-puzzle (Korf's 100, IDA*) |
//! |---|---|---|---|
//! | [`Manhattan`] | sum over tiles of the rows + columns to the tile's goal cell | one table read per cell | billions of nodes on the hard instances |
//! | [`LinearConflict`] | Manhattan + 2 per tile that must leave its line to let another tile of that line pass | Manhattan + a longest increasing subsequence per row and column | several times fewer nodes than Manhattan |
//! | [`TilePdb`] | sum of additive pattern databases over disjoint tile groups ([`TileGroup`]), max with the sum for the [`Transpose`]d board | per group a pass over the board, a rank and one table read | orders of magnitude fewer (BENCHMARKS.md, "Sliding tiles: Korf's 100") |
//!
//! All work for any goal board, ordered or pattern; none allocates per node.
//!
//! - [`manhattan`]: Manhattan distance and linear conflict (no table to build).
//! - [`group`]: a tile group, the abstraction a pattern database is built over (blank-aware or
//!   blank-free).
//! - [`Transpose`] (in [`transpose`], beside the space): the reflection about
//!   the main diagonal, looked up beside the board.
//! - [`tile_pdb`]: the additive databases over disjoint groups; checking groups, building them,
//!   the usual splits of the 15-puzzle.
//! - `sums`: their sums carried from a node to its successors in IDA* (Korf & Felner's
//!   incremental evaluation).
//! - `group_rank`: the sums' rank of a group by place values, its popcount by a table or
//!   `popcnt` (picked at run time).
//! - [`factory`]: the default heuristic of a board size within a memory budget.
//! - [`keys`]: the config's `[heuristic]` section, checked into the factory of what it names.
//!
//! Every item is also here, at `heuristic::Item`.

pub mod factory;
pub mod group;
mod group_rank;
pub mod keys;
pub mod manhattan;
mod sums;
pub mod tile_pdb;

pub use crate::transpose::Transpose;
pub use factory::{DefaultHeuristic, default_heuristic};
pub use group::{GroupCells, MAX_GROUP, TileGroup};
pub use manhattan::{LinearConflict, Manhattan};
pub use tile_pdb::{
    AdditiveGroups, SPLIT_4_4_4_3, SPLIT_5_5_5, SPLIT_6_6_3, SPLIT_7_8, TilePdb, additive,
    additive_of, groups_by_goal_cells,
};
// The children name it `super::transpose`, as when it lived here.
use crate::transpose;
