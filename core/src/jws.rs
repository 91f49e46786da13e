//! Compact JWS with ES256 only and an explicit `typ` (PROTOCOL §3, §9.2; RFC 7515, RFC 7518 §3.4,
//! RFC 7519; SPEC §7).
//!
//! [`verify`] refuses everything EKP refuses, including what lenient JOSE libraries accept. In order:
//!
//! 1. three segments separated by `.` (`JWS_MALFORMED`), each strict base64url
//!    (`INVALID_BASE64URL`: no padding, no `+` `/`, no whitespace, no stray trailing bits);
//! 2. the header is a JSON object read by the core's parser (`JWS_MALFORMED`), without duplicate
//!    members (`DUPLICATE_KEY`);
//! 3. `alg` exactly `ES256` (`ALG_NOT_ALLOWED`: `none`, `HS256`, `ES384`, `es256`, a missing or
//!    non-string `alg`); `crit` present in any form (`CRIT_NOT_SUPPORTED`); `typ` exactly the
//!    expected [`Typ`] (`TYP_MISMATCH`: no `application/` prefix, no case folding, no other EKP type);
//!    `kid` a non-empty string (`KID_MISSING`) that the key set holds (`UNKNOWN_KID`, so the caller
//!    can fetch the key set again). `jwk`, `jku`, `x5u`, `x5c` are never used to find a key;
//! 4. the signature: raw r‖s, exactly 64 bytes, r and s in [1, n − 1], verifying over the ASCII
//!    signing input with the `kid`'s key (`SIGNATURE_INVALID`); high-S signatures are valid (ECDSA is
//!    malleable: never key anything on a token's bytes alone);
//! 5. only then is the payload parsed: a JSON object (`JWS_MALFORMED`), no duplicate members
//!    (`DUPLICATE_KEY`);
//! 6. the claims the caller asks for ([`ClaimChecks`]): `iss`, `aud`, `exp`, `nbf`, `iat`, lifetime.
//!
//! ## Time (decided; docs/decisions.md#jws)
//! Time claims are NumericDates restricted to integers in [0, 2^53] (`CLAIM_INVALID` otherwise: a
//! fraction, a negative value, `1e308`, a string). With skew S (60 s for credentials):
//! a token is expired when `now >= exp + S` (RFC 7519 §4.1.4 "the current time MUST be before exp",
//! widened by S; `exp + 59` is the last accepted second), and not yet valid when
//! `nbf > now + S` or `iat > now + S` (`now + S == nbf` is accepted). The same rule with S = 0 is the
//! screening-rules rule "never used after exp": refused from `now == exp` on.

use crate::base64url;
use crate::canonical;
use crate::digest::sha256_hex;
use crate::error::{Error, ErrorCode, Result};
#[cfg(feature = "signing")]
use crate::jwk::SigningKey;
use crate::jwk::{Jwks, PublicJwk, ES256};
use crate::value::{Value, MAX_SAFE_INTEGER_BOUND};

/// The clock skew EKP allows on `iat`, `nbf` and `exp` (PROTOCOL §9.2, §9.5.1): 60 seconds.
pub const SKEW_SECONDS: i64 = 60;

/// The largest time claim accepted, in seconds: 2^53 (any larger value has no exact integer form
/// in every JSON implementation).
pub const MAX_TIME: i64 = MAX_SAFE_INTEGER_BOUND as i64;

/// The seven signed types of EKP 1.2 (PROTOCOL §3, §15.1). A verifier names exactly one; no signed
/// type is accepted where another is expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Typ {
    /// `ekl-relationship+jwt`: the relationship assertion (§9.1).
    Relationship,
    /// `ekl-platform-call+jwt`: the platform call credential (§3, §4).
    PlatformCall,
    /// `ekl-execution-grant+jwt`: the execution grant (§9.3.2).
    ExecutionGrant,
    /// `ekl-revocation-feed+jwt`: the revocation feed page and snapshot (§9.3.1).
    RevocationFeed,
    /// `ekl-receipt+jwt`: the network-signed receipt (§9.5.1).
    Receipt,
    /// `ekl-screening-rules+jwt`: the screening rules (§15.5).
    ScreeningRules,
    /// `ekl-access+jwt`: the access token of the adapter profile (§15.1).
    Access,
}

