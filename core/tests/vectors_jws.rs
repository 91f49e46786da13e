//! The token vector files (`receipt-jws.json`, `screening-rules-jws.json`, `credentials-jws.json`)
//! are what their generator (examples/gen_jws_vectors.rs) writes, byte for byte, and the credential
//! file covers each operation and refusal code. Every surface checks their expected values through
//! vectors/calls.jsonl (vectors/README.md#calls).

#[path = "../examples/gen_jws_vectors.rs"]
mod gen;

use serde_json::Value as Json;

fn read(name: &str) -> (String, Json) {
    let path = gen::vectors_dir().join(name);
    let text = std::fs::read_to_string(&path).expect("vector file");
    let doc = serde_json::from_str(&text).expect("vector json");
    (text, doc)
}

/// Each of the four operations has accepted and refused cases, and every refusal code the
/// credential rules can give appears at least once.
#[test]
fn credential_vectors_cover_each_operation_and_code() {
    let (_, doc) = read("credentials-jws.json");
    let cases = doc["cases"].as_array().expect("cases");
    for op in [
        "verify_relationship_assertion",
        "verify_platform_call",
        "verify_revocation_feed",
        "verify_access_token",
    ] {
        let of_op: Vec<&Json> = cases.iter().filter(|c| c["op"] == op).collect();
        assert!(
            of_op.iter().any(|c| c["expected"].get("error").is_none()),
            "{op}: accepted"
        );
        assert!(
            of_op
                .iter()
                .filter(|c| c["expected"].get("error").is_some())
                .count()
                >= 10,
            "{op}: refused"
        );
    }
    let codes: std::collections::BTreeSet<&str> = cases
        .iter()
        .filter_map(|c| c["expected"]["error"].as_str())
        .collect();
    for code in [
        "TYP_MISMATCH",
        "UNKNOWN_KID",
        "SIGNATURE_INVALID",
        "ISSUER_MISMATCH",
        "AUDIENCE_MISMATCH",
        "CLAIM_MISSING",
        "CLAIM_INVALID",
        "TOKEN_EXPIRED",
        "TOKEN_NOT_YET_VALID",
        "LIFETIME_TOO_LONG",
        "PURPOSE_MISMATCH",
        "INVALID_ARGUMENT",
    ] {
        assert!(codes.contains(code), "no case gives {code}");
    }
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
    let (credentials, _) = read("credentials-jws.json");
    assert!(
        credentials == gen::credentials_vectors(),
        "vectors/credentials-jws.json differs from the generator"
    );
}
