//! Tile boards as text: one row per line, the tiles as numbers separated by whitespace, the blank
//! written `_` or `0` (printed `_`), numbers right-aligned:
//!
//! ```text
//! 1 2 3
//! 4 _ 6
//! 7 5 8
//! ```

use super::space::{Board, MAX_CELLS, Tiles};
use statespace::config::BoardText;
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
            board.cells[r * cols as usize + c] = tile as u8;
        }
    }
    board.blank = board.cells[..n]
        .iter()
        .position(|&t| t == 0)
        .expect("n distinct tiles") as u8;
    Ok(board)
}
