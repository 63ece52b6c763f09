//! Which patterns a puzzle gets by default: [`auto_pieces`] picks them from the classes of
//! slots, each at most a number of states.
//!
//! [`auto_pieces`] picks them in class order: a class whose whole pattern has at most
//! `max_states` states is tracked whole; a larger one is cut into groups of as many of its
//! pieces as fit (the 3x3x3's twelve edges: two groups of six, `12! / 6! * 2^6 = 42,577,920`
//! states each); small classes share a pattern while the product fits (the 2x2x2's corners and
//! a Pyraminx's centres: then the pattern is the whole puzzle and the heuristic exact). At the
//! default [`MAX_PATTERN_STATES`] (2^27, 64 MiB at 4 bits) the 3x3x3 gets Korf's three tables:
//! corners and two groups of six edges, 83 MiB together.
//!
//! `[heuristic] pattern_states` raises the bound: at `12! / 4! * 2^8 = 5,109,350,400` the
//! 3x3x3's edges come in a group of eight (2.4 GiB at 4 bits) and a group of four, which is what
//! a random state needs (`configs/perm-3x3x3-random.toml`).
//!
//! Trade-offs: larger groups (seven edges: `510,935,040` states; eight: 5.1 billion) estimate
//! higher, for twelve times the memory and build time per piece added (`--max-states` in the
//! bench tries them); twsearch instead prunes with one 2 GB table. How each shape of pattern is
//! built: [`abstract_space`](super::abstract_space). Classes of look-alike pieces track only
//! their labels that occur once (look-alike pieces are forgotten): weaker, never wrong.

use super::part::pattern_twists;
use super::pattern::{MAX_TRACKED, Pieces};
use crate::space::PermSpace;
use statespace::rank::Arrangements;

/// The default largest pattern [`auto_pieces`] makes: 2^27 states, 64 MiB at 4 bits per entry.
pub const MAX_PATTERN_STATES: u64 = 1 << 27;

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
