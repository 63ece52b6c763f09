//! The compact search state: a fixed array of bytes, and moves as precomputed byte shuffles.
//!
//! # Layout
//!
//! A [`Packed<N>`] is `[u8; N]`. [`Packer`] lays a definition out as, per orbit in order, one byte
//! per slot for the piece label, then (only for orbits with more than one orientation) one byte
//! per slot for the orientation; bytes past [`Packer::len`] are always 0. The 2x2x2 takes 16
//! bytes, the 3x3x3 (edges and corners) 40, LoopOver 4x4 16.
//!
//! # Applying a move
//!
//! Each move is two tables over the used bytes: `src[j]`, the byte it reads, and `add[j]`, the
//! twist it adds (0 for label bytes). Then `out[j] = in[src[j]] + add[j]`, minus the byte's
//! modulus when it reaches it: the model's formula (see [`def`](super::def)) in one loop with no
//! branch on the byte's kind and no allocation. Label bytes get the modulus 255, which labels
//! (at most 254) never reach.
//!
//! # Trade-offs
//!
//! `N` is a const parameter so the state is `Copy` and hashes as a plain array; pick the
//! smallest `N` that fits ([`Packer::new`] says when it does not). Separate label and
//! orientation bytes cost a byte per turning piece over a combined `label * o + orientation`
//! code, but keep the shuffle a single add-and-reduce.

use super::def::{Definition, OrbitState, State, Transform};
use statespace::error::{Error, Location, Result};

/// A state as bytes (see the module docs for the layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Packed<const N: usize>(pub [u8; N]);

/// One move as byte tables over the used bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTable {
    /// The byte each output byte reads.
    pub src: Vec<u8>,
    /// The twist each output byte adds (0 for label bytes).
    pub add: Vec<u8>,
}

/// Where each orbit lives in the bytes, and the move tables: packs, unpacks and applies.
#[derive(Clone, Debug)]
pub struct Packer<const N: usize> {
    /// Per orbit: (first label byte, first orientation byte if any, slots).
    orbits: Vec<(usize, Option<usize>, usize)>,
    /// Per used byte: the modulus (255 for labels).
    modulus: Vec<u8>,
    tables: Vec<MoveTable>,
}

impl<const N: usize> Packer<N> {
    /// The layout of `def` with one table per transform of `moves` (e.g. the
    /// [`Power`](super::def::Power)s of [`Definition::generators`]). Error when the layout needs
    /// more than `N` bytes or a transform does not fit the definition.
    pub fn new(def: &Definition, moves: &[&Transform]) -> Result<Self> {
        let mut orbits = Vec::new();
        let mut modulus = Vec::new();
        for o in &def.orbits {
            let labels = modulus.len();
            modulus.extend(std::iter::repeat_n(u8::MAX, o.pieces));
            let oris = (o.orientations > 1).then(|| {
                let at = modulus.len();
                modulus.extend(std::iter::repeat_n(o.orientations, o.pieces));
                at
            });
            orbits.push((labels, oris, o.pieces));
        }
        let at = Location::file(&def.name);
        // Tables address bytes with a u8.
        if modulus.len() > N.min(256) {
            return Err(Error::input(
                at,
                format!(
                    "the state needs {} bytes, more than the {} of this state type",
                    modulus.len(),
                    N.min(256)
                ),
            ));
        }
        let mut packer = Packer {
            orbits,
            modulus,
            tables: Vec::new(),
        };
        for t in moves {
            if let Some(p) = t.problem(&def.orbits) {
                return Err(Error::input(at, format!("a move does not fit: {p}")));
            }
            let table = packer.table(t);
            packer.tables.push(table);
        }
        Ok(packer)
    }

    /// The number of bytes used.
    pub fn len(&self) -> usize {
        self.modulus.len()
    }

    /// True when no byte is used (never, for a valid definition).
    pub fn is_empty(&self) -> bool {
        self.modulus.is_empty()
    }

    /// Per orbit, in definition order: the first label byte, the first orientation byte (for
    /// orbits with more than one orientation) and the number of slots.
    pub fn orbit_bytes(&self) -> &[(usize, Option<usize>, usize)] {
        &self.orbits
    }

    /// Per used byte, the modulus a move's add reduces by (255 for label bytes, the orbit's
    /// orientation count for orientation bytes).
    pub fn modulus(&self) -> &[u8] {
        &self.modulus
    }

    /// The number of move tables.
    pub fn moves(&self) -> usize {
        self.tables.len()
    }

    /// The byte tables of `t` (which must fit the definition, as [`Transform::problem`] checks).
    pub fn table(&self, t: &Transform) -> MoveTable {
        let mut src: Vec<u8> = (0..self.len()).map(|j| j as u8).collect();
        let mut add = vec![0u8; self.len()];
        for (&(labels, oris, n), o) in self.orbits.iter().zip(&t.orbits) {
            for i in 0..n {
                let p = o.perm[i] as usize;
                src[labels + i] = (labels + p) as u8;
                if let Some(at) = oris {
                    src[at + i] = (at + p) as u8;
                    add[at + i] = o.delta[i];
                }
            }
        }
        MoveTable { src, add }
    }

    /// Applies move table `m` (an index into the tables given to [`new`](Self::new)).
    #[inline]
    pub fn apply(&self, s: Packed<N>, m: usize) -> Packed<N> {
        self.apply_table(s, &self.tables[m])
    }

    /// Applies a table made by [`table`](Self::table).
    #[inline]
    pub fn apply_table(&self, s: Packed<N>, t: &MoveTable) -> Packed<N> {
        let mut out = [0u8; N];
        for (j, o) in out.iter_mut().enumerate().take(self.modulus.len()) {
            // in[src] < modulus and add < modulus <= 255, and the sum only matters below
            // 2 * modulus; labels (<= 254) plus 0 never reach 255.
            let v = s.0[t.src[j] as usize].wrapping_add(t.add[j]);
            let m = self.modulus[j];
            *o = if v >= m { v - m } else { v };
        }
        Packed(out)
    }

    /// The bytes of `state` (which must fit the definition, as
    /// [`Definition::state_problem`] checks).
    pub fn pack(&self, state: &State) -> Packed<N> {
        let mut out = [0u8; N];
        for (&(labels, oris, n), o) in self.orbits.iter().zip(&state.orbits) {
            out[labels..labels + n].copy_from_slice(&o.pieces);
            if let Some(at) = oris {
                out[at..at + n].copy_from_slice(&o.orientation);
            }
        }
        Packed(out)
    }

    /// The state of `bytes`.
    pub fn unpack(&self, bytes: &Packed<N>) -> State {
        State {
            orbits: self
                .orbits
                .iter()
                .map(|&(labels, oris, n)| OrbitState {
                    pieces: bytes.0[labels..labels + n].to_vec(),
                    orientation: match oris {
                        Some(at) => bytes.0[at..at + n].to_vec(),
                        None => vec![0; n],
                    },
                })
                .collect(),
        }
    }
}
