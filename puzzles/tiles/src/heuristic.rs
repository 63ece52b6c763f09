//! Admissible heuristics for the sliding-tile puzzle, for [`astar`](statespace::search::astar) and
//! [`idastar`](statespace::search::idastar).
//!
//! | heuristic | estimate | cost per node | strength on the 15-puzzle (Korf's 100, IDA*) |
//! |---|---|---|---|
//! | [`Manhattan`] | sum over tiles of the rows + columns to the tile's goal cell | one table read per cell | billions of nodes on the hard instances |
//! | [`LinearConflict`] | Manhattan + 2 per tile that must leave its line to let another tile of that line pass | Manhattan + a longest increasing subsequence per row and column | several times fewer nodes than Manhattan |
//! | [`TilePdb`] | sum of additive pattern databases over disjoint tile groups ([`TileGroup`]), max with the sum for the [`Transpose`]d board | per group a pass over the board, a rank and one table read | orders of magnitude fewer (see BENCHMARKS.md) |
//!
//! All work for any goal board, ordered or pattern; none allocates per node.
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
//! # Pattern databases over tile groups
//!
//! A [`TileGroup`] is a set of tiles; its database is indexed by the cells of those tiles (ranked
//! as an [`Arrangements`]) and counts only their moves. Every real move slides one tile into the
//! blank, so it counts in the group that owns the tile and in no other: the sum over disjoint
//! groups is admissible ([`Additive`]). Two ways to build the table:
//!
//! - **blank-aware** ([`TileGroup::new`], the default; Korf & Felner 2002, Felner, Korf & Hanan
//!   2004): the build tracks the blank, which moves for free through the cells of unwatched tiles
//!   but must get around the watched ones; the entry is the minimum over the blank's positions.
//!   A 0-1 search of its own ([`blank_aware`] module), one byte per entry.
//! - **blank-free** ([`TileGroup::blank_free`]): the blank is assumed wherever it is needed, so a
//!   group tile may slide to any adjacent cell no other group tile holds; built by the unit-cost
//!   [`table`] engine. Weaker (it misses the moves a tile makes to let the
//!   blank around it: on Korf's 100 instances the 7-8 databases search about 100 times the
//!   nodes), kept as the plain use of the generic engine and for comparison.
//!
//! Every blank-aware entry is at least the blank-free one (the tests check it entry by entry).
//!
//! # Reflection
//!
//! On a square board whose goal has the blank on the main diagonal, transposing the board (cell
//! `(r, c)` to `(c, r)`) and renaming every tile `t` as the tile whose goal cell is the transpose
//! of `t`'s maps the goal onto itself and moves onto moves, so the transposed board is exactly as
//! far from the goal. [`Transpose`] is that map; [`TilePdb`] looks the transposed board up in the
//! same databases and keeps the larger sum (for the ordered 15-puzzle goal, the 7-8 split's
//! reflection).

use super::blank_aware;
use super::space::{Board, Dir, MAX_CELLS, Slide, Tiles};
use statespace::cache::fingerprint::Content;
use statespace::cache::{Recipe, TableCache};
use statespace::rank::Arrangements;
use statespace::search::pdb::{self, Abstraction, Additive, PatternDatabase, PdbError, Symmetry};
use statespace::search::table::{self, DistanceTable, Width};
use statespace::search::{Limit, Limits};
use statespace::space::{Describe, GoalSet, Heuristic, Indexed, Invertible, StateSpace};

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
        let goal = goal_cells(tiles);
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
        let goal = goal_cells(tiles);
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

/// Every tile's goal cell: `goal_cells(tiles)[tile]` (the blank's too, at index 0).
fn goal_cells(tiles: &Tiles) -> [u8; MAX_CELLS] {
    let mut cells = [0u8; MAX_CELLS];
    for (cell, &tile) in tiles.goal().cells[..tiles.cells()].iter().enumerate() {
        cells[tile as usize] = cell as u8;
    }
    cells
}

/// The most tiles in one [`TileGroup`]. Larger groups would not fit any memory budget on a
/// board of more than 9 cells (16! / 6! entries on 4 x 4).
pub const MAX_GROUP: usize = 10;

/// An abstract state of a [`TileGroup`]: the cell of each of its tiles, in the group's order
/// (entries past the group's size are 0).
pub type GroupCells = [u8; MAX_GROUP];

