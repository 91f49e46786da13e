//! The operations of the conformance protocol (docs/conformance-protocol.md), answered by our core.
//!
//! [`answer`] is the reference: the runner compares another implementation's answers with it, and
//! `ekl conformance --serve` answers the protocol with it (the Rust surface of the cross-surface run).

use ekl_core::canonical::{self, Options};
use ekl_core::digest::{self, Salt};
use ekl_core::jwk::Jwks;
use ekl_core::jws::{self, ClaimChecks, Typ};
use ekl_core::proof::{self, ProofKey};
use ekl_core::screening::{self, ScreeningRules};
use ekl_core::{fingerprint, receipt, Value};

/// Every operation, in the order of the protocol document.
pub(super) const OPS: &[&str] = &[
    "canonicalize",
    "digest",
    "sha256",
    "commitment",
    "fingerprint",
    "output_fingerprint",
    "upstream_fingerprint",
    "proof_key",
    "challenge_proof_v1",
    "challenge_proof_v2",
    "enroll_authority_v1",
    "enroll_authority_v2",
    "verify_signature",
    "verify_challenge_proof",
    "receipt_auth_tag",
    "receipt_digest",
    "jws_verify",
    "screen",
    "canonicalize_host",
    "call",
    "host",
];

/// The answer to a request that is not well formed (not an error code of the core).
pub(super) const BAD_REQUEST: &str = "BAD_REQUEST";
/// The answer to an operation an implementation does not know.
pub(super) const UNSUPPORTED_OP: &str = "UNSUPPORTED_OP";

type Answer = Result<String, String>;

/// `BAD_REQUEST` (`_what` names the member at fault, for reading the code).
fn bad(_what: &str) -> String {
    BAD_REQUEST.to_owned()
}

fn code(e: ekl_core::Error) -> String {
    e.code().as_str().to_owned()
}

fn field<'r>(req: &'r Value<'_>, name: &str) -> Result<&'r str, String> {
    req.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| bad(name))
}

fn opt_field<'r>(req: &'r Value<'_>, name: &str) -> Result<Option<&'r str>, String> {
    match req.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(bad(name)),
    }
}

fn int_field(req: &Value<'_>, name: &str) -> Result<Option<i64>, String> {
    match req.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(x)) if x.fract() == 0.0 && x.abs() <= 9007199254740992.0 => {
            Ok(Some(*x as i64))
        }
        Some(_) => Err(bad(name)),
    }
}

/// Decodes lowercase or uppercase hex (`input_hex`).
pub(super) fn unhex(text: &str) -> Option<Vec<u8>> {
    let b = text.as_bytes();
    if !b.len().is_multiple_of(2) {
        return None;
    }
    let nib = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    b.chunks(2)
        .map(|p| Some(nib(p[0])? << 4 | nib(p[1])?))
        .collect()
}

/// The bytes of the request's JSON input: `input` (a string holding the JSON text) or `input_hex`.
fn input_bytes(req: &Value<'_>, name: &str) -> Result<Vec<u8>, String> {
    if let Some(s) = opt_field(req, name)? {
        return Ok(s.as_bytes().to_vec());
    }
    let hex_name = format!("{name}_hex");
    let hex = field(req, &hex_name)?;
    unhex(hex).ok_or_else(|| bad(&hex_name))
}

