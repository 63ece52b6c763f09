//! The kit's choices: the fastest table build and sweep whatever the order of the capabilities,
//! and `explore` where it is told.

use super::*;
use crate::board_text::BoardText;
use crate::config::ExploreFrom;
use crate::instance::{Direction, ExploreOptions};
use crate::limit::Limits;
use crate::options::SearchOptions;
use crate::search::Stats;
use crate::toys::{Lights, LightsGoal};
use std::time::Duration;

fn lights() -> Lights {
    Lights::new(3, 4, false, LightsGoal::Uniform)
}

/// The explore strategy and the table engine's stats of an instance.
fn chosen(instance: &Instance) -> (&'static str, Stats) {
    let explored = instance
        .explore(None, &ExploreOptions::default(), &mut |_, _| {})
        .unwrap();
    let board = BoardText::from_file("t", "bwwb\nwbbw\nbwwb".into());
    let solved = instance
        .solve(
            &board,
            Mode::TABLE,
            &Limits::default(),
            &SearchOptions::default(),
        )
        .unwrap();
    let stats = Stats {
        elapsed: Duration::ZERO,
        build: Duration::ZERO,
        ..solved.stats
    };
    (explored.strategy, stats)
}

#[test]
fn the_order_of_the_capabilities_does_not_change_the_engines() {
    let xor_first = Kit::new(lights(), "t").xor().table().build(Mode::AUTO);
    let table_first = Kit::new(lights(), "t").table().xor().build(Mode::AUTO);
    let plain = Kit::new(lights(), "t").table().build(Mode::AUTO);
    let (strategy, stats) = chosen(&xor_first);
    assert_eq!(strategy, "word-at-a-time");
    assert_eq!(chosen(&table_first), (strategy, stats.clone()));
    // The plain build scans levels: other counts, the same answer.
    let (plain_strategy, plain_stats) = chosen(&plain);
    assert_eq!(plain_strategy, "per-state");
    assert_ne!(plain_stats.generated, stats.generated);
}

#[test]
fn an_indexed_space_alone_sweeps_forward() {
    let instance = Kit::new(lights(), "t").indexed().build(Mode::AUTO);
    let board = BoardText::from_file("t", "bwwb\nwbbw\nbwwb".into());
    let options = ExploreOptions::default();
    let explored = instance.explore(Some(&board), &options, &mut |_, _| {});
    assert_eq!(explored.unwrap().direction, Direction::Forward);
    assert!(!instance.modes().contains(&Mode::TABLE));
}

#[test]
fn explore_goes_where_it_is_told_and_refuses_what_it_cannot() {
    let board = BoardText::from_file("t", "bwwb\nwbbw\nbwwb".into());
    let from = |from| ExploreOptions {
        from,
        ..ExploreOptions::default()
    };
    let table = Kit::new(lights(), "t").table().build(Mode::AUTO);
    let goals = table.explore(Some(&board), &from(None), &mut |_, _| {});
    assert_eq!(goals.unwrap().direction, Direction::Backward);
    let start = table.explore(
        Some(&board),
        &from(Some(ExploreFrom::Start)),
        &mut |_, _| {},
    );
    let start = start.unwrap();
    assert_eq!(
        (start.direction, start.strategy),
        (Direction::Forward, "per-state")
    );
    let words = Kit::new(lights(), "t").xor().table().build(Mode::AUTO);
    let by_words = words.explore(
        Some(&board),
        &from(Some(ExploreFrom::Start)),
        &mut |_, _| {},
    );
    let by_words = by_words.unwrap();
    assert_eq!(by_words.strategy, "word-at-a-time");
    assert_eq!(by_words.histogram, start.histogram);
    // No goal set: backward is refused, in one line; no index: forward keeps a hash set.
    let plain = Kit::new(lights(), "Lights").build(Mode::AUTO);
    let refused = plain.explore(
        Some(&board),
        &from(Some(ExploreFrom::Goals)),
        &mut |_, _| {},
    );
    let refused = refused.unwrap_err().to_string();
    assert!(refused.starts_with("explore: from goals: Lights cannot be swept backward"));
    assert!(!refused.contains('\n'));
    let hashed = plain
        .explore(Some(&board), &from(None), &mut |_, _| {})
        .unwrap();
    assert_eq!(
        (hashed.direction, hashed.strategy),
        (Direction::Forward, "hash-set")
    );
    assert_eq!(hashed.histogram, start.histogram);
    assert_eq!(hashed.space_size, 0);
    let no_start = plain.explore(None, &from(None), &mut |_, _| {});
    assert!(
        no_start
            .unwrap_err()
            .to_string()
            .contains("give a [start] board")
    );
}
