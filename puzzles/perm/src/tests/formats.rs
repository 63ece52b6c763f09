//! Both formats read alike: ksolve's orientation by slot, the 2x2x2 from `.tws` and KPuzzle
//! against cubing.js's, and the state text's round trip.

use super::*;

#[test]
fn perm_ksolve_orientation_is_converted_to_by_slot() {
    // 2x2x2 F: perm 4 2 3 6 1 5 7 8, file twists 2 0 0 1 1 2 0 0 (by starting slot).
    // Slot 0 receives the piece from slot 3 (1-based 4), whose file twist is f[3] = 1.
    let d = corpus("2x2x2");
    let f = &d.moves[d.move_index("F").unwrap()].transform.orbits[0];
    assert_eq!(f.perm, vec![3, 1, 2, 5, 0, 4, 6, 7]);
    assert_eq!(f.delta, vec![1, 0, 0, 2, 2, 1, 0, 0]);
    // The same move written as MoveTransformation (0-based, by slot) reads the same.
    let text = corpus_text("2x2x2").replace(
        "Move F\nCORNERS\n4 2 3 6 1 5 7 8\n2 0 0 1 1 2 0 0\nEnd",
        "MoveTransformation F\nCORNERS\n3 1 2 5 0 4 6 7\n1 0 0 2 2 1 0 0\nEnd",
    );
    assert!(text.contains("MoveTransformation"));
    let d2 = tws::parse(&text, "2x2x2.tws", &mut setup()).unwrap();
    assert_eq!(d2, d);
    // StartState is the 0-based form of Solved.
    let text = corpus_text("2x2x2").replace(
        "Solved\nCORNERS\n1 2 3 4 5 6 7 8",
        "StartState\nCORNERS\n0 1 2 3 4 5 6 7",
    );
    assert!(text.contains("StartState"));
    assert_eq!(tws::parse(&text, "2x2x2.tws", &mut setup()).unwrap(), d);
}

