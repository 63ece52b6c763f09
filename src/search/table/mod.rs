//! Distance tables: the distance of every state to the goal set, by one backward BFS.
//!
//! [`build`] runs a multi-source breadth-first search from every goal state at once over a space
//! whose moves are [`Invertible`] (so the predecessors of a state are its successors) and whose
//! states are [`Indexed`] (so the table is a flat array over `0..size`). Afterwards every query is a
//! lookup or a short walk: [`DistanceTable::distance`] of one state, [`DistanceTable::path`] by
//! descending the table (from a state at distance `d`, step to any successor at `d - 1`; every
//! optimal path is such a descent, so [`DistanceTable::lookup`] lists as many as asked), and
//! whole-space facts ([`DistanceTable::histogram`], [`DistanceTable::reachable`],
//! [`DistanceTable::max_distance`]). Build once, answer many: the Shift plugin answers every board
//! of a geometry from one table.
//!
//! # Entry widths: exact or distance mod 3
//!
//! Entries are packed into `u64` words, `bits` per entry (a power of two, so no entry straddles
//! two words); the all-ones code of the width means "unreached". Two codings ([`Width`]):
//!
//! | coding | bits per state | a state's distance | 2^30 states |
//! |---|---|---|---|
//! | exact | 4 (distances 0-14), widened to 8, 16, 32 when deeper | one lookup | 512 MiB (4 bits) |
//! | mod 3 | 2: codes 0, 1, 2 = distance mod 3, 3 = unreached | a walk to the goal set | 256 MiB |
//!
//! - *Exact* starts at 4 bits and widens the table, doubling the width, when the search reaches a
//!   depth the width cannot hold. A small table stays in cache, which is most of the speed of the
//!   build; widening costs a copy and, for that moment, both tables in memory.
//! - *Mod 3* is the God's-number trick: moves are invertible, so neighbours' distances differ by
//!   at most one, and the three values `d - 1`, `d`, `d + 1` have distinct residues mod 3. From a
//!   state with code `c`, a successor with code `(c - 1) mod 3` is one move closer; descending
//!   until no successor is closer reaches the goal set, so a distance costs its path, and the path
//!   falls out of it. Half the memory of 4 bits, and no widening however deep the space.
//!
//! [`Width::Auto`] (what [`build`] uses) picks exact 4-bit when three times its size fits the
//! memory budget (room to widen once, to 8 bits, keeping both tables during the copy), else
//! mod 3; and when a later widening does not fit, it converts the exact table to mod 3 instead of
//! giving up. A table that does not fit even at 2 bits per state is refused before anything is
//! allocated, with [`Limit::Memory`] naming the bytes the 2-bit table would need.
//!
//! # The search
//!
//! The BFS is level-synchronous over the dense index and keeps no queue: level `d + 1` is found by
//! scanning the table for entries coded `d` (a word of 16 or 32 entries is tested for a match at
//! once, so empty stretches cost little). Per level it picks a direction:
//!
//! - *top-down*: expand each state at depth `d`; every unreached successor gets `d + 1`;
//! - *bottom-up*: for each unreached state, look for a successor at depth `d`; the first found
//!   gives it `d + 1` and ends its look-ups. Chosen when the level is larger than what is left
//!   unreached, where it looks at far fewer states (the middle and last levels of a big space).
//!
//! Nothing is allocated per state; the only memory is the table.
//!
//! # Spaces with XOR moves or a split index
//!
//! [`build_xor`] builds the same table for a space whose moves XOR the index
//! ([`XorMoves`], Flip) from the word-at-a-time sweep of [`layers`]: the sweep finds each level
//! 64 states per move, and the level's bitset is written into the table a word at a time. Its
//! memory is the table and the sweep's three bitsets; on Flip 5 x 5 it costs little more than the
//! sweep, far less than [`build`] (BENCHMARKS.md, "Distance-table builds"). [`build_split`] does
//! the same from the block sweep of a space whose index splits ([`SplitMoves`]: permutation
//! puzzles).
//!
//! # Symmetry
//!
//! [`build_symmetric`] takes a space that also lists its [`Symmetric`] images (permutations of the
//! states that map moves to moves and goals to goals, so images are equally far from the goal
//! set). It expands only one representative per orbit and, whenever it reaches a state, gives the
//! same distance to the state's images; the reached set stays closed under the symmetries, so the
//! table is the same as [`build`]'s, entry for entry. With the four mirrors of a Shift board it
//! does about a quarter of the successor look-ups, at the price of an image computation per
//! scanned state and one index look-up per image of a reached state. While a level is small,
//! it also keeps the level's representatives in a list and expands the list instead of
//! scanning the table: memory for scans, within the budget (`symmetry.rs` has the details).
//!
//! # Compact bounds
//!
//! A pattern database too large for 4 bits an entry keeps [`compact::CompactBounds`]: its exact
//! distances as 2-bit lower bounds, a floor byte in each 64-byte line for the entries below a
//! base (`compact.rs` has the coding, its checks and its cache entry).
//!
//! # On disk
//!
//! [`DistanceTable::write_to`] and [`DistanceTable::read_from`] serialize a table (a flat
//! little-endian layout, documented there) so that it can be built once and cached across runs
//! ([`cache`](crate::cache) adds the file header, checksum and atomic replacement). The layout on
//! disk is the layout in memory: a table loaded from the cache reads its entries where they lie,
//! in the file's mapping (`packed.rs`'s `Words`: built or in place, one type, so every lookup is
//! the same code). Reading back checks every field and that every entry is a code the histogram
//! has, so a lookup never answers deeper than the table.
//!
//! # Files
//!
//! | file | holds |
//! |---|---|
//! | `mod.rs` | [`DistanceTable`] and its queries (lookups, descents), [`Width`] |
//! | `listing.rs` | [`DistanceTable::lookup`]: several optimal paths, every descent in turn |
//! | `packed.rs` | the entries, packed into `u64` words in huge pages, or in a cache file's mapping |
//! | `levels.rs` | [`build`], [`build_symmetric`]: the coding, the levels in turn, widening |
//! | `scan.rs` | one level's scan, top-down or bottom-up: the build's hot loops |
//! | `symmetry.rs` | the states a build expands (all, or one per orbit); lists of them |
//! | `sweep.rs` | [`build_xor`], [`build_split`]: tables written from [`layers`]' sweeps |
//! | `serial.rs` | the on-disk layout, written, and read back in place, checked ([`ReadError`]) |
//! | `cached.rs` | [`cached`]: the table in the cache (fingerprint, recipe, the one `load_or_build`) |
//! | `recipe.rs` | [`Recipe`](cached::Recipe): how a cached table was made (what its fingerprint adds, what a loaded one is checked against) |
//! | `verify.rs` | [`verify()`]: a loaded table checked against the space |
//!
//! [`Indexed`]: crate::space::Indexed
//! [`Invertible`]: crate::space::Invertible
//! [`Symmetric`]: crate::space::Symmetric
//! [`SplitMoves`]: crate::space::SplitMoves
//! [`XorMoves`]: crate::space::XorMoves
//! [`Limit::Memory`]: crate::limit::Limit::Memory
//! [`layers`]: crate::search::layers
//! [`ReadError`]: crate::cache::ReadError
//!
//! # Example
//!
//! ```
//! use statespace::search::table;
//! use statespace::limit::Limits;
//! use statespace::space::{GoalSet, Indexed, Invertible, StateSpace};
//!
//! /// A ring of 10 states; a move steps one way or the other; the goal is 0.
//! struct Ring;
//! impl StateSpace for Ring {
//!     type State = u8;
//!     type Move = i8;
//!     fn successors(&self, s: u8, visit: &mut dyn FnMut(i8, u8)) {
//!         visit(1, (s + 1) % 10);
//!         visit(-1, (s + 9) % 10);
//!     }
//!     fn is_goal(&self, s: u8) -> bool { s == 0 }
//! }
//! impl Indexed for Ring {
//!     fn size(&self) -> u128 { 10 }
//!     fn index(&self, s: u8) -> u64 { s as u64 }
//!     fn state(&self, i: u64) -> u8 { i as u8 }
//! }
//! impl Invertible for Ring {
//!     fn inverse(&self, m: i8) -> i8 { -m }
//! }
//! impl GoalSet for Ring {
//!     fn goals(&self, visit: &mut dyn FnMut(u8)) { visit(0) }
//! }
//!
//! let t = table::build(&Ring, &Limits::default()).unwrap();
//! assert_eq!(t.histogram(), vec![1, 2, 2, 2, 2, 1]);
//! assert_eq!(t.distance(&Ring, 7).unwrap(), Some(3));
//! assert_eq!(t.path(&Ring, 7).unwrap().unwrap().moves(), vec![1, 1, 1]);
//!
//! // The same answers from 2 bits per state.
//! let compact = table::build_with(&Ring, &Limits::default(), table::Width::Mod3).unwrap();
//! assert_eq!(compact.bits_per_entry(), 2);
//! assert_eq!(compact.distance(&Ring, 7).unwrap(), Some(3));
//! assert_eq!(compact.histogram(), t.histogram());
//! ```