impl Typ {
    /// Every type, in the order of PROTOCOL §3 (then §15.1).
    pub const ALL: [Typ; 7] = [
        Typ::Relationship,
        Typ::PlatformCall,
        Typ::ExecutionGrant,
        Typ::RevocationFeed,
        Typ::Receipt,
        Typ::ScreeningRules,
        Typ::Access,
    ];

    /// The exact header value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Typ::Relationship => "ekl-relationship+jwt",
            Typ::PlatformCall => "ekl-platform-call+jwt",
            Typ::ExecutionGrant => "ekl-execution-grant+jwt",
            Typ::RevocationFeed => "ekl-revocation-feed+jwt",
            Typ::Receipt => "ekl-receipt+jwt",
            Typ::ScreeningRules => "ekl-screening-rules+jwt",
            Typ::Access => "ekl-access+jwt",
        }
    }

    /// The type whose header value is exactly `text` (no prefix, no case folding).
    pub fn from_header(text: &str) -> Option<Typ> {
        Typ::ALL.into_iter().find(|t| t.as_str() == text)
    }
}

fn malformed(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::JwsMalformed, message)
}

/// A compact JWS split and decoded, before any check of its header or signature.
#[derive(Clone, Debug)]
pub struct Parts<'t> {
    /// The header, a JSON object without duplicate members.
    pub header: Value<'static>,
    /// The decoded payload bytes (not parsed yet).
    pub payload: Vec<u8>,
    /// The decoded signature bytes (any length).
    pub signature: Vec<u8>,
    /// The ASCII signing input `header.payload`.
    pub signing_input: &'t str,
}

/// Splits and decodes a compact JWS: three segments, strict base64url, the header a JSON object
/// without duplicates. Nothing is checked against a type or key.
pub fn decode(token: &str) -> Result<Parts<'_>> {
    let mut segments = token.split('.');
    let (Some(h), Some(p), Some(s), None) = (
        segments.next(),
        segments.next(),
        segments.next(),
        segments.next(),
    ) else {
        return Err(malformed("a compact jws has exactly three segments"));
    };
    let header_bytes = base64url::decode(h)?;
    let payload = base64url::decode(p)?;
    let signature = base64url::decode(s)?;
    let header = canonical::parse_strict(&header_bytes, "jws header", ErrorCode::JwsMalformed)?;
    if header.as_object().is_none() {
        return Err(malformed("jws header must be a json object"));
    }
    Ok(Parts {
        header: header.into_owned(),
        payload,
        signature,
        signing_input: &token[..h.len() + 1 + p.len()],
    })
}

/// Checks `alg`, `crit` and `typ` of a header, in that order.
pub fn check_alg_typ(header: &Value<'_>, expected: Typ) -> Result<()> {
    match header.get("alg") {
        Some(Value::String(alg)) if alg == ES256 => {}
        Some(Value::String(_)) => {
            return Err(Error::new(ErrorCode::AlgNotAllowed, "alg must be ES256"))
        }
        _ => {
            return Err(Error::new(
                ErrorCode::AlgNotAllowed,
                "alg must be the string ES256",
            ))
        }
    }
    if header.get("crit").is_some() {
        return Err(Error::new(
            ErrorCode::CritNotSupported,
            "crit is not supported",
        ));
    }
    match header.get("typ") {
        Some(Value::String(typ)) if typ == expected.as_str() => Ok(()),
        _ => Err(Error::new(
            ErrorCode::TypMismatch,
            format!("typ must be {}", expected.as_str()),
        )),
    }
}

/// The `kid` of a header and its key in `jwks` (`KID_MISSING`, `UNKNOWN_KID`, `UNSUPPORTED_KEY`).
pub fn find_key<'k>(header: &Value<'_>, jwks: &'k Jwks) -> Result<&'k PublicJwk> {
    let kid = match header.get("kid") {
        Some(Value::String(kid)) if !kid.is_empty() => kid,
        _ => {
            return Err(Error::new(
                ErrorCode::KidMissing,
                "kid must be a non-empty string",
            ))
        }
    };
    jwks.get(kid).ok_or_else(|| {
        if jwks.is_skipped(kid) {
            Error::new(
                ErrorCode::UnsupportedKey,
                "the key set's key of this kid is not a P-256 signing key (ES256 needs one)",
            )
        } else {
            Error::new(
                ErrorCode::UnknownKid,
                "kid is not in the key set (fetch the key set again)",
            )
        }
    })
}

