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

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

use crate::error::{ErrorCode, Result};
use crate::hex;

type HmacSha256 = Hmac<Sha256>;

pub(crate) fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut mac =
        <HmacSha256 as KeyInit>::new_from_slice(key).expect("HMAC accepts keys of any length");
    for p in parts {
        mac.update(p);
    }
    mac.finalize().into_bytes().into()
}

/// Constant-time equality of two byte strings (the length is not secret).
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut diff = 0u8;
    for (x, y) in a.iter().zip(b) {
        diff |= x ^ y;
    }
    // Keep the optimiser from turning the fold into an early exit.
    core::hint::black_box(diff) == 0
}

/// Compares a presented hex MAC with the expected bytes in constant time. A presented value that
/// is not 64 lowercase hex characters simply does not match.
pub(crate) fn hex_mac_matches(presented: &str, expected: &[u8; 32]) -> bool {
    match hex::decode_fixed::<32>(presented, ErrorCode::InvalidHex, "mac") {
        Ok(bytes) => ct_eq(&bytes, expected),
        Err(_) => false,
    }
}

/// The proof key of §3.1: HMAC-SHA256(agent key as UTF-8, "ekl-endpoint-proof-v2").
#[derive(Clone, PartialEq, Eq)]
pub struct ProofKey([u8; 32]);

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

/// The ASCII bytes of the lowercase hex SHA-256 of a credential: the v1 key.
fn v1_key(credential: &str) -> String {
    hex::encode(&Sha256::digest(credential.as_bytes()))
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