/// The abstraction of a set of tiles (see the module docs): the abstract state is the cells of the
/// group's tiles. It is its own abstract space: a [`StateSpace`] over [`GroupCells`] whose move
/// slides one group tile to an adjacent cell that holds no other group tile (the blank-free
/// moves), with moves named like the puzzle's ([`Slide`]), indexed by [`Arrangements`] rank,
/// invertible, and one goal (the group's tiles on their goal cells). A blank-aware group builds
/// its table with the blank tracked instead ([`blank_aware`] module).
#[derive(Clone, Debug)]
pub struct TileGroup {
    rows: u8,
    cols: u8,
    /// The group's tiles, in the order of [`GroupCells`].
    tiles: Vec<u8>,
    /// `slot[tile]`: the tile's position in the group, or [`NOT_IN_GROUP`].
    slot: [u8; MAX_CELLS],
    goal: GroupCells,
    ranks: Arrangements,
    /// Per cell, the adjacent cells and the way a tile goes to reach them.
    steps: Vec<Vec<(u8, Dir)>>,
    /// Whether the table tracks the blank (see the module docs).
    blank_aware: bool,
    /// The goal's blank cell.
    goal_blank: u8,
}

const NOT_IN_GROUP: u8 = u8::MAX;

impl TileGroup {
    /// The blank-aware group of `group`'s tiles on the board and goal of `tiles`.
    /// [`PdbError::Invalid`] when the group is empty, larger than [`MAX_GROUP`], names the blank
    /// (0), a tile that the board does not have, or a tile twice.
    pub fn new(tiles: &Tiles, group: &[u8]) -> Result<Self, PdbError> {
        Self::with_blank(tiles, group, true)
    }

    /// The blank-free group of `group`'s tiles (see the module docs); errors as [`new`](Self::new).
    pub fn blank_free(tiles: &Tiles, group: &[u8]) -> Result<Self, PdbError> {
        Self::with_blank(tiles, group, false)
    }

    fn with_blank(tiles: &Tiles, group: &[u8], blank_aware: bool) -> Result<Self, PdbError> {
        let n = tiles.cells();
        let invalid = |m: String| Err(PdbError::Invalid(m));
        if group.is_empty() || group.len() > MAX_GROUP {
            return invalid(format!(
                "a tile group has 1 to {MAX_GROUP} tiles, not {}",
                group.len()
            ));
        }
        let mut slot = [NOT_IN_GROUP; MAX_CELLS];
        for (i, &tile) in group.iter().enumerate() {
            if tile == 0 || tile as usize >= n {
                return invalid(format!(
                    "tile {tile} is not a tile of the board (1 to {})",
                    n - 1
                ));
            }
            if slot[tile as usize] != NOT_IN_GROUP {
                return invalid(format!("tile {tile} appears twice in a group"));
            }
            slot[tile as usize] = i as u8;
        }
        let (rows, cols) = tiles.shape();
        let goal_of = goal_cells(tiles);
        let mut goal = [0u8; MAX_GROUP];
        for (i, &tile) in group.iter().enumerate() {
            goal[i] = goal_of[tile as usize];
        }
        let ranks = Arrangements::new(n as u32, group.len() as u32)
            .expect("at most 10 of at most 25 cells fit a u64");
        // A tile on `cell` moves to a neighbour the opposite way to the neighbour's tile
        // sliding into `cell`.
        let steps = (0..n as u8)
            .map(|cell| {
                let neighbours = tiles.neighbours(cell).iter();
                neighbours.map(|&(to, dir)| (to, dir.opposite())).collect()
            })
            .collect();
        Ok(TileGroup {
            rows,
            cols,
            tiles: group.to_vec(),
            slot,
            goal,
            ranks,
            steps,
            blank_aware,
            goal_blank: tiles.goal().blank,
        })
    }

    /// Whether the group's table tracks the blank.
    pub fn is_blank_aware(&self) -> bool {
        self.blank_aware
    }

    /// The group's tiles.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The cells of the group's tiles on `board`.
    #[inline]
    pub fn cells_of(&self, board: &Board) -> GroupCells {
        let mut cells = [0u8; MAX_GROUP];
        let n = self.rows as usize * self.cols as usize;
        for (cell, &tile) in board.cells[..n].iter().enumerate() {
            let slot = self.slot[tile as usize];
            if slot != NOT_IN_GROUP {
                cells[slot as usize] = cell as u8;
            }
        }
        cells
    }
}

impl StateSpace for TileGroup {
    type State = GroupCells;
    type Move = Slide;

