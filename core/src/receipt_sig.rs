//! Network-signed receipts, profile ekl-evidence-sig-1.2 (PROTOCOL §9.5.1, §15.3; SPEC §7).
//!
//! For an adapter-profile execution the network issues the receipt: an object signed ES256 over the
//! ekl-json-1 bytes of its other fields, carrying `receipt_jws`, the same receipt as a compact JWS
//! (`typ` `ekl-receipt+jwt`) whose claims are the receipt's fields without `key_id` and `signature`,
//! plus `iss`, `aud` and `iat`.
//!
//! [`verify_receipt_jws`] checks the JWS against the call the consumer made and returns a
//! [`Verdict`] with these checks, in this order: `alg_typ`, `signature`, `iss`, `aud`,
//! `execution_id`, `provider_agent_id`, `requester_agent_id`, `capability_id`,
//! `input_fingerprint` (a difference is a [`Outcome::Mismatch`]), `iat_matches_issued_at`,
//! `iat_in_call_window`. The verdict's `receipt_digest` is SHA-256 (hex) of the compact JWS's ASCII
//! bytes, computed for every readable token (an abuse report needs the digest of a refused one too).
//!
//! Errors instead of a verdict (decided, docs/decisions.md#jws): a token that cannot be read
//! (`JWS_MALFORMED`, `INVALID_BASE64URL`, `DUPLICATE_KEY` in header or payload, a payload that is not
//! a JSON object), a `kid` the key set does not hold (`UNKNOWN_KID`: fetch the key set again and
//! retry; a refusal would be wrong after a key rotation) and a call window with `sent_at` after
//! `received_at` (`INVALID_ARGUMENT`). A missing `kid` is a failed `signature` check (fetching again
//! cannot help).
//!
//! ## The receipt object's own signature (decided)
//! * Signed bytes: ekl-json-1 of the receipt object without `signature` **and without
//!   `receipt_jws`**; `key_id` is included (it names the key, so it is bound).
//!   Why: `receipt_jws` is itself a signature over the same fields (plus `iss`, `aud`, `iat`); the two
//!   signatures are then independent and symmetric, the JWS cannot carry the object's signature
//!   (its claims exclude `signature`), so the object's signature must not cover the JWS either, or
//!   neither could be produced first; and a verifier of the object form (1.1-style) need not parse
//!   a JWS to check it.
//! * `signature`: base64url without padding of the raw 64-byte r‖s ES256 signature (the same form
//!   as a JWS signature), made with the key whose `kid` is `key_id` in the network's JWKS.
//! * [`verify_receipt`] checks both forms: `object_signature`, every JWS check, and
//!   `object_matches_jws` (every field of the object other than `key_id`, `signature` and
//!   `receipt_jws` equals the claim of the same name, and the claims hold nothing else but `iss`,
//!   `aud`, `iat`).
//!
//! ## Time (decided)
//! `iat` "is the same moment as `issued_at`": `issued_at` is RFC 3339 UTC
//! (`YYYY-MM-DDTHH:MM:SS[.fraction]Z`) and `iat` integer seconds, so they match when `iat` equals
//! `issued_at` truncated to the second. `iat` lies in the call window when
//! `sent_at − 60 ≤ iat ≤ received_at + 60` (both ends inclusive).
//!
//! ECDSA signatures are malleable: (r, n − s) verifies as well as (r, s), so the same receipt has
//! two valid JWS forms with two different digests. Receipts are deduplicated by `execution_id`,
//! never by digest.

use crate::base64url;
use crate::canonical;
use crate::error::{Error, ErrorCode, Result};
use crate::jwk::Jwks;
#[cfg(feature = "signing")]
use crate::jwk::SigningKey;
use crate::jws::{self, check_alg_typ, time_claim, Typ, SKEW_SECONDS};
use crate::timestamp::Timestamp;
use crate::value::Value;
use crate::verdict::{json_shown, seconds_shown, str_shown, Check, Outcome, Verdict};
use sha2::{Digest, Sha256};

/// The profile name (PROTOCOL §9.5.1).
pub const PROFILE: &str = "ekl-evidence-sig-1.2";

/// The call a consumer made, as it knows it, and its clock window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallContext<'a> {
    /// The execution ID the consumer generated.
    pub execution_id: &'a str,
    /// The provider it called.
    pub provider_agent_id: &'a str,
    /// Itself, as the requester.
    pub requester_agent_id: &'a str,
    /// The capability it called.
    pub capability_id: &'a str,
    /// Its own input fingerprint (SHA-256(salt ‖ JCS(arguments)), §15.3).
    pub input_fingerprint: &'a str,
    /// Its own agent ID: the receipt's `aud`.
    pub own_agent_id: &'a str,
    /// The network's issuer: the receipt's `iss`.
    pub network_issuer: &'a str,
    /// When it sent the call (seconds since the epoch, its own clock).
    pub sent_at: i64,
    /// When it received the answer.
    pub received_at: i64,
}

