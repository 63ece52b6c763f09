//! The board as a 64-bit mask ([`Geometry`]) and a piece's rectangle on it ([`Shape`]): where a
//! shape fits, and the cells one step away, for a whole mask of cells at once.
//!
//! Bit layout: cell `(r, c)` (0-based) is bit `r * cols + c`, so a board has at most 64 cells. A
//! piece is placed by its **anchor**, its top-left cell; the cells it covers are its shape's
//! stamp shifted to the anchor. Every question the moves ask is then a few word operations:
//! where a shape fits among the free cells ([`Shape::fits`]: `h + w` shifts and ANDs), which
//! anchors are one step away ([`Geometry::step`]: a shift and a mask that keeps rows from
//! wrapping), and which anchors a piece can reach through free cells ([`Geometry::flood`]).

/// A way a piece moves one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// One row up.
    Up,
    /// One row down.
    Down,
    /// One column left.
    Left,
    /// One column right.
    Right,
}

impl Dir {
    /// Every direction, in the order moves are listed.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// Along a row (left, right) rather than a column.
    pub fn is_horizontal(self) -> bool {
        matches!(self, Dir::Left | Dir::Right)
    }

    /// As a move label says it.
    pub fn word(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }
}

/// Which ways a piece may move: any, or only along a row or a column (Rush Hour's cars move
/// only along their length).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Axis {
    /// Up, down, left and right.
    Any,
    /// Left and right only: the piece stays in its rows.
    Horizontal,
    /// Up and down only: the piece stays in its columns.
    Vertical,
}

impl Axis {
    /// Whether a piece with this axis may move `dir`.
    pub fn allows(self, dir: Dir) -> bool {
        match self {
            Axis::Any => true,
            Axis::Horizontal => dir.is_horizontal(),
            Axis::Vertical => !dir.is_horizontal(),
        }
    }
}

/// An R x C board of at most 64 cells, as masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Rows.
    pub rows: u8,
    /// Columns.
    pub cols: u8,
    /// Every cell.
    pub full: u64,
    /// The cells not in the first column (where a step right may land).
    not_first_col: u64,
    /// The cells not in the last column (where a step left may land).
    not_last_col: u64,
}

impl Geometry {
    /// The most cells a board has.
    pub const MAX_CELLS: usize = 64;

    /// A `rows x cols` board; `rows * cols` is 1 to 64.
    pub fn new(rows: u8, cols: u8) -> Geometry {
        let cells = rows as u32 * cols as u32;
        assert!((1..=64).contains(&cells), "1 to 64 cells");
        let full = u64::MAX >> (64 - cells);
        let column = |c: u8| (0..rows).fold(0u64, |m, r| m | 1 << (r * cols + c));
        Geometry {
            rows,
            cols,
            full,
            not_first_col: full & !column(0),
            not_last_col: full & !column(cols - 1),
        }
    }

    /// The cell at `(row, col)`, 0-based.
    pub fn cell(&self, row: u8, col: u8) -> u8 {
        row * self.cols + col
    }

    /// The `(row, col)` of `cell`, 0-based.
    pub fn place(&self, cell: u8) -> (u8, u8) {
        (cell / self.cols, cell % self.cols)
    }

    /// Every cell of `cells` moved one step `dir`; cells that would leave the board (or wrap
    /// onto the next row) are dropped.
    #[inline(always)]
    pub fn step(&self, cells: u64, dir: Dir) -> u64 {
        match dir {
            Dir::Up => cells >> self.cols,
            Dir::Down => (cells << self.cols) & self.full,
            Dir::Left => (cells >> 1) & self.not_last_col,
            Dir::Right => (cells << 1) & self.not_first_col,
        }
    }

    /// The cells of `allowed` connected to `from` by steps along `axis` that stay in
    /// `allowed` (`from` included): a flood fill, a whole frontier of cells per round.
    #[inline]
    pub fn flood(&self, from: u64, allowed: u64, axis: Axis) -> u64 {
        let mut reached = from;
        loop {
            let mut grown = reached;
            for dir in Dir::ALL {
                if axis.allows(dir) {
                    grown |= self.step(reached, dir) & allowed;
                }
            }
            if grown == reached {
                return reached;
            }
            reached = grown;
        }
    }
}

/// A piece's rectangle: `rows` x `cols` cells, and where on a board it can stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Height in cells.
    pub rows: u8,
    /// Width in cells.
    pub cols: u8,
    /// The cells it covers when its anchor is cell 0.
    pub stamp: u64,
    /// The anchors at which it lies inside the board.
    pub anchors: u64,
    /// The board's columns (the stride between its rows).
    stride: u8,
}

