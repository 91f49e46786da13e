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
//! * every function runs in [`guarded`]: a panic becomes a thrown `INTERNAL_ERROR` with a fixed
//!   message (the panic's text may quote input), never an abort.
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
use ekl_core::{
    digest, fingerprint, jwk, jws, proof, receipt, receipt_sig, screening, screening_rules,
    verdict, ErrorCode, Value,
};
use napi::bindgen_prelude::{AsyncTask, Buffer, Either, Uint8Array};
use napi::{Env, Task};
use napi_derive::napi;
use zeroize::Zeroizing;

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

/// The fixed message of a caught panic: a panic's own text may quote input, so it never reaches JS.
pub const INTERNAL_MESSAGE: &str =
    "internal error in ekl-core (a bug, never an answer to input: please report it)";

/// The error of a caught panic: `INTERNAL_ERROR` with [`INTERNAL_MESSAGE`].
pub fn internal_err() -> napi::Error<Code> {
    napi::Error::new(
        Code(ErrorCode::Internal.as_str()),
        INTERNAL_MESSAGE.to_owned(),
    )
}

/// Replaces the default panic hook of this addon (its own copy of the standard library, so the
/// process's other Rust code is untouched) with one that writes the location only: the default
/// one would print the panic's text, which may quote input, to stderr.
fn quiet_panic_hook() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let at = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            eprintln!("ekl-core: internal error caught{at} (please report it)");
        }));
    });
}

/// Runs the body of an exported function: a panic (none is reachable from input; this keeps the
/// promise should one be) becomes `INTERNAL_ERROR` with a fixed message, and the addon keeps
/// serving. (`#[napi(catch_unwind)]` stays as a second net for napi's own argument conversions.)
pub fn guarded<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    quiet_panic_hook();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        // A payload whose Drop panics again must not unwind across the FFI boundary.
        std::mem::forget(payload);
        Err(internal_err())
    })
}

/// [`guarded`] for work on the thread pool, whose refusals are core errors.
fn guarded_core<T>(f: impl FnOnce() -> ekl_core::Result<T>) -> ekl_core::Result<T> {
    quiet_panic_hook();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        std::mem::forget(payload);
        Err(ekl_core::Error::new(ErrorCode::Internal, INTERNAL_MESSAGE))
    })
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
    guarded(|| {
        let opts = options(max_bytes)?;
        canonical::canonicalize_with(json, opts)
            .map(|bytes| emit(bytes, out))
            .map_err(core_err)
    })
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
        Ok(guarded_core(|| {
            canonical::canonicalize_with(&self.json, self.options)
        }))
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
    guarded(|| {
        Ok(AsyncTask::new(CanonicalizeTask {
            json: json.to_vec(),
            options: options(max_bytes)?,
        }))
    })
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

/// Test hook (hidden, test-only): panics inside [`guarded`], to prove that a panic becomes
/// `INTERNAL_ERROR` with a fixed message, never an abort, and that the addon keeps serving.
#[napi(catch_unwind, js_name = "__testPanic")]
pub fn test_panic() -> Result<()> {
    guarded(|| panic!("deliberate panic for the test suite"))
}

// ---------------------------------------------------------------------------------------------
// digests and commitments
// ---------------------------------------------------------------------------------------------

/// Lowercase hex SHA-256 of bytes (a string is hashed as its UTF-8 bytes).
#[napi(catch_unwind)]
pub fn sha256_hex(data: &[u8]) -> Result<String> {
    guarded(|| Ok(digest::sha256_hex(data)))
}

/// Lowercase hex SHA-256 of (the salt's 32 bytes ‖) the value's canonical bytes.
#[napi(catch_unwind)]
pub fn value_digest(json: &[u8], salt_hex: Option<String>) -> Result<String> {
    guarded(|| {
        let salt = salt_hex.as_deref().map(required_salt).transpose()?;
        value_op(json, |v| digest::value_digest(v, salt.as_ref()))
    })
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
    guarded(|| {
        let s = salt(salt_hex.as_deref())?;
        value_op(json, |v| {
            digest::commitment(v, s.as_ref(), salt_id.as_deref())
        })
        .map(Into::into)
    })
}

/// The commitment to a capability call's input (256 KB limit, `BODY_TOO_LARGE`).
#[napi(catch_unwind)]
pub fn input_commitment(
    json: &[u8],
    salt_hex: Option<String>,
    salt_id: Option<String>,
) -> Result<Commitment> {
    guarded(|| {
        let s = salt(salt_hex.as_deref())?;
        value_op(json, |v| {
            digest::input_commitment(v, s.as_ref(), salt_id.as_deref())
        })
        .map(Into::into)
    })
}