/// A token whose header and signature verified.
#[derive(Clone, Debug, PartialEq)]
pub struct Verified {
    /// The protected header.
    pub header: Value<'static>,
    /// The claims (payload), a JSON object without duplicate members.
    pub claims: Value<'static>,
    /// The `kid` whose key verified the signature.
    pub kid: String,
    /// The type the token was verified as.
    pub typ: Typ,
    /// SHA-256 (lowercase hex) of the compact token's ASCII bytes (a receipt's `receipt_digest`).
    pub token_sha256: String,
}

impl Verified {
    /// The string claim `name`, if present and a string.
    pub fn claim_str(&self, name: &str) -> Option<&str> {
        self.claims.get(name).and_then(Value::as_str)
    }
}

/// Verifies header and signature (steps 1–5 of the module documentation) without any claim check.
pub fn verify_signature(token: &str, expected: Typ, jwks: &Jwks) -> Result<Verified> {
    let parts = decode(token)?;
    check_alg_typ(&parts.header, expected)?;
    let key = find_key(&parts.header, jwks)?;
    key.verify_es256(parts.signing_input.as_bytes(), &parts.signature)?;
    let claims = canonical::parse_strict(&parts.payload, "jws payload", ErrorCode::JwsMalformed)?;
    if claims.as_object().is_none() {
        return Err(malformed("jws payload must be a json object"));
    }
    Ok(Verified {
        kid: key.kid().to_owned(),
        header: parts.header,
        claims: claims.into_owned(),
        typ: expected,
        token_sha256: sha256_hex(token.as_bytes()),
    })
}

/// Verifies a token completely: header and signature, then the claims `checks` asks for.
///
/// ```
/// use ekl_core::jwk::{jwks_from_seed};
/// use ekl_core::jws::{self, ClaimChecks, Typ};
/// use ekl_core::canonical;
/// let (jwks, keys) = jwks_from_seed(&[9u8; 32], &["net-1"]).unwrap();
/// let claims = canonical::parse(br#"{"iss":"https://net.example","aud":"ekl:agent:p1","iat":1000,"exp":1060}"#).unwrap();
/// let token = jws::sign(Typ::Access, &claims, &keys[0]).unwrap();
/// let checks = ClaimChecks { issuer: Some("https://net.example"), audience: Some("ekl:agent:p1"),
///                            ..ClaimChecks::at(1030) };
/// assert!(jws::verify(&token, Typ::Access, &jwks, &checks).is_ok());
/// assert_eq!(jws::verify(&token, Typ::Receipt, &jwks, &checks).unwrap_err().code().as_str(), "TYP_MISMATCH");
/// ```
pub fn verify(
    token: &str,
    expected: Typ,
    jwks: &Jwks,
    checks: &ClaimChecks<'_>,
) -> Result<Verified> {
    let verified = verify_signature(token, expected, jwks)?;
    check_claims(&verified.claims, checks)?;
    Ok(verified)
}

/// The registered claims a caller asks to check, and the caller's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClaimChecks<'a> {
    /// `iss` must be exactly this string (`ISSUER_MISMATCH`; absent: `CLAIM_MISSING`).
    pub issuer: Option<&'a str>,
    /// `aud` must be exactly this string, or an array holding exactly this one string
    /// (`AUDIENCE_MISMATCH`; absent: `CLAIM_MISSING`).
    pub audience: Option<&'a str>,
    /// The caller's clock, seconds since the Unix epoch.
    pub now: i64,
    /// The allowed clock skew in seconds (60 for EKP credentials, 0 for screening rules).
    pub skew: i64,
    /// `exp` must be present.
    pub require_exp: bool,
    /// `iat` must be present.
    pub require_iat: bool,
    /// `exp − iat` must not exceed this many seconds (`LIFETIME_TOO_LONG`); needs both claims.
    pub max_lifetime: Option<i64>,
}

impl ClaimChecks<'static> {
    /// Checks at `now` with 60 s skew, `exp` and `iat` required, no issuer, audience or lifetime.
    pub fn at(now: i64) -> ClaimChecks<'static> {
        ClaimChecks {
            issuer: None,
            audience: None,
            now,
            skew: SKEW_SECONDS,
            require_exp: true,
            require_iat: true,
            max_lifetime: None,
        }
    }
}

