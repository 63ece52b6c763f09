//! The Shift plugin: `[puzzle] kind = "shift"` -> an [`Instance`].
//!
//! Region goals are solved by the plugin's own engine, the [`RegionSolver`] (the minimum over
//! the colours that could fill the region, each in its one-colour mask space), for `table`,
//! `bfs` and `iddfs`; `explore` sweeps the mask space behind the table; export draws whole
//! [`Boards`]. The pattern goal is whole boards through the generic glue, with the colour counts
//! and the odd-board parity as its invariant.

use super::board::{Board, Geometry, MAX_CELLS, MIN_SIDE, Palette};
use super::solver::{RegionAnswer, RegionSolver};
use super::space::{BoardGoal, Boards, ColourMasks};
use statespace::config::{Config, Engine, Gives, Keys, Mode};
use statespace::error::{Error, Location, Result};
use statespace::instance::{Answer, Details, Instance, Solution, TableDetails};
use statespace::kit::Kit;
use statespace::limit::Limits;
use statespace::picture::BoardStyle;
use statespace::registry::{Plugin, PluginInfo};
use statespace::search::Outcome;
use std::sync::Arc;

/// Registered as `shift`.
pub struct ShiftPlugin;

statespace::keys! {
    /// `[puzzle]` of Shift.
    pub struct ShiftKeys in [puzzle] {
        /// board rows (rows * cols <= 64)
        #[range(MIN_SIDE as i64..=(MAX_CELLS / MIN_SIDE) as i64)]
        rows: i64,
        /// board columns (rows * cols <= 64)
        #[range(MIN_SIDE as i64..=(MAX_CELLS / MIN_SIDE) as i64)]
        cols: i64,
        /// the colour letters, 2 to 16
        #[default("BWG")]
        colours: String,
    }
}

statespace::keys! {
    /// `[goal]` of Shift.
    pub struct ShiftGoalKeys in [goal] {
        /// the target board, for the pattern goal
        target: String,
        /// region-uniform: [top, left, bottom, right], 1-based and inclusive
        region: Vec<i64>,
        /// region goals: the one colour that must fill the region (default: any)
        colour: String,
    }
}

