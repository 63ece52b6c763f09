//! Toys with heuristics, for A* and IDA*: a grid with walls ([`Grid`], [`maze`]), the exact
//! distance around a [`Ring`], a 2 x 3 sliding puzzle ([`Slide`]) with Manhattan distance, and a
//! graph built so that an inconsistent heuristic makes A* close a state too early ([`Detour`]).
//! Each space has a consistent heuristic and an admissible one that is not consistent (a move
//! may drop it by more than one), which is what A*'s reopening and IDA*'s thresholds are tested
//! against.

use super::Ring;
use crate::space::{GoalSet, Heuristic, Indexed, Invertible, StateSpace};

/// A `W x H` grid; `#` cells are walls. A move steps to a free neighbour (`U D L R`); the goal is
/// one cell. States are `y * W + x`.
pub struct Grid {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Per cell `y * width + x`: not a wall.
    pub free: Vec<bool>,
    /// The goal cell.
    pub goal: u32,
}

impl Grid {
    /// Parses rows of `.` (free), `#` (wall) and `G` (the goal, free).
    pub fn parse(rows: &[&str]) -> Grid {
        let height = rows.len() as u32;
        let width = rows[0].len() as u32;
        let mut free = Vec::new();
        let mut goal = 0;
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                if c == 'G' {
                    goal = y as u32 * width + x as u32;
                }
                free.push(c != '#');
            }
        }
        Grid {
            width,
            height,
            free,
            goal,
        }
    }

    /// Every free cell.
    pub fn cells(&self) -> Vec<u32> {
        (0..self.width * self.height)
            .filter(|&s| self.free[s as usize])
            .collect()
    }
}

impl StateSpace for Grid {
    type State = u32;
    type Move = char;
    fn successors(&self, s: u32, visit: &mut dyn FnMut(char, u32)) {
        let (x, y) = (s % self.width, s / self.width);
        let mut go = |m, nx: u32, ny: u32| {
            let t = ny * self.width + nx;
            if self.free[t as usize] {
                visit(m, t);
            }
        };
        if y > 0 {
            go('U', x, y - 1);
        }
        if y + 1 < self.height {
            go('D', x, y + 1);
        }
        if x > 0 {
            go('L', x - 1, y);
        }
        if x + 1 < self.width {
            go('R', x + 1, y);
        }
    }
    fn is_goal(&self, s: u32) -> bool {
        s == self.goal
    }
    fn may_follow(&self, previous: char, next: char) -> bool {
        !matches!(
            (previous, next),
            ('U', 'D') | ('D', 'U') | ('L', 'R') | ('R', 'L')
        )
    }
}

impl Indexed for Grid {
    fn size(&self) -> u128 {
        (self.width * self.height) as u128
    }
    fn index(&self, s: u32) -> u64 {
        s as u64
    }
    fn state(&self, i: u64) -> u32 {
        i as u32
    }
}

/// Manhattan distance to the grid's goal: consistent.
pub struct GridManhattan;

impl Heuristic<Grid> for GridManhattan {
    fn estimate(&self, g: &Grid, s: u32) -> u32 {
        let (x, y) = (s % g.width, s / g.width);
        let (gx, gy) = (g.goal % g.width, g.goal / g.width);
        x.abs_diff(gx) + y.abs_diff(gy)
    }
}

/// Manhattan distance on every third cell and 0 elsewhere: admissible, not consistent (a move
/// can drop the estimate by more than one).
pub struct GridPatchy;

impl Heuristic<Grid> for GridPatchy {
    fn estimate(&self, g: &Grid, s: u32) -> u32 {
        if s.is_multiple_of(3) {
            GridManhattan.estimate(g, s)
        } else {
            0
        }
    }
}

/// The estimate 0 everywhere: A* becomes uniform-cost search, IDA* becomes IDDFS.
pub struct Zero;

impl<P: StateSpace> Heuristic<P> for Zero {
    fn estimate(&self, _: &P, _: P::State) -> u32 {
        0
    }
}

/// The exact distance around a [`Ring`] of step 1: consistent.
pub struct RingDistance;

impl Heuristic<Ring> for RingDistance {
    fn estimate(&self, r: &Ring, s: u64) -> u32 {
        let d = s.abs_diff(r.goal);
        d.min(r.n - d) as u32
    }
}

/// The 2 x 3 sliding puzzle: six cells hold tiles 1..=5 and the blank 0, three bits each (cell
/// `i` at bits `3i..3i + 3`). A move slides the blank `U D L R` (and the opposite way undoes
/// it). The goal is `1 2 3 / 4 5 0`. Half of the 720 boards (one permutation parity) can reach
/// it.
pub struct Slide;

/// The goal of [`Slide`]: `1 2 3 / 4 5 0`.
pub const SLIDE_GOAL: u32 = pack(&[1, 2, 3, 4, 5, 0]);

/// The [`Slide`] board whose cells hold `cells` (0 the blank).
pub const fn pack(cells: &[u32; 6]) -> u32 {
    let mut s = 0;
    let mut i = 0;
    while i < 6 {
        s |= cells[i] << (3 * i);
        i += 1;
    }
    s
}

fn cell(s: u32, i: u32) -> u32 {
    (s >> (3 * i)) & 7
}

