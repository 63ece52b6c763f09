//! A pruning table sized to the search: the distances of the states near the goal set, filled
//! breadth-first from the goals a level at a time, deepened while the search pays for it.
//!
//! A [pattern database](super::pdb) is exact over a projection of the whole space, so it is
//! built whole before the first node: tens of seconds to minutes on a large puzzle, wasted on a
//! short scramble that a few thousand nodes would solve. This table instead holds the exact
//! distances of the states within `d` moves of the goal set, and `d + 1` for every other state
//! (a state outside is more than `d` away): an admissible [`Heuristic`] from the first
//! millisecond, as strong inside as a perfect heuristic and as weak outside as `d + 1`. It is
//! what twsearch prunes with (Rokicki's hashed pruning table), and it combines with pattern
//! databases by [`Max`](super::pdb::Max).
//!
//! # The table: a lossy hash of minimum distances
//!
//! The states themselves are not kept (a megaminx state is 100 bytes: four million of them
//! would take 400 MB). The table is a power-of-two array of one-byte cells; a state's cell is
//! chosen by a hash of the state, and a cell holds the *least* distance of the states within
//! `d` that hash to it (`0` = no state within `d` does). A state's estimate is its cell's value,
//! or `d + 1` for an empty cell:
//!
//! - admissible whatever the collisions: a filled cell's value is the distance of some state of
//!   the cell at most as far as every state within `d` there, and a state not within `d` is at
//!   least `d + 1` away, more than any cell value;
//! - exact inside unless a nearer state shares the cell: the table is sized so that at most a
//!   quarter of the cells are filled (see [`Growth`]), so few are.
//!
//! The cells are filled by a depth-first walk from every goal over the move sequences that
//! [`may_follow`](StateSpace::may_follow) allows, to depth `d`, writing each leaf's depth
//! where the cell holds more: no frontier is stored and nothing is allocated per state (the walk
//! keeps one buffer of successors per level). A state is reached once per allowed sequence, not
//! once: on puzzles whose move order is canonical (the cubes' commuting faces) the sequences of
//! each length are about the states, elsewhere more (the walk counts them all as work, and the
//! growth rule charges them). Each deeper level walks the shallower ones again; at a branching
//! factor `b` that costs `1 / (b - 1)` more. Moves must be [`Invertible`] (a path from a goal to
//! a state, reversed, is a path from the state to the goal).
//!
//! # Grown while it pays
//!
//! The depth a search needs is not known before it runs, so the table decides it as the search
//! goes: it is filled at once while a level's walk stays below [`Growth::first_work`]
//! successors (milliseconds), then counts the search's estimates, and when those since the last
//! level reach [`Growth::pays`] times the larger of the successors its fill walked so far
//! (twsearch's rule) and the next level's expected walk up to [`SHORT_SEARCH`], it walks one
//! level deeper before it answers the next estimate. So the fill never costs much more than the
//! search itself: a short search does not pay for a level about as dear as itself (with
//! twsearch's rule alone, a level walked after a few thousand nodes was 80 % of an 8-move solve
//! of twsearch's Jing pyraminx, 0.10 s, now 0.01 s; the 3x3x3's 10-move cold solve 1.0 s, now
//! 0.25 s), and a long one gets a deeper table as it runs, as fast as with twsearch's rule (the
//! 3x3x3's 12- and 13-move cold solves: 2.9 and 10.1 s, both ways). A level dearer than
//! [`EAGER_WORK`] successors (seconds) waits until the estimates since the last reach its own
//! walk: that bet is the search's to win, not the table's (the 3x3x3's depth 7, 110 million
//! successors, 25 s, walked after 20 million estimates would make the 12-move cold solve 25 s
//! rather than 3). It stops where the next level would fill more than a quarter of the largest
//! tier (the memory is fixed when the table is made: [`Growth::bytes`], checked against
//! [`Limits::memory_budget`] first). A deeper level only raises estimates, never above the true
//! distance, so an IDA* or A* search that reads it mid-run stays optimal (each cut is made with
//! an admissible value).
//!
//! # Tiers
//!
//! A cell written is a page touched: a first fill of a 64 MiB table, 2^17 cells, touched
//! nearly all of its 16,384 pages, and the page faults were most of a cold 1-move solve (0.06
//! to 0.12 s on twsearch's helicopter and master skewb, against twsearch's 0.01 s). And a long
//! search wants its levels sparse: a state beyond the depth whose cell a nearer state filled is
//! estimated low, so the nodes at the table's edge grow with the share of cells filled
//! (twsearch's 8x8x8 8-move scramble, depth 4 of the table: a fifth of 64 MiB filled, 934
//! thousand nodes, 26 s; a seventieth of 1 GiB, 135 thousand, 14 s). So the table grows in
//! tiers, each [`TIER_GROWTH`] times the one before, up to [`Growth::bytes`] (1 MiB, 64 MiB and
//! 1 GiB by default): it starts in the first ([`Growth::first_bytes`]: a first fill touches a
//! few hundred pages), and when the next level would fill more than an eighth of the tier it is
//! in (`1 / SPARSE`), it moves to the smallest larger tier the level fills an eighth of at
//! most, else to the largest if the level fills a quarter of it at most (`1 / FULL`), else it
//! stays where it is while the level fills a quarter at most, else it stops. A new tier is
//! filled to the depth by one walk that writes every state it passes (the levels so far again,
//! about one level's work), and only then handed to the estimates, so a reader sees one tier
//! whole. Every tier is reserved against the budget when the table is made (their pages are
//! touched only once a level is written there); the tiers left behind stay allocated (a
//! sixty-fourth of the next each). An eighth, not less: at a sixteenth the 3x3x3's depth 6
//! (7.7 million cells) moved to 1 GiB for half the nodes of its 12-move cold solve, and took
//! 1.8 times as long (each estimate a TLB miss and a cache miss, every page faulted in).
//!
//! Each level's walk counts its successors on a [`Ticker`](crate::limit::Ticker) against the
//! limits of the run that made the table, its time limit counted from the making (so a level
//! walked mid-search stops with the search's time limit and Ctrl-C, within a second); a level
//! that stops is dropped (the cells it wrote are lower bounds all the same) and the table
//! deepens no more.
//!
//! # Symmetric tables
//!
//! [`PruningTable::symmetric`] keys a cell by the state that stands for the state's orbit under
//! the space's [`Symmetric`] images (which keep distances: they map moves to moves and goals to
//! goals), as twsearch does: a level fills about one cell per orbit, so the same bytes hold a
//! level or two more (the 3x3x3's 24 rotations: depth 7 in 64 MiB where the plain table stops
//! at 6; its 48 symmetries, mirror images included, halve the cells again). The walk is cut at its root: of the first moves that reach states of one orbit only
//! the first is walked (the others' subtrees end in images of its subtree's states, orbit for
//! orbit), one goal per orbit too. That is exact with one condition on
//! [`may_follow`](StateSpace::may_follow): after the first move, the second may be any that may
//! follow it *in either order*, since the image of a shortest path whose first move was mapped
//! onto the kept one has a tail that is a shortest path on its own (rewritten into allowed
//! order) but may start with a move that the kept first move must not precede. A pair that
//! `may_follow` refuses in both orders (two turns of one generator) never lies on a shortest
//! path, so nothing is lost. The walk then costs about `1 / (first-move orbit size)` of the
//! plain one (the cube's 18 face turns fall into three orbits: a sixth), each leaf and each
//! estimate pays for the state's images (`|G| - 1` passes over the state), and the prefetch is
//! skipped (it would compute them twice).
//!
//! Trade-offs: one byte a cell where twsearch packs 2 bits (simpler, and the depths of a short
//! search stay small anyway); tiers 64 times apart rather than doubling (a lossy table cannot be
//! rehashed, only refilled: two refills, not one per doubling), the middle tier so that a
//! mid-length search does not fault in every page of the largest for a level of a few hundred
//! thousand cells; the walk's sequences instead of a breadth-first set of states (no memory for
//! frontiers, at the price of revisits where the move order is not canonical). A cached pattern
//! database, where there is one, is stronger on every state far from the goal; this table is for
//! the first run, before the databases exist.

