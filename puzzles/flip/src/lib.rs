//! Flip Game (POJ 1753), generalised: an R x C board of black and white pieces; pressing a cell
//! flips it and its up, down, left and right neighbours (across the edges when `wrap` makes the
//! board a torus).
//!
//! - [`board`]: the geometry, the `u64` bit layout of the search engines, press masks.
//! - [`space`]: [`Flip`], the [`StateSpace`](statespace::space::StateSpace) with its capabilities.
//! - [`bitboard`]: [`BitBoard`], a board of any size as rows of `u64` words; the one board parser.
//! - [`algebra`]: the fewest presses on any board by linear algebra over GF(2).
//! - [`plugin`]: config -> instance, and solving for the CLI (`auto` picks the engine by size).
//!
//! Two representations, because the engines pull in two directions. The search engines need a
//! small `Copy` state that is its own dense index: a `u64`, so at most 64 cells (and in practice
//! about 30: BFS visits up to 2^cells boards). Presses commute and cancel in pairs, so an optimal
//! solution presses each cell at most once, in any order: a linear system over GF(2) that the
//! algebraic solver handles on [`BitBoard`]s of thousands of cells a side.

#![deny(missing_docs)]

pub mod algebra;
pub mod bitboard;
pub mod board;
pub mod judge;
pub mod plugin;
pub mod space;

pub use bitboard::BitBoard;
pub use board::Geometry;
pub use plugin::{ALGEBRAIC, AlgebraDetails, FlipGoalKeys, FlipKeys, FlipPlugin};
pub use space::{CellLabel, Flip, FlipGoal, Press};
