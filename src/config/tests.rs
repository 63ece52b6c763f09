//! The config layer's tests: spans, errors at file:line:key, plugin sections, modes.

use super::*;

#[test]
fn an_unsupported_mode_lists_the_supported_ones_and_the_plugins_reason() {
    let modes = [Mode::BFS, Mode::AUTO];
    assert_eq!(check_mode("bfs", &modes), Ok(Mode::BFS));
    let mut err = check_mode("table", &modes).unwrap_err();
    assert_eq!(
        (err.asked.as_str(), &err.supported[..]),
        ("table", &modes[..])
    );
    assert_eq!(
        err.to_string(),
        "search mode `table` is not supported by this puzzle (supported: bfs, auto)"
    );
    err.note = Some("for a 9 x 9 board".into());
    assert_eq!(
        err.to_string(),
        "search mode `table` is not available for a 9 x 9 board (supported: bfs, auto)"
    );
}

#[test]
fn type_errors_name_line_and_key() {
    let text = "[puzzle]\nkind = \"flip\"\n[search]\nmax_depth = \"four\"\n";
    let err = Config::parse("x.toml", text).unwrap_err().to_string();
    assert!(
        err.starts_with("x.toml:4: search.max_depth: invalid type"),
        "{err}"
    );
    let text = "[puzzle]\nkind = \"t\"\nsize = \"four\"\n";
    let config = Config::parse("x.toml", text).unwrap();
    let err = config.sections::<TestKeys, TestGoal>().unwrap_err();
    let err = err.to_string();
    assert!(
        err.starts_with("x.toml:3: puzzle.size: invalid type"),
        "{err}"
    );
}

crate::keys! {
    /// A test plugin's `[puzzle]`.
    #[allow(dead_code)]
    struct TestKeys in [puzzle] {
        /// a size
        size: i64,
    }
}

crate::keys! {
    /// A test plugin's `[goal]`.
    #[allow(dead_code)]
    struct TestGoal in [goal] {
        /// a target
        target: String,
    }
}

#[test]
fn plugin_sections_refuse_unknown_and_misplaced_keys_with_their_line() {
    let sections =
        |text: &str| Config::parse("x.toml", text).and_then(|c| c.sections::<TestKeys, TestGoal>());
    let (keys, goal) = sections("[puzzle]\nkind = \"t\"\nsize = 3\n").unwrap();
    assert_eq!(keys.size.map(|s| s.into_inner()), Some(3));
    assert!(goal.is_none());
    let err = sections("[puzzle]\nkind = \"t\"\ncolour = 3\n").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("x.toml:3: puzzle.colour: unknown field"),
        "{err}"
    );
    let err = sections("[puzzle]\nkind = \"t\"\n[goal]\nkind = \"g\"\nsize = 3\n");
    let err = err.unwrap_err().to_string();
    assert!(
        err.starts_with("x.toml:5: goal.size: unknown field"),
        "{err}"
    );
    assert_eq!(TestKeys::KEYS[0].name, "size");
    assert_eq!(TestKeys::KEYS[0].doc, "a size");
}

#[test]
fn unknown_sections_are_refused_with_their_line() {
    let text = "[puzzle]\nkind = \"flip\"\n[serch]\nmode = \"bfs\"\n";
    let err = Config::parse("x.toml", text).unwrap_err().to_string();
    assert!(err.starts_with("x.toml:3: serch: unknown field"), "{err}");
}

#[test]
fn threads_must_be_positive_and_name_their_line() {
    let config = |n: &str| {
        let text = format!("[puzzle]\nkind = \"flip\"\n[search]\nthreads = {n}\n");
        Config::parse("x.toml", &text).and_then(|c| c.threads())
    };
    assert_eq!(config("2").unwrap(), Some(2));
    let err = config("0").unwrap_err().to_string();
    assert_eq!(
        err,
        "x.toml:4: search.threads: 0 is out of range (allowed: 1 to 1024)"
    );
    assert!(config("\"two\"").is_err());
}

