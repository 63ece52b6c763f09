//! Toy spaces: tiny puzzles that show the capability traits at work, for the docs, the tests of
//! this crate and of any crate built on it, and a first read.
//!
//! The core names no real puzzle (those are crates of their own, built on this one's public API),
//! so every engine here is documented and tested on these. Each is small enough that its
//! distances can be worked out by hand, and each has the capabilities an engine needs:
//!
//! | toy | states | moves | capabilities |
//! |---|---|---|---|
//! | [`Ring`] | `0..n` around a circle | `step` either way | indexed, invertible, goal set, described, board text |
//! | [`Line`] | `0..n` in a row | one either way | indexed, invertible, goal set, described, board text |
//! | [`Counter`] | `0..10` | `+1`, `+3` (not invertible) | board text |
//! | [`Lights`] | lamps on a grid, on or off | a press toggles a lamp and its neighbours | indexed, XOR moves, invertible, goal set, described, board text |
//! | [`heuristic`] | a walled grid, a 2 x 3 sliding puzzle, a detour graph | | heuristics, consistent or not, for A* and IDA*; the sliding puzzle is indexed, invertible, with its goal listed |

pub mod heuristic;

use crate::board_text::BoardText;
use crate::cache::fingerprint::Content;
use crate::error::Result;
use crate::space::{BoardFormat, Describe, GoalSet, Indexed, Invertible, StateSpace, XorMoves};

/// Parses a board that is one number below `n` (the toys with numbered states).
fn parse_number(text: &BoardText, n: u64) -> Result<u64> {
    let word = text.text.trim();
    match word.parse::<u64>() {
        Ok(s) if s < n => Ok(s),
        _ => Err(text.error_whole(format!("`{word}` is not a state (0 to {})", n - 1))),
    }
}

/// `n` states around a circle; a move steps `step` one way (`1`) or the other (`-1`); the goal is
/// `goal`. With `step` 1 the distance of `s` to 0 is `min(s, n - s)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ring {
    /// The number of states.
    pub n: u64,
    /// How far a move goes.
    pub step: u64,
    /// The goal state.
    pub goal: u64,
}

impl Ring {
    /// A ring of `n` states, a step of 1, the goal 0.
    pub const fn new(n: u64) -> Ring {
        Ring {
            n,
            step: 1,
            goal: 0,
        }
    }
}

impl StateSpace for Ring {
    type State = u64;
    type Move = i8;
    fn successors(&self, s: u64, visit: &mut dyn FnMut(i8, u64)) {
        visit(1, (s + self.step) % self.n);
        visit(-1, (s + self.n - self.step % self.n) % self.n);
    }
    fn is_goal(&self, s: u64) -> bool {
        s == self.goal
    }
    /// A shortest way round never turns back.
    fn may_follow(&self, previous: i8, next: i8) -> bool {
        previous == next
    }
}

impl Indexed for Ring {
    fn size(&self) -> u128 {
        self.n as u128
    }
    fn index(&self, s: u64) -> u64 {
        s
    }
    fn state(&self, i: u64) -> u64 {
        i
    }
}

impl Invertible for Ring {
    fn inverse(&self, m: i8) -> i8 {
        -m
    }
}

impl GoalSet for Ring {
    fn goals(&self, visit: &mut dyn FnMut(u64)) {
        visit(self.goal)
    }
}

impl Describe for Ring {
    fn describe(&self, content: &mut Content) {
        content
            .str("ring")
            .u64(self.n)
            .u64(self.step)
            .u64(self.goal);
    }
}

/// A state is its number.
impl BoardFormat for Ring {
    fn parse(&self, text: &BoardText) -> Result<u64> {
        parse_number(text, self.n)
    }
    fn format(&self, s: u64) -> String {
        s.to_string()
    }
}

/// `n` states in a row; a move steps one way (`1`) or the other (`-1`) where there is room; the
/// goal is 0, so the distance of `s` is `s`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line(pub u64);

