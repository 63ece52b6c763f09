//! State-graph export: the states around a start, as a petgraph graph, rendered for viewers.
//!
//! # Overview
//!
//! - [`build`] runs a breadth-first search from a start state, within an [`ExportLimits`] (a depth
//!   and a state count), and returns a [`StateGraph`]: the subgraph induced by the states it
//!   reached, every node labelled with its board text, its depth from the start and, when the
//!   whole reachable component was exported, its exact distance to the goal set.
//! - The renderers turn a [`StateGraph`] into text: [`to_dot`] (Graphviz, through petgraph's
//!   `dot` module), [`to_graphml`] (GraphML for Gephi, yEd, Cytoscape, networkx), [`to_json`]
//!   (the node-link form d3 and networkx read) and [`to_html`] (a self-contained page that
//!   draws the graph, its boards as pictures, in any browser).
//!
//! [`StateGraph`] is type-erased (text boards, text move labels) so that the object-safe
//! [`Instance`](crate::instance::Instance) can hand it to the CLI, which never sees a plugin's
//! state type.
//!
//! # Choices and trade-offs
//!
//! - **Directed or undirected.** When every move has an inverse, `s -> t` and `t -> s` are the
//!   same connection, and drawing both doubles the clutter; [`build`] then makes an undirected
//!   graph with one edge per pair (per move pair, strictly: two distinct moves that join the same
//!   states are two edges). The label is the move as played from the endpoint that comes first
//!   in BFS order. Otherwise the graph is directed and keeps every move.
//! - **Induced subgraph.** Nodes are found in a first pass (BFS within the limits); edges in a
//!   second pass that generates the successors of every node again and keeps those whose target
//!   is a node. So edges between two states at the depth limit are there too, and the second pass
//!   tells, exactly, whether the node set is closed under moves: `complete` is true when it is,
//!   i.e. the graph is the whole component reachable from the start. The second pass costs one
//!   more successor generation per node; export sizes (at most [`MAX_STATES_CAP`]) keep that small.
//! - **Distance to the goal.** Exact only when the graph is complete: then every path from a
//!   node stays inside the graph, and one multi-source BFS backward from the goal nodes gives
//!   every distance. In a cut graph a shorter way to the goal may leave the graph, so the
//!   distance is unknown and left out (`None`, `null` in JSON); in a complete graph `None` means
//!   no goal is reachable.
//! - **Determinism.** Node ids are BFS discovery order and successors come in the plugin's
//!   deterministic order, so the same input gives the same graph and the same bytes.
//! - **Memory.** [`build`] estimates what a graph of `max_states` nodes would take (the graph,
//!   the state index, and the rendered text) and refuses up front when that passes the budget.

mod dot;
mod graphml;
mod html;
mod json;

pub use dot::to_dot;
pub use graphml::to_graphml;
pub use html::{HTML_DEFAULT_MAX_STATES, HTML_MAX_STATES, d3_for_page, to_html};
pub use json::to_json;

use crate::error::{Error, Location, Result};
use crate::space::StateSpace;
use hashbrown::HashMap;
use petgraph::graph::{DiGraph, Graph, NodeIndex, UnGraph};
use petgraph::{Direction, EdgeType};
use std::collections::VecDeque;
use std::fmt;

/// The state count an export stops at unless told otherwise: about what Graphviz still lays out
/// in seconds and a browser still draws.
pub const DEFAULT_MAX_STATES: u64 = 10_000;

/// The most states an export may hold: past a million nodes no viewer copes, and the text runs
/// to hundreds of megabytes.
pub const MAX_STATES_CAP: u64 = 1_000_000;

/// How far an export may go.
#[derive(Clone, Debug)]
pub struct ExportLimits {
    /// The largest depth (moves from the start) a node may have; `None`: no depth limit.
    pub max_depth: Option<u32>,
    /// The most nodes, in `1..=MAX_STATES_CAP`.
    pub max_states: u64,
    /// Bytes the graph and its rendered text may take; checked before building.
    pub memory_budget: u64,
}

