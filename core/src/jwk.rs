//! The network's key set: P-256 JWKs for ES256 (PROTOCOL §3 "verified against
//! {network}/.well-known/jwks.json", RFC 7517, RFC 7518 §6.2; SPEC §7).
//!
//! [`Jwks::parse`] reads a JWK Set (`{"keys":[...]}`) with the core's own JSON parser, so duplicate
//! members anywhere are refused, and validates every key before any is used:
//!
//! * `kty` exactly `"EC"`, `crv` exactly `"P-256"`;
//! * `x` and `y` strict base64url (see [`crate::base64url`]) of exactly 32 bytes each, below the
//!   field prime, and the point on the curve (not the identity);
//! * no private member `d` (a public key set that carries a private key is a configuration error
//!   that must not be silently accepted);
//! * `kid` a non-empty string, unique in the set (a key is found by `kid` only);
//! * `alg`, if present, exactly `"ES256"`; `use`, if present, exactly `"sig"`;
//! * keys of another kind — another `kty`, another curve, an `alg` other than ES256, a `use` other
//!   than `sig`, no `kid` — are skipped, as key sets found in the wild mix them (RSA keys,
//!   encryption keys); a token that names a skipped key is `UNSUPPORTED_KEY`
//!   (docs/decisions.md#jwks-wild). A P-256 signing key that is malformed (coordinates, point,
//!   a private `d`) refuses the whole set: the set claims a key it cannot have;
//! * the set holds at least one usable key. Other members (of the set and of a key) are ignored
//!   (RFC 7517 §4).
//!
//! Anything else is `INVALID_JWKS`. The parsed keys keep a ready verifying key, so verifying many
//! tokens with the same set does no parsing or point decompression per token.
//!
//! ## Keys from a seed
//! For tests, vectors and local test networks, [`SigningKey::from_seed`] derives a P-256 key from a
//! 32-byte seed and a `kid`, deterministically and without a random source:
//! candidate_i = HMAC-SHA256(key = seed, message = `"ekl-jwks-seed"` ‖ 0x00 ‖ kid ‖ 0x00 ‖ i)
//! for i = 0, 1, 2, … (one byte); the first candidate that, read as a big-endian integer, lies in
//! [1, n − 1] (n the group order) is the secret scalar. A candidate fails with probability about
//! 2^-32, so i = 0 is the answer for every practical seed.

#[cfg(feature = "signing")]
use hmac::{Hmac, KeyInit, Mac};

#[cfg(feature = "signing")]
use p256::ecdsa::signature::Signer;
use p256::ecdsa::VerifyingKey;
#[cfg(feature = "signing")]
use p256::ecdsa::{Signature, SigningKey as P256SigningKey};
use sha2::{Digest, Sha256};
#[cfg(feature = "signing")]
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::base64url;
use crate::canonical;
use crate::canonical::parse_strict;
use crate::error::{Error, ErrorCode, Result};
/// The most ES256 key tables that exist at once in a process (see `PublicJwk::precompute`).
pub use crate::es256::MAX_KEY_TABLES;
use crate::es256::{self, PreparedKey};
use crate::value::Value;

/// The only JWS algorithm EKP uses (PROTOCOL §3).
pub const ES256: &str = "ES256";

/// The domain separation string of [`SigningKey::from_seed`].
#[cfg(feature = "signing")]
pub const SEED_CONTEXT: &str = "ekl-jwks-seed";

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidJwks, message)
}

/// A validated P-256 public key of a key set, with its `kid`.
#[derive(Clone, Debug)]
pub struct PublicJwk {
    kid: String,
    x: [u8; 32],
    y: [u8; 32],
    prepared: std::sync::Arc<PreparedKey>,
}

impl PublicJwk {
    /// A key from its affine coordinates; refused with `INVALID_JWKS` unless the point is on the
    /// curve (and not the identity) and `kid` is non-empty.
    pub fn from_coordinates(kid: &str, x: [u8; 32], y: [u8; 32]) -> Result<PublicJwk> {
        if kid.is_empty() {
            return Err(invalid("kid must be a non-empty string"));
        }
        let mut sec1 = [0u8; 65];
        sec1[0] = 4;
        sec1[1..33].copy_from_slice(&x);
        sec1[33..].copy_from_slice(&y);
        let key = VerifyingKey::from_sec1_bytes(&sec1)
            .map_err(|_| invalid("x and y are not a point on P-256"))?;
        Ok(PublicJwk {
            kid: kid.to_owned(),
            x,
            y,
            prepared: std::sync::Arc::new(PreparedKey::new(key.as_affine())),
        })
    }

