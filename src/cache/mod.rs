//! Tables cached on disk, so that a table is built once per machine rather than once per run;
//! and the rules by which a file on disk is trusted (this page is the one place they are
//! written).
//!
//! A [`TableCache`] keeps one file per table in a directory: `$XDG_CACHE_HOME/statespace`, else
//! `~/.cache/statespace` ([`TableCache::default_dir`]), or one the caller names (the CLI's
//! `--cache-dir`). [`TableCache::load_or_build`] takes the table's [`Entry`] (a label and the
//! [`Fingerprint`] of what determines its contents), the run's limits, a check of a loaded table
//! against what it is to answer for, and a closure that builds it; it loads the file when a
//! valid one is there, else builds and saves it, and says which happened ([`Source`]).
//!
//! The cache knows bytes and fingerprints only: what it stores is any [`Stored`] payload, and it
//! depends on nothing above the [`limit`](crate::limit) floor. A distance table's fingerprint,
//! its check against the space and the one `load_or_build` every cached table goes through (the
//! `table` engine's, every pattern database, Shift's colour-mask tables and the HDU judge's) are
//! the table's: [`table::cached`](crate::search::table::cached).
//!
//! # Trust
//!
//! A file in the cache directory is untrusted input, even one this program wrote: another
//! version, another puzzle, another process, a full disk or a person may have put it there.
//!
//! *What names a table.* Its [`Fingerprint`]: a SHA-256 of exactly what determines the table's
//! contents (the space's size and index layout, its moves as transforms, its goal states, the
//! recipe, the format versions), never a puzzle's name or a file's path
//! ([`table::cached`](crate::search::table::cached) lists the fields). Two configs of one
//! puzzle share a file; a definition edited in place is another table. The file's name is the
//! [`Entry`]'s label (the recipe's) and the fingerprint in hex
//! (`pdb-3f0c...e1.table`).
//!
//! *What is checked on load*, in order; the first failure decides:
//!
//! 1. the path is a regular file (opened without blocking, so a FIFO or a device in its place is
//!    refused, never waited on), and its size fits the run's memory budget (else the run stops
//!    with [`Limit::Memory`], as a build of that size would); only then is it mapped;
//! 2. magic bytes, file format version ([`FORMAT_VERSION`]), reserved bytes zero;
//! 3. the stored fingerprint equals the one asked for;
//! 4. the payload's length equals what the file holds, and its CRC-32 the stored one (the one
//!    pass over every byte, on every core);
//! 5. the payload's own structure ([`Stored::read_from`]; a distance table's: widths, counts that
//!    fit the bytes, every entry a code the histogram has);
//! 6. the table against what it answers for (the caller's check; a distance table's is
//!    [`verify`](fn@crate::search::table::verify): size, goals at distance 0, the local rule of
//!    distances at random states and along random walks from the goals);
//! 7. nobody cut the file short while 2 to 6 read it ([`Payload::cut_short`]).
//!
//! *Used in place.* The file is mapped ([`Payload`]: private, read-only, in huge pages where the
//! page cache has them), checked once per load as above, and the table's lookups read the
//! mapping: a warm start copies nothing and allocates nothing for the table, and processes
//! that use one table share one copy of it in the page cache. The 15-puzzle's 550 MiB of pattern
//! databases load in tens of milliseconds, where reading them took seconds (BENCHMARKS.md).
//!
//! *A file changed under its mapping.* Our own writes never change a file in place (below), and a
//! mapping keeps the bytes of a file that is removed or replaced by rename. Another program can
//! still cut one short or rewrite it while a run has it mapped:
//!
//! - *cut short*: a read past the new end would kill the process with `SIGBUS`; instead it reads
//!   zeros ([`bus_error`]), and the table knows ([`Payload::cut_short`]). During the checks, the
//!   file is rejected (check 7). Afterwards, a pattern database's zeros are lower bounds (its
//!   search stays optimal); every distance or path asked of a table whose file was cut short is
//!   [`Inconsistent`](crate::search::table::Inconsistent), and its users discard it and build it
//!   again as for any inconsistency (below).
//! - *rewritten in place with other bytes of the same length* (what no tool of ours does; `cp` of
//!   the same table onto it writes the same entries): a run that has it mapped reads the new
//!   bytes from then on, unchecked. This is the residual risk of mapping, and the same trust as
//!   a person who can write the cache directory already has (a forged file whose checksum was
//!   fixed passes checks 1 to 5 too; check 6 samples). The next load checks the file afresh.
//!
//! *What happens on failure*: one warning line naming the file and the reason, the file is
//! removed, the table is rebuilt (and saved again). Never an answer from a table that failed a
//! check. A table that passed but later meets an inconsistency in use (a path descent that finds
//! no closer state: a few entries edited by hand, which sampling can miss) takes the same path
//! through [`TableCache::discard`], and the answer is computed again from a fresh build.
//!
//! *Saving* writes a temporary file (`.table-*.tmp`) in the cache directory and renames it into
//! place. Rename is atomic: a reader sees the old file or the new one, never a half-written one,
//! and two processes that build the same table at once each write their own temporary file; the
//! last rename wins and both files were whole, and a run that mapped the old file keeps reading
//! it. There is no `fsync`: after a crash the checksum catches a file whose data did not reach
//! the disk. A temporary file left by a process killed while writing is removed by the next save
//! once it is [`STALE_AFTER`] old. The file is written in 2 MiB pieces ([`WRITE_CHUNK`]), so that
//! the page cache holds it in huge pages and every later mapping of it uses them.
//!
//! *The cache never fails an answer*: a directory that cannot be created or written costs one
//! warning per [`TableCache`] and the table is returned unsaved ([`Source::BuiltNotSaved`]).
//! Only the build itself can fail ([`Limit`]).
//!
//! The library never prints: warnings go to the callback given to [`TableCache::new`].
//!
//! # The file
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SSTCACHE` |
//! | 4 | file format version ([`FORMAT_VERSION`]) |
//! | 4 | reserved, 0 |
//! | 32 | the fingerprint |
//! | 8 | the payload's length |
//! | 4 | CRC-32 (IEEE) of the payload |
//! | 4 | reserved, 0 |
//! | payload | the table, as its [`Stored::write_to`] lays it out |
//!
//! # Example
//!
//! ```
//! use statespace::cache::fingerprint::Content;
//! use statespace::cache::{Source, TableCache};
//! use statespace::limit::Limits;
//! use statespace::search::table::{self, cached, cached::Recipe};
//! use statespace::space::{Describe, GoalSet, Indexed, Invertible, StateSpace};
//! # struct Ring;
//! # impl StateSpace for Ring {
//! #     type State = u8;
//! #     type Move = i8;
//! #     fn successors(&self, s: u8, visit: &mut dyn FnMut(i8, u8)) {
//! #         visit(1, (s + 1) % 10);
//! #         visit(-1, (s + 9) % 10);
//! #     }
//! #     fn is_goal(&self, s: u8) -> bool { s == 0 }
//! # }
//! # impl Indexed for Ring {
//! #     fn size(&self) -> u128 { 10 }
//! #     fn index(&self, s: u8) -> u64 { s as u64 }
//! #     fn state(&self, i: u64) -> u8 { i as u8 }
//! # }
//! # impl Invertible for Ring { fn inverse(&self, m: i8) -> i8 { -m } }
//! # impl GoalSet for Ring { fn goals(&self, visit: &mut dyn FnMut(u8)) { visit(0) } }
//! # impl Describe for Ring { fn describe(&self, content: &mut Content) { content.u64(10); } }
//! // Ring: a ring of 10 states whose goal is 0 (as in the `table` module's example).
//! let dir = tempfile::tempdir().unwrap();
//! let cache = TableCache::new(Some(dir.path().into()), true, |w| eprintln!("{w}"));
//! let limits = Limits::default();
//! let recipe = Recipe::distance_table();
//! let build = || table::build(&Ring, &limits);
//!
//! let (t, source) = cached::load_or_build(&cache, &Ring, &recipe, &limits, build).unwrap();
//! assert_eq!(source, Source::Built);
//! let (again, source) = cached::load_or_build(&cache, &Ring, &recipe, &limits, build).unwrap();
//! assert_eq!(source, Source::Loaded);
//! assert_eq!(again.distance(&Ring, 7).unwrap(), t.distance(&Ring, 7).unwrap());
//! ```

