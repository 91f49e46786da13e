//! Bindings of the MAC receipts (§9.5), the proof verifiers with no-downgrade state (§3.1, §4,
//! §15.2) and local screening (§15.5). Thin: argument conversion and error mapping only.
//!
//! Verdicts cross as plain tuples
//! `(accepted, [(name, outcome, detail, expected, received)], receipt_digest)`; the
//! package wraps them in `ekl_evidence.Verdict` / `Check` (python/ekl_evidence/_verdict.py).

use ekl_core::digest::Commitment;
use ekl_core::proof::{self, NetworkHolds, ProofKey, ProofVersion};
use ekl_core::receipt::{self, CallExpectation, ReceiptToVerify};
use ekl_core::screening;
use ekl_core::verdict::Verdict;
use ekl_core::{hex, ErrorCode, Value};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::{convert, core_err, ekl_err, opt_str_arg, run, str_arg, type_name, ValueArg};

/// One check: name, outcome, detail, expected, received.
pub(crate) type PyCheck = (
    &'static str,
    &'static str,
    Option<String>,
    Option<String>,
    Option<String>,
);

pub(crate) type PyVerdict = (bool, Vec<PyCheck>, Option<String>);

pub(crate) fn verdict_tuple(v: Verdict) -> PyVerdict {
    (
        v.accepted,
        v.checks
            .into_iter()
            .map(|c| (c.name, c.outcome.as_str(), c.detail, c.expected, c.received))
            .collect(),
        v.receipt_digest,
    )
}

fn invalid_argument(py: Python<'_>, message: &str) -> PyErr {
    ekl_err(py, ErrorCode::InvalidArgument, message)
}

fn dict_arg<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, PyDict>> {
    obj.cast::<PyDict>()
        .cloned()
        .map_err(|_| PyTypeError::new_err(format!("{what} must be a dict, got {}", type_name(obj))))
}

// ------------------------------------------------------------------------------------------
// Receipts
// ------------------------------------------------------------------------------------------

/// receipt_key(secret, key_id) -> str
///
/// The receipt key HMAC-SHA256(secret, "ekl-receipt-1.1" ‖ 0x00 ‖ key_id), as lowercase hex.
#[pyfunction]
pub fn receipt_key(
    py: Python<'_>,
    secret: &Bound<'_, PyAny>,
    key_id: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let (s, k) = (
        str_arg(py, secret, "secret")?,
        str_arg(py, key_id, "key_id")?,
    );
    run(py, false, || Ok(hex::encode(&receipt::receipt_key(&s, &k))))
}

/// auth_tag(receipt, secret) -> str
///
/// The receipt's auth_tag: hex HMAC of the canonical receipt without auth_tag, keyed by key_id.
#[pyfunction]
pub fn auth_tag(
    py: Python<'_>,
    receipt: &Bound<'_, PyAny>,
    secret: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let s = str_arg(py, secret, "secret")?;
    ValueArg::from_py(py, receipt)?.with(py, |v| receipt::auth_tag(v, &s))
}

/// receipt_digest(receipt) -> str
///
/// SHA-256 hex of the canonical receipt, auth_tag included (for collaboration_report).
#[pyfunction]
pub fn receipt_digest(py: Python<'_>, receipt: &Bound<'_, PyAny>) -> PyResult<String> {
    ValueArg::from_py(py, receipt)?.with(py, receipt::receipt_digest)
}

/// sign_receipt(receipt, secret) -> dict
///
/// A copy of the receipt with its auth_tag appended (a receipt that has one is refused).
#[pyfunction]
pub fn sign_receipt<'py>(
    py: Python<'py>,
    receipt: &Bound<'py, PyAny>,
    secret: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let s = str_arg(py, secret, "secret")?;
    let signed = ValueArg::from_py(py, receipt)?.with(py, |v| receipt::sign_receipt(v, &s))?;
    convert::to_py(py, &signed)
}

/// The receipt keys a consumer holds: key_id → secret with a validity window. Immutable and
/// shareable between threads; only the derived receipt keys are kept, never the secrets.
#[pyclass(frozen, module = "ekl_evidence._native")]
pub struct KeyRing {
    inner: receipt::KeyRing,
}

