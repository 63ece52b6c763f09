//! The sliding-tile puzzle (the 8-, 15- and 24-puzzle and every R x C in between): tiles
//! `1..n-1` and one blank on an R x C board; a move slides a tile next to the blank into it.
//!
//! - [`space`]: [`Tiles`], the [`StateSpace`](statespace::space::StateSpace): a board is the tile of
//!   every cell plus where the blank is; the dense index is a permutation rank over the half of
//!   the boards that can reach the goal; the permutation parity proves the other half unsolvable.
//! - [`transpose`]: the reflection about the main diagonal, the puzzle's
//!   [`Symmetric`](statespace::space::Symmetric) images (distance tables built an orbit at a
//!   time, symmetric pruning tables) and the pattern databases' second look-up.
//! - [`board`]: the board text (rows of numbers, the blank `_` or `0`), and the blank-first
//!   convention of Korf's instances.
//! - [`blank_aware`]: the 0-1 search that builds blank-aware pattern databases.
//! - [`heuristic`]: admissible estimates for A* and IDA*: Manhattan distance, linear conflict,
//!   additive pattern databases over tile groups (with the diagonal reflection), the default per
//!   board size; a folder, one file each.
//! - [`plugin`]: `[puzzle] kind = "tiles"`, through the generic glue.
//!
//! Floors, each using only those below it: [`space`] (which holds the reflection, built from its
//! shape and goal) and [`blank_aware`] (which knows nothing of the puzzle but a board's shape and
//! a group's goal cells) at the bottom; [`transpose`] (the reflection's uses), [`board`] and
//! [`heuristic`] on them; [`plugin`] on top.
//!
//! # What the core holds, and why it is not smaller
//!
//! The crate outside [`heuristic`] and [`blank_aware`] (about 660 non-blank lines outside tests,
//! 510 of them code) is what only this puzzle can say: the board, its moves, the parity
//! invariant, the half-rank index and its unrank ([`space`]); the reflection that tables, pruning
//! tables and databases share (held by the space, used in [`transpose`]); the board text with
//! one error per mistake, and Korf's blank-first boards ([`board`]); the keys and goals
//! ([`plugin`]). It grew past 450 with the reflection and the 24-puzzle, both the puzzle's own.
//! What repeated other code left: reading `[heuristic]` went to the heuristics, the board's
//! inverse is [`Board::positions`] for the index, the goal cells and the databases. Left: the
//! four directions are also the blocks crate's (a shared type would save about 20 lines each).

#![deny(missing_docs)]

pub mod blank_aware;
pub mod board;
pub mod heuristic;
pub mod plugin;
pub mod space;
pub mod transpose;

pub use plugin::TilesPlugin;
pub use space::{Board, Dir, Slide, Tiles};
