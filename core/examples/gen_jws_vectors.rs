//! Generates `vectors/receipt-jws.json` and `vectors/screening-rules-jws.json` from fixed seeds.
//!
//! `cargo run --release -p ekl-core --example gen_jws_vectors` rewrites both files; regenerating
//! changes no byte (ES256 signing uses RFC 6979 deterministic nonces), and
//! `core/tests/vectors_jws.rs` fails when the files differ from what this program writes.
#![allow(dead_code)] // also included by core/tests/vectors_jws.rs, which does not call `main`

use ekl_core::base64url;
use ekl_core::canonical;
use ekl_core::jwk::{jwks_from_seed, Jwks, SigningKey};
use ekl_core::jws::{self, Typ};
use ekl_core::receipt_sig::{self, CallContext};
use ekl_core::screening_rules::verify_screening_rules;
use ekl_core::verdict::Verdict;
use ekl_core::Value;
use serde_json::{json, Value as Json};

/// The seed every vector key derives from (`SigningKey::from_seed`).
pub const SEED_HEX: &str = "656b6c2d636f7265206a777320766563746f72732073656564203230323621ff";
/// The key IDs of the network's key set.
pub const KIDS: [&str; 2] = ["net-2026-05", "net-2026-06"];
/// A seed for a key the network's set does not hold.
pub const STRANGER_SEED_HEX: &str =
    "0000000000000000000000000000000000000000000000000000000000000001";
/// The network's issuer.
pub const ISSUER: &str = "https://network.eukollab.example";
/// The moment of the receipt (2026-05-28T20:26:40Z).
pub const T0: i64 = 1_780_000_000;

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
pub fn high_s_twin(sig_b64: &str) -> String {
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
pub fn call_from(j: &Json) -> CallContext<'_> {
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
pub fn verdict_json(v: &Verdict) -> Json {
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
pub fn merged_call(base: &Json, overrides: Option<&Json>) -> Json {
    let mut call = base.clone();
    if let Some(Json::Object(o)) = overrides {
        for (k, v) in o {
            call[k] = v.clone();
        }
    }
    call
}

/// Runs one receipt case through the Rust API: the expected-result JSON it produces.
pub fn run_receipt_case(jwks: &Jwks, base_call: &Json, case: &Json) -> Json {
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
pub fn receipt_jws_vectors() -> String {
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
pub fn run_screening_case(jwks: &Jwks, issuer: &str, case: &Json) -> Json {
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
pub fn screening_rules_vectors() -> String {
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

/// The vector directory of the repository.
pub fn vectors_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors")
}

fn main() {
    let dir = vectors_dir();
    std::fs::create_dir_all(&dir).expect("vectors dir");
    for (name, text) in [
        ("receipt-jws.json", receipt_jws_vectors()),
        ("screening-rules-jws.json", screening_rules_vectors()),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        println!("wrote {}", path.display());
    }
}
