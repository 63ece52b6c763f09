//! Distance tables cached on disk, so that a table is built once per machine rather than once
//! per run; and the rules by which a file on disk is trusted (this page is the one place they
//! are written).
//!
//! A [`TableCache`] keeps one file per table in a directory: `$XDG_CACHE_HOME/statespace`, else
//! `~/.cache/statespace` ([`TableCache::default_dir`]), or one the caller names (the CLI's
//! `--cache-dir`). [`TableCache::load_or_build`] takes the space a table is of, the [`Recipe`]
//! that says how it is built from it, the run's limits and a closure that builds it; it loads the
//! file when a valid one is there, else builds and saves it, and says which happened
//! ([`Source`]). Every table the project caches goes through it: the `table` engine's, every
//! pattern database, Shift's colour-mask tables and the HDU judge's.
//!
//! # Trust
//!
//! A file in the cache directory is untrusted input, even one this program wrote: another
//! version, another puzzle, another process, a full disk or a person may have put it there.
//!
//! *What names a table.* Its [`Fingerprint`]: a SHA-256 of exactly what determines the table's
//! contents (the space's size and index layout, its moves as transforms, its goal states, the
//! recipe, the format versions), never a puzzle's name or a file's path ([`fingerprint`] lists
//! the fields). Two configs of one puzzle share a file; a definition edited in place is another
//! table. The file's name is the recipe's label and the fingerprint in hex
//! (`pdb-3f0c...e1.table`).
//!
//! *What is checked on load*, in order; the first failure decides:
//!
//! 1. the path is a regular file (opened without blocking, so a FIFO or a device in its place is
//!    refused, never waited on), and its size fits the run's memory budget (else the run stops
//!    with [`Limit::Memory`], as a build of that size would);
//! 2. magic bytes, file format version ([`FORMAT_VERSION`]), reserved bytes zero;
//! 3. the stored fingerprint equals the one asked for;
//! 4. the payload's length equals what the file holds, and its CRC-32 the stored one;
//! 5. the payload's own structure ([`DistanceTable::read_from`]: widths, counts, every entry
//!    accounted for by the histogram);
//! 6. the table against the space ([`verify()`]): size, goals at distance 0, the local rule of
//!    distances at random states and along random walks from the goals.
//!
//! The file is read, not memory-mapped: a file truncated or rewritten by another program while it
//! is read fails check 4 or 5 instead of killing the process with `SIGBUS`.
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
//! last rename wins and both files were whole. There is no `fsync`: after a crash the checksum
//! catches a file whose data did not reach the disk. A temporary file left by a process killed
//! while writing is removed by the next save once it is [`STALE_AFTER`] old.
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
//! | payload | the table, as [`DistanceTable::write_to`] lays it out |
//!
//! # Example
//!
//! ```
//! use statespace::cache::{Recipe, Source, TableCache};
//! use statespace::cache::fingerprint::Content;
//! use statespace::search::{table, Limits};
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
//! let (t, source) = cache.load_or_build(&Ring, &recipe, &limits, build).unwrap();
//! assert_eq!(source, Source::Built);
//! let (again, source) = cache.load_or_build(&Ring, &recipe, &limits, build).unwrap();
//! assert_eq!(source, Source::Loaded);
//! assert_eq!(again.distance(&Ring, 7).unwrap(), t.distance(&Ring, 7).unwrap());
//! ```

pub mod fingerprint;
pub mod verify;

pub use fingerprint::{Fingerprint, Recipe};
pub use verify::verify;

use crate::limit::{Latch, Limit, Limits};
use crate::search::table::{DistanceTable, ReadError};
use crate::space::{Describe, GoalSet, Indexed, Invertible};
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

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

/// A directory of cached distance tables; see the module docs.
pub struct TableCache {
    /// `None`: caching is off (disabled, or no directory could be resolved).
    dir: Option<PathBuf>,
    warn: Box<dyn Fn(&str) + Send + Sync>,
    /// Whether the directory's one warning was given.
    dir_warned: AtomicBool,
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
            warn: Box::new(warn),
            dir_warned: AtomicBool::new(false),
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

