//! [`default_heuristic`]: the heuristic a board size gets when the config names none, chosen by
//! the memory budget and falling back when a build is stopped.

use super::manhattan::LinearConflict;
use super::tile_pdb::{SPLIT_6_6_3, SPLIT_7_8, additive, groups_by_goal_cells};
use super::transpose::Transpose;
use crate::space::Tiles;
use statespace::cache::TableCache;
use statespace::kit::SharedHeuristic;
use statespace::limit::Limits;
use std::sync::Arc;

/// The default heuristic of a board size, and its name for reports.
pub struct DefaultHeuristic {
    /// What was chosen: `"pdb 7-8 reflected"`, `"pdb 6-6-3"`, `"linear-conflict"`, ...
    pub name: String,
    /// The heuristic.
    pub heuristic: SharedHeuristic<Tiles>,
}

/// The best heuristic of the [`heuristic`](super) module for `tiles` within `limits`:
///
/// - 4 x 4: the blank-aware 7-8 additive databases (reflected when the goal allows,
///   [`Transpose::new`]) when they fit `limits.memory_budget` (576 MB held; the 8-tile group's
///   build holds 1.04 GB); else 6-6-3 (12 MB); else linear conflict. The first call builds the
///   tables (minutes for 7-8; [`build_all`](statespace::search::pdb::build_all) notes it first)
///   and saves them in `cache`; later calls map them from the cache (tens of milliseconds).
/// - every other size: linear conflict. (3 x 3 is better served by the whole distance table;
///   the 24-puzzle's 6-6-6-6 databases are not offered as a default: 127.5 M placements each,
///   half a gigabyte per group to build, minutes in all; `configs/tiles-24.toml` names them.)
///
/// A build stopped by a limit (memory, time, Ctrl-C) falls back to the next choice.
pub fn default_heuristic(
    tiles: &Tiles,
    limits: &Limits,
    cache: Option<&TableCache>,
) -> DefaultHeuristic {
    if tiles.shape() == (4, 4) {
        let reflect = Transpose::new(tiles).is_some();
        let suffix = if reflect { " reflected" } else { "" };
        for (name, split) in [("7-8", &SPLIT_7_8[..]), ("6-6-3", &SPLIT_6_6_3[..])] {
            let groups = groups_by_goal_cells(tiles, split);
            if let Ok(h) = additive(tiles, &groups, reflect, limits, cache) {
                return DefaultHeuristic {
                    name: format!("pdb {name}{suffix}"),
                    heuristic: Arc::new(h),
                };
            }
        }
    }
    DefaultHeuristic {
        name: "linear-conflict".into(),
        heuristic: Arc::new(LinearConflict::new(tiles)),
    }
}
