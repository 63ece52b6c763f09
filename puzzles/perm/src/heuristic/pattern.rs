//! The abstraction onto some of a permutation puzzle's pieces: [`Pattern`], and its abstract
//! state, [`Placement`].
//!
//! # The abstraction
//!
//! A [`Pattern`] tracks a set of pieces, each a distinct label within one class of slots (the
//! classes of [`index`](crate::index): slots the generators move pieces between). Its abstract
//! state, a [`Placement`], is where each tracked piece is (its slot within the class) and how it
//! is twisted; every other piece is forgotten, place and twist. A move carries each tracked piece
//! from its slot to the slot the move sends it to, adding that slot's twist, whatever the other
//! pieces do: so the projection of a move is a move of the abstract space (or a move that leaves
//! the tracked pieces where they are), the projection of the solved state is the abstract goal,
//! and the abstract distance is a lower bound (the contract of [`pdb`](statespace::search::pdb)).
//! The pattern is its own abstract space ([`abstract_space`](super::abstract_space)); each
//! class's pieces are one part of it (`part.rs`: how a part's places and twists become digits
//! of the index).
//!
//! # Twist patterns
//!
//! [`Pattern::twists`] (`[heuristic] twist_pattern`) keeps other information: the twist in every
//! slot of every twisted class, whatever piece is there, and where some pieces are only as a set
//! (which slots they fill; the pieces are alike to it, ranked by subset,
//! [`Colex`]). Both move with the moves: a slot's twist goes where its
//! piece goes, plus what the move adds there; a set of slots goes to the set of their images. So
//! the projection is again a move of the abstract space, and its distances lower bounds. On the
//! 3x3x3 with the four middle-layer edges it is the coordinate space of Kociemba's first phase,
//! `3^7 * 2^11 * C(12, 4) = 2,217,093,120` states (1.0 GiB at 4 bits, built block by block in
//! about 30 s: the edge flips are the low digits), of mean distance 9.52 where a group of eight
//! edges has 9.24 in 2.3 times the states; with the rotations it is read along the three axes
//! (Reid's optimal solver), and at the inverse. Such a part takes a [`Placement`] entry per slot
//! (twists) and per piece (slots): [`PLACEMENT_ENTRIES`] bounds them together.
//!
//! Trade-offs: the projection is a pass over the tracked classes' slots and a rank per class,
//! written branch-free ([`Pattern::placement`]) and fused with the index for the search
//! (`index_of`, `project_one`): a few hundred instructions, against the table read far from
//! the caches that follows it.

use super::part::{Part, PartSpec, Places, UNTRACKED};
use crate::space::{PermMove, PermSpace};
use crate::state::{ByteIndex, Packed};
use crate::symmetry::Symmetries;
use statespace::rank::{Arrangements, Colex};
use statespace::search::pdb::PdbError;
use statespace::space::{Indexed, Invertible};

/// The most pieces one pattern tracks.
pub const MAX_TRACKED: usize = 16;

/// The entries of a [`Placement`]: a tracked piece takes one; a part whose twists are kept by
/// slot takes one per slot of its class (or per piece, when it tracks more pieces than that).
/// The 3x3x3's twists and middle-layer edges take 8 + 12.
pub const PLACEMENT_ENTRIES: usize = 24;

/// An abstract state: per tracked piece (in the pattern's order), its slot within its class and
/// its twist, and for a part whose twists are kept by slot, the twist in each slot. Unused
/// entries are 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The slot of each tracked piece, numbered within its class.
    pub slot: [u8; PLACEMENT_ENTRIES],
    /// The twist of each tracked piece (0 in orbits of one orientation); for a part that
    /// keeps its twists by slot, the twist in each of its slots instead, in slot order.
    pub twist: [u8; PLACEMENT_ENTRIES],
}

/// Which pieces a pattern tracks: per class (numbered as in
/// [`Layout::class`](crate::index::Layout::class)), the labels of the pieces, as the packed
/// state holds them (0-based).
pub type Pieces = Vec<(usize, Vec<u8>)>;

