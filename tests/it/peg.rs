//! The peg solitaire plugin (`kind = "peg"`) against a brute force written here: boards as grids
//! of characters, a jump made by rewriting three cells, positions searched breadth-first with a
//! hash set (nothing of the plugin's code: no masks, no jump list). The 15-hole triangle from
//! each of its 15 starts (positions reached, and which one-peg finishes each can reach), every
//! engine's answer and path, the position-class invariant never refusing a solvable board; the
//! English board's invariant; bad boards and keys, one line each.

use crate::{config, config_file, statespace};
use predicates::prelude::*;
use statespace::board_text::BoardText;
use statespace::config::Config;
use statespace::instance::{Answer, ExploreOptions};
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use std::collections::{HashMap, HashSet, VecDeque};

type Grid = Vec<Vec<u8>>;

/// Peg solitaire the slow way: `o` a peg, `.` a hole, anything else no hole.
struct Naive {
    directions: Vec<(isize, isize)>,
}

impl Naive {
    fn triangle() -> Naive {
        Naive {
            directions: vec![(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1)],
        }
    }

    fn square() -> Naive {
        Naive {
            directions: vec![(-1, 0), (1, 0), (0, -1), (0, 1)],
        }
    }

    fn grid(text: &str) -> Grid {
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.bytes().collect())
            .collect()
    }

    fn at(grid: &Grid, r: isize, c: isize) -> Option<u8> {
        let row = grid.get(usize::try_from(r).ok()?)?;
        row.get(usize::try_from(c).ok()?).copied()
    }

    fn successors(&self, grid: &Grid) -> Vec<Grid> {
        let mut next = Vec::new();
        for r in 0..grid.len() as isize {
            for c in 0..grid[r as usize].len() as isize {
                for &(dr, dc) in &self.directions {
                    let over = (r + dr, c + dc);
                    let to = (r + 2 * dr, c + 2 * dc);
                    if Naive::at(grid, r, c) == Some(b'o')
                        && Naive::at(grid, over.0, over.1) == Some(b'o')
                        && Naive::at(grid, to.0, to.1) == Some(b'.')
                    {
                        let mut after = grid.clone();
                        after[r as usize][c as usize] = b'.';
                        after[over.0 as usize][over.1 as usize] = b'.';
                        after[to.0 as usize][to.1 as usize] = b'o';
                        next.push(after);
                    }
                }
            }
        }
        next
    }

    /// Every position `start` reaches, with its distance.
    fn reach(&self, start: &Grid) -> HashMap<Grid, usize> {
        let mut distance = HashMap::from([(start.clone(), 0)]);
        let mut queue = VecDeque::from([start.clone()]);
        while let Some(grid) = queue.pop_front() {
            let d = distance[&grid];
            for next in self.successors(&grid) {
                if !distance.contains_key(&next) {
                    distance.insert(next.clone(), d + 1);
                    queue.push_back(next);
                }
            }
        }
        distance
    }

    /// Of the positions `start` reaches, those from which some `goal` position is reachable.
    fn solvable(
        &self,
        reached: &HashMap<Grid, usize>,
        goal: &dyn Fn(&Grid) -> bool,
    ) -> HashSet<Grid> {
        // Deepest first: a position is solvable when it is a goal or a successor is solvable.
        let mut order: Vec<&Grid> = reached.keys().collect();
        order.sort_by_key(|g| std::cmp::Reverse(reached[*g]));
        let mut solvable = HashSet::new();
        for grid in order {
            if goal(grid) || self.successors(grid).iter().any(|n| solvable.contains(n)) {
                solvable.insert(grid.clone());
            }
        }
        solvable
    }
}

fn pegs(grid: &Grid) -> usize {
    grid.iter().flatten().filter(|&&b| b == b'o').count()
}

fn text(grid: &Grid) -> String {
    grid.iter()
        .map(|row| String::from_utf8(row.clone()).unwrap() + "\n")
        .collect()
}

/// The triangle with the hole at `(r, c)` empty, every other filled.
fn triangle_without(r: usize, c: usize) -> Grid {
    let mut grid: Grid = (0..5).map(|row| vec![b'o'; row + 1]).collect();
    grid[r][c] = b'.';
    grid
}

fn triangle_config(goal: &str) -> Config {
    let text = std::fs::read_to_string(config("peg-triangle.toml")).unwrap();
    let text = text.replace("kind = \"one-peg\"", goal);
    Config::parse("peg-triangle.toml", &text).unwrap()
}

fn board(grid: &Grid) -> BoardText {
    BoardText::from_file("<test>", text(grid))
}

