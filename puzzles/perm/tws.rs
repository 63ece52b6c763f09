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
//! # What is not supported
//!
//! `?` (unknown piece or orientation, twsearch's wildcards) is refused with an error rather than
//! half-supported. twsearch's command-line set omissions do not apply. `Illegal` rules are kept in
//! [`Definition::illegal`], enforced by the search space (a move into an illegal state
//! is blocked). Rotations (`x`, `Rv`) are ordinary moves.
//!
//! Every error is one line: `file:line: what` (`lo33.tws:12: move 1H: 3 is repeated in the
//! permutation`). `#` starts a comment anywhere on a line (twsearch: only at its start).

use super::def::{
    Definition, Illegal, MAX_ORIENTATIONS, MAX_PIECES, MoveDef, Orbit, OrbitState, State,
    Transform, permutation_problem,
};
use crate::error::{Error, Location, Result};
use std::path::Path;

/// Reads and parses the `.tws` file at `path`; errors name the path as given.
pub fn read(path: &Path) -> Result<Definition> {
    let text = crate::error::read_text(path)?;
    parse(&text, &path.display().to_string())
}

/// Parses `.tws` text (a leading byte-order mark is skipped); `file` names it in errors.
pub fn parse(text: &str, file: &str) -> Result<Definition> {
    Parser {
        file,
        lines: lines(crate::error::without_bom(text)),
        at: 0,
    }
    .definition()
}

/// The non-empty lines as (1-based line number, tokens), comments removed.
fn lines(text: &str) -> Vec<(usize, Vec<&str>)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let line = line.split('#').next().unwrap_or("");
            let toks: Vec<&str> = line.split_whitespace().collect();
            (!toks.is_empty()).then_some((i + 1, toks))
        })
        .collect()
}

struct Parser<'a> {
    file: &'a str,
    lines: Vec<(usize, Vec<&'a str>)>,
    at: usize,
}

/// Which kind of block is being read: it fixes the numbering and the orientation convention.
#[derive(Clone, Copy, PartialEq)]
enum Block {
    Solved { zero_based: bool },
    Move { by_slot: bool },
}

impl<'a> Parser<'a> {
    fn err(&self, line: usize, msg: impl Into<String>) -> Error {
        Error::input(Location::file(self.file).at_line(line), msg)
    }

    fn definition(mut self) -> Result<Definition> {
        let mut def = Definition {
            name: String::new(),
            orbits: Vec::new(),
            solved: State { orbits: Vec::new() },
            moves: Vec::new(),
            illegal: Vec::new(),
        };
        let mut seen_solved = false;
        let mut sequences = Vec::new();
        let mut move_lines = Vec::new();
        let mut last_line = 0;
        while self.at < self.lines.len() {
            let (n, toks) = self.lines[self.at].clone();
            last_line = n;
            self.at += 1;
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
                    if def.orbit_index(toks[1]).is_some() {
                        return Err(self.err(n, format!("set {} is defined twice", toks[1])));
                    }
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
                    let t = self.block(
                        &def.orbits,
                        n,
                        "solved",
                        Block::Solved {
                            zero_based: toks[0] == "StartState",
                        },
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
                    seen_solved = true;
                }
                "Move" | "MoveTransformation" => {
                    if !seen_solved {
                        return Err(self.err(n, format!("{} before Solved", toks[0])));
                    }
                    self.expect(n, &toks, 2)?;
                    let name = toks[1];
                    if def.move_index(name).is_some() {
                        return Err(self.err(n, format!("move {name} is defined twice")));
                    }
                    let what = format!("move {name}");
                    let transform = self.block(
                        &def.orbits,
                        n,
                        &what,
                        Block::Move {
                            by_slot: toks[0] == "MoveTransformation",
                        },
                    )?;
                    def.moves.push(MoveDef {
                        name: name.to_string(),
                        transform,
                        derived: false,
                    });
                    move_lines.push(n);
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
                    let at = Location::file(self.file)
                        .at_line(n)
                        .with_key(format!("move sequence {}", toks[1]));
                    sequences.push((
                        toks[1].to_string(),
                        toks[2..].join(" "),
                        toks[0] == "MoveAlias",
                        at,
                    ));
                }
                "Illegal" => {
                    if !seen_solved {
                        return Err(self.err(n, "Illegal before Solved"));
                    }
                    if toks.len() < 4 {
                        return Err(self.err(n, "Illegal takes a set, a slot and piece labels"));
                    }
                    let orbit = def.orbit_index(toks[1]).ok_or_else(|| {
                        self.err(n, format!("Illegal: unknown set \"{}\"", toks[1]))
                    })?;
                    let size = def.orbits[orbit].pieces;
                    let slot = self.number(n, toks[2], "slot")?;
                    if !(1..=size).contains(&slot) {
                        return Err(
                            self.err(n, format!("Illegal: slot {slot} is out of range 1..{size}"))
                        );
                    }
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
        if def.orbits.is_empty() {
            return Err(self.err(last_line.max(1), "no Set lines"));
        }
        if !seen_solved {
            return Err(self.err(last_line.max(1), "no Solved block"));
        }
        if def.moves.is_empty() {
            return Err(self.err(last_line.max(1), "no Move blocks"));
        }
        if def.name.is_empty() {
            // twsearch's default when the Name line is missing.
            def.name = "Unnamed".into();
        }
        def.add_sequences(sequences)?;
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
            return Err(self.err(n, "? (an unknown value) is not supported"));
        }
        match tok.parse::<usize>() {
            Ok(v) if tok.bytes().all(|b| b.is_ascii_digit()) => Ok(v),
            _ => Err(self.err(n, format!("\"{tok}\" is not a {what}"))),
        }
    }

    /// Reads a block up to `End`. Returns its numbers as a transform (for the solved state,
    /// `perm` holds the labels and `delta` the orientations), 0-based and by slot.
    fn block(
        &mut self,
        orbits: &[Orbit],
        start: usize,
        what: &str,
        kind: Block,
    ) -> Result<Transform> {
        let mut t = Transform::identity(orbits);
        let mut given = vec![false; orbits.len()];
        // (orbit, numeric lines read so far, line of the set name)
        let mut current: Option<(usize, usize, usize)> = None;
        loop {
            let Some((n, toks)) = self.lines.get(self.at).cloned() else {
                return Err(self.err(start, format!("{what}: no End")));
            };
            self.at += 1;
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
                let o = orbits
                    .iter()
                    .position(|o| o.name == toks[0])
                    .ok_or_else(|| self.err(n, format!("{what}: unknown set \"{}\"", toks[0])))?;
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
            let values = toks
                .iter()
                .map(|t| self.number(n, t, "number"))
                .collect::<Result<Vec<usize>>>()?;
            if lines_read == 0 {
                t.orbits[o].perm = self.first_line(n, what, &values, kind)?;
            } else {
                if let Some(&v) = values.iter().find(|&&v| v >= orbit.orientations as usize) {
                    return Err(self.err(
                        n,
                        format!(
                            "{what}: orientation {v} is out of range 0..{}",
                            orbit.orientations - 1
                        ),
                    ));
                }
                t.orbits[o].delta = values.iter().map(|&v| v as u8).collect();
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
        Ok(t)
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
