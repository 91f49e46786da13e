//! Nothing the library signs fails its own verifier (issue 10.4; docs/decisions.md#issuing).
//!
//! For each issuing operation, on generated input:
//! * `receipt::sign_receipt` (MAC receipts, §9.5): a receipt it signs is accepted by
//!   `verify_receipt` with a key ring holding the secret, the call the receipt names and the
//!   commitments it carries; a receipt it refuses is refused on the same check by the verifier —
//!   the receipt tagged without checks (`auth_tag`) fails a verdict check of the name the signer's
//!   error gives, with the same detail, and the signer's code is `INVALID_TIMESTAMP` exactly for a
//!   string `issued_at` that is not RFC 3339 UTC, `INVALID_RECEIPT` otherwise;
//! * `receipt_sig::issue_receipt` (network-signed receipts, §9.5.1): an issued receipt is accepted
//!   by `receipt_sig::verify_receipt` for the call it names; refused fields, signed without the
//!   checks, make the verifier fail a check with the signer's message or refuse with its code;
//! * `jws::sign`: a token it signs is accepted by `jws::verify` at a clock inside the token's
//!   window with the issuer and audience the claims name; claims it refuses, signed without the
//!   checks, are refused by `jws::verify` with the same code;
//! * endpoint proofs and enrollment authorities verify under their verifiers.

use std::borrow::Cow;

use ekl_core::digest::{self, Commitment, Salt};
use ekl_core::jwk::{jwks_from_seed, Jwks, SigningKey};
use ekl_core::jws::{self, ClaimChecks, Typ};
use ekl_core::proof::{self, NetworkHolds, ProofKey, ProofVersion};
use ekl_core::receipt::{self, CallExpectation, KeyRing, CUSTOMER_FIELDS, STATUSES};
use ekl_core::receipt_sig::{self, CallContext};
use ekl_core::verdict::{Outcome, Verdict};
use ekl_core::{ErrorCode, Value};
use proptest::prelude::*;

fn s(text: impl Into<String>) -> Value<'static> {
    Value::String(Cow::Owned(text.into()))
}

fn n(x: f64) -> Value<'static> {
    Value::Number(x)
}

fn get<'v>(v: &'v Value<'static>, name: &str) -> Option<&'v Value<'static>> {
    v.get(name)
}

fn set(v: &mut Value<'static>, name: &'static str, new: Option<Value<'static>>) {
    let Value::Object(members) = v else {
        unreachable!("an object")
    };
    members.retain(|(k, _)| k != name);
    if let Some(new) = new {
        members.push((Cow::Borrowed(name), new));
    }
}

