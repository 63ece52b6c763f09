//! The tiles plugin: `[puzzle] kind = "tiles"` -> an [`Instance`] through the generic glue.
//!
//! Everything but the keys and the goal is the library's: the kit gives bfs (a bitset over the
//! index), iddfs, the distance table, explore and export, and consults the parity first.

use super::board::parse;
use super::heuristic::{AdditiveGroups, LinearConflict, Manhattan, Transpose, default_heuristic};
use super::space::{MAX_CELLS, Tiles};
use statespace::config::{Config, Keys, Mode};
use statespace::error::Result;
use statespace::instance::Instance;
use statespace::kit::{HeuristicFactory, Kit, SharedHeuristic};
use statespace::limit::Limits;
use statespace::picture::BoardStyle;
use statespace::rank::Permutations;
use statespace::registry::{Plugin, PluginInfo};
use std::sync::Arc;

/// Registered as `tiles`.
pub struct TilesPlugin;

statespace::keys! {
    /// `[puzzle]` of the sliding-tile puzzle.
    pub struct TilesKeys in [puzzle] {
        /// board rows (rows * cols <= 25)
        #[range(2..=(MAX_CELLS / 2) as i64)]
        rows: i64,
        /// board columns (rows * cols <= 25)
        #[range(2..=(MAX_CELLS / 2) as i64)]
        cols: i64,
    }
}

statespace::keys! {
    /// `[goal]` of the sliding-tile puzzle.
    pub struct TilesGoalKeys in [goal] {
        /// the target board, for the pattern goal
        target: String,
    }
}

statespace::keys! {
    /// `[heuristic]` of the sliding-tile puzzle (astar, idastar).
    pub struct TilesHeuristicKeys in [heuristic] {
        /// kind = "pdb": the tiles of each database, disjoint groups (`[[1, 2, 3], [4, 5, 6]]`)
        groups: Vec<Vec<i64>>,
        /// kind = "pdb": also look up the board's reflection about the main diagonal (square boards whose goal has the blank on it; default: when the board has it)
        reflect: bool,
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
            heuristics: &[
                (
                    "default",
                    "the best for the size within the memory budget (the 7-8 databases on 4 x 4)",
                ),
                (
                    "linear-conflict",
                    "Manhattan distance plus linear conflicts",
                ),
                ("manhattan", "Manhattan distance"),
                ("pdb", "additive pattern databases over [heuristic] groups"),
            ],
            heuristic_keys: TilesHeuristicKeys::KEYS,
            scramble: None,
            example: "[puzzle]\nkind = \"tiles\"\nrows = 3\ncols = 3\n",
            engines: &[],
        }
    }

    fn build(&self, config: &Config, _limits: &Limits) -> Result<Instance> {
        // The setup is bounded by the keys' ranges (no file to read): nothing to count.
        let (keys, goal) = config.sections::<TilesKeys, TilesGoalKeys>()?;
        let rows = keys.rows(config).value()?.value() as u8;
        let cols_checked = keys.cols(config).value()?;
        let cols = cols_checked.value() as u8;
        let cells = rows as usize * cols as usize;
        if cells > MAX_CELLS {
            let message = format!("a {rows} x {cols} board has {cells} cells; at most {MAX_CELLS}");
            return Err(cols_checked.error(message));
        }
        let (target, name) = match &goal {
            None => (Tiles::ordered(rows, cols), "ordered"),
            Some(goal) => match (
                config.pattern_target(&goal.kind, goal.target(config))?,
                goal.kind.get_ref().as_str(),
            ) {
                (Some(text), _) => (parse(rows, cols, &text)?, "pattern"),
                (None, "ordered") => (Tiles::ordered(rows, cols), "ordered"),
                (None, other) => {
                    let message = format!("unknown tiles goal `{other}` (known: ordered, pattern)");
                    return Err(goal.kind_at(config).error(message));
                }
            },
        };
        let description = format!("Sliding tiles {rows} x {cols}, goal {name}");
        let tiles = Tiles::new(rows, cols, target);
        let symmetric = tiles.transpose().is_some();
        let heuristic = heuristic(config, &tiles)?;
        let kit = Kit::new(tiles, description)
            .goals()
            .invariant()
            .heuristic_from(heuristic);
        // Ranks fit a u64 up to 20 cells; beyond, no index (and no table could fit anyway).
        // The reflection, where the goal has one: the table is built an orbit at a time.
        let kit = match (cells <= Permutations::MAX_LEN as usize, symmetric) {
            (true, true) => kit.table().symmetric(),
            (true, false) => kit.table(),
            (false, _) => kit,
        };
        Ok(kit.build(Mode::AUTO).with_style(BoardStyle::Tiles))
    }
}

