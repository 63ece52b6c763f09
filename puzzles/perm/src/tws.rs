//! The ksolve-style text format that twsearch reads (`.tws`), into a [`Definition`].
//!
//! # The format, as twsearch's `readksolve.cpp` reads it
//!
//! ```text
//! # a comment
//! Name PuzzleGeometryPuzzle
//! Set CORNER 8 3                 # name, pieces, orientations
//! Solved                         # or StartState (0-based)
//! CORNER
//! 1 2 3 4 5 6 7 8                # piece labels, 1-based, may repeat
//! 0 0 0 0 0 0 0 0                # orientations (optional: all 0)
//! End
//! Move F                         # or MoveTransformation (0-based, by slot)
//! CORNER
//! 7 1 3 2 5 6 4 8                # slot i receives the piece from slot perm[i], 1-based
//! 2 1 0 2 0 0 1 0                # twist by the piece's starting slot (ksolve)
//! End
//! MoveSequence Sexy R U R' U'    # a generator defined by a sequence
//! MoveAlias Rw2 R2               # a name for a sequence, not a search generator
//! Illegal SLICE 3 17             # slot 3 of SLICE may not hold piece 17 (1-based)
//! ```
//!
//! Order: `Name` first (optional), then `Set` lines, then one `Solved`/`StartState` block, then
//! moves; `Illegal` anywhere after the solved block. A set left out of a block is unchanged
//! (moves) or the identity labelling (solved).
//!
//! # Orientation: by piece in the file, by slot in the model
//!
//! In a `Move` block the orientation line is indexed by the piece's *starting* slot: entry `k` is
//! the twist of the piece that was in slot `k` before the move. twsearch converts ("fix moves"
//! in `readposition`: `p[j] = f[p[j - n]]`, i.e. `ori[j] = file_ori[perm[j]]`) to its internal
//! by-slot form, where `mul` computes `c.ori[j] = a.ori[b.perm[j]] + b.ori[j]`. We do the same
//! conversion: `delta[i] = file_orientation[perm[i]]`. `MoveTransformation` blocks are already
//! by slot and 0-based (twsearch's `new_style`), as `StartState` is 0-based.
//!
//! # Wildcards
//!
//! `?` in the orientation line of the `Solved` (or `StartState`) block is twsearch's wildcard: a
//! twist left unknown and never compared (the maltese gear's edges, the puck's U and D centres:
//! the only two of its 134 samples that use it). It belongs to the piece (the label): the
//! puzzle's positions are then classes of states that differ only in wild pieces' twists, and
//! each class is searched as one state, its representative with those twists 0
//! ([`Definition::wild`] holds the labels). So:
//!
//! - the search space sets a wild piece's twist to 0 after every move (a pass over the slots of
//!   the orbits with wild pieces, a mask look-up each), and a start read from a scramble or a
//!   board is made the same way: the goal test, the hash sets and the engines then compare
//!   representatives, and `explore` counts each class once (twsearch's counts: maltese 1, 21,
//!   291, 3,889, ... to 9,138,624 at depth 6; puck 1, 12, 150, 1,906, ... 4,197,097);
//! - a class of slots holding a wild piece keeps no orientation sum (the moves' sum invariant
//!   no longer holds once the wild twists are dropped), so the invariants never refuse a
//!   reachable start;
//! - there is no dense index (its digits would count the wild twists, and a sweep over it would
//!   visit states outside the quotient): no `table` mode, and `explore` uses a hash set;
//! - a pattern database that tracks a wild piece, or keeps a class's twists by slot where a wild
//!   piece goes, forgets that class's twists (a projection, so still a lower bound); it keeps
//!   the twists, by piece, of pieces that are not wild;
//! - symmetries, the inverse (`dual`), `twist_pattern` and `class_pattern` are refused with one
//!   line: a rotation or the inverse would give a wild piece's twist to another piece.
//!
//! Look-alike pieces (one label in several slots) must agree: a label wild in one slot and not
//! in another is refused at its line, as is `?` in a piece line (a piece left unknown: twsearch
//! reads it; we do not), in a move, or in a scramble's position block.
//!
//! Cost: nothing for a definition without `?` (the space's move skips the pass on an empty
//! list); with them, one pass over the wild orbits' slots per move (the maltese gear: 18 of its
//! 50 slots).
//!
//! # Other notes
//!
//! twsearch's command-line set omissions do not apply.
//! `Illegal` rules are kept in [`Definition::illegal`], enforced by the search space (a move
//! into an illegal state is blocked). Rotations (`x`, `Rv`) are read as moves of the
//! definition; the plugin leaves them out of the generators by twsearch's convention
//! ([`MoveDef::is_rotation`](crate::def::MoveDef::is_rotation)).
//!
//! Every error is one line: `file:line: what` (`lo33.tws:12: move 1H: 3 is repeated in the
//! permutation`). `#` starts a comment anywhere on a line (twsearch: only at its start). A
//! byte-order mark before the first line is skipped.
//!
//! # Cost
//!
//! One pass over the lines, each a [`Setup`] step (so the time limit and Ctrl-C stop a long
//! read at its line), with each block's transform charged to the setup before it is made: a
//! `Move` block of a few bytes makes a transform of every set, so the memory budget is checked
//! per move rather than against the file's size. Names are looked up in hash sets and maps, and
//! sequences composed once each ([`Definition::add_sequences`]): linear in the file.

