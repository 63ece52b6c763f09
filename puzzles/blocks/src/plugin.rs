//! The blocks plugin: `[puzzle] kind = "blocks"` -> an [`Instance`] through the generic glue.
//!
//! ```toml
//! [puzzle]
//! kind = "blocks"
//! metric = "unit"                       # unit | line | path
//! shapes = { V = "2x1", S = "1x1" }     # letters that write several pieces of one size
//! [goal]
//! kind = "place"                        # place | pattern
//! piece = "B"
//! at = [4, 2]                           # row, column of its top-left cell, 1-based
//! [start]
//! board = """
//! VBBV
//! VBBV
//! VHHV
//! VSSV
//! S..S
//! """
//! ```
//!
//! The `[start]` board gives the pieces (every board after it has the same ones). Every
//! position of them is listed into the core's sorted index ([`Enumerated`]): when they fit the
//! memory budget (16 bytes a position) and [`MAX_INDEXED`], the kit gives bitset BFS, the
//! distance table, explore (both ways) and export; else BFS with a hash set, IDDFS and explore
//! from the start. A place goal adds A* and IDA* ([`PlaceDistance`]); `auto` stays with the
//! table, or bidirectional BFS where the table is too large for it, and runs IDA* only where
//! there is no index.

use crate::geometry::Geometry;
use crate::goal::Goal;
use crate::heuristic::PlaceDistance;
use crate::inventory::{Layout, Options};
use crate::moves::Metric;
use crate::space::Blocks;
use statespace::config::{Checked, Config, Keys, Mode};
use statespace::error::{Error, Location, Result};
use statespace::index::{Enumerated, IndexedBy};
use statespace::instance::Instance;
use statespace::kit::{AUTO_TABLE_MAX_STATES, Kit};
use statespace::limit::{Limit, Limits, human_bytes};
use statespace::picture::{Block, BoardStyle};
use statespace::registry::{Plugin, PluginInfo};
use std::collections::BTreeMap;

/// Registered as `blocks`.
pub struct BlocksPlugin;

/// The most positions the plugin indexes: past it (or past the memory budget, at 16 bytes a
/// position) the puzzle is searched without an index, and the listing stops as soon as it
/// passes (about a second of listing).
pub const MAX_INDEXED: u64 = 1 << 26;

statespace::keys! {
    /// `[puzzle]` of sliding-block puzzles.
    pub struct BlocksKeys in [puzzle] {
        /// how far one move takes a piece: unit (one cell), line (any distance in a straight line), path (anywhere it can reach through free cells)
        #[choices("unit", "line", "path")]
        #[default("unit")]
        metric: String,
        /// letters that write several pieces of one size, as rows x columns: { V = "2x1", S = "1x1" }; any other letter is one piece
        shapes: BTreeMap<String, String>,
        /// pieces of one shape are alike whatever their letters (the goal's piece stays itself)
        #[default(true)]
        interchangeable: bool,
        /// the ways a piece moves: any, or length (only along its longer side, as Rush Hour's cars)
        #[choices("any", "length")]
        #[default("any")]
        axis: String,
    }
}

statespace::keys! {
    /// `[goal]` of sliding-block puzzles.
    pub struct BlocksGoalKeys in [goal] {
        /// kind = "place": the letter of the piece to bring there
        piece: String,
        /// kind = "place": [row, column] of that piece's top-left cell, 1-based
        at: Vec<i64>,
        /// kind = "pattern": the whole board to reach
        target: String,
    }
}

impl Plugin for BlocksPlugin {
    fn info(&self) -> PluginInfo {
        PluginInfo {
            kind: "blocks",
            summary: "sliding blocks (Klotski, Rush Hour): rectangular pieces written as letters; a \
                      move slides one piece",
            puzzle_keys: BlocksKeys::KEYS,
            goals: &[
                (
                    "place",
                    "the piece [goal] piece with its top-left cell at [goal] at",
                ),
                ("pattern", "the board in [goal] target"),
            ],
            goal_keys: BlocksGoalKeys::KEYS,
            heuristics: &[(
                "distance",
                "the goal's piece's distance to its place in the metric's moves (place goals)",
            )],
            heuristic_keys: &[],
            scramble: None,
            example: "[puzzle]\nkind = \"blocks\"\n[goal]\nkind = \"place\"\npiece = \"X\"\n\
                      at = [2, 1]\n[start]\nboard = \"\"\"\nXA\n.A\n\"\"\"\n",
            engines: &[],
        }
    }

