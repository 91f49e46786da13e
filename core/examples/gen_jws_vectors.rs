//! Generates `vectors/receipt-jws.json`, `vectors/screening-rules-jws.json` and
//! `vectors/credentials-jws.json` from fixed seeds.
//!
//! `cargo run --release -p ekl-core --example gen_jws_vectors` rewrites the files; regenerating
//! changes no byte (ES256 signing uses RFC 6979 deterministic nonces), and
//! `core/tests/vectors_jws.rs` fails when the files differ from what this program writes.
#![allow(dead_code)] // also included by core/tests/vectors_jws.rs, which does not call `main`

use ekl_core::base64url;
use ekl_core::canonical;
use ekl_core::credential::{self, Credential, Purpose};
use ekl_core::jwk::{jwks_from_seed, Jwks, SigningKey};
use ekl_core::jws::{self, Typ};
use ekl_core::receipt_sig::{self, CallContext};
use ekl_core::screening_rules::verify_screening_rules;
use ekl_core::verdict::Verdict;
use ekl_core::Value;
use serde_json::{json, Value as Json};

/// The seed every vector key derives from (`SigningKey::from_seed`).
pub(crate) const SEED_HEX: &str =
    "656b6c2d636f7265206a777320766563746f72732073656564203230323621ff";
/// The key IDs of the network's key set.
pub(crate) const KIDS: [&str; 2] = ["net-2026-05", "net-2026-06"];
/// A seed for a key the network's set does not hold.
pub(crate) const STRANGER_SEED_HEX: &str =
    "0000000000000000000000000000000000000000000000000000000000000001";
/// The network's issuer.
pub(crate) const ISSUER: &str = "https://network.eukollab.example";
/// The moment of the receipt (2026-05-28T20:26:40Z).
pub(crate) const T0: i64 = 1_780_000_000;

fn seed(hex: &str) -> [u8; 32] {
    ekl_core::hex::decode_fixed::<32>(hex, ekl_core::ErrorCode::InvalidHex, "seed")
        .expect("seed hex")
}

fn network() -> (Jwks, Vec<SigningKey>) {
    jwks_from_seed(&seed(SEED_HEX), &KIDS).expect("keys")
}

fn to_value(j: &Json) -> Value<'static> {
    canonical::parse(j.to_string().as_bytes())
        .expect("json")
        .into_owned()
}

fn to_json(v: &Value<'_>) -> Json {
    serde_json::from_slice(&canonical::canonicalize_value(v).expect("canonical")).expect("json")
}

const N: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
];

/// (r, n − s) from a base64url r‖s signature: the other valid signature (ECDSA malleability).
pub(crate) fn high_s_twin(sig_b64: &str) -> String {
    let sig = base64url::decode(sig_b64).expect("signature");
    let mut out = sig.clone();
    let mut borrow = 0i16;
    for i in (0..32).rev() {
        let mut d = i16::from(N[i]) - i16::from(sig[32 + i]) - borrow;
        borrow = 0;
        if d < 0 {
            d += 256;
            borrow = 1;
        }
        out[32 + i] = d as u8;
    }
    base64url::encode(&out)
}

fn replace_signature(token: &str, sig_b64: &str) -> String {
    let (input, _) = token.rsplit_once('.').expect("three segments");
    format!("{input}.{sig_b64}")
}

fn receipt_fields() -> Json {
    json!({
        "receipt_version": "1.2",
        "receipt_id": "rcp_01J0000000000000000000000",
        "execution_kind": "customer",
        "requester_agent_id": "agt_consumer_7f3a",
        "provider_agent_id": "agt_provider_19c2",
        "collaboration_id": "col_5521",
        "connection_id": "con_8812",
        "execution_id": "exe_01J00000000000000000000A",
        "capability_id": "listing.search",
        "capability_version": "1.4.0",
        "reservation_id": "res_301",
        "grant_id": "grt_302",
        "admission_id": "adm_303",
        "input_fingerprint": "46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c",
        "output_fingerprint": "9f2b5e0c1d7a43a8b6e4f1c2d3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2",
        "status": "succeeded",
        "issued_at": "2026-05-28T20:26:40.250Z",
        "auth_profile": "ekl-evidence-sig-1.2"
    })
}

fn call_json() -> Json {
    json!({
        "execution_id": "exe_01J00000000000000000000A",
        "provider_agent_id": "agt_provider_19c2",
        "requester_agent_id": "agt_consumer_7f3a",
        "capability_id": "listing.search",
        "input_fingerprint": "46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c",
        "own_agent_id": "agt_consumer_7f3a",
        "network_issuer": ISSUER,
        "sent_at": T0 - 3,
        "received_at": T0 + 1
    })
}

/// The call context described by `j` (the vector's `call`, with a case's overrides applied).
pub(crate) fn call_from(j: &Json) -> CallContext<'_> {
    let s = |k: &str| j[k].as_str().expect("call string");
    CallContext {
        execution_id: s("execution_id"),
        provider_agent_id: s("provider_agent_id"),
        requester_agent_id: s("requester_agent_id"),
        capability_id: s("capability_id"),
        input_fingerprint: s("input_fingerprint"),
        own_agent_id: s("own_agent_id"),
        network_issuer: s("network_issuer"),
        sent_at: j["sent_at"].as_i64().expect("sent_at"),
        received_at: j["received_at"].as_i64().expect("received_at"),
    }
}

/// The verdict as vector JSON: `{accepted, checks: {name: outcome}, receipt_digest}`.
pub(crate) fn verdict_json(v: &Verdict) -> Json {
    let mut checks = serde_json::Map::new();
    for c in &v.checks {
        checks.insert(c.name.to_owned(), json!(c.outcome.as_str()));
    }
    json!({"accepted": v.accepted, "checks": checks, "receipt_digest": v.receipt_digest})
}

/// `claims` signed by `key` as `typ` without the signer's own claim checks: the vectors hold
/// tokens the verifiers must refuse. For claims `jws::sign` accepts it is the same token.
fn sign_unchecked(typ: Typ, claims: &Value<'_>, key: &SigningKey) -> String {
    let header = Value::Object(vec![
        ("alg".into(), Value::from("ES256")),
        ("kid".into(), Value::from(key.kid().to_owned())),
        ("typ".into(), Value::from(typ.as_str())),
    ]);
    let token = jws::sign_value_header(&header, claims, key).expect("sign");
    if let Ok(checked) = jws::sign(typ, claims, key) {
        assert_eq!(checked, token, "jws::sign gives the same token");
    }
    token
}

/// The receipt's claims with `edit` applied, signed by `key` as `typ`.
fn claims_token(
    key: &SigningKey,
    typ: Typ,
    edit: impl FnOnce(&mut serde_json::Map<String, Json>),
) -> String {
    let mut claims = receipt_fields().as_object().expect("object").clone();
    claims.insert("iss".into(), json!(ISSUER));
    claims.insert("aud".into(), json!("agt_consumer_7f3a"));
    claims.insert("iat".into(), json!(T0));
    edit(&mut claims);
    sign_unchecked(typ, &to_value(&Json::Object(claims)), key)
}

