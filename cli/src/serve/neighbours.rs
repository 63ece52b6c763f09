//! A position's moves, each with the board it leads to and how far that board is from the goal:
//! what `POST /api/moves` answers and the page's hints show.
//!
//! # How the moves are found
//!
//! By the instance's export ([`Instance::export`]) at depth 1: the start and its successors,
//! with the move labels as played from the start, for every puzzle and any `.tws`, whatever
//! the size of its space (only the position and its neighbours are made). Node 0 of the graph
//! is the position itself, found first, so an edge's label is the move played from it.
//!
//! # How far each successor is
//!
//! Each successor is solved by the instance's engine for the server's mode (the config's, as
//! `solve` runs it), under a short time of its own, a share of [`Hints::time`]: with a distance
//! table (Flip, Shift, the 8-puzzle, Klotski) a lookup, exact; with pattern databases or a
//! search, exact when the search ends in its share of the time, else a lower bound: the depth
//! (IDDFS) or threshold (IDA*, A*'s `f`) it had reached, since every shorter length was
//! searched in vain ("at least" on the page). An engine that promises no minimum (beam search)
//! gives no bound. The trade-off: hints cost the server up to [`Hints::time`] a position,
//! spent in the request's solve slot like any search, and stop with it.

use statespace::board_text::BoardText;
use statespace::config::Mode;
use statespace::error::{Error, Location};
use statespace::graph::{Cut, ExportLimits};
use statespace::instance::{Answer, Instance, Solution};
use statespace::limit::{Limit, Limits};
use statespace::options::SearchOptions;
use statespace::picture::{self, BoardStyle};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The most moves a position's answer lists; a puzzle with more (a Flip board of a million
/// cells) gets the first ones and says it was cut.
pub const MAX_MOVES: u64 = 4096;

/// How hints are searched.
#[derive(Clone, Debug)]
pub struct Hints {
    /// The engine.
    pub mode: Mode,
    /// The time all of a position's hints may take together; zero: no hints (a scramble's or
    /// an animation's steps, which show no hints).
    pub time: Duration,
}

/// How far a board is from the goal, as far as a quick search tells.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Distance {
    /// The fewest moves, or a lower bound when `at_least`; `None`: not known (or unsolvable).
    pub moves: Option<u32>,
    /// `moves` is a lower bound: the search stopped on its time before it decided.
    pub at_least: bool,
    /// Proven: no sequence of moves reaches the goal.
    pub unsolvable: bool,
    /// The limit that stopped the search, if one did (`time limit 20ms reached`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
}

/// One move from the position.
#[derive(serde::Serialize, Debug)]
pub struct Move {
    /// Its label (`r2c3`, `7 left`, `R'`).
    #[serde(rename = "move")]
    pub label: String,
    /// The board it leads to.
    pub board: String,
    /// Whether that board is a goal.
    pub goal: bool,
    /// The cells whose text the move changes (`[row, column]`, 0-based), for the page's
    /// clicks: a tile's move changes its cell and the blank's.
    pub changed: Vec<(usize, usize)>,
    /// How far that board is from the goal.
    pub distance: Distance,
}

/// A position and its moves: the body of `POST /api/moves`.
#[derive(serde::Serialize, Debug)]
pub struct Neighbourhood {
    /// The position's board (a scramble applied to the goal, when it was given as one).
    pub board: String,
    /// The board drawn as `solve --svg` draws boards.
    pub svg: String,
    /// Whether it is a goal.
    pub goal: bool,
    /// How far it is from the goal.
    pub distance: Distance,
    /// Its moves, in the puzzle's order.
    pub moves: Vec<Move>,
    /// Why the list stops short ([`MAX_MOVES`]), if it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<String>,
}

