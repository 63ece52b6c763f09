//! Every error class with its message (file, line or JSON path), and truncated or garbled input
//! that must give an error, never a panic.

use super::formats::CUBE2_JSON;
use super::*;

fn tws_err(text: &str) -> String {
    tws::parse(text, "t.tws", &mut setup())
        .unwrap_err()
        .to_string()
}

const TINY: &str =
    "Name T\nSet A 3 2\nSolved\nA\n1 2 3\n0 0 0\nEnd\nMove X\nA\n2 3 1\n1 0 1\nEnd\n";

#[test]
fn perm_tws_errors_name_file_line_and_problem() {
    assert!(tws::parse(TINY, "t.tws", &mut setup()).is_ok());
    let lo33 = corpus_text("loopover-3x3").replace("3 1 2 4 5 6 7 8 9", "3 1 3 4 5 6 7 8 9");
    assert_eq!(
        tws::parse(&lo33, "lo33.tws", &mut setup())
            .unwrap_err()
            .to_string(),
        "lo33.tws:13: move r1: 3 is repeated in the permutation"
    );
    assert_eq!(
        tws_err(&TINY.replace("2 3 1\n", "2 3 4\n")),
        "t.tws:10: move X: 4 is out of range 1..3 in the permutation"
    );
    assert_eq!(
        tws_err(&TINY.replace("2 3 1\n", "2 3 0\n")),
        "t.tws:10: move X: 0 is out of range (numbers start at 1)"
    );
    assert_eq!(
        tws_err(&TINY.replace("1 0 1", "1 0 2")),
        "t.tws:11: move X: orientation 2 is out of range 0..1"
    );
    assert_eq!(
        tws_err(&TINY.replace("0 0 0", "0 5 0")),
        "t.tws:6: solved: orientation 5 is out of range 0..1"
    );
    assert_eq!(
        tws_err(&TINY.replace("Move X\nA", "Move X\nB")),
        "t.tws:9: move X: unknown set \"B\""
    );
    assert_eq!(
        tws_err(&TINY.replace("2 3 1", "2 3")),
        "t.tws:10: move X: expected 3 numbers for set A, found 2"
    );
    assert_eq!(
        tws_err(&TINY.replace("2 3 1", "2 x 1")),
        "t.tws:10: \"x\" is not a number"
    );
    assert_eq!(
        tws_err(&format!("{TINY}Rotate X\n")),
        "t.tws:13: unknown keyword \"Rotate\""
    );
    assert_eq!(
        tws_err(&format!("{TINY}MoveSequence Y X Z X'\n")),
        "t.tws:13: move sequence Y: unknown move \"Z\" (token 2 of \"X Z X'\")"
    );
    // Sequences may use moves defined later, and each other, in any order.
    let d = tws::parse(
        &format!("{TINY}MoveSequence Y Z2\nMoveAlias Z X X\n"),
        "t.tws",
        &mut setup(),
    )
    .unwrap();
    assert!(d.moves[d.move_index("Z").unwrap()].derived);
    assert!(!d.moves[d.move_index("Y").unwrap()].derived);
    assert_eq!(
        tws_err(&format!("{TINY}MoveSequence Y Y\n")),
        "t.tws:13: move sequence Y: Y is defined through itself (a cycle of sequences)"
    );
    assert_eq!(
        tws_err(&TINY.replace("A\n1 2 3\n0 0 0\n", "A\n1 2 3\nA\n")),
        "t.tws:6: solved: set A is given twice"
    );
    assert_eq!(
        tws_err(&TINY.replace("0 0 0\nEnd", "0 0 0\nX Y")),
        "t.tws:7: solved: \"X\" is neither a set name nor numbers"
    );
    assert_eq!(
        tws_err(&TINY.replace("Move X\nA\n", "Move X\nA\nEnd\n")),
        "t.tws:9: move X: set A has no numbers"
    );
    assert_eq!(
        tws_err(TINY.trim_end_matches("End\n")),
        "t.tws:8: move X: no End"
    );
    assert_eq!(
        tws_err(&TINY.replace("Set A 3 2", "Set A 3 200")),
        "t.tws:2: set A: 200 orientations, expected 1..127"
    );
    assert_eq!(
        tws_err(&TINY.replace("A\n1 2 3\n0 0 0\n", "A\n1 2 3\n0 0 0\n1 1 1\n")),
        "t.tws:7: solved: a third line of numbers for set A"
    );
    assert_eq!(
        tws_err(&format!("{TINY}Move X\nEnd\n")),
        "t.tws:13: move X is defined twice"
    );
    assert_eq!(tws_err("# nothing\n"), "t.tws:1: no Set lines");
    assert_eq!(
        tws_err(&TINY.replace("2 3 1", "2 ? 1")),
        "t.tws:10: ? (twsearch's wildcard) is only read in the Solved block's orientation lines (a twist left unknown)"
    );
    assert_eq!(
        tws_err(&format!("{TINY}Illegal A 4 1\n")),
        "t.tws:13: Illegal: slot 4 is out of range 1..3"
    );
    // A byte-order mark before the first keyword (as some editors write) is no part of it.
    let with_mark = tws::parse(&format!("\u{feff}{TINY}"), "t.tws", &mut setup()).unwrap();
    assert_eq!(with_mark, tws::parse(TINY, "t.tws", &mut setup()).unwrap());
    assert_eq!(
        tws_err(&format!("\u{feff}\u{feff}{TINY}")),
        "t.tws:1: unknown keyword \"\u{feff}Name\""
    );
    // Comments anywhere, blank lines, CRLF.
    let d = tws::parse(
        &TINY.replace('\n', " # note\r\n\r\n"),
        "t.tws",
        &mut setup(),
    )
    .unwrap();
    assert_eq!(d.moves[0].transform.orbits[0].delta, vec![0, 1, 1]);
    // Io errors name the path.
    let e = tws::read(&defs_dir().join("missing.tws"), &mut setup())
        .unwrap_err()
        .to_string();
    assert!(e.contains("missing.tws"), "{e}");
}

