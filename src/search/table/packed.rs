//! Packed entries: the table's storage, `bits` per entry in `u64` words, in huge pages.
//!
//! Entries of 2, 4, 8, 16 or 32 bits (a power of two, so that no entry straddles two words);
//! the all-ones code of the width means "unreached", and the padding lanes past the last entry
//! hold it too. Besides reading and writing one entry, [`Packed`] finds every entry of a word
//! that equals a code in a few word operations ([`Packed::lanes_equal`]), which is how a level
//! scan skips empty stretches, and copies itself to another width ([`Packed::recoded`]), which
//! is how a table widens or turns mod 3.
//!
//! The words are allocated in transparent huge pages where the kernel agrees
//! ([`filled`](crate::search::filled)), and filled under the run's limits: a lookup in a table far larger than the caches then rarely misses the
//! TLB too. A table loaded from the cache keeps its words where they lie, in the file's mapping
//! ([`Words`]: one type for both, so every lookup is the same code).
//!
//! A table being built holds its words in a vector of its own (`Packed<Vec<u64>>`, the
//! default), the only kind that is written; a finished table's are [`Words`] (`Packed<Words>`),
//! which are read only. So the type says that nothing writes a file's mapping, and a write in the
//! build's hottest loop is one store: when every `Words` could be written, each write first
//! checked whether its words were a mapping to copy (a copy on write that could reallocate, so
//! the words' address was reloaded after every store), and the scans' `reach` of the Shift 4 x 6
//! build took 55.2 M instructions instead of 40.9 M (measured when it was found; the history of BENCHMARKS.md in git).

use crate::cache::Payload;
use crate::limit::{Latch, Limit};
use std::ops::Deref;
use std::ptr::NonNull;

/// Entries of `bits` bits packed into `u64` words; entry `i` is bits `(i % per) * bits ..` of
/// word `i / per`, where `per = 64 / bits`. Padding lanes past `len` hold the unreached code and
/// are masked out of every scan. `W` holds the words: a build's own vector (written), or a
/// finished table's [`Words`] (read only; see the module docs).
#[derive(Clone, Debug)]
pub(super) struct Packed<W = Vec<u64>> {
    pub(super) bits: u32,
    /// log2 of the entries per word, and the all-ones code: kept rather than derived from
    /// `bits` on every access, which would divide by a run-time value in the hottest loop.
    per_word_log2: u32,
    unreached: u64,
    /// A 1 at the bottom of every lane.
    pub(super) ones: u64,
    pub(super) len: u64,
    pub(super) words: W,
}

impl Packed {
    /// The bytes of `len` entries of `bits` bits.
    pub(super) fn bytes_for(len: u128, bits: u32) -> u128 {
        len.div_ceil(64 / bits as u128) * 8
    }

    /// A table of `len` entries, all unreached: filled a block at a time under `latch` (a
    /// table of gigabytes takes seconds to fill; the time limit and Ctrl-C hold meanwhile).
    pub(super) fn new(len: u64, bits: u32, latch: &Latch) -> Result<Self, Limit> {
        let per = 64 / bits as u64;
        let words = usize::try_from(len.div_ceil(per)).expect("checked against the budget");
        let all = crate::search::filled(words, || u64::MAX, latch)?;
        Ok(Packed::with_words(len, bits, all))
    }

    /// The finished table of these entries (read only from now on).
    pub(super) fn finished(self) -> Packed<Words> {
        Packed::built(self.len, self.bits, self.words)
    }

    #[inline]
    fn set(&mut self, i: u64, value: u64) {
        let log2 = self.per_word_log2();
        let shift = (i & ((1 << log2) - 1)) as u32 * self.bits;
        let mask = self.unreached() << shift;
        let word = &mut self.words[(i >> log2) as usize];
        *word = (*word & !mask) | (value << shift);
    }

    /// [`set`](Self::set) for a table known to have `BITS`-bit entries.
    #[inline(always)]
    pub(super) fn set_in<const BITS: u32>(&mut self, i: u64, value: u64) {
        debug_assert_eq!(self.bits, BITS);
        let log2 = (64 / BITS).trailing_zeros();
        let shift = (i & ((1 << log2) - 1)) as u32 * BITS;
        let mask = (u64::MAX >> (64 - BITS)) << shift;
        let word = &mut self.words[(i >> log2) as usize];
        *word = (*word & !mask) | (value << shift);
    }
}

impl Packed<Words> {
    /// A finished table of `len` entries of `bits` bits, in `words` (built elsewhere, packed as
    /// here).
    pub(super) fn built(len: u64, bits: u32, words: Vec<u64>) -> Self {
        Packed::with_words(len, bits, Words::built(words))
    }
}

impl<W: Deref<Target = [u64]>> Packed<W> {
    fn with_words(len: u64, bits: u32, words: W) -> Self {
        Packed {
            bits,
            per_word_log2: (64 / bits).trailing_zeros(),
            unreached: (1u64 << bits) - 1,
            ones: u64::MAX / ((1u64 << bits) - 1),
            len,
            words,
        }
    }

    #[inline]
    pub(super) fn unreached(&self) -> u64 {
        self.unreached
    }

    #[inline]
    pub(super) fn per_word_log2(&self) -> u32 {
        self.per_word_log2
    }

    #[inline]
    pub(super) fn get(&self, i: u64) -> u64 {
        let word = self.words[(i >> self.per_word_log2()) as usize];
        let shift = (i & ((1 << self.per_word_log2()) - 1)) as u32 * self.bits;
        (word >> shift) & self.unreached()
    }