    /// The file that holds the table `recipe` makes of `space`; `None` when caching is off.
    pub fn path_for<S>(&self, space: &S, recipe: &Recipe) -> Option<PathBuf>
    where
        S: Indexed + GoalSet + Describe + ?Sized,
    {
        let fingerprint = fingerprint::of(space, recipe);
        self.file(&fingerprint, recipe)
    }

    /// Whether a file for the table `recipe` makes of `space` is there (not yet whether it is
    /// valid: loading checks that).
    pub fn holds<S>(&self, space: &S, recipe: &Recipe) -> bool
    where
        S: Indexed + GoalSet + Describe + ?Sized,
    {
        self.path_for(space, recipe)
            .is_some_and(|path| path.is_file())
    }

    fn file(&self, fingerprint: &Fingerprint, recipe: &Recipe) -> Option<PathBuf> {
        Some(self.dir.as_ref()?.join(file_name(fingerprint, recipe)))
    }

    /// The table `recipe` makes of `space`: loaded from its file when a valid one is there (every
    /// check of the module docs), else built by `build` and saved (atomically) for the next run.
    ///
    /// - A file larger than `limits`' memory budget is refused before it is read
    ///   ([`Limit::Memory`] with its size), as a build of that table would be.
    /// - An invalid file is reported through the warning callback (one line), removed and
    ///   replaced; a cache directory that cannot be written is reported once and the table
    ///   returned unsaved.
    /// - Only `build`'s error and the memory refusal are returned.
    pub fn load_or_build<S>(
        &self,
        space: &S,
        recipe: &Recipe,
        limits: &Limits,
        build: impl FnOnce() -> Result<DistanceTable, Limit>,
    ) -> Result<(DistanceTable, Source), Limit>
    where
        S: Indexed + Invertible + GoalSet + Describe + ?Sized,
    {
        let fingerprint = fingerprint::of(space, recipe);
        if let Some(path) = self.file(&fingerprint, recipe)
            && let Some(table) = self.load(&path, &fingerprint, limits, |table| {
                verify(space, table, recipe)
            })?
        {
            return Ok((table, Source::Loaded));
        }
        let table = build()?;
        let source = if self.store(&fingerprint, recipe, &table) {
            Source::Built
        } else {
            Source::BuiltNotSaved
        };
        Ok((table, source))
    }

    /// Removes the file of the table `recipe` makes of `space`, with one warning line that says
    /// `why`: for a caller whose loaded table proved inconsistent in use (module docs). The
    /// caller then builds the table again (the next [`load_or_build`](Self::load_or_build)
    /// does).
    pub fn discard<S>(&self, space: &S, recipe: &Recipe, why: &str)
    where
        S: Indexed + GoalSet + Describe + ?Sized,
    {
        if let Some(path) = self.path_for(space, recipe) {
            self.reject(&path, why);
        }
    }

