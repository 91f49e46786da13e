//! The registry: every operation, its parameters and its implementation over `ekl-core`, its
//! rows split by domain (json_ops, proofs_ops, receipts_ops, screening_ops, jws_ops, replay_ops); the helpers they share are here.

use ekl_core::canonical::{self, Options};
use ekl_core::digest::{self, Commitment, Salt};
#[cfg(feature = "signing")]
use ekl_core::hex;
#[cfg(feature = "signing")]
use ekl_core::jwk::{self, SigningKey};
use ekl_core::jws::{self, ClaimChecks, Typ};
#[cfg(feature = "proofs")]
use ekl_core::proof::{self, NetworkHolds, ProofKey, ProofVersion};
use ekl_core::receipt::{self, CallExpectation, KeyRing, ReceiptToVerify};
use ekl_core::receipt_sig::{self, CallContext};
#[cfg(feature = "screening")]
use ekl_core::screening::{self, ScreeningRules};
#[cfg(feature = "screening")]
use ekl_core::screening_rules;
use ekl_core::{batch, fingerprint as fp, shape, Error, ErrorCode, Result, Value};
#[cfg(feature = "signing")]
use zeroize::Zeroizing;

use crate::args::{Args, Out};
use crate::Kind::*;
use crate::{Limit, Op, Param, Returns, TimeForm};

const fn req(name: &'static str, kind: crate::Kind, doc: &'static str) -> Param {
    Param {
        name,
        kind,
        required: true,
        doc,
        times: &[],
        limit: Limit::Value,
        refine: None,
    }
}

const fn opt(name: &'static str, kind: crate::Kind, doc: &'static str) -> Param {
    Param {
        name,
        kind,
        required: false,
        doc,
        times: &[],
        limit: Limit::Value,
        refine: None,
    }
}

impl Param {
    /// The same parameter with members that hold a time ([`Param::times`]).
    const fn times(self, times: &'static [(&'static str, TimeForm)]) -> Param {
        Param { times, ..self }
    }

    /// The same parameter with its own bound on the converted value ([`Param::limit`]).
    const fn limit(self, limit: Limit) -> Param {
        Param { limit, ..self }
    }

    /// The same parameter with a narrower type in the hosts' declarations ([`Param::refine`]).
    const fn refine(self, refine: &'static str) -> Param {
        Param {
            refine: Some(refine),
            ..self
        }
    }
}

/// `issued_at` of a receipt, as the protocol writes it.
#[cfg(feature = "signing")]
const ISSUED_AT: &[(&str, TimeForm)] = &[("issued_at", TimeForm::Timestamp)];
/// The time members of each key of a key ring.
const KEY_RING_TIMES: &[(&str, TimeForm)] = &[
    ("valid_from", TimeForm::Timestamp),
    ("valid_until", TimeForm::Timestamp),
];
/// The NumericDate claims of a JWS.
#[cfg(feature = "signing")]
const CLAIM_TIMES: &[(&str, TimeForm)] = &[
    ("iat", TimeForm::Seconds),
    ("nbf", TimeForm::Seconds),
    ("exp", TimeForm::Seconds),
];
/// The consumer's clock window of a network-signed receipt's call.
const CALL_TIMES: &[(&str, TimeForm)] = &[
    ("sent_at", TimeForm::Seconds),
    ("received_at", TimeForm::Seconds),
];

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidArgument, message.into())
}

fn salt(args: &Args<'_>, name: &str) -> Result<Option<Salt>> {
    args.opt_str(name)?.map(Salt::from_hex).transpose()
}

fn max_bytes(args: &Args<'_>, name: &str) -> Result<Options> {
    let max_bytes = match args.opt_int(name)? {
        None => None,
        Some(n) => Some(usize::try_from(n).map_err(|_| invalid("max_bytes must not be negative"))?),
    };
    Ok(Options { max_bytes })
}

fn s(text: String) -> Result<Out> {
    Ok(Out::Str(text))
}

fn verdict(v: ekl_core::verdict::Verdict) -> Result<Out> {
    Ok(Out::Value(v.to_value()))
}

#[cfg(feature = "proofs")]
fn proof_key(args: &Args<'_>, name: &str) -> Result<ProofKey> {
    ProofKey::from_hex(args.str(name)?)
}

