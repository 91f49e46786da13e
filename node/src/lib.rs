//! The native half of the `ekl-core` npm package: napi-rs bindings over the core.
//!
//! This layer is deliberately thin and is not the public API (see `node/js/api.js`, which wraps
//! it and is shared with the wasm package):
//!
//! * every value a function works on arrives as **JSON text** (`string` or `Uint8Array`): the JS
//!   side converts host values to text with one strict walker (`node/js/convert.js`) and the core's
//!   parser applies every ekl-json-1 rule, so the text path and the value path cannot diverge;
//! * every refusal is thrown as a JS `Error` whose `code` is the core's stable
//!   [`ekl_core::ErrorCode`] string and whose message is the core's message; the JS wrapper turns
//!   it into an `EklError`;
//! * every function is `catch_unwind`: a panic becomes a thrown error, never an abort.
//!
//! JSON text arrives as UTF-8 bytes (`&[u8]`; the JS side encodes strings into a reusable buffer,
//! after refusing lone surrogates), and canonical bytes leave through a JS-owned output buffer
//! ([`emit`]): napi `String` and `Buffer` conversions cost more than the canonicalisation of a
//! small document.
//!
//! Adding a core operation: write one `#[napi(catch_unwind)]` function here that takes
//! JSON text (`&[u8]`) and strings, calls the core through [`value_op`] or [`core_err`], and add its wrapper in
//! `node/js/api.js` plus its declaration in `node/index.d.ts` (and its entry in
//! `docs/operations.json`).
#![deny(missing_docs)]

use ekl_core::canonical::{self, Options};
use ekl_core::{digest, fingerprint, proof, ErrorCode, Value};
use napi::bindgen_prelude::{AsyncTask, Buffer};
use napi::{Env, Task};
use napi_derive::napi;

