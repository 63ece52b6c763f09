//! Checks that a table read from disk agrees with the space it is to answer for.
//!
//! A file passes the cache's own checks (magic, version, fingerprint, length, checksum, the
//! table's structure) when it is whole and claims the right fingerprint; that says nothing of
//! whether its entries are distances in this space. A file written by another program, or edited
//! and given a fresh checksum, would pass them. [`verify`] asks the space:
//!
//! - the table covers exactly the space's indices, with exact entries where the recipe needs them;
//! - every goal has distance 0;
//! - along random walks from the goals ([`SAMPLE_STEPS`] states), every state is reached (it can
//!   reach a goal, since moves are invertible) and satisfies the table's local rule;
//! - at as many random indices, every reached entry satisfies the local rule.
//!
//! The local rule of a unit-cost table, for a state `s` coded `c`: `c = 0` exactly when `s` is a
//! goal; every successor is reached; and the nearest successor is coded `c - 1`, none more than
//! `c + 1` (mod 3 tables: a non-goal has a successor coded `c - 1 mod 3`). A table built with
//! costs of its own is checked for `c = 0` exactly at goals.
//!
//! The samples are drawn afresh on every load (a random seed), so a table wrong at a fraction
//! `f` of the states it is asked about fails with probability about `1 - (1 - f)^1024`: a table
//! of another puzzle or a relabelled one fails at once. A few entries edited by hand may pass;
//! the table's users then meet them as inconsistencies ([`DistanceTable::path`] reports one
//! instead of panicking), and the cache discards the file then.
//!
//! [`DistanceTable::path`]: crate::search::table::DistanceTable::path

use super::DistanceTable;
use super::Inconsistent;
use super::recipe::Recipe;
use crate::random::Lcg;
use crate::space::{GoalSet, Indexed, Invertible};
use std::hash::{BuildHasher, Hasher};

/// States checked along walks from the goals, and again at random indices.
pub const SAMPLE_STEPS: usize = 512;

/// Checks `table` against `space` as the module docs say; the error is one line: where the
/// table does not fit.
pub fn verify<S: Indexed + Invertible + GoalSet + ?Sized>(
    space: &S,
    table: &DistanceTable,
    recipe: &Recipe,
) -> Result<(), Inconsistent> {
    check_table(space, table, recipe).map_err(Inconsistent)
}

/// [`verify`], its error the message alone.
fn check_table<S: Indexed + Invertible + GoalSet + ?Sized>(
    space: &S,
    table: &DistanceTable,
    recipe: &Recipe,
) -> Result<(), String> {
    if table.len() as u128 != space.size() {
        return Err(format!(
            "covers {} states, the space has {}",
            table.len(),
            space.size()
        ));
    }
    if recipe.exact && !table.is_exact() {
        return Err("holds distances mod 3 where exact ones are needed".into());
    }
    let mut goals = Vec::new();
    let mut wrong_goal = None;
    space.goals(&mut |goal| {
        let index = space.index(goal);
        if wrong_goal.is_none() && table.code(index) != Some(0) {
            wrong_goal = Some(index);
        }
        if goals.len() < 8 {
            goals.push(goal);
        }
    });
    if let Some(index) = wrong_goal {
        return Err(format!("the goal at index {index} is not at distance 0"));
    }
    let mut random = Lcg(fresh_seed());
    let check =
        |state: S::State, walked: Option<u64>| check_state(space, table, recipe, state, walked);
    // Walks from the goals: every state met can reach a goal, within the steps walked.
    let walks = goals.len().max(1);
    let mut successors = Vec::new();
    for goal in goals {
        let mut state = goal;
        for steps in 0..(SAMPLE_STEPS / walks) as u64 {
            check(state, Some(steps))?;
            successors.clear();
            space.successors(state, &mut |_, next| successors.push(next));
            match successors.len() {
                0 => break,
                n => state = successors[random.below(n)],
            }
        }
    }
    // Random indices: reached or not, as the table says.
    let size = u64::try_from(space.size()).unwrap_or(u64::MAX);
    if size > 0 {
        for _ in 0..SAMPLE_STEPS {
            let index = random_below(&mut random, size);
            check(space.state(index), None)?;
        }
    }
    Ok(())
}