/// The time claims of a token, each checked to be an integer in [0, 2^53].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeClaims {
    /// `iat`, if present.
    pub iat: Option<i64>,
    /// `exp`, if present.
    pub exp: Option<i64>,
    /// `nbf`, if present.
    pub nbf: Option<i64>,
}

/// The time claim `name`: absent → `None`; an integer in [0, 2^53] → its value; anything else
/// (a string, a fraction, a negative or huge number) → `CLAIM_INVALID`.
pub fn time_claim(claims: &Value<'_>, name: &str) -> Result<Option<i64>> {
    match claims.get(name) {
        None => Ok(None),
        Some(Value::Number(x)) if x.fract() == 0.0 && *x >= 0.0 && *x <= MAX_TIME as f64 => {
            // Exact: an integral double in [0, 2^53].
            Ok(Some(*x as i64))
        }
        Some(_) => Err(Error::new(
            ErrorCode::ClaimInvalid,
            format!("{name} must be an integer number of seconds in [0, 2^53]"),
        )),
    }
}

/// The string claim `name`: required → `CLAIM_MISSING` when absent; `CLAIM_INVALID` when not a
/// non-empty string.
pub fn str_claim<'v>(claims: &'v Value<'_>, name: &str) -> Result<&'v str> {
    match claims.get(name) {
        None => Err(Error::new(
            ErrorCode::ClaimMissing,
            format!("claim {name} is missing"),
        )),
        Some(Value::String(s)) if !s.is_empty() => Ok(s),
        Some(_) => Err(Error::new(
            ErrorCode::ClaimInvalid,
            format!("claim {name} must be a non-empty string"),
        )),
    }
}

fn require(value: Option<i64>, name: &str) -> Result<i64> {
    value.ok_or_else(|| Error::new(ErrorCode::ClaimMissing, format!("claim {name} is missing")))
}

/// Checks `iss` and `aud` as asked.
pub fn check_iss_aud(
    claims: &Value<'_>,
    issuer: Option<&str>,
    audience: Option<&str>,
) -> Result<()> {
    if let Some(expected) = issuer {
        if str_claim(claims, "iss")? != expected {
            return Err(Error::new(
                ErrorCode::IssuerMismatch,
                "iss is not the expected issuer",
            ));
        }
    }
    if let Some(expected) = audience {
        let ok = match claims.get("aud") {
            None => return Err(Error::new(ErrorCode::ClaimMissing, "claim aud is missing")),
            Some(Value::String(aud)) => aud == expected,
            Some(Value::Array(items)) => items.len() == 1 && items[0].as_str() == Some(expected),
            Some(_) => {
                return Err(Error::new(
                    ErrorCode::ClaimInvalid,
                    "claim aud must be a string",
                ))
            }
        };
        if !ok {
            return Err(Error::new(
                ErrorCode::AudienceMismatch,
                "aud is not exactly the expected audience",
            ));
        }
    }
    Ok(())
}

/// Checks the claims as `checks` asks (step 6 of the module documentation), in this order:
/// `iss`, `aud`, the form of `iat`/`exp`/`nbf`, presence, `exp`, `nbf`, `iat`, lifetime.
pub fn check_claims(claims: &Value<'_>, checks: &ClaimChecks<'_>) -> Result<TimeClaims> {
    if !(0..=MAX_TIME).contains(&checks.now) || !(0..=86_400).contains(&checks.skew) {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            "now must lie in [0, 2^53] and skew in [0, 86400]",
        ));
    }
    if checks.max_lifetime.is_some_and(|max| max < 0) {
        // A caller's mistake, as a negative skew is: not LIFETIME_TOO_LONG for every token.
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            "max_lifetime must not be negative",
        ));
    }
    check_iss_aud(claims, checks.issuer, checks.audience)?;
    let times = TimeClaims {
        iat: time_claim(claims, "iat")?,
        exp: time_claim(claims, "exp")?,
        nbf: time_claim(claims, "nbf")?,
    };
    if checks.require_iat {
        require(times.iat, "iat")?;
    }
    if checks.require_exp {
        require(times.exp, "exp")?;
    }
    let now = checks.now;
    let skew = checks.skew;
    if let Some(exp) = times.exp {
        if now >= exp + skew {
            return Err(Error::new(ErrorCode::TokenExpired, "the token expired"));
        }
    }
    if let Some(nbf) = times.nbf {
        if nbf > now + skew {
            return Err(Error::new(
                ErrorCode::TokenNotYetValid,
                "the token is not valid yet (nbf)",
            ));
        }
    }
    if let Some(iat) = times.iat {
        if iat > now + skew {
            return Err(Error::new(
                ErrorCode::TokenNotYetValid,
                "the token was issued in the future (iat)",
            ));
        }
    }
    if let (Some(iat), Some(exp)) = (times.iat, times.exp) {
        if exp < iat {
            return Err(Error::new(ErrorCode::ClaimInvalid, "exp lies before iat"));
        }
        if let Some(max) = checks.max_lifetime {
            if exp - iat > max {
                return Err(Error::new(
                    ErrorCode::LifetimeTooLong,
                    format!("exp - iat exceeds {max} s"),
                ));
            }
        }
    } else if checks.max_lifetime.is_some() {
        require(times.iat, "iat")?;
        require(times.exp, "exp")?;
    }
    Ok(times)
}

