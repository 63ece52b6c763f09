//! A pattern's projection of a symmetry's image, composed once ([`Reading`]): the look-ups
//! through a rotation ([`Conjugated`](super::Conjugated), and the class tables'
//! [`ClassLookups`](crate::classes::ClassLookups)) read the image's placement straight from the
//! state's bytes.
//!
//! Trade-off: a reading is made once per pattern and symmetry (a few small tables per part:
//! the bytes each slot reads, the relabelling composed with the pattern's piece numbers, the
//! twist added), so that reading an image costs about what the plain projection does, a table
//! look-up per slot more, instead of a whole image made first (a pass over every byte of the
//! state, each relabelled or retwisted) for every look-up.

use super::part::{Part, UNTRACKED};
use super::pattern::{PLACEMENT_ENTRIES, Pattern, Placement};
use crate::state::ByteIndex;
use crate::symmetry::Symmetries;

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
    /// A mirror image: the state's twist is negated before the twists are added
    /// ([`Symmetries::negates`]).
    negate: bool,
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
                let negate = symmetries.negates(k);
                PartReading {
                    slots,
                    id,
                    retwist,
                    negate,
                }
            })
            .collect();
        Reading { parts }
    }

    /// The placement `pattern` gives the image of `bytes`: `Pattern::placement_by`'s loop,
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
                    let own = match reading.negate {
                        true => own_twist::<true>(read(s.twist), o),
                        false => read(s.twist),
                    };
                    twist[by % 32] = reduce(own + reduce(gained + s.add));
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

    /// One part's places' rank and twists' value of the image, through `reading`: the loop
    /// made twice, with and without the mirror's negation, so that a rotation's reading pays
    /// no test per twist.
    #[inline(always)]
    fn rank_part<const N: usize>(
        part: &Part,
        reading: &PartReading,
        bytes: &[u8; N],
    ) -> (u64, u64) {
        match reading.negate {
            true => Self::rank_part_as::<N, true>(part, reading, bytes),
            false => Self::rank_part_as::<N, false>(part, reading, bytes),
        }
    }

    #[inline(always)]
    fn rank_part_as<const N: usize, const NEGATE: bool>(
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
                reduce(own_twist::<NEGATE>(read(s.twist), o) + reduce(gained + s.add))
            },
        )
    }
}

/// The state's twist `t` (below `o`) as the image takes it: negated by a mirror.
#[inline(always)]
fn own_twist<const NEGATE: bool>(t: u8, o: u8) -> u8 {
    match NEGATE {
        // `o - t` is 1 to `o`: one subtraction reduces it.
        true if t == 0 => 0,
        true => o - t,
        false => t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::cube;
    use statespace::space::{Indexed, StateSpace};

    /// The fused projections the search makes (`Pattern::index_of`, `project_one`, and the
    /// same through a symmetry's `Reading`) give the index of the placement, and through a
    /// reading the index of the image made whole: for patterns of one and several parts, twists
    /// kept by slot and by piece, pieces told apart and alike, at states along a random walk.
    #[test]
    fn perm_fused_projections_equal_placement_then_index() {
        let space = cube();
        let symmetries = space.symmetries();
        let edges = |l: &[u8]| (1usize, l.to_vec());
        let patterns = [
            Pattern::new(&space, &[(0, (0..8).collect())]).unwrap(),
            Pattern::new(&space, &[edges(&[0, 1, 2, 3, 4, 5])]).unwrap(),
            Pattern::new(&space, &[(0, vec![0, 2, 5]), edges(&[1, 7, 10])]).unwrap(),
            Pattern::set(&space, &edges(&[8, 9, 10, 11])).unwrap(),
            Pattern::twists(&space, &[edges(&[8, 9, 10, 11])]).unwrap(),
        ];
        let mut state = space.solved();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for step in 0..300 {
            for pattern in &patterns {
                let index = pattern.index(pattern.placement_of(&state.0));
                assert_eq!(
                    pattern.index_of(&state.0),
                    index,
                    "{} step {step}",
                    pattern.name()
                );
                if let Some((_, twists)) = pattern.places_and_twists() {
                    let (places, value) = pattern.project_one(&state.0);
                    assert_eq!(places * twists + value, index, "{}", pattern.name());
                }
                for k in 0..symmetries.order() - 1 {
                    let reading = Reading::new(pattern, symmetries, k);
                    let image = symmetries.image(k, &state);
                    let whole = pattern.index(pattern.placement_of(&image.0));
                    let through = pattern.index(reading.placement(pattern, &state.0));
                    assert_eq!(through, whole, "{} through {k}", pattern.name());
                    assert_eq!(reading.index_of(pattern, &state.0), whole);
                    if let Some((_, twists)) = pattern.places_and_twists() {
                        let (places, value) = reading.project_one(pattern, &state.0);
                        assert_eq!(places * twists + value, whole);
                    }
                }
            }
            let mut next = Vec::new();
            space.successors(state, &mut |_, t| next.push(t));
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            state = next[(seed >> 33) as usize % next.len()];
        }
        assert_ne!(state, space.solved(), "the walk moved");
    }
}
