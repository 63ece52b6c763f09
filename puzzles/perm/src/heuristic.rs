//! Pattern databases for permutation puzzles: IDA* heuristics from projections onto some of the
//! pieces (the 3x3x3's corners; groups of its edges), combined by [`Max`] (Korf 1997).
//!
//! # The abstraction
//!
//! A [`Pattern`] tracks a set of pieces, each a distinct label within one class of slots (the
//! classes of [`index`](super::index): slots the generators move pieces between). Its abstract
//! state, a [`Placement`], is where each tracked piece is (its slot within the class) and how it
//! is twisted; every other piece is forgotten, place and twist. A move carries each tracked piece
//! from its slot to the slot the move sends it to, adding that slot's twist, whatever the other
//! pieces do: so the projection of a move is a move of the abstract space (or a move that leaves
//! the tracked pieces where they are), the projection of the solved state is the abstract goal,
//! and the abstract distance is a lower bound (the contract of [`pdb`]).
//!
//! The abstract space is [`Indexed`] (per class: the [`Arrangements`] rank of the tracked pieces'
//! slots, then their twists), [`Invertible`] (the puzzle's inverse moves) and has one goal, so the
//! table engine builds its whole distance table backward from the goal, and the kit's cache keeps
//! it on disk ([`PatternDatabase::build`]).
//!
//! When a pattern tracks every piece of a class whose twist sum the moves keep (the corners:
//! modulo 3), the last piece's twist is known from the others' and is not a digit: the 3x3x3's
//! corner pattern has `8! * 3^7 = 88,179,840` states, not `3^8` times `8!`. A class's parity
//! (LoopOver's, or the joint one of the cube's corners and edges) is not used: a pattern over a
//! whole class of one parity has twice the states it needs, half of them never reached.
//!
//! # Combining: max, not sum
//!
//! A face turn moves corners and edges at once, so the distances of a corner pattern and of an
//! edge pattern both count it; their sum is not a lower bound. [`Max`] of the databases is
//! (each is), so [`Abstraction::pieces`] says every move counts (`u64::MAX`) and the additive
//! combination refuses these patterns.
//!
//! # Choosing the patterns
//!
//! [`auto_pieces`] picks them from the classes, in class order: a class whose whole pattern has
//! at most `max_states` states is tracked whole; a larger one is cut into groups of as many of
//! its pieces as fit (the 3x3x3's twelve edges: two groups of six, `12! / 6! * 2^6 = 42,577,920`
//! states each); small classes share a pattern while the product fits (the 2x2x2's corners and a
//! Pyraminx's centres: then the pattern is the whole puzzle and the heuristic exact). At the
//! default [`MAX_PATTERN_STATES`] (2^27, 64 MiB at 4 bits) the 3x3x3 gets Korf's three tables:
//! corners and two groups of six edges, 83 MiB together.
//!
//! `[heuristic] pattern_states` raises the bound: at `12! / 4! * 2^8 = 5,109,350,400` the
//! 3x3x3's edges come in a group of eight (2.4 GiB at 4 bits) and a group of four, which is what
//! a random state needs (`configs/perm-3x3x3-random.toml`).
//!
//! Trade-offs: larger groups (seven edges: `510,935,040` states; eight: 5.1 billion) estimate
//! higher, for twelve times the memory and build time per piece added (`--max-states` in the
//! bench tries them); twsearch instead prunes with one 2 GB table. How a table is built depends
//! on the pattern's shape:
//!
//! - a pattern whose last part is a whole twisted class keeps that part's twists by slot (entry
//!   `first + j` of the [`Placement`]: the twist in slot `j`), not by piece: a move then carries
//!   each twist along whatever piece is there, the index is places times twists
//!   ([`SplitMoves`]), and the table is built block by block from two move tables
//!   ([`table::build_split`]);
//! - a pattern of some of one class's pieces of two orientations (a group of edges) has their
//!   flips as its lowest bits: a move takes the places to places and XORs the flips with a mask
//!   that depends on the places only ([`FlipSplit`]), so the table is built a block of flips at
//!   a time by word operations ([`table::build_flips`]; the 3x3x3's eight edges in about four
//!   minutes on two cores, 4.2 GiB at the peak);
//! - other patterns are built by the table engine's single-threaded level scans, several times
//!   slower per state.
//!
//! All are then cached (the 3x3x3's builds: BENCHMARKS.md, "3x3x3: random scrambles solved
//! optimally"). Classes of look-alike pieces track only their labels that occur once
//! (look-alike pieces are forgotten): weaker, never wrong.
//!
//! # Twist patterns
//!
//! [`Pattern::twists`] (`[heuristic] twist_pattern`) keeps other information: the twist in every
//! slot of every twisted class, whatever piece is there, and where some pieces are only as a set
//! (which slots they fill; the pieces are alike to it, ranked by subset, [`Colex`]). Both move
//! with the moves: a slot's twist goes where its piece goes, plus what the move adds there; a set
//! of slots goes to the set of their images. So the projection is again a move of the abstract
//! space, and its distances lower bounds. On the 3x3x3 with the four middle-layer edges it is the
//! coordinate space of Kociemba's first phase, `3^7 * 2^11 * C(12, 4) = 2,217,093,120` states
//! (1.0 GiB at 4 bits, built block by block in about 30 s: the edge flips are the low digits),
//! of mean distance 9.52 where a group of eight edges has 9.24 in 2.3 times the states; with
//! the rotations it is read along the three axes (Reid's optimal solver), and at the inverse.
//! Such a part takes a [`Placement`] entry per slot (twists) and per piece (slots):
//! [`PLACEMENT_ENTRIES`] bounds them together.
//!
//! With the definition's rotations (`[heuristic] symmetry = true`), each database is also looked
//! up at images of the state that read other pieces ([`Conjugated`]): a group of eight edges
//! then sees the other four too. With `dual = true`, also at the state's inverse
//! ([`inversion`](super::inversion)) and its images, only for states their own look-ups do not
//! cut.
//! The projection is a pass over the tracked classes' slots and a rank per class, then a random
//! access into a table far larger than the caches. IDA* asks [`Max`] only whether the estimate
//! reaches its limit ([`estimate_below`](statespace::space::Heuristic::estimate_below)), so the
//! patterns after the first that does are neither projected nor looked up: [`heuristic`] puts
//! the most informed (the highest mean distance: the 3x3x3's twist pattern, else its group of
//! eight edges, else its corners) first, and most nodes cost one projection and one lookup (prefetched while the node's other successors
//! are generated).

