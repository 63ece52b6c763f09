//! What a peg solitaire puzzle asks ([`Goal`]): a whole board (one peg in the centre is one), or
//! one peg anywhere; and the invariants that prove a position cannot get there
//! ([`Target::unsolvable_by`]).
//!
//! **Position classes.** Colour the holes by `(a * row + b * column) mod 3` for a line `(a, b)`
//! along which every jump's three holes take three different colours (on a square board `row +
//! column` and `row - column`; on a triangle `row + column`). A jump flips all three holes, so
//! it flips the parity of the pegs of every colour at once, and the two sums of neighbouring
//! colours' parities never change. Those bits (2 per colouring) are the position's class; a
//! position of another class than every goal cannot reach one. This is the classic argument
//! (de Bruijn's, Conway's "rule of three") computed from the board's own jumps, so it holds on
//! any board, and costs a few popcounts.

use crate::board::Board;
use crate::jumps::Jumps;

/// The goal of a peg solitaire puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Exactly these pegs (one peg in the centre, or any board).
    Board(u64),
    /// Exactly one peg, in any hole.
    OnePeg,
}

impl Goal {
    /// How many pegs a goal position has.
    pub fn pegs(self) -> u32 {
        match self {
            Goal::Board(target) => target.count_ones(),
            Goal::OnePeg => 1,
        }
    }

    /// Whether `pegs` is a goal.
    #[inline]
    pub fn holds(self, pegs: u64) -> bool {
        match self {
            Goal::Board(target) => pegs == target,
            Goal::OnePeg => pegs.count_ones() == 1,
        }
    }
}

/// The colourings of a board that every jump respects (see the module docs), as masks of each
/// colour's holes.
#[derive(Clone, Debug)]
pub struct Classes {
    colourings: Vec<[u64; 3]>,
}

impl Classes {
    /// The colourings of `board` whose three colours every one of `jumps` meets once each.
    pub fn of(board: &Board, jumps: &Jumps) -> Classes {
        let mut colourings = Vec::new();
        // One (a, b) per line through the origin of (Z/3)^2: their multiples colour alike.
        for (a, b) in [(1u32, 0u32), (0, 1), (1, 1), (1, 2)] {
            let mut masks = [0u64; 3];
            for (hole, &(r, c)) in board.holes.iter().enumerate() {
                masks[((a * r as u32 + b * c as u32) % 3) as usize] |= 1 << hole;
            }
            let respected = jumps
                .list
                .iter()
                .all(|jump| masks.iter().all(|mask| (jump.all & mask).count_ones() == 1));
            if respected {
                colourings.push(masks);
            }
        }
        Classes { colourings }
    }

    /// The class of `pegs`: two bits per colouring, which no jump changes.
    #[inline]
    pub fn class(&self, pegs: u64) -> u32 {
        let mut class = 0;
        for (i, [m0, m1, m2]) in self.colourings.iter().enumerate() {
            let [n0, n1, n2] = [m0, m1, m2].map(|mask| (pegs & mask).count_ones());
            class |= ((n0 + n1) & 1 | ((n1 + n2) & 1) << 1) << (2 * i);
        }
        class
    }

    /// How many colourings the board has (0 when no line colours every jump three ways).
    pub fn colourings(&self) -> usize {
        self.colourings.len()
    }
}

/// A goal with what proves a position cannot reach it.
#[derive(Clone, Debug)]
pub struct Target {
    /// The goal.
    pub goal: Goal,
    /// The board's classes.
    pub classes: Classes,
    /// The classes of the goal's positions, as a bit set (at most 4 colourings: 8 bits, 256
    /// classes).
    pub goal_classes: [u64; 4],
}

impl Target {
    /// `goal` on `board`, with its classes.
    pub fn new(goal: Goal, board: &Board, jumps: &Jumps) -> Target {
        let classes = Classes::of(board, jumps);
        let mut goal_classes = [0u64; 4];
        let mut add = |class: u32| goal_classes[class as usize / 64] |= 1 << (class % 64);
        match goal {
            Goal::Board(target) => add(classes.class(target)),
            Goal::OnePeg => (0..board.holes.len()).for_each(|hole| add(classes.class(1 << hole))),
        }
        Target {
            goal,
            classes,
            goal_classes,
        }
    }

    /// The invariant that proves `pegs` cannot reach the goal, if one does: too few pegs (a jump
    /// only removes one), or another position class.
    pub fn unsolvable_by(&self, pegs: u64) -> Option<&'static str> {
        let fewest = match self.goal {
            Goal::Board(target) if pegs != target => target.count_ones() + 1,
            Goal::Board(_) => 0,
            Goal::OnePeg => 1,
        };
        if pegs.count_ones() < fewest {
            return Some("peg count");
        }
        let class = self.classes.class(pegs) as usize;
        if self.goal_classes[class / 64] >> (class % 64) & 1 == 0 {
            return Some("position class");
        }
        None
    }
}