#[pymethods]
impl KeyRing {
    /// KeyRing(keys=()) from dicts {"key_id", "secret", "valid_from", "valid_until"?}
    /// (RFC 3339 UTC; valid_until exclusive, None while current).
    #[new]
    #[pyo3(signature = (keys=None))]
    fn new(py: Python<'_>, keys: Option<&Bound<'_, PyAny>>) -> PyResult<KeyRing> {
        let mut ring = receipt::KeyRing::new();
        if let Some(keys) = keys {
            for item in keys.try_iter()? {
                let item = item?;
                let d = dict_arg(&item, "a key")?;
                for k in d.keys() {
                    let name: String = str_arg(py, &k, "a key member")?;
                    if !matches!(
                        name.as_str(),
                        "key_id" | "secret" | "valid_from" | "valid_until"
                    ) {
                        return Err(invalid_argument(py, "unknown member of a key ring entry"));
                    }
                }
                let get = |name: &str| -> PyResult<Option<String>> {
                    opt_str_arg(py, d.get_item(name)?.as_ref(), name)
                };
                let (Some(id), Some(secret), Some(from)) =
                    (get("key_id")?, get("secret")?, get("valid_from")?)
                else {
                    return Err(invalid_argument(
                        py,
                        "a key needs key_id, secret and valid_from",
                    ));
                };
                let until = get("valid_until")?;
                run(py, false, || {
                    ring.add(&id, &secret, &from, until.as_deref())
                })?;
            }
        }
        Ok(KeyRing { inner: ring })
    }

    /// The baseline ring: the registration secret as `rk-1`, valid from the beginning of time.
    #[staticmethod]
    fn baseline(py: Python<'_>, registration_secret: &Bound<'_, PyAny>) -> PyResult<KeyRing> {
        let s = str_arg(py, registration_secret, "registration_secret")?;
        Ok(KeyRing {
            inner: receipt::KeyRing::baseline(&s),
        })
    }

    /// The key ids, in the order they were added.
    fn key_ids(&self) -> Vec<String> {
        self.inner
            .entries()
            .iter()
            .map(|e| e.key_id().to_owned())
            .collect()
    }

    fn __len__(&self) -> usize {
        self.inner.entries().len()
    }

    fn __repr__(&self) -> String {
        format!("KeyRing({:?})", self.key_ids())
    }
}

const CALL_REQUIRED: [&str; 5] = [
    "execution_id",
    "collaboration_id",
    "capability_id",
    "requester_agent_id",
    "provider_agent_id",
];
const CALL_OPTIONAL: [&str; 8] = [
    "capability_version",
    "connection_id",
    "terms_hash",
    "execution_kind",
    "reservation_id",
    "grant_id",
    "admission_id",
    "receipt_digest",
];