impl<'a> CallContext<'a> {
    /// The call context from its JSON object (wire names: `execution_id`, `provider_agent_id`,
    /// `requester_agent_id`, `capability_id`, `input_fingerprint`, `own_agent_id`,
    /// `network_issuer` as strings, `sent_at`, `received_at` as integer seconds), parsed in one
    /// place for the CLI and the bindings; anything else is `INVALID_ARGUMENT`.
    pub fn from_value(call: &'a Value<'a>) -> Result<CallContext<'a>> {
        use crate::shape::{members, req_id as req_str, req_seconds};
        members(call, "call", &CallContext::MEMBERS)?;
        let s = |k: &str| req_str(call, k, "call");
        Ok(CallContext {
            execution_id: s("execution_id")?,
            provider_agent_id: s("provider_agent_id")?,
            requester_agent_id: s("requester_agent_id")?,
            capability_id: s("capability_id")?,
            input_fingerprint: s("input_fingerprint")?,
            own_agent_id: s("own_agent_id")?,
            network_issuer: s("network_issuer")?,
            sent_at: req_seconds(call, "sent_at", "call")?,
            received_at: req_seconds(call, "received_at", "call")?,
        })
    }

    /// The members of the JSON form, all required.
    pub const MEMBERS: [&'static str; 9] = [
        "execution_id",
        "provider_agent_id",
        "requester_agent_id",
        "capability_id",
        "input_fingerprint",
        "own_agent_id",
        "network_issuer",
        "sent_at",
        "received_at",
    ];
}

/// The names of the JWS checks, in verdict order.
pub const JWS_CHECKS: [&str; 11] = [
    "alg_typ",
    "signature",
    "iss",
    "aud",
    "execution_id",
    "provider_agent_id",
    "requester_agent_id",
    "capability_id",
    "input_fingerprint",
    "iat_matches_issued_at",
    "iat_in_call_window",
];

/// The claims a receipt token must carry as strings to be compared with the call (§9.5.1).
pub const CALL_CLAIMS: [&str; 5] = [
    "execution_id",
    "provider_agent_id",
    "requester_agent_id",
    "capability_id",
    "input_fingerprint",
];

/// The string claim `name`: `CLAIM_MISSING` when absent, `CLAIM_INVALID` when not a string.
fn string_claim<'v>(claims: &'v Value<'_>, name: &str) -> Result<&'v str> {
    match claims.get(name) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s),
        Some(Value::String(_)) => Err(Error::new(
            ErrorCode::ClaimInvalid,
            format!("{name} is empty"),
        )),
        Some(_) => Err(Error::new(
            ErrorCode::ClaimInvalid,
            format!("{name} is not a string"),
        )),
        None => Err(Error::new(
            ErrorCode::ClaimMissing,
            format!("{name} is missing"),
        )),
    }
}

/// The member `name` as a display text (`None` when absent).
fn member_shown(object: &Value<'_>, name: &str) -> Option<String> {
    object.get(name).map(json_shown)
}

