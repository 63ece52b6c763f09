//! The cache's tests: the trust rules of the module docs, case by case.

use super::*;
use crate::search::table::cached::{self, Recipe};
use crate::search::table::{self, DistanceTable, Width};
use crate::space::{Describe, GoalSet, Indexed, StateSpace};
use crate::toys::{Lights, LightsGoal, Ring};
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

/// Lights Out on 4 x 5 lamps: 2^20 boards, some unreachable, none more than 20 presses from
/// all off: its exact table takes 8 bits a board (1 MiB, 256 pages), its mod-3 table 2.
fn big() -> Lights {
    Lights::new(4, 5, false, LightsGoal::AllOff)
}

/// Boards of [`big`] to ask about: reachable ones, at several distances.
const ASKED: [u64; 5] = [0, 1, 0b11, 0x5_5555, 0xF_FFFF];

/// Cuts the file at `path` to `len` bytes where it lies, as `truncate` does.
fn cut(path: &Path, len: u64) {
    File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_len(len)
        .unwrap();
}

/// `big()`'s table of `width`, built, then loaded from `cache` (mapped); the file's path.
fn built_and_loaded(cache: &TableCache, width: Width) -> (DistanceTable, DistanceTable, PathBuf) {
    let space = big();
    let build = || table::build_with(&space, &limits(), width);
    let (built, source) =
        cached::load_or_build(cache, &space, &recipe(), &limits(), build).unwrap();
    assert_eq!(source, Source::Built);
    let (loaded, source) =
        cached::load_or_build(cache, &space, &recipe(), &limits(), || panic!("loads")).unwrap();
    assert_eq!(source, Source::Loaded);
    assert!(loaded.is_mapped() && !built.is_mapped());
    (
        built,
        loaded,
        cached::path_for(cache, &space, &recipe()).unwrap(),
    )
}

#[test]
fn a_mapped_table_gives_the_answers_of_the_built_one() {
    for width in [Width::Exact, Width::Mod3] {
        let dir = tempfile::tempdir().unwrap();
        let space = big();
        let (cache, warnings) = collecting(dir.path());
        let (built, loaded, _) = built_and_loaded(&cache, width);
        assert_eq!(loaded.bits_per_entry(), built.bits_per_entry());
        assert_eq!(loaded.histogram(), built.histogram());
        assert_eq!(loaded.bytes(), built.bytes());
        assert!(
            (0..space.size() as u64).all(|i| loaded.code(i) == built.code(i)),
            "{width:?}"
        );
        for state in ASKED {
            assert_eq!(
                loaded.distance(&space, state),
                built.distance(&space, state)
            );
            let path = |t: &DistanceTable| t.path(&space, state).unwrap().map(|p| p.moves());
            assert_eq!(path(&loaded), path(&built));
        }
        // A clone shares the mapping and answers the same.
        let clone = loaded.clone();
        assert!(clone.is_mapped());
        assert_eq!(
            clone.distance(&space, 0x5_5555),
            built.distance(&space, 0x5_5555)
        );
        assert!(!loaded.cut_short());
        assert!(taken(&warnings).is_empty());
    }
}

#[test]
fn a_table_keeps_answering_when_its_file_is_removed_or_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let space = big();
    let (cache, _) = collecting(dir.path());
    let (built, loaded, path) = built_and_loaded(&cache, Width::Exact);
    // Removed (as a rejected file is), then replaced by a save (a new file renamed over it):
    // the mapping keeps the old file's bytes.
    cached::discard(&cache, &space, &recipe(), "test");
    assert!(!path.exists());
    let build = || table::build_with(&space, &limits(), Width::Exact);
    cached::load_or_build(&cache, &space, &recipe(), &limits(), build).unwrap();
    assert!(path.exists());
    assert!((0..space.size() as u64).all(|i| loaded.code(i) == built.code(i)));
    assert!(!loaded.cut_short());
    assert_eq!(
        loaded.distance(&space, 0x5_5555),
        built.distance(&space, 0x5_5555)
    );
}

#[test]
fn a_file_cut_short_while_in_use_reads_zeros_and_fails_every_answer() {
    // Cut in place by another program to a length inside a page (so that page is kept, zeroed
    // past the end, and whole pages after it are gone), while the table is in use.
    for width in [Width::Exact, Width::Mod3] {
        let dir = tempfile::tempdir().unwrap();
        let space = big();
        let (cache, warnings) = collecting(dir.path());
        let (built, loaded, path) = built_and_loaded(&cache, width);
        let size = std::fs::metadata(&path).unwrap().len();
        let end = size / 3 + 5;
        cut(&path, end);
        // No bus error kills the process: every entry reads, past the cut as 0.
        let words_at = size - loaded.bytes();
        let kept = (end - words_at) * 8 / u64::from(loaded.bits_per_entry());
        for i in 0..space.size() as u64 {
            let expected = if i < kept { built.code(i) } else { Some(0) };
            assert_eq!(
                loaded.code(i),
                expected,
                "{width:?}, entry {i} of {kept} kept"
            );
        }
        assert!(loaded.cut_short());
        // Every answer of the table is refused, so that its users rebuild it.
        for state in ASKED {
            let refused = loaded.distance(&space, state).unwrap_err();
            assert!(refused.0.contains("cut short"), "{refused}");
            assert!(loaded.path(&space, state).is_err());
        }
        // The next load finds the file short.
        rebuilt_after_one_warning(&cache, &warnings, &built, "truncated or padded");
    }
}

