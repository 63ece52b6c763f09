//! The peg solitaire plugin: `[puzzle] kind = "peg"` -> an [`Instance`] through the kit.
//!
//! ```toml
//! [puzzle]
//! kind = "peg"
//! shape = "square"          # square (jumps along rows and columns) | triangle (and a diagonal)
//! [goal]
//! kind = "centre"           # centre (the default) | one-peg | pattern (target)
//! [start]
//! board = """
//!   ooo
//!   ooo
//! ooooooo
//! ooo.ooo
//! ooooooo
//!   ooo
//!   ooo
//! """
//! ```
//!
//! The `[start]` board gives the holes (see [`board`](crate::board)); every board after it
//! (`--board`, a pattern goal) has the same ones.

use crate::board::{Board, Shape};
use crate::goal::Goal;
use crate::space::{JumpsLeft, Peg};
use statespace::board_text::BoardText;
use statespace::config::{Config, Keys, Mode};
use statespace::error::{Error, Location, Result};
use statespace::instance::Instance;
use statespace::kit::Kit;
use statespace::limit::Limits;
use statespace::picture::BoardStyle;
use statespace::registry::{Plugin, PluginInfo};

/// Registered as `peg`.
pub struct PegPlugin;

statespace::keys! {
    /// `[puzzle]` of peg solitaire.
    pub struct PegKeys in [puzzle] {
        /// the directions of a jump: square (along rows and columns), triangle (also along the diagonal down-right, rows written left-aligned)
        #[choices("square", "triangle")]
        #[default("square")]
        shape: String,
    }
}

statespace::keys! {
    /// `[goal]` of peg solitaire.
    pub struct PegGoalKeys in [goal] {
        /// kind = "pattern": the whole board to reach
        target: String,
    }
}

impl Plugin for PegPlugin {
    fn info(&self) -> PluginInfo {
        PluginInfo {
            kind: "peg",
            summary: "peg solitaire (the English cross, the triangle, any board of up to 64 \
                      holes): a move jumps a peg over its neighbour into a hole, removing it",
            puzzle_keys: PegKeys::KEYS,
            goals: &[
                (
                    "centre",
                    "one peg, in the board's centre hole (the default without a [goal])",
                ),
                ("one-peg", "one peg, in any hole"),
                ("pattern", "the board in [goal] target"),
            ],
            goal_keys: PegGoalKeys::KEYS,
            heuristics: &[],
            heuristic_keys: &[],
            scramble: None,
            example: "[puzzle]\nkind = \"peg\"\n[goal]\nkind = \"one-peg\"\n[start]\n\
                      board = \"\"\"\noo.o\n\"\"\"\n",
            engines: &[],
        }
    }

    fn build(&self, config: &Config, _limits: &Limits) -> Result<Instance> {
        let (keys, goal) = config.sections::<PegKeys, PegGoalKeys>()?;
        // Checked against its declared choices as the section was read.
        let shape_key = keys.shape(config).value()?;
        let shape = Shape::named(shape_key.get()).ok_or_else(|| shape_key.not_handled())?;
        let start = config.start_board().ok_or_else(|| {
            Error::input(
                Location::file(&config.name).with_key("start.board"),
                "missing: the [start] board gives a peg solitaire its holes",
            )
        })?;
        start.board_only()?;
        let (board, _) = Board::read_start(&start, shape)?;
        let (goal, goal_name) = match &goal {
            None => centre(&board, &start)?,
            Some(keys) => {
                let kind = keys.kind_at(config);
                let target = config.pattern_target(&keys.kind, keys.target(config))?;
                match (kind.get().as_str(), target) {
                    ("centre", _) => centre(&board, &start)?,
                    ("one-peg", _) => (Goal::OnePeg, "one peg".to_string()),
                    ("pattern", Some(target)) => {
                        (Goal::Board(board.read(&target)?), "pattern".to_string())
                    }
                    // The registry let through only the declared kinds.
                    _ => return Err(kind.not_handled()),
                }
            }
        };
        let description = format!(
            "Peg solitaire, {} holes ({}), goal {goal_name}",
            board.holes.len(),
            shape.name()
        );
        let style = BoardStyle::Cells {
            colours: vec![
                ('o', "#8c510a".to_string()),
                ('.', "#f6e8c3".to_string()),
                ('#', "white".to_string()),
            ],
        };
        Ok(Kit::new(Peg::new(board, goal), description)
            .invariant()
            .heuristic(JumpsLeft)
            .build(Mode::AUTO)
            .with_style(style))
    }
}

/// The centre goal: one peg, in the hole at the middle of the board's rows and columns.
fn centre(board: &Board, start: &BoardText) -> Result<(Goal, String)> {
    let (rows, cols) = (board.rows as usize, board.cols as usize);
    let hole = match rows % 2 == 1 && cols % 2 == 1 {
        true => board.hole(rows / 2, cols / 2),
        false => None,
    };
    let hole = hole.ok_or_else(|| {
        start.error_whole(format!(
            "the board ({rows} x {cols}) has no centre hole for the goal `centre`: give [goal] \
             kind = \"one-peg\" or \"pattern\""
        ))
    })?;
    let name = format!("one peg at r{}c{}", rows / 2 + 1, cols / 2 + 1);
    Ok((Goal::Board(1 << hole), name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declared_shapes_are_the_shapes_known() {
        assert_eq!(PegKeys::KEYS[0].choices, Shape::NAMES);
        assert!(
            Shape::NAMES
                .iter()
                .all(|n| Shape::named(n).unwrap().name() == *n)
        );
    }
}
