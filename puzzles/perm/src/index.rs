//! The dense index of a permutation puzzle's states, and the invariants behind it.
//!
//! # Classes
//!
//! Pieces never leave the slots the generators can carry them to: the slots of an orbit split
//! into *classes*, the cycles of the generators' permutations joined (a union-find over
//! `slot ~ perm[slot]`). A slot no generator moves is a class of its own (the 2x2x2 corner that
//! U, F, R never touch; a Pyraminx centre that only twists). The index is a mixed-radix number
//! with, per class in orbit and slot order:
//!
//! - the **arrangement** of its pieces: the lexicographic rank of the class's labels (relabelled
//!   `0..k` by value) as a permutation ([`Permutations`]) when the solved state's labels in the
//!   class are distinct, else as a multiset ([`Multiset`]: look-alike pieces); a class of one
//!   slot has one arrangement;
//! - one **orientation** digit per slot (orbits with more than one orientation), except that the
//!   last slot's digit has fewer values when the generators fix the orientation sum (below).
//!
//! # Invariants found from the generators
//!
//! - **Orientation sum.** A move adds its deltas over a class's slots to the class's
//!   orientation sum. With `g = gcd(o, every generator's delta sum over the class)`, the sum
//!   modulo `g` never changes, so the last slot's orientation is its solved residue plus `g`
//!   times a digit in `0..o / g` (the 2x2x2: `g = 3`, the last corner's twist is determined; a
//!   slot that is never twisted: `g = o`, nothing to store).
//! - **Parity.** For classes of distinct pieces, a move changes each class's permutation parity
//!   by the parity of its cycles there: a vector over GF(2). Every vector orthogonal to all the
//!   generators' vectors is an invariant (the parities it picks XOR to their solved value). A
//!   row reduction of the generators' vectors gives a basis in which each invariant determines
//!   one class (a *free* column) from classes that are ranked in full (the pivots): that class
//!   is ranked among the permutations of its one possible parity, half of them. This covers a
//!   class whose every move is even (LoopOver 3x3: 9! / 2) and a joint parity across orbits
//!   (the 3x3x3's corners and edges).
//!
//! # Where the index splits
//!
//! The digits are the ranked classes' arrangements, then the twists, and a move changes each
//! class on its own (classes are closed under the moves; a twist belongs to its slot). So the
//! index is `high * L + low` for any cut between two ranked classes or before the twists, `L`
//! the radix of the digits after the cut, and a move maps `high` and `low` separately: what the
//! block sweep ([`SplitMoves`](statespace::space::SplitMoves)) tabulates, `(H + L) * moves`
//! entries. One exception: a half-ranked class's rank is a permutation only together with the
//! parity of the classes it depends on, so a cut never separates them (the 3x3x3's edges stay
//! with its corners). [`Layout::split_low_count`] takes, of the cuts that are left, the one with
//! the smallest `H + L`:
//!
//! - a puzzle that twists and has one class of places (the 2x2x2: `8! * 3^7`) cuts before the
//!   twists, `L = 2187`, as the block sweep was first written for;
//! - a puzzle with no twists but several classes (the puzzler's challenger: corners `10! / (5!
//!   5!) = 252` times edges `11! / (4! 4! 3!) = 11,550`) cuts between classes, `L = 11,550`,
//!   where the twists alone gave blocks of one state and a sweep state by state;
//! - one class and no twists (LoopOver) has no cut but the one before everything, one block of
//!   every state: its table is a successor per state, a sweep state by state already, so it is
//!   swept state by state.
//!
//! The smallest tables are also the cheapest to fill (a successor per entry); the cost of a
//! larger `L` is a block's scratch and the low table's rows, which stream in order.
//!
//! # What it does not see, and the trade-off
//!
//! Other invariants (the Skewb's orientation, which ties twists to positions across orbits;
//! the cube's centre orientation when centres are omitted) are not detected: the index then
//! covers more states than are reachable (the Skewb around a fixed corner: 28,343,520 indices for
//! 3,149,280 positions, 9 times as many). Engines stay exact (a bitset bit per index, most of them
//! never set); `explore` prints the reachable count next to the space size. A Schreier-Sims
//! group order would tell the true size, but not how to index it densely.
//!
//! Every state the index is asked about must satisfy the invariants
//! ([`Layout::unsolvable_by`] says which one a state breaks): the plugin consults them before
//! any engine starts, and moves keep them.

