//! Bindings of ES256 JWS/JWKS (§3, §9.1, §9.2, §15.5) and network-signed receipts
//! (profile ekl-evidence-sig-1.2, §9.5.1). Thin: argument conversion and error mapping only.
//! Time is always an argument (seconds since the Unix epoch).

use ekl_core::jwk::{self, Jwks as CoreJwks, SigningKey as CoreSigningKey};
use ekl_core::jws::{self, ClaimChecks, Typ};
use ekl_core::receipt_sig::{self, CallContext};
use ekl_core::{hex, ErrorCode, Value};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::evidence::{verdict_tuple, PyVerdict};
use crate::{convert, core_err, ekl_err, opt_str_arg, run, str_arg, text_bytes, ValueArg};

fn typ_arg(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Typ> {
    let t = str_arg(py, obj, "typ")?;
    Typ::from_header(&t).ok_or_else(|| {
        ekl_err(
            py,
            ErrorCode::InvalidArgument,
            "typ must be one of the EKP token types (e.g. ekl-receipt+jwt)",
        )
    })
}

fn seed_arg(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<[u8; 32]> {
    let s = str_arg(py, obj, "seed")?;
    hex::decode_fixed::<32>(&s, ErrorCode::InvalidKey, "seed").map_err(|e| core_err(py, e))
}

/// A network's public key set (`/.well-known/jwks.json`): P-256 keys, validated. Immutable.
#[pyclass(frozen, module = "ekl_evidence._native")]
pub struct Jwks {
    inner: CoreJwks,
}

#[pymethods]
impl Jwks {
    /// Jwks(jwks): the key set as JSON text (str or bytes-like) or as a dict.
    #[new]
    fn new(py: Python<'_>, jwks: &Bound<'_, PyAny>) -> PyResult<Jwks> {
        let inner = if jwks.is_instance_of::<PyDict>() {
            ValueArg::from_py(py, jwks)?.with(py, CoreJwks::from_value)?
        } else {
            let b = text_bytes(py, jwks)?;
            let bytes = b.as_bytes();
            run(py, false, || CoreJwks::parse(bytes))?
        };
        Ok(Jwks { inner })
    }

    /// The key ids, in order.
    fn kids(&self) -> Vec<String> {
        self.inner
            .keys()
            .iter()
            .map(|k| k.kid().to_owned())
            .collect()
    }

    /// The key set as canonical JSON text.
    fn to_json(&self) -> String {
        self.inner.to_json()
    }

    fn __len__(&self) -> usize {
        self.inner.keys().len()
    }

    fn __repr__(&self) -> String {
        format!("Jwks({:?})", self.kids())
    }
}

/// An ES256 signing key (deterministic RFC 6979 signatures), for tests, vectors and local test
/// networks. Immutable; its repr never shows the key.
#[pyclass(frozen, module = "ekl_evidence._native")]
pub struct SigningKey {
    inner: CoreSigningKey,
}

#[pymethods]
impl SigningKey {
    /// The key derived from a 32-byte seed (64 hex) and a kid.
    #[staticmethod]
    fn from_seed(
        py: Python<'_>,
        seed: &Bound<'_, PyAny>,
        kid: &Bound<'_, PyAny>,
    ) -> PyResult<SigningKey> {
        let seed = seed_arg(py, seed)?;
        let kid = str_arg(py, kid, "kid")?;
        run(py, false, || CoreSigningKey::from_seed(&seed, &kid)).map(|inner| SigningKey { inner })
    }

    /// The key from a private JWK (JSON text with `d`).
    #[staticmethod]
    fn from_jwk(py: Python<'_>, jwk: &Bound<'_, PyAny>) -> PyResult<SigningKey> {
        let b = text_bytes(py, jwk)?;
        let bytes = b.as_bytes();
        run(py, false, || CoreSigningKey::from_jwk(bytes)).map(|inner| SigningKey { inner })
    }

    /// The key id.
    #[getter]
    fn kid(&self) -> String {
        self.inner.kid().to_owned()
    }

    /// A key set holding only this key's public half.
    fn public_jwks(&self, py: Python<'_>) -> PyResult<Jwks> {
        let public = self.inner.public_jwk();
        run(py, false, || CoreJwks::from_keys(vec![public])).map(|inner| Jwks { inner })
    }

    fn __repr__(&self) -> String {
        format!("SigningKey(kid={:?})", self.inner.kid())
    }
}

/// signing_key(seed, kid) -> SigningKey
///
/// The ES256 key derived from a 32-byte seed (64 hex) and a kid (SigningKey.from_seed).
#[pyfunction]
pub fn signing_key(
    py: Python<'_>,
    seed: &Bound<'_, PyAny>,
    kid: &Bound<'_, PyAny>,
) -> PyResult<SigningKey> {
    SigningKey::from_seed(py, seed, kid)
}

/// jwks_from_seed(seed, kids) -> (Jwks, list[SigningKey])
#[pyfunction]
pub fn jwks_from_seed(
    py: Python<'_>,
    seed: &Bound<'_, PyAny>,
    kids: &Bound<'_, PyAny>,
) -> PyResult<(Jwks, Vec<SigningKey>)> {
    let seed = seed_arg(py, seed)?;
    if kids.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "kids must be an iterable of str, not a str",
        ));
    }
    let mut names = Vec::new();
    for k in kids.try_iter()? {
        names.push(str_arg(py, &k?, "a kid")?);
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let (set, keys) = run(py, false, || jwk::jwks_from_seed(&seed, &refs))?;
    Ok((
        Jwks { inner: set },
        keys.into_iter().map(|inner| SigningKey { inner }).collect(),
    ))
}

