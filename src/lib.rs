//! statespace: exact state-space search over puzzles given as plugins.
//!
//! # Map of the crate
//!
//! One entry per module; `(folder)` marks a module that is a folder, whose `mod.rs` maps its
//! files.
//!
//! - [`space`]: the [`StateSpace`](space::StateSpace) trait every puzzle implements, and the
//!   optional capabilities engines ask for (dense index, invertible moves, goal enumeration, ...).
//! - [`search`]: the engines and what they share: outcomes, paths, stats;
//!   [`search::engines`]: the engine table, every engine once, and `auto`'s rule over it;
//!   [`search::caps`]: a puzzle's capabilities as the engines see them.
//!   - [`search::bfs`], [`search::bidirectional`], [`search::iddfs`], [`search::astar`],
//!     [`search::idastar`]: path searches; [`search::beam`]: a short path, not proven minimal.
//!   - [`search::transpositions`]: the depth-first engines' bounded transposition table.
//!   - [`search::table`] (folder): distance tables, every state's distance by one backward BFS;
//!     [`search::table::cached`]: a table in the cache (fingerprint, check, `load_or_build`).
//!   - [`search::pdb`] (folder): pattern databases, heuristics from an abstraction's distance
//!     table: one database, their max, their sum over disjoint pieces.
//!   - [`search::pruning`]: a pruning table sized to the search, a heuristic with no build.
//!   - [`search::layers`] (folder): the whole-space bitset sweep behind `explore`.
//!   - [`search::cluster`] (folder): that sweep, and IDA*'s rounds, on timely across processes.
//!   - [`search::visited`]: BFS's visited stores, a bitset or a hash set.
//! - [`limit`] (folder): the run's [`Limits`](limit::Limits), the [`Limit`](limit::Limit) that
//!   stopped it; [`limit::ticker`]: how every engine stops for the time limit and Ctrl-C.
//! - [`options`]: what a search is asked for beyond its budgets
//!   ([`SearchOptions`](options::SearchOptions): solutions, threads, transposition table, beam
//!   width, processes); [`processes`]: where a run's work goes ([`Cluster`](processes::Cluster)).
//! - [`cache`] (folder): tables saved on disk and loaded back, checked, on the next run: bytes
//!   and fingerprints only (a distance table's side is [`search::table::cached`]).
//! - [`kit`]: the generic glue: a plugin's space and its capabilities -> every engine they allow.
//! - [`instance`]: what the CLI drives: a configured puzzle's engines by mode, explore, export,
//!   and the type-erased results.
//! - [`registry`]: puzzle kind name -> plugin (built in by the CLI, or registered at run time).
//! - [`config`] (folder): the TOML layer, errors that name file, line and key; the [`keys!`]
//!   macro for a plugin's sections (`keys.rs`); engine ids (`mode.rs`).
//! - [`board_text`]: a board as text with its file, line and key: what plugins parse.
//! - [`setup`]: a plugin's work before the search (reading a definition, compiling moves) under
//!   the run's limits: time, Ctrl-C, memory.
//! - [`rank`] (folder): dense indices for plugins' [`Indexed`](space::Indexed) spaces:
//!   permutations (and one parity's half), arrangements, `k`-subsets as colex masks, multisets.
//! - [`index`]: a dense index from a list of states (an enumeration, or the component a BFS
//!   reaches): sorted states and a binary search, for encodings no formula ranks; and
//!   [`IndexedBy`](index::IndexedBy), a space wearing one.
//! - [`graph`] (folder): state-graph export: the states around a start as a petgraph graph,
//!   rendered as DOT, GraphML, node-link JSON or a self-contained HTML page.
//! - [`picture`]: how a plugin's board text is drawn (its [`BoardStyle`](picture::BoardStyle)).
//! - [`plot`]: a small SVG bar-chart writer (depth histograms).
//! - [`escape`]: the one XML/HTML escaper of the writers above (GraphML, SVG, the HTML page).
//! - [`random`]: a reproducible generator for scrambles, sampled states and bench inputs.
//! - [`toys`] (folder): tiny spaces (a ring, a line, Lights Out, a maze, a 2 x 3 sliding puzzle)
//!   on which the engines are documented and tested: this crate names no real puzzle.
//! - [`error`]: the error type; every error displays as one line.
//!
//! # Floors
//!
//! A module imports only modules on floors below its own (`.ci/floors` checks that the imports
//! make no circle, here and inside every folder module):
//!
//! | floor | modules |
//! |---|---|
//! | 0, the ground | [`limit`], [`options`], [`escape`], [`random`], [`rank`] |
//! | 1 | [`error`], [`cache`] (bytes and fingerprints), [`picture`], [`plot`] |
//! | 2 | [`board_text`], [`setup`] |
//! | 3 | [`space`], [`config`] |
//! | 4 | [`search`] (the engines, and a distance table's place in the cache), [`graph`], [`toys`] |
//! | 5 | [`instance`], [`index`] |
//! | 6 | [`kit`], [`registry`] |
//!
//! The puzzles are crates of their own (`puzzles/*/`: `statespace-flip`, `-shift`, `-tiles`,
//! `-perm`, `-blocks`, `-peg`), built on this crate's public API as a third-party plugin would
//! be; `builtins/` (`statespace-builtins`) assembles them into the
//! [`Registry`](registry::Registry) of built-in puzzles, and `records/` (`statespace-records`)
//! lays a result out as text, JSON and SVG. The two front ends use both and not each other: the
//! command line (`cli/`, `statespace-cli`) parses arguments, calls this library and prints; the
//! Python package (`python/`, `statespace-python`) gives Python the built-in puzzles and puzzles
//! written in Python, searched by this library's engines.

#![deny(missing_docs)]

pub mod board_text;
pub mod cache;
pub mod config;
pub mod error;
pub mod escape;
pub mod graph;
pub mod index;
pub mod instance;
pub mod kit;
pub mod limit;
pub mod options;
pub mod picture;
pub mod plot;
pub mod processes;
pub mod random;
pub mod rank;
pub mod registry;
pub mod search;
pub mod setup;
pub mod space;
pub mod toys;

// `keys!` expands in a plugin's crate, which need not depend on serde: the derive it writes
// names serde through this crate. (`serde(crate = "...")` takes a path in a string, where
// `$crate` does not expand: the path starts `statespace::`, which names this crate inside it
// too.)
extern crate self as statespace;

/// What the exported macros use, re-exported so that a plugin's crate needs none of it itself.
#[doc(hidden)]
pub mod __private {
    pub use serde;
}
