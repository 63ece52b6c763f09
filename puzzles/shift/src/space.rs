//! The two state spaces of the Shift Puzzle.
//!
//! | space | state | size | goal | capabilities |
//! |---|---|---|---|---|
//! | [`ColourMasks`] | one colour's cell mask (`u64`) | `C(cells, k)` for `k` cells of the colour | the region is all that colour | indexed (colex), invertible, goal set, symmetric (the board's mirrors that keep the region) |
//! | [`Boards`] | the whole board packed (`u128`) | up to `colours^cells` | a [`BoardGoal`]: the target board, or a region one colour | invertible, invariant (colour counts, parity) |
//!
//! A region goal ("these cells one colour") only asks where one colour is, and a move moves every
//! colour the same way, so the rest of the board can be forgotten: per colour the space is the
//! masks with that colour's cell count, small enough for a distance table. The pattern goal asks
//! where every colour is, so it searches whole boards, forward from the start. Export draws whole
//! boards for every goal, so [`Boards`] takes region goals too.

use super::board::{Board, Geometry, Palette, Shift, Shifter, Word};
pub use super::mirror::Mirror;
use super::mirror::MirrorTables;
use statespace::board_text::BoardText;
use statespace::cache::fingerprint::Content;
use statespace::error::Result;
use statespace::rank::{Colex, next_same_popcount};
use statespace::space::{
    BoardFormat, Describe, GoalSet, Indexed, Invariant, Invertible, StateSpace, Symmetric,
};

/// Whether `next` may follow `previous` on a shortest path that depth-first engines explore.
///
/// Never the inverse of `previous` (it undoes it). And since shifts of two different rows commute
/// (as do shifts of two different columns), a run of row moves is explored only in increasing
/// row order (same for columns): any path can be rewritten into that order, with inverse pairs
/// cancelled, without getting longer, so every reachable board stays reachable at no greater depth.
pub fn may_follow(previous: Shift, next: Shift) -> bool {
    use Shift::*;
    match (previous, next) {
        (RowLeft(a) | RowRight(a), RowLeft(b) | RowRight(b))
        | (ColUp(a) | ColDown(a), ColUp(b) | ColDown(b)) => {
            b > a || (b == a && next != previous.inverse())
        }
        _ => true,
    }
}

/// The moves of `geometry` as bit operations on words of `bits` bits per cell.
fn shifters<W: Word>(geometry: &Geometry, bits: u32) -> Vec<(Shift, Shifter<W>)> {
    geometry
        .moves()
        .into_iter()
        .map(|m| (m, geometry.shifter(m, bits)))
        .collect()
}

/// One colour's cells, for a region goal: the state is the mask of the cells holding the colour,
/// all masks have `k` bits, and the goal is every region cell set.
#[derive(Clone, Debug)]
pub struct ColourMasks {
    geometry: Geometry,
    region: u64,
    k: u32,
    moves: Vec<(Shift, Shifter<u64>)>,
    colex: Colex,
    /// The board's mirrors that keep the region (see [`Mirror`]), in `mirrors[..mirror_count]`.
    mirrors: [Mirror; 3],
    mirror_count: usize,
    mirror_tables: MirrorTables,
}

impl ColourMasks {
    /// The number of cells every mask sets (`k`).
    pub fn mask_cells(&self) -> u32 {
        self.k
    }

    /// The masks of `k` cells on `geometry` with the goal "`region` all set".
    /// `1 <= region.count_ones() <= k <= cells <= 64`.
    pub fn new(geometry: Geometry, region: u64, k: u32) -> Self {
        let cells = geometry.cells();
        assert!(cells <= 64 && k <= cells && region != 0 && region.count_ones() <= k);
        let mut space = ColourMasks {
            geometry,
            region,
            k,
            moves: shifters(&geometry, 1),
            colex: Colex::new(cells, k),
            mirrors: [Mirror::UpDown; 3],
            mirror_count: 0,
            mirror_tables: MirrorTables::new(geometry, &[]),
        };
        // The mirrors that keep the region form a group (the region's stabiliser), so they list
        // every orbit whole.
        for mirror in Mirror::ALL {
            if space.mirror(mirror, region) == region {
                space.mirrors[space.mirror_count] = mirror;
                space.mirror_count += 1;
            }
        }
        space.mirror_tables = MirrorTables::new(geometry, space.mirrors());
        space
    }

    /// The mirrors of the board that keep the region: the space's symmetries.
    #[inline]
    pub fn mirrors(&self) -> &[Mirror] {
        &self.mirrors[..self.mirror_count]
    }