fn typ(text: &str) -> Result<Typ> {
    Typ::from_header(text).ok_or_else(|| invalid("typ is not one of the EKP token types"))
}

#[cfg(feature = "signing")]
fn seed(text: &str) -> Result<Zeroizing<[u8; 32]>> {
    hex::decode_fixed::<32>(text, ErrorCode::InvalidKey, "seed").map(Zeroizing::new)
}

fn commitment_value(c: Commitment) -> Result<Out> {
    Ok(Out::Value(c.to_value()))
}

fn own_commitment(args: &Args<'_>, name: &str) -> Result<Option<Commitment>> {
    args.opt_value(name)?
        .map(|v| Commitment::from_value(&v))
        .transpose()
}

/// `{"error": {"code", "message"}}` for an item of a batch that could not be verified.
fn error_value(e: &Error) -> Value<'static> {
    Value::Object(vec![(
        "error".into(),
        Value::Object(vec![
            ("code".into(), Value::from(e.code().as_str())),
            ("message".into(), Value::from(e.message().to_owned())),
        ]),
    )])
}

fn verify_item(ring: &KeyRing, item: &Value<'_>) -> Result<Value<'static>> {
    shape::members(
        item,
        "item",
        &["receipt", "call", "input_commitment", "output_commitment"],
    )?;
    let receipt = item
        .get("receipt")
        .ok_or_else(|| invalid("an item needs a receipt"))?;
    let call = CallExpectation::from_value(
        item.get("call")
            .ok_or_else(|| invalid("an item needs a call"))?,
    )?;
    let own = |name: &str| match item.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(c) => Commitment::from_value(c).map(Some),
    };
    let (own_in, own_out) = (own("input_commitment")?, own("output_commitment")?);
    let mut verdicts = receipt::verify_receipts(
        ring,
        &[ReceiptToVerify {
            receipt,
            call: &call,
            own_input_commitment: own_in.as_ref(),
            own_output_commitment: own_out.as_ref(),
        }],
    );
    verdicts
        .pop()
        .ok_or_else(|| Error::new(ErrorCode::Internal, "no verdict"))?
        .map(|v| v.to_value())
}

#[cfg(feature = "screening")]
fn rules_value(rules: &ScreeningRules) -> Value<'static> {
    let list = rules
        .rules
        .iter()
        .map(|r| {
            Value::Object(vec![
                ("rule_id".into(), Value::from(r.rule_id.clone())),
                ("category".into(), Value::from(r.category.clone())),
                (
                    "phrases".into(),
                    Value::Array(r.phrases.iter().map(|p| Value::from(p.clone())).collect()),
                ),
            ])
        })
        .collect();
    Value::Object(vec![
        (
            "rules_version".into(),
            Value::from(rules.rules_version.clone()),
        ),
        ("rules".into(), Value::Array(list)),
    ])
}

/// Verified JWS parts, written member by member: each verified value canonicalised on its own
/// (claims at the depth limit, accepted by the verifier, would be refused one level down).
fn verified_json(v: &jws::Verified) -> Result<Out> {
    let mut out = Vec::new();
    out.extend_from_slice(b"{\"claims\":");
    out.extend_from_slice(&canonical::canonicalize_value(&v.claims)?);
    out.extend_from_slice(b",\"header\":");
    out.extend_from_slice(&canonical::canonicalize_value(&v.header)?);
    out.extend_from_slice(b",\"kid\":");
    canonical::write_string(&v.kid, &mut out);
    out.extend_from_slice(b",\"token_sha256\":");
    canonical::write_string(&v.token_sha256, &mut out);
    out.extend_from_slice(b",\"typ\":");
    canonical::write_string(v.typ.as_str(), &mut out);
    out.push(b'}');
    Ok(Out::Json(out))
}

const JOBS_DOC: &str =
    "threads to verify on (default: every core available; 1: the calling thread only)";

/// The `jobs` option: 0 (every core available) when left out.
fn jobs(args: &Args<'_>, name: &str) -> Result<usize> {
    match args.opt_int(name)? {
        None => Ok(0),
        Some(n) if n >= 1 => Ok(usize::try_from(n).unwrap_or(usize::MAX).min(1024)),
        Some(_) => Err(invalid("jobs must be at least 1")),
    }
}