/// The stable code string of a refusal, as the thrown error's `code`.
pub struct Code(&'static str);

impl AsRef<str> for Code {
    fn as_ref(&self) -> &str {
        self.0
    }
}

/// The result type of every exported function: errors carry the core's code.
pub type Result<T> = std::result::Result<T, napi::Error<Code>>;

/// Converts a core refusal into a thrown error (`code` = the stable string).
pub fn core_err(e: ekl_core::Error) -> napi::Error<Code> {
    napi::Error::new(Code(e.code().as_str()), e.message().to_owned())
}

fn invalid_argument(message: &str) -> napi::Error<Code> {
    napi::Error::new(
        Code(ErrorCode::InvalidArgument.as_str()),
        message.to_owned(),
    )
}

/// Bytes the native layer writes into: a `Uint8Array` owned by the JS side (a type alias, so that
/// the napi macro reads it as a plain `&mut [u8]` argument).
pub type OutBytes<'a> = &'a mut [u8];

thread_local! {
    /// A result too large for the caller's output buffer, kept for [`take_result`].
    static OVERFLOW: std::cell::RefCell<Option<Vec<u8>>> = const { std::cell::RefCell::new(None) };
}

/// Hands bytes to JS without allocating a JS object per call: copies them into `out` and returns
/// their length when they fit; otherwise keeps them for [`take_result`] and returns -1.
/// (Creating a `Buffer` from napi costs microseconds per call; the JS side copies from its
/// reusable output buffer into a pooled `Buffer` far faster.)
fn emit(bytes: Vec<u8>, out: OutBytes<'_>) -> f64 {
    if let Some(dst) = out.get_mut(..bytes.len()) {
        dst.copy_from_slice(&bytes);
        bytes.len() as f64
    } else {
        OVERFLOW.with(|o| *o.borrow_mut() = Some(bytes));
        -1.0
    }
}

/// The result that the last call on this thread could not fit into its output buffer.
#[napi]
pub fn take_result() -> Buffer {
    OVERFLOW
        .with(|o| o.borrow_mut().take())
        .unwrap_or_default()
        .into()
}

/// Parses JSON text (UTF-8 bytes) with every ekl-json-1 rule and runs `op` on the value.
pub fn value_op<T>(json: &[u8], op: impl FnOnce(&Value<'_>) -> ekl_core::Result<T>) -> Result<T> {
    let value = canonical::parse(json).map_err(core_err)?;
    op(&value).map_err(core_err)
}

fn options(max_bytes: Option<f64>) -> Result<Options> {
    match max_bytes {
        None => Ok(Options::default()),
        Some(n) if n.is_finite() && n >= 0.0 && n.fract() == 0.0 && n <= 9007199254740992.0 => {
            Ok(Options {
                max_bytes: Some(usize::try_from(n as u64).unwrap_or(usize::MAX)),
            })
        }
        Some(_) => Err(invalid_argument("maxBytes must be a non-negative integer")),
    }
}

fn salt(salt: Option<&str>) -> Result<Option<digest::Salt>> {
    salt.map(digest::Salt::from_hex)
        .transpose()
        .map_err(core_err)
}

fn required_salt(text: &str) -> Result<digest::Salt> {
    digest::Salt::from_hex(text).map_err(core_err)
}

fn parse_proof_key(hex: &str) -> Result<proof::ProofKey> {
    proof::ProofKey::from_hex(hex).map_err(core_err)
}

// ---------------------------------------------------------------------------------------------
// ekl-json-1
// ---------------------------------------------------------------------------------------------

/// Canonicalises JSON text (ekl-json-1) into `out` (see [`emit`]); `maxBytes` limits the canonical
/// form (`BODY_TOO_LARGE`).
#[napi(catch_unwind)]
pub fn canonicalize_into(
    json: &[u8],
    max_bytes: Option<f64>,
    #[napi(ts_arg_type = "Uint8Array")] out: OutBytes<'_>,
) -> Result<f64> {
    let opts = options(max_bytes)?;
    canonical::canonicalize_with(json, opts)
        .map(|bytes| emit(bytes, out))
        .map_err(core_err)
}

/// The off-thread canonicalisation behind `canonicalizeAsync`.
pub struct CanonicalizeTask {
    json: Vec<u8>,
    options: Options,
}

impl Task for CanonicalizeTask {
    type Output = std::result::Result<Vec<u8>, ekl_core::Error>;
    type JsValue = Buffer;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(canonical::canonicalize_with(&self.json, self.options))
    }

    fn resolve(&mut self, _env: Env, output: Self::Output) -> napi::Result<Buffer> {
        match output {
            Ok(bytes) => Ok(Buffer::from(bytes)),
            // An async rejection cannot carry a custom `code`: the code leads the message
            // ("CODE: message", the core's Display form) and the JS wrapper parses it back.
            Err(e) => Err(napi::Error::new(
                napi::Status::GenericFailure,
                e.to_string(),
            )),
        }
    }
}

/// Canonicalises JSON text on the libuv thread pool; resolves to the canonical bytes.
#[napi(catch_unwind, ts_return_type = "Promise<Buffer>")]
pub fn canonicalize_async(
    json: &[u8],
    max_bytes: Option<f64>,
) -> Result<AsyncTask<CanonicalizeTask>> {
    Ok(AsyncTask::new(CanonicalizeTask {
        json: json.to_vec(),
        options: options(max_bytes)?,
    }))
}

/// Every error code of the core, in declaration order (the JS and TS lists are checked against it).
#[napi]
pub fn error_codes() -> Vec<String> {
    ErrorCode::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .collect()
}

/// The version of the core this addon was built from.
#[napi]
pub fn core_version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// Test hook: panics inside a `catch_unwind` function, to prove a panic is thrown, not fatal.
#[napi(catch_unwind, js_name = "__testPanic")]
pub fn test_panic() -> Result<()> {
    panic!("deliberate panic for the test suite")
}

// ---------------------------------------------------------------------------------------------
// digests and commitments
// ---------------------------------------------------------------------------------------------

/// Lowercase hex SHA-256 of bytes (a string is hashed as its UTF-8 bytes).
#[napi(catch_unwind)]
pub fn sha256_hex(data: &[u8]) -> String {
    digest::sha256_hex(data)
}

/// A commitment as a plain object, with the protocol's member names.
#[napi(object)]
pub struct Commitment {
    /// Always `sha-256`.
    pub alg: String,
    /// Always `ekl-json-1`.
    pub canon: String,
    /// Lowercase hex SHA-256.
    pub digest: String,
    /// The salt's identifier, when given.
    #[napi(js_name = "salt_id")]
    pub salt_id: Option<String>,
    /// The disclosed salt, when salted.
    pub salt: Option<String>,
}

impl From<digest::Commitment> for Commitment {
    fn from(c: digest::Commitment) -> Self {
        Commitment {
            alg: c.alg.to_owned(),
            canon: c.canon.to_owned(),
            digest: c.digest,
            salt_id: c.salt_id,
            salt: c.salt,
        }
    }
}

/// The commitment to a value (JSON text), optionally salted.
#[napi(catch_unwind)]
pub fn commitment(
    json: &[u8],
    salt_hex: Option<String>,
    salt_id: Option<String>,
) -> Result<Commitment> {
    let s = salt(salt_hex.as_deref())?;
    value_op(json, |v| {
        digest::commitment(v, s.as_ref(), salt_id.as_deref())
    })
    .map(Into::into)
}

/// The commitment to a capability call's input (256 KB limit, `BODY_TOO_LARGE`).
#[napi(catch_unwind)]
pub fn input_commitment(
    json: &[u8],
    salt_hex: Option<String>,
    salt_id: Option<String>,
) -> Result<Commitment> {
    let s = salt(salt_hex.as_deref())?;
    value_op(json, |v| {
        digest::input_commitment(v, s.as_ref(), salt_id.as_deref())
    })
    .map(Into::into)
}

/// The terms hash of §6.7.1.
#[napi(catch_unwind)]
pub fn terms_hash(json: &[u8]) -> Result<String> {
    value_op(json, digest::terms_hash)
}

// ---------------------------------------------------------------------------------------------
// fingerprints
// ---------------------------------------------------------------------------------------------

/// The salted fingerprint of a value.
#[napi(catch_unwind)]
pub fn fingerprint(salt_hex: String, json: &[u8]) -> Result<String> {
    let s = required_salt(&salt_hex)?;
    value_op(json, |v| fingerprint::fingerprint(&s, v))
}

/// The output fingerprint of an MCP tool result.
#[napi(catch_unwind)]
pub fn output_fingerprint(salt_hex: String, json: &[u8]) -> Result<String> {
    let s = required_salt(&salt_hex)?;
    value_op(json, |v| fingerprint::output_fingerprint(&s, v))
}

/// The body of a tool result that the output fingerprint covers.
#[napi(object)]
pub struct ResultBody {
    /// `structuredContent` or `content`.
    pub member: String,
    /// The body as canonical JSON text (the JS wrapper parses it).
    pub canonical: String,
}

/// Selects the body of an MCP tool result that the output fingerprint covers.
#[napi(catch_unwind)]
pub fn select_result_body(json: &[u8]) -> Result<ResultBody> {
    value_op(json, |v| {
        let (member, body) = fingerprint::select_result_body(v)?;
        let bytes = canonical::canonicalize_value(body)?;
        Ok(ResultBody {
            member: member.as_str().to_owned(),
            canonical: String::from_utf8(bytes).expect("canonical JSON is UTF-8"),
        })
    })
}

/// The upstream fingerprint of a `tools/list` result (or its array), optionally only the offered
/// tools.
#[napi(catch_unwind)]
pub fn upstream_fingerprint(json: &[u8], offered: Option<Vec<String>>) -> Result<String> {
    let names: Option<Vec<&str>> = offered
        .as_ref()
        .map(|o| o.iter().map(String::as_str).collect());
    value_op(json, |v| {
        fingerprint::upstream_fingerprint(v, names.as_deref())
    })
}

// ---------------------------------------------------------------------------------------------
// endpoint proofs
// ---------------------------------------------------------------------------------------------

/// The proof key derived from the agent key, as lowercase hex.
#[napi(catch_unwind)]
pub fn proof_key(agent_key: String) -> String {
    proof::ProofKey::derive(&agent_key).to_hex()
}

/// The v1 endpoint challenge proof.
#[napi(catch_unwind)]
pub fn challenge_proof_v1(credential: String, challenge: String, endpoint: String) -> String {
    proof::challenge_proof_v1(&credential, &challenge, &endpoint)
}

/// The v2 endpoint challenge proof (proof key as 64 lowercase hex characters).
#[napi(catch_unwind)]
pub fn challenge_proof_v2(
    proof_key_hex: String,
    challenge: String,
    endpoint: String,
) -> Result<String> {
    let key = parse_proof_key(&proof_key_hex)?;
    Ok(proof::challenge_proof_v2(&key, &challenge, &endpoint))
}

/// The v1 `ekl_enroll` authority.
#[napi(catch_unwind)]
pub fn enroll_authority_v1(
    agent_key: String,
    enrollment_id: String,
    nonce: String,
    endpoint: String,
) -> String {
    proof::enroll_authority_v1(&agent_key, &enrollment_id, &nonce, &endpoint)
}

/// The v2 `ekl_enroll` authority (proof key as 64 lowercase hex characters).
#[napi(catch_unwind)]
pub fn enroll_authority_v2(
    proof_key_hex: String,
    enrollment_id: String,
    nonce: String,
    endpoint: String,
) -> Result<String> {
    let key = parse_proof_key(&proof_key_hex)?;
    Ok(proof::enroll_authority_v2(
        &key,
        &enrollment_id,
        &nonce,
        &endpoint,
    ))
}

/// The `ekl_verify` signature.
#[napi(catch_unwind)]
pub fn verify_signature(
    registration_secret: String,
    agent_id: String,
    enrollment_id: String,
    challenge: String,
) -> String {
    proof::verify_signature(&registration_secret, &agent_id, &enrollment_id, &challenge)
}

/// Checks an `ekl_verify` signature in constant time.
#[napi(catch_unwind)]
pub fn check_verify_signature(
    registration_secret: String,
    agent_id: String,
    enrollment_id: String,
    challenge: String,
    signature: String,
) -> bool {
    proof::check_verify_signature(
        &registration_secret,
        &agent_id,
        &enrollment_id,
        &challenge,
        &signature,
    )
}
