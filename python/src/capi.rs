//! The few CPython C-API calls whose fast form is not in the stable ABI, each in its two forms:
//! the macros that read an object's fields directly (a wheel built for one Python), and the
//! limited API's functions (the abi3 wheel, one for every Python >= 3.9, where those fields'
//! layout is not part of the ABI: a call each, with its checks).
//!
//! The choice is made when the crate is built (`Py_LIMITED_API`, set by pyo3's build config from
//! the feature `abi3`); every caller is the same either way. Only the sweep of a Python-defined
//! puzzle ([`keys`](crate::defined)) reads tuples and strings this way, per successor.
//!
//! In the abi3 wheel a call per tuple item cost the sweep of the 8-puzzle a sixth of its time
//! (0.54 to 0.62 of a plain BFS's CPU against 0.48 for a wheel per Python). So the abi3 wheel,
//! too, reads a tuple's size and items, and a list's items, where CPython's own headers put them
//! (a tuple's size in its third word and its items from the fourth on; a list's item array at
//! its fourth word), once [`check_layout`] has found them there in a tuple and a list made for
//! the purpose: every CPython that loads an abi3 wheel lays them out so (the free-threaded
//! builds, which do not, load no abi3 wheel), and an interpreter that did not would be read
//! through the calls, with the same answers.

use pyo3::ffi;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether tuples and lists are laid out as CPython's headers say ([`check_layout`]).
static DIRECT: AtomicBool = AtomicBool::new(false);

/// The `i`-th word of the object at `object`.
///
/// # Safety
/// The object has at least `i + 1` words.
#[inline(always)]
unsafe fn word(object: *mut ffi::PyObject, i: usize) -> *mut *mut ffi::PyObject {
    unsafe { (object as *mut *mut ffi::PyObject).add(i) }
}

/// Finds once whether this interpreter's tuples and lists are laid out as CPython's headers say
/// (see the module docs); before, and where they are not, the calls are used.
pub(crate) fn check_layout(py: Python<'_>) {
    static CHECKED: std::sync::Once = std::sync::Once::new();
    CHECKED.call_once(|| {
        let items: Vec<Bound<'_, PyAny>> = [1_000_001i64, 1_000_002, 1_000_003]
            .iter()
            .map(|v| {
                v.into_pyobject(py)
                    .unwrap_or_else(|e| match e {})
                    .into_any()
            })
            .collect();
        let (Ok(tuple), Ok(list)) = (
            pyo3::types::PyTuple::new(py, &items),
            pyo3::types::PyList::new(py, &items),
        ) else {
            return;
        };
        // SAFETY: a tuple of 3 has its header (3 words) and 3 items; a list its header and its
        // item pointer; the items are read only where that pointer is non-null, 3 of them.
        let laid_out = unsafe {
            let (t, l) = (tuple.as_ptr(), list.as_ptr());
            let tuple_ok =
                *word(t, 2) as usize == 3 && (0..3).all(|i| *word(t, 3 + i) == items[i].as_ptr());
            let array = *word(l, 3) as *mut *mut ffi::PyObject;
            let list_ok = *word(l, 2) as usize == 3
                && !array.is_null()
                && (0..3).all(|i| *array.add(i) == items[i].as_ptr());
            tuple_ok && list_ok
        };
        DIRECT.store(laid_out, Ordering::Relaxed);
    });
}

/// The number of items of the tuple `tuple`.
///
/// # Safety
/// `tuple` is a live exact tuple and the GIL is held.
#[inline(always)]
pub(crate) unsafe fn tuple_len(tuple: *mut ffi::PyObject) -> usize {
    #[cfg(not(Py_LIMITED_API))]
    let n = unsafe { ffi::PyTuple_GET_SIZE(tuple) };
    #[cfg(Py_LIMITED_API)]
    let n = if DIRECT.load(Ordering::Relaxed) {
        // SAFETY: the layout was checked ([`check_layout`]): the size is the third word.
        unsafe { *word(tuple, 2) as ffi::Py_ssize_t }
    } else {
        unsafe { ffi::PyTuple_Size(tuple) }
    };
    n as usize
}

