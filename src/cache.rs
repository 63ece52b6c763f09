//! Distance tables cached on disk, so that a table is built once per machine rather than once
//! per run.
//!
//! A [`TableCache`] keeps one file per table in a directory: `$XDG_CACHE_HOME/statespace`, else
//! `~/.cache/statespace` ([`TableCache::default_dir`]), or one the caller names (the CLI's
//! `--cache-dir`). [`TableCache::load_or_build`] takes a *fingerprint*, a string that names
//! exactly what the table is of (puzzle, size, goal, abstraction, entry width: the caller's
//! business), and a closure that builds the table; it loads the file when a valid one is there,
//! else builds and saves it, and says which happened ([`Source`]).
//!
//! # The file
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SSTCACHE` |
//! | 4 | file format version ([`FORMAT_VERSION`]) |
//! | 4 + n | the fingerprint's length and its UTF-8 bytes |
//! | 8 | the payload's length |
//! | 4 | CRC-32 (IEEE) of the payload |
//! | 4 | reserved, 0 |
//! | payload | the table, as [`DistanceTable::write_to`] lays it out |
//!
//! The file's name is a readable prefix of the fingerprint and a 64-bit FNV-1a hash of all of it
//! ([`file_name`]); the fingerprint stored inside is what decides (two fingerprints that share a
//! name would only evict each other).
//!
//! # Trust and failure
//!
//! - *Loading* memory-maps the file and checks everything before the table is used: magic,
//!   version, fingerprint equal to the one asked for, payload length equal to what the file
//!   holds, checksum, and then the payload's own checks ([`DistanceTable::from_bytes`]). A file
//!   that fails any of them costs one warning line, is removed, and the table is rebuilt and
//!   saved again. Decoding copies the entries out of the map, so the file is not needed after.
//! - *Saving* writes a temporary file in the cache directory and renames it into place. Rename
//!   is atomic: a reader sees the old file or the new one, never a half-written one, and two
//!   processes that build the same table at once each write their own temporary file; the last
//!   rename wins and both files were whole. There is no `fsync`: after a crash the checksum
//!   catches a file whose data did not reach the disk, and it is rebuilt.
//! - *The cache never fails an answer*: a directory that cannot be created or written costs one
//!   warning per [`TableCache`] and the table is returned unsaved ([`Source::BuiltNotSaved`]).
//!   Only the build itself can fail ([`Limit`]).
//!
//! The library never prints: warnings go to the callback given to [`TableCache::new`].
//!
//! # Example
//!
//! ```
//! use statespace::cache::{Source, TableCache};
//! use statespace::search::{table, Limits};
//! use statespace::space::{GoalSet, Indexed, Invertible, StateSpace};
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
//! // Ring: a ring of 10 states whose goal is 0 (as in the `table` module's example).
//! let dir = tempfile::tempdir().unwrap();
//! let cache = TableCache::new(Some(dir.path().into()), true, |w| eprintln!("{w}"));
//! let build = || table::build(&Ring, &Limits::default());
//!
//! let (t, source) = cache.load_or_build("ring 10, goal 0, auto width", build).unwrap();
//! assert_eq!(source, Source::Built);
//! let (again, source) = cache.load_or_build("ring 10, goal 0, auto width", build).unwrap();
//! assert_eq!(source, Source::Loaded);
//! assert_eq!(again.distance(&Ring, 7), t.distance(&Ring, 7));
//! ```

use crate::search::Limit;
use crate::search::table::DistanceTable;
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// The first bytes of a cache file.
const MAGIC: [u8; 8] = *b"SSTCACHE";
/// The version of the cache file layout (header and payload); a file of any other is rebuilt.
pub const FORMAT_VERSION: u32 = 1;
/// The longest fingerprint a file may hold (a longer one is still hashed into the name, but
/// such a file is not written).
const MAX_FINGERPRINT: usize = 4096;

