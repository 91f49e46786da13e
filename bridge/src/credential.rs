//! Wire shapes of the per-type credential verifiers (`verify_relationship_assertion`,
//! `verify_platform_call`, `verify_revocation_feed`, `verify_access_token`; docs/decisions.md#jws,
//! "12. Credential verifiers as operations").
//!
//! Each result is the verified token as `verify_jws` gives it (`{claims, header, kid,
//! token_sha256, typ}`) plus the type's own members, flat: `iss`, `iat`, `exp` for every type
//! (`exp` is `null` on a revocation feed without one), then `sub aud jti org con rel_ver dsc_ver
//! caps` for a relationship assertion and `jti purpose` for a platform call credential. Written
//! member by member, as `verify_jws`'s result is: claims may reach the depth limit one level down.

use ekl_core::canonical;
use ekl_core::credential::{Credential, PlatformCall, RelationshipAssertion};
use ekl_core::{Result, Value};

use crate::args::Out;

/// The verified token and `extra` members, in canonical order (every name is ASCII).
fn write(c: &Credential, extra: Vec<(&'static str, Value<'static>)>) -> Result<Out> {
    let v = &c.verified;
    let exp = match c.exp {
        Some(exp) => Value::from_i64(exp)?,
        None => Value::Null,
    };
    let mut members: Vec<(&str, Vec<u8>)> = vec![
        ("claims", canonical::canonicalize_value(&v.claims)?),
        ("header", canonical::canonicalize_value(&v.header)?),
        ("exp", canonical::canonicalize_value(&exp)?),
        (
            "iat",
            canonical::canonicalize_value(&Value::from_i64(c.iat)?)?,
        ),
    ];
    let mut string = |name: &'static str, text: &str| {
        let mut out = Vec::with_capacity(text.len() + 2);
        canonical::write_string(text, &mut out);
        members.push((name, out));
    };
    string("iss", &c.iss);
    string("kid", &v.kid);
    string("token_sha256", &v.token_sha256);
    string("typ", v.typ.as_str());
    for (name, value) in extra {
        members.push((name, canonical::canonicalize_value(&value)?));
    }
    // An insertion sort (at most 16 distinct names): the standard library's sort would be one
    // more instantiation in the wasm verify build (docs/decisions/wasm.md#verify-build).
    for i in 1..members.len() {
        let mut j = i;
        while j > 0 && members[j - 1].0 > members[j].0 {
            members.swap(j - 1, j);
            j -= 1;
        }
    }
    let mut out = Vec::new();
    for (i, (name, bytes)) in members.iter().enumerate() {
        out.push(if i == 0 { b'{' } else { b',' });
        canonical::write_string(name, &mut out);
        out.push(b':');
        out.extend_from_slice(bytes);
    }
    out.push(b'}');
    Ok(Out::Json(out))
}

/// `VerifiedRelationshipAssertion`.
pub(crate) fn relationship_assertion(a: RelationshipAssertion) -> Result<Out> {
    let caps = a
        .caps
        .into_iter()
        .map(|cap| {
            Value::Object(vec![
                ("id".into(), Value::from(cap.id)),
                ("ver".into(), cap.ver),
            ])
        })
        .collect();
    write(
        &a.credential,
        vec![
            ("sub", Value::from(a.sub)),
            ("aud", Value::from(a.aud)),
            ("jti", Value::from(a.jti)),
            ("org", Value::from(a.org)),
            ("con", Value::from(a.con)),
            ("rel_ver", a.rel_ver),
            ("dsc_ver", a.dsc_ver),
            ("caps", Value::Array(caps)),
        ],
    )
}

/// `VerifiedPlatformCall`.
pub(crate) fn platform_call(p: PlatformCall) -> Result<Out> {
    write(
        &p.credential,
        vec![
            ("jti", Value::from(p.jti)),
            ("purpose", Value::from(p.purpose.as_str())),
        ],
    )
}

/// `VerifiedRevocationFeed` and `VerifiedAccessToken`: the registered members only.
pub(crate) fn registered(c: &Credential) -> Result<Out> {
    write(c, Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ekl_core::credential::{self, Purpose};
    use ekl_core::jwk::jwks_from_seed;
    use ekl_core::jws::{self, Typ};

    const ISS: &str = "https://net.example";

    fn text(out: Out) -> String {
        String::from_utf8(out.to_json().expect("json")).expect("utf-8")
    }

    #[test]
    fn members_are_flat_sorted_and_exp_null_when_absent() {
        let (jwks, keys) = jwks_from_seed(&[5u8; 32], &["k1"]).expect("keys");
        let claims = canonical::parse(
            br#"{"iss":"https://net.example","aud":"agt_p","iat":1000,"items":[]}"#,
        )
        .expect("claims");
        let token = jws::sign(Typ::RevocationFeed, &claims, &keys[0]).expect("sign");
        let c = credential::verify_revocation_feed(&token, &jwks, ISS, "agt_p", 1000).expect("ok");
        let got = text(registered(&c).expect("out"));
        let parsed = canonical::parse(got.as_bytes()).expect("canonical json");
        let names: Vec<&str> = parsed
            .as_object()
            .expect("object")
            .iter()
            .map(|(k, _)| k.as_ref())
            .collect();
        assert_eq!(
            names,
            [
                "claims",
                "exp",
                "header",
                "iat",
                "iss",
                "kid",
                "token_sha256",
                "typ"
            ]
        );
        assert_eq!(parsed.get("exp"), Some(&Value::Null));
        assert_eq!(
            parsed.get("typ").and_then(Value::as_str),
            Some("ekl-revocation-feed+jwt")
        );
        // The text is canonical: writing it again changes nothing.
        assert_eq!(
            canonical::canonicalize(got.as_bytes()).expect("canon"),
            got.as_bytes()
        );

        let claims = canonical::parse(
            br#"{"iss":"https://net.example","iat":1000,"exp":1060,"jti":"j1","purpose":"deliver"}"#,
        )
        .expect("claims");
        let token = jws::sign(Typ::PlatformCall, &claims, &keys[0]).expect("sign");
        let p = credential::verify_platform_call(&token, &jwks, ISS, None, Purpose::Deliver, 1000)
            .expect("ok");
        let got = text(platform_call(p).expect("out"));
        assert!(got.contains(r#""exp":1060,"header":"#), "{got}");
        assert!(
            got.contains(r#""jti":"j1","kid":"k1","purpose":"deliver","token_sha256":"#),
            "{got}"
        );
    }
}
