//! `ekl_evidence._native`: the Python binding of `ekl-core` (issue 4).
//!
//! A thin layer: it converts Python values into [`ekl_core::Value`] (one strict conversion,
//! [`convert`]), calls the core, and maps every refusal to the one Python exception
//! `ekl_evidence.EklError(code, message)`. No rule of EKP lives here. Long work (large inputs,
//! batches) runs with the GIL released; a panic of the core is caught and raised as
//! `EklError("INTERNAL_ERROR", ...)`, never as `PanicException`.
//!
//! The public, documented API is the Python package `ekl_evidence` (python/ekl_evidence); this
//! module is private.
#![deny(unsafe_code)] // one exception: src/pystr.rs

mod convert;
mod evidence;
mod pystr;
mod signed;

use std::borrow::Cow;
use std::panic::{catch_unwind, AssertUnwindSafe};

use ekl_core::canonical::{self, Options};
use ekl_core::digest::{self, Salt};
use ekl_core::fingerprint as fp;
use ekl_core::limits;
use ekl_core::proof::{self, ProofKey};
use ekl_core::{ErrorCode, Value};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyMemoryView, PyString, PyType};

/// Inputs at least this large (bytes of text, or the conversion's size estimate) are processed
/// with the GIL released; below it the release costs more than it saves.
pub(crate) const DETACH_THRESHOLD: usize = 16 * 1024;

// ------------------------------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------------------------------

static EKL_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The `PyErr` for a core refusal: `ekl_evidence.EklError(code, message)`.
pub(crate) fn ekl_err(py: Python<'_>, code: ErrorCode, message: &str) -> PyErr {
    match EKL_ERROR.import(py, "ekl_evidence._errors", "EklError") {
        Ok(cls) => match cls.call1((code.as_str(), message)) {
            Ok(instance) => PyErr::from_value(instance),
            Err(e) => e,
        },
        Err(e) => e,
    }
}

pub(crate) fn core_err(py: Python<'_>, e: ekl_core::Error) -> PyErr {
    ekl_err(py, e.code(), e.message())
}

/// What came back from the core: its result, its refusal, or a caught panic.
enum Outcome<T> {
    Done(ekl_core::Result<T>),
    Panicked,
}

/// Runs core work, catching any panic (the core promises none; this keeps the promise to Python).
fn guarded<T>(f: impl FnOnce() -> ekl_core::Result<T>) -> Outcome<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => Outcome::Done(r),
        Err(_) => Outcome::Panicked,
    }
}

/// Runs core work with the GIL held or released (`detach`), and maps the outcome to Python.
pub(crate) fn run<T: Send>(
    py: Python<'_>,
    detach: bool,
    f: impl FnOnce() -> ekl_core::Result<T> + Send,
) -> PyResult<T> {
    let outcome = if detach {
        py.detach(|| guarded(f))
    } else {
        guarded(f)
    };
    match outcome {
        Outcome::Done(Ok(v)) => Ok(v),
        Outcome::Done(Err(e)) => Err(core_err(py, e)),
        Outcome::Panicked => Err(ekl_err(
            py,
            ErrorCode::Internal,
            "internal error in ekl-core (please report it)",
        )),
    }
}

// ------------------------------------------------------------------------------------------
// JsonText and text arguments
// ------------------------------------------------------------------------------------------

/// JSON text to be used where a value is expected, so that it takes the text path: duplicate
/// keys, integers beyond 2^53 and `\ud800` escapes reach the core as written.
#[pyclass(frozen, module = "ekl_evidence._native")]
pub struct JsonText {
    data: Py<PyBytes>,
}

#[pymethods]
impl JsonText {
    #[new]
    fn new(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<JsonText> {
        Ok(JsonText {
            data: text_bytes(py, text)?.unbind(),
        })
    }

    /// The UTF-8 bytes of the text.
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        self.data.bind(py).clone()
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.data.bind(py).as_bytes().len()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("JsonText(<{} bytes>)", self.data.bind(py).as_bytes().len())
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<JsonText>() {
            Ok(o) => self.data.bind(py).as_bytes() == o.get().data.bind(py).as_bytes(),
            Err(_) => false,
        }
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.data.bind(py).hash()
    }
}

