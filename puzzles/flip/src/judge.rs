//! `statespace judge poj1753`: the POJ 1753 judge's exact stdin and stdout.
//!
//! Four lines of four characters `b`/`w`; prints the fewest presses that make every piece one
//! colour, or `Impossible`. A malformed board is one error naming its line.

use crate::board::Geometry;
use crate::space::{Flip, FlipGoal};
use statespace::board_text::BoardText;
use statespace::cache::TableCache;
use statespace::error::{Error, Location};
use statespace::limit::Limits;
use statespace::registry::Judge;
use statespace::search::{Outcome, bfs};

/// The judge, for the plugin's [`judges`](statespace::registry::Plugin::judges).
pub const POJ1753: Judge = Judge {
    name: "poj1753",
    summary: "Flip Game: 4 lines of 4 characters b/w; prints the fewest presses or `Impossible`",
    run: poj1753,
};

/// Answers a POJ 1753 input (see the module docs); the cache is not used (BFS over 2^16 boards
/// takes microseconds).
pub fn poj1753(input: &str, _: &TableCache) -> Result<String, Error> {
    let geometry = Geometry {
        rows: 4,
        cols: 4,
        wrap: false,
    };
    let board = geometry.parse(&BoardText::from_file("<stdin>", input.to_string()))?;
    let flip = Flip::new(geometry, FlipGoal::Uniform);
    match bfs::solve_indexed(&flip, board, &Limits::default()).outcome {
        Outcome::Solved(path) => Ok(format!("{}\n", path.len())),
        Outcome::Unsolvable => Ok("Impossible\n".to_string()),
        // Not met in practice (2^16 boards), but the budget is the machine's: an error, not a
        // panic.
        Outcome::LimitReached(limit) => Err(Error::Limit {
            location: Location::file("<stdin>"),
            limit,
        }),
    }
}
