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
use ekl_core::jwk::{Jwks, SigningKey};
use ekl_core::receipt_sig::{self, CallContext};
use ekl_core::{Error, ErrorCode, Result, Value};
use zeroize::{Zeroize, Zeroizing};

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

/// The call context from its JSON object (parsed by the core, `CallContext::from_value`).
pub fn call_context<'a>(call: &'a Value<'a>) -> Result<CallContext<'a>> {
    CallContext::from_value(call)
}

/// Verifies a receipt's compact JWS against the call; the verdict as canonical JSON.
pub fn verify_receipt_jws(token: &str, jwks_json: &[u8], call_json: &[u8]) -> Result<String> {
    let call = parse_strict(call_json)?;
    let context = call_context(&call)?;
    let verdict = with_jwks(jwks_json, |jwks| {
        receipt_sig::verify_receipt_jws(token, jwks, &context)
    })?;
    text_of(&verdict.to_value())
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
    text_of(&verdict.to_value())
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

/// Parses and validates a JWKS; its canonical JSON text (what the handle keeps and passes back).
pub fn jwks_parse(json: &[u8]) -> Result<String> {
    Ok(Jwks::parse(json)?.to_json())
}

fn typ_of(text: &str) -> Result<ekl_core::jws::Typ> {
    ekl_core::jws::Typ::from_header(text)
        .ok_or_else(|| invalid("typ is not one of the EKP token types".into()))
}

/// The claim checks of [`verify_jws`], as the binding passes them.
#[derive(Clone, Copy, Debug)]
pub struct JwsChecks<'a> {
    /// The caller's clock (seconds).
    pub now: i64,
    /// The expected `iss`.
    pub issuer: Option<&'a str>,
    /// The expected `aud`.
    pub audience: Option<&'a str>,
    /// The allowed skew (default 60 s).
    pub skew: Option<i64>,
    /// The longest `exp − iat` allowed.
    pub max_lifetime: Option<i64>,
    /// Whether `exp` is required (default yes).
    pub require_exp: Option<bool>,
    /// Whether `iat` is required (default yes).
    pub require_iat: Option<bool>,
}

/// Verifies a compact JWS of type `typ`: header, signature and the claims asked for. Returns the
/// canonical JSON `{"header", "claims", "kid", "typ", "token_sha256"}`.
pub fn verify_jws(token: &str, typ: &str, jwks_json: &[u8], c: &JwsChecks<'_>) -> Result<String> {
    let typ = typ_of(typ)?;
    let defaults = ekl_core::jws::ClaimChecks::at(c.now);
    let checks = ekl_core::jws::ClaimChecks {
        issuer: c.issuer,
        audience: c.audience,
        now: c.now,
        skew: c.skew.unwrap_or(defaults.skew),
        require_exp: c.require_exp.unwrap_or(defaults.require_exp),
        require_iat: c.require_iat.unwrap_or(defaults.require_iat),
        max_lifetime: c.max_lifetime.or(defaults.max_lifetime),
    };
    let v = with_jwks(jwks_json, |jwks| {
        ekl_core::jws::verify(token, typ, jwks, &checks)
    })?;
    // Written member by member, each verified value canonicalised on its own: wrapping them in
    // one Value would add a level, and claims that reach the depth limit (accepted by the
    // verifier, as by every other surface) would be refused here with INPUT_TOO_DEEP.
    let mut out = Vec::new();
    out.extend_from_slice(b"{\"claims\":");
    out.extend_from_slice(&canonical::canonicalize_value(&v.claims)?);
    out.extend_from_slice(b",\"header\":");
    out.extend_from_slice(&canonical::canonicalize_value(&v.header)?);
    out.extend_from_slice(b",\"kid\":");
    canonical::write_string(&v.kid, &mut out);
    out.extend_from_slice(b",\"token_sha256\":");
    canonical::write_string(&v.token_sha256, &mut out);
    out.extend_from_slice(b",\"typ\":");
    canonical::write_string(v.typ.as_str(), &mut out);
    out.push(b'}');
    String::from_utf8(out)
        .map_err(|_| Error::new(ErrorCode::InvalidUtf8, "canonical output is not UTF-8"))
}

/// The 32 seed bytes of 64 lowercase hex, wiped when dropped.
fn seed_of(seed_hex: &str) -> Result<Zeroizing<[u8; 32]>> {
    ekl_core::hex::decode_fixed::<32>(seed_hex, ErrorCode::InvalidKey, "seed").map(Zeroizing::new)
}

