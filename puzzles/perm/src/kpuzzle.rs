//! KPuzzle JSON (cubing.js, Cubing Standard #3) into a [`Definition`].
//!
//! ```json
//! { "name": "2x2x2",
//!   "orbits": [{ "orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3 }],
//!   "defaultPattern": { "CORNERS": { "pieces": [0, 1, 2, 3, 4, 5, 6, 7],
//!                                    "orientation": [0, 0, 0, 0, 0, 0, 0, 0] } },
//!   "moves": { "U": { "CORNERS": { "permutation": [1, 2, 3, 0, 4, 5, 6, 7],
//!                                  "orientationDelta": [0, 0, 0, 0, 0, 0, 0, 0] } } },
//!   "derivedMoves": { "U2x": "U U" } }
//! ```
//!
//! # Convention
//!
//! KPuzzle is 0-based and by slot, the model's own convention: cubing.js's
//! `applyTransformationDataToStateData` (`kpuzzle/combine.ts`) computes
//! `newPieces[i] = old.pieces[perm[i]]` and
//! `newOri[i] = (old.orientation[perm[i]] + orientationDelta[i]) % numOrientations`. So the
//! numbers are taken as they are; only [`tws`](super::tws) converts.
//!
//! # Choices
//!
//! - Strict like the standard (§3.1.3): every move and the default pattern give every orbit,
//!   no unknown orbit; a permutation is a permutation; orientations are in range. Errors name
//!   the JSON path: `moves.R.CORNERS.permutation[3]: 2 is repeated in the permutation`.
//! - `orientationMod` is accepted only when every entry is 0 (the default: fully known); other
//!   values (orientation known modulo a divisor) are refused: the byte search state compares
//!   orientations exactly.
//! - `derivedMoves` are plain move sequences (`"Uw' U"`) in the names of the moves, resolved in
//!   any order; they become [`derived`](super::def::MoveDef::derived) moves. cubing.js's full
//!   alg notation (`[R, U]`, `(R U)2`) is not parsed: such a token is an unknown move.
//! - Moves come in name order (serde_json objects are sorted); other fields
//!   (`experimentalPuzzleDescription`, …) are ignored. A byte-order mark before the JSON is
//!   skipped.
//! - Cost: the text becomes a JSON tree first, charged to the [`Setup`] before it is built
//!   ([`TREE_BYTES_PER_BYTE`] per byte of text), then each move is a step, its transform charged.

use super::def::{
    Definition, MAX_ORIENTATIONS, MAX_PIECES, MoveDef, Orbit, OrbitState, OrbitTransform, State,
    Transform, permutation_problem,
};
use serde_json::{Map, Value};
use statespace::error::{Error, Location, Result};
use statespace::setup::Setup;
use std::path::Path;

/// About the most bytes of JSON tree a byte of text becomes: `0,` (two bytes) is a 32-byte
/// value in an array whose capacity may be twice its length; `"a":0,` (six) is a key, a value
/// and its share of a B-tree node, under 192 bytes.
pub const TREE_BYTES_PER_BYTE: u128 = 32;

/// Reads and parses the KPuzzle JSON file at `path` within `setup`.
pub fn read(path: &Path, setup: &mut Setup) -> Result<Definition> {
    let text = setup.read(path)?;
    parse(&text, &path.display().to_string(), setup)
}

