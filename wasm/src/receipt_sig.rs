//! Network-signed receipts (PROTOCOL §9.5.1, `ekl_core::receipt_sig`) and screening rules tokens
//! (§15.5, `ekl_core::screening_rules`) for the binding: the call
//! context arrives as JSON text in the shape of `ekl receipt verify-jws --call` (`execution_id`,
//! `provider_agent_id`, `requester_agent_id`, `capability_id`, `input_fingerprint`,
//! `own_agent_id`, `network_issuer`, `sent_at`, `received_at` in seconds), verdicts leave as
//! canonical JSON.
//!
//! The JWKS arrives as JSON text with every call (the API is stateless); the last one parsed is
//! kept with its keys' precomputed tables, so verifying many receipts against the same key set
//! parses and validates it once (a dashboard verifies thousands).

use std::cell::RefCell;

use ekl_core::canonical;
use ekl_core::jwk::Jwks;
use ekl_core::receipt_sig::{self, CallContext};
use ekl_core::{Error, ErrorCode, Result, Value};

use crate::api::{canonical_text as text_of, parse_strict};

thread_local! {
    static LAST_JWKS: RefCell<Option<(Vec<u8>, Jwks)>> = const { RefCell::new(None) };
}

/// The parsed key set of `json`, from the cache when it is the same text as last time.
fn with_jwks<T>(json: &[u8], f: impl FnOnce(&Jwks) -> Result<T>) -> Result<T> {
    LAST_JWKS.with(|cell| {
        let mut slot = cell.borrow_mut();
        let hit = matches!(&*slot, Some((bytes, _)) if bytes.as_slice() == json);
        if !hit {
            *slot = None;
            *slot = Some((json.to_vec(), Jwks::parse(json)?));
        }
        let (_, jwks) = slot.as_ref().expect("filled above");
        f(jwks)
    })
}

fn invalid(message: String) -> Error {
    Error::new(ErrorCode::InvalidArgument, message)
}

/// The call context from its JSON object.
pub fn call_context<'a>(call: &'a Value<'a>) -> Result<CallContext<'a>> {
    if call.as_object().is_none() {
        return Err(invalid("the call must be a JSON object".into()));
    }
    let s = |k: &str| {
        call.get(k)
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(format!("call.{k} must be a string")))
    };
    let n = |k: &str| {
        call.get(k)
            .and_then(Value::as_f64)
            .filter(|x| x.fract() == 0.0 && x.abs() <= 9_007_199_254_740_992.0)
            .map(|x| x as i64)
            .ok_or_else(|| invalid(format!("call.{k} must be an integer (seconds)")))
    };
    Ok(CallContext {
        execution_id: s("execution_id")?,
        provider_agent_id: s("provider_agent_id")?,
        requester_agent_id: s("requester_agent_id")?,
        capability_id: s("capability_id")?,
        input_fingerprint: s("input_fingerprint")?,
        own_agent_id: s("own_agent_id")?,
        network_issuer: s("network_issuer")?,
        sent_at: n("sent_at")?,
        received_at: n("received_at")?,
    })
}

/// Verifies a receipt's compact JWS against the call; the verdict as canonical JSON.
pub fn verify_receipt_jws(token: &str, jwks_json: &[u8], call_json: &[u8]) -> Result<String> {
    let call = parse_strict(call_json)?;
    let context = call_context(&call)?;
    let verdict = with_jwks(jwks_json, |jwks| {
        receipt_sig::verify_receipt_jws(token, jwks, &context)
    })?;
    text_of(&crate::verdict::verdict_value(&verdict))
}

/// Verifies a network-signed receipt object (its signature, its JWS, and that they agree).
pub fn verify_signed_receipt(
    receipt_json: &[u8],
    jwks_json: &[u8],
    call_json: &[u8],
) -> Result<String> {
    let call = parse_strict(call_json)?;
    let context = call_context(&call)?;
    let receipt = canonical::parse(receipt_json)?;
    let verdict = with_jwks(jwks_json, |jwks| {
        receipt_sig::verify_receipt(&receipt, jwks, &context)
    })?;
    text_of(&crate::verdict::verdict_value(&verdict))
}

/// Verifies a screening rules token (§15.5) at `now` against the network's issuer; the verified
/// claims `{"iss", "iat", "exp", "rules_version", "rules"}` as canonical JSON.
pub fn verify_screening_rules(
    token: &str,
    jwks_json: &[u8],
    issuer: &str,
    now: i64,
) -> Result<String> {
    let t = with_jwks(jwks_json, |jwks| {
        ekl_core::screening_rules::verify_screening_rules(token, jwks, issuer, now)
    })?;
    text_of(&Value::Object(vec![
        ("iss".into(), Value::from(t.iss)),
        ("iat".into(), Value::from_i64(t.iat)?),
        ("exp".into(), Value::from_i64(t.exp)?),
        ("rules_version".into(), Value::from(t.rules_version)),
        ("rules".into(), t.rules),
    ]))
}

/// The `#[wasm_bindgen]` exports of this module (errors thrown as `CODE: message`).
mod exports {
    use wasm_bindgen::prelude::*;

    fn throw(e: ekl_core::Error) -> JsError {
        JsError::new(&e.to_string())
    }

    /// The verdict on a receipt's compact JWS, canonical JSON.
    #[wasm_bindgen(js_name = verifyReceiptJws)]
    pub fn verify_receipt_jws(token: &str, jwks: &[u8], call: &[u8]) -> Result<String, JsError> {
        super::verify_receipt_jws(token, jwks, call).map_err(throw)
    }

    /// The verified claims of a screening rules token, canonical JSON.
    #[wasm_bindgen(js_name = verifyScreeningRules)]
    pub fn verify_screening_rules(
        token: &str,
        jwks: &[u8],
        issuer: &str,
        now: f64,
    ) -> Result<String, JsError> {
        if now.fract() != 0.0 || now.abs() > 9_007_199_254_740_992.0 {
            return Err(JsError::new(
                "INVALID_ARGUMENT: now must be an integer (seconds)",
            ));
        }
        super::verify_screening_rules(token, jwks, issuer, now as i64).map_err(throw)
    }

    /// The verdict on a network-signed receipt object, canonical JSON.
    #[wasm_bindgen(js_name = verifySignedReceipt)]
    pub fn verify_signed_receipt(
        receipt: &[u8],
        jwks: &[u8],
        call: &[u8],
    ) -> Result<String, JsError> {
        super::verify_signed_receipt(receipt, jwks, call).map_err(throw)
    }
}
