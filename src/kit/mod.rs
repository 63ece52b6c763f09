//! The generic glue: a plugin's space and the capabilities it declares become an [`Instance`].
//!
//! A plugin writes a [`StateSpace`] with its [`BoardFormat`] and whichever capabilities are true
//! of it, then hands it to a [`Kit`] and says which capabilities to use, one call each:
//!
//! ```text
//! Kit::new(space, "Sliding tiles 3 x 3, goal ordered")
//!     .indexed()      // Indexed: bitset BFS, forward explore
//!     .goals()        // Invertible + GoalSet: bidirectional BFS
//!     .table()        // Indexed + Invertible + GoalSet + Describe: distance table (cached), backward explore
//!     .invariant()    // Invariant: unsolvable boards proven before any engine runs
//!     .build(Mode::AUTO)
//! ```
//!
//! Each call requires its capability through its bounds (so a plugin cannot claim one it does
//! not have) and records what it makes possible in the space's [`Caps`]: the capability itself,
//! as plain functions of the space, never an engine. [`Kit::build`] then asks the
//! [engine table](crate::search::engines) which engines those capabilities allow (each engine
//! says what it needs) and `auto`'s rule which one runs by default, and wraps each engine in
//! the one path from board text to a [`Solution`](crate::instance::Solution) (`solve.rs`): no engine is named here, and a
//! new engine changes nothing in this folder.
//!
//! What every engine gets from here, once:
//!
//! - the board parsed by the plugin's [`BoardFormat`] (a scramble applied under the solve's
//!   limits), and the path's boards formatted by it;
//! - the [`Invariant`] consulted first: a proven-unsolvable start never reaches an engine, and
//!   the answer names the invariant with zero stats;
//! - the heuristic made on first use and kept for the instance's life, a distance table the
//!   same (see [`search::table_engine`](crate::search::table_engine)), so a batch of boards
//!   builds them once;
//! - whether the answer is proven minimal (`"optimal"` in the JSON), from the engine's
//!   guarantees.
//!
//! The kit also chooses the fastest way to build the table and to sweep the whole space
//! (`explore`), and the exporter: those are not engines of the table but of the capabilities
//! (XOR moves, split moves, symmetries: `explore.rs`).
//!
//! # Files
//!
//! | file | holds |
//! |---|---|
//! | `mod.rs` | [`Kit`]: the capability calls and [`build`](Kit::build) |
//! | `solve.rs` | board text in, [`Solution`](crate::instance::Solution) out, around any engine's run |
//! | `explore.rs` | the sweeps of `explore` and the exporter |
//!
//! Why function pointers rather than trait objects: the capability traits have associated types
//! and generic methods (not object-safe), and the table builds and sweeps are generic so that
//! their loops are monomorphised; a pointer to `table::build_xor::<Flip>` keeps all of that.

mod explore;
mod solve;

use crate::config::{Facts, Mode};
use crate::instance::Instance;
use crate::search::caps::{Caps, GoalOps, IndexOps, Lazy, TableBuild, TableOps};
use crate::search::engines;
use crate::search::layers::classes;
use crate::search::table::cached::{self, Recipe};
use crate::search::table::{self, DistanceTable};
use crate::space::{
    BoardFormat, Describe, GoalSet, Heuristic, Indexed, Invariant, Invertible, SplitMoves,
    StateSpace, Symmetric, XorMoves,
};
use explore::{ClassSweep, Faster, Sweeps};
use std::sync::Arc;

pub use crate::search::caps::{HeuristicFactory, SharedHeuristic};
pub use crate::search::idastar::AUTO_EXHAUST_MAX_STATES;
pub use crate::search::table_engine::AUTO_TABLE_MAX_STATES;

/// What the kit needs of every plugin space: a space with board text that can be shared.
pub trait Puzzle: BoardFormat + Send + Sync + 'static {}
impl<P: BoardFormat + Send + Sync + 'static> Puzzle for P {}

type Proof<P> = fn(&P, <P as StateSpace>::State) -> Option<&'static str>;

/// The capabilities a plugin declared for its space. See the module docs.
///
/// Each method records what its capability makes possible; [`build`](Self::build) chooses among
/// them, so the order of the calls never changes the engines (`.xor().table()` and
/// `.table().xor()` both build the table 64 states a word).
pub struct Kit<P: Puzzle> {
    space: Arc<P>,
    description: String,
    /// What the engines see.
    caps: Caps<P>,
    /// What the sweeps of `explore` see.
    sweeps: Sweeps<P>,
    /// A faster table build and sweep than the plain ones: XOR words, else split blocks.
    xor: Option<Faster<P>>,
    split: Option<Faster<P>>,
    /// A table build that expands one state per symmetry orbit, and the sweep that counts the
    /// classes.
    symmetric: Option<(TableBuild<P>, ClassSweep<P>)>,
    undirected: bool,
    proof: Option<Proof<P>>,
}

