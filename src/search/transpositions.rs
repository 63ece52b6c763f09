//! A bounded transposition table for the depth-first engines ([`iddfs`](super::iddfs),
//! [`idastar`](super::idastar)): the states entered in the current iteration, each with the
//! fewest moves from the start it was entered at (`g`) and the move that led there, so that a
//! state reached again at the same or a larger `g` is not searched again.
//!
//! # Why
//!
//! A depth-first search keeps no visited set: a state reached along several paths is searched
//! below each of them. The space's [`may_follow`](StateSpace::may_follow) rule removes the
//! redundant orders it knows (never undo the previous move; press Flip's cells in increasing
//! order), but a puzzle of many independent moves (a sliding-block puzzle, where moving piece A
//! then B reaches what B then A reaches) multiplies the same states by the number of orders of
//! its moves, and a deepening search there cannot finish. The table removes those repeats
//! within one iteration, in memory fixed in advance.
//!
//! # What it stores, and how it is bounded
//!
//! One flat array of slots. A slot holds a state, the move that entered it, its `g` and the
//! iteration's stamp: nothing is allocated per state. A new iteration bumps the stamp, which
//! empties every slot at once (entries of earlier iterations were searched to another bound:
//! see below why they are not used).
//!
//! Its largest size is fixed before the search starts, by [`SearchOptions::transpositions`](crate::options::SearchOptions::transpositions): by default
//! [`AUTO_BYTES`], at most a quarter of the memory budget; an explicit size over the budget is
//! refused with the figure, before anything is allocated. The array starts at
//! [`INITIAL_BYTES`] and grows between iterations, never within one: when the iteration that
//! ended wrote more entries than half the slots, the next gets room for what the last wrote
//! times the last iteration's growth (deepening grows each iteration by a similar factor),
//! at least twice the slots, at most the largest size. Growing moves nothing (the entries are
//! stale at that moment), and the memory is zeroed pages that the system hands out as they are
//! first written (huge pages where the kernel agrees: one fault per 2 MiB rather than per
//! 4 KiB, and fewer TLB misses), so a search of a few thousand nodes touches a few pages, not
//! megabytes of them, and a long one reaches the size it fills.
//!
//! The slots are 2-way buckets, a state's bucket chosen by a hash of it. Replacement:
//!
//! - a state found in its bucket at a larger `g` is overwritten by the new, smaller one;
//! - a new state goes into the first slot when that one is empty or holds a `g` at least as
//!   large (the old first moves to the second slot), else into the second slot. The first slot
//!   keeps the shallower entries, which stand for larger subtrees; the second takes the recent
//!   ones, the current branch and its neighbours, where most transpositions meet.
//!
//! A state pushed out is only searched again when met again: the table changes how much work is
//! repeated, never the answer (nor whether an answer is proven: see below). Only states with successors to search are entered (a node whose
//! successors all fall beyond the bound costs as much to generate again as to look up, and would
//! crowd out the entries that save work).
//!
//! # Which repeats are skipped
//!
//! A state's subtree depends on more than the state: on the moves left to the bound (the same
//! at the same `g` within one iteration: the bound is the iteration's and the estimate a function
//! of the state) and on the previous move, through `may_follow`. So the table keeps the previous
//! move with the state. A state `s` reached at `g` after move `p`, whose slot says it was
//! entered earlier in this iteration at `g'` after move `q`:
//!
//! - `g' < g`: is skipped whole, before its successors are searched
//!   ([`skips`](TranspositionTable::skips); IDA* has generated them, none estimated). No path through this node is a shortest path to
//!   anything below it (the earlier one reached `s` in fewer moves).
//! - `g' = g` and `q = p` (or `s` is the start): is skipped whole; its subtree is the earlier
//!   one's, node for node.
//! - `g' = g`, `q != p`: skips the successors `s -m->` that `q` allowed (`may_follow(q, m)`:
//!   [`enter`](TranspositionTable::enter)), searched (or being searched, on the current branch)
//!   below the earlier entry with as many moves to spare; the others, which `p` allows and `q`
//!   refused, are searched now. (Under "never undo the previous move" that is the one move that
//!   undoes `q`.)
//! - `g' > g`: is searched, and its entry replaces the earlier one.
//!
//! # Why answers stay optimal and proofs stay proofs
//!
//! Call the search tree without the table `T` (the allowed paths within the iteration's bound)
//! and `L` the length of a shortest path from the start to a goal. By the `may_follow`
//! invariant, `T` holds a shortest path `P` to the nearest goal, within the bound or cut by it,
//! and every node of `P` is at its state's distance from the start (a prefix of a shortest path
//! is one), so the first rule never skips a node of `P`. The third rule skips a node `x` only
//! where `T` holds a *copy* of it: the same moves played from the earlier entry, reaching the
//! same state at the same depth along allowed moves (the earlier entry's move allowed the first;
//! the rest follow one another as in `x`'s path), visited before `x` (below a node entered
//! earlier and not an ancestor), and on a shortest path when `x` is. The second rule is the same
//! with every successor copied. So a node of `P` that the table prunes has a copy on a shortest
//! path at the same depth and with the same `f`, visited earlier; taking copies strictly
//! decreases the order of visit and ends at a node the table keeps. Hence, in every iteration:
//!
//! - **a goal within the bound is found**, and since the iteration before found none within
//!   its smaller bound, the first goal found is at depth `L`: the answer is optimal, and "no
//!   solution within depth `d`" is proven;
//! - **IDA* skips no threshold**: the first node of `P` beyond the threshold (or a copy of it,
//!   with the same `f <= L`) is met and cut, so the next threshold never passes `L`;
//! - **`Unsolvable` stays a proof**: when a goal is reachable, the iteration meets `P`'s node at
//!   its bound (or a copy), so an iteration that cuts nothing proves that no goal is reachable.
//!
//! Skipping a repeat at `g' < g` whole is what lets the table end a deepening on a cyclic space
//! whose move-order rule leaves cycles: a branch that comes back to a state of the current
//! branch stops there, so when the table holds the branch the iteration runs out of nodes before
//! the bound and proves the start unsolvable, where without the table (or with one too small for
//! the branch) the depth limit stops the run. It removes nodes that are on no shortest path but
//! may lead to cuts, so an IDA* threshold can rise by more than it would without the table, never
//! past `L`. The repeat at `g' = g` by another move keeps the refused successors because a
//! shortest path may go through them: skipping them whole could lose `P`.
//!
//! This holds only within one iteration: an entry of an earlier one was searched to another
//! bound, and the stamp forgets it.
//!
//! # Exhaustion
//!
//! On a small space the iterations keep cutting nodes, reached again along longer paths, long
//! after every state has been entered: a deepening search that cannot reach a goal would
//! raise its bound until no path is cut, which on a board of a few hundred positions takes
//! millions of nodes (where a BFS takes milliseconds). So after an iteration that found no
//! goal, the search asks [`exhausted`](TranspositionTable::exhausted): when the table holds as
//! many states as after the iteration before, it explores, by every move, from the entries and
//! the start: a state reached that is no entry (a leaf the search never enters, having nothing
//! to search below it; an entry pushed out of a full bucket; the start of a parallel search,
//! whose split enters nothing) is explored in turn, up to as many states again as the table
//! holds (at least a few thousand). When that runs out of
//! states without meeting a goal, the entries and the states explored are everything the start
//! reaches (they are closed under the moves), so the start is proven unsolvable. The check
//! costs about an iteration's work at most (a table that holds part of a large space fails it
//! at once), and runs only when the count of states stalls.
//!
//! # Several solutions
//!
//! A run that lists several optimal solutions ([`SearchOptions::solutions`](crate::options::SearchOptions::solutions) above 1) needs every path
//! of `T` to a goal, not one: the repeats at `g' = g` are other prefixes of the same suffixes,
//! each a distinct solution, so skipping them (the second and third rules) would drop
//! solutions. Such a run's table ([`listing`](TranspositionTable::listing)) keeps only the first
//! rule: a repeat in more moves is on no shortest path (in the iteration that finds the goals,
//! whose bound is the optimal length `L`, a shorter prefix would make a path shorter than `L`),
//! so it holds no solution, and it still cuts the cycles and the detours. The table then
//! lists the same solutions as no table, in the same order (tested against a brute force in
//! `search::table::listing`), and saves less work.
//!
//! # Cost
//!
//! One hash per node and one or two reads of its bucket (the look-up before its successors are
//! searched, the record after); an engine prefetches a successor's bucket before it searches it
//! (IDA* as soon as the successor's estimate keeps it), yet where most nodes keep one child,
//! searched at once, the look-up still waits for memory (a fifth of the 24-puzzle's CPU; IDA*
//! generates the node's successors and asks for their estimates' reads meanwhile). A state met in as many moves by another move
//! generates its successors to search the few the earlier move refused (under "never undo" the
//! one that goes back, which the table then skips). What it saves and what it costs on Klotski
//! and a smaller board: BENCHMARKS.md ("Transposition tables: Klotski by deepening").

