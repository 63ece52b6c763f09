//! Sliding blocks, the slow way: a board is a grid of letters (`.` empty, `#` a wall), cut into
//! rectangles row by row (a letter of `[puzzle] shapes` writes several pieces of its size, any
//! other letter one piece). A move lifts one piece and puts it down where it fits: one cell up,
//! down, left or right (`unit`: `B r1c2 down`, the piece whose top-left cell is row 1, column
//! 2), any distance in a straight line (`line`: `V r1c1 down 2`, the count left out for one), or
//! anywhere free cells lead (`path`: `S r5c2 to r4c3`); with `axis = "length"` only along its
//! longer side. Look-alikes (one letter; with `interchangeable`, one shape, and one line under
//! `axis = "length"`, never the goal's piece) are one kind of piece: a board prints the pieces of
//! a kind, in reading order, with the start's letters of that kind in reading order, and a move
//! names its piece by the letter the board before it shows. Goals: the goal's piece with its
//! top-left cell at `[goal] at`, or a whole board.
//!
//! Random boards of 3 x 3 to 4 x 4 with walls, pieces of 1 x 1 to 2 x 2 (1 x 2 to 3 x 1 under
//! `axis = "length"`), letters that write several pieces, every metric; place goals anywhere
//! the piece fits (many out of reach) and pattern goals a random walk away.

use super::Case;
use super::sim::{Simulator, walk};
use statespace::random::Lcg;
use std::collections::{HashMap, VecDeque};

pub struct Blocks {
    rows: usize,
    cols: usize,
    metric: &'static str,
    along_length: bool,
    /// Each letter's piece size.
    shapes: HashMap<u8, (usize, usize)>,
    /// Each kind of look-alikes (see [`Blocks::kind`]): the start's letters, in reading order.
    letters: HashMap<(u8, usize, usize, usize), Vec<u8>>,
    interchangeable: bool,
    /// The place goal's piece (kept apart from look-alikes), or `None` for a pattern goal.
    goal_piece: Option<u8>,
    goal: Goal,
}

enum Goal {
    /// The piece's letter, and its top-left cell.
    Place(u8, usize, usize),
    Pattern(Vec<u8>),
}

/// A piece: its letter and top-left cell.
type Piece = (u8, usize, usize);

impl Blocks {
    /// The pieces of `grid` in reading order of their top-left cells.
    fn pieces(&self, grid: &[u8]) -> Vec<Piece> {
        let mut taken = vec![false; grid.len()];
        let mut pieces = Vec::new();
        for i in 0..grid.len() {
            if taken[i] || !grid[i].is_ascii_alphabetic() {
                continue;
            }
            let (r, c) = (i / self.cols, i % self.cols);
            for cell in self.cells(grid[i], r, c) {
                taken[cell] = true;
            }
            pieces.push((grid[i], r, c));
        }
        pieces
    }

    /// The cells a piece of `letter` covers with its top-left cell at `(r, c)`.
    fn cells(&self, letter: u8, r: usize, c: usize) -> Vec<usize> {
        let (h, w) = self.shapes[&letter];
        (r..r + h)
            .flat_map(|y| (c..c + w).map(move |x| y * self.cols + x))
            .collect()
    }

    /// What makes pieces look alike: the letter (unless interchangeable), the shape, and the
    /// line the piece keeps to under `axis = "length"`.
    fn kind(&self, (letter, r, c): Piece) -> (u8, usize, usize, usize) {
        let (h, w) = self.shapes[&letter];
        let alike = self.interchangeable && self.goal_piece != Some(letter);
        let line = match (self.along_length, w > h) {
            (false, _) => 0,
            (true, true) => 1 + r,
            (true, false) => 100 + c,
        };
        (if alike { b'*' } else { letter }, h, w, line)
    }

