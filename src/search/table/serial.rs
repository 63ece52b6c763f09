//! A table on disk: [`DistanceTable::write_to`] writes a flat little-endian layout (the table
//! below the impl), [`DistanceTable::read_from`] reads it back in place and checks it,
//! [`ReadError`] says why a read gave no table.
//!
//! Trust nothing that was read: every field is checked before it is used (a count against the
//! bytes there before anything relies on it), and every entry is checked to be a code the
//! histogram has, so a lookup never returns a distance deeper than the table. What the checks
//! cannot see (a table of another space of the same size and depth) is found when it is used: a
//! descent that does not end at a goal is [`Inconsistent`](super::Inconsistent).
//!
//! Read in place: the words stay where the [`Payload`] has them (a cache file's mapping), so a
//! load copies nothing. The entries are checked in one pass at the speed of memory, split over
//! the cores and polling the time limit and Ctrl-C ([`codes_in_range`]).
//!
//! Trade-off: the histogram's counts are not recounted from the entries. Counting codes costs a
//! cycle or so per entry (about 0.2 s for the 15-puzzle's 519 million), ten times the pass above;
//! the file's checksum already says they are what the build wrote, and what a forged count could
//! mislead is a statistic (`visited`, `reachable`), never an answer.

use super::packed::{Packed, Words};
use super::{DistanceTable, MOD3_BITS};
use crate::cache::{Payload, ReadError, Stored, in_pieces};
use crate::limit::{Latch, Limit, Limits};
use crate::search::Stats;

/// The first bytes of a serialized table ([`DistanceTable::write_to`]).
const FORMAT_MAGIC: [u8; 8] = *b"SSDTABLE";
/// The version of the serialized layout; a reader refuses any other (and cache fingerprints
/// include it).
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the histogram: magic, version, bits, mod-3 flag, reserved, then `len`,
/// `expanded`, `generated`, `elapsed` (nanoseconds) and the histogram's length.
const FORMAT_HEADER: u64 = 16 + 5 * 8;

