//! Python states as compact byte keys, and the set of keys a sweep has met ([`KeySet`]).
//!
//! Why: a sweep of a Python-defined puzzle ([`sweep`](super::sweep)) meets each state once per
//! move that reaches it; a plain Python BFS hashes each of those tuples with Python's `hash`
//! (every element, every time: a tuple does not keep its hash), looks it up in a dict of Python
//! objects, and keeps every state it found as a Python object. Here a state that is an exact
//! `int`, `str`, `bytes` or flat `tuple` of `int`s is written as a few bytes ([`encode`]: a tuple
//! of 10 small ints is 11 bytes), hashed and compared in Rust, and kept only as those bytes:
//! [`decode`] makes the Python object again when its successors are asked for, equal to the one
//! the user made (the same type and value), so nothing else needs keeping.
//!
//! Two states have equal keys exactly when Python finds them equal: a key holds its kind (int,
//! str, bytes, tuple) and, for ints, the width of its numbers (the least that holds them all, so
//! the same value always has the same key), and only exact types are encoded (not `bool`,
//! `float`, a tuple subclass, an int past 64 bits), whose equality is by value within a kind.
//! A state of any other kind has no key (`encode` says so), and the sweep then falls back to
//! Python's own hashing.

use crate::capi;
use pyo3::IntoPyObject;
use pyo3::ffi;
use pyo3::prelude::*;
use std::os::raw::c_int;
use std::sync::OnceLock;

/// The kind byte that opens a key: the high bits say what the state is; for ints and tuples,
/// the low bits are the width of each number (1, 2, 4 or 8 bytes, little-endian).
const INT: u8 = 0x10;
const TUPLE: u8 = 0x20;
const STR: u8 = 0x30;
const BYTES: u8 = 0x40;

/// The least width of 1, 2, 4, 8 bytes that holds every number from `min` to `max` (signed).
fn width(min: i64, max: i64) -> u8 {
    if min >= i8::MIN as i64 && max <= i8::MAX as i64 {
        1
    } else if min >= i16::MIN as i64 && max <= i16::MAX as i64 {
        2
    } else if min >= i32::MIN as i64 && max <= i32::MAX as i64 {
        4
    } else {
        8
    }
}

/// Python's own objects for the ints -5 to 256 (CPython keeps one of each, and every small int
/// it makes is that one), when they lie one after another in memory at a fixed stride, as in
/// CPython 3.11 and later: where the first is and the stride (a power of two: its log). Then the value of an item that
/// is one of them is read from its address alone ([`small_int`]), with no call into Python.
/// Found once ([`SmallInts::new`]); `None` where they are not laid out so (every int is then
/// read by Python's `PyLong_AsLongLongAndOverflow`, with the same answers).
static SINGLETONS: OnceLock<Option<(usize, usize)>> = OnceLock::new();

/// The smallest and the largest of CPython's cached ints.
const CACHED: (i64, i64) = (-5, 256);

/// Where CPython's cached ints are, if they are one after another at a fixed stride.
fn find_singletons(py: Python<'_>) -> Option<(usize, usize)> {
    let address = |v: i64| -> usize {
        let int = v.into_pyobject(py).unwrap_or_else(|e| match e {});
        int.as_ptr() as usize
    };
    let base = address(CACHED.0);
    let stride = address(CACHED.0 + 1).checked_sub(base)?;
    let evenly =
        (CACHED.0..=CACHED.1).all(|v| address(v) == base + (v - CACHED.0) as usize * stride);
    // The same object each time, as well.
    let shift = stride.trailing_zeros() as usize;
    (stride.is_power_of_two() && evenly && address(CACHED.0) == base).then_some((base, shift))
}

/// The value of `item` when it is an exact int within 64 bits.
///
/// # Safety
/// `item` is a live object and the GIL is held.
#[inline]
unsafe fn small_int(item: *mut ffi::PyObject) -> Option<i64> {
    unsafe { int_value(item, singletons()) }
}

/// [`SINGLETONS`] when found.
#[inline]
fn singletons() -> Option<(usize, usize)> {
    SINGLETONS.get().copied().flatten()
}