#[test]
fn the_triangle_from_each_start_reaches_what_a_brute_force_reaches() {
    let naive = Naive::triangle();
    let config = triangle_config("kind = \"one-peg\"");
    let instance = crate::registry()
        .build(&config, &Limits::default())
        .unwrap();
    let bfs = instance.mode_named("bfs").unwrap();
    for r in 0..5 {
        for c in 0..=r {
            let start = triangle_without(r, c);
            let reached = naive.reach(&start);
            let solvable = naive.solvable(&reached, &|g| pegs(g) == 1);
            let explored = instance
                .explore(
                    Some(&board(&start)),
                    &ExploreOptions::default(),
                    &mut |_, _| {},
                )
                .unwrap();
            assert_eq!(explored.reachable(), reached.len() as u64, "start r{r}c{c}");
            let mut histogram = vec![0u64; 14];
            reached.values().for_each(|&d| histogram[d] += 1);
            histogram.truncate(explored.histogram.len());
            assert_eq!(explored.histogram, histogram, "start r{r}c{c}");
            let solved = instance
                .solve(
                    &board(&start),
                    bfs,
                    &Limits::default(),
                    &SearchOptions::default(),
                )
                .unwrap();
            match (solved.answer, solvable.contains(&start)) {
                (Answer::Solved { moves, boards }, true) => {
                    assert_eq!(moves.len(), 13, "start r{r}c{c}");
                    let mut before = start.clone();
                    for after in &boards {
                        let after = Naive::grid(after);
                        assert!(naive.successors(&before).contains(&after), "{after:?}");
                        before = after;
                    }
                    assert_eq!(pegs(&before), 1);
                }
                (answer, expected) => panic!("start r{r}c{c}: {answer:?}, solvable {expected}"),
            }
        }
    }
}

#[test]
fn each_finish_from_the_corner_start_is_found_or_proven_impossible_by_every_engine() {
    // Goal: one peg at a given hole, from the config's start (the top corner empty). The brute
    // force says which holes a last peg can reach; every engine (and the invariant) agrees.
    let naive = Naive::triangle();
    let start = triangle_without(0, 0);
    let reached = naive.reach(&start);
    let mut solvable_count = 0;
    for r in 0..5 {
        for c in 0..=r {
            let mut target: Grid = (0..5).map(|row| vec![b'.'; row + 1]).collect();
            target[r][c] = b'o';
            let solvable = naive.solvable(&reached, &|g| *g == target).contains(&start);
            solvable_count += solvable as usize;
            let goal = format!(
                "kind = \"pattern\"\ntarget = \"\"\"\n{}\"\"\"",
                text(&target)
            );
            let instance = crate::registry()
                .build(&triangle_config(&goal), &Limits::default())
                .unwrap();
            for mode in instance.modes() {
                let solved = instance
                    .solve(
                        &board(&start),
                        mode,
                        &Limits::default(),
                        &SearchOptions::default(),
                    )
                    .unwrap();
                match (&solved.answer, solvable) {
                    (Answer::Solved { moves, boards }, true) => {
                        assert_eq!(moves.len(), 13, "{mode} r{r}c{c}");
                        assert_eq!(Naive::grid(boards.last().unwrap()), target, "{mode}");
                    }
                    (Answer::Unsolvable, false) => {}
                    (answer, _) => panic!("{mode} r{r}c{c}: {answer:?}, solvable {solvable}"),
                }
            }
        }
    }
    // The corner start can finish in the top corner and a few other holes, not everywhere.
    assert!((2..15).contains(&solvable_count), "{solvable_count}");
}

#[test]
fn the_position_class_never_refuses_a_board_that_can_finish() {
    // Every position the triangle's corner start reaches, and every position around the English
    // start: the invariant's "unsolvable" holds only where the brute force finds no finish.
    use statespace::space::Invariant;
    use statespace_peg::Peg;
    use statespace_peg::board::{Board, Shape};
    use statespace_peg::goal::Goal;
    let naive = Naive::triangle();
    let start = triangle_without(0, 0);
    let reached = naive.reach(&start);
    let (holes, _) = Board::read_start(&board(&start), Shape::Triangle).unwrap();
    let peg = Peg::new(holes.clone(), Goal::OnePeg);
    let solvable = naive.solvable(&reached, &|g| pegs(g) == 1);
    let mut refused = 0;
    for grid in reached.keys() {
        let position = holes.read(&board(grid)).unwrap();
        if peg.unsolvable_by(position).is_some() {
            assert!(!solvable.contains(grid), "{}", text(grid));
            refused += 1;
        }
    }
    // One peg anywhere is a weak goal (any class of one peg): the invariant refuses few here.
    assert!(refused < reached.len());

    // The English board: the start is of the centre's class; a start with a corner hole empty
    // instead is of another, proven at once (the classic result).
    let english = std::fs::read_to_string(config("peg-english.toml")).unwrap();
    let config = Config::parse("peg-english.toml", &english).unwrap();
    let instance = crate::registry()
        .build(&config, &Limits::default())
        .unwrap();
    let corner = "  .oo\n  ooo\nooooooo\nooooooo\nooooooo\n  ooo\n  ooo\n";
    let bfs = instance.mode_named("bfs").unwrap();
    let solved = instance
        .solve(
            &BoardText::from_file("<test>", corner.into()),
            bfs,
            &Limits::default(),
            &SearchOptions::default(),
        )
        .unwrap();
    assert!(matches!(solved.answer, Answer::Unsolvable));
    assert_eq!(solved.proof, Some("position class"));
    let (holes, start) = Board::read_start(&config.start_board().unwrap(), Shape::Square).unwrap();
    let centre = Peg::new(holes, Goal::Board(1 << 16));
    assert_eq!(centre.unsolvable_by(start), None);
    // Near the English goal, the brute force decides every position two jumps from the end.
    let square = Naive::square();
    let goal =
        Naive::grid(&"  ...\n  ...\n.......\n...o...\n.......\n  ...\n  ...\n".replace(' ', "#"));
    let (holes, _) = Board::read_start(&board(&goal), Shape::Square).unwrap();
    let peg = Peg::new(holes.clone(), Goal::Board(1 << 16));
    for three in three_peg_boards(&goal) {
        let reached = square.reach(&three);
        let finishes = reached.contains_key(&goal);
        let position = holes.read(&board(&three)).unwrap();
        if peg.unsolvable_by(position).is_some() {
            assert!(!finishes, "{}", text(&three));
        }
    }
}

