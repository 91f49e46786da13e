//! `ekl_evidence._native`: the Python shim over `ekl-bridge` (issues 4 and 10).
//!
//! One generic entry point, [`call`]: the package (python/ekl_evidence) builds every public
//! function from the registry's manifest ([`operations`], `docs/operations.json`) and passes the
//! operation's index and one argument per parameter. Each argument is converted by its parameter's
//! [`Kind`] (a value by the one strict conversion, [`convert`]), the bridge checks and runs the
//! operation, and its [`Out`] comes back as Python values. No rule of EKP lives here. Large inputs
//! run with the GIL released; a panic is caught and raised as `EklError("INTERNAL_ERROR", ...)`;
//! every refusal is `ekl_evidence.EklError(code, message)`; a host value of the wrong type is a
//! `TypeError` naming the argument and its accepted forms.
//!
//! The public, documented API is the Python package `ekl_evidence`; this module is private.

mod convert;
mod pystr;

use std::panic::{catch_unwind, AssertUnwindSafe};

use ekl_bridge::{Arg, Kind, Op, Out, Param};
use ekl_core::jwk::{Jwks as CoreJwks, SigningKey as CoreSigningKey};
use ekl_core::{canonical, limits, ErrorCode};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFrozenSet, PyInt, PyList, PyMemoryView, PySet,
    PyString, PyTuple, PyType,
};

/// Inputs at least this large (bytes of text, or the conversion's size estimate) are processed
/// with the GIL released; below it the release costs more than it saves.
const DETACH_THRESHOLD: usize = 16 * 1024;

// --- errors and guarded runs ----------------------------------------------------------------

static EKL_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The `PyErr` for a core refusal: `ekl_evidence.EklError(code, message)`.
pub(crate) fn ekl_err(py: Python<'_>, code: ErrorCode, message: &str) -> PyErr {
    EKL_ERROR
        .import(py, "ekl_evidence._errors", "EklError")
        .and_then(|cls| cls.call1((code.as_str(), message)))
        .map_or_else(|e| e, PyErr::from_value)
}

fn core_err(py: Python<'_>, e: ekl_core::Error) -> PyErr {
    ekl_err(py, e.code(), e.message())
}

/// Runs core work with the GIL held or released (`detach`), catching any panic (the core promises
/// none; this keeps the promise to Python), and maps the outcome to Python.
fn run<T: Send>(
    py: Python<'_>,
    detach: bool,
    f: impl FnOnce() -> ekl_core::Result<T> + Send,
) -> PyResult<T> {
    let guarded = || catch_unwind(AssertUnwindSafe(f));
    let outcome = if detach {
        py.detach(guarded)
    } else {
        guarded()
    };
    let panicked = "internal error in ekl-core (please report it)";
    match outcome {
        Ok(result) => result.map_err(|e| core_err(py, e)),
        Err(_) => Err(ekl_err(py, ErrorCode::Internal, panicked)),
    }
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

// --- JSON text ------------------------------------------------------------------------------

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
        let data = text_bytes(py, text)?.ok_or_else(|| not_text("JsonText: text", text))?;
        Ok(JsonText {
            data: data.unbind(),
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

const TEXT_FORMS: &str = "JSON text (str, bytes, bytearray, memoryview or JsonText)";

fn not_text(what: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "{what} must be {TEXT_FORMS}, got {}",
        type_name(obj)
    ))
}

/// Refuses `len` bytes of input beyond [`limits::MAX_INPUT_BYTES`] with `BODY_TOO_LARGE`.
fn check_input_len(py: Python<'_>, len: usize) -> PyResult<()> {
    limits::check_len(len, limits::MAX_INPUT_BYTES, "the JSON text").map_err(|e| core_err(py, e))
}

/// The UTF-8 bytes of text as an immutable `bytes` (a `str`: its UTF-8, a lone surrogate being
/// `LONE_SURROGATE`; `bytes`; a `JsonText`; `bytearray`, `memoryview` or any buffer, copied), or
/// `None` for anything else. Text beyond [`limits::MAX_INPUT_BYTES`] is refused with
/// `BODY_TOO_LARGE` before it is copied.
fn text_bytes<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let bytes = if let Ok(b) = obj.cast::<PyBytes>() {
        b.clone()
    } else if let Ok(t) = obj.cast::<JsonText>() {
        t.get().data.bind(py).clone()
    } else if let Ok(s) = obj.cast::<PyString>() {
        // At least one UTF-8 byte per code point: refuse before the copy when that is too many.
        check_input_len(py, s.len()?)?;
        s.encode_utf8().map_err(|_| lone_surrogate(py))?
    } else if let Ok(ba) = obj.cast::<PyByteArray>() {
        check_input_len(py, ba.len())?;
        PyBytes::new(py, &ba.to_vec())
    } else {
        let view = if obj.is_instance_of::<PyMemoryView>() {
            obj.clone()
        } else {
            match PyMemoryView::from(obj) {
                Ok(v) => v.into_any(),
                Err(_) => return Ok(None),
            }
        };
        check_input_len(py, view.getattr("nbytes")?.extract::<usize>()?)?;
        view.call_method0("tobytes")?.cast_into::<PyBytes>()?
    };
    check_input_len(py, bytes.as_bytes().len())?;
    Ok(Some(bytes))
}