/// The `keys` of the receipt-archive operations (`verify_archive` too: a key ring, as
/// `verify_receipt` takes it).
const ARCHIVE_KEYS: Param = opt("keys", Value, "the key ring of MAC receipts")
    .times(KEY_RING_TIMES)
    .refine("ReceiptKeys");

/// The parameters of the receipt-archive operations.
const ARCHIVE_PARAMS: &[Param] = &[
    req("lines", Text, "the archive: JSON lines text"),
    ARCHIVE_KEYS,
    opt(
        "jwks",
        Jwks,
        "the network's key set, for network-signed receipts",
    ),
    opt(
        "own_agent_id",
        Str,
        "your agent id: a call's own_agent_id and requester_agent_id when the item has none",
    ),
    opt(
        "network_issuer",
        Str,
        "the network's issuer: a signed call's network_issuer when the item has none",
    ),
    opt("jobs", Int, JOBS_DOC),
];

/// Runs `each` over the archive of [`ARCHIVE_PARAMS`] with what its items share.
fn archive(
    a: &Args<'_>,
    each: impl FnOnce(&[u8], &batch::ArchiveKeys<'_>, usize) -> Vec<Value<'static>>,
) -> Result<Out> {
    archive_with(a, |text, keys, jobs| Value::Array(each(text, keys, jobs)))
}

/// Runs `each` over the archive of [`ARCHIVE_PARAMS`] with what its items share; its value is
/// the result.
fn archive_with(
    a: &Args<'_>,
    each: impl FnOnce(&[u8], &batch::ArchiveKeys<'_>, usize) -> Value<'static>,
) -> Result<Out> {
    let ring = a
        .opt_value("keys")?
        .map(|k| KeyRing::from_value(&k))
        .transpose()?;
    let jwks = if a.is_absent("jwks")? {
        None
    } else {
        Some(a.jwks("jwks")?)
    };
    let keys = batch::ArchiveKeys {
        ring: ring.as_ref(),
        jwks: jwks.as_deref(),
        own_agent_id: a.opt_str("own_agent_id")?,
        network_issuer: a.opt_str("network_issuer")?,
    };
    Ok(Out::Value(each(a.text("lines")?, &keys, jobs(a, "jobs")?)))
}

const SALT_DOC: &str = "the salt: 64 lowercase hex (32 bytes)";

mod json_ops;
mod jws_ops;
#[cfg(feature = "mcp")]
mod mcp_ops;
#[cfg(feature = "proofs")]
mod proofs_ops;
mod receipts_ops;
mod remote_jwks_ops;
#[cfg(feature = "replay")]
mod replay_ops;
#[cfg(feature = "screening")]
mod screening_ops;

/// The domains' rows, in manifest order: a domain (or a row of one) whose feature is off is not
/// in the build at all (docs/decisions/wasm.md#verify-build).
const PARTS: &[&[Op]] = &[
    json_ops::OPS,
    #[cfg(feature = "proofs")]
    proofs_ops::OPS,
    receipts_ops::OPS,
    #[cfg(feature = "screening")]
    screening_ops::OPS,
    jws_ops::OPS,
    #[cfg(feature = "replay")]
    replay_ops::OPS,
    remote_jwks_ops::OPS,
    #[cfg(feature = "mcp")]
    mcp_ops::OPS,
];

/// The number of operations: the domains' rows together.
const COUNT: usize = {
    let (mut n, mut i) = (0, 0);
    while i < PARTS.len() {
        n += PARTS[i].len();
        i += 1;
    }
    n
};

/// The domains' rows in one array, in manifest order (a `const fn`: the table is built at
/// compile time, with no allocation and no lookup at run time).
const fn concat(parts: &[&[Op]]) -> [Op; COUNT] {
    let mut out = [parts[0][0]; COUNT];
    let (mut k, mut i) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[k] = parts[i][j];
            k += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(k == COUNT);
    out
}

static TABLE: [Op; COUNT] = concat(PARTS);

/// Every operation, in the order of `docs/operations.json`.
pub(crate) static OPERATIONS: &[Op] = &TABLE;
