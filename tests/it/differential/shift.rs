//! Shift, the slow way: a board is a grid of colour letters; `row {r} left` moves every cell of
//! row `r` (1-based) one place left, the leftmost to the right end (`right` the other way);
//! `col {c} up` moves column `c` one place up, the top cell to the bottom (`down` the other
//! way). Goals: a region (the interior: every non-edge cell; or `[goal] region`, 1-based and
//! inclusive) all one colour, or the one `[goal] colour`; or a `pattern` board. Random boards of
//! 3 x 3, 3 x 4 and 4 x 3 in two to four colours, any counts, and 3 x 3 in nine.

use super::Case;
use super::sim::{Simulator, walk};
use statespace::random::Lcg;

pub struct Shift {
    rows: usize,
    cols: usize,
    goal: Goal,
}

enum Goal {
    /// The cells of the region, and the colour that must fill them (any when `None`).
    Region(Vec<usize>, Option<u8>),
    Pattern(Vec<u8>),
}

fn text(cells: &[u8], cols: usize) -> String {
    let rows: Vec<String> = (cells.chunks(cols))
        .map(|row| String::from_utf8(row.to_vec()).unwrap())
        .collect();
    rows.join("\n")
}

impl Simulator for Shift {
    type Board = Vec<u8>;

    fn text(&self, board: &Vec<u8>) -> String {
        text(board, self.cols)
    }

    fn moves(&self, board: &Vec<u8>) -> Vec<(String, Vec<u8>)> {
        let (rows, cols) = (self.rows, self.cols);
        let at = |r: usize, c: usize| board[r * cols + c];
        let mut moves = Vec::new();
        for r in 0..rows {
            for (way, step) in [("left", 1), ("right", cols - 1)] {
                let mut after = board.clone();
                for c in 0..cols {
                    // Left: each cell takes the colour of the cell to its right.
                    after[r * cols + c] = at(r, (c + step) % cols);
                }
                moves.push((format!("row {} {way}", r + 1), after));
            }
        }
        for c in 0..cols {
            for (way, step) in [("up", 1), ("down", rows - 1)] {
                let mut after = board.clone();
                for r in 0..rows {
                    // Up: each cell takes the colour of the cell below it.
                    after[r * cols + c] = at((r + step) % rows, c);
                }
                moves.push((format!("col {} {way}", c + 1), after));
            }
        }
        moves
    }

    fn is_goal(&self, board: &Vec<u8>) -> bool {
        match &self.goal {
            Goal::Region(cells, colour) => {
                let first = board[cells[0]];
                cells.iter().all(|&i| board[i] == first) && colour.is_none_or(|c| c == first)
            }
            Goal::Pattern(target) => board == target,
        }
    }
}

pub fn case(rng: &mut Lcg) -> Case<Shift> {
    let (rows, cols) = [(3, 3), (3, 4), (4, 3)][rng.below(3)];
    // Four colours on 3 x 3 only: the brute force of an unreachable pattern sweeps every
    // arrangement of the colours (at most 34,650 on 12 cells in three). Nine on 3 x 3, all
    // distinct, for the parity invariant of odd x odd boards (pattern goals only).
    let palettes: &[&str] = match rows * cols {
        9 => &["BW", "BWG", "RGBY", "ABCDEFGHI"],
        _ => &["BW", "BWG"],
    };
    let palette = palettes[rng.below(palettes.len())].as_bytes();
    let start: Vec<u8> = match palette.len() {
        9 => shuffled(palette, rng),
        _ => (0..rows * cols)
            .map(|_| palette[rng.below(palette.len())])
            .collect(),
    };
    let colour = match rng.below(2) {
        0 => Some(palette[rng.below(palette.len())]),
        _ => None,
    };
    let colour_toml = match colour {
        Some(c) => format!("colour = \"{}\"\n", c as char),
        None => String::new(),
    };
    let rectangle = |top: usize, left: usize, bottom: usize, right: usize| -> Vec<usize> {
        (top..=bottom)
            .flat_map(|r| (left..=right).map(move |c| r * cols + c))
            .collect()
    };
    let mut sim = Shift {
        rows,
        cols,
        goal: Goal::Region(Vec::new(), None),
    };
    let goal_toml = match if palette.len() == 9 { 2 } else { rng.below(3) } {
        0 => {
            sim.goal = Goal::Region(rectangle(1, 1, rows - 2, cols - 2), colour);
            format!("kind = \"interior-uniform\"\n{colour_toml}")
        }
        1 => {
            let (height, width) = (1 + rng.below(rows), 1 + rng.below(cols));
            let (top, left) = (rng.below(rows - height + 1), rng.below(cols - width + 1));
            let (bottom, right) = (top + height - 1, left + width - 1);
            sim.goal = Goal::Region(rectangle(top, left, bottom, right), colour);
            format!(
                "kind = \"region-uniform\"\nregion = [{}, {}, {}, {}]\n{colour_toml}",
                top + 1,
                left + 1,
                bottom + 1,
                right + 1
            )
        }
        _ => {
            // Mostly a board the start reaches; sometimes the start's colours shuffled, which
            // may be out of reach.
            let mut target = walk(&sim, &start, rng.below(6), rng);
            if rng.below(3) == 0 {
                target = shuffled(&target, rng);
            }
            let toml = format!(
                "kind = \"pattern\"\ntarget = \"\"\"\n{}\n\"\"\"\n",
                text(&target, cols)
            );
            sim.goal = Goal::Pattern(target);
            toml
        }
    };
    let config = format!(
        "[puzzle]\nkind = \"shift\"\nrows = {rows}\ncols = {cols}\ncolours = \"{}\"\n\n[goal]\n\
         {goal_toml}\n[start]\nboard = \"\"\"\n{}\n\"\"\"\n",
        String::from_utf8(palette.to_vec()).unwrap(),
        text(&start, cols)
    );
    Case {
        sim,
        start,
        config,
        cap: 200_000,
        heuristic_keys: Vec::new(),
        costly_heuristics: &[],
    }
}

fn shuffled(cells: &[u8], rng: &mut Lcg) -> Vec<u8> {
    let mut cells = cells.to_vec();
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.below(i + 1));
    }
    cells
}
