//! The verifiers of endpoint proofs (§3.1, §15.2, §4) and the screening of tool results (§15.5)
//! for the binding. Arguments arrive as strings and JSON text; results leave as strings and
//! canonical JSON.

use ekl_core::proof::{self, NetworkHolds, ProofKey, ProofVersion};
use ekl_core::screening::{self, ScreeningRules};
use ekl_core::{canonical, Error, ErrorCode, Result, Value};

use crate::api::{canonical_text, parse_strict};

/// The network side of the challenge: `holds` is `proof_key` or `credential_hash`, `held` the
/// held value as 64 lowercase hex. Returns `v1` or `v2`.
pub fn verify_challenge_proof(
    holds: &str,
    held: &str,
    challenge: &str,
    endpoint: &str,
    proof: Option<&str>,
    proof_v2: Option<&str>,
) -> Result<String> {
    let holds = match holds {
        "proof_key" => NetworkHolds::ProofKey(ProofKey::from_hex(held)?),
        "credential_hash" => NetworkHolds::credential_hash_hex(held)?,
        _ => {
            return Err(Error::new(
                ErrorCode::InvalidArgument,
                "holds must be proofKey or credentialHash",
            ))
        }
    };
    let v = proof::verify_challenge_proof(&holds, challenge, endpoint, proof, proof_v2)?;
    Ok(v.as_str().to_owned())
}

/// The agent side of `ekl_enroll`: `announced` is `v1` or `v2`. Returns `v1` or `v2`.
pub fn verify_enroll_authority(
    announced: &str,
    agent_key: &str,
    enrollment_id: &str,
    nonce: &str,
    endpoint: &str,
    authority: Option<&str>,
    authority_version: Option<u32>,
) -> Result<String> {
    let announced = match announced {
        "v1" => ProofVersion::V1,
        "v2" => ProofVersion::V2,
        _ => {
            return Err(Error::new(
                ErrorCode::InvalidArgument,
                "announced must be v1 or v2",
            ))
        }
    };
    let v = proof::verify_enroll_authority(
        announced,
        agent_key,
        enrollment_id,
        nonce,
        endpoint,
        authority,
        authority_version,
    )?;
    Ok(v.as_str().to_owned())
}

fn rules_value(rules: &ScreeningRules) -> Value<'static> {
    Value::Object(vec![
        (
            "rules_version".into(),
            Value::from(rules.rules_version.clone()),
        ),
        (
            "rules".into(),
            Value::Array(
                rules
                    .rules
                    .iter()
                    .map(|r| {
                        Value::Object(vec![
                            ("rule_id".into(), Value::from(r.rule_id.clone())),
                            ("category".into(), Value::from(r.category.clone())),
                            (
                                "phrases".into(),
                                Value::Array(
                                    r.phrases.iter().map(|p| Value::from(p.clone())).collect(),
                                ),
                            ),
                        ])
                    })
                    .collect(),
            ),
        ),
    ])
}

/// Validated screening rules from the claims of a verified rules token, as canonical JSON
/// `{"rules_version", "rules": [{"rule_id", "category", "phrases"}]}`.
pub fn screening_rules(claims_json: &[u8]) -> Result<String> {
    let rules = ScreeningRules::from_claims(&parse_strict(claims_json)?)?;
    canonical_text(&rules_value(&rules))
}

/// The safety flags of a tool result (`rules_json` the rules claims, or absent: local patterns
/// only), as a canonical JSON array of `{category, rules_version[, rule_id]}`.
pub fn screen(rules_json: Option<&[u8]>, result_json: &[u8]) -> Result<String> {
    let rules = rules_json
        .map(|j| ScreeningRules::from_claims(&parse_strict(j)?))
        .transpose()?;
    let result = canonical::parse(result_json)?;
    canonical::canonicalize_value(&result)?;
    let flags = screening::scan(rules.as_ref(), &result);
    canonical_text(&Value::Array(flags.iter().map(|f| f.to_value()).collect()))
}

/// A text as screening compares it: NFKC, then full case folding.
pub fn screening_fold(text: &str) -> String {
    screening::fold(text)
}

/// The `#[wasm_bindgen]` exports of this module (errors thrown as `CODE: message`).
mod exports {
    use wasm_bindgen::prelude::*;

    fn throw(e: ekl_core::Error) -> JsError {
        JsError::new(&e.to_string())
    }

    /// `v1` or `v2`, or a refusal (`PROOF_INVALID`, `PROOF_DOWNGRADE`, ...).
    #[wasm_bindgen(js_name = verifyChallengeProof)]
    pub fn verify_challenge_proof(
        holds: &str,
        held: &str,
        challenge: &str,
        endpoint: &str,
        proof: Option<String>,
        proof_v2: Option<String>,
    ) -> Result<String, JsError> {
        super::verify_challenge_proof(
            holds,
            held,
            challenge,
            endpoint,
            proof.as_deref(),
            proof_v2.as_deref(),
        )
        .map_err(throw)
    }

    /// `v1` or `v2`, or a refusal.
    #[wasm_bindgen(js_name = verifyEnrollAuthority)]
    #[allow(clippy::too_many_arguments)]
    pub fn verify_enroll_authority(
        announced: &str,
        agent_key: &str,
        enrollment_id: &str,
        nonce: &str,
        endpoint: &str,
        authority: Option<String>,
        authority_version: Option<u32>,
    ) -> Result<String, JsError> {
        super::verify_enroll_authority(
            announced,
            agent_key,
            enrollment_id,
            nonce,
            endpoint,
            authority.as_deref(),
            authority_version,
        )
        .map_err(throw)
    }

    /// Validated screening rules, canonical JSON.
    #[wasm_bindgen(js_name = screeningRules)]
    pub fn screening_rules(claims: &[u8]) -> Result<String, JsError> {
        super::screening_rules(claims).map_err(throw)
    }

    /// Safety flags of a tool result, canonical JSON array.
    #[wasm_bindgen]
    pub fn screen(rules: Option<Vec<u8>>, result: &[u8]) -> Result<String, JsError> {
        super::screen(rules.as_deref(), result).map_err(throw)
    }

    /// NFKC and full case folding.
    #[wasm_bindgen(js_name = screeningFold)]
    pub fn screening_fold(text: &str) -> String {
        super::screening_fold(text)
    }
}
