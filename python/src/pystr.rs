//! Zero-copy UTF-8 of a Python `str` (the one place with `unsafe` in this crate).
//!
//! `PyUnicode_AsUTF8AndSize` returns the string's UTF-8 form, cached inside the `str` object
//! (for an ASCII string, its own storage): no allocation, no copy. It is in the limited API from
//! 3.10; CPython 3.9 exports it too, so the abi3-py39 wheel declares it here (pyo3-ffi leaves it
//! out of the 3.9 limited API). A Windows build links against python3.dll, which lacks it before
//! 3.10: there, unless built with the `abi3-py310` feature, the text is copied once into a
//! `bytes` object (`PyUnicode_AsUTF8String`, limited API since 3.2), which the caller keeps alive
//! instead of the `str` (docs/decisions.md#packaging).
#![allow(unsafe_code)]

#[cfg(not(all(windows, not(feature = "abi3-py310"))))]
use pyo3::ffi::{PyObject, Py_ssize_t};
use pyo3::prelude::*;
use pyo3::types::PyString;
#[cfg(not(all(windows, not(feature = "abi3-py310"))))]
use std::os::raw::c_char;

#[cfg(not(all(windows, not(feature = "abi3-py310"))))]
extern "C" {
    fn PyUnicode_AsUTF8AndSize(unicode: *mut PyObject, size: *mut Py_ssize_t) -> *const c_char;
}

/// The UTF-8 bytes of `s`, borrowed for `'py`, or `None` when `s` holds a lone surrogate (the
/// Python error is cleared). The object the bytes live in (`s` itself, or on Windows below 3.10
/// a `bytes` copy) is pushed onto `keep`.
///
/// # Safety
/// The returned `&str` lives as long as the object pushed onto `keep`, not as long as `'py`
/// says. The caller must keep `keep` alive (its objects are immutable) for as long as it uses the
/// result: drop the borrowed value before `keep`. [`crate::convert`] does exactly this and copies
/// the strings ([`ekl_core::Value::into_owned`]) where a value must outlive the call.
#[cfg(not(all(windows, not(feature = "abi3-py310"))))]
pub(crate) unsafe fn utf8<'py>(
    s: &Bound<'py, PyString>,
    keep: &mut Vec<Bound<'py, PyAny>>,
) -> Option<&'py str> {
    let mut size: Py_ssize_t = 0;
    // SAFETY: `s` is a valid str object and the GIL is held (we have a `Bound<'py, _>`).
    let data = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
    if data.is_null() {
        drop(PyErr::take(s.py()));
        return None;
    }
    let len = usize::try_from(size).ok()?;
    keep.push(s.clone().into_any());
    // SAFETY: CPython guarantees `data` points at `size` bytes of valid UTF-8 that stay valid as
    // long as the object lives (see the contract above for how long that is).
    Some(unsafe {
        std::str::from_utf8_unchecked(std::slice::from_raw_parts(data.cast::<u8>(), len))
    })
}

/// [`utf8`] for Windows below 3.10: one copy into a `bytes` object, which `keep` holds.
///
/// # Safety
/// As for the zero-copy [`utf8`]: the result lives as long as the `bytes` pushed onto `keep`.
#[cfg(all(windows, not(feature = "abi3-py310")))]
pub(crate) unsafe fn utf8<'py>(
    s: &Bound<'py, PyString>,
    keep: &mut Vec<Bound<'py, PyAny>>,
) -> Option<&'py str> {
    let Ok(bytes) = s.encode_utf8() else {
        return None;
    };
    let (data, len) = {
        let b: &[u8] = bytes.as_bytes();
        (b.as_ptr(), b.len())
    };
    keep.push(bytes.into_any());
    // SAFETY: a `bytes` object's storage is immutable and lives as long as the object, which
    // `keep` holds (see the contract above); CPython wrote valid UTF-8 into it.
    Some(unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(data, len)) })
}