impl Plugin for ShiftPlugin {
    fn judges(&self) -> &'static [statespace::registry::Judge] {
        &[crate::judge::HDU3278]
    }

    fn info(&self) -> PluginInfo {
        PluginInfo {
            kind: "shift",
            summary: "Shift Puzzle (HDU 3278): a move shifts a row or a column cyclically by one cell",
            puzzle_keys: ShiftKeys::KEYS,
            goals: &[
                (
                    "interior-uniform",
                    "every non-edge cell one colour, any (default); [goal] colour picks one",
                ),
                (
                    "region-uniform",
                    "[goal] region one colour; [goal] colour picks one",
                ),
                ("pattern", "the board in [goal] target (bfs, iddfs)"),
            ],
            goal_keys: ShiftGoalKeys::KEYS,
            heuristics: &[],
            heuristic_keys: &[],
            scramble: None,
            example: "[puzzle]\nkind = \"shift\"\nrows = 4\ncols = 6\n",
            engines: &[],
        }
    }

    fn build(&self, config: &Config, _limits: &Limits) -> Result<Instance> {
        // The setup is bounded by the keys' ranges (no file to read): nothing to count.
        let (keys, goal) = config.sections::<ShiftKeys, ShiftGoalKeys>()?;
        let rows = keys.rows(config).value()?.value() as u32;
        let cols_checked = keys.cols(config).value()?;
        let cols = cols_checked.value() as u32;
        if rows * cols > MAX_CELLS {
            return Err(cols_checked.error(format!(
                "a {rows} x {cols} board has {} cells; shift boards hold at most {MAX_CELLS}",
                rows * cols
            )));
        }
        let colours = keys.colours(config).value()?;
        let palette = Palette::new(colours.get()).map_err(|e| colours.error(e))?;
        let geometry = Geometry { rows, cols };
        let goal = parse_goal(config, geometry, &palette, goal.as_ref())?;
        let style = style(&palette);
        let description = format!("Shift {rows} x {cols}");
        // Whole boards, packed: for the pattern goal (checked to fit) and for export.
        let bits = palette.bits_per_cell();
        let fits = geometry.cells() * bits <= 128;
        match goal {
            ShiftGoal::Pattern(target) => {
                let goal = BoardGoal::Target(target.pack(bits));
                let boards = Boards::new(geometry, palette, goal);
                let description = format!("{description}, goal pattern");
                Ok(Kit::new(boards, description)
                    .invertible()
                    .invariant()
                    .build(Mode::BFS)
                    .with_style(style))
            }
            ShiftGoal::Region { region, colour } => {
                let description = format!("{description}, goal region one colour");
                let whole = if fits {
                    let goal = BoardGoal::uniform(region, bits, colour);
                    Kit::new(Boards::new(geometry, palette.clone(), goal), &description)
                        .invertible()
                        .build(Mode::TABLE)
                } else {
                    let message = format!(
                        "export walks whole boards packed in 128 bits: {} cells of {} colours \
                         need {}",
                        geometry.cells(),
                        palette.len(),
                        geometry.cells() * bits
                    );
                    Instance::new(&description)
                        .with_default_mode(Mode::TABLE)
                        .with_export(Box::new(move |board, _, _| {
                            let at = Location::file(&board.file).with_key("export");
                            Err(Error::input(at, message.clone()))
                        }))
                };
                // The one-colour mask space behind the table: every mask of as many cells as the
                // region holds, backward from the masks that fill the region (735,471 masks on
                // 4 x 6). A colour with more cells than the region has its own, larger space;
                // the region's size is the one every colour that can win shares on the HDU board.
                let k = region.count_ones();
                let masks = Kit::new(
                    ColourMasks::new(geometry, region, k),
                    format!(
                        "Shift {rows} x {cols}, one colour's {k}-cell mask, goal: the {k}-cell \
                         region filled"
                    ),
                )
                .table()
                .symmetric()
                .build(Mode::TABLE);
                let region = Arc::new(Region {
                    geometry,
                    palette,
                    solver: RegionSolver::new(geometry, region, colour),
                });
                let mut instance = whole.with_explore_of(masks).with_auto(Mode::TABLE);
                for engine in REGION_ENGINES {
                    let (region, mode) = (region.clone(), engine.mode);
                    instance = instance.with_engine(
                        engine,
                        Box::new(move |board, limits, options, cache| {
                            board.board_only()?;
                            let start = region.geometry.parse(&region.palette, board)?;
                            let answer = region.solver.solve(&start, mode, limits, options, cache);
                            Ok(region.solution(start, mode, answer))
                        }),
                    );
                }
                Ok(instance.with_style(style))
            }
        }
    }
}

/// The engines of a region goal: the library's `table`, `bfs` and `iddfs` run on each colour's
/// mask space, the least answer kept. Each gives one solution (the colours' masks are not one
/// space to list the solutions of).
const REGION_ENGINES: [&Engine; 3] = [
    &Engine {
        gives: Gives::EXACT,
        ..statespace::search::table_engine::ENGINE
    },
    &statespace::search::bfs::ENGINE,
    &Engine {
        gives: Gives::EXACT,
        ..statespace::search::iddfs::ENGINE
    },
];

/// Cells in their letters' colours: the colour a letter usually names, else one of a fixed set.
fn style(palette: &Palette) -> BoardStyle {
    const OTHERS: [&str; 8] = [
        "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#9467bd", "#ff7f0e", "#2ca02c",
    ];
    let colours = (0..palette.len() as u8)
        .map(|c| {
            let letter = palette.letter(c);
            let named = match letter.to_ascii_uppercase() {
                'B' => "#1f77b4",
                'W' => "white",
                'G' => "#2ca02c",
                'R' => "#d62728",
                'Y' => "gold",
                'O' => "#ff7f0e",
                'K' => "black",
                'P' => "#9467bd",
                _ => OTHERS[c as usize % OTHERS.len()],
            };
            (letter, named.to_string())
        })
        .collect();
    BoardStyle::Cells { colours }
}

