//! What the unit tests of several modules share: the 3x3x3 with its rotations, and class
//! patterns on it.

use crate::PermSpace;
use crate::classes::{ClassPart, ClassPattern};
use crate::def::Metric;
use crate::tws;
use statespace::error::Location;
use statespace::limit::Limits;
use statespace::setup::Setup;
use std::path::PathBuf;

/// The 3x3x3 with its rotations (`configs/defs/3x3x3-rotations.tws`), in the half-turn
/// metric.
pub(crate) fn cube() -> PermSpace<64> {
    let limits = Limits::default();
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../configs/defs/3x3x3-rotations.tws");
    let def = tws::read(&path, &mut Setup::new(&limits)).unwrap();
    let powers = def
        .generators(
            None,
            Metric::Htm,
            &Location::file("test"),
            &mut Setup::new(&limits),
        )
        .unwrap();
    PermSpace::new(def, &powers, false, &mut Setup::new(&limits)).unwrap()
}

/// Corners `a` told apart and edges `b` as a set (1-based labels); the classes are 0
/// (corners) and 1 (edges).
pub(crate) fn class_pattern(space: &PermSpace<64>, a: &[u8], b: &[u8]) -> ClassPattern {
    let labels = |l: &[u8]| l.iter().map(|&x| x - 1).collect::<Vec<u8>>();
    ClassPattern::new(
        space,
        &ClassPart::plain(0, labels(a)),
        &ClassPart::plain(1, labels(b)),
        &Limits::default(),
        None,
    )
    .unwrap()
}