/// Where [`TableCache::load_or_build`]'s table came from, for the caller's report
/// (`"table_cached": true` exactly for [`Loaded`](Self::Loaded)).
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

    /// Whether a file for the table named `fingerprint` is there (not yet whether it is valid:
    /// loading checks that).
    pub fn holds(&self, fingerprint: &str) -> bool {
        self.path_for(fingerprint)
            .is_some_and(|path| path.is_file())
    }

    /// The directory tables are cached in; `None` when caching is off.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The file that holds the table named `fingerprint`; `None` when caching is off.
    pub fn path_for(&self, fingerprint: &str) -> Option<PathBuf> {
        Some(self.dir.as_ref()?.join(file_name(fingerprint)))
    }

    /// The table named `fingerprint`: loaded from its file when a valid one is there, else
    /// built by `build` and saved (atomically) for the next run.
    ///
    /// An invalid file is reported through the warning callback, removed and replaced; a cache
    /// directory that cannot be written is reported once and the table returned unsaved. Only
    /// `build`'s error is returned.
    pub fn load_or_build(
        &self,
        fingerprint: &str,
        build: impl FnOnce() -> Result<DistanceTable, Limit>,
    ) -> Result<(DistanceTable, Source), Limit> {
        if let Some(table) = self.load(fingerprint) {
            return Ok((table, Source::Loaded));
        }
        let table = build()?;
        let source = if self.store(fingerprint, &table) {
            Source::Built
        } else {
            Source::BuiltNotSaved
        };
        Ok((table, source))
    }

    /// [`load_or_build`](Self::load_or_build) within `limits`' memory budget: a cached file larger
    /// than the budget is refused before it is read ([`Limit::Memory`] with its size), as a build
    /// of that table would be.
    pub fn load_or_build_within(
        &self,
        fingerprint: &str,
        limits: &crate::search::Limits,
        build: impl FnOnce() -> Result<DistanceTable, Limit>,
    ) -> Result<(DistanceTable, Source), Limit> {
        if let Some(path) = self.path_for(fingerprint)
            && let Ok(meta) = std::fs::metadata(&path)
        {
            limits.check_memory(meta.len() as u128)?;
        }
        self.load_or_build(fingerprint, build)
    }

    /// The table named `fingerprint` if its file is there and passes every check. A file that
    /// fails one is reported (one line) and removed; a missing file is no news.
    pub fn load(&self, fingerprint: &str) -> Option<DistanceTable> {
        let path = self.path_for(fingerprint)?;
        let file = match File::open(&path) {
            Ok(file) => file,
            Err(e) if is_absent(&e) => return None,
            Err(e) => {
                self.warn(&format!(
                    "table cache: cannot read {}: {e}; rebuilding",
                    path.display()
                ));
                return None;
            }
        };
        match read_checked(&file, fingerprint) {
            Ok(table) => Some(table),
            Err(reason) => {
                drop(file);
                let removed = match std::fs::remove_file(&path) {
                    Ok(()) => "removed".to_string(),
                    Err(e) if is_absent(&e) => "removed".to_string(),
                    Err(e) => format!("not removed ({e})"),
                };
                self.warn(&format!(
                    "table cache: {}: {reason}; {removed}, rebuilding",
                    path.display()
                ));
                None
            }
        }
    }

    /// Saves `table` under `fingerprint` (temporary file, then rename); `false`, after a
    /// warning, when it could not be saved, and `false` silently when caching is off.
    pub fn store(&self, fingerprint: &str, table: &DistanceTable) -> bool {
        let Some(dir) = &self.dir else {
            return false;
        };
        if fingerprint.len() > MAX_FINGERPRINT {
            self.warn(&format!(
                "table cache: a fingerprint of {} bytes is over {MAX_FINGERPRINT}; not saved",
                fingerprint.len()
            ));
            return false;
        }
        let written = std::fs::create_dir_all(dir).and_then(|()| {
            let mut temp = tempfile::Builder::new()
                .prefix(".table-")
                .suffix(".tmp")
                .tempfile_in(dir)?;
            write_file(temp.as_file_mut(), fingerprint, table)?;
            temp.persist(dir.join(file_name(fingerprint)))
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

/// The file name for `fingerprint`: up to 48 of its characters kept readable (ASCII letters,
/// digits, `-`, `_`, `.`; others become `_`), then a 64-bit FNV-1a hash of the whole
/// fingerprint in hex, then `.table`: `flip-5x5-exact-1f0c8e1d2a3b4c5d.table`.
pub fn file_name(fingerprint: &str) -> String {
    let readable: String = fingerprint
        .chars()
        .take(48)
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let readable = readable.trim_start_matches('.');
    format!("{readable}-{:016x}.table", fnv1a(fingerprint.as_bytes()))
}

/// 64-bit FNV-1a: stable across Rust versions and platforms (unlike `std`'s `DefaultHasher`),
/// which file names need.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
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
/// streams out, then written into the header in place.
fn write_file(file: &mut File, fingerprint: &str, table: &DistanceTable) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(64 << 10, &mut *file);
    out.write_all(&MAGIC)?;
    out.write_all(&FORMAT_VERSION.to_le_bytes())?;
    out.write_all(&(fingerprint.len() as u32).to_le_bytes())?;
    out.write_all(fingerprint.as_bytes())?;
    out.write_all(&table.serialized_len().to_le_bytes())?;
    let checksum_at = (8 + 4 + 4 + fingerprint.len() + 8) as u64;
    out.write_all(&[0; 8])?; // checksum and reserved, filled in below
    let mut hashing = Hashing {
        out: &mut out,
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

/// A writer that checksums what passes through it.
struct Hashing<W> {
    out: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Maps `file` and runs every check on it; the error is one line.
fn read_checked(file: &File, fingerprint: &str) -> Result<DistanceTable, String> {
    let size = file.metadata().map_err(|e| e.to_string())?.len();
    let header = 8 + 4 + 4 + fingerprint.len() as u64 + 16;
    if size < 16 {
        return Err(format!("truncated ({size} bytes)"));
    }
    // SAFETY: the map is read-only and dropped before this function returns. Undefined behaviour
    // would need the file to change while mapped: this crate never writes a cache file in
    // place (it writes a temporary file and renames it over the old name, which leaves the
    // mapped file untouched), so only another program truncating or editing cache files at this
    // very moment could cause it.
    let map = unsafe { memmap2::Mmap::map(file) }.map_err(|e| format!("cannot map: {e}"))?;
    let bytes: &[u8] = &map;
    if bytes[..8] != MAGIC {
        return Err("not a table cache file (wrong magic bytes)".into());
    }
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let version = word(8);
    if version != FORMAT_VERSION {
        return Err(format!(
            "cache format version {version}, expected {FORMAT_VERSION}"
        ));
    }
    let stored_len = word(12) as usize;
    let Some(stored) = bytes.get(16..16 + stored_len.min(MAX_FINGERPRINT)) else {
        return Err(format!("truncated ({size} bytes)"));
    };
    if stored != fingerprint.as_bytes() {
        let shown = String::from_utf8_lossy(stored);
        return Err(format!(
            "holds another table (fingerprint {shown:?}, expected {fingerprint:?})"
        ));
    }
    if size < header {
        return Err(format!("truncated ({size} bytes)"));
    }
    let at = 16 + stored_len;
    let payload_len = u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let checksum = word(at + 8);
    if word(at + 12) != 0 {
        return Err("reserved header bytes are not zero".into());
    }
    let payload = &bytes[at + 16..];
    if payload.len() as u64 != payload_len {
        return Err(format!(
            "truncated or padded: {} payload bytes, header says {payload_len}",
            payload.len()
        ));
    }
    let actual = crc32fast::hash(payload);
    if actual != checksum {
        return Err(format!(
            "checksum mismatch (stored {checksum:08x}, contents {actual:08x})"
        ));
    }
    DistanceTable::from_bytes(payload).map_err(|e| format!("invalid table: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Limits, table};
    use crate::space::{GoalSet, Indexed, Invertible, StateSpace};
    use std::sync::{Arc, Barrier, Mutex};

    /// A ring of `n` states; the goal is 0.
    struct Ring(u64);
    impl StateSpace for Ring {
        type State = u64;
        type Move = i8;
        fn successors(&self, s: u64, visit: &mut dyn FnMut(i8, u64)) {
            visit(1, (s + 1) % self.0);
            visit(-1, (s + self.0 - 1) % self.0);
        }
        fn is_goal(&self, s: u64) -> bool {
            s == 0
        }
    }
    impl Indexed for Ring {
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
    impl Invertible for Ring {
        fn inverse(&self, m: i8) -> i8 {
            -m
        }
    }
    impl GoalSet for Ring {
        fn goals(&self, visit: &mut dyn FnMut(u64)) {
            visit(0)
        }
    }

    const FINGERPRINT: &str = "ring 1000, goal 0, auto";

    fn build() -> Result<DistanceTable, Limit> {
        table::build(&Ring(1000), &Limits::default())
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

    #[test]
    fn a_table_is_built_once_then_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, warnings) = collecting(dir.path());
        let (built, source) = cache.load_or_build(FINGERPRINT, build).unwrap();
        assert_eq!(source, Source::Built);
        let path = cache.path_for(FINGERPRINT).unwrap();
        assert!(path.is_file());
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with("ring_1000__goal_0__auto-"), "{name}");
        let (loaded, source) = cache
            .load_or_build(FINGERPRINT, || panic!("must not rebuild"))
            .unwrap();
        assert_eq!(source, Source::Loaded);
        assert!(source.is_loaded());
        assert!(loaded.to_bytes() == built.to_bytes());
        assert_eq!(loaded.distance(&Ring(1000), 700), Some(300));
        assert!(taken(&warnings).is_empty());
        // Only the table's file is left: no temporary file.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// Damages the cached file with `damage`, then checks that the next call warns once (naming
    /// `reason`), rebuilds, and leaves a valid file that the call after loads.
    fn damaged_file_is_replaced(reason: &str, damage: impl Fn(&Path, &mut Vec<u8>)) {
        let dir = tempfile::tempdir().unwrap();
        let (cache, warnings) = collecting(dir.path());
        let (good, _) = cache.load_or_build(FINGERPRINT, build).unwrap();
        let path = cache.path_for(FINGERPRINT).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        damage(&path, &mut bytes);
        std::fs::write(&path, &bytes).unwrap();

        let (table, source) = cache.load_or_build(FINGERPRINT, build).unwrap();
        assert_eq!(source, Source::Built, "{reason}");
        assert!(content(&table) == content(&good));
        let lines = taken(&warnings);
        assert_eq!(lines.len(), 1, "{reason}: {lines:?}");
        assert!(lines[0].contains(reason), "{reason}: {}", lines[0]);
        assert!(lines[0].contains("removed, rebuilding"), "{}", lines[0]);
        assert!(!lines[0].contains('\n'));

        let (_, source) = cache.load_or_build(FINGERPRINT, build).unwrap();
        assert_eq!(source, Source::Loaded, "{reason}: the file was replaced");
        assert!(taken(&warnings).is_empty());
    }

    #[test]
    fn a_corrupted_byte_fails_the_checksum() {
        damaged_file_is_replaced("checksum mismatch", |_, b| {
            let middle = b.len() / 2;
            b[middle] ^= 0x10;
        });
    }

    #[test]
    fn a_truncated_file_is_rebuilt() {
        damaged_file_is_replaced("truncated", |_, b| b.truncate(b.len() - 5));
        damaged_file_is_replaced("truncated", |_, b| b.truncate(10));
        damaged_file_is_replaced("truncated", |_, b| b.clear());
    }

    #[test]
    fn a_wrong_magic_or_version_is_rebuilt() {
        damaged_file_is_replaced("magic", |_, b| b[0] = b'X');
        damaged_file_is_replaced("version 2", |_, b| b[8] = 2);
    }

    #[test]
    fn a_file_of_another_fingerprint_is_rebuilt() {
        damaged_file_is_replaced("holds another table", |_, b| {
            // The same length, one character changed: the name's file now claims another table.
            b[16] = b'X';
        });
    }

    #[test]
    fn a_payload_that_fails_its_own_checks_is_rebuilt() {
        damaged_file_is_replaced("invalid table", |_, b| {
            // Corrupt the table's bits-per-entry byte and fix the checksum: only the payload's
            // own validation can catch it.
            let payload_at = 16 + FINGERPRINT.len() + 16;
            b[payload_at + 12] = 3;
            let crc = crc32fast::hash(&b[payload_at..]);
            let crc_at = payload_at - 8;
            b[crc_at..crc_at + 4].copy_from_slice(&crc.to_le_bytes());
        });
    }

    #[test]
    fn an_unwritable_directory_warns_once_and_still_answers() {
        let dir = tempfile::tempdir().unwrap();
        // A path through a regular file can be neither created nor written, even by root.
        let blocker = dir.path().join("file");
        std::fs::write(&blocker, b"not a directory").unwrap();
        let (cache, warnings) = collecting(&blocker.join("cache"));
        for _ in 0..2 {
            let (table, source) = cache.load_or_build(FINGERPRINT, build).unwrap();
            assert_eq!(source, Source::BuiltNotSaved);
            assert_eq!(table.distance(&Ring(1000), 1), Some(1));
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
        let (_, source) = cache.load_or_build(FINGERPRINT, build).unwrap();
        assert_eq!(source, Source::BuiltNotSaved);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        assert!(taken(&warnings).is_empty());
        let (_, source) = TableCache::disabled()
            .load_or_build(FINGERPRINT, build)
            .unwrap();
        assert_eq!(source, Source::BuiltNotSaved);
    }

    #[test]
    fn a_failed_build_is_returned_and_nothing_saved() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, _) = collecting(dir.path());
        let refused = Limits {
            memory_budget: 10,
            ..Limits::default()
        };
        let result = cache.load_or_build(FINGERPRINT, || table::build(&Ring(1000), &refused));
        assert!(matches!(result, Err(Limit::Memory { .. })));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn two_builders_at_once_both_get_the_table_and_leave_a_valid_file() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, warnings) = collecting(dir.path());
        let both_building = Barrier::new(2);
        let expected = content(&build().unwrap());
        std::thread::scope(|scope| {
            let runs: Vec<_> = (0..2)
                .map(|_| {
                    scope.spawn(|| {
                        cache.load_or_build(FINGERPRINT, || {
                            // Both have looked for the file and found none before either saves.
                            both_building.wait();
                            build()
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
        let (table, source) = cache.load_or_build(FINGERPRINT, build).unwrap();
        assert_eq!(source, Source::Loaded);
        assert!(content(&table) == expected);
        assert!(taken(&warnings).is_empty());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
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

    #[test]
    fn file_names_are_readable_and_distinct() {
        let a = file_name("flip 5x5 exact");
        assert!(
            a.starts_with("flip_5x5_exact-") && a.ends_with(".table"),
            "{a}"
        );
        assert_ne!(a, file_name("flip 5x5 exact "));
        assert_ne!(file_name("../x"), "../x");
        assert!(!file_name("../x").contains('/'));
        assert!(!file_name(".hidden").starts_with('.'));
        // Stable across builds and platforms: FNV-1a of "a".
        assert_eq!(file_name("a"), "a-af63dc4c8601ec8c.table");
    }
}
