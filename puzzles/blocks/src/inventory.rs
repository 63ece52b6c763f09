//! A puzzle's pieces, taken from its `[start]` board ([`Layout::from_start`]), and every
//! other board read against them ([`Layout::parse`]) and printed ([`Layout::format`]).
//!
//! Which pieces are alike (one [`Class`]): pieces of one letter always (the text cannot tell
//! them apart); with `interchangeable`, also pieces of other letters with the same shape, but
//! never the goal's piece, which must stay itself. With `axis = "length"` a piece moves only
//! along its longer side (Rush Hour), so it never leaves its row (or column): the line is part of
//! its class, and a board that puts it elsewhere is refused.
//!
//! A board read later must have exactly the start board's pieces: each letter of the same
//! shape, each class as many pieces, the walls where they were. Only the places may differ.

use crate::board::{Cut, Grid, cut};
use crate::geometry::{Axis, Geometry, Shape};
use crate::pieces::{Class, Pieces, State};
use statespace::board_text::BoardText;
use statespace::error::Result;
use std::collections::BTreeMap;

/// How the start board's pieces become classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Pieces of one shape are alike whatever their letters.
    pub interchangeable: bool,
    /// A piece moves only along its longer side.
    pub along_length: bool,
    /// The letter of the goal's piece, kept apart from look-alikes.
    pub goal_letter: Option<u8>,
}

/// What makes two pieces alike: their shape and axis, their line when they keep to one, and
/// their letter unless shapes are interchangeable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    letter: Option<u8>,
    rows: u8,
    cols: u8,
    axis: Axis,
    line: Option<u8>,
}

/// The pieces of a puzzle and its board text (see the module docs).
#[derive(Clone, Debug)]
pub struct Layout {
    /// The classes, the board and its walls.
    pub pieces: Pieces,
    options: Options,
    /// Each letter's shape, `(rows, cols)`.
    shapes: BTreeMap<u8, (u8, u8)>,
    /// The class of each key.
    classes: BTreeMap<Key, usize>,
}

impl Layout {
    /// The pieces of the start board `text`. `declared(letter)`: the size of each of the pieces
    /// a letter writes, when `[puzzle] shapes` gives one (else the letter is one piece).
    pub fn from_start(
        text: &BoardText,
        declared: &dyn Fn(u8) -> Option<(u8, u8)>,
        options: Options,
    ) -> Result<Layout> {
        let grid = Grid::read(text)?;
        let geometry = Geometry::new(grid.rows, grid.cols);
        let cuts = cut(&grid, text, &|letter| Ok(declared(letter)))?;
        let mut layout = Layout {
            pieces: Pieces {
                geometry,
                walls: grid.mask_of(b'#'),
                classes: Vec::new(),
                bits: 0,
                lettered: false,
            },
            options,
            shapes: BTreeMap::new(),
            classes: BTreeMap::new(),
        };
        let mut classes = Vec::new();
        for piece in &cuts {
            layout.shapes.insert(piece.letter, (piece.rows, piece.cols));
            let key = layout
                .key(piece)
                .map_err(|why| grid.error_at(text, piece.anchor as usize, &why))?;
            let next = classes.len();
            let class = *layout.classes.entry(key).or_insert(next);
            if class == next {
                classes.push(layout.class(key, piece.letter));
            }
            classes[class].count += 1;
            // `cut` lists the pieces in anchor order: the class's letters in that order.
            classes[class].letters.push(piece.letter);
        }
        let walls = layout.pieces.walls;
        layout.pieces = Pieces::new(geometry, walls, classes)
            .map_err(|too_many| text.error_whole(too_many.to_string()))?;
        Ok(layout)
    }

    /// A piece's key: its axis, its line, and its letter unless shapes are interchangeable.
    fn key(&self, piece: &Cut) -> std::result::Result<Key, String> {
        let axis = match (self.options.along_length, piece.rows.cmp(&piece.cols)) {
            (false, _) => Axis::Any,
            (true, std::cmp::Ordering::Less) => Axis::Horizontal,
            (true, std::cmp::Ordering::Greater) => Axis::Vertical,
            (true, std::cmp::Ordering::Equal) => {
                return Err(format!(
                    "piece '{}' is square: with axis = \"length\" every piece needs a longer \
                     side to move along",
                    piece.letter as char
                ));
            }
        };
        let (row, col) = self.pieces.geometry.place(piece.anchor);
        let line = match axis {
            Axis::Any => None,
            Axis::Horizontal => Some(row),
            Axis::Vertical => Some(col),
        };
        let alike = self.options.interchangeable && self.options.goal_letter != Some(piece.letter);
        Ok(Key {
            letter: (!alike).then_some(piece.letter),
            rows: piece.rows,
            cols: piece.cols,
            axis,
            line,
        })
    }

