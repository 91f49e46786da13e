//! The native half of the `ekl-core` npm package: napi-rs over [`ekl_bridge`].
//!
//! Every operation of the registry goes through ONE function, [`call`] (and [`call_async`] on
//! the libuv thread pool): the JS layer (`node/js/api.js`, shared with the wasm package) builds
//! the public API from the manifest [`operations`] and passes the arguments in registry order,
//! already converted by kind: JSON text as `Uint8Array`, strings, numbers, booleans, string
//! arrays, a [`SigningKeyHandle`], `null` for an option left out. Results leave as strings
//! (JSON text for values, which JS parses), booleans, `Buffer`s or key handles.
//!
//! What stays here is the host's own: the canonicalisation fast path through a JS-owned output
//! buffer ([`canonicalize_into`], [`take_result`]), the signing key handle (its secret never
//! readable from JS), the error identity (a thrown `Error` whose `code` is the core's code) and
//! the panic guard ([`guarded`]: a panic becomes `INTERNAL_ERROR` with a fixed message).

use std::sync::Arc;

use ekl_bridge::{Arg, Kind, Out};
use ekl_core::canonical::{self, Options};
use ekl_core::jwk::SigningKey;
use ekl_core::ErrorCode;
use napi::bindgen_prelude::{
    Array, AsyncTask, Buffer, ClassInstance, Either, Either6, Uint8Array, Unknown,
};
use napi::{Env, Task, ValueType};
use napi_derive::napi;
use zeroize::Zeroizing;

/// The stable code string of a refusal, as the thrown error's `code`.
pub struct Code(&'static str);

impl AsRef<str> for Code {
    fn as_ref(&self) -> &str {
        self.0
    }
}

/// The result type of every exported function: errors carry the core's code.
pub type Result<T> = std::result::Result<T, napi::Error<Code>>;

fn core_err(e: ekl_core::Error) -> napi::Error<Code> {
    napi::Error::new(Code(e.code().as_str()), e.message().to_owned())
}

fn invalid(message: String) -> ekl_core::Error {
    ekl_core::Error::new(ErrorCode::InvalidArgument, message)
}

/// The fixed message of a caught panic: a panic's own text may quote input, so it never reaches JS.
pub const INTERNAL_MESSAGE: &str =
    "internal error in ekl-core (a bug, never an answer to input: please report it)";

/// Replaces the default panic hook of this addon (its own copy of the standard library) with one
/// that writes the location only: the default one would print the panic's text, which may quote
/// input, to stderr.
fn quiet_panic_hook() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let at = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            eprintln!("ekl-core: internal error caught{at} (please report it)");
        }));
    });
}

/// Runs `f`: a panic (none is reachable from input) becomes `INTERNAL_ERROR` with a fixed message,
/// and the addon keeps serving. (`#[napi(catch_unwind)]` stays as a second net.)
fn guarded<T>(f: impl FnOnce() -> ekl_core::Result<T>) -> ekl_core::Result<T> {
    quiet_panic_hook();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        // A payload whose Drop panics again must not unwind across the FFI boundary.
        std::mem::forget(payload);
        Err(ekl_core::Error::new(ErrorCode::Internal, INTERNAL_MESSAGE))
    })
}

// ---------------------------------------------------------------------------------------------
// the registry: one generic call
// ---------------------------------------------------------------------------------------------

/// The manifest `docs/operations.json`: every operation with its parameters, from which the JS
/// layer builds the API.
#[napi]
pub fn operations() -> String {
    ekl_bridge::manifest::operations_json()
}

/// One argument read from JS by its parameter's kind: bytes `B` are the caller's `Uint8Array`
/// (sync calls read it in place; the JS layer copies views of a `SharedArrayBuffer` first) or a
/// copy (`Vec<u8>`, async calls). Strings are wiped when dropped (a seed or a secret is one).
enum Held<B> {
    Absent,
    Bytes(B),
    Str(Zeroizing<String>),
    Int(i64),
    Bool(bool),
    List(Vec<Zeroizing<String>>),
    Key(Arc<SigningKey>),
    Number(f64),
    Handle(Arc<ekl_bridge::Handle>),
}