pub mod cached;
pub mod compact;
mod levels;
mod listing;
mod packed;
mod recipe;
mod scan;
mod serial;
mod sweep;
mod symmetry;
pub mod verify;

pub use verify::verify;

pub use levels::{build, build_symmetric, build_with};
pub use listing::Listed;
pub use serial::FORMAT_VERSION;
pub use sweep::{
    build_flips, build_flips_with, build_split, build_split_with, build_xor, build_xor_with,
};

use super::{Outcome, Path, Stats, Step};
use crate::space::{Indexed, StateSpace};
use packed::{Packed, Words};

/// The width an exact build starts with.
const START_BITS: u32 = 4;
/// The width of a mod-3 table.
const MOD3_BITS: u32 = 2;
/// The widest entry; 2^32 - 2 levels is beyond any space a table fits.
const MAX_BITS: u32 = 32;

/// How a table codes distances; see the module docs for the trade-off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// Exact when it fits the budget comfortably, mod 3 when it does not.
    Auto,
    /// Exact distances: 4 bits per state, widened when deeper. A lookup per query.
    Exact,
    /// Distance mod 3: 2 bits per state. A walk to the goal set per query.
    Mod3,
}

/// What the table engine used for an answer: the table's size and entry width, whether an
/// earlier board of the run built it, whether it was read from the cache (`table_*` in the
/// JSON).
#[derive(Clone, Copy, Debug, Default)]
pub struct TableDetails {
    /// The table's bytes.
    pub bytes: u64,
    /// Bits per entry.
    pub bits_per_entry: u32,
    /// An earlier board of this run built (or loaded) it.
    pub reused: Option<bool>,
    /// It was read from the cache on disk.
    pub loaded: Option<bool>,
}