/// The text of a `str` without a copy ([`convert::text`]), bounded like any input text.
fn zero_copy_str<'py>(
    py: Python<'py>,
    s: &Bound<'py, PyString>,
    keep: &mut Vec<Bound<'py, PyAny>>,
    weight: &mut usize,
) -> PyResult<&'py str> {
    check_input_len(py, s.len()?)?;
    let t = convert::text(py, s, keep)?;
    check_input_len(py, t.len())?;
    *weight += t.len();
    Ok(t)
}

// --- key handles ----------------------------------------------------------------------------

/// A network's public key set (`/.well-known/jwks.json`): P-256 keys, validated. Immutable.
#[pyclass(frozen, module = "ekl_evidence._native")]
pub struct Jwks {
    inner: CoreJwks,
}

#[pymethods]
impl Jwks {
    /// Jwks(jwks): the key set as a dict or JSON text (the registry's `parse_jwks`).
    #[new]
    fn new(py: Python<'_>, jwks: &Bound<'_, PyAny>) -> PyResult<Jwks> {
        let parsed = run_op(py, find(py, "parse_jwks")?, std::slice::from_ref(jwks))?;
        let inner = parsed.bind(py).cast::<Jwks>()?.get().inner.clone();
        Ok(Jwks { inner })
    }

    /// The key ids, in order.
    fn kids(&self) -> Vec<String> {
        self.inner
            .keys()
            .iter()
            .map(|k| k.kid().to_owned())
            .collect()
    }

    /// The key set as canonical JSON text.
    fn to_json(&self) -> String {
        self.inner.to_json()
    }

    fn __len__(&self) -> usize {
        self.inner.keys().len()
    }

    fn __repr__(&self) -> String {
        format!("Jwks({:?})", self.kids())
    }
}

/// An ES256 signing key (deterministic RFC 6979 signatures), for tests, vectors and local test
/// networks. Immutable; its repr never shows the key.
#[pyclass(frozen, module = "ekl_evidence._native")]
pub struct SigningKey {
    inner: CoreSigningKey,
}

#[pymethods]
impl SigningKey {
    /// The key from a private JWK (JSON text with `d`).
    #[staticmethod]
    fn from_jwk(py: Python<'_>, jwk: &Bound<'_, PyAny>) -> PyResult<SigningKey> {
        let b = text_bytes(py, jwk)?.ok_or_else(|| not_text("from_jwk: jwk", jwk))?;
        let bytes = b.as_bytes();
        run(py, false, || CoreSigningKey::from_jwk(bytes)).map(|inner| SigningKey { inner })
    }

    /// The key id.
    #[getter]
    fn kid(&self) -> String {
        self.inner.kid().to_owned()
    }

    /// A key set holding only this key's public half.
    fn public_jwks(&self, py: Python<'_>) -> PyResult<Jwks> {
        let public = self.inner.public_jwk();
        run(py, false, || CoreJwks::from_keys(vec![public])).map(|inner| Jwks { inner })
    }

    fn __repr__(&self) -> String {
        format!("SigningKey(kid={:?})", self.inner.kid())
    }
}

