//! The pruning table and the heuristic kinds (`pdb`, `pruning`, `auto`): exact where filled,
//! admissible, the same optimal lengths by every kind, and the `[heuristic]` keys checked.

use super::*;

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
    // Two tiers: 64 KiB, then 4 MiB from the level that would fill a quarter of the first.
    let growth = Growth {
        bytes: 1 << 22,
        first_bytes: 1 << 16,
        first_work: 1000,
        pays: 1,
    };
    let pruning = PruningTable::new(&cube, &Limits::default(), growth).unwrap();
    let mut rng = Lcg(7);
    let samples = walks(&cube, &mut rng, 3000, 25);
    // The states within 7 moves, by the table (every index).
    let near: Vec<(_, u32)> = (0..cube.size() as u64)
        .map(|i| cube.state(i))
        .map(|s| (s, distance(s)))
        .filter(|&(_, d)| d <= 7)
        .collect();
    let mut checked = Vec::new();
    while pruning.depth() <= 6 {
        let depth = pruning.depth();
        let mut least = std::collections::HashMap::new();
        for &(s, d) in near.iter().filter(|&&(_, d)| d <= depth) {
            let cell = least.entry(pruning.cell(&cube, s)).or_insert(d);
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
    assert_eq!(pruning.bytes(), 1 << 22, "moved to the large tier");
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

/// Look-ups equal to the distance rule out the moves they keep (`Conjugated`'s tight bounds): on
/// the 2x2x2 turned about its UFR corner, the pattern of the corners' twists and which corners
/// are in the U layer (the 3x3x3's first-phase pattern in small) keeps the U turns, its two
/// rotated look-ups the F and the R turns, so where the largest is shared by look-ups that keep
/// every move between them, the estimate is one more. Never above the distance (every 37th
/// state of the whole puzzle, against its table), never below the plain look-ups and at most one
/// above, above them on many states; prefetched estimates agree with direct ones at every limit;
/// the first moves the inverse's tight look-ups rule out start no path within the budget; IDA*
/// finds the table's lengths. With and without the inverse, and at the inverse alone.
#[test]
fn perm_tight_look_ups_raise_the_estimate_by_one_and_stay_admissible() {
    use statespace_perm::heuristic::Conjugated;
    let ufr: &[&str] = &["U", "F", "R"];
    let space = space::<32>(&own("2x2x2-rotations.tws"), Some(ufr), Metric::Htm);
    let table = table::build(&space, &Limits::default()).unwrap();
    let solved = space.solved();
    let turned = space.apply(solved, space.move_named("U").unwrap());
    let corners = (0..space.layout().classes())
        .find(|&c| space.layout().class(c).labels.len() == 7)
        .unwrap();
    let up: Vec<u8> = space.layout().class(corners).labels[..]
        .iter()
        .filter(|&&slot| turned.0[usize::from(slot)] != solved.0[usize::from(slot)])
        .map(|&slot| solved.0[usize::from(slot)])
        .collect();
    assert_eq!(up.len(), 4, "the U layer's corners");
    let twists = Pattern::twists(&space, &[(corners, up)]).unwrap();
    let database = || {
        heuristic::heuristic::<32>(vec![twists.clone()], &Limits::default(), None)
            .unwrap()
            .into_parts()
            .pop()
            .unwrap()
    };
    let mut rng = Lcg(43);
    // Along the three axes, without and with the inverse; at the state and its inverse alone
    // (one look-up a side keeps only the U turns: no estimate raised, first moves ruled out).
    for (extra, dual) in [(2, false), (2, true), (0, true)] {
        let tight = Conjugated::new(&space, database(), extra, dual);
        let plain = Conjugated::new(&space, database(), extra, dual).without_tight_bounds();
        let twin = Conjugated::new(&space, database(), extra, dual);
        assert_eq!(tight.tight_bounds_apply(), extra == 2);
        assert!(!plain.tight_bounds_apply());
        assert_eq!(tight.through().len(), extra, "the other two axes");
        let (mut raised, mut ruled, mut noted) = (0, 0, 0);
        for index in (0..space.size() as u64).step_by(37) {
            let s = space.state(index);
            let d = table.distance(&space, s).unwrap().unwrap();
            let (t, p) = (tight.estimate(&space, s), plain.estimate(&space, s));
            // The note a staged estimate leaves: the same moves ruled out as without it, and
            // another instance's note (or a stray word) taken for none.
            let note = statespace::space::memo(&tight, &space, s).0.note();
            noted += usize::from(note != 0);
            let other = statespace::space::memo(&twin, &space, s).0;
            assert!(
                p <= t && t <= p + 1 && t <= d,
                "plain {p}, tight {t}, distance {d}"
            );
            raised += usize::from(t > p);
            // A move ruled out for a budget starts no path within it.
            for budget in d.saturating_sub(1)..=d + 1 {
                let out = tight.ruled_out(&space, s, 0, budget);
                assert_eq!(tight.ruled_out(&space, s, note, budget), out, "noted");
                assert_eq!(tight.ruled_out(&space, s, other.note(), budget), out);
                assert_eq!(tight.ruled_out(&space, s, index << 8 | 3, budget), out);
                for (j, &m) in space.moves().iter().enumerate() {
                    if out >> j & 1 == 1 {
                        let after = table.distance(&space, space.apply(s, m)).unwrap().unwrap();
                        assert!(
                            after >= budget,
                            "move {j} ruled out within {budget}: {after}"
                        );
                        ruled += 1;
                    }
                }
            }
            let ahead = tight.prefetch(&space, s);
            for limit in 0..=t + 1 {
                assert_eq!(
                    tight.estimate_prefetched(&space, s, &ahead, limit),
                    tight.estimate_below(&space, s, limit),
                    "below {limit}"
                );
            }
        }
        assert_eq!(
            raised > 1000,
            extra == 2,
            "raised {raised} (inverse: {dual})"
        );
        // Only the inverse's look-ups rule out first moves; each estimate read in full leaves
        // their entries in its note.
        assert_eq!(ruled > 1000, dual, "{ruled} moves ruled out");
        assert_eq!(noted > 1000, dual, "{noted} notes");
        super::patterns::ida_finds_the_table_lengths(&space, &tight, &table, &mut rng);
    }
}
