//! The JSON form of a registry call's arguments (docs/conformance-protocol.md, `call`), shared by
//! the protocol's `call` requests and `ekl call NAME` (crate `ekl-cli`): any operation of the
//! bridge's registry (docs/operations.json).
//!
//! Arguments are given by wire name. In a conformance request (and `--args FILE`) they are one
//! JSON object whose members are, by the parameter's kind: a JSON **string holding the JSON
//! text** for `value`, `text` and `jwks` (so duplicate members and long integers reach the core as
//! written); a string for `str` and `bytes`; an integer for `int`; a number for `now` (a fraction
//! is floored, as on every surface: `ekl_bridge::seconds_of`); a boolean for
//! `bool`; an array of strings for `str_list`; 64 lowercase hex for `salt`; for `key`, `{"seed": HEX, "kid": KID}`, a private
//! JWK `{"jwk": TEXT}` or a PEM file `{"pem": TEXT, "kid": KID}`; a number for `number`; for
//! `handle` (the `self` of a method row), how to make it: `{"new": ARGS, "then": [[METHOD,
//! ARGS], …]}`, the class's constructor called with ARGS, then each method in turn (their
//! outcomes, refusals included, are not looked at). On the
//! command line, `--arg NAME=VALUE` gives the same forms as text (a key as `SEED_HEX:KID`), and
//! `--arg-file NAME=FILE` / `--arg-env NAME=VAR` read the text from a file or the environment
//! (for secrets).

use ekl_bridge::{Arg, Kind, Op, Out};
use ekl_core::jwk::SigningKey;
use ekl_core::{Error, ErrorCode, Value};
use zeroize::Zeroizing;

/// One argument, owned, before it is lent to the bridge.
#[allow(clippy::large_enum_variant)] // a handful per call
pub enum Owned {
    /// Left out.
    Absent,
    /// JSON text, or the exact bytes of a `bytes` argument (a file's, as it is).
    Text(Vec<u8>),
    /// A string (wiped when dropped: it may be a secret).
    Str(Zeroizing<String>),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A list of strings.
    List(Vec<String>),
    /// A signing key.
    Key(SigningKey),
    /// A number.
    Number(f64),
    /// A machine's handle.
    Handle(ekl_bridge::Handle),
}

fn invalid(message: String) -> Error {
    Error::new(ErrorCode::InvalidArgument, message)
}

/// A signing key from a seed (hex) and a kid: the `signing_key` operation.
pub fn key_of(seed: &str, kid: &str) -> Result<Owned, Error> {
    key_from(
        "signing_key",
        &[("seed", Arg::Str(seed)), ("kid", Arg::Str(kid))],
    )
}

