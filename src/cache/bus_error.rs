//! What happens when another program cuts a cache file short while a run has it mapped.
//!
//! A mapped file that shrinks under its mapping makes every read of a page past the new end a
//! bus error (`SIGBUS`), which would kill the process. Our own writes never shrink a file in
//! place (a save writes a temporary file and renames it; a rejected file is unlinked; either
//! way a mapping keeps the old file's bytes), but a person or another program may truncate or
//! rewrite one (`cp` onto it, `truncate`, an editor), and a run must not die of it.
//!
//! So every mapped payload is registered here (`register`), and the first registration
//! installs a `SIGBUS` handler for the process. When a read faults inside a registered mapping,
//! the handler maps anonymous zero pages over the mapping from the faulting page to its end
//! (`MAP_FIXED`), marks the mapping *cut short* and returns: the read is made again and reads
//! 0. The run goes on, and [`Payload::cut_short`](super::Payload::cut_short) says what happened
//! (the mark, or the bytes of the page the file now ends in, which read zeros without a fault):
//!
//! - while the file is being checked, the load rejects it (module docs of [`cache`](super)),
//!   as a file truncated before it was opened would be;
//! - afterwards, a zero entry of an exact table is a distance no larger than the true one, so a
//!   pattern database stays a lower bound (the search stays optimal, if slower), and every
//!   distance or descent asked of the table checks and reports it
//!   [`Inconsistent`](crate::search::table::Inconsistent), which its users answer by discarding
//!   the file and building the table again.
//!
//! A bus error anywhere else (another mapping, a hardware error) goes to the disposition there
//! was before: the previous handler (Rust's own stack-overflow handler, typically) or the default
//! action. The handler only loads atomics, calls `mmap` and `sigaction`, and stores an atomic.
//!
//! There are [`SLOTS`] registrations at a time; a payload that finds none free is read into
//! memory instead of mapped ([`Payload`](super::Payload) does that), so no mapping is ever
//! unprotected.

use std::sync::Once;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How many mappings can be registered at once: far more than a run holds (a pattern
/// database per group, a table per Shift cell count).
pub const SLOTS: usize = 64;

/// One registered mapping: `start..end` (page-aligned; 0..0 when free) and whether it was cut
/// short.
struct Slot {
    start: AtomicUsize,
    end: AtomicUsize,
    cut: AtomicBool,
    /// Claimed by a registration (set before `start`/`end`, cleared after).
    taken: AtomicBool,
}

#[allow(clippy::declare_interior_mutable_const)] // only as the array's initializer
const FREE: Slot = Slot {
    start: AtomicUsize::new(0),
    end: AtomicUsize::new(0),
    cut: AtomicBool::new(false),
    taken: AtomicBool::new(false),
};

static REGISTERED: [Slot; SLOTS] = [FREE; SLOTS];
/// The page size, read once at installation.
static PAGE: AtomicUsize = AtomicUsize::new(4096);
/// Whether the handler is installed, and the disposition it replaced.
static INSTALL: Once = Once::new();
static PREVIOUS: OnceLock<Option<libc::sigaction>> = OnceLock::new();

/// A mapping registered for the repair: dropping it (before unmapping) frees its slot.
pub(super) struct Registration {
    slot: &'static Slot,
}

impl std::fmt::Debug for Registration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registration")
            .field("cut_short", &self.cut_short())
            .finish()
    }
}

impl Registration {
    /// Whether a read past the file's end was repaired with zeros (module docs).
    pub(super) fn cut_short(&self) -> bool {
        self.slot.cut.load(Ordering::Acquire)
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.slot.start.store(0, Ordering::Release);
        self.slot.end.store(0, Ordering::Release);
        self.slot.cut.store(false, Ordering::Release);
        self.slot.taken.store(false, Ordering::Release);
    }
}

/// Registers the mapping at `start` of `len` bytes, installing the handler the first time;
/// `None` when no slot is free or the handler could not be installed (then the caller must not
/// keep the mapping).
pub(super) fn register(start: *const u8, len: usize) -> Option<Registration> {
    INSTALL.call_once(install);
    PREVIOUS.get()?.as_ref()?;
    let page = PAGE.load(Ordering::Relaxed);
    let start = start as usize;
    let end = (start + len).next_multiple_of(page);
    let slot = REGISTERED.iter().find(|slot| {
        slot.taken
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    })?;
    slot.cut.store(false, Ordering::Release);
    slot.end.store(end, Ordering::Release);
    slot.start.store(start, Ordering::Release);
    Some(Registration { slot })
}

/// Installs [`on_bus_error`] and keeps the disposition it replaces; on failure `PREVIOUS` is
/// `None` and nothing is mapped.
fn install() {
    // SAFETY: sysconf reads a constant of the system.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if page > 0 {
        PAGE.store(page as usize, Ordering::Relaxed);
    }
    // SAFETY: a zeroed sigaction is a valid value to fill in; `on_bus_error` has the signature
    // SA_SIGINFO handlers have; `previous` receives the old disposition.
    let previous = unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_bus_error as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        let mut previous: libc::sigaction = std::mem::zeroed();
        (libc::sigaction(libc::SIGBUS, &action, &mut previous) == 0).then_some(previous)
    };
    let _ = PREVIOUS.set(previous);
}

/// The `SIGBUS` handler: repairs a fault inside a registered mapping (module docs), hands any
/// other to the previous disposition.
extern "C" fn on_bus_error(
    signal: libc::c_int,
    info: *mut libc::siginfo_t,
    context: *mut libc::c_void,
) {
    // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler.
    let address = unsafe { (*info).si_addr() } as usize;
    let page = PAGE.load(Ordering::Relaxed);
    for slot in &REGISTERED {
        let (start, end) = (
            slot.start.load(Ordering::Acquire),
            slot.end.load(Ordering::Acquire),
        );
        if start <= address && address < end {
            let from = address / page * page;
            // SAFETY: `from..end` lies inside a live mapping this module registered (its owner
            // unregisters before unmapping); replacing it with read-only zero pages changes
            // what its reads see (module docs), nothing else. mmap is a plain system call.
            let zeros = unsafe {
                libc::mmap(
                    from as *mut libc::c_void,
                    end - from,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if zeros != libc::MAP_FAILED {
                slot.cut.store(true, Ordering::Release);
                return;
            }
            break;
        }
    }
    pass_on(signal, info, context);
}

/// Gives the signal to the disposition there was before ours: its handler, or the default
/// action restored (the faulting read runs again on return and takes it).
fn pass_on(signal: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    let previous = PREVIOUS.get().copied().flatten();
    match previous {
        Some(action)
            if action.sa_sigaction != libc::SIG_DFL && action.sa_sigaction != libc::SIG_IGN =>
        {
            // SAFETY: the previous handler was installed for this signal with these flags, so
            // it has the matching signature.
            unsafe {
                if action.sa_flags & libc::SA_SIGINFO != 0 {
                    let handler: extern "C" fn(
                        libc::c_int,
                        *mut libc::siginfo_t,
                        *mut libc::c_void,
                    ) = std::mem::transmute(action.sa_sigaction);
                    handler(signal, info, context);
                } else {
                    let handler: extern "C" fn(libc::c_int) =
                        std::mem::transmute(action.sa_sigaction);
                    handler(signal);
                }
            }
        }
        _ => {
            // SAFETY: restores the default disposition of SIGBUS; async-signal-safe.
            unsafe {
                let mut default: libc::sigaction = std::mem::zeroed();
                default.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(libc::SIGBUS, &default, std::ptr::null_mut());
            }
        }
    }
}