/// Parses KPuzzle JSON text within `setup` (see the module docs); `file` names it in errors.
pub fn parse(text: &str, file: &str, setup: &mut Setup) -> Result<Definition> {
    let text = statespace::error::without_bom(text);
    setup.charge(TREE_BYTES_PER_BYTE * text.len() as u128, || {
        Location::file(file)
    })?;
    let root: Value = serde_json::from_str(text).map_err(|e| {
        Error::input(
            Location::file(file).at_line(e.line().max(1)),
            format!("not JSON: {e}"),
        )
    })?;
    let j = Json { file };
    let root = j.object(&root, "(top)")?;
    let name = match root.get("name") {
        Some(v) => j.string(v, "name")?.to_string(),
        None => return Err(j.err("name", "missing")),
    };
    let orbits_v = j.field(root, "orbits", "")?;
    let Value::Array(list) = orbits_v else {
        return Err(j.err("orbits", "expected an array"));
    };
    if list.is_empty() {
        return Err(j.err("orbits", "no orbits"));
    }
    let mut orbits: Vec<Orbit> = Vec::new();
    let mut names = hashbrown::HashSet::new();
    for (i, o) in list.iter().enumerate() {
        let path = format!("orbits[{i}]");
        let o = j.object(o, &path)?;
        let oname = j.string(
            j.field(o, "orbitName", &path)?,
            &format!("{path}.orbitName"),
        )?;
        let pieces = j.uint(
            j.field(o, "numPieces", &path)?,
            &format!("{path}.numPieces"),
        )?;
        let oris = j.uint(
            j.field(o, "numOrientations", &path)?,
            &format!("{path}.numOrientations"),
        )?;
        if !(1..=MAX_PIECES as u64).contains(&pieces) {
            return Err(j.err(
                &format!("{path}.numPieces"),
                format!("{pieces} is out of range 1..{MAX_PIECES}"),
            ));
        }
        if !(1..=u64::from(MAX_ORIENTATIONS)).contains(&oris) {
            return Err(j.err(
                &format!("{path}.numOrientations"),
                format!("{oris} is out of range 1..{MAX_ORIENTATIONS}"),
            ));
        }
        if !names.insert(oname) {
            return Err(j.err(
                &format!("{path}.orbitName"),
                format!("orbit {oname} is defined twice"),
            ));
        }
        orbits.push(Orbit {
            name: oname.to_string(),
            pieces: pieces as usize,
            orientations: oris as u8,
        });
    }
    let solved = pattern_value(
        &j,
        &orbits,
        j.field(root, "defaultPattern", "")?,
        "defaultPattern",
    )?;
    let moves_v = j.object(j.field(root, "moves", "")?, "moves")?;
    let mut moves = Vec::new();
    for (mname, mv) in moves_v {
        let path = format!("moves.{mname}");
        let at = || Location::file(file).with_key(format!("moves.{mname}"));
        setup.step(at)?;
        setup.charge(MoveDef::bytes(&orbits, mname), at)?;
        let per_orbit = j.orbit_map(&orbits, mv, &path)?;
        let mut t = Transform { orbits: Vec::new() };
        for (o, v) in orbits.iter().zip(per_orbit) {
            let opath = format!("{path}.{}", o.name);
            let v = j.object(v, &opath)?;
            let perm = j.numbers(
                j.field(v, "permutation", &opath)?,
                &format!("{opath}.permutation"),
                o.pieces,
            )?;
            let ppath = format!("{opath}.permutation");
            if let Some(&bad) = perm.iter().find(|&&p| p >= o.pieces as u64) {
                let k = perm.iter().position(|&p| p == bad).unwrap_or(0);
                return Err(j.err(
                    &format!("{ppath}[{k}]"),
                    format!("{bad} is out of range 0..{}", o.pieces - 1),
                ));
            }
            let perm: Vec<usize> = perm.iter().map(|&p| p as usize).collect();
            if let Some(problem) = permutation_problem(&perm, 0) {
                // Point at the second occurrence of the repeated value.
                let k = (0..perm.len())
                    .find(|&k| perm[..k].contains(&perm[k]))
                    .unwrap_or(0);
                return Err(j.err(&format!("{ppath}[{k}]"), problem));
            }
            let dpath = format!("{opath}.orientationDelta");
            let delta = j.numbers(j.field(v, "orientationDelta", &opath)?, &dpath, o.pieces)?;
            let delta = j.below(&delta, o.orientations, &dpath, "orientation")?;
            t.orbits.push(OrbitTransform {
                perm: perm.iter().map(|&p| p as u8).collect(),
                delta,
            });
        }
        moves.push(MoveDef {
            name: mname.clone(),
            transform: t,
            derived: false,
        });
    }
    if moves.is_empty() {
        return Err(j.err("moves", "no moves"));
    }
    let mut def = Definition {
        name,
        orbits,
        solved,
        moves,
        illegal: Vec::new(),
        wild: Vec::new(),
    };
    if let Some(d) = root.get("derivedMoves") {
        let d = j.object(d, "derivedMoves")?;
        let mut pending = Vec::new();
        for (name, alg) in d {
            let path = format!("derivedMoves.{name}");
            let alg = j.string(alg, &path)?;
            pending.push((
                name.clone(),
                alg.to_string(),
                true,
                Location::file(file).with_key(path),
            ));
        }
        def.add_sequences(pending, setup)?;
    }
    Ok(def)
}

/// Parses a KPattern (`{ "CORNERS": { "pieces": [...], "orientation": [...] } }`) of `def`'s
/// puzzle, e.g. a start pattern; `file` names it in errors. Its pieces must be those of the
/// solved state.
pub fn parse_pattern(def: &Definition, text: &str, file: &str) -> Result<State> {
    let v: Value = serde_json::from_str(text).map_err(|e| {
        Error::input(
            Location::file(file).at_line(e.line().max(1)),
            format!("not JSON: {e}"),
        )
    })?;
    let j = Json { file };
    let state = pattern_value(&j, &def.orbits, &v, "pattern")?;
    def.same_pieces(&state)
        .map_err(|wrong| j.err("pattern", wrong.to_string()))?;
    Ok(state)
}

