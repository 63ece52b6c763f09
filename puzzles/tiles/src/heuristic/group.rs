//! [`TileGroup`]: a set of tiles as the abstraction of a pattern database, and as its own
//! abstract space.
//!
//! # Pattern databases over tile groups
//!
//! A tile group's database is indexed by the cells of its tiles (ranked as an [`Arrangements`])
//! and counts only their moves. Every real move slides one tile into the blank, so it counts in
//! the group that owns the tile and in no other: the sum over disjoint groups is admissible
//! ([`TilePdb`](super::TilePdb)). Two ways to build the table:
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

use crate::blank_aware;
use crate::space::{Board, Dir, MAX_CELLS, Slide, Tiles};
use statespace::cache::fingerprint::Content;
use statespace::limit::{Limit, Limits};
use statespace::rank::Arrangements;
use statespace::search::pdb::{Abstraction, PdbError};
use statespace::search::table::cached::Recipe;
use statespace::search::table::{self, DistanceTable, Width};
use statespace::space::{Describe, GoalSet, Indexed, Invertible, StateSpace};

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
        let goal_of = tiles.goal_cells();
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

    /// The board's number of cells (the group's index ranks its tiles' cells among them).
    pub fn board_cells(&self) -> u32 {
        self.ranks.cells()
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
        Slide {
            tile: m.tile,
            dir: m.dir.opposite(),
        }
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
