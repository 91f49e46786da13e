//! Endpoint proofs, enrollment authority and the `ekl_verify` signature (PROTOCOL §3.1, §4, §15.2;
//! SPEC §3, §5).
//!
//! * `proof_key` = HMAC-SHA256(agent key as UTF-8, `"ekl-endpoint-proof-v2"`): 32 bytes, sent as
//!   lowercase hex.
//! * Challenge proof v1 = hex HMAC-SHA256(ASCII of hex SHA-256(credential), challenge ‖ endpoint);
//!   v2 = hex HMAC-SHA256(proof_key, `"ekl-challenge-v2\n"` ‖ challenge ‖ `"\n"` ‖ endpoint).
//! * Enroll authority v1 = hex HMAC-SHA256(ASCII of hex SHA-256(agent key),
//!   `"ekl-enroll-1|<enrollment_id>|<nonce>|<endpoint>"`); v2 keyed with the proof key over
//!   `"ekl-enroll-2|…"`.
//! * `ekl_verify` signature = hex HMAC-SHA256(registration secret,
//!   `"ekl-verify-1.1|<agent_id>|<enrollment_id>|<challenge>"`).
//!
//! No downgrade (§3.1): the verifiers take the state that forbids v1 as an argument. Every
//! comparison is constant-time over the decoded bytes.

use sha2::{Digest, Sha256};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::error::{Error, ErrorCode, Result};
use crate::hex;

pub use crate::mac::ct_eq;
use crate::mac::{hex_mac_matches, hmac_sha256};

/// The proof key of §3.1: HMAC-SHA256(agent key as UTF-8, "ekl-endpoint-proof-v2").
/// Equality is constant-time; `Debug` hides it; it is wiped when dropped ([`ZeroizeOnDrop`]).
#[derive(Clone)]
pub struct ProofKey([u8; 32]);

impl Zeroize for ProofKey {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Drop for ProofKey {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for ProofKey {}

impl PartialEq for ProofKey {
    fn eq(&self, other: &ProofKey) -> bool {
        ct_eq(&self.0, &other.0)
    }
}

impl Eq for ProofKey {}

impl ProofKey {
    /// Derives the proof key from the agent key (the provider credential, `eklp_…`).
    pub fn derive(agent_key: &str) -> ProofKey {
        ProofKey(hmac_sha256(
            agent_key.as_bytes(),
            &[b"ekl-endpoint-proof-v2"],
        ))
    }

    /// Parses a proof key sent as 64 lowercase hex characters (`INVALID_HEX` otherwise).
    pub fn from_hex(text: &str) -> Result<ProofKey> {
        hex::decode_fixed::<32>(text, ErrorCode::InvalidHex, "proof key").map(ProofKey)
    }

    /// The proof key as lowercase hex, as sent to the network.
    pub fn to_hex(&self) -> String {
        hex::encode(&self.0)
    }

