//! `explore` of a Python-defined puzzle: a breadth-first sweep, layer by layer, from the start
//! (or from every goal at once), its states kept as compact keys in Rust (issue 44, item 4).
//!
//! Why not the engines' [`forward_hashed`](statespace::search::layers::forward_hashed) over the
//! adapter ([`Defined`]), as before: the adapter interns every state met in a Python dict (Python's
//! hash of the whole tuple, twice for a new one) and keeps every state's object, its successor
//! pairs and its answers, so the library did more per state than a plain Python BFS (a dict and a
//! deque): 1.2 to 1.4 times its CPU and 1.4 to 1.9 times its memory on pancakes and the 8-puzzle
//! (`python/bench/sweep_vs_bfs.py`). A sweep needs none of that: it asks each state's successors
//! once, and only needs to know which states it has met.
//!
//! So, per successor, the state is written as a few bytes ([`keys::encode`]: an exact int, str,
//! bytes or flat tuple of ints), hashed and looked up in Rust ([`KeySet`]), and dropped (the user's
//! list of pairs is freed as a whole); no Python object is kept per state met. The layers are
//! ranges of ids (ids are given in the order states are found, so layer `d + 1` is the ids found
//! while expanding layer `d`), and each state is made again from its key ([`keys::decode`]) when its
//! successors are asked for. The callbacks are called in batches of [`BATCH`] states under one
//! hold of the GIL, each through one vectorcall.
//!
//! What the library adds per successor to the user's `successors` is: reading the pair,
//! encoding the state (an int from -5 to 256 is read from its address alone: CPython keeps one
//! object for each, one after another), a hash, and one look-up. The look-ups are made
//! [`PENDING`] successors at a time, after their slots and then their keys were asked of the
//! processor (`prefetch`): in a table of millions of keys each look-up is a cache miss or two,
//! and these then overlap. Per state: a tuple made from its key (its items from
//! [`SmallInts`]) and one call. Measured against a plain BFS over the same `successors` (a
//! `deque` and a `dict`, `python/bench/sweep_vs_bfs.py`, the abi3 wheel): 0.28 to 0.43 times
//! its CPU on pancakes (9 and 10) and burnt pancakes (7 and 8), 0.46 on the 8-puzzle
//! (whose `successors`, a generator copying the board, is alone 0.35 to 0.44 times that BFS's
//! CPU), and 0.15 to 0.38 times its peak memory (BENCHMARKS.md, "From Python").
//!
//! A puzzle may declare `key(state)`: a key (int, str, bytes, tuple of ints) that identifies the
//! state; its states are then kept as Python objects in the two layers in progress only, and the
//! keys in Rust. A state (or key) with no encoding (a frozenset, a tuple holding a float, an int
//! past 64 bits) makes the sweep fall back to Python's own hashing, at once and for the rest of
//! the run ([`Sweep::fall_back`]): the states met so far are made again into a Python set, and the
//! layers into lists of objects; the answer is the same, only slower.
//!
//! What holds as in every sweep ([`forward_hashed`](statespace::search::layers::forward_hashed),
//! whose answers this one gives exactly: the same histogram, farthest state, stats and limits):
//! `max_states` is checked after each layer, `max_depth` stops at the first state past it (a
//! sweep that ends exactly there is complete), the memory budget is checked before each insert
//! (the key set and the layers, not the user's objects), the time limit and Ctrl-C before each
//! callback (through the adapter: [`Defined::may_call`]), and an exception in a callback stops
//! the run and is raised again as itself.

use super::keys::{self, KeySet, MOST_KEYS, SmallInts};
use super::*;
use crate::capi;
use pyo3::Borrowed;
use pyo3::ffi;
use pyo3::types::PySet;

/// States expanded under one hold of the GIL (the waiting thread takes it between batches, or
/// from a callback at the interpreter's switch interval). At 256 the hand-overs of the GIL cost the
/// 8-puzzle's sweep a tenth of its time in the kernel (futex wake-ups, by `perf`); at 4,096 none shows.
const BATCH: usize = 4096;

/// Bytes a state held by Python's own hashing costs the budget: a set entry (16 bytes, the set
/// at most 60 % full, doubling) and a pointer in a layer's list.
const PYTHON_BYTES_PER_STATE: u128 = 64;

/// The states met: keys in Rust, or (after a fall back) a Python set.
enum Seen {
    Keys(KeySet),
    Python(Py<PySet>),
}

