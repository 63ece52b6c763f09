//! The tiles heuristics and the generic pattern databases: admissible (never above the exact
//! distance) and 0 at the goal on every 8-puzzle board and every 2 x 3 board, against the whole
//! distance table; IDA* and A* optimal with each, paths replayed; the Korf 100 file and its
//! converter; additive databases on 15-puzzle boards near the goal; cache, memory and bad groups.

use statespace::cache::{Source, TableCache};
use statespace::limit::{Limit, Limits};
use statespace::options::SearchOptions;
use statespace::search::pdb::{Max, PatternDatabase, PdbError};
use statespace::search::{Outcome, astar, idastar, table};
use statespace::space::{Heuristic, Indexed, Invariant, StateSpace, replay};
use statespace_tiles::board::from_blank_first;
use statespace_tiles::heuristic::{
    self, LinearConflict, Manhattan, SPLIT_4_4_4_3, SPLIT_5_5_5, TileGroup, TilePdb, Transpose,
};
use statespace_tiles::{Board, Tiles};

fn pdb(tiles: &Tiles, groups: &[Vec<u8>], reflect: bool) -> TilePdb {
    heuristic::additive(tiles, groups, reflect, &Limits::default(), None).unwrap()
}

/// Every heuristic of the module for `tiles`, named; the PDB groups are `groups`.
fn all_heuristics(
    tiles: &Tiles,
    groups: &[&[Vec<u8>]],
) -> Vec<(String, Box<dyn Heuristic<Tiles>>)> {
    let mut list: Vec<(String, Box<dyn Heuristic<Tiles>>)> = vec![
        ("manhattan".into(), Box::new(Manhattan::new(tiles))),
        (
            "linear conflict".into(),
            Box::new(LinearConflict::new(tiles)),
        ),
        (
            "max(manhattan, lc)".into(),
            Box::new(Max::new(vec![
                Box::new(Manhattan::new(tiles)) as Box<dyn Heuristic<Tiles>>,
                Box::new(LinearConflict::new(tiles)),
            ])),
        ),
    ];
    for g in groups {
        list.push((format!("pdb {g:?}"), Box::new(pdb(tiles, g, false))));
        if Transpose::new(tiles).is_some() {
            list.push((
                format!("pdb {g:?} reflected"),
                Box::new(pdb(tiles, g, true)),
            ));
        }
    }
    list
}

/// Checks `h <= d` on every board of the goal's class, `h(goal) = 0`, and that the fast tiles
/// estimate of every PDB equals the generic `Additive` one.
fn admissible_everywhere(rows: u8, cols: u8, groups: &[&[Vec<u8>]]) {
    let tiles = Tiles::new(rows, cols, Tiles::ordered(rows, cols));
    let exact = table::build(&tiles, &Limits::default()).unwrap();
    let heuristics = all_heuristics(&tiles, groups);
    let reflections: &[bool] = if rows == cols {
        &[false, true]
    } else {
        &[false]
    };
    let pdbs: Vec<TilePdb> = groups
        .iter()
        .flat_map(|g| reflections.iter().map(|&r| pdb(&tiles, g, r)))
        .collect();
    for (name, h) in &heuristics {
        assert_eq!(h.estimate(&tiles, tiles.goal()), 0, "{name} at the goal");
    }
    let mut best = vec![0u64; heuristics.len()];
    for i in 0..tiles.size() as u64 {
        let board = tiles.state(i);
        let d = exact.distance(&tiles, board).unwrap().unwrap();
        for (k, (name, h)) in heuristics.iter().enumerate() {
            let e = h.estimate(&tiles, board);
            assert!(e <= d, "{name}: {e} > {d} on {board:?}");
            best[k] += e as u64;
        }
        for p in &pdbs {
            assert_eq!(
                p.estimate(&tiles, board),
                p.additive().estimate(&tiles, board),
                "fast and generic estimates differ on {board:?}"
            );
        }
    }
    // Linear conflict dominates Manhattan, and is strictly better on the sum.
    assert!(best[1] > best[0]);
}

#[test]
fn every_heuristic_is_admissible_on_every_8_puzzle_board() {
    let halves = vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]];
    let rows = vec![vec![1, 2, 3], vec![4, 5, 6], vec![7, 8]];
    admissible_everywhere(3, 3, &[&halves, &rows]);
}

