//! Flip Game (POJ 1753), generalised: an R x C board of black and white pieces; pressing a cell
//! flips it and its up, down, left and right neighbours (across the edges when `wrap` makes the
//! board a torus).
//!
//! - [`board`]: the geometry, the `u64` bit layout of the search engines, press masks, and the
//!   board text with its one parser (any size).
//! - [`space`]: [`Flip`], the [`StateSpace`](statespace::space::StateSpace) with its capabilities.
//! - [`bitboard`]: [`BitBoard`], a board of any size as rows of `u64` words.
//! - [`algebra`]: the fewest presses on any board by linear algebra over GF(2).
//! - [`judge`]: the POJ 1753 judge's input and output.
//! - [`plugin`]: config -> instance, and solving for the CLI (`auto` picks the engine by size).
//!
//! Floors, each module using only those below it:
//!
//! | floor | modules |
//! |---|---|
//! | 3 | [`plugin`] |
//! | 2 | [`algebra`] (on [`bitboard`] and [`board`]), [`judge`] (on [`space`] and [`board`]) |
//! | 1 | [`space`], [`bitboard`] (both on [`board`]) |
//! | 0 | [`board`] |
//!
//! The board text is parsed once, on the ground floor ([`Geometry::parse_cells`]), and each
//! representation stores the cells it reports; so [`board`] never needs [`bitboard`].
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