fn str_of(v: &Value<'static>, name: &str) -> String {
    get(v, name)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

// ---- generators -------------------------------------------------------------------------------

/// A valid RFC 3339 UTC timestamp from year `y0` on.
fn a_timestamp(y0: u32) -> impl Strategy<Value = String> {
    (
        y0..=9999u32,
        1u32..=12,
        1u32..=28,
        0u32..24,
        0u32..60,
        0u32..60,
        proptest::option::of("[0-9]{1,9}"),
    )
        .prop_map(|(y, mo, d, h, mi, se, frac)| {
            let frac = frac.map(|f| format!(".{f}")).unwrap_or_default();
            format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{se:02}{frac}Z")
        })
}

/// An id: never empty (an empty id is refused: docs/decisions/edges.md#empty).
fn an_id() -> impl Strategy<Value = String> {
    "\\PC{1,10}"
}

fn a_commitment() -> impl Strategy<Value = Commitment> {
    (
        "\\PC{0,8}",
        proptest::option::of(proptest::array::uniform32(any::<u8>())),
    )
        .prop_map(|(text, salt)| {
            let salt = salt.map(|b| {
                Salt::from_hex(&b.iter().map(|x| format!("{x:02x}")).collect::<String>())
                    .expect("64 hex")
            });
            digest::commitment(&s(text), salt.as_ref(), salt.map(|_| "salt-1"))
                .expect("a commitment")
        })
}

/// A complete, valid MAC receipt (without `auth_tag`) and the secret to sign it with.
fn a_mac_receipt() -> impl Strategy<Value = (Value<'static>, String)> {
    (
        (0usize..3, proptest::collection::vec(an_id(), 15)),
        (0u64..=1 << 53, 0u64..=1 << 53),
        (a_commitment(), a_commitment()),
        (
            0usize..STATUSES.len(),
            a_timestamp(0),
            "\\PC{1,8}",
            "\\PC{1,16}",
        ),
        proptest::collection::vec(("x_[a-z]{1,6}", "\\PC{0,6}"), 0..3),
    )
        .prop_map(
            |((kind, ids), (rel, dsc), (ci, co), (status, issued_at, key_id, secret), extra)| {
                let kind = ["customer", "trial", "validation"][kind];
                let mut m: Vec<(Cow<'static, str>, Value<'static>)> = vec![
                    ("receipt_version".into(), s("1.1")),
                    ("receipt_id".into(), s(ids[0].clone())),
                    ("execution_kind".into(), s(kind)),
                    ("requester_agent_id".into(), s(ids[1].clone())),
                    ("provider_agent_id".into(), s(ids[2].clone())),
                    ("collaboration_id".into(), s(ids[3].clone())),
                    ("connection_id".into(), s(ids[4].clone())),
                    ("execution_id".into(), s(ids[5].clone())),
                    ("capability_id".into(), s(ids[6].clone())),
                    ("capability_version".into(), s(ids[7].clone())),
                    ("rel_ver_at_admission".into(), n(rel as f64)),
                    ("dsc_ver".into(), n(dsc as f64)),
                    ("terms_hash".into(), s(ids[8].clone())),
                    ("input_commitment".into(), ci.to_value()),
                    ("output_commitment".into(), co.to_value()),
                    ("status".into(), s(STATUSES[status])),
                    ("issued_at".into(), s(issued_at)),
                    ("key_id".into(), s(key_id)),
                    ("auth_profile".into(), s("ekl-evidence-mac-1.1")),
                ];
                if kind == "customer" {
                    for (i, f) in CUSTOMER_FIELDS.into_iter().enumerate() {
                        m.push((f.into(), s(format!("{}-{i}", ids[9 + i]))));
                    }
                }
                let mut seen = std::collections::HashSet::new();
                for (k, v) in extra {
                    if seen.insert(k.clone()) {
                        m.push((k.into(), s(v)));
                    }
                }
                (Value::Object(m), secret)
            },
        )
}

/// A change to a receipt's form, in words for the failure message.
#[derive(Clone, Debug)]
enum Change {
    Set(&'static str, Option<Value<'static>>),
}

fn a_bad_value() -> impl Strategy<Value = Option<Value<'static>>> {
    prop_oneof![
        Just(None),
        Just(Some(Value::Null)),
        Just(Some(n(-1.0))),
        Just(Some(n(1.5))),
        Just(Some(n(9_007_199_254_740_994.0))),
        Just(Some(Value::Bool(true))),
        Just(Some(Value::Array(vec![]))),
        Just(Some(Value::Object(vec![]))),
        "\\PC{0,12}".prop_map(|t| Some(s(t))),
        Just(Some(s(""))),
    ]
}