pub mod bus_error;
pub mod fingerprint;
mod payload;
mod sha256;
mod temporary;
#[cfg(test)]
mod tests;

pub use fingerprint::Fingerprint;
pub use payload::{Payload, in_pieces};

use crate::limit::{Latch, Limit, Limits};
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use temporary::Temporary;

/// The first bytes of a cache file.
const MAGIC: [u8; 8] = *b"SSTCACHE";
/// The version of the cache file layout (header and payload); a file of any other is rebuilt.
pub const FORMAT_VERSION: u32 = 2;
/// The header's bytes: magic, version, reserved, fingerprint, payload length, CRC, reserved.
const HEADER: u64 = 8 + 4 + 4 + 32 + 8 + 4 + 4;
/// How old a temporary file must be before a save removes it as left by a killed process: far
/// longer than writing any table takes.
pub const STALE_AFTER: Duration = Duration::from_secs(3600);

/// Where [`TableCache::load_or_build`]'s table came from, for the caller's report
/// (`"table_loaded": true` exactly for [`Loaded`](Self::Loaded)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Read from a valid cache file.
    Loaded,
    /// Built, and saved for the next run.
    Built,
    /// Built, not saved: the cache is disabled or could not be written (a warning said why).
    BuiltNotSaved,
}

impl Source {
    /// Whether the table was read from the cache.
    pub fn is_loaded(self) -> bool {
        self == Source::Loaded
    }
}