use crate::inversion::Inversion;
use crate::space::{PermMove, PermSpace};
use crate::state::{ByteIndex, Packed};
use crate::symmetry::Symmetries;
use hashbrown::HashSet;
use statespace::cache::TableCache;
use statespace::cache::fingerprint::Content;
use statespace::kit::SharedHeuristic;
use statespace::limit::{Limit, Limits};
use statespace::rank::{Arrangements, Colex};
use statespace::search::layers;
use statespace::search::pdb::{self, Abstraction, Max, PatternDatabase, PdbError};
use statespace::search::pruning::{Growth, PruningTable};
use statespace::search::table::cached;
use statespace::search::table::{self, DistanceTable, Width};
use statespace::space::{
    Describe, FlipSplit, GoalSet, Heuristic, Indexed, Invertible, Prefetched, SplitMoves,
    StateSpace,
};
use std::sync::Arc;

/// The most pieces one pattern tracks.
pub const MAX_TRACKED: usize = 16;

/// The entries of a [`Placement`]: a tracked piece takes one; a part whose twists are kept by
/// slot takes one per slot of its class (or per piece, when it tracks more pieces than that).
/// The 3x3x3's twists and middle-layer edges take 8 + 12.
pub const PLACEMENT_ENTRIES: usize = 24;

/// The default largest pattern [`auto_pieces`] makes: 2^27 states, 64 MiB at 4 bits per entry.
pub const MAX_PATTERN_STATES: u64 = 1 << 27;

/// No tracked piece: the entry of an untracked label in a part's id table, the scratch entry
/// past every [`Placement`] entry that [`Pattern::placement`] writes untracked pieces into.
const UNTRACKED: u8 = 31;

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
/// [`Layout::class`](super::index::Layout::class)), the labels of the pieces, as the packed
/// state holds them (0-based).
pub type Pieces = Vec<(usize, Vec<u8>)>;

/// How a part ranks where its tracked pieces are.
#[derive(Clone, Debug)]
enum Places {
    /// Each piece told apart: the arrangements of `k` pieces in `n` slots.
    Distinct(Arrangements),
    /// The pieces alike (only which slots they fill): the `k`-subsets of `n` slots.
    Alike { subsets: Colex, pieces: usize },
}

impl Places {
    fn pieces(&self) -> usize {
        match self {
            Places::Distinct(ranks) => ranks.pieces() as usize,
            Places::Alike { pieces, .. } => *pieces,
        }
    }

    fn count(&self) -> u64 {
        match self {
            Places::Distinct(ranks) => ranks.count(),
            Places::Alike { subsets, .. } => subsets.count(),
        }
    }

    #[inline]
    fn rank(&self, slots: &[u8]) -> u64 {
        match self {
            Places::Distinct(ranks) => ranks.rank(slots),
            Places::Alike { subsets, .. } => {
                subsets.rank(slots.iter().fold(0u64, |mask, &s| mask | 1 << (s % 64)))
            }
        }
    }

    /// The slots of rank `rank`; alike pieces in increasing slot order.
    fn unrank(&self, rank: u64, out: &mut [u8]) {
        match self {
            Places::Distinct(ranks) => ranks.unrank(rank, out),
            Places::Alike { subsets, .. } => {
                let mut mask = subsets.unrank(rank);
                for slot in out.iter_mut() {
                    *slot = mask.trailing_zeros() as u8;
                    mask &= mask - 1;
                }
            }
        }
    }
}

/// What one part of a pattern keeps of one class (see [`Pattern::new`] and
/// [`Pattern::twists`]).
struct PartSpec<'a> {
    class: usize,
    /// The tracked pieces' labels (0-based).
    labels: &'a [u8],
    /// Where the tracked pieces are only as a set.
    alike: bool,
    /// The twist in every slot, whatever piece is there (a twisted class only).
    by_slot: bool,
}

/// The pieces one pattern tracks in one class.
#[derive(Clone, Debug)]
struct Part {
    /// The definition's orbit the class belongs to.
    orbit: usize,
    /// The label byte of each of the class's slots, in slot order.
    labels: Vec<ByteIndex>,
    /// The orientation byte of each slot (empty for orbits of one orientation).
    oris: Vec<ByteIndex>,
    /// `id[label]`: the tracked piece's number in the [`Placement`], or [`UNTRACKED`].
    id: Box<[u8; 256]>,
    /// The part's pieces are `first..first + places.pieces()` in the placement.
    first: usize,
    /// The slot code of the class's slot 0 (`code + slot` numbers every slot of every part).
    code: usize,
    places: Places,
    orientations: u8,
    /// The last twist is known modulo `step` from the others' (all of the class's twists are
    /// kept and the moves keep their sum); 1 otherwise.
    step: u8,
    /// The twist sum modulo `step`.
    residue: u8,
    /// The part keeps the twist in every slot of its class, by slot (entry `first + j`: the
    /// twist in slot `j`), not its pieces' twists (see [`Pattern`]).
    by_slot: bool,
    /// [`twists`](Part::twists) (0 when past a `u64`: such a pattern is refused).
    twist_count: u64,
}

impl Part {
    fn pieces(&self) -> usize {
        self.places.pieces()
    }

    /// The twists the part keeps: one per slot when by slot, else one per tracked piece of a
    /// twisted class told apart (pieces kept as a set keep no twist: which of them is twisted
    /// is not defined).
    fn twisted(&self) -> usize {
        match (self.orientations > 1, self.by_slot, &self.places) {
            (false, _, _) => 0,
            (true, true, _) => self.labels.len(),
            (true, false, Places::Alike { .. }) => 0,
            (true, false, Places::Distinct(_)) => self.pieces(),
        }
    }