/// Loads `big()`'s table of `built`'s width from `cache` and checks that its file is refused
/// (one warning, naming `reason`, and the file removed) and the table rebuilt as `built`.
fn rebuilt_after_one_warning(
    cache: &TableCache,
    warnings: &Mutex<Vec<String>>,
    built: &DistanceTable,
    reason: &str,
) {
    let space = big();
    let width = if built.is_exact() {
        Width::Exact
    } else {
        Width::Mod3
    };
    let build = || table::build_with(&space, &limits(), width);
    let (rebuilt, source) =
        cached::load_or_build(cache, &space, &recipe(), &limits(), build).unwrap();
    assert_eq!(source, Source::Built);
    assert!((0..space.size() as u64).all(|i| rebuilt.code(i) == built.code(i)));
    let lines = taken(warnings);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains(reason), "{}", lines[0]);
    assert!(lines[0].contains("removed, rebuilding"), "{}", lines[0]);
}

#[test]
fn a_file_cut_within_its_last_page_is_seen_before_anything_reads_there() {
    let dir = tempfile::tempdir().unwrap();
    let space = big();
    let (cache, _) = collecting(dir.path());
    let (_, loaded, path) = built_and_loaded(&cache, Width::Exact);
    let size = std::fs::metadata(&path).unwrap().len();
    // The page stays, zeroed past the end: reading there faults nothing.
    cut(&path, size - 5);
    assert!(loaded.cut_short());
    assert!(loaded.distance(&space, 0).is_err());
}

#[test]
fn a_file_rewritten_in_place_between_runs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, warnings) = collecting(dir.path());
    let (built, loaded, path) = built_and_loaded(&cache, Width::Exact);
    drop(loaded);
    // One byte of the entries changed where it lies: the same file, the same length.
    use std::os::unix::fs::FileExt;
    let file = File::options().write(true).open(&path).unwrap();
    let at = std::fs::metadata(&path).unwrap().len() / 2;
    file.write_at(&[0x5a], at).unwrap();
    drop(file);
    rebuilt_after_one_warning(&cache, &warnings, &built, "checksum mismatch");
}

#[test]
fn the_checksum_in_chunks_is_the_checksum_of_the_whole() {
    let bytes: Vec<u8> = (0..CRC_CHUNK * 2 + 12345)
        .map(|i| (i * 7 + i / 300) as u8)
        .collect();
    let latch = Latch::new(&limits());
    for len in [0, 1, CRC_CHUNK, CRC_CHUNK + 1, bytes.len()] {
        assert_eq!(
            crc32(&bytes[..len], &latch),
            Ok(crc32fast::hash(&bytes[..len]))
        );
    }
}

#[test]
fn a_pass_in_pieces_gives_every_piece_in_order_and_stops_at_a_limit() {
    let items: Vec<u32> = (0..1000).collect();
    let latch = Latch::new(&limits());
    let firsts = in_pieces(&items, 7, &latch, |piece| (piece[0], piece.len())).unwrap();
    let expected: Vec<(u32, usize)> = (0..1000)
        .step_by(7)
        .map(|i| (i, 7.min(1000 - i as usize)))
        .collect();
    assert_eq!(firsts, expected);
    assert_eq!(
        in_pieces(&items[..0], 7, &latch, |p| p.len()).unwrap(),
        Vec::<usize>::new()
    );
    let out_of_time = Latch::new(&Limits {
        time_limit: Some(Duration::ZERO),
        ..Limits::default()
    });
    let stopped = in_pieces(&items, 7, &out_of_time, |_| panic!("not run"));
    assert_eq!(stopped, Err(Limit::Time(Duration::ZERO)));
}

/// The environment variable that makes [`a_bus_error_outside_the_tables_still_ends_the_process`]
/// its own child.
const BUS_ERROR_CHILD: &str = "STATESPACE_TEST_BUS_ERROR_CHILD";

#[test]
fn a_bus_error_outside_the_tables_still_ends_the_process() {
    // The handler repairs faults in table mappings only: any other bus error goes on as it
    // would have (here, Rust's handler, then the default action). Run in a child process.
    if std::env::var_os(BUS_ERROR_CHILD).is_some() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, _) = collecting(dir.path());
        // A table mapped: the handler is installed.
        let (_, loaded, _) = built_and_loaded(&cache, Width::Mod3);
        assert!(loaded.is_mapped());
        let other = dir.path().join("other");
        std::fs::write(&other, vec![7u8; 3 * 4096]).unwrap();
        let file = File::open(&other).unwrap();
        // SAFETY: a test of what a bus error does; the file is cut below.
        let map = unsafe { memmap2::Mmap::map(&file).unwrap() };
        cut(&other, 0);
        // SAFETY: inside the mapping; the read faults, which is the point.
        let byte = unsafe { std::ptr::read_volatile(&map[2 * 4096]) };
        panic!("read {byte} past the end of a file without a bus error");
    }
    let name = "cache::tests::a_bus_error_outside_the_tables_still_ends_the_process";
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(BUS_ERROR_CHILD, "1")
        .output()
        .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        out.status.signal(),
        Some(libc::SIGBUS),
        "{:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}
