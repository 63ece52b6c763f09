//! Compact bounds: a pattern database's exact distances kept as lower bounds in 2 bits an entry
//! ([`CompactBounds`]), for tables that 4 bits would not fit in memory: the 3x3x3's table of the
//! edge flips, the corner twists and the middle-layer edges' and up-layer corners' slots (vcube's
//! and nxopt's), 9.86 G entries by symmetry class, takes 2.3 GiB instead of 4.6.
//!
//! # The coding
//!
//! A 64-byte line holds a floor byte and 252 entries of 2 bits (the idea of twsearch's and
//! nxopt's tables: the fallback in the entry's own line, so that a look-up is still one read far
//! from the caches):
//!
//! | code | the bound |
//! |---|---|
//! | 1, 2 | `base`, `base + 1`: the distance itself |
//! | 3 | `base + 2`: the distance is that or more (or the entry is unreached) |
//! | 0 | the line's floor: the least distance below `base` among the line's entries |
//!
//! Every bound is at most the distance, so a search over them stays admissible and its answers
//! optimal. What is lost is the distances past `base + 2` and, below `base`, the gap down to the
//! line's floor; `base` is chosen from the exact table ([`choose_base`]): of the candidates near
//! the deepest distance, the one whose bounds add up to the most over a sample of lines.
//!
//! Trade-off: the exact table is built first (4 bits an entry: 4.6 GiB for the 3x3x3's) and
//! converted, then dropped: the build's peak is both tables, the search's memory the compact one.
//! Only the compact table is cached.
//!
//! # Trust
//!
//! A table read back is checked line by line ([`Stored::read_from`]: every floor below `base`,
//! or equal to it in a line with no entry coded 0) and against the space ([`verify_bounds`]):
//! every goal at 0 and, along random walks from the goals, every state's code fits its
//! successors' (an entry at `base` has a successor below it, none past `base + 1`; and so on).
//! A table of another space fails at once; what the walks miss, a search meets as a bound that
//! is too high, which no check short of the build can see: the fingerprint says which space and
//! which build the file claims, the checksum that it is what was written.

use super::packed::{Words, huge_page_words};
use super::recipe::Recipe;
use super::verify::fresh_seed;
use super::{DistanceTable, Inconsistent};
use crate::cache::fingerprint::{Content, Fingerprint};
use crate::cache::{Entry, Payload, ReadError, Source, Stored, TableCache, in_pieces};
use crate::limit::{Latch, Limit, Limits};
use crate::random::Lcg;
use crate::space::{Describe, GoalSet, Indexed, Invertible};

/// Entries in a 64-byte line, after its floor byte (4 entries' bits).
pub const PER_LINE: u64 = 252;

/// Words in a line.
const LINE_WORDS: usize = 8;

/// The first bytes of a serialized table.
const MAGIC: [u8; 8] = *b"SSBOUNDS";

/// The version of the layout and the coding; part of every compact table's fingerprint.
pub const COMPACT_VERSION: u32 = 1;

/// States checked along random walks from the goals when a table is loaded.
const WALK_STEPS: usize = 2048;

/// A pattern database's distances as lower bounds, 2 bits an entry (see the module docs).
#[derive(Clone, Debug)]
pub struct CompactBounds {
    words: Words,
    len: u64,
    base: u8,
    /// How many entries the exact table had at each distance.
    histogram: Vec<u64>,
}

impl CompactBounds {
    /// The bounds of the exact `table`, with the base [`choose_base`] picks; the conversion is
    /// split over the cores and polls `limits`. Panics unless `table` is exact.
    pub fn from_table(table: &DistanceTable, limits: &Limits) -> Result<CompactBounds, Limit> {
        Self::with_base(table, choose_base(table), limits)
    }

