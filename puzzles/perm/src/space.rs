//! [`PermSpace`]: a permutation puzzle's definition and chosen generators as a [`StateSpace`]
//! with a dense index, invertible moves, its solved state, board text and invariants.
//!
//! # States and moves
//!
//! A state is the packed byte array of [`state`](super::state) ([`Packed<N>`]), `N` the
//! smallest of its [`WIDTHS`](super::state::WIDTHS) that holds the layout (the plugin picks it
//! once, at load). A move is one power of a generator ([`Power`]), compiled into two byte
//! tables of length `N` (the byte each output byte reads and the twist it adds). Applying it
//! copies the state and recomputes only the bytes the move changes (a 3x3x3 face turn: 16 of
//! 64, its four corners' and four edges' labels and twists), in two loops with no branch on a
//! byte's kind, no bounds check (`N` is a power of two, so the indices are masked) and no
//! allocation: the bytes that are only carried (labels, and twists the move does not change)
//! are copied; the others add their twist and reduce. Bytes past the layout are never changed
//! and stay 0.
//!
//! [`PermMove`] is the label: the move's number and its name inline (at most
//! [`MAX_NAME_BYTES`] bytes), so it is `Copy` and displays as the power name twsearch uses
//! (`R`, `R2`, `R'`) without a pointer back to the space.
//!
//! A definition's `Illegal` rules (Square-1) block every move into a state that breaks one:
//! such successors are left out, and a start that breaks one is refused at its line. A
//! scramble's intermediate states are not checked, only where it ends.
//!
//! # Canonical sequences
//!
//! [`may_follow`](StateSpace::may_follow) refuses two turns of one generator in a row (they
//! make one turn or none) and, for two generators that change no slot in common (so they
//! commute), the one listed later before the earlier (`U D` is searched, `D U` is not). Every
//! sequence can be rewritten into one that passes by swapping such neighbours and merging turns
//! of one generator, never longer, so pruning loses no shortest path. In the quarter-turn
//! metric `X X` is the only way to make `X2`, so a generator of order 4 or more may repeat the
//! same quarter turn.
//!
//! Disjoint slots are the test rather than whether the two transforms commute: it is a bit mask
//! per generator, so building the space stays linear in its moves (a definition may have tens of
//! thousands; comparing every pair of them took minutes). Face turns commute exactly when they
//! share no slot; a pair that shares slots and still commutes (a face turn and a rotation about
//! its axis) is searched in both orders, which costs time, never a path.
//!
//! # Index and invariants
//!
//! See [`index`](super::index): per class of slots, an arrangement rank and orientation digits,
//! with the orientation-sum and parity invariants the generators keep. The [`Invariant`]
//! (consulted before any engine) refuses states that break them, so the index is only asked
//! about states it covers.
//!
//! # Pattern databases
//!
//! The classes are closed under every move, so following some of their pieces and forgetting the
//! rest is a homomorphism onto a smaller space whose distances are lower bounds:
//! [`heuristic`](super::heuristic) builds those spaces from [`PermSpace::layout`] (the classes)
//! and [`PermSpace::move_bytes`] (the moves), and the heuristic of IDA* from their tables.

use super::def::{Definition, MAX_MOVES, Power};
use super::guess::PieceDistances;
use super::index::Layout;
use super::inversion::Inversion;
use super::state::{ByteIndex, MoveTable, Packed, Packer};
use super::symmetry::Symmetries;
use super::wild::WildTwists;
use hashbrown::HashMap;
use statespace::board_text::BoardText;
use statespace::cache::fingerprint::Content;
use statespace::error::{Error, Location, Result};
use statespace::setup::{Setup, heap, listed};
use statespace::space::{
    BoardFormat, Describe, GoalSet, Indexed, Invariant, Invertible, SplitMoves, StateSpace,
    Symmetric,
};
use std::fmt;
use std::mem::size_of;

/// The longest move name [`PermMove`] holds.
pub const MAX_NAME_BYTES: usize = 21;

/// A move: the power of a generator, by its number in the space and its name.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PermMove {
    index: u16,
    len: u8,
    name: [u8; MAX_NAME_BYTES],
}

impl PermMove {
    /// The move's number: its position in [`PermSpace::moves`].
    pub fn index(self) -> usize {
        self.index as usize
    }

