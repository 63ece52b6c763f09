//! The definition model: orbits, states, transforms, moves and their powers, in one convention.
//!
//! - [`model`]: the data ([`Definition`], [`Orbit`], [`State`], [`Transform`], [`MoveDef`],
//!   [`Illegal`]), look-ups by name and the memory each part takes.
//! - [`transform`]: applying, composing, inverting transforms; powers and orders.
//! - [`power`]: the search moves, the powers of the generators ([`Power`]), their names and
//!   [`Metric`].
//! - [`sequence`]: move sequences ([`Turn`]s), and moves defined by sequences.
//! - [`check`]: what is wrong with a transform, a state or a whole definition.
//! - [`text`]: a state as compact text, and back.
//!
//! Floors: [`model`] at the bottom; [`transform`] on it; [`power`], [`sequence`] and [`check`]
//! on both; [`text`] on [`check`]. Every item is also here, at `def::Item`.
//!
//! # The one convention
//!
//! Everything here is 0-based and **by slot** (the convention of twsearch's internal `mul` and
//! of cubing.js's KPuzzle; `.tws` files that use the ksolve convention are converted on
//! reading, see [`tws`](crate::tws)). Per orbit, a [`Transform`] is a pair
//! `(perm, delta)` of equal length `n`, and applying it to a [`State`] `s` gives `r` with, for
//! every slot `i`:
//!
//! ```text
//! r.pieces[i]      = s.pieces[perm[i]]
//! r.orientation[i] = (s.orientation[perm[i]] + delta[i]) % orientations
//! ```
//!
//! in words: *slot `i` of the result receives the piece from slot `perm[i]` of the operand, its
//! orientation increased by `delta[i]` modulo the orbit's orientation count*. So `delta` is
//! attached to the destination slot (cubing.js: "post-permutation").
//!
//! # Cost
//!
//! Reading a definition is linear in its text, times the state's size: names are found through a
//! hash map, each move sequence is composed once ([`Definition::add_sequences`]), and
//! [`Definition::generators`] stops at [`MAX_MOVES`]. The readers count their work and memory in
//! a [`Setup`](statespace::setup::Setup), so the run's limits hold while they read.

pub mod check;
pub mod model;
pub mod power;
pub mod sequence;
pub mod text;
pub mod transform;

pub use check::{WrongPieces, permutation_problem};
pub use model::{
    ByteIndex, Definition, Illegal, MAX_ORIENTATIONS, MAX_PIECES, MoveDef, Orbit, OrbitState,
    OrbitTransform, State, Transform,
};
pub use power::{MAX_EXPANDED_ORDER, MAX_MOVES, Metric, Power, UnknownMetric, power_name};
pub use sequence::{Pending, Turn};
