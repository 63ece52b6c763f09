//! Errors at the library's edge are values: a [`Location`] says what it is in (a file, a flag,
//! a command, the registry), and the parsers' errors are types, each displaying the line the CLI
//! prints.

use statespace::config::{Config, DurationError, SizeError, parse_bytes, parse_duration};
use statespace::error::{Error, Location, Place};
use statespace::instance::ExploreOptions;
use statespace::limit::Limits;
use statespace::search::cluster::Cluster;

/// The location and message of an input error; panics on any other error.
fn input(result: Result<impl std::fmt::Debug, Error>) -> (Location, String) {
    match result {
        Err(Error::Input { location, message }) => (location, message),
        other => panic!("not an input error: {other:?}"),
    }
}

#[test]
fn a_location_says_whether_it_is_a_file_a_flag_a_command_or_the_registry() {
    // A kind registered twice: the registry's refusal.
    let (at, message) = input(statespace_builtins::builtins().with(&statespace_flip::FlipPlugin));
    assert_eq!(at.place, Place::Registry);
    assert_eq!(message, "a puzzle kind `flip` is already registered");
    assert_eq!(at.to_string(), "registry");

    // A command the instance does not run: explore on a board too large for it.
    let config = Config::load(&crate::config("flip-10x10.toml")).unwrap();
    let instance = crate::registry()
        .build(&config, &Limits::default())
        .unwrap();
    let explored = instance.explore(None, &ExploreOptions::default(), &mut |_, _| {});
    let (at, _) = input(explored.map(|_| ()));
    assert_eq!(at.place, Place::Command("explore".into()));
    assert_eq!(at.file_name(), None);

    // Flags of a cluster, and the hostfile's lines.
    let (at, _) = input(Cluster::from_hostfile(1, 2, 2, "hosts", "a:1\nb:2\n"));
    assert_eq!(at.place, Place::Flag("--process".into()));
    assert_eq!(at.to_string(), "--process");
    let (at, _) = input(Cluster::from_hostfile(1, 2, 0, "hosts", "a:1\nb\n"));
    assert_eq!(at.place, Place::File("hosts".into()));
    assert_eq!((at.file_name(), at.line), (Some("hosts"), Some(2)));

    // A config's key, in its file.
    let text = "[puzzle]\nkind = \"flip\"\nrows = 0\ncols = 3\n";
    let built =
        crate::registry().build(&Config::parse("c.toml", text).unwrap(), &Limits::default());
    let (at, _) = input(built.map(|_| ()));
    assert_eq!(at.file_name(), Some("c.toml"));
    assert_eq!(at.key.as_deref(), Some("puzzle.rows"));
}

#[test]
fn durations_and_sizes_are_refused_with_typed_errors() {
    assert_eq!(parse_duration("0s"), Err(DurationError::Zero("0s".into())));
    assert_eq!(
        parse_duration("0s").unwrap_err().to_string(),
        "`0s` is zero: give a positive duration"
    );
    let unreadable = parse_duration("3x").unwrap_err();
    assert!(
        matches!(&unreadable, DurationError::Unreadable { text, .. } if text == "3x"),
        "{unreadable:?}"
    );
    assert!(
        unreadable
            .to_string()
            .starts_with("`3x` is not a duration like 30s or 2m (unknown time unit"),
        "{unreadable}"
    );
    assert_eq!(parse_bytes("zz"), Err(SizeError::Unreadable("zz".into())));
    assert_eq!(
        parse_bytes("zz").unwrap_err().to_string(),
        "`zz` is not a size like 4GiB or 512MB"
    );
    assert_eq!(parse_bytes("0"), Err(SizeError::Zero("0".into())));
    if let Some(physical) = statespace::limit::physical_memory() {
        let more = parse_bytes("1000000TiB").unwrap_err();
        assert_eq!(
            more,
            SizeError::MoreThanMemory {
                text: "1000000TiB".into(),
                physical
            }
        );
        assert!(more.to_string().ends_with(" of memory"), "{more}");
    }
}