/// What a cache file is filed and checked under: a word for the file's name and the
/// fingerprint of what determines the table's contents (module docs, *What names a table*).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// A word for the file's name (`table`, `pdb`); not part of the fingerprint.
    pub label: &'static str,
    /// What the file is checked to hold.
    pub fingerprint: Fingerprint,
}

impl Entry {
    /// The file name: the label, the fingerprint in hex, `.table`.
    pub fn file_name(&self) -> String {
        format!("{}-{}.table", self.label, self.fingerprint.hex())
    }
}

/// What a cache file holds: a table that writes itself as a payload and reads itself back from
/// the payload's bytes in place, checking its own structure (check 5 of the module docs).
pub trait Stored: Sized {
    /// The number of bytes [`write_to`](Self::write_to) writes.
    fn serialized_len(&self) -> u64;

    /// Writes the payload.
    fn write_to(&self, out: &mut impl Write) -> io::Result<()>;

    /// The table in `payload` (whose checksum was checked), trusting nothing in it. The table
    /// may keep `payload` (a clone shares the bytes) and use its bytes where they lie instead
    /// of copying them. `latch` is polled by any pass over a large payload, so that the time
    /// limit and Ctrl-C hold.
    fn read_from(payload: &Payload, latch: &Latch) -> Result<Self, ReadError>;
}

/// Why [`Stored::read_from`] returned no table.
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

/// A directory of cached tables; see the module docs. A clone is the same cache (its directory,
/// its warnings, its one directory warning): for a table built later, away from the call that
/// had the cache ([`Deferred`](crate::search::pdb::Deferred) databases).
#[derive(Clone)]
pub struct TableCache {
    /// `None`: caching is off (disabled, or no directory could be resolved).
    dir: Option<PathBuf>,
    warn: Arc<dyn Fn(&str) + Send + Sync>,
    /// Whether the directory's one warning was given.
    dir_warned: Arc<AtomicBool>,
}

impl std::fmt::Debug for TableCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableCache")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