    /// The bounds of the exact `table` with `base` (at least 1).
    pub fn with_base(
        table: &DistanceTable,
        base: u8,
        limits: &Limits,
    ) -> Result<CompactBounds, Limit> {
        assert!(
            table.is_exact() && base >= 1,
            "exact distances, base 1 or more"
        );
        let len = table.len();
        let lines = len.div_ceil(PER_LINE) as usize;
        limits.check_memory(lines as u128 * 64)?;
        let latch = Latch::new(limits);
        let mut words = huge_page_words(lines * LINE_WORDS);
        words.resize(lines * LINE_WORDS, 0);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // Pieces of 2^14 lines (4 M entries), taken in turn by the cores.
        let pieces: Vec<(usize, &mut [u64])> = words
            .chunks_mut(LINE_WORDS << 14)
            .enumerate()
            .map(|(n, piece)| (n << 14, piece))
            .collect();
        let next = std::sync::Mutex::new(pieces.into_iter());
        std::thread::scope(|scope| -> Result<(), Limit> {
            let workers: Vec<_> = (0..cores)
                .map(|_| {
                    scope.spawn(|| -> Result<(), Limit> {
                        loop {
                            let piece = next.lock().expect("never poisoned").next();
                            let Some((first, piece)) = piece else {
                                return Ok(());
                            };
                            latch.check()?;
                            for (n, line) in piece.chunks_exact_mut(LINE_WORDS).enumerate() {
                                code_line(table, base, (first + n) as u64, line);
                            }
                        }
                    })
                })
                .collect();
            for worker in workers {
                worker.join().expect("a conversion worker panicked")?;
            }
            Ok(())
        })?;
        Ok(CompactBounds {
            words: Words::built(words),
            len,
            base,
            histogram: table.histogram(),
        })
    }

    /// The lower bound at `index`: at most its distance (module docs). Out of range: 0.
    #[inline]
    pub fn bound(&self, index: u64) -> u32 {
        if index >= self.len {
            return 0;
        }
        let line = (index / PER_LINE) as usize * LINE_WORDS;
        let (code, floor) = code_in(&self.words[line..line + LINE_WORDS], index % PER_LINE);
        match code {
            0 => floor,
            c => u32::from(self.base) + c as u32 - 1,
        }
    }

    /// The code at `index` (0-3, module docs).
    fn code(&self, index: u64) -> u64 {
        let line = (index / PER_LINE) as usize * LINE_WORDS;
        code_in(&self.words[line..line + LINE_WORDS], index % PER_LINE).0
    }

    /// Starts loading the line of `index` into the caches (see [`DistanceTable::prefetch`]).
    #[inline]
    pub fn prefetch(&self, index: u64) {
        if index < self.len {
            super::super::prefetch(&self.words[(index / PER_LINE) as usize * LINE_WORDS]);
        }
    }

    /// The entries covered.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether no entry is covered.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The distance the first exact code stands for.
    pub fn base(&self) -> u32 {
        self.base.into()
    }

    /// How many entries the exact table had at each distance.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    /// The bytes the table holds.
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    /// The bytes of the compact table of `len` entries.
    pub fn bytes_for(len: u128) -> u128 {
        len.div_ceil(u128::from(PER_LINE)) * 64
    }

    /// Whether the entries are read in place from a cache file's mapping.
    pub fn is_mapped(&self) -> bool {
        self.words.payload().is_some_and(|p| p.is_mapped())
    }

    /// Whether the table's file was cut short while in use (see
    /// [`DistanceTable::cut_short`]): bounds past its new end read 0, low but never wrong.
    pub fn cut_short(&self) -> bool {
        self.words.payload().is_some_and(|p| p.cut_short())
    }
}

/// The code of entry `at` of a line, and the line's floor.
#[inline(always)]
fn code_in(line: &[u64], at: u64) -> (u64, u32) {
    let pos = at + 4;
    let code = (line[(pos / 32) as usize] >> (pos % 32 * 2)) & 3;
    (code, (line[0] & 0xFF) as u32)
}

/// Codes line `n` of `table` into `line` (8 words, zeroed).
fn code_line(table: &DistanceTable, base: u8, n: u64, line: &mut [u64]) {
    let base = u64::from(base);
    let mut floor = base;
    let first = n * PER_LINE;
    for at in 0..PER_LINE {
        let index = first + at;
        let code = match table.code(index) {
            Some(d) if d < base => {
                floor = floor.min(d);
                0
            }
            Some(d) if d <= base + 1 => d - base + 1,
            // Deeper, unreached, or padding past the end.
            _ => 3,
        };
        let pos = at + 4;
        line[(pos / 32) as usize] |= code << (pos % 32 * 2);
    }
    line[0] |= floor;
}

