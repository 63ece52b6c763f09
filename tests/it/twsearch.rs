//! twsearch's sample definitions (`../shared/defs`, read in place): an extra suite for the
//! machine where they sit beside the checkout. Each test asks [`shared_dir`](crate::shared_dir)
//! first, which says on stderr that the test was skipped when the folder is not there (a fresh
//! clone): the project's own definitions (configs/defs) cover the same ground in `perm` and the
//! plugin's unit tests. Here: every sample parses and validates with its moves' orders, and the
//! puzzles both define count the same positions at the same distances (the 6x6x6 too: a state
//! of 160 bytes).

use crate::perm::{HTM_2X2X2, QTM_2X2X2, SKEWB, UFR, histogram, instance, near, own, space};
use statespace::board_text::BoardText;
use statespace::config::Mode;
use statespace::instance::Answer;
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use statespace::random::Lcg;
use statespace::setup::Setup;
use statespace::space::SplitMoves;
use statespace_perm::def::{Definition, Metric, State};
use statespace_perm::tws;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The samples, parsed.
fn read(defs: &Path, name: &str) -> Definition {
    tws::read(&defs.join(name), &mut Setup::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn path(defs: &Path, name: &str) -> String {
    defs.join(name).to_str().unwrap().to_string()
}

fn orders(def: &Definition) -> Vec<(String, u128)> {
    def.moves
        .iter()
        .map(|m| (m.name.clone(), m.transform.order(&def.orbits)))
        .collect()
}

#[test]
fn twsearch_samples_parse_and_their_moves_have_the_puzzles_orders() {
    let Some(defs): Option<PathBuf> = crate::shared_dir("defs") else {
        return;
    };
    let every = |name: &str, order: u128| {
        let def = read(&defs, name);
        def.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        for (m, k) in orders(&def) {
            assert_eq!(k, order, "{name} {m}");
        }
        def
    };
    every("2x2x2.tws", 4);
    let cube = every("3x3x3.tws", 4);
    assert_eq!(cube.orbits[0].name, "EDGE");
    let at = statespace::error::Location::file("test");
    let ru = cube.sequence_transform(&cube.parse_sequence("R U", &at).unwrap());
    assert_eq!(ru.order(&cube.orbits), 105);
    every("lo33.tws", 3);
    every("lo44.tws", 4);
    every("pyraminx.tws", 3);
    every("skewb.tws", 3);
    let turnstile = read(&defs, "turnstile.tws");
    turnstile.validate().unwrap();
    let r = turnstile.move_index("R").unwrap();
    assert_eq!(turnstile.moves[r].transform.order(&turnstile.orbits), 6);
    // Square-1: turns of 12 units and the slice, four Illegal lines that block moves, so its
    // index does not split into blocks.
    let sq1 = read(&defs, "squareone.tws");
    sq1.validate().unwrap();
    let wanted = [("U", 12), ("D", 12), ("S", 2)].map(|(m, k)| (m.to_string(), k));
    assert_eq!(orders(&sq1), wanted);
    assert_eq!(sq1.illegal.len(), 4);
    let square1 = space::<64>(&path(&defs, "squareone.tws"), None, Metric::Htm);
    assert_eq!(square1.low_count(), None);
}

#[test]
fn twsearch_samples_count_what_the_projects_own_definitions_count() {
    let Some(defs) = crate::shared_dir("defs") else {
        return;
    };
    // The 2x2x2 with U, F, R (which never touch one corner), in both metrics.
    let (h, size) = histogram(&path(&defs, "2x2x2.tws"), UFR);
    assert_eq!((h, size), (HTM_2X2X2.to_vec(), 3_674_160));
    let (h, _) = histogram(
        &path(&defs, "2x2x2.tws"),
        &format!("{UFR}\nmetric = \"qtm\""),
    );
    assert_eq!(h, QTM_2X2X2);
    // The sample's Skewb has all eight corner turns; four of them fix a corner, like ours.
    let moves = "moves = [\"DFR\", \"UBR\", \"DRB\", \"DBL\"]";
    let (h, size) = histogram(&path(&defs, "skewb.tws"), moves);
    assert_eq!(h, SKEWB);
    assert_eq!(size, 9 * 3_149_280, "the index over-counts 9 times");
    // LoopOver 3x3: the same distances as ours.
    let (h, size) = histogram(&path(&defs, "lo33.tws"), "");
    assert_eq!(size, 181_440);
    assert_eq!(h, histogram(&own("loopover-3x3.tws"), "").0);
    // The Pyraminx's tips alone, as ours.
    let tips = "moves = [\"FRD\", \"FDL\", \"DRL\", \"FLR\"]";
    let (h, size) = histogram(&path(&defs, "pyraminx.tws"), tips);
    assert_eq!((h, size), (vec![1, 8, 24, 32, 16], 81));
}

/// twsearch's `symm/2x2x2` defines rotations (`Fv`, `DFRv`, ...) beside its six face turns:
/// they are not moves (twsearch's convention), so the solved cube has 18 neighbours, not 41.
#[test]
fn twsearch_rotations_are_not_searched() {
    use statespace::space::StateSpace;
    let Some(defs) = crate::shared_dir("defs") else {
        return;
    };
    let neighbours = |moves: Option<&[&str]>| {
        let cube = space::<16>(&path(&defs, "2x2x2-symm.tws"), moves, Metric::Htm);
        let mut seen = std::collections::HashSet::new();
        cube.successors(cube.solved(), &mut |_, s| {
            seen.insert(s);
        });
        seen.len()
    };
    assert_eq!(neighbours(None), 18);
    assert_eq!(neighbours(Some(&["F", "Fv"])), 6);
}

/// twsearch's 6x6x6 (160 bytes of state, 256-byte states here) and the project's own count the
/// same positions near the solved state (twsearch's own fill: 1, 54, 2,349, 100,668).
#[test]
fn twsearch_6x6x6_counts_what_ours_counts() {
    let Some(defs) = crate::shared_dir("defs") else {
        return;
    };
    let theirs = near(&path(&defs, "6x6x6.tws"), 2);
    assert_eq!(theirs.histogram, [1, 54, 2_349]);
    assert_eq!(theirs.histogram, near(&own("6x6x6.tws"), 2).histogram);
}

/// The distances of the classes within `depth` moves of `def`'s solved state, by a BFS over the
/// model alone (the moves composed by the definition, no packed bytes), a class keyed by its
/// state with the wild pieces' twists set to 0 (twsearch's `?`: a twist never compared).
fn wild_brute_force(def: &Definition, depth: u32) -> HashMap<State, u32> {
    let key = |state: State| {
        let mut s = state;
        for (o, wild) in s.orbits.iter_mut().zip(&def.wild) {
            for (slot, label) in o.pieces.iter().enumerate() {
                if wild.contains(label) {
                    o.orientation[slot] = 0;
                }
            }
        }
        s
    };
    let at = statespace::error::Location::file("test");
    let powers = def
        .generators(None, Metric::Htm, &at, &mut Setup::default())
        .unwrap();
    let start = key(def.solved.clone());
    let mut distance = HashMap::from([(start.clone(), 0)]);
    let mut layer = vec![start];
    for d in 1..=depth {
        let mut next = Vec::new();
        for s in &layer {
            for p in &powers {
                let t = key(s.apply(&p.transform, &def.orbits));
                if !distance.contains_key(&t) {
                    distance.insert(t.clone(), d);
                    next.push(t);
                }
            }
        }
        layer = next;
    }
    distance
}

/// twsearch's two samples with wild twists (`?` in the solved state's orientation line: the
/// maltese gear's edges, the puck's U and D centres) load, count the positions near solved as a
/// brute force over the quotient does (and as twsearch: `-g --maxdepth 3`), and random
/// scrambles solve, by IDA* (`auto`) and bidirectional search, in as many moves as the brute
/// force's distance, the path ending solved by the model's own composition.
#[test]
fn twsearch_wild_twists_count_and_solve_as_a_brute_force() {
    let Some(defs) = crate::shared_dir("defs") else {
        return;
    };
    let samples = [
        ("maltese.tws", [1, 21, 291, 3_889]),
        ("puck.tws", [1, 12, 150, 1_906]),
    ];
    let mut rng = Lcg(47);
    for (name, twsearch) in samples {
        let def = read(&defs, name);
        assert!(def.has_wild(), "{name}");
        let file = path(&defs, name);
        let brute = wild_brute_force(&def, 4);
        let mut counts = vec![0u64; 4];
        for &d in brute.values().filter(|&&d| d <= 3) {
            counts[d as usize] += 1;
        }
        assert_eq!(counts, twsearch, "{name}");
        assert_eq!(near(&file, 3).histogram, counts, "{name}");
        let inst = instance(&file, "");
        let at = statespace::error::Location::file("test");
        let powers = def
            .generators(None, Metric::Htm, &at, &mut Setup::default())
            .unwrap();
        let solved = wild_brute_force(&def, 0).into_keys().next().unwrap();
        for _ in 0..4 {
            let scramble: Vec<&str> = (0..4)
                .map(|_| powers[rng.below(powers.len())].name.as_str())
                .collect();
            let text = scramble.join(" ");
            let turns = def.parse_sequence(&text, &at).unwrap();
            let state = def
                .solved
                .apply(&def.sequence_transform(&turns), &def.orbits);
            let mut wanted = None;
            for (class, &d) in &brute {
                let mut s = state.clone();
                def.unwild(&mut s);
                if *class == s {
                    wanted = Some(d as usize);
                }
            }
            let wanted = wanted.expect("within 4 moves");
            let mut board = BoardText::from_file("scramble", text.clone());
            board.scramble = true;
            for mode in [Mode::AUTO, Mode::BIDIRECTIONAL] {
                let solution = inst
                    .solve(&board, mode, &Limits::default(), &SearchOptions::default())
                    .unwrap();
                let Answer::Solved { moves, .. } = &solution.answer else {
                    panic!("{name} {text} {mode}: {:?}", solution.answer)
                };
                assert_eq!(moves.len(), wanted, "{name} {text} {mode}: {moves:?}");
                let path = def.parse_sequence(&moves.join(" "), &at).unwrap();
                let mut end = state.apply(&def.sequence_transform(&path), &def.orbits);
                def.unwild(&mut end);
                assert_eq!(end, solved, "{name} {text} {mode}: {moves:?}");
            }
        }
    }
}
