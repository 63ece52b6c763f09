//! `statespace export` on Shift configs: whole boards, undirected, the goal flag the config's goal.
//! Small 3 x 3 boards are exported whole and checked against a BFS over letter boards written here
//! (moves applied by `shift::apply_label`, from the puzzle statement); every format agrees; the
//! HDU 4 x 6 board is cut by depth; a board too large to pack is refused.

use crate::shift::{apply_label, letters, region_uniform};
use crate::statespace;
use predicates::prelude::*;
use statespace_shift::Geometry;
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};

const G3: Geometry = Geometry { rows: 3, cols: 3 };
const HDU: Geometry = Geometry { rows: 4, cols: 6 };

/// Every move label of `g`, in the plugin's order.
fn labels(g: Geometry) -> Vec<String> {
    let rows = (1..=g.rows).flat_map(|r| [format!("row {r} left"), format!("row {r} right")]);
    let cols = (1..=g.cols).flat_map(|c| [format!("col {c} up"), format!("col {c} down")]);
    rows.chain(cols).collect()
}

/// The board text of row-major letters, as `solve` prints it.
fn text(g: Geometry, cells: &[u8]) -> String {
    cells
        .chunks(g.cols as usize)
        .map(|row| String::from_utf8(row.to_vec()).unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// An independent BFS from `start` to `max_depth` moves: `(boards found, the number of
/// (board, move) pairs inside the set that change the board)`. An undirected graph with one edge
/// per move pair has half that many edges.
fn brute_force(g: Geometry, start: &[u8], max_depth: usize) -> (HashSet<Vec<u8>>, usize) {
    let mut depth = HashMap::from([(start.to_vec(), 0)]);
    let mut queue = VecDeque::from([start.to_vec()]);
    while let Some(board) = queue.pop_front() {
        let d = depth[&board];
        if d == max_depth {
            continue;
        }
        for label in labels(g) {
            let mut next = board.clone();
            apply_label(g, &mut next, &label);
            if !depth.contains_key(&next) {
                depth.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    let boards: HashSet<Vec<u8>> = depth.into_keys().collect();
    let mut moves = 0;
    for board in &boards {
        for label in labels(g) {
            let mut next = board.clone();
            apply_label(g, &mut next, &label);
            moves += (next != *board && boards.contains(&next)) as usize;
        }
    }
    (boards, moves)
}

/// A 3 x 3 config over colours `BW` with `goal` (TOML lines of the `[goal]` table) and `start`.
fn write_config(dir: &Path, name: &str, goal: &str, start: &str) -> PathBuf {
    let path = dir.join(name);
    let body = format!(
        "[puzzle]\nkind = \"shift\"\nrows = 3\ncols = 3\ncolours = \"BW\"\n\n[goal]\n{goal}\n\n\
         [start]\nboard = \"\"\"\n{start}\n\"\"\"\n"
    );
    std::fs::write(&path, body).unwrap();
    path
}

fn export(config: &Path, args: &[&str]) -> Vec<u8> {
    let out = statespace()
        .arg("export")
        .arg(config)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    out.stdout
}

fn json(config: &Path, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    serde_json::from_slice(&export(config, &all)).unwrap()
}

const START: &str = "BWW\nWBW\nWWB";

/// Checks a complete 3 x 3 export against the brute force: the node set is every board reachable
/// (all C(9, 3) = 84 arrangements of 3 B cells), the edges are the moves between them, each label
/// a move that turns its source into its target, and the goal flags are `is_goal` exactly.
fn check_whole(json: &serde_json::Value, is_goal: &dyn Fn(&[u8]) -> bool) -> usize {
    assert_eq!(json["directed"], false);
    assert_eq!(json["graph"]["complete"], true);
    let nodes = json["nodes"].as_array().unwrap();
    let links = json["links"].as_array().unwrap();
    let (boards, moves) = brute_force(G3, &letters(START), usize::MAX);
    assert_eq!(boards.len(), 84, "every arrangement is reachable");
    assert_eq!(nodes.len(), boards.len());
    assert_eq!(links.len(), moves / 2);
    let cells: Vec<Vec<u8>> = nodes
        .iter()
        .map(|n| letters(n["board"].as_str().unwrap()))
        .collect();
    assert_eq!(cells.iter().cloned().collect::<HashSet<_>>(), boards);
    assert_eq!(nodes[0]["board"], START);
    for (node, cells) in nodes.iter().zip(&cells) {
        assert_eq!(
            node["board"],
            text(G3, cells),
            "boards print as `solve` prints them"
        );
        assert_eq!(node["goal"], is_goal(cells), "{}", node["board"]);
    }
    let all_labels = labels(G3);
    let mut seen = HashSet::new();
    for link in links {
        let label = link["move"].as_str().unwrap();
        assert!(all_labels.iter().any(|l| l == label), "{label}");
        let (s, t) = (
            link["source"].as_u64().unwrap() as usize,
            link["target"].as_u64().unwrap() as usize,
        );
        assert!(s < t, "no loops, and listed from the node found first");
        let mut moved = cells[s].clone();
        apply_label(G3, &mut moved, label);
        assert_eq!(moved, cells[t], "{label}");
        assert!(seen.insert((s, label)), "one edge per move pair");
    }
    // Complete, so every node has a goal distance, zero exactly at the goals.
    for node in nodes {
        let distance = node["goal_distance"].as_u64().unwrap();
        assert_eq!(distance == 0, node["goal"] == true);
    }
    nodes.iter().filter(|n| n["goal"] == true).count()
}

#[test]
fn a_region_goal_flags_the_boards_whose_region_is_one_colour() {
    let dir = tempfile::tempdir().unwrap();
    let any = write_config(
        dir.path(),
        "any.toml",
        "kind = \"region-uniform\"\nregion = [1, 1, 1, 3]",
        START,
    );
    let top = [0, 0, 0, 2];
    let goals = check_whole(&json(&any, &[]), &|c| region_uniform(G3, c, top, None));
    // The top row all B (1 board) or all W (the 3 B cells among the other 6: 20 boards).
    assert_eq!(goals, 1 + 20);

    let white = write_config(
        dir.path(),
        "white.toml",
        "kind = \"region-uniform\"\nregion = [1, 1, 1, 3]\ncolour = \"W\"",
        START,
    );
    let goals = check_whole(&json(&white, &[]), &|c| {
        region_uniform(G3, c, top, Some(b'W'))
    });
    assert_eq!(goals, 20);

    // The interior of a 3 x 3 board is its middle cell: one colour on every board.
    let interior = write_config(
        dir.path(),
        "interior.toml",
        "kind = \"interior-uniform\"",
        START,
    );
    assert_eq!(check_whole(&json(&interior, &[]), &|_| true), 84);
    let black = write_config(
        dir.path(),
        "black.toml",
        "kind = \"interior-uniform\"\ncolour = \"b\"",
        START,
    );
    let goals = check_whole(&json(&black, &[]), &|c| c[4] == b'B');
    assert_eq!(goals, 28, "C(8, 2) boards with a B in the middle");
}

#[test]
fn a_pattern_goal_flags_the_target_alone() {
    let dir = tempfile::tempdir().unwrap();
    let target = "WWW\nBBB\nWWW";
    let config = write_config(
        dir.path(),
        "pattern.toml",
        &format!(
            "kind = \"pattern\"\ntarget = \"{}\"",
            target.replace('\n', "\\n")
        ),
        START,
    );
    let json = json(&config, &[]);
    assert_eq!(check_whole(&json, &|c| c == letters(target)), 1);
    // The solver's answer is the target's goal distance from the start.
    let solved = statespace()
        .args(["solve", config.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    let solved: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
    assert_eq!(json["nodes"][0]["goal_distance"], solved["moves"]);
}

#[test]
fn every_format_has_the_same_counts_and_the_same_bytes_twice() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        "c.toml",
        "kind = \"region-uniform\"\nregion = [1, 1, 1, 3]",
        START,
    );
    let json = json(&config, &[]);
    let nodes = json["nodes"].as_array().unwrap().len();
    let edges = json["links"].as_array().unwrap().len();
    assert_eq!(nodes, 84);

    let graphml = String::from_utf8(export(&config, &["--format", "graphml"])).unwrap();
    let doc = roxmltree::Document::parse(&graphml).unwrap();
    let count = |tag| doc.descendants().filter(|n| n.has_tag_name(tag)).count();
    assert_eq!((count("node"), count("edge")), (nodes, edges));

    let dot = String::from_utf8(export(&config, &["--format", "dot"])).unwrap();
    assert!(dot.starts_with("graph states {\n"));
    assert_eq!(dot.matches(" -- ").count(), edges);
    assert_eq!(dot.matches("label = \"").count(), nodes + edges);

    for format in ["dot", "graphml", "json"] {
        let a = export(&config, &["--format", format]);
        let b = export(&config, &["--format", format]);
        assert!(a == b, "{format}: two runs differ");
    }
}

#[test]
fn the_hdu_board_at_depth_2_is_cut_with_a_message() {
    let config = crate::config_path("shift-4x6.toml");
    let out = statespace()
        .args(["export", config.to_str().unwrap(), "--format", "json"])
        .args(["--depth", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("depth limit 2 reached"), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["graph"]["complete"], false);
    let nodes = json["nodes"].as_array().unwrap();
    let start = "GWGGWW\nBBBBBW\nGBBBGW\nWGGGWW";
    assert_eq!(nodes[0]["board"], start);
    let (boards, moves) = brute_force(HDU, &letters(start), 2);
    assert_eq!(nodes.len(), boards.len());
    assert_eq!(json["links"].as_array().unwrap().len(), moves / 2);
    assert!(nodes.iter().all(|n| n["depth"].as_u64().unwrap() <= 2));
    assert!(nodes.iter().all(|n| n["goal_distance"].is_null()));
    // HDU's first sample needs 2 moves: goals (the interior one colour) are at depth 2, no nearer.
    let interior = [1, 1, 2, 4];
    for node in nodes {
        let cells = letters(node["board"].as_str().unwrap());
        let goal = region_uniform(HDU, &cells, interior, None);
        assert_eq!(node["goal"], goal, "{}", node["board"]);
        assert!(!goal || node["depth"] == 2);
    }
    assert!(nodes.iter().any(|n| n["goal"] == true));
}

#[test]
fn a_board_too_large_to_pack_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.toml");
    let row = "BWGRY".repeat(2)[..8].to_string();
    let board = vec![row; 8].join("\n");
    std::fs::write(
        &path,
        format!(
            "[puzzle]\nkind = \"shift\"\nrows = 8\ncols = 8\ncolours = \"BWGRY\"\n\n\
             [start]\nboard = \"\"\"\n{board}\n\"\"\"\n"
        ),
    )
    .unwrap();
    statespace()
        .args(["export", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "packed in 128 bits: 64 cells of 5 colours need 192",
        ));
}
