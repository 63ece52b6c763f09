//! [`Transpose`]: the reflection of the sliding-tile puzzle about the main diagonal, a symmetry
//! that pattern databases look boards up through.
//!
//! On a square board whose goal has the blank on the main diagonal, transposing the board (cell
//! `(r, c)` to `(c, r)`) and renaming every tile `t` as the tile whose goal cell is the transpose
//! of `t`'s maps the goal onto itself and moves onto moves, so the transposed board is exactly as
//! far from the goal. [`TilePdb`](super::TilePdb) looks the transposed board up in the same
//! databases and keeps the larger sum (for the ordered 15-puzzle goal, the 7-8 split's
//! reflection): a second estimate for the price of a second set of look-ups, no table more.

use crate::space::{Board, MAX_CELLS, Tiles};
use statespace::search::pdb::Symmetry;

/// The reflection about the main diagonal (see the module docs): cell `(r, c)` to `(c, r)`, tile
/// `t` renamed as the tile whose goal cell is the transpose of `t`'s. A symmetry of the puzzle
/// when the board is square and the goal's blank is on the diagonal (the ordered goal).
#[derive(Clone, Debug)]
pub struct Transpose {
    cells: usize,
    /// `cell_map[c]`: the transposed cell.
    cell_map: [u8; MAX_CELLS],
    /// `tile_map[t]`: the renamed tile (0 stays 0).
    tile_map: [u8; MAX_CELLS],
}

impl Transpose {
    /// The reflection of `tiles`' board and goal; `None` unless the board is square and the goal
    /// is its own reflection (its blank on the main diagonal).
    pub fn new(tiles: &Tiles) -> Option<Self> {
        let (rows, cols) = tiles.shape();
        let goal = tiles.goal();
        if rows != cols || goal.blank / cols != goal.blank % cols {
            return None;
        }
        let n = tiles.cells();
        let mut cell_map = [0u8; MAX_CELLS];
        for (cell, image) in cell_map[..n].iter_mut().enumerate() {
            *image = (cell as u8 % cols) * cols + cell as u8 / cols;
        }
        let mut tile_map = [0u8; MAX_CELLS];
        for cell in 0..n {
            tile_map[goal.cells[cell] as usize] = goal.cells[cell_map[cell] as usize];
        }
        Some(Transpose {
            cells: n,
            cell_map,
            tile_map,
        })
    }

    /// The reflected board.
    #[inline]
    pub fn of(&self, board: &Board) -> Board {
        let mut image = Board {
            cells: [0; MAX_CELLS],
            blank: self.cell_map[board.blank as usize],
        };
        for (cell, &tile) in board.cells[..self.cells].iter().enumerate() {
            image.cells[self.cell_map[cell] as usize] = self.tile_map[tile as usize];
        }
        image
    }

    /// The reflected board given as where every tile is (`pos[t]`, the blank's at 0), in the
    /// same form: `image[tile_map[t]] = cell_map[pos[t]]`. For a caller that already holds that
    /// inverse (it saves building the reflected board and inverting it again).
    #[inline]
    pub fn of_positions(&self, pos: &[u8; MAX_CELLS]) -> [u8; MAX_CELLS] {
        let mut image = [0u8; MAX_CELLS];
        for tile in 0..self.cells {
            image[self.tile_map[tile] as usize] = self.cell_map[pos[tile] as usize];
        }
        image
    }
}

impl Symmetry<Tiles> for Transpose {
    #[inline]
    fn apply(&self, _: &Tiles, board: Board) -> Board {
        self.of(&board)
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
}