impl<B: std::ops::Deref<Target = [u8]>> Held<B> {
    fn arg(&self, kind: Kind) -> Arg<'_> {
        match self {
            Held::Absent => Arg::Absent,
            Held::Bytes(b) if kind == Kind::Bytes => Arg::Bytes(b),
            Held::Bytes(b) => Arg::Text(b),
            Held::Str(s) => Arg::Str(s),
            Held::Int(n) => Arg::Int(*n),
            Held::Bool(b) => Arg::Bool(*b),
            Held::List(l) => Arg::StrList(l.iter().map(|s| s.as_str()).collect()),
            Held::Key(k) => Arg::Key(k),
            Held::Number(x) => Arg::Number(*x),
            Held::Handle(h) => Arg::Handle(h),
        }
    }

    fn owned(self) -> Held<Vec<u8>> {
        match self {
            Held::Absent => Held::Absent,
            Held::Bytes(b) => Held::Bytes(b.to_vec()),
            Held::Str(s) => Held::Str(s),
            Held::Int(n) => Held::Int(n),
            Held::Bool(b) => Held::Bool(b),
            Held::List(l) => Held::List(l),
            Held::Key(k) => Held::Key(k),
            Held::Number(x) => Held::Number(x),
            Held::Handle(h) => Held::Handle(h),
        }
    }
}

fn seconds(x: f64, what: &str) -> ekl_core::Result<i64> {
    if x.is_finite() && x.fract() == 0.0 && x.abs() <= 9007199254740992.0 {
        Ok(x as i64)
    } else {
        Err(invalid(format!("{what} must be an integer")))
    }
}

/// Reads argument `i` of `args` as the parameter's kind wants it (`null`/`undefined`: absent).
fn read(args: &Array<'_>, i: u32, p: &ekl_bridge::Param) -> ekl_core::Result<Held<Uint8Array>> {
    let bad = |_| invalid(format!("{}: wrong type of argument", p.name));
    let value = args.get::<Unknown<'_>>(i).map_err(bad)?;
    if value.is_none_or(|u| matches!(u.get_type(), Ok(ValueType::Undefined | ValueType::Null))) {
        return Ok(Held::Absent);
    }
    Ok(match p.kind {
        Kind::Value | Kind::Text | Kind::Jwks => args
            .get::<Uint8Array>(i)
            .map_err(bad)?
            .map_or(Held::Absent, Held::Bytes),
        Kind::Bytes => match args.get::<Either<Uint8Array, String>>(i).map_err(bad)? {
            Some(Either::A(b)) => Held::Bytes(b),
            Some(Either::B(s)) => Held::Str(Zeroizing::new(s)),
            None => Held::Absent,
        },
        Kind::Str | Kind::Salt => Held::Str(Zeroizing::new(
            args.get::<String>(i).map_err(bad)?.unwrap_or_default(),
        )),
        Kind::Int => Held::Int(seconds(
            args.get::<f64>(i).map_err(bad)?.unwrap_or(f64::NAN),
            p.name,
        )?),
        // A fraction is floored, as on every surface (ekl_bridge::seconds_of).
        Kind::Now => Held::Int(
            ekl_bridge::seconds_of(args.get::<f64>(i).map_err(bad)?.unwrap_or(f64::NAN))
                .ok_or_else(|| invalid(format!("{} must be a number of seconds", p.name)))?,
        ),
        Kind::Bool => Held::Bool(args.get::<bool>(i).map_err(bad)?.unwrap_or_default()),
        Kind::StrList => Held::List(
            args.get::<Vec<String>>(i)
                .map_err(bad)?
                .unwrap_or_default()
                .into_iter()
                .map(Zeroizing::new)
                .collect(),
        ),
        Kind::Number => Held::Number(args.get::<f64>(i).map_err(bad)?.unwrap_or(f64::NAN)),
        Kind::Handle(_) => {
            let handle = args
                .get::<ClassInstance<MachineHandle>>(i)
                .map_err(|_| invalid(format!("{}: must be the method's handle", p.name)))?
                .ok_or_else(|| invalid(format!("{} is required", p.name)))?;
            Held::Handle(handle.inner.clone())
        }
        Kind::Key => {
            let key = args
                .get::<ClassInstance<SigningKeyHandle>>(i)
                .map_err(|_| invalid(format!("{}: must be a SigningKey", p.name)))?
                .ok_or_else(|| invalid(format!("{} is required", p.name)))?;
            Held::Key(key.inner.clone())
        }
    })
}

