//! Mirror images: the symmetries no definition lists, found from its moves.
//!
//! A reflection of a cube turns every twist the other way, which no transform expresses (a
//! transform permutes slots and adds twists). It acts on transforms as `T -> μ⁻¹ · T̄ · μ`,
//! where `T̄` is `T` with every twist negated (negation is an automorphism of the twists'
//! group, so `T -> T̄` keeps products) and `μ` is a transform: the slots the mirror exchanges,
//! with the twists that fix each slot's reference direction. A mirror maps the solved state to
//! itself and each searched move to a searched move (the 3x3x3's left-right mirror makes `R`
//! of `L'`), so it keeps every distance as a rotation does; with the 24 rotations of the cube
//! they make its 48 symmetries.
//!
//! # Finding μ
//!
//! `m̄ · μ = μ · τ(m)` for each searched move `m` and its image `τ(m)`, slot by slot in the
//! [convention](crate::def#the-one-convention) with `μ = (σ, u)`:
//!
//! - the permutations: `m.perm[σ[j]] = σ[τ(m).perm[j]]`;
//! - the twists: `u[j] = u[τ(m).perm[j]] + τ(m).delta[j] + m.delta[σ[j]]`.
//!
//! A backtracking search picks the image of one slot of the first orbit, then each move's
//! image (a move of the same shape: its cycles per orbit), then the image of one slot of any
//! orbit still open, propagating the permutations' equation after each choice (a known `σ[j]`
//! fixes `σ[τ(m).perm[j]]`) and backing out of a contradiction. At a complete `(σ, τ)` the
//! twists' equations are solved by a walk from one slot per connected part (a twist added to a
//! whole orbit commutes with everything, so the start is free); a `σ` that is a rotation's
//! permutation is passed over (its twists are a rotation's). The first mirror found is checked
//! on the transforms themselves; the others are it followed by each rotation.
//!
//! Trade-off: the search runs once per space and only for a definition with rotations (the
//! cubes: a millisecond or two); it gives up after [`MAX_WORK`] slot visits (tens of
//! milliseconds), leaving the rotations alone, so a large definition or one with a huge
//! automorphism group costs a bounded setup and gets no mirrors.

use crate::def::{Definition, Orbit, OrbitTransform, Transform};
use hashbrown::HashSet;

/// The most slot visits (a choice's copy, a propagation's pass over a move's slots) the search
/// makes before it gives up (no mirror is used): a bound on the setup's time, whatever the
/// definition's size.
pub const MAX_WORK: usize = 20_000_000;

/// `t` with every twist negated (`T̄` in the module docs).
pub fn negated(t: &Transform, orbits: &[Orbit]) -> Transform {
    Transform {
        orbits: t
            .orbits
            .iter()
            .zip(orbits)
            .map(|(o, orbit)| OrbitTransform {
                perm: o.perm.clone(),
                delta: o
                    .delta
                    .iter()
                    .map(|&d| (orbit.orientations - d) % orbit.orientations)
                    .collect(),
            })
            .collect(),
    }
}

/// A mirror's `μ` for the searched `moves` of `def` (see the module docs): `None` when the
/// moves have no orientation-reversing symmetry outside `rotations`, or the search gave up.
pub fn find(def: &Definition, moves: &[&Transform], rotations: &[Transform]) -> Option<Transform> {
    let rotation_perms: HashSet<Vec<Vec<u8>>> = rotations.iter().map(perms_of).collect();
    let mut search = Search::new(def, moves, rotation_perms);
    let start = Partial {
        sigma: vec![UNSET; search.slots],
        taken: vec![false; search.slots],
        tau: vec![UNSET; moves.len()],
    };
    let mu = search.next(start)?;
    // The search's equations, checked on the transforms: each move's image is a searched move.
    let searched: HashSet<&Transform> = moves.iter().copied().collect();
    let back = mu.inverse(&def.orbits);
    moves
        .iter()
        .all(|m| {
            let image = back
                .then(&negated(m, &def.orbits), &def.orbits)
                .then(&mu, &def.orbits);
            searched.contains(&image)
        })
        .then_some(mu)
}