/// UTF-8 bytes of a text argument: `str` (a lone surrogate is `LONE_SURROGATE`, as the escape
/// would be), `bytes`, `bytearray`, `memoryview` or any buffer, or a `JsonText`. Text beyond
/// [`limits::MAX_INPUT_BYTES`] is refused with `BODY_TOO_LARGE` before it is copied.
pub(crate) fn text_bytes<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = text_bytes_unbounded(py, obj)?;
    check_input_len(py, bytes.as_bytes().len())?;
    Ok(bytes)
}

/// Refuses `len` bytes of input beyond [`limits::MAX_INPUT_BYTES`] with `BODY_TOO_LARGE`.
pub(crate) fn check_input_len(py: Python<'_>, len: usize) -> PyResult<()> {
    limits::check_len(len, limits::MAX_INPUT_BYTES, "the JSON text").map_err(|e| core_err(py, e))
}

fn text_bytes_unbounded<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(b.clone());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        // At least one UTF-8 byte per code point: refuse before the copy when that is too many.
        check_input_len(py, s.len()?)?;
        return s.encode_utf8().map_err(|_| lone_surrogate(py));
    }
    if let Ok(t) = obj.cast::<JsonText>() {
        return Ok(t.get().data.bind(py).clone());
    }
    if let Ok(ba) = obj.cast::<PyByteArray>() {
        check_input_len(py, ba.len())?;
        return Ok(PyBytes::new(py, &ba.to_vec()));
    }
    let view = if obj.is_instance_of::<PyMemoryView>() {
        obj.clone()
    } else {
        match PyMemoryView::from(obj) {
            Ok(v) => v.into_any(),
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "expected JSON text as str, bytes, bytearray, memoryview or JsonText, got {}",
                    type_name(obj)
                )))
            }
        }
    };
    check_input_len(py, view.getattr("nbytes")?.extract::<usize>()?)?;
    view.call_method0("tobytes")?
        .cast_into::<PyBytes>()
        .map_err(PyErr::from)
}

pub(crate) fn lone_surrogate(py: Python<'_>) -> PyErr {
    ekl_err(
        py,
        ErrorCode::LoneSurrogate,
        "a str holds a lone surrogate, which has no UTF-8 form",
    )
}

pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_owned())
}

/// A plain string argument (key, challenge, endpoint, ...): `str` only, UTF-8 encodable.
pub(crate) fn str_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let s = obj.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!("{what} must be a str, got {}", type_name(obj)))
    })?;
    s.to_cow()
        .map(Cow::into_owned)
        .map_err(|_| lone_surrogate(py))
}

pub(crate) fn opt_str_arg(
    py: Python<'_>,
    obj: Option<&Bound<'_, PyAny>>,
    what: &str,
) -> PyResult<Option<String>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => str_arg(py, o, what).map(Some),
    }
}

fn salt_arg(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Salt> {
    let text = str_arg(py, obj, "salt")?;
    Salt::from_hex(&text).map_err(|e| core_err(py, e))
}

fn opt_salt_arg(py: Python<'_>, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Salt>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => salt_arg(py, o).map(Some),
    }
}