use super::def::{
    Definition, Illegal, MAX_ORIENTATIONS, MAX_PIECES, MoveDef, Orbit, OrbitState, Pending, State,
    Transform, permutation_problem,
};
use hashbrown::{HashMap, HashSet};
use statespace::error::{Error, Location, Result};
use statespace::setup::{Setup, heap, listed};
use std::path::Path;

/// Reads and parses the `.tws` file at `path` within `setup`; errors name the path as given.
pub fn read(path: &Path, setup: &mut Setup) -> Result<Definition> {
    let text = setup.read(path)?;
    parse(&text, &path.display().to_string(), setup)
}

/// Parses `.tws` text within `setup` (see the module docs); `file` names it in errors.
pub fn parse(text: &str, file: &str, setup: &mut Setup) -> Result<Definition> {
    Parser {
        file,
        lines: Box::new(lines(statespace::error::without_bom(text))),
        last: 0,
        sets: HashMap::new(),
        setup,
    }
    .definition()
}

/// The keywords of twsearch's position blocks in a scramble file, and whether each numbers
/// its pieces from 0 (`readposition`'s `new_style`): `Scramble` from 1, as `Solved` does.
pub const POSITION_KEYWORDS: [(&str, bool); 3] = [
    ("Scramble", false),
    ("ScrambleState", true),
    ("StartState", true),
];

/// Whether `text` is a twsearch position block: its first word (comments aside) is one of
/// [`POSITION_KEYWORDS`].
pub fn is_position(text: &str) -> bool {
    let first = lines(text).next().map(|(_, toks)| toks[0]);
    POSITION_KEYWORDS.iter().any(|&(k, _)| Some(k) == first)
}

