//! The tests of [`idastar`](super): see there.
use super::*;
use crate::limit::WORK_PER_POLL;
use crate::options::Transpositions;
#[cfg(feature = "cluster")]
use crate::search::cluster::Cluster;
use crate::search::{bfs, iddfs};
use crate::space::{Indexed, replay};
use crate::toys::Ring;
use crate::toys::heuristic::pack;
use crate::toys::heuristic::*;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn length<S: Copy, M: Copy>(report: &Report<S, M>) -> Option<usize> {
    match &report.outcome {
        Outcome::Solved(path) => Some(path.len()),
        Outcome::Unsolvable => None,
        Outcome::LimitReached(limit) => panic!("{limit}"),
    }
}

/// IDA* agrees with BFS on every solvable start; the paths replay to a goal; the
/// iterations' thresholds rise from `h(start)` to the path length and add up to the totals.
fn cross_check<P: StateSpace, H: Heuristic<P>>(space: &P, heuristic: &H, starts: &[P::State]) {
    let limits = Limits::default();
    for &start in starts {
        let Some(expected) = length(&bfs::solve(space, start, &limits)) else {
            continue; // an infinite pruned tree: IDA* would deepen forever
        };
        let report = solve(space, heuristic, start, &limits, &SearchOptions::default());
        let Outcome::Solved(path) = &report.outcome else {
            panic!("{start:?}: {:?}", report.outcome)
        };
        assert_eq!(path.len(), expected, "start {start:?}");
        let end = replay(space, start, &path.moves()).expect("the moves replay");
        assert!(space.is_goal(end));
        let its = &report.stats.iterations;
        assert_eq!(its[0].threshold, heuristic.estimate(space, start));
        assert_eq!(its.last().unwrap().threshold as usize, expected);
        assert!(its.windows(2).all(|w| w[0].threshold < w[1].threshold));
        assert_eq!(
            its.iter().map(|i| i.expanded).sum::<u64>(),
            report.stats.expanded
        );
        assert_eq!(
            its.iter().map(|i| i.generated).sum::<u64>(),
            report.stats.generated
        );
    }
}

fn all_states<P: Indexed>(space: &P) -> Vec<P::State> {
    (0..space.size() as u64).map(|i| space.state(i)).collect()
}

#[test]
fn paths_are_optimal_on_the_grid_the_ring_and_the_sliding_puzzle() {
    cross_check(&maze(), &GridManhattan, &maze().cells());
    cross_check(&Ring::new(11), &RingDistance, &all_states(&Ring::new(11)));
    cross_check(&Slide, &SlideManhattan, &all_states(&Slide));
}

#[test]
fn an_inconsistent_heuristic_stays_optimal() {
    cross_check(&maze(), &GridPatchy, &maze().cells());
    cross_check(&Slide, &SlidePatchy, &all_states(&Slide));
    cross_check(&Detour, &DetourEstimate, &[0, 1, 7]);
}

#[test]
fn the_zero_heuristic_deepens_like_iddfs() {
    for board in all_states(&Slide).into_iter().step_by(7) {
        let limits = Limits {
            max_depth: Some(12),
            ..Limits::default()
        };
        let ida = solve(&Slide, &Zero, board, &limits, &SearchOptions::default());
        let id = iddfs::solve(&Slide, board, &limits, &SearchOptions::default());
        match (&ida.outcome, &id.outcome) {
            (Outcome::Solved(a), Outcome::Solved(b)) => assert_eq!(a.len(), b.len()),
            (Outcome::LimitReached(a), Outcome::LimitReached(b)) => assert_eq!(a, b),
            (Outcome::Unsolvable, Outcome::Unsolvable) => {}
            other => panic!("{other:?}"),
        }
        let thresholds: Vec<u32> = ida.stats.iterations.iter().map(|i| i.threshold).collect();
        assert_eq!(thresholds, (0..thresholds.len() as u32).collect::<Vec<_>>());
    }
}

/// A heuristic that answers `estimate_below` with the exact estimate (the trait's default):
/// the reference for the early exits of [`Max`](crate::search::pdb::Max).
struct Exact<H>(H);
impl<P: StateSpace, H: Heuristic<P>> Heuristic<P> for Exact<H> {
    fn estimate(&self, space: &P, s: P::State) -> u32 {
        self.0.estimate(space, s)
    }
}