#[test]
fn a_start_gives_a_board_or_a_scramble_not_both_nor_neither() {
    let parse = |start: &str| {
        let text = format!("[puzzle]\nkind = \"t\"\n[start]\n{start}");
        Config::parse("x.toml", &text).map_err(|e| e.to_string())
    };
    let scramble = parse("scramble = \"R U\"\n").unwrap();
    let board = scramble.start_board().unwrap();
    assert!(board.scramble);
    assert_eq!(board.key.as_deref(), Some("start.scramble"));
    assert!(
        !parse("board = \"bw\"\n")
            .unwrap()
            .start_board()
            .unwrap()
            .scramble
    );
    assert_eq!(
        parse("board = \"bw\"\nscramble = \"R\"\n").unwrap_err(),
        "x.toml:5: start.scramble: give a board or a scramble, not both"
    );
    assert_eq!(
        parse("").unwrap_err(),
        "x.toml: start.board: missing (required here)"
    );
}

#[test]
fn board_text_knows_its_first_line() {
    let text = "[puzzle]\nkind = \"flip\"\n[start]\nboard = \"\"\"\nbw\nwb\n\"\"\"\n";
    let config = Config::parse("x.toml", text).unwrap();
    let board = config.start_board().unwrap();
    assert_eq!(board.first_line, 5);
    assert_eq!(
        board.error(2, "bad").to_string(),
        "x.toml:6: start.board: bad"
    );
}

#[test]
fn a_section_written_as_a_value_says_a_section_is_expected() {
    let err = Config::parse("x.toml", "heuristic = \"pdb\"\n[puzzle]\nkind = \"t\"\n");
    let err = err.unwrap_err().to_string();
    assert_eq!(
        err,
        "x.toml:1: heuristic: invalid type: string \"pdb\", expected a section: a table with a `kind`"
    );
}

#[test]
fn explore_from_is_start_or_goals_and_names_its_line() {
    let config = |value: &str| {
        let text = format!("[puzzle]\nkind = \"flip\"\n[search]\nexplore_from = {value}\n");
        Config::parse("x.toml", &text).and_then(|c| c.explore_from())
    };
    assert_eq!(config("\"start\"").unwrap(), Some(ExploreFrom::Start));
    assert_eq!(config("\"goals\"").unwrap(), Some(ExploreFrom::Goals));
    let err = config("\"up\"").unwrap_err().to_string();
    assert_eq!(
        err,
        "x.toml:4: search.explore_from: unknown value `up` (allowed: start, goals)"
    );
    let absent = Config::parse("x.toml", "[puzzle]\nkind = \"flip\"\n").unwrap();
    assert_eq!(absent.explore_from().unwrap(), None);
}

#[test]
fn solutions_are_read_and_zero_is_refused_at_its_line() {
    let config = |n: &str| {
        Config::parse(
            "s.toml",
            &format!("[puzzle]\nkind = \"t\"\n[search]\nsolutions = {n}\n"),
        )
    };
    let default = crate::options::SearchOptions::default();
    let options = config("3").unwrap().options(default.clone()).unwrap();
    assert_eq!((options.solutions, default.solutions), (3, 1));
    // Refused as the file is read, as every declared key is.
    let err = config("0");
    assert_eq!(
        err.unwrap_err().to_string(),
        "s.toml:4: search.solutions: 0 is out of range (allowed: 1 to 4294967296)"
    );
}

#[test]
fn byte_counts_read_in_decimal_and_binary_units() {
    let read = |t: &str| super::byte_count(t);
    assert_eq!(read("1000000"), Some(1_000_000));
    assert_eq!(read("4GiB"), Some(4 << 30));
    assert_eq!(read("4 gib"), Some(4 << 30));
    assert_eq!(read(" 512 MB "), Some(512_000_000));
    assert_eq!(read("64KiB"), Some(65_536));
    assert_eq!(read("1.5 GiB"), Some(3 << 29));
    assert_eq!(read("2k"), Some(2000));
    assert_eq!(read("7 B"), Some(7));
    assert_eq!(read("1000000TiB"), Some(1_000_000 << 40));
    assert_eq!(read("99999999999 PiB"), Some(u64::MAX));
    for bad in ["", "zz", "GiB", "4 GiBs", "1.2.3 MB", "-4GiB", "4 G iB"] {
        assert_eq!(read(bad), None, "{bad:?}");
    }
}