/// [`small_int`], told where the cached ints are (read once for a whole tuple).
///
/// # Safety
/// As [`small_int`].
#[inline(always)]
unsafe fn int_value(item: *mut ffi::PyObject, singletons: Option<(usize, usize)>) -> Option<i64> {
    if let Some((base, shift)) = singletons {
        let offset = (item as usize).wrapping_sub(base);
        let (span, within) = (((CACHED.1 - CACHED.0) as usize) << shift, (1 << shift) - 1);
        if offset <= span && offset & within == 0 {
            return Some((offset >> shift) as i64 + CACHED.0);
        }
    }
    unsafe {
        if ffi::PyLong_CheckExact(item) == 0 {
            return None;
        }
        let mut overflow: c_int = 0;
        let value = ffi::PyLong_AsLongLongAndOverflow(item, &mut overflow);
        if overflow != 0 {
            return None;
        }
        if value == -1 && !ffi::PyErr_Occurred().is_null() {
            ffi::PyErr_Clear();
            return None;
        }
        Some(value)
    }
}

/// Writes the key of `state` to `out` (cleared first); false when the state has none (see the
/// module docs).
pub(crate) fn encode(state: &Bound<'_, PyAny>, out: &mut Vec<u8>) -> bool {
    out.clear();
    append(state, out)
}

/// [`encode`], the key appended to `out`; false (and `out` as it was) when the state has none.
#[inline]
pub(crate) fn append(state: &Bound<'_, PyAny>, out: &mut Vec<u8>) -> bool {
    let before = out.len();
    let ptr = state.as_ptr();
    // SAFETY: `state` is alive and the GIL is held (it is bound); items are read borrowed
    // while the tuple, alive, holds them; the str and bytes buffers are read while alive.
    let encoded = unsafe {
        if ffi::PyTuple_CheckExact(ptr) != 0 {
            append_tuple(ptr, out)
        } else if let Some(v) = small_int(ptr) {
            let w = width(v, v);
            out.push(INT | w);
            out.extend_from_slice(&v.to_le_bytes()[..w as usize]);
            true
        } else if ffi::PyUnicode_CheckExact(ptr) != 0 {
            out.push(STR);
            // Lone surrogates have no UTF-8: Python's hashing takes such a state.
            capi::append_utf8(ptr, out)
        } else if ffi::PyBytes_CheckExact(ptr) != 0 {
            let size = ffi::PyBytes_Size(ptr);
            let data = ffi::PyBytes_AsString(ptr);
            out.push(BYTES);
            out.extend_from_slice(std::slice::from_raw_parts(data as *const u8, size as usize));
            true
        } else {
            false
        }
    };
    if !encoded {
        out.truncate(before);
    }
    encoded
}

/// Appends the key of the exact tuple `tuple` when its items are all ints within 64 bits:
/// written a byte each first (the usual case), again wider when one needs it.
///
/// # Safety
/// `tuple` is a live exact tuple and the GIL is held.
#[inline]
unsafe fn append_tuple(tuple: *mut ffi::PyObject, out: &mut Vec<u8>) -> bool {
    unsafe {
        if let (Some(items), Some(singletons)) = (capi::tuple_items(tuple), singletons())
            && append_bytes_of_cached(items, singletons, out)
        {
            return true;
        }
        let n = capi::tuple_len(tuple);
        let start = out.len();
        out.reserve(n + 1);
        out.push(TUPLE | 1);
        let singletons = singletons();
        let (mut min, mut max) = (0i64, 0i64);
        let spare = &mut out.spare_capacity_mut()[..n];
        for (i, byte) in spare.iter_mut().enumerate() {
            let item = capi::tuple_item(tuple, i);
            let Some(v) = int_value(item, singletons) else {
                return false;
            };
            min = min.min(v);
            max = max.max(v);
            byte.write(v as u8);
        }
        // SAFETY: the n bytes after the kind were each written above.
        out.set_len(start + 1 + n);
        let w = width(min, max);
        if w > 1 {
            out.truncate(start);
            out.push(TUPLE | w);
            for i in 0..n {
                let v = small_int(capi::tuple_item(tuple, i)).expect("read above");
                out.extend_from_slice(&v.to_le_bytes()[..w as usize]);
            }
        }
        true
    }
}

