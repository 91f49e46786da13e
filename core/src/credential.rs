//! Per-type verifiers of EKP's signed credentials (PROTOCOL §3, §9.1, §9.2, §9.3.1, §9.3.2, §15.1;
//! SPEC §7). Each fixes the `typ`, the claims the type requires, its audience form and its
//! lifetime bound, and runs [`jws::verify`] with 60 s skew against the caller's clock.
//!
//! | credential | typ | aud | lifetime (`exp − iat`) | other required claims |
//! |---|---|---|---|---|
//! | relationship assertion (§9.1) | `ekl-relationship+jwt` | the provider's token endpoint | ≤ 120 s | `sub jti org auth_profile=ekl-auth-1.1 con rel_ver dsc_ver caps[{id, ver}]` |
//! | platform call credential (§3, §4) | `ekl-platform-call+jwt` | checked when the caller names one | ≤ 60 s | `jti`, `purpose` ∈ enroll, validation, revalidation, deliver, equal to the expected one |
//! | execution grant (§9.3.2) | `ekl-execution-grant+jwt` | `ekl:agent:{provider_id}` | ≤ 600 s | — |
//! | revocation feed page or snapshot (§9.3.1) | `ekl-revocation-feed+jwt` | the provider's agent ID | — (`exp` checked when present) | — |
//! | access token (§15.1) | `ekl-access+jwt` | `ekl:agent:{provider_id}` | ≤ 900 s | — |
//!
//! Every type requires `iss` (equal to the caller's network issuer) and `iat`; every type but the
//! feed requires `exp`. Decisions where the protocol is silent (docs/decisions.md#jws): the
//! execution grant is accepted up to 600 s because the token does not say whether its run was
//! approved while waiting (60 s otherwise); the platform call credential needs `jti` because it is
//! single use; the feed's `exp` is optional because §9.3.1 names none and a replayed page cannot
//! lower a version; `rel_ver` and `dsc_ver` are non-negative integers or non-empty strings (their
//! schema is not available), `caps[].ver` likewise.

use crate::error::{Error, ErrorCode, Result};
use crate::jwk::Jwks;
#[cfg(feature = "signing")]
use crate::jwk::SigningKey;
use crate::jws::{self, str_claim, ClaimChecks, Typ, Verified, SKEW_SECONDS};
use crate::value::{Value, MAX_SAFE_INTEGER_BOUND};

/// The only `auth_profile` a relationship assertion may carry (§9.2).
pub const AUTH_PROFILE: &str = "ekl-auth-1.1";

/// Lifetime bounds, seconds (§3, §9.1, §9.3.2, §15.1).
pub const ASSERTION_MAX_LIFETIME: i64 = 120;
/// Platform call credential: 60 s.
pub const PLATFORM_CALL_MAX_LIFETIME: i64 = 60;
/// Execution grant: 60 s, or 10 minutes for a run approved while it waited.
pub const EXECUTION_GRANT_MAX_LIFETIME: i64 = 600;
/// Access token: at most 900 s.
pub const ACCESS_TOKEN_MAX_LIFETIME: i64 = 900;

/// The audience of execution grants and access tokens for provider `provider_id`.
pub fn agent_audience(provider_id: &str) -> String {
    format!("ekl:agent:{provider_id}")
}

/// The registered claims every credential has, plus the whole verified token.
#[derive(Clone, Debug, PartialEq)]
pub struct Credential {
    /// `iss`.
    pub iss: String,
    /// `iat`.
    pub iat: i64,
    /// `exp` (always present except possibly on a revocation feed).
    pub exp: Option<i64>,
    /// The verified token (header, claims, kid, digest).
    pub verified: Verified,
}

