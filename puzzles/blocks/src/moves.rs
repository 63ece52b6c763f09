//! What one move is, in each metric ([`Metric`]), and the moves of a position ([`successors`]):
//! a piece slides into free cells, and the metric says how far one move takes it.
//!
//! | metric | one move | Klotski's classic start |
//! |---|---|---|
//! | `unit` | one piece, one cell up, down, left or right | 116 moves |
//! | `line` | one piece, any number of cells in one direction | 90 moves |
//! | `path` | one piece, anywhere it can reach through free cells, turning corners | 81 moves |
//!
//! Per piece, everything comes from one mask: the anchors where its shape fits among the free
//! cells with the piece itself lifted ([`Shape::fits`](crate::geometry::Shape::fits)). A unit
//! move is a step into that mask, a line move a run of steps, a path move any anchor of the
//! mask connected to where the piece stands ([`Geometry::flood`]). A piece restricted to an
//! axis (Rush Hour's cars) only steps along it. Nothing is allocated; each successor costs its
//! encoding ([`Pieces::moved`]).

use crate::geometry::{Dir, Geometry};
use crate::pieces::{Pieces, State};
use std::fmt;

/// How far one move takes a piece (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// One cell.
    Unit,
    /// Any distance in a straight line.
    Line,
    /// Any route through free cells.
    Path,
}

impl Metric {
    /// The names, as `[puzzle] metric` takes them.
    pub const NAMES: [&'static str; 3] = ["unit", "line", "path"];

    /// The metric named `name`.
    pub fn named(name: &str) -> Option<Metric> {
        match name {
            "unit" => Some(Metric::Unit),
            "line" => Some(Metric::Line),
            "path" => Some(Metric::Path),
            _ => None,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Unit => "unit",
            Metric::Line => "line",
            Metric::Path => "path",
        }
    }
}

/// A move: the piece anchored at `from` goes to anchor `to`. Displays as a person reads it:
/// `B r1c2 down`, `V r1c1 down 2` (line), `S r5c2 to r4c3` (path); rows and columns 1-based, the
/// piece named by its letter on the board before the move and its top-left cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slide {
    /// The piece's letter.
    pub letter: u8,
    /// Its anchor before.
    pub from: u8,
    /// Its anchor after.
    pub to: u8,
    /// The board's columns (to name cells).
    pub cols: u8,
    /// A path move (named by its end) rather than a straight one (named by its direction).
    pub path: bool,
}

impl Slide {
    /// The move back.
    pub fn inverse(self) -> Slide {
        Slide {
            from: self.to,
            to: self.from,
            ..self
        }
    }

    /// Along a row rather than a column (a straight move).
    fn is_horizontal(self) -> bool {
        self.from / self.cols == self.to / self.cols
    }

    /// The direction and the distance of a straight move.
    fn straight(self) -> (Dir, u8) {
        let (from, to) = (self.from as i32, self.to as i32);
        let cols = self.cols as i32;
        let (dir, cells) = match to - from {
            d if self.is_horizontal() && d < 0 => (Dir::Left, -d),
            d if self.is_horizontal() => (Dir::Right, d),
            d if d < 0 => (Dir::Up, -d / cols),
            d => (Dir::Down, d / cols),
        };
        (dir, cells as u8)
    }
}

impl fmt::Display for Slide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = |c: u8| format!("r{}c{}", c / self.cols + 1, c % self.cols + 1);
        let letter = self.letter as char;
        if self.path {
            return write!(f, "{letter} {} to {}", cell(self.from), cell(self.to));
        }
        let (dir, cells) = self.straight();
        write!(f, "{letter} {} {}", cell(self.from), dir.word())?;
        if cells > 1 {
            write!(f, " {cells}")?;
        }
        Ok(())
    }
}

/// Calls `visit(move, next)` for every move of `state`: pieces in anchor order, then
/// directions up, down, left, right (nearest first along each), or for path moves the places
/// in cell order.
#[inline]
pub fn successors(
    pieces: &Pieces,
    metric: Metric,
    state: State,
    visit: &mut dyn FnMut(Slide, State),
) {
    let geometry: &Geometry = &pieces.geometry;
    let occupied = pieces.occupied(state);
    pieces.each_lettered(state, |rank, anchor, class, letter| {
        let kind = &pieces.classes[class];
        let free = !occupied & geometry.full | kind.shape.at(anchor);
        let fits = kind.shape.fits(free) & kind.allowed;
        let here = 1u64 << anchor;
        let mut emit = |to: u64| {
            let to = to.trailing_zeros();
            let slide = Slide {
                letter,
                from: anchor as u8,
                to: to as u8,
                cols: geometry.cols,
                path: metric == Metric::Path,
            };
            visit(slide, pieces.moved(state, rank, anchor, to, class));
        };
        match metric {
            Metric::Unit | Metric::Line => {
                for dir in Dir::ALL.into_iter().filter(|&d| kind.axis.allows(d)) {
                    let mut at = geometry.step(here, dir) & fits;
                    while at != 0 {
                        emit(at);
                        if metric == Metric::Unit {
                            break;
                        }
                        at = geometry.step(at, dir) & fits;
                    }
                }
            }
            Metric::Path => {
                let mut reached = geometry.flood(here, fits, kind.axis) & !here;
                while reached != 0 {
                    emit(reached & reached.wrapping_neg());
                    reached &= reached - 1;
                }
            }
        }
    });
}

/// Whether `next` may follow `previous` on a shortest path (the pruning of depth-first
/// searches): never the move back; in `line`, never the same piece again along the same line
/// (two such moves are one, or none); in `path`, never the same piece again (two moves of one
/// piece are one path move, or none).
pub fn may_follow(metric: Metric, previous: Slide, next: Slide) -> bool {
    // The piece is the one at `previous.to`, whatever letter it prints as (look-alikes
    // print by their order, which a move may change).
    let same_piece = next.from == previous.to;
    match metric {
        Metric::Unit => !(same_piece && next.to == previous.from),
        Metric::Line => !(same_piece && next.is_horizontal() == previous.is_horizontal()),
        Metric::Path => !same_piece,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_piece_its_cell_and_the_way() {
        let slide = |from, to, path| Slide {
            letter: b'V',
            from,
            to,
            cols: 4,
            path,
        };
        assert_eq!(slide(0, 4, false).to_string(), "V r1c1 down");
        assert_eq!(slide(0, 8, false).to_string(), "V r1c1 down 2");
        assert_eq!(slide(6, 5, false).to_string(), "V r2c3 left");
        assert_eq!(slide(9, 11, false).to_string(), "V r3c2 right 2");
        assert_eq!(slide(12, 4, false).to_string(), "V r4c1 up 2");
        assert_eq!(slide(17, 10, true).to_string(), "V r5c2 to r3c3");
        assert_eq!(slide(17, 10, true).inverse().to_string(), "V r3c3 to r5c2");
    }

    #[test]
    fn the_pruning_drops_only_moves_that_merge_or_cancel() {
        let slide = |from, to| Slide {
            letter: b'S',
            from,
            to,
            cols: 4,
            path: false,
        };
        let (right, down) = (slide(0, 1), slide(1, 5));
        assert!(may_follow(Metric::Unit, right, down));
        assert!(!may_follow(Metric::Unit, right, right.inverse()));
        assert!(may_follow(Metric::Line, right, down));
        assert!(!may_follow(Metric::Line, right, slide(1, 2)));
        assert!(!may_follow(Metric::Path, right, down));
        assert!(may_follow(Metric::Path, right, slide(8, 9)));
    }
}