impl Default for ExportLimits {
    fn default() -> Self {
        ExportLimits {
            max_depth: None,
            max_states: DEFAULT_MAX_STATES,
            memory_budget: crate::limit::default_memory_budget(),
        }
    }
}

/// A node: one state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateNode {
    /// The state as the plugin writes a board (may span lines).
    pub board: String,
    /// The fewest moves from the start.
    pub depth: u32,
    /// The fewest moves to a goal, when known (see the module docs).
    pub goal_distance: Option<u32>,
    /// Whether the state is a goal.
    pub is_goal: bool,
    /// Whether the state is the start.
    pub is_start: bool,
}

/// An edge: one move, by its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEdge {
    /// The move label, as played from the endpoint found first.
    pub label: String,
}

/// The petgraph graph behind a [`StateGraph`]: undirected when moves are invertible.
#[derive(Clone, Debug)]
pub enum Topology {
    /// One edge per move (moves not known to be invertible).
    Directed(DiGraph<StateNode, MoveEdge>),
    /// One edge per pair of states joined by a move and its inverse.
    Undirected(UnGraph<StateNode, MoveEdge>),
}

/// Why an export stopped short of the whole reachable component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The state limit was reached while states were still being found.
    States(u64),
    /// States past this depth were left out.
    Depth(u32),
}

impl fmt::Display for Cut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cut::States(n) => write!(f, "state limit {n} reached"),
            Cut::Depth(d) => write!(f, "depth limit {d} reached"),
        }
    }
}

/// The states around a start and the moves between them. Node 0 is the start; nodes are in BFS
/// order.
#[derive(Clone, Debug)]
pub struct StateGraph {
    /// The graph.
    pub topology: Topology,
    /// `None` when the graph is the whole component reachable from the start.
    pub cut: Option<Cut>,
}

impl StateGraph {
    /// Whether the graph is the whole component reachable from the start (goal distances exact).
    pub fn complete(&self) -> bool {
        self.cut.is_none()
    }

    /// Whether edges are directed (moves not invertible).
    pub fn is_directed(&self) -> bool {
        matches!(self.topology, Topology::Directed(_))
    }

    /// The number of states.
    pub fn node_count(&self) -> usize {
        match &self.topology {
            Topology::Directed(g) => g.node_count(),
            Topology::Undirected(g) => g.node_count(),
        }
    }

    /// The number of edges.
    pub fn edge_count(&self) -> usize {
        match &self.topology {
            Topology::Directed(g) => g.edge_count(),
            Topology::Undirected(g) => g.edge_count(),
        }
    }

    /// The nodes, by id (`0..node_count()`).
    pub fn nodes(&self) -> &[petgraph::graph::Node<StateNode>] {
        match &self.topology {
            Topology::Directed(g) => g.raw_nodes(),
            Topology::Undirected(g) => g.raw_nodes(),
        }
    }

    /// The edges as `(source id, target id, move)`, in the order they were added.
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize, &MoveEdge)> {
        let raw = match &self.topology {
            Topology::Directed(g) => g.raw_edges(),
            Topology::Undirected(g) => g.raw_edges(),
        };
        raw.iter()
            .map(|e| (e.source().index(), e.target().index(), &e.weight))
    }
}

/// How often (in states found) `on_layer` is also called within a layer: large layers take
/// seconds, and a progress line should move meanwhile.
const PROGRESS_EVERY: usize = 1 << 16;

/// Bytes a hash-map entry costs beyond its key and value (control byte and load-factor slack).
const HASH_OVERHEAD: usize = 8;
/// Bytes the rendered text takes per node and per edge beyond the board and label themselves
/// (ids, attribute names, markup); GraphML is the wordiest of the three formats.
const TEXT_PER_NODE: usize = 260;
const TEXT_PER_EDGE: usize = 90;