#[allow(clippy::type_complexity)]
fn read_all(
    index: u32,
    args: &Array<'_>,
) -> ekl_core::Result<(&'static ekl_bridge::Op, Vec<Held<Uint8Array>>)> {
    let op = ekl_bridge::by_index(index as usize)?;
    if args.len() as usize != op.params.len() {
        return Err(invalid(format!(
            "{} takes {} arguments",
            op.name,
            op.params.len()
        )));
    }
    let held = (0..args.len())
        .zip(op.params)
        .map(|(i, p)| read(args, i, p))
        .collect::<ekl_core::Result<Vec<_>>>()?;
    Ok((op, held))
}

fn run<B: std::ops::Deref<Target = [u8]>>(
    op: &ekl_bridge::Op,
    held: &[Held<B>],
) -> ekl_core::Result<Out> {
    let args: Vec<Arg<'_>> = held
        .iter()
        .zip(op.params)
        .map(|(h, p)| h.arg(p.kind))
        .collect();
    ekl_bridge::call(op, &args)
}

/// A JWKS (canonical JSON text) and its signing keys, one per kid.
#[napi(object, object_from_js = false)]
pub struct KeySet {
    /// The public key set, as canonical JSON text.
    pub jwks: String,
    /// The signing keys, in the order of the kids.
    pub keys: Vec<SigningKeyHandle>,
}

/// What [`call`] returns: a string (JSON text for values), a boolean, bytes, a key, a key set, a
/// machine's handle.
pub type CallResult = Either6<String, bool, Buffer, SigningKeyHandle, KeySet, MachineHandle>;

fn present(out: Out) -> ekl_core::Result<CallResult> {
    Ok(match out {
        Out::Str(s) => Either6::A(s),
        Out::Bool(b) => Either6::B(b),
        Out::Bytes(b) => Either6::C(b.into()),
        Out::Key(k) => Either6::D(SigningKeyHandle { inner: Arc::new(k) }),
        Out::KeySet(jwks, keys) => Either6::E(KeySet {
            jwks: jwks.to_json(),
            keys: keys
                .into_iter()
                .map(|k| SigningKeyHandle { inner: Arc::new(k) })
                .collect(),
        }),
        Out::Handle(h) => Either6::F(MachineHandle { inner: Arc::new(h) }),
        other => Either6::A(
            String::from_utf8(other.to_json()?)
                .map_err(|_| ekl_core::Error::new(ErrorCode::InvalidUtf8, "output is not UTF-8"))?,
        ),
    })
}

/// Runs operation `index` of the registry on its arguments (one per parameter, in registry
/// order; `null` for an option left out).
#[napi(
    catch_unwind,
    ts_args_type = "index: number, args: Array<Uint8Array | string | number | boolean | null | string[] | SigningKeyHandle | MachineHandle>",
    ts_return_type = "string | boolean | Buffer | SigningKeyHandle | KeySet | MachineHandle"
)]
pub fn call(index: u32, args: Array<'_>) -> Result<CallResult> {
    guarded(|| {
        let (op, held) = read_all(index, &args)?;
        // Copied before they are read: a view of a SharedArrayBuffer may change under the core
        // (see with_copy); one copy per text argument costs little beside any operation here.
        let held: Vec<Held<Vec<u8>>> = held.into_iter().map(Held::owned).collect();
        present(run(op, &held)?)
    })
    .map_err(core_err)
}

/// An operation with its arguments copied, for the thread pool.
pub struct CallTask {
    op: &'static ekl_bridge::Op,
    held: Vec<Held<Vec<u8>>>,
}

impl Task for CallTask {
    type Output = ekl_core::Result<Out>;
    type JsValue = CallResult;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(guarded(|| run(self.op, &self.held)))
    }

    fn resolve(&mut self, _env: Env, output: Self::Output) -> napi::Result<CallResult> {
        // An async rejection carries no custom `code`: the code leads the message ("CODE:
        // message", the core's Display form) and the JS layer reads it back.
        output
            .and_then(present)
            .map_err(|e| napi::Error::new(napi::Status::GenericFailure, e.to_string()))
    }
}

