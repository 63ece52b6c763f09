//! The definition model: orbits, states, transforms, moves and their powers.
//!
//! # The one convention
//!
//! Everything here is 0-based and **by slot** (the convention of twsearch's internal `mul` and
//! of cubing.js's KPuzzle; `.tws` files that use the ksolve convention are converted on
//! reading, see [`tws`](super::tws)). Per orbit, a [`Transform`] is a pair
//! `(perm, delta)` of equal length `n`, and applying it to a [`State`] `s` gives `r` with, for
//! every slot `i`:
//!
//! ```text
//! r.pieces[i]      = s.pieces[perm[i]]
//! r.orientation[i] = (s.orientation[perm[i]] + delta[i]) % orientations
//! ```
//!
//! in words: *slot `i` of the result receives the piece from slot `perm[i]` of the operand, its
//! orientation increased by `delta[i]` modulo the orbit's orientation count*. So `delta` is
//! attached to the destination slot (cubing.js: "post-permutation").
//!
//! Composition is the same formula with a transform as the operand: [`Transform::then`]
//! (`a.then(b)` = first `a`, then `b`) has `perm[i] = a.perm[b.perm[i]]` and
//! `delta[i] = (a.delta[b.perm[i]] + b.delta[i]) % orientations`; applying `a.then(b)` equals
//! applying `a` and then `b`.
//!
//! # Moves and their powers
//!
//! A definition lists generators ([`MoveDef`]). Searches use their powers ([`Power`]), named as
//! twsearch names them (`expandonemove` in its `readksolve.cpp`): for a generator `X` of order
//! `k`, the power `X^t` for `t` in `1..k` is reduced to the signed twist `t` or `t - k`, whichever
//! is smaller in absolute value (`t` on a tie), and named `X` for `+1`, `Xt` for `+t`, `X'` for
//! `-1` and `Xt'` for `-t`. Its cost is the absolute twist. So order 2 gives `X`; order 3: `X`,
//! `X'`; order 4: `X`, `X2`, `X'`; order 5: `X`, `X2`, `X2'`, `X'`; order 6: `X`, `X2`, `X3`, `X2'`,
//! `X'`.
//!
//! [`Metric::Htm`] searches every power at cost 1; [`Metric::Qtm`] keeps only the powers of cost 1
//! (`X` and `X'`). (twsearch's quarter-turn mode instead keeps `X2` at cost 2; a search here that
//! counts every edge as 1 cannot weigh edges, so dropping them is the honest choice.)
//!
//! # Cost
//!
//! Reading a definition is linear in its text, times the state's size: names are found through a
//! hash map, each move sequence is composed once, after the sequences it names (the order of the
//! file does not matter), and [`Definition::generators`] stops at [`MAX_MOVES`]. The readers
//! count their work and memory in a [`Setup`], so the run's limits hold while they read.
//!
//! # Trade-offs
//!
//! Values are bytes: at most [`MAX_PIECES`] slots per orbit (slots and labels fit in a `u8`) and
//! [`MAX_ORIENTATIONS`] orientations (twsearch's limit too; it keeps `orientation + delta` below
//! 256). Piece labels in states may repeat (look-alike pieces); transforms are always
//! permutations. This model is for reading, checking and composing; the search state is the
//! fixed-size byte array of [`state`](super::state).

use hashbrown::HashMap;
use statespace::error::{Error, Location, Result};
use statespace::setup::{Setup, heap, listed};
use std::fmt;
use std::str::FromStr;

/// The most slots an orbit has: slot indices and piece labels are bytes.
pub const MAX_PIECES: usize = 255;
/// The most orientations a piece has (twsearch's limit): `orientation + delta` stays a byte.
pub const MAX_ORIENTATIONS: u8 = 127;
/// The highest generator order [`Definition::generators`] expands into powers (a generator of
/// order 1000 would already give 999 moves).
pub const MAX_EXPANDED_ORDER: u128 = 1000;
/// The most moves (powers of generators) a search takes: 65,535, numbered with a `u16`.
pub const MAX_MOVES: usize = u16::MAX as usize;