/// The signing key that registry operation `op` makes of `args`.
fn key_from(op: &str, args: &[(&str, Arg<'_>)]) -> Result<Owned, Error> {
    match ekl_bridge::call_named(op, args)? {
        Out::Key(k) => Ok(Owned::Key(k)),
        _ => Err(Error::new(ErrorCode::Internal, "no key")),
    }
}

/// The argument of kind `kind` from its JSON form in a request's `args` object.
pub fn from_json(name: &str, kind: Kind, v: &Value<'_>) -> Result<Owned, Error> {
    let bad = || {
        invalid(format!(
            "argument {name} must be given as {}",
            json_form(kind)
        ))
    };
    Ok(match (kind, v) {
        (_, Value::Null) => Owned::Absent,
        (Kind::Value | Kind::Text | Kind::Jwks | Kind::Bytes, Value::String(s)) => {
            if kind == Kind::Bytes {
                Owned::Str(Zeroizing::new(s.to_string()))
            } else {
                Owned::Text(s.as_bytes().to_vec())
            }
        }
        (Kind::Str | Kind::Salt, Value::String(s)) => Owned::Str(Zeroizing::new(s.to_string())),
        // A `now` with a fraction is floored, as on every surface (ekl_bridge::seconds_of).
        (Kind::Now, Value::Number(x)) => Owned::Int(ekl_bridge::seconds_of(*x).ok_or_else(bad)?),
        (Kind::Int, Value::Number(x))
            if x.fract() == 0.0 && x.abs() <= ekl_core::MAX_SAFE_INTEGER_BOUND as f64 =>
        {
            Owned::Int(*x as i64)
        }
        (Kind::Bool, Value::Bool(b)) => Owned::Bool(*b),
        (Kind::StrList, Value::Array(items)) => Owned::List(
            items
                .iter()
                .map(|i| i.as_str().map(str::to_owned).ok_or_else(bad))
                .collect::<Result<_, _>>()?,
        ),
        (Kind::Key, Value::Object(_)) if v.get("jwk").is_some() => {
            // A private JWK (its text), read by signing_key_from_jwk.
            ekl_core::shape::members(v, name, &["jwk"])?;
            let jwk = ekl_core::shape::req_str(v, "jwk", name)?;
            key_from(
                "signing_key_from_jwk",
                &[("jwk", Arg::Text(jwk.as_bytes()))],
            )?
        }
        (Kind::Key, Value::Object(_)) if v.get("pem").is_some() => {
            // A PEM file's text and the kid it signs under, read by signing_key_from_pem.
            ekl_core::shape::members(v, name, &["pem", "kid"])?;
            key_from(
                "signing_key_from_pem",
                &[
                    ("pem", Arg::Str(ekl_core::shape::req_str(v, "pem", name)?)),
                    ("kid", Arg::Str(ekl_core::shape::req_str(v, "kid", name)?)),
                ],
            )?
        }
        (Kind::Number, Value::Number(x)) => Owned::Number(*x),
        (Kind::Handle(class), Value::Object(_)) => Owned::Handle(handle_of(name, class, v)?),
        (Kind::Key, Value::Object(_)) => {
            ekl_core::shape::members(v, name, &["seed", "kid"])?;
            key_of(
                ekl_core::shape::req_str(v, "seed", name)?,
                ekl_core::shape::req_str(v, "kid", name)?,
            )?
        }
        _ => return Err(bad()),
    })
}

/// The handle of class `class` that `v` describes: `{"new": ARGS, "then": [[METHOD, ARGS], …]}`
/// (a step's ARGS hold no `self`: the handle made so far is its `self`; a description never
/// nests another).
fn handle_of(name: &str, class: &str, v: &Value<'_>) -> Result<ekl_bridge::Handle, Error> {
    ekl_core::shape::members(v, name, &["new", "then"])?;
    let bad = |what: &str| invalid(format!("argument {name}: {what}"));
    let class = ekl_bridge::handle::class_of(class).ok_or_else(|| bad("no such handle class"))?;
    let new = ekl_bridge::find(class.prefix).ok_or_else(|| bad("no constructor"))?;
    let empty = Value::Object(vec![]);
    let mut handle = match run(
        new,
        &decode_args(new, v.get("new").unwrap_or(&empty))?,
        None,
    )? {
        Out::Handle(h) => h,
        _ => return Err(bad("the constructor made no handle")),
    };
    let steps = match v.get("then") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(steps)) => steps.as_slice(),
        Some(_) => return Err(bad("then must be an array of [method, args]")),
    };
    for step in steps {
        let (method, args) = match step.as_array() {
            Some([Value::String(m), args @ Value::Object(_)]) => (m, args),
            _ => return Err(bad("a step must be [method, args]")),
        };
        let op = ekl_bridge::find(&format!("{}_{method}", class.prefix))
            .filter(|op| op.method_of().is_some())
            .ok_or_else(|| bad("no such method"))?;
        if args.get("self").is_some() {
            return Err(bad("a step's args hold no self"));
        }
        let mut owned = decode_args(op, args)?;
        owned[0] = Owned::Handle(handle);
        // Each step's outcome is the handle's next state; a refusal is one too.
        let _ = run(op, &owned, None);
        handle = match std::mem::replace(&mut owned[0], Owned::Absent) {
            Owned::Handle(h) => h,
            _ => return Err(bad("the handle was lost")),
        };
    }
    Ok(handle)
}

/// The argument of kind `kind` from command-line text.
pub fn from_text(name: &str, kind: Kind, text: String) -> Result<Owned, Error> {
    let text = Zeroizing::new(text);
    Ok(match kind {
        Kind::Value | Kind::Text | Kind::Jwks => Owned::Text(text.as_bytes().to_vec()),
        Kind::Str | Kind::Bytes | Kind::Salt => Owned::Str(text),
        Kind::Int => Owned::Int(
            text.trim()
                .parse()
                .map_err(|_| invalid(format!("argument {name} must be an integer")))?,
        ),
        Kind::Now => Owned::Int(now_of_text(name, text.trim())?),
        Kind::Bool => match text.trim() {
            "true" => Owned::Bool(true),
            "false" => Owned::Bool(false),
            _ => return Err(invalid(format!("argument {name} must be true or false"))),
        },
        Kind::StrList => {
            let v = ekl_core::canonical::parse(text.as_bytes())?;
            from_json(name, kind, &v)?
        }
        Kind::Number => Owned::Number(
            text.trim()
                .parse()
                .map_err(|_| invalid(format!("argument {name} must be a number")))?,
        ),
        Kind::Handle(_) => {
            let v = ekl_core::canonical::parse(text.as_bytes())?;
            from_json(name, kind, &v)?
        }
        Kind::Key => {
            let (seed, kid) = text
                .split_once(':')
                .ok_or_else(|| invalid(format!("argument {name} must be SEED_HEX:KID")))?;
            key_of(seed, kid)?
        }
    })
}