/// A path in the space `P`.
pub type SpacePath<P> = Path<<P as StateSpace>::State, <P as StateSpace>::Move>;

/// A table that disagrees with the space it is asked about: it was not built from that space (a
/// cache file of another puzzle, or edited). Its users discard the table and build it again
/// ([`cached::discard`]); [`verify()`] says so of a cache file before it is used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inconsistent(pub String);

impl Inconsistent {
    fn at(index: u64, why: &str) -> Inconsistent {
        Inconsistent(format!(
            "the table does not fit the space at index {index}: {why}"
        ))
    }
}

impl std::fmt::Display for Inconsistent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Inconsistent {}

/// The distance of every state of an indexed space to its goal set.
///
/// Built by [`build`]; valid only for the space (same size, moves and goals) it was built from.
#[derive(Clone, Debug)]
pub struct DistanceTable {
    // The fields are this folder's: the builders (`levels.rs`, `sweep.rs`) and the reader
    // (`serial.rs`) fill them.
    entries: Packed<Words>,
    /// Whether entries hold the distance mod 3 rather than the distance.
    mod3: bool,
    /// `histogram[d]`: how many states are at distance `d`.
    histogram: Vec<u64>,
    stats: Stats,
}

impl DistanceTable {
    /// A table from entries built elsewhere: `len` exact distances of 8 bits packed as
    /// [`DistanceTable`]s pack them (entry `i` is byte `i % 8` of `words[i / 8]` from the least
    /// significant end; 255 unreached, also in the padding), and the builder's statistics. The
    /// histogram is counted here. For engines with their own search (the tiles' blank-aware
    /// pattern databases, whose moves do not all cost 1).
    ///
    /// Panics unless `words` has exactly `len.div_ceil(8)` words.
    pub fn from_byte_codes(len: u64, words: Vec<u64>, stats: Stats) -> DistanceTable {
        assert_eq!(
            words.len() as u64,
            len.div_ceil(8),
            "8-bit entries, 8 a word"
        );
        let entries = Packed::built(len, 8, words);
        let mut histogram = Vec::new();
        for i in 0..len {
            let code = entries.get(i);
            if code != entries.unreached() {
                if histogram.len() <= code as usize {
                    histogram.resize(code as usize + 1, 0);
                }
                histogram[code as usize] += 1;
            }
        }
        DistanceTable {
            entries,
            mod3: false,
            histogram,
            stats,
        }
    }

