//! Flip board geometry, the `u64` bit layout of the search engines (at most 64 cells), press masks,
//! and the board text with its one parser, for boards of every size. The crate's ground floor:
//! it uses no other module of the crate (the bit boards of the algebraic solver, in
//! `bitboard`, are built on it).
//!
//! Bit layout: the cell at row `r`, column `c` (0-based) is bit `r * cols + c` of a `u64`; a set
//! bit is a black piece. Text form: one line per row, `b` for black and `w` for white (either
//! case), surrounding whitespace and blank lines ignored:
//!
//! ```text
//! bwwb
//! bbwb
//! ```

use statespace::board_text::BoardText;
use statespace::error::Result;

/// The most cells a `u64` board holds.
pub const MAX_CELLS: u32 = 64;

/// An R x C board, optionally a torus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub cols: u32,
    /// Whether the board is a torus (presses wrap around the edges).
    pub wrap: bool,
}

impl Geometry {
    /// The number of cells.
    pub fn cells(&self) -> u32 {
        self.rows * self.cols
    }

    /// The board with every cell black.
    pub fn full(&self) -> u64 {
        if self.cells() == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells()) - 1
        }
    }

    /// The bit of the cell at (`row`, `col`).
    pub fn bit(&self, row: u32, col: u32) -> u32 {
        row * self.cols + col
    }

    /// The cells a press at (`row`, `col`) flips: itself and its distinct orthogonal neighbours.
    /// A set, not a sum: on a torus of width 2 the left and right neighbour are one cell, and it
    /// flips once.
    pub fn press_mask(&self, row: u32, col: u32) -> u64 {
        let (r, c) = (row as i64, col as i64);
        let mut mask = 0u64;
        for (dr, dc) in [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)] {
            let (mut nr, mut nc) = (r + dr, c + dc);
            if self.wrap {
                nr = nr.rem_euclid(self.rows as i64);
                nc = nc.rem_euclid(self.cols as i64);
            } else if nr < 0 || nc < 0 || nr >= self.rows as i64 || nc >= self.cols as i64 {
                continue;
            }
            mask |= 1u64 << self.bit(nr as u32, nc as u32);
        }
        mask
    }

    /// Every press mask, indexed by cell.
    pub fn press_masks(&self) -> Vec<u64> {
        (0..self.rows)
            .flat_map(|r| (0..self.cols).map(move |c| (r, c)))
            .map(|(r, c)| self.press_mask(r, c))
            .collect()
    }

    /// Parses board text of at most 64 cells into the `u64` encoding; errors as
    /// [`parse_cells`](Self::parse_cells).
    pub fn parse(&self, board: &BoardText) -> Result<u64> {
        assert!(
            self.cells() <= MAX_CELLS,
            "a u64 board holds at most 64 cells"
        );
        let mut bits = 0u64;
        self.parse_cells(board, |r, c| bits |= 1u64 << self.bit(r, c))?;
        Ok(bits)
    }

    /// Parses board text of this geometry's size (any size), calling `black(row, col)` for every
    /// black cell: the one board parser, whatever the board is stored in. Errors name the line and
    /// column: an empty board, too many or too few rows, a row of another length, a character
    /// other than `b`/`w`.
    pub fn parse_cells(&self, board: &BoardText, mut black: impl FnMut(u32, u32)) -> Result<()> {
        let rows = board.rows();
        if rows.is_empty() {
            return Err(board.error_whole("empty board: expected rows of b/w"));
        }
        for (r, &(line, text)) in rows.iter().enumerate() {
            if r as u64 >= self.rows as u64 {
                return Err(board.error(line, format!("too many rows: expected {}", self.rows)));
            }
            let len = text.chars().count();
            if len != self.cols as usize {
                return Err(board.error(
                    line,
                    format!("row {} has {len} cells, expected {}", r + 1, self.cols),
                ));
            }
            for (c, ch) in text.chars().enumerate() {
                match ch {
                    'b' | 'B' => black(r as u32, c as u32),
                    'w' | 'W' => {}
                    other => {
                        return Err(board.error(
                            line,
                            format!("row {}, column {}: {other:?} is not b or w", r + 1, c + 1),
                        ));
                    }
                }
            }
        }
        if (rows.len() as u64) < self.rows as u64 {
            let last = rows.last().map_or(1, |&(line, _)| line);
            return Err(board.error(
                last,
                format!("too few rows: {} of {}", rows.len(), self.rows),
            ));
        }
        Ok(())
    }

    /// The text form of `bits`: one line per row, no trailing newline.
    pub fn format(&self, bits: u64) -> String {
        let mut out = String::with_capacity((self.cols as usize + 1) * self.rows as usize);
        for r in 0..self.rows {
            if r > 0 {
                out.push('\n');
            }
            for c in 0..self.cols {
                let black = bits >> self.bit(r, c) & 1 == 1;
                out.push(if black { 'b' } else { 'w' });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry(rows: u32, cols: u32, wrap: bool) -> Geometry {
        Geometry { rows, cols, wrap }
    }

    #[test]
    fn text_round_trips() {
        let g = geometry(4, 4, false);
        let text = "bwwb\nbbwb\nbwwb\nbwww";
        let bits = g.parse(&BoardText::from_file("t", text.into())).unwrap();
        assert_eq!(g.format(bits), text);
    }

    #[test]
    fn corner_press_flips_three_cells_and_torus_five() {
        assert_eq!(geometry(4, 4, false).press_mask(0, 0).count_ones(), 3);
        assert_eq!(geometry(4, 4, true).press_mask(0, 0).count_ones(), 5);
        // a 2-wide torus: left and right neighbours coincide
        assert_eq!(geometry(3, 2, true).press_mask(1, 0).count_ones(), 4);
    }

    #[test]
    fn bad_rows_are_reported_with_line() {
        let g = geometry(2, 2, false);
        let err = |t: &str| {
            g.parse(&BoardText::from_file("f", t.into()))
                .unwrap_err()
                .to_string()
        };
        assert_eq!(err("bw\nbx"), "f:2: row 2, column 2: 'x' is not b or w");
        assert_eq!(err("bw\nb"), "f:2: row 2 has 1 cells, expected 2");
        assert_eq!(err("bw"), "f:1: too few rows: 1 of 2");
        assert_eq!(err("bw\nbw\nbw"), "f:3: too many rows: expected 2");
        assert_eq!(err("\n \n"), "f:1: empty board: expected rows of b/w");
    }
}