use crate::limit::{Latch, Limit, Limits};
use crate::space::{GoalSet, Heuristic, Invertible, Prefetched, StateSpace, Symmetric};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How a [`PruningTable`] is sized and grown (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Growth {
    /// The largest tier's bytes (one a cell), rounded down to a power of two; at most a quarter
    /// of a tier's cells are filled.
    pub bytes: u64,
    /// The first tier's bytes (a power of two) when smaller than `bytes`: the table starts
    /// there and moves to the tiers [`TIER_GROWTH`] times larger, up to `bytes`, as levels need
    /// them (see the module docs).
    pub first_bytes: u64,
    /// Levels are filled when the table is made while a level's walk generates at most this
    /// many successors.
    pub first_work: u64,
    /// A level more is walked when the search's estimates since the last level reach this many
    /// times the larger of the successors the fill has walked so far and the next level's
    /// expected walk (at most [`SHORT_SEARCH`]).
    pub pays: u64,
}

impl Default for Growth {
    /// Up to 1 GiB in tiers of 1 MiB, 64 MiB and 1 GiB, levels of up to 2^14 successors at once (a
    /// millisecond or so where a successor is cheap; 2^17 took 0.1 s on twsearch's nautilus,
    /// whose `Illegal` rules make each successor dear, against twsearch's whole 0.03 s solve),
    /// then one estimate of the search per successor of the fill.
    fn default() -> Self {
        Growth {
            bytes: 1 << 30,
            first_bytes: 1 << 20,
            first_work: 1 << 14,
            pays: 1,
        }
    }
}

impl Growth {
    /// The default growth with at most a quarter of `limits.memory_budget` (the rest is the
    /// search's and the pattern databases').
    pub fn within(limits: &Limits) -> Growth {
        let default = Growth::default();
        Growth {
            bytes: default.bytes.min(limits.memory_budget / 4),
            ..default
        }
    }
}

/// Each tier of a [`PruningTable`] holds this many times the cells of the one before (the last
/// one [`Growth::bytes`]).
pub const TIER_GROWTH: u64 = 64;

/// What the fill has walked: per level, the allowed sequences of that length (the leaves of
/// the level's walk), and the successors generated by all the walks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fill {
    /// `leaves[k]`: the move sequences of length `k` from a goal that the walk followed.
    pub leaves: Vec<u64>,
    /// Cells filled (the distinct cells of the states within the depth).
    pub filled: u64,
    /// Successors generated by every level's walk.
    pub work: u64,
    /// Wall-clock time of every level's walk.
    pub took: Duration,
    /// A level's walk stopped at a limit (or the next level would not fit): no more levels.
    pub frozen: bool,
}

