//! # ekl-wasm — ekl-core for WebAssembly (browsers and Node)
//!
//! The raw exports of the npm package `ekl-wasm`: `wasm-bindgen` over [`ekl_bridge`]. Every
//! operation of the registry goes through ONE export, [`call`]: the package's JS layer (the API
//! shared with the Node package, `node/js/api.js`, over `wasm/js/binding.js`) builds the API from
//! the manifest [`operations`] and passes the arguments in registry order. A refusal is thrown as
//! an `Error` whose message is `CODE: message`, which the JS layer turns into an `EklError`.
//!
//! Features: `full` (the default) binds every operation of the registry; without it (and with
//! `verify`) the module is the verify build of the browser entry, the verifying operations only,
//! no `SigningKeyHandle` and no `callWithKey` (docs/decisions/wasm.md#verify-build).
//!
//! No export panics on any input (the core has no panic reachable from input). Should a trap
//! happen all the same (a panic aborts: `RuntimeError: unreachable`), the binding throws
//! `INTERNAL_ERROR` with a fixed message and replaces the instance with a fresh one, wiping the
//! old one's memory; [`test_panic`] lets the tests prove that. Inputs larger than the documented
//! maximum are refused in JS before they are copied into the module's memory.

use ekl_bridge::{Arg, Kind, Out, Returns};
#[cfg(feature = "signing")]
use ekl_core::jwk::SigningKey;
use ekl_core::{canonical, Error, ErrorCode};
use wasm_bindgen::prelude::*;
use zeroize::{Zeroize, Zeroizing};

/// A core refusal as the value thrown into JS: an `Error` whose message is `CODE: message`.
fn throw(e: Error) -> JsError {
    JsError::new(&e.to_string())
}

fn invalid(message: String) -> Error {
    Error::new(ErrorCode::InvalidArgument, message)
}

/// The version of the core this module was built from.
#[wasm_bindgen(js_name = coreVersion)]
pub fn core_version() -> String {
    ekl_bridge::VERSION.to_owned()
}

/// Every stable error code, one per line, in declaration order.
#[wasm_bindgen(js_name = errorCodes)]
pub fn error_codes() -> String {
    ekl_bridge::error_codes()
        .map(|c| format!("{c}\n"))
        .collect()
}

/// The manifest `docs/operations.json`, from which the JS layer builds the API.
#[wasm_bindgen]
pub fn operations() -> String {
    ekl_bridge::manifest::operations_json()
}

/// Test hook (hidden, test-only, as `__testPanic` in the Node addon): panics, which aborts this
/// instance with a trap, so that the tests can prove the binding recovers from one.
#[wasm_bindgen(js_name = __testPanic)]
pub fn test_panic() {
    panic!("deliberate panic for the test suite")
}

/// ekl-json-1 canonical bytes of JSON text; `max_bytes` refuses larger output (`BODY_TOO_LARGE`):
/// the fast path of `canonicalize` and `canonicalizeValue` (bytes out, no JSON string).
#[wasm_bindgen]
pub fn canonicalize(json: &[u8], max_bytes: Option<u32>) -> Result<Vec<u8>, JsError> {
    let options = canonical::Options {
        max_bytes: max_bytes.map(|n| n as usize),
    };
    canonical::canonicalize_with(json, options).map_err(throw)
}

/// An ES256 signing key held inside the module. JS holds only this object, whose one field is
/// wasm-bindgen's pointer into the module's memory: the seed and the secret scalar never become
/// JS values. `free()` (or wasm-bindgen's FinalizationRegistry) drops the key, which wipes its
/// scalar.
#[cfg(feature = "signing")]
#[wasm_bindgen]
pub struct SigningKeyHandle {
    inner: SigningKey,
}

#[cfg(feature = "signing")]
#[wasm_bindgen]
impl SigningKeyHandle {
    /// The key id.
    pub fn kid(&self) -> String {
        self.inner.kid().to_owned()
    }
}

/// Overwrites the 32 KB of stack below the caller's frame, where the functions it called left
/// their locals: the seed's bytes and the scalar derived from it stay in the module's linear
/// memory until overwritten. Run after every call that handles a seed or a signing key.
#[inline(never)]
fn scrub_stack() {
    let mut area = [0u8; 32 * 1024];
    // Volatile writes (zeroize): not removed as dead stores.
    area.zeroize();
    core::hint::black_box(&area);
}

