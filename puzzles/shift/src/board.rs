//! Shift board geometry, colours, moves, and the text form.
//!
//! Cells are numbered row-major: the cell at row `r`, column `c` (0-based) is cell `r * cols + c`.
//! Two encodings use that numbering:
//!
//! - a **colour mask** (`u64`): bit `i` is set when cell `i` holds the colour (one bit per cell,
//!   so at most 64 cells); the one-colour spaces in [`space`](super::space) work on these;
//! - a **packed board** (`u128`): cell `i` holds its colour's number (its position in the
//!   palette) in bits `i * b .. (i + 1) * b`, `b` = bits per cell (2 for up to 4 colours); the
//!   pattern goal works on these.
//!
//! A move shifts one row or one column cyclically by one cell; in either encoding it is the same
//! four bit operations ([`Shifter`]): the cells that stay, the cells that slide one place, and the
//! one cell that wraps around to the other end.
//!
//! Text form: one line per row of colour letters (`GWGGWW`), either case; surrounding whitespace
//! and blank lines are ignored.

use statespace::board_text::BoardText;
use statespace::error::Result;
use std::fmt;
use std::ops::{BitAnd, BitOr, Not, Shl, Shr};

/// The most cells a colour mask holds.
pub const MAX_CELLS: u32 = 64;
/// The fewest rows and columns: with fewer there is no interior, and on a 2-cell line left and
/// right are the same move.
pub const MIN_SIDE: u32 = 3;

/// An R x C board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Rows (3 or more).
    pub rows: u32,
    /// Columns (3 or more).
    pub cols: u32,
}

/// One move: a row slides left or right, a column up or down, by one cell, cyclically.
///
/// Displays 1-based as people read it: `row 2 left` (every cell of row 2 moves one place left,
/// the leftmost wraps to the right end), `col 5 up` (every cell of column 5 moves one place up,
/// the top one wraps to the bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shift {
    /// Row `r` (0-based) one cell left, the leftmost cell wrapping to the right end.
    RowLeft(u8),
    /// Row `r` one cell right.
    RowRight(u8),
    /// Column `c` (0-based) one cell up, the top cell wrapping to the bottom.
    ColUp(u8),
    /// Column `c` one cell down.
    ColDown(u8),
}

impl Shift {
    /// The move that undoes this one.
    pub fn inverse(self) -> Shift {
        match self {
            Shift::RowLeft(r) => Shift::RowRight(r),
            Shift::RowRight(r) => Shift::RowLeft(r),
            Shift::ColUp(c) => Shift::ColDown(c),
            Shift::ColDown(c) => Shift::ColUp(c),
        }
    }
}

impl fmt::Display for Shift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Shift::RowLeft(r) => write!(f, "row {} left", r + 1),
            Shift::RowRight(r) => write!(f, "row {} right", r + 1),
            Shift::ColUp(c) => write!(f, "col {} up", c + 1),
            Shift::ColDown(c) => write!(f, "col {} down", c + 1),
        }
    }
}

impl Geometry {
    /// The number of cells.
    pub fn cells(&self) -> u32 {
        self.rows * self.cols
    }

    /// The cell at (`row`, `col`), 0-based.
    pub fn cell(&self, row: u32, col: u32) -> u32 {
        row * self.cols + col
    }

    /// Every move, rows first (each left then right), then columns (each up then down): the order
    /// successors are generated in, so paths are reproducible.
    pub fn moves(&self) -> Vec<Shift> {
        let rows = (0..self.rows as u8).flat_map(|r| [Shift::RowLeft(r), Shift::RowRight(r)]);
        let cols = (0..self.cols as u8).flat_map(|c| [Shift::ColUp(c), Shift::ColDown(c)]);
        rows.chain(cols).collect()
    }

    /// The mask of the cells in rows `top..=bottom` and columns `left..=right` (0-based).
    pub fn rectangle(&self, top: u32, left: u32, bottom: u32, right: u32) -> u64 {
        let mut mask = 0u64;
        for r in top..=bottom {
            for c in left..=right {
                mask |= 1u64 << self.cell(r, c);
            }
        }
        mask
    }

    /// The cells off the edge: rows 2 to R-1, columns 2 to C-1 (1-based).
    pub fn interior(&self) -> u64 {
        self.rectangle(1, 1, self.rows - 2, self.cols - 2)
    }