/// The terms hash of §6.7.1.
#[napi(catch_unwind)]
pub fn terms_hash(json: &[u8]) -> Result<String> {
    guarded(|| value_op(json, digest::terms_hash))
}

// ---------------------------------------------------------------------------------------------
// fingerprints
// ---------------------------------------------------------------------------------------------

/// The salted fingerprint of a value.
#[napi(catch_unwind)]
pub fn fingerprint(salt_hex: String, json: &[u8]) -> Result<String> {
    guarded(|| {
        let s = required_salt(&salt_hex)?;
        value_op(json, |v| fingerprint::fingerprint(&s, v))
    })
}

/// The output fingerprint of an MCP tool result.
#[napi(catch_unwind)]
pub fn output_fingerprint(salt_hex: String, json: &[u8]) -> Result<String> {
    guarded(|| {
        let s = required_salt(&salt_hex)?;
        value_op(json, |v| fingerprint::output_fingerprint(&s, v))
    })
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
    guarded(|| {
        value_op(json, |v| {
            let (member, body) = fingerprint::select_result_body(v)?;
            let bytes = canonical::canonicalize_value(body)?;
            Ok(ResultBody {
                member: member.as_str().to_owned(),
                canonical: String::from_utf8(bytes).expect("canonical JSON is UTF-8"),
            })
        })
    })
}

/// The upstream fingerprint of a `tools/list` result (or its array), optionally only the offered
/// tools.
#[napi(catch_unwind)]
pub fn upstream_fingerprint(json: &[u8], offered: Option<Vec<String>>) -> Result<String> {
    guarded(|| {
        let names: Option<Vec<&str>> = offered
            .as_ref()
            .map(|o| o.iter().map(String::as_str).collect());
        value_op(json, |v| {
            fingerprint::upstream_fingerprint(v, names.as_deref())
        })
    })
}

/// The array the upstream fingerprint hashes (§5.1), as canonical JSON text (the JS wrapper
/// parses it): the kept tools sorted by name, each projected to the fingerprinted members.
#[napi(catch_unwind)]
pub fn upstream_projection(json: &[u8], offered: Option<Vec<String>>) -> Result<String> {
    guarded(|| {
        let names: Option<Vec<&str>> = offered
            .as_ref()
            .map(|o| o.iter().map(String::as_str).collect());
        let value = canonical::parse(json).map_err(core_err)?;
        let projected =
            fingerprint::upstream_projection(&value, names.as_deref()).map_err(core_err)?;
        canonical_text(&projected)
    })
}

// ---------------------------------------------------------------------------------------------
// endpoint proofs
// ---------------------------------------------------------------------------------------------

/// The proof key derived from the agent key, as lowercase hex.
#[napi(catch_unwind)]
pub fn proof_key(agent_key: String) -> Result<String> {
    guarded(|| Ok(proof::ProofKey::derive(&agent_key).to_hex()))
}

/// The v1 endpoint challenge proof.
#[napi(catch_unwind)]
pub fn challenge_proof_v1(
    credential: String,
    challenge: String,
    endpoint: String,
) -> Result<String> {
    guarded(|| {
        Ok(proof::challenge_proof_v1(
            &credential,
            &challenge,
            &endpoint,
        ))
    })
}

/// The v2 endpoint challenge proof (proof key as 64 lowercase hex characters).
#[napi(catch_unwind)]
pub fn challenge_proof_v2(
    proof_key_hex: String,
    challenge: String,
    endpoint: String,
) -> Result<String> {
    guarded(|| {
        let key = parse_proof_key(&proof_key_hex)?;
        Ok(proof::challenge_proof_v2(&key, &challenge, &endpoint))
    })
}

/// The v1 `ekl_enroll` authority.
#[napi(catch_unwind)]
pub fn enroll_authority_v1(
    agent_key: String,
    enrollment_id: String,
    nonce: String,
    endpoint: String,
) -> Result<String> {
    guarded(|| {
        Ok(proof::enroll_authority_v1(
            &agent_key,
            &enrollment_id,
            &nonce,
            &endpoint,
        ))
    })
}

