//! Distance tables: the distance of every state to the goal set, by one backward BFS.
//!
//! [`build`] runs a multi-source breadth-first search from every goal state at once over a space
//! whose moves are [`Invertible`] (so the predecessors of a state are its successors) and whose
//! states are [`Indexed`] (so the table is a flat array over `0..size`). Afterwards every query is a
//! lookup or a short walk: [`DistanceTable::distance`] of one state, [`DistanceTable::path`] by
//! descending the table (from a state at distance `d`, step to any successor at `d - 1`), and
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
//! A scan turns each index it visits into a state with [`Indexed::state_after`], from the state
//! it visited last (colex masks step to a near index for a few instructions where an unrank
//! costs about 150), and a bottom-up look-up stops at the first neighbour found
//! ([`StateSpace::any_successor`]). Scans are instantiated per entry width, so a look-up's
//! shifts and masks are constants.
//!
//! Both directions are exact because moves are invertible: `t` is a successor of `s` exactly when
//! `s` is a successor of `t`. In a mod-3 table a top-down scan also meets the states of levels
//! `d - 3`, `d - 6`, ... (same code); their successors are all reached, so they only cost time,
//! and a growing level dwarfs the old ones. A bottom-up scan is exact as it is: an unreached
//! state's neighbours are at depth `d` or unreached. Nothing is allocated per state; the only
//! memory is the table.
//!
//! # Spaces with XOR moves
//!
//! [`build_xor`] builds the same table for a space whose moves XOR the index
//! ([`XorMoves`], Flip) from the word-at-a-time sweep of [`layers`]: the sweep finds each level
//! 64 states per move, and the level's bitset is written into the table a word at a time. Its
//! memory is the table and the sweep's three bitsets. For Flip 5 x 5 it is about 2.5 times
//! faster than [`build`] (BENCHMARKS.md).
//!
//! # Symmetry
//!
//! [`build_symmetric`] takes a space that also lists its [`Symmetric`] images (permutations of the
//! states that map moves to moves and goals to goals, so images are equally far from the goal
//! set). It expands only one representative per orbit and, whenever it reaches a state, gives the
//! same distance to the state's images; the reached set stays closed under the symmetries, so the
//! table is the same as [`build`]'s, entry for entry. With the four mirrors of a Shift board it
//! does about a quarter of the successor look-ups, at the price of an image computation per
//! scanned state and one index look-up per image of a reached state.
//!
//! While a level is small, the symmetric build also lists its representatives as it reaches
//! their orbits ([`Symmetric::orbit`] gives the images and the representative in one pass), and
//! a top-down level expands its list instead of scanning the table and testing every state of
//! the level. Trade-off: memory for scans. A list holds at most an eighth of the states (two
//! are alive: the level expanded and the level filled), is used only when two such lists fit
//! the budget beside the table, and is dropped (that level scanned) when it would grow past
//! that. A space whose states have a 32-bit form ([`Symmetric::narrows`]: Shift boards of up to
//! 32 cells) is listed in it, half the bytes of a `u64` mask. For the HDU table the lists peak
//! at about 415 KB beside its 360 KiB (the levels at depths 7 and 8: 48,544 and 55,009 masks
//! of 4 bytes; 830 KB as whole masks) and save about a third of the instructions of the build
//! (BENCHMARKS.md). The plain build lists nothing: its lists would hold every state of a level,
//! four times as many.
//!
//! # On disk
//!
//! [`DistanceTable::write_to`] and [`DistanceTable::from_bytes`] serialize a table (a flat
//! little-endian layout, documented there) so that it can be built once and cached across runs
//! ([`cache`](crate::cache) adds the file header, checksum and atomic replacement). Reading back
//! checks every field and every entry against the histogram, so a table that loads is one the
//! build could have produced.
//!
//! # Example
//!
//! ```
//! use statespace::search::{table, Limits};
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

use super::{Latch, Limit, Limits, Outcome, Path, Stats, Step, layers};
use crate::space::{GoalSet, Indexed, Invertible, SplitMoves, StateSpace, Symmetric, XorMoves};

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

/// A path in the space `P`.
pub type SpacePath<P> = Path<<P as StateSpace>::State, <P as StateSpace>::Move>;