    /// The name, as the definition and twsearch write it (`R2'`).
    pub fn name(&self) -> &str {
        // Built from a `&str` cut at a char boundary.
        std::str::from_utf8(&self.name[..self.len as usize]).unwrap_or("?")
    }
}

impl fmt::Display for PermMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for PermMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One move as byte tables of the state's length.
#[derive(Clone, Debug)]
struct Table {
    /// `N` entries: the byte each output byte reads.
    src: Box<[ByteIndex]>,
    /// `N` entries: the twist each output byte adds.
    add: Box<[u8]>,
    /// The bytes the move carries from another byte unchanged (labels; twists it adds nothing
    /// to), the first of the two lists [`PermSpace::apply_table`] computes.
    copies: Vec<Carry>,
    /// The bytes whose twist the move changes: a 3x3x3 face turn changes 16 of the 64 bytes,
    /// 12 or 16 of them copies.
    twists: Vec<Twist>,
}

/// One byte a move carries: output byte `at` is byte `src`.
#[derive(Clone, Copy, Debug)]
struct Carry {
    at: ByteIndex,
    src: ByteIndex,
}

/// One byte a move twists: output byte `at` is byte `src` plus `add`, modulo `modulus`.
#[derive(Clone, Copy, Debug)]
struct Twist {
    at: ByteIndex,
    src: ByteIndex,
    add: u8,
    modulus: u8,
}

/// A permutation puzzle with a chosen set of generators (see the module docs).
#[derive(Clone, Debug)]
pub struct PermSpace<const N: usize> {
    def: Definition,
    packer: Packer<N>,
    tables: Vec<Table>,
    moves: Vec<PermMove>,
    /// Per move: its generator's ordinal among the chosen generators.
    generator: Vec<u16>,
    /// Per move: the move that undoes it.
    inverse: Vec<u16>,
    /// Per generator ordinal: the slots it changes among label bytes `0..128` (see
    /// `may_follow`).
    support: Vec<u128>,
    /// Per generator ordinal, `support_words` masks of the label bytes from 128 on (none for a
    /// state of at most 128 bytes, whose test stays one AND).
    support_rest: Vec<u128>,
    support_words: usize,
    /// Per generator ordinal: the same turn may follow itself (quarter turns of order >= 4).
    repeats: Vec<bool>,
    solved: Packed<N>,
    layout: Layout,
    /// The definition's `Illegal` rules as (label byte, mask of the labels it must not hold).
    illegal: Vec<(ByteIndex, [u64; 4])>,
    /// The rotations that map the moves onto themselves, acting by conjugation.
    symmetries: Symmetries,
    /// The inverse of a state, or why the space has none.
    inversion: Result<Inversion, &'static str>,
    /// Each piece's distance home, for beam search's guess.
    piece_distances: PieceDistances,
    /// The wild pieces' twists to set to 0 after a move (none without wildcards).
    wild: WildTwists,
}

impl<const N: usize> PermSpace<N> {
    /// The bytes one move takes while the space is built, for a state of `len` bytes: its byte
    /// tables and changed bytes, the [`Packer`]'s table, its label, and its entries in the
    /// lists and the map of inverses.
    fn move_bytes_needed(len: usize) -> u128 {
        let table = size_of::<Table>() as u128
            + heap(N * (size_of::<ByteIndex>() + 1))
            + heap(len * size_of::<Twist>());
        let packed = listed::<MoveTable>() + heap(len * (size_of::<ByteIndex>() + 1));
        let support = heap(len.div_ceil(128) * size_of::<u128>());
        let lists = listed::<PermMove>() + 2 * size_of::<u16>() as u128 + listed::<u64>();
        let inverses = 2 * size_of::<((usize, u32), usize)>() as u128;
        table + packed + lists + inverses + support
    }