/// The v2 `ekl_enroll` authority (proof key as 64 lowercase hex characters).
#[napi(catch_unwind)]
pub fn enroll_authority_v2(
    proof_key_hex: String,
    enrollment_id: String,
    nonce: String,
    endpoint: String,
) -> Result<String> {
    guarded(|| {
        let key = parse_proof_key(&proof_key_hex)?;
        Ok(proof::enroll_authority_v2(
            &key,
            &enrollment_id,
            &nonce,
            &endpoint,
        ))
    })
}

/// The `ekl_verify` signature.
#[napi(catch_unwind)]
pub fn verify_signature(
    registration_secret: String,
    agent_id: String,
    enrollment_id: String,
    challenge: String,
) -> Result<String> {
    guarded(|| {
        Ok(
            {
                proof::verify_signature(&registration_secret, &agent_id, &enrollment_id, &challenge)
            },
        )
    })
}

/// Checks an `ekl_verify` signature in constant time.
#[napi(catch_unwind)]
pub fn check_verify_signature(
    registration_secret: String,
    agent_id: String,
    enrollment_id: String,
    challenge: String,
    signature: String,
) -> Result<bool> {
    guarded(|| {
        Ok(proof::check_verify_signature(
            &registration_secret,
            &agent_id,
            &enrollment_id,
            &challenge,
            &signature,
        ))
    })
}

// ---------------------------------------------------------------------------------------------
// endpoint proofs: the verifiers (no downgrade, §3.1)
// ---------------------------------------------------------------------------------------------

/// The network side of the endpoint challenge: `holds` is `proofKey` (then `holdsHex` is the proof
/// key) or `credentialHash` (the SHA-256 hex of the agent key). Returns `v1` or `v2`.
#[napi(catch_unwind)]
pub fn verify_challenge_proof(
    holds: String,
    holds_hex: String,
    challenge: String,
    endpoint: String,
    proof: Option<String>,
    proof_v2: Option<String>,
) -> Result<String> {
    guarded(|| {
        let held = match holds.as_str() {
            "proofKey" => proof::NetworkHolds::ProofKey(parse_proof_key(&holds_hex)?),
            "credentialHash" => {
                proof::NetworkHolds::credential_hash_hex(&holds_hex).map_err(core_err)?
            }
            _ => return Err(invalid_argument("holds must be proofKey or credentialHash")),
        };
        proof::verify_challenge_proof(
            &held,
            &challenge,
            &endpoint,
            proof.as_deref(),
            proof_v2.as_deref(),
        )
        .map(|v| v.as_str().to_owned())
        .map_err(core_err)
    })
}

/// The agent side of `ekl_enroll`: checks the authority under the version announced (`v1`/`v2`).
#[napi(catch_unwind)]
#[allow(clippy::too_many_arguments)]
pub fn verify_enroll_authority(
    announced: String,
    agent_key: String,
    enrollment_id: String,
    nonce: String,
    endpoint: String,
    authority: Option<String>,
    authority_version: Option<u32>,
) -> Result<String> {
    guarded(|| {
        let announced = proof::ProofVersion::from_name(&announced).map_err(core_err)?;
        proof::verify_enroll_authority(
            announced,
            &agent_key,
            &enrollment_id,
            &nonce,
            &endpoint,
            authority.as_deref(),
            authority_version,
        )
        .map(|v| v.as_str().to_owned())
        .map_err(core_err)
    })
}

// ---------------------------------------------------------------------------------------------
// MAC receipts (ekl-evidence-mac-1.1, §9.5)
// ---------------------------------------------------------------------------------------------

/// The receipt key (HMAC-SHA256(secret, "ekl-receipt-1.1" ‖ 0x00 ‖ key_id)), lowercase hex.
#[napi(catch_unwind)]
pub fn receipt_key(secret: String, key_id: String) -> Result<String> {
    guarded(|| {
        Ok(ekl_core::hex::encode(&receipt::receipt_key(
            &secret, &key_id,
        )))
    })
}

/// The `auth_tag` of a receipt (JSON text) under a receipt secret.
#[napi(catch_unwind)]
pub fn auth_tag(json: &[u8], secret: String) -> Result<String> {
    guarded(|| value_op(json, |v| receipt::auth_tag(v, &secret)))
}

/// The receipt digest: SHA-256 of the ekl-json-1 bytes of the whole receipt.
#[napi(catch_unwind)]
pub fn receipt_digest(json: &[u8]) -> Result<String> {
    guarded(|| value_op(json, receipt::receipt_digest))
}

