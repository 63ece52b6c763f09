//! The Shift plugin: the HDU samples through `judge` and `solve`, the table against plain BFS on
//! random boards, paths that replay, encodings property-tested, the case files against brute
//! force, and bad input.

use crate::{config_file, statespace};
use predicates::prelude::*;
use proptest::prelude::*;
use statespace::cache::TableCache;
use statespace::config::Mode;
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use statespace::rank::Colex;
use statespace::search::{Outcome, bfs, iddfs};
use statespace::space::{Invertible, StateSpace, replay};
use statespace_shift::{
    Board, BoardGoal, Boards, ColourMasks, Geometry, Palette, RegionSolver, Shift,
};
use std::collections::{HashSet, VecDeque};
use std::sync::OnceLock;

const HDU: Geometry = Geometry { rows: 4, cols: 6 };

/// Applies a move given by its label (`row 2 left`, `col 5 up`) to row-major `cells`, written
/// from the puzzle statement rather than the library, to check labels and paths independently.
pub(crate) fn apply_label(g: Geometry, cells: &mut [u8], label: &str) {
    let words: Vec<&str> = label.split(' ').collect();
    let line: usize = words[1].parse::<usize>().unwrap() - 1;
    let (rows, cols) = (g.rows as usize, g.cols as usize);
    let positions: Vec<usize> = match words[0] {
        "row" => (0..cols).map(|c| line * cols + c).collect(),
        "col" => (0..rows).map(|r| r * cols + line).collect(),
        other => panic!("{other}"),
    };
    let values: Vec<u8> = positions.iter().map(|&p| cells[p]).collect();
    let n = values.len();
    for (i, &p) in positions.iter().enumerate() {
        // left/up: each cell takes its right/lower neighbour's value
        cells[p] = match words[2] {
            "left" | "up" => values[(i + 1) % n],
            "right" | "down" => values[(i + n - 1) % n],
            other => panic!("{other}"),
        };
    }
}

pub(crate) fn letters(board: &str) -> Vec<u8> {
    board.bytes().filter(|b| b.is_ascii_alphabetic()).collect()
}

/// Whether the region `[top, left, bottom, right]` (0-based inclusive) holds one colour.
pub(crate) fn region_uniform(
    g: Geometry,
    cells: &[u8],
    region: [usize; 4],
    colour: Option<u8>,
) -> bool {
    let [top, left, bottom, right] = region;
    let first = colour.unwrap_or(cells[top * g.cols as usize + left]);
    (top..=bottom).all(|r| (left..=right).all(|c| cells[r * g.cols as usize + c] == first))
}

/// The fewest moves by plain BFS over whole boards (letters), independent of the library.
fn brute_force(g: Geometry, start: &[u8], goal: &dyn Fn(&[u8]) -> bool) -> Option<usize> {
    let labels: Vec<String> = (1..=g.rows)
        .flat_map(|r| [format!("row {r} left"), format!("row {r} right")])
        .chain((1..=g.cols).flat_map(|c| [format!("col {c} up"), format!("col {c} down")]))
        .collect();
    let mut seen = HashSet::from([start.to_vec()]);
    let mut queue = VecDeque::from([(start.to_vec(), 0)]);
    while let Some((cells, depth)) = queue.pop_front() {
        if goal(&cells) {
            return Some(depth);
        }
        for label in &labels {
            let mut next = cells.clone();
            apply_label(g, &mut next, label);
            if seen.insert(next.clone()) {
                queue.push_back((next, depth + 1));
            }
        }
    }
    None
}

#[test]
fn judge_hdu3278_prints_exactly_the_expected_output() {
    let input = std::fs::read_to_string(crate::case_path("judge-hdu3278.txt")).unwrap();
    let expected = std::fs::read_to_string(crate::case_path("judge-hdu3278.expected")).unwrap();
    statespace()
        .args(["judge", "hdu3278"])
        .write_stdin(input.clone())
        .assert()
        .code(0)
        .stdout(expected.clone());
    // One row per line reads the same.
    let one_row_per_line = input.split_whitespace().collect::<Vec<_>>().join("\n");
    statespace()
        .args(["judge", "hdu3278"])
        .write_stdin(one_row_per_line)
        .assert()
        .code(0)
        .stdout(expected);
    statespace()
        .args(["judge", "hdu3278"])
        .write_stdin("0\n")
        .assert()
        .code(0)
        .stdout("");
}

