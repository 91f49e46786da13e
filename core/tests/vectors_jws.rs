//! Runs `vectors/receipt-jws.json` and `vectors/screening-rules-jws.json` in place through the Rust
//! API, checks that regenerating them changes no byte, and (meta-test) that the runner fails when
//! an expected value is changed.

#[path = "../examples/gen_jws_vectors.rs"]
mod gen;

use ekl_core::jwk::Jwks;
use serde_json::Value as Json;

fn read(name: &str) -> (String, Json) {
    let path = gen::vectors_dir().join(name);
    let text = std::fs::read_to_string(&path).expect("vector file");
    let doc = serde_json::from_str(&text).expect("vector json");
    (text, doc)
}

fn jwks_of(doc: &Json) -> Jwks {
    Jwks::parse(doc["jwks"].to_string().as_bytes()).expect("the vector's jwks is valid")
}

/// Every case whose result differs from its `expected`, by name.
fn receipt_failures(doc: &Json) -> Vec<String> {
    let jwks = jwks_of(doc);
    let mut failures = Vec::new();
    let cases = doc["cases"].as_array().expect("cases");
    assert!(cases.len() >= 25, "the receipt vectors hold every case");
    for case in cases {
        let got = gen::run_receipt_case(&jwks, &doc["call"], case);
        if got != case["expected"] {
            failures.push(format!("{}: got {got}", case["name"]));
        }
    }
    failures
}

fn screening_failures(doc: &Json) -> Vec<String> {
    let jwks = jwks_of(doc);
    let issuer = doc["network_issuer"].as_str().expect("issuer");
    let mut failures = Vec::new();
    let cases = doc["cases"].as_array().expect("cases");
    assert!(cases.len() >= 15);
    for case in cases {
        let got = gen::run_screening_case(&jwks, issuer, case);
        if got != case["expected"] {
            failures.push(format!("{}: got {got}", case["name"]));
        }
    }
    failures
}

#[test]
fn receipt_jws_vectors_pass() {
    let (_, doc) = read("receipt-jws.json");
    let failures = receipt_failures(&doc);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn screening_rules_vectors_pass() {
    let (_, doc) = read("screening-rules-jws.json");
    let failures = screening_failures(&doc);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn regenerating_changes_nothing() {
    let (receipt, _) = read("receipt-jws.json");
    assert!(
        receipt == gen::receipt_jws_vectors(),
        "vectors/receipt-jws.json differs from the generator: run cargo run --release -p ekl-core --example gen_jws_vectors"
    );
    let (screening, _) = read("screening-rules-jws.json");
    assert!(
        screening == gen::screening_rules_vectors(),
        "vectors/screening-rules-jws.json differs from the generator"
    );
}

#[test]
fn runner_fails_on_a_changed_expectation() {
    let (_, mut doc) = read("receipt-jws.json");
    doc["cases"][0]["expected"]["accepted"] = Json::Bool(false);
    assert_eq!(receipt_failures(&doc).len(), 1);
    let (_, mut doc) = read("receipt-jws.json");
    let last = doc["cases"].as_array().expect("cases").len() - 1;
    doc["cases"][last]["expected"]["checks"]["object_matches_jws"] = Json::from("pass");
    assert_eq!(receipt_failures(&doc).len(), 1);
    let (_, mut doc) = read("screening-rules-jws.json");
    doc["cases"][2]["expected"] = serde_json::json!({"error": "TOKEN_NOT_YET_VALID"});
    assert_eq!(screening_failures(&doc).len(), 1);
}
