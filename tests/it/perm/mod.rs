//! The permutation-puzzle plugin (`kind = "perm"`): whole-space distance tables against the
//! published ones, on the project's own definitions (configs/defs: the 2x2x2 in both metrics and
//! both formats, the Skewb, the Pyraminx with and without tips, LoopOver 3x3, look-alike tiles, the
//! 6x6x6 past 128 bytes of state: its neighbourhood and a short optimal solve), the
//! dense index as a bijection, bfs / iddfs / table agreeing on random scrambles with paths
//! replayed by the model alone, the invariants, the CLI's output, and every class of bad
//! definition (exit 2, one line naming the file and the line or JSON path). Here the spaces, their
//! tables and the helpers every part uses; pattern databases in `patterns.rs`, the pruning table
//! and the heuristic kinds in `heuristics.rs`, definitions as users write them (rules, setups,
//! files, big cubes) in `definitions.rs`.

use crate::config;
use crate::run_statespace as run;
use statespace::board_text::BoardText;
use statespace::config::{Config, Mode};
use statespace::error::Error;
use statespace::instance::{Answer, Exploration, ExploreOptions, Instance};
use statespace::limit::{Limit, Limits};
use statespace::options::SearchOptions;
use statespace::random::Lcg;
use statespace::search::pdb::Abstraction;
use statespace::search::{Outcome, idastar, layers, table};
use statespace::setup::Setup;
use statespace::space::{
    BoardFormat, FlipSplit, Heuristic, Indexed, Invariant, SplitMoves, StateSpace, replay,
};
use statespace_perm::def::Metric;
use statespace_perm::heuristic::{self, MAX_PATTERN_STATES, auto_pieces};
use statespace_perm::plugin::read_definition;
use statespace_perm::{Packed, Pattern, PermSpace, tws};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

mod definitions;
mod heuristics;
mod patterns;

