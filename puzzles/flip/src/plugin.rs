//! The Flip plugin: `[puzzle] kind = "flip"` -> an [`Instance`].
//!
//! Sizes and modes: the search engines (`bfs`, `iddfs`, `table`, explore, export) hold a board in
//! a `u64`, so they take at most 64 cells; `algebraic` takes up to [`algebra::MAX_SIDE`] a side
//! and [`algebra::MAX_CELLS`] cells. `auto` (the default) runs BFS up to [`AUTO_BFS_MAX_CELLS`]
//! cells, where it is instant and its stats show a search, and the algebraic solver beyond.
//!
//! Algebraic answers carry [`AlgebraDetails`]: whether the fewest presses is proven (`minimal`),
//! the null space's dimension (`nullity`), the pressed cells drawn `x`/`.` (`presses`) and the
//! board reached (`final`). The board after each press is listed only while all of them take at
//! most [`PER_STEP_BOARDS_MAX_BYTES`] of text; beyond that `boards` is empty and the details say
//! `boards_omitted`.

use super::algebra::{self, AlgebraOutcome};
use super::bitboard::BitBoard;
use super::board::{Geometry, MAX_CELLS as SEARCH_MAX_CELLS};
use super::space::{CellLabel, Flip, FlipGoal};
use serde_json::Value;
use statespace::board_text::BoardText;
use statespace::config::{Auto, Config, Engine, Gives, Mode};
use statespace::error::Result;
use statespace::instance::{Answer, Details, Instance, Solution};
use statespace::kit::Kit;
use statespace::limit::Limits;
use statespace::picture::BoardStyle;
use statespace::registry::{Plugin, PluginInfo};
use statespace::space::BoardFormat;

/// Registered as `flip`.
pub struct FlipPlugin;

/// The algebraic engine's mode: linear algebra over GF(2), on any board size.
pub const ALGEBRAIC: Mode = Mode::new("algebraic");

/// The algebraic engine, as the engine table describes engines: the fewest presses (proven
/// where the null space is small enough to enumerate: each answer says), `Impossible` proven
/// by an inconsistent system; `auto`'s choice past [`AUTO_BFS_MAX_CELLS`] (the plugin says so).
pub const ALGEBRAIC_ENGINE: Engine = Engine {
    mode: ALGEBRAIC,
    about: "Linear algebra over GF(2) (Flip on any size)",
    needs: &[],
    gives: Gives::EXACT,
    options: &[],
    auto: Auto::Never,
};

/// The largest board `auto` gives to BFS: 2^20 boards, a few milliseconds at worst. A 5 x 5
/// board (2^25) can take BFS 0.6 s to prove `Impossible`, where the algebra takes microseconds.
pub const AUTO_BFS_MAX_CELLS: u32 = 20;

/// The most text the per-press boards of an algebraic answer may take (moves x board size).
pub const PER_STEP_BOARDS_MAX_BYTES: u64 = 1 << 20;

statespace::keys! {
    /// `[puzzle]` of Flip.
    pub struct FlipKeys in [puzzle] {
        /// board rows (bfs/iddfs/table: rows * cols <= 64; algebraic: <= 4194304)
        #[range(1..=algebra::MAX_SIDE as i64)]
        rows: i64,
        /// board columns (bfs/iddfs/table: rows * cols <= 64; algebraic: <= 4194304)
        #[range(1..=algebra::MAX_SIDE as i64)]
        cols: i64,
        /// true: the board is a torus
        #[default(false)]
        wrap: bool,
    }
}

statespace::keys! {
    /// `[goal]` of Flip.
    pub struct FlipGoalKeys in [goal] {
        /// the target board, for the pattern goal (rows of b/w)
        target: String,
    }
}

