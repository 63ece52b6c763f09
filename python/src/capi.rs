//! The few CPython C-API calls whose fast form is not in the stable ABI, each in its two forms:
//! the macros that read an object's fields directly (a wheel built for one Python), and the
//! limited API's functions (the abi3 wheel, one for every Python >= 3.9, where those fields'
//! layout is not part of the ABI: a call each, with its checks).
//!
//! The choice is made when the crate is built (`Py_LIMITED_API`, set by pyo3's build config from
//! the feature `abi3`); every caller is the same either way. Only the sweep of a Python-defined
//! puzzle ([`keys`](crate::defined)) reads tuples and strings this way, per successor.

use pyo3::ffi;

/// The number of items of the tuple `tuple`.
///
/// # Safety
/// `tuple` is a live exact tuple and the GIL is held.
#[inline(always)]
pub(crate) unsafe fn tuple_len(tuple: *mut ffi::PyObject) -> usize {
    #[cfg(not(Py_LIMITED_API))]
    let n = unsafe { ffi::PyTuple_GET_SIZE(tuple) };
    #[cfg(Py_LIMITED_API)]
    let n = unsafe { ffi::PyTuple_Size(tuple) };
    n as usize
}

/// Item `i` of the tuple `tuple` (a borrowed reference).
///
/// # Safety
/// `tuple` is a live exact tuple, `i` below its length, and the GIL is held.
#[inline(always)]
pub(crate) unsafe fn tuple_item(tuple: *mut ffi::PyObject, i: usize) -> *mut ffi::PyObject {
    #[cfg(not(Py_LIMITED_API))]
    let item = unsafe { ffi::PyTuple_GET_ITEM(tuple, i as ffi::Py_ssize_t) };
    #[cfg(Py_LIMITED_API)]
    let item = unsafe { ffi::PyTuple_GetItem(tuple, i as ffi::Py_ssize_t) };
    item
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
    unsafe {
        // Fails only for a tuple that is not new or an index past its end (excluded above).
        ffi::PyTuple_SetItem(tuple, i as ffi::Py_ssize_t, item);
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
    let item = unsafe { ffi::PyList_GetItem(list, i as ffi::Py_ssize_t) };
    item
}
