//! The one path from board text to a [`Solution`], around any engine's [`Run`]: the board
//! parsed (a scramble applied under the solve's limits), the invariant consulted first, the
//! engine run, its report converted to text by the plugin's [`BoardFormat`](crate::space::BoardFormat).

use super::{Proof, Puzzle};
use crate::config::Engine;
use crate::instance::{Solution, SolveFn};
use crate::search::caps::Run;
use crate::setup::Setup;
use std::sync::Arc;

/// `run`, the engine `engine` made for `space`, as the instance's solve function.
pub(super) fn solve_fn<P: Puzzle>(
    space: &Arc<P>,
    proof: Option<Proof<P>>,
    engine: &'static Engine,
    run: Run<P>,
) -> SolveFn {
    let space = space.clone();
    Box::new(move |board, limits, options, cache| {
        let start = space.read(board, &mut Setup::new(limits))?;
        if let Some(name) = proof.and_then(|prove| prove(&space, start)) {
            let text = space.format(start);
            return Ok(Solution::proven_unsolvable(engine.mode, text, name));
        }
        let (report, details) = run(&space, start, limits, options, cache)?;
        let solution = Solution::from_report(engine.mode, start, report, |s| space.format(s));
        Ok(match details {
            Some(details) => solution.with_details(details),
            None => solution,
        })
    })
}
