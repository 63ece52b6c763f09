//! The sliding-block plugin (`kind = "blocks"`) against a brute force written here: boards as
//! grids of letters, pieces cut from them, moved by rewriting the grid, searched breadth-first
//! with a hash map (nothing of the plugin's code: no masks, no encoding, no index). Klotski's
//! 25,955 positions and its 116 / 90 / 81 moves, Rush Hour's card 40 in 51, every case of
//! tests/cases/blocks.toml; and bad boards and keys, one line each, naming file, line and key.

use crate::{config, config_file, statespace};
use predicates::prelude::*;
use statespace::config::{Config, ExploreFrom};
use statespace::instance::{Answer, ExploreOptions};
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use std::collections::{HashMap, VecDeque};

/// A sliding-block puzzle the slow way.
struct Naive {
    rows: usize,
    cols: usize,
    /// Each letter's piece size.
    shapes: HashMap<u8, (usize, usize)>,
    /// Pieces move only along their longer side.
    along_length: bool,
    /// `unit`, `line` or `path`.
    metric: String,
}

/// A piece: its letter and top-left cell.
type Piece = (u8, usize, usize);

impl Naive {
    /// The puzzle of `start`: letters of `declared` write pieces of that size, any other letter
    /// one piece (its cells' bounding box).
    fn new(
        start: &str,
        declared: &[(u8, (usize, usize))],
        along_length: bool,
        metric: &str,
    ) -> Naive {
        let lines: Vec<&str> = start.lines().collect();
        let (rows, cols) = (lines.len(), lines[0].len());
        let mut shapes: HashMap<u8, (usize, usize)> = declared.iter().copied().collect();
        let mut boxes: HashMap<u8, (usize, usize, usize, usize)> = HashMap::new();
        for (r, line) in lines.iter().enumerate() {
            for (c, b) in line.bytes().enumerate() {
                let e = boxes.entry(b).or_insert((r, c, r, c));
                *e = (e.0.min(r), e.1.min(c), e.2.max(r), e.3.max(c));
            }
        }
        for (letter, (top, left, bottom, right)) in boxes {
            if letter.is_ascii_alphabetic() {
                shapes
                    .entry(letter)
                    .or_insert((bottom - top + 1, right - left + 1));
            }
        }
        Naive {
            rows,
            cols,
            shapes,
            along_length,
            metric: metric.to_string(),
        }
    }

    fn grid(&self, text: &str) -> Vec<u8> {
        text.lines().flat_map(|l| l.trim().bytes()).collect()
    }

    /// The pieces of `grid`, row by row.
    fn pieces(&self, grid: &[u8]) -> Vec<Piece> {
        let mut taken = vec![false; grid.len()];
        let mut pieces = Vec::new();
        for i in 0..grid.len() {
            let letter = grid[i];
            if taken[i] || !letter.is_ascii_alphabetic() {
                continue;
            }
            let (h, w) = self.shapes[&letter];
            let (r, c) = (i / self.cols, i % self.cols);
            for dr in 0..h {
                for dc in 0..w {
                    taken[(r + dr) * self.cols + c + dc] = true;
                }
            }
            pieces.push((letter, r, c));
        }
        pieces
    }

    /// Whether `letter`'s piece fits with its top-left cell at `(r, c)` of `grid`.
    fn fits(&self, grid: &[u8], letter: u8, r: isize, c: isize) -> bool {
        let (h, w) = self.shapes[&letter];
        r >= 0
            && c >= 0
            && r as usize + h <= self.rows
            && c as usize + w <= self.cols
            && (0..h).all(|dr| {
                (0..w).all(|dc| grid[(r as usize + dr) * self.cols + c as usize + dc] == b'.')
            })
    }

    /// `grid` with `letter`'s piece written at `(r, c)` (`fill` `.` to lift it).
    fn write(&self, grid: &mut [u8], letter: u8, r: usize, c: usize, fill: u8) {
        let (h, w) = self.shapes[&letter];
        for dr in 0..h {
            for dc in 0..w {
                grid[(r + dr) * self.cols + c + dc] = fill;
            }
        }
    }

