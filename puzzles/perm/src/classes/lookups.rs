//! How a class table is looked up ([`ClassLookups`]): at the state, along the other axes and at
//! the inverse, in stages; and the heuristic it heads ([`with_class_table`]).
//!
//! Per estimate: the two parts' projections as for a plain pattern, reads in three small
//! tables, and one read far from the caches, in the table. Trade-off: the look-ups are made in
//! stages, each group's entries prefetched together and read only while the ones before stay
//! below IDA*'s limit: most successors are cut by the state's own look-up, and pay for one
//! projection, not six.
//!
//! *Stepped parts.* Where the pattern's pieces told apart are a whole class (their twists go
//! with the slots: the 3x3x3's eight corners), a move takes its parts (A's place and twist, B's
//! state) to the successor's by three small move tables (`ClassPattern::step`), and through
//! a rotation by the move's image under it. So IDA* asks once per node for its parts at the
//! state and along the other axes ([`Heuristic::successor_context`]: three projections), and
//! each successor's own entry and its other axes' parts come from those by table reads
//! ([`Heuristic::prefetch_successor`]) instead of a projection each. Trade-off: the node's
//! three projections are paid even where every successor is then cut by its own look-up, and
//! the move tables of the places take 1.4 MiB; the 3x3x3's search makes 18 % fewer
//! instructions (BENCHMARKS.md). The inverse's look-ups are projected still (a move acts on
//! the inverse from the other side, which the move tables do not follow).

use super::pattern::{ClassPart, ClassPattern, Parts};
use crate::heuristic::{CONJUGATE_LOOKUPS, Lookups, Reading};
use crate::inversion::Inversion;
use crate::space::{PermMove, PermSpace};
use crate::state::Packed;
use statespace::cache::TableCache;
use statespace::kit::SharedHeuristic;
use statespace::limit::{Limit, Limits};
use statespace::search::pdb::{Entries, Max, PatternDatabase, PdbError};
use statespace::search::table::DistanceTable;
use statespace::space::{Heuristic, Prefetched};
use std::sync::Arc;

/// A class database looked up at the state, at images of it under rotations that read other
/// pieces (the 3x3x3's other two axes' middle-layer edges), and with `dual` at the state's
/// inverse too: the largest value (as [`Conjugated`](crate::heuristic::Conjugated) does for a
/// plain database).
///
/// A look-up reads once far from the caches, the entry; and the state's own look-up alone cuts
/// most successors in IDA* (64 % of them on the 3x3x3 from a random state; all three axes,
/// 82 %; with the inverse, 90 %). So the estimate is made in stages ([`Heuristic::advance`]:
/// IDA* runs a stage for every successor before the next stage of any, so each stage's reads
/// overlap): the state's own entry prefetched ([`prefetch`](Heuristic::prefetch)), then read;
/// while below the limit, the other axes' entries prefetched, then read; then the inverse's.
/// A successor cut by its own look-up costs one projection, not six.
pub struct ClassLookups<const N: usize, T = DistanceTable> {
    database: PatternDatabase<ClassPattern, T>,
    /// The rotations looked up through besides the identity.
    through: Vec<usize>,
    /// Per rotation looked up through, the readings of the two parts through it (no image
    /// made: [`Reading`]).
    readings: Vec<(Reading, Reading)>,
    inversion: Option<Inversion>,
    /// Where the pattern's parts step by move tables (`ClassPattern::step`): per rotation
    /// looked up through and move `m`, the move that steps the parts read through it
    /// (`[i * moves + m]`: the move conjugated by the rotation). `None`: every successor is
    /// projected.
    stepping: Option<Vec<u16>>,
}

/// A parent's context ([`Heuristic::successor_context`]) holds its parts, as seen at the state
/// and through each rotation, when its last word is this.
const CONTEXT: u64 = u64::from_le_bytes(*b"classctx");

/// In the stage word: the words after the first hold the successor's parts through each
/// rotation (stepped from its parent's), not yet their entries.
const STEPPED: u64 = 1 << 63;

/// The most rotations looked up through: [`Prefetched`]'s first three words hold a group's
/// entries, the last the stage and the largest entry so far ([`Stage`]).
const MAX_THROUGH: usize = 2;

