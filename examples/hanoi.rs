//! The Tower of Hanoi as a plugin defined outside `puzzles/`: the space (with its capabilities),
//! its board text, its keys and the plugin. Shared by two examples: `custom_puzzle.rs` (a
//! registry of its own, solved from Rust) and `python-plugin/` (a Python module with the
//! built-in puzzles and this one).
//!
//! `discs` discs on three pegs, a move takes the top disc of one peg onto a peg whose top disc is
//! larger (or that is empty). The goal: every disc on peg 3. The answer from all on peg 1 is
//! 2^discs - 1 moves.

use statespace::board_text::BoardText;
use statespace::cache::fingerprint::Content;
use statespace::config::{Config, Keys, Mode};
use statespace::error::Result;
use statespace::instance::Instance;
use statespace::kit::Kit;
use statespace::limit::Limits;
use statespace::registry::{Plugin, PluginInfo};
use statespace::space::{BoardFormat, Describe, GoalSet, Indexed, Invertible, StateSpace};
use std::fmt;

/// The pegs of the discs, smallest disc first, two bits each in a `u64`: a disc's peg is a shift
/// and a mask away. The dense index reads the same pegs as base-3 digits instead, so that it is
/// the bijection onto `0..3^discs` that [`Indexed`] asks for: every index is a position. (The
/// state itself as the index would leave holes, the 4^discs - 3^discs values with a disc on a
/// fourth peg: a distance table would hold them, and a scan of it decode them, for nothing.)
pub struct Hanoi {
    pub discs: u32,
}

/// Move the top disc of peg `from` onto peg `to` (0-based; displayed 1-based: `1>3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    from: u8,
    to: u8,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}>{}", self.from + 1, self.to + 1)
    }
}

impl Hanoi {
    pub fn peg(&self, state: u64, disc: u32) -> u8 {
        (state >> (2 * disc) & 3) as u8
    }

    /// The smallest disc on `peg`, if any.
    fn top(&self, state: u64, peg: u8) -> Option<u32> {
        (0..self.discs).find(|&d| self.peg(state, d) == peg)
    }
}

impl StateSpace for Hanoi {
    type State = u64;
    type Move = Move;

    fn successors(&self, state: u64, visit: &mut dyn FnMut(Move, u64)) {
        for from in 0..3 {
            let Some(disc) = self.top(state, from) else {
                continue;
            };
            for to in (0..3).filter(|&to| to != from) {
                if self.top(state, to).is_none_or(|other| other > disc) {
                    let next = state & !(3 << (2 * disc)) | (to as u64) << (2 * disc);
                    visit(Move { from, to }, next);
                }
            }
        }
    }

    fn is_goal(&self, state: u64) -> bool {
        (0..self.discs).all(|d| self.peg(state, d) == 2)
    }

    /// Never move the disc just moved straight back.
    fn may_follow(&self, previous: Move, next: Move) -> bool {
        next != self.inverse(previous)
    }
}

/// The pegs as base-3 digits, the smallest disc's the lowest: 3^discs positions, 3^discs indices.
impl Indexed for Hanoi {
    fn size(&self) -> u128 {
        3u128.pow(self.discs)
    }
    fn index(&self, state: u64) -> u64 {
        (0..self.discs)
            .rev()
            .fold(0, |index, d| index * 3 + u64::from(self.peg(state, d)))
    }
    fn state(&self, index: u64) -> u64 {
        (0..self.discs).fold(0, |state, d| state | (index / 3u64.pow(d) % 3) << (2 * d))
    }
}

impl Invertible for Hanoi {
    fn inverse(&self, m: Move) -> Move {
        Move {
            from: m.to,
            to: m.from,
        }
    }
}

impl GoalSet for Hanoi {
    fn goals(&self, visit: &mut dyn FnMut(u64)) {
        visit((0..self.discs).fold(0, |s, d| s | 2 << (2 * d)))
    }
}

/// What the moves, goal and index depend on, for the key of the cached distance table: the
/// number of discs (the rules are fixed).
impl Describe for Hanoi {
    fn describe(&self, content: &mut Content) {
        content.str("hanoi").u64(self.discs.into());
    }
}

/// The board: one line, the peg (1 to 3) of each disc, smallest first: `1 1 1`.
impl BoardFormat for Hanoi {
    fn parse(&self, text: &BoardText) -> Result<u64> {
        let rows = text.rows();
        let [(line, row)] = rows[..] else {
            return Err(text.error_whole("expected one line: the peg of each disc"));
        };
        let pegs: Vec<&str> = row.split_whitespace().collect();
        if pegs.len() != self.discs as usize {
            let message = format!("expected {} pegs, found {}", self.discs, pegs.len());
            return Err(text.error(line, message));
        }
        let mut state = 0;
        for (disc, peg) in pegs.into_iter().enumerate() {
            let peg: u64 = match peg {
                "1" | "2" | "3" => peg.parse::<u64>().unwrap() - 1,
                other => return Err(text.error(line, format!("`{other}` is not a peg (1 to 3)"))),
            };
            state |= peg << (2 * disc);
        }
        Ok(state)
    }

    fn format(&self, state: u64) -> String {
        let pegs: Vec<_> = (0..self.discs)
            .map(|d| (self.peg(state, d) + 1).to_string())
            .collect();
        pegs.join(" ")
    }
}

statespace::keys! {
    /// `[puzzle]` of the Tower of Hanoi.
    struct HanoiKeys in [puzzle] {
        /// the number of discs
        #[range(1..=20)]
        discs: i64,
    }
}

statespace::keys! {
    /// `[goal]`: only the default.
    struct HanoiGoal in [goal] {}
}

pub struct HanoiPlugin;

impl Plugin for HanoiPlugin {
    fn info(&self) -> PluginInfo {
        PluginInfo {
            kind: "hanoi",
            summary: "Tower of Hanoi: move the discs to peg 3, never a larger on a smaller",
            puzzle_keys: HanoiKeys::KEYS,
            goals: &[("peg-3", "every disc on peg 3 (default)")],
            goal_keys: HanoiGoal::KEYS,
            heuristics: &[],
            heuristic_keys: &[],
            scramble: None,
            example: "[puzzle]\nkind = \"hanoi\"\ndiscs = 3\n",
            engines: &[],
        }
    }

    fn build(&self, config: &Config, _limits: &Limits) -> Result<Instance> {
        // A small setup: nothing to count against the limits (see statespace::setup).
        let (keys, _goal) = config.sections::<HanoiKeys, HanoiGoal>()?;
        let discs = keys.discs(config).value()?.value() as u32;
        let description = format!("Tower of Hanoi, {discs} discs");
        Ok(Kit::new(Hanoi { discs }, description)
            .table()
            .build(Mode::AUTO))
    }
}