/// A table that disagrees with the space it is asked about: it was not built from that space (a
/// cache file of another puzzle, or edited). Its users discard the table and build it again
/// ([`TableCache::discard`](crate::cache::TableCache::discard)).
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
    entries: Packed,
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
        let mut entries = Packed::new(0, 8);
        entries.len = len;
        entries.words = words;
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
            Ok(self.code(space.index(state)).map(|code| code as u32))
        }
    }

    /// The stored code of the state at `index`: its distance (exact tables) or its distance mod
    /// 3 (mod-3 tables); `None` when unreached (or `index` is out of range).
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
        #[cfg(target_arch = "x86_64")]
        if index < self.entries.len {
            let word = (index >> self.entries.per_word_log2()) as usize;
            let at = self.entries.words.as_ptr().wrapping_add(word);
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: a prefetch never faults and changes no memory; `at` is inside the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(at as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = index;
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
            let mut next = None;
            space.successors(current, &mut |m, t| {
                if next.is_none() && self.code(space.index(t)) == Some(closer) {
                    next = Some((m, t));
                }
            });
            let Some((mv, state)) = next else {
                if self.mod3 {
                    break;
                }
                return Err(Inconsistent::at(
                    space.index(current),
                    "no successor is closer",
                ));
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

    /// The code of a state one move closer to the goal set than a state coded `code`.
    fn closer(&self, code: u64) -> Option<u64> {
        if self.mod3 {
            Some((code + 2) % 3)
        } else {
            code.checked_sub(1)
        }
    }
}

/// The first bytes of a serialized table ([`DistanceTable::write_to`]).
const FORMAT_MAGIC: [u8; 8] = *b"SSDTABLE";
/// The version of the serialized layout; a reader refuses any other (and cache fingerprints
/// include it).
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the histogram: magic, version, bits, mod-3 flag, reserved, then `len`,
/// `expanded`, `generated`, `elapsed` (nanoseconds) and the histogram's length.
const FORMAT_HEADER: u64 = 16 + 5 * 8;

/// Serialization: a flat little-endian layout that [`DistanceTable::from_bytes`] checks field
/// by field, so a table read back is one that [`build`] could have returned.
///
/// | bytes | field |
/// |---|---|
/// | 8 | magic `SSDTABLE` |
/// | 4 | format version (1) |
/// | 1 | bits per entry: 2, 4, 8, 16 or 32 |
/// | 1 | 1 when entries hold the distance mod 3 (exactly when bits = 2), else 0 |
/// | 2 | reserved, 0 |
/// | 8 | states covered (`len`) |
/// | 8, 8, 8 | the build's `expanded`, `generated` and `elapsed` (ns) |
/// | 8 + 8 per level | the histogram's length, then its counts |
/// | 8 + 8 per word | the number of `u64` words, then the packed entries |
///
/// The build's `visited`, `peak_frontier` and `depth` are not stored: they follow from the
/// histogram.
impl DistanceTable {
    /// The number of bytes [`write_to`](Self::write_to) writes.
    pub fn serialized_len(&self) -> u64 {
        FORMAT_HEADER + 8 * self.histogram.len() as u64 + 8 + self.bytes()
    }

    /// Writes the table in the layout above. Nothing is buffered beyond a few KiB: a large
    /// table streams to `out`.
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let mut head = Vec::with_capacity(FORMAT_HEADER as usize);
        head.extend_from_slice(&FORMAT_MAGIC);
        head.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        head.extend_from_slice(&[self.entries.bits as u8, self.mod3 as u8, 0, 0]);
        let elapsed = u64::try_from(self.stats.elapsed.as_nanos()).unwrap_or(u64::MAX);
        for field in [
            self.entries.len,
            self.stats.expanded,
            self.stats.generated,
            elapsed,
            self.histogram.len() as u64,
        ] {
            head.extend_from_slice(&field.to_le_bytes());
        }
        for &count in &self.histogram {
            head.extend_from_slice(&count.to_le_bytes());
        }
        head.extend_from_slice(&(self.entries.words.len() as u64).to_le_bytes());
        out.write_all(&head)?;
        let mut chunk = Vec::with_capacity(8 << 10);
        for words in self.entries.words.chunks(1 << 10) {
            chunk.clear();
            for word in words {
                chunk.extend_from_slice(&word.to_le_bytes());
            }
            out.write_all(&chunk)?;
        }
        Ok(())
    }

    /// The table as bytes ([`write_to`](Self::write_to) into a `Vec`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(self.serialized_len() as usize);
        self.write_to(&mut bytes)
            .expect("writing to a Vec cannot fail");
        bytes
    }

    /// Reads a table written by [`write_to`](Self::write_to) from a byte slice; see
    /// [`read_from`](Self::read_from).
    pub fn from_bytes(bytes: &[u8]) -> Result<DistanceTable, String> {
        let mut input = bytes;
        let unlimited = Latch::new(&Limits::default());
        Self::read_from(&mut input, bytes.len() as u64, &unlimited).map_err(|e| e.to_string())
    }

    /// Reads a table of exactly `len` bytes, as [`write_to`](Self::write_to) wrote it, from
    /// `input`, checking everything before it is trusted: magic and version, a valid width and
    /// a mod-3 flag that matches it (mod 3 is exactly 2 bits), counts that fit the `len` bytes
    /// (checked before anything is allocated) and leave none over, a word count that matches the
    /// number of states, padding lanes unreached, non-empty histogram levels, and every entry a
    /// code the histogram accounts for (exact: below the number of levels; each code's count
    /// equals its level's, or, mod 3, the sum of the levels with that residue). One pass over
    /// the entries; the words are read straight into the table (no second copy of the file).
    ///
    /// The error is one line naming the first check that failed; input that ends early is one.
    /// `latch` is polled as the words are read and checked (a large table takes seconds): a
    /// time limit or Ctrl-C stops the read with [`ReadError::Stopped`].
    pub fn read_from(
        input: &mut impl std::io::Read,
        len: u64,
        latch: &Latch,
    ) -> Result<DistanceTable, ReadError> {
        let mut ticker = latch.ticker();
        let mut input = Reader {
            input,
            left: len,
            total: len,
        };
        if input.take::<8>()? != FORMAT_MAGIC {
            return Err("not a distance table (wrong magic bytes)".into());
        }
        let version = u32::from_le_bytes(input.take::<4>()?);
        if version != FORMAT_VERSION {
            return Err(
                format!("table format version {version}, expected {FORMAT_VERSION}").into(),
            );
        }
        let [bits, mod3, r0, r1] = input.take::<4>()?;
        let bits = bits as u32;
        if ![2, 4, 8, 16, 32].contains(&bits) {
            return Err(format!("{bits} bits per entry (expected 2, 4, 8, 16 or 32)").into());
        }
        if mod3 > 1 || (mod3 == 1) != (bits == MOD3_BITS) || r0 != 0 || r1 != 0 {
            return Err(format!(
                "mod-3 flag {mod3} and reserved bytes {r0} {r1} do not fit {bits} bits per entry"
            )
            .into());
        }
        let mod3 = mod3 == 1;
        let len = input.u64()?;
        let expanded = input.u64()?;
        let generated = input.u64()?;
        let elapsed = std::time::Duration::from_nanos(input.u64()?);
        let levels = input.count("histogram levels")?;
        let histogram: Vec<u64> = (0..levels).map(|_| input.u64()).collect::<Result<_, _>>()?;
        let words = input.count("words")?;
        let per = 64 / bits as u64;
        if words as u64 != len.div_ceil(per) {
            return Err(format!(
                "{words} words for {len} entries of {bits} bits (expected {})",
                len.div_ceil(per)
            )
            .into());
        }
        // `count` checked that the words are there: the vector is allocated once, in huge pages.
        let mut packed = huge_page_words(words);
        input.words(&mut packed, words, &mut ticker)?;
        if input.left != 0 {
            return Err(format!("{} bytes after the table", input.left).into());
        }
        if let Some(level) = histogram.iter().position(|&n| n == 0) {
            return Err(format!("histogram level {level} is empty").into());
        }
        let reachable = histogram
            .iter()
            .try_fold(0u64, |sum, &n| sum.checked_add(n))
            .filter(|&sum| sum <= len)
            .ok_or_else(|| format!("the histogram counts more than the {len} states"))?;
        let mut entries = Packed::new(0, bits);
        entries.len = len;
        entries.words = packed;
        if !mod3 && histogram.len() as u64 >= entries.unreached() {
            return Err(format!("{} levels do not fit {bits}-bit entries", histogram.len()).into());
        }
        // Padding lanes of the last word hold the unreached code.
        let used = len % per;
        if used != 0 {
            let last = *entries.words.last().expect("len > 0 has a word");
            let padding = last >> (used * bits as u64);
            if padding != u64::MAX >> (used * bits as u64) {
                return Err("padding past the last entry is not unreached".into());
            }
        }
        // Every code counted: its count must be the histogram's.
        let codes = if mod3 { 3 } else { histogram.len() };
        let mut counts = vec![0u64; codes];
        let unreached = entries.unreached();
        for i in 0..len {
            let code = entries.get(i);
            if code != unreached {
                match counts.get_mut(code as usize) {
                    Some(count) => *count += 1,
                    None => {
                        let why = format!("entry {i} has code {code}, beyond the histogram");
                        return Err(why.into());
                    }
                }
            }
            // An entry is far cheaper than a successor: a poll every 64 of the ticker's units.
            if i % 64 == 0 {
                ticker.tick(i / 64)?;
            }
        }
        let mut expected = vec![0u64; codes];
        for (d, &n) in histogram.iter().enumerate() {
            expected[if mod3 { d % 3 } else { d }] += n;
        }
        if counts != expected {
            return Err(format!(
                "the entries (codes counted {counts:?}) disagree with the histogram {histogram:?}"
            )
            .into());
        }
        let stats = Stats {
            expanded,
            generated,
            visited: reachable,
            peak_frontier: histogram.iter().copied().max().unwrap_or(0),
            depth: histogram.len().saturating_sub(1) as u32,
            elapsed,
            ..Stats::default()
        };
        Ok(DistanceTable {
            entries,
            mod3,
            histogram,
            stats,
        })
    }
}

/// Why [`DistanceTable::read_from`] returned no table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The bytes are not a valid table: the first check that failed, in one line.
    Invalid(String),
    /// A limit (time, Ctrl-C) stopped the read: the bytes were not all looked at.
    Stopped(Limit),
}

impl From<String> for ReadError {
    fn from(why: String) -> Self {
        ReadError::Invalid(why)
    }
}

impl From<&str> for ReadError {
    fn from(why: &str) -> Self {
        ReadError::Invalid(why.to_string())
    }
}

impl From<Limit> for ReadError {
    fn from(limit: Limit) -> Self {
        ReadError::Stopped(limit)
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Invalid(why) => f.write_str(why),
            ReadError::Stopped(limit) => write!(f, "stopped: {limit}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// A cursor over a serialized table of known length whose reads fail, rather than panic, past
/// the end (or when the input ends first).
struct Reader<'a, R> {
    input: &'a mut R,
    /// Bytes not read yet.
    left: u64,
    /// The table's length in bytes.
    total: u64,
}

impl<R: std::io::Read> Reader<'_, R> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let truncated = || format!("truncated at byte {}", self.total - self.left);
        if self.left < N as u64 {
            return Err(truncated());
        }
        let mut bytes = [0u8; N];
        self.input.read_exact(&mut bytes).map_err(|_| truncated())?;
        self.left -= N as u64;
        Ok(bytes)
    }

    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take::<8>()?))
    }

    /// A count of `u64` fields that follow; refused when the bytes left cannot hold them, so
    /// a corrupted count never makes the reader allocate.
    fn count(&mut self, what: &str) -> Result<usize, String> {
        let n = self.u64()?;
        let left = self.left / 8;
        if n > left {
            return Err(format!(
                "{n} {what} announced, only {left} words of data left"
            ));
        }
        Ok(n as usize)
    }

    /// Appends `n` little-endian words to `words` (checked by [`count`](Self::count) to be
    /// there), a buffer at a time.
    fn words(
        &mut self,
        words: &mut Vec<u64>,
        n: usize,
        ticker: &mut super::Ticker,
    ) -> Result<(), ReadError> {
        let mut buffer = vec![0u8; 64 << 10];
        let mut todo = n;
        while todo > 0 {
            let chunk = todo.min(buffer.len() / 8);
            let bytes = &mut buffer[..chunk * 8];
            self.input
                .read_exact(bytes)
                .map_err(|_| format!("truncated at byte {}", self.total - self.left))?;
            self.left -= bytes.len() as u64;
            words.extend(
                bytes
                    .chunks_exact(8)
                    .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes"))),
            );
            todo -= chunk;
            // A chunk is 8,192 words; each counts as a unit of work.
            ticker.tick((n - todo) as u64)?;
        }
        Ok(())
    }
}