/// The checks of [`verify`] that depend on the claims alone (not on the caller's clock, issuer or
/// audience), with the codes `verify` gives: the claims are a JSON object (`JWS_MALFORMED`);
/// `iat`, `exp`, `nbf`, when present, are integers in [0, 2^53] and `exp` does not lie before
/// `iat` (`CLAIM_INVALID`); `iss`, when present, is a non-empty string (`CLAIM_INVALID`); `aud`,
/// when present, is a string (`CLAIM_INVALID` otherwise) or an array of exactly one string (an
/// array of any other form matches no audience: `AUDIENCE_MISMATCH`). [`sign`] runs them before
/// signing, so that no token it issues is refused by [`verify`] for its claims' form.
pub fn check_claims_form(claims: &Value<'_>) -> Result<()> {
    if claims.as_object().is_none() {
        return Err(malformed("jws payload must be a json object"));
    }
    if claims.get("iss").is_some() {
        str_claim(claims, "iss")?;
    }
    match claims.get("aud") {
        None | Some(Value::String(_)) => {}
        Some(Value::Array(items)) if items.len() == 1 && items[0].as_str().is_some() => {}
        Some(Value::Array(_)) => {
            return Err(Error::new(
                ErrorCode::AudienceMismatch,
                "aud as an array must hold exactly one string: no audience matches another",
            ))
        }
        Some(_) => {
            return Err(Error::new(
                ErrorCode::ClaimInvalid,
                "claim aud must be a string",
            ))
        }
    }
    let iat = time_claim(claims, "iat")?;
    let exp = time_claim(claims, "exp")?;
    time_claim(claims, "nbf")?;
    if let (Some(iat), Some(exp)) = (iat, exp) {
        if exp < iat {
            return Err(Error::new(ErrorCode::ClaimInvalid, "exp lies before iat"));
        }
    }
    Ok(())
}

/// Signs `claims` as a compact JWS of type `typ` with the header `{"alg":"ES256","kid":…,"typ":…}`
/// (ekl-json-1 of header and claims, RFC 6979 deterministic nonce: the same input gives the same
/// token). Claims that [`verify`] would refuse whatever the caller's clock, issuer and audience
/// are refused here with the same code (see `sign_checked` and `check_claims_form`).
#[cfg(feature = "signing")]
pub fn sign(typ: Typ, claims: &Value<'_>, key: &SigningKey) -> Result<String> {
    sign_checked(typ, claims, key, |_| Ok(()))
}