fn proof_key_arg(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<ProofKey> {
    let text = str_arg(py, obj, "proof_key")?;
    ProofKey::from_hex(&text).map_err(|e| core_err(py, e))
}

// ------------------------------------------------------------------------------------------
// Value arguments: a host value (strict conversion) or JsonText (text path)
// ------------------------------------------------------------------------------------------

/// A value argument, ready for the core.
pub(crate) enum ValueArg<'py> {
    /// JSON text (from `JsonText`), parsed by the core when used.
    Text(Bound<'py, PyBytes>),
    /// A converted host value (strings borrowed from the Python objects, which it keeps alive).
    Host(convert::Converted<'py>),
}

impl<'py> ValueArg<'py> {
    pub(crate) fn from_py(py: Python<'py>, obj: &Bound<'py, PyAny>) -> PyResult<ValueArg<'py>> {
        Self::from_py_within(py, obj, None)
    }

    /// As [`ValueArg::from_py`], refusing a host value as soon as its canonical form would pass
    /// `max_bytes` (the operation's own limit) or [`limits::MAX_VALUE_BYTES`], whichever is less.
    pub(crate) fn from_py_within(
        py: Python<'py>,
        obj: &Bound<'py, PyAny>,
        max_bytes: Option<usize>,
    ) -> PyResult<ValueArg<'py>> {
        if let Ok(t) = obj.cast::<JsonText>() {
            return Ok(ValueArg::Text(t.get().data.bind(py).clone()));
        }
        let limit = max_bytes.map_or(limits::MAX_VALUE_BYTES, |m| m.min(limits::MAX_VALUE_BYTES));
        Ok(ValueArg::Host(convert::to_value(py, obj, limit)?))
    }

    /// Runs `f` on the value: parses the text first on the text path. Large inputs run with the
    /// GIL released: the bytes object is immutable and kept alive, and a converted host value
    /// keeps alive every `str` it borrows from.
    pub(crate) fn with<T: Send>(
        self,
        py: Python<'_>,
        f: impl FnOnce(&Value<'_>) -> ekl_core::Result<T> + Send,
    ) -> PyResult<T> {
        match self {
            ValueArg::Text(b) => {
                let bytes = b.as_bytes();
                run(py, bytes.len() >= DETACH_THRESHOLD, || {
                    let v = canonical::parse(bytes)?;
                    f(&v)
                })
            }
            ValueArg::Host(c) => {
                let value = &c.value;
                run(py, c.weight >= DETACH_THRESHOLD, || f(value))
            }
        }
    }
}

fn options(max_bytes: Option<usize>) -> Options {
    Options { max_bytes }
}

// ------------------------------------------------------------------------------------------
// Canonicalisation
// ------------------------------------------------------------------------------------------

/// canonicalize(text, *, max_bytes=None) -> bytes
///
/// The ekl-json-1 canonical form of JSON text (str or bytes-like). Raises EklError
/// (INVALID_JSON, INVALID_UTF8, LONE_SURROGATE, DUPLICATE_KEY, NON_FINITE_NUMBER,
/// INTEGER_OUT_OF_RANGE, INPUT_TOO_DEEP, BODY_TOO_LARGE when over max_bytes).
#[pyfunction]
#[pyo3(signature = (text, *, max_bytes=None))]
fn canonicalize<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    max_bytes: Option<usize>,
) -> PyResult<Bound<'py, PyBytes>> {
    let data = text_bytes(py, text)?;
    let bytes = data.as_bytes();
    let out = run(py, bytes.len() >= DETACH_THRESHOLD, || {
        canonical::canonicalize_with(bytes, options(max_bytes))
    })?;
    Ok(PyBytes::new(py, &out))
}

/// canonicalize_value(value, *, max_bytes=None) -> bytes
///
/// The ekl-json-1 canonical form of a Python value (strict conversion) or a JsonText.
#[pyfunction]
#[pyo3(signature = (value, *, max_bytes=None))]
fn canonicalize_value<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    max_bytes: Option<usize>,
) -> PyResult<Bound<'py, PyBytes>> {
    let arg = ValueArg::from_py_within(py, value, max_bytes)?;
    let out = arg.with(py, |v| {
        canonical::canonicalize_value_with(v, options(max_bytes))
    })?;
    Ok(PyBytes::new(py, &out))
}

