//! The level-scan build: [`build`], [`build_with`] and [`build_symmetric`] fill a table by a
//! multi-source BFS from the goals that keeps no queue: the table itself tells which states are
//! at the level being expanded.
//!
//! [`Build`] is one build in progress. It checks the budget and picks the coding before it
//! allocates (as [`Width`] says), reaches the goals, then fills one level after another, each by
//! one scan (`scan.rs`) in the direction the module docs of [`table`](super) describe; before a
//! depth the width cannot hold, it widens the table or recodes it mod 3 ([`Build::make_room`]).
//! The sweeps' tables (`sweep.rs`) are written through the same [`Build`], so that the width,
//! the widening and the memory checks are one piece of code; the sweep's own memory is then
//! counted as `overhead` beside the table.

use super::packed::Packed;
use super::scan::{Codes, Scan, Scanned, reach, scan_for};
use super::symmetry::{AsIs, Frontier, Narrow, Orbits, Reduction, Whole};
use super::{DistanceTable, MAX_BITS, MOD3_BITS, START_BITS, Width};
use crate::limit::{Latch, Limit, Limits};
use crate::search::Stats;
use crate::space::{GoalSet, Indexed, Invertible, Symmetric};

/// Builds the distance table of `space` by one multi-source BFS backward from all its goals, with
/// the width picked by [`Width::Auto`].
///
/// - `space`: an indexed space with invertible moves and an enumerable goal set.
/// - `limits`: `memory_budget` is checked before allocating ([`Limit::Memory`] with the bytes
///   needed) and again before each widening; `time_limit` and `max_states` (states reached) stop
///   the build. `max_depth` does not apply: a table is all or nothing, and a caller that wants a
///   depth limit compares the looked-up distance with it.
///
/// Guarantees: every state that can reach a goal gets its exact distance (the fewest moves to the
/// nearest goal); every other state reads as unreached.
pub fn build<P: Indexed + Invertible + GoalSet>(
    space: &P,
    limits: &Limits,
) -> Result<DistanceTable, Limit> {
    build_with(space, limits, Width::Auto)
}

/// [`build`] with a chosen [`Width`]: `Exact` fails with [`Limit::Memory`] where `Auto` would fall
/// back to mod 3; `Mod3` always takes 2 bits per state.
pub fn build_with<P: Indexed + Invertible + GoalSet>(
    space: &P,
    limits: &Limits,
    width: Width,
) -> Result<DistanceTable, Limit> {
    Build::new(space, limits, width, Whole, 0)?.run()
}

/// [`build_with`] over a space with symmetries: expands one state per orbit and gives its images
/// the same distance (see the module docs of [`table`](super)). The table is identical to
/// [`build_with`]'s.
pub fn build_symmetric<P: Indexed + Invertible + GoalSet + Symmetric>(
    space: &P,
    limits: &Limits,
    width: Width,
) -> Result<DistanceTable, Limit> {
    // Two instances of the build: representatives listed as 32-bit words, or as they are.
    if space.narrows() {
        Build::new(space, limits, width, Orbits::<Narrow>(Narrow), 0)?.run()
    } else {
        Build::new(space, limits, width, Orbits::<AsIs>(AsIs), 0)?.run()
    }
}

/// One build in progress: the space, the limits, the table and its counts.
pub(super) struct Build<'a, P, R> {
    space: &'a P,
    limits: &'a Limits,
    reduction: R,
    /// Time and Ctrl-C: each level's scan ticks it with the words it scans and the successors
    /// it generates.
    pub(super) latch: Latch,
    pub(super) entries: Packed,
    pub(super) mod3: bool,
    /// Whether a widening the budget refuses may turn the table into mod 3.
    may_compact: bool,
    /// Bytes held beside the table for the whole build (the XOR build's bitsets), counted
    /// against the budget with it.
    overhead: u128,
    stats: Stats,
}

