//! Properties of the receipt, timestamp, proof and screening code on generated input.

use std::borrow::Cow;

use ekl_core::canonical;
use ekl_core::proof::{self, NetworkHolds, ProofKey, ProofVersion};
use ekl_core::receipt::{self, CallExpectation, KeyRing};
use ekl_core::screening;
use ekl_core::timestamp::Timestamp;
use ekl_core::verdict::Outcome;
use ekl_core::{ErrorCode, Value};
use proptest::prelude::*;

/// Days since 1970-01-01 counted year by year and month by month (an independent calendar).
fn naive_days(y: i64, m: u32, d: u32) -> i64 {
    let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let month_len = |y: i64, m: u32| match m {
        2 if leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    let mut days = 0i64;
    if y >= 1970 {
        for yy in 1970..y {
            days += if leap(yy) { 366 } else { 365 };
        }
    } else {
        for yy in y..1970 {
            days -= if leap(yy) { 366 } else { 365 };
        }
    }
    for mm in 1..m {
        days += month_len(y, mm);
    }
    days + i64::from(d) - 1
}

fn signed_receipt() -> Value<'static> {
    let text = br#"{"receipt_version":"1.1","receipt_id":"r1","execution_kind":"customer",
      "requester_agent_id":"a","provider_agent_id":"b","collaboration_id":"c","connection_id":"k",
      "execution_id":"e","capability_id":"cap","capability_version":"1.0.0","rel_ver_at_admission":2,
      "dsc_ver":3,"terms_hash":"t","reservation_id":"rsv","grant_id":"g","admission_id":"adm",
      "input_commitment":{"alg":"sha-256","canon":"ekl-json-1",
        "digest":"0000000000000000000000000000000000000000000000000000000000000000"},
      "output_commitment":{"alg":"sha-256","canon":"ekl-json-1",
        "digest":"1111111111111111111111111111111111111111111111111111111111111111"},
      "status":"succeeded","issued_at":"2026-11-29T10:00:00Z","key_id":"rk-1",
      "auth_profile":"ekl-evidence-mac-1.1"}"#;
    receipt::sign_receipt(&canonical::parse(text).expect("valid"), "sec").expect("signs")
}

