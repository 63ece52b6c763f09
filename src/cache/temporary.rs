//! A temporary file beside the cache's tables: a table is written to one, then renamed over its
//! name, so that no reader ever sees half a table ([`Temporary`]); and the removal of those a
//! killed process left ([`remove_stale`]).
//!
//! Written by hand rather than with the `tempfile` crate (which the tests still use): the core
//! needs one exclusive create, one rename and a removal on drop, and the crate brings six crates
//! into every build of the library, the Python package's included.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A file `.table-PID-N.tmp` created exclusively in the cache directory (never an existing
/// file, never through a symbolic link, readable by its owner alone), removed when dropped
/// unless [`persist`](Self::persist)ed under its final name.
pub(super) struct Temporary {
    path: PathBuf,
    file: File,
    persisted: bool,
}

impl Temporary {
    /// A new temporary file in `dir`.
    pub(super) fn new_in(dir: &Path) -> io::Result<Temporary> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        // The process id and a counter name it; the clock tells apart the files of an earlier
        // process that had the same id. A name taken (by a file we did not make) is skipped.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        for _ in 0..100 {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let name = format!(".table-{}-{nanos:x}-{n}.tmp", std::process::id());
            let path = dir.join(name);
            let created = OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&path);
            match created {
                Ok(file) => {
                    return Ok(Temporary {
                        path,
                        file,
                        persisted: false,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "no free temporary file name after 100 tries",
        ))
    }

    /// The open file, to write the table into.
    pub(super) fn file(&mut self) -> &mut File {
        &mut self.file
    }

    /// Renames the file to `path` (replacing what was there, atomically).
    pub(super) fn persist(mut self, path: &Path) -> io::Result<()> {
        std::fs::rename(&self.path, path)?;
        self.persisted = true;
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.persisted {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Removes the temporary files in `dir` that no save has touched for [`STALE_AFTER`](super::STALE_AFTER): left by a
/// process killed while writing. Best effort: a file another process removes first is fine.
pub(super) fn remove_stale(dir: &Path) {
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
            .is_some_and(|age| age >= super::STALE_AFTER);
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_temporary_file_is_removed_unless_persisted() {
        let dir = tempfile::tempdir().unwrap();
        let names = || -> Vec<String> {
            let entries = std::fs::read_dir(dir.path()).unwrap();
            let mut names: Vec<String> = entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        let mut dropped = Temporary::new_in(dir.path()).unwrap();
        let mut kept = Temporary::new_in(dir.path()).unwrap();
        let listed = names();
        assert_eq!(listed.len(), 2, "two names: {listed:?}");
        assert!(
            listed
                .iter()
                .all(|n| n.starts_with(".table-") && n.ends_with(".tmp"))
        );
        dropped.file().write_all(b"half a table").unwrap();
        drop(dropped);
        kept.file().write_all(b"a table").unwrap();
        kept.persist(&dir.path().join("t.table")).unwrap();
        assert_eq!(names(), ["t.table"]);
        assert_eq!(
            std::fs::read(dir.path().join("t.table")).unwrap(),
            b"a table"
        );
    }
}
