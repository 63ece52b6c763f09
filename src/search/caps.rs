//! What a puzzle's space can do, as the engines of the engine table see it: [`Caps`].
//!
//! The capability traits ([`Indexed`], [`Invertible`], [`GoalSet`], ...) have associated types
//! and generic methods, and a plugin's space implements whichever are true of it. An engine of
//! the [engine table](super::engines) is written once for any space, so it cannot name those
//! bounds: it asks [`Caps`] instead. The plugin's glue (the [`Kit`](crate::kit::Kit)), which does
//! know the bounds, records each capability it declares here as plain functions of the space:
//! the index as its [`Indexed`] methods, the goals as [`Invertible::inverse`] and
//! [`GoalSet::goals`], the distance table as how it is built, looked up and cached, the
//! heuristic as how it is made. An engine that needs a capability takes the space seen
//! through them ([`Viewed`]), which implements the traits by calling those functions.
//!
//! The trade-off: an engine's index and goal look-ups go through a function pointer (an
//! indirect call, a nanosecond or two, where a monomorphised call would inline), in exchange for
//! an engine that is one file and one line of the table, whatever it needs. The hot loops of
//! the library stay monomorphised where the cost would show: the distance table's builds and
//! the whole-space sweeps are recorded by the kit as the space's own (its [`TableOps`]).

use crate::cache::{Source, TableCache};
use crate::config::Facts;
use crate::limit::{Limit, Limits};
use crate::options::SearchOptions;
use crate::search::table::{self, DistanceTable, Inconsistent};
use crate::search::{Report, table::TableDetails};
use crate::space::{GoalSet, Heuristic, Indexed, Invertible, StateSpace};
use std::any::Any;
use std::sync::{Arc, Mutex};

/// A heuristic shared by the engines that use it.
pub type SharedHeuristic<P> = Arc<dyn Shareable<P>>;

/// A [`Heuristic`] as the engines share it: any heuristic of a `'static` type, which an engine
/// can recover ([`Any`]) to run a search compiled for it ([`Caps::idastar_compiled`]). Every such
/// heuristic is one (a blanket impl): nothing to implement.
pub trait Shareable<P: StateSpace>: Heuristic<P> + Any + Send + Sync {}

impl<P: StateSpace, H: Heuristic<P> + Any + Send + Sync> Shareable<P> for H {}

/// IDA* compiled for one heuristic type, run on a shared heuristic when it is of that type
/// (`None` when not): [`idastar::solve_as`](crate::search::idastar::solve_as), as a kit records
/// it ([`Kit::idastar_compiled_for`](crate::kit::Kit::idastar_compiled_for)).
///
/// Why: the engine table holds heuristics as trait objects, and over `dyn Heuristic` each
/// successor's prefetch and estimate is a call through the vtable, the state passed through a
/// copy on the stack. A heuristic whose per-successor step is a few hundred instructions (the
/// 24-puzzle's incremental sums) is worth a search compiled for its type, where those calls
/// inline into the node loop; the search is the same generic code, so the answers and node
/// counts are the same. Only for the types a plugin names: each is four more copies of IDA*
/// to compile.
pub type CompiledIdaStar<P> =
    fn(
        &dyn Any,
        &P,
        <P as StateSpace>::State,
        &Limits,
        &SearchOptions,
        Option<Representative<P>>,
    ) -> Option<Report<<P as StateSpace>::State, <P as StateSpace>::Move>>;

/// Makes a heuristic when the first board needs it, within that solve's limits and with the
/// instance's table cache (pattern databases are built or loaded then, once).
pub type HeuristicFactory<P> =
    Arc<dyn Fn(&Limits, &TableCache) -> Result<SharedHeuristic<P>, Limit> + Send + Sync>;

/// What a run of an engine gives: its report and, for the table engine, what table it used.
pub type Ran<P> = (
    Report<<P as StateSpace>::State, <P as StateSpace>::Move>,
    Option<TableDetails>,
);

/// An engine ready to run on one space: the start, the limits, the options and the table cache
/// in, a [`Ran`] out. Made by an engine's `make` from the [`Caps`] it needs.
pub type Run<P> = Box<
    dyn Fn(
            &P,
            <P as StateSpace>::State,
            &Limits,
            &SearchOptions,
            &TableCache,
        ) -> crate::error::Result<Ran<P>>
        + Send
        + Sync,
>;

