//! The one strict conversion of Python values into [`ekl_core::Value`], and back.
//!
//! Rules (docs/decisions.md#python):
//! * `None` → null; `bool` → true/false (checked before `int`: `True` is `true`, never `1`).
//! * `int` and subclasses (`IntEnum`, `IntFlag`) by their integer value; beyond ±2^53 →
//!   `INTEGER_OUT_OF_RANGE` (compared without overflow: anything `i64` cannot hold is beyond).
//! * `float` and subclasses: NaN/±inf → `NON_FINITE_NUMBER`; `-0.0` is written `0` by the core.
//! * `str` and subclasses (`StrEnum`) by their text; a lone surrogate → `LONE_SURROGATE`.
//! * `dict` and subclasses (`OrderedDict`, `defaultdict`, `Counter`) by their stored items;
//!   a key that is not a `str` → `NON_STRING_KEY`.
//! * `list`, `tuple` and their subclasses (`namedtuple`) → arrays.
//! * Anything else (`set`, `bytes`, `Decimal`, `datetime`, plain `Enum`, other mappings and
//!   sequences, custom objects, a nested `JsonText`) → `UNSUPPORTED_TYPE`; a pydantic model (the
//!   MCP SDK's results and tools) is refused so too, the message naming the right call (B10).
//! * A container that contains itself → `CYCLIC_VALUE`; nesting deeper than 64 →
//!   `INPUT_TOO_DEEP`, found while converting, with an explicit stack (no recursion).
//! * A value whose canonical text would exceed the bound (the operation's own limit, such as the
//!   256 KB of `input_commitment`, else `limits::MAX_VALUE_BYTES`) → `BODY_TOO_LARGE`, as soon as
//!   a lower bound of that text passes it: a graph with shared references (a DAG that expands
//!   exponentially) stops after at most that many bytes of work.
//!
//! No Python code runs during the conversion (no `__iter__`, `items()`, `__index__`, `__float__`
//! of a subclass is called), so the value cannot change under it.

use std::borrow::Cow;

use ekl_core::canonical::MAX_DEPTH;
use ekl_core::{ErrorCode, Value};
use pyo3::prelude::*;
use pyo3::types::dict::BoundDictIterator;
use pyo3::types::list::BoundListIterator;
use pyo3::types::tuple::BoundTupleIterator;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::{ekl_err, lone_surrogate, type_name, JsonText};

/// Items reserved up front for a container: no more, so a huge list that the bound refuses
/// early never reserves memory for all its items.
const PREALLOCATE_MAX: usize = 4096;

type Members<'py> = Vec<(Cow<'py, str>, Value<'py>)>;

enum Items<'py> {
    List(BoundListIterator<'py>),
    Tuple(BoundTupleIterator<'py>),
    Dict(BoundDictIterator<'py>),
}

enum Out<'py> {
    Array(Vec<Value<'py>>),
    /// The members so far and the key of the member being converted.
    Object(Members<'py>, Cow<'py, str>),
}

struct Frame<'py> {
    /// Identity of the container (for cycle detection among the open containers).
    id: usize,
    items: Items<'py>,
    out: Out<'py>,
}

/// What one Python object turned into: a finished value or an opened container.
enum Step<'py> {
    Leaf(Value<'py>),
    Open(Frame<'py>),
}

/// The text of a `str`, borrowed from the object, which is added to `keep` so that it outlives
/// every use of the borrowed text (even with the GIL released and the container changed by
/// another thread).
#[allow(unsafe_code)]
pub(crate) fn text<'py>(
    py: Python<'py>,
    s: &Bound<'py, PyString>,
    keep: &mut Vec<Bound<'py, PyAny>>,
) -> PyResult<&'py str> {
    // SAFETY (contract of `pystr::utf8`): `keep` receives a strong reference to the object the
    // text lives in; every caller declares `keep` before the values that borrow the text, so it
    // is dropped after them.
    unsafe { crate::pystr::utf8(s, keep) }.ok_or_else(|| lone_surrogate(py))
}

/// The running measures of a conversion.
struct Meter {
    /// Bytes of text plus a constant per node: decides whether the GIL is released.
    weight: usize,
    /// A lower bound of the canonical text's length plus one: each value adds its shortest text
    /// (a string its UTF-8 and two quotes, `null` four bytes, anything else one: a digit, or a
    /// container's brackets less the comma its first item is charged) and one separator (a comma,
    /// or the closing bracket); a key adds its UTF-8, two quotes and the colon.
    floor: usize,
    /// The bound on the canonical text's length (`BODY_TOO_LARGE` past it).
    limit: usize,
}