use statespace::rank::{Multiset, Permutations, parity};

use super::def::{ByteIndex, Definition, Transform};

/// How one class ranks its arrangement.
#[derive(Clone, Copy, Debug)]
enum Ranker {
    /// One slot: one arrangement.
    One,
    /// Distinct pieces, every permutation.
    Full(Permutations),
    /// Distinct pieces, one parity (determined by other classes or fixed).
    Half(Permutations),
    /// Look-alike pieces.
    Multi(Multiset),
}

/// One class of slots (see the module docs).
#[derive(Clone, Debug)]
struct Class {
    /// The orbit's index in the definition.
    orbit: usize,
    /// The class's slots in the orbit, ascending.
    slots: Vec<usize>,
    /// The label byte of each slot, in slot order.
    labels: Vec<ByteIndex>,
    /// The orientation byte of each slot (empty for orbits of one orientation).
    oris: Vec<ByteIndex>,
    /// The orbit's orientation count.
    orientations: u8,
    /// The orientation sum is fixed modulo `step` (1: not at all).
    step: u8,
    /// The solved orientation sum modulo `step`.
    residue: u8,
    /// `symbol[label]`: the label's rank among the class's labels; 255 for labels not in it.
    symbol: Box<[u8; 256]>,
    /// `label[symbol]`.
    label: Vec<u8>,
    /// How many slots hold each symbol.
    counts: Vec<u8>,
    ranker: Option<Ranker>,
    /// Arrangements: the radix of the rank digit.
    arrangements: u64,
    /// The solved state's parity of the class (distinct classes).
    solved_parity: bool,
    /// For a [`Ranker::Half`] class, the classes whose parities XOR (with `solved_xor`) to its
    /// own: a mask over [`Layout::classes`] (pivot classes, all ranked before it).
    parity_of: u64,
    /// The solved value of the XOR of the classes in `parity_of` and this one.
    solved_xor: bool,
}

/// The classes, their radices, and the invariants (see the module docs).
#[derive(Clone, Debug)]
pub struct Layout {
    classes: Vec<Class>,
    /// The product of every radix.
    size: u128,
    /// Every class can be ranked and `size` fits a `u64`, and no twist is wild.
    indexable: bool,
    /// The definition leaves some twists unknown ([`Definition::wild`]).
    wild: bool,
    /// Invariant parity sets (masks over classes) with their solved XOR, for the proof.
    parity_sets: Vec<(u64, bool)>,
    /// The flat digit lists of the index.
    fast: Digits,
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// What the index needs of the byte layout: per orbit, the first label byte, the first
/// orientation byte (if any) and the slot count ([`Packer::orbit_bytes`](super::Packer::orbit_bytes)).
pub type OrbitBytes = [(usize, Option<usize>, usize)];

impl Layout {
    /// The classes of `def`'s slots under `generators`, with the bytes of `bytes`.
    pub fn new(def: &Definition, generators: &[&Transform], bytes: &OrbitBytes) -> Layout {
        let mut classes = Vec::new();
        for (o, orbit) in def.orbits.iter().enumerate() {
            let n = orbit.pieces;
            // Union-find over the slots: a slot and the one it receives from share a class.
            let mut parent: Vec<usize> = (0..n).collect();
            fn root(parent: &mut [usize], mut i: usize) -> usize {
                while parent[i] != i {
                    parent[i] = parent[parent[i]];
                    i = parent[i];
                }
                i
            }
            for g in generators {
                for (i, &p) in g.orbits[o].perm.iter().enumerate() {
                    let (a, b) = (root(&mut parent, i), root(&mut parent, p as usize));
                    parent[a.max(b)] = a.min(b);
                }
            }
            let (first_label, first_ori, _) = bytes[o];
            let mut members: Vec<Vec<usize>> = vec![Vec::new(); n];
            for slot in 0..n {
                let r = root(&mut parent, slot);
                members[r].push(slot);
            }
            for slots in members.into_iter().filter(|m| !m.is_empty()) {
                classes.push(Class::new(
                    def,
                    o,
                    &slots,
                    generators,
                    first_label,
                    first_ori,
                ));
            }
        }
        let mut layout = Layout {
            classes,
            size: 1,
            indexable: !def.has_wild(),
            wild: def.has_wild(),
            parity_sets: Vec::new(),
            fast: Digits::default(),
        };
        layout.parities(generators);
        for c in &layout.classes {
            layout.size = layout.size.saturating_mul(c.radix());
            layout.indexable &= c.ranker.is_some();
        }
        layout.fast = layout.digits();
        // Every ranked class has at least 2 arrangements, so at most 63 fit a u64 (`state`
        // keeps their ranks in a fixed array).
        layout.indexable &= layout.size <= u128::from(u64::MAX) && layout.fast.ranked.len() <= 64;
        layout
    }

