//! The permutation-puzzle plugin (`kind = "perm"`): whole-space distance tables against the
//! published ones, on the project's own definitions (configs/defs: the 2x2x2 in both metrics and
//! both formats, the Skewb, the Pyraminx with and without tips, LoopOver 3x3, look-alike tiles, the
//! 6x6x6 past 128 bytes of state: its neighbourhood and a short optimal solve), the
//! dense index as a bijection, bfs / iddfs / table agreeing on random scrambles with paths
//! replayed by the model alone, the invariants, the CLI's output, and every class of bad
//! definition (exit 2, one line naming the file and the line or JSON path).

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

#[test]
fn perm_pattern_databases_are_admissible_and_ida_agrees_with_the_table() {
    use statespace::search::table::Width;
    let ufr: &[&str] = &["U", "F", "R"];
    // (definition, moves, the largest pattern, how many patterns that makes)
    let cases: [(String, Option<&[&str]>, u64, usize); 5] = [
        // Corners in groups of 3, 3 and 1.
        (own("2x2x2.tws"), Some(ufr), 20_000, 3),
        (own("skewb.tws"), None, 50_000, 3),
        (own("pyraminx.tws"), None, 20_000, 2),
        // Tiles in groups of 4, 4 and 1.
        (own("loopover-3x3.tws"), None, 5_000, 3),
        // The default: one pattern over the seven corners, the whole puzzle.
        (own("2x2x2.tws"), Some(ufr), MAX_PATTERN_STATES, 1),
    ];
    let mut rng = Lcg(5);
    let mut split_builds = 0;
    for (def, moves, max_states, count) in cases {
        let space = space::<32>(&def, moves, Metric::Htm);
        let table = table::build(&space, &Limits::default()).unwrap();
        let patterns = patterns(&space, max_states);
        assert_eq!(patterns.len(), count, "{def}");
        for p in &patterns {
            assert!(p.size() <= u128::from(max_states), "{def}: {}", p.name());
            // The abstract index is a bijection, and projections land inside it.
            for _ in 0..500 {
                let i = rng.below(p.size() as usize) as u64;
                assert_eq!(p.index(p.state(i)), i, "{def}: {}", p.name());
            }
            assert!(p.is_goal(p.placement(&space.solved().0)));
            // The search's projection (masked reads, one pass) is the placement's index.
            for s in walks(&space, &mut rng, 200, 30) {
                let projected = Abstraction::<PermSpace<32>>::project(p, &space, s);
                assert_eq!(projected, p.index(p.placement(&s.0)), "{def}");
            }
            // A pattern ending in a whole twisted class (twists by slot) is built block by
            // block: the same table as the level scans'.
            if p.low_count().is_some() || p.flip_bits().is_some() {
                split_builds += 1;
                let plain = table::build_with(p, &Limits::default(), Width::Exact).unwrap();
                let split = Abstraction::<PermSpace<32>>::build_table(p, &Limits::default());
                let split = split.unwrap();
                assert_eq!(split.histogram(), plain.histogram(), "{def}: {}", p.name());
                for i in 0..p.size() as u64 {
                    assert_eq!(split.code(i), plain.code(i), "{def}: {}", p.name());
                }
            }
        }
        let exact = count == 1;
        let h = heuristic::heuristic::<32>(patterns, &Limits::default(), None).unwrap();
        for s in walks(&space, &mut rng, 300, 40) {
            let d = table.distance(&space, s).unwrap().unwrap();
            let e = h.estimate(&space, s);
            assert!(e <= d, "{def}: estimate {e} over the distance {d}");
            if exact {
                assert_eq!(e, d, "{def}: the whole puzzle's pattern is exact");
            }
            // IDA*'s bounded estimate: exact below the limit, between it and the estimate above.
            for limit in 0..=e + 1 {
                let b = h.estimate_below(&space, s, limit);
                assert!(if e < limit {
                    b == e
                } else {
                    (limit..=e).contains(&b)
                });
            }
        }
        assert_eq!(h.estimate(&space, space.solved()), 0);
        for start in walks(&space, &mut rng, 8, 12) {
            let report = idastar::solve(
                &space,
                &h,
                start,
                &Limits::default(),
                &SearchOptions::default(),
            );
            let Outcome::Solved(path) = report.outcome else {
                panic!("{def}: {:?}", report.outcome)
            };
            assert_eq!(
                path.len() as u32,
                table.distance(&space, start).unwrap().unwrap(),
                "{def}"
            );
            let end = replay(&space, start, &path.moves()).unwrap();
            assert!(space.is_goal(end));
        }
    }
    assert!(
        split_builds >= 4,
        "the 2x2x2's and the Pyraminx's whole classes split, the Pyraminx's edge groups flip"
    );
}

/// A puzzle of eight flipping pieces: three four-cycles that overlap, each flipping two pieces
/// (small enough for a whole table, with flips enough for blocks of flips).
fn eight_flipping_edges() -> PermSpace<64> {
    let eight = "Name eight\nSet EDGES 8 2\nSolved\nEDGES\n1 2 3 4 5 6 7 8\nEnd\n\
        Move A\nEDGES\n2 3 4 1 5 6 7 8\n1 0 0 1 0 0 0 0\nEnd\n\
        Move B\nEDGES\n1 2 4 5 6 3 7 8\n0 0 1 0 0 1 0 0\nEnd\n\
        Move C\nEDGES\n1 2 3 4 6 7 8 5\n0 0 0 0 1 0 1 0\nEnd\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eight.tws");
    std::fs::write(&path, eight).unwrap();
    space::<64>(path.to_str().unwrap(), None, Metric::Htm)
}

/// Patterns of some of a class's flipping pieces are built a block of flips at a time
/// (`FlipSplit`): the same entries as the level scans', for blocks narrower than a word (the
/// 3x3x3's edges in ones to fours), one word (six of eight) and two words (seven of eight).
#[test]
fn perm_flip_blocks_build_the_tables_the_level_scans_do() {
    use statespace::search::table::Width;
    let eight = eight_flipping_edges();
    let cube = space::<64>(&own("3x3x3.tws"), None, Metric::Htm);
    let edges = |space: &PermSpace<64>, k: u8| {
        // The class of the most slots: the cube's edges, the eight's only one.
        let layout = space.layout();
        let class = (0..layout.classes())
            .max_by_key(|&c| layout.class(c).labels.len())
            .unwrap();
        Pattern::new(space, &[(class, (0..k).collect())]).unwrap()
    };
    let cases = [
        (&cube, 1),
        (&cube, 2),
        (&cube, 3),
        (&cube, 4),
        (&eight, 6),
        (&eight, 7),
    ];
    for (space, k) in cases {
        let p = edges(space, k);
        assert_eq!(p.flip_bits(), Some(u32::from(k)), "{}", p.name());
        let plain = table::build_with(&p, &Limits::default(), Width::Exact).unwrap();
        let flips = Abstraction::<PermSpace<64>>::build_table(&p, &Limits::default()).unwrap();
        assert_eq!(flips.histogram(), plain.histogram(), "{}", p.name());
        assert!(plain.histogram().len() > 3, "{}", p.name());
        for i in 0..p.size() as u64 {
            assert_eq!(flips.code(i), plain.code(i), "{}: entry {i}", p.name());
        }
    }
}

/// Twist patterns (`Pattern::twists`: the twist in every slot, and where some pieces are as a
/// set): a move of the puzzle is a move of the pattern (the projection of `s · m` is the
/// placement's `m`-th successor), the index is a bijection, the block build equals the level
/// scans', the estimates never pass the true distance (the whole table of an eight-edge puzzle
/// with two alike edges), and IDA* over them finds the table's lengths.
#[test]
fn perm_twist_patterns_move_with_the_puzzle_and_are_admissible() {
    use statespace::search::table::Width;
    let eight = eight_flipping_edges();
    let mut rng = Lcg(23);
    // Pieces 5 and 8, alike: where they are as a pair, and the eight flips.
    let p = Pattern::twists(&eight, &[(0, vec![4, 7])]).unwrap();
    assert_eq!(p.name(), "EDGES twists and {5,8}");
    // The flips' sum is even (each move flips two): 2^7 flips times C(8, 2) pairs.
    assert_eq!(p.size(), 128 * 28);
    commutes_with_the_moves(&eight, &p, &mut rng);
    assert!(p.low_count().is_some(), "the flips are the low digits");
    let plain = table::build_with(&p, &Limits::default(), Width::Exact).unwrap();
    let split = Abstraction::<PermSpace<64>>::build_table(&p, &Limits::default()).unwrap();
    assert_eq!(split.histogram(), plain.histogram());
    for i in 0..p.size() as u64 {
        assert_eq!(split.code(i), plain.code(i), "entry {i}");
    }
    let whole = table::build(&eight, &Limits::default()).unwrap();
    let h = heuristic::heuristic::<64>(vec![p], &Limits::default(), None).unwrap();
    let mut deepest = 0;
    for s in walks(&eight, &mut rng, 2000, 30) {
        let (d, e) = (
            whole.distance(&eight, s).unwrap().unwrap(),
            h.estimate(&eight, s),
        );
        assert!(e <= d, "estimate {e} over the distance {d}");
        deepest = deepest.max(e);
    }
    assert!(deepest >= 5, "the pattern estimates something: {deepest}");
    ida_finds_the_table_lengths(&eight, &h, &whole, &mut rng);

    // The 3x3x3's twists and middle-layer edges: Kociemba's first-phase coordinates, looked up
    // along the three axes (the rotations that read the other two slices' edges).
    let cube = space::<64>(&own("3x3x3-rotations.tws"), None, Metric::Htm);
    let edges = (0..cube.layout().classes())
        .find(|&c| cube.layout().class(c).labels.len() == 12)
        .unwrap();
    let p = Pattern::twists(&cube, &[(edges, vec![8, 9, 10, 11])]).unwrap();
    assert_eq!(p.size(), 2_217_093_120);
    assert_eq!(p.name(), "CORNERS twists + EDGES twists and {9,10,11,12}");
    commutes_with_the_moves(&cube, &p, &mut rng);
    assert_eq!(p.flip_bits(), None);
    // The two-piece pattern of the first test told apart, against alike: 2 * 28 pairs.
    let apart = Pattern::new(&eight, &[(0, vec![4, 7])]).unwrap();
    assert_eq!(apart.size(), 4 * 56);
}