impl StateSpace for Line {
    type State = u64;
    type Move = i8;
    fn successors(&self, s: u64, visit: &mut dyn FnMut(i8, u64)) {
        if s > 0 {
            visit(-1, s - 1);
        }
        if s + 1 < self.0 {
            visit(1, s + 1);
        }
    }
    fn is_goal(&self, s: u64) -> bool {
        s == 0
    }
}

impl Indexed for Line {
    fn size(&self) -> u128 {
        self.0 as u128
    }
    fn index(&self, s: u64) -> u64 {
        s
    }
    fn state(&self, i: u64) -> u64 {
        i
    }
}

impl Invertible for Line {
    fn inverse(&self, m: i8) -> i8 {
        -m
    }
}

impl GoalSet for Line {
    fn goals(&self, visit: &mut dyn FnMut(u64)) {
        visit(0)
    }
}

impl Describe for Line {
    fn describe(&self, content: &mut Content) {
        content.str("line").u64(self.0);
    }
}

/// A state is its number.
impl BoardFormat for Line {
    fn parse(&self, text: &BoardText) -> Result<u64> {
        parse_number(text, self.0)
    }
    fn format(&self, s: u64) -> String {
        s.to_string()
    }
}

/// A counter modulo 10 where a move adds 1 or 3; the goal is 0. Its moves have no inverse moves,
/// so engines that search backward do not apply, and an export of it is directed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter;

impl StateSpace for Counter {
    type State = u8;
    /// The amount added.
    type Move = u8;
    fn successors(&self, s: u8, visit: &mut dyn FnMut(u8, u8)) {
        for step in [1, 3] {
            visit(step, (s + step) % 10);
        }
    }
    fn is_goal(&self, s: u8) -> bool {
        s == 0
    }
}

/// A state is its number.
impl BoardFormat for Counter {
    fn parse(&self, text: &BoardText) -> Result<u8> {
        parse_number(text, 10).map(|s| s as u8)
    }
    fn format(&self, s: u8) -> String {
        s.to_string()
    }
}

/// Which boards of [`Lights`] are goals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LightsGoal {
    /// Every lamp off.
    AllOff,
    /// Every lamp the same: all off or all on.
    Uniform,
}

/// Lights Out on a `rows x cols` grid (at most 64 lamps): pressing a lamp toggles it and its
/// neighbours up, down, left and right (across the edges when `wrap`). A board is a bit mask,
/// lamp `r * cols + c` at bit `r * cols + c`, which is also its index; a press XORs a fixed
/// mask ([`XorMoves`]). Boards print a row a line, `b` for a lamp on and `w` for off.
///
/// Presses commute and undo themselves, so the distance of a board is the fewest lamps to press,
/// each once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lights {
    rows: u32,
    cols: u32,
    wrap: bool,
    goal: LightsGoal,
    masks: Vec<u64>,
}

impl Lights {
    /// The grid's lights; `1 <= rows * cols <= 64`.
    pub fn new(rows: u32, cols: u32, wrap: bool, goal: LightsGoal) -> Lights {
        assert!((1..=64).contains(&(rows * cols)), "1 to 64 lamps");
        let at = |r: i64, c: i64| {
            let (r, c) = match wrap {
                true => (r.rem_euclid(rows as i64), c.rem_euclid(cols as i64)),
                false if r < 0 || c < 0 || r >= rows as i64 || c >= cols as i64 => return 0,
                false => (r, c),
            };
            1u64 << (r as u64 * cols as u64 + c as u64)
        };
        let masks = (0..rows as i64)
            .flat_map(|r| (0..cols as i64).map(move |c| (r, c)))
            .map(|(r, c)| {
                [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]
                    .iter()
                    .fold(0, |mask, (dr, dc)| mask | at(r + dr, c + dc))
            })
            .collect();
        Lights {
            rows,
            cols,
            wrap,
            goal,
            masks,
        }
    }

    fn full(&self) -> u64 {
        u64::MAX >> (64 - self.rows * self.cols)
    }
}