fn call_arg(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<CallExpectation> {
    let d = dict_arg(obj, "call")?;
    for k in d.keys() {
        let name = str_arg(py, &k, "a call member")?;
        if !CALL_REQUIRED.contains(&name.as_str()) && !CALL_OPTIONAL.contains(&name.as_str()) {
            return Err(invalid_argument(py, "unknown member of call"));
        }
    }
    let get = |name: &str| -> PyResult<Option<String>> {
        opt_str_arg(py, d.get_item(name)?.as_ref(), name)
    };
    let need = |name: &str| -> PyResult<String> {
        get(name)?.ok_or_else(|| invalid_argument(py, "call lacks a required member"))
    };
    Ok(CallExpectation {
        execution_id: need("execution_id")?,
        collaboration_id: need("collaboration_id")?,
        capability_id: need("capability_id")?,
        requester_agent_id: need("requester_agent_id")?,
        provider_agent_id: need("provider_agent_id")?,
        capability_version: get("capability_version")?,
        connection_id: get("connection_id")?,
        terms_hash: get("terms_hash")?,
        execution_kind: get("execution_kind")?,
        reservation_id: get("reservation_id")?,
        grant_id: get("grant_id")?,
        admission_id: get("admission_id")?,
        receipt_digest: get("receipt_digest")?,
    })
}

/// A commitment dict as `commitment()` returns it.
fn commitment_arg(py: Python<'_>, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Commitment>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let d = dict_arg(obj, "a commitment")?;
    let get = |name: &str| -> PyResult<Option<String>> {
        opt_str_arg(py, d.get_item(name)?.as_ref(), name)
    };
    if get("alg")?.as_deref() != Some("sha-256") || get("canon")?.as_deref() != Some("ekl-json-1") {
        return Err(invalid_argument(
            py,
            "a commitment needs alg sha-256 and canon ekl-json-1",
        ));
    }
    let Some(digest) = get("digest")? else {
        return Err(invalid_argument(py, "a commitment needs a digest"));
    };
    Ok(Some(Commitment {
        alg: "sha-256",
        canon: "ekl-json-1",
        digest,
        salt_id: get("salt_id")?,
        salt: get("salt")?,
    }))
}

/// verify_receipt(receipt, ring, call, own_input_commitment=None, own_output_commitment=None)
///
/// Checks a MAC receipt against a KeyRing, the call made and the consumer's own commitments.
#[pyfunction]
#[pyo3(signature = (receipt, ring, call, own_input_commitment=None, own_output_commitment=None))]
pub fn verify_receipt(
    py: Python<'_>,
    receipt: &Bound<'_, PyAny>,
    ring: &Bound<'_, KeyRing>,
    call: &Bound<'_, PyAny>,
    own_input_commitment: Option<&Bound<'_, PyAny>>,
    own_output_commitment: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyVerdict> {
    let call = call_arg(py, call)?;
    let input = commitment_arg(py, own_input_commitment)?;
    let output = commitment_arg(py, own_output_commitment)?;
    let ring = &ring.get().inner;
    let arg = ValueArg::from_py(py, receipt)?;
    arg.with(py, |v| {
        receipt::verify_receipt(v, ring, &call, input.as_ref(), output.as_ref()).map(verdict_tuple)
    })
}

/// verify_receipts(ring, items) -> list
///
/// Many receipts against one KeyRing, with the GIL released for the batch. `items` are dicts
/// {"receipt", "call", "own_input_commitment"?, "own_output_commitment"?}; the result has one
/// entry per item: a verdict tuple, or the EklError of a receipt that cannot be read (not raised).
#[pyfunction]
pub fn verify_receipts<'py>(
    py: Python<'py>,
    ring: &Bound<'py, KeyRing>,
    items: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    struct Item<'py> {
        receipt: Result<ValueArg<'py>, PyErr>,
        call: CallExpectation,
        input: Option<Commitment>,
        output: Option<Commitment>,
    }
    let mut prepared: Vec<Item<'py>> = Vec::new();
    for item in items.try_iter()? {
        let item = item?;
        let d = dict_arg(&item, "an item")?;
        let Some(r) = d.get_item("receipt")? else {
            return Err(invalid_argument(py, "an item lacks its receipt"));
        };
        let Some(c) = d.get_item("call")? else {
            return Err(invalid_argument(py, "an item lacks its call"));
        };
        prepared.push(Item {
            receipt: ValueArg::from_py(py, &r),
            call: call_arg(py, &c)?,
            input: commitment_arg(py, d.get_item("own_input_commitment")?.as_ref())?,
            output: commitment_arg(py, d.get_item("own_output_commitment")?.as_ref())?,
        });
    }
    // Parse the text ones first (JsonText), then verify all at once without the GIL.
    let mut parsed: Vec<Result<Value<'_>, ekl_core::Error>> = Vec::with_capacity(prepared.len());
    for it in &prepared {
        parsed.push(match &it.receipt {
            Ok(ValueArg::Text(b)) => ekl_core::canonical::parse(b.as_bytes()),
            Ok(ValueArg::Host(c)) => Ok(c.value.clone()),
            Err(_) => Ok(Value::Null), // replaced by the conversion error below
        });
    }
    let ring_inner = &ring.get().inner;
    let results: Vec<ekl_core::Result<PyVerdict>> = {
        let to_verify: Vec<(usize, ReceiptToVerify<'_, '_>)> = prepared
            .iter()
            .zip(&parsed)
            .enumerate()
            .filter_map(|(i, (it, p))| match (p, &it.receipt) {
                (Ok(v), Ok(_)) => Some((
                    i,
                    ReceiptToVerify {
                        receipt: v,
                        call: &it.call,
                        own_input_commitment: it.input.as_ref(),
                        own_output_commitment: it.output.as_ref(),
                    },
                )),
                _ => None,
            })
            .collect();
        let batch: Vec<ReceiptToVerify<'_, '_>> = to_verify.iter().map(|(_, r)| *r).collect();
        let verdicts = run(py, batch.len() >= 16, || {
            Ok(receipt::verify_receipts(ring_inner, &batch))
        })?;
        let mut out: Vec<Option<ekl_core::Result<PyVerdict>>> =
            (0..prepared.len()).map(|_| None).collect();
        for ((i, _), v) in to_verify.iter().zip(verdicts) {
            out[*i] = Some(v.map(verdict_tuple));
        }
        out.into_iter()
            .enumerate()
            .map(|(i, r)| match r {
                Some(r) => r,
                None => match &parsed[i] {
                    Err(e) => Err(e.clone()),
                    Ok(_) => Err(ekl_core::Error::new(ErrorCode::Internal, "unreachable")),
                },
            })
            .collect()
    };
    let list = PyList::empty(py);
    for (i, (r, it)) in results.into_iter().zip(&prepared).enumerate() {
        let _ = i;
        match (&it.receipt, r) {
            (Err(conv), _) => list.append(conv.value(py))?,
            (Ok(_), Ok(t)) => list.append(t)?,
            (Ok(_), Err(e)) => list.append(core_err(py, e).value(py))?,
        }
    }
    Ok(list)
}