/// The bytes the smallest table over `space` needs (2 bits per state): what [`build`] checks
/// against the memory budget before allocating anything.
pub fn bytes_needed<P: Indexed>(space: &P) -> u128 {
    Packed::bytes_for(space.size(), MOD3_BITS)
}

/// Builds the distance table of `space` by one multi-source BFS backward from all its goals, with
/// the width picked by [`Width::Auto`].
///
/// - `space`: an indexed space with invertible moves and an enumerable goal set.
/// - `limits`: `memory_budget` is checked before allocating ([`Limit::Memory`] with the bytes
///   needed) and again before each widening; `time_limit` and `max_states` (states reached) stop
///   the build. `max_depth` does not apply: a table is all or nothing, and a caller that wants a
///   depth limit compares the looked-up distance with it.
///
/// Guarantees: every state that can reach a goal gets its exact distance (the fewest moves to the
/// nearest goal); every other state reads as unreached.
pub fn build<P: Indexed + Invertible + GoalSet>(
    space: &P,
    limits: &Limits,
) -> Result<DistanceTable, Limit> {
    build_with(space, limits, Width::Auto)
}

/// [`build`] with a chosen [`Width`]: `Exact` fails with [`Limit::Memory`] where `Auto` would fall
/// back to mod 3; `Mod3` always takes 2 bits per state.
pub fn build_with<P: Indexed + Invertible + GoalSet>(
    space: &P,
    limits: &Limits,
    width: Width,
) -> Result<DistanceTable, Limit> {
    Build::new(space, limits, width, Whole, 0)?.run()
}

/// [`build_with`] over a space with symmetries: expands one state per orbit and gives its images
/// the same distance (see the module docs). The table is identical to [`build_with`]'s.
pub fn build_symmetric<P: Indexed + Invertible + GoalSet + Symmetric>(
    space: &P,
    limits: &Limits,
    width: Width,
) -> Result<DistanceTable, Limit> {
    // Two instances of the build: representatives listed as 32-bit words, or as they are.
    if space.narrows() {
        Build::new(space, limits, width, Orbits::<Narrow>(Narrow), 0)?.run()
    } else {
        Build::new(space, limits, width, Orbits::<AsIs>(AsIs), 0)?.run()
    }
}

/// [`build`] over a space whose moves XOR the index: the table is written from the
/// word-at-a-time sweep of [`layers::xor_backward_each`], 64 states per move, instead of the
/// table's own level scans. Each layer's bitset becomes the entries of its distance, a word at a
/// time (a 64-bit layer word spreads into `bits` table words). Same entries, widths, histogram
/// and stats shape as [`build`] (tested entry for entry); `expanded` and `generated` are the
/// sweep's (every state of a layer is expanded once, with one successor per move).
///
/// Memory: the table plus the sweep's three bitsets ([`layers::memory_needed`]), checked
/// together before anything is allocated, and again before each widening; [`Width::Auto`] picks
/// mod 3 when three 4-bit tables and the bitsets do not fit. `time_limit`, Ctrl-C and
/// `max_states` stop the build as they stop the sweep (polled every chunk of a layer);
/// `max_depth` does not apply. Threads: as [`layers::Options`] with `threads: None`.
pub fn build_xor<P: XorMoves + GoalSet + Sync>(
    space: &P,
    limits: &Limits,
) -> Result<DistanceTable, Limit> {
    build_xor_with(space, limits, Width::Auto)
}

/// [`build_xor`] with a chosen [`Width`], as [`build_with`].
pub fn build_xor_with<P: XorMoves + GoalSet + Sync>(
    space: &P,
    limits: &Limits,
    width: Width,
) -> Result<DistanceTable, Limit> {
    let bitsets = layers::memory_needed(space);
    from_sweep(
        space,
        limits,
        width,
        bitsets,
        layers::xor_backward_each::<P>,
    )
}

/// [`build`] over a space whose index splits ([`SplitMoves`]: permutation puzzles), written
/// from the block sweep of [`layers::split_backward_each`] as [`build_xor`] writes from its
/// sweep; the memory check counts the sweep's move tables too. Same entries as [`build`]
/// (tested entry for entry).
pub fn build_split<P: SplitMoves + Invertible + GoalSet + Sync>(
    space: &P,
    limits: &Limits,
) -> Result<DistanceTable, Limit> {
    build_split_with(space, limits, Width::Auto)
}

/// [`build_split`] with a chosen [`Width`], as [`build_with`].
pub fn build_split_with<P: SplitMoves + Invertible + GoalSet + Sync>(
    space: &P,
    limits: &Limits,
    width: Width,
) -> Result<DistanceTable, Limit> {
    let sweep = layers::memory_needed(space) + layers::split_tables_needed(space);
    from_sweep(
        space,
        limits,
        width,
        sweep,
        layers::split_backward_each::<P>,
    )
}

/// A table written layer by layer from a whole-space sweep that lends each layer's bitset
/// (`sweep`), which needs `sweep_bytes` of its own next to the table.
fn from_sweep<P: Indexed + GoalSet>(
    space: &P,
    limits: &Limits,
    width: Width,
    sweep_bytes: u128,
    sweep: fn(&P, layers::Options, layers::EachLayer) -> layers::Layers<P::State>,
) -> Result<DistanceTable, Limit> {
    let mut build = Build::new(space, limits, width, Whole, sweep_bytes)?;
    let sweep_limits = Limits {
        max_depth: None,
        ..limits.clone()
    };
    let options = layers::Options {
        limits: &sweep_limits,
        threads: None,
    };
    let sweep = sweep(space, options, &mut |depth, words| {
        build.write_layer(depth as u64, words)
    });
    if let Some(limit) = sweep.stopped {
        return Err(limit);
    }
    let mut stats = sweep.stats;
    stats.elapsed = build.latch.elapsed();
    Ok(DistanceTable {
        entries: build.entries,
        mod3: build.mod3,
        histogram: sweep.histogram,
        stats,
    })
}

/// Which states a build expands, and what else a reached state drags along: every state
/// ([`Whole`]), or one per symmetry orbit ([`Orbits`]). A type parameter, so the plain build pays
/// nothing for the symmetric one.
trait Reduction<P: StateSpace> {
    /// Whether the build expands (or, bottom-up, searches from) `state`.
    fn expands(&self, space: &P, state: P::State) -> bool;
    /// Calls `visit` with every state that shares `state`'s distance by symmetry; returns the
    /// one of them (or `state`) that [`expands`](Self::expands).
    fn images<F: FnMut(P::State)>(&self, space: &P, state: P::State, visit: F) -> P::State;
    /// Whether small levels are listed ([`Frontier`]): only when a list holds one state per
    /// orbit. A plain build's list would hold every state of a level, up to a few times the
    /// table's own bytes, to save scans that cost it a few percent.
    const LISTS: bool;
    /// What a list holds per state: the state, or a narrower form of it.
    type Listed: Copy;
    /// The listed form of `state`.
    fn list(&self, space: &P, state: P::State) -> Self::Listed;
    /// The state listed as `listed`.
    fn unlist(&self, space: &P, listed: Self::Listed) -> P::State;
}

/// No symmetry: every state stands for itself.
struct Whole;