/// The projection of every successor of states of `space` is the matching successor of the
/// state's placement in `pattern`; random indices round-trip; the solved state is the goal.
fn commutes_with_the_moves<const N: usize>(space: &PermSpace<N>, pattern: &Pattern, rng: &mut Lcg) {
    for _ in 0..300 {
        let i = rng.below(pattern.size() as usize) as u64;
        assert_eq!(pattern.index(pattern.state(i)), i, "{}", pattern.name());
    }
    assert!(pattern.is_goal(pattern.placement(&space.solved().0)));
    for s in walks(space, rng, 200, 25) {
        let placement = pattern.placement(&s.0);
        let projected = Abstraction::<PermSpace<N>>::project(pattern, space, s);
        assert_eq!(projected, pattern.index(placement));
        let mut abstract_next = Vec::new();
        pattern.successors(placement, &mut |_, next| {
            abstract_next.push(pattern.index(next))
        });
        let mut next = Vec::new();
        space.successors(s, &mut |_, t| {
            next.push(pattern.index(pattern.placement(&t.0)))
        });
        assert_eq!(next, abstract_next, "{}", pattern.name());
    }
}

/// Pattern databases looked up through the puzzle's rotations too (`Conjugated`): never above
/// the true distance, never below the plain look-up, above it somewhere, and IDA* over them
/// still finds optimal paths.
#[test]
fn perm_conjugated_lookups_are_admissible_and_stronger() {
    use statespace_perm::heuristic::Conjugated;
    let ufr: &[&str] = &["U", "F", "R"];
    let space = space::<32>(&own("2x2x2-rotations.tws"), Some(ufr), Metric::Htm);
    assert_eq!(
        space.symmetries().order(),
        3,
        "the turns about the UFR-DBL diagonal"
    );
    let table = table::build(&space, &Limits::default()).unwrap();
    // Corners in groups of three, three and one: a rotation about the diagonal sends a group to
    // other corners.
    let databases = || {
        heuristic::heuristic::<32>(patterns(&space, 20_000), &Limits::default(), None)
            .unwrap()
            .into_parts()
    };
    let plain = statespace::search::pdb::Max::new(databases());
    let conjugated = statespace::search::pdb::Max::new(
        databases()
            .into_iter()
            .map(|db| Conjugated::new(&space, db, 2, false))
            .collect(),
    );
    assert!(conjugated.parts().iter().any(|c| !c.through().is_empty()));
    // A pattern of a whole class reads the same pieces under every rotation: no extra look-up.
    let whole = heuristic::heuristic::<32>(
        patterns(&space, MAX_PATTERN_STATES),
        &Limits::default(),
        None,
    )
    .unwrap()
    .into_parts();
    assert_eq!(whole.len(), 1, "the seven corners");
    // Nor at the inverse: its projection is the projection's inverse, as far from solved.
    let whole = Conjugated::new(&space, whole.into_iter().next().unwrap(), 2, true);
    assert!(whole.through().is_empty(), "{:?}", whole.through());
    assert!(!whole.dual());
    let mut rng = Lcg(11);
    let mut stronger = 0;
    for s in walks(&space, &mut rng, 400, 30) {
        let d = table.distance(&space, s).unwrap().unwrap();
        let (p, c) = (plain.estimate(&space, s), conjugated.estimate(&space, s));
        assert!(p <= c && c <= d, "plain {p}, conjugated {c}, distance {d}");
        stronger += usize::from(c > p);
        for limit in 0..=c + 1 {
            let b = conjugated.estimate_below(&space, s, limit);
            assert!(if c < limit {
                b == c
            } else {
                (limit..=c).contains(&b)
            });
        }
    }
    assert!(stronger > 0, "the rotated look-ups raise some estimates");
    conjugated_reads_images(&space, &conjugated, &mut rng);
    ida_finds_the_table_lengths(&space, &conjugated, &table, &mut rng);
}

/// IDA* over `h` from random walks' ends: every path replays to solved and is as long as the
/// whole distance table says.
fn ida_finds_the_table_lengths<const N: usize>(
    space: &PermSpace<N>,
    h: &impl Heuristic<PermSpace<N>>,
    table: &table::DistanceTable,
    rng: &mut Lcg,
) {
    for start in walks(space, rng, 10, 14) {
        let report = idastar::solve(
            space,
            h,
            start,
            &Limits::default(),
            &SearchOptions::default(),
        );
        let Outcome::Solved(path) = report.outcome else {
            panic!("{:?}", report.outcome)
        };
        let d = table.distance(space, start).unwrap().unwrap();
        assert_eq!(path.len() as u32, d);
        assert!(space.is_goal(replay(space, start, &path.moves()).unwrap()));
    }
}

/// A random walk of `length` moves: the moves, the state they reach from solved, and the state
/// their reversed inverses reach (the state's inverse, made without `Inversion`).
fn walk_and_inverse<const N: usize>(
    space: &PermSpace<N>,
    rng: &mut Lcg,
    length: usize,
) -> (Vec<statespace_perm::PermMove>, Packed<N>, Packed<N>) {
    use statespace::space::Invertible;
    let moves: Vec<_> = (0..length)
        .map(|_| space.moves()[rng.below(space.moves().len())])
        .collect();
    let s = moves.iter().fold(space.solved(), |s, &m| space.apply(s, m));
    let inverse = moves
        .iter()
        .rev()
        .fold(space.solved(), |s, &m| space.apply(s, space.inverse(m)));
    (moves, s, inverse)
}

/// Checks `heuristic`'s parts against the images they stand for: each part's estimate is the
/// largest of its database's values at the state and at the state's image under each symmetry
/// it looks through (the composed `Reading` reads what the image would hold), and, for a part
/// that looks the inverse up, the same at the inverse (made here by replaying the reversed,
/// inverted moves, not by the code under test); the estimate from the prefetched indices is
/// `estimate_below`'s, at every limit.
fn conjugated_reads_images<const N: usize>(
    space: &PermSpace<N>,
    heuristic: &statespace::search::pdb::Max<statespace_perm::heuristic::Conjugated<N>>,
    rng: &mut Lcg,
) {
    let symmetries = space.symmetries();
    for _ in 0..300 {
        let (_, s, inverse) = walk_and_inverse(space, rng, 25);
        for part in heuristic.parts() {
            let db = part.database();
            let at = |state: Packed<N>| {
                part.through()
                    .iter()
                    .map(|&k| db.value(space, symmetries.image(k, &state)))
                    .fold(db.value(space, state), u32::max)
            };
            let mut by_images = at(s);
            if part.dual() {
                by_images = by_images.max(at(inverse));
            }
            assert_eq!(part.estimate(space, s), by_images, "{s:?}");
        }
        let exact = heuristic.estimate(space, s);
        let ahead = heuristic.prefetch(space, s);
        for limit in 0..=exact + 1 {
            assert_eq!(
                heuristic.estimate_prefetched(space, s, &ahead, limit),
                heuristic.estimate_below(space, s, limit),
                "{s:?} below {limit}"
            );
        }
    }
}

