//! A cache file's bytes where they lie: [`Payload`], a shared read-only mapping of the file (or,
//! failing that, a copy in memory), which a loaded table keeps and reads in place.
//!
//! Why mapped: a table of hundreds of megabytes read into memory costs a copy through the kernel
//! and as much fresh memory, zeroed first, in every process. Mapped, the file's pages in the page
//! cache *are* the table: a warm start touches them once (the checksum) and copies nothing, and
//! two processes that use the same table share one copy of it.
//!
//! How: a private read-only mapping (`MAP_PRIVATE`, `PROT_READ`) of the file's size as opened,
//! made only once that size fits the run's memory budget (and nothing past the header is read
//! before the header's length is checked against it), advised to use huge pages
//! (`MADV_HUGEPAGE`: a file read from disk through the mapping comes in as 2 MiB pages where
//! the filesystem can, and every lookup then rarely misses the TLB) and registered with the
//! bus-error repair ([`bus_error`](super::bus_error)), which keeps a file cut short by another
//! program from killing the process. A mapping that cannot be made (a filesystem that does not
//! map, no repair slot free) falls back to reading the file into memory: the same bytes, the
//! same checks, no sharing.
//!
//! A mapped payload's bytes are little-endian table words at 8-byte-aligned offsets (the
//! layouts put them there), so on a little-endian machine a table uses them as `u64`s in place
//! ([`Payload::words`]); elsewhere it converts a copy.

use super::bus_error::{self, Registration};
use crate::limit::{Latch, Limit};
use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::sync::Arc;

/// Bytes of a cache file, in place: see the module docs. Cloning shares them.
#[derive(Clone, Debug)]
pub struct Payload {
    backing: Arc<Backing>,
    /// The bytes of `backing` this payload is.
    range: Range<usize>,
}

#[derive(Debug)]
enum Backing {
    /// A mapping of the file. The registration is dropped first (field order), so that the
    /// repair never touches an address after it is unmapped.
    Mapped {
        registration: Registration,
        map: memmap2::Mmap,
        /// The last non-zero word of the file as mapped: its offset and value (`None`: the
        /// file is all zeros), read again to see whether the file was cut short
        /// ([`Payload::cut_short`]).
        last_word: Option<(usize, u64)>,
    },
    /// The bytes in memory, in words so that they are 8-byte aligned; `len` of them are used.
    Heap { words: Vec<u64>, len: usize },
}

impl Backing {
    fn bytes(&self) -> &[u8] {
        match self {
            Backing::Mapped { map, .. } => map,
            Backing::Heap { words, len } => {
                // SAFETY: `words` holds at least `len` initialised bytes (`len <= 8 *
                // words.len()`), u8 has no alignment requirement, and the slice borrows `words`.
                unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), *len) }
            }
        }
    }
}