/// The base of `table`'s compact bounds: of the distances from the deepest minus 4 to the
/// deepest minus 1 (at least 1), the one whose bounds add up to the most over every 61st line
/// (a sample that crosses the table's structure).
pub fn choose_base(table: &DistanceTable) -> u8 {
    let deepest = table.max_distance().unwrap_or(0).min(250);
    let candidates = (deepest.saturating_sub(4).max(1)..=deepest.saturating_sub(1).max(1))
        .map(|b| b as u8)
        .collect::<Vec<_>>();
    let lines = table.len().div_ceil(PER_LINE);
    let total = |base: u8| -> u64 {
        let mut sum = 0;
        let mut line = [0u64; LINE_WORDS];
        for n in (0..lines).step_by(61) {
            line.fill(0);
            code_line(table, base, n, &mut line);
            for at in 0..PER_LINE.min(table.len() - n * PER_LINE) {
                let (code, floor) = code_in(&line, at);
                sum += match code {
                    0 => u64::from(floor),
                    c => u64::from(base) + c - 1,
                };
            }
        }
        sum
    };
    candidates
        .into_iter()
        .max_by_key(|&b| (total(b), std::cmp::Reverse(b)))
        .unwrap_or(1)
}

/// Serialization: a flat little-endian layout, checked field by field and line by line when
/// read back.
///
/// | bytes | field |
/// |---|---|
/// | 8 | magic `SSBOUNDS` |
/// | 4 | [`COMPACT_VERSION`] |
/// | 1 | `base` |
/// | 3 | reserved, 0 |
/// | 8 | entries covered (`len`) |
/// | 8 + 8 per distance | the exact table's histogram |
/// | 8 + 8 per word | the number of words, then the lines |
impl Stored for CompactBounds {
    fn serialized_len(&self) -> u64 {
        16 + 8 + 8 + 8 * self.histogram.len() as u64 + 8 + self.bytes()
    }

    fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        out.write_all(&MAGIC)?;
        out.write_all(&COMPACT_VERSION.to_le_bytes())?;
        out.write_all(&[self.base, 0, 0, 0])?;
        out.write_all(&self.len.to_le_bytes())?;
        out.write_all(&(self.histogram.len() as u64).to_le_bytes())?;
        for count in &self.histogram {
            out.write_all(&count.to_le_bytes())?;
        }
        out.write_all(&(self.words.len() as u64).to_le_bytes())?;
        for chunk in self.words.chunks(1 << 12) {
            let bytes: Vec<u8> = chunk.iter().flat_map(|w| w.to_le_bytes()).collect();
            out.write_all(&bytes)?;
        }
        Ok(())
    }

    fn read_from(payload: &Payload, latch: &Latch) -> Result<Self, ReadError> {
        let bytes = payload.bytes();
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], ReadError> {
            let field = bytes
                .get(at..at + n)
                .ok_or(ReadError::Invalid("the file ends inside its header".into()))?;
            at += n;
            Ok(field)
        };
        let u64_of = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
        if take(8)? != MAGIC {
            return Err("not a compact bounds table".into());
        }
        let version = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
        if version != COMPACT_VERSION {
            return Err(format!("compact bounds version {version}, not {COMPACT_VERSION}").into());
        }
        let fields = take(4)?;
        let base = fields[0];
        if base == 0 || base > 250 || fields[1..] != [0, 0, 0] {
            return Err(format!("base {base} or reserved bytes out of range").into());
        }
        let len = u64_of(take(8)?);
        let levels = u64_of(take(8)?);
        if levels > 256 {
            return Err(format!("{levels} distances in the histogram, more than 256").into());
        }
        let mut histogram = Vec::with_capacity(levels as usize);
        for _ in 0..levels {
            histogram.push(u64_of(take(8)?));
        }
        let words = u64_of(take(8)?);
        let lines = len.div_ceil(PER_LINE);
        if words != lines * LINE_WORDS as u64 || (bytes.len() - at) as u64 != words * 8 {
            return Err(format!("{words} words for {len} entries ({lines} lines)").into());
        }
        if histogram.iter().try_fold(0u64, |s, &c| s.checked_add(c)) > Some(len) {
            return Err("the histogram counts more entries than the table has".into());
        }
        let words = Words::from_le(payload.slice(at..bytes.len()));
        let bad = in_pieces(&words, LINE_WORDS << 14, latch, |piece| {
            piece
                .chunks_exact(LINE_WORDS)
                .position(|line| !line_valid(line, base))
        })
        .map_err(ReadError::Stopped)?;
        if let Some((n, line)) = bad.iter().enumerate().find_map(|(n, p)| p.map(|l| (n, l))) {
            let line = (n << 14) + line;
            return Err(format!("line {line}: a floor that is not below the base").into());
        }
        Ok(CompactBounds {
            words,
            len,
            base,
            histogram,
        })
    }
}