// ------------------------------------------------------------------------------------------
// Proof verifiers with the no-downgrade state
// ------------------------------------------------------------------------------------------

/// verify_challenge_proof(challenge, endpoint, proof=None, proof_v2=None, *, proof_key=None,
/// credential_hash=None) -> "v1" | "v2"
///
/// The network side of the endpoint challenge. Give exactly one of `proof_key` (the network
/// holds the agent's proof key: only proof_v2 counts, a v1 proof is PROOF_DOWNGRADE) or
/// `credential_hash` (64 hex: only the v1 proof can be checked). Refusals: PROOF_INVALID,
/// PROOF_DOWNGRADE.
#[pyfunction]
#[pyo3(signature = (challenge, endpoint, proof=None, proof_v2=None, *, proof_key=None, credential_hash=None))]
#[allow(clippy::too_many_arguments)]
pub fn verify_challenge_proof(
    py: Python<'_>,
    challenge: &Bound<'_, PyAny>,
    endpoint: &Bound<'_, PyAny>,
    proof: Option<&Bound<'_, PyAny>>,
    proof_v2: Option<&Bound<'_, PyAny>>,
    proof_key: Option<&Bound<'_, PyAny>>,
    credential_hash: Option<&Bound<'_, PyAny>>,
) -> PyResult<&'static str> {
    let (ch, ep) = (
        str_arg(py, challenge, "challenge")?,
        str_arg(py, endpoint, "endpoint")?,
    );
    let (p1, p2) = (
        opt_str_arg(py, proof, "proof")?,
        opt_str_arg(py, proof_v2, "proof_v2")?,
    );
    let key = opt_str_arg(py, proof_key, "proof_key")?;
    let hash = opt_str_arg(py, credential_hash, "credential_hash")?;
    let holds = match (key, hash) {
        (Some(k), None) => {
            NetworkHolds::ProofKey(ProofKey::from_hex(&k).map_err(|e| core_err(py, e))?)
        }
        (None, Some(h)) => NetworkHolds::credential_hash_hex(&h).map_err(|e| core_err(py, e))?,
        _ => {
            return Err(invalid_argument(
                py,
                "give exactly one of proof_key and credential_hash (what the network holds)",
            ))
        }
    };
    run(py, false, || {
        proof::verify_challenge_proof(&holds, &ch, &ep, p1.as_deref(), p2.as_deref())
            .map(ProofVersion::as_str)
    })
}

/// verify_enroll_authority(announced, agent_key, enrollment_id, nonce, endpoint, authority=None,
/// authority_version=None) -> "v1" | "v2"
///
/// The agent side of ekl_enroll. `announced` is the endpoint_proof ("v1" or "v2") its last
/// announcement answered; after "v2" a v1 authority is PROOF_DOWNGRADE; a missing or wrong one is
/// PROOF_INVALID; an authority_version other than 1 or 2 is ENROLLMENT_AUTH_REQUIRED (§4).
#[pyfunction]
#[pyo3(signature = (announced, agent_key, enrollment_id, nonce, endpoint, authority=None, authority_version=None))]
#[allow(clippy::too_many_arguments)]
pub fn verify_enroll_authority(
    py: Python<'_>,
    announced: &Bound<'_, PyAny>,
    agent_key: &Bound<'_, PyAny>,
    enrollment_id: &Bound<'_, PyAny>,
    nonce: &Bound<'_, PyAny>,
    endpoint: &Bound<'_, PyAny>,
    authority: Option<&Bound<'_, PyAny>>,
    authority_version: Option<&Bound<'_, PyAny>>,
) -> PyResult<&'static str> {
    let announced = ProofVersion::from_name(&str_arg(py, announced, "announced")?)
        .map_err(|e| core_err(py, e))?;
    let (k, id, n, ep) = (
        str_arg(py, agent_key, "agent_key")?,
        str_arg(py, enrollment_id, "enrollment_id")?,
        str_arg(py, nonce, "nonce")?,
        str_arg(py, endpoint, "endpoint")?,
    );
    let auth = opt_str_arg(py, authority, "authority")?;
    let version: Option<u32> = match authority_version.filter(|v| !v.is_none()) {
        None => None,
        Some(v) if v.is_instance_of::<pyo3::types::PyBool>() => {
            return Err(invalid_argument(py, "authority_version must be 1 or 2"))
        }
        Some(v) => Some(
            v.extract::<u32>()
                .map_err(|_| invalid_argument(py, "authority_version must be 1 or 2"))?,
        ),
    };
    run(py, false, || {
        proof::verify_enroll_authority(announced, &k, &id, &n, &ep, auth.as_deref(), version)
            .map(ProofVersion::as_str)
    })
}

