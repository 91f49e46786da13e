//! The registry: every operation, its parameters and its implementation over `ekl-core`.

use ekl_core::canonical::{self, Options};
use ekl_core::digest::{self, Commitment, Salt};
use ekl_core::jwk::{self, SigningKey};
use ekl_core::jws::{self, ClaimChecks, Typ};
use ekl_core::proof::{self, NetworkHolds, ProofKey, ProofVersion};
use ekl_core::receipt::{self, CallExpectation, KeyRing, ReceiptToVerify};
use ekl_core::receipt_sig::{self, CallContext};
use ekl_core::screening::{self, ScreeningRules};
use ekl_core::{
    batch, fingerprint as fp, hex, screening_rules, shape, Error, ErrorCode, Result, Value,
};
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
}

/// `issued_at` of a receipt, as the protocol writes it.
const ISSUED_AT: &[(&str, TimeForm)] = &[("issued_at", TimeForm::Timestamp)];
/// The time members of each key of a key ring.
const KEY_RING_TIMES: &[(&str, TimeForm)] = &[
    ("valid_from", TimeForm::Timestamp),
    ("valid_until", TimeForm::Timestamp),
];
/// The NumericDate claims of a JWS.
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

fn proof_key(args: &Args<'_>, name: &str) -> Result<ProofKey> {
    ProofKey::from_hex(args.str(name)?)
}

fn typ(text: &str) -> Result<Typ> {
    Typ::from_header(text).ok_or_else(|| invalid("typ is not one of the EKP token types"))
}

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

/// The parameters of the receipt-archive operations.
const ARCHIVE_PARAMS: &[Param] = &[
    req("lines", Text, "the archive: JSON lines text"),
    opt("keys", Value, "the key ring of MAC receipts").times(KEY_RING_TIMES),
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
    Ok(Out::Value(Value::Array(each(
        a.text("lines")?,
        &keys,
        jobs(a, "jobs")?,
    ))))
}

const SALT_DOC: &str = "the salt: 64 lowercase hex (32 bytes)";

