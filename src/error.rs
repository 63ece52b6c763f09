//! The library's error type.
//!
//! Three kinds of failure reach a user: input that is wrong (a config, a board, a judge stream,
//! a flag), a file that cannot be read or written, and a cluster whose peers failed it. Input
//! errors say where ([`Location`]: in a file, at a flag, in a command). Each displays as one
//! line that says where and what, so the CLI can print it as is. Limits (depth, states, time,
//! memory) are not errors but outcomes: see [`Limit`](crate::limit::Limit).

use std::fmt;

/// Where a problem is: a place ([`Place`]: a file, a flag, a command, the registry), with the
/// line and the key when there are.
///
/// Displays as `place[:line][: key]` (`c.toml:3: puzzle.rows`, `--mode`, `explore: start.board`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// What the location is in.
    pub place: Place,
    /// 1-based line, when known: a line of a file.
    pub line: Option<usize>,
    /// The config key (`puzzle.rows`) or the part of a stream (`case 2`), when there is one.
    pub key: Option<String>,
}

/// What a [`Location`] is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A file by its name, or a stream (`<stdin>`), or a text read as one (a config's name).
    File(String),
    /// A command-line flag (`--mode`).
    Flag(String),
    /// A command, or the part of the library that runs it (`judge`, `explore`, `export`).
    Command(String),
    /// The [`Registry`](crate::registry::Registry) of puzzle kinds a program assembles.
    Registry,
}

/// `text` on one line: control characters (a newline in a quoted value or a file name) written
/// as escapes, so that every error stays one line of stderr.
fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            escaped.extend(c.escape_default());
        } else {
            escaped.push(c);
        }
    }
    std::borrow::Cow::Owned(escaped)
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::File(name) | Place::Flag(name) | Place::Command(name) => {
                f.write_str(&one_line(name))
            }
            Place::Registry => f.write_str("registry"),
        }
    }
}

impl Location {
    /// A location at `place` with no line or key yet.
    pub fn new(place: Place) -> Self {
        Location {
            place,
            line: None,
            key: None,
        }
    }

    /// A location in the file (or stream) `file`, with no line or key yet.
    pub fn file(file: impl Into<String>) -> Self {
        Location::new(Place::File(file.into()))
    }

    /// The command-line flag `flag` (`--mode`, with its dashes).
    pub fn flag(flag: impl Into<String>) -> Self {
        Location::new(Place::Flag(flag.into()))
    }

    /// The command (or the library's part of it) `command`: `judge`, `explore`, `export`.
    pub fn command(command: impl Into<String>) -> Self {
        Location::new(Place::Command(command.into()))
    }

    /// The registry of puzzle kinds.
    pub fn registry() -> Self {
        Location::new(Place::Registry)
    }

    /// The same location at `line` (of a file).
    pub fn at_line(mut self, line: usize) -> Self {
        debug_assert!(
            matches!(self.place, Place::File(_)),
            "a line of {}, which is no file",
            self.place
        );
        self.line = Some(line);
        self
    }

    /// The same location with `key`.
    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// The name of the file, when the location is in one.
    pub fn file_name(&self) -> Option<&str> {
        match &self.place {
            Place::File(name) => Some(name),
            _ => None,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.place)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(key) = &self.key {
            write!(f, ": {key}")?;
        }
        Ok(())
    }
}

/// A cluster run's failure: a peer that never connected or went away, or refused the sweep
/// (`explore --hostfile`); one line, for the user. The cluster (`search::cluster`) makes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault(pub String);

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Fault {}

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
    #[error("{}: {source}", one_line(.path))]
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
    /// A cluster run that failed: a peer never connected, went away or refused the sweep
    /// (`explore --hostfile`).
    #[error("cluster: {0}")]
    Cluster(Fault),
}

impl From<Fault> for Error {
    fn from(fault: Fault) -> Self {
        Error::Cluster(fault)
    }
}

impl Error {
    /// Bad input at `location`. Control characters in `message` (a quoted value of the input
    /// may hold a newline, from a TOML escape) are written as escapes, so the error stays one
    /// line.
    pub fn input(location: Location, message: impl Into<String>) -> Self {
        let message = one_line(&message.into()).into_owned();
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

/// The most characters of an input's text that an error quotes ([`quoted`]).
pub const QUOTED_CHARS: usize = 40;

/// `text` in double quotes for an error message, at most its first [`QUOTED_CHARS`] characters:
/// a longer text is cut there, with `…` and its whole length in bytes after the quotes
/// (`"RRRRRRRR…" (200000000 bytes)`). A token of an untrusted input may be a line of hundreds of
/// megabytes; quoting it whole would make the error as large.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        None => format!("\"{text}\""),
        Some((cut, _)) => format!("\"{}…\" ({} bytes)", &text[..cut], text.len()),
    }
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
    fn a_newline_in_a_file_name_keeps_the_error_on_one_line() {
        let e = Error::input(Location::file("defs/pyram\nx.tws").at_line(2), "bad");
        assert_eq!(e.to_string(), "defs/pyram\\nx.tws:2: bad");
        let source = std::io::Error::from(std::io::ErrorKind::NotFound);
        let e = Error::Io {
            path: "defs/pyram\nx.tws".into(),
            source,
        };
        assert_eq!(e.to_string().lines().count(), 1, "{e}");
        assert!(e.to_string().starts_with("defs/pyram\\nx.tws: "), "{e}");
    }

    #[test]
    fn a_long_text_is_quoted_by_its_first_characters_and_its_length() {
        assert_eq!(quoted("R2'"), "\"R2'\"");
        let exact = "é".repeat(QUOTED_CHARS);
        assert_eq!(quoted(&exact), format!("\"{exact}\""));
        let long = format!("{exact}x");
        assert_eq!(
            quoted(&long),
            format!("\"{exact}…\" ({} bytes)", long.len())
        );
    }

    #[test]
    fn a_quoted_newline_keeps_the_error_on_one_line() {
        let e = Error::input(
            Location::file("c.toml").at_line(3),
            "unknown goal `\niform`",
        );
        assert_eq!(e.to_string(), "c.toml:3: unknown goal `\\niform`");
    }

    #[test]
    fn every_place_displays_as_the_name_it_stood_for() {
        let cases = [
            (
                Location::file("c.toml").at_line(3).with_key("puzzle.rows"),
                "c.toml:3: puzzle.rows",
            ),
            (Location::flag("--mode"), "--mode"),
            (
                Location::command("explore").with_key("start.board"),
                "explore: start.board",
            ),
            (Location::registry(), "registry"),
        ];
        for (location, shown) in cases {
            assert_eq!(location.to_string(), shown);
        }
        assert_eq!(Location::flag("--mode").place, Place::Flag("--mode".into()));
        assert_eq!(Location::command("judge").file_name(), None);
    }

    #[test]
    fn a_cluster_fault_is_an_error_of_its_own() {
        let fault = Fault("lost process 1 (h:1): gone".into());
        let e = Error::from(fault.clone());
        assert!(matches!(&e, Error::Cluster(f) if *f == fault));
        assert_eq!(e.to_string(), "cluster: lost process 1 (h:1): gone");
    }
}