/// A layer of states: ids of the key set (each state made again from its key) or the objects.
enum Layer {
    /// Ids `first..end`.
    Ids(u32, u32),
    Objects(Vec<Py<PyAny>>),
}

impl Layer {
    fn len(&self) -> usize {
        match self {
            Layer::Ids(first, end) => (end - first) as usize,
            Layer::Objects(objects) => objects.len(),
        }
    }
}

/// Why the sweep stopped in a layer.
enum Stop {
    /// One of the sweep's own limits (depth, memory).
    Limit(Limit),
    /// The adapter was stopped (time, Ctrl-C, an exception): its reason is the answer's.
    Adapter,
}

/// What a sweep found: the layers (`farthest` is `Some(0)` when there is a farthest state:
/// `farthest_state`) and that state.
pub(crate) struct Swept {
    pub(crate) layers: Layers<u32>,
    pub(crate) farthest_state: Option<Py<PyAny>>,
}

/// The sweep's working state (see the module docs).
struct Sweep<'a> {
    space: &'a Defined,
    /// The user's `key(state)`, if the class has one.
    key_hook: Option<Py<PyAny>>,
    seen: Seen,
    /// A scratch buffer for a key.
    key: Vec<u8>,
    /// The ints a byte holds, for [`keys::decode`].
    small: SmallInts,
    /// The most bytes the memory budget was checked against.
    peak: u128,
    /// Successors' keys met but not inserted yet (see [`Sweep::flush`]).
    pending: Pending,
}

/// Keys waiting to be inserted, in the order met: their bytes one after the other, and each
/// one's end and hash.
#[derive(Default)]
struct Pending {
    bytes: Vec<u8>,
    keys: Vec<(usize, u64)>,
}

/// Keys gathered before a [`Sweep::flush`]: enough that their cache misses overlap.
const PENDING: usize = 64;

