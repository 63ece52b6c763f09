//! Every path engine against BFS on every toy space, from many starts: the depth-first engines
//! with the transposition table off, at its default size and so small that entries are pushed
//! out all the time, and bidirectional BFS. Same lengths, paths that replay to a goal, the same
//! proofs of unsolvability (where the pruned tree is finite: elsewhere a depth limit, never a
//! wrong answer); and the table saves what it is for.

use super::{Outcome, Report, bfs, bidirectional, idastar, iddfs};
use crate::limit::{Limit, Limits, Transpositions};
use crate::random::Lcg;
use crate::space::{Heuristic, Indexed, StateSpace, replay};
use crate::toys::heuristic::{
    Detour, DetourEstimate, Grid, GridManhattan, GridPatchy, RingDistance, Slide, SlideManhattan,
    SlidePatchy, Zero, maze,
};
use crate::toys::{Counter, Lights, LightsGoal, Line, Ring};

/// The table settings every depth-first run is tried with: none, the default, and a table of
/// a few buckets (constant replacement).
const TABLES: [Transpositions; 3] = [
    Transpositions::Off,
    Transpositions::Auto,
    Transpositions::Bytes(200),
];

type Engine<P> = fn(
    &P,
    <P as StateSpace>::State,
    &Limits,
) -> Report<<P as StateSpace>::State, <P as StateSpace>::Move>;

/// The length BFS finds, or `None` when it proves the start unsolvable.
fn bfs_length<P: StateSpace>(space: &P, start: P::State) -> Option<usize> {
    match bfs::solve(space, start, &Limits::default()).outcome {
        Outcome::Solved(path) => Some(path.len()),
        Outcome::Unsolvable => None,
        Outcome::LimitReached(limit) => panic!("bfs: {limit}"),
    }
}

/// Checks `report` against BFS's answer: the same length with a path that replays to a goal;
/// for an unsolvable start a proof, or (when `finite` is false: the pruned tree may be
/// infinite) a depth limit.
fn check<P: StateSpace>(
    what: &str,
    space: &P,
    start: P::State,
    expected: Option<usize>,
    report: &Report<P::State, P::Move>,
    finite: bool,
) {
    match (&report.outcome, expected) {
        (Outcome::Solved(path), Some(length)) => {
            assert_eq!(path.len(), length, "{what}: start {start:?}");
            let end = replay(space, start, &path.moves()).expect("the moves replay");
            assert!(space.is_goal(end), "{what}: start {start:?} ends off the goal");
            assert_eq!(end, path.end());
        }
        (Outcome::Unsolvable, None) => {}
        (Outcome::LimitReached(Limit::Depth(_)), None) if !finite => {}
        (outcome, expected) => panic!("{what}: start {start:?}: {outcome:?}, BFS {expected:?}"),
    }
}

/// IDDFS and IDA* with every table setting, and bidirectional BFS when the space has it, from
/// each of `starts`; `depth` caps the deepening where BFS proves a start unsolvable.
fn agree<P: StateSpace>(
    name: &str,
    space: &P,
    heuristics: &[&dyn Heuristic<P>],
    starts: &[P::State],
    both_ways: Option<Engine<P>>,
    finite: bool,
) {
    for &start in starts {
        let expected = bfs_length(space, start);
        let cap = match expected {
            Some(_) => None,
            None => Some(24),
        };
        for transpositions in TABLES {
            let limits = Limits {
                max_depth: cap,
                transpositions,
                ..Limits::default()
            };
            let what = format!("{name}, iddfs, table {transpositions:?}");
            let report = iddfs::solve(space, start, &limits);
            check(&what, space, start, expected, &report, finite);
            for (i, &heuristic) in heuristics.iter().enumerate() {
                let what = format!("{name}, idastar {i}, table {transpositions:?}");
                let report = idastar::solve(space, heuristic, start, &limits);
                check(&what, space, start, expected, &report, finite);
            }
        }
        if let Some(engine) = both_ways {
            let report = engine(space, start, &Limits::default());
            let what = format!("{name}, bidirectional");
            check(&what, space, start, expected, &report, true);
        }
    }
}

/// `count` states of `space` drawn with a fixed seed.
fn sample<P: Indexed>(space: &P, count: usize, seed: u64) -> Vec<P::State> {
    let mut random = Lcg(seed);
    let size = space.size() as usize;
    (0..count)
        .map(|_| space.state(random.below(size) as u64))
        .collect()
}

fn all<P: Indexed>(space: &P) -> Vec<P::State> {
    (0..space.size() as u64).map(|i| space.state(i)).collect()
}