/// Overwrites the 32 KB of stack below the caller's frame, where the functions it called left
/// their locals: the seed's bytes and the scalar derived from it (moved and copied on the way, in
/// frames that are gone) stay in the module's linear memory until overwritten. Called by the
/// exports that handle a seed or a signing key, once they are done with it.
#[inline(never)]
pub fn scrub_stack() {
    let mut area = [0u8; 32 * 1024];
    // Volatile writes (zeroize): not removed as dead stores.
    area.zeroize();
    core::hint::black_box(&area);
}

/// The signing key of a seed (64 lowercase hex) and a kid. The seed's bytes are wiped once the
/// key is derived; the key's secret scalar is wiped when the key is dropped (p256's
/// `ZeroizeOnDrop`).
pub fn signing_key(seed_hex: &str, kid: &str) -> Result<SigningKey> {
    SigningKey::from_seed(&*seed_of(seed_hex)?, kid)
}

/// The JWKS of the keys derived from one seed, one per kid (`INVALID_KEY` for equal kids), as
/// canonical JSON text (the binding makes the signing keys with [`signing_key`], one per kid:
/// the same keys).
pub fn jwks_from_seed(seed_hex: &str, kids: &[String]) -> Result<String> {
    let refs: Vec<&str> = kids.iter().map(String::as_str).collect();
    Ok(ekl_core::jwk::jwks_from_seed(&*seed_of(seed_hex)?, &refs)?
        .0
        .to_json())
}

/// Signs claims as a compact JWS of type `typ` with `key`.
pub fn sign_jws(typ: &str, claims_json: &[u8], key: &SigningKey) -> Result<String> {
    let typ = typ_of(typ)?;
    ekl_core::jws::sign(typ, &parse_strict(claims_json)?, key)
}

/// Issues a complete network-signed receipt from its fields; canonical JSON.
pub fn issue_receipt(
    fields_json: &[u8],
    key: &SigningKey,
    issuer: &str,
    audience: &str,
) -> Result<String> {
    text_of(&receipt_sig::issue_receipt(
        &parse_strict(fields_json)?,
        key,
        issuer,
        audience,
    )?)
}

/// The `#[wasm_bindgen]` exports of this module (errors thrown as `CODE: message`).
mod exports {
    use wasm_bindgen::prelude::*;
    use zeroize::Zeroizing;

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

    /// A validated JWKS as canonical JSON.
    #[wasm_bindgen(js_name = jwksParse)]
    pub fn jwks_parse(jwks: &[u8]) -> Result<String, JsError> {
        super::jwks_parse(jwks).map_err(throw)
    }

    fn seconds(x: Option<f64>, what: &str) -> Result<Option<i64>, JsError> {
        match x {
            None => Ok(None),
            Some(v) if v.fract() == 0.0 && v.abs() <= 9_007_199_254_740_992.0 => Ok(Some(v as i64)),
            Some(_) => Err(JsError::new(&format!(
                "INVALID_ARGUMENT: {what} must be an integer (seconds)"
            ))),
        }
    }

    /// Verifies a compact JWS; canonical JSON `{header, claims, kid, typ, token_sha256}`.
    #[wasm_bindgen(js_name = verifyJws)]
    #[allow(clippy::too_many_arguments)]
    pub fn verify_jws(
        token: &str,
        typ: &str,
        jwks: &[u8],
        now: f64,
        issuer: Option<String>,
        audience: Option<String>,
        skew: Option<f64>,
        max_lifetime: Option<f64>,
        require_exp: Option<bool>,
        require_iat: Option<bool>,
    ) -> Result<String, JsError> {
        let checks = super::JwsChecks {
            now: seconds(Some(now), "now")?.unwrap_or_default(),
            issuer: issuer.as_deref(),
            audience: audience.as_deref(),
            skew: seconds(skew, "skew")?,
            max_lifetime: seconds(max_lifetime, "maxLifetime")?,
            require_exp,
            require_iat,
        };
        super::verify_jws(token, typ, jwks, &checks).map_err(throw)
    }

    /// An ES256 signing key held inside the module. JS holds only this object, whose one field
    /// is wasm-bindgen's pointer into the module's memory: the seed and the secret scalar never
    /// become JS values, so no inspector, `JSON.stringify` or property walk can show them.
    /// `free()` (or wasm-bindgen's FinalizationRegistry, once the object is collected) drops the
    /// key, which wipes its scalar.
    #[wasm_bindgen]
    pub struct SigningKeyHandle {
        inner: super::SigningKey,
    }

    #[wasm_bindgen]
    impl SigningKeyHandle {
        /// The key of a seed (64 lowercase hex) and a kid (`INVALID_KEY` otherwise). The seed's
        /// text is taken by value and wiped here, as are its decoded bytes.
        #[wasm_bindgen(constructor)]
        pub fn new(seed_hex: String, kid: &str) -> Result<SigningKeyHandle, JsError> {
            let seed_hex = Zeroizing::new(seed_hex);
            let key = super::signing_key(&seed_hex, kid).map(|inner| SigningKeyHandle { inner });
            super::scrub_stack();
            key.map_err(throw)
        }