/// The abstraction onto some of a permutation puzzle's pieces, and its own abstract space (see
/// the module docs).
#[derive(Clone, Debug)]
pub struct Pattern {
    pub(super) parts: Vec<Part>,
    /// The [`Placement`] entries in use.
    pub(super) entries: usize,
    pub(super) moves: Vec<PermMove>,
    /// Per move, the move that undoes it.
    pub(super) inverse: Vec<u16>,
    /// Slot codes: `part.code + slot` numbers every slot of every part.
    pub(super) codes: usize,
    /// `dest[m][code]`: where move `m` takes the piece in slot `code` (within the class); `add`
    /// likewise the twist it adds. 256 entries, so that a `u8` code needs no bounds check.
    pub(super) dest: Vec<[u8; 256]>,
    pub(super) add: Vec<[u8; 256]>,
    pub(super) goal: Placement,
    pub(super) goal_index: u64,
    pub(super) size: u64,
    pub(super) name: String,
}

impl Pattern {
    /// The bytes a pattern keeps per move of its space: the move, its inverse and the two rows
    /// of `tabulate` (what a plugin charges before making patterns).
    pub const MOVE_BYTES: u128 = (std::mem::size_of::<PermMove>() + 2 + 2 * 256) as u128;

    /// The pattern of `pieces` in `space`: each piece told apart, its twist kept (by slot when
    /// the pattern tracks a whole twisted class). [`PdbError::Invalid`] names the problem: a
    /// class that does not exist or is named twice, a label that is not exactly once in its
    /// class's solved state or is named twice, more than [`MAX_TRACKED`] pieces, or more states
    /// than a `u64` counts.
    pub fn new<const N: usize>(
        space: &PermSpace<N>,
        pieces: &[(usize, Vec<u8>)],
    ) -> Result<Self, PdbError> {
        let total: usize = pieces.iter().map(|(_, l)| l.len()).sum();
        if total == 0 {
            return Err(PdbError::Invalid(format!(
                "a pattern tracks 1 to {MAX_TRACKED} pieces, not 0"
            )));
        }
        let layout = space.layout();
        let specs: Vec<PartSpec> = pieces
            .iter()
            .map(|(class, labels)| {
                let whole =
                    *class < layout.classes() && labels.len() == layout.class(*class).labels.len();
                let twisted = *class < layout.classes() && !layout.class(*class).oris.is_empty();
                PartSpec {
                    class: *class,
                    labels,
                    alike: false,
                    by_slot: whole && twisted,
                }
            })
            .collect();
        Self::from_parts(space, &specs)
    }

    /// The twist pattern of `space`: the twist in every slot of every twisted class that moves,
    /// whatever piece is there, and where the pieces of `alike` are, each class's as a set (which
    /// slots they fill, not which is where). On the 3x3x3 with the four middle-layer edges, this
    /// is the coordinate space of Kociemba's first phase (corner twists, edge flips, the
    /// middle-layer edges' slots): `3^7 * 2^11 * C(12, 4) = 2,217,093,120` states, each as far
    /// from solved at most as the cube. The same errors as [`new`](Self::new), and a pattern that
    /// would keep nothing.
    pub fn twists<const N: usize>(
        space: &PermSpace<N>,
        alike: &[(usize, Vec<u8>)],
    ) -> Result<Self, PdbError> {
        let layout = space.layout();
        if let Some((class, _)) = alike.iter().find(|(c, _)| *c >= layout.classes()) {
            return Err(PdbError::Invalid(format!("class {class} does not exist")));
        }
        let mut specs = Vec::new();
        for class in 0..layout.classes() {
            let (_, _, radix) = layout.class_shape(class);
            let labels = alike
                .iter()
                .find(|(c, _)| *c == class)
                .map_or(&[][..], |(_, l)| l.as_slice());
            let twisted = !layout.class(class).oris.is_empty() && radix > 1;
            if twisted || !labels.is_empty() {
                specs.push(PartSpec {
                    class,
                    labels,
                    alike: true,
                    by_slot: twisted,
                });
            }
        }
        if specs.is_empty() {
            return Err(PdbError::Invalid(
                "no class twists and no piece is named: the pattern would keep nothing".into(),
            ));
        }
        Self::from_parts(space, &specs)
    }

    /// The pattern of where `pieces` (of one class) are, as a set: which slots they fill, not
    /// which is where, no twist (the B part of a class pattern, `classes.rs`).
    /// The same errors as [`new`](Self::new).
    pub fn set<const N: usize>(
        space: &PermSpace<N>,
        pieces: &(usize, Vec<u8>),
    ) -> Result<Self, PdbError> {
        Self::one_set(space, pieces, false)
    }