    /// The key's `kid`.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The affine x coordinate (32 bytes, big-endian).
    pub fn x(&self) -> &[u8; 32] {
        &self.x
    }

    /// The affine y coordinate (32 bytes, big-endian).
    pub fn y(&self) -> &[u8; 32] {
        &self.y
    }

    /// The public JWK as a value: `kty, crv, alg, use, kid, x, y`.
    pub fn to_value(&self) -> Value<'static> {
        Value::Object(vec![
            ("kty".into(), Value::from("EC")),
            ("crv".into(), Value::from("P-256")),
            ("alg".into(), Value::from(ES256)),
            ("use".into(), Value::from("sig")),
            ("kid".into(), Value::from(self.kid.clone())),
            ("x".into(), Value::from(base64url::encode(&self.x))),
            ("y".into(), Value::from(base64url::encode(&self.y))),
        ])
    }

    /// Verifies an ES256 signature (raw r‖s, exactly 64 bytes, RFC 7518 §3.4) over `message`.
    ///
    /// This is the one signature check every JWS and signed receipt of the core goes through.
    /// Refused with `SIGNATURE_INVALID` when the signature has another length, when r or s is zero
    /// or not below the group order n, or when it does not verify. A high-S signature (s > n/2) is
    /// accepted: ECDSA signatures are malleable (s and n − s both verify), JWS does not require
    /// low S, so nothing may be keyed on a signature's bytes (receipts are deduplicated by
    /// `execution_id`, not by digest).
    pub fn verify_es256(&self, message: &[u8], signature: &[u8]) -> Result<()> {
        self.verify_es256_prehashed(&Sha256::digest(message).into(), signature)
    }

    /// [`PublicJwk::verify_es256`] for the message whose SHA-256 is `digest` (a caller that
    /// hashes more than the signing input, such as a compact JWS's digest, hashes it once).
    pub(crate) fn verify_es256_prehashed(&self, digest: &[u8; 32], signature: &[u8]) -> Result<()> {
        if signature.len() != 64 {
            return Err(Error::new(
                ErrorCode::SignatureInvalid,
                format!("es256 signature must be 64 bytes, got {}", signature.len()),
            ));
        }
        self.prepared
            .verify_prehashed(digest, signature)
            .map_err(|refusal| match refusal {
                es256::Refusal::Range => Error::new(
                    ErrorCode::SignatureInvalid,
                    "es256 signature r or s is zero or not below the group order",
                ),
                _ => Error::new(
                    ErrorCode::SignatureInvalid,
                    "es256 signature does not verify",
                ),
            })
    }

    /// Builds the key's precomputed table now instead of at its second verification, and says
    /// whether the key has it: `false` when [`MAX_KEY_TABLES`]
    /// tables already exist in the process (the key then verifies without one, more slowly).
    pub fn precompute(&self) -> bool {
        self.prepared.precompute()
    }
}

/// A validated JWK Set of P-256 keys, looked up by `kid`.
#[derive(Clone, Debug)]
pub struct Jwks {
    keys: Vec<PublicJwk>,
    /// The kids of the keys that were skipped (not P-256 ES256 signing keys).
    skipped: Vec<String>,
}

/// Whether `key` is one this library can use (EC, P-256, ES256 when `alg` is given, `sig` when
/// `use` is given, a non-empty string `kid`); keys of any other kind are skipped.
fn usable(key: &Value<'_>) -> bool {
    let is = |name: &str, want: &str| key.get(name).and_then(Value::as_str) == Some(want);
    let absent_or = |name: &str, want: &str| key.get(name).is_none() || is(name, want);
    is("kty", "EC")
        && is("crv", "P-256")
        && absent_or("alg", ES256)
        && absent_or("use", "sig")
        && key
            .get("kid")
            .and_then(Value::as_str)
            .is_some_and(|k| !k.is_empty())
}