/// `name <value>` for each of `names` in `object` (`name absent` when it is not there).
fn members_shown(object: &Value<'_>, names: &[&str]) -> String {
    names
        .iter()
        .map(|n| match object.get(n) {
            Some(v) => format!("{n} {}", json_shown(v)),
            None => format!("{n} absent"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// How far `t` lies from the window `[lo, hi]`: `inside the window`, `N s before it opens`,
/// `N s after it closes`.
fn distance_shown(t: i64, lo: i64, hi: i64) -> String {
    if t < lo {
        format!("{} s before the window opens", lo.saturating_sub(t))
    } else if t > hi {
        format!("{} s after the window closes", t.saturating_sub(hi))
    } else {
        "inside the window".to_owned()
    }
}

/// The names whose values differ between two objects, as a display text.
fn differences_shown(a: &Value<'_>, b: &Value<'_>, a_name: &str, b_name: &str) -> String {
    let (Some(am), Some(bm)) = (a.as_object(), b.as_object()) else {
        return "not both objects".to_owned();
    };
    let same = |x: &Value<'_>, y: &Value<'_>| {
        canonical::canonicalize_value(x).ok() == canonical::canonicalize_value(y).ok()
    };
    let mut differ = Vec::new();
    let mut only_a = Vec::new();
    for (k, v) in am {
        match b.get(k) {
            Some(w) if same(v, w) => {}
            Some(_) => differ.push(k.as_ref()),
            None => only_a.push(k.as_ref()),
        }
    }
    let only_b: Vec<&str> = bm
        .iter()
        .filter(|(k, _)| a.get(k).is_none())
        .map(|(k, _)| k.as_ref())
        .collect();
    let mut parts = Vec::new();
    if !differ.is_empty() {
        parts.push(format!("different: {}", differ.join(", ")));
    }
    if !only_a.is_empty() {
        parts.push(format!("only in {a_name}: {}", only_a.join(", ")));
    }
    if !only_b.is_empty() {
        parts.push(format!("only in {b_name}: {}", only_b.join(", ")));
    }
    if parts.is_empty() {
        "the same fields".to_owned()
    } else {
        parts.join("; ")
    }
}

/// The check of the string claim `name` against the call's `expected` value, with both shown.
fn str_check(claims: &Value<'_>, name: &'static str, expected: &str, outcome: Outcome) -> Check {
    match string_claim(claims, name) {
        Ok(s) if s == expected => Check::pass(name),
        Ok(_) => Check::new(name, outcome, format!("{name} differs from the call")),
        Err(e) => Check::new(name, Outcome::Fail, e.message()),
    }
    .with_values(Some(str_shown(expected)), member_shown(claims, name))
}

/// `iat`, checked to be the second of the claim `issued_at` (the `iat_matches_issued_at` check):
/// `iat` an integer in [0, 2^53] (`CLAIM_INVALID`) and present (`CLAIM_MISSING`), `issued_at` a
/// string (`INVALID_RECEIPT`) in RFC 3339 UTC (`INVALID_TIMESTAMP`), the same second
/// (`CLAIM_INVALID`).
fn iat_of_issued_at(claims: &Value<'_>) -> Result<i64> {
    let iat = time_claim(claims, "iat")?
        .ok_or_else(|| Error::new(ErrorCode::ClaimMissing, "iat is missing"))?;
    let Some(Value::String(issued_at)) = claims.get("issued_at") else {
        return Err(Error::new(
            ErrorCode::InvalidReceipt,
            "issued_at is missing or not a string",
        ));
    };
    if parse_rfc3339_utc(issued_at)? != iat {
        return Err(Error::new(
            ErrorCode::ClaimInvalid,
            "iat is not the second of issued_at",
        ));
    }
    Ok(iat)
}

/// The checks of [`verify_receipt_jws`] that depend on the claims alone, with the codes of the
/// underlying refusals: every claim of [`CALL_CLAIMS`] a string and `iat` the second of
/// `issued_at` (`iat_of_issued_at`). [`issue_receipt`] runs them before signing.
pub fn check_receipt_claims(claims: &Value<'_>) -> Result<()> {
    for name in CALL_CLAIMS {
        string_claim(claims, name)?;
    }
    receipt_id_claim(claims)?;
    iat_of_issued_at(claims).map(|_| ())
}

/// `receipt_id`, when the claims carry it, is a non-empty string (`CLAIM_INVALID`): an empty id
/// names no receipt (docs/decisions/edges.md#empty). Checked on issue and on verify.
fn receipt_id_claim(claims: &Value<'_>) -> Result<()> {
    match claims.get("receipt_id") {
        None => Ok(()),
        Some(_) => string_claim(claims, "receipt_id").map(|_| ()),
    }
}

/// Verifies a receipt's compact JWS claim by claim against the call (see the module docs).
pub fn verify_receipt_jws(jws: &str, jwks: &Jwks, call: &CallContext<'_>) -> Result<Verdict> {
    verify_receipt_jws_with(jws, jwks, call, &mut |_| {})
}

/// [`verify_receipt_jws`], showing `claims` the token's claims once they are read (a summary of
/// an archive reads its ids there instead of decoding the payload again).
pub(crate) fn verify_receipt_jws_with(
    jws: &str,
    jwks: &Jwks,
    call: &CallContext<'_>,
    claims_seen: &mut dyn FnMut(&Value<'_>),
) -> Result<Verdict> {
    if call.sent_at > call.received_at {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            "sent_at must not be after received_at",
        ));
    }
    let parts = jws::decode(jws)?;
    let claims = canonical::parse_strict(&parts.payload, "jws payload", ErrorCode::JwsMalformed)?;
    if claims.as_object().is_none() {
        return Err(Error::new(
            ErrorCode::JwsMalformed,
            "jws payload must be a json object",
        ));
    }
    claims_seen(&claims);
    receipt_id_claim(&claims)?;
    let mut checks = Vec::with_capacity(JWS_CHECKS.len());
    checks.push(
        match check_alg_typ(&parts.header, Typ::Receipt) {
            Ok(()) => Check::pass("alg_typ"),
            Err(e) => Check::new("alg_typ", Outcome::Fail, e.message()),
        }
        .with_values(
            Some(format!(
                "alg {}, typ {}, no crit",
                str_shown(crate::jwk::ES256),
                str_shown(Typ::Receipt.as_str())
            )),
            Some(members_shown(&parts.header, &["alg", "typ", "crit"])),
        ),
    );
    let signed_by = Some("an ES256 signature by the key kid names in the JWKS".to_owned());
    let kid = Some(members_shown(&parts.header, &["kid"]));
    // One pass of SHA-256 over the signing input serves the signature and, continued over the
    // rest of the token (`.signature`), the receipt digest.
    let mut hash = Sha256::new();
    hash.update(parts.signing_input.as_bytes());
    let signed: [u8; 32] = hash.clone().finalize().into();
    hash.update(&jws.as_bytes()[parts.signing_input.len()..]);
    let receipt_digest = crate::hex::encode(&hash.finalize());
    checks.push(match jws::find_key(&parts.header, jwks) {
        Ok(key) => match key.verify_es256_prehashed(&signed, &parts.signature) {
            Ok(()) => Check::pass("signature").with_values(signed_by, kid),
            Err(e) => {
                Check::new("signature", Outcome::Fail, e.message()).with_values(signed_by, kid)
            }
        },
        Err(e) if e.code() == ErrorCode::KidMissing => {
            Check::new("signature", Outcome::Fail, e.message()).with_values(signed_by, kid)
        }
        Err(e) => return Err(e),
    });
    call_claim_checks(&claims, call, &mut checks);
    let iat = time_claim(&claims, "iat");
    let iat_shown = member_shown(&claims, "iat");
    checks.push(iat_matches_issued_at(&claims, &iat, &iat_shown));
    checks.push(iat_in_call_window(call, iat, iat_shown));
    Ok(Verdict::new(checks, Some(receipt_digest)))
}

/// The checks of the claims that name the call: `iss`, `aud`, the ids and `input_fingerprint`.
fn call_claim_checks(claims: &Value<'_>, call: &CallContext<'_>, checks: &mut Vec<Check>) {
    checks.push(str_check(claims, "iss", call.network_issuer, Outcome::Fail));
    checks.push(
        match jws::check_iss_aud(claims, None, Some(call.own_agent_id)) {
            Ok(()) => Check::pass("aud"),
            Err(e) => Check::new("aud", Outcome::Fail, e.message()),
        }
        .with_values(
            Some(str_shown(call.own_agent_id)),
            member_shown(claims, "aud"),
        ),
    );
    checks.push(str_check(
        claims,
        "execution_id",
        call.execution_id,
        Outcome::Fail,
    ));
    checks.push(str_check(
        claims,
        "provider_agent_id",
        call.provider_agent_id,
        Outcome::Fail,
    ));
    checks.push(str_check(
        claims,
        "requester_agent_id",
        call.requester_agent_id,
        Outcome::Fail,
    ));
    checks.push(str_check(
        claims,
        "capability_id",
        call.capability_id,
        Outcome::Fail,
    ));
    checks.push(str_check(
        claims,
        "input_fingerprint",
        call.input_fingerprint,
        Outcome::Mismatch,
    ));
}

/// `iat_matches_issued_at`: `iat` is the second of `issued_at`.
fn iat_matches_issued_at(
    claims: &Value<'_>,
    iat: &Result<Option<i64>>,
    iat_shown: &Option<String>,
) -> Check {
    match (iat, claims.get("issued_at")) {
        (Ok(Some(iat)), Some(Value::String(issued_at))) => match parse_rfc3339_utc(issued_at) {
            Ok(seconds) => {
                let by = match iat.saturating_sub(seconds) {
                    0 => String::new(),
                    d if d > 0 => format!(": {d} s later"),
                    d => format!(": {} s earlier", d.unsigned_abs()),
                };
                Check::when(
                    "iat_matches_issued_at",
                    seconds == *iat,
                    Outcome::Fail,
                    "iat is not the second of issued_at",
                )
                .with_values(
                    Some(format!(
                        "{}, the second of issued_at {}",
                        seconds_shown(seconds),
                        str_shown(issued_at)
                    )),
                    Some(format!("{}{by}", seconds_shown(*iat))),
                )
            }
            Err(e) => Check::new("iat_matches_issued_at", Outcome::Fail, e.message()).with_values(
                Some("issued_at as RFC 3339 UTC, YYYY-MM-DDTHH:MM:SS[.f]Z".to_owned()),
                member_shown(claims, "issued_at"),
            ),
        },
        (Err(e), _) => Check::new("iat_matches_issued_at", Outcome::Fail, e.message()).with_values(
            Some("iat as integer seconds in [0, 2^53]".to_owned()),
            iat_shown.clone(),
        ),
        (Ok(None), _) => Check::new("iat_matches_issued_at", Outcome::Fail, "iat is missing"),
        (Ok(Some(_)), _) => Check::new(
            "iat_matches_issued_at",
            Outcome::Fail,
            "issued_at is missing or not a string",
        ),
    }
}

/// `iat_in_call_window`: `iat` between `sent_at` and `received_at`, 60 s of skew either side.
fn iat_in_call_window(
    call: &CallContext<'_>,
    iat: Result<Option<i64>>,
    iat_shown: Option<String>,
) -> Check {
    let (lo, hi) = (
        call.sent_at.saturating_sub(SKEW_SECONDS),
        call.received_at.saturating_add(SKEW_SECONDS),
    );
    let window = Some(format!(
        "{} to {} (sent_at − {SKEW_SECONDS} s to received_at + {SKEW_SECONDS} s)",
        seconds_shown(lo),
        seconds_shown(hi)
    ));
    match iat {
        Ok(Some(iat)) => Check::when(
            "iat_in_call_window",
            lo <= iat && iat <= hi,
            Outcome::Fail,
            "iat lies outside the call window with 60 s skew",
        )
        .with_values(
            window,
            Some(format!(
                "{}: {}",
                seconds_shown(iat),
                distance_shown(iat, lo, hi)
            )),
        ),
        Ok(None) => Check::new("iat_in_call_window", Outcome::Fail, "iat is missing")
            .with_values(window, None),
        Err(e) => Check::new("iat_in_call_window", Outcome::Fail, e.message())
            .with_values(window, iat_shown),
    }
}

/// Seconds since the Unix epoch of an RFC 3339 UTC timestamp `YYYY-MM-DDTHH:MM:SS[.fraction]Z`
/// (upper-case `T` and `Z`, 1–9 fraction digits, truncated), or `INVALID_TIMESTAMP`: the one
/// timestamp rule of the core, [`Timestamp::parse`].
pub fn parse_rfc3339_utc(text: &str) -> Result<i64> {
    Timestamp::parse(text).map(|t| t.unix_seconds())
}

const OBJECT_ONLY: [&str; 3] = ["key_id", "signature", "receipt_jws"];

fn without<'a>(receipt: &Value<'a>, names: &[&str]) -> Result<Value<'a>> {
    let members = receipt
        .as_object()
        .ok_or_else(|| Error::new(ErrorCode::InvalidReceipt, "a receipt must be a json object"))?;
    // Also the members left out: two `signature` members are refused, not both dropped.
    canonical::check_unique_keys(members)?;
    Ok(Value::Object(
        members
            .iter()
            .filter(|(k, _)| !names.contains(&k.as_ref()))
            .cloned()
            .collect(),
    ))
}

/// The bytes the receipt object's `signature` covers: ekl-json-1 of the receipt without
/// `signature` and `receipt_jws` (see the module docs).
pub fn receipt_signing_bytes(receipt: &Value<'_>) -> Result<Vec<u8>> {
    canonical::canonicalize_value(&without(receipt, &["signature", "receipt_jws"])?)
}

/// Signs a receipt object: sets `key_id` to the key's kid and `signature` to base64url(r‖s) over
/// [`receipt_signing_bytes`]. An existing `signature` is replaced; `receipt_jws` is kept. The
/// signed bytes must read back as ekl-json-1 (an integer-valued number beyond 2^53 and below
/// 10^21 is refused with `INTEGER_OUT_OF_RANGE`, the reader's code), so the object verifies with
/// [`check_receipt_signature`]; [`issue_receipt`] makes a complete receipt, whose `receipt_jws`
/// matches the object.
#[cfg(feature = "signing")]
pub fn sign_receipt_object(receipt: &Value<'_>, key: &SigningKey) -> Result<Value<'static>> {
    let mut fields = without(receipt, &["key_id", "signature"])?.into_owned();
    if let Value::Object(members) = &mut fields {
        members.push(("key_id".into(), Value::from(key.kid().to_owned())));
    }
    let bytes = receipt_signing_bytes(&fields)?;
    canonical::parse(&bytes)?;
    let signature = key.sign_es256(&bytes);
    if let Value::Object(members) = &mut fields {
        members.push((
            "signature".into(),
            Value::from(base64url::encode(&signature)),
        ));
    }
    Ok(fields)
}

/// Issues a complete ekl-evidence-sig-1.2 receipt from its fields (for tests, vectors and local
/// test networks): the claims are `fields` without `key_id`, `signature` and `receipt_jws`, plus
/// `iss`, `aud` and `iat` (= `issued_at` truncated to the second); the object gets `receipt_jws`,
/// then `key_id` and `signature`.
///
/// `fields` is the receipt's members (§9.5.1): `issued_at` (RFC 3339 UTC) and the call claims
/// `execution_id`, `provider_agent_id`, `requester_agent_id`, `capability_id`,
/// `input_fingerprint` (strings) are required; any other member (`status`, `receipt_id`,
/// commitments, ...) is carried as given. `issuer` becomes `iss`, `audience` (the consumer's agent
/// id) `aud`. The result is the fields plus `receipt_jws`, `key_id` (the key's kid) and
/// `signature`.
///
/// Refused, with the codes the verifier's checks rest on: fields that are not an object or lack
/// `issued_at` as a string (`INVALID_RECEIPT`); fields that hold `iss`, `aud` or `iat`, which are
/// the token's own claims the issuer adds (`INVALID_ARGUMENT`); an `issued_at`
/// that is not RFC 3339 UTC (`INVALID_TIMESTAMP`) or lies before 1970 (`CLAIM_INVALID`); a call
/// claim ([`CALL_CLAIMS`]) missing (`CLAIM_MISSING`) or not a non-empty string (`CLAIM_INVALID`),
/// a `receipt_id` that is not a non-empty string (`CLAIM_INVALID`), an empty `issuer` or
/// `audience` (`INVALID_ARGUMENT`); then the
/// refusals of [`jws::sign`]. A receipt issued here is accepted by [`verify_receipt`] for the
/// call it names, with the key set holding `key` and a call window around `issued_at`.
#[cfg(feature = "signing")]
pub fn issue_receipt(
    fields: &Value<'_>,
    key: &SigningKey,
    issuer: &str,
    audience: &str,
) -> Result<Value<'static>> {
    crate::shape::non_empty(issuer, "issuer")?;
    crate::shape::non_empty(audience, "audience")?;
    let mut claims = without(fields, &OBJECT_ONLY)?.into_owned();
    // First what the verifier's reader refuses in the claims (parse-time refusals, then
    // duplicates: fields holding `iss`, `aud` or `iat` would put them in the claims twice).
    canonical::parse_strict(
        &canonical::canonicalize_value(&claims)?,
        "jws payload",
        ErrorCode::JwsMalformed,
    )?;
    if let Some(name) = ["iss", "aud", "iat"]
        .into_iter()
        .find(|n| fields.get(n).is_some())
    {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            format!(
                "the fields hold {name}: leave out iss, aud and iat, the claims the network adds \
                 to the token (from issuer, audience and issued_at)"
            ),
        ));
    }
    let issued_at = fields
        .get("issued_at")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidReceipt,
                "issued_at is missing or not a string",
            )
        })?;
    let iat = parse_rfc3339_utc(issued_at)?;
    if let Value::Object(members) = &mut claims {
        members.push(("iss".into(), Value::from(issuer.to_owned())));
        members.push(("aud".into(), Value::from(audience.to_owned())));
        members.push(("iat".into(), Value::from_i64(iat)?));
    }
    let token = jws::sign_checked(Typ::Receipt, &claims, key, check_receipt_claims)?;
    let mut object = without(fields, &OBJECT_ONLY)?.into_owned();
    if let Value::Object(members) = &mut object {
        members.push(("receipt_jws".into(), Value::from(token)));
    }
    sign_receipt_object(&object, key)
}