/// Where a staged estimate is, in [`Prefetched`]'s last word (low byte; the largest entry
/// read so far above it): which group's entries (the state's own, the other axes', the
/// inverse's) are prefetched, to be read.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Stage {
    /// Word 0: the state's own entry.
    OwnCell,
    /// Words 1..: the other axes' entries.
    AxesCells,
    /// Words 0..: the inverse's entries.
    InverseCells,
}

impl Stage {
    const ALL: [Stage; 3] = [Stage::OwnCell, Stage::AxesCells, Stage::InverseCells];
}

/// The stage and the largest entry so far, as [`Prefetched`]'s last word.
fn stage_word(stage: Stage, best: u32) -> u64 {
    u64::from(best) << 8 | stage as u64
}

impl<const N: usize, T: Entries> ClassLookups<N, T> {
    /// `database` looked up at the state and through at most `extra` rotations, each reading
    /// other pieces (the first such), and with `dual` at the inverse when the space has one.
    pub fn new(
        space: &PermSpace<N>,
        database: PatternDatabase<ClassPattern, T>,
        extra: usize,
        dual: bool,
    ) -> Self {
        let symmetries = space.symmetries();
        let pattern = database.abstraction();
        // What a look-up through `k` sees: its entries at a few scrambled states. Two rotations
        // that see the same (the identity and those the pattern keeps, such as a turn that
        // swaps up and down for a set of the up corners read as its complement) would spend a
        // look-up on one entry twice.
        let mut probes = vec![space.solved()];
        let mut random = statespace::random::Lcg(7);
        for _ in 0..24 {
            let last = *probes.last().expect("one at least");
            let moves = space.moves();
            probes.push(space.apply(last, moves[random.below(moves.len())]));
        }
        let view = |k: Option<usize>| -> Vec<u64> {
            let image = |s: &Packed<N>| k.map_or(*s, |k| symmetries.image(k, s));
            probes
                .iter()
                .map(|s| pattern.project_state(&image(s)))
                .collect()
        };
        let mut seen = vec![view(None)];
        let mut through = Vec::new();
        for k in 0..symmetries.order() - 1 {
            let sees = view(Some(k));
            if through.len() < extra.min(MAX_THROUGH) && !seen.contains(&sees) {
                seen.push(sees);
                through.push(k);
            }
        }
        let readings = through
            .iter()
            .map(|&k| {
                (
                    Reading::new(&pattern.a, symmetries, k),
                    Reading::new(&pattern.b, symmetries, k),
                )
            })
            .collect();
        let inversion = match dual {
            true => space.inversion().ok().cloned(),
            false => None,
        };
        let mut lookups = ClassLookups {
            database,
            through,
            readings,
            inversion,
            stepping: None,
        };
        lookups.stepping = lookups.find_stepping(space);
        lookups
    }

    /// The parts of `state` at the state (`None`) or through the `i`-th rotation looked up
    /// through.
    #[inline]
    fn parts<const M: usize>(&self, i: Option<usize>, state: &Packed<M>) -> Parts {
        let pattern = self.database.abstraction();
        let Some(i) = i else {
            return pattern.parts_of(state);
        };
        let (a, b) = &self.readings[i];
        pattern.parts_from(
            a.project_one(&pattern.a, &state.0),
            b.project_one(&pattern.b, &state.0),
        )
    }

    /// The moves that step the parts read through each rotation ([`Self::stepping`]): each
    /// move's image under the rotation ([`Symmetries::move_image`]); `None` when the pattern
    /// does not step.
    ///
    /// [`Symmetries::move_image`]: crate::symmetry::Symmetries::move_image
    fn find_stepping(&self, space: &PermSpace<N>) -> Option<Vec<u16>> {
        if !self.database.abstraction().steps() {
            return None;
        }
        let moves = space.moves().len();
        let symmetries = space.symmetries();
        let images = self
            .through
            .iter()
            .flat_map(|&k| (0..moves).map(move |m| symmetries.move_image(k, m) as u16));
        Some(images.collect())
    }

    /// True when successors' entries are stepped from their parent's parts rather than
    /// projected (see [`Heuristic::successor_context`]).
    pub fn steps(&self) -> bool {
        self.stepping.is_some()
    }

    /// The database.
    pub fn database(&self) -> &PatternDatabase<ClassPattern, T> {
        &self.database
    }

