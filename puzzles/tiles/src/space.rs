//! [`Tiles`]: the sliding-tile puzzle as a [`StateSpace`] with a dense index, invertible moves,
//! its goal, and the parity invariant.
//!
//! A [`Board`] is `cells[i]`, the tile on cell `i` (row-major, 0 for the blank), plus the blank's
//! cell: 26 bytes, `Copy`, so a successor is a copy and a swap. A move is named by the tile that
//! slides and the way it goes ([`Slide`]: `7 left` moves tile 7 one cell left, into the blank).
//!
//! # The invariant, and the index over the half that can reach the goal
//!
//! A move swaps the blank with a neighbour: one transposition of the cells' contents, and the
//! blank's row + column changes by one. So the *class*, the parity of the board as a permutation
//! XOR the parity of the blank's row + column, never changes; on boards of at least 2 x 2 the
//! boards of one class all reach each other (Johnson & Story, 1879). A board of the other class
//! than the goal is proven unsolvable at once ([`Invariant`]), on any size.
//!
//! The index covers the goal's class only: write the board as where every tile is, the blank
//! first (`pos[0]` the blank's cell, `pos[t]` tile `t`'s). Its lexicographic ranks `2i` and
//! `2i + 1` differ only in the cells of the last two tiles, so they have the same blank and
//! opposite parities: exactly one of them is in the class, and `rank / 2` indexes the class
//! densely, `0..n!/2` (181,440 boards for 3 x 3). Ranks fit a `u64` up to 20 cells, so the index
//! is there up to 4 x 5; the plugin declares it only then (a 5 x 5 table could not be allocated
//! anyway).

use statespace::cache::fingerprint::Content;
use statespace::rank::{Permutations, parity};
use statespace::space::{Describe, GoalSet, Indexed, Invariant, Invertible, StateSpace};
use std::fmt;

/// The most cells: the 24-puzzle.
pub const MAX_CELLS: usize = 25;

/// A board: the tile on every cell (0: the blank), and the blank's cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// `cells[i]` is the tile on cell `i` (row-major); only the first `rows * cols` are used.
    pub cells: [u8; MAX_CELLS],
    /// The blank's cell.
    pub blank: u8,
}

impl Board {
    /// Where every tile is among the first `cells` cells: `pos[t]` is tile `t`'s cell (the
    /// blank's at 0), the board's inverse as a permutation.
    #[inline]
    pub fn positions(&self, cells: usize) -> [u8; MAX_CELLS] {
        let mut pos = [0u8; MAX_CELLS];
        for (cell, &tile) in self.cells[..cells].iter().enumerate() {
            pos[tile as usize] = cell as u8;
        }
        pos
    }
}

/// The way a tile slides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// A move: `tile` slides one cell `dir`, into the blank. Displays as `7 left`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slide {
    /// The tile that moves.
    pub tile: u8,
    /// Where it goes.
    pub dir: Dir,
}

impl Dir {
    /// The way back.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }
}

impl fmt::Display for Slide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dir = match self.dir {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        };
        write!(f, "{} {dir}", self.tile)
    }
}

/// The sliding-tile puzzle on one R x C board with one goal board.
#[derive(Clone, Debug)]
pub struct Tiles {
    rows: u8,
    cols: u8,
    goal: Board,
    /// The goal's [`class`](Tiles::class): the boards that can reach it share it.
    goal_class: bool,
    /// Per blank cell, the cells next to it and the way their tile would slide into it.
    neighbours: Vec<Vec<(u8, Dir)>>,
    /// Ranks of the tiles' cells, blank first (up to 20 cells).
    ranks: Option<Permutations>,
    /// The reflection about the main diagonal, when it maps the goal onto itself.
    transpose: Option<Transpose>,
}

impl Tiles {
    /// The puzzle on `rows` x `cols` (2 or more each, at most 25 cells) whose goal is `goal`.
    pub fn new(rows: u8, cols: u8, goal: Board) -> Self {
        let n = rows as usize * cols as usize;
        assert!(rows >= 2 && cols >= 2 && n <= MAX_CELLS);
        let neighbours = (0..n as u8)
            .map(|blank| {
                let (r, c) = (blank / cols, blank % cols);
                // The tile above the blank slides down into it, and so on.
                [
                    (r > 0, blank.wrapping_sub(cols), Dir::Down),
                    (r + 1 < rows, blank + cols, Dir::Up),
                    (c > 0, blank.wrapping_sub(1), Dir::Right),
                    (c + 1 < cols, blank + 1, Dir::Left),
                ]
                .into_iter()
                .filter(|&(inside, _, _)| inside)
                .map(|(_, cell, dir)| (cell, dir))
                .collect()
            })
            .collect();
        let ranks = (n <= Permutations::MAX_LEN as usize).then(|| Permutations::new(n as u32));
        let mut tiles = Tiles {
            rows,
            cols,
            goal,
            goal_class: false,
            neighbours,
            ranks,
            transpose: None,
        };
        tiles.goal_class = tiles.class(goal);
        tiles.transpose = Transpose::new(&tiles);
        tiles
    }

    /// The reflection about the main diagonal, when the board is square and its goal is its own
    /// reflection (see [`transpose`](crate::transpose)).
    pub fn transpose(&self) -> Option<&Transpose> {
        self.transpose.as_ref()
    }