    fn build(&self, config: &Config, limits: &Limits) -> Result<Instance> {
        let (keys, goal) = config.sections::<BlocksKeys, BlocksGoalKeys>()?;
        let goal = goal.ok_or_else(|| {
            Error::input(
                Location::file(&config.name).with_key("goal"),
                "missing: a [goal] of kind \"place\" (piece, at) or \"pattern\" (target)",
            )
        })?;
        let start = config.start_board().ok_or_else(|| {
            Error::input(
                Location::file(&config.name).with_key("start.board"),
                "missing: the [start] board gives a blocks puzzle its pieces",
            )
        })?;
        start.board_only()?;
        // Both keys' values were checked against their declared choices as the section was read.
        let metric_key = keys.metric(config).value()?;
        let metric = Metric::named(metric_key.get()).ok_or_else(|| metric_key.not_handled())?;
        let along_length = keys.axis(config).value()?.get() == "length";
        let declared = declared_shapes(&keys, config)?;
        let kind = goal.kind_at(config);
        let piece = match kind.get().as_str() {
            "place" => {
                goal.target(config)
                    .refuse("only the pattern goal has a target")?;
                Some(goal.piece(config).value()?)
            }
            "pattern" => {
                goal.piece(config)
                    .refuse("only the place goal names a piece")?;
                goal.at(config).refuse("only the place goal has a place")?;
                None
            }
            // The registry let through only the declared kinds.
            _ => return Err(kind.not_handled()),
        };
        let goal_letter = match &piece {
            Some(piece) => Some(letter(piece)?),
            None => None,
        };
        let options = Options {
            interchangeable: keys.interchangeable(config).value()?.value(),
            along_length,
            goal_letter,
        };
        let layout = Layout::from_start(&start, &|l| declared.get(&l).copied(), options)?;
        let (goal, goal_name) = match (goal_letter, &piece) {
            (Some(letter), Some(piece)) => {
                place_goal(&layout, letter, piece, goal.at(config).value()?)?
            }
            _ => {
                let target = config
                    .pattern_target(&goal.kind, goal.target(config))?
                    .expect("the pattern goal has its target");
                (Goal::Pattern(layout.parse(&target)?), "pattern".to_string())
            }
        };
        let geometry = layout.pieces.geometry;
        let count: u32 = layout.pieces.classes.iter().map(|c| c.count as u32).sum();
        let description = format!(
            "Blocks {} x {}, {count} pieces, metric {}, goal {goal_name}",
            geometry.rows,
            geometry.cols,
            metric.name()
        );
        let style = style(&layout, goal_letter);
        let blocks = Blocks::new(layout, metric, goal);
        let estimate = PlaceDistance::of(&blocks);
        let instance = match index(&blocks, limits) {
            Ok(index) => {
                // The estimate sees one piece: where the table is too large for `auto`, meeting
                // in the middle beats it (the kit's rule would run IDA*).
                let small = u128::from(index.len()) <= AUTO_TABLE_MAX_STATES;
                let kit = Kit::new(IndexedBy::new(blocks, index), description).table();
                match estimate {
                    Some(estimate) if !small => kit
                        .heuristic(estimate)
                        .build(Mode::AUTO)
                        .with_auto(Mode::BIDIRECTIONAL),
                    Some(estimate) => kit.heuristic(estimate).build(Mode::AUTO),
                    None => kit.build(Mode::AUTO),
                }
            }
            Err(Limit::Memory { needed, .. }) => {
                let note = format!(
                    "for {description}: its positions ({} at least) are more than the index \
                     takes; bfs, iddfs and explore from the start still run",
                    human_bytes(needed)
                );
                let kit = Kit::new(blocks, description).invertible();
                let kit = match estimate {
                    Some(estimate) => kit.heuristic(estimate),
                    None => kit,
                };
                kit.build(Mode::AUTO).with_note(note)
            }
            Err(limit) => {
                let location = Location::file(&start.file).with_key("start.board");
                return Err(Error::Limit { location, limit });
            }
        };
        Ok(instance.with_style(style))
    }
}

