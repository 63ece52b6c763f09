//! Shift Puzzle (HDU 3278), generalised: an R x C board (R, C >= 3, at most 64 cells) of coloured
//! cells; a move shifts one row left or right, or one column up or down, cyclically by one cell
//! (2R + 2C moves, labelled `row 2 left`, `col 5 up`, 1-based).
//!
//! - [`board`]: the geometry, colours, moves, both bit encodings and board text.
//! - [`space`]: [`ColourMasks`] (one colour's mask, for region goals) and [`Boards`] (whole
//!   boards with any goal: the pattern goal, and export), as
//!   [`StateSpace`](statespace::space::StateSpace)s.
//! - [`mirror`]: the board's mirrors as byte look-ups on a mask (the symmetries of a region
//!   goal).
//! - [`solver`]: region goals as the minimum over colours, by table, BFS or IDDFS; tables are
//!   built once and shared across boards.
//! - [`judge`]: `statespace judge hdu3278`, the HDU 3278 stream answered by the region tables.
//! - [`plugin`]: config -> [`Instance`](statespace::instance::Instance), through the generic glue.
//!
//! Floors, each module using only those below it: [`board`] at the bottom; [`mirror`] on it;
//! [`space`] on both; [`solver`] on [`space`]; [`judge`] on [`solver`]; [`plugin`] on top.
//!
//! Goals: `interior-uniform` (every non-edge cell one colour: the HDU goal), `region-uniform` (a
//! rectangle one colour) and `pattern` (one exact board). The key reduction: a region goal only
//! asks where one colour is, and moves keep a colour's cell count, so per colour the space is the
//! `C(cells, k)` masks with its `k` cells (4 x 6, 8 cells: 735,471), and one distance table built
//! backward from the goal answers every board by a lookup per colour.

#![deny(missing_docs)]

pub mod board;
pub mod judge;
pub mod mirror;
pub mod plugin;
pub mod solver;
pub mod space;

pub use board::{Board, Geometry, Palette, Shift};
pub use plugin::{ShiftGoal, ShiftPlugin};
pub use solver::RegionSolver;
pub use space::{BoardGoal, Boards, ColourMasks};
