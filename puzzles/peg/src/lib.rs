//! Peg solitaire: pegs in the holes of a board of at most 64 holes; a move is a jump, a peg over
//! a neighbouring peg into the hole behind it, the jumped peg removed. The English 33-hole
//! cross, the 15-hole triangle, and any board of that kind given as a `[start]` board.
//!
//! - [`board`]: the holes (a board's text read once), a position as a `u64` of pegs, its text.
//! - [`jumps`]: every jump of a board as three bit masks, a jump's label (`r4c2-r4c4`).
//! - [`goal`]: one peg in the centre, one peg anywhere, or a whole board; the position classes
//!   that prove a board cannot reach it.
//! - [`space`]: [`Peg`], the state space.
//! - [`plugin`]: `[puzzle] kind = "peg"`: keys, goals, the kit.
//!
//! Floors, each using only those below it:
//!
//! | floor | modules |
//! |---|---|
//! | 4 | [`plugin`] |
//! | 3 | [`space`] |
//! | 2 | [`goal`] |
//! | 1 | [`jumps`] |
//! | 0 | [`board`] |
//!
//! Every jump removes one peg, so every solution from a board of `p` pegs to a goal of `q` has
//! `p - q` jumps, and no position is met at two depths: the engines that pay here are the ones
//! that do not expand a position twice (BFS with its visited set, explore), and the invariant,
//! which answers before any of them.

#![deny(missing_docs)]

pub mod board;
pub mod goal;
pub mod jumps;
pub mod plugin;
pub mod space;

pub use plugin::PegPlugin;
pub use space::Peg;
