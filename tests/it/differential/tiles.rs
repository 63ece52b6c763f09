//! Sliding tiles, the slow way: a board is a grid of numbers, 0 the blank (printed `_`); a move
//! slides a tile next to the blank into it, labelled by the tile and the way it goes (`7 left`:
//! tile 7 moves one cell left, into the blank). Goals: `ordered` (1 to n-1 in row order, the
//! blank last) or a `pattern` board. Random boards of 2 x 2, 2 x 3, 3 x 2 and 3 x 3, of both
//! permutation parities.

use super::Case;
use super::sim::Simulator;
use statespace::random::Lcg;

pub struct Tiles {
    rows: usize,
    cols: usize,
    goal: Vec<u8>,
}

fn text(cells: &[u8], cols: usize) -> String {
    let rows: Vec<String> = (cells.chunks(cols))
        .map(|row| {
            let cells: Vec<String> = (row.iter())
                .map(|&t| if t == 0 { "_".into() } else { t.to_string() })
                .collect();
            cells.join(" ")
        })
        .collect();
    rows.join("\n")
}

impl Simulator for Tiles {
    type Board = Vec<u8>;

    fn text(&self, board: &Vec<u8>) -> String {
        text(board, self.cols)
    }

    fn moves(&self, board: &Vec<u8>) -> Vec<(String, Vec<u8>)> {
        let blank = board.iter().position(|&t| t == 0).unwrap();
        let (r, c) = ((blank / self.cols) as isize, (blank % self.cols) as isize);
        let mut moves = Vec::new();
        // The tile at (r + dr, c + dc) slides into the blank: it moves the way of (-dr, -dc).
        for (dr, dc, way) in [
            (1, 0, "up"),
            (-1, 0, "down"),
            (0, 1, "left"),
            (0, -1, "right"),
        ] {
            let (y, x) = (r + dr, c + dc);
            if y < 0 || x < 0 || y >= self.rows as isize || x >= self.cols as isize {
                continue;
            }
            let tile = y as usize * self.cols + x as usize;
            let mut after = board.clone();
            after.swap(blank, tile);
            moves.push((format!("{} {way}", board[tile]), after));
        }
        moves
    }

    fn is_goal(&self, board: &Vec<u8>) -> bool {
        *board == self.goal
    }

    /// A tile moved straight back is the only sequence the move order drops, and it is never
    /// part of a shortest one: every shortest sequence is a solution of its own.
    fn solutions_there_are(&self, sequences: u128, _length: usize) -> Option<u128> {
        Some(sequences)
    }
}

fn shuffled(cells: usize, rng: &mut Lcg) -> Vec<u8> {
    let mut board: Vec<u8> = (0..cells as u8).collect();
    for i in (1..cells).rev() {
        board.swap(i, rng.below(i + 1));
    }
    board
}

pub fn case(rng: &mut Lcg) -> Case<Tiles> {
    let (rows, cols) = [(2, 2), (2, 3), (3, 2), (3, 3)][rng.below(4)];
    let cells = rows * cols;
    let start = shuffled(cells, rng);
    let (goal, goal_toml) = match rng.below(3) {
        0 => {
            let target = shuffled(cells, rng);
            let toml = format!(
                "[goal]\nkind = \"pattern\"\ntarget = \"\"\"\n{}\n\"\"\"\n\n",
                text(&target, cols)
            );
            (target, toml)
        }
        _ => {
            let mut ordered: Vec<u8> = (1..cells as u8).collect();
            ordered.push(0);
            (ordered, String::new())
        }
    };
    // The blank as `0` in some start boards: both are read.
    let mut start_text = text(&start, cols);
    if rng.below(4) == 0 {
        start_text = start_text.replace('_', "0");
    }
    let config = format!(
        "[puzzle]\nkind = \"tiles\"\nrows = {rows}\ncols = {cols}\n\n{goal_toml}[start]\n\
         board = \"\"\"\n{start_text}\n\"\"\"\n"
    );
    // Two additive databases: the first half of the tiles and the rest.
    let tiles: Vec<usize> = (1..cells).collect();
    let groups = [&tiles[..cells / 2], &tiles[cells / 2..]];
    Case {
        sim: Tiles { rows, cols, goal },
        start,
        config,
        cap: 200_000,
        heuristic_keys: vec![("pdb", format!("groups = {groups:?}"))],
        costly_heuristics: &[],
    }
}
