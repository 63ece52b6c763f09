//! Flip Game (POJ 1753), generalised: an R x C board of black and white pieces; pressing a cell
//! flips it and its up, down, left and right neighbours (across the edges when `wrap` makes the
//! board a torus).
//!
//! - [`board`]: the geometry, the bit layout, board text and press masks.
//! - [`space`]: [`Flip`], the [`StateSpace`](crate::space::StateSpace) with its capabilities.
//! - [`plugin`]: config -> [`Flip`], and solving for the CLI.
//!
//! A board is a `u64` (R * C <= 64) and a press is an XOR with a mask, so presses commute and
//! cancel in pairs: an optimal solution presses each cell at most once, in any order. The search
//! engines exploit that through [`may_follow`](crate::space::StateSpace::may_follow) (cells in
//! increasing order) and the dense index (the board is its own index).

pub mod board;
pub mod plugin;
pub mod space;

pub use board::Geometry;
pub use plugin::FlipPlugin;
pub use space::{Flip, FlipGoal, Press};
