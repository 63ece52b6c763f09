//! Move sequences: parsing them (`R U2 F' R2'`) into [`Turn`]s, composing and inverting them, and
//! the moves a definition defines by sequences of other moves ([`Definition::add_sequences`]).
//!
//! Cost: names are found through a hash map, and each sequence is composed once, after the
//! sequences it names (the order of the file does not matter), so reading sequences is linear in
//! their tokens however they chain.

use super::model::{Definition, MoveDef, Transform};
use hashbrown::HashMap;
use statespace::error::{Error, Location, Result, quoted};
use statespace::setup::{Setup, heap, listed};

/// One token of a move sequence: a move and a signed exponent (`R2'` is `amount = -2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The index in [`Definition::moves`].
    pub mv: usize,
    /// The exponent; negative for primed tokens.
    pub amount: i64,
}

/// A move defined by a sequence, for [`Definition::add_sequences`]: its name, the sequence's
/// text, whether it is [`derived`](MoveDef::derived), and where it was defined.
pub type Pending = (String, String, bool, Location);

/// The turns of a move sequence (see [`Definition::parse_sequence`]) with the moves `names`,
/// calling `step` once per token (a reader's [`Setup`] counts them).
fn parse_turns(
    text: &str,
    at: &Location,
    names: &HashMap<&str, usize>,
    step: &mut dyn FnMut() -> Result<()>,
) -> Result<Vec<Turn>> {
    let mut turns = Vec::new();
    for (k, token) in tokens(text).enumerate() {
        step()?;
        match parse_turn(token, names) {
            Some(turn) => turns.push(turn),
            None => return Err(Error::input(at.clone(), unknown_move(token, k, text))),
        }
    }
    Ok(turns)
}

/// The tokens of a move sequence: separated by whitespace or commas, as twsearch splits them.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
}

/// Why the `k`-th (0-based) token of `text` is refused: it names no move. Both are quoted by
/// their first characters only ([`quoted`]): a scramble's line may be megabytes.
fn unknown_move(token: &str, k: usize, text: &str) -> String {
    format!(
        "unknown move {} (token {} of {})",
        quoted(token),
        k + 1,
        quoted(text.trim())
    )
}

/// One token (`R`, `R2'`, ...) with the moves `names`, if it names one.
fn parse_turn(token: &str, names: &HashMap<&str, usize>) -> Option<Turn> {
    if let Some(&mv) = names.get(token) {
        return Some(Turn { mv, amount: 1 });
    }
    let (body, sign) = match token.strip_suffix('\'') {
        Some(body) => (body, -1),
        None => (token, 1),
    };
    if let Some(&mv) = names.get(body) {
        return Some(Turn { mv, amount: sign });
    }
    // A name may end in digits itself (LoopOver's `r1`, whose square is `r12`): the longest
    // name that leaves a positive exponent wins, as a whole name does. (A lone `'` leaves an
    // empty body, with no name to find.)
    let digits = body.len() - body.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    (1..=digits.min(body.len().saturating_sub(1))).find_map(|k| {
        let (name, exp) = body.split_at(body.len() - k);
        let exp: i64 = exp.parse().ok().filter(|&e| e > 0)?;
        Some(Turn {
            mv: *names.get(name)?,
            amount: sign * exp,
        })
    })
}

impl Definition {
    /// Parses a move sequence (`R U2 F' R2'`; tokens separated by whitespace or commas, as
    /// twsearch splits them). A token is a move name, optionally followed by an exponent and
    /// then optionally by `'` (inverse): `R`, `R2`, `R'`, `R2'`. A token that is a move name as a
    /// whole wins (a move may be named `R2`), then the longest name before an exponent (`r12` is
    /// `r1` twice when there is a move `r1`). Errors say which token is unknown, at `at`.
    pub fn parse_sequence(&self, text: &str, at: &Location) -> Result<Vec<Turn>> {
        parse_turns(text, at, &self.move_names(), &mut || Ok(()))
    }