/// cubing.js's 2x2x2 (corner slots UFR URB UBL ULF DRF DFL DLB DBR), in the KPuzzle format of
/// Cubing Standard #3, with a derived move and a field to ignore.
pub(super) const CUBE2_JSON: &str = r#"{
  "name": "2x2x2",
  "orbits": [{ "orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3 }],
  "defaultPattern": {
    "CORNERS": { "pieces": [0, 1, 2, 3, 4, 5, 6, 7], "orientation": [0, 0, 0, 0, 0, 0, 0, 0] }
  },
  "moves": {
    "U": { "CORNERS": { "permutation": [1, 2, 3, 0, 4, 5, 6, 7], "orientationDelta": [0, 0, 0, 0, 0, 0, 0, 0] } },
    "L": { "CORNERS": { "permutation": [0, 1, 6, 2, 4, 3, 5, 7], "orientationDelta": [0, 0, 2, 1, 0, 2, 1, 0] } },
    "F": { "CORNERS": { "permutation": [3, 1, 2, 5, 0, 4, 6, 7], "orientationDelta": [1, 0, 0, 2, 2, 1, 0, 0] } },
    "R": { "CORNERS": { "permutation": [4, 0, 2, 3, 7, 5, 6, 1], "orientationDelta": [2, 1, 0, 0, 1, 0, 0, 2] } },
    "B": { "CORNERS": { "permutation": [0, 7, 1, 3, 4, 5, 2, 6], "orientationDelta": [0, 2, 1, 0, 0, 0, 2, 1] } },
    "D": { "CORNERS": { "permutation": [0, 1, 2, 3, 5, 6, 7, 4], "orientationDelta": [0, 0, 0, 0, 0, 0, 0, 0] } }
  },
  "derivedMoves": { "sexy": "R U R' U'", "double": "sexy2" },
  "experimentalPuzzleDescription": { "shape": "c", "cuts": [] }
}"#;

/// A fixed relabelling between two 8-corner definitions with the same move names: a slot map
/// `sigma` and an orientation map `y = u * x + c[slot]` (mod 3, `u` from `us`: 1 keeps the twist
/// direction, 2 reverses it) under which every move of `a` is
/// the same-named move of `b`. Returns `(sigma, u, c)`.
fn relabelling(
    a: &Definition,
    b: &Definition,
    names: &[&str],
    us: &[u8],
) -> Option<(Vec<usize>, u8, Vec<u8>)> {
    let get =
        |d: &Definition, m: &str| d.moves[d.move_index(m).unwrap()].transform.orbits[0].clone();
    let pairs: Vec<_> = names.iter().map(|m| (get(a, m), get(b, m))).collect();
    let mut sigma: Vec<usize> = (0..8).collect();
    // Heap's algorithm over all 8! slot maps.
    let mut c = [0usize; 8];
    let mut i = 0;
    let try_sigma = |sigma: &[usize]| -> Option<(Vec<usize>, u8, Vec<u8>)> {
        let perm_ok = pairs.iter().all(|(ta, tb)| {
            (0..8).all(|k| tb.perm[sigma[k]] as usize == sigma[ta.perm[k] as usize])
        });
        if !perm_ok {
            return None;
        }
        for &u in us {
            // kd[sigma(i)] = u * ad[i] + c[i] - c[ap[i]]: propagate c from c[0] = 0.
            let mut cc: Vec<Option<u8>> = vec![None; 8];
            cc[0] = Some(0);
            let mut ok = true;
            for _ in 0..8 {
                for (ta, tb) in &pairs {
                    for k in 0..8 {
                        let src = ta.perm[k] as usize;
                        if let Some(cs) = cc[src] {
                            let want = (tb.delta[sigma[k]] + 6 - (u * ta.delta[k]) % 3 + cs) % 3;
                            match cc[k] {
                                None => cc[k] = Some(want),
                                Some(v) if v != want => ok = false,
                                _ => {}
                            }
                        }
                    }
                }
            }
            if ok && cc.iter().all(|v| v.is_some()) {
                return Some((
                    sigma.to_vec(),
                    u,
                    cc.into_iter().map(|v| v.unwrap()).collect(),
                ));
            }
        }
        None
    };
    if let Some(r) = try_sigma(&sigma) {
        return Some(r);
    }
    while i < 8 {
        if c[i] < i {
            if i % 2 == 0 {
                sigma.swap(0, i);
            } else {
                sigma.swap(c[i], i);
            }
            if let Some(r) = try_sigma(&sigma) {
                return Some(r);
            }
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    None
}

#[test]
fn perm_both_formats_read_the_same_2x2x2() {
    let t = corpus("2x2x2");
    let k = kpuzzle::parse(CUBE2_JSON, "2x2x2.json", &mut setup()).unwrap();
    let faces = ["U", "L", "F", "R", "B", "D"];
    // Same orders of moves and of longer words.
    let mut rng = Lcg(11);
    for _ in 0..200 {
        let word: Vec<&str> = (0..1 + rng.below(8)).map(|_| faces[rng.below(6)]).collect();
        let word = word.join(" ");
        let ot = t
            .sequence_transform(&t.parse_sequence(&word, &here()).unwrap())
            .order(&t.orbits);
        let ok = k
            .sequence_transform(&k.parse_sequence(&word, &here()).unwrap())
            .order(&k.orbits);
        assert_eq!(ot, ok, "{word}");
    }
    // Stronger: one fixed relabelling of slots and orientations maps every move of one onto
    // the same move of the other, so every sequence gives corresponding states.
    let (sigma, u, c) =
        relabelling(&t, &k, &faces, &[1, 2]).expect("the two 2x2x2s are the same puzzle");
    // Both files count a corner's twist in the same direction.
    assert_eq!(u, 1);
    for _ in 0..50 {
        let word: Vec<&str> = (0..20).map(|_| faces[rng.below(6)]).collect();
        let word = word.join(" ");
        let st = t.solved.apply(
            &t.sequence_transform(&t.parse_sequence(&word, &here()).unwrap()),
            &t.orbits,
        );
        let sk = k.solved.apply(
            &k.sequence_transform(&k.parse_sequence(&word, &here()).unwrap()),
            &k.orbits,
        );
        for i in 0..8 {
            // Piece p of tws sits in tws slot i: in KPuzzle, piece sigma(p) in slot sigma(i),
            // with orientation mapped through the slot offsets of where each piece started.
            let p = st.orbits[0].pieces[i] as usize;
            assert_eq!(sk.orbits[0].pieces[sigma[i]] as usize, sigma[p], "{word}");
            let x = st.orbits[0].orientation[i];
            // y = u*x + c[slot] - c[home slot] keeps solved = 0 on both sides.
            let y = (u * x + c[i] + 3 - c[p]) % 3;
            assert_eq!(sk.orbits[0].orientation[sigma[i]], y, "{word}");
        }
    }
    // The derived moves resolved, in either order, and are not search generators.
    let sexy = k.move_index("sexy").unwrap();
    assert!(k.moves[sexy].derived);
    assert_eq!(k.moves[sexy].transform.order(&k.orbits), 6);
    assert_eq!(
        k.moves[k.move_index("double").unwrap()]
            .transform
            .order(&k.orbits),
        3
    );
    assert_eq!(
        k.generators(None, Metric::Htm, &here(), &mut setup())
            .unwrap()
            .len(),
        18
    );

    // Reading the ksolve twists by slot (no conversion) breaks the correspondence: no
    // relabelling keeps the twist direction. (On the cube a face turn's twists alternate 1, 2
    // along its 4-cycle, so the misreading amounts to reversing every twist: the same group
    // with the direction mirrored, which is why `u = 2` must be excluded here.)
    let mut wrong = t.clone();
    for m in &mut wrong.moves {
        let o = &mut m.transform.orbits[0];
        let mut file = vec![0u8; 8];
        for (i, &p) in o.perm.iter().enumerate() {
            file[p as usize] = o.delta[i];
        }
        o.delta = file;
    }
    assert!(relabelling(&wrong, &k, &faces, &[1]).is_none());
    assert!(relabelling(&wrong, &k, &faces, &[2]).is_some());
}

#[test]
fn perm_state_text_round_trips() {
    let d = corpus("3x3x3");
    let s = d.solved.apply(
        &d.sequence_transform(&d.parse_sequence("R U F'", &here()).unwrap()),
        &d.orbits,
    );
    let text = d.format_state(&s);
    assert!(text.starts_with("CORNERS "));
    assert!(text.contains("\nEDGES "));
    assert_eq!(d.parse_state(&text, &here()).unwrap(), s);
    assert_eq!(
        d.parse_state(&text.replace('\n', "; "), &here()).unwrap(),
        s
    );
    let lo = corpus("loopover-3x3");
    assert_eq!(lo.format_state(&lo.solved), "TILES 0 1 2 3 4 5 6 7 8");
    let e = |t: &str| lo.parse_state(t, &here()).unwrap_err().to_string();
    assert_eq!(
        e("TILES 0 1 2"),
        "test: TILES: expected 9 piece labels, found 3"
    );
    assert_eq!(
        e("TILES 0 0 2 3 4 5 6 7 8"),
        "test: TILES: the pieces are not those of the solved state"
    );
    assert_eq!(e("ROW 1"), "test: unknown orbit \"ROW\"");
    assert_eq!(e(""), "test: orbit TILES is missing");
    assert_eq!(
        e("TILES 0 1 2 3 4 5 6 7 8 / 0 0 0 0 0 0 0 0 1"),
        "test: TILES: \"1\" is not an orientation below 1"
    );
    assert_eq!(
        e("TILES 0 1 2 3 4 5 6 7 x"),
        "test: TILES: \"x\" is not a piece label below 255"
    );
    // A KPattern start pattern.
    let k = kpuzzle::parse(CUBE2_JSON, "2x2x2.json", &mut setup()).unwrap();
    let p = kpuzzle::parse_pattern(
        &k,
        r#"{"CORNERS": {"pieces": [1, 0, 2, 3, 4, 5, 6, 7], "orientation": [0, 0, 0, 0, 0, 0, 0, 2]}}"#,
        "start.json",
    )
    .unwrap();
    assert_eq!(p.orbits[0].orientation[7], 2);
    let e = kpuzzle::parse_pattern(&k, r#"{"CORNERS": {"pieces": [1, 1, 2, 3, 4, 5, 6, 7], "orientation": [0, 0, 0, 0, 0, 0, 0, 0]}}"#, "start.json")
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "start.json: pattern: CORNERS: the pieces are not those of the solved state"
    );
}
