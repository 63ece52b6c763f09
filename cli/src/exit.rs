//! The exit codes the README documents ([`Exit`]), and how a command's result becomes one
//! ([`report`]): an error is printed as one line on stderr and mapped by its kind.

use super::stdio::stderr_line;
use statespace::error::Error;
use statespace::limit::Limit;

/// Exit codes, as documented in the README.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Solved (or the command did what it was asked).
    Ok = 0,
    /// A bug: an internal error or a panic.
    Internal = 1,
    /// Bad input: arguments, config, board, judge stream, unreadable file, unwritable output.
    BadInput = 2,
    /// Proven unsolvable.
    Unsolvable = 3,
    /// A limit (depth, states, time, memory) stopped the run before it could decide.
    LimitReached = 4,
    /// Interrupted by Ctrl-C (SIGINT) before it could decide: 128 + 2, as shells do.
    Interrupted = 130,
    /// Stdout (or an output pipe) was closed by its reader: the run stopped quietly, 128 + 13
    /// (`SIGPIPE`), as shells report a tool that signal ended.
    BrokenPipe = 141,
}

/// The exit code of a command's result, its error printed as one line on stderr. A write to a
/// closed pipe (`| head`) is no error: the reader wants no more, so the run stops quietly with
/// [`Exit::BrokenPipe`], as a tool killed by `SIGPIPE` would (Rust ignores that signal, so a
/// closed pipe reaches us as this error, from [`write_stdout`](super::stdio::write_stdout) or an output file).
pub(crate) fn report(result: Result<Exit, Error>) -> Exit {
    match result {
        Ok(exit) => exit,
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::BrokenPipe => {
            Exit::BrokenPipe
        }
        Err(error) => {
            stderr_line(&format!("statespace: error: {error}"));
            match error {
                Error::Input { .. } | Error::Io { .. } | Error::Cluster(_) => Exit::BadInput,
                Error::Limit {
                    limit: Limit::Interrupted,
                    ..
                } => Exit::Interrupted,
                Error::Limit { .. } => Exit::LimitReached,
            }
        }
    }
}