fn member_str<'v>(key: &'v Value<'_>, name: &str, index: usize) -> Result<Option<&'v str>> {
    match key.get(name) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(invalid(format!("keys[{index}].{name} must be a string"))),
    }
}

fn coordinate(key: &Value<'_>, name: &str, index: usize) -> Result<[u8; 32]> {
    let text = member_str(key, name, index)?
        .ok_or_else(|| invalid(format!("keys[{index}].{name} is missing")))?;
    base64url::decode_fixed::<32>(
        text,
        ErrorCode::InvalidJwks,
        &format!("keys[{index}].{name}"),
    )
}

/// Checks the members of one JWK that say what key it is (`kty`, `crv`, `alg`, `use`, `kid`) and
/// returns the kid.
fn check_key_members(key: &Value<'_>, index: usize) -> Result<String> {
    if key.as_object().is_none() {
        return Err(invalid(format!("keys[{index}] must be an object")));
    }
    if member_str(key, "kty", index)? != Some("EC") {
        return Err(invalid(format!("keys[{index}].kty must be \"EC\"")));
    }
    if member_str(key, "crv", index)? != Some("P-256") {
        return Err(invalid(format!("keys[{index}].crv must be \"P-256\"")));
    }
    if let Some(alg) = member_str(key, "alg", index)? {
        if alg != ES256 {
            return Err(invalid(format!("keys[{index}].alg must be \"ES256\"")));
        }
    }
    if let Some(usage) = member_str(key, "use", index)? {
        if usage != "sig" {
            return Err(invalid(format!("keys[{index}].use must be \"sig\"")));
        }
    }
    match member_str(key, "kid", index)? {
        Some(k) if !k.is_empty() => Ok(k.to_owned()),
        _ => Err(invalid(format!(
            "keys[{index}].kid must be a non-empty string"
        ))),
    }
}

/// Checks the public members of one JWK (everything but `d`) and returns kid, x, y.
fn check_public_members(key: &Value<'_>, index: usize) -> Result<(String, [u8; 32], [u8; 32])> {
    let kid = check_key_members(key, index)?;
    let x = coordinate(key, "x", index)?;
    let y = coordinate(key, "y", index)?;
    Ok((kid, x, y))
}

impl Jwks {
    /// Parses and validates a JWK Set (see the module documentation for every rule).
    ///
    /// ```
    /// use ekl_core::jwk::{Jwks, SigningKey};
    /// let key = SigningKey::from_seed(&[7u8; 32], "net-1").unwrap();
    /// let text = Jwks::from_keys(vec![key.public_jwk()]).unwrap().to_json();
    /// let jwks = Jwks::parse(text.as_bytes()).unwrap();
    /// assert_eq!(jwks.get("net-1").unwrap().kid(), "net-1");
    /// assert!(Jwks::parse(br#"{"keys":[]}"#).is_err());
    /// ```
    pub fn parse(json: &[u8]) -> Result<Jwks> {
        let value = parse_strict(json, "jwks", ErrorCode::InvalidJwks)?;
        Self::from_value(&value)
    }

    /// Validates a JWK Set already parsed into a [`Value`].
    pub fn from_value(value: &Value<'_>) -> Result<Jwks> {
        if value.as_object().is_none() {
            return Err(invalid("a jwks must be a json object"));
        }
        let items = match value.get("keys") {
            Some(Value::Array(items)) => items,
            Some(_) => return Err(invalid("jwks.keys must be an array")),
            None => return Err(invalid("jwks.keys is missing")),
        };
        let mut keys = Vec::with_capacity(items.len());
        let mut skipped = Vec::new();
        for (index, key) in items.iter().enumerate() {
            if key.as_object().is_none() {
                return Err(invalid(format!("keys[{index}] must be an object")));
            }
            if !usable(key) {
                // A key of another kind (RSA, another curve, an encryption key, no kid): skipped,
                // and a token that names it is UNSUPPORTED_KEY.
                if let Some(kid) = key.get("kid").and_then(Value::as_str) {
                    skipped.push(kid.to_owned());
                }
                continue;
            }
            // A P-256 signing key must be well formed: one that is not (or that carries a
            // private `d`) refuses the set.
            let (kid, x, y) = check_public_members(key, index)?;
            if key.get("d").is_some() {
                return Err(invalid(format!(
                    "keys[{index}] holds a private key (d): a public key set must not"
                )));
            }
            keys.push(
                PublicJwk::from_coordinates(&kid, x, y)
                    .map_err(|e| invalid(format!("keys[{index}]: {}", e.message())))?,
            );
        }
        let mut jwks = Self::from_keys(keys)?;
        skipped.retain(|kid| jwks.get(kid).is_none());
        jwks.skipped = skipped;
        Ok(jwks)
    }

