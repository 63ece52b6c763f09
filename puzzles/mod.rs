//! The puzzle plugins, one folder each. A plugin uses only the library's public API.
//!
//! To add a puzzle: write `puzzles/NAME/` with a [`StateSpace`](crate::space::StateSpace) and
//! its [`BoardFormat`](crate::space::BoardFormat), and a [`Plugin`] that reads its keys and hands
//! the space to the [`kit`](crate::kit); then list it in [`PLUGINS`] (or, from outside the crate,
//! [`register`](crate::registry::register) it at run time). `puzzles/tiles/` is the smallest
//! complete example.

pub mod flip;
pub mod perm;
pub mod shift;
pub mod tiles;

use crate::registry::Plugin;

/// Every plugin the CLI knows, by `[puzzle] kind`.
pub static PLUGINS: &[&dyn Plugin] = &[
    &flip::FlipPlugin,
    &shift::ShiftPlugin,
    &tiles::TilesPlugin,
    &perm::PermPlugin,
];