impl Sweep<'_> {
    /// Whether layers are ids: states are their own keys, kept in Rust.
    fn by_ids(&self) -> bool {
        self.key_hook.is_none() && matches!(self.seen, Seen::Keys(_))
    }

    /// State `i` of `layer`.
    fn state<'py>(&self, py: Python<'py>, layer: &Layer, i: usize) -> PyResult<Bound<'py, PyAny>> {
        match (layer, &self.seen) {
            (Layer::Ids(first, _), Seen::Keys(set)) => {
                keys::decode(py, set.key(first + i as u32), &self.small)
            }
            (Layer::Objects(objects), _) => Ok(objects[i].bind(py).clone()),
            (Layer::Ids(..), Seen::Python(_)) => unreachable!("ids only while keys are kept"),
        }
    }

    /// What identifies `state`: itself, or the user's `key(state)`.
    fn identity<'py>(&self, state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        match &self.key_hook {
            Some(key) => key.bind(state.py()).call1((state,)),
            None => Ok(state.clone()),
        }
    }

    /// Inserts `state` (whose identity is `id`) if it is new, checking the memory budget first
    /// (`layers` bytes beside the set): whether it was new. `next` takes it when it was.
    fn insert(
        &mut self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        id: &Bound<'_, PyAny>,
        next: &mut Layer,
        layers: u128,
        current: &mut Layer,
    ) -> Result<bool, Stop> {
        if let Seen::Keys(_) = self.seen
            && !keys::encode(id, &mut self.key)
        {
            self.fall_back(py, current, next)
                .map_err(|e| self.raised(e))?;
        }
        let (needed, set_len) = match &self.seen {
            Seen::Keys(set) => (set.bytes_after_insert(1, self.key.len()), set.len()),
            Seen::Python(set) => {
                let n = set.bind(py).len();
                ((n as u128 + 1) * PYTHON_BYTES_PER_STATE, n)
            }
        };
        let needed = needed + layers;
        self.peak = self.peak.max(needed);
        self.space
            .limits
            .check_memory(needed)
            .map_err(Stop::Limit)?;
        if set_len >= MOST_KEYS {
            let error = PyOverflowError::new_err("more than 2^32 - 2 states");
            return Err(self.raised(error));
        }
        match &mut self.seen {
            Seen::Keys(set) => match set.insert(&self.key) {
                Some(new) => {
                    match next {
                        Layer::Ids(_, end) => {
                            debug_assert_eq!(*end, new);
                            *end = new + 1;
                        }
                        Layer::Objects(objects) => objects.push(state.clone().unbind()),
                    }
                    Ok(true)
                }
                None => Ok(false),
            },
            Seen::Python(set) => {
                let set = set.bind(py);
                let before = set.len();
                let space = self.space;
                set.add(id).map_err(|e| {
                    space.stop(Stopped::Raised(e));
                    Stop::Adapter
                })?;
                let new = set.len() > before;
                if new && let Layer::Objects(objects) = next {
                    objects.push(state.clone().unbind());
                }
                Ok(new)
            }
        }
    }

    /// Adds `state`'s key to the keys pending (layers of ids only), false when it has none.
    fn push_pending(&mut self, state: &Bound<'_, PyAny>) -> bool {
        let pending = &mut self.pending;
        let start = pending.bytes.len();
        if !keys::append(state, &mut pending.bytes) {
            return false;
        }
        let h = keys::hash(&pending.bytes[start..]);
        pending.keys.push((pending.bytes.len(), h));
        true
    }

    /// Inserts the keys pending, in the order they were met, each checked against the memory
    /// budget first as [`insert`](Self::insert) does (`layers` bytes beside the set); the new
    /// ones are the next ids of `next`. Before, while the budget allows, the table makes room
    /// for them all and their slots, then their keys, are asked of the processor at once: a
    /// key looked up costs one cache miss or two in a large table, and these overlap.
    fn flush(&mut self, next: &mut Layer, layers: u128) -> Result<(), Stop> {
        let pending = &mut self.pending;
        let count = pending.keys.len();
        if count == 0 {
            return Ok(());
        }
        let Seen::Keys(set) = &mut self.seen else {
            unreachable!("keys are pending only while kept in Rust");
        };
        // Within the budget with every key new: then so is each insert, and none is checked.
        let room = set.bytes_after_insert(count, pending.bytes.len()) + layers;
        let roomy = self.space.limits.check_memory(room).is_ok() && set.len() + count < MOST_KEYS;
        if roomy {
            self.peak = self.peak.max(room);
            set.reserve(count);
            for &(_, h) in &pending.keys {
                set.prefetch_slot(h);
            }
            for &(_, h) in &pending.keys {
                set.prefetch_key(h);
            }
        }
        let mut start = 0;
        let mut result = Ok(());
        for &(end, h) in &pending.keys {
            let key = &pending.bytes[start..end];
            start = end;
            if !roomy {
                let needed = set.bytes_after_insert(1, key.len()) + layers;
                self.peak = self.peak.max(needed);
                if let Err(limit) = self.space.limits.check_memory(needed) {
                    result = Err(Stop::Limit(limit));
                    break;
                }
            }
            if set.len() >= MOST_KEYS {
                self.space.stop(Stopped::Raised(PyOverflowError::new_err(
                    "more than 2^32 - 2 states",
                )));
                result = Err(Stop::Adapter);
                break;
            }
            if let Some(new) = set.insert_hashed(key, h)
                && let Layer::Ids(_, end) = next
            {
                *end = new + 1;
            }
        }
        pending.bytes.clear();
        pending.keys.clear();
        result
    }

    /// Whether `id` (a state's identity) was met (falling back to Python's hashing first when
    /// it has no key: an equal state met may have had one).
    fn contains(
        &mut self,
        py: Python<'_>,
        id: &Bound<'_, PyAny>,
        current: &mut Layer,
        next: &mut Layer,
    ) -> PyResult<bool> {
        if let Seen::Keys(_) = self.seen
            && !keys::encode(id, &mut self.key)
        {
            self.fall_back(py, current, next)?;
        }
        match &self.seen {
            Seen::Keys(set) => Ok(set.contains(&self.key)),
            Seen::Python(set) => set.bind(py).contains(id),
        }
    }

    /// Stops the run for a callback's exception.
    fn raised(&self, error: PyErr) -> Stop {
        self.space.stop(Stopped::Raised(error));
        Stop::Adapter
    }

    /// From keys in Rust to Python's hashing: every key met into a Python set (the states, or
    /// the user's keys), and layers of ids into lists of their states.
    fn fall_back(&mut self, py: Python<'_>, current: &mut Layer, next: &mut Layer) -> PyResult<()> {
        let Seen::Keys(set) = &self.seen else {
            return Ok(());
        };
        let python = PySet::empty(py)?;
        for id in 0..set.len() as u32 {
            python.add(keys::decode(py, set.key(id), &self.small)?)?;
        }
        for layer in [current, next] {
            if let Layer::Ids(first, end) = *layer {
                let objects = (first..end)
                    .map(|id| keys::decode(py, set.key(id), &self.small).map(Bound::unbind))
                    .collect::<PyResult<Vec<_>>>()?;
                *layer = Layer::Objects(objects);
            }
        }
        self.seen = Seen::Python(python.unbind());
        Ok(())
    }

    /// The bytes of the layers' lists (ids cost nothing: they are ranges).
    fn layer_bytes(current: &Layer, next: &Layer) -> u128 {
        let objects = |layer: &Layer| match layer {
            Layer::Ids(..) => 0,
            Layer::Objects(objects) => objects.capacity() as u128 * 8,
        };
        objects(current) + objects(next)
    }
}