/// The local rule at `state` (module docs); `walked`: the state was reached from a goal in that
/// many moves, so it must be reached, and its distance is at most that.
fn check_state<S: Indexed + Invertible + GoalSet + ?Sized>(
    space: &S,
    table: &DistanceTable,
    recipe: &Recipe,
    state: S::State,
    walked: Option<u64>,
) -> Result<(), String> {
    let index = space.index(state);
    let Some(code) = table.code(index) else {
        return match walked {
            // Only where the table was built over these moves: a build with moves of its own
            // (a blank-aware tile database) may leave unreached an abstract state the space's
            // moves reach (on a 2 x 2 board, half of them), and is checked at the goals.
            Some(_) if recipe.unit_cost => Err(format!(
                "the state at index {index} can reach a goal but reads as unreached"
            )),
            Some(_) => Ok(()),
            // An unreached state may still have reached successors (a state an `Illegal` rule
            // forbids is unreached, its legal neighbours are not): nothing to check.
            None => Ok(()),
        };
    };
    if let Some(steps) = walked
        && recipe.unit_cost
    {
        // The walk is a path of `steps` moves to a goal (moves are invertible): no distance
        // is longer. A mod-3 code says little on its own (a table coded `i mod 3` along a ring
        // is locally consistent everywhere), so its descent is measured, at every 8th state.
        let distance = match table.is_exact() {
            true => Some(code),
            false if steps % 8 == 1 => match table.distance(space, state) {
                Ok(distance) => distance.map(u64::from),
                Err(why) => return Err(why.0),
            },
            false => None,
        };
        if let Some(d) = distance
            && d > steps
        {
            return Err(format!(
                "the state at index {index} is {steps} moves from a goal but reads {d}"
            ));
        }
    }
    let goal = space.is_goal(state);
    if goal && code != 0 {
        return Err(format!("the goal at index {index} has code {code}, not 0"));
    }
    if !recipe.unit_cost {
        return match goal || code != 0 {
            true => Ok(()),
            false => Err(format!(
                "the state at index {index} is not a goal but has distance 0"
            )),
        };
    }
    let mut nearest = u64::MAX;
    let mut farthest = 0;
    let mut unreached = false;
    let mut closer_mod3 = false;
    space.successors(state, &mut |_, next| match table.code(space.index(next)) {
        Some(c) => {
            nearest = nearest.min(c);
            farthest = farthest.max(c);
            closer_mod3 |= c == (code + 2) % 3;
        }
        None => unreached = true,
    });
    let wrong = if unreached {
        Some("has an unreached successor".to_string())
    } else if table.is_exact() {
        if goal {
            (farthest > 1).then(|| format!("is a goal with a successor at {farthest}"))
        } else if code == 0 {
            Some("is not a goal but has distance 0".to_string())
        } else if nearest != code - 1 || farthest > code + 1 {
            Some(format!(
                "has distance {code} and successors at {nearest} to {farthest}"
            ))
        } else {
            None
        }
    } else {
        (!goal && !closer_mod3).then(|| format!("has code {code} mod 3 and no closer successor"))
    };
    match wrong {
        Some(why) => Err(format!("the state at index {index} {why}")),
        None => Ok(()),
    }
}

/// A seed no one can predict: the samples differ on every load.
pub(super) fn fresh_seed() -> u64 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(std::process::id() as u64);
    hasher.finish()
}