/// `[heuristic]` for astar and idastar: `kind` is `default` (also when the section is absent:
/// the best for the size within the memory budget, [`default_heuristic`]: the 7-8 databases on
/// 4 x 4, built by the first solve and cached), `linear-conflict` (no table to build, so a first
/// solve starts at once), `manhattan`, or `pdb`: additive pattern databases over the `groups` of
/// tiles (disjoint), also looked up in the board's reflection about the main diagonal unless
/// `reflect = false` (square boards whose goal has the blank on the diagonal); built by the
/// first solve that needs them, within its memory budget, and cached on disk. Every reason to
/// refuse the groups is found here, so that building can only meet a limit.
fn heuristic(config: &Config, tiles: &Tiles) -> Result<HeuristicFactory<Tiles>> {
    let keys = config.section::<TilesHeuristicKeys>()?;
    let kind = keys.as_ref().map(|keys| keys.kind.get_ref().as_str());
    if let Some(keys) = keys.as_ref().filter(|_| kind != Some("pdb")) {
        let why = "only with kind = \"pdb\"";
        keys.groups(config).refuse(why)?;
        keys.reflect(config).refuse(why)?;
    }
    let ready = |h: SharedHeuristic<Tiles>| -> HeuristicFactory<Tiles> {
        Arc::new(move |_, _| Ok(h.clone()))
    };
    match (kind, &keys) {
        (Some("pdb"), Some(keys)) => {
            let groups = additive_groups(config, tiles, keys)?;
            Ok(Arc::new(move |limits, cache| {
                Ok(Arc::new(groups.build(limits, Some(cache))?) as SharedHeuristic<Tiles>)
            }))
        }
        (Some("linear-conflict"), _) => Ok(ready(Arc::new(LinearConflict::new(tiles)))),
        (Some("manhattan"), _) => Ok(ready(Arc::new(Manhattan::new(tiles)))),
        // `default`, or no section (the registry refused any other kind).
        _ => {
            let tiles = tiles.clone();
            Ok(Arc::new(move |limits, cache| {
                let chosen = default_heuristic(&tiles, limits, Some(cache));
                Ok(Arc::from(chosen.heuristic) as SharedHeuristic<Tiles>)
            }))
        }
    }
}

/// `[heuristic] groups` and `reflect`, checked against the board.
fn additive_groups(
    config: &Config,
    tiles: &Tiles,
    keys: &TilesHeuristicKeys,
) -> Result<AdditiveGroups> {
    let raw = keys.groups(config).value()?;
    let mut groups = Vec::new();
    let mut seen = vec![false; tiles.cells()];
    for group in raw.get() {
        let mut tiles_of = Vec::new();
        for &tile in group {
            let t = usize::try_from(tile)
                .ok()
                .filter(|&t| t > 0 && t < seen.len());
            let t = t.ok_or_else(|| {
                raw.error(format!("{tile} is not a tile (1 to {})", seen.len() - 1))
            })?;
            if std::mem::replace(&mut seen[t], true) {
                return Err(raw.error(format!("tile {t} is in two groups: groups are disjoint")));
            }
            tiles_of.push(t as u8);
        }
        groups.push(tiles_of);
    }
    let symmetric = Transpose::new(tiles).is_some();
    let reflect = match keys.reflect(config).optional()? {
        Some(r) if r.value() && !symmetric => {
            let why =
                "the reflection needs a square board whose goal has the blank on the diagonal";
            return Err(r.error(why));
        }
        Some(r) => r.value(),
        None => symmetric,
    };
    AdditiveGroups::new(tiles, &groups, reflect).map_err(|e| raw.error(e.to_string()))
}