impl Meter {
    /// Adds a node whose text is `text` bytes (of a string or key) plus at least `fixed` bytes.
    #[inline]
    fn add(&mut self, py: Python<'_>, text: usize, fixed: usize) -> PyResult<()> {
        self.weight = self.weight.saturating_add(8 + text);
        self.floor = self.floor.saturating_add(text + fixed + 1);
        // The root has no separator: `floor` is one more than the text's lower bound.
        if self.floor > self.limit.saturating_add(1) {
            return Err(self.too_large(py));
        }
        Ok(())
    }

    /// The refusal of a value whose canonical form passes the bound.
    #[cold]
    fn too_large(&self, py: Python<'_>) -> PyErr {
        let e = ekl_core::limits::too_large(self.limit, "the value's canonical form");
        ekl_err(py, e.code(), e.message())
    }
}

fn step<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    meter: &mut Meter,
    keep: &mut Vec<Bound<'py, PyAny>>,
) -> PyResult<Step<'py>> {
    if obj.is_none() {
        meter.add(py, 0, 4)?;
        return Ok(Step::Leaf(Value::Null));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let t = text(py, s, keep)?;
        meter.add(py, t.len(), 2)?;
        return Ok(Step::Leaf(Value::String(Cow::Borrowed(t))));
    }
    meter.add(py, 0, 1)?;
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Step::Leaf(Value::Bool(b.is_true())));
    }
    if obj.is_instance_of::<PyInt>() {
        // Anything i64 cannot hold is far beyond ±2^53.
        let v = match obj.extract::<i64>() {
            Ok(n) => Value::from_i64(n),
            Err(_) => Value::from_i128(i128::MAX),
        };
        return v
            .map(Step::Leaf)
            .map_err(|e| ekl_err(py, e.code(), e.message()));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Value::from_f64(f.value())
            .map(Step::Leaf)
            .map_err(|e| ekl_err(py, e.code(), e.message()));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        return Ok(Step::Open(Frame {
            id: obj.as_ptr() as usize,
            items: Items::Dict(d.iter()),
            out: Out::Object(
                Vec::with_capacity(d.len().min(PREALLOCATE_MAX)),
                Cow::Borrowed(""),
            ),
        }));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        return Ok(Step::Open(Frame {
            id: obj.as_ptr() as usize,
            items: Items::List(l.iter()),
            out: Out::Array(Vec::with_capacity(l.len().min(PREALLOCATE_MAX))),
        }));
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        return Ok(Step::Open(Frame {
            id: obj.as_ptr() as usize,
            items: Items::Tuple(t.iter()),
            out: Out::Array(Vec::with_capacity(t.len().min(PREALLOCATE_MAX))),
        }));
    }
    let what = if obj.is_instance_of::<JsonText>() {
        "JsonText is accepted only as the whole value, not inside a host value".to_owned()
    } else if is_pydantic_model(obj) {
        format!(
            "a pydantic model ({}) has no ekl-json-1 form: its fields are not the wire's members; \
             fingerprint the message's JSON text as it crossed the wire (ekl_evidence.mcp), or pass \
             model_dump(mode=\"json\", by_alias=True, exclude_unset=True)",
            type_name(obj)
        )
    } else {
        format!("a value of type {} has no ekl-json-1 form", type_name(obj))
    };
    Err(ekl_err(py, ErrorCode::UnsupportedType, &what))
}

/// Whether `obj` is a pydantic model (the MCP SDK's `CallToolResult`, `ListToolsResult`, `Tool`,
/// …): a class named `BaseModel` of the module `pydantic.main` in its type's MRO. Read only when
/// the value is already refused (for the message); reads the MRO tuple and class attributes, runs
/// no method of the object.
fn is_pydantic_model(obj: &Bound<'_, PyAny>) -> bool {
    let Ok(mro) = obj.get_type().mro().cast_into::<PyTuple>() else {
        return false;
    };
    mro.iter().any(|t| {
        let named = |attr: &str, want: &str| {
            t.getattr(attr)
                .ok()
                .and_then(|v| v.extract::<String>().ok())
                .is_some_and(|v| v == want)
        };
        named("__name__", "BaseModel") && named("__module__", "pydantic.main")
    })
}