/// One orbit (a ksolve "set"): slots that pieces move between, and how many ways a piece turns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orbit {
    /// The name (`CORNER`, `EDGES`); unique within a definition.
    pub name: String,
    /// The number of slots, 1 to [`MAX_PIECES`].
    pub pieces: usize,
    /// The number of orientations, 1 (pieces never turn) to [`MAX_ORIENTATIONS`].
    pub orientations: u8,
}

/// One orbit of a [`State`]: which piece is in each slot and how it is turned.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OrbitState {
    /// The piece label in each slot (0-based; labels may repeat for look-alike pieces).
    pub pieces: Vec<u8>,
    /// The orientation of the piece in each slot, below the orbit's orientation count.
    pub orientation: Vec<u8>,
}

/// A position of the puzzle: one [`OrbitState`] per orbit, in the definition's orbit order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Per orbit, in [`Definition::orbits`] order.
    pub orbits: Vec<OrbitState>,
}

/// One orbit of a [`Transform`], in the by-slot convention of the module docs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OrbitTransform {
    /// Slot `i` of the result receives the piece from slot `perm[i]` (a permutation of `0..n`).
    pub perm: Vec<u8>,
    /// The twist added to the piece that lands in slot `i`, below the orientation count.
    pub delta: Vec<u8>,
}

/// A move's effect on every orbit (a KPuzzle "transformation").
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    /// Per orbit, in [`Definition::orbits`] order.
    pub orbits: Vec<OrbitTransform>,
}

/// A generator of the puzzle: a named transform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDef {
    /// The name as files write it (`R`, `1H`, `DFR`).
    pub name: String,
    /// What the move does.
    pub transform: Transform,
    /// True for a name defined by a move sequence that is not meant as a search generator
    /// (twsearch's `MoveAlias`, KPuzzle's `derivedMoves`): usable in sequences, and in
    /// [`Definition::generators`] only when asked for by name.
    pub derived: bool,
}

/// A move defined by a sequence, for [`Definition::add_sequences`]: its name, the sequence's
/// text, whether it is [`derived`](MoveDef::derived), and where it was defined.
pub type Pending = (String, String, bool, Location);

impl MoveDef {
    /// The bytes one more move named `name` takes in a definition of `orbits`: its transform,
    /// its name and its place in the list of moves.
    pub fn bytes(orbits: &[Orbit], name: &str) -> u128 {
        Transform::bytes(orbits) + heap(name.len()) + listed::<MoveDef>()
    }
}

/// A ksolve `Illegal` rule: a state is illegal when slot `slot` of orbit `orbit` holds one of
/// `pieces` (twsearch's `legalstate`). Kept with the definition and checked by
/// [`Definition::is_legal`]; the search space enforces it
/// ([`PermSpace`](super::PermSpace): a move into an illegal state is blocked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal {
    /// The orbit's index in [`Definition::orbits`].
    pub orbit: usize,
    /// The slot, 0-based.
    pub slot: usize,
    /// The forbidden piece labels, 0-based.
    pub pieces: Vec<u8>,
}

/// A permutation puzzle as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// The puzzle's name (`Name` line, KPuzzle `name`).
    pub name: String,
    /// The orbits, in file order.
    pub orbits: Vec<Orbit>,
    /// The solved state (may have look-alike pieces).
    pub solved: State,
    /// The moves of the file, in its order (KPuzzle: in name order, as JSON objects are
    /// unordered), then those defined by sequences, in their order
    /// ([`add_sequences`](Self::add_sequences)).
    pub moves: Vec<MoveDef>,
    /// The `Illegal` rules, if any.
    pub illegal: Vec<Illegal>,
}

/// What a search counts as one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Half-turn metric: every power of a generator (`X`, `X2`, `X'`) is one move.
    Htm,
    /// Quarter-turn metric: only the powers of cost 1 (`X` and `X'`).
    Qtm,
}

impl FromStr for Metric {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "htm" => Ok(Metric::Htm),
            "qtm" => Ok(Metric::Qtm),
            other => Err(format!("unknown metric \"{other}\" (expected htm or qtm)")),
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Metric::Htm => "htm",
            Metric::Qtm => "qtm",
        })
    }
}

/// A power of a generator, as a search uses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Power {
    /// The twsearch name (`R`, `R2`, `R'`; see the module docs).
    pub name: String,
    /// The generator's index in [`Definition::moves`].
    pub base: usize,
    /// The exponent, `1..order`.
    pub amount: u32,
    /// The absolute signed twist (`R2`: 2, `R'`: 1).
    pub cost: u32,
    /// The generator to the power `amount`.
    pub transform: Transform,
}