fn with_value<T>(
    bytes: &[u8],
    f: impl FnOnce(&Value<'_>) -> Result<T, String>,
) -> Result<T, String> {
    let value = canonical::parse(bytes).map_err(code)?;
    f(&value)
}

fn salt(req: &Value<'_>) -> Result<Option<Salt>, String> {
    opt_field(req, "salt")?
        .map(|s| Salt::from_hex(s).map_err(code))
        .transpose()
}

fn text(bytes: Vec<u8>) -> Answer {
    String::from_utf8(bytes).map_err(|_| bad("non-utf-8 output"))
}

/// Answers one request (already parsed) with our core: `Ok(result)` or `Err(error code)`.
pub(super) fn answer(req: &Value<'_>) -> Answer {
    let op = field(req, "op")?;
    match op {
        "canonicalize" => {
            let bytes = input_bytes(req, "input")?;
            let max = int_field(req, "max_bytes")?;
            let options = Options {
                max_bytes: max.map(|m| usize::try_from(m).unwrap_or(0)),
            };
            text(canonical::canonicalize_with(&bytes, options).map_err(code)?)
        }
        "digest" => {
            let bytes = input_bytes(req, "input")?;
            let canon = canonical::canonicalize(&bytes).map_err(code)?;
            Ok(digest::sha256_hex(&canon))
        }
        "sha256" => Ok(digest::sha256_hex(&input_bytes(req, "input")?)),
        "commitment" => {
            let bytes = input_bytes(req, "input")?;
            let salt = salt(req)?;
            let salt_id = opt_field(req, "salt_id")?;
            with_value(&bytes, |v| {
                digest::commitment(v, salt.as_ref(), salt_id)
                    .map(|c| c.to_canonical_json())
                    .map_err(code)
            })
        }
        "fingerprint" | "output_fingerprint" => {
            let salt = Salt::from_hex(field(req, "salt")?).map_err(code)?;
            let bytes = input_bytes(req, "input")?;
            with_value(&bytes, |v| {
                if op == "fingerprint" {
                    fingerprint::fingerprint(&salt, v)
                } else {
                    fingerprint::output_fingerprint(&salt, v)
                }
                .map_err(code)
            })
        }
        "upstream_fingerprint" => {
            let bytes = input_bytes(req, "input")?;
            let offered: Option<Vec<&str>> = match req.get("offered") {
                None | Some(Value::Null) => None,
                Some(Value::Array(items)) => Some(
                    items
                        .iter()
                        .map(|i| i.as_str().ok_or_else(|| bad("offered")))
                        .collect::<Result<_, _>>()?,
                ),
                Some(_) => return Err(bad("offered")),
            };
            with_value(&bytes, |v| {
                fingerprint::upstream_fingerprint(v, offered.as_deref()).map_err(code)
            })
        }
        "proof_key" => Ok(ProofKey::derive(field(req, "agent_key")?).to_hex()),
        "challenge_proof_v1" => Ok(proof::challenge_proof_v1(
            field(req, "credential")?,
            field(req, "challenge")?,
            field(req, "endpoint")?,
        )),
        "challenge_proof_v2" => Ok(proof::challenge_proof_v2(
            &ProofKey::derive(field(req, "agent_key")?),
            field(req, "challenge")?,
            field(req, "endpoint")?,
        )),
        "enroll_authority_v1" => Ok(proof::enroll_authority_v1(
            field(req, "agent_key")?,
            field(req, "enrollment_id")?,
            field(req, "nonce")?,
            field(req, "endpoint")?,
        )),
        "enroll_authority_v2" => Ok(proof::enroll_authority_v2(
            &ProofKey::derive(field(req, "agent_key")?),
            field(req, "enrollment_id")?,
            field(req, "nonce")?,
            field(req, "endpoint")?,
        )),
        "verify_signature" => Ok(proof::verify_signature(
            field(req, "secret")?,
            field(req, "agent_id")?,
            field(req, "enrollment_id")?,
            field(req, "challenge")?,
        )),
        "verify_challenge_proof" => verify_challenge_proof(req),
        "receipt_auth_tag" => {
            let secret = field(req, "secret")?;
            let bytes = input_bytes(req, "input")?;
            with_value(&bytes, |v| receipt::auth_tag(v, secret).map_err(code))
        }
        "receipt_digest" => {
            let bytes = input_bytes(req, "input")?;
            with_value(&bytes, |v| receipt::receipt_digest(v).map_err(code))
        }
        "jws_verify" => jws_verify(req),
        "screen" => screen(req),
        "canonicalize_host" => {
            let desc = req.get("value").ok_or_else(|| bad("value"))?;
            let value = host_value(desc, 0)?;
            text(canonical::canonicalize_value(&value).map_err(code)?)
        }
        "call" => call(req),
        "host" => host(req),
        _ => Err(UNSUPPORTED_OP.to_owned()),
    }
}

/// `verify_challenge_proof`: the version that verified (no-downgrade), or the refusal.
fn verify_challenge_proof(req: &Value<'_>) -> Answer {
    let holds = match (
        opt_field(req, "proof_key")?,
        opt_field(req, "credential_hash")?,
    ) {
        (Some(k), None) => proof::NetworkHolds::ProofKey(ProofKey::from_hex(k).map_err(code)?),
        (None, Some(h)) => proof::NetworkHolds::credential_hash_hex(h).map_err(code)?,
        _ => return Err(bad("proof_key or credential_hash")),
    };
    proof::verify_challenge_proof(
        &holds,
        field(req, "challenge")?,
        field(req, "endpoint")?,
        opt_field(req, "proof")?,
        opt_field(req, "proof_v2")?,
    )
    .map(|v| v.as_str().to_owned())
    .map_err(code)
}

/// `jws_verify`: the canonical claims of a token that passes.
fn jws_verify(req: &Value<'_>) -> Answer {
    let token = field(req, "token")?;
    let typ = Typ::from_header(field(req, "typ")?).ok_or_else(|| bad("typ"))?;
    let jwks = Jwks::parse(field(req, "jwks")?.as_bytes()).map_err(code)?;
    let now = int_field(req, "now")?.ok_or_else(|| bad("now"))?;
    let checks = ClaimChecks {
        issuer: opt_field(req, "iss")?,
        audience: opt_field(req, "aud")?,
        require_exp: match req.get("require_exp") {
            None | Some(Value::Null) => true,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(bad("require_exp")),
        },
        ..ClaimChecks::at(now)
    };
    let verified = jws::verify(token, typ, &jwks, &checks).map_err(code)?;
    text(canonical::canonicalize_value(&verified.claims).map_err(code)?)
}

/// `screen`: the canonical array of safety flags.
fn screen(req: &Value<'_>) -> Answer {
    let rules = match input_bytes(req, "rules") {
        Ok(b) => Some(with_value(&b, |c| {
            ScreeningRules::from_claims(c).map_err(code)
        })?),
        Err(_) if req.get("rules").is_none() && req.get("rules_hex").is_none() => None,
        Err(e) => return Err(e),
    };
    let bytes = input_bytes(req, "input")?;
    with_value(&bytes, |v| {
        let flags = screening::scan(rules.as_ref(), v);
        text(
            canonical::canonicalize_value(&Value::Array(
                flags.iter().map(|f| f.to_value()).collect(),
            ))
            .map_err(code)?,
        )
    })
}

/// `{"op": "call", "name": NAME, "args": {...}}`: any operation of the registry, its result as
/// canonical JSON text (docs/conformance-protocol.md#call).
fn call(req: &Value<'_>) -> Answer {
    let name = field(req, "name")?;
    let op = ekl_bridge::find(name).ok_or_else(|| UNSUPPORTED_OP.to_owned())?;
    let empty = Value::Object(Vec::new());
    let args = match req.get("args") {
        None | Some(Value::Null) => &empty,
        Some(a) => a,
    };
    let args = plain_handles(op, args);
    let owned = crate::call::decode_args(op, &args).map_err(code)?;
    let out = crate::call::run(op, &owned, None).map_err(code)?;
    text(out.to_json().map_err(code)?)
}

/// The JSON text of a `jwks` argument in any of its forms: the text itself, or the text of a
/// handle the host builds, `{"$jwks": TEXT}` (from the text) or `{"$jwks_value": TEXT}` (from the
/// host's own parse of it). A handle must answer as the text does, so the reference reads all
/// three as the text.
fn jwks_text<'v>(v: &'v Value<'static>) -> Option<&'v str> {
    match v {
        Value::String(t) => Some(t),
        Value::Object(m) if m.len() == 1 => match (m[0].0.as_ref(), &m[0].1) {
            ("$jwks" | "$jwks_value", Value::String(t)) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

/// `args` with each `jwks` argument given as a handle form written as its text.
fn plain_handles(op: &ekl_bridge::Op, args: &Value<'_>) -> Value<'static> {
    let owned = args.clone().into_owned();
    let Value::Object(members) = owned else {
        return owned;
    };
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| {
                let jwks = op
                    .param_index(&k)
                    .is_some_and(|i| op.params[i].kind == ekl_bridge::Kind::Jwks);
                match jwks.then(|| jwks_text(&v)).flatten() {
                    Some(t) => {
                        let t = Value::String(std::borrow::Cow::Owned(t.to_owned()));
                        (k, t)
                    }
                    None => (k, v),
                }
            })
            .collect(),
    )
}

/// The host-only helpers of docs/host-apis.json that have a registry twin, each answered here
/// with the twin (docs/conformance-protocol.md#host):
/// `jwks_kids` (`jwks`: any form of `call`) → the kids of the usable keys, in order;
/// `signing_key_kid` / `signing_key_public_jwks` (`key`: any form of `call`) → the kid, or the
/// JWKS of its public key; `canonicalize_many` (`texts`, `max_bytes`?) → the canonical texts, or
/// the first refusal; `error_codes`, `core_version`.
pub(super) const HOST_HELPERS: &[&str] = &[
    "jwks_kids",
    "signing_key_kid",
    "signing_key_public_jwks",
    "canonicalize_many",
    "error_codes",
    "core_version",
];

fn host(req: &Value<'_>) -> Answer {
    let name = field(req, "name")?;
    if !HOST_HELPERS.contains(&name) {
        return Err(UNSUPPORTED_OP.to_owned());
    }
    let empty = Value::Object(Vec::new());
    let args = match req.get("args") {
        None | Some(Value::Null) => &empty,
        Some(a) => a,
    };
    let json = |v: Value<'static>| text(canonical::canonicalize_value(&v).map_err(code)?);
    let key = || match args.get("key") {
        Some(k) => match crate::call::from_json("key", ekl_bridge::Kind::Key, k).map_err(code)? {
            crate::call::Owned::Key(k) => Ok(k),
            _ => Err(bad("key")),
        },
        None => Err(bad("key")),
    };
    match name {
        "jwks_kids" => {
            let jwks = args
                .get("jwks")
                .map(|j| j.clone().into_owned())
                .ok_or_else(|| bad("jwks"))?;
            let t = jwks_text(&jwks).ok_or_else(|| bad("jwks"))?;
            let jwks = Jwks::parse(t.as_bytes()).map_err(code)?;
            json(Value::Array(
                jwks.keys()
                    .iter()
                    .map(|k| Value::from(k.kid().to_owned()))
                    .collect(),
            ))
        }
        "signing_key_kid" => json(Value::from(key()?.kid().to_owned())),
        "signing_key_public_jwks" => {
            let jwks = Jwks::from_keys(vec![key()?.public_jwk()]).map_err(code)?;
            Ok(jwks.to_json())
        }
        "canonicalize_many" => {
            let texts = args
                .get("texts")
                .and_then(Value::as_array)
                .ok_or_else(|| bad("texts"))?;
            let max = int_field(args, "max_bytes")?;
            let options = Options {
                max_bytes: max.map(|m| usize::try_from(m).unwrap_or(0)),
            };
            let mut out = Vec::with_capacity(texts.len());
            for t in texts {
                let t = t.as_str().ok_or_else(|| bad("texts"))?;
                let c = canonical::canonicalize_with(t.as_bytes(), options).map_err(code)?;
                out.push(Value::from(text(c)?));
            }
            json(Value::Array(out))
        }
        "error_codes" => json(Value::Array(
            ekl_bridge::error_codes().map(Value::from).collect(),
        )),
        "core_version" => json(Value::from(ekl_bridge::VERSION)),
        _ => Err(UNSUPPORTED_OP.to_owned()),
    }
}

/// The deepest host-value description accepted (the request line itself is parsed with the
/// ekl-json-1 depth limit, so this bound is never reached by a well-formed request).
const HOST_MAX_DEPTH: usize = 64;

fn utf16_string(units: &Value<'_>) -> Result<String, String> {
    let units: Vec<u16> = units
        .as_array()
        .ok_or_else(|| bad("$str"))?
        .iter()
        .map(|u| match u {
            Value::Number(n) if n.fract() == 0.0 && (0.0..=65535.0).contains(n) => Ok(*n as u16),
            _ => Err(bad("$str")),
        })
        .collect::<Result<_, _>>()?;
    String::from_utf16(&units).map_err(|_| ekl_core::ErrorCode::LoneSurrogate.as_str().to_owned())
}

/// The value a host builds from a description (docs/conformance-protocol.md, `canonicalize_host`),
/// with the refusals the bindings apply while converting host values.
fn host_value(desc: &Value<'_>, depth: usize) -> Result<Value<'static>, String> {
    if depth > HOST_MAX_DEPTH {
        return Err(bad("value too deep"));
    }
    Ok(match desc {
        Value::Null => Value::Null,
        Value::Bool(b) => Value::Bool(*b),
        Value::String(s) => Value::String(std::borrow::Cow::Owned(s.to_string())),
        Value::Number(_) => return Err(bad("plain number")),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|i| host_value(i, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(_) => {
            if let Some(t) = desc.get("$num").and_then(Value::as_str) {
                let x = match t {
                    "NaN" => f64::NAN,
                    "Infinity" => f64::INFINITY,
                    "-Infinity" => f64::NEG_INFINITY,
                    _ => t.parse::<f64>().map_err(|_| bad("$num"))?,
                };
                Value::from_f64(x).map_err(code)?
            } else if let Some(t) = desc.get("$int").and_then(Value::as_str) {
                match t.parse::<i128>() {
                    Ok(n) => Value::from_i128(n).map_err(code)?,
                    Err(_)
                        if t.trim_start_matches('-')
                            .bytes()
                            .all(|b| b.is_ascii_digit()) =>
                    {
                        return Err(ekl_core::ErrorCode::IntegerOutOfRange.as_str().to_owned())
                    }
                    Err(_) => return Err(bad("$int")),
                }
            } else if let Some(units) = desc.get("$str") {
                Value::String(std::borrow::Cow::Owned(utf16_string(units)?))
            } else if let Some(members) = desc.get("$obj").and_then(Value::as_array) {
                let mut out = Vec::with_capacity(members.len());
                for m in members {
                    let pair = m
                        .as_array()
                        .filter(|p| p.len() == 2)
                        .ok_or_else(|| bad("$obj"))?;
                    let key = match &pair[0] {
                        Value::String(s) => s.to_string(),
                        other => utf16_string(other.get("$str").ok_or_else(|| bad("$obj key"))?)?,
                    };
                    out.push((
                        std::borrow::Cow::Owned(key),
                        host_value(&pair[1], depth + 1)?,
                    ));
                }
                Value::Object(out)
            } else {
                return Err(bad("description"));
            }
        }
    })
}

/// Answers one request line with our core, as the answer line (without the newline).
pub(super) fn answer_line(line: &[u8]) -> String {
    let Ok(req) = canonical::parse(line) else {
        return format!("{{\"id\":null,\"error\":\"{BAD_REQUEST}\"}}");
    };
    let id = match req.get("id") {
        Some(Value::Number(n)) => canonical::number_to_string(*n).unwrap_or_else(|| "null".into()),
        _ => "null".into(),
    };
    match answer(&req) {
        Ok(result) => {
            let mut out = format!("{{\"id\":{id},\"ok\":").into_bytes();
            canonical::write_string(&result, &mut out);
            out.push(b'}');
            String::from_utf8(out).expect("json text of a string is utf-8")
        }
        Err(e) => format!("{{\"id\":{id},\"error\":\"{e}\"}}"),
    }
}
