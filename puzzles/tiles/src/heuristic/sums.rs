//! [`Sums`]: the additive databases' sums carried from a node to its successors (Korf &
//! Felner's incremental evaluation), for IDA*'s [`Heuristic::prefetch_successor`].
//!
//! A slide moves one tile, so of the direct sum only the entry of that tile's group changes,
//! and of the reflected sum only the entry of the group that holds its reflected name. A node's
//! memo keeps every group's entry and where every tile is; a successor copies them, moves the
//! one tile, projects the (at most) two groups that changed from those positions, and prefetches
//! their entries, which its estimate then reads: two ranks and two table reads a node, with no
//! pass over the board, where a full estimate inverts the board and makes a rank and a read per
//! group and per sum (eight on the 24-puzzle's 6-6-6-6 with the reflection).
//!
//! The reflected entry is read only while the direct sum stays below the limit (a successor
//! the direct sum cuts is searched no deeper, so its reflected entries are never needed); its
//! memo then says it is not complete, and a successor of a node whose memo is incomplete (or was
//! made by other rules) is estimated in full, as without this.
//!
//! The memo (`Prefetched.0`, four words): word 0 the entries, a byte per group, direct in the
//! low half and reflected in the high half ([`UNKNOWN`], [`UNREACHED`]); word 1 the entries
//! still to read, direct in the low half and reflected in the high ([`PENDING`], the group and
//! the table index); words 2 and 3 the cells of tiles 1 to 12 and 13 to 24, five bits each, and
//! in word 2 the bits [`VALID`] (the memo is this heuristic's) and [`COMPLETE`] (every entry is
//! known). So: at most [`MAX_GROUPS`] groups,
//! at most one symmetry (the transpose), tables of at most 2^29 entries whose values fit below
//! [`UNREACHED`]; other heuristics of tile groups estimate every node in full.
//!
//! The positions are one `u128` in registers while a successor is made (words 2 and 3), and a
//! group's cells go from them straight into its rank ([`GroupRank`], place values) with no
//! array between: an array of cells written a byte at a time and read back as a word, or the
//! position words written one and read as a pair, made the processor wait for the store to
//! reach the cache (a failed store-to-load forward) three times a successor. The memo is
//! written into IDA*'s slot for the successor, whole words, not returned through a temporary.
//! A rank of six tiles (the 24-puzzle's) counts by comparisons, and the successor is then
//! plain code, inlined into the node loop; other ranks' popcounts use `popcnt` where the
//! processor has it (asked once, in [`Sums::new`]: the successor is then made by a copy of the
//! code compiled with it), else two reads of a table; the same indices either way.

use super::group::{MAX_GROUP, TileGroup};
use super::group_rank::{Count, GroupRank, Table};
use super::transpose::Transpose;
use crate::space::{Board, MAX_CELLS, Slide};
use statespace::search::pdb::PatternDatabase;
use statespace::space::Prefetched;

/// The most groups a memo holds: a byte each in half a word.
pub(crate) const MAX_GROUPS: usize = 4;

/// An entry byte not read yet (or skipped).
const UNKNOWN: u8 = 0xFF;
/// An entry byte of a projection no goal reaches: the sum is infinite.
const UNREACHED: u8 = 0xFE;
/// In a half of word 1: an entry is still to be read (group in bits 29..31, index below).
const PENDING: u32 = 1 << 31;
const INDEX_BITS: u32 = (1 << 29) - 1;
/// Word 2: the memo is this heuristic's.
const VALID: u64 = 1 << 63;
/// Word 2: every entry of the memo is known (none pending, none skipped).
const COMPLETE: u64 = 1 << 62;
/// Tiles per position word, and the bits of one position.
const PER_WORD: usize = 12;
const POSITION_BITS: usize = 5;
/// A tile in no group.
const NO_GROUP: u8 = u8::MAX;
/// The entries of the maps indexed by a tile or a cell: 32, a power of two above
/// [`MAX_CELLS`], so that an index masked to five bits needs no bounds check in the hot path.
const SLOTS: usize = 32;