/// canonicalize_many(texts, *, max_bytes=None) -> list[bytes]
///
/// Many JSON texts at once, with the GIL released for the whole batch. Stops at the first
/// refusal (the exception's message names the index).
#[pyfunction]
#[pyo3(signature = (texts, *, max_bytes=None))]
fn canonicalize_many<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    max_bytes: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    if texts.is_instance_of::<PyString>() || texts.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "canonicalize_many takes an iterable of JSON texts, not one text",
        ));
    }
    let mut inputs: Vec<Bound<'py, PyBytes>> = Vec::new();
    for item in texts.try_iter()? {
        inputs.push(text_bytes(py, &item?)?);
    }
    let slices: Vec<&[u8]> = inputs.iter().map(|b| b.as_bytes()).collect();
    let total: usize = slices.iter().map(|s| s.len()).sum();
    let outcome = {
        let work = || {
            guarded(|| {
                let mut outs = Vec::with_capacity(slices.len());
                for (i, s) in slices.iter().enumerate() {
                    match canonical::canonicalize_with(s, options(max_bytes)) {
                        Ok(o) => outs.push(o),
                        Err(e) => {
                            return Err(ekl_core::Error::new(
                                e.code(),
                                format!("item {i}: {}", e.message()),
                            ))
                        }
                    }
                }
                Ok(outs)
            })
        };
        if total >= DETACH_THRESHOLD {
            py.detach(work)
        } else {
            work()
        }
    };
    let outs = match outcome {
        Outcome::Done(Ok(v)) => v,
        Outcome::Done(Err(e)) => return Err(core_err(py, e)),
        Outcome::Panicked => {
            return Err(ekl_err(
                py,
                ErrorCode::Internal,
                "internal error in ekl-core (please report it)",
            ))
        }
    };
    PyList::new(py, outs.iter().map(|o| PyBytes::new(py, o)))
}

// ------------------------------------------------------------------------------------------
// Digests and commitments
// ------------------------------------------------------------------------------------------

/// sha256_hex(data) -> str
///
/// Lowercase hex SHA-256 of bytes (a str is hashed as UTF-8).
#[pyfunction]
fn sha256_hex(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<String> {
    let b = text_bytes(py, data)?;
    let bytes = b.as_bytes();
    run(py, bytes.len() >= DETACH_THRESHOLD, || {
        Ok(digest::sha256_hex(bytes))
    })
}

/// value_digest(value, salt=None) -> str
///
/// Lowercase hex SHA-256 of (the salt's 32 bytes ‖) the value's canonical bytes.
#[pyfunction]
#[pyo3(signature = (value, salt=None))]
fn value_digest(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    salt: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let salt = opt_salt_arg(py, salt)?;
    let arg = ValueArg::from_py(py, value)?;
    arg.with(py, |v| digest::value_digest(v, salt.as_ref()))
}

fn commitment_dict<'py>(py: Python<'py>, c: &digest::Commitment) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("alg", c.alg)?;
    d.set_item("canon", c.canon)?;
    d.set_item("digest", &c.digest)?;
    if let Some(id) = &c.salt_id {
        d.set_item("salt_id", id)?;
    }
    if let Some(s) = &c.salt {
        d.set_item("salt", s)?;
    }
    Ok(d)
}

/// commitment(value, salt=None, salt_id=None) -> dict
///
/// {"alg": "sha-256", "canon": "ekl-json-1", "digest": hex[, "salt_id"][, "salt"]} (§9.5).
#[pyfunction]
#[pyo3(signature = (value, salt=None, salt_id=None))]
fn commitment<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    salt: Option<&Bound<'py, PyAny>>,
    salt_id: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let salt = opt_salt_arg(py, salt)?;
    let salt_id = opt_str_arg(py, salt_id, "salt_id")?;
    let arg = ValueArg::from_py(py, value)?;
    let c = arg.with(py, |v| {
        digest::commitment(v, salt.as_ref(), salt_id.as_deref())
    })?;
    commitment_dict(py, &c)
}

/// input_commitment(input, salt=None, salt_id=None) -> dict
///
/// The commitment to a capability call's input, refused over 256 KB canonical (BODY_TOO_LARGE, §2.5).
#[pyfunction]
#[pyo3(signature = (input, salt=None, salt_id=None))]
fn input_commitment<'py>(
    py: Python<'py>,
    input: &Bound<'py, PyAny>,
    salt: Option<&Bound<'py, PyAny>>,
    salt_id: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let salt = opt_salt_arg(py, salt)?;
    let salt_id = opt_str_arg(py, salt_id, "salt_id")?;
    let arg = ValueArg::from_py_within(py, input, Some(canonical::CAPABILITY_INPUT_MAX_BYTES))?;
    let c = arg.with(py, |v| {
        digest::input_commitment(v, salt.as_ref(), salt_id.as_deref())
    })?;
    commitment_dict(py, &c)
}