    /// Finds the parity invariants and marks the classes they determine as half-ranked.
    fn parities(&mut self, generators: &[&Transform]) {
        // Classes of distinct pieces with at least two slots, at most 64 of them (a mask).
        let distinct: Vec<usize> = (0..self.classes.len())
            .filter(|&c| {
                let class = &self.classes[c];
                // Masks over classes are u64s.
                c < 64
                    && class.labels.len() >= 2
                    && class.labels.len() <= 64
                    && class.counts.iter().all(|&k| k == 1)
            })
            .collect();
        // One row per generator: bit k is the parity of its permutation on class distinct[k].
        let places: Vec<[u8; 256]> = distinct.iter().map(|&c| self.classes[c].places()).collect();
        let mut rows: Vec<u64> = generators
            .iter()
            .map(|g| {
                let mut row = 0u64;
                for (k, &c) in distinct.iter().enumerate() {
                    if self.classes[c].move_parity(g, &places[k]) {
                        row |= 1 << k;
                    }
                }
                row
            })
            .collect();
        // Reduced row echelon form over GF(2).
        let mut pivots: Vec<(usize, u64)> = Vec::new();
        let mut used = vec![false; rows.len()];
        for col in 0..distinct.len() {
            let bit = 1u64 << col;
            let Some(r) = (0..rows.len()).find(|&r| !used[r] && rows[r] & bit != 0) else {
                continue;
            };
            used[r] = true;
            let pivot = rows[r];
            for (q, row) in rows.iter_mut().enumerate() {
                if q != r && *row & bit != 0 {
                    *row ^= pivot;
                }
            }
            for (_, p) in pivots.iter_mut() {
                if *p & bit != 0 {
                    *p ^= pivot;
                }
            }
            pivots.push((col, pivot));
        }
        let is_pivot = |col: usize| pivots.iter().any(|&(c, _)| c == col);
        for free in (0..distinct.len()).filter(|&c| !is_pivot(c)) {
            // The invariant: class `free` XOR the pivots whose reduced row has bit `free`.
            let mut mask = 0u64;
            for &(col, row) in &pivots {
                if row >> free & 1 == 1 {
                    mask |= 1 << distinct[col];
                }
            }
            let class_bit = 1u64 << distinct[free];
            let solved = self.xor_of(mask | class_bit, |c| c.solved_parity);
            self.parity_sets.push((mask | class_bit, solved));
            let class = &mut self.classes[distinct[free]];
            let n = class.labels.len() as u32;
            if n <= Permutations::MAX_LEN {
                class.ranker = Some(Ranker::Half(Permutations::new(n)));
                class.arrangements /= 2;
            }
            class.parity_of = mask;
            class.solved_xor = solved;
        }
    }

    fn xor_of(&self, mask: u64, parity: impl Fn(&Class) -> bool) -> bool {
        self.classes
            .iter()
            .enumerate()
            .filter(|&(c, _)| c < 64 && mask >> c & 1 == 1)
            .fold(false, |acc, (_, class)| acc ^ parity(class))
    }

    /// The number of indices: the product of every class's radix (saturating).
    pub fn size(&self) -> u128 {
        self.size
    }

    /// True when every state has an index below `size() <= u64::MAX`.
    pub fn indexable(&self) -> bool {
        self.indexable
    }