impl<'a, P: Indexed + GoalSet, R: Reduction<P>> Build<'a, P, R> {
    /// Picks the coding and allocates the table, after checking the budget for it and
    /// `overhead` more bytes.
    pub(super) fn new(
        space: &'a P,
        limits: &'a Limits,
        width: Width,
        reduction: R,
        overhead: u128,
    ) -> Result<Self, Limit> {
        let latch = Latch::new(limits);
        let size = space.size();
        let exact = Packed::bytes_for(size, START_BITS);
        let compact = Packed::bytes_for(size, MOD3_BITS);
        let (exact, compact) = (exact + overhead, compact + overhead);
        let mod3 = match width {
            Width::Exact => {
                limits.check_memory(exact)?;
                false
            }
            Width::Mod3 => {
                limits.check_memory(compact)?;
                true
            }
            Width::Auto => {
                // Three times the 4-bit table: room to widen once, to 8 bits, during the copy.
                let three = (exact - overhead)
                    .saturating_mul(3)
                    .saturating_add(overhead);
                let roomy = limits.check_memory(three).is_ok();
                if !roomy {
                    limits.check_memory(compact)?;
                }
                !roomy
            }
        };
        // 2^64 states: no index fits a u64, whatever the budget says.
        let len = u64::try_from(size).map_err(|_| Limit::Memory {
            needed: compact,
            budget: limits.memory_budget,
        })?;
        let bits = if mod3 { MOD3_BITS } else { START_BITS };
        let entries = Packed::new(len, bits, &latch)?;
        Ok(Build {
            space,
            limits,
            reduction,
            latch,
            entries,
            mod3,
            may_compact: width == Width::Auto,
            overhead,
            stats: Stats::default(),
        })
    }

    /// Fills the table from the goals, level by level, until a level finds nothing.
    fn run(mut self) -> Result<DistanceTable, Limit> {
        let mut frontier = Frontier::new(self.frontier_cap());
        let mut level = self.reach_goals(&mut frontier);
        let len = self.entries.len;
        let mut histogram = Vec::new();
        let mut reached = 0u64;
        let mut depth = 0u64;
        while level > 0 {
            histogram.push(level);
            reached += level;
            self.stats.visited = reached;
            self.stats.peak_frontier = self.stats.peak_frontier.max(level);
            self.stats.depth = depth as u32;
            if let Some(max) = self.limits.max_states
                && reached > max
            {
                return Err(Limit::States(max));
            }
            if !self.mod3 && depth + 1 >= self.entries.unreached() {
                // The widening's budget check does not count the lists: drop them first.
                frontier = Frontier::new(0);
                self.make_room()?;
            }
            let direction = if level > len - reached {
                Scan::BottomUp
            } else {
                Scan::TopDown
            };
            let listed = frontier.take();
            if let Scan::BottomUp = direction {
                // A level after a bottom-up one is almost always bottom-up too (the levels
                // shrink): listing it would only cost time.
                frontier.abandon();
            }
            level = self.next_level(depth, direction, listed.as_deref(), &mut frontier)?;
            depth += 1;
        }
        self.stats.elapsed = self.latch.elapsed();
        Ok(DistanceTable {
            entries: self.entries.finished(),
            mod3: self.mod3,
            histogram,
            stats: self.stats,
        })
    }

    /// The most states a level's list may hold: an eighth of the table's entries (so that a
    /// level of the exact build's first levels, which are small, expands from its list), or none
    /// when two such lists (the level expanded and the level filled) do not fit the budget
    /// beside the table.
    fn frontier_cap(&self) -> usize {
        if !R::LISTS {
            return 0;
        }
        let cap = self.entries.len / 8;
        let lists = 2 * cap as u128 * std::mem::size_of::<R::Listed>() as u128;
        let table = Packed::bytes_for(self.entries.len as u128, self.entries.bits) + self.overhead;
        match self.limits.check_memory(table + lists) {
            Ok(()) => cap as usize,
            Err(_) => 0,
        }
    }

    /// The code stored for `depth`.
    #[inline]
    pub(super) fn code(&self, depth: u64) -> u64 {
        if self.mod3 { depth % 3 } else { depth }
    }

    /// Doubles the entry width; or, when the budget refuses that and the width is automatic,
    /// recodes the table mod 3.
    pub(super) fn make_room(&mut self) -> Result<(), Limit> {
        let size = self.entries.len as u128;
        let current = Packed::bytes_for(size, self.entries.bits) + self.overhead;
        let wider = self.entries.bits * 2;
        assert!(wider <= MAX_BITS, "a space deeper than 2^32 levels");
        let widened = self
            .limits
            .check_memory(current + Packed::bytes_for(size, wider));
        match widened {
            Ok(()) => self.entries = self.entries.recoded(wider, |code| code, &self.latch)?,
            Err(refused) => {
                let compact = current + Packed::bytes_for(size, MOD3_BITS);
                if !self.may_compact || self.limits.check_memory(compact).is_err() {
                    return Err(refused);
                }
                self.entries = self
                    .entries
                    .recoded(MOD3_BITS, |code| code % 3, &self.latch)?;
                self.mod3 = true;
            }
        }
        Ok(())
    }