/// The receipt with its `auth_tag`, as canonical JSON text (the JS wrapper parses it).
#[napi(catch_unwind)]
pub fn sign_receipt(json: &[u8], secret: String) -> Result<String> {
    guarded(|| {
        value_op(json, |v| {
            let signed = receipt::sign_receipt(v, &secret)?;
            let bytes = canonical::canonicalize_value(&signed)?;
            Ok(String::from_utf8(bytes).expect("canonical JSON is UTF-8"))
        })
    })
}

/// One key of a receipt key ring.
#[napi(object)]
pub struct KeySpec {
    /// The key id (`rk-1`, ...).
    pub key_id: String,
    /// The receipt secret.
    pub secret: String,
    /// RFC 3339 UTC, inclusive.
    pub valid_from: String,
    /// RFC 3339 UTC, exclusive; absent or null for a key still in use.
    pub valid_until: Option<String>,
}

/// The call a receipt must belong to (camelCase members of `CallExpectation`).
#[napi(object)]
pub struct CallSpec {
    /// Required.
    pub execution_id: String,
    /// Required.
    pub collaboration_id: String,
    /// Required.
    pub capability_id: String,
    /// Required.
    pub requester_agent_id: String,
    /// Required.
    pub provider_agent_id: String,
    /// Checked when given.
    pub capability_version: Option<String>,
    /// Checked when given.
    pub connection_id: Option<String>,
    /// Checked when given.
    pub terms_hash: Option<String>,
    /// Checked when given.
    pub execution_kind: Option<String>,
    /// Checked when given.
    pub reservation_id: Option<String>,
    /// Checked when given.
    pub grant_id: Option<String>,
    /// Checked when given.
    pub admission_id: Option<String>,
    /// Checked when given.
    pub receipt_digest: Option<String>,
}

impl From<CallSpec> for receipt::CallExpectation {
    fn from(c: CallSpec) -> Self {
        receipt::CallExpectation {
            execution_id: c.execution_id,
            collaboration_id: c.collaboration_id,
            capability_id: c.capability_id,
            requester_agent_id: c.requester_agent_id,
            provider_agent_id: c.provider_agent_id,
            capability_version: c.capability_version,
            connection_id: c.connection_id,
            terms_hash: c.terms_hash,
            execution_kind: c.execution_kind,
            reservation_id: c.reservation_id,
            grant_id: c.grant_id,
            admission_id: c.admission_id,
            receipt_digest: c.receipt_digest,
        }
    }
}

/// One check of a verdict.
#[napi(object)]
pub struct CheckOut {
    /// The stable snake_case name.
    pub name: String,
    /// `pass`, `fail` or `mismatch`.
    pub outcome: String,
    /// Why it did not pass.
    pub detail: Option<String>,
    /// What the verifier expected, as a display text of the core (bounded, never a secret).
    pub expected: Option<String>,
    /// What the receipt holds, as a display text of the core (bounded, never a secret).
    pub received: Option<String>,
}

/// A verdict: every check, accepted only when all pass.
#[napi(object)]
pub struct VerdictOut {
    /// True when every check passed.
    pub accepted: bool,
    /// Every check, in a fixed order.
    pub checks: Vec<CheckOut>,
    /// The receipt digest, when it could be computed.
    pub receipt_digest: Option<String>,
}

impl From<verdict::Verdict> for VerdictOut {
    fn from(v: verdict::Verdict) -> Self {
        VerdictOut {
            accepted: v.accepted,
            checks: v
                .checks
                .into_iter()
                .map(|c| CheckOut {
                    name: c.name.to_owned(),
                    outcome: c.outcome.as_str().to_owned(),
                    detail: c.detail,
                    expected: c.expected,
                    received: c.received,
                })
                .collect(),
            receipt_digest: v.receipt_digest,
        }
    }
}

/// A refusal inside a batch: the code and message of the core.
#[napi(object)]
pub struct ItemError {
    /// The stable code.
    pub code: String,
    /// The core's message.
    pub message: String,
}

fn key_ring(
    registration_secret: Option<String>,
    keys: Option<Vec<KeySpec>>,
) -> Result<receipt::KeyRing> {
    match (registration_secret, keys) {
        (Some(secret), None) => Ok(receipt::KeyRing::baseline(&secret)),
        (None, Some(keys)) => {
            let mut ring = receipt::KeyRing::new();
            for k in keys {
                ring.add(
                    &k.key_id,
                    &k.secret,
                    &k.valid_from,
                    k.valid_until.as_deref(),
                )
                .map_err(core_err)?;
            }
            Ok(ring)
        }
        _ => Err(invalid_argument(
            "give either a registration secret or a list of keys",
        )),
    }
}