/// A state's inverse (`Inversion`): the state of the reversed, inverted moves; the solved state
/// is its own; inverting twice gives the state back; the 2x2x2's inverse is exactly as far from
/// solved (every state of a walk, against the whole distance table).
#[test]
fn perm_inverse_is_the_reversed_inverted_moves_and_as_far() {
    let cube = space::<64>(&own("3x3x3.tws"), None, Metric::Htm);
    let small = space::<32>(&own("2x2x2.tws"), None, Metric::Htm);
    let qtm = space::<64>(&own("3x3x3.tws"), None, Metric::Qtm);
    let table = table::build(&small, &Limits::default()).unwrap();
    fn check<const N: usize>(
        space: &PermSpace<N>,
        rng: &mut Lcg,
        mut distance: impl FnMut(Packed<N>) -> Option<u32>,
    ) {
        let inversion = space.inversion().expect("an inverse");
        assert_eq!(inversion.invert(&space.solved()), space.solved());
        let mut differ = 0;
        for length in 0..40 {
            let (moves, s, reversed) = walk_and_inverse(space, rng, length);
            assert_eq!(inversion.invert(&s), reversed, "{moves:?}");
            assert_eq!(inversion.invert(&reversed), s, "{moves:?}");
            differ += usize::from(reversed != s);
            if let Some(d) = distance(s) {
                assert_eq!(distance(reversed), Some(d), "{moves:?}");
            }
        }
        assert!(differ > 30, "most inverses are other states: {differ}");
    }
    let mut rng = Lcg(23);
    check(&cube, &mut rng, |_| None);
    check(&qtm, &mut rng, |_| None);
    check(&small, &mut rng, |s| table.distance(&small, s).unwrap());
    // No inverse where the state does not determine the moves' product, or the rules bind
    // slots.
    let rows = space::<16>(&own("loopover-3x3-rows.tws"), None, Metric::Htm);
    let why = rows
        .inversion()
        .expect_err("look-alike tiles have no inverse");
    assert!(why.contains("look-alike"), "{why}");
    let square1 = space::<64>(&own("square1.tws"), None, Metric::Htm);
    let why = square1.inversion().expect_err("Illegal rules: no inverse");
    assert!(why.contains("Illegal"), "{why}");
}

/// Dual look-ups (`Conjugated` with the inverse): never above the true distance, never below the
/// look-ups without the inverse, above them somewhere; the estimate is the max over the state
/// and its inverse (checked against an inverse made independently); a pattern of whole classes
/// gets none (`perm_conjugated_lookups_are_admissible_and_stronger`); IDA* over them finds the
/// same optimal lengths.
#[test]
fn perm_dual_lookups_are_admissible_and_stronger() {
    use statespace_perm::heuristic::Conjugated;
    let ufr: &[&str] = &["U", "F", "R"];
    let space = space::<32>(&own("2x2x2-rotations.tws"), Some(ufr), Metric::Htm);
    let table = table::build(&space, &Limits::default()).unwrap();
    let databases = || {
        heuristic::heuristic::<32>(patterns(&space, 20_000), &Limits::default(), None)
            .unwrap()
            .into_parts()
    };
    let lookups = |extra: usize, dual: bool| {
        statespace::search::pdb::Max::new(
            databases()
                .into_iter()
                .map(|db| Conjugated::new(&space, db, extra, dual))
                .collect(),
        )
    };
    let mut rng = Lcg(31);
    for extra in [0, 2] {
        let own = lookups(extra, false);
        let dual = lookups(extra, true);
        assert!(dual.parts().iter().all(|c| c.dual()), "groups of corners");
        let mut stronger = 0;
        for s in walks(&space, &mut rng, 400, 30) {
            let d = table.distance(&space, s).unwrap().unwrap();
            let (o, b) = (own.estimate(&space, s), dual.estimate(&space, s));
            assert!(
                o <= b && b <= d,
                "own {o}, with the inverse {b}, distance {d}"
            );
            stronger += usize::from(b > o);
        }
        assert!(
            stronger > 0,
            "the inverse raises some estimates ({extra} rotations)"
        );
        conjugated_reads_images(&space, &dual, &mut rng);
        ida_finds_the_table_lengths(&space, &dual, &table, &mut rng);
    }
}

/// A twist pattern with alike pieces looked up through the rotations and at the inverse
/// (`Conjugated`): each look-up reads what the image holds, the estimates stay admissible and
/// IDA* finds the whole table's lengths (the 2x2x2 turned about its UFR corner: the twists of
/// the seven corners that move, and where two of them are).
#[test]
fn perm_twist_patterns_read_the_images_and_the_inverse() {
    use statespace_perm::heuristic::Conjugated;
    let ufr: &[&str] = &["U", "F", "R"];
    let space = space::<32>(&own("2x2x2-rotations.tws"), Some(ufr), Metric::Htm);
    let table = table::build(&space, &Limits::default()).unwrap();
    let corners = (0..space.layout().classes())
        .find(|&c| space.layout().class(c).labels.len() == 7)
        .unwrap();
    let solved = space.solved().0;
    let labels: Vec<u8> = space.layout().class(corners).labels[..2]
        .iter()
        .map(|&b| solved[usize::from(b)])
        .collect();
    let p = Pattern::twists(&space, &[(corners, labels)]).unwrap();
    let mut rng = Lcg(41);
    commutes_with_the_moves(&space, &p, &mut rng);
    let db = heuristic::heuristic::<32>(vec![p], &Limits::default(), None)
        .unwrap()
        .into_parts()
        .pop()
        .unwrap();
    let looked_up = statespace::search::pdb::Max::new(vec![Conjugated::new(&space, db, 2, true)]);
    let part = &looked_up.parts()[0];
    assert_eq!(
        part.through().len(),
        2,
        "both other turns read other corners"
    );
    assert!(part.dual());
    for s in walks(&space, &mut rng, 400, 30) {
        let d = table.distance(&space, s).unwrap().unwrap();
        let e = looked_up.estimate(&space, s);
        assert!(e <= d, "estimate {e} over the distance {d}");
    }
    conjugated_reads_images(&space, &looked_up, &mut rng);
    ida_finds_the_table_lengths(&space, &looked_up, &table, &mut rng);
}

/// The 3x3x3's groups of edges looked up at the inverse, through the rotations there too:
/// each look-up reads what the rotated inverse holds.
#[test]
fn perm_dual_edges_read_the_inverse_rotated() {
    use statespace_perm::heuristic::Conjugated;
    let cube = space::<64>(&own("3x3x3-rotations.tws"), None, Metric::Htm);
    let databases = heuristic::heuristic::<64>(patterns(&cube, 200_000), &Limits::default(), None)
        .unwrap()
        .into_parts();
    let dual = statespace::search::pdb::Max::new(
        databases
            .into_iter()
            .map(|db| Conjugated::new(&cube, db, 3, true))
            .collect(),
    );
    let shape: Vec<(bool, usize)> = dual
        .parts()
        .iter()
        .map(|c| (c.dual(), c.through().len()))
        .collect();
    // A slice's four edges have two other slices as images; other groups have more.
    assert!(shape.iter().all(|&(d, n)| d && n >= 2), "{shape:?}");
    conjugated_reads_images(&cube, &dual, &mut Lcg(7));
}

#[test]
fn perm_ida_searches_one_first_move_per_class() {
    let cube = space::<64>(&own("3x3x3-rotations.tws"), None, Metric::Htm);
    let h = heuristic::heuristic::<64>(patterns(&cube, 200_000), &Limits::default(), None).unwrap();
    let scrambled = |moves: &str| {
        moves.split(' ').fold(cube.solved(), |s, m| {
            cube.apply(s, cube.move_named(m).unwrap())
        })
    };
    // The checkerboard: every rotation maps it to itself, so its 18 first moves fall into 3
    // classes (quarter turns, their inverses, half turns).
    let checkerboard = scrambled("U2 D2 F2 B2 L2 R2");
    let asymmetric = scrambled("R U F' L2 D B'");
    for (start, symmetric) in [(checkerboard, true), (asymmetric, false)] {
        for threads in [1, 2] {
            let (limits, options) = (
                Limits::default(),
                SearchOptions {
                    threads,
                    ..SearchOptions::default()
                },
            );
            let plain = idastar::solve(&cube, &h, start, &limits, &options);
            let classes = idastar::solve_symmetric(&cube, &h, start, &limits, &options);
            let (Outcome::Solved(a), Outcome::Solved(b)) = (&plain.outcome, &classes.outcome)
            else {
                panic!("{:?} {:?}", plain.outcome, classes.outcome)
            };
            assert_eq!(a.moves(), b.moves(), "the same path on {threads} threads");
            assert_eq!(b.len(), 6);
            let (p, c) = (plain.stats.generated, classes.stats.generated);
            match (symmetric, threads) {
                (true, 1) => assert!(c < p, "{c} of {p}"),
                (false, 1) => assert_eq!(c, p),
                _ => {}
            }
        }
    }
    // Several solutions: every first move is searched, and the lists are the same.
    let (limits, options) = (
        Limits::default(),
        SearchOptions {
            solutions: 6,
            ..SearchOptions::default()
        },
    );
    let lists = [
        idastar::solve(&cube, &h, checkerboard, &limits, &options),
        idastar::solve_symmetric(&cube, &h, checkerboard, &limits, &options),
    ]
    .map(|report| {
        let Outcome::Solved(first) = report.outcome else {
            panic!()
        };
        let mut all = vec![first.moves()];
        all.extend(report.others.iter().map(|p| p.moves()));
        all
    });
    assert_eq!(lists[0].len(), 6);
    assert_eq!(lists[0], lists[1]);
}

