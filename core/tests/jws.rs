//! Negative and boundary tests of the JWS verifier, the key set, the per-type credential helpers,
//! network-signed receipts and the screening rules token (issue 3, "a negative test for each way a
//! token can be wrong").

use ekl_core::base64url;
use ekl_core::canonical;
use ekl_core::credential::{self, Purpose};
use ekl_core::jwk::{jwks_from_seed, Jwks, SigningKey};
use ekl_core::jws::{self, ClaimChecks, Typ};
use ekl_core::receipt_sig::{self, CallContext};
use ekl_core::screening_rules::verify_screening_rules;
use ekl_core::verdict::Outcome;
use ekl_core::{ErrorCode, Value};

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

const ISS: &str = "https://network.example";
const NOW: i64 = 1_780_000_000;

fn keys() -> (Jwks, Vec<SigningKey>) {
    jwks_from_seed(&[0x11; 32], &["net-1", "net-2"]).expect("keys")
}

fn claims(text: &str) -> Value<'static> {
    canonical::parse(text.as_bytes())
        .expect("json")
        .into_owned()
}

fn base_claims() -> Value<'static> {
    claims(&format!(
        r#"{{"iss":"{ISS}","aud":"ekl:agent:prov","iat":{NOW},"exp":{}}}"#,
        NOW + 60
    ))
}

fn code(r: ekl_core::Result<impl std::fmt::Debug>) -> ErrorCode {
    r.expect_err("must be refused").code()
}

fn checks() -> ClaimChecks<'static> {
    ClaimChecks {
        issuer: Some(ISS),
        audience: Some("ekl:agent:prov"),
        ..ClaimChecks::at(NOW)
    }
}

/// Replaces the header of a token by `header` (JSON text), keeping payload and signature.
fn with_header_signed(header: &str, payload: &Value<'_>, key: &SigningKey) -> String {
    jws::sign_bytes(
        header.as_bytes(),
        &canonical::canonicalize_value(payload).expect("payload"),
        key,
    )
}

#[test]
fn valid_token_verifies_with_each_key() {
    let (jwks, keys) = keys();
    for key in &keys {
        let t = jws::sign(Typ::Access, &base_claims(), key).unwrap();
        let v = jws::verify(&t, Typ::Access, &jwks, &checks()).unwrap();
        assert_eq!(v.kid, key.kid());
    }
}

