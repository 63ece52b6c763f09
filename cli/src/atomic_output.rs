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
//! a long search.
//!
//! *A FIFO waits for its reader*, as a shell's redirection does, but never past the command's
//! limits: a blocking open or write would wait in the kernel, deaf to the time limit and to
//! Ctrl-C (whose first press only sets a flag). So the target is opened and written without
//! blocking (`O_NONBLOCK`, as the cache opens its files): an open that finds no reader, or a
//! write that finds the pipe full, waits [`WAIT_STEP`] and looks at the run's [`Latch`] (time
//! limit, Ctrl-C), which stops the wait with the limit's exit code. Why write to a FIFO at all,
//! rather than refuse it: it is how one tool hands output to another (`mkfifo`, a viewer
//! reading it), and renaming a file over it would leave its reader waiting forever.
//!
//! *Ctrl-C leaves no temporary file*: each one is listed while it exists, and the handler
//! that exits at once ([`limits`](super::limits)) removes those listed first
//! ([`remove_temporaries`]); a run stopped more gently drops its output, which removes it.

use statespace::error::{Error, Location};
use statespace::limit::{Latch, Limits};
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// An output file, opened before the work and written by [`commit`](Self::commit); see the
/// module docs.
pub struct AtomicOutput {
    /// The path as the user gave it, for messages.
    target: PathBuf,
    how: How,
    /// The command's limits: a wait on a FIFO looks at them.
    latch: Latch,
}

enum How {
    /// Renamed onto this regular file (or new file) when complete.
    Replace {
        file: PathBuf,
        temporary: tempfile::NamedTempFile,
        /// Lists the temporary file while it exists (for the Ctrl-C handler).
        _listed: Listed,
    },
    /// Written into the target, opened for appending, without blocking.
    Through(File),
}

/// Symlinks followed before giving up, as the kernel's `ELOOP` does.
const MAX_LINKS: usize = 40;

/// How long a wait on a FIFO (for a reader, or for room in the pipe) lasts between two looks at
/// the latch: a limit or Ctrl-C holds within this.
pub const WAIT_STEP: Duration = Duration::from_millis(50);

impl AtomicOutput {
    /// Opens the output for `target`: the temporary file beside the regular file it names, or
    /// the target itself when it is a device, a FIFO or an open file, a FIFO waited on within
    /// `limits`; see the module docs.
    pub fn create(target: &Path, limits: &Limits) -> Result<Self, Error> {
        let latch = Latch::new(limits);
        let how = match resolve(target).map_err(|source| io_error(target, source))? {
            Some(file) => {
                let temporary = temporary_beside(&file).map_err(|e| io_error(target, e))?;
                let _listed = Listed::new(temporary.path());
                How::Replace {
                    file,
                    temporary,
                    _listed,
                }
            }
            None => How::Through(open_through(target, &latch)?),
        };
        Ok(AtomicOutput {
            target: target.to_path_buf(),
            how,
            latch,
        })
    }

    /// Writes `bytes`: into the temporary file, then renamed onto the target; or through.
    pub fn commit(self, bytes: &[u8]) -> Result<(), Error> {
        let target = self.target;
        let failed = |source| io_error(&target, source);
        match self.how {
            How::Through(mut file) => return write_through(&mut file, bytes, &target, &self.latch),
            How::Replace {
                file,
                mut temporary,
                _listed,
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

/// The temporary files of the outputs not yet in place (see the module docs).
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A temporary file's place in [`TEMPORARIES`], while it lasts.
struct Listed(PathBuf);

impl Listed {
    fn new(path: &Path) -> Listed {
        let mut list = TEMPORARIES.lock().unwrap_or_else(PoisonError::into_inner);
        list.push(path.to_path_buf());
        Listed(path.to_path_buf())
    }
}

impl Drop for Listed {
    fn drop(&mut self) {
        let mut list = TEMPORARIES.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = list.iter().position(|p| *p == self.0) {
            list.swap_remove(i);
        }
    }
}

/// Removes the temporary files of the outputs not yet in place: for the Ctrl-C handler, just
/// before it exits (no destructor runs then). One renamed into place meanwhile is not there
/// any more, and stays where it went.
pub fn remove_temporaries() {
    let list = TEMPORARIES.lock().unwrap_or_else(PoisonError::into_inner);
    for path in list.iter() {
        let _ = std::fs::remove_file(path);
    }
}

/// Opens `target` (not a regular file) for appending without blocking. A FIFO with no reader
/// refuses such an open (`ENXIO`): it is tried again every [`WAIT_STEP`] until a reader comes,
/// or `latch` stops the wait.
fn open_through(target: &Path, latch: &Latch) -> Result<File, Error> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    loop {
        let opened = File::options()
            .append(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(target);
        match opened {
            Ok(file) => return Ok(file),
            Err(e)
                if e.raw_os_error() == Some(libc::ENXIO)
                    && std::fs::metadata(target).is_ok_and(|m| m.file_type().is_fifo()) =>
            {
                stop_waiting(target, latch, "waiting for a reader to open it (a FIFO)")?;
                std::thread::sleep(WAIT_STEP);
            }
            Err(e) => return Err(io_error(target, e)),
        }
    }
}

/// Writes `bytes` into `file`, opened by [`open_through`]: when the pipe is full, waits for
/// room [`WAIT_STEP`] at a time, and stops when `latch` says so after a step with none.
fn write_through(file: &mut File, bytes: &[u8], target: &Path, latch: &Latch) -> Result<(), Error> {
    use std::os::fd::AsRawFd;
    let mut rest = bytes;
    while !rest.is_empty() {
        match file.write(rest) {
            Ok(0) => return Err(io_error(target, io::ErrorKind::WriteZero.into())),
            Ok(n) => rest = &rest[n..],
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                let mut room = libc::pollfd {
                    fd: file.as_raw_fd(),
                    events: libc::POLLOUT,
                    revents: 0,
                };
                let step = WAIT_STEP.as_millis() as libc::c_int;
                // SAFETY: one valid `pollfd`, which outlives the call.
                if unsafe { libc::poll(&mut room, 1, step) } == 0 {
                    stop_waiting(target, latch, "waiting for its reader to read (a FIFO)")?;
                }
            }
            Err(e) => return Err(io_error(target, e)),
        }
    }
    Ok(())
}

/// An error when `latch` stops the run (time limit, Ctrl-C) while `target` is waited on.
fn stop_waiting(target: &Path, latch: &Latch, waiting: &str) -> Result<(), Error> {
    latch.check().map_err(|limit| Error::Limit {
        location: Location::file(target.display().to_string()).with_key(waiting),
        limit,
    })
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