        /// The key id.
        pub fn kid(&self) -> String {
            self.inner.kid().to_owned()
        }
    }

    /// The JWKS of the keys derived from one seed, one per kid; canonical JSON.
    #[wasm_bindgen(js_name = jwksFromSeed)]
    pub fn jwks_from_seed(seed_hex: String, kids: Vec<String>) -> Result<String, JsError> {
        let seed_hex = Zeroizing::new(seed_hex);
        let jwks = super::jwks_from_seed(&seed_hex, &kids);
        super::scrub_stack();
        jwks.map_err(throw)
    }

    /// Signs claims as a compact JWS.
    #[wasm_bindgen(js_name = signJws)]
    pub fn sign_jws(typ: &str, claims: &[u8], key: &SigningKeyHandle) -> Result<String, JsError> {
        let token = super::sign_jws(typ, claims, &key.inner);
        super::scrub_stack();
        token.map_err(throw)
    }

    /// Issues a network-signed receipt; canonical JSON.
    #[wasm_bindgen(js_name = issueReceipt)]
    pub fn issue_receipt(
        fields: &[u8],
        key: &SigningKeyHandle,
        issuer: &str,
        audience: &str,
    ) -> Result<String, JsError> {
        let receipt = super::issue_receipt(fields, &key.inner, issuer, audience);
        super::scrub_stack();
        receipt.map_err(throw)
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

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = "1111111111111111111111111111111111111111111111111111111111111111";

    /// Claims `{"exp", "iat", "deep": [[...[1]...]]}` whose nesting is exactly `depth`.
    fn claims(depth: usize) -> String {
        let inner = "[".repeat(depth - 1) + "1" + &"]".repeat(depth - 1);
        format!(r#"{{"deep":{inner},"exp":2000,"iat":1000}}"#)
    }

    #[test]
    fn verify_jws_answers_claims_at_the_depth_limit() {
        let key = signing_key(SEED, "k1").unwrap();
        let jwks = jwks_from_seed(SEED, &["k1".to_owned()]).unwrap();
        let checks = JwsChecks {
            now: 1500,
            issuer: None,
            audience: None,
            skew: None,
            max_lifetime: None,
            require_exp: None,
            require_iat: None,
        };
        let text = claims(64);
        let token = sign_jws("ekl-access+jwt", text.as_bytes(), &key).unwrap();
        let out = verify_jws(&token, "ekl-access+jwt", jwks.as_bytes(), &checks).unwrap();
        // The output is canonical JSON, with the claims as they were signed.
        let canonical_claims = canonical::canonicalize(text.as_bytes()).unwrap();
        let want_prefix = format!(
            "{{\"claims\":{},\"header\":{{",
            String::from_utf8(canonical_claims).unwrap()
        );
        assert!(out.starts_with(&want_prefix), "{out}");
        assert!(out.ends_with(r#","typ":"ekl-access+jwt"}"#), "{out}");
        assert!(out.contains(r#","kid":"k1","token_sha256":""#), "{out}");
        // The whole is one level deeper than the limit: built as one Value (as before), it was
        // refused with INPUT_TOO_DEEP; that is why it is written member by member.
        let e = canonical::canonicalize(out.as_bytes()).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InputTooDeep);
        // One level more is refused by the signer, as everywhere.
        let e = sign_jws("ekl-access+jwt", claims(65).as_bytes(), &key).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InputTooDeep);
    }

    #[test]
    fn verify_jws_output_is_what_a_value_would_give() {
        let key = signing_key(SEED, "k1").unwrap();
        let jwks = jwks_from_seed(SEED, &["k1".to_owned()]).unwrap();
        let checks = JwsChecks {
            now: 1500,
            issuer: None,
            audience: None,
            skew: None,
            max_lifetime: None,
            require_exp: None,
            require_iat: None,
        };
        let token = sign_jws(
            "ekl-access+jwt",
            br#"{"iat":1000,"exp":2000,"b":"\u00e9\n","a":[1.5,null]}"#,
            &key,
        )
        .unwrap();
        let out = verify_jws(&token, "ekl-access+jwt", jwks.as_bytes(), &checks).unwrap();
        // Shallow claims: the hand-written object equals the canonical form of the same members.
        let again = canonical::canonicalize(out.as_bytes()).unwrap();
        assert_eq!(String::from_utf8(again).unwrap(), out);
    }
}
