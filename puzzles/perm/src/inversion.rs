//! A state's inverse: the position reached by the reversed, inverted move sequence, as far from
//! solved as the state itself; a pattern database looked up there too gives a second lower
//! bound (the *dual* look-up of Zahavi, Felner, Holte & Schaeffer, "Duality in permutation state
//! spaces", 2008).
//!
//! # Why the inverse is as far from solved
//!
//! A position is `solved · T` for a transform `T` (the product of the moves played; a move `m`
//! takes state `s` to `s · m`, the packed bytes' `out[j] = in[src[j]] + add[j]`, see
//! [`state`](super::state)). When the solved state is the identity up to names (every label
//! once per orbit, no twist), `T` is read off the state: slot `i` holds the piece whose home is
//! `T.perm[i]` with twist `T.ori[i]`. Its inverse `T⁻¹` holds piece `i` in slot `T.perm[i]`
//! with twist `-T.ori[i]`. If `T = m1 · ... · mk` then `T⁻¹ = mk⁻¹ · ... · m1⁻¹`, so when every
//! move's inverse is a move of the same cost (a searched power's complement is searched too),
//! `solved · T⁻¹` is exactly as far from solved as `solved · T`.
//!
//! # When there is none
//!
//! [`Inversion::find`] refuses, with the reason, a definition whose solved state has look-alike
//! pieces (the transform is not determined by the state), twists a piece when solved, has
//! `Illegal` rules (they constrain slots, which the inverse does not respect), or a move set
//! without some move's inverse (the inverse would need moves the search does not have).
//!
//! # What it costs and gives
//!
//! One pass over the label bytes (a home look-up, a store, and a negated twist per slot); no
//! allocation. A pattern of a whole class (the 3x3x3's corners) gains nothing: its projection of
//! the inverse is the inverse of its projection, as far from its goal. A pattern of some of a
//! class's pieces (a group of edges) reads, at the inverse, *where the pieces that belong in its
//! slots are*: other information than where its own pieces are, a different bound.

use super::def::Definition;
use super::state::{Packed, Packer};

/// The compiled inverse of a definition's states (see the module docs).
#[derive(Clone, Debug)]
pub struct Inversion {
    orbits: Vec<OrbitInversion>,
}

#[derive(Clone, Debug)]
struct OrbitInversion {
    /// The first label byte.
    labels: usize,
    /// The first orientation byte, for an orbit with more than one orientation.
    oris: Option<usize>,
    orientations: u8,
    /// The solved label of each slot.
    solved: Vec<u8>,
    /// `home[label]`: the slot that holds `label` when solved (0 for a label the orbit has not).
    home: Box<[u8; 256]>,
}

impl Inversion {
    /// The inverse of `def`'s states as laid out by `packer`, when the moves are closed under
    /// inverses (`moves_closed`); otherwise, or when the definition has no inverse (see the
    /// module docs), why not.
    pub fn find<const N: usize>(
        def: &Definition,
        packer: &Packer<N>,
        moves_closed: bool,
    ) -> Result<Self, &'static str> {
        if !moves_closed {
            return Err("a searched move's inverse is not searched");
        }
        if !def.illegal.is_empty() {
            return Err("the definition has Illegal rules");
        }
        if def.has_wild() {
            // A wild piece's twist is unknown; in the inverse it is another piece's.
            return Err("the definition leaves some twists unknown (?)");
        }
        let mut orbits = Vec::new();
        for ((&(labels, oris, slots), orbit), solved) in packer
            .orbit_bytes()
            .iter()
            .zip(&def.orbits)
            .zip(&def.solved.orbits)
        {
            if solved.orientation.iter().any(|&o| o != 0) {
                return Err("the solved state twists a piece");
            }
            let mut home = Box::new([0u8; 256]);
            let mut seen = [false; 256];
            for (slot, &label) in solved.pieces.iter().enumerate() {
                if std::mem::replace(&mut seen[usize::from(label)], true) {
                    return Err("the solved state has look-alike pieces");
                }
                // A slot of an orbit: at most 255 of them have distinct byte labels.
                home[usize::from(label)] = slot as u8;
            }
            debug_assert_eq!(slots, solved.pieces.len());
            orbits.push(OrbitInversion {
                labels,
                oris,
                orientations: orbit.orientations,
                solved: solved.pieces.clone(),
                home,
            });
        }
        Ok(Inversion { orbits })
    }

    /// The inverse of `state` (a state of the definition's moves from its solved state).
    #[inline]
    pub fn invert<const N: usize>(&self, state: &Packed<N>) -> Packed<N> {
        let s = &state.0;
        let mut out = [0u8; N];
        // `% N` is a mask (N is a power of two): no bounds check, and a valid state's bytes are
        // below the used length anyway.
        for o in &self.orbits {
            for (i, &label) in o.solved.iter().enumerate() {
                let to = usize::from(o.home[usize::from(s[(o.labels + i) % N])]);
                out[(o.labels + to) % N] = label;
                if let Some(at) = o.oris {
                    let twist = s[(at + i) % N];
                    out[(at + to) % N] = match twist {
                        0 => 0,
                        t => o.orientations - t,
                    };
                }
            }
        }
        Packed(out)
    }
}