/// One token of a move sequence: a move and a signed exponent (`R2'` is `amount = -2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The index in [`Definition::moves`].
    pub mv: usize,
    /// The exponent; negative for primed tokens.
    pub amount: i64,
}

/// The twsearch name and cost of `base^amount` for a generator of order `order` (see the module
/// docs): `power_name("R", 3, 4)` is `("R'", 1)`.
pub fn power_name(base: &str, amount: u32, order: u32) -> (String, u32) {
    let mut tw = i64::from(amount);
    let order = i64::from(order);
    if order - tw < tw {
        tw -= order;
    }
    let mut name = base.to_string();
    if tw.abs() != 1 {
        name.push_str(&tw.abs().to_string());
    }
    if tw < 0 {
        name.push('\'');
    }
    (name, tw.unsigned_abs() as u32)
}

/// The turns of a move sequence (see [`Definition::parse_sequence`]) with the moves `names`,
/// calling `step` once per token (a reader's [`Setup`] counts them).
fn parse_turns(
    text: &str,
    at: &Location,
    names: &HashMap<&str, usize>,
    step: &mut dyn FnMut() -> Result<()>,
) -> Result<Vec<Turn>> {
    let mut turns = Vec::new();
    for (k, token) in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .enumerate()
    {
        step()?;
        match parse_turn(token, names) {
            Some(turn) => turns.push(turn),
            None => {
                return Err(Error::input(
                    at.clone(),
                    format!(
                        "unknown move \"{token}\" (token {} of \"{}\")",
                        k + 1,
                        text.trim()
                    ),
                ));
            }
        }
    }
    Ok(turns)
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
    // name that leaves a positive exponent wins, as a whole name does.
    let digits = body.len() - body.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    (1..=digits.min(body.len() - 1)).find_map(|k| {
        let (name, exp) = body.split_at(body.len() - k);
        let exp: i64 = exp.parse().ok().filter(|&e| e > 0)?;
        Some(Turn {
            mv: *names.get(name)?,
            amount: sign * exp,
        })
    })
}

