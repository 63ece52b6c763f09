//! The library's error type.
//!
//! Two kinds of failure reach a user: input that is wrong (a config, a board, a judge stream) and
//! a file that cannot be read or written. Each displays as one line that says where and what, so
//! the CLI can print it as is. Limits (depth, states, time, memory) are not errors but outcomes:
//! see [`Limit`](crate::limit::Limit).

use std::fmt;

/// Where in the input a problem is: a file (or `<stdin>`), a line, a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file name, or `<stdin>`.
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// The config key (`puzzle.rows`) or the part of a stream (`case 2`), when there is one.
    pub key: Option<String>,
}

impl Location {
    /// A location in `file` with no line or key yet.
    pub fn file(file: impl Into<String>) -> Self {
        Location {
            file: file.into(),
            line: None,
            key: None,
        }
    }

    /// The same location at `line`.
    pub fn at_line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }

    /// The same location with `key`.
    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(key) = &self.key {
            write!(f, ": {key}")?;
        }
        Ok(())
    }
}

/// Everything that can go wrong before or around a search.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Input that is not what it should be; the message says what, the location where.
    #[error("{location}: {message}")]
    Input {
        /// Where.
        location: Location,
        /// What is wrong.
        message: String,
    },
    /// A file that cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file (or `<stdout>`).
        path: String,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// Work refused before it started because it would pass a limit (the memory budget), with
    /// the figure it needed. The CLI exits with the same code as a search stopped by a limit.
    #[error("{location}: {limit}")]
    Limit {
        /// What was refused (`export`).
        location: Location,
        /// The limit it would pass.
        limit: crate::limit::Limit,
    },
}

impl Error {
    /// Bad input at `location`. Control characters in `message` (a quoted value of the input
    /// may hold a newline, from a TOML escape) are written as escapes, so the error stays one
    /// line.
    pub fn input(location: Location, message: impl Into<String>) -> Self {
        let message: String = message.into();
        let message = if message.chars().any(char::is_control) {
            message
                .chars()
                .map(|c| {
                    if c.is_control() {
                        c.escape_default().to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect()
        } else {
            message
        };
        Error::Input { location, message }
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `text` without a leading UTF-8 byte-order mark: editors on some systems start a file with
/// one, and it is no part of the first line (a keyword, a row, a JSON value).
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The text of the file at `path`, or an [`Error::Io`] naming it.
pub fn read_text(path: &std::path::Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.display().to_string(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_newline_keeps_the_error_on_one_line() {
        let e = Error::input(
            Location::file("c.toml").at_line(3),
            "unknown goal `\niform`",
        );
        assert_eq!(e.to_string(), "c.toml:3: unknown goal `\\niform`");
    }
}