/// The capabilities a plugin declared for its space, as engines use them: see the module docs.
pub struct Caps<P: StateSpace> {
    /// The dense index: its size and its [`Indexed`] methods.
    pub index: Option<IndexOps<P>>,
    /// Invertible moves and the goal set: [`Invertible::inverse`] and [`GoalSet::goals`].
    pub goals: Option<GoalOps<P>>,
    /// The distance table: how it is built, looked up and kept in the cache.
    pub table: Option<TableOps<P>>,
    /// The admissible heuristic, made when the first board needs it.
    pub heuristic: Option<Arc<Lazy<P>>>,
    /// IDA* compiled for the heuristic's type, where the plugin named it (see
    /// [`CompiledIdaStar`]); else IDA* runs over the trait object.
    pub idastar_compiled: Option<CompiledIdaStar<P>>,
    /// A guess at how far a state is from a goal: an order, not a bound (see [`Guess`]).
    pub guess: Option<Guess<P>>,
    /// A state that stands for a state's symmetry class, when the space has symmetries
    /// ([`Symmetric::representative`](crate::space::Symmetric::representative)): IDA* then
    /// searches one of the start's successors per class.
    pub representative: Option<Representative<P>>,
    /// What `auto` knows of the puzzle.
    pub facts: Facts,
}

impl<P: StateSpace> Default for Caps<P> {
    fn default() -> Self {
        Caps {
            index: None,
            goals: None,
            table: None,
            heuristic: None,
            idastar_compiled: None,
            guess: None,
            representative: None,
            facts: Facts::default(),
        }
    }
}

impl<P: StateSpace> Caps<P> {
    /// `space` seen through these capabilities (an [`Indexed`], [`Invertible`] and [`GoalSet`]
    /// space as far as it has them: see [`Viewed`]).
    pub fn view<'a>(&'a self, space: &'a P) -> Viewed<'a, P> {
        Viewed { space, caps: self }
    }
}

/// A dense index, as functions: [`Indexed`]'s methods and the size.
pub struct IndexOps<P: StateSpace> {
    /// The number of indices.
    pub size: u128,
    index: fn(&P, P::State) -> u64,
    state: fn(&P, u64) -> P::State,
}

impl<P: Indexed> IndexOps<P> {
    /// The index of `space`.
    pub fn of(space: &P) -> IndexOps<P> {
        IndexOps {
            size: space.size(),
            index: P::index,
            state: P::state,
        }
    }
}

/// Invertible moves and the goal set, as functions.
pub struct GoalOps<P: StateSpace> {
    inverse: fn(&P, P::Move) -> P::Move,
    goals: fn(&P, &mut dyn FnMut(P::State)),
}

impl<P: Invertible + GoalSet> GoalOps<P> {
    /// The inverse and the goals of `P`.
    pub fn of() -> GoalOps<P> {
        GoalOps {
            inverse: P::inverse,
            goals: P::goals,
        }
    }
}

/// Builds the distance table of a space within the limits.
pub type TableBuild<P> = fn(&P, &Limits) -> Result<DistanceTable, Limit>;

/// A guess at how far a state is from a goal, fewer being closer (e.g. pieces out of place):
/// no bound, so never for an exact engine, only an order for the engines that keep the most
/// promising states (beam search). Cheap and fine-grained where an admissible heuristic of a
/// big puzzle is coarse: a small table's bound, the same few values for most states.
pub type Guess<P> = fn(&P, <P as StateSpace>::State) -> u32;

/// The state that stands for a state's symmetry class ([`Caps::representative`]).
pub type Representative<P> = fn(&P, <P as StateSpace>::State) -> <P as StateSpace>::State;

/// A table's answer for a start ([`TableOps::lookup`]).
pub type TableLookup<P> = fn(
    &DistanceTable,
    &P,
    <P as StateSpace>::State,
    &Limits,
    &SearchOptions,
) -> Result<table::Listed<P>, Inconsistent>;

/// The table from the cache, or built there ([`TableOps::fetch`]).
pub type TableFetch<P> =
    fn(&TableCache, &P, &Limits, TableBuild<P>) -> Result<(DistanceTable, Source), Limit>;

