//! The tiles plugin: `[puzzle] kind = "tiles"` -> an [`Instance`] through the generic glue.
//!
//! Everything but the keys and the goal is the library's: the kit gives bfs (a bitset over the
//! index), iddfs, the distance table, explore and export, and consults the parity first. The
//! `[heuristic]` section is read by the heuristics ([`keys`](crate::heuristic::keys)).

use super::board::parse;
use super::heuristic::TilePdb;
use super::heuristic::keys::{TilesHeuristicKeys, from_config};
use super::space::{MAX_CELLS, Tiles};
use statespace::config::{Config, Keys, Mode};
use statespace::error::Result;
use statespace::instance::Instance;
use statespace::kit::Kit;
use statespace::limit::Limits;
use statespace::picture::BoardStyle;
use statespace::rank::Permutations;
use statespace::registry::{Plugin, PluginInfo};

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
                // The registry let through only the declared kinds.
                (None, _) => return Err(goal.kind_at(config).not_handled()),
            },
        };
        let description = format!("Sliding tiles {rows} x {cols}, goal {name}");
        let tiles = Tiles::new(rows, cols, target);
        let symmetric = tiles.transpose().is_some();
        let heuristic = from_config(config, &tiles)?;
        let kit = Kit::new(tiles, description)
            .goals()
            .invariant()
            .heuristic_from(heuristic)
            // The incremental sums' step is a few hundred instructions a successor: inlined
            // into IDA*'s node loop, not called through the trait object.
            .idastar_compiled_for::<TilePdb>();
        // Ranks fit a u64 up to 20 cells; beyond, no index (and no table could fit anyway).
        // The reflection, where the goal has one: the table is built an orbit at a time, and
        // IDA* searches one of a symmetric start's first moves per class.
        let kit = match (cells <= Permutations::MAX_LEN as usize, symmetric) {
            (true, true) => kit.table().symmetric(),
            (true, false) => kit.table().no_symmetry(match rows == cols {
                false => "the reflection about the main diagonal needs a square board",
                true => "the goal's blank is off the main diagonal, so the reflection moves it",
            }),
            (false, true) => kit.symmetric_roots(),
            (false, false) => kit,
        };
        Ok(kit.build(Mode::AUTO).with_style(BoardStyle::Tiles))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::from_blank_first;
    use crate::heuristic::Manhattan;
    use crate::heuristic::keys::additive_groups;
    use std::collections::BTreeSet;

    /// A file of the repository, by its path from the root.
    fn repository_file(path: &str) -> String {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        std::fs::read_to_string(format!("{root}/{path}")).unwrap()
    }

    /// Korf & Felner's 50 instances (benches/korf24.txt): id, optimal length, Korf's cells.
    fn korf24() -> Vec<(u32, u32, Vec<u8>)> {
        let text = repository_file("benches/korf24.txt");
        let lines = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
        lines
            .map(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                let cells = words[3..].iter().map(|w| w.parse().unwrap()).collect();
                (words[0].parse().unwrap(), words[1].parse().unwrap(), cells)
            })
            .collect()
    }

    /// Korf's Manhattan distance in his own convention (goal: tile t on cell t, the blank on 0).
    fn manhattan_blank_first(cells: &[u8], cols: usize) -> u32 {
        let mut sum = 0;
        for (cell, &tile) in cells.iter().enumerate().filter(|(_, t)| **t != 0) {
            let goal = tile as usize;
            sum += (cell / cols).abs_diff(goal / cols) + (cell % cols).abs_diff(goal % cols);
        }
        sum as u32
    }

    /// configs/tiles-24.toml holds Korf & Felner's 6-6-6-6 partition turned to our goal (tile t
    /// renamed 25 - t), a valid additive partition of all 24 tiles with the reflection, whose
    /// reflection is a different partition (so the reflected sum adds information); its board is
    /// instance 38 of benches/korf24.txt. Nothing is built (four tables of 127.5 M entries).
    #[test]
    fn the_24_puzzle_config_is_korf_and_felners_partition() {
        let config = Config::parse("tiles-24.toml", &repository_file("configs/tiles-24.toml"));
        let config = config.unwrap();
        let tiles = Tiles::new(5, 5, Tiles::ordered(5, 5));
        let keys = config.section::<TilesHeuristicKeys>().unwrap().unwrap();
        assert_eq!(keys.kind.get_ref().as_str(), "pdb");
        assert!(keys.reflect(&config).value().unwrap().value());
        let ours: BTreeSet<BTreeSet<u8>> = keys
            .groups(&config)
            .value()
            .unwrap()
            .get()
            .iter()
            .map(|g| g.iter().map(|&t| t as u8).collect())
            .collect();
        let korf: [[u8; 6]; 4] = [
            [1, 2, 5, 6, 7, 12],
            [3, 4, 8, 9, 13, 14],
            [10, 11, 15, 16, 20, 21],
            [17, 18, 19, 22, 23, 24],
        ];
        let renamed: BTreeSet<BTreeSet<u8>> = korf
            .iter()
            .map(|g| g.iter().map(|&t| 25 - t).collect())
            .collect();
        assert_eq!(ours, renamed);
        let covered: BTreeSet<u8> = ours.iter().flatten().copied().collect();
        assert_eq!(covered, (1..25).collect());
        // Checked as the plugin checks them: disjoint, each a valid group, reflection allowed.
        additive_groups(&config, &tiles, &keys).unwrap();

        // Our goal has tile t on cell t - 1; the reflection sends it to the tile of the
        // transposed cell. No group is mapped onto a group of the partition.
        let reflect = |t: u8| {
            let cell = t - 1;
            (cell % 5) * 5 + cell / 5 + 1
        };
        for group in &ours {
            let image: BTreeSet<u8> = group.iter().map(|&t| reflect(t)).collect();
            assert!(!ours.contains(&image), "{group:?} reflects onto itself");
        }

        let start = parse(5, 5, &config.start_board().unwrap()).unwrap();
        let (id, _, cells) = korf24().into_iter().find(|(id, ..)| *id == 38).unwrap();
        assert_eq!(id, 38);
        assert_eq!(Some(start), from_blank_first(5, 5, &cells));
    }

    /// The 50 boards turn into solvable boards of our goal whose Manhattan distance is Korf's
    /// (the 180-degree rotation and renaming keep every tile's distance to its goal cell), at most
    /// the published optimal length and of its parity; the lengths span 81 to 114.
    #[test]
    fn korf_and_felners_boards_keep_their_distances_in_our_convention() {
        let tiles = Tiles::new(5, 5, Tiles::ordered(5, 5));
        let manhattan = Manhattan::new(&tiles);
        let instances = korf24();
        assert_eq!(instances.len(), 50);
        for (id, optimal, cells) in &instances {
            let board = from_blank_first(5, 5, cells).unwrap();
            assert_eq!(
                tiles.class(board),
                tiles.class(tiles.goal()),
                "instance {id}"
            );
            let h = manhattan.of(&board);
            assert_eq!(h, manhattan_blank_first(cells, 5), "instance {id}");
            assert!(
                h <= *optimal && (optimal - h).is_multiple_of(2),
                "instance {id}"
            );
        }
        let lengths = instances.iter().map(|(_, optimal, _)| *optimal);
        assert_eq!(
            (lengths.clone().min(), lengths.max()),
            (Some(81), Some(114))
        );
    }
}