impl<P: StateSpace> Reduction<P> for Whole {
    const LISTS: bool = false;
    type Listed = P::State;
    fn list(&self, _: &P, state: P::State) -> P::State {
        state
    }
    fn unlist(&self, _: &P, state: P::State) -> P::State {
        state
    }
    #[inline]
    fn expands(&self, _: &P, _: P::State) -> bool {
        true
    }
    #[inline]
    fn images<F: FnMut(P::State)>(&self, _: &P, state: P::State, _: F) -> P::State {
        state
    }
}

/// One representative per orbit of the space's symmetries, listed in the form `L` gives.
struct Orbits<L>(L);

/// How [`Orbits`] lists a state: [`AsIs`], or [`Narrow`] (32 bits, [`Symmetric::narrow`]: half
/// the lists' memory for states of 8 bytes).
trait Listing<P: StateSpace> {
    type Listed: Copy;
    fn list(space: &P, state: P::State) -> Self::Listed;
    fn unlist(space: &P, listed: Self::Listed) -> P::State;
}

/// States listed as they are.
struct AsIs;

impl<P: StateSpace> Listing<P> for AsIs {
    type Listed = P::State;
    #[inline]
    fn list(_: &P, state: P::State) -> P::State {
        state
    }
    #[inline]
    fn unlist(_: &P, state: P::State) -> P::State {
        state
    }
}

/// States listed as 32-bit words, for a space that [`Symmetric::narrows`].
struct Narrow;

impl<P: Symmetric> Listing<P> for Narrow {
    type Listed = u32;
    #[inline]
    fn list(space: &P, state: P::State) -> u32 {
        space.narrow(state)
    }
    #[inline]
    fn unlist(space: &P, word: u32) -> P::State {
        space.widen(word)
    }
}

impl<P: Symmetric, L: Listing<P>> Reduction<P> for Orbits<L> {
    const LISTS: bool = true;
    type Listed = L::Listed;
    #[inline]
    fn list(&self, space: &P, state: P::State) -> L::Listed {
        L::list(space, state)
    }
    #[inline]
    fn unlist(&self, space: &P, listed: L::Listed) -> P::State {
        L::unlist(space, listed)
    }
    #[inline]
    fn expands(&self, space: &P, state: P::State) -> bool {
        space.is_representative(state)
    }
    #[inline(always)]
    fn images<F: FnMut(P::State)>(&self, space: &P, state: P::State, visit: F) -> P::State {
        space.orbit(state, visit)
    }
}

/// One build in progress: the space, the limits, the table and its counts.
struct Build<'a, P, R> {
    space: &'a P,
    limits: &'a Limits,
    reduction: R,
    /// Time and Ctrl-C: each level's scan ticks it with the words it scans and the successors
    /// it generates.
    latch: Latch,
    entries: Packed,
    mod3: bool,
    /// Whether a widening the budget refuses may turn the table into mod 3.
    may_compact: bool,
    /// Bytes held beside the table for the whole build (the XOR build's bitsets), counted
    /// against the budget with it.
    overhead: u128,
    stats: Stats,
}

impl<'a, P: Indexed + GoalSet, R: Reduction<P>> Build<'a, P, R> {
    /// Picks the coding and allocates the table, after checking the budget for it and
    /// `overhead` more bytes.
    fn new(
        space: &'a P,
        limits: &'a Limits,
        width: Width,
        reduction: R,
        overhead: u128,
    ) -> Result<Self, Limit> {
        let latch = Latch::new(limits);
        let size = space.size();
        let exact = Packed::bytes_for(size, START_BITS);
        let compact = Packed::bytes_for(size, MOD3_BITS);
        let (exact, compact) = (exact + overhead, compact + overhead);
        let mod3 = match width {
            Width::Exact => {
                limits.check_memory(exact)?;
                false
            }
            Width::Mod3 => {
                limits.check_memory(compact)?;
                true
            }
            Width::Auto => {
                // Three times the 4-bit table: room to widen once, to 8 bits, during the copy.
                let three = (exact - overhead)
                    .saturating_mul(3)
                    .saturating_add(overhead);
                let roomy = limits.check_memory(three).is_ok();
                if !roomy {
                    limits.check_memory(compact)?;
                }
                !roomy
            }
        };
        // 2^64 states: no index fits a u64, whatever the budget says.
        let len = u64::try_from(size).map_err(|_| Limit::Memory {
            needed: compact,
            budget: limits.memory_budget,
        })?;
        let bits = if mod3 { MOD3_BITS } else { START_BITS };
        Ok(Build {
            space,
            limits,
            reduction,
            latch,
            entries: Packed::new(len, bits),
            mod3,
            may_compact: width == Width::Auto,
            overhead,
            stats: Stats::default(),
        })
    }

    fn run(mut self) -> Result<DistanceTable, Limit> {
        let mut frontier = Frontier::new(self.frontier_cap());
        let mut level = self.reach_goals(&mut frontier);
        let len = self.entries.len;
        let mut histogram = Vec::new();
        let mut reached = 0u64;
        let mut depth = 0u64;
        while level > 0 {
            histogram.push(level);
            reached += level;
            self.stats.visited = reached;
            self.stats.peak_frontier = self.stats.peak_frontier.max(level);
            self.stats.depth = depth as u32;
            if let Some(max) = self.limits.max_states
                && reached > max
            {
                return Err(Limit::States(max));
            }
            if !self.mod3 && depth + 1 >= self.entries.unreached() {
                // The widening's budget check does not count the lists: drop them first.
                frontier = Frontier::new(0);
                self.make_room()?;
            }
            let direction = if level > len - reached {
                Scan::BottomUp
            } else {
                Scan::TopDown
            };
            let listed = frontier.take();
            if let Scan::BottomUp = direction {
                // A level after a bottom-up one is almost always bottom-up too (the levels
                // shrink): listing it would only cost time.
                frontier.abandon();
            }
            level = self.next_level(depth, direction, listed.as_deref(), &mut frontier)?;
            depth += 1;
        }
        self.stats.elapsed = self.latch.elapsed();
        Ok(DistanceTable {
            entries: self.entries,
            mod3: self.mod3,
            histogram,
            stats: self.stats,
        })
    }

    /// The most states a level's list may hold: an eighth of the table's entries (so that a
    /// level of the exact build's first levels, which are small, expands from its list), or none
    /// when two such lists (the level expanded and the level filled) do not fit the budget
    /// beside the table.
    fn frontier_cap(&self) -> usize {
        if !R::LISTS {
            return 0;
        }
        let cap = self.entries.len / 8;
        let lists = 2 * cap as u128 * std::mem::size_of::<R::Listed>() as u128;
        let table = Packed::bytes_for(self.entries.len as u128, self.entries.bits) + self.overhead;
        match self.limits.check_memory(table + lists) {
            Ok(()) => cap as usize,
            Err(_) => 0,
        }
    }

    /// The code stored for `depth`.
    #[inline]
    fn code(&self, depth: u64) -> u64 {
        if self.mod3 { depth % 3 } else { depth }
    }

    /// Doubles the entry width; or, when the budget refuses that and the width is automatic,
    /// recodes the table mod 3.
    fn make_room(&mut self) -> Result<(), Limit> {
        let size = self.entries.len as u128;
        let current = Packed::bytes_for(size, self.entries.bits) + self.overhead;
        let wider = self.entries.bits * 2;
        assert!(wider <= MAX_BITS, "a space deeper than 2^32 levels");
        let widened = self
            .limits
            .check_memory(current + Packed::bytes_for(size, wider));
        match widened {
            Ok(()) => self.entries = self.entries.recoded(wider, |code| code, &self.latch)?,
            Err(refused) => {
                let compact = current + Packed::bytes_for(size, MOD3_BITS);
                if !self.may_compact || self.limits.check_memory(compact).is_err() {
                    return Err(refused);
                }
                self.entries = self
                    .entries
                    .recoded(MOD3_BITS, |code| code % 3, &self.latch)?;
                self.mod3 = true;
            }
        }
        Ok(())
    }

