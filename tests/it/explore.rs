//! `statespace explore` and the whole-space engine behind it (`search::layers`): the published
//! 4 x 4 histogram, brute force over every board of small geometries, every strategy and thread
//! count agreeing on random geometries, and the CLI's JSON, plot, limits and bad input.

use crate::{config, config_file, statespace};
use predicates::prelude::*;
use proptest::prelude::*;
use statespace::limit::Limits;
use statespace::search::{Outcome, bfs, layers};
use statespace_flip::{Flip, FlipGoal, Geometry};
use std::time::{Duration, Instant};

/// `explore ARGS --json`, which must exit 0; its object.
pub fn explore_json(args: &[&str]) -> serde_json::Value {
    let out = statespace()
        .arg("explore")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn explore_reproduces_the_published_4x4_histogram() {
    let (reachable, counts) = crate::shared_histogram("flip-4x4-uniform");
    let json = explore_json(&[&config("flip-4x4.toml")]);
    assert_eq!(json["reachable"], reachable);
    assert_eq!(json["histogram"], serde_json::json!(counts));
    assert_eq!(json["max_distance"], counts.len() - 1);
    assert_eq!(json["complete"], true);
    assert_eq!(json["limit"], serde_json::Value::Null);
    assert_eq!(json["direction"], "backward");
    assert_eq!(json["threads"], 1);
    assert_eq!(json["space_size"], 65536);
    for key in ["states_per_second", "elapsed"] {
        assert!(json[key].as_f64().unwrap() >= 0.0, "{key}");
    }
    assert!(json["peak_memory_bytes"].as_u64().unwrap() > 0);
    // The example is a real board at the largest distance: BFS needs exactly that many presses.
    let board = json["example_farthest"].as_str().unwrap();
    let flip = Flip::new(
        Geometry {
            rows: 4,
            cols: 4,
            wrap: false,
        },
        FlipGoal::Uniform,
    );
    let start = flip
        .geometry()
        .parse(&statespace::board_text::BoardText::from_file(
            "x",
            board.into(),
        ))
        .unwrap();
    let Outcome::Solved(path) = bfs::solve_indexed(&flip, start, &Limits::default()).outcome else {
        panic!("unsolvable farthest board")
    };
    assert_eq!(path.len(), counts.len() - 1);
}

#[test]
fn explore_reproduces_the_published_shift_mask_histogram() {
    // The one-colour 8-cell mask space behind the HDU 3278 table.
    let (reachable, counts) = crate::shared_histogram("shift-4x6-one-colour-interior");
    let json = explore_json(&[&config("shift-4x6.toml"), "--threads", "2"]);
    assert_eq!(json["reachable"], reachable);
    assert_eq!(json["space_size"], reachable);
    assert_eq!(json["histogram"], serde_json::json!(counts));
    assert_eq!(json["max_distance"], counts.len() - 1);
    // The farthest example is a mask drawn X/.: 8 cells set.
    let board = json["example_farthest"].as_str().unwrap();
    assert_eq!(board.matches('X').count(), 8, "{board}");
}

#[test]
fn the_text_report_has_the_table_and_the_farthest_board() {
    statespace()
        .args(["explore", &config("flip-4x4.toml")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "reachable: 4,096 of 65,536 states\n",
        ))
        .stdout(predicate::str::contains("       4  1,562\n"))
        .stdout(predicate::str::contains("max distance: 6, e.g.\n"))
        .stdout(predicate::str::contains("peak memory"));
}

/// The histogram of BFS answers over every board of a geometry (unsolvable boards left out).
fn histogram_by_solving_every_board(flip: &Flip) -> Vec<u64> {
    let mut histogram = Vec::new();
    let limits = Limits::default();
    for board in 0..1u64 << flip.geometry().cells() {
        if let Outcome::Solved(path) = bfs::solve_indexed(flip, board, &limits).outcome {
            if histogram.len() <= path.len() {
                histogram.resize(path.len() + 1, 0);
            }
            histogram[path.len()] += 1;
        }
    }
    histogram
}

#[test]
fn explore_agrees_with_solving_every_board() {
    let limits = Limits::default();
    let options = layers::Options {
        limits: &limits,
        threads: Some(1),
    };
    for (rows, cols, wrap, goal) in [
        (2, 3, false, FlipGoal::Uniform),
        (3, 3, false, FlipGoal::AllWhite),
        (2, 4, true, FlipGoal::Uniform),
        (3, 4, false, FlipGoal::AllBlack),
    ] {
        let flip = Flip::new(Geometry { rows, cols, wrap }, goal);
        let sweep = layers::xor_backward(&flip, options, &mut |_, _| {});
        assert_eq!(
            sweep.histogram,
            histogram_by_solving_every_board(&flip),
            "{rows} x {cols} wrap {wrap}"
        );
    }
}

fn goal(cells: u32) -> impl Strategy<Value = FlipGoal> {
    prop_oneof![
        Just(FlipGoal::Uniform),
        Just(FlipGoal::AllWhite),
        (0..1u64 << cells).prop_map(FlipGoal::Pattern),
    ]
}

fn geometry() -> impl Strategy<Value = (Geometry, FlipGoal)> {
    (1..=5u32, 1..=5u32, any::<bool>()).prop_flat_map(|(rows, cols, wrap)| {
        (Just(Geometry { rows, cols, wrap }), goal(rows * cols))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Word-at-a-time, per-state, one thread and three: the same histogram, the same farthest
    /// state, the same largest layer; the same successors generated on the word strategy's
    /// threads (the per-state sweep pulls its late layers, looking at fewer).
    #[test]
    fn every_strategy_and_thread_count_agree((geometry, goal) in geometry()) {
        let flip = Flip::new(geometry, goal);
        let limits = Limits::default();
        let run = |threads: usize, words: bool| {
            let options = layers::Options { limits: &limits, threads: Some(threads) };
            if words {
                layers::xor_backward(&flip, options, &mut |_, _| {})
            } else {
                layers::backward(&flip, options, &mut |_, _| {})
            }
        };
        let reference = run(1, true);
        prop_assert_eq!(reference.stopped.clone(), None);
        for (threads, words) in [(3, true), (1, false), (2, false)] {
            let other = run(threads, words);
            prop_assert_eq!(&other.histogram, &reference.histogram);
            prop_assert_eq!(other.farthest, reference.farthest);
            if words {
                prop_assert_eq!(&other.stats.generated, &reference.stats.generated);
            }
            prop_assert_eq!(&other.stats.peak_frontier, &reference.stats.peak_frontier);
        }
        // Forward from a goal over self-inverse moves is the same sweep.
        let start = flip.goal_boards()[0];
        if flip.goal_boards().len() == 1 {
            let options = layers::Options { limits: &limits, threads: Some(2) };
            let forward = layers::xor_forward(&flip, start, options, &mut |_, _| {});
            prop_assert_eq!(&forward.histogram, &reference.histogram);
        }
    }
}

#[test]
fn plot_writes_an_svg_that_parses() {
    let dir = tempfile::tempdir().unwrap();
    let svg_path = dir.path().join("h.svg");
    statespace()
        .args(["explore", &config("flip-4x4.toml"), "--plot"])
        .arg(&svg_path)
        .assert()
        .code(0);
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let bars = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("bar"))
        .count();
    assert_eq!(bars, 7);
    assert!(svg.contains("Flip 4 x 4, goal uniform: states by distance"));
    assert!(svg.contains("fewest moves to the goal"));
    // Nothing else is left beside it (the temporary file was renamed).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_plot_path_in_a_missing_directory_fails_before_the_run() {
    statespace()
        .args([
            "explore",
            &config("flip-4x4.toml"),
            "--plot",
            "/no/such/dir/h.svg",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("no such directory"));
}

#[test]
fn a_time_limit_stops_a_big_space_fast_with_the_layers_so_far() {
    // 5 x 6: 2^30 boards, 384 MiB of bitsets and seconds of work; the limit ends it first.
    let file = config_file("[puzzle]\nkind = \"flip\"\nrows = 5\ncols = 6\n");
    let started = Instant::now();
    let out = statespace()
        .args([
            "explore",
            file.path().to_str().unwrap(),
            "--time-limit",
            "200ms",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(out.status.code(), Some(4));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["complete"], false);
    assert_eq!(json["limit"], "time limit 200ms reached");
    assert_eq!(json["histogram"][0], 2);
}

#[test]
fn an_8x8_board_is_refused_by_the_memory_check_with_the_figure() {
    let started = Instant::now();
    statespace()
        .args(["explore", &config("flip-8x8.toml")])
        .assert()
        .code(4)
        .stdout(predicate::str::contains(
            "stopped: needs 6.0 EiB of memory, over the budget",
        ))
        .stdout(predicate::str::contains("of 2^64 states"));
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn bad_thread_counts_are_bad_input() {
    statespace()
        .args(["explore", &config("flip-4x4.toml"), "--threads", "0"])
        .assert()
        .code(2)
        .stdout("");
    let file =
        config_file("[puzzle]\nkind = \"flip\"\nrows = 2\ncols = 2\n[search]\nthreads = 0\n");
    let path = file.path().to_str().unwrap().to_string();
    statespace()
        .args(["explore", &path])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{path}:6: search.threads: 0 is out of range (allowed: 1 to 1024)"
        )));
    // The config's thread count is used when the flag is absent.
    let file =
        config_file("[puzzle]\nkind = \"flip\"\nrows = 2\ncols = 2\n[search]\nthreads = 3\n");
    let json = explore_json(&[file.path().to_str().unwrap()]);
    assert_eq!(json["threads"], 3);
    assert_eq!(json["histogram"], serde_json::json!([2, 8, 6]));
}

#[test]
fn a_sweep_that_ends_exactly_at_the_depth_limit_is_complete() {
    // Flip 4 x 4's farthest boards are 6 presses away: a limit of 6 cuts nothing, 5 cuts.
    let json = explore_json(&[&config("flip-4x4.toml"), "--max-depth", "6"]);
    assert_eq!(json["complete"], true);
    assert_eq!(json["reachable"], 4096);
    let out = statespace()
        .args([
            "explore",
            &config("flip-4x4.toml"),
            "--max-depth",
            "5",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["complete"], false);
}

/// Fewest moves from `starts` to every board they reach, counted by distance: a queue over boards
/// as text, with the moves written out here (the brute force of the test below).
fn histogram_by_queue(
    starts: &[&str],
    moves: impl Fn(&[Vec<u8>]) -> Vec<Vec<Vec<u8>>>,
) -> Vec<u64> {
    let grid =
        |text: &str| -> Vec<Vec<u8>> { text.lines().map(|l| l.trim().bytes().collect()).collect() };
    let mut distance = std::collections::HashMap::new();
    let mut queue = std::collections::VecDeque::new();
    for start in starts {
        if distance.insert(grid(start), 0usize).is_none() {
            queue.push_back(grid(start));
        }
    }
    let mut histogram = Vec::new();
    while let Some(board) = queue.pop_front() {
        let d = distance[&board];
        if histogram.len() <= d {
            histogram.resize(d + 1, 0);
        }
        histogram[d] += 1;
        for next in moves(&board) {
            if !distance.contains_key(&next) {
                distance.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    histogram
}

/// Flip: a press turns the cell and its neighbours over.
fn flip_presses(board: &[Vec<u8>]) -> Vec<Vec<Vec<u8>>> {
    let (rows, cols) = (board.len() as i32, board[0].len() as i32);
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let mut next = board.to_vec();
            for (dr, dc) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (y, x) = (r + dr, c + dc);
                if (0..rows).contains(&y) && (0..cols).contains(&x) {
                    let cell = &mut next[y as usize][x as usize];
                    *cell = if *cell == b'b' { b'w' } else { b'b' };
                }
            }
            out.push(next);
        }
    }
    out
}

/// Shift: a row left or right, a column up or down, cyclically.
fn shift_moves(board: &[Vec<u8>]) -> Vec<Vec<Vec<u8>>> {
    let (rows, cols) = (board.len(), board[0].len());
    let mut out = Vec::new();
    for r in 0..rows {
        for k in [1, cols - 1] {
            let mut next = board.to_vec();
            next[r].rotate_left(k);
            out.push(next);
        }
    }
    for c in 0..cols {
        for k in [1, rows - 1] {
            let mut next = board.to_vec();
            for r in 0..rows {
                next[r][c] = board[(r + k) % rows][c];
            }
            out.push(next);
        }
    }
    out
}

#[test]
fn explore_from_the_start_or_the_goals_counts_what_a_brute_force_counts() {
    // Flip 2 x 3: 4 components of 16 boards; this start is not in the goals' component.
    let flip = config_file(
        "[puzzle]\nkind = \"flip\"\nrows = 2\ncols = 3\n[goal]\nkind = \"uniform\"\n\
         [start]\nboard = \"bww\\nwww\"\n",
    );
    let flip = flip.path().to_str().unwrap();
    let from_start = explore_json(&[flip, "--from", "start"]);
    assert_eq!(from_start["direction"], "forward");
    let expected = histogram_by_queue(&["bww\nwww"], flip_presses);
    assert_eq!(from_start["histogram"], serde_json::json!(expected));
    let from_goals = explore_json(&[flip, "--from", "goals"]);
    assert_eq!(from_goals["direction"], "backward");
    let expected = histogram_by_queue(&["www\nwww", "bbb\nbbb"], flip_presses);
    assert_eq!(from_goals["histogram"], serde_json::json!(expected));
    // The default for an invertible puzzle with its goals listed: from the goals.
    assert_eq!(explore_json(&[flip])["histogram"], from_goals["histogram"]);

    // Shift 3 x 3 with a pattern goal: whole boards, no dense index and no goal set. Forward
    // keeps a hash set (also the default, and what `[search] explore_from` says); backward is
    // refused in one line.
    let text = "[puzzle]\nkind = \"shift\"\nrows = 3\ncols = 3\n[goal]\nkind = \"pattern\"\n\
                target = \"BBB\\nWWW\\nGGG\"\n[search]\nexplore_from = \"start\"\n\
                [start]\nboard = \"BWG\\nGBW\\nWGB\"\n";
    let shift = config_file(text);
    let shift = shift.path().to_str().unwrap();
    let json = explore_json(&[shift]);
    assert_eq!(json["strategy"], "hash-set");
    assert_eq!(json["space_size"], serde_json::Value::Null);
    let expected = histogram_by_queue(&["BWG\nGBW\nWGB"], shift_moves);
    assert_eq!(json["histogram"], serde_json::json!(expected));
    statespace()
        .args(["explore", shift, "--from", "goals"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "statespace: error: explore: from goals: Shift 3 x 3, goal pattern cannot be swept \
             backward",
        ))
        .stderr(predicate::function(|e: &str| e.lines().count() == 1));
}

/// `explore ARGS --json`, whatever its exit code; the object.
fn explore_any(args: &[&str]) -> serde_json::Value {
    let out = statespace()
        .arg("explore")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)))
}