/// The states within a depth of the goal set, by a lossy hash of least distances (see the
/// module docs); an admissible [`Heuristic`] that deepens itself while the search pays.
pub struct PruningTable<P: StateSpace> {
    /// The cells estimates read until the table outgrows them ([`Growth::first_bytes`]).
    first: Cells,
    /// The larger tiers, smallest first, each set once a level needs it: made, filled to the
    /// depth, and only then set (so a reader sees one tier whole).
    later: Box<[Tier]>,
    /// Every state whose cell is empty is at least `depth + 1` away.
    depth: AtomicU32,
    goals: Vec<P::State>,
    /// Estimates answered (a plain counter, not a read-modify-write: it runs for every node).
    estimates: AtomicU64,
    /// The estimate count at which a level more is walked (`u64::MAX`: never).
    deepen_at: AtomicU64,
    fill: Mutex<Fill>,
    growth: Growth,
    limits: Limits,
    /// The state a cell is chosen by: the state itself, or the one that stands for its orbit
    /// under the space's symmetries ([`symmetric`](PruningTable::symmetric)).
    canonical: fn(&P, P::State) -> P::State,
    /// The states of an orbit, at most: the symmetries' count (1 without them).
    orbit_size: u64,
}

impl<P: StateSpace> std::fmt::Debug for PruningTable<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PruningTable")
            .field("cells", &self.cells().len())
            .field("depth", &self.depth())
            .finish_non_exhaustive()
    }
}

