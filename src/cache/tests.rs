//! The cache's tests: the trust rules of the module docs, case by case.

use super::*;
use crate::search::table::cached::{self, Recipe};
use crate::search::table::{self, DistanceTable};
use crate::space::{Describe, GoalSet, Indexed, StateSpace};
use crate::toys::Ring;
use fingerprint::Content;
use std::sync::{Arc, Barrier, Mutex};

/// The toy ring of 1,000 states, goal 0, step 1.
const RING: Ring = Ring::new(1000);

/// A ring that describes itself as [`RING`] whatever it is: a plugin whose description
/// forgets a parameter. The fingerprint's measured parts must still tell them apart.
struct Forgetful(Ring);
impl StateSpace for Forgetful {
    type State = u64;
    type Move = i8;
    fn successors(&self, s: u64, visit: &mut dyn FnMut(i8, u64)) {
        self.0.successors(s, visit)
    }
    fn is_goal(&self, s: u64) -> bool {
        self.0.is_goal(s)
    }
}
impl Indexed for Forgetful {
    fn size(&self) -> u128 {
        self.0.size()
    }
    fn index(&self, s: u64) -> u64 {
        s
    }
    fn state(&self, i: u64) -> u64 {
        i
    }
}
impl GoalSet for Forgetful {
    fn goals(&self, visit: &mut dyn FnMut(u64)) {
        self.0.goals(visit)
    }
}
impl Describe for Forgetful {
    fn describe(&self, content: &mut Content) {
        RING.describe(content)
    }
}

fn recipe() -> Recipe {
    Recipe::distance_table()
}

fn limits() -> Limits {
    Limits::default()
}

fn build_of(ring: Ring) -> impl Fn() -> Result<DistanceTable, Limit> {
    move || table::build(&ring, &Limits::default())
}

fn load_or_build(cache: &TableCache, ring: Ring) -> (DistanceTable, Source) {
    cached::load_or_build(cache, &ring, &recipe(), &limits(), build_of(ring)).unwrap()
}

/// The table's bytes without the build's elapsed time (bytes 40..48), which differs from
/// one build to the next.
fn content(t: &DistanceTable) -> Vec<u8> {
    let mut bytes = t.to_bytes();
    bytes[40..48].fill(0);
    bytes
}

/// A cache in `dir` whose warnings are collected.
fn collecting(dir: &Path) -> (TableCache, Arc<Mutex<Vec<String>>>) {
    let warnings = Arc::new(Mutex::new(Vec::new()));
    let sink = warnings.clone();
    let cache = TableCache::new(Some(dir.to_path_buf()), true, move |w| {
        sink.lock().unwrap().push(w.to_string())
    });
    (cache, warnings)
}

fn taken(warnings: &Mutex<Vec<String>>) -> Vec<String> {
    std::mem::take(&mut *warnings.lock().unwrap())
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_table_is_built_once_then_loaded() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, warnings) = collecting(dir.path());
    let (built, source) = load_or_build(&cache, RING);
    assert_eq!(source, Source::Built);
    let path = cached::path_for(&cache, &RING, &recipe()).unwrap();
    assert!(path.is_file());
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("table-") && name.ends_with(".table"),
        "{name}"
    );
    assert_eq!(name.len(), "table-".len() + 64 + ".table".len());
    let (loaded, source) = cached::load_or_build(&cache, &RING, &recipe(), &limits(), || {
        panic!("must not rebuild")
    })
    .unwrap();
    assert_eq!(source, Source::Loaded);
    assert!(source.is_loaded());
    assert!(loaded.to_bytes() == built.to_bytes());
    assert_eq!(loaded.distance(&RING, 700).unwrap(), Some(300));
    assert!(taken(&warnings).is_empty());
    // Only the table's file is left: no temporary file.
    assert_eq!(files_in(dir.path()).len(), 1);
}

