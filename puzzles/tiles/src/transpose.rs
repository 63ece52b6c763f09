//! [`Transpose`]: the reflection of the sliding-tile puzzle about the main diagonal, a symmetry
//! that pattern databases look boards up through, and the puzzle's
//! [`Symmetric`] images.
//!
//! On a square board whose goal has the blank on the main diagonal, transposing the board (cell
//! `(r, c)` to `(c, r)`) and renaming every tile `t` as the tile whose goal cell is the transpose
//! of `t`'s maps the goal onto itself and moves onto moves, so the transposed board is exactly as
//! far from the goal. [`TilePdb`](crate::heuristic::TilePdb) looks the transposed board up in the same
//! databases and keeps the larger sum (for the ordered 15-puzzle goal, the 7-8 split's
//! reflection): a second estimate for the price of a second set of look-ups, no table more.
//!
//! As [`Symmetric`] images (the space holds its reflection, [`Tiles::transpose`]), a board and its
//! reflection form an orbit whose smaller cell array stands for it: the distance table is built
//! expanding one board per orbit (the same table, about half the expansions), and a symmetric
//! pruning table keeps one cell per orbit. What the reflection keeps: the goal, distances, the
//! blank-aware groups of a split whose reflection is a split (the 24-puzzle's 6-6-6-6); what it
//! does not: a board's own cells (an image is another board), and any goal whose blank is off the
//! diagonal (then there is no symmetry at all).

pub use crate::space::Transpose;
use crate::space::{Board, Tiles};
use statespace::search::pdb::Symmetry;
use statespace::space::Symmetric;

impl Symmetry<Tiles> for Transpose {
    #[inline]
    fn apply(&self, _: &Tiles, board: Board) -> Board {
        self.of(&board)
    }
}

/// The reflection, when the goal has one: a board and its image form an orbit, the one with the
/// smaller cell array standing for it.
impl Symmetric for Tiles {
    #[inline]
    fn images<F: FnMut(Board)>(&self, board: Board, mut visit: F) {
        if let Some(t) = self.transpose() {
            visit(t.of(&board))
        }
    }

    #[inline]
    fn is_representative(&self, board: Board) -> bool {
        self.transpose()
            .is_none_or(|t| board.cells <= t.of(&board).cells)
    }