#[test]
fn perm_conjugated_edges_read_the_cube_rotated() {
    use statespace_perm::heuristic::Conjugated;
    let cube = space::<64>(&own("3x3x3-rotations.tws"), None, Metric::Htm);
    assert_eq!(cube.symmetries().order(), 24);
    // Edges in groups of four (190,080 states each), corners in groups of four (136,080).
    let databases = heuristic::heuristic::<64>(patterns(&cube, 200_000), &Limits::default(), None)
        .unwrap()
        .into_parts();
    assert!(databases.len() >= 3, "{}", databases.len());
    let conjugated = statespace::search::pdb::Max::new(
        databases
            .into_iter()
            .map(|db| Conjugated::new(&cube, db, 3, false))
            .collect(),
    );
    let through: Vec<usize> = conjugated
        .parts()
        .iter()
        .map(|c| c.through().len())
        .collect();
    assert!(
        through.iter().all(|&n| n > 0),
        "every group of a class gets rotated look-ups: {through:?}"
    );
    conjugated_reads_images(&cube, &conjugated, &mut Lcg(5));
}

/// The zero heuristic: IDA* deepens like IDDFS and counts the tree it searches.
struct Zero;
impl<P: StateSpace> Heuristic<P> for Zero {
    fn estimate(&self, _: &P, _: P::State) -> u32 {
        0
    }
}

#[test]
fn perm_ida_searches_canonical_sequences_only() {
    let cube = space::<64>(&own("3x3x3.tws"), None, Metric::Htm);
    let start = "R U F D L B".split(' ').fold(cube.solved(), |s, m| {
        cube.apply(s, cube.move_named(m).unwrap())
    });
    let limits = Limits {
        max_depth: Some(3),
        ..Limits::default()
    };
    let report = idastar::solve(&cube, &Zero, start, &limits, &SearchOptions::default());
    assert!(matches!(report.outcome, Outcome::LimitReached(_)));
    // Iteration t generates the sequences of 1 to t + 1 moves with no two turns of one face in
    // a row and opposite faces in one order: 18, 243, 3240, 43254 of each length (OEIS
    // A080583). Without the order rule there would be 18 * 15^(n - 1): 270 of length 2.
    let generated: Vec<u64> = report
        .stats
        .iterations
        .iter()
        .map(|i| i.generated)
        .collect();
    assert_eq!(
        generated,
        [18, 18 + 243, 18 + 243 + 3240, 18 + 243 + 3240 + 43254]
    );
}

#[test]
fn perm_3x3x3_random_scramble_is_solved_optimally_with_pattern_databases() {
    // Patterns of at most 2^24 states (six corners, two corners, two groups of five edges, two
    // edges: 10 MiB, seconds to build); the plugin's 2^27 (corners, two groups of six edges)
    // takes minutes, so the 13- and 14-move scrambles are in the bench (BENCHMARKS.md).
    let cube = space::<64>(&own("3x3x3.tws"), None, Metric::Htm);
    let patterns = patterns(&cube, 1 << 24);
    let names: Vec<&str> = patterns.iter().map(|p| p.name()).collect();
    assert_eq!(
        names,
        [
            "CORNERS 1,2,3,4,5,6",
            "CORNERS 7,8",
            "EDGES 1,2,3,4,5",
            "EDGES 6,7,8,9,10",
            "EDGES 11,12"
        ]
    );
    let h = heuristic::heuristic::<64>(patterns, &Limits::default(), None).unwrap();
    // A random canonical sequence of 12 moves (no two turns of one face in a row, opposite
    // faces in one order), from a fixed seed.
    let mut rng = Lcg(1);
    let mut scramble = Vec::new();
    while scramble.len() < 12 {
        let m = cube.moves()[rng.below(cube.moves().len())];
        if scramble.last().is_none_or(|&p| cube.may_follow(p, m)) {
            scramble.push(m);
        }
    }
    let start = scramble
        .iter()
        .fold(cube.solved(), |s, &m| cube.apply(s, m));
    let report = idastar::solve(
        &cube,
        &h,
        start,
        &Limits::default(),
        &SearchOptions::default(),
    );
    let Outcome::Solved(path) = report.outcome else {
        panic!("{:?}", report.outcome)
    };
    // IDA*'s last iteration found it, the one before proved nothing shorter exists.
    assert_eq!(path.len(), 12, "{scramble:?}");
    assert_eq!(report.stats.iterations.last().unwrap().threshold, 12);
    assert!(cube.is_goal(replay(&cube, start, &path.moves()).unwrap()));
    assert!(h.estimate(&cube, start) <= 12);
}

#[test]
fn perm_auto_runs_ida_with_pattern_databases_within_the_memory_budget() {
    // The cube fits no table: auto is IDA*, whose databases (82.7 MiB, and the corners' block
    // sweep beside their table while it is built) a 64 MiB budget refuses before anything is
    // allocated.
    let pdb = "[heuristic]\nkind = \"pdb\"";
    let inst = instance(&own("3x3x3.tws"), pdb);
    let mut board = BoardText::from_file("scramble", "R U F' L2 D B".into());
    board.scramble = true;
    let limits = Limits {
        memory_budget: 64 << 20,
        ..Limits::default()
    };
    let solution = inst
        .solve(&board, Mode::AUTO, &limits, &SearchOptions::default())
        .unwrap();
    assert_eq!(solution.mode, Mode::IDASTAR);
    let Answer::LimitReached(Limit::Memory { needed, .. }) = solution.answer else {
        panic!("{:?}", solution.answer)
    };
    let corners = 88_179_840u128;
    // The bitsets, the move tables and a bit per block: which rows are filled.
    let sweep =
        3 * corners.div_ceil(64) * 8 + (40_320 + 2_187) * 18 * 4 + 40_320u128.div_ceil(64) * 8;
    let tables = corners.div_ceil(16) * 8 + 2 * 42_577_920u128.div_ceil(16) * 8;
    assert_eq!(needed, tables + sweep);
    // With no databases in the cache, auto prunes with the states near the solved state
    // instead: no build, the same budget, an optimal answer at once.
    let inst = instance(&own("3x3x3.tws"), "");
    let solution = inst
        .solve(&board, Mode::AUTO, &limits, &SearchOptions::default())
        .unwrap();
    let Answer::Solved { moves, .. } = &solution.answer else {
        panic!("{:?}", solution.answer)
    };
    assert_eq!(moves.len(), 6);
    // The 2x2x2 (3,674,160 positions, past auto's table size): IDA* over one pattern of its
    // seven corners, the whole puzzle, so the search walks straight down. (Auto meets in the
    // middle there: a space small enough to exhaust is never left to a deepening search.)
    let inst = instance(&own("2x2x2.tws"), &format!("{UFR}\n{pdb}"));
    let mut board = BoardText::from_file("scramble", "R U R' F2 U' R2 F".into());
    board.scramble = true;
    let auto = inst
        .solve(
            &board,
            Mode::AUTO,
            &Limits::default(),
            &SearchOptions::default(),
        )
        .unwrap();
    assert_eq!(auto.mode, Mode::BIDIRECTIONAL);
    let solution = inst
        .solve(
            &board,
            Mode::IDASTAR,
            &Limits::default(),
            &SearchOptions::default(),
        )
        .unwrap();
    assert_eq!(solution.mode, Mode::IDASTAR);
    let Answer::Solved { moves, .. } = &solution.answer else {
        panic!("{:?}", solution.answer)
    };
    assert_eq!(solution.stats.expanded, moves.len() as u64);
}

