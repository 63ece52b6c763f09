//! The puzzles built into statespace's front ends: one [`Registry`] of the plugins under
//! `puzzles/`, for the `statespace` binary (`statespace-cli`) and the Python package
//! (`statespace-python`) alike. A crate of its own so that a front end takes the puzzles without
//! taking another front end, and the core names none of them. A puzzle of your own joins them
//! with [`Registry::with`]:
//!
//! ```no_run
//! # use statespace::registry::{Plugin, PluginInfo};
//! # struct MyPlugin;
//! # impl Plugin for MyPlugin {
//! #     fn info(&self) -> PluginInfo { unimplemented!() }
//! #     fn build(&self, _: &statespace::config::Config, _: &statespace::limit::Limits)
//! #         -> statespace::error::Result<statespace::instance::Instance> { unimplemented!() }
//! # }
//! let registry = statespace_builtins::builtins().with(&MyPlugin);
//! ```

#![deny(missing_docs)]

use statespace::registry::{Plugin, Registry};

/// The built-in puzzles: Flip (with the POJ 1753 judge), Shift (with the HDU 3278 judge),
/// sliding tiles, permutation puzzles, sliding blocks and peg solitaire.
pub fn builtins() -> Registry {
    let plugins: [&'static dyn Plugin; 6] = [
        &statespace_flip::FlipPlugin,
        &statespace_shift::ShiftPlugin,
        &statespace_tiles::TilesPlugin,
        &statespace_perm::PermPlugin,
        &statespace_blocks::BlocksPlugin,
        &statespace_peg::PegPlugin,
    ];
    plugins
        .into_iter()
        .try_fold(Registry::new(), Registry::with)
        .expect("the built-in puzzles have distinct kinds and judges")
}