/// terms_hash(terms) -> str
///
/// The hash of a terms object without its own `hash` member (§6.7.1).
#[pyfunction]
fn terms_hash(py: Python<'_>, terms: &Bound<'_, PyAny>) -> PyResult<String> {
    let arg = ValueArg::from_py(py, terms)?;
    arg.with(py, digest::terms_hash)
}

// ------------------------------------------------------------------------------------------
// Fingerprints
// ------------------------------------------------------------------------------------------

/// fingerprint(salt, value) -> str
///
/// SHA-256(salt bytes ‖ canonical bytes), lowercase hex (§15.3); salt is 64 lowercase hex.
#[pyfunction]
fn fingerprint(
    py: Python<'_>,
    salt: &Bound<'_, PyAny>,
    value: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let salt = salt_arg(py, salt)?;
    let arg = ValueArg::from_py(py, value)?;
    arg.with(py, |v| fp::fingerprint(&salt, v))
}

/// output_fingerprint(salt, result) -> str
///
/// The fingerprint of an MCP tool result: over structuredContent, else the content array.
#[pyfunction]
fn output_fingerprint(
    py: Python<'_>,
    salt: &Bound<'_, PyAny>,
    result: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let salt = salt_arg(py, salt)?;
    let arg = ValueArg::from_py(py, result)?;
    arg.with(py, |v| fp::output_fingerprint(&salt, v))
}

/// select_result_body(result) -> tuple[str, object]
///
/// Which body of a tool result is fingerprinted: ("structuredContent" | "content", body).
#[pyfunction]
fn select_result_body<'py>(
    py: Python<'py>,
    result: &Bound<'py, PyAny>,
) -> PyResult<(&'static str, Bound<'py, PyAny>)> {
    let arg = ValueArg::from_py(py, result)?;
    let (which, body) = arg.with(py, |v| {
        let (which, body) = fp::select_result_body(v)?;
        Ok((which.as_str(), body.clone().into_owned()))
    })?;
    Ok((which, convert::to_py(py, &body)?))
}

fn offered_arg(
    py: Python<'_>,
    offered: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Vec<String>>> {
    match offered {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => {
            if o.is_instance_of::<PyString>() {
                return Err(PyTypeError::new_err(
                    "offered must be an iterable of tool names, not a str",
                ));
            }
            let mut v = Vec::new();
            for item in o.try_iter()? {
                v.push(str_arg(py, &item?, "a tool name")?);
            }
            Ok(Some(v))
        }
    }
}

/// upstream_projection(tools, offered=None) -> list
///
/// The array the upstream fingerprint hashes (§5.1): the offered tools, sorted by name, each projected
/// to name, description, inputSchema, outputSchema, annotations (the array that is hashed).
#[pyfunction]
#[pyo3(signature = (tools, offered=None))]
fn upstream_projection<'py>(
    py: Python<'py>,
    tools: &Bound<'py, PyAny>,
    offered: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let names = offered_arg(py, offered)?;
    let refs: Option<Vec<&str>> = names
        .as_ref()
        .map(|v| v.iter().map(String::as_str).collect());
    let arg = ValueArg::from_py(py, tools)?;
    let projected = arg.with(py, |v| {
        fp::upstream_projection(v, refs.as_deref()).map(Value::into_owned)
    })?;
    convert::to_py(py, &projected)
}