fn a_change() -> impl Strategy<Value = Change> {
    let member = prop_oneof![
        Just("receipt_version"),
        Just("receipt_id"),
        Just("execution_kind"),
        Just("requester_agent_id"),
        Just("provider_agent_id"),
        Just("collaboration_id"),
        Just("connection_id"),
        Just("execution_id"),
        Just("capability_id"),
        Just("capability_version"),
        Just("rel_ver_at_admission"),
        Just("dsc_ver"),
        Just("terms_hash"),
        Just("input_commitment"),
        Just("output_commitment"),
        Just("status"),
        Just("issued_at"),
        Just("auth_profile"),
        Just("reservation_id"),
        Just("grant_id"),
        Just("admission_id"),
    ];
    let issued_at = prop_oneof![
        Just("2026-11-29T19:02:13+00:00".to_owned()),
        Just("yesterday".to_owned()),
        Just("2026-02-30T00:00:00Z".to_owned()),
        Just("2026-11-29 19:02:13Z".to_owned()),
        Just("2026-11-29T19:02:13.1234567890Z".to_owned()),
        Just("2026-11-29t19:02:13z".to_owned()),
        a_timestamp(0),
    ];
    let commitment = prop_oneof![
        Just(r#"{"alg":"sha-256","canon":"ekl-json-1","digest":"00"}"#),
        Just(
            r#"{"alg":"md5","canon":"ekl-json-1","digest":"0000000000000000000000000000000000000000000000000000000000000000"}"#
        ),
        Just(
            r#"{"alg":"sha-256","canon":"jcs","digest":"0000000000000000000000000000000000000000000000000000000000000000"}"#
        ),
        Just(
            r#"{"alg":"sha-256","canon":"ekl-json-1","digest":"0000000000000000000000000000000000000000000000000000000000000000","salt":"AB"}"#
        ),
        Just(
            r#"{"alg":"sha-256","canon":"ekl-json-1","digest":"0000000000000000000000000000000000000000000000000000000000000000","salt_id":7}"#
        ),
        Just(
            r#"{"alg":"sha-256","canon":"ekl-json-1","digest":"0000000000000000000000000000000000000000000000000000000000000000","salt_id":"s"}"#
        ),
    ];
    prop_oneof![
        4 => (member, a_bad_value()).prop_map(|(m, v)| Change::Set(m, v)),
        2 => issued_at.prop_map(|t| Change::Set("issued_at", Some(s(t)))),
        1 => prop_oneof![Just("bogus"), Just("Succeeded"), Just("done"), Just("accepted")]
            .prop_map(|t| Change::Set("status", Some(s(t)))),
        1 => prop_oneof![Just("customer"), Just("trial"), Just("validation"), Just("Customer")]
            .prop_map(|t| Change::Set("execution_kind", Some(s(t)))),
        1 => prop_oneof![Just("input_commitment"), Just("output_commitment")]
            .prop_flat_map(move |m| commitment.clone().prop_map(move |c| {
                let v = ekl_core::canonical::parse(c.as_bytes()).expect("json").into_owned();
                Change::Set(m, Some(v))
            })),
        1 => prop_oneof![Just("1.2"), Just("1.10"), Just(" 1.1")]
            .prop_map(|t| Change::Set("receipt_version", Some(s(t)))),
    ]
}

fn apply(receipt: &Value<'static>, changes: &[Change]) -> Value<'static> {
    let mut r = receipt.clone();
    for Change::Set(name, v) in changes {
        set(&mut r, name, v.clone());
    }
    r
}

/// The consumer's side of a receipt: a key ring with the secret under the receipt's key_id from
/// year 0 on, the call with every reference the receipt names, its commitments as its own.
fn consumer_of(
    receipt: &Value<'static>,
    secret: &str,
) -> (
    KeyRing,
    CallExpectation,
    Option<Commitment>,
    Option<Commitment>,
) {
    let mut ring = KeyRing::new();
    let key_id = str_of(receipt, "key_id");
    if !key_id.is_empty() {
        ring.add(&key_id, secret, "0000-01-01T00:00:00Z", None)
            .expect("a key");
    }
    let opt = |name: &str| {
        get(receipt, name)
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let call = CallExpectation {
        execution_id: str_of(receipt, "execution_id"),
        collaboration_id: str_of(receipt, "collaboration_id"),
        capability_id: str_of(receipt, "capability_id"),
        requester_agent_id: str_of(receipt, "requester_agent_id"),
        provider_agent_id: str_of(receipt, "provider_agent_id"),
        capability_version: opt("capability_version"),
        connection_id: opt("connection_id"),
        terms_hash: opt("terms_hash"),
        execution_kind: opt("execution_kind"),
        reservation_id: opt("reservation_id"),
        grant_id: opt("grant_id"),
        admission_id: opt("admission_id"),
        receipt_digest: None,
    };
    // The consumer's own commitments: the receipt's when they have the form, else a valid one.
    let own = |name: &str| {
        let fallback = digest::commitment(&s("x"), None, None).expect("commitment");
        Some(
            get(receipt, name)
                .and_then(|c| {
                    Some(Commitment {
                        alg: "sha-256",
                        canon: "ekl-json-1",
                        digest: c.get("digest")?.as_str()?.to_owned(),
                        salt_id: c.get("salt_id").and_then(Value::as_str).map(str::to_owned),
                        salt: c.get("salt").and_then(Value::as_str).map(str::to_owned),
                    })
                })
                .unwrap_or(fallback),
        )
    };
    (
        ring,
        call,
        own("input_commitment"),
        own("output_commitment"),
    )
}

fn tagged_without_checks(receipt: &Value<'static>, secret: &str) -> Option<Value<'static>> {
    let tag = receipt::auth_tag(receipt, secret).ok()?;
    let mut r = receipt.clone();
    set(&mut r, "auth_tag", Some(s(tag)));
    Some(r)
}

fn mac_verdict(signed: &Value<'static>, secret: &str) -> Verdict {
    let (ring, call, ci, co) = consumer_of(signed, secret);
    receipt::verify_receipt(signed, &ring, &call, ci.as_ref(), co.as_ref()).expect("a verdict")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Every receipt sign_receipt signs is accepted by verify_receipt.
    #[test]
    fn signed_mac_receipts_verify((receipt, secret) in a_mac_receipt()) {
        let signed = receipt::sign_receipt(&receipt, &secret).expect("a valid receipt signs");
        let v = mac_verdict(&signed, &secret);
        prop_assert!(v.accepted, "{:?}", v.checks);
    }

    /// A changed receipt is signed exactly when the verifier accepts it; when refused, the
    /// verifier fails the check the signer names, with the same detail.
    #[test]
    fn sign_receipt_refuses_what_verify_receipt_refuses(
        (receipt, secret) in a_mac_receipt(),
        changes in proptest::collection::vec(a_change(), 1..3),
    ) {
        let changed = apply(&receipt, &changes);
        let signed = receipt::sign_receipt(&changed, &secret);
        let Some(forced) = tagged_without_checks(&changed, &secret) else {
            // Not even a tag (no string key_id): the signer refuses too, as auth_tag does.
            prop_assert_eq!(signed.expect_err("refused").code(), ErrorCode::InvalidReceipt);
            return Ok(());
        };
        let verdict = mac_verdict(&forced, &secret);
        match signed {
            Ok(signed) => {
                prop_assert_eq!(&signed, &forced);
                prop_assert!(verdict.accepted, "{:?} {:?}", changes, verdict.checks);
            }
            Err(e) if e.code() == ErrorCode::IntegerOutOfRange => {
                // The receipt's text does not read back: the consumer's reader refuses it so.
                let text = ekl_core::canonical::canonicalize_value(&forced).expect("canonical");
                let read = ekl_core::canonical::parse(&text).expect_err("refused");
                prop_assert_eq!(read.code(), ErrorCode::IntegerOutOfRange);
            }
            Err(e) => {
                prop_assert!(!verdict.accepted, "{:?}: signer {} but verifier accepts", changes, e);
                let (name, detail) = e.message().split_once(": ").expect("check: detail");
                let check = verdict.check(name).expect("the verdict has the named check");
                prop_assert_ne!(check.outcome, Outcome::Pass, "{:?} {}", changes, e);
                prop_assert_eq!(check.detail.as_deref(), Some(detail));
                let bad_time = name == "issued_at"
                    && matches!(get(&changed, "issued_at"), Some(Value::String(_)));
                let want = if bad_time { ErrorCode::InvalidTimestamp } else { ErrorCode::InvalidReceipt };
                prop_assert_eq!(e.code(), want);
            }
        }
    }
}

// ---- network-signed receipts --------------------------------------------------------------------

const ISSUER: &str = "https://net.example";

/// The network's key set and key, made once (a key set keeps its verification tables).
fn network() -> &'static (Jwks, SigningKey) {
    static NETWORK: std::sync::OnceLock<(Jwks, SigningKey)> = std::sync::OnceLock::new();
    NETWORK.get_or_init(|| {
        let (jwks, mut keys) = jwks_from_seed(&[0x42; 32], &["net-1"]).expect("keys");
        (jwks, keys.remove(0))
    })
}

fn a_sig_fields() -> impl Strategy<Value = (Value<'static>, String)> {
    (
        proptest::collection::vec(an_id(), 5),
        a_timestamp(1970),
        "[a-z]{1,8}",
        proptest::collection::vec(("x_[a-z]{1,6}", "\\PC{0,6}"), 0..3),
    )
        .prop_map(|(ids, issued_at, audience, extra)| {
            let mut m: Vec<(Cow<'static, str>, Value<'static>)> = vec![
                ("receipt_version".into(), s("1.2")),
                ("execution_id".into(), s(ids[0].clone())),
                ("provider_agent_id".into(), s(ids[1].clone())),
                ("requester_agent_id".into(), s(ids[2].clone())),
                ("capability_id".into(), s(ids[3].clone())),
                ("input_fingerprint".into(), s(ids[4].clone())),
                ("status".into(), s("succeeded")),
                ("issued_at".into(), s(issued_at)),
            ];
            let mut seen = std::collections::HashSet::new();
            for (k, v) in extra {
                if seen.insert(k.clone()) {
                    m.push((k.into(), s(v)));
                }
            }
            (Value::Object(m), format!("ekl:agent:{audience}"))
        })
}

fn context<'a>(fields: &'a Value<'static>, audience: &'a str, iat: i64) -> CallContext<'a> {
    let text = |name: &str| get(fields, name).and_then(Value::as_str).unwrap_or("");
    CallContext {
        execution_id: text("execution_id"),
        provider_agent_id: text("provider_agent_id"),
        requester_agent_id: text("requester_agent_id"),
        capability_id: text("capability_id"),
        input_fingerprint: text("input_fingerprint"),
        own_agent_id: audience,
        network_issuer: ISSUER,
        sent_at: iat - 5,
        received_at: iat + 5,
    }
}

fn a_sig_change() -> impl Strategy<Value = Change> {
    let member = prop_oneof![
        Just("execution_id"),
        Just("provider_agent_id"),
        Just("requester_agent_id"),
        Just("capability_id"),
        Just("input_fingerprint"),
        Just("issued_at"),
    ];
    prop_oneof![
        3 => (member, a_bad_value()).prop_map(|(m, v)| Change::Set(m, v)),
        1 => prop_oneof![
            Just("2026-11-29T19:02:13+00:00"),
            Just("yesterday"),
            Just("1969-12-31T23:59:59Z"),
            Just("0001-01-01T00:00:00Z"),
        ]
        .prop_map(|t| Change::Set("issued_at", Some(s(t)))),
        1 => prop_oneof![Just("iss"), Just("aud"), Just("iat")]
            .prop_map(|m| Change::Set(m, Some(s("x")))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every receipt issue_receipt issues is accepted for the call it names.
    #[test]
    fn issued_receipts_verify((fields, audience) in a_sig_fields()) {
        let (jwks, key) = (&network().0, &network().1);
        let issued = receipt_sig::issue_receipt(&fields, key, ISSUER, &audience).expect("issues");
        let iat = receipt_sig::parse_rfc3339_utc(&str_of(&fields, "issued_at")).expect("time");
        let v = receipt_sig::verify_receipt(&issued, jwks, &context(&fields, &audience, iat))
            .expect("a verdict");
        prop_assert!(v.accepted, "{:?}", v.checks);
    }

    /// Fields issue_receipt refuses, signed without its checks, are refused by the verifier
    /// with the signer's code, or fail a verdict check with the signer's message.
    #[test]
    fn issue_receipt_refuses_what_the_verifier_refuses(
        (fields, audience) in a_sig_fields(),
        change in a_sig_change(),
    ) {
        let (jwks, key) = (&network().0, &network().1);
        let changed = apply(&fields, std::slice::from_ref(&change));
        let issued = receipt_sig::issue_receipt(&changed, key, ISSUER, &audience);
        // The token the network would have issued without the checks.
        let seconds = get(&changed, "issued_at")
            .and_then(Value::as_str)
            .and_then(|t| receipt_sig::parse_rfc3339_utc(t).ok());
        let iat = seconds.unwrap_or(1_780_000_000);
        let mut claims_text = String::from("{");
        let Value::Object(members) = &changed else { unreachable!() };
        for (k, v) in members {
            let v = ekl_core::canonical::canonicalize_value(v).expect("json");
            claims_text.push_str(&format!("{}:{},", serde_json::to_string(k.as_ref()).expect("key"),
                String::from_utf8(v).expect("utf-8")));
        }
        claims_text.push_str(&format!(r#""iss":"{ISSUER}","aud":"{audience}","iat":{iat}}}"#));
        let header = br#"{"alg":"ES256","kid":"net-1","typ":"ekl-receipt+jwt"}"#;
        let token = jws::sign_bytes(header, claims_text.as_bytes(), key);
        let verdict = receipt_sig::verify_receipt_jws(&token, jwks, &context(&changed, &audience, iat.max(0)));
        match (issued, verdict) {
            (Ok(issued), Ok(v)) => {
                prop_assert!(v.accepted, "{:?} {:?}", change, v.checks);
                let full = receipt_sig::verify_receipt(&issued, jwks, &context(&changed, &audience, iat))
                    .expect("a verdict");
                prop_assert!(full.accepted, "{:?}", full.checks);
            }
            (Ok(_), Err(e)) => prop_assert!(false, "{:?}: issued, but the verifier refuses: {}", change, e),
            (Err(e), Err(refusal)) => prop_assert_eq!(e.code(), refusal.code(), "{:?}", change),
            (Err(e), Ok(v)) => {
                prop_assert!(!v.accepted, "{:?}: refused with {} but accepted", change, e);
                prop_assert!(
                    v.checks.iter().any(|c| c.outcome != Outcome::Pass && c.detail.as_deref() == Some(e.message())),
                    "{:?}: {} not among {:?}", change, e, v.checks
                );
            }
        }
    }
}

// ---- JWS ----------------------------------------------------------------------------------------

const BASE: i64 = 1_780_000_000;

fn a_time() -> impl Strategy<Value = Option<Value<'static>>> {
    prop_oneof![
        3 => Just(None),
        6 => (-40_000i64..40_000).prop_map(|d| Some(n((BASE + d) as f64))),
        1 => prop_oneof![
            Just(Some(n(-1.0))),
            Just(Some(n(BASE as f64 + 0.5))),
            Just(Some(n(1e300))),
            Just(Some(n(9_007_199_254_740_994.0))),
            Just(Some(s("1780000000"))),
            Just(Some(Value::Null)),
        ],
    ]
}

fn an_iss() -> impl Strategy<Value = Option<Value<'static>>> {
    prop_oneof![
        2 => Just(None),
        4 => "[a-z:/.]{1,12}".prop_map(|t| Some(s(t))),
        1 => prop_oneof![Just(Some(s(""))), Just(Some(n(7.0))), Just(Some(Value::Null))],
    ]
}

fn an_aud() -> impl Strategy<Value = Option<Value<'static>>> {
    prop_oneof![
        2 => Just(None),
        4 => "[a-z:]{1,12}".prop_map(|t| Some(s(t))),
        1 => "[a-z:]{1,12}".prop_map(|t| Some(Value::Array(vec![s(t)]))),
        1 => prop_oneof![
            Just(Some(Value::Array(vec![]))),
            Just(Some(Value::Array(vec![s("a"), s("b")]))),
            Just(Some(Value::Array(vec![n(1.0)]))),
            Just(Some(n(1.0))),
            Just(Some(Value::Object(vec![]))),
        ],
    ]
}

fn a_typ() -> impl Strategy<Value = Typ> {
    (0usize..Typ::ALL.len()).prop_map(|i| Typ::ALL[i])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// sign accepts exactly the claims verify accepts at a clock inside the token's window with
    /// the issuer and audience the claims name; its refusal codes are verify's.
    #[test]
    fn sign_and_verify_agree_on_claims(
        typ in a_typ(), iat in a_time(), exp in a_time(), nbf in a_time(),
        iss in an_iss(), aud in an_aud(), extra in "\\PC{0,8}", array in 0u8..40,
    ) {
        let (jwks, key) = (&network().0, &network().1);
        let mut m: Vec<(Cow<'static, str>, Value<'static>)> = vec![("x".into(), s(extra))];
        for (name, v) in [("iat", iat), ("exp", exp), ("nbf", nbf), ("iss", iss), ("aud", aud)] {
            if let Some(v) = v {
                m.push((name.into(), v));
            }
        }
        let claims = if array == 0 { Value::Array(vec![Value::Object(m)]) } else { Value::Object(m) };
        let header = Value::Object(vec![
            ("alg".into(), s("ES256")),
            ("kid".into(), s("net-1")),
            ("typ".into(), s(typ.as_str())),
        ]);
        let unchecked = jws::sign_value_header(&header, &claims, key).expect("any claims");
        let signed = jws::sign(typ, &claims, key);
        let time = |name: &str| claims.get(name).and_then(Value::as_f64)
            .filter(|x| x.fract() == 0.0 && (0.0..=9e15).contains(x)).map(|x| x as i64);
        let now = time("iat").into_iter().chain(time("nbf")).max().unwrap_or(BASE);
        let text = |name: &str| claims.get(name).and_then(Value::as_str).filter(|t| !t.is_empty());
        let aud = match claims.get("aud") {
            Some(Value::Array(items)) => items.first().and_then(Value::as_str).unwrap_or("aud-x"),
            _ => text("aud").unwrap_or("aud-x"),
        };
        // Ask for the issuer and audience the claims hold (a wrong form fails as such).
        let checks = ClaimChecks {
            issuer: claims.get("iss").map(|_| text("iss").unwrap_or("iss-x")),
            audience: claims.get("aud").map(|_| aud),
            now,
            skew: 86_400,
            require_exp: false,
            require_iat: false,
            max_lifetime: None,
        };
        let verified = jws::verify(&unchecked, typ, jwks, &checks);
        match &signed {
            Ok(token) => {
                prop_assert_eq!(token, &unchecked);
                prop_assert!(verified.is_ok(), "{:?}", verified);
                // And at the default skew of 60 s, at the latest of iat and nbf, when that lies
                // before exp.
                if time("exp").is_none_or(|exp| now < exp) {
                    let strict = ClaimChecks { skew: 60, ..checks };
                    prop_assert!(jws::verify(token, typ, jwks, &strict).is_ok());
                }
            }
            Err(e) => {
                let refusal = verified.expect_err("the verifier refuses what the signer refuses");
                prop_assert_eq!(e.code(), refusal.code(), "{} / {}", e, refusal);
            }
        }
    }
}

// ---- endpoint proofs --------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn proofs_and_authorities_verify(
        agent_key in "\\PC{0,20}", challenge in "\\PC{0,20}", endpoint in "\\PC{0,30}",
        enrollment_id in "\\PC{0,10}", nonce in "\\PC{0,10}",
    ) {
        let pk = ProofKey::derive(&agent_key);
        let v2 = proof::challenge_proof_v2(&pk, &challenge, &endpoint);
        prop_assert_eq!(
            proof::verify_challenge_proof(&NetworkHolds::ProofKey(pk.clone()), &challenge, &endpoint, None, Some(&v2)),
            Ok(ProofVersion::V2)
        );
        let v1 = proof::challenge_proof_v1(&agent_key, &challenge, &endpoint);
        prop_assert_eq!(
            proof::verify_challenge_proof(&NetworkHolds::credential_hash_of(&agent_key), &challenge, &endpoint, Some(&v1), None),
            Ok(ProofVersion::V1)
        );
        let a1 = proof::enroll_authority_v1(&agent_key, &enrollment_id, &nonce, &endpoint);
        let a2 = proof::enroll_authority_v2(&pk, &enrollment_id, &nonce, &endpoint);
        prop_assert_eq!(
            proof::verify_enroll_authority(ProofVersion::V1, &agent_key, &enrollment_id, &nonce, &endpoint, Some(&a1), None),
            Ok(ProofVersion::V1)
        );
        prop_assert_eq!(
            proof::verify_enroll_authority(ProofVersion::V2, &agent_key, &enrollment_id, &nonce, &endpoint, Some(&a2), Some(2)),
            Ok(ProofVersion::V2)
        );
        let sig = proof::verify_signature(&agent_key, &challenge, &enrollment_id, &nonce);
        prop_assert!(proof::check_verify_signature(&agent_key, &challenge, &enrollment_id, &nonce, &sig));
    }
}