/// The pruning table on the project's 2x2x2: at every depth it reaches, each cell holds the
/// least table distance of the states within the depth that hash to it (so a state inside is
/// exact unless a nearer one shares its cell), no estimate passes the table's distance, and IDA*
/// with it alone (deepening as it searches) finds the table's lengths on random scrambles.
#[test]
fn perm_pruning_table_is_exact_inside_admissible_and_ida_agrees_with_the_table() {
    use statespace::search::pruning::{Growth, PruningTable};
    let cube = space::<16>(&own("2x2x2.tws"), Some(&["U", "F", "R"]), Metric::Htm);
    let table = table::build(&cube, &Limits::default()).unwrap();
    let distance = |s| table.distance(&cube, s).unwrap().unwrap();
    let growth = Growth {
        bytes: 1 << 22,
        first_work: 1000,
        pays: 1,
    };
    let pruning = PruningTable::new(&cube, &Limits::default(), growth).unwrap();
    let mut rng = Lcg(7);
    let samples = walks(&cube, &mut rng, 3000, 25);
    // The states within 7 moves, by the table (every index), with their cells.
    let near: Vec<(usize, u32)> = (0..cube.size() as u64)
        .map(|i| cube.state(i))
        .filter_map(|s| Some((pruning.cell(&cube, s), distance(s))).filter(|&(_, d)| d <= 7))
        .collect();
    let mut checked = Vec::new();
    while pruning.depth() <= 6 {
        let depth = pruning.depth();
        let mut least = std::collections::HashMap::new();
        for &(cell, d) in near.iter().filter(|&&(_, d)| d <= depth) {
            let cell = least.entry(cell).or_insert(d);
            *cell = (*cell).min(d);
        }
        for cell in 0..pruning.bytes() as usize {
            assert_eq!(
                pruning.cell_distance(cell),
                least.get(&cell).copied(),
                "depth {depth}"
            );
        }
        for &s in &samples {
            assert!(pruning.distance(&cube, s) <= distance(s));
        }
        checked.push(depth);
        assert!(pruning.deepen(&cube).unwrap());
    }
    assert!(checked.len() >= 3, "{checked:?}");
    let pruning = PruningTable::new(&cube, &Limits::default(), growth).unwrap();
    let first = pruning.depth();
    for start in walks(&cube, &mut rng, 20, 30) {
        let report = idastar::solve(
            &cube,
            &pruning,
            start,
            &Limits::default(),
            &SearchOptions::default(),
        );
        let Outcome::Solved(path) = report.outcome else {
            panic!("{:?}", report.outcome)
        };
        assert_eq!(path.len() as u32, distance(start));
        assert!(cube.is_goal(replay(&cube, start, &path.moves()).unwrap()));
    }
    assert!(
        pruning.depth() > first,
        "the searches paid for deeper levels"
    );
}

/// `kind = "pruning"` and `"auto"` answer as `"pdb"` does (the same optimal lengths).
/// The lengths IDA* finds from each of `scrambles` (each must be solved).
fn idastar_lengths(inst: &Instance, scrambles: &[&str]) -> Vec<usize> {
    let mut found = Vec::new();
    for &scramble in scrambles {
        let mut board = BoardText::from_file("scramble", scramble.into());
        board.scramble = true;
        let solution = inst
            .solve(
                &board,
                Mode::IDASTAR,
                &Limits::default(),
                &SearchOptions::default(),
            )
            .unwrap();
        let Answer::Solved { moves, .. } = &solution.answer else {
            panic!("{scramble}: {:?}", solution.answer)
        };
        found.push(moves.len());
    }
    found
}

#[test]
fn perm_every_heuristic_kind_finds_the_same_lengths() {
    let mut lengths = Vec::new();
    // The last: the pruning table keyed by the orbits of the turns about the UFR corner.
    let symmetric = "pruning\"\nsymmetry = true\n#";
    // And the databases looked up at the inverse and through those turns there too.
    let dual = "pdb\"\nsymmetry = true\ndual = true\n#";
    // And with a twist pattern (the corners' twists, where two of them are) beside the groups.
    let twists = "pdb\"\ntwist_pattern = \"CORNERS 1 2\"\n#";
    for kind in ["pdb", "pruning", "auto", symmetric, dual, twists] {
        let extra = format!("{UFR}\n[heuristic]\nkind = \"{kind}\"");
        let file = match kind == symmetric || kind == dual {
            true => "2x2x2-rotations.tws",
            false => "2x2x2.tws",
        };
        let inst = instance(&own(file), &extra);
        let scrambles = ["R U R' F2 U' R2 F", "U R2 F' R U2 F R' U' F2 R U'", "F"];
        lengths.push(idastar_lengths(&inst, &scrambles));
    }
    assert_eq!(lengths[0], lengths[1]);
    assert_eq!(lengths[0], lengths[2]);
    assert_eq!(lengths[0], lengths[3]);
    assert_eq!(lengths[0], lengths[4]);
    assert_eq!(lengths[0], lengths[5]);
}

#[test]
fn perm_class_patterns_find_the_pruning_tables_lengths() {
    // Two opposite up corners told apart and the middle-layer edges as a set, one entry per
    // class of the half turn about the up axis (the only rotation that keeps both), looked up
    // along the other axes and at the inverse; small groups of edges beside it.
    let class = "[heuristic]\nkind = \"pdb\"\npattern_states = 1000000\nsymmetry = true\n\
                 dual = true\nclass_pattern = \"CORNERS 1 3 + EDGES 9 10 11 12\"";
    let pruning = "[heuristic]\nkind = \"pruning\"";
    let mut lengths = Vec::new();
    for extra in [class, pruning] {
        let inst = instance(&own("3x3x3-rotations.tws"), extra);
        let scrambles = [
            "R U F' L2 D B",
            "U2 R' F D' L B2 U",
            "F R",
            "R L U2 R' L' F2",
        ];
        lengths.push(idastar_lengths(&inst, &scrambles));
    }
    assert_eq!(lengths[0], lengths[1]);
    assert_eq!(lengths[0], [6, 7, 2, 6]);
    // A definition without rotations: nothing to reduce, refused in one line.
    let (code, err) = bad(
        "t.tws",
        &std::fs::read_to_string(own("3x3x3.tws")).unwrap(),
        "[heuristic]\nkind = \"pdb\"\nclass_pattern = \"CORNERS 1 2 + EDGES 9 10 11 12\"",
    );
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("heuristic.class_pattern: pattern database: no rotation of")
            && err.contains("nothing to reduce"),
        "{err}"
    );
}

/// `auto_patterns = false` leaves the patterns picked from the classes out: on the 2x2x2 the
/// whole corner pattern (an exact heuristic) goes, the twists alone stay; the length is the
/// same, the search larger.
#[test]
fn perm_auto_patterns_false_keeps_only_the_named_patterns() {
    let dir = tempfile::tempdir().unwrap();
    let solve = |extra: &str| {
        let cfg = dir.path().join("c.toml");
        let text = format!(
            "[puzzle]\nkind = \"perm\"\ndefinition = \"{}\"\n[search]\nmode = \"idastar\"\n\
             [heuristic]\nkind = \"pdb\"\ntwist_pattern = \"\"\n{extra}\n\
             [start]\nscramble = \"R U F R' U2 F2 R\"\n",
            own("2x2x2.tws")
        );
        std::fs::write(&cfg, text).unwrap();
        let (code, out, err) = run(&["solve", cfg.to_str().unwrap(), "--no-cache", "--json"]);
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let length = json["moves"].as_u64().expect("a length");
        let expanded = json["stats"]["expanded"].as_u64().expect("expanded");
        (length, expanded)
    };
    let (with, with_expanded) = solve("");
    let (without, without_expanded) = solve("auto_patterns = false");
    assert_eq!(with, without);
    assert_eq!(
        with_expanded, with,
        "the corner pattern is exact: one state a move"
    );
    assert!(without_expanded > with_expanded, "{without_expanded}");
}

