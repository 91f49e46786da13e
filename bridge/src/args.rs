//! Arguments in ([`Arg`], checked into [`Args`]) and results out ([`Out`]).

use std::borrow::Cow;
use std::cell::RefCell;

use ekl_core::jwk::Jwks;
#[cfg(feature = "signing")]
use ekl_core::jwk::SigningKey;
use ekl_core::{canonical, Error, ErrorCode, Result, Value};

use crate::handle::Handle;
use crate::{Kind, Op};

/// One argument as a host passes it.
#[derive(Clone, Debug)]
pub enum Arg<'a> {
    /// An optional parameter left out (or `None` / `null` / `undefined` in the host).
    Absent,
    /// JSON text (UTF-8 bytes), parsed by the core with every ekl-json-1 refusal.
    Text(&'a [u8]),
    /// A JSON value the host converted itself (strictly, with the same refusals).
    Value(Value<'a>),
    /// A string.
    Str(&'a str),
    /// Bytes.
    Bytes(&'a [u8]),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A list of strings.
    StrList(Vec<&'a str>),
    /// A parsed JWKS handle.
    Jwks(&'a Jwks),
    /// A signing key handle.
    #[cfg(feature = "signing")]
    Key(&'a SigningKey),
    /// A number (any `f64`: the operation checks its bounds, a non-finite one included).
    Number(f64),
    /// A machine's handle ([`Handle`]): the `self` of a method row.
    Handle(&'a Handle),
}

impl Arg<'_> {
    /// A key handle for a key parameter.
    #[cfg(feature = "signing")]
    fn fits_key(&self, kind: Kind) -> bool {
        matches!((kind, self), (Kind::Key, Arg::Key(_)))
    }

    /// No key handle exists without the `signing` feature.
    #[cfg(not(feature = "signing"))]
    fn fits_key(&self, _kind: Kind) -> bool {
        false
    }

    fn fits(&self, kind: Kind) -> bool {
        matches!(
            (kind, self),
            (_, Arg::Absent)
                | (Kind::Value, Arg::Value(_) | Arg::Text(_))
                | (Kind::Text, Arg::Text(_))
                | (Kind::Str | Kind::Salt, Arg::Str(_))
                | (Kind::Bytes, Arg::Bytes(_) | Arg::Str(_))
                | (Kind::Int | Kind::Now, Arg::Int(_))
                | (Kind::Bool, Arg::Bool(_))
                | (Kind::StrList, Arg::StrList(_))
                | (Kind::Jwks, Arg::Jwks(_) | Arg::Value(_) | Arg::Text(_))
                | (Kind::Number, Arg::Number(_))
        ) || self.fits_key(kind)
            || matches!((kind, self), (Kind::Handle(class), Arg::Handle(h)) if h.class() == class)
    }
}

/// Every kind (for [`Args::is_absent`], which reads no value).
const ALL_KINDS: &[Kind] = &[
    Kind::Value,
    Kind::Text,
    Kind::Str,
    Kind::Bytes,
    Kind::Int,
    Kind::Now,
    Kind::Bool,
    Kind::StrList,
    Kind::Jwks,
    Kind::Key,
    Kind::Salt,
    Kind::Number,
    Kind::Handle(""),
];

fn kind_text(kind: Kind) -> &'static str {
    match kind {
        Kind::Value => "a JSON value",
        Kind::Text => "JSON text",
        Kind::Str => "a string",
        Kind::Bytes => "bytes or a string",
        Kind::Int => "an integer",
        Kind::Now => "an integer number of seconds since the epoch",
        Kind::Bool => "a boolean",
        Kind::StrList => "a list of strings",
        Kind::Jwks => "a JWKS (a value, JSON text or a parsed Jwks)",
        Kind::Key => "a SigningKey",
        Kind::Salt => "a salt: 64 lowercase hex (32 bytes)",
        Kind::Number => "a number",
        Kind::Handle(_) => "the handle this method belongs to",
    }
}

/// A `now`-kind argument at least this large (in magnitude) can only be milliseconds (10^11 s is
/// the year 5138): refused with `INVALID_ARGUMENT` on every surface.
pub const MILLISECONDS_FROM: u64 = ekl_core::limits::MILLISECONDS_FROM.unsigned_abs();

/// The seconds of a `now` given as a number (JSON, a command-line decimal, a host's double): a
/// finite number is floored to whole seconds, toward −∞ (`1800000119.5` is `1800000119`; the
/// claims it is compared with are whole seconds, so flooring decides every comparison as the
/// real time would); `None` for NaN, ±∞ and magnitudes beyond 2^53. The milliseconds check
/// ([`MILLISECONDS_FROM`]) applies to the result, when the call's arguments are checked. One
/// rule on every surface (docs/decisions.md#fractional-now).
pub fn seconds_of(x: f64) -> Option<i64> {
    let floored = x.floor();
    (floored.is_finite() && floored.abs() <= ekl_core::MAX_SAFE_INTEGER_BOUND as f64)
        .then_some(floored as i64)
}

/// The string parameters that hold a secret or name something the protocol identifies (an agent,
/// an enrollment, a challenge, an endpoint, an issuer, an audience): an empty one is refused with
/// `INVALID_ARGUMENT` by every operation (an empty secret keys a MAC anyone can compute; an empty
/// id names nothing the protocol issues; docs/decisions/edges.md#empty). Parameters whose empty
/// value another rule already refuses with its own code keep that code: `key_id` and `receipt_id`
/// (`INVALID_RECEIPT`, the receipt's form), `kid` and `seed` (`INVALID_KEY`), salts
/// (`INVALID_SALT`), hex keys (`INVALID_HEX`), tokens (`JWS_MALFORMED`); presented MACs (`proof`,
/// `authority`, `signature`) are judged by their verifiers.
pub const NAMING_PARAMS: &[&str] = &[
    "secret",
    "registration_secret",
    "agent_key",
    "credential",
    "challenge",
    "endpoint",
    "enrollment_id",
    "nonce",
    "agent_id",
    "issuer",
    "audience",
    "purpose",
    "provider_id",
    "token_endpoint",
    "provider_agent_id",
    "own_agent_id",
    "network_issuer",
];

/// The longest JWKS text the per-thread cache keeps (1 MiB, the most `RemoteJwks` reads): a
/// longer one is parsed again at each call, so no thread holds more than this much text.
pub const MAX_CACHED_JWKS_BYTES: usize = 1 << 20;

/// The arguments of one call, checked against the operation's parameters.
pub struct Args<'a> {
    op: &'static str,
    params: &'static [crate::Param],
    vals: &'a [Arg<'a>],
}

thread_local! {
    /// The last JWKS text parsed on this thread (at most [`MAX_CACHED_JWKS_BYTES`]), with its
    /// keys' precomputed tables: verifying many tokens against one key set parses and validates
    /// it once.
    static LAST_JWKS: RefCell<Option<(Vec<u8>, std::rc::Rc<Jwks>)>> = const { RefCell::new(None) };
}

/// A JWKS borrowed from the caller or parsed for this call.
pub(crate) enum JwksRef<'a> {
    Borrowed(&'a Jwks),
    Shared(std::rc::Rc<Jwks>),
}

impl std::ops::Deref for JwksRef<'_> {
    type Target = Jwks;
    fn deref(&self) -> &Jwks {
        match self {
            JwksRef::Borrowed(j) => j,
            JwksRef::Shared(j) => j,
        }
    }
}

impl<'a> Args<'a> {
    /// Checks `vals` against `op`'s parameters: the right number, a required one never absent,
    /// each of a form its kind accepts.
    pub(crate) fn check(op: &Op, vals: &'a [Arg<'a>]) -> Result<Args<'a>> {
        if vals.len() != op.params.len() {
            return Err(Error::new(
                ErrorCode::InvalidArgument,
                format!(
                    "{} takes {} arguments, {} given",
                    op.name,
                    op.params.len(),
                    vals.len()
                ),
            ));
        }
        for (p, v) in op.params.iter().zip(vals) {
            if p.required && matches!(v, Arg::Absent) {
                return Err(Error::new(
                    ErrorCode::InvalidArgument,
                    format!(
                        "{}: {} is required ({})",
                        op.name,
                        p.name,
                        kind_text(p.kind)
                    ),
                ));
            }
            if let (Kind::Int | Kind::Now, Arg::Int(n)) = (p.kind, v) {
                // JSON's exact integers, and JS's: a larger one would be written rounded into a
                // result (a line number, a time) and is refused on every surface alike.
                if n.unsigned_abs() > ekl_core::MAX_SAFE_INTEGER_BOUND {
                    return Err(Error::new(
                        ErrorCode::InvalidArgument,
                        format!("{}: {} must be an integer within ±2^53", op.name, p.name),
                    ));
                }
            }
            if let (Kind::Now, Arg::Int(n)) = (p.kind, v) {
                // 10^11 s is the year 5138; such a number is a time in milliseconds.
                if n.unsigned_abs() >= MILLISECONDS_FROM {
                    return Err(Error::new(
                        ErrorCode::InvalidArgument,
                        format!(
                            "{}: {} must be seconds since the epoch, not milliseconds",
                            op.name, p.name
                        ),
                    ));
                }
            }
            if !v.fits(p.kind) {
                return Err(Error::new(
                    ErrorCode::InvalidArgument,
                    format!("{}: {} must be {}", op.name, p.name, kind_text(p.kind)),
                ));
            }
        }
        Ok(Args {
            op: op.name,
            params: op.params,
            vals,
        })
    }

    /// The argument bound to the parameter `name`, which must be one of this operation's
    /// parameters and of one of `kinds`. A name or kind the registry does not declare is a bug of
    /// the registry, refused as `INTERNAL` (the unit test `every_operation_runs_on_its_declared_kinds`
    /// calls every operation to find one): parameters are bound by name, so inserting one never
    /// shifts the others.
    fn at(&self, name: &str, kinds: &[Kind]) -> Result<&Arg<'a>> {
        match self.params.iter().position(|p| p.name == name) {
            Some(i)
                if kinds.iter().any(|k| {
                    std::mem::discriminant(k) == std::mem::discriminant(&self.params[i].kind)
                }) =>
            {
                Ok(self.vals.get(i).unwrap_or(&Arg::Absent))
            }
            Some(_) => Err(Error::new(
                ErrorCode::Internal,
                format!("{}: {name} is read as another kind than declared", self.op),
            )),
            None => Err(Error::new(
                ErrorCode::Internal,
                format!("{}: no parameter named {name}", self.op),
            )),
        }
    }

    fn missing(&self, name: &str) -> Error {
        Error::new(
            ErrorCode::InvalidArgument,
            format!("{}: {name} is required", self.op),
        )
    }

    /// Whether argument `i` was left out.
    pub fn is_absent(&self, name: &str) -> Result<bool> {
        Ok(matches!(self.at(name, ALL_KINDS)?, Arg::Absent))
    }

    /// The argument `name` as a JSON value (text parsed with every refusal, duplicates anywhere).
    pub fn value(&self, name: &str) -> Result<Cow<'_, Value<'a>>> {
        self.opt_value(name)?.ok_or_else(|| self.missing(name))
    }

    /// The argument `name` as a JSON value, or `None` when left out.
    pub fn opt_value(&self, name: &str) -> Result<Option<Cow<'_, Value<'a>>>> {
        match self.at(name, &[Kind::Value])? {
            Arg::Value(v) => Ok(Some(Cow::Borrowed(v))),
            Arg::Text(t) => Ok(Some(Cow::Owned(canonical::parse(t)?))),
            _ => Ok(None),
        }
    }

    /// The argument `name` as JSON text.
    pub fn text(&self, name: &str) -> Result<&'a [u8]> {
        match self.at(name, &[Kind::Text])? {
            Arg::Text(t) => Ok(t),
            _ => Err(self.missing(name)),
        }
    }

    /// The argument `name` as a string.
    pub fn str(&self, name: &str) -> Result<&'a str> {
        self.opt_str(name)?.ok_or_else(|| self.missing(name))
    }

    /// The argument `name` as a string, or `None` when left out. A secret or an identifier the
    /// protocol names ([`NAMING_PARAMS`]) that is empty is `INVALID_ARGUMENT`, whatever the
    /// operation: the rule is here once, for every host.
    pub fn opt_str(&self, name: &str) -> Result<Option<&'a str>> {
        match self.at(name, &[Kind::Str, Kind::Salt])? {
            Arg::Str("") if NAMING_PARAMS.contains(&name) => Err(Error::new(
                ErrorCode::InvalidArgument,
                format!("{}: {name} must not be empty", self.op),
            )),
            Arg::Str(s) => Ok(Some(s)),
            _ => Ok(None),
        }
    }

    /// The argument `name` as a salt. A salt left out is the host's to fill from its CSPRNG (every host
    /// does); when none came, the call is refused rather than salted with anything the core made.
    pub fn salt(&self, name: &str) -> Result<ekl_core::digest::Salt> {
        match self.at(name, &[Kind::Salt])? {
            Arg::Str(s) => ekl_core::digest::Salt::from_hex(s),
            _ => Err(Error::new(
                ErrorCode::InvalidArgument,
                format!(
                    "{}: {name}: no salt given (a host passes a fresh one from its CSPRNG)",
                    self.op
                ),
            )),
        }
    }

    /// The argument `name` as bytes (a string gives its UTF-8 bytes).
    pub fn bytes(&self, name: &str) -> Result<&'a [u8]> {
        match self.at(name, &[Kind::Bytes])? {
            Arg::Bytes(b) => Ok(b),
            Arg::Str(s) => Ok(s.as_bytes()),
            _ => Err(self.missing(name)),
        }
    }

    /// The argument `name` as an integer, or `None` when left out.
    pub fn opt_int(&self, name: &str) -> Result<Option<i64>> {
        match self.at(name, &[Kind::Int, Kind::Now])? {
            Arg::Int(n) => Ok(Some(*n)),
            _ => Ok(None),
        }
    }

    /// The argument `name` as an integer.
    pub fn int(&self, name: &str) -> Result<i64> {
        self.opt_int(name)?.ok_or_else(|| self.missing(name))
    }

    /// The argument `name` as a boolean, or `None` when left out.
    pub fn opt_bool(&self, name: &str) -> Result<Option<bool>> {
        match self.at(name, &[Kind::Bool])? {
            Arg::Bool(b) => Ok(Some(*b)),
            _ => Ok(None),
        }
    }

    /// The argument `name` as a list of strings, or `None` when left out.
    pub fn opt_str_list(&self, name: &str) -> Result<Option<&[&'a str]>> {
        match self.at(name, &[Kind::StrList])? {
            Arg::StrList(l) => Ok(Some(l.as_slice())),
            _ => Ok(None),
        }
    }

    /// The argument `name` as a list of strings.
    pub fn str_list(&self, name: &str) -> Result<&[&'a str]> {
        self.opt_str_list(name)?.ok_or_else(|| self.missing(name))
    }

    /// The argument `name` as a signing key.
    #[cfg(feature = "signing")]
    pub fn key(&self, name: &str) -> Result<&'a SigningKey> {
        match self.at(name, &[Kind::Key])? {
            Arg::Key(k) => Ok(k),
            _ => Err(self.missing(name)),
        }
    }

    /// The argument `name` as a number, or `None` when left out.
    pub fn opt_number(&self, name: &str) -> Result<Option<f64>> {
        match self.at(name, &[Kind::Number])? {
            Arg::Number(x) => Ok(Some(*x)),
            _ => Ok(None),
        }
    }

    /// The argument `name` as a number.
    pub fn number(&self, name: &str) -> Result<f64> {
        self.opt_number(name)?.ok_or_else(|| self.missing(name))
    }

    /// The argument `name` as a machine's handle (the `self` of a method row).
    pub fn handle(&self, name: &str) -> Result<&'a Handle> {
        match self.at(name, &[Kind::Handle("")])? {
            Arg::Handle(h) => Ok(h),
            _ => Err(self.missing(name)),
        }
    }

    /// The argument `name` as a JWKS: the handle itself, or its JSON parsed (text is cached per thread,
    /// keyed by its bytes).
    pub(crate) fn jwks(&self, name: &str) -> Result<JwksRef<'a>> {
        match self.at(name, &[Kind::Jwks])? {
            Arg::Jwks(j) => Ok(JwksRef::Borrowed(j)),
            Arg::Value(v) => Ok(JwksRef::Shared(std::rc::Rc::new(Jwks::from_value(v)?))),
            Arg::Text(t) => LAST_JWKS.with(|cell| {
                let mut slot = cell.borrow_mut();
                if let Some((bytes, jwks)) = &*slot {
                    if bytes.as_slice() == *t {
                        return Ok(JwksRef::Shared(jwks.clone()));
                    }
                }
                *slot = None;
                let jwks = std::rc::Rc::new(Jwks::parse(t)?);
                if t.len() <= MAX_CACHED_JWKS_BYTES {
                    *slot = Some((t.to_vec(), jwks.clone()));
                }
                Ok(JwksRef::Shared(jwks))
            }),
            _ => Err(self.missing(name)),
        }
    }
}

