//! The toy the pattern-database tests use: a pair of counters on rings of 6, each its own
//! abstraction ([`Counter`]), swapped by a symmetry ([`Swap`]).

use super::{Abstraction, LONG_BUILD_BYTES, Symmetry};
use crate::space::StateSpace;
use crate::toys::Ring;

/// Two counters on a ring of 6 each, a move steps one of them; the goal is both at 0. State
/// `(a, b)`; counter `i` is piece `i`.
pub(super) struct Pair;
impl StateSpace for Pair {
    type State = (u8, u8);
    type Move = i8; // +-1 for counter 0, +-2 for counter 1
    fn successors(&self, (a, b): (u8, u8), visit: &mut dyn FnMut(i8, (u8, u8))) {
        visit(1, ((a + 1) % 6, b));
        visit(-1, ((a + 5) % 6, b));
        visit(2, (a, (b + 1) % 6));
        visit(-2, (a, (b + 5) % 6));
    }
    fn is_goal(&self, s: (u8, u8)) -> bool {
        s == (0, 0)
    }
}

/// One counter of [`Pair`] alone: the toy ring of 6 states.
pub(super) const SIX: Ring = Ring::new(6);

/// Counter `0` or `1` of the pair.
#[derive(Debug)]
pub(super) struct Counter(pub(super) u8, pub(super) Ring);
impl Abstraction<Pair> for Counter {
    type Space = Ring;
    fn space(&self) -> &Ring {
        &self.1
    }
    fn project(&self, _: &Pair, (a, b): (u8, u8)) -> u64 {
        if self.0 == 0 { a as u64 } else { b as u64 }
    }
    fn pieces(&self) -> u64 {
        1 << self.0
    }
}

/// A counter whose build claims to need [`LONG_BUILD_BYTES`], as a large database's would.
pub(super) struct Heavy(pub(super) Counter);
impl Abstraction<Pair> for Heavy {
    type Space = Ring;
    fn space(&self) -> &Ring {
        self.0.space()
    }
    fn project(&self, pair: &Pair, state: (u8, u8)) -> u64 {
        self.0.project(pair, state)
    }
    fn pieces(&self) -> u64 {
        self.0.pieces()
    }
    fn build_bytes(&self) -> u128 {
        LONG_BUILD_BYTES
    }
}

/// Swaps the counters: a symmetry of the pair (both rings alike, the goal fixed).
pub(super) struct Swap;
impl Symmetry<Pair> for Swap {
    fn apply(&self, _: &Pair, (a, b): (u8, u8)) -> (u8, u8) {
        (b, a)
    }
}

pub(super) fn ring_distance(s: u8) -> u32 {
    s.min(6 - s) as u32
}
