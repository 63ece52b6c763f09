//! Tile boards as people write them: the text form, and the "blank first" convention of
//! published instances.
//!
//! Text: one row per line, the tiles as numbers separated by whitespace, the blank written `_` or
//! `0` (printed `_`), numbers right-aligned:
//!
//! ```text
//! 1 2 3
//! 4 _ 6
//! 7 5 8
//! ```
//!
//! Korf's 100 instances and most of the literature put the blank first in the goal; this crate's
//! ordered goal puts it last. [`from_blank_first`] converts, keeping optimal lengths.

use super::space::{Board, MAX_CELLS, Tiles};
use statespace::board_text::BoardText;
use statespace::error::Result;
use statespace::space::BoardFormat;

impl BoardFormat for Tiles {
    fn parse(&self, text: &BoardText) -> Result<Board> {
        let (rows, cols) = self.shape();
        parse(rows, cols, text)
    }

    fn format(&self, board: Board) -> String {
        let (rows, cols) = self.shape();
        let width = (rows as usize * cols as usize - 1).to_string().len();
        let cell = |i: usize| match board.cells[i] {
            0 => format!("{:>width$}", "_"),
            tile => format!("{tile:>width$}"),
        };
        (0..rows as usize)
            .map(|r| {
                let row: Vec<_> = (0..cols as usize)
                    .map(|c| cell(r * cols as usize + c))
                    .collect();
                row.join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// A board of `rows` x `cols`: every tile `1..n-1` once, one blank; errors name the line.
pub fn parse(rows: u8, cols: u8, text: &BoardText) -> Result<Board> {
    let n = rows as usize * cols as usize;
    let lines = text.rows();
    if lines.is_empty() {
        return Err(text.error_whole("empty board: expected rows of numbers, the blank _ or 0"));
    }
    if lines.len() != rows as usize {
        return Err(text.error_whole(format!("expected {rows} rows, found {}", lines.len())));
    }
    let mut board = Board {
        cells: [0; MAX_CELLS],
        blank: 0,
    };
    // Where each tile was first seen, to name a repeat's first place.
    let mut seen = [None; MAX_CELLS];
    for (r, &(line, row)) in lines.iter().enumerate() {
        let tokens: Vec<&str> = row.split_whitespace().collect();
        if tokens.len() != cols as usize {
            let found = tokens.len();
            return Err(text.error(
                line,
                format!("expected {cols} tiles in the row, found {found}"),
            ));
        }
        for (c, token) in tokens.into_iter().enumerate() {
            let tile = match token {
                "_" => 0,
                _ => match token.parse::<usize>() {
                    Ok(t) if t < n => t,
                    _ => {
                        let max = n - 1;
                        let message =
                            format!("`{token}` is not a tile (1 to {max}, or _ for the blank)");
                        return Err(text.error(line, message));
                    }
                },
            };
            if let Some(first) = seen[tile] {
                let name = if tile == 0 {
                    "the blank".to_string()
                } else {
                    format!("tile {tile}")
                };
                return Err(text.error(
                    line,
                    format!("{name} appears twice (first on line {first})"),
                ));
            }
            seen[tile] = Some(text.first_line + line - 1);
            let cell = r * cols as usize + c;
            board.cells[cell] = tile as u8;
            if tile == 0 {
                board.blank = cell as u8;
            }
        }
    }
    // n distinct values of 0..n on n cells: the blank was among them.
    Ok(board)
}

/// A board given in the convention "blank first" (the goal has the blank on cell 0 and tile `t`
/// on cell `t`, as Korf's 100 instances are written) as the same puzzle with our ordered goal
/// (blank last): rotate the board 180 degrees and rename tile `t` as `n - t`. The map sends
/// moves to moves and the one goal to the other, so optimal lengths are unchanged.
///
/// `cells` holds `rows * cols` cells in row-major order, 0 for the blank; `None` unless it is a
/// permutation of `0..n`.
pub fn from_blank_first(rows: u8, cols: u8, cells: &[u8]) -> Option<Board> {
    let n = rows as usize * cols as usize;
    if cells.len() != n || n > MAX_CELLS {
        return None;
    }
    let mut seen = 0u32;
    let mut board = Board {
        cells: [0; MAX_CELLS],
        blank: 0,
    };
    for (cell, &tile) in cells.iter().enumerate() {
        if tile as usize >= n || seen & (1 << tile) != 0 {
            return None;
        }
        seen |= 1 << tile;
        let to = n - 1 - cell;
        board.cells[to] = if tile == 0 { 0 } else { n as u8 - tile };
        if tile == 0 {
            board.blank = to as u8;
        }
    }
    Some(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_first_goal_converts_to_the_ordered_goal() {
        let korf_goal: Vec<u8> = (0..16).collect();
        assert_eq!(
            from_blank_first(4, 4, &korf_goal),
            Some(Tiles::ordered(4, 4))
        );
        assert_eq!(from_blank_first(4, 4, &[0; 16]), None);
    }
}
