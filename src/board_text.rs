//! A board as text with where it came from ([`BoardText`]): what a plugin parses a start board
//! or a scramble from, so that its errors name the file, the line and the config key.
//!
//! On the ground floor, beside [`error`](crate::error): the config reader makes these, the
//! space traits ([`BoardFormat`](crate::space::BoardFormat)) and the plugins read them.

use crate::error::{Error, Location, Result};

/// A board as text, with where it came from so that a parse error can name the file and line.
#[derive(Clone, Debug)]
pub struct BoardText {
    /// The board as written.
    pub text: String,
    /// The file name, or `<stdin>`.
    pub file: String,
    /// The file line where the text's first line stands.
    pub first_line: usize,
    /// The config key it came from, if any.
    pub key: Option<String>,
    /// The text is a scramble (moves from the goal), not a board: see
    /// [`BoardFormat::read`](crate::space::BoardFormat::read).
    pub scramble: bool,
}

impl BoardText {
    /// A board read whole from a file or stdin.
    pub fn from_file(file: &str, text: String) -> Self {
        BoardText {
            text,
            file: file.to_string(),
            first_line: 1,
            key: None,
            scramble: false,
        }
    }

    /// An error at `line` (1-based) of this text.
    pub fn error(&self, line: usize, message: impl Into<String>) -> Error {
        Error::input(self.location(line), message)
    }

    /// Where `line` (1-based) of this text stands: its file, the file's line, the key.
    pub fn location(&self, line: usize) -> Location {
        let mut location = Location::file(&self.file).at_line(self.first_line + line - 1);
        location.key = self.key.clone();
        location
    }

    /// Refuses a scramble: for puzzles (and engines) that read boards only.
    pub fn board_only(&self) -> Result<()> {
        if self.scramble {
            Err(self.error_whole("this puzzle takes a [start] board, not a scramble"))
        } else {
            Ok(())
        }
    }

    /// An error about the board as a whole (empty, wrong number of rows).
    pub fn error_whole(&self, message: impl Into<String>) -> Error {
        let mut location = Location::file(&self.file).at_line(self.first_line);
        location.key = self.key.clone();
        Error::input(location, message)
    }

    /// The non-blank lines, trimmed, each with its 1-based line number in the text.
    pub fn rows(&self) -> Vec<(usize, &str)> {
        self.text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
            .collect()
    }
}