impl Plugin for FlipPlugin {
    fn judges(&self) -> &'static [statespace::registry::Judge] {
        &[crate::judge::POJ1753]
    }

    fn info(&self) -> PluginInfo {
        PluginInfo {
            kind: "flip",
            summary: "Flip Game (POJ 1753): a press flips a cell and its orthogonal neighbours",
            puzzle_keys: <FlipKeys as statespace::config::Keys>::KEYS,
            goals: &[
                ("uniform", "every piece one colour, either (default)"),
                ("all-white", "every piece white"),
                ("all-black", "every piece black"),
                ("pattern", "the board in [goal] target"),
            ],
            goal_keys: <FlipGoalKeys as statespace::config::Keys>::KEYS,
            heuristics: &[],
            heuristic_keys: &[],
            scramble: None,
            example: "[puzzle]\nkind = \"flip\"\nrows = 4\ncols = 4\n",
            engines: &[&ALGEBRAIC_ENGINE],
        }
    }

    fn build(&self, config: &Config, _limits: &Limits) -> Result<Instance> {
        // The setup is bounded by the keys' ranges (no file to read): nothing to count.
        let (keys, goal) = config.sections::<FlipKeys, FlipGoalKeys>()?;
        let rows = keys.rows(config).value()?.value() as u32;
        let cols = keys.cols(config).value()?;
        let (cols, cols_error) = (cols.value() as u32, |m| cols.error(m));
        let cells = rows as u64 * cols as u64;
        if cells > algebra::MAX_CELLS {
            return Err(cols_error(format!(
                "a {rows} x {cols} board has {cells} cells; flip boards hold at most {}",
                algebra::MAX_CELLS
            )));
        }
        let wrap = keys.wrap(config).value()?.value();
        let geometry = Geometry { rows, cols, wrap };
        let goal = parse_goal(config, geometry, goal.as_ref())?;
        let description = describe(geometry, &goal);
        let small = cells <= SEARCH_MAX_CELLS as u64;
        let instance = if small {
            let flip = Flip::new(geometry, goal.search_goal());
            Kit::new(flip, description).table().xor().build(Mode::AUTO)
        } else {
            Instance::new(description)
                .with_default_mode(Mode::AUTO)
                .with_note(format!(
                    "for a {rows} x {cols} board ({cells} cells): the search engines, explore and \
                     export walk boards of at most {SEARCH_MAX_CELLS} cells"
                ))
        };
        let auto = if geometry.cells() <= AUTO_BFS_MAX_CELLS {
            Mode::BFS
        } else {
            ALGEBRAIC
        };
        let algebraic = Algebraic {
            geometry,
            targets: goal.boards(geometry),
        };
        let style = BoardStyle::Cells {
            colours: vec![('b', "black".into()), ('w', "white".into())],
        };
        Ok(instance
            .with_style(style)
            .with_engine(
                &ALGEBRAIC_ENGINE,
                Box::new(move |board, limits, _, _| algebraic.solve(board, limits)),
            )
            .with_auto(auto))
    }
}

/// A goal of any board size: the kind, with the target board of a pattern.
enum Goal {
    Uniform,
    AllWhite,
    AllBlack,
    Pattern(BitBoard),
}

impl Goal {
    fn name(&self) -> &'static str {
        match self {
            Goal::Uniform => "uniform",
            Goal::AllWhite => "all-white",
            Goal::AllBlack => "all-black",
            Goal::Pattern(_) => "pattern",
        }
    }

    /// The goal of the search engines' space (boards of at most 64 cells).
    fn search_goal(&self) -> FlipGoal {
        match self {
            Goal::Uniform => FlipGoal::Uniform,
            Goal::AllWhite => FlipGoal::AllWhite,
            Goal::AllBlack => FlipGoal::AllBlack,
            Goal::Pattern(target) => FlipGoal::Pattern(target.to_u64()),
        }
    }

    /// The goal boards: white then black for `uniform`.
    fn boards(self, g: Geometry) -> Vec<BitBoard> {
        match self {
            Goal::Uniform => vec![
                BitBoard::new(g.rows, g.cols),
                BitBoard::full(g.rows, g.cols),
            ],
            Goal::AllWhite => vec![BitBoard::new(g.rows, g.cols)],
            Goal::AllBlack => vec![BitBoard::full(g.rows, g.cols)],
            Goal::Pattern(target) => vec![target],
        }
    }
}

fn parse_goal(config: &Config, geometry: Geometry, goal: Option<&FlipGoalKeys>) -> Result<Goal> {
    let Some(goal) = goal else {
        return Ok(Goal::Uniform);
    };
    // Some exactly for the pattern goal.
    let target = config.pattern_target(&goal.kind, goal.target(config))?;
    match (goal.kind.get_ref().as_str(), target) {
        (_, Some(text)) => Ok(Goal::Pattern(BitBoard::parse(geometry, &text)?)),
        ("uniform", None) => Ok(Goal::Uniform),
        ("all-white", None) => Ok(Goal::AllWhite),
        ("all-black", None) => Ok(Goal::AllBlack),
        // The registry let through only the declared kinds.
        (_, None) => Err(goal.kind_at(config).not_handled()),
    }
}

/// `Flip 4 x 4 torus, goal uniform`.
fn describe(g: Geometry, goal: &Goal) -> String {
    let torus = if g.wrap { " torus" } else { "" };
    format!("Flip {} x {}{torus}, goal {}", g.rows, g.cols, goal.name())
}