    /// Gives `depth`'s code to every state of `layer` (a bitset over the index, none of its
    /// states reached before), a layer word at a time; then widens, as [`run`](Self::run) does,
    /// when the next depth would not fit the width.
    fn write_layer(&mut self, depth: u64, layer: &[u64]) -> Result<(), Limit> {
        let code = self.code(depth);
        let entries = &mut self.entries;
        let bits = entries.bits;
        // Entries per table word, and the table words one layer word covers (64 / per = bits).
        let per = 1u32 << entries.per_word_log2();
        let piece_mask = (1u64 << per) - 1;
        let pattern = code * entries.ones;
        let fill = entries.unreached();
        for (w, &states) in layer.iter().enumerate() {
            if states == 0 {
                continue;
            }
            let first = w * bits as usize;
            for k in 0..bits {
                let piece = (states >> (k * per)) & piece_mask;
                if piece == 0 {
                    continue;
                }
                // One bit per lane at the lane's bottom, then the whole lane.
                let lanes = if bits == START_BITS {
                    spread_nibbles(piece)
                } else {
                    spread(piece, bits)
                } * fill;
                let word = &mut entries.words[first + k as usize];
                debug_assert_eq!(*word & lanes, lanes, "a state reached twice");
                *word = (*word & !lanes) | (pattern & lanes);
            }
        }
        if !self.mod3 && depth + 1 >= self.entries.unreached() {
            self.make_room()?;
        }
        Ok(())
    }

    /// Gives `depth` to the goals and their images; returns how many states that reached.
    fn reach_goals(&mut self, frontier: &mut Frontier<R::Listed>) -> u64 {
        let (space, reduction, entries) = (self.space, &self.reduction, &mut self.entries);
        let mut found = 0;
        space.goals(&mut |goal| {
            let i = space.index(goal);
            if entries.get(i) == entries.unreached() {
                // A new table has its starting width: 4 bits, or 2 (mod 3).
                let reach = match entries.bits {
                    START_BITS => reach::<P, R, START_BITS>,
                    _ => reach::<P, R, MOD3_BITS>,
                };
                found += reach(space, reduction, entries, frontier, goal, i, 0);
            }
        });
        found
    }

    /// Fills level `depth + 1` from level `depth`; returns how many states it got. Top-down
    /// expands every state at `depth`; bottom-up looks, for every unreached state, for a
    /// successor at `depth` (cheaper when the level is larger than what is left unreached).
    ///
    /// `listed`: the representatives at `depth`, when they were kept in a list; `frontier`
    /// collects those of `depth + 1`.
    fn next_level(
        &mut self,
        depth: u64,
        direction: Scan,
        listed: Option<&[R::Listed]>,
        frontier: &mut Frontier<R::Listed>,
    ) -> Result<u64, Limit> {
        let codes = Codes {
            at: self.code(depth),
            next: self.code(depth + 1),
        };
        // One instance of the scans per entry width: the look-ups' shifts and masks are then
        // constants, which frees the registers the successor loop needs (callgrind, 4 x 6
        // symmetric build: BENCHMARKS.md).
        let scan = match self.entries.bits {
            2 => scan_for::<P, R, 2>(direction),
            4 => scan_for::<P, R, 4>(direction),
            8 => scan_for::<P, R, 8>(direction),
            16 => scan_for::<P, R, 16>(direction),
            32 => scan_for::<P, R, 32>(direction),
            bits => unreachable!("{bits} bits per entry"),
        };
        let scanned = scan(
            self.space,
            &self.reduction,
            &mut self.entries,
            &self.latch,
            codes,
            listed,
            frontier,
        )?;
        Ok(self.count(scanned))
    }

    /// Adds a scan's work to the stats; returns the states it reached.
    fn count(&mut self, scan: Scanned) -> u64 {
        self.stats.expanded += scan.expanded;
        self.stats.generated += scan.generated;
        scan.found
    }
}

/// What one level's scan did.
struct Scanned {
    /// States that got the next code.
    found: u64,
    expanded: u64,
    generated: u64,
}

// The scans are free functions with `space` and `entries` as their own reference arguments, not
// methods reading them out of the build: LLVM may then assume that the table's stores never
// change the space (a `&` argument) or the table's header (a `&mut` argument), and keeps the
// space's fields (a colex rank's table pointer and sizes) and the table's in registers across the
// successor loop. Read out of `self`, they were reloaded for every successor, which cost the plain
// build about 20 % more instructions (BENCHMARKS.md). `inline(never)` keeps those argument
// attributes whole: inlined into `run`, part of them is lost again (callgrind, 4 x 6 plain build:
// 984 M instructions inlined, 956 M not, 1,159 M as methods).

/// Which way a level is filled.
#[derive(Clone, Copy)]
enum Scan {
    TopDown,
    BottomUp,
}

/// The codes of one level's scan: states coded `at` give the next level the code `next`.
#[derive(Clone, Copy)]
struct Codes {
    at: u64,
    next: u64,
}

/// The representatives of the level being filled, listed while there are few of them: the
/// next level, when top-down, expands the list instead of scanning the whole table (and
/// testing every state of the level for being a representative). A list that would pass `cap`
/// is dropped, and that level is scanned.
struct Frontier<S> {
    states: Vec<S>,
    cap: usize,
    whole: bool,
}

impl<S> Frontier<S> {
    fn new(cap: usize) -> Self {
        Frontier {
            states: Vec::new(),
            cap,
            whole: cap > 0,
        }
    }

    /// Whether the level is still listed whole (so its representatives are wanted).
    #[inline]
    fn listing(&self) -> bool {
        self.whole
    }

    #[inline]
    fn push(&mut self, state: S) {
        if self.states.len() < self.cap {
            self.states.push(state);
        } else {
            self.abandon();
        }
    }

    /// Lists nothing more of this level.
    fn abandon(&mut self) {
        self.whole = false;
        self.states = Vec::new();
    }

    /// The finished level's list, if it is whole; the next level starts an empty one.
    fn take(&mut self) -> Option<Vec<S>> {
        let states = std::mem::take(&mut self.states);
        let whole = std::mem::replace(&mut self.whole, self.cap > 0);
        whole.then_some(states)
    }
}

/// A level scan over a table of `BITS`-bit entries.
type ScanFn<P, R> = fn(
    &P,
    &R,
    &mut Packed,
    &Latch,
    Codes,
    Option<&[<R as Reduction<P>>::Listed]>,
    &mut Frontier<<R as Reduction<P>>::Listed>,
) -> Result<Scanned, Limit>;

fn scan_for<P: Indexed, R: Reduction<P>, const BITS: u32>(direction: Scan) -> ScanFn<P, R> {
    match direction {
        Scan::TopDown => top_down::<P, R, BITS>,
        Scan::BottomUp => bottom_up::<P, R, BITS>,
    }
}

/// Expands every state coded `at` (those `listed`, when the level was listed); every unreached
/// successor gets `next` (with its images). The work ticked on `latch`: the words (or listed
/// states) scanned and the successors generated.
#[inline(never)]
fn top_down<P: Indexed, R: Reduction<P>, const BITS: u32>(
    space: &P,
    reduction: &R,
    entries: &mut Packed,
    latch: &Latch,
    codes: Codes,
    listed: Option<&[R::Listed]>,
    frontier: &mut Frontier<R::Listed>,
) -> Result<Scanned, Limit> {
    let unreached = entries.unreached();
    let mut ticker = latch.ticker();
    let (mut found, mut generated) = (0u64, 0u64);
    // Returns the successors it generated.
    let mut expand = |entries: &mut Packed, frontier: &mut Frontier<R::Listed>, state| {
        let mut n = 0;
        space.successors(state, &mut |_, t| {
            n += 1;
            let j = space.index(t);
            if entries.get_in::<BITS>(j) == unreached {
                found += reach::<P, R, BITS>(space, reduction, entries, frontier, t, j, codes.next);
            }
        });
        n
    };
    let mut expanded = 0u64;
    if let Some(states) = listed {
        for (n, &listed) in states.iter().enumerate() {
            ticker.tick(n as u64 + generated)?;
            generated += expand(entries, frontier, reduction.unlist(space, listed));
        }
        expanded = states.len() as u64;
    } else {
        let mut cursor = Cursor(None);
        for word in 0..entries.words.len() {
            ticker.tick(word as u64 + generated)?;
            let mut hits = entries.lanes_equal(word, codes.at);
            while hits != 0 {
                let i = entries.lane_index(word, hits);
                hits &= hits - 1;
                let state = cursor.state(space, i);
                if reduction.expands(space, state) {
                    expanded += 1;
                    generated += expand(entries, frontier, state);
                }
            }
        }
    }
    Ok(Scanned {
        found,
        expanded,
        generated,
    })
}