pub(crate) static OPERATIONS: &[Op] = &[
    Op {
        name: "canonicalize",
        class: None,
        section: "§9.5",
        doc: "ekl-json-1 canonical bytes of JSON text (RFC 8785 with EKP's refusals).",
        params: &[
            req("text", Text, "JSON text"),
            opt("max_bytes", Int, "refuse output longer than this (BODY_TOO_LARGE)"),
        ],
        returns: Returns::Bytes,
        run: |a| canonical::canonicalize_with(a.text("text")?, max_bytes(a, "max_bytes")?).map(Out::Bytes),
    },
    Op {
        name: "canonicalize_value",
        class: None,
        section: "§9.5",
        doc: "ekl-json-1 canonical bytes of a JSON value.",
        params: &[
            req("value", Value, "the value").limit(Limit::Param("max_bytes")),
            opt("max_bytes", Int, "refuse output longer than this (BODY_TOO_LARGE)"),
        ],
        returns: Returns::Bytes,
        run: |a| {
            let options = max_bytes(a, "max_bytes")?;
            let bytes = canonical::canonicalize_value(&*a.value("value")?)?;
            if options.max_bytes.is_some_and(|m| bytes.len() > m) {
                return Err(Error::new(
                    ErrorCode::BodyTooLarge,
                    "the canonical form is longer than max_bytes",
                ));
            }
            Ok(Out::Bytes(bytes))
        },
    },
    Op {
        name: "sha256_hex",
        class: None,
        section: "-",
        doc: "Lowercase hex SHA-256 of bytes (a string: of its UTF-8 bytes).",
        params: &[req("data", Bytes, "the bytes")],
        returns: Returns::Str,
        run: |a| s(digest::sha256_hex(a.bytes("data")?)),
    },
    Op {
        name: "commitment",
        class: None,
        section: "§9.5",
        doc: "The commitment {alg, canon, digest[, salt_id, salt]} of a value.",
        params: &[
            req("value", Value, "the value committed to"),
            opt("salt", Str, SALT_DOC),
            opt("salt_id", Str, "the salt's identifier"),
        ],
        returns: Returns::Value("Commitment"),
        run: |a| {
            commitment_value(digest::commitment(
                &*a.value("value")?,
                salt(a, "salt")?.as_ref(),
                a.opt_str("salt_id")?,
            )?)
        },
    },
    Op {
        name: "input_commitment",
        class: None,
        section: "§2.5, §9.5",
        doc: "The commitment of a capability call's input (at most 256 KB as ekl-json-1).",
        params: &[
            req("input", Value, "the call's input")
                .limit(Limit::Bytes(canonical::CAPABILITY_INPUT_MAX_BYTES)),
            opt("salt", Str, SALT_DOC),
            opt("salt_id", Str, "the salt's identifier"),
        ],
        returns: Returns::Value("Commitment"),
        run: |a| {
            commitment_value(digest::input_commitment(
                &*a.value("input")?,
                salt(a, "salt")?.as_ref(),
                a.opt_str("salt_id")?,
            )?)
        },
    },
    Op {
        name: "terms_hash",
        class: None,
        section: "§6.7.1",
        doc: "The terms hash: 64 lowercase hex.",
        params: &[req("terms", Value, "the terms object")],
        returns: Returns::Str,
        run: |a| s(digest::terms_hash(&*a.value("terms")?)?),
    },
    Op {
        name: "value_digest",
        class: None,
        section: "§9.5",
        doc: "SHA-256 of (salt ‖) a value's ekl-json-1 bytes: 64 lowercase hex.",
        params: &[req("value", Value, "the value"), opt("salt", Str, SALT_DOC)],
        returns: Returns::Str,
        run: |a| s(digest::value_digest(&*a.value("value")?, salt(a, "salt")?.as_ref())?),
    },
    Op {
        name: "fingerprint",
        class: None,
        section: "§15.3",
        doc: "The salted fingerprint SHA-256(salt ‖ ekl-json-1(value)).",
        params: &[req("salt", Str, SALT_DOC), req("value", Value, "the value")],
        returns: Returns::Str,
        run: |a| {
            let salt = Salt::from_hex(a.str("salt")?)?;
            s(fp::fingerprint(&salt, &*a.value("value")?)?)
        },
    },
    Op {
        name: "output_fingerprint",
        class: None,
        section: "§15.3",
        doc: "The salted fingerprint of an MCP tool result's body (structuredContent, else content).",
        params: &[req("salt", Str, SALT_DOC), req("result", Value, "the tool result")],
        returns: Returns::Str,
        run: |a| {
            let salt = Salt::from_hex(a.str("salt")?)?;
            s(fp::output_fingerprint(&salt, &*a.value("result")?)?)
        },
    },
    Op {
        name: "select_result_body",
        class: None,
        section: "§15.3",
        doc: "The body of a tool result that its fingerprint covers: {member, value}.",
        params: &[req("result", Value, "the tool result")],
        returns: Returns::Value("ResultBody"),
        run: |a| {
            let result = a.value("result")?;
            // The whole result must be ekl-json-1, as for the fingerprint.
            canonical::canonicalize_value(&result)?;
            let (member, body) = fp::select_result_body(&result)?;
            Ok(Out::Value(Value::Object(vec![
                ("member".into(), Value::from(member.as_str())),
                ("value".into(), body.clone().into_owned()),
            ])))
        },
    },
    Op {
        name: "upstream_fingerprint",
        class: None,
        section: "§5.1",
        doc: "The upstream fingerprint of a tools/list result, optionally of the offered tools only.",
        params: &[
            req("tools", Value, "the tools/list result ({\"tools\": [...]})"),
            opt("offered", StrList, "the names of the tools offered"),
        ],
        returns: Returns::Str,
        run: |a| s(fp::upstream_fingerprint(&*a.value("tools")?, a.opt_str_list("offered")?)?),
    },
    Op {
        name: "upstream_projection",
        class: None,
        section: "§5.1",
        doc: "The array the upstream fingerprint hashes.",
        params: &[
            req("tools", Value, "the tools/list result ({\"tools\": [...]})"),
            opt("offered", StrList, "the names of the tools offered"),
        ],
        returns: Returns::Value("JsonValue[]"),
        run: |a| {
            let tools = a.value("tools")?;
            let projection = fp::upstream_projection(&tools, a.opt_str_list("offered")?)?;
            Ok(Out::Value(projection.into_owned()))
        },
    },
    Op {
        name: "proof_key",
        class: None,
        section: "§3.1",
        doc: "The proof key of an agent key: 64 lowercase hex.",
        params: &[req("agent_key", Str, "the agent key")],
        returns: Returns::Str,
        run: |a| s(ProofKey::derive(a.str("agent_key")?).to_hex()),
    },
    Op {
        name: "challenge_proof_v1",
        class: None,
        section: "§15.2",
        doc: "The v1 endpoint challenge proof.",
        params: &[
            req("credential", Str, "the agent's credential"),
            req("challenge", Str, "the challenge"),
            req("endpoint", Str, "the endpoint URL"),
        ],
        returns: Returns::Str,
        run: |a| s(proof::challenge_proof_v1(a.str("credential")?, a.str("challenge")?, a.str("endpoint")?)),
    },
    Op {
        name: "challenge_proof_v2",
        class: None,
        section: "§3.1",
        doc: "The v2 endpoint challenge proof.",
        params: &[
            req("proof_key", Str, "the proof key: 64 lowercase hex"),
            req("challenge", Str, "the challenge"),
            req("endpoint", Str, "the endpoint URL"),
        ],
        returns: Returns::Str,
        run: |a| {
            s(proof::challenge_proof_v2(
                &proof_key(a, "proof_key")?,
                a.str("challenge")?,
                a.str("endpoint")?,
            ))
        },
    },
    Op {
        name: "enroll_authority_v1",
        class: None,
        section: "§4",
        doc: "The v1 enrollment authority.",
        params: &[
            req("agent_key", Str, "the agent key"),
            req("enrollment_id", Str, "the enrollment id"),
            req("nonce", Str, "the nonce"),
            req("endpoint", Str, "the endpoint URL"),
        ],
        returns: Returns::Str,
        run: |a| {
            s(proof::enroll_authority_v1(
                a.str("agent_key")?,
                a.str("enrollment_id")?,
                a.str("nonce")?,
                a.str("endpoint")?,
            ))
        },
    },
    Op {
        name: "enroll_authority_v2",
        class: None,
        section: "§4",
        doc: "The v2 enrollment authority.",
        params: &[
            req("proof_key", Str, "the proof key: 64 lowercase hex"),
            req("enrollment_id", Str, "the enrollment id"),
            req("nonce", Str, "the nonce"),
            req("endpoint", Str, "the endpoint URL"),
        ],
        returns: Returns::Str,
        run: |a| {
            s(proof::enroll_authority_v2(
                &proof_key(a, "proof_key")?,
                a.str("enrollment_id")?,
                a.str("nonce")?,
                a.str("endpoint")?,
            ))
        },
    },
    Op {
        name: "verify_signature",
        class: None,
        section: "§4",
        doc: "The ekl_verify signature the network expects.",
        params: &[
            req("registration_secret", Str, "the registration secret"),
            req("agent_id", Str, "the agent id"),
            req("enrollment_id", Str, "the enrollment id"),
            req("challenge", Str, "the challenge"),
        ],
        returns: Returns::Str,
        run: |a| {
            s(proof::verify_signature(
                a.str("registration_secret")?,
                a.str("agent_id")?,
                a.str("enrollment_id")?,
                a.str("challenge")?,
            ))
        },
    },
    Op {
        name: "check_verify_signature",
        class: None,
        section: "§4",
        doc: "Whether an ekl_verify signature is right (constant-time).",
        params: &[
            req("registration_secret", Str, "the registration secret"),
            req("agent_id", Str, "the agent id"),
            req("enrollment_id", Str, "the enrollment id"),
            req("challenge", Str, "the challenge"),
            req("signature", Str, "the signature received"),
        ],
        returns: Returns::Bool,
        run: |a| {
            Ok(Out::Bool(proof::check_verify_signature(
                a.str("registration_secret")?,
                a.str("agent_id")?,
                a.str("enrollment_id")?,
                a.str("challenge")?,
                a.str("signature")?,
            )))
        },
    },
    Op {
        name: "verify_challenge_proof",
        class: None,
        section: "§3.1, §15.2",
        doc: "The network side of the endpoint challenge: \"v1\" or \"v2\". Give exactly one of \
              proof_key (only proof_v2 counts; a v1 proof is PROOF_DOWNGRADE) and credential_hash \
              (only the v1 proof can be checked). Refusals: PROOF_INVALID, PROOF_DOWNGRADE.",
        params: &[
            req("challenge", Str, "the challenge"),
            req("endpoint", Str, "the endpoint URL"),
            opt("proof", Str, "the v1 proof received"),
            opt("proof_v2", Str, "the v2 proof received"),
            opt("proof_key", Str, "the agent's proof key, when the network holds it"),
            opt("credential_hash", Str, "the credential hash, when the network holds that"),
        ],
        returns: Returns::Str,
        run: |a| {
            let holds = match (a.opt_str("proof_key")?, a.opt_str("credential_hash")?) {
                (Some(k), None) => NetworkHolds::ProofKey(ProofKey::from_hex(k)?),
                (None, Some(h)) => NetworkHolds::credential_hash_hex(h)?,
                _ => {
                    return Err(invalid(
                        "give exactly one of proof_key and credential_hash (what the network holds)",
                    ))
                }
            };
            let v = proof::verify_challenge_proof(
                &holds,
                a.str("challenge")?,
                a.str("endpoint")?,
                a.opt_str("proof")?,
                a.opt_str("proof_v2")?,
            )?;
            s(v.as_str().to_owned())
        },
    },
    Op {
        name: "verify_enroll_authority",
        class: None,
        section: "§4",
        doc: "The agent side of ekl_enroll: \"v1\" or \"v2\". After an announced \"v2\" a v1 \
              authority is PROOF_DOWNGRADE; an authority_version other than 1 or 2 is \
              ENROLLMENT_AUTH_REQUIRED.",
        params: &[
            req("announced", Str, "the endpoint_proof its last announcement answered: v1 or v2"),
            req("agent_key", Str, "the agent key"),
            req("enrollment_id", Str, "the enrollment id"),
            req("nonce", Str, "the nonce"),
            req("endpoint", Str, "the endpoint URL"),
            opt("authority", Str, "the authority received"),
            opt("authority_version", Int, "the authority's version"),
        ],
        returns: Returns::Str,
        run: |a| {
            let announced = match a.str("announced")? {
                "v1" => ProofVersion::V1,
                "v2" => ProofVersion::V2,
                _ => return Err(invalid("announced must be v1 or v2")),
            };
            // A version no u32 holds is neither 1 nor 2: the core refuses it as such.
            let version = a.opt_int("authority_version")?.map(|n| u32::try_from(n).unwrap_or(u32::MAX));
            let v = proof::verify_enroll_authority(
                announced,
                a.str("agent_key")?,
                a.str("enrollment_id")?,
                a.str("nonce")?,
                a.str("endpoint")?,
                a.opt_str("authority")?,
                version,
            )?;
            s(v.as_str().to_owned())
        },
    },
    Op {
        name: "format_timestamp",
        class: None,
        section: "§9.5",
        doc: "The protocol's UTC timestamp form (YYYY-MM-DDTHH:MM:SSZ) of a time in seconds.",
        params: &[req("time", Now, "the time (seconds since the epoch, or the host's date type)")],
        returns: Returns::Str,
        run: |a| s(ekl_core::timestamp::Timestamp::from_unix(a.int("time")?, 0)?.format()?),
    },
    Op {
        name: "receipt_key",
        class: None,
        section: "§9.5",
        doc: "The receipt key of a secret and key id: 64 lowercase hex.",
        params: &[
            req("secret", Str, "the registration secret"),
            req("key_id", Str, "the key id"),
        ],
        returns: Returns::Str,
        run: |a| s(hex::encode(&*Zeroizing::new(receipt::receipt_key(a.str("secret")?, a.str("key_id")?)))),
    },
    Op {
        name: "auth_tag",
        class: None,
        section: "§9.5",
        doc: "The auth_tag of a receipt (its other members) under a registration secret.",
        params: &[
            req("receipt", Value, "the receipt"),
            req("secret", Str, "the registration secret"),
        ],
        returns: Returns::Str,
        run: |a| s(receipt::auth_tag(&*a.value("receipt")?, a.str("secret")?)?),
    },
    Op {
        name: "receipt_digest",
        class: None,
        section: "§9.5",
        doc: "The receipt digest: SHA-256 of ekl-json-1 of the whole receipt.",
        params: &[req("receipt", Value, "the receipt")],
        returns: Returns::Str,
        run: |a| s(receipt::receipt_digest(&*a.value("receipt")?)?),
    },
    Op {
        name: "sign_receipt",
        class: None,
        section: "§9.5",
        doc: "The receipt with its auth_tag. Refuses what verify_receipt would refuse.",
        params: &[
            req("receipt", Value, "the receipt, without auth_tag").times(ISSUED_AT),
            req("secret", Str, "the registration secret"),
        ],
        returns: Returns::Value("Receipt"),
        run: |a| Ok(Out::Value(receipt::sign_receipt(&*a.value("receipt")?, a.str("secret")?)?)),
    },
    Op {
        name: "issue_mac_receipt",
        class: None,
        section: "§9.5",
        doc: "Issues a MAC receipt (ekl-evidence-mac-1.1) for a call answered: every member the \
              verifier requires for the call's execution_kind, the commitments to the input and \
              the output with fresh salts, issued_at now, the auth_tag. Refuses what \
              verify_receipt would refuse, and verifies the receipt before returning it.",
        params: &[
            req("call", Value, "the call answered, as verify_receipt takes it; it must name execution_kind, connection_id, capability_version and terms_hash, and for a customer call reservation_id, grant_id and admission_id"),
            req("input", Value, "the call's input object (at most 256 KB as ekl-json-1)"),
            req("output", Value, "the result answered"),
            req("status", Str, "the execution status: accepted, running, succeeded, failed_before_effect, cancelled or outcome_unknown"),
            req("rel_ver_at_admission", Int, "the relationship version at admission"),
            req("dsc_ver", Int, "the descriptor version"),
            req("secret", Str, "the receipt secret (the registration secret for rk-1)"),
            opt("key_id", Str, "the secret's key id (default rk-1)"),
            opt("receipt_id", Str, "the receipt id (default: rcpt_ and 32 hex of the SHA-256 of the receipt's other members)"),
            opt("issued_at", Now, "the time of issue (default: now)"),
            opt("input_salt", Salt, "the input commitment's salt, 64 lowercase hex (default: fresh from the host's CSPRNG)"),
            opt("output_salt", Salt, "the output commitment's salt, 64 lowercase hex (default: fresh from the host's CSPRNG)"),
        ],
        returns: Returns::Value("IssuedReceipt"),
        run: |a| {
            let call = CallExpectation::from_value(&*a.value("call")?)?;
            let (input, output) = (a.value("input")?, a.value("output")?);
            let (input_salt, output_salt) = (a.salt("input_salt")?, a.salt("output_salt")?);
            let answered = receipt::CallAnswered {
                call: &call,
                input: &input,
                output: &output,
                status: a.str("status")?,
                rel_ver_at_admission: a.int("rel_ver_at_admission")?,
                dsc_ver: a.int("dsc_ver")?,
                key_id: a.opt_str("key_id")?.unwrap_or(receipt::BASELINE_KEY_ID),
                receipt_id: a.opt_str("receipt_id")?,
                issued_at: a.int("issued_at")?,
                input_salt: &input_salt,
                output_salt: &output_salt,
            };
            Ok(Out::Value(receipt::issue_mac_receipt(&answered, a.str("secret")?)?))
        },
    },
    Op {
        name: "verify_receipt",
        class: None,
        section: "§9.5",
        doc: "The verdict on a MAC receipt: every check, pass, fail or mismatch.",
        params: &[
            req("receipt", Value, "the receipt"),
            req("keys", Value, "the key ring: the registration secret, or a list of {key_id, secret, valid_from, valid_until?}").times(KEY_RING_TIMES),
            req("call", Value, "the call: {execution_id, collaboration_id, capability_id, requester_agent_id, provider_agent_id, …}"),
            opt("input_commitment", Value, "the consumer's own input commitment"),
            opt("output_commitment", Value, "the consumer's own output commitment"),
        ],
        returns: Returns::Verdict,
        run: |a| {
            let ring = KeyRing::from_value(&*a.value("keys")?)?;
            let call = CallExpectation::from_value(&*a.value("call")?)?;
            let (own_in, own_out) = (own_commitment(a, "input_commitment")?, own_commitment(a, "output_commitment")?);
            verdict(receipt::verify_receipt(
                &*a.value("receipt")?,
                &ring,
                &call,
                own_in.as_ref(),
                own_out.as_ref(),
            )?)
        },
    },
    Op {
        name: "verify_receipts",
        class: None,
        section: "§9.5",
        doc: "Verdicts on many MAC receipts under one key ring; an item that cannot be read gives \
              {error: {code, message}} in its place.",
        params: &[
            req("items", Value, "a list of {receipt, call, input_commitment?, output_commitment?}"),
            req("keys", Value, "the key ring: the registration secret, or a list of keys").times(KEY_RING_TIMES),
            opt("jobs", Int, JOBS_DOC),
        ],
        returns: Returns::Verdicts,
        run: |a| {
            let ring = KeyRing::from_value(&*a.value("keys")?)?;
            let jobs = jobs(a, "jobs")?;
            let items = a.value("items")?;
            let list = items
                .as_array()
                .ok_or_else(|| invalid("items must be a list"))?;
            let out = batch::map_ordered(
                list,
                jobs,
                |item| verify_item(&ring, item).unwrap_or_else(|e| error_value(&e)),
                &|_| {},
            );
            Ok(Out::Value(Value::Array(out)))
        },
    },
    Op {
        name: "verify_receipt_lines",
        class: None,
        section: "§9.5",
        doc: "Verdicts on a receipt archive: JSON lines, one item a line ({receipt, call, \
              input_commitment?, output_commitment?} for a MAC receipt, {receipt_jws, call} or \
              {receipt: signed object, call} for a network-signed one, an optional label); one \
              verdict per non-blank line, or {error: {code, message}} for an item that cannot be \
              verified.",
        params: ARCHIVE_PARAMS,
        returns: Returns::Verdicts,
        run: |a| {
            archive(a, |text, keys, jobs| {
                batch::verify_lines(text, keys, jobs)
                    .into_iter()
                    .map(|r| r.map_or_else(|e| error_value(&e), |v| v.to_value()))
                    .collect()
            })
        },
    },
    Op {
        name: "summarize_receipt_lines",
        class: None,
        section: "§9.5",
        doc: "A receipt archive in brief (the items of verify_receipt_lines): one row per \
              non-blank line, {line, kind, label, receipt_id, execution_id, provider_agent_id, \
              capability_id, issued_at, accepted, receipt_digest, passed, failing: [{name, \
              outcome, detail?}], error}: the ids a table of the archive shows and the verdict in \
              short; an item that cannot be verified has accepted null and error {code, message}.",
        params: ARCHIVE_PARAMS,
        returns: Returns::Value("ReceiptLineSummary[]"),
        run: |a| archive(a, batch::summarize_lines),
    },
    Op {
        name: "screening_rules",
        class: None,
        section: "§15.5",
        doc: "The screening rules of a rules token's claims, validated: {rules_version, rules}.",
        params: &[req("claims", Value, "the claims (rules_version, rules)")],
        returns: Returns::Value("ScreeningRules"),
        run: |a| {
            Ok(Out::Value(rules_value(&ScreeningRules::from_claims(
                &*a.value("claims")?,
            )?)))
        },
    },
    Op {
        name: "screen",
        class: None,
        section: "§15.5",
        doc: "The safety flags of a tool result: the network's rules (when given) and the local \
              leak patterns.",
        params: &[
            req("result", Value, "the tool result"),
            opt("rules", Value, "the screening rules ({rules_version, rules})"),
        ],
        returns: Returns::Value("SafetyFlag[]"),
        run: |a| {
            let rules = a
                .opt_value("rules")?
                .map(|r| ScreeningRules::from_claims(&r))
                .transpose()?;
            let result = a.value("result")?;
            canonical::canonicalize_value(&result)?;
            let flags = screening::scan(rules.as_ref(), &result);
            Ok(Out::Value(Value::Array(
                flags.iter().map(|f| f.to_value()).collect(),
            )))
        },
    },
    Op {
        name: "screening_fold",
        class: None,
        section: "§15.5",
        doc: "The screening fold of a text (NFKC, full case folding).",
        params: &[req("text", Str, "the text")],
        returns: Returns::Str,
        run: |a| s(screening::fold(a.str("text")?)),
    },
    Op {
        name: "parse_jwks",
        class: Some("Jwks"),
        section: "§3",
        doc: "A validated JWKS of P-256 keys, parsed once for many verifications.",
        params: &[req("jwks", Jwks, "the key set")],
        returns: Returns::Jwks,
        run: |a| Ok(Out::Jwks((*a.jwks("jwks")?).clone())),
    },
    Op {
        name: "verify_jws",
        class: None,
        section: "§3",
        doc: "Verifies a compact ES256 JWS of an EKP type: header, signature and claims. Returns \
              {header, claims, kid, typ, token_sha256}.",
        params: &[
            req("token", Str, "the compact JWS"),
            req("typ", Str, "the expected token type"),
            req("jwks", Jwks, "the key set"),
            opt("now", Now, "the time to check against (default: now)"),
            opt("issuer", Str, "the expected iss"),
            opt("audience", Str, "the expected aud"),
            opt("skew", Int, "the allowed clock skew in seconds (default 60)"),
            opt("max_lifetime", Int, "the longest exp − iat allowed"),
            opt("require_exp", Bool, "whether exp is required (default true)"),
            opt("require_iat", Bool, "whether iat is required (default true)"),
        ],
        returns: Returns::Value("VerifiedJws"),
        run: |a| {
            let typ = typ(a.str("typ")?)?;
            let now = a.int("now")?;
            let defaults = ClaimChecks::at(now);
            let checks = ClaimChecks {
                issuer: a.opt_str("issuer")?,
                audience: a.opt_str("audience")?,
                now,
                skew: a.opt_int("skew")?.unwrap_or(defaults.skew),
                max_lifetime: a.opt_int("max_lifetime")?.or(defaults.max_lifetime),
                require_exp: a.opt_bool("require_exp")?.unwrap_or(defaults.require_exp),
                require_iat: a.opt_bool("require_iat")?.unwrap_or(defaults.require_iat),
            };
            let jwks = a.jwks("jwks")?;
            verified_json(&jws::verify(a.str("token")?, typ, &jwks, &checks)?)
        },
    },
    Op {
        name: "sign_jws",
        class: None,
        section: "§3",
        doc: "Signs claims as a compact ES256 JWS of an EKP type. Refuses what verify_jws would \
              refuse.",
        params: &[
            req("typ", Str, "the token type"),
            req("claims", Value, "the claims").times(CLAIM_TIMES),
            req("key", Key, "the signing key"),
        ],
        returns: Returns::Str,
        run: |a| s(jws::sign(typ(a.str("typ")?)?, &*a.value("claims")?, a.key("key")?)?),
    },
    Op {
        name: "signing_key",
        class: None,
        section: "§3",
        doc: "An ES256 signing key derived from a 32-byte seed (deterministic; tests, vectors, \
              local networks).",
        params: &[
            req("seed", Str, "the seed: 64 lowercase hex"),
            req("kid", Str, "the key id"),
        ],
        returns: Returns::Key,
        run: |a| Ok(Out::Key(SigningKey::from_seed(&*seed(a.str("seed")?)?, a.str("kid")?)?)),
    },
    Op {
        name: "signing_key_from_jwk",
        class: None,
        section: "§3",
        doc: "An ES256 signing key from a private JWK: d alone (the public point derived) or with \
              x and y (checked against d).",
        params: &[req("jwk", Value, "the private JWK (kty EC, crv P-256, kid, d)")],
        returns: Returns::Key,
        run: |a| Ok(Out::Key(SigningKey::from_jwk_value(&*a.value("jwk")?)?)),
    },
    Op {
        name: "signing_key_from_pem",
        class: None,
        section: "§3",
        doc: "An ES256 signing key from a PEM file: PKCS#8 (BEGIN PRIVATE KEY) or SEC1 (BEGIN EC \
              PRIVATE KEY), P-256, unencrypted.",
        params: &[
            req("pem", Str, "the PEM text"),
            req("kid", Str, "the key id it signs under"),
        ],
        returns: Returns::Key,
        run: |a| Ok(Out::Key(SigningKey::from_pem(a.str("pem")?, a.str("kid")?)?)),
    },
    Op {
        name: "public_jwk",
        class: None,
        section: "§3",
        doc: "The public JWK of a signing key (for the key set a verifier fetches).",
        params: &[req("key", Key, "the signing key")],
        returns: Returns::Value("Jwk"),
        run: |a| Ok(Out::Value(a.key("key")?.public_jwk().to_value())),
    },
    Op {
        name: "jwks_from_seed",
        class: None,
        section: "§3",
        doc: "The JWKS and signing keys derived from one seed, one per kid.",
        params: &[
            req("seed", Str, "the seed: 64 lowercase hex"),
            req("kids", StrList, "the key ids"),
        ],
        returns: Returns::KeySet,
        run: |a| {
            let (jwks, keys) = jwk::jwks_from_seed(&*seed(a.str("seed")?)?, a.str_list("kids")?)?;
            Ok(Out::KeySet(jwks, keys))
        },
    },
    Op {
        name: "verify_receipt_jws",
        class: None,
        section: "§9.5.1",
        doc: "The verdict on a network-signed receipt's compact JWS against the call.",
        params: &[
            req("token", Str, "the receipt_jws"),
            req("jwks", Jwks, "the network's key set"),
            req("call", Value, "the call: {execution_id, provider_agent_id, requester_agent_id, capability_id, input_fingerprint, own_agent_id, network_issuer, sent_at, received_at}").times(CALL_TIMES),
        ],
        returns: Returns::Verdict,
        run: |a| {
            let call = a.value("call")?;
            let context = CallContext::from_value(&call)?;
            verdict(receipt_sig::verify_receipt_jws(
                a.str("token")?,
                &*a.jwks("jwks")?,
                &context,
            )?)
        },
    },
    Op {
        name: "verify_signed_receipt",
        class: None,
        section: "§9.5.1",
        doc: "The verdict on a network-signed receipt object: its signature, its JWS, and that \
              they agree.",
        params: &[
            req("receipt", Value, "the receipt object"),
            req("jwks", Jwks, "the network's key set"),
            req("call", Value, "the call (as for verify_receipt_jws)").times(CALL_TIMES),
        ],
        returns: Returns::Verdict,
        run: |a| {
            let call = a.value("call")?;
            let context = CallContext::from_value(&call)?;
            verdict(receipt_sig::verify_receipt(
                &*a.value("receipt")?,
                &*a.jwks("jwks")?,
                &context,
            )?)
        },
    },
    Op {
        name: "issue_receipt",
        class: None,
        section: "§9.5.1",
        doc: "Issues a network-signed receipt (object signature and receipt_jws) from its fields. \
              Refuses what the verifier would refuse.",
        params: &[
            req("fields", Value, "the receipt's fields").times(ISSUED_AT),
            req("key", Key, "the network's signing key"),
            req("issuer", Str, "the network's issuer (iss)"),
            req("audience", Str, "the consumer's agent id (aud)"),
        ],
        returns: Returns::Value("SignedReceipt"),
        run: |a| {
            Ok(Out::Value(receipt_sig::issue_receipt(
                &*a.value("fields")?,
                a.key("key")?,
                a.str("issuer")?,
                a.str("audience")?,
            )?))
        },
    },
    Op {
        name: "verify_execution_grant",
        class: None,
        section: "§9.3.2",
        doc: "Verifies an execution grant for a provider: typ ekl-execution-grant+jwt, aud \
              ekl:agent:{provider_id}, lifetime at most 600 s. Returns {header, claims, kid, typ, \
              token_sha256}.",
        params: &[
            req("token", Str, "the execution grant"),
            req("jwks", Jwks, "the network's key set"),
            req("issuer", Str, "the network's issuer"),
            req("provider_id", Str, "the provider's agent id"),
            opt("now", Now, "the time to check against (default: now)"),
        ],
        returns: Returns::Value("VerifiedJws"),
        run: |a| {
            let grant = ekl_core::credential::verify_execution_grant(
                a.str("token")?,
                &*a.jwks("jwks")?,
                a.str("issuer")?,
                a.str("provider_id")?,
                a.int("now")?,
            )?;
            verified_json(&grant.verified)
        },
    },
    // The per-type credential verifiers (issue 25; result shapes: bridge/src/credential.rs).
    Op {
        name: "verify_relationship_assertion",
        class: None,
        section: "§9.1",
        doc: "Verifies a relationship assertion at a provider's token endpoint: typ \
              ekl-relationship+jwt, aud the token endpoint, lifetime at most 120 s, sub jti org \
              con rel_ver dsc_ver caps required, auth_profile ekl-auth-1.1. Returns the verified \
              token with {iss, iat, exp, sub, aud, jti, org, con, rel_ver, dsc_ver, caps}. Single \
              use: consuming jti is the caller's (§9.2).",
        params: &[
            req("token", Str, "the relationship assertion"),
            req("jwks", Jwks, "the network's key set"),
            req("issuer", Str, "the network's issuer"),
            req("token_endpoint", Str, "the provider's token endpoint (the aud)"),
            opt("now", Now, "the time to check against (default: now)"),
        ],
        returns: Returns::Value("VerifiedRelationshipAssertion"),
        run: |a| {
            crate::credential::relationship_assertion(
                ekl_core::credential::verify_relationship_assertion(
                    a.str("token")?,
                    &*a.jwks("jwks")?,
                    a.str("issuer")?,
                    a.str("token_endpoint")?,
                    a.int("now")?,
                )?,
            )
        },
    },
    Op {
        name: "verify_platform_call",
        class: None,
        section: "§3, §4",
        doc: "Verifies a platform call credential for a tool that accepts one purpose: typ \
              ekl-platform-call+jwt, lifetime at most 60 s, jti required, purpose equal to the \
              expected one (PURPOSE_MISMATCH), aud checked when an audience is given. Returns the \
              verified token with {iss, iat, exp, jti, purpose}. Single use: consuming jti is the \
              caller's.",
        params: &[
            req("token", Str, "the platform call credential"),
            req("jwks", Jwks, "the network's key set"),
            req("issuer", Str, "the network's issuer"),
            req(
                "purpose",
                Str,
                "the purpose the tool accepts: enroll, validation, revalidation or deliver",
            ),
            opt("audience", Str, "the expected aud (default: not checked)"),
            opt("now", Now, "the time to check against (default: now)"),
        ],
        returns: Returns::Value("VerifiedPlatformCall"),
        run: |a| {
            let purpose = ekl_core::credential::Purpose::from_claim(a.str("purpose")?).ok_or_else(|| {
                invalid("purpose must be enroll, validation, revalidation or deliver")
            })?;
            crate::credential::platform_call(ekl_core::credential::verify_platform_call(
                a.str("token")?,
                &*a.jwks("jwks")?,
                a.str("issuer")?,
                a.opt_str("audience")?,
                purpose,
                a.int("now")?,
            )?)
        },
    },
    Op {
        name: "verify_revocation_feed",
        class: None,
        section: "§9.3.1",
        doc: "Verifies a revocation feed page or snapshot: typ ekl-revocation-feed+jwt, aud the \
              provider's agent id, iat required, exp checked when present. Returns the verified \
              token with {iss, iat, exp} (exp null when absent); the items are in claims.",
        params: &[
            req("token", Str, "the feed page or snapshot"),
            req("jwks", Jwks, "the network's key set"),
            req("issuer", Str, "the network's issuer"),
            req("provider_agent_id", Str, "the provider's agent id (the aud)"),
            opt("now", Now, "the time to check against (default: now)"),
        ],
        returns: Returns::Value("VerifiedRevocationFeed"),
        run: |a| {
            crate::credential::registered(&ekl_core::credential::verify_revocation_feed(
                a.str("token")?,
                &*a.jwks("jwks")?,
                a.str("issuer")?,
                a.str("provider_agent_id")?,
                a.int("now")?,
            )?)
        },
    },
    Op {
        name: "verify_access_token",
        class: None,
        section: "§15.1",
        doc: "Verifies an access token at a provider: typ ekl-access+jwt, aud \
              ekl:agent:{provider_id}, lifetime at most 900 s. Returns the verified token with \
              {iss, iat, exp}.",
        params: &[
            req("token", Str, "the access token"),
            req("jwks", Jwks, "the network's key set"),
            req("issuer", Str, "the network's issuer"),
            req("provider_id", Str, "the provider's agent id"),
            opt("now", Now, "the time to check against (default: now)"),
        ],
        returns: Returns::Value("VerifiedAccessToken"),
        run: |a| {
            crate::credential::registered(&ekl_core::credential::verify_access_token(
                a.str("token")?,
                &*a.jwks("jwks")?,
                a.str("issuer")?,
                a.str("provider_id")?,
                a.int("now")?,
            )?)
        },
    },
    Op {
        name: "verify_screening_rules",
        class: None,
        section: "§15.5",
        doc: "Verifies a screening rules token: {iss, iat, exp, rules_version, rules}.",
        params: &[
            req("token", Str, "the token"),
            req("jwks", Jwks, "the network's key set"),
            req("issuer", Str, "the network's issuer"),
            opt("now", Now, "the time to check against (default: now)"),
        ],
        returns: Returns::Value("ScreeningRulesToken"),
        run: |a| {
            let t = screening_rules::verify_screening_rules(
                a.str("token")?,
                &*a.jwks("jwks")?,
                a.str("issuer")?,
                a.int("now")?,
            )?;
            Ok(Out::Value(Value::Object(vec![
                ("iss".into(), Value::from(t.iss)),
                ("iat".into(), Value::from_i64(t.iat)?),
                ("exp".into(), Value::from_i64(t.exp)?),
                ("rules_version".into(), Value::from(t.rules_version)),
                ("rules".into(), t.rules),
            ])))
        },
    },
];