    /// A key set from validated keys; refused with `INVALID_JWKS` when empty or a `kid` repeats.
    pub fn from_keys(keys: Vec<PublicJwk>) -> Result<Jwks> {
        if keys.is_empty() {
            return Err(invalid(
                "jwks.keys must hold at least one P-256 signing key (EC, P-256, with a kid)",
            ));
        }
        let mut kids: Vec<&str> = keys.iter().map(|k| k.kid.as_str()).collect();
        crate::sort::sort_unstable_by(&mut kids, |a, b| a.cmp(b));
        if kids.windows(2).any(|w| w[0] == w[1]) {
            return Err(invalid("two keys have the same kid"));
        }
        Ok(Jwks {
            keys,
            skipped: Vec::new(),
        })
    }

    /// Whether `kid` names a key of the set that was skipped as unusable.
    pub fn is_skipped(&self, kid: &str) -> bool {
        self.skipped.iter().any(|k| k == kid)
    }

    /// The key with this `kid`, if any.
    pub fn get(&self, kid: &str) -> Option<&PublicJwk> {
        self.keys.iter().find(|k| k.kid == kid)
    }

    /// Every key, in the set's order.
    pub fn keys(&self) -> &[PublicJwk] {
        &self.keys
    }

    /// The set as a value `{"keys":[...]}`.
    pub fn to_value(&self) -> Value<'static> {
        Value::Object(vec![(
            "keys".into(),
            Value::Array(self.keys.iter().map(PublicJwk::to_value).collect()),
        )])
    }

    /// The set as ekl-json-1 text (deterministic).
    pub fn to_json(&self) -> String {
        let bytes = canonical::canonicalize_value(&self.to_value())
            .expect("a jwks value holds only strings");
        String::from_utf8(bytes).expect("canonical json is utf-8")
    }
}

/// A P-256 signing key with its `kid` (for providers, tests, vectors and local test networks).
///
/// The secret scalar is wiped when the key is dropped (p256's `SigningKey` zeroizes its scalar in
/// its own `Drop`, hence [`ZeroizeOnDrop`] here); seeds and scalars passed through the
/// constructors are wiped after use; `Debug` shows the `kid` only.
#[derive(Clone)]
#[cfg(feature = "signing")]
pub struct SigningKey {
    kid: String,
    secret: P256SigningKey,
    public: PublicJwk,
}

// The one secret field wipes itself on drop (ecdsa's `impl Drop for SigningKey`); the others
// are public.
#[cfg(feature = "signing")]
impl ZeroizeOnDrop for SigningKey {}

#[cfg(feature = "signing")]
impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never print the secret scalar.
        f.debug_struct("SigningKey")
            .field("kid", &self.kid)
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "signing")]
impl SigningKey {
    /// The key derived from a 32-byte seed and a `kid` (see the module documentation).
    pub fn from_seed(seed: &[u8; 32], kid: &str) -> Result<SigningKey> {
        if kid.is_empty() {
            return Err(Error::new(
                ErrorCode::InvalidKey,
                "kid must be a non-empty string",
            ));
        }
        for counter in 0u8..=255 {
            let mut mac =
                <Hmac<Sha256> as KeyInit>::new_from_slice(seed).expect("hmac takes any key");
            mac.update(SEED_CONTEXT.as_bytes());
            mac.update(&[0]);
            mac.update(kid.as_bytes());
            mac.update(&[0, counter]);
            let candidate: Zeroizing<[u8; 32]> = Zeroizing::new(mac.finalize().into_bytes().into());
            if let Ok(key) = Self::from_scalar_bytes(kid, &candidate) {
                return Ok(key);
            }
        }
        Err(Error::new(
            ErrorCode::InvalidKey,
            "no valid scalar derived from the seed",
        ))
    }