impl Shape {
    /// A `rows x cols` rectangle on `board` (it must fit the board).
    pub fn new(board: &Geometry, rows: u8, cols: u8) -> Shape {
        assert!(rows >= 1 && cols >= 1 && rows <= board.rows && cols <= board.cols);
        let line = u64::MAX >> (64 - cols as u32);
        let stamp = (0..rows).fold(0, |m, r| m | line << (r * board.cols));
        let mut anchors = 0;
        for r in 0..=board.rows - rows {
            for c in 0..=board.cols - cols {
                anchors |= 1 << board.cell(r, c);
            }
        }
        Shape {
            rows,
            cols,
            stamp,
            anchors,
            stride: board.cols,
        }
    }

    /// The cells it covers with its anchor at `anchor`.
    #[inline(always)]
    pub fn at(&self, anchor: u32) -> u64 {
        self.stamp << anchor
    }

    /// The anchors at which it covers only cells of `free`: every cell of a row of the shape
    /// free (`cols` shifts), then every row (`rows` shifts).
    #[inline(always)]
    pub fn fits(&self, free: u64) -> u64 {
        let mut row = free;
        for dc in 1..self.cols as u32 {
            row &= free >> dc;
        }
        let mut all = row;
        for dr in 1..self.rows as u32 {
            all &= row >> (dr * self.stride as u32);
        }
        all & self.anchors
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where a shape fits, cell by cell: the definition [`Shape::fits`] computes word-wise.
    fn fits_by_cells(board: &Geometry, shape: &Shape, free: u64) -> u64 {
        let mut anchors = 0;
        for r in 0..board.rows {
            for c in 0..board.cols {
                let inside = r + shape.rows <= board.rows && c + shape.cols <= board.cols;
                let covered = (0..shape.rows)
                    .flat_map(|dr| (0..shape.cols).map(move |dc| (dr, dc)))
                    .all(|(dr, dc)| inside && free >> board.cell(r + dr, c + dc) & 1 == 1);
                if inside && covered {
                    anchors |= 1 << board.cell(r, c);
                }
            }
        }
        anchors
    }

    #[test]
    fn fits_and_steps_agree_with_cell_by_cell_definitions() {
        let mut random = statespace::random::Lcg(7);
        for (rows, cols) in [(5, 4), (6, 6), (8, 8), (1, 7), (4, 16)] {
            let board = Geometry::new(rows, cols);
            for _ in 0..50 {
                let cells = rows as u32 * cols as u32;
                let free = (0..cells)
                    .filter(|_| random.below(3) > 0)
                    .fold(0u64, |m, cell| m | 1 << cell);
                for (h, w) in [(1, 1), (2, 1), (1, 2), (2, 2), (1, 3)] {
                    if h <= rows && w <= cols {
                        let shape = Shape::new(&board, h, w);
                        assert_eq!(shape.fits(free), fits_by_cells(&board, &shape, free));
                    }
                }
                for dir in Dir::ALL {
                    let (dr, dc) = match dir {
                        Dir::Up => (-1, 0),
                        Dir::Down => (1, 0),
                        Dir::Left => (0, -1),
                        Dir::Right => (0, 1),
                    };
                    let mut expected = 0;
                    for cell in 0..rows * cols {
                        let (r, c) = board.place(cell);
                        let (r2, c2) = (r as i32 + dr, c as i32 + dc);
                        let inside =
                            (0..rows as i32).contains(&r2) && (0..cols as i32).contains(&c2);
                        if free >> cell & 1 == 1 && inside {
                            expected |= 1 << board.cell(r2 as u8, c2 as u8);
                        }
                    }
                    assert_eq!(board.step(free, dir), expected, "{rows} x {cols} {dir:?}");
                }
            }
        }
    }

    #[test]
    fn a_flood_keeps_to_its_axis() {
        let board = Geometry::new(3, 3);
        let all = board.full;
        assert_eq!(board.flood(1 << 4, all, Axis::Any), all);
        assert_eq!(board.flood(1 << 4, all, Axis::Horizontal), 0b000_111_000);
        assert_eq!(board.flood(1 << 4, all, Axis::Vertical), 0b010_010_010);
        // A wall in the middle row cuts the way left.
        assert_eq!(
            board.flood(1 << 5, all & !(1 << 4), Axis::Horizontal),
            1 << 5
        );
    }
}
