//! A pattern database looked up at images of the state too ([`Conjugated`]): through the
//! definition's rotations and their mirror images, and at the state's inverse.
//!
//! With the symmetries (`[heuristic] symmetry = true`), each database is also looked
//! up at images of the state that read other pieces: a group of eight edges then sees the other
//! four too. With `dual = true`, also at the state's inverse ([`inversion`](crate::inversion))
//! and its images, only for states their own look-ups do not cut.
//!
//! Trade-offs: each look-up after the state's own is a projection through a composed reading
//! (`reading.rs`) and one more read far from the caches, made only while the ones before stay below
//! IDA*'s limit; the state's own look-ups are prefetched together, the inverse's only when those do
//! not cut (most states are cut by their own, and the inverse would double every state's cost).

use super::pattern::Pattern;
use super::reading::Reading;
use crate::inversion::Inversion;
use crate::space::PermSpace;
use crate::state::Packed;
use hashbrown::HashSet;
use statespace::cache::TableCache;
use statespace::search::pdb::PatternDatabase;
use statespace::space::{Heuristic, Prefetched};

/// A pattern database looked up at a state and at some of its images under the puzzle's
/// symmetries, taking the largest value (Korf & Felner's reflected look-ups, with a cube's
/// rotations).
///
/// A symmetry `c` maps moves onto moves and fixes the solved state, so the image `c s c⁻¹` is as
/// far from solved as `s` (see [`symmetry`](crate::symmetry)), and the database's value there is
/// a lower bound for `s` too. It is a *different* bound when `c` renames other pieces into the
/// tracked ones: the look-up then reads the state's pieces whose labels `c` renames into the
/// pattern's. A symmetry that reads the same pieces as one already used gives the same value
/// (it maps the pattern onto itself), so [`Conjugated::new`] keeps one symmetry per set of
/// pieces read, preferring those that read pieces no earlier look-up read: for a group of eight
/// of the 3x3x3's twelve edges under its 24 rotations, a second look-up sees the four edges the
/// first does not. A pattern of a whole class (the corners) reads the same pieces under every
/// rotation and gets no extra look-up.
///
/// With the inverse (`[heuristic] dual = true`), the database is also looked up at the state's
/// inverse and through the same symmetries there ([`inversion`](crate::inversion): as far from
/// solved, and a pattern of part of a class reads other information there); a pattern of whole
/// classes gains nothing from it and does not.
///
/// Look-ups equal to the distance tell more than a bound (Rokicki's nxopt, Voltara's vcube): no
/// shortest solution ends with a move that leaves such a look-up at 0 from solved, so where the
/// largest look-ups of a side leave every move at 0 between them the estimate is one more (the
/// 3x3x3's twists along its three axes), and a look-up at the inverse equal to the moves left
/// rules out the first moves it leaves at 0 ([`Heuristic::ruled_out`]).
///
/// Cost: a projection through a composed reading and a table read per look-up, each look-up
/// after the first only when the ones before stay below IDA*'s limit; the inverse's look-ups a
/// pass over the state's bytes more.
pub struct Conjugated<const N: usize> {
    database: PatternDatabase<Pattern>,
    /// The symmetries looked up through besides the identity (indices of
    /// [`Symmetries::image`](crate::symmetry::Symmetries::image)).
    through: Vec<usize>,
    /// The pattern's reading through each of them, in that order.
    readings: Vec<Reading>,
    /// The state's inverse, looked up too (plainly and through each reading), when asked for and
    /// the pattern leaves some piece of a class out.
    inversion: Option<Inversion>,
    /// What look-ups that equal the distance tell besides their value, when they can tell
    /// something ([`TightBounds`]).
    tight: Option<TightBounds>,
    /// This heuristic's mark on the notes it leaves ([`Note`]); 0: it leaves none.
    mark: u64,
}

/// The [note](Prefetched::note) a staged estimate leaves when it read the inverse's look-ups in
/// full: their entries, so that [`Heuristic::ruled_out`] of the same state (IDA* asks when it
/// expands it, soon after) reads them from there instead of inverting and projecting the state
/// again (an inversion and three projections a node on the 3x3x3: 8 % of its search).
///
/// Bits 0-23 hold the entries of up to three look-ups (8 bits each, the state's inverse's own
/// first), bits 40-62 the mark of the heuristic that left it: set apart per instance (a
/// counter; past 2^23 - 1 instances in one process, the later ones leave no notes), nonzero, so
/// that no other heuristic's last word (an index below 2^40, a stage word) and no other
/// instance's note passes for it. Left only where the state's own look-ups take at most three
/// words (the fourth is the note's) and every entry is below 255.
struct Note;

