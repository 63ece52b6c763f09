//! Output files written whole or not at all (`export -o`, `explore --plot`).

use statespace::error::Error;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file written whole or not at all: a temporary file in the target's directory (same file
/// system, so the rename is atomic), renamed onto the target by [`commit`](Self::commit) and
/// removed if dropped before.
pub struct AtomicOutput {
    target: PathBuf,
    temporary: tempfile::NamedTempFile,
}

impl AtomicOutput {
    /// Creates the temporary file beside `target`, so an unwritable place fails before any work.
    pub fn create(target: &Path) -> Result<Self, Error> {
        let directory = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        // tempfile's own message names the random temporary file; say what the user can act on.
        let cannot_create = |reason: String| {
            let message = format!("cannot create it in {}: {reason}", directory.display());
            io_error(target, std::io::Error::other(message))
        };
        if !directory.is_dir() {
            return Err(cannot_create("no such directory".into()));
        }
        let temporary = tempfile::Builder::new()
            .prefix(".statespace-")
            .tempfile_in(directory)
            .map_err(|source| cannot_create(source.kind().to_string()))?;
        Ok(AtomicOutput {
            target: target.to_path_buf(),
            temporary,
        })
    }

    /// Writes `bytes` and renames the file onto the target.
    pub fn commit(mut self, bytes: &[u8]) -> Result<(), Error> {
        let target = self.target;
        let file = self.temporary.as_file_mut();
        file.write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(|source| io_error(&target, source))?;
        // tempfile creates files readable by the owner only; an export is a document to share.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            file.set_permissions(std::fs::Permissions::from_mode(0o644))
                .map_err(|source| io_error(&target, source))?;
        }
        self.temporary
            .persist(&target)
            .map_err(|e| io_error(&target, e.error))?;
        Ok(())
    }
}

fn io_error(path: &Path, source: std::io::Error) -> Error {
    Error::Io {
        path: path.display().to_string(),
        source,
    }
}