    /// Why not [`indexable`](Self::indexable), in words for `explore` (`None` when it is): a
    /// class too long to rank, or more indices than a `u64` counts (with their number).
    pub fn why_not_indexable(&self) -> Option<String> {
        if self.indexable {
            return None;
        }
        if self.wild {
            return Some(
                "the definition leaves some twists unknown (?), and the dense index would count \
                 them"
                    .into(),
            );
        }
        if let Some(c) = self.classes.iter().find(|c| c.ranker.is_none()) {
            let n = c.labels.len();
            let limit = match c.counts.iter().all(|&k| k == 1) {
                true => format!("{} distinct pieces", Permutations::MAX_LEN),
                false => format!("{} look-alike pieces", Multiset::MAX_CELLS),
            };
            return Some(format!(
                "a class of {n} slots is more than its rank takes (at most {limit})"
            ));
        }
        if self.size <= u128::from(u64::MAX) {
            return Some(format!(
                "{} classes of pieces, more than the 64 it ranks",
                self.fast.ranked.len()
            ));
        }
        // The number of indices as a float: the product saturates.
        let log10: f64 = self
            .classes
            .iter()
            .map(|c| {
                let twists = c.oris.len().saturating_sub(1) as f64
                    * f64::from(c.orientations).log10()
                    + (f64::from(c.orientations) / f64::from(c.step)).log10();
                (c.arrangements as f64).log10() + if c.oris.is_empty() { 0.0 } else { twists }
            })
            .sum();
        let (exponent, mantissa) = (log10.floor(), 10f64.powf(log10 - log10.floor()));
        Some(format!(
            "its index has {mantissa:.1}e{exponent} values, more than 2^64 (1.8e19)"
        ))
    }

    /// The number of values the orientation digits take together, `L`: the index is
    /// `arrangements * L + twists` (the digits' order), and a move changes the two parts
    /// separately, since a twist belongs to its slot and the move carries it along whatever piece
    /// is there ([`SplitMoves`](statespace::space::SplitMoves)).
    pub fn twist_count(&self) -> u64 {
        let free = self.fast.orientations.iter().map(|&(_, o)| u64::from(o));
        let lasts = self
            .fast
            .lasts
            .iter()
            .map(|&(_, radix, _)| u64::from(radix));
        free.chain(lasts).product()
    }

    /// The `L` of the split the block sweep uses ([`SplitMoves`](statespace::space::SplitMoves)):
    /// the index is `high * L + low`, cut between two ranked classes or before the twists, at
    /// the cut that makes the two move tables smallest (see the module docs, "Where the index
    /// splits"). At least [`twist_count`](Self::twist_count) unless that is 1 and no cut gives
    /// blocks of two states or more.
    pub fn split_low_count(&self) -> u64 {
        let ranked = &self.fast.ranked;
        let twists = u128::from(self.twist_count());
        let size = self.size;
        // Masks over the first 64 classes (parity sets only name those).
        let bit = |k: u16| if k < 64 { 1u64 << k } else { 0 };
        let mut best: Option<(u128, u128)> = None;
        let mut low = twists;
        for cut in (0..=ranked.len()).rev() {
            if cut < ranked.len() {
                let class = &self.classes[ranked[cut] as usize];
                low = low.saturating_mul(u128::from(class.arrangements));
            }
            let (before, after) = ranked.split_at(cut);
            let before_mask = before.iter().fold(0, |m, &k| m | bit(k));
            let after_mask = after.iter().fold(0, |m, &k| m | bit(k));
            // A half-ranked class's rank means a permutation only with the parity of the
            // classes it depends on: they must be on its side of the cut.
            let apart = |side: &[u16], other: u64| {
                side.iter()
                    .all(|&k| self.classes[k as usize].parity_of & other == 0)
            };
            let splits = apart(before, after_mask) && apart(after, before_mask);
            // Blocks of one state, or one block of every state, tabulate a successor per state: a
            // sweep state by state already.
            let high = size / low;
            if !splits
                || low < 2
                || high < 2
                || low > 1 << 32
                || high > 1 << 32
                || !size.is_multiple_of(low)
            {
                continue;
            }
            let tables = high + low;
            if best.is_none_or(|(t, _)| tables < t) {
                best = Some((tables, low));
            }
        }
        best.map_or(self.twist_count(), |(_, low)| low as u64)
    }

    /// The number of classes.
    pub fn classes(&self) -> usize {
        self.classes.len()
    }