/// Gives `next` to every unreached state with a successor coded `at` (and to its images).
/// Ticks `latch` as [`top_down`] does.
#[inline(never)]
fn bottom_up<P: Indexed, R: Reduction<P>, const BITS: u32>(
    space: &P,
    reduction: &R,
    entries: &mut Packed,
    latch: &Latch,
    codes: Codes,
    _listed: Option<&[R::Listed]>,
    frontier: &mut Frontier<R::Listed>,
) -> Result<Scanned, Limit> {
    let Codes { at, next } = codes;
    let unreached = entries.unreached();
    let (mut found, mut expanded, mut generated) = (0u64, 0u64, 0u64);
    let mut ticker = latch.ticker();
    let mut cursor = Cursor(None);
    for word in 0..entries.words.len() {
        ticker.tick(word as u64 + generated)?;
        let mut hits = entries.lanes_equal(word, unreached);
        while hits != 0 {
            let i = entries.lane_index(word, hits);
            hits &= hits - 1;
            // Images of a state reached earlier in this word were reached with it.
            if entries.get_in::<BITS>(i) != unreached {
                continue;
            }
            let state = cursor.state(space, i);
            if !reduction.expands(space, state) {
                continue;
            }
            expanded += 1;
            let seen: &Packed = entries;
            // The first neighbour at `at` settles it: the other moves are not generated.
            let near = space.any_successor(state, &mut |t| {
                generated += 1;
                seen.get_in::<BITS>(space.index(t)) == at
            });
            if near {
                found += reach::<P, R, BITS>(space, reduction, entries, frontier, state, i, next);
            }
        }
    }
    Ok(Scanned {
        found,
        expanded,
        generated,
    })
}

/// The last state a scan turned an index into: scans go up the index, so the next state is
/// found from it ([`Indexed::state_after`]), which is cheaper than an unrank when it is near.
struct Cursor<S>(Option<(u64, S)>);

impl<S: Copy> Cursor<S> {
    #[inline]
    fn state<P: Indexed<State = S>>(&mut self, space: &P, index: u64) -> S {
        let state = match self.0 {
            Some((at, from)) => space.state_after(at, from, index),
            None => space.state(index),
        };
        self.0 = Some((index, state));
        state
    }
}

/// Gives `code` to the unreached state `state` (at `index`) and to its unreached images, and
/// lists the orbit's representative while the level is listed; returns how many states that
/// reached. A free function over the build's parts, not a method: the
/// scans keep the table's address in a register only when no `&mut` to the whole build is live.
#[inline]
fn reach<P: Indexed, R: Reduction<P>, const BITS: u32>(
    space: &P,
    reduction: &R,
    entries: &mut Packed,
    frontier: &mut Frontier<R::Listed>,
    state: P::State,
    index: u64,
    code: u64,
) -> u64 {
    let unreached = entries.unreached();
    debug_assert_eq!(entries.get_in::<BITS>(index), unreached);
    entries.set_in::<BITS>(index, code);
    let mut found = 1;
    let representative = reduction.images(space, state, |image| {
        let j = space.index(image);
        if entries.get_in::<BITS>(j) == unreached {
            entries.set_in::<BITS>(j, code);
            found += 1;
        }
    });
    if frontier.listing() {
        frontier.push(reduction.list(space, representative));
    }
    found
}

/// `NIBBLES[b]`: bit `i` of the byte `b` moved to bit `4 i`.
const NIBBLES: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            table[b] |= ((b as u32 >> i) & 1) << (4 * i);
            i += 1;
        }
        b += 1;
    }
    table
};

/// [`spread`] for 4-bit entries (16 bits of `piece`), by two table look-ups.
#[inline]
fn spread_nibbles(piece: u64) -> u64 {
    NIBBLES[(piece & 0xff) as usize] as u64 | (NIBBLES[(piece >> 8 & 0xff) as usize] as u64) << 32
}

/// Moves bit `i` of `piece` (`64 / bits` bits) to bit `i * bits`, for `bits` a power of two:
/// each round spreads the low 32 bits to the even bits (doubling the spacing).
#[inline]
fn spread(piece: u64, bits: u32) -> u64 {
    let mut x = piece;
    let mut spacing = 1;
    while spacing < bits {
        x &= 0xffff_ffff;
        x = (x | x << 16) & 0x0000_ffff_0000_ffff;
        x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
        x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
        x = (x | x << 2) & 0x3333_3333_3333_3333;
        x = (x | x << 1) & 0x5555_5555_5555_5555;
        spacing *= 2;
    }
    x
}

/// An empty vector with room for `words` table words, whose memory the kernel is asked to back
/// with transparent huge pages (Linux `madvise(MADV_HUGEPAGE)`, for tables of 4 MiB and more).
///
/// Why: every estimate of a pattern database is a random read of a table far larger than the
/// caches; with 4 KiB pages nearly every such read also misses the TLB, and the page walk (in a
/// virtual machine, a walk of two page tables) costs as much as the read. With 2 MiB pages the
/// 3x3x3's 83 MiB need 42 TLB entries. Advice only: where the kernel refuses (THP disabled,
/// no huge page free) or on other systems the pages are plain, the contents the same.
fn huge_page_words(words: usize) -> Vec<u64> {
    let mut all: Vec<u64> = Vec::with_capacity(words);
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        const MADV_HUGEPAGE: i32 = 14;
        unsafe extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
        }
        let start = all.as_mut_ptr() as usize;
        let (first, end) = (
            start.next_multiple_of(HUGE),
            (start + words * 8) / HUGE * HUGE,
        );
        if words * 8 >= 2 * HUGE && end > first {
            // SAFETY: `first..end` lies inside the vector's allocation (page-aligned, as madvise
            // needs), which stays allocated and unmoved during the call; MADV_HUGEPAGE changes
            // only how the kernel backs the range, never its contents. The result is ignored:
            // refused advice leaves plain pages.
            unsafe { madvise(first as *mut std::ffi::c_void, end - first, MADV_HUGEPAGE) };
        }
    }
    all
}

/// Entries of `bits` bits packed into `u64` words; entry `i` is bits `(i % per) * bits ..` of
/// word `i / per`, where `per = 64 / bits`. Padding lanes past `len` hold the unreached code and
/// are masked out of every scan.
#[derive(Clone, Debug)]
struct Packed {
    bits: u32,
    /// log2 of the entries per word, and the all-ones code: kept rather than derived from
    /// `bits` on every access, which would divide by a run-time value in the hottest loop.
    per_word_log2: u32,
    unreached: u64,
    /// A 1 at the bottom of every lane.
    ones: u64,
    len: u64,
    words: Vec<u64>,
}

impl Packed {
    fn bytes_for(len: u128, bits: u32) -> u128 {
        len.div_ceil(64 / bits as u128) * 8
    }

    /// A table of `len` entries, all unreached.
    fn new(len: u64, bits: u32) -> Self {
        let per = 64 / bits as u64;
        let words = usize::try_from(len.div_ceil(per)).expect("checked against the budget");
        Packed {
            bits,
            per_word_log2: (64 / bits).trailing_zeros(),
            unreached: (1u64 << bits) - 1,
            ones: u64::MAX / ((1u64 << bits) - 1),
            len,
            words: {
                let mut all = huge_page_words(words);
                all.resize(words, u64::MAX);
                all
            },
        }
    }

    #[inline]
    fn unreached(&self) -> u64 {
        self.unreached
    }

    #[inline]
    fn per_word_log2(&self) -> u32 {
        self.per_word_log2
    }

    #[inline]
    fn get(&self, i: u64) -> u64 {
        let word = self.words[(i >> self.per_word_log2()) as usize];
        let shift = (i & ((1 << self.per_word_log2()) - 1)) as u32 * self.bits;
        (word >> shift) & self.unreached()
    }