    /// A new class for `key`, printed as `letter`, with no piece yet.
    fn class(&self, key: Key, letter: u8) -> Class {
        let geometry = &self.pieces.geometry;
        let shape = Shape::new(geometry, key.rows, key.cols);
        let line = match (key.axis, key.line) {
            (Axis::Horizontal, Some(row)) => {
                (0..geometry.cols).fold(0, |m, c| m | 1 << geometry.cell(row, c))
            }
            (Axis::Vertical, Some(col)) => {
                (0..geometry.rows).fold(0, |m, r| m | 1 << geometry.cell(r, col))
            }
            _ => geometry.full,
        };
        Class {
            letter,
            shape,
            axis: key.axis,
            allowed: shape.fits(geometry.full & !self.pieces.walls) & line,
            count: 0,
            letters: Vec::new(),
        }
    }

    /// The class of a piece of `letter` anchored at `anchor`, or why there is none.
    pub fn class_of(&self, letter: u8, anchor: u8) -> std::result::Result<usize, String> {
        let name = letter as char;
        let &(rows, cols) = self
            .shapes
            .get(&letter)
            .ok_or_else(|| self.unknown(letter))?;
        let piece = Cut {
            letter,
            anchor,
            rows,
            cols,
        };
        let key = self.key(&piece)?;
        self.classes
            .get(&key)
            .copied()
            .ok_or_else(|| match key.axis {
                Axis::Horizontal => {
                    format!("'{name}' moves along its row and cannot be in this one")
                }
                Axis::Vertical => {
                    format!("'{name}' moves along its column and cannot be in this one")
                }
                Axis::Any => format!("'{name}' is no piece of this puzzle"),
            })
    }

    /// Why `letter` is refused: no piece of the puzzle is written with it.
    fn unknown(&self, letter: u8) -> String {
        let known: String = self.shapes.keys().map(|&l| l as char).collect();
        format!(
            "'{}' is no piece of this puzzle (its pieces: {known})",
            letter as char
        )
    }

    /// Reads a board with this puzzle's pieces (see the module docs).
    pub fn parse(&self, text: &BoardText) -> Result<State> {
        let grid = Grid::read(text)?;
        let geometry = &self.pieces.geometry;
        if (grid.rows, grid.cols) != (geometry.rows, geometry.cols) {
            let message = format!(
                "a {} x {} board; this puzzle's is {} x {} (its [start] board's)",
                grid.rows, grid.cols, geometry.rows, geometry.cols
            );
            return Err(text.error_whole(message));
        }
        let shape_of = |letter: u8| match self.shapes.get(&letter) {
            Some(&shape) => Ok(Some(shape)),
            None => {
                let cell = grid.cells.iter().position(|&b| b == letter).unwrap_or(0);
                Err(grid.error_at(text, cell, &self.unknown(letter)))
            }
        };
        let cuts = cut(&grid, text, &shape_of)?;
        let walls = grid.mask_of(b'#');
        if walls != self.pieces.walls {
            let cell = (walls ^ self.pieces.walls).trailing_zeros() as usize;
            let why = "the walls (#) are not where this puzzle's [start] board has them";
            return Err(grid.error_at(text, cell, why));
        }
        let mut placed = Vec::with_capacity(cuts.len());
        let mut counts = vec![0u32; self.pieces.classes.len()];
        for piece in &cuts {
            let class = self
                .class_of(piece.letter, piece.anchor)
                .map_err(|why| grid.error_at(text, piece.anchor as usize, &why))?;
            counts[class] += 1;
            placed.push((piece.anchor as u32, class));
        }
        for (class, &count) in self.pieces.classes.iter().zip(&counts) {
            if count != class.count as u32 {
                let message = format!(
                    "{count} {} of '{}' ({} x {}); this puzzle has {} (the pieces of its \
                     [start] board)",
                    if count == 1 { "piece" } else { "pieces" },
                    class.letter as char,
                    class.shape.rows,
                    class.shape.cols,
                    class.count
                );
                return Err(text.error_whole(message));
            }
        }
        Ok(self.pieces.encode(&placed))
    }

    /// The board text of `state`: a row a line.
    pub fn format(&self, state: State) -> String {
        let geometry = &self.pieces.geometry;
        let mut cells = vec![b'.'; geometry.rows as usize * geometry.cols as usize];
        for (i, cell) in cells.iter_mut().enumerate() {
            if self.pieces.walls >> i & 1 == 1 {
                *cell = b'#';
            }
        }
        self.pieces
            .each_lettered(state, |_, anchor, class, letter| {
                let mut covered = self.pieces.classes[class].shape.at(anchor);
                while covered != 0 {
                    cells[covered.trailing_zeros() as usize] = letter;
                    covered &= covered - 1;
                }
            });
        let rows: Vec<String> = cells
            .chunks(geometry.cols as usize)
            .map(|row| String::from_utf8_lossy(row).into_owned())
            .collect();
        rows.join("\n")
    }