    /// The transform of a scramble's text, its moves applied as they are read: no list of
    /// turns is held, so a scramble of millions of moves takes the memory of its text and one
    /// transform. Tokens as [`parse_sequence`](Self::parse_sequence) reads them; `#` starts a
    /// comment that runs to the end of its line, as in a `.tws` file. Each token is a step of
    /// `setup` (the time limit and Ctrl-C stop a long scramble); `at(line)` is where the text's
    /// `line` (1-based) stands, for errors, which name the token and its line.
    pub fn scramble_transform(
        &self,
        text: &str,
        at: &dyn Fn(usize) -> Location,
        setup: &mut Setup,
    ) -> Result<Transform> {
        let names = self.move_names();
        let mut t = Transform::identity(&self.orbits);
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            for (k, token) in tokens(line).enumerate() {
                setup.step(|| at(i + 1))?;
                let turn = parse_turn(token, &names)
                    .ok_or_else(|| Error::input(at(i + 1), unknown_move(token, k, line)))?;
                let turned = self.moves[turn.mv]
                    .transform
                    .power(turn.amount, &self.orbits);
                t = t.then(&turned, &self.orbits);
            }
        }
        Ok(t)
    }

    /// The transform of a parsed sequence, turns applied left to right.
    pub fn sequence_transform(&self, turns: &[Turn]) -> Transform {
        turns
            .iter()
            .fold(Transform::identity(&self.orbits), |acc, t| {
                acc.then(
                    &self.moves[t.mv].transform.power(t.amount, &self.orbits),
                    &self.orbits,
                )
            })
    }

    /// The inverse sequence: the turns reversed, each negated.
    pub fn invert_sequence(turns: &[Turn]) -> Vec<Turn> {
        turns
            .iter()
            .rev()
            .map(|t| Turn {
                mv: t.mv,
                amount: -t.amount,
            })
            .collect()
    }

    /// Adds moves defined by sequences of other moves (twsearch `MoveSequence`/`MoveAlias`,
    /// KPuzzle `derivedMoves`), after the moves there are, in the given order. Each entry:
    /// name, sequence text, derived flag, location. A sequence may name any move, a sequence
    /// listed later included (as twsearch's `expandalgomoves` allows): each is composed once,
    /// after the sequences it names, so the cost is linear in the tokens however the sequences
    /// chain. Errors, at the sequence's location: a name defined twice, then the first token
    /// that names no move, then a sequence defined through itself. Each token is a step of
    /// `setup`, each sequence's transform charged to it.
    pub fn add_sequences(&mut self, pending: Vec<Pending>, setup: &mut Setup) -> Result<()> {
        let first = self.moves.len();
        let turns = {
            // Every name, the sequences' own included, so any of them may be named.
            let mut names = self.move_names();
            for (k, (name, _, _, at)) in pending.iter().enumerate() {
                if names.insert(name.as_str(), first + k).is_some() {
                    return Err(Error::input(
                        at.clone(),
                        format!("move {name} is defined twice"),
                    ));
                }
            }
            let mut turns = Vec::with_capacity(pending.len());
            for (_, text, _, at) in &pending {
                let parsed = parse_turns(text, at, &names, &mut || setup.step(|| at.clone()))?;
                let bytes =
                    heap(parsed.len() * std::mem::size_of::<Turn>()) + listed::<Vec<Turn>>();
                setup.charge(bytes, || at.clone())?;
                turns.push(parsed);
            }
            turns
        };
        // Each sequence in place, named, composed below once the sequences it names are.
        for (name, _, derived, at) in &pending {
            setup.charge(MoveDef::bytes(&self.orbits, name), || at.clone())?;
            self.moves.push(MoveDef {
                name: name.clone(),
                transform: Transform::identity(&self.orbits),
                derived: *derived,
            });
        }
        // A depth-first walk along "names", with a stack of its own (chains may be thousands of
        // sequences deep).
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            New,
            Open,
            Done,
        }
        let mut mark = vec![Mark::New; pending.len()];
        for root in 0..pending.len() {
            if mark[root] != Mark::New {
                continue;
            }
            mark[root] = Mark::Open;
            // (sequence, its next token to look at)
            let mut stack = vec![(root, 0)];
            while let Some((k, next)) = stack.last_mut() {
                let k = *k;
                if let Some(turn) = turns[k].get(*next) {
                    *next += 1;
                    let Some(named) = turn.mv.checked_sub(first) else {
                        continue; // a move of the file
                    };
                    match mark[named] {
                        Mark::New => {
                            mark[named] = Mark::Open;
                            stack.push((named, 0));
                        }
                        Mark::Open => {
                            let (name, _, _, at) = &pending[named];
                            return Err(Error::input(
                                at.clone(),
                                format!("{name} is defined through itself (a cycle of sequences)"),
                            ));
                        }
                        Mark::Done => {}
                    }
                    continue;
                }
                let mut t = Transform::identity(&self.orbits);
                for turn in &turns[k] {
                    setup.step(|| pending[k].3.clone())?;
                    let named = &self.moves[turn.mv].transform;
                    t = t.then(&named.power(turn.amount, &self.orbits), &self.orbits);
                }
                self.moves[first + k].transform = t;
                mark[k] = Mark::Done;
                stack.pop();
            }
        }
        Ok(())
    }
}