#[test]
fn every_heuristic_is_admissible_on_every_2x3_board() {
    let groups = vec![vec![1, 2, 4], vec![3, 5]];
    admissible_everywhere(2, 3, &[&groups]);
}

#[test]
fn a_full_group_is_the_exact_distance_without_the_blank() {
    // One group of every tile, blank-free: a lower bound, and exact on boards where the blank is
    // never in the way... at least equal to Manhattan everywhere.
    let tiles = Tiles::new(3, 3, Tiles::ordered(3, 3));
    let all = pdb(&tiles, &[(1..9).collect()], true);
    let manhattan = Manhattan::new(&tiles);
    for i in (0..tiles.size() as u64).step_by(7) {
        let board = tiles.state(i);
        assert!(all.estimate(&tiles, board) >= manhattan.of(&board));
    }
}

#[test]
fn idastar_and_astar_are_optimal_with_every_heuristic_on_8_puzzle_boards() {
    let tiles = Tiles::new(3, 3, Tiles::ordered(3, 3));
    let exact = table::build(&tiles, &Limits::default()).unwrap();
    let halves = vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]];
    let heuristics = all_heuristics(&tiles, &[&halves]);
    for i in (0..tiles.size() as u64).step_by(1733) {
        let board = tiles.state(i);
        let d = exact.distance(&tiles, board).unwrap().unwrap() as usize;
        for (name, h) in &heuristics {
            let reports = [
                (
                    "ida*",
                    idastar::solve(
                        &tiles,
                        &**h,
                        board,
                        &Limits::default(),
                        &SearchOptions::default(),
                    ),
                ),
                ("a*", astar::solve(&tiles, &**h, board, &Limits::default())),
            ];
            for (engine, report) in reports {
                let Outcome::Solved(path) = report.outcome else {
                    panic!("{engine} with {name}: {:?}", report.outcome);
                };
                assert_eq!(path.len(), d, "{engine} with {name} on {board:?}");
                let end = replay(&tiles, board, &path.moves()).unwrap();
                assert!(tiles.is_goal(end));
            }
        }
    }
}

/// Korf's instances: `(id, optimal length, board in our convention)`.
fn korf100() -> Vec<(u32, u32, Board)> {
    let text = std::fs::read_to_string(crate::case_path("korf100.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let n: Vec<u64> = line
                .split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect();
            assert_eq!(n.len(), 3 + 16, "{line}");
            let cells: Vec<u8> = n[3..].iter().map(|&c| c as u8).collect();
            let board = from_blank_first(4, 4, &cells).unwrap();
            (n[0] as u32, n[1] as u32, board)
        })
        .collect()
}

#[test]
fn the_korf_file_has_100_instances_of_lengths_41_to_66_summing_to_5305() {
    let all = korf100();
    assert_eq!(all.len(), 100);
    let ids: Vec<u32> = all.iter().map(|i| i.0).collect();
    assert_eq!(ids, (1..=100).collect::<Vec<_>>());
    assert_eq!(all.iter().map(|i| i.1).sum::<u32>(), 5305);
    assert_eq!(all.iter().map(|i| i.1).min(), Some(41));
    assert_eq!(all.iter().map(|i| i.1).max(), Some(66));
    // Every converted board can reach our goal (Korf's are all solvable).
    let tiles = Tiles::new(4, 4, Tiles::ordered(4, 4));
    for (id, _, board) in &all {
        assert_eq!(tiles.unsolvable_by(*board), None, "instance {id}");
    }
}