/// The position `board`, its moves and their hints, within `limits` (the request's: its stop
/// flag and memory budget; hints take their own shorter times).
pub fn neighbourhood(
    instance: &Instance,
    board: &BoardText,
    limits: &Limits,
    options: &SearchOptions,
    hints: &Hints,
) -> Result<Neighbourhood, Error> {
    let export = ExportLimits {
        max_depth: Some(1),
        max_states: MAX_MOVES + 1,
        memory_budget: limits.memory_budget,
    };
    let graph = instance.export(board, &export, &mut |_, _| {})?;
    let nodes = graph.nodes();
    let here = &nodes[0].weight;
    let mut moves = Vec::new();
    for (source, target, edge) in graph.edges() {
        let next = match (source, target) {
            (0, next) => next,
            (next, 0) if !graph.is_directed() => next,
            _ => continue,
        };
        let node = &nodes[next].weight;
        moves.push(Move {
            label: edge.label.clone(),
            board: node.board.clone(),
            goal: node.is_goal,
            changed: differing_cells(instance.style(), &here.board, &node.board),
            distance: Distance::unknown(),
        });
    }
    // Successors first, then the position, in the puzzle's order; each its share of the time.
    // Whole milliseconds (at least one), so a limit's message reads `time limit 15ms reached`.
    let share =
        Duration::from_millis((hints.time.as_millis() as u64 / (moves.len() as u64 + 1)).max(1));
    // A hint needs a distance, not the config's list of several solutions.
    let options = SearchOptions {
        solutions: 1,
        ..options.clone()
    };
    let quick = |text: &str, goal: bool| -> Result<Distance, Error> {
        if goal {
            return Ok(Distance::exact(0));
        }
        if hints.time.is_zero() {
            return Ok(Distance::unknown());
        }
        let mut quick = limits.clone();
        quick.clock_start = Some(Instant::now());
        quick.time_limit = Some(share.min(limits.time_limit.unwrap_or(share)));
        let board = BoardText::from_file("request", text.to_string());
        match instance.solve(&board, hints.mode, &quick, &options) {
            Ok(solution) => Ok(Distance::of(instance, &solution)),
            // Refused on a limit (a table past the memory budget): no hint, said why.
            Err(Error::Limit { limit, .. }) => Ok(Distance {
                limit: Some(limit.to_string()),
                ..Distance::unknown()
            }),
            Err(other) => Err(other),
        }
    };
    let stopped = || limits.interrupt.is_some_and(|f| f.load(Ordering::SeqCst));
    for m in &mut moves {
        m.distance = quick(&m.board, m.goal)?;
        if stopped() {
            // The client went away, or the server stops: no more hints.
            return Err(Error::Limit {
                location: Location::command("serve"),
                limit: Limit::Interrupted,
            });
        }
    }
    let distance = quick(&here.board, here.is_goal)?;
    Ok(Neighbourhood {
        board: here.board.clone(),
        svg: picture::board_svg(instance.style(), &here.board),
        goal: here.is_goal,
        distance,
        moves,
        // Depth 1 is always reached; only a state limit cuts the moves.
        cut: (graph.cut)
            .filter(|cut| matches!(cut, Cut::States(_)))
            .map(|cut| format!("{cut}: the first {MAX_MOVES} moves")),
    })
}

/// The cells (row-major, 0-based) whose text differs between `before` and `after`, both ways:
/// unlike [`picture::changes`] (what a picture highlights), a tile's old cell counts too, as
/// a click there must find the move.
fn differing_cells(style: &BoardStyle, before: &str, after: &str) -> Vec<(usize, usize)> {
    let (before, after) = (picture::grid(style, before), picture::grid(style, after));
    let rows = before.len().max(after.len());
    let mut cells = Vec::new();
    for r in 0..rows {
        let (b, a) = (before.get(r), after.get(r));
        let cols = b.map_or(0, Vec::len).max(a.map_or(0, Vec::len));
        for c in 0..cols {
            if b.and_then(|row| row.get(c)) != a.and_then(|row| row.get(c)) {
                cells.push((r, c));
            }
        }
    }
    cells
}

impl Distance {
    fn unknown() -> Distance {
        Distance {
            moves: None,
            at_least: false,
            unsolvable: false,
            limit: None,
        }
    }

    fn exact(moves: u32) -> Distance {
        Distance {
            moves: Some(moves),
            ..Distance::unknown()
        }
    }

    /// What a solve says of its board's distance (a board that is not a goal: the caller answers
    /// goals itself): the answer's length when it is proven, a lower bound when an exact engine
    /// stopped on a limit (see the module docs), at least 1 even when the limit came before
    /// the search's first depth (a loaded machine can spend a short share in the setup).
    fn of(instance: &Instance, solution: &Solution) -> Distance {
        let exact = instance
            .engines()
            .iter()
            .any(|e| e.mode == solution.mode && e.gives.optimal);
        match &solution.answer {
            Answer::Solved { moves, .. } if solution.optimal => Distance::exact(moves.len() as u32),
            Answer::Solved { .. } => Distance::unknown(),
            Answer::Unsolvable => Distance {
                unsolvable: solution.optimal,
                ..Distance::unknown()
            },
            Answer::LimitReached(limit) => Distance {
                moves: exact.then_some(solution.stats.depth.max(1)),
                at_least: exact,
                limit: Some(limit.to_string()),
                ..Distance::unknown()
            },
        }
    }
}