#[test]
fn rings_and_lines_agree() {
    for n in [1, 2, 7, 12, 31] {
        let ring = Ring::new(n);
        let exact: [&dyn Heuristic<Ring>; 2] = [&RingDistance, &Zero];
        let both = bidirectional::solve_indexed::<Ring>;
        agree("ring", &ring, &exact, &all(&ring), Some(both), false);
    }
    // No move-order rule: without the table, 2^d walks to depth d.
    for n in [1, 2, 7, 12] {
        let line = Line(n);
        let both = bidirectional::solve::<Line>;
        agree("line", &line, &[&Zero], &all(&line), Some(both), false);
    }
    // A step of 5 around 24 states: one cycle through all of them, distances up to 12.
    let wide = Ring {
        n: 24,
        step: 5,
        goal: 3,
    };
    let both = bidirectional::solve_indexed::<Ring>;
    agree("ring step 5", &wide, &[&Zero], &all(&wide), Some(both), false);
}

#[test]
fn the_counter_agrees() {
    // Not invertible: no bidirectional search; every start is solvable.
    agree("counter", &Counter, &[&Zero], &[0, 1, 4, 7, 9], None, false);
}

#[test]
fn lights_agree_and_their_proofs_too() {
    // Presses in increasing order: a finite pruned tree, so IDDFS and IDA* prove unsolvable
    // boards as BFS does (on a 3 x 3 torus the presses span 5 of 9 dimensions: 15 of 16
    // boards are unsolvable; on 2 x 3, 3 of 4).
    let both = bidirectional::solve_indexed::<Lights>;
    for (rows, cols, wrap, goal, seed) in [
        (3, 3, true, LightsGoal::AllOff, 1),
        (2, 3, false, LightsGoal::AllOff, 2),
        (2, 5, false, LightsGoal::Uniform, 3),
        (3, 4, false, LightsGoal::AllOff, 4),
    ] {
        let lights = Lights::new(rows, cols, wrap, goal);
        let starts = sample(&lights, 40, seed);
        let unsolvable = starts.iter().filter(|&&s| bfs_length(&lights, s).is_none());
        if wrap {
            assert!(unsolvable.count() > 30, "the sample has unsolvable boards");
        }
        agree("lights", &lights, &[&Zero], &starts, Some(both), true);
    }
}

#[test]
fn grids_and_the_sliding_puzzle_agree() {
    let grid = maze();
    let guides: [&dyn Heuristic<Grid>; 3] = [&GridManhattan, &GridPatchy, &Zero];
    agree("maze", &grid, &guides, &grid.cells(), None, false);
    let guides: [&dyn Heuristic<Slide>; 3] = [&SlideManhattan, &SlidePatchy, &Zero];
    let both = bidirectional::solve_indexed::<Slide>;
    // Half the boards are of the other parity: BFS proves them, the deepening engines stop at
    // the depth cap (their pruned tree is infinite), bidirectional BFS proves them too.
    agree("slide", &Slide, &guides, &sample(&Slide, 40, 4), Some(both), false);
    agree("detour", &Detour, &[&DetourEstimate, &Zero], &all(&Detour), None, false);
}

/// Runs IDDFS (`guide` `None`) or IDA* from cell 0 of `grid` with the table set so, and returns
/// the stats of the optimal run.
fn deepen(grid: &Grid, guide: Option<&dyn Heuristic<Grid>>, table: Transpositions) -> super::Stats {
    let limits = Limits {
        transpositions: table,
        ..Limits::default()
    };
    let report = match guide {
        Some(guide) => idastar::solve(grid, guide, 0, &limits),
        None => iddfs::solve(grid, 0, &limits),
    };
    assert_eq!(bfs_length(grid, 0), report.outcome_length());
    report.stats
}

/// On grids, where every order of the same moves reaches the same cell, the depth-first engines
/// with the table expand a hundredth of what they expand without: IDA* on a grid whose wall
/// makes every iteration but the last fail (each explores every path within its threshold),
/// IDDFS on an open grid.
#[test]
fn the_table_saves_the_repeats_of_independent_moves() {
    let walled = Grid::parse(&[
        "........#.......G", //
        "........#........",
        "........#........",
        "........#........",
        "........#........",
        "........#........",
        ".................",
    ]);
    let mut open = Grid::parse(&["........."; 9]);
    open.goal = 80;
    for (grid, guide) in [(&walled, Some(&GridManhattan as &dyn Heuristic<Grid>)), (&open, None)] {
        let without = deepen(grid, guide, Transpositions::Off);
        let with = deepen(grid, guide, Transpositions::Auto);
        assert!(
            without.expanded > 100 * with.expanded,
            "{} without the table, {} with",
            without.expanded,
            with.expanded
        );
        assert!(with.transposition_hits > 0 && with.transposition_bytes > 0);
        assert_eq!((without.transposition_hits, without.transposition_bytes), (0, 0));
    }
}
