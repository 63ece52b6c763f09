//! The classes of the part told apart: `class_of`, per place its class and the rotation that
//! takes it to the class's representative, numbered when the pattern is made.
//!
//! Each place not numbered yet, in index order, is its class's representative (the least of
//! it), and its images under the rotations kept join it; a word says the class, the rotation
//! back to the representative, and whether a rotation besides the identity fixes the
//! representative (then the stabiliser is looked at, [`pattern`](super::pattern)). The
//! numbering is cached beside the table (`numbers.rs`: the file's layout; read back, it is
//! checked, then used where it lies): its fingerprint covers the part told apart, the
//! rotations' byte rules and the numbering's version.
//!
//! Trade-off: a numbering read from the cache is untrusted, and checking it as numbering does
//! would cost what numbering does (the rotations' images of every place). The check instead
//! scans every word (the counts, each class and rotation in range, the classes in order of
//! their first places) and samples 1,024 places against their images: one pass over the words
//! and a thousand images.

use super::numbers::{ClassNumbers, UNSET};
use crate::heuristic::Pattern;
use crate::space::PermSpace;
use crate::state::Packed;
use crate::symmetry::Symmetries;
use statespace::cache::fingerprint::{Content, Fingerprint};
use statespace::limit::{Latch, Limit, Limits};
use statespace::space::Describe;

/// The version of the class numbering and of the entries' order: part of every fingerprint
/// (2: the entries of no class are left unreached; 3: the classes of A's places, its twists
/// taken by the rotation; 4: four bits of rotation, mirror images among them).
pub(super) const NUMBERING: u64 = 4;

/// Bits of a `class_of` word that hold the rotation.
pub(super) const SYM_BITS: u32 = 4;

/// The most symmetries a class pattern keeps (the 3x3x3's that keep an axis: 8 rotations and
/// 8 mirror images).
pub(super) const MAX_ROTATIONS: usize = 1 << SYM_BITS;

/// The rotation's bits of a `class_of` word.
pub(super) const SYM_MASK: u32 = (1 << SYM_BITS) - 1;

/// The most places of the part told apart: each could be a class of its own, numbered in the
/// bits above the rotation, below [`SYMMETRIC`].
pub(super) const MAX_CLASSES: u64 = 1 << (31 - SYM_BITS);

/// The bit of a `class_of` word that says its class's representative is fixed by a rotation
/// besides the identity: only then is the stabiliser looked at.
pub(super) const SYMMETRIC: u32 = 1 << 31;

/// Numbers the classes of `count` states under `rotations` rotations (`images(a, out)`: the
/// images of state `a` under each, the identity first; `inverse[j]`: the rotation undoing
/// the `j`-th): each state not numbered yet is its class's representative, the least of it,
/// and its images join it.
pub(super) fn number_classes(
    count: u64,
    rotations: usize,
    inverse: &[usize],
    images: &dyn Fn(u64, &mut [u64]),
    limits: &Limits,
) -> Result<ClassNumbers, Limit> {
    let latch = Latch::new(limits);
    let mut ticker = latch.ticker();
    let mut numbers = ClassNumbers::unset(count, rotations as u32);
    let mut classes = 0u32;
    let mut to = [0u64; MAX_ROTATIONS];
    for a in 0..count {
        ticker.tick(a)?;
        if numbers.get(a) != UNSET {
            continue;
        }
        images(a, &mut to[..rotations]);
        let symmetric = to[1..rotations].contains(&a);
        let flag = if symmetric { SYMMETRIC } else { 0 };
        for (j, &image) in to[..rotations].iter().enumerate() {
            // Rotation `inverse[j]` takes `image` back to the representative; of two
            // rotations onto one image (a symmetric representative), the first.
            if numbers.get(image) == UNSET {
                numbers.set(image, flag | classes << SYM_BITS | inverse[j] as u32);
            }
        }
        classes += 1;
    }
    numbers.classes = u64::from(classes);
    Ok(numbers)
}

/// Whether `numbers` (read from a file: untrusted) are the numbering of `count` states under
/// `rotations` rotations: the layout's counts, every word's class and rotation in range, the
/// classes numbered in order of their first states (each class's first state its own
/// representative), and at 1,024 sampled states, the image the word names is the
/// representative and the flag says whether a rotation fixes it. One line when not.
pub(super) fn check_numbers(
    numbers: &ClassNumbers,
    count: u64,
    rotations: usize,
    images: &dyn Fn(u64, &mut [u64]),
) -> Result<(), String> {
    if numbers.len() != count || numbers.rotations as usize != rotations {
        return Err(format!(
            "numbers {} states under {} rotations, not {count} under {rotations}",
            numbers.len(),
            numbers.rotations
        ));
    }
    let mut reps = Vec::new();
    for a in 0..count {
        let word = numbers.get(a);
        let (class, j) = (u64::from((word & !SYMMETRIC) >> SYM_BITS), word & SYM_MASK);
        let fits = match j {
            0 => class == reps.len() as u64,
            _ => class < reps.len() as u64 && (j as usize) < rotations,
        };
        if !fits {
            return Err(format!(
                "state {a}'s class word {word:#x} does not fit the numbering"
            ));
        }
        if j == 0 {
            reps.push(a);
        }
    }
    if reps.len() as u64 != numbers.classes {
        return Err(format!(
            "{} classes numbered, the header says {}",
            reps.len(),
            numbers.classes
        ));
    }
    let mut random = statespace::random::Lcg(count ^ 0x5eed);
    let mut to = [0u64; MAX_ROTATIONS];
    for _ in 0..1024.min(count) {
        let a = random.below(count as usize) as u64;
        let word = numbers.get(a);
        let rep = reps[((word & !SYMMETRIC) >> SYM_BITS) as usize];
        images(a, &mut to[..rotations]);
        let mut fixed = [0u64; MAX_ROTATIONS];
        images(rep, &mut fixed[..rotations]);
        let symmetric = fixed[1..rotations].contains(&rep);
        if to[(word & SYM_MASK) as usize] != rep || symmetric != (word & SYMMETRIC != 0) {
            return Err(format!(
                "state {a}'s class word {word:#x} names the wrong class"
            ));
        }
    }
    Ok(())
}

