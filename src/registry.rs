//! The plugin registry: a puzzle kind's name -> its plugin, and the object-safe face a plugin
//! shows the CLI.
//!
//! Engines are generic over [`StateSpace`](crate::space::StateSpace) and its capabilities, which is
//! what makes them fast, but the CLI only knows a config's `kind` at run time. A plugin bridges the
//! two: [`Plugin::build`] validates a [`Config`] into an [`Instance`], whose methods run the generic
//! engines on the plugin's concrete space and hand back type-erased results ([`Solution`]: move
//! labels and boards as text). Adding a puzzle is a folder in `puzzles/` and one line in
//! `puzzles/mod.rs`.

use crate::config::{BoardText, Config, Mode};
use crate::error::{Error, Location, Result};
use crate::graph::{ExportLimits, StateGraph};
use crate::search::layers::Layers;
use crate::search::{Limit, Limits, Outcome, Report, Stats};
use std::fmt::Display;

/// What `statespace puzzles` prints about a plugin.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PluginInfo {
    /// The `[puzzle] kind` name.
    pub kind: &'static str,
    /// One line: what the puzzle is.
    pub summary: &'static str,
    /// `(key, meaning)` for each `[puzzle]` key it reads.
    pub parameters: Vec<(&'static str, &'static str)>,
    /// `(goal kind, meaning)` for each `[goal] kind` it accepts.
    pub goals: Vec<(&'static str, &'static str)>,
    /// The search modes it supports.
    pub modes: Vec<Mode>,
    /// The mode used when the config names none.
    pub default_mode: Mode,
}

/// A puzzle kind: turns a config into a ready [`Instance`].
pub trait Plugin: Sync {
    /// Its name, parameters, goals and modes.
    fn info(&self) -> PluginInfo;
    /// Validates `config` (every error names its file, line and key) into an instance.
    fn build(&self, config: &Config) -> Result<Box<dyn Instance>>;
}

/// A configured puzzle (size, goal): solves boards given as text.
pub trait Instance {
    /// The mode to use when the command line names none: the config's, else the plugin default.
    fn default_mode(&self) -> Mode;
    /// Checks `mode` before any work; the message lists the supported modes.
    fn check_mode(&self, mode: Mode) -> std::result::Result<(), String>;
    /// Parses `board` and solves it with `mode` within `limits`.
    fn solve(&self, board: &BoardText, mode: Mode, limits: &Limits) -> Result<Solution>;

    /// Parses `board` and returns the state graph around it within `limits` (see
    /// [`graph::build`](crate::graph::build), which an implementation calls with its concrete
    /// space). `on_layer(depth, states)` is called as the BFS advances, for a progress line.
    ///
    /// The default refuses: a plugin opts in with a one-line call to `graph::build`, choosing
    /// `undirected` when its moves are invertible.
    fn export(
        &self,
        board: &BoardText,
        limits: &ExportLimits,
        on_layer: &mut dyn FnMut(u32, u64),
    ) -> Result<StateGraph> {
        let _ = (board, limits, on_layer);
        Err(Error::input(
            Location::file("export"),
            "this puzzle does not support graph export yet",
        ))
    }

    /// Sweeps the whole space that can reach the goal and counts it by distance (see
    /// [`search::layers`](crate::search::layers)): backward from the goal set when moves are
    /// invertible, else forward from `start` (the config's start board; `None` when it has
    /// none). `on_layer(depth, states so far)` is called after each layer, for a progress line.
    ///
    /// The default refuses: a plugin opts in by calling the `layers` entry point its capabilities
    /// allow and wrapping the result with [`Exploration::from_layers`].
    fn explore(
        &self,
        start: Option<&BoardText>,
        options: &ExploreOptions,
        on_layer: &mut dyn FnMut(u32, u64),
    ) -> Result<Exploration> {
        let _ = (start, options, on_layer);
        Err(Error::input(
            Location::file("explore"),
            "this puzzle does not support explore yet",
        ))
    }
}

/// How `explore` runs: its limits and threads (`None`: the engine chooses by size).
#[derive(Clone, Debug, Default)]
pub struct ExploreOptions {
    pub limits: Limits,
    pub threads: Option<usize>,
}