    /// The ordered goal: tiles `1..n-1` in row-major order, the blank last.
    pub fn ordered(rows: u8, cols: u8) -> Board {
        let n = rows as usize * cols as usize;
        let mut cells = [0u8; MAX_CELLS];
        (0..n - 1).for_each(|i| cells[i] = i as u8 + 1);
        Board {
            cells,
            blank: n as u8 - 1,
        }
    }

    /// Rows and columns.
    pub fn shape(&self) -> (u8, u8) {
        (self.rows, self.cols)
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// The cells next to `cell`, each with the way its tile would slide into `cell`.
    pub fn neighbours(&self, cell: u8) -> &[(u8, Dir)] {
        &self.neighbours[cell as usize]
    }

    /// The goal board.
    pub fn goal(&self) -> Board {
        self.goal
    }

    /// Every tile's goal cell: `goal_cells()[tile]` (the blank's too, at index 0).
    pub fn goal_cells(&self) -> [u8; MAX_CELLS] {
        self.goal.positions(self.cells())
    }

    /// The invariant: the board's parity as a permutation XOR the parity of the blank's row +
    /// column (see the module docs).
    pub fn class(&self, board: Board) -> bool {
        let (r, c) = (board.blank / self.cols, board.blank % self.cols);
        parity(&board.cells[..self.cells()]) ^ ((r + c) % 2 == 1)
    }
}

/// `board` after the tile in `cell` slides into the blank.
#[inline(always)]
fn slid(board: Board, cell: u8) -> Board {
    let mut next = board;
    next.cells[board.blank as usize] = board.cells[cell as usize];
    next.cells[cell as usize] = 0;
    next.blank = cell;
    next
}

impl StateSpace for Tiles {
    type State = Board;
    type Move = Slide;

    #[inline]
    fn successors(&self, board: Board, visit: &mut dyn FnMut(Slide, Board)) {
        for &(cell, dir) in &self.neighbours[board.blank as usize] {
            let tile = board.cells[cell as usize];
            visit(Slide { tile, dir }, slid(board, cell));
        }
    }

    /// Each slide asked about before the board after it is made.
    #[inline]
    fn successors_where(
        &self,
        board: Board,
        wanted: &mut dyn FnMut(Slide) -> bool,
        visit: &mut dyn FnMut(Slide, Board),
    ) {
        for &(cell, dir) in &self.neighbours[board.blank as usize] {
            let tile = board.cells[cell as usize];
            if wanted(Slide { tile, dir }) {
                visit(Slide { tile, dir }, slid(board, cell));
            }
        }
    }

    fn is_goal(&self, board: Board) -> bool {
        board == self.goal
    }

    /// The tile just moved cannot move again at once: the only way it could is straight back.
    fn may_follow(&self, previous: Slide, next: Slide) -> bool {
        next.tile != previous.tile
    }
}

impl Invertible for Tiles {
    fn inverse(&self, m: Slide) -> Slide {
        Slide {
            tile: m.tile,
            dir: m.dir.opposite(),
        }
    }
}

/// The board's shape (which fixes the slides and the rank) and the goal board.
impl Describe for Tiles {
    fn describe(&self, content: &mut Content) {
        let n = self.rows as usize * self.cols as usize;
        content
            .str("tiles")
            .u64(self.rows.into())
            .u64(self.cols.into());
        content.str("goal").bytes(&self.goal.cells[..n]);
    }
}

impl GoalSet for Tiles {
    fn goals(&self, visit: &mut dyn FnMut(Board)) {
        visit(self.goal)
    }
}

impl Invariant for Tiles {
    fn unsolvable_by(&self, board: Board) -> Option<&'static str> {
        (self.class(board) != self.goal_class).then_some("parity")
    }
}

/// The goal's class, `n! / 2` boards (see the module docs). Up to 20 cells: beyond, the ranks
/// would not fit a `u64`, and the plugin does not declare the index.
impl Indexed for Tiles {
    fn size(&self) -> u128 {
        (1..=self.cells() as u128).product::<u128>() / 2
    }

    #[inline]
    fn index(&self, board: Board) -> u64 {
        let ranks = self.ranks.expect("indexed up to 20 cells");
        ranks.rank_half(&board.positions(self.cells())[..self.cells()])
    }

    #[inline]
    fn state(&self, index: u64) -> Board {
        let ranks = self.ranks.expect("indexed up to 20 cells");
        let n = self.cells();
        let mut pos = [0u8; MAX_CELLS];
        ranks.unrank_half(index, false, &mut pos[..n]);
        let mut board = Board {
            cells: [0; MAX_CELLS],
            blank: pos[0],
        };
        for (tile, &cell) in pos[..n].iter().enumerate() {
            board.cells[cell as usize] = tile as u8;
        }
        // `pos` is even, so the class is the blank's row + column parity; when that is not the
        // goal's, the board is the other one of the pair: the last two tiles swapped.
        let (r, c) = (board.blank / self.cols, board.blank % self.cols);
        if ((r + c) % 2 == 1) != self.goal_class {
            let (a, b) = (pos[n - 2] as usize, pos[n - 1] as usize);
            board.cells.swap(a, b);
        }
        board
    }
}

/// The reflection about the main diagonal (see [`transpose`](crate::transpose)): cell `(r, c)` to `(c, r)`, tile
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

    /// The image of cell `cell`.
    #[inline]
    pub fn cell(&self, cell: u8) -> u8 {
        self.cell_map[cell as usize]
    }

    /// The name of tile `tile` on the reflected board (the blank, 0, stays 0).
    #[inline]
    pub fn tile(&self, tile: u8) -> u8 {
        self.tile_map[tile as usize]
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
