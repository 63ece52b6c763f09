//! Definitions as users write them: `Illegal` rules, setups of many moves within the limits,
//! chained sequences, rotations, definition files without a config, scramble files, big cubes
//! past the largest state, and `auto`'s choice on definitions whose databases tell nothing.

use super::*;

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