/// Which way an exploration went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// From every goal over inverse moves: distances are to the goal set.
    Backward,
    /// From the start board: distances are from the start.
    Forward,
}

/// A whole-space sweep, with states as text: what `statespace explore` prints.
#[derive(Clone, Debug)]
pub struct Exploration {
    /// One line naming the puzzle, for titles: `Flip 5 x 5, goal uniform`.
    pub description: String,
    pub direction: Direction,
    /// The expansion used: `word-at-a-time` or `per-state`.
    pub strategy: &'static str,
    /// Every state of the space (reachable or not).
    pub space_size: u128,
    /// `histogram[d]`: states at distance `d` (completed layers only when stopped).
    pub histogram: Vec<u64>,
    /// A state at the largest distance, as board text.
    pub farthest: Option<String>,
    /// `None` when the whole reachable space was swept; else the limit that stopped it.
    pub stopped: Option<Limit>,
    pub stats: Stats,
    /// Threads the run used.
    pub threads: usize,
    /// Bytes the engine allocated (its bitsets).
    pub engine_bytes: u64,
}

impl Exploration {
    /// Erases an engine's [`Layers`]: the farthest state becomes board text.
    pub fn from_layers<S: Copy>(
        description: String,
        direction: Direction,
        strategy: &'static str,
        space_size: u128,
        layers: Layers<S>,
        board: impl Fn(S) -> String,
    ) -> Exploration {
        Exploration {
            description,
            direction,
            strategy,
            space_size,
            histogram: layers.histogram,
            farthest: layers.farthest.map(board),
            stopped: layers.stopped,
            stats: layers.stats,
            threads: layers.threads,
            engine_bytes: layers.memory_bytes,
        }
    }

    /// States found: the sum of the histogram.
    pub fn reachable(&self) -> u64 {
        self.histogram.iter().sum()
    }
}

/// The answer to one board, with states as text and moves as labels.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The mode that produced the answer (`auto` resolved to the engine it chose).
    pub mode: Mode,
    /// The start board as text.
    pub start: String,
    pub answer: Answer,
    pub stats: Stats,
    /// Plugin-specific fields for `--json` (e.g. `minimal`, `nullity`).
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// How a solve ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The fewest moves: their labels and the board after each.
    Solved {
        moves: Vec<String>,
        boards: Vec<String>,
    },
    /// Proven: no sequence of moves reaches the goal.
    Unsolvable,
    /// Stopped at a limit before deciding.
    LimitReached(Limit),
}

impl Solution {
    /// Erases an engine's [`Report`]: moves become labels, states become board text.
    pub fn from_report<S: Copy, M: Display>(
        mode: Mode,
        start: S,
        report: Report<S, M>,
        board: impl Fn(S) -> String,
    ) -> Solution {
        let answer = match report.outcome {
            Outcome::Solved(path) => Answer::Solved {
                moves: path.steps.iter().map(|s| s.mv.to_string()).collect(),
                boards: path.steps.iter().map(|s| board(s.state)).collect(),
            },
            Outcome::Unsolvable => Answer::Unsolvable,
            Outcome::LimitReached(limit) => Answer::LimitReached(limit),
        };
        Solution {
            mode,
            start: board(start),
            answer,
            stats: report.stats,
            extra: serde_json::Map::new(),
        }
    }
}

/// Every registered plugin.
pub fn plugins() -> &'static [&'static dyn Plugin] {
    crate::puzzles::PLUGINS
}

/// The plugin named `kind`.
pub fn find(kind: &str) -> Option<&'static dyn Plugin> {
    plugins().iter().copied().find(|p| p.info().kind == kind)
}

/// Builds the instance that `config`'s `[puzzle] kind` names.
pub fn build(config: &Config) -> Result<Box<dyn Instance>> {
    let kind = &config.puzzle.kind;
    let plugin = find(kind.get_ref()).ok_or_else(|| {
        let known: Vec<_> = plugins().iter().map(|p| p.info().kind).collect();
        config.error_at(
            kind.span(),
            "puzzle.kind",
            format!(
                "unknown puzzle kind `{}` (known: {})",
                kind.get_ref(),
                known.join(", ")
            ),
        )
    })?;
    plugin.build(config)
}
