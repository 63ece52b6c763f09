//! Board text: rows of letters, one letter a piece's cell, `.` an empty cell, `#` a wall
//! ([`Grid`]); and how the letters are cut into rectangular pieces ([`cut`]).
//!
//! ```text
//! VBBV      B: the 2 x 2 piece; H: a 1 x 2 piece
//! VBBV      V: 2 x 1 pieces (declared: `shapes = { V = "2x1", S = "1x1" }`), four of them
//! VHHV      S: 1 x 1 pieces, four
//! VSSV
//! S..S
//! ```
//!
//! A letter is one piece, whose cells make a filled rectangle, unless its shape is declared:
//! then its cells are cut into pieces of that shape, row by row (the first cell not yet cut is
//! a piece's top-left corner, which is the only way to tile with one rectangle). What cannot be
//! cut is one error line naming the row and column: a letter split in two places, cells that do
//! not make a rectangle, cells left over by a declared shape, a character that is no letter.

use statespace::board_text::BoardText;
use statespace::error::{Error, Result};

/// A board as read: its size and each cell's character, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Rows.
    pub rows: u8,
    /// Columns.
    pub cols: u8,
    /// `b'.'`, `b'#'` or a letter, cell `r * cols + c` at `r * cols + c`.
    pub cells: Vec<u8>,
    /// Each row's line in the text (1-based, for errors).
    lines: Vec<usize>,
}

/// A piece cut from a grid: its letter, its top-left cell and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The letter it is written with.
    pub letter: u8,
    /// Its top-left cell.
    pub anchor: u8,
    /// Height.
    pub rows: u8,
    /// Width.
    pub cols: u8,
}

impl Grid {
    /// Reads `text`: rows of equal length, at most 64 cells, of letters, `.` and `#`.
    pub fn read(text: &BoardText) -> Result<Grid> {
        let rows = text.rows();
        let Some(&(_, first)) = rows.first() else {
            return Err(text.error_whole("empty board: expected rows of letters, `.` and `#`"));
        };
        let cols = first.chars().count();
        let mut cells = Vec::new();
        for (r, &(line, row)) in rows.iter().enumerate() {
            if row.chars().count() != cols {
                let message = format!(
                    "row {} has {} cells, row 1 has {cols}: rows are equally long",
                    r + 1,
                    row.chars().count()
                );
                return Err(text.error(line, message));
            }
            for (c, ch) in row.chars().enumerate() {
                if !(ch.is_ascii_alphabetic() || ch == '.' || ch == '#') {
                    let message = format!(
                        "row {}, column {}: '{}' is not a piece's letter, `.` (empty) or `#` \
                         (a wall)",
                        r + 1,
                        c + 1,
                        ch.escape_debug()
                    );
                    return Err(text.error(line, message));
                }
                cells.push(ch as u8);
            }
        }
        if cells.len() > 64 {
            let message = format!(
                "{} x {cols} is {} cells: a board has at most 64",
                rows.len(),
                cells.len()
            );
            return Err(text.error_whole(message));
        }
        Ok(Grid {
            rows: rows.len() as u8,
            cols: cols as u8,
            cells,
            lines: rows.iter().map(|&(line, _)| line).collect(),
        })
    }

    /// The cells holding `byte`, as a mask.
    pub fn mask_of(&self, byte: u8) -> u64 {
        let cells = self.cells.iter().enumerate();
        cells
            .filter(|&(_, &b)| b == byte)
            .fold(0, |m, (i, _)| m | 1 << i)
    }

    /// An error at cell `cell`'s row: `row R, column C: message`.
    pub fn error_at(&self, text: &BoardText, cell: usize, message: &str) -> Error {
        let (r, c) = (cell / self.cols as usize, cell % self.cols as usize);
        text.error(
            self.lines[r],
            format!("row {}, column {}: {message}", r + 1, c + 1),
        )
    }
}

/// The pieces of `grid`: each letter cut by `shape_of(letter)` (`Some((rows, cols))`: pieces
/// of that size, as many as its cells make; `None`: the letter is one piece, a filled
/// rectangle), in the order of their top-left cells.
pub fn cut(
    grid: &Grid,
    text: &BoardText,
    shape_of: &dyn Fn(u8) -> Result<Option<(u8, u8)>>,
) -> Result<Vec<Cut>> {
    let cols = grid.cols as usize;
    let mut taken = vec![false; grid.cells.len()];
    let mut pieces = Vec::new();
    for cell in 0..grid.cells.len() {
        let letter = grid.cells[cell];
        if taken[cell] || !letter.is_ascii_alphabetic() {
            continue;
        }
        let shape = match shape_of(letter)? {
            Some(shape) => shape,
            None => one_rectangle(grid, text, letter)?,
        };
        let (r, c) = (cell / cols, cell % cols);
        let (rows, width) = (shape.0 as usize, shape.1 as usize);
        for dr in 0..rows {
            for dc in 0..width {
                let (y, x) = (r + dr, c + dc);
                let inside = y < grid.rows as usize && x < cols;
                if !inside || grid.cells[y * cols + x] != letter || taken[y * cols + x] {
                    let message = format!(
                        "'{}' does not make a {rows} x {width} piece here (a {rows} x {width} \
                         piece's top-left cell: cells of one shape are cut row by row)",
                        letter as char
                    );
                    return Err(grid.error_at(text, cell, &message));
                }
                taken[y * cols + x] = true;
            }
        }
        pieces.push(Cut {
            letter,
            anchor: cell as u8,
            rows: shape.0,
            cols: shape.1,
        });
    }
    Ok(pieces)
}

