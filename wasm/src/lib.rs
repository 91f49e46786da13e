//! # ekl-wasm — ekl-core for WebAssembly (browsers and Node)
//!
//! The raw exports of the npm package `ekl-wasm`: thin `wasm-bindgen` shims over [`ekl_core`]. JSON
//! values cross the boundary as UTF-8 JSON text (written by the strict JS conversion
//! `node/js/convert.js`, shared with the Node package) and are parsed here with every ekl-json-1
//! refusal; structured results leave as canonical JSON text; a refusal is thrown as an `Error`
//! whose message is `CODE: message`, which the package's JS layer turns into an `EklError`
//! (`node/js/errors.js`) with the same `name` and `code` as the Node package.
//!
//! No export panics on any input (the core has no panic reachable from input), so a refusal never
//! leaves a broken instance behind; `wasm/test/refusals.test.mjs` proves it call by call. Should a
//! trap happen all the same (a panic aborts: `RuntimeError: unreachable`), the package's binding
//! (`wasm/js/binding.js`) throws `INTERNAL_ERROR` with a fixed message and replaces the instance
//! with a fresh one, wiping the old one's memory; [`test_panic`] lets the tests prove that.
//! Inputs larger than the documented maximum are refused in JS before they are copied into the
//! module's memory (`docs/decisions.md#limits`).
//!
//! The logic lives in [`api`] as plain Rust (tested on the host); the `#[wasm_bindgen]` functions
//! below only convert errors.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod api;
pub mod receipt_sig;
pub mod receipts;
pub mod verifiers;

use wasm_bindgen::prelude::*;

/// A core refusal as the value thrown into JS: an `Error` whose message is `CODE: message`.
fn throw(e: ekl_core::Error) -> JsError {
    JsError::new(&e.to_string())
}

type JsResult<T> = Result<T, JsError>;

/// The version of the core this module was built from.
#[wasm_bindgen(js_name = coreVersion)]
pub fn core_version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// Every stable error code, one per line, in declaration order.
#[wasm_bindgen(js_name = errorCodes)]
pub fn error_codes() -> String {
    api::error_codes()
}

/// Test hook (hidden, test-only, as `__testPanic` in the Node addon): panics, which aborts this
/// instance with a trap, so that the tests can prove the binding recovers from one.
#[wasm_bindgen(js_name = __testPanic)]
pub fn test_panic() {
    panic!("deliberate panic for the test suite")
}

/// ekl-json-1 canonical bytes of JSON text; `max_bytes` refuses larger output (`BODY_TOO_LARGE`).
#[wasm_bindgen]
pub fn canonicalize(json: &[u8], max_bytes: Option<u32>) -> JsResult<Vec<u8>> {
    api::canonicalize(json, max_bytes).map_err(throw)
}

/// Lowercase hex SHA-256 of bytes.
#[wasm_bindgen(js_name = sha256Hex)]
pub fn sha256_hex(bytes: &[u8]) -> String {
    ekl_core::digest::sha256_hex(bytes)
}

/// A commitment as canonical JSON text; `capability_input` applies the 256 KB limit.
#[wasm_bindgen]
pub fn commitment(
    json: &[u8],
    salt: Option<String>,
    salt_id: Option<String>,
    capability_input: bool,
) -> JsResult<String> {
    api::commitment(json, salt.as_deref(), salt_id.as_deref(), capability_input).map_err(throw)
}

/// The terms hash of §6.7.1.
#[wasm_bindgen(js_name = termsHash)]
pub fn terms_hash(json: &[u8]) -> JsResult<String> {
    api::terms_hash(json).map_err(throw)
}

/// Digest of a value's ekl-json-1 bytes, optionally salted.
#[wasm_bindgen(js_name = valueDigest)]
pub fn value_digest(json: &[u8], salt: Option<String>) -> JsResult<String> {
    api::value_digest(json, salt.as_deref()).map_err(throw)
}