/// A twsearch position block (`Scramble NAME`, its sets' labels and twists as in `Solved`,
/// `End`) as a state of `def`, as twsearch's `readposition` reads a scramble file's: labels
/// are the solved state's (look-alike pieces repeat a label), a set left out is as solved,
/// and the pieces must be the solved state's. `first_line`: the header's line in `file`.
pub fn parse_position(
    def: &Definition,
    text: &str,
    file: &str,
    first_line: usize,
    setup: &mut Setup,
) -> Result<State> {
    let shifted = lines(text).map(move |(n, toks)| (n + first_line - 1, toks));
    let mut parser = Parser {
        file,
        lines: Box::new(shifted),
        last: first_line,
        sets: def
            .orbits
            .iter()
            .enumerate()
            .map(|(i, o)| (o.name.as_str(), i))
            .collect(),
        setup,
    };
    let Some((n, toks)) = parser.next_line()? else {
        return Err(parser.err(first_line, "empty position"));
    };
    let zero_based = POSITION_KEYWORDS
        .iter()
        .find(|&&(k, _)| k == toks[0])
        .map(|&(_, zero)| zero)
        .ok_or_else(|| {
            parser.err(
                n,
                format!("expected a position block, found \"{}\"", toks[0]),
            )
        })?;
    let what = format!("{} {}", toks[0], toks[1..].join(" "));
    let (t, given) = parser.block(
        &def.orbits,
        n,
        what.trim_end(),
        Block::Solved { zero_based },
        None,
    )?;
    if let Some((n, _)) = parser.next_line()? {
        return Err(parser.err(n, format!("{}: text after its End", what.trim_end())));
    }
    let state = State {
        orbits: t
            .orbits
            .into_iter()
            .zip(given)
            .zip(&def.solved.orbits)
            .map(|((o, given), solved)| match given {
                true => OrbitState {
                    pieces: o.perm,
                    orientation: o.delta,
                },
                false => solved.clone(),
            })
            .collect(),
    };
    def.same_pieces(&state)
        .map_err(|wrong| parser.err(n, format!("{}: {wrong}", what.trim_end())))?;
    Ok(state)
}

/// A `?` of a solved orientation line while its block is read.
const WILD: usize = usize::MAX;

/// The non-empty lines as (1-based line number, tokens), comments removed, one at a time.
fn lines(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let line = line.split('#').next().unwrap_or("");
        let toks: Vec<&str> = line.split_whitespace().collect();
        (!toks.is_empty()).then_some((i + 1, toks))
    })
}

struct Parser<'a, 's> {
    file: &'a str,
    lines: Box<dyn Iterator<Item = (usize, Vec<&'a str>)> + 'a>,
    /// The number of the last line read (where a file that ends too soon is reported).
    last: usize,
    /// The sets by name: their orbits' indices.
    sets: HashMap<&'a str, usize>,
    setup: &'s mut Setup,
}

/// Which kind of block is being read: it fixes the numbering and the orientation convention.
#[derive(Clone, Copy, PartialEq)]
enum Block {
    Solved { zero_based: bool },
    Move { by_slot: bool },
}

impl<'a> Parser<'a, '_> {
    fn err(&self, line: usize, msg: impl Into<String>) -> Error {
        Error::input(self.place(line), msg)
    }

    fn place(&self, line: usize) -> Location {
        Location::file(self.file).at_line(line)
    }

    /// The next non-empty line, one step of the setup.
    fn next_line(&mut self) -> Result<Option<(usize, Vec<&'a str>)>> {
        let line = self.lines.next();
        if let Some((n, _)) = line {
            self.last = n;
        }
        let (file, n) = (self.file, self.last.max(1));
        self.setup.step(|| Location::file(file).at_line(n))?;
        Ok(line)
    }

    /// Charges `bytes` that the line `n` is about to allocate.
    fn charge(&mut self, bytes: u128, n: usize) -> Result<()> {
        let file = self.file;
        self.setup.charge(bytes, || Location::file(file).at_line(n))
    }

