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
//! Reflections are not found: a mirror image reverses twists (`o -> -o`), which no transform of
//! the definition (a permutation plus added twists) expresses.
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

/// The most group elements the closure of the rotations may reach before it is abandoned (no
/// symmetry is used): the cube's rotations are 24, the dodecahedron's 60, and a definition whose
/// "rotations" generate more is not a rigid puzzle's.
pub const MAX_SYMMETRIES: usize = 1024;

/// The symmetries of a space: every kept rotation but the identity, compiled (see the module
/// docs), and the rotations they were generated from.
#[derive(Clone, Debug, Default)]
pub struct Symmetries {
    maps: Vec<Conjugation>,
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
        let maps: Vec<Conjugation> = group
            .iter()
            .filter(|r| !r.is_identity())
            .filter_map(|r| {
                let back = r.inverse(&def.orbits);
                let images = moves.iter().map(|m| {
                    let image = back.then(m, &def.orbits).then(r, &def.orbits);
                    searched.get(&image).copied()
                });
                let images: Option<Box<[u16]>> = images.collect();
                let mut map = Conjugation::new(def, r, packer)?;
                map.moves = images?;
                Some(map)
            })
            .collect();
        let refused = maps
            .is_empty()
            .then_some("no rotation maps the searched moves onto themselves");
        Symmetries {
            maps,
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
    /// ([`relabelled`](Self::relabelled)); a twist byte is byte `src` plus the twist
    /// [`retwisted`](Self::retwisted) gives the label at byte `label`, plus `add`, modulo the
    /// orbit's orientations. A reader of a few bytes of an image (a pattern's projection) can
    /// compose these once and make only those bytes.
    pub fn byte_rule(&self, k: usize, b: ByteIndex) -> (ByteIndex, ByteIndex, u8) {
        let rule = &self.maps[k].bytes[usize::from(b)];
        (rule.src, rule.label, rule.add)
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
    /// `r` compiled for `packer`, or `None` when it does not map look-alike pieces consistently.
    fn new<const N: usize>(def: &Definition, r: &Transform, packer: &Packer<N>) -> Option<Self> {
        // Where `r⁻¹` takes the solved state: label `a` becomes `relabel[a]` with `retwist[a]`
        // more twist.
        let moved = def.solved.apply(&r.inverse(&def.orbits), &def.orbits);
        let orbits = def.orbits.len();
        let mut relabel = vec![0u8; 256 * orbits].into_boxed_slice();
        let mut retwist = vec![0u8; 256 * orbits].into_boxed_slice();
        for (k, orbit) in def.orbits.iter().enumerate() {
            let (solved, moved) = (&def.solved.orbits[k], &moved.orbits[k]);
            let m = orbit.orientations;
            let mut seen = [false; 256];
            for slot in 0..orbit.pieces {
                let label = usize::from(solved.pieces[slot]);
                let twist = (moved.orientation[slot] + m - solved.orientation[slot]) % m;
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
mod tests {
    use crate::def::{Definition, Metric};
    use crate::{PermSpace, tws};
    use statespace::error::Location;
    use statespace::limit::Limits;
    use statespace::options::SearchOptions;
    use statespace::random::Lcg;
    use statespace::search::table;
    use statespace::setup::Setup;
    use statespace::space::{Indexed, StateSpace, Symmetric};
    use std::path::PathBuf;

    fn def(name: &str) -> Definition {
        let limits = Limits::default();
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../../configs/defs/{name}.tws"));
        tws::read(&path, &mut Setup::new(&limits)).unwrap()
    }

    fn space<const N: usize>(name: &str, moves: Option<&[&str]>) -> PermSpace<N> {
        let limits = Limits::default();
        let d = def(name);
        let names: Option<Vec<String>> = moves.map(|m| m.iter().map(|s| s.to_string()).collect());
        let powers = d
            .generators(
                names.as_deref(),
                Metric::Htm,
                &Location::file("test"),
                &mut Setup::new(&limits),
            )
            .unwrap();
        PermSpace::<N>::new(d, &powers, false, &mut Setup::new(&limits)).unwrap()
    }

    #[test]
    fn perm_symmetries_are_the_rotations_that_keep_the_moves() {
        let cube = space::<64>("3x3x3-rotations", None);
        assert_eq!(cube.symmetries().order(), 24);
        assert_eq!(cube.symmetries().generators(), ["x", "y", "z"]);
        assert_eq!(
            space::<16>("2x2x2-rotations", None).symmetries().order(),
            24
        );
        // The DBL corner fixed: the turns about the UFR-DBL diagonal map U -> F -> R.
        assert_eq!(
            space::<16>("2x2x2-rotations", Some(&["U", "F", "R"]))
                .symmetries()
                .order(),
            3
        );
        // The half turn about the axis through the UR edge swaps U and R.
        assert_eq!(
            space::<16>("2x2x2-rotations", Some(&["U", "R"]))
                .symmetries()
                .order(),
            2
        );
        let lone = space::<16>("2x2x2-rotations", Some(&["U"]));
        // The turns about the U axis keep U.
        assert_eq!(lone.symmetries().order(), 4);
        // No rotations in the file: none, and nothing to explain.
        let plain = space::<64>("3x3x3", None);
        assert_eq!(
            (plain.symmetries().order(), plain.symmetries().refused()),
            (1, None)
        );
    }

    /// Each symmetry fixes solved and renames moves consistently: the image of `s · m` is the
    /// image of `s` followed by one move `σ(m)`, the same for every state, so the symmetry is
    /// an automorphism of the graph and keeps every distance.
    #[test]
    fn perm_images_fix_solved_and_rename_moves() {
        fn check<const N: usize>(space: &PermSpace<N>) {
            let order = space.symmetries().order() - 1;
            let images = |s| {
                let mut all = Vec::new();
                space.images(s, |i| all.push(i));
                assert_eq!(all.len(), order);
                all
            };
            assert!(images(space.solved()).iter().all(|&i| i == space.solved()));
            let moves = space.moves();
            // sigma[k][m]: the move symmetry k renames move m to, once seen.
            let mut sigma = vec![vec![None; moves.len()]; order];
            let mut rng = Lcg(7);
            let mut s = space.solved();
            for _ in 0..60 {
                s = space.apply(s, moves[rng.below(moves.len())]);
                let from = images(s);
                for (m, &mv) in moves.iter().enumerate() {
                    let to = images(space.apply(s, mv));
                    for k in 0..order {
                        let renamed = moves.iter().position(|&r| space.apply(from[k], r) == to[k]);
                        let renamed = renamed.expect("the image of a move is a move");
                        assert_eq!(*sigma[k][m].get_or_insert(renamed), renamed);
                    }
                }
            }
        }
        check(&space::<64>("3x3x3-rotations", None));
        check(&space::<16>("2x2x2-rotations", Some(&["U", "F", "R"])));
    }

    /// The distance table built one orbit at a time is the plain one, entry for entry, and the
    /// orbits' representatives are the states of least bytes.
    #[test]
    fn perm_symmetric_table_equals_the_plain_table() {
        let space = space::<16>("2x2x2-rotations", Some(&["U", "R"]));
        let limits = Limits::default();
        let plain = table::build_with(&space, &limits, table::Width::Auto).unwrap();
        let symmetric = table::build_symmetric(&space, &limits, table::Width::Auto).unwrap();
        let (mut positions, mut orbits) = (0, 0);
        for i in 0..space.size() as u64 {
            let s = space.state(i);
            let d = plain.distance(&space, s).unwrap();
            assert_eq!(d, symmetric.distance(&space, s).unwrap(), "state {i}");
            space.images(s, |image| {
                assert_eq!(plain.distance(&space, image).unwrap(), d)
            });
            positions += usize::from(d.is_some());
            if d.is_some() && space.is_representative(s) {
                orbits += 1;
                assert_eq!(space.symmetries().canonical(s), s);
            }
        }
        // The half turn fixes few positions, so the orbits are a little over half of them.
        assert_eq!(positions, 29_160);
        assert!(orbits > 29_160 / 2 && orbits < 29_160 / 2 + 500, "{orbits}");
        assert!(space.is_goal(space.solved()));
    }

    /// The symmetric pruning table against the plain one on the 2x2x2 with every face turn (24
    /// rotations): at one depth the same estimate for every state looked at, about a
    /// twentieth of the cells; a level deeper (which the same bytes hold) an estimate as large
    /// or larger, never above the distance; and IDA* over either finds the same lengths.
    #[test]
    fn perm_symmetric_pruning_table_gives_the_same_or_larger_estimates() {
        use statespace::search::pruning::{Growth, PruningTable};
        use statespace::search::{Outcome, idastar};
        let space = space::<16>("2x2x2-rotations", None);
        let limits = Limits::default();
        let growth = Growth {
            bytes: 1 << 22,
            first_bytes: 1 << 22,
            first_work: 0,
            pays: u64::MAX,
        };
        let plain = PruningTable::new(&space, &limits, growth).unwrap();
        let symmetric = PruningTable::symmetric(&space, &limits, growth).unwrap();
        assert_eq!(symmetric.orbit_size(), 24);
        for _ in 0..4 {
            assert!(plain.deepen(&space).unwrap() && symmetric.deepen(&space).unwrap());
        }
        assert_eq!((plain.depth(), symmetric.depth()), (4, 4));
        let (p, s) = (plain.fill(), symmetric.fill());
        // 1 + 18 + 243 + 2,874 + 28,000 = 31,136 positions (a few share a cell); far fewer
        // orbits, and a sixth of the walk.
        assert!(p.filled <= 31_136 && p.filled > 30_900, "{}", p.filled);
        assert!(s.filled * 15 < p.filled, "{} orbits", s.filled);
        assert!(s.work * 5 < p.work, "{} of {}", s.work, p.work);
        let mut rng = Lcg(11);
        let moves = space.moves();
        let scrambles: Vec<_> = (0..300)
            .map(|k| {
                let mut state = space.solved();
                for _ in 0..k % 9 {
                    state = space.apply(state, moves[rng.below(moves.len())]);
                }
                state
            })
            .collect();
        // The distances, by IDA* over the plain table; over the symmetric one the same.
        let exact: Vec<u32> = scrambles
            .iter()
            .map(|&state| {
                let length = |outcome| match outcome {
                    Outcome::Solved(path) => path.len() as u32,
                    other => panic!("{other:?}"),
                };
                let d = length(
                    idastar::solve(&space, &plain, state, &limits, &SearchOptions::default())
                        .outcome,
                );
                assert_eq!(
                    d,
                    length(
                        idastar::solve(
                            &space,
                            &symmetric,
                            state,
                            &limits,
                            &SearchOptions::default()
                        )
                        .outcome
                    )
                );
                d
            })
            .collect();
        // Both admissible, both exact inside the depth (d + 1 outside) unless a nearer state
        // shares the cell: at 4 Mi cells, rarely.
        let exact_at = |table: &PruningTable<PermSpace<16>>| {
            let mut hits = 0;
            for (&state, &d) in scrambles.iter().zip(&exact) {
                let estimate = table.distance(&space, state);
                assert!(estimate <= d, "{estimate} > {d}");
                hits += usize::from(estimate == d.min(table.depth() + 1));
            }
            hits
        };
        assert!(exact_at(&plain) >= 295 && exact_at(&symmetric) >= 295);
        // A level deeper in the symmetric table: as large or larger, and larger somewhere.
        assert!(symmetric.deepen(&space).unwrap());
        assert!(exact_at(&symmetric) >= 295);
        let (mut larger, mut smaller) = (0, 0);
        for &state in &scrambles {
            let (deeper, shallow) = (
                symmetric.distance(&space, state),
                plain.distance(&space, state),
            );
            larger += usize::from(deeper > shallow);
            smaller += usize::from(deeper < shallow);
        }
        assert!(
            larger >= 20 && smaller <= 3,
            "{larger} larger, {smaller} smaller"
        );
    }

    /// `explore --symmetry`'s count on the 2x2x2 with rotations, turned with U, F, R (the three
    /// turns about the UFR-DBL diagonal keep the moves): near solved, the orbits a brute force
    /// finds (a breadth-first search with a hash set, each orbit as the set of its states) and
    /// Burnside's count (the mean number of states each symmetry fixes), depth by depth; over
    /// the whole space, Burnside's total; and the least of an orbit found early as the least
    /// of all of it (3x3x3, 24 rotations).
    #[test]
    fn perm_classes_by_distance_match_brute_force_and_burnside() {
        use statespace::search::layers::{self, classes};
        use std::collections::HashSet;
        let cube = space::<64>("3x3x3-rotations", None);
        let space = space::<16>("2x2x2-rotations", Some(&["U", "F", "R"]));
        let order = space.symmetries().order();
        assert_eq!(order, 3);
        let sweep = |limits: &Limits| {
            let options = layers::Options {
                limits,
                threads: Some(2),
            };
            let each = layers::split_backward_each::<PermSpace<16>>;
            classes::backward(&space, each, options, &mut |_, _| {}).unwrap()
        };
        let depth = 7;
        let near = Limits {
            max_depth: Some(depth),
            ..Limits::default()
        };
        let (layers, counted) = sweep(&near);
        assert_eq!(counted.symmetries, 3);
        // The brute force: layer by layer from solved.
        let mut seen = HashSet::from([space.solved()]);
        let mut layer = vec![space.solved()];
        for d in 0..=depth as usize {
            let mut orbits = HashSet::new();
            let mut fixed = 0;
            for &s in &layer {
                let mut orbit = vec![s];
                space.images(s, |image| {
                    orbit.push(image);
                    fixed += usize::from(image == s);
                });
                orbit.sort_unstable();
                orbit.dedup();
                orbits.insert(orbit);
            }
            assert_eq!(layers.histogram[d], layer.len() as u64, "depth {d}");
            assert_eq!(counted.histogram[d], orbits.len() as u64, "depth {d}");
            assert_eq!((layer.len() + fixed) % order, 0);
            assert_eq!(counted.histogram[d], ((layer.len() + fixed) / order) as u64);
            let mut next = Vec::new();
            for &s in &layer {
                space.successors(s, &mut |_, t| {
                    if seen.insert(t) {
                        next.push(t)
                    }
                });
            }
            layer = next;
        }
        // The whole space: 3,674,160 positions; Burnside over every one of them.
        let (layers, counted) = sweep(&Limits::default());
        assert_eq!(layers.histogram.iter().sum::<u64>(), 3_674_160);
        assert_eq!(counted.histogram.len(), 12);
        let mut fixed = 0u64;
        for i in 0..space.size() as u64 {
            let s = space.state(i);
            space.images(s, |image| fixed += u64::from(image == s));
        }
        assert_eq!(counted.total(), (3_674_160 + fixed) / 3);
        // 1,224,828: the 162 positions the two turns fix (a few more than a third).
        assert_eq!(counted.total(), 1_224_828);
        // The early exit of `is_least` against the whole canonical form.
        let mut rng = Lcg(5);
        let mut s = cube.solved();
        let moves = cube.moves();
        let mut least = 0;
        for _ in 0..3_000 {
            s = cube.apply(s, moves[rng.below(moves.len())]);
            for t in [s, cube.symmetries().canonical(s)] {
                let is_least = cube.symmetries().is_least(&t);
                assert_eq!(is_least, cube.symmetries().canonical(t) == t);
                least += usize::from(is_least);
            }
        }
        assert!(least >= 3_000, "{least}");
    }
}
