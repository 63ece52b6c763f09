//! The definition model as data: orbits, states, transforms, moves, `Illegal` rules and the
//! [`Definition`] that holds them, with the look-ups by name and the memory each part takes.
//! What the data means is the [convention](super#the-one-convention) of the module; the algebra on it is in
//! [`transform`](super::transform).
//!
//! Trade-offs: values are bytes: at most [`MAX_PIECES`] slots per orbit (slots and labels fit in a
//! `u8`) and [`MAX_ORIENTATIONS`] orientations (twsearch's limit too; it keeps
//! `orientation + delta` below 256). Piece labels in states may repeat (look-alike pieces);
//! transforms are always permutations. This model is for reading, checking and composing; the
//! search state is the fixed-size byte array of [`state`](crate::state).

use hashbrown::HashMap;
use statespace::setup::{heap, listed};

/// The most slots an orbit has: slot indices and piece labels are bytes.
pub const MAX_PIECES: usize = 255;
/// The most orientations a piece has (twsearch's limit): `orientation + delta` stays a byte.
pub const MAX_ORIENTATIONS: u8 = 127;

/// The position of a byte in a packed search state (see [`Definition::state_bytes`]): a state
/// may take more than 256 bytes (the 6x6x6: 160, the 20x20x20: 2,176).
pub type ByteIndex = u16;

/// One orbit (a ksolve "set"): slots that pieces move between, and how many ways a piece turns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orbit {
    /// The name (`CORNER`, `EDGES`); unique within a definition.
    pub name: String,
    /// The number of slots, 1 to [`MAX_PIECES`].
    pub pieces: usize,
    /// The number of orientations, 1 (pieces never turn) to [`MAX_ORIENTATIONS`].
    pub orientations: u8,
}

/// One orbit of a [`State`]: which piece is in each slot and how it is turned.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OrbitState {
    /// The piece label in each slot (0-based; labels may repeat for look-alike pieces).
    pub pieces: Vec<u8>,
    /// The orientation of the piece in each slot, below the orbit's orientation count.
    pub orientation: Vec<u8>,
}

/// A position of the puzzle: one [`OrbitState`] per orbit, in the definition's orbit order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Per orbit, in [`Definition::orbits`] order.
    pub orbits: Vec<OrbitState>,
}

/// One orbit of a [`Transform`], in the by-slot [convention](super#the-one-convention).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OrbitTransform {
    /// Slot `i` of the result receives the piece from slot `perm[i]` (a permutation of `0..n`).
    pub perm: Vec<u8>,
    /// The twist added to the piece that lands in slot `i`, below the orientation count.
    pub delta: Vec<u8>,
}

/// A move's effect on every orbit (a KPuzzle "transformation").
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    /// Per orbit, in [`Definition::orbits`] order.
    pub orbits: Vec<OrbitTransform>,
}

/// A generator of the puzzle: a named transform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDef {
    /// The name as files write it (`R`, `1H`, `DFR`).
    pub name: String,
    /// What the move does.
    pub transform: Transform,
    /// True for a name defined by a move sequence that is not meant as a search generator
    /// (twsearch's `MoveAlias`, KPuzzle's `derivedMoves`): usable in sequences, and in
    /// [`Definition::generators`] only when asked for by name.
    pub derived: bool,
}

impl MoveDef {
    /// Whether the move is a whole-puzzle rotation by twsearch's naming convention, which its
    /// sample files rely on: `x`, `y` or `z` (also `x2`, `x'` ...), or a grip of capitals and
    /// underscores followed by a single `v` (`Fv`, `DFRv`). A rotation turns the whole puzzle,
    /// so it changes how a position is held, not the position: twsearch keeps rotations for
    /// symmetry and never searches with them, and so do we unless a config lists one in
    /// `moves` (see [`Definition::generators`]).
    pub fn is_rotation(&self) -> bool {
        is_rotation_name(&self.name)
    }

    /// The bytes one more move named `name` takes in a definition of `orbits`: its transform,
    /// its name and its place in the list of moves.
    pub fn bytes(orbits: &[Orbit], name: &str) -> u128 {
        Transform::bytes(orbits) + heap(name.len()) + listed::<MoveDef>()
    }
}

/// A ksolve `Illegal` rule: a state is illegal when slot `slot` of orbit `orbit` holds one of
/// `pieces` (twsearch's `legalstate`). Kept with the definition and checked by
/// [`Definition::is_legal`]; the search space enforces it
/// ([`PermSpace`](crate::PermSpace): a move into an illegal state is blocked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal {
    /// The orbit's index in [`Definition::orbits`].
    pub orbit: usize,
    /// The slot, 0-based.
    pub slot: usize,
    /// The forbidden piece labels, 0-based.
    pub pieces: Vec<u8>,
}