/// What is wrong with `perm` as a permutation of `0..perm.len()`, if anything. Values are shown
/// plus `base` (1 for the 1-based ksolve text), so the message quotes the input.
pub fn permutation_problem(perm: &[usize], base: usize) -> Option<String> {
    let n = perm.len();
    let mut seen = vec![false; n];
    for &v in perm {
        if v >= n {
            return Some(format!(
                "{} is out of range {}..{} in the permutation",
                v + base,
                base,
                n - 1 + base
            ));
        }
        if seen[v] {
            return Some(format!("{} is repeated in the permutation", v + base));
        }
        seen[v] = true;
    }
    None
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl State {
    /// The result of applying `t` (module docs' formula).
    pub fn apply(&self, t: &Transform, orbits: &[Orbit]) -> State {
        State {
            orbits: self
                .orbits
                .iter()
                .zip(&t.orbits)
                .zip(orbits)
                .map(|((s, t), o)| OrbitState {
                    pieces: t.perm.iter().map(|&p| s.pieces[p as usize]).collect(),
                    orientation: t
                        .perm
                        .iter()
                        .zip(&t.delta)
                        .map(|(&p, &d)| add_mod(s.orientation[p as usize], d, o.orientations))
                        .collect(),
                })
                .collect(),
        }
    }
}

fn add_mod(a: u8, b: u8, m: u8) -> u8 {
    // Both are below m <= 127, so the sum fits a byte.
    let s = a + b;
    if s >= m { s - m } else { s }
}

impl Transform {
    /// The transform that changes nothing.
    pub fn identity(orbits: &[Orbit]) -> Transform {
        Transform {
            orbits: orbits
                .iter()
                .map(|o| OrbitTransform {
                    perm: (0..o.pieces).map(|i| i as u8).collect(),
                    delta: vec![0; o.pieces],
                })
                .collect(),
        }
    }

    /// The heap a transform of `orbits` takes (a block of orbits, two byte blocks each): what a
    /// reader charges to its [`Setup`] before making one.
    pub fn bytes(orbits: &[Orbit]) -> u128 {
        let list = heap(orbits.len() * std::mem::size_of::<OrbitTransform>());
        list + orbits.iter().map(|o| 2 * heap(o.pieces)).sum::<u128>()
    }

    /// True when the transform changes nothing.
    pub fn is_identity(&self) -> bool {
        self.orbits.iter().all(|o| {
            o.perm.iter().enumerate().all(|(i, &p)| p as usize == i)
                && o.delta.iter().all(|&d| d == 0)
        })
    }

    /// First `self`, then `next`.
    pub fn then(&self, next: &Transform, orbits: &[Orbit]) -> Transform {
        Transform {
            orbits: self
                .orbits
                .iter()
                .zip(&next.orbits)
                .zip(orbits)
                .map(|((a, b), o)| OrbitTransform {
                    perm: b.perm.iter().map(|&p| a.perm[p as usize]).collect(),
                    delta: b
                        .perm
                        .iter()
                        .zip(&b.delta)
                        .map(|(&p, &d)| add_mod(a.delta[p as usize], d, o.orientations))
                        .collect(),
                })
                .collect(),
        }
    }

    /// The transform that undoes this one: `t.then(&t.inverse())` is the identity.
    pub fn inverse(&self, orbits: &[Orbit]) -> Transform {
        Transform {
            orbits: self
                .orbits
                .iter()
                .zip(orbits)
                .map(|(t, o)| {
                    let n = t.perm.len();
                    let mut perm = vec![0u8; n];
                    let mut delta = vec![0u8; n];
                    for (i, (&p, &d)) in t.perm.iter().zip(&t.delta).enumerate() {
                        perm[p as usize] = i as u8;
                        delta[p as usize] = (o.orientations - d) % o.orientations;
                    }
                    OrbitTransform { perm, delta }
                })
                .collect(),
        }
    }

    /// `self` to the power `k` (negative: of the inverse), by repeated squaring.
    pub fn power(&self, k: i64, orbits: &[Orbit]) -> Transform {
        let mut base = if k < 0 {
            self.inverse(orbits)
        } else {
            self.clone()
        };
        let mut k = k.unsigned_abs();
        let mut acc = Transform::identity(orbits);
        while k > 0 {
            if k & 1 == 1 {
                acc = acc.then(&base, orbits);
            }
            k >>= 1;
            if k > 0 {
                base = base.then(&base, orbits);
            }
        }
        acc
    }

    /// The order: the least `k >= 1` with `self^k` the identity. Per cycle of length `L` whose
    /// twists sum to `t` modulo `o`, the cycle repeats after `L * o / gcd(t, o)` (twsearch's
    /// `cyccnts`); the order is the lcm over all cycles, saturating at `u128::MAX`.
    pub fn order(&self, orbits: &[Orbit]) -> u128 {
        let mut order: u128 = 1;
        for (t, o) in self.orbits.iter().zip(orbits) {
            let m = u128::from(o.orientations);
            let mut done = vec![false; t.perm.len()];
            for start in 0..t.perm.len() {
                if done[start] {
                    continue;
                }
                let (mut len, mut twist, mut j) = (0u128, 0u128, start);
                while !done[j] {
                    done[j] = true;
                    len += 1;
                    twist += u128::from(t.delta[j]);
                    j = t.perm[j] as usize;
                }
                let cycle = len * (m / gcd(twist % m, m));
                order = match (order / gcd(order, cycle)).checked_mul(cycle) {
                    Some(v) => v,
                    None => return u128::MAX,
                };
            }
        }
        order
    }

    /// What is wrong with this transform for `orbits` (shape, a permutation that is not one, an
    /// orientation out of range), naming the orbit.
    pub fn problem(&self, orbits: &[Orbit]) -> Option<String> {
        if self.orbits.len() != orbits.len() {
            return Some(format!(
                "{} orbits, expected {}",
                self.orbits.len(),
                orbits.len()
            ));
        }
        for (t, o) in self.orbits.iter().zip(orbits) {
            if t.perm.len() != o.pieces || t.delta.len() != o.pieces {
                return Some(format!("{}: expected {} slots", o.name, o.pieces));
            }
            let perm: Vec<usize> = t.perm.iter().map(|&p| p as usize).collect();
            if let Some(p) = permutation_problem(&perm, 0) {
                return Some(format!("{}: {p}", o.name));
            }
            if let Some(&d) = t.delta.iter().find(|&&d| d >= o.orientations) {
                return Some(format!(
                    "{}: orientation {d} is out of range 0..{}",
                    o.name,
                    o.orientations - 1
                ));
            }
        }
        None
    }
}

impl Definition {
    /// The index of the orbit named `name`.
    pub fn orbit_index(&self, name: &str) -> Option<usize> {
        self.orbits.iter().position(|o| o.name == name)
    }

    /// The index of the move named `name` in [`moves`](Self::moves).
    pub fn move_index(&self, name: &str) -> Option<usize> {
        self.moves.iter().position(|m| m.name == name)
    }

    /// The bytes of a packed search state ([`Packer`](super::Packer)): a label per slot, and a
    /// twist per slot of the orbits that turn.
    pub fn state_bytes(&self) -> usize {
        self.orbits
            .iter()
            .map(|o| o.pieces * if o.orientations > 1 { 2 } else { 1 })
            .sum()
    }

    /// Every move's index by name (the first of a repeated name, as [`move_index`](Self::move_index)):
    /// for looking up many names at once.
    pub fn move_names(&self) -> HashMap<&str, usize> {
        let mut names = HashMap::with_capacity(self.moves.len());
        for (i, m) in self.moves.iter().enumerate() {
            names.entry(m.name.as_str()).or_insert(i);
        }
        names
    }

    /// Checks everything the model promises (orbit sizes and names, the solved state, every
    /// move a permutation with orientations in range, unique move names, `Illegal` rules in
    /// range). The parsers check as they read, with better locations; this is for definitions
    /// built in code.
    pub fn validate(&self) -> Result<()> {
        let at =
            |key: String, msg: String| Error::input(Location::file(&self.name).with_key(key), msg);
        if self.orbits.is_empty() {
            return Err(at("orbits".into(), "no orbits".into()));
        }
        for (i, o) in self.orbits.iter().enumerate() {
            if o.pieces == 0 || o.pieces > MAX_PIECES {
                return Err(at(
                    o.name.clone(),
                    format!("{} pieces, expected 1..{MAX_PIECES}", o.pieces),
                ));
            }
            if o.orientations == 0 || o.orientations > MAX_ORIENTATIONS {
                return Err(at(
                    o.name.clone(),
                    format!(
                        "{} orientations, expected 1..{MAX_ORIENTATIONS}",
                        o.orientations
                    ),
                ));
            }
            if self.orbits[..i].iter().any(|p| p.name == o.name) {
                return Err(at(o.name.clone(), "orbit defined twice".into()));
            }
        }
        if let Some(p) = self.state_problem(&self.solved) {
            return Err(at("solved".into(), p));
        }
        let mut names = hashbrown::HashSet::with_capacity(self.moves.len());
        for m in &self.moves {
            if m.name.is_empty() || !names.insert(m.name.as_str()) {
                return Err(at(
                    format!("moves.{}", m.name),
                    "empty or repeated move name".into(),
                ));
            }
            if let Some(p) = m.transform.problem(&self.orbits) {
                return Err(at(format!("moves.{}", m.name), p));
            }
        }
        for r in &self.illegal {
            let ok = self.orbits.get(r.orbit).is_some_and(|o| r.slot < o.pieces);
            if !ok {
                return Err(at(
                    "illegal".into(),
                    format!("slot {} of orbit {} does not exist", r.slot, r.orbit),
                ));
            }
        }
        Ok(())
    }

    /// What is wrong with `state` as a state of this puzzle's shape (lengths, labels over 254,
    /// orientations out of range), naming the orbit. Does not ask for the solved state's pieces:
    /// see [`same_pieces`](Self::same_pieces).
    pub fn state_problem(&self, state: &State) -> Option<String> {
        if state.orbits.len() != self.orbits.len() {
            return Some(format!(
                "{} orbits, expected {}",
                state.orbits.len(),
                self.orbits.len()
            ));
        }
        for (s, o) in state.orbits.iter().zip(&self.orbits) {
            if s.pieces.len() != o.pieces || s.orientation.len() != o.pieces {
                return Some(format!("{}: expected {} slots", o.name, o.pieces));
            }
            if s.pieces.contains(&u8::MAX) {
                return Some(format!(
                    "{}: piece label 255 is too large (at most 254)",
                    o.name
                ));
            }
            if let Some(&d) = s.orientation.iter().find(|&&d| d >= o.orientations) {
                return Some(format!(
                    "{}: orientation {d} is out of range 0..{}",
                    o.name,
                    o.orientations - 1
                ));
            }
        }
        None
    }

    /// The first orbit (by name) where `state` does not hold the same multiset of pieces as the
    /// solved state: such a state can never be solved (twsearch refuses such scrambles too).
    pub fn same_pieces(&self, state: &State) -> std::result::Result<(), String> {
        for ((s, g), o) in state
            .orbits
            .iter()
            .zip(&self.solved.orbits)
            .zip(&self.orbits)
        {
            let mut a = s.pieces.clone();
            let mut b = g.pieces.clone();
            a.sort_unstable();
            b.sort_unstable();
            if a != b {
                return Err(format!(
                    "{}: the pieces are not those of the solved state",
                    o.name
                ));
            }
        }
        Ok(())
    }

    /// True unless `state` breaks an [`Illegal`] rule.
    pub fn is_legal(&self, state: &State) -> bool {
        self.illegal.iter().all(|r| {
            state
                .orbits
                .get(r.orbit)
                .and_then(|o| o.pieces.get(r.slot))
                .is_none_or(|p| !r.pieces.contains(p))
        })
    }

    /// Parses a move sequence (`R U2 F' R2'`; tokens separated by whitespace or commas, as
    /// twsearch splits them). A token is a move name, optionally followed by an exponent and
    /// then optionally by `'` (inverse): `R`, `R2`, `R'`, `R2'`. A token that is a move name as a
    /// whole wins (a move may be named `R2`), then the longest name before an exponent (`r12` is
    /// `r1` twice when there is a move `r1`). Errors say which token is unknown, at `at`.
    pub fn parse_sequence(&self, text: &str, at: &Location) -> Result<Vec<Turn>> {
        parse_turns(text, at, &self.move_names(), &mut || Ok(()))
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

    /// The search moves: the powers of the chosen generators, in generator order and by
    /// exponent. `names` restricts the generators (`moves = ["U", "F", "R"]`; an unknown or
    /// repeated name is an error at `at`); without it every non-[`derived`](MoveDef::derived)
    /// move is a generator. Generators that do nothing are skipped; an order over
    /// [`MAX_EXPANDED_ORDER`], or more than [`MAX_MOVES`] powers, is an error. Each power is a
    /// step of `setup`, its transform charged to it.
    pub fn generators(
        &self,
        names: Option<&[String]>,
        metric: Metric,
        at: &Location,
        setup: &mut Setup,
    ) -> Result<Vec<Power>> {
        let chosen: Vec<usize> = match names {
            None => (0..self.moves.len())
                .filter(|&i| !self.moves[i].derived)
                .collect(),
            Some(names) => {
                let index = self.move_names();
                let mut listed = vec![false; self.moves.len()];
                let mut chosen = Vec::new();
                for name in names {
                    let Some(&i) = index.get(name.as_str()) else {
                        let known: Vec<&str> = self.moves.iter().map(|m| m.name.as_str()).collect();
                        return Err(Error::input(
                            at.clone(),
                            format!(
                                "unknown move \"{name}\" (the moves are {})",
                                known.join(", ")
                            ),
                        ));
                    };
                    if std::mem::replace(&mut listed[i], true) {
                        return Err(Error::input(
                            at.clone(),
                            format!("move \"{name}\" is listed twice"),
                        ));
                    }
                    chosen.push(i);
                }
                chosen
            }
        };
        let mut powers = Vec::new();
        for base in chosen {
            setup.step(|| at.clone())?;
            let m = &self.moves[base];
            let order = m.transform.order(&self.orbits);
            if order == 1 {
                continue;
            }
            if order > MAX_EXPANDED_ORDER {
                return Err(Error::input(
                    at.clone(),
                    format!(
                        "move {} has order {order}, over {MAX_EXPANDED_ORDER}: too many powers",
                        m.name
                    ),
                ));
            }
            let order = order as u32;
            // Only the two quarter turns cost 1 (module docs): the others are not even made.
            let amounts: Vec<u32> = match metric {
                Metric::Htm => (1..order).collect(),
                Metric::Qtm if order == 2 => vec![1],
                Metric::Qtm => vec![1, order - 1],
            };
            let mut last: Option<(u32, Transform)> = None;
            for amount in amounts {
                if powers.len() == MAX_MOVES {
                    return Err(Error::input(
                        at.clone(),
                        format!(
                            "more than {MAX_MOVES} moves (powers of the generators): too many to search"
                        ),
                    ));
                }
                setup.step(|| at.clone())?;
                let (name, cost) = power_name(&m.name, amount, order);
                let bytes = Transform::bytes(&self.orbits) + heap(name.len()) + listed::<Power>();
                setup.charge(bytes, || at.clone())?;
                // One composition from the previous power, else by squaring (`X'` in qtm).
                let transform = match &last {
                    Some((previous, t)) if previous + 1 == amount => {
                        t.then(&m.transform, &self.orbits)
                    }
                    _ => m.transform.power(i64::from(amount), &self.orbits),
                };
                last = Some((amount, transform.clone()));
                powers.push(Power {
                    name,
                    base,
                    amount,
                    cost,
                    transform,
                });
            }
        }
        Ok(powers)
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

    /// The state as compact text: one line per orbit, the orbit name, its piece labels, and
    /// when the orbit has more than one orientation a `/` and the orientations:
    /// `CORNER 0 1 2 3 4 5 6 7 / 0 0 0 0 0 0 0 0`. 0-based, the same numbers as [`State`].
    pub fn format_state(&self, state: &State) -> String {
        let mut out = String::new();
        for (s, o) in state.orbits.iter().zip(&self.orbits) {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&o.name);
            for p in &s.pieces {
                out.push_str(&format!(" {p}"));
            }
            if o.orientations > 1 {
                out.push_str(" /");
                for d in &s.orientation {
                    out.push_str(&format!(" {d}"));
                }
            }
        }
        out
    }

    /// Parses the text of [`format_state`](Self::format_state): orbit clauses separated by
    /// newlines or `;`, each orbit exactly once, the `/ orientations` part optional (all 0).
    /// The pieces must be those of the solved state (else the state is unsolvable). Errors at
    /// `at`, naming the orbit.
    pub fn parse_state(&self, text: &str, at: &Location) -> Result<State> {
        let err = |m: String| Error::input(at.clone(), m);
        let mut orbits: Vec<Option<OrbitState>> = vec![None; self.orbits.len()];
        for clause in text.split(['\n', ';']) {
            let mut toks = clause.split_whitespace();
            let Some(name) = toks.next() else { continue };
            let i = self
                .orbit_index(name)
                .ok_or_else(|| err(format!("unknown orbit \"{name}\"")))?;
            if orbits[i].is_some() {
                return Err(err(format!("orbit {name} is given twice")));
            }
            let o = &self.orbits[i];
            let rest: Vec<&str> = toks.collect();
            let (labels, oris) = match rest.iter().position(|&t| t == "/") {
                Some(k) => (&rest[..k], Some(&rest[k + 1..])),
                None => (&rest[..], None),
            };
            let numbers = |toks: &[&str], what: &str, limit: u8| -> Result<Vec<u8>> {
                if toks.len() != o.pieces {
                    return Err(err(format!(
                        "{name}: expected {} {what}, found {}",
                        o.pieces,
                        toks.len()
                    )));
                }
                toks.iter()
                    .map(|t| match t.parse::<u8>() {
                        Ok(v) if v < limit => Ok(v),
                        _ => Err(err(format!(
                            "{name}: \"{t}\" is not a {what} below {limit}"
                        ))),
                    })
                    .collect()
            };
            let pieces = numbers(labels, "piece labels", u8::MAX)?;
            let orientation = match oris {
                Some(t) => numbers(t, "orientations", o.orientations)?,
                None => vec![0; o.pieces],
            };
            orbits[i] = Some(OrbitState {
                pieces,
                orientation,
            });
        }
        let mut state = State { orbits: Vec::new() };
        for (s, o) in orbits.into_iter().zip(&self.orbits) {
            state
                .orbits
                .push(s.ok_or_else(|| err(format!("orbit {} is missing", o.name)))?);
        }
        self.same_pieces(&state).map_err(err)?;
        Ok(state)
    }
}