    /// The table in `path` if it is there and passes every check, `accept` last; `Err` only for
    /// a file over the memory budget. A file that fails a check is reported and removed; a
    /// missing file is no news.
    fn load(
        &self,
        path: &Path,
        fingerprint: &Fingerprint,
        limits: &Limits,
        accept: impl FnOnce(&DistanceTable) -> Result<(), String>,
    ) -> Result<Option<DistanceTable>, Limit> {
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
        // Reading a large table takes seconds: the time limit and Ctrl-C hold meanwhile (a
        // stopped read says nothing against the file, which stays).
        let latch = Latch::new(limits);
        let checked = read_checked(file, size, fingerprint, &latch).and_then(|table| {
            accept(&table).map_err(|why| format!("does not fit this puzzle: {why}"))?;
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

    /// Saves `table` under `fingerprint` (temporary file, then rename); `false`, after a
    /// warning, when it could not be saved, and `false` silently when caching is off. Removes
    /// stale temporary files first (module docs).
    fn store(&self, fingerprint: &Fingerprint, recipe: &Recipe, table: &DistanceTable) -> bool {
        let Some(dir) = &self.dir else {
            return false;
        };
        let written = std::fs::create_dir_all(dir).and_then(|()| {
            remove_stale_temporaries(dir);
            let mut temp = tempfile::Builder::new()
                .prefix(".table-")
                .suffix(".tmp")
                .tempfile_in(dir)?;
            write_file(temp.as_file_mut(), fingerprint, table)?;
            temp.persist(dir.join(file_name(fingerprint, recipe)))
                .map_err(|e| e.error)?;
            Ok(())
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

/// The file name of a table: the recipe's label, the fingerprint in hex, `.table`.
pub fn file_name(fingerprint: &Fingerprint, recipe: &Recipe) -> String {
    format!("{}-{}.table", recipe.label, fingerprint.hex())
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

/// Removes the temporary files in `dir` that no save has touched for [`STALE_AFTER`]: left by a
/// process killed while writing. Best effort: a file another process removes first is fine.
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with(".table-") && name.ends_with(".tmp")) {
            continue;
        }
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|modified| modified.elapsed().ok())
            .is_some_and(|age| age >= STALE_AFTER);
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Writes the header and the payload to `file`: the checksum is computed while the payload
/// streams out, then written into the header in place.
fn write_file(file: &mut File, fingerprint: &Fingerprint, table: &DistanceTable) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(64 << 10, &mut *file);
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

/// A writer or reader that checksums what passes through it.
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

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
}

/// Reads `file` (of `size` bytes) and runs checks 2 to 5 of the module docs; the error is one
/// line, or the limit that stopped the read.
fn read_checked(
    file: File,
    size: u64,
    fingerprint: &Fingerprint,
    latch: &Latch,
) -> Result<DistanceTable, ReadError> {
    let truncated = || format!("truncated ({size} bytes)");
    if size < HEADER {
        return Err(truncated().into());
    }
    let mut input = BufReader::with_capacity(64 << 10, file);
    let mut header = [0u8; HEADER as usize];
    input.read_exact(&mut header).map_err(|_| truncated())?;
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
    let mut payload = Hashing {
        inner: input.take(payload_len),
        crc: crc32fast::Hasher::new(),
    };
    let table = match DistanceTable::read_from(&mut payload, payload_len, latch) {
        Err(ReadError::Stopped(limit)) => return Err(ReadError::Stopped(limit)),
        table => table,
    };
    // Read what a failed structure check left, so that the checksum covers the whole payload
    // and a damaged file is called damaged rather than invalid.
    let drained = io::copy(&mut payload, &mut io::sink());
    if drained.is_err() || payload.inner.limit() != 0 {
        return Err(format!("truncated while being read ({size} bytes at the start)").into());
    }
    let actual = payload.crc.finalize();
    if actual != checksum {
        return Err(
            format!("checksum mismatch (stored {checksum:08x}, contents {actual:08x})").into(),
        );
    }
    table.map_err(|e| format!("invalid table: {e}").into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::table;
    use crate::space::StateSpace;
    use fingerprint::Content;
    use std::sync::{Arc, Barrier, Mutex};

    /// A ring of `n` states; a move steps `step` either way; the goal is `goal`.
    #[derive(Clone, Copy)]
    struct Ring {
        n: u64,
        step: u64,
        goal: u64,
    }
    const RING: Ring = Ring {
        n: 1000,
        step: 1,
        goal: 0,
    };
    impl StateSpace for Ring {
        type State = u64;
        type Move = i8;
        fn successors(&self, s: u64, visit: &mut dyn FnMut(i8, u64)) {
            visit(1, (s + self.step) % self.n);
            visit(-1, (s + self.n - self.step) % self.n);
        }
        fn is_goal(&self, s: u64) -> bool {
            s == self.goal
        }
    }
    impl Indexed for Ring {
        fn size(&self) -> u128 {
            self.n as u128
        }
        fn index(&self, s: u64) -> u64 {
            s
        }
        fn state(&self, i: u64) -> u64 {
            i
        }
    }
    impl Invertible for Ring {
        fn inverse(&self, m: i8) -> i8 {
            -m
        }
    }
    impl GoalSet for Ring {
        fn goals(&self, visit: &mut dyn FnMut(u64)) {
            visit(self.goal)
        }
    }
    impl Describe for Ring {
        fn describe(&self, content: &mut Content) {
            content
                .str("ring")
                .u64(self.n)
                .u64(self.step)
                .u64(self.goal);
        }
    }

    /// A ring that describes itself as [`RING`] whatever it is: a plugin whose description
    /// forgets a parameter. The fingerprint's measured parts must still tell them apart.
    struct Forgetful(Ring);
    impl StateSpace for Forgetful {
        type State = u64;
        type Move = i8;
        fn successors(&self, s: u64, visit: &mut dyn FnMut(i8, u64)) {
            self.0.successors(s, visit)
        }
        fn is_goal(&self, s: u64) -> bool {
            self.0.is_goal(s)
        }
    }
    impl Indexed for Forgetful {
        fn size(&self) -> u128 {
            self.0.size()
        }
        fn index(&self, s: u64) -> u64 {
            s
        }
        fn state(&self, i: u64) -> u64 {
            i
        }
    }
    impl GoalSet for Forgetful {
        fn goals(&self, visit: &mut dyn FnMut(u64)) {
            self.0.goals(visit)
        }
    }
    impl Describe for Forgetful {
        fn describe(&self, content: &mut Content) {
            RING.describe(content)
        }
    }

    fn recipe() -> Recipe {
        Recipe::distance_table()
    }

    fn limits() -> Limits {
        Limits::default()
    }

    fn build_of(ring: Ring) -> impl Fn() -> Result<DistanceTable, Limit> {
        move || table::build(&ring, &Limits::default())
    }

    fn load_or_build(cache: &TableCache, ring: Ring) -> (DistanceTable, Source) {
        cache
            .load_or_build(&ring, &recipe(), &limits(), build_of(ring))
            .unwrap()
    }

    /// The table's bytes without the build's elapsed time (bytes 40..48), which differs from
    /// one build to the next.
    fn content(t: &DistanceTable) -> Vec<u8> {
        let mut bytes = t.to_bytes();
        bytes[40..48].fill(0);
        bytes
    }

    /// A cache in `dir` whose warnings are collected.
    fn collecting(dir: &Path) -> (TableCache, Arc<Mutex<Vec<String>>>) {
        let warnings = Arc::new(Mutex::new(Vec::new()));
        let sink = warnings.clone();
        let cache = TableCache::new(Some(dir.to_path_buf()), true, move |w| {
            sink.lock().unwrap().push(w.to_string())
        });
        (cache, warnings)
    }

    fn taken(warnings: &Mutex<Vec<String>>) -> Vec<String> {
        std::mem::take(&mut *warnings.lock().unwrap())
    }

    fn files_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_table_is_built_once_then_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, warnings) = collecting(dir.path());
        let (built, source) = load_or_build(&cache, RING);
        assert_eq!(source, Source::Built);
        let path = cache.path_for(&RING, &recipe()).unwrap();
        assert!(path.is_file());
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(
            name.starts_with("table-") && name.ends_with(".table"),
            "{name}"
        );
        assert_eq!(name.len(), "table-".len() + 64 + ".table".len());
        let (loaded, source) = cache
            .load_or_build(&RING, &recipe(), &limits(), || panic!("must not rebuild"))
            .unwrap();
        assert_eq!(source, Source::Loaded);
        assert!(source.is_loaded());
        assert!(loaded.to_bytes() == built.to_bytes());
        assert_eq!(loaded.distance(&RING, 700).unwrap(), Some(300));
        assert!(taken(&warnings).is_empty());
        // Only the table's file is left: no temporary file.
        assert_eq!(files_in(dir.path()).len(), 1);
    }

    #[test]
    fn the_fingerprint_is_the_content_not_the_name() {
        let key = |ring: Ring| fingerprint::of(&ring, &recipe());
        assert_eq!(key(RING), key(RING));
        // Other moves, another goal, another size: other tables.
        assert_ne!(key(RING), key(Ring { step: 3, ..RING }));
        assert_ne!(key(RING), key(Ring { goal: 5, ..RING }));
        assert_ne!(key(RING), key(Ring { n: 999, ..RING }));
        // The recipe counts: an exact pattern database is another table.
        assert_ne!(
            key(RING),
            fingerprint::of(&RING, &Recipe::pattern_database())
        );
        // But not its label (a file name only).
        let relabelled = Recipe {
            label: "other",
            ..recipe()
        };
        assert_eq!(key(RING), fingerprint::of(&RING, &relabelled));
        // A description that forgets the moves is caught by the measured goals and probe walks.
        let forgetful = |ring| fingerprint::of(&Forgetful(ring), &recipe());
        assert_ne!(forgetful(RING), forgetful(Ring { step: 3, ..RING }));
        assert_ne!(forgetful(RING), forgetful(Ring { goal: 5, ..RING }));
    }

    #[test]
    fn spaces_with_other_moves_never_share_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, warnings) = collecting(dir.path());
        let other = Ring { step: 3, ..RING };
        let (a, _) = load_or_build(&cache, RING);
        let (b, source) = load_or_build(&cache, other);
        assert_eq!(source, Source::Built, "not the first ring's file");
        assert_eq!(a.distance(&RING, 3).unwrap(), Some(3));
        assert_eq!(b.distance(&other, 3).unwrap(), Some(1));
        assert_eq!(files_in(dir.path()).len(), 2);
        assert!(taken(&warnings).is_empty());
    }

    /// Damages the cached file with `damage`, then checks that the next call warns once (naming
    /// `reason`), rebuilds, and leaves a valid file that the call after loads.
    fn damaged_file_is_replaced(reason: &str, damage: impl Fn(&mut Vec<u8>)) {
        let dir = tempfile::tempdir().unwrap();
        let (cache, warnings) = collecting(dir.path());
        let (good, _) = load_or_build(&cache, RING);
        let path = cache.path_for(&RING, &recipe()).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        damage(&mut bytes);
        std::fs::write(&path, &bytes).unwrap();

        let (table, source) = load_or_build(&cache, RING);
        assert_eq!(source, Source::Built, "{reason}");
        assert!(content(&table) == content(&good));
        let lines = taken(&warnings);
        assert_eq!(lines.len(), 1, "{reason}: {lines:?}");
        assert!(lines[0].contains(reason), "{reason}: {}", lines[0]);
        assert!(lines[0].contains("removed, rebuilding"), "{}", lines[0]);
        assert!(!lines[0].contains('\n'));

        let (_, source) = load_or_build(&cache, RING);
        assert_eq!(source, Source::Loaded, "{reason}: the file was replaced");
        assert!(taken(&warnings).is_empty());
    }

    /// Rewrites the payload's checksum after an edit, as a forger would.
    fn fix_checksum(bytes: &mut [u8]) {
        let crc = crc32fast::hash(&bytes[HEADER as usize..]);
        bytes[56..60].copy_from_slice(&crc.to_le_bytes());
    }

    #[test]
    fn a_corrupted_byte_fails_the_checksum() {
        damaged_file_is_replaced("checksum mismatch", |b| {
            let middle = b.len() / 2;
            b[middle] ^= 0x10;
        });
    }

    #[test]
    fn a_truncated_file_is_rebuilt() {
        damaged_file_is_replaced("truncated", |b| b.truncate(b.len() - 5));
        damaged_file_is_replaced("truncated", |b| b.truncate(10));
        damaged_file_is_replaced("truncated", |b| b.clear());
    }

    #[test]
    fn a_wrong_magic_or_version_is_rebuilt() {
        damaged_file_is_replaced("magic", |b| b[0] = b'X');
        damaged_file_is_replaced("version 3", |b| b[8] = 3);
    }

    #[test]
    fn a_file_of_another_fingerprint_is_rebuilt() {
        damaged_file_is_replaced("holds another table", |b| b[20] ^= 1);
    }

    #[test]
    fn a_payload_that_fails_its_own_checks_is_rebuilt() {
        damaged_file_is_replaced("invalid table", |b| {
            // Corrupt the table's bits-per-entry byte and fix the checksum: only the payload's
            // own validation can catch it.
            b[HEADER as usize + 12] = 3;
            fix_checksum(b);
        });
    }

    #[test]
    fn a_forged_table_that_passes_every_file_check_fails_against_the_space() {
        // The payload of another ring's table under this ring's fingerprint, checksum fixed:
        // whole, well formed, the right size; its distances are another space's.
        let other = Ring { goal: 500, ..RING };
        let forged = build_of(other)().unwrap().to_bytes();
        damaged_file_is_replaced("does not fit this puzzle", |b| {
            b.truncate(HEADER as usize);
            b.extend_from_slice(&forged);
            fix_checksum(b);
        });
        // Every entry moved one state along: the same histogram, one goal off.
        let shifted = build_of(Ring { goal: 1, ..RING })().unwrap().to_bytes();
        damaged_file_is_replaced("does not fit this puzzle", |b| {
            b.truncate(HEADER as usize);
            b.extend_from_slice(&shifted);
            fix_checksum(b);
        });
    }

    #[test]
    fn a_file_over_the_memory_budget_is_refused_before_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, _) = collecting(dir.path());
        load_or_build(&cache, RING);
        let tight = Limits {
            memory_budget: 100,
            ..Limits::default()
        };
        let refused = cache.load_or_build(&RING, &recipe(), &tight, || panic!("refused first"));
        assert!(matches!(refused, Err(Limit::Memory { .. })), "{refused:?}");
    }

