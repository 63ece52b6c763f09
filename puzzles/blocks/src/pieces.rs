//! The pieces of a puzzle ([`Pieces`]: its kinds of piece, [`Class`]) and a position's encoding
//! ([`State`]): where each piece stands, in one `u128`.
//!
//! # The encoding
//!
//! Pieces of one class are alike (a position says which cells hold *a* 1 x 1 soldier, not
//! which soldier), so a position is the set of anchors (each piece's top-left cell) and the
//! class of the piece at each anchor:
//!
//! ```text
//! bits 0..64     anchors: bit a set when a piece's top-left cell is a
//! bits 64..128   labels: the class of each piece, `bits` bits a piece, in anchor order
//!                (the piece of the lowest anchor in the lowest bits)
//! ```
//!
//! Two pieces never share an anchor (they would overlap), so this is one word per position
//! whatever the number of pieces: Klotski's 10 pieces of 4 classes take 20 + 20 bits. A move
//! changes one anchor: the anchor bits by two XORs, the labels by taking the piece's label out
//! of its rank and putting it in at its new rank (shifts and masks; nothing allocated).
//! Equal positions have equal words, so the word is also the key of the sorted index.

use crate::geometry::{Axis, Geometry, Shape};

/// A position: anchors in the low 64 bits, labels in the high (see the module docs).
pub type State = u128;

/// A kind of piece: its shape, how it moves and where it may stand; pieces of one class are
/// interchangeable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    /// The letter its pieces print as.
    pub letter: u8,
    /// Its rectangle.
    pub shape: Shape,
    /// The ways it moves.
    pub axis: Axis,
    /// The anchors it may stand at: inside the board, on its line when it moves along one.
    pub allowed: u64,
    /// How many pieces of it the puzzle has.
    pub count: u8,
    /// The letter of each of its pieces in anchor order, as the start board writes them: a
    /// board prints its `k`-th piece of the class (in anchor order) with `letters[k]`, so the
    /// start prints as written even where look-alikes of other letters are one class. Empty:
    /// every piece prints as `letter`.
    pub letters: Vec<u8>,
}

impl Class {
    /// The letter of the class's `k`-th piece in anchor order.
    #[inline]
    pub fn letter_of(&self, k: usize) -> u8 {
        self.letters.get(k).copied().unwrap_or(self.letter)
    }

    /// Whether its pieces print with more than one letter.
    pub fn lettered(&self) -> bool {
        self.letters.iter().any(|&l| l != self.letter)
    }
}

/// Every kind of piece of a puzzle, its board and its walls: what a [`State`] means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pieces {
    /// The board.
    pub geometry: Geometry,
    /// Cells no piece may enter (`#`).
    pub walls: u64,
    /// The classes, in label order.
    pub classes: Vec<Class>,
    /// Bits of a label: enough for every class (0 when there is one).
    pub bits: u32,
    /// Whether some class prints with several letters ([`Class::letters`]), so that a piece's
    /// letter depends on its place among its look-alikes.
    pub lettered: bool,
}

/// Why a set of pieces cannot be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooMany {
    /// Pieces in all.
    pub pieces: u32,
    /// Classes.
    pub classes: usize,
}

impl std::fmt::Display for TooMany {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bits = label_bits(self.classes);
        write!(
            f,
            "{} pieces of {} kinds take {} bits to label ({} each); at most 64: make more \
             pieces alike (interchangeable = true) or use fewer",
            self.pieces,
            self.classes,
            self.pieces * bits,
            bits
        )
    }
}

/// Bits to tell `classes` classes apart.
fn label_bits(classes: usize) -> u32 {
    usize::BITS - classes.saturating_sub(1).leading_zeros()
}

/// The `n` lowest bits set (all 64 for `n >= 64`).
#[inline(always)]
fn low(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1 << n) - 1 }
}

/// `word >> n`, 0 for `n >= 64`.
#[inline(always)]
fn shr(word: u64, n: u32) -> u64 {
    if n >= 64 { 0 } else { word >> n }
}

/// `word << n`, 0 for `n >= 64`.
#[inline(always)]
fn shl(word: u64, n: u32) -> u64 {
    if n >= 64 { 0 } else { word << n }
}

impl Pieces {
    /// The pieces of `classes` on `geometry` with `walls`; refused when their labels do not fit
    /// 64 bits.
    pub fn new(geometry: Geometry, walls: u64, classes: Vec<Class>) -> Result<Pieces, TooMany> {
        let bits = label_bits(classes.len());
        let pieces: u32 = classes.iter().map(|c| c.count as u32).sum();
        if pieces * bits > 64 || classes.len() > 256 {
            return Err(TooMany {
                pieces,
                classes: classes.len(),
            });
        }
        Ok(Pieces {
            geometry,
            walls,
            lettered: classes.iter().any(Class::lettered),
            classes,
            bits,
        })
    }

    /// The label (class) of the piece of rank `rank` (its anchor's place among the anchors).
    #[inline(always)]
    pub fn label(&self, state: State, rank: u32) -> usize {
        (shr((state >> 64) as u64, rank * self.bits) & low(self.bits)) as usize
    }