/// upstream_fingerprint(tools, offered=None) -> str
///
/// The upstream fingerprint (§5.1) of a tools/list result (or array of tools), optionally
/// filtered to the offered names.
#[pyfunction]
#[pyo3(signature = (tools, offered=None))]
fn upstream_fingerprint(
    py: Python<'_>,
    tools: &Bound<'_, PyAny>,
    offered: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let names = offered_arg(py, offered)?;
    let refs: Option<Vec<&str>> = names
        .as_ref()
        .map(|v| v.iter().map(String::as_str).collect());
    let arg = ValueArg::from_py(py, tools)?;
    arg.with(py, |v| fp::upstream_fingerprint(v, refs.as_deref()))
}

// ------------------------------------------------------------------------------------------
// Endpoint proofs
// ------------------------------------------------------------------------------------------

/// proof_key(agent_key) -> str
///
/// The endpoint proof key of §3.1, as 64 lowercase hex.
#[pyfunction]
fn proof_key(py: Python<'_>, agent_key: &Bound<'_, PyAny>) -> PyResult<String> {
    let k = str_arg(py, agent_key, "agent_key")?;
    run(py, false, || Ok(ProofKey::derive(&k).to_hex()))
}

/// The v1 endpoint challenge proof (§15.2): hex HMAC keyed with the credential's hex SHA-256.
#[pyfunction]
fn challenge_proof_v1(
    py: Python<'_>,
    credential: &Bound<'_, PyAny>,
    challenge: &Bound<'_, PyAny>,
    endpoint: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let (c, ch, e) = (
        str_arg(py, credential, "credential")?,
        str_arg(py, challenge, "challenge")?,
        str_arg(py, endpoint, "endpoint")?,
    );
    run(py, false, || Ok(proof::challenge_proof_v1(&c, &ch, &e)))
}

/// The v2 endpoint challenge proof (§15.2, §3.1), keyed with the proof key (64 hex).
#[pyfunction]
fn challenge_proof_v2(
    py: Python<'_>,
    proof_key: &Bound<'_, PyAny>,
    challenge: &Bound<'_, PyAny>,
    endpoint: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let k = proof_key_arg(py, proof_key)?;
    let (ch, e) = (
        str_arg(py, challenge, "challenge")?,
        str_arg(py, endpoint, "endpoint")?,
    );
    run(py, false, || Ok(proof::challenge_proof_v2(&k, &ch, &e)))
}

/// The v1 `ekl_enroll` authority (§4).
#[pyfunction]
fn enroll_authority_v1(
    py: Python<'_>,
    agent_key: &Bound<'_, PyAny>,
    enrollment_id: &Bound<'_, PyAny>,
    nonce: &Bound<'_, PyAny>,
    endpoint: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let (k, id, n, e) = (
        str_arg(py, agent_key, "agent_key")?,
        str_arg(py, enrollment_id, "enrollment_id")?,
        str_arg(py, nonce, "nonce")?,
        str_arg(py, endpoint, "endpoint")?,
    );
    run(py, false, || {
        Ok(proof::enroll_authority_v1(&k, &id, &n, &e))
    })
}

/// The v2 `ekl_enroll` authority (§4), keyed with the proof key (64 hex).
#[pyfunction]
fn enroll_authority_v2(
    py: Python<'_>,
    proof_key: &Bound<'_, PyAny>,
    enrollment_id: &Bound<'_, PyAny>,
    nonce: &Bound<'_, PyAny>,
    endpoint: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let k = proof_key_arg(py, proof_key)?;
    let (id, n, e) = (
        str_arg(py, enrollment_id, "enrollment_id")?,
        str_arg(py, nonce, "nonce")?,
        str_arg(py, endpoint, "endpoint")?,
    );
    run(py, false, || {
        Ok(proof::enroll_authority_v2(&k, &id, &n, &e))
    })
}

/// The `ekl_verify` signature (§4): hex HMAC-SHA256 with the registration secret.
#[pyfunction]
fn verify_signature(
    py: Python<'_>,
    registration_secret: &Bound<'_, PyAny>,
    agent_id: &Bound<'_, PyAny>,
    enrollment_id: &Bound<'_, PyAny>,
    challenge: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let (s, a, id, ch) = (
        str_arg(py, registration_secret, "registration_secret")?,
        str_arg(py, agent_id, "agent_id")?,
        str_arg(py, enrollment_id, "enrollment_id")?,
        str_arg(py, challenge, "challenge")?,
    );
    run(py, false, || Ok(proof::verify_signature(&s, &a, &id, &ch)))
}