    /// `mask` seen in `mirror`, cell by cell (the build takes images from look-up tables).
    pub fn mirror(&self, mirror: Mirror, mask: u64) -> u64 {
        (0..self.geometry.cells())
            .filter(|&cell| mask >> cell & 1 == 1)
            .fold(0, |image, cell| {
                image | 1 << mirror.cell(self.geometry, cell)
            })
    }

    /// `mask` after `shift`.
    pub fn apply(&self, mask: u64, shift: Shift) -> u64 {
        self.geometry.shifter::<u64>(shift, 1).apply(mask)
    }
}

impl StateSpace for ColourMasks {
    type State = u64;
    type Move = Shift;

    #[inline]
    fn successors(&self, mask: u64, visit: &mut dyn FnMut(Shift, u64)) {
        for (m, shifter) in &self.moves {
            visit(*m, shifter.apply(mask));
        }
    }

    #[inline]
    fn any_successor(&self, mask: u64, test: &mut dyn FnMut(u64) -> bool) -> bool {
        self.moves
            .iter()
            .any(|(_, shifter)| test(shifter.apply(mask)))
    }

    fn is_goal(&self, mask: u64) -> bool {
        mask & self.region == self.region
    }

    fn may_follow(&self, previous: Shift, next: Shift) -> bool {
        may_follow(previous, next)
    }
}

impl Indexed for ColourMasks {
    fn size(&self) -> u128 {
        self.colex.count() as u128
    }

    #[inline]
    fn index(&self, mask: u64) -> u64 {
        self.colex.rank(mask)
    }

    fn state(&self, index: u64) -> u64 {
        self.colex.unrank(index)
    }

    #[inline]
    fn state_after(&self, at: u64, from: u64, index: u64) -> u64 {
        self.colex.unrank_after(at, from, index)
    }
}

impl Invertible for ColourMasks {
    fn inverse(&self, m: Shift) -> Shift {
        m.inverse()
    }
}

/// The board's shape (which fixes the shifts and the colex index), the mask's cell count and the
/// region the goal fills.
impl Describe for ColourMasks {
    fn describe(&self, content: &mut Content) {
        let Geometry { rows, cols } = self.geometry;
        content
            .str("shift colour masks")
            .u64(rows.into())
            .u64(cols.into());
        content.u64(self.k.into()).str("region").u64(self.region);
    }
}

impl GoalSet for ColourMasks {
    /// The region plus every choice of its remaining `k - |region|` cells outside it.
    fn goals(&self, visit: &mut dyn FnMut(u64)) {
        let outside: Vec<u32> = (0..self.geometry.cells())
            .filter(|&i| self.region >> i & 1 == 0)
            .collect();
        let extra = self.k - self.region.count_ones();
        // Choose `extra` of the outside cells: each `extra`-bit number below 2^|outside| in turn,
        // its bits placed on the outside cells.
        let spread = |choice: u64| {
            outside
                .iter()
                .enumerate()
                .filter(|&(j, _)| choice >> j & 1 == 1)
                .fold(self.region, |mask, (_, &cell)| mask | 1u64 << cell)
        };
        if extra == 0 {
            visit(self.region);
            return;
        }
        let n = outside.len() as u32;
        let last = ((1u128 << extra) - 1) << (n - extra);
        let mut choice = (1u64 << extra) - 1;
        loop {
            visit(spread(choice));
            if choice as u128 == last {
                break;
            }
            choice = next_same_popcount(choice);
        }
    }
}

impl Symmetric for ColourMasks {
    #[inline(always)]
    fn images<F: FnMut(u64)>(&self, mask: u64, mut visit: F) {
        let images = self.mirror_tables.images(mask);
        images[..self.mirror_count]
            .iter()
            .for_each(|&image| visit(image));
    }

    /// The numerically smallest mask of its orbit (which is also the one of smallest index: colex
    /// ranks follow numeric order).
    #[inline]
    fn is_representative(&self, mask: u64) -> bool {
        // Slots past the mirrors hold `mask` itself, which never disqualifies it.
        let [a, b, c] = self.mirror_tables.images(mask);
        mask <= a && mask <= b && mask <= c
    }

    /// The images and the smallest of the orbit from one pass of the look-ups.
    #[inline(always)]
    fn orbit<F: FnMut(u64)>(&self, mask: u64, mut visit: F) -> u64 {
        let images = self.mirror_tables.images(mask);
        images[..self.mirror_count]
            .iter()
            .for_each(|&image| visit(image));
        // Slots past the mirrors hold `mask` itself.
        let [a, b, c] = images;
        mask.min(a).min(b).min(c)
    }