#[test]
fn the_converter_keeps_distances() {
    // A board d moves from Korf's goal (blank first) converts to one d moves from ours: scramble
    // in Korf's convention by swapping the blank with neighbours, convert, and solve.
    let tiles = Tiles::new(4, 4, Tiles::ordered(4, 4));
    let lc = LinearConflict::new(&tiles);
    let mut korf: Vec<u8> = (0..16).collect();
    let mut blank = 0usize;
    let mut x = 7u32;
    for step in 0..40 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let (r, c) = (blank / 4, blank % 4);
        let options: Vec<usize> = [
            (r > 0).then(|| blank - 4),
            (r < 3).then(|| blank + 4),
            (c > 0).then(|| blank - 1),
            (c < 3).then(|| blank + 1),
        ]
        .into_iter()
        .flatten()
        .collect();
        let to = options[(x >> 16) as usize % options.len()];
        korf.swap(blank, to);
        blank = to;
        if step % 8 == 7 {
            let board = from_blank_first(4, 4, &korf).unwrap();
            // The walk is at most `step + 1` long, and its parity is that of the distance.
            let report = idastar::solve(
                &tiles,
                &lc,
                board,
                &Limits::default(),
                &SearchOptions::default(),
            );
            let Outcome::Solved(path) = report.outcome else {
                panic!()
            };
            assert!(path.len() <= step + 1);
            assert_eq!(path.len() % 2, (step + 1) % 2);
        }
    }
}

#[test]
fn the_easiest_korf_instances_solve_at_their_lengths() {
    let tiles = Tiles::new(4, 4, Tiles::ordered(4, 4));
    let all = korf100();
    let pdb555 = pdb(
        &tiles,
        &heuristic::groups_by_goal_cells(&tiles, &SPLIT_5_5_5),
        true,
    );
    let lc = LinearConflict::new(&tiles);
    // 79 (42 moves), 55 (41), 42 (42) and 12 (45): Korf's easiest by nodes.
    for id in [79, 55, 42, 12] {
        let (_, length, board) = all[id - 1];
        for (name, h) in [("lc", &lc as &dyn Heuristic<Tiles>), ("pdb 5-5-5", &pdb555)] {
            let report = idastar::solve(
                &tiles,
                h,
                board,
                &Limits::default(),
                &SearchOptions::default(),
            );
            let Outcome::Solved(path) = report.outcome else {
                panic!("{id} {name}")
            };
            assert_eq!(path.len() as u32, length, "instance {id} with {name}");
            let end = replay(&tiles, board, &path.moves()).unwrap();
            assert!(tiles.is_goal(end));
        }
        let admissible = pdb555.estimate(&tiles, board);
        assert!(
            admissible <= length,
            "instance {id}: {admissible} > {length}"
        );
    }
    // A* with the databases on the easiest.
    let (_, length, board) = all[54];
    let report = astar::solve_indexed(&tiles, &pdb555, board, &Limits::default());
    let Outcome::Solved(path) = report.outcome else {
        panic!()
    };
    assert_eq!(path.len() as u32, length);
}

#[test]
fn additive_databases_never_exceed_the_distance_near_the_goal() {
    let tiles = Tiles::new(4, 4, Tiles::ordered(4, 4));
    let manhattan = Manhattan::new(&tiles);
    let heuristics: Vec<(&str, TilePdb)> = vec![
        (
            "4-4-4-3",
            pdb(
                &tiles,
                &heuristic::groups_by_goal_cells(&tiles, &SPLIT_4_4_4_3),
                true,
            ),
        ),
        (
            "5-5-5",
            pdb(
                &tiles,
                &heuristic::groups_by_goal_cells(&tiles, &SPLIT_5_5_5),
                true,
            ),
        ),
    ];
    let mut x = 99u32;
    for walk in 10..=20 {
        for _ in 0..6 {
            let mut board = tiles.goal();
            for _ in 0..walk {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let mut next = Vec::new();
                tiles.successors(board, &mut |_, t| next.push(t));
                board = next[(x >> 16) as usize % next.len()];
            }
            let report = idastar::solve(
                &tiles,
                &manhattan,
                board,
                &Limits::default(),
                &SearchOptions::default(),
            );
            let Outcome::Solved(path) = report.outcome else {
                panic!()
            };
            let d = path.len() as u32;
            for (name, h) in &heuristics {
                let e = h.estimate(&tiles, board);
                assert!(e <= d, "{name}: {e} > {d} on {board:?}");
            }
        }
    }
}

