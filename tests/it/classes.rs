//! `statespace explore --symmetry`: the classes by distance in text and JSON, equal to a brute
//! force over the 8-puzzle's boards and a permutation puzzle's positions, and refused with one
//! line where the puzzle has no symmetry, or the sweep is not from the goals in one process.

use crate::{config, config_file, statespace};
use statespace::search::table;
use statespace::space::{Indexed, Symmetric};
use std::collections::HashSet;

fn explore(args: &[&str]) -> std::process::Output {
    statespace().arg("explore").args(args).output().unwrap()
}

/// `explore ARGS --json`, which must succeed.
fn json(args: &[&str]) -> serde_json::Value {
    crate::explore::explore_json(args)
}

/// A config of the 2x2x2 with rotations, turned with `moves`.
fn cube(moves: &str) -> tempfile::NamedTempFile {
    config_file(&format!(
        "[puzzle]\nkind = \"perm\"\ndefinition = \"builtin:2x2x2-rotations\"\nmoves = [{moves}]\n"
    ))
}

#[test]
fn the_8_puzzle_has_90_792_classes_a_brute_force_pairs_by_distance() {
    let tiles = config("tiles-3x3.toml");
    let with = json(&[&tiles, "--symmetry"]);
    let classes = &with["classes"];
    assert_eq!(classes["symmetries"], 2);
    assert_eq!(classes["total"], 90_792);
    // The brute force: every board and its reflection, by the distance table's distance.
    let space = statespace_tiles::Tiles::new(3, 3, statespace_tiles::Tiles::ordered(3, 3));
    let plain = table::build(&space, &Default::default()).unwrap();
    let mut pairs = vec![HashSet::new(); plain.histogram().len()];
    for i in 0..space.size() as u64 {
        let board = space.state(i);
        let image = space.representative(board);
        let d = plain.distance(&space, board).unwrap().unwrap() as usize;
        pairs[d].insert(space.index(image));
    }
    let counts: Vec<u64> = pairs.iter().map(|p| p.len() as u64).collect();
    assert_eq!(classes["histogram"], serde_json::json!(counts));
    // The states are the sweep's without the flag; without it there are no classes.
    let without = json(&[&tiles]);
    assert_eq!(with["histogram"], without["histogram"]);
    assert_eq!(without["classes"], serde_json::Value::Null);
}

#[test]
fn the_text_report_has_a_class_column_and_the_group() {
    let file = cube("\"U\", \"R\"");
    let out = explore(&[file.path().to_str().unwrap(), "--symmetry"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    // U and R: 29,160 positions; the half turn about the UR edge's axis swaps them, the mirror
    // through the UR edge's plane too, and the mirror through the U and R axes keeps each.
    assert!(
        text.contains("symmetry: 4 symmetries, the identity included"),
        "{text}"
    );
    assert!(text.contains("reachable: 29,160 of "), "{text}");
    assert!(text.contains("distance   states  classes"), "{text}");
    assert!(text.contains("       0        1        1\n"), "{text}");
    // U, U2, U' and R, R2, R': the half turn swaps each U turn with the same R turn, a mirror
    // each quarter turn with its inverse: the quarter turns and the half turns.
    assert!(text.contains("       1        6        2\n"), "{text}");
    assert!(text.contains("classes counted in "), "{text}");
}

#[test]
fn a_depth_limit_counts_the_classes_of_every_depth_swept() {
    let file = cube("\"U\", \"F\", \"R\"");
    let out = explore(&[
        file.path().to_str().unwrap(),
        "--symmetry",
        "--max-depth",
        "3",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(4));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["histogram"], serde_json::json!([1, 9, 54, 321]));
    assert_eq!(
        json["classes"]["histogram"],
        serde_json::json!([1, 2, 9, 54])
    );
}

#[test]
fn without_a_symmetry_that_keeps_distances_it_is_one_line() {
    let refused = |args: &[&str], needle: &str| {
        let out = explore(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("--symmetry"), "{stderr}");
        assert!(stderr.contains(needle), "{stderr}");
        assert!(out.stdout.is_empty());
    };
    refused(
        &[&config("flip-4x4.toml"), "--symmetry"],
        "no symmetry to count classes under",
    );
    refused(
        &[&config("perm-2x2x2.toml"), "--symmetry"],
        "the definition has no rotations",
    );
    // The blank off the main diagonal: the reflection does not keep the goal.
    let corner = config_file(
        "[puzzle]\nkind = \"tiles\"\nrows = 3\ncols = 3\n[goal]\nkind = \"pattern\"\n\
         target = \"\"\"\n1 2 _\n3 4 5\n6 7 8\n\"\"\"\n",
    );
    refused(
        &[corner.path().to_str().unwrap(), "--symmetry"],
        "the goal's blank is off the main diagonal",
    );
    let cube = cube("\"U\", \"R\"");
    refused(
        &[
            cube.path().to_str().unwrap(),
            "--symmetry",
            "--from",
            "start",
        ],
        "classes are counted from the goals",
    );
    let wide = config_file("[puzzle]\nkind = \"tiles\"\nrows = 2\ncols = 3\n");
    refused(
        &[wide.path().to_str().unwrap(), "--symmetry"],
        "needs a square board",
    );
    refused(
        &[&config("tiles-3x3.toml"), "--symmetry", "--workers", "2"],
        "in one process",
    );
}
