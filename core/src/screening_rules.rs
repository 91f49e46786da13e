//! The network's screening rules token (PROTOCOL §15.5; SPEC §7).
//!
//! `GET /v1/screening/rules` returns a compact JWS, `alg` ES256, `typ` `ekl-screening-rules+jwt`,
//! `kid` from the network's key set, with claims `iss`, `iat`, `exp`, `rules_version` and
//! `rules[{rule_id, category, phrases}]`. A client accepts it only when `alg`, `typ`, `kid`, the
//! signature and `iss` check, and never uses it after `exp`: there is no skew on `exp` here, and
//! (as for every EKP token, RFC 7519 §4.1.4) the rules are refused from `now == exp` on
//! (`TOKEN_EXPIRED`). `iat` is required and, like every `iat`, may lie at most 60 s in the
//! future. The rules' shape is checked here (`CLAIM_INVALID`): `rules_version` a non-empty string;
//! `rules` an array of objects with `rule_id` and `category` non-empty strings and `phrases` an
//! array of non-empty strings; other members are ignored. Matching results against the rules is the
//! scanner's work (`screening`), not this module's.

use crate::error::{Error, ErrorCode, Result};
use crate::jwk::Jwks;
use crate::jws::{self, str_claim, ClaimChecks, Typ, SKEW_SECONDS};
use crate::value::Value;

/// One phrase rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScreeningRule {
    /// `rule_id`.
    pub rule_id: String,
    /// `category` (reported in a `safety_flag`).
    pub category: String,
    /// `phrases`.
    pub phrases: Vec<String>,
}

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
    /// `rules`, typed.
    pub rule_list: Vec<ScreeningRule>,
}

fn invalid(message: &str) -> Error {
    Error::new(ErrorCode::ClaimInvalid, message)
}

fn non_empty_str<'v>(v: Option<&'v Value<'_>>, message: &str) -> Result<&'v str> {
    match v {
        Some(Value::String(s)) if !s.is_empty() => Ok(s),
        _ => Err(invalid(message)),
    }
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
    let claims = &verified.claims;
    let rules_version = str_claim(claims, "rules_version")?.to_owned();
    let rules = claims
        .get("rules")
        .ok_or_else(|| Error::new(ErrorCode::ClaimMissing, "claim rules is missing"))?;
    let items = rules
        .as_array()
        .ok_or_else(|| invalid("rules must be an array"))?;
    let mut rule_list = Vec::with_capacity(items.len());
    for item in items {
        if item.as_object().is_none() {
            return Err(invalid("each rule must be an object"));
        }
        let rule_id = non_empty_str(item.get("rule_id"), "rule_id must be a non-empty string")?;
        let category = non_empty_str(item.get("category"), "category must be a non-empty string")?;
        let phrases = item
            .get("phrases")
            .and_then(Value::as_array)
            .ok_or_else(|| invalid("phrases must be an array"))?
            .iter()
            .map(|p| {
                non_empty_str(Some(p), "each phrase must be a non-empty string").map(str::to_owned)
            })
            .collect::<Result<Vec<_>>>()?;
        rule_list.push(ScreeningRule {
            rule_id: rule_id.to_owned(),
            category: category.to_owned(),
            phrases,
        });
    }
    Ok(ScreeningRulesToken {
        iss: issuer.to_owned(),
        iat: times.iat.expect("iat is required"),
        exp,
        rules_version,
        rules: rules.clone().into_owned(),
        rule_list,
    })
}