    /// The key whose secret scalar is `d` (32 bytes big-endian, in [1, n − 1]).
    pub fn from_scalar_bytes(kid: &str, d: &[u8; 32]) -> Result<SigningKey> {
        if kid.is_empty() {
            return Err(Error::new(
                ErrorCode::InvalidKey,
                "kid must be a non-empty string",
            ));
        }
        let secret = P256SigningKey::from_slice(d).map_err(|_| {
            Error::new(
                ErrorCode::InvalidKey,
                "the secret scalar must lie in [1, n-1]",
            )
        })?;
        let point = secret.verifying_key().to_sec1_point(false);
        let bytes = point.as_bytes();
        let mut x = [0u8; 32];
        let mut y = [0u8; 32];
        x.copy_from_slice(&bytes[1..33]);
        y.copy_from_slice(&bytes[33..65]);
        let public = PublicJwk::from_coordinates(kid, x, y)?;
        Ok(SigningKey {
            kid: kid.to_owned(),
            secret,
            public,
        })
    }

    /// A key from a private JWK: `kty` `EC`, `crv` `P-256`, a non-empty `kid`, `alg` and `use`
    /// checked as in a key set when present, and `d` (strict base64url of 32 bytes). `x` and `y`
    /// may be left out (a bare private JWK, as key-management exports write it): the public point
    /// is derived from `d`; when they are given, both must be there and be `d`'s point. Refused
    /// with `INVALID_KEY`.
    pub fn from_jwk(json: &[u8]) -> Result<SigningKey> {
        let value = parse_strict(json, "jwk", ErrorCode::InvalidKey)?;
        Self::from_jwk_value(&value)
    }

    /// [`SigningKey::from_jwk`] of a JWK already parsed into a [`Value`].
    pub fn from_jwk_value(value: &Value<'_>) -> Result<SigningKey> {
        let rekey = |e: Error| Error::new(ErrorCode::InvalidKey, e.message().to_owned());
        let kid = check_key_members(value, 0).map_err(rekey)?;
        let d = match value.get("d") {
            Some(Value::String(d)) => base64url::decode_fixed::<32>(d, ErrorCode::InvalidKey, "d")
                .map(Zeroizing::new)
                .map_err(|_| {
                    Error::new(ErrorCode::InvalidKey, "d must be 32 bytes of base64url")
                })?,
            _ => {
                return Err(Error::new(
                    ErrorCode::InvalidKey,
                    "a private jwk needs d as a string",
                ))
            }
        };
        let key = Self::from_scalar_bytes(&kid, &d)?;
        match (value.get("x"), value.get("y")) {
            (None, None) => {}
            (Some(_), Some(_)) => {
                let x = coordinate(value, "x", 0).map_err(rekey)?;
                let y = coordinate(value, "y", 0).map_err(rekey)?;
                if key.public.x != x || key.public.y != y {
                    return Err(Error::new(
                        ErrorCode::InvalidKey,
                        "d does not belong to the jwk's x and y",
                    ));
                }
            }
            _ => {
                return Err(Error::new(
                    ErrorCode::InvalidKey,
                    "a jwk gives both x and y, or neither",
                ))
            }
        }
        Ok(key)
    }

    /// A key from a PEM file (PKCS#8 `BEGIN PRIVATE KEY` or SEC1 `BEGIN EC PRIVATE KEY`, P-256)
    /// and the `kid` it signs under; a public point in the file must be the key's own
    /// ([`crate::pem`]). Refused with `INVALID_KEY`.
    pub fn from_pem(pem: &str, kid: &str) -> Result<SigningKey> {
        let parsed = crate::pem::parse_private_key(pem)?;
        let key = Self::from_scalar_bytes(kid, &parsed.d)?;
        if let Some(point) = parsed.public {
            if point[1..33] != key.public.x || point[33..65] != key.public.y {
                return Err(Error::new(
                    ErrorCode::InvalidKey,
                    "the file's public key does not belong to its private key",
                ));
            }
        }
        Ok(key)
    }

    /// The key's `kid`.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The public half as a JWK.
    pub fn public_jwk(&self) -> PublicJwk {
        self.public.clone()
    }

