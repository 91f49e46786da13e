//! Zero-copy UTF-8 of a Python `str` (the one place with `unsafe` in this crate).
//!
//! `PyUnicode_AsUTF8AndSize` returns the string's UTF-8 form, cached inside the `str` object
//! (for an ASCII string, its own storage): no allocation, no copy. It is in the limited API from
//! 3.10; CPython 3.9 exports it too, so the abi3-py39 wheel declares it here (pyo3-ffi leaves it
//! out of the 3.9 limited API). A Windows build would link against python3.dll, which lacks it
//! before 3.10: such a build must use `abi3-py310` (docs/decisions.md#python).
#![allow(unsafe_code)]

use std::os::raw::c_char;

use pyo3::ffi::{PyObject, Py_ssize_t};
use pyo3::prelude::*;
use pyo3::types::PyString;

extern "C" {
    fn PyUnicode_AsUTF8AndSize(unicode: *mut PyObject, size: *mut Py_ssize_t) -> *const c_char;
}

/// The UTF-8 bytes of `s`, borrowed for `'py`, or `None` when `s` holds a lone surrogate (the
/// Python error is cleared).
///
/// # Safety
/// The returned `&str` lives as long as the `str` object, not as long as `'py` says. The caller
/// must keep the object alive and unchanged (a `str` is immutable; its container must not drop
/// it) for as long as it uses the result: in practice, hold the GIL, run no Python code, and drop
/// the borrowed value before either. [`crate::convert`] does exactly this and copies the strings
/// ([`ekl_core::Value::into_owned`]) before it releases the GIL.
pub(crate) unsafe fn utf8<'py>(s: &Bound<'py, PyString>) -> Option<&'py str> {
    let mut size: Py_ssize_t = 0;
    // SAFETY: `s` is a valid str object and the GIL is held (we have a `Bound<'py, _>`).
    let data = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
    if data.is_null() {
        drop(PyErr::take(s.py()));
        return None;
    }
    let len = usize::try_from(size).ok()?;
    // SAFETY: CPython guarantees `data` points at `size` bytes of valid UTF-8 that stay valid as
    // long as the object lives (see the contract above for how long that is).
    Some(unsafe {
        std::str::from_utf8_unchecked(std::slice::from_raw_parts(data.cast::<u8>(), len))
    })
}