/// The `object_signature` check of a receipt object: `key_id` names a key of `jwks` (`UNKNOWN_KID`
/// is an error: fetch the key set again) and `signature` verifies over [`receipt_signing_bytes`].
pub fn check_receipt_signature(receipt: &Value<'_>, jwks: &Jwks) -> Result<Check> {
    const NAME: &str = "object_signature";
    let bytes = receipt_signing_bytes(receipt)?;
    let expected = || Some("an ES256 signature by the key key_id names in the JWKS".to_owned());
    let received = || Some(members_shown(receipt, &["key_id"]));
    let Some(key_id) = receipt.get("key_id").and_then(Value::as_str) else {
        return Ok(
            Check::new(NAME, Outcome::Fail, "key_id is missing or not a string")
                .with_values(expected(), received()),
        );
    };
    let Some(signature) = receipt.get("signature").and_then(Value::as_str) else {
        return Ok(
            Check::new(NAME, Outcome::Fail, "signature is missing or not a string")
                .with_values(expected(), received()),
        );
    };
    let key = jwks.get(key_id).ok_or_else(|| {
        Error::new(
            ErrorCode::UnknownKid,
            "key_id is not in the key set (fetch the key set again)",
        )
    })?;
    let result = base64url::decode(signature).and_then(|sig| key.verify_es256(&bytes, &sig));
    Ok(match result {
        Ok(()) => Check::pass(NAME),
        Err(e) => Check::new(NAME, Outcome::Fail, e.message()),
    }
    .with_values(expected(), received()))
}

