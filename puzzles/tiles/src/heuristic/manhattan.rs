//! [`Manhattan`] distance and [`LinearConflict`]: the tile heuristics that need no table built,
//! only per-(tile, cell) look-ups made from the goal.
//!
//! # Linear conflict
//!
//! Hansson, Mayer & Yung (1992): two tiles in the same row, both with their goal in that row, in
//! the wrong order, cannot pass each other inside the row: one of them leaves the row and comes
//! back, two vertical moves that Manhattan distance does not count. In each row, the fewest
//! tiles to take out so that the rest are in goal order is the row's length (among such tiles)
//! minus the longest increasing subsequence of their goal columns; each costs 2 extra vertical
//! moves. Columns likewise, with extra horizontal moves. Vertical and horizontal extras are
//! different moves, and each tile's removal is counted in one line per direction, so the sum stays
//! admissible (and Manhattan + 2 x removals is the standard, admissible definition).
//!
//! Trade-off: on lines of up to 6 cells the removals are precomputed for every content a line can
//! have (at most 7^6 = 117,649 one-byte entries per direction), so an estimate costs a few times
//! Manhattan's instead of a subsequence computation per line; longer lines (on boards 2 or 3 rows
//! high) are computed.

use crate::space::{Board, MAX_CELLS, Tiles};
use statespace::space::Heuristic;

/// Manhattan distance: the sum over the tiles of the rows plus columns between a tile's cell and
/// its goal cell. Admissible (a move moves one tile one cell) and consistent.
#[derive(Clone, Debug)]
pub struct Manhattan {
    /// `distance[tile * MAX_CELLS + cell]`: the tile's distance from `cell` to its goal cell; 0
    /// for the blank.
    distance: Box<[u8; MAX_CELLS * MAX_CELLS]>,
    cells: usize,
}

impl Manhattan {
    /// Manhattan distance to the goal of `tiles`.
    pub fn new(tiles: &Tiles) -> Self {
        let (_, cols) = tiles.shape();
        let goal = tiles.goal_cells();
        let mut distance = Box::new([0u8; MAX_CELLS * MAX_CELLS]);
        for tile in 1..tiles.cells() {
            let (gr, gc) = (goal[tile] / cols, goal[tile] % cols);
            for cell in 0..tiles.cells() as u8 {
                let (r, c) = (cell / cols, cell % cols);
                distance[tile * MAX_CELLS + cell as usize] = r.abs_diff(gr) + c.abs_diff(gc);
            }
        }
        Manhattan {
            distance,
            cells: tiles.cells(),
        }
    }

    /// The estimate of `board`.
    #[inline]
    pub fn of(&self, board: &Board) -> u32 {
        board.cells[..self.cells]
            .iter()
            .enumerate()
            .map(|(cell, &tile)| self.distance[tile as usize * MAX_CELLS + cell] as u32)
            .sum()
    }
}

impl Heuristic<Tiles> for Manhattan {
    #[inline]
    fn estimate(&self, _: &Tiles, board: Board) -> u32 {
        self.of(&board)
    }
}

/// Manhattan distance plus linear conflicts (Hansson, Mayer & Yung 1992): 2 more per tile that
/// must leave its row (or column) so that the others of that line can pass; see the module docs.
/// Admissible; not always consistent, which IDA* does not need and A* handles by reopening.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    manhattan: Manhattan,
    rows: u8,
    cols: u8,
    /// Every tile's goal row and column (the blank's unused).
    goal_row: [u8; MAX_CELLS],
    goal_col: [u8; MAX_CELLS],
    /// The removals of every line content, looked up (when the lines are short enough).
    lines: Option<LineTables>,
}

