//! The Shift plugin: `[puzzle] kind = "shift"` -> a [`ShiftInstance`], solved by the engine a mode
//! names.

use super::board::{Board, Geometry, MAX_CELLS, MIN_SIDE, Palette};
use super::solver::{RegionAnswer, RegionSolver};
use super::space::{BoardGoal, Boards, ColourMasks, Patterns};
use crate::config::{self, BoardText, Config, Mode};
use crate::error::{Error, Location, Result};
use crate::graph::{self, ExportLimits, StateGraph};
use crate::registry::{
    Answer, Direction, Exploration, ExploreOptions, Instance, Plugin, PluginInfo, Solution,
};
use crate::search::{Limits, Outcome, bfs, iddfs, layers};
use crate::space::Indexed;

/// Registered as `shift`.
pub struct ShiftPlugin;

/// Every mode, for region goals; the pattern goal has no table (its space is whole boards).
const MODES: &[Mode] = &[Mode::Table, Mode::Bfs, Mode::Iddfs];
const PATTERN_MODES: &[Mode] = &[Mode::Bfs, Mode::Iddfs];

impl Plugin for ShiftPlugin {
    fn info(&self) -> PluginInfo {
        PluginInfo {
            kind: "shift",
            summary: "Shift Puzzle (HDU 3278): a move shifts a row or a column cyclically by one cell",
            parameters: vec![
                ("rows", "board rows, 3 or more (rows * cols <= 64)"),
                ("cols", "board columns, 3 or more (rows * cols <= 64)"),
                ("colours", "the colour letters, 2 to 16 (default \"BWG\")"),
            ],
            goals: vec![
                (
                    "interior-uniform",
                    "every non-edge cell one colour, any (default); [goal] colour picks one",
                ),
                (
                    "region-uniform",
                    "[goal] region = [top, left, bottom, right] (1-based, inclusive) one colour; [goal] colour picks one",
                ),
                (
                    "pattern",
                    "the board in [goal] target (modes bfs, iddfs; default bfs)",
                ),
            ],
            modes: MODES.to_vec(),
            default_mode: Mode::Table,
        }
    }

    fn build(&self, config: &Config) -> Result<Box<dyn Instance>> {
        let p = &config.puzzle;
        let max_side = (MAX_CELLS / MIN_SIDE) as i64;
        let rows = config.int_in(&p.rows, "puzzle.rows", MIN_SIDE as i64..=max_side)? as u32;
        let cols = config.int_in(&p.cols, "puzzle.cols", MIN_SIDE as i64..=max_side)? as u32;
        if rows * cols > MAX_CELLS {
            let span = p.cols.as_ref().expect("checked above").span();
            return Err(config.error_at(
                span,
                "puzzle.cols",
                format!(
                    "a {rows} x {cols} board has {} cells; shift boards hold at most {MAX_CELLS}",
                    rows * cols
                ),
            ));
        }
        config.refuse(&p.wrap, "puzzle.wrap", "shift moves always wrap around")?;
        let palette = match &p.colours {
            None => Palette::default(),
            Some(raw) => Palette::new(raw.get_ref())
                .map_err(|e| config.error_at(raw.span(), "puzzle.colours", e))?,
        };
        let geometry = Geometry { rows, cols };
        let goal = parse_goal(config, geometry, &palette)?;
        let (default, modes) = match goal {
            ShiftGoal::Pattern(_) => (Mode::Bfs, PATTERN_MODES),
            ShiftGoal::Region { .. } => (Mode::Table, MODES),
        };
        let mode = config.mode(default, modes)?;
        Ok(Box::new(ShiftInstance::new(geometry, palette, goal, mode)))
    }
}

/// What counts as solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShiftGoal {
    /// Every cell of `region` (a mask) one colour: `colour`, or any when `None`.
    Region { region: u64, colour: Option<u8> },
    /// Exactly this board.
    Pattern(Board),
}