#[test]
fn the_fingerprint_is_the_content_not_the_name() {
    let key = |ring: Ring| cached::fingerprint(&ring, &recipe());
    assert_eq!(key(RING), key(RING));
    // Other moves, another goal, another size: other tables.
    assert_ne!(key(RING), key(Ring { step: 3, ..RING }));
    assert_ne!(key(RING), key(Ring { goal: 5, ..RING }));
    assert_ne!(key(RING), key(Ring { n: 999, ..RING }));
    // The recipe counts: an exact pattern database is another table.
    assert_ne!(
        key(RING),
        cached::fingerprint(&RING, &Recipe::pattern_database())
    );
    // But not its label (a file name only).
    let relabelled = Recipe {
        label: "other",
        ..recipe()
    };
    assert_eq!(key(RING), cached::fingerprint(&RING, &relabelled));
    // A description that forgets the moves is caught by the measured goals and probe walks.
    let forgetful = |ring| cached::fingerprint(&Forgetful(ring), &recipe());
    assert_ne!(forgetful(RING), forgetful(Ring { step: 3, ..RING }));
    assert_ne!(forgetful(RING), forgetful(Ring { goal: 5, ..RING }));
}

#[test]
fn spaces_with_other_moves_never_share_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, warnings) = collecting(dir.path());
    let other = Ring { step: 3, ..RING };
    let (a, _) = load_or_build(&cache, RING);
    let (b, source) = load_or_build(&cache, other);
    assert_eq!(source, Source::Built, "not the first ring's file");
    assert_eq!(a.distance(&RING, 3).unwrap(), Some(3));
    assert_eq!(b.distance(&other, 3).unwrap(), Some(1));
    assert_eq!(files_in(dir.path()).len(), 2);
    assert!(taken(&warnings).is_empty());
}

/// Damages the cached file with `damage`, then checks that the next call warns once (naming
/// `reason`), rebuilds, and leaves a valid file that the call after loads.
fn damaged_file_is_replaced(reason: &str, damage: impl Fn(&mut Vec<u8>)) {
    let dir = tempfile::tempdir().unwrap();
    let (cache, warnings) = collecting(dir.path());
    let (good, _) = load_or_build(&cache, RING);
    let path = cached::path_for(&cache, &RING, &recipe()).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    damage(&mut bytes);
    std::fs::write(&path, &bytes).unwrap();

    let (table, source) = load_or_build(&cache, RING);
    assert_eq!(source, Source::Built, "{reason}");
    assert!(content(&table) == content(&good));
    let lines = taken(&warnings);
    assert_eq!(lines.len(), 1, "{reason}: {lines:?}");
    assert!(lines[0].contains(reason), "{reason}: {}", lines[0]);
    assert!(lines[0].contains("removed, rebuilding"), "{}", lines[0]);
    assert!(!lines[0].contains('\n'));

    let (_, source) = load_or_build(&cache, RING);
    assert_eq!(source, Source::Loaded, "{reason}: the file was replaced");
    assert!(taken(&warnings).is_empty());
}