/// Linear conflict by look-up: the removals of a line depend only on which of its cells hold a
/// tile of that line and that tile's goal position along the line, a number of `len + 1` values
/// per cell, so a line's content is a key in base `len + 1` and its removals are precomputed for
/// every key (625 keys for a 4-cell line). A board's keys are sums of per-(tile, cell) parts, so
/// the estimate is three table reads per cell and one per line: the cost of Manhattan distance
/// a few times over, instead of a subsequence computation per line.
#[derive(Clone, Debug)]
struct LineTables {
    /// `row_part[tile * MAX_CELLS + cell]`: the tile's part of its row's key when it is on `cell`.
    row_part: Box<[u32]>,
    col_part: Box<[u32]>,
    /// Removals by row key (base `cols + 1`) and by column key (base `rows + 1`).
    row_removals: Box<[u8]>,
    col_removals: Box<[u8]>,
}

/// Lines of up to 6 cells are looked up (7^6 = 117,649 keys); longer ones (only on boards 2 or 3
/// rows high) are computed.
const MAX_LOOKED_UP_LINE: u32 = 6;

impl LineTables {
    fn new(
        rows: u8,
        cols: u8,
        goal_row: &[u8; MAX_CELLS],
        goal_col: &[u8; MAX_CELLS],
    ) -> Option<Self> {
        if rows as u32 > MAX_LOOKED_UP_LINE || cols as u32 > MAX_LOOKED_UP_LINE {
            return None;
        }
        let n = rows as usize * cols as usize;
        let (row_base, col_base) = (cols as u32 + 1, rows as u32 + 1);
        let mut row_part = vec![0u32; MAX_CELLS * MAX_CELLS].into_boxed_slice();
        let mut col_part = vec![0u32; MAX_CELLS * MAX_CELLS].into_boxed_slice();
        for tile in 1..n {
            for cell in 0..n {
                let (r, c) = (cell / cols as usize, cell % cols as usize);
                if goal_row[tile] as usize == r {
                    row_part[tile * MAX_CELLS + cell] =
                        (goal_col[tile] as u32 + 1) * row_base.pow(c as u32);
                }
                if goal_col[tile] as usize == c {
                    col_part[tile * MAX_CELLS + cell] =
                        (goal_row[tile] as u32 + 1) * col_base.pow(r as u32);
                }
            }
        }
        let removals = |base: u32, len: u32| -> Box<[u8]> {
            (0..base.pow(len))
                .map(|key| {
                    let mut line = [0u8; MAX_CELLS / 2];
                    let (mut k, mut used) = (key, 0);
                    for _ in 0..len {
                        if k % base != 0 {
                            line[used] = (k % base - 1) as u8;
                            used += 1;
                        }
                        k /= base;
                    }
                    // Keys with a goal position twice never occur on a board; any value will do.
                    (used as u32 - longest_increasing(&line[..used])) as u8
                })
                .collect()
        };
        Some(LineTables {
            row_part,
            col_part,
            row_removals: removals(row_base, cols as u32),
            col_removals: removals(col_base, rows as u32),
        })
    }
}

impl LinearConflict {
    /// Linear conflict to the goal of `tiles`.
    pub fn new(tiles: &Tiles) -> Self {
        let (rows, cols) = tiles.shape();
        let goal = tiles.goal_cells();
        let mut goal_row = [0; MAX_CELLS];
        let mut goal_col = [0; MAX_CELLS];
        for tile in 0..tiles.cells() {
            goal_row[tile] = goal[tile] / cols;
            goal_col[tile] = goal[tile] % cols;
        }
        LinearConflict {
            manhattan: Manhattan::new(tiles),
            rows,
            cols,
            goal_row,
            goal_col,
            lines: LineTables::new(rows, cols, &goal_row, &goal_col),
        }
    }

    /// The tiles that must leave their lines, over every row and column of `board`, computed
    /// line by line (a longest increasing subsequence each); [`of`](Self::of) looks them up
    /// instead where it can.
    pub fn removals(&self, board: &Board) -> u32 {
        let (rows, cols) = (self.rows as usize, self.cols as usize);
        let mut total = 0;
        // A line has at most 12 cells (boards are at most 12 wide).
        let mut line = [0u8; MAX_CELLS / 2];
        for r in 0..rows {
            let mut len = 0;
            for c in 0..cols {
                let tile = board.cells[r * cols + c] as usize;
                if tile != 0 && self.goal_row[tile] as usize == r {
                    line[len] = self.goal_col[tile];
                    len += 1;
                }
            }
            total += len as u32 - longest_increasing(&line[..len]);
        }
        for c in 0..cols {
            let mut len = 0;
            for r in 0..rows {
                let tile = board.cells[r * cols + c] as usize;
                if tile != 0 && self.goal_col[tile] as usize == c {
                    line[len] = self.goal_row[tile];
                    len += 1;
                }
            }
            total += len as u32 - longest_increasing(&line[..len]);
        }
        total
    }