/// Merges a case's call overrides into the vector's call.
pub(crate) fn merged_call(base: &Json, overrides: Option<&Json>) -> Json {
    let mut call = base.clone();
    if let Some(Json::Object(o)) = overrides {
        for (k, v) in o {
            call[k] = v.clone();
        }
    }
    call
}

/// Runs one receipt case through the Rust API: the expected-result JSON it produces.
pub(crate) fn run_receipt_case(jwks: &Jwks, base_call: &Json, case: &Json) -> Json {
    let call = merged_call(base_call, case.get("call"));
    let ctx = call_from(&call);
    let result = if let Some(receipt) = case.get("receipt") {
        receipt_sig::verify_receipt(&to_value(receipt), jwks, &ctx)
    } else {
        let token = case["receipt_jws"].as_str().expect("receipt_jws");
        receipt_sig::verify_receipt_jws(token, jwks, &ctx)
    };
    match result {
        Ok(v) => verdict_json(&v),
        Err(e) => json!({"error": e.code().as_str()}),
    }
}

fn tok(token: String) -> Json {
    json!({ "receipt_jws": token })
}

fn obj(receipt: Json) -> Json {
    json!({ "receipt": receipt })
}

fn receipt_case(name: &str, description: &str, body: Json) -> Json {
    let mut case = body;
    case["name"] = json!(name);
    case["description"] = json!(description);
    case
}