impl Note {
    const SHIFT: u32 = 40;
    const MARK_BITS: u32 = 23;
    /// The look-ups a note holds.
    const ENTRIES: usize = 3;

    /// A new instance's mark, in bits 40-62: nonzero and its own, or 0 (no notes) once the
    /// marks are used up (never reused: a shared mark could pass one table's note for another's).
    fn new_mark() -> u64 {
        use std::sync::atomic::{AtomicU64, Ordering};
        static USED: AtomicU64 = AtomicU64::new(0);
        let n = USED.fetch_add(1, Ordering::Relaxed) + 1;
        if n >= 1 << Self::MARK_BITS {
            0
        } else {
            n << Self::SHIFT
        }
    }

    /// The note of `entries` under `mark`; `None` when the mark is 0 or an entry does not fit
    /// 8 bits below 255.
    fn of(mark: u64, entries: impl Iterator<Item = u32>) -> Option<u64> {
        if mark == 0 {
            return None;
        }
        let mut note = mark;
        for (i, e) in entries.enumerate() {
            if e >= 255 || i >= Self::ENTRIES {
                return None;
            }
            note |= u64::from(e) << (8 * i);
        }
        Some(note)
    }

    /// The `i`-th entry of `note` if it bears `mark` (never when `mark` is 0).
    fn entry(mark: u64, note: u64, i: usize) -> Option<u32> {
        let mask = ((1u64 << Self::MARK_BITS) - 1) << Self::SHIFT;
        (mark != 0 && note & !(mask | 0xff_ffff) == 0 && note & mask == mark)
            .then(|| (note >> (8 * i) & 0xff) as u32)
    }
}

/// The moves that look-ups equal to the distance rule out (the rule of Rokicki's nxopt and
/// Voltara's vcube, derived here from the pattern and the moves).
///
/// A look-up reads the distance from the state's image to the pattern's goal. Call a move *kept*
/// by a look-up when one turn of it from solved leaves that look-up at 0 (for the 3x3x3's
/// twists and middle-layer edges seen along the up-down axis: the up and down turns and every
/// half turn). If a look-up of `x` equals `x`'s distance `d`, no shortest solution of `x` ends
/// with a move it keeps: the state one move before solved would be 0 away in the pattern, so
/// the pattern would reach its goal in `d - 1` moves. So when the look-ups of `x` whose value is
/// the largest, `d`, keep every move between them, no solution of `d` moves exists, and `x` is
/// at least `d + 1` away (the three axes' look-ups of the twists keep every face's turns between
/// them). At the inverse the same holds of the first move of `x`'s solutions (the inverse's
/// solutions are `x`'s reversed and inverted), so the inverse's look-ups are weighed apart.
///
/// Admissible, not consistent (a child may be 2 below its parent), which IDA* and A* allow.
/// Checked only when the look-ups of one side can keep every move between them (else it could
/// never raise an estimate). A single look-up at the inverse that keeps some move still rules
/// first moves out ([`Heuristic::ruled_out`]).
#[derive(Clone, Copy, Debug)]
struct TightBounds {
    /// Per look-up of the state (its own, then one per symmetry), the moves it keeps.
    own: [u64; Prefetched::NONE.0.len()],
    /// The same per look-up of the inverse, the moves that a turn of from solved leaves at 0.
    inverse: [u64; Prefetched::NONE.0.len()],
    /// Every move.
    all: u64,
    /// Whether the look-ups of one side keep every move between them: else no estimate is
    /// raised, and the look-ups are read as plain ones.
    raises: bool,
}

impl TightBounds {
    /// The largest of `values` (a side's look-ups, `masks` the moves each keeps), plus 1 when
    /// those equal to it keep every move and it is not 0 (a goal is 0 away, with no last move).
    #[inline]
    fn raise(&self, values: &[u32], masks: &[u64]) -> u32 {
        let best = values.iter().copied().max().unwrap_or(0);
        let kept = values
            .iter()
            .zip(masks)
            .filter(|(v, _)| **v == best)
            .fold(0, |kept, (_, m)| kept | m);
        best + u32::from(best > 0 && best != u32::MAX && kept == self.all)
    }
}

