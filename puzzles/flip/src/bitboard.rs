//! [`BitBoard`]: a Flip board of any size, as rows of `u64` words, for the algebraic solver.
//!
//! The search engines keep their `u64` board (one bit per cell, at most 64 cells: see
//! [`board`](super::board)) because a state must be small and `Copy`. The algebraic solver never
//! stores more than a few boards, so it can afford a heap board of any size:
//!
//! - Bit layout: row `r` is the words `r * words_per_row .. (r + 1) * words_per_row`; column `c` of
//!   a row is bit `c % 64` of its word `c / 64`. Bits past the last column are always zero (every
//!   operation keeps that invariant), so a popcount of the words is the number of black cells.
//! - Rows padded to whole words waste at most 63 bits a row, but make a whole row one slice: the
//!   horizontal part of a press pattern is three shifted XORs of that slice, 64 cells at a time.
//!
//! Text form and errors are those of [`Geometry::parse_cells`], the one parser for every size.

use super::board::Geometry;
use statespace::board_text::BoardText;
use statespace::error::Result;

/// An R x C board of bits (black = 1), rows of `u64` words; see the module docs for the layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BitBoard {
    rows: u32,
    cols: u32,
    words_per_row: usize,
    words: Vec<u64>,
}

/// The number of `u64` words that hold `bits` bits.
pub fn words_for(bits: usize) -> usize {
    bits.div_ceil(64)
}

impl BitBoard {
    /// An all-white (all-zero) board.
    pub fn new(rows: u32, cols: u32) -> Self {
        let words_per_row = words_for(cols as usize);
        BitBoard {
            rows,
            cols,
            words_per_row,
            words: vec![0; words_per_row * rows as usize],
        }
    }

    /// An all-black board.
    pub fn full(rows: u32, cols: u32) -> Self {
        let mut board = BitBoard::new(rows, cols);
        let last = board.last_word_mask();
        for r in 0..rows {
            let row = board.row_mut(r);
            row.fill(u64::MAX);
            if let Some(w) = row.last_mut() {
                *w &= last;
            }
        }
        board
    }

    /// The bytes a board of this size holds, for memory checks before allocating.
    pub fn bytes_needed(rows: u32, cols: u32) -> u128 {
        words_for(cols as usize) as u128 * rows as u128 * 8
    }

    /// A small board from the search engines' `u64` encoding (bit `r * cols + c`).
    pub fn from_u64(geometry: Geometry, bits: u64) -> Self {
        let mut board = BitBoard::new(geometry.rows, geometry.cols);
        for r in 0..geometry.rows {
            for c in 0..geometry.cols {
                if bits >> geometry.bit(r, c) & 1 == 1 {
                    board.set(r, c, true);
                }
            }
        }
        board
    }

    /// The `u64` encoding of a board of at most 64 cells.
    pub fn to_u64(&self) -> u64 {
        assert!(self.cells() <= 64, "a u64 holds at most 64 cells");
        let mut bits = 0u64;
        for (r, c) in self.ones() {
            bits |= 1u64 << (r * self.cols + c);
        }
        bits
    }

    /// Rows.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// The number of cells, `rows * cols`.
    pub fn cells(&self) -> u64 {
        self.rows as u64 * self.cols as u64
    }

    /// Words in one row: `ceil(cols / 64)`.
    pub fn words_per_row(&self) -> usize {
        self.words_per_row
    }