    /// The pattern of where `pieces` (of one class) are, as a set, and the twist in every slot
    /// of their class (a part of a class pattern written `with twists`: the 3x3x3's edge flips
    /// with the middle-layer edges' slots, `C(12, 4) * 2^11 = 1,013,760` states). The same
    /// errors as [`new`](Self::new).
    pub fn twisted_set<const N: usize>(
        space: &PermSpace<N>,
        pieces: &(usize, Vec<u8>),
    ) -> Result<Self, PdbError> {
        Self::one_set(space, pieces, true)
    }

    fn one_set<const N: usize>(
        space: &PermSpace<N>,
        pieces: &(usize, Vec<u8>),
        twisted: bool,
    ) -> Result<Self, PdbError> {
        if pieces.1.is_empty() {
            return Err(PdbError::Invalid("a set of no pieces keeps nothing".into()));
        }
        let spec = PartSpec {
            class: pieces.0,
            labels: &pieces.1,
            alike: true,
            by_slot: twisted,
        };
        Self::from_parts(space, &[spec])
    }

    fn from_parts<const N: usize>(
        space: &PermSpace<N>,
        specs: &[PartSpec],
    ) -> Result<Self, PdbError> {
        let invalid = |m: String| Err(PdbError::Invalid(m));
        let layout = space.layout();
        let def = space.definition();
        let solved = space.solved().0;
        let total: usize = specs.iter().map(|s| s.labels.len()).sum();
        if total > MAX_TRACKED {
            return invalid(format!(
                "a pattern tracks at most {MAX_TRACKED} pieces, not {total}"
            ));
        }
        let mut parts: Vec<Part> = Vec::new();
        let mut classes = Vec::new();
        let mut names = Vec::new();
        let (mut first, mut code) = (0, 0);
        for spec in specs {
            let (class, labels) = (spec.class, spec.labels);
            if class >= layout.classes() || classes.contains(&class) {
                return invalid(format!("class {class} does not exist or is named twice"));
            }
            classes.push(class);
            let view = layout.class(class);
            let orbit = &def.orbits[view.orbit];
            let in_class: Vec<u8> = view
                .labels
                .iter()
                .map(|&b| solved[usize::from(b)])
                .collect();
            let mut id = Box::new([UNTRACKED; 256]);
            for (k, &label) in labels.iter().enumerate() {
                if in_class.iter().filter(|&&l| l == label).count() != 1 {
                    return invalid(format!(
                        "piece {} of {} is not one distinct piece of class {class}",
                        label as u32 + 1,
                        orbit.name
                    ));
                }
                if id[label as usize] != UNTRACKED {
                    return invalid(format!(
                        "piece {} of {} is named twice",
                        label as u32 + 1,
                        orbit.name
                    ));
                }
                id[label as usize] = (first + k) as u8;
            }
            let n = view.labels.len() as u32;
            let k = labels.len() as u32;
            let places = match spec.alike {
                true if n <= 64 => Places::Alike {
                    subsets: Colex::new(n, k),
                    pieces: labels.len(),
                },
                false => match Arrangements::new(n, k) {
                    Some(ranks) => Places::Distinct(ranks),
                    None => return invalid(format!("class {class} has too many slots to rank")),
                },
                true => return invalid(format!("class {class} has too many slots to rank")),
            };
            // A class with wild pieces (their twists kept at 0 by the space, see
            // `Definition::wild`): twists kept by piece for tracked pieces that are not wild
            // (they move as in the puzzle), none otherwise (forgetting twists is a projection).
            let wild = |l: &u8| def.is_wild(view.orbit, *l);
            let wild_class = in_class.iter().any(wild);
            let by_piece = !spec.by_slot && !spec.alike && !labels.iter().any(wild);
            let orientations = match wild_class && !by_piece {
                true => 1,
                false => orbit.orientations,
            };
            let by_slot = spec.by_slot && orientations > 1;
            let step = if by_slot { view.step } else { 1 };
            let part = Part {
                orbit: view.orbit,
                labels: view.labels.to_vec(),
                oris: view.oris.to_vec(),
                id,
                first,
                code,
                places,
                orientations,
                step,
                residue: if step > 1 { view.residue } else { 0 },
                by_slot,
                twist_count: 0,
            };
            let part = Part {
                twist_count: part.twists().unwrap_or(0),
                ..part
            };
            first += part.entries();
            code += part.labels.len();
            if first > PLACEMENT_ENTRIES {
                return invalid(format!(
                    "the pattern keeps more than {PLACEMENT_ENTRIES} pieces and twists"
                ));
            }
            let shown: Vec<String> = labels.iter().map(|&l| (l as u32 + 1).to_string()).collect();
            names.push(match (spec.alike, part.by_slot) {
                (false, _) => format!("{} {}", orbit.name, shown.join(",")),
                (true, true) if shown.is_empty() => format!("{} twists", orbit.name),
                (true, true) => format!("{} twists and {{{}}}", orbit.name, shown.join(",")),
                (true, false) => format!("{} {{{}}}", orbit.name, shown.join(",")),
            });
            parts.push(part);
        }
        let mut size = 1u64;
        for part in &parts {
            let states = part
                .twists()
                .and_then(|t| t.checked_mul(part.places.count()));
            match states.and_then(|s| size.checked_mul(s)) {
                Some(s) => size = s,
                None => return invalid("the pattern has more states than a u64 counts".into()),
            }
        }
        if code > 256 {
            return invalid("the pattern's classes have more than 256 slots".into());
        }
        let mut pattern = Pattern {
            codes: code,
            parts,
            entries: first,
            moves: space.moves().to_vec(),
            inverse: space
                .moves()
                .iter()
                .map(|&m| space.inverse(m).index() as u16)
                .collect(),
            dest: Vec::new(),
            add: Vec::new(),
            goal: Placement::default(),
            goal_index: 0,
            size,
            name: names.join(" + "),
        };
        pattern.tabulate(space);
        pattern.goal = pattern.placement(&solved);
        pattern.goal_index = pattern.index(pattern.goal);
        Ok(pattern)
    }