/// [`sign`] with the checks of a more specific verifier (`extra`, run on the claims as the
/// verifier reads them, after the generic ones).
///
/// The payload is checked as [`verify`] reads it: the canonical bytes are parsed again by the
/// verifier's reader, so a value it refuses is refused here with its code (duplicate members are
/// `DUPLICATE_KEY`; an integer-valued number beyond 2^53 and below 10^21, which ekl-json-1 writes
/// as an integer literal it then refuses, is `JWS_MALFORMED`), then [`check_claims_form`].
#[cfg(feature = "signing")]
pub(crate) fn sign_checked(
    typ: Typ,
    claims: &Value<'_>,
    key: &SigningKey,
    extra: impl FnOnce(&Value<'_>) -> Result<()>,
) -> Result<String> {
    let payload = canonical::canonicalize_value(claims)?;
    let read = canonical::parse_strict(&payload, "jws payload", ErrorCode::JwsMalformed)?;
    check_claims_form(&read)?;
    extra(&read)?;
    let header = Value::Object(vec![
        ("alg".into(), Value::from(ES256)),
        ("kid".into(), Value::from(key.kid())),
        ("typ".into(), Value::from(typ.as_str())),
    ]);
    let header = canonical::canonicalize_value(&header)?;
    Ok(sign_bytes(&header, &payload, key))
}

/// Signs `claims` under an arbitrary `header` object (ekl-json-1 of both). It checks neither the
/// header nor the claims: tests use it to build refused tokens (`alg: none`, `crit`, a wrong
/// `typ`, claims of the wrong form). Not offered by the language bindings.
#[cfg(feature = "signing")]
pub fn sign_value_header(
    header: &Value<'_>,
    claims: &Value<'_>,
    key: &SigningKey,
) -> Result<String> {
    let header = canonical::canonicalize_value(header)?;
    let payload = canonical::canonicalize_value(claims)?;
    Ok(sign_bytes(&header, &payload, key))
}

/// Signs raw header and payload bytes (base64url-encoded as given): for tests of duplicate members
/// and other texts a value cannot hold. Checks nothing; not offered by the language bindings.
#[cfg(feature = "signing")]
pub fn sign_bytes(header: &[u8], payload: &[u8], key: &SigningKey) -> String {
    let mut token = base64url::encode(header);
    token.push('.');
    token.push_str(&base64url::encode(payload));
    let signature = key.sign_es256(token.as_bytes());
    token.push('.');
    token.push_str(&base64url::encode(&signature));
    token
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jwk::jwks_from_seed;

    #[test]
    fn typ_names_are_exact() {
        for t in Typ::ALL {
            assert_eq!(Typ::from_header(t.as_str()), Some(t));
            assert_eq!(
                Typ::from_header(&format!("application/{}", t.as_str())),
                None
            );
            assert_eq!(Typ::from_header(&t.as_str().to_uppercase()), None);
        }
    }

    #[test]
    fn parse_strict_finds_nested_duplicates() {
        let e = canonical::parse_strict(br#"{"a":[{"b":1,"b":2}]}"#, "x", ErrorCode::JwsMalformed)
            .unwrap_err();
        assert_eq!(e.code(), ErrorCode::DuplicateKey);
        let e = canonical::parse_strict(br#"{"a":1,"\u0061":2}"#, "x", ErrorCode::JwsMalformed)
            .unwrap_err();
        assert_eq!(e.code(), ErrorCode::DuplicateKey);
        assert!(canonical::parse_strict(br#"{"a":{"a":1}}"#, "x", ErrorCode::JwsMalformed).is_ok());
        let e = canonical::parse_strict(b"[1,]", "x", ErrorCode::JwsMalformed).unwrap_err();
        assert_eq!(e.code(), ErrorCode::JwsMalformed);
    }

    #[test]
    fn round_trip() {
        let (jwks, keys) = jwks_from_seed(&[5u8; 32], &["a", "b"]).unwrap();
        let claims = canonical::parse(br#"{"iat":100,"exp":160,"iss":"n"}"#).unwrap();
        let token = sign(Typ::Receipt, &claims, &keys[1]).unwrap();
        let v = verify(&token, Typ::Receipt, &jwks, &ClaimChecks::at(130)).unwrap();
        assert_eq!(v.kid, "b");
        assert_eq!(v.claim_str("iss"), Some("n"));
        assert_eq!(v.token_sha256, sha256_hex(token.as_bytes()));
        assert_eq!(sign(Typ::Receipt, &claims, &keys[1]).unwrap(), token);
    }

    #[test]
    fn a_negative_max_lifetime_is_the_callers_mistake() {
        // Before the check every token was LIFETIME_TOO_LONG under a negative bound.
        let claims = canonical::parse(br#"{"iat":100,"exp":160}"#).unwrap();
        for max in [-1, -60, i64::MIN] {
            let checks = ClaimChecks {
                max_lifetime: Some(max),
                ..ClaimChecks::at(130)
            };
            let e = check_claims(&claims, &checks).unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidArgument, "{max}");
        }
        for max in [0, 59, 60] {
            let checks = ClaimChecks {
                max_lifetime: Some(max),
                ..ClaimChecks::at(130)
            };
            let got = check_claims(&claims, &checks).map_err(|e| e.code());
            let want = if max < 60 {
                Err(ErrorCode::LifetimeTooLong)
            } else {
                Ok(())
            };
            assert_eq!(got.map(|_| ()), want, "{max}");
        }
    }
}
