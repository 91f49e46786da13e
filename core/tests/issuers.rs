//! The per-type issuers (issue 38 point 5): what `sign` signs but a typed verifier refuses is
//! refused by the type's issuer, with the verifier's code; what an issuer issues, its verifier
//! accepts. The vector cases (credentials-jws.json through vectors/calls.jsonl) pin the codes and
//! the tokens byte for byte; here the cases the issue names and the round trip of each type.

use ekl_core::credential::{self, Purpose};
use ekl_core::jwk::{Jwks, SigningKey};
use ekl_core::jws::{self, Typ};
use ekl_core::{canonical, ErrorCode, Value};

const ISS: &str = "https://network.example";
const IAT: i64 = 1_780_000_000;

fn key() -> SigningKey {
    SigningKey::from_seed(&[7u8; 32], "net-1").expect("a key")
}

fn jwks() -> Jwks {
    Jwks::from_keys(vec![key().public_jwk()]).expect("a key set")
}

fn claims(text: &str) -> Value<'static> {
    canonical::parse(text.as_bytes())
        .expect("json")
        .into_owned()
}

fn assertion(lifetime: i64, caps: bool) -> Value<'static> {
    let caps = if caps {
        r#","caps":[{"id":"listing.search","ver":1}]"#
    } else {
        ""
    };
    claims(&format!(
        r#"{{"iss":"{ISS}","aud":"https://p.example/token","iat":{IAT},"exp":{},"sub":"agt_c","jti":"j1",
           "org":"org_1","auth_profile":"ekl-auth-1.1","con":"con_1","rel_ver":1,"dsc_ver":2{caps}}}"#,
        IAT + lifetime
    ))
}

#[test]
fn sign_jws_signs_what_the_typed_verifier_refuses_and_the_issuer_does_not() {
    for (claims, code) in [
        (assertion(300, true), ErrorCode::LifetimeTooLong),
        (assertion(60, false), ErrorCode::ClaimMissing),
    ] {
        // The generic signer signs it ...
        let token = jws::sign(Typ::Relationship, &claims, &key()).expect("signed");
        let verified = credential::verify_relationship_assertion(
            &token,
            &jwks(),
            ISS,
            "https://p.example/token",
            IAT,
        );
        assert_eq!(verified.map(|_| ()).map_err(|e| e.code()), Err(code));
        // ... the issuer refuses it with the verifier's code.
        let issued = credential::issue_relationship_assertion(&claims, &key());
        assert_eq!(issued.map_err(|e| e.code()), Err(code));
    }
}