    /// The estimate of `board`.
    #[inline]
    pub fn of(&self, board: &Board) -> u32 {
        let Some(lines) = &self.lines else {
            return self.manhattan.of(board) + 2 * self.removals(board);
        };
        let (rows, cols) = (self.rows as usize, self.cols as usize);
        let mut manhattan = 0u32;
        let mut removals = 0u32;
        let mut col_keys = [0u32; MAX_LOOKED_UP_LINE as usize];
        for r in 0..rows {
            let mut row_key = 0u32;
            for (c, col_key) in col_keys[..cols].iter_mut().enumerate() {
                let cell = r * cols + c;
                let at = board.cells[cell] as usize * MAX_CELLS + cell;
                manhattan += self.manhattan.distance[at] as u32;
                row_key += lines.row_part[at];
                *col_key += lines.col_part[at];
            }
            removals += lines.row_removals[row_key as usize] as u32;
        }
        for &key in &col_keys[..cols] {
            removals += lines.col_removals[key as usize] as u32;
        }
        manhattan + 2 * removals
    }
}

impl Heuristic<Tiles> for LinearConflict {
    #[inline]
    fn estimate(&self, _: &Tiles, board: Board) -> u32 {
        self.of(&board)
    }
}

/// The length of the longest strictly increasing subsequence of `values` (distinct, at most 12):
/// patience sorting into a fixed array.
#[inline]
fn longest_increasing(values: &[u8]) -> u32 {
    let mut tails = [0u8; MAX_CELLS / 2];
    let mut len = 0;
    for &v in values {
        // The first pile whose top is not below `v` takes it; none: a new pile.
        let pile = tails[..len].iter().position(|&t| t >= v).unwrap_or(len);
        tails[pile] = v;
        len = len.max(pile + 1);
    }
    len as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use statespace::space::StateSpace;

    fn board(cells: &[u8]) -> Board {
        let mut b = Board {
            cells: [0; MAX_CELLS],
            blank: 0,
        };
        b.cells[..cells.len()].copy_from_slice(cells);
        b.blank = cells.iter().position(|&t| t == 0).unwrap() as u8;
        b
    }

    #[test]
    fn linear_conflict_counts_the_fewest_tiles_out() {
        let tiles = Tiles::new(3, 3, Tiles::ordered(3, 3));
        let lc = LinearConflict::new(&tiles);
        // 3 2 1 in the top row: keep one, take two out.
        let b = board(&[3, 2, 1, 4, 5, 6, 7, 8, 0]);
        assert_eq!(lc.removals(&b), 2);
        assert_eq!(lc.of(&b), 4 + 4);
        // The look-up agrees with the computation on scrambled 4 x 4 boards.
        let tiles4 = Tiles::new(4, 4, Tiles::ordered(4, 4));
        let lc4 = LinearConflict::new(&tiles4);
        assert!(lc4.lines.is_some());
        let mut b = tiles4.goal();
        let mut x = 12345u32;
        for _ in 0..5000 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let mut all = Vec::new();
            tiles4.successors(b, &mut |_, t| all.push(t));
            b = all[(x >> 16) as usize % all.len()];
            let computed = lc4.manhattan.of(&b) + 2 * lc4.removals(&b);
            assert_eq!(lc4.of(&b), computed, "{b:?}");
        }
        assert_eq!(lc.of(&tiles.goal()), 0);
        assert_eq!(longest_increasing(&[2, 0, 1]), 2);
        assert_eq!(longest_increasing(&[]), 0);
    }
}