/// Up to this many successors, a level is walked only once the search has spent as many
/// estimates as the level's walk is expected to take (see "Grown while it pays" in the module
/// docs): a search this short is solved sooner by the table it has.
pub const SHORT_SEARCH: u64 = 1 << 20;

/// A level whose walk is expected to generate more successors than this (seconds of work) is
/// walked only once the search's estimates since the last level reach the walk's own work: a
/// search that might end in seconds must not wait on a walk of tens (see the module docs).
pub const EAGER_WORK: u64 = 1 << 25;

/// A level may fill at most this share of a tier's cells, `1 / FULL` (every state beyond the
/// depth whose cell a nearer one filled is estimated less than `depth + 1`: a quarter of them
/// at a quarter full).
const FULL: u64 = 4;

/// A tier the next level would fill beyond `1 / SPARSE` is left for a larger one where there
/// is one (see "Tiers" in the module docs).
const SPARSE: u64 = 8;

/// The largest depth a cell can hold (255 is 1 + 254).
const MAX_DEPTH: u32 = 254;

impl<P: StateSpace + Invertible + GoalSet> PruningTable<P> {
    /// A table of `growth.bytes` (refused with [`Limit::Memory`] before allocating when
    /// `limits.memory_budget` is smaller), filled at once while a level's walk generates at most
    /// [`Growth::first_work`] successors; later levels are walked under `limits` too, their
    /// time limit counted from now unless [`Limits::clock_start`] says otherwise.
    pub fn new(space: &P, limits: &Limits, growth: Growth) -> Result<Self, Limit> {
        Self::make(space, limits, growth, |_, state| state, 1)
    }

    /// [`new`](Self::new), one cell per orbit of the space's symmetries: a state's cell is that
    /// of the state standing for its orbit (which is as far from the goals: the symmetries map
    /// moves to moves and goals to goals), so a level fills about `1 / |G|` of the cells that
    /// [`new`](Self::new)'s would, and the same bytes hold levels deeper. The walk is the same;
    /// each cell written and each estimate pay for the state's images (`|G| - 1` of them).
    pub fn symmetric(space: &P, limits: &Limits, growth: Growth) -> Result<Self, Limit>
    where
        P: Symmetric,
    {
        let mut orbit_size = 1;
        space.goals(&mut |goal| {
            let mut images = 1;
            space.images(goal, |_| images += 1);
            orbit_size = images;
        });
        Self::make(
            space,
            limits,
            growth,
            |space, state| space.representative(state),
            orbit_size,
        )
    }

    fn make(
        space: &P,
        limits: &Limits,
        growth: Growth,
        canonical: fn(&P, P::State) -> P::State,
        orbit_size: u64,
    ) -> Result<Self, Limit> {
        let bytes = 1u64 << growth.bytes.max(1).ilog2();
        let first = bytes.min(1 << growth.first_bytes.max(1).ilog2());
        let later: Box<[Tier]> = std::iter::successors(Some(first), |&tier| {
            (tier < bytes).then(|| tier.saturating_mul(TIER_GROWTH).min(bytes))
        })
        .skip(1)
        .map(|bytes| Tier {
            bytes,
            cells: OnceLock::new(),
        })
        .collect();
        let reserved = later.iter().map(|t| u128::from(t.bytes)).sum::<u128>();
        limits.check_memory(u128::from(first) + reserved)?;
        let mut goals = Vec::new();
        // One goal per orbit (a symmetric table): the others' walks reach the same orbits.
        let mut orbits = hashbrown::HashSet::new();
        space.goals(&mut |g| {
            if orbit_size == 1 || orbits.insert(canonical(space, g)) {
                goals.push(g)
            }
        });
        let mut limits = limits.clone();
        limits.clock_start.get_or_insert_with(Instant::now);
        let table = PruningTable {
            first: Cells::zeroed(first),
            later,
            depth: AtomicU32::new(0),
            goals,
            estimates: AtomicU64::new(0),
            deepen_at: AtomicU64::new(u64::MAX),
            fill: Mutex::new(Fill::default()),
            growth,
            limits,
            canonical,
            orbit_size,
        };
        {
            let mut fill = table.fill.lock().unwrap_or_else(|e| e.into_inner());
            table.walk_level(space, &mut fill, 0)?;
            while table.next_work(&fill) <= growth.first_work {
                if !table.deepen_locked(space, &mut fill)? {
                    break;
                }
            }
            table.schedule(&fill);
        }
        Ok(table)
    }

