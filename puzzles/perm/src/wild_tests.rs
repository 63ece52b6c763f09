//! Wild twists (twsearch's `?` in a solved orientation line, see [`tws`](crate::tws#wildcards))
//! on a small definition of our own: the sweep's histogram and optimal solves (IDA* over
//! pattern databases, bidirectional search) against a brute-force BFS over the quotient written
//! here on the model alone, and the refusals, one line each at their place.

use crate::def::{Definition, Metric, State};
use crate::heuristic::{self, Pattern};
use crate::{PermSpace, tws};
use hashbrown::HashMap;
use statespace::error::Location;
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use statespace::random::Lcg;
use statespace::search::{Outcome, bidirectional, idastar, layers};
use statespace::setup::Setup;
use statespace::space::{Indexed, Invariant};

/// Five pieces of three twists (two alike, label 4) and three of two. A's piece 2 and B's
/// piece 1 are wild. Z twists A's piece 2 alone (a sweep that counted wild twists would count
/// three times too many positions); every move keeps B's flip sum even, an invariant the
/// wild piece breaks (a search that kept it would refuse positions).
const WILD: &str = "Name Wild
Set A 5 3
Set B 3 2
Solved
A
1 2 3 4 4
0 ? 0 0 0
B
1 2 3
? 0 0
End
Move X
A
2 3 4 5 1
1 0 0 0 2
B
2 1 3
1 1 0
End
Move Y
A
1 3 2 4 5
0 1 2 0 0
B
1 3 2
0 1 1
End
Move Z
A
1 2 3 5 4
0 1 0 1 2
End
";

/// The wild labels (0-based) per orbit, as the test reads the file.
const WILD_LABELS: [&[u8]; 2] = [&[1], &[0]];

fn parse(text: &str) -> statespace::error::Result<Definition> {
    tws::parse(text, "wild.tws", &mut Setup::default())
}

fn space(def: Definition) -> PermSpace<16> {
    let at = Location::file("test");
    let powers = def
        .generators(None, Metric::Htm, &at, &mut Setup::default())
        .unwrap();
    PermSpace::new(def, &powers, false, &mut Setup::default()).unwrap()
}

/// `state` with the wild pieces' twists 0: the class it stands for.
fn key(state: &State) -> State {
    let mut s = state.clone();
    for (o, wild) in s.orbits.iter_mut().zip(WILD_LABELS) {
        for (slot, label) in o.pieces.iter().enumerate() {
            if wild.contains(label) {
                o.orientation[slot] = 0;
            }
        }
    }
    s
}