/// A max whose parts stop early finds the same paths with the same nodes and thresholds as
/// the exact max, and the parts after the one that reaches the limit are skipped.
#[test]
fn a_max_that_stops_early_searches_exactly_the_same_tree() {
    use crate::search::pdb::Max;
    use std::sync::atomic::{AtomicU64, Ordering};
    static ASKED: AtomicU64 = AtomicU64::new(0);
    struct Counted;
    impl Heuristic<Slide> for Counted {
        fn estimate(&self, space: &Slide, s: u32) -> u32 {
            ASKED.fetch_add(1, Ordering::Relaxed);
            SlideManhattan.estimate(space, s)
        }
    }
    let max = || {
        let parts: Vec<Box<dyn Heuristic<Slide>>> = vec![Box::new(SlidePatchy), Box::new(Counted)];
        Max::new(parts)
    };
    let limits = Limits::default();
    let (mut skipped, mut generated) = (0, 0);
    for board in all_states(&Slide).into_iter().step_by(7) {
        if length(&bfs::solve(&Slide, board, &limits)).is_none() {
            continue; // an infinite pruned tree: IDA* would deepen forever
        }
        let exact = solve(
            &Slide,
            &Exact(max()),
            board,
            &limits,
            &SearchOptions::default(),
        );
        ASKED.store(0, Ordering::Relaxed);
        let early = solve(&Slide, &max(), board, &limits, &SearchOptions::default());
        let asked = ASKED.load(Ordering::Relaxed);
        assert_eq!(early.outcome, exact.outcome, "board {board}");
        assert_eq!(early.stats.iterations, exact.stats.iterations);
        assert_eq!(early.stats.expanded, exact.stats.expanded);
        skipped += early.stats.generated + 1 - asked;
        generated += early.stats.generated;
    }
    assert!(
        skipped > 0 && skipped < generated,
        "{skipped} of {generated}"
    );
}

/// A heuristic in stages ([`Heuristic::advance`]): successors that finish in different
/// passes, the limit shrinking between them, parts of a max and of a max in it (each
/// prefetched a pass before its stages), search the same tree with the same nodes and
/// thresholds as the exact estimates, and every stage is run.
#[test]
fn a_staged_heuristic_searches_exactly_the_same_tree() {
    use crate::search::pdb::Max;
    use std::sync::atomic::{AtomicU64, Ordering};
    static STAGES: AtomicU64 = AtomicU64::new(0);
    /// `H` after `state % 4` stages that do nothing (counted in the prefetched words).
    struct Staged<H>(H);
    impl<H: Heuristic<Slide>> Heuristic<Slide> for Staged<H> {
        fn estimate(&self, space: &Slide, s: u32) -> u32 {
            self.0.estimate(space, s)
        }
        fn advance(
            &self,
            space: &Slide,
            s: u32,
            prefetched: &mut Prefetched,
            limit: u32,
        ) -> Option<u32> {
            STAGES.fetch_add(1, Ordering::Relaxed);
            if prefetched.0[0] < u64::from(s % 4) {
                prefetched.0[0] += 1;
                return None;
            }
            Some(self.0.estimate_below(space, s, limit))
        }
    }
    // Staged parts first, later and in a max inside the max.
    let max = || {
        let inner: Vec<Box<dyn Heuristic<Slide>>> = vec![
            Box::new(Staged(SlideManhattan)),
            Box::new(Staged(SlidePatchy)),
        ];
        let parts: Vec<Box<dyn Heuristic<Slide>>> = vec![
            Box::new(Staged(SlidePatchy)),
            Box::new(Max::new(inner)),
            Box::new(Staged(SlideManhattan)),
        ];
        Max::new(parts)
    };
    let limits = Limits::default();
    for board in all_states(&Slide).into_iter().step_by(11) {
        if length(&bfs::solve(&Slide, board, &limits)).is_none() {
            continue; // an infinite pruned tree: IDA* would deepen forever
        }
        let exact = solve(
            &Slide,
            &Exact(max()),
            board,
            &limits,
            &SearchOptions::default(),
        );
        STAGES.store(0, Ordering::Relaxed);
        let staged = solve(&Slide, &max(), board, &limits, &SearchOptions::default());
        assert_eq!(staged.outcome, exact.outcome, "board {board}");
        assert_eq!(staged.stats.iterations, exact.stats.iterations);
        assert_eq!(staged.stats.expanded, exact.stats.expanded);
        assert!(STAGES.load(Ordering::Relaxed) > staged.stats.generated);
    }
}