impl<P: Puzzle> Kit<P> {
    /// What every space supports: BFS with a hash set, IDDFS, beam search, a directed export.
    /// `description` names the puzzle in one line (explore titles, refusals).
    pub fn new(space: P, description: impl Into<String>) -> Self {
        Kit {
            space: Arc::new(space),
            description: description.into(),
            caps: Caps::default(),
            sweeps: Sweeps::new(),
            xor: None,
            split: None,
            symmetric: None,
            undirected: false,
            proof: None,
        }
    }

    /// The space, for a plugin's own engines.
    pub fn space(&self) -> &Arc<P> {
        &self.space
    }

    /// A dense index: engines keep bitsets and flat arrays over it, and `explore --from start`
    /// sweeps a bitset (without one it keeps a hash set of the states it finds).
    pub fn indexed(mut self) -> Self
    where
        P: Indexed,
    {
        self.caps.index = Some(IndexOps::of(&*self.space));
        self.sweeps.indexed();
        self
    }

    /// Invertible moves: exports are undirected (one edge per pair of states).
    pub fn invertible(mut self) -> Self
    where
        P: Invertible,
    {
        self.undirected = true;
        self
    }

    /// Invertible moves and an enumerable goal set: the engines that search backward from the
    /// goals (`bidirectional`), undirected exports, and `explore` backward from the goals with
    /// a hash set where there is no dense index (as far as the memory budget allows; the
    /// default when no start board is given).
    pub fn goals(mut self) -> Self
    where
        P: Invertible + GoalSet,
    {
        self.caps.goals = Some(GoalOps::of());
        self.sweeps.goals();
        self.invertible()
    }

    /// Why this space has no dense index (`its index needs 4.3e22 values, past 2^64`): what
    /// `explore` says when it sweeps with a hash set instead of bitsets.
    pub fn no_index(mut self, why: impl Into<String>) -> Self {
        self.sweeps.no_index = Some(why.into());
        self
    }

    /// A dense index, invertible moves, an enumerable goal set and a description: the distance
    /// `table` (cached on disk under the space's content fingerprint), `explore` backward from
    /// the goals, one state at a time, and everything [`indexed`](Self::indexed) and
    /// [`goals`](Self::goals) give.
    pub fn table(mut self) -> Self
    where
        P: Indexed + Invertible + GoalSet + Describe,
    {
        self.caps.table = Some(TableOps {
            build: table::build::<P>,
            lookup: DistanceTable::lookup::<P>,
            fetch: |cache, space, limits, build| {
                cached::load_or_build(cache, space, &Recipe::distance_table(), limits, || {
                    build(space, limits)
                })
            },
            discard: |cache, space, why| {
                cached::discard(cache, space, &Recipe::distance_table(), why)
            },
        });
        self.sweeps.table();
        self.indexed().goals()
    }

    /// Moves that XOR the index: `explore` moves a 64-bit word of states per move, and so does
    /// the `table` build ([`table::build_xor`]) when the space has a [`table`](Self::table).
    pub fn xor(mut self) -> Self
    where
        P: XorMoves + GoalSet,
    {
        self.xor = Some(Faster::xor());
        self
    }

    /// An index that splits into parts the moves change separately: `explore` moves a block of
    /// states at a time from two move tables ([`layers::split_backward`](crate::search::layers::split_backward); state by state when
    /// the space's index does not split after all), and so does the `table` build
    /// ([`table::build_split`]) when the space has a [`table`](Self::table).
    pub fn split(mut self) -> Self
    where
        P: SplitMoves + Invertible + GoalSet,
    {
        self.split = Some(Faster::split());
        self
    }

    /// Symmetries that map moves to moves and goals to goals: the `table` build expands one
    /// state per orbit ([`table::build_symmetric`]; the same table) when the space has a
    /// [`table`](Self::table) and no faster build, and `explore --symmetry` counts the classes
    /// of every layer of its backward sweep ([`classes`]).
    pub fn symmetric(mut self) -> Self
    where
        P: Indexed + Invertible + GoalSet + Symmetric,
    {
        self.symmetric = Some((
            |space, limits| table::build_symmetric(space, limits, table::Width::Auto),
            classes::backward::<P>,
        ));
        self.symmetric_roots()
    }