    #[inline]
    fn set(&mut self, i: u64, value: u64) {
        let log2 = self.per_word_log2();
        let shift = (i & ((1 << log2) - 1)) as u32 * self.bits;
        let mask = self.unreached() << shift;
        let word = &mut self.words[(i >> log2) as usize];
        *word = (*word & !mask) | (value << shift);
    }

    /// [`get`](Self::get) for a table known to have `BITS`-bit entries: constant shifts and
    /// masks.
    #[inline(always)]
    fn get_in<const BITS: u32>(&self, i: u64) -> u64 {
        debug_assert_eq!(self.bits, BITS);
        let log2 = (64 / BITS).trailing_zeros();
        let word = self.words[(i >> log2) as usize];
        (word >> ((i & ((1 << log2) - 1)) as u32 * BITS)) & (u64::MAX >> (64 - BITS))
    }

    /// [`set`](Self::set) for a table known to have `BITS`-bit entries.
    #[inline(always)]
    fn set_in<const BITS: u32>(&mut self, i: u64, value: u64) {
        debug_assert_eq!(self.bits, BITS);
        let log2 = (64 / BITS).trailing_zeros();
        let shift = (i & ((1 << log2) - 1)) as u32 * BITS;
        let mask = (u64::MAX >> (64 - BITS)) << shift;
        let word = &mut self.words[(i >> log2) as usize];
        *word = (*word & !mask) | (value << shift);
    }

    /// The top bit of every lane of `word` whose entry equals `value`, others clear; padding lanes
    /// past `len` never match.
    #[inline]
    fn lanes_equal(&self, word: usize, value: u64) -> u64 {
        let ones = self.ones;
        let high = ones << (self.bits - 1);
        let low = !high;
        // A lane of `x` is zero exactly where the entry equals `value`. Adding `low` to a lane's low
        // bits carries into its top bit when they are non-zero, and never across lanes.
        let x = self.words[word] ^ (value * ones);
        let nonzero = (((x & low) + low) | x) & high;
        let mut hits = !nonzero & high;
        let per = 1u64 << self.per_word_log2;
        let first = word as u64 * per;
        if first + per > self.len {
            let valid = self.len - first; // lanes in use in the last word
            hits &= (1u64 << (valid * self.bits as u64)) - 1;
        }
        hits
    }

    /// The entry index of the lowest lane marked in `hits` (from [`Self::lanes_equal`]).
    #[inline]
    fn lane_index(&self, word: usize, hits: u64) -> u64 {
        let lane = hits.trailing_zeros() / self.bits;
        ((word as u64) << self.per_word_log2()) + lane as u64
    }