    /// The rotations looked up through besides the identity.
    pub fn through(&self) -> &[usize] {
        &self.through
    }

    /// The other axes' entries into `out`, one per reading, prefetched.
    #[inline]
    fn axes_cells(&self, state: &Packed<N>, out: &mut [u64]) {
        let pattern = self.database.abstraction();
        for (slot, (a, b)) in out.iter_mut().zip(&self.readings) {
            let parts = pattern.parts_from(
                a.project_one(&pattern.a, &state.0),
                b.project_one(&pattern.b, &state.0),
            );
            *slot = pattern.cell_of(parts);
            self.database.table().prefetch(*slot);
        }
    }

    /// The state's own entry, prefetched.
    #[inline]
    fn own_cell(&self, state: &Packed<N>) -> u64 {
        let cell = self.database.abstraction().project_state(state);
        self.database.table().prefetch(cell);
        cell
    }

    /// After the own or the other axes' look-ups reached `best`: done when it reaches `limit`
    /// or nothing is left, else the next group's entries prefetched (the other axes' from the
    /// parts in words 1.. when `stepped`).
    #[inline]
    fn after(
        &self,
        state: &Packed<N>,
        words: &mut Prefetched,
        (from, stepped): (Stage, bool),
        best: u32,
        limit: u32,
    ) -> Option<u32> {
        if best >= limit {
            return Some(best);
        }
        let r = self.readings.len();
        if from == Stage::OwnCell && r > 0 {
            match stepped {
                true => {
                    let pattern = self.database.abstraction();
                    for word in &mut words.0[1..=r] {
                        *word = pattern.cell_of(Parts::of_word(*word));
                        self.database.table().prefetch(*word);
                    }
                }
                false => self.axes_cells(state, &mut words.0[1..=r]),
            }
            words.0[3] = stage_word(Stage::AxesCells, best);
            return None;
        }
        let Some(inversion) = &self.inversion else {
            return Some(best);
        };
        let inverse = inversion.invert(state);
        words.0[0] = self.own_cell(&inverse);
        self.axes_cells(&inverse, &mut words.0[1..=r]);
        words.0[3] = stage_word(Stage::InverseCells, best);
        None
    }
}

impl<const N: usize, T: Entries> Heuristic<PermSpace<N>> for ClassLookups<N, T> {
    fn intact(&self, cache: &TableCache) -> bool {
        self.database.intact_in::<PermSpace<N>>(cache)
    }

    fn estimate(&self, space: &PermSpace<N>, state: Packed<N>) -> u32 {
        self.estimate_below(space, state, u32::MAX)
    }

    /// The stages one after the other.
    #[inline]
    fn estimate_below(&self, space: &PermSpace<N>, state: Packed<N>, limit: u32) -> u32 {
        self.estimate_prefetched(space, state, &self.prefetch(space, state), limit)
    }

    /// The state's own entry, prefetched.
    #[inline]
    fn prefetch(&self, _: &PermSpace<N>, state: Packed<N>) -> Prefetched {
        let mut out = Prefetched::NONE;
        out.0[0] = self.own_cell(&state);
        out.0[3] = stage_word(Stage::OwnCell, 0);
        out
    }

    /// The state's parts at itself and through each rotation, when the pattern steps: its
    /// successors' entries then come from these by move tables (`ClassPattern::step`), a few
    /// small-table reads each instead of a projection per look-up.
    #[inline]
    fn successor_context(&self, _: &PermSpace<N>, state: Packed<N>) -> Prefetched {
        if self.stepping.is_none() {
            return Prefetched::NONE;
        }
        let mut context = Prefetched::NONE;
        context.0[0] = self.parts(None, &state).word();
        for i in 0..self.readings.len() {
            context.0[1 + i] = self.parts(Some(i), &state).word();
        }
        context.0[3] = CONTEXT;
        context
    }

