//! Flip board geometry, bit layout and text form for the search engines (at most 64 cells; larger
//! boards are [`BitBoard`]s, for the algebraic solver).
//!
//! Bit layout: the cell at row `r`, column `c` (0-based) is bit `r * cols + c` of a `u64`; a set
//! bit is a black piece. Text form: one line per row, `b` for black and `w` for white (either
//! case), surrounding whitespace and blank lines ignored:
//!
//! ```text
//! bwwb
//! bbwb
//! ```

use super::bitboard::BitBoard;
use statespace::config::BoardText;
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

    /// Parses board text of at most 64 cells; errors name the line and column. The one parser
    /// for every size is [`BitBoard::parse`]; this narrows its result to the `u64` encoding.
    pub fn parse(&self, board: &BoardText) -> Result<u64> {
        assert!(
            self.cells() <= MAX_CELLS,
            "a u64 board holds at most 64 cells"
        );
        Ok(BitBoard::parse(*self, board)?.to_u64())
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
