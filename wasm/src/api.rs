//! The binding's logic as plain Rust over [`ekl_core`]: JSON arguments arrive as UTF-8 JSON text and
//! structured results leave as canonical JSON text. Host-testable; the `#[wasm_bindgen]` shims in the
//! crate root only turn [`Error`] into a thrown JS value.

use ekl_core::canonical::{self, Options};
use ekl_core::digest::{self, Salt};
use ekl_core::proof::{self, ProofKey};
use ekl_core::{fingerprint, Error, ErrorCode, Result, Value};

/// Every stable error code, one per line, in declaration order.
pub fn error_codes() -> String {
    let mut out = String::new();
    for code in ErrorCode::ALL {
        out.push_str(code.as_str());
        out.push('\n');
    }
    out
}

/// Canonical JSON text of a value produced by the core (verdicts, commitments, bodies).
pub fn canonical_text(value: &Value<'_>) -> Result<String> {
    let bytes = canonical::canonicalize_value(value)?;
    String::from_utf8(bytes)
        .map_err(|_| Error::new(ErrorCode::InvalidUtf8, "canonical output is not UTF-8"))
}

/// A JSON argument parsed with every ekl-json-1 refusal, duplicate keys anywhere included: the
/// core's parser, which refuses them itself (docs/decisions.md#duplicates), so no second pass.
pub fn parse_strict(json: &[u8]) -> Result<Value<'_>> {
    canonical::parse(json)
}

fn salt(text: &str) -> Result<Salt> {
    Salt::from_hex(text)
}

/// ekl-json-1 canonical bytes of JSON text, with an optional output size limit.
pub fn canonicalize(json: &[u8], max_bytes: Option<u32>) -> Result<Vec<u8>> {
    let options = Options {
        max_bytes: max_bytes.map(|n| n as usize),
    };
    canonical::canonicalize_with(json, options)
}

/// A commitment (optionally salted; `capability_input` applies the 256 KB limit) as canonical JSON.
pub fn commitment(
    json: &[u8],
    salt_hex: Option<&str>,
    salt_id: Option<&str>,
    capability_input: bool,
) -> Result<String> {
    let value = canonical::parse(json)?;
    let salt = salt_hex.map(salt).transpose()?;
    let c = if capability_input {
        digest::input_commitment(&value, salt.as_ref(), salt_id)?
    } else {
        digest::commitment(&value, salt.as_ref(), salt_id)?
    };
    Ok(c.to_canonical_json())
}

/// The terms hash of §6.7.1.
pub fn terms_hash(json: &[u8]) -> Result<String> {
    digest::terms_hash(&canonical::parse(json)?)
}

/// Digest of a value's ekl-json-1 bytes, optionally salted (64 lowercase hex).
pub fn value_digest(json: &[u8], salt_hex: Option<&str>) -> Result<String> {
    let salt = salt_hex.map(salt).transpose()?;
    digest::value_digest(&canonical::parse(json)?, salt.as_ref())
}

/// Salted fingerprint of a value (§15.3).
pub fn fingerprint(salt_hex: &str, json: &[u8]) -> Result<String> {
    let salt = salt(salt_hex)?;
    fingerprint::fingerprint(&salt, &canonical::parse(json)?)
}

/// Salted fingerprint of an MCP tool result's body.
pub fn output_fingerprint(salt_hex: &str, json: &[u8]) -> Result<String> {
    let salt = salt(salt_hex)?;
    fingerprint::output_fingerprint(&salt, &canonical::parse(json)?)
}

/// The fingerprinted body of a tool result: its member name (`structuredContent` or `content`),
/// a newline, and the body's canonical JSON.
pub fn select_result_body(json: &[u8]) -> Result<String> {
    let result = canonical::parse(json)?;
    // The whole result must be ekl-json-1 (duplicates anywhere are refused), as for the fingerprint.
    canonical::canonicalize_value(&result)?;
    let (body, value) = fingerprint::select_result_body(&result)?;
    Ok(format!("{}\n{}", body.as_str(), canonical_text(value)?))
}

/// Upstream fingerprint of a tools/list result (§5.1), optionally filtered to the offered names.
pub fn upstream_fingerprint(json: &[u8], offered: Option<&[String]>) -> Result<String> {
    let tools = canonical::parse(json)?;
    let names: Option<Vec<&str>> = offered.map(|o| o.iter().map(String::as_str).collect());
    fingerprint::upstream_fingerprint(&tools, names.as_deref())
}

/// The array the upstream fingerprint hashes (§5.1), as canonical JSON text.
pub fn upstream_projection(json: &[u8], offered: Option<&[String]>) -> Result<String> {
    let tools = canonical::parse(json)?;
    let names: Option<Vec<&str>> = offered.map(|o| o.iter().map(String::as_str).collect());
    canonical_text(&fingerprint::upstream_projection(&tools, names.as_deref())?)
}

/// Challenge proof v2 with the proof key given as 64 lowercase hex.
pub fn challenge_proof_v2(proof_key: &str, challenge: &str, endpoint: &str) -> Result<String> {
    Ok(proof::challenge_proof_v2(
        &ProofKey::from_hex(proof_key)?,
        challenge,
        endpoint,
    ))
}

/// Enrollment authority v2 with the proof key given as 64 lowercase hex.
pub fn enroll_authority_v2(
    proof_key: &str,
    enrollment_id: &str,
    nonce: &str,
    endpoint: &str,
) -> Result<String> {
    Ok(proof::enroll_authority_v2(
        &ProofKey::from_hex(proof_key)?,
        enrollment_id,
        nonce,
        endpoint,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SALT: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    #[test]
    fn commitment_is_canonical_json_with_salt() {
        let c = commitment(br#"{"b":1,"a":2}"#, Some(SALT), Some("s1"), true).unwrap();
        assert!(c.starts_with(r#"{"alg":"sha-256","canon":"ekl-json-1","digest":""#));
        assert!(c.ends_with(&format!(r#""salt":"{SALT}","salt_id":"s1"}}"#)));
    }

    #[test]
    fn refusals_carry_codes() {
        let e = canonicalize(br#"{"a":1,"\u0061":2}"#, None).unwrap_err();
        assert_eq!(e.code(), ErrorCode::DuplicateKey);
        assert_eq!(
            fingerprint("00", b"{}").unwrap_err().code(),
            ErrorCode::InvalidSalt
        );
        assert_eq!(
            canonicalize(b"[1,2,3]", Some(4)).unwrap_err().code(),
            ErrorCode::BodyTooLarge
        );
        assert_eq!(
            challenge_proof_v2("zz", "c", "e").unwrap_err().code(),
            ErrorCode::InvalidHex
        );
    }

    #[test]
    fn select_result_body_names_the_body() {
        let out = select_result_body(
            br#"{"content":[{"type":"text","text":"x"}],"structuredContent":null}"#,
        )
        .unwrap();
        assert_eq!(out, "content\n[{\"text\":\"x\",\"type\":\"text\"}]");
        let e = select_result_body(br#"{"content":[],"x":{"a":1,"a":2}}"#).unwrap_err();
        assert_eq!(e.code(), ErrorCode::DuplicateKey);
    }

    #[test]
    fn error_codes_lists_every_code() {
        assert_eq!(error_codes().lines().count(), ErrorCode::ALL.len());
        assert!(error_codes().starts_with("INVALID_JSON\n"));
    }
}