impl StateSpace for Lights {
    type State = u64;
    /// The lamp pressed, numbered row by row from 0.
    type Move = u8;
    fn successors(&self, s: u64, visit: &mut dyn FnMut(u8, u64)) {
        for (lamp, &mask) in self.masks.iter().enumerate() {
            visit(lamp as u8, s ^ mask);
        }
    }
    fn is_goal(&self, s: u64) -> bool {
        s == 0 || (self.goal == LightsGoal::Uniform && s == self.full())
    }
    /// Each lamp at most once, in increasing order.
    fn may_follow(&self, previous: u8, next: u8) -> bool {
        next > previous
    }
}

impl Indexed for Lights {
    fn size(&self) -> u128 {
        1 << (self.rows * self.cols)
    }
    fn index(&self, s: u64) -> u64 {
        s
    }
    fn state(&self, i: u64) -> u64 {
        i
    }
}

impl Invertible for Lights {
    fn inverse(&self, m: u8) -> u8 {
        m
    }
}

impl XorMoves for Lights {
    fn xor_masks(&self) -> &[u64] {
        &self.masks
    }
}

impl GoalSet for Lights {
    fn goals(&self, visit: &mut dyn FnMut(u64)) {
        visit(0);
        if self.goal == LightsGoal::Uniform {
            visit(self.full());
        }
    }
}

impl Describe for Lights {
    fn describe(&self, content: &mut Content) {
        content
            .str("lights")
            .u64(self.rows.into())
            .u64(self.cols.into());
        content
            .u64(self.wrap.into())
            .u64((self.goal == LightsGoal::Uniform).into());
    }
}

/// Rows of `b` (on) and `w` (off).
impl BoardFormat for Lights {
    fn parse(&self, text: &BoardText) -> Result<u64> {
        let rows: Vec<&str> = text.text.lines().map(str::trim).collect();
        if rows.len() != self.rows as usize || rows.iter().any(|r| r.len() != self.cols as usize) {
            let shape = format!("expected {} rows of {} b/w", self.rows, self.cols);
            return Err(text.error_whole(shape));
        }
        let mut board = 0;
        for (i, lamp) in rows.concat().chars().enumerate() {
            match lamp {
                'b' => board |= 1 << i,
                'w' => {}
                other => return Err(text.error_whole(format!("`{other}` is not b or w"))),
            }
        }
        Ok(board)
    }
    fn format(&self, s: u64) -> String {
        let lamp = |i: u32| if s >> i & 1 == 1 { 'b' } else { 'w' };
        (0..self.rows)
            .map(|r| (0..self.cols).map(|c| lamp(r * self.cols + c)).collect())
            .collect::<Vec<String>>()
            .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_toy_reads_back_what_it_prints() {
        let text = |s: &str| BoardText::from_file("t", s.to_string());
        let lights = Lights::new(2, 3, false, LightsGoal::Uniform);
        assert_eq!(lights.format(0b100_001), "bww\nwwb");
        assert_eq!(lights.parse(&text("bww\nwwb")).unwrap(), 0b100_001);
        assert!(lights.parse(&text("bww")).is_err());
        assert_eq!(Ring::new(10).parse(&text("7")).unwrap(), 7);
        assert!(Ring::new(10).parse(&text("10")).is_err());
        assert_eq!(Counter.format(Counter.parse(&text("9")).unwrap()), "9");
    }

    #[test]
    fn a_press_toggles_a_lamp_and_its_neighbours() {
        let flat = Lights::new(3, 3, false, LightsGoal::AllOff);
        assert_eq!(flat.xor_masks()[0].count_ones(), 3);
        assert_eq!(flat.xor_masks()[4].count_ones(), 5);
        let torus = Lights::new(4, 4, true, LightsGoal::AllOff);
        assert!(torus.xor_masks().iter().all(|m| m.count_ones() == 5));
        let mut goals = Vec::new();
        Lights::new(1, 3, false, LightsGoal::Uniform).goals(&mut |g| goals.push(g));
        assert_eq!(goals, [0, 0b111]);
    }
}
