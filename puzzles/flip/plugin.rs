//! The Flip plugin: `[puzzle] kind = "flip"` -> a [`Flip`] space, solved by the engine a mode names.

use super::board::{Geometry, MAX_CELLS};
use super::space::{Flip, FlipGoal};
use crate::config::{self, BoardText, Config, Mode};
use crate::error::{Error, Location, Result};
use crate::graph::{self, ExportLimits, StateGraph};
use crate::registry::{
    Direction, Exploration, ExploreOptions, Instance, Plugin, PluginInfo, Solution,
};
use crate::search::{Limits, bfs, iddfs, layers};
use crate::space::Indexed;

/// Registered as `flip`.
pub struct FlipPlugin;

const MODES: &[Mode] = &[Mode::Bfs, Mode::Iddfs];

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
}

impl FlipInstance {
    /// An instance with the default mode, for callers that build a [`Flip`] directly (the judge).
    pub fn new(flip: Flip) -> Self {
        FlipInstance {
            flip,
            mode: Mode::Bfs,
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
            other => return Err(unsupported(other)),
        };
        Ok(Solution::from_report(mode, start, report, |s| {
            geometry.format(s)
        }))
    }

    /// Undirected: a press is its own inverse, so `s -- t` is one edge.
    fn export(
        &self,
        board: &BoardText,
        limits: &ExportLimits,
        on_layer: &mut dyn FnMut(u32, u64),
    ) -> Result<StateGraph> {
        let geometry = self.flip.geometry();
        let start = geometry.parse(board)?;
        graph::build(
            &self.flip,
            start,
            true,
            limits,
            |s| geometry.format(s),
            on_layer,
        )
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
        let sweep = layers::xor_backward(&self.flip, engine_options, on_layer);
        let geometry = self.flip.geometry();
        Ok(Exploration::from_layers(
            describe(&self.flip),
            Direction::Backward,
            "word-at-a-time",
            self.flip.size(),
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

fn unsupported(mode: Mode) -> Error {
    let message = config::check_mode(mode, MODES).expect_err("called for unsupported modes");
    Error::input(Location::file("flip").with_key("mode"), message)
}
