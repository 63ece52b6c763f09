//! A [`Solution`] as its front ends give it: text for people ([`text`]), a JSON object for
//! programs ([`json`], [`json_value`]), an SVG strip of boards ([`svg`]). What an engine adds
//! besides the path comes through its [`Details`](statespace::instance::Details): this module
//! knows no engine's fields.
//!
//! `solve` prints the first two and writes the third (`--svg`); the Python package's `Solution`
//! holds the JSON object's fields as attributes and draws the same SVG.

use statespace::instance::{Answer, Solution};
use statespace::picture::{self, BoardStyle, Frame};
use statespace::search::Stats;
use std::fmt::Write;

/// Boards drawn side by side up to this width; wider runs are drawn one under another.
const MAX_WIDTH: usize = 100;

/// The text form: the answer, the path, the boards along it, and the stats.
pub fn text(solution: &Solution) -> String {
    let mut out = String::new();
    match &solution.answer {
        Answer::Solved { moves, boards } => {
            let n = moves.len();
            let unit = if n == 1 { "move" } else { "moves" };
            let qualifier = match solution.qualifier() {
                Some(words) => format!(" ({words})"),
                None => String::new(),
            };
            writeln!(out, "{n} {unit}{qualifier}").unwrap();
            if n > 0 {
                writeln!(out, "path: {}", moves.join(" ")).unwrap();
            }
            if let Some(summary) = solution.summary() {
                let (labels, all): (Vec<String>, Vec<String>) = summary.into_iter().unzip();
                out.push_str(&draw_boards(&labels, &all));
            } else {
                let mut labels = vec!["start".to_string()];
                labels.extend(moves.iter().cloned());
                let mut all = vec![solution.start.clone()];
                all.extend(boards.iter().cloned());
                out.push_str(&draw_boards(&labels, &all));
            }
            for line in solution.lines() {
                writeln!(out, "{line}").unwrap();
            }
            if solution.asked > 1 {
                out.push_str(&solutions_text(solution));
            }
        }
        Answer::Unsolvable => {
            match solution.proof {
                Some(proof) => writeln!(out, "Impossible (proven by {proof}, without a search)"),
                None => writeln!(out, "Impossible"),
            }
            .unwrap();
            out.push_str(&draw_boards(
                &["start".into()],
                std::slice::from_ref(&solution.start),
            ));
            for line in solution.lines() {
                writeln!(out, "{line}").unwrap();
            }
        }
        Answer::LimitReached(limit) => {
            writeln!(out, "undecided: {limit}").unwrap();
        }
    }
    writeln!(out, "{}", stats_line(&solution.stats, solution.mode.name())).unwrap();
    out
}

/// The numbered solutions, when more than one was asked for: a heading that says whether they
/// are all the optimal solutions there are, then one line each.
fn solutions_text(solution: &Solution) -> String {
    let solutions = solution.solutions();
    let n = solutions.len();
    let mut out = match (solution.all_optimal(), n) {
        (true, 1) => "solutions: the only optimal one\n".to_string(),
        (true, _) => format!("solutions: all {n} optimal ones\n"),
        (false, _) => format!("solutions: the first {n} optimal ones\n"),
    };
    for (i, moves) in solutions.iter().enumerate() {
        let moves = match moves.is_empty() {
            true => "(no moves)".to_string(),
            false => moves.join(" "),
        };
        writeln!(out, "{:>4}. {moves}", i + 1).unwrap();
    }
    out
}

/// One line of statistics: the time is the whole solve's, and the part of it spent building
/// tables follows when there was one; then the transposition table's hits and size when the
/// engine kept one.
fn stats_line(stats: &Stats, mode: &str) -> String {
    let mut build = match stats.build.is_zero() {
        true => String::new(),
        false => format!(", build {:.3} s", stats.build.as_secs_f64()),
    };
    if stats.transposition_bytes > 0 {
        build.push_str(&format!(
            ", transposition hits {} ({} table)",
            stats.transposition_hits,
            statespace::limit::human_bytes(stats.transposition_bytes as u128)
        ));
    }
    format!(
        "stats: mode {mode}, expanded {}, generated {}, visited {}, peak frontier {}, depth {}, {:.3} s{build}",
        stats.expanded,
        stats.generated,
        stats.visited,
        stats.peak_frontier,
        stats.depth,
        stats.elapsed.as_secs_f64()
    )
}