/// The distance table of a space, as functions: how it is built (the fastest way the space
/// allows: XOR words, split blocks, symmetric orbits or level scans, chosen by the kit), looked
/// up (its paths, as many as asked), fetched from the cache and discarded from it.
pub struct TableOps<P: StateSpace> {
    /// Builds the table.
    pub build: TableBuild<P>,
    /// The table's answer for a start: the outcome and further paths.
    pub lookup: TableLookup<P>,
    /// Loads the table from the cache, or builds it there with `build`.
    pub fetch: TableFetch<P>,
    /// Removes the table's file from the cache (it proved inconsistent in use), with one
    /// warning saying why.
    pub discard: fn(&TableCache, &P, &str),
}

/// A heuristic made on first use and kept, until a table it reads proves damaged.
pub struct Lazy<P: StateSpace> {
    factory: HeuristicFactory<P>,
    made: Mutex<Option<SharedHeuristic<P>>>,
}

impl<P: StateSpace> Lazy<P> {
    /// A heuristic that `factory` makes when a board first needs it.
    pub fn new(factory: HeuristicFactory<P>) -> Lazy<P> {
        Lazy {
            factory,
            made: Mutex::new(None),
        }
    }

    /// The heuristic, made now if no board made it before (or the last one was forgotten),
    /// and whether this call made it.
    pub fn get(
        &self,
        limits: &Limits,
        cache: &TableCache,
    ) -> Result<(SharedHeuristic<P>, bool), Limit> {
        let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(h) = &*made {
            return Ok((h.clone(), false));
        }
        let h = (self.factory)(limits, cache)?;
        Ok((made.insert(h).clone(), true))
    }

    /// After an answer: a heuristic whose cached tables were cut short while in use discards
    /// their files ([`Heuristic::intact`]) and is forgotten, so the next board makes it afresh
    /// from rebuilt tables. (The answer it gave stands: the zeros it read are lower bounds.)
    pub fn check(&self, heuristic: &SharedHeuristic<P>, cache: &TableCache) {
        if !heuristic.intact(cache) {
            let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
            if made.as_ref().is_some_and(|h| Arc::ptr_eq(h, heuristic)) {
                *made = None;
            }
        }
    }
}

/// Runs `engine` with the heuristic of `caps` (made, or loaded from `cache`, by the first board
/// that needs it, within that board's limits, whose stats then count its time in `build`),
/// then checks that the tables it read are still whole ([`Lazy::check`]). The one way every
/// guided engine (A*, IDA*, beam) gets its heuristic. A limit that stops the making is the
/// answer; `None` when the puzzle has no heuristic.
pub fn guided<P: StateSpace>(
    lazy: &Lazy<P>,
    limits: &Limits,
    cache: &TableCache,
    engine: impl FnOnce(&dyn Shareable<P>) -> Report<P::State, P::Move>,
) -> Report<P::State, P::Move> {
    let started = std::time::Instant::now();
    let made = lazy.get(limits, cache);
    let build = match made {
        Ok((_, false)) => std::time::Duration::ZERO,
        _ => started.elapsed(),
    };
    let mut report = match made {
        Ok((h, _)) => {
            let report = engine(&*h);
            lazy.check(&h, cache);
            report
        }
        // A limit stopped the making, or its tables would pass the budget.
        Err(limit) => Report::new(
            crate::search::Outcome::LimitReached(limit),
            Default::default(),
        ),
    };
    report.stats.build = build;
    report.stats.elapsed = started.elapsed();
    report
}

/// A space seen through its [`Caps`]: [`StateSpace`] as the space itself, [`Indexed`],
/// [`Invertible`] and [`GoalSet`] through the recorded functions. An engine takes it only after
/// checking that the capabilities it uses are there: asking one that is not is a bug (a panic
/// naming it), never a wrong answer.
pub struct Viewed<'a, P: StateSpace> {
    space: &'a P,
    caps: &'a Caps<P>,
}

impl<P: StateSpace> Viewed<'_, P> {
    fn index_ops(&self) -> &IndexOps<P> {
        (self.caps.index.as_ref()).expect("an engine that needs the index checks for it")
    }

    fn goal_ops(&self) -> &GoalOps<P> {
        (self.caps.goals.as_ref()).expect("an engine that needs the goals checks for them")
    }
}