    /// Walks one level deeper now, whatever the search has done (the growth rule calls it; so
    /// can a caller that wants a deeper table). `Ok(false)` when the table is frozen or the level
    /// would fill more than a quarter of the cells; `Err` when a limit stopped the walk (the
    /// table then stays at its depth and deepens no more).
    pub fn deepen(&self, space: &P) -> Result<bool, Limit> {
        let mut fill = self.fill.lock().unwrap_or_else(|e| e.into_inner());
        let deepened = self.deepen_locked(space, &mut fill);
        self.schedule(&fill);
        deepened
    }

    fn deepen_locked(&self, space: &P, fill: &mut Fill) -> Result<bool, Limit> {
        let depth = self.depth();
        if fill.frozen || depth >= MAX_DEPTH {
            fill.frozen = true;
            return Ok(false);
        }
        let next = self.next_cells(fill);
        let here = self.cells().len() as u64;
        if next > here / SPARSE {
            // Out of the tier it is in: the smallest tier not yet made that the next level
            // leaves sparse, else the largest if it holds the level at all.
            let mut tiers = self.later.iter().filter(|t| t.cells.get().is_none());
            let sparse = tiers.clone().find(|t| next <= t.bytes / SPARSE);
            let roomy = tiers.next_back().filter(|t| next <= t.bytes / FULL);
            match sparse.or(roomy) {
                Some(tier) => {
                    if let Err(limit) = self.move_to(tier, space, fill) {
                        fill.frozen = true;
                        return Err(limit);
                    }
                }
                None if next <= here / FULL => {}
                None => {
                    fill.frozen = true;
                    return Ok(false);
                }
            }
        }
        match self.walk_level(space, fill, depth + 1) {
            Ok(()) => Ok(true),
            Err(limit) => {
                fill.frozen = true;
                Err(limit)
            }
        }
    }

    /// Fills `tier` to the table's depth (one walk that writes every state it passes, not only
    /// its leaves), then hands it to the estimates.
    fn move_to(&self, tier: &Tier, space: &P, fill: &mut Fill) -> Result<(), Limit> {
        let cells = Cells::zeroed(tier.bytes);
        let walked = self.walk(space, fill, &cells, self.depth(), true)?;
        fill.filled = walked.filled;
        let _ = tier.cells.set(cells);
        Ok(())
    }

    /// Walks every allowed sequence of `depth` moves from every goal and writes its end, then
    /// makes `depth` the table's.
    fn walk_level(&self, space: &P, fill: &mut Fill, depth: u32) -> Result<(), Limit> {
        let walked = self.walk(space, fill, self.cells(), depth, false)?;
        fill.filled += walked.filled;
        fill.leaves.push(walked.leaves);
        // Release: a reader that sees the new depth sees every cell written before it.
        self.depth.store(depth, Ordering::Release);
        Ok(())
    }