/// The fast path of [`append_tuple`], for the usual state (a tuple of ints from -5 to 127:
/// CPython's own objects for them, one byte each): every item's value read from its address
/// with no branch per item (a test of them all at the end), so that the loop is a few
/// instructions an item. False, and `out` as it was, when an item is anything else (the caller
/// then takes the general path).
#[inline(always)]
fn append_bytes_of_cached(
    items: &[*mut ffi::PyObject],
    (base, shift): (usize, usize),
    out: &mut Vec<u8>,
) -> bool {
    // Offsets from the object of -5, in objects: 0 to 132 for -5 to 127 (the byte's range).
    const LAST: usize = (i8::MAX as i64 - CACHED.0) as usize;
    let start = out.len();
    out.push(TUPLE | 1);
    let (mut misaligned, mut highest) = (0usize, 0usize);
    out.extend(items.iter().map(|&item| {
        // An address below the first wraps around: far past the last.
        let offset = (item as usize).wrapping_sub(base);
        misaligned |= offset;
        highest = highest.max(offset);
        ((offset >> shift) as i64 + CACHED.0) as u8
    }));
    if misaligned & ((1 << shift) - 1) != 0 || highest > LAST << shift {
        out.truncate(start);
        return false;
    }
    true
}

/// Whether two keys are equal: those of at most 16 bytes compared as two words each (no call).
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if (8..=16).contains(&n) {
        let word = |k: &[u8], at: usize| u64::from_le_bytes(k[at..at + 8].try_into().expect("8"));
        word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8)
    } else {
        a == b
    }
}

/// The number of width `w` at the start of `bytes`, sign-extended.
fn number(bytes: &[u8], w: usize) -> i64 {
    let mut buf = [0u8; 8];
    buf[..w].copy_from_slice(&bytes[..w]);
    let shift = 64 - 8 * w as u32;
    (i64::from_le_bytes(buf) << shift) >> shift
}

/// The ints -128 to 127, made once for a sweep: [`decode`] puts them in the tuples it makes
/// (a reference each) rather than asking Python for each.
pub(crate) struct SmallInts(Vec<Py<PyAny>>);

impl SmallInts {
    pub(crate) fn new(py: Python<'_>) -> SmallInts {
        SINGLETONS.get_or_init(|| find_singletons(py));
        crate::capi::check_layout(py);
        let int = |v: i64| {
            v.into_pyobject(py)
                .map_or_else(|e| match e {}, |i| i.into_any())
        };
        SmallInts((-128i64..=127).map(|v| int(v).unbind()).collect())
    }
}

/// The Python object a key was made from (a new one, equal to it: [`encode`]'s inverse).
pub(crate) fn decode<'py>(
    py: Python<'py>,
    key: &[u8],
    small: &SmallInts,
) -> PyResult<Bound<'py, PyAny>> {
    let (kind, body) = (key[0], &key[1..]);
    // SAFETY: the GIL is held (`py`); every pointer made here is checked for null (an error
    // set) before use and owned by the Bound that takes it; a new tuple's items are each set
    // once, with a reference the tuple takes over (a new one, or one more of a small int's).
    unsafe {
        let ptr = match kind & 0xf0 {
            INT => ffi::PyLong_FromLongLong(number(body, (kind & 0x0f) as usize)),
            TUPLE => {
                let w = (kind & 0x0f) as usize;
                let n = body.len() / w;
                let tuple = ffi::PyTuple_New(n as ffi::Py_ssize_t);
                if tuple.is_null() {
                    return Err(PyErr::fetch(py));
                }
                let tuple = Bound::from_owned_ptr(py, tuple);
                if w == 1 {
                    for (i, &b) in body.iter().enumerate() {
                        let item = small.0[(b as i8 as i16 + 128) as usize].as_ptr();
                        ffi::Py_INCREF(item);
                        capi::tuple_set(tuple.as_ptr(), i, item);
                    }
                    return Ok(tuple);
                }
                for i in 0..n {
                    let item = ffi::PyLong_FromLongLong(number(&body[i * w..], w));
                    if item.is_null() {
                        return Err(PyErr::fetch(py));
                    }
                    capi::tuple_set(tuple.as_ptr(), i, item);
                }
                return Ok(tuple);
            }
            STR => ffi::PyUnicode_FromStringAndSize(
                body.as_ptr() as *const _,
                body.len() as ffi::Py_ssize_t,
            ),
            BYTES => ffi::PyBytes_FromStringAndSize(
                body.as_ptr() as *const _,
                body.len() as ffi::Py_ssize_t,
            ),
            _ => unreachable!("keys are made by encode"),
        };
        Bound::from_owned_ptr_or_err(py, ptr)
    }
}