/// The successors of `state` as the user's `successors(state)` gives them: calls `visit` with
/// each successor state, checking that each item is a `(move, state)` pair; `Ok(false)` when
/// `visit` asked to stop.
#[inline]
fn each_successor<'py>(
    space: &Defined,
    state: &Bound<'py, PyAny>,
    mut visit: impl FnMut(&Bound<'py, PyAny>) -> Result<bool, Stop>,
) -> Result<bool, Stop> {
    let py = state.py();
    let raised = |error: PyErr| {
        space.stop(Stopped::Raised(error));
        Stop::Adapter
    };
    let successors = space.callbacks.successors.bind(py);
    let answer = capi::call_one(successors, state).map_err(raised)?;
    let name = &space.callbacks.name;
    let not_a_pair = |pair: &Bound<'py, PyAny>| -> Stop {
        let error = (|| -> PyResult<PyErr> {
            Ok(PyTypeError::new_err(format!(
                "{name}.successors({}) yielded {}: not a (move, state) pair",
                state.repr()?,
                pair.repr()?
            )))
        })();
        raised(error.unwrap_or_else(|e| e))
    };
    // A pair's state, borrowed from the pair.
    let mut pair = |item: &Bound<'py, PyAny>| -> Result<bool, Stop> {
        let ptr = item.as_ptr();
        // SAFETY: `item` is alive and the GIL is held; its size is read once it is a tuple.
        // (An exact tuple is told by its type's address: no call, as the usual pair is.)
        let is_pair = unsafe { ffi::PyTuple_CheckExact(ptr) != 0 && capi::tuple_len(ptr) == 2 }
            || item.cast::<PyTuple>().is_ok_and(|tuple| tuple.len() == 2);
        if !is_pair {
            return Err(not_a_pair(item));
        }
        // SAFETY: index 1 of a live tuple (or subclass: the same layout) of 2; the GIL is held;
        // the pair holds it.
        let next = unsafe { Borrowed::from_ptr(py, capi::tuple_item(ptr, 1)) };
        visit(&next)
    };
    // A list or tuple is read in place; anything else is iterated.
    if let Ok(list) = answer.cast::<PyList>() {
        let mut i = 0;
        while i < list.len() {
            // SAFETY: `i` is below the list's length, read now (a callback may change it); the
            // GIL is held; the item is owned before any callback runs.
            let item =
                unsafe { Borrowed::from_ptr(py, capi::list_item(list.as_ptr(), i)) }.to_owned();
            if !pair(&item)? {
                return Ok(false);
            }
            i += 1;
        }
        return Ok(true);
    }
    if let Ok(tuple) = answer.cast::<PyTuple>() {
        for item in tuple.iter_borrowed() {
            if !pair(&item)? {
                return Ok(false);
            }
        }
        return Ok(true);
    }
    let Ok(items) = answer.try_iter() else {
        let error = (|| -> PyResult<PyErr> {
            Ok(PyTypeError::new_err(format!(
                "{name}.successors({}) returned {}: not an iterable of (move, state) pairs",
                state.repr()?,
                answer.repr()?
            )))
        })();
        return Err(raised(error.unwrap_or_else(|e| e)));
    };
    for item in items {
        let item = item.map_err(raised)?;
        if !pair(&item)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Sweeps from `sources` (depth 0; repeats count once) under the adapter's limits, calling
/// `on_layer(depth, states found)` after each layer (see the module docs).
pub(crate) fn sweep(
    space: &Defined,
    sources: Vec<Py<PyAny>>,
    key_hook: Option<Py<PyAny>>,
    on_layer: &mut dyn FnMut(u32, u64),
) -> Swept {
    let started = Instant::now();
    let limits = &space.limits;
    let mut result = Layers {
        histogram: Vec::new(),
        farthest: None,
        stopped: None,
        stats: Stats::default(),
        threads: 1,
        memory_bytes: 0,
    };
    let mut stats = Stats::default();
    let mut sweep = Sweep {
        space,
        key_hook,
        seen: Seen::Keys(KeySet::default()),
        key: Vec::new(),
        small: Python::attach(SmallInts::new),
        peak: 0,
        pending: Pending::default(),
    };
    let mut farthest: Option<Py<PyAny>> = None;
    // Layer 0: the sources, each once.
    let mut current = match sweep.by_ids() {
        true => Layer::Ids(0, 0),
        false => Layer::Objects(Vec::new()),
    };
    let first = Python::attach(|py| -> Result<(), Stop> {
        let mut before = Layer::Objects(Vec::new());
        for source in &sources {
            let source = source.bind(py);
            let id = sweep.identity(source).map_err(|e| sweep.raised(e))?;
            sweep.insert(py, source, &id, &mut current, 0, &mut before)?;
        }
        Ok(())
    });
    let mut stopped = first.err();
    while stopped.is_none() {
        let size = current.len();
        result.histogram.push(size as u64);
        // (Replaced with the GIL held.)
        Python::attach(|py| {
            let first = (size > 0).then(|| sweep.state(py, &current, 0));
            farthest = first.and_then(Result::ok).map(Bound::unbind);
        });
        stats.visited += size as u64;
        stats.peak_frontier = stats.peak_frontier.max(size as u64);
        on_layer(stats.depth, stats.visited);
        if let Some(max) = limits.max_states
            && stats.visited > max
        {
            result.stopped = Some(Limit::States(max));
            break;
        }
        // At the depth limit the next layer is only asked whether it is empty (see
        // `forward_hashed`): the first new state stops the sweep, and nothing is stored.
        let last = limits.max_depth.is_some_and(|max| stats.depth >= max);
        let mut next = match &current {
            Layer::Ids(_, end) => Layer::Ids(*end, *end),
            Layer::Objects(_) => Layer::Objects(Vec::new()),
        };
        let mut generated = 0u64;
        let mut at = 0;
        while at < size && stopped.is_none() {
            let batch_end = (at + BATCH).min(size);
            stopped = Python::attach(|py| -> Result<(), Stop> {
                while at < batch_end {
                    if !space.may_call() {
                        return Err(Stop::Adapter);
                    }
                    let state = sweep.state(py, &current, at).map_err(|e| sweep.raised(e))?;
                    at += 1;
                    each_successor(space, &state, |successor| {
                        generated += 1;
                        // Layers of ids: the key waits to be inserted with others.
                        if !last && sweep.by_ids() {
                            if sweep.push_pending(successor) {
                                return Ok(true);
                            }
                            // No key: those pending go in first, in order; this one falls back.
                            let layers = Sweep::layer_bytes(&current, &next);
                            sweep.flush(&mut next, layers)?;
                        }
                        let id = sweep.identity(successor).map_err(|e| sweep.raised(e))?;
                        if last {
                            return match sweep.contains(py, &id, &mut current, &mut next) {
                                Ok(true) => Ok(true),
                                Ok(false) => Err(Stop::Limit(Limit::Depth(stats.depth))),
                                Err(e) => Err(sweep.raised(e)),
                            };
                        }
                        let layers = Sweep::layer_bytes(&current, &next);
                        sweep.insert(py, successor, &id, &mut next, layers, &mut current)?;
                        Ok(true)
                    })?;
                    if sweep.pending.keys.len() >= PENDING || at == batch_end {
                        let layers = Sweep::layer_bytes(&current, &next);
                        sweep.flush(&mut next, layers)?;
                    }
                }
                Ok(())
            })
            .err();
        }
        stats.generated += generated;
        if stopped.is_none() {
            stats.expanded += size as u64;
        }
        if stopped.is_some() || next.len() == 0 {
            // (States are let go of with the GIL held, here and below.)
            Python::attach(|_| drop(next));
            break;
        }
        // (A last layer stores nothing: a new state stopped it above.)
        Python::attach(|_| current = next);
        stats.depth += 1;
    }
    match stopped {
        Some(Stop::Limit(limit)) => result.stopped = Some(limit),
        // The adapter's reason replaces this (see `runs::explore`).
        Some(Stop::Adapter) => result.stopped = Some(Limit::Interrupted),
        None => {}
    }
    stats.elapsed = started.elapsed();
    result.stats = stats;
    result.memory_bytes = sweep.peak.min(u64::MAX as u128) as u64;
    result.farthest = farthest.as_ref().map(|_| 0);
    // Python's objects are let go of with the GIL held.
    Python::attach(|_| {
        drop(current);
        drop(sweep);
        drop(sources);
    });
    Swept {
        layers: result,
        farthest_state: farthest,
    }
}