/// What counts as solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShiftGoal {
    /// Every cell of `region` (a mask) one colour: `colour`, or any when `None`.
    Region {
        /// The region's cells.
        region: u64,
        /// The colour that must fill it, when the goal names one.
        colour: Option<u8>,
    },
    /// Exactly this board.
    Pattern(Board),
}

fn parse_goal(
    config: &Config,
    geometry: Geometry,
    palette: &Palette,
    goal: Option<&ShiftGoalKeys>,
) -> Result<ShiftGoal> {
    let Some(goal) = goal else {
        return Ok(ShiftGoal::Region {
            region: geometry.interior(),
            colour: None,
        });
    };
    let kind = goal.kind.get_ref().as_str();
    // Some exactly for the pattern goal.
    let target = config.pattern_target(&goal.kind, goal.target(config))?;
    if kind != "region-uniform" {
        goal.region(config)
            .refuse("only the region-uniform goal has a region")?;
    }
    let colour = match goal.colour(config).optional()? {
        None => None,
        Some(raw) => {
            let mut letters = raw.get().chars();
            match (
                letters.next().and_then(|l| palette.colour(l)),
                letters.next(),
            ) {
                (Some(c), None) => Some(c),
                _ => {
                    return Err(raw.error(format!("{:?} is not one of {palette}", raw.get())));
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
            let raw = goal.region(config).value()?;
            let bad = |message: String| raw.error(message);
            let [top, left, bottom, right] = raw.get()[..] else {
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
            goal.colour(config)
                .refuse("the pattern goal fixes every colour")?;
            let bits = palette.bits_per_cell();
            if geometry.cells() * bits > 128 {
                return Err(goal.kind_at(config).error(format!(
                    "a pattern goal packs a board in 128 bits: {} cells of {} colours need {}",
                    geometry.cells(),
                    palette.len(),
                    geometry.cells() * bits
                )));
            }
            Ok(ShiftGoal::Pattern(geometry.parse(palette, &text)?))
        }
        // The registry let through only the declared kinds.
        (_, None) => Err(goal.kind_at(config).not_handled()),
    }
}

/// A region goal's engine: the solver, and the board text it reads and writes.
struct Region {
    geometry: Geometry,
    palette: Palette,
    solver: RegionSolver,
}

impl Region {
    fn format(&self, board: &Board) -> String {
        self.geometry.format(&self.palette, board)
    }

    fn solution(&self, board: Board, mode: Mode, answer: RegionAnswer) -> Solution {
        let details = RegionDetails {
            colour: answer.colour.map(|c| self.palette.letter(c)),
            table: answer.table_bytes.map(|(bytes, bits)| TableDetails {
                bytes,
                bits_per_entry: bits,
                reused: answer.table_reused,
                loaded: None,
            }),
        };
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
        Solution::new(mode, self.format(&board), answer_text, answer.stats).with_details(details)
    }
}

/// What a region goal's answer adds: the colour that fills the region and, for `table`, the
/// table it looked up (`colour`, `table_*` in the JSON).
#[derive(Clone, Debug)]
pub struct RegionDetails {
    /// The letter of the colour that fills the region at the end of the path.
    pub colour: Option<char>,
    /// The mask table the answer came from (`table` mode).
    pub table: Option<TableDetails>,
}

impl Details for RegionDetails {
    fn json(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut json = self.table.map(|t| t.json()).unwrap_or_default();
        if let Some(colour) = self.colour {
            json.insert("colour".into(), colour.to_string().into());
        }
        json
    }
}
