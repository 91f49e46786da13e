//! MAC receipts (PROTOCOL §9.5, `ekl_core::receipt`) for the binding: key rings and calls arrive as
//! JSON text in the shapes of the `ekl receipt verify` CLI, verdicts leave as canonical JSON.
//!
//! * key ring: `[{"key_id", "secret", "valid_from", "valid_until"?}]` (or `{"keys": [...]}`), or a
//!   plain string: the registration secret as the baseline key `rk-1`;
//! * call: `{"execution_id", "collaboration_id", "capability_id", "requester_agent_id",
//!   "provider_agent_id"}` plus the optional members of [`CallExpectation`];
//! * own commitments: commitment objects `{"alg", "canon", "digest"[, "salt_id", "salt"]}`.

use ekl_core::canonical;
use ekl_core::digest::Commitment;
use ekl_core::receipt::{self, CallExpectation, KeyRing, ReceiptToVerify};
use ekl_core::{Error, ErrorCode, Result, Value};

fn invalid(message: String) -> Error {
    Error::new(ErrorCode::InvalidArgument, message)
}

use crate::api::{canonical_text as text_of, parse_strict};

fn str_member(v: &Value<'_>, name: &str, what: &str) -> Result<Option<String>> {
    match v.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(x) => x
            .as_str()
            .map(|s| Some(s.to_owned()))
            .ok_or_else(|| invalid(format!("{what}.{name} must be a string"))),
    }
}

fn required(v: &Value<'_>, name: &str, what: &str) -> Result<String> {
    str_member(v, name, what)?.ok_or_else(|| invalid(format!("{what}.{name} is required")))
}

/// The call a receipt must belong to, from its JSON object.
pub fn call_from(v: &Value<'_>) -> Result<CallExpectation> {
    if v.as_object().is_none() {
        return Err(invalid("the call must be a JSON object".into()));
    }
    let opt = |name: &str| str_member(v, name, "call");
    Ok(CallExpectation {
        execution_id: required(v, "execution_id", "call")?,
        collaboration_id: required(v, "collaboration_id", "call")?,
        capability_id: required(v, "capability_id", "call")?,
        requester_agent_id: required(v, "requester_agent_id", "call")?,
        provider_agent_id: required(v, "provider_agent_id", "call")?,
        capability_version: opt("capability_version")?,
        connection_id: opt("connection_id")?,
        terms_hash: opt("terms_hash")?,
        execution_kind: opt("execution_kind")?,
        reservation_id: opt("reservation_id")?,
        grant_id: opt("grant_id")?,
        admission_id: opt("admission_id")?,
        receipt_digest: opt("receipt_digest")?,
    })
}

/// A key ring from its JSON form (a list of keys, `{"keys": [...]}`, or the registration secret).
pub fn key_ring_from(v: &Value<'_>) -> Result<KeyRing> {
    if let Some(secret) = v.as_str() {
        return Ok(KeyRing::baseline(secret));
    }
    let list = v
        .as_array()
        .or_else(|| v.get("keys").and_then(Value::as_array))
        .ok_or_else(|| {
            invalid("the key ring must be a list of keys, {\"keys\": [...]} or a secret".into())
        })?;
    let mut ring = KeyRing::new();
    for k in list {
        let key_id = required(k, "key_id", "key")?;
        let secret = required(k, "secret", "key")?;
        let from = required(k, "valid_from", "key")?;
        let until = str_member(k, "valid_until", "key")?;
        ring.add(&key_id, &secret, &from, until.as_deref())?;
    }
    Ok(ring)
}

/// A commitment object the consumer computed itself.
pub fn commitment_from(v: &Value<'_>) -> Result<Commitment> {
    let what = "commitment";
    if required(v, "alg", what)? != "sha-256" || required(v, "canon", what)? != "ekl-json-1" {
        return Err(invalid(
            "a commitment must have alg sha-256 and canon ekl-json-1".into(),
        ));
    }
    Ok(Commitment {
        alg: "sha-256",
        canon: "ekl-json-1",
        digest: required(v, "digest", what)?,
        salt_id: str_member(v, "salt_id", what)?,
        salt: str_member(v, "salt", what)?,
    })
}

fn optional_commitment(json: Option<&[u8]>) -> Result<Option<Commitment>> {
    json.map(|j| commitment_from(&parse_strict(j)?)).transpose()
}

/// The receipt key of a secret and key id, lowercase hex.
pub fn receipt_key(secret: &str, key_id: &str) -> String {
    ekl_core::hex::encode(&receipt::receipt_key(secret, key_id))
}

/// The `auth_tag` of a receipt (its other members) under a receipt secret.
pub fn auth_tag(receipt_json: &[u8], secret: &str) -> Result<String> {
    receipt::auth_tag(&canonical::parse(receipt_json)?, secret)
}

/// The receipt digest: SHA-256 of ekl-json-1 of the whole receipt.
pub fn receipt_digest(receipt_json: &[u8]) -> Result<String> {
    receipt::receipt_digest(&canonical::parse(receipt_json)?)
}

/// The receipt with its `auth_tag`, as canonical JSON.
pub fn sign_receipt(receipt_json: &[u8], secret: &str) -> Result<String> {
    text_of(&receipt::sign_receipt(
        &canonical::parse(receipt_json)?,
        secret,
    )?)
}