#[test]
fn perm_heuristic_keys_are_checked() {
    for (extra, message) in [
        (
            "[heuristic]\nkind = \"manhattan\"",
            "heuristic.kind: unknown heuristic `manhattan` (known: auto, pdb, pruning)",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\ngroups = [[1, 2]]",
            "heuristic.groups: unknown field `groups`",
        ),
        (
            "[heuristic]\nkind = \"pruning\"\nsymmetry = true",
            "heuristic.symmetry: no symmetry to use: the definition has no rotations",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\nsymmetry = true",
            "heuristic.symmetry: no symmetry to use: the definition has no rotations",
        ),
        (
            "[heuristic]\nkind = \"pruning\"\npattern_states = 1000",
            "heuristic.pattern_states: not used here: kind = \"pruning\" uses no pattern database",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\npattern_states = 0",
            "heuristic.pattern_states",
        ),
        (
            "[heuristic]\nkind = \"pruning\"\nauto_patterns = false",
            "heuristic.auto_patterns: not used here: kind = \"pruning\" uses no pattern database",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\nauto_patterns = false",
            "heuristic.auto_patterns: auto_patterns = false leaves no pattern database: name a twist_pattern or a class_pattern",
        ),
        (
            "[heuristic]\nkind = \"pruning\"\ndual = true",
            "heuristic.dual: not used here: kind = \"pruning\" uses no pattern database",
        ),
        (
            "[heuristic]\nkind = \"auto\"\npattern_states = \"many\"",
            "heuristic.pattern_states",
        ),
        (
            "[heuristic]\nkind = \"pruning\"\ntwist_pattern = \"A 1\"",
            "heuristic.twist_pattern: not used here: kind = \"pruning\" uses no pattern database",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\ntwist_pattern = \"EDGES 1\"",
            "heuristic.twist_pattern: \"EDGES\" is no orbit of T (orbits: A)",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\ntwist_pattern = \"A 4\"",
            "heuristic.twist_pattern: A has no piece 4 (or more than one)",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\ntwist_pattern = \"1 A\"",
            "heuristic.twist_pattern: piece 1 comes before any orbit's name",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\ntwist_pattern = \"A 2, 2\"",
            "heuristic.twist_pattern: piece 2 of A is named twice",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\ntwist_pattern = 3",
            "heuristic.twist_pattern",
        ),
        (
            "[heuristic]\nkind = \"pruning\"\nclass_pattern = \"A 1 + A 2\"",
            "heuristic.class_pattern: not used here: kind = \"pruning\" uses no pattern database",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\nclass_pattern = \"A 1\"",
            "heuristic.class_pattern: \"A 1\" is not two parts \"A + B\"",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\nclass_pattern = \"A 1 + B 2\"",
            "heuristic.class_pattern: \"B\" is no orbit of T (orbits: A)",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\nclass_pattern = \"A 1 + A 2\"",
            "heuristic.class_pattern: pattern database: the two parts of a class pattern are in one class",
        ),
        (
            "[heuristic]\nkind = \"pdb\"\nclass_pattern = \" + A 2\"",
            "heuristic.class_pattern: the pieces told apart are 0 classes' (\"\"): name one class's",
        ),
    ] {
        let (code, err) = bad("t.tws", GOOD, extra);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(message), "{err}");
    }
    // Look-alike pieces: the state does not say which moves made it, so it has no inverse.
    let alike = "Name T\nSet A 3 1\nSolved\nA\n1 1 2\nEnd\nMove X\nA\n2 1 3\nEnd\n";
    let (code, err) = bad("t.tws", alike, "[heuristic]\nkind = \"pdb\"\ndual = true");
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("heuristic.dual: no inverse to look up: the solved state has look-alike"),
        "{err}"
    );
    let (code, err) = bad("t.tws", GOOD, "[heuristic]\nkind = \"pdb\"\ndual = true");
    assert_eq!(code, 0, "{err}");
    // Nothing twists and nothing is named: a pattern that would keep nothing.
    let still = "Name T\nSet A 3 1\nSolved\nA\n1 2 3\nEnd\nMove X\nA\n2 3 1\nEnd\n";
    let (code, err) = bad(
        "t.tws",
        still,
        "[heuristic]\nkind = \"pdb\"\ntwist_pattern = \"\"",
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("heuristic.twist_pattern: ") && err.contains("would keep nothing"),
        "{err}"
    );
    let (code, err) = bad(
        "t.tws",
        GOOD,
        "[heuristic]\nkind = \"pdb\"\ntwist_pattern = \"A 1\"",
    );
    assert_eq!(code, 0, "{err}");
}

#[test]
fn perm_illegal_rules_block_moves_and_refuse_starts() {
    // Three pieces, two swaps: 6 positions, but piece 3 may not be in slot 1, which leaves 4,
    // the two that would be 2 moves away now joined only through each other.
    let def = "Name T\nSet A 3 1\nSolved\nA\n1 2 3\nEnd\nMove X\nA\n2 1 3\nEnd\n\
               Move Y\nA\n1 3 2\nEnd\nIllegal A 1 3\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tws");
    std::fs::write(&path, def).unwrap();
    let (h, size) = histogram(path.to_str().unwrap(), "");
    assert_eq!((h, size), (vec![1, 2, 1], 6));
    let (code, err) = bad("t.tws", def, "");
    assert_eq!(code, 0, "the solved start is legal: {err}");
    // X Y X ends with piece 3 in slot 1.
    let cfg = dir.path().join("c.toml");
    std::fs::write(
        &cfg,
        "[puzzle]\nkind = \"perm\"\ndefinition = \"t.tws\"\n[start]\nscramble = \"X Y X\"\n",
    )
    .unwrap();
    let (code, _, err) = run(&["solve", cfg.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // The rule, and the move to change: X, Y are legal, the second X is not.
    assert!(
        err.contains(
            "c.toml:5: start.scramble: the start breaks the definition's rule Illegal A 1 3, \
             a position the puzzle cannot be in; move 3 of the scramble (X) is the first"
        ),
        "{err}"
    );
    // A board that breaks it: the rule, and what to give instead.
    std::fs::write(
        &cfg,
        "[puzzle]\nkind = \"perm\"\ndefinition = \"t.tws\"\n[start]\nboard = \"A 2 1 0\"\n",
    )
    .unwrap();
    let (code, _, err) = run(&["solve", cfg.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("rule Illegal A 1 3, a position the puzzle cannot be in; give a position"),
        "{err}"
    );
}

/// A definition of `moves` moves on one set of 8 pieces, each swapping a pair (`M0` to `M27`
/// are the 28 pairs, then again), as one `Move` block each.
fn many_moves(moves: usize) -> String {
    let pairs: Vec<(usize, usize)> = (0..8)
        .flat_map(|i| (i + 1..8).map(move |j| (i, j)))
        .collect();
    let mut text = String::from("Name Many\nSet A 8 1\nSolved\nA\n1 2 3 4 5 6 7 8\nEnd\n");
    for k in 0..moves {
        let (i, j) = pairs[k % pairs.len()];
        let mut perm: Vec<usize> = (1..=8).collect();
        perm.swap(i, j);
        let perm: Vec<String> = perm.iter().map(|p| p.to_string()).collect();
        text += &format!("Move M{k}\nA\n{}\nEnd\n", perm.join(" "));
    }
    text
}

/// `solve` with `args` on a config beside a definition `text`, scrambled by `scramble`: (exit
/// code, stdout, stderr, seconds).
fn solve_definition(text: &str, scramble: &str, args: &[&str]) -> (i32, String, String, f64) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("many.tws"), text).unwrap();
    let cfg = dir.path().join("c.toml");
    let config = format!(
        "[puzzle]\nkind = \"perm\"\ndefinition = \"many.tws\"\n[start]\nscramble = \"{scramble}\"\n"
    );
    std::fs::write(&cfg, config).unwrap();
    let started = std::time::Instant::now();
    let (code, out, err) = run(&[&["solve", cfg.to_str().unwrap()], args].concat());
    (code, out, err, started.elapsed().as_secs_f64())
}

#[test]
fn perm_setup_of_10000_moves_is_quick_and_within_the_limits() {
    // 10,000 moves took 127 s and 117 MB to set up (every pair of generators composed), past
    // `--time-limit 1s --memory 64MiB`; now a fraction of a second.
    let limits = ["--mode", "bfs", "--time-limit", "1s", "--memory", "64MiB"];
    let (code, out, err, seconds) = solve_definition(
        &many_moves(10_000),
        "M9999",
        &[&limits[..], &["--json"]].concat(),
    );
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["moves"], 1);
    assert!(seconds < 20.0, "{seconds} s");
    // 65,000 moves pass the budget: refused before the tables are made, in one line, exit 4.
    let roomy = ["--mode", "bfs", "--time-limit", "60s", "--memory", "64MiB"];
    let (code, out, err, _) = solve_definition(&many_moves(65_000), "M1", &roomy);
    assert_eq!((code, out.as_str()), (4, ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("Many: needs ")
            && err.ends_with("over the budget of 64.0 MiB (raise it with --memory)\n"),
        "{err}"
    );
    // With room they solve.
    let (code, out, err, _) = solve_definition(&many_moves(65_000), "M1", &["--mode", "bfs"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("1 move\n"), "{out}");
    // Past the 65,535 moves a search takes: bad input, said at once.
    let (code, _, err, _) = solve_definition(&many_moves(70_000), "M1", &limits);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("more than 65535 moves (powers of the generators): too many to search"),
        "{err}"
    );
}

#[test]
fn perm_setup_stops_at_the_time_limit_and_on_ctrl_c_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("many.tws"), many_moves(3_000)).unwrap();
    let text = "[puzzle]\nkind = \"perm\"\ndefinition = \"many.tws\"\n";
    let config = Config::parse(dir.path().join("c.toml").to_str().unwrap(), text).unwrap();
    // A spent clock: the setup stops at its first step, before reading a line.
    let spent = Limits {
        time_limit: Some(std::time::Duration::from_nanos(1)),
        ..Limits::default()
    };
    let Err(e) = crate::registry().build(&config, &spent) else {
        panic!("built past a spent clock")
    };
    let Error::Limit { location, limit } = &e else {
        panic!("{e}")
    };
    assert!(matches!(limit, Limit::Time(_)), "{e}");
    assert!(
        location
            .file_name()
            .is_some_and(|f| f.ends_with("many.tws")),
        "{e}"
    );
    assert!(e.to_string().ends_with(": time limit 1ns reached"), "{e}");
    // Ctrl-C pressed: stopped likewise (the CLI exits 130).
    static PRESSED: AtomicBool = AtomicBool::new(true);
    let pressed = Limits {
        interrupt: Some(&PRESSED),
        ..Limits::default()
    };
    let Err(e) = crate::registry().build(&config, &pressed) else {
        panic!("built after Ctrl-C")
    };
    assert!(
        matches!(
            &e,
            Error::Limit {
                limit: Limit::Interrupted,
                ..
            }
        ),
        "{e}"
    );
    // Through the CLI, a time limit shorter than the setup: exit 4 and one line naming the
    // file and line where it stopped (the search never starts).
    let (code, out, err, _) = solve_definition(&many_moves(60_000), "M1", &["--time-limit", "1ms"]);
    assert_eq!((code, out.as_str()), (4, ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("time limit 1ms reached"), "{err}");
}

