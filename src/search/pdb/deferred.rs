//! A heuristic made once the search has paid for it ([`Deferred`]): estimates 0 until then.
//!
//! Pattern databases are built whole before the first node. For a small puzzle's cheap ones
//! that is a tenth of a second to a second, while a short scramble needs a few hundred nodes:
//! building first made a cold 1-move solve 30 to 77 times slower than twsearch's (which prunes
//! with a table grown as it searches). A [`Deferred`] heuristic starts the search at once with
//! what the others know (a [pruning table](crate::search::pruning), in a
//! [`Max`](super::Max)) and counts its estimates; when they reach the build's expected work, it
//! builds, on the thread whose estimate reached it, and from the next estimate on answers with
//! what it built. A search that ends first never pays for the build; one that does not has spent
//! at most about the build's cost before it, so it ends within about twice the time it would
//! have taken with the databases built first (the pruning table's rule, one estimate per
//! successor of the work, applied to a whole build).
//!
//! Exactness: 0 is a lower bound, and the built heuristic is admissible, so every estimate is;
//! a value that rises mid-search is what the pruning table's deeper levels do already, and IDA*
//! and A* stay optimal with it (each cut is made with an admissible value).
//!
//! Trade-offs: the estimates before the build are wasted work where the search is long (at most
//! the build's cost, about what the build would have taken); the build runs on one search
//! thread while the others go on without it, never waiting; only
//! [`estimate`](Heuristic::estimate) and [`estimate_below`](Heuristic::estimate_below) are
//! passed on (no prefetch: a [`Prefetched`](crate::space::Prefetched) made before the build
//! would not be the built heuristic's), which suits the small tables it is for. A build that a
//! limit stops is not tried again: the search meets the same limit at its next poll.

use crate::cache::TableCache;
use crate::limit::Limit;
use crate::space::{Heuristic, StateSpace};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// What builds a [`Deferred`] heuristic's heuristic, once.
pub type Build<H> = Box<dyn FnOnce() -> Result<H, Limit> + Send>;

/// A heuristic built once the search's estimates reach its build's work; 0 until then (see the
/// module docs).
pub struct Deferred<H> {
    /// The heuristic once built; `None` inside when its build stopped at a limit.
    built: OnceLock<Option<H>>,
    build: Mutex<Option<Build<H>>>,
    /// Estimates answered before the build (a plain counter, not a read-modify-write).
    estimates: AtomicU64,
    /// The estimate count at which the build starts.
    build_at: u64,
}

impl<H> std::fmt::Debug for Deferred<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deferred")
            .field("built", &self.is_built())
            .field("build_at", &self.build_at)
            .finish_non_exhaustive()
    }
}

impl<H> Deferred<H> {
    /// A heuristic that `build` makes once `build_at` estimates have been asked of it (its
    /// expected work: the successors the build generates, say); `build_at = 0` builds at the
    /// first estimate.
    pub fn new(build_at: u64, build: Build<H>) -> Self {
        Deferred {
            built: OnceLock::new(),
            build: Mutex::new(Some(build)),
            estimates: AtomicU64::new(0),
            build_at,
        }
    }

    /// Whether the heuristic is built (and its build was not stopped).
    pub fn is_built(&self) -> bool {
        matches!(self.built.get(), Some(Some(_)))
    }

    /// The estimates counted before the build.
    pub fn estimates(&self) -> u64 {
        self.estimates.load(Ordering::Relaxed)
    }