/// A line's floor is below `base`, or equal to it where no entry is coded 0 (no floor used).
fn line_valid(line: &[u64], base: u8) -> bool {
    let floor = (line[0] & 0xFF) as u8;
    if floor < base {
        return true;
    }
    // Per word, a 1 in each 2-bit lane that holds code 0 (the floor byte's lanes left out).
    let zeros = |w: u64| !(w | w >> 1) & 0x5555_5555_5555_5555;
    floor == base && zeros(line[0]) & !0xFF == 0 && line[1..].iter().all(|&w| zeros(w) == 0)
}

/// Checks `bounds` against `space` (module docs, "Trust"); the error is one line.
pub fn verify_bounds<S: Indexed + Invertible + GoalSet + ?Sized>(
    space: &S,
    bounds: &CompactBounds,
) -> Result<(), Inconsistent> {
    let fail = |why: String| Err(Inconsistent(why));
    if u128::from(bounds.len) != space.size() {
        return fail(format!(
            "covers {} states, the space has {}",
            bounds.len,
            space.size()
        ));
    }
    let mut goals = Vec::new();
    let mut wrong = None;
    space.goals(&mut |goal| {
        let index = space.index(goal);
        if wrong.is_none() && bounds.bound(index) != 0 {
            wrong = Some(index);
        }
        if goals.len() < 8 {
            goals.push(goal);
        }
    });
    if let Some(index) = wrong {
        return fail(format!("the goal at index {index} has a bound above 0"));
    }
    let mut random = Lcg(fresh_seed());
    let mut next = Vec::new();
    for start in &goals {
        let mut state = *start;
        for _ in 0..WALK_STEPS / goals.len() {
            let index = space.index(state);
            let code = bounds.code(index);
            next.clear();
            space.successors(state, &mut |_, s| next.push(s));
            let codes = next.iter().map(|&s| bounds.code(space.index(s)));
            // The codes a neighbour may have (one move changes the distance by at most one),
            // and the one some neighbour must have (one move closer), by this state's code.
            let (allowed, needed): (&[u64], Option<u64>) = match code {
                0 => (&[0, 1], None),
                1 => (&[0, 1, 2], Some(0)),
                2 => (&[1, 2, 3], Some(1)),
                _ => (&[2, 3], None),
            };
            let mut found = needed.is_none();
            for c in codes {
                if !allowed.contains(&c) {
                    return fail(format!(
                        "index {index} coded {code} has a neighbour coded {c}"
                    ));
                }
                found |= Some(c) == needed;
            }
            if !found {
                return fail(format!(
                    "index {index} coded {code} has no neighbour one closer"
                ));
            }
            match next.len() {
                0 => break,
                n => state = next[random.below(n)],
            }
        }
    }
    Ok(())
}

/// The compact bounds of the table `recipe` makes of `space`, through the cache: loaded when a
/// valid file is there ([`entry`]) and [`verify_bounds`] accepts it, else made by `build` (the
/// exact table converted: [`PatternDatabase::build_compact`]) and saved.
///
/// [`PatternDatabase::build_compact`]: crate::search::pdb::PatternDatabase::build_compact
pub fn load_or_build_bounds<S>(
    cache: &TableCache,
    space: &S,
    recipe: &Recipe,
    limits: &Limits,
    build: impl FnOnce() -> Result<CompactBounds, Limit>,
) -> Result<(CompactBounds, Source), Limit>
where
    S: Indexed + Invertible + GoalSet + Describe + ?Sized,
{
    let check = |bounds: &CompactBounds| verify_bounds(space, bounds);
    cache.load_or_build(&entry(space, recipe), limits, check, build)
}

/// The cache entry of the compact bounds of the table `recipe` makes of `space`: the exact
/// table's fingerprint ([`cached::fingerprint`](super::cached::fingerprint)) with the coding's
/// version.
pub fn entry<S>(space: &S, recipe: &Recipe) -> Entry
where
    S: Indexed + GoalSet + Describe + ?Sized,
{
    let exact: Fingerprint = super::cached::fingerprint(space, recipe);
    let mut content = Content::new("statespace compact bounds");
    content
        .u64(u64::from(COMPACT_VERSION))
        .bytes(exact.hex().as_bytes());
    Entry {
        label: "bounds",
        fingerprint: content.finish(),
    }
}

#[cfg(test)]
mod tests;