    /// A table from exact 4-bit entries built elsewhere, packed as [`DistanceTable`]s pack
    /// them (entry `i` is bits `4 * (i % 16)..` of `words[i / 16]`; 15 unreached, also in the
    /// padding), with the builder's count of the entries at each distance and its statistics.
    /// For engines with a search of their own over a space of their own (the permutation
    /// puzzles' tables by symmetry class).
    ///
    /// Panics unless `words` has exactly `len.div_ceil(16)` words.
    pub fn from_nibble_codes(
        len: u64,
        words: Vec<u64>,
        histogram: Vec<u64>,
        stats: Stats,
    ) -> DistanceTable {
        assert_eq!(
            words.len() as u64,
            len.div_ceil(16),
            "4-bit entries, 16 a word"
        );
        DistanceTable {
            entries: Packed::built(len, 4, words),
            mod3: false,
            histogram,
            stats,
        }
    }

    /// The distance from `state` to the nearest goal, or `None` when no goal can be reached from
    /// it. One lookup in an exact table; in a mod-3 table a descent to the goal set (`d + 1`
    /// successor generations), which fails with [`Inconsistent`] when the table was not built
    /// from `space` (see [`path`](Self::path)).
    pub fn distance<P: Indexed + ?Sized>(
        &self,
        space: &P,
        state: P::State,
    ) -> Result<Option<u32>, Inconsistent> {
        if self.mod3 {
            let mut steps = 0;
            Ok(self
                .descend(space, state, |_, _| steps += 1)?
                .map(|()| steps))
        } else {
            let Some(code) = self.code(space.index(state)) else {
                self.intact()?;
                return Ok(None);
            };
            // The local rule at the state (module docs, "Trust"): a raised or lowered entry
            // here is an inconsistency, never a wrong distance.
            let checked = match code {
                0 if !space.is_goal(state) => Err(Inconsistent::at(
                    space.index(state),
                    "distance 0 but not a goal",
                )),
                0 => Ok(()),
                _ => self.nearest_below(space, state, code).map(|_| ()),
            };
            self.intact()?;
            checked.map(|()| Some(code as u32))
        }
    }

    /// The stored code of the state at `index`: its distance (exact tables) or its distance mod
    /// 3 (mod-3 tables); `None` when unreached (or `index` is out of range). The hot path of a
    /// pattern database: it does not check [`cut_short`](Self::cut_short), whose zeros are
    /// lower bounds; [`distance`](Self::distance) and [`path`](Self::path) do.
    #[inline]
    pub fn code(&self, index: u64) -> Option<u64> {
        if index >= self.entries.len {
            return None;
        }
        let code = self.entries.get(index);
        (code != self.entries.unreached()).then_some(code)
    }

    /// Asks the processor to start loading the entry at `index` into the caches, so that a
    /// [`code`](Self::code) soon after does not wait for memory (x86-64 `prefetcht0`; a no-op
    /// elsewhere or out of range).
    #[inline]
    pub fn prefetch(&self, index: u64) {
        if index < self.entries.len {
            let word = (index >> self.entries.per_word_log2()) as usize;
            super::prefetch(&self.entries.words[word]);
        }
    }

