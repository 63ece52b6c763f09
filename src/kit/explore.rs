//! The kit's sweeps of `explore` (whole spaces, layer by layer) and its exporter: chosen from
//! the capabilities, the fastest a space allows (XOR words, split blocks, state by state over
//! the index, a hash set), in this process or on a cluster.

use super::Puzzle;
use crate::config::ExploreFrom;
use crate::graph::{self, ExportLimits};
use crate::instance::{Direction, Exploration, ExploreFn, ExportFn};
use crate::limit::Limits;
use crate::search::caps::TableBuild;
use crate::search::cluster::{self, Cluster, Swept};
use crate::search::layers::classes::{self, Classes, NoClasses};
use crate::search::layers::{self, Layers};
use crate::search::table;
use crate::setup::Setup;
use crate::space::{GoalSet, Indexed, Invertible, SplitMoves, StateSpace, XorMoves};
use std::sync::Arc;

type State<P> = <P as StateSpace>::State;
type Progress<'a> = &'a mut dyn FnMut(u32, u64);
type ForwardSweep<P> = fn(&P, State<P>, layers::Options, Progress) -> Layers<State<P>>;
type BackwardSweep<P> = fn(&P, layers::Options, Progress) -> Layers<State<P>>;
/// How many goals a backward sweep starts from, with how many moves from the first.
type FanOut<P> = fn(&P) -> Fan;
type Clustered<P> = std::result::Result<Swept<State<P>>, cluster::Fault>;
type ClusterForward<P> = fn(Arc<P>, State<P>, &Cluster, &Limits) -> Clustered<P>;
type ClusterBackward<P> = fn(Arc<P>, &Cluster, &Limits) -> Clustered<P>;
/// A backward sweep that lends each layer's bitset to a callback (what the classes count runs).
type EachSweep<P> = classes::EachSweep<P>;
/// A backward sweep that counts the symmetry classes of each layer, run by the sweep given.
pub(super) type ClassSweep<P> = fn(
    &P,
    EachSweep<P>,
    layers::Options,
    Progress,
) -> std::result::Result<(Layers<State<P>>, Classes), NoClasses>;

/// The class-counting sweep and the sweep it runs.
type ClassCount<P> = (ClassSweep<P>, EachSweep<P>);

/// A faster way to build the same table and sweep backward (and, for XOR moves, forward),
/// which one capability gives (XOR moves: a word of states per move; split moves: a block per
/// move table look-up).
pub(super) struct Faster<P: StateSpace> {
    /// The table build.
    pub(super) build: TableBuild<P>,
    sweep: BackwardSweep<P>,
    /// The same sweep, lending its layers.
    each: EachSweep<P>,
    forward: Option<ForwardSweep<P>>,
    cluster: ClusterBackward<P>,
    strategy: &'static str,
}

impl<P: StateSpace> Clone for Faster<P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P: StateSpace> Copy for Faster<P> {}

impl<P: Puzzle> Faster<P> {
    /// Moves that XOR the index: a word of states per move.
    pub(super) fn xor() -> Faster<P>
    where
        P: XorMoves + GoalSet,
    {
        Faster {
            build: table::build_xor::<P>,
            sweep: layers::xor_backward::<P>,
            each: layers::xor_backward_each::<P>,
            forward: Some(layers::xor_forward::<P>),
            cluster: cluster::xor_backward::<P>,
            strategy: "word-at-a-time",
        }
    }

    /// An index that splits into parts the moves change separately: a block per look-up.
    pub(super) fn split() -> Faster<P>
    where
        P: SplitMoves + Invertible + GoalSet,
    {
        Faster {
            build: table::build_split::<P>,
            sweep: layers::split_backward::<P>,
            each: layers::split_backward_each::<P>,
            forward: None,
            cluster: cluster::backward::<P>,
            strategy: "block-at-a-time",
        }
    }
}

