//! Beam search's guess for a permutation puzzle: each piece's own distance home, summed.
//!
//! For each orbit and each kind of piece (a label of the solved state; look-alike pieces share
//! one), the fewest moves that carry a piece of that kind, alone, from each slot and twist to a
//! slot where the solved state has that kind at that slot's solved twist: a breadth-first
//! search over the orbit's slots x twists, every other piece ignored. The guess for a state is
//! the sum over its pieces (for the cube, Korf's "3D Manhattan distance").
//!
//! Why this and not "pieces out of place": after a scramble of twenty moves nearly every piece
//! of a cube is out of place, and undoing one move leaves nearly every piece out of place
//! still; a beam ranked by that count sees a plateau and wanders (a 6x6x6 beam of 100 went
//! 34,000 moves deep without finding an 8-move scramble's goal). Summed distances fall with
//! every piece carried nearer home. Why not the admissible heuristic: on a big cube it is a
//! small table's bound, the same few values for most states. The sum is no bound (one move
//! carries many pieces at once), so only beam search uses it ([`Kit::guess`]).
//!
//! Cost: a table of kinds x slots x twists bytes per orbit (the 6x6x6's largest: 24 x 24), made
//! with the space; a guess reads one byte per piece.
//!
//! [`Kit::guess`]: statespace::kit::Kit::guess

use crate::def::{Definition, Transform};

/// Per orbit, each kind's distance home from each slot and twist (see the module docs).
#[derive(Clone, Debug)]
pub struct PieceDistances {
    pub(crate) orbits: Vec<OrbitDistances>,
}

#[derive(Clone, Debug)]
pub(crate) struct OrbitDistances {
    /// The first label byte of the orbit in a packed state.
    pub(crate) labels: usize,
    /// The first twist byte, where pieces turn.
    pub(crate) twists_at: Option<usize>,
    pub(crate) slots: usize,
    twists: usize,
    /// `(kind * slots + slot) * twists + twist` -> moves home, [`FAR`] where it never gets there.
    distance: Vec<u8>,
}

/// The distance of a piece that no sequence of the moves carries home (a kind the moves never
/// bring to its slots): counted as far, never as home.
const FAR: u8 = u8::MAX;

impl PieceDistances {
    /// The bytes the tables of `def` take (charged before they are made).
    pub fn bytes(def: &Definition) -> u128 {
        let orbits = def.orbits.iter().zip(&def.solved.orbits);
        let tables = orbits.map(|(o, s)| {
            let kinds = s.pieces.iter().max().map_or(0, |&k| usize::from(k) + 1);
            (kinds * o.pieces * usize::from(o.orientations)) as u128
        });
        tables.sum()
    }

    /// The tables of `def` under `moves`, for states packed with each orbit's first label byte
    /// and first twist byte at `bytes` (the [`Packer`](crate::state::Packer)'s layout).
    pub fn new(
        def: &Definition,
        moves: &[&Transform],
        bytes: &[(usize, Option<usize>, usize)],
    ) -> PieceDistances {
        let orbits = def.orbits.iter().enumerate().zip(bytes);
        let orbits = orbits.map(|((o, orbit), &(labels, twists_at, slots))| {
            let twists = usize::from(orbit.orientations);
            let solved = &def.solved.orbits[o];
            let kinds = solved
                .pieces
                .iter()
                .max()
                .map_or(0, |&k| usize::from(k) + 1);
            let mut distance = vec![FAR; kinds * slots * twists];
            // Where each move carries a piece, as (slot, twist) <- (slot, twist): slot `i`
            // receives the piece from `perm[i]`, turned by `delta[i]`.
            let mut queue = Vec::with_capacity(slots * twists);
            for kind in 0..kinds {
                let rows = &mut distance[kind * slots * twists..(kind + 1) * slots * twists];
                queue.clear();
                for (slot, (&k, &twist)) in
                    solved.pieces.iter().zip(&solved.orientation).enumerate()
                {
                    if usize::from(k) == kind {
                        let at = slot * twists + usize::from(twist) % twists;
                        rows[at] = 0;
                        queue.push(at);
                    }
                }
                // Backward from home: a piece at (perm[i], t) moves to (i, t + delta[i]), so
                // the positions one move farther from home than (i, u) are (perm[i], u - delta[i]).
                let mut next = 0;
                while next < queue.len() {
                    let at = queue[next];
                    next += 1;
                    let (slot, twist) = (at / twists, at % twists);
                    for m in moves {
                        let t = &m.orbits[o];
                        let from = usize::from(t.perm[slot]);
                        let turned =
                            (twist + twists - usize::from(t.delta[slot]) % twists) % twists;
                        let before = from * twists + turned;
                        if rows[before] == FAR {
                            rows[before] = rows[at].saturating_add(1).min(FAR - 1);
                            queue.push(before);
                        }
                    }
                }
            }
            OrbitDistances {
                labels,
                twists_at,
                slots,
                twists,
                distance,
            }
        });
        PieceDistances {
            orbits: orbits.collect(),
        }
    }

    /// The sum of the pieces' distances home in the packed state `bytes`.
    #[inline]
    pub fn guess(&self, bytes: &[u8]) -> u32 {
        let mut sum = 0u32;
        for o in &self.orbits {
            let labels = &bytes[o.labels..o.labels + o.slots];
            for (slot, &kind) in labels.iter().enumerate() {
                let twist = o.twists_at.map_or(0, |at| usize::from(bytes[at + slot]));
                let at = (usize::from(kind) * o.slots + slot) * o.twists + twist;
                sum += u32::from(o.distance.get(at).copied().unwrap_or(FAR));
            }
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use crate::fixtures;
    use statespace::space::StateSpace;

    #[test]
    fn solved_guesses_zero_and_a_move_changes_each_piece_by_at_most_one() {
        let cube = fixtures::cube();
        let solved = cube.solved();
        assert_eq!(cube.guess(solved), 0);
        // Along a walk: a move carries a piece one move nearer home, one farther, or leaves
        // it, so the guess changes by at most the pieces it moves (the slots whose label or
        // twist byte changed), and never stays 0 off the solved state.
        let mut state = solved;
        let mut seed = 7u64;
        for _ in 0..2_000 {
            let mut successors = Vec::new();
            cube.successors(state, &mut |_, t| successors.push(t));
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let next = successors[(seed >> 33) as usize % successors.len()];
            let moved = state.0.iter().zip(&next.0).filter(|(a, b)| a != b).count() as i64;
            let change = i64::from(cube.guess(next)) - i64::from(cube.guess(state));
            assert!(change.abs() <= moved, "{change} > {moved}");
            assert_eq!(cube.guess(next) == 0, next == solved);
            state = next;
        }
    }

    #[test]
    fn one_move_from_solved_puts_every_piece_it_moves_one_move_from_home() {
        let cube = fixtures::cube();
        let solved = cube.solved();
        for &m in cube.moves() {
            let once = cube.apply(solved, m);
            // The pieces the move displaced or turned: the inverse move carries each home.
            let mut moved = 0;
            for o in &cube.piece_distances().orbits {
                for slot in 0..o.slots {
                    let byte = |at: usize, s: &crate::state::Packed<64>| s.0[at + slot];
                    let turned = o
                        .twists_at
                        .is_some_and(|at| byte(at, &once) != byte(at, &solved));
                    moved +=
                        usize::from(byte(o.labels, &once) != byte(o.labels, &solved) || turned);
                }
            }
            assert!(moved > 0, "{m}");
            assert_eq!(cube.guess(once) as usize, moved, "{m}");
        }
    }
}