/// ekl-json-1 writes an integer-valued double beyond 2^53 (and below 10^21) as an integer literal
/// that it then refuses as input: nothing holding one is signed, since no verifier could read it
/// back (docs/decisions.md#issuing, "Finding").
#[test]
fn values_whose_text_does_not_read_back_are_not_signed() {
    let (_, key) = (&network().0, &network().1);
    let big = n(9_007_199_254_740_994.0);
    assert_eq!(
        ekl_core::canonical::canonicalize_value(&big).expect("written"),
        b"9007199254740994"
    );
    let claims = Value::Object(vec![("iat".into(), n(1.0)), ("x".into(), big.clone())]);
    let e = jws::sign(Typ::Access, &claims, key).expect_err("refused");
    assert_eq!(e.code(), ErrorCode::JwsMalformed);
    let object = Value::Object(vec![
        ("execution_id".into(), s("e")),
        ("x".into(), big.clone()),
    ]);
    let e = receipt_sig::sign_receipt_object(&object, key).expect_err("refused");
    assert_eq!(e.code(), ErrorCode::IntegerOutOfRange);
    let mut fields = object.clone();
    set(&mut fields, "issued_at", Some(s("2026-01-01T00:00:00Z")));
    let e = receipt_sig::issue_receipt(&fields, key, ISSUER, "aud").expect_err("refused");
    assert_eq!(e.code(), ErrorCode::JwsMalformed);
}