/// A machine's handle (`ekl_bridge::Handle`, docs/decisions/handles.md): the machine behind its
/// own lock, shared by every Python thread that holds it. The package wraps it in the class the
/// manifest's `handles` names (`RemoteJwksPolicy`), whose methods pass it as `self`.
#[pyclass(frozen, module = "ekl_evidence._native")]
pub struct Handle {
    inner: ekl_bridge::Handle,
}

#[pymethods]
impl Handle {
    /// The handle's class name.
    #[getter]
    fn class_name(&self) -> &'static str {
        self.inner.class()
    }

    fn __repr__(&self) -> String {
        format!("Handle({})", self.inner.class())
    }
}

// --- arguments in ---------------------------------------------------------------------------

/// An argument converted from Python, before the bridge borrows it.
enum Held<'py> {
    /// Ready as it is (its strings borrowed from `str` objects the call keeps alive).
    Ready(Arg<'py>),
    /// Bytes of text (`Kind::Text`, a value's or JWKS's `JsonText`) or of `Kind::Bytes`.
    Bytes(Bound<'py, PyBytes>, Kind),
    Jwks(Bound<'py, Jwks>),
    Key(Bound<'py, SigningKey>),
    Handle(Bound<'py, Handle>),
}

impl Held<'_> {
    fn arg(&mut self) -> Arg<'_> {
        match self {
            Held::Ready(a) => std::mem::replace(a, Arg::Absent),
            Held::Bytes(b, Kind::Bytes) => Arg::Bytes(b.as_bytes()),
            Held::Bytes(b, _) => Arg::Text(b.as_bytes()),
            Held::Jwks(j) => Arg::Jwks(&j.get().inner),
            Held::Key(k) => Arg::Key(&k.get().inner),
            Held::Handle(h) => Arg::Handle(&h.get().inner),
        }
    }
}

/// What Python accepts for a kind, for `TypeError` messages.
fn forms(kind: Kind) -> &'static str {
    match kind {
        Kind::Value => "a JSON value or JsonText",
        Kind::Text => TEXT_FORMS,
        Kind::Str => "a str",
        Kind::Salt => "a str of 64 lowercase hex (None: a fresh salt)",
        Kind::Bytes => "bytes, bytearray, memoryview or str",
        Kind::Int => "an int",
        Kind::Now => "an int, a float or an aware datetime",
        Kind::Bool => "a bool",
        Kind::StrList => "an iterable of str (not a str)",
        Kind::Jwks => "a Jwks, a dict or JSON text",
        Kind::Key => "a SigningKey",
        Kind::Number => "an int or a float",
        Kind::Handle(_) => "the handle of the method's class",
    }
}

fn wrong_type(op: &Op, p: &Param, obj: &Bound<'_, PyAny>) -> PyErr {
    wrong_type_in(op.python_name(), p, obj)
}

/// [`wrong_type`] in the function `func` (a direct binding that is not a registry operation).
fn wrong_type_in(func: &str, p: &Param, obj: &Bound<'_, PyAny>) -> PyErr {
    // A dict or a list where JSON text is expected: the caller wants the value form.
    let hint = if p.kind == Kind::Text
        && (obj.is_instance_of::<PyDict>() || obj.is_instance_of::<PyList>())
    {
        "; for a Python value use canonicalize_value"
    } else {
        ""
    };
    PyTypeError::new_err(format!(
        "{func}: {} must be {}, got {}{hint}",
        p.name,
        forms(p.kind),
        type_name(obj)
    ))
}

/// Converts one argument by its parameter's kind; `weight` gathers the input's size.
fn hold<'py>(
    py: Python<'py>,
    op: &Op,
    p: &Param,
    obj: &Bound<'py, PyAny>,
    limit: usize,
    keep: &mut Vec<Bound<'py, PyAny>>,
    weight: &mut usize,
) -> PyResult<Held<'py>> {
    if obj.is_none() && !(p.required && p.kind == Kind::Value) {
        if p.required {
            return Err(wrong_type(op, p, obj));
        }
        return Ok(Held::Ready(Arg::Absent));
    }
    let wrong = |o: &Bound<'_, PyAny>| wrong_type(op, p, o);
    Ok(match p.kind {
        Kind::Value | Kind::Jwks => {
            if let (Kind::Jwks, Ok(j)) = (p.kind, obj.cast::<Jwks>()) {
                Held::Jwks(j.clone())
            } else if let Ok(t) = obj.cast::<JsonText>() {
                let data = t.get().data.bind(py).clone();
                *weight += data.as_bytes().len();
                Held::Bytes(data, Kind::Text)
            } else if p.kind == Kind::Value || obj.is_instance_of::<PyDict>() {
                let (value, w) = convert::to_value(py, obj, limit, keep)?;
                *weight += w;
                Held::Ready(Arg::Value(value))
            } else {
                return hold_text(py, op, p, obj, Kind::Text, keep, weight);
            }
        }
        Kind::Text | Kind::Bytes => return hold_text(py, op, p, obj, p.kind, keep, weight),
        Kind::Str | Kind::Salt => {
            let s = obj.cast::<PyString>().map_err(|_| wrong(obj))?;
            Held::Ready(Arg::Str(zero_copy_str(py, s, keep, weight)?))
        }
        Kind::Int | Kind::Now => Held::Ready(Arg::Int(int_arg(py, op.python_name(), p, obj)?)),
        Kind::Bool => Held::Ready(Arg::Bool(
            obj.cast::<PyBool>().map_err(|_| wrong(obj))?.is_true(),
        )),
        Kind::StrList => {
            // one str is not a list of its characters
            if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
                return Err(wrong(obj));
            }
            let mut list = Vec::new();
            for item in obj.try_iter().map_err(|_| wrong(obj))? {
                let item = item?;
                let s = item.cast::<PyString>().map_err(|_| wrong(&item))?;
                list.push(zero_copy_str(py, s, keep, weight)?);
            }
            // a set has no order of its own (its iteration changes from run to run with the
            // strings' hashes): taken in code point order, so the kids of jwks_from_seed do not
            if obj.is_instance_of::<PySet>() || obj.is_instance_of::<PyFrozenSet>() {
                list.sort_unstable();
            }
            Held::Ready(Arg::StrList(list))
        }
        Kind::Key => Held::Key(obj.cast::<SigningKey>().map_err(|_| wrong(obj))?.clone()),
        // Another type is INVALID_ARGUMENT, as the JS layer refuses it: the number's bounds are
        // the operation's to check, and a caller's option of another type is refused with them.
        Kind::Number => Held::Ready(Arg::Number(number_arg(obj).ok_or_else(|| {
            let what = format!("{}: {} must be a number", op.python_name(), p.name);
            ekl_err(py, ErrorCode::InvalidArgument, &what)
        })?)),
        Kind::Handle(_) => Held::Handle(obj.cast::<Handle>().map_err(|_| wrong(obj))?.clone()),
    })
}

