//! `statespace new NAME DIR`: a plugin crate that builds and runs as it is written.
//!
//! The crate is a working puzzle (pancake sorting, small and exact) in the shape every plugin
//! takes: `src/space.rs` (the space, its capabilities, its board text, a heuristic),
//! `src/plugin.rs` (the keys, declared once with `keys!`, and the `Plugin` that builds an
//! instance through the kit), `src/main.rs` (the whole command line with the puzzle
//! registered), a sample config and tests against what is known of the puzzle. Its comments
//! say what to change. The templates are `cli/templates/new/`, filled by plain replacement of
//! `{{name}}` (the crate and the puzzle's kind), `{{crate}}` (its name in Rust paths) and
//! `{{root}}` (the statespace clone its dependencies point at).
//!
//! Why path dependencies on the clone: the crates are not published, and a user who runs
//! `statespace new` has the clone this binary was built from (`--statespace DIR` points at
//! another). Why a `[workspace]` table of its own: the crate builds wherever it is, even inside
//! a checkout whose workspace does not list it.
//!
//! Safe by default: a name that is not a crate name, or a folder that exists and is not empty,
//! is refused before anything is written; the files are written into a fresh folder.

use crate::exit::Exit;
use clap::Args;
use statespace::error::{Error, Location};
use std::path::{Path, PathBuf};

/// `statespace new`'s arguments.
#[derive(Args)]
pub struct NewArgs {
    /// The crate's name, which is also the puzzle's kind in configs: lowercase letters, digits,
    /// `-` and `_`, starting with a letter.
    name: String,
    /// The folder to write the crate into: new, or empty.
    dir: PathBuf,
    /// The statespace clone the crate depends on (default: the one this binary was built from).
    #[arg(long, value_name = "DIR")]
    statespace: Option<PathBuf>,
}

/// The files of a new crate: their paths in it and their templates.
const FILES: [(&str, &str); 7] = [
    ("Cargo.toml", include_str!("../templates/new/Cargo.toml.in")),
    ("src/main.rs", include_str!("../templates/new/main.rs.in")),
    ("src/lib.rs", include_str!("../templates/new/lib.rs.in")),
    ("src/space.rs", include_str!("../templates/new/space.rs.in")),
    (
        "src/plugin.rs",
        include_str!("../templates/new/plugin.rs.in"),
    ),
    (
        "configs/{{name}}.toml",
        include_str!("../templates/new/config.toml.in"),
    ),
    (
        "tests/solve.rs",
        include_str!("../templates/new/test.rs.in"),
    ),
];

pub fn run(args: NewArgs) -> Result<Exit, Error> {
    let name = &args.name;
    let valid = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.len() <= 64
        && (name.chars()).all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_".contains(c));
    if !valid {
        let why = format!(
            "`{name}` is not a crate name: lowercase letters, digits, `-` and `_`, starting with a letter"
        );
        return Err(Error::input(Location::flag("NAME"), why));
    }
    let root = match &args.statespace {
        Some(dir) => dir.clone(),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join(".."),
    };
    let root = root.canonicalize().map_err(|source| Error::Io {
        path: root.display().to_string(),
        source,
    })?;
    if !root.join("Cargo.toml").is_file() || !root.join("cli/Cargo.toml").is_file() {
        let why = format!(
            "{} is not a statespace clone (no Cargo.toml and cli/Cargo.toml): give one with --statespace",
            root.display()
        );
        return Err(Error::input(Location::flag("--statespace"), why));
    }
    let occupied = std::fs::read_dir(&args.dir).is_ok_and(|mut entries| entries.next().is_some());
    if occupied || args.dir.is_file() {
        let why = format!("{} exists and is not an empty folder", args.dir.display());
        return Err(Error::input(Location::flag("DIR"), why));
    }
    let fill = |text: &str| {
        text.replace("{{name}}", name)
            .replace("{{crate}}", &name.replace('-', "_"))
            .replace("{{root}}", &root.display().to_string())
    };
    for (path, template) in FILES {
        let path = args.dir.join(fill(path));
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, fill(template)));
        written.map_err(|source| Error::Io {
            path: path.display().to_string(),
            source,
        })?;
    }
    let dir = args.dir.display();
    crate::stdio::write_stdout(&format!(
        "wrote the crate `{name}` in {dir} (a pancake-sorting puzzle to change into yours)\n\
         next: cd {dir} && cargo run --release -- solve configs/{name}.toml\n"
    ))?;
    Ok(Exit::Ok)
}