    /// Every word, row after row.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Every word, row after row; callers keep the bits past the last column zero.
    pub fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }

    /// The words of row `r`.
    pub fn row(&self, r: u32) -> &[u64] {
        let start = r as usize * self.words_per_row;
        &self.words[start..start + self.words_per_row]
    }

    /// The words of row `r`, to change; callers keep the bits past the last column zero.
    pub fn row_mut(&mut self, r: u32) -> &mut [u64] {
        let start = r as usize * self.words_per_row;
        &mut self.words[start..start + self.words_per_row]
    }

    /// The mask of the valid bits in a row's last word.
    pub fn last_word_mask(&self) -> u64 {
        last_word_mask(self.cols as usize)
    }

    /// Whether the cell at (`r`, `c`) is black.
    pub fn get(&self, r: u32, c: u32) -> bool {
        self.row(r)[c as usize / 64] >> (c % 64) & 1 == 1
    }

    /// Makes the cell at (`r`, `c`) black (`true`) or white.
    pub fn set(&mut self, r: u32, c: u32, black: bool) {
        let word = &mut self.row_mut(r)[c as usize / 64];
        let bit = 1u64 << (c % 64);
        if black {
            *word |= bit;
        } else {
            *word &= !bit;
        }
    }

    /// Flips the cell at (`r`, `c`).
    pub fn toggle(&mut self, r: u32, c: u32) {
        self.row_mut(r)[c as usize / 64] ^= 1u64 << (c % 64);
    }

    /// The number of black cells.
    pub fn count_ones(&self) -> u64 {
        self.words.iter().map(|w| w.count_ones() as u64).sum()
    }

    /// `self ^= other`, cell by cell; both have the same size.
    pub fn xor_with(&mut self, other: &BitBoard) {
        assert_eq!((self.rows, self.cols), (other.rows, other.cols));
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a ^= b;
        }
    }

    /// The black cells as `(row, col)`, in row-major order.
    pub fn ones(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        let wpr = self.words_per_row;
        self.words.iter().enumerate().flat_map(move |(i, &word)| {
            let (r, w) = ((i / wpr) as u32, (i % wpr) as u32);
            BitIter(word).map(move |b| (r, w * 64 + b))
        })
    }

    /// The board mirrored on its main diagonal: cell (r, c) moves to (c, r).
    pub fn transposed(&self) -> BitBoard {
        let mut out = BitBoard::new(self.cols, self.rows);
        for (r, c) in self.ones() {
            out.set(c, r, true);
        }
        out
    }

    /// Presses the cell at (`r`, `c`): flips it and its distinct orthogonal neighbours (across the
    /// edges when `wrap`), the same set as [`Geometry::press_mask`]. One press at a time: for
    /// replaying a path and for tests; [`flips_of`](Self::flips_of) does a whole press set at once.
    pub fn press(&mut self, r: u32, c: u32, wrap: bool) {
        let (rows, cols) = (self.rows as i64, self.cols as i64);
        let mut cells = [(r, c); 5];
        let mut n = 1;
        for (dr, dc) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
            let (mut nr, mut nc) = (r as i64 + dr, c as i64 + dc);
            if wrap {
                nr = nr.rem_euclid(rows);
                nc = nc.rem_euclid(cols);
            } else if nr < 0 || nc < 0 || nr >= rows || nc >= cols {
                continue;
            }
            let cell = (nr as u32, nc as u32);
            if !cells[..n].contains(&cell) {
                cells[n] = cell;
                n += 1;
            }
        }
        for &(nr, nc) in &cells[..n] {
            self.toggle(nr, nc);
        }
    }

    /// The cells that pressing every black cell of `self` flips (each flip counted mod 2),
    /// computed a row of words at a time.
    pub fn flips_of(&self, wrap: bool) -> BitBoard {
        let mut out = BitBoard::new(self.rows, self.cols);
        let rows = self.rows;
        let vertical_wrap = wrap && rows >= 3;
        for r in 0..rows {
            let (start, len) = (r as usize * self.words_per_row, self.words_per_row);
            let dst = &mut out.words[start..start + len];
            spread_row(self.row(r), dst, self.cols as usize, wrap);
            // Rows above and below; with 2 rows on a torus they are one row, flipped once.
            let mut neighbours = [None, None];
            if r > 0 {
                neighbours[0] = Some(r - 1);
            } else if vertical_wrap {
                neighbours[0] = Some(rows - 1);
            }
            if r + 1 < rows {
                neighbours[1] = Some(r + 1);
            } else if vertical_wrap {
                neighbours[1] = Some(0);
            }
            for n in neighbours.into_iter().flatten() {
                for (d, s) in dst.iter_mut().zip(self.row(n)) {
                    *d ^= s;
                }
            }
        }
        out
    }

    /// Parses board text of `geometry`'s size with [`Geometry::parse_cells`], the one board
    /// parser; errors name the line and column.
    pub fn parse(geometry: Geometry, board: &BoardText) -> Result<BitBoard> {
        let mut bits = BitBoard::new(geometry.rows, geometry.cols);
        geometry.parse_cells(board, |r, c| bits.set(r, c, true))?;
        Ok(bits)
    }

    /// The text form: one line per row, `b`/`w`, no trailing newline.
    pub fn format(&self) -> String {
        self.format_with('b', 'w')
    }

    /// One line per row with `one` for set cells and `zero` for the rest (a press pattern draws
    /// as `x` and `.`).
    pub fn format_with(&self, one: char, zero: char) -> String {
        let mut out = String::with_capacity((self.cols as usize + 1) * self.rows as usize);
        for r in 0..self.rows {
            if r > 0 {
                out.push('\n');
            }
            for c in 0..self.cols {
                out.push(if self.get(r, c) { one } else { zero });
            }
        }
        out
    }
}