/// Rewrites the payload's checksum after an edit, as a forger would.
fn fix_checksum(bytes: &mut [u8]) {
    let crc = crc32fast::hash(&bytes[HEADER as usize..]);
    bytes[56..60].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn a_corrupted_byte_fails_the_checksum() {
    damaged_file_is_replaced("checksum mismatch", |b| {
        let middle = b.len() / 2;
        b[middle] ^= 0x10;
    });
}

#[test]
fn a_truncated_file_is_rebuilt() {
    damaged_file_is_replaced("truncated", |b| b.truncate(b.len() - 5));
    damaged_file_is_replaced("truncated", |b| b.truncate(10));
    damaged_file_is_replaced("truncated", |b| b.clear());
}

#[test]
fn a_wrong_magic_or_version_is_rebuilt() {
    damaged_file_is_replaced("magic", |b| b[0] = b'X');
    damaged_file_is_replaced("version 3", |b| b[8] = 3);
}

#[test]
fn a_file_of_another_fingerprint_is_rebuilt() {
    damaged_file_is_replaced("holds another table", |b| b[20] ^= 1);
}

#[test]
fn a_payload_that_fails_its_own_checks_is_rebuilt() {
    damaged_file_is_replaced("invalid table", |b| {
        // Corrupt the table's bits-per-entry byte and fix the checksum: only the payload's
        // own validation can catch it.
        b[HEADER as usize + 12] = 3;
        fix_checksum(b);
    });
}

#[test]
fn a_forged_table_that_passes_every_file_check_fails_against_the_space() {
    // The payload of another ring's table under this ring's fingerprint, checksum fixed:
    // whole, well formed, the right size; its distances are another space's.
    let other = Ring { goal: 500, ..RING };
    let forged = build_of(other)().unwrap().to_bytes();
    damaged_file_is_replaced("does not fit this puzzle", |b| {
        b.truncate(HEADER as usize);
        b.extend_from_slice(&forged);
        fix_checksum(b);
    });
    // Every entry moved one state along: the same histogram, one goal off.
    let shifted = build_of(Ring { goal: 1, ..RING })().unwrap().to_bytes();
    damaged_file_is_replaced("does not fit this puzzle", |b| {
        b.truncate(HEADER as usize);
        b.extend_from_slice(&shifted);
        fix_checksum(b);
    });
}

#[test]
fn a_file_over_the_memory_budget_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, _) = collecting(dir.path());
    load_or_build(&cache, RING);
    let tight = Limits {
        memory_budget: 100,
        ..Limits::default()
    };
    let refused =
        cached::load_or_build(&cache, &RING, &recipe(), &tight, || panic!("refused first"));
    assert!(matches!(refused, Err(Limit::Memory { .. })), "{refused:?}");
}

#[test]
fn a_limit_stops_a_load_and_leaves_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, warnings) = collecting(dir.path());
    load_or_build(&cache, RING);
    let out_of_time = Limits {
        time_limit: Some(Duration::ZERO),
        ..Limits::default()
    };
    let stopped =
        cached::load_or_build(&cache, &RING, &recipe(), &out_of_time, || panic!("stopped"));
    assert_eq!(stopped.unwrap_err(), Limit::Time(Duration::ZERO));
    assert!(taken(&warnings).is_empty(), "nothing wrong with the file");
    assert_eq!(load_or_build(&cache, RING).1, Source::Loaded);
}

#[test]
fn a_fifo_or_directory_in_place_of_a_file_is_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, warnings) = collecting(dir.path());
    let path = cached::path_for(&cache, &RING, &recipe()).unwrap();
    let fifo = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string; mkfifo only creates a file.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    // With no writer, opening it for reading would block forever; it is refused instead.
    let (_, source) = load_or_build(&cache, RING);
    assert_eq!(source, Source::Built);
    let lines = taken(&warnings);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("not a regular file (a FIFO)"),
        "{}",
        lines[0]
    );
    // Removed and replaced by the table.
    assert!(path.is_file());
    let (_, source) = load_or_build(&cache, RING);
    assert_eq!(source, Source::Loaded);

    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    let (_, source) = load_or_build(&cache, RING);
    assert_eq!(
        source,
        Source::BuiltNotSaved,
        "a directory cannot be replaced"
    );
    let lines = taken(&warnings);
    assert!(
        lines[0].contains("not a regular file (a directory)"),
        "{lines:?}"
    );
}

#[test]
fn stale_temporary_files_are_removed_and_fresh_ones_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, _) = collecting(dir.path());
    let stale = dir.path().join(".table-killed.tmp");
    let fresh = dir.path().join(".table-writing.tmp");
    let unrelated = dir.path().join("notes.tmp");
    for path in [&stale, &fresh, &unrelated] {
        std::fs::write(path, b"partial").unwrap();
    }
    let old = std::time::SystemTime::now() - STALE_AFTER - Duration::from_secs(60);
    File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(old)
        .unwrap();
    load_or_build(&cache, RING);
    assert!(!stale.exists(), "a killed writer's file is cleaned");
    assert!(fresh.exists(), "another process may still be writing it");
    assert!(unrelated.exists(), "not ours");
}

