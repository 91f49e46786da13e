//! Every check id the core's verifiers can emit has plain words (`verdict::CHECK_WORDS`), the table
//! holds nothing else, and `docs/check-words.json` is its fresh copy (`EKL_BLESS=1` rewrites it).
//!
//! The ids are collected by running the verifiers with every optional check switched on: a MAC
//! receipt against a call naming every optional reference, both own commitments and an expected
//! digest, and a network-signed receipt object (its JWS checks, the object's signature and the
//! comparison of the two); a check is in a verdict whether it passes or not.

use std::collections::BTreeSet;
use std::path::PathBuf;

use ekl_core::canonical;
use ekl_core::digest;
use ekl_core::jwk::jwks_from_seed;
use ekl_core::receipt::{self, CallExpectation, KeyRing};
use ekl_core::receipt_sig::{self, CallContext, JWS_CHECKS};
use ekl_core::verdict::{check_words, check_words_json, CHECK_WORDS};

fn emitted() -> BTreeSet<&'static str> {
    let mut ids = BTreeSet::new();
    // A MAC receipt, every optional check on (the receipt need not verify: names are what count).
    let input = canonical::parse(br#"{"q":"ping"}"#).expect("json");
    let result = canonical::parse(br#"{"a":"pong"}"#).expect("json");
    let ci = digest::commitment(&input, None, None).expect("commitment");
    let co = digest::commitment(&result, None, None).expect("commitment");
    let text = format!(
        r#"{{"receipt_version":"1.1","receipt_id":"r1","execution_kind":"customer",
        "requester_agent_id":"agt_c","provider_agent_id":"agt_p","collaboration_id":"col_1",
        "connection_id":"con_1","execution_id":"ex_1","capability_id":"cap_x","capability_version":"1.0.0",
        "rel_ver_at_admission":1,"dsc_ver":1,"terms_hash":"t","reservation_id":"rsv","grant_id":"grt",
        "admission_id":"adm","input_commitment":{},"output_commitment":{},"status":"succeeded",
        "issued_at":"2026-11-29T18:40:05Z","key_id":"rk-1","auth_profile":"ekl-evidence-mac-1.1"}}"#,
        ci.to_canonical_json(),
        co.to_canonical_json()
    );
    let signed = receipt::sign_receipt(&canonical::parse(text.as_bytes()).expect("json"), "s")
        .expect("signed");
    let some = |s: &str| Some(s.to_owned());
    let call = CallExpectation {
        execution_id: "ex_1".into(),
        collaboration_id: "col_1".into(),
        capability_id: "cap_x".into(),
        requester_agent_id: "agt_c".into(),
        provider_agent_id: "agt_p".into(),
        capability_version: some("1.0.0"),
        connection_id: some("con_1"),
        terms_hash: some("t"),
        execution_kind: some("customer"),
        reservation_id: some("rsv"),
        grant_id: some("grt"),
        admission_id: some("adm"),
        receipt_digest: some("00"),
    };
    let v = receipt::verify_receipt(
        &signed,
        &KeyRing::baseline("s").unwrap(),
        &call,
        Some(&ci),
        Some(&co),
    )
    .expect("verdict");
    assert_eq!(
        v.failed(),
        vec!["receipt_digest"],
        "only the digest differs"
    );
    ids.extend(v.checks.iter().map(|c| c.name));
    // A network-signed receipt object: its own signature, the JWS checks, the comparison.
    let (jwks, keys) = jwks_from_seed(&[0x11; 32], &["net-1"]).expect("keys");
    let fields = canonical::parse(
        br#"{"receipt_version":"1.2","receipt_id":"rcp_1","execution_kind":"customer",
        "requester_agent_id":"agt_cons","provider_agent_id":"agt_prov","execution_id":"exe_1",
        "capability_id":"cap.search","capability_version":"1.0.0",
        "input_fingerprint":"46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c",
        "output_fingerprint":"0000000000000000000000000000000000000000000000000000000000000000",
        "status":"succeeded","issued_at":"2026-05-28T20:26:40.250Z","auth_profile":"ekl-evidence-sig-1.2"}"#,
    )
    .expect("json");
    let object = receipt_sig::issue_receipt(&fields, &keys[0], "https://n.example", "agt_cons")
        .expect("issued");
    let ctx = CallContext {
        execution_id: "exe_1",
        provider_agent_id: "agt_prov",
        requester_agent_id: "agt_cons",
        capability_id: "cap.search",
        input_fingerprint: "46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c",
        own_agent_id: "agt_cons",
        network_issuer: "https://n.example",
        sent_at: 1_780_000_000 - 5,
        received_at: 1_780_000_000 + 2,
    };
    let v = receipt_sig::verify_receipt(&object, &jwks, &ctx).expect("verdict");
    assert!(v.accepted, "{:?}", v.failed());
    ids.extend(v.checks.iter().map(|c| c.name));
    ids.extend(JWS_CHECKS);
    ids
}

#[test]
fn every_check_the_core_emits_has_plain_words_and_no_other() {
    let ids = emitted();
    assert!(ids.len() >= 30, "{ids:?}");
    for id in &ids {
        let words = check_words(id).unwrap_or_else(|| panic!("no plain words for check {id}"));
        // One plain clause, printed as `id (words)`: no brackets, no colon, no final stop.
        assert!(words.len() >= 15, "{id}: {words:?}");
        assert!(!words.contains(['(', ')', ':']), "{id}: {words:?}");
        assert!(!words.ends_with('.'), "{id}: {words:?}");
    }
    let table: BTreeSet<&str> = CHECK_WORDS.iter().map(|(id, _)| *id).collect();
    assert_eq!(table.len(), CHECK_WORDS.len(), "an id twice in CHECK_WORDS");
    let extra: Vec<&&str> = table.difference(&ids).collect();
    assert!(
        extra.is_empty(),
        "CHECK_WORDS names checks no verifier emits: {extra:?}"
    );
    assert_eq!(check_words("no_such_check"), None);
}

#[test]
fn docs_check_words_json_is_fresh() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/check-words.json");
    let want = check_words_json();
    if std::env::var_os("EKL_BLESS").is_some() {
        std::fs::write(&path, &want).expect("write docs/check-words.json");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/check-words.json is stale: run `EKL_BLESS=1 cargo test --release -p ekl-core --test check_words`"
    );
    let parsed: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&have).expect("an object");
    assert_eq!(parsed.len(), CHECK_WORDS.len());
    assert_eq!(
        parsed.get("auth_tag").and_then(|v| v.as_str()),
        check_words("auth_tag")
    );
}

/// The receipt dashboard's table is the same, as an ES module (the page has no build step).
#[test]
fn the_dashboards_check_words_js_is_fresh() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/dashboard/check-words.js");
    let want = format!(
        "// Generated from ekl_core::verdict::CHECK_WORDS by core/tests/check_words.rs (EKL_BLESS=1\n\
         // cargo test --release -p ekl-core --test check_words): do not edit. Check id → plain words.\n\
         export const CHECK_WORDS = Object.freeze({});\n",
        check_words_json().trim_end()
    );
    if std::env::var_os("EKL_BLESS").is_some() {
        std::fs::write(&path, &want).expect("write examples/dashboard/check-words.js");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "examples/dashboard/check-words.js is stale: run `EKL_BLESS=1 cargo test --release -p ekl-core --test check_words`"
    );
}
