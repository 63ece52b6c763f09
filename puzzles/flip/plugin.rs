//! The Flip plugin: `[puzzle] kind = "flip"` -> a [`Flip`] space, solved by the engine a mode names.

use super::board::{Geometry, MAX_CELLS};
use super::space::{Flip, FlipGoal};
use crate::config::{self, BoardText, Config, Mode};
use crate::error::{Error, Location, Result};
use crate::registry::{Instance, Plugin, PluginInfo, Solution};
use crate::search::table::{self, DistanceTable};
use crate::search::{Limits, Outcome, Report, bfs, iddfs};
use std::sync::OnceLock;

/// Registered as `flip`.
pub struct FlipPlugin;

const MODES: &[Mode] = &[Mode::Bfs, Mode::Iddfs, Mode::Table];

impl Plugin for FlipPlugin {
    fn info(&self) -> PluginInfo {
        PluginInfo {
            kind: "flip",
            summary: "Flip Game (POJ 1753): a press flips a cell and its orthogonal neighbours",
            parameters: vec![
                ("rows", "board rows, 1 or more (rows * cols <= 64)"),
                ("cols", "board columns, 1 or more (rows * cols <= 64)"),
                ("wrap", "true: the board is a torus (default false)"),
            ],
            goals: vec![
                ("uniform", "every piece one colour, either (default)"),
                ("all-white", "every piece white"),
                ("all-black", "every piece black"),
                ("pattern", "the board in [goal] target"),
            ],
            modes: MODES.to_vec(),
            default_mode: Mode::Bfs,
        }
    }

    fn build(&self, config: &Config) -> Result<Box<dyn Instance>> {
        let p = &config.puzzle;
        let rows = config.int_in(&p.rows, "puzzle.rows", 1..=MAX_CELLS as i64)? as u32;
        let cols = config.int_in(&p.cols, "puzzle.cols", 1..=MAX_CELLS as i64)? as u32;
        if rows * cols > MAX_CELLS {
            let span = p.cols.as_ref().expect("checked above").span();
            return Err(config.error_at(
                span,
                "puzzle.cols",
                format!(
                    "a {rows} x {cols} board has {} cells; flip boards hold at most {MAX_CELLS}",
                    rows * cols
                ),
            ));
        }
        config.refuse(&p.colours, "puzzle.colours", "flip pieces are b/w")?;
        let wrap = p.wrap.as_ref().is_some_and(|w| *w.get_ref());
        let geometry = Geometry { rows, cols, wrap };
        let goal = parse_goal(config, geometry)?;
        let mode = config.mode(Mode::Bfs, MODES)?;
        Ok(Box::new(FlipInstance {
            flip: Flip::new(geometry, goal),
            mode,
            table: OnceLock::new(),
        }))
    }
}

fn parse_goal(config: &Config, geometry: Geometry) -> Result<FlipGoal> {
    let Some(goal) = &config.goal else {
        return Ok(FlipGoal::Uniform);
    };
    config.refuse(&goal.region, "goal.region", "flip goals have no region")?;
    config.refuse(&goal.colour, "goal.colour", "use all-white or all-black")?;
    let kind = goal.kind.get_ref().as_str();
    if kind != "pattern" {
        config.refuse(
            &goal.target,
            "goal.target",
            "only the pattern goal has a target",
        )?;
    }
    match kind {
        "uniform" => Ok(FlipGoal::Uniform),
        "all-white" => Ok(FlipGoal::AllWhite),
        "all-black" => Ok(FlipGoal::AllBlack),
        "pattern" => {
            let target = goal
                .target
                .as_ref()
                .ok_or_else(|| config.missing("goal.target"))?;
            let text = config.board_text(target, "goal.target");
            Ok(FlipGoal::Pattern(geometry.parse(&text)?))
        }
        other => Err(config.error_at(
            goal.kind.span(),
            "goal.kind",
            format!("unknown flip goal `{other}` (known: uniform, all-white, all-black, pattern)"),
        )),
    }
}

/// A configured Flip space.
pub struct FlipInstance {
    pub flip: Flip,
    mode: Mode,
    /// The distance table (2^cells entries), built by the first `table` solve and kept.
    table: OnceLock<DistanceTable>,
}

impl FlipInstance {
    /// An instance with the default mode, for callers that build a [`Flip`] directly (the judge).
    pub fn new(flip: Flip) -> Self {
        FlipInstance {
            flip,
            mode: Mode::Bfs,
            table: OnceLock::new(),
        }
    }
}

impl Instance for FlipInstance {
    fn default_mode(&self) -> Mode {
        self.mode
    }

    fn check_mode(&self, mode: Mode) -> std::result::Result<(), String> {
        config::check_mode(mode, MODES)
    }

    fn solve(&self, board: &BoardText, mode: Mode, limits: &Limits) -> Result<Solution> {
        let geometry = self.flip.geometry();
        let start = geometry.parse(board)?;
        let report = match mode {
            Mode::Bfs => bfs::solve_indexed(&self.flip, start, limits),
            Mode::Iddfs => iddfs::solve(&self.flip, start, limits),
            Mode::Table => self.by_table(start, limits),
            other => return Err(unsupported(other)),
        };
        Ok(Solution::from_report(mode, start, report, |s| {
            geometry.format(s)
        }))
    }
}

impl FlipInstance {
    /// Looks `start` up in the table, building it first if this instance has none yet (a 4 x 4
    /// table is 32 KiB; one over 64 cells is refused by the memory budget, exit 4). The stats are
    /// the build's.
    fn by_table(&self, start: u64, limits: &Limits) -> Report<u64, super::Press> {
        let table = match self.table.get() {
            Some(table) => table,
            None => match table::build(&self.flip, limits) {
                Ok(built) => self.table.get_or_init(|| built),
                Err(limit) => {
                    return Report {
                        outcome: Outcome::LimitReached(limit),
                        stats: Default::default(),
                    };
                }
            },
        };
        let mut outcome = table.outcome(&self.flip, start);
        // The table holds every distance; a depth limit still means "no deeper answer".
        if let (Outcome::Solved(path), Some(max)) = (&outcome, limits.max_depth)
            && path.len() as u64 > max as u64
        {
            outcome = Outcome::LimitReached(crate::search::Limit::Depth(max));
        }
        Report {
            outcome,
            stats: table.stats().clone(),
        }
    }
}

fn unsupported(mode: Mode) -> Error {
    let message = config::check_mode(mode, MODES).expect_err("called for unsupported modes");
    Error::input(Location::file("flip").with_key("mode"), message)
}