impl StateSpace for Slide {
    type State = u32;
    type Move = char;
    fn successors(&self, s: u32, visit: &mut dyn FnMut(char, u32)) {
        let blank = (0..6).find(|&i| cell(s, i) == 0).expect("a blank");
        let (x, y) = (blank % 3, blank / 3);
        let mut swap = |m, other: u32| {
            let tile = cell(s, other);
            let t = (s & !(7 << (3 * other))) | (tile << (3 * blank));
            visit(m, t);
        };
        if y > 0 {
            swap('U', blank - 3);
        }
        if y < 1 {
            swap('D', blank + 3);
        }
        if x > 0 {
            swap('L', blank - 1);
        }
        if x < 2 {
            swap('R', blank + 1);
        }
    }
    fn is_goal(&self, s: u32) -> bool {
        s == SLIDE_GOAL
    }
    fn may_follow(&self, previous: char, next: char) -> bool {
        !matches!(
            (previous, next),
            ('U', 'D') | ('D', 'U') | ('L', 'R') | ('R', 'L')
        )
    }
}

impl Indexed for Slide {
    fn size(&self) -> u128 {
        720
    }
    /// The lexicographic rank of the permutation (Lehmer code).
    fn index(&self, s: u32) -> u64 {
        let mut rank = 0u64;
        for i in 0..6 {
            let smaller = (i + 1..6).filter(|&j| cell(s, j) < cell(s, i)).count() as u64;
            rank = rank * (6 - i as u64) + smaller;
        }
        rank
    }
    fn state(&self, mut index: u64) -> u32 {
        let mut digits = [0u64; 6];
        for i in (0..6).rev() {
            let base = 6 - i as u64;
            digits[i] = index % base;
            index /= base;
        }
        let mut left: Vec<u32> = (0..6).collect();
        let mut cells = [0u32; 6];
        for i in 0..6 {
            cells[i] = left.remove(digits[i] as usize);
        }
        pack(&cells)
    }
}

/// The move the other way: `U D L R` to `D U R L`.
fn opposite(m: char) -> char {
    match m {
        'U' => 'D',
        'D' => 'U',
        'L' => 'R',
        _ => 'L',
    }
}

/// A move of the blank undoes the move the other way.
impl Invertible for Slide {
    fn inverse(&self, m: char) -> char {
        opposite(m)
    }
}

/// A step undoes the step the other way.
impl Invertible for Grid {
    fn inverse(&self, m: char) -> char {
        opposite(m)
    }
}

impl GoalSet for Grid {
    fn goals(&self, visit: &mut dyn FnMut(u32)) {
        visit(self.goal)
    }
}

impl GoalSet for Slide {
    fn goals(&self, visit: &mut dyn FnMut(u32)) {
        visit(SLIDE_GOAL)
    }
}

/// The sum of the tiles' Manhattan distances to their goal cells: consistent.
pub struct SlideManhattan;

impl Heuristic<Slide> for SlideManhattan {
    fn estimate(&self, _: &Slide, s: u32) -> u32 {
        (0..6)
            .map(|i| {
                let tile = cell(s, i);
                if tile == 0 {
                    return 0;
                }
                let home = tile - 1;
                (i % 3).abs_diff(home % 3) + (i / 3).abs_diff(home / 3)
            })
            .sum()
    }
}

/// Manhattan distance on boards whose packed value is odd-ish by a hash, 0 on the others:
/// admissible, not consistent.
pub struct SlidePatchy;

impl Heuristic<Slide> for SlidePatchy {
    fn estimate(&self, space: &Slide, s: u32) -> u32 {
        if s.wrapping_mul(0x9E37_79B9) >> 30 == 0 {
            SlideManhattan.estimate(space, s)
        } else {
            0
        }
    }
}

/// A graph that makes A* with [`DetourEstimate`] close state 3 through the long way first:
///
/// ```text
/// 0 -a-> 1 -b-> 2 -c-> 3 -> 4 -> 5 -> 6 (goal)
/// 0 -d-> 7 ------e---> 3
/// ```
///
/// The short way to 3 (through 7) has a high but admissible estimate at 7, so 3 is reached and
/// expanded with g = 3 before 7 is expanded and improves it to g = 2.
pub struct Detour;

impl StateSpace for Detour {
    type State = u8;
    type Move = char;
    fn successors(&self, s: u8, visit: &mut dyn FnMut(char, u8)) {
        match s {
            0 => {
                visit('a', 1);
                visit('d', 7);
            }
            1 => visit('b', 2),
            2 => visit('c', 3),
            3 => visit('x', 4),
            4 => visit('y', 5),
            5 => visit('z', 6),
            7 => visit('e', 3),
            _ => {}
        }
    }
    fn is_goal(&self, s: u8) -> bool {
        s == 6
    }
}

/// 0 on the long way and on 3..=6, the exact distance (4) at 7: admissible, inconsistent at
/// the edge 7 -> 3.
pub struct DetourEstimate;

impl Heuristic<Detour> for DetourEstimate {
    fn estimate(&self, _: &Detour, s: u8) -> u32 {
        if s == 7 { 4 } else { 0 }
    }
}

impl Indexed for Detour {
    fn size(&self) -> u128 {
        8
    }
    fn index(&self, s: u8) -> u64 {
        s as u64
    }
    fn state(&self, i: u64) -> u8 {
        i as u8
    }
}

/// A walled grid: a 7 x 5 maze whose bottom-right corner room is closed off.
pub fn maze() -> Grid {
    Grid::parse(&[
        "..#....", //
        ".##.##.", //
        "...#G..", //
        ".#..###", //
        "...##..",
    ])
}