/// States 0..=9 in a line; moves keep their direction (a finite pruned tree); no goal.
struct DeadLine;
impl StateSpace for DeadLine {
    type State = u8;
    type Move = char;
    fn successors(&self, s: u8, visit: &mut dyn FnMut(char, u8)) {
        if s > 0 {
            visit('L', s - 1)
        }
        if s < 9 {
            visit('R', s + 1)
        }
    }
    fn is_goal(&self, _: u8) -> bool {
        false
    }
    fn may_follow(&self, previous: char, next: char) -> bool {
        previous == next
    }
}

#[test]
fn an_exhausted_pruned_tree_is_unsolvable() {
    let report = solve(
        &DeadLine,
        &Zero,
        3,
        &Limits::default(),
        &SearchOptions::default(),
    );
    assert_eq!(report.outcome, Outcome::Unsolvable);
    // Thresholds 0..=6 at most (the longest branch, six moves right, is cut last at 6):
    // the proof of exhaustion explores the ten cells once the count of entries stalls.
    assert!(report.stats.iterations.len() <= 7);
}

#[test]
fn limits_stop_the_run() {
    let limits = Limits::default();
    let board = all_states(&Slide)
        .into_iter()
        .max_by_key(|&b| length(&bfs::solve(&Slide, b, &limits)).unwrap_or(0))
        .unwrap();
    let report = solve(
        &Slide,
        &SlideManhattan,
        board,
        &limits,
        &SearchOptions::default(),
    );
    assert_eq!(length(&report), Some(21));

    for (max, solved) in [(20, false), (21, true)] {
        let limits = Limits {
            max_depth: Some(max),
            ..Limits::default()
        };
        let report = solve(
            &Slide,
            &SlideManhattan,
            board,
            &limits,
            &SearchOptions::default(),
        );
        match report.outcome {
            Outcome::Solved(path) => assert!(solved && path.len() == 21),
            Outcome::LimitReached(Limit::Depth(d)) => {
                assert!(!solved && d == max);
                let last = report.stats.iterations.last().unwrap();
                assert!(last.threshold <= max);
            }
            other => panic!("{other:?}"),
        }
    }
    // A start whose estimate already passes the depth limit runs no iteration.
    let limits = Limits {
        max_depth: Some(SlideManhattan.estimate(&Slide, board) - 1),
        ..Limits::default()
    };
    let report = solve(
        &Slide,
        &SlideManhattan,
        board,
        &limits,
        &SearchOptions::default(),
    );
    assert!(matches!(
        report.outcome,
        Outcome::LimitReached(Limit::Depth(_))
    ));
    assert!(report.stats.iterations.is_empty());

    let limits = Limits {
        max_states: Some(50),
        ..Limits::default()
    };
    let report = solve(
        &Slide,
        &SlideManhattan,
        board,
        &limits,
        &SearchOptions::default(),
    );
    assert_eq!(report.outcome, Outcome::LimitReached(Limit::States(50)));
    assert_eq!(report.stats.expanded, 51);

    static STOP: AtomicBool = AtomicBool::new(true);
    let limits = Limits {
        interrupt: Some(&STOP),
        ..Limits::default()
    };
    let report = solve(
        &Ring::new(100_000),
        &Zero,
        50_000,
        &limits,
        &SearchOptions::default(),
    );
    assert_eq!(report.outcome, Outcome::LimitReached(Limit::Interrupted));
}

#[test]
fn iterations_serialize_and_are_left_out_when_empty() {
    let report = solve(
        &Ring::new(11),
        &RingDistance,
        4,
        &Limits::default(),
        &SearchOptions::default(),
    );
    let json = serde_json::to_value(&report.stats).unwrap();
    assert_eq!(json["iterations"][0]["threshold"], 4);
    assert_eq!(json["iterations"][0]["expanded"], 4);
    let bfs = bfs::solve(&Ring::new(11), 4, &Limits::default());
    let json = serde_json::to_value(&bfs.stats).unwrap();
    assert!(json.get("iterations").is_none() && json.get("reopened").is_none());
}