/// Asks the processor to bring the cache line of `at` in (a hint: no fault, no effect on
/// results).
#[inline(always)]
fn prefetch(at: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and cannot fault, whatever the address.
    #[allow(unused_unsafe)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(at as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// A 64-bit hash of `key`: eight bytes at a time, multiplied and rotated, then mixed (the
/// finalizer of MurmurHash3), so that the top bits, which pick the slot, depend on every byte.
#[inline]
pub(crate) fn hash(key: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = key.len() as u64;
    let mut chunks = key.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        h = (h ^ word).wrapping_mul(K).rotate_left(29);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut buf = [0u8; 8];
        buf[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(buf))
            .wrapping_mul(K)
            .rotate_left(29);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The keys met, each with an id (0, 1, 2, ... in the order they were first inserted): the
/// bytes of every key one after the other, and an open-addressed table of ids.
///
/// A slot is a `u64`: the key's id plus one in the low half (0: empty), the hash's top 32 bits
/// in the high half, so that a probe compares keys only when those bits agree, and growing
/// rehashes nothing (while the table has at most 2^32 slots). At most 3/4 full.
///
/// While every key has the same length (the usual case: a puzzle's states are tuples of one
/// length) key `i` is at `i * width`; the first key of another length adds the ends of every
/// key (8 bytes each).
#[derive(Default)]
pub(crate) struct KeySet {
    bytes: Vec<u8>,
    /// The common length of every key, while they have one (0 before the first).
    width: usize,
    /// Where each key ends in `bytes`, once their lengths differ (else empty).
    ends: Vec<u64>,
    slots: Vec<u64>,
    len: usize,
}

/// The most keys a [`KeySet`] holds: ids are `u32`, one kept free.
pub(crate) const MOST_KEYS: usize = u32::MAX as usize - 1;

impl KeySet {
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The key of id `id`.
    pub(crate) fn key(&self, id: u32) -> &[u8] {
        let i = id as usize;
        if self.ends.is_empty() {
            &self.bytes[i * self.width..(i + 1) * self.width]
        } else {
            let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
            &self.bytes[start..self.ends[i] as usize]
        }
    }

    /// The bytes the set would hold once `count` more keys of `len` bytes in all are inserted,
    /// if that makes any of its parts grow (what the memory budget is checked against before an
    /// insert; `count` 1 for one key).
    pub(crate) fn bytes_after_insert(&self, count: usize, len: usize) -> u128 {
        let grown = |cap: usize, used: usize, more: usize| -> usize {
            if used + more > cap {
                (2 * cap).max(used + more)
            } else {
                cap
            }
        };
        let bytes = grown(self.bytes.capacity(), self.bytes.len(), len);
        let same_width = len == count * self.width || self.len == 0;
        let ends = if self.ends.is_empty() && same_width {
            0
        } else if self.ends.is_empty() {
            self.len + count
        } else {
            grown(self.ends.capacity(), self.ends.len(), count)
        };
        (bytes + 8 * ends + 8 * self.slots_for(self.len + count)) as u128
    }

    /// The slots a table holding `keys` keys has: the current number, doubled until at most 3/4
    /// full (16 at least).
    fn slots_for(&self, keys: usize) -> usize {
        let mut slots = self.slots.len().max(16);
        while keys * 4 > slots * 3 {
            slots *= 2;
        }
        slots
    }

    /// Makes room for `count` more keys without the table growing (so that prefetched slots
    /// stay where they are).
    pub(crate) fn reserve(&mut self, count: usize) {
        let slots = self.slots_for(self.len + count);
        while self.slots.len() < slots {
            self.grow();
        }
    }

    /// Asks the processor for the slot where `key` (hash `h`) is looked for first: a sweep
    /// issues this for a batch of keys before inserting them, so that their cache misses
    /// overlap rather than follow one another.
    #[inline]
    pub(crate) fn prefetch_slot(&self, h: u64) {
        if let Some(slot) = self.slots.get(self.home(h)) {
            prefetch(slot as *const u64 as *const u8);
        }
    }

    /// Asks the processor for the bytes of the key in the first slot whose tag is `h`'s (the
    /// key `h` is most likely equal to), once its slot is in the cache.
    #[inline]
    pub(crate) fn prefetch_key(&self, h: u64) {
        if self.slots.is_empty() {
            return;
        }
        let (tag, mask) = (h >> 32, self.slots.len() - 1);
        let mut at = self.home(h);
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                return;
            }
            if slot >> 32 == tag {
                let id = (slot as u32 - 1) as usize;
                let start = match self.ends.is_empty() {
                    true => id * self.width,
                    false => id.checked_sub(1).map_or(0, |i| self.ends[i] as usize),
                };
                if let Some(byte) = self.bytes.get(start) {
                    prefetch(byte);
                }
                return;
            }
            at = (at + 1) & mask;
        }
    }

    /// The slot a key of hash `h` is looked for first.
    #[inline]
    fn home(&self, h: u64) -> usize {
        (h >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    fn needs_growth(&self) -> bool {
        (self.len + 1) * 4 > self.slots.len() * 3
    }

    /// Where `key` of hash `h` is (`Ok`, its slot) or would go (`Err`, an empty slot).
    #[inline]
    fn find(&self, key: &[u8], h: u64) -> Result<usize, usize> {
        let tag = h >> 32;
        let mask = self.slots.len() - 1;
        let mut at = self.home(h);
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                return Err(at);
            }
            if slot >> 32 == tag && same(self.key((slot as u32) - 1), key) {
                return Ok(at);
            }
            at = (at + 1) & mask;
        }
    }

    /// Whether `key` is in.
    pub(crate) fn contains(&self, key: &[u8]) -> bool {
        !self.slots.is_empty() && self.find(key, hash(key)).is_ok()
    }

    /// Inserts `key`: its new id, or `None` when it was in already.
    #[inline]
    pub(crate) fn insert(&mut self, key: &[u8]) -> Option<u32> {
        self.insert_hashed(key, hash(key))
    }

    /// [`insert`](Self::insert) of a key whose hash is `h` (`hash(key)`).
    #[inline]
    pub(crate) fn insert_hashed(&mut self, key: &[u8], h: u64) -> Option<u32> {
        if self.needs_growth() {
            self.grow();
        }
        let Err(at) = self.find(key, h) else {
            return None;
        };
        let id = self.len as u32;
        self.push_key(key);
        self.slots[at] = ((h >> 32) << 32) | (id as u64 + 1);
        self.len += 1;
        Some(id)
    }

    fn push_key(&mut self, key: &[u8]) {
        if self.ends.is_empty() {
            if self.len == 0 {
                self.width = key.len();
            } else if key.len() != self.width {
                // Lengths differ from now on: record where each key ends.
                self.ends = (1..=self.len as u64)
                    .map(|i| i * self.width as u64)
                    .collect();
            }
        }
        self.bytes.extend_from_slice(key);
        if !self.ends.is_empty() {
            self.ends.push(self.bytes.len() as u64);
        }
    }

    /// Doubles the table (16 slots at first), placing each id again.
    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(16);
        let bits = size.trailing_zeros();
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        let mask = size - 1;
        for slot in old.into_iter().filter(|&s| s != 0) {
            // The slot keeps the hash's top 32 bits: enough to place it while the table has at
            // most 2^32 slots; past that the key is hashed again.
            let top = if bits <= 32 {
                (slot >> 32) << 32
            } else {
                hash(self.key((slot as u32) - 1))
            };
            let mut at = (top >> (64 - bits)) as usize;
            while self.slots[at] != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = slot;
        }
    }
}
