//! Permutation puzzles, the slow way: a tiny reader of the project's simple `.tws` files
//! (`Set NAME pieces twists`, a `Solved` block, `Move` blocks: per orbit a line of 1-based
//! slots and, for orbits that twist, a line of twists; `#` comments) and the composition
//! twsearch defines: after a move `m`, slot `i` holds what slot `m[i]` held, its twist plus the
//! twist the move's file gives that piece (the twist line is by starting slot: entry `m[i]`). A generator's powers are the moves, named as the guide says (order 4: `R`, `R2`,
//! `R'`; order 6: `R`, `R2`, `R3`, `R2'`, `R'`; `qtm` keeps the quarter turns). A state prints
//! per orbit its name, the pieces (0-based labels) and, for orbits that twist, `/` and the
//! twists; the goal is the solved state.
//!
//! Starts: short random scrambles of the project's own definitions (given as a scramble or as
//! the state they reach), and on the small ones any arrangement of the pieces and twists.

use super::Case;
use super::sim::Simulator;
use statespace::random::Lcg;

/// A state: per orbit its pieces' labels then their twists, orbits one after the other.
type State = Vec<u8>;

struct Orbit {
    name: String,
    pieces: usize,
    twists: u8,
    /// Where its pieces start in a [`State`] (its twists follow them).
    at: usize,
}

pub struct Perm {
    orbits: Vec<Orbit>,
    solved: State,
    /// The moves searched: each power of each generator, by name.
    moves: Vec<(String, State)>,
}

/// `state` after `m` (a move written as a state: its slots and twists).
fn apply(orbits: &[Orbit], state: &State, m: &State) -> State {
    let mut after = state.clone();
    for o in orbits {
        for i in 0..o.pieces {
            let from = m[o.at + i] as usize;
            after[o.at + i] = state[o.at + from];
            after[o.at + o.pieces + i] =
                (state[o.at + o.pieces + from] + m[o.at + o.pieces + i]) % o.twists;
        }
    }
    after
}

/// The twsearch name of the `power`-th power of `name`, of order `order`.
fn power_name(name: &str, power: usize, order: usize) -> String {
    let (count, prime) = match power * 2 <= order {
        true => (power, ""),
        false => (order - power, "'"),
    };
    match count {
        1 => format!("{name}{prime}"),
        n => format!("{name}{n}{prime}"),
    }
}

impl Perm {
    /// Reads `configs/defs/{file}` with the generators `moves` (all when empty) in `metric`.
    fn read(file: &str, generators: &[&str], metric: &str) -> Perm {
        let path = std::path::Path::new(crate::ROOT)
            .join("configs/defs")
            .join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut tokens = (text.lines())
            .flat_map(|line| line.split('#').next().unwrap().split_whitespace())
            .peekable();
        let mut orbits: Vec<Orbit> = Vec::new();
        let mut solved = State::new();
        let mut blocks: Vec<(String, State)> = Vec::new();
        let number = |t: Option<&str>| t.unwrap().parse::<u8>().unwrap();
        while let Some(keyword) = tokens.next() {
            match keyword {
                "Name" => {
                    // The name runs to the end of its line: skip to the next keyword.
                    while tokens
                        .peek()
                        .is_some_and(|t| !["Set", "Solved"].contains(t))
                    {
                        tokens.next();
                    }
                }
                "Set" => {
                    let name = tokens.next().unwrap().to_string();
                    let pieces = number(tokens.next()) as usize;
                    let twists = number(tokens.next());
                    let at = orbits.last().map_or(0, |o| o.at + 2 * o.pieces);
                    orbits.push(Orbit {
                        name,
                        pieces,
                        twists,
                        at,
                    });
                }
                "Solved" | "Move" => {
                    let name = match keyword {
                        "Move" => tokens.next().unwrap().to_string(),
                        _ => String::new(),
                    };
                    // An orbit a block leaves out stays as it is (for a move: the identity).
                    let mut state: State = (orbits.iter())
                        .flat_map(|o| (0..o.pieces as u8).chain(std::iter::repeat_n(0, o.pieces)))
                        .collect();
                    loop {
                        let orbit = tokens.next().unwrap();
                        if orbit == "End" {
                            break;
                        }
                        let o = orbits.iter().find(|o| o.name == orbit).unwrap();
                        for i in 0..o.pieces {
                            state[o.at + i] = number(tokens.next()) - 1;
                        }
                        if tokens.peek().is_some_and(|t| t.parse::<u8>().is_ok()) {
                            let twists: Vec<u8> =
                                (0..o.pieces).map(|_| number(tokens.next())).collect();
                            for i in 0..o.pieces {
                                // A move's twists are by the piece's starting slot: slot `i`
                                // gets the twist of what comes from slot `m[i]`.
                                let from = match keyword {
                                    "Move" => state[o.at + i] as usize,
                                    _ => i,
                                };
                                state[o.at + o.pieces + i] = twists[from];
                            }
                        }
                    }
                    match keyword {
                        "Solved" => solved = state,
                        _ => blocks.push((name, state)),
                    }
                }
                other => panic!("{file}: `{other}` is more than this reader reads"),
            }
        }
        let mut identity = State::new();
        for o in &orbits {
            identity.extend(0..o.pieces as u8);
            identity.extend(std::iter::repeat_n(0, o.pieces));
        }
        let mut moves = Vec::new();
        for (name, m) in &blocks {
            if !generators.is_empty() && !generators.contains(&name.as_str()) {
                continue;
            }
            // Its powers m, m^2, ... before the identity; their count is the order less one.
            let mut powers = vec![m.clone()];
            loop {
                let next = apply(&orbits, &powers[powers.len() - 1], m);
                if next == identity {
                    break;
                }
                powers.push(next);
            }
            let order = powers.len() + 1;
            for (p, power) in (1..).zip(powers) {
                if metric == "htm" || p == 1 || p == order - 1 {
                    moves.push((power_name(name, p, order), power));
                }
            }
        }
        Perm {
            orbits,
            solved,
            moves,
        }
    }
}