    /// The 32 raw bytes.
    pub fn bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl core::fmt::Debug for ProofKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("ProofKey(..)")
    }
}

/// The ASCII bytes of the lowercase hex SHA-256 of a credential: the v1 key (wiped when dropped).
fn v1_key(credential: &str) -> Zeroizing<String> {
    let mut hash: [u8; 32] = Sha256::digest(credential.as_bytes()).into();
    let key = Zeroizing::new(hex::encode(&hash));
    hash.zeroize();
    key
}

fn challenge_v1_bytes(credential: &str, challenge: &str, endpoint: &str) -> [u8; 32] {
    hmac_sha256(
        v1_key(credential).as_bytes(),
        &[challenge.as_bytes(), endpoint.as_bytes()],
    )
}

fn challenge_v2_bytes(key: &ProofKey, challenge: &str, endpoint: &str) -> [u8; 32] {
    hmac_sha256(
        &key.0,
        &[
            b"ekl-challenge-v2\n",
            challenge.as_bytes(),
            b"\n",
            endpoint.as_bytes(),
        ],
    )
}

fn enroll_v1_bytes(agent_key: &str, enrollment_id: &str, nonce: &str, endpoint: &str) -> [u8; 32] {
    let msg = format!("ekl-enroll-1|{enrollment_id}|{nonce}|{endpoint}");
    hmac_sha256(v1_key(agent_key).as_bytes(), &[msg.as_bytes()])
}

fn enroll_v2_bytes(key: &ProofKey, enrollment_id: &str, nonce: &str, endpoint: &str) -> [u8; 32] {
    let msg = format!("ekl-enroll-2|{enrollment_id}|{nonce}|{endpoint}");
    hmac_sha256(&key.0, &[msg.as_bytes()])
}

fn verify_signature_bytes(
    secret: &str,
    agent_id: &str,
    enrollment_id: &str,
    challenge: &str,
) -> [u8; 32] {
    let msg = format!("ekl-verify-1.1|{agent_id}|{enrollment_id}|{challenge}");
    hmac_sha256(secret.as_bytes(), &[msg.as_bytes()])
}

/// The v1 endpoint challenge proof (§15.2): keyed with the hex SHA-256 of the provider credential.
pub fn challenge_proof_v1(credential: &str, challenge: &str, endpoint: &str) -> String {
    hex::encode(&challenge_v1_bytes(credential, challenge, endpoint))
}

/// The v2 endpoint challenge proof (§15.2, §3.1).
pub fn challenge_proof_v2(key: &ProofKey, challenge: &str, endpoint: &str) -> String {
    hex::encode(&challenge_v2_bytes(key, challenge, endpoint))
}

/// The v1 `ekl_enroll` authority (§4).
pub fn enroll_authority_v1(
    agent_key: &str,
    enrollment_id: &str,
    nonce: &str,
    endpoint: &str,
) -> String {
    hex::encode(&enroll_v1_bytes(agent_key, enrollment_id, nonce, endpoint))
}

/// The v2 `ekl_enroll` authority (`authority_version` 2, §4).
pub fn enroll_authority_v2(
    key: &ProofKey,
    enrollment_id: &str,
    nonce: &str,
    endpoint: &str,
) -> String {
    hex::encode(&enroll_v2_bytes(key, enrollment_id, nonce, endpoint))
}

/// The `ekl_verify` signature (§4).
pub fn verify_signature(
    registration_secret: &str,
    agent_id: &str,
    enrollment_id: &str,
    challenge: &str,
) -> String {
    hex::encode(&verify_signature_bytes(
        registration_secret,
        agent_id,
        enrollment_id,
        challenge,
    ))
}

/// Checks an `ekl_verify` signature in constant time.
pub fn check_verify_signature(
    registration_secret: &str,
    agent_id: &str,
    enrollment_id: &str,
    challenge: &str,
    signature: &str,
) -> bool {
    hex_mac_matches(
        signature,
        &verify_signature_bytes(registration_secret, agent_id, enrollment_id, challenge),
    )
}

/// The version of an endpoint proof or enrollment authority that a verifier accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofVersion {
    /// Keyed with the hex SHA-256 of the agent key (1.1; accepted until 2027-05-11 where allowed).
    V1,
    /// Keyed with the proof key (§3.1).
    V2,
}

impl ProofVersion {
    /// `v1` or `v2`, as the protocol's `endpoint_proof` writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            ProofVersion::V1 => "v1",
            ProofVersion::V2 => "v2",
        }
    }

    /// The version named `v1` or `v2` (`INVALID_ARGUMENT` otherwise).
    pub fn from_name(name: &str) -> Result<ProofVersion> {
        match name {
            "v1" => Ok(ProofVersion::V1),
            "v2" => Ok(ProofVersion::V2),
            _ => Err(Error::new(
                ErrorCode::InvalidArgument,
                "endpoint_proof must be v1 or v2",
            )),
        }
    }
}

/// What the network holds for an agent: the no-downgrade state of the network side (§3.1).
/// The hash is the v1 key, so it is secret too: `Debug` hides it, equality is constant-time, and
/// both forms are wiped when dropped.
#[derive(Clone)]
pub enum NetworkHolds {
    /// Only the SHA-256 of the agent key (32 raw bytes): v1 proofs are accepted.
    CredentialHashOnly([u8; 32]),
    /// The agent's proof key: v1 proofs are refused even when they verify (`PROOF_DOWNGRADE`).
    ProofKey(ProofKey),
}

