//! GraphML, written by hand.
//!
//! GraphML is a small fixed vocabulary (`graphml`, `key`, `graph`, `node`, `edge`, `data`), so a
//! writer is a few dozen lines; an XML crate would add a dependency to save the escaping, which is
//! done here in one function. Every attribute is declared by a `<key>` with its type, so Gephi,
//! yEd, Cytoscape and networkx read them typed. A node whose goal distance is unknown has no
//! `goal_distance` data (GraphML's way to say "absent").
//!
//! XML 1.0 forbids most control characters even as character references; board text never holds
//! them, but a plugin could, so they are replaced by U+FFFD rather than producing a file no parser
//! reads.

use super::StateGraph;
use crate::escape;
use std::fmt::Write;

/// `(id, for, type)` of every attribute; the id doubles as `attr.name`.
const KEYS: [(&str, &str, &str); 8] = [
    ("complete", "graph", "boolean"),
    ("cut", "graph", "string"),
    ("board", "node", "string"),
    ("depth", "node", "int"),
    ("goal_distance", "node", "int"),
    ("goal", "node", "boolean"),
    ("start", "node", "boolean"),
    ("move", "edge", "string"),
];

/// The graph in GraphML. Node ids are `n0`, `n1`, ... in BFS order (`n0` is the start); edge ids
/// `e0`, `e1`, ...
pub fn to_graphml(graph: &StateGraph) -> String {
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns \
         http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n",
    );
    for (id, domain, kind) in KEYS {
        writeln!(
            out,
            "  <key id=\"{id}\" for=\"{domain}\" attr.name=\"{id}\" attr.type=\"{kind}\"/>"
        )
        .unwrap();
    }
    let edgedefault = if graph.is_directed() {
        "directed"
    } else {
        "undirected"
    };
    writeln!(out, "  <graph id=\"states\" edgedefault=\"{edgedefault}\">").unwrap();
    writeln!(
        out,
        "    <data key=\"complete\">{}</data>",
        graph.complete()
    )
    .unwrap();
    if let Some(cut) = graph.cut {
        writeln!(
            out,
            "    <data key=\"cut\">{}</data>",
            escape::xml(&cut.to_string())
        )
        .unwrap();
    }
    for (id, node) in graph.nodes().iter().enumerate() {
        let n = &node.weight;
        writeln!(out, "    <node id=\"n{id}\">").unwrap();
        writeln!(
            out,
            "      <data key=\"board\">{}</data>",
            escape::xml(&n.board)
        )
        .unwrap();
        writeln!(out, "      <data key=\"depth\">{}</data>", n.depth).unwrap();
        if let Some(d) = n.goal_distance {
            writeln!(out, "      <data key=\"goal_distance\">{d}</data>").unwrap();
        }
        writeln!(out, "      <data key=\"goal\">{}</data>", n.is_goal).unwrap();
        writeln!(out, "      <data key=\"start\">{}</data>", n.is_start).unwrap();
        out.push_str("    </node>\n");
    }
    for (id, (source, target, edge)) in graph.edges().enumerate() {
        writeln!(
            out,
            "    <edge id=\"e{id}\" source=\"n{source}\" target=\"n{target}\">\
             <data key=\"move\">{}</data></edge>",
            escape::xml(&edge.label)
        )
        .unwrap();
    }
    out.push_str("  </graph>\n</graphml>\n");
    out
}