    #[inline]
    fn orbit<F: FnMut(Board)>(&self, board: Board, mut visit: F) -> Board {
        match self.transpose() {
            Some(t) => {
                let image = t.of(&board);
                visit(image);
                if image.cells < board.cells {
                    image
                } else {
                    board
                }
            }
            None => board,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::from_blank_first;

    #[test]
    fn transpose_fixes_the_goal_and_is_an_involution() {
        let tiles = Tiles::new(4, 4, Tiles::ordered(4, 4));
        let t = Transpose::new(&tiles).unwrap();
        assert_eq!(t.of(&tiles.goal()), tiles.goal());
        let b = from_blank_first(
            4,
            4,
            &[14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3],
        );
        let b = b.unwrap();
        assert_eq!(t.of(&t.of(&b)), b);
        assert!(Transpose::new(&Tiles::new(3, 4, Tiles::ordered(3, 4))).is_none());
    }

    /// On the 8-puzzle, every board: the distance table built an orbit at a time equals the
    /// plain one; the symmetric pruning table keeps about half the cells of the plain one at
    /// the same depth with the same estimates (both exact inside, `d + 1` outside but for the
    /// few boards that share a cell with one inside), and a level deeper estimates as much or
    /// more, never past the distance.
    #[test]
    fn transpose_tables_equal_or_beat_the_plain_ones() {
        use statespace::limit::Limits;
        use statespace::search::pruning::{Growth, PruningTable};
        use statespace::search::table;
        use statespace::space::Indexed;
        let tiles = Tiles::new(3, 3, Tiles::ordered(3, 3));
        let limits = Limits::default();
        let plain = table::build_with(&tiles, &limits, table::Width::Auto).unwrap();
        let orbits = table::build_symmetric(&tiles, &limits, table::Width::Auto).unwrap();
        let growth = Growth {
            bytes: 1 << 24,
            first_bytes: 1 << 24,
            first_work: 0,
            pays: u64::MAX,
        };
        let flat = PruningTable::new(&tiles, &limits, growth).unwrap();
        let mirrored = PruningTable::symmetric(&tiles, &limits, growth).unwrap();
        assert_eq!(mirrored.orbit_size(), 2);
        for _ in 0..12 {
            assert!(flat.deepen(&tiles).unwrap() && mirrored.deepen(&tiles).unwrap());
        }
        let (f, m) = (flat.fill(), mirrored.fill());
        assert!(
            m.filled * 2 < f.filled + f.filled / 20,
            "{} of {}",
            m.filled,
            f.filled
        );
        let (mut boards, mut shared) = (Vec::new(), 0);
        for i in 0..tiles.size() as u64 {
            let board = tiles.state(i);
            let d = plain.distance(&tiles, board).unwrap().unwrap();
            assert_eq!(orbits.distance(&tiles, board).unwrap(), Some(d));
            // Exact inside the depth; outside, 13 unless the board shares a cell with one
            // inside (16 Mi cells, about 1,850 of them filled: a handful of boards).
            for table in [&flat, &mirrored] {
                let estimate = table.distance(&tiles, board);
                match d {
                    0..=12 => assert_eq!(estimate, d, "board {i}"),
                    _ => {
                        assert!(estimate <= 13, "board {i}");
                        shared += usize::from(estimate < 13);
                    }
                }
            }
            boards.push((board, d));
        }
        assert!(shared < 100, "{shared}");
        assert!(mirrored.deepen(&tiles).unwrap());
        let (mut larger, mut smaller) = (0, 0);
        for &(board, d) in &boards {
            let (deeper, shallow) = (
                mirrored.distance(&tiles, board),
                flat.distance(&tiles, board),
            );
            assert!(deeper <= d);
            larger += usize::from(deeper > shallow);
            // Only where a board shares a cell with one of the deeper level.
            smaller += usize::from(deeper < shallow);
        }
        assert!(
            larger > 1_000 && smaller < 100,
            "{larger} larger, {smaller} smaller"
        );
    }

    /// `explore --symmetry` on the 8-puzzle: by distance (from the plain table), the classes
    /// are the boards and their reflections taken as pairs (a brute force that keeps every
    /// pair), and Burnside's count, half the boards plus the boards the reflection fixes.
    #[test]
    fn transpose_classes_by_distance_are_the_pairs_of_boards() {
        use statespace::limit::Limits;
        use statespace::search::layers::{self, classes};
        use statespace::search::table;
        use statespace::space::Indexed;
        use std::collections::HashSet;
        let tiles = Tiles::new(3, 3, Tiles::ordered(3, 3));
        let limits = Limits::default();
        let options = layers::Options {
            limits: &limits,
            threads: Some(2),
        };
        let each = layers::backward_each::<Tiles>;
        let (sweep, counted) = classes::backward(&tiles, each, options, &mut |_, _| {}).unwrap();
        assert_eq!(counted.symmetries, 2);
        let plain = table::build(&tiles, &limits).unwrap();
        assert_eq!(sweep.histogram, plain.histogram());
        let t = tiles.transpose().unwrap();
        let deepest = plain.histogram().len();
        let mut pairs = vec![HashSet::new(); deepest];
        let mut fixed = vec![0u64; deepest];
        for i in 0..tiles.size() as u64 {
            let board = tiles.state(i);
            let d = plain.distance(&tiles, board).unwrap().unwrap() as usize;
            let image = tiles.index(t.of(&board));
            pairs[d].insert((i.min(image), i.max(image)));
            fixed[d] += u64::from(image == i);
        }
        for (d, ((&classes, pairs), (&boards, &fixed))) in counted
            .histogram
            .iter()
            .zip(&pairs)
            .zip(plain.histogram().iter().zip(&fixed))
            .enumerate()
        {
            assert_eq!(classes, pairs.len() as u64, "depth {d}");
            assert_eq!(classes, (boards + fixed) / 2, "depth {d}");
        }
        // 181,440 boards: 90,792 classes, so 144 boards are their own reflection.
        assert_eq!(counted.total(), 90_792);
        assert_eq!(fixed.iter().sum::<u64>(), 144);
    }
}
