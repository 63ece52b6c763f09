//! A permutation puzzle's symmetries: the whole-puzzle rotations of its definition that map its
//! moves onto its moves, acting on states by conjugation.
//!
//! # Which symmetries
//!
//! The definition's rotations ([`MoveDef::is_rotation`]: twsearch's `x`, `y`, `z`, `Fv`, ...;
//! derived ones too) generate a group (closed under composition here, at most
//! [`MAX_SYMMETRIES`] elements). A rotation `r` is kept when:
//!
//! - conjugation maps every chosen move onto a chosen move: `r⁻¹ · m · r` (first `r⁻¹`, then
//!   `m`, then `r`) is one of the searched powers, so a position's image has the same moves,
//!   each of the same cost. The kept rotations form a subgroup (the stabiliser of the move
//!   set): the 3x3x3's 18 face turns keep all 24 rotations; the 2x2x2 searched with U, F, R
//!   only (the DBL corner fixed) keeps the three turns about the UFR-DBL diagonal; a move set
//!   no rotation maps onto itself keeps none (the identity alone: no reduction);
//! - it maps the solved state's look-alike pieces onto look-alike pieces consistently (every
//!   slot that holds label `a` when solved receives, under `r⁻¹`, the same label and the same
//!   twist), so the image of a state does not depend on which of two look-alike pieces is
//!   which;
//! - the definition has no `Illegal` rules (they name slots, which a rotation moves: kept out
//!   rather than checked).
//!
//! Mirror images are found from the moves ([`mirror`]): a reflection reverses twists
//! (`o -> -o`), which no transform of the definition expresses, so each is a transform `μ` and a
//! flag that negates the twists first. A mirror found, followed by each rotation of the group,
//! is kept by the same rules (the cube's 24 rotations and 24 mirror images: 48). They come after
//! the rotations, in [`images`](Symmetries::images)' order.
//!
//! # The action on states
//!
//! A position is `solved · T` for a transform `T` (a move sequence); its image under `r` is
//! `solved · r⁻¹ · T · r`, the same position seen after turning the whole puzzle. The moves
//! commute with it up to renaming (`image(s · m) = image(s) · (r⁻¹ m r)`) and the solved state
//! is fixed, so a state and its images are equally far from solved: a distance table, a pruning
//! table or a sweep need only one state per orbit. On the packed bytes the image is one pass
//! (`Conjugation`): relabel each piece (`solved · r⁻¹` renames label `a` to `λ(a)` and adds a
//! twist `μ(a)`), then move the bytes as `r` does; no allocation, about one table look-up per
//! byte.
//!
//! The state that stands for an orbit is its least byte array (lexicographic): comparing bytes
//! costs less than ranking every image in the index.
//!
//! Trade-off: the images cost `|G| - 1` passes over the state per canonical form (47 on the
//! 3x3x3 with mirror images, 23 without), where twsearch's hand-tuned canonicalisation stops
//! at the first differing byte; users of the canonical form (the symmetric pruning table) pay
//! it per look-up and get tables `|G|` times smaller for it.

use super::def::{Definition, MoveDef, Transform};
use super::state::{ByteIndex, Packed, Packer};
use hashbrown::{HashMap, HashSet};

pub mod mirror;

/// The most group elements the closure of the rotations may reach before it is abandoned (no
/// symmetry is used): the cube's rotations are 24, the dodecahedron's 60, and a definition whose
/// "rotations" generate more is not a rigid puzzle's.
pub const MAX_SYMMETRIES: usize = 1024;

/// The symmetries of a space: every kept rotation but the identity, compiled (see the module
/// docs), and the rotations they were generated from.
#[derive(Clone, Debug, Default)]
pub struct Symmetries {
    /// The rotations first, then the mirror images.
    maps: Vec<Conjugation>,
    /// How many of `maps` are rotations.
    rotations: usize,
    generators: Vec<String>,
    /// Why the rotations give no symmetry, when they do not and there are some.
    refused: Option<&'static str>,
}

/// One symmetry as byte tables, one entry per used byte in byte order (see [`Byte`]).
#[derive(Clone, Debug)]
struct Conjugation {
    /// Per searched move, the searched move it becomes (`r⁻¹ · m · r`): an image's successor
    /// by it is the image of the successor by `m`.
    moves: Box<[u16]>,
    bytes: Box<[Byte]>,
    /// Per orbit, 256 entries: the label a label becomes.
    relabel: Box<[u8]>,
    /// Per orbit, 256 entries: the twist a piece of that label gains.
    retwist: Box<[u8]>,
    /// A mirror image: every twist byte is negated before the twist is added.
    negate: bool,
}

