//! A state as text: the compact form that configs and reports use for a definition's states,
//! one orbit per line (`CORNER 0 1 2 3 4 5 6 7 / 0 0 0 0 0 0 0 0`), and its parser.

use super::model::{Definition, OrbitState, State};
use statespace::error::{Error, Location, Result, quoted};

impl Definition {
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
                .ok_or_else(|| err(format!("unknown orbit {}", quoted(name))))?;
            if orbits[i].is_some() {
                return Err(err(format!("orbit {name} is given twice")));
            }
            let o = &self.orbits[i];
            let rest: Vec<&str> = toks.collect();
            let (labels, oris) = match rest.iter().position(|&t| t == "/") {
                Some(k) => (&rest[..k], Some(&rest[k + 1..])),
                None => (&rest[..], None),
            };
            // `what`: the number's name, then its plural (`an orientation`, `orientations`).
            let numbers = |toks: &[&str], what: [&str; 2], limit: u8| -> Result<Vec<u8>> {
                let [one, many] = what;
                if toks.len() != o.pieces {
                    return Err(err(format!(
                        "{name}: expected {} {many}, found {}",
                        o.pieces,
                        toks.len()
                    )));
                }
                toks.iter()
                    .map(|t| match t.parse::<u8>() {
                        Ok(v) if v < limit => Ok(v),
                        _ => Err(err(format!(
                            "{name}: {} is not {one} below {limit}",
                            quoted(t)
                        ))),
                    })
                    .collect()
            };
            let pieces = numbers(labels, ["a piece label", "piece labels"], u8::MAX)?;
            let orientation = match oris {
                Some(t) => numbers(t, ["an orientation", "orientations"], o.orientations)?,
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
        self.same_pieces(&state)
            .map_err(|wrong| err(wrong.to_string()))?;
        Ok(state)
    }
}