impl PartialEq for NetworkHolds {
    fn eq(&self, other: &NetworkHolds) -> bool {
        match (self, other) {
            (NetworkHolds::CredentialHashOnly(a), NetworkHolds::CredentialHashOnly(b)) => {
                ct_eq(a, b)
            }
            (NetworkHolds::ProofKey(a), NetworkHolds::ProofKey(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for NetworkHolds {}

impl Zeroize for NetworkHolds {
    fn zeroize(&mut self) {
        match self {
            NetworkHolds::CredentialHashOnly(hash) => hash.zeroize(),
            NetworkHolds::ProofKey(key) => key.zeroize(),
        }
    }
}

impl Drop for NetworkHolds {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for NetworkHolds {}

impl core::fmt::Debug for NetworkHolds {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            NetworkHolds::CredentialHashOnly(_) => "NetworkHolds::CredentialHashOnly(..)",
            NetworkHolds::ProofKey(_) => "NetworkHolds::ProofKey(..)",
        })
    }
}

impl NetworkHolds {
    /// The state of a network that stores `sha256_hex` (64 lowercase hex, `INVALID_HEX` otherwise)
    /// and no proof key.
    pub fn credential_hash_hex(sha256_hex: &str) -> Result<NetworkHolds> {
        hex::decode_fixed::<32>(sha256_hex, ErrorCode::InvalidHex, "credential hash")
            .map(NetworkHolds::CredentialHashOnly)
    }

    /// The state of a network that stores only the hash of `agent_key` (for tests and tools).
    pub fn credential_hash_of(agent_key: &str) -> NetworkHolds {
        NetworkHolds::CredentialHashOnly(Sha256::digest(agent_key.as_bytes()).into())
    }
}

/// The network side of the endpoint challenge (§15.2, §3.1): checks the `_meta.ekl.proof` (v1)
/// and `_meta.ekl.proof_v2` an agent answered, in constant time, under the no-downgrade state.
///
/// * Holding the proof key: only `proof_v2` counts; `proof` is ignored and never computed. A
///   missing `proof_v2` is `PROOF_DOWNGRADE` when a v1 `proof` was offered instead, otherwise
///   `PROOF_INVALID`; a wrong `proof_v2` is `PROOF_INVALID`.
/// * Holding only the credential hash: the v1 `proof` must verify (`PROOF_INVALID` when missing or
///   wrong); a `proof_v2` cannot be checked without the proof key and is ignored.
///
/// A presented value that is not 64 lowercase hex characters does not verify.
pub fn verify_challenge_proof(
    holds: &NetworkHolds,
    challenge: &str,
    endpoint: &str,
    proof: Option<&str>,
    proof_v2: Option<&str>,
) -> Result<ProofVersion> {
    match holds {
        NetworkHolds::ProofKey(key) => match (proof_v2, proof) {
            (Some(p), _) if hex_mac_matches(p, &challenge_v2_bytes(key, challenge, endpoint)) => {
                Ok(ProofVersion::V2)
            }
            (Some(_), _) => Err(Error::new(
                ErrorCode::ProofInvalid,
                "proof_v2 does not verify",
            )),
            (None, Some(_)) => Err(Error::new(
                ErrorCode::ProofDowngrade,
                "a v1 proof is refused once the network holds the proof key",
            )),
            (None, None) => Err(Error::new(ErrorCode::ProofInvalid, "proof_v2 missing")),
        },
        NetworkHolds::CredentialHashOnly(hash) => {
            let key = Zeroizing::new(hex::encode(hash));
            let expected =
                hmac_sha256(key.as_bytes(), &[challenge.as_bytes(), endpoint.as_bytes()]);
            match proof {
                Some(p) if hex_mac_matches(p, &expected) => Ok(ProofVersion::V1),
                Some(_) => Err(Error::new(ErrorCode::ProofInvalid, "proof does not verify")),
                None => Err(Error::new(ErrorCode::ProofInvalid, "proof missing")),
            }
        }
    }
}

/// The agent side of `ekl_enroll` (§4, §3.1): checks `authority` (with `authority_version`
/// absent or 1: v1; 2: v2) against the agent's own key, in constant time.
///
/// `announced` is the `endpoint_proof` the agent's last announcement answered (`V1` when it has no
/// answer yet). Once it answered `V2`, a v1 authority is refused with `PROOF_DOWNGRADE` without
/// being computed. A missing or wrong authority is `PROOF_INVALID`; an `authority_version` other
/// than absent, 1 or 2 is `ENROLLMENT_AUTH_REQUIRED` (§4: the protocol defines no other authority,
/// "otherwise it refuses with ENROLLMENT_AUTH_REQUIRED"), judged before the authority itself. For
/// every one of these refusals the agent answers `ENROLLMENT_AUTH_REQUIRED` and keeps nothing.
pub fn verify_enroll_authority(
    announced: ProofVersion,
    agent_key: &str,
    enrollment_id: &str,
    nonce: &str,
    endpoint: &str,
    authority: Option<&str>,
    authority_version: Option<u32>,
) -> Result<ProofVersion> {
    let version = match authority_version {
        None | Some(1) => ProofVersion::V1,
        Some(2) => ProofVersion::V2,
        Some(_) => {
            return Err(Error::new(
                ErrorCode::EnrollmentAuthRequired,
                "authority_version must be absent, 1 or 2",
            ))
        }
    };
    let Some(authority) = authority else {
        return Err(Error::new(ErrorCode::ProofInvalid, "authority missing"));
    };
    let expected = match version {
        ProofVersion::V1 if announced == ProofVersion::V2 => {
            return Err(Error::new(
                ErrorCode::ProofDowngrade,
                "a v1 authority is refused once the announcement answered endpoint_proof v2",
            ))
        }
        ProofVersion::V1 => enroll_v1_bytes(agent_key, enrollment_id, nonce, endpoint),
        ProofVersion::V2 => {
            enroll_v2_bytes(&ProofKey::derive(agent_key), enrollment_id, nonce, endpoint)
        }
    };
    if hex_mac_matches(authority, &expected) {
        Ok(version)
    } else {
        Err(Error::new(
            ErrorCode::ProofInvalid,
            "authority does not verify",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_stay_out_of_debug_and_compare_by_value() {
        let key = ProofKey::derive("eklp_x");
        let hash = NetworkHolds::credential_hash_of("eklp_x");
        let NetworkHolds::CredentialHashOnly(bytes) = &hash else {
            unreachable!()
        };
        for shown in [format!("{key:?}"), format!("{hash:?}")] {
            assert!(!shown.contains(&key.to_hex()[..8]));
            assert!(!shown.contains(&hex::encode(bytes)[..8]));
        }
        assert_eq!(key, ProofKey::derive("eklp_x"));
        assert_ne!(key, ProofKey::derive("eklp_y"));
        assert_eq!(
            hash,
            NetworkHolds::credential_hash_hex(&hex::encode(bytes)).expect("hex")
        );
        assert_ne!(hash, NetworkHolds::ProofKey(key));
        assert_eq!(
            NetworkHolds::credential_hash_hex("AB")
                .expect_err("refused")
                .code(),
            ErrorCode::InvalidHex
        );
    }

    /// §4: an authority_version the protocol does not define is ENROLLMENT_AUTH_REQUIRED, before
    /// the authority is looked at (present and valid for v1 or v2, wrong, or missing).
    #[test]
    fn unknown_authority_versions_are_enrollment_auth_required() {
        let key = "eklp_x";
        let v1 = enroll_authority_v1(key, "enr", "n", "e");
        let v2 = enroll_authority_v2(&ProofKey::derive(key), "enr", "n", "e");
        for version in [0, 3, 7, u32::MAX] {
            for announced in [ProofVersion::V1, ProofVersion::V2] {
                for authority in [Some(v1.as_str()), Some(v2.as_str()), Some("00"), None] {
                    let e = verify_enroll_authority(
                        announced,
                        key,
                        "enr",
                        "n",
                        "e",
                        authority,
                        Some(version),
                    )
                    .expect_err("refused");
                    assert_eq!(e.code(), ErrorCode::EnrollmentAuthRequired);
                    assert!(!e.message().contains(&v1) && !e.message().contains(&v2));
                }
            }
        }
        for (version, want) in [(None, ProofVersion::V1), (Some(1), ProofVersion::V1)] {
            let got =
                verify_enroll_authority(ProofVersion::V1, key, "enr", "n", "e", Some(&v1), version);
            assert_eq!(got, Ok(want));
        }
        let got =
            verify_enroll_authority(ProofVersion::V2, key, "enr", "n", "e", Some(&v2), Some(2));
        assert_eq!(got, Ok(ProofVersion::V2));
    }

    #[test]
    fn malformed_presented_values_do_not_verify() {
        let key = ProofKey::derive("eklp_x");
        let holds = NetworkHolds::ProofKey(key.clone());
        let good = challenge_proof_v2(&key, "c", "e");
        for bad in [
            "",
            "zz",
            &good[..63],
            &format!("{good}0"),
            &good.to_uppercase(),
        ] {
            assert_eq!(
                verify_challenge_proof(&holds, "c", "e", None, Some(bad))
                    .expect_err("refused")
                    .code(),
                ErrorCode::ProofInvalid
            );
        }
        assert_eq!(
            verify_challenge_proof(&holds, "c", "e", None, Some(&good)),
            Ok(ProofVersion::V2)
        );
    }
}