    /// The part's places' rank and twists' value (its digits of [`Indexed::index`]) from each
    /// of its slots' tracked piece number (`id_at(j)`, [`UNTRACKED`] for another piece) and
    /// twist (`twist_at(j)`): the placement and the index fused, with no [`Placement`] made.
    /// What the class tables read at every node ([`classes`](super::classes)).
    #[inline(always)]
    fn rank_by(&self, id_at: impl Fn(usize) -> u8, twist_at: impl Fn(usize) -> u8) -> (u64, u64) {
        let n = self.labels.len();
        let places = match &self.places {
            Places::Alike { subsets, .. } => {
                let mut mask = 0u64;
                for j in 0..n {
                    mask |= u64::from(id_at(j) != UNTRACKED) << (j % 64);
                }
                subsets.rank(mask)
            }
            Places::Distinct(ranks) => {
                let mut slot = [0u8; 32];
                for j in 0..n {
                    slot[usize::from(id_at(j)) % 32] = j as u8;
                }
                ranks.rank(&slot[self.first..self.first + self.pieces()])
            }
        };
        let twisted = self.twisted();
        if twisted == 0 {
            return (places, 0);
        }
        let o = u64::from(self.orientations);
        let free = twisted - usize::from(self.step > 1);
        let mut value = 0u64;
        let last = if self.by_slot {
            for j in 0..free {
                value = value * o + u64::from(twist_at(j));
            }
            twist_at(free)
        } else {
            let mut twist = [0u8; 32];
            for j in 0..n {
                twist[usize::from(id_at(j)) % 32] = twist_at(j);
            }
            for &t in &twist[self.first..self.first + free] {
                value = value * o + u64::from(t);
            }
            twist[(self.first + free) % 32]
        };
        if self.step > 1 {
            let step = u64::from(self.step);
            value = value * (o / step) + u64::from(last) / step;
        }
        (places, value)
    }

    /// The [`Placement`] entries the part takes.
    fn entries(&self) -> usize {
        self.pieces().max(self.twisted())
    }

    /// The number of twist values the part's twists take together.
    fn twists(&self) -> Option<u64> {
        match self.twisted() {
            0 => Some(1),
            k => pattern_twists(k as u32, self.orientations, self.step),
        }
    }
}