/// [`call`] on the libuv thread pool (the arguments are copied before it returns).
#[napi(
    catch_unwind,
    ts_args_type = "index: number, args: Array<Uint8Array | string | number | boolean | null | string[] | SigningKeyHandle | MachineHandle>",
    ts_return_type = "Promise<string | boolean | Buffer | SigningKeyHandle | KeySet | MachineHandle>"
)]
pub fn call_async(index: u32, args: Array<'_>) -> Result<AsyncTask<CallTask>> {
    guarded(|| {
        let (op, held) = read_all(index, &args)?;
        let held = held.into_iter().map(Held::owned).collect();
        Ok(AsyncTask::new(CallTask { op, held }))
    })
    .map_err(core_err)
}

// ---------------------------------------------------------------------------------------------
// the host's own
// ---------------------------------------------------------------------------------------------

/// An ES256 signing key: JS holds this object only; the key (and its secret scalar, wiped on drop
/// by p256) stays in Rust.
#[napi]
pub struct SigningKeyHandle {
    inner: Arc<SigningKey>,
}

#[napi]
impl SigningKeyHandle {
    /// The key id.
    #[napi]
    pub fn kid(&self) -> String {
        self.inner.kid().to_owned()
    }
}

/// A machine's handle (`ekl_bridge::Handle`, docs/decisions/handles.md): the machine and its
/// lock stay in Rust; JS holds this object and passes it as the `self` of the class's methods
/// (the JS layer builds the class from the manifest's `handles`).
#[napi]
pub struct MachineHandle {
    inner: Arc<ekl_bridge::Handle>,
}

#[napi]
impl MachineHandle {
    /// The handle's class name.
    #[napi]
    pub fn class_name(&self) -> String {
        self.inner.class().to_owned()
    }
}

/// Bytes the native layer writes into: a `Uint8Array` owned by the JS side.
pub type OutBytes<'a> = &'a mut [u8];

thread_local! {
    /// A result too large for the caller's output buffer, kept for [`take_result`].
    static OVERFLOW: std::cell::RefCell<Option<Vec<u8>>> = const { std::cell::RefCell::new(None) };
}