/// Checks an `ekl_verify` signature in constant time; False when it does not match.
#[pyfunction]
fn check_verify_signature(
    py: Python<'_>,
    registration_secret: &Bound<'_, PyAny>,
    agent_id: &Bound<'_, PyAny>,
    enrollment_id: &Bound<'_, PyAny>,
    challenge: &Bound<'_, PyAny>,
    signature: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    let (s, a, id, ch, sig) = (
        str_arg(py, registration_secret, "registration_secret")?,
        str_arg(py, agent_id, "agent_id")?,
        str_arg(py, enrollment_id, "enrollment_id")?,
        str_arg(py, challenge, "challenge")?,
        str_arg(py, signature, "signature")?,
    );
    run(py, false, || {
        Ok(proof::check_verify_signature(&s, &a, &id, &ch, &sig))
    })
}

// ------------------------------------------------------------------------------------------
// Introspection
// ------------------------------------------------------------------------------------------

/// Every error code of the core, in declaration order (`ekl_core::ErrorCode::ALL`).
#[pyfunction]
fn error_codes() -> Vec<&'static str> {
    ErrorCode::ALL.iter().map(|c| c.as_str()).collect()
}

/// Converts a host value with the strict conversion and back (a test hook: shows exactly what
/// the core receives).
#[pyfunction]
fn roundtrip<'py>(py: Python<'py>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let arg = ValueArg::from_py(py, value)?;
    let owned = arg.with(py, |v| Ok(v.clone().into_owned()))?;
    convert::to_py(py, &owned)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<JsonText>()?;
    m.add("MAX_DEPTH", canonical::MAX_DEPTH)?;
    m.add(
        "CAPABILITY_INPUT_MAX_BYTES",
        canonical::CAPABILITY_INPUT_MAX_BYTES,
    )?;
    m.add("MAX_SAFE_INTEGER_BOUND", ekl_core::MAX_SAFE_INTEGER_BOUND)?;
    m.add("CORE_VERSION", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(canonicalize, m)?)?;
    m.add_function(wrap_pyfunction!(canonicalize_value, m)?)?;
    m.add_function(wrap_pyfunction!(canonicalize_many, m)?)?;
    m.add_function(wrap_pyfunction!(sha256_hex, m)?)?;
    m.add_function(wrap_pyfunction!(value_digest, m)?)?;
    m.add_function(wrap_pyfunction!(commitment, m)?)?;
    m.add_function(wrap_pyfunction!(input_commitment, m)?)?;
    m.add_function(wrap_pyfunction!(terms_hash, m)?)?;
    m.add_function(wrap_pyfunction!(fingerprint, m)?)?;
    m.add_function(wrap_pyfunction!(output_fingerprint, m)?)?;
    m.add_function(wrap_pyfunction!(select_result_body, m)?)?;
    m.add_function(wrap_pyfunction!(upstream_fingerprint, m)?)?;
    m.add_function(wrap_pyfunction!(upstream_projection, m)?)?;
    m.add_function(wrap_pyfunction!(proof_key, m)?)?;
    m.add_function(wrap_pyfunction!(challenge_proof_v1, m)?)?;
    m.add_function(wrap_pyfunction!(challenge_proof_v2, m)?)?;
    m.add_function(wrap_pyfunction!(enroll_authority_v1, m)?)?;
    m.add_function(wrap_pyfunction!(enroll_authority_v2, m)?)?;
    m.add_function(wrap_pyfunction!(verify_signature, m)?)?;
    m.add_function(wrap_pyfunction!(check_verify_signature, m)?)?;
    m.add_function(wrap_pyfunction!(error_codes, m)?)?;
    evidence::register(m)?;
    signed::register(m)?;
    m.add_function(wrap_pyfunction!(roundtrip, m)?)?;
    Ok(())
}