#[test]
fn databases_are_cached_and_memory_is_refused_before_building() {
    let tiles = Tiles::new(4, 4, Tiles::ordered(4, 4));
    let groups = heuristic::groups_by_goal_cells(&tiles, &SPLIT_4_4_4_3);
    let dir = tempfile::tempdir().unwrap();
    let cache = TableCache::new(Some(dir.path().into()), true, |w| panic!("{w}"));
    let limits = Limits::default();
    let first = heuristic::additive(&tiles, &groups, true, &limits, Some(&cache)).unwrap();
    assert!(
        first
            .databases()
            .iter()
            .all(|db| db.source() == Source::Built)
    );
    let again = heuristic::additive(&tiles, &groups, true, &limits, Some(&cache)).unwrap();
    assert!(
        again
            .databases()
            .iter()
            .all(|db| db.source() == Source::Loaded)
    );
    let board = korf100()[78].2;
    assert_eq!(first.estimate(&tiles, board), again.estimate(&tiles, board));

    // Four tables of 16!/12! entries at 4 bits (3 x 21,840 + 1,680 bytes), and beside them the
    // largest build's words beyond its table: 43,680 placements of 4 bytes (12 free cells), less
    // the 21,840 counted; over 10,000.
    let tight = Limits {
        memory_budget: 10_000,
        ..Limits::default()
    };
    let err = heuristic::additive(&tiles, &groups, false, &tight, None).unwrap_err();
    assert!(
        matches!(
            err,
            PdbError::Limit(Limit::Memory {
                needed: 220_080,
                ..
            })
        ),
        "{err}"
    );
    // The default falls back to linear conflict when no database fits.
    let default = heuristic::default_heuristic(&tiles, &tight, None);
    assert_eq!(default.name, "linear-conflict");
    let small = Tiles::new(3, 3, Tiles::ordered(3, 3));
    assert_eq!(
        heuristic::default_heuristic(&small, &limits, None).name,
        "linear-conflict"
    );
}

#[test]
fn bad_groups_are_refused() {
    let tiles = Tiles::new(4, 4, Tiles::ordered(4, 4));
    let limits = Limits::default();
    let cases: Vec<(Vec<Vec<u8>>, bool, &str)> = vec![
        (vec![vec![1, 2], vec![2, 3]], false, "two groups"),
        (vec![vec![1, 1]], false, "twice"),
        (vec![vec![0, 1]], false, "not a tile"),
        (vec![vec![16]], false, "not a tile"),
        (vec![vec![]], false, "1 to 10"),
    ];
    for (groups, reflect, expected) in cases {
        let err = heuristic::additive(&tiles, &groups, reflect, &limits, None).unwrap_err();
        assert!(err.to_string().contains(expected), "{groups:?}: {err}");
    }
    let wide = Tiles::new(3, 4, Tiles::ordered(3, 4));
    let err = heuristic::additive(&wide, &[vec![1, 2]], true, &limits, None).unwrap_err();
    assert!(err.to_string().contains("square"), "{err}");
}

/// Every blank-aware entry is at least the blank-free one (the blank only adds constraints), and
/// strictly more on the whole: the point of tracking it.
#[test]
fn blank_aware_databases_dominate_blank_free_ones() {
    let tiles = Tiles::new(4, 4, Tiles::ordered(4, 4));
    for group in [vec![1, 2, 3, 4, 5], vec![6, 7, 10, 11], vec![13, 14, 15]] {
        let limits = Limits::default();
        let build = |g: TileGroup| PatternDatabase::build(g, &limits, None).unwrap();
        let aware = build(TileGroup::new(&tiles, &group).unwrap());
        let free = build(TileGroup::blank_free(&tiles, &group).unwrap());
        assert!(aware.abstraction().is_blank_aware() && !free.abstraction().is_blank_aware());
        // Different tables of one abstract space: the cache keeps them apart by their recipes.
        let recipe = |a: &TileGroup| statespace::search::pdb::Abstraction::<Tiles>::recipe(a);
        assert_ne!(recipe(aware.abstraction()), recipe(free.abstraction()));
        let (aware, free) = (aware.table(), free.table());
        assert_eq!(aware.len(), free.len());
        let (mut sum_aware, mut sum_free) = (0u64, 0u64);
        for i in 0..aware.len() {
            let (a, f) = (aware.code(i).unwrap(), free.code(i).unwrap());
            assert!(a >= f, "{group:?}, entry {i}: {a} < {f}");
            sum_aware += a;
            sum_free += f;
        }
        assert!(sum_aware > sum_free, "{group:?}: {sum_aware} vs {sum_free}");
    }
}