/// An upper estimate of the bytes a graph of `states` nodes takes while it is built and rendered,
/// when a node has `edges_per_node` edges (its moves; half of them when undirected, each edge
/// having two ends), boards `board_len` bytes and labels `label_len` bytes.
pub fn estimate_bytes<P: StateSpace>(
    states: u64,
    edges_per_node: f64,
    board_len: usize,
    label_len: usize,
) -> u128 {
    use std::mem::size_of;
    // petgraph keeps two link indices beside every node and edge weight; the edge also its ends.
    let node = size_of::<StateNode>() + 8 + board_len;
    let index = size_of::<P::State>() + size_of::<NodeIndex>() + HASH_OVERHEAD;
    let edge = size_of::<MoveEdge>() + 16 + label_len;
    let per_node = node + index + size_of::<P::State>() + TEXT_PER_NODE + board_len;
    let per_edge = edge + TEXT_PER_EDGE + label_len;
    let per_state = per_node as f64 + edges_per_node * per_edge as f64;
    (states as f64 * per_state).ceil() as u128
}

/// The graph around `start`: a BFS within `limits`, then every move between the states found.
///
/// - `space`: the puzzle; its successors must be deterministic (they are, by contract).
/// - `start`: node 0.
/// - `undirected`: one edge per pair of states. Only for spaces whose moves are invertible
///   (see [`Invertible`](crate::space::Invertible)): the edge `t -> s` is taken as given by `s -> t`.
/// - `limits`: depth and state count; the memory budget is checked against an estimate first.
/// - `format_state`: a state's board text.
/// - `on_layer`: called with the depth being reached and the states found so far, after each BFS
///   layer and every 65,536 states within one (for a progress line; the library prints nothing).
///
/// Errors: [`Error::Limit`] when the estimate passes the memory budget (with both figures).
///
/// ```
/// use statespace::graph::{self, ExportLimits};
/// use statespace::space::StateSpace;
///
/// struct Ring; // 0..6 in a circle, a move steps one way or the other, the goal is 3
/// impl StateSpace for Ring {
///     type State = u8;
///     type Move = char;
///     fn successors(&self, s: u8, visit: &mut dyn FnMut(char, u8)) {
///         visit('+', (s + 1) % 6);
///         visit('-', (s + 5) % 6);
///     }
///     fn is_goal(&self, s: u8) -> bool { s == 3 }
/// }
/// let g = graph::build(&Ring, 0, true, &ExportLimits::default(), |s| s.to_string(), &mut |_, _| {})
///     .unwrap();
/// assert_eq!((g.node_count(), g.edge_count()), (6, 6));
/// assert!(g.complete());
/// assert_eq!(g.nodes()[0].weight.goal_distance, Some(3));
/// ```
pub fn build<P: StateSpace>(
    space: &P,
    start: P::State,
    undirected: bool,
    limits: &ExportLimits,
    format_state: impl Fn(P::State) -> String,
    on_layer: &mut dyn FnMut(u32, u64),
) -> Result<StateGraph> {
    check_memory(space, start, undirected, limits, &format_state)?;
    let graph = if undirected {
        let (graph, cut) = build_typed(space, start, true, limits, &format_state, on_layer);
        StateGraph {
            topology: Topology::Undirected(graph),
            cut,
        }
    } else {
        let (graph, cut) = build_typed(space, start, false, limits, &format_state, on_layer);
        StateGraph {
            topology: Topology::Directed(graph),
            cut,
        }
    };
    Ok(graph)
}

/// Refuses limits whose largest graph would not fit the memory budget. The start's moves stand
/// in for every state's: a plugin's branching factor is usually the same everywhere. (Measured:
/// a 1,000,000-state cut of Flip 5 x 5 is estimated at 2.1 GB and peaks at 1.6 GB.)
fn check_memory<P: StateSpace>(
    space: &P,
    start: P::State,
    undirected: bool,
    limits: &ExportLimits,
    format_state: &impl Fn(P::State) -> String,
) -> Result<()> {
    let mut branching = 0;
    let mut label_len = 0;
    space.successors(start, &mut |m, _| {
        branching += 1;
        label_len = label_len.max(m.to_string().len());
    });
    let board_len = format_state(start).len();
    let edges_per_node = if undirected {
        branching as f64 / 2.0
    } else {
        branching as f64
    };
    let needed = estimate_bytes::<P>(limits.max_states, edges_per_node, board_len, label_len);
    if needed > limits.memory_budget as u128 {
        // The same limit, and so the same exit code, as a search over the budget.
        return Err(Error::Limit {
            location: Location::command("export").with_key("max-states"),
            limit: crate::limit::Limit::Memory {
                needed,
                budget: limits.memory_budget,
            },
        });
    }
    Ok(())
}