    /// Boards of at most 32 cells (the HDU board has 24): a mask is its low 32 bits.
    fn narrows(&self) -> bool {
        self.geometry.cells() <= 32
    }

    #[inline]
    fn narrow(&self, mask: u64) -> u32 {
        mask as u32
    }

    #[inline]
    fn widen(&self, word: u32) -> u64 {
        word as u64
    }
}

/// What counts as a goal among whole boards: see [`Boards`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardGoal {
    /// Exactly this packed board (the pattern goal).
    Target(u128),
    /// Every cell of a region one colour: `colour`, or any when `None` (the region goals).
    Uniform {
        /// The region's cells, `bits` bits set per cell (the bits each cell is packed in).
        cells: u128,
        /// The region's cells, the lowest bit of each set: `colour * ones` is the region filled
        /// with `colour`.
        ones: u128,
        /// The bit offset of the region's first cell, whose colour the rest must share.
        first: u32,
        /// One cell's bits (`bits` low bits set).
        low: u128,
        /// The one colour that must fill the region, or any when `None`.
        colour: Option<u8>,
    },
}

impl BoardGoal {
    /// The goal "every cell of `region` (a cell mask, not empty) one colour", for boards of
    /// `bits` bits per cell.
    pub fn uniform(region: u64, bits: u32, colour: Option<u8>) -> Self {
        assert!(region != 0, "an empty region");
        let low = (1u128 << bits) - 1;
        let (mut cells, mut ones) = (0u128, 0u128);
        for i in (0..64).filter(|&i| region >> i & 1 == 1) {
            cells |= low << (i * bits);
            ones |= 1u128 << (i * bits);
        }
        BoardGoal::Uniform {
            cells,
            ones,
            first: region.trailing_zeros() * bits,
            low,
            colour,
        }
    }

    /// Whether the packed `board` meets the goal: a comparison or two, whatever the region.
    #[inline]
    pub fn is_met(&self, board: u128) -> bool {
        match *self {
            BoardGoal::Target(target) => board == target,
            BoardGoal::Uniform {
                cells,
                ones,
                first,
                low,
                colour,
            } => {
                let colour = match colour {
                    Some(c) => c as u128,
                    None => board >> first & low,
                };
                board & cells == colour * ones
            }
        }
    }
}

/// Whole boards with any goal: the state is the board packed `bits` bits per cell (see
/// [`board`](super::board)), the goal a [`BoardGoal`] (a target board, or a region one colour).
/// The pattern goal searches it; export draws it for every goal.
///
/// A move that leaves the board as it is (a row or column of one colour) is left out of the
/// successors: it joins a board to itself, lies on no shortest path, and would draw as a loop
/// (twice, with its inverse) in an exported graph. Every other move is there, in
/// [`Geometry::moves`] order.
#[derive(Clone, Debug)]
pub struct Boards {
    geometry: Geometry,
    palette: Palette,
    goal: BoardGoal,
    moves: Vec<(Shift, Shifter<u128>)>,
}

impl Boards {
    /// Boards of `geometry` in `palette`'s colours, packed `palette.bits_per_cell()` bits per
    /// cell (at most 128 bits in all: the plugin checks), to meet `goal`.
    pub fn new(geometry: Geometry, palette: Palette, goal: BoardGoal) -> Self {
        let bits = palette.bits_per_cell();
        assert!(geometry.cells() * bits <= 128);
        Boards {
            geometry,
            moves: shifters(&geometry, bits),
            palette,
            goal,
        }
    }

    fn unpack(&self, board: u128) -> Board {
        Board::unpack(board, self.geometry.cells(), self.palette.bits_per_cell())
    }
}

impl StateSpace for Boards {
    type State = u128;
    type Move = Shift;

    #[inline]
    fn successors(&self, board: u128, visit: &mut dyn FnMut(Shift, u128)) {
        for (m, shifter) in &self.moves {
            let next = shifter.apply(board);
            if next != board {
                visit(*m, next);
            }
        }
    }

    fn is_goal(&self, board: u128) -> bool {
        self.goal.is_met(board)
    }

    fn may_follow(&self, previous: Shift, next: Shift) -> bool {
        may_follow(previous, next)
    }
}

impl Invertible for Boards {
    fn inverse(&self, m: Shift) -> Shift {
        m.inverse()
    }
}

