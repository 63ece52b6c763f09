//! A result as its front ends give it: the text, the JSON object and the SVG picture of a
//! [`Solution`](statespace::instance::Solution) ([`solution`]) and of an
//! [`Exploration`](statespace::instance::Exploration) ([`exploration`]).
//!
//! The command line (`statespace-cli`: `solve`, `explore`) and the Python package
//! (`statespace-python`: its `Solution` and `Exploration` records) both depend on this crate and
//! not on each other, so the two front ends give the same answer in the same fields and draw the
//! same pictures, and neither carries the other's dependencies (clap for Python, PyO3 for the
//! command line). The core library knows the results' fields; how they are laid out for a
//! reader is here, one file per result, beside the core rather than in it.
//!
//! Floors: [`solution`] and [`exploration`] are apart; neither imports the other.

#![deny(missing_docs)]

pub mod exploration;
pub mod solution;