    /// `grid` with its look-alikes lettered as the start letters them (reading order).
    fn lettered(&self, grid: &[u8]) -> Vec<u8> {
        let mut out = grid.to_vec();
        let mut met: HashMap<(u8, usize, usize, usize), usize> = HashMap::new();
        for piece in self.pieces(grid) {
            let kind = self.kind(piece);
            let k = met.entry(kind).or_insert(0);
            let letter = self.letters[&kind][*k];
            *k += 1;
            for cell in self.cells(piece.0, piece.1, piece.2) {
                out[cell] = letter;
            }
        }
        out
    }

    /// Whether a piece of `letter` fits with its top-left cell at `(r, c)` of `grid`.
    fn fits(&self, grid: &[u8], letter: u8, r: isize, c: isize) -> bool {
        let (h, w) = self.shapes[&letter];
        r >= 0
            && c >= 0
            && r as usize + h <= self.rows
            && c as usize + w <= self.cols
            && (self.cells(letter, r as usize, c as usize).iter()).all(|&i| grid[i] == b'.')
    }
}

const WAYS: [(isize, isize, &str); 4] = [
    (-1, 0, "up"),
    (1, 0, "down"),
    (0, -1, "left"),
    (0, 1, "right"),
];

fn text(grid: &[u8], cols: usize) -> String {
    let rows: Vec<String> = (grid.chunks(cols))
        .map(|row| String::from_utf8(row.to_vec()).unwrap())
        .collect();
    rows.join("\n")
}

impl Simulator for Blocks {
    type Board = Vec<u8>;

    fn text(&self, board: &Vec<u8>) -> String {
        text(board, self.cols)
    }

    fn moves(&self, grid: &Vec<u8>) -> Vec<(String, Vec<u8>)> {
        let mut moves = Vec::new();
        for (letter, r, c) in self.pieces(grid) {
            let mut lifted = grid.clone();
            for cell in self.cells(letter, r, c) {
                lifted[cell] = b'.';
            }
            let (h, w) = self.shapes[&letter];
            let ways: Vec<_> = (WAYS.iter())
                .filter(|&&(dr, _, _)| !self.along_length || (dr == 0) == (w > h))
                .collect();
            let from = format!("{} r{}c{}", letter as char, r + 1, c + 1);
            let mut targets: Vec<(String, usize, usize)> = Vec::new();
            if self.metric == "path" {
                let mut seen = vec![(r, c)];
                let mut queue = VecDeque::from([(r, c)]);
                while let Some((y, x)) = queue.pop_front() {
                    for &(dr, dc, _) in &ways {
                        let (y2, x2) = (y as isize + dr, x as isize + dc);
                        if self.fits(&lifted, letter, y2, x2)
                            && !seen.contains(&(y2 as usize, x2 as usize))
                        {
                            let to = (y2 as usize, x2 as usize);
                            seen.push(to);
                            queue.push_back(to);
                            let label = format!("{from} to r{}c{}", to.0 + 1, to.1 + 1);
                            targets.push((label, to.0, to.1));
                        }
                    }
                }
            } else {
                for &(dr, dc, way) in &ways {
                    for k in 1.. {
                        let (y, x) = (r as isize + k * dr, c as isize + k * dc);
                        if !self.fits(&lifted, letter, y, x) || (self.metric == "unit" && k > 1) {
                            break;
                        }
                        let label = match k {
                            1 => format!("{from} {way}"),
                            k => format!("{from} {way} {k}"),
                        };
                        targets.push((label, y as usize, x as usize));
                    }
                }
            }
            for (label, y, x) in targets {
                let mut after = lifted.clone();
                for cell in self.cells(letter, y, x) {
                    after[cell] = letter;
                }
                moves.push((label, self.lettered(&after)));
            }
        }
        moves
    }

    fn is_goal(&self, grid: &Vec<u8>) -> bool {
        match &self.goal {
            Goal::Place(letter, r, c) => self.pieces(grid).contains(&(*letter, *r, *c)),
            Goal::Pattern(target) => grid == target,
        }
    }
}