/// A number argument: a `float` as it is, an `int` (not a `bool`) as the nearest double (one too
/// large for a double is +∞ or −∞, which the operation refuses with its bounds).
fn number_arg(obj: &Bound<'_, PyAny>) -> Option<f64> {
    if obj.is_instance_of::<PyBool>() {
        return None;
    }
    if let Ok(f) = obj.cast::<pyo3::types::PyFloat>() {
        return Some(f.value());
    }
    if !obj.is_instance_of::<PyInt>() {
        return None;
    }
    Some(obj.extract::<f64>().unwrap_or_else(|_| {
        let negative = obj.lt(0).unwrap_or(false);
        if negative {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }
    }))
}

/// An `int` argument (not a `bool`) of the function `func`: a `TypeError` for another type,
/// `INVALID_ARGUMENT` beyond ±2^53 (JSON's exact integers, and JS's: the bound the bridge holds
/// every surface to).
fn int_arg(py: Python<'_>, func: &str, p: &Param, obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return Err(wrong_type_in(func, p, obj));
    }
    obj.extract::<i64>()
        .ok()
        .filter(|n| n.unsigned_abs() <= ekl_core::MAX_SAFE_INTEGER_BOUND)
        .ok_or_else(|| {
            let what = format!("{func}: {} must be an integer within ±2^53", p.name);
            ekl_err(py, ErrorCode::InvalidArgument, &what)
        })
}