    /// Walks every allowed sequence of `depth` moves from every goal, writing into `into` the
    /// ends (and with `every_state` the states on the way), its work and time counted in `fill`.
    fn walk<'a>(
        &'a self,
        space: &'a P,
        fill: &mut Fill,
        into: &'a Cells,
        depth: u32,
        every_state: bool,
    ) -> Result<Walked, Limit> {
        let started = Instant::now();
        let latch = Latch::new(&self.limits);
        let mut walk = Walk {
            table: self,
            space,
            into,
            every_state,
            ticker: latch.ticker(),
            buffers: Vec::new(),
            hashes: Vec::new(),
            depth,
            walked: Walked::default(),
            work: fill.work,
        };
        let result = self.goals.iter().try_for_each(|&g| walk.visit(g, None, 0));
        fill.work = walk.work;
        fill.took += started.elapsed();
        result.map(|()| walk.walked)
    }

    /// The sequences the next level is expected to walk: the last level's times its growth.
    fn next_leaves(&self, fill: &Fill) -> u64 {
        match fill.leaves.as_slice() {
            [.., before, last] if *before > 0 => {
                let ratio = (*last as f64 / *before as f64).max(1.0);
                (*last as f64 * ratio).min(u64::MAX as f64) as u64
            }
            [last] => last.saturating_mul(self.goals.len().max(1) as u64 * 64),
            _ => 0,
        }
    }

    /// The cells the next level is expected to fill: its sequences, or in a symmetric table
    /// (where many sequences end in one orbit) its sequences times the cells a sequence has
    /// filled so far.
    fn next_cells(&self, fill: &Fill) -> u64 {
        let leaves = self.next_leaves(fill);
        if self.orbit_size == 1 {
            return leaves;
        }
        let walked: u64 = fill.leaves.iter().sum();
        let per_leaf = fill.filled.max(1) as f64 / walked.max(1) as f64;
        (leaves as f64 * per_leaf.min(1.0)) as u64
    }

    /// The successors the next level's walk is expected to generate (every level below again,
    /// and the next level's leaves).
    fn next_work(&self, fill: &Fill) -> u64 {
        let shallower: u64 = fill.leaves.iter().sum();
        shallower.saturating_add(self.next_leaves(fill))
    }

    /// When the search's estimates next pay for a level (see the module docs).
    fn schedule(&self, fill: &Fill) {
        let at = if fill.frozen {
            u64::MAX
        } else {
            let done = self.estimates.load(Ordering::Relaxed);
            let next = self.next_work(fill);
            let eager = if next <= EAGER_WORK {
                next.min(SHORT_SEARCH)
            } else {
                next
            };
            let need = fill.work.max(eager);
            done.saturating_add(need.saturating_mul(self.growth.pays))
        };
        self.deepen_at.store(at, Ordering::Relaxed);
    }

    /// Counts an estimate; walks a level more when the search has paid for it.
    #[inline]
    fn count(&self, space: &P) {
        let done = self.estimates.load(Ordering::Relaxed) + 1;
        self.estimates.store(done, Ordering::Relaxed);
        if done >= self.deepen_at.load(Ordering::Relaxed) {
            self.grow(space);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&self, space: &P) {
        // Another thread deepening already: this one goes on with the table as it is.
        let Ok(mut fill) = self.fill.try_lock() else {
            return;
        };
        // A limit stops the level; the search meets the same limit at its next poll.
        let _ = self.deepen_locked(space, &mut fill);
        self.schedule(&fill);
    }
}

/// A tier larger than the first: its size, and its cells once made.
struct Tier {
    bytes: u64,
    cells: OnceLock<Cells>,
}

/// One tier of cells: `cells[i]` is 0 when no state within the depth hashes to `i`, else 1 +
/// the least distance of those that do.
struct Cells {
    cells: Box<[AtomicU8]>,
    /// `64 - log2(cells.len())`: a hash's top bits pick the cell.
    shift: u32,
}

impl Cells {
    /// `bytes` (a power of two) empty cells.
    fn zeroed(bytes: u64) -> Cells {
        Cells {
            cells: zeroed(bytes as usize),
            shift: 64 - bytes.ilog2(),
        }
    }