pub fn case(rng: &mut Lcg) -> Case<Blocks> {
    let (rows, cols) = (3 + rng.below(2), 3 + rng.below(2));
    let metric = ["unit", "line", "path"][rng.below(3)];
    let along_length = rng.below(5) == 0;
    let interchangeable = rng.below(3) != 0;
    let sizes: &[(usize, usize)] = match along_length {
        true => &[(1, 2), (2, 1), (1, 3), (3, 1)],
        false => &[(1, 1), (1, 2), (2, 1), (2, 2)],
    };
    let mut grid = vec![b'.'; rows * cols];
    for _ in 0..rng.below(3) {
        grid[rng.below(rows * cols)] = b'#';
    }
    let mut sim = Blocks {
        rows,
        cols,
        metric,
        along_length,
        shapes: HashMap::new(),
        letters: HashMap::new(),
        interchangeable,
        goal_piece: None,
        goal: Goal::Pattern(Vec::new()),
    };
    // The goal's piece, others of one letter each, and on some boards a letter of `[puzzle]
    // shapes` that writes several pieces of one size.
    let mut wanted: Vec<(u8, (usize, usize))> = (b"XABCDE".iter())
        .map(|&letter| (letter, sizes[rng.below(sizes.len())]))
        .collect();
    let declared = (rng.below(3) == 0).then(|| (b'S', sizes[rng.below(sizes.len())]));
    if let Some(s) = declared {
        for _ in 0..1 + rng.below(3) {
            wanted.insert(1 + rng.below(wanted.len()), s);
        }
    }
    for (letter, size) in wanted {
        sim.shapes.insert(letter, size);
        let room = grid.iter().filter(|&&b| b == b'.').count();
        // Two cells kept free, so that most boards can move.
        if room < size.0 * size.1 + 2 {
            continue;
        }
        for _ in 0..4 {
            let (r, c) = (rng.below(rows), rng.below(cols));
            if sim.fits(&grid, letter, r as isize, c as isize) {
                for cell in sim.cells(letter, r, c) {
                    grid[cell] = letter;
                }
                break;
            }
        }
    }
    sim.shapes.retain(|letter, _| grid.contains(letter));
    let place_goal = sim.shapes.contains_key(&b'X') && rng.below(3) != 0;
    if place_goal {
        sim.goal_piece = Some(b'X');
    }
    for piece in sim.pieces(&grid) {
        let kind = sim.kind(piece);
        sim.letters.entry(kind).or_default().push(piece.0);
    }
    let start = grid;
    let shapes_toml = match declared.filter(|(s, _)| sim.shapes.contains_key(s)) {
        Some((s, (h, w))) => format!("shapes = {{ {} = \"{h}x{w}\" }}\n", s as char),
        None => String::new(),
    };
    let goal_toml = if place_goal {
        // Anywhere the piece fits on the empty board (on its line under `axis = "length"`).
        let mut empty = start.clone();
        empty
            .iter_mut()
            .filter(|b| **b != b'#')
            .for_each(|b| *b = b'.');
        let from = sim
            .pieces(&start)
            .into_iter()
            .find(|p| p.0 == b'X')
            .unwrap();
        let (h, w) = sim.shapes[&b'X'];
        let places: Vec<(usize, usize)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|&(r, c)| sim.fits(&empty, b'X', r as isize, c as isize))
            .filter(|&(r, c)| !along_length || if w > h { r == from.1 } else { c == from.2 })
            .collect();
        let (r, c) = places[rng.below(places.len())];
        sim.goal = Goal::Place(b'X', r, c);
        format!(
            "kind = \"place\"\npiece = \"X\"\nat = [{}, {}]\n",
            r + 1,
            c + 1
        )
    } else {
        let target = walk(&sim, &start, rng.below(8), rng);
        let toml = format!(
            "kind = \"pattern\"\ntarget = \"\"\"\n{}\n\"\"\"\n",
            text(&target, cols)
        );
        sim.goal = Goal::Pattern(target);
        toml
    };
    let config = format!(
        "[puzzle]\nkind = \"blocks\"\nmetric = \"{metric}\"\n{shapes_toml}interchangeable = \
         {interchangeable}\naxis = \"{}\"\n\n[goal]\n{goal_toml}\n[start]\nboard = \"\"\"\n{}\n\
         \"\"\"\n",
        if along_length { "length" } else { "any" },
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