// ------------------------------------------------------------------------------------------
// Screening
// ------------------------------------------------------------------------------------------

/// Validated screening rules (the claims of an `ekl-screening-rules+jwt`, §15.5). Immutable.
#[pyclass(frozen, module = "ekl_evidence._native")]
pub struct ScreeningRules {
    inner: screening::ScreeningRules,
}

impl ScreeningRules {
    pub(crate) fn wrap(inner: screening::ScreeningRules) -> ScreeningRules {
        ScreeningRules { inner }
    }
}

#[pymethods]
impl ScreeningRules {
    /// ScreeningRules(claims): from the token's claims {"rules_version", "rules": [...], ...}.
    #[new]
    fn new(py: Python<'_>, claims: &Bound<'_, PyAny>) -> PyResult<ScreeningRules> {
        let inner =
            ValueArg::from_py(py, claims)?.with(py, screening::ScreeningRules::from_claims)?;
        Ok(ScreeningRules { inner })
    }

    fn __repr__(&self) -> String {
        "ScreeningRules(..)".to_owned()
    }
}

/// screening_rules(claims) -> ScreeningRules
#[pyfunction]
pub fn screening_rules(py: Python<'_>, claims: &Bound<'_, PyAny>) -> PyResult<ScreeningRules> {
    ScreeningRules::new(py, claims)
}

/// screen(rules, result) -> list[dict]
///
/// The safety flags of a tool result: {"category", "rules_version", "rule_id"?} for each match of
/// the network's rules (None: local leak patterns only) and of the local leak patterns.
#[pyfunction]
pub fn screen<'py>(
    py: Python<'py>,
    rules: Option<&Bound<'py, ScreeningRules>>,
    result: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let rules = rules.map(|r| &r.get().inner);
    let flags = ValueArg::from_py(py, result)?.with(py, |v| Ok(screening::scan(rules, v)))?;
    let list = PyList::empty(py);
    for f in flags {
        let d = PyDict::new(py);
        d.set_item("category", &f.category)?;
        d.set_item("rules_version", &f.rules_version)?;
        if let Some(id) = &f.rule_id {
            d.set_item("rule_id", id)?;
        }
        list.append(d)?;
    }
    Ok(list)
}

/// screening_fold(text) -> str
///
/// The text as screening compares it: NFKC and full case folding.
#[pyfunction]
pub fn screening_fold(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<String> {
    let t = str_arg(py, text, "text")?;
    run(py, t.len() >= crate::DETACH_THRESHOLD, || {
        Ok(screening::fold(&t))
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<KeyRing>()?;
    m.add_class::<ScreeningRules>()?;
    m.add_function(wrap_pyfunction!(receipt_key, m)?)?;
    m.add_function(wrap_pyfunction!(auth_tag, m)?)?;
    m.add_function(wrap_pyfunction!(receipt_digest, m)?)?;
    m.add_function(wrap_pyfunction!(sign_receipt, m)?)?;
    m.add_function(wrap_pyfunction!(verify_receipt, m)?)?;
    m.add_function(wrap_pyfunction!(verify_receipts, m)?)?;
    m.add_function(wrap_pyfunction!(verify_challenge_proof, m)?)?;
    m.add_function(wrap_pyfunction!(verify_enroll_authority, m)?)?;
    m.add_function(wrap_pyfunction!(screening_rules, m)?)?;
    m.add_function(wrap_pyfunction!(screen, m)?)?;
    m.add_function(wrap_pyfunction!(screening_fold, m)?)?;
    Ok(())
}