use crate::limit::{Limit, Limits};
use crate::options::{SearchOptions, Transpositions};
use crate::space::StateSpace;
use hashbrown::HashSet;
use std::hash::{Hash, Hasher};
use std::mem::MaybeUninit;

/// The table's largest size when [`SearchOptions::transpositions`](crate::options::SearchOptions::transpositions) is [`Transpositions::Auto`]
/// (further capped at a quarter of the memory budget): a few hundred thousand entries, and a
/// table that stays in the last-level cache. Measured (BENCHMARKS.md, "Transposition tables"):
/// on the 15-puzzle 8 MiB keeps nearly every saving of 64 MiB, while 64 MiB costs a memory
/// miss per node and the kernel's zeroing of its pages, and takes 70 % more CPU time than no
/// table; a search of many distinct states per iteration may ask for more.
pub const AUTO_BYTES: u64 = 8 << 20;

/// The table's size when the search starts (or its largest size, if smaller); it grows between
/// iterations that fill it (see the module docs).
pub const INITIAL_BYTES: u64 = 256 << 10;

/// The states an exhaustion proof explores beyond the tables' entries, at least: a parallel
/// search's split enters no state, and on a small space it may be the whole iteration (the
/// proof then explores the space from the start). A few thousand states, against an
/// iteration's work.
pub const EXPLORED_BEYOND_AT_LEAST: u64 = 1 << 12;

