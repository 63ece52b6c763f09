//! The `[heuristic]` section of a tiles config: its keys, checked against the board into the
//! factory of the heuristic it names ([`from_config`]), so that the plugin only hands that
//! factory to the kit.

use super::factory::default_heuristic;
use super::manhattan::{LinearConflict, Manhattan};
use super::tile_pdb::AdditiveGroups;
use super::transpose::Transpose;
use crate::space::Tiles;
use statespace::config::Config;
use statespace::error::Result;
use statespace::kit::{HeuristicFactory, SharedHeuristic};
use std::sync::Arc;

statespace::keys! {
    /// `[heuristic]` of the sliding-tile puzzle (astar, idastar).
    pub struct TilesHeuristicKeys in [heuristic] {
        /// kind = "pdb": the tiles of each database, disjoint groups (`[[1, 2, 3], [4, 5, 6]]`)
        groups: Vec<Vec<i64>>,
        /// kind = "pdb": also look up the board's reflection about the main diagonal (square boards whose goal has the blank on it; default: when the board has it)
        reflect: bool,
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
pub fn from_config(config: &Config, tiles: &Tiles) -> Result<HeuristicFactory<Tiles>> {
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
                Ok(chosen.heuristic)
            }))
        }
    }
}

/// `[heuristic] groups` and `reflect`, checked against the board.
pub(crate) fn additive_groups(
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