/// Item `i` of the tuple `tuple` (a borrowed reference).
///
/// # Safety
/// `tuple` is a live tuple (exact, or of a subclass: its items lie where a tuple's do), `i`
/// below its length, and the GIL is held.
#[inline(always)]
pub(crate) unsafe fn tuple_item(tuple: *mut ffi::PyObject, i: usize) -> *mut ffi::PyObject {
    #[cfg(not(Py_LIMITED_API))]
    let item = unsafe { ffi::PyTuple_GET_ITEM(tuple, i as ffi::Py_ssize_t) };
    #[cfg(Py_LIMITED_API)]
    let item = if DIRECT.load(Ordering::Relaxed) {
        // SAFETY: the layout was checked; `i` is below the size.
        unsafe { *word(tuple, 3 + i) }
    } else {
        unsafe { ffi::PyTuple_GetItem(tuple, i as ffi::Py_ssize_t) }
    };
    item
}

/// The items of the tuple `tuple` as one array, where they can be read so (always in a wheel
/// per Python; in the abi3 wheel once the layout was checked): the fast path of a key.
///
/// # Safety
/// `tuple` is a live exact tuple and the GIL is held; the slice lives while the tuple does, and
/// is read only while it is not changed (a tuple never is, once made).
#[inline(always)]
pub(crate) unsafe fn tuple_items<'a>(
    tuple: *mut ffi::PyObject,
) -> Option<&'a [*mut ffi::PyObject]> {
    #[cfg(Py_LIMITED_API)]
    if !DIRECT.load(Ordering::Relaxed) {
        return None;
    }
    // SAFETY: the items follow the size, from the fourth word on (the headers' layout, checked
    // under the limited API); `tuple_len` of them.
    unsafe {
        let n = tuple_len(tuple);
        Some(std::slice::from_raw_parts(word(tuple, 3) as *const _, n))
    }
}

/// Sets item `i` of the new tuple `tuple` to `item`, whose reference the tuple takes.
///
/// # Safety
/// `tuple` is a new tuple (no other reference to it yet), `i` below its length and not set yet,
/// `item` a live object with a reference for the tuple, and the GIL is held.
#[inline(always)]
pub(crate) unsafe fn tuple_set(tuple: *mut ffi::PyObject, i: usize, item: *mut ffi::PyObject) {
    #[cfg(not(Py_LIMITED_API))]
    unsafe {
        ffi::PyTuple_SET_ITEM(tuple, i as ffi::Py_ssize_t, item)
    };
    #[cfg(Py_LIMITED_API)]
    if DIRECT.load(Ordering::Relaxed) {
        // SAFETY: the layout was checked; the slot of a new tuple is empty (PyTuple_SET_ITEM).
        unsafe { *word(tuple, 3 + i) = item };
    } else {
        // Fails only for a tuple that is not new or an index past its end (excluded above).
        unsafe { ffi::PyTuple_SetItem(tuple, i as ffi::Py_ssize_t, item) };
    }
}

/// Appends the UTF-8 bytes of the exact str `text` to `out`; false (an exception cleared) when
/// it has none (lone surrogates).
///
/// # Safety
/// `text` is a live exact str and the GIL is held.
pub(crate) unsafe fn append_utf8(text: *mut ffi::PyObject, out: &mut Vec<u8>) -> bool {
    // Python's own UTF-8 copy, kept with the str: no new object (the limited API has it from
    // 3.10 on only).
    #[cfg(any(Py_3_10, not(Py_LIMITED_API)))]
    unsafe {
        let mut size: ffi::Py_ssize_t = 0;
        let data = ffi::PyUnicode_AsUTF8AndSize(text, &mut size);
        if data.is_null() {
            ffi::PyErr_Clear();
            return false;
        }
        out.extend_from_slice(std::slice::from_raw_parts(data as *const u8, size as usize));
        true
    }
    // A new bytes object each time.
    #[cfg(not(any(Py_3_10, not(Py_LIMITED_API))))]
    unsafe {
        let bytes = ffi::PyUnicode_AsUTF8String(text);
        if bytes.is_null() {
            ffi::PyErr_Clear();
            return false;
        }
        let size = ffi::PyBytes_Size(bytes);
        let data = ffi::PyBytes_AsString(bytes);
        out.extend_from_slice(std::slice::from_raw_parts(data as *const u8, size as usize));
        ffi::Py_DECREF(bytes);
        true
    }
}

