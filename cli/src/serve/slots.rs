//! The server's solve slots: at most N searches at once, the others queued, each search stopped
//! when its client goes away or the server stops.
//!
//! # How a search is stopped
//!
//! Engines stop on [`Limits::interrupt`], a `&'static AtomicBool` they poll (the CLI's Ctrl-C
//! flag; see `statespace::limit::ticker`). The server has one such flag per slot, made once
//! when it starts (N flags leaked for the process's life, nothing per request): a search runs
//! with its slot's flag as its interrupt, so raising the flag stops that search within the
//! ticker's poll interval, as Ctrl-C stops `solve`.
//!
//! A request's handler holds a [`Running`] while its search runs on a blocking thread. When
//! the client disconnects, hyper drops the handler's future, and with it the [`Running`], whose
//! drop raises the flag. The slot itself (the flag and the semaphore's permit) is shared by the
//! handler and the search, and goes back to the pool only when both are done: a flag is never
//! handed to a new search while a stopped one may still read it.
//!
//! # Trade-offs
//!
//! - **A queue, not a refusal**: a request past the N running waits for a slot (a
//!   `tokio::sync::Semaphore`, first come first served); only past [`MAX_WAITING`] waiting is it
//!   refused (503), so a burst of clients cannot hold unbounded request bodies in memory.
//! - **Time counts from the slot**, not from the request's arrival: the time limit is the
//!   search's, as on the command line; a client that will not wait disconnects, which dequeues
//!   it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Requests that may wait for a slot at once; past that a request is refused as busy.
pub const MAX_WAITING: usize = 256;

/// The pool: a semaphore of N permits and N stop flags.
pub struct Slots {
    permits: Arc<Semaphore>,
    free: Mutex<Vec<&'static AtomicBool>>,
    every: Vec<&'static AtomicBool>,
    background: &'static AtomicBool,
    waiting: AtomicUsize,
    running: AtomicUsize,
}

/// Why no slot was given.
#[derive(Debug, PartialEq, Eq)]
pub enum NoSlot {
    /// [`MAX_WAITING`] requests already wait.
    Busy,
    /// The server is stopping.
    Closed,
}

/// One search's slot: its permit and its stop flag, back to the pool when dropped.
pub struct Slot {
    slots: Arc<Slots>,
    flag: &'static AtomicBool,
    _permit: OwnedSemaphorePermit,
}

impl Slot {
    /// The flag the search polls ([`Limits::interrupt`](statespace::limit::Limits)).
    pub fn flag(&self) -> &'static AtomicBool {
        self.flag
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.slots.running.fetch_sub(1, Ordering::SeqCst);
        let mut free = self.slots.free.lock().unwrap_or_else(|e| e.into_inner());
        free.push(self.flag);
    }
}

/// The handler's hold on a running search: dropped before [`Running::finish`] (the client went
/// away, the handler's future was dropped), it stops the search.
pub struct Running {
    slot: Arc<Slot>,
    finished: bool,
}

impl Running {
    /// The search ended and its answer was taken: dropping this no longer stops anything.
    pub fn finish(mut self) {
        self.finished = true;
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if !self.finished {
            self.slot.flag.store(true, Ordering::SeqCst);
        }
    }
}

impl Slots {
    /// A pool of `count` slots (at least 1).
    pub fn new(count: usize) -> Arc<Slots> {
        let count = count.max(1);
        // Leaked once per server: engines take a `&'static` flag (see the module docs).
        let every: Vec<&'static AtomicBool> = (0..count)
            .map(|_| &*Box::leak(Box::new(AtomicBool::new(false))))
            .collect();
        Arc::new(Slots {
            permits: Arc::new(Semaphore::new(count)),
            free: Mutex::new(every.clone()),
            every,
            background: Box::leak(Box::new(AtomicBool::new(false))),
            waiting: AtomicUsize::new(0),
            running: AtomicUsize::new(0),
        })
    }

    /// Waits for a free slot (in arrival order), its flag lowered. Returns the handler's
    /// [`Running`] and the search's share of the slot.
    pub async fn acquire(self: &Arc<Self>) -> Result<(Running, Arc<Slot>), NoSlot> {
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= MAX_WAITING {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(NoSlot::Busy);
        }
        // Counted down however this ends, the future dropped while waiting included.
        struct Waiting<'a>(&'a AtomicUsize);
        impl Drop for Waiting<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::SeqCst);
            }
        }
        let waiting = Waiting(&self.waiting);
        let permit = self.permits.clone().acquire_owned().await;
        drop(waiting);
        let permit = permit.map_err(|_| NoSlot::Closed)?;
        let flag = {
            let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
            free.pop().expect("a permit held means a flag is free")
        };
        flag.store(false, Ordering::SeqCst);
        self.running.fetch_add(1, Ordering::SeqCst);
        let slot = Arc::new(Slot {
            slots: self.clone(),
            flag,
            _permit: permit,
        });
        let running = Running {
            slot: slot.clone(),
            finished: false,
        };
        Ok((running, slot))
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Requests waiting for a slot now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }

    /// The stop flag of work the server does outside the slots (the histogram's sweep).
    pub fn background_flag(&self) -> &'static AtomicBool {
        self.background
    }

    /// The server stops: every running search is stopped and no slot is given any more.
    pub fn close(&self) {
        self.permits.close();
        self.background.store(true, Ordering::SeqCst);
        for flag in &self.every {
            flag.store(true, Ordering::SeqCst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(future)
    }

    #[test]
    fn a_dropped_handler_stops_its_search_and_the_flag_waits_for_the_search() {
        let slots = Slots::new(1);
        let (running, slot) = block_on(slots.acquire()).unwrap();
        assert_eq!(slots.running(), 1);
        drop(running);
        assert!(
            slot.flag().load(Ordering::SeqCst),
            "the search is told to stop"
        );
        // The search still holds the slot: its flag is not handed out again yet.
        assert!(slots.free.lock().unwrap().is_empty());
        drop(slot);
        assert_eq!(slots.running(), 0);
        let (running, slot) = block_on(slots.acquire()).unwrap();
        assert!(
            !slot.flag().load(Ordering::SeqCst),
            "a new search starts lowered"
        );
        running.finish();
        assert!(
            !slot.flag().load(Ordering::SeqCst),
            "a finished search stops nothing"
        );
    }

    #[test]
    fn closing_stops_every_search_and_refuses_new_ones() {
        let slots = Slots::new(2);
        let (_running, slot) = block_on(slots.acquire()).unwrap();
        slots.close();
        assert!(slot.flag().load(Ordering::SeqCst));
        assert_eq!(block_on(slots.acquire()).err(), Some(NoSlot::Closed));
    }
}