/// The sweeps the capabilities declared so far, then (at the build) the ones `explore` runs:
/// forward from the start board (every space: a bitset over the dense index, else a hash set,
/// which no cluster runs), and backward from the goal set (when the space has one).
pub(super) struct Sweeps<P: StateSpace> {
    forward: (ForwardSweep<P>, Option<ClusterForward<P>>, &'static str),
    backward: Option<(BackwardSweep<P>, ClusterBackward<P>, &'static str)>,
    /// The per-state backward sweep lending its layers, with a table.
    each: Option<EachSweep<P>>,
    /// Backward with a hash set, for a space with goals but no dense index, or a depth limit
    /// that reaches less than its bitsets would hold (no cluster); and how many goals it starts
    /// from with how many moves from the first.
    backward_hashed: Option<(BackwardSweep<P>, FanOut<P>)>,
    /// Why there is no dense index, when the plugin said ([`Kit::no_index`](super::Kit::no_index)).
    pub(super) no_index: Option<String>,
    /// The backward sweep with its classes counted (`explore --symmetry`), and the sweep it runs.
    classes: Option<ClassCount<P>>,
    /// Why the space has no symmetry, when the plugin said
    /// ([`Kit::no_symmetry`](super::Kit::no_symmetry)).
    pub(super) no_symmetry: Option<String>,
}

impl<P: Puzzle> Sweeps<P> {
    /// What every space has: forward with a hash set.
    pub(super) fn new() -> Sweeps<P> {
        Sweeps {
            forward: (layers::forward_hashed::<P>, None, "hash-set"),
            backward: None,
            each: None,
            backward_hashed: None,
            no_index: None,
            classes: None,
            no_symmetry: None,
        }
    }

    /// A dense index: forward over it, state by state, here or on a cluster.
    pub(super) fn indexed(&mut self)
    where
        P: Indexed,
    {
        self.forward = (
            layers::forward::<P>,
            Some(cluster::forward::<P>),
            "per-state",
        );
    }

    /// Invertible moves and listed goals: backward from them with a hash set, where there is
    /// no dense index.
    pub(super) fn goals(&mut self)
    where
        P: Invertible + GoalSet,
    {
        self.backward_hashed = Some((layers::backward_hashed::<P>, |space| {
            let mut fan = Fan::default();
            space.goals(&mut |goal| {
                if fan.sources == 0 {
                    space.successors(goal, &mut |_, _| fan.moves += 1);
                }
                fan.sources += 1;
            });
            fan
        }));
    }

    /// A table: backward from the goals over the index, state by state.
    pub(super) fn table(&mut self)
    where
        P: Indexed + Invertible + GoalSet,
    {
        self.backward = Some((layers::backward::<P>, cluster::backward::<P>, "per-state"));
        self.each = Some(layers::backward_each::<P>);
    }

    /// The faster sweeps a capability gives, in place of the plain ones (whatever the order
    /// the capabilities were declared in), and the classes counted on the backward sweep that
    /// `explore` runs, when the space has symmetries.
    pub(super) fn faster(&mut self, faster: Option<&Faster<P>>, count: Option<ClassSweep<P>>) {
        if let Some(f) = faster {
            self.backward = Some((f.sweep, f.cluster, f.strategy));
            self.each = Some(f.each);
            if let (Some(words), Some(cluster)) = (f.forward, self.forward.1) {
                self.forward = (words, Some(cluster), "word-at-a-time");
            }
        }
        self.classes = count.zip(self.each);
    }
}

/// The explorer: backward from the goals or forward from the start, as the options say
/// (by default backward when the space can), in this process or on a cluster.
pub(super) fn explorer<P: Puzzle>(
    space: &Arc<P>,
    sweeps: Sweeps<P>,
    description: String,
    size: Option<u128>,
) -> ExploreFn {
    let space = space.clone();
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
            let (count, each) = classes_of(&sweeps, options, from).map_err(refuse)?;
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
        // Bitsets over the dense index, or a hash set where the depth limit reaches less
        // (a cluster sweeps slices of the index: always bitsets).
        let state_bytes = std::mem::size_of::<State<P>>() as u128;
        let depth = limits.max_depth.filter(|_| options.cluster.is_none());
        let bitsets = match (&sweeps.backward, sweeps.backward_hashed) {
            (Some(_), Some((_, fan))) if keeps_hash_set(size, depth, fan(&space), state_bytes) => {
                None
            }
            (backward, _) => backward.as_ref(),
        };
        let hashed = sweeps.backward_hashed.map(|(run, _)| run);
        let (direction, strategy, (layers, report)) = match (from, bitsets, hashed) {
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
                let start = start.ok_or_else(|| {
                    crate::error::Error::input(
                        crate::error::Location::command("explore").with_key("start.board"),
                        "from start: give a [start] board",
                    )
                })?;
                let start = space.read(start, &mut Setup::new(limits))?;
                let mut fan = Fan {
                    sources: 1,
                    moves: 0,
                };
                space.successors(start, &mut |_, _| fan.moves += 1);
                let (run, on_cluster, strategy) = if keeps_hash_set(size, depth, fan, state_bytes) {
                    (
                        layers::forward_hashed::<P> as ForwardSweep<P>,
                        None,
                        "hash-set",
                    )
                } else {
                    sweeps.forward
                };
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
        if strategy == "hash-set" && size.is_none() {
            exploration.no_index = sweeps.no_index.clone();
        }
        Ok(exploration)
    })
}

/// How many states a sweep starts from, and how many moves the first of them has: what
/// [`keeps_hash_set`] bounds a depth-limited sweep's reach by.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Fan {
    sources: u128,
    moves: u128,
}