/// What an operation returns.
#[allow(clippy::large_enum_variant)] // one result per call, moved once
pub enum Out {
    /// A string.
    Str(String),
    /// A boolean.
    Bool(bool),
    /// Bytes (canonical JSON).
    Bytes(Vec<u8>),
    /// A JSON value.
    Value(Value<'static>),
    /// A JSON value already written as canonical JSON text (results that reach the depth limit
    /// one level down, such as verified claims, are written member by member).
    Json(Vec<u8>),
    /// A parsed JWKS.
    Jwks(Jwks),
    /// A signing key.
    #[cfg(feature = "signing")]
    Key(SigningKey),
    /// A JWKS and its signing keys, in the order of the kids asked for.
    #[cfg(feature = "signing")]
    KeySet(Jwks, Vec<SigningKey>),
    /// A new machine's handle (a constructor row's result).
    Handle(Handle),
}

impl std::fmt::Debug for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Out::Str(s) => f.debug_tuple("Str").field(s).finish(),
            Out::Bool(b) => f.debug_tuple("Bool").field(b).finish(),
            Out::Bytes(b) => write!(f, "Bytes(<{} bytes>)", b.len()),
            Out::Value(_) => f.write_str("Value(..)"),
            Out::Json(b) => write!(f, "Json(<{} bytes>)", b.len()),
            Out::Jwks(_) => f.write_str("Jwks(..)"),
            #[cfg(feature = "signing")]
            Out::Key(_) => f.write_str("Key(..)"),
            #[cfg(feature = "signing")]
            Out::KeySet(_, k) => write!(f, "KeySet(<{} keys>)", k.len()),
            Out::Handle(h) => write!(f, "Handle({})", h.class()),
        }
    }
}