/// One argument as JS passed it: JSON text and bytes are slices of `data` (the slot holds their
/// length), strings are wiped when dropped.
enum Held<'a> {
    Absent,
    Bytes(&'a [u8]),
    Str(Zeroizing<String>),
    Int(i64),
    Bool(bool),
    List(Vec<String>),
    Number(f64),
}

fn read<'a>(p: &ekl_bridge::Param, v: &JsValue, data: &mut &'a [u8]) -> Result<Held<'a>, Error> {
    let bad = || invalid(format!("{}: wrong type of argument", p.name));
    if v.is_null() || v.is_undefined() {
        return Ok(Held::Absent);
    }
    let mut take = || -> Result<&'a [u8], Error> {
        let n = v.as_f64().ok_or_else(bad)? as usize;
        if n > data.len() {
            return Err(bad());
        }
        let (head, tail) = data.split_at(n);
        *data = tail;
        Ok(head)
    };
    if matches!(p.kind, Kind::Str | Kind::Salt | Kind::Bytes) {
        // Read once: the copy in the module's memory is the one that is wiped.
        if let Some(s) = v.as_string() {
            return Ok(Held::Str(Zeroizing::new(s)));
        }
    }
    Ok(match p.kind {
        Kind::Value | Kind::Text | Kind::Jwks | Kind::Bytes => Held::Bytes(take()?),
        Kind::Str | Kind::Salt => return Err(bad()),
        // A fraction is floored, as on every surface (ekl_bridge::seconds_of).
        Kind::Now => Held::Int(
            v.as_f64()
                .and_then(ekl_bridge::seconds_of)
                .ok_or_else(|| invalid(format!("{} must be a number of seconds", p.name)))?,
        ),
        Kind::Int => {
            let x = v.as_f64().ok_or_else(bad)?;
            if !(x.is_finite() && x.fract() == 0.0 && x.abs() <= 9007199254740992.0) {
                return Err(invalid(format!("{} must be an integer", p.name)));
            }
            Held::Int(x as i64)
        }
        Kind::Bool => Held::Bool(v.as_bool().ok_or_else(bad)?),
        Kind::StrList => {
            let list = canonical::parse(take()?)?;
            let items = list.as_array().ok_or_else(bad)?;
            Held::List(
                items
                    .iter()
                    .map(|s| s.as_str().map(str::to_owned).ok_or_else(bad))
                    .collect::<Result<_, _>>()?,
            )
        }
        Kind::Number => Held::Number(v.as_f64().ok_or_else(bad)?),
        Kind::Key | Kind::Handle(_) => return Err(bad()),
    })
}

/// What [`run`] takes for a key parameter: the handle (none exists without the `signing` feature).
#[cfg(feature = "signing")]
type KeyIn = SigningKeyHandle;
/// What [`run`] takes for a key parameter: none exists without the `signing` feature.
#[cfg(not(feature = "signing"))]
type KeyIn = core::convert::Infallible;

/// The argument of a key parameter.
#[cfg(feature = "signing")]
fn key_arg(key: Option<&KeyIn>) -> Arg<'_> {
    key.map_or(Arg::Absent, |k| Arg::Key(&k.inner))
}

/// The argument of a key parameter: always absent without the `signing` feature.
#[cfg(not(feature = "signing"))]
fn key_arg(key: Option<&KeyIn>) -> Arg<'_> {
    match key {
        None => Arg::Absent,
        Some(never) => match *never {},
    }
}