    /// The private JWK (`kty, crv, alg, use, kid, x, y, d`) as ekl-json-1 text. It holds the
    /// secret: for tests and local test networks only.
    pub fn to_private_jwk_json(&self) -> String {
        let mut value = self.public.to_value();
        let scalar = Zeroizing::new(self.secret.to_bytes());
        if let Value::Object(members) = &mut value {
            members.push(("d".into(), Value::from(base64url::encode(&scalar))));
        }
        let bytes = canonical::canonicalize_value(&value).expect("a jwk value holds only strings");
        // Wipe the intermediate copy of d (the returned text holds the secret by design).
        if let Value::Object(members) = &mut value {
            for (_, v) in members.iter_mut() {
                if let Value::String(s) = v {
                    s.to_mut().zeroize();
                }
            }
        }
        String::from_utf8(bytes).expect("canonical json is utf-8")
    }

    /// ES256 signature (raw r‖s, 64 bytes) of `message` with the deterministic nonce of RFC 6979
    /// (HMAC-SHA256 DRBG), so the same key and message always give the same bytes. S is not
    /// normalised (P-256 ECDSA in p256 does not force low S), matching what OpenSSL-style signers do.
    pub fn sign_es256(&self, message: &[u8]) -> [u8; 64] {
        let sig: Signature = self.secret.sign(message);
        let mut out = [0u8; 64];
        out.copy_from_slice(&sig.to_bytes());
        out
    }
}