/// Depths 0 to `depth` of `space` from `start`, by a BFS with a plain set.
fn brute_layers<P: statespace::space::StateSpace>(
    space: &P,
    start: P::State,
    depth: usize,
) -> Vec<u64> {
    let mut seen = std::collections::HashSet::from([start]);
    let mut layer = vec![start];
    let mut counts = vec![1];
    for _ in 0..depth {
        let mut next = Vec::new();
        for &s in &layer {
            space.successors(s, &mut |_, t| {
                if seen.insert(t) {
                    next.push(t);
                }
            });
        }
        counts.push(next.len() as u64);
        layer = next;
    }
    counts
}

/// A depth limit chooses the visited set (`kit/explore.rs`, `keeps_hash_set`): the 6x6x6 (no
/// dense index) and the 2x2x2 with all six faces (a dense index: 33 MiB of bitsets) count
/// depths 0 to 3 with a hash set, its last layer counted without being stored, as a BFS with a
/// plain set does; without the limit the 2x2x2 sweeps its bitsets, the same first layers.
#[test]
fn shallow_counts_keep_a_hash_set_and_count_as_a_brute_force() {
    use statespace_perm::def::Metric;
    let six = crate::perm::space::<256>(&crate::perm::own("6x6x6.tws"), None, Metric::Htm);
    let json = explore_any(&[&crate::perm::own("6x6x6.tws"), "--max-depth", "3"]);
    assert_eq!(json["strategy"], "hash-set");
    assert_eq!(json["limit"], "depth limit 3 reached");
    assert_eq!(
        json["histogram"],
        serde_json::json!(brute_layers(&six, six.solved(), 3))
    );
    let cube = crate::perm::space::<16>(&crate::perm::own("2x2x2.tws"), None, Metric::Htm);
    let shallow = explore_any(&[&config("perm-2x2x2-all.toml"), "--max-depth", "3"]);
    assert_eq!(shallow["strategy"], "hash-set");
    assert_eq!(shallow["histogram"], serde_json::json!([1, 18, 243, 2874]));
    assert_eq!(
        shallow["histogram"],
        serde_json::json!(brute_layers(&cube, cube.solved(), 3))
    );
    let whole = explore_json(&[&config("perm-2x2x2-all.toml")]);
    assert_eq!(whole["strategy"], "block-at-a-time");
    assert_eq!(
        whole["histogram"].as_array().unwrap()[..4],
        shallow["histogram"].as_array().unwrap()[..]
    );
}
