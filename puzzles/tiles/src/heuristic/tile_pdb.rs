//! [`TilePdb`]: additive pattern databases over disjoint tile groups, optionally looked up in the
//! [`Transpose`]d board too; how groups are checked ([`AdditiveGroups`]) and built ([`additive`]),
//! and the usual splits of the 15-puzzle as goal cells.
//!
//! Checking and building are two steps so that a caller can refuse bad groups when it reads
//! them (a config) and later build knowing that only a limit (memory, time, Ctrl-C) can stop the
//! build: [`AdditiveGroups::new`] finds every [`PdbError::Invalid`], [`AdditiveGroups::build`]
//! returns only a [`Limit`].

use super::group::{MAX_GROUP, TileGroup};
use super::sums::{MAX_GROUPS, Sums};
use super::transpose::Transpose;
use crate::space::{Board, MAX_CELLS, Slide, Tiles};
use statespace::cache::TableCache;
use statespace::limit::{Limit, Limits};
use statespace::search::pdb::{self, Abstraction, Additive, PatternDatabase, PdbError};
use statespace::space::{Heuristic, Indexed, Prefetched};

/// Additive tile pattern databases, optionally with the diagonal reflection: the
/// generic [`Additive`] heuristic with a faster estimate for tiles.
///
/// The generic estimate projects the board once per database and builds the reflected board;
/// this one inverts the board once (every tile's cell), gathers each group's cells from that, and
/// reflects the inverse rather than the board ([`Transpose::of_positions`]). The
/// values are the same ([`Additive`]'s estimate is the reference in the tests).
///
/// [`estimate_below`](Heuristic::estimate_below) skips the reflection when the direct sum already
/// reaches the limit, as Korf & Felner's search does: 10 to 17 % less CPU on a 24-puzzle
/// search (BENCHMARKS.md, "The 24-puzzle").
///
/// In IDA*, a successor's sums are carried from its parent's (`heuristic/sums.rs`: Korf & Felner's
/// incremental evaluation, through [`Heuristic::prefetch_successor`]): a slide changes one
/// group's entry in each sum, so a node projects and reads two entries, prefetched while its
/// siblings are generated, where a full estimate reads one per group and per sum. A state with
/// no parent (the root, a parallel task's root) is estimated in full.
#[derive(Debug)]
pub struct TilePdb {
    additive: Additive<TileGroup, Transpose>,
    cells: usize,
    /// The incremental sums, where a memo holds them.
    pub(crate) sums: Option<Sums>,
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

    /// Every database with the index of its entry for the board whose tile `t` is on cell
    /// `pos[t]`.
    #[inline]
    fn entries<'a>(
        &'a self,
        pos: &'a [u8; MAX_CELLS],
    ) -> impl Iterator<Item = (&'a PatternDatabase<TileGroup>, u64)> + 'a {
        self.additive.databases().iter().map(move |db| {
            let group = db.abstraction();
            let mut cells = [0u8; MAX_GROUP];
            for (cell, &tile) in cells.iter_mut().zip(group.tiles()) {
                *cell = pos[tile as usize];
            }
            (db, group.index(cells))
        })
    }

    /// The sum of the databases' values for the board whose tile `t` is on cell `pos[t]`.
    #[inline]
    fn sum(&self, pos: &[u8; MAX_CELLS]) -> u32 {
        self.entries(pos).fold(0u32, |sum, (db, index)| {
            let value = db.table().code(index).map_or(u32::MAX, |c| c as u32);
            sum.saturating_add(value)
        })
    }

    /// Every database's value for the board whose tile `t` is on cell `pos[t]` (into
    /// `values`), and their sum.
    #[inline]
    fn values(&self, pos: &[u8; MAX_CELLS], values: &mut [u32; MAX_GROUPS]) -> u32 {
        let mut total = 0u32;
        for ((db, index), value) in self.entries(pos).zip(values.iter_mut()) {
            *value = db.entry(index);
            total = total.saturating_add(*value);
        }
        total
    }

    /// [`estimate_below`](Heuristic::estimate_below) with every entry read kept in a memo for
    /// the successors ([`Sums::full`]). Out of line: in IDA* only the root comes here (a memo
    /// is incomplete only where the direct sum cut the node, which then has no successors), and
    /// inlined it kept [`advance`](Heuristic::advance) from being inlined into the node loop.
    #[cold]
    #[inline(never)]
    fn estimate_in_full(&self, board: Board, limit: u32) -> (u32, Prefetched) {
        let pos = board.positions(self.cells);
        let n = self.databases().len();
        let (mut direct, mut reflected) = ([0u32; MAX_GROUPS], [0u32; MAX_GROUPS]);
        debug_assert!(n <= MAX_GROUPS, "Sums::new holds at most MAX_GROUPS");
        let h = self.values(&pos, &mut direct);
        match self.additive.symmetries().first() {
            Some(t) if h < limit => {
                let r = self.values(&t.of_positions(&pos), &mut reflected);
                (
                    h.max(r),
                    Sums::full(&direct[..n], Some(&reflected[..n]), &pos, true),
                )
            }
            Some(_) => (h, Sums::full(&direct[..n], None, &pos, false)),
            None => (h, Sums::full(&direct[..n], None, &pos, true)),
        }
    }
}

