//! One level's scan: the build's hot loops. [`top_down`] expands every state of the level;
//! [`bottom_up`] gives the next code to every unreached state with a neighbour in the level;
//! [`reach`] gives a state its code (and its images theirs).
//!
//! A scan turns each index it visits into a state with [`Indexed::state_after`], from the state
//! it visited last ([`Cursor`]: colex masks step to a near index for a few instructions where an
//! unrank costs about 150), and a bottom-up look-up stops at the first neighbour found
//! ([`StateSpace::any_successor`](crate::space::StateSpace::any_successor)). Scans are
//! instantiated per entry width ([`scan_for`]), so a look-up's shifts and masks are constants.
//!
//! Both directions are exact because moves are invertible: `t` is a successor of `s` exactly when
//! `s` is a successor of `t`. In a mod-3 table a top-down scan also meets the states of levels
//! `d - 3`, `d - 6`, ... (same code); their successors are all reached, so they only cost time,
//! and a growing level dwarfs the old ones. A bottom-up scan is exact as it is: an unreached
//! state's neighbours are at depth `d` or unreached.
//!
//! # Why free functions
//!
//! The scans are free functions with `space` and `entries` as their own reference arguments, not
//! methods reading them out of the build: LLVM may then assume that the table's stores never
//! change the space (a `&` argument) or the table's header (a `&mut` argument), and keeps the
//! space's fields (a colex rank's table pointer and sizes) and the table's in registers across the
//! successor loop. Read out of `self`, they were reloaded for every successor. `inline(never)`
//! keeps those argument attributes whole: inlined into `run`, part of them is lost again. Both
//! were measured by instruction counts of the builds in BENCHMARKS.md, "Distance-table builds".

use super::packed::Packed;
use super::symmetry::{Frontier, Reduction};
use crate::limit::{Latch, Limit, Ticker};
use crate::space::Indexed;

/// The table words (or listed states) a scan goes through between two ticks of its ticker.
/// Not one: ticking every word cost the Shift 4 x 6 build about 3 M of its 150 M instructions
/// once the ticker learnt counts that start again (`limit/ticker.rs`). 64 words are at most
/// 2,048 entries (and their successors) between two ticks, far within a poll's beat.
const WORDS_PER_TICK: usize = 64;

/// [`Ticker::tick`] out of line: the ticker then stays in memory, and its fields take no
/// register from the successor loops between two ticks (inlined, they did, and the loops
/// reloaded spilled values for every successor: 1.9 M instructions of the same build).
#[inline(never)]
fn tick(ticker: &mut Ticker<'_>, done: u64) -> Result<(), Limit> {
    ticker.tick(done)
}

/// What one level's scan did.
pub(super) struct Scanned {
    /// States that got the next code.
    pub(super) found: u64,
    pub(super) expanded: u64,
    pub(super) generated: u64,
}

/// Which way a level is filled.
#[derive(Clone, Copy)]
pub(super) enum Scan {
    TopDown,
    BottomUp,
}

/// The codes of one level's scan: states coded `at` give the next level the code `next`.
#[derive(Clone, Copy)]
pub(super) struct Codes {
    pub(super) at: u64,
    pub(super) next: u64,
}
/// A level scan over a table of `BITS`-bit entries.
pub(super) type ScanFn<P, R> = fn(
    &P,
    &R,
    &mut Packed,
    &Latch,
    Codes,
    Option<&[<R as Reduction<P>>::Listed]>,
    &mut Frontier<<R as Reduction<P>>::Listed>,
) -> Result<Scanned, Limit>;

pub(super) fn scan_for<P: Indexed, R: Reduction<P>, const BITS: u32>(
    direction: Scan,
) -> ScanFn<P, R> {
    match direction {
        Scan::TopDown => top_down::<P, R, BITS>,
        Scan::BottomUp => bottom_up::<P, R, BITS>,
    }
}

