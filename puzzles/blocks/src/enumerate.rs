//! Every position of a puzzle's pieces ([`every_position`]): what the dense index is built from.
//!
//! A position is any placement of every piece inside the board, on its allowed anchors (its
//! line, for a piece that keeps to one), overlapping no other piece and no wall: reachable from
//! the start or not, so that every board the text can give has an index. Klotski's ten pieces
//! have 65,880 positions, of which 25,955 are reachable from the classic start.
//!
//! Depth-first, one class after another, the pieces of a class at increasing anchors (so that
//! look-alikes are placed once, not in every order); a placement that overlaps is cut at once.
//! One mask of anchors per class is kept on the way down; nothing is allocated per position.

use crate::pieces::{Pieces, State};
use statespace::index::Visit;
use std::ops::ControlFlow;

/// Calls `visit` with every position of `pieces` (see the module docs), in no particular
/// order; stops when `visit` breaks.
pub fn every_position(pieces: &Pieces, visit: Visit<State>) {
    let mut anchors = vec![0u64; pieces.classes.len()];
    let first = pieces.classes.first().map_or(0, |c| c.count);
    let _ = place(pieces, 0, first, 0, pieces.walls, &mut anchors, visit);
}

/// Places the `left` remaining pieces of class `class` at anchors from `from` on, then the
/// classes after it; at the end, visits the position.
fn place(
    pieces: &Pieces,
    class: usize,
    left: u8,
    from: u32,
    occupied: u64,
    anchors: &mut [u64],
    visit: Visit<State>,
) -> ControlFlow<()> {
    if left == 0 {
        let next = class + 1;
        return match pieces.classes.get(next) {
            Some(c) => place(pieces, next, c.count, 0, occupied, anchors, visit),
            None => visit(encode(pieces, anchors)),
        };
    }
    let kind = &pieces.classes[class];
    let mut candidates = kind.allowed & (u64::MAX << from);
    while candidates != 0 {
        let anchor = candidates.trailing_zeros();
        candidates &= candidates - 1;
        let cells = kind.shape.at(anchor);
        if cells & occupied == 0 {
            anchors[class] |= 1 << anchor;
            let result = place(
                pieces,
                class,
                left - 1,
                anchor + 1,
                occupied | cells,
                anchors,
                visit,
            );
            anchors[class] &= !(1 << anchor);
            result?;
        }
    }
    ControlFlow::Continue(())
}

/// The position of the anchors of each class.
fn encode(pieces: &Pieces, anchors: &[u64]) -> State {
    let all = anchors.iter().fold(0, |m, a| m | a);
    let (mut labels, mut rest, mut rank) = (0u64, all, 0);
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest &= rest - 1;
        let class = anchors.iter().position(|a| a & bit != 0).unwrap_or(0);
        labels |= (class as u64) << (rank * pieces.bits);
        rank += 1;
    }
    ((labels as u128) << 64) | all as u128
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Grid, cut};
    use crate::inventory::{Layout, Options};
    use statespace::board_text::BoardText;
    use std::collections::BTreeSet;

    /// Every grid of the board's size with the start's letters, by brute force: each cell any
    /// of the letters or empty, kept when it cuts into exactly the start's pieces.
    fn by_brute_force(start: &str, declared: fn(u8) -> Option<(u8, u8)>) -> BTreeSet<String> {
        let layout = Layout::from_start(
            &BoardText::from_file("s", start.into()),
            &|l| declared(l),
            Options {
                interchangeable: true,
                along_length: false,
                goal_letter: None,
            },
        )
        .unwrap();
        let grid = Grid::read(&BoardText::from_file("s", start.into())).unwrap();
        let mut symbols: Vec<u8> = grid.cells.clone();
        symbols.sort_unstable();
        symbols.dedup();
        let cells = grid.cells.len() as u32;
        let mut found = BTreeSet::new();
        for code in 0..(symbols.len() as u64).pow(cells) {
            let mut rest = code;
            let chars: Vec<u8> = (0..cells)
                .map(|_| {
                    let s = symbols[(rest % symbols.len() as u64) as usize];
                    rest /= symbols.len() as u64;
                    s
                })
                .collect();
            let rows: Vec<String> = chars
                .chunks(grid.cols as usize)
                .map(|r| String::from_utf8(r.to_vec()).unwrap())
                .collect();
            let text = BoardText::from_file("s", rows.join("\n"));
            let Ok(grid) = Grid::read(&text) else {
                continue;
            };
            if cut(&grid, &text, &|l| Ok(declared(l))).is_ok() && layout.parse(&text).is_ok() {
                found.insert(rows.join("\n"));
            }
        }
        found
    }

    #[test]
    fn every_position_is_what_a_brute_force_finds() {
        fn shapes(letter: u8) -> Option<(u8, u8)> {
            match letter {
                b'S' => Some((1, 1)),
                b'V' => Some((2, 1)),
                _ => None,
            }
        }
        for start in ["BB.\nVS.\nVS#", "HH.\nV.S\nV.S", "V.\nV.\nSS"] {
            let layout = Layout::from_start(
                &BoardText::from_file("s", start.into()),
                &shapes,
                Options {
                    interchangeable: true,
                    along_length: false,
                    goal_letter: None,
                },
            )
            .unwrap();
            let mut listed = BTreeSet::new();
            every_position(&layout.pieces, &mut |state| {
                assert!(listed.insert(layout.format(state)), "listed twice");
                ControlFlow::Continue(())
            });
            assert_eq!(listed, by_brute_force(start, shapes), "{start}");
        }
    }
}
