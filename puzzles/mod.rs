//! The puzzle plugins, one folder each. A plugin uses only the library's public API.
//!
//! To add a puzzle: write `puzzles/NAME/` with a [`StateSpace`](crate::space::StateSpace)
//! implementation and a [`Plugin`], then list it in [`PLUGINS`].

pub mod flip;
pub mod perm;
pub mod shift;

use crate::registry::Plugin;

/// Every plugin the CLI knows, by `[puzzle] kind`.
pub static PLUGINS: &[&dyn Plugin] = &[&flip::FlipPlugin, &shift::ShiftPlugin];