    /// The space of `def` searched with `powers` (from [`Definition::generators`]); `qtm` when
    /// only quarter turns are moves. Errors (at the definition's name) when the state does not
    /// fit `N` bytes, a name is longer than [`MAX_NAME_BYTES`] or there is no move. The move
    /// tables are charged to `setup` before they are made, and each move is a step of it.
    pub fn new(def: Definition, powers: &[Power], qtm: bool, setup: &mut Setup) -> Result<Self> {
        const { assert!(N.is_power_of_two() && N <= ByteIndex::MAX as usize + 1) };
        let at = Location::file(&def.name);
        if powers.is_empty() {
            return Err(Error::input(
                at,
                "no moves: every chosen generator does nothing",
            ));
        }
        if powers.len() > MAX_MOVES {
            return Err(Error::input(
                at,
                format!(
                    "{} moves, more than the {MAX_MOVES} a search takes",
                    powers.len()
                ),
            ));
        }
        let transforms: Vec<_> = powers.iter().map(|p| &p.transform).collect();
        let needed = powers.len() as u128 * Self::move_bytes_needed(def.state_bytes());
        setup.charge(needed, || at.clone())?;
        let packer = Packer::<N>::new(&def, &transforms)?;
        let modulus = packer.modulus();
        let mut tables = Vec::with_capacity(transforms.len());
        for t in &transforms {
            setup.step(|| at.clone())?;
            let table = packer.table(t);
            // `N` fits a `ByteIndex` (asserted above).
            let mut src: Box<[ByteIndex]> = (0..N).map(|j| j as ByteIndex).collect();
            let mut add = vec![0u8; N].into_boxed_slice();
            src[..table.src.len()].copy_from_slice(&table.src);
            add[..table.add.len()].copy_from_slice(&table.add);
            let changed = (0..packer.len()).filter(|&j| usize::from(src[j]) != j || add[j] != 0);
            let (mut copies, mut twists) = (Vec::new(), Vec::new());
            for j in changed {
                let (at, src) = (j as ByteIndex, src[j]);
                match add[j] {
                    0 => copies.push(Carry { at, src }),
                    add => twists.push(Twist {
                        at,
                        src,
                        add,
                        modulus: modulus[j],
                    }),
                }
            }
            tables.push(Table {
                src,
                add,
                copies,
                twists,
            });
        }
        // The generators in order of first appearance, and each power's generator ordinal
        // (at most MAX_MOVES of them: below u16::MAX, which marks "none yet").
        let mut bases: Vec<usize> = Vec::new();
        let mut ordinal = vec![u16::MAX; def.moves.len()];
        for p in powers {
            if ordinal[p.base] == u16::MAX {
                ordinal[p.base] = bases.len() as u16;
                bases.push(p.base);
            }
        }
        let orders: Vec<u128> = bases
            .iter()
            .map(|&b| def.moves[b].transform.order(&def.orbits))
            .collect();
        let mut moves = Vec::new();
        for (i, p) in powers.iter().enumerate() {
            if p.name.len() > MAX_NAME_BYTES {
                return Err(Error::input(
                    at,
                    format!("move name {} is longer than {MAX_NAME_BYTES} bytes", p.name),
                ));
            }
            let mut name = [0u8; MAX_NAME_BYTES];
            name[..p.name.len()].copy_from_slice(p.name.as_bytes());
            moves.push(PermMove {
                index: i as u16,
                len: p.name.len() as u8,
                name,
            });
        }
        let generator: Vec<u16> = powers.iter().map(|p| ordinal[p.base]).collect();
        let by_power: HashMap<(usize, u32), usize> = powers
            .iter()
            .enumerate()
            .map(|(i, p)| ((p.base, p.amount), i))
            .collect();
        // Every searched power's inverse is searched: the inverse of a state is as far.
        let moves_closed = powers.iter().all(|p| {
            let order = orders[usize::from(ordinal[p.base])];
            let wanted = ((order - u128::from(p.amount)) % order) as u32;
            wanted == 0 || by_power.contains_key(&(p.base, wanted))
        });
        let inverse = powers
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let order = orders[usize::from(ordinal[p.base])];
                let wanted = ((order - u128::from(p.amount)) % order) as u32;
                by_power.get(&(p.base, wanted)).copied().unwrap_or(i) as u16
            })
            .collect();
        // Label bytes are the slots, numbered across the orbits: fewer than `packer.len()`.
        // The first 128 in one `u128` per generator, the rest (big states only) after it.
        let support_words = packer.len().saturating_sub(128).div_ceil(128);
        let mut support = vec![0u128; bases.len()];
        let mut support_rest = vec![0u128; bases.len() * support_words];
        for (g, &b) in bases.iter().enumerate() {
            let t = &def.moves[b].transform;
            for (o, &(first, _, _)) in t.orbits.iter().zip(packer.orbit_bytes()) {
                for (slot, (&p, &d)) in o.perm.iter().zip(&o.delta).enumerate() {
                    if usize::from(p) != slot || d != 0 {
                        match first + slot {
                            byte @ 0..128 => support[g] |= 1 << byte,
                            byte => {
                                let bit = byte - 128;
                                support_rest[g * support_words + bit / 128] |= 1 << (bit % 128);
                            }
                        }
                    }
                }
            }
        }
        let repeats = orders.iter().map(|&k| qtm && k >= 4).collect();
        let solved = packer.pack(&def.solved);
        let symmetries = Symmetries::find(&def, &transforms, &packer);
        let inversion = Inversion::find(&def, &packer, moves_closed);
        let layout = Layout::new(&def, &transforms, packer.orbit_bytes());
        setup.charge(PieceDistances::bytes(&def), || at.clone())?;
        let piece_distances = PieceDistances::new(&def, &transforms, packer.orbit_bytes());
        let illegal = def
            .illegal
            .iter()
            .map(|rule| {
                let mut mask = [0u64; 4];
                for &p in &rule.pieces {
                    mask[usize::from(p / 64)] |= 1 << (p % 64);
                }
                // A label byte, below `N`: fits a `ByteIndex`.
                let byte = packer.orbit_bytes()[rule.orbit].0 + rule.slot;
                (byte as ByteIndex, mask)
            })
            .collect();
        let wild = WildTwists::new(&def, packer.orbit_bytes());
        Ok(PermSpace {
            def,
            packer,
            tables,
            moves,
            generator,
            inverse,
            support,
            support_rest,
            support_words,
            repeats,
            solved,
            layout,
            illegal,
            symmetries,
            inversion,
            piece_distances,
            wild,
        })
    }

    /// The symmetries: the definition's rotations and their mirror images that map the moves
    /// onto themselves (see [`symmetry`](super::symmetry)).
    pub fn symmetries(&self) -> &Symmetries {
        &self.symmetries
    }

    /// The inverse of a state (see [`inversion`](super::inversion)), or why the space has none.
    pub fn inversion(&self) -> Result<&Inversion, &'static str> {
        self.inversion.as_ref().map_err(|why| *why)
    }

    /// The definition.
    pub fn definition(&self) -> &Definition {
        &self.def
    }

    /// The moves, in the order [`successors`](StateSpace::successors) lists them.
    pub fn moves(&self) -> &[PermMove] {
        &self.moves
    }

    /// The move named `name`, if it is one of the moves.
    pub fn move_named(&self, name: &str) -> Option<PermMove> {
        self.moves.iter().copied().find(|m| m.name() == name)
    }

    /// The solved state.
    pub fn solved(&self) -> Packed<N> {
        self.solved
    }

    /// Beam search's guess at how far `state` is from solved
    /// ([`Kit::guess`](statespace::kit::Kit::guess)): each piece's own distance home, summed
    /// (see [`guess`](crate::guess)).
    pub fn guess(&self, state: Packed<N>) -> u32 {
        self.piece_distances.guess(&state.0)
    }

    /// The tables of [`guess`](Self::guess).
    pub fn piece_distances(&self) -> &PieceDistances {
        &self.piece_distances
    }

    /// The classes of slots, the index and its invariants.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// True when the dense index covers every state (its size fits a `u64`).
    pub fn indexable(&self) -> bool {
        self.layout.indexable()
    }

    /// Move `m` (its number in [`moves`](Self::moves)) as byte tables of `N` entries: output
    /// byte `j` reads byte `src[j]` and adds the twist `add[j]` (modulo its orbit's orientation
    /// count).
    pub fn move_bytes(&self, m: usize) -> (&[ByteIndex], &[u8]) {
        let t = &self.tables[m];
        (&t.src, &t.add)
    }

    /// The number of bytes the layout uses (at most `N`).
    pub fn state_len(&self) -> usize {
        self.packer.len()
    }

    /// `move` applied to `state`.
    #[inline]
    pub fn apply(&self, state: Packed<N>, m: PermMove) -> Packed<N> {
        self.apply_table(&state, &self.tables[m.index()])
    }

    /// A copy of the state with the move's changed bytes recomputed: every other byte reads
    /// itself and adds nothing, so it keeps its value.
    #[inline]
    fn apply_table(&self, s: &Packed<N>, t: &Table) -> Packed<N> {
        let mut out = s.0;
        // `% N` is a mask (N is a power of two): no bounds check.
        for c in &t.copies {
            out[usize::from(c.at) % N] = s.0[usize::from(c.src) % N];
        }
        for c in &t.twists {
            // A byte below its modulus plus a twist below it stays below 2 * modulus <= 254.
            let v = s.0[usize::from(c.src) % N] + c.add;
            out[usize::from(c.at) % N] = if v >= c.modulus { v - c.modulus } else { v };
        }
        if !self.wild.is_empty() {
            self.wild.apply(&mut out);
        }
        Packed(out)
    }

    /// The representative of `state`'s class: wild pieces' twists 0 (see
    /// [`Definition::wild`]); `state` itself without wildcards.
    pub fn normalize(&self, mut state: Packed<N>) -> Packed<N> {
        self.wild.apply(&mut state.0);
        state
    }

    /// Whether generators `a` and `b` (ordinals) change no label byte from 128 on in common
    /// (always, for states of at most 128 bytes).
    #[inline]
    fn disjoint_rest(&self, a: usize, b: usize) -> bool {
        let w = self.support_words;
        if w == 0 {
            return true;
        }
        let (a, b) = (
            &self.support_rest[a * w..][..w],
            &self.support_rest[b * w..][..w],
        );
        a.iter().zip(b).all(|(x, y)| x & y == 0)
    }

    /// Whether `state` keeps every `Illegal` rule of the definition.
    #[inline]
    pub fn is_legal(&self, state: &Packed<N>) -> bool {
        self.illegal.iter().all(|&(byte, mask)| {
            let label = state.0[usize::from(byte) % N];
            mask[usize::from(label / 64)] >> (label % 64) & 1 == 0
        })
    }

    /// `state`, or an error at `text` when it breaks an `Illegal` rule.
    ///
    /// Why a refusal, where twsearch searches from such a start: the rule says the puzzle
    /// cannot be in that position (Square-1's slice turned across a split piece), so a path
    /// from it solves a position no one holds; and leaving it takes a move whose inverse is
    /// blocked, which the backward engines (the table, `bidirectional`, `explore`) cannot
    /// follow. So the error names the rule the start breaks and, for a scramble, the first move
    /// that breaks one, which is what to change for a legal start.
    fn legal(&self, state: Packed<N>, text: &BoardText) -> Result<Packed<N>> {
        if self.is_legal(&state) {
            return Ok(state);
        }
        let rule = self.broken_rule(&state).unwrap_or_default();
        let how = match text.scramble {
            true => match self.first_illegal_move(&text.text) {
                Some((k, name)) => format!(
                    "; move {k} of the scramble ({name}) is the first to reach such a position: \
                     a scramble whose every move keeps to legal positions gives a legal start"
                ),
                None => "; a scramble whose every move keeps to legal positions gives a legal \
                         start"
                    .into(),
            },
            false => "; give a position that keeps every Illegal rule".into(),
        };
        let why = format!(
            "the start breaks the definition's rule {rule}, a position the puzzle cannot be in{how}"
        );
        Err(Error::input(Self::location(text), why))
    }

    /// The first `Illegal` rule `state` breaks, as the definition writes it with the piece
    /// found (`Illegal SLICE 1 15`: slot 1 of SLICE holds piece 15, 1-based).
    fn broken_rule(&self, state: &Packed<N>) -> Option<String> {
        let state = self.packer.unpack(state);
        self.def.illegal.iter().find_map(|rule| {
            let piece = state.orbits[rule.orbit].pieces[rule.slot];
            rule.pieces.contains(&piece).then(|| {
                let set = &self.def.orbits[rule.orbit].name;
                format!("Illegal {set} {} {}", rule.slot + 1, piece + 1)
            })
        })
    }

    /// The first move of `scramble` (1-based, with its text) after which the position breaks an
    /// `Illegal` rule; `None` past a few thousand moves (the walk is one move at a time) or when
    /// the text does not read move by move.
    fn first_illegal_move(&self, scramble: &str) -> Option<(usize, String)> {
        let code = scramble.lines().map(|l| l.split('#').next().unwrap_or(""));
        let moves: Vec<&str> = code.flat_map(str::split_whitespace).take(4097).collect();
        if moves.len() > 4096 {
            return None;
        }
        let at = |_| Location::file("scramble");
        let mut state = self.def.solved.clone();
        for (k, name) in moves.iter().enumerate() {
            let t = self
                .def
                .scramble_transform(name, &at, &mut Setup::default())
                .ok()?;
            state = state.apply(&t, &self.def.orbits);
            if !self.is_legal(&self.packer.pack(&state)) {
                return Some((k + 1, name.to_string()));
            }
        }
        None
    }

    fn location(text: &BoardText) -> Location {
        let mut at = Location::file(&text.file).at_line(text.first_line);
        at.key = text.key.clone();
        at
    }
}