/// The mask of the valid bits in the last word of a `bits`-bit row.
pub fn last_word_mask(bits: usize) -> u64 {
    match bits % 64 {
        0 => u64::MAX,
        n => (1u64 << n) - 1,
    }
}

/// `dst ^= T(src)` for one row of `cols` cells: each set cell of `src` flips itself and its
/// distinct left and right neighbours (across the edge when `wrap`). 64 cells per step: the
/// neighbours are `src` shifted by one bit either way, carried across word boundaries.
///
/// With `wrap` and 2 columns the left and right neighbour are one cell, flipped once, which is what
/// the plain shifts already do; with 1 column a cell has no other neighbour. So the wrap-around
/// bits are added only from 3 columns on.
pub fn spread_row(src: &[u64], dst: &mut [u64], cols: usize, wrap: bool) {
    let n = src.len();
    debug_assert_eq!(n, dst.len());
    for w in 0..n {
        let s = src[w];
        let from_left = (s << 1) | if w > 0 { src[w - 1] >> 63 } else { 0 };
        let from_right = (s >> 1) | if w + 1 < n { src[w + 1] << 63 } else { 0 };
        dst[w] ^= s ^ from_left ^ from_right;
    }
    if n > 0 {
        // The left shift pushed the last column into the padding: clear it.
        dst[n - 1] &= last_word_mask(cols);
    }
    if wrap && cols >= 3 {
        let last = cols - 1;
        let first_bit = src[0] & 1;
        let last_bit = src[last / 64] >> (last % 64) & 1;
        dst[0] ^= last_bit;
        dst[last / 64] ^= first_bit << (last % 64);
    }
}

/// The positions of the set bits of a word, lowest first.
struct BitIter(u64);

impl Iterator for BitIter {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry(rows: u32, cols: u32, wrap: bool) -> Geometry {
        Geometry { rows, cols, wrap }
    }

    #[test]
    fn text_round_trips_across_word_boundaries() {
        let g = geometry(3, 70, false);
        let text: Vec<String> = (0..3)
            .map(|r| {
                (0..70)
                    .map(|c| if (r * 7 + c) % 3 == 0 { 'b' } else { 'w' })
                    .collect()
            })
            .collect();
        let text = text.join("\n");
        let board = BitBoard::parse(g, &BoardText::from_file("t", text.clone())).unwrap();
        assert_eq!(board.format(), text);
        assert_eq!(board.words_per_row(), 2);
    }

    #[test]
    fn u64_encoding_round_trips() {
        let g = geometry(5, 7, false);
        let bits = 0x5_1234_5678u64 & ((1 << 35) - 1);
        assert_eq!(BitBoard::from_u64(g, bits).to_u64(), bits);
    }

    #[test]
    fn press_matches_the_u64_press_mask() {
        for (rows, cols) in [(1, 1), (1, 2), (2, 2), (3, 2), (2, 5), (4, 4), (3, 7)] {
            for wrap in [false, true] {
                let g = geometry(rows, cols, wrap);
                for r in 0..rows {
                    for c in 0..cols {
                        let mut board = BitBoard::new(rows, cols);
                        board.press(r, c, wrap);
                        assert_eq!(board.to_u64(), g.press_mask(r, c), "{g:?} r{r}c{c}");
                    }
                }
            }
        }
    }

    #[test]
    fn flips_of_a_press_set_is_the_sum_of_its_presses() {
        // Sizes that cross word boundaries, plain and torus, including 1 and 2 rows/columns.
        for (rows, cols) in [
            (1, 1),
            (2, 2),
            (1, 5),
            (5, 1),
            (3, 2),
            (2, 3),
            (4, 65),
            (5, 130),
        ] {
            for wrap in [false, true] {
                let mut presses = BitBoard::new(rows, cols);
                let mut expected = BitBoard::new(rows, cols);
                let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ (rows as u64 * 1000 + cols as u64);
                for r in 0..rows {
                    for c in 0..cols {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        if seed & 1 == 1 {
                            presses.set(r, c, true);
                            expected.press(r, c, wrap);
                        }
                    }
                }
                assert_eq!(
                    presses.flips_of(wrap),
                    expected,
                    "{rows}x{cols} wrap {wrap}"
                );
            }
        }
    }

    #[test]
    fn transpose_moves_cells_across_the_diagonal() {
        let mut board = BitBoard::new(2, 3);
        board.set(0, 2, true);
        let t = board.transposed();
        assert_eq!((t.rows(), t.cols()), (3, 2));
        assert!(t.get(2, 0));
        assert_eq!(t.transposed(), board);
    }
}