    /// Per class: its orbit, its slot count, and its radix (arrangements times orientations).
    pub fn class_shape(&self, class: usize) -> (usize, usize, u128) {
        let c = &self.classes[class];
        (c.orbit, c.labels.len(), c.radix())
    }

    /// Class `class`'s bytes and orientation rule, for the pattern databases of
    /// [`heuristic`](super::heuristic).
    pub fn class(&self, class: usize) -> ClassView<'_> {
        let c = &self.classes[class];
        ClassView {
            orbit: c.orbit,
            labels: &c.labels,
            oris: &c.oris,
            orientations: c.orientations,
            step: c.step,
            residue: c.residue,
        }
    }

    /// The invariant `bytes` (a packed state) breaks, if any: `"pieces"` (a piece outside the
    /// slots it can reach, or a slot no move touches not as solved), `"orientation"` (an
    /// orientation sum the moves keep) or `"parity"`.
    pub fn unsolvable_by(&self, bytes: &[u8]) -> Option<&'static str> {
        let mut buf = [0u8; 256];
        for c in &self.classes {
            let mut counts = [0u8; 256];
            for &b in &c.labels {
                let s = c.symbol[bytes[b as usize] as usize];
                if s == u8::MAX {
                    return Some("pieces");
                }
                counts[s as usize] += 1;
            }
            if counts[..c.counts.len()] != c.counts[..] {
                return Some("pieces");
            }
            if c.step > 1 {
                let sum: u32 = c.oris.iter().map(|&b| u32::from(bytes[b as usize])).sum();
                if sum % u32::from(c.step) != u32::from(c.residue) {
                    return Some("orientation");
                }
            }
        }
        for &(mask, solved) in &self.parity_sets {
            let mut x = false;
            for (k, c) in self.classes.iter().enumerate().take(64) {
                if mask >> k & 1 == 1 {
                    let n = c.labels.len();
                    c.symbols(bytes, &mut buf[..n]);
                    x ^= parity(&buf[..n]);
                }
            }
            if x != solved {
                return Some("parity");
            }
        }
        None
    }

    /// The flat digit lists [`index`](Self::index) walks (see [`Digits`]).
    fn digits(&self) -> Digits {
        let mut d = Digits::default();
        for (k, c) in self.classes.iter().enumerate() {
            match c.ranker {
                Some(Ranker::One) => d.constants.push((c.labels[0], c.label[0])),
                _ => d.ranked.push(k as u16),
            }
            let Some((&last, rest)) = c.oris.split_last() else {
                continue;
            };
            d.orientations
                .extend(rest.iter().map(|&b| (b, c.orientations)));
            let radix = c.orientations / c.step;
            match (c.step, radix) {
                (1, _) => d.orientations.push((last, c.orientations)),
                (_, 1) => d.fixups.push(k as u16),
                _ => {
                    d.lasts.push((last, radix, c.step));
                    d.fixups.push(k as u16);
                }
            }
        }
        d
    }

    /// The index of `bytes`, a packed state that breaks no invariant. Needs
    /// [`indexable`](Self::indexable).
    ///
    /// The digits, most significant first: every class's arrangement rank, then every free
    /// orientation, then the high part of each last orientation that is known modulo a step.
    #[inline]
    pub fn index(&self, bytes: &[u8]) -> u64 {
        let mut index = 0u64;
        let mut buf = [0u8; 64];
        for &k in &self.fast.ranked {
            let c = &self.classes[k as usize];
            let n = c.labels.len();
            c.symbols(bytes, &mut buf[..n]);
            let rank = match c.ranker {
                Some(Ranker::Full(p)) => p.rank(&buf[..n]),
                Some(Ranker::Half(p)) => p.rank_half(&buf[..n]),
                Some(Ranker::Multi(m)) => m.rank(&buf[..n]),
                Some(Ranker::One) | None => 0,
            };
            index = index * c.arrangements + rank;
        }
        for &(b, o) in &self.fast.orientations {
            index = index * u64::from(o) + u64::from(bytes[b as usize]);
        }
        for &(b, radix, step) in &self.fast.lasts {
            index = index * u64::from(radix) + u64::from(bytes[b as usize] / step);
        }
        index
    }

    /// Writes the state of `index` (below [`size`](Self::size)) into `bytes` (the used bytes of
    /// a packed state; every one is written).
    pub fn state(&self, mut index: u64, bytes: &mut [u8]) {
        let fast = &self.fast;
        // The digits in reverse; a last orientation's high part waits in its byte.
        for &(b, radix, _) in fast.lasts.iter().rev() {
            bytes[b as usize] = (index % u64::from(radix)) as u8;
            index /= u64::from(radix);
        }
        for &(b, o) in fast.orientations.iter().rev() {
            bytes[b as usize] = (index % u64::from(o)) as u8;
            index /= u64::from(o);
        }
        let mut ranks = [0u64; 64];
        for (r, &k) in fast.ranked.iter().enumerate().rev() {
            let c = &self.classes[k as usize];
            ranks[r] = index % c.arrangements;
            index /= c.arrangements;
        }
        for &k in &fast.fixups {
            // The last slot: the residue that makes the sum right, plus `step` times its high
            // part (0 when the orientation is fully determined).
            let c = &self.classes[k as usize];
            let (&last, rest) = c.oris.split_last().expect("fixups turn");
            let sum: u32 = rest.iter().map(|&b| u32::from(bytes[b as usize])).sum();
            let s = u32::from(c.step);
            let high = if c.orientations / c.step > 1 {
                u32::from(bytes[last as usize])
            } else {
                0
            };
            let low = (u32::from(c.residue) + s * 256 - sum % s) % s;
            bytes[last as usize] = (low + s * high) as u8;
        }
        for &(b, label) in &fast.constants {
            bytes[b as usize] = label;
        }
        // Full ranks first: a half-ranked class's parity depends on them.
        let mut parities = 0u64;
        let mut buf = [0u8; 64];
        for half in [false, true] {
            for (r, &k) in fast.ranked.iter().enumerate() {
                let c = &self.classes[k as usize];
                let k = k as usize;
                let n = c.labels.len();
                match c.ranker {
                    Some(Ranker::Half(p)) if half => {
                        let odd = c.solved_xor ^ ((parities & c.parity_of).count_ones() & 1 == 1);
                        p.unrank_half(ranks[r], odd, &mut buf[..n]);
                    }
                    Some(Ranker::Full(p)) if !half => {
                        p.unrank(ranks[r], &mut buf[..n]);
                        if k < 64 && parity(&buf[..n]) {
                            parities |= 1 << k;
                        }
                    }
                    Some(Ranker::Multi(m)) if !half => m.unrank(ranks[r], &mut buf[..n]),
                    _ => continue,
                }
                for (&b, &s) in c.labels.iter().zip(&buf[..n]) {
                    bytes[b as usize] = c.label[s as usize];
                }
            }
        }
    }
}

