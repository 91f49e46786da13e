//! Signing keys from what key tools write: PKCS#8 and SEC1 PEM (core/src/pem.rs) and a bare
//! private JWK (`d` alone), against keys made by node:crypto (OpenSSL) in tests/data/keys.json.

use ekl_core::jwk::SigningKey;
use ekl_core::ErrorCode;

fn data() -> serde_json::Value {
    let text = include_str!("data/keys.json");
    serde_json::from_str(text).expect("keys.json")
}

fn public_xy(key: &SigningKey) -> (String, String) {
    let v: serde_json::Value = serde_json::from_str(&key.to_private_jwk_json()).expect("jwk json");
    (
        v["x"].as_str().unwrap().to_owned(),
        v["y"].as_str().unwrap().to_owned(),
    )
}

#[test]
fn pem_and_jwk_forms_give_openssl_s_public_point() {
    for k in data()["p256"].as_array().expect("keys") {
        let want = (
            k["jwk"]["x"].as_str().unwrap().to_owned(),
            k["jwk"]["y"].as_str().unwrap().to_owned(),
        );
        let from_pkcs8 = SigningKey::from_pem(k["pkcs8"].as_str().unwrap(), "k").expect("pkcs8");
        let from_sec1 = SigningKey::from_pem(k["sec1"].as_str().unwrap(), "k").expect("sec1");
        assert_eq!(public_xy(&from_pkcs8), want);
        assert_eq!(public_xy(&from_sec1), want);
        // A bare private JWK: d alone (plus kty, crv, kid).
        let bare = format!(
            r#"{{"kty":"EC","crv":"P-256","kid":"k","d":"{}"}}"#,
            k["jwk"]["d"].as_str().unwrap()
        );
        assert_eq!(
            public_xy(&SigningKey::from_jwk(bare.as_bytes()).expect("bare")),
            want
        );
        // With x and y: checked against d.
        let full = format!(
            r#"{{"kty":"EC","crv":"P-256","kid":"k","d":"{}","x":"{}","y":"{}"}}"#,
            k["jwk"]["d"].as_str().unwrap(),
            want.0,
            want.1
        );
        assert!(SigningKey::from_jwk(full.as_bytes()).is_ok());
        let only_x = format!(
            r#"{{"kty":"EC","crv":"P-256","kid":"k","d":"{}","x":"{}"}}"#,
            k["jwk"]["d"].as_str().unwrap(),
            want.0
        );
        assert_eq!(
            SigningKey::from_jwk(only_x.as_bytes()).unwrap_err().code(),
            ErrorCode::InvalidKey
        );
    }
}

#[test]
fn wrong_point_and_other_keys_are_refused() {
    let d = data();
    let keys = d["p256"].as_array().unwrap();
    // d of key 0 with x, y of key 1.
    let mixed = format!(
        r#"{{"kty":"EC","crv":"P-256","kid":"k","d":"{}","x":"{}","y":"{}"}}"#,
        keys[0]["jwk"]["d"].as_str().unwrap(),
        keys[1]["jwk"]["x"].as_str().unwrap(),
        keys[1]["jwk"]["y"].as_str().unwrap()
    );
    assert_eq!(
        SigningKey::from_jwk(mixed.as_bytes()).unwrap_err().code(),
        ErrorCode::InvalidKey
    );
    for (name, pem) in d["refused"].as_object().unwrap() {
        let e = SigningKey::from_pem(pem.as_str().unwrap(), "k").unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidKey, "{name}");
        assert!(
            !e.message().contains("MI"),
            "{name}: the message quotes the file"
        );
    }
    // Two blocks, trailing garbage in the DER, an empty kid.
    let pkcs8 = keys[0]["pkcs8"].as_str().unwrap();
    assert!(SigningKey::from_pem(&format!("{pkcs8}{pkcs8}"), "k").is_err());
    assert!(SigningKey::from_pem(pkcs8, "").is_err());
    let tampered = pkcs8.replacen("MIGHAgEA", "MIGIAgEA", 1);
    assert!(SigningKey::from_pem(&tampered, "k").is_err());
    assert!(SigningKey::from_pem("", "k").is_err());
}