    /// How many states are at each distance: `histogram()[d]` states need exactly `d` moves.
    pub fn histogram(&self) -> Vec<u64> {
        self.histogram.clone()
    }

    /// How many states can reach the goal set (the sum of the histogram).
    pub fn reachable(&self) -> u64 {
        self.histogram.iter().sum()
    }

    /// The largest finite distance (the radius of the space around its goal set); `None` when the
    /// goal set is empty.
    pub fn max_distance(&self) -> Option<u32> {
        self.histogram.len().checked_sub(1).map(|d| d as u32)
    }

    /// The number of states the table covers (the space's `size()`).
    pub fn len(&self) -> u64 {
        self.entries.len
    }

    /// Whether the table covers no state.
    pub fn is_empty(&self) -> bool {
        self.entries.len == 0
    }

    /// Bits per entry in the final table: 4, 8, 16 or 32 when exact, 2 when mod 3.
    pub fn bits_per_entry(&self) -> u32 {
        self.entries.bits
    }

    /// Whether entries hold exact distances (else distances mod 3).
    pub fn is_exact(&self) -> bool {
        !self.mod3
    }

    /// The bytes the table holds.
    pub fn bytes(&self) -> u64 {
        self.entries.words.len() as u64 * 8
    }

    /// Whether the entries are read in place from a cache file's mapping (else they are in this
    /// process's memory: built, or a copy).
    pub fn is_mapped(&self) -> bool {
        self.entries.words.payload().is_some_and(|p| p.is_mapped())
    }

    /// Whether the table's file was cut short by another program while the table was in use,
    /// so that entries past its new end read 0 ([`cache::bus_error`](crate::cache::bus_error)):
    /// every descent then fails with [`Inconsistent`]; a lookup of an exact entry may be low.
    pub fn cut_short(&self) -> bool {
        self.entries.words.payload().is_some_and(|p| p.cut_short())
    }

    /// What the build did: `expanded` and `generated` count the work of both directions,
    /// `visited` the states reached, `peak_frontier` the largest level, `depth` the deepest level.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// An optimal path from `start` to a goal, by descending the table: from a state at distance
    /// `d`, the first successor (in the space's move order) at distance `d - 1`. `Ok(None)` when
    /// no goal can be reached from `start`. Costs `d` successor generations and their index
    /// look-ups (one more in a mod-3 table, to see that the end has no closer successor).
    ///
    /// A table built from `space` always descends to a goal. One that was not (read from a file
    /// that another puzzle's table or a hand edit left behind) may not: a state with no closer
    /// successor short of a goal, or a mod-3 walk longer than the table is deep. That is
    /// [`Inconsistent`], never a panic or a path that does not end at a goal.
    pub fn path<P: Indexed + ?Sized>(
        &self,
        space: &P,
        start: P::State,
    ) -> Result<Option<SpacePath<P>>, Inconsistent> {
        let mut steps = Vec::new();
        let reached = self.descend(space, start, |mv, state| steps.push(Step { mv, state }))?;
        Ok(reached.map(|()| Path { start, steps }))
    }

    /// The table's answer for `start` as an [`Outcome`]: solved with the path from
    /// [`path`](Self::path), or unsolvable.
    pub fn outcome<P: Indexed + ?Sized>(
        &self,
        space: &P,
        start: P::State,
    ) -> Result<Outcome<P::State, P::Move>, Inconsistent> {
        Ok(match self.path(space, start)? {
            Some(path) => Outcome::Solved(path),
            None => Outcome::Unsolvable,
        })
    }

    /// Walks from `start` down to the goal set, calling `step` for every move; `Ok(None)` when
    /// `start` is unreached.
    fn descend<P: Indexed + ?Sized>(
        &self,
        space: &P,
        start: P::State,
        step: impl FnMut(P::Move, P::State),
    ) -> Result<Option<()>, Inconsistent> {
        let descended = self.descend_reading(space, start, step);
        // After the descent's reads, whatever they gave: zeros from a file cut short can end a
        // mod-3 walk at a goal the long way round, or make any descent fail.
        self.intact()?;
        descended
    }