#[test]
fn perm_chained_sequences_are_composed_once_each() {
    // 2,000 sequences, each the one after it and X, written last first: resolving them in
    // rounds parsed them 2,000,000 times (41 s); composed once each, the steps are linear.
    let head =
        "Name Chain\nSet A 8 1\nSolved\nA\n1 2 3 4 5 6 7 8\nEnd\nMove X\nA\n2 3 4 5 6 7 8 1\nEnd\n";
    let mut text = head.to_string();
    for i in (1..=2_000).rev() {
        let previous = if i == 1 {
            "X".to_string()
        } else {
            format!("S{}", i - 1)
        };
        text += &format!("MoveSequence S{i} {previous} X\n");
    }
    // And 40 doublings: D40 is X to the 2^40, 2^40 tokens if expanded rather than composed.
    text += "MoveSequence D1 X X\n";
    for i in 2..=40 {
        text += &format!("MoveSequence D{i} D{} D{}\n", i - 1, i - 1);
    }
    let mut setup = Setup::default();
    let def = tws::parse(&text, "chain.tws", &mut setup).unwrap();
    let lines = text.lines().count() as u64;
    let tokens = 2 * 2_040;
    // A step per line, and per token when it is parsed and when it is composed.
    assert!(
        setup.steps() <= lines + 2 * tokens + 1,
        "{} steps",
        setup.steps()
    );
    let x = &def.moves[def.move_index("X").unwrap()].transform;
    let s = &def.moves[def.move_index("S2000").unwrap()].transform;
    assert_eq!(*s, x.power(2_001, &def.orbits));
    let d = &def.moves[def.move_index("D40").unwrap()].transform;
    assert_eq!(*d, x.power(1 << 40, &def.orbits));
    // The sequences keep the file's order after the moves.
    let names: Vec<&str> = def.moves.iter().take(3).map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["X", "S2000", "S1999"]);
}

/// twsearch's convention (its `symm/` samples rely on it): moves named `x`, `y`, `z` or a grip
/// of capitals ending in `v` are whole-puzzle rotations, not searched unless `moves` lists them,
/// and the description says which were left out.
#[test]
fn perm_rotations_are_not_moves_unless_listed() {
    let dir = tempfile::tempdir().unwrap();
    let own_text = std::fs::read_to_string(own("2x2x2.tws")).unwrap();
    // On a 2x2x2, R L' and U D' turn the whole cube.
    let text = format!("{own_text}\nMoveSequence x R L'\nMoveSequence Uv U D'\n");
    let definition = dir.path().join("rotations.tws");
    std::fs::write(&definition, text).unwrap();
    let definition = definition.to_str().unwrap();

    let (plain, _) = histogram(&own("2x2x2.tws"), "");
    let (with_rotations, _) = histogram(definition, "");
    assert_eq!(with_rotations, plain, "rotations left out by default");
    assert_eq!(plain[1], 18, "six faces, three turns each");
    let description = instance(definition, "").description().to_string();
    assert!(
        description.contains("(rotations x Uv not searched)"),
        "{description}"
    );

    let listed = "moves = [\"U\", \"F\", \"R\", \"x\", \"Uv\"]";
    let (searched, _) = histogram(definition, listed);
    assert_eq!(searched[1], 9 + 3 + 3, "listed rotations are moves");
    assert!(
        !instance(definition, listed)
            .description()
            .contains("not searched")
    );
}

