//! The generic glue: a plugin's space and the capabilities it declares become an [`Instance`].
//!
//! A plugin writes a [`StateSpace`] with its [`BoardFormat`] and whichever capabilities are true
//! of it, then hands it to a [`Kit`] and says which capabilities to use, one call each:
//!
//! ```text
//! Kit::new(space, "Sliding tiles 3 x 3, goal ordered")
//!     .indexed()      // Indexed: bitset BFS, forward explore
//!     .table()        // Indexed + Invertible + GoalSet + Describe: distance table (cached), backward explore
//!     .invariant()    // Invariant: unsolvable boards proven before any engine runs
//!     .build(Mode::Auto)
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
//! - `auto`: the table when the space is small enough to build it in a blink, else BFS.
//!
//! Why function pointers rather than trait objects: the capability traits have associated types
//! and generic methods (not object-safe), and the engines are generic so that the successor loop
//! is monomorphised; a pointer to `bfs::solve_indexed::<Tiles>` keeps all of that.

use crate::cache::{Recipe, Source, TableCache};
use crate::config::{BoardText, Mode};
use crate::error::Result;
use crate::graph::{self, ExportLimits};
use crate::instance::{Direction, Exploration, Instance, Solution};
use crate::search::cluster::{self, Cluster, Swept};
use crate::search::layers::{self, Layers};
use crate::search::table::{self, DistanceTable, Inconsistent};
use crate::search::{Limit, Limits, Outcome, Report, Stats, astar, bfs, idastar, iddfs};
use crate::space::{
    BoardFormat, Describe, GoalSet, Heuristic, Indexed, Invariant, Invertible, SplitMoves,
    StateSpace, XorMoves,
};
use serde_json::Value;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// `auto` builds the distance table when the space has at most this many states (a few
/// milliseconds; 2^20 states take 512 KiB at 4 bits); beyond, it runs BFS from the start, which
/// looks at what one board needs rather than the whole space.
pub const AUTO_TABLE_MAX_STATES: u128 = 1 << 20;

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
type TableLookup<P> =
    fn(
        &DistanceTable,
        &P,
        State<P>,
    ) -> std::result::Result<Outcome<State<P>, <P as StateSpace>::Move>, Inconsistent>;
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

