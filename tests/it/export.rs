//! `statespace export` end to end: the whole 3 x 3 Flip space in every format, determinism, cuts,
//! bad input; and the committed sample histogram in docs/ against the plot writer.

use crate::statespace;
use predicates::prelude::*;
use std::path::Path;

/// 3 x 3 Flip: all 512 boards reachable from any start, 9 presses each, so 512 * 9 / 2 edges.
const NODES: usize = 512;
const EDGES: usize = 512 * 9 / 2;

fn config_3x3() -> String {
    crate::config_path("flip-3x3.toml")
        .to_str()
        .unwrap()
        .to_string()
}

/// Runs `export` on the 3 x 3 config with `args`, writing to `dir/name`; returns the file's bytes.
fn export_to(dir: &Path, name: &str, args: &[&str]) -> Vec<u8> {
    let out = dir.join(name);
    statespace()
        .arg("export")
        .arg(config_3x3())
        .args(args)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(0)
        .stderr("");
    std::fs::read(out).unwrap()
}

#[test]
fn json_has_the_whole_space_with_exact_goal_distances() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = export_to(dir.path(), "g.json", &["--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(json["directed"], false);
    assert_eq!(json["graph"]["complete"], true);
    let nodes = json["nodes"].as_array().unwrap();
    let links = json["links"].as_array().unwrap();
    assert_eq!((nodes.len(), links.len()), (NODES, EDGES));
    assert_eq!(nodes[0]["start"], true);
    assert_eq!(nodes[0]["depth"], 0);
    // All-white is the one goal, and every board can reach it.
    let goals: Vec<_> = nodes.iter().filter(|n| n["goal"] == true).collect();
    assert_eq!(goals.len(), 1);
    assert_eq!(goals[0]["board"], "www\nwww\nwww");
    let distance = |id: &serde_json::Value| {
        nodes[id.as_u64().unwrap() as usize]["goal_distance"]
            .as_u64()
            .unwrap() as i64
    };
    for (i, node) in nodes.iter().enumerate() {
        assert_eq!(node["id"], i);
    }
    // A press changes the distance to the goal by at most one, and no two links repeat a pair.
    let mut pairs = std::collections::HashSet::new();
    for link in links {
        assert!((distance(&link["source"]) - distance(&link["target"])).abs() <= 1);
        let (s, t) = (
            link["source"].as_u64().unwrap(),
            link["target"].as_u64().unwrap(),
        );
        assert!(pairs.insert((s.min(t), s.max(t))), "{link}");
        assert!(link["move"].as_str().unwrap().starts_with('r'));
    }
}

#[test]
fn graphml_parses_declares_its_keys_and_has_the_counts() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = export_to(dir.path(), "g.graphml", &["--format", "graphml"]);
    let text = String::from_utf8(bytes).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    let ns = "http://graphml.graphdrawing.org/xmlns";
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "graphml");
    assert_eq!(root.tag_name().namespace(), Some(ns));
    let keys: std::collections::HashMap<&str, &str> = root
        .children()
        .filter(|n| n.has_tag_name((ns, "key")))
        .map(|k| (k.attribute("id").unwrap(), k.attribute("for").unwrap()))
        .collect();
    for (key, domain) in [
        ("board", "node"),
        ("depth", "node"),
        ("goal_distance", "node"),
        ("goal", "node"),
        ("start", "node"),
        ("move", "edge"),
    ] {
        assert_eq!(keys.get(key), Some(&domain), "key {key}");
    }
    // Every data element uses a declared key for its own kind of element.
    for data in doc.descendants().filter(|n| n.has_tag_name((ns, "data"))) {
        let parent = data.parent_element().unwrap().tag_name().name();
        assert_eq!(keys[data.attribute("key").unwrap()], parent);
    }
    let graph = root
        .children()
        .find(|n| n.has_tag_name((ns, "graph")))
        .unwrap();
    assert_eq!(graph.attribute("edgedefault"), Some("undirected"));
    let count = |tag| {
        graph
            .children()
            .filter(|n| n.has_tag_name((ns, tag)))
            .count()
    };
    assert_eq!((count("node"), count("edge")), (NODES, EDGES));
    // Boards keep their line breaks through the escaping.
    let first = graph
        .children()
        .find(|n| n.has_tag_name((ns, "node")))
        .unwrap();
    let board = first
        .children()
        .find(|d| d.attribute("key") == Some("board"))
        .unwrap();
    assert_eq!(board.text(), Some("bwb\nwbw\nbwb"));
}

