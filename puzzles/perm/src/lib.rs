//! Permutation puzzles as data: twisty puzzles (cubes, Pyraminx, Skewb, Square-1) and sliding
//! loops (LoopOver) described by orbits of pieces, a solved state and moves, read from the two
//! formats people publish them in.
//!
//! - [`def`]: the model ([`Definition`]) and its one convention (0-based, orientation by slot);
//!   a folder: the data, composition, inverse, powers and orders, generators and metrics, move
//!   sequences, checks, a state as text.
//! - [`tws`]: the ksolve-style text of twsearch (`.tws`), converting its by-piece orientations.
//! - [`kpuzzle`]: cubing.js's KPuzzle JSON (Cubing Standard #3), already by slot.
//! - [`state`]: the search state, a `Copy` byte array, with moves as precomputed byte shuffles.
//! - [`index`]: the dense index over classes of slots, and the invariants (orientation sums,
//!   parities) found from the generators.
//! - [`wild`]: the twists a definition leaves unknown (twsearch's `?`), kept at 0 by the moves.
//! - [`space`]: [`PermSpace`], the [`StateSpace`](statespace::space::StateSpace) with every
//!   capability the kit uses; canonical move order; the pattern-database projection hook.
//! - [`symmetry`]: the definition's whole-puzzle rotations that map the moves onto themselves,
//!   acting on states by conjugation.
//! - [`guess`]: each piece's own distance home, summed: beam search's order (no bound).
//! - [`inversion`]: a state's inverse (the reversed, inverted moves' position), as far from
//!   solved: dual look-ups.
//! - [`heuristic`]: pattern databases over some of the pieces ([`Pattern`]: corners, groups of
//!   edges), their max for IDA*, and the patterns picked from the classes.
//! - [`classes`]: pattern databases stored one entry per symmetry class (the 3x3x3's corners
//!   with the middle-layer edges' slots), their own build and look-ups.
//! - [`plugin`]: `[puzzle] kind = "perm"`, through the generic glue.
//!
//! Floors, each module using only those below it: [`def`] at the bottom; the readers [`tws`]
//! and [`kpuzzle`], the search state [`state`], the index [`index`] and [`wild`] on it, [`symmetry`] and
//! [`inversion`] on [`state`], [`guess`] on [`def`]; [`space`] on those; [`heuristic`] on [`space`]; [`classes`] on
//! [`heuristic`]; [`plugin`] on top. (Lower modules' docs name the ones that use them, as links
//! only.)
//!
//! Why a model apart from the search state: files describe puzzles with names, look-alike
//! pieces, sequences and rules that a search never needs, and a search wants a small fixed-size
//! state and table-driven moves. The model is checked once when read; the [`state::Packer`]
//! then compiles it.

#![deny(missing_docs)]

pub mod classes;
pub mod def;
pub mod guess;
pub mod heuristic;
pub mod index;
pub mod inversion;
pub mod kpuzzle;
pub mod plugin;
pub mod space;
pub mod state;
pub mod symmetry;
pub mod tws;
pub mod wild;

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod wild_tests;

pub use def::{
    Definition, Metric, MoveDef, Orbit, OrbitState, OrbitTransform, Power, State, Transform, Turn,
};
pub use heuristic::{Pattern, Placement};
pub use plugin::PermPlugin;
pub use space::{PermMove, PermSpace};
pub use state::{Packed, Packer};