impl BoardFormat for Boards {
    fn parse(&self, text: &BoardText) -> Result<u128> {
        let board = self.geometry.parse(&self.palette, text)?;
        Ok(board.pack(self.palette.bits_per_cell()))
    }

    fn format(&self, board: u128) -> String {
        self.geometry.format(&self.palette, &self.unpack(board))
    }
}

/// For a target board: moves keep every colour's count, so a start with other counts is out of
/// reach; and on odd x odd boards with every colour on one cell, a parity (see
/// [`parity_forbids`]). Region goals are the region solver's.
impl Invariant for Boards {
    fn unsolvable_by(&self, board: u128) -> Option<&'static str> {
        let BoardGoal::Target(target) = self.goal else {
            return None;
        };
        let (start, target) = (self.unpack(board), self.unpack(target));
        let counts = |b: &Board| {
            let mut n = [0u32; Palette::MAX];
            b.cells.iter().for_each(|&c| n[c as usize] += 1);
            n
        };
        if counts(&start) != counts(&target) {
            Some("colour counts")
        } else if parity_forbids(self.geometry, &start, &target) {
            Some("parity")
        } else {
            None
        }
    }
}

/// Whether a parity invariant proves `target` out of reach of `start`. With both sides odd, every
/// move is a cycle of odd length, an even permutation of the cells; when every colour is on one
/// cell the board determines the permutation, so an odd one cannot be reached. (Where a colour
/// repeats, swapping two equal cells fixes the parity: nothing is proven.)
pub fn parity_forbids(geometry: Geometry, start: &Board, target: &Board) -> bool {
    if geometry.rows.is_multiple_of(2) || geometry.cols.is_multiple_of(2) {
        return false;
    }
    let mut where_in_target = [usize::MAX; Palette::MAX];
    for (i, &c) in target.cells.iter().enumerate() {
        if where_in_target[c as usize] != usize::MAX {
            return false; // a repeated colour
        }
        where_in_target[c as usize] = i;
    }
    let permutation: Vec<u8> = start
        .cells
        .iter()
        .map(|&c| where_in_target[c as usize] as u8)
        .collect();
    statespace::rank::parity(&permutation)
}

