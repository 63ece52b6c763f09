//! [`PlaceDistance`]: an admissible estimate for `astar` and `idastar` on a place goal, how far
//! the goal's piece is from its place counted in the metric's moves.
//!
//! A move slides one piece, so the goal's piece needs at least: in `unit`, one move per cell of
//! its row and column distance (its Manhattan distance); in `line`, one per axis it must change;
//! in `path`, one when it is elsewhere. Where several pieces may play the goal's (interchangeable
//! ones of its shape), the nearest counts. It sees no other piece, so it is weak on Klotski
//! (3 of 116 unit moves from the start): what lets IDA* finish there is the transposition table
//! (BENCHMARKS.md, "Klotski by deepening"); the estimate saves the first rounds and cuts
//! branches that carry the piece away. A pattern goal gets no estimate (the kit then offers
//! neither engine).

use crate::goal::Goal;
use crate::moves::Metric;
use crate::space::Blocks;
use statespace::index::IndexedBy;
use statespace::space::Heuristic;

/// The estimate of the module docs.
#[derive(Clone, Copy, Debug)]
pub struct PlaceDistance;

impl PlaceDistance {
    /// The estimate when `blocks`' goal is a place; `None` for a pattern.
    pub fn of(blocks: &Blocks) -> Option<PlaceDistance> {
        matches!(blocks.goal(), Goal::Place { .. }).then_some(PlaceDistance)
    }
}

impl Heuristic<Blocks> for PlaceDistance {
    #[inline]
    fn estimate(&self, blocks: &Blocks, state: u128) -> u32 {
        let Goal::Place { class, anchor } = blocks.goal() else {
            return 0;
        };
        let pieces = &blocks.layout().pieces;
        let (row, col) = pieces.geometry.place(anchor as u8);
        let mut nearest = u32::MAX;
        pieces.each(state, |_, at, c| {
            if c == class {
                let (r, k) = pieces.geometry.place(at as u8);
                let (rows, cols) = (r.abs_diff(row) as u32, k.abs_diff(col) as u32);
                let moves = match blocks.metric() {
                    Metric::Unit => rows + cols,
                    Metric::Line => (rows > 0) as u32 + (cols > 0) as u32,
                    Metric::Path => (rows + cols > 0) as u32,
                };
                nearest = nearest.min(moves);
            }
        });
        nearest.min(u32::MAX - 1)
    }
}

impl Heuristic<IndexedBy<Blocks>> for PlaceDistance {
    #[inline]
    fn estimate(&self, space: &IndexedBy<Blocks>, state: u128) -> u32 {
        self.estimate(space.space(), state)
    }
}