/// A key set with one key per `kid`, every key derived from `seed` (see [`SigningKey::from_seed`]).
#[cfg(feature = "signing")]
pub fn jwks_from_seed(seed: &[u8; 32], kids: &[&str]) -> Result<(Jwks, Vec<SigningKey>)> {
    let keys = kids
        .iter()
        .map(|kid| SigningKey::from_seed(seed, kid))
        .collect::<Result<Vec<_>>>()?;
    let jwks = Jwks::from_keys(keys.iter().map(SigningKey::public_jwk).collect())
        .map_err(|e| Error::new(ErrorCode::InvalidKey, e.message().to_owned()))?;
    Ok((jwks, keys))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_json(x: &str, y: &str, extra: &str) -> String {
        format!(
            r#"{{"keys":[{{"kty":"EC","crv":"P-256","kid":"k1","x":"{x}","y":"{y}"{extra}}}]}}"#
        )
    }

    fn good() -> (String, String) {
        let k = SigningKey::from_seed(&[1u8; 32], "k1").unwrap();
        (
            base64url::encode(k.public.x()),
            base64url::encode(k.public.y()),
        )
    }

    #[test]
    fn seed_is_deterministic_and_kid_separated() {
        let a = SigningKey::from_seed(&[1u8; 32], "k1").unwrap();
        let b = SigningKey::from_seed(&[1u8; 32], "k1").unwrap();
        let c = SigningKey::from_seed(&[1u8; 32], "k2").unwrap();
        assert_eq!(a.to_private_jwk_json(), b.to_private_jwk_json());
        assert_ne!(a.public.x(), c.public.x());
        assert_eq!(a.sign_es256(b"m"), b.sign_es256(b"m"));
        a.public_jwk()
            .verify_es256(b"m", &a.sign_es256(b"m"))
            .unwrap();
    }

    #[test]
    fn private_jwk_round_trip() {
        let a = SigningKey::from_seed(&[2u8; 32], "k9").unwrap();
        let text = a.to_private_jwk_json();
        let b = SigningKey::from_jwk(text.as_bytes()).unwrap();
        assert_eq!(b.kid(), "k9");
        assert_eq!(b.to_private_jwk_json(), text);
        // A private JWK is refused as a key set.
        let set = format!(r#"{{"keys":[{text}]}}"#);
        assert_eq!(
            Jwks::parse(set.as_bytes()).unwrap_err().code(),
            ErrorCode::InvalidJwks
        );
        // d of another key.
        let other = SigningKey::from_seed(&[3u8; 32], "k9").unwrap();
        let d_other = base64url::encode(&other.secret.to_bytes());
        let d_mine = base64url::encode(&a.secret.to_bytes());
        let swapped = text.replace(&d_mine, &d_other);
        assert_eq!(
            SigningKey::from_jwk(swapped.as_bytes()).unwrap_err().code(),
            ErrorCode::InvalidKey
        );
    }

    #[test]
    fn jwks_accepts_good_key() {
        let (x, y) = good();
        let jwks = Jwks::parse(
            key_json(&x, &y, r#","alg":"ES256","use":"sig","x5t":"ignored""#).as_bytes(),
        )
        .unwrap();
        assert_eq!(jwks.keys().len(), 1);
        assert!(jwks.get("k1").is_some());
        assert!(jwks.get("k2").is_none());
    }

    #[test]
    fn jwks_refusals() {
        let (x, y) = good();
        let short = base64url::encode(&[1u8; 31]);
        let long = base64url::encode(&[1u8; 33]);
        // y + 1 (off the curve): flip the last byte.
        let mut yb = base64url::decode(&y).unwrap();
        yb[31] ^= 1;
        let off = base64url::encode(&yb);
        // the field prime p as x
        let p = base64url::encode(&[
            0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        ]);
        let cases: Vec<(String, ErrorCode)> = vec![
            (key_json(&x, &y, r#","d":"AAAA""#), ErrorCode::InvalidJwks),
            (key_json(&short, &y, ""), ErrorCode::InvalidJwks),
            (key_json(&x, &long, ""), ErrorCode::InvalidJwks),
            (key_json(&x, &off, ""), ErrorCode::InvalidJwks),
            (key_json(&p, &y, ""), ErrorCode::InvalidJwks),
            (key_json(&format!("{x}="), &y, ""), ErrorCode::InvalidJwks),
            (
                key_json(&format!("+{}", &x[1..]), &y, ""),
                ErrorCode::InvalidJwks,
            ),
            (
                key_json(&format!("/{}", &x[1..]), &y, ""),
                ErrorCode::InvalidJwks,
            ),
            (key_json(&format!(" {x}"), &y, ""), ErrorCode::InvalidJwks),
            (
                key_json(&x, &y, r#","alg":"ES384""#),
                ErrorCode::InvalidJwks,
            ),
            (key_json(&x, &y, r#","use":"enc""#), ErrorCode::InvalidJwks),
            (key_json(&x, &y, r#","kid":"k2""#), ErrorCode::DuplicateKey),
            (
                key_json(&x, &y, "").replace(r#""kid":"k1","#, ""),
                ErrorCode::InvalidJwks,
            ),
            (
                key_json(&x, &y, "").replace(r#""kid":"k1""#, r#""kid":"""#),
                ErrorCode::InvalidJwks,
            ),
            (
                key_json(&x, &y, "").replace(r#""kid":"k1""#, r#""kid":7"#),
                ErrorCode::InvalidJwks,
            ),
            (
                key_json(&x, &y, "").replace("\"EC\"", "\"RSA\""),
                ErrorCode::InvalidJwks,
            ),
            (
                key_json(&x, &y, "").replace("\"EC\"", "\"ec\""),
                ErrorCode::InvalidJwks,
            ),
            (
                key_json(&x, &y, "").replace("P-256", "P-384"),
                ErrorCode::InvalidJwks,
            ),
            (
                key_json(&x, &y, "").replace("P-256", "secp256r1"),
                ErrorCode::InvalidJwks,
            ),
            (r#"{"keys":[]}"#.to_owned(), ErrorCode::InvalidJwks),
            (r#"{"keys":{}}"#.to_owned(), ErrorCode::InvalidJwks),
            (r#"[]"#.to_owned(), ErrorCode::InvalidJwks),
            (r#"{"keys":[1]}"#.to_owned(), ErrorCode::InvalidJwks),
            ("{".to_owned(), ErrorCode::InvalidJwks),
            (
                r#"{"keys":[],"keys":[]}"#.to_owned(),
                ErrorCode::DuplicateKey,
            ),
        ];
        for (text, code) in cases {
            let e = Jwks::parse(text.as_bytes()).map(|_| ()).expect_err(&text);
            assert_eq!(e.code(), code, "{text}");
        }
        // Two keys with the same kid.
        let one = key_json(&x, &y, "");
        let inner = &one[9..one.len() - 2];
        let two = format!(r#"{{"keys":[{inner},{inner}]}}"#);
        assert_eq!(
            Jwks::parse(two.as_bytes()).unwrap_err().code(),
            ErrorCode::InvalidJwks
        );
    }

    #[test]
    fn signature_shape_refusals() {
        let k = SigningKey::from_seed(&[4u8; 32], "k").unwrap();
        let pk = k.public_jwk();
        let sig = k.sign_es256(b"msg");
        pk.verify_es256(b"msg", &sig).unwrap();
        for bad in [&sig[..63], &[sig.as_slice(), &[0]].concat()[..]] {
            assert_eq!(
                pk.verify_es256(b"msg", bad).unwrap_err().code(),
                ErrorCode::SignatureInvalid
            );
        }
        let mut zero_r = sig;
        zero_r[..32].fill(0);
        let mut zero_s = sig;
        zero_s[32..].fill(0);
        let mut big_s = sig;
        big_s[32..].fill(0xff);
        for bad in [zero_r, zero_s, big_s] {
            assert_eq!(
                pk.verify_es256(b"msg", &bad).unwrap_err().code(),
                ErrorCode::SignatureInvalid
            );
        }
        assert!(pk.verify_es256(b"msh", &sig).is_err());
    }

    #[test]
    fn keys_of_other_kinds_are_skipped_and_named() {
        let k = SigningKey::from_seed(&[9u8; 32], "ec-1").unwrap();
        let ec = k.public_jwk().to_value();
        let ec = String::from_utf8(canonical::canonicalize_value(&ec).unwrap()).unwrap();
        let rsa = r#"{"kty":"RSA","kid":"rsa-1","n":"AQAB","e":"AQAB"}"#;
        let enc = ec
            .replace(r#""kid":"ec-1""#, r#""kid":"enc-1""#)
            .replace(r#""use":"sig""#, r#""use":"enc""#);
        let p384 = r#"{"kty":"EC","crv":"P-384","kid":"p384","x":"AA","y":"AA"}"#;
        let no_kid = ec.replace(r#""kid":"ec-1","#, "");
        let set = format!(r#"{{"keys":[{rsa},{enc},{p384},{no_kid},{ec}]}}"#);
        let jwks = Jwks::parse(set.as_bytes()).unwrap();
        assert_eq!(jwks.keys().len(), 1);
        assert!(jwks.get("ec-1").is_some());
        for kid in ["rsa-1", "enc-1", "p384"] {
            assert!(jwks.is_skipped(kid), "{kid}");
        }
        assert!(!jwks.is_skipped("ec-1"));
        // The canonical form holds the usable keys only.
        assert!(!jwks.to_json().contains("rsa-1"));
        // A malformed P-256 signing key refuses the set, even beside good keys.
        let bad = ec
            .replace(r#""kid":"ec-1""#, r#""kid":"bad""#)
            .replace(r#""x":""#, r#""x":"A"#);
        let set = format!(r#"{{"keys":[{ec},{bad}]}}"#);
        assert_eq!(
            Jwks::parse(set.as_bytes()).unwrap_err().code(),
            ErrorCode::InvalidJwks
        );
        // No usable key at all.
        let set = format!(r#"{{"keys":[{rsa}]}}"#);
        assert_eq!(
            Jwks::parse(set.as_bytes()).unwrap_err().code(),
            ErrorCode::InvalidJwks
        );
        // A token naming a skipped key: UNSUPPORTED_KEY; an unknown one: UNKNOWN_KID.
        let set = format!(r#"{{"keys":[{rsa},{ec}]}}"#);
        let jwks = Jwks::parse(set.as_bytes()).unwrap();
        let header = |kid: &str| {
            crate::canonical::parse(format!(r#"{{"kid":"{kid}"}}"#).as_bytes())
                .unwrap()
                .into_owned()
        };
        assert_eq!(
            crate::jws::find_key(&header("rsa-1"), &jwks)
                .unwrap_err()
                .code(),
            ErrorCode::UnsupportedKey
        );
        assert_eq!(
            crate::jws::find_key(&header("other"), &jwks)
                .unwrap_err()
                .code(),
            ErrorCode::UnknownKid
        );
        assert!(crate::jws::find_key(&header("ec-1"), &jwks).is_ok());
    }
}