    /// The same entries at `bits` bits each, each code passed through `recode`; unreached still
    /// unreached. Ticks `latch` with the entries copied (a table of billions of entries takes
    /// seconds): `Err` when it says to stop.
    fn recoded(
        &self,
        bits: u32,
        recode: impl Fn(u64) -> u64,
        latch: &Latch,
    ) -> Result<Packed, Limit> {
        let mut other = Packed::new(self.len, bits);
        let unreached = self.unreached();
        let mut ticker = latch.ticker();
        for i in 0..self.len {
            ticker.tick(i)?;
            let code = self.get(i);
            if code != unreached {
                other.set(i, recode(code));
            }
        }
        Ok(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::StateSpace;

    #[test]
    fn lanes_equal_finds_exactly_the_matching_entries() {
        for bits in [2, 4, 8, 16, 32] {
            let mut p = Packed::new(37, bits);
            for i in (0..37).step_by(3) {
                p.set(i, i % 5 % p.unreached());
            }
            let values = [0, 1, 4, p.unreached()]
                .into_iter()
                .filter(|&v| v <= p.unreached());
            for value in values {
                let mut seen = Vec::new();
                for word in 0..p.words.len() {
                    let mut hits = p.lanes_equal(word, value);
                    while hits != 0 {
                        seen.push(p.lane_index(word, hits));
                        hits &= hits - 1;
                    }
                }
                let expected: Vec<u64> = (0..37).filter(|&i| p.get(i) == value).collect();
                assert_eq!(seen, expected, "bits {bits}, value {value}");
            }
        }
    }

    #[test]
    fn widening_keeps_every_entry() {
        let mut p = Packed::new(21, 4);
        for i in 0..21 {
            if i % 4 != 0 {
                p.set(i, i % 15);
            }
        }
        let latch = Latch::new(&Limits::default());
        let w = p.recoded(8, |code| code, &latch).unwrap();
        for i in 0..21 {
            let expected = if i % 4 == 0 { 255 } else { i % 15 };
            assert_eq!(w.get(i), expected);
        }
    }

    /// A path of `n` states 0 - 1 - ... - n-1; the goal is 0, so distances reach n - 1.
    struct Line(u64);
    impl StateSpace for Line {
        type State = u64;
        type Move = i8;
        fn successors(&self, s: u64, visit: &mut dyn FnMut(i8, u64)) {
            if s > 0 {
                visit(-1, s - 1);
            }
            if s + 1 < self.0 {
                visit(1, s + 1);
            }
        }
        fn is_goal(&self, s: u64) -> bool {
            s == 0
        }
    }
    impl Indexed for Line {
        fn size(&self) -> u128 {
            self.0 as u128
        }
        fn index(&self, s: u64) -> u64 {
            s
        }
        fn state(&self, i: u64) -> u64 {
            i
        }
    }
    impl Invertible for Line {
        fn inverse(&self, m: i8) -> i8 {
            -m
        }
    }
    impl GoalSet for Line {
        fn goals(&self, visit: &mut dyn FnMut(u64)) {
            visit(0)
        }
    }

    #[test]
    fn deep_spaces_widen_the_table() {
        let t = build(&Line(300), &Limits::default()).unwrap();
        assert_eq!(t.bits_per_entry(), 16);
        assert_eq!(t.max_distance(), Some(299));
        assert_eq!(t.distance(&Line(300), 299).unwrap(), Some(299));
        assert_eq!(t.reachable(), 300);
        assert_eq!(t.path(&Line(300), 20).unwrap().unwrap().len(), 20);
    }

    #[test]
    fn spread_puts_bit_i_at_lane_i() {
        for bits in [2u32, 4, 8, 16, 32] {
            let per = 64 / bits;
            for i in 0..per {
                assert_eq!(
                    spread(1 << i, bits),
                    1 << (i * bits),
                    "bits {bits}, bit {i}"
                );
            }
            let all = u64::MAX >> (64 - per);
            assert_eq!(spread(all, bits), u64::MAX / ((1u64 << bits) - 1));
        }
        for piece in (0..1u64 << 16).step_by(7).chain([0xffff]) {
            assert_eq!(spread_nibbles(piece), spread(piece, 4), "{piece:#x}");
        }
    }

    /// `n` bits; move `k` XORs bits `k` and `k + 1` (move `n - 1` bit `n - 1` alone); goal 0.
    /// The masks are a basis, so a state's distance is its number of basis vectors: up to `n`.
    struct Chain {
        n: u32,
        masks: Vec<u64>,
    }
    impl Chain {
        fn new(n: u32) -> Self {
            let masks = (0..n)
                .map(|k| if k + 1 < n { 3 << k } else { 1 << k })
                .collect();
            Chain { n, masks }
        }
    }
    impl StateSpace for Chain {
        type State = u64;
        type Move = u64;
        fn successors(&self, s: u64, visit: &mut dyn FnMut(u64, u64)) {
            for &m in &self.masks {
                visit(m, s ^ m);
            }
        }
        fn is_goal(&self, s: u64) -> bool {
            s == 0
        }
    }
    impl Indexed for Chain {
        fn size(&self) -> u128 {
            1 << self.n
        }
        fn index(&self, s: u64) -> u64 {
            s
        }
        fn state(&self, i: u64) -> u64 {
            i
        }
    }
    impl Invertible for Chain {
        fn inverse(&self, m: u64) -> u64 {
            m
        }
    }
    impl GoalSet for Chain {
        fn goals(&self, visit: &mut dyn FnMut(u64)) {
            visit(0)
        }
    }
    impl XorMoves for Chain {
        fn xor_masks(&self) -> &[u64] {
            &self.masks
        }
    }

    #[test]
    fn xor_build_widens_as_the_plain_build_does() {
        let limits = Limits::default();
        // Radius 14 (the 4-bit table widens anyway, not knowing level 15 is empty), 15, 17.
        for n in [14, 15, 17] {
            let chain = Chain::new(n);
            for width in [Width::Auto, Width::Mod3] {
                let plain = build_with(&chain, &limits, width).unwrap();
                let xor = build_xor_with(&chain, &limits, width).unwrap();
                assert_eq!(xor.max_distance(), Some(n));
                assert_eq!(xor.histogram(), plain.histogram());
                assert_eq!(xor.bits_per_entry(), plain.bits_per_entry());
                assert_eq!(xor.is_exact(), plain.is_exact());
                for i in 0..chain.size() as u64 {
                    assert_eq!(xor.code(i), plain.code(i), "n {n}, index {i}");
                }
            }
        }
        // Widening 4 -> 8 bits refused (bitsets 3 x 4 KiB beside the 16 KiB and 32 KiB
        // tables): Exact fails, naming all three.
        let chain = Chain::new(15);
        let limits = Limits {
            memory_budget: 3 * 4096 + 16384 + 32768 - 1,
            ..Limits::default()
        };
        assert!(matches!(
            build_xor_with(&chain, &limits, Width::Exact),
            Err(Limit::Memory { needed: 61440, .. })
        ));
    }

    #[test]
    fn the_budget_is_checked_before_allocating() {
        let limits = Limits {
            memory_budget: 100,
            ..Limits::default()
        };
        // Even 2 bits per state do not fit: the refusal names the 2-bit table's bytes.
        assert_eq!(
            build(&Line(1 << 40), &limits).unwrap_err(),
            Limit::Memory {
                needed: 1 << 38,
                budget: 100
            }
        );
        // An exact table must widen: 300 entries fit at 4 bits but not at 8 + 16.
        let limits = Limits {
            memory_budget: 500,
            ..Limits::default()
        };
        assert!(matches!(
            build_with(&Line(300), &limits, Width::Exact),
            Err(Limit::Memory { needed: 904, .. })
        ));
    }

    #[test]
    fn auto_width_turns_mod3_when_widening_does_not_fit() {
        let line = Line(300);
        let exact = build(&line, &Limits::default()).unwrap();
        // 4 -> 8 bits fits 500 bytes (152 + 304), 8 -> 16 does not (304 + 600): mod 3 instead.
        let limits = Limits {
            memory_budget: 500,
            ..Limits::default()
        };
        let t = build(&line, &limits).unwrap();
        assert!(!t.is_exact());
        assert_eq!(t.bits_per_entry(), 2);
        assert_eq!(t.histogram(), exact.histogram());
        for s in [0, 1, 2, 3, 14, 15, 254, 255, 256, 299] {
            assert_eq!(t.distance(&line, s).unwrap(), Some(s as u32));
            assert_eq!(t.path(&line, s).unwrap().unwrap().len(), s as usize);
        }
        // Too small for 4 bits three times over: mod 3 from the start.
        let limits = Limits {
            memory_budget: 400,
            ..Limits::default()
        };
        let t = build(&line, &limits).unwrap();
        assert_eq!((t.bits_per_entry(), t.bytes()), (2, 80));
        assert_eq!(t.distance(&line, 299).unwrap(), Some(299));
    }

    /// Tables of every width: 4 bits (Line(10)), 8 (Line(20)), 16 (Line(300)), mod 3.
    fn sample_tables() -> Vec<DistanceTable> {
        let mut tables: Vec<DistanceTable> = [10, 20, 300]
            .into_iter()
            .map(|n| build(&Line(n), &Limits::default()).unwrap())
            .collect();
        tables.push(build_with(&Line(37), &Limits::default(), Width::Mod3).unwrap());
        tables
    }

    #[test]
    fn serialization_round_trips() {
        let widths: Vec<u32> = sample_tables().iter().map(|t| t.bits_per_entry()).collect();
        assert_eq!(widths, vec![4, 8, 16, 2]);
        for t in sample_tables() {
            let bytes = t.to_bytes();
            assert_eq!(bytes.len() as u64, t.serialized_len());
            let back = DistanceTable::from_bytes(&bytes).unwrap();
            assert_eq!(back.to_bytes(), bytes);
            assert_eq!(back.histogram(), t.histogram());
            assert_eq!(back.is_exact(), t.is_exact());
            assert_eq!(back.stats(), t.stats());
            let line = Line(t.len());
            for s in 0..t.len() {
                assert_eq!(back.distance(&line, s).unwrap(), Some(s as u32));
            }
        }
    }

    #[test]
    fn every_truncation_and_trailing_bytes_are_refused() {
        let bytes = sample_tables()[1].to_bytes();
        for cut in 0..bytes.len() {
            assert!(
                DistanceTable::from_bytes(&bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        let err = DistanceTable::from_bytes(&longer).unwrap_err();
        assert!(err.contains("after the table"), "{err}");
    }

    #[test]
    fn a_table_that_does_not_fit_the_space_is_inconsistent_not_a_panic() {
        // A line of 10 states: the table of a line of 10 whose entries 3 and 7 are swapped
        // still counts right, so it reads back; its descents meet no closer state.
        let t = build(&Line(10), &Limits::default()).unwrap();
        let mut bytes = t.to_bytes();
        let words_at = FORMAT_HEADER as usize + 8 * t.histogram().len() + 8;
        let mut word = u64::from_le_bytes(bytes[words_at..words_at + 8].try_into().unwrap());
        word = (word & !(0xf << 12) & !(0xf << 28)) | (7 << 12) | (3 << 28);
        bytes[words_at..words_at + 8].copy_from_slice(&word.to_le_bytes());
        let forged = DistanceTable::from_bytes(&bytes).unwrap();
        for start in [3, 5, 7] {
            let err = forged.path(&Line(10), start).unwrap_err();
            assert!(err.0.contains("no successor is closer"), "{err}");
            assert!(forged.outcome(&Line(10), start).is_err());
        }
        assert_eq!(forged.path(&Line(10), 2).unwrap().unwrap().len(), 2);
    }

    #[test]
    fn corrupted_fields_are_refused() {
        let t = &sample_tables()[0]; // 10 entries of 4 bits: one word
        let good = t.to_bytes();
        let histogram_at = FORMAT_HEADER as usize;
        let words_at = histogram_at + 8 * t.histogram().len() + 8;
        type Corruption = Box<dyn Fn(&mut Vec<u8>)>;
        let cases: Vec<(&str, Corruption)> = vec![
            ("magic", Box::new(|b| b[0] ^= 1)),
            ("version", Box::new(|b| b[8] = 2)),
            ("bits per entry", Box::new(|b| b[12] = 3)),
            ("mod-3 flag", Box::new(|b| b[13] = 1)),
            ("mod-3 flag", Box::new(|b| b[14] = 1)),
            // 10 entries claimed as 100: the word count no longer matches.
            ("words for", Box::new(|b| b[16] = 100)),
            // A histogram level emptied.
            (
                "empty",
                Box::new(move |b| b[histogram_at..histogram_at + 8].fill(0)),
            ),
            // A huge level count: refused before allocating.
            (
                "announced",
                Box::new(move |b| b[histogram_at - 8..histogram_at].fill(0xff)),
            ),
            // A reached entry made unreached: the counts disagree.
            ("disagree", Box::new(move |b| b[words_at] |= 0x0f)),
            // The first entry (distance 0) given code 14, beyond the 10 levels.
            (
                "beyond the histogram",
                Box::new(move |b| b[words_at] = (b[words_at] & 0xf0) | 14),
            ),
            // A padding lane (entries 10..16) made reachable.
            ("padding", Box::new(move |b| b[words_at + 7] &= 0x0f)),
        ];
        assert!(DistanceTable::from_bytes(&good).is_ok());
        for (expected, corrupt) in cases {
            let mut bytes = good.clone();
            corrupt(&mut bytes);
            let err = DistanceTable::from_bytes(&bytes).unwrap_err();
            assert!(err.contains(expected), "{expected}: {err}");
        }
    }
}