/// Boards as text: `b`/`w` rows (see [`board`](super::board)).
impl BoardFormat for Flip {
    fn parse(&self, text: &BoardText) -> Result<u64> {
        self.geometry().parse(text)
    }

    fn format(&self, board: u64) -> String {
        self.geometry().format(board)
    }
}

/// The algebraic engine: any board size, the goal boards as [`BitBoard`]s.
struct Algebraic {
    geometry: Geometry,
    targets: Vec<BitBoard>,
}

impl Algebraic {
    fn solve(&self, board: &BoardText, limits: &Limits) -> Result<Solution> {
        board.board_only()?;
        let start = BitBoard::parse(self.geometry, board)?;
        let report = algebra::solve(self.geometry, &start, &self.targets, limits);
        let mut details = AlgebraDetails {
            start: start.format(),
            nullity: report.nullity,
            ..AlgebraDetails::default()
        };
        let answer = match report.outcome {
            AlgebraOutcome::Solved(set) => {
                let count = set.presses.count_ones();
                // A label and its String: about 40 bytes a press, checked before listing them.
                match limits.check_memory(count as u128 * 40) {
                    Err(limit) => Answer::LimitReached(limit),
                    Ok(()) => {
                        details.minimal = Some(set.minimal);
                        details.presses = Some(set.presses.format_with('x', '.'));
                        details.reached = Some(self.targets[set.target].format());
                        self.press_list(&start, &set.presses, count, &mut details)
                    }
                }
            }
            AlgebraOutcome::Unsolvable => Answer::Unsolvable,
            AlgebraOutcome::LimitReached(limit) => Answer::LimitReached(limit),
        };
        let solution = Solution::new(ALGEBRAIC, start.format(), answer, report.stats);
        Ok(solution.with_details(details))
    }

    /// The presses in row-major order, with the board after each while they fit in
    /// [`PER_STEP_BOARDS_MAX_BYTES`].
    fn press_list(
        &self,
        start: &BitBoard,
        presses: &BitBoard,
        count: u64,
        details: &mut AlgebraDetails,
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
            details.boards_omitted = true;
            Vec::new()
        };
        Answer::Solved { moves, boards }
    }
}

/// What the algebra says besides the presses (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct AlgebraDetails {
    /// The start board, drawn beside the presses.
    pub start: String,
    /// The dimension of the null space: 2^nullity press sets reach each reachable goal board.
    pub nullity: Option<u32>,
    /// Whether the fewest presses is proven (every press set tried).
    pub minimal: Option<bool>,
    /// The pressed cells, `x` on `.`.
    pub presses: Option<String>,
    /// The goal board reached.
    pub reached: Option<String>,
    /// The board after each press was left out (too much text).
    pub boards_omitted: bool,
}

impl Details for AlgebraDetails {
    fn json(&self) -> serde_json::Map<String, Value> {
        let mut json = serde_json::Map::new();
        if let Some(nullity) = self.nullity {
            json.insert("nullity".into(), nullity.into());
        }
        if let Some(minimal) = self.minimal {
            json.insert("minimal".into(), minimal.into());
        }
        if let Some(presses) = &self.presses {
            json.insert("presses".into(), presses.clone().into());
        }
        if let Some(reached) = &self.reached {
            json.insert("final".into(), reached.clone().into());
        }
        if self.boards_omitted {
            json.insert("boards_omitted".into(), true.into());
        }
        json
    }

    fn qualifier(&self) -> Option<String> {
        (self.minimal == Some(false)).then(|| "not proven minimal".to_string())
    }

    fn proven(&self) -> Option<bool> {
        self.minimal
    }

    /// A press set: the order does not matter and a big board's strip of per-press boards is
    /// unreadable, so the start, what is pressed and the board reached.
    fn summary(&self) -> Option<Vec<(String, String)>> {
        let (presses, reached) = (self.presses.clone()?, self.reached.clone()?);
        Some(vec![
            ("start".into(), self.start.clone()),
            ("presses".into(), presses),
            ("final".into(), reached),
        ])
    }

    fn lines(&self, answer: &Answer) -> Vec<String> {
        let Some(nullity) = self.nullity else {
            return Vec::new();
        };
        let sets = match nullity {
            0 => "nullity 0: one press set per reachable goal board".to_string(),
            k => format!("nullity {k}: 2^{k} press sets per reachable goal board"),
        };
        vec![match (answer, self.minimal) {
            (Answer::Solved { .. }, Some(true)) => {
                format!("{sets}, all tried: the fewest presses is proven")
            }
            (Answer::Solved { .. }, _) => {
                format!("{sets}, too many to try: a greedy answer, not proven minimal")
            }
            _ => sets,
        }]
    }
}