    fn definition(mut self) -> Result<Definition> {
        let mut def = Definition {
            name: String::new(),
            orbits: Vec::new(),
            solved: State { orbits: Vec::new() },
            moves: Vec::new(),
            illegal: Vec::new(),
            wild: Vec::new(),
        };
        let mut seen_solved = false;
        let mut sequences = Vec::new();
        let mut move_names: HashSet<&str> = HashSet::new();
        while let Some((n, toks)) = self.next_line()? {
            match toks[0] {
                "Name" => {
                    if !def.name.is_empty() || !def.orbits.is_empty() || seen_solved {
                        return Err(self.err(n, "Name must come first, once"));
                    }
                    if toks.len() < 2 {
                        return Err(self.err(n, "Name: missing the name"));
                    }
                    def.name = toks[1..].join(" ");
                }
                "Set" => {
                    if seen_solved {
                        return Err(self.err(n, "Set must come before Solved"));
                    }
                    if toks.len() != 4 {
                        return Err(self.err(
                            n,
                            "Set takes a name, a piece count and an orientation count",
                        ));
                    }
                    let pieces = self.number(n, toks[2], "piece count")?;
                    let orientations = self.number(n, toks[3], "orientation count")?;
                    if !(1..=MAX_PIECES).contains(&pieces) {
                        return Err(self.err(
                            n,
                            format!("set {}: {pieces} pieces, expected 1..{MAX_PIECES}", toks[1]),
                        ));
                    }
                    if !(1..=MAX_ORIENTATIONS as usize).contains(&orientations) {
                        return Err(self.err(
                            n,
                            format!("set {}: {orientations} orientations, expected 1..{MAX_ORIENTATIONS}", toks[1]),
                        ));
                    }
                    if self.sets.insert(toks[1], def.orbits.len()).is_some() {
                        return Err(self.err(n, format!("set {} is defined twice", toks[1])));
                    }
                    self.charge(heap(toks[1].len()) + listed::<Orbit>(), n)?;
                    def.orbits.push(Orbit {
                        name: toks[1].to_string(),
                        pieces,
                        orientations: orientations as u8,
                    });
                }
                "Solved" | "StartState" => {
                    if seen_solved {
                        return Err(
                            self.err(n, format!("{}: the solved state is given twice", toks[0]))
                        );
                    }
                    if def.orbits.is_empty() {
                        return Err(self.err(n, format!("{} before any Set", toks[0])));
                    }
                    self.expect(n, &toks, 1)?;
                    self.charge(Transform::bytes(&def.orbits), n)?;
                    let mut wild = vec![Vec::new(); def.orbits.len()];
                    let (t, _) = self.block(
                        &def.orbits,
                        n,
                        "solved",
                        Block::Solved {
                            zero_based: toks[0] == "StartState",
                        },
                        Some(&mut wild),
                    )?;
                    def.solved = State {
                        orbits: t
                            .orbits
                            .into_iter()
                            .map(|o| OrbitState {
                                pieces: o.perm,
                                orientation: o.delta,
                            })
                            .collect(),
                    };
                    def.wild = wild;
                    seen_solved = true;
                }
                "Move" | "MoveTransformation" => {
                    if !seen_solved {
                        return Err(self.err(n, format!("{} before Solved", toks[0])));
                    }
                    self.expect(n, &toks, 2)?;
                    let name = toks[1];
                    if !move_names.insert(name) {
                        return Err(self.err(n, format!("move {name} is defined twice")));
                    }
                    let what = format!("move {name}");
                    self.charge(MoveDef::bytes(&def.orbits, name), n)?;
                    let (transform, _) = self.block(
                        &def.orbits,
                        n,
                        &what,
                        Block::Move {
                            by_slot: toks[0] == "MoveTransformation",
                        },
                        None,
                    )?;
                    def.moves.push(MoveDef {
                        name: name.to_string(),
                        transform,
                        derived: false,
                    });
                }
                "MoveSequence" | "MoveAlias" => {
                    if !seen_solved {
                        return Err(self.err(n, format!("{} before Solved", toks[0])));
                    }
                    if toks.len() < 3 {
                        return Err(
                            self.err(n, format!("{} takes a name and a move sequence", toks[0]))
                        );
                    }
                    let at = self.place(n).with_key(format!("move sequence {}", toks[1]));
                    let text = toks[2..].join(" ");
                    let key = at.key.as_ref().map_or(0, String::len);
                    let strings = heap(text.len()) + heap(toks[1].len()) + heap(key);
                    let bytes = strings + heap(self.file.len()) + listed::<Pending>();
                    self.charge(bytes, n)?;
                    sequences.push((toks[1].to_string(), text, toks[0] == "MoveAlias", at));
                }
                "Illegal" => {
                    if !seen_solved {
                        return Err(self.err(n, "Illegal before Solved"));
                    }
                    if toks.len() < 4 {
                        return Err(self.err(n, "Illegal takes a set, a slot and piece labels"));
                    }
                    let orbit = self.sets.get(toks[1]).copied().ok_or_else(|| {
                        self.err(n, format!("Illegal: unknown set \"{}\"", toks[1]))
                    })?;
                    let size = def.orbits[orbit].pieces;
                    let slot = self.number(n, toks[2], "slot")?;
                    if !(1..=size).contains(&slot) {
                        return Err(
                            self.err(n, format!("Illegal: slot {slot} is out of range 1..{size}"))
                        );
                    }
                    self.charge(heap(toks.len() - 3) + listed::<Illegal>(), n)?;
                    let mut pieces = Vec::new();
                    for t in &toks[3..] {
                        let v = self.number(n, t, "piece label")?;
                        if !(1..=usize::from(u8::MAX)).contains(&v) {
                            return Err(self.err(
                                n,
                                format!("Illegal: piece label {v} is out of range 1..255"),
                            ));
                        }
                        pieces.push((v - 1) as u8);
                    }
                    def.illegal.push(Illegal {
                        orbit,
                        slot: slot - 1,
                        pieces,
                    });
                }
                "End" => return Err(self.err(n, "End outside a block")),
                other => return Err(self.err(n, format!("unknown keyword \"{other}\""))),
            }
        }
        let end = self.last.max(1);
        if def.orbits.is_empty() {
            return Err(self.err(end, "no Set lines"));
        }
        if !seen_solved {
            return Err(self.err(end, "no Solved block"));
        }
        if def.moves.is_empty() {
            return Err(self.err(end, "no Move blocks"));
        }
        if def.name.is_empty() {
            // twsearch's default when the Name line is missing.
            def.name = "Unnamed".into();
        }
        def.add_sequences(sequences, self.setup)?;
        Ok(def)
    }

