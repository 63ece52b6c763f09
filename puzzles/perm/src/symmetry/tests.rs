//! The symmetries' tests: which are found, and that each keeps every distance.

use super::Symmetries;
use crate::def::{Definition, Metric};
use crate::{PermSpace, tws};
use statespace::error::Location;
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use statespace::random::Lcg;
use statespace::search::table;
use statespace::setup::Setup;
use statespace::space::{Indexed, StateSpace, Symmetric};
use std::path::PathBuf;

fn def(name: &str) -> Definition {
    let limits = Limits::default();
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../configs/defs/{name}.tws"));
    tws::read(&path, &mut Setup::new(&limits)).unwrap()
}

fn space<const N: usize>(name: &str, moves: Option<&[&str]>) -> PermSpace<N> {
    let limits = Limits::default();
    let d = def(name);
    let names: Option<Vec<String>> = moves.map(|m| m.iter().map(|s| s.to_string()).collect());
    let powers = d
        .generators(
            names.as_deref(),
            Metric::Htm,
            &Location::file("test"),
            &mut Setup::new(&limits),
        )
        .unwrap();
    PermSpace::<N>::new(d, &powers, false, &mut Setup::new(&limits)).unwrap()
}

/// The symmetries found: the rotations that keep the moves, and as many mirror images (a
/// mirror found from the moves, then followed by each rotation): the cube's 48 (Oh), the
/// stabilisers of a corner's diagonal (C3v: 6), of an edge's axis with U and R (4: a half
/// turn and two mirrors) and of the U axis (C4v: 8).
#[test]
fn perm_symmetries_are_the_rotations_and_mirrors_that_keep_the_moves() {
    let found = |s: &Symmetries| (s.order(), s.mirrors());
    let cube = space::<64>("3x3x3-rotations", None);
    assert_eq!(found(cube.symmetries()), (48, 24));
    assert_eq!(cube.symmetries().generators(), ["x", "y", "z"]);
    let two = |moves| found(space::<16>("2x2x2-rotations", moves).symmetries());
    assert_eq!(two(None), (48, 24));
    // The DBL corner fixed: the turns about the UFR-DBL diagonal map U -> F -> R; the mirrors
    // through the planes that hold the diagonal swap two of them (and reverse the turns).
    assert_eq!(two(Some(&["U", "F", "R"])), (6, 3));
    // The half turn about the axis through the UR edge swaps U and R; the mirror through the
    // plane of the U and R axes keeps each, the one through the UR edge's plane swaps them.
    assert_eq!(two(Some(&["U", "R"])), (4, 2));
    // The turns about the U axis keep U, and the four mirrors through planes that hold it.
    assert_eq!(two(Some(&["U"])), (8, 4));
    // No rotations in the file: none, and nothing to explain.
    let plain = space::<64>("3x3x3", None);
    assert_eq!(
        (plain.symmetries().order(), plain.symmetries().refused()),
        (1, None)
    );
}

/// The 3x3x3's positions up to its 48 symmetries near solved, by distance in the face-turn
/// metric, are the published counts (Jerry Bryan's, jerrybryan.com/math/rubikresults.html;
/// cube20.org): 1, 2, 9, 75, 934, 12,077 classes of 1, 18, 243, 3,240, 43,239, 574,908
/// positions. With the rotations alone the first move's 18 would make 3 classes (a quarter turn
/// and its inverse are not conjugate by a rotation), not 2.
#[test]
fn perm_cube_classes_near_solved_are_the_published_counts() {
    use std::collections::HashSet;
    let cube = space::<64>("3x3x3-rotations", None);
    let symmetries = cube.symmetries();
    let mut seen = HashSet::from([cube.solved()]);
    let mut layer = vec![cube.solved()];
    let (mut positions, mut classes) = (Vec::new(), Vec::new());
    for depth in 0..=5 {
        positions.push(layer.len());
        let canonical: HashSet<_> = layer.iter().map(|&s| symmetries.canonical(s)).collect();
        classes.push(canonical.len());
        if depth == 5 {
            break;
        }
        let mut next = Vec::new();
        for &s in &layer {
            cube.successors(s, &mut |_, t| {
                if seen.insert(t) {
                    next.push(t)
                }
            });
        }
        layer = next;
    }
    assert_eq!(positions, [1, 18, 243, 3_240, 43_239, 574_908]);
    assert_eq!(classes, [1, 2, 9, 75, 934, 12_077]);
}

