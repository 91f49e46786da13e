//! The network's screening rules token (PROTOCOL §15.5; SPEC §7).
//!
//! `GET /v1/screening/rules` returns a compact JWS, `alg` ES256, `typ` `ekl-screening-rules+jwt`,
//! `kid` from the network's key set, with claims `iss`, `iat`, `exp`, `rules_version` and
//! `rules[{rule_id, category, phrases}]`. A client accepts it only when `alg`, `typ`, `kid`, the
//! signature and `iss` check, and never uses it after `exp`: there is no skew on `exp` here, and
//! (as for every EKP token, RFC 7519 §4.1.4) the rules are refused from `now == exp` on
//! (`TOKEN_EXPIRED`). `iat` is required and, like every `iat`, may lie at most 60 s in the
//! future. The rules' shape is checked by [`ScreeningRules::from_claims`] (the scanner's own
//! validation, so there is one rule set definition): `rules_version` and `rules` present
//! (`CLAIM_MISSING`); `rules_version` a non-empty string other than `local`; each rule an object with
//! non-empty string `rule_id` (unique) and `category` and a non-empty array of non-empty `phrases`
//! (`CLAIM_INVALID`). The returned [`ScreeningRulesToken::ruleset`] goes to `screening::scan`.

use crate::error::{Error, ErrorCode, Result};
use crate::jwk::Jwks;
use crate::jws::{self, ClaimChecks, Typ, SKEW_SECONDS};
use crate::screening::ScreeningRules;
use crate::value::Value;

/// A verified screening rules token.
#[derive(Clone, Debug, PartialEq)]
pub struct ScreeningRulesToken {
    /// `iss`.
    pub iss: String,
    /// `iat`.
    pub iat: i64,
    /// `exp`: the rules are not used from this second on.
    pub exp: i64,
    /// `rules_version` (reported in a `safety_flag`).
    pub rules_version: String,
    /// `rules` as signed.
    pub rules: Value<'static>,
    /// The rules validated and prepared for [`crate::screening::scan`].
    pub ruleset: ScreeningRules,
}

/// Verifies the screening rules token at `now` against the network's `issuer`.
pub fn verify_screening_rules(
    token: &str,
    jwks: &Jwks,
    issuer: &str,
    now: i64,
) -> Result<ScreeningRulesToken> {
    let verified = jws::verify_signature(token, Typ::ScreeningRules, jwks)?;
    let checks = ClaimChecks {
        issuer: Some(issuer),
        audience: None,
        now,
        skew: SKEW_SECONDS,
        require_exp: true,
        require_iat: true,
        max_lifetime: None,
    };
    let times = jws::check_claims(&verified.claims, &checks)?;
    let exp = times.exp.expect("exp is required");
    if now >= exp {
        return Err(Error::new(
            ErrorCode::TokenExpired,
            "the screening rules expired (no skew on exp)",
        ));
    }
    let ruleset = ScreeningRules::from_claims(&verified.claims)?;
    let rules = verified
        .claims
        .get("rules")
        .expect("from_claims checked rules")
        .clone();
    Ok(ScreeningRulesToken {
        iss: issuer.to_owned(),
        iat: times.iat.expect("iat is required"),
        exp,
        rules_version: ruleset.rules_version.clone(),
        rules,
        ruleset,
    })
}