fn own_commitment(c: Option<Commitment>) -> Result<Option<digest::Commitment>> {
    let Some(c) = c else { return Ok(None) };
    if c.alg != "sha-256" || c.canon != "ekl-json-1" {
        return Err(invalid_argument(
            "a commitment has alg sha-256 and canon ekl-json-1",
        ));
    }
    Ok(Some(digest::Commitment {
        alg: "sha-256",
        canon: "ekl-json-1",
        digest: c.digest,
        salt_id: c.salt_id,
        salt: c.salt,
    }))
}

/// Verifies a MAC receipt (JSON text) against the consumer's call and commitments. The key ring
/// is the baseline of a registration secret, or a list of keys.
#[napi(catch_unwind)]
pub fn verify_receipt(
    json: &[u8],
    registration_secret: Option<String>,
    keys: Option<Vec<KeySpec>>,
    call: CallSpec,
    input_commitment: Option<Commitment>,
    output_commitment: Option<Commitment>,
) -> Result<VerdictOut> {
    guarded(|| {
        let ring = key_ring(registration_secret, keys)?;
        let call = receipt::CallExpectation::from(call);
        let (ci, co) = (
            own_commitment(input_commitment)?,
            own_commitment(output_commitment)?,
        );
        value_op(json, |v| {
            receipt::verify_receipt(v, &ring, &call, ci.as_ref(), co.as_ref())
        })
        .map(Into::into)
    })
}

/// One receipt of a batch, with the call it answers and the consumer's commitments.
#[napi(object)]
pub struct ReceiptItem {
    /// The call.
    pub call: CallSpec,
    /// The consumer's commitment to what it sent.
    pub input_commitment: Option<Commitment>,
    /// The consumer's commitment to what it received.
    pub output_commitment: Option<Commitment>,
}

/// A batch, owned, for the thread pool.
pub struct ReceiptBatch {
    receipts: Vec<Vec<u8>>,
    items: Vec<(
        receipt::CallExpectation,
        Option<digest::Commitment>,
        Option<digest::Commitment>,
    )>,
    ring: receipt::KeyRing,
}

/// One result of a batch: a verdict or the refusal of an input that cannot be a receipt.
pub type BatchResult = Either<VerdictOut, ItemError>;

impl ReceiptBatch {
    fn new(
        receipts: Vec<Uint8Array>,
        items: Vec<ReceiptItem>,
        registration_secret: Option<String>,
        keys: Option<Vec<KeySpec>>,
    ) -> Result<ReceiptBatch> {
        if receipts.len() != items.len() {
            return Err(invalid_argument("one item per receipt"));
        }
        let ring = key_ring(registration_secret, keys)?;
        let items = items
            .into_iter()
            .map(|it| {
                Ok((
                    receipt::CallExpectation::from(it.call),
                    own_commitment(it.input_commitment)?,
                    own_commitment(it.output_commitment)?,
                ))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(ReceiptBatch {
            receipts: receipts.iter().map(|r| r.to_vec()).collect(),
            items,
            ring,
        })
    }

    fn run(&self) -> Vec<std::result::Result<verdict::Verdict, ekl_core::Error>> {
        self.receipts
            .iter()
            .zip(&self.items)
            .map(|(text, (call, ci, co))| {
                guarded_core(|| {
                    let v = canonical::parse(text)?;
                    receipt::verify_receipt(&v, &self.ring, call, ci.as_ref(), co.as_ref())
                })
            })
            .collect()
    }
}

fn batch_out(
    results: Vec<std::result::Result<verdict::Verdict, ekl_core::Error>>,
) -> Vec<BatchResult> {
    results
        .into_iter()
        .map(|r| match r {
            Ok(v) => Either::A(v.into()),
            Err(e) => Either::B(ItemError {
                code: e.code().as_str().to_owned(),
                message: e.message().to_owned(),
            }),
        })
        .collect()
}

/// Verifies many receipts against one key ring; one result per receipt, in order.
#[napi(catch_unwind)]
pub fn verify_receipts(
    receipts: Vec<Uint8Array>,
    items: Vec<ReceiptItem>,
    registration_secret: Option<String>,
    keys: Option<Vec<KeySpec>>,
) -> Result<Vec<Either<VerdictOut, ItemError>>> {
    guarded(|| {
        let batch = ReceiptBatch::new(receipts, items, registration_secret, keys)?;
        Ok(batch_out(batch.run()))
    })
}

impl Task for ReceiptBatch {
    type Output = Vec<std::result::Result<verdict::Verdict, ekl_core::Error>>;
    type JsValue = Vec<BatchResult>;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(self.run())
    }

    fn resolve(&mut self, _env: Env, output: Self::Output) -> napi::Result<Self::JsValue> {
        Ok(batch_out(output))
    }
}

/// `verifyReceipts` on the libuv thread pool.
#[napi(
    catch_unwind,
    ts_return_type = "Promise<Array<VerdictOut | ItemError>>"
)]
pub fn verify_receipts_async(
    receipts: Vec<Uint8Array>,
    items: Vec<ReceiptItem>,
    registration_secret: Option<String>,
    keys: Option<Vec<KeySpec>>,
) -> Result<AsyncTask<ReceiptBatch>> {
    Ok(AsyncTask::new(ReceiptBatch::new(
        receipts,
        items,
        registration_secret,
        keys,
    )?))
}