/// A whole-space sweep, with the way it runs: in this process, or on a cluster.
enum Sweep<P: StateSpace> {
    /// From the start board (any indexed space).
    Forward(ForwardSweep<P>, ClusterForward<P>),
    /// From the goal set; `&'static str` names the strategy.
    Backward(BackwardSweep<P>, ClusterBackward<P>, &'static str),
}

/// The distance table engine of a space: how it is built, looked up, and kept in the cache.
struct TableEngine<P: StateSpace> {
    build: TableBuild<P>,
    lookup: TableLookup<P>,
    fetch: TableFetch<P>,
    discard: TableDiscard<P>,
}

/// The capabilities a plugin declared for its space, as the engines they allow. See the module
/// docs.
pub struct Kit<P: Puzzle> {
    space: Arc<P>,
    description: String,
    bfs: Engine<P>,
    astar: Guided<P>,
    heuristic: Option<HeuristicFactory<P>>,
    /// The space's size, when it is indexed.
    size: Option<u128>,
    table: Option<TableEngine<P>>,
    sweep: Option<Sweep<P>>,
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
            bfs: bfs::solve::<P>,
            astar: astar::solve::<P, dyn Heuristic<P>>,
            heuristic: None,
            size: None,
            table: None,
            sweep: None,
            undirected: false,
            proof: None,
        }
    }

    /// The space, for a plugin's own engines.
    pub fn space(&self) -> &Arc<P> {
        &self.space
    }

    /// A dense index: BFS keeps a bitset, and `explore` sweeps forward from the start board.
    pub fn indexed(mut self) -> Self
    where
        P: Indexed,
    {
        self.bfs = bfs::solve_indexed::<P>;
        self.astar = astar::solve_indexed::<P, dyn Heuristic<P>>;
        self.size = Some(self.space.size());
        if self.sweep.is_none() {
            self.sweep = Some(Sweep::Forward(layers::forward::<P>, cluster::forward::<P>));
        }
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

    /// A dense index, invertible moves, an enumerable goal set and a description: the distance
    /// `table` engine (its table cached on disk under the space's content fingerprint), and
    /// `explore` backward from the goals, one state at a time.
    pub fn table(self) -> Self
    where
        P: Indexed + Invertible + GoalSet + Describe,
    {
        let mut kit = self.indexed().invertible();
        kit.table = Some(TableEngine {
            build: table::build::<P>,
            lookup: DistanceTable::outcome::<P>,
            fetch: |cache, space, limits, build| {
                cache.load_or_build(space, &Recipe::distance_table(), limits, || {
                    build(space, limits)
                })
            },
            discard: |cache, space, why| cache.discard(space, &Recipe::distance_table(), why),
        });
        kit.sweep = Some(Sweep::Backward(
            layers::backward::<P>,
            cluster::backward::<P>,
            "per-state",
        ));
        kit
    }

    /// Moves that XOR the index: `explore` moves a 64-bit word of states per move, and so does
    /// the `table` build ([`table::build_xor`]) when [`table`](Self::table) was called before.
    pub fn xor(mut self) -> Self
    where
        P: XorMoves + GoalSet,
    {
        self.sweep = Some(Sweep::Backward(
            layers::xor_backward::<P>,
            cluster::xor_backward::<P>,
            "word-at-a-time",
        ));
        if let Some(table) = &mut self.table {
            table.build = table::build_xor::<P>;
        }
        self
    }

    /// An index that splits into parts the moves change separately: `explore` moves a block of
    /// states at a time from two move tables ([`layers::split_backward`]; state by state when
    /// the space's index does not split after all), and so does the `table` build
    /// ([`table::build_split`]). Call after [`table`](Self::table).
    pub fn split(mut self) -> Self
    where
        P: SplitMoves + Invertible + GoalSet,
    {
        self.sweep = Some(Sweep::Backward(
            layers::split_backward::<P>,
            cluster::backward::<P>,
            "block-at-a-time",
        ));
        if let Some(table) = &mut self.table {
            table.build = table::build_split::<P>;
        }
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
    pub fn build(self, default_mode: Mode) -> Instance {
        let Kit {
            space,
            description,
            bfs,
            astar,
            heuristic,
            size,
            table,
            sweep,
            undirected,
            proof,
        } = self;
        let runner = Runner { space, proof };
        let mut instance = Instance::new(description.clone())
            .with_default_mode(default_mode)
            .with_engine(Mode::Bfs, runner.engine(Mode::Bfs, bfs))
            .with_engine(Mode::Iddfs, runner.engine(Mode::Iddfs, iddfs::solve::<P>));
        if let Some(factory) = heuristic {
            let heuristic = Arc::new(Lazy {
                factory,
                made: OnceLock::new(),
            });
            let idastar = idastar::solve::<P, dyn Heuristic<P>>;
            instance = instance
                .with_engine(Mode::Astar, runner.guided(Mode::Astar, astar, &heuristic))
                .with_engine(
                    Mode::Idastar,
                    runner.guided(Mode::Idastar, idastar, &heuristic),
                )
                .with_auto(Mode::Idastar);
        }
        let small = size.is_some_and(|n| n <= AUTO_TABLE_MAX_STATES);
        if let Some(table) = table {
            instance = instance.with_engine(Mode::Table, runner.table(table));
            if small {
                instance = instance.with_auto(Mode::Table);
            }
        }
        if let Some(sweep) = sweep {
            instance = instance.with_explore(runner.explore(sweep, description, size));
        }
        instance.with_export(runner.export(undirected))
    }
}

/// A heuristic made on first use and kept.
struct Lazy<P: StateSpace> {
    factory: HeuristicFactory<P>,
    made: OnceLock<SharedHeuristic<P>>,
}

impl<P: StateSpace> Lazy<P> {
    /// The heuristic, made now if no board made it before.
    fn get(&self, limits: &Limits, cache: &TableCache) -> Result<&SharedHeuristic<P>, Limit> {
        if let Some(made) = self.made.get() {
            return Ok(made);
        }
        let made = (self.factory)(limits, cache)?;
        Ok(self.made.get_or_init(|| made))
    }

    /// Whether it was made.
    fn made(&self) -> bool {
        self.made.get().is_some()
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
        engine: impl FnOnce(&P, State<P>) -> (Report<State<P>, P::Move>, serde_json::Map<String, Value>),
    ) -> Result<Solution> {
        let start = space.read(board)?;
        if let Some(name) = proof.and_then(|prove| prove(space, start)) {
            return Ok(Solution::proven_unsolvable(mode, space.format(start), name));
        }
        let (report, extra) = engine(space, start);
        let mut solution = Solution::from_report(mode, start, report, |s| space.format(s));
        solution.extra = extra;
        Ok(solution)
    }

    fn engine(&self, mode: Mode, engine: Engine<P>) -> crate::instance::SolveFn {
        let (space, proof) = (self.space.clone(), self.proof);
        Box::new(move |board, limits, _| {
            Self::solve(&space, proof, mode, board, |space, start| {
                (engine(space, start, limits), Default::default())
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
            Self::solve(&space, proof, mode, board, |space, start| {
                // The databases are built (or loaded) by the first board that needs them, and
                // that board's time counts it.
                let started = Instant::now();
                let made = heuristic.made();
                let built = heuristic.get(limits, cache);
                let build = if made {
                    Duration::ZERO
                } else {
                    started.elapsed()
                };
                let mut report = match built {
                    Ok(h) => engine(space, &**h, start, limits),
                    // A limit stopped the build, or its tables would pass the budget.
                    Err(limit) => Report {
                        outcome: Outcome::LimitReached(limit),
                        stats: Default::default(),
                    },
                };
                report.stats.build = build;
                report.stats.elapsed = started.elapsed();
                (report, Default::default())
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
            Self::solve(&space, proof, Mode::Table, board, |space, start| {
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
                    (Report { outcome, stats }, Default::default())
                };
                let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                let reused = kept.is_some();
                // Discarded files: after two, the cache is left out (another process keeps
                // writing a bad one).
                let mut discarded = 0;
                let (table, outcome) = loop {
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
                    match (engine.lookup)(&table.0, space, start) {
                        Ok(outcome) => break (table, outcome),
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
                let mut outcome = outcome;
                // The table holds every distance; a depth limit still means "no deeper answer".
                if let (Outcome::Solved(path), Some(max)) = (&outcome, limits.max_depth)
                    && path.len() as u64 > max as u64
                {
                    outcome = Outcome::LimitReached(Limit::Depth(max));
                }
                let (table, source) = &*table;
                let mut extra = serde_json::Map::new();
                extra.insert("table_bytes".into(), table.bytes().into());
                extra.insert("table_bits_per_entry".into(), table.bits_per_entry().into());
                extra.insert("table_reused".into(), reused.into());
                extra.insert("table_loaded".into(), source.is_loaded().into());
                // The build's counts; the time is this board's, the build's (or the load's) in it.
                let stats = Stats {
                    build,
                    elapsed: started.elapsed(),
                    ..table.stats().clone()
                };
                (Report { outcome, stats }, extra)
            })
        })
    }

    fn explore(
        &self,
        sweep: Sweep<P>,
        description: String,
        size: Option<u128>,
    ) -> crate::instance::ExploreFn {
        let space = self.space.clone();
        let size = size.unwrap_or(0);
        Box::new(move |start, options, on_layer| {
            let engine_options = layers::Options {
                limits: &options.limits,
                threads: options.threads,
            };
            let limits = &options.limits;
            // A cluster's fault (a peer gone) is one line, like a file that cannot be read.
            let clustered = |swept: Clustered<P>| {
                swept
                    .map(|swept| (swept.layers, Some(swept.report)))
                    .map_err(|fault| crate::error::Error::Io {
                        path: "cluster".into(),
                        source: std::io::Error::other(fault.0),
                    })
            };
            let (direction, strategy, (layers, report)) = match &sweep {
                Sweep::Backward(run, on_cluster, strategy) => {
                    let swept = match &options.cluster {
                        None => (run(&space, engine_options, on_layer), None),
                        Some(cluster) => clustered(on_cluster(space.clone(), cluster, limits))?,
                    };
                    (Direction::Backward, *strategy, swept)
                }
                Sweep::Forward(run, on_cluster) => {
                    let start = start.ok_or_else(|| {
                        crate::error::Error::input(
                            crate::error::Location::file("explore").with_key("start.board"),
                            "this puzzle is explored forward from a start: give a [start] board",
                        )
                    })?;
                    let start = space.read(start)?;
                    let swept = match &options.cluster {
                        None => (run(&space, start, engine_options, on_layer), None),
                        Some(cluster) => {
                            clustered(on_cluster(space.clone(), start, cluster, limits))?
                        }
                    };
                    (Direction::Forward, "per-state", swept)
                }
            };
            let mut exploration = Exploration::from_layers(
                description.clone(),
                direction,
                strategy,
                size,
                layers,
                |s| space.format(s),
            );
            exploration.cluster = report;
            Ok(exploration)
        })
    }

    fn export(&self, undirected: bool) -> crate::instance::ExportFn {
        let space = self.space.clone();
        Box::new(move |board, limits: &ExportLimits, on_layer| {
            let start = space.read(board)?;
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