/// The `max_bytes` option of a direct binding (`func`), converted as `call` converts the
/// registry's (the parameter of operation `op`): [`int_arg`], then not negative, with the bridge's
/// message (`max_bytes` in bridge/src/ops/mod.rs). None: no bound.
fn max_bytes_arg(
    py: Python<'_>,
    op: &str,
    func: &str,
    obj: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<usize>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let op = find(py, op)?;
    let p = op.param_index("max_bytes").map(|i| &op.params[i]);
    let p = p.ok_or_else(|| ekl_err(py, ErrorCode::Internal, "max_bytes not in the registry"))?;
    let n = int_arg(py, func, p, obj)?;
    usize::try_from(n).map(Some).map_err(|_| {
        ekl_err(
            py,
            ErrorCode::InvalidArgument,
            "max_bytes must not be negative",
        )
    })
}

/// Text or bytes: a `str` without a copy, anything else as [`text_bytes`].
fn hold_text<'py>(
    py: Python<'py>,
    op: &Op,
    p: &Param,
    obj: &Bound<'py, PyAny>,
    kind: Kind,
    keep: &mut Vec<Bound<'py, PyAny>>,
    weight: &mut usize,
) -> PyResult<Held<'py>> {
    if let Ok(s) = obj.cast::<PyString>() {
        let t = zero_copy_str(py, s, keep, weight)?;
        return Ok(Held::Ready(if kind == Kind::Bytes {
            Arg::Str(t)
        } else {
            Arg::Text(t.as_bytes())
        }));
    }
    match text_bytes(py, obj)? {
        Some(b) => {
            *weight += b.as_bytes().len();
            Ok(Held::Bytes(b, kind))
        }
        None => Err(wrong_type(op, p, obj)),
    }
}

// --- results out ----------------------------------------------------------------------------

fn out_py(py: Python<'_>, out: Out) -> PyResult<Py<PyAny>> {
    Ok(match out {
        Out::Str(s) => PyString::new(py, &s).into_any().unbind(),
        Out::Bool(b) => PyBool::new(py, b).to_owned().into_any().unbind(),
        Out::Bytes(b) => PyBytes::new(py, &b).into_any().unbind(),
        Out::Value(v) => convert::to_py(py, &v)?.unbind(),
        Out::Json(text) => json_py(py, &text)?.unbind(),
        Out::Jwks(inner) => Py::new(py, Jwks { inner })?.into_any(),
        Out::Key(inner) => Py::new(py, SigningKey { inner })?.into_any(),
        Out::Handle(inner) => Py::new(py, Handle { inner })?.into_any(),
        Out::KeySet(jwks, keys) => {
            let keys: Vec<SigningKey> =
                keys.into_iter().map(|inner| SigningKey { inner }).collect();
            (Jwks { inner: jwks }, keys)
                .into_pyobject(py)?
                .into_any()
                .unbind()
        }
    })
}