    /// Where each cell's content comes from after `shift`: `cells[i] = before[source[i]]`.
    pub fn sources(&self, shift: Shift) -> Vec<u32> {
        let (rows, cols) = (self.rows, self.cols);
        let mut source: Vec<u32> = (0..self.cells()).collect();
        match shift {
            Shift::RowLeft(r) | Shift::RowRight(r) => {
                let r = r as u32;
                let step = if matches!(shift, Shift::RowLeft(_)) {
                    1
                } else {
                    cols - 1
                };
                for c in 0..cols {
                    source[self.cell(r, c) as usize] = self.cell(r, (c + step) % cols);
                }
            }
            Shift::ColUp(c) | Shift::ColDown(c) => {
                let c = c as u32;
                let step = if matches!(shift, Shift::ColUp(_)) {
                    1
                } else {
                    rows - 1
                };
                for r in 0..rows {
                    source[self.cell(r, c) as usize] = self.cell((r + step) % rows, c);
                }
            }
        }
        source
    }

    /// `shift` as bit operations on a word with `bits` bits per cell.
    pub fn shifter<W: Word>(&self, shift: Shift, bits: u32) -> Shifter<W> {
        let cell_mask = |i: u32| W::low_bits(bits) << (i * bits);
        let mut s = Shifter {
            keep: W::ZERO,
            right: W::ZERO,
            right_by: 0,
            left: W::ZERO,
            left_by: 0,
        };
        // Content moves from cell `source` to cell `i`: down the word when source > i.
        let mut moving = W::ZERO;
        for (i, &source) in self.sources(shift).iter().enumerate() {
            let i = i as u32;
            if source == i {
                s.keep = s.keep | cell_mask(i);
                continue;
            }
            moving = moving | cell_mask(source);
            let distance = source.abs_diff(i) * bits;
            if source > i {
                s.right = s.right | cell_mask(source);
                s.right_by = distance; // the same for every sliding cell
            } else {
                s.left = s.left | cell_mask(source);
                s.left_by = distance;
            }
        }
        // A line of 3+ cells has one direction with many cells (the slide) and one with a single
        // cell (the wrap); both are recorded above. Nothing else moves.
        debug_assert!(moving == s.right | s.left);
        s
    }

    /// Parses board text into colour numbers (positions in `palette`); errors name the line.
    pub fn parse(&self, palette: &Palette, board: &BoardText) -> Result<Board> {
        let rows = board.rows();
        if rows.is_empty() {
            return Err(board.error_whole(format!(
                "empty board: expected {} rows of {}",
                self.rows, palette
            )));
        }
        let mut cells = Vec::with_capacity(self.cells() as usize);
        for (r, &(line, text)) in rows.iter().enumerate() {
            if r as u32 >= self.rows {
                return Err(board.error(line, format!("too many rows: expected {}", self.rows)));
            }
            self.parse_row(palette, text, &mut cells)
                .map_err(|message| board.error(line, format!("row {}{message}", r + 1)))?;
        }
        if (rows.len() as u32) < self.rows {
            let last = rows.last().map_or(1, |&(line, _)| line);
            return Err(board.error(
                last,
                format!("too few rows: {} of {}", rows.len(), self.rows),
            ));
        }
        Ok(Board { cells })
    }

    /// Appends one row's colour numbers to `cells`. The error message is the rest of a sentence
    /// that names the row (` has 5 cells, expected 6`, `, column 3: 'X' is not one of B/W/G`):
    /// the board parser names it `row N`, the judge by its token. Crate-private: those two are
    /// its only callers.
    pub(crate) fn parse_row(
        &self,
        palette: &Palette,
        text: &str,
        cells: &mut Vec<u8>,
    ) -> std::result::Result<(), String> {
        // The judge's rows are ASCII: their length is their bytes'.
        let len = if text.is_ascii() {
            text.len()
        } else {
            text.chars().count()
        };
        if len != self.cols as usize {
            return Err(format!(" has {len} cells, expected {}", self.cols));
        }
        for (c, ch) in text.chars().enumerate() {
            let colour = palette
                .colour(ch)
                .ok_or_else(|| format!(", column {}: {ch:?} is not one of {palette}", c + 1))?;
            cells.push(colour);
        }
        Ok(())
    }

    /// The text form of `board`: one line per row, no trailing newline.
    pub fn format(&self, palette: &Palette, board: &Board) -> String {
        let mut out = String::with_capacity((self.cols as usize + 1) * self.rows as usize);
        for (i, &colour) in board.cells.iter().enumerate() {
            if i > 0 && i % self.cols as usize == 0 {
                out.push('\n');
            }
            out.push(palette.letter(colour));
        }
        out
    }
}

/// The colour letters a board may hold, in the order that numbers them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Palette {
    letters: Vec<char>,
    /// The colour of every ASCII letter, either case (`NONE` for the rest): a row's letters are
    /// looked up, not searched for (a judge's stream has millions).
    codes: [u8; 128],
}

/// The code of a letter not in the palette.
const NONE: u8 = u8::MAX;

impl Palette {
    /// The most colours: a packed board keeps 4 bits per cell at most.
    pub const MAX: usize = 16;

