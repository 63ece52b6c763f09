//! The Flip plugin: `[puzzle] kind = "flip"` -> a [`FlipInstance`], solved by the engine a mode
//! names.
//!
//! Sizes and modes: the search engines (`bfs`, `iddfs`) hold a board in a `u64`, so they take at
//! most 64 cells; `algebraic` takes up to [`algebra::MAX_SIDE`] a side and [`algebra::MAX_CELLS`]
//! cells. `auto` (the default) runs BFS up to [`AUTO_BFS_MAX_CELLS`] cells, where it is instant
//! and its stats show a search, and the algebraic solver beyond; [`Solution::mode`] names the
//! engine that ran and `extra["auto"]` is `true` when `auto` chose it.
//!
//! Algebraic answers carry in [`Solution::extra`]: `minimal` (proven fewest presses), `nullity`,
//! `presses` (the pressed cells drawn `x`/`.`) and `final` (the board reached). The board after
//! each press is listed only while all of them take at most [`PER_STEP_BOARDS_MAX_BYTES`] of
//! text; beyond that `boards` is empty and `extra["boards_omitted"]` is `true`.

use super::algebra::{self, AlgebraOutcome};
use super::bitboard::BitBoard;
use super::board::{Geometry, MAX_CELLS as SEARCH_MAX_CELLS};
use super::space::{CellLabel, Flip, FlipGoal};
use crate::config::{self, BoardText, Config, Mode};
use crate::error::{Error, Location, Result};
use crate::graph::{self, ExportLimits, StateGraph};
use crate::registry::{
    Answer, Direction, Exploration, ExploreOptions, Instance, Plugin, PluginInfo, Solution,
};
use crate::search::table::{self, DistanceTable};
use crate::search::{Limit, Limits, Outcome, Report, bfs, iddfs, layers};
use crate::space::Indexed;
use serde_json::Value;
use std::sync::OnceLock;

/// Registered as `flip`.
pub struct FlipPlugin;

const MODES: &[Mode] = &[
    Mode::Bfs,
    Mode::Iddfs,
    Mode::Table,
    Mode::Algebraic,
    Mode::Auto,
];

/// The largest board `auto` gives to BFS: 2^20 boards, a few milliseconds at worst. A 5 x 5
/// board (2^25) can take BFS 0.6 s to prove `Impossible`, where the algebra takes microseconds.
pub const AUTO_BFS_MAX_CELLS: u32 = 20;

/// The most text the per-press boards of an algebraic answer may take (moves x board size).
pub const PER_STEP_BOARDS_MAX_BYTES: u64 = 1 << 20;

impl Plugin for FlipPlugin {
    fn info(&self) -> PluginInfo {
        PluginInfo {
            kind: "flip",
            summary: "Flip Game (POJ 1753): a press flips a cell and its orthogonal neighbours",
            parameters: vec![
                (
                    "rows",
                    "board rows, 1 to 4096 (bfs/iddfs/table: rows * cols <= 64; algebraic: <= 4194304)",
                ),
                (
                    "cols",
                    "board columns, 1 to 4096 (bfs/iddfs/table: rows * cols <= 64; algebraic: <= 4194304)",
                ),
                ("wrap", "true: the board is a torus (default false)"),
            ],
            goals: vec![
                ("uniform", "every piece one colour, either (default)"),
                ("all-white", "every piece white"),
                ("all-black", "every piece black"),
                ("pattern", "the board in [goal] target"),
            ],
            modes: MODES.to_vec(),
            default_mode: Mode::Auto,
        }
    }

