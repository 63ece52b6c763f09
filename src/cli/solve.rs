//! `statespace solve CONFIG [--board FILE|-] [--mode M] [--json] [--svg FILE]`.
//!
//! `--svg FILE` also writes a picture of the answer ([`statespace::picture::solution_svg`]): the
//! boards start to goal, each move's changes highlighted and its label underneath; for
//! `Impossible`, the start board alone under that caption. It is written atomically (a temporary
//! file beside FILE, renamed into place; created before the search, so an unwritable path fails
//! before any work). When a limit stops the search, or the strip would be too large to draw,
//! nothing is written and stderr says so in one line: the exit code stays the answer's (4 for a
//! limit), since the text or JSON on stdout is still the answer.

use super::atomic_output::AtomicOutput;
use super::limits::LimitArgs;
use super::{Exit, board_arg, output, write_stdout};
use statespace::config::{Config, Mode};
use statespace::error::{Error, Location};
use statespace::instance::{Answer, Instance, Solution};
use statespace::picture::{self, Frame};
use statespace::registry;
use statespace::search::Limit;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct SolveArgs {
    /// The TOML config: puzzle, goal, search mode and start board.
    config: String,
    /// Solve this board instead of the config's `[start] board` (`-` reads stdin).
    #[arg(long, value_name = "FILE|-")]
    board: Option<String>,
    /// The search engine (default: the config's `[search] mode`, else the puzzle's default).
    #[arg(long, value_enum)]
    mode: Option<Mode>,
    #[command(flatten)]
    limits: LimitArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the solution as a strip of board pictures (SVG, atomically).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

pub fn run(args: SolveArgs) -> Result<Exit, Error> {
    let config = Config::load(&args.config)?;
    let instance = registry::build(&config)?;
    let mode = args.mode.unwrap_or(instance.default_mode());
    instance
        .check_mode(mode)
        .map_err(|m| Error::input(Location::file("--mode"), m))?;
    let limits = args.limits.resolve(Some(&config))?;
    let board = board_arg(&config, args.board.as_deref())?;
    let svg = args.svg.as_deref().map(AtomicOutput::create).transpose()?;
    let solution = instance.solve(&board, mode, &limits)?;
    if args.json {
        write_stdout(&format!("{}\n", output::json(&solution)))?;
    } else {
        write_stdout(&output::text(&solution))?;
    }
    if let (Some(file), Some(path)) = (svg, args.svg.as_deref()) {
        match picture_of(&instance, &solution) {
            Ok(text) => file.commit(text.as_bytes())?,
            // Dropping `file` removes the temporary file: nothing is left behind.
            Err(why) => eprintln!("statespace: solve: {} not written: {why}", path.display()),
        }
    }
    Ok(match solution.answer {
        Answer::Solved { .. } => Exit::Ok,
        Answer::Unsolvable => Exit::Unsolvable,
        Answer::LimitReached(Limit::Interrupted) => Exit::Interrupted,
        Answer::LimitReached(_) => Exit::LimitReached,
    })
}

/// The SVG strip of `solution`, or why there is none (a limit, or too many cells).
fn picture_of(instance: &Instance, solution: &Solution) -> Result<String, String> {
    let description = instance.description();
    let (title, frames) = match &solution.answer {
        Answer::Solved { moves, boards } => {
            let n = moves.len();
            let unit = if n == 1 { "move" } else { "moves" };
            let title = format!("{description}: {n} {unit}");
            let last = solution.extra.get("final").and_then(|v| v.as_str());
            let mut frames = vec![Frame {
                label: "start",
                board: &solution.start,
            }];
            if boards.len() == moves.len() {
                frames.extend(
                    moves
                        .iter()
                        .zip(boards)
                        .map(|(label, board)| Frame { label, board }),
                );
            } else if let Some(last) = last {
                // The per-move boards were left out (big algebraic Flip boards): draw the start
                // and the goal reached, the cells that differ highlighted.
                frames.push(Frame {
                    label: "final",
                    board: last,
                });
            }
            (title, frames)
        }
        Answer::Unsolvable => (
            format!("{description}: Impossible (no sequence of moves reaches the goal)"),
            vec![Frame {
                label: "start",
                board: &solution.start,
            }],
        ),
        Answer::LimitReached(limit) => return Err(format!("undecided ({limit})")),
    };
    picture::solution_svg(instance.style(), &title, &frames).map_err(|e| e.to_string())
}