/// One class as [`Layout::class`] shows it.
#[derive(Clone, Copy, Debug)]
pub struct ClassView<'a> {
    /// The orbit's index in the definition.
    pub orbit: usize,
    /// The label byte of each of the class's slots, in slot order.
    pub labels: &'a [ByteIndex],
    /// The orientation byte of each slot (empty for orbits of one orientation).
    pub oris: &'a [ByteIndex],
    /// The orbit's orientation count.
    pub orientations: u8,
    /// The moves keep the orientation sum over the class fixed modulo `step` (1: not at all).
    pub step: u8,
    /// The solved orientation sum modulo `step`.
    pub residue: u8,
}

/// The index's digits as flat lists, so that [`Layout::index`] is three plain loops.
#[derive(Clone, Debug, Default)]
struct Digits {
    /// Classes with more than one arrangement, in class order.
    ranked: Vec<u16>,
    /// Label bytes of one-slot classes and their only label.
    constants: Vec<(ByteIndex, u8)>,
    /// Free orientation bytes and their orientation count.
    orientations: Vec<(ByteIndex, u8)>,
    /// Last orientation bytes known modulo `step`: (byte, values of the high part, step).
    lasts: Vec<(ByteIndex, u8, u8)>,
    /// Classes whose last orientation is rebuilt from the others' sum.
    fixups: Vec<u16>,
}

