//! Fuzz target: the endpoint proofs and the enrollment authority (SPEC §5; PROTOCOL §3.1, §4,
//! §15.2) with arbitrary strings.
//!
//! The input is split at NUL bytes into the challenge, endpoint, presented proofs and the key.
//! Invariants: a proof computed by the library verifies and, with the proof key held, a v1 proof
//! alone is a downgrade; a presented value verifies only when it equals the computed one; the
//! enrollment authority verifies only at its own version; a version other than 1 or 2 is refused.
//! Panics and non-constant-time shortcuts (a proof that verifies without being equal) are findings.
#![no_main]

use ekl_core::proof::{self, NetworkHolds, ProofKey, ProofVersion};
use ekl_core::ErrorCode;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.split('\0');
    let mut next = || parts.next().unwrap_or("");
    let (agent_key, challenge, endpoint, presented, nonce) =
        (next(), next(), next(), next(), next());
    let version = data.first().map_or(0, |b| u32::from(b % 4));

    let key = ProofKey::derive(agent_key);
    let v2 = proof::challenge_proof_v2(&key, challenge, endpoint);
    let holds = NetworkHolds::ProofKey(key.clone());
    assert_eq!(
        proof::verify_challenge_proof(&holds, challenge, endpoint, None, Some(&v2)).ok(),
        Some(ProofVersion::V2)
    );
    let v1 = proof::challenge_proof_v1(agent_key, challenge, endpoint);
    assert_eq!(
        proof::verify_challenge_proof(&holds, challenge, endpoint, Some(&v1), None)
            .err()
            .map(|e| e.code()),
        Some(ErrorCode::ProofDowngrade)
    );
    let verdict = proof::verify_challenge_proof(&holds, challenge, endpoint, None, Some(presented));
    assert_eq!(
        verdict.is_ok(),
        presented == v2,
        "a proof verified without being equal"
    );

    let authority = proof::enroll_authority_v2(&key, challenge, nonce, endpoint);
    let checked = proof::verify_enroll_authority(
        ProofVersion::V1,
        agent_key,
        challenge,
        nonce,
        endpoint,
        Some(presented),
        Some(version),
    );
    match version {
        2 => assert_eq!(checked.is_ok(), presented == authority),
        1 => {
            let v1a = proof::enroll_authority_v1(agent_key, challenge, nonce, endpoint);
            assert_eq!(checked.is_ok(), presented == v1a);
        }
        _ => assert!(
            checked.is_err(),
            "an authority of version {version} was accepted"
        ),
    }
    let sig = proof::verify_signature(agent_key, challenge, nonce, endpoint);
    assert!(proof::check_verify_signature(
        agent_key, challenge, nonce, endpoint, &sig
    ));
    assert_eq!(
        proof::check_verify_signature(agent_key, challenge, nonce, endpoint, presented),
        presented == sig
    );
});