/// Every position of the pieces, indexed; `Limit::Memory` when they pass the budget or
/// [`MAX_INDEXED`] (the listing stops there).
fn index(blocks: &Blocks, limits: &Limits) -> std::result::Result<Enumerated<u128>, Limit> {
    let cap = MAX_INDEXED * Enumerated::<u128>::BYTES_PER_STATE as u64;
    let capped = Limits {
        memory_budget: limits.memory_budget.min(cap),
        ..limits.clone()
    };
    Enumerated::enumerate(&capped, |visit| blocks.every_position(visit))
}

/// `[puzzle] shapes`: letter -> `(rows, cols)`.
fn declared_shapes(keys: &BlocksKeys, config: &Config) -> Result<BTreeMap<u8, (u8, u8)>> {
    let Some(shapes) = keys.shapes(config).optional()? else {
        return Ok(BTreeMap::new());
    };
    let mut declared = BTreeMap::new();
    for (name, size) in shapes.get() {
        let letter = letter_of(name).map_err(|why| shapes.error(why))?;
        let parsed = size
            .split_once(['x', 'X'])
            .and_then(|(r, c)| Some((r.trim().parse::<u8>().ok()?, c.trim().parse::<u8>().ok()?)))
            .filter(|&(r, c)| r >= 1 && c >= 1 && r as usize * c as usize <= Geometry::MAX_CELLS);
        let shape = parsed.ok_or_else(|| {
            shapes.error(format!(
                "{name} = \"{size}\": a size is rows x columns, like \"2x1\""
            ))
        })?;
        declared.insert(letter, shape);
    }
    Ok(declared)
}

/// A piece's letter as written in a key: one ASCII letter.
fn letter_of(text: &str) -> std::result::Result<u8, String> {
    match text.as_bytes() {
        [b] if b.is_ascii_alphabetic() => Ok(*b),
        _ => Err(format!(
            "`{text}` is not a piece's letter (one letter, A to Z or a to z)"
        )),
    }
}

/// `[goal] piece`'s letter.
fn letter(piece: &Checked<String>) -> Result<u8> {
    letter_of(piece.get()).map_err(|why| piece.error(why))
}

/// The place goal: `letter`'s piece with its top-left cell at `at` (1-based row and column).
fn place_goal(
    layout: &Layout,
    letter: u8,
    piece: &Checked<String>,
    at: Checked<Vec<i64>>,
) -> Result<(Goal, String)> {
    let geometry = &layout.pieces.geometry;
    let (row, col) = match at.get()[..] {
        [r, c]
            if (1..=geometry.rows as i64).contains(&r)
                && (1..=geometry.cols as i64).contains(&c) =>
        {
            (r as u8 - 1, c as u8 - 1)
        }
        _ => {
            return Err(at.error(format!(
                "a place is [row, column], 1 to {} and 1 to {}",
                geometry.rows, geometry.cols
            )));
        }
    };
    let anchor = geometry.cell(row, col);
    let class = layout
        .class_of(letter, anchor)
        .map_err(|why| piece.error(why))?;
    let kind = &layout.pieces.classes[class];
    if kind.allowed >> anchor & 1 == 0 {
        return Err(at.error(format!(
            "a {} x {} piece cannot have its top-left cell at row {}, column {}",
            kind.shape.rows,
            kind.shape.cols,
            row + 1,
            col + 1
        )));
    }
    let name = format!("{} at r{}c{}", letter as char, row + 1, col + 1);
    Ok((
        Goal::Place {
            class,
            anchor: anchor as u32,
        },
        name,
    ))
}

/// Pieces drawn as blocks: each letter with its size and a colour, the goal's piece red.
fn style(layout: &Layout, goal_letter: Option<u8>) -> BoardStyle {
    const PALETTE: [&str; 8] = [
        "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#bab0ac",
    ];
    let pieces = layout
        .shapes()
        .into_iter()
        .enumerate()
        .map(|(i, (letter, rows, cols))| Block {
            letter,
            rows,
            cols,
            colour: match goal_letter == Some(letter as u8) {
                true => "#e15759".to_string(),
                false => PALETTE[i % PALETTE.len()].to_string(),
            },
        })
        .collect();
    BoardStyle::Blocks { pieces }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declared_metrics_are_the_metrics_known() {
        assert_eq!(BlocksKeys::KEYS[0].choices, Metric::NAMES);
        assert!(Metric::NAMES.iter().all(|n| Metric::named(n).is_some()));
    }
}