impl Heuristic<Tiles> for TilePdb {
    fn intact(&self, cache: &TableCache) -> bool {
        Heuristic::<Tiles>::intact(&self.additive, cache)
    }

    #[inline]
    fn estimate(&self, _: &Tiles, board: Board) -> u32 {
        let pos = board.positions(self.cells);
        let direct = self.sum(&pos);
        self.additive
            .symmetries()
            .iter()
            .fold(direct, |best, t| best.max(self.sum(&t.of_positions(&pos))))
    }

    /// The direct sum, then the reflected one only while the best is below `limit`: what
    /// Korf & Felner's 24-puzzle search does (a node the direct sum already cuts costs no
    /// reflection), and [`Additive`]'s rule.
    #[inline]
    fn estimate_below(&self, _: &Tiles, board: Board, limit: u32) -> u32 {
        let pos = board.positions(self.cells);
        let mut best = self.sum(&pos);
        for t in self.additive.symmetries() {
            if best >= limit {
                break;
            }
            best = best.max(self.sum(&t.of_positions(&pos)));
        }
        best
    }

    fn carries_memo(&self) -> bool {
        self.sums.is_some()
    }

    /// A successor's memo from its parent's (`heuristic/sums.rs`), its changed entries prefetched; with
    /// no usable memo, none (it is then estimated in full).
    // Always inlined, as `advance` is: the node loop (IDA* compiled for this type: the
    // plugin names it, `Kit::idastar_compiled_for`) then calls the sums' successor with the
    // parent where it lies, not through a copy of it for a call of its own.
    #[inline(always)]
    fn prefetch_successor(
        &self,
        _: &Tiles,
        parent: Board,
        parent_memo: &Prefetched,
        slide: Slide,
        _: Board,
        memo: &mut Prefetched,
    ) {
        match &self.sums {
            Some(sums) => sums.successor(self.databases(), (&parent, parent_memo), slide, memo),
            None => *memo = Prefetched::NONE,
        }
    }

    /// From a memo [`prefetch_successor`](Heuristic::prefetch_successor) made, its changed
    /// entries (`heuristic/sums.rs`); else in full, every entry kept in the memo for the
    /// successors.
    // Always inlined: called as a function, each successor's board was copied to the stack
    // for a call that (from a memo) never reads it.
    #[inline(always)]
    fn advance(
        &self,
        tiles: &Tiles,
        board: Board,
        memo: &mut Prefetched,
        limit: u32,
    ) -> Option<u32> {
        let Some(sums) = &self.sums else {
            return Some(self.estimate_below(tiles, board, limit));
        };
        if Sums::is_incremental(memo) {
            return Some(sums.estimate(self.databases(), memo, limit));
        }
        let (h, full) = self.estimate_in_full(board, limit);
        *memo = full;
        Some(h)
    }
}

/// Tile groups checked for additive databases on one board, with or without the reflection:
/// every reason to refuse them is found here, before anything is built.
#[derive(Clone, Debug)]
pub struct AdditiveGroups {
    groups: Vec<TileGroup>,
    symmetries: Vec<Transpose>,
    cells: usize,
}

