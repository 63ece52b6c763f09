//! JSON in the node-link form of networkx (`node_link_data`), which d3's force layout and
//! Cytoscape's importers read:
//!
//! ```json
//! {"directed": false, "multigraph": false, "graph": {"complete": true, "cut": null},
//!  "nodes": [{"id": 0, "board": "bw\nwb", "depth": 0, "goal_distance": 2, "goal": false, "start": true}],
//!  "links": [{"source": 0, "target": 1, "move": "r1c1"}]}
//! ```
//!
//! Node ids are their positions in `nodes` (BFS order; 0 is the start), so a reader that links by
//! index (d3's default) and one that links by `id` agree. `goal_distance` is `null` when unknown
//! (the graph was cut) or when no goal is reachable (the graph is complete). `multigraph` is true
//! when two moves join the same two states (a Flip board one cell wide on a torus does that).
//! Compact, one line: these files are read by programs.

use super::StateGraph;
use serde::Serialize;

#[derive(Serialize)]
struct NodeLink<'a> {
    directed: bool,
    multigraph: bool,
    graph: GraphAttributes,
    nodes: Vec<Node<'a>>,
    links: Vec<Link<'a>>,
}

#[derive(Serialize)]
struct GraphAttributes {
    complete: bool,
    cut: Option<String>,
}

#[derive(Serialize)]
struct Node<'a> {
    id: usize,
    board: &'a str,
    depth: u32,
    goal_distance: Option<u32>,
    goal: bool,
    start: bool,
}

#[derive(Serialize)]
struct Link<'a> {
    source: usize,
    target: usize,
    #[serde(rename = "move")]
    label: &'a str,
}

/// The graph as node-link JSON, one line and a newline.
pub fn to_json(graph: &StateGraph) -> String {
    let nodes = graph
        .nodes()
        .iter()
        .enumerate()
        .map(|(id, node)| {
            let n = &node.weight;
            Node {
                id,
                board: &n.board,
                depth: n.depth,
                goal_distance: n.goal_distance,
                goal: n.is_goal,
                start: n.is_start,
            }
        })
        .collect();
    let links: Vec<Link> = graph
        .edges()
        .map(|(source, target, edge)| Link {
            source,
            target,
            label: &edge.label,
        })
        .collect();
    let mut pairs = hashbrown::HashSet::with_capacity(links.len());
    let multigraph = !links.iter().all(|l| {
        let pair = if graph.is_directed() || l.source <= l.target {
            (l.source, l.target)
        } else {
            (l.target, l.source)
        };
        pairs.insert(pair)
    });
    let document = NodeLink {
        directed: graph.is_directed(),
        multigraph,
        graph: GraphAttributes {
            complete: graph.complete(),
            cut: graph.cut.map(|c| c.to_string()),
        },
        nodes,
        links,
    };
    let mut text = serde_json::to_string(&document).expect("plain data serializes");
    text.push('\n');
    text
}