/// How one output byte is made: a label byte is byte `src` relabelled; a twist byte is byte
/// `src` plus the twist its piece gains (its label is at byte `label`) plus `add`, modulo
/// `modulus`.
#[derive(Clone, Copy, Debug)]
struct Byte {
    src: ByteIndex,
    /// The label byte of the slot `src` twists (twist bytes only).
    label: ByteIndex,
    add: u8,
    /// 0 for a label byte.
    modulus: u8,
    /// The orbit's first entry in [`Conjugation::relabel`] and [`Conjugation::retwist`].
    map: u32,
}

impl Symmetries {
    /// The symmetries of `def` searched with the transforms `moves` (see the module docs),
    /// compiled for `packer`'s layout.
    pub fn find<const N: usize>(
        def: &Definition,
        moves: &[&Transform],
        packer: &Packer<N>,
    ) -> Self {
        let generators: Vec<&MoveDef> = def.moves.iter().filter(|m| m.is_rotation()).collect();
        let names: Vec<String> = generators.iter().map(|m| m.name.clone()).collect();
        let none = |refused| Symmetries {
            maps: Vec::new(),
            rotations: 0,
            generators: names.clone(),
            refused: Some(refused),
        };
        if generators.is_empty() {
            return Symmetries::default();
        }
        if !def.illegal.is_empty() {
            return none("the definition has Illegal rules");
        }
        if def.has_wild() {
            return none("the definition leaves some twists unknown (?)");
        }
        let Some(group) = closure(def, &generators) else {
            return none("the rotations generate more than 1,024 elements");
        };
        let mut searched: HashMap<&Transform, u16> = HashMap::new();
        for (i, m) in moves.iter().enumerate().rev() {
            searched.insert(m, i as u16);
        }
        let mut maps: Vec<Conjugation> = group
            .iter()
            .filter(|r| !r.is_identity())
            .filter_map(|r| {
                let back = r.inverse(&def.orbits);
                let images = moves.iter().map(|m| {
                    let image = back.then(m, &def.orbits).then(r, &def.orbits);
                    searched.get(&image).copied()
                });
                let images: Option<Box<[u16]>> = images.collect();
                let mut map = Conjugation::new(def, r, false, packer)?;
                map.moves = images?;
                Some(map)
            })
            .collect();
        // The mirror images: a mirror found from the moves, followed by each rotation (the
        // rotations of the group, kept or not: a mirror composed with one that is not kept can
        // still keep the moves).
        let rotations = maps.len();
        if let Some(mirror) = mirror::find(def, moves, &group) {
            maps.extend(group.iter().filter_map(|r| {
                let mu = mirror.then(r, &def.orbits);
                let back = mu.inverse(&def.orbits);
                let images = moves.iter().map(|m| {
                    let flipped = mirror::negated(m, &def.orbits);
                    let image = back.then(&flipped, &def.orbits).then(&mu, &def.orbits);
                    searched.get(&image).copied()
                });
                let images: Option<Box<[u16]>> = images.collect();
                let mut map = Conjugation::new(def, &mu, true, packer)?;
                map.moves = images?;
                Some(map)
            }));
        }
        let refused = maps
            .is_empty()
            .then_some("no rotation maps the searched moves onto themselves");
        Symmetries {
            maps,
            rotations,
            generators: names,
            refused,
        }
    }

    /// The number of symmetries, the identity included: the size of the group that acts.
    pub fn order(&self) -> usize {
        self.maps.len() + 1
    }

    /// True when some symmetry other than the identity acts.
    pub fn any(&self) -> bool {
        !self.maps.is_empty()
    }

    /// The image of `state` under the `k`-th symmetry other than the identity (`k` below
    /// `order() - 1`, in the order [`images`](Self::images) visits them).
    #[inline]
    pub fn image<const N: usize>(&self, k: usize, state: &Packed<N>) -> Packed<N> {
        self.maps[k].image(state)
    }

    /// The move that the `k`-th symmetry (as in [`image`](Self::image)) makes of move `m` (by
    /// their indices in the space's order): the image of a state's successor by `m` is the
    /// image's successor by it.
    #[inline]
    pub fn move_image(&self, k: usize, m: usize) -> usize {
        usize::from(self.maps[k].moves[m])
    }

    /// How the `k`-th symmetry (as in [`image`](Self::image)) makes byte `b` of an image:
    /// `(src, label, add)`. A label byte is byte `src` of the state relabelled
    /// ([`relabelled`](Self::relabelled)); a twist byte is byte `src` (negated by a mirror:
    /// [`negates`](Self::negates)) plus the twist
    /// [`retwisted`](Self::retwisted) gives the label at byte `label`, plus `add`, modulo the
    /// orbit's orientations. A reader of a few bytes of an image (a pattern's projection) can
    /// compose these once and make only those bytes.
    pub fn byte_rule(&self, k: usize, b: ByteIndex) -> (ByteIndex, ByteIndex, u8) {
        let rule = &self.maps[k].bytes[usize::from(b)];
        (rule.src, rule.label, rule.add)
    }

