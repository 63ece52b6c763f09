//! `statespace solve CONFIG [--board FILE|-] [--mode M] [--json]`.

use super::{Exit, output, read_input};
use statespace::config::{BoardText, Config, Mode};
use statespace::error::{Error, Location};
use statespace::registry::{self, Answer};
use statespace::search::Limits;

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
    /// Stop after this many moves deep (overrides `[search] max_depth`).
    #[arg(long, value_name = "N")]
    max_depth: Option<u32>,
    /// Stop after visiting this many states (overrides `[search] max_states`).
    #[arg(long, value_name = "N")]
    max_states: Option<u64>,
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
    let mut limits = config.limits(Limits::default())?;
    if args.max_depth.is_some() {
        limits.max_depth = args.max_depth;
    }
    if args.max_states.is_some() {
        limits.max_states = args.max_states;
    }
    let board = match &args.board {
        Some(path) => {
            let name = if path == "-" {
                "<stdin>"
            } else {
                path.as_str()
            };
            BoardText::from_file(name, read_input(path)?)
        }
        None => config.start_board().ok_or_else(|| {
            Error::input(
                Location::file(&config.name).with_key("start.board"),
                "missing: give a [start] board or --board FILE",
            )
        })?,
    };
    let solution = instance.solve(&board, mode, &limits)?;
    if args.json {
        println!("{}", output::json(&solution));
    } else {
        print!("{}", output::text(&solution));
    }
    Ok(match solution.answer {
        Answer::Solved { .. } => Exit::Ok,
        Answer::Unsolvable => Exit::Unsolvable,
        Answer::LimitReached(_) => Exit::LimitReached,
    })
}