#[allow(clippy::too_many_arguments)]
fn verify_typed(
    token: &str,
    typ: Typ,
    jwks: &Jwks,
    issuer: &str,
    audience: Option<&str>,
    now: i64,
    require_exp: bool,
    max_lifetime: Option<i64>,
) -> Result<Credential> {
    let checks = ClaimChecks {
        issuer: Some(issuer),
        audience,
        now,
        skew: SKEW_SECONDS,
        require_exp,
        require_iat: true,
        max_lifetime,
    };
    let verified = jws::verify_signature(token, typ, jwks)?;
    let times = jws::check_claims(&verified.claims, &checks)?;
    Ok(Credential {
        iss: issuer.to_owned(),
        iat: times.iat.expect("iat is required"),
        exp: times.exp,
        verified,
    })
}

fn owned_str(claims: &Value<'_>, name: &str) -> Result<String> {
    str_claim(claims, name).map(str::to_owned)
}

/// A version claim: a non-negative integer or a non-empty string.
fn version_claim(claims: &Value<'_>, name: &str) -> Result<Value<'static>> {
    match claims.get(name) {
        None => Err(Error::new(
            ErrorCode::ClaimMissing,
            format!("claim {name} is missing"),
        )),
        Some(v) if is_version(v) => Ok(v.clone().into_owned()),
        Some(_) => Err(Error::new(
            ErrorCode::ClaimInvalid,
            format!("claim {name} must be a non-negative integer or a non-empty string"),
        )),
    }
}

fn is_version(v: &Value<'_>) -> bool {
    match v {
        Value::Number(x) => x.fract() == 0.0 && *x >= 0.0 && *x <= MAX_SAFE_INTEGER_BOUND as f64,
        Value::String(s) => !s.is_empty(),
        _ => false,
    }
}

/// One capability of an assertion's `caps`.
#[derive(Clone, Debug, PartialEq)]
pub struct Cap {
    /// `id`.
    pub id: String,
    /// `ver` (a non-negative integer or a non-empty string).
    pub ver: Value<'static>,
}

/// A verified relationship assertion (§9.1).
#[derive(Clone, Debug, PartialEq)]
pub struct RelationshipAssertion {
    /// `iss`, `iat`, `exp` and the token.
    pub credential: Credential,
    /// `sub`: the requester agent ID.
    pub sub: String,
    /// `aud`: the provider's token endpoint.
    pub aud: String,
    /// `jti`: consumed once per (issuer, token endpoint, jti) by the provider.
    pub jti: String,
    /// `org`.
    pub org: String,
    /// `con`: the connection (or `trial_<id>`, §9.4).
    pub con: String,
    /// `rel_ver`.
    pub rel_ver: Value<'static>,
    /// `dsc_ver`.
    pub dsc_ver: Value<'static>,
    /// `caps`.
    pub caps: Vec<Cap>,
}

/// Verifies a relationship assertion for the provider whose token endpoint is `token_endpoint`.
pub fn verify_relationship_assertion(
    token: &str,
    jwks: &Jwks,
    issuer: &str,
    token_endpoint: &str,
    now: i64,
) -> Result<RelationshipAssertion> {
    let credential = verify_typed(
        token,
        Typ::Relationship,
        jwks,
        issuer,
        Some(token_endpoint),
        now,
        true,
        Some(ASSERTION_MAX_LIFETIME),
    )?;
    let claims = &credential.verified.claims;
    let sub = owned_str(claims, "sub")?;
    let jti = owned_str(claims, "jti")?;
    let org = owned_str(claims, "org")?;
    if str_claim(claims, "auth_profile")? != AUTH_PROFILE {
        return Err(Error::new(
            ErrorCode::ClaimInvalid,
            "auth_profile is not ekl-auth-1.1 (refused rather than downgraded)",
        ));
    }
    let con = owned_str(claims, "con")?;
    let rel_ver = version_claim(claims, "rel_ver")?;
    let dsc_ver = version_claim(claims, "dsc_ver")?;
    let items = match claims.get("caps") {
        None => return Err(Error::new(ErrorCode::ClaimMissing, "claim caps is missing")),
        Some(Value::Array(items)) if !items.is_empty() => items,
        Some(_) => {
            return Err(Error::new(
                ErrorCode::ClaimInvalid,
                "claim caps must be a non-empty array",
            ))
        }
    };
    let mut caps = Vec::with_capacity(items.len());
    for item in items {
        let id = match item.get("id") {
            Some(Value::String(id)) if !id.is_empty() => id.to_string(),
            _ => {
                return Err(Error::new(
                    ErrorCode::ClaimInvalid,
                    "caps[].id must be a non-empty string",
                ))
            }
        };
        let ver = match item.get("ver") {
            Some(v) if is_version(v) => v.clone().into_owned(),
            _ => {
                return Err(Error::new(
                    ErrorCode::ClaimInvalid,
                    "caps[].ver must be a non-negative integer or a non-empty string",
                ))
            }
        };
        caps.push(Cap { id, ver });
    }
    Ok(RelationshipAssertion {
        aud: token_endpoint.to_owned(),
        sub,
        jti,
        org,
        con,
        rel_ver,
        dsc_ver,
        caps,
        credential,
    })
}

/// The purpose of a platform call credential (§3, §4, §4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Purpose {
    /// `enroll`: `ekl_enroll`.
    Enroll,
    /// `validation`.
    Validation,
    /// `revalidation`.
    Revalidation,
    /// `deliver`: `ekl_deliver` only, and `ekl_deliver` accepts no other purpose.
    Deliver,
}

