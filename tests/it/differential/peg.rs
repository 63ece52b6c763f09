//! Peg solitaire, the slow way: a board is rows of `o` (a peg), `.` (an empty hole) and `#` (no
//! hole); a jump `r{r}c{c}-r{r2}c{c2}` (1-based) takes the peg at the first place over a peg next
//! to it into the empty hole two steps away, removing the peg between: along rows and columns,
//! and on a triangle (rows written left-aligned) the diagonal down and to the right too. A board
//! prints each row up to its last hole, a line each. Goals: `centre` (one peg, in the hole at
//! the middle row and column of an odd x odd board), `one-peg`, a `pattern` board. Random
//! triangles of 10 and 15 holes and small crosses and rectangles (at most 16 holes), with random pegs.

use super::Case;
use super::sim::{Simulator, walk};
use statespace::random::Lcg;

pub struct Peg {
    directions: &'static [(isize, isize)],
    goal: Goal,
}

enum Goal {
    OnePeg,
    Board(Grid),
}

type Grid = Vec<Vec<u8>>;

const SQUARE: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
const TRIANGLE: [(isize, isize); 6] = [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1)];

fn at(grid: &Grid, r: isize, c: isize) -> Option<u8> {
    let row = grid.get(usize::try_from(r).ok()?)?;
    row.get(usize::try_from(c).ok()?).copied()
}

fn text(grid: &Grid) -> String {
    (grid.iter())
        .map(|row| String::from_utf8(row.clone()).unwrap() + "\n")
        .collect()
}

impl Simulator for Peg {
    type Board = Grid;

    fn text(&self, grid: &Grid) -> String {
        text(grid)
    }

    fn moves(&self, grid: &Grid) -> Vec<(String, Grid)> {
        let mut moves = Vec::new();
        for r in 0..grid.len() as isize {
            for c in 0..grid[r as usize].len() as isize {
                for &(dr, dc) in self.directions {
                    let (over, to) = ((r + dr, c + dc), (r + 2 * dr, c + 2 * dc));
                    if at(grid, r, c) == Some(b'o')
                        && at(grid, over.0, over.1) == Some(b'o')
                        && at(grid, to.0, to.1) == Some(b'.')
                    {
                        let mut after = grid.clone();
                        after[r as usize][c as usize] = b'.';
                        after[over.0 as usize][over.1 as usize] = b'.';
                        after[to.0 as usize][to.1 as usize] = b'o';
                        let label = format!("r{}c{}-r{}c{}", r + 1, c + 1, to.0 + 1, to.1 + 1);
                        moves.push((label, after));
                    }
                }
            }
        }
        moves
    }

    fn is_goal(&self, grid: &Grid) -> bool {
        match &self.goal {
            Goal::OnePeg => grid.iter().flatten().filter(|&&b| b == b'o').count() == 1,
            Goal::Board(target) => grid == target,
        }
    }
}

/// A board's holes: a triangle (left-aligned) or a rectangle less some corners (a cross when
/// all four go). No row ends in a cell without a hole, and some row starts with a hole.
fn holes(triangle: bool, rng: &mut Lcg) -> Grid {
    if triangle {
        let rows = 4 + rng.below(2);
        return (0..rows).map(|r| vec![b'.'; r + 1]).collect();
    }
    // 3 x 3 to 4 x 4 less the corner cells or not, or the 5 x 5 plus: at most 16 holes.
    let (rows, cols, cut) = match rng.below(5) {
        0 => (5, 5, 2),
        _ => (3 + rng.below(2), 3 + rng.below(2), rng.below(2)),
    };
    let mut grid = vec![vec![b'.'; cols]; rows];
    if cut > 0 {
        // The corners off: rows `0..cut` and the last `cut` lose their first and last `cut`.
        for r in (0..cut).chain(rows - cut..rows) {
            for c in (0..cut).chain(cols - cut..cols) {
                grid[r][c] = b'#';
            }
            let keep = grid[r].iter().rposition(|&b| b != b'#').unwrap() + 1;
            grid[r].truncate(keep);
        }
    }
    grid
}

pub fn case(rng: &mut Lcg) -> Case<Peg> {
    let triangle = rng.below(2) == 0;
    let mut start = holes(triangle, rng);
    let hole_count = start.iter().flatten().filter(|&&b| b == b'.').count();
    // Full but for one hole, or pegs at random.
    let empty = rng.below(hole_count);
    let full = rng.below(2) == 0;
    for (i, cell) in (start.iter_mut().flatten())
        .filter(|b| **b == b'.')
        .enumerate()
    {
        if (full && i != empty) || (!full && rng.below(3) != 0) {
            *cell = b'o';
        }
    }
    let directions: &'static [(isize, isize)] = if triangle { &TRIANGLE } else { &SQUARE };
    let mut sim = Peg {
        directions,
        goal: Goal::OnePeg,
    };
    let (rows, cols) = (start.len(), start.iter().map(Vec::len).max().unwrap());
    let centre = (rows % 2 == 1 && cols % 2 == 1)
        .then(|| at(&start, (rows / 2) as isize, (cols / 2) as isize))
        .flatten()
        .filter(|&b| b != b'#');
    let goal_toml = match rng.below(3) {
        0 if centre.is_some() => {
            let mut target = start.clone();
            for cell in target.iter_mut().flatten().filter(|b| **b == b'o') {
                *cell = b'.';
            }
            target[rows / 2][cols / 2] = b'o';
            sim.goal = Goal::Board(target);
            "kind = \"centre\"\n".to_string()
        }
        1 => {
            let target = walk(&sim, &start, 1 + rng.below(6), rng);
            let toml = format!(
                "kind = \"pattern\"\ntarget = \"\"\"\n{}\"\"\"\n",
                text(&target)
            );
            sim.goal = Goal::Board(target);
            toml
        }
        _ => "kind = \"one-peg\"\n".to_string(),
    };
    let config = format!(
        "[puzzle]\nkind = \"peg\"\nshape = \"{}\"\n\n[goal]\n{goal_toml}\n[start]\nboard = \
         \"\"\"\n{}\"\"\"\n",
        if triangle { "triangle" } else { "square" },
        text(&start)
    );
    Case {
        sim,
        start,
        config,
        cap: 400_000,
        heuristic_keys: Vec::new(),
        costly_heuristics: &[],
    }
}