    /// Whether the `k`-th symmetry is a mirror image: it negates each twist byte it reads
    /// (`o -> -o`, modulo the orbit's orientations) before adding the twists of
    /// [`byte_rule`](Self::byte_rule) and [`retwisted`](Self::retwisted).
    pub fn negates(&self, k: usize) -> bool {
        self.maps[k].negate
    }

    /// How many symmetries are mirror images ([`negates`](Self::negates)): the last ones.
    pub fn mirrors(&self) -> usize {
        self.maps.len() - self.rotations
    }

    /// The twist the `k`-th symmetry adds to a piece of `label` in orbit `orbit` (see
    /// [`byte_rule`](Self::byte_rule)).
    pub fn retwisted(&self, k: usize, orbit: usize, label: u8) -> u8 {
        self.maps[k].retwist[256 * orbit + usize::from(label)]
    }

    /// The label the `k`-th symmetry (as in [`image`](Self::image)) gives a piece of `label` in
    /// orbit `orbit`: a pattern that tracks label `b` of the image reads the piece of the state
    /// whose label becomes `b`.
    pub fn relabelled(&self, k: usize, orbit: usize, label: u8) -> u8 {
        self.maps[k].relabel[256 * orbit + usize::from(label)]
    }

    /// The definition's rotations the group was generated from.
    pub fn generators(&self) -> &[String] {
        &self.generators
    }

    /// Why the definition's rotations give no symmetry, when it has some and they give none.
    pub fn refused(&self) -> Option<&'static str> {
        self.refused
    }

    /// Why no symmetry acts (the rotations give none, or the definition has none), or `None`
    /// when some does: what a config that asks for symmetry is told.
    pub fn why_none(&self) -> Option<&'static str> {
        match self.any() {
            true => None,
            false => Some(
                self.refused
                    .unwrap_or("the definition has no rotations (x, y, z, Fv, ...)"),
            ),
        }
    }

    /// Calls `visit` with the image of `state` under every symmetry but the identity.
    #[inline]
    pub fn images<const N: usize, F: FnMut(Packed<N>)>(&self, state: &Packed<N>, mut visit: F) {
        for map in &self.maps {
            visit(map.image(state));
        }
    }

    /// The least of `state` and its images: the state that stands for its orbit. Each image
    /// is made only while it ties with the least so far (`Conjugation::lower`).
    #[inline]
    pub fn canonical<const N: usize>(&self, state: Packed<N>) -> Packed<N> {
        let mut least = state;
        for map in &self.maps {
            map.lower(&state, &mut least);
        }
        least
    }

    /// Whether `state` is the least of its orbit ([`canonical`](Self::canonical) is `state`),
    /// stopping at the first image below it: most states of an orbit of `n` have one among the
    /// first few images, so they cost a few partial images rather than `n - 1`.
    #[inline]
    pub fn is_least<const N: usize>(&self, state: &Packed<N>) -> bool {
        !self.maps.iter().any(|map| map.below(state))
    }
}

impl Conjugation {
    /// `r` compiled for `packer` (a mirror's `μ` when `negate`: see [`mirror`]), or `None` when
    /// it does not map look-alike pieces consistently.
    fn new<const N: usize>(
        def: &Definition,
        r: &Transform,
        negate: bool,
        packer: &Packer<N>,
    ) -> Option<Self> {
        // Where `r⁻¹` takes the solved state: label `a` becomes `relabel[a]` with `retwist[a]`
        // more twist. A mirror negates the twists first: a piece of label `a` whose slot has
        // twist `s` when solved and that now has `o` has `2s - o` in the negated state (`s + t`
        // becomes `s - t`), so `2s` joins its retwist (one `s` per label: look-alike pieces
        // that sit differently when solved are refused).
        let moved = def.solved.apply(&r.inverse(&def.orbits), &def.orbits);
        let orbits = def.orbits.len();
        let mut relabel = vec![0u8; 256 * orbits].into_boxed_slice();
        let mut retwist = vec![0u8; 256 * orbits].into_boxed_slice();
        for (k, orbit) in def.orbits.iter().enumerate() {
            let (solved, moved) = (&def.solved.orbits[k], &moved.orbits[k]);
            let m = orbit.orientations;
            let mut seen = [false; 256];
            let mut home = [0u8; 256];
            for slot in 0..orbit.pieces {
                let label = usize::from(solved.pieces[slot]);
                let own = solved.orientation[slot];
                if negate && seen[label] && home[label] != own {
                    return None;
                }
                home[label] = own;
                let mirrored = if negate { 2 * own % m } else { 0 };
                let twist = ((moved.orientation[slot] + m - own) % m + mirrored) % m;
                let (at_label, at_twist) =
                    (&mut relabel[256 * k + label], &mut retwist[256 * k + label]);
                if seen[label] && (*at_label, *at_twist) != (moved.pieces[slot], twist) {
                    return None;
                }
                seen[label] = true;
                (*at_label, *at_twist) = (moved.pieces[slot], twist);
            }
        }
        let table = packer.table(r);
        let modulus = packer.modulus();
        let mut bytes = vec![
            Byte {
                src: 0,
                label: 0,
                add: 0,
                modulus: 0,
                map: 0,
            };
            packer.len()
        ];
        for (k, &(first_label, first_twist, slots)) in packer.orbit_bytes().iter().enumerate() {
            let map = (256 * k) as u32;
            for slot in 0..slots {
                let at = first_label + slot;
                bytes[at] = Byte {
                    src: table.src[at],
                    map,
                    ..bytes[at]
                };
                if let Some(first) = first_twist {
                    let at = first + slot;
                    let src = usize::from(table.src[at]);
                    bytes[at] = Byte {
                        src: src as ByteIndex,
                        label: (first_label + src - first) as ByteIndex,
                        add: table.add[at],
                        modulus: modulus[at],
                        map,
                    };
                }
            }
        }
        Some(Conjugation {
            moves: Box::default(),
            bytes: bytes.into(),
            relabel,
            retwist,
            negate,
        })
    }