/// A result the bridge wrote as canonical JSON member by member (`Out::Json`: members that reach
/// the depth limit one level down): each member's value is parsed on its own.
fn json_py<'py>(py: Python<'py>, text: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let parse = |t: &[u8]| -> PyResult<Bound<'py, PyAny>> {
        let v = canonical::parse(t).map_err(|e| core_err(py, e))?;
        convert::to_py(py, &v)
    };
    let Some(body) = text.strip_prefix(b"{").and_then(|t| t.strip_suffix(b"}")) else {
        return parse(text);
    };
    let dict = PyDict::new(py);
    let (mut depth, mut in_str, mut escaped, mut start) = (0usize, false, false, 0usize);
    let mut colon = None;
    for i in 0..=body.len() {
        let c = body.get(i).copied();
        if in_str {
            match c {
                _ if escaped => escaped = false,
                Some(b'\\') => escaped = true,
                Some(b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            Some(b'"') => in_str = true,
            Some(b'{' | b'[') => depth += 1,
            Some(b'}' | b']') => depth = depth.saturating_sub(1),
            Some(b':') if depth == 0 && colon.is_none() => colon = Some(i),
            Some(b',') | None if depth == 0 => {
                if let Some(k) = colon.take() {
                    dict.set_item(parse(&body[start..k])?, parse(&body[k + 1..i])?)?;
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    Ok(dict.into_any())
}

// --- the entry points -----------------------------------------------------------------------

/// The bound on a value argument's canonical form, applied while it is converted: the
/// parameter's declared [`ekl_bridge::Limit`] (the registry's; the same rule in every host).
fn value_limit(op: &Op, param: &ekl_bridge::Param, args: &[Bound<'_, PyAny>]) -> usize {
    let given = match param.limit {
        ekl_bridge::Limit::Param(name) => op
            .param_index(name)
            .and_then(|i| args.get(i))
            .and_then(|a| given_limit(a)),
        _ => None,
    };
    param.value_limit(given)
}

/// The bound a `max_bytes` argument gives a value's conversion: only a valid one (an `int`, not a
/// `bool`, in range); anything else is left to [`int_arg`] to refuse as such after the value (a
/// `True` read as 1 would refuse the value as BODY_TOO_LARGE instead).
fn given_limit(obj: &Bound<'_, PyAny>) -> Option<u64> {
    let int = obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>();
    int.then(|| obj.extract::<u64>().ok()).flatten()
}

/// Runs `op` on one Python argument per parameter (None for an optional one left out).
fn run_op(py: Python<'_>, op: &Op, args: &[Bound<'_, PyAny>]) -> PyResult<Py<PyAny>> {
    if args.len() != op.params.len() {
        return Err(PyTypeError::new_err(format!(
            "{} takes {} arguments, {} given",
            op.python_name(),
            op.params.len(),
            args.len()
        )));
    }
    // Declared first, dropped last: the `str` objects whose text the arguments borrow.
    let mut keep: Vec<Bound<'_, PyAny>> = Vec::new();
    let mut weight = 0usize;
    let mut held = Vec::with_capacity(args.len());
    for (p, obj) in op.params.iter().zip(args) {
        let limit = value_limit(op, p, args);
        held.push(hold(py, op, p, obj, limit, &mut keep, &mut weight)?);
    }
    let list: Vec<Arg<'_>> = held.iter_mut().map(Held::arg).collect();
    let list = &list;
    // Batches always run with the GIL released: the bridge splits them over the cores (`jobs`).
    let detach = weight >= DETACH_THRESHOLD || op.is_batch();
    let out = run(py, detach, || ekl_bridge::call(op, list))?;
    out_py(py, out)
}

fn find(py: Python<'_>, name: &str) -> PyResult<&'static Op> {
    ekl_bridge::find(name).ok_or_else(|| ekl_err(py, ErrorCode::Internal, "not in the registry"))
}

/// call(index, args) -> object
///
/// Runs the operation at `index` of the registry with one argument per parameter, in order.
#[pyfunction]
fn call(py: Python<'_>, index: usize, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
    let op = ekl_bridge::by_index(index).map_err(|e| core_err(py, e))?;
    run_op(py, op, &args.iter().collect::<Vec<_>>())
}

// --- the hottest operations, bound directly ---------------------------------------------------
//
// `canonicalize` and `canonicalize_value` are the registry's operations of those names, with the
// same conversions, calling the core without the generic bookkeeping of `call`, which costs about
// 10% on small inputs (`./run bench`); tests/test_registry.py checks that they agree with `call`.

/// canonicalize(text, *, max_bytes=None) -> bytes
#[pyfunction]
#[pyo3(signature = (text, *, max_bytes=None))]
fn canonicalize<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    max_bytes: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let (op, mut keep) = (find(py, "canonicalize")?, Vec::new());
    let mut held = hold_text(py, op, &op.params[0], text, Kind::Text, &mut keep, &mut 0)?;
    let max_bytes = max_bytes_arg(py, "canonicalize", "canonicalize", max_bytes)?;
    let options = canonical::Options { max_bytes };
    let bytes = match held.arg() {
        Arg::Text(b) => b,
        _ => &[],
    };
    let out = run(py, bytes.len() >= DETACH_THRESHOLD, || {
        canonical::canonicalize_with(bytes, options)
    })?;
    Ok(PyBytes::new(py, &out))
}

/// canonicalize_value(value, *, max_bytes=None) -> bytes
#[pyfunction]
#[pyo3(signature = (value, *, max_bytes=None))]
fn canonicalize_value<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    max_bytes: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    // `max_bytes` is checked after the value, as `call` converts them (in parameter order).
    let options = || {
        max_bytes_arg(py, "canonicalize_value", "canonicalize_value", max_bytes)
            .map(|max_bytes| canonical::Options { max_bytes })
    };
    let out = if let Ok(t) = value.cast::<JsonText>() {
        let bytes = t.get().data.bind(py).as_bytes();
        let options = options()?;
        run(py, bytes.len() >= DETACH_THRESHOLD, || {
            canonical::canonicalize_value_with(&canonical::parse(bytes)?, options)
        })?
    } else {
        // The registry's bound of `value` (its `max_bytes`), as `call` applies it.
        let op = find(py, "canonicalize_value")?;
        let limit = op.params[0].value_limit(max_bytes.and_then(given_limit));
        let mut keep = Vec::new();
        let (v, weight) = convert::to_value(py, value, limit, &mut keep)?;
        let v = &v;
        let options = options()?;
        run(py, weight >= DETACH_THRESHOLD, || {
            // The conversion's weight (the text's bytes and 8 a value) is about the canonical
            // form's length: reserved at once, the output is not grown step by step.
            let mut out = Vec::with_capacity(weight.min(limit.saturating_add(1)));
            canonical::write_value(v, &mut out, options).map(|()| out)
        })?
    };
    Ok(PyBytes::new(py, &out))
}

/// The registry's manifest (`docs/operations.json`), from which the package builds its API.
#[pyfunction]
fn operations() -> String {
    ekl_bridge::manifest::operations_json()
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
    max_bytes: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let max_bytes = max_bytes_arg(py, "canonicalize", "canonicalize_many", max_bytes)?;
    if texts.is_instance_of::<PyString>() || texts.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "canonicalize_many takes an iterable of JSON texts, not one text",
        ));
    }
    let mut inputs: Vec<Bound<'py, PyBytes>> = Vec::new();
    for item in texts.try_iter()? {
        let item = item?;
        inputs.push(
            text_bytes(py, &item)?.ok_or_else(|| not_text("canonicalize_many: an item", &item))?,
        );
    }
    let slices: Vec<&[u8]> = inputs.iter().map(|b| b.as_bytes()).collect();
    let total: usize = slices.iter().map(|s| s.len()).sum();
    let options = canonical::Options { max_bytes };
    let outs = run(py, total >= DETACH_THRESHOLD, || {
        slices
            .iter()
            .enumerate()
            .map(|(i, s)| {
                canonical::canonicalize_with(s, options).map_err(|e| {
                    ekl_core::Error::new(e.code(), format!("item {i}: {}", e.message()))
                })
            })
            .collect::<ekl_core::Result<Vec<_>>>()
    })?;
    PyList::new(py, outs.iter().map(|o| PyBytes::new(py, o)))
}

/// Every error code of the core, in declaration order (`ekl_core::ErrorCode::ALL`).
#[pyfunction]
fn error_codes() -> Vec<&'static str> {
    ekl_bridge::error_codes().collect()
}