impl TableCache {
    /// A cache in `dir`, or in [`default_dir`](Self::default_dir) when `dir` is `None`; no cache
    /// at all when `enabled` is false (the CLI's `--no-cache`). `warn` receives every warning,
    /// one line each, without a trailing newline.
    ///
    /// Enabled with no directory given and none resolvable (neither `XDG_CACHE_HOME` nor `HOME`
    /// set) warns once, here, and caches nothing.
    pub fn new(
        dir: Option<PathBuf>,
        enabled: bool,
        warn: impl Fn(&str) + Send + Sync + 'static,
    ) -> TableCache {
        let dir = if enabled {
            dir.or_else(Self::default_dir)
        } else {
            None
        };
        if enabled && dir.is_none() {
            warn(
                "table cache: no cache directory (set XDG_CACHE_HOME or HOME, or name one); tables are not saved",
            );
        }
        TableCache {
            dir,
            warn: Arc::new(warn),
            dir_warned: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A cache that never reads nor writes: every table is built ([`Source::BuiltNotSaved`]).
    pub fn disabled() -> TableCache {
        TableCache::new(None, false, |_| {})
    }

    /// The default directory from the process environment: see [`resolve_dir`].
    pub fn default_dir() -> Option<PathBuf> {
        resolve_dir(
            std::env::var_os("XDG_CACHE_HOME").as_deref(),
            std::env::var_os("HOME").as_deref(),
        )
    }

    /// Passes `line` to the callback warnings go to: for a caller about to build a table that
    /// takes long the first time, to say so (the library never prints).
    pub fn note(&self, line: &str) {
        (self.warn)(line)
    }

    /// The directory tables are cached in; `None` when caching is off.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The file that holds `entry`'s table; `None` when caching is off.
    pub fn path_for(&self, entry: &Entry) -> Option<PathBuf> {
        Some(self.dir.as_ref()?.join(entry.file_name()))
    }

    /// Whether a file for `entry` is there (not yet whether it is valid: loading checks that).
    pub fn holds(&self, entry: &Entry) -> bool {
        self.path_for(entry).is_some_and(|path| path.is_file())
    }

    /// `entry`'s table: loaded from its file when a valid one is there (every check of the
    /// module docs, `check` last: the table against what it is to answer for), else built by
    /// `build` and saved (atomically) for the next run.
    ///
    /// - A file larger than `limits`' memory budget is refused before it is read
    ///   ([`Limit::Memory`] with its size), as a build of that table would be.
    /// - An invalid file is reported through the warning callback (one line), removed and
    ///   replaced; a cache directory that cannot be written is reported once and the table
    ///   returned unsaved.
    /// - Only `build`'s error and the memory refusal are returned.
    pub fn load_or_build<T: Stored, E: std::fmt::Display>(
        &self,
        entry: &Entry,
        limits: &Limits,
        check: impl FnOnce(&T) -> Result<(), E>,
        build: impl FnOnce() -> Result<T, Limit>,
    ) -> Result<(T, Source), Limit> {
        if let Some(path) = self.path_for(entry)
            && let Some(table) = self.load(&path, &entry.fingerprint, limits, check)?
        {
            return Ok((table, Source::Loaded));
        }
        let table = build()?;
        let source = if self.store(entry, &table) {
            Source::Built
        } else {
            Source::BuiltNotSaved
        };
        Ok((table, source))
    }

    /// Removes `entry`'s file, with one warning line that says `why`: for a caller whose loaded
    /// table proved inconsistent in use (module docs). The caller then builds the table again
    /// (the next [`load_or_build`](Self::load_or_build) does).
    pub fn discard(&self, entry: &Entry, why: &str) {
        if let Some(path) = self.path_for(entry) {
            self.reject(&path, why);
        }
    }

    /// The table in `path` if it is there and passes every check, `accept` last; `Err` only for
    /// a file over the memory budget. A file that fails a check is reported and removed; a
    /// missing file is no news.
    fn load<T: Stored, E: std::fmt::Display>(
        &self,
        path: &Path,
        fingerprint: &Fingerprint,
        limits: &Limits,
        accept: impl FnOnce(&T) -> Result<(), E>,
    ) -> Result<Option<T>, Limit> {
        let file = match open_regular(path) {
            Ok(file) => file,
            Err(Unreadable::Absent) => return Ok(None),
            Err(Unreadable::NotRegular(kind)) => {
                self.reject(path, &format!("not a regular file ({kind})"));
                return Ok(None);
            }
            Err(Unreadable::Io(e)) => {
                self.warn(&format!(
                    "table cache: cannot read {}: {e}; rebuilding",
                    path.display()
                ));
                return Ok(None);
            }
        };
        let size = file.metadata().map(|m| m.len()).unwrap_or(0);
        limits.check_memory(size as u128)?;
        // Mapped (or read) only once its size fits: the bytes checked are the bytes used.
        let bytes = match Payload::of_file(&file, size) {
            Ok(bytes) => bytes,
            Err(_) => {
                self.reject(
                    path,
                    &format!("truncated while being read ({size} bytes at the start)"),
                );
                return Ok(None);
            }
        };
        // The checksum passes over every byte: the time limit and Ctrl-C hold meanwhile (a
        // stopped check says nothing against the file, which stays).
        let latch = Latch::new(limits);
        let checked = read_checked(&bytes, fingerprint, &latch).and_then(|table| {
            accept(&table).map_err(|why| format!("does not fit this puzzle: {why}"))?;
            // Cut short under the checks: some bytes checked were zeros, not the file's.
            if bytes.cut_short() {
                return Err("cut short by another program while being read".into());
            }
            Ok(table)
        });
        match checked {
            Ok(table) => Ok(Some(table)),
            Err(ReadError::Stopped(limit)) => Err(limit),
            Err(ReadError::Invalid(reason)) => {
                self.reject(path, &reason);
                Ok(None)
            }
        }
    }

    /// Removes `path` and says why, in one line.
    fn reject(&self, path: &Path, reason: &str) {
        let removed = match std::fs::remove_file(path) {
            Ok(()) => "removed".to_string(),
            Err(e) if is_absent(&e) => "removed".to_string(),
            Err(e) => format!("not removed ({e})"),
        };
        self.warn(&format!(
            "table cache: {}: {reason}; {removed}, rebuilding",
            path.display()
        ));
    }

    /// Saves `table` as `entry` (temporary file, then rename); `false`, after a warning, when it
    /// could not be saved, and `false` silently when caching is off. Removes stale temporary
    /// files first (module docs).
    fn store(&self, entry: &Entry, table: &impl Stored) -> bool {
        let Some(dir) = &self.dir else {
            return false;
        };
        let written = std::fs::create_dir_all(dir).and_then(|()| {
            temporary::remove_stale(dir);
            let mut temp = Temporary::new_in(dir)?;
            write_file(temp.file(), &entry.fingerprint, table)?;
            temp.persist(&dir.join(entry.file_name()))
        });
        match written {
            Ok(()) => true,
            Err(e) => {
                if !self.dir_warned.swap(true, Ordering::Relaxed) {
                    self.warn(&format!(
                        "table cache: cannot write to {}: {e}; tables are not saved",
                        dir.display()
                    ));
                }
                false
            }
        }
    }

    fn warn(&self, line: &str) {
        (self.warn)(line)
    }
}

/// The cache directory for the given environment values: `$XDG_CACHE_HOME/statespace` when it is
/// set to an absolute path (the XDG spec ignores an empty or relative one), else
/// `$HOME/.cache/statespace` when `HOME` is set and not empty, else `None`. A pure function of
/// its arguments, so it is tested without touching the process environment.
pub fn resolve_dir(xdg_cache_home: Option<&OsStr>, home: Option<&OsStr>) -> Option<PathBuf> {
    if let Some(xdg) = xdg_cache_home.map(Path::new)
        && xdg.is_absolute()
    {
        return Some(xdg.join("statespace"));
    }
    let home = home.filter(|h| !h.is_empty())?;
    Some(Path::new(home).join(".cache").join("statespace"))
}

/// Why a cache file could not be opened.
enum Unreadable {
    /// No such file (or no such directory).
    Absent,
    /// Something other than a regular file: its kind.
    NotRegular(&'static str),
    Io(io::Error),
}

/// Opens `path` for reading only if it is a regular file. The open does not block (a FIFO with
/// no writer would wait forever); the kind is checked on the opened file, so nothing can swap
/// the path between the check and the read.
fn open_regular(path: &Path) -> Result<File, Unreadable> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match is_absent(&e) {
            true => Unreadable::Absent,
            false => Unreadable::Io(e),
        })?;
    let kind = file.metadata().map_err(Unreadable::Io)?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    Err(Unreadable::NotRegular(if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a file"
    }))
}