impl Payload {
    /// The first `len` bytes of `file` (a regular file of at least that size), mapped, or read
    /// into memory where mapping fails (module docs). An error is a read's: the file ended
    /// early or could not be read.
    pub(super) fn of_file(file: &File, len: u64) -> io::Result<Payload> {
        let len = usize::try_from(len).map_err(|_| io::Error::other("larger than memory"))?;
        if let Some(mapped) = Self::map(file, len) {
            return Ok(mapped);
        }
        let mut words = vec![0u64; len.div_ceil(8)];
        // SAFETY: as in `Backing::bytes`, the bytes of `words`, writable through `&mut`.
        let bytes = unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), len) };
        (&*file).read_exact(bytes)?;
        Ok(Payload::whole(Backing::Heap { words, len }))
    }

    /// `file`'s first `len` bytes mapped and registered, or `None`.
    fn map(file: &File, len: usize) -> Option<Payload> {
        if len == 0 {
            return None;
        }
        // SAFETY: the mapping is read-only and private; what another program can still do to
        // the file under it (cut it short, rewrite it) is handled as the module docs say.
        let map = unsafe {
            memmap2::MmapOptions::new()
                .len(len)
                .map_copy_read_only(file)
        }
        .ok()?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage); // advice: refused, the pages are plain
        let registration = bus_error::register(map.as_ptr(), map.len())?;
        // Read once registered: a file cut short already reads zeros here, not a bus error.
        let last_word = (0..map.len() / 8).rev().find_map(|word| {
            let at = 8 * word;
            let value = u64::from_ne_bytes(map[at..at + 8].try_into().expect("8 bytes"));
            (value != 0).then_some((at, value))
        });
        Some(Payload::whole(Backing::Mapped {
            registration,
            map,
            last_word,
        }))
    }

    /// A copy of `bytes` in memory (a table read from a byte slice).
    pub fn copy_of(bytes: &[u8]) -> Payload {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        for (word, chunk) in words.iter_mut().zip(bytes.chunks(8)) {
            let mut le = [0u8; 8];
            le[..chunk.len()].copy_from_slice(chunk);
            *word = u64::from_ne_bytes(le);
        }
        Payload::whole(Backing::Heap {
            words,
            len: bytes.len(),
        })
    }

    fn whole(backing: Backing) -> Payload {
        let range = 0..backing.bytes().len();
        Payload {
            backing: Arc::new(backing),
            range,
        }
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.backing.bytes()[self.range.clone()]
    }

    /// The number of bytes.
    pub fn len(&self) -> usize {
        self.range.len()
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.range.is_empty()
    }

    /// The bytes `range` of this payload, sharing them. Panics when `range` is not inside.
    pub fn slice(&self, range: Range<usize>) -> Payload {
        assert!(
            range.start <= range.end && range.end <= self.len(),
            "inside the payload"
        );
        Payload {
            backing: self.backing.clone(),
            range: self.range.start + range.start..self.range.start + range.end,
        }
    }

    /// The bytes as little-endian `u64` words, in place: `Some` on a little-endian machine when
    /// they start 8-byte aligned and are whole words (module docs).
    pub fn words(&self) -> Option<&[u64]> {
        if cfg!(target_endian = "big") {
            return None;
        }
        // SAFETY: every bit pattern is a valid u64; align_to returns only the aligned middle.
        let (before, words, after) = unsafe { self.bytes().align_to::<u64>() };
        (before.is_empty() && after.is_empty()).then_some(words)
    }

    /// Whether the bytes are a mapping of the file (else a copy in memory).
    pub fn is_mapped(&self) -> bool {
        matches!(*self.backing, Backing::Mapped { .. })
    }

    /// Whether another program cut the mapped file short while it was in use, so that bytes
    /// past its new end read as zeros: a read faulted past the end ([`bus_error`]'s mark), or
    /// the file's last non-zero word reads otherwise now. Always `false` for a copy in memory.
    ///
    /// Why both: a file cut to a length inside a page keeps that page, its bytes past the end
    /// zeroed, and reading them faults nothing; every such byte lies at or before the last
    /// non-zero word (bytes after it were zeros already), so a cut that changed anything
    /// zeroed that word or put it past the end (its read faults, and reads 0). Costs a load.
    ///
    /// [`bus_error`]: super::bus_error
    pub fn cut_short(&self) -> bool {
        match &*self.backing {
            Backing::Mapped {
                registration,
                map,
                last_word,
            } => {
                let moved = last_word.is_some_and(|(at, value)| {
                    // SAFETY: `at + 8 <= map.len()`, inside the live mapping; volatile so that
                    // the read is made now, whatever was read before.
                    let now =
                        unsafe { std::ptr::read_volatile(map.as_ptr().add(at).cast::<u64>()) };
                    now != value
                });
                moved || registration.cut_short()
            }
            Backing::Heap { .. } => false,
        }
    }
}

/// Runs `pass` over `items` cut into pieces of `piece` items (the last one shorter), spread over
/// the machine's cores, and returns its results in the pieces' order; polls `latch` before each
/// piece. For the passes over every byte of a loaded table (its checksum, its entries' check),
/// which run at the speed of memory.
///
/// The threads are the calling one and scoped threads of their own, each with a run of
/// consecutive pieces, not rayon's pool: a load may run inside a rayon task that holds a lock
/// (a table kept behind a mutex, loaded on first use), and a thread waiting in rayon may take on
/// another task that wants the same lock.
pub fn in_pieces<T: Sync, R: Send>(
    items: &[T],
    piece: usize,
    latch: &Latch,
    pass: impl Fn(&[T]) -> R + Sync,
) -> Result<Vec<R>, Limit> {
    let pieces: Vec<&[T]> = items.chunks(piece.max(1)).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per_thread = pieces.len().div_ceil(cores).max(1);
    let run = |mine: &[&[T]]| -> Result<Vec<R>, Limit> {
        mine.iter()
            .map(|piece| {
                latch.check()?;
                Ok(pass(piece))
            })
            .collect()
    };
    let mut runs = pieces.chunks(per_thread);
    let first = runs.next().unwrap_or(&[]);
    std::thread::scope(|scope| {
        let others: Vec<_> = runs.map(|mine| scope.spawn(|| run(mine))).collect();
        let mut results = run(first)?;
        for other in others {
            // A panic in a pass is the caller's, as if it had run on this thread.
            let theirs = other
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            results.extend(theirs?);
        }
        Ok(results)
    })
}