/// The run on `threads` threads gives the one-thread run's outcome and further solutions,
/// with each of `tables`, for one solution and several; the count of solved runs.
fn same_on_threads<P: StateSpace, H: Heuristic<P>>(
    space: &P,
    heuristic: &H,
    starts: &[P::State],
    max_depth: Option<u32>,
    tables: &[Transpositions],
) -> usize {
    let mut solved = 0;
    for &start in starts {
        for &transpositions in tables {
            for solutions in [1, 4] {
                let limits = Limits {
                    max_depth,
                    ..Limits::default()
                };
                let options = SearchOptions {
                    transpositions,
                    solutions,
                    ..SearchOptions::default()
                };
                let one = solve(space, heuristic, start, &limits, &options);
                solved += matches!(one.outcome, Outcome::Solved(_)) as usize;
                for threads in [2, 3].into_iter().take(1 + (solutions == 1) as usize) {
                    let on_threads = SearchOptions {
                        threads,
                        ..options.clone()
                    };
                    let many = solve(space, heuristic, start, &limits, &on_threads);
                    let why = format!(
                        "start {start:?}, {threads} threads, {transpositions:?}, {solutions} solutions"
                    );
                    // A proof of exhaustion may come at another iteration on threads
                    // (their tables hold other states): before the depth limit on one
                    // and not the other, where the brute force agrees.
                    let proven_sooner = many.outcome == Outcome::Unsolvable
                        && matches!(one.outcome, Outcome::LimitReached(Limit::Depth(_)))
                        && bfs::solve(space, start, &Limits::default()).outcome
                            == Outcome::Unsolvable;
                    if !proven_sooner {
                        assert_eq!(many.outcome, one.outcome, "{why}");
                    }
                    assert_eq!(many.others, one.others, "{why}");
                    let last = |r: &Report<P::State, P::Move>| {
                        r.stats.iterations.last().map(|i| i.threshold)
                    };
                    if matches!(one.outcome, Outcome::Solved(_)) {
                        assert_eq!(last(&many), last(&one), "{why}: the last threshold");
                    }
                    let its = &many.stats.iterations;
                    assert_eq!(
                        its.iter().map(|i| i.expanded).sum::<u64>(),
                        many.stats.expanded
                    );
                    #[cfg(feature = "cluster")]
                    if threads == 2 {
                        on_a_cluster_of_one(space, heuristic, start, &limits, &on_threads, &one);
                    }
                }
            }
        }
    }
    solved
}

/// The run on a cluster of one process (timely's coordinator in this process: the rounds,
/// their reports, the paths sent as ordinals and replayed) gives the outcome and solution list
/// of the run on one thread, `one`.
#[cfg(feature = "cluster")]
fn on_a_cluster_of_one<P: StateSpace, H: Heuristic<P>>(
    space: &P,
    heuristic: &H,
    start: P::State,
    limits: &Limits,
    options: &SearchOptions,
    one: &Report<P::State, P::Move>,
) {
    let options = SearchOptions {
        cluster: Some(Arc::new(crate::search::cluster::Cluster::local(1))),
        ..options.clone()
    };
    let report = cluster::solve(
        space,
        heuristic,
        start,
        limits,
        &options,
        None,
        &Cluster::local(1),
    )
    .unwrap_or_else(|fault| panic!("{start:?}: {fault}"));
    let why = format!("start {start:?} on a cluster, {options:?}");
    // As on threads, a proof of exhaustion may come sooner than the depth limit.
    let proven_sooner = report.outcome == Outcome::Unsolvable
        && matches!(one.outcome, Outcome::LimitReached(Limit::Depth(_)));
    if !proven_sooner {
        assert_eq!(report.outcome, one.outcome, "{why}");
    }
    assert_eq!(report.others, one.others, "{why}");
    let its = &report.stats.iterations;
    assert_eq!(
        its.iter().map(|i| i.expanded).sum::<u64>(),
        report.stats.expanded
    );
}