/// Converts a Python value into a core value without copying its strings (they borrow from the
/// `str` objects, which `keep` holds: it must outlive the value), refusing it with
/// `BODY_TOO_LARGE` as soon as its canonical text would pass `limit` bytes. Also returns the
/// value's weight (bytes of text plus a constant per node: whether to release the GIL).
pub(crate) fn to_value<'py>(
    py: Python<'py>,
    root: &Bound<'py, PyAny>,
    limit: usize,
    keep: &mut Vec<Bound<'py, PyAny>>,
) -> PyResult<(Value<'py>, usize)> {
    let mut meter = Meter {
        weight: 0,
        floor: 0,
        limit,
    };
    let mut stack: Vec<Frame<'py>> = Vec::new();
    let mut pending: Option<Bound<'py, PyAny>> = Some(root.clone());
    loop {
        // 1. Convert the pending object: a finished value, or a container to open.
        let mut finished: Option<Value<'py>> = None;
        if let Some(obj) = pending.take() {
            match step(py, &obj, &mut meter, keep)? {
                Step::Leaf(v) => finished = Some(v),
                Step::Open(frame) => {
                    if stack.iter().any(|f| f.id == frame.id) {
                        return Err(ekl_err(
                            py,
                            ErrorCode::CyclicValue,
                            "the value contains itself",
                        ));
                    }
                    if stack.len() >= MAX_DEPTH {
                        return Err(ekl_err(
                            py,
                            ErrorCode::InputTooDeep,
                            &format!("nesting deeper than {MAX_DEPTH} levels"),
                        ));
                    }
                    stack.push(frame);
                }
            }
        }
        // 2. Deliver finished values upwards and find the next object to convert.
        loop {
            let Some(top) = stack.last_mut() else {
                return Ok((finished.unwrap_or(Value::Null), meter.weight));
            };
            if let Some(v) = finished.take() {
                match &mut top.out {
                    Out::Array(items) => items.push(v),
                    Out::Object(members, key) => {
                        members.push((std::mem::take(key), v));
                    }
                }
            }
            let next = match &mut top.items {
                Items::List(it) => it.next(),
                Items::Tuple(it) => it.next(),
                Items::Dict(it) => match it.next() {
                    None => None,
                    Some((k, v)) => {
                        let Ok(ks) = k.cast::<PyString>() else {
                            return Err(ekl_err(
                                py,
                                ErrorCode::NonStringKey,
                                &format!("an object key must be a str, got {}", type_name(&k)),
                            ));
                        };
                        let key = text(py, ks, keep)?;
                        // Quotes and colon; the member's separator is its value's.
                        meter.add(py, key.len(), 2 - 1)?;
                        if let Out::Object(_, slot) = &mut top.out {
                            *slot = Cow::Borrowed(key);
                        }
                        Some(v)
                    }
                },
            };
            match next {
                Some(obj) => {
                    pending = Some(obj);
                    break;
                }
                None => {
                    let frame = stack.pop().expect("the stack is not empty here");
                    finished = Some(match frame.out {
                        Out::Array(items) => Value::Array(items),
                        Out::Object(members, _) => Value::Object(members),
                    });
                    if stack.is_empty() {
                        return Ok((finished.take().unwrap_or(Value::Null), meter.weight));
                    }
                }
            }
        }
    }
}

/// Converts a core value (at most [`MAX_DEPTH`] deep: it came from the parser or the core) into
/// Python: objects → dict, arrays → list, integral numbers within ±2^53 → int, other numbers →
/// float. Recursion is bounded by the depth check.
pub(crate) fn to_py<'py>(py: Python<'py>, value: &Value<'_>) -> PyResult<Bound<'py, PyAny>> {
    to_py_at(py, value, 0)
}

fn to_py_at<'py>(py: Python<'py>, value: &Value<'_>, depth: usize) -> PyResult<Bound<'py, PyAny>> {
    if depth > MAX_DEPTH {
        return Err(ekl_err(
            py,
            ErrorCode::InputTooDeep,
            &format!("nesting deeper than {MAX_DEPTH} levels"),
        ));
    }
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(x) => {
            let bound = ekl_core::MAX_SAFE_INTEGER_BOUND as f64;
            if x.fract() == 0.0 && x.abs() <= bound {
                (*x as i64).into_pyobject(py)?.into_any()
            } else {
                PyFloat::new(py, *x).into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py_at(py, item, depth + 1)?)?;
            }
            list.into_any()
        }
        Value::Object(members) => {
            let dict = PyDict::new(py);
            for (k, v) in members {
                dict.set_item(k.as_ref(), to_py_at(py, v, depth + 1)?)?;
            }
            dict.into_any()
        }
    })
}