impl Out {
    /// The result as canonical JSON text, for hosts that pass results as text (Node, wasm, the
    /// CLI and the conformance server): a string, a boolean and bytes of canonical JSON as JSON;
    /// a JWKS as its canonical JSON; signing keys as their public JWKs (never the secret).
    pub fn to_json(&self) -> Result<Vec<u8>> {
        Ok(match self {
            Out::Str(s) => {
                let mut out = Vec::with_capacity(s.len() + 2);
                canonical::write_string(s, &mut out);
                out
            }
            Out::Bool(b) => {
                if *b {
                    b"true".to_vec()
                } else {
                    b"false".to_vec()
                }
            }
            Out::Bytes(b) => {
                let text = std::str::from_utf8(b)
                    .map_err(|_| Error::new(ErrorCode::InvalidUtf8, "output is not UTF-8"))?;
                let mut out = Vec::with_capacity(b.len() + 2);
                canonical::write_string(text, &mut out);
                out
            }
            Out::Value(v) => canonical::canonicalize_value(v)?,
            Out::Json(b) => b.clone(),
            Out::Jwks(j) => j.to_json().into_bytes(),
            #[cfg(feature = "signing")]
            Out::Key(k) => canonical::canonicalize_value(&k.public_jwk().to_value())?,
            #[cfg(feature = "signing")]
            Out::KeySet(j, _) => j.to_json().into_bytes(),
            Out::Handle(h) => {
                let mut out = Vec::new();
                canonical::write_string(h.class(), &mut out);
                out
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_floored_and_bounded() {
        assert_eq!(seconds_of(1_800_000_119.5), Some(1_800_000_119));
        assert_eq!(seconds_of(1_800_000_119.999_9), Some(1_800_000_119));
        assert_eq!(seconds_of(1_800_000_119.0), Some(1_800_000_119));
        assert_eq!(seconds_of(-0.5), Some(-1));
        assert_eq!(seconds_of(-0.0), Some(0));
        assert_eq!(seconds_of(9_007_199_254_740_992.0), Some(1 << 53));
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e16, -1e300] {
            assert_eq!(seconds_of(bad), None, "{bad}");
        }
    }

    fn cached_len() -> Option<usize> {
        LAST_JWKS.with(|cell| cell.borrow().as_ref().map(|(t, _)| t.len()))
    }

    #[test]
    fn the_jwks_cache_keeps_no_text_past_its_bound() {
        let (jwks, _) = ekl_core::jwk::jwks_from_seed(&[3u8; 32], &["k"]).unwrap();
        let small = jwks.to_json();
        // The same set, padded with whitespace past the bound.
        let mut big = small.clone().into_bytes();
        big.splice(1..1, std::iter::repeat_n(b' ', MAX_CACHED_JWKS_BYTES));
        let op = crate::find("parse_jwks").unwrap();
        for (text, kept) in [(small.as_bytes(), true), (&big[..], false)] {
            let vals = [Arg::Text(text)];
            let args = Args::check(op, &vals).unwrap();
            assert_eq!(args.jwks("jwks").unwrap().keys().len(), 1);
            assert_eq!(cached_len(), kept.then_some(text.len()));
        }
    }

    #[test]
    fn a_salt_left_out_is_refused_not_made_up() {
        let call = br#"{"execution_id":"e","collaboration_id":"c","capability_id":"x",
            "requester_agent_id":"a","provider_agent_id":"b","execution_kind":"trial",
            "connection_id":"k","capability_version":"1","terms_hash":"t"}"#;
        let salt = "ab".repeat(32);
        let args = |salted: bool| {
            let mut named = vec![
                ("call", Arg::Text(call)),
                ("input", Arg::Text(b"{}")),
                ("output", Arg::Text(b"{}")),
                ("status", Arg::Str("succeeded")),
                ("rel_ver_at_admission", Arg::Int(1)),
                ("dsc_ver", Arg::Int(1)),
                ("secret", Arg::Str("s")),
                ("issued_at", Arg::Int(1_800_000_000)),
                ("input_salt", Arg::Str(&salt)),
            ];
            if salted {
                named.push(("output_salt", Arg::Str(&salt)));
            }
            crate::call_named("issue_mac_receipt", &named)
        };
        let e = args(false).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidArgument);
        assert!(
            e.message().contains("output_salt: no salt given"),
            "{}",
            e.message()
        );
        let (one, two) = (args(true).unwrap(), args(true).unwrap());
        assert_eq!(one.to_json().unwrap(), two.to_json().unwrap());
        // A salt is checked as a salt.
        let bad = crate::call_named(
            "issue_mac_receipt",
            &[
                ("call", Arg::Text(call)),
                ("input", Arg::Text(b"{}")),
                ("output", Arg::Text(b"{}")),
                ("status", Arg::Str("succeeded")),
                ("rel_ver_at_admission", Arg::Int(1)),
                ("dsc_ver", Arg::Int(1)),
                ("secret", Arg::Str("s")),
                ("issued_at", Arg::Int(1_800_000_000)),
                ("input_salt", Arg::Str("AB")),
                ("output_salt", Arg::Str(&salt)),
            ],
        );
        assert_eq!(bad.unwrap_err().code(), ErrorCode::InvalidSalt);
    }
}
