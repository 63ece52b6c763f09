//! The moves of peg solitaire: every jump of a board, listed once as three bit masks
//! ([`Jumps`]), and a jump as a person reads it ([`Jump`], `r4c2-r4c4`: the peg of row 4,
//! column 2 jumps to row 4, column 4).
//!
//! A position's jumps are found by one mask and compare a jump (`pegs & (from | over | to) ==
//! from | over`) and made by one XOR: the English board's 76 jumps cost 76 of each, nothing
//! allocated.
//!
//! Two jumps with no hole in common can be made in either order and reach the same position;
//! [`Jumps::may_follow`] keeps one order of such a pair (the lower-numbered jump first), which
//! prunes the depth-first engines' tree without losing a position: any sequence of jumps can be
//! reordered into one whose neighbours that commute are in order.

use crate::board::Board;
use std::fmt;

/// A jump, for the path: the holes it leaves and lands in (1-based row and column), and its
/// number in the board's list (the order [`Jumps::may_follow`] keeps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Jump {
    /// Its place in [`Jumps::list`].
    pub number: u8,
    /// Row and column of the peg that jumps, 1-based.
    pub from: (u8, u8),
    /// Row and column of the hole it lands in, 1-based.
    pub to: (u8, u8),
}

impl fmt::Display for Jump {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let ((from_row, from_col), (to_row, to_col)) = (self.from, self.to);
        write!(f, "r{from_row}c{from_col}-r{to_row}c{to_col}")
    }
}

/// One jump's holes as masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Masks {
    /// The peg that jumps and the peg it jumps over: both must be there.
    pub pegs: u64,
    /// Those two and the hole it lands in, which must be empty.
    pub all: u64,
}

/// Every jump of a board.
#[derive(Clone, Debug)]
pub struct Jumps {
    /// The jumps' masks, in [`Jump::number`] order.
    pub list: Vec<Masks>,
    /// The jumps, in the same order.
    pub labels: Vec<Jump>,
}

impl Jumps {
    /// Every jump of `board`: from each hole, in each direction of its shape, over a hole into
    /// the hole behind it.
    pub fn of(board: &Board) -> Jumps {
        let mut list = Vec::new();
        let mut labels = Vec::new();
        for from in 0..board.holes.len() as u8 {
            for &direction in board.shape.directions() {
                let Some(over) = board.step(from, direction) else {
                    continue;
                };
                let Some(to) = board.step(over, direction) else {
                    continue;
                };
                let pegs = 1 << from | 1 << over;
                list.push(Masks {
                    pegs,
                    all: pegs | 1 << to,
                });
                let place = |hole: u8| {
                    let (r, c) = board.holes[hole as usize];
                    (r + 1, c + 1)
                };
                labels.push(Jump {
                    number: labels.len() as u8,
                    from: place(from),
                    to: place(to),
                });
            }
        }
        Jumps { list, labels }
    }

    /// Calls `visit` with each jump `pegs` allows and the position after it.
    #[inline]
    pub fn successors(&self, pegs: u64, visit: &mut dyn FnMut(Jump, u64)) {
        for (jump, masks) in self.list.iter().enumerate() {
            if pegs & masks.all == masks.pegs {
                visit(self.labels[jump], pegs ^ masks.all);
            }
        }
    }

    /// Whether `next` may follow `previous` in a search: not when the two share no hole (they
    /// commute) and `next` comes first in the list (see the module docs).
    #[inline]
    pub fn may_follow(&self, previous: Jump, next: Jump) -> bool {
        let shared = self.list[previous.number as usize].all & self.list[next.number as usize].all;
        shared != 0 || next.number > previous.number
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use statespace::board_text::BoardText;

    #[test]
    fn the_english_board_has_76_jumps_and_the_triangle_36() {
        let english = "  ooo\n  ooo\nooooooo\nooo.ooo\nooooooo\n  ooo\n  ooo\n";
        let text = BoardText::from_file("t", english.into());
        let (board, pegs) = Board::read_start(&text, Shape::Square).unwrap();
        let jumps = Jumps::of(&board);
        assert_eq!(jumps.list.len(), 76);
        let mut first = Vec::new();
        jumps.successors(pegs, &mut |jump, _| first.push(jump.to_string()));
        assert_eq!(first, ["r2c4-r4c4", "r4c2-r4c4", "r4c6-r4c4", "r6c4-r4c4"]);
        let triangle = ".\noo\nooo\noooo\nooooo\n";
        let text = BoardText::from_file("t", triangle.into());
        let (board, _) = Board::read_start(&text, Shape::Triangle).unwrap();
        assert_eq!(Jumps::of(&board).list.len(), 36);
    }
}
