//! Where a command's position comes from: `--board FILE`, `--scramble MOVES`, or the config's
//! `[start]` (a `board`, or a `scramble` for puzzles that read one).

use super::read_input;
use statespace::board_text::BoardText;
use statespace::config::Config;
use statespace::error::{Error, Location};

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
    /// The start: the flag's, else the config's `[start]`.
    pub fn board(&self, config: &Config) -> Result<BoardText, Error> {
        if let Some(path) = &self.board {
            let name = if path == "-" { "<stdin>" } else { path };
            return Ok(BoardText::from_file(name, read_input(path)?));
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