    /// Every board one move away.
    fn successors(&self, grid: &[u8]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for (letter, r, c) in self.pieces(grid) {
            let mut lifted = grid.to_vec();
            self.write(&mut lifted, letter, r, c, b'.');
            let (h, w) = self.shapes[&letter];
            let dirs: Vec<(isize, isize)> = [(-1, 0), (1, 0), (0, -1), (0, 1)]
                .into_iter()
                .filter(|&(dr, _)| !self.along_length || (dr == 0) == (w > h))
                .collect();
            let mut targets = Vec::new();
            match self.metric.as_str() {
                "unit" | "line" => {
                    for &(dr, dc) in &dirs {
                        let (mut y, mut x) = (r as isize + dr, c as isize + dc);
                        while self.fits(&lifted, letter, y, x) {
                            targets.push((y as usize, x as usize));
                            if self.metric == "unit" {
                                break;
                            }
                            (y, x) = (y + dr, x + dc);
                        }
                    }
                }
                _ => {
                    let mut seen = vec![(r, c)];
                    let mut queue = VecDeque::from([(r, c)]);
                    while let Some((y, x)) = queue.pop_front() {
                        for &(dr, dc) in &dirs {
                            let (y2, x2) = (y as isize + dr, x as isize + dc);
                            let place = (y2 as usize, x2 as usize);
                            if self.fits(&lifted, letter, y2, x2) && !seen.contains(&place) {
                                seen.push(place);
                                queue.push_back(place);
                                targets.push(place);
                            }
                        }
                    }
                }
            }
            for (y, x) in targets {
                let mut next = lifted.clone();
                self.write(&mut next, letter, y, x, letter);
                out.push(next);
            }
        }
        out
    }

    /// Breadth-first from `start`: the boards reached, and the fewest moves to a goal.
    fn search(&self, start: &str, goal: &dyn Fn(&Naive, &[u8]) -> bool) -> (usize, Option<usize>) {
        let start = self.grid(start);
        let mut distance = HashMap::from([(start.clone(), 0usize)]);
        let mut queue = VecDeque::from([start]);
        let mut nearest = None;
        while let Some(grid) = queue.pop_front() {
            let d = distance[&grid];
            if nearest.is_none() && goal(self, &grid) {
                nearest = Some(d);
            }
            for next in self.successors(&grid) {
                if !distance.contains_key(&next) {
                    distance.insert(next.clone(), d + 1);
                    queue.push_back(next);
                }
            }
        }
        (distance.len(), nearest)
    }
}

/// The goal "`letter`'s piece with its top-left cell at `(row, col)`" (1-based).
fn place(letter: u8, row: usize, col: usize) -> impl Fn(&Naive, &[u8]) -> bool {
    move |naive, grid| naive.pieces(grid).contains(&(letter, row - 1, col - 1))
}

const KLOTSKI: &str = "VBBV\nVBBV\nVHHV\nVSSV\nS..S";

/// Klotski through the plugin: configs/klotski.toml with `metric`.
fn klotski_config(metric: &str) -> Config {
    let text = std::fs::read_to_string(config("klotski.toml")).unwrap();
    let text = text.replace("metric = \"unit\"", &format!("metric = \"{metric}\""));
    Config::parse("klotski.toml", &text).unwrap()
}

#[test]
fn klotski_reaches_25955_boards_in_116_90_and_81_moves_as_a_brute_force_finds() {
    let declared = [(b'V', (2, 1)), (b'S', (1, 1))];
    for (metric, moves) in [("unit", 116), ("line", 90), ("path", 81)] {
        let naive = Naive::new(KLOTSKI, &declared, false, metric);
        let (reached, nearest) = naive.search(KLOTSKI, &place(b'B', 4, 2));
        assert_eq!((reached, nearest), (25_955, Some(moves)), "{metric}");

        let config = klotski_config(metric);
        let instance = crate::registry()
            .build(&config, &Limits::default())
            .unwrap();
        let board = config.start_board().unwrap();
        let options = ExploreOptions {
            from: Some(ExploreFrom::Start),
            ..ExploreOptions::default()
        };
        let explored = instance
            .explore(Some(&board), &options, &mut |_, _| {})
            .unwrap();
        assert_eq!(explored.reachable(), 25_955, "{metric}");
        assert_eq!(explored.space_size, 65_880, "{metric}");
        for mode in ["table", "bfs"] {
            let mode = instance.mode_named(mode).unwrap();
            let solved = instance
                .solve(&board, mode, &Limits::default(), &SearchOptions::default())
                .unwrap();
            let Answer::Solved {
                moves: path,
                boards,
            } = solved.answer
            else {
                panic!("{metric} {mode}: {:?}", solved.answer)
            };
            assert_eq!(path.len(), moves, "{metric} {mode}");
            // Every board of the path is one brute-force move after the one before.
            let mut before = naive.grid(KLOTSKI);
            for board in &boards {
                let after = naive.grid(board);
                assert!(
                    naive.successors(&before).contains(&after),
                    "{metric} {mode}: {board}"
                );
                before = after;
            }
            assert!(place(b'B', 4, 2)(&naive, &before));
        }
    }
}