impl Purpose {
    /// Every purpose.
    pub const ALL: [Purpose; 4] = [
        Purpose::Enroll,
        Purpose::Validation,
        Purpose::Revalidation,
        Purpose::Deliver,
    ];

    /// The claim value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Purpose::Enroll => "enroll",
            Purpose::Validation => "validation",
            Purpose::Revalidation => "revalidation",
            Purpose::Deliver => "deliver",
        }
    }

    /// The purpose whose claim value is exactly `text`.
    pub fn from_claim(text: &str) -> Option<Purpose> {
        Purpose::ALL.into_iter().find(|p| p.as_str() == text)
    }
}

/// A verified platform call credential.
#[derive(Clone, Debug, PartialEq)]
pub struct PlatformCall {
    /// `iss`, `iat`, `exp` and the token.
    pub credential: Credential,
    /// `jti` (single use: the agent records it until `exp` + skew).
    pub jti: String,
    /// `purpose`, equal to the expected one.
    pub purpose: Purpose,
}

/// Verifies a platform call credential for a tool that accepts `expected` only
/// (`PURPOSE_MISMATCH` otherwise; an unknown purpose is `CLAIM_INVALID`). `audience`, when given,
/// must be the `aud` exactly.
pub fn verify_platform_call(
    token: &str,
    jwks: &Jwks,
    issuer: &str,
    audience: Option<&str>,
    expected: Purpose,
    now: i64,
) -> Result<PlatformCall> {
    let credential = verify_typed(
        token,
        Typ::PlatformCall,
        jwks,
        issuer,
        audience,
        now,
        true,
        Some(PLATFORM_CALL_MAX_LIFETIME),
    )?;
    let claims = &credential.verified.claims;
    let jti = owned_str(claims, "jti")?;
    let purpose = Purpose::from_claim(str_claim(claims, "purpose")?).ok_or_else(|| {
        Error::new(
            ErrorCode::ClaimInvalid,
            "purpose must be enroll, validation, revalidation or deliver",
        )
    })?;
    if purpose != expected {
        return Err(Error::new(
            ErrorCode::PurposeMismatch,
            format!(
                "purpose is {}, this call accepts {}",
                purpose.as_str(),
                expected.as_str()
            ),
        ));
    }
    Ok(PlatformCall {
        credential,
        jti,
        purpose,
    })
}

/// Verifies an execution grant for provider `provider_id` (aud `ekl:agent:{provider_id}`,
/// lifetime ≤ 600 s). The grant's other claims are in `credential.verified.claims`.
pub fn verify_execution_grant(
    token: &str,
    jwks: &Jwks,
    issuer: &str,
    provider_id: &str,
    now: i64,
) -> Result<Credential> {
    verify_typed(
        token,
        Typ::ExecutionGrant,
        jwks,
        issuer,
        Some(&agent_audience(provider_id)),
        now,
        true,
        Some(EXECUTION_GRANT_MAX_LIFETIME),
    )
}

