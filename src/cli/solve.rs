//! `statespace solve CONFIG [--board FILE|-] [--mode M] [--json]`.

use super::limits::LimitArgs;
use super::{Exit, board_arg, output, write_stdout};
use statespace::config::{Config, Mode};
use statespace::error::{Error, Location};
use statespace::instance::Answer;
use statespace::registry;
use statespace::search::Limit;

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
    let solution = instance.solve(&board, mode, &limits)?;
    if args.json {
        write_stdout(&format!("{}\n", output::json(&solution)))?;
    } else {
        write_stdout(&output::text(&solution))?;
    }
    Ok(match solution.answer {
        Answer::Solved { .. } => Exit::Ok,
        Answer::Unsolvable => Exit::Unsolvable,
        Answer::LimitReached(Limit::Interrupted) => Exit::Interrupted,
        Answer::LimitReached(_) => Exit::LimitReached,
    })
}
