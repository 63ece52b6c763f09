use super::*;
use crate::search::table;
use crate::toys::{Lights, LightsGoal, Ring};

fn lights() -> Lights {
    Lights::new(4, 4, false, LightsGoal::AllOff)
}

fn exact<S: Indexed + Invertible + GoalSet>(space: &S) -> DistanceTable {
    table::build_with(space, &Limits::default(), table::Width::Exact).unwrap()
}

/// Every bound is at most the distance; the codes for `base` and `base + 1` are the distance,
/// deeper ones `base + 2` (and unreached ones), and below `base` the least distance below it in
/// the entry's line.
#[test]
fn compact_bounds_are_lower_bounds_exact_near_the_base() {
    let space = lights();
    let table = exact(&space);
    let deepest = table.max_distance().unwrap();
    for base in 1..deepest as u8 {
        let bounds = CompactBounds::with_base(&table, base, &Limits::default()).unwrap();
        let b = u64::from(base);
        for n in 0..table.len().div_ceil(PER_LINE) {
            let line = n * PER_LINE..((n + 1) * PER_LINE).min(table.len());
            let floor = line
                .clone()
                .filter_map(|i| table.code(i))
                .filter(|&d| d < b)
                .min();
            for i in line {
                // Unreached (4 x 4 lights out reaches a sixteenth of the boards): base + 2.
                let want = match table.code(i) {
                    Some(d) if d < b => floor.unwrap(),
                    Some(d) => d.min(b + 2),
                    None => b + 2,
                };
                assert_eq!(u64::from(bounds.bound(i)), want, "base {base} index {i}");
            }
        }
        assert_eq!(bounds.bound(0), 0, "the goal");
        assert_eq!(verify_bounds(&space, &bounds), Ok(()), "base {base}");
    }
    // 16 lamps: 2^16 boards, 261 lines of 64 bytes.
    let bounds = CompactBounds::from_table(&table, &Limits::default()).unwrap();
    assert_eq!(bounds.bytes(), 65_536u64.div_ceil(PER_LINE) * 64);
    assert_eq!(bounds.histogram(), table.histogram().as_slice());
    let base = bounds.base();
    assert!(
        (deepest.saturating_sub(4)..deepest).contains(&base),
        "{base}"
    );
}

/// The chosen base gives bounds that add up to at least any other candidate's.
#[test]
fn the_base_chosen_keeps_the_most() {
    let table = exact(&lights());
    let sum = |base: u8| {
        let bounds = CompactBounds::with_base(&table, base, &Limits::default()).unwrap();
        (0..table.len())
            .map(|i| u64::from(bounds.bound(i)))
            .sum::<u64>()
    };
    let chosen = choose_base(&table);
    let deepest = table.max_distance().unwrap() as u8;
    for base in deepest.saturating_sub(4).max(1)..deepest {
        // Every 61st line is a sample: within a few entries of the whole table's best.
        assert!(
            sum(chosen) * 100 >= sum(base) * 99,
            "{chosen} against {base}"
        );
    }
}

/// Written and read back, the same bounds; a floor raised past the base, a wrong magic or
/// version, or a length that does not match are refused with one line.
#[test]
fn compact_bounds_come_back_from_bytes_checked() {
    let table = exact(&lights());
    let bounds = CompactBounds::from_table(&table, &Limits::default()).unwrap();
    let mut bytes = Vec::new();
    bounds.write_to(&mut bytes).unwrap();
    assert_eq!(bytes.len() as u64, bounds.serialized_len());
    let unlimited = Latch::new(&Limits::default());
    let read = |bytes: &[u8]| CompactBounds::read_from(&Payload::copy_of(bytes), &unlimited);
    let back = read(&bytes).unwrap();
    for i in 0..table.len() {
        assert_eq!(back.bound(i), bounds.bound(i));
    }
    let words_at = bytes.len() - bounds.bytes() as usize;
    // A line whose entries use the floor, its floor raised to the base: a bound too high.
    let line = (0..table.len() / PER_LINE)
        .find(|&n| (0..PER_LINE).any(|at| bounds.code(n * PER_LINE + at) == 0))
        .unwrap() as usize;
    let mut raised = bytes.clone();
    raised[words_at + line * 64] = bounds.base() as u8;
    let err = read(&raised).unwrap_err();
    assert_eq!(
        err,
        ReadError::Invalid(format!("line {line}: a floor that is not below the base"))
    );
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(read(&magic).is_err());
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(read(&version).is_err());
    assert!(read(&bytes[..bytes.len() - 8]).is_err());
    let mut base = bytes.clone();
    base[12] = 0;
    assert!(read(&base).is_err());
}

/// The bounds of another space, or with codes moved, fail the check against the space.
#[test]
fn compact_bounds_of_another_space_fail_the_check() {
    let ring = Ring::new(65_536);
    let bounds = CompactBounds::from_table(&exact(&lights()), &Limits::default()).unwrap();
    assert!(verify_bounds(&ring, &bounds).is_err());
    let small = CompactBounds::from_table(&exact(&Ring::new(1000)), &Limits::default()).unwrap();
    assert!(verify_bounds(&lights(), &small).is_err());
    assert_eq!(verify_bounds(&Ring::new(1000), &small), Ok(()));
}

/// Through the cache: built (the exact table converted), saved, then loaded and checked.
#[test]
fn compact_bounds_are_cached() {
    let dir = tempfile::tempdir().unwrap();
    let cache = TableCache::new(Some(dir.path().to_path_buf()), true, |_| {});
    let space = lights();
    let recipe = Recipe::pattern_database();
    let limits = Limits::default();
    let build = || {
        let exact = table::build_with(&space, &limits, table::Width::Exact)?;
        CompactBounds::from_table(&exact, &limits)
    };
    let (built, source) = load_or_build_bounds(&cache, &space, &recipe, &limits, build).unwrap();
    assert_eq!(source, Source::Built);
    let never = || -> Result<CompactBounds, Limit> { panic!("loaded, not built") };
    let (loaded, source) = load_or_build_bounds(&cache, &space, &recipe, &limits, never).unwrap();
    assert_eq!(source, Source::Loaded);
    for i in 0..built.len() {
        assert_eq!(built.bound(i), loaded.bound(i));
    }
}
