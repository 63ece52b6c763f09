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
//! # Widths
//!
//! `N` is a const parameter so the state is `Copy`, hashes as a plain array and has no pointer
//! to follow; [`WIDTHS`] are the `N`s the plugin compiles, and [`with_width`] picks the smallest
//! that holds a definition, once, at load. A byte is addressed by a [`ByteIndex`] (`u16`), so
//! the largest width is not bound by the tables.
//!
//! The widths double from 16 to 1024, then jump to 4096 (the largest, [`MAX_STATE_BYTES`]):
//!
//! - up to 128 bytes (the 2x2x2: 16, the 3x3x3: 40, the megaminx: 100) is what every puzzle
//!   that can be solved optimally takes, and stays as it was: a state is copied, hashed and
//!   compared in a few instructions;
//! - 256 to 1024 hold twsearch's 6x6x6 (160 bytes) to 13x13x13 (880), the gigaminx (280) and
//!   the icosahedra (144, 360), each in less than twice its bytes;
//! - 4096 holds the 14x14x14 and up to the 20x20x20 (2,176 bytes); no sample of twsearch lies
//!   between 1,024 and 2,176 bytes, and a 2048 width would be one more copy of every engine.
//!
//! Each width is a monomorphised copy of every engine (compile time, binary size), so there
//! are few; within one, a state costs `N` bytes wherever it is stored (a hash set, a frontier,
//! a path), and the engines' memory estimates count `size_of::<Packed<N>>()`, the real width.
//! Boxed words (`Box<[u64]>` per state) would fit any size exactly but cost an allocation per
//! state and a pointer per hash probe, and the engines' state must be `Copy`.
//!
//! Separate label and orientation bytes cost a byte per turning piece over a combined
//! `label * o + orientation` code, but keep the shuffle a single add-and-reduce.

pub use super::def::ByteIndex;
use super::def::{Definition, OrbitState, State, Transform};
use statespace::error::{Error, Location, Result};

/// The state widths the plugin compiles, smallest first (see the module docs).
pub const WIDTHS: [usize; 8] = [16, 32, 64, 128, 256, 512, 1024, 4096];

/// The most bytes a state may take: the largest of [`WIDTHS`].
pub const MAX_STATE_BYTES: usize = WIDTHS[WIDTHS.len() - 1];

/// Something to run with the state width chosen for a definition: [`with_width`] calls
/// [`run`](Self::run) with the `N` of one of [`WIDTHS`].
pub trait ForWidth {
    /// What `run` returns.
    type Output;
    /// Runs with states of `N` bytes.
    fn run<const N: usize>(self) -> Self::Output;
}

/// Runs `f` with the smallest of [`WIDTHS`] that holds `bytes` (a definition's
/// [`state_bytes`](Definition::state_bytes)); `None` past [`MAX_STATE_BYTES`]. The one place a
/// width is chosen: the plugin and the benches dispatch through it.
pub fn with_width<F: ForWidth>(bytes: usize, f: F) -> Option<F::Output> {
    Some(match bytes {
        0..=16 => f.run::<16>(),
        17..=32 => f.run::<32>(),
        33..=64 => f.run::<64>(),
        65..=128 => f.run::<128>(),
        129..=256 => f.run::<256>(),
        257..=512 => f.run::<512>(),
        513..=1024 => f.run::<1024>(),
        1025..=4096 => f.run::<4096>(),
        _ => return None,
    })
}

/// A state as bytes (see the module docs for the layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Packed<const N: usize>(pub [u8; N]);

/// One move as byte tables over the used bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTable {
    /// The byte each output byte reads.
    pub src: Vec<ByteIndex>,
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
        // Tables address bytes with a `ByteIndex`.
        let most = N.min(usize::from(ByteIndex::MAX) + 1);
        if modulus.len() > most {
            return Err(Error::input(
                at,
                format!(
                    "the state needs {} bytes, more than the {most} of this state type",
                    modulus.len(),
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
        // `len() <= N` fits a `ByteIndex` (checked in `new`).
        let mut src: Vec<ByteIndex> = (0..self.len()).map(|j| j as ByteIndex).collect();
        let mut add = vec![0u8; self.len()];
        for (&(labels, oris, n), o) in self.orbits.iter().zip(&t.orbits) {
            for i in 0..n {
                let p = o.perm[i] as usize;
                src[labels + i] = (labels + p) as ByteIndex;
                if let Some(at) = oris {
                    src[at + i] = (at + p) as ByteIndex;
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