/// The size of the one piece `letter` writes: its cells must make a filled rectangle.
fn one_rectangle(grid: &Grid, text: &BoardText, letter: u8) -> Result<(u8, u8)> {
    let cols = grid.cols as usize;
    let cells: Vec<usize> = (0..grid.cells.len())
        .filter(|&i| grid.cells[i] == letter)
        .collect();
    let (top, left) = (
        cells[0] / cols,
        cells.iter().map(|&i| i % cols).min().unwrap_or(0),
    );
    let bottom = cells[cells.len() - 1] / cols;
    let right = cells.iter().map(|&i| i % cols).max().unwrap_or(0);
    let (rows, width) = (bottom - top + 1, right - left + 1);
    if cells.len() == rows * width {
        return Ok((rows as u8, width as u8));
    }
    let name = letter as char;
    // Not a filled rectangle: two pieces apart, or one of another shape.
    let component = flood(grid, cells[0], letter);
    match cells.iter().find(|&&i| component >> i & 1 == 0) {
        Some(&apart) => {
            let message = format!(
                "'{name}' is split in two: this cell is apart from the one at row {}, column \
                 {} (one letter is one piece, unless [puzzle] shapes gives its size)",
                top + 1,
                cells[0] % cols + 1
            );
            Err(grid.error_at(text, apart, &message))
        }
        None => {
            let hole = (top..=bottom)
                .flat_map(|r| (left..=right).map(move |c| r * cols + c))
                .find(|&i| grid.cells[i] != letter)
                .unwrap_or(cells[0]);
            let message = format!(
                "piece '{name}' is not a rectangle: its cells span rows {} to {} and columns {} \
                 to {}, but not this one",
                top + 1,
                bottom + 1,
                left + 1,
                right + 1
            );
            Err(grid.error_at(text, hole, &message))
        }
    }
}

/// The cells of `letter` connected to `start` (up, down, left, right), as a mask.
fn flood(grid: &Grid, start: usize, letter: u8) -> u64 {
    let cols = grid.cols as usize;
    let (mut reached, mut stack) = (1u64 << start, vec![start]);
    while let Some(i) = stack.pop() {
        let (r, c) = (i / cols, i % cols);
        let around = [
            (r > 0).then(|| i - cols),
            (r + 1 < grid.rows as usize).then(|| i + cols),
            (c > 0).then(|| i - 1),
            (c + 1 < cols).then(|| i + 1),
        ];
        for j in around.into_iter().flatten() {
            if grid.cells[j] == letter && reached >> j & 1 == 0 {
                reached |= 1 << j;
                stack.push(j);
            }
        }
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(board: &str) -> BoardText {
        BoardText {
            first_line: 10,
            key: Some("start.board".into()),
            ..BoardText::from_file("k.toml", board.into())
        }
    }

    fn klotski(letter: u8) -> Result<Option<(u8, u8)>> {
        Ok(match letter {
            b'V' => Some((2, 1)),
            b'S' => Some((1, 1)),
            _ => None,
        })
    }

    fn error(board: &str) -> String {
        let text = text(board);
        Grid::read(&text)
            .and_then(|grid| cut(&grid, &text, &klotski))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn klotski_cuts_into_its_ten_pieces() {
        let text = text("VBBV\nVBBV\nVHHV\nVSSV\nS..S");
        let grid = Grid::read(&text).unwrap();
        assert_eq!((grid.rows, grid.cols), (5, 4));
        let pieces = cut(&grid, &text, &klotski).unwrap();
        let letters: String = pieces.iter().map(|p| p.letter as char).collect();
        assert_eq!(letters, "VBVVHVSSSS");
        assert_eq!(
            pieces[1],
            Cut {
                letter: b'B',
                anchor: 1,
                rows: 2,
                cols: 2
            }
        );
        assert_eq!(
            pieces[3],
            Cut {
                letter: b'V',
                anchor: 8,
                rows: 2,
                cols: 1
            }
        );
        assert_eq!(grid.mask_of(b'.'), 0b0110 << 16);
    }

    #[test]
    fn bad_boards_are_one_line_at_their_row() {
        assert_eq!(
            error("VBBV\nVBBV\nVHHV\nVSSV\nS.XS\nX..."),
            "k.toml:15: start.board: row 6, column 1: 'X' is split in two: this cell is apart \
             from the one at row 5, column 3 (one letter is one piece, unless [puzzle] shapes \
             gives its size)"
        );
        assert_eq!(
            error("BB.\nB..\n..."),
            "k.toml:11: start.board: row 2, column 2: piece 'B' is not a rectangle: its cells \
             span rows 1 to 2 and columns 1 to 2, but not this one"
        );
        assert_eq!(
            error("V..\n..."),
            "k.toml:10: start.board: row 1, column 1: 'V' does not make a 2 x 1 piece here (a \
             2 x 1 piece's top-left cell: cells of one shape are cut row by row)"
        );
        assert_eq!(
            error("AB\nA+"),
            "k.toml:11: start.board: row 2, column 2: '+' is not a piece's letter, `.` (empty) \
             or `#` (a wall)"
        );
        assert_eq!(
            error("AB\nA"),
            "k.toml:11: start.board: row 2 has 1 cells, row 1 has 2: rows are equally long"
        );
        assert!(error(&"A".repeat(65)).ends_with("1 x 65 is 65 cells: a board has at most 64"));
    }
}