#[test]
fn threads_give_the_same_paths_and_solution_lists() {
    // The grid and the ring with the table (their cycles make a deepening without it
    // exponential): the maze's cells have many optimal paths (Manhattan ties).
    let auto = [Transpositions::Auto];
    // Only cells with a way out: on a walled-in one the one-thread table proves the maze
    // unsolvable, where the threads' separate tables may take many more iterations.
    let cells: Vec<_> = (maze().cells().into_iter().step_by(9))
        .filter(|&c| length(&bfs::solve(&maze(), c, &Limits::default())).is_some())
        .collect();
    let solved = same_on_threads(&maze(), &GridManhattan, &cells, None, &auto);
    assert_eq!(solved, cells.len() * 2);
    let ring = all_states(&Ring::new(11));
    same_on_threads(&Ring::new(11), &RingDistance, &ring, None, &auto);
    // Boards of the 2 x 3 puzzle, with and without the table: the solvable ones to their
    // answers; the others (an endless deepening) and the solvable ones alike to a depth
    // limit below most answers.
    let both = [Transpositions::Auto, Transpositions::Off];
    same_on_threads(&Detour, &DetourEstimate, &[0, 1, 7], None, &both);
    let limits = Limits::default();
    let (solvable, other): (Vec<u32>, Vec<u32>) = all_states(&Slide)
        .into_iter()
        .step_by(23)
        .partition(|&b| length(&bfs::solve(&Slide, b, &limits)).is_some());
    let solved = same_on_threads(&Slide, &SlideManhattan, &solvable, None, &both);
    assert_eq!(solved, solvable.len() * 4);
    same_on_threads(&Slide, &SlidePatchy, &solvable[..5], None, &both);
    let solved = same_on_threads(&Slide, &SlideManhattan, &solvable[..10], Some(12), &both);
    assert!(solved > 0 && solved < 10 * 4, "{solved}");
    let solved = same_on_threads(&Slide, &SlideManhattan, &other[..3], Some(12), &both);
    assert_eq!(solved, 0);
}

/// Options of a run on `threads` threads with the table `transpositions`.
fn on(threads: usize, transpositions: Transpositions) -> SearchOptions {
    SearchOptions {
        threads,
        transpositions,
        ..SearchOptions::default()
    }
}

#[test]
fn threads_prove_unsolvable_like_one() {
    for threads in [1, 2, 4] {
        let options = on(threads, Transpositions::Auto);
        let report = solve(&DeadLine, &Zero, 3, &Limits::default(), &options);
        assert_eq!(report.outcome, Outcome::Unsolvable, "{threads} threads");
        assert!(report.stats.depth <= 6, "{threads} threads");
    }
}

#[test]
fn limits_stop_a_run_on_threads() {
    let board = pack(&[0, 5, 4, 3, 2, 1]);
    let limits = Limits {
        max_states: Some(50),
        ..Limits::default()
    };
    let auto = Transpositions::Auto;
    let one = solve(&Slide, &SlideManhattan, board, &limits, &on(1, auto));
    assert_eq!(one.outcome, Outcome::LimitReached(Limit::States(50)));
    let two = solve(&Slide, &SlideManhattan, board, &limits, &on(2, auto));
    assert_eq!(two.outcome, Outcome::LimitReached(Limit::States(50)));
    // Within a poll's work per thread of the limit.
    assert!(
        two.stats.expanded <= 50 + 2 * WORK_PER_POLL,
        "{}",
        two.stats.expanded
    );

    static STOP: AtomicBool = AtomicBool::new(true);
    let limits = Limits {
        interrupt: Some(&STOP),
        ..Limits::default()
    };
    let report = solve(&Ring::new(100_000), &Zero, 50_000, &limits, &on(2, auto));
    assert_eq!(report.outcome, Outcome::LimitReached(Limit::Interrupted));

    // A time limit on an endless deepening (the ring's far side, no table to stop cycles).
    let limits = Limits {
        time_limit: Some(Duration::from_millis(200)),
        ..Limits::default()
    };
    let started = std::time::Instant::now();
    let off = on(2, Transpositions::Off);
    let report = solve(&Ring::new(1_000_000), &Zero, 500_000, &limits, &off);
    assert_eq!(
        report.outcome,
        Outcome::LimitReached(Limit::Time(Duration::from_millis(200)))
    );
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );

    // A table over the budget is refused before any work, as on one thread.
    let limits = Limits {
        memory_budget: 1 << 20,
        ..Limits::default()
    };
    let over = on(2, Transpositions::Bytes(2 << 20));
    let report = solve(&Slide, &SlideManhattan, board, &limits, &over);
    assert!(matches!(
        report.outcome,
        Outcome::LimitReached(Limit::Memory { .. })
    ));
}

