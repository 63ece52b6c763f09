//! The command line: clap definitions, dispatch, and exit codes.
//!
//! Every subcommand returns an [`Exit`] or a library [`Error`]; this module prints errors as one
//! line on stderr and turns both into the documented exit codes. Results go to stdout, everything
//! else to stderr.

mod atomic_output;
mod cache;
mod explore;
mod export;
mod judge;
mod limits;
mod output;
mod progress;
mod puzzles;
mod solve;

use clap::{Parser, Subcommand};
use statespace::config::{BoardText, Config};
use statespace::error::{Error, Location};
use statespace::search::Limit;
use std::process::ExitCode;

/// Exit codes, as documented in the README.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Solved (or the command did what it was asked).
    Ok = 0,
    /// A bug: an internal error or a panic.
    Internal = 1,
    /// Bad input: arguments, config, board, judge stream, unreadable file.
    BadInput = 2,
    /// Proven unsolvable.
    Unsolvable = 3,
    /// A limit (depth, states, time, memory) stopped the run before it could decide.
    LimitReached = 4,
    /// Interrupted by Ctrl-C (SIGINT) before it could decide: 128 + 2, as shells do.
    Interrupted = 130,
}

#[derive(Parser)]
#[command(name = "statespace", version, about = "Exact state-space search for puzzles", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve the start board of a config: the fewest moves, or `Impossible`.
    Solve(solve::SolveArgs),
    /// Read a judge problem's stdin and write exactly the judge's expected stdout.
    Judge(judge::JudgeArgs),
    /// List the registered puzzles, their parameters, goals and modes.
    Puzzles(puzzles::PuzzlesArgs),
    /// Write the state graph around the start board as DOT, GraphML or JSON.
    Export(export::ExportArgs),
    /// Sweep every state that can reach the goal: counts by distance, the farthest board.
    Explore(explore::ExploreArgs),
}

/// Parses the command line, runs it and maps the result to an exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = std::panic::catch_unwind(|| match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Judge(args) => judge::run(args),
        Command::Puzzles(args) => puzzles::run(args),
        Command::Export(args) => export::run(args),
        Command::Explore(args) => explore::run(args),
    });
    let exit = match result {
        Ok(Ok(exit)) => exit,
        Ok(Err(error)) => {
            eprintln!("statespace: error: {error}");
            match error {
                Error::Input { .. } | Error::Io { .. } => Exit::BadInput,
                Error::Limit {
                    limit: Limit::Interrupted,
                    ..
                } => Exit::Interrupted,
                Error::Limit { .. } => Exit::LimitReached,
            }
        }
        // The panic hook has already printed the message and location.
        Err(_) => {
            eprintln!("statespace: internal error (a bug: please report it)");
            Exit::Internal
        }
    };
    ExitCode::from(exit as u8)
}

/// Writes a result to stdout. A reader that went away (`| head`) is not an error: the rest of the
/// output is simply not wanted, so a closed pipe ends the write quietly.
pub fn write_stdout(text: &str) -> Result<(), Error> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Error::Io {
            path: "<stdout>".into(),
            source: e,
        }),
        _ => Ok(()),
    }
}

/// Reads a whole file, or stdin for `-`, without a leading byte-order mark.
pub fn read_input(path: &str) -> Result<String, Error> {
    use std::io::Read;
    let (name, read) = if path == "-" {
        let mut text = String::new();
        let read = std::io::stdin().read_to_string(&mut text).map(|_| text);
        ("<stdin>", read)
    } else {
        (path, std::fs::read_to_string(path))
    };
    let mut text = read.map_err(|source| Error::Io {
        path: name.to_string(),
        source,
    })?;
    let mark = text.len() - statespace::error::without_bom(&text).len();
    text.drain(..mark);
    Ok(text)
}

/// The board a command starts from: the file named by `--board` (`-`: stdin), else the config's
/// `[start] board`.
pub fn board_arg(config: &Config, board: Option<&str>) -> Result<BoardText, Error> {
    match board {
        Some(path) => {
            let name = if path == "-" { "<stdin>" } else { path };
            Ok(BoardText::from_file(name, read_input(path)?))
        }
        None => config.start_board().ok_or_else(|| {
            Error::input(
                Location::file(&config.name).with_key("start.board"),
                "missing: give a [start] board or --board FILE",
            )
        }),
    }
}