fn kp_err(text: &str) -> String {
    kpuzzle::parse(text, "k.json", &mut setup())
        .unwrap_err()
        .to_string()
}

#[test]
fn perm_kpuzzle_errors_name_the_json_path() {
    let r = r#""R": { "CORNERS": { "permutation": [4, 0, 2, 3, 7, 5, 6, 1]"#;
    assert_eq!(
        kp_err(&CUBE2_JSON.replace(
            r,
            r#""R": { "CORNERS": { "permutation": [4, 0, 2, 2, 7, 5, 6, 1]"#
        )),
        "k.json: moves.R.CORNERS.permutation[3]: 2 is repeated in the permutation"
    );
    assert_eq!(
        kp_err(&CUBE2_JSON.replace(
            r,
            r#""R": { "CORNERS": { "permutation": [4, 0, 2, 3, 8, 5, 6, 1]"#
        )),
        "k.json: moves.R.CORNERS.permutation[4]: 8 is out of range 0..7"
    );
    assert_eq!(
        kp_err(&CUBE2_JSON.replace("[2, 1, 0, 0, 1, 0, 0, 2]", "[2, 1, 0, 0, 3, 0, 0, 2]")),
        "k.json: moves.R.CORNERS.orientationDelta[4]: orientation 3 is out of range 0..2"
    );
    assert_eq!(
        kp_err(&CUBE2_JSON.replace(r#""R": { "CORNERS""#, r#""R": { "CORNER""#)),
        "k.json: moves.R.CORNER: unknown orbit (the orbits are CORNERS)"
    );
    assert_eq!(
        kp_err(&CUBE2_JSON.replace(
            r#""defaultPattern": {
    "CORNERS""#,
            r#""defaultPattern": {
    "EDGES""#
        )),
        "k.json: defaultPattern.EDGES: unknown orbit (the orbits are CORNERS)"
    );
    assert_eq!(
        kp_err(&CUBE2_JSON.replace("R U R' U'", "R U R' Q")),
        "k.json: derivedMoves.sexy: unknown move \"Q\" (token 4 of \"R U R' Q\")"
    );
    assert_eq!(
        kp_err(&CUBE2_JSON.replace(r#""orientation": [0, 0, 0, 0, 0, 0, 0, 0] }"#, r#""orientation": [0, 0, 0, 0, 0, 0, 0, 0], "orientationMod": [0, 0, 1, 0, 0, 0, 0, 0] }"#)),
        "k.json: defaultPattern.CORNERS.orientationMod[2]: orientation mod 1 is not supported (only 0, the default)"
    );
    assert_eq!(
        kp_err(&CUBE2_JSON.replace("\"numPieces\": 8", "\"numPieces\": 7")),
        "k.json: defaultPattern.CORNERS.pieces: expected 7 entries, found 8"
    );
    assert_eq!(
        kp_err(&CUBE2_JSON.replace("\"numPieces\": 8", "\"numPieces\": -8")),
        "k.json: orbits[0].numPieces: expected a non-negative integer, found -8"
    );
    assert!(kp_err("{ \"name\": 1").starts_with("k.json:1: not JSON:"));
    // A move must give every orbit, and only those.
    let two = r#"{"name": "T", "orbits": [{"orbitName": "A", "numPieces": 2, "numOrientations": 1},
      {"orbitName": "B", "numPieces": 1, "numOrientations": 1}],
      "defaultPattern": {"A": {"pieces": [0, 1], "orientation": [0, 0]}, "B": {"pieces": [0], "orientation": [0]}},
      "moves": {"X": {"A": {"permutation": [1, 0], "orientationDelta": [0, 0]}}}}"#;
    assert_eq!(kp_err(two), "k.json: moves.X.B: missing orbit");
    let three = two.replace(r#"[0, 0]}}}}"#, r#"[0, 0]}, "B": {}, "C": {}}}}"#);
    assert_eq!(
        kp_err(&three),
        "k.json: moves.X.C: unknown orbit (the orbits are A, B)"
    );
    // A byte-order mark before the JSON is skipped; anything else there is not JSON.
    let with_mark =
        kpuzzle::parse(&format!("\u{feff}{CUBE2_JSON}"), "k.json", &mut setup()).unwrap();
    assert_eq!(
        with_mark,
        kpuzzle::parse(CUBE2_JSON, "k.json", &mut setup()).unwrap()
    );
    assert!(kp_err(&format!("\u{200b}{CUBE2_JSON}")).starts_with("k.json:1: not JSON:"));
}

#[test]
fn perm_truncated_and_garbled_input_gives_errors_not_panics() {
    let mut rng = Lcg(3);
    for name in CORPUS {
        let text = corpus_text(name);
        // Every prefix at a line boundary, and a sample of byte prefixes.
        for (k, _) in text.match_indices('\n') {
            let _ = tws::parse(&text[..k], name, &mut setup());
        }
        for _ in 0..100 {
            let mut k = rng.below(text.len());
            while !text.is_char_boundary(k) {
                k -= 1;
            }
            let _ = tws::parse(&text[..k], name, &mut setup());
        }
        // Garbled: one token replaced by something else.
        let toks: Vec<&str> = text.split_whitespace().collect();
        let junk = [
            "0", "999", "End", "Move", "Set", "?", "-1", "x", "Solved", "256", "CORNER",
        ];
        for _ in 0..300 {
            let i = rng.below(toks.len());
            let mut t = toks.clone();
            t[i] = junk[rng.below(junk.len())];
            let _ = tws::parse(&t.join("\n"), name, &mut setup());
            let _ = tws::parse(&t.join(" "), name, &mut setup());
        }
    }
    for k in 0..CUBE2_JSON.len() {
        if CUBE2_JSON.is_char_boundary(k) {
            assert!(kpuzzle::parse(&CUBE2_JSON[..k], "k.json", &mut setup()).is_err());
        }
    }
    let digits: Vec<usize> = CUBE2_JSON
        .match_indices(|c: char| c.is_ascii_digit())
        .map(|(i, _)| i)
        .collect();
    for _ in 0..300 {
        let i = digits[rng.below(digits.len())];
        let mut s = CUBE2_JSON.to_string();
        s.replace_range(i..i + 1, ["9", "300", "-1", "\"a\"", "1.5"][rng.below(5)]);
        let _ = kpuzzle::parse(&s, "k.json", &mut setup());
    }
}

#[test]
fn perm_validate_catches_bad_definitions_built_in_code() {
    let mut d = corpus("loopover-3x3");
    d.validate().unwrap();
    d.moves[0].transform.orbits[0].perm[0] = 1;
    assert_eq!(
        d.validate().unwrap_err().to_string(),
        "LoopOver 3x3: moves.r1: TILES: 1 is repeated in the permutation"
    );
    let mut d = corpus("2x2x2");
    d.moves[0].transform.orbits[0].delta[0] = 3;
    assert_eq!(
        d.validate().unwrap_err().to_string(),
        "2x2x2: moves.U: CORNERS: orientation 3 is out of range 0..2"
    );
    // A packer refuses a state type too small.
    assert!(Packer::<8>::new(&corpus("loopover-3x3"), &[]).is_err());
}