impl<P: StateSpace> StateSpace for Viewed<'_, P> {
    type State = P::State;
    type Move = P::Move;

    #[inline]
    fn successors(&self, state: P::State, visit: &mut dyn FnMut(P::Move, P::State)) {
        self.space.successors(state, visit)
    }

    #[inline]
    fn any_successor(&self, state: P::State, test: &mut dyn FnMut(P::State) -> bool) -> bool {
        self.space.any_successor(state, test)
    }

    #[inline]
    fn successors_where(
        &self,
        state: P::State,
        wanted: &mut dyn FnMut(P::Move) -> bool,
        visit: &mut dyn FnMut(P::Move, P::State),
    ) {
        self.space.successors_where(state, wanted, visit)
    }

    #[inline]
    fn is_goal(&self, state: P::State) -> bool {
        self.space.is_goal(state)
    }

    #[inline]
    fn may_follow(&self, previous: P::Move, next: P::Move) -> bool {
        self.space.may_follow(previous, next)
    }
}

impl<P: StateSpace> Indexed for Viewed<'_, P> {
    fn size(&self) -> u128 {
        self.index_ops().size
    }

    #[inline]
    fn index(&self, state: P::State) -> u64 {
        (self.index_ops().index)(self.space, state)
    }

    #[inline]
    fn state(&self, index: u64) -> P::State {
        (self.index_ops().state)(self.space, index)
    }
}

impl<P: StateSpace> Invertible for Viewed<'_, P> {
    #[inline]
    fn inverse(&self, m: P::Move) -> P::Move {
        (self.goal_ops().inverse)(self.space, m)
    }
}

impl<P: StateSpace> GoalSet for Viewed<'_, P> {
    fn goals(&self, visit: &mut dyn FnMut(P::State)) {
        (self.goal_ops().goals)(self.space, visit)
    }
}

/// A heuristic of a space, as a heuristic of the space seen through its [`Caps`] ([`Viewed`]):
/// for an engine that takes both (A* over the dense index).
pub struct Through<'a, P: StateSpace + ?Sized>(pub &'a dyn Heuristic<P>);

impl<'v, P: StateSpace> Heuristic<Viewed<'v, P>> for Through<'_, P> {
    #[inline]
    fn estimate(&self, space: &Viewed<'v, P>, state: P::State) -> u32 {
        self.0.estimate(space.space, state)
    }

    #[inline]
    fn estimate_below(&self, space: &Viewed<'v, P>, state: P::State, limit: u32) -> u32 {
        self.0.estimate_below(space.space, state, limit)
    }

    #[inline]
    fn prefetch(&self, space: &Viewed<'v, P>, state: P::State) -> crate::space::Prefetched {
        self.0.prefetch(space.space, state)
    }

    fn carries_memo(&self) -> bool {
        self.0.carries_memo()
    }

    #[inline]
    fn successor_context(
        &self,
        space: &Viewed<'v, P>,
        state: P::State,
    ) -> crate::space::Prefetched {
        self.0.successor_context(space.space, state)
    }

    #[inline]
    fn ruled_out(&self, space: &Viewed<'v, P>, state: P::State, note: u64, budget: u32) -> u64 {
        self.0.ruled_out(space.space, state, note, budget)
    }

    #[inline]
    fn prefetch_successor(
        &self,
        space: &Viewed<'v, P>,
        parent: P::State,
        parent_memo: &crate::space::Prefetched,
        mv: P::Move,
        state: P::State,
        memo: &mut crate::space::Prefetched,
    ) {
        self.0
            .prefetch_successor(space.space, parent, parent_memo, mv, state, memo)
    }

    #[inline]
    fn advance(
        &self,
        space: &Viewed<'v, P>,
        state: P::State,
        prefetched: &mut crate::space::Prefetched,
        limit: u32,
    ) -> Option<u32> {
        self.0.advance(space.space, state, prefetched, limit)
    }

    #[inline]
    fn estimate_prefetched(
        &self,
        space: &Viewed<'v, P>,
        state: P::State,
        prefetched: &crate::space::Prefetched,
        limit: u32,
    ) -> u32 {
        self.0
            .estimate_prefetched(space.space, state, prefetched, limit)
    }

    fn intact(&self, cache: &TableCache) -> bool {
        self.0.intact(cache)
    }
}

// Function pointers and a size: copied whatever the space (a derive would ask `P: Copy`).
impl<P: StateSpace> Clone for IndexOps<P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P: StateSpace> Copy for IndexOps<P> {}
impl<P: StateSpace> Clone for GoalOps<P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P: StateSpace> Copy for GoalOps<P> {}
impl<P: StateSpace> Clone for TableOps<P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P: StateSpace> Copy for TableOps<P> {}
