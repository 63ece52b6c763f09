//! The tiles plugin: `[puzzle] kind = "tiles"` -> an [`Instance`] through the generic glue.
//!
//! Everything but the keys and the goal is the library's: the kit gives bfs (a bitset over the
//! index), iddfs, the distance table, explore and export, and consults the parity first.

use super::board::parse;
use super::space::{MAX_CELLS, Tiles};
use crate::config::{Config, Keys, Mode};
use crate::error::Result;
use crate::instance::Instance;
use crate::kit::Kit;
use crate::picture::BoardStyle;
use crate::rank::Permutations;
use crate::registry::{Plugin, PluginInfo};

/// Registered as `tiles`.
pub struct TilesPlugin;

crate::keys! {
    /// `[puzzle]` of the sliding-tile puzzle.
    pub struct TilesKeys {
        /// board rows, 2 to 12 (rows * cols <= 25)
        rows: i64,
        /// board columns, 2 to 12 (rows * cols <= 25)
        cols: i64,
    }
}

crate::keys! {
    /// `[goal]` of the sliding-tile puzzle.
    pub struct TilesGoalKeys {
        /// the target board, for the pattern goal
        target: String,
    }
}

impl Plugin for TilesPlugin {
    fn info(&self) -> PluginInfo {
        PluginInfo {
            kind: "tiles",
            summary: "sliding tiles (8-, 15-, 24-puzzle): a tile next to the blank slides into it",
            puzzle_keys: TilesKeys::KEYS,
            goals: &[
                (
                    "ordered",
                    "1 to n-1 in row-major order, the blank last (default)",
                ),
                ("pattern", "the board in [goal] target"),
            ],
            goal_keys: TilesGoalKeys::KEYS,
            example: "[puzzle]\nkind = \"tiles\"\nrows = 3\ncols = 3\n",
        }
    }

    fn build(&self, config: &Config) -> Result<Instance> {
        let (keys, goal) = config.sections::<TilesKeys, TilesGoalKeys>()?;
        let side = 2..=(MAX_CELLS / 2) as i64;
        let rows = config.int_in(&keys.rows, "puzzle.rows", side.clone())? as u8;
        let cols = config.int_in(&keys.cols, "puzzle.cols", side)? as u8;
        let cells = rows as usize * cols as usize;
        if cells > MAX_CELLS {
            let span = keys.cols.as_ref().expect("checked above").span();
            let message = format!("a {rows} x {cols} board has {cells} cells; at most {MAX_CELLS}");
            return Err(config.error_at(span, "puzzle.cols", message));
        }
        let (target, name) = match &goal {
            None => (Tiles::ordered(rows, cols), "ordered"),
            Some(goal) => match (
                config.pattern_target(&goal.kind, &goal.target)?,
                goal.kind.get_ref().as_str(),
            ) {
                (Some(text), _) => (parse(rows, cols, &text)?, "pattern"),
                (None, "ordered") => (Tiles::ordered(rows, cols), "ordered"),
                (None, other) => {
                    let message = format!("unknown tiles goal `{other}` (known: ordered, pattern)");
                    return Err(config.error_at(goal.kind.span(), "goal.kind", message));
                }
            },
        };
        let description = format!("Sliding tiles {rows} x {cols}, goal {name}");
        let kit = Kit::new(Tiles::new(rows, cols, target), description)
            .invertible()
            .invariant();
        // Ranks fit a u64 up to 20 cells; beyond, no index (and no table could fit anyway).
        let kit = if cells <= Permutations::MAX_LEN as usize {
            kit.table()
        } else {
            kit
        };
        Ok(kit.build(Mode::Auto).with_style(BoardStyle::Tiles))
    }
}
