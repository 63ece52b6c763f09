//! Exported state graphs as Python objects: the node-link JSON of
//! [`graph::to_json`](statespace::graph::to_json) as a networkx graph when networkx imports, else
//! as the node-link dict itself.
//!
//! A built-in puzzle's nodes are ints (BFS order, 0 the start) with the board text as an
//! attribute; a Python-defined puzzle's nodes are the user's own states ([`defined_graph`]), so
//! `nx.shortest_path(graph, start, goal)` takes them as they are.

use crate::errors::warn_limit;
use crate::run::int_opt;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use statespace::graph::{DEFAULT_MAX_STATES, MAX_STATES_CAP};

/// An export's `depth` (any `u32`) and `max_states` (1 to [`MAX_STATES_CAP`], default
/// [`DEFAULT_MAX_STATES`]), checked as [`int_arg`](crate::run::int_arg) checks.
pub(crate) fn export_args(
    depth: Option<&Bound<'_, PyAny>>,
    max_states: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Option<u32>, u64)> {
    let depth = int_opt(depth, "depth", 0..=u32::MAX as u64)?.map(|d| d as u32);
    let max_states = int_opt(max_states, "max_states", 1..=MAX_STATES_CAP)?;
    Ok((depth, max_states.unwrap_or(DEFAULT_MAX_STATES)))
}

/// Warns ([`warn_limit`]) when the node-link `data` is a cut graph: not the whole component.
pub(crate) fn warn_if_cut(data: &Bound<'_, PyAny>) -> PyResult<()> {
    let graph = data.get_item("graph")?;
    if graph.get_item("complete")?.is_truthy()? {
        return Ok(());
    }
    let cut: Option<String> = graph.get_item("cut")?.extract()?;
    let nodes = data.get_item("nodes")?.len()?;
    let message = format!(
        "export cut ({}) at {nodes} states: the graph is not the whole space \
         (graph[\"complete\"] is False)",
        cut.as_deref().unwrap_or("a limit")
    );
    warn_limit(data.py(), &message)
}

/// `data` (node-link, as [`graph::to_json`](statespace::graph::to_json) writes it) as a
/// networkx graph, or `data` itself without networkx.
pub(crate) fn networkx_or_dict<'py>(
    py: Python<'py>,
    data: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    match py.import("networkx") {
        Ok(nx) => networkx_graph(&nx, &data, None),
        Err(_) => Ok(data),
    }
}

/// The node-link dict as a networkx graph: `Graph`/`DiGraph` (`Multi...` when two moves join
/// the same two states), node attributes `board`, `depth`, `goal_distance`, `goal`, `start`,
/// edge attribute `move`, graph attributes `complete` and `cut`. Node `i` is `keys[i]` when
/// given (its `state` attribute is then left out: it is the node), else its `id`.
fn networkx_graph<'py>(
    nx: &Bound<'py, PyModule>,
    data: &Bound<'py, PyAny>,
    keys: Option<&[Bound<'py, PyAny>]>,
) -> PyResult<Bound<'py, PyAny>> {
    let directed: bool = data.get_item("directed")?.extract()?;
    let multigraph: bool = data.get_item("multigraph")?.extract()?;
    let class = match (directed, multigraph) {
        (false, false) => "Graph",
        (true, false) => "DiGraph",
        (false, true) => "MultiGraph",
        (true, true) => "MultiDiGraph",
    };
    let graph = nx.getattr(class)?.call0()?;
    graph
        .getattr("graph")?
        .call_method1("update", (data.get_item("graph")?,))?;
    let key = |id: Bound<'py, PyAny>| -> PyResult<Bound<'py, PyAny>> {
        match keys {
            Some(keys) => Ok(keys[id.extract::<usize>()?].clone()),
            None => Ok(id),
        }
    };
    for node in data.get_item("nodes")?.try_iter()? {
        let node = node?.cast_into::<PyDict>()?.copy()?;
        let id = node.get_item("id")?.expect("every node has an id");
        node.del_item("id")?;
        if keys.is_some() {
            node.del_item("state")?;
        }
        graph.call_method("add_node", (key(id)?,), Some(&node))?;
    }
    for link in data.get_item("links")?.try_iter()? {
        let link = link?.cast_into::<PyDict>()?.copy()?;
        let source = link.get_item("source")?.expect("every link has a source");
        let target = link.get_item("target")?.expect("every link has a target");
        link.del_item("source")?;
        link.del_item("target")?;
        graph.call_method("add_edge", (key(source)?, key(target)?), Some(&link))?;
    }
    Ok(graph)
}

/// The graph of a Python-defined puzzle, from the node-link `data` of a graph whose node boards
/// and move labels are ids: each node gets `state` (the user's object) and `board` (its text)
/// from `node(id)`, each link's `move` is the user's move object from `move_of(id)`. A networkx
/// graph whose nodes are the user's states, else the node-link dict (int ids, the `state`
/// attribute).
pub(crate) fn defined_graph<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    node: impl Fn(u32) -> PyResult<(Bound<'py, PyAny>, String)>,
    move_of: impl Fn(u32) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut states = Vec::new();
    for entry in data.get_item("nodes")?.try_iter()? {
        let entry = entry?.cast_into::<PyDict>()?;
        let id: String = entry.get_item("board")?.expect("a board").extract()?;
        let (state, board) = node(id.parse().expect("the adapter's ids"))?;
        entry.set_item("state", &state)?;
        entry.set_item("board", board)?;
        states.push(state);
    }
    for link in data.get_item("links")?.try_iter()? {
        let link = link?.cast_into::<PyDict>()?;
        let id: String = link.get_item("move")?.expect("a move").extract()?;
        link.set_item("move", move_of(id.parse().expect("the adapter's ids"))?)?;
    }
    match py.import("networkx") {
        Ok(nx) => networkx_graph(&nx, data, Some(&states)),
        Err(_) => Ok(data.clone()),
    }
}