    fn build(&self, config: &Config) -> Result<Box<dyn Instance>> {
        let p = &config.puzzle;
        let side = 1..=algebra::MAX_SIDE as i64;
        let rows = config.int_in(&p.rows, "puzzle.rows", side.clone())? as u32;
        let cols = config.int_in(&p.cols, "puzzle.cols", side)? as u32;
        let cells = rows as u64 * cols as u64;
        if cells > algebra::MAX_CELLS {
            let span = p.cols.as_ref().expect("checked above").span();
            return Err(config.error_at(
                span,
                "puzzle.cols",
                format!(
                    "a {rows} x {cols} board has {cells} cells; flip boards hold at most {}",
                    algebra::MAX_CELLS
                ),
            ));
        }
        config.refuse(&p.colours, "puzzle.colours", "flip pieces are b/w")?;
        let wrap = p.wrap.as_ref().is_some_and(|w| *w.get_ref());
        let geometry = Geometry { rows, cols, wrap };
        let goal = parse_goal(config, geometry)?;
        let mode = config.mode(Mode::Auto, MODES)?;
        if let (Err(message), Some(raw)) = (fits(mode, geometry), &config.search.mode) {
            return Err(config.error_at(raw.span(), "search.mode", message));
        }
        Ok(Box::new(FlipInstance::with_goal(geometry, goal, mode)))
    }
}

/// A goal of any board size: the kind, with the target board of a pattern.
enum Goal {
    Uniform,
    AllWhite,
    AllBlack,
    Pattern(BitBoard),
}

fn parse_goal(config: &Config, geometry: Geometry) -> Result<Goal> {
    let Some(goal) = &config.goal else {
        return Ok(Goal::Uniform);
    };
    config.refuse(&goal.region, "goal.region", "flip goals have no region")?;
    config.refuse(&goal.colour, "goal.colour", "use all-white or all-black")?;
    // Some exactly for the pattern goal.
    let target = config.pattern_target(goal)?;
    match (goal.kind.get_ref().as_str(), target) {
        (_, Some(text)) => Ok(Goal::Pattern(BitBoard::parse(geometry, &text)?)),
        ("uniform", None) => Ok(Goal::Uniform),
        ("all-white", None) => Ok(Goal::AllWhite),
        ("all-black", None) => Ok(Goal::AllBlack),
        (other, None) => Err(config.error_at(
            goal.kind.span(),
            "goal.kind",
            format!("unknown flip goal `{other}` (known: uniform, all-white, all-black, pattern)"),
        )),
    }
}

/// `Ok` when `mode` can run on boards of `geometry`'s size.
fn fits(mode: Mode, geometry: Geometry) -> std::result::Result<(), String> {
    let cells = geometry.rows as u64 * geometry.cols as u64;
    match mode {
        Mode::Bfs | Mode::Iddfs | Mode::Table if cells > SEARCH_MAX_CELLS as u64 => Err(format!(
            "search mode `{mode}` is not available for a {} x {} board ({cells} cells): the \
             search engines take at most {SEARCH_MAX_CELLS} cells (use algebraic or auto)",
            geometry.rows, geometry.cols
        )),
        _ => Ok(()),
    }
}

/// A configured Flip puzzle: a size, the goal boards, and the search space when it is small
/// enough for the search engines.
pub struct FlipInstance {
    geometry: Geometry,
    /// The goal boards: white then black for `uniform`.
    targets: Vec<BitBoard>,
    /// The search engines' space: boards of at most 64 cells only.
    flip: Option<Flip>,
    mode: Mode,
    /// The distance table (2^cells entries), built by the first `table` solve and kept.
    table: OnceLock<DistanceTable>,
}

impl FlipInstance {
    /// An instance with BFS as its mode, for callers that build a [`Flip`] directly (the judge).
    pub fn new(flip: Flip) -> Self {
        let geometry = flip.geometry();
        FlipInstance {
            geometry,
            targets: flip
                .goal_boards()
                .into_iter()
                .map(|b| BitBoard::from_u64(geometry, b))
                .collect(),
            flip: Some(flip),
            mode: Mode::Bfs,
            table: OnceLock::new(),
        }
    }

    fn with_goal(geometry: Geometry, goal: Goal, mode: Mode) -> Self {
        let (rows, cols) = (geometry.rows, geometry.cols);
        let small = rows as u64 * cols as u64 <= SEARCH_MAX_CELLS as u64;
        let flip = small.then(|| {
            let goal = match &goal {
                Goal::Uniform => FlipGoal::Uniform,
                Goal::AllWhite => FlipGoal::AllWhite,
                Goal::AllBlack => FlipGoal::AllBlack,
                Goal::Pattern(target) => FlipGoal::Pattern(target.to_u64()),
            };
            Flip::new(geometry, goal)
        });
        let targets = match goal {
            Goal::Uniform => vec![BitBoard::new(rows, cols), BitBoard::full(rows, cols)],
            Goal::AllWhite => vec![BitBoard::new(rows, cols)],
            Goal::AllBlack => vec![BitBoard::full(rows, cols)],
            Goal::Pattern(target) => vec![target],
        };
        FlipInstance {
            geometry,
            targets,
            flip,
            mode,
            table: OnceLock::new(),
        }
    }