/// Whether an open error means "no such file" (including a cache directory that does not
/// exist, or whose path runs through a file).
fn is_absent(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
    )
}

/// Writes the header and the payload to `file`: the checksum is computed while the payload
/// streams out, then written into the header in place. The file is written in whole
/// [`WRITE_CHUNK`]s ([`Chunked`]).
fn write_file(file: &mut File, fingerprint: &Fingerprint, table: &impl Stored) -> io::Result<()> {
    let mut out = Chunked {
        file: &mut *file,
        buffer: Vec::with_capacity(WRITE_CHUNK),
    };
    out.write_all(&MAGIC)?;
    out.write_all(&FORMAT_VERSION.to_le_bytes())?;
    out.write_all(&[0; 4])?;
    out.write_all(&fingerprint.0)?;
    out.write_all(&table.serialized_len().to_le_bytes())?;
    let checksum_at = HEADER - 8;
    out.write_all(&[0; 8])?; // checksum and reserved, filled in below
    let mut hashing = Hashing {
        inner: &mut out,
        crc: crc32fast::Hasher::new(),
    };
    table.write_to(&mut hashing)?;
    let checksum = hashing.crc.finalize();
    out.flush()?;
    drop(out);
    file.seek(SeekFrom::Start(checksum_at))?;
    file.write_all(&checksum.to_le_bytes())?;
    Ok(())
}