    fn len(&self) -> usize {
        self.cells.len()
    }

    /// The cell a state's hash picks.
    #[inline]
    fn at(&self, hash: u64) -> &AtomicU8 {
        &self.cells[(hash >> self.shift) as usize]
    }

    /// Asks for the cache line of the cell of `hash` ahead of its read.
    #[inline]
    fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let at = self.at(hash) as *const AtomicU8;
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: a prefetch never faults and changes no memory; `at` is inside the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(at as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }
}

/// What a walk wrote: the sequences it ended (its leaves) and the cells it filled.
#[derive(Default)]
struct Walked {
    leaves: u64,
    filled: u64,
}

impl<P: StateSpace> PruningTable<P> {
    /// The cells estimates read now: the largest tier made.
    #[inline]
    fn cells(&self) -> &Cells {
        let mut made = self.later.iter().rev().filter_map(|t| t.cells.get());
        made.next().unwrap_or(&self.first)
    }

    /// The depth filled: every state within it has its cell's least distance, and every other
    /// state is estimated `depth + 1`.
    pub fn depth(&self) -> u32 {
        self.depth.load(Ordering::Acquire)
    }

    /// The bytes of the cells estimates read now (one a cell): the largest tier made.
    pub fn bytes(&self) -> u64 {
        self.cells().len() as u64
    }

    /// The most bytes the table takes: every tier, checked against the budget when it was made.
    pub fn reserved(&self) -> u64 {
        let later: u64 = self.later.iter().map(|t| t.bytes).sum();
        self.first.len() as u64 + later
    }

