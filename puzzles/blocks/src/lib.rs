//! Sliding-block puzzles: rectangular pieces on a board of at most 64 cells, written as
//! letters; a move slides one piece into free cells. Klotski (Huarong Dao), Rush Hour, and any
//! puzzle of that kind given as a `[start]` board.
//!
//! - [`geometry`]: the board as a 64-bit mask; where a rectangle fits, steps, flood fills.
//! - [`pieces`]: the kinds of piece ([`Class`](pieces::Class)) and a position as one `u128`:
//!   anchors and the class of each.
//! - [`board`]: board text as a grid, cut into rectangular pieces (with errors at row and
//!   column).
//! - [`inventory`]: the puzzle's pieces, from its start board; other boards read against them.
//! - [`moves`]: the moves of a position in each metric (`unit`, `line`, `path`), their labels.
//! - [`goal`]: a piece at a place, or a whole board.
//! - [`enumerate`]: every position of the pieces, for the dense index.
//! - [`space`]: [`Blocks`], the state space.
//! - [`heuristic`]: the goal's piece's distance to its place, for `astar` and `idastar`.
//! - [`plugin`]: `[puzzle] kind = "blocks"`: keys, the index, the kit.
//!
//! Floors, each using only those below it:
//!
//! | floor | modules |
//! |---|---|
//! | 5 | [`plugin`] |
//! | 4 | [`heuristic`] |
//! | 3 | [`space`] |
//! | 2 | [`inventory`], [`moves`], [`goal`], [`enumerate`] |
//! | 1 | [`pieces`], [`board`] |
//! | 0 | [`geometry`] |
//!
//! What the core gives it: the engines, the kit, the keys, and the dense index
//! ([`statespace::index`]): a sorted array of the 65,880 Klotski positions (16 bytes each) and a
//! binary search, so bitset BFS, the distance table and explore run unchanged.

#![deny(missing_docs)]

pub mod board;
pub mod enumerate;
pub mod geometry;
pub mod goal;
pub mod heuristic;
pub mod inventory;
pub mod moves;
pub mod pieces;
pub mod plugin;
pub mod space;

pub use plugin::BlocksPlugin;
pub use space::Blocks;
