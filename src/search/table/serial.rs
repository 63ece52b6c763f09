//! A table on disk: [`DistanceTable::write_to`] writes a flat little-endian layout (the table
//! below the impl), [`DistanceTable::read_from`] reads it back and checks it, [`ReadError`] says
//! why a read gave no table.
//!
//! Trust nothing that was read: every field is checked before it is used (a count before
//! anything is allocated for it), and every entry is counted against the histogram, so a table
//! that loads is one the build could have produced. What the checks cannot see (a table of
//! another space of the same size and depth) is found when it is used: a descent that does not
//! end at a goal is [`Inconsistent`](super::Inconsistent). The words are streamed both ways, a
//! few KiB at a time, and the read polls the run's time limit and Ctrl-C, for a table of
//! gigabytes takes seconds.

use super::packed::{Packed, huge_page_words};
use super::{DistanceTable, MOD3_BITS};
use crate::cache::{ReadError, Stored};
use crate::limit::{Latch, Limits, Ticker};
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

    /// Reads a table written by [`write_to`](Self::write_to) from a byte slice; see
    /// [`read_from`](Self::read_from). No limit applies, so the error is
    /// [`ReadError::Invalid`].
    pub fn from_bytes(bytes: &[u8]) -> Result<DistanceTable, ReadError> {
        let mut input = bytes;
        let unlimited = Latch::new(&Limits::default());
        Self::read_from(&mut input, bytes.len() as u64, &unlimited)
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

/// A distance table is what the [`TableCache`](crate::cache::TableCache) stores.
impl Stored for DistanceTable {
    fn serialized_len(&self) -> u64 {
        DistanceTable::serialized_len(self)
    }

    fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        DistanceTable::write_to(self, out)
    }

    fn read_from(
        input: &mut impl std::io::Read,
        len: u64,
        latch: &Latch,
    ) -> Result<DistanceTable, ReadError> {
        DistanceTable::read_from(input, len, latch)
    }
}

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
        ticker: &mut Ticker,
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
            assert!(err.to_string().contains(expected), "{expected}: {err}");
        }
    }
}