/// Salted fingerprint of a value (§15.3).
#[wasm_bindgen]
pub fn fingerprint(salt: &str, json: &[u8]) -> JsResult<String> {
    api::fingerprint(salt, json).map_err(throw)
}

/// Salted fingerprint of an MCP tool result's body.
#[wasm_bindgen(js_name = outputFingerprint)]
pub fn output_fingerprint(salt: &str, json: &[u8]) -> JsResult<String> {
    api::output_fingerprint(salt, json).map_err(throw)
}

/// The fingerprinted body of a tool result: its member name, a newline, its canonical JSON.
#[wasm_bindgen(js_name = selectResultBody)]
pub fn select_result_body(json: &[u8]) -> JsResult<String> {
    api::select_result_body(json).map_err(throw)
}

/// Upstream fingerprint of a tools/list result (§5.1); `offered` is a JSON array of names or empty.
#[wasm_bindgen(js_name = upstreamFingerprint)]
pub fn upstream_fingerprint(json: &[u8], offered: Option<Vec<String>>) -> JsResult<String> {
    api::upstream_fingerprint(json, offered.as_deref()).map_err(throw)
}

/// The array the upstream fingerprint hashes (§5.1), canonical JSON text.
#[wasm_bindgen(js_name = upstreamProjection)]
pub fn upstream_projection(json: &[u8], offered: Option<Vec<String>>) -> JsResult<String> {
    api::upstream_projection(json, offered.as_deref()).map_err(throw)
}

/// The v2 proof key of an agent key, lowercase hex.
#[wasm_bindgen(js_name = proofKey)]
pub fn proof_key(agent_key: &str) -> String {
    ekl_core::proof::ProofKey::derive(agent_key).to_hex()
}

/// Challenge proof v1 (§15.2).
#[wasm_bindgen(js_name = challengeProofV1)]
pub fn challenge_proof_v1(credential: &str, challenge: &str, endpoint: &str) -> String {
    ekl_core::proof::challenge_proof_v1(credential, challenge, endpoint)
}

/// Challenge proof v2 (§15.2, §3.1) with the proof key as hex.
#[wasm_bindgen(js_name = challengeProofV2)]
pub fn challenge_proof_v2(proof_key: &str, challenge: &str, endpoint: &str) -> JsResult<String> {
    api::challenge_proof_v2(proof_key, challenge, endpoint).map_err(throw)
}

/// Enrollment authority v1 (§4).
#[wasm_bindgen(js_name = enrollAuthorityV1)]
pub fn enroll_authority_v1(
    agent_key: &str,
    enrollment_id: &str,
    nonce: &str,
    endpoint: &str,
) -> String {
    ekl_core::proof::enroll_authority_v1(agent_key, enrollment_id, nonce, endpoint)
}

/// Enrollment authority v2 (§4) with the proof key as hex.
#[wasm_bindgen(js_name = enrollAuthorityV2)]
pub fn enroll_authority_v2(
    proof_key: &str,
    enrollment_id: &str,
    nonce: &str,
    endpoint: &str,
) -> JsResult<String> {
    api::enroll_authority_v2(proof_key, enrollment_id, nonce, endpoint).map_err(throw)
}

/// The `ekl_verify` signature.
#[wasm_bindgen(js_name = verifySignature)]
pub fn verify_signature(
    secret: &str,
    agent_id: &str,
    enrollment_id: &str,
    challenge: &str,
) -> String {
    ekl_core::proof::verify_signature(secret, agent_id, enrollment_id, challenge)
}

/// Checks an `ekl_verify` signature in constant time.
#[wasm_bindgen(js_name = checkVerifySignature)]
pub fn check_verify_signature(
    secret: &str,
    agent_id: &str,
    enrollment_id: &str,
    challenge: &str,
    signature: &str,
) -> bool {
    ekl_core::proof::check_verify_signature(secret, agent_id, enrollment_id, challenge, signature)
}