#[test]
fn every_blocks_case_is_what_the_brute_force_finds() {
    let text = std::fs::read_to_string(crate::case_path("blocks.toml")).unwrap();
    let table: toml::Table = text.parse().unwrap();
    let cases = table["blocks"].as_array().unwrap();
    assert!(cases.len() >= 8);
    for case in cases {
        let case = case.as_table().unwrap();
        let rows = |key: &str| -> String {
            let rows = case[key].as_array().unwrap();
            let rows: Vec<&str> = rows.iter().map(|r| r.as_str().unwrap()).collect();
            rows.join("\n")
        };
        let start = rows("board");
        let declared: Vec<(u8, (usize, usize))> = case
            .get("shapes")
            .and_then(|s| s.as_table())
            .into_iter()
            .flatten()
            .map(|(letter, size)| {
                let (h, w) = size.as_str().unwrap().split_once('x').unwrap();
                (
                    letter.as_bytes()[0],
                    (h.parse().unwrap(), w.parse().unwrap()),
                )
            })
            .collect();
        let along = case
            .get("axis")
            .is_some_and(|a| a.as_str() == Some("length"));
        let metric = case.get("metric").map_or("unit", |m| m.as_str().unwrap());
        let naive = Naive::new(&start, &declared, along, metric);
        let (_, nearest) = match case["goal"].as_str().unwrap() {
            "pattern" => {
                let target = naive.grid(&rows("target"));
                naive.search(&start, &move |_, grid| grid == target.as_slice())
            }
            _ => {
                let letter = case["piece"].as_str().unwrap().as_bytes()[0];
                let at = case["at"].as_array().unwrap();
                let (r, c) = (at[0].as_integer().unwrap(), at[1].as_integer().unwrap());
                naive.search(&start, &place(letter, r as usize, c as usize))
            }
        };
        let expected = match &case["answer"] {
            toml::Value::Integer(n) => Some(*n as usize),
            _ => None,
        };
        assert_eq!(nearest, expected, "{}", case["name"]);
    }
}

#[test]
fn a_puzzle_whose_positions_pass_the_budget_is_solved_without_an_index() {
    // Klotski's 65,880 positions take 1 MiB of index: under a budget of half that, the listing
    // stops, and the puzzle keeps BFS with a hash set (which fits in the budget of the solve).
    let config = klotski_config("unit");
    let tight = Limits {
        memory_budget: 512 << 10,
        ..Limits::default()
    };
    let instance = crate::registry().build(&config, &tight).unwrap();
    let refused = instance.mode_named("table").unwrap_err().to_string();
    assert!(
        refused.contains("its positions (512.0 KiB at least) are more than the index takes"),
        "{refused}"
    );
    let board = config.start_board().unwrap();
    let bfs = instance.mode_named("bfs").unwrap();
    let solved = instance
        .solve(&board, bfs, &Limits::default(), &SearchOptions::default())
        .unwrap();
    assert!(matches!(solved.answer, Answer::Solved { moves, .. } if moves.len() == 116));
    let options = ExploreOptions::default();
    let explored = instance
        .explore(Some(&board), &options, &mut |_, _| {})
        .unwrap();
    assert_eq!(
        (explored.reachable(), explored.strategy),
        (25_955, "hash-set")
    );
}

/// `statespace solve` on a config of `text` exits 2 with exactly the line `message` on stderr,
/// `FILE` standing for the config's path.
fn refused(text: &str, extra: &[&str], message: &str) {
    let file = config_file(text);
    let path = file.path().to_str().unwrap();
    let expected = format!("statespace: error: {}\n", message.replace("FILE", path));
    statespace()
        .args(["solve", path])
        .args(extra)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::eq(expected));
}

const PIECES: &str = "[puzzle]\nkind = \"blocks\"\nshapes = { V = \"2x1\", S = \"1x1\" }\n";
const GOAL: &str = "[goal]\nkind = \"place\"\npiece = \"B\"\nat = [4, 2]\n";

/// A config with the Klotski keys and this start board (its first row on line 10).
fn with_board(board: &str) -> String {
    format!("{PIECES}{GOAL}[start]\nboard = \"\"\"\n{board}\n\"\"\"\n")
}