impl<const N: usize> StateSpace for PermSpace<N> {
    type State = Packed<N>;
    type Move = PermMove;

    #[inline]
    fn successors(&self, state: Packed<N>, visit: &mut dyn FnMut(PermMove, Packed<N>)) {
        // An illegal state (never reached, but a sweep over the index decodes it) has no
        // moves: a move out of it would have no inverse back in, and a backward sweep that
        // pulls takes a state's successors for its predecessors.
        if !self.illegal.is_empty() && !self.is_legal(&state) {
            return;
        }
        for (m, t) in self.moves.iter().zip(&self.tables) {
            let next = self.apply_table(&state, t);
            // A move into an illegal state is blocked (twsearch's `legalstate`; Square-1's
            // slice turn across a split piece). Both ends of a move that passes are legal, so
            // its inverse passes too and the moves stay invertible.
            if self.illegal.is_empty() || self.is_legal(&next) {
                visit(*m, next);
            }
        }
    }

    /// Without `Illegal` rules every move is visited, so each is asked about first and only
    /// those wanted are applied; with them, as the default (a move is visited only if it lands
    /// in a legal state, known once applied).
    #[inline]
    fn successors_where(
        &self,
        state: Packed<N>,
        wanted: &mut dyn FnMut(PermMove) -> bool,
        visit: &mut dyn FnMut(PermMove, Packed<N>),
    ) {
        if !self.illegal.is_empty() {
            self.successors(state, &mut |m, t| {
                if wanted(m) {
                    visit(m, t);
                }
            });
            return;
        }
        for (m, t) in self.moves.iter().zip(&self.tables) {
            if wanted(*m) {
                visit(*m, self.apply_table(&state, t));
            }
        }
    }