#[test]
fn alg_none_hs256_and_other_algs_refused() {
    let (jwks, keys) = keys();
    let payload = canonical::canonicalize_value(&base_claims()).unwrap();
    // alg none, empty signature
    let none = format!(
        "{}.{}.",
        base64url::encode(br#"{"alg":"none","kid":"net-1","typ":"ekl-access+jwt"}"#),
        base64url::encode(&payload)
    );
    assert_eq!(
        code(jws::verify(&none, Typ::Access, &jwks, &checks())),
        ErrorCode::AlgNotAllowed
    );
    // HS256 keyed with the public key's JWK text (the classic confusion attack)
    let header = base64url::encode(br#"{"alg":"HS256","kid":"net-1","typ":"ekl-access+jwt"}"#);
    let input = format!("{header}.{}", base64url::encode(&payload));
    let secret = jwks.get("net-1").unwrap().to_value();
    let secret = canonical::canonicalize_value(&secret).unwrap();
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&secret).unwrap();
    mac.update(input.as_bytes());
    let hs = format!(
        "{input}.{}",
        base64url::encode(&mac.finalize().into_bytes())
    );
    assert_eq!(
        code(jws::verify(&hs, Typ::Access, &jwks, &checks())),
        ErrorCode::AlgNotAllowed
    );
    for alg in [
        "\"ES384\"",
        "\"ES512\"",
        "\"RS256\"",
        "\"PS256\"",
        "\"EdDSA\"",
        "\"es256\"",
        "\"ES256 \"",
        "\"ES256K\"",
        "\"\"",
        "null",
        "256",
        "[\"ES256\"]",
    ] {
        let h = format!(r#"{{"alg":{alg},"kid":"net-1","typ":"ekl-access+jwt"}}"#);
        let t = with_header_signed(&h, &base_claims(), &keys[0]);
        assert_eq!(
            code(jws::verify(&t, Typ::Access, &jwks, &checks())),
            ErrorCode::AlgNotAllowed,
            "{alg}"
        );
    }
    let h = r#"{"kid":"net-1","typ":"ekl-access+jwt"}"#;
    let t = with_header_signed(h, &base_claims(), &keys[0]);
    assert_eq!(
        code(jws::verify(&t, Typ::Access, &jwks, &checks())),
        ErrorCode::AlgNotAllowed
    );
}

#[test]
fn typ_confusion_between_every_pair() {
    let (jwks, keys) = keys();
    for signed_as in Typ::ALL {
        let t = jws::sign(signed_as, &base_claims(), &keys[0]).unwrap();
        for expected in Typ::ALL {
            let r = jws::verify(&t, expected, &jwks, &checks());
            if signed_as == expected {
                assert!(r.is_ok());
            } else {
                assert_eq!(
                    code(r),
                    ErrorCode::TypMismatch,
                    "{signed_as:?} as {expected:?}"
                );
            }
        }
    }
    for typ in [
        "application/ekl-access+jwt",
        "EKL-ACCESS+JWT",
        "ekl-access+JWT",
        "ekl-access",
        "JWT",
        "ekl-access+jwt ",
    ] {
        let h = format!(r#"{{"alg":"ES256","kid":"net-1","typ":"{typ}"}}"#);
        let t = with_header_signed(&h, &base_claims(), &keys[0]);
        assert_eq!(
            code(jws::verify(&t, Typ::Access, &jwks, &checks())),
            ErrorCode::TypMismatch,
            "{typ}"
        );
    }
    let t = with_header_signed(r#"{"alg":"ES256","kid":"net-1"}"#, &base_claims(), &keys[0]);
    assert_eq!(
        code(jws::verify(&t, Typ::Access, &jwks, &checks())),
        ErrorCode::TypMismatch
    );
}

#[test]
fn kid_missing_unknown_and_another_keys_signature() {
    let (jwks, keys) = keys();
    for h in [
        r#"{"alg":"ES256","typ":"ekl-access+jwt"}"#,
        r#"{"alg":"ES256","typ":"ekl-access+jwt","kid":""}"#,
        r#"{"alg":"ES256","typ":"ekl-access+jwt","kid":1}"#,
    ] {
        let t = with_header_signed(h, &base_claims(), &keys[0]);
        assert_eq!(
            code(jws::verify(&t, Typ::Access, &jwks, &checks())),
            ErrorCode::KidMissing,
            "{h}"
        );
    }
    let t = with_header_signed(
        r#"{"alg":"ES256","typ":"ekl-access+jwt","kid":"net-9"}"#,
        &base_claims(),
        &keys[0],
    );
    assert_eq!(
        code(jws::verify(&t, Typ::Access, &jwks, &checks())),
        ErrorCode::UnknownKid
    );
    // net-2 names the other key of the set: the signature by net-1's key must not verify.
    let t = with_header_signed(
        r#"{"alg":"ES256","kid":"net-2","typ":"ekl-access+jwt"}"#,
        &base_claims(),
        &keys[0],
    );
    assert_eq!(
        code(jws::verify(&t, Typ::Access, &jwks, &checks())),
        ErrorCode::SignatureInvalid
    );
    // a key from another seed with the same kid
    let (_, stranger) = jwks_from_seed(&[0x22; 32], &["net-1"]).unwrap();
    let t = jws::sign(Typ::Access, &base_claims(), &stranger[0]).unwrap();
    assert_eq!(
        code(jws::verify(&t, Typ::Access, &jwks, &checks())),
        ErrorCode::SignatureInvalid
    );
}

#[test]
fn lenient_base64url_forms_refused() {
    let (jwks, keys) = keys();
    let t = jws::sign(Typ::Access, &base_claims(), &keys[0]).unwrap();
    let segs: Vec<&str> = t.split('.').collect();
    let mut cases = vec![
        format!("{}=.{}.{}", segs[0], segs[1], segs[2]),
        format!("{}.{}.{}=", segs[0], segs[1], segs[2]),
        format!("{}.{}.{}==", segs[0], segs[1], segs[2]),
        format!("{} .{}.{}", segs[0], segs[1], segs[2]),
        format!("{}.{}\n.{}", segs[0], segs[1], segs[2]),
        format!(
            "{}.{}.{}",
            segs[0],
            segs[1],
            segs[2].replace('-', "+").replace('_', "/")
        ),
    ];
    // stray trailing bits: the 64-byte signature's last character carries 4 unused bits.
    let sig = segs[2];
    let last = sig.chars().last().unwrap();
    let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let idx = alphabet.find(last).unwrap();
    let twin = alphabet.as_bytes()[idx | 1] as char;
    cases.push(format!(
        "{}.{}.{}{}",
        segs[0],
        segs[1],
        &sig[..sig.len() - 1],
        twin
    ));
    for bad in cases {
        if !bad.contains('+') && !bad.contains('/') && bad == t {
            continue;
        }
        let c = code(jws::verify(&bad, Typ::Access, &jwks, &checks()));
        assert_eq!(c, ErrorCode::InvalidBase64url, "{bad}");
    }
    for bad in [
        String::new(),
        "a.b".to_owned(),
        format!("{t}.x"),
        format!("{}.{}", segs[0], segs[1]),
        "..".to_owned(),
    ] {
        let c = code(jws::verify(&bad, Typ::Access, &jwks, &checks()));
        assert!(
            matches!(c, ErrorCode::JwsMalformed | ErrorCode::InvalidBase64url),
            "{bad}: {c:?}"
        );
    }
}

#[test]
fn duplicate_members_and_crit_refused() {
    let (jwks, keys) = keys();
    let payload = canonical::canonicalize_value(&base_claims()).unwrap();
    for h in [
        r#"{"alg":"ES256","alg":"ES256","kid":"net-1","typ":"ekl-access+jwt"}"#,
        r#"{"alg":"ES256","kid":"net-1","typ":"ekl-access+jwt","typ":"ekl-access+jwt"}"#,
        r#"{"alg":"ES256","kid":"net-1","typ":"ekl-access+jwt","k\u0069d":"net-1"}"#,
    ] {
        let t = jws::sign_bytes(h.as_bytes(), &payload, &keys[0]);
        assert_eq!(
            code(jws::verify(&t, Typ::Access, &jwks, &checks())),
            ErrorCode::DuplicateKey,
            "{h}"
        );
    }
    let dup_payload = format!(
        r#"{{"iss":"{ISS}","aud":"ekl:agent:prov","aud":"ekl:agent:other","iat":{NOW},"exp":{}}}"#,
        NOW + 60
    );
    let t = jws::sign_bytes(
        br#"{"alg":"ES256","kid":"net-1","typ":"ekl-access+jwt"}"#,
        dup_payload.as_bytes(),
        &keys[0],
    );
    assert_eq!(
        code(jws::verify(&t, Typ::Access, &jwks, &checks())),
        ErrorCode::DuplicateKey
    );
    let nested = format!(r#"{{"iss":"{ISS}","x":{{"a":1,"a":2}}}}"#);
    let t = jws::sign_bytes(
        br#"{"alg":"ES256","kid":"net-1","typ":"ekl-access+jwt"}"#,
        nested.as_bytes(),
        &keys[0],
    );
    assert_eq!(
        code(jws::verify_signature(&t, Typ::Access, &jwks)),
        ErrorCode::DuplicateKey
    );
    for crit in [r#"["exp"]"#, "[]", r#"["b64"]"#, "null"] {
        let h = format!(r#"{{"alg":"ES256","crit":{crit},"kid":"net-1","typ":"ekl-access+jwt"}}"#);
        let t = jws::sign_bytes(h.as_bytes(), &payload, &keys[0]);
        assert_eq!(
            code(jws::verify(&t, Typ::Access, &jwks, &checks())),
            ErrorCode::CritNotSupported,
            "{crit}"
        );
    }
    // header and payload must be objects
    for (h, p) in [
        (&b"[]"[..], &payload[..]),
        (
            br#"{"alg":"ES256","kid":"net-1","typ":"ekl-access+jwt"}"#,
            b"[1]",
        ),
        (
            br#"{"alg":"ES256","kid":"net-1","typ":"ekl-access+jwt"}"#,
            b"not json",
        ),
        (
            br#"{"alg":"ES256","kid":"net-1","typ":"ekl-access+jwt"}"#,
            b"",
        ),
    ] {
        let t = jws::sign_bytes(h, p, &keys[0]);
        assert_eq!(
            code(jws::verify_signature(&t, Typ::Access, &jwks)),
            ErrorCode::JwsMalformed
        );
    }
}

#[test]
fn signature_shapes() {
    let (jwks, keys) = keys();
    let t = jws::sign(Typ::Access, &base_claims(), &keys[0]).unwrap();
    let (input, sig) = t.rsplit_once('.').unwrap();
    let sig = base64url::decode(sig).unwrap();
    let n = hex_bytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
    let with_sig = |s: &[u8]| format!("{input}.{}", base64url::encode(s));
    let mut cases: Vec<Vec<u8>> = vec![
        vec![],
        sig[..63].to_vec(),
        [sig.as_slice(), &[0]].concat(),
        [&[0u8][..], sig.as_slice()].concat(),
    ];
    // r = 0, s = 0, r = n, s = n, r = n + r (as 32 bytes would overflow: use all-ones), s = 2^256-1
    let mut zero_r = sig.clone();
    zero_r[..32].fill(0);
    let mut zero_s = sig.clone();
    zero_s[32..].fill(0);
    let mut r_n = sig.clone();
    r_n[..32].copy_from_slice(&n);
    let mut s_n = sig.clone();
    s_n[32..].copy_from_slice(&n);
    let mut s_max = sig.clone();
    s_max[32..].fill(0xff);
    cases.extend([zero_r, zero_s, r_n, s_n, s_max]);
    // DER instead of raw r‖s
    let mut der = vec![0x30, 0x44, 0x02, 0x20];
    der.extend_from_slice(&sig[..32]);
    der.extend_from_slice(&[0x02, 0x20]);
    der.extend_from_slice(&sig[32..]);
    cases.push(der);
    for bad in cases {
        assert_eq!(
            code(jws::verify(&with_sig(&bad), Typ::Access, &jwks, &checks())),
            ErrorCode::SignatureInvalid,
            "{}",
            bad.len()
        );
    }
    // high-S form: s' = n - s verifies too (ECDSA malleability; JWS does not require low S).
    let high = with_sig(&high_s(&sig));
    assert_ne!(high, t);
    jws::verify(&high, Typ::Access, &jwks, &checks()).expect("high-S accepted");
}

fn hex_bytes(h: &str) -> Vec<u8> {
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
        .collect()
}

/// (r, n − s) from (r, s), big-endian arithmetic.
fn high_s(sig: &[u8]) -> Vec<u8> {
    let n = hex_bytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
    let s = &sig[32..];
    let mut out = [0u8; 32];
    let mut borrow = 0i16;
    for i in (0..32).rev() {
        let mut d = i16::from(n[i]) - i16::from(s[i]) - borrow;
        borrow = 0;
        if d < 0 {
            d += 256;
            borrow = 1;
        }
        out[i] = d as u8;
    }
    [&sig[..32], &out[..]].concat()
}

/// An access token with these claims, signed without the signer's own claim checks (the tests
/// below give the verifier claims `jws::sign` refuses); when `jws::sign` accepts the claims it
/// gives the same token.
fn token_with(claims_text: &str) -> (Jwks, String) {
    let (jwks, keys) = keys();
    let header = claims(r#"{"alg":"ES256","kid":"net-1","typ":"ekl-access+jwt"}"#);
    let c = claims(claims_text);
    let token = jws::sign_value_header(&header, &c, &keys[0]).unwrap();
    if let Ok(checked) = jws::sign(Typ::Access, &c, &keys[0]) {
        assert_eq!(checked, token);
    }
    (jwks, token)
}

#[test]
fn time_boundaries() {
    let exp = NOW + 60;
    let (jwks, t) = token_with(&format!(r#"{{"iat":{NOW},"exp":{exp}}}"#));
    let at = |now: i64| jws::verify(&t, Typ::Access, &jwks, &ClaimChecks::at(now));
    // exp + 59 is the last accepted second; exp + 60 is expired (RFC 7519: now must be before exp, + skew)
    assert!(at(exp + 59).is_ok());
    assert_eq!(code(at(exp + 60)), ErrorCode::TokenExpired);
    assert_eq!(code(at(exp + 10_000)), ErrorCode::TokenExpired);
    // iat may lie at most 60 s in the future
    assert!(at(NOW - 60).is_ok());
    assert_eq!(code(at(NOW - 61)), ErrorCode::TokenNotYetValid);
    // nbf likewise
    let nbf = NOW + 100;
    let (jwks, t) = token_with(&format!(
        r#"{{"iat":{NOW},"nbf":{nbf},"exp":{}}}"#,
        NOW + 200
    ));
    let at = |now: i64| jws::verify(&t, Typ::Access, &jwks, &ClaimChecks::at(now));
    assert!(at(nbf - 60).is_ok());
    assert_eq!(code(at(nbf - 61)), ErrorCode::TokenNotYetValid);
    // skew 0
    let (jwks, t) = token_with(&format!(r#"{{"iat":{NOW},"exp":{exp}}}"#));
    let strict = |now: i64| {
        jws::verify(
            &t,
            Typ::Access,
            &jwks,
            &ClaimChecks {
                skew: 0,
                ..ClaimChecks::at(now)
            },
        )
    };
    assert!(strict(exp - 1).is_ok());
    assert_eq!(code(strict(exp)), ErrorCode::TokenExpired);
}

#[test]
fn absurd_time_claims_refused_without_panic() {
    let (jwks, keys) = keys();
    let header = br#"{"alg":"ES256","kid":"net-1","typ":"ekl-access+jwt"}"#;
    for v in [
        "1e308",
        "-1",
        "-0.5",
        "1.5",
        "\"1780000000\"",
        "null",
        "true",
        "[1]",
        "{}",
        "9007199254740994.0",
        "18446744073709551616.0",
        "1e20",
        "-9007199254740992",
        "1780000000.000001",
    ] {
        for name in ["iat", "exp", "nbf"] {
            let mut fields = vec![format!("\"iat\":{NOW}"), format!("\"exp\":{}", NOW + 60)];
            fields.retain(|f| !f.starts_with(&format!("\"{name}\"")));
            fields.push(format!("\"{name}\":{v}"));
            // raw text, so the literal reaches the verifier exactly as written
            let t = jws::sign_bytes(
                header,
                format!("{{{}}}", fields.join(",")).as_bytes(),
                &keys[0],
            );
            let c = code(jws::verify(&t, Typ::Access, &jwks, &ClaimChecks::at(NOW)));
            assert_eq!(c, ErrorCode::ClaimInvalid, "{name}={v}");
        }
    }
    // An integer literal beyond 2^53 is not ekl-json-1: the payload itself is refused.
    let t = jws::sign_bytes(
        header,
        br#"{"iat":1780000000,"exp":9007199254740993}"#,
        &keys[0],
    );
    let c = code(jws::verify(&t, Typ::Access, &jwks, &ClaimChecks::at(NOW)));
    assert_eq!(c, ErrorCode::JwsMalformed);
    // 2^53 itself is an accepted time (far future exp)
    let (jwks, t) = token_with(&format!(r#"{{"iat":{NOW},"exp":9007199254740992}}"#));
    assert!(jws::verify(&t, Typ::Access, &jwks, &ClaimChecks::at(NOW)).is_ok());
    // integral value written with an exponent is an integer
    let (jwks, t) = token_with(r#"{"iat":1.78e9,"exp":1780000060}"#);
    assert!(jws::verify(&t, Typ::Access, &jwks, &ClaimChecks::at(NOW)).is_ok());
    // a caller clock out of range is an argument error, not a panic
    let c = code(jws::verify(
        &t,
        Typ::Access,
        &jwks,
        &ClaimChecks::at(i64::MAX),
    ));
    assert_eq!(c, ErrorCode::InvalidArgument);
    let c = code(jws::verify(&t, Typ::Access, &jwks, &ClaimChecks::at(-1)));
    assert_eq!(c, ErrorCode::InvalidArgument);
}

#[test]
fn missing_and_mismatched_registered_claims() {
    let exp = NOW + 60;
    let (jwks, t) = token_with(&format!(r#"{{"iat":{NOW}}}"#));
    assert_eq!(
        code(jws::verify(&t, Typ::Access, &jwks, &ClaimChecks::at(NOW))),
        ErrorCode::ClaimMissing
    );
    let (jwks, t) = token_with(&format!(r#"{{"exp":{exp}}}"#));
    assert_eq!(
        code(jws::verify(&t, Typ::Access, &jwks, &ClaimChecks::at(NOW))),
        ErrorCode::ClaimMissing
    );
    let (jwks, t) = token_with(&format!(r#"{{"iat":{NOW},"exp":{}}}"#, NOW - 10));
    assert_eq!(
        code(jws::verify(&t, Typ::Access, &jwks, &ClaimChecks::at(NOW))),
        ErrorCode::ClaimInvalid
    );
    let base = format!(r#""iat":{NOW},"exp":{exp}"#);
    let cases = [
        (format!(r#"{{{base}}}"#), ErrorCode::ClaimMissing),
        (
            format!(r#"{{{base},"iss":"https://evil.example","aud":"ekl:agent:prov"}}"#),
            ErrorCode::IssuerMismatch,
        ),
        (
            format!(r#"{{{base},"iss":"{ISS}/","aud":"ekl:agent:prov"}}"#),
            ErrorCode::IssuerMismatch,
        ),
        (
            format!(r#"{{{base},"iss":7,"aud":"ekl:agent:prov"}}"#),
            ErrorCode::ClaimInvalid,
        ),
        (
            format!(r#"{{{base},"iss":"{ISS}"}}"#),
            ErrorCode::ClaimMissing,
        ),
        (
            format!(r#"{{{base},"iss":"{ISS}","aud":"ekl:agent:PROV"}}"#),
            ErrorCode::AudienceMismatch,
        ),
        (
            format!(r#"{{{base},"iss":"{ISS}","aud":"prov"}}"#),
            ErrorCode::AudienceMismatch,
        ),
        (
            format!(r#"{{{base},"iss":"{ISS}","aud":["ekl:agent:prov","ekl:agent:x"]}}"#),
            ErrorCode::AudienceMismatch,
        ),
        (
            format!(r#"{{{base},"iss":"{ISS}","aud":[]}}"#),
            ErrorCode::AudienceMismatch,
        ),
        (
            format!(r#"{{{base},"iss":"{ISS}","aud":7}}"#),
            ErrorCode::ClaimInvalid,
        ),
    ];
    for (text, expected) in cases {
        let (jwks, t) = token_with(&text);
        assert_eq!(
            code(jws::verify(&t, Typ::Access, &jwks, &checks())),
            expected,
            "{text}"
        );
    }
    let (jwks, t) = token_with(&format!(
        r#"{{{base},"iss":"{ISS}","aud":["ekl:agent:prov"]}}"#
    ));
    assert!(jws::verify(&t, Typ::Access, &jwks, &checks()).is_ok());
}

#[test]
fn lifetime_bounds_of_each_credential() {
    let (jwks, keys) = keys();
    let k = &keys[0];
    let sign = |typ, text: &str| jws::sign(typ, &claims(text), k).unwrap();
    // relationship assertion: 120 s
    let assertion = |life: i64, extra: &str| {
        sign(
            Typ::Relationship,
            &format!(
                r#"{{"iss":"{ISS}","sub":"agt_req","aud":"https://prov.example/token","iat":{NOW},"exp":{},
                "jti":"j1","org":"org_1","auth_profile":"ekl-auth-1.1","con":"con_1","rel_ver":3,"dsc_ver":"7",
                "caps":[{{"id":"cap.search","ver":1}}]{extra}}}"#,
                NOW + life
            ),
        )
    };
    let verify_a = |t: &str| {
        credential::verify_relationship_assertion(t, &jwks, ISS, "https://prov.example/token", NOW)
    };
    let a = verify_a(&assertion(120, "")).unwrap();
    assert_eq!(a.sub, "agt_req");
    assert_eq!(a.caps.len(), 1);
    assert_eq!(
        code(verify_a(&assertion(121, ""))),
        ErrorCode::LifetimeTooLong
    );
    let t = assertion(60, "");
    let wrong_profile = claims(&format!(
        r#"{{"iss":"{ISS}","sub":"a","aud":"https://prov.example/token","iat":{NOW},"exp":{},"jti":"j","org":"o",
        "auth_profile":"ekl-auth-1.0","con":"c","rel_ver":1,"dsc_ver":1,"caps":[{{"id":"x","ver":"1"}}]}}"#,
        NOW + 60
    ));
    let wt = jws::sign(Typ::Relationship, &wrong_profile, k).unwrap();
    assert_eq!(code(verify_a(&wt)), ErrorCode::ClaimInvalid);
    assert_eq!(
        code(credential::verify_relationship_assertion(
            &t,
            &jwks,
            ISS,
            "https://other/token",
            NOW
        )),
        ErrorCode::AudienceMismatch
    );
    // missing each required claim
    for name in [
        "sub",
        "jti",
        "org",
        "auth_profile",
        "con",
        "rel_ver",
        "dsc_ver",
        "caps",
    ] {
        let mut c = claims(&format!(
            r#"{{"iss":"{ISS}","sub":"a","aud":"https://prov.example/token","iat":{NOW},"exp":{},"jti":"j","org":"o",
            "auth_profile":"ekl-auth-1.1","con":"c","rel_ver":1,"dsc_ver":1,"caps":[{{"id":"x","ver":"1"}}]}}"#,
            NOW + 60
        ));
        if let Value::Object(m) = &mut c {
            m.retain(|(k, _)| k != name);
        }
        let t = jws::sign(Typ::Relationship, &c, k).unwrap();
        assert_eq!(code(verify_a(&t)), ErrorCode::ClaimMissing, "{name}");
    }
    // platform call credential: 60 s, purpose
    let pc = |life: i64, purpose: &str| {
        sign(
            Typ::PlatformCall,
            &format!(
                r#"{{"iss":"{ISS}","aud":"agt_x","iat":{NOW},"exp":{},"jti":"p1","purpose":"{purpose}"}}"#,
                NOW + life
            ),
        )
    };
    let ok = credential::verify_platform_call(
        &pc(60, "deliver"),
        &jwks,
        ISS,
        Some("agt_x"),
        Purpose::Deliver,
        NOW,
    )
    .unwrap();
    assert_eq!(ok.purpose, Purpose::Deliver);
    assert_eq!(
        code(credential::verify_platform_call(
            &pc(61, "deliver"),
            &jwks,
            ISS,
            None,
            Purpose::Deliver,
            NOW
        )),
        ErrorCode::LifetimeTooLong
    );
    for p in Purpose::ALL {
        for expected in Purpose::ALL {
            let r = credential::verify_platform_call(
                &pc(60, p.as_str()),
                &jwks,
                ISS,
                None,
                expected,
                NOW,
            );
            if p == expected {
                assert!(r.is_ok());
            } else {
                // The message names the purpose received and the one accepted.
                let e = r.expect_err("refused");
                assert_eq!(e.code(), ErrorCode::PurposeMismatch);
                assert_eq!(
                    e.message(),
                    format!(
                        "purpose is {}, this call accepts {}",
                        p.as_str(),
                        expected.as_str()
                    )
                );
            }
        }
    }
    assert_eq!(
        code(credential::verify_platform_call(
            &pc(60, "Deliver"),
            &jwks,
            ISS,
            None,
            Purpose::Deliver,
            NOW
        )),
        ErrorCode::ClaimInvalid
    );
    // execution grant: 600 s, aud ekl:agent:{provider}
    let grant = |life: i64, aud: &str| {
        sign(
            Typ::ExecutionGrant,
            &format!(
                r#"{{"iss":"{ISS}","aud":"{aud}","iat":{NOW},"exp":{}}}"#,
                NOW + life
            ),
        )
    };
    assert!(credential::verify_execution_grant(
        &grant(600, "ekl:agent:prov"),
        &jwks,
        ISS,
        "prov",
        NOW
    )
    .is_ok());
    assert_eq!(
        code(credential::verify_execution_grant(
            &grant(601, "ekl:agent:prov"),
            &jwks,
            ISS,
            "prov",
            NOW
        )),
        ErrorCode::LifetimeTooLong
    );
    assert_eq!(
        code(credential::verify_execution_grant(
            &grant(60, "prov"),
            &jwks,
            ISS,
            "prov",
            NOW
        )),
        ErrorCode::AudienceMismatch
    );
    // access token: 900 s
    let access = |life: i64| {
        sign(
            Typ::Access,
            &format!(
                r#"{{"iss":"{ISS}","aud":"ekl:agent:prov","iat":{NOW},"exp":{}}}"#,
                NOW + life
            ),
        )
    };
    assert!(credential::verify_access_token(&access(900), &jwks, ISS, "prov", NOW).is_ok());
    assert_eq!(
        code(credential::verify_access_token(
            &access(901),
            &jwks,
            ISS,
            "prov",
            NOW
        )),
        ErrorCode::LifetimeTooLong
    );
    // revocation feed: aud the provider's agent id, exp optional
    let feed = sign(
        Typ::RevocationFeed,
        &format!(
            r#"{{"iss":"{ISS}","aud":"agt_prov","iat":{NOW},"after":"0","next":"5","items":[]}}"#
        ),
    );
    let f = credential::verify_revocation_feed(&feed, &jwks, ISS, "agt_prov", NOW).unwrap();
    assert_eq!(f.exp, None);
    assert_eq!(
        code(credential::verify_revocation_feed(
            &feed,
            &jwks,
            ISS,
            "agt_other",
            NOW
        )),
        ErrorCode::AudienceMismatch
    );
    // a feed token offered as an access token
    assert_eq!(
        code(credential::verify_access_token(
            &feed, &jwks, ISS, "prov", NOW
        )),
        ErrorCode::TypMismatch
    );
}

fn receipt_fields() -> Value<'static> {
    claims(
        r#"{"receipt_version":"1.2","receipt_id":"rcp_1","execution_kind":"customer",
        "requester_agent_id":"agt_cons","provider_agent_id":"agt_prov","execution_id":"exe_1",
        "capability_id":"cap.search","capability_version":"1.0.0",
        "input_fingerprint":"46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c",
        "output_fingerprint":"0000000000000000000000000000000000000000000000000000000000000000",
        "status":"succeeded","issued_at":"2026-05-28T20:26:40.250Z","auth_profile":"ekl-evidence-sig-1.2"}"#,
    )
}

fn call() -> CallContext<'static> {
    CallContext {
        execution_id: "exe_1",
        provider_agent_id: "agt_prov",
        requester_agent_id: "agt_cons",
        capability_id: "cap.search",
        input_fingerprint: "46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c",
        own_agent_id: "agt_cons",
        network_issuer: ISS,
        sent_at: NOW - 5,
        received_at: NOW + 2,
    }
}

#[test]
fn receipt_object_and_jws_verify() {
    let (jwks, keys) = keys();
    let receipt = receipt_sig::issue_receipt(&receipt_fields(), &keys[1], ISS, "agt_cons").unwrap();
    let v = receipt_sig::verify_receipt(&receipt, &jwks, &call()).unwrap();
    assert!(v.accepted, "{:?}", v.failed());
    assert_eq!(v.checks.len(), 13);
    let token = receipt.get("receipt_jws").unwrap().as_str().unwrap();
    assert_eq!(
        v.receipt_digest.as_deref(),
        Some(ekl_core::digest::sha256_hex(token.as_bytes()).as_str())
    );
    // tamper the object: the object signature fails and the object no longer matches the JWS
    let mut tampered = receipt.clone();
    if let Value::Object(m) = &mut tampered {
        for (k, v) in m.iter_mut() {
            if k == "status" {
                *v = Value::from("failed_before_effect");
            }
        }
    }
    let v = receipt_sig::verify_receipt(&tampered, &jwks, &call()).unwrap();
    assert!(!v.accepted);
    assert_eq!(v.failed(), vec!["object_signature", "object_matches_jws"]);
    // the object signature does not cover receipt_jws: swapping in a high-S twin keeps it valid
    let sig = receipt.get("signature").unwrap().as_str().unwrap();
    let twin = base64url::encode(&high_s(&base64url::decode(sig).unwrap()));
    let mut twin_receipt = receipt.clone();
    if let Value::Object(m) = &mut twin_receipt {
        for (k, v) in m.iter_mut() {
            if k == "signature" {
                *v = Value::from(twin.clone());
            }
        }
    }
    assert!(
        receipt_sig::verify_receipt(&twin_receipt, &jwks, &call())
            .unwrap()
            .accepted
    );
    // unknown key_id is an error (fetch the key set again)
    let (_, other) = jwks_from_seed(&[0x33; 32], &["net-7"]).unwrap();
    let foreign =
        receipt_sig::issue_receipt(&receipt_fields(), &other[0], ISS, "agt_cons").unwrap();
    assert_eq!(
        code(receipt_sig::verify_receipt(&foreign, &jwks, &call())),
        ErrorCode::UnknownKid
    );
}

#[test]
fn receipt_jws_checks_each_call_field() {
    let (jwks, keys) = keys();
    let receipt = receipt_sig::issue_receipt(&receipt_fields(), &keys[0], ISS, "agt_cons").unwrap();
    let token = receipt
        .get("receipt_jws")
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned();
    let base = call();
    let cases: Vec<(CallContext<'static>, &str, Outcome)> = vec![
        (
            CallContext {
                execution_id: "exe_2",
                ..base
            },
            "execution_id",
            Outcome::Fail,
        ),
        (
            CallContext {
                provider_agent_id: "agt_x",
                ..base
            },
            "provider_agent_id",
            Outcome::Fail,
        ),
        (
            CallContext {
                requester_agent_id: "agt_x",
                ..base
            },
            "requester_agent_id",
            Outcome::Fail,
        ),
        (
            CallContext {
                capability_id: "cap.other",
                ..base
            },
            "capability_id",
            Outcome::Fail,
        ),
        (
            CallContext {
                input_fingerprint: "00",
                ..base
            },
            "input_fingerprint",
            Outcome::Mismatch,
        ),
        (
            CallContext {
                own_agent_id: "agt_x",
                ..base
            },
            "aud",
            Outcome::Fail,
        ),
        (
            CallContext {
                network_issuer: "https://x",
                ..base
            },
            "iss",
            Outcome::Fail,
        ),
        (
            CallContext {
                sent_at: NOW + 61,
                received_at: NOW + 100,
                ..base
            },
            "iat_in_call_window",
            Outcome::Fail,
        ),
        (
            CallContext {
                sent_at: NOW - 200,
                received_at: NOW - 61,
                ..base
            },
            "iat_in_call_window",
            Outcome::Fail,
        ),
    ];
    for (c, name, outcome) in cases {
        let v = receipt_sig::verify_receipt_jws(&token, &jwks, &c).unwrap();
        assert!(!v.accepted);
        assert_eq!(v.failed(), vec![name]);
        assert_eq!(v.check(name).unwrap().outcome, outcome);
    }
    // window edges inclusive
    for c in [
        CallContext {
            sent_at: NOW + 60,
            received_at: NOW + 100,
            ..base
        },
        CallContext {
            sent_at: NOW - 200,
            received_at: NOW - 60,
            ..base
        },
    ] {
        assert!(
            receipt_sig::verify_receipt_jws(&token, &jwks, &c)
                .unwrap()
                .accepted
        );
    }
    assert_eq!(
        code(receipt_sig::verify_receipt_jws(
            &token,
            &jwks,
            &CallContext {
                sent_at: NOW,
                received_at: NOW - 1,
                ..base
            }
        )),
        ErrorCode::InvalidArgument
    );
    // wrong typ / wrong alg header keeps a verdict
    let claims_only = {
        let parts = jws::decode(&token).unwrap();
        canonical::parse(&parts.payload).unwrap().into_owned()
    };
    let t = jws::sign(Typ::Access, &claims_only, &keys[0]).unwrap();
    let v = receipt_sig::verify_receipt_jws(&t, &jwks, &base).unwrap();
    assert_eq!(v.failed(), vec!["alg_typ"]);
    // iat different from issued_at
    let mut c2 = claims_only.clone();
    if let Value::Object(m) = &mut c2 {
        for (k, v) in m.iter_mut() {
            if k == "iat" {
                *v = Value::Number((NOW + 1) as f64);
            }
        }
    }
    let t = jws::sign(Typ::Receipt, &c2, &keys[0]).unwrap();
    let v = receipt_sig::verify_receipt_jws(&t, &jwks, &base).unwrap();
    assert_eq!(v.failed(), vec!["iat_matches_issued_at"]);
    // tampered payload (signature by the original)
    let segs: Vec<&str> = token.split('.').collect();
    let forged_claims = canonical::canonicalize_value(&c2).unwrap();
    let forged = format!(
        "{}.{}.{}",
        segs[0],
        base64url::encode(&forged_claims),
        segs[2]
    );
    let v = receipt_sig::verify_receipt_jws(&forged, &jwks, &base).unwrap();
    assert_eq!(v.failed(), vec!["signature", "iat_matches_issued_at"]);
}

#[test]
fn screening_rules_token() {
    let (jwks, keys) = keys();
    let exp = NOW + 3600;
    let rules = claims(&format!(
        r#"{{"iss":"{ISS}","iat":{NOW},"exp":{exp},"rules_version":"2026-05-01",
        "rules":[{{"rule_id":"r1","category":"weapons","phrases":["build a bomb"]}}]}}"#
    ));
    let t = jws::sign(Typ::ScreeningRules, &rules, &keys[0]).unwrap();
    let r = verify_screening_rules(&t, &jwks, ISS, exp - 1).unwrap();
    assert_eq!(r.rules_version, "2026-05-01");
    assert_eq!(r.ruleset.rules[0].phrases, vec!["build a bomb"]);
    // never after exp, no skew: exp itself is refused
    assert_eq!(
        code(verify_screening_rules(&t, &jwks, ISS, exp)),
        ErrorCode::TokenExpired
    );
    assert_eq!(
        code(verify_screening_rules(&t, &jwks, "https://x", NOW)),
        ErrorCode::IssuerMismatch
    );
    let as_receipt = jws::sign(Typ::Receipt, &rules, &keys[0]).unwrap();
    assert_eq!(
        code(verify_screening_rules(&as_receipt, &jwks, ISS, NOW)),
        ErrorCode::TypMismatch
    );
    for bad in [
        r#""rules":{}"#,
        r#""rules":[{"rule_id":"r1","category":"c"}]"#,
        r#""rules":[{"rule_id":"","category":"c","phrases":[]}]"#,
        r#""rules":[{"rule_id":"r","category":"c","phrases":[1]}]"#,
    ] {
        let c = claims(&format!(
            r#"{{"iss":"{ISS}","iat":{NOW},"exp":{exp},"rules_version":"v",{bad}}}"#
        ));
        let t = jws::sign(Typ::ScreeningRules, &c, &keys[0]).unwrap();
        assert_eq!(
            code(verify_screening_rules(&t, &jwks, ISS, NOW)),
            ErrorCode::ClaimInvalid,
            "{bad}"
        );
    }
}