/// The cache's key of a numbering: the part told apart, the rotations' byte rules (`rules`,
/// `rotations` of them) and the numbering's version.
pub(super) fn numbers_fingerprint(
    a: &Pattern,
    whole: bool,
    rotations: usize,
    rules: &[u8],
) -> Fingerprint {
    let mut content = Content::new("statespace class numbers");
    content.u64(NUMBERING);
    a.describe(&mut content);
    // Written only when A is numbered whole: the fingerprints of the numberings of places stay.
    if whole {
        content.str("whole");
    }
    content.u64(rotations as u64).bytes(rules);
    content.finish()
}

/// Per kept rotation `j`, the `i` with `syms[i]` undoing `syms[j]`: found on a state scrambled
/// by a fixed walk (any state that only the identity fixes tells them apart).
pub(super) fn inverse_rotations<const N: usize>(
    space: &PermSpace<N>,
    symmetries: &Symmetries,
    syms: &[Option<usize>],
) -> Vec<usize> {
    let mut state = space.solved();
    let moves = space.moves();
    for step in 0..64 {
        state = space.apply(state, moves[(step * 7 + step / 3) % moves.len()]);
    }
    let image = |j: usize, s: &Packed<N>| match syms[j] {
        Some(k) => symmetries.image(k, s),
        None => *s,
    };
    (0..syms.len())
        .map(|j| {
            let there = image(j, &state);
            (0..syms.len())
                .find(|&i| image(i, &there) == state)
                .unwrap_or(0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classes::{ClassPart, ClassPattern};
    use crate::fixtures::cube;
    use statespace::cache::TableCache;
    use statespace::limit::Limits;
    use statespace::space::Indexed;

    #[test]
    fn perm_class_numbers_come_back_from_the_cache_checked() {
        let space = cube();
        let dir = tempfile::tempdir().unwrap();
        let cache = TableCache::new(Some(dir.path().to_path_buf()), true, |_| {});
        let parts = (
            ClassPart::plain(0, vec![0, 2]),
            ClassPart::plain(1, vec![8, 9, 10, 11]),
        );
        let make = || {
            ClassPattern::new(&space, &parts.0, &parts.1, &Limits::default(), Some(&cache)).unwrap()
        };
        let built = make();
        let loaded = make();
        assert!(!built.class_of.is_mapped() && loaded.class_of.is_mapped());
        for a in 0..built.class_of.len() {
            assert_eq!(built.class_of.get(a), loaded.class_of.get(a));
        }
        assert_eq!(
            (built.reps.clone(), built.fixed.clone()),
            (loaded.reps, loaded.fixed)
        );
        let first_symmetric = (0..built.reps.len()).find(|&c| built.is_symmetric(c));
        let first_symmetric = first_symmetric.expect("the half turn fixes some representatives");
        // The check refuses numbers that are not the numbering: a class out of order, a
        // wrong rotation, a missing symmetric flag, other counts.
        let (a_pattern, s) = (&built.a, built.syms.len());
        let symmetries = space.symmetries();
        let solved = space.solved();
        // The images of a place (at twist 0).
        let twists = built.twists;
        let images = |place: u64, out: &mut [u64]| {
            let state = a_pattern.realize(&solved, &a_pattern.state(place * twists));
            for (to, k) in out.iter_mut().zip(&built.syms) {
                let image = match k {
                    Some(k) => symmetries.image(*k, &state),
                    None => state,
                };
                *to = a_pattern.index(a_pattern.placement_of(&image.0)) / twists;
            }
        };
        let count = built.class_of.len();
        assert_eq!(check_numbers(&built.class_of, count, s, &images), Ok(()));
        let rep = u64::from(built.reps[1]);
        let other = (0..count)
            .find(|&a| built.class_of.get(a) & SYM_MASK != 0)
            .unwrap();
        let symmetric = u64::from(built.reps[first_symmetric]);
        for (a, word) in [
            (rep, 7 << SYM_BITS),
            (other, built.class_of.get(other) ^ 1),
            (symmetric, built.class_of.get(symmetric) & !SYMMETRIC),
        ] {
            let mut wrong = built.class_of.clone();
            wrong.set(a, word);
            // The samples may miss one wrong word of many; the scan or the samples catch these
            // (a representative's word is scanned; the rest are forced into the samples by
            // making every word of their kind wrong).
            if a != rep {
                for b in 0..count {
                    let w = wrong.get(b);
                    if a == other && w & SYM_MASK != 0 {
                        wrong.set(b, w ^ 1);
                    }
                    if a == symmetric && w & SYMMETRIC != 0 {
                        wrong.set(b, w & !SYMMETRIC);
                    }
                }
            }
            assert!(check_numbers(&wrong, count, s, &images).is_err(), "{a}");
        }
        assert!(check_numbers(&built.class_of, count + 1, s, &images).is_err());
    }
}