/// Each symmetry fixes solved and renames moves consistently: the image of `s · m` is the
/// image of `s` followed by one move `σ(m)`, the same for every state, so the symmetry is
/// an automorphism of the graph and keeps every distance.
#[test]
fn perm_images_fix_solved_and_rename_moves() {
    fn check<const N: usize>(space: &PermSpace<N>) {
        let order = space.symmetries().order() - 1;
        let images = |s| {
            let mut all = Vec::new();
            space.images(s, |i| all.push(i));
            assert_eq!(all.len(), order);
            all
        };
        assert!(images(space.solved()).iter().all(|&i| i == space.solved()));
        let moves = space.moves();
        // sigma[k][m]: the move symmetry k renames move m to, once seen.
        let mut sigma = vec![vec![None; moves.len()]; order];
        let mut rng = Lcg(7);
        let mut s = space.solved();
        for _ in 0..60 {
            s = space.apply(s, moves[rng.below(moves.len())]);
            let from = images(s);
            for (m, &mv) in moves.iter().enumerate() {
                let to = images(space.apply(s, mv));
                for k in 0..order {
                    let renamed = moves.iter().position(|&r| space.apply(from[k], r) == to[k]);
                    let renamed = renamed.expect("the image of a move is a move");
                    assert_eq!(*sigma[k][m].get_or_insert(renamed), renamed);
                }
            }
        }
    }
    check(&space::<64>("3x3x3-rotations", None));
    check(&space::<16>("2x2x2-rotations", Some(&["U", "F", "R"])));
}

/// The distance table built one orbit at a time is the plain one, entry for entry, and the
/// orbits' representatives are the states of least bytes.
#[test]
fn perm_symmetric_table_equals_the_plain_table() {
    let space = space::<16>("2x2x2-rotations", Some(&["U", "R"]));
    let limits = Limits::default();
    let plain = table::build_with(&space, &limits, table::Width::Auto).unwrap();
    let symmetric = table::build_symmetric(&space, &limits, table::Width::Auto).unwrap();
    let (mut positions, mut orbits) = (0, 0);
    for i in 0..space.size() as u64 {
        let s = space.state(i);
        let d = plain.distance(&space, s).unwrap();
        assert_eq!(d, symmetric.distance(&space, s).unwrap(), "state {i}");
        space.images(s, |image| {
            assert_eq!(plain.distance(&space, image).unwrap(), d)
        });
        positions += usize::from(d.is_some());
        if d.is_some() && space.is_representative(s) {
            orbits += 1;
            assert_eq!(space.symmetries().canonical(s), s);
        }
    }
    // The half turn and the two mirrors fix few positions, so the orbits are a little over a
    // quarter of them.
    assert_eq!(positions, 29_160);
    assert!(orbits > 29_160 / 4 && orbits < 29_160 / 4 + 500, "{orbits}");
    assert!(space.is_goal(space.solved()));
}

/// The symmetric pruning table against the plain one on the 2x2x2 with every face turn (24
/// rotations, 24 mirrors): at one depth the same estimate for every state looked at, about a
/// twentieth of the cells; a level deeper (which the same bytes hold) an estimate as large
/// or larger, never above the distance; and IDA* over either finds the same lengths.
#[test]
fn perm_symmetric_pruning_table_gives_the_same_or_larger_estimates() {
    use statespace::search::pruning::{Growth, PruningTable};
    use statespace::search::{Outcome, idastar};
    let space = space::<16>("2x2x2-rotations", None);
    let limits = Limits::default();
    let growth = Growth {
        bytes: 1 << 22,
        first_bytes: 1 << 22,
        first_work: 0,
        pays: u64::MAX,
    };
    let plain = PruningTable::new(&space, &limits, growth).unwrap();
    let symmetric = PruningTable::symmetric(&space, &limits, growth).unwrap();
    assert_eq!(symmetric.orbit_size(), 48);
    for _ in 0..4 {
        assert!(plain.deepen(&space).unwrap() && symmetric.deepen(&space).unwrap());
    }
    assert_eq!((plain.depth(), symmetric.depth()), (4, 4));
    let (p, s) = (plain.fill(), symmetric.fill());
    // 1 + 18 + 243 + 2,874 + 28,000 = 31,136 positions (a few share a cell); far fewer
    // orbits, and a sixth of the walk.
    assert!(p.filled <= 31_136 && p.filled > 30_900, "{}", p.filled);
    assert!(s.filled * 15 < p.filled, "{} orbits", s.filled);
    assert!(s.work * 5 < p.work, "{} of {}", s.work, p.work);
    let mut rng = Lcg(11);
    let moves = space.moves();
    let scrambles: Vec<_> = (0..300)
        .map(|k| {
            let mut state = space.solved();
            for _ in 0..k % 9 {
                state = space.apply(state, moves[rng.below(moves.len())]);
            }
            state
        })
        .collect();
    // The distances, by IDA* over the plain table; over the symmetric one the same.
    let exact: Vec<u32> = scrambles
        .iter()
        .map(|&state| {
            let length = |outcome| match outcome {
                Outcome::Solved(path) => path.len() as u32,
                other => panic!("{other:?}"),
            };
            let d = length(
                idastar::solve(&space, &plain, state, &limits, &SearchOptions::default()).outcome,
            );
            assert_eq!(
                d,
                length(
                    idastar::solve(
                        &space,
                        &symmetric,
                        state,
                        &limits,
                        &SearchOptions::default()
                    )
                    .outcome
                )
            );
            d
        })
        .collect();
    // Both admissible, both exact inside the depth (d + 1 outside) unless a nearer state
    // shares the cell: at 4 Mi cells, rarely.
    let exact_at = |table: &PruningTable<PermSpace<16>>| {
        let mut hits = 0;
        for (&state, &d) in scrambles.iter().zip(&exact) {
            let estimate = table.distance(&space, state);
            assert!(estimate <= d, "{estimate} > {d}");
            hits += usize::from(estimate == d.min(table.depth() + 1));
        }
        hits
    };
    assert!(exact_at(&plain) >= 295 && exact_at(&symmetric) >= 295);
    // A level deeper in the symmetric table: as large or larger, and larger somewhere.
    assert!(symmetric.deepen(&space).unwrap());
    assert!(exact_at(&symmetric) >= 295);
    let (mut larger, mut smaller) = (0, 0);
    for &state in &scrambles {
        let (deeper, shallow) = (
            symmetric.distance(&space, state),
            plain.distance(&space, state),
        );
        larger += usize::from(deeper > shallow);
        smaller += usize::from(deeper < shallow);
    }
    assert!(
        larger >= 20 && smaller <= 3,
        "{larger} larger, {smaller} smaller"
    );
}