    fn successors(&self, cells: GroupCells, visit: &mut dyn FnMut(Slide, GroupCells)) {
        let k = self.tiles.len();
        let occupied = cells[..k].iter().fold(0u32, |m, &c| m | 1 << c);
        for i in 0..k {
            for &(to, dir) in &self.steps[cells[i] as usize] {
                if occupied & (1 << to) == 0 {
                    let mut next = cells;
                    next[i] = to;
                    visit(
                        Slide {
                            tile: self.tiles[i],
                            dir,
                        },
                        next,
                    );
                }
            }
        }
    }

    fn is_goal(&self, cells: GroupCells) -> bool {
        cells == self.goal
    }
}

impl Indexed for TileGroup {
    fn size(&self) -> u128 {
        self.ranks.count() as u128
    }

    #[inline]
    fn index(&self, cells: GroupCells) -> u64 {
        self.ranks.rank(&cells[..self.tiles.len()])
    }

    #[inline]
    fn state(&self, index: u64) -> GroupCells {
        let mut cells = [0u8; MAX_GROUP];
        self.ranks.unrank(index, &mut cells[..self.tiles.len()]);
        cells
    }
}

impl Invertible for TileGroup {
    fn inverse(&self, m: Slide) -> Slide {
        let dir = match m.dir {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        };
        Slide { tile: m.tile, dir }
    }
}

/// The board's shape and the goal cells of the group's tiles, in the group's order: what the
/// slides, the index and the goal depend on (which tiles they are does not change the table).
impl Describe for TileGroup {
    fn describe(&self, content: &mut Content) {
        content
            .str("tile group")
            .u64(self.rows.into())
            .u64(self.cols.into());
        content.bytes(&self.goal[..self.tiles.len()]);
    }
}

impl GoalSet for TileGroup {
    fn goals(&self, visit: &mut dyn FnMut(GroupCells)) {
        visit(self.goal)
    }
}

impl Abstraction<Tiles> for TileGroup {
    type Space = TileGroup;

    fn space(&self) -> &TileGroup {
        self
    }

    #[inline]
    fn project(&self, _: &Tiles, board: Board) -> u64 {
        self.index(self.cells_of(&board))
    }

    fn pieces(&self) -> u64 {
        self.tiles.iter().fold(0, |m, &t| m | 1 << t)
    }

    fn build_table(&self, limits: &Limits) -> Result<DistanceTable, Limit> {
        if !self.blank_aware {
            return table::build_with(self, limits, Width::Exact);
        }
        let goal = &self.goal[..self.tiles.len()];
        blank_aware::build(self.rows, self.cols, goal, self.goal_blank, limits)
    }

    /// Blank-aware groups build with their own search, whose costs depend on the goal's blank
    /// cell too.
    fn recipe(&self) -> Recipe {
        match self.blank_aware {
            true => Recipe::pattern_database().own_build(vec![b'b', self.goal_blank]),
            false => Recipe::pattern_database(),
        }
    }

    fn build_bytes(&self) -> u128 {
        if !self.blank_aware {
            return self.size().div_ceil(16) * 8;
        }
        let free = self.rows as u32 * self.cols as u32 - self.tiles.len() as u32;
        blank_aware::bytes_needed(self.ranks.count(), free)
    }
}

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
}

impl Symmetry<Tiles> for Transpose {
    #[inline]
    fn apply(&self, _: &Tiles, board: Board) -> Board {
        self.of(&board)
    }
}

/// Additive tile pattern databases, optionally with the diagonal reflection: the
/// generic [`Additive`] heuristic with a faster estimate for tiles.
///
/// The generic estimate projects the board once per database and builds the reflected board;
/// this one inverts the board once (every tile's cell), gathers each group's cells from that, and
/// reflects the inverse rather than the board (`pos'[tile_map[t]] = cell_map[pos[t]]`). The
/// values are the same ([`Additive`]'s estimate is the reference in the tests).
#[derive(Debug)]
pub struct TilePdb {
    additive: Additive<TileGroup, Transpose>,
    cells: usize,
}

impl TilePdb {
    /// The generic heuristic underneath: its databases, their tables and sources.
    pub fn additive(&self) -> &Additive<TileGroup, Transpose> {
        &self.additive
    }

    /// The databases summed.
    pub fn databases(&self) -> &[PatternDatabase<TileGroup>] {
        self.additive.databases()
    }