fn call() -> CallExpectation {
    CallExpectation {
        execution_id: "e".into(),
        collaboration_id: "c".into(),
        capability_id: "cap".into(),
        requester_agent_id: "a".into(),
        provider_agent_id: "b".into(),
        ..CallExpectation::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn timestamps_agree_with_a_naive_calendar(
        y in 0i64..=9999, m in 1u32..=12, d in 1u32..=31, h in 0u32..24, mi in 0u32..60,
        s in 0u32..60, frac in proptest::option::of("[0-9]{1,9}")
    ) {
        let text = format!(
            "{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}{}Z",
            frac.as_ref().map(|f| format!(".{f}")).unwrap_or_default()
        );
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let exists = d <= match m { 2 if leap => 29, 2 => 28, 4 | 6 | 9 | 11 => 30, _ => 31 };
        match Timestamp::parse(&text) {
            Ok(t) => {
                prop_assert!(exists);
                let secs = naive_days(y, m, d) * 86_400 + i64::from(h * 3600 + mi * 60 + s);
                prop_assert_eq!(t.unix_seconds(), secs);
                let nanos = frac.map(|f| format!("{f:0<9}").parse::<u32>().expect("digits"))
                    .unwrap_or(0);
                prop_assert_eq!(t.nanos(), nanos);
            }
            Err(e) => {
                prop_assert!(!exists);
                prop_assert_eq!(e.code(), ErrorCode::InvalidTimestamp);
            }
        }
    }

    #[test]
    fn timestamp_parse_never_panics(text in "\\PC{0,40}") {
        let _ = Timestamp::parse(&text);
    }

    /// Changing any member of a signed receipt to any other string breaks the tag.
    #[test]
    fn any_change_breaks_the_tag(index in 0usize..23, new in "\\PC{0,12}") {
        let signed = signed_receipt();
        let Value::Object(mut members) = signed.clone() else { unreachable!() };
        let i = index % members.len();
        prop_assume!(members[i].0 != "auth_tag");
        prop_assume!(members[i].1.as_str() != Some(new.as_str()));
        members[i].1 = Value::String(Cow::Owned(new));
        let changed = Value::Object(members);
        let verdict = receipt::verify_receipt(&changed, &KeyRing::baseline("sec").unwrap(), &call(), None, None)
            .expect("still a receipt");
        prop_assert!(!verdict.accepted);
        // Changing key_id or issued_at can make the key unusable instead; the tag never passes.
        prop_assert_eq!(verdict.outcome("auth_tag"), Some(Outcome::Fail));
    }

    /// The tag verifies under the secret it was made with and no other.
    #[test]
    fn tag_binds_the_secret(secret in "\\PC{1,20}", other in "\\PC{1,20}") {
        // Not a complete receipt (sign_receipt refuses it): the tag alone, appended.
        let text = br#"{"key_id":"rk-1","issued_at":"2026-01-01T00:00:00Z","x":[1,2.5,"\u00e9"]}"#;
        let unsigned = canonical::parse(text).expect("valid");
        let tag = receipt::auth_tag(&unsigned, &secret).expect("tag");
        let Value::Object(mut members) = unsigned else { unreachable!() };
        members.push((Cow::Borrowed("auth_tag"), Value::String(Cow::Owned(tag))));
        let r = Value::Object(members);
        let v = receipt::verify_receipt(&r, &KeyRing::baseline(&secret).unwrap(), &call(), None, None)
            .expect("a receipt");
        prop_assert_eq!(v.outcome("auth_tag"), Some(Outcome::Pass));
        let v = receipt::verify_receipt(&r, &KeyRing::baseline(&other).unwrap(), &call(), None, None)
            .expect("a receipt");
        prop_assert_eq!(v.outcome("auth_tag") == Some(Outcome::Pass), secret == other);
    }

    /// With the proof key held, no v1 proof is ever accepted, whatever comes with it.
    #[test]
    fn no_downgrade_on_the_network_side(
        key in "\\PC{1,30}", challenge in "[0-9a-f]{64}", endpoint in "\\PC{1,30}",
        v2 in proptest::option::of("[0-9a-f]{64}")
    ) {
        let holds = NetworkHolds::ProofKey(ProofKey::derive(&key));
        let v1 = proof::challenge_proof_v1(&key, &challenge, &endpoint);
        let r = proof::verify_challenge_proof(&holds, &challenge, &endpoint, Some(&v1), v2.as_deref());
        prop_assert!(r != Ok(ProofVersion::V1));
        let good = proof::challenge_proof_v2(&ProofKey::derive(&key), &challenge, &endpoint);
        prop_assert_eq!(
            proof::verify_challenge_proof(&holds, &challenge, &endpoint, Some(&v1), Some(&good)),
            Ok(ProofVersion::V2)
        );
    }

    /// A credential anywhere in a string is found; the flag never carries the text.
    #[test]
    fn credentials_are_found(
        before in "\\PC{0,20}", tail in "[A-Za-z0-9_-]{32,50}", after in "[ .,;]{0,1}\\PC{0,10}",
        agent in any::<bool>()
    ) {
        let cred = format!("{}{tail}", if agent { "ekla_" } else { "eklp_" });
        let text = format!("{before}{cred}{after}");
        prop_assert!(screening::leak_pattern(&text));
        let flags = screening::scan(None, &Value::String(Cow::Owned(text)));
        prop_assert_eq!(flags.len(), 1);
        let json = String::from_utf8(
            canonical::canonicalize_value(&flags[0].to_value()).expect("json"),
        ).expect("utf8");
        prop_assert!(!json.contains(&tail));
    }

    /// The fast paths of `fold` give what the plain definition gives.
    #[test]
    fn fold_matches_its_definition(text in "(\\PC|[A-Za-z ])*") {
        use unicode_normalization::UnicodeNormalization;
        let nfkc: String = text.nfkc().collect();
        let reference: String = caseless::default_case_fold_str(&nfkc).nfkc().collect();
        prop_assert_eq!(screening::fold(&text), reference);
    }

    #[test]
    fn scan_never_panics(text in "\\PC{0,64}") {
        let v = Value::Array(vec![Value::String(Cow::Owned(text.clone())),
            Value::Object(vec![(Cow::Owned(text), Value::Null)])]);
        let _ = screening::scan(None, &v);
    }
}