/// Expands every state coded `at` (those `listed`, when the level was listed); every unreached
/// successor gets `next` (with its images). The work ticked on `latch`: the words (or listed
/// states) scanned and the successors generated.
#[inline(never)]
fn top_down<P: Indexed, R: Reduction<P>, const BITS: u32>(
    space: &P,
    reduction: &R,
    entries: &mut Packed,
    latch: &Latch,
    codes: Codes,
    listed: Option<&[R::Listed]>,
    frontier: &mut Frontier<R::Listed>,
) -> Result<Scanned, Limit> {
    let unreached = entries.unreached();
    let mut ticker = latch.ticker();
    let (mut found, mut generated) = (0u64, 0u64);
    // Returns the successors it generated.
    let mut expand = |entries: &mut Packed, frontier: &mut Frontier<R::Listed>, state| {
        let mut n = 0;
        space.successors(state, &mut |_, t| {
            n += 1;
            let j = space.index(t);
            if entries.get_in::<BITS>(j) == unreached {
                found += reach::<P, R, BITS>(space, reduction, entries, frontier, t, j, codes.next);
            }
        });
        n
    };
    let mut expanded = 0u64;
    if let Some(states) = listed {
        for (n, &listed) in states.iter().enumerate() {
            if n % WORDS_PER_TICK == 0 {
                tick(&mut ticker, n as u64 + generated)?;
            }
            generated += expand(entries, frontier, reduction.unlist(space, listed));
        }
        expanded = states.len() as u64;
    } else {
        let mut cursor = Cursor(None);
        for word in 0..entries.words.len() {
            if word % WORDS_PER_TICK == 0 {
                tick(&mut ticker, word as u64 + generated)?;
            }
            let mut hits = entries.lanes_equal(word, codes.at);
            while hits != 0 {
                let i = entries.lane_index(word, hits);
                hits &= hits - 1;
                let state = cursor.state(space, i);
                if reduction.expands(space, state) {
                    expanded += 1;
                    generated += expand(entries, frontier, state);
                }
            }
        }
    }
    Ok(Scanned {
        found,
        expanded,
        generated,
    })
}

/// Gives `next` to every unreached state with a successor coded `at` (and to its images).
/// Ticks `latch` as [`top_down`] does.
#[inline(never)]
fn bottom_up<P: Indexed, R: Reduction<P>, const BITS: u32>(
    space: &P,
    reduction: &R,
    entries: &mut Packed,
    latch: &Latch,
    codes: Codes,
    _listed: Option<&[R::Listed]>,
    frontier: &mut Frontier<R::Listed>,
) -> Result<Scanned, Limit> {
    let Codes { at, next } = codes;
    let unreached = entries.unreached();
    let (mut found, mut expanded, mut generated) = (0u64, 0u64, 0u64);
    let mut ticker = latch.ticker();
    let mut cursor = Cursor(None);
    for word in 0..entries.words.len() {
        if word % WORDS_PER_TICK == 0 {
            tick(&mut ticker, word as u64 + generated)?;
        }
        let mut hits = entries.lanes_equal(word, unreached);
        while hits != 0 {
            let i = entries.lane_index(word, hits);
            hits &= hits - 1;
            // Images of a state reached earlier in this word were reached with it.
            if entries.get_in::<BITS>(i) != unreached {
                continue;
            }
            let state = cursor.state(space, i);
            if !reduction.expands(space, state) {
                continue;
            }
            expanded += 1;
            let seen: &Packed = entries;
            // The first neighbour at `at` settles it: the other moves are not generated.
            let near = space.any_successor(state, &mut |t| {
                generated += 1;
                seen.get_in::<BITS>(space.index(t)) == at
            });
            if near {
                found += reach::<P, R, BITS>(space, reduction, entries, frontier, state, i, next);
            }
        }
    }
    Ok(Scanned {
        found,
        expanded,
        generated,
    })
}

/// The last state a scan turned an index into: scans go up the index, so the next state is
/// found from it ([`Indexed::state_after`]), which is cheaper than an unrank when it is near.
struct Cursor<S>(Option<(u64, S)>);

impl<S: Copy> Cursor<S> {
    #[inline]
    fn state<P: Indexed<State = S>>(&mut self, space: &P, index: u64) -> S {
        let state = match self.0 {
            Some((at, from)) => space.state_after(at, from, index),
            None => space.state(index),
        };
        self.0 = Some((index, state));
        state
    }
}

/// Gives `code` to the unreached state `state` (at `index`) and to its unreached images, and
/// lists the orbit's representative while the level is listed; returns how many states that
/// reached. A free function over the build's parts, not a method: the
/// scans keep the table's address in a register only when no `&mut` to the whole build is live.
#[inline]
pub(super) fn reach<P: Indexed, R: Reduction<P>, const BITS: u32>(
    space: &P,
    reduction: &R,
    entries: &mut Packed,
    frontier: &mut Frontier<R::Listed>,
    state: P::State,
    index: u64,
    code: u64,
) -> u64 {
    let unreached = entries.unreached();
    debug_assert_eq!(entries.get_in::<BITS>(index), unreached);
    entries.set_in::<BITS>(index, code);
    let mut found = 1;
    let representative = reduction.images(space, state, |image| {
        let j = space.index(image);
        if entries.get_in::<BITS>(j) == unreached {
            entries.set_in::<BITS>(j, code);
            found += 1;
        }
    });
    if frontier.listing() {
        frontier.push(reduction.list(space, representative));
    }
    found
}