    /// The search engines' space, when the board has at most 64 cells.
    pub fn flip(&self) -> Option<&Flip> {
        self.flip.as_ref()
    }

    /// The engine `auto` runs on this board.
    pub fn auto_mode(&self) -> Mode {
        if self.geometry.cells() <= AUTO_BFS_MAX_CELLS {
            Mode::Bfs
        } else {
            Mode::Algebraic
        }
    }

    fn solve_algebraic(&self, start: &BitBoard, limits: &Limits) -> Solution {
        let report = algebra::solve(self.geometry, start, &self.targets, limits);
        let mut extra = serde_json::Map::new();
        if let Some(nullity) = report.nullity {
            extra.insert("nullity".into(), Value::from(nullity));
        }
        let answer = match report.outcome {
            AlgebraOutcome::Solved(set) => {
                let count = set.presses.count_ones();
                // A label and its String: about 40 bytes a press, checked before listing them.
                match limits.check_memory(count as u128 * 40) {
                    Err(limit) => Answer::LimitReached(limit),
                    Ok(()) => {
                        extra.insert("minimal".into(), Value::Bool(set.minimal));
                        extra.insert("presses".into(), set.presses.format_with('x', '.').into());
                        extra.insert("final".into(), self.targets[set.target].format().into());
                        self.press_list(start, &set.presses, count, &mut extra)
                    }
                }
            }
            AlgebraOutcome::Unsolvable => Answer::Unsolvable,
            AlgebraOutcome::LimitReached(limit) => Answer::LimitReached(limit),
        };
        Solution {
            mode: Mode::Algebraic,
            start: start.format(),
            answer,
            stats: report.stats,
            extra,
        }
    }

    /// The presses in row-major order, with the board after each while they fit in
    /// [`PER_STEP_BOARDS_MAX_BYTES`].
    fn press_list(
        &self,
        start: &BitBoard,
        presses: &BitBoard,
        count: u64,
        extra: &mut serde_json::Map<String, Value>,
    ) -> Answer {
        let moves = presses
            .ones()
            .map(|(r, c)| CellLabel(r, c).to_string())
            .collect();
        let board_bytes = self.geometry.cells() as u64 + self.geometry.rows as u64;
        let boards = if count.saturating_mul(board_bytes) <= PER_STEP_BOARDS_MAX_BYTES {
            let mut board = start.clone();
            presses
                .ones()
                .map(|(r, c)| {
                    board.press(r, c, self.geometry.wrap);
                    board.format()
                })
                .collect()
        } else {
            extra.insert("boards_omitted".into(), Value::Bool(true));
            Vec::new()
        };
        Answer::Solved { moves, boards }
    }
}

impl Instance for FlipInstance {
    fn default_mode(&self) -> Mode {
        self.mode
    }

    fn check_mode(&self, mode: Mode) -> std::result::Result<(), String> {
        config::check_mode(mode, MODES)?;
        fits(mode, self.geometry)
    }

    fn solve(&self, board: &BoardText, mode: Mode, limits: &Limits) -> Result<Solution> {
        let start = BitBoard::parse(self.geometry, board)?;
        let engine = match mode {
            Mode::Auto => self.auto_mode(),
            other => other,
        };
        let mut solution = match (engine, &self.flip) {
            (Mode::Algebraic, _) => self.solve_algebraic(&start, limits),
            (Mode::Table, Some(flip)) => {
                let start = start.to_u64();
                let report = self.by_table(flip, start, limits);
                let geometry = self.geometry;
                Solution::from_report(engine, start, report, |s| geometry.format(s))
            }
            (Mode::Bfs | Mode::Iddfs, Some(flip)) => {
                let start = start.to_u64();
                let report = if engine == Mode::Bfs {
                    bfs::solve_indexed(flip, start, limits)
                } else {
                    iddfs::solve(flip, start, limits)
                };
                let geometry = self.geometry;
                Solution::from_report(engine, start, report, |s| geometry.format(s))
            }
            (other, _) => return Err(unsupported(other, self.geometry)),
        };
        if mode == Mode::Auto {
            solution.extra.insert("auto".into(), Value::Bool(true));
        }
        Ok(solution)
    }