    #[test]
    fn a_limit_stops_a_load_and_leaves_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, warnings) = collecting(dir.path());
        load_or_build(&cache, RING);
        let out_of_time = Limits {
            time_limit: Some(Duration::ZERO),
            ..Limits::default()
        };
        let stopped = cache.load_or_build(&RING, &recipe(), &out_of_time, || panic!("stopped"));
        assert_eq!(stopped.unwrap_err(), Limit::Time(Duration::ZERO));
        assert!(taken(&warnings).is_empty(), "nothing wrong with the file");
        assert_eq!(load_or_build(&cache, RING).1, Source::Loaded);
    }

    #[test]
    fn a_fifo_or_directory_in_place_of_a_file_is_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, warnings) = collecting(dir.path());
        let path = cache.path_for(&RING, &recipe()).unwrap();
        let fifo = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string; mkfifo only creates a file.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        // With no writer, opening it for reading would block forever; it is refused instead.
        let (_, source) = load_or_build(&cache, RING);
        assert_eq!(source, Source::Built);
        let lines = taken(&warnings);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].contains("not a regular file (a FIFO)"),
            "{}",
            lines[0]
        );
        // Removed and replaced by the table.
        assert!(path.is_file());
        let (_, source) = load_or_build(&cache, RING);
        assert_eq!(source, Source::Loaded);

        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        let (_, source) = load_or_build(&cache, RING);
        assert_eq!(
            source,
            Source::BuiltNotSaved,
            "a directory cannot be replaced"
        );
        let lines = taken(&warnings);
        assert!(
            lines[0].contains("not a regular file (a directory)"),
            "{lines:?}"
        );
    }

    #[test]
    fn stale_temporary_files_are_removed_and_fresh_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, _) = collecting(dir.path());
        let stale = dir.path().join(".table-killed.tmp");
        let fresh = dir.path().join(".table-writing.tmp");
        let unrelated = dir.path().join("notes.tmp");
        for path in [&stale, &fresh, &unrelated] {
            std::fs::write(path, b"partial").unwrap();
        }
        let old = std::time::SystemTime::now() - STALE_AFTER - Duration::from_secs(60);
        File::options()
            .write(true)
            .open(&stale)
            .unwrap()
            .set_modified(old)
            .unwrap();
        load_or_build(&cache, RING);
        assert!(!stale.exists(), "a killed writer's file is cleaned");
        assert!(fresh.exists(), "another process may still be writing it");
        assert!(unrelated.exists(), "not ours");
    }

    #[test]
    fn a_discarded_file_is_removed_with_one_warning() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, warnings) = collecting(dir.path());
        load_or_build(&cache, RING);
        cache.discard(&RING, &recipe(), "no closer successor at index 7");
        let lines = taken(&warnings);
        assert_eq!(lines.len(), 1);
        assert!(lines[0].contains("no closer successor at index 7; removed, rebuilding"));
        assert!(!cache.holds(&RING, &recipe()));
        assert_eq!(load_or_build(&cache, RING).1, Source::Built);
    }

    #[test]
    fn an_unwritable_directory_warns_once_and_still_answers() {
        let dir = tempfile::tempdir().unwrap();
        // A path through a regular file can be neither created nor written, even by root.
        let blocker = dir.path().join("file");
        std::fs::write(&blocker, b"not a directory").unwrap();
        let (cache, warnings) = collecting(&blocker.join("cache"));
        for _ in 0..2 {
            let (table, source) = load_or_build(&cache, RING);
            assert_eq!(source, Source::BuiltNotSaved);
            assert_eq!(table.distance(&RING, 1).unwrap(), Some(1));
        }
        let lines = taken(&warnings);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].contains("cannot write"), "{}", lines[0]);
    }

    #[test]
    fn a_disabled_cache_builds_every_time_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let warnings = Arc::new(Mutex::new(Vec::new()));
        let sink = warnings.clone();
        let cache = TableCache::new(Some(dir.path().to_path_buf()), false, move |w| {
            sink.lock().unwrap().push(w.to_string())
        });
        assert!(cache.dir().is_none());
        assert_eq!(load_or_build(&cache, RING).1, Source::BuiltNotSaved);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        assert!(taken(&warnings).is_empty());
        let disabled = TableCache::disabled();
        assert_eq!(load_or_build(&disabled, RING).1, Source::BuiltNotSaved);
    }

    #[test]
    fn a_failed_build_is_returned_and_nothing_saved() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, _) = collecting(dir.path());
        let refused = Limits {
            memory_budget: 10,
            ..Limits::default()
        };
        let result =
            cache.load_or_build(&RING, &recipe(), &refused, || table::build(&RING, &refused));
        assert!(matches!(result, Err(Limit::Memory { .. })));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn two_builders_at_once_both_get_the_table_and_leave_a_valid_file() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, warnings) = collecting(dir.path());
        let both_building = Barrier::new(2);
        let expected = content(&build_of(RING)().unwrap());
        std::thread::scope(|scope| {
            let runs: Vec<_> = (0..2)
                .map(|_| {
                    scope.spawn(|| {
                        cache.load_or_build(&RING, &recipe(), &limits(), || {
                            // Both have looked for the file and found none before either saves.
                            both_building.wait();
                            build_of(RING)()
                        })
                    })
                })
                .collect();
            for run in runs {
                let (table, source) = run.join().unwrap().unwrap();
                assert_eq!(source, Source::Built);
                assert!(content(&table) == expected);
            }
        });
        let (table, source) = load_or_build(&cache, RING);
        assert_eq!(source, Source::Loaded);
        assert!(content(&table) == expected);
        assert!(taken(&warnings).is_empty());
        assert_eq!(files_in(dir.path()).len(), 1);
    }

    #[test]
    fn the_directory_follows_xdg_then_home() {
        let os = |s: &'static str| Some(OsStr::new(s));
        assert_eq!(
            resolve_dir(os("/var/cache/me"), os("/home/me")),
            Some(PathBuf::from("/var/cache/me/statespace"))
        );
        for xdg in [None, os(""), os("relative/cache")] {
            assert_eq!(
                resolve_dir(xdg, os("/home/me")),
                Some(PathBuf::from("/home/me/.cache/statespace")),
                "{xdg:?}"
            );
        }
        assert_eq!(
            resolve_dir(os("/x"), None),
            Some(PathBuf::from("/x/statespace"))
        );
        assert_eq!(resolve_dir(None, None), None);
        assert_eq!(resolve_dir(os(""), os("")), None);
    }
}
