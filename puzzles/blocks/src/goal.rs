//! What a puzzle asks ([`Goal`]): one piece at one place (Klotski's 2 x 2 at the exit, Rush
//! Hour's car at the edge), or a whole board.

use crate::pieces::{Pieces, State};
use statespace::cache::fingerprint::Content;

/// The goal of a sliding-block puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A piece of class `class` with its top-left cell at `anchor`; the others anywhere.
    Place {
        /// The piece's class.
        class: usize,
        /// Its top-left cell.
        anchor: u32,
    },
    /// Exactly this position.
    Pattern(State),
}

impl Goal {
    /// Whether `state` is a goal: one bit and one label for a place, one comparison for a
    /// pattern.
    #[inline]
    pub fn holds(&self, pieces: &Pieces, state: State) -> bool {
        match *self {
            Goal::Place { class, anchor } => pieces.class_at(state, anchor) == Some(class),
            Goal::Pattern(target) => state == target,
        }
    }

    /// What the goal is, for the fingerprint of cached tables.
    pub fn describe(&self, content: &mut Content) {
        match *self {
            Goal::Place { class, anchor } => {
                content.str("place").u64(class as u64).u64(anchor.into())
            }
            Goal::Pattern(target) => content
                .str("pattern")
                .u64(target as u64)
                .u64((target >> 64) as u64),
        };
    }
}