    fn nth_successor(&self, state: Packed<N>, n: usize) -> Option<Packed<N>> {
        // With `Illegal` rules the n-th visited move is not the n-th move: count as
        // `successors` does. Without, it is one table.
        if !self.illegal.is_empty() {
            let mut found = None;
            let mut seen = 0;
            self.successors(state, &mut |_, t| {
                if seen == n {
                    found = Some(t);
                }
                seen += 1;
            });
            return found;
        }
        Some(self.apply_table(&state, self.tables.get(n)?))
    }

    fn is_goal(&self, state: Packed<N>) -> bool {
        state == self.solved
    }

    fn may_follow(&self, previous: PermMove, next: PermMove) -> bool {
        let a = self.generator[previous.index()] as usize;
        let b = self.generator[next.index()] as usize;
        if a == b {
            return self.repeats[a] && previous == next;
        }
        // Generators that change no slot in common commute.
        !(b < a && self.support[a] & self.support[b] == 0 && self.disjoint_rest(a, b))
    }
}

impl<const N: usize> Invertible for PermSpace<N> {
    fn inverse(&self, m: PermMove) -> PermMove {
        self.moves[self.inverse[m.index()] as usize]
    }
}

/// The state's byte layout (orbits: slots, orientations, where their bytes are), every move as
/// byte tables (the byte each output byte reads, the twist it adds), the solved state and the
/// `Illegal` rules: what the moves, the goal and the index depend on. Not the definition's
/// name, path or move names: a renamed copy is the same puzzle, an edited move another one.
impl<const N: usize> Describe for PermSpace<N> {
    fn describe(&self, content: &mut Content) {
        content.str("perm").u64(N as u64);
        content.str("orbits").u64(self.def.orbits.len() as u64);
        for (orbit, &(labels, oris, slots)) in self.def.orbits.iter().zip(self.packer.orbit_bytes())
        {
            content
                .u64(orbit.pieces as u64)
                .u64(orbit.orientations.into())
                .u64(labels as u64)
                .u64(oris.map_or(u64::MAX, |o| o as u64))
                .u64(slots as u64);
        }
        content.str("modulus").bytes(self.packer.modulus());
        content.str("moves").u64(self.tables.len() as u64);
        for table in &self.tables {
            // A byte per source up to 256 bytes (as before byte indices were wider: tables
            // cached then are still found), two from there on.
            if N <= 256 {
                let src: Vec<u8> = table.src.iter().map(|&b| b as u8).collect();
                content.bytes(&src);
            } else {
                let src: Vec<u8> = table.src.iter().flat_map(|b| b.to_le_bytes()).collect();
                content.bytes(&src);
            }
            content.bytes(&table.add);
        }
        content.str("solved").bytes(&self.solved.0);
        self.wild.describe(content);
        content.str("illegal").u64(self.illegal.len() as u64);
        for (byte, mask) in &self.illegal {
            content.u64((*byte).into());
            for &word in mask {
                content.u64(word);
            }
        }
    }
}