fn run(
    index: u32,
    args: &[JsValue],
    mut data: &[u8],
    key: Option<&KeyIn>,
    handle: Option<&MachineHandle>,
) -> Result<JsValue, Error> {
    let op = ekl_bridge::by_index(index as usize)?;
    if args.len() != op.params.len() {
        return Err(invalid(format!(
            "{} takes {} arguments",
            op.name,
            op.params.len()
        )));
    }
    let mut held = Vec::with_capacity(args.len());
    for (p, v) in op.params.iter().zip(args) {
        held.push(if matches!(p.kind, Kind::Key | Kind::Handle(_)) {
            Held::Absent
        } else {
            read(p, v, &mut data)?
        });
    }
    let call: Vec<Arg<'_>> = held
        .iter()
        .zip(op.params)
        .map(|(h, p)| match h {
            Held::Absent if p.kind == Kind::Key => key_arg(key),
            Held::Absent if matches!(p.kind, Kind::Handle(_)) => {
                handle.map_or(Arg::Absent, |h| Arg::Handle(&h.inner))
            }
            Held::Absent => Arg::Absent,
            Held::Bytes(b) if p.kind == Kind::Bytes => Arg::Bytes(b),
            Held::Bytes(b) => Arg::Text(b),
            Held::Str(s) => Arg::Str(s),
            Held::Int(n) => Arg::Int(*n),
            Held::Bool(b) => Arg::Bool(*b),
            Held::List(l) => Arg::StrList(l.iter().map(String::as_str).collect()),
            Held::Number(x) => Arg::Number(*x),
        })
        .collect();
    Ok(match ekl_bridge::call(op, &call)? {
        Out::Str(s) => JsValue::from_str(&s),
        Out::Bool(b) => JsValue::from_bool(b),
        Out::Bytes(b) => JsValue::from(b),
        #[cfg(feature = "signing")]
        Out::Key(k) => SigningKeyHandle { inner: k }.into(),
        Out::Handle(h) => MachineHandle { inner: h }.into(),
        #[cfg(feature = "signing")]
        Out::KeySet(jwks, keys) => {
            let mut list = vec![JsValue::from_str(&jwks.to_json())];
            list.extend(
                keys.into_iter()
                    .map(|k| JsValue::from(SigningKeyHandle { inner: k })),
            );
            JsValue::from(list)
        }
        other => {
            let text = String::from_utf8(other.to_json()?)
                .map_err(|_| Error::new(ErrorCode::InvalidUtf8, "output is not UTF-8"))?;
            JsValue::from_str(&text)
        }
    })
}

/// Runs operation `index` of the registry: `args` has one slot per parameter, in registry order
/// (`null` for an option left out); JSON text, bytes and string lists (as JSON text) are
/// concatenated in `data` and their slots hold their lengths. Returns a string (JSON text for
/// values), a boolean, bytes, a `SigningKeyHandle`, or for a key set an array of the JWKS's JSON text
/// and the keys.
#[wasm_bindgen]
pub fn call(index: u32, args: Vec<JsValue>, data: &[u8]) -> Result<JsValue, JsError> {
    let secret = ekl_bridge::by_index(index as usize)
        .is_ok_and(|op| matches!(op.returns, Returns::Key | Returns::KeySet));
    let out = run(index, &args, data, None, None);
    if secret {
        scrub_stack();
    }
    out.map_err(throw)
}

/// [`call`] for an operation that takes a signing key (its slot in `args` is `null`).
#[cfg(feature = "signing")]
#[wasm_bindgen(js_name = callWithKey)]
pub fn call_with_key(
    index: u32,
    args: Vec<JsValue>,
    data: &[u8],
    key: &SigningKeyHandle,
) -> Result<JsValue, JsError> {
    let out = run(index, &args, data, Some(key), None);
    scrub_stack();
    out.map_err(throw)
}

/// A machine's handle (`ekl_bridge::Handle`, docs/decisions/handles.md) held inside the module: JS
/// holds this object and passes it as the `self` of the class's methods ([`call_with_handle`]).
#[wasm_bindgen]
pub struct MachineHandle {
    inner: ekl_bridge::Handle,
}

#[wasm_bindgen]
impl MachineHandle {
    /// The handle's class name.
    #[wasm_bindgen(js_name = className)]
    pub fn class_name(&self) -> String {
        self.inner.class().to_owned()
    }
}

/// [`call`] for a method of a handle (its `self` slot in `args` is `null`).
#[wasm_bindgen(js_name = callWithHandle)]
pub fn call_with_handle(
    index: u32,
    args: Vec<JsValue>,
    data: &[u8],
    handle: &MachineHandle,
) -> Result<JsValue, JsError> {
    run(index, &args, data, None, Some(handle)).map_err(throw)
}