fn parse_goal(config: &Config, geometry: Geometry, palette: &Palette) -> Result<ShiftGoal> {
    let Some(goal) = &config.goal else {
        return Ok(ShiftGoal::Region {
            region: geometry.interior(),
            colour: None,
        });
    };
    let kind = goal.kind.get_ref().as_str();
    // Some exactly for the pattern goal.
    let target = config.pattern_target(goal)?;
    if kind != "region-uniform" {
        config.refuse(
            &goal.region,
            "goal.region",
            "only the region-uniform goal has a region",
        )?;
    }
    let colour = match &goal.colour {
        None => None,
        Some(raw) => {
            let mut letters = raw.get_ref().chars();
            match (
                letters.next().and_then(|l| palette.colour(l)),
                letters.next(),
            ) {
                (Some(c), None) => Some(c),
                _ => {
                    return Err(config.error_at(
                        raw.span(),
                        "goal.colour",
                        format!("{:?} is not one of {palette}", raw.get_ref()),
                    ));
                }
            }
        }
    };
    match (kind, target) {
        ("interior-uniform", None) => Ok(ShiftGoal::Region {
            region: geometry.interior(),
            colour,
        }),
        ("region-uniform", None) => {
            let raw = goal
                .region
                .as_ref()
                .ok_or_else(|| config.missing("goal.region"))?;
            let bad = |message: String| config.error_at(raw.span(), "goal.region", message);
            let [top, left, bottom, right] = raw.get_ref()[..] else {
                return Err(bad("expected [top, left, bottom, right]".into()));
            };
            let (rows, cols) = (geometry.rows as i64, geometry.cols as i64);
            if !(1 <= top && top <= bottom && bottom <= rows) {
                return Err(bad(format!(
                    "rows {top} to {bottom} are not within 1 to {rows}, top first"
                )));
            }
            if !(1 <= left && left <= right && right <= cols) {
                return Err(bad(format!(
                    "columns {left} to {right} are not within 1 to {cols}, left first"
                )));
            }
            let region = geometry.rectangle(
                top as u32 - 1,
                left as u32 - 1,
                bottom as u32 - 1,
                right as u32 - 1,
            );
            Ok(ShiftGoal::Region { region, colour })
        }
        (_, Some(text)) => {
            config.refuse(
                &goal.colour,
                "goal.colour",
                "the pattern goal fixes every colour",
            )?;
            let bits = palette.bits_per_cell();
            if geometry.cells() * bits > 128 {
                return Err(config.error_at(
                    goal.kind.span(),
                    "goal.kind",
                    format!(
                        "a pattern goal packs a board in 128 bits: {} cells of {} colours need {}",
                        geometry.cells(),
                        palette.len(),
                        geometry.cells() * bits
                    ),
                ));
            }
            Ok(ShiftGoal::Pattern(geometry.parse(palette, &text)?))
        }
        (other, None) => Err(config.error_at(
            goal.kind.span(),
            "goal.kind",
            format!(
                "unknown shift goal `{other}` (known: interior-uniform, region-uniform, pattern)"
            ),
        )),
    }
}

/// A configured Shift puzzle. For region goals it keeps its distance tables across boards.
pub struct ShiftInstance {
    geometry: Geometry,
    palette: Palette,
    goal: ShiftGoal,
    mode: Mode,
    /// For region goals.
    solver: Option<RegionSolver>,
}

impl ShiftInstance {
    /// An instance; `mode` is the default for [`Instance::default_mode`].
    pub fn new(geometry: Geometry, palette: Palette, goal: ShiftGoal, mode: Mode) -> Self {
        let solver = match goal {
            ShiftGoal::Region { region, colour } => {
                Some(RegionSolver::new(geometry, region, colour))
            }
            ShiftGoal::Pattern(_) => None,
        };
        ShiftInstance {
            geometry,
            palette,
            goal,
            mode,
            solver,
        }
    }

    /// The HDU 3278 puzzle: 4 x 6, `BWG`, interior one colour, by table.
    pub fn hdu3278() -> Self {
        let geometry = Geometry { rows: 4, cols: 6 };
        let goal = ShiftGoal::Region {
            region: geometry.interior(),
            colour: None,
        };
        ShiftInstance::new(geometry, Palette::default(), goal, Mode::Table)
    }

    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    pub fn palette(&self) -> &Palette {
        &self.palette
    }

