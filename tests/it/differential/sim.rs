//! What every simulator of the differential suite offers ([`Simulator`]), and the brute force
//! over one ([`brute_force`]): a breadth-first search over the simulator's own boards and
//! labels, which also counts the shortest label sequences (for the puzzles whose solution
//! listings the guide pins down).

use std::collections::HashMap;
use std::hash::Hash;

/// A puzzle the slow, obvious way: boards, every legal move with the label the guide gives it,
/// the goal, and the board text `solve` prints. Nothing in a simulator calls a plugin.
pub trait Simulator {
    /// A position. Equal boards must be the same position to the puzzle (blocks keeps its
    /// look-alikes' letters in the printed order, so that equality is the puzzle's).
    type Board: Clone + Eq + Hash;

    /// The board as `solve` prints it (`boards`, `start`).
    fn text(&self, board: &Self::Board) -> String;

    /// Every legal move of `board`: its label, as the guide documents it, and the board after.
    fn moves(&self, board: &Self::Board) -> Vec<(String, Self::Board)>;

    /// Whether `board` is a goal.
    fn is_goal(&self, board: &Self::Board) -> bool;

    /// The board after the move labelled `label`: the one legal move of `board` the label
    /// names, read against the labels the guide documents (an unknown or illegal label, or one
    /// that names two moves, is the error).
    fn apply(&self, board: &Self::Board, label: &str) -> Result<Self::Board, String> {
        let mut named = self.moves(board).into_iter().filter(|(l, _)| l == label);
        match (named.next(), named.next()) {
            (Some((_, next)), None) => Ok(next),
            (None, _) => Err(format!(
                "`{label}` is no legal move of this board:\n{}",
                self.text(board)
            )),
            (Some(_), Some(_)) => Err(format!("`{label}` names two moves")),
        }
    }

    /// How many solutions `--solutions N` lists at most, where the guide fixes which optimal
    /// move sequences count as distinct (`sequences` of `length` moves were found by the brute
    /// force); `None` where the puzzle's move order is not pinned down to count.
    fn solutions_there_are(&self, sequences: u128, length: usize) -> Option<u128> {
        let _ = (sequences, length);
        None
    }

    /// What makes two listed solutions different (Flip: the set of presses; else the labels).
    fn solution_key(&self, moves: &[String]) -> Vec<String> {
        moves.to_vec()
    }
}

/// What the brute force knows about a start.
#[derive(Clone, Debug)]
pub struct Truth {
    /// The fewest moves to a goal; `None`: no goal is reachable.
    pub optimum: Option<usize>,
    /// How many label sequences of `optimum` moves reach a goal.
    pub sequences: u128,
    /// When no goal is reachable: the largest distance of a board from the start.
    pub eccentricity: usize,
}

/// Breadth-first from `start` over `sim`'s moves until the first layer that holds a goal (or
/// the start's whole component), storing at most `cap` boards (past it: an error, the
/// generator's fault).
pub fn brute_force<S: Simulator>(sim: &S, start: &S::Board, cap: usize) -> Result<Truth, String> {
    // Each board's distance and the number of shortest label sequences that reach it.
    let mut seen: HashMap<S::Board, (usize, u128)> = HashMap::from([(start.clone(), (0, 1))]);
    let mut layer = vec![start.clone()];
    for depth in 0.. {
        let goals: u128 = (layer.iter())
            .filter(|b| sim.is_goal(b))
            .map(|b| seen[b].1)
            .sum();
        if goals > 0 {
            return Ok(Truth {
                optimum: Some(depth),
                sequences: goals,
                eccentricity: depth,
            });
        }
        let mut next = Vec::new();
        for board in &layer {
            let paths = seen[board].1;
            for (_, after) in sim.moves(board) {
                match seen.get_mut(&after) {
                    Some((d, count)) if *d == depth + 1 => *count = count.saturating_add(paths),
                    Some(_) => {}
                    None => {
                        seen.insert(after.clone(), (depth + 1, paths));
                        next.push(after);
                    }
                }
            }
        }
        if seen.len() > cap {
            return Err(format!("the brute force passed {cap} boards"));
        }
        if next.is_empty() {
            return Ok(Truth {
                optimum: None,
                sequences: 0,
                eccentricity: depth,
            });
        }
        layer = next;
    }
    unreachable!()
}

/// The board `moves` random moves from `start` (a random walk through `sim`), for pattern goals
/// that are reachable.
pub fn walk<S: Simulator>(
    sim: &S,
    start: &S::Board,
    moves: usize,
    rng: &mut statespace::random::Lcg,
) -> S::Board {
    let mut board = start.clone();
    for _ in 0..moves {
        let next = sim.moves(&board);
        if next.is_empty() {
            break;
        }
        board = next[rng.below(next.len())].1.clone();
    }
    board
}
