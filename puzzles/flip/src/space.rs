//! [`Flip`]: the Flip Game as a [`StateSpace`] with a dense index, invertible moves and an
//! enumerable goal set.

use super::board::Geometry;
use statespace::cache::fingerprint::Content;
use statespace::space::{Describe, GoalSet, Indexed, Invertible, StateSpace, XorMoves};
use std::fmt;

/// What counts as solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlipGoal {
    /// Every piece the same colour, either colour (POJ 1753).
    Uniform,
    /// Every piece white.
    AllWhite,
    /// Every piece black.
    AllBlack,
    /// Exactly this board.
    Pattern(u64),
}

/// A press of one cell. Displays 1-based as `r{row}c{col}`: `r3c1` is row 3, column 1.
/// Orders by cell (row-major), the canonical order of an optimal solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Press {
    /// The row, 0-based.
    pub row: u8,
    /// The column, 0-based.
    pub col: u8,
}

impl fmt::Display for Press {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        CellLabel(self.row.into(), self.col.into()).fmt(f)
    }
}

/// The label of the cell at 0-based (`row`, `col`) on a board of any size: `r{row+1}c{col+1}`,
/// the same text as a [`Press`] (whose `u8` fields suit the search engines' small boards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellLabel(pub u32, pub u32);

impl fmt::Display for CellLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.0 + 1, self.1 + 1)
    }
}

/// The Flip Game on one geometry with one goal. The state is the board's bits (see
/// [`board`](super::board) for the layout), which is also its dense index.
#[derive(Clone, Debug)]
pub struct Flip {
    geometry: Geometry,
    goal: FlipGoal,
    /// `(press, mask)` per cell, in row-major order.
    presses: Vec<(Press, u64)>,
    /// The masks alone, in the same order, for [`XorMoves`].
    masks: Vec<u64>,
}

impl Flip {
    /// A Flip space; `geometry.cells()` is 1..=64 (the plugin validates it).
    pub fn new(geometry: Geometry, goal: FlipGoal) -> Self {
        assert!((1..=64).contains(&geometry.cells()), "1 to 64 cells");
        let presses = (0..geometry.rows)
            .flat_map(|r| (0..geometry.cols).map(move |c| (r, c)))
            .map(|(r, c)| {
                let press = Press {
                    row: r as u8,
                    col: c as u8,
                };
                (press, geometry.press_mask(r, c))
            })
            .collect::<Vec<_>>();
        let masks = presses.iter().map(|&(_, mask)| mask).collect();
        Flip {
            geometry,
            goal,
            presses,
            masks,
        }
    }

    /// The board size and torus flag.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// What counts as solved.
    pub fn goal(&self) -> FlipGoal {
        self.goal
    }

    /// The goal boards.
    pub fn goal_boards(&self) -> Vec<u64> {
        let full = self.geometry.full();
        match self.goal {
            FlipGoal::Uniform => vec![0, full],
            FlipGoal::AllWhite => vec![0],
            FlipGoal::AllBlack => vec![full],
            FlipGoal::Pattern(target) => vec![target],
        }
    }
}

impl StateSpace for Flip {
    type State = u64;
    type Move = Press;

    fn successors(&self, state: u64, visit: &mut dyn FnMut(Press, u64)) {
        for &(press, mask) in &self.presses {
            visit(press, state ^ mask);
        }
    }

    fn is_goal(&self, state: u64) -> bool {
        match self.goal {
            FlipGoal::Uniform => state == 0 || state == self.geometry.full(),
            FlipGoal::AllWhite => state == 0,
            FlipGoal::AllBlack => state == self.geometry.full(),
            FlipGoal::Pattern(target) => state == target,
        }
    }

    /// Presses commute and a second press of a cell cancels the first, so every reachable board
    /// is reached by pressing distinct cells in increasing order, no more presses than any other way.
    fn may_follow(&self, previous: Press, next: Press) -> bool {
        next > previous
    }
}

impl Indexed for Flip {
    fn size(&self) -> u128 {
        1u128 << self.geometry.cells()
    }

    fn index(&self, state: u64) -> u64 {
        state
    }

    fn state(&self, index: u64) -> u64 {
        index
    }
}

impl Invertible for Flip {
    /// A press undoes itself.
    fn inverse(&self, m: Press) -> Press {
        m
    }
}

/// The board is its own index and a press XORs its mask; 2^cells is a power of two and every
/// mask is a board.
impl XorMoves for Flip {
    fn xor_masks(&self) -> &[u64] {
        &self.masks
    }
}

/// The board's shape and every press as the cells it flips; the goal.
impl Describe for Flip {
    fn describe(&self, content: &mut Content) {
        let Geometry { rows, cols, wrap } = self.geometry;
        content
            .str("flip")
            .u64(rows.into())
            .u64(cols.into())
            .u64(wrap.into());
        content.str("presses").u64(self.masks.len() as u64);
        for &mask in &self.masks {
            content.u64(mask);
        }
        match self.goal {
            FlipGoal::Uniform => content.str("uniform"),
            FlipGoal::AllWhite => content.str("all white"),
            FlipGoal::AllBlack => content.str("all black"),
            FlipGoal::Pattern(board) => content.str("pattern").u64(board),
        };
    }
}

impl GoalSet for Flip {
    fn goals(&self, visit: &mut dyn FnMut(u64)) {
        for board in self.goal_boards() {
            visit(board);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pressing_twice_is_identity() {
        let flip = Flip::new(
            Geometry {
                rows: 3,
                cols: 5,
                wrap: true,
            },
            FlipGoal::Uniform,
        );
        let board = 0b101_1100_1010_0110;
        let mut n = 0;
        flip.successors(board, &mut |press, next| {
            let mut back = None;
            flip.successors(next, &mut |p, t| {
                if p == press {
                    back = Some(t)
                }
            });
            assert_eq!(back, Some(board), "{press}");
            n += 1;
        });
        assert_eq!(n, 15);
    }

    #[test]
    fn labels_are_one_based() {
        assert_eq!(Press { row: 2, col: 0 }.to_string(), "r3c1");
    }
}
