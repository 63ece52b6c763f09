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

/// `example` with `[goal] kind = "nonesuch"` (its own goal's kind replaced, or a section
/// added), and the line of that kind.
fn with_unknown_goal(example: &str) -> (String, usize) {
    let text = match example.find("[goal]\nkind = \"") {
        Some(at) => {
            let value = at + "[goal]\nkind = \"".len();
            let end = value + example[value..].find('"').unwrap();
            format!("{}nonesuch{}", &example[..value], &example[end..])
        }
        None => format!("{example}\n[goal]\nkind = \"nonesuch\"\n"),
    };
    let line = text
        .lines()
        .position(|l| l == "kind = \"nonesuch\"")
        .unwrap()
        + 1;
    (text, line)
}

#[test]
fn every_plugin_s_unknown_goal_kind_is_the_registry_s_one_line() {
    // Each plugin's example with a goal no plugin declares: the registry refuses it at its line,
    // naming the plugin and the kinds it declares (the plugins write no such message).
    let registry = crate::registry();
    for plugin in registry.plugins() {
        let info = plugin.info();
        let (text, line) = with_unknown_goal(info.example);
        let config = Config::parse("c.toml", &text).unwrap();
        let (at, message) = input(registry.build(&config, &Limits::default()).map(|_| ()));
        let known: Vec<_> = info.goals.iter().map(|(name, _)| *name).collect();
        assert_eq!(
            (at.file_name(), at.line, at.key.as_deref()),
            (Some("c.toml"), Some(line), Some("goal.kind")),
            "{}",
            info.kind
        );
        let expected = format!(
            "unknown {} goal `nonesuch` (known: {})",
            info.kind,
            known.join(", ")
        );
        assert_eq!(message, expected);
    }
    // Two of them as a user reads them: a goal of their own section (blocks), one added (flip).
    for (kind, known) in [
        ("flip", "uniform, all-white, all-black, pattern"),
        ("blocks", "place, pattern"),
    ] {
        let (text, line) = with_unknown_goal(registry.find(kind).unwrap().info().example);
        let config = Config::parse("c.toml", &text).unwrap();
        let error = registry.build(&config, &Limits::default()).map(|_| ());
        assert_eq!(
            error.unwrap_err().to_string(),
            format!("c.toml:{line}: goal.kind: unknown {kind} goal `nonesuch` (known: {known})")
        );
    }
}