/// Converts a host value with the strict conversion and back (a test hook: shows exactly what
/// the core receives).
#[pyfunction]
fn roundtrip<'py>(py: Python<'py>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let mut keep = Vec::new();
    let (value, _) = convert::to_value(py, value, limits::MAX_VALUE_BYTES, &mut keep)?;
    convert::to_py(py, &value)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<JsonText>()?;
    m.add_class::<Jwks>()?;
    m.add_class::<SigningKey>()?;
    m.add_class::<Handle>()?;
    m.add("MAX_DEPTH", canonical::MAX_DEPTH)?;
    m.add(
        "CAPABILITY_INPUT_MAX_BYTES",
        canonical::CAPABILITY_INPUT_MAX_BYTES,
    )?;
    m.add("MAX_SAFE_INTEGER_BOUND", ekl_core::MAX_SAFE_INTEGER_BOUND)?;
    m.add("CORE_VERSION", ekl_bridge::VERSION)?;
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(operations, m)?)?;
    m.add_function(wrap_pyfunction!(canonicalize, m)?)?;
    m.add_function(wrap_pyfunction!(canonicalize_value, m)?)?;
    m.add_function(wrap_pyfunction!(canonicalize_many, m)?)?;
    m.add_function(wrap_pyfunction!(error_codes, m)?)?;
    m.add_function(wrap_pyfunction!(roundtrip, m)?)?;
    Ok(())
}