/// The bytes a save hands the kernel at a time: a huge page.
pub const WRITE_CHUNK: usize = 2 << 20;

/// A writer to a file that writes whole [`WRITE_CHUNK`]s at offsets that are multiples of it,
/// the last one shorter on [`flush`](Write::flush) (call it once, at the end).
///
/// Why: the page cache keeps a file in pieces the size of the writes that made it, when the
/// filesystem can (large folios; ext4 and XFS on Linux 6.x), and a mapping of the file then
/// uses huge pages exactly where a piece is 2 MiB and aligned. A table saved this way is mapped
/// in 2 MiB pages by every later run while it stays in the page cache, so its random lookups
/// rarely miss the TLB (as an anonymous table in huge pages, [`table`](crate::search::table)'s
/// `packed.rs`), and mapping it costs no page faults to speak of.
struct Chunked<'a> {
    file: &'a mut File,
    buffer: Vec<u8>,
}

impl Write for Chunked<'_> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let taken = data.len().min(WRITE_CHUNK - self.buffer.len());
        self.buffer.extend_from_slice(&data[..taken]);
        if self.buffer.len() == WRITE_CHUNK {
            self.file.write_all(&self.buffer)?;
            self.buffer.clear();
        }
        Ok(taken)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.write_all(&self.buffer)?;
        self.buffer.clear();
        self.file.flush()
    }
}

/// A writer that checksums what passes through it.
struct Hashing<T> {
    inner: T,
    crc: crc32fast::Hasher,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Runs checks 2 to 5 of the module docs on `file`'s bytes in place; the error is one line, or
/// the limit that stopped the checksum.
fn read_checked<T: Stored>(
    file: &Payload,
    fingerprint: &Fingerprint,
    latch: &Latch,
) -> Result<T, ReadError> {
    let bytes = file.bytes();
    let size = bytes.len() as u64;
    if size < HEADER {
        return Err(format!("truncated ({size} bytes)").into());
    }
    let header = &bytes[..HEADER as usize];
    let word = |at: usize| u32::from_le_bytes(header[at..at + 4].try_into().expect("4 bytes"));
    if header[..8] != MAGIC {
        return Err("not a table cache file (wrong magic bytes)".into());
    }
    let version = word(8);
    if version != FORMAT_VERSION {
        return Err(format!("cache format version {version}, expected {FORMAT_VERSION}").into());
    }
    if word(12) != 0 || word(HEADER as usize - 4) != 0 {
        return Err("reserved header bytes are not zero".into());
    }
    if header[16..48] != fingerprint.0 {
        return Err("holds another table (its fingerprint differs)".into());
    }
    let payload_len = u64::from_le_bytes(header[48..56].try_into().expect("8 bytes"));
    let checksum = word(56);
    if size - HEADER != payload_len {
        return Err(format!(
            "truncated or padded: {} payload bytes, header says {payload_len}",
            size - HEADER
        )
        .into());
    }
    // The checksum first: a damaged file is called damaged rather than invalid.
    let payload = file.slice(HEADER as usize..bytes.len());
    let actual = crc32(payload.bytes(), latch)?;
    if actual != checksum {
        return Err(
            format!("checksum mismatch (stored {checksum:08x}, contents {actual:08x})").into(),
        );
    }
    T::read_from(&payload, latch).map_err(|e| match e {
        ReadError::Invalid(why) => format!("invalid table: {why}").into(),
        stopped => stopped,
    })
}

/// Bytes the checksum hashes between two polls of the latch, on one thread.
const CRC_CHUNK: usize = 4 << 20;

/// The CRC-32 of `bytes`, pieces hashed on every core and combined ([`in_pieces`]):
/// the one pass over a loaded table's every byte, at the speed of memory (tens of milliseconds
/// for the 15-puzzle's 550 MiB). Polls `latch` before each piece.
fn crc32(bytes: &[u8], latch: &Latch) -> Result<u32, Limit> {
    let pieces = in_pieces(bytes, CRC_CHUNK, latch, |piece| {
        let mut crc = crc32fast::Hasher::new();
        crc.update(piece);
        crc
    })?;
    let whole = pieces
        .iter()
        .fold(crc32fast::Hasher::new(), |mut crc, piece| {
            crc.combine(piece);
            crc
        });
    Ok(whole.finalize())
}