#[test]
fn judge_hdu3278_rejects_malformed_input() {
    let board = "GWGGWW BBBBBW GBBBGW WGGGWW";
    for (input, message) in [
        (String::new(), "<stdin>:1: T: missing"),
        ("three\n".into(), "<stdin>:1: T: `three` is not a number"),
        ("-1\n".into(), "<stdin>:1: T: `-1` is not a number"),
        (format!("2\n{board}\n"), "<stdin>:2: case 2, row 1: missing"),
        (
            format!("2\n{board}\nGWGGWW BBBBW"),
            "<stdin>:3: case 2, row 2: `BBBBW` has 5 cells, expected 6",
        ),
        (
            "1\nGWGGWW\nBBBBBW\nGBBXGW\nWGGGWW\n".into(),
            "<stdin>:4: case 1, row 3: `GBBXGW`, column 4: 'X' is not one of B/W/G",
        ),
    ] {
        let out = statespace()
            .args(["judge", "hdu3278"])
            .write_stdin(input.clone())
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{input:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{input:?}");
        assert!(stderr.contains(message), "{input:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

#[test]
fn solve_the_hdu_samples_with_every_mode_and_replay_the_json_path() {
    let config = crate::config_path("shift-4x6.toml");
    for (board, expected) in [
        ("GWGGWW\nBBBBBW\nGBBBGW\nWGGGWW\n", 2),
        ("GWGGWW\nBWBBBB\nGBBBGW\nWGGGWW\n", 3),
        ("WWWWWW\nBGGGGB\nWGGGGW\nBBBBBB\n", 0),
    ] {
        for mode in ["table", "bfs", "iddfs"] {
            let out = statespace()
                .args(["solve", config.to_str().unwrap(), "--board", "-", "--json"])
                .args(["--mode", mode])
                .write_stdin(board)
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0));
            let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(json["moves"], expected, "{mode}");
            assert_eq!(json["mode"], mode);
            let mut cells = letters(board);
            let boards = json["boards"].as_array().unwrap();
            for (label, after) in json["path"].as_array().unwrap().iter().zip(boards) {
                apply_label(HDU, &mut cells, label.as_str().unwrap());
                assert_eq!(cells, letters(after.as_str().unwrap()), "{mode}: {label}");
            }
            assert!(region_uniform(HDU, &cells, [1, 1, 2, 4], None), "{mode}");
        }
    }
    statespace()
        .args(["solve", config.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("2 moves\npath: "))
        .stdout(predicate::str::contains("stats: mode table"));
}

const HEAD: &str = "[puzzle]\nkind = \"shift\"\nrows = 4\ncols = 6\n";
const START: &str = "[start]\nboard = \"\"\"\nGWGGWW\nBBBBBW\nGBBBGW\nWGGGWW\n\"\"\"\n";

#[test]
fn a_colour_that_cannot_fill_the_region_is_impossible_not_an_error() {
    let cfg = config_file(&format!(
        "{HEAD}colours = \"BWGR\"\n[goal]\nkind = \"interior-uniform\"\ncolour = \"R\"\n{START}"
    ));
    statespace()
        .args(["solve", cfg.path().to_str().unwrap()])
        .assert()
        .code(3)
        .stdout(predicate::str::starts_with("Impossible\n"));
}

#[test]
fn a_table_over_the_budget_is_refused_with_the_bytes_it_needs() {
    // 8 x 8, 36 black cells that could fill the 36-cell interior: C(64, 36) masks, over the
    // budget even at 2 bits each.
    let cells = "B".repeat(36) + &"W".repeat(28);
    let board: Vec<&str> = (0..8).map(|r| &cells[r * 8..r * 8 + 8]).collect();
    let board = board.join("\n");
    let cfg = config_file(&format!(
        "[puzzle]\nkind = \"shift\"\nrows = 8\ncols = 8\ncolours = \"BW\"\n[start]\nboard = \"\"\"\n{board}\n\"\"\"\n"
    ));
    statespace()
        .args(["solve", cfg.path().to_str().unwrap()])
        .assert()
        .code(4)
        .stdout(predicate::str::contains("needs 248.4 PiB of memory"));
}

#[test]
fn the_tables_of_one_board_share_one_budget() {
    // Region: the top-left 2 x 2. B (11 cells) and W (12 cells) can both fill it, so the table
    // mode builds a table per cell count: about 624 KB and 676 KB at 2 bits per mask.
    let cfg = config_file(&format!(
        "{HEAD}[goal]\nkind = \"region-uniform\"\nregion = [1, 1, 2, 2]\n\
         [start]\nboard = \"\"\"\nBBBBBB\nBBBBBW\nWWWWWW\nWWWWWG\n\"\"\"\n"
    ));
    let path = cfg.path().to_str().unwrap();
    // Each fits 700 KiB alone; both do not.
    statespace()
        .args(["solve", path, "--memory", "700KiB"])
        .assert()
        .code(4)
        .stdout(predicate::str::contains("over the budget"));
    let out = statespace()
        .args(["solve", path, "--memory", "2MiB", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["moves"], 0);
    assert_eq!(json["colour"], "B");
    // The table described is the one that gave the answer: B's 11-cell masks, C(24, 11).
    let bytes = json["table_bytes"].as_u64().unwrap();
    assert!((2_496_144 / 4..2_704_156 / 4).contains(&bytes), "{bytes}");
}

/// Each bad config: the text after `[puzzle] kind = "shift"`, and what the error must say.
const BAD_CONFIGS: &[(&str, &str)] = &[
    (
        "rows = 4\ncols = 6\n[start]\nboard = \"\"\"\nGWGGWW\nBBBBB\nGBBBGW\nWGGGWW\n\"\"\"\n",
        "{file}:8: start.board: row 2 has 5 cells, expected 6",
    ),
    (
        "rows = 4\ncols = 6\n[start]\nboard = \"\"\"\nGWGGWW\nBBBBBW\nGBBBGW\n\"\"\"\n",
        "start.board: too few rows: 3 of 4",
    ),
    (
        "rows = 4\ncols = 6\n[start]\nboard = \"\"\"\nGWGGWW\nBBBBBW\nGBBRGW\nWGGGWW\n\"\"\"\n",
        "{file}:9: start.board: row 3, column 4: 'R' is not one of B/W/G",
    ),
    (
        "rows = 2\ncols = 6\n",
        "{file}:3: puzzle.rows: 2 is out of range",
    ),
    (
        "rows = 8\ncols = 9\n",
        "{file}:4: puzzle.cols: a 8 x 9 board has 72 cells",
    ),
    (
        "rows = 4\ncols = 6\ncolours = \"BWB\"\n",
        "{file}:5: puzzle.colours: 'B' is listed twice",
    ),
    (
        "rows = 4\ncols = 6\nwrap = true\n",
        "{file}:5: puzzle.wrap: unknown field `wrap`",
    ),
    (
        "rows = 4\ncols = 6\n[goal]\nkind = \"region-uniform\"\nregion = [1, 2, 5, 3]\n",
        "{file}:7: goal.region: rows 1 to 5 are not within 1 to 4",
    ),
    (
        "rows = 4\ncols = 6\n[goal]\nkind = \"region-uniform\"\nregion = [1, 2]\n",
        "{file}:7: goal.region: expected [top, left, bottom, right]",
    ),
    (
        "rows = 4\ncols = 6\n[goal]\nkind = \"region-uniform\"\n",
        "{file}: goal.region: missing",
    ),
    (
        "rows = 4\ncols = 6\n[goal]\nkind = \"interior-uniform\"\ncolour = \"X\"\n",
        "{file}:7: goal.colour: \"X\" is not one of B/W/G",
    ),
    (
        "rows = 4\ncols = 6\n[goal]\nkind = \"interior-uniform\"\nregion = [1, 1, 1, 1]\n",
        "{file}:7: goal.region: not used here",
    ),
    (
        "rows = 3\ncols = 3\n[goal]\nkind = \"pattern\"\ntarget = \"BWG\\nGWB\\nWGB\"\n[search]\nmode = \"table\"\n",
        "{file}:9: search.mode: search mode `table` is not supported",
    ),
    (
        "rows = 4\ncols = 6\n[goal]\nkind = \"checkered\"\n",
        "{file}:6: goal.kind: unknown shift goal `checkered`",
    ),
];

#[test]
fn every_bad_config_gets_one_line_with_file_line_and_key() {
    for (rest, expected) in BAD_CONFIGS {
        let text = format!("[puzzle]\nkind = \"shift\"\n{rest}");
        let cfg = config_file(&text);
        let path = cfg.path().to_str().unwrap();
        let expected = expected.replace("{file}", path);
        let out = statespace().args(["solve", path]).output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{text}\n{stderr}");
        assert!(
            stderr.contains(&expected),
            "expected {expected:?} in {stderr:?}"
        );
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr:?}");
    }
}

#[test]
fn the_shift_case_files_agree_with_brute_force() {
    // Cases small enough for a whole-board BFS written from the statement.
    let mut checked = 0;
    for case in crate::cases::load_cases()
        .into_iter()
        .filter(|c| c.kind == "shift")
    {
        let table: toml::Table = case.config.parse().unwrap();
        let int = |k: &str| table["puzzle"][k].as_integer().unwrap() as u32;
        let g = Geometry {
            rows: int("rows"),
            cols: int("cols"),
        };
        if g.cells() > 15 && case.answer.is_none_or(|a| a > 3) {
            continue;
        }
        let start = letters(table["start"]["board"].as_str().unwrap());
        let goal = &table["goal"];
        let colour = goal
            .get("colour")
            .map(|c| c.as_str().unwrap().as_bytes()[0]);
        let region = match goal.get("region") {
            Some(r) => {
                let r: Vec<usize> = r
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_integer().unwrap() as usize - 1)
                    .collect();
                [r[0], r[1], r[2], r[3]]
            }
            None => [1, 1, g.rows as usize - 2, g.cols as usize - 2],
        };
        let found = match goal["kind"].as_str().unwrap() {
            "pattern" => {
                let target = letters(goal["target"].as_str().unwrap());
                brute_force(g, &start, &|cells| cells == target.as_slice())
            }
            _ => brute_force(g, &start, &|cells| region_uniform(g, cells, region, colour)),
        };
        assert_eq!(found, case.answer, "{}", case.name);
        checked += 1;
    }
    assert!(checked >= 6, "{checked}");
}

/// One solver per geometry for the whole test binary: its tables are built once.
fn hdu_solver() -> &'static RegionSolver {
    static SOLVER: OnceLock<RegionSolver> = OnceLock::new();
    SOLVER.get_or_init(|| RegionSolver::new(HDU, HDU.interior(), None))
}

/// A random board with `per_colour` cells of each of `colours` colours.
fn board_strategy(g: Geometry, colours: u8) -> impl Strategy<Value = Board> {
    let cells: Vec<u8> = (0..g.cells()).map(|i| (i % colours as u32) as u8).collect();
    Just(cells).prop_shuffle().prop_map(|cells| Board { cells })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn table_answers_equal_plain_bfs_on_hdu_boards(board in board_strategy(HDU, 3)) {
        let solver = hdu_solver();
        let limits = Limits::default();
        let by_table = solver.solve(&board, Mode::TABLE, &limits, &SearchOptions::default(), &TableCache::disabled());
        let by_bfs = solver.solve(&board, Mode::BFS, &limits, &SearchOptions::default(), &TableCache::disabled());
        let (Outcome::Solved(t), Outcome::Solved(b)) = (&by_table.outcome, &by_bfs.outcome) else {
            panic!("{:?} {:?}", by_table.outcome, by_bfs.outcome);
        };
        prop_assert_eq!(t.len(), b.len());
        prop_assert_eq!(Some(t.len() as u32), solver.distance(&board, &limits, &TableCache::disabled()).unwrap());
        // Plain BFS per colour, no pruning across colours, agrees with the minimum.
        let plain = (0..3u8)
            .filter_map(|c| {
                let space = ColourMasks::new(HDU, HDU.interior(), 8);
                match bfs::solve_indexed(&space, board.mask(c), &limits).outcome {
                    Outcome::Solved(p) => Some(p.len()),
                    _ => None,
                }
            })
            .min();
        prop_assert_eq!(plain, Some(t.len()));
        // The table's path replays on the colour's masks and on the whole board.
        let colour = by_table.colour.unwrap();
        let space = ColourMasks::new(HDU, HDU.interior(), 8);
        let end = replay(&space, board.mask(colour), &t.moves()).unwrap();
        prop_assert!(space.is_goal(end));
        let mut cells = board.cells.clone();
        for m in t.moves() {
            apply_label(HDU, &mut cells, &m.to_string());
        }
        prop_assert!(region_uniform(HDU, &cells, [1, 1, 2, 4], Some(colour)));
    }

    #[test]
    fn every_mode_agrees_on_small_boards(
        (g, board, region) in (3u32..=4, 3u32..=5)
            .prop_flat_map(|(rows, cols)| {
                let g = Geometry { rows, cols };
                (Just(g), board_strategy(g, 3), 0..rows, 0..cols)
            })
            .prop_map(|(g, board, r, c)| (g, board, g.rectangle(r, 0, r, c)))
    ) {
        let solver = RegionSolver::new(g, region, None);
        let limits = Limits::default();
        let answers: Vec<Option<usize>> = [Mode::TABLE, Mode::BFS, Mode::IDDFS]
            .iter()
            .map(|&mode| match solver.solve(&board, mode, &limits, &SearchOptions::default(), &TableCache::disabled()).outcome {
                Outcome::Solved(p) => Some(p.len()),
                Outcome::Unsolvable => None,
                other => panic!("{other:?}"),
            })
            .collect();
        prop_assert_eq!(answers[0], answers[1]);
        prop_assert_eq!(answers[0], answers[2]);
    }

    #[test]
    fn colex_rank_and_unrank_round_trip(
        (n, mask) in (1u32..=64).prop_flat_map(|n| {
            let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            (Just(n), any::<u64>().prop_map(move |m| m & all))
        })
    ) {
        let colex = Colex::new(n, mask.count_ones());
        let rank = colex.rank(mask);
        prop_assert!(rank < colex.count());
        prop_assert_eq!(colex.unrank(rank), mask);
    }

    #[test]
    fn a_move_then_its_inverse_is_the_identity(
        (g, board) in (3u32..=8, 3u32..=8)
            .prop_filter("64 cells", |(r, c)| r * c <= 64)
            .prop_flat_map(|(rows, cols)| {
                let g = Geometry { rows, cols };
                (Just(g), board_strategy(g, 3))
            })
    ) {
        let mask = board.mask(0);
        let masks = ColourMasks::new(g, g.interior(), mask.count_ones().max(g.interior().count_ones()));
        let bits = Palette::default().bits_per_cell();
        let boards = Boards::new(g, Palette::default(), BoardGoal::Target(0));
        let packed = board.pack(bits);
        let mut moves = 0;
        boards.successors(packed, &mut |m, next| {
            moves += 1;
            let back = replay(&boards, next, &[boards.inverse(m)]).unwrap();
            assert_eq!(back, packed, "{m}");
        });
        // Moves that change nothing (a row or column of one colour) are left out.
        let changing = g.moves().into_iter().filter(|&m| board.shifted(&g, m) != board).count();
        prop_assert_eq!(moves, changing);
        let mut count = 0;
        masks.successors(mask, &mut |m, next| {
            count += 1;
            assert_eq!(next.count_ones(), mask.count_ones(), "{m} keeps the cell count");
            assert_eq!(masks.apply(next, m.inverse()), mask, "{m}");
        });
        prop_assert_eq!(count, 2 * (g.rows + g.cols));
    }

    #[test]
    fn pattern_bfs_and_iddfs_agree_and_replay(
        (board, scramble) in (board_strategy(Geometry { rows: 3, cols: 4 }, 3),
            proptest::collection::vec(0usize..14, 0..4))
    ) {
        let g = Geometry { rows: 3, cols: 4 };
        let moves = g.moves();
        let mut target = board.clone();
        for i in scramble {
            target = target.shifted(&g, moves[i]);
        }
        let bits = 2;
        let space = Boards::new(g, Palette::default(), BoardGoal::Target(target.pack(bits)));
        let start = board.pack(bits);
        let limits = Limits::default();
        let mut lengths = Vec::new();
        for report in [bfs::solve(&space, start, &limits), iddfs::solve(&space, start, &limits, &SearchOptions::default())] {
            let Outcome::Solved(path) = report.outcome else { panic!("{:?}", report.outcome) };
            let end = replay(&space, start, &path.moves()).unwrap();
            prop_assert_eq!(end, target.pack(bits));
            lengths.push(path.len());
        }
        prop_assert_eq!(lengths[0], lengths[1]);
        prop_assert!(lengths[0] <= 3);
    }
}

#[test]
fn labels_name_the_line_and_direction() {
    assert_eq!(Shift::RowLeft(1).to_string(), "row 2 left");
    assert_eq!(Shift::ColUp(4).to_string(), "col 5 up");
    assert_eq!(HDU.moves().len(), 20);
}