    /// Gives `depth` to the goals and their images; returns how many states that reached.
    fn reach_goals(&mut self, frontier: &mut Frontier<R::Listed>) -> u64 {
        let (space, reduction, entries) = (self.space, &self.reduction, &mut self.entries);
        let mut found = 0;
        space.goals(&mut |goal| {
            let i = space.index(goal);
            if entries.get(i) == entries.unreached() {
                // A new table has its starting width: 4 bits, or 2 (mod 3).
                let reach = match entries.bits {
                    START_BITS => reach::<P, R, START_BITS>,
                    _ => reach::<P, R, MOD3_BITS>,
                };
                found += reach(space, reduction, entries, frontier, goal, i, 0);
            }
        });
        found
    }

    /// Fills level `depth + 1` from level `depth`; returns how many states it got. Top-down
    /// expands every state at `depth`; bottom-up looks, for every unreached state, for a
    /// successor at `depth` (cheaper when the level is larger than what is left unreached).
    ///
    /// `listed`: the representatives at `depth`, when they were kept in a list; `frontier`
    /// collects those of `depth + 1`.
    fn next_level(
        &mut self,
        depth: u64,
        direction: Scan,
        listed: Option<&[R::Listed]>,
        frontier: &mut Frontier<R::Listed>,
    ) -> Result<u64, Limit> {
        let codes = Codes {
            at: self.code(depth),
            next: self.code(depth + 1),
        };
        // One instance of the scans per entry width: the look-ups' shifts and masks are then
        // constants, which frees the registers the successor loop needs (callgrind, 4 x 6
        // symmetric build: BENCHMARKS.md).
        let scan = match self.entries.bits {
            2 => scan_for::<P, R, 2>(direction),
            4 => scan_for::<P, R, 4>(direction),
            8 => scan_for::<P, R, 8>(direction),
            16 => scan_for::<P, R, 16>(direction),
            32 => scan_for::<P, R, 32>(direction),
            bits => unreachable!("{bits} bits per entry"),
        };
        let scanned = scan(
            self.space,
            &self.reduction,
            &mut self.entries,
            &self.latch,
            codes,
            listed,
            frontier,
        )?;
        Ok(self.count(scanned))
    }

    /// Adds a scan's work to the stats; returns the states it reached.
    fn count(&mut self, scan: Scanned) -> u64 {
        self.stats.expanded += scan.expanded;
        self.stats.generated += scan.generated;
        scan.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toys::Line;

    #[test]
    fn deep_spaces_widen_the_table() {
        let t = build(&Line(300), &Limits::default()).unwrap();
        assert_eq!(t.bits_per_entry(), 16);
        assert_eq!(t.max_distance(), Some(299));
        assert_eq!(t.distance(&Line(300), 299).unwrap(), Some(299));
        assert_eq!(t.reachable(), 300);
        assert_eq!(t.path(&Line(300), 20).unwrap().unwrap().len(), 20);
    }

    #[test]
    fn the_budget_is_checked_before_allocating() {
        let limits = Limits {
            memory_budget: 100,
            ..Limits::default()
        };
        // Even 2 bits per state do not fit: the refusal names the 2-bit table's bytes.
        assert_eq!(
            build(&Line(1 << 40), &limits).unwrap_err(),
            Limit::Memory {
                needed: 1 << 38,
                budget: 100
            }
        );
        // An exact table must widen: 300 entries fit at 4 bits but not at 8 + 16.
        let limits = Limits {
            memory_budget: 500,
            ..Limits::default()
        };
        assert!(matches!(
            build_with(&Line(300), &limits, Width::Exact),
            Err(Limit::Memory { needed: 904, .. })
        ));
    }

    #[test]
    fn auto_width_turns_mod3_when_widening_does_not_fit() {
        let line = Line(300);
        let exact = build(&line, &Limits::default()).unwrap();
        // 4 -> 8 bits fits 500 bytes (152 + 304), 8 -> 16 does not (304 + 600): mod 3 instead.
        let limits = Limits {
            memory_budget: 500,
            ..Limits::default()
        };
        let t = build(&line, &limits).unwrap();
        assert!(!t.is_exact());
        assert_eq!(t.bits_per_entry(), 2);
        assert_eq!(t.histogram(), exact.histogram());
        for s in [0, 1, 2, 3, 14, 15, 254, 255, 256, 299] {
            assert_eq!(t.distance(&line, s).unwrap(), Some(s as u32));
            assert_eq!(t.path(&line, s).unwrap().unwrap().len(), s as usize);
        }
        // Too small for 4 bits three times over: mod 3 from the start.
        let limits = Limits {
            memory_budget: 400,
            ..Limits::default()
        };
        let t = build(&line, &limits).unwrap();
        assert_eq!((t.bits_per_entry(), t.bytes()), (2, 80));
        assert_eq!(t.distance(&line, 299).unwrap(), Some(299));
    }
}