/// `solve FILE.tws --scramble ...`: a definition file stands for a config, `--moves` and
/// `--metric` for its keys, and their errors name the flags.
#[test]
fn perm_definition_files_solve_without_a_config() {
    let def = own("2x2x2.tws");
    let json = |extra: &[&str]| {
        let mut args = vec!["solve", def.as_str(), "--json"];
        args.extend(extra);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let solved = json(&["--scramble", "R U F", "--moves", "U,F,R"]);
    assert_eq!(solved["moves"], 3);
    assert_eq!(solved["path"], serde_json::json!(["F'", "U'", "R'"]));
    // In quarter turns, R2 is two moves.
    let qtm = json(&["--scramble", "R2", "--metric", "qtm", "--mode", "bfs"]);
    assert_eq!(qtm["moves"], 2);
    for (args, wanted) in [
        (
            vec!["--scramble", "R", "--moves", "U,Q"],
            "statespace: error: --moves: unknown move \"Q\" (the moves are U, D, F, B, R, L)",
        ),
        (
            vec!["--scramble", "R", "--metric", "stm"],
            "statespace: error: --metric: unknown metric \"stm\" (expected htm or qtm)",
        ),
        (
            vec!["--scramble", "R Q"],
            "statespace: error: --scramble:1: unknown move \"Q\" (token 2 of \"R Q\")",
        ),
        (
            vec![],
            "start: missing: give a [start] board (or scramble, for puzzles that read one), \
             or --board FILE, or --scramble MOVES",
        ),
    ] {
        let mut all = vec!["solve", def.as_str()];
        all.extend(args);
        let (code, _, err) = run(&all);
        assert_eq!(code, 2, "{err}");
        assert!(err.trim_end().ends_with(wanted), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // A TOML config says its moves itself.
    let config = PathBuf::from(crate::ROOT).join("configs/perm-2x2x2.toml");
    let (code, _, err) = run(&["solve", config.to_str().unwrap(), "--moves", "U"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--moves: only with a definition file"),
        "{err}"
    );
}

/// `solve --scrambles FILE`: twsearch's `ScrambleAlg` blocks and position blocks (`Scramble`,
/// 1-based labels as `Solved` writes them: the position `R U` reaches), each answered with its
/// name; a bad block (pieces the solved state lacks, a compact `CPOS`) is one line on stderr
/// and the others still run.
#[test]
fn perm_scramble_files_answer_every_block_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.scr");
    std::fs::write(
        &file,
        "ScrambleAlg SEXY\n  R U R' U'\nEnd\nScramble P\nCORNERS\n1 3 4 5 8 6 7 2\n\
         1 0 0 2 1 0 0 2\nEnd\nScrambleAlg TWO\nF2\nR\nEnd\nScramble BAD\nCORNERS\n\
         1 1 4 5 8 6 7 2\nEnd\nCPOS x\n",
    )
    .unwrap();
    let def = own("2x2x2.tws");
    let (code, out, err) = run(&[
        "solve",
        &def,
        "--moves",
        "U,F,R",
        "--scrambles",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 2, "a bad block makes the exit 2: {err}");
    assert!(err.contains("two.scr:13: Scramble BAD: "), "{err}");
    assert!(
        err.contains("two.scr:17: CPOS x: compact positions are not read"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 2, "{err}");
    let answers: Vec<serde_json::Value> = out
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let got: Vec<_> = answers
        .iter()
        .map(|a| (a["index"].clone(), a["name"].clone(), a["moves"].clone()))
        .collect();
    use serde_json::json;
    assert_eq!(
        got,
        [
            (json!(1), json!("SEXY"), json!(4)),
            (json!(2), json!("P"), json!(2)),
            (json!(3), json!("TWO"), json!(2))
        ]
    );
}

/// A space with no dense index is swept from the goals with a hash set until the memory budget
/// stops it: the depths it completed are the full sweep's first ones, exactly (Wheels, through
/// the engine, against the bitset sweep), and `explore` on the 6x6x6's definition says why it
/// has no index, where it stopped and why, and exits 4.
#[test]
fn perm_sweep_past_the_budget_keeps_the_depths_it_completed() {
    let wheels = space::<32>(&own("wheels.tws"), None, Metric::Htm);
    let all = Limits::default();
    let options = |limits| layers::Options {
        limits,
        threads: Some(1),
    };
    let full = layers::backward(&wheels, options(&all), &mut |_, _| {});
    let complete = layers::backward_hashed(&wheels, options(&all), &mut |_, _| {});
    assert_eq!(complete.histogram, full.histogram);
    assert!(complete.stopped.is_none());
    let tiny = Limits {
        memory_budget: 256 << 10,
        ..Limits::default()
    };
    let partial = layers::backward_hashed(&wheels, options(&tiny), &mut |_, _| {});
    assert!(matches!(partial.stopped, Some(Limit::Memory { .. })));
    let depths = partial.histogram.len();
    assert!((2..full.histogram.len()).contains(&depths), "{depths}");
    assert_eq!(partial.histogram, full.histogram[..depths]);

    let (code, out, err) = run(&["explore", &own(SIX), "--memory", "4MiB"]);
    assert_eq!(code, 4, "{err}");
    assert!(
        out.contains("backward from the goal set, hash-set")
            && out.contains("no dense index: a class of 24 slots is more than its rank takes")
            && out.contains("stopped: needs ")
            && out.contains(", while finding depth 3; the depths below are complete")
            && out.contains("       2  2,349\n"),
        "{out}"
    );
}

/// The project's 6x6x6 (configs/defs, generated by tools/generate_defs.py): 160 bytes of
/// state, past the 128 of the puzzles that can be solved optimally, so it runs over 256-byte
/// states with no index.
const SIX: &str = "6x6x6.tws";

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

/// Positions near the solved 6x6x6: the hash-set sweep from the start against a brute force
/// over every sequence of one and two moves (the published 1, 54, 2,349 of its 36 layer turns
/// in the half-turn metric); a sweep that stops at its depth limit stores nothing past it.
#[test]
fn perm_6x6x6_loads_and_counts_its_neighbourhood_as_a_brute_force_does() {
    let cube = space::<256>(&own(SIX), None, Metric::Htm);
    assert_eq!(cube.state_len(), 160);
    assert_eq!(cube.moves().len(), 54);
    assert!(!cube.indexable());
    let mut levels = vec![std::collections::HashSet::from([cube.solved()])];
    for _ in 0..2 {
        let mut next = std::collections::HashSet::new();
        for &s in levels.last().unwrap() {
            cube.successors(s, &mut |_, t| {
                next.insert(t);
            });
        }
        next.retain(|s| levels.iter().all(|level| !level.contains(s)));
        levels.push(next);
    }
    let brute: Vec<u64> = levels.iter().map(|l| l.len() as u64).collect();
    assert_eq!(brute, [1, 54, 2_349]);
    let e = near(&own(SIX), 2);
    assert_eq!((e.strategy, e.histogram), ("hash-set", brute));
    assert_eq!(e.stopped, Some(Limit::Depth(2)));
    // Nothing of the third layer was stored: the first new state stopped the sweep.
    assert!(e.stats.generated < 2_349 * 54, "{}", e.stats.generated);
}

/// A 4-move scramble of the 6x6x6 solved optimally: IDA* (the default, over the pruning table)
/// finds 4 moves that replay to solved through the model alone, and iddfs proves that 3 do not
/// suffice. A scramble and its inverse cancel in the packed states too.
#[test]
fn perm_6x6x6_four_move_scramble_is_solved_optimally() {
    let scramble = "F 2R U' 3B";
    let inst = instance(&own(SIX), "");
    let mut board = BoardText::from_file("scramble", scramble.into());
    board.scramble = true;
    let solution = inst
        .solve(
            &board,
            Mode::AUTO,
            &Limits::default(),
            &SearchOptions::default(),
        )
        .unwrap();
    assert_eq!(solution.mode, Mode::IDASTAR);
    let Answer::Solved { moves, .. } = &solution.answer else {
        panic!("{:?}", solution.answer)
    };
    assert_eq!(moves.len(), 4, "{moves:?}");
    let def = read_definition(Path::new(&own(SIX)), &mut Setup::default()).unwrap();
    let end = model_replay(&own(SIX), &solution.start, moves);
    assert_eq!(end, def.format_state(&def.solved));
    let shallow = Limits {
        max_depth: Some(3),
        ..Limits::default()
    };
    let solution = inst
        .solve(&board, Mode::IDDFS, &shallow, &SearchOptions::default())
        .unwrap();
    assert!(
        matches!(solution.answer, Answer::LimitReached(Limit::Depth(_))),
        "{:?}",
        solution.answer
    );
    // Applied and inverted: the scramble then its inverse is the solved state.
    let cube = space::<256>(&own(SIX), None, Metric::Htm);
    let start = cube.parse_scramble(&board, &mut Setup::default()).unwrap();
    let back = BoardText::from_file("inverse", "3B' U 2R' F'".into());
    let path: Vec<_> = ["3B'", "U", "2R'", "F'"]
        .iter()
        .map(|m| cube.move_named(m).unwrap())
        .collect();
    assert_eq!(replay(&cube, start, &path), Some(cube.solved()));
    // The inverse as a scramble (the model's composition) and as packed moves agree.
    let inverse = replay(&cube, cube.solved(), &path).unwrap();
    let back = cube.parse_scramble(&back, &mut Setup::default()).unwrap();
    assert_eq!(back, inverse);
    assert_ne!(inverse, start);
}

/// A state past the largest width is refused at load, with the figure, before any move is
/// expanded.
#[test]
fn perm_definitions_past_the_largest_state_are_refused() {
    let sets = 9;
    let mut text = String::from("Name Big\n");
    for s in 0..sets {
        text += &format!("Set A{s} 250 2\n");
    }
    text += "Solved\n";
    let labels: Vec<String> = (1..=250).map(|l| l.to_string()).collect();
    for s in 0..sets {
        text += &format!("A{s}\n{}\n", labels.join(" "));
    }
    text += "End\nMove X\nA0\n";
    let mut perm: Vec<String> = (2..=250).map(|l| l.to_string()).collect();
    perm.push("1".into());
    text += &format!("{}\n{}\nEnd\n", perm.join(" "), vec!["0"; 250].join(" "));
    let (code, err) = bad("big.tws", &text, "");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("big.tws: a state takes 4500 bytes, more than the 4096 supported"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn perm_beam_search_ranks_a_big_cube_by_its_pieces_distances_home() {
    // A 10-move scramble of the 6x6x6 (160-byte states, 54 moves): far past any exact search
    // here, and past a beam ranked by the admissible heuristic (a small table's bound, flat on
    // a cube this size) or by pieces out of place (a plateau: the beam wandered thousands of
    // moves deep). Ranked by each piece's own distance home, a beam of 1,000 finds a path of
    // at most the scramble's length, in well under a second (release).
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    let text = format!(
        "[puzzle]\nkind = \"perm\"\ndefinition = \"{}\"\n[search]\nmode = \"beam\"\nbeam_width = 1000\n",
        own("6x6x6.tws")
    );
    std::fs::write(&cfg, text).unwrap();
    let scramble = "2U2 2D' 3R 3B' L2 3B' 3L' B U' D";
    let args = [
        "solve",
        cfg.to_str().unwrap(),
        "--json",
        "--time-limit",
        "60s",
    ];
    let (code, out, err) = run(&[&args[..], &["--scramble", scramble]].concat());
    assert_eq!(code, 0, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["outcome"], "solved", "{out}");
    assert_eq!(json["optimal"], false);
    let moves = json["moves"].as_u64().unwrap();
    assert!((1..=10).contains(&moves), "{moves} moves");
    // The path undoes the scramble: scramble then path is the solved state.
    let path: Vec<String> = serde_json::from_value(json["path"].clone()).unwrap();
    let both = format!("{scramble} {}", path.join(" "));
    let (code, out, err) = run(&[&args[..], &["--scramble", &both]].concat());
    assert_eq!(code, 0, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["moves"], 0, "{both}: {out}");
}

/// `auto` is never blind: on the rings (configs/defs) the pattern databases the choice allows
/// tell nothing (a mean of 0: IDA* under `kind = "pdb"` expands 4,092 nodes for a 5-move
/// answer), so the pruning table joins them and IDA* expands what it does under
/// `kind = "pruning"`: the answer's moves and no more, the same length.
#[test]
fn perm_auto_adds_the_pruning_table_to_databases_that_tell_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let solve = |kind: &str| {
        let cfg = dir.path().join(format!("{kind}.toml"));
        std::fs::write(
            &cfg,
            format!(
                "[puzzle]\nkind = \"perm\"\ndefinition = \"{}\"\n[heuristic]\nkind = \"{kind}\"\n",
                own("rings.tws")
            ),
        )
        .unwrap();
        let (code, out, err) = run(&[
            "solve",
            cfg.to_str().unwrap(),
            "--scramble",
            "L R L R R R L R",
            "--mode",
            "idastar",
            "--no-cache",
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        (
            json["moves"].as_u64().unwrap(),
            json["stats"]["expanded"].as_u64().unwrap(),
        )
    };
    let (pdb, pruning, auto) = (solve("pdb"), solve("pruning"), solve("auto"));
    assert_eq!(pdb.0, 5);
    assert!(pdb.1 > 1000, "the databases alone are blind: {pdb:?}");
    assert_eq!(auto, pruning);
    assert_eq!(auto, (5, 5));
}