#[test]
fn bad_boards_and_keys_are_one_line_with_file_line_and_key() {
    refused(
        &with_board("VBBV\nVBBV\nVHHV\nVSSV\nS.X.\n.X.."),
        &[],
        "FILE:15: start.board: row 6, column 2: 'X' is split in two: this cell is apart from the \
         one at row 5, column 3 (one letter is one piece, unless [puzzle] shapes gives its size)",
    );
    refused(
        &with_board("VBBV\nVBBV\nVHHV\nVHSV\nS..S"),
        &[],
        "FILE:13: start.board: row 4, column 3: piece 'H' is not a rectangle: its cells span \
         rows 3 to 4 and columns 2 to 3, but not this one",
    );
    refused(
        &with_board("VBBV\nVBBV\nVHHV\nVS?V\nS..S"),
        &[],
        "FILE:13: start.board: row 4, column 3: '?' is not a piece's letter, `.` (empty) or `#` \
         (a wall)",
    );
    // A board given apart from the config must have the config's pieces.
    let board = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(board.path(), "VBBV\nVBBV\nVHHV\nVSQV\nS..S\n").unwrap();
    let board_path = board.path().to_str().unwrap().to_string();
    refused(
        &with_board(KLOTSKI),
        &["--board", &board_path],
        &format!(
            "{board_path}:4: row 4, column 3: 'Q' is no piece of this puzzle (its pieces: BHSV)"
        ),
    );
    refused(
        &format!(
            "{}metric = \"diagonal\"\n{GOAL}[start]\nboard = \"B\"\n",
            PIECES
        ),
        &[],
        "FILE:4: puzzle.metric: unknown value `diagonal` (allowed: unit, line, path)",
    );
    refused(
        &format!(
            "[puzzle]\nkind = \"blocks\"\nshapes = {{ V = \"two\" }}\n{GOAL}[start]\nboard = \"B\"\n"
        ),
        &[],
        "FILE:3: puzzle.shapes: V = \"two\": a size is rows x columns, like \"2x1\"",
    );
    refused(
        &format!(
            "{PIECES}[goal]\nkind = \"place\"\npiece = \"Z\"\nat = [1, 1]\n[start]\nboard = \"B\"\n"
        ),
        &[],
        "FILE:6: goal.piece: 'Z' is no piece of this puzzle (its pieces: B)",
    );
}

#[test]
fn the_klotski_table_is_saved_and_loaded_with_no_warning() {
    // The table's file is named by a 32-byte hash of what determines it (issue 25: a fingerprint
    // listing every goal board, 183,561 bytes, was never saved): the second run loads it.
    let cache = tempfile::tempdir().unwrap();
    let cache_dir = cache.path().to_str().unwrap();
    for loaded in [false, true] {
        let out = statespace()
            .args([
                "solve",
                &config("klotski.toml"),
                "--mode",
                "table",
                "--json",
            ])
            .args(["--cache-dir", cache_dir])
            .assert()
            .code(0)
            .stderr("");
        let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(json["moves"], 116);
        assert_eq!(json["table_loaded"], loaded);
    }
    let files: Vec<_> = std::fs::read_dir(cache.path()).unwrap().collect();
    assert_eq!(files.len(), 1);
}

#[test]
fn look_alikes_of_other_letters_print_with_the_letters_written() {
    // D and E are alike (one shape, `interchangeable` by default): the start printed E as D,
    // in its boards and its move labels. Now a board names the look-alikes with the start's
    // letters in reading order: the start prints as written, and a move names the piece by
    // its letter on the board before it.
    let config = config_file(
        "[puzzle]\nkind = \"blocks\"\n[goal]\nkind = \"place\"\npiece = \"X\"\nat = [1, 2]\n\
         [start]\nboard = \"\"\"\nXXE\nD..\n\"\"\"\n",
    );
    let out = statespace()
        .args(["solve", config.path().to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["start"], "XXE\nD..");
    assert_eq!(
        json["path"],
        serde_json::json!(["E r1c3 down", "X r1c1 right"])
    );
    // Look-alikes are one piece to the puzzle: a board names them in reading order, so the
    // two swap letters once E passes D.
    assert_eq!(json["boards"], serde_json::json!(["XX.\nE.D", ".XX\nE.D"]));
    let out = statespace()
        .args([
            "solve",
            config.path().to_str().unwrap(),
            "--json",
            "--board",
            "-",
        ])
        .write_stdin("XXD\nE..\n")
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["start"], "XXE\nD..",
        "either letter reads as the class"
    );
}

#[test]
fn meeting_in_the_middle_names_look_alikes_by_the_board_each_move_is_played_on() {
    // Found by the differential suite (blocks:60): the crossing move of a search from both
    // ends was the inverse of the move the goal's side found, which names a look-alike by its
    // letter on the board after the move: `C r3c1 to r2c1`, where r3c1 holds A.
    let config = config_file(
        "[puzzle]\nkind = \"blocks\"\nmetric = \"path\"\n[goal]\nkind = \"pattern\"\n\
         target = \"\"\"\nX.#\nCA.\n.BB\n\"\"\"\n[start]\nboard = \"\"\"\n.X#\n..C\nABB\n\"\"\"\n",
    );
    let out = statespace()
        .args(["solve", config.path().to_str().unwrap(), "--json"])
        .args(["--mode", "bidirectional"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["path"],
        serde_json::json!(["C r2c3 to r2c2", "A r3c1 to r2c1", "X r1c2 to r1c1"])
    );
}