    fn expect(&self, n: usize, toks: &[&str], count: usize) -> Result<()> {
        if toks.len() == count {
            Ok(())
        } else {
            Err(self.err(
                n,
                format!(
                    "{}: expected {} tokens, found {}",
                    toks[0],
                    count,
                    toks.len()
                ),
            ))
        }
    }

    fn number(&self, n: usize, tok: &str, what: &str) -> Result<usize> {
        if tok == "?" {
            return Err(self.err(
                n,
                "? (twsearch's wildcard) is only read in the Solved block's orientation lines \
                 (a twist left unknown)",
            ));
        }
        match tok.parse::<usize>() {
            Ok(v) if tok.bytes().all(|b| b.is_ascii_digit()) => Ok(v),
            _ => Err(self.err(n, format!("\"{tok}\" is not a {what}"))),
        }
    }

    /// Reads a block up to `End`. Returns its numbers as a transform (for the solved state,
    /// `perm` holds the labels and `delta` the orientations), 0-based and by slot, and which
    /// sets it named.
    fn block(
        &mut self,
        orbits: &[Orbit],
        start: usize,
        what: &str,
        kind: Block,
        mut wild: Option<&mut Vec<Vec<u8>>>,
    ) -> Result<(Transform, Vec<bool>)> {
        let mut t = Transform::identity(orbits);
        let mut given = vec![false; orbits.len()];
        // (orbit, numeric lines read so far, line of the set name)
        let mut current: Option<(usize, usize, usize)> = None;
        loop {
            let Some((n, toks)) = self.next_line()? else {
                return Err(self.err(start, format!("{what}: no End")));
            };
            let numeric =
                toks[0].bytes().next().is_some_and(|b| b.is_ascii_digit()) || toks[0] == "?";
            if toks[0] == "End" || !numeric {
                if let Some((o, 0, line)) = current {
                    return Err(self.err(
                        line,
                        format!("{what}: set {} has no numbers", orbits[o].name),
                    ));
                }
                if toks[0] == "End" {
                    self.expect(n, &toks, 1)?;
                    break;
                }
                self.expect(n, &toks, 1).map_err(|_| {
                    self.err(
                        n,
                        format!("{what}: \"{}\" is neither a set name nor numbers", toks[0]),
                    )
                })?;
                let o =
                    self.sets.get(toks[0]).copied().ok_or_else(|| {
                        self.err(n, format!("{what}: unknown set \"{}\"", toks[0]))
                    })?;
                if given[o] {
                    return Err(self.err(n, format!("{what}: set {} is given twice", toks[0])));
                }
                given[o] = true;
                current = Some((o, 0, n));
                continue;
            }
            let Some((o, lines_read, line)) = current else {
                return Err(self.err(n, format!("{what}: numbers before a set name")));
            };
            let orbit = &orbits[o];
            if lines_read == 2 {
                return Err(self.err(
                    n,
                    format!("{what}: a third line of numbers for set {}", orbit.name),
                ));
            }
            if toks.len() != orbit.pieces {
                return Err(self.err(
                    n,
                    format!(
                        "{what}: expected {} numbers for set {}, found {}",
                        orbit.pieces,
                        orbit.name,
                        toks.len()
                    ),
                ));
            }
            if lines_read == 0 && toks.contains(&"?") && matches!(kind, Block::Solved { .. }) {
                return Err(self.err(
                    n,
                    format!(
                        "{what}: ? in a piece line (a piece left unknown) is not supported; \
                         only twists may be left unknown"
                    ),
                ));
            }
            // `?` in the solved state's orientation line: a twist left unknown (module docs).
            let wild_line = lines_read == 1 && wild.is_some();
            let values = toks
                .iter()
                .map(|&t| match t {
                    "?" if wild_line => Ok(WILD),
                    t => self.number(n, t, "number"),
                })
                .collect::<Result<Vec<usize>>>()?;
            if lines_read == 0 {
                t.orbits[o].perm = self.first_line(n, what, &values, kind)?;
            } else {
                if let Some(wild) = wild.as_deref_mut() {
                    let labels = &t.orbits[o].perm;
                    let twists = orbit.orientations > 1;
                    wild[o] = self.wild_labels(n, what, orbit, labels, &values, twists)?;
                }
                let known = values.iter().filter(|&&v| v != WILD);
                if let Some(&v) = known.clone().find(|&&v| v >= orbit.orientations as usize) {
                    return Err(self.err(
                        n,
                        format!(
                            "{what}: orientation {v} is out of range 0..{}",
                            orbit.orientations - 1
                        ),
                    ));
                }
                t.orbits[o].delta = values
                    .iter()
                    .map(|&v| if v == WILD { 0 } else { v as u8 })
                    .collect();
            }
            current = Some((o, lines_read + 1, line));
        }
        if let Block::Move { by_slot: false } = kind {
            // ksolve attaches the twist to the piece's starting slot; the model to the slot
            // it lands in (module docs).
            for o in &mut t.orbits {
                o.delta = o.perm.iter().map(|&p| o.delta[p as usize]).collect();
            }
        }
        Ok((t, given))
    }