impl Class {
    fn new(
        def: &Definition,
        orbit: usize,
        slots: &[usize],
        generators: &[&Transform],
        first_label: usize,
        first_ori: Option<usize>,
    ) -> Class {
        let o = def.orbits[orbit].orientations;
        let solved = &def.solved.orbits[orbit];
        let mut label: Vec<u8> = slots.iter().map(|&s| solved.pieces[s]).collect();
        label.sort_unstable();
        label.dedup();
        let mut symbol = Box::new([u8::MAX; 256]);
        for (k, &l) in label.iter().enumerate() {
            symbol[l as usize] = k as u8;
        }
        let mut counts = vec![0u8; label.len()];
        for &s in slots {
            counts[symbol[solved.pieces[s] as usize] as usize] += 1;
        }
        let n = slots.len();
        let distinct = counts.iter().all(|&k| k == 1);
        let ranker = if n == 1 {
            Some(Ranker::One)
        } else if distinct {
            (n as u32 <= Permutations::MAX_LEN).then(|| Ranker::Full(Permutations::new(n as u32)))
        } else if n as u32 <= Multiset::MAX_CELLS {
            Multiset::new(&counts).map(Ranker::Multi)
        } else {
            None
        };
        let arrangements = match ranker {
            Some(Ranker::One) | None => 1,
            Some(Ranker::Full(p)) | Some(Ranker::Half(p)) => p.count(),
            Some(Ranker::Multi(m)) => m.count(),
        };
        // The orientation sum modulo gcd(o, every generator's delta sum over the class).
        let mut step = u32::from(o);
        for g in generators {
            let sum: u32 = slots
                .iter()
                .map(|&s| u32::from(g.orbits[orbit].delta[s]))
                .sum();
            step = gcd(step, sum % u32::from(o));
        }
        // Wild pieces' twists are set to 0 after every move: no sum is kept.
        if slots.iter().any(|&s| def.is_wild(orbit, solved.pieces[s])) {
            step = 1;
        }
        let residue = slots
            .iter()
            .map(|&s| u32::from(solved.orientation[s]))
            .sum::<u32>()
            % step;
        let mut class = Class {
            orbit,
            slots: slots.to_vec(),
            // Bytes of a state the `Packer` laid out: below `ByteIndex::MAX`.
            labels: slots
                .iter()
                .map(|&s| (first_label + s) as ByteIndex)
                .collect(),
            oris: first_ori
                .map(|at| slots.iter().map(|&s| (at + s) as ByteIndex).collect())
                .unwrap_or_default(),
            orientations: o,
            step: step as u8,
            residue: residue as u8,
            symbol,
            label,
            counts,
            ranker,
            arrangements,
            solved_parity: false,
            parity_of: 0,
            solved_xor: false,
        };
        if distinct && (2..=64).contains(&n) {
            let mut buf = [0u8; 64];
            for (k, &s) in slots.iter().enumerate() {
                buf[k] = class.symbol[solved.pieces[s] as usize];
            }
            class.solved_parity = parity(&buf[..n]);
        }
        class
    }

    /// Arrangements times orientation values.
    fn radix(&self) -> u128 {
        let mut r = u128::from(self.arrangements);
        if !self.oris.is_empty() {
            let o = u128::from(self.orientations);
            r = r.saturating_mul(o.saturating_pow(self.oris.len() as u32 - 1));
            r = r.saturating_mul(o / u128::from(self.step));
        }
        r
    }

    /// The class's symbols, slot by slot, from packed bytes.
    #[inline]
    fn symbols(&self, bytes: &[u8], out: &mut [u8]) {
        for (o, &b) in out.iter_mut().zip(&self.labels) {
            *o = self.symbol[bytes[b as usize] as usize];
        }
    }

    /// Per slot of the orbit, its place among this class's slots (classes of distinct pieces
    /// have at most 64; 0 for slots of other classes).
    fn places(&self) -> [u8; 256] {
        let mut places = [0u8; 256];
        for (k, &slot) in self.slots.iter().enumerate() {
            places[slot] = k as u8;
        }
        places
    }

    /// The parity of `g`'s permutation restricted to this class's slots, with their
    /// [`places`](Self::places).
    fn move_parity(&self, g: &Transform, places: &[u8; 256]) -> bool {
        let perm = &g.orbits[self.orbit].perm;
        let mut local = [0u8; 64];
        for (k, &slot) in self.slots.iter().enumerate() {
            // Slots are closed under the generators: the source is in the class.
            local[k] = places[perm[slot] as usize];
        }
        parity(&local[..self.slots.len()])
    }
}