/// `explore --symmetry`'s count on the 2x2x2 with rotations, turned with U, F, R (the three
/// turns about the UFR-DBL diagonal and the three mirrors through it keep the moves): near solved, the orbits a brute force
/// finds (a breadth-first search with a hash set, each orbit as the set of its states) and
/// Burnside's count (the mean number of states each symmetry fixes), depth by depth; over
/// the whole space, Burnside's total; and the least of an orbit found early as the least
/// of all of it (3x3x3, 48 symmetries).
#[test]
fn perm_classes_by_distance_match_brute_force_and_burnside() {
    use statespace::search::layers::{self, classes};
    use std::collections::HashSet;
    let cube = space::<64>("3x3x3-rotations", None);
    let space = space::<16>("2x2x2-rotations", Some(&["U", "F", "R"]));
    let order = space.symmetries().order();
    assert_eq!(order, 6);
    let sweep = |limits: &Limits| {
        let options = layers::Options {
            limits,
            threads: Some(2),
        };
        let each = layers::split_backward_each::<PermSpace<16>>;
        classes::backward(&space, each, options, &mut |_, _| {}).unwrap()
    };
    let depth = 7;
    let near = Limits {
        max_depth: Some(depth),
        ..Limits::default()
    };
    let (layers, counted) = sweep(&near);
    assert_eq!(counted.symmetries, 6);
    // The brute force: layer by layer from solved.
    let mut seen = HashSet::from([space.solved()]);
    let mut layer = vec![space.solved()];
    for d in 0..=depth as usize {
        let mut orbits = HashSet::new();
        let mut fixed = 0;
        for &s in &layer {
            let mut orbit = vec![s];
            space.images(s, |image| {
                orbit.push(image);
                fixed += usize::from(image == s);
            });
            orbit.sort_unstable();
            orbit.dedup();
            orbits.insert(orbit);
        }
        assert_eq!(layers.histogram[d], layer.len() as u64, "depth {d}");
        assert_eq!(counted.histogram[d], orbits.len() as u64, "depth {d}");
        assert_eq!((layer.len() + fixed) % order, 0);
        assert_eq!(counted.histogram[d], ((layer.len() + fixed) / order) as u64);
        let mut next = Vec::new();
        for &s in &layer {
            space.successors(s, &mut |_, t| {
                if seen.insert(t) {
                    next.push(t)
                }
            });
        }
        layer = next;
    }
    // The whole space: 3,674,160 positions; Burnside over every one of them.
    let (layers, counted) = sweep(&Limits::default());
    assert_eq!(layers.histogram.iter().sum::<u64>(), 3_674_160);
    assert_eq!(counted.histogram.len(), 12);
    let mut fixed = 0u64;
    for i in 0..space.size() as u64 {
        let s = space.state(i);
        space.images(s, |image| fixed += u64::from(image == s));
    }
    assert_eq!(counted.total(), (3_674_160 + fixed) / 6);
    // 612,630: the 162 positions each of the two turns fixes and the 432 each of the three
    // mirrors fixes (a few more than a sixth).
    assert_eq!(fixed, 2 * 162 + 3 * 432);
    assert_eq!(counted.total(), 612_630);
    // The early exit of `is_least` against the whole canonical form.
    let mut rng = Lcg(5);
    let mut s = cube.solved();
    let moves = cube.moves();
    let mut least = 0;
    for _ in 0..3_000 {
        s = cube.apply(s, moves[rng.below(moves.len())]);
        for t in [s, cube.symmetries().canonical(s)] {
            let is_least = cube.symmetries().is_least(&t);
            assert_eq!(is_least, cube.symmetries().canonical(t) == t);
            least += usize::from(is_least);
        }
    }
    assert!(least >= 3_000, "{least}");
}