fn build_typed<P: StateSpace, Ty: EdgeType>(
    space: &P,
    start: P::State,
    undirected: bool,
    limits: &ExportLimits,
    format_state: &impl Fn(P::State) -> String,
    on_layer: &mut dyn FnMut(u32, u64),
) -> (Graph<StateNode, MoveEdge, Ty>, Option<Cut>) {
    let mut graph = Graph::<StateNode, MoveEdge, Ty>::default();
    // states[i] is node i: the BFS queue, never popped, doubles as the id -> state map.
    let mut states = vec![start];
    let mut ids: HashMap<P::State, NodeIndex> = HashMap::new();
    let node = |state: P::State, depth: u32| StateNode {
        board: format_state(state),
        depth,
        goal_distance: None,
        is_goal: space.is_goal(state),
        is_start: depth == 0,
    };
    ids.insert(start, graph.add_node(node(start, 0)));

    // Pass 1: the nodes, layer by layer.
    let max_states = limits.max_states.max(1) as usize;
    let mut states_full = false;
    let mut layer_start = 0;
    let mut depth = 0u32;
    while layer_start < states.len() && !states_full {
        if limits.max_depth.is_some_and(|max| depth >= max) {
            break;
        }
        let layer_end = states.len();
        for i in layer_start..layer_end {
            space.successors(states[i], &mut |_, next| {
                if ids.contains_key(&next) {
                    return;
                }
                if states.len() >= max_states {
                    states_full = true;
                    return;
                }
                ids.insert(next, graph.add_node(node(next, depth + 1)));
                states.push(next);
                if states.len().is_multiple_of(PROGRESS_EVERY) {
                    on_layer(depth + 1, states.len() as u64);
                }
            });
        }
        layer_start = layer_end;
        depth += 1;
        on_layer(depth, states.len() as u64);
    }

    // Pass 2: every move between two nodes; a move that leaves the node set means a cut.
    let mut leaves = false;
    for (i, &state) in states.iter().enumerate() {
        let from = NodeIndex::new(i);
        space.successors(state, &mut |m, next| match ids.get(&next) {
            None => leaves = true,
            // Undirected: the move back from an earlier node was added when that node's turn came.
            Some(&to) if undirected && to < from => {}
            Some(&to) => {
                graph.add_edge(
                    from,
                    to,
                    MoveEdge {
                        label: m.to_string(),
                    },
                );
            }
        });
    }

    let cut = match (leaves, states_full) {
        (false, _) => None,
        (true, true) => Some(Cut::States(limits.max_states)),
        (true, false) => Some(Cut::Depth(limits.max_depth.unwrap_or(depth))),
    };
    if cut.is_none() {
        set_goal_distances(&mut graph);
    }
    (graph, cut)
}