/// Every class's distance from solved: a BFS over the model's states, each move composed by
/// the model and the result keyed by [`key`].
fn brute_force(def: &Definition) -> HashMap<State, u32> {
    let at = Location::file("test");
    let powers = def
        .generators(None, Metric::Htm, &at, &mut Setup::default())
        .unwrap();
    let mut distance = HashMap::new();
    let start = key(&def.solved);
    distance.insert(start.clone(), 0);
    let mut layer = vec![start];
    let mut d = 0;
    while !layer.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for s in &layer {
            for p in &powers {
                let t = key(&s.apply(&p.transform, &def.orbits));
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

fn histogram(distance: &HashMap<State, u32>) -> Vec<u64> {
    let deepest = distance.values().copied().max().unwrap_or(0) as usize;
    let mut h = vec![0u64; deepest + 1];
    for &d in distance.values() {
        h[d as usize] += 1;
    }
    h
}

#[test]
fn perm_wild_twists_sweep_as_the_brute_force_counts() {
    let def = parse(WILD).unwrap();
    assert_eq!(def.wild, [vec![1], vec![0]]);
    assert!(def.has_wild());
    // Solved with the wild twists 0.
    assert_eq!(def.solved.orbits[0].orientation, [0; 5]);
    let brute = brute_force(&def);
    let space = space(def);
    let limits = Limits::default();
    let options = layers::Options {
        limits: &limits,
        threads: Some(1),
    };
    let sweep = layers::backward_hashed(&space, options, &mut |_, _| {});
    assert!(sweep.stopped.is_none());
    assert_eq!(sweep.histogram, histogram(&brute));
    // At most A's 60 arrangements times the twists of its four pieces that are not wild, and
    // B's 6 times two twists: the wild ones are not counted.
    let total: u64 = sweep.histogram.iter().sum();
    assert!(total > 1000 && total <= 60 * 81 * 6 * 4, "{total}");
}

#[test]
fn perm_wild_twists_solve_optimally() {
    let def = parse(WILD).unwrap();
    let brute = brute_force(&def);
    let space = space(def);
    let packer = crate::Packer::<16>::new(space.definition(), &[]).unwrap();
    let limits = Limits::default();
    // Two of A's pieces that are not wild (their twists kept, by piece), A's distinct pieces
    // with the wild one (twists forgotten) and B whole (by slot: forgotten too).
    let patterns = vec![
        Pattern::new(&space, &[(0, vec![0, 2])]).unwrap(),
        Pattern::new(&space, &[(0, vec![0, 1, 2])]).unwrap(),
        Pattern::new(&space, &[(1, vec![0, 1, 2])]).unwrap(),
    ];
    let sizes: Vec<u128> = patterns.iter().map(Indexed::size).collect();
    assert_eq!(sizes, [5 * 4 * 9, 5 * 4 * 3, 6]);
    let pdb = heuristic::heuristic::<16>(patterns, &limits, None).unwrap();
    let moves = space.moves().to_vec();
    let mut rng = Lcg(47);
    let mut broken_sum = 0;
    for k in 0..40 {
        let mut state = space.solved();
        for _ in 0..k % 14 {
            state = space.apply(state, moves[rng.below(moves.len())]);
        }
        let model = packer.unpack(&state);
        // The space keeps the wild twists at 0: its states are the brute force's.
        let wanted = *brute.get(&model).expect("a state the brute force reached");
        assert!(space.unsolvable_by(state).is_none());
        let sum: u32 = model.orbits[1]
            .orientation
            .iter()
            .map(|&t| u32::from(t))
            .sum();
        broken_sum += usize::from(!sum.is_multiple_of(2));
        let length = |outcome| match outcome {
            Outcome::Solved(path) => path.len() as u32,
            other => panic!("{other:?}"),
        };
        let options = SearchOptions::default();
        let ida = idastar::solve(&space, &pdb, state, &limits, &options);
        assert_eq!(length(ida.outcome), wanted, "IDA*, walk {k}");
        let both = bidirectional::solve(&space, state, &limits);
        assert_eq!(length(both.outcome), wanted, "bidirectional, walk {k}");
    }
    assert!(
        broken_sum > 0,
        "some states break the sum the wild twists hide"
    );
}

#[test]
fn perm_wild_twists_leave_out_the_index_symmetry_and_inverse() {
    let space = space(parse(WILD).unwrap());
    assert!(!space.indexable());
    let why = space.layout().why_not_indexable().unwrap();
    assert!(why.contains("unknown (?)"), "{why}");
    assert!(space.inversion().unwrap_err().contains("unknown (?)"));
    // No rotations here: a definition with some says why there are no symmetries.
    let rotated = WILD.replace("Move Z", "Move x\nA\n2 3 4 5 1\nEnd\nMove Z");
    let rotations = space_of(&rotated);
    assert!(
        rotations
            .symmetries()
            .why_none()
            .unwrap()
            .contains("unknown (?)")
    );
    // A puzzle without wildcards pays nothing: no wild slots, the usual index.
    let plain = space_of(&WILD.replace('?', "0"));
    assert!(!plain.definition().has_wild() && plain.indexable());
}

fn space_of(text: &str) -> PermSpace<16> {
    space(parse(text).unwrap())
}

#[test]
fn perm_wildcards_elsewhere_are_refused_in_one_line_at_their_place() {
    for (text, message) in [
        (
            WILD.replace("1 2 3 4 4\n0 ? 0 0 0", "1 ? 3 4 4\n0 0 0 0 0"),
            "wild.tws:6: solved: ? in a piece line (a piece left unknown) is not supported",
        ),
        (
            WILD.replace("1 0 0 0 2", "1 0 ? 0 2"),
            "wild.tws:15: ? (twsearch's wildcard) is only read in the Solved block's \
             orientation lines",
        ),
        (
            WILD.replace("0 ? 0 0 0", "0 0 0 ? 0"),
            "wild.tws:7: solved: piece 4 of set A is in several slots, its twist left unknown \
             (?) in some and not in others",
        ),
    ] {
        let error = parse(&text).unwrap_err().to_string();
        assert!(error.starts_with(message), "{error}");
        assert!(!error.contains('\n'), "{error}");
    }
    // Look-alike pieces that agree may both be wild.
    let both = parse(&WILD.replace("0 ? 0 0 0", "0 ? 0 ? ?")).unwrap();
    assert_eq!(both.wild[0], [1, 3]);
    // A scramble's position block reads no wildcard.
    let def = parse(WILD).unwrap();
    let block = "Scramble S\nA\n1 2 3 4 4\n0 ? 0 0 0\nEnd";
    let error = tws::parse_position(&def, block, "s.scr", 3, &mut Setup::default())
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with("s.scr:6: ? (twsearch's wildcard)"),
        "{error}"
    );
}