    /// A palette from distinct letters `A`-`Z` (case is ignored), 2 to [`Self::MAX`] of them.
    pub fn new(letters: &str) -> std::result::Result<Palette, PaletteError> {
        let letters: Vec<char> = letters.chars().map(|c| c.to_ascii_uppercase()).collect();
        if let Some(&bad) = letters.iter().find(|c| !c.is_ascii_uppercase()) {
            return Err(PaletteError::NotALetter(bad));
        }
        if !(2..=Self::MAX).contains(&letters.len()) {
            return Err(PaletteError::Count(letters.len()));
        }
        for (i, &c) in letters.iter().enumerate() {
            if letters[..i].contains(&c) {
                return Err(PaletteError::Twice(c));
            }
        }
        let mut codes = [NONE; 128];
        for (i, &c) in letters.iter().enumerate() {
            codes[c as usize] = i as u8;
            codes[c.to_ascii_lowercase() as usize] = i as u8;
        }
        Ok(Palette { letters, codes })
    }

    /// The number of colours.
    pub fn len(&self) -> usize {
        self.letters.len()
    }

    /// Whether the palette is empty (never: it has at least 2 colours).
    pub fn is_empty(&self) -> bool {
        self.letters.is_empty()
    }

    /// The number of `letter` (either case), if it is in the palette.
    pub fn colour(&self, letter: char) -> Option<u8> {
        let code = *self.codes.get(letter as usize)?;
        (code != NONE).then_some(code)
    }

    /// The letter of colour number `colour`.
    pub fn letter(&self, colour: u8) -> char {
        self.letters[colour as usize]
    }

    /// Bits per cell in a packed board: enough for every colour number.
    pub fn bits_per_cell(&self) -> u32 {
        usize::BITS - (self.letters.len() - 1).leading_zeros()
    }
}

impl Default for Palette {
    /// `BWG`: the HDU 3278 colours.
    fn default() -> Self {
        Palette::new("BWG").expect("a valid palette")
    }
}

impl fmt::Display for Palette {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters: Vec<String> = self.letters.iter().map(char::to_string).collect();
        f.write_str(&letters.join("/"))
    }
}

/// Why letters do not make a [`Palette`]; displays as one line (`'1' is not a letter A-Z`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PaletteError {
    /// A character that is not a letter `A`-`Z` (shown upper-cased).
    NotALetter(char),
    /// This many letters: fewer than 2 or more than [`Palette::MAX`].
    Count(usize),
    /// A letter listed twice (in either case).
    Twice(char),
}

impl fmt::Display for PaletteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PaletteError::NotALetter(c) => write!(f, "{c:?} is not a letter A-Z"),
            PaletteError::Count(n) => {
                write!(
                    f,
                    "{n} colours; give 2 to {} distinct letters",
                    Palette::MAX
                )
            }
            PaletteError::Twice(c) => write!(f, "{c:?} is listed twice"),
        }
    }
}

impl std::error::Error for PaletteError {}

/// The message, for callers that take one (`Config::error_at` takes `impl Into<String>`).
impl From<PaletteError> for String {
    fn from(error: PaletteError) -> String {
        error.to_string()
    }
}

/// A whole board: the colour number of each cell, row-major. The readable form that paths are
/// shown in; searches work on masks or packed words.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The colour of every cell, row-major (an index into the palette).
    pub cells: Vec<u8>,
}

impl Board {
    /// The mask of the cells holding `colour`.
    pub fn mask(&self, colour: u8) -> u64 {
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c == colour)
            .fold(0, |mask, (i, _)| mask | 1u64 << i)
    }

    /// The mask of every colour at once: `masks[c]` is [`mask`](Self::mask)`(c)`, for every
    /// colour a palette can hold (one pass over the cells, nothing allocated).
    pub fn masks(&self) -> [u64; Palette::MAX] {
        let mut masks = [0; Palette::MAX];
        for (i, &c) in self.cells.iter().enumerate() {
            masks[c as usize] |= 1u64 << i;
        }
        masks
    }

    /// The board after `shift` on `geometry`.
    pub fn shifted(&self, geometry: &Geometry, shift: Shift) -> Board {
        let cells = geometry
            .sources(shift)
            .iter()
            .map(|&s| self.cells[s as usize])
            .collect();
        Board { cells }
    }

    /// The packed form, `bits` bits per cell (the caller checked it fits 128 bits).
    pub fn pack(&self, bits: u32) -> u128 {
        self.cells
            .iter()
            .enumerate()
            .fold(0, |word, (i, &c)| word | (c as u128) << (i as u32 * bits))
    }

    /// The board of a packed word with `cells` cells of `bits` bits.
    pub fn unpack(word: u128, cells: u32, bits: u32) -> Board {
        let low = (1u128 << bits) - 1;
        let cells = (0..cells)
            .map(|i| (word >> (i * bits) & low) as u8)
            .collect();
        Board { cells }
    }
}