// ---------------------------------------------------------------------------------------------
// screening (§15.5)
// ---------------------------------------------------------------------------------------------

/// Validates screening-rules claims (JSON text); returns their canonical JSON text.
#[napi(catch_unwind)]
pub fn screening_rules(json: &[u8]) -> Result<String> {
    guarded(|| {
        value_op(json, |v| {
            screening::ScreeningRules::from_claims(v)?;
            let bytes = canonical::canonicalize_value(v)?;
            Ok(String::from_utf8(bytes).expect("canonical JSON is UTF-8"))
        })
    })
}

/// The safety flags of a tool result (JSON text) under the rules (claims JSON text), if any, as
/// canonical JSON text of an array of `{category, rules_version[, rule_id]}`.
#[napi(catch_unwind)]
pub fn screen(rules: Option<&[u8]>, result: &[u8]) -> Result<String> {
    guarded(|| {
        let rules = match rules {
            None => None,
            Some(text) => Some(value_op(text, screening::ScreeningRules::from_claims)?),
        };
        value_op(result, |v| {
            let flags = screening::scan(rules.as_ref(), v);
            let arr = Value::Array(flags.iter().map(screening::SafetyFlag::to_value).collect());
            let bytes = canonical::canonicalize_value(&arr)?;
            Ok(String::from_utf8(bytes).expect("canonical JSON is UTF-8"))
        })
    })
}

/// A string as screening compares it: NFKC, full case folding, NFKC.
#[napi(catch_unwind)]
pub fn screening_fold(text: String) -> Result<String> {
    guarded(|| Ok(screening::fold(&text)))
}

// ---------------------------------------------------------------------------------------------
// JWKS, compact JWS, network-signed receipts, screening-rules tokens (§3, §9.5.1, §15.5)
// ---------------------------------------------------------------------------------------------

/// A parsed, validated JWKS (P-256 public keys), built once and shared by every verification.
#[napi]
pub struct JwksHandle {
    inner: std::sync::Arc<jwk::Jwks>,
}

#[napi]
impl JwksHandle {
    /// The key ids, in the order of the key set.
    #[napi]
    pub fn kids(&self) -> Vec<String> {
        self.inner
            .keys()
            .iter()
            .map(|k| k.kid().to_owned())
            .collect()
    }

    /// The key set as canonical JSON text.
    #[napi]
    pub fn to_json(&self) -> String {
        self.inner.to_json()
    }
}

/// Parses and validates a JWKS (JSON text); `INVALID_JWKS` otherwise.
#[napi(catch_unwind)]
pub fn jwks_parse(json: &[u8]) -> Result<JwksHandle> {
    guarded(|| {
        jwk::Jwks::parse(json)
            .map(|j| JwksHandle {
                inner: std::sync::Arc::new(j),
            })
            .map_err(core_err)
    })
}

fn typ(name: &str) -> Result<jws::Typ> {
    jws::Typ::from_header(name).ok_or_else(|| invalid_argument("typ is not a type of EKP 1.2"))
}

fn seconds(x: f64, what: &str) -> Result<i64> {
    if x.is_finite() && x.fract() == 0.0 && x.abs() <= 9007199254740992.0 {
        Ok(x as i64)
    } else {
        Err(invalid_argument(&format!(
            "{what} must be an integer number of seconds"
        )))
    }
}

fn canonical_text(v: &Value<'_>) -> Result<String> {
    canonical::canonicalize_value(v)
        .map(|b| String::from_utf8(b).expect("canonical JSON is UTF-8"))
        .map_err(core_err)
}