impl<const N: usize> Conjugated<N> {
    /// `database` looked up at the state and through at most `extra` symmetries of `space`,
    /// each reading a different set of pieces, those that read the most pieces not read yet
    /// first, and with `dual` at the state's inverse the same way, when the space has one (see
    /// the type's docs). [`Prefetched`] holds the state's own look-ups' indices: `extra` is cut
    /// to fit it (three).
    pub fn new(
        space: &PermSpace<N>,
        database: PatternDatabase<Pattern>,
        extra: usize,
        dual: bool,
    ) -> Self {
        let pattern = database.abstraction();
        let partial = pattern.parts.iter().any(|p| p.pieces() < p.labels.len());
        let inversion = match dual && partial {
            true => space.inversion().ok().cloned(),
            false => None,
        };
        let extra = extra.min(Prefetched::NONE.0.len() - 1);
        let symmetries = space.symmetries();
        let solved = space.solved();
        let read = |k: Option<usize>| pattern.reads(symmetries, &solved, k);
        let mut seen = vec![read(None)];
        let mut candidates: Vec<(usize, Vec<(usize, u8)>)> = Vec::new();
        for k in 0..symmetries.order() - 1 {
            let pieces = read(Some(k));
            if !seen.contains(&pieces) && !candidates.iter().any(|(_, p)| *p == pieces) {
                candidates.push((k, pieces));
            }
        }
        let mut covered: HashSet<(usize, u8)> = seen[0].iter().copied().collect();
        let mut through = Vec::new();
        while through.len() < extra && !candidates.is_empty() {
            let fresh = |p: &Vec<(usize, u8)>| p.iter().filter(|x| !covered.contains(*x)).count();
            // The most pieces not read yet; the first such on ties.
            let best = (0..candidates.len())
                .rev()
                .max_by_key(|&i| fresh(&candidates[i].1))
                .expect("candidates");
            let (k, pieces) = candidates.remove(best);
            covered.extend(pieces.iter().copied());
            seen.push(pieces);
            through.push(k);
        }
        let readings = through
            .iter()
            .map(|&k| Reading::new(pattern, symmetries, k))
            .collect();
        let mut conjugated = Conjugated {
            database,
            through,
            readings,
            inversion,
            tight: None,
            mark: Note::new_mark(),
        };
        conjugated.tight = conjugated.tight_bounds(space);
        conjugated
    }

    /// The moves each look-up keeps ([`TightBounds`]), found by turning each move from solved;
    /// `None` when they tell nothing: no side's look-ups keep every move between them and no
    /// look-up at the inverse keeps any (or there are over 64 moves).
    fn tight_bounds(&self, space: &PermSpace<N>) -> Option<TightBounds> {
        let moves = space.moves();
        if moves.is_empty() || moves.len() > 64 {
            return None;
        }
        let solved = space.solved();
        let turned: Vec<Packed<N>> = moves.iter().map(|&m| space.apply(solved, m)).collect();
        let views = 1 + self.readings.len();
        let at_goal = |view: usize, state: &Packed<N>| {
            let mut indices = [0u64; Prefetched::NONE.0.len()];
            self.indices(state, &mut indices);
            self.database.entry(indices[view]) == 0
        };
        let mut bounds = TightBounds {
            own: [0; Prefetched::NONE.0.len()],
            inverse: [0; Prefetched::NONE.0.len()],
            all: u64::MAX >> (64 - moves.len()),
            raises: false,
        };
        for (j, &m) in moves.iter().enumerate() {
            // The state one move before solved when `m` is the last move: a turn from solved
            // that `m` brings back (none when the moves hold no inverse of `m`: then `m` is
            // kept by no look-up, which only weakens the rule).
            let before = turned.iter().find(|&&t| space.apply(t, m) == solved);
            for view in 0..views {
                if before.is_some_and(|b| at_goal(view, b)) {
                    bounds.own[view] |= 1 << j;
                }
                if self.inversion.is_some() && at_goal(view, &turned[j]) {
                    bounds.inverse[view] |= 1 << j;
                }
            }
        }
        let covers = |masks: &[u64]| masks[..views].iter().fold(0, |a, m| a | m) == bounds.all;
        bounds.raises = covers(&bounds.own) || covers(&bounds.inverse);
        let rules_out = bounds.inverse.iter().any(|&m| m != 0);
        (bounds.raises || rules_out).then_some(bounds)
    }

    /// True when look-ups equal to the distance raise the estimate (see the type's docs).
    pub fn tight_bounds_apply(&self) -> bool {
        self.tight.is_some_and(|t| t.raises)
    }

    /// The same look-ups without the rule of look-ups equal to the distance (nor moves ruled
    /// out): to measure what it saves.
    pub fn without_tight_bounds(mut self) -> Self {
        self.tight = None;
        self
    }

