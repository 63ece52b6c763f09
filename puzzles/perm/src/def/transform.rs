//! The algebra of transforms: applying one to a state, composing, inverting, powers and orders,
//! in the by-slot [convention](super#the-one-convention).
//!
//! Composition is the convention's formula with a transform as the operand:
//! [`Transform::then`] (`a.then(b)` = first `a`, then `b`) has `perm[i] = a.perm[b.perm[i]]` and
//! `delta[i] = (a.delta[b.perm[i]] + b.delta[i]) % orientations`; applying `a.then(b)` equals
//! applying `a` and then `b`. Every operation makes a new transform (a few short byte vectors):
//! this is for reading and checking definitions, once per move; the search's moves are
//! compiled to byte shuffles by [`Packer`](crate::Packer).

use super::model::{Orbit, OrbitState, OrbitTransform, State, Transform};

impl State {
    /// The result of applying `t` (the formula of the [convention](super#the-one-convention)).
    pub fn apply(&self, t: &Transform, orbits: &[Orbit]) -> State {
        State {
            orbits: self
                .orbits
                .iter()
                .zip(&t.orbits)
                .zip(orbits)
                .map(|((s, t), o)| OrbitState {
                    pieces: t.perm.iter().map(|&p| s.pieces[p as usize]).collect(),
                    orientation: t
                        .perm
                        .iter()
                        .zip(&t.delta)
                        .map(|(&p, &d)| add_mod(s.orientation[p as usize], d, o.orientations))
                        .collect(),
                })
                .collect(),
        }
    }
}

impl Transform {
    /// The transform that changes nothing.
    pub fn identity(orbits: &[Orbit]) -> Transform {
        Transform {
            orbits: orbits
                .iter()
                .map(|o| OrbitTransform {
                    perm: (0..o.pieces).map(|i| i as u8).collect(),
                    delta: vec![0; o.pieces],
                })
                .collect(),
        }
    }

    /// True when the transform changes nothing.
    pub fn is_identity(&self) -> bool {
        self.orbits.iter().all(|o| {
            o.perm.iter().enumerate().all(|(i, &p)| p as usize == i)
                && o.delta.iter().all(|&d| d == 0)
        })
    }

    /// First `self`, then `next`.
    pub fn then(&self, next: &Transform, orbits: &[Orbit]) -> Transform {
        Transform {
            orbits: self
                .orbits
                .iter()
                .zip(&next.orbits)
                .zip(orbits)
                .map(|((a, b), o)| OrbitTransform {
                    perm: b.perm.iter().map(|&p| a.perm[p as usize]).collect(),
                    delta: b
                        .perm
                        .iter()
                        .zip(&b.delta)
                        .map(|(&p, &d)| add_mod(a.delta[p as usize], d, o.orientations))
                        .collect(),
                })
                .collect(),
        }
    }

    /// The transform that undoes this one: `t.then(&t.inverse())` is the identity.
    pub fn inverse(&self, orbits: &[Orbit]) -> Transform {
        Transform {
            orbits: self
                .orbits
                .iter()
                .zip(orbits)
                .map(|(t, o)| {
                    let n = t.perm.len();
                    let mut perm = vec![0u8; n];
                    let mut delta = vec![0u8; n];
                    for (i, (&p, &d)) in t.perm.iter().zip(&t.delta).enumerate() {
                        perm[p as usize] = i as u8;
                        delta[p as usize] = (o.orientations - d) % o.orientations;
                    }
                    OrbitTransform { perm, delta }
                })
                .collect(),
        }
    }

    /// `self` to the power `k` (negative: of the inverse), by repeated squaring.
    pub fn power(&self, k: i64, orbits: &[Orbit]) -> Transform {
        let mut base = if k < 0 {
            self.inverse(orbits)
        } else {
            self.clone()
        };
        let mut k = k.unsigned_abs();
        let mut acc = Transform::identity(orbits);
        while k > 0 {
            if k & 1 == 1 {
                acc = acc.then(&base, orbits);
            }
            k >>= 1;
            if k > 0 {
                base = base.then(&base, orbits);
            }
        }
        acc
    }

    /// The order: the least `k >= 1` with `self^k` the identity. Per cycle of length `L` whose
    /// twists sum to `t` modulo `o`, the cycle repeats after `L * o / gcd(t, o)` (twsearch's
    /// `cyccnts`); the order is the lcm over all cycles, saturating at `u128::MAX`.
    pub fn order(&self, orbits: &[Orbit]) -> u128 {
        let mut order: u128 = 1;
        for (t, o) in self.orbits.iter().zip(orbits) {
            let m = u128::from(o.orientations);
            let mut done = vec![false; t.perm.len()];
            for start in 0..t.perm.len() {
                if done[start] {
                    continue;
                }
                let (mut len, mut twist, mut j) = (0u128, 0u128, start);
                while !done[j] {
                    done[j] = true;
                    len += 1;
                    twist += u128::from(t.delta[j]);
                    j = t.perm[j] as usize;
                }
                let cycle = len * (m / gcd(twist % m, m));
                order = match (order / gcd(order, cycle)).checked_mul(cycle) {
                    Some(v) => v,
                    None => return u128::MAX,
                };
            }
        }
        order
    }
}

fn add_mod(a: u8, b: u8, m: u8) -> u8 {
    // Both are below m <= 127, so the sum fits a byte.
    let s = a + b;
    if s >= m { s - m } else { s }
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}
