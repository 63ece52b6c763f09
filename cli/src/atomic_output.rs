//! Output files (`solve --svg`, `explore --plot`, `export -o`): written whole or not at all
//! wherever the target allows it.
//!
//! What the target is decides how it is written:
//! - **Nothing, or a regular file**, reached through any symlinks: a temporary file beside that
//!   file (the same file system, so the rename is atomic), renamed onto it by
//!   [`commit`](AtomicOutput::commit) and removed if dropped before. A symlink stays a symlink:
//!   the file it leads to is the one replaced.
//! - **Anything else**: a device (`/dev/null`, a terminal), a FIFO, or a process's open file
//!   named through `/proc` (`/dev/stdout` is a link to `/proc/self/fd/1`). It is written
//!   through, as a shell's `>>` would: renaming a file over it would replace the device or the
//!   link with a regular file instead of writing where the name leads. Such a write is not
//!   atomic; appending keeps what an open file (stdout sent to a file) already holds.
//! - **A directory** is refused.
//!
//! Either way [`create`](AtomicOutput::create) opens the output (the temporary file, or the
//! target itself) before any work, so an output that cannot be written fails first, not after
//! a long search. Opening a FIFO waits for its reader, as a shell's redirection does.

use statespace::error::Error;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// An output file, opened before the work and written by [`commit`](Self::commit); see the
/// module docs.
pub struct AtomicOutput {
    /// The path as the user gave it, for messages.
    target: PathBuf,
    how: How,
}

enum How {
    /// Renamed onto this regular file (or new file) when complete.
    Replace {
        file: PathBuf,
        temporary: tempfile::NamedTempFile,
    },
    /// Written into the target, opened for appending.
    Through(File),
}

/// Symlinks followed before giving up, as the kernel's `ELOOP` does.
const MAX_LINKS: usize = 40;

impl AtomicOutput {
    /// Opens the output for `target`: the temporary file beside the regular file it names, or
    /// the target itself when it is a device, a FIFO or an open file; see the module docs.
    pub fn create(target: &Path) -> Result<Self, Error> {
        let how = match resolve(target).map_err(|source| io_error(target, source))? {
            Some(file) => {
                let temporary = temporary_beside(&file).map_err(|e| io_error(target, e))?;
                How::Replace { file, temporary }
            }
            None => How::Through(
                File::options()
                    .append(true)
                    .open(target)
                    .map_err(|source| io_error(target, source))?,
            ),
        };
        Ok(AtomicOutput {
            target: target.to_path_buf(),
            how,
        })
    }

    /// Writes `bytes`: into the temporary file, then renamed onto the target; or through.
    pub fn commit(self, bytes: &[u8]) -> Result<(), Error> {
        let target = self.target;
        let failed = |source| io_error(&target, source);
        match self.how {
            How::Through(mut file) => file.write_all(bytes).and_then(|()| file.flush()),
            How::Replace {
                file,
                mut temporary,
            } => {
                let out = temporary.as_file_mut();
                out.write_all(bytes)
                    .and_then(|()| out.sync_all())
                    .map_err(failed)?;
                // tempfile creates files readable by the owner only; an export is a document to
                // share.
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    out.set_permissions(std::fs::Permissions::from_mode(0o644))
                        .map_err(failed)?;
                }
                temporary.persist(&file).map(drop).map_err(|e| e.error)
            }
        }
        .map_err(failed)
    }
}

/// The regular file `target` leads to through its symlinks (which may not exist yet), or `None`
/// when the output is to be written through (see the module docs).
fn resolve(target: &Path) -> io::Result<Option<PathBuf>> {
    let mut path = target.to_path_buf();
    for _ in 0..MAX_LINKS {
        let meta = match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Some(path)),
            meta => meta?,
        };
        let kind = meta.file_type();
        if kind.is_file() {
            return Ok(Some(path));
        } else if kind.is_dir() {
            return Err(io::Error::other("is a directory: give a file name"));
        } else if !kind.is_symlink() {
            return Ok(None);
        }
        // `/proc/PID/fd/N` names an open file, not a path: its link reads `pipe:[123]`, or the
        // path of a file the process holds open, which must not be replaced under it.
        if std::fs::canonicalize(directory_of(&path)).is_ok_and(|p| p.starts_with("/proc")) {
            return Ok(None);
        }
        // A relative link is relative to the link's directory.
        let link = std::fs::read_link(&path)?;
        path = match path.parent() {
            Some(parent) => parent.join(link),
            None => link,
        };
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The directory `path` stands in (`.` for a bare file name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A temporary file beside `file`. tempfile's own message names the random temporary file; the
/// error says what the user can act on.
fn temporary_beside(file: &Path) -> io::Result<tempfile::NamedTempFile> {
    let directory = directory_of(file);
    let cannot_create = |reason: String| {
        io::Error::other(format!(
            "cannot create it in {}: {reason}",
            directory.display()
        ))
    };
    if !directory.is_dir() {
        return Err(cannot_create("no such directory".into()));
    }
    tempfile::Builder::new()
        .prefix(".statespace-")
        .tempfile_in(directory)
        .map_err(|source| cannot_create(source.kind().to_string()))
}

fn io_error(path: &Path, source: io::Error) -> Error {
    Error::Io {
        path: path.display().to_string(),
        source,
    }
}