/// A word a board or a mask lives in: `u64` or `u128`.
pub trait Word:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// No bit set.
    const ZERO: Self;
    /// The lowest `bits` bits set.
    fn low_bits(bits: u32) -> Self;
}

impl Word for u64 {
    const ZERO: Self = 0;
    fn low_bits(bits: u32) -> Self {
        (1u64 << bits) - 1
    }
}

impl Word for u128 {
    const ZERO: Self = 0;
    fn low_bits(bits: u32) -> Self {
        (1u128 << bits) - 1
    }
}

/// One move as bit operations: `(w & keep) | (w & right) >> right_by | (w & left) << left_by`.
/// The cells that slide go one way and the one that wraps the other; which is which depends on
/// the direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shifter<W> {
    /// The bits that stay where they are.
    pub keep: W,
    /// The bits that move right (to lower positions) by `right_by`.
    pub right: W,
    /// How far they move.
    pub right_by: u32,
    /// The bits that move left (to higher positions) by `left_by`.
    pub left: W,
    /// How far they move.
    pub left_by: u32,
}

impl<W: Word> Shifter<W> {
    #[inline]
    /// The word after the move.
    pub fn apply(&self, w: W) -> W {
        (w & self.keep) | ((w & self.right) >> self.right_by) | ((w & self.left) << self.left_by)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: Geometry = Geometry { rows: 4, cols: 6 };

    fn parse(text: &str) -> Board {
        G.parse(&Palette::default(), &BoardText::from_file("t", text.into()))
            .unwrap()
    }

    #[test]
    fn text_round_trips_and_moves_read_as_named() {
        let text = "GWGGWW\nBBBBBW\nGBBBGW\nWGGGWW";
        let board = parse(text);
        let p = Palette::default();
        assert_eq!(G.format(&p, &board), text);
        let left = board.shifted(&G, Shift::RowLeft(0));
        assert!(G.format(&p, &left).starts_with("WGGWWG\n"));
        let up = board.shifted(&G, Shift::ColUp(5));
        assert_eq!(G.format(&p, &up), "GWGGWW\nBBBBBW\nGBBBGW\nWGGGWW");
        let up = board.shifted(&G, Shift::ColUp(0));
        assert_eq!(G.format(&p, &up), "BWGGWW\nGBBBBW\nWBBBGW\nGGGGWW");
        assert_eq!(Shift::ColUp(4).to_string(), "col 5 up");
        assert_eq!(Shift::RowLeft(1).to_string(), "row 2 left");
    }

    #[test]
    fn shifters_agree_with_the_cell_permutation() {
        let board = parse("GWGGWW\nBWBBBB\nGBBBGW\nWGGGWW");
        let bits = Palette::default().bits_per_cell();
        for shift in G.moves() {
            let moved = board.shifted(&G, shift);
            assert_eq!(
                G.shifter::<u128>(shift, bits).apply(board.pack(bits)),
                moved.pack(bits)
            );
            for colour in 0..3 {
                assert_eq!(
                    G.shifter::<u64>(shift, 1).apply(board.mask(colour)),
                    moved.mask(colour)
                );
            }
        }
    }

    #[test]
    fn palettes_are_validated() {
        assert_eq!(Palette::default().bits_per_cell(), 2);
        assert_eq!(Palette::new("AB").unwrap().bits_per_cell(), 1);
        assert_eq!(Palette::new("ABCDE").unwrap().bits_per_cell(), 3);
        assert_eq!(Palette::new("BWb"), Err(PaletteError::Twice('B')));
        assert_eq!(
            Palette::new("BWB").unwrap_err().to_string(),
            "'B' is listed twice"
        );
        assert_eq!(Palette::new("B"), Err(PaletteError::Count(1)));
        assert_eq!(Palette::new("B1"), Err(PaletteError::NotALetter('1')));
    }

    #[test]
    fn bad_rows_are_reported_with_line() {
        let err = |t: &str| {
            G.parse(&Palette::default(), &BoardText::from_file("f", t.into()))
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("GWGGWW\nBWBXBB\nGBBBGW\nWGGGWW"),
            "f:2: row 2, column 4: 'X' is not one of B/W/G"
        );
        assert_eq!(
            err("GWGGWW\nBWBBB\nGBBBGW\nWGGGWW"),
            "f:2: row 2 has 5 cells, expected 6"
        );
        assert_eq!(err("GWGGWW\nBWBBBB"), "f:2: too few rows: 2 of 4");
    }
}