    /// Per move and slot code, where the move takes the piece and the twist it adds: slot `j`
    /// receives the byte of the slot `p` its label byte reads, so the piece in `p` goes to `j`,
    /// with the twist that `j`'s orientation byte adds.
    fn tabulate<const N: usize>(&mut self, space: &PermSpace<N>) {
        let mut dest = vec![[0u8; 256]; self.moves.len()];
        let mut add = vec![[0u8; 256]; self.moves.len()];
        // Per label byte of the state, its slot within its part's class (classes have at most
        // 256 slots: checked in `new`).
        let mut local = vec![0u8; space.state_len()];
        for m in 0..self.moves.len() {
            let (src, twist) = space.move_bytes(m);
            let (dest, add) = (&mut dest[m], &mut add[m]);
            for part in &self.parts {
                for (j, &b) in part.labels.iter().enumerate() {
                    local[usize::from(b)] = j as u8;
                }
                for (j, &b) in part.labels.iter().enumerate() {
                    // Classes are closed under the moves: the byte read is the class's.
                    let p = usize::from(local[usize::from(src[usize::from(b)])]);
                    dest[part.code + p] = j as u8;
                    add[part.code + p] = part.oris.get(j).map_or(0, |&o| twist[usize::from(o)]);
                }
            }
        }
        self.dest = dest;
        self.add = add;
    }

    /// The tracked pieces for people: `CORNERS 1,2,3 + EDGES 4,5` (labels 1-based, as in `.tws`
    /// files).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of pieces tracked.
    pub fn tracked(&self) -> usize {
        self.parts.iter().map(Part::pieces).sum()
    }

    /// Where the tracked pieces are in the packed state `bytes`.
    ///
    /// Branch-free: an untracked piece writes into a spare entry past the tracked ones (its id
    /// is `UNTRACKED`), because whether a slot holds a tracked piece is a coin toss that a
    /// branch would mispredict on every other slot.
    #[inline]
    pub fn placement(&self, bytes: &[u8]) -> Placement {
        self.placement_by(|b| bytes[usize::from(b)])
    }

    /// [`placement`](Self::placement) of a packed state: the byte reads are masked (`N` is a
    /// power of two), so the search's projection has no bounds check.
    #[inline]
    pub(crate) fn placement_of<const N: usize>(&self, bytes: &[u8; N]) -> Placement {
        self.placement_by(|b| bytes[usize::from(b) % N])
    }