    /// [`get`](Self::get) for a table known to have `BITS`-bit entries: constant shifts and
    /// masks.
    #[inline(always)]
    pub(super) fn get_in<const BITS: u32>(&self, i: u64) -> u64 {
        debug_assert_eq!(self.bits, BITS);
        let log2 = (64 / BITS).trailing_zeros();
        let word = self.words[(i >> log2) as usize];
        (word >> ((i & ((1 << log2) - 1)) as u32 * BITS)) & (u64::MAX >> (64 - BITS))
    }

    /// The top bit of every lane of `word` whose entry equals `value`, others clear; padding lanes
    /// past `len` never match.
    #[inline]
    pub(super) fn lanes_equal(&self, word: usize, value: u64) -> u64 {
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
    pub(super) fn lane_index(&self, word: usize, hits: u64) -> u64 {
        let lane = hits.trailing_zeros() / self.bits;
        ((word as u64) << self.per_word_log2()) + lane as u64
    }

    /// The same entries at `bits` bits each, each code passed through `recode`; unreached still
    /// unreached. Ticks `latch` with the entries copied (a table of billions of entries takes
    /// seconds): `Err` when it says to stop.
    pub(super) fn recoded(
        &self,
        bits: u32,
        recode: impl Fn(u64) -> u64,
        latch: &Latch,
    ) -> Result<Packed, Limit> {
        let mut other = Packed::new(self.len, bits, latch)?;
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

/// A finished table's words: built in this process (a vector), or read in place from a cache
/// file's [`Payload`] (its mapping). Reads go through one pointer either way (no branch on where
/// the words are); nothing writes them (a build writes its own vector, [`Packed::finished`]
/// after), so nothing can write a file's mapping.
pub(super) struct Words {
    /// The first word and the number of words, of `owner`'s buffer (which never moves: the
    /// vector is never resized, the payload never unmapped while held).
    start: NonNull<u64>,
    len: usize,
    owner: Owner,
}

enum Owner {
    Built(Vec<u64>),
    InPlace(Payload),
}

// SAFETY: `Words` is a vector or a shared read-only payload (both Send and Sync) and a pointer
// into it, used only as `&[u64]` through `&self`.
unsafe impl Send for Words {}
// SAFETY: as above.
unsafe impl Sync for Words {}

impl Words {
    /// Words built in this process.
    pub(super) fn built(mut words: Vec<u64>) -> Words {
        Words {
            start: NonNull::new(words.as_mut_ptr()).expect("a vector's pointer is never null"),
            len: words.len(),
            owner: Owner::Built(words),
        }
    }

    /// The little-endian words of `payload`: in place when the machine and the alignment allow
    /// ([`Payload::words`]), else a converted copy in huge pages. `payload`'s length is a
    /// multiple of 8.
    pub(super) fn from_le(payload: Payload) -> Words {
        debug_assert_eq!(payload.len() % 8, 0);
        let Some(words) = payload.words() else {
            let mut copy = huge_page_words(payload.len() / 8);
            copy.extend(
                payload
                    .bytes()
                    .chunks_exact(8)
                    .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes"))),
            );
            return Words::built(copy);
        };
        Words {
            start: NonNull::from(words).cast(),
            len: words.len(),
            owner: Owner::InPlace(payload),
        }
    }

    /// The payload the words are read from in place; `None` for built words.
    pub(super) fn payload(&self) -> Option<&Payload> {
        match &self.owner {
            Owner::InPlace(payload) => Some(payload),
            Owner::Built(_) => None,
        }
    }
}

impl Deref for Words {
    type Target = [u64];

    #[inline(always)]
    fn deref(&self) -> &[u64] {
        // SAFETY: `start..start + len` are the owner's words, alive and unmoved while `self`
        // is; through `&self` nothing writes them.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl Clone for Words {
    fn clone(&self) -> Words {
        match &self.owner {
            Owner::Built(words) => Words::built(words.clone()),
            Owner::InPlace(payload) => Words {
                start: self.start,
                len: self.len,
                owner: Owner::InPlace(payload.clone()),
            },
        }
    }
}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Words")
            .field("len", &self.len)
            .field("in_place", &self.payload().is_some())
            .finish()
    }
}

/// An empty vector with room for `words` table words, whose memory the kernel is asked to back
/// with transparent huge pages (Linux `madvise(MADV_HUGEPAGE)`, for tables of 4 MiB and more).
///
/// Why: every estimate of a pattern database is a random read of a table far larger than the
/// caches; with 4 KiB pages nearly every such read also misses the TLB, and the page walk (in a
/// virtual machine, a walk of two page tables) costs as much as the read. With 2 MiB pages the
/// 3x3x3's 83 MiB need 42 TLB entries. Advice only: where the kernel refuses (THP disabled,
/// no huge page free) or on other systems the pages are plain, the contents the same.
pub(super) fn huge_page_words(words: usize) -> Vec<u64> {
    let mut all: Vec<u64> = Vec::with_capacity(words);
    crate::search::advise_huge_pages(all.as_mut_ptr() as usize, words * 8);
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limit::Limits;

    #[test]
    fn lanes_equal_finds_exactly_the_matching_entries() {
        for bits in [2, 4, 8, 16, 32] {
            let mut p = Packed::new(37, bits, &Latch::new(&Limits::default())).unwrap();
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
        let mut p = Packed::new(21, 4, &Latch::new(&Limits::default())).unwrap();
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
}