/// The engine table's IDA* runs the search compiled for the heuristic's type where the caps
/// name one ([`Caps::idastar_compiled`]): it is asked, and gives what the search over the trait
/// object gives (the same code: the same paths and node counts); a search compiled for another
/// type declines ([`solve_as`] says `None`) and the trait object's runs.
#[test]
fn the_search_compiled_for_the_heuristics_type_is_the_same_search() {
    use crate::search::caps::{Lazy, SharedHeuristic};
    use std::sync::atomic::{AtomicUsize, Ordering};
    static ASKED: AtomicUsize = AtomicUsize::new(0);
    static RAN: AtomicUsize = AtomicUsize::new(0);
    fn counted<H: Heuristic<Slide> + Any>(
        h: &dyn Any,
        space: &Slide,
        start: u32,
        limits: &Limits,
        options: &SearchOptions,
        roots: Option<Representative<Slide>>,
    ) -> Option<Report<u32, char>> {
        ASKED.fetch_add(1, Ordering::Relaxed);
        let report = solve_as::<Slide, H>(h, space, start, limits, options, roots);
        RAN.fetch_add(usize::from(report.is_some()), Ordering::Relaxed);
        report
    }
    let (limits, cache) = (Limits::default(), crate::cache::TableCache::disabled());
    let engine = |compiled: crate::search::caps::CompiledIdaStar<Slide>| {
        let shared: SharedHeuristic<Slide> = Arc::new(SlideManhattan);
        let caps = Arc::new(Caps {
            heuristic: Some(Arc::new(Lazy::new(Arc::new(
                move |_, _| Ok(shared.clone()),
            )))),
            idastar_compiled: Some(compiled),
            ..Caps::default()
        });
        make(&caps).expect("a heuristic")
    };
    let (own, other) = (
        engine(counted::<SlideManhattan>),
        engine(counted::<SlidePatchy>),
    );
    let boards: Vec<u32> = all_states(&Slide).into_iter().step_by(37).collect();
    for threads in [1, 2] {
        let options = on(threads, Transpositions::Auto);
        for &start in &boards {
            let plain = solve_with(
                &Slide,
                &SlideManhattan as &dyn Heuristic<Slide>,
                start,
                &limits,
                &options,
                None,
            );
            for run in [&own, &other] {
                let (report, _) = run(&Slide, start, &limits, &options, &cache).unwrap();
                assert_eq!(report.outcome, plain.outcome, "{start} on {threads}");
                if threads == 1 {
                    assert_eq!(report.stats.generated, plain.stats.generated, "{start}");
                }
            }
        }
    }
    let runs = 2 * boards.len();
    assert_eq!(ASKED.load(Ordering::Relaxed), 2 * runs, "both engines ask");
    assert_eq!(
        RAN.load(Ordering::Relaxed),
        runs,
        "only the own type's runs"
    );
}

/// Moves a heuristic rules out ([`Heuristic::ruled_out`]) are not generated: with those whose
/// successor's estimate leaves no room within the budget ruled out (successors the estimates
/// would cut anyway), IDA* finds BFS's lengths, the same on threads and with the table, and
/// generates fewer successors.
#[test]
fn moves_ruled_out_are_not_generated() {
    struct Ruling;
    impl Heuristic<Grid> for Ruling {
        fn estimate(&self, g: &Grid, s: u32) -> u32 {
            GridManhattan.estimate(g, s)
        }
        fn ruled_out(&self, g: &Grid, s: u32, _: u64, budget: u32) -> u64 {
            let (mut out, mut j) = (0, 0);
            g.successors(s, &mut |_, t| {
                out |= u64::from(GridManhattan.estimate(g, t) + 1 > budget) << j;
                j += 1;
            });
            out
        }
    }
    let cells = maze().cells();
    cross_check(&maze(), &Ruling, &cells);
    let both = [Transpositions::Auto, Transpositions::Off];
    same_on_threads(&maze(), &Ruling, &cells, Some(30), &both);
    let generated = |h: &dyn Heuristic<Grid>| {
        (cells.iter())
            .map(|&s| solve(&maze(), h, s, &Limits::default(), &SearchOptions::default()))
            .map(|report| report.stats.generated)
            .sum::<u64>()
    };
    let (ruling, plain) = (generated(&Ruling), generated(&GridManhattan));
    assert!(ruling < plain, "{ruling} generated, {plain} without");
}