/// Which group and slot each tile (direct and reflected) is in; see the module docs.
#[derive(Clone, Debug)]
pub(crate) struct Sums {
    /// `group[t]`: the database of tile `t`, or [`NO_GROUP`].
    group: [u8; SLOTS],
    /// `reflected_group[t]`: the database of the reflected name of tile `t` (the group whose
    /// reflected entry a slide of `t` changes), or [`NO_GROUP`] (or no reflection).
    reflected_group: [u8; SLOTS],
    /// `cell_image[c]`: the reflection of cell `c` (the identity without one).
    cell_image: [u8; SLOTS],
    /// Each group's tiles, in its order (its databases' cells), as where their cells are in
    /// a memo ([`Place`]), and how many.
    direct: [[Place; MAX_GROUP]; MAX_GROUPS],
    /// The same for the reflected board: where the cell of the tile whose reflected name is
    /// each of the group's tiles is (that cell, reflected, is the group's cell).
    reflected: [[Place; MAX_GROUP]; MAX_GROUPS],
    /// Each group's rank (its database's index, computed here: see the module docs).
    ranks: [GroupRank; MAX_GROUPS],
    /// The bytes of a half of the entries word that hold the groups' entries.
    used: u32,
    transpose: Option<Transpose>,
    /// Whether the processor has `popcnt` and a rank counts bits (then successors are made by
    /// the copy compiled with it; the 24-puzzle's six-tile ranks compare instead, and its
    /// successors are made by the portable code, inlined into the node loop).
    popcnt: bool,
}

impl Sums {
    /// The maps for `databases` (reflected by `transpose`); `None` where a memo cannot hold
    /// them (see the module docs).
    pub(crate) fn new(
        databases: &[PatternDatabase<TileGroup>],
        transpose: Option<&Transpose>,
    ) -> Option<Sums> {
        if databases.len() > MAX_GROUPS || databases.is_empty() {
            return None;
        }
        let fits = |db: &PatternDatabase<TileGroup>| {
            db.table().histogram().len() < UNREACHED as usize
                && db.table().len() <= u64::from(INDEX_BITS) + 1
        };
        if !databases.iter().all(fits) {
            return None;
        }
        let mut group = [NO_GROUP; SLOTS];
        let mut direct = [[Place::of(1); MAX_GROUP]; MAX_GROUPS];
        let mut reflected = [[Place::of(1); MAX_GROUP]; MAX_GROUPS];
        let mut ranks = [GroupRank::new(1, 0)?; MAX_GROUPS];
        for (g, db) in databases.iter().enumerate() {
            let of = db.abstraction().tiles();
            ranks[g] = GroupRank::new(db.abstraction().board_cells(), of.len())?;
            for (i, &tile) in of.iter().enumerate() {
                group[tile as usize] = g as u8;
                direct[g][i] = Place::of(tile);
                // Tile `tile` of the reflected board is tile `t.tile(tile)` of the board.
                reflected[g][i] = Place::of(transpose.map_or(tile, |t| t.tile(tile)));
            }
        }
        let mut reflected_group = [NO_GROUP; SLOTS];
        let mut cell_image: [u8; SLOTS] = std::array::from_fn(|c| c as u8);
        if let Some(t) = transpose {
            for tile in 1..MAX_CELLS as u8 {
                reflected_group[tile as usize] = group[t.tile(tile) as usize];
            }
            for (cell, image) in cell_image.iter_mut().enumerate().take(MAX_CELLS) {
                *image = t.cell(cell as u8);
            }
        }
        Some(Sums {
            group,
            reflected_group,
            cell_image,
            used: u32::MAX >> (8 * (MAX_GROUPS - databases.len())),
            direct,
            reflected,
            ranks,
            transpose: transpose.cloned(),
            popcnt: super::group_rank::has_popcnt()
                && ranks[..databases.len()]
                    .iter()
                    .any(GroupRank::uses_popcount),
        })
    }