/// One slot: the iteration's stamp (0: never written), the `g` of the entry, the state and the
/// move that entered it. All-zero bytes are a valid empty slot, which is what lets the table be
/// allocated as zeroed pages.
#[repr(C)]
struct Slot<S, M> {
    stamp: u32,
    g: u32,
    entry: MaybeUninit<(S, Option<M>)>,
}

impl<S: Copy, M: Copy> Clone for Slot<S, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: Copy, M: Copy> Copy for Slot<S, M> {}

/// The table: see the module docs.
pub struct TranspositionTable<S, M> {
    slots: Box<[Slot<S, M>]>,
    /// The number of buckets (two slots each).
    buckets: u64,
    /// The most buckets the table may grow to.
    max_buckets: u64,
    /// The current iteration's stamp; at least 1.
    stamp: u32,
    /// States recorded in this iteration, and in the one before.
    written: u64,
    written_before: u64,
    /// Repeated states that skipped at least one successor.
    hits: u64,
    /// The states the iteration before entered, when [`exhausted`](Self::exhausted) counted
    /// them.
    entered_before: u64,
    /// Whether the run lists several solutions: only repeats in more moves are skipped (see
    /// the module docs).
    listing: bool,
    /// Whether the states at the threshold are asked about: see [`asks`](Self::asks).
    at_threshold: AtThreshold,
}

/// How often the states at the iteration's threshold that are asked about are repeats: the
/// table asks about all of them in an iteration when at least one in [`WORTH`](Self::WORTH)
/// was in the last (or fewer than [`ENOUGH`](Self::ENOUGH) were asked), else about a sample
/// (one bucket in [`SAMPLE`](Self::SAMPLE)) to measure.
#[derive(Clone, Copy, Debug)]
struct AtThreshold {
    all: bool,
    asked: u64,
    repeats: u64,
    /// The state just asked about is at the threshold.
    asking: bool,
}

impl AtThreshold {
    const SAMPLE: usize = 32;
    const WORTH: u64 = 8;
    const ENOUGH: u64 = 256;
}

impl<S: Copy + Eq + Hash, M: Copy + Eq> TranspositionTable<S, M> {
    /// The table `options` ask for (its size within the memory budget of `limits`): `None` when they turn it off or the size holds no bucket;
    /// [`Limit::Memory`] when an explicit size passes the budget.
    pub fn for_limits(limits: &Limits, options: &SearchOptions) -> Result<Option<Self>, Limit> {
        Ok(Self::for_workers(limits, options, 1)?.pop().flatten())
    }

    /// One table for each of `workers` threads of a parallel search, the size `limits` ask for
    /// split evenly between them (the default size too: the workers share the last-level
    /// cache that [`AUTO_BYTES`] is chosen for); [`Limit::Memory`] when an explicit size passes
    /// the budget, before anything is allocated.
    pub fn for_workers(
        limits: &Limits,
        options: &SearchOptions,
        workers: usize,
    ) -> Result<Vec<Option<Self>>, Limit> {
        let bytes = match options.transpositions {
            Transpositions::Off => 0,
            Transpositions::Auto => AUTO_BYTES.min(limits.memory_budget / 4),
            Transpositions::Bytes(bytes) => {
                limits.check_memory(bytes as u128)?;
                bytes
            }
        };
        let share = bytes / workers.max(1) as u64;
        let listing = options.solutions > 1;
        Ok((0..workers.max(1))
            .map(|_| Self::with_bytes(share).map(|table| table.listing(listing)))
            .collect())
    }

