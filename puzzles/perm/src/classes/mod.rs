//! Pattern databases indexed by symmetry class: one entry per class of abstract states under
//! the rotations that map the pattern onto itself, so that a table of the same bytes holds a
//! pattern several times larger (issue 23's random-state 3x3x3).
//!
//! - [`pattern`]: [`ClassPattern`], its parts and the rotations kept, and the index of an
//!   entry (a place's class, the twist and B taken by the class's rotation).
//! - [`numbering`]: the classes of the places told apart (`class_of`), numbered or loaded
//!   from the cache and checked (`numbers.rs`: the words as the cache stores them).
//! - [`build`]: the abstract space by entry, and the table's own level-by-level build on
//!   every core.
//! - [`lookups`]: [`ClassLookups`], the table looked up in stages (the state, the other axes,
//!   the inverse), and [`with_class_table`], the heuristic it heads.
//!
//! Floors: `numbers.rs` at the bottom; [`numbering`] on it; [`pattern`] on both; [`build`] and
//! [`lookups`] on [`pattern`]. Every public item is also here, at `classes::Item`.
//!
//! # The pattern
//!
//! A [`ClassPattern`] keeps two parts of two classes of slots: some pieces of one class told
//! apart, with their twists (part A: the 3x3x3's eight corners, `8! * 3^7 = 88,179,840`
//! states), and where some pieces of another class are, as a set (part B: the four
//! middle-layer edges, `C(12, 4) = 495` sets). The plain table of both has `|A| * |B|` entries
//! (43.6 G on the 3x3x3: 20 GiB at 4 bits). The rotations that map A's pieces onto A's and B's
//! onto B's (the 16 of the 48 that keep the up-down axis: 8 rotations, 8 mirror images) act on
//! both parts; two abstract
//! states one maps onto the other are equally far from solved, so one entry serves the class.
//!
//! A part may also be a set with its class's twist in every slot (`with twists` in a config,
//! [`ClassPart::with_twists`]): vcube's and nxopt's table is A = the edge flips with the
//! middle-layer edges' slots (`2^11 * C(12, 4) = 1,013,760`), B = the corner twists with the
//! up-layer corners' slots (`3^7 * C(8, 4) = 153,090`), 155 G abstract states. The symmetries
//! that keep the up-down axis change a middle-layer slot's flip, so A's twists do not go apart
//! from its places: A is then numbered whole (its classes are of places and twists together,
//! Kociemba's 64,430 FlipUDSlice classes; at most 2^24 states), and the table has 64,430 *
//! 153,090 = 9.86 G entries. A set of half its class's pieces is kept by a symmetry that reads
//! the other half instead (the up corners, through a turn that swaps up and down, are the down
//! corners' slots: the set's complement), so all 16 symmetries count.
//!
//! Trade-offs: a class table pays a build of its own and a few small-table reads per estimate;
//! it is the only way a pattern of this size fits in memory. The rotations kept are those of
//! the definition that keep both parts (and, unless A is numbered whole, act on A's twists apart
//! from its places): a definition without rotations, or parts no rotation keeps, gets no
//! reduction (the identity alone) and is refused as pointless. With `class_bits = 2` the
//! entries are [`CompactBounds`](statespace::search::table::compact::CompactBounds), 2 bits
//! each: vcube's table in 2.3 GiB.

pub mod build;
pub mod lookups;
pub mod numbering;
mod numbers;
pub mod pattern;

pub use lookups::{ClassLookups, ClassParts, with_class_table};
pub use pattern::{ClassPart, ClassPattern};