/// Every board of `like`'s holes with three pegs.
fn three_peg_boards(like: &Grid) -> Vec<Grid> {
    let holes: Vec<(usize, usize)> = like
        .iter()
        .enumerate()
        .flat_map(|(r, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, b)| **b != b'#')
                .map(move |(c, _)| (r, c))
        })
        .collect();
    let mut boards = Vec::new();
    for a in 0..holes.len() {
        for b in a + 1..holes.len() {
            for c in b + 1..holes.len() {
                let mut grid: Grid = like
                    .iter()
                    .map(|row| {
                        row.iter()
                            .map(|&x| if x == b'#' { b'#' } else { b'.' })
                            .collect()
                    })
                    .collect();
                for (r, col) in [holes[a], holes[b], holes[c]] {
                    grid[r][col] = b'o';
                }
                boards.push(grid);
            }
        }
    }
    boards
}

/// `statespace solve` on a config of `text` exits 2 with exactly the line `message` on stderr,
/// `FILE` standing for the config's path.
fn refused(text: &str, message: &str) {
    let file = config_file(text);
    let path = file.path().to_str().unwrap();
    let expected = format!("statespace: error: {}\n", message.replace("FILE", path));
    statespace()
        .args(["solve", path])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::eq(expected));
}

#[test]
fn bad_boards_and_keys_are_one_line_with_file_line_and_key() {
    let start = "[start]\nboard = \"\"\"\n.oo\nooo\n\"\"\"\n";
    refused(
        &format!("[puzzle]\nkind = \"peg\"\nshape = \"hex\"\n{start}"),
        "FILE:3: puzzle.shape: unknown value `hex` (allowed: square, triangle)",
    );
    refused(
        &format!("[puzzle]\nkind = \"peg\"\n{start}"),
        "FILE:5: start.board: the board (2 x 3) has no centre hole for the goal `centre`: give \
         [goal] kind = \"one-peg\" or \"pattern\"",
    );
    refused(
        "[puzzle]\nkind = \"peg\"\n[start]\nboard = \"\"\"\n.oo\noxo\n\"\"\"\n",
        "FILE:6: start.board: column 2: 'x' is not a cell (`o` a peg, `.` an empty hole, `#` or \
         a space no hole)",
    );
    refused(
        &format!(
            "[puzzle]\nkind = \"peg\"\n[goal]\nkind = \"pattern\"\ntarget = \"\"\"\n.oo\no.o.\n\"\"\"\n{start}"
        ),
        "FILE:7: goal.target: row 2, column 4: no hole here on this board (the [start] board's)",
    );
    refused(
        &format!("[puzzle]\nkind = \"peg\"\n[goal]\nkind = \"two-pegs\"\n{start}"),
        "FILE:4: goal.kind: unknown peg goal `two-pegs` (known: centre, one-peg, pattern)",
    );
}

#[test]
fn the_triangle_solves_and_draws_from_the_command_line() {
    let svg = tempfile::Builder::new().suffix(".svg").tempfile().unwrap();
    let path = svg.path().to_str().unwrap();
    statespace()
        .args(["solve", &config("peg-triangle.toml"), "--svg", path])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("13 moves\npath: r3c1-r1c1 "));
    let drawn = std::fs::read_to_string(path).unwrap();
    // 14 boards of 15 holes, each hole one cell rectangle with the peg or hole colour.
    assert_eq!(
        drawn.matches("#8c510a").count() + drawn.matches("#f6e8c3").count(),
        14 * 15
    );
}
