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
//! not have) and records the engines it makes possible as monomorphised function pointers; no
//! call is needed for what every space has (BFS with a hash set, IDDFS, a directed export).
//! [`Kit::build`] turns the record into the [`Instance`]'s closures: **this is the one place
//! where engines are chosen** and where results are converted to text. Adding an engine is its
//! file in `src/search/` plus a line here (a field and the closure that runs it); no plugin
//! changes.
//!
//! What every engine gets from here, once:
//!
//! - the board parsed by the plugin's [`BoardFormat`], and the path's boards formatted by it;
//! - the [`Invariant`] consulted first: a proven-unsolvable start never reaches an engine, and
//!   the answer names the invariant with zero stats;
//! - the distance table built (or loaded from the [`TableCache`], keyed by the space's content)
//!   on first use and kept for the instance's life (so a batch of boards builds it once), its
//!   depth limit applied to the looked-up answer, and its size in the JSON (`table_bytes`,
//!   `table_bits_per_entry`, `table_reused`, `table_loaded`); a loaded table that proves
//!   inconsistent with the space in a lookup is discarded and the board answered from a rebuild;
//! - the time of the board that built (or loaded) a table or the pattern databases counting
//!   it: `elapsed` is the whole solve, `build` the part of it spent on the tables;
//! - `auto`, by the rule below.
//!
//! # The `auto` rule
//!
//! The one place it is written; [`Kit::build`] applies it, the first that the space allows:
//!
//! 1. `table`, when the space is indexed, has a table, and holds at most
//!    [`AUTO_TABLE_MAX_STATES`] states (built in a blink, then every board is a look-up);
//! 2. `idastar`, when the plugin gave a heuristic, unless the space is indexed and holds at
//!    most [`AUTO_EXHAUST_MAX_STATES`] states (small enough to exhaust: a deepening search
//!    proves an unsolvable start only slowly there): memory linear in the depth plus the
//!    transposition table, and the heuristic cuts the tree;
//! 3. `bidirectional`, when moves are invertible and the goals listed ([`goals`](Kit::goals)
//!    or [`table`](Kit::table)): with no heuristic to guide a search and no table that fits,
//!    two searches that meet in the middle visit about the square root of what one visits;
//! 4. `bfs`, which every space has.
//!
//! With several solutions asked for ([`Limits::solutions`]), `auto` runs the first engine that
//! lists them: the rule's choice, else `idastar`, `table`, `iddfs`
//! ([`Instance::engine_for`]); the kit marks those three as listing.
//!
//! A plugin that knows better says so after the build with
//! [`Instance::with_auto`] (Flip: BFS on small boards, its algebra on large ones).
//! `iddfs` is never chosen: without a heuristic it expands more than BFS visits, and it is
//! there for spaces too large for any store.
//!
//! Why function pointers rather than trait objects: the capability traits have associated types
//! and generic methods (not object-safe), and the engines are generic so that the successor loop
//! is monomorphised; a pointer to `bfs::solve_indexed::<Tiles>` keeps all of that.

use crate::board_text::BoardText;
use crate::cache::{Source, TableCache};
use crate::config::{ExploreFrom, Mode};
use crate::error::Result;
use crate::graph::{self, ExportLimits};
use crate::instance::{Direction, Exploration, Instance, Solution, TableDetails};
use crate::limit::{Limit, Limits};
use crate::search::cluster::{self, Cluster, Swept};
use crate::search::layers::classes::{self, Classes, NoClasses};
use crate::search::layers::{self, Layers};
use crate::search::table::cached::{self, Recipe};
use crate::search::table::{self, DistanceTable, Inconsistent};
use crate::search::{Outcome, Report, Stats, astar, bfs, bidirectional, idastar, iddfs};
use crate::setup::Setup;
use crate::space::{
    BoardFormat, Describe, GoalSet, Heuristic, Indexed, Invariant, Invertible, SplitMoves,
    StateSpace, Symmetric, XorMoves,
};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// `auto` builds the distance table when the space has at most this many states (a few
/// milliseconds; 2^20 states take 512 KiB at 4 bits); beyond, it runs BFS from the start, which
/// looks at what one board needs rather than the whole space.
pub const AUTO_TABLE_MAX_STATES: u128 = 1 << 20;

/// `auto` never deepens (IDA*) over an indexed space of at most this many states: a search that
/// exhausts it (a bitset of 2 MiB) proves an unsolvable start in well under a second, where a
/// deepening search proves it only once its iterations stop finding states.
pub const AUTO_EXHAUST_MAX_STATES: u128 = 1 << 24;

/// What the kit needs of every plugin space: a space with board text that can be shared.
pub trait Puzzle: BoardFormat + Send + Sync + 'static {}
impl<P: BoardFormat + Send + Sync + 'static> Puzzle for P {}

