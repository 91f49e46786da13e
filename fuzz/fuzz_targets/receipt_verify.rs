//! Fuzz target: arbitrary bytes as a MAC call receipt (PROTOCOL §9.5; SPEC §6).
//!
//! Whatever parses is verified against a baseline key ring and a fixed call. Invariants: a receipt
//! that is an object either verifies to a verdict or is refused for duplicate keys / non-ekl-json-1
//! values; a verdict's digest equals `receipt_digest`; an accepted verdict has a passing tag and the
//! tag `auth_tag` computes; signing a receipt without a tag gives one that passes `auth_tag` and
//! `key_id` (when its issued_at is valid). Panics, hangs and runaway memory are the findings.
#![no_main]

use ekl_core::receipt::{self, CallExpectation, KeyRing};
use ekl_core::timestamp::Timestamp;
use ekl_core::verdict::Outcome;
use ekl_core::{canonical, ErrorCode, Value};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = canonical::parse(data) else {
        return;
    };
    let ring = KeyRing::baseline("fuzz-secret");
    let call = CallExpectation {
        execution_id: "ex_1".into(),
        collaboration_id: "col_1".into(),
        capability_id: "cap_1".into(),
        requester_agent_id: "agt_c".into(),
        provider_agent_id: "agt_p".into(),
        ..CallExpectation::default()
    };
    match receipt::verify_receipt(&value, &ring, &call, None, None) {
        Ok(v) => {
            assert_eq!(
                v.receipt_digest,
                Some(receipt::receipt_digest(&value).expect("digest of a verified receipt"))
            );
            if v.accepted {
                assert_eq!(v.outcome("auth_tag"), Some(Outcome::Pass));
                let tag =
                    receipt::auth_tag(&value, "fuzz-secret").expect("tag of an accepted receipt");
                assert_eq!(
                    value.get("auth_tag").and_then(Value::as_str),
                    Some(tag.as_str())
                );
            }
            if value.get("auth_tag").is_none()
                && value.get("key_id").and_then(Value::as_str) == Some("rk-1")
            {
                // The signer refuses what its verifier refuses (docs/decisions.md#issuing); what it
                // signs carries a valid tag and a valid form.
                match receipt::sign_receipt(&value, "fuzz-secret") {
                    Ok(signed) => {
                        let v2 = receipt::verify_receipt(&signed, &ring, &call, None, None)
                            .expect("still a receipt");
                        assert!(value
                            .get("issued_at")
                            .and_then(Value::as_str)
                            .is_some_and(|t| Timestamp::parse(t).is_ok()));
                        assert_eq!(v2.outcome("auth_tag"), Some(Outcome::Pass));
                        for form in [
                            "receipt_version",
                            "auth_profile",
                            "required_fields",
                            "kind_fields",
                            "status",
                            "issued_at",
                        ] {
                            assert_eq!(v2.outcome(form), Some(Outcome::Pass), "{form}");
                        }
                    }
                    Err(e) => assert!(
                        matches!(
                            e.code(),
                            ErrorCode::InvalidReceipt
                                | ErrorCode::InvalidTimestamp
                                | ErrorCode::IntegerOutOfRange
                        ),
                        "unexpected signer refusal {e}"
                    ),
                }
            }
        }
        Err(e) => assert!(
            matches!(
                e.code(),
                ErrorCode::InvalidReceipt | ErrorCode::DuplicateKey | ErrorCode::IntegerOutOfRange
            ),
            "unexpected refusal {e}"
        ),
    }
});