    /// This table, skipping only the repeats in more moves when `listing` (a run that lists
    /// several solutions: see the module docs).
    pub fn listing(mut self, listing: bool) -> Self {
        self.listing = listing;
        self
    }

    /// A table of at most `bytes` (as many buckets of two slots as fit), starting at
    /// [`INITIAL_BYTES`]; `None` when `bytes` hold no bucket.
    pub fn with_bytes(bytes: u64) -> Option<Self> {
        let bucket = 2 * std::mem::size_of::<Slot<S, M>>().max(1) as u64;
        let max_buckets = bytes / bucket;
        if max_buckets == 0 {
            return None;
        }
        let buckets = (INITIAL_BYTES / bucket).clamp(1, max_buckets);
        Some(TranspositionTable {
            slots: Self::zeroed(buckets),
            buckets,
            max_buckets,
            stamp: 1,
            written: 0,
            written_before: 0,
            hits: 0,
            entered_before: 0,
            listing: false,
            at_threshold: AtThreshold {
                all: true,
                asked: 0,
                repeats: 0,
                asking: false,
            },
        })
    }

    /// `buckets` empty buckets, as zeroed pages.
    fn zeroed(buckets: u64) -> Box<[Slot<S, M>]> {
        let slots = usize::try_from(2 * buckets).expect("bounded by the memory budget");
        let mut zeroed = Box::<[Slot<S, M>]>::new_zeroed_slice(slots);
        super::advise_huge_pages(
            zeroed.as_mut_ptr() as usize,
            std::mem::size_of_val(&*zeroed),
        );
        // SAFETY: a `Slot` of all-zero bytes is valid: two `u32`s and a `MaybeUninit`.
        unsafe { zeroed.assume_init() }
    }

    /// The bytes the table takes now.
    pub fn bytes(&self) -> u64 {
        std::mem::size_of_val(&*self.slots) as u64
    }

    /// Repeated states that skipped at least one successor, over the whole run.
    pub fn hits(&self) -> u64 {
        self.hits
    }

    /// Starts a new iteration: every entry of the ones before is forgotten, and the table grows
    /// when the last iteration filled it (see the module docs).
    pub fn next_iteration(&mut self) {
        let at = &mut self.at_threshold;
        // Too few asked to tell (a small iteration, where asking costs little): all.
        at.all = at.asked < AtThreshold::ENOUGH || at.repeats * AtThreshold::WORTH >= at.asked;
        (at.asked, at.repeats) = (0, 0);
        let (written, before) = (self.written, self.written_before.max(1));
        (self.written_before, self.written) = (written, 0);
        let growth = written.div_ceil(before).clamp(1, 16);
        if 2 * written > self.slots.len() as u64 && self.buckets < self.max_buckets {
            let wanted = written.saturating_mul(growth).max(2 * self.buckets);
            self.buckets = wanted.min(self.max_buckets);
            self.slots = Self::zeroed(self.buckets);
            self.stamp = 1;
            return;
        }
        if self.stamp == u32::MAX {
            self.slots.iter_mut().for_each(|slot| slot.stamp = 0);
            self.stamp = 0;
        }
        self.stamp += 1;
    }

    /// Where `state`'s bucket is (a hash of it).
    #[inline]
    pub fn bucket(&self, state: &S) -> Bucket {
        let mut hasher = super::Mix(0);
        state.hash(&mut hasher);
        // The hash scaled to `0..buckets` by its high bits (a multiply, not a division).
        Bucket(((hasher.finish() as u128 * self.buckets as u128) >> 64) as usize * 2)
    }