/// The text of `vectors/receipt-jws.json`.
pub(crate) fn receipt_jws_vectors() -> String {
    let (jwks, keys) = network();
    let k = &keys[0];
    let (_, stranger) =
        jwks_from_seed(&seed(STRANGER_SEED_HEX), &["net-2026-07"]).expect("stranger");
    let receipt =
        receipt_sig::issue_receipt(&to_value(&receipt_fields()), k, ISSUER, "agt_consumer_7f3a")
            .expect("issue");
    let valid = receipt
        .get("receipt_jws")
        .and_then(Value::as_str)
        .expect("jws")
        .to_owned();
    let receipt_json = to_json(&receipt);
    let (_, valid_sig) = valid.rsplit_once('.').expect("segments");
    let segments: Vec<&str> = valid.split('.').collect();

    let mut cases = vec![
        receipt_case("valid", "a receipt_jws that passes every check", json!({"receipt_jws": valid})),
        receipt_case(
            "valid_high_s",
            "the same token with s replaced by n - s: ECDSA is malleable and JWS accepts high S; the digest differs, so receipts are deduplicated by execution_id, never by digest",
            json!({"receipt_jws": replace_signature(&valid, &high_s_twin(valid_sig))}),
        ),
        receipt_case(
            "signed_by_second_key",
            "signed by the set's second key (kid net-2026-06): any key of the set may sign",
            json!({"receipt_jws": claims_token(&keys[1], Typ::Receipt, |_| {})}),
        ),
        receipt_case(
            "wrong_typ",
            "the same claims signed with typ ekl-access+jwt: no other type passes as a receipt",
            json!({"receipt_jws": claims_token(k, Typ::Access, |_| {})}),
        ),
        receipt_case(
            "typ_with_application_prefix",
            "typ application/ekl-receipt+jwt is not ekl-receipt+jwt (compared exactly)",
            tok({
                let claims = claims_token(k, Typ::Receipt, |_| {});
                let payload = base64url::decode(claims.split('.').nth(1).expect("payload")).expect("b64");
                jws::sign_bytes(br#"{"alg":"ES256","kid":"net-2026-05","typ":"application/ekl-receipt+jwt"}"#, &payload, k)
            }),
        ),
        receipt_case(
            "alg_none",
            "alg none with an empty signature",
            json!({"receipt_jws": format!(
                "{}.{}.",
                base64url::encode(br#"{"alg":"none","kid":"net-2026-05","typ":"ekl-receipt+jwt"}"#),
                segments[1]
            )}),
        ),
        receipt_case(
            "wrong_kid",
            "kid names the set's other key; the signature is by net-2026-05",
            tok({
                let payload = base64url::decode(segments[1]).expect("payload");
                jws::sign_bytes(br#"{"alg":"ES256","kid":"net-2026-06","typ":"ekl-receipt+jwt"}"#, &payload, k)
            }),
        ),
        receipt_case(
            "unknown_kid",
            "signed by a key the set does not hold (kid net-2026-07): an error, so the caller fetches the key set again",
            json!({"receipt_jws": claims_token(&stranger[0], Typ::Receipt, |_| {})}),
        ),
        receipt_case(
            "tampered_payload",
            "the payload of another receipt (status failed_before_effect) under the valid token's signature",
            tok({
                let other = claims_token(k, Typ::Receipt, |c| { c.insert("status".into(), json!("failed_before_effect")); });
                let o: Vec<&str> = other.split('.').collect();
                format!("{}.{}.{}", o[0], o[1], segments[2])
            }),
        ),
        receipt_case(
            "iss_mismatch",
            "signed by the network's key but with another issuer",
            json!({"receipt_jws": claims_token(k, Typ::Receipt, |c| { c.insert("iss".into(), json!("https://other-network.example")); })}),
        ),
        receipt_case(
            "aud_mismatch",
            "addressed to another consumer",
            json!({"receipt_jws": claims_token(k, Typ::Receipt, |c| { c.insert("aud".into(), json!("agt_consumer_0000")); })}),
        ),
    ];
    for (field, value) in [
        ("execution_id", "exe_01J00000000000000000000B"),
        ("provider_agent_id", "agt_provider_0000"),
        ("requester_agent_id", "agt_consumer_0000"),
        ("capability_id", "listing.book"),
        (
            "input_fingerprint",
            "0000000000000000000000000000000000000000000000000000000000000000",
        ),
    ] {
        cases.push(receipt_case(
            &format!("{field}_mismatch"),
            &format!("the network signed a receipt whose {field} is not the call's"),
            json!({"receipt_jws": claims_token(k, Typ::Receipt, |c| { c.insert(field.into(), json!(value)); })}),
        ));
    }
    cases.extend([
        receipt_case(
            "iat_not_issued_at",
            "iat one second after issued_at (2026-05-28T20:26:40.250Z truncates to 1780000000)",
            json!({"receipt_jws": claims_token(k, Typ::Receipt, |c| { c.insert("iat".into(), json!(T0 + 1)); })}),
        ),
        receipt_case(
            "iat_before_window",
            "iat and issued_at 61 s before sending the call (sent_at - 61)",
            json!({"receipt_jws": claims_token(k, Typ::Receipt, |c| {
                c.insert("iat".into(), json!(T0 - 64));
                c.insert("issued_at".into(), json!("2026-05-28T20:25:36Z"));
            })}),
        ),
        receipt_case(
            "iat_at_window_start",
            "iat exactly sent_at - 60: inside (the window is inclusive)",
            json!({"receipt_jws": claims_token(k, Typ::Receipt, |c| {
                c.insert("iat".into(), json!(T0 - 63));
                c.insert("issued_at".into(), json!("2026-05-28T20:25:37Z"));
            })}),
        ),
        receipt_case(
            "iat_at_window_end",
            "iat exactly received_at + 60: inside",
            json!({"receipt_jws": claims_token(k, Typ::Receipt, |c| {
                c.insert("iat".into(), json!(T0 + 61));
                c.insert("issued_at".into(), json!("2026-05-28T20:27:41Z"));
            })}),
        ),
        receipt_case(
            "iat_after_window",
            "iat received_at + 61: outside",
            json!({"receipt_jws": claims_token(k, Typ::Receipt, |c| {
                c.insert("iat".into(), json!(T0 + 62));
                c.insert("issued_at".into(), json!("2026-05-28T20:27:42Z"));
            })}),
        ),
        receipt_case(
            "call_window_late",
            "the valid token checked by a consumer whose clock says it sent the call 2 minutes later",
            json!({"receipt_jws": valid, "call": {"sent_at": T0 + 120, "received_at": T0 + 125}}),
        ),
        receipt_case(
            "duplicate_claim",
            "a payload with aud twice: refused as unreadable (DUPLICATE_KEY)",
            tok({
                let payload = format!(
                    r#"{{"aud":"agt_consumer_7f3a","aud":"agt_consumer_0000","iss":"{ISSUER}","iat":{T0}}}"#
                );
                jws::sign_bytes(br#"{"alg":"ES256","kid":"net-2026-05","typ":"ekl-receipt+jwt"}"#, payload.as_bytes(), k)
            }),
        ),
        receipt_case(
            "padded_signature",
            "the valid token with '=' padding on the signature: not strict base64url",
            json!({"receipt_jws": format!("{valid}==")}),
        ),
        receipt_case(
            "signature_trailing_bits",
            "the valid token whose last signature character has non-zero unused bits (lenient decoders read the same bytes)",
            tok({
                let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
                let last = *valid.as_bytes().last().expect("last");
                let idx = alphabet.iter().position(|&c| c == last).expect("alphabet");
                format!("{}{}", &valid[..valid.len() - 1], alphabet[idx | 1] as char)
            }),
        ),
        receipt_case(
            "receipt_object_valid",
            "the whole receipt object: its own signature (ES256 over ekl-json-1 of the object without signature and receipt_jws, base64url r||s, key key_id), its receipt_jws, and the two agree",
            json!({"receipt": receipt_json.clone()}),
        ),
        receipt_case(
            "receipt_object_tampered",
            "the receipt object with status changed after signing: its signature fails and it no longer matches receipt_jws",
            obj({
                let mut r = receipt_json.clone();
                r["status"] = json!("failed_before_effect");
                r
            }),
        ),
        receipt_case(
            "receipt_object_signature_high_s",
            "the receipt object with its signature's high-S twin: valid (malleable)",
            obj({
                let mut r = receipt_json.clone();
                let sig = r["signature"].as_str().expect("signature").to_owned();
                r["signature"] = json!(high_s_twin(&sig));
                r
            }),
        ),
        receipt_case(
            "receipt_object_jws_of_other_receipt",
            "a validly signed object whose receipt_jws is the token of another receipt (execution_id differs)",
            obj({
                let mut r = receipt_json.clone();
                r["receipt_jws"] = json!(claims_token(k, Typ::Receipt, |c| { c.insert("execution_id".into(), json!("exe_01J00000000000000000000B")); }));
                r
            }),
        ),
    ]);
    let call = call_json();
    for case in &mut cases {
        let expected = run_receipt_case(&jwks, &call, case);
        case["expected"] = expected;
    }
    let doc = json!({
        "description": "EKP 1.2 network-signed receipts (profile ekl-evidence-sig-1.2, PROTOCOL §9.5.1). Each case is a receipt_jws (or a whole receipt object) checked against `call` (a case's `call` overrides members) with the key set `jwks`. expected is either {error: CODE} (the token cannot be read, or its kid is unknown: fetch the key set again) or a verdict {accepted, checks: {name: pass|fail|mismatch}, receipt_digest}. receipt_digest = SHA-256 hex of the compact JWS's ASCII bytes. Decisions (docs/decisions.md#jws): iat matches issued_at when it equals issued_at truncated to the second; the call window sent_at - 60 <= iat <= received_at + 60 is inclusive; input_fingerprint differences are 'mismatch' (a dispute), other differences 'fail'; the receipt object's signature is ES256 over ekl-json-1 of the object without `signature` and `receipt_jws` (key_id included), encoded as base64url without padding of the 64-byte r||s, made with the key whose kid is key_id; object_matches_jws: every object field but key_id, signature, receipt_jws equals the claim of that name and the claims hold nothing else but iss, aud, iat. High-S signatures are valid. Generated by `cargo run --release -p ekl-core --example gen_jws_vectors` (keys from SigningKey::from_seed(seed, kid)); regenerating changes no byte.",
        "profile": "ekl-evidence-sig-1.2",
        "key_seed_hex": SEED_HEX,
        "jwks": serde_json::from_str::<Json>(&jwks.to_json()).expect("jwks"),
        "call": call,
        "check_order": receipt_sig::JWS_CHECKS,
        "object_checks": ["object_signature", "<the JWS checks>", "object_matches_jws"],
        "cases": cases,
    });
    serde_json::to_string_pretty(&doc).expect("json") + "\n"
}

/// Runs one screening-rules case through the Rust API.
pub(crate) fn run_screening_case(jwks: &Jwks, issuer: &str, case: &Json) -> Json {
    let token = case["token"].as_str().expect("token");
    // A `now` with a fraction is floored (docs/decisions.md#fractional-now).
    let now = case["now"].as_f64().expect("now").floor() as i64;
    match verify_screening_rules(token, jwks, issuer, now) {
        Ok(r) => json!({
            "iss": r.iss, "iat": r.iat, "exp": r.exp, "rules_version": r.rules_version,
            "rules": to_json(&r.rules),
        }),
        Err(e) => json!({"error": e.code().as_str()}),
    }
}

/// The text of `vectors/screening-rules-jws.json`.
pub(crate) fn screening_rules_vectors() -> String {
    let (jwks, keys) = network();
    let k = &keys[0];
    let (_, stranger) =
        jwks_from_seed(&seed(STRANGER_SEED_HEX), &["net-2026-07"]).expect("stranger");
    let iat = T0;
    let exp = T0 + 86_400;
    let rules = json!([
        {"rule_id": "wpn-001", "category": "weapons", "phrases": ["build a pipe bomb", "3D-printed receiver"]},
        {"rule_id": "csam-001", "category": "child_safety", "phrases": ["ﬁxture phrase with ligature"]},
        {"rule_id": "lk-001", "category": "credential_leak", "phrases": ["BEGIN OPENSSH PRIVATE KEY"]}
    ]);
    let claims = |edit: &dyn Fn(&mut serde_json::Map<String, Json>)| {
        let mut c = json!({"iss": ISSUER, "iat": iat, "exp": exp, "rules_version": "2026-05-28.1", "rules": rules.clone()})
            .as_object()
            .expect("object")
            .clone();
        edit(&mut c);
        to_value(&Json::Object(c))
    };
    let sign = |typ: Typ, edit: &dyn Fn(&mut serde_json::Map<String, Json>), key: &SigningKey| {
        sign_unchecked(typ, &claims(edit), key)
    };
    let valid = sign(Typ::ScreeningRules, &|_| {}, k);
    let segs: Vec<String> = valid.split('.').map(str::to_owned).collect();
    let payload = base64url::decode(&segs[1]).expect("payload");
    let tampered = {
        let other = sign(
            Typ::ScreeningRules,
            &|c| {
                c.insert("rules_version".into(), json!("2026-01-01.0"));
            },
            k,
        );
        let o: Vec<&str> = other.split('.').collect();
        format!("{}.{}.{}", o[0], o[1], segs[2])
    };
    let cases = vec![
        json!({"name": "valid", "description": "fresh rules", "token": valid, "now": iat + 10}),
        json!({"name": "valid_last_second", "description": "now = exp - 1: still usable", "token": valid, "now": exp - 1}),
        json!({"name": "expired_at_exp", "description": "now = exp: never used after exp, no skew (refused from exp on, RFC 7519)", "token": valid, "now": exp}),
        json!({"name": "expired_long_ago", "description": "a day after exp", "token": valid, "now": exp + 86_400}),
        json!({"name": "iat_in_future_within_skew", "description": "now = iat - 60: accepted (60 s skew on iat)", "token": valid, "now": iat - 60}),
        json!({"name": "iat_in_future", "description": "now = iat - 61", "token": valid, "now": iat - 61}),
        json!({"name": "now_fraction_before_exp", "description": "now = exp - 0.25: a fractional now is floored (exp - 1), so still usable, as the real time is before exp (rounding would refuse it)", "token": valid, "now": exp as f64 - 0.25}),
        json!({"name": "now_fraction_after_exp", "description": "now = exp + 0.5: floored to exp, refused", "token": valid, "now": exp as f64 + 0.5}),
        json!({"name": "now_fraction_iat_in_future", "description": "now = iat - 60.5: floored to iat - 61, so iat lies more than 60 s ahead, as it does in real time (rounding up would accept it)", "token": valid, "now": iat as f64 - 60.5}),
        json!({"name": "now_fraction_iat_within_skew", "description": "now = iat - 59.5: floored to iat - 60, accepted", "token": valid, "now": iat as f64 - 59.5}),
        json!({"name": "valid_high_s", "description": "the high-S twin of the valid token's signature", "token": replace_signature(&valid, &high_s_twin(&segs[2])), "now": iat}),
        json!({"name": "wrong_typ", "description": "the same claims as an ekl-receipt+jwt", "token": sign(Typ::Receipt, &|_| {}, k), "now": iat}),
        json!({"name": "wrong_iss", "description": "another issuer", "token": sign(Typ::ScreeningRules, &|c| { c.insert("iss".into(), json!("https://other-network.example")); }, k), "now": iat}),
        json!({"name": "unknown_kid", "description": "a key the set does not hold", "token": sign(Typ::ScreeningRules, &|_| {}, &stranger[0]), "now": iat}),
        json!({"name": "tampered_payload", "description": "rules_version changed after signing", "token": tampered, "now": iat}),
        json!({"name": "alg_none", "description": "alg none, empty signature", "token": format!("{}.{}.", base64url::encode(br#"{"alg":"none","kid":"net-2026-05","typ":"ekl-screening-rules+jwt"}"#), segs[1]), "now": iat}),
        json!({"name": "alg_es384", "description": "alg ES384", "token": jws::sign_bytes(br#"{"alg":"ES384","kid":"net-2026-05","typ":"ekl-screening-rules+jwt"}"#, &payload, k), "now": iat}),
        json!({"name": "crit", "description": "a crit header", "token": jws::sign_bytes(br#"{"alg":"ES256","crit":["exp"],"kid":"net-2026-05","typ":"ekl-screening-rules+jwt"}"#, &payload, k), "now": iat}),
        json!({"name": "kid_missing", "description": "no kid", "token": jws::sign_bytes(br#"{"alg":"ES256","typ":"ekl-screening-rules+jwt"}"#, &payload, k), "now": iat}),
        json!({"name": "exp_missing", "description": "no exp", "token": sign(Typ::ScreeningRules, &|c| { c.remove("exp"); }, k), "now": iat}),
        json!({"name": "exp_fraction", "description": "exp with a fraction", "token": sign(Typ::ScreeningRules, &|c| { c.insert("exp".into(), json!(1_780_086_400.5)); }, k), "now": iat}),
        json!({"name": "rules_not_array", "description": "rules is an object", "token": sign(Typ::ScreeningRules, &|c| { c.insert("rules".into(), json!({})); }, k), "now": iat}),
        json!({"name": "rule_without_phrases", "description": "a rule without phrases", "token": sign(Typ::ScreeningRules, &|c| { c.insert("rules".into(), json!([{"rule_id": "r", "category": "c"}])); }, k), "now": iat}),
        json!({"name": "rules_version_local", "description": "rules_version local is reserved for the local leak patterns", "token": sign(Typ::ScreeningRules, &|c| { c.insert("rules_version".into(), json!("local")); }, k), "now": iat}),
        json!({"name": "duplicate_rule_id", "description": "two rules with the same rule_id", "token": sign(Typ::ScreeningRules, &|c| { c.insert("rules".into(), json!([{"rule_id": "r", "category": "c", "phrases": ["a"]}, {"rule_id": "r", "category": "d", "phrases": ["b"]}])); }, k), "now": iat}),
        json!({"name": "empty_phrases", "description": "a rule whose phrases array is empty", "token": sign(Typ::ScreeningRules, &|c| { c.insert("rules".into(), json!([{"rule_id": "r", "category": "c", "phrases": []}])); }, k), "now": iat}),
        json!({"name": "empty_phrase", "description": "a rule with an empty phrase (it would match everything)", "token": sign(Typ::ScreeningRules, &|c| { c.insert("rules".into(), json!([{"rule_id": "r", "category": "c", "phrases": ["a", ""]}])); }, k), "now": iat}),
        json!({"name": "rules_version_missing", "description": "no rules_version", "token": sign(Typ::ScreeningRules, &|c| { c.remove("rules_version"); }, k), "now": iat}),
    ];
    let cases: Vec<Json> = cases
        .into_iter()
        .map(|mut c| {
            c["expected"] = run_screening_case(&jwks, ISSUER, &c);
            c
        })
        .collect();
    let doc = json!({
        "description": "EKP 1.2 screening rules token (PROTOCOL §15.5): a compact JWS, alg ES256, typ ekl-screening-rules+jwt, kid from `jwks`, claims iss, iat, exp, rules_version, rules[{rule_id, category, phrases}]. Accepted only when alg, typ, kid, the signature and iss (= `network_issuer`) check; never used after exp, with no skew: refused from now == exp on (TOKEN_EXPIRED); iat may lie at most 60 s after now. expected is either the accepted token's {iss, iat, exp, rules_version, rules} or {error: CODE}. Check order: alg, crit, typ, kid, signature, payload, iss, time claims, exp without skew, then the rule set (screening::ScreeningRules::from_claims: rules_version and rules present, rules_version a non-empty string other than 'local', rules an array of objects with unique non-empty rule_id, non-empty category, a non-empty array of non-empty phrases). Generated by `cargo run --release -p ekl-core --example gen_jws_vectors`.",
        "key_seed_hex": SEED_HEX,
        "network_issuer": ISSUER,
        "jwks": serde_json::from_str::<Json>(&jwks.to_json()).expect("jwks"),
        "cases": cases,
    });
    serde_json::to_string_pretty(&doc).expect("json") + "\n"
}

/// The provider's token endpoint (the `aud` of a relationship assertion).
pub(crate) const TOKEN_ENDPOINT: &str = "https://provider.example/oauth/token";
/// The provider's agent ID (the `aud` of a feed; `ekl:agent:{id}` for an access token).
pub(crate) const PROVIDER: &str = "agt_provider_19c2";

/// The verifier of each operation of `vectors/credentials-jws.json` as the vectors state it
/// (`check_jws.mjs` holds its own copy of this table and compares).
fn credential_rules() -> Json {
    json!({
        "verify_relationship_assertion": {
            "section": "§9.1, §9.2", "typ": "ekl-relationship+jwt", "aud": "args.token_endpoint",
            "max_lifetime": 120, "exp": "required",
            "required": ["iss", "aud", "iat", "exp", "sub", "jti", "org", "auth_profile", "con", "rel_ver", "dsc_ver", "caps"],
            "result": ["iss", "iat", "exp", "sub", "aud", "jti", "org", "con", "rel_ver", "dsc_ver", "caps"]
        },
        "verify_platform_call": {
            "section": "§3, §4", "typ": "ekl-platform-call+jwt", "aud": "args.audience, when given",
            "max_lifetime": 60, "exp": "required",
            "required": ["iss", "iat", "exp", "jti", "purpose"],
            "result": ["iss", "iat", "exp", "jti", "purpose"]
        },
        "verify_revocation_feed": {
            "section": "§9.3.1", "typ": "ekl-revocation-feed+jwt", "aud": "args.provider_agent_id",
            "max_lifetime": null, "exp": "checked when present",
            "required": ["iss", "aud", "iat"],
            "result": ["iss", "iat", "exp"]
        },
        "verify_access_token": {
            "section": "§15.1", "typ": "ekl-access+jwt", "aud": "ekl:agent:{args.provider_id}",
            "max_lifetime": 900, "exp": "required",
            "required": ["iss", "aud", "iat", "exp"],
            "result": ["iss", "iat", "exp"]
        }
    })
}

/// The result of an accepted credential as the registry operation gives it: the verified token
/// (`claims header kid token_sha256 typ`), `iss iat exp`, and `extra`.
fn credential_json(c: &Credential, extra: Json) -> Json {
    let v = &c.verified;
    let mut out = json!({
        "claims": to_json(&v.claims),
        "header": to_json(&v.header),
        "kid": v.kid,
        "token_sha256": v.token_sha256,
        "typ": v.typ.as_str(),
        "iss": c.iss,
        "iat": c.iat,
        "exp": c.exp,
    });
    if let (Some(o), Json::Object(e)) = (out.as_object_mut(), extra) {
        o.extend(e);
    }
    out
}

/// Runs one case of `vectors/credentials-jws.json` through the Rust API.
pub(crate) fn run_credential_case(jwks: &Jwks, issuer: &str, case: &Json) -> Json {
    let token = case["token"].as_str().expect("token");
    let now = case["now"].as_i64().expect("now");
    let args = &case["args"];
    let arg = |k: &str| args[k].as_str().expect("argument");
    let result = match case["op"].as_str().expect("op") {
        "verify_relationship_assertion" => credential::verify_relationship_assertion(
            token,
            jwks,
            issuer,
            arg("token_endpoint"),
            now,
        )
        .map(|a| {
            let caps: Vec<Json> = a
                .caps
                .iter()
                .map(|c| json!({"id": c.id, "ver": to_json(&c.ver)}))
                .collect();
            credential_json(
                &a.credential,
                json!({
                    "sub": a.sub, "aud": a.aud, "jti": a.jti, "org": a.org, "con": a.con,
                    "rel_ver": to_json(&a.rel_ver), "dsc_ver": to_json(&a.dsc_ver), "caps": caps,
                }),
            )
        }),
        "verify_platform_call" => match Purpose::from_claim(arg("purpose")) {
            None => Err(ekl_core::Error::new(
                ekl_core::ErrorCode::InvalidArgument,
                "purpose must be enroll, validation, revalidation or deliver",
            )),
            Some(purpose) => credential::verify_platform_call(
                token,
                jwks,
                issuer,
                args.get("audience").and_then(Json::as_str),
                purpose,
                now,
            )
            .map(|p| {
                credential_json(
                    &p.credential,
                    json!({"jti": p.jti, "purpose": p.purpose.as_str()}),
                )
            }),
        },
        "verify_revocation_feed" => {
            credential::verify_revocation_feed(token, jwks, issuer, arg("provider_agent_id"), now)
                .map(|c| credential_json(&c, json!({})))
        }
        "verify_access_token" => {
            credential::verify_access_token(token, jwks, issuer, arg("provider_id"), now)
                .map(|c| credential_json(&c, json!({})))
        }
        other => panic!("no such operation {other}"),
    };
    match result {
        Ok(j) => j,
        Err(e) => json!({"error": e.code().as_str()}),
    }
}

type Edit<'a> = &'a dyn Fn(&mut serde_json::Map<String, Json>);

/// The text of `vectors/credentials-jws.json`.
pub(crate) fn credentials_vectors() -> String {
    let (jwks, keys) = network();
    let k = &keys[0];
    let (_, stranger) =
        jwks_from_seed(&seed(STRANGER_SEED_HEX), &["net-2026-07"]).expect("stranger");
    let now = T0 + 10;
    let agent_aud = credential::agent_audience(PROVIDER);

    let assertion = json!({
        "iss": ISSUER, "sub": "agt_consumer_7f3a", "aud": TOKEN_ENDPOINT, "iat": T0, "exp": T0 + 60,
        "jti": "asr_01J0000000000000000000001", "org": "org_4411", "auth_profile": "ekl-auth-1.1",
        "con": "con_8812", "rel_ver": 7, "dsc_ver": 3,
        "caps": [{"id": "listing.search", "ver": 1}, {"id": "listing.book", "ver": 2}]
    });
    let platform = json!({
        "iss": ISSUER, "aud": PROVIDER, "iat": T0, "exp": T0 + 30,
        "jti": "pcc_01J0000000000000000000001", "purpose": "deliver"
    });
    let page = json!({
        "iss": ISSUER, "aud": PROVIDER, "iat": T0, "after": "c_100", "next": "c_101",
        "items": [{"event_id": "evt_101", "seq": 101, "connection_id": "con_8812", "change": "revoked",
                   "rel_ver": 8, "effective_at": "2026-05-28T20:26:00Z"}]
    });
    let snapshot = json!({
        "iss": ISSUER, "aud": PROVIDER, "iat": T0, "cursor": "c_101", "provider_eligibility_epoch": 4,
        "connections": [{"connection_id": "con_8812", "state": "revoked", "rel_ver": 8,
                         "peer_agent_id": "agt_consumer_7f3a", "peer_eligibility_epoch": 2}]
    });
    let access = json!({
        "iss": ISSUER, "sub": "agt_consumer_7f3a", "aud": agent_aud, "iat": T0, "exp": T0 + 600,
        "con": "con_8812", "scope": "cap:listing.search:1"
    });
    let sign = |typ: Typ, base: &Json, edit: Edit<'_>, key: &SigningKey| {
        let mut c = base.as_object().expect("object").clone();
        edit(&mut c);
        sign_unchecked(typ, &to_value(&Json::Object(c)), key)
    };
    // The payload of a token with `edit` applied under the signature of the unedited one.
    let tampered = |typ: Typ, base: &Json, edit: Edit<'_>| {
        let valid = sign(typ, base, &|_| {}, k);
        let other = sign(typ, base, edit, k);
        let o: Vec<&str> = other.split('.').collect();
        let (_, sig) = valid.rsplit_once('.').expect("segments");
        format!("{}.{}.{sig}", o[0], o[1])
    };
    let set = |name: &'static str, v: Json| {
        move |c: &mut serde_json::Map<String, Json>| {
            c.insert(name.into(), v.clone());
        }
    };
    let drop = |name: &'static str| {
        move |c: &mut serde_json::Map<String, Json>| {
            c.remove(name);
        }
    };
    let none = |_: &mut serde_json::Map<String, Json>| {};

    let mut cases: Vec<Json> = Vec::new();
    let mut add = |op: &str, name: &str, description: &str, token: String, args: Json, at: i64| {
        cases.push(json!({
            "op": op, "name": name, "description": description, "token": token, "args": args, "now": at,
        }));
    };

    // --- relationship assertion (§9.1, §9.2) ---
    let ra = "verify_relationship_assertion";
    let ra_args = json!({"token_endpoint": TOKEN_ENDPOINT});
    let ra_tok = |edit: Edit<'_>| sign(Typ::Relationship, &assertion, edit, k);
    add(
        ra,
        "ra_valid",
        "an assertion with every required claim, 60 s lifetime",
        ra_tok(&none),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_signed_by_second_key",
        "signed by the set's second key (kid net-2026-06)",
        sign(Typ::Relationship, &assertion, &none, &keys[1]),
        ra_args.clone(),
        now,
    );
    add(ra, "ra_aud_array_of_one", "aud as an array holding exactly the token endpoint: accepted, the result's aud is the string", ra_tok(&set("aud", json!([TOKEN_ENDPOINT]))), ra_args.clone(), now);
    add(
        ra,
        "ra_string_versions",
        "rel_ver, dsc_ver and caps[].ver as non-empty strings",
        ra_tok(&|c| {
            c.insert("rel_ver".into(), json!("7"));
            c.insert("dsc_ver".into(), json!("2026-05-01"));
            c.insert(
                "caps".into(),
                json!([{"id": "listing.search", "ver": "1.4"}]),
            );
        }),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_lifetime_at_bound",
        "exp - iat = 120 s: at the bound, accepted",
        ra_tok(&set("exp", json!(T0 + 120))),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_lifetime_over_bound",
        "exp - iat = 121 s: one second over the bound",
        ra_tok(&set("exp", json!(T0 + 121))),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_last_second",
        "now = exp + 59: still inside the 60 s skew",
        ra_tok(&none),
        ra_args.clone(),
        T0 + 60 + 59,
    );
    add(
        ra,
        "ra_expired",
        "now = exp + 60: expired",
        ra_tok(&none),
        ra_args.clone(),
        T0 + 60 + 60,
    );
    add(
        ra,
        "ra_iat_within_skew",
        "now = iat - 60: accepted",
        ra_tok(&none),
        ra_args.clone(),
        T0 - 60,
    );
    add(
        ra,
        "ra_not_yet_valid",
        "now = iat - 61: issued in the future",
        ra_tok(&none),
        ra_args.clone(),
        T0 - 61,
    );
    add(
        ra,
        "ra_nbf_in_future",
        "nbf = now + 61",
        ra_tok(&set("nbf", json!(now + 61))),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_wrong_typ",
        "the same claims signed as ekl-access+jwt",
        sign(Typ::Access, &assertion, &none, k),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_aud_agent_form",
        "aud ekl:agent:{provider} (the access token's form), not the token endpoint",
        ra_tok(&set("aud", json!(agent_aud))),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_aud_resource",
        "aud the provider's MCP endpoint (the exchange's resource), not its token endpoint",
        ra_tok(&set("aud", json!("https://provider.example/mcp"))),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_aud_two",
        "aud an array of the token endpoint and another: valid at two providers, refused",
        ra_tok(&set(
            "aud",
            json!([TOKEN_ENDPOINT, "https://other.example/oauth/token"]),
        )),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_aud_missing",
        "no aud",
        ra_tok(&drop("aud")),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_wrong_iss",
        "another issuer",
        ra_tok(&set("iss", json!("https://other-network.example"))),
        ra_args.clone(),
        now,
    );
    for claim in [
        "iat",
        "exp",
        "sub",
        "jti",
        "org",
        "auth_profile",
        "con",
        "rel_ver",
        "dsc_ver",
        "caps",
    ] {
        add(
            ra,
            &format!("ra_{claim}_missing"),
            &format!("no {claim}"),
            ra_tok(&drop(claim)),
            ra_args.clone(),
            now,
        );
    }
    add(
        ra,
        "ra_auth_profile_other",
        "auth_profile ekl-auth-1.0: refused rather than downgraded",
        ra_tok(&set("auth_profile", json!("ekl-auth-1.0"))),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_jti_empty",
        "jti the empty string",
        ra_tok(&set("jti", json!(""))),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_sub_not_string",
        "sub a number",
        ra_tok(&set("sub", json!(7))),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_rel_ver_fraction",
        "rel_ver 7.5",
        ra_tok(&set("rel_ver", json!(7.5))),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_dsc_ver_negative",
        "dsc_ver -1",
        ra_tok(&set("dsc_ver", json!(-1))),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_caps_empty",
        "caps []",
        ra_tok(&set("caps", json!([]))),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_caps_not_array",
        "caps an object",
        ra_tok(&set("caps", json!({"id": "listing.search", "ver": 1}))),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_cap_id_empty",
        "a capability with an empty id",
        ra_tok(&set("caps", json!([{"id": "", "ver": 1}]))),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_cap_ver_missing",
        "a capability without ver",
        ra_tok(&set("caps", json!([{"id": "listing.search"}]))),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_unknown_kid",
        "signed by a key the set does not hold: fetch the key set again",
        sign(Typ::Relationship, &assertion, &none, &stranger[0]),
        ra_args.clone(),
        now,
    );
    add(
        ra,
        "ra_bad_signature",
        "the payload of another assertion (con changed) under the valid signature",
        tampered(
            Typ::Relationship,
            &assertion,
            &set("con", json!("con_0000")),
        ),
        ra_args.clone(),
        now,
    );

    // --- platform call credential (§3, §4) ---
    let pc = "verify_platform_call";
    let pc_args = |purpose: &str| json!({"purpose": purpose});
    let pc_tok = |edit: Edit<'_>| sign(Typ::PlatformCall, &platform, edit, k);
    for purpose in Purpose::ALL {
        let p = purpose.as_str();
        add(
            pc,
            &format!("pc_valid_{p}"),
            &format!("purpose {p}, expected {p}; aud not checked (no audience given)"),
            pc_tok(&set("purpose", json!(p))),
            pc_args(p),
            now,
        );
    }
    add(
        pc,
        "pc_audience_checked",
        "the audience given equals aud",
        pc_tok(&none),
        json!({"purpose": "deliver", "audience": PROVIDER}),
        now,
    );
    add(
        pc,
        "pc_audience_mismatch",
        "the audience given differs from aud",
        pc_tok(&none),
        json!({"purpose": "deliver", "audience": "agt_provider_0000"}),
        now,
    );
    add(
        pc,
        "pc_no_aud_unchecked",
        "no aud and no audience given: accepted",
        pc_tok(&drop("aud")),
        pc_args("deliver"),
        now,
    );
    add(
        pc,
        "pc_no_aud_audience_given",
        "no aud but an audience given",
        pc_tok(&drop("aud")),
        json!({"purpose": "deliver", "audience": PROVIDER}),
        now,
    );
    add(
        pc,
        "pc_lifetime_at_bound",
        "exp - iat = 60 s: at the bound, accepted",
        pc_tok(&set("exp", json!(T0 + 60))),
        pc_args("deliver"),
        now,
    );
    add(
        pc,
        "pc_lifetime_over_bound",
        "exp - iat = 61 s: one second over the bound",
        pc_tok(&set("exp", json!(T0 + 61))),
        pc_args("deliver"),
        now,
    );
    add(
        pc,
        "pc_last_second",
        "now = exp + 59",
        pc_tok(&none),
        pc_args("deliver"),
        T0 + 30 + 59,
    );
    add(
        pc,
        "pc_expired",
        "now = exp + 60",
        pc_tok(&none),
        pc_args("deliver"),
        T0 + 30 + 60,
    );
    add(
        pc,
        "pc_not_yet_valid",
        "now = iat - 61",
        pc_tok(&none),
        pc_args("deliver"),
        T0 - 61,
    );
    add(
        pc,
        "pc_purpose_mismatch",
        "a deliver credential at a tool that accepts enroll only",
        pc_tok(&none),
        pc_args("enroll"),
        now,
    );
    add(
        pc,
        "pc_enroll_at_deliver",
        "an enroll credential at ekl_deliver, which accepts no other purpose",
        pc_tok(&set("purpose", json!("enroll"))),
        pc_args("deliver"),
        now,
    );
    add(
        pc,
        "pc_purpose_unknown",
        "purpose admin: not one of the four",
        pc_tok(&set("purpose", json!("admin"))),
        pc_args("deliver"),
        now,
    );
    add(
        pc,
        "pc_purpose_case",
        "purpose Deliver: compared exactly",
        pc_tok(&set("purpose", json!("Deliver"))),
        pc_args("deliver"),
        now,
    );
    add(
        pc,
        "pc_purpose_missing",
        "no purpose",
        pc_tok(&drop("purpose")),
        pc_args("deliver"),
        now,
    );
    add(
        pc,
        "pc_jti_missing",
        "no jti: single use needs an identifier",
        pc_tok(&drop("jti")),
        pc_args("deliver"),
        now,
    );
    add(
        pc,
        "pc_exp_missing",
        "no exp",
        pc_tok(&drop("exp")),
        pc_args("deliver"),
        now,
    );
    add(
        pc,
        "pc_iat_missing",
        "no iat",
        pc_tok(&drop("iat")),
        pc_args("deliver"),
        now,
    );
    add(
        pc,
        "pc_wrong_typ",
        "the same claims signed as ekl-relationship+jwt",
        sign(Typ::Relationship, &platform, &none, k),
        pc_args("deliver"),
        now,
    );
    add(
        pc,
        "pc_wrong_iss",
        "another issuer",
        pc_tok(&set("iss", json!("https://other-network.example"))),
        pc_args("deliver"),
        now,
    );
    add(
        pc,
        "pc_unknown_kid",
        "a key the set does not hold",
        sign(Typ::PlatformCall, &platform, &none, &stranger[0]),
        pc_args("deliver"),
        now,
    );
    add(
        pc,
        "pc_bad_signature",
        "the payload of another credential (purpose enroll) under the valid signature",
        tampered(
            Typ::PlatformCall,
            &platform,
            &set("purpose", json!("enroll")),
        ),
        pc_args("deliver"),
        now,
    );
    add(
        pc,
        "pc_purpose_argument_invalid",
        "the caller's expected purpose is not one of the four (Deliver): the caller's mistake",
        pc_tok(&none),
        pc_args("Deliver"),
        now,
    );

    // --- revocation feed page and snapshot (§9.3.1) ---
    let rf = "verify_revocation_feed";
    let rf_args = json!({"provider_agent_id": PROVIDER});
    let rf_tok = |edit: Edit<'_>| sign(Typ::RevocationFeed, &page, edit, k);
    add(
        rf,
        "feed_page_valid",
        "a feed page without exp (none is named): exp is null in the result",
        rf_tok(&none),
        rf_args.clone(),
        now,
    );
    add(
        rf,
        "feed_snapshot_valid",
        "a snapshot, the same typ",
        sign(Typ::RevocationFeed, &snapshot, &none, k),
        rf_args.clone(),
        now,
    );
    add(
        rf,
        "feed_with_exp",
        "a page with exp: checked",
        rf_tok(&set("exp", json!(T0 + 300))),
        rf_args.clone(),
        now,
    );
    add(
        rf,
        "feed_long_lifetime",
        "exp 30 days after iat: no lifetime bound",
        rf_tok(&set("exp", json!(T0 + 30 * 86_400))),
        rf_args.clone(),
        now,
    );
    add(
        rf,
        "feed_old_page",
        "a page issued 30 days ago without exp: accepted (a replayed page cannot lower a version)",
        rf_tok(&set("iat", json!(T0 - 30 * 86_400))),
        rf_args.clone(),
        now,
    );
    add(
        rf,
        "feed_expired",
        "now = exp + 60 for a page with exp",
        rf_tok(&set("exp", json!(T0 + 300))),
        rf_args.clone(),
        T0 + 360,
    );
    add(
        rf,
        "feed_exp_before_iat",
        "exp before iat",
        rf_tok(&set("exp", json!(T0 - 10))),
        rf_args.clone(),
        T0,
    );
    add(
        rf,
        "feed_not_yet_valid",
        "now = iat - 61",
        rf_tok(&none),
        rf_args.clone(),
        T0 - 61,
    );
    add(
        rf,
        "feed_iat_missing",
        "no iat",
        rf_tok(&drop("iat")),
        rf_args.clone(),
        now,
    );
    add(
        rf,
        "feed_aud_agent_form",
        "aud ekl:agent:{provider} (the access token's form), not the agent ID",
        rf_tok(&set("aud", json!(agent_aud))),
        rf_args.clone(),
        now,
    );
    add(
        rf,
        "feed_aud_other_provider",
        "a page for another provider",
        rf_tok(&set("aud", json!("agt_provider_0000"))),
        rf_args.clone(),
        now,
    );
    add(
        rf,
        "feed_aud_missing",
        "no aud",
        rf_tok(&drop("aud")),
        rf_args.clone(),
        now,
    );
    add(
        rf,
        "feed_wrong_typ",
        "the same claims signed as ekl-receipt+jwt",
        sign(Typ::Receipt, &page, &none, k),
        rf_args.clone(),
        now,
    );
    add(
        rf,
        "feed_wrong_iss",
        "another issuer",
        rf_tok(&set("iss", json!("https://other-network.example"))),
        rf_args.clone(),
        now,
    );
    add(
        rf,
        "feed_unknown_kid",
        "a key the set does not hold",
        sign(Typ::RevocationFeed, &page, &none, &stranger[0]),
        rf_args.clone(),
        now,
    );
    add(
        rf,
        "feed_bad_signature",
        "the payload of another page (its items removed) under the valid signature",
        tampered(Typ::RevocationFeed, &page, &set("items", json!([]))),
        rf_args.clone(),
        now,
    );

    // --- access token (§15.1) ---
    let at = "verify_access_token";
    let at_args = json!({"provider_id": PROVIDER});
    let at_tok = |edit: Edit<'_>| sign(Typ::Access, &access, edit, k);
    add(
        at,
        "at_valid",
        "an access token, 600 s lifetime",
        at_tok(&none),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_signed_by_second_key",
        "signed by the set's second key",
        sign(Typ::Access, &access, &none, &keys[1]),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_aud_array_of_one",
        "aud an array holding exactly ekl:agent:{provider}",
        at_tok(&set("aud", json!([agent_aud]))),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_lifetime_at_bound",
        "exp - iat = 900 s: at the bound, accepted",
        at_tok(&set("exp", json!(T0 + 900))),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_lifetime_over_bound",
        "exp - iat = 901 s: one second over the bound",
        at_tok(&set("exp", json!(T0 + 901))),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_last_second",
        "now = exp + 59",
        at_tok(&none),
        at_args.clone(),
        T0 + 600 + 59,
    );
    add(
        at,
        "at_expired",
        "now = exp + 60",
        at_tok(&none),
        at_args.clone(),
        T0 + 600 + 60,
    );
    add(
        at,
        "at_not_yet_valid",
        "now = iat - 61",
        at_tok(&none),
        at_args.clone(),
        T0 - 61,
    );
    add(
        at,
        "at_aud_bare_id",
        "aud the provider's agent ID without ekl:agent:",
        at_tok(&set("aud", json!(PROVIDER))),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_aud_other_provider",
        "aud ekl:agent: of another provider",
        at_tok(&set("aud", json!("ekl:agent:agt_provider_0000"))),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_aud_upper_case",
        "aud EKL:agent:{provider}: compared exactly",
        at_tok(&set("aud", json!(format!("EKL:agent:{PROVIDER}")))),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_aud_not_string",
        "aud a number",
        at_tok(&set("aud", json!(19))),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_exp_missing",
        "no exp",
        at_tok(&drop("exp")),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_iat_missing",
        "no iat",
        at_tok(&drop("iat")),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_exp_fraction",
        "exp with a fraction",
        at_tok(&set("exp", json!(T0 as f64 + 600.5))),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_wrong_typ",
        "the same claims signed as ekl-execution-grant+jwt (the same aud form)",
        sign(Typ::ExecutionGrant, &access, &none, k),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_wrong_iss",
        "another issuer",
        at_tok(&set("iss", json!("https://other-network.example"))),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_unknown_kid",
        "a key the set does not hold",
        sign(Typ::Access, &access, &none, &stranger[0]),
        at_args.clone(),
        now,
    );
    add(
        at,
        "at_bad_signature",
        "the payload of another token (scope widened) under the valid signature",
        tampered(
            Typ::Access,
            &access,
            &set("scope", json!("cap:listing.search:1 cap:listing.book:1")),
        ),
        at_args.clone(),
        now,
    );

    let cases: Vec<Json> = cases
        .into_iter()
        .map(|mut c| {
            c["expected"] = run_credential_case(&jwks, ISSUER, &c);
            c
        })
        .collect();
    let doc = json!({
        "description": "EKP 1.2 signed credentials, each through its registry operation (PROTOCOL §3, §4, §9.1, §9.2, §9.3.1, §15.1; docs/decisions.md#jws 10 and 12). A case calls `op`(token, jwks, network_issuer, args…, now) with the key set `jwks`, the issuer `network_issuer` and the arguments `args` by the registry's parameter names. Every token is a compact JWS, alg ES256, the typ of its type (`rules`), kid from `jwks`; iss must equal network_issuer; iat is required; time claims are integers in [0, 2^53]; with 60 s skew a token is expired when now >= exp + 60 and not yet valid when iat or nbf > now + 60; exp < iat is CLAIM_INVALID; exp - iat above the type's max_lifetime is LIFETIME_TOO_LONG (at the bound is accepted). aud equals the expected string exactly or is an array of exactly that one string. Check order: header (alg, crit, typ, kid), signature, payload, iss, aud, time claims' form, iat then exp present, exp, nbf, iat, exp < iat, lifetime, then the type's own claims in the order of `rules`.required (a relationship assertion: sub, jti, org, auth_profile = ekl-auth-1.1 (else CLAIM_INVALID), con, rel_ver, dsc_ver (non-negative integers or non-empty strings), caps (a non-empty array of {id: non-empty string, ver: as rel_ver}); a platform call credential: jti, purpose (one of enroll, validation, revalidation, deliver, else CLAIM_INVALID; another than args.purpose is PURPOSE_MISMATCH); an args.purpose outside the four is INVALID_ARGUMENT before the token is read). A missing claim is CLAIM_MISSING, a string claim that is not a non-empty string CLAIM_INVALID. expected is either {error: CODE} or the result: the verified token {claims, header, kid, token_sha256 (SHA-256 hex of the token's ASCII bytes), typ} with iss, iat, exp (null when a feed has none) and the type's members listed in `rules`.result (a relationship assertion's aud is args.token_endpoint, caps as [{id, ver}]). Single use (the relationship assertion's and the platform call credential's jti) is the caller's state, not checked here. Generated by `cargo run --release -p ekl-core --example gen_jws_vectors`; regenerating changes no byte.",
        "key_seed_hex": SEED_HEX,
        "network_issuer": ISSUER,
        "jwks": serde_json::from_str::<Json>(&jwks.to_json()).expect("jwks"),
        "rules": credential_rules(),
        "cases": cases,
    });
    serde_json::to_string_pretty(&doc).expect("json") + "\n"
}

/// The vector directory of the repository.
pub(crate) fn vectors_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors")
}

fn main() {
    let dir = vectors_dir();
    std::fs::create_dir_all(&dir).expect("vectors dir");
    for (name, text) in [
        ("receipt-jws.json", receipt_jws_vectors()),
        ("screening-rules-jws.json", screening_rules_vectors()),
        ("credentials-jws.json", credentials_vectors()),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        println!("wrote {}", path.display());
    }
}