/// The project's own definition `configs/defs/NAME`, as an absolute path.
pub fn own(name: &str) -> String {
    PathBuf::from(crate::ROOT)
        .join("configs/defs")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// An instance of `definition` (an absolute path) with `extra` `[puzzle]` lines.
pub fn instance(definition: &str, extra: &str) -> Instance {
    let text = format!("[puzzle]\nkind = \"perm\"\ndefinition = \"{definition}\"\n{extra}\n");
    crate::registry()
        .build(
            &Config::parse("/test.toml", &text).unwrap(),
            &Limits::default(),
        )
        .unwrap()
}

/// The distance histogram of the whole space around the solved state, and the index's size.
pub fn histogram(definition: &str, extra: &str) -> (Vec<u64>, u128) {
    let inst = instance(definition, extra);
    let e = inst
        .explore(None, &ExploreOptions::default(), &mut |_, _| {})
        .unwrap();
    assert!(e.stopped.is_none());
    (e.histogram, e.space_size)
}

pub const UFR: &str = "moves = [\"U\", \"F\", \"R\"]";

/// The 2x2x2 with U, F, R in the half-turn metric (e.g. Jaap's puzzle page).
pub const HTM_2X2X2: [u64; 12] = [
    1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
];
/// And in the quarter-turn metric.
pub const QTM_2X2X2: [u64; 15] = [
    1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276,
];

/// The Skewb around a fixed corner by distance in its four corner turns (Jaap's puzzle page).
pub const SKEWB: [u64; 12] = [
    1, 8, 48, 288, 1728, 10248, 59304, 315198, 1225483, 1455856, 81028, 90,
];

#[test]
fn perm_2x2x2_from_the_projects_own_definitions_in_both_formats() {
    let (h, size) = histogram(&own("2x2x2.tws"), UFR);
    assert_eq!(h, HTM_2X2X2);
    assert_eq!(h.iter().sum::<u64>(), 3_674_160);
    // The index is exact: one fixed corner, the last twist determined.
    assert_eq!(size, 3_674_160);
    let (h, _) = histogram(&own("2x2x2.tws"), &format!("{UFR}\nmetric = \"qtm\""));
    assert_eq!(h, QTM_2X2X2);
    let (h, _) = histogram(&own("2x2x2.json"), UFR);
    assert_eq!(h, HTM_2X2X2);
}

#[test]
fn perm_skewb_around_a_fixed_corner_has_3149280_positions_and_gods_number_11() {
    let (h, size) = histogram(&own("skewb.tws"), "");
    assert_eq!(h, SKEWB);
    assert_eq!(h.iter().sum::<u64>(), 3_149_280);
    // The index does not see the Skewb's twist invariant: 9 times too many (module docs).
    assert_eq!(size, 9 * 3_149_280);
}

#[test]
fn perm_loopover_pyraminx_and_look_alike_tiles_have_their_sizes() {
    let (h, size) = histogram(&own("loopover-3x3.tws"), "");
    assert_eq!(h.iter().sum::<u64>(), 181_440);
    assert_eq!(size, 181_440, "the even half");
    assert_eq!(h.len() - 1, 8);
    let (h, size) = histogram(&own("pyraminx.tws"), "");
    assert_eq!(h.iter().sum::<u64>(), 933_120);
    assert_eq!(size, 933_120, "even edges, flip sum, free centres");
    assert_eq!(h.len() - 1, 11);
    let (h, size) = histogram(&own("loopover-3x3-rows.tws"), "");
    assert_eq!(h.iter().sum::<u64>(), 1_680);
    assert_eq!(size, 1_680);
    // Pyraminx tips alone: 3^4, each tip its own class, one turn from solved at most.
    let (h, size) = histogram(
        &own("pyraminx-tips.tws"),
        "moves = [\"u\", \"l\", \"r\", \"b\"]",
    );
    assert_eq!(h, [1, 8, 24, 32, 16]);
    assert_eq!(size, 81);
    // The rings: every arrangement of the colours, 10! / (4! 4! 2!).
    let (h, size) = histogram(&own("rings.tws"), "");
    assert_eq!((h.iter().sum::<u64>(), size), (3_150, 3_150));
}

/// The space of `definition` with `moves`, over `N`-byte states.
pub fn space<const N: usize>(
    definition: &str,
    moves: Option<&[&str]>,
    metric: Metric,
) -> PermSpace<N> {
    let def = read_definition(Path::new(definition), &mut Setup::default()).unwrap();
    let names: Option<Vec<String>> = moves.map(|m| m.iter().map(|s| s.to_string()).collect());
    let at = statespace::error::Location::file("test");
    let mut setup = Setup::default();
    let powers = def
        .generators(names.as_deref(), metric, &at, &mut setup)
        .unwrap();
    PermSpace::new(def, &powers, metric == Metric::Qtm, &mut setup).unwrap()
}

/// The block sweep (two move tables) against the per-state sweep: the same histogram and
/// farthest state on puzzles with twists (the 2x2x2, cut before its twists; the Pyraminx) and
/// without (Wheels: cut between its classes of places, 20 * 30 rim and hub places times 24 * 12
/// key places; LoopOver, one class: blocks of one state; Parity pair, whose two classes share a
/// parity and so are never cut apart: state by state), on one thread and two. (The Skewb, whose
/// index over-counts 9 times, is checked against its published table above.)
#[test]
fn perm_block_sweep_equals_the_per_state_sweep() {
    // The low part's size `L` expected, 0 for not checked.
    let cases: [(String, Option<&[&str]>, Metric, u64); 5] = [
        (own("2x2x2.tws"), Some(&["U", "F", "R"]), Metric::Htm, 729),
        (own("pyraminx.tws"), None, Metric::Htm, 0),
        (own("loopover-3x3.tws"), None, Metric::Htm, 1),
        (own("wheels.tws"), None, Metric::Htm, 24 * 12),
        (own("parity-pair.tws"), None, Metric::Htm, 1),
    ];
    let limits = Limits::default();
    for (name, moves, metric, expected_low) in cases {
        let space = space::<32>(&name, moves, metric);
        let low = space
            .low_count()
            .expect("perm spaces without Illegal rules split");
        if expected_low > 0 {
            assert_eq!(low, expected_low, "{name}");
        }
        let one = layers::Options {
            limits: &limits,
            threads: Some(1),
        };
        let per_state = layers::backward(&space, one, &mut |_, _| {});
        for threads in [1, 2] {
            let options = layers::Options {
                limits: &limits,
                threads: Some(threads),
            };
            let split = layers::split_backward(&space, options, &mut |_, _| {});
            assert_eq!(
                split.histogram, per_state.histogram,
                "{name}, {threads} threads"
            );
            assert_eq!(split.farthest, per_state.farthest, "{name}");
            // Blocks of one state (no twists) are swept state by state: no tables.
            let tables = split.memory_bytes > per_state.memory_bytes;
            assert_eq!(tables, low > 1, "{name}");
        }
    }
    // The quarter-turn metric and the KPuzzle reading, against the published table.
    let qtm = space::<32>(&own("2x2x2.json"), Some(&["U", "F", "R"]), Metric::Qtm);
    let options = layers::Options {
        limits: &limits,
        threads: Some(2),
    };
    let split = layers::split_backward(&qtm, options, &mut |_, _| {});
    assert_eq!(split.histogram, QTM_2X2X2);
    // Square-1's Illegal rules block moves: its index does not split.
    let square1 = space::<64>(&own("square1.tws"), None, Metric::Htm);
    assert_eq!(square1.low_count(), None);
}

/// `table::build_split` (the block sweep writing each layer) equals the plain level-scan build
/// entry for entry, in both codings.
#[test]
fn perm_split_table_equals_the_plain_table_entry_for_entry() {
    use statespace::search::table::Width;
    let limits = Limits::default();
    let cases: [(String, Option<&[&str]>); 3] = [
        (own("2x2x2.tws"), Some(&["U", "F", "R"])),
        (own("pyraminx.tws"), None),
        (own("loopover-3x3.tws"), None),
    ];
    for (name, moves) in cases {
        let space = space::<32>(&name, moves, Metric::Htm);
        // Mod 3 on the small ones (the 2x2x2's plain build is seconds of a test run).
        let widths = if space.size() > 1 << 20 {
            &[Width::Exact][..]
        } else {
            &[Width::Exact, Width::Mod3][..]
        };
        for &width in widths {
            let plain = table::build_with(&space, &limits, width).unwrap();
            let split = table::build_split_with(&space, &limits, width).unwrap();
            assert_eq!(split.histogram(), plain.histogram(), "{name}");
            assert_eq!(split.bits_per_entry(), plain.bits_per_entry(), "{name}");
            assert_eq!(split.stats().visited, plain.stats().visited, "{name}");
            for i in 0..space.size() as u64 {
                assert_eq!(split.code(i), plain.code(i), "{name}: index {i}");
            }
        }
    }
}

#[test]
fn perm_index_is_a_bijection_on_the_states_it_covers() {
    let cases: [(&str, Option<&[&str]>); 3] = [
        ("2x2x2.tws", Some(&["U", "F", "R"])),
        ("loopover-3x3.tws", None),
        ("loopover-3x3-rows.tws", None),
    ];
    let mut rng = Lcg(3);
    for (name, moves) in cases {
        let space = space::<16>(&own(name), moves, Metric::Htm);
        let size = space.size() as u64;
        for _ in 0..2000 {
            let i = rng.below(size as usize) as u64;
            let s = space.state(i);
            assert_eq!(space.index(s), i, "{name}");
            assert_eq!(space.unsolvable_by(s), None, "{name}: index {i}");
        }
        // Random walks from solved: every state indexes and comes back.
        let mut s = space.solved();
        for _ in 0..2000 {
            let m = space.moves()[rng.below(space.moves().len())];
            s = space.apply(s, m);
            let i = space.index(s);
            assert!(u128::from(i) < space.size());
            assert_eq!(space.state(i), s, "{name}");
        }
    }
    // The 3x3x3's joint parity: corners and edges swap together.
    let cube = space::<64>(&own("3x3x3.tws"), None, Metric::Htm);
    assert!(!cube.indexable(), "43 quintillion positions");
    let mut s = cube.solved();
    s.0[0..2].swap(0, 1); // two corners swapped: odd corners, even edges
    assert_eq!(cube.unsolvable_by(s), Some("parity"));
    let mut s = cube.solved();
    s.0[8] = 1; // one corner twisted
    assert_eq!(cube.unsolvable_by(s), Some("orientation"));
}

/// Replays `moves` (power names) from solved through the model alone (composition of the
/// definition's transforms, no packed bytes) and returns the state text.
fn model_replay(definition: &str, start: &str, moves: &[String]) -> String {
    let def = read_definition(Path::new(definition), &mut Setup::default()).unwrap();
    let at = statespace::error::Location::file("test");
    let mut state = def.parse_state(start, &at).unwrap();
    let turns = def.parse_sequence(&moves.join(" "), &at).unwrap();
    state = state.apply(&def.sequence_transform(&turns), &def.orbits);
    def.format_state(&state)
}

#[test]
fn perm_bfs_iddfs_and_table_agree_on_random_scrambles() {
    let ufr: &[&str] = &["U", "F", "R"];
    let qtm = format!("{UFR}\nmetric = \"qtm\"");
    let cases = [
        (own("2x2x2.tws"), UFR, Some(ufr), 7, 6),
        (own("loopover-3x3.tws"), "", None, 7, 5),
        (own("skewb.tws"), "", None, 6, 2),
        (own("2x2x2.json"), qtm.as_str(), Some(ufr), 6, 3),
    ];
    let mut rng = Lcg(11);
    for (def, extra, generators, length, count) in cases {
        let inst = instance(&def, extra);
        let space = space::<32>(&def, generators, Metric::Htm);
        let names: Vec<String> = space.moves().iter().map(|m| m.to_string()).collect();
        for _ in 0..count {
            let scramble: Vec<&str> = (0..length)
                .map(|_| names[rng.below(names.len())].as_str())
                .collect();
            let mut board = BoardText::from_file("scramble", scramble.join(" "));
            board.scramble = true;
            let mut answers = Vec::new();
            for mode in [Mode::BFS, Mode::IDDFS, Mode::TABLE] {
                let solution = inst
                    .solve(&board, mode, &Limits::default(), &SearchOptions::default())
                    .unwrap();
                let Answer::Solved { moves, boards } = &solution.answer else {
                    panic!("{def} {scramble:?} {mode}: {:?}", solution.answer)
                };
                // The path ends solved by the model's own composition.
                let end = model_replay(&def, &solution.start, moves);
                assert_eq!(Some(&end), boards.last().or(Some(&solution.start)));
                let def_model = read_definition(Path::new(&def), &mut Setup::default()).unwrap();
                assert_eq!(end, def_model.format_state(&def_model.solved), "{mode}");
                answers.push(moves.len());
            }
            assert!(
                answers.iter().all(|&a| a == answers[0]),
                "{def} {scramble:?}: {answers:?}"
            );
            // Half turns of the scramble count two in the quarter-turn metric.
            assert!(answers[0] <= 2 * length);
        }
    }
}

#[test]
fn perm_invariants_prove_boards_unsolvable_at_once() {
    let inst = instance(&own("loopover-3x3.tws"), "");
    let board = BoardText::from_file("b", "TILES 1 0 2 3 4 5 6 7 8".into());
    let solution = inst
        .solve(
            &board,
            Mode::BFS,
            &Limits::default(),
            &SearchOptions::default(),
        )
        .unwrap();
    assert!(matches!(solution.answer, Answer::Unsolvable));
    assert_eq!(solution.stats.expanded, 0);
    let inst = instance(&own("2x2x2.tws"), UFR);
    // The corner U, F, R never touch (slot 7: down-back-left) moved: "pieces".
    let board = BoardText::from_file("b", "CORNERS 0 1 2 3 4 5 7 6 / 0 0 0 0 0 0 0 0".into());
    let solution = inst
        .solve(
            &board,
            Mode::TABLE,
            &Limits::default(),
            &SearchOptions::default(),
        )
        .unwrap();
    assert!(matches!(solution.answer, Answer::Unsolvable));
    let board = BoardText::from_file("b", "CORNERS 0 1 2 3 4 5 6 7 / 1 0 0 0 0 0 0 0".into());
    let solution = inst
        .solve(
            &board,
            Mode::IDDFS,
            &Limits::default(),
            &SearchOptions::default(),
        )
        .unwrap();
    assert!(matches!(solution.answer, Answer::Unsolvable));
    // A scramble with a move outside the generators that leaves the group: L moves that corner.
    let mut board = BoardText::from_file("s", "L".into());
    board.scramble = true;
    let solution = inst
        .solve(
            &board,
            Mode::BFS,
            &Limits::default(),
            &SearchOptions::default(),
        )
        .unwrap();
    assert!(matches!(solution.answer, Answer::Unsolvable));
}

#[test]
fn perm_solve_prints_moves_in_the_definitions_notation() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    std::fs::write(
        &cfg,
        format!(
            "[puzzle]\nkind = \"perm\"\ndefinition = \"{}\"\n{UFR}\n[start]\nscramble = \"R U2 F'\"\n",
            own("2x2x2.tws")
        ),
    )
    .unwrap();
    let (code, out, err) = run(&["solve", cfg.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["moves"], 3);
    assert_eq!(json["path"], serde_json::json!(["F", "U2", "R'"]));
    // Every shipped config solves, fast.
    for name in [
        "perm-2x2x2.toml",
        "perm-2x2x2-qtm.toml",
        "perm-2x2x2-all.toml",
        "perm-skewb.toml",
        "perm-pyraminx.toml",
        "perm-loopover-3x3.toml",
        "perm-loopover-4x4.toml",
        "perm-loopover-rows.toml",
        "perm-3x3x3.toml",
    ] {
        let (code, out, err) = run(&["solve", &config(name)]);
        assert_eq!(code, 0, "{name}: {out}{err}");
        assert!(
            out.contains(" moves") || out.starts_with("0 moves"),
            "{name}: {out}"
        );
    }
    // Every face: the block sweep through the CLI, twsearch's God's-number count.
    let (code, out, err) = run(&["explore", &config("perm-2x2x2-all.toml")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("reachable: 88,179,840 of 88,179,840 states"),
        "{out}"
    );
    assert!(
        out.contains("block-at-a-time") && out.contains("max distance: 11"),
        "{out}"
    );
    let (code, out, err) = run(&["explore", &config("perm-loopover-3x3.toml")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("reachable: 181,440 of 181,440 states"),
        "{out}"
    );
    let (code, out, err) = run(&[
        "export",
        &config("perm-loopover-rows.toml"),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let graph: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(graph.to_string().contains("TILES 1 0 0 0 1 1 2 2 2"));
}

/// Runs `solve` on a config in a fresh directory next to a definition file `def_name` with
/// `def_text`; returns (exit code, stderr).
fn bad(def_name: &str, def_text: &str, extra: &str) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(def_name), def_text).unwrap();
    let cfg = dir.path().join("c.toml");
    std::fs::write(
        &cfg,
        format!("[puzzle]\nkind = \"perm\"\ndefinition = \"{def_name}\"\n{extra}\n[start]\nscramble = \"\"\n"),
    )
    .unwrap();
    let (code, _, err) = run(&["solve", cfg.to_str().unwrap()]);
    (code, err)
}

const GOOD: &str = "Name T\nSet A 3 2\nSolved\nA\n1 2 3\nEnd\nMove X\nA\n2 3 1\n1 1 0\nEnd\n";

#[test]
fn perm_definitions_may_start_with_a_byte_order_mark() {
    // Both formats, through the CLI: the mark some editors write is skipped, not a keyword.
    let (code, err) = bad("t.tws", &format!("\u{feff}{GOOD}"), "");
    assert_eq!((code, err.as_str()), (0, ""));
    let json = r#"{"name": "T", "orbits": [{"orbitName": "A", "numPieces": 2, "numOrientations": 1}],
      "defaultPattern": {"A": {"pieces": [0, 1], "orientation": [0, 0]}},
      "moves": {"X": {"A": {"permutation": [1, 0], "orientationDelta": [0, 0]}}}}"#;
    let (code, err) = bad("t.json", &format!("\u{feff}{json}"), "");
    assert_eq!((code, err.as_str()), (0, ""));
}

#[test]
fn perm_bad_definitions_get_exit_2_and_one_line_with_the_place() {
    let (code, err) = bad("t.tws", GOOD, "");
    assert_eq!((code, err.as_str()), (0, ""), "the good one solves");
    let cases = [
        // A move that is not a permutation.
        (
            GOOD.replace("2 3 1\n", "2 2 1\n"),
            "t.tws:9: move X: 2 is repeated in the permutation",
        ),
        // An orientation out of range.
        (
            GOOD.replace("1 1 0\n", "1 2 0\n"),
            "t.tws:10: move X: orientation 2 is out of range 0..1",
        ),
        // An unknown set.
        (
            GOOD.replace("Move X\nA\n", "Move X\nB\n"),
            "t.tws:8: move X: unknown set \"B\"",
        ),
        // An unknown move in a sequence.
        (
            format!("{GOOD}MoveSequence Y X Z2\n"),
            "t.tws:12: move sequence Y: unknown move \"Z2\"",
        ),
    ];
    for (text, wanted) in cases {
        let (code, err) = bad("t.tws", &text, "");
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(wanted), "{err} lacks {wanted}");
    }
    // A `moves` entry the file lacks: the config's line.
    let (code, err) = bad("t.tws", GOOD, "moves = [\"X\", \"Q\"]");
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1);
    assert!(
        err.contains("c.toml:4: puzzle.moves: unknown move \"Q\" (the moves are X)"),
        "{err}"
    );
    // A KPuzzle whose orbit names disagree between the orbits and a move.
    let json = r#"{"name": "T", "orbits": [{"orbitName": "A", "numPieces": 2, "numOrientations": 1}],
      "defaultPattern": {"A": {"pieces": [0, 1], "orientation": [0, 0]}},
      "moves": {"X": {"B": {"permutation": [1, 0], "orientationDelta": [0, 0]}}}}"#;
    let (code, err) = bad("t.json", json, "");
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1);
    assert!(
        err.contains("t.json: moves.X.B: unknown orbit (the orbits are A)"),
        "{err}"
    );
    // A missing file, an unknown metric, a missing key.
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    std::fs::write(
        &cfg,
        "[puzzle]\nkind = \"perm\"\ndefinition = \"none.tws\"\n",
    )
    .unwrap();
    let (code, _, err) = run(&["solve", cfg.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("none.tws"), "{err}");
    let (code, err) = bad("t.tws", GOOD, "metric = \"ftm\"");
    assert_eq!(code, 2);
    assert!(
        err.contains("c.toml:4: puzzle.metric: unknown metric"),
        "{err}"
    );
    let cfg = dir.path().join("d.toml");
    std::fs::write(&cfg, "[puzzle]\nkind = \"perm\"\n").unwrap();
    let (code, _, err) = run(&["solve", cfg.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("puzzle.definition: missing"), "{err}");
}

#[test]
fn perm_state_text_and_scrambles_round_trip() {
    let space = space::<16>(&own("2x2x2.tws"), Some(&["U", "F", "R"]), Metric::Htm);
    use statespace::space::BoardFormat;
    let mut board = BoardText::from_file("s", "R U R' F2".into());
    board.scramble = true;
    let s = space.read(&board, &mut Setup::default()).unwrap();
    let text = space.format(s);
    assert!(text.starts_with("CORNERS "), "{text}");
    assert_eq!(space.parse(&BoardText::from_file("b", text)).unwrap(), s);
    let mut replayed = space.solved();
    for name in ["R", "U", "R'", "F2"] {
        replayed = space.apply(replayed, space.move_named(name).unwrap());
    }
    assert_eq!(replayed, s);
    // Canonical order: no two turns of one generator in a row.
    let r = space.move_named("R").unwrap();
    let r2 = space.move_named("R2").unwrap();
    assert!(!space.may_follow(r, r2));
    assert!(space.may_follow(r, space.move_named("U").unwrap()));
    let mut bad = BoardText::from_file("s", "R Q".into());
    bad.scramble = true;
    let e = space.read(&bad, &mut Setup::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "s:1: unknown move \"Q\" (token 2 of \"R Q\")"
    );
    // `#` starts a comment that runs to the end of its line, as in a .tws file.
    let mut commented = BoardText::from_file("s", "R U # R R R\n\n# F\nR' F2#U".into());
    commented.scramble = true;
    assert_eq!(space.read(&commented, &mut Setup::default()).unwrap(), s);
    // An unknown token is named by its line, and quoted by its start however long it is.
    let q = "Q".repeat(1000);
    let mut long = BoardText::from_file("s", format!("R # Q\nU {q}"));
    long.scramble = true;
    let e = space.read(&long, &mut Setup::default()).unwrap_err();
    let (q40, line40) = (&q[..40], format!("U {}", &q[..38]));
    assert_eq!(
        e.to_string(),
        format!(
            "s:2: unknown move \"{q40}…\" (1000 bytes) (token 2 of \"{line40}…\" (1002 bytes))"
        )
    );
    // Applying a scramble is work under the run's limits: a spent clock stops it at its line.
    let spent = Limits {
        time_limit: Some(std::time::Duration::from_nanos(1)),
        ..Limits::default()
    };
    let mut setup = Setup::new(&spent);
    std::thread::sleep(std::time::Duration::from_millis(1));
    let e = space.read(&board, &mut setup).unwrap_err();
    assert_eq!(e.to_string(), "s:1: time limit 1ns reached");
}

/// Random states of `space`: random walks of `length` moves from solved.
fn walks<const N: usize>(
    space: &PermSpace<N>,
    rng: &mut Lcg,
    count: usize,
    length: usize,
) -> Vec<Packed<N>> {
    (0..count)
        .map(|_| {
            (0..length).fold(space.solved(), |s, _| {
                space.apply(s, space.moves()[rng.below(space.moves().len())])
            })
        })
        .collect()
}

/// The patterns `auto_pieces` picks at `max_states`, as abstractions.
fn patterns<const N: usize>(space: &PermSpace<N>, max_states: u64) -> Vec<Pattern> {
    auto_pieces(space, max_states)
        .iter()
        .map(|pieces| Pattern::new(space, pieces).unwrap())
        .collect()
}

/// The positions within `depth` moves of `definition`'s solved state: `explore` from a start of
/// no moves, forward.
pub fn near(definition: &str, depth: u32) -> Exploration {
    let inst = instance(definition, "");
    let mut solved = BoardText::from_file("scramble", String::new());
    solved.scramble = true;
    let options = ExploreOptions {
        limits: Limits {
            max_depth: Some(depth),
            ..Limits::default()
        },
        ..ExploreOptions::default()
    };
    inst.explore(Some(&solved), &options, &mut |_, _| {})
        .unwrap()
}