    /// The region solver (`None` for a pattern goal).
    pub fn region_solver(&self) -> Option<&RegionSolver> {
        self.solver.as_ref()
    }

    fn modes(&self) -> &'static [Mode] {
        match self.goal {
            ShiftGoal::Pattern(_) => PATTERN_MODES,
            ShiftGoal::Region { .. } => MODES,
        }
    }

    fn format(&self, board: &Board) -> String {
        self.geometry.format(&self.palette, board)
    }

    fn region_solution(&self, board: Board, mode: Mode, answer: RegionAnswer) -> Solution {
        let mut extra = serde_json::Map::new();
        if let Some(colour) = answer.colour {
            let letter = self.palette.letter(colour).to_string();
            extra.insert("colour".into(), letter.into());
        }
        if let Some((bytes, bits)) = answer.table_bytes {
            extra.insert("table_bytes".into(), bytes.into());
            extra.insert("table_bits_per_entry".into(), bits.into());
        }
        if let Some(reused) = answer.table_reused {
            extra.insert("table_reused".into(), reused.into());
        }
        let answer_text = match answer.outcome {
            Outcome::Solved(path) => {
                // Replay the moves on the whole board, so the path shows every colour.
                let mut current = board.clone();
                let mut boards = Vec::with_capacity(path.len());
                for step in &path.steps {
                    current = current.shifted(&self.geometry, step.mv);
                    boards.push(self.format(&current));
                }
                Answer::Solved {
                    moves: path.steps.iter().map(|s| s.mv.to_string()).collect(),
                    boards,
                }
            }
            Outcome::Unsolvable => Answer::Unsolvable,
            Outcome::LimitReached(limit) => Answer::LimitReached(limit),
        };
        Solution {
            mode,
            start: self.format(&board),
            answer: answer_text,
            stats: answer.stats,
            extra,
        }
    }
}

impl Instance for ShiftInstance {
    fn default_mode(&self) -> Mode {
        self.mode
    }

    fn check_mode(&self, mode: Mode) -> std::result::Result<(), String> {
        config::check_mode(mode, self.modes())
    }

    fn solve(&self, board: &BoardText, mode: Mode, limits: &Limits) -> Result<Solution> {
        self.check_mode(mode)
            .map_err(|m| Error::input(Location::file("shift").with_key("mode"), m))?;
        let start = self.geometry.parse(&self.palette, board)?;
        match (&self.goal, &self.solver) {
            (ShiftGoal::Region { .. }, Some(solver)) => {
                let answer = solver.solve(&start, mode, limits);
                Ok(self.region_solution(start, mode, answer))
            }
            (ShiftGoal::Pattern(target), _) => {
                // Moves keep every colour's count: a target with other counts is out of reach,
                // and saying so now spares a search of everything reachable.
                let counts = |b: &Board| {
                    let mut n = [0u32; Palette::MAX];
                    b.cells.iter().for_each(|&c| n[c as usize] += 1);
                    n
                };
                if counts(&start) != counts(target) || parity_forbids(self.geometry, &start, target)
                {
                    let report = crate::search::Report {
                        outcome: Outcome::<(), super::Shift>::Unsolvable,
                        stats: Default::default(),
                    };
                    let text = self.format(&start);
                    return Ok(Solution::from_report(mode, (), report, |()| text.clone()));
                }
                let bits = self.palette.bits_per_cell();
                let space = Patterns::new(self.geometry, bits, target.pack(bits));
                let packed = start.pack(bits);
                let report = match mode {
                    Mode::Iddfs => iddfs::solve(&space, packed, limits),
                    _ => bfs::solve(&space, packed, limits),
                };
                let cells = self.geometry.cells();
                Ok(Solution::from_report(mode, packed, report, |s| {
                    self.format(&Board::unpack(s, cells, bits))
                }))
            }
            (ShiftGoal::Region { .. }, None) => unreachable!("region goals have a solver"),
        }
    }