    /// [`descend`](Self::descend) but for the check that the table's file is intact.
    fn descend_reading<P: Indexed + ?Sized>(
        &self,
        space: &P,
        start: P::State,
        mut step: impl FnMut(P::Move, P::State),
    ) -> Result<Option<()>, Inconsistent> {
        let Some(mut code) = self.code(space.index(start)) else {
            return Ok(None);
        };
        let mut current = start;
        // No descent is longer than the table is deep; a longer one goes round in circles.
        let deepest = self.histogram.len();
        let mut taken = 0;
        // An exact table knows it is done at code 0; a mod-3 table when no successor is closer.
        while let Some(closer) = self.closer(code) {
            let next = match self.mod3 {
                true => self.first_closer(space, current, closer),
                false => Some(self.nearest_below(space, current, code)?),
            };
            let Some((mv, state)) = next else {
                break;
            };
            taken += 1;
            if taken >= deepest {
                return Err(Inconsistent::at(
                    space.index(state),
                    "the descent is longer than the table is deep",
                ));
            }
            step(mv, state);
            current = state;
            code = closer;
        }
        if !space.is_goal(current) {
            return Err(Inconsistent::at(
                space.index(current),
                "the descent ends at a state that is not a goal",
            ));
        }
        Ok(Some(()))
    }

    /// The first successor of `current` (in the space's order) coded `closer`: a mod-3
    /// table's step down, which no local rule can check (a state's neighbours hold every
    /// residue).
    fn first_closer<P: Indexed + ?Sized>(
        &self,
        space: &P,
        current: P::State,
        closer: u64,
    ) -> Option<(P::Move, P::State)> {
        let mut next = None;
        space.successors(current, &mut |m, t| {
            if next.is_none() && self.code(space.index(t)) == Some(closer) {
                next = Some((m, t));
            }
        });
        next
    }

    /// An exact table's step down from `current`, coded `code > 0`, under the local rule:
    /// the nearest successor is coded exactly `code - 1` (one move changes the distance to the
    /// goal set by at most one, so none is nearer), and the first such successor (in the
    /// space's order) is the step. A raised entry at `current` has a successor below
    /// `code - 1` (its true distance minus one), a lowered one none at `code - 1`: either is
    /// [`Inconsistent`], so a forged entry never lengthens a path (module docs, "Trust").
    fn nearest_below<P: Indexed + ?Sized>(
        &self,
        space: &P,
        current: P::State,
        code: u64,
    ) -> Result<(P::Move, P::State), Inconsistent> {
        let closer = code - 1;
        let mut next = None;
        let mut nearest = u64::MAX;
        space.successors(current, &mut |m, t| {
            if let Some(c) = self.code(space.index(t)) {
                nearest = nearest.min(c);
                if next.is_none() && c == closer {
                    next = Some((m, t));
                }
            }
        });
        match next {
            Some(step) if nearest == closer => Ok(step),
            Some(_) => Err(Inconsistent::at(
                space.index(current),
                &format!("distance {code} but a successor at {nearest}"),
            )),
            None => Err(Inconsistent::at(
                space.index(current),
                "no successor is closer",
            )),
        }
    }

    /// `Err` when the table's file was cut short while in use: checked after the reads of an
    /// answer, which may have read its zeros.
    fn intact(&self) -> Result<(), Inconsistent> {
        match self.cut_short() {
            false => Ok(()),
            true => Err(Inconsistent(
                "the table's file was cut short by another program while in use".into(),
            )),
        }
    }

    /// The code of a state one move closer to the goal set than a state coded `code`.
    fn closer(&self, code: u64) -> Option<u64> {
        if self.mod3 {
            Some((code + 2) % 3)
        } else {
            code.checked_sub(1)
        }
    }
}

/// The bytes the smallest table over `space` needs (2 bits per state): what [`build`] checks
/// against the memory budget before allocating anything.
pub fn bytes_needed<P: Indexed>(space: &P) -> u128 {
    Packed::bytes_for(space.size(), MOD3_BITS)
}