impl Simulator for Perm {
    type Board = State;

    fn text(&self, state: &State) -> String {
        let lines: Vec<String> = (self.orbits.iter())
            .map(|o| {
                let numbers = |range: std::ops::Range<usize>| -> String {
                    let words: Vec<String> = state[range].iter().map(|n| n.to_string()).collect();
                    words.join(" ")
                };
                let pieces = numbers(o.at..o.at + o.pieces);
                match o.twists {
                    1 => format!("{} {pieces}", o.name),
                    _ => {
                        let twists = numbers(o.at + o.pieces..o.at + 2 * o.pieces);
                        format!("{} {pieces} / {twists}", o.name)
                    }
                }
            })
            .collect();
        lines.join("\n")
    }

    fn moves(&self, state: &State) -> Vec<(String, State)> {
        (self.moves.iter())
            .map(|(name, m)| (name.clone(), apply(&self.orbits, state, m)))
            .collect()
    }

    fn is_goal(&self, state: &State) -> bool {
        *state == self.solved
    }
}

/// A puzzle the cases draw from.
struct Puzzle {
    /// `builtin:NAME` of the config.
    builtin: &'static str,
    /// The file under configs/defs/ the reader here reads for it.
    file: &'static str,
    /// `[puzzle] moves` (all the file's when empty) and `metric`.
    generators: &'static [&'static str],
    metric: &'static str,
    /// The longest scramble.
    longest: usize,
    /// Whether any arrangement may start: the brute force then sweeps a whole component, of at
    /// most a few tens of thousands of states on these.
    any: bool,
}

const fn puzzle(
    builtin: &'static str,
    file: &'static str,
    generators: &'static [&'static str],
    metric: &'static str,
    longest: usize,
    any: bool,
) -> Puzzle {
    Puzzle {
        builtin,
        file,
        generators,
        metric,
        longest,
        any,
    }
}

const UFR: &[&str] = &["U", "F", "R"];

const PUZZLES: [Puzzle; 12] = [
    puzzle("2x2x2", "2x2x2.tws", UFR, "htm", 6, false),
    puzzle("2x2x2", "2x2x2.tws", UFR, "qtm", 6, false),
    puzzle("2x2x2", "2x2x2.tws", &["U", "R"], "htm", 6, false),
    puzzle("2x2x2.json", "2x2x2.tws", UFR, "htm", 5, false),
    puzzle("skewb", "skewb.tws", &[], "htm", 5, false),
    puzzle("pyraminx", "pyraminx.tws", &[], "htm", 5, false),
    puzzle("loopover-3x3", "loopover-3x3.tws", &[], "htm", 6, false),
    puzzle("wheels", "wheels.tws", &[], "htm", 5, false),
    puzzle("3x3x3", "3x3x3.tws", &[], "htm", 3, false),
    puzzle(
        "loopover-3x3-rows",
        "loopover-3x3-rows.tws",
        &[],
        "htm",
        6,
        true,
    ),
    puzzle("rings", "rings.tws", &[], "htm", 6, true),
    puzzle("parity-pair", "parity-pair.tws", &[], "htm", 6, true),
];

pub fn case(rng: &mut Lcg) -> Case<Perm> {
    let Puzzle {
        builtin,
        file,
        generators,
        metric,
        longest,
        any,
    } = PUZZLES[rng.below(PUZZLES.len())];
    let sim = Perm::read(file, generators, metric);
    let (start, start_toml) = if any && rng.below(2) == 0 {
        let mut state = sim.solved.clone();
        for o in &sim.orbits {
            let pieces = &mut state[o.at..o.at + o.pieces];
            for i in (1..pieces.len()).rev() {
                pieces.swap(i, rng.below(i + 1));
            }
            for t in &mut state[o.at + o.pieces..o.at + 2 * o.pieces] {
                *t = rng.below(o.twists as usize) as u8;
            }
        }
        let toml = format!("board = \"\"\"\n{}\n\"\"\"", sim.text(&state));
        (state, toml)
    } else {
        let mut state = sim.solved.clone();
        let mut scramble = Vec::new();
        for _ in 0..rng.below(longest + 1) {
            let (name, m) = &sim.moves[rng.below(sim.moves.len())];
            state = apply(&sim.orbits, &state, m);
            scramble.push(name.as_str());
        }
        let toml = match rng.below(2) {
            0 => format!("scramble = \"{}\"", scramble.join(" ")),
            _ => format!("board = \"\"\"\n{}\n\"\"\"", sim.text(&state)),
        };
        (state, toml)
    };
    let moves_toml = match generators {
        [] => String::new(),
        names => format!("moves = {names:?}\n"),
    };
    let config = format!(
        "[puzzle]\nkind = \"perm\"\ndefinition = \"builtin:{builtin}\"\n{moves_toml}\
         metric = \"{metric}\"\n\n[start]\n{start_toml}\n"
    );
    Case {
        sim,
        start,
        config,
        cap: 400_000,
        heuristic_keys: Vec::new(),
        costly_heuristics: if file == "3x3x3.tws" { &["pdb"] } else { &[] },
    }
}