    /// Writes into `memo` the memo of a successor `board` of `parent` by `slide`, from
    /// `parent`'s memo: the parent's entries and positions, the tile moved, the changed groups
    /// projected and their entries prefetched; [`Prefetched::NONE`] when the parent's memo is
    /// incomplete (estimate the successor in full). Into the caller's slot, in whole words, not
    /// returned: see [`Heuristic::prefetch_successor`](statespace::space::Heuristic::prefetch_successor).
    #[inline(always)]
    pub(crate) fn successor(
        &self,
        databases: &[PatternDatabase<TileGroup>],
        parent: (&Board, &Prefetched),
        slide: Slide,
        memo: &mut Prefetched,
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // SAFETY: `popcnt` is set only where the processor has the instruction (asked in
            // `new`).
            return unsafe { self.successor_popcnt(databases, parent, slide, memo) };
        }
        self.successor_with::<Table>(databases, parent, slide, memo)
    }

    /// [`successor`](Self::successor) compiled with `popcnt`: the ranks count bits in one
    /// instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn successor_popcnt(
        &self,
        databases: &[PatternDatabase<TileGroup>],
        parent: (&Board, &Prefetched),
        slide: Slide,
        memo: &mut Prefetched,
    ) {
        self.successor_with::<super::group_rank::Popcnt>(databases, parent, slide, memo)
    }

    /// [`successor`](Self::successor) with the ranks' popcounts by `C`.
    #[inline(always)]
    fn successor_with<C: Count>(
        &self,
        databases: &[PatternDatabase<TileGroup>],
        parent: (&Board, &Prefetched),
        slide: Slide,
        memo: &mut Prefetched,
    ) {
        let (board, parent_memo) = parent;
        let [mut entries, _, low, high] = parent_memo.0;
        if low & (VALID | COMPLETE) != VALID | COMPLETE {
            *memo = Prefetched::NONE;
            return;
        }
        let positions = Place::of(slide.tile).set(join(low & !COMPLETE, high), board.blank);
        let (low, high) = (positions as u64, (positions >> 64) as u64);
        let mut pending = 0u64;
        let g = self.group[usize::from(slide.tile) % SLOTS];
        if g != NO_GROUP {
            let places = self.direct[g as usize].iter();
            let index = self.ranks[g as usize].rank::<C>(places.map(|p| p.get(positions)));
            pending |= u64::from(self.pend(databases, g, index));
            entries |= u64::from(UNKNOWN) << (8 * g); // until read
        }
        // Projected now, though read only if the direct sum does not cut the successor: in two
        // stages (projected once the direct sum is read) it was no faster on the 24-puzzle,
        // where more than half the successors need it. No reflection: no reflected group.
        let rg = self.reflected_group[usize::from(slide.tile) % SLOTS];
        if rg != NO_GROUP {
            // The reflected group's cells: where the tiles whose reflected names are its tiles
            // are, reflected (a cell is below 32: the map needs no bounds check).
            let places = self.reflected[rg as usize].iter();
            let cells = places.map(|p| self.cell_image[usize::from(p.get(positions))]);
            let index = self.ranks[rg as usize].rank::<C>(cells);
            pending |= u64::from(self.pend(databases, rg, index)) << 32;
            entries |= u64::from(UNKNOWN) << (32 + 8 * rg);
        }
        *memo = Prefetched([entries, pending, low, high], parent_memo.1);
    }

    /// The pending half-word of group `g` at table index `index`, its entry prefetched.
    #[inline(always)]
    fn pend(&self, databases: &[PatternDatabase<TileGroup>], g: u8, index: u64) -> u32 {
        let db = &databases[g as usize];
        db.table().prefetch(index);
        PENDING | u32::from(g) << 29 | index as u32
    }

    /// The estimate of a memo [`successor`](Self::successor) made: the pending direct entry
    /// read, and the reflected one while the direct sum is below `limit` (see the module docs).
    #[inline]
    pub(crate) fn estimate(
        &self,
        databases: &[PatternDatabase<TileGroup>],
        memo: &mut Prefetched,
        limit: u32,
    ) -> u32 {
        let [entries, pending, flags, _] = &mut memo.0;
        read_pending(databases, entries, pending, 0);
        let direct = sum(*entries as u32, self.used);
        if self.transpose.is_none() {
            *flags |= COMPLETE;
            return direct;
        }
        if direct >= limit {
            return direct; // its reflected entry unread: not complete
        }
        read_pending(databases, entries, pending, 32);
        *flags |= COMPLETE;
        direct.max(sum((*entries >> 32) as u32, self.used))
    }

    /// Whether `memo` is one [`successor`](Self::successor) made (else estimate in full).
    #[inline]
    pub(crate) fn is_incremental(memo: &Prefetched) -> bool {
        memo.0[2] & VALID != 0
    }

    /// A full estimate's memo: every group's entry, direct and (when read) reflected, and where
    /// every tile is (`pos[t]`); `complete` when every entry the sums need was read.
    pub(crate) fn full(
        direct: &[u32],
        reflected: Option<&[u32]>,
        pos: &[u8; MAX_CELLS],
        complete: bool,
    ) -> Prefetched {
        let pack = |values: &[u32]| {
            values.iter().enumerate().fold(u32::MAX, |half, (g, &v)| {
                let byte = if v == u32::MAX { UNREACHED } else { v as u8 };
                half & !(0xFF << (8 * g)) | u32::from(byte) << (8 * g)
            })
        };
        let entries = u64::from(pack(direct)) | u64::from(reflected.map_or(u32::MAX, pack)) << 32;
        let flags = if complete { VALID | COMPLETE } else { VALID };
        let mut positions = join(flags, 0);
        for (tile, &cell) in pos.iter().enumerate().skip(1) {
            positions = Place::of(tile as u8).set(positions, cell);
        }
        Prefetched([entries, 0, positions as u64, (positions >> 64) as u64], 0)
    }
}