#[test]
fn every_issuer_issues_what_its_verifier_accepts() {
    let k = key();
    let token = credential::issue_relationship_assertion(&assertion(120, true), &k).unwrap();
    credential::verify_relationship_assertion(
        &token,
        &jwks(),
        ISS,
        "https://p.example/token",
        IAT + 30,
    )
    .expect("accepted");

    let pc = claims(&format!(
        r#"{{"iss":"{ISS}","iat":{IAT},"exp":{},"jti":"pc1","purpose":"deliver"}}"#,
        IAT + 60
    ));
    let token = credential::issue_platform_call(&pc, &k).unwrap();
    credential::verify_platform_call(&token, &jwks(), ISS, None, Purpose::Deliver, IAT)
        .expect("accepted");
    let bad = claims(&format!(
        r#"{{"iss":"{ISS}","iat":{IAT},"exp":{},"jti":"pc1","purpose":"deliver"}}"#,
        IAT + 61
    ));
    assert_eq!(
        credential::issue_platform_call(&bad, &k).map_err(|e| e.code()),
        Err(ErrorCode::LifetimeTooLong)
    );
    let no_purpose = claims(&format!(
        r#"{{"iss":"{ISS}","iat":{IAT},"exp":{},"jti":"pc1"}}"#,
        IAT + 60
    ));
    assert_eq!(
        credential::issue_platform_call(&no_purpose, &k).map_err(|e| e.code()),
        Err(ErrorCode::ClaimMissing)
    );

    let grant = claims(&format!(
        r#"{{"iss":"{ISS}","aud":"ekl:agent:agt_p","iat":{IAT},"exp":{}}}"#,
        IAT + 600
    ));
    let token = credential::issue_execution_grant(&grant, &k).unwrap();
    credential::verify_execution_grant(&token, &jwks(), ISS, "agt_p", IAT).expect("accepted");
    let other_aud = claims(&format!(
        r#"{{"iss":"{ISS}","aud":"agt_p","iat":{IAT},"exp":{}}}"#,
        IAT + 60
    ));
    assert_eq!(
        credential::issue_execution_grant(&other_aud, &k).map_err(|e| e.code()),
        Err(ErrorCode::AudienceMismatch)
    );

    let access = claims(&format!(
        r#"{{"iss":"{ISS}","aud":["ekl:agent:agt_p"],"iat":{IAT},"exp":{}}}"#,
        IAT + 900
    ));
    let token = credential::issue_access_token(&access, &k).unwrap();
    credential::verify_access_token(&token, &jwks(), ISS, "agt_p", IAT).expect("accepted");

    let feed = claims(&format!(
        r#"{{"iss":"{ISS}","aud":"agt_p","iat":{IAT},"items":[]}}"#
    ));
    let token = credential::issue_revocation_feed(&feed, &k).unwrap();
    credential::verify_revocation_feed(&token, &jwks(), ISS, "agt_p", IAT).expect("accepted");
    let no_iss = claims(&format!(r#"{{"aud":"agt_p","iat":{IAT}}}"#));
    assert!(credential::issue_revocation_feed(&no_iss, &k).is_err());
}

#[test]
fn a_token_valid_from_a_later_nbf_is_checked_at_its_first_valid_second() {
    let mut c = assertion(120, true);
    if let Value::Object(m) = &mut c {
        m.push(("nbf".into(), Value::from_i64(IAT + 100).unwrap()));
    }
    // Valid from nbf (100 s after iat) until exp + skew: issued.
    credential::issue_relationship_assertion(&c, &key()).expect("issued");
}

/// Issue 41: every issuer applied the verifiers' time rule to nothing, so a time in milliseconds
/// (10^11 s or more) was signed, though no verifier takes a `now` that late: the first valid
/// second there is `TOKEN_NOT_YET_VALID` (the verifiers' answer at every `now` they take), an
/// `exp` there `CLAIM_INVALID`, for every type.
/// An issuer of `credential` (claims and key in, a token out).
type Issuer = fn(&Value<'_>, &SigningKey) -> ekl_core::Result<String>;

#[test]
fn times_in_milliseconds_are_refused_by_every_issuer() {
    const MS: i64 = 100_000_000_000;
    let k = key();
    let iat_ms = IAT * 1000;
    let cases: [(&str, Issuer, String); 5] = [
        (
            "relationship assertion",
            credential::issue_relationship_assertion,
            r#""aud":"https://p.example/token","sub":"agt_c","jti":"j1","org":"org_1","auth_profile":"ekl-auth-1.1","con":"con_1","rel_ver":1,"dsc_ver":2,"caps":[{"id":"listing.search","ver":1}]"#
                .to_owned(),
        ),
        (
            "platform call",
            credential::issue_platform_call,
            r#""jti":"pc1","purpose":"deliver""#.to_owned(),
        ),
        (
            "execution grant",
            credential::issue_execution_grant,
            r#""aud":"ekl:agent:agt_p""#.to_owned(),
        ),
        (
            "revocation feed",
            credential::issue_revocation_feed,
            r#""aud":"agt_p","items":[]"#.to_owned(),
        ),
        (
            "access token",
            credential::issue_access_token,
            r#""aud":"ekl:agent:agt_p""#.to_owned(),
        ),
    ];
    for (name, issue, rest) in cases {
        let with = |iat: i64, exp: i64, nbf: Option<i64>| {
            let nbf = nbf.map(|n| format!(r#","nbf":{n}"#)).unwrap_or_default();
            claims(&format!(
                r#"{{"iss":"{ISS}","iat":{iat},"exp":{exp}{nbf},{rest}}}"#
            ))
        };
        let code = |c: Value<'_>| issue(&c, &k).map(|_| ()).map_err(|e| e.code());
        assert_eq!(code(with(IAT, IAT + 60, None)), Ok(()), "{name}");
        assert_eq!(
            code(with(iat_ms, iat_ms + 60_000, None)),
            Err(ErrorCode::TokenNotYetValid),
            "{name}: iat and exp in ms"
        );
        assert_eq!(
            code(with(MS, MS + 60, None)),
            Err(ErrorCode::TokenNotYetValid),
            "{name}: iat at 10^11"
        );
        assert_eq!(
            code(with(MS - 60, MS - 1, None)),
            Ok(()),
            "{name}: the last second a verifier takes"
        );
        assert_eq!(
            code(with(MS - 60, MS, None)),
            Err(ErrorCode::ClaimInvalid),
            "{name}: exp at 10^11"
        );
        assert_eq!(
            code(with(IAT, IAT + 60, Some(MS))),
            Err(ErrorCode::TokenNotYetValid),
            "{name}: nbf at 10^11"
        );
    }
    // A seconds iat with an exp in ms: the feed (no lifetime bound) was issued and accepted.
    let feed = claims(&format!(
        r#"{{"iss":"{ISS}","aud":"agt_p","iat":{IAT},"exp":{},"items":[]}}"#,
        iat_ms + 60_000
    ));
    assert_eq!(
        credential::issue_revocation_feed(&feed, &k).map_err(|e| e.code()),
        Err(ErrorCode::ClaimInvalid)
    );
}