/// Verifies a MAC receipt; the verdict as canonical JSON.
pub fn verify_receipt(
    receipt_json: &[u8],
    key_ring_json: &[u8],
    call_json: &[u8],
    own_input: Option<&[u8]>,
    own_output: Option<&[u8]>,
) -> Result<String> {
    let ring = key_ring_from(&parse_strict(key_ring_json)?)?;
    let call = call_from(&parse_strict(call_json)?)?;
    let own_in = optional_commitment(own_input)?;
    let own_out = optional_commitment(own_output)?;
    let verdict = receipt::verify_receipt(
        &canonical::parse(receipt_json)?,
        &ring,
        &call,
        own_in.as_ref(),
        own_out.as_ref(),
    )?;
    text_of(&verdict.to_value())
}

/// Verifies many MAC receipts against one key ring. `items_json` is a JSON array of
/// `{"receipt", "call", "input_commitment"?, "output_commitment"?}`; the result is a JSON array
/// with, per item, the verdict or `{"error": {"code", "message"}}`.
pub fn verify_receipts(key_ring_json: &[u8], items_json: &[u8]) -> Result<String> {
    let ring = key_ring_from(&parse_strict(key_ring_json)?)?;
    let items = canonical::parse(items_json)?;
    let list = items
        .as_array()
        .ok_or_else(|| invalid("the items must be a JSON array".into()))?;
    let mut out = Vec::with_capacity(list.len());
    for item in list {
        out.push(match verify_item(&ring, item) {
            Ok(v) => v,
            Err(e) => error_value(&e),
        });
    }
    text_of(&Value::Array(out))
}

fn verify_item(ring: &KeyRing, item: &Value<'_>) -> Result<Value<'static>> {
    canonical::canonicalize_value(item)?;
    let receipt = item
        .get("receipt")
        .ok_or_else(|| invalid("an item needs a receipt".into()))?;
    let call = call_from(
        item.get("call")
            .ok_or_else(|| invalid("an item needs a call".into()))?,
    )?;
    let own = |name: &str| item.get(name).map(commitment_from).transpose();
    let (own_in, own_out) = (own("input_commitment")?, own("output_commitment")?);
    let verdicts = receipt::verify_receipts(
        ring,
        &[ReceiptToVerify {
            receipt,
            call: &call,
            own_input_commitment: own_in.as_ref(),
            own_output_commitment: own_out.as_ref(),
        }],
    );
    let verdict = verdicts
        .into_iter()
        .next()
        .ok_or_else(|| invalid("no verdict".into()))??;
    Ok(verdict.to_value())
}

/// `{"error": {"code", "message"}}` for an item that could not be verified.
pub(crate) fn error_value(e: &Error) -> Value<'static> {
    Value::Object(vec![(
        "error".into(),
        Value::Object(vec![
            ("code".into(), Value::from(e.code().as_str())),
            ("message".into(), Value::from(e.message().to_owned())),
        ]),
    )])
}

/// The `#[wasm_bindgen]` exports of this module (errors thrown as `CODE: message`).
mod exports {
    use wasm_bindgen::prelude::*;

    fn throw(e: ekl_core::Error) -> JsError {
        JsError::new(&e.to_string())
    }

    /// The receipt key of a secret and key id, lowercase hex.
    #[wasm_bindgen(js_name = receiptKey)]
    pub fn receipt_key(secret: &str, key_id: &str) -> String {
        super::receipt_key(secret, key_id)
    }

    /// The `auth_tag` of a receipt under a receipt secret.
    #[wasm_bindgen(js_name = authTag)]
    pub fn auth_tag(receipt: &[u8], secret: &str) -> Result<String, JsError> {
        super::auth_tag(receipt, secret).map_err(throw)
    }

    /// The receipt digest.
    #[wasm_bindgen(js_name = receiptDigest)]
    pub fn receipt_digest(receipt: &[u8]) -> Result<String, JsError> {
        super::receipt_digest(receipt).map_err(throw)
    }

    /// The receipt with its `auth_tag`, canonical JSON.
    #[wasm_bindgen(js_name = signReceipt)]
    pub fn sign_receipt(receipt: &[u8], secret: &str) -> Result<String, JsError> {
        super::sign_receipt(receipt, secret).map_err(throw)
    }

    /// The verdict on a MAC receipt, canonical JSON.
    #[wasm_bindgen(js_name = verifyReceipt)]
    pub fn verify_receipt(
        receipt: &[u8],
        key_ring: &[u8],
        call: &[u8],
        own_input: Option<Vec<u8>>,
        own_output: Option<Vec<u8>>,
    ) -> Result<String, JsError> {
        super::verify_receipt(
            receipt,
            key_ring,
            call,
            own_input.as_deref(),
            own_output.as_deref(),
        )
        .map_err(throw)
    }

    /// Verdicts (or errors) on many MAC receipts, a canonical JSON array.
    #[wasm_bindgen(js_name = verifyReceipts)]
    pub fn verify_receipts(key_ring: &[u8], items: &[u8]) -> Result<String, JsError> {
        super::verify_receipts(key_ring, items).map_err(throw)
    }
}