    /// A packed state whose placement is `p`: `solved` with each part's class refilled, the
    /// tracked pieces where `p` puts them (look-alike ones in label order), the class's other
    /// pieces in the slots left, in label order; twists as `p` keeps them, 0 where it keeps
    /// none. The image of `p` under a rotation that maps the tracked pieces onto tracked
    /// pieces is then the placement of this state's image, whatever the untracked pieces are
    /// ([`classes`](crate::classes)). Allocates: for building tables, not for searching.
    pub(crate) fn realize<const N: usize>(&self, solved: &Packed<N>, p: &Placement) -> Packed<N> {
        let mut out = *solved;
        for part in &self.parts {
            let label_at = |j: usize| solved.0[usize::from(part.labels[j]) % N];
            // The label of each tracked piece, by its number in the placement.
            let mut label_of = [0u8; 32];
            for j in 0..part.labels.len() {
                let label = label_at(j);
                let id = part.id[usize::from(label)];
                if id != UNTRACKED {
                    label_of[usize::from(id) % 32] = label;
                }
            }
            // Per slot of the class (at most 256): the tracked piece there, if any.
            let mut held = [UNTRACKED; 256];
            for i in part.first..part.first + part.pieces() {
                held[usize::from(p.slot[i])] = i as u8;
            }
            let mut untracked = (0..part.labels.len())
                .map(label_at)
                .filter(|&l| part.id[usize::from(l)] == UNTRACKED);
            for (j, &b) in part.labels.iter().enumerate() {
                let (label, twist) = match held[j] {
                    UNTRACKED => (untracked.next().unwrap_or(0), 0),
                    i => (label_of[usize::from(i) % 32], p.twist[usize::from(i)]),
                };
                out.0[usize::from(b) % N] = label;
                if let Some(&o) = part.oris.get(j) {
                    let twist = match (part.by_slot, &part.places) {
                        (true, _) => p.twist[(part.first + j) % PLACEMENT_ENTRIES],
                        (false, Places::Alike { .. }) => 0,
                        (false, Places::Distinct(_)) => twist,
                    };
                    out.0[usize::from(o) % N] = twist;
                }
            }
        }
        out
    }

    /// The goal's index.
    #[cfg(test)]
    pub(crate) fn goal_index_for_tests(&self) -> u64 {
        self.goal_index
    }

    /// The pieces a look-up through symmetry `k` (the state itself for `None`) reads, as
    /// (orbit, label) pairs: the labels `k` renames into the pattern's tracked ones.
    pub(crate) fn reads<const N: usize>(
        &self,
        symmetries: &Symmetries,
        solved: &Packed<N>,
        k: Option<usize>,
    ) -> Vec<(usize, u8)> {
        let mut pieces = Vec::new();
        for part in &self.parts {
            // Only the labels the class holds: the relabelling table is 0 past them.
            let mut labels: Vec<u8> = part
                .labels
                .iter()
                .map(|&b| solved.0[usize::from(b)])
                .collect();
            labels.sort_unstable();
            labels.dedup();
            for label in labels {
                let renamed = k.map_or(label, |k| symmetries.relabelled(k, part.orbit, label));
                if part.id[usize::from(renamed)] != UNTRACKED {
                    pieces.push((part.orbit, label));
                }
            }
        }
        pieces
    }

    /// Whether symmetry `k` maps the pattern onto itself: the placement of a state's image is a
    /// function of the state's placement, so a state and its image are equally far from the
    /// goal in the pattern ([`classes`](crate::classes)). Each part reads through `k` the
    /// pieces it tracks; a part of alike pieces may read the others of its class instead (the
    /// 3x3x3's up-layer corners, read through a turn that swaps up and down, are the down-layer
    /// corners: the slots it reads are the set's complement). Twists kept by slot in a part of
    /// alike pieces change through `k` alike for every tracked piece and alike for every other
    /// (the part knows which slots hold a tracked piece, not which one).
    pub(crate) fn kept_by<const N: usize>(
        &self,
        symmetries: &Symmetries,
        solved: &Packed<N>,
        k: usize,
    ) -> bool {
        self.parts.iter().all(|part| {
            let mut labels: Vec<u8> = part
                .labels
                .iter()
                .map(|&b| solved.0[usize::from(b) % N])
                .collect();
            labels.sort_unstable();
            labels.dedup();
            let tracked = |l: u8| part.id[usize::from(l)] != UNTRACKED;
            let (mine, others): (Vec<u8>, Vec<u8>) = labels.iter().partition(|&&l| tracked(l));
            let read: Vec<u8> = labels
                .iter()
                .copied()
                .filter(|&l| tracked(symmetries.relabelled(k, part.orbit, l)))
                .collect();
            let alike = matches!(part.places, Places::Alike { .. });
            if read != mine && !(alike && read == others) {
                return false;
            }
            if !alike || part.twisted() == 0 || !part.by_slot {
                return true;
            }
            let retwist = |l: &u8| symmetries.retwisted(k, part.orbit, *l);
            let alike_twists = |ls: &[u8]| ls.windows(2).all(|w| retwist(&w[0]) == retwist(&w[1]));
            alike_twists(&mine) && alike_twists(&others)
        })
    }