/// Verifies a revocation feed page or snapshot for provider agent `provider_agent_id` (its `aud`
/// exactly; `exp` checked when present). Items are in `credential.verified.claims`.
pub fn verify_revocation_feed(
    token: &str,
    jwks: &Jwks,
    issuer: &str,
    provider_agent_id: &str,
    now: i64,
) -> Result<Credential> {
    verify_typed(
        token,
        Typ::RevocationFeed,
        jwks,
        issuer,
        Some(provider_agent_id),
        now,
        false,
        None,
    )
}

/// Verifies an access token at provider `provider_id` (aud `ekl:agent:{provider_id}`,
/// lifetime ≤ 900 s).
pub fn verify_access_token(
    token: &str,
    jwks: &Jwks,
    issuer: &str,
    provider_id: &str,
    now: i64,
) -> Result<Credential> {
    verify_typed(
        token,
        Typ::Access,
        jwks,
        issuer,
        Some(&agent_audience(provider_id)),
        now,
        true,
        Some(ACCESS_TOKEN_MAX_LIFETIME),
    )
}

/// Signs `claims` as a token of `typ`, then runs the typed verifier (`verify`) on the token with
/// the key's own public key, the claims' `iss`, and the clock at the token's first valid second
/// (`max(iat, nbf)`): what is issued here is accepted by that verifier then, and refused otherwise
/// with the verifier's code (nothing the library signs fails its own verifier). The verifiers'
/// `now` rule applies to the times: a first valid second of 10^11 s or more (milliseconds) is
/// `TOKEN_NOT_YET_VALID` (what every verifier answers at every `now` it takes), an `exp` there
/// `CLAIM_INVALID` (docs/decisions/jws.md#issuers).
#[cfg(feature = "signing")]
fn issue_typed(
    typ: Typ,
    claims: &Value<'_>,
    key: &SigningKey,
    verify: impl FnOnce(&str, &Jwks, &str, i64) -> Result<()>,
) -> Result<String> {
    let token = jws::sign(typ, claims, key)?;
    let iss = str_claim(claims, "iss")?;
    let iat = jws::time_claim(claims, "iat")?
        .ok_or_else(|| Error::new(ErrorCode::ClaimMissing, "claim iat is missing"))?;
    let at = jws::time_claim(claims, "nbf")?.map_or(iat, |nbf| nbf.max(iat));
    // The verifiers' `now` rule (issue 41): no surface takes a `now` of 10^11 s or more (a time in
    // milliseconds), so a token first valid then is refused by every verifier at every `now` it
    // takes (iat/nbf beyond now + skew), and an `exp` there is a time in milliseconds.
    if at >= crate::limits::MILLISECONDS_FROM {
        return Err(Error::new(
            ErrorCode::TokenNotYetValid,
            "iat/nbf is 10^11 s or later (milliseconds?): no verifier takes a now that late",
        ));
    }
    if jws::time_claim(claims, "exp")?.is_some_and(|exp| exp >= crate::limits::MILLISECONDS_FROM) {
        return Err(Error::new(
            ErrorCode::ClaimInvalid,
            "exp is 10^11 s or later: a time in milliseconds (give seconds since the epoch)",
        ));
    }
    let jwks = Jwks::from_keys(vec![key.public_jwk()])?;
    verify(&token, &jwks, iss, at)?;
    Ok(token)
}

/// The audience a token names: `aud` as a string, or an array of exactly one string (the forms
/// the verifiers accept); `CLAIM_MISSING` or `CLAIM_INVALID` otherwise.
#[cfg(feature = "signing")]
fn audience_of<'v>(claims: &'v Value<'_>) -> Result<&'v str> {
    match claims.get("aud") {
        Some(Value::Array(items)) => match items.as_slice() {
            [Value::String(one)] if !one.is_empty() => Ok(one),
            _ => Err(Error::new(
                ErrorCode::ClaimInvalid,
                "claim aud must be a string or an array of one string",
            )),
        },
        _ => str_claim(claims, "aud"),
    }
}