/// One BFS backward from every goal node at once; only sound on a complete graph.
fn set_goal_distances<Ty: EdgeType>(graph: &mut Graph<StateNode, MoveEdge, Ty>) {
    let mut queue: VecDeque<NodeIndex> =
        graph.node_indices().filter(|&n| graph[n].is_goal).collect();
    for &goal in &queue {
        graph[goal].goal_distance = Some(0);
    }
    while let Some(node) = queue.pop_front() {
        let distance = graph[node].goal_distance.expect("queued nodes have one") + 1;
        // Incoming: the states that reach `node` in one move (all neighbours when undirected).
        let mut predecessors = graph.neighbors_directed(node, Direction::Incoming).detach();
        while let Some(previous) = predecessors.next_node(graph) {
            if graph[previous].goal_distance.is_none() {
                graph[previous].goal_distance = Some(distance);
                queue.push_back(previous);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toys::{Counter, Lights, LightsGoal};

    fn limits(max_depth: Option<u32>, max_states: u64) -> ExportLimits {
        ExportLimits {
            max_depth,
            max_states,
            memory_budget: 1 << 30,
        }
    }

    fn counter(l: &ExportLimits) -> StateGraph {
        build(&Counter, 5, false, l, |s| s.to_string(), &mut |_, _| {}).unwrap()
    }

    fn flip(rows: u32, cols: u32) -> Lights {
        Lights::new(rows, cols, false, LightsGoal::AllOff)
    }

    #[test]
    fn a_directed_space_keeps_every_move_and_its_goal_distances() {
        let g = counter(&limits(None, 100));
        assert!(g.is_directed() && g.complete());
        assert_eq!((g.node_count(), g.edge_count()), (10, 20));
        // From 5 to 0 takes +1 +1 +3 or similar: 3 moves; from 9, +1: 1 move.
        let by_board = |b: &str| g.nodes().iter().find(|n| n.weight.board == b).unwrap();
        assert_eq!(by_board("5").weight.goal_distance, Some(3));
        assert_eq!(by_board("9").weight.goal_distance, Some(1));
        assert_eq!(by_board("7").weight.goal_distance, Some(1));
        assert!(by_board("0").weight.is_goal);
        assert!(g.nodes()[0].weight.is_start && g.nodes()[0].weight.board == "5");
    }

    #[test]
    fn a_depth_cut_keeps_edges_between_frontier_states_and_drops_goal_distances() {
        let g = counter(&limits(Some(1), 100));
        assert_eq!(g.cut, Some(Cut::Depth(1)));
        // 5 -> 6, 8; and 6 -> 9 leaves, 8 -> 9, 1 leave: only the two first moves stay.
        assert_eq!((g.node_count(), g.edge_count()), (3, 2));
        assert!(g.nodes().iter().all(|n| n.weight.goal_distance.is_none()));
    }

    #[test]
    fn a_depth_limit_that_holds_everything_is_no_cut() {
        // Flip 2 x 2 from all white: 16 boards within 4 presses.
        let f = flip(2, 2);
        let g = build(
            &f,
            0,
            true,
            &limits(Some(4), 100),
            |s| s.to_string(),
            &mut |_, _| {},
        )
        .unwrap();
        assert!(g.complete(), "{:?}", g.cut);
        assert_eq!((g.node_count(), g.edge_count()), (16, 16 * 4 / 2));
    }

    #[test]
    fn a_state_cut_says_so() {
        let g = counter(&limits(None, 4));
        assert_eq!(g.cut, Some(Cut::States(4)));
        assert_eq!(g.node_count(), 4);
    }

    #[test]
    fn undirected_flip_has_one_edge_per_pair_and_the_right_distances() {
        let f = flip(3, 3);
        let mut layers = Vec::new();
        let g = build(
            &f,
            0,
            true,
            &limits(None, 10_000),
            |s| s.to_string(),
            &mut |d, n| layers.push((d, n)),
        )
        .unwrap();
        assert!(!g.is_directed() && g.complete());
        assert_eq!((g.node_count(), g.edge_count()), (512, 512 * 9 / 2));
        assert_eq!(layers.last().unwrap().1, 512);
        // Start is the goal (all white), so distance to goal = depth from start.
        for n in g.nodes() {
            assert_eq!(n.weight.goal_distance, Some(n.weight.depth));
        }
        // Every edge joins states one press apart, listed from the earlier node.
        for (s, t, _) in g.edges() {
            assert!(s < t);
        }
    }

    #[test]
    fn the_memory_budget_is_checked_before_building() {
        let mut l = limits(None, 1_000_000);
        l.memory_budget = 1 << 20;
        let err = build(&flip(4, 4), 0, true, &l, |s| s.to_string(), &mut |_, _| {}).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("over the budget of 1.0 MiB"), "{text}");
    }
}