/// A verified compact JWS (header and claims as canonical JSON text; the JS wrapper parses them).
#[napi(object)]
pub struct VerifiedJws {
    /// The protected header.
    pub header: String,
    /// The claims.
    pub claims: String,
    /// The key that verified it.
    pub kid: String,
    /// The `typ` it was checked against.
    pub typ: String,
    /// SHA-256 hex of the token's ASCII bytes.
    pub token_sha256: String,
}

/// Verifies a compact JWS: ES256 only, the exact `typ`, the kid's key, then the claims (`iss`,
/// `aud`, times at `now` with `skew` seconds; `exp` and `iat` required unless told otherwise).
#[napi(catch_unwind)]
#[allow(clippy::too_many_arguments)]
pub fn verify_jws(
    token: String,
    typ_name: String,
    jwks: &JwksHandle,
    now: f64,
    issuer: Option<String>,
    audience: Option<String>,
    skew: Option<f64>,
    max_lifetime: Option<f64>,
    require_exp: Option<bool>,
    require_iat: Option<bool>,
) -> Result<VerifiedJws> {
    guarded(|| {
        let mut checks = jws::ClaimChecks::at(seconds(now, "now")?);
        checks.issuer = issuer.as_deref();
        checks.audience = audience.as_deref();
        if let Some(s) = skew {
            checks.skew = seconds(s, "skew")?;
        }
        checks.max_lifetime = max_lifetime
            .map(|m| seconds(m, "maxLifetime"))
            .transpose()?;
        checks.require_exp = require_exp.unwrap_or(true);
        checks.require_iat = require_iat.unwrap_or(true);
        let v = jws::verify(&token, typ(&typ_name)?, &jwks.inner, &checks).map_err(core_err)?;
        Ok(VerifiedJws {
            header: canonical_text(&v.header)?,
            claims: canonical_text(&v.claims)?,
            kid: v.kid,
            typ: v.typ.as_str().to_owned(),
            token_sha256: v.token_sha256,
        })
    })
}

/// The call a consumer made, for a network-signed receipt (times in seconds since the epoch).
#[napi(object)]
pub struct SignedCallSpec {
    /// The execution id the consumer generated.
    pub execution_id: String,
    /// The provider it called.
    pub provider_agent_id: String,
    /// Itself, as the requester.
    pub requester_agent_id: String,
    /// The capability it called.
    pub capability_id: String,
    /// Its own input fingerprint.
    pub input_fingerprint: String,
    /// Its own agent id (the receipt's `aud`).
    pub own_agent_id: String,
    /// The network's issuer (the receipt's `iss`).
    pub network_issuer: String,
    /// When it sent the call.
    pub sent_at: f64,
    /// When it received the answer.
    pub received_at: f64,
}