fn perms_of(t: &Transform) -> Vec<Vec<u8>> {
    t.orbits.iter().map(|o| o.perm.clone()).collect()
}

const UNSET: u16 = u16::MAX;

/// A partial `(σ, τ)`: slot images (global slot numbers, [`UNSET`] when open), which images
/// are taken, and move images.
#[derive(Clone)]
struct Partial {
    sigma: Vec<u16>,
    taken: Vec<bool>,
    tau: Vec<u16>,
}

struct Search<'a> {
    def: &'a Definition,
    moves: &'a [&'a Transform],
    /// Per move, its permutation over all slots (orbit by orbit, one numbering).
    perms: Vec<Vec<u16>>,
    /// Per move, its shape: the sorted cycle lengths per orbit.
    shapes: Vec<Vec<Vec<u16>>>,
    /// Per orbit, its first global slot.
    starts: Vec<usize>,
    slots: usize,
    rotation_perms: HashSet<Vec<Vec<u8>>>,
    /// Slot visits so far (see [`MAX_WORK`]).
    work: usize,
}

impl<'a> Search<'a> {
    fn new(
        def: &'a Definition,
        moves: &'a [&'a Transform],
        rotation_perms: HashSet<Vec<Vec<u8>>>,
    ) -> Self {
        let mut starts = Vec::with_capacity(def.orbits.len());
        let mut slots = 0;
        for orbit in &def.orbits {
            starts.push(slots);
            slots += orbit.pieces;
        }
        let perms = moves
            .iter()
            .map(|m| {
                m.orbits
                    .iter()
                    .zip(&starts)
                    .flat_map(|(o, &s)| o.perm.iter().map(move |&p| (s + usize::from(p)) as u16))
                    .collect()
            })
            .collect();
        let shapes = moves.iter().map(|m| shape(m)).collect();
        Search {
            def,
            moves,
            perms,
            shapes,
            starts,
            slots,
            rotation_perms,
            work: 0,
        }
    }

    /// The orbit of global slot `j`: its first and last-plus-one slots.
    fn orbit_range(&self, j: usize) -> std::ops::Range<usize> {
        let k = self.starts.partition_point(|&s| s <= j) - 1;
        self.starts[k]..self.starts[k] + self.def.orbits[k].pieces
    }

    /// The first mirror that completes `p`, depth first.
    fn next(&mut self, p: Partial) -> Option<Transform> {
        self.work += self.slots + self.moves.len();
        if self.work > MAX_WORK {
            return None;
        }
        // The first orbit's first slot before any move: a move's image is then checked by where
        // it takes that slot.
        let open_move = p.tau.iter().position(|&t| t == UNSET);
        let open_slot = match (p.sigma[0], open_move) {
            (UNSET, _) => Some(0),
            (_, Some(_)) => None,
            (_, None) => p.sigma.iter().position(|&s| s == UNSET),
        };
        // The choices at this node: each open image of the slot, or each unused move of the
        // same shape as the move's image.
        let mut choices = Vec::new();
        if let Some(j) = open_slot {
            for y in self.orbit_range(j).filter(|&y| !p.taken[y]) {
                let mut q = p.clone();
                (q.sigma[j], q.taken[y]) = (y as u16, true);
                choices.push(q);
            }
        } else if let Some(m) = open_move {
            let used: HashSet<u16> = p.tau.iter().copied().filter(|&t| t != UNSET).collect();
            for image in 0..self.moves.len() {
                if !used.contains(&(image as u16)) && self.shapes[image] == self.shapes[m] {
                    let mut q = p.clone();
                    q.tau[m] = image as u16;
                    choices.push(q);
                }
            }
        } else {
            return self.mirror_at(&p);
        }
        for mut q in choices {
            if self.propagate(&mut q)
                && let Some(mu) = self.next(q)
            {
                return Some(mu);
            }
            if self.work > MAX_WORK {
                return None;
            }
        }
        None
    }

    /// Extends `p.sigma` by the permutations' equation (`σ[τ(m).perm[j]] = m.perm[σ[j]]`) until
    /// nothing changes; false on a contradiction (two images for a slot, or one image twice).
    fn propagate(&mut self, p: &mut Partial) -> bool {
        loop {
            let mut changed = false;
            for (m, &image) in p.tau.iter().enumerate() {
                if image == UNSET {
                    continue;
                }
                self.work += self.slots;
                if self.work > MAX_WORK {
                    return false;
                }
                let (own, theirs) = (&self.perms[m], &self.perms[usize::from(image)]);
                for (j, &at) in theirs.iter().enumerate() {
                    let s = p.sigma[j];
                    if s == UNSET {
                        continue;
                    }
                    let target = own[usize::from(s)];
                    let at = usize::from(at);
                    match p.sigma[at] {
                        UNSET if p.taken[usize::from(target)] => return false,
                        UNSET => {
                            p.sigma[at] = target;
                            p.taken[usize::from(target)] = true;
                            changed = true;
                        }
                        known if known != target => return false,
                        _ => {}
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// The mirror of a complete `(σ, τ)`: its twists solved (see the module docs), or `None`
    /// when they have no solution or `σ` is a rotation's.
    fn mirror_at(&self, p: &Partial) -> Option<Transform> {
        let mut orbits = Vec::with_capacity(self.def.orbits.len());
        for (k, orbit) in self.def.orbits.iter().enumerate() {
            let start = self.starts[k];
            let sigma: Vec<u8> = (0..orbit.pieces)
                .map(|j| (usize::from(p.sigma[start + j]) - start) as u8)
                .collect();
            let delta = self.twists(k, &sigma, &p.tau)?;
            orbits.push(OrbitTransform { perm: sigma, delta });
        }
        let mu = Transform { orbits };
        (!self.rotation_perms.contains(&perms_of(&mu))).then_some(mu)
    }

    /// `u` on orbit `k` for slot map `sigma` (local) and move images `tau`: each connected
    /// part started at 0 and walked by the twists' equation; `None` on a contradiction.
    fn twists(&self, k: usize, sigma: &[u8], tau: &[u16]) -> Option<Vec<u8>> {
        let o = self.def.orbits[k].orientations;
        let n = sigma.len();
        let mut u: Vec<Option<u8>> = vec![None; n];
        while let Some(start) = u.iter().position(Option::is_none) {
            u[start] = Some(0);
            loop {
                let mut changed = false;
                for (m, &image) in tau.iter().enumerate() {
                    let (own, theirs) = (
                        &self.moves[m].orbits[k],
                        &self.moves[usize::from(image)].orbits[k],
                    );
                    for j in 0..n {
                        let next = usize::from(theirs.perm[j]);
                        let c = (theirs.delta[j] + own.delta[usize::from(sigma[j])]) % o;
                        // u[j] = u[next] + c.
                        match (u[j], u[next]) {
                            (Some(a), Some(b)) if a != (b + c) % o => return None,
                            (None, Some(b)) => (u[j], changed) = (Some((b + c) % o), true),
                            (Some(a), None) => (u[next], changed) = (Some((a + o - c) % o), true),
                            _ => {}
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
        }
        Some(u.into_iter().map(|t| t.unwrap_or(0)).collect())
    }
}

/// A move's shape: per orbit, its cycle lengths sorted (a symmetry maps a move to one of the
/// same shape).
fn shape(t: &Transform) -> Vec<Vec<u16>> {
    t.orbits
        .iter()
        .map(|o| {
            let mut done = vec![false; o.perm.len()];
            let mut lengths = Vec::new();
            for start in 0..o.perm.len() {
                let (mut len, mut j) = (0u16, start);
                while !done[j] {
                    done[j] = true;
                    len += 1;
                    j = usize::from(o.perm[j]);
                }
                if len > 0 {
                    lengths.push(len);
                }
            }
            lengths.sort_unstable();
            lengths
        })
        .collect()
}
