//! What IDA* keeps of each successor it searches ([`Child`]) and of the heuristic's estimate of
//! it ([`Carry`]: the whole memo, or nothing, chosen per heuristic), with the
//! [note](Prefetched::note) its estimate left for [`Heuristic::ruled_out`] (8 bytes, always).

#[cfg(doc)]
use crate::space::Heuristic;
use crate::space::{Prefetched, StateSpace};

/// A successor kept for the search below it: the move that reaches it, the state, and, where the
/// heuristic [carries memos](Heuristic::carries_memo), what it left in its [`Prefetched`] when
/// it estimated it (handed to [`Heuristic::prefetch_successor`] of its own successors).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child<S, M, C> {
    pub(crate) mv: M,
    pub(crate) state: S,
    pub(crate) memo: C,
    /// The [note](Prefetched::note) its estimate left, for [`Heuristic::ruled_out`].
    pub(crate) note: u64,
    /// Its `f` is the threshold (the transposition table may not be asked about it).
    pub(crate) at_threshold: bool,
}

/// What a search keeps of each successor's estimate: its memo, or nothing (`()`): a type
/// parameter, so that a search whose heuristic carries nothing moves no memos (the code it was).
pub(crate) trait Carry: Copy + Default + Send + Sync {
    /// Whether memos are handed down.
    const CARRIES: bool;
    /// What is kept of `memo`.
    fn keep(memo: &Prefetched) -> Self;
    /// The memo kept ([`Prefetched::NONE`] for nothing).
    fn memo(&self) -> &Prefetched;
}

impl Carry for () {
    const CARRIES: bool = false;
    #[inline(always)]
    fn keep(_: &Prefetched) -> Self {}
    #[inline(always)]
    fn memo(&self) -> &Prefetched {
        &Prefetched::NONE
    }
}

impl Carry for Prefetched {
    const CARRIES: bool = true;
    #[inline(always)]
    fn keep(memo: &Prefetched) -> Self {
        *memo
    }
    #[inline(always)]
    fn memo(&self) -> &Prefetched {
        self
    }
}

/// One level's buffer of kept successors in a search over `P`.
pub(crate) type Level<P, C> = Vec<Child<<P as StateSpace>::State, <P as StateSpace>::Move, C>>;