/// Item `i` of the list `list` (a borrowed reference).
///
/// # Safety
/// `list` is a live list, `i` below its length, and the GIL is held.
#[inline(always)]
pub(crate) unsafe fn list_item(list: *mut ffi::PyObject, i: usize) -> *mut ffi::PyObject {
    #[cfg(not(Py_LIMITED_API))]
    let item = unsafe { ffi::PyList_GET_ITEM(list, i as ffi::Py_ssize_t) };
    #[cfg(Py_LIMITED_API)]
    let item = if DIRECT.load(Ordering::Relaxed) {
        // SAFETY: the layout was checked; `i` is below the list's size, read by the caller.
        unsafe { *(*word(list, 3) as *mut *mut ffi::PyObject).add(i) }
    } else {
        unsafe { ffi::PyList_GetItem(list, i as ffi::Py_ssize_t) }
    };
    item
}

/// `callable(arg)`, with one positional argument: `PyObject_CallOneArg` in a wheel per Python;
/// in the abi3 wheel the interpreter's own `PyObject_Vectorcall` where it exports one (CPython
/// 3.11 on, found once by name), else a call with an argument tuple made for it (which a
/// Python function then unpacks: some 5 % of the 8-puzzle's sweep).
#[inline]
pub(crate) fn call_one<'py>(
    callable: &Bound<'py, PyAny>,
    arg: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = callable.py();
    #[cfg(not(Py_LIMITED_API))]
    // SAFETY: the GIL is held (bound); both are alive; the answer is a new reference owned by
    // the Bound (or null with an exception set).
    unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyObject_CallOneArg(callable.as_ptr(), arg.as_ptr()),
        )
    }
    #[cfg(Py_LIMITED_API)]
    match vectorcall() {
        // SAFETY: the function is the interpreter's `PyObject_Vectorcall` (its documented
        // signature); the GIL is held; `args` holds one live object and no offset flag is set,
        // so nothing before it is written; the answer is a new reference (or null, an
        // exception set).
        Some(call) => unsafe {
            let args = [arg.as_ptr()];
            let answer = call(callable.as_ptr(), args.as_ptr(), 1, std::ptr::null_mut());
            Bound::from_owned_ptr_or_err(py, answer)
        },
        None => callable.call1((arg,)),
    }
}

/// `PyObject_Vectorcall`'s type.
#[cfg(Py_LIMITED_API)]
type Vectorcall = unsafe extern "C" fn(
    *mut ffi::PyObject,
    *const *mut ffi::PyObject,
    usize,
    *mut ffi::PyObject,
) -> *mut ffi::PyObject;

/// The interpreter's `PyObject_Vectorcall`, if it exports one (looked up once).
#[cfg(Py_LIMITED_API)]
fn vectorcall() -> Option<Vectorcall> {
    static FOUND: std::sync::OnceLock<Option<Vectorcall>> = std::sync::OnceLock::new();
    *FOUND.get_or_init(|| {
        #[cfg(unix)]
        {
            // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only reads; a non-null
            // answer is the address of the exported function of that name, whose signature is
            // the documented one above.
            let address =
                unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"PyObject_Vectorcall".as_ptr()) };
            (!address.is_null())
                .then(|| unsafe { std::mem::transmute::<*mut libc::c_void, Vectorcall>(address) })
        }
        #[cfg(not(unix))]
        None
    })
}