/// Whether a sweep keeps a hash set of the states it finds rather than three bitsets over the
/// dense index of `size` states (`None`: no index, so a hash set): the one place `explore`
/// chooses its visited set.
///
/// Without a depth limit the sweep finds what it finds: the bitsets, which cost a fixed
/// `3 * size / 8` bytes (and are faster than a set once a fair share of the space is reached).
/// With one, at most `sources * moves^d` states lie at depth `d`: the layers before the last are
/// kept in a set and a list (about four widths of a state each, with the set's growth), the last
/// is counted from 16 bytes per successor (`search/layers/last_layer.rs`). A hash set is kept when
/// that bound is below the bitsets: `explore --max-depth 3` on the megaminx (a dense index of
/// 1.3 PiB of bitsets) finds 45 thousand states in a few MiB, and on a 2x2x2 (33 MiB of bitsets)
/// 3,000 states without scanning the index three times.
fn keeps_hash_set(size: Option<u128>, max_depth: Option<u32>, fan: Fan, state_bytes: u128) -> bool {
    let (Some(size), Some(depth)) = (size, max_depth) else {
        return size.is_none();
    };
    let (mut layer, mut kept) = (fan.sources, 0u128);
    for _ in 0..depth {
        kept = kept.saturating_add(layer);
        layer = layer.saturating_mul(fan.moves.max(1));
    }
    let hashed = kept
        .saturating_mul(4 * (state_bytes + 8))
        .saturating_add(layer.saturating_mul(16));
    hashed < 3 * size.div_ceil(8)
}

/// The class-counting sweep `explore --symmetry` runs, or why there is none: the space lists
/// no symmetry (or has no dense index to sweep), a cluster or a sweep from the start was
/// asked for. What the symmetries themselves allow is checked when it runs
/// ([`classes::backward`]).
fn classes_of<P: StateSpace>(
    sweeps: &Sweeps<P>,
    options: &crate::instance::ExploreOptions,
    from: ExploreFrom,
) -> std::result::Result<ClassCount<P>, String> {
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

/// The exporter: the state graph around a start, directed unless moves are invertible.
pub(super) fn exporter<P: Puzzle>(space: &Arc<P>, undirected: bool) -> ExportFn {
    let space = space.clone();
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