thread_local! {
    /// The copy of the caller's JSON text that [`canonicalize_into`] and
    /// [`canonicalize_string_into`] read (kept between calls while at most [`KEEP_COPY_BYTES`]).
    static INPUT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The largest input copy kept for the next call on the thread.
const KEEP_COPY_BYTES: usize = 1 << 20;

/// Runs `f` on a copy of `json`. A `Uint8Array` may be a view of a `SharedArrayBuffer` that
/// another thread writes while the core reads it (the JS layer copies such views, but these raw
/// exports can be called directly): read in place, bytes validated as UTF-8 could change before
/// they are copied out, and the output would not be UTF-8. A copy is one `memcpy`, into a buffer
/// reused across calls; the core reads a snapshot that no one else can write.
fn with_copy<T>(json: &[u8], f: impl FnOnce(&[u8]) -> T) -> T {
    INPUT.with(|cell| {
        let Ok(mut buf) = cell.try_borrow_mut() else {
            // Not reentered in practice (no JS runs inside); a copy of its own all the same.
            let copy: Vec<u8> = json.to_vec();
            return f(&copy);
        };
        buf.clear();
        buf.extend_from_slice(json);
        let out = f(&buf);
        if buf.capacity() > KEEP_COPY_BYTES {
            *buf = Vec::new();
        }
        out
    })
}

/// The result that the last [`canonicalize_into`] on this thread could not fit into its buffer.
#[napi]
pub fn take_result() -> Buffer {
    OVERFLOW
        .with(|o| o.borrow_mut().take())
        .unwrap_or_default()
        .into()
}

/// Canonicalises JSON text (ekl-json-1) into `out` from byte `at` on and returns the length, or
/// -1 when it does not fit (then [`take_result`] gives it): a napi `Buffer` per call costs more
/// than canonicalising a small document, and the JS layer hands out views of `out` (a slab it
/// fills result after result) without copying. `maxBytes` limits the canonical form
/// (`BODY_TOO_LARGE`).
#[napi(catch_unwind)]
pub fn canonicalize_into(
    json: &[u8],
    max_bytes: Option<f64>,
    #[napi(ts_arg_type = "Uint8Array")] out: OutBytes<'_>,
    at: u32,
) -> Result<f64> {
    guarded(|| {
        let max_bytes = match max_bytes {
            None => None,
            Some(n) if n >= 0.0 => Some(seconds(n, "maxBytes")? as usize),
            Some(_) => return Err(invalid("maxBytes must not be negative".into())),
        };
        let bytes = with_copy(json, |json| {
            canonical::canonicalize_with(json, Options { max_bytes })
        })?;
        Ok(deliver(bytes, out, at))
    })
    .map_err(core_err)
}

/// Canonical bytes into the caller's buffer from byte `at` on: their length, or -1 when they do
/// not fit (they are kept for `takeResult`).
fn deliver(bytes: Vec<u8>, out: OutBytes<'_>, at: u32) -> f64 {
    let at = at as usize;
    if let Some(dst) = out.get_mut(at..at.saturating_add(bytes.len())) {
        dst.copy_from_slice(&bytes);
        bytes.len() as f64
    } else {
        OVERFLOW.with(|o| *o.borrow_mut() = Some(bytes));
        -1.0
    }
}

/// Whether UTF-8 text holds U+FFFD (`EF BF BD`), by `memchr`'s SIMD substring search: a lone
/// surrogate of a JS string becomes U+FFFD when the string is encoded, so text without one came
/// from a well-formed string.
fn holds_replacement_character(text: &[u8]) -> bool {
    memchr::memmem::find(text, "\u{fffd}".as_bytes()).is_some()
}

/// [`canonicalize_into`] for the UTF-8 form of a JS string (its first `len` bytes of `json`, the
/// JS layer's reusable encoding buffer), without a size limit: -2, before the text is read, when
/// it holds U+FFFD (a lone surrogate of the string would have become one: the JS layer then
/// checks the string itself, which tells the two apart). Spares the JS layer a second pass over
/// every string (`isWellFormed`).
#[napi(catch_unwind)]
pub fn canonicalize_string_into(
    json: &[u8],
    len: u32,
    #[napi(ts_arg_type = "Uint8Array")] out: OutBytes<'_>,
    at: u32,
) -> Result<f64> {
    guarded(|| {
        let json = json
            .get(..len as usize)
            .ok_or_else(|| invalid("len is past the end of the text".into()))?;
        let bytes = with_copy(json, |json| {
            if holds_replacement_character(json) {
                return Ok(None);
            }
            canonical::canonicalize_with(json, Options::default()).map(Some)
        })?;
        Ok(bytes.map_or(-2.0, |bytes| deliver(bytes, out, at)))
    })
    .map_err(core_err)
}

/// Every error code of the core, in declaration order.
#[napi]
pub fn error_codes() -> Vec<String> {
    ekl_bridge::error_codes().map(str::to_owned).collect()
}

/// The version of the core this addon was built from.
#[napi]
pub fn core_version() -> String {
    ekl_bridge::VERSION.to_owned()
}

/// Test hook (hidden, test-only): panics inside [`guarded`], to prove that a panic becomes
/// `INTERNAL_ERROR` with a fixed message and that the addon keeps serving.
#[napi(catch_unwind, js_name = "__testPanic")]
pub fn test_panic() -> Result<()> {
    guarded(|| panic!("deliberate panic for the test suite")).map_err(core_err)
}

#[cfg(test)]
mod tests {
    use super::holds_replacement_character;

    #[test]
    fn replacement_character_found_at_every_offset() {
        let naive = |t: &[u8]| t.windows(3).any(|w| w == [0xef, 0xbf, 0xbd]);
        for len in 0..24 {
            for filler in [b'a', 0xef, 0xbf, 0xbd] {
                let mut t = vec![filler; len];
                assert_eq!(holds_replacement_character(&t), naive(&t));
                for at in 0..len.saturating_sub(2) {
                    t[at..at + 3].copy_from_slice(&[0xef, 0xbf, 0xbd]);
                    assert!(holds_replacement_character(&t), "{len} {at}");
                    t[at + 2] = 0xbe;
                    assert_eq!(holds_replacement_character(&t), naive(&t), "{len} {at}");
                    t[at..at + 3].copy_from_slice(&[filler; 3]);
                }
            }
        }
        assert!(!holds_replacement_character(
            "ｱｲｳ ｶﾀｶﾅ ｡end \u{fffe}".as_bytes()
        ));
        assert!(holds_replacement_character("ｱ\u{fffd}".as_bytes()));
    }
}