#[test]
fn a_discarded_file_is_removed_with_one_warning() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, warnings) = collecting(dir.path());
    load_or_build(&cache, RING);
    cached::discard(&cache, &RING, &recipe(), "no closer successor at index 7");
    let lines = taken(&warnings);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].contains("no closer successor at index 7; removed, rebuilding"));
    assert!(!cached::holds(&cache, &RING, &recipe()));
    assert_eq!(load_or_build(&cache, RING).1, Source::Built);
}

#[test]
fn an_unwritable_directory_warns_once_and_still_answers() {
    let dir = tempfile::tempdir().unwrap();
    // A path through a regular file can be neither created nor written, even by root.
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, b"not a directory").unwrap();
    let (cache, warnings) = collecting(&blocker.join("cache"));
    for _ in 0..2 {
        let (table, source) = load_or_build(&cache, RING);
        assert_eq!(source, Source::BuiltNotSaved);
        assert_eq!(table.distance(&RING, 1).unwrap(), Some(1));
    }
    let lines = taken(&warnings);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("cannot write"), "{}", lines[0]);
}

#[test]
fn a_disabled_cache_builds_every_time_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let warnings = Arc::new(Mutex::new(Vec::new()));
    let sink = warnings.clone();
    let cache = TableCache::new(Some(dir.path().to_path_buf()), false, move |w| {
        sink.lock().unwrap().push(w.to_string())
    });
    assert!(cache.dir().is_none());
    assert_eq!(load_or_build(&cache, RING).1, Source::BuiltNotSaved);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    assert!(taken(&warnings).is_empty());
    let disabled = TableCache::disabled();
    assert_eq!(load_or_build(&disabled, RING).1, Source::BuiltNotSaved);
}

#[test]
fn a_failed_build_is_returned_and_nothing_saved() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, _) = collecting(dir.path());
    let refused = Limits {
        memory_budget: 10,
        ..Limits::default()
    };
    let result = cached::load_or_build(&cache, &RING, &recipe(), &refused, || {
        table::build(&RING, &refused)
    });
    assert!(matches!(result, Err(Limit::Memory { .. })));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn two_builders_at_once_both_get_the_table_and_leave_a_valid_file() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, warnings) = collecting(dir.path());
    let both_building = Barrier::new(2);
    let expected = content(&build_of(RING)().unwrap());
    std::thread::scope(|scope| {
        let runs: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    cached::load_or_build(&cache, &RING, &recipe(), &limits(), || {
                        // Both have looked for the file and found none before either saves.
                        both_building.wait();
                        build_of(RING)()
                    })
                })
            })
            .collect();
        for run in runs {
            let (table, source) = run.join().unwrap().unwrap();
            assert_eq!(source, Source::Built);
            assert!(content(&table) == expected);
        }
    });
    let (table, source) = load_or_build(&cache, RING);
    assert_eq!(source, Source::Loaded);
    assert!(content(&table) == expected);
    assert!(taken(&warnings).is_empty());
    assert_eq!(files_in(dir.path()).len(), 1);
}

#[test]
fn the_directory_follows_xdg_then_home() {
    let os = |s: &'static str| Some(OsStr::new(s));
    assert_eq!(
        resolve_dir(os("/var/cache/me"), os("/home/me")),
        Some(PathBuf::from("/var/cache/me/statespace"))
    );
    for xdg in [None, os(""), os("relative/cache")] {
        assert_eq!(
            resolve_dir(xdg, os("/home/me")),
            Some(PathBuf::from("/home/me/.cache/statespace")),
            "{xdg:?}"
        );
    }
    assert_eq!(
        resolve_dir(os("/x"), None),
        Some(PathBuf::from("/x/statespace"))
    );
    assert_eq!(resolve_dir(None, None), None);
    assert_eq!(resolve_dir(os(""), os("")), None);
}