/// Boards under their labels, side by side while they fit in [`MAX_WIDTH`] columns.
fn draw_boards(labels: &[String], boards: &[String]) -> String {
    let width = boards
        .iter()
        .flat_map(|b| b.lines())
        .chain(labels.iter().map(String::as_str))
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        + 2;
    let per_line = (MAX_WIDTH / width).max(1);
    let mut out = String::new();
    for (chunk_labels, chunk_boards) in labels.chunks(per_line).zip(boards.chunks(per_line)) {
        // Split each board once: looking rows up by `nth` would be quadratic in the height.
        let split: Vec<Vec<&str>> = chunk_boards.iter().map(|b| b.lines().collect()).collect();
        let height = split.iter().map(Vec::len).max().unwrap_or(0);
        let mut lines = vec![chunk_labels.iter().map(String::as_str).collect::<Vec<_>>()];
        for row in 0..height {
            lines.push(
                split
                    .iter()
                    .map(|rows| rows.get(row).copied().unwrap_or(""))
                    .collect(),
            );
        }
        for cells in lines {
            let line: String = cells.iter().map(|c| format!("{c:width$}")).collect();
            writeln!(out, "{}", line.trim_end()).unwrap();
        }
        out.push('\n');
    }
    out
}

/// The JSON form: `solvable` (true, false, or null when a limit stopped the run), `moves`,
/// `path`, `boards`, `mode`, `outcome`, `limit`, `optimal` (whether the answer is proven: the
/// fewest moves, or a proof of none), `stats`, `proof` (the invariant that proved the start
/// unsolvable, or null), plus the fields of the engine's details; when more than one
/// solution was asked for, `solutions` (every one's moves, `path` first) and `all_optimal`.
pub fn json(solution: &Solution) -> String {
    json_value(solution).to_string()
}

/// [`json`] as a value, for callers that add fields (`solve --boards` adds `index`) or convert
/// it (the Python package).
pub fn json_value(solution: &Solution) -> serde_json::Value {
    let (solvable, moves, path, boards, outcome, limit) = match &solution.answer {
        Answer::Solved { moves, boards } => (
            Some(true),
            Some(moves.len()),
            moves.clone(),
            boards.clone(),
            "solved",
            None,
        ),
        Answer::Unsolvable => (Some(false), None, vec![], vec![], "unsolvable", None),
        Answer::LimitReached(l) => (
            None,
            None,
            vec![],
            vec![],
            "limit-reached",
            Some(l.to_string()),
        ),
    };
    let mut object = serde_json::json!({
        "solvable": solvable,
        "moves": moves,
        "path": path,
        "boards": boards,
        "start": solution.start,
        "mode": solution.mode,
        "outcome": outcome,
        "limit": limit,
        "optimal": solution.optimal,
        "stats": solution.stats,
        "proof": solution.proof,
    });
    let map = object.as_object_mut().expect("an object");
    if solution.asked > 1 {
        map.insert("solutions".into(), solution.solutions().into());
        map.insert("all_optimal".into(), solution.all_optimal().into());
    }
    map.extend(solution.json_fields());
    object
}

/// The SVG strip of `solution` of the puzzle `description` whose boards are drawn in `style`,
/// or why there is none (a limit, or too many cells).
pub fn svg(description: &str, style: &BoardStyle, solution: &Solution) -> Result<String, String> {
    // The last board the engine's summary draws (the board reached), for when the per-move
    // boards were left out.
    let summary = solution.summary();
    let last = summary.as_ref().and_then(|s| s.last());
    let (title, frames) = match &solution.answer {
        Answer::Solved { moves, boards } => {
            let n = moves.len();
            let unit = if n == 1 { "move" } else { "moves" };
            let title = format!("{description}: {n} {unit}");
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
            } else if let Some((label, board)) = last {
                let (label, board) = (label.as_str(), board.as_str());
                // The per-move boards were left out (big algebraic Flip boards): draw the start
                // and the goal reached, the cells that differ highlighted.
                frames.push(Frame { label, board });
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
    picture::solution_svg(style, &title, &frames).map_err(|e| e.to_string())
}