impl<const N: usize> GoalSet for PermSpace<N> {
    fn goals(&self, visit: &mut dyn FnMut(Packed<N>)) {
        visit(self.solved)
    }
}

impl<const N: usize> Invariant for PermSpace<N> {
    fn unsolvable_by(&self, state: Packed<N>) -> Option<&'static str> {
        self.layout.unsolvable_by(&state.0)
    }
}

/// The index of [`index`](super::index); declared by the plugin only when
/// [`indexable`](PermSpace::indexable).
impl<const N: usize> Indexed for PermSpace<N> {
    fn size(&self) -> u128 {
        self.layout.size()
    }

    #[inline]
    fn index(&self, state: Packed<N>) -> u64 {
        self.layout.index(&state.0)
    }

    #[inline]
    fn state(&self, index: u64) -> Packed<N> {
        let mut bytes = [0u8; N];
        self.layout.state(index, &mut bytes);
        Packed(bytes)
    }
}

/// Conjugation by the definition's rotations and their mirror images that map the moves onto
/// themselves (see [`symmetry`](super::symmetry)); the least byte array of an orbit stands for
/// it.
impl<const N: usize> Symmetric for PermSpace<N> {
    #[inline]
    fn images<F: FnMut(Packed<N>)>(&self, state: Packed<N>, visit: F) {
        self.symmetries.images(&state, visit)
    }

