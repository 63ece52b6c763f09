//! The tiles plugin: `[puzzle] kind = "tiles"` -> an [`Instance`] through the generic glue.
//!
//! Everything but the keys and the goal is the library's: the kit gives bfs (a bitset over the
//! index), iddfs, the distance table, explore and export, and consults the parity first.

use super::board::parse;
use super::heuristic::{LinearConflict, Manhattan, Transpose, additive, default_heuristic};
use super::space::{MAX_CELLS, Tiles};
use statespace::config::{Config, Keys, Mode};
use statespace::error::Result;
use statespace::instance::Instance;
use statespace::kit::{HeuristicFactory, Kit, SharedHeuristic};
use statespace::limit::Limits;
use statespace::picture::BoardStyle;
use statespace::rank::Permutations;
use statespace::registry::{Plugin, PluginInfo};
use statespace::search::pdb::PdbError;
use std::sync::Arc;

/// Registered as `tiles`.
pub struct TilesPlugin;

statespace::keys! {
    /// `[puzzle]` of the sliding-tile puzzle.
    pub struct TilesKeys {
        /// board rows, 2 to 12 (rows * cols <= 25)
        rows: i64,
        /// board columns, 2 to 12 (rows * cols <= 25)
        cols: i64,
    }
}

statespace::keys! {
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
            engines: &[],
        }
    }

    fn build(&self, config: &Config, _limits: &Limits) -> Result<Instance> {
        // The setup is bounded by the keys' ranges (no file to read): nothing to count.
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
        let tiles = Tiles::new(rows, cols, target);
        let heuristic = heuristic(config, &tiles)?;
        let kit = Kit::new(tiles, description)
            .invertible()
            .invariant()
            .heuristic_from(heuristic);
        // Ranks fit a u64 up to 20 cells; beyond, no index (and no table could fit anyway).
        let kit = if cells <= Permutations::MAX_LEN as usize {
            kit.table()
        } else {
            kit
        };
        Ok(kit.build(Mode::AUTO).with_style(BoardStyle::Tiles))
    }
}

/// `[search] heuristic` for astar and idastar: `default` (when the key is absent: the best for the
/// size within the memory budget, [`default_heuristic`]: the 7-8 databases on 4 x 4, built by the
/// first solve and cached), `linear-conflict` (no table to build, so a first solve starts at
/// once), `manhattan`, or `pdb`: additive pattern databases over the
/// `[search] pdb` tile groups (disjoint), also looked up in the board's reflection about the main
/// diagonal unless `reflect = false` (square boards whose goal has the blank on the diagonal);
/// built by the first solve that needs them, within its memory budget, and cached on disk.
fn heuristic(config: &Config, tiles: &Tiles) -> Result<HeuristicFactory<Tiles>> {
    let search = &config.search;
    let name = search.heuristic.as_ref();
    if name.is_none_or(|n| n.get_ref() != "pdb") {
        config.refuse(&search.pdb, "search.pdb", "only with heuristic = \"pdb\"")?;
        config.refuse(
            &search.reflect,
            "search.reflect",
            "only with heuristic = \"pdb\"",
        )?;
    }
    let ready = |h: SharedHeuristic<Tiles>| -> HeuristicFactory<Tiles> {
        Arc::new(move |_, _| Ok(h.clone()))
    };
    match name.map(|n| n.get_ref().as_str()) {
        None | Some("default") => {
            let tiles = tiles.clone();
            Ok(Arc::new(move |limits, cache| {
                let chosen = default_heuristic(&tiles, limits, Some(cache));
                Ok(Arc::from(chosen.heuristic) as SharedHeuristic<Tiles>)
            }))
        }
        Some("linear-conflict") => Ok(ready(Arc::new(LinearConflict::new(tiles)))),
        Some("manhattan") => Ok(ready(Arc::new(Manhattan::new(tiles)))),
        Some("pdb") => {
            let raw = search
                .pdb
                .as_ref()
                .ok_or_else(|| config.missing("search.pdb"))?;
            let bad = |m: String| config.error_at(raw.span(), "search.pdb", m);
            let mut groups = Vec::new();
            let mut seen = vec![false; tiles.cells()];
            for group in raw.get_ref() {
                let mut tiles_of = Vec::new();
                for &tile in group {
                    let t = usize::try_from(tile)
                        .ok()
                        .filter(|&t| t > 0 && t < seen.len());
                    let t = t.ok_or_else(|| {
                        bad(format!("{tile} is not a tile (1 to {})", seen.len() - 1))
                    })?;
                    if std::mem::replace(&mut seen[t], true) {
                        return Err(bad(format!(
                            "tile {t} is in two groups: groups are disjoint"
                        )));
                    }
                    tiles_of.push(t as u8);
                }
                groups.push(tiles_of);
            }
            let reflect = match &search.reflect {
                Some(r) if *r.get_ref() && Transpose::new(tiles).is_none() => {
                    let why = "the reflection needs a square board whose goal has the blank on the diagonal";
                    return Err(config.error_at(r.span(), "search.reflect", why));
                }
                Some(r) => *r.get_ref(),
                None => Transpose::new(tiles).is_some(),
            };
            let tiles = tiles.clone();
            // Each group is checked here (its size, its tiles), so that building can only meet
            // the memory budget.
            for group in &groups {
                super::heuristic::TileGroup::new(&tiles, group).map_err(|e| bad(e.to_string()))?;
            }
            Ok(Arc::new(move |limits, cache| {
                match additive(&tiles, &groups, reflect, limits, Some(cache)) {
                    Ok(pdb) => Ok(Arc::new(pdb) as SharedHeuristic<Tiles>),
                    Err(PdbError::Limit(limit)) => Err(limit),
                    Err(PdbError::Invalid(why)) => {
                        unreachable!("checked when the config was read: {why}")
                    }
                }
            }))
        }
        Some(other) => {
            let message = format!(
                "unknown tiles heuristic `{other}` (known: default, linear-conflict, manhattan, pdb)"
            );
            Err(config.error_at(name.expect("some").span(), "search.heuristic", message))
        }
    }
}