    /// The sum of the databases' values for the board whose tile `t` is on cell `pos[t]`.
    #[inline]
    fn sum(&self, pos: &[u8; MAX_CELLS]) -> u32 {
        let mut sum = 0u32;
        for db in self.additive.databases() {
            let group = db.abstraction();
            let mut cells = [0u8; MAX_GROUP];
            for (cell, &tile) in cells.iter_mut().zip(&group.tiles) {
                *cell = pos[tile as usize];
            }
            let value = db
                .table()
                .code(group.index(cells))
                .map_or(u32::MAX, |c| c as u32);
            sum = sum.saturating_add(value);
        }
        sum
    }
}

impl Heuristic<Tiles> for TilePdb {
    #[inline]
    fn estimate(&self, _: &Tiles, board: Board) -> u32 {
        let mut pos = [0u8; MAX_CELLS];
        for (cell, &tile) in board.cells[..self.cells].iter().enumerate() {
            pos[tile as usize] = cell as u8;
        }
        let direct = self.sum(&pos);
        self.additive.symmetries().iter().fold(direct, |best, t| {
            let mut image = [0u8; MAX_CELLS];
            for tile in 0..self.cells {
                image[t.tile_map[tile] as usize] = t.cell_map[pos[tile] as usize];
            }
            best.max(self.sum(&image))
        })
    }
}

/// The additive blank-aware databases of `groups` (disjoint sets of tiles) on `tiles`, with the
/// lookups of the [`Transpose`]d board when `reflect` is set.
///
/// - Tables come from `cache` when it holds them, else are built (and saved there) by
///   [`pdb::build_all`] within `limits` (memory refused before allocating; time and Ctrl-C stop the
///   build).
/// - [`PdbError::Invalid`]: a group is invalid ([`TileGroup::new`]), two groups share a tile, or
///   `reflect` is asked on a board that has no such symmetry ([`Transpose::new`]). The groups
///   need not cover every tile (the sum is admissible either way, only weaker).
pub fn additive(
    tiles: &Tiles,
    groups: &[Vec<u8>],
    reflect: bool,
    limits: &Limits,
    cache: Option<&TableCache>,
) -> Result<TilePdb, PdbError> {
    let abstractions = groups
        .iter()
        .map(|group| TileGroup::new(tiles, group))
        .collect::<Result<Vec<_>, _>>()?;
    additive_of(tiles, abstractions, reflect, limits, cache)
}

/// [`additive`] over groups made by the caller (blank-aware or blank-free, [`TileGroup`]).
pub fn additive_of(
    tiles: &Tiles,
    abstractions: Vec<TileGroup>,
    reflect: bool,
    limits: &Limits,
    cache: Option<&TableCache>,
) -> Result<TilePdb, PdbError> {
    let mut seen = 0u64;
    for group in &abstractions {
        let shared = seen & group.pieces();
        if shared != 0 {
            let tile = shared.trailing_zeros();
            return Err(PdbError::Invalid(format!(
                "tile {tile} is in two groups; additive databases need disjoint groups"
            )));
        }
        seen |= group.pieces();
    }
    let symmetries = if reflect {
        let (rows, cols) = tiles.shape();
        vec![Transpose::new(tiles).ok_or_else(|| {
            PdbError::Invalid(format!(
                "reflection needs a square board whose goal has the blank on the main diagonal \
                 ({rows} x {cols}, blank at cell {})",
                tiles.goal().blank
            ))
        })?]
    } else {
        Vec::new()
    };
    let databases = pdb::build_all(abstractions, limits, cache)?;
    Ok(TilePdb {
        additive: Additive::new(databases, symmetries)?,
        cells: tiles.cells(),
    })
}

/// A split of the board's tiles into groups, given by goal cells (row-major): the groups of
/// `tiles` are the tiles whose goal cells are in each set (the goal's blank cell is skipped). So
/// one split serves every goal board.
pub fn groups_by_goal_cells(tiles: &Tiles, cells: &[&[u8]]) -> Vec<Vec<u8>> {
    let goal = tiles.goal();
    cells
        .iter()
        .map(|set| {
            set.iter()
                .map(|&cell| goal.cells[cell as usize])
                .filter(|&tile| tile != 0)
                .collect()
        })
        .collect()
}

/// The 7-8 split of the 15-puzzle as goal cells: the 8 cells of the top two rows and the 7 of
/// the bottom two (Korf & Felner's 7-8 split, rotated to our goal with the blank last: the
/// group of 7 is the one next to the blank's goal cell).
pub const SPLIT_7_8: [&[u8]; 2] = [&[8, 9, 10, 11, 12, 13, 14], &[0, 1, 2, 3, 4, 5, 6, 7]];