    /// With its parent's context: the state's own entry stepped from the parent's parts, and
    /// its parts through each rotation kept for the next stage; else [`prefetch`](Self::prefetch).
    #[inline]
    fn prefetch_successor(
        &self,
        space: &PermSpace<N>,
        _: Packed<N>,
        context: &Prefetched,
        mv: PermMove,
        state: Packed<N>,
        memo: &mut Prefetched,
    ) {
        let Some(stepping) = self.stepping.as_ref().filter(|_| context.0[3] == CONTEXT) else {
            *memo = self.prefetch(space, state);
            return;
        };
        let pattern = self.database.abstraction();
        let (m, moves) = (mv.index(), space.moves().len());
        let cell = pattern.cell_of(pattern.step(Parts::of_word(context.0[0]), m));
        self.database.table().prefetch(cell);
        *memo = Prefetched::NONE;
        memo.0[0] = cell;
        for (i, word) in memo.0[1..=self.readings.len()].iter_mut().enumerate() {
            let by = usize::from(stepping[i * moves + m]);
            *word = pattern.step(Parts::of_word(context.0[1 + i]), by).word();
        }
        memo.0[3] = stage_word(Stage::OwnCell, 0) | STEPPED;
    }

    /// The next stage (see the type's docs).
    #[inline]
    fn advance(
        &self,
        _: &PermSpace<N>,
        state: Packed<N>,
        words: &mut Prefetched,
        limit: u32,
    ) -> Option<u32> {
        let (stage, best) = (words.0[3] as u8, (words.0[3] >> 8) as u32);
        let stepped = words.0[3] & STEPPED != 0;
        let r = self.readings.len();
        let entries = |words: &[u64]| best.max(self.database.largest_entry(words, limit));
        match Stage::ALL.get(usize::from(stage)).copied() {
            Some(Stage::OwnCell) => {
                let best = entries(&words.0[..1]);
                self.after(&state, words, (Stage::OwnCell, stepped), best, limit)
            }
            Some(Stage::AxesCells) => {
                let best = entries(&words.0[1..=r]);
                self.after(&state, words, (Stage::AxesCells, false), best, limit)
            }
            Some(Stage::InverseCells) | None => Some(entries(&words.0[..=r])),
        }
    }

    /// The stages one after the other.
    #[inline]
    fn estimate_prefetched(
        &self,
        space: &PermSpace<N>,
        state: Packed<N>,
        prefetched: &Prefetched,
        limit: u32,
    ) -> u32 {
        let mut words = *prefetched;
        loop {
            if let Some(h) = self.advance(space, state, &mut words, limit) {
                return h;
            }
        }
    }
}

/// A class table as a config asks for it: the two parts of its [`ClassPattern`], and whether
/// its entries are kept as 2-bit lower bounds
/// ([`CompactBounds`](statespace::search::table::compact::CompactBounds)) rather than exact 4-bit
/// distances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassParts {
    /// Part A.
    pub a: ClassPart,
    /// Part B.
    pub b: ClassPart,
    /// Compact entries.
    pub compact: bool,
}

/// A shared heuristic as a part of [`Max`].
struct Shared<const N: usize>(SharedHeuristic<PermSpace<N>>);

impl<const N: usize> Heuristic<PermSpace<N>> for Shared<N> {
    fn intact(&self, cache: &TableCache) -> bool {
        self.0.intact(cache)
    }

    fn estimate(&self, space: &PermSpace<N>, state: Packed<N>) -> u32 {
        self.0.estimate(space, state)
    }

    #[inline]
    fn estimate_below(&self, space: &PermSpace<N>, state: Packed<N>, limit: u32) -> u32 {
        self.0.estimate_below(space, state, limit)
    }

    #[inline]
    fn prefetch(&self, space: &PermSpace<N>, state: Packed<N>) -> Prefetched {
        self.0.prefetch(space, state)
    }

    #[inline]
    fn ruled_out(&self, space: &PermSpace<N>, state: Packed<N>, note: u64, budget: u32) -> u64 {
        self.0.ruled_out(space, state, note, budget)
    }

    #[inline]
    fn advance(
        &self,
        space: &PermSpace<N>,
        state: Packed<N>,
        prefetched: &mut Prefetched,
        limit: u32,
    ) -> Option<u32> {
        self.0.advance(space, state, prefetched, limit)
    }

    #[inline]
    fn estimate_prefetched(
        &self,
        space: &PermSpace<N>,
        state: Packed<N>,
        prefetched: &Prefetched,
        limit: u32,
    ) -> u32 {
        self.0.estimate_prefetched(space, state, prefetched, limit)
    }
}