/// Masks as text: rows of `X` (the colour's cells) and `.`.
impl BoardFormat for ColourMasks {
    fn parse(&self, text: &BoardText) -> Result<u64> {
        let rows = text.rows();
        let g = self.geometry;
        if rows.len() != g.rows as usize {
            return Err(text.error_whole(format!(
                "expected {} rows of X/. (a colour's cells), found {}",
                g.rows,
                rows.len()
            )));
        }
        let mut mask = 0u64;
        for (r, (line, row)) in rows.iter().enumerate() {
            if row.chars().count() != g.cols as usize {
                return Err(text.error(*line, format!("expected {} cells of X/.", g.cols)));
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    'X' | 'x' => mask |= 1 << g.cell(r as u32, c as u32),
                    '.' => {}
                    other => {
                        return Err(text.error(*line, format!("{other:?} is not X or .")));
                    }
                }
            }
        }
        if mask.count_ones() != self.k {
            return Err(text.error_whole(format!(
                "{} cells marked X; this space's masks have {}",
                mask.count_ones(),
                self.k
            )));
        }
        Ok(mask)
    }

    fn format(&self, mask: u64) -> String {
        let g = self.geometry;
        (0..g.rows)
            .map(|r| {
                (0..g.cols)
                    .map(|c| {
                        if mask >> g.cell(r, c) & 1 == 1 {
                            'X'
                        } else {
                            '.'
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_are_the_region_plus_every_choice_outside() {
        let g = Geometry { rows: 3, cols: 4 };
        let region = g.interior(); // 2 cells
        for k in 2..=6 {
            let space = ColourMasks::new(g, region, k);
            let mut goals = Vec::new();
            space.goals(&mut |m| goals.push(m));
            let expected: Vec<u64> = (0..1u64 << 12)
                .filter(|m| m.count_ones() == k && m & region == region)
                .collect();
            goals.sort();
            assert_eq!(goals, expected, "k {k}");
        }
    }

    #[test]
    fn mirrors_keep_moves_goals_and_come_in_orbits() {
        let g = Geometry { rows: 4, cols: 6 };
        let space = ColourMasks::new(g, g.interior(), 8);
        assert_eq!(
            space.mirrors().len(),
            3,
            "the interior is symmetric both ways"
        );
        let mask = 0b100000_010010_000011_101100u64;
        assert_eq!(
            space.mirror(Mirror::UpDown, mask),
            0b101100_000011_010010_100000
        );
        assert_eq!(
            space.mirror(Mirror::LeftRight, mask),
            0b000001_010010_110000_001101
        );
        let mut representatives = 0;
        for rank in (0..space.size() as u64).step_by(101) {
            let mask = space.state(rank);
            for &m in space.mirrors() {
                let image = space.mirror(m, mask);
                assert_eq!(space.mirror(m, image), mask, "a mirror undoes itself");
                assert_eq!(space.is_goal(image), space.is_goal(mask));
                // A move seen in the mirror is a move: the successor sets correspond.
                let mut from_image = Vec::new();
                space.successors(image, &mut |_, t| from_image.push(t));
                space.successors(mask, &mut |_, t| {
                    assert!(from_image.contains(&space.mirror(m, t)))
                });
            }
            // The look-up tables give the cell-by-cell images.
            let mut images = Vec::new();
            space.images(mask, |i| images.push(i));
            let by_cells: Vec<u64> = space
                .mirrors()
                .iter()
                .map(|&m| space.mirror(m, mask))
                .collect();
            assert_eq!(images, by_cells);
            let mut orbit = vec![mask];
            space.images(mask, |i| orbit.push(i));
            orbit.sort();
            orbit.dedup();
            let count = orbit
                .iter()
                .filter(|&&s| space.is_representative(s))
                .count();
            assert_eq!(count, 1, "one representative per orbit");
            representatives += space.is_representative(mask) as u32;
        }
        assert!(representatives > 0);
        // A region off-centre keeps only the mirrors that map it to itself.
        let top = g.rectangle(0, 1, 0, 4);
        let space = ColourMasks::new(g, top, 8);
        assert_eq!(space.mirrors(), &[Mirror::LeftRight]);
    }

    #[test]
    fn board_goals_match_the_cells_and_boards_skip_no_op_moves() {
        use crate::board::Board;
        let g = Geometry { rows: 3, cols: 4 };
        let region = g.rectangle(0, 1, 1, 2); // 4 cells, not starting at cell 0
        let bits = 2;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut boards = vec![Board { cells: vec![1; 12] }];
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Few colours in the region often enough to hit the goal.
            let cells = (0..12)
                .map(|i| {
                    let c = (seed >> (2 * i) & 3) as u8 % 3;
                    if region >> i & 1 == 1 && seed >> 60 & 1 == 1 {
                        2
                    } else {
                        c
                    }
                })
                .collect();
            boards.push(Board { cells });
        }
        let mut met = [0; 4];
        for board in &boards {
            let packed = board.pack(bits);
            let in_region: Vec<u8> = (0..12)
                .filter(|&i| region >> i & 1 == 1)
                .map(|i| board.cells[i])
                .collect();
            let uniform = in_region.iter().all(|&c| c == in_region[0]);
            for (slot, colour) in [None, Some(0), Some(2)].into_iter().enumerate() {
                let goal = BoardGoal::uniform(region, bits, colour);
                let expected = uniform && colour.is_none_or(|c| in_region[0] == c);
                assert_eq!(goal.is_met(packed), expected, "{board:?} {colour:?}");
                met[slot] += expected as u32;
            }
            let target = BoardGoal::Target(boards[1].pack(bits));
            assert_eq!(target.is_met(packed), board == &boards[1]);
            met[3] += target.is_met(packed) as u32;
            // Successors: every move but those that change nothing.
            let space = Boards::new(g, Palette::default(), target);
            let mut seen = Vec::new();
            space.successors(packed, &mut |m, next| {
                assert_ne!(next, packed, "{m} changes nothing");
                assert_eq!(next, board.shifted(&g, m).pack(bits), "{m}");
                seen.push(m);
            });
            let changing: Vec<Shift> = g
                .moves()
                .into_iter()
                .filter(|&m| board.shifted(&g, m) != *board)
                .collect();
            assert_eq!(seen, changing);
        }
        assert!(
            met.iter().all(|&n| n > 0),
            "every goal met somewhere: {met:?}"
        );
    }

    #[test]
    fn may_follow_refuses_undo_and_unordered_commuting_runs() {
        use Shift::*;
        assert!(!may_follow(RowLeft(1), RowRight(1)));
        assert!(may_follow(RowLeft(1), RowLeft(1)));
        assert!(!may_follow(RowLeft(2), RowLeft(1)));
        assert!(may_follow(RowLeft(1), RowRight(2)));
        assert!(may_follow(RowLeft(3), ColUp(0)));
        assert!(!may_follow(ColDown(4), ColUp(4)));
    }
}