/// Where a tile's cell is in a memo's position words (tiles 1 to 24), taken as one `u128`
/// ([`join`]): the shift of its five bits.
#[derive(Clone, Copy, Debug)]
struct Place {
    shift: u8,
}

impl Place {
    fn of(tile: u8) -> Place {
        let i = tile as usize - 1;
        debug_assert!(i < 2 * PER_WORD, "tile {tile}");
        Place {
            shift: (64 * (i / PER_WORD) + POSITION_BITS * (i % PER_WORD)) as u8,
        }
    }

    #[inline(always)]
    fn get(self, positions: u128) -> u8 {
        (positions >> (self.shift & 127)) as u8 & 31
    }

    #[inline(always)]
    fn set(self, positions: u128, cell: u8) -> u128 {
        let shift = self.shift & 127;
        positions & !(31 << shift) | u128::from(cell) << shift
    }
}

/// A memo's position words (2 and 3) as one number.
#[inline(always)]
fn join(low: u64, high: u64) -> u128 {
    u128::from(low) | u128::from(high) << 64
}

/// The sum of the bytes of `half` that `used` covers (a mask of whole low bytes);
/// `u32::MAX` when one of them is [`UNREACHED`]. In one word (a dozen operations, no loop
/// over the groups): an entry is below 256, so the sums of byte pairs fit 16 bits.
#[inline]
fn sum(half: u32, used: u32) -> u32 {
    let bytes = half & used;
    // A used byte equal to UNREACHED becomes zero, an unused one 0xFF; then the usual test
    // for a zero byte (exact as a yes or no).
    let marked = (bytes ^ (u32::from_ne_bytes([UNREACHED; 4]) & used)) | !used;
    if marked.wrapping_sub(0x0101_0101) & !marked & 0x8080_8080 != 0 {
        return u32::MAX;
    }
    let pairs = (bytes & 0x00FF_00FF) + ((bytes >> 8) & 0x00FF_00FF);
    (pairs & 0xFFFF) + (pairs >> 16)
}

/// Reads the entry pending in the half of `pending` at `shift` (0 direct, 32 reflected) into
/// its byte of `entries`, and clears it.
#[inline]
fn read_pending(
    databases: &[PatternDatabase<TileGroup>],
    entries: &mut u64,
    pending: &mut u64,
    shift: u32,
) {
    let half = (*pending >> shift) as u32;
    if half & PENDING == 0 {
        return;
    }
    let g = (half >> 29 & 3) as usize;
    let value = databases[g].entry(u64::from(half & INDEX_BITS));
    let byte = if value == u32::MAX {
        UNREACHED
    } else {
        value as u8
    };
    let at = shift as usize + 8 * g;
    *entries = *entries & !(0xFF << at) | u64::from(byte) << at;
    *pending &= !(0xFFFF_FFFF << shift);
}

#[cfg(test)]
mod tests {
    use crate::heuristic::{SPLIT_5_5_5, additive, groups_by_goal_cells};
    use crate::space::{Board, Tiles};
    use statespace::limit::Limits;
    use statespace::options::SearchOptions;
    use statespace::random::Lcg;
    use statespace::search::{Outcome, idastar};
    use statespace::space::{Heuristic, Prefetched, StateSpace, memo};

    /// The 15-puzzle's 5-5-5 databases, reflected and not, and its start after `steps` random
    /// slides from the goal.
    fn fifteen(reflect: bool) -> (Tiles, crate::heuristic::TilePdb) {
        let tiles = Tiles::new(4, 4, Tiles::ordered(4, 4));
        let groups = groups_by_goal_cells(&tiles, &SPLIT_5_5_5);
        let h = additive(&tiles, &groups, reflect, &Limits::default(), None).unwrap();
        (tiles, h)
    }

    fn walk(tiles: &Tiles, rng: &mut Lcg, steps: usize) -> Board {
        let mut board = tiles.goal();
        for _ in 0..steps {
            let mut next = Vec::new();
            tiles.successors(board, &mut |_, t| next.push(t));
            board = next[rng.below(next.len())];
        }
        board
    }