/// The abstraction onto some of a permutation puzzle's pieces, and its own abstract space (see
/// the module docs).
#[derive(Clone, Debug)]
pub struct Pattern {
    parts: Vec<Part>,
    /// The [`Placement`] entries in use.
    entries: usize,
    moves: Vec<PermMove>,
    /// Per move, the move that undoes it.
    inverse: Vec<u16>,
    /// Slot codes: `part.code + slot` numbers every slot of every part.
    codes: usize,
    /// `dest[m][code]`: where move `m` takes the piece in slot `code` (within the class); `add`
    /// likewise the twist it adds. 256 entries, so that a `u8` code needs no bounds check.
    dest: Vec<[u8; 256]>,
    add: Vec<[u8; 256]>,
    goal: Placement,
    goal_index: u64,
    size: u64,
    name: String,
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
        if pieces.1.is_empty() {
            return Err(PdbError::Invalid("a set of no pieces keeps nothing".into()));
        }
        let spec = PartSpec {
            class: pieces.0,
            labels: &pieces.1,
            alike: true,
            by_slot: false,
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
            let by_slot = spec.by_slot && orbit.orientations > 1;
            let step = if by_slot { view.step } else { 1 };
            let part = Part {
                orbit: view.orbit,
                labels: view.labels.to_vec(),
                oris: view.oris.to_vec(),
                id,
                first,
                code,
                places,
                orientations: orbit.orientations,
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
    /// ([`classes`](super::classes)). Allocates: for building tables, not for searching.
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

impl StateSpace for Pattern {
    type State = Placement;
    type Move = PermMove;

    /// Part by part: each tracked piece to the slot the move takes it to, with the twist the
    /// move adds there; twists kept by slot go where their slot's piece goes.
    #[inline]
    fn successors(&self, p: Placement, visit: &mut dyn FnMut(PermMove, Placement)) {
        for ((&mv, dest), add) in self.moves.iter().zip(&self.dest).zip(&self.add) {
            let mut next = p;
            for part in &self.parts {
                let (first, code, o) = (part.first, part.code, part.orientations);
                let reduce = |t: u8| if t >= o { t - o } else { t };
                for i in first..first + part.pieces() {
                    // Codes are below 256 (checked in `new`): a `u8` indexes the tables.
                    let from = (code + usize::from(p.slot[i])) % 256;
                    next.slot[i] = dest[from];
                    if o > 1 && !part.by_slot {
                        next.twist[i] = reduce(p.twist[i] + add[from]);
                    }
                }
                if part.by_slot {
                    for q in 0..part.labels.len() {
                        let to = first + usize::from(dest[(code + q) % 256]);
                        next.twist[to % PLACEMENT_ENTRIES] =
                            reduce(p.twist[first + q] + add[(code + q) % 256]);
                    }
                }
            }
            visit(mv, next);
        }
    }

    /// By index: alike pieces may be listed in any order.
    fn is_goal(&self, p: Placement) -> bool {
        self.index(p) == self.goal_index
    }
}

impl Indexed for Pattern {
    fn size(&self) -> u128 {
        u128::from(self.size)
    }

    /// Per part, most significant first: the slots' rank, then the twists (the last one's high
    /// part only, when it is known modulo a step).
    #[inline]
    fn index(&self, p: Placement) -> u64 {
        let mut index = 0u64;
        for part in &self.parts {
            let (first, k) = (part.first, part.pieces());
            index = index * part.places.count() + part.places.rank(&p.slot[first..first + k]);
            if part.twisted() > 0 {
                let o = u64::from(part.orientations);
                let free = part.twisted() - usize::from(part.step > 1);
                for &t in &p.twist[first..first + free] {
                    index = index * o + u64::from(t);
                }
                if part.step > 1 {
                    let step = u64::from(part.step);
                    index = index * (o / step) + u64::from(p.twist[first + free]) / step;
                }
            }
        }
        index
    }

    fn state(&self, mut index: u64) -> Placement {
        let mut p = Placement::default();
        for part in self.parts.iter().rev() {
            let (first, k) = (part.first, part.pieces());
            if part.twisted() > 0 {
                let o = u64::from(part.orientations);
                let free = part.twisted() - usize::from(part.step > 1);
                let mut high = 0;
                if part.step > 1 {
                    let radix = o / u64::from(part.step);
                    high = index % radix;
                    index /= radix;
                }
                for t in p.twist[first..first + free].iter_mut().rev() {
                    *t = (index % o) as u8;
                    index /= o;
                }
                if part.step > 1 {
                    // The residue that makes the sum right, plus `step` times the high part.
                    let step = u64::from(part.step);
                    let sum: u64 = p.twist[first..first + free]
                        .iter()
                        .map(|&t| u64::from(t))
                        .sum();
                    let low = (u64::from(part.residue) + step - sum % step) % step;
                    p.twist[first + free] = (low + step * high) as u8;
                }
            }
            let count = part.places.count();
            part.places
                .unrank(index % count, &mut p.slot[first..first + k]);
            index /= count;
        }
        p
    }
}

impl Invertible for Pattern {
    fn inverse(&self, m: PermMove) -> PermMove {
        self.moves[self.inverse[m.index()] as usize]
    }
}

/// Everything the table depends on: the shape of every part (slots, pieces, orientations, the
/// twist rule), the move tables over the slot codes, the goal placement. Not the definition's
/// name nor the moves' names.
impl Describe for Pattern {
    fn describe(&self, content: &mut Content) {
        content.str("perm pattern").u64(self.parts.len() as u64);
        for part in &self.parts {
            content
                .u64(part.labels.len() as u64)
                .u64(part.pieces() as u64)
                .u64(part.orientations.into())
                .u64(part.step.into())
                .u64(part.residue.into())
                .u64(part.by_slot.into());
            // Written only for alike pieces: the fingerprints of the patterns before them stay.
            if let Places::Alike { .. } = part.places {
                content.str("alike");
            }
        }
        content.str("moves").u64(self.dest.len() as u64);
        for (dest, add) in self.dest.iter().zip(&self.add) {
            content.bytes(&dest[..self.codes]).bytes(&add[..self.codes]);
        }
        // The entries in use, and at least 16 (the placement's size before twists by slot of
        // part of a class: the fingerprints of the patterns before them stay).
        let used = self.entries.max(16);
        content
            .str("goal")
            .bytes(&self.goal.slot[..used])
            .bytes(&self.goal.twist[..used]);
    }
}

impl GoalSet for Pattern {
    fn goals(&self, visit: &mut dyn FnMut(Placement)) {
        visit(self.goal)
    }
}

/// A pattern whose last part tracks a whole twisted class (the 3x3x3's corners) has that part's
/// twists by slot as its lowest digits: a move carries a slot's twist along whatever piece is
/// there, so they move on their own ([`SplitMoves`]), and the table is built block by block
/// ([`table::build_split`]).
impl SplitMoves for Pattern {
    fn low_count(&self) -> Option<u64> {
        let last = self.parts.last()?;
        if last.by_slot { last.twists() } else { None }
    }
}

/// A pattern of some of a class's pieces of two orientations (the 3x3x3's edges in groups) has
/// their flips, by piece, as its lowest digits: a move takes the places to places and flips
/// the pieces in the slots it flips, so a block of states that differ only in their flips moves
/// as a whole ([`FlipSplit`]), and the table is built a block at a time
/// ([`table::build_flips`]).
impl FlipSplit for Pattern {
    fn flip_bits(&self) -> Option<u32> {
        match self.parts.as_slice() {
            [
                part @ Part {
                    places: Places::Distinct(_),
                    ..
                },
            ] if part.orientations == 2 && !part.by_slot && part.step == 1 => {
                Some(part.pieces() as u32)
            }
            _ => None,
        }
    }

    /// One unrank of the places, then per move the pieces' new slots ranked and the flips of
    /// their old slots gathered: piece `i`'s flip is bit `k - 1 - i` of the index (the twists
    /// are its lowest digits, first piece most significant).
    fn block_moves(&self, high: u64, visit: &mut dyn FnMut(u64, u64)) {
        let part = &self.parts[0];
        let k = part.pieces();
        let base = part.code;
        let mut slots = [0u8; MAX_TRACKED];
        part.places.unrank(high, &mut slots[..k]);
        for (dest, add) in self.dest.iter().zip(&self.add) {
            let mut moved = [0u8; MAX_TRACKED];
            let mut mask = 0u64;
            for (i, (&slot, to)) in slots[..k].iter().zip(&mut moved).enumerate() {
                let code = (base + usize::from(slot)) % 256;
                *to = dest[code];
                mask |= u64::from(add[code] & 1) << (k - 1 - i);
            }
            visit(part.places.rank(&moved[..k]), mask);
        }
    }
}

impl<const N: usize> Abstraction<PermSpace<N>> for Pattern {
    type Space = Pattern;

    /// Block by block where the index splits (seconds for the 3x3x3's 88,179,840 corner states,
    /// against a minute state by state), else the table engine's level scans.
    fn build_table(&self, limits: &Limits) -> Result<DistanceTable, Limit> {
        if self.low_count().is_some() {
            table::build_split_with(self, limits, Width::Exact)
        } else if self.flip_bits().is_some() {
            table::build_flips_with(self, limits, Width::Exact)
        } else {
            table::build_with(self, limits, Width::Exact)
        }
    }

    /// The exact table, and for a split build the sweep's bitsets and move tables beside it.
    fn build_bytes(&self) -> u128 {
        let table = self.size().div_ceil(16) * 8;
        if self.low_count().is_some() {
            table + layers::memory_needed(self) + layers::split_tables_needed(self)
        } else if self.flip_bits().is_some() {
            table + layers::memory_needed(self)
        } else {
            table
        }
    }

    fn space(&self) -> &Pattern {
        self
    }

    #[inline]
    fn project(&self, _: &PermSpace<N>, state: Packed<N>) -> u64 {
        self.index_of(&state.0)
    }

    /// A move turns many pieces at once: every move may count in every pattern (module docs).
    fn pieces(&self) -> u64 {
        u64::MAX
    }
}

/// The heuristic of a permutation puzzle: the largest of its patterns' distances.
pub type PermPdb = Max<PatternDatabase<Pattern>>;

/// A pattern database looked up at a state and at some of its images under the puzzle's
/// symmetries, taking the largest value (Korf & Felner's reflected look-ups, with a cube's
/// rotations).
///
/// A symmetry `c` maps moves onto moves and fixes the solved state, so the image `c s c⁻¹` is as
/// far from solved as `s` (see [`symmetry`](super::symmetry)), and the database's value there is
/// a lower bound for `s` too. It is a *different* bound when `c` renames other pieces into the
/// tracked ones: the look-up then reads the state's pieces whose labels `c` renames into the
/// pattern's. A symmetry that reads the same pieces as one already used gives the same value
/// (it maps the pattern onto itself), so [`Conjugated::new`] keeps one symmetry per set of
/// pieces read, preferring those that read pieces no earlier look-up read: for a group of eight
/// of the 3x3x3's twelve edges under its 24 rotations, a second look-up sees the four edges the
/// first does not. A pattern of a whole class (the corners) reads the same pieces under every
/// rotation and gets no extra look-up.
///
/// With the inverse (`[heuristic] dual = true`), the database is also looked up at the state's
/// inverse and through the same symmetries there ([`inversion`](super::inversion): as far from
/// solved, and a pattern of part of a class reads other information there); a pattern of whole
/// classes gains nothing from it and does not.
///
/// Cost: a projection through a composed reading and a table read per look-up, each look-up
/// after the first only when the ones before stay below IDA*'s limit; the inverse's look-ups a
/// pass over the state's bytes more.
pub struct Conjugated<const N: usize> {
    database: PatternDatabase<Pattern>,
    /// The symmetries looked up through besides the identity (indices of
    /// [`Symmetries::image`]).
    through: Vec<usize>,
    /// The pattern's reading through each of them, in that order.
    readings: Vec<Reading>,
    /// The state's inverse, looked up too (plainly and through each reading), when asked for and
    /// the pattern leaves some piece of a class out.
    inversion: Option<Inversion>,
}

impl<const N: usize> Conjugated<N> {
    /// `database` looked up at the state and through at most `extra` symmetries of `space`,
    /// each reading a different set of pieces, those that read the most pieces not read yet
    /// first, and with `dual` at the state's inverse the same way, when the space has one (see
    /// the type's docs). [`Prefetched`] holds the state's own look-ups' indices: `extra` is cut
    /// to fit it (three).
    pub fn new(
        space: &PermSpace<N>,
        database: PatternDatabase<Pattern>,
        extra: usize,
        dual: bool,
    ) -> Self {
        let pattern = database.abstraction();
        let partial = pattern.parts.iter().any(|p| p.pieces() < p.labels.len());
        let inversion = match dual && partial {
            true => space.inversion().ok().cloned(),
            false => None,
        };
        let extra = extra.min(Prefetched::NONE.0.len() - 1);
        let symmetries = space.symmetries();
        let solved = space.solved();
        let read = |k: Option<usize>| pattern.reads(symmetries, &solved, k);
        let mut seen = vec![read(None)];
        let mut candidates: Vec<(usize, Vec<(usize, u8)>)> = Vec::new();
        for k in 0..symmetries.order() - 1 {
            let pieces = read(Some(k));
            if !seen.contains(&pieces) && !candidates.iter().any(|(_, p)| *p == pieces) {
                candidates.push((k, pieces));
            }
        }
        let mut covered: HashSet<(usize, u8)> = seen[0].iter().copied().collect();
        let mut through = Vec::new();
        while through.len() < extra && !candidates.is_empty() {
            let fresh = |p: &Vec<(usize, u8)>| p.iter().filter(|x| !covered.contains(*x)).count();
            // The most pieces not read yet; the first such on ties.
            let best = (0..candidates.len())
                .rev()
                .max_by_key(|&i| fresh(&candidates[i].1))
                .expect("candidates");
            let (k, pieces) = candidates.remove(best);
            covered.extend(pieces.iter().copied());
            seen.push(pieces);
            through.push(k);
        }
        let readings = through
            .iter()
            .map(|&k| Reading::new(pattern, symmetries, k))
            .collect();
        Conjugated {
            database,
            through,
            readings,
            inversion,
        }
    }

    /// The symmetries looked up through besides the identity.
    pub fn through(&self) -> &[usize] {
        &self.through
    }

    /// The database.
    pub fn database(&self) -> &PatternDatabase<Pattern> {
        &self.database
    }

    /// True when the state's inverse is looked up too.
    pub fn dual(&self) -> bool {
        self.inversion.is_some()
    }

    /// The database's index of the image of `state` under the `i`-th symmetry looked up
    /// through: the pattern's projection of the image, read from `state` by the composed
    /// [`Reading`] (only the bytes the pattern reads, no image made).
    #[inline]
    fn index_through(&self, i: usize, state: &Packed<N>) -> u64 {
        let pattern = self.database.abstraction();
        self.readings[i].index_of(pattern, &state.0)
    }

    /// The database's indices of `state`'s look-ups, the plain one first, then one per
    /// symmetry looked up through, into `out` (one word each; the rest left as they are).
    #[inline]
    fn indices(&self, state: &Packed<N>, out: &mut [u64]) {
        let pattern = self.database.abstraction();
        out[0] = pattern.index_of(&state.0);
        for (i, word) in out[1..=self.readings.len()].iter_mut().enumerate() {
            *word = self.index_through(i, state);
        }
    }

    /// The largest entry at `indices`, stopping at the first that reaches `limit`.
    #[inline]
    fn read(&self, indices: &[u64], limit: u32) -> u32 {
        self.database.largest_entry(indices, limit)
    }

    /// The inverse's look-ups after the state's own gave `best` (below `limit`): their entries
    /// prefetched together, then read in turn while below `limit`.
    #[inline]
    fn read_inverse(&self, state: &Packed<N>, best: u32, limit: u32) -> u32 {
        let Some(inversion) = self.inversion.as_ref().filter(|_| best < limit) else {
            return best;
        };
        let per_state = 1 + self.readings.len();
        let mut indices = [0u64; Prefetched::NONE.0.len()];
        self.indices(&inversion.invert(state), &mut indices);
        for &index in &indices[..per_state] {
            self.database.table().prefetch(index);
        }
        best.max(self.read(&indices[..per_state], limit))
    }
}

/// A pattern's projection of a symmetry's image, composed once: for each slot the pattern reads,
/// the state's bytes the image's label and twist come from, the relabelling composed with the
/// pattern's piece numbers, and the twist the symmetry adds. Reading an image's placement this
/// way costs about what the plain projection does: a table look-up per slot more, against a
/// whole image made first (a pass over every byte of the state, each relabelled or retwisted).
pub(crate) struct Reading {
    parts: Vec<PartReading>,
}

struct PartReading {
    /// Per slot of the part: the state's byte the image's label comes from, and for a twisted
    /// orbit the byte its twist comes from, the byte of the label that decides the twist the
    /// symmetry adds, and the fixed twist it adds.
    slots: Vec<SlotReading>,
    /// `id[label]`: the tracked number of the piece a label of the state becomes, or
    /// [`UNTRACKED`] (the part's `id` after the relabelling).
    id: Box<[u8; 256]>,
    /// The twist the symmetry adds to a piece by its label in the state.
    retwist: Box<[u8; 256]>,
}

#[derive(Clone, Copy)]
struct SlotReading {
    label: ByteIndex,
    twist: ByteIndex,
    twist_label: ByteIndex,
    add: u8,
}

impl Reading {
    /// The reading of `pattern` through the `k`-th symmetry of `symmetries`.
    pub(crate) fn new(pattern: &Pattern, symmetries: &Symmetries, k: usize) -> Self {
        let parts = pattern
            .parts
            .iter()
            .map(|part| {
                let slots = (0..part.labels.len())
                    .map(|j| {
                        let (label, _, _) = symmetries.byte_rule(k, part.labels[j]);
                        let (twist, twist_label, add) = match part.oris.get(j) {
                            Some(&o) => symmetries.byte_rule(k, o),
                            None => (0, 0, 0),
                        };
                        SlotReading {
                            label,
                            twist,
                            twist_label,
                            add,
                        }
                    })
                    .collect();
                let mut id = Box::new([UNTRACKED; 256]);
                let mut retwist = Box::new([0u8; 256]);
                for v in 0..=255u8 {
                    let renamed = symmetries.relabelled(k, part.orbit, v);
                    id[usize::from(v)] = part.id[usize::from(renamed)];
                    retwist[usize::from(v)] = symmetries.retwisted(k, part.orbit, v);
                }
                PartReading { slots, id, retwist }
            })
            .collect();
        Reading { parts }
    }

    /// The placement `pattern` gives the image of `bytes`: [`Pattern::placement_by`]'s loop,
    /// each label relabelled and each twist retwisted on the way (the symmetry's
    /// `Conjugation::byte`, composed).
    #[inline]
    pub(crate) fn placement<const N: usize>(
        &self,
        pattern: &Pattern,
        bytes: &[u8; N],
    ) -> Placement {
        let read = |b: ByteIndex| bytes[usize::from(b) % N];
        let mut slot = [0u8; 32];
        let mut twist = [0u8; 32];
        for (part, reading) in pattern.parts.iter().zip(&self.parts) {
            if part.twisted() == 0 {
                for (j, s) in reading.slots.iter().enumerate() {
                    slot[usize::from(reading.id[usize::from(read(s.label))]) % 32] = j as u8;
                }
            } else {
                let o = part.orientations;
                // Each term is below `o`: one subtraction reduces a sum of two.
                let reduce = |v: u8| if v >= o { v - o } else { v };
                for (j, s) in reading.slots.iter().enumerate() {
                    let k = usize::from(reading.id[usize::from(read(s.label))]) % 32;
                    slot[k] = j as u8;
                    let gained = reading.retwist[usize::from(read(s.twist_label))];
                    let by = if part.by_slot { part.first + j } else { k };
                    twist[by % 32] = reduce(read(s.twist) + reduce(gained + s.add));
                }
            }
        }
        let mut p = Placement::default();
        p.slot.copy_from_slice(&slot[..PLACEMENT_ENTRIES]);
        p.twist.copy_from_slice(&twist[..PLACEMENT_ENTRIES]);
        p
    }
}

impl Reading {
    /// [`Pattern::project_one`] of the symmetry's image of `bytes`, read through this reading
    /// (the relabelling and retwisting of [`placement`](Self::placement) on the way).
    #[inline]
    pub(crate) fn project_one<const N: usize>(
        &self,
        pattern: &Pattern,
        bytes: &[u8; N],
    ) -> (u64, u64) {
        Self::rank_part(&pattern.parts[0], &self.parts[0], bytes)
    }

    /// [`Pattern::index_of`] of the symmetry's image of `bytes`, read through this reading.
    #[inline]
    pub(crate) fn index_of<const N: usize>(&self, pattern: &Pattern, bytes: &[u8; N]) -> u64 {
        pattern
            .parts
            .iter()
            .zip(&self.parts)
            .fold(0u64, |index, (part, reading)| {
                let (places, twists) = Self::rank_part(part, reading, bytes);
                (index * part.places.count() + places) * part.twist_count + twists
            })
    }

    /// One part's places' rank and twists' value of the image, through `reading`.
    #[inline(always)]
    fn rank_part<const N: usize>(
        part: &Part,
        reading: &PartReading,
        bytes: &[u8; N],
    ) -> (u64, u64) {
        let read = |b: ByteIndex| bytes[usize::from(b) % N];
        let o = part.orientations;
        // Each term is below `o`: one subtraction reduces a sum of two.
        let reduce = |v: u8| if v >= o { v - o } else { v };
        let slots = &reading.slots[..part.labels.len()];
        part.rank_by(
            |j| reading.id[usize::from(read(slots[j].label))],
            |j| {
                let s = slots[j];
                let gained = reading.retwist[usize::from(read(s.twist_label))];
                reduce(read(s.twist) + reduce(gained + s.add))
            },
        )
    }
}

impl<const N: usize> Heuristic<PermSpace<N>> for Conjugated<N> {
    fn intact(&self, cache: &TableCache) -> bool {
        self.database.intact_in::<PermSpace<N>>(cache)
    }

    #[inline]
    fn estimate(&self, space: &PermSpace<N>, state: Packed<N>) -> u32 {
        self.estimate_below(space, state, u32::MAX)
    }

    /// The look-ups in order, stopping at the first that reaches `limit`; the inverse is made
    /// only when the state's own look-ups stay below it.
    #[inline]
    fn estimate_below(&self, space: &PermSpace<N>, state: Packed<N>, limit: u32) -> u32 {
        let mut best = self.database.value(space, state);
        for i in 0..self.readings.len() {
            if best >= limit {
                return best;
            }
            best = best.max(self.database.entry(self.index_through(i, &state)));
        }
        self.read_inverse(&state, best, limit)
    }

    /// The state's own look-ups' entries: a projection costs a few hundred instructions, a
    /// table read missed in the cache far more. The indices, in look-up order, are the words
    /// returned. The inverse's are left to [`estimate_prefetched`](Heuristic::estimate_prefetched):
    /// most states are cut by their own look-ups (in IDA*, all but about one in six on the
    /// 3x3x3), and the inverse would double every state's cost.
    #[inline]
    fn prefetch(&self, space: &PermSpace<N>, state: Packed<N>) -> Prefetched {
        let mut indices = self.database.prefetch(space, state);
        for (i, word) in indices.0[1..=self.readings.len()].iter_mut().enumerate() {
            *word = self.index_through(i, &state);
            self.database.table().prefetch(*word);
        }
        indices
    }

    /// [`estimate_below`](Heuristic::estimate_below): the state's own look-ups from the indices
    /// prefetched, then the inverse's while below `limit`.
    #[inline]
    fn estimate_prefetched(
        &self,
        _: &PermSpace<N>,
        state: Packed<N>,
        prefetched: &Prefetched,
        limit: u32,
    ) -> u32 {
        let best = self.read(&prefetched.0[..1 + self.readings.len()], limit);
        self.read_inverse(&state, best, limit)
    }
}

/// The twists of `k` pieces with `o` orientations, the last one known modulo `step` (1: free);
/// `None` past a `u64`.
fn pattern_twists(k: u32, o: u8, step: u8) -> Option<u64> {
    let o = u64::from(o);
    if step > 1 {
        o.checked_pow(k - 1)?.checked_mul(o / u64::from(step))
    } else {
        o.checked_pow(k)
    }
}

/// The states of a pattern of `k` of a class's `n` slots with `o` orientations, the last twist
/// known modulo `step` when the class is whole; `None` past a `u64`.
fn pattern_states(n: u32, k: u32, o: u8, step: u8) -> Option<u64> {
    let step = if k == n { step } else { 1 };
    Arrangements::new(n, k)?
        .count()
        .checked_mul(pattern_twists(k, o, step)?)
}

/// The patterns [`auto_pieces`] would pick for `space`, each at most `max_states` states (see
/// the module docs): whole classes while they fit, else groups of a class's pieces, small
/// classes sharing a pattern. Classes that never move and pieces that look alike are left out.
pub fn auto_pieces<const N: usize>(space: &PermSpace<N>, max_states: u64) -> Vec<Pieces> {
    let layout = space.layout();
    let solved = space.solved().0;
    let orbits = &space.definition().orbits;
    // Units: (class, labels, states), in class order.
    let mut units = Vec::new();
    for class in 0..layout.classes() {
        let (_, _, radix) = layout.class_shape(class);
        if radix <= 1 {
            continue; // never moves (the 2x2x2's fixed corner): nothing to estimate
        }
        let view = layout.class(class);
        let o = orbits[view.orbit].orientations;
        let n = view.labels.len() as u32;
        let in_class: Vec<u8> = view.labels.iter().map(|&b| solved[b as usize]).collect();
        let distinct: Vec<u8> = in_class
            .iter()
            .copied()
            .filter(|l| in_class.iter().filter(|&m| m == l).count() == 1)
            .collect();
        let step = if distinct.len() == in_class.len() {
            view.step
        } else {
            1
        };
        let fits = |k: usize| {
            k <= MAX_TRACKED
                && pattern_states(n, k as u32, o, step).is_some_and(|s| s <= max_states)
        };
        let group = (1..=distinct.len()).rev().find(|&k| fits(k));
        let Some(group) = group else { continue };
        for chunk in distinct.chunks(group) {
            let states = pattern_states(n, chunk.len() as u32, o, step).unwrap_or(u64::MAX);
            units.push((class, chunk.to_vec(), states));
        }
    }
    // Greedy packing: a unit joins the current pattern while the product fits and its class is
    // not in it yet.
    let mut patterns: Vec<(Pieces, u64, usize)> = Vec::new();
    for (class, labels, states) in units {
        let joins = patterns.last().is_some_and(|(pieces, size, tracked)| {
            !pieces.iter().any(|(c, _)| *c == class)
                && size.checked_mul(states).is_some_and(|s| s <= max_states)
                && tracked + labels.len() <= MAX_TRACKED
        });
        if joins {
            let (pieces, size, tracked) = patterns.last_mut().expect("joins");
            *size *= states;
            *tracked += labels.len();
            pieces.push((class, labels));
        } else {
            let tracked = labels.len();
            patterns.push((vec![(class, labels)], states, tracked));
        }
    }
    patterns.into_iter().map(|(pieces, _, _)| pieces).collect()
}

/// Pattern databases this small (each) are built even on a cold start: a tenth of a second or
/// less (the 2x2x2's whole puzzle, 3,674,160 states, block by block). When every database of a
/// puzzle is this small, `auto` builds them and no pruning table.
pub const CHEAP_PATTERN_STATES: u64 = 1 << 22;

/// `[heuristic] kind`: which heuristic IDA* and A* search with.
///
/// Pattern databases are strong far from the goal but built whole before the first node
/// (minutes on a megaminx); a [`PruningTable`] is exact near the goal, starts at once and
/// deepens as the search pays for it. `Auto` takes the databases when the table cache holds
/// them all (a warm start: as fast as `Pdb`) or when all are cheap to build
/// ([`CHEAP_PATTERN_STATES`]), else the pruning table with the cheap ones, so a short scramble
/// is solved at once on a cold start. `Pdb` builds and caches the databases, after which `Auto` takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicKind {
    /// The databases when cached, else the pruning table and the cheap databases.
    Auto,
    /// The max of the pattern databases, built once and cached.
    Pdb,
    /// The pruning table alone.
    Pruning,
}

impl HeuristicKind {
    /// The heuristic of a `[heuristic] kind` the registry accepted (`auto`, `pdb`,
    /// `pruning`); any other is `Auto`.
    pub fn from_kind(kind: &str) -> HeuristicKind {
        match kind {
            "pdb" => HeuristicKind::Pdb,
            "pruning" => HeuristicKind::Pruning,
            _ => HeuristicKind::Auto,
        }
    }

    /// Makes the heuristic for `space` from `patterns` within `limits`: the databases built or
    /// loaded through `cache`, the pruning table filled within a share of the memory budget,
    /// one cell per orbit of the space's symmetries when `symmetric`
    /// ([`PruningTable::symmetric`]); the databases looked up as `lookups` says.
    pub fn make<const N: usize>(
        self,
        space: &PermSpace<N>,
        patterns: Vec<Pattern>,
        lookups: Lookups,
        limits: &Limits,
        cache: &TableCache,
    ) -> Result<SharedHeuristic<PermSpace<N>>, Limit> {
        let warm = patterns.iter().all(|p| {
            let space = Abstraction::<PermSpace<N>>::space(p);
            cached::holds(cache, space, &Abstraction::<PermSpace<N>>::recipe(p))
        });
        let (pruning, patterns) = match self {
            HeuristicKind::Pdb => (false, patterns),
            HeuristicKind::Auto if warm => (false, patterns),
            HeuristicKind::Pruning => (true, Vec::new()),
            HeuristicKind::Auto if patterns.iter().all(|p| p.size <= CHEAP_PATTERN_STATES) => {
                (false, patterns)
            }
            HeuristicKind::Auto => {
                let cheap = |p: &Pattern| p.size <= CHEAP_PATTERN_STATES;
                (true, patterns.into_iter().filter(cheap).collect())
            }
        };
        if !pruning {
            return Ok(Arc::from(databases::<N>(
                space, patterns, lookups, limits, cache,
            )?));
        }
        let growth = Growth::within(limits);
        let table = match lookups.symmetric {
            true => PruningTable::symmetric(space, limits, growth)?,
            false => PruningTable::new(space, limits, growth)?,
        };
        let mut rest = limits.clone();
        rest.memory_budget = limits.memory_budget.saturating_sub(table.bytes());
        let mut parts: Vec<Box<dyn statespace::space::Heuristic<PermSpace<N>> + Send>> =
            vec![Box::new(table)];
        if !patterns.is_empty() {
            parts.push(databases::<N>(space, patterns, lookups, &rest, cache)?);
        }
        Ok(Arc::new(Max::new(parts)))
    }
}

/// The most look-ups through symmetries a [`Conjugated`] database makes besides the state's
/// own, with `[heuristic] symmetry = true`.
pub const CONJUGATE_LOOKUPS: usize = 2;

/// Where each pattern database is looked up besides the state itself (`[heuristic]` keys).
#[derive(Clone, Copy, Debug, Default)]
pub struct Lookups {
    /// Through the space's symmetries (`symmetry`; [`Conjugated`], at most
    /// [`CONJUGATE_LOOKUPS`] more; the pruning table keeps one cell per orbit).
    pub symmetric: bool,
    /// At the state's inverse too (`dual`; [`inversion`](super::inversion)).
    pub dual: bool,
}

/// The pattern databases of `patterns` as one heuristic: [`heuristic`], each database looked
/// up as `lookups` says ([`Conjugated`]).
fn databases<const N: usize>(
    space: &PermSpace<N>,
    patterns: Vec<Pattern>,
    lookups: Lookups,
    limits: &Limits,
    cache: &TableCache,
) -> Result<Box<dyn Heuristic<PermSpace<N>> + Send + Sync>, Limit> {
    let plain = heuristic::<N>(patterns, limits, Some(cache))?;
    if !lookups.symmetric && !lookups.dual {
        return Ok(Box::new(plain));
    }
    let extra = if lookups.symmetric {
        CONJUGATE_LOOKUPS
    } else {
        0
    };
    let conjugated = plain
        .into_parts()
        .into_iter()
        .map(|database| Conjugated::new(space, database, extra, lookups.dual))
        .collect();
    Ok(Box::new(Max::new(conjugated)))
}

/// The heuristic of a space: the [`Max`] of the pattern databases of `patterns`, built (or
/// loaded from `cache`) within `limits`; refused with [`Limit::Memory`] before anything is
/// allocated when their tables cannot fit the budget together.
///
/// The database of the highest mean distance comes first: it is the most informed, so it cuts
/// the most nodes alone, and it is the one [`Max`] prefetches (a look-up in a table far larger
/// than the caches waits on memory unless prefetched). The estimates do not depend on the order.
pub fn heuristic<const N: usize>(
    patterns: Vec<Pattern>,
    limits: &Limits,
    cache: Option<&TableCache>,
) -> Result<PermPdb, Limit> {
    let mut databases = pdb::build_all::<PermSpace<N>, _>(patterns, limits, cache)?;
    let mean = |db: &PatternDatabase<Pattern>| mean_distance(db.table());
    databases.sort_by(|a, b| mean(b).total_cmp(&mean(a)));
    Ok(Max::new(databases))
}

/// The mean distance over a table's reachable entries: how informed a database is on average
/// (the 3x3x3's corners 8.76, a group of eight edges 9.24).
fn mean_distance(table: &DistanceTable) -> f64 {
    let histogram = table.histogram();
    let total: u64 = histogram.iter().sum();
    let sum: f64 = histogram
        .iter()
        .enumerate()
        .map(|(d, &n)| d as f64 * n as f64)
        .sum();
    sum / total.max(1) as f64
}