/// sign_jws(typ, claims, key) -> str
///
/// A compact ES256 JWS of type `typ` over the claims (a dict or JsonText), header {alg, typ, kid}.
#[pyfunction]
pub fn sign_jws(
    py: Python<'_>,
    typ: &Bound<'_, PyAny>,
    claims: &Bound<'_, PyAny>,
    key: &Bound<'_, SigningKey>,
) -> PyResult<String> {
    let typ = typ_arg(py, typ)?;
    let key = &key.get().inner;
    ValueArg::from_py(py, claims)?.with(py, |v| jws::sign(typ, v, key))
}

/// verify_jws(token, typ, jwks, *, now, issuer=None, audience=None, skew=60, require_exp=True,
/// require_iat=True, max_lifetime=None) -> dict
///
/// Verifies alg ES256, the exact typ, kid, signature, then the claims at `now`; returns
/// {"header", "claims", "kid", "typ", "token_sha256"}. Every refusal is an EklError.
#[pyfunction]
#[pyo3(signature = (token, typ, jwks, *, now, issuer=None, audience=None, skew=60, require_exp=true, require_iat=true, max_lifetime=None))]
#[allow(clippy::too_many_arguments)]
pub fn verify_jws<'py>(
    py: Python<'py>,
    token: &Bound<'py, PyAny>,
    typ: &Bound<'py, PyAny>,
    jwks: &Bound<'py, Jwks>,
    now: i64,
    issuer: Option<&Bound<'py, PyAny>>,
    audience: Option<&Bound<'py, PyAny>>,
    skew: i64,
    require_exp: bool,
    require_iat: bool,
    max_lifetime: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let token = str_arg(py, token, "token")?;
    let typ = typ_arg(py, typ)?;
    let issuer = opt_str_arg(py, issuer, "issuer")?;
    let audience = opt_str_arg(py, audience, "audience")?;
    let set = &jwks.get().inner;
    let checks = ClaimChecks {
        issuer: issuer.as_deref(),
        audience: audience.as_deref(),
        now,
        skew,
        require_exp,
        require_iat,
        max_lifetime,
    };
    let v = run(py, false, || jws::verify(&token, typ, set, &checks))?;
    let d = PyDict::new(py);
    d.set_item("header", convert::to_py(py, &v.header)?)?;
    d.set_item("claims", convert::to_py(py, &v.claims)?)?;
    d.set_item("kid", v.kid)?;
    d.set_item("typ", v.typ.as_str())?;
    d.set_item("token_sha256", v.token_sha256)?;
    Ok(d)
}

const CONTEXT_STR: [&str; 7] = [
    "execution_id",
    "provider_agent_id",
    "requester_agent_id",
    "capability_id",
    "input_fingerprint",
    "own_agent_id",
    "network_issuer",
];

/// The call of a network-signed receipt: its strings and the two clock readings.
struct Context {
    strs: Vec<String>,
    sent_at: i64,
    received_at: i64,
}

impl Context {
    fn from_py(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Context> {
        let d = obj
            .cast::<PyDict>()
            .map_err(|_| PyTypeError::new_err("call must be a dict"))?;
        for k in d.keys() {
            let name = str_arg(py, &k, "a call member")?;
            if !CONTEXT_STR.contains(&name.as_str()) && name != "sent_at" && name != "received_at" {
                return Err(ekl_err(
                    py,
                    ErrorCode::InvalidArgument,
                    "unknown member of call",
                ));
            }
        }
        let mut strs = Vec::new();
        for name in CONTEXT_STR {
            match opt_str_arg(py, d.get_item(name)?.as_ref(), name)? {
                Some(s) => strs.push(s),
                None => {
                    return Err(ekl_err(
                        py,
                        ErrorCode::InvalidArgument,
                        "call lacks a required member",
                    ))
                }
            }
        }
        let time = |name: &str| -> PyResult<i64> {
            match d.get_item(name)? {
                Some(v) if !v.is_instance_of::<pyo3::types::PyBool>() => {
                    v.extract::<i64>().map_err(|_| {
                        ekl_err(
                            py,
                            ErrorCode::InvalidArgument,
                            "sent_at and received_at are integer seconds",
                        )
                    })
                }
                _ => Err(ekl_err(
                    py,
                    ErrorCode::InvalidArgument,
                    "call needs sent_at and received_at (integer seconds)",
                )),
            }
        };
        Ok(Context {
            strs,
            sent_at: time("sent_at")?,
            received_at: time("received_at")?,
        })
    }

    fn get(&self) -> CallContext<'_> {
        CallContext {
            execution_id: &self.strs[0],
            provider_agent_id: &self.strs[1],
            requester_agent_id: &self.strs[2],
            capability_id: &self.strs[3],
            input_fingerprint: &self.strs[4],
            own_agent_id: &self.strs[5],
            network_issuer: &self.strs[6],
            sent_at: self.sent_at,
            received_at: self.received_at,
        }
    }
}

