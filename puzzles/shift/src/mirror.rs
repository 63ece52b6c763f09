//! The board's mirrors, as permutations of a colour mask's bits by byte look-ups.
//!
//! A mirror (rows reversed, columns reversed, or both: a half turn) maps every row or column
//! shift to a shift, so when it also keeps a goal region it keeps every distance: a distance
//! table need only search one mask per mirror orbit ([`Symmetric`](statespace::space::Symmetric)).
//! The symmetric table build takes the three images of every mask it reaches and tests every
//! mask it scans for being its orbit's representative, so images are on its hot path.
//!
//! Trade-off: by bit operations a row reversal is a shift-and-mask per row and a half turn a bit
//! reversal (about 15 instructions on x86-64, which has no bit-reverse instruction); a column
//! reversal is both. A look-up table per mask byte (`table[byte_index][byte]`: the image of that
//! byte's cells) makes every mirror one look-up and an OR per byte (three for the HDU board's
//! 24 cells) at 2 KiB per byte per mirror (18 KiB for three mirrors of 24 cells, 48 KiB at 64).

use super::board::Geometry;

/// A mirror of the board: rows in reverse order, columns in reverse order, or both (a half
/// turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mirror {
    /// Rows in reverse order.
    UpDown,
    /// Columns in reverse order.
    LeftRight,
    /// Both: a half turn.
    HalfTurn,
}

impl Mirror {
    /// All three, in table order.
    pub const ALL: [Mirror; 3] = [Mirror::UpDown, Mirror::LeftRight, Mirror::HalfTurn];

    /// The cell that `cell` goes to.
    pub fn cell(self, geometry: Geometry, cell: u32) -> u32 {
        let (row, col) = (cell / geometry.cols, cell % geometry.cols);
        let (last_row, last_col) = (geometry.rows - 1, geometry.cols - 1);
        match self {
            Mirror::UpDown => geometry.cell(last_row - row, col),
            Mirror::LeftRight => geometry.cell(row, last_col - col),
            Mirror::HalfTurn => geometry.cell(last_row - row, last_col - col),
        }
    }
}

/// Up to three mirrors of one geometry as byte look-up tables, all applied in one pass.
#[derive(Clone, Debug)]
pub struct MirrorTables {
    /// `table[byte_index][byte][slot]`: the image of that byte's cells under the mirror in
    /// `slot`; slots past the mirrors given hold the identity. One address per byte serves
    /// every mirror, and arrays of 256 are indexed by a byte without a bounds check.
    table: Vec<[[u64; 3]; 256]>,
}

impl MirrorTables {
    /// The tables of `mirrors` (at most three) on `geometry` (at most 64 cells).
    pub fn new(geometry: Geometry, mirrors: &[Mirror]) -> Self {
        assert!(mirrors.len() <= 3);
        let cells = geometry.cells();
        let mut table = vec![[[0u64; 3]; 256]; cells.div_ceil(8) as usize];
        for (j, bytes) in table.iter_mut().enumerate() {
            for (byte, images) in bytes.iter_mut().enumerate() {
                for cell in (0..8).map(|bit| 8 * j as u32 + bit) {
                    if cell >= cells || byte >> (cell % 8) & 1 == 0 {
                        continue;
                    }
                    for (slot, image) in images.iter_mut().enumerate() {
                        let to = mirrors.get(slot).map_or(cell, |m| m.cell(geometry, cell));
                        *image |= 1 << to;
                    }
                }
            }
        }
        MirrorTables { table }
    }

    /// The images of `mask` under the mirrors, in the order given (then `mask` itself).
    #[inline]
    pub fn images(&self, mask: u64) -> [u64; 3] {
        let mut images = [0u64; 3];
        // A fixed count of bytes, not "until the rest is zero": a predictable branch.
        for (j, table) in self.table.iter().enumerate() {
            let parts = &table[(mask >> (8 * j)) as u8 as usize];
            for (image, part) in images.iter_mut().zip(parts) {
                *image |= part;
            }
        }
        images
    }
}