    /// The labels of a solved orientation line's `?`s (`values`: [`WILD`] there), sorted; none
    /// for an orbit whose pieces never turn (`twists` false: their twist is always 0). Look-alike
    /// pieces (one label in several slots) must agree on being wild.
    fn wild_labels(
        &self,
        n: usize,
        what: &str,
        orbit: &Orbit,
        labels: &[u8],
        values: &[usize],
        twists: bool,
    ) -> Result<Vec<u8>> {
        let mut state = [None::<bool>; 256];
        for (&label, &v) in labels.iter().zip(values) {
            let is = v == WILD;
            match state[usize::from(label)].replace(is) {
                Some(was) if was != is => {
                    return Err(self.err(
                        n,
                        format!(
                            "{what}: piece {} of set {} is in several slots, its twist left \
                             unknown (?) in some and not in others",
                            u32::from(label) + 1,
                            orbit.name
                        ),
                    ));
                }
                _ => {}
            }
        }
        let wild = (0..=u8::MAX).filter(|&l| state[usize::from(l)] == Some(true));
        Ok(if twists { wild.collect() } else { Vec::new() })
    }

    /// The first numeric line of a set: labels (solved) or a permutation (moves), 0-based.
    fn first_line(&self, n: usize, what: &str, values: &[usize], kind: Block) -> Result<Vec<u8>> {
        let base = match kind {
            Block::Solved { zero_based }
            | Block::Move {
                by_slot: zero_based,
            } => usize::from(!zero_based),
        };
        if let Some(&v) = values.iter().find(|&&v| v < base) {
            return Err(self.err(
                n,
                format!("{what}: {v} is out of range (numbers start at {base})"),
            ));
        }
        let values: Vec<usize> = values.iter().map(|&v| v - base).collect();
        match kind {
            Block::Solved { .. } => {
                if let Some(&v) = values.iter().find(|&&v| v >= usize::from(u8::MAX)) {
                    return Err(
                        self.err(n, format!("{what}: piece label {} is too large", v + base))
                    );
                }
            }
            Block::Move { .. } => {
                if let Some(p) = permutation_problem(&values, base) {
                    return Err(self.err(n, format!("{what}: {p}")));
                }
            }
        }
        Ok(values.iter().map(|&v| v as u8).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(name: &str) -> Definition {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../configs/defs")
            .join(name);
        read(&path, &mut Setup::default()).unwrap()
    }

    fn position(def: &Definition, text: &str) -> Result<State> {
        parse_position(def, text, "p.scr", 10, &mut Setup::default())
    }

    /// A block reads as the state its moves reach: `Scramble` 1-based (the labels of `Solved`),
    /// `ScrambleState` 0-based, a set left out as solved; the pieces must be the solved state's.
    #[test]
    fn position_blocks_read_as_twsearch_reads_them() {
        let def = own("3x3x3.tws");
        let at = |_| Location::file("s");
        let moved = |moves: &str| {
            let t = def
                .scramble_transform(moves, &at, &mut Setup::default())
                .unwrap();
            def.solved.apply(&t, &def.orbits)
        };
        let state = moved("U");
        let one = |o: &OrbitState| {
            o.pieces
                .iter()
                .map(|p| (p + 1).to_string())
                .collect::<Vec<_>>()
        };
        let row = |v: &[u8]| v.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
        let (corners, edges) = (&state.orbits[0], &state.orbits[1]);
        let text = format!(
            "Scramble U\nCORNERS\n{}\n{}\nEDGES # a comment\n{}\n{}\nEnd\n",
            one(corners).join(" "),
            row(&corners.orientation),
            one(edges).join(" "),
            row(&edges.orientation)
        );
        assert_eq!(position(&def, &text).unwrap(), state);
        let zero = format!(
            "ScrambleState U\nEDGES\n{}\nCORNERS\n{}\n{}\nEnd",
            row(&edges.pieces),
            row(&corners.pieces),
            row(&corners.orientation)
        );
        assert_eq!(position(&def, &zero).unwrap(), state);
        // Corners only (twsearch's cornertwist2.scr leaves its edges out): edges as solved.
        let solved_edges = "Scramble T\nCORNERS\n1 2 3 4 5 6 7 8\n1 2 0 0 0 0 0 0\nEnd";
        let twisted = position(&def, solved_edges).unwrap();
        assert_eq!(twisted.orbits[1], def.solved.orbits[1]);
        assert_eq!(twisted.orbits[0].orientation[..2], [1, 2]);
        assert!(is_position("# a name\nScramble X\nEnd") && !is_position("CORNERS 0 1"));
        // Errors: one line each, at the file's line.
        for (text, message) in [
            (
                "Scramble X\nCORNERS\n1 1 3 4 5 6 7 8\nEnd",
                "p.scr:10: Scramble X: ",
            ),
            (
                "Scramble X\nWHEELS\n1 2\nEnd",
                "p.scr:11: Scramble X: unknown set \"WHEELS\"",
            ),
            (
                "Scramble X\nCORNERS\n1 2 3\nEnd",
                "p.scr:12: Scramble X: expected 8 numbers",
            ),
            (
                "Scramble X\nCORNERS\n1 2 3 4 5 6 7 8",
                "p.scr:10: Scramble X: no End",
            ),
            (
                "Scramble X\nEnd\nR U",
                "p.scr:12: Scramble X: text after its End",
            ),
        ] {
            let error = position(&def, text).unwrap_err().to_string();
            assert!(error.starts_with(message), "{error}");
        }
    }
}