    /// The symmetries looked up through besides the identity.
    pub fn through(&self) -> &[usize] {
        &self.through
    }

    /// The database.
    pub fn database(&self) -> &PatternDatabase<Pattern> {
        &self.database
    }

    /// True when the state's inverse is looked up too.
    pub fn dual(&self) -> bool {
        self.inversion.is_some()
    }

    /// The database's index of the image of `state` under the `i`-th symmetry looked up
    /// through: the pattern's projection of the image, read from `state` by the composed
    /// [`Reading`] (only the bytes the pattern reads, no image made).
    #[inline]
    fn index_through(&self, i: usize, state: &Packed<N>) -> u64 {
        let pattern = self.database.abstraction();
        self.readings[i].index_of(pattern, &state.0)
    }

    /// The database's indices of `state`'s look-ups, the plain one first, then one per
    /// symmetry looked up through, into `out` (one word each; the rest left as they are).
    #[inline]
    fn indices(&self, state: &Packed<N>, out: &mut [u64]) {
        let pattern = self.database.abstraction();
        out[0] = pattern.index_of(&state.0);
        for (i, word) in out[1..=self.readings.len()].iter_mut().enumerate() {
            *word = self.index_through(i, state);
        }
    }

    /// The largest entry at `indices` (the look-ups of one side: the state's own when not
    /// `inverse`), stopping at the first that reaches `limit`; one more when the look-ups equal
    /// to it rule out every last (or, at the inverse, first) move ([`TightBounds`]).
    #[inline]
    fn read(&self, indices: &[u64], limit: u32, inverse: bool) -> u32 {
        let Some(tight) = self.tight.as_ref().filter(|t| t.raises) else {
            return self.database.largest_entry(indices, limit);
        };
        let mut values = [0u32; Prefetched::NONE.0.len()];
        for (value, &index) in values.iter_mut().zip(indices) {
            *value = self.database.entry(index);
            if *value >= limit {
                return *value;
            }
        }
        let masks = if inverse { &tight.inverse } else { &tight.own };
        tight.raise(&values[..indices.len()], masks)
    }

    /// The inverse's look-ups after the state's own gave `best` (below `limit`): their entries
    /// prefetched together, then read in turn while below `limit`. With the estimate, the
    /// [`Note`] of the entries when all were read and the rules out ask for it (else 0).
    #[inline]
    fn read_inverse(&self, state: &Packed<N>, best: u32, limit: u32) -> (u32, u64) {
        let Some(inversion) = self.inversion.as_ref().filter(|_| best < limit) else {
            return (best, 0);
        };
        let per_state = 1 + self.readings.len();
        let mut indices = [0u64; Prefetched::NONE.0.len()];
        self.indices(&inversion.invert(state), &mut indices);
        for &index in &indices[..per_state] {
            self.database.table().prefetch(index);
        }
        let h = best.max(self.read(&indices[..per_state], limit, true));
        // Below the limit, every entry was read (and is in the cache now).
        let noted = h < limit && self.tight.is_some() && per_state < Prefetched::NONE.0.len();
        let note = noted.then(|| {
            let entries = indices[..per_state].iter().map(|&i| self.database.entry(i));
            Note::of(self.mark, entries)
        });
        (h, note.flatten().unwrap_or(0))
    }
}

impl<const N: usize> Heuristic<PermSpace<N>> for Conjugated<N> {
    fn intact(&self, cache: &TableCache) -> bool {
        self.database.intact_in::<PermSpace<N>>(cache)
    }

    #[inline]
    fn estimate(&self, space: &PermSpace<N>, state: Packed<N>) -> u32 {
        self.estimate_below(space, state, u32::MAX)
    }

    /// The look-ups in order, stopping at the first that reaches `limit`; the inverse is made
    /// only when the state's own look-ups stay below it.
    #[inline]
    fn estimate_below(&self, space: &PermSpace<N>, state: Packed<N>, limit: u32) -> u32 {
        if self.tight_bounds_apply() {
            let mut indices = [0u64; Prefetched::NONE.0.len()];
            self.indices(&state, &mut indices);
            let best = self.read(&indices[..1 + self.readings.len()], limit, false);
            return self.read_inverse(&state, best, limit).0;
        }
        let mut best = self.database.value(space, state);
        for i in 0..self.readings.len() {
            if best >= limit {
                return best;
            }
            best = best.max(self.database.entry(self.index_through(i, &state)));
        }
        self.read_inverse(&state, best, limit).0
    }