/// A permutation puzzle as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// The puzzle's name (`Name` line, KPuzzle `name`).
    pub name: String,
    /// The orbits, in file order.
    pub orbits: Vec<Orbit>,
    /// The solved state (may have look-alike pieces).
    pub solved: State,
    /// The moves of the file, in its order (KPuzzle: in name order, as JSON objects are
    /// unordered), then those defined by sequences, in their order
    /// ([`add_sequences`](Self::add_sequences)).
    pub moves: Vec<MoveDef>,
    /// The `Illegal` rules, if any.
    pub illegal: Vec<Illegal>,
    /// Per orbit (in [`orbits`](Self::orbits) order, or empty: none), the labels whose twist is
    /// unknown and never compared (twsearch's `?` in the solved state's orientation line),
    /// sorted. States keep a wild piece's twist at 0 wherever it goes (the quotient, see
    /// [`tws`](crate::tws#wildcards)).
    pub wild: Vec<Vec<u8>>,
}

impl Transform {
    /// The heap a transform of `orbits` takes (a block of orbits, two byte blocks each): what a
    /// reader charges to its [`Setup`](statespace::setup::Setup) before making one.
    pub fn bytes(orbits: &[Orbit]) -> u128 {
        let list = heap(orbits.len() * std::mem::size_of::<OrbitTransform>());
        list + orbits.iter().map(|o| 2 * heap(o.pieces)).sum::<u128>()
    }
}

impl Definition {
    /// The index of the orbit named `name`.
    pub fn orbit_index(&self, name: &str) -> Option<usize> {
        self.orbits.iter().position(|o| o.name == name)
    }

    /// The index of the move named `name` in [`moves`](Self::moves).
    pub fn move_index(&self, name: &str) -> Option<usize> {
        self.moves.iter().position(|m| m.name == name)
    }

    /// The bytes of a packed search state ([`Packer`](crate::Packer)): a label per slot, and a
    /// twist per slot of the orbits that turn.
    pub fn state_bytes(&self) -> usize {
        self.orbits
            .iter()
            .map(|o| o.pieces * if o.orientations > 1 { 2 } else { 1 })
            .sum()
    }

    /// Every move's index by name (the first of a repeated name, as [`move_index`](Self::move_index)):
    /// for looking up many names at once.
    pub fn move_names(&self) -> HashMap<&str, usize> {
        let mut names = HashMap::with_capacity(self.moves.len());
        for (i, m) in self.moves.iter().enumerate() {
            names.entry(m.name.as_str()).or_insert(i);
        }
        names
    }

    /// Whether some piece's twist is wild (see [`wild`](Self::wild)).
    pub fn has_wild(&self) -> bool {
        self.wild.iter().any(|w| !w.is_empty())
    }

    /// Whether `label` of orbit `orbit` has a wild twist.
    pub fn is_wild(&self, orbit: usize, label: u8) -> bool {
        self.wild
            .get(orbit)
            .is_some_and(|w| w.binary_search(&label).is_ok())
    }

    /// `state` with every wild piece's twist set to 0: the representative of its class.
    pub fn unwild(&self, state: &mut State) {
        for (o, (w, s)) in self.wild.iter().zip(&mut state.orbits).enumerate() {
            if w.is_empty() {
                continue;
            }
            for (slot, &label) in s.pieces.iter().enumerate() {
                if self.is_wild(o, label) {
                    s.orientation[slot] = 0;
                }
            }
        }
    }

    /// True unless `state` breaks an [`Illegal`] rule.
    pub fn is_legal(&self, state: &State) -> bool {
        self.illegal.iter().all(|r| {
            state
                .orbits
                .get(r.orbit)
                .and_then(|o| o.pieces.get(r.slot))
                .is_none_or(|p| !r.pieces.contains(p))
        })
    }
}

/// twsearch's rule for a rotation's name (see [`MoveDef::is_rotation`]).
pub fn is_rotation_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    if let [b'x' | b'y' | b'z', rest @ ..] = bytes
        && matches!(rest, [] | [b'2'] | [b'\''])
    {
        return true;
    }
    let grip = bytes
        .iter()
        .take_while(|&&c| c == b'_' || c.is_ascii_uppercase())
        .count();
    grip > 0 && grip + 1 == bytes.len() && bytes[grip] == b'v'
}
