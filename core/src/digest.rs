//! SHA-256 digests and commitments over ekl-json-1 (PROTOCOL §9.5, §6.7.1; SPEC §2).
//!
//! A commitment is `{"alg":"sha-256","canon":"ekl-json-1","digest":…}`, optionally with a
//! `salt_id` and a disclosed `salt` (64 lowercase hex characters) whose 32 raw bytes are prefixed to
//! the canonical bytes before hashing. The terms hash of §6.7.1 is the digest of the terms without
//! their own `hash` member.

use std::borrow::Cow;

use sha2::{Digest, Sha256};

use crate::canonical::{self, Options};
use crate::error::{Error, ErrorCode, Result};
use crate::hex;
use crate::value::Value;

/// Lowercase hex SHA-256 of `bytes`.
///
/// ```
/// assert_eq!(ekl_core::digest::sha256_hex(b"abc"),
///            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
/// ```
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(&Sha256::digest(bytes))
}

/// SHA-256 of `prefix ‖ bytes`, lowercase hex.
pub(crate) fn sha256_hex_prefixed(prefix: &[u8], bytes: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(prefix);
    h.update(bytes);
    hex::encode(&h.finalize())
}

/// A 32-byte salt, parsed from exactly 64 lowercase hex characters (`INVALID_SALT` otherwise).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Salt([u8; 32]);

impl Salt {
    /// Parses a salt. Upper-case hex and any length other than 64 are refused with `INVALID_SALT`.
    pub fn from_hex(text: &str) -> Result<Salt> {
        hex::decode_fixed::<32>(text, ErrorCode::InvalidSalt, "salt").map(Salt)
    }

    /// The raw bytes.
    pub fn bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The salt as 64 lowercase hex characters.
    pub fn to_hex(&self) -> String {
        hex::encode(&self.0)
    }
}

impl core::fmt::Debug for Salt {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Salt(..)")
    }
}

/// A commitment to a value (§9.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commitment {
    /// Always `sha-256`.
    pub alg: &'static str,
    /// Always `ekl-json-1`.
    pub canon: &'static str,
    /// Lowercase hex SHA-256 of (salt bytes ‖) the canonical bytes.
    pub digest: String,
    /// The salt's identifier, when the commitment is salted and the caller names it.
    pub salt_id: Option<String>,
    /// The disclosed salt (64 lowercase hex), when salted.
    pub salt: Option<String>,
}

impl Commitment {
    /// A commitment from its JSON object (docs/decisions.md#shapes): `alg` `sha-256`, `canon`
    /// `ekl-json-1`, `digest`, optional `salt_id` (not empty) and `salt`; unknown members refused. The form of
    /// the digest and salt is checked where the commitment is compared.
    pub fn from_value(v: &Value<'_>) -> Result<Commitment> {
        use crate::shape::{invalid, members, opt_str, req_str};
        members(
            v,
            "commitment",
            &["alg", "canon", "digest", "salt_id", "salt"],
        )?;
        if req_str(v, "alg", "commitment")? != "sha-256"
            || req_str(v, "canon", "commitment")? != "ekl-json-1"
        {
            return Err(invalid(
                "a commitment must have alg sha-256 and canon ekl-json-1".into(),
            ));
        }
        Ok(Commitment {
            alg: "sha-256",
            canon: "ekl-json-1",
            digest: req_str(v, "digest", "commitment")?.to_owned(),
            salt_id: crate::shape::opt_id(v, "salt_id", "commitment")?.map(str::to_owned),
            salt: opt_str(v, "salt", "commitment")?.map(str::to_owned),
        })
    }