    /// Along random walks, each successor's memo made from its parent's (as IDA* makes them)
    /// estimates exactly what a full estimate gives, with no limit and with limits around it
    /// (below the limit exact; from it on, between the limit and the estimate).
    #[test]
    fn a_successors_sums_from_its_parents_are_its_full_estimate() {
        for reflect in [false, true] {
            let (tiles, h) = fifteen(reflect);
            assert!(h.sums.is_some(), "the 5-5-5 split holds in a memo");
            let mut rng = Lcg(7);
            let (mut memo_of_board, _) = memo(&h, &tiles, tiles.goal());
            let mut board = tiles.goal();
            for _ in 0..3_000 {
                let mut moves = Vec::new();
                tiles.successors(board, &mut |m, t| moves.push((m, t)));
                for &(m, t) in &moves {
                    let exact = h.estimate(&tiles, t);
                    for limit in [u32::MAX, exact + 1, exact, exact.saturating_sub(1), 0] {
                        let mut child = Prefetched::NONE;
                        h.prefetch_successor(&tiles, board, &memo_of_board, m, t, &mut child);
                        let got = h.advance(&tiles, t, &mut child, limit).unwrap();
                        if exact < limit {
                            assert_eq!(got, exact, "{t:?} at limit {limit}");
                        } else {
                            assert!(limit <= got && got <= exact, "{got} {limit} {exact}");
                        }
                    }
                }
                let (m, t) = moves[rng.below(moves.len())];
                let mut child = Prefetched::NONE;
                h.prefetch_successor(&tiles, board, &memo_of_board, m, t, &mut child);
                h.advance(&tiles, t, &mut child, u32::MAX).unwrap();
                (board, memo_of_board) = (t, child);
            }
        }
    }

    /// The portable successor (the ranks' popcounts by a table), the one by `count_ones` and,
    /// where the processor has it, the one compiled with `popcnt` make the same memo of every
    /// successor along random walks (memos whose estimates the test above checks against the
    /// full estimate).
    #[test]
    fn the_portable_and_the_popcnt_successors_make_the_same_memos() {
        use super::super::group_rank::{Popcnt, Table, has_popcnt};
        for reflect in [false, true] {
            let (tiles, h) = fifteen(reflect);
            let (sums, databases) = (h.sums.as_ref().unwrap(), h.databases());
            let mut rng = Lcg(45);
            let (mut memo_of_board, _) = memo(&h, &tiles, tiles.goal());
            let mut board = tiles.goal();
            for _ in 0..3_000 {
                let mut moves = Vec::new();
                tiles.successors(board, &mut |m, t| moves.push((m, t)));
                for &(m, _) in &moves {
                    let parent = (&board, &memo_of_board);
                    let (mut portable, mut counted) = (Prefetched::NONE, Prefetched::NONE);
                    sums.successor_with::<Table>(databases, parent, m, &mut portable);
                    assert_ne!(portable, Prefetched::NONE, "a complete memo's successor");
                    sums.successor_with::<Popcnt>(databases, parent, m, &mut counted);
                    assert_eq!(portable, counted, "{board:?} {m:?}");
                    #[cfg(target_arch = "x86_64")]
                    if has_popcnt() {
                        let mut fast = Prefetched::NONE;
                        // SAFETY: the processor has `popcnt` (asked just above).
                        unsafe { sums.successor_popcnt(databases, parent, m, &mut fast) };
                        assert_eq!(portable, fast, "{board:?} {m:?}");
                    }
                }
                let (m, t) = moves[rng.below(moves.len())];
                let mut child = Prefetched::NONE;
                h.prefetch_successor(&tiles, board, &memo_of_board, m, t, &mut child);
                h.advance(&tiles, t, &mut child, u32::MAX).unwrap();
                (board, memo_of_board) = (t, child);
            }
        }
    }

    /// IDA* with the incremental sums searches the very tree it searches with the generic
    /// additive heuristic underneath (which carries nothing from node to node): the same path,
    /// the same nodes, on one thread and on two.
    #[test]
    fn idastar_searches_the_same_tree_with_the_sums_as_without() {
        let (tiles, h) = fifteen(true);
        let mut rng = Lcg(11);
        for _ in 0..12 {
            let start = walk(&tiles, &mut rng, 40);
            for threads in [1, 2] {
                let options = SearchOptions {
                    threads,
                    ..SearchOptions::default()
                };
                let fast = idastar::solve(&tiles, &h, start, &Limits::default(), &options);
                let plain =
                    idastar::solve(&tiles, h.additive(), start, &Limits::default(), &options);
                let (Outcome::Solved(a), Outcome::Solved(b)) = (&fast.outcome, &plain.outcome)
                else {
                    panic!("{start:?}: {:?} / {:?}", fast.outcome, plain.outcome);
                };
                assert_eq!(a.steps.len(), b.steps.len());
                if threads == 1 {
                    assert_eq!(a.steps, b.steps);
                    assert_eq!(fast.stats.generated, plain.stats.generated);
                    assert_eq!(fast.stats.expanded, plain.stats.expanded);
                }
            }
        }
    }
}