    /// The state's own look-ups' entries: a projection costs a few hundred instructions, a
    /// table read missed in the cache far more. The indices, in look-up order, are the words
    /// returned. The inverse's are left to [`estimate_prefetched`](Heuristic::estimate_prefetched):
    /// most states are cut by their own look-ups (in IDA*, all but about one in six on the
    /// 3x3x3), and the inverse would double every state's cost.
    #[inline]
    fn prefetch(&self, space: &PermSpace<N>, state: Packed<N>) -> Prefetched {
        let mut indices = self.database.prefetch(space, state);
        for (i, word) in indices.0[1..=self.readings.len()].iter_mut().enumerate() {
            *word = self.index_through(i, &state);
            self.database.table().prefetch(*word);
        }
        indices
    }

    /// The first moves that the inverse's look-ups equal to `budget` keep (the type's docs): a
    /// move `m` one keeps leaves it as it is (the inverse of the state after `m` is `m`'s
    /// inverse, kept too, then the state's inverse), so every successor by `m` is cut by it.
    /// Made per expanded node (an inversion, the projections and reads the node's own estimate
    /// made recently): cheaper than the successors it saves (about 7 of the 3x3x3's 13 moves
    /// where one look-up is tight, each a projection or more).
    #[inline]
    fn ruled_out(&self, _: &PermSpace<N>, state: Packed<N>, note: u64, budget: u32) -> u64 {
        let (Some(tight), Some(inversion)) = (&self.tight, &self.inversion) else {
            return 0;
        };
        let views = 1 + self.readings.len();
        // The entries the state's estimate noted, when it left them.
        if Note::entry(self.mark, note, 0).is_some() {
            let mut out = 0;
            for (i, keeps) in tight.inverse[..views].iter().enumerate() {
                if Note::entry(self.mark, note, i) == Some(budget) {
                    out |= keeps;
                }
            }
            return out;
        }
        let mut indices = [0u64; Prefetched::NONE.0.len()];
        self.indices(&inversion.invert(&state), &mut indices);
        let mut out = 0;
        for (index, keeps) in indices[..views].iter().zip(&tight.inverse) {
            if self.database.entry(*index) == budget {
                out |= keeps;
            }
        }
        out
    }

    /// [`estimate_below`](Heuristic::estimate_below): the state's own look-ups from the indices
    /// prefetched, then the inverse's while below `limit`.
    #[inline]
    fn estimate_prefetched(
        &self,
        _: &PermSpace<N>,
        state: Packed<N>,
        prefetched: &Prefetched,
        limit: u32,
    ) -> u32 {
        let best = self.read(&prefetched.0[..1 + self.readings.len()], limit, false);
        self.read_inverse(&state, best, limit).0
    }

    /// [`estimate_prefetched`](Heuristic::estimate_prefetched) in one stage, leaving the
    /// inverse's entries in the [note](Prefetched::note) when it read them all.
    #[inline]
    fn advance(
        &self,
        _: &PermSpace<N>,
        state: Packed<N>,
        prefetched: &mut Prefetched,
        limit: u32,
    ) -> Option<u32> {
        let best = self.read(&prefetched.0[..1 + self.readings.len()], limit, false);
        let (h, note) = self.read_inverse(&state, best, limit);
        if note != 0 {
            prefetched.0[Prefetched::NONE.0.len() - 1] = note;
        }
        Some(h)
    }
}

#[cfg(test)]
mod tests {
    use super::Note;

    /// A note is read only under the mark that left it: not another instance's, not a word
    /// without a mark (an index, a stage word), not one with other bits set; none is left
    /// without a mark, with an entry past 254 or with a fourth entry.
    #[test]
    fn perm_notes_are_read_under_their_own_mark_only() {
        let (a, b) = (Note::new_mark(), Note::new_mark());
        assert!(a != 0 && b != 0 && a != b);
        let note = Note::of(a, [3, 7, 11].into_iter()).unwrap();
        let read: Vec<_> = (0..3).map(|i| Note::entry(a, note, i)).collect();
        assert_eq!(read, [Some(3), Some(7), Some(11)]);
        assert_eq!(Note::entry(b, note, 0), None);
        assert_eq!(Note::entry(a, note | 1 << 30, 0), None);
        assert_eq!(Note::entry(a, 5, 0), None);
        assert_eq!(Note::entry(0, 5, 0), None);
        assert_eq!(Note::of(0, [3].into_iter()), None);
        assert_eq!(Note::of(a, [255].into_iter()), None);
        assert_eq!(Note::of(a, [1, 2, 3, 4].into_iter()), None);
    }
}