/// Serialization: a flat little-endian layout that [`DistanceTable::from_bytes`] checks field
/// by field, so a table read back is one that [`build`](super::build) could have returned.
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

    /// Reads a table written by [`write_to`](Self::write_to) from a byte slice (a copy of
    /// it); see [`read_from`](Self::read_from). No limit applies, so the error is
    /// [`ReadError::Invalid`].
    pub fn from_bytes(bytes: &[u8]) -> Result<DistanceTable, ReadError> {
        let unlimited = Latch::new(&Limits::default());
        Self::read_from(&Payload::copy_of(bytes), &unlimited)
    }

    /// The table in `payload`, as [`write_to`](Self::write_to) wrote it, its words used in
    /// place (the module docs), checking everything before it is trusted: magic and version, a
    /// valid width and a mod-3 flag that matches it (mod 3 is exactly 2 bits), counts that fit
    /// the bytes there and leave none over, a word count that matches the number of states,
    /// non-empty histogram levels that count no more than the states, padding lanes unreached,
    /// and every entry a code the histogram has (exact: below the number of levels).
    ///
    /// The error is one line naming the first check that failed; input that ends early is one.
    /// `latch` is polled as the entries are checked (a large table takes tens of milliseconds):
    /// a time limit or Ctrl-C stops the read with [`ReadError::Stopped`].
    pub fn read_from(payload: &Payload, latch: &Latch) -> Result<DistanceTable, ReadError> {
        let mut input = Reader {
            bytes: payload.bytes(),
            at: 0,
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
        // `count` checked that the words are there.
        let words = Words::from_le(payload.slice(input.at..input.at + 8 * words));
        input.at += 8 * words.len();
        if input.at != input.bytes.len() {
            let after = input.bytes.len() - input.at;
            return Err(format!("{after} bytes after the table").into());
        }
        if let Some(level) = histogram.iter().position(|&n| n == 0) {
            return Err(format!("histogram level {level} is empty").into());
        }
        let reachable = histogram
            .iter()
            .try_fold(0u64, |sum, &n| sum.checked_add(n))
            .filter(|&sum| sum <= len)
            .ok_or_else(|| format!("the histogram counts more than the {len} states"))?;
        let mut entries = Packed::built(0, bits, Vec::new());
        entries.len = len;
        entries.words = words;
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
        // Every code one the histogram has. Mod 3, every code of 2 bits is (0, 1, 2 or
        // unreached), and a histogram of fewer than 3 levels is not worth the pass.
        let codes = histogram.len() as u64;
        if !mod3 && let Some(word) = codes_in_range(&entries.words, bits, codes, latch)? {
            let at = (word as u64) << entries.per_word_log2();
            let (i, code) = (at..at + per)
                .map(|i| (i, entries.get(i)))
                .find(|&(_, code)| code >= codes && code != entries.unreached())
                .expect("the word has a code out of range");
            let why = format!("entry {i} has code {code}, beyond the histogram's {codes} levels");
            return Err(why.into());
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

/// Words checked between two polls of the latch, on one thread (4 MiB).
const CHECK_CHUNK: usize = 1 << 19;

/// The first word of `words` (entries of 4, 8, 16 or 32 bits) with a code that is neither below
/// `codes` nor the unreached code (all ones), or `None`: one pass, pieces on every core,
/// polling `latch` before each ([`in_pieces`]).
fn codes_in_range(
    words: &[u64],
    bits: u32,
    codes: u64,
    latch: &Latch,
) -> Result<Option<usize>, Limit> {
    let first_bad = |chunk: &[u64]| match bits {
        4 => first_out_of_range::<4>(chunk, codes),
        8 => first_out_of_range::<8>(chunk, codes),
        16 => first_out_of_range::<16>(chunk, codes),
        _ => first_out_of_range::<32>(chunk, codes),
    };
    let pieces = in_pieces(words, CHECK_CHUNK, latch, first_bad)?;
    let found = pieces
        .iter()
        .enumerate()
        .find_map(|(n, first)| first.map(|word| n * CHECK_CHUNK + word));
    Ok(found)
}

/// [`codes_in_range`] on one chunk, for `BITS`-bit entries: the whole chunk at once
/// ([`any_out_of_range`]), and only a chunk with a bad entry word by word.
fn first_out_of_range<const BITS: u32>(words: &[u64], codes: u64) -> Option<usize> {
    if !any_out_of_range::<BITS>(words, codes) {
        return None;
    }
    (0..words.len()).find(|&word| any_out_of_range::<BITS>(&words[word..word + 1], codes))
}

/// Whether an entry of `words` (`BITS` bits each) has a code `codes <= code < unreached`, that
/// is `code - codes` (wrapping, in the entry's width) below `unreached - codes`. The entries are
/// looked at as integers of their width (4-bit ones two to a byte) in whatever order memory has
/// them, without a branch, so that the compiler vectorises the pass: it runs at the speed of
/// memory, as the checksum does.
fn any_out_of_range<const BITS: u32>(words: &[u64], codes: u64) -> bool {
    let span = (u64::MAX >> (64 - BITS)) - codes;
    match BITS {
        4 => {
            let (codes, span) = (codes as u8, span as u8);
            let out = |nibble: u8| (nibble.wrapping_sub(codes) < span) as u8;
            let bytes = lanes::<u8>(words);
            bytes
                .iter()
                .fold(0, |bad, &b| bad | out(b & 15) | out(b >> 4))
                != 0
        }
        8 => any_lane_out(lanes::<u8>(words), codes as u8, span as u8),
        16 => any_lane_out(lanes::<u16>(words), codes as u16, span as u16),
        _ => any_lane_out(lanes::<u32>(words), codes as u32, span as u32),
    }
}

/// An unsigned integer that packed entries are viewed as: 8, 16 or 32 bits.
trait Lane: Copy {
    /// `self - codes`, wrapping, is below `span`.
    fn out_of_range(self, codes: Self, span: Self) -> bool;
}

macro_rules! lane {
    ($($t:ty),*) => {$(
        impl Lane for $t {
            #[inline(always)]
            fn out_of_range(self, codes: Self, span: Self) -> bool {
                self.wrapping_sub(codes) < span
            }
        }
    )*};
}
lane!(u8, u16, u32);

/// Whether a lane of `lanes` is [`out_of_range`](Lane::out_of_range).
fn any_lane_out<T: Lane>(lanes: &[T], codes: T, span: T) -> bool {
    lanes
        .iter()
        .fold(0u8, |bad, &code| bad | code.out_of_range(codes, span) as u8)
        != 0
}

/// `words` as integers of `T`'s width: every bit pattern of a word is one of `T`s.
fn lanes<T: Lane>(words: &[u64]) -> &[T] {
    let size = std::mem::size_of::<T>();
    debug_assert!(matches!(size, 1 | 2 | 4));
    // SAFETY: `T` is u8, u16 or u32 (the `Lane` types): no invalid bit patterns, an alignment
    // that divides a u64's, and `words`' bytes exactly, borrowed for as long as `words`.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<T>(), words.len() * 8 / size) }
}

/// A distance table is what the [`TableCache`](crate::cache::TableCache) stores.
impl Stored for DistanceTable {
    fn serialized_len(&self) -> u64 {
        DistanceTable::serialized_len(self)
    }

    fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        DistanceTable::write_to(self, out)
    }

    fn read_from(payload: &Payload, latch: &Latch) -> Result<DistanceTable, ReadError> {
        DistanceTable::read_from(payload, latch)
    }
}

/// A cursor over a serialized table whose reads fail, rather than panic, past the end.
struct Reader<'a> {
    bytes: &'a [u8],
    /// Bytes read so far.
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let bytes = self
            .bytes
            .get(self.at..self.at + N)
            .ok_or_else(|| format!("truncated at byte {}", self.at))?;
        self.at += N;
        Ok(bytes.try_into().expect("N bytes"))
    }

    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take::<8>()?))
    }

    /// A count of `u64` fields that follow; refused when the bytes left cannot hold them, so
    /// a corrupted count never makes the reader allocate or read past the end.
    fn count(&mut self, what: &str) -> Result<usize, String> {
        let n = self.u64()?;
        let left = (self.bytes.len() - self.at) / 8;
        if n > left as u64 {
            return Err(format!(
                "{n} {what} announced, only {left} words of data left"
            ));
        }
        Ok(n as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::table::{Width, build, build_with};
    use crate::toys::Line;

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
        assert!(
            matches!(&err, ReadError::Invalid(why) if why.contains("after the table")),
            "{err}"
        );
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
    fn the_range_check_finds_exactly_the_words_with_codes_out_of_range() {
        fn naive<const BITS: u32>(words: &[u64], codes: u64) -> Option<usize> {
            let mask = u64::MAX >> (64 - BITS);
            words.iter().position(|&word| {
                (0..64 / BITS).any(|lane| {
                    let code = (word >> (lane * BITS)) & mask;
                    code >= codes && code != mask
                })
            })
        }
        fn check<const BITS: u32>(random: &mut crate::random::Lcg) {
            let mask = u64::MAX >> (64 - BITS);
            for _ in 0..500 {
                let codes = random.below(mask as usize) as u64;
                // Mostly codes in range or unreached, now and then one near the boundaries.
                let words: Vec<u64> = (0..random.below(40))
                    .map(|_| {
                        (0..64 / BITS).fold(0u64, |word, lane| {
                            let pick = [0, codes.saturating_sub(1), codes, codes + 1, mask - 1];
                            let code = match random.below(60) {
                                k @ 0..5 => pick[k].min(mask),
                                5 => random.below(mask as usize + 1) as u64,
                                k if k < 30 => mask,
                                _ => random.below(codes.max(1) as usize) as u64,
                            };
                            word | code << (lane * BITS)
                        })
                    })
                    .collect();
                assert_eq!(
                    first_out_of_range::<BITS>(&words, codes),
                    naive::<BITS>(&words, codes),
                    "{BITS} bits, codes {codes}, words {words:x?}"
                );
            }
        }
        let mut random = crate::random::Lcg(11);
        check::<4>(&mut random);
        check::<8>(&mut random);
        check::<16>(&mut random);
        check::<32>(&mut random);
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
            // A histogram that counts more states than there are.
            (
                "counts more than",
                Box::new(move |b| b[histogram_at..histogram_at + 8].fill(0x7f)),
            ),
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
            assert!(err.to_string().contains(expected), "{expected}: {err}");
        }
    }
}
