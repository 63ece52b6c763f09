//! A puzzle defined outside `puzzles/`, registered at run time and solved through the same glue
//! as the built-in ones: what a third-party crate that depends on `statespace` would write.
//!
//! The Tower of Hanoi (`hanoi.rs`: the space, its board text, its keys and the plugin), in a
//! registry of its own, solved by every engine; the answer from all on peg 1 is 2^discs - 1.
//!
//! ```sh
//! cargo run --example custom_puzzle
//! ```
//!
//! The whole plugin is `hanoi.rs`; the kit gives it bfs, iddfs, the distance table, explore and
//! export. `python-plugin/` makes a Python module of the same plugin.

#[path = "hanoi.rs"]
mod hanoi;

use hanoi::{Hanoi, HanoiPlugin};
use statespace::config::Config;
use statespace::instance::Answer;
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use statespace::registry::Registry;
use statespace::space::Indexed;

fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    // The index is a bijection: every index is a position (no disc on a fourth peg) whose index
    // it is.
    let hanoi = Hanoi { discs: 4 };
    for index in 0..hanoi.size() as u64 {
        let state = hanoi.state(index);
        assert!((0..hanoi.discs).all(|d| hanoi.peg(state, d) < 3), "{index}");
        assert_eq!(hanoi.index(state), index);
    }

    // A registry of this puzzle alone (the command line's `builtins()` with it added works too).
    let registry = Registry::new().with(&HanoiPlugin)?;

    let text = "[puzzle]\nkind = \"hanoi\"\ndiscs = 4\n[start]\nboard = \"1 1 1 1\"\n";
    let config = Config::parse("hanoi.toml", text)?;
    let instance = registry.build(&config, &Limits::default())?;
    let board = config.start_board().expect("the config has a start");
    println!("{}: modes {:?}", instance.description(), instance.modes());
    for mode in instance.modes() {
        let solution =
            instance.solve(&board, mode, &Limits::default(), &SearchOptions::default())?;
        let Answer::Solved { moves, .. } = &solution.answer else {
            panic!("{mode}: {:?}", solution.answer);
        };
        println!(
            "{:>6}: {} moves: {}",
            mode.name(),
            moves.len(),
            moves.join(" ")
        );
        assert_eq!(moves.len(), 15, "2^4 - 1");
    }
    let explored = instance.explore(None, &Default::default(), &mut |_, _| {})?;
    println!(
        "explore: {} positions, the farthest {} moves away",
        explored.reachable(),
        explored.histogram.len() - 1
    );
    assert_eq!(explored.reachable(), 81, "3^4: every index");
    Ok(())
}