/// A number in `0..n` for any `n > 0` (`Lcg::below` takes a `usize`).
fn random_below(random: &mut Lcg, n: u64) -> u64 {
    let high = random.below(1 << 31) as u64;
    let low = random.below(1 << 31) as u64;
    let mid = random.below(4) as u64;
    ((high << 33) | (mid << 31) | low) % n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limit::Limits;
    use crate::search::table;
    use crate::toys::Ring;

    /// A serialized table (the layout of `DistanceTable::write_to`) with these entries and
    /// histogram: whatever a forger likes, as long as it is well formed.
    fn forged(bits: u8, codes: &[u64], histogram: &[u64]) -> DistanceTable {
        let mut bytes = b"SSDTABLE".to_vec();
        bytes.extend_from_slice(&table::FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&[bits, (bits == 2) as u8, 0, 0]);
        for field in [codes.len() as u64, 0, 0, 0, histogram.len() as u64] {
            bytes.extend_from_slice(&field.to_le_bytes());
        }
        for &n in histogram {
            bytes.extend_from_slice(&n.to_le_bytes());
        }
        let per = 64 / bits as usize;
        let words: Vec<u64> = codes
            .chunks(per)
            .map(|chunk| {
                let mut word = u64::MAX;
                for (i, &c) in chunk.iter().enumerate() {
                    let shift = i * bits as usize;
                    word &= !(((1u64 << bits) - 1) << shift);
                    word |= c << shift;
                }
                word
            })
            .collect();
        bytes.extend_from_slice(&(words.len() as u64).to_le_bytes());
        for w in words {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        DistanceTable::from_bytes(&bytes).unwrap()
    }

    #[test]
    fn a_table_built_from_the_space_passes() {
        for width in [table::Width::Exact, table::Width::Mod3] {
            let t = table::build_with(&Ring::new(1000), &Limits::default(), width).unwrap();
            assert_eq!(
                verify(&Ring::new(1000), &t, &Recipe::distance_table()),
                Ok(())
            );
        }
        let exact = table::build_with(&Ring::new(9), &Limits::default(), table::Width::Exact);
        assert_eq!(
            verify(&Ring::new(9), &exact.unwrap(), &Recipe::pattern_database()),
            Ok(())
        );
    }

    #[test]
    fn another_size_or_a_mod3_table_for_a_database_fails() {
        let t = table::build(&Ring::new(10), &Limits::default()).unwrap();
        let err = verify(&Ring::new(11), &t, &Recipe::distance_table())
            .unwrap_err()
            .0;
        assert!(err.contains("covers 10 states, the space has 11"), "{err}");
        let mod3 = table::build_with(&Ring::new(10), &Limits::default(), table::Width::Mod3);
        let err = verify(&Ring::new(10), &mod3.unwrap(), &Recipe::pattern_database())
            .unwrap_err()
            .0;
        assert!(err.contains("mod 3"), "{err}");
    }

    #[test]
    fn exact_entries_moved_one_state_along_fail() {
        // Ring 9: distances 0 1 2 3 4 4 3 2 1; the forgery's are those of the goal at 1.
        let codes = [1, 0, 1, 2, 3, 4, 4, 3, 2];
        let err = verify(
            &Ring::new(9),
            &forged(4, &codes, &[1, 2, 2, 2, 2]),
            &Recipe::distance_table(),
        );
        assert!(err.unwrap_err().0.contains("goal at index 0"));
    }

    #[test]
    fn a_locally_consistent_mod3_forgery_fails_by_its_descent() {
        // Codes `i mod 3` around a ring of 9, with a histogram of one state per level: the
        // residues agree with the histogram and every non-goal has a "closer" neighbour, but
        // state 8, next to the goal, would descend the long way round (8 moves).
        let codes: Vec<u64> = (0..9).map(|i| i % 3).collect();
        let t = forged(2, &codes, &[1; 9]);
        // Every run draws other walks: all of them must catch it.
        for _ in 0..20 {
            let err = verify(&Ring::new(9), &t, &Recipe::distance_table())
                .unwrap_err()
                .0;
            assert!(err.contains("index 8") || err.contains("index 1"), "{err}");
        }
    }

    #[test]
    fn own_builds_are_checked_at_the_goals() {
        let recipe = Recipe::pattern_database().own_build(vec![1]);
        let t = table::build_with(&Ring::new(9), &Limits::default(), table::Width::Exact).unwrap();
        assert_eq!(verify(&Ring::new(9), &t, &recipe), Ok(()));
        // A distance 0 away from the goal.
        let codes = [0, 0, 2, 3, 4, 4, 3, 2, 1];
        let err = verify(&Ring::new(9), &forged(4, &codes, &[2, 1, 2, 2, 2]), &recipe)
            .unwrap_err()
            .0;
        assert!(err.contains("not a goal but has distance 0"), "{err}");
    }
}
