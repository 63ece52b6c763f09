//! Where a command's position comes from: `--board FILE`, `--scramble MOVES`, or the config's
//! `[start]` (a `board`, or a `scramble` for puzzles that read one).

use super::lines::{item_cap, not_utf8, too_long};
use statespace::board_text::BoardText;
use statespace::config::Config;
use statespace::error::{Error, Location, without_bom};
use std::io::Read;

/// The flags that give a command its start instead of the config's `[start]`.
#[derive(clap::Args)]
pub struct StartArgs {
    /// Start from this board instead of the config's `[start]` (`-` reads stdin).
    #[arg(long, value_name = "FILE|-", conflicts_with = "scramble")]
    board: Option<String>,
    /// Start from these moves applied to the goal, in the puzzle's notation (`"R U2 F'"`), for
    /// puzzles that read scrambles (`statespace puzzles` lists them).
    #[arg(long, value_name = "MOVES")]
    scramble: Option<String>,
}

impl StartArgs {
    /// The start: the flag's, else the config's `[start]`. A `--board` file holds at most
    /// the text a board of a `--boards` file may ([`item_cap`] under `memory_budget`).
    pub fn board(&self, config: &Config, memory_budget: u64) -> Result<BoardText, Error> {
        if let Some(path) = &self.board {
            return read_board(path, item_cap(memory_budget));
        }
        if let Some(moves) = &self.scramble {
            let mut text = BoardText::from_file("--scramble", moves.clone());
            text.scramble = true;
            return Ok(text);
        }
        config.start_board().ok_or_else(|| {
            Error::input(
                Location::file(&config.name).with_key("start"),
                "missing: give a [start] board (or scramble, for puzzles that read one), or \
                 --board FILE, or --scramble MOVES",
            )
        })
    }
}

/// The board in the file `path` (`-`: stdin), at most `cap` bytes of UTF-8 text (a byte-order
/// mark dropped). Past the cap nothing more is read: the file is refused, whatever follows.
fn read_board(path: &str, cap: usize) -> Result<BoardText, Error> {
    let name = if path == "-" { "<stdin>" } else { path };
    let io_error = |source| Error::Io {
        path: name.to_string(),
        source,
    };
    let reader: Box<dyn Read> = match path {
        "-" => Box::new(std::io::stdin().lock()),
        _ => Box::new(std::fs::File::open(path).map_err(io_error)?),
    };
    let mut bytes = Vec::new();
    reader
        .take(cap as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    if bytes.len() > cap {
        return Err(Error::input(Location::file(name), too_long(cap, "a board")));
    }
    if let Some((lines_before, message)) = not_utf8(&bytes) {
        return Err(Error::input(
            Location::file(name).at_line(lines_before + 1),
            message,
        ));
    }
    let text = String::from_utf8(bytes).expect("checked to be UTF-8");
    Ok(BoardText::from_file(name, without_bom(&text).to_string()))
}