/// Verifies a receipt object completely: `object_signature`, every check of
/// [`verify_receipt_jws`] on its `receipt_jws`, and `object_matches_jws`.
pub fn verify_receipt(receipt: &Value<'_>, jwks: &Jwks, call: &CallContext<'_>) -> Result<Verdict> {
    let token = receipt
        .get("receipt_jws")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::new(ErrorCode::InvalidReceipt, "receipt_jws must be a string"))?;
    let mut checks = vec![check_receipt_signature(receipt, jwks)?];
    let jws_verdict = verify_receipt_jws(token, jwks, call)?;
    checks.extend(jws_verdict.checks);
    let parts = jws::decode(token)?;
    let claims = canonical::parse_strict(&parts.payload, "jws payload", ErrorCode::JwsMalformed)?;
    let object_fields = without(receipt, &OBJECT_ONLY)?;
    let claim_fields = without(&claims, &["iss", "aud", "iat"])?;
    let same = canonical::canonicalize_value(&object_fields)?
        == canonical::canonicalize_value(&claim_fields)?;
    checks.push(
        Check::when(
            "object_matches_jws",
            same,
            Outcome::Fail,
            "the receipt object and its receipt_jws claims differ",
        )
        .with_values(
            Some("the fields of the receipt_jws claims other than iss, aud, iat".to_owned()),
            Some(differences_shown(
                &object_fields,
                &claim_fields,
                "the object",
                "the claims",
            )),
        ),
    );
    Ok(Verdict::new(checks, jws_verdict.receipt_digest))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The token's own claims in the fields are the caller's mistake (`INVALID_ARGUMENT`, naming
    /// the claim and where it comes from), not a duplicate key in a document.
    #[test]
    fn fields_holding_a_token_claim_are_an_invalid_argument() {
        let key = SigningKey::from_seed(&[7u8; 32], "net-1").expect("key");
        for claim in ["iss", "aud", "iat"] {
            let text = format!(
                r#"{{"execution_id":"ex_1","provider_agent_id":"agt_p","requester_agent_id":"agt_c",
                "capability_id":"cap_x","input_fingerprint":"f1","issued_at":"2026-05-28T20:26:40Z",
                "{claim}":1780000000}}"#
            );
            let fields = canonical::parse(text.as_bytes()).expect("valid");
            let e = issue_receipt(&fields, &key, "https://net", "agt_c").expect_err("refused");
            assert_eq!(e.code(), ErrorCode::InvalidArgument);
            assert!(e
                .message()
                .starts_with(&format!("the fields hold {claim}:")));
            assert!(e.message().contains("from issuer, audience and issued_at"));
        }
    }

    #[test]
    fn checks_show_by_how_much_a_time_misses() {
        let key = SigningKey::from_seed(&[7u8; 32], "net-1").expect("key");
        let jwks = Jwks::parse(
            crate::jwk::jwks_from_seed(&[7u8; 32], &["net-1"])
                .expect("jwks")
                .0
                .to_json()
                .as_bytes(),
        )
        .expect("parses");
        let fields = canonical::parse(
            br#"{"receipt_version":"1.2","receipt_id":"r1","execution_id":"ex_1",
            "provider_agent_id":"agt_p","requester_agent_id":"agt_c","capability_id":"cap_x",
            "input_fingerprint":"f1","issued_at":"2026-05-28T20:26:40.250Z"}"#,
        )
        .expect("valid");
        let receipt = issue_receipt(&fields, &key, "https://net", "agt_c").expect("issued");
        let token = receipt
            .get("receipt_jws")
            .and_then(Value::as_str)
            .expect("jws");
        let iat = 1_780_000_000;
        let call = CallContext {
            execution_id: "ex_1",
            provider_agent_id: "agt_p",
            requester_agent_id: "agt_c",
            capability_id: "cap_x",
            input_fingerprint: "f2",
            own_agent_id: "agt_c",
            network_issuer: "https://net",
            sent_at: iat + 3600,
            received_at: iat + 3605,
        };
        let v = verify_receipt_jws(token, &jwks, &call).expect("a verdict");
        let c = v.check("iat_in_call_window").expect("present");
        assert_eq!(c.outcome, Outcome::Fail);
        assert_eq!(
            c.detail.as_deref(),
            Some("iat lies outside the call window with 60 s skew")
        );
        assert_eq!(
            c.received.as_deref(),
            Some("1780000000 (2026-05-28T20:26:40Z): 3540 s before the window opens")
        );
        assert_eq!(
            c.expected.as_deref(),
            Some("1780003540 (2026-05-28T21:25:40Z) to 1780003665 (2026-05-28T21:27:45Z) (sent_at − 60 s to received_at + 60 s)")
        );
        let c = v.check("input_fingerprint").expect("present");
        assert_eq!(c.outcome, Outcome::Mismatch);
        assert_eq!(
            (c.expected.as_deref(), c.received.as_deref()),
            (Some(r#""f2""#), Some(r#""f1""#))
        );
        let c = v.check("iat_matches_issued_at").expect("present");
        assert_eq!(c.outcome, Outcome::Pass);
        assert_eq!(
            c.received.as_deref(),
            Some("1780000000 (2026-05-28T20:26:40Z)")
        );
        let c = v.check("alg_typ").expect("present");
        assert_eq!(
            c.received.as_deref(),
            Some(r#"alg "ES256", typ "ekl-receipt+jwt", crit absent"#)
        );
        // The signature check names the kid, never the signature.
        let c = v.check("signature").expect("present");
        assert_eq!(c.received.as_deref(), Some(r#"kid "net-1""#));
        let sig = token.rsplit('.').next().expect("segment");
        let json = String::from_utf8(canonical::canonicalize_value(&v.to_value()).expect("json"))
            .expect("utf-8");
        assert!(!json.contains(sig));
        // Inside the window, after it: the distance is named either way.
        let late = CallContext {
            sent_at: iat - 4000,
            received_at: iat - 3000,
            ..call
        };
        let v = verify_receipt_jws(token, &jwks, &late).expect("a verdict");
        assert_eq!(
            v.check("iat_in_call_window")
                .and_then(|c| c.received.as_deref()),
            Some("1780000000 (2026-05-28T20:26:40Z): 2940 s after the window closes")
        );
        // The object form: which fields differ between the object and its claims.
        let Value::Object(mut m) = receipt.clone() else {
            unreachable!()
        };
        for (k, v) in m.iter_mut() {
            if k == "execution_id" {
                *v = Value::from("ex_2");
            }
        }
        m.push(("extra".into(), Value::Number(1.0)));
        let v = verify_receipt(
            &Value::Object(m),
            &jwks,
            &CallContext {
                input_fingerprint: "f1",
                sent_at: iat,
                received_at: iat,
                ..call
            },
        )
        .expect("a verdict");
        let c = v.check("object_matches_jws").expect("present");
        assert_eq!(c.outcome, Outcome::Fail);
        assert_eq!(
            c.received.as_deref(),
            Some("different: execution_id; only in the object: extra")
        );
    }

    #[test]
    fn rfc3339() {
        assert_eq!(parse_rfc3339_utc("1970-01-01T00:00:00Z").unwrap(), 0);
        assert_eq!(
            parse_rfc3339_utc("2026-05-28T20:26:40Z").unwrap(),
            1_780_000_000
        );
        assert_eq!(
            parse_rfc3339_utc("2026-05-28T20:26:40.999Z").unwrap(),
            1_780_000_000
        );
        assert_eq!(
            parse_rfc3339_utc("2000-02-29T00:00:00Z").unwrap(),
            951_782_400
        );
        for bad in [
            "2026-05-28T20:26:40",
            "2026-05-28t20:26:40Z",
            "2026-05-28T20:26:40z",
            "2026-05-28T20:26:40+00:00",
            "2026-05-28 20:26:40Z",
            "2026-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-05-28T24:00:00Z",
            "2026-05-28T20:26:60Z",
            "2026-05-28T20:26:40.Z",
            "2026-05-28T20:26:40.1234567890Z",
            "２026-05-28T20:26:40Z",
            "",
        ] {
            assert!(parse_rfc3339_utc(bad).is_err(), "{bad}");
        }
    }
}
