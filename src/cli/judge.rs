//! `statespace judge PROBLEM`: the judges' exact stdin and stdout formats.
//!
//! Nothing but the answer goes to stdout; a malformed stream is an error on stderr with a
//! non-zero exit, and an answer (`Impossible` included) exits 0.

use super::{Exit, read_input};
use statespace::config::BoardText;
use statespace::error::Error;
use statespace::puzzles::flip::{Flip, FlipGoal, Geometry};
use statespace::search::{Limits, Outcome, bfs};

#[derive(clap::Args)]
pub struct JudgeArgs {
    /// The problem whose input and output format to use.
    #[arg(value_enum)]
    problem: Problem,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Problem {
    /// Flip Game: 4 lines of 4 characters b/w; prints the fewest presses or `Impossible`.
    Poj1753,
}

pub fn run(args: JudgeArgs) -> Result<Exit, Error> {
    let input = read_input("-")?;
    match args.problem {
        Problem::Poj1753 => poj1753(&input),
    }
}

fn poj1753(input: &str) -> Result<Exit, Error> {
    let geometry = Geometry {
        rows: 4,
        cols: 4,
        wrap: false,
    };
    let board = geometry.parse(&BoardText::from_file("<stdin>", input.to_string()))?;
    let flip = Flip::new(geometry, FlipGoal::Uniform);
    match bfs::solve_indexed(&flip, board, &Limits::default()).outcome {
        Outcome::Solved(path) => println!("{}", path.len()),
        Outcome::Unsolvable => println!("Impossible"),
        Outcome::LimitReached(limit) => unreachable!("2^16 states fit any budget: {limit}"),
    }
    Ok(Exit::Ok)
}
