//! What the permutation-puzzle benches (`perm`, `perm_sweep`) share: their flags, and the
//! definition and moves they name.

use statespace::setup::Setup;
use statespace_perm::Definition;
use statespace_perm::plugin::read_definition;
use std::path::{Path, PathBuf};

/// The value after flag `name`, if it is given.
pub fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// `--def FILE` (default: `default`, relative to the project), read; and `--moves U,F,R`.
pub fn definition(args: &[String], default: &str) -> (PathBuf, Definition, Option<Vec<String>>) {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let path = arg(args, "--def").map_or(root.join(default), PathBuf::from);
    let def = read_definition(&path, &mut Setup::default()).unwrap_or_else(|e| panic!("{e}"));
    let moves = arg(args, "--moves").map(|m| m.split(',').map(str::to_string).collect());
    (path, def, moves)
}
