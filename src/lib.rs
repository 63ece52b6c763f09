//! statespace: exact state-space search over puzzles given as plugins.
//!
//! # Map of the crate
//!
//! - [`space`]: the [`StateSpace`](space::StateSpace) trait every puzzle implements, and the
//!   optional capabilities engines may ask for (dense index, invertible moves, goal enumeration).
//! - [`search`]: the engines, one module each ([`search::bfs`], [`search::iddfs`],
//!   [`search::astar`], [`search::idastar`], [`search::table`], [`search::layers`]), and what
//!   they share: outcomes, paths, stats, visited stores.
//! - [`limit`]: the run's [`Limits`](limit::Limits), the [`Limit`](limit::Limit) that stopped
//!   it, and how every engine polls time and Ctrl-C ([`limit::ticker`]).
//! - [`cache`]: tables saved on disk and loaded back, checked, on the next run; a distance
//!   table's side of it is [`search::table::cached`].
//! - [`board_text`]: a board as text with its file, line and key, what plugins parse.
//! - [`config`]: the TOML schema and validation helpers whose errors name file, line and key.
//! - [`graph`]: state-graph export: the states around a start as a petgraph graph, rendered as
//!   DOT, GraphML or node-link JSON.
//! - [`plot`]: a small SVG bar-chart writer (depth histograms).
//! - [`picture`]: how a plugin's board text is drawn (its [`BoardStyle`](picture::BoardStyle)).
//! - [`escape`]: the one XML/HTML escaper of every writer above.
//! - [`rank`]: dense indices for plugins' [`Indexed`](space::Indexed) spaces: permutations (and
//!   one parity's half of them), arrangements of distinct pieces, `k`-subsets as masks (colex)
//!   and arrangements of pieces that look alike (multisets).
//! - [`registry`]: puzzle kind name -> plugin (built in, or registered at run time).
//! - [`kit`]: the generic glue: a plugin's space and its capabilities -> every engine they allow.
//! - [`instance`]: what the CLI drives: a configured puzzle's engines by mode, explore, export,
//!   and the type-erased results.
//! - [`toys`]: tiny spaces (a ring, a line, Lights Out, a maze, a 2 x 3 sliding puzzle) on which
//!   the engines are documented and tested: this crate names no real puzzle.
//! - [`setup`]: a plugin's work before the search (reading a definition, compiling moves) under
//!   the run's limits: time, Ctrl-C, memory.
//! - [`error`]: the error type; every error displays as one line.
//!
//! # Floors
//!
//! A module imports only modules on floors below its own (`.ci/floors` checks that the imports
//! make no circle, here and inside every folder module):
//!
//! | floor | modules |
//! |---|---|
//! | 0, the ground | [`limit`], [`escape`], [`random`], [`rank`] |
//! | 1 | [`error`], [`cache`] (bytes and fingerprints), [`picture`], [`plot`] |
//! | 2 | [`board_text`], [`setup`] |
//! | 3 | [`space`], [`config`] |
//! | 4 | [`search`] (the engines, and a distance table's place in the cache), [`graph`], [`toys`] |
//! | 5 | [`instance`] |
//! | 6 | [`kit`], [`registry`] |
//!
//! The puzzles are crates of their own (`puzzles/*/`: `statespace-flip`, `-shift`, `-tiles`,
//! `-perm`), built on this crate's public API as a third-party plugin would be; the command line
//! (`cli/`, `statespace-cli`) assembles them into a [`Registry`](registry::Registry), parses
//! arguments, calls this library and prints.

#![deny(missing_docs)]

pub mod board_text;
pub mod cache;
pub mod config;
pub mod error;
pub mod escape;
pub mod graph;
pub mod instance;
pub mod kit;
pub mod limit;
pub mod picture;
pub mod plot;
pub mod random;
pub mod rank;
pub mod registry;
pub mod search;
pub mod setup;
pub mod space;
pub mod toys;
