//! Faults found on timely's threads: a peer gone shows as a panic of a network thread
//! ("timely communication error"). [`install_panic_hook`] keeps those panics quiet and records the
//! first; the workers see the run [`aborted`] and give up; the process [`take`]s the fault and
//! reports it, one line naming the peer. A peer refused for what it sent is recorded the same
//! way, in our words ([`refuse`]).

use super::{Cluster, Fault};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};

/// Set when the run has failed (a peer is gone): workers stop waiting and return.
static ABORT: AtomicBool = AtomicBool::new(false);

/// The first fault timely's threads panicked with: the process it concerns, if known, and what.
static FAULT: Mutex<Option<(Option<usize>, String)>> = Mutex::new(None);

/// Routes panics on timely's threads (a peer gone: "timely communication error: ...") to
/// [`FAULT`], quietly; every other panic goes to the hook that was there before.
pub(super) fn install_panic_hook() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current();
            let Some(name) = thread.name().filter(|n| n.starts_with("timely:")) else {
                return previous(info);
            };
            let payload = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            // The network threads are named after the process at the other end.
            let peer = name
                .strip_prefix("timely:recv-")
                .or_else(|| name.strip_prefix("timely:send-"))
                .and_then(|p| p.parse().ok());
            let message = match payload.strip_prefix("timely communication error: ") {
                Some(cause) => cause.to_string(),
                None => match info.location() {
                    Some(at) => format!("{name} panicked at {at}: {payload}"),
                    None => format!("{name} panicked: {payload}"),
                },
            };
            let mut fault = FAULT.lock().unwrap_or_else(|e| e.into_inner());
            fault.get_or_insert((peer, message));
            ABORT.store(true, SeqCst);
        }));
    });
}

/// Records `line` (whole, naming the peer) as the run's fault, unless one came first: a peer
/// refused for what it sent (see [`framing`](super::framing)). The network thread that read it
/// then fails, and its panic finds the fault taken.
pub(super) fn refuse(line: String) {
    let mut fault = FAULT.lock().unwrap_or_else(|e| e.into_inner());
    fault.get_or_insert((None, line));
    ABORT.store(true, SeqCst);
}

/// The recorded fault, as one line naming the peer; taking it tells the workers to give up.
pub(super) fn take(cluster: &Cluster) -> Option<Fault> {
    let (peer, message) = FAULT.lock().unwrap_or_else(|e| e.into_inner()).take()?;
    ABORT.store(true, SeqCst);
    Some(Fault(match peer {
        Some(p) => format!(
            "lost process {p} ({}): {message}",
            cluster.addresses.get(p).map_or("?", |a| a.as_str())
        ),
        None => message,
    }))
}

/// Forgets the fault of an earlier sweep in this process, before a new one starts.
pub(super) fn clear() {
    ABORT.store(false, SeqCst);
    *FAULT.lock().unwrap_or_else(|e| e.into_inner()) = None;
}

/// Whether the run has failed (a peer is gone): workers stop waiting and return.
pub(super) fn aborted() -> bool {
    ABORT.load(SeqCst)
}