    /// Each letter boards print, with its size, for pictures: `(letter, rows, cols)`, in class
    /// order, once each.
    pub fn shapes(&self) -> Vec<(char, u8, u8)> {
        let mut shapes: Vec<(char, u8, u8)> = Vec::new();
        for class in &self.pieces.classes {
            for &letter in std::iter::once(&class.letter).chain(&class.letters) {
                let shape = (letter as char, class.shape.rows, class.shape.cols);
                if !shapes.contains(&shape) {
                    shapes.push(shape);
                }
            }
        }
        shapes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn klotski(letter: u8) -> Option<(u8, u8)> {
        match letter {
            b'V' => Some((2, 1)),
            b'S' => Some((1, 1)),
            _ => None,
        }
    }

    const OPTIONS: Options = Options {
        interchangeable: true,
        along_length: false,
        goal_letter: Some(b'B'),
    };

    fn text(board: &str) -> BoardText {
        BoardText::from_file("b.txt", board.into())
    }

    #[test]
    fn klotski_has_four_classes_and_reads_back_what_it_prints() {
        let start = "VBBV\nVBBV\nVHHV\nVSSV\nS..S";
        let layout = Layout::from_start(&text(start), &klotski, OPTIONS).unwrap();
        let letters: String = layout
            .pieces
            .classes
            .iter()
            .map(|c| c.letter as char)
            .collect();
        assert_eq!(letters, "VBHS");
        let counts: Vec<u8> = layout.pieces.classes.iter().map(|c| c.count).collect();
        assert_eq!(counts, [4, 1, 1, 4]);
        assert_eq!(layout.pieces.bits, 2);
        let state = layout.parse(&text(start)).unwrap();
        assert_eq!(layout.format(state), start);
        let other = "VSSV\nVBBV\nVBBV\nVHHV\nS..S";
        assert_eq!(layout.format(layout.parse(&text(other)).unwrap()), other);
    }

    #[test]
    fn look_alikes_of_other_letters_merge_unless_told_not_to() {
        // Two 1 x 2 pieces, A and C, and the goal's 1 x 2 piece X.
        let start = "AA.\nXX.\nCC.";
        let alike = Layout::from_start(&text(start), &|_| None, OPTIONS).unwrap();
        let goal = Options {
            goal_letter: Some(b'X'),
            ..OPTIONS
        };
        let alike_but_x = Layout::from_start(&text(start), &|_| None, goal).unwrap();
        let apart = Options {
            interchangeable: false,
            ..goal
        };
        let apart = Layout::from_start(&text(start), &|_| None, apart).unwrap();
        assert_eq!(alike.pieces.classes.len(), 1);
        assert_eq!(alike_but_x.pieces.classes.len(), 2);
        assert_eq!(apart.pieces.classes.len(), 3);
        // Look-alikes print with the start's letters in reading order; either letter reads
        // as the class.
        let swapped = alike_but_x.parse(&text("CC.\nXX.\n.AA")).unwrap();
        assert_eq!(alike_but_x.format(swapped), "AA.\nXX.\n.CC");
        let start_state = alike.parse(&text(start)).unwrap();
        assert_eq!(
            alike.format(start_state),
            start,
            "the start prints as written"
        );
        assert_eq!(
            apart.format(apart.parse(&text("CC.\nXX.\n.AA")).unwrap()),
            "CC.\nXX.\n.AA"
        );
    }

    #[test]
    fn boards_that_are_not_the_start_s_pieces_are_refused() {
        let start = "VBBV\nVBBV\nVHHV\nVSSV\nS..S";
        let layout = Layout::from_start(&text(start), &klotski, OPTIONS).unwrap();
        let error = |board: &str| layout.parse(&text(board)).unwrap_err().to_string();
        assert_eq!(
            error("VBBV\nVBBV\nVHHV\nVSSV\nSS.S"),
            "b.txt:1: 5 pieces of 'S' (1 x 1); this puzzle has 4 (the pieces of its [start] board)"
        );
        assert_eq!(
            error("VBBV\nVBBV\nVHHV\nVSSV\nS.QS"),
            "b.txt:5: row 5, column 3: 'Q' is no piece of this puzzle (its pieces: BHSV)"
        );
        assert_eq!(
            error("VBBV\nVBBV\nVSSV\nVSSV"),
            "b.txt:1: a 4 x 4 board; this puzzle's is 5 x 4 (its [start] board's)"
        );
        let cars = Options {
            interchangeable: false,
            along_length: true,
            goal_letter: Some(b'X'),
        };
        let rush = Layout::from_start(&text("AA.\n.XX\nB..\nB.."), &|_| None, cars).unwrap();
        assert_eq!(
            rush.parse(&text(".AA\n.XX\n.B.\n.B."))
                .unwrap_err()
                .to_string(),
            "b.txt:3: row 3, column 2: 'B' moves along its column and cannot be in this one"
        );
        let square = Layout::from_start(&text("AA\nAA"), &|_| None, cars).unwrap_err();
        assert!(square.to_string().contains("'A' is square"), "{square}");
    }
}
