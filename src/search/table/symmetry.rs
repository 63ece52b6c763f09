//! Which states a build expands: every one ([`Whole`]), or one per orbit of the space's
//! symmetries ([`Orbits`]: a reached state's images get its distance, which the module docs of
//! [`table`](super) show exact); and the lists of a small level's representatives
//! ([`Frontier`]).
//!
//! # Lists of representatives
//!
//! While a level is small, the symmetric build also lists its representatives as it reaches their
//! orbits ([`Symmetric::orbit`] gives the images and the representative in one pass), and a
//! top-down level expands its list instead of scanning the table and testing every state of the
//! level. Trade-off: memory for scans. A list holds at most an eighth of the states (two are alive:
//! the level expanded and the level filled), is used only when two such lists fit the budget beside
//! the table, and is dropped (that level scanned) when it would grow past that. A space whose
//! states have a 32-bit form ([`Symmetric::narrows`]: Shift boards of up to 32 cells) is listed in
//! it ([`Narrow`]), half the bytes of a `u64` mask. For the HDU table the lists peak at about 415
//! KB beside its 360 KiB (the levels at depths 7 and 8: 48,544 and 55,009 masks of 4 bytes; 830 KB
//! as whole masks), and the build scans far fewer states (its cost: BENCHMARKS.md, "Distance-table
//! builds"). The plain build lists nothing: its lists would hold every state of a level, four
//! times as many.

use crate::space::{StateSpace, Symmetric};

/// Which states a build expands, and what else a reached state drags along: every state
/// ([`Whole`]), or one per symmetry orbit ([`Orbits`]). A type parameter, so the plain build pays
/// nothing for the symmetric one.
pub(super) trait Reduction<P: StateSpace> {
    /// Whether the build expands (or, bottom-up, searches from) `state`.
    fn expands(&self, space: &P, state: P::State) -> bool;
    /// Calls `visit` with every state that shares `state`'s distance by symmetry; returns the
    /// one of them (or `state`) that [`expands`](Self::expands).
    fn images<F: FnMut(P::State)>(&self, space: &P, state: P::State, visit: F) -> P::State;
    /// Whether small levels are listed ([`Frontier`]): only when a list holds one state per
    /// orbit. A plain build's list would hold every state of a level, up to a few times the
    /// table's own bytes, to save scans that cost it a few percent.
    const LISTS: bool;
    /// What a list holds per state: the state, or a narrower form of it.
    type Listed: Copy;
    /// The listed form of `state`.
    fn list(&self, space: &P, state: P::State) -> Self::Listed;
    /// The state listed as `listed`.
    fn unlist(&self, space: &P, listed: Self::Listed) -> P::State;
}

/// No symmetry: every state stands for itself.
pub(super) struct Whole;

impl<P: StateSpace> Reduction<P> for Whole {
    const LISTS: bool = false;
    type Listed = P::State;
    fn list(&self, _: &P, state: P::State) -> P::State {
        state
    }
    fn unlist(&self, _: &P, state: P::State) -> P::State {
        state
    }
    #[inline]
    fn expands(&self, _: &P, _: P::State) -> bool {
        true
    }
    #[inline]
    fn images<F: FnMut(P::State)>(&self, _: &P, state: P::State, _: F) -> P::State {
        state
    }
}

/// One representative per orbit of the space's symmetries, listed in the form `L` gives.
pub(super) struct Orbits<L>(pub(super) L);

/// How [`Orbits`] lists a state: [`AsIs`], or [`Narrow`] (32 bits, [`Symmetric::narrow`]: half
/// the lists' memory for states of 8 bytes).
pub(super) trait Listing<P: StateSpace> {
    type Listed: Copy;
    fn list(space: &P, state: P::State) -> Self::Listed;
    fn unlist(space: &P, listed: Self::Listed) -> P::State;
}

/// States listed as they are.
pub(super) struct AsIs;

impl<P: StateSpace> Listing<P> for AsIs {
    type Listed = P::State;
    #[inline]
    fn list(_: &P, state: P::State) -> P::State {
        state
    }
    #[inline]
    fn unlist(_: &P, state: P::State) -> P::State {
        state
    }
}

/// States listed as 32-bit words, for a space that [`Symmetric::narrows`].
pub(super) struct Narrow;

impl<P: Symmetric> Listing<P> for Narrow {
    type Listed = u32;
    #[inline]
    fn list(space: &P, state: P::State) -> u32 {
        space.narrow(state)
    }
    #[inline]
    fn unlist(space: &P, word: u32) -> P::State {
        space.widen(word)
    }
}

impl<P: Symmetric, L: Listing<P>> Reduction<P> for Orbits<L> {
    const LISTS: bool = true;
    type Listed = L::Listed;
    #[inline]
    fn list(&self, space: &P, state: P::State) -> L::Listed {
        L::list(space, state)
    }
    #[inline]
    fn unlist(&self, space: &P, listed: L::Listed) -> P::State {
        L::unlist(space, listed)
    }
    #[inline]
    fn expands(&self, space: &P, state: P::State) -> bool {
        space.is_representative(state)
    }
    #[inline(always)]
    fn images<F: FnMut(P::State)>(&self, space: &P, state: P::State, visit: F) -> P::State {
        space.orbit(state, visit)
    }
}

/// The representatives of the level being filled, listed while there are few of them: the
/// next level, when top-down, expands the list instead of scanning the whole table (and
/// testing every state of the level for being a representative). A list that would pass `cap`
/// is dropped, and that level is scanned.
pub(super) struct Frontier<S> {
    states: Vec<S>,
    cap: usize,
    whole: bool,
}

impl<S> Frontier<S> {
    pub(super) fn new(cap: usize) -> Self {
        Frontier {
            states: Vec::new(),
            cap,
            whole: cap > 0,
        }
    }

    /// Whether the level is still listed whole (so its representatives are wanted).
    #[inline]
    pub(super) fn listing(&self) -> bool {
        self.whole
    }

    #[inline]
    pub(super) fn push(&mut self, state: S) {
        if self.states.len() < self.cap {
            self.states.push(state);
        } else {
            self.abandon();
        }
    }

    /// Lists nothing more of this level.
    pub(super) fn abandon(&mut self) {
        self.whole = false;
        self.states = Vec::new();
    }

    /// The finished level's list, if it is whole; the next level starts an empty one.
    pub(super) fn take(&mut self) -> Option<Vec<S>> {
        let states = std::mem::take(&mut self.states);
        let whole = std::mem::replace(&mut self.whole, self.cap > 0);
        whole.then_some(states)
    }
}