/// verify_receipt_jws(receipt_jws, jwks, call) -> verdict tuple
///
/// A network-signed receipt's compact JWS, claim by claim, against the call: a dict with
/// execution_id, provider_agent_id, requester_agent_id, capability_id, input_fingerprint,
/// own_agent_id, network_issuer (str) and sent_at, received_at (int seconds).
#[pyfunction]
pub fn verify_receipt_jws(
    py: Python<'_>,
    receipt_jws: &Bound<'_, PyAny>,
    jwks: &Bound<'_, Jwks>,
    call: &Bound<'_, PyAny>,
) -> PyResult<PyVerdict> {
    let token = str_arg(py, receipt_jws, "receipt_jws")?;
    let ctx = Context::from_py(py, call)?;
    let set = &jwks.get().inner;
    run(py, false, || {
        receipt_sig::verify_receipt_jws(&token, set, &ctx.get()).map(verdict_tuple)
    })
}

/// verify_signed_receipt(receipt, jwks, call) -> verdict tuple
///
/// A network-signed receipt object (profile ekl-evidence-sig-1.2): its `signature` over the
/// ekl-json-1 bytes of its other fields and its `receipt_jws`, against the call (as for
/// verify_receipt_jws).
#[pyfunction]
pub fn verify_signed_receipt(
    py: Python<'_>,
    receipt: &Bound<'_, PyAny>,
    jwks: &Bound<'_, Jwks>,
    call: &Bound<'_, PyAny>,
) -> PyResult<PyVerdict> {
    let ctx = Context::from_py(py, call)?;
    let set = &jwks.get().inner;
    ValueArg::from_py(py, receipt)?.with(py, |v| {
        receipt_sig::verify_receipt(v, set, &ctx.get()).map(verdict_tuple)
    })
}

/// issue_receipt(fields, key, issuer, audience) -> dict
///
/// A complete ekl-evidence-sig-1.2 receipt from its fields (for tests and local test networks).
#[pyfunction]
pub fn issue_receipt<'py>(
    py: Python<'py>,
    fields: &Bound<'py, PyAny>,
    key: &Bound<'py, SigningKey>,
    issuer: &Bound<'py, PyAny>,
    audience: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let (iss, aud) = (
        str_arg(py, issuer, "issuer")?,
        str_arg(py, audience, "audience")?,
    );
    let key = &key.get().inner;
    let issued: Value<'static> = ValueArg::from_py(py, fields)?
        .with(py, |v| receipt_sig::issue_receipt(v, key, &iss, &aud))?;
    convert::to_py(py, &issued)
}

/// verify_screening_rules(token, jwks, issuer, now) -> dict
///
/// A screening rules token (typ ekl-screening-rules+jwt, §15.5) verified at `now` against the
/// network's issuer (never used at or after exp, no skew there): {"iss", "iat", "exp",
/// "rules_version", "rules", "ruleset"} where "ruleset" is the ScreeningRules for screen().
#[pyfunction]
pub fn verify_screening_rules<'py>(
    py: Python<'py>,
    token: &Bound<'py, PyAny>,
    jwks: &Bound<'py, Jwks>,
    issuer: &Bound<'py, PyAny>,
    now: i64,
) -> PyResult<Bound<'py, PyDict>> {
    let (token, iss) = (str_arg(py, token, "token")?, str_arg(py, issuer, "issuer")?);
    let set = &jwks.get().inner;
    let t = run(py, false, || {
        ekl_core::screening_rules::verify_screening_rules(&token, set, &iss, now)
    })?;
    let d = PyDict::new(py);
    d.set_item("iss", t.iss)?;
    d.set_item("iat", t.iat)?;
    d.set_item("exp", t.exp)?;
    d.set_item("rules_version", t.rules_version)?;
    d.set_item("rules", convert::to_py(py, &t.rules)?)?;
    d.set_item("ruleset", crate::evidence::ScreeningRules::wrap(t.ruleset))?;
    Ok(d)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Jwks>()?;
    m.add_class::<SigningKey>()?;
    m.add_function(wrap_pyfunction!(jwks_from_seed, m)?)?;
    m.add_function(wrap_pyfunction!(signing_key, m)?)?;
    m.add_function(wrap_pyfunction!(sign_jws, m)?)?;
    m.add_function(wrap_pyfunction!(verify_jws, m)?)?;
    m.add_function(wrap_pyfunction!(verify_receipt_jws, m)?)?;
    m.add_function(wrap_pyfunction!(verify_signed_receipt, m)?)?;
    m.add_function(wrap_pyfunction!(issue_receipt, m)?)?;
    m.add_function(wrap_pyfunction!(verify_screening_rules, m)?)?;
    Ok(())
}