    /// Undirected: a press is its own inverse, so `s -- t` is one edge.
    fn export(
        &self,
        board: &BoardText,
        limits: &ExportLimits,
        on_layer: &mut dyn FnMut(u32, u64),
    ) -> Result<StateGraph> {
        let geometry = self.geometry;
        let flip = self.search_space("export", &board.file)?;
        let start = geometry.parse(board)?;
        graph::build(flip, start, true, limits, |s| geometry.format(s), on_layer)
    }

    /// Backward from the goal boards, a word of boards per press: a press is an XOR, so it
    /// undoes itself and the start board plays no part.
    fn explore(
        &self,
        _start: Option<&BoardText>,
        options: &ExploreOptions,
        on_layer: &mut dyn FnMut(u32, u64),
    ) -> Result<Exploration> {
        let engine_options = layers::Options {
            limits: &options.limits,
            threads: options.threads,
        };
        let flip = self.search_space("explore", "flip")?;
        let sweep = layers::xor_backward(flip, engine_options, on_layer);
        let geometry = self.geometry;
        Ok(Exploration::from_layers(
            describe(flip),
            Direction::Backward,
            "word-at-a-time",
            flip.size(),
            sweep,
            |s| geometry.format(s),
        ))
    }
}

/// `Flip 4 x 4 torus, goal uniform`.
fn describe(flip: &Flip) -> String {
    let g = flip.geometry();
    let torus = if g.wrap { " torus" } else { "" };
    let goal = match flip.goal() {
        FlipGoal::Uniform => "uniform",
        FlipGoal::AllWhite => "all-white",
        FlipGoal::AllBlack => "all-black",
        FlipGoal::Pattern(_) => "pattern",
    };
    format!("Flip {} x {}{torus}, goal {goal}", g.rows, g.cols)
}

impl FlipInstance {
    /// The search engines' space, or an error naming `what` needed it when the board is over 64
    /// cells (only the algebraic solver takes those).
    fn search_space(&self, what: &str, file: &str) -> Result<&Flip> {
        self.flip.as_ref().ok_or_else(|| {
            let g = self.geometry;
            Error::input(
                Location::file(file).with_key(what),
                format!(
                    "a {} x {} board has {} cells; {what} walks boards held in 64 bits",
                    g.rows,
                    g.cols,
                    g.cells()
                ),
            )
        })
    }

    /// Looks `start` up in the table, building it first if this instance has none yet (a 4 x 4
    /// table is 32 KiB; one over 64 cells is refused by the memory budget, exit 4). The stats are
    /// the build's.
    fn by_table(&self, flip: &Flip, start: u64, limits: &Limits) -> Report<u64, super::Press> {
        let table = match self.table.get() {
            Some(table) => table,
            None => match table::build(flip, limits) {
                Ok(built) => self.table.get_or_init(|| built),
                Err(limit) => {
                    return Report {
                        outcome: Outcome::LimitReached(limit),
                        stats: Default::default(),
                    };
                }
            },
        };
        let mut outcome = table.outcome(flip, start);
        // The table holds every distance; a depth limit still means "no deeper answer".
        if let (Outcome::Solved(path), Some(max)) = (&outcome, limits.max_depth)
            && path.len() as u64 > max as u64
        {
            outcome = Outcome::LimitReached(Limit::Depth(max));
        }
        Report {
            outcome,
            stats: table.stats().clone(),
        }
    }
}

fn unsupported(mode: Mode, geometry: Geometry) -> Error {
    let message = config::check_mode(mode, MODES)
        .and_then(|()| fits(mode, geometry))
        .expect_err("called for unsupported modes");
    Error::input(Location::file("flip").with_key("mode"), message)
}