/// The heuristic of a class table first, then `others` (made with the budget it leaves), as
/// one [`Max`]: the [`ClassPattern`] of `parts` numbered (or its numbers loaded from `cache`),
/// its table built or loaded, looked up as `lookups` says ([`ClassLookups`]: along the other
/// axes with `symmetric`, at the inverse with `dual`). Only a limit stops it: the parts were
/// checked with the config ([`ClassPattern::check`]).
pub fn with_class_table<const N: usize>(
    space: &PermSpace<N>,
    parts: &ClassParts,
    lookups: Lookups,
    limits: &Limits,
    cache: &TableCache,
    others: impl FnOnce(&Limits) -> Result<SharedHeuristic<PermSpace<N>>, Limit>,
) -> Result<SharedHeuristic<PermSpace<N>>, Limit> {
    let pattern = match ClassPattern::new(space, &parts.a, &parts.b, limits, Some(cache)) {
        Ok(pattern) => pattern,
        Err(PdbError::Limit(limit)) => return Err(limit),
        Err(PdbError::Invalid(why)) => unreachable!("checked class pattern: {why}"),
    };
    let held = pattern.bytes();
    let extra = if lookups.symmetric {
        CONJUGATE_LOOKUPS
    } else {
        0
    };
    let (first, table): (Box<dyn Heuristic<PermSpace<N>> + Send + Sync>, u64) = match parts.compact
    {
        true => {
            let database =
                PatternDatabase::build_compact::<PermSpace<N>>(pattern, limits, Some(cache))?;
            let bytes = database.table().bytes();
            (
                Box::new(ClassLookups::new(space, database, extra, lookups.dual)),
                bytes,
            )
        }
        false => {
            let database = PatternDatabase::build::<PermSpace<N>>(pattern, limits, Some(cache))?;
            let bytes = database.table().bytes();
            (
                Box::new(ClassLookups::new(space, database, extra, lookups.dual)),
                bytes,
            )
        }
    };
    let mut rest = limits.clone();
    let used = held + u128::from(table);
    rest.memory_budget = limits.memory_budget.saturating_sub(used as u64);
    let parts: Vec<Box<dyn Heuristic<PermSpace<N>> + Send + Sync>> =
        vec![first, Box::new(Shared(others(&rest)?))];
    Ok(Arc::new(Max::new(parts)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{class_pattern, cube};
    use statespace::limit::Limits;

    /// The staged look-ups ([`ClassLookups`], stages driven by `estimate_prefetched` and, as
    /// IDA* drives them, by `advance` with a shrinking limit) give the max of the look-ups made
    /// one by one: the table at the state, at its images through the rotations looked up
    /// through, and the same at the inverse; below a limit exactly, at or above it a value
    /// between the limit and the max.
    #[test]
    fn perm_class_lookups_in_stages_are_the_max_of_their_lookups() {
        let space = cube();
        let pattern = class_pattern(&space, &[1, 3], &[9, 10, 11, 12]);
        let database =
            PatternDatabase::build::<PermSpace<64>>(pattern, &Limits::default(), None).unwrap();
        let lookups = ClassLookups::new(&space, database, MAX_THROUGH, true);
        assert_eq!(lookups.through().len(), MAX_THROUGH);
        let (symmetries, inversion) = (space.symmetries(), space.inversion().unwrap());
        let db = lookups.database();
        let one_by_one = |state: Packed<64>| {
            let at = |s: Packed<64>| {
                let through = lookups.through().iter().map(|&k| symmetries.image(k, &s));
                std::iter::once(s)
                    .chain(through)
                    .map(|image| db.value(&space, image))
                    .max()
                    .unwrap()
            };
            at(state).max(at(inversion.invert(&state)))
        };
        let mut random = statespace::random::Lcg(7);
        let moves = space.moves();
        let mut state = space.solved();
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..400 {
            state = space.apply(state, moves[random.below(moves.len())]);
            let want = one_by_one(state);
            seen.insert(want);
            assert_eq!(lookups.estimate(&space, state), want);
            for limit in 0..=want + 1 {
                let got = lookups.estimate_below(&space, state, limit);
                match want < limit {
                    true => assert_eq!(got, want, "limit {limit}"),
                    false => assert!((limit..=want).contains(&got), "limit {limit}: {got}"),
                }
                // As IDA* drives it: a stage at a time, the limit shrinking on the way.
                let mut words = lookups.prefetch(&space, state);
                let mut stages = 1;
                let got = loop {
                    let shrunk = limit.saturating_sub(stages / 2);
                    if let Some(h) = lookups.advance(&space, state, &mut words, shrunk) {
                        break (h, shrunk);
                    }
                    stages += 1;
                    assert!(stages as usize <= Stage::ALL.len(), "too many stages");
                };
                match want < got.1 {
                    true => assert_eq!(got.0, want, "limit {}", got.1),
                    false => assert!((got.1..=want).contains(&got.0), "limit {}", got.1),
                }
            }
        }
        // The walk met more than one distance, and one where every look-up group was read.
        assert!(seen.len() > 3, "{seen:?}");
    }

    /// As IDA* estimates successors with their parent's context: the entries stepped from the
    /// parent's parts (the own look-up's, and the other axes' at the next stage) are the
    /// successors' own projections, and give the same estimates at every limit. The pattern
    /// steps where its pieces told apart are a whole class (their twists go with the slots):
    /// all eight corners, here with one edge (538 M entries), over a table of made-up values
    /// (the steps, not the distances, are checked; building it would take minutes).
    #[test]
    fn perm_class_lookups_stepped_from_the_parent_are_the_projected_ones() {
        use statespace::search::Stats;
        use statespace::search::table::DistanceTable;
        let space = cube();
        let pattern = class_pattern(&space, &[1, 2, 3, 4, 5, 6, 7, 8], &[9]);
        let len = statespace::space::Indexed::size(&pattern) as u64;
        let mut random = statespace::random::Lcg(19);
        let words = (0..len.div_ceil(16))
            .map(|_| (0..16).fold(0u64, |w, _| w << 4 | random.below(13) as u64))
            .collect();
        let table = DistanceTable::from_nibble_codes(len, words, vec![0; 13], Stats::default());
        let database = PatternDatabase::from_table::<PermSpace<64>>(pattern, table).unwrap();
        let lookups = ClassLookups::new(&space, database, MAX_THROUGH, true);
        assert!(
            lookups.steps(),
            "the corners' places and twists step by tables"
        );
        assert_eq!(lookups.through().len(), MAX_THROUGH);
        let staged = |words: &mut Prefetched, state: Packed<64>, limit: u32| loop {
            if let Some(h) = lookups.advance(&space, state, words, limit) {
                break h;
            }
        };
        let moves = space.moves();
        let mut parent = space.solved();
        let (mut stepped_words, mut successors) = (0, 0);
        for _ in 0..300 {
            parent = space.apply(parent, moves[random.below(moves.len())]);
            let context = lookups.successor_context(&space, parent);
            for &mv in moves {
                let child = space.apply(parent, mv);
                let want = lookups.estimate(&space, child);
                for limit in [want.saturating_sub(1), want, want + 1, u32::MAX] {
                    let mut words = Prefetched::NONE;
                    lookups.prefetch_successor(&space, parent, &context, mv, child, &mut words);
                    stepped_words += usize::from(words.0[3] & STEPPED != 0);
                    successors += 1;
                    let mut plain = lookups.prefetch(&space, child);
                    assert_eq!(words.0[0], plain.0[0], "the own entry");
                    // The other axes' entries, when the own one leaves them to be read.
                    let (mut next, mut plain_next) = (words, plain);
                    let own = lookups.advance(&space, child, &mut next, u32::MAX);
                    lookups.advance(&space, child, &mut plain_next, u32::MAX);
                    assert_eq!(own, None, "the own entry never ends an unlimited estimate");
                    assert_eq!(next, plain_next, "the other axes' entries");
                    assert_eq!(
                        staged(&mut words, child, limit),
                        staged(&mut plain, child, limit),
                        "limit {limit}"
                    );
                }
            }
        }
        assert_eq!(stepped_words, successors, "every successor stepped");
        // Without a context (a caller that made none), the successor is projected.
        let mut words = Prefetched::NONE;
        let child = space.apply(parent, moves[0]);
        let none = Prefetched::NONE;
        lookups.prefetch_successor(&space, parent, &none, moves[0], child, &mut words);
        assert_eq!(words, lookups.prefetch(&space, child));
    }
}