fn with_call<T>(
    c: &SignedCallSpec,
    f: impl FnOnce(&receipt_sig::CallContext<'_>) -> ekl_core::Result<T>,
) -> Result<T> {
    let call = receipt_sig::CallContext {
        execution_id: &c.execution_id,
        provider_agent_id: &c.provider_agent_id,
        requester_agent_id: &c.requester_agent_id,
        capability_id: &c.capability_id,
        input_fingerprint: &c.input_fingerprint,
        own_agent_id: &c.own_agent_id,
        network_issuer: &c.network_issuer,
        sent_at: seconds(c.sent_at, "sentAt")?,
        received_at: seconds(c.received_at, "receivedAt")?,
    };
    f(&call).map_err(core_err)
}

/// Verifies a network-signed receipt's `receipt_jws` claim by claim against the call.
#[napi(catch_unwind)]
pub fn verify_receipt_jws(
    token: String,
    jwks: &JwksHandle,
    call: SignedCallSpec,
) -> Result<VerdictOut> {
    guarded(|| {
        with_call(&call, |c| {
            receipt_sig::verify_receipt_jws(&token, &jwks.inner, c)
        })
        .map(Into::into)
    })
}

/// Verifies a whole network-signed receipt object (JSON text): its signature, its `receipt_jws`,
/// and that the two agree.
#[napi(catch_unwind)]
pub fn verify_signed_receipt(
    json: &[u8],
    jwks: &JwksHandle,
    call: SignedCallSpec,
) -> Result<VerdictOut> {
    guarded(|| {
        let value = canonical::parse(json).map_err(core_err)?;
        with_call(&call, |c| {
            receipt_sig::verify_receipt(&value, &jwks.inner, c)
        })
        .map(Into::into)
    })
}

/// Verifies a screening-rules token; returns `{iss, iat, exp, rules_version, rules}` as canonical
/// JSON text (the claims `screen` takes).
#[napi(catch_unwind)]
pub fn verify_screening_rules(
    token: String,
    jwks: &JwksHandle,
    issuer: String,
    now: f64,
) -> Result<String> {
    guarded(|| {
        let t = screening_rules::verify_screening_rules(
            &token,
            &jwks.inner,
            &issuer,
            seconds(now, "now")?,
        )
        .map_err(core_err)?;
        let v = Value::Object(vec![
            ("iss".into(), Value::from(t.iss)),
            ("iat".into(), Value::from_i64(t.iat).map_err(core_err)?),
            ("exp".into(), Value::from_i64(t.exp).map_err(core_err)?),
            ("rules_version".into(), Value::from(t.rules_version)),
            ("rules".into(), t.rules),
        ]);
        canonical_text(&v)
    })
}

/// An ES256 signing key (for tests, vectors and local networks).
#[napi]
pub struct SigningKeyHandle {
    inner: std::sync::Arc<jwk::SigningKey>,
}

#[napi]
impl SigningKeyHandle {
    /// The key id.
    #[napi]
    pub fn kid(&self) -> String {
        self.inner.kid().to_owned()
    }
}

/// The 32 bytes of a seed given as 64 lowercase hex, wiped when dropped (as the seed's text is by
/// the callers; the key's scalar is wiped on drop by p256).
fn seed_of(seed_hex: &str) -> Result<Zeroizing<[u8; 32]>> {
    ekl_core::hex::decode_fixed::<32>(seed_hex, ErrorCode::InvalidKey, "seed")
        .map(Zeroizing::new)
        .map_err(core_err)
}

/// A signing key from a 32-byte seed (64 lowercase hex) and a key id (deterministic).
#[napi(catch_unwind)]
pub fn signing_key(seed_hex: String, kid: String) -> Result<SigningKeyHandle> {
    let seed_hex = Zeroizing::new(seed_hex);
    guarded(|| {
        let seed = seed_of(&seed_hex)?;
        jwk::SigningKey::from_seed(&seed, &kid)
            .map(|k| SigningKeyHandle {
                inner: std::sync::Arc::new(k),
            })
            .map_err(core_err)
    })
}

/// A JWKS and its signing keys, one per kid, derived from one seed.
#[napi(object, object_from_js = false)]
pub struct SeededKeys {
    /// The public key set.
    pub jwks: JwksHandle,
    /// The signing keys, in the order of the kids.
    pub keys: Vec<SigningKeyHandle>,
}

/// A JWKS and its signing keys from a 32-byte seed (64 lowercase hex) and key ids (deterministic;
/// `INVALID_KEY` for a bad seed or kid, or two equal kids).
#[napi(catch_unwind)]
pub fn jwks_from_seed(seed_hex: String, kids: Vec<String>) -> Result<SeededKeys> {
    let seed_hex = Zeroizing::new(seed_hex);
    guarded(|| {
        let seed = seed_of(&seed_hex)?;
        let refs: Vec<&str> = kids.iter().map(String::as_str).collect();
        let (set, keys) = jwk::jwks_from_seed(&seed, &refs).map_err(core_err)?;
        Ok(SeededKeys {
            jwks: JwksHandle {
                inner: std::sync::Arc::new(set),
            },
            keys: keys
                .into_iter()
                .map(|k| SigningKeyHandle {
                    inner: std::sync::Arc::new(k),
                })
                .collect(),
        })
    })
}

/// Signs claims (JSON text) as a compact JWS of `typ` (RFC 6979 nonces: deterministic).
#[napi(catch_unwind)]
pub fn sign_jws(typ_name: String, json: &[u8], key: &SigningKeyHandle) -> Result<String> {
    guarded(|| {
        let t = typ(&typ_name)?;
        value_op(json, |v| jws::sign(t, v, &key.inner))
    })
}

/// Issues a network-signed receipt object from its fields (JSON text): `receipt_jws` and
/// `signature` added; canonical JSON text.
#[napi(catch_unwind)]
pub fn issue_receipt(
    json: &[u8],
    key: &SigningKeyHandle,
    issuer: String,
    audience: String,
) -> Result<String> {
    guarded(|| {
        let value = canonical::parse(json).map_err(core_err)?;
        let issued =
            receipt_sig::issue_receipt(&value, &key.inner, &issuer, &audience).map_err(core_err)?;
        canonical_text(&issued)
    })
}
