//! The registry's rows of one domain: endpoint proofs: challenge proofs and enrollment authority (PROTOCOL §4), their keys and checks.

use super::*;

/// This domain's operations, in manifest order.
pub(super) const OPS: &[Op] = &[
    Op {
        name: "proof_key",
        class: None,
        section: "§3.1",
        doc: "The proof key of an agent key: 64 lowercase hex.",
        params: &[req("agent_key", Str, "the agent key")],
        returns: Returns::Str,
        refine: None,
        run: |a| s(ProofKey::derive(a.str("agent_key")?).to_hex()),
    },
    Op {
        name: "challenge_proof_v1",
        class: None,
        section: "§15.2",
        doc: "The v1 endpoint challenge proof.",
        params: &[
            req("credential", Str, "the agent's credential"),
            req("challenge", Str, "the challenge"),
            req("endpoint", Str, "the endpoint URL"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| {
            s(proof::challenge_proof_v1(
                a.str("credential")?,
                a.str("challenge")?,
                a.str("endpoint")?,
            ))
        },
    },
    Op {
        name: "challenge_proof_v2",
        class: None,
        section: "§3.1",
        doc: "The v2 endpoint challenge proof.",
        params: &[
            req("proof_key", Str, "the proof key: 64 lowercase hex"),
            req("challenge", Str, "the challenge"),
            req("endpoint", Str, "the endpoint URL"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| {
            s(proof::challenge_proof_v2(
                &proof_key(a, "proof_key")?,
                a.str("challenge")?,
                a.str("endpoint")?,
            ))
        },
    },
    Op {
        name: "enroll_authority_v1",
        class: None,
        section: "§4",
        doc: "The v1 enrollment authority.",
        params: &[
            req("agent_key", Str, "the agent key"),
            req("enrollment_id", Str, "the enrollment id"),
            req("nonce", Str, "the nonce"),
            req("endpoint", Str, "the endpoint URL"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| {
            s(proof::enroll_authority_v1(
                a.str("agent_key")?,
                a.str("enrollment_id")?,
                a.str("nonce")?,
                a.str("endpoint")?,
            ))
        },
    },
    Op {
        name: "enroll_authority_v2",
        class: None,
        section: "§4",
        doc: "The v2 enrollment authority.",
        params: &[
            req("proof_key", Str, "the proof key: 64 lowercase hex"),
            req("enrollment_id", Str, "the enrollment id"),
            req("nonce", Str, "the nonce"),
            req("endpoint", Str, "the endpoint URL"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| {
            s(proof::enroll_authority_v2(
                &proof_key(a, "proof_key")?,
                a.str("enrollment_id")?,
                a.str("nonce")?,
                a.str("endpoint")?,
            ))
        },
    },
    Op {
        name: "verify_signature",
        class: None,
        section: "§4",
        doc: "The ekl_verify signature the network expects.",
        params: &[
            req("registration_secret", Str, "the registration secret"),
            req("agent_id", Str, "the agent id"),
            req("enrollment_id", Str, "the enrollment id"),
            req("challenge", Str, "the challenge"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| {
            s(proof::verify_signature(
                a.str("registration_secret")?,
                a.str("agent_id")?,
                a.str("enrollment_id")?,
                a.str("challenge")?,
            ))
        },
    },
    Op {
        name: "check_verify_signature",
        class: None,
        section: "§4",
        doc: "Whether an ekl_verify signature is right (constant-time).",
        params: &[
            req("registration_secret", Str, "the registration secret"),
            req("agent_id", Str, "the agent id"),
            req("enrollment_id", Str, "the enrollment id"),
            req("challenge", Str, "the challenge"),
            req("signature", Str, "the signature received"),
        ],
        returns: Returns::Bool,
        refine: None,
        run: |a| {
            Ok(Out::Bool(proof::check_verify_signature(
                a.str("registration_secret")?,
                a.str("agent_id")?,
                a.str("enrollment_id")?,
                a.str("challenge")?,
                a.str("signature")?,
            )))
        },
    },
    Op {
        name: "verify_challenge_proof",
        class: None,
        section: "§3.1, §15.2",
        doc: "The network side of the endpoint challenge: \"v1\" or \"v2\". Give exactly one of \
              proof_key (only proof_v2 counts; a v1 proof is PROOF_DOWNGRADE) and credential_hash \
              (only the v1 proof can be checked). Refusals: PROOF_INVALID, PROOF_DOWNGRADE.",
        params: &[
            req("challenge", Str, "the challenge"),
            req("endpoint", Str, "the endpoint URL"),
            opt("proof", Str, "the v1 proof received"),
            opt("proof_v2", Str, "the v2 proof received"),
            opt(
                "proof_key",
                Str,
                "the agent's proof key, when the network holds it",
            ),
            opt(
                "credential_hash",
                Str,
                "the credential hash, when the network holds that",
            ),
        ],
        returns: Returns::Str,
        refine: Some("ProofVersion"),
        run: |a| {
            let holds = match (a.opt_str("proof_key")?, a.opt_str("credential_hash")?) {
                (Some(k), None) => NetworkHolds::ProofKey(ProofKey::from_hex(k)?),
                (None, Some(h)) => NetworkHolds::credential_hash_hex(h)?,
                _ => return Err(invalid(
                    "give exactly one of proof_key and credential_hash (what the network holds)",
                )),
            };
            let v = proof::verify_challenge_proof(
                &holds,
                a.str("challenge")?,
                a.str("endpoint")?,
                a.opt_str("proof")?,
                a.opt_str("proof_v2")?,
            )?;
            s(v.as_str().to_owned())
        },
    },
    Op {
        name: "verify_enroll_authority",
        class: None,
        section: "§4",
        doc: "The agent side of ekl_enroll: \"v1\" or \"v2\". After an announced \"v2\" a v1 \
              authority is PROOF_DOWNGRADE; an authority_version other than 1 or 2 is \
              ENROLLMENT_AUTH_REQUIRED.",
        params: &[
            req(
                "announced",
                Str,
                "the endpoint_proof its last announcement answered: v1 or v2",
            )
            .refine("ProofVersion"),
            req("agent_key", Str, "the agent key"),
            req("enrollment_id", Str, "the enrollment id"),
            req("nonce", Str, "the nonce"),
            req("endpoint", Str, "the endpoint URL"),
            opt("authority", Str, "the authority received"),
            opt("authority_version", Int, "the authority's version"),
        ],
        returns: Returns::Str,
        refine: Some("ProofVersion"),
        run: |a| {
            let announced = match a.str("announced")? {
                "v1" => ProofVersion::V1,
                "v2" => ProofVersion::V2,
                _ => return Err(invalid("announced must be v1 or v2")),
            };
            // A version no u32 holds is neither 1 nor 2: the core refuses it as such.
            let version = a
                .opt_int("authority_version")?
                .map(|n| u32::try_from(n).unwrap_or(u32::MAX));
            let v = proof::verify_enroll_authority(
                announced,
                a.str("agent_key")?,
                a.str("enrollment_id")?,
                a.str("nonce")?,
                a.str("endpoint")?,
                a.opt_str("authority")?,
                version,
            )?;
            s(v.as_str().to_owned())
        },
    },
];
