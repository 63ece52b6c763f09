//! `statespace judge PROBLEM`: the judges' exact stdin and stdout formats.
//!
//! Nothing but the answer goes to stdout; a malformed stream is an error on stderr with a
//! non-zero exit, and an answer (`Impossible` included) exits 0.

use super::cache::CacheArgs;
use super::{Exit, read_input, write_stdout};
use statespace::cache::TableCache;
use statespace::config::BoardText;
use statespace::error::{Error, Location};
use statespace::puzzles::flip::{Flip, FlipGoal, Geometry};
use statespace::puzzles::shift::{self, Board, Palette, RegionSolver};
use statespace::search::{Limits, Outcome, bfs};

#[derive(clap::Args)]
pub struct JudgeArgs {
    /// The problem whose input and output format to use.
    #[arg(value_enum)]
    problem: Problem,
    #[command(flatten)]
    cache: CacheArgs,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Problem {
    /// Flip Game: 4 lines of 4 characters b/w; prints the fewest presses or `Impossible`.
    Poj1753,
    /// Shift Puzzle: T, then T cases of 4 rows of 6 letters B/W/G (whitespace-separated tokens);
    /// prints `Case i: N`, the fewest moves that make the 8 interior cells one colour.
    Hdu3278,
}

pub fn run(args: JudgeArgs) -> Result<Exit, Error> {
    let input = read_input("-")?;
    match args.problem {
        Problem::Poj1753 => poj1753(&input),
        Problem::Hdu3278 => hdu3278(&input, &args.cache.cache()),
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
        Outcome::Solved(path) => write_stdout(&format!("{}\n", path.len()))?,
        Outcome::Unsolvable => write_stdout("Impossible\n")?,
        Outcome::LimitReached(limit) => unreachable!("2^16 states fit any budget: {limit}"),
    }
    Ok(Exit::Ok)
}

/// HDU 3278. The whole stream is read and checked before anything is printed, so bad input
/// prints nothing but the error. The problem promises 8 cells of each colour, but any counts are
/// answered: on 24 cells of 3 colours some colour has at least 8, so an answer always exists
/// (`Impossible` is printed should none, which cannot happen on this board).
fn hdu3278(input: &str, cache: &TableCache) -> Result<Exit, Error> {
    let geometry = shift::Geometry { rows: 4, cols: 6 };
    let palette = &Palette::default();
    let mut tokens = input
        .lines()
        .enumerate()
        .flat_map(|(i, line)| line.split_whitespace().map(move |t| (i + 1, t)));
    let last_line = input.lines().count().max(1);
    let at = |line: usize, key: String| Location::file("<stdin>").at_line(line).with_key(key);

    let (line, count) = tokens
        .next()
        .ok_or_else(|| Error::input(at(1, "T".into()), "missing: expected the number of cases"))?;
    let digits = !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit());
    let count: usize = count.parse().ok().filter(|_| digits).ok_or_else(|| {
        Error::input(
            at(line, "T".into()),
            format!("`{count}` is not a number of cases (0 or more)"),
        )
    })?;
    let mut boards = Vec::new();
    for case in 1..=count {
        let mut cells = Vec::with_capacity(geometry.cells() as usize);
        for row in 1..=geometry.rows {
            let key = format!("case {case}, row {row}");
            let (line, token) = tokens.next().ok_or_else(|| {
                Error::input(
                    at(last_line, key.clone()),
                    format!("missing: the input ends before case {case} of {count}"),
                )
            })?;
            geometry
                .parse_row(palette, token, &mut cells)
                .map_err(|message| Error::input(at(line, key), format!("`{token}`{message}")))?;
        }
        boards.push(Board { cells });
    }
    if let Some((line, token)) = tokens.next() {
        return Err(Error::input(
            at(line, "end".into()),
            format!("unexpected `{token}` after the {count} cases"),
        ));
    }

    let solver = RegionSolver::new(geometry, geometry.interior(), None);
    let limits = Limits::default();
    let mut out = String::new();
    for (i, board) in boards.iter().enumerate() {
        let answer = match solver.distance(board, &limits, cache) {
            Ok(Some(d)) => d.to_string(),
            Ok(None) => "Impossible".to_string(),
            Err(limit) => unreachable!("a 360 KiB table fits any budget: {limit}"),
        };
        out.push_str(&format!("Case {}: {answer}\n", i + 1));
    }
    write_stdout(&out)?;
    Ok(Exit::Ok)
}