    /// Calls `visit(rank, anchor, class)` for every piece, in anchor order.
    #[inline(always)]
    pub fn each(&self, state: State, mut visit: impl FnMut(u32, u32, usize)) {
        let mut anchors = state as u64;
        let mut rank = 0;
        while anchors != 0 {
            let anchor = anchors.trailing_zeros();
            anchors &= anchors - 1;
            visit(rank, anchor, self.label(state, rank));
            rank += 1;
        }
    }

    /// Calls `visit(rank, anchor, class, letter)` for every piece, in anchor order: [`each`]
    /// with the letter the piece prints as ([`Class::letters`]).
    ///
    /// [`each`]: Self::each
    #[inline(always)]
    pub fn each_lettered(&self, state: State, mut visit: impl FnMut(u32, u32, usize, u8)) {
        if !self.lettered {
            return self.each(state, |rank, anchor, class| {
                visit(rank, anchor, class, self.classes[class].letter)
            });
        }
        // The pieces of each class met so far (at most 64 pieces, so 64 classes with one).
        let mut met = [0u8; 64];
        self.each(state, |rank, anchor, class| {
            let k = &mut met[class % 64];
            visit(
                rank,
                anchor,
                class,
                self.classes[class].letter_of(*k as usize),
            );
            *k += 1;
        });
    }

    /// The cells pieces and walls cover.
    #[inline(always)]
    pub fn occupied(&self, state: State) -> u64 {
        let mut cells = self.walls;
        self.each(state, |_, anchor, class| {
            cells |= self.classes[class].shape.at(anchor)
        });
        cells
    }

    /// The class of the piece anchored at `anchor`, if one is.
    pub fn class_at(&self, state: State, anchor: u32) -> Option<usize> {
        let anchors = state as u64;
        (anchors >> anchor & 1 == 1)
            .then(|| self.label(state, (anchors & low(anchor)).count_ones()))
    }

    /// `state` with the piece of rank `rank` and class `class` moved from anchor `from` to
    /// anchor `to` (a free place: the caller checked).
    #[inline(always)]
    pub fn moved(&self, state: State, rank: u32, from: u32, to: u32, class: usize) -> State {
        let anchors = state as u64 ^ 1 << from;
        let labels = (state >> 64) as u64;
        let b = self.bits;
        // Out of rank `rank`...
        let at = rank * b;
        let without = labels & low(at) | shl(shr(labels, at + b), at);
        // ...and in at the rank of `to` among the others.
        let at = (anchors & low(to)).count_ones() * b;
        let with = without & low(at) | shl(class as u64, at) | shl(shr(without, at), at + b);
        ((with as u128) << 64) | (anchors | 1 << to) as u128
    }

    /// The position of `placed` pieces, `(anchor, class)` each, in any order.
    pub fn encode(&self, placed: &[(u32, usize)]) -> State {
        let mut sorted = placed.to_vec();
        sorted.sort_unstable();
        let mut state = 0u128;
        for (rank, &(anchor, class)) in sorted.iter().enumerate() {
            state |= 1 << anchor;
            state |= ((class as u128) << (rank as u32 * self.bits)) << 64;
        }
        state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(classes: usize, count: u8) -> Pieces {
        Pieces::new(Geometry::new(8, 8), 0, squares(classes, count)).unwrap()
    }

    /// `classes` classes of `count` 1 x 1 pieces each, on 8 x 8.
    fn squares(classes: usize, count: u8) -> Vec<Class> {
        let geometry = Geometry::new(8, 8);
        let shape = Shape::new(&geometry, 1, 1);
        let class = |letter| Class {
            letter,
            shape,
            axis: Axis::Any,
            allowed: shape.anchors,
            count,
            letters: Vec::new(),
        };
        (0..classes).map(|k| class(b'A' + k as u8)).collect()
    }

    #[test]
    fn a_move_equals_encoding_the_moved_placement_afresh() {
        let mut random = statespace::random::Lcg(3);
        for (classes, count) in [(1, 40), (2, 30), (3, 10), (5, 4), (16, 1)] {
            let pieces = pieces(classes, count);
            for _ in 0..200 {
                let mut cells: Vec<u32> = (0..64).collect();
                let mut placed = Vec::new();
                for k in 0..classes {
                    for _ in 0..count {
                        let cell = cells.swap_remove(random.below(cells.len()));
                        placed.push((cell, k));
                    }
                }
                let state = pieces.encode(&placed);
                let mut seen = Vec::new();
                pieces.each(state, |_, anchor, class| seen.push((anchor, class)));
                let mut expected = placed.clone();
                expected.sort_unstable();
                assert_eq!(seen, expected);
                let which = random.below(placed.len());
                let to = cells[random.below(cells.len())];
                let (from, class) = placed[which];
                let rank = expected.iter().position(|&p| p == (from, class)).unwrap();
                let moved = pieces.moved(state, rank as u32, from, to, class);
                placed[which] = (to, class);
                assert_eq!(moved, pieces.encode(&placed));
                assert_eq!(pieces.class_at(moved, to), Some(class));
                assert_eq!(pieces.class_at(moved, from), None);
            }
        }
    }

    #[test]
    fn labels_must_fit_a_word() {
        let refused = Pieces::new(Geometry::new(8, 8), 0, squares(5, 22));
        assert_eq!(
            refused.unwrap_err().to_string(),
            "110 pieces of 5 kinds take 330 bits to label (3 each); at most 64: make more \
             pieces alike (interchangeable = true) or use fewer"
        );
    }
}