impl AdditiveGroups {
    /// The blank-aware groups of `groups` (disjoint sets of tiles) on `tiles`, with the look-ups
    /// of the [`Transpose`]d board when `reflect` is set.
    ///
    /// [`PdbError::Invalid`]: a group is invalid ([`TileGroup::new`]), two groups share a tile, or
    /// `reflect` is asked on a board that has no such symmetry ([`Transpose::new`]). The groups
    /// need not cover every tile (the sum is admissible either way, only weaker).
    pub fn new(tiles: &Tiles, groups: &[Vec<u8>], reflect: bool) -> Result<Self, PdbError> {
        let groups = groups
            .iter()
            .map(|group| TileGroup::new(tiles, group))
            .collect::<Result<Vec<_>, _>>()?;
        Self::of(tiles, groups, reflect)
    }

    /// [`new`](Self::new) over groups made by the caller (blank-aware or blank-free,
    /// [`TileGroup`]).
    pub fn of(tiles: &Tiles, groups: Vec<TileGroup>, reflect: bool) -> Result<Self, PdbError> {
        let mut seen = 0u64;
        for group in &groups {
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
        Ok(AdditiveGroups {
            groups,
            symmetries,
            cells: tiles.cells(),
        })
    }

    /// The databases: their tables come from `cache` when it holds them, else are built (and
    /// saved there) by [`pdb::build_all`] within `limits` (memory refused before allocating; time
    /// and Ctrl-C stop the build).
    pub fn build(&self, limits: &Limits, cache: Option<&TableCache>) -> Result<TilePdb, Limit> {
        let databases = pdb::build_all(self.groups.clone(), limits, cache)?;
        let additive = Additive::new(databases, self.symmetries.clone())
            .expect("the groups are disjoint: AdditiveGroups::of refused them otherwise");
        let sums = match self.symmetries.len() {
            0 | 1 => Sums::new(additive.databases(), self.symmetries.first()),
            _ => None,
        };
        Ok(TilePdb {
            additive,
            cells: self.cells,
            sums,
        })
    }
}

/// The additive blank-aware databases of `groups` on `tiles`, reflected when `reflect` is set:
/// [`AdditiveGroups::new`] then [`build`](AdditiveGroups::build), with its errors.
pub fn additive(
    tiles: &Tiles,
    groups: &[Vec<u8>],
    reflect: bool,
    limits: &Limits,
    cache: Option<&TableCache>,
) -> Result<TilePdb, PdbError> {
    let groups = AdditiveGroups::new(tiles, groups, reflect)?;
    Ok(groups.build(limits, cache)?)
}

/// [`additive`] over groups made by the caller (blank-aware or blank-free, [`TileGroup`]).
pub fn additive_of(
    tiles: &Tiles,
    groups: Vec<TileGroup>,
    reflect: bool,
    limits: &Limits,
    cache: Option<&TableCache>,
) -> Result<TilePdb, PdbError> {
    let groups = AdditiveGroups::of(tiles, groups, reflect)?;
    Ok(groups.build(limits, cache)?)
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

#[cfg(test)]
mod tests {
    use super::*;
    use statespace::search::table;

    /// On every 8-puzzle board, with the reflection: the fast `estimate_below` is the generic
    /// one, and keeps the contract (the estimate below the limit, else between the limit and the
    /// estimate), for limits below, at and above the estimate.
    #[test]
    fn estimate_below_is_the_generic_one_and_keeps_the_contract() {
        let tiles = Tiles::new(3, 3, Tiles::ordered(3, 3));
        let groups = [vec![1, 2, 3, 4], vec![5, 6, 7, 8]];
        let h = additive(&tiles, &groups, true, &Limits::default(), None).unwrap();
        let exact = table::build(&tiles, &Limits::default()).unwrap();
        let mut skipped = 0;
        for i in 0..tiles.size() as u64 {
            let board = tiles.state(i);
            let e = h.estimate(&tiles, board);
            assert!(e <= exact.distance(&tiles, board).unwrap().unwrap());
            for limit in [0, e.saturating_sub(1), e, e + 1, 40] {
                let below = h.estimate_below(&tiles, board, limit);
                assert_eq!(below, h.additive().estimate_below(&tiles, board, limit));
                if e < limit {
                    assert_eq!(below, e);
                } else {
                    assert!(limit <= below && below <= e, "{limit} {below} {e}");
                    skipped += u32::from(below < e);
                }
            }
        }
        assert!(skipped > 0, "the reflection was never skipped");
    }
}
