//! Flip, the slow way: a board is a grid of `b`/`w`; pressing `r{row}c{col}` (1-based) flips
//! the cell and its orthogonal neighbours, across the edges on a torus, each cell once (a 2-wide
//! torus has one cell as both left and right neighbour). Goals: `uniform` (one colour, either),
//! `all-white`, `all-black`, `pattern` (the target board). Random boards of 1 x 1 to 3 x 4,
//! plain and torus, every goal.

use super::Case;
use super::sim::Simulator;
use statespace::random::Lcg;

pub struct Flip {
    rows: usize,
    cols: usize,
    wrap: bool,
    goal: Goal,
}

enum Goal {
    Uniform,
    AllWhite,
    AllBlack,
    Pattern(Vec<bool>),
}

impl Flip {
    /// The cells pressing `(r, c)` flips: itself and its neighbours, each once.
    fn flipped(&self, r: usize, c: usize) -> Vec<usize> {
        let mut cells = Vec::new();
        for (dr, dc) in [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)] {
            let (mut y, mut x) = (r as isize + dr, c as isize + dc);
            if self.wrap {
                y = y.rem_euclid(self.rows as isize);
                x = x.rem_euclid(self.cols as isize);
            } else if y < 0 || x < 0 || y >= self.rows as isize || x >= self.cols as isize {
                continue;
            }
            let cell = y as usize * self.cols + x as usize;
            if !cells.contains(&cell) {
                cells.push(cell);
            }
        }
        cells
    }
}

/// `true` is black.
fn text(cells: &[bool], cols: usize) -> String {
    let rows: Vec<String> = cells
        .chunks(cols)
        .map(|row| row.iter().map(|&b| if b { 'b' } else { 'w' }).collect())
        .collect();
    rows.join("\n")
}

impl Simulator for Flip {
    type Board = Vec<bool>;

    fn text(&self, board: &Vec<bool>) -> String {
        text(board, self.cols)
    }

    fn moves(&self, board: &Vec<bool>) -> Vec<(String, Vec<bool>)> {
        let mut moves = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                let mut after = board.clone();
                for cell in self.flipped(r, c) {
                    after[cell] = !after[cell];
                }
                moves.push((format!("r{}c{}", r + 1, c + 1), after));
            }
        }
        moves
    }

    fn is_goal(&self, board: &Vec<bool>) -> bool {
        match &self.goal {
            Goal::Uniform => board.iter().all(|&b| b) || board.iter().all(|&b| !b),
            Goal::AllWhite => board.iter().all(|&b| !b),
            Goal::AllBlack => board.iter().all(|&b| b),
            Goal::Pattern(target) => board == target,
        }
    }

    /// "Flip takes each set of presses once": a shortest sequence never presses a cell twice,
    /// so each set of `length` presses is `length!` of the sequences.
    fn solutions_there_are(&self, sequences: u128, length: usize) -> Option<u128> {
        let orders: u128 = (1..=length as u128).product();
        Some(sequences / orders)
    }

    fn solution_key(&self, moves: &[String]) -> Vec<String> {
        let mut set = moves.to_vec();
        set.sort();
        set
    }
}

pub fn case(rng: &mut Lcg) -> Case<Flip> {
    let (rows, cols) = (1 + rng.below(3), 1 + rng.below(4));
    let wrap = rng.below(3) == 0;
    let cells = rows * cols;
    let random = |rng: &mut Lcg| (0..cells).map(|_| rng.below(2) == 1).collect::<Vec<bool>>();
    let start = random(rng);
    let (goal, goal_toml) = match rng.below(4) {
        0 => (Goal::Uniform, "kind = \"uniform\"".to_string()),
        1 => (Goal::AllWhite, "kind = \"all-white\"".to_string()),
        2 => (Goal::AllBlack, "kind = \"all-black\"".to_string()),
        _ => {
            let target = random(rng);
            let toml = format!(
                "kind = \"pattern\"\ntarget = \"\"\"\n{}\n\"\"\"",
                text(&target, cols)
            );
            (Goal::Pattern(target), toml)
        }
    };
    let config = format!(
        "[puzzle]\nkind = \"flip\"\nrows = {rows}\ncols = {cols}\nwrap = {wrap}\n\n[goal]\n\
         {goal_toml}\n\n[start]\nboard = \"\"\"\n{}\n\"\"\"\n",
        text(&start, cols)
    );
    Case {
        sim: Flip {
            rows,
            cols,
            wrap,
            goal,
        },
        start,
        config,
        cap: 1 << 13,
        heuristic_keys: Vec::new(),
        costly_heuristics: &[],
    }
}
