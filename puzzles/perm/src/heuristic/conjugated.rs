//! A pattern database looked up at images of the state too ([`Conjugated`]): through the
//! definition's rotations, and at the state's inverse.
//!
//! With the definition's rotations (`[heuristic] symmetry = true`), each database is also looked
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
        Conjugated {
            database,
            through,
            readings,
            inversion,
        }
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

    /// The largest entry at `indices`, stopping at the first that reaches `limit`.
    #[inline]
    fn read(&self, indices: &[u64], limit: u32) -> u32 {
        self.database.largest_entry(indices, limit)
    }

    /// The inverse's look-ups after the state's own gave `best` (below `limit`): their entries
    /// prefetched together, then read in turn while below `limit`.
    #[inline]
    fn read_inverse(&self, state: &Packed<N>, best: u32, limit: u32) -> u32 {
        let Some(inversion) = self.inversion.as_ref().filter(|_| best < limit) else {
            return best;
        };
        let per_state = 1 + self.readings.len();
        let mut indices = [0u64; Prefetched::NONE.0.len()];
        self.indices(&inversion.invert(state), &mut indices);
        for &index in &indices[..per_state] {
            self.database.table().prefetch(index);
        }
        best.max(self.read(&indices[..per_state], limit))
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
        let mut best = self.database.value(space, state);
        for i in 0..self.readings.len() {
            if best >= limit {
                return best;
            }
            best = best.max(self.database.entry(self.index_through(i, &state)));
        }
        self.read_inverse(&state, best, limit)
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
        let best = self.read(&prefetched.0[..1 + self.readings.len()], limit);
        self.read_inverse(&state, best, limit)
    }
}
