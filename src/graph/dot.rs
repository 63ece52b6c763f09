//! Graphviz DOT, written by petgraph's `dot` module.
//!
//! petgraph writes the nodes and edges, escapes labels, and turns a board's line breaks into
//! `\l` (left-justified lines, which keeps board rows aligned in a monospace font). We write the
//! graph header ourselves (`GraphContentOnly`) to set defaults for every node once instead of
//! repeating them 10,000 times. The start is filled blue, goals are green with a double border;
//! a node's tooltip (shown by SVG viewers) gives its depth and goal distance.

use super::{MoveEdge, StateGraph, StateNode, Topology};
use petgraph::EdgeType;
use petgraph::dot::{Config, Dot};
use petgraph::graph::Graph;
use petgraph::visit::NodeRef;
use std::fmt;

/// The graph in DOT: `graph` when undirected, `digraph` when directed.
pub fn to_dot(graph: &StateGraph) -> String {
    match &graph.topology {
        Topology::Directed(g) => render(g, "digraph"),
        Topology::Undirected(g) => render(g, "graph"),
    }
}

fn render<Ty: EdgeType>(graph: &Graph<StateNode, MoveEdge, Ty>, keyword: &str) -> String {
    let node_attributes = |_, node: (petgraph::graph::NodeIndex, &StateNode)| {
        let n = node.weight();
        let distance = n
            .goal_distance
            .map_or("unknown".to_string(), |d| d.to_string());
        let mut attributes = format!("tooltip=\"depth {}, goal distance {distance}\"", n.depth);
        if n.is_start {
            attributes.push_str(" style=filled fillcolor=\"#9ecae1\"");
        } else if n.is_goal {
            attributes.push_str(" style=filled fillcolor=\"#a1d99b\"");
        }
        if n.is_goal {
            attributes.push_str(" peripheries=2");
        }
        attributes
    };
    let edge_attributes = |_, _edge: petgraph::graph::EdgeReference<'_, MoveEdge>| String::new();
    let dot = Dot::with_attr_getters(
        graph,
        &[Config::GraphContentOnly],
        &edge_attributes,
        &node_attributes,
    );
    let body = Body(dot).to_string();
    format!(
        "{keyword} states {{\n    node [shape=box fontname=\"monospace\" fontsize=10]\n    \
         edge [fontname=\"sans-serif\" fontsize=8 color=\"#888888\"]\n{body}}}\n"
    )
}

/// Formats the nodes and edges with a line break after each board, so that its last row is
/// left-justified like the others (`\l` ends a line; text after the last one would be centred).
struct Body<'a, Ty: EdgeType>(Dot<'a, &'a Graph<StateNode, MoveEdge, Ty>>);

impl<Ty: EdgeType> fmt::Display for Body<'_, Ty> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.graph_fmt(
            f,
            |node, f| writeln!(f, "{}", node.board),
            |edge, f| f.write_str(&edge.label),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{ExportLimits, build};
    use crate::space::BoardFormat;
    use crate::toys::{Lights, LightsGoal};

    #[test]
    fn dot_marks_start_and_goals_and_escapes_boards() {
        let flip = Lights::new(1, 3, false, LightsGoal::Uniform);
        let graph = build(
            &flip,
            0b001,
            true,
            &ExportLimits::default(),
            |s| flip.format(s),
            &mut |_, _| {},
        )
        .unwrap();
        let dot = to_dot(&graph);
        assert!(dot.starts_with("graph states {\n"), "{dot}");
        assert!(dot.ends_with("}\n"));
        // The start "bww" is filled blue; the goals "www" and "bbb" have a double border.
        assert!(dot.contains("0 [ label = \"bww\\l\" tooltip=\"depth 0, goal distance 1\" style=filled fillcolor=\"#9ecae1\"]"), "{dot}");
        assert_eq!(dot.matches("peripheries=2").count(), 2);
        assert_eq!(dot.matches(" -- ").count(), graph.edge_count());
    }
}