type State<P> = <P as StateSpace>::State;
type Engine<P> = fn(&P, State<P>, &Limits) -> Report<State<P>, <P as StateSpace>::Move>;
type Guided<P> = fn(
    &P,
    &(dyn Heuristic<P> + 'static),
    State<P>,
    &Limits,
) -> Report<State<P>, <P as StateSpace>::Move>;
/// A heuristic shared by the engines that use it.
pub type SharedHeuristic<P> = Arc<dyn Heuristic<P> + Send + Sync>;
/// Makes a heuristic when the first board needs it, within that solve's limits and with the
/// instance's table cache (pattern databases are built or loaded then, once).
pub type HeuristicFactory<P> =
    Arc<dyn Fn(&Limits, &TableCache) -> Result<SharedHeuristic<P>, Limit> + Send + Sync>;
type TableBuild<P> = fn(&P, &Limits) -> std::result::Result<DistanceTable, Limit>;
type TableLookup<P> = fn(
    &DistanceTable,
    &P,
    State<P>,
    &Limits,
) -> std::result::Result<table::Listed<P>, Inconsistent>;
/// Discards the cached file of the space's table (it proved inconsistent in use).
type TableDiscard<P> = fn(&TableCache, &P, &str);
/// Loads the space's table from the cache or builds it there.
type TableFetch<P> = fn(
    &TableCache,
    &P,
    &Limits,
    TableBuild<P>,
) -> std::result::Result<(DistanceTable, Source), Limit>;
type Proof<P> = fn(&P, State<P>) -> Option<&'static str>;
type Progress<'a> = &'a mut dyn FnMut(u32, u64);
type ForwardSweep<P> = fn(&P, State<P>, layers::Options, Progress) -> Layers<State<P>>;
type BackwardSweep<P> = fn(&P, layers::Options, Progress) -> Layers<State<P>>;
type Clustered<P> = std::result::Result<Swept<State<P>>, cluster::Fault>;
type ClusterForward<P> = fn(Arc<P>, State<P>, &Cluster, &Limits) -> Clustered<P>;
type ClusterBackward<P> = fn(Arc<P>, &Cluster, &Limits) -> Clustered<P>;
/// A backward sweep that lends each layer's bitset to a callback (what the classes count runs).
type EachSweep<P> = classes::EachSweep<P>;
/// A backward sweep that counts the symmetry classes of each layer, run by the sweep given.
type ClassSweep<P> = fn(
    &P,
    EachSweep<P>,
    layers::Options,
    Progress,
) -> std::result::Result<(Layers<State<P>>, Classes), NoClasses>;

/// The whole-space sweeps of `explore`, each with the way it runs on a cluster and the name of
/// its strategy: forward from the start board (every space: a bitset over the dense index, else
/// a hash set, which no cluster runs), and backward from the goal set (when the space has one).
struct Sweeps<P: StateSpace> {
    forward: (ForwardSweep<P>, Option<ClusterForward<P>>, &'static str),
    backward: Option<(BackwardSweep<P>, ClusterBackward<P>, &'static str)>,
    /// Backward with a hash set, for a space with goals but no dense index (no cluster).
    backward_hashed: Option<BackwardSweep<P>>,
    /// Why there is no dense index, when the plugin said ([`Kit::no_index`]).
    no_index: Option<String>,
    /// The backward sweep with its classes counted (`explore --symmetry`), and the sweep it runs.
    classes: Option<(ClassSweep<P>, EachSweep<P>)>,
    /// Why the space has no symmetry, when the plugin said ([`Kit::no_symmetry`]).
    no_symmetry: Option<String>,
}

/// The distance table engine of a space: how it is built, looked up, and kept in the cache.
struct TableEngine<P: StateSpace> {
    build: TableBuild<P>,
    lookup: TableLookup<P>,
    fetch: TableFetch<P>,
    discard: TableDiscard<P>,
}

/// The backward sweep state by state, in this process, on a cluster, and lending its layers.
type PerStateSweep<P> = (BackwardSweep<P>, ClusterBackward<P>, EachSweep<P>);

/// What a dense index gives: bitset BFS and A*, the size, the forward sweep.
struct IndexedEngines<P: StateSpace> {
    bfs: Engine<P>,
    astar: Guided<P>,
    size: u128,
    forward: (ForwardSweep<P>, ClusterForward<P>),
}

/// A faster way to build the same table and sweep backward (and, for XOR moves, forward),
/// which one capability gives (XOR moves: a word of states per move; split moves: a block per
/// move table look-up).
struct Faster<P: StateSpace> {
    build: TableBuild<P>,
    sweep: BackwardSweep<P>,
    /// The same sweep, lending its layers.
    each: EachSweep<P>,
    forward: Option<ForwardSweep<P>>,
    cluster: ClusterBackward<P>,
    strategy: &'static str,
}

/// The capabilities a plugin declared for its space, as the engines they allow. See the module
/// docs.
///
/// Each method records what its capability makes possible; [`build`](Self::build) chooses among
/// them, so the order of the calls never changes the engine chosen (`.xor().table()` and
/// `.table().xor()` both build the table 64 states a word).
pub struct Kit<P: Puzzle> {
    space: Arc<P>,
    description: String,
    /// Why the space has no dense index ([`no_index`](Self::no_index)).
    no_index: Option<String>,
    /// The hash-set sweep backward from the goals ([`goals`](Self::goals)).
    backward_hashed: Option<BackwardSweep<P>>,
    indexed: Option<IndexedEngines<P>>,
    /// The table engine (a plain level-scan build) and the per-state backward sweep.
    table: Option<(TableEngine<P>, PerStateSweep<P>)>,
    xor: Option<Faster<P>>,
    split: Option<Faster<P>>,
    /// A table build that expands one state per symmetry orbit, and the sweep that counts the
    /// classes.
    symmetric: Option<(TableBuild<P>, ClassSweep<P>)>,
    /// Why the space has no symmetry ([`no_symmetry`](Self::no_symmetry)).
    no_symmetry: Option<String>,
    heuristic: Option<HeuristicFactory<P>>,
    /// IDA*: plain, or searching one of the start's successors per symmetry class
    /// ([`symmetric_roots`](Self::symmetric_roots)).
    idastar: Guided<P>,
    /// Bidirectional BFS: with hash sets ([`goals`](Self::goals)), or bitsets when the space
    /// has a [`table`](Self::table) (whatever the order of the calls).
    both_ways: Option<Engine<P>>,
    undirected: bool,
    proof: Option<Proof<P>>,
}

impl<P: Puzzle> Kit<P> {
    /// What every space supports: BFS with a hash set, IDDFS, a directed export.
    /// `description` names the puzzle in one line (explore titles, refusals).
    pub fn new(space: P, description: impl Into<String>) -> Self {
        Kit {
            space: Arc::new(space),
            description: description.into(),
            no_index: None,
            backward_hashed: None,
            indexed: None,
            table: None,
            xor: None,
            split: None,
            symmetric: None,
            no_symmetry: None,
            heuristic: None,
            idastar: idastar::solve::<P, dyn Heuristic<P>>,
            both_ways: None,
            undirected: false,
            proof: None,
        }
    }

    /// The space, for a plugin's own engines.
    pub fn space(&self) -> &Arc<P> {
        &self.space
    }

    /// A dense index: BFS keeps a bitset, and `explore --from start` sweeps a bitset (without
    /// one it keeps a hash set of the states it finds).
    pub fn indexed(mut self) -> Self
    where
        P: Indexed,
    {
        self.indexed = Some(IndexedEngines {
            bfs: bfs::solve_indexed::<P>,
            astar: astar::solve_indexed::<P, dyn Heuristic<P>>,
            size: self.space.size(),
            forward: (layers::forward::<P>, cluster::forward::<P>),
        });
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

    /// Invertible moves and an enumerable goal set: the `bidirectional` engine (hash sets;
    /// bitsets when the space has a [`table`](Self::table) too), undirected exports, and
    /// `explore` backward from the goals with a hash set where there is no dense index (as far
    /// as the memory budget allows; the default when no start board is given).
    pub fn goals(mut self) -> Self
    where
        P: Invertible + GoalSet,
    {
        self.both_ways = self.both_ways.or(Some(bidirectional::solve::<P>));
        self.backward_hashed = Some(layers::backward_hashed::<P>);
        self.invertible()
    }

    /// Why this space has no dense index (`its index needs 4.3e22 values, past 2^64`): what
    /// `explore` says when it sweeps with a hash set instead of bitsets.
    pub fn no_index(mut self, why: impl Into<String>) -> Self {
        self.no_index = Some(why.into());
        self
    }

    /// A dense index, invertible moves, an enumerable goal set and a description: the distance
    /// `table` engine (its table cached on disk under the space's content fingerprint),
    /// `explore` backward from the goals, one state at a time, and the `bidirectional` engine
    /// with bitsets.
    pub fn table(mut self) -> Self
    where
        P: Indexed + Invertible + GoalSet + Describe,
    {
        self.both_ways = Some(bidirectional::solve_indexed::<P>);
        let mut kit = self.indexed().invertible();
        let engine = TableEngine {
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
        };
        let sweeps = (
            layers::backward::<P> as BackwardSweep<P>,
            cluster::backward::<P> as ClusterBackward<P>,
            layers::backward_each::<P> as EachSweep<P>,
        );
        kit.table = Some((engine, sweeps));
        kit
    }

    /// Moves that XOR the index: `explore` moves a 64-bit word of states per move, and so does
    /// the `table` build ([`table::build_xor`]) when the space has a [`table`](Self::table).
    pub fn xor(mut self) -> Self
    where
        P: XorMoves + GoalSet,
    {
        self.xor = Some(Faster {
            build: table::build_xor::<P>,
            sweep: layers::xor_backward::<P>,
            each: layers::xor_backward_each::<P>,
            forward: Some(layers::xor_forward::<P>),
            cluster: cluster::xor_backward::<P>,
            strategy: "word-at-a-time",
        });
        self
    }

    /// An index that splits into parts the moves change separately: `explore` moves a block of
    /// states at a time from two move tables ([`layers::split_backward`]; state by state when
    /// the space's index does not split after all), and so does the `table` build
    /// ([`table::build_split`]) when the space has a [`table`](Self::table).
    pub fn split(mut self) -> Self
    where
        P: SplitMoves + Invertible + GoalSet,
    {
        self.split = Some(Faster {
            build: table::build_split::<P>,
            sweep: layers::split_backward::<P>,
            each: layers::split_backward_each::<P>,
            forward: None,
            cluster: cluster::backward::<P>,
            strategy: "block-at-a-time",
        });
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
    /// successors per symmetry class ([`idastar::solve_symmetric`]); the same path, fewer nodes
    /// from a symmetric start.
    pub fn symmetric_roots(mut self) -> Self
    where
        P: Symmetric,
    {
        self.idastar = idastar::solve_symmetric::<P, dyn Heuristic<P>>;
        self
    }

    /// Why this space has no symmetry (`no rotation maps the searched moves onto themselves`):
    /// what `explore --symmetry` says when it refuses.
    pub fn no_symmetry(mut self, why: impl Into<String>) -> Self {
        self.no_symmetry = Some(why.into());
        self
    }

    /// An admissible heuristic: the `astar` and `idastar` engines; `auto` runs IDA* where no
    /// table is built.
    pub fn heuristic(self, heuristic: impl Heuristic<P> + Send + 'static) -> Self {
        let heuristic: SharedHeuristic<P> = Arc::new(heuristic);
        self.heuristic_from(Arc::new(move |_, _| Ok(heuristic.clone())))
    }

    /// [`heuristic`](Self::heuristic) made by `factory` on first use: for heuristics that own
    /// tables (pattern databases), built within the first solve's limits and kept after.
    pub fn heuristic_from(mut self, factory: HeuristicFactory<P>) -> Self {
        self.heuristic = Some(factory);
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

    /// The [`Instance`]: every engine the declared capabilities allow, `auto`, the explorer and
    /// the exporter; `default_mode` is the plugin's (the config's `[search] mode` overrides it).
    ///
    /// **The one place engines are chosen.** A faster build or sweep is preferred over a plainer
    /// one, whatever the order the capabilities were declared in: the table is built by XOR
    /// words, else split blocks, else symmetric orbits, else level scans (the same table every
    /// way); `explore` sweeps backward by XOR words, else split blocks, else state by state from
    /// the goals (with a table); forward from the start by XOR words, else state by state over
    /// the index, else with a hash set. By default it sweeps backward when it can. `auto`
    /// follows [the rule](self#the-auto-rule) of the module docs.
    pub fn build(self, default_mode: Mode) -> Instance {
        let Kit {
            space,
            description,
            no_index,
            backward_hashed,
            indexed,
            table,
            xor,
            split,
            symmetric,
            no_symmetry,
            heuristic,
            idastar,
            both_ways,
            undirected,
            proof,
        } = self;
        let faster = xor.or(split);
        let (bfs, astar, size) = match &indexed {
            Some(i) => (i.bfs, i.astar, Some(i.size)),
            None => (
                bfs::solve::<P> as Engine<P>,
                astar::solve::<P, dyn Heuristic<P>> as Guided<P>,
                None,
            ),
        };
        let backward = match (&faster, &table) {
            (Some(f), _) => Some((f.sweep, f.cluster, f.strategy)),
            (None, Some((_, (sweep, cluster, _)))) => Some((*sweep, *cluster, "per-state")),
            (None, None) => None,
        };
        // The classes are counted on the sweep `explore` runs backward.
        let each = match (&faster, &table) {
            (Some(f), _) => Some(f.each),
            (None, Some((_, (_, _, each)))) => Some(*each),
            (None, None) => None,
        };
        let classes = symmetric.zip(each).map(|((_, count), each)| (count, each));
        let forward = match (faster.as_ref().and_then(|f| f.forward), &indexed) {
            (Some(words), Some(i)) => (words, Some(i.forward.1), "word-at-a-time"),
            (None, Some(i)) => (i.forward.0, Some(i.forward.1), "per-state"),
            (_, None) => (
                layers::forward_hashed::<P> as ForwardSweep<P>,
                None,
                "hash-set",
            ),
        };
        let sweeps = Sweeps {
            forward,
            backward,
            backward_hashed,
            no_index,
            classes,
            no_symmetry,
        };
        let runner = Runner { space, proof };
        // `auto` (the rule in the module docs): each engine that applies takes it from the
        // ones before, from the last resort to the first choice.
        let mut instance = Instance::new(description.clone())
            .with_default_mode(default_mode)
            .with_engine(Mode::BFS, runner.engine(Mode::BFS, bfs))
            .with_listing_engine(Mode::IDDFS, runner.engine(Mode::IDDFS, iddfs::solve::<P>))
            .with_auto(Mode::BFS);
        if let Some(both_ways) = both_ways {
            let engine = runner.engine(Mode::BIDIRECTIONAL, both_ways);
            instance = instance
                .with_engine(Mode::BIDIRECTIONAL, engine)
                .with_auto(Mode::BIDIRECTIONAL);
        }
        if let Some(factory) = heuristic {
            let heuristic = Arc::new(Lazy {
                factory,
                made: Mutex::new(None),
            });
            instance = instance
                .with_engine(Mode::ASTAR, runner.guided(Mode::ASTAR, astar, &heuristic))
                .with_listing_engine(
                    Mode::IDASTAR,
                    runner.guided(Mode::IDASTAR, idastar, &heuristic),
                );
            if size.is_none_or(|n| n > AUTO_EXHAUST_MAX_STATES) {
                instance = instance.with_auto(Mode::IDASTAR);
            }
        }
        let small = size.is_some_and(|n| n <= AUTO_TABLE_MAX_STATES);
        if let Some((mut engine, _)) = table {
            engine.build = match (&faster, symmetric) {
                (Some(f), _) => f.build,
                (None, Some((symmetric, _))) => symmetric,
                (None, None) => engine.build,
            };
            instance = instance.with_listing_engine(Mode::TABLE, runner.table(engine));
            if small {
                instance = instance.with_auto(Mode::TABLE);
            }
        }
        instance = instance.with_explore(runner.explore(sweeps, description, size));
        instance.with_export(runner.export(undirected))
    }
}

/// A heuristic made on first use and kept, until a table it reads proves damaged.
struct Lazy<P: StateSpace> {
    factory: HeuristicFactory<P>,
    made: Mutex<Option<SharedHeuristic<P>>>,
}

impl<P: StateSpace> Lazy<P> {
    /// The heuristic, made now if no board made it before (or the last one was forgotten),
    /// and whether this call made it.
    fn get(
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
    fn check(&self, heuristic: &SharedHeuristic<P>, cache: &TableCache) {
        if !heuristic.intact(cache) {
            let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
            if made.as_ref().is_some_and(|h| Arc::ptr_eq(h, heuristic)) {
                *made = None;
            }
        }
    }
}

/// What the closures share: the space and its proof.
struct Runner<P: Puzzle> {
    space: Arc<P>,
    proof: Option<Proof<P>>,
}

impl<P: Puzzle> Runner<P> {
    /// Parses the board, consults the invariant, runs `engine`, converts the report: the one
    /// path from board text to a [`Solution`].
    fn solve(
        space: &P,
        proof: Option<Proof<P>>,
        mode: Mode,
        board: &BoardText,
        limits: &Limits,
        engine: impl FnOnce(&P, State<P>) -> (Report<State<P>, P::Move>, Option<TableDetails>),
    ) -> Result<Solution> {
        // A scramble is applied under the solve's limits: its time counts, Ctrl-C stops it.
        let start = space.read(board, &mut Setup::new(limits))?;
        if let Some(name) = proof.and_then(|prove| prove(space, start)) {
            return Ok(Solution::proven_unsolvable(mode, space.format(start), name));
        }
        let (report, details) = engine(space, start);
        let solution = Solution::from_report(mode, start, report, |s| space.format(s));
        Ok(match details {
            Some(details) => solution.with_details(details),
            None => solution,
        })
    }

    fn engine(&self, mode: Mode, engine: Engine<P>) -> crate::instance::SolveFn {
        let (space, proof) = (self.space.clone(), self.proof);
        Box::new(move |board, limits, _| {
            Self::solve(&space, proof, mode, board, limits, |space, start| {
                (engine(space, start, limits), None)
            })
        })
    }

    fn guided(
        &self,
        mode: Mode,
        engine: Guided<P>,
        heuristic: &Arc<Lazy<P>>,
    ) -> crate::instance::SolveFn {
        let (space, proof, heuristic) = (self.space.clone(), self.proof, heuristic.clone());
        Box::new(move |board, limits, cache| {
            Self::solve(&space, proof, mode, board, limits, |space, start| {
                // The databases are built (or loaded) by the first board that needs them, and
                // that board's time counts it.
                let started = Instant::now();
                let built = heuristic.get(limits, cache);
                let build = match built {
                    Ok((_, false)) => Duration::ZERO,
                    _ => started.elapsed(),
                };
                let mut report = match built {
                    Ok((h, _)) => {
                        let report = engine(space, &*h, start, limits);
                        heuristic.check(&h, cache);
                        report
                    }
                    // A limit stopped the build, or its tables would pass the budget.
                    Err(limit) => Report::new(Outcome::LimitReached(limit), Stats::default()),
                };
                report.stats.build = build;
                report.stats.elapsed = started.elapsed();
                (report, None)
            })
        })
    }

    /// The table engine: built (or loaded from the cache on disk) by the first board that needs
    /// it, kept for the others. A loaded table that proves inconsistent with the space in a
    /// lookup is discarded (one warning, the file removed) and the board answered again from a
    /// fresh build: a file on disk never decides an answer it cannot back.
    fn table(&self, engine: TableEngine<P>) -> crate::instance::SolveFn {
        let (space, proof) = (self.space.clone(), self.proof);
        let kept: Mutex<Option<Arc<(DistanceTable, Source)>>> = Mutex::new(None);
        Box::new(move |board, limits, cache: &TableCache| {
            Self::solve(&space, proof, Mode::TABLE, board, limits, |space, start| {
                let started = Instant::now();
                // The time spent building or loading the table, for the stats.
                let mut build = Duration::ZERO;
                let limit = |limit, build| {
                    let outcome = Outcome::LimitReached(limit);
                    let elapsed = started.elapsed();
                    let stats = Stats {
                        elapsed,
                        build,
                        ..Stats::default()
                    };
                    (Report::new(outcome, stats), None)
                };
                let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                let reused = kept.is_some();
                // Discarded files: after two, the cache is left out (another process keeps
                // writing a bad one).
                let mut discarded = 0;
                let (table, (outcome, others)) = loop {
                    let table = match &*kept {
                        Some(table) => table.clone(),
                        None => {
                            let fetching = Instant::now();
                            let fetched = match discarded {
                                0 | 1 => (engine.fetch)(cache, space, limits, engine.build),
                                _ => (engine.build)(space, limits)
                                    .map(|table| (table, Source::BuiltNotSaved)),
                            };
                            build += fetching.elapsed();
                            match fetched {
                                Ok(fetched) => kept.insert(Arc::new(fetched)).clone(),
                                Err(why) => return limit(why, build),
                            }
                        }
                    };
                    match (engine.lookup)(&table.0, space, start, limits) {
                        Ok(listed) => break (table, listed),
                        Err(inconsistent) if table.1.is_loaded() => {
                            (engine.discard)(cache, space, &inconsistent.0);
                            *kept = None;
                            discarded += 1;
                        }
                        Err(inconsistent) => {
                            panic!("a distance table built in this run: {inconsistent}")
                        }
                    }
                };
                let (mut outcome, mut others) = (outcome, others);
                // The table holds every distance; a depth limit still means "no deeper answer".
                if let (Outcome::Solved(path), Some(max)) = (&outcome, limits.max_depth)
                    && path.len() as u64 > max as u64
                {
                    outcome = Outcome::LimitReached(Limit::Depth(max));
                    others.clear();
                }
                let (table, source) = &*table;
                let details = TableDetails {
                    bytes: table.bytes(),
                    bits_per_entry: table.bits_per_entry(),
                    reused: Some(reused),
                    loaded: Some(source.is_loaded()),
                };
                // The build's counts; the time is this board's, the build's (or the load's) in it.
                let stats = Stats {
                    build,
                    elapsed: started.elapsed(),
                    ..table.stats().clone()
                };
                (
                    Report {
                        outcome,
                        others,
                        stats,
                    },
                    Some(details),
                )
            })
        })
    }

    /// The explorer: backward from the goals or forward from the start, as the options say
    /// (by default backward when the space can), in this process or on a cluster.
    fn explore(
        &self,
        sweeps: Sweeps<P>,
        description: String,
        size: Option<u128>,
    ) -> crate::instance::ExploreFn {
        let space = self.space.clone();
        Box::new(move |start, options, on_layer| {
            let engine_options = layers::Options {
                limits: &options.limits,
                threads: options.threads,
            };
            let limits = &options.limits;
            let refuse = |why: String| {
                crate::error::Error::input(crate::error::Location::command("explore"), why)
            };
            // A cluster's fault (a peer gone) is an error of its own: `cluster: lost process 1 ...`.
            let clustered = |swept: Clustered<P>| {
                swept
                    .map(|swept| (swept.layers, Some(swept.report)))
                    .map_err(crate::error::Error::Cluster)
            };
            // From the goals when the space can sweep them over its index; without one, from
            // the start board if there is one, else from the goals with a hash set (twsearch's
            // `-g` on a definition file).
            let from =
                options
                    .from
                    .unwrap_or(match (&sweeps.backward, start, sweeps.backward_hashed) {
                        (Some(_), _, _) | (None, None, Some(_)) => ExploreFrom::Goals,
                        _ => ExploreFrom::Start,
                    });
            if options.symmetry {
                let refuse = |why: String| {
                    crate::error::Error::input(
                        crate::error::Location::flag("--symmetry"),
                        format!("{description}: {why}"),
                    )
                };
                let (count, each) = Self::classes(&sweeps, options, from).map_err(refuse)?;
                let (layers, classes) =
                    count(&space, each, engine_options, on_layer).map_err(|why| refuse(why.0))?;
                let strategy = sweeps.backward.as_ref().map_or("per-state", |b| b.2);
                let mut exploration = Exploration::from_layers(
                    description.clone(),
                    Direction::Backward,
                    strategy,
                    size.unwrap_or(0),
                    layers,
                    |s| space.format(s),
                );
                exploration.classes = Some(classes);
                return Ok(exploration);
            }
            let hashed = match (from, &sweeps.backward, sweeps.backward_hashed) {
                (ExploreFrom::Goals, None, Some(run)) => Some(run),
                _ => None,
            };
            let (direction, strategy, (layers, report)) = match (from, &sweeps.backward, hashed) {
                (ExploreFrom::Goals, Some((run, on_cluster, strategy)), _) => {
                    let swept = match &options.cluster {
                        None => (run(&space, engine_options, on_layer), None),
                        Some(cluster) => clustered(on_cluster(space.clone(), cluster, limits))?,
                    };
                    (Direction::Backward, *strategy, swept)
                }
                (ExploreFrom::Goals, None, Some(run)) => {
                    if options.cluster.is_some() {
                        return Err(refuse(format!(
                            "{description} has no dense index: a cluster sweeps slices of one; \
                             without --workers it sweeps here with a hash set"
                        )));
                    }
                    let swept = run(&space, engine_options, on_layer);
                    (Direction::Backward, "hash-set", (swept, None))
                }
                (ExploreFrom::Goals, None, None) => {
                    return Err(refuse(format!(
                        "from goals: {description} cannot be swept backward (that needs moves \
                         that each have an inverse, and goals it can list); from start sweeps \
                         the start board's component"
                    )));
                }
                (ExploreFrom::Start, _, _) => {
                    let (run, on_cluster, strategy) = sweeps.forward;
                    let start = start.ok_or_else(|| {
                        crate::error::Error::input(
                            crate::error::Location::command("explore").with_key("start.board"),
                            "from start: give a [start] board",
                        )
                    })?;
                    let start = space.read(start, &mut Setup::new(limits))?;
                    let swept = match (&options.cluster, on_cluster) {
                        (None, _) => (run(&space, start, engine_options, on_layer), None),
                        (Some(cluster), Some(on_cluster)) => {
                            clustered(on_cluster(space.clone(), start, cluster, limits))?
                        }
                        (Some(_), None) => {
                            return Err(refuse(format!(
                                "{description} has no dense index: a cluster sweeps slices of \
                                 one; without --workers it sweeps here with a hash set"
                            )));
                        }
                    };
                    (Direction::Forward, strategy, swept)
                }
            };
            let mut exploration = Exploration::from_layers(
                description.clone(),
                direction,
                strategy,
                size.unwrap_or(0),
                layers,
                |s| space.format(s),
            );
            exploration.cluster = report;
            if strategy == "hash-set" {
                exploration.no_index = sweeps.no_index.clone();
            }
            Ok(exploration)
        })
    }

    /// The class-counting sweep `explore --symmetry` runs, or why there is none: the space lists
    /// no symmetry (or has no dense index to sweep), a cluster or a sweep from the start was
    /// asked for. What the symmetries themselves allow is checked when it runs
    /// ([`classes::backward`]).
    fn classes(
        sweeps: &Sweeps<P>,
        options: &crate::instance::ExploreOptions,
        from: ExploreFrom,
    ) -> std::result::Result<(ClassSweep<P>, EachSweep<P>), String> {
        let Some(classes) = sweeps.classes else {
            return Err(match (&sweeps.no_symmetry, &sweeps.backward) {
                (Some(why), _) => format!("no symmetry to count classes under: {why}"),
                (None, None) => "classes are counted over a dense index, which it has none of \
                                 (its sweep keeps a hash set)"
                    .into(),
                (None, Some(_)) => {
                    "no symmetry to count classes under: none is known that maps its moves and \
                     goals onto themselves"
                        .into()
                }
            });
        };
        if options.cluster.is_some() {
            return Err(
                "classes are counted in one process: run it without --workers and \
                        --processes"
                    .into(),
            );
        }
        if from == ExploreFrom::Start {
            return Err(
                "classes are counted from the goals (--from goals): distances from a \
                        start board are kept only by the symmetries that fix it"
                    .into(),
            );
        }
        Ok(classes)
    }

    fn export(&self, undirected: bool) -> crate::instance::ExportFn {
        let space = self.space.clone();
        Box::new(move |board, limits: &ExportLimits, on_layer| {
            // An export has a memory budget and no clock: a scramble is applied within it.
            let setup = Limits {
                memory_budget: limits.memory_budget,
                ..Limits::default()
            };
            let start = space.read(board, &mut Setup::new(&setup))?;
            graph::build(
                &*space,
                start,
                undirected,
                limits,
                |s| space.format(s),
                on_layer,
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::ExploreOptions;
    use crate::toys::{Lights, LightsGoal};

    fn lights() -> Lights {
        Lights::new(3, 4, false, LightsGoal::Uniform)
    }

    /// The explore strategy and the table engine's stats of an instance.
    fn chosen(instance: &Instance) -> (&'static str, Stats) {
        let explored = instance
            .explore(None, &ExploreOptions::default(), &mut |_, _| {})
            .unwrap();
        let board = BoardText::from_file("t", "bwwb\nwbbw\nbwwb".into());
        let solved = instance
            .solve(&board, Mode::TABLE, &Limits::default())
            .unwrap();
        let stats = Stats {
            elapsed: Duration::ZERO,
            build: Duration::ZERO,
            ..solved.stats
        };
        (explored.strategy, stats)
    }

    #[test]
    fn the_order_of_the_capabilities_does_not_change_the_engines() {
        let xor_first = Kit::new(lights(), "t").xor().table().build(Mode::AUTO);
        let table_first = Kit::new(lights(), "t").table().xor().build(Mode::AUTO);
        let plain = Kit::new(lights(), "t").table().build(Mode::AUTO);
        let (strategy, stats) = chosen(&xor_first);
        assert_eq!(strategy, "word-at-a-time");
        assert_eq!(chosen(&table_first), (strategy, stats.clone()));
        // The plain build scans levels: other counts, the same answer.
        let (plain_strategy, plain_stats) = chosen(&plain);
        assert_eq!(plain_strategy, "per-state");
        assert_ne!(plain_stats.generated, stats.generated);
    }

    #[test]
    fn an_indexed_space_alone_sweeps_forward() {
        let instance = Kit::new(lights(), "t").indexed().build(Mode::AUTO);
        let board = BoardText::from_file("t", "bwwb\nwbbw\nbwwb".into());
        let options = ExploreOptions::default();
        let explored = instance.explore(Some(&board), &options, &mut |_, _| {});
        assert_eq!(explored.unwrap().direction, Direction::Forward);
        assert!(!instance.modes().contains(&Mode::TABLE));
    }

    #[test]
    fn explore_goes_where_it_is_told_and_refuses_what_it_cannot() {
        let board = BoardText::from_file("t", "bwwb\nwbbw\nbwwb".into());
        let from = |from| ExploreOptions {
            from,
            ..ExploreOptions::default()
        };
        let table = Kit::new(lights(), "t").table().build(Mode::AUTO);
        let goals = table.explore(Some(&board), &from(None), &mut |_, _| {});
        assert_eq!(goals.unwrap().direction, Direction::Backward);
        let start = table.explore(
            Some(&board),
            &from(Some(ExploreFrom::Start)),
            &mut |_, _| {},
        );
        let start = start.unwrap();
        assert_eq!(
            (start.direction, start.strategy),
            (Direction::Forward, "per-state")
        );
        let words = Kit::new(lights(), "t").xor().table().build(Mode::AUTO);
        let by_words = words.explore(
            Some(&board),
            &from(Some(ExploreFrom::Start)),
            &mut |_, _| {},
        );
        let by_words = by_words.unwrap();
        assert_eq!(by_words.strategy, "word-at-a-time");
        assert_eq!(by_words.histogram, start.histogram);
        // No goal set: backward is refused, in one line; no index: forward keeps a hash set.
        let plain = Kit::new(lights(), "Lights").build(Mode::AUTO);
        let refused = plain.explore(
            Some(&board),
            &from(Some(ExploreFrom::Goals)),
            &mut |_, _| {},
        );
        let refused = refused.unwrap_err().to_string();
        assert!(refused.starts_with("explore: from goals: Lights cannot be swept backward"));
        assert!(!refused.contains('\n'));
        let hashed = plain
            .explore(Some(&board), &from(None), &mut |_, _| {})
            .unwrap();
        assert_eq!(
            (hashed.direction, hashed.strategy),
            (Direction::Forward, "hash-set")
        );
        assert_eq!(hashed.histogram, start.histogram);
        assert_eq!(hashed.space_size, 0);
        let no_start = plain.explore(None, &from(None), &mut |_, _| {});
        assert!(
            no_start
                .unwrap_err()
                .to_string()
                .contains("give a [start] board")
        );
    }
}
