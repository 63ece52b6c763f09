//! The engine table: every library engine, once, in one list ([`ENGINES`]).
//!
//! Each engine is an [`Engine`] (its mode, what it needs, what it guarantees, the options it
//! reads, when `auto` runs it) beside its code, and a `make` function that turns a puzzle's
//! [`Caps`] into a [`Run`] when the puzzle has what the engine needs. Everything that chooses,
//! lists, checks or tests engines reads this list: the [`Kit`](crate::kit::Kit) (which engines a
//! plugin's puzzle gets), the [`Instance`](crate::instance::Instance) (modes, `auto`, which
//! engines list solutions), puzzles written in Python, `statespace puzzles`, and the test
//! suites keyed on guarantees. `auto` is one rule over the list: [`choose`].
//!
//! **Adding an engine** is its file (its algorithm, its `ENGINE` and its `make`) and one line
//! in the `engines!` list below; no plugin, front end or test changes. An engine a plugin alone has
//! (Flip's algebra) is an [`Engine`] of the plugin's, registered with
//! [`Instance::with_engine`](crate::instance::Instance::with_engine).
//!
//! | mode | needs | gives | auto |
//! |---|---|---|---|
//! | `bfs` | any space (a bitset over a dense index) | fewest moves; proves `Impossible` | the last resort |
//! | `bidirectional` | invertible moves, listed goals | fewest moves; proves `Impossible` | before BFS |
//! | `iddfs` | any space | fewest moves; proves; lists solutions | never (the last for several solutions) |
//! | `table` | a distance table | fewest moves; proves; lists solutions | first, up to 2^20 states |
//! | `astar` | a heuristic | fewest moves; proves | where successors are costly (Python) |
//! | `idastar` | a heuristic | fewest moves; proves; lists solutions | past 2^24 states (or no index) |
//! | `beam` | any space (ranked by a heuristic where there is one) | a path, **not proven minimal** | never |

use super::caps::{Caps, Run};
use super::{astar, beam, bfs, bidirectional, idastar, iddfs, table_engine};
pub use crate::config::choose;
use crate::config::{Engine, Mode};
use crate::space::StateSpace;
use std::sync::Arc;

/// Declares the table: the engines' modules, in the order lists show them (the library's first,
/// `auto` last). A line per engine; each module has `pub const ENGINE: Engine` and
/// `fn make<P>(&Arc<Caps<P>>) -> Option<Run<P>>`.
macro_rules! engines {
    ($($engine:path),+ $(,)?) => {
        /// Every library engine, in the order lists show them.
        pub const ENGINES: &[&Engine] = &[$(&{ use $engine as e; e::ENGINE }),+];

        /// The engines a puzzle with `caps` runs, each made for its space, in [`ENGINES`]'
        /// order.
        pub fn runs<P: StateSpace + Send + 'static>(
            caps: &Arc<Caps<P>>,
        ) -> Vec<(&'static Engine, Run<P>)> {
            let mut runs = Vec::new();
            $( {
                use $engine as e;
                if let Some(run) = e::make(caps) {
                    runs.push((&e::ENGINE, run));
                }
            } )+
            runs
        }
    };
}

engines![
    bfs,
    bidirectional,
    iddfs,
    table_engine,
    astar,
    idastar,
    beam,
];

/// The library's engine of `mode`, if it is one.
pub fn find(mode: Mode) -> Option<&'static Engine> {
    ENGINES.iter().find(|e| e.mode == mode).copied()
}

/// Where `mode` stands in lists of modes: the library's engines in [`ENGINES`]' order, then a
/// plugin's own (a stable sort keeps them in the order the plugin added them).
pub fn rank(mode: Mode) -> usize {
    ENGINES
        .iter()
        .position(|e| e.mode == mode)
        .unwrap_or(ENGINES.len())
}