    /// Whether to ask about a state of `bucket` (then [`skips`](Self::skips) and
    /// [`enter`](Self::enter)), `at_threshold` when its `f` is the iteration's threshold.
    ///
    /// Why not always: a state at the threshold (most of an iteration's: its new states) roots a
    /// subtree of moves that lower the estimate only. Where such repeats are rare (the
    /// 24-puzzle: about one in 27), the look-ups' cache misses cost more than the subtrees they
    /// save (#25: 0.86 of the CPU with none asked, 7 % more nodes); where they are common (a
    /// grid, whose moves commute), they save most of the search. So the table measures: all of
    /// them are asked about while at least one in 8 was a repeat in the iteration before (or
    /// it asked too few to tell), else one bucket in 32 (the same states each time, so the
    /// measure holds; sampled, the rate reads higher, as the repeats of the states not asked
    /// about are searched again: the 24-puzzle's 6.5 % sampled is 3.7 % in full). Side by
    /// side: the 24-puzzle #25 0.90 of the CPU (5 % more nodes), #40 0.96; Korf's 100, the
    /// 3x3x3 (no repeats at the threshold) unchanged.
    #[inline]
    pub fn asks(&mut self, bucket: Bucket, at_threshold: bool) -> bool {
        let at = &mut self.at_threshold;
        let asks = !at_threshold || at.all || (bucket.0 / 2).is_multiple_of(AtThreshold::SAMPLE);
        at.asking = at_threshold && asks;
        at.asked += u64::from(at.asking);
        asks
    }

    /// Whether every state at the threshold is asked about in this iteration ([`asks`](Self::asks)):
    /// else a search does not prefetch their slots (a sample's are asked for unprefetched).
    #[inline]
    pub fn asks_all_at_threshold(&self) -> bool {
        self.at_threshold.all
    }

    /// Starts loading `bucket`'s two slots into the caches, so that a look-up soon after does
    /// not wait as long for memory: the engines prefetch a successor's bucket before they search it.
    #[inline]
    pub fn prefetch(&self, bucket: Bucket) {
        super::prefetch(&self.slots[bucket.0]);
        super::prefetch(&self.slots[bucket.0 + 1]);
    }

    /// Slot `at`'s entry, when it is this iteration's.
    #[inline]
    fn fresh(&self, at: usize) -> Option<&(S, Option<M>)> {
        let slot = &self.slots[at];
        // SAFETY: a slot with this iteration's stamp was written by `write`, which stores the
        // entry (zeroed slots have stamp 0, and the stamp is never 0).
        (slot.stamp == self.stamp).then(|| unsafe { slot.entry.assume_init_ref() })
    }

    #[inline]
    fn write(&mut self, at: usize, g: u32, state: S, previous: Option<M>) {
        self.slots[at] = Slot {
            stamp: self.stamp,
            g,
            entry: MaybeUninit::new((state, previous)),
        };
    }

    /// Records `state` (whose bucket is `at`), entered at `g` after `previous`, or says which
    /// entry of it covers this one: the move that entered it (`None` for the start) and its `g`,
    /// at most `g`.
    #[inline]
    fn record(&mut self, at: usize, state: S, g: u32, previous: Option<M>) -> Option<Cover<M>> {
        for slot in [at, at + 1] {
            if let Some(&(s, q)) = self.fresh(slot)
                && s == state
            {
                let g_then = self.slots[slot].g;
                if g_then <= g {
                    return Some(Cover {
                        previous: q,
                        g: g_then,
                    });
                }
                self.write(slot, g, state, previous);
                self.written += 1;
                return None;
            }
        }
        self.written += 1;
        let first = &self.slots[at];
        let first_fresh = first.stamp == self.stamp;
        if first_fresh && first.g < g {
            self.write(at + 1, g, state, previous);
        } else {
            if first_fresh {
                self.slots[at + 1] = *first;
            }
            self.write(at, g, state, previous);
        }
        None
    }

    /// Whether this iteration's entries are every state the search can reach, so that no goal
    /// is reachable; asked by a deepening search after an iteration that found no goal but cut
    /// nodes (which would otherwise deepen it again, however small the space: see the module
    /// docs, "Exhaustion"). [`exhausted_all`](Self::exhausted_all) of this one table.
    pub fn exhausted<P: StateSpace<State = S, Move = M>>(
        &mut self,
        space: &P,
        start: S,
        poll: &mut dyn FnMut(u64) -> Result<(), Limit>,
    ) -> Result<bool, Limit> {
        Self::exhausted_all(&mut [self], space, start, poll)
    }