    /// Symmetries that map moves to moves and goals to goals, on a space without a table
    /// ([`symmetric`](Self::symmetric) includes this): IDA* searches one of the start's
    /// successors per symmetry class ([`idastar::solve_symmetric`](crate::search::idastar::solve_symmetric)); the same path, fewer nodes
    /// from a symmetric start.
    pub fn symmetric_roots(mut self) -> Self
    where
        P: Symmetric,
    {
        self.caps.representative = Some(P::representative);
        self
    }

    /// Why this space has no symmetry (`no rotation maps the searched moves onto themselves`):
    /// what `explore --symmetry` says when it refuses.
    pub fn no_symmetry(mut self, why: impl Into<String>) -> Self {
        self.sweeps.no_symmetry = Some(why.into());
        self
    }

    /// An admissible heuristic: the engines that need one (`astar`, `idastar`), and beam search
    /// ranks by it.
    pub fn heuristic(self, heuristic: impl Heuristic<P> + Send + 'static) -> Self {
        let heuristic: SharedHeuristic<P> = Arc::new(heuristic);
        self.heuristic_from(Arc::new(move |_, _| Ok(heuristic.clone())))
    }

    /// [`heuristic`](Self::heuristic) made by `factory` on first use: for heuristics that own
    /// tables (pattern databases), built within the first solve's limits and kept after.
    pub fn heuristic_from(mut self, factory: HeuristicFactory<P>) -> Self {
        self.caps.heuristic = Some(Arc::new(Lazy::new(factory)));
        self
    }

    /// IDA* compiled for the heuristic type `H`, run when the heuristic made is an `H` (else
    /// IDA* runs over the trait object): for a heuristic whose step is cheap enough that the
    /// calls through the vtable show (see [`CompiledIdaStar`](crate::search::caps::CompiledIdaStar)).
    /// The same search, so the same answers and node counts.
    pub fn idastar_compiled_for<H: Heuristic<P> + std::any::Any>(mut self) -> Self {
        self.caps.idastar_compiled = Some(crate::search::idastar::solve_as::<P, H>);
        self
    }

    /// A guess at how far a state is from a goal, for the engines that rank states without
    /// needing a bound (beam search ranks by it before the heuristic): see
    /// [`Guess`](crate::search::caps::Guess).
    pub fn guess(mut self, guess: crate::search::caps::Guess<P>) -> Self {
        self.caps.guess = Some(guess);
        self
    }

    /// An invariant that proves boards unsolvable: consulted before every engine.
    pub fn invariant(mut self) -> Self
    where
        P: Invariant,
    {
        self.proof = Some(P::unsolvable_by);
        self
    }

    /// The [`Instance`]: every engine the declared capabilities allow (the
    /// [engine table](crate::search::engines) decides), `auto` by its rule, the explorer and the
    /// exporter; `default_mode` is the plugin's (the config's `[search] mode` overrides it).
    ///
    /// A faster build or sweep is preferred over a plainer one, whatever the order the
    /// capabilities were declared in: the table is built by XOR words, else split blocks, else
    /// symmetric orbits, else level scans (the same table every way); `explore` sweeps backward
    /// by XOR words, else split blocks, else state by state from the goals (with a table);
    /// forward from the start by XOR words, else state by state over the index, else with a
    /// hash set. By default it sweeps backward when it can.
    pub fn build(self, default_mode: Mode) -> Instance {
        let Kit {
            space,
            description,
            mut caps,
            mut sweeps,
            xor,
            split,
            symmetric,
            undirected,
            proof,
        } = self;
        let faster = xor.or(split);
        if let Some(ops) = &mut caps.table {
            ops.build = match (&faster, &symmetric) {
                (Some(f), _) => f.build,
                (None, Some((symmetric, _))) => *symmetric,
                (None, None) => ops.build,
            };
        }
        let size = caps.index.as_ref().map(|i| i.size);
        caps.facts = Facts {
            states: size,
            costly_moves: false,
        };
        sweeps.faster(faster.as_ref(), symmetric.map(|(_, count)| count));
        let caps = Arc::new(caps);
        let mut instance = Instance::new(description.clone())
            .with_default_mode(default_mode)
            .with_facts(caps.facts);
        for (engine, run) in engines::runs(&caps) {
            instance = instance.with_engine(engine, solve::solve_fn(&space, proof, engine, run));
        }
        let explorer = explore::explorer(&space, sweeps, description, size);
        instance
            .with_explore(explorer)
            .with_export(explore::exporter(&space, undirected))
    }
}

#[cfg(test)]
mod tests;
