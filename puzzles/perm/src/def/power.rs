//! The search moves: the powers of a definition's generators ([`Power`]), how they are named,
//! and which of them a [`Metric`] keeps.
//!
//! A definition lists generators ([`MoveDef`](super::MoveDef)). Searches use their powers,
//! named as twsearch names them (`expandonemove` in its `readksolve.cpp`): for a generator `X` of
//! order `k`, the power `X^t` for `t` in `1..k` is reduced to the signed twist `t` or `t - k`,
//! whichever is smaller in absolute value (`t` on a tie), and named `X` for `+1`, `Xt` for `+t`,
//! `X'` for `-1` and `Xt'` for `-t`. Its cost is the absolute twist. So order 2 gives `X`; order
//! 3: `X`, `X'`; order 4: `X`, `X2`, `X'`; order 5: `X`, `X2`, `X2'`, `X'`; order 6: `X`, `X2`,
//! `X3`, `X2'`, `X'`.
//!
//! [`Metric::Htm`] searches every power at cost 1; [`Metric::Qtm`] keeps only the powers of cost 1
//! (`X` and `X'`). (twsearch's quarter-turn mode instead keeps `X2` at cost 2; a search here that
//! counts every edge as 1 cannot weigh edges, so dropping them is the honest choice.)

use super::model::{Definition, Transform};
use statespace::error::{Error, Location, Result};
use statespace::setup::{Setup, heap, listed};
use std::fmt;
use std::str::FromStr;

/// The highest generator order [`Definition::generators`] expands into powers (a generator of
/// order 1000 would already give 999 moves).
pub const MAX_EXPANDED_ORDER: u128 = 1000;
/// The most moves (powers of generators) a search takes: 65,535, numbered with a `u16`.
pub const MAX_MOVES: usize = u16::MAX as usize;

/// What a search counts as one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Half-turn metric: every power of a generator (`X`, `X2`, `X'`) is one move.
    Htm,
    /// Quarter-turn metric: only the powers of cost 1 (`X` and `X'`).
    Qtm,
}

/// A metric name that is neither `htm` nor `qtm` (the name as written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownMetric(pub String);

impl fmt::Display for UnknownMetric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown metric \"{}\" (expected htm or qtm)", self.0)
    }
}

impl std::error::Error for UnknownMetric {}

impl FromStr for Metric {
    type Err = UnknownMetric;

    fn from_str(s: &str) -> std::result::Result<Self, UnknownMetric> {
        match s {
            "htm" => Ok(Metric::Htm),
            "qtm" => Ok(Metric::Qtm),
            other => Err(UnknownMetric(other.to_string())),
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

impl Definition {
    /// The search moves: the powers of the chosen generators, in generator order and by
    /// exponent. `names` restricts the generators (`moves = ["U", "F", "R"]`; an unknown or
    /// repeated name is an error at `at`, a rotation named there is searched like any move);
    /// without it every move is a generator but the [`derived`](super::MoveDef::derived) ones
    /// and the [rotations](super::MoveDef::is_rotation). Generators that do nothing are skipped; an order over
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
                .filter(|&i| !self.moves[i].derived && !self.moves[i].is_rotation())
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
}