    /// Whole boards, undirected (every move has its inverse: row left/right, col up/down), the
    /// goal flag the config's goal: the target board, or the region one colour. Boards are
    /// packed in 128 bits, so a board of more cells times bits per colour is refused. Moves that
    /// leave a board as it is are no edges (see [`Boards`]).
    fn export(
        &self,
        board: &BoardText,
        limits: &ExportLimits,
        on_layer: &mut dyn FnMut(u32, u64),
    ) -> Result<StateGraph> {
        let bits = self.palette.bits_per_cell();
        let cells = self.geometry.cells();
        if cells * bits > 128 {
            return Err(Error::input(
                Location::file(&board.file).with_key("export"),
                format!(
                    "export walks whole boards packed in 128 bits: {cells} cells of {} colours \
                     need {}",
                    self.palette.len(),
                    cells * bits
                ),
            ));
        }
        let goal = match &self.goal {
            ShiftGoal::Pattern(target) => BoardGoal::Target(target.pack(bits)),
            &ShiftGoal::Region { region, colour } => BoardGoal::uniform(region, bits, colour),
        };
        let space = Boards::new(self.geometry, bits, goal);
        let start = self.geometry.parse(&self.palette, board)?.pack(bits);
        graph::build(
            &space,
            start,
            true,
            limits,
            |s| self.format(&Board::unpack(s, cells, bits)),
            on_layer,
        )
    }

    /// The one-colour mask space behind the table: every mask of as many cells as the region
    /// holds, backward from the masks that fill the region (735,471 masks on 4 x 6). A colour
    /// with more cells than the region has its own, larger space; the region's size is the one
    /// every colour that can win shares on the HDU board.
    fn explore(
        &self,
        _start: Option<&BoardText>,
        options: &ExploreOptions,
        on_layer: &mut dyn FnMut(u32, u64),
    ) -> Result<Exploration> {
        let ShiftGoal::Region { region, .. } = self.goal else {
            return Err(Error::input(
                Location::file("shift").with_key("goal.kind"),
                "explore covers region goals (one colour's mask space); a pattern goal's whole \
                 boards have no dense index",
            ));
        };
        let k = region.count_ones();
        let space = ColourMasks::new(self.geometry, region, k);
        let engine_options = layers::Options {
            limits: &options.limits,
            threads: options.threads,
        };
        let sweep = layers::backward(&space, engine_options, on_layer);
        let g = self.geometry;
        let description = format!(
            "Shift {} x {}, one colour's {k}-cell mask, goal: the {k}-cell region filled",
            g.rows, g.cols
        );
        let draw = |mask: u64| {
            (0..g.rows)
                .map(|r| {
                    (0..g.cols)
                        .map(|c| {
                            if mask >> (r * g.cols + c) & 1 == 1 {
                                'X'
                            } else {
                                '.'
                            }
                        })
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        Ok(Exploration::from_layers(
            description,
            Direction::Backward,
            "per-state",
            space.size(),
            sweep,
            draw,
        ))
    }
}

/// Whether a parity invariant proves `target` out of reach of `start`. With both sides odd, every
/// move is a cycle of odd length, an even permutation of the cells; when every colour is on one
/// cell the board determines the permutation, so an odd one cannot be reached. (Where a colour
/// repeats, swapping two equal cells fixes the parity: nothing is proven.)
fn parity_forbids(geometry: Geometry, start: &Board, target: &Board) -> bool {
    if geometry.rows.is_multiple_of(2) || geometry.cols.is_multiple_of(2) {
        return false;
    }
    let mut where_in_target = [usize::MAX; Palette::MAX];
    for (i, &c) in target.cells.iter().enumerate() {
        if where_in_target[c as usize] != usize::MAX {
            return false; // a repeated colour
        }
        where_in_target[c as usize] = i;
    }
    let permutation: Vec<usize> = start
        .cells
        .iter()
        .map(|&c| where_in_target[c as usize])
        .collect();
    // Parity = (cells - cycles) mod 2.
    let mut seen = vec![false; permutation.len()];
    let mut cycles = 0;
    for i in 0..permutation.len() {
        if !seen[i] {
            cycles += 1;
            let mut j = i;
            while !seen[j] {
                seen[j] = true;
                j = permutation[j];
            }
        }
    }
    (permutation.len() - cycles) % 2 == 1
}
