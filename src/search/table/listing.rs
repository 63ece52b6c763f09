//! Several optimal paths from one table: every move sequence of the optimal length from a start
//! to the goal set descends the table one level a move, so a depth-first search that steps
//! only to successors one level closer lists them all, and nothing else.
//!
//! Why it is exact: a path of `d` moves from a state at distance `d` ends at a goal only if each
//! move lowers the distance by one (it can fall by at most one a move), so the optimal paths
//! are exactly the descents; the search never leaves them, so its work is the descents' prefixes
//! (plus the successors it looks at), whatever the size of the space.
//!
//! Which sequences count: those the space's [`may_follow`](crate::space::StateSpace::may_follow)
//! rule allows, as in the depth-first engines, so that `table`, `idastar` and `iddfs` list the
//! same solutions in the same order (successors in the space's order, depth first): of two
//! orders of commuting moves a canonical rule keeps one, and Flip's presses are sets, each
//! listed once. The rule keeps a shortest path from every state (its contract), so a start
//! that reaches the goal set has at least one; a descent that the rule cuts short costs only
//! its prefix.
//!
//! A mod-3 table works the same way: the code one level closer is `(code + 2) mod 3`, and the
//! number of levels is the length of the first descent.

use super::{DistanceTable, Inconsistent, SpacePath};
use crate::limit::{Latch, Limit, Limits, Ticker};
use crate::options::SearchOptions;
use crate::search::{Outcome, Path, Step};
use crate::space::Indexed;

/// The answer of a table that lists solutions: the outcome (solved with the first path) and the
/// further paths.
pub type Listed<P> = (
    Outcome<<P as crate::space::StateSpace>::State, <P as crate::space::StateSpace>::Move>,
    Vec<SpacePath<P>>,
);

impl DistanceTable {
    /// The table's answer for `start` within `limits`: with one solution asked for
    /// ([`SearchOptions::solutions`](crate::options::SearchOptions::solutions)), [`outcome`](Self::outcome)'s and no further path; with more,
    /// the first that many optimal paths the space's move-order rule allows (all of them when
    /// there are fewer), in depth-first order (see the module docs): the first as the outcome,
    /// the rest after it. Time and Ctrl-C stop a long listing ([`Limit`] as the outcome, the
    /// paths found dropped). [`Inconsistent`] when the table was not built from `space`.
    pub fn lookup<P: Indexed + ?Sized>(
        &self,
        space: &P,
        start: P::State,
        limits: &Limits,
        options: &SearchOptions,
    ) -> Result<Listed<P>, Inconsistent> {
        if options.solutions <= 1 {
            return Ok((self.outcome(space, start)?, Vec::new()));
        }
        let Some(first) = self.path(space, start)? else {
            return Ok((Outcome::Unsolvable, Vec::new()));
        };
        let Some(code) = self.code(space.index(start)) else {
            return Err(Inconsistent::at(
                space.index(start),
                "the start is unreached",
            ));
        };
        let latch = Latch::new(limits);
        let mut listing = Listing {
            table: self,
            space,
            start,
            wanted: options.solutions,
            limits,
            steps: Vec::with_capacity(first.len()),
            found: Vec::new(),
            ticker: latch.ticker(),
            work: 0,
        };
        let listed = listing.below(start, None, code, first.len());
        self.intact()?;
        match listed {
            Err(Stop::Limit(limit)) => Ok((Outcome::LimitReached(limit), Vec::new())),
            Err(Stop::Inconsistent(why)) => Err(why),
            Err(Stop::Enough) | Ok(()) => {
                let mut found = listing.found.into_iter();
                match found.next() {
                    Some(first) => Ok((Outcome::Solved(first), found.collect())),
                    None => Err(Inconsistent::at(
                        space.index(start),
                        "no descent the move-order rule allows reaches a goal",
                    )),
                }
            }
        }
    }
}

/// Why a listing stopped before it had looked at every descent.
enum Stop {
    /// As many paths as asked for.
    Enough,
    Limit(Limit),
    Inconsistent(Inconsistent),
}

/// A depth-first search over the descents of a table.
struct Listing<'a, P: Indexed + ?Sized> {
    table: &'a DistanceTable,
    space: &'a P,
    start: P::State,
    wanted: usize,
    limits: &'a Limits,
    /// The moves and states of the current descent.
    steps: Vec<Step<P::State, P::Move>>,
    found: Vec<SpacePath<P>>,
    ticker: Ticker<'a>,
    /// Successors generated: the ticker's count of work.
    work: u64,
}

