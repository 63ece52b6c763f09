//! Pattern databases of the permutation puzzles: flip and twist patterns built as the level
//! scans build them, admissible, looked up through rotations and at the inverse, and IDA* over
//! them finding the whole tables' lengths.

use super::*;

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
        6,
        "the turns about the UFR-DBL diagonal and the mirrors through it"
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
pub(super) fn ida_finds_the_table_lengths<const N: usize>(
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
            // One more where look-ups equal to the distance rule out every move
            // (`perm_tight_look_ups_raise_the_estimate_by_one_and_stay_admissible`).
            let e = part.estimate(space, s);
            let raised = part.tight_bounds_apply() && e == by_images + 1;
            assert!(
                e == by_images || raised,
                "{s:?}: {e}, by images {by_images}"
            );
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
    // The checkerboard: every symmetry maps it to itself, so its 18 first moves fall into 2
    // classes (quarter turns, a mirror making each its inverse; half turns).
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
    assert_eq!(cube.symmetries().order(), 48);
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