    /// The built heuristic, when there is one: `None` before the build is due (a count), and
    /// after a build a limit stopped.
    #[inline]
    fn ready(&self) -> Option<&H> {
        match self.built.get() {
            Some(built) => built.as_ref(),
            None => {
                let done = self.estimates.load(Ordering::Relaxed) + 1;
                self.estimates.store(done, Ordering::Relaxed);
                if done >= self.build_at {
                    return self.build_now();
                }
                None
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn build_now(&self) -> Option<&H> {
        // Another thread building already: this one goes on without it.
        let Ok(mut build) = self.build.try_lock() else {
            return None;
        };
        if let Some(build) = build.take() {
            // A limit stops the build; the search meets the same limit at its next poll.
            let _ = self.built.set(build().ok());
        }
        self.built.get().and_then(Option::as_ref)
    }
}

impl<P, H> Heuristic<P> for Deferred<H>
where
    P: StateSpace + ?Sized,
    H: Heuristic<P> + Send,
{
    #[inline]
    fn estimate(&self, space: &P, state: P::State) -> u32 {
        self.ready().map_or(0, |h| h.estimate(space, state))
    }

    #[inline]
    fn estimate_below(&self, space: &P, state: P::State, limit: u32) -> u32 {
        self.ready()
            .map_or(0, |h| h.estimate_below(space, state, limit))
    }

    #[inline]
    fn ruled_out(&self, space: &P, state: P::State, note: u64, budget: u32) -> u64 {
        self.ready()
            .map_or(0, |h| h.ruled_out(space, state, note, budget))
    }

    fn intact(&self, cache: &TableCache) -> bool {
        match self.built.get() {
            Some(Some(h)) => h.intact(cache),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toys::Line;

    /// The distance of a state of [`Line`]: the state itself.
    struct Exact;

    impl Heuristic<Line> for Exact {
        fn estimate(&self, _: &Line, state: u64) -> u32 {
            state as u32
        }
    }

    #[test]
    fn estimates_zero_until_the_build_is_due_then_the_built_heuristic() {
        let deferred = Deferred::new(3, Box::new(|| Ok(Exact)));
        assert_eq!(deferred.estimate(&Line(10), 7), 0);
        assert_eq!(deferred.estimate_below(&Line(10), 7, 3), 0);
        assert!(!deferred.is_built());
        // The third estimate is the one that builds, and is answered by what it built.
        assert_eq!(deferred.estimate(&Line(10), 7), 7);
        assert!(deferred.is_built());
        assert_eq!(deferred.estimate(&Line(10), 4), 4);
        assert_eq!(deferred.estimates(), 3);
    }

    #[test]
    fn a_build_stopped_by_a_limit_leaves_zero_and_is_not_tried_again() {
        let tries = std::sync::Arc::new(AtomicU64::new(0));
        let counted = tries.clone();
        let deferred: Deferred<Exact> = Deferred::new(
            1,
            Box::new(move || {
                counted.fetch_add(1, Ordering::Relaxed);
                Err(Limit::Interrupted)
            }),
        );
        for state in 0..10 {
            assert_eq!(deferred.estimate(&Line(10), state), 0);
        }
        assert!(!deferred.is_built());
        assert_eq!(tries.load(Ordering::Relaxed), 1);
    }

    /// IDA* over a heuristic built mid-search (a pruning table, after 50 estimates) finds BFS's
    /// lengths on every board of a toy, before the build and after it.
    #[test]
    fn idastar_with_a_build_mid_search_finds_the_shortest_paths() {
        use crate::limit::Limits;
        use crate::options::SearchOptions;
        use crate::search::pruning::{Growth, PruningTable};
        use crate::search::{Outcome, bfs, idastar};
        use crate::space::Indexed;
        use crate::toys::{Lights, LightsGoal};
        let lights = Lights::new(3, 3, false, LightsGoal::AllOff);
        let limits = Limits::default();
        let growth = Growth {
            bytes: 1 << 12,
            first_work: u64::MAX,
            ..Growth::default()
        };
        let made = Lights::new(3, 3, false, LightsGoal::AllOff);
        let deferred = Deferred::new(
            50,
            Box::new(move || PruningTable::new(&made, &Limits::default(), growth)),
        );
        let mut built_at = None;
        for board in 0..lights.size() as u64 {
            let want = match bfs::solve(&lights, board, &limits).outcome {
                Outcome::Solved(path) => path.len(),
                other => panic!("{other:?}"),
            };
            let options = SearchOptions::default();
            match idastar::solve(&lights, &deferred, board, &limits, &options).outcome {
                Outcome::Solved(path) => assert_eq!(path.len(), want, "board {board}"),
                other => panic!("board {board}: {other:?}"),
            }
            if deferred.is_built() && built_at.is_none() {
                built_at = Some(board);
            }
        }
        // Built during the sweep, with boards searched on either side of the build.
        assert!(
            matches!(built_at, Some(b) if b > 0 && b + 1 < lights.size() as u64),
            "{built_at:?}"
        );
    }
}
