//! [`Peg`], the [`StateSpace`] of peg solitaire: a board's holes, its jumps and the goal; a
//! position is a `u64` of pegs, with board text and the invariant of [`Target`].
//!
//! No dense index: 33 holes make 2^33 positions (a bitset over all of them would be 1 GiB a
//! layer), and jumps are not undone by jumps (a jump removes a peg), so there is no backward
//! sweep or distance table. What runs is what any space gets (BFS with a hash set, IDDFS,
//! explore from the start with a hash set, export) and, with [`JumpsLeft`] (pegs over the
//! goal's: exact on every board that can finish), A* and IDA*. IDA*'s first threshold is then
//! the answer, so it runs one depth-first search, which is what `auto` picks.

use crate::board::Board;
use crate::goal::{Goal, Target};
use crate::jumps::{Jump, Jumps};
use statespace::board_text::BoardText;
use statespace::error::Result;
use statespace::space::{BoardFormat, Heuristic, Invariant, StateSpace};

/// A peg solitaire puzzle: see the module docs.
#[derive(Clone, Debug)]
pub struct Peg {
    board: Board,
    jumps: Jumps,
    target: Target,
}

impl Peg {
    /// The puzzle of `board`'s holes, solved at `goal`.
    pub fn new(board: Board, goal: Goal) -> Peg {
        let jumps = Jumps::of(&board);
        let target = Target::new(goal, &board, &jumps);
        Peg {
            board,
            jumps,
            target,
        }
    }

    /// Its holes.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Its jumps.
    pub fn jumps(&self) -> &Jumps {
        &self.jumps
    }
}

impl StateSpace for Peg {
    type State = u64;
    type Move = Jump;

    #[inline]
    fn successors(&self, pegs: u64, visit: &mut dyn FnMut(Jump, u64)) {
        self.jumps.successors(pegs, visit)
    }

    #[inline]
    fn is_goal(&self, pegs: u64) -> bool {
        self.target.goal.holds(pegs)
    }

    fn may_follow(&self, previous: Jump, next: Jump) -> bool {
        self.jumps.may_follow(previous, next)
    }
}

/// The jumps left: the pegs over the goal's. Every jump removes one peg, so this is exact on
/// every board that can reach the goal (a lower bound on the others, which cannot), and
/// consistent.
#[derive(Clone, Copy, Debug)]
pub struct JumpsLeft;

impl Heuristic<Peg> for JumpsLeft {
    #[inline]
    fn estimate(&self, peg: &Peg, pegs: u64) -> u32 {
        pegs.count_ones().saturating_sub(peg.target.goal.pegs())
    }
}

impl Invariant for Peg {
    fn unsolvable_by(&self, pegs: u64) -> Option<&'static str> {
        self.target.unsolvable_by(pegs)
    }
}

impl BoardFormat for Peg {
    fn parse(&self, text: &BoardText) -> Result<u64> {
        text.board_only()?;
        self.board.read(text)
    }

    fn format(&self, pegs: u64) -> String {
        self.board.format(pegs)
    }
}