impl<P: Indexed + ?Sized> Listing<'_, P> {
    /// Lists the descents below `state` (coded `code`, `left` moves from the goal set, reached
    /// by `previous`).
    fn below(
        &mut self,
        state: P::State,
        previous: Option<P::Move>,
        code: u64,
        left: usize,
    ) -> Result<(), Stop> {
        let (table, space) = (self.table, self.space);
        if left == 0 {
            if !space.is_goal(state) {
                let why = "a descent ends at a state that is not a goal";
                return Err(Stop::Inconsistent(Inconsistent::at(
                    space.index(state),
                    why,
                )));
            }
            super::super::keep_within_budget(&self.found, self.limits, self.steps.len())
                .map_err(Stop::Limit)?;
            self.found.push(Path {
                start: self.start,
                steps: self.steps.clone(),
            });
            return match self.found.len() >= self.wanted {
                true => Err(Stop::Enough),
                false => Ok(()),
            };
        }
        let closer = table.closer(code).unwrap_or(u64::MAX);
        // The successors one level closer, in the space's order; whether any is, allowed or not
        // (a state with none short of the goal set is a table of another space).
        // An exact table's nearest successor is coded exactly `closer` (the local rule of
        // `DistanceTable::path`): a raised entry never lists longer paths.
        let mut next = Vec::new();
        let mut any_closer = false;
        let mut nearest = u64::MAX;
        space.successors(state, &mut |m, t| {
            let c = table.code(space.index(t));
            if c == Some(closer) {
                any_closer = true;
                if previous.is_none_or(|p| space.may_follow(p, m)) {
                    next.push((m, t));
                }
            }
            if let Some(c) = c {
                nearest = nearest.min(c);
            }
            self.work += 1;
        });
        self.ticker.tick(self.work).map_err(Stop::Limit)?;
        let why = if !any_closer {
            Some("no successor is closer".to_string())
        } else if table.is_exact() && nearest < closer {
            Some(format!("distance {code} but a successor at {nearest}"))
        } else {
            None
        };
        if let Some(why) = why {
            return Err(Stop::Inconsistent(Inconsistent::at(
                space.index(state),
                &why,
            )));
        }
        for (mv, t) in next {
            self.steps.push(Step { mv, state: t });
            self.below(t, Some(mv), closer, left - 1)?;
            self.steps.pop();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::limit::{Limit, Limits};
    use crate::options::{SearchOptions, Transpositions};
    use crate::search::{Outcome, Report, idastar, iddfs, table};
    use crate::space::{Heuristic, Indexed, StateSpace, replay};
    use crate::toys::heuristic::{Grid, GridManhattan, Slide, SlideManhattan};
    use crate::toys::{Lights, LightsGoal};
    use std::collections::HashSet;
    use std::fmt::Debug;

    /// Every move sequence of `length` moves from `start` that the move-order rule allows and
    /// that ends at a goal: the brute force the listings are checked against.
    fn brute_force<P: StateSpace>(space: &P, start: P::State, length: usize) -> Vec<Vec<P::Move>> {
        fn go<P: StateSpace>(
            space: &P,
            state: P::State,
            left: usize,
            moves: &mut Vec<P::Move>,
            all: &mut Vec<Vec<P::Move>>,
        ) {
            if left == 0 {
                if space.is_goal(state) {
                    all.push(moves.clone());
                }
                return;
            }
            let mut next = Vec::new();
            space.successors(state, &mut |m, t| next.push((m, t)));
            for (m, t) in next {
                if moves.last().is_none_or(|&p| space.may_follow(p, m)) {
                    moves.push(m);
                    go(space, t, left - 1, moves, all);
                    moves.pop();
                }
            }
        }
        let mut all = Vec::new();
        go(space, start, length, &mut Vec::new(), &mut all);
        all
    }

    /// Every solution of a report, the outcome's first, as move lists.
    fn solutions<S: Copy + Debug, M: Copy + Debug>(report: &Report<S, M>) -> Vec<Vec<M>> {
        match &report.outcome {
            Outcome::Solved(path) => std::iter::once(path)
                .chain(&report.others)
                .map(|p| p.moves())
                .collect(),
            other => panic!("{other:?}"),
        }
    }

    fn options(solutions: usize, transpositions: Transpositions) -> SearchOptions {
        SearchOptions {
            solutions,
            transpositions,
            ..SearchOptions::default()
        }
    }

    const TABLES: [Transpositions; 3] = [
        Transpositions::Off,
        Transpositions::Auto,
        Transpositions::Bytes(1 << 10),
    ];

    /// The table, IDA* and IDDFS (each transposition table setting) list the same solutions in
    /// the same order, for every `n`; they are the first `min(n, total)` of the brute force's,
    /// distinct, and each replays to a goal.
    fn agree<P, H>(space: &P, heuristic: &H, start: P::State, table: &table::DistanceTable)
    where
        P: Indexed,
        P::Move: std::hash::Hash,
        H: Heuristic<P>,
    {
        let Some(length) = table.distance(space, start).unwrap() else {
            return;
        };
        let all = brute_force(space, start, length as usize);
        assert!(!all.is_empty(), "{start:?}");
        for n in [1, 2, 3, 7, usize::MAX] {
            let expected = &all[..n.min(all.len())];
            let (outcome, others) = table
                .lookup(space, start, &Limits::default(), &options(n, TABLES[0]))
                .unwrap();
            let listed = solutions(&Report {
                outcome,
                others,
                stats: Default::default(),
            });
            if n == 1 {
                // One solution is the table's plain descent, which ignores the move-order rule.
                assert_eq!(listed.len(), 1);
            } else {
                assert_eq!(listed, expected, "table, {start:?}, n {n}");
            }
            for transpositions in TABLES {
                let (limits, options) = (Limits::default(), options(n, transpositions));
                let by_ida = solutions(&idastar::solve(space, heuristic, start, &limits, &options));
                let by_id = solutions(&iddfs::solve(space, start, &limits, &options));
                let what = format!("{start:?}, n {n}, {transpositions:?}");
                if n > 1 {
                    assert_eq!(by_ida, expected, "idastar, {what}");
                    assert_eq!(by_id, expected, "iddfs, {what}");
                }
                for moves in by_ida.iter().chain(&by_id) {
                    assert_eq!(moves.len(), length as usize, "{what}");
                    assert!(
                        space.is_goal(replay(space, start, moves).unwrap()),
                        "{what}"
                    );
                }
            }
        }
        let distinct: HashSet<&Vec<P::Move>> = all.iter().collect();
        assert_eq!(distinct.len(), all.len(), "the brute force repeats itself");
    }

    #[test]
    fn the_engines_list_the_optimal_solutions_the_brute_force_finds() {
        let slide = table::build(&Slide, &Limits::default()).unwrap();
        let starts: Vec<u32> = (0..Slide.size() as u64)
            .map(|i| Slide.state(i))
            .filter(|&s| slide.distance(&Slide, s).unwrap().is_some_and(|d| d <= 12))
            .step_by(3)
            .collect();
        assert!(starts.len() > 10);
        let mut many = 0;
        for start in starts {
            agree(&Slide, &SlideManhattan, start, &slide);
            let (_, others) = slide
                .lookup(
                    &Slide,
                    start,
                    &Limits::default(),
                    &options(usize::MAX, TABLES[0]),
                )
                .unwrap();
            many += (others.len() > 1) as usize;
        }
        assert!(many > 0, "some board has three solutions or more");

        // A grid: 70 shortest paths corner to corner, C(8, 4), of which 40 pass each wall
        // and 24 both: 70 - 40 - 40 + 24 are left.
        let grid = Grid::parse(&[".....", ".#...", ".....", "...#.", "....G"]);
        let table = table::build(&grid, &Limits::default()).unwrap();
        for start in grid.cells() {
            agree(&grid, &GridManhattan, start, &table);
        }
        let (_, others) = table
            .lookup(
                &grid,
                0,
                &Limits::default(),
                &options(usize::MAX, TABLES[0]),
            )
            .unwrap();
        assert_eq!(others.len() + 1, 14);

        // Commuting presses: each set of lamps is one solution, in increasing order.
        let lights = Lights::new(3, 3, true, LightsGoal::AllOff);
        let table = table::build(&lights, &Limits::default()).unwrap();
        for start in (0..lights.size() as u64).step_by(37) {
            agree(&lights, &crate::toys::heuristic::Zero, start, &table);
        }
    }

    #[test]
    fn a_start_at_the_goal_has_one_solution_and_a_limit_stops_a_listing() {
        let slide = table::build(&Slide, &Limits::default()).unwrap();
        let goal = crate::toys::heuristic::SLIDE_GOAL;
        let (outcome, others) = slide
            .lookup(&Slide, goal, &Limits::default(), &options(5, TABLES[0]))
            .unwrap();
        assert!(matches!(outcome, Outcome::Solved(path) if path.is_empty()) && others.is_empty());
        let report = idastar::solve(
            &Slide,
            &SlideManhattan,
            goal,
            &Limits::default(),
            &options(5, TABLES[1]),
        );
        assert_eq!(solutions(&report), [Vec::<char>::new()]);

        static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);
        let stopped = Limits {
            interrupt: Some(&STOP),
            ..Limits::default()
        };
        let far = (0..Slide.size() as u64)
            .map(|i| Slide.state(i))
            .max_by_key(|&s| slide.distance(&Slide, s).unwrap().unwrap_or(0))
            .unwrap();
        let all = options(usize::MAX, TABLES[0]);
        let (outcome, others) = slide.lookup(&Slide, far, &stopped, &all).unwrap();
        assert_eq!(outcome, Outcome::LimitReached(Limit::Interrupted));
        assert!(others.is_empty());
    }
}