/// A 6-6-3 split of the 15-puzzle as goal cells: the left block (columns 0-1 of rows 0-1, column
/// 0 of rows 2-3), the right block (columns 2-3 of rows 0-2), and the three bottom middle cells.
pub const SPLIT_6_6_3: [&[u8]; 3] = [&[0, 1, 4, 5, 8, 12], &[2, 3, 6, 7, 10, 11], &[9, 13, 14]];

/// A 5-5-5 split of the 15-puzzle as goal cells (builds in seconds; for tests).
pub const SPLIT_5_5_5: [&[u8]; 3] = [&[0, 1, 2, 4, 5], &[3, 6, 7, 10, 11], &[8, 9, 12, 13, 14]];

/// The 4-4-4-3 split of the 15-puzzle as goal cells: one group per row.
pub const SPLIT_4_4_4_3: [&[u8]; 4] =
    [&[0, 1, 2, 3], &[4, 5, 6, 7], &[8, 9, 10, 11], &[12, 13, 14]];

/// The default heuristic of a board size, and its name for reports.
pub struct DefaultHeuristic {
    /// What was chosen: `"pdb 7-8 reflected"`, `"pdb 6-6-3"`, `"linear-conflict"`, ...
    pub name: String,
    /// The heuristic.
    pub heuristic: Box<dyn Heuristic<Tiles> + Send + Sync>,
}

/// The best heuristic this module offers for `tiles` within `limits`:
///
/// - 4 x 4: the blank-aware 7-8 additive databases (reflected when the goal allows,
///   [`Transpose::new`]) when they fit `limits.memory_budget` (576 MB held; the 8-tile group's
///   build holds 1.04 GB); else 6-6-3 (12 MB); else linear conflict. The first call builds the
///   tables (minutes for 7-8; [`pdb::build_all`] notes it first) and saves them in `cache`;
///   later calls load them (a second or two).
/// - every other size: linear conflict. (3 x 3 is better served by the whole distance table;
///   the 24-puzzle's 6-6-6-6 databases are not offered as a default: 127.5 M placements each,
///   half a gigabyte per group to build.)
///
/// A build stopped by a limit (memory, time, Ctrl-C) falls back to the next choice.
pub fn default_heuristic(
    tiles: &Tiles,
    limits: &Limits,
    cache: Option<&TableCache>,
) -> DefaultHeuristic {
    if tiles.shape() == (4, 4) {
        let reflect = Transpose::new(tiles).is_some();
        let suffix = if reflect { " reflected" } else { "" };
        for (name, split) in [("7-8", &SPLIT_7_8[..]), ("6-6-3", &SPLIT_6_6_3[..])] {
            let groups = groups_by_goal_cells(tiles, split);
            if let Ok(h) = additive(tiles, &groups, reflect, limits, cache) {
                return DefaultHeuristic {
                    name: format!("pdb {name}{suffix}"),
                    heuristic: Box::new(h),
                };
            }
        }
    }
    DefaultHeuristic {
        name: "linear-conflict".into(),
        heuristic: Box::new(LinearConflict::new(tiles)),
    }
}

/// A board given in the convention "blank first" (the goal has the blank on cell 0 and tile `t`
/// on cell `t`, as Korf's 100 instances are written) as the same puzzle with our ordered goal
/// (blank last): rotate the board 180 degrees and rename tile `t` as `n - t`. The map sends
/// moves to moves and the one goal to the other, so optimal lengths are unchanged.
///
/// `cells` holds `rows * cols` cells in row-major order, 0 for the blank; `None` unless it is a
/// permutation of `0..n`.
pub fn from_blank_first(rows: u8, cols: u8, cells: &[u8]) -> Option<Board> {
    let n = rows as usize * cols as usize;
    if cells.len() != n || n > MAX_CELLS {
        return None;
    }
    let mut seen = 0u32;
    let mut board = Board {
        cells: [0; MAX_CELLS],
        blank: 0,
    };
    for (cell, &tile) in cells.iter().enumerate() {
        if tile as usize >= n || seen & (1 << tile) != 0 {
            return None;
        }
        seen |= 1 << tile;
        let to = n - 1 - cell;
        board.cells[to] = if tile == 0 { 0 } else { n as u8 - tile };
        if tile == 0 {
            board.blank = to as u8;
        }
    }
    Some(board)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn blank_first_goal_converts_to_the_ordered_goal() {
        let korf_goal: Vec<u8> = (0..16).collect();
        assert_eq!(
            from_blank_first(4, 4, &korf_goal),
            Some(Tiles::ordered(4, 4))
        );
        assert_eq!(from_blank_first(4, 4, &[0; 16]), None);
    }
}