    /// What the fill has walked so far.
    pub fn fill(&self) -> Fill {
        self.fill.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The cell of `state` (of the state standing for its orbit, in a
    /// [`symmetric`](PruningTable::symmetric) table).
    #[inline]
    pub fn cell(&self, space: &P, state: P::State) -> usize {
        (self.hash(space, state) >> self.cells().shift) as usize
    }

    /// The hash that picks a state's cell in either tier.
    #[inline]
    fn hash(&self, space: &P, state: P::State) -> u64 {
        let mut hasher = super::Mix(0);
        (self.canonical)(space, state).hash(&mut hasher);
        hasher.finish()
    }

    /// The orbits' size the table assumes: 1, or the symmetries' count in a
    /// [`symmetric`](PruningTable::symmetric) table.
    pub fn orbit_size(&self) -> u64 {
        self.orbit_size
    }

    /// The least distance held in `cell` (`None` when no state within the depth hashes there).
    pub fn cell_distance(&self, cell: usize) -> Option<u32> {
        match self.cells().cells[cell].load(Ordering::Relaxed) {
            0 => None,
            code => Some(u32::from(code) - 1),
        }
    }

    /// The estimate of `state`: its cell's least distance, or `depth + 1` for an empty cell.
    #[inline]
    pub fn distance(&self, space: &P, state: P::State) -> u32 {
        // The depth first (acquire): the cells written before it are seen.
        let depth = self.depth();
        match self
            .cells()
            .at(self.hash(space, state))
            .load(Ordering::Relaxed)
        {
            0 => depth + 1,
            code => u32::from(code) - 1,
        }
    }
}

impl<P> Heuristic<P> for PruningTable<P>
where
    P: StateSpace + Invertible + GoalSet,
    P::State: Send + Sync,
{
    #[inline]
    fn estimate(&self, space: &P, state: P::State) -> u32 {
        self.count(space);
        self.distance(space, state)
    }

    /// The cell's line fetched early, in a plain table only: a symmetric table's cell costs the
    /// state's images, which the estimate would compute again.
    #[inline]
    fn prefetch(&self, space: &P, state: P::State) -> Prefetched {
        if self.orbit_size == 1 {
            self.cells().prefetch(self.hash(space, state));
        }
        Prefetched::NONE
    }
}

/// `count` zeroed cells: the allocator's zeroed pages, untouched (so unpaid for) until written.
fn zeroed(count: usize) -> Box<[AtomicU8]> {
    let mut bytes = std::mem::ManuallyDrop::new(vec![0u8; count]);
    let (ptr, len, capacity) = (bytes.as_mut_ptr(), bytes.len(), bytes.capacity());
    // SAFETY: `AtomicU8` has the size, alignment and bit validity of `u8`, and the vector's
    // allocation is handed over whole (ManuallyDrop: freed once, as the new vector's).
    unsafe { Vec::from_raw_parts(ptr.cast::<AtomicU8>(), len, capacity) }.into_boxed_slice()
}

/// One level's depth-first walk from the goals.
struct Walk<'a, P: StateSpace> {
    table: &'a PruningTable<P>,
    space: &'a P,
    /// The tier written.
    into: &'a Cells,
    /// Whether every state on the way is written too (a refill), not only the leaves.
    every_state: bool,
    ticker: crate::limit::Ticker<'a>,
    /// One buffer of successors per level, reused.
    buffers: Vec<Vec<(P::Move, P::State)>>,
    /// The hashes of one node's leaves, reused.
    hashes: Vec<u64>,
    depth: u32,
    walked: Walked,
    work: u64,
}

impl<P: StateSpace> Walk<'_, P> {
    fn visit(&mut self, state: P::State, previous: Option<P::Move>, g: u32) -> Result<(), Limit> {
        if g == self.depth || self.every_state {
            self.walked.leaves += u64::from(g == self.depth);
            self.write(self.table.hash(self.space, state), g);
            if g == self.depth {
                return Ok(());
            }
        }
        let level = g as usize;
        if self.buffers.len() <= level {
            self.buffers.push(Vec::new());
        }
        let mut successors = std::mem::take(&mut self.buffers[level]);
        successors.clear();
        let space = self.space;
        let symmetric = self.table.orbit_size > 1;
        space.successors(state, &mut |m, t| {
            let allowed = match previous {
                None => true,
                // After a first move kept for its orbit (below), a move that may follow it in
                // either order (see "Symmetric tables" in the module docs).
                Some(p) if symmetric && g == 1 => space.may_follow(p, m) || space.may_follow(m, p),
                Some(p) => space.may_follow(p, m),
            };
            if allowed {
                successors.push((m, t));
            }
        });
        if symmetric && g == 0 {
            // One first move per orbit of the states it reaches: the rest are their images.
            let canonical = self.table.canonical;
            let mut seen = hashbrown::HashSet::with_capacity(successors.len());
            successors.retain(|&(_, t)| seen.insert(canonical(space, t)));
        }
        self.work += successors.len() as u64;
        let mut result = self.ticker.tick(self.work);
        if result.is_ok() && g + 1 == self.depth {
            // The children are leaves: every cell asked for first, then written, so that their
            // misses (a large tier's cells miss the cache and the TLB) overlap rather than
            // come one after another: the walk of a large tier waits on memory, not on moves.
            let mut hashes = std::mem::take(&mut self.hashes);
            hashes.clear();
            hashes.extend(successors.iter().map(|&(_, t)| {
                let hash = self.table.hash(space, t);
                self.into.prefetch(hash);
                hash
            }));
            self.walked.leaves += hashes.len() as u64;
            hashes.iter().for_each(|&hash| self.write(hash, g + 1));
            self.hashes = hashes;
        } else if result.is_ok() {
            for &(m, t) in &successors {
                result = self.visit(t, Some(m), g + 1);
                if result.is_err() {
                    break;
                }
            }
        }
        self.buffers[level] = successors;
        result
    }

    /// Writes distance `g` into the cell of `hash` where it holds more (or nothing).
    #[inline]
    fn write(&mut self, hash: u64, g: u32) {
        let cell = self.into.at(hash);
        let code = cell.load(Ordering::Relaxed);
        let mine = (g + 1) as u8;
        if code == 0 || code > mine {
            self.walked.filled += u64::from(code == 0);
            cell.store(mine, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests;