    #[inline]
    fn is_representative(&self, state: Packed<N>) -> bool {
        self.symmetries.is_least(&state)
    }

    #[inline]
    fn representative(&self, state: Packed<N>) -> Packed<N> {
        self.symmetries.canonical(state)
    }

    #[inline]
    fn orbit<F: FnMut(Packed<N>)>(&self, state: Packed<N>, mut visit: F) -> Packed<N> {
        let mut least = state;
        self.symmetries.images(&state, |image| {
            least = least.min(image);
            visit(image)
        });
        least
    }
}

/// Classes before the cut times classes after it and the twists (see
/// [`Layout::split_low_count`]), except where an `Illegal` rule blocks moves (Square-1): then
/// states do not all have the same moves.
impl<const N: usize> SplitMoves for PermSpace<N> {
    fn low_count(&self) -> Option<u64> {
        (self.indexable() && self.illegal.is_empty()).then(|| self.layout.split_low_count())
    }
}

/// The state text of [`Definition::format_state`] (`CORNERS 0 1 2 ... / 0 0 ...`, one orbit a
/// line, 0-based); scrambles in the definition's move names, applied to the solved state.
impl<const N: usize> BoardFormat for PermSpace<N> {
    /// The board text, or a twsearch position block (`Scramble NAME` ... `End`, as a `.scr`
    /// file holds them: [`tws::parse_position`](super::tws::parse_position)).
    fn parse(&self, text: &BoardText) -> Result<Packed<N>> {
        let state = match super::tws::is_position(&text.text) {
            true => super::tws::parse_position(
                &self.def,
                &text.text,
                &text.file,
                text.first_line,
                &mut Setup::default(),
            )?,
            false => self.def.parse_state(&text.text, &Self::location(text))?,
        };
        self.legal(self.normalize(self.packer.pack(&state)), text)
    }

    fn format(&self, state: Packed<N>) -> String {
        self.def.format_state(&self.packer.unpack(&state))
    }

    /// Any move of the definition may appear (derived moves and generators left out of
    /// `moves` too): a scramble outside the searched group is proven unsolvable by the
    /// invariants, or searched to exhaustion. `#` starts a comment to the end of its line.
    fn parse_scramble(&self, text: &BoardText, setup: &mut Setup) -> Result<Packed<N>> {
        let at = |line| text.location(line);
        let t = self.def.scramble_transform(&text.text, &at, setup)?;
        let state = self
            .packer
            .pack(&self.def.solved.apply(&t, &self.def.orbits));
        self.legal(self.normalize(state), text)
    }
}