    /// A pattern of one part: the count of where its pieces are, and of its twists
    /// (`index = places * twists + twist code`, see [`Indexed::index`]). `None` for more parts.
    pub(crate) fn places_and_twists(&self) -> Option<(u64, u64)> {
        match self.parts.as_slice() {
            [part] => Some((part.places.count(), part.twists()?)),
            _ => None,
        }
    }

    /// The index of the packed state `bytes`' placement: [`Indexed::index`] of
    /// [`placement_of`](Self::placement_of), fused part by part ([`Part::rank_by`]).
    #[inline]
    pub(crate) fn index_of<const N: usize>(&self, bytes: &[u8; N]) -> u64 {
        let read = |b: ByteIndex| bytes[usize::from(b) % N];
        self.parts.iter().fold(0u64, |index, part| {
            let (places, twists) = part.rank_by(
                |j| part.id[usize::from(read(part.labels[j]))],
                |j| part.oris.get(j).map_or(0, |&o| read(o)),
            );
            (index * part.places.count() + places) * part.twist_count + twists
        })
    }

    /// A one-part pattern's places' rank and twists' value at the packed state `bytes`: its
    /// index is `places * twists + value` ([`places_and_twists`](Self::places_and_twists)).
    /// The placement and the index fused ([`Part::rank_by`]), for the search's look-ups.
    #[inline]
    pub(crate) fn project_one<const N: usize>(&self, bytes: &[u8; N]) -> (u64, u64) {
        let part = &self.parts[0];
        let read = |b: ByteIndex| bytes[usize::from(b) % N];
        part.rank_by(
            |j| part.id[usize::from(read(part.labels[j]))],
            |j| part.oris.get(j).map_or(0, |&o| read(o)),
        )
    }

    /// Whether the pattern's twists stay apart from where its pieces are, through a move and
    /// through symmetry `k`: the twist code of a move's or of `k`'s image depends on the twist
    /// code alone. Twists kept by slot go with their slots under any move, and through `k`
    /// when `k` gives every piece the same twist; twists kept by piece, through `k` when `k`
    /// adds the same twist in every slot (moves add twists by slot: a piece's depends on
    /// where it is, so never under moves). Untwisted parts always.
    pub(crate) fn twists_apart<const N: usize>(
        &self,
        symmetries: &Symmetries,
        solved: &Packed<N>,
        k: Option<usize>,
    ) -> bool {
        self.parts.iter().all(|part| {
            if part.twisted() == 0 {
                return true;
            }
            let Some(k) = k else {
                return part.by_slot;
            };
            let values: Vec<u8> = match part.by_slot {
                true => part
                    .labels
                    .iter()
                    .map(|&b| symmetries.retwisted(k, part.orbit, solved.0[usize::from(b) % N]))
                    .collect(),
                false => part
                    .oris
                    .iter()
                    .map(|&o| symmetries.byte_rule(k, o).2)
                    .collect(),
            };
            values.windows(2).all(|w| w[0] == w[1])
        })
    }

    /// The placement, reading byte `b` of the state as `read(b)`: one pass over each part's
    /// slots, the piece's id looked up once for its slot and its twist. The scratch arrays have
    /// 32 entries so that an id (at most [`UNTRACKED`]) indexes them masked.
    #[inline(always)]
    fn placement_by(&self, read: impl Fn(ByteIndex) -> u8) -> Placement {
        let mut slot = [0u8; 32];
        let mut twist = [0u8; 32];
        for part in &self.parts {
            let id = &*part.id;
            if part.twisted() == 0 {
                for (j, &b) in part.labels.iter().enumerate() {
                    slot[usize::from(id[usize::from(read(b))]) % 32] = j as u8;
                }
            } else {
                for (j, (&b, &o)) in part.labels.iter().zip(&part.oris).enumerate() {
                    let k = usize::from(id[usize::from(read(b))]) % 32;
                    slot[k] = j as u8;
                    let by = if part.by_slot { part.first + j } else { k };
                    twist[by % 32] = read(o);
                }
            }
        }
        let mut p = Placement::default();
        p.slot.copy_from_slice(&slot[..PLACEMENT_ENTRIES]);
        p.twist.copy_from_slice(&twist[..PLACEMENT_ENTRIES]);
        p
    }
}