    /// Output byte `b` of the image of `s`.
    #[inline(always)]
    fn byte<const N: usize>(&self, s: &Packed<N>, b: &Byte) -> u8 {
        // `% N` is a mask (N is a power of two): no bounds check on the state.
        let value = s.0[usize::from(b.src) % N];
        if b.modulus == 0 {
            return self.relabel[b.map as usize + usize::from(value)];
        }
        let label = s.0[usize::from(b.label) % N];
        let gained = self.retwist[b.map as usize + usize::from(label)];
        // Each term is below the modulus (at most 127), so each sum of two is reduced by one
        // subtraction at most: no division.
        let reduce = |v: u8| if v >= b.modulus { v - b.modulus } else { v };
        let value = if self.negate {
            reduce(b.modulus - value)
        } else {
            value
        };
        reduce(value + reduce(gained + b.add))
    }

    /// The image of `s` (see the module docs).
    #[inline]
    fn image<const N: usize>(&self, s: &Packed<N>) -> Packed<N> {
        let mut out = [0u8; N];
        for (o, b) in out.iter_mut().zip(&*self.bytes) {
            *o = self.byte(s, b);
        }
        Packed(out)
    }

    /// Whether the image of `s` is smaller than `s`, making its bytes only while they tie.
    #[inline]
    fn below<const N: usize>(&self, s: &Packed<N>) -> bool {
        for (j, b) in self.bytes.iter().enumerate() {
            match self.byte(s, b).cmp(&s.0[j % N]) {
                std::cmp::Ordering::Less => return true,
                std::cmp::Ordering::Greater => return false,
                std::cmp::Ordering::Equal => {}
            }
        }
        false
    }

    /// Replaces `least` by the image of `s` when the image is smaller, making the image's
    /// bytes only while they tie with `least`'s: most images are larger at their first byte
    /// or two, so they cost a few bytes rather than the state's length.
    #[inline]
    fn lower<const N: usize>(&self, s: &Packed<N>, least: &mut Packed<N>) {
        let mut out = [0u8; N];
        for (j, b) in self.bytes.iter().enumerate() {
            let v = self.byte(s, b);
            match v.cmp(&least.0[j % N]) {
                std::cmp::Ordering::Greater => return,
                std::cmp::Ordering::Equal => out[j % N] = v,
                std::cmp::Ordering::Less => {
                    out[j % N] = v;
                    for (o, b) in out.iter_mut().zip(&*self.bytes).skip(j + 1) {
                        *o = self.byte(s, b);
                    }
                    *least = Packed(out);
                    return;
                }
            }
        }
    }
}

/// Every product of `generators`' transforms (the identity included), or `None` past
/// [`MAX_SYMMETRIES`].
fn closure(def: &Definition, generators: &[&MoveDef]) -> Option<Vec<Transform>> {
    let identity = Transform::identity(&def.orbits);
    let mut seen: HashSet<Transform> = HashSet::from([identity.clone()]);
    let mut group = vec![identity];
    let mut next = 0;
    while next < group.len() {
        for g in generators {
            let product = group[next].then(&g.transform, &def.orbits);
            if seen.insert(product.clone()) {
                if group.len() == MAX_SYMMETRIES {
                    return None;
                }
                group.push(product);
            }
        }
        next += 1;
    }
    Some(group)
}

#[cfg(test)]
mod tests;