#[test]
fn dot_has_the_counts_and_renders_with_graphviz() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = export_to(dir.path(), "g.dot", &[]);
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.starts_with("graph states {\n"));
    assert_eq!(text.matches(" -- ").count(), EDGES);
    assert_eq!(text.matches("label = \"").count(), NODES + EDGES);
    let dot_on_path = std::process::Command::new("dot")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !dot_on_path {
        eprintln!("Graphviz `dot` is not on PATH: the rendering check is skipped (CI installs it)");
        return;
    }
    let svg = dir.path().join("g.svg");
    let status = std::process::Command::new("dot")
        .arg("-Tsvg")
        .arg(dir.path().join("g.dot"))
        .arg("-o")
        .arg(&svg)
        .status()
        .unwrap();
    assert!(status.success());
    let svg = std::fs::read_to_string(svg).unwrap();
    // Graphviz writes a DOCTYPE line, which roxmltree refuses unless told.
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&svg, options).unwrap();
    let class_count = |class| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .count()
    };
    assert_eq!((class_count("node"), class_count("edge")), (NODES, EDGES));
}

#[test]
fn same_input_same_bytes_and_stdout_matches_the_file() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["dot", "graphml", "json"] {
        let a = export_to(dir.path(), "a", &["--format", format]);
        let b = export_to(dir.path(), "b", &["--format", format]);
        assert!(a == b, "{format}: two runs differ");
        let out = statespace()
            .args(["export", &config_3x3(), "--format", format])
            .output()
            .unwrap();
        assert!(out.stdout == a, "{format}: stdout differs from the file");
    }
    // Without --format, the extension picks it.
    let json = export_to(dir.path(), "g.json", &[]);
    assert!(json.starts_with(b"{\"directed\":false"));
}

#[test]
fn a_cut_says_so_on_stderr_and_drops_goal_distances() {
    let out = statespace()
        .args([
            "export",
            &config_3x3(),
            "--format",
            "json",
            "--max-states",
            "10",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("state limit 10 reached"), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["nodes"].as_array().unwrap().len(), 10);
    assert_eq!(json["graph"]["complete"], false);
    assert!(
        json["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n["goal_distance"].is_null())
    );

    // Depth 1: the start and its 9 neighbours, and the edges among them (none: two presses apart).
    statespace()
        .args(["export", &config_3x3(), "--format", "json", "--depth", "1"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains("depth limit 1 reached"))
        .stdout(predicate::function(|out: &str| {
            let json: serde_json::Value = serde_json::from_str(out).unwrap();
            json["nodes"].as_array().unwrap().len() == 10
                && json["links"].as_array().unwrap().len() == 9
        }));
}

#[test]
fn bad_input_exits_2_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.json");
    let target_arg = target.to_str().unwrap();
    let missing_dir = dir.path().join("missing/out.json");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--format", "xml"], "invalid value 'xml'"),
        (vec!["--max-states", "0"], "0 is not in 1..=1000000"),
        (vec!["--max-states", "1000001"], "is not in 1..=1000000"),
        (vec!["--depth=-1"], "invalid value '-1' for '--depth <D>'"),
        (vec!["--board", "/no/such/board"], "/no/such/board"),
    ];
    for (args, message) in cases {
        statespace()
            .arg("export")
            .arg(config_3x3())
            .args(&args)
            .args(["-o", target_arg])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(message));
        assert!(!target.exists(), "{args:?} left {target:?}");
    }
    statespace()
        .args(["export", &config_3x3(), "-o"])
        .arg(&missing_dir)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no such directory"));
    // A target that is a directory: the rename fails, and the temporary file goes with it.
    statespace()
        .args(["export", &config_3x3(), "-o", dir.path().to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::is_match("^statespace: error: .*\n$").unwrap());
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// The flip 4 x 4 uniform histogram: boards by fewest presses, over the 4096 solvable ones.
const FLIP_4X4_HISTOGRAM: [u64; 7] = [2, 32, 228, 880, 1562, 1136, 256];

/// docs/flip-4x4-histogram.svg is what `plot::histogram_svg` makes of the 4 x 4 histogram, and
/// the histogram is what an export of the 4 x 4 goal component says. `UPDATE_DOCS=1 cargo test`
/// rewrites the file.
#[test]
fn the_sample_histogram_in_docs_is_current() {
    use statespace::graph::{self, ExportLimits};
    use statespace_flip::{Flip, FlipGoal, Geometry};
    let geometry = Geometry {
        rows: 4,
        cols: 4,
        wrap: false,
    };
    let flip = Flip::new(geometry, FlipGoal::Uniform);
    let g = graph::build(
        &flip,
        0,
        true,
        &ExportLimits::default(),
        |s| geometry.format(s),
        &mut |_, _| {},
    )
    .unwrap();
    assert!(g.complete());
    let mut counts = vec![0u64; 7];
    for node in g.nodes() {
        counts[node.weight.goal_distance.unwrap() as usize] += 1;
    }
    assert_eq!(counts, FLIP_4X4_HISTOGRAM);

    let svg = statespace::plot::histogram_svg(
        "Flip 4 x 4, goal uniform: solvable boards by fewest presses",
        "fewest presses",
        "boards",
        &counts,
    );
    let path = Path::new(crate::ROOT).join("docs/flip-4x4-histogram.svg");
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &svg).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap();
    assert!(
        committed == svg,
        "docs/flip-4x4-histogram.svg is stale: run UPDATE_DOCS=1 cargo test"
    );
}
