//! A peg solitaire board ([`Board`]): its holes, read once from the `[start]` board's text, and
//! a position as a `u64`, bit `i` a peg in hole `i` (holes numbered row by row).
//!
//! The text: one row a line, one character a cell: `o` a peg, `.` an empty hole, `#` or a space
//! no hole (off the board). The indentation the rows share is removed (a board indented in a
//! TOML string reads the same), and so are blank lines; a row may stop after its last hole.
//! A triangle is written with its rows left-aligned (`o`, `oo`, `ooo`, ...): jumps then run
//! along rows, columns and the diagonal down and to the right. Boards are written back with `#`
//! for off-board cells before a row's last hole, so that every character is a cell.
//!
//! Why the board is read from the start and not from keys: a shape is easier to draw than to
//! name, and any board of up to 64 holes (the English cross, the French 37, a triangle, a
//! rectangle) is then one config.

use statespace::board_text::BoardText;
use statespace::error::Result;

/// The most holes a board may have: a position is one `u64`.
pub const MAX_HOLES: usize = 64;

/// How holes neighbour each other: the directions a jump may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Rows and columns: a jump goes up, down, left or right.
    Square,
    /// Rows, columns and one diagonal (a triangle written left-aligned): six directions.
    Triangle,
}

impl Shape {
    /// The names `[puzzle] shape` takes, in the order of [`Shape::named`].
    pub const NAMES: [&'static str; 2] = ["square", "triangle"];

    /// The shape called `name`.
    pub fn named(name: &str) -> Option<Shape> {
        match name {
            "square" => Some(Shape::Square),
            "triangle" => Some(Shape::Triangle),
            _ => None,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Square => "square",
            Shape::Triangle => "triangle",
        }
    }

    /// The steps `(rows, columns)` a jump may take to its neighbour (the hole it lands in is two
    /// steps away).
    pub fn directions(self) -> &'static [(i8, i8)] {
        match self {
            Shape::Square => &[(-1, 0), (1, 0), (0, -1), (0, 1)],
            Shape::Triangle => &[(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1)],
        }
    }
}

/// A cell of board text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Peg,
    Hole,
    Off,
}

/// The holes of a board: where each stands, and the hole at each place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The directions jumps take.
    pub shape: Shape,
    /// Rows of its bounding box.
    pub rows: u8,
    /// Columns of its bounding box.
    pub cols: u8,
    /// `(row, column)` of hole `i`, 0-based, row by row.
    pub holes: Vec<(u8, u8)>,
    /// The hole at each place, row-major over the bounding box.
    at: Vec<Option<u8>>,
}

impl Board {
    /// The board whose holes `text` shows, and the position it shows: what a `[start]` board
    /// gives. Errors name the line and column.
    pub fn read_start(text: &BoardText, shape: Shape) -> Result<(Board, u64)> {
        let grid = read_grid(text)?;
        let rows = grid.len();
        let cols = grid.iter().map(|(_, row)| row.len()).max().unwrap_or(0);
        let mut holes = Vec::new();
        let mut at = vec![None; rows * cols];
        let mut pegs = 0u64;
        for (r, (line, row)) in grid.iter().enumerate() {
            for (c, &cell) in row.iter().enumerate() {
                if cell == Cell::Off {
                    continue;
                }
                if holes.len() == MAX_HOLES {
                    return Err(text.error(
                        *line,
                        format!("more than {MAX_HOLES} holes (a position is one 64-bit word)"),
                    ));
                }
                if cell == Cell::Peg {
                    pegs |= 1 << holes.len();
                }
                at[r * cols + c] = Some(holes.len() as u8);
                holes.push((r as u8, c as u8));
            }
        }
        if holes.is_empty() {
            return Err(text.error_whole("the board has no hole (`o` a peg, `.` an empty hole)"));
        }
        let board = Board {
            shape,
            rows: rows as u8,
            cols: cols as u8,
            holes,
            at,
        };
        Ok((board, pegs))
    }

    /// The position `text` shows on this board: its holes where this board has them, else an
    /// error at the line and column.
    pub fn read(&self, text: &BoardText) -> Result<u64> {
        let grid = read_grid(text)?;
        if grid.len() != self.rows as usize {
            return Err(text.error_whole(format!(
                "{} rows, but the board has {} (the [start] board's)",
                grid.len(),
                self.rows
            )));
        }
        let mut pegs = 0u64;
        for (r, (line, row)) in grid.iter().enumerate() {
            for c in 0..(self.cols as usize).max(row.len()) {
                let cell = row.get(c).copied().unwrap_or(Cell::Off);
                match (self.hole(r, c), cell) {
                    (Some(hole), Cell::Peg) => pegs |= 1 << hole,
                    (Some(_), Cell::Hole) | (None, Cell::Off) => {}
                    (Some(_), Cell::Off) => {
                        return Err(text.error(
                            *line,
                            format!(
                                "row {}, column {}: the board has a hole here (the [start] board's)",
                                r + 1,
                                c + 1
                            ),
                        ));
                    }
                    (None, _) => {
                        return Err(text.error(
                            *line,
                            format!(
                                "row {}, column {}: no hole here on this board (the [start] board's)",
                                r + 1,
                                c + 1
                            ),
                        ));
                    }
                }
            }
        }
        Ok(pegs)
    }