/// The provider id of an `aud` of the form `ekl:agent:{provider_id}` (execution grants, access
/// tokens): `AUDIENCE_MISMATCH` for another form, as the verifier would answer.
#[cfg(feature = "signing")]
fn provider_of_audience<'v>(claims: &'v Value<'_>) -> Result<&'v str> {
    audience_of(claims)?
        .strip_prefix("ekl:agent:")
        .filter(|id| !id.is_empty())
        .ok_or_else(|| {
            Error::new(
                ErrorCode::AudienceMismatch,
                "aud must be ekl:agent:{provider_id}",
            )
        })
}

/// Issues a relationship assertion (§9.1): `claims` must hold what
/// [`verify_relationship_assertion`] requires (`iss`, `aud` the provider's token endpoint, `iat`,
/// `exp` within 120 s, `sub`, `jti`, `org`, `auth_profile` `ekl-auth-1.1`, `con`, `rel_ver`,
/// `dsc_ver`, `caps`); refused with the verifier's code otherwise.
#[cfg(feature = "signing")]
pub fn issue_relationship_assertion(claims: &Value<'_>, key: &SigningKey) -> Result<String> {
    issue_typed(Typ::Relationship, claims, key, |token, jwks, iss, now| {
        let endpoint = audience_of(claims)?;
        verify_relationship_assertion(token, jwks, iss, endpoint, now).map(|_| ())
    })
}

/// Issues a platform call credential (§3, §4): `iss`, `iat`, `exp` within 60 s, `jti`, `purpose`
/// (enroll, validation, revalidation or deliver), `aud` when the tool names one; refused with
/// [`verify_platform_call`]'s code otherwise.
#[cfg(feature = "signing")]
pub fn issue_platform_call(claims: &Value<'_>, key: &SigningKey) -> Result<String> {
    issue_typed(Typ::PlatformCall, claims, key, |token, jwks, iss, now| {
        let purpose = Purpose::from_claim(str_claim(claims, "purpose")?).ok_or_else(|| {
            Error::new(
                ErrorCode::ClaimInvalid,
                "purpose must be enroll, validation, revalidation or deliver",
            )
        })?;
        let audience = match claims.get("aud") {
            None => None,
            Some(_) => Some(audience_of(claims)?),
        };
        verify_platform_call(token, jwks, iss, audience, purpose, now).map(|_| ())
    })
}

/// Issues an execution grant (§9.3.2): `iss`, `aud` `ekl:agent:{provider_id}`, `iat`, `exp`
/// within 600 s; refused with [`verify_execution_grant`]'s code otherwise.
#[cfg(feature = "signing")]
pub fn issue_execution_grant(claims: &Value<'_>, key: &SigningKey) -> Result<String> {
    issue_typed(Typ::ExecutionGrant, claims, key, |token, jwks, iss, now| {
        verify_execution_grant(token, jwks, iss, provider_of_audience(claims)?, now).map(|_| ())
    })
}

/// Issues a revocation feed page or snapshot (§9.3.1): `iss`, `aud` the provider's agent id,
/// `iat`, `exp` optional; refused with [`verify_revocation_feed`]'s code otherwise.
#[cfg(feature = "signing")]
pub fn issue_revocation_feed(claims: &Value<'_>, key: &SigningKey) -> Result<String> {
    issue_typed(Typ::RevocationFeed, claims, key, |token, jwks, iss, now| {
        let provider = audience_of(claims)?;
        verify_revocation_feed(token, jwks, iss, provider, now).map(|_| ())
    })
}

/// Issues an access token (§15.1): `iss`, `aud` `ekl:agent:{provider_id}`, `iat`, `exp` within
/// 900 s; refused with [`verify_access_token`]'s code otherwise.
#[cfg(feature = "signing")]
pub fn issue_access_token(claims: &Value<'_>, key: &SigningKey) -> Result<String> {
    issue_typed(Typ::Access, claims, key, |token, jwks, iss, now| {
        verify_access_token(token, jwks, iss, provider_of_audience(claims)?, now).map(|_| ())
    })
}