    /// [`exhausted`](Self::exhausted) over the tables of the workers of one iteration (a
    /// parallel search), whose entries together are the states it entered. True when the
    /// tables hold as many entries as after the iteration before (the deepening found no new
    /// state), and the states the start and the entries reach by any move, explored beyond the
    /// entries as far as as many states again, at least [`EXPLORED_BEYOND_AT_LEAST`] (leaves
    /// the search never enters: a state whose only move leads back, a dead end; entries pushed
    /// out of full buckets; a start the tables do not hold), hold no goal: the entries with
    /// what was explored are then closed under the moves and hold the start, so they are
    /// everything it reaches. `poll` is told the successors generated so far, so a long check
    /// stops for the time limit and Ctrl-C.
    pub fn exhausted_all<P: StateSpace<State = S, Move = M>>(
        tables: &mut [&mut Self],
        space: &P,
        start: S,
        poll: &mut dyn FnMut(u64) -> Result<(), Limit>,
    ) -> Result<bool, Limit> {
        if tables.is_empty() {
            return Ok(false);
        }
        let entered: u64 = tables.iter().map(|t| t.entries().count() as u64).sum();
        let before = std::mem::replace(&mut tables[0].entered_before, entered);
        let known = |state: &S| tables.iter().any(|t| t.holds(state));
        if entered != before {
            return Ok(false);
        }
        // The states the entries reach that are no entries (leaves the search never enters,
        // entries pushed out of full buckets), explored from the entries: at most as many as
        // the table holds (or [`EXPLORED_BEYOND_AT_LEAST`]), or no proof.
        let most = entered.max(EXPLORED_BEYOND_AT_LEAST);
        let mut beyond: HashSet<S> = HashSet::new();
        let mut open: Vec<S> = Vec::new();
        // A start the tables do not hold (a parallel search's split enters none of its nodes,
        // and on a small space the split may be the whole iteration) is explored from too.
        if !known(&start) {
            if space.is_goal(start) {
                return Ok(false);
            }
            beyond.insert(start);
            open.push(start);
        }
        let mut work = 0u64;
        // Whether every successor of `state` is an entry or explored (queued in `open`).
        let mut closed = |state: S, beyond: &mut HashSet<S>, open: &mut Vec<S>| {
            let mut all = true;
            space.successors(state, &mut |_, next| {
                work += 1;
                if !all || known(&next) || beyond.contains(&next) {
                    return;
                }
                if space.is_goal(next) || beyond.len() as u64 >= most {
                    all = false;
                    return;
                }
                beyond.insert(next);
                open.push(next);
            });
            all.then_some(work)
        };
        let entries = tables.iter().flat_map(|t| t.entries());
        for state in entries {
            let Some(work) = closed(state, &mut beyond, &mut open) else {
                return Ok(false);
            };
            poll(work)?;
        }
        while let Some(state) = open.pop() {
            let Some(work) = closed(state, &mut beyond, &mut open) else {
                return Ok(false);
            };
            poll(work)?;
        }
        Ok(true)
    }

    /// This iteration's entries.
    fn entries(&self) -> impl Iterator<Item = S> + '_ {
        (0..self.slots.len()).filter_map(|at| self.fresh(at).map(|&(state, _)| state))
    }

    /// Whether this iteration entered `state`.
    fn holds(&self, state: &S) -> bool {
        self.find(self.bucket(state).0, state).is_some()
    }

    /// Whether `state` (in `bucket`), reached in `g` moves by `previous`, needs no search at
    /// all, before its successors are searched: this iteration entered it before in fewer
    /// moves, or in as many by the same move (or it is the start). See the module docs for why
    /// both lose no shortest path.
    #[inline]
    pub fn skips(&mut self, bucket: Bucket, state: S, g: u32, previous: Option<M>) -> bool {
        let Some(cover) = self.find(bucket.0, &state) else {
            return false;
        };
        let skips = cover.g < g
            || cover.g == g && !self.listing && cover.previous.is_none_or(|q| Some(q) == previous);
        self.hits += skips as u64;
        self.at_threshold.repeats += u64::from(skips && self.at_threshold.asking);
        skips
    }

    /// This iteration's entry of `state`, if the bucket at `at` holds one.
    #[inline]
    fn find(&self, at: usize, state: &S) -> Option<Cover<M>> {
        [at, at + 1]
            .into_iter()
            .find_map(|slot| match self.fresh(slot) {
                Some((s, q)) if s == state => Some(Cover {
                    previous: *q,
                    g: self.slots[slot].g,
                }),
                _ => None,
            })
    }

    /// Enters `state` (in `bucket`; [`skips`](Self::skips) said no), reached in `g` moves by
    /// `previous`, before its successors are searched: drops from `successors` (those the
    /// move-order rule allows after `previous`, within the bound) the ones that an earlier
    /// entry of the same state in as many moves, by another move, searched or is searching
    /// (the ones that move allowed: see the module docs). Records the state when no entry
    /// covers it.
    ///
    /// `successors` are whatever the engine keeps per successor (a move and a state, or more:
    /// [`Moved`]).
    #[inline]
    pub fn enter<P: StateSpace<State = S, Move = M>, T: Moved<M>>(
        &mut self,
        space: &P,
        bucket: Bucket,
        state: S,
        g: u32,
        previous: Option<M>,
        successors: &mut Vec<T>,
    ) {
        let Some(cover) = self.record(bucket.0, state, g, previous) else {
            return;
        };
        if self.listing {
            return; // a repeat in as many moves: another prefix of the same solutions
        }
        let before = successors.len();
        match cover.previous {
            Some(q) if Some(q) != previous => successors.retain(|t| !space.may_follow(q, t.mv())),
            _ => successors.clear(),
        }
        let dropped = successors.len() < before;
        self.hits += dropped as u64;
        self.at_threshold.repeats += u64::from(dropped && self.at_threshold.asking);
    }
}