/// A `now` given as text: an integer, or a decimal number (`1800000119.5`, `1.8e9`) read as a
/// JSON reader reads it and floored (`ekl_bridge::seconds_of`, the rule of every surface); NaN,
/// infinities, magnitudes beyond 2^53 and anything else are `INVALID_ARGUMENT`. The bridge's
/// milliseconds check (|now| ≥ 10^11) applies to the result.
pub fn now_of_text(name: &str, text: &str) -> Result<i64, Error> {
    if let Ok(n) = text.parse::<i64>() {
        return Ok(n);
    }
    let number = text.strip_prefix(['-', '+']).unwrap_or(text);
    let decimal = number.starts_with(|c: char| c.is_ascii_digit())
        && number
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'));
    let refused = || {
        invalid(format!(
            "argument {name} must be a number of seconds since the epoch"
        ))
    };
    match text.parse::<f64>() {
        Ok(x) if decimal => ekl_bridge::seconds_of(x).ok_or_else(refused),
        _ => Err(refused()),
    }
}

/// How an argument of `kind` is written in a request's `args` object.
pub fn json_form(kind: Kind) -> &'static str {
    match kind {
        Kind::Value | Kind::Text | Kind::Jwks => "a string holding JSON text",
        Kind::Str | Kind::Bytes => "a string",
        Kind::Salt => "a string: 64 lowercase hex",
        Kind::Int => "an integer",
        Kind::Now => "a number of seconds (a fraction is floored)",
        Kind::Bool => "a boolean",
        Kind::StrList => "an array of strings",
        Kind::Key => {
            "{\"seed\": HEX, \"kid\": KID}, {\"jwk\": PRIVATE_JWK_TEXT} or {\"pem\": PEM_TEXT, \"kid\": KID}"
        }
        Kind::Number => "a number",
        Kind::Handle(_) => "{\"new\": ARGS, \"then\": [[METHOD, ARGS], ...]}",
    }
}

/// Runs `op` on owned arguments (one per parameter); a `now` left out is `clock` when given.
pub fn run(op: &Op, owned: &[Owned], clock: Option<i64>) -> Result<Out, Error> {
    let args: Vec<Arg<'_>> = op
        .params
        .iter()
        .zip(owned)
        .map(|(p, o)| match o {
            Owned::Absent if p.kind == Kind::Now && clock.is_some() => {
                Arg::Int(clock.unwrap_or_default())
            }
            Owned::Absent => Arg::Absent,
            Owned::Text(t) if p.kind == Kind::Bytes => Arg::Bytes(t),
            Owned::Text(t) => Arg::Text(t),
            Owned::Str(s) if p.kind == Kind::Bytes => Arg::Bytes(s.as_bytes()),
            Owned::Str(s) => Arg::Str(s),
            Owned::Int(n) => Arg::Int(*n),
            Owned::Bool(b) => Arg::Bool(*b),
            Owned::List(l) => Arg::StrList(l.iter().map(String::as_str).collect()),
            Owned::Key(k) => Arg::Key(k),
            Owned::Number(x) => Arg::Number(*x),
            Owned::Handle(h) => Arg::Handle(h),
        })
        .collect();
    ekl_bridge::call(op, &args)
}

/// Decodes a request's `args` object for `op` (unknown names refused, naming the allowed ones).
pub fn decode_args(op: &Op, args: &Value<'_>) -> Result<Vec<Owned>, Error> {
    let allowed: Vec<&str> = op.params.iter().map(|p| p.name).collect();
    let members = ekl_core::shape::members(args, "args", &allowed)?;
    let mut owned: Vec<Owned> = op.params.iter().map(|_| Owned::Absent).collect();
    for (k, v) in members {
        if let Some(i) = op.param_index(k) {
            owned[i] = from_json(k, op.params[i].kind, v)?;
        }
    }
    Ok(owned)
}