    /// The hole at row `r`, column `c` (0-based), if any.
    pub fn hole(&self, r: usize, c: usize) -> Option<u8> {
        match r < self.rows as usize && c < self.cols as usize {
            true => self.at[r * self.cols as usize + c],
            false => None,
        }
    }

    /// The hole one step of `(dr, dc)` from `hole`, if any.
    pub fn step(&self, hole: u8, (dr, dc): (i8, i8)) -> Option<u8> {
        let (r, c) = self.holes[hole as usize];
        let r = usize::try_from(r as i32 + dr as i32).ok()?;
        let c = usize::try_from(c as i32 + dc as i32).ok()?;
        self.hole(r, c)
    }

    /// Every hole, as a mask.
    pub fn all(&self) -> u64 {
        u64::MAX >> (MAX_HOLES - self.holes.len())
    }

    /// The position as text: `o` a peg, `.` an empty hole, `#` no hole (before a row's last
    /// hole).
    pub fn format(&self, pegs: u64) -> String {
        let mut text = String::new();
        for r in 0..self.rows as usize {
            let mut row: String = (0..self.cols as usize)
                .map(|c| match self.hole(r, c) {
                    Some(hole) if pegs >> hole & 1 == 1 => 'o',
                    Some(_) => '.',
                    None => '#',
                })
                .collect();
            row.truncate(row.trim_end_matches('#').len());
            text.push_str(&row);
            text.push('\n');
        }
        text
    }
}

/// The text's rows of cells, each with its line (1-based in the text): blank lines and the
/// indentation every row shares left out.
fn read_grid(text: &BoardText) -> Result<Vec<(usize, Vec<Cell>)>> {
    let lines: Vec<(usize, &str)> = text
        .text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return Err(text.error_whole("empty board"));
    }
    let indent = lines
        .iter()
        .map(|(_, l)| l.len() - l.trim_start_matches(' ').len())
        .min()
        .unwrap_or(0);
    let mut grid = Vec::with_capacity(lines.len());
    for (line, row) in lines {
        let mut cells = Vec::with_capacity(row.len());
        for (c, ch) in row[indent..].chars().enumerate() {
            cells.push(match ch {
                'o' => Cell::Peg,
                '.' => Cell::Hole,
                '#' | ' ' => Cell::Off,
                other => {
                    return Err(text.error(
                        line,
                        format!(
                            "column {}: {other:?} is not a cell (`o` a peg, `.` an empty hole, \
                             `#` or a space no hole)",
                            c + 1
                        ),
                    ));
                }
            });
        }
        grid.push((line, cells));
    }
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(board: &str) -> BoardText {
        BoardText::from_file("t", board.to_string())
    }

    #[test]
    fn the_english_board_has_33_holes_and_reads_back() {
        let start = "  ooo\n  ooo\nooooooo\nooo.ooo\nooooooo\n  ooo\n  ooo\n";
        let (board, pegs) = Board::read_start(&text(start), Shape::Square).unwrap();
        assert_eq!((board.holes.len(), pegs.count_ones()), (33, 32));
        assert_eq!(board.read(&text(&board.format(pegs))).unwrap(), pegs);
        assert_eq!(board.format(pegs).lines().next(), Some("##ooo"));
    }

    #[test]
    fn shared_indentation_is_removed_and_odd_cells_are_refused() {
        let (board, pegs) = Board::read_start(&text("    .\n    oo\n"), Shape::Triangle).unwrap();
        assert_eq!((board.holes, pegs), (vec![(0, 0), (1, 0), (1, 1)], 0b110));
        let err = Board::read_start(&text("o.\noX\n"), Shape::Square).unwrap_err();
        assert_eq!(
            err.to_string(),
            "t:2: column 2: 'X' is not a cell (`o` a peg, `.` an empty hole, `#` or a space no hole)"
        );
    }

    #[test]
    fn a_position_must_have_the_start_boards_holes() {
        let (board, _) = Board::read_start(&text(".o\no\n"), Shape::Square).unwrap();
        let err = board.read(&text("oo\noo\n")).unwrap_err().to_string();
        assert!(err.contains("row 2, column 2: no hole here"), "{err}");
        let err = board.read(&text("oo\n#\n")).unwrap_err().to_string();
        assert!(
            err.contains("row 2, column 1: the board has a hole here"),
            "{err}"
        );
    }
}