/// What an engine keeps per successor, as [`TranspositionTable::enter`] sees it: the move that
/// reached it (a `(move, state)` pair, or an engine's own record).
pub trait Moved<M> {
    /// The move that reached this successor.
    fn mv(&self) -> M;
}

impl<M: Copy, S> Moved<M> for (M, S) {
    #[inline]
    fn mv(&self) -> M {
        self.0
    }
}

/// An entry that covers a repeated state: the move that entered it and its `g`.
struct Cover<M> {
    previous: Option<M>,
    g: u32,
}

/// Where a state's slots are in the table: from [`TranspositionTable::prefetch`], for
/// [`TranspositionTable::enter`] (one hash per node).
#[derive(Clone, Copy, Debug)]
pub struct Bucket(usize);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toys::Ring;

    /// Records `state` as an engine does: its bucket, then the record.
    fn put(
        table: &mut TranspositionTable<u64, i8>,
        state: u64,
        g: u32,
        previous: Option<i8>,
    ) -> Option<Option<i8>> {
        let bucket = table.bucket(&state);
        table
            .record(bucket.0, state, g, previous)
            .map(|cover| cover.previous)
    }

    #[test]
    fn a_repeat_at_a_larger_g_is_covered_and_a_smaller_g_replaces_the_entry() {
        let mut table = TranspositionTable::<u64, i8>::with_bytes(1 << 12).unwrap();
        assert_eq!(put(&mut table, 5, 3, Some(1)), None);
        assert_eq!(put(&mut table, 5, 3, Some(-1)), Some(Some(1)));
        assert_eq!(put(&mut table, 5, 4, Some(1)), Some(Some(1)));
        assert_eq!(
            put(&mut table, 5, 2, Some(-1)),
            None,
            "a smaller g is searched"
        );
        assert_eq!(put(&mut table, 5, 2, Some(1)), Some(Some(-1)));
        table.next_iteration();
        assert_eq!(
            put(&mut table, 5, 9, Some(1)),
            None,
            "a new iteration forgets"
        );
    }

    #[test]
    fn a_repeat_skips_what_the_earlier_previous_move_allowed() {
        let ring = Ring::new(10);
        let mut table = TranspositionTable::<u64, i8>::with_bytes(1 << 12).unwrap();
        let both = || vec![(1i8, 6u64), (-1, 4)];
        // What an engine searches below `state`: nothing when the table skips it, else the
        // successors it leaves.
        let search = |table: &mut TranspositionTable<u64, i8>, state, g, previous| {
            let bucket = table.bucket(&state);
            if table.skips(bucket, state, g, previous) {
                return Vec::new();
            }
            let mut successors = both();
            table.enter(&ring, bucket, state, g, previous, &mut successors);
            successors
        };
        assert_eq!(search(&mut table, 5, 2, Some(1)), both(), "first entry");
        // Entered before in as many moves after +1, which allows only +1: -1 is searched.
        assert_eq!(search(&mut table, 5, 2, Some(-1)), [(-1, 4)]);
        assert_eq!(
            search(&mut table, 5, 2, Some(1)),
            [],
            "the same move, as many moves"
        );
        // In more moves, by any move: a path through it is no shortest path.
        assert_eq!(search(&mut table, 5, 3, Some(1)), []);
        assert_eq!(search(&mut table, 5, 3, Some(-1)), []);
        assert_eq!(table.hits(), 4);
        // In fewer moves: searched again, and that entry covers the rest.
        assert_eq!(search(&mut table, 5, 1, Some(-1)), both());
        assert_eq!(search(&mut table, 5, 1, Some(1)), [(1, 6)]);
        assert_eq!(search(&mut table, 5, 2, Some(1)), []);
        table.next_iteration();
        assert_eq!(
            search(&mut table, 5, 3, Some(1)),
            both(),
            "a new iteration forgets"
        );
        // The start covers everything, in any number of moves.
        assert_eq!(search(&mut table, 0, 0, None), both());
        assert_eq!(search(&mut table, 0, 0, Some(-1)), []);
        assert_eq!(search(&mut table, 0, 4, Some(-1)), []);
    }

    #[test]
    fn a_full_bucket_keeps_the_shallowest_and_the_latest() {
        // One bucket: every state shares it.
        let mut table = TranspositionTable::<u64, i8>::with_bytes(2 * 24).unwrap();
        assert_eq!(table.slots.len(), 2);
        put(&mut table, 1, 1, None);
        put(&mut table, 2, 5, None);
        put(&mut table, 3, 7, None); // goes to the second slot, pushing 2 out
        assert_eq!(put(&mut table, 1, 9, None), Some(None));
        assert_eq!(put(&mut table, 3, 9, None), Some(None));
        assert_eq!(put(&mut table, 2, 9, None), None, "pushed out");
        put(&mut table, 4, 0, None); // the shallowest: first slot, 1 moves to the second
        assert_eq!(put(&mut table, 4, 1, None), Some(None));
        assert_eq!(put(&mut table, 1, 9, None), Some(None));
    }

    #[test]
    fn the_table_grows_between_iterations_that_fill_it() {
        let mut table = TranspositionTable::<u64, i8>::with_bytes(64 << 20).unwrap();
        assert_eq!(table.bytes(), INITIAL_BYTES - INITIAL_BYTES % 48);
        let quarter = table.slots.len() as u64 / 4;
        for state in 0..quarter {
            put(&mut table, state, 1, None);
        }
        table.next_iteration();
        assert_eq!(
            table.bytes(),
            INITIAL_BYTES - INITIAL_BYTES % 48,
            "a quarter full"
        );
        for state in 0..4 * quarter {
            put(&mut table, state, 1, None);
        }
        table.next_iteration();
        // Four times the states of the iteration before: slots for twice four times as many.
        assert_eq!(table.slots.len() as u64, 2 * 4 * (4 * quarter));
        assert_eq!(put(&mut table, 5, 1, None), None, "empty after growing");
        for state in 0..table.slots.len() as u64 * 8 {
            put(&mut table, state, 1, None);
        }
        table.next_iteration();
        assert_eq!(
            table.bytes(),
            (64 << 20) - (64 << 20) % 48,
            "at most the largest size"
        );
    }

    #[test]
    fn sizes_follow_the_limits() {
        type Table = TranspositionTable<u64, i8>;
        let limits = |memory_budget| Limits {
            memory_budget,
            ..Limits::default()
        };
        let of = |transpositions| SearchOptions {
            transpositions,
            ..SearchOptions::default()
        };
        let table = |t, budget| Table::for_limits(&limits(budget), &of(t));
        let auto = table(Transpositions::Auto, 1 << 40).unwrap();
        assert_eq!(auto.unwrap().max_buckets, AUTO_BYTES / 48);
        let small = table(Transpositions::Auto, 1 << 20).unwrap();
        assert_eq!(
            small.unwrap().max_buckets,
            (1 << 18) / 48,
            "a quarter of the budget"
        );
        let off = table(Transpositions::Off, 1 << 30).unwrap();
        assert!(off.is_none());
        let over = table(Transpositions::Bytes(2 << 20), 1 << 20);
        assert!(matches!(over, Err(Limit::Memory { needed, .. }) if needed == 2 << 20));
        let tiny = table(Transpositions::Bytes(10), 1 << 20).unwrap();
        assert!(tiny.is_none(), "no bucket fits in 10 bytes");
        let workers = |t, budget| Table::for_workers(&limits(budget), &of(t), 2);
        let halves = workers(Transpositions::Bytes(96 << 10), 1 << 20);
        for half in halves.unwrap() {
            assert_eq!(
                half.unwrap().max_buckets,
                (48 << 10) / 48,
                "each worker's share"
            );
        }
        let over = workers(Transpositions::Bytes(2 << 20), 1 << 20);
        assert!(over.is_err(), "the whole size is held against the budget");
        let exact = Table::with_bytes(1000).unwrap();
        assert!(exact.bytes() <= 1000 && exact.bytes() > 1000 - 48);
    }
}