fn pattern_value(j: &Json, orbits: &[Orbit], v: &Value, path: &str) -> Result<State> {
    let per_orbit = j.orbit_map(orbits, v, path)?;
    let mut state = State { orbits: Vec::new() };
    for (o, v) in orbits.iter().zip(per_orbit) {
        let opath = format!("{path}.{}", o.name);
        let v = j.object(v, &opath)?;
        let ppath = format!("{opath}.pieces");
        let pieces = j.numbers(j.field(v, "pieces", &opath)?, &ppath, o.pieces)?;
        let pieces = j.below(&pieces, u8::MAX, &ppath, "piece label")?;
        let rpath = format!("{opath}.orientation");
        let ori = j.numbers(j.field(v, "orientation", &opath)?, &rpath, o.pieces)?;
        let orientation = j.below(&ori, o.orientations, &rpath, "orientation")?;
        if let Some(m) = v.get("orientationMod") {
            let mpath = format!("{opath}.orientationMod");
            let mods = j.numbers(m, &mpath, o.pieces)?;
            if let Some(k) = mods.iter().position(|&m| m != 0) {
                return Err(j.err(
                    &format!("{mpath}[{k}]"),
                    format!(
                        "orientation mod {} is not supported (only 0, the default)",
                        mods[k]
                    ),
                ));
            }
        }
        state.orbits.push(OrbitState {
            pieces,
            orientation,
        });
    }
    Ok(state)
}

/// Path-aware accessors: every error names the file and the JSON path.
struct Json<'a> {
    file: &'a str,
}

impl Json<'_> {
    fn err(&self, path: &str, msg: impl Into<String>) -> Error {
        Error::input(Location::file(self.file).with_key(path), msg)
    }

    fn object<'v>(&self, v: &'v Value, path: &str) -> Result<&'v Map<String, Value>> {
        v.as_object()
            .ok_or_else(|| self.err(path, "expected an object"))
    }

    fn field<'v>(&self, o: &'v Map<String, Value>, key: &str, path: &str) -> Result<&'v Value> {
        let full = if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        };
        o.get(key).ok_or_else(|| self.err(&full, "missing"))
    }

    fn string<'v>(&self, v: &'v Value, path: &str) -> Result<&'v str> {
        v.as_str()
            .ok_or_else(|| self.err(path, "expected a string"))
    }

    fn uint(&self, v: &Value, path: &str) -> Result<u64> {
        v.as_u64()
            .ok_or_else(|| self.err(path, format!("expected a non-negative integer, found {v}")))
    }

    /// An array of exactly `n` non-negative integers.
    fn numbers(&self, v: &Value, path: &str, n: usize) -> Result<Vec<u64>> {
        let Value::Array(a) = v else {
            return Err(self.err(path, "expected an array"));
        };
        if a.len() != n {
            return Err(self.err(path, format!("expected {n} entries, found {}", a.len())));
        }
        a.iter()
            .enumerate()
            .map(|(k, x)| self.uint(x, &format!("{path}[{k}]")))
            .collect()
    }

    fn below(&self, values: &[u64], limit: u8, path: &str, what: &str) -> Result<Vec<u8>> {
        values
            .iter()
            .enumerate()
            .map(|(k, &x)| {
                if x < u64::from(limit) {
                    Ok(x as u8)
                } else {
                    Err(self.err(
                        &format!("{path}[{k}]"),
                        format!("{what} {x} is out of range 0..{}", limit - 1),
                    ))
                }
            })
            .collect()
    }

    /// The per-orbit values of an object keyed by orbit name, in `orbits` order; a missing or
    /// unknown orbit name is an error.
    fn orbit_map<'v>(&self, orbits: &[Orbit], v: &'v Value, path: &str) -> Result<Vec<&'v Value>> {
        let o = self.object(v, path)?;
        let values: Option<Vec<&Value>> = orbits.iter().map(|orb| o.get(&orb.name)).collect();
        match values {
            // Every orbit and nothing else (the orbits' names are distinct): one lookup each.
            Some(values) if values.len() == o.len() => Ok(values),
            _ => {
                let unknown = o.keys().find(|k| !orbits.iter().any(|orb| &orb.name == *k));
                Err(match unknown {
                    Some(k) => {
                        let names: Vec<&str> = orbits.iter().map(|o| o.name.as_str()).collect();
                        self.err(
                            &format!("{path}.{k}"),
                            format!("unknown orbit (the orbits are {})", names.join(", ")),
                        )
                    }
                    None => {
                        let missing = orbits.iter().find(|orb| !o.contains_key(&orb.name));
                        let name = missing.map_or("", |orb| orb.name.as_str());
                        self.err(&format!("{path}.{name}"), "missing orbit")
                    }
                })
            }
        }
    }
}