    /// The commitment as a JSON value (members `alg`, `canon`, `digest`, then `salt_id`, `salt`
    /// when present).
    pub fn to_value(&self) -> Value<'static> {
        let mut m: Vec<(Cow<'static, str>, Value<'static>)> = vec![
            ("alg".into(), Value::from(self.alg)),
            ("canon".into(), Value::from(self.canon)),
            ("digest".into(), Value::from(self.digest.clone())),
        ];
        if let Some(id) = &self.salt_id {
            m.push(("salt_id".into(), Value::from(id.clone())));
        }
        if let Some(s) = &self.salt {
            m.push(("salt".into(), Value::from(s.clone())));
        }
        Value::Object(m)
    }

    /// The commitment as canonical JSON text.
    pub fn to_canonical_json(&self) -> String {
        let bytes = canonical::canonicalize_value(&self.to_value())
            .expect("a commitment is always a valid ekl-json-1 value");
        String::from_utf8(bytes).expect("canonical JSON is UTF-8")
    }
}

/// Digest of a value's ekl-json-1 bytes, optionally salted.
pub fn value_digest(value: &Value<'_>, salt: Option<&Salt>) -> Result<String> {
    let bytes = canonical::canonicalize_value(value)?;
    Ok(sha256_hex_prefixed(
        salt.map_or(&[][..], |s| &s.0[..]),
        &bytes,
    ))
}

/// A `salt_id` names the salt a commitment is salted with: without a salt it would name one
/// the digest does not use (`INVALID_ARGUMENT`; docs/decisions/receipts.md); an empty one names
/// nothing (`INVALID_ARGUMENT`, docs/decisions/edges.md#empty).
fn salt_id_needs_a_salt(salt: Option<&Salt>, salt_id: Option<&str>) -> Result<()> {
    if let Some(id) = salt_id {
        crate::shape::non_empty(id, "salt_id")?;
    }
    if salt.is_none() && salt_id.is_some() {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            "salt_id names the salt of a salted commitment: give the salt too",
        ));
    }
    Ok(())
}

/// The commitment to a value: its digest, optionally salted (`salt_id` is only recorded, and
/// only with a salt).
pub fn commitment(
    value: &Value<'_>,
    salt: Option<&Salt>,
    salt_id: Option<&str>,
) -> Result<Commitment> {
    salt_id_needs_a_salt(salt, salt_id)?;
    Ok(Commitment {
        alg: "sha-256",
        canon: "ekl-json-1",
        digest: value_digest(value, salt)?,
        salt_id: salt_id.map(str::to_owned),
        salt: salt.map(Salt::to_hex),
    })
}

/// The commitment to a capability call's `input` object: the same as [`commitment`], with the
/// 256 KB limit of §2.5 applied (`BODY_TOO_LARGE`).
pub fn input_commitment(
    input: &Value<'_>,
    salt: Option<&Salt>,
    salt_id: Option<&str>,
) -> Result<Commitment> {
    salt_id_needs_a_salt(salt, salt_id)?;
    let bytes = canonical::canonicalize_value_with(input, Options::capability_input())?;
    Ok(Commitment {
        alg: "sha-256",
        canon: "ekl-json-1",
        digest: sha256_hex_prefixed(salt.map_or(&[][..], |s| &s.0[..]), &bytes),
        salt_id: salt_id.map(str::to_owned),
        salt: salt.map(Salt::to_hex),
    })
}

/// The terms hash of §6.7.1: the digest of the terms object without its `hash` member.
/// Refused with `INVALID_SHAPE` when `terms` is not an object, with `DUPLICATE_KEY` when it holds
/// one member name twice (`hash` included: two `hash` members are refused, not both dropped).
pub fn terms_hash(terms: &Value<'_>) -> Result<String> {
    let Value::Object(members) = terms else {
        return Err(Error::new(
            ErrorCode::InvalidShape,
            "terms must be a JSON object",
        ));
    };
    canonical::check_unique_keys(members)?;
    let without: Vec<_> = members
        .iter()
        .filter(|(k, _)| k != "hash")
        .map(|(k, v)| (Cow::Borrowed(k.as_ref()), v.clone()))
        .collect();
    value_digest(&Value::Object(without), None)
}
